//! A Zola site's shortcodes, which folio calls in Zola's own syntax.
//!
//! The site's templates (`templates/shortcodes/`, over its theme's) are
//! copied when folio's engine runs the calls of them the import reads:
//! each call is rendered, as a build would, by the shortcodes of folio
//! and of the site together. A call that does not run (a template of
//! Tera's that minijinja does not read, one the site does not have, an
//! argument folio's template of that name does not take) is written as
//! folio's where one does the same: an admonition as a note or a warning,
//! `mermaid` as a fenced block, Zola's `gist` as its script, an image's
//! shortcode as a Markdown image. Any other is taken out, what it showed
//! of text kept (the body it encloses, or its `text`), and named. A call
//! written escaped stays so: the text it shows.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use minijinja::Value;

use super::shortcodes::escape_tag;
use super::tree::TreeDocument;
use super::{Destination, ImportReport, Source};
use crate::model::error::Error;
use crate::source::markdown::MARKDOWN;
use crate::source::shortcodes::syntax::{self, Call, Piece};
use crate::source::shortcodes::{SHORTCODES_DIR, Shortcodes};

/// The admonitions of themes (tabi's `admonition(type=…)`, and those
/// named by their kind): a warning's kinds, the others notes.
const ADMONITIONS: &[&str] = &[
    "admonition",
    "note",
    "info",
    "tip",
    "important",
    "warning",
    "danger",
    "caution",
    "error",
];
const WARNINGS: &[&str] = &["warning", "danger", "caution", "error"];

/// What became of the calls of one body, by how the report names them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Done {
    /// Calls of a template of the site's that folio ran, by name.
    ran: BTreeSet<String>,
    converted: BTreeSet<String>,
    taken_out: BTreeSet<String>,
}

/// Writes the calls of every document as folio runs them (see the
/// module), and copies the site's templates a call ran with into
/// `templates/shortcodes/`.
pub(super) fn convert_all(
    (source, into): (&Source, &Destination),
    theme: Option<&str>,
    documents: &mut [TreeDocument],
    report: &mut ImportReport,
) -> Result<(), Error> {
    let site = site_templates(source, theme, report)?;
    let shortcodes =
        Shortcodes::new(
            crate::render::built_in_shortcodes()
                .map(|(name, text)| (name.to_owned(), text.to_owned()))
                .chain(site.iter().map(|(name, (_, text))| {
                    (format!("{SHORTCODES_DIR}{name}.html"), text.clone())
                })),
            String::new(),
        );
    let mut used = BTreeSet::new();
    for doc in documents.iter_mut() {
        // A call folio cannot read (Zola showed it as text) is shown so.
        let (body, _) = super::shortcodes::escape_unread(&doc.body);
        let mut done = Done::default();
        doc.body = convert(&body, (&shortcodes, &doc.lang), &mut done);
        let note = |map: &mut BTreeMap<String, Vec<String>>, kind: String| {
            map.entry(kind).or_default().push(doc.path.clone());
        };
        for name in done.ran.iter().filter(|name| site.contains_key(*name)) {
            note(
                &mut report.converted,
                format!("{{{{ {name}() }}}} (the site's shortcode, its template copied)"),
            );
        }
        for kind in done.converted {
            note(&mut report.converted, kind);
        }
        for kind in done.taken_out {
            note(&mut report.taken_out, kind);
        }
        used.extend(done.ran);
    }
    for (name, (from, text)) in &site {
        if used.contains(name) {
            let file = format!("{name}.html");
            into.write(&["templates", "shortcodes", &file], text, from)?;
        } else {
            let why = "a shortcode template no call of the import ran (unused, or Tera that folio's templates do not read): not copied";
            report.left_out.push((from.clone(), why.to_owned()));
        }
    }
    Ok(())
}

/// The site's shortcode templates by name, with the file each is read
/// from: its theme's, then its own over them.
fn site_templates(
    source: &Source,
    theme: Option<&str>,
    report: &mut ImportReport,
) -> Result<BTreeMap<String, (String, String)>, Error> {
    let mut folders = Vec::new();
    if let Some(theme) = theme {
        folders.push(
            source
                .root()
                .join("themes")
                .join(theme)
                .join("templates/shortcodes"),
        );
    }
    folders.push(source.root().join("templates/shortcodes"));
    let mut templates = BTreeMap::new();
    for folder in folders.iter().filter(|folder| source.has_folder(folder)) {
        for entry in source.entries(folder)? {
            let path = entry.path();
            let rel = source.relative(path);
            let Some(name) = shortcode_name(path) else {
                if entry.file_type().is_file() {
                    let why = "a shortcode in Markdown, which folio's shortcodes are not: its calls are taken out";
                    report.left_out.push((rel, why.to_owned()));
                }
                continue;
            };
            let text = source.read(path)?;
            templates.insert(name, (rel, text));
        }
    }
    Ok(templates)
}

