//! Liquid as Jekyll runs it on a document before Markdown, evaluated where
//! its values are known: `{{ page.title }}`, `{% assign %}`,
//! `{% capture %}`, `if`/`unless`/`case`/`for` over the front matter and
//! `_config.yml`, `{% include %}` from `_includes/` with its parameters,
//! `{% raw %}`, `{% highlight %}` as fenced code, and the filters Jekyll
//! sites use most.
//!
//! Jekyll reads a variable it has no value for as nil, and its includes
//! test their optional parameters all the time; liquid-rust, the Rust
//! Liquid, refuses every undefined variable (cobalt-org/liquid-rust#477),
//! so this small reader does it Jekyll's way. What needs the whole site
//! (`site.posts`, `paginator`, `page.next`), a filter or a tag not here, or
//! an include that is missing, is not guessed: the construct holding it is
//! left out and counted by the caller ([`Unresolved`]).

use std::collections::BTreeMap;

use serde_json::{Map, Value};

mod eval;
mod filters;
mod parse;

use parse::parse;

pub(super) use filters::{escape, relative_url};

/// What a document's Liquid reads, and what the tags Jekyll adds give.
pub(super) trait Site {
    /// `site`: `_config.yml` with `data` (`_data/`), as Jekyll gives it.
    fn site(&self) -> &Value;
    /// The text of `_includes/<name>`, if there is one.
    fn include(&self, name: &str) -> Option<String>;
    /// What `{% include name params %}` becomes when a folio shortcode does
    /// what the include did (`video` → `youtube`), given its parameters.
    fn shortcode(&self, name: &str, params: &Map<String, Value>) -> Option<String>;
    /// `{% post_url 2010-09-09-name %}` and `{% link _docs/x.md %}`: the
    /// `@/` link to where the import wrote that document.
    fn document_link(&self, tag: &str, argument: &str) -> Option<String>;
}

/// Around the text of a `{% raw %}` in an evaluated text, until
/// [`raw_as_written`] takes them out: characters of Unicode's private use
/// area, which no text of a post holds.
const RAW_START: char = '\u{E000}';
const RAW_END: char = '\u{E001}';

/// `text`, evaluated (and its Markdown otherwise mended), with each
/// `{% raw %}` text as folio must hold it to show it as written: a folio
/// call in it (`{{ url_for('x') }}`) escaped, unless it is in code, where
/// folio reads no call and shows the escape.
pub(super) fn raw_as_written(text: &str) -> String {
    if !text.contains(RAW_START) {
        return text.to_owned();
    }
    let code =
        crate::source::shortcodes::syntax::code_ranges(text, crate::source::markdown::MARKDOWN);
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    while let Some(found) = text[rest..].find(RAW_START) {
        let start = rest + found;
        out.push_str(&text[rest..start]);
        let inner = start + RAW_START.len_utf8();
        let end = text[inner..]
            .find(RAW_END)
            .map_or(text.len(), |at| inner + at);
        let raw = &text[inner..end];
        match code.iter().any(|range| range.contains(&start)) {
            true => out.push_str(raw),
            false => out.push_str(&super::shortcodes::escape_calls(raw).0),
        }
        rest = (end + RAW_END.len_utf8()).min(text.len());
    }
    out.push_str(&text[rest..]);
    out.replace(RAW_END, "")
}

/// Why a construct could not be evaluated: what it needed, as the report
/// names it (`{% for %} over site.posts`, `the filter date`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Unresolved(pub String);

/// A document's text with its Liquid evaluated, and what had to be left
/// out, by what it needed, with how many times.
#[derive(Debug, Default)]
pub(super) struct Evaluated {
    pub text: String,
    pub left_out: BTreeMap<String, usize>,
    /// Constructs evaluated or converted, by kind (`{% include figure %}`).
    pub converted: BTreeMap<String, usize>,
}

/// Runs the Liquid of `text`, a document whose front matter is `page`.
/// Each top-level construct is evaluated on its own: one that cannot be is
/// left out (never left as Liquid) and counted. A construct alone on its
/// lines that writes HTML is kept one HTML block, followed by a blank
/// line, so that Markdown after it (a link reference definition) is not
/// read as part of it. `None` when the text is not Liquid Jekyll would
/// have read (a tag left open): the caller keeps it as it is.
pub(super) fn evaluate(text: &str, page: &Value, site: &dyn Site) -> Option<Evaluated> {
    let nodes = parse(text).ok()?;
    let mut run = eval::Run::new(site, page);
    let mut out = Evaluated::default();
    for node in &nodes {
        // An include alone on its lines writes a block of HTML.
        let alone =
            node.alone_on_its_lines() && node.kind().is_some_and(|k| k.starts_with("{% include"));
        let mut written = String::new();
        let plugins_before = run.unwrapped.len();
        match run.node(node, &mut written) {
            Ok(()) => {
                // A plugin's block, unwrapped, is not converted: it is named.
                let converted = run.unwrapped.len() == plugins_before;
                if let Some(kind) = node.kind().filter(|_| converted) {
                    *out.converted.entry(kind).or_default() += 1;
                }
                if alone && written.trim_start().starts_with('<') {
                    written = one_html_block(&written);
                }
                if written.starts_with("@/") {
                    without_base_before(&mut out.text, site);
                }
                out.text.push_str(&written);
            }
            Err(Unresolved(why)) => {
                *out.left_out.entry(why).or_default() += 1;
            }
        }
    }
    for tag in run.unwrapped {
        let why = format!("{tag} (a plugin's: its text kept without it)");
        *out.left_out.entry(why).or_default() += 1;
    }
    Some(out)
}

/// `text` without the site's `baseurl` (or `{{ "" | relative_url }}`'s
/// `baseurl/`) it ends with, where an `@/` link comes next: `{{
/// site.baseurl }}{% post_url x %}` was the post's URL, which the `@/`
/// link is whole (the build puts it under the base path).
pub(super) fn without_base_before(text: &mut String, site: &dyn Site) {
    let base = site
        .site()
        .get("baseurl")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("");
    let base = base.trim_end_matches('/');
    let with_slash = format!("{base}/");
    for before in [with_slash.as_str(), base] {
        if !before.is_empty() && text.ends_with(before) {
            text.truncate(text.len() - before.len());
            return;
        }
    }
}

/// HTML written where a block stood, as one Markdown HTML block: without
/// blank lines (which would end it, and make an indented line after them
/// code), its first line not indented, and a blank line after it.
fn one_html_block(html: &str) -> String {
    let mut block = super::html_as_markdown(html).trim_start().to_owned();
    block.push('\n');
    block
}

#[cfg(test)]
mod tests;