/// The name of the shortcode whose template is at `path`, an HTML file.
fn shortcode_name(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?.strip_suffix(".html")?;
    let plain = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    plain.then(|| name.to_owned())
}

/// `body` with each call folio runs as it was, the others written as
/// folio's or taken out.
fn convert(body: &str, (shortcodes, lang): (&Shortcodes, &str), done: &mut Done) -> String {
    let Ok(Some(pieces)) = syntax::pieces(body, MARKDOWN) else {
        return body.to_owned();
    };
    let mut out = String::with_capacity(body.len());
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Escaped(call) => out.push_str(&escape_tag(&call)),
            Piece::Call(call) => {
                let inner = call
                    .body
                    .map(|inner| convert(inner, (shortcodes, lang), done));
                let written = match &inner {
                    Some(inner) => format!("{}{inner}{{% end %}}", call.open),
                    None => call.open.to_owned(),
                };
                if runs(shortcodes, &written, lang) {
                    done.ran.insert(call.name.to_owned());
                    out.push_str(&written);
                } else if let Some((fewer, dropped)) =
                    with_arguments_it_takes(shortcodes, &call, inner.as_deref())
                    && runs(shortcodes, &fewer, lang)
                {
                    done.ran.insert(call.name.to_owned());
                    done.converted.insert(format!(
                        "{} without the arguments folio's template does not take ({})",
                        shown(&call, inner.is_some()),
                        dropped.join(", ")
                    ));
                    out.push_str(&fewer);
                } else {
                    out.push_str(&instead(&call, inner.as_deref(), done));
                }
            }
        }
    }
    out
}

/// Whether folio's engine renders the call `written` in a body of `lang`.
fn runs(shortcodes: &Shortcodes, written: &str, lang: &str) -> bool {
    // The body a call encloses is rendered by the build; here, as it is.
    let body_as_is =
        |markdown: &str, _: usize| Ok((markdown.to_owned(), BTreeSet::new(), Vec::new()));
    shortcodes.expand(written, (lang, 1), &body_as_is).is_ok()
}

/// The call written with only the arguments the template of its name
/// takes (Zola's `youtube(id=…, class=…)` as folio's), and those left
/// out; `None` when there is no such template or nothing to leave out.
fn with_arguments_it_takes(
    shortcodes: &Shortcodes,
    call: &Call<'_>,
    inner: Option<&str>,
) -> Option<(String, Vec<String>)> {
    let takes = shortcodes.takes(call.name)?;
    let (kept, dropped): (Vec<_>, Vec<_>) =
        call.args.iter().partition(|(key, _)| takes.contains(**key));
    if dropped.is_empty() {
        return None;
    }
    let kept: Option<Vec<String>> = kept
        .iter()
        .map(|(key, value)| argument(value).map(|value| format!("{key}={value}")))
        .collect();
    let (name, kept) = (call.name, kept?.join(", "));
    let written = match inner {
        Some(inner) => format!("{{% {name}({kept}) %}}{inner}{{% end %}}"),
        None => format!("{{{{ {name}({kept}) }}}}"),
    };
    Some((
        written,
        dropped.iter().map(|(key, _)| (**key).to_owned()).collect(),
    ))
}

/// How the report names the calls of `call`'s shortcode.
fn shown(call: &Call<'_>, encloses: bool) -> String {
    let name = call.name;
    if encloses {
        format!("{{% {name}() %}}")
    } else {
        format!("{{{{ {name}() }}}}")
    }
}

/// What the call folio does not run becomes (see the module).
fn instead(call: &Call<'_>, inner: Option<&str>, done: &mut Done) -> String {
    let name = call.name;
    let shown = shown(call, inner.is_some());
    let text = |key: &str| call.args.get(key).and_then(Value::as_str);
    let said = inner.or_else(|| text("text")).or_else(|| text("body"));
    if ADMONITIONS.contains(&name) {
        let kind = text("type").unwrap_or(name).to_lowercase();
        let folio = if WARNINGS.contains(&kind.as_str()) {
            "warning"
        } else {
            "note"
        };
        let title = text("title").and_then(quoted).map(|t| format!("title={t}"));
        done.converted
            .insert(format!("{shown} as folio's note or warning"));
        return format!(
            "{{% {folio}({}) %}}\n{}\n{{% end %}}",
            title.unwrap_or_default(),
            said.unwrap_or_default().trim()
        );
    }
    if name == "mermaid"
        && let Some(inner) = inner
    {
        done.converted
            .insert(format!("{shown} as a fenced `mermaid` block"));
        return format!("```mermaid\n{}\n```", inner.trim_matches('\n'));
    }
    if name == "gist"
        && let Some(url) = text("url")
    {
        let file = text("file")
            .map(|f| format!("?file={f}"))
            .unwrap_or_default();
        done.converted.insert(format!("{shown} as its script"));
        let mut src = String::new();
        let script = format!("{}.js{file}", url.trim_end_matches('/'));
        let _ = pulldown_cmark_escape::escape_href(&mut src, &script);
        return format!("<script src=\"{src}\"></script>");
    }
    if inner.is_none()
        && let Some(src) = image_source(call)
    {
        let alt = ["alt", "default_alt", "light_alt"]
            .iter()
            .find_map(|key| text(key))
            .unwrap_or_default();
        let alt = alt.replace(['[', ']'], "");
        done.converted
            .insert(format!("{shown} as a Markdown image"));
        // A destination in `<…>` holds neither `<` nor `>`.
        let src = src.replace('<', "%3C").replace('>', "%3E");
        return format!("![{alt}](<{src}>)");
    }
    done.taken_out.insert(format!(
        "{shown} (a shortcode folio cannot run; what it showed of text kept)"
    ));
    said.unwrap_or_default().to_owned()
}

/// The image an image's shortcode shows: its `src`, or else the one of a
/// pair it shows first (`light_src`, `default_src`).
fn image_source<'c>(call: &'c Call<'_>) -> Option<&'c str> {
    let by_key = |key: &str| call.args.get(key).and_then(Value::as_str);
    by_key("src")
        .or_else(|| by_key("light_src"))
        .or_else(|| by_key("default_src"))
        .or_else(|| {
            call.args
                .iter()
                .find(|(key, _)| key.ends_with("_src"))
                .and_then(|(_, value)| value.as_str())
        })
}

/// `text` as a string argument of folio's syntax, in quotes it does not
/// hold (folio's strings have no escapes); `None` when it holds all three.
fn quoted(text: &str) -> Option<String> {
    ['"', '\'', '`']
        .into_iter()
        .find(|quote| !text.contains(*quote))
        .map(|quote| format!("{quote}{text}{quote}"))
}

/// `value` as folio's syntax writes an argument; `None` for what it has
/// no way to write (a string holding all three quotes).
fn argument(value: &Value) -> Option<String> {
    if let Some(text) = value.as_str() {
        return quoted(text);
    }
    if value.kind() == minijinja::value::ValueKind::Bool {
        // minijinja shows a boolean as Python does (`True`).
        return Some(value.is_true().to_string());
    }
    if let Ok(items) = value.try_iter()
        && value.kind() == minijinja::value::ValueKind::Seq
    {
        let items: Option<Vec<String>> = items.map(|item| argument(&item)).collect();
        return Some(format!("[{}]", items?.join(", ")));
    }
    Some(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Folio's shortcodes with the site's `templates`, by name.
    fn shortcodes(templates: &[(&str, &str)]) -> Shortcodes {
        Shortcodes::new(
            crate::render::built_in_shortcodes()
                .map(|(name, text)| (name.to_owned(), text.to_owned()))
                .chain(
                    templates
                        .iter()
                        .map(|(name, text)| ((*name).to_owned(), (*text).to_owned())),
                ),
            String::new(),
        )
    }

    fn converted(body: &str, templates: &[(&str, &str)]) -> (String, Done) {
        let mut done = Done::default();
        let out = convert(body, (&shortcodes(templates), "en"), &mut done);
        (out, done)
    }

    #[test]
    fn a_call_folio_runs_stays_and_its_template_counts_as_used() {
        let stars = (
            "shortcodes/stars.html",
            "{% for i in range(n) %}★{% endfor %}",
        );
        let body = "A {{ stars(n=3) }} and {{ youtube(id=\"abc\") }}.\n\n`{{ nope() }}`\n";
        let (out, done) = converted(body, &[stars]);
        assert_eq!(out, body);
        assert_eq!(done.ran, BTreeSet::from(["stars".into(), "youtube".into()]));
        assert!(done.converted.is_empty() && done.taken_out.is_empty());
    }

    #[test]
    fn a_template_of_tera_s_that_does_not_run_leaves_its_calls_to_be_written_as_folio_s() {
        // Zola's `get_url` is no function of folio's: the call fails, and
        // what it showed is kept.
        let tera = (
            "shortcodes/aside.html",
            "<aside>{{ get_url(path=text) }}</aside>",
        );
        let (out, done) = converted("{{ aside(text=\"Aside.\") }}\n", &[tera]);
        assert_eq!(out, "Aside.\n");
        assert!(done.ran.is_empty());
        assert_eq!(done.taken_out.len(), 1, "{done:?}");
    }

    #[test]
    fn admonitions_mermaid_gists_and_images_become_folio_s() {
        let body = "{{ admonition(type=\"danger\", title=\"Careful\", text=\"Do *not*.\") }}\n\n\
                    {% admonition(type=\"tip\") %}\nA tip.\n{% end %}\n\n\
                    {% mermaid() %}\ngraph TD\n{% end %}\n\n\
                    {{ gist(url=\"https://gist.github.com/a/b\", file=\"x.rs\") }}\n\n\
                    {{ dual_theme_image(light_src=\"day.webp\", dark_src=\"night.webp\" alt=\"Paris [by day]\") }}\n";
        let (out, done) = converted(body, &[]);
        assert_eq!(
            out,
            "{% warning(title=\"Careful\") %}\nDo *not*.\n{% end %}\n\n\
             {% note() %}\nA tip.\n{% end %}\n\n\
             ```mermaid\ngraph TD\n```\n\n\
             <script src=\"https://gist.github.com/a/b.js?file=x.rs\"></script>\n\n\
             ![Paris by day](<day.webp>)\n"
        );
        assert_eq!(done.converted.len(), 5, "{done:?}");
        // What it became runs.
        assert_eq!(converted(&out, &[]).0, out);
        let (odd, _) = converted(
            "{{ gist(url='https://g.io/a\"b') }} {{ img(src=\"a>b.png\") }}",
            &[],
        );
        assert_eq!(
            odd,
            "<script src=\"https://g.io/a%22b.js\"></script> ![](<a%3Eb.png>)"
        );
    }

    #[test]
    fn a_call_with_arguments_folio_s_template_lacks_keeps_the_others() {
        let (out, done) = converted(
            "{{ youtube(id=\"abc\", class=\"wide\", autoplay=true) }}",
            &[],
        );
        assert_eq!(out, "{{ youtube(id=\"abc\") }}");
        assert_eq!(
            done.converted,
            BTreeSet::from([
                "{{ youtube() }} without the arguments folio's template does not take (autoplay, class)".into()
            ])
        );
    }

    #[test]
    fn an_unknown_call_is_taken_out_with_what_it_showed_of_text() {
        let body = "{% wide_container() %}\n| a |\n|---|\n{% end %}\n\n{{ iine() }}\n\n{{ spoiler(text=\"It ends well.\") }}\n\nShown: {{/* iine() */}}\n";
        let (out, done) = converted(body, &[]);
        assert_eq!(
            out,
            "\n| a |\n|---|\n\n\n\n\nIt ends well.\n\nShown: {{/* iine() */}}\n"
        );
        assert_eq!(done.taken_out.len(), 3, "{done:?}");
    }

    #[test]
    fn a_title_is_quoted_with_a_quote_it_does_not_hold() {
        assert_eq!(quoted("it's"), Some("\"it's\"".into()));
        assert_eq!(quoted("a \"b\" c's"), Some("`a \"b\" c's`".into()));
        assert_eq!(quoted("\"'`"), None);
        assert_eq!(
            argument(&Value::from(vec![Value::from("a"), Value::from(2)])),
            Some("[\"a\", 2]".into())
        );
        assert_eq!(argument(&Value::from(true)), Some("true".into()));
    }

    #[test]
    fn a_boolean_argument_kept_reads_back() {
        let (out, _) = converted(
            "{% details(summary=\"S\", open=true, class=\"x\") %}\nBody\n{% end %}",
            &[],
        );
        assert_eq!(
            out,
            "{% details(open=true, summary=\"S\") %}\nBody\n{% end %}"
        );
    }
}
