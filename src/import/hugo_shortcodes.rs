//! Hugo's shortcodes written as folio's: its built-in ones (`figure`,
//! `youtube`, `vimeo`, `gist`, `highlight`, `ref`, `relref`, `param`) and a
//! site's own that do what one of folio's does (`note`, `warning`); a call
//! folio cannot run is taken out, the text between its tags kept, and
//! named. Hugo's escaped calls (`{{</* x */>}}`) are the text they showed.

use std::collections::BTreeMap;

use std::ops::Range;

use serde_json::Value;

use super::ImportReport;
use super::tree::TreeDocument;
use crate::source::markdown::MARKDOWN;
use crate::source::shortcodes::syntax::code_ranges;

/// One call: `{{< name args >}}`, `{{% name args %}}`, or its closing tag.
#[derive(Debug, PartialEq)]
struct Call {
    name: String,
    /// Positional arguments, then named ones, as written (unquoted).
    positional: Vec<String>,
    named: BTreeMap<String, String>,
    closing: bool,
    self_closing: bool,
}

/// What a document's shortcodes became.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Converted {
    /// Calls written as folio's, by name.
    pub converted: BTreeMap<String, usize>,
    /// Calls taken out (their inner text kept), by name.
    pub left_out: BTreeMap<String, usize>,
}

/// What converting needs from the site: where a `ref` leads, and `param`.
pub(super) struct Context<'a> {
    /// `ref "path"` (as Hugo resolves it for this document) to the `@/`
    /// path of the document there.
    pub reference: &'a dyn Fn(&str) -> Option<String>,
    /// The page's front matter, then the site's `params`.
    pub page: &'a Value,
    pub params: &'a Value,
}

/// Writes the shortcodes of every document as folio's, noting what was
/// converted and what taken out. `pages` holds each document's front
/// matter and its path under its language's content folder (what a `ref`
/// names it by).
pub(super) fn convert_all(
    documents: &mut [TreeDocument],
    pages: &[(Value, String)],
    params: &Value,
    report: &mut ImportReport,
) {
    // A document by its language and its path under its content folder,
    // without extension; its `@/` path as the import reads links.
    let mut by_path: BTreeMap<(String, String), String> = BTreeMap::new();
    for (doc, (_, under_root)) in documents.iter().zip(pages) {
        let stem = under_root
            .rsplit_once('.')
            .map_or(under_root.as_str(), |(stem, _)| stem);
        let old = doc.path.split_once('/').map_or("", |(_, rest)| rest);
        by_path.insert((doc.lang.clone(), stem.to_owned()), format!("@/{old}"));
    }
    for (doc, (page, under_root)) in documents.iter_mut().zip(pages) {
        let folder = under_root.rsplit_once('/').map_or("", |(folder, _)| folder);
        let lang = doc.lang.clone();
        let reference = |path: &str| {
            let (path, anchor) = path.split_once('#').map_or((path, ""), |(p, a)| (p, a));
            let path = path.trim_end_matches('/');
            let path = path
                .rsplit_once('.')
                .filter(|(_, ext)| !ext.contains('/'))
                .map_or(path, |(stem, _)| stem);
            let candidates = match path.strip_prefix('/') {
                Some(rooted) => vec![rooted.to_owned()],
                None => vec![
                    format!("{folder}/{path}")
                        .trim_start_matches('/')
                        .to_owned(),
                    path.to_owned(),
                ],
            };
            let found = candidates.iter().find_map(|c| {
                ["", "/index", "/_index"]
                    .iter()
                    .find_map(|end| by_path.get(&(lang.clone(), format!("{c}{end}"))))
            })?;
            Some(if anchor.is_empty() {
                found.clone()
            } else {
                format!("{found}#{anchor}")
            })
        };
        let context = Context {
            reference: &reference,
            page,
            params,
        };
        let (body, done) = convert(&doc.body, &context);
        // What the text around a call made of it (a fence it opened, calls
        // crossing code) must not fail the build: such a call is shown as
        // written.
        let (body, unread) = super::shortcodes::escape_unread(&body);
        if unread > 0 {
            let why = "a folio call the text around it left unreadable (a call crossing code), shown as written".to_owned();
            report
                .taken_out
                .entry(why)
                .or_default()
                .push(doc.path.clone());
        }
        doc.body = body;
        for name in done.converted.into_keys() {
            let kind = format!("{{{{< {name} >}}}}");
            report
                .converted
                .entry(kind)
                .or_default()
                .push(doc.path.clone());
        }
        for name in done.left_out.into_keys() {
            // Folio has these three: what it lacked is what they name.
            let why = match name.as_str() {
                "ref" | "relref" => "a link to a page the imported site does not hold",
                "param" => "a parameter neither the page nor the site sets",
                _ => "a shortcode folio does not have; the text between its tags kept",
            };
            let why = format!("{{{{< {name} >}}}} ({why})");
            report
                .taken_out
                .entry(why)
                .or_default()
                .push(doc.path.clone());
        }
    }
}

/// `body` with its shortcode calls written as folio's (see the module).
/// Calls inside code are left as written.
pub(super) fn convert(body: &str, context: &Context<'_>) -> (String, Converted) {
    let mut out = String::with_capacity(body.len());
    let mut done = Converted::default();
    let code = code_ranges(body, MARKDOWN);
    let mut pos = 0;
    // Each open paired call, with what closes it in folio, and where its
    // opening was written (taken out again if nothing closes it).
    let mut open: Vec<(String, &'static str, std::ops::Range<usize>)> = Vec::new();
    while let Some(at) = next_call(body, pos) {
        out.push_str(&body[pos..at]);
        let tail = &body[at..];
        let (delimiter, close) = if tail.starts_with("{{<") {
            ('<', ">}}")
        } else {
            ('%', "%}}")
        };
        let Some(end) = tail[3..].find(close).map(|at| at + 3) else {
            out.push_str(tail);
            return (out, done);
        };
        let inside = &tail[3..end];
        pos = at + end + 3;
        // `{{</* figure */>}}` shows the call itself.
        if let Some(escaped) = inside
            .trim()
            .strip_prefix("/*")
            .and_then(|i| i.strip_suffix("*/"))
        {
            let closing = if delimiter == '<' { '>' } else { '%' };
            out.push_str(&format!("{{{{{delimiter} {} {closing}}}}}", escaped.trim()));
            continue;
        }
        // Hugo ran a call in code too; folio reads none there: it stays.
        if code.iter().any(|range| range.contains(&at)) {
            out.push_str(&tail[..end + 3]);
            continue;
        }
        let Some(call) = read_call(inside) else {
            out.push_str(&tail[..end + 3]);
            continue;
        };
        if call.closing {
            // Calls nest: a closing tag closes the last call opened, or
            // nothing (Hugo refuses calls that cross).
            match open.pop_if(|(name, _, _)| *name == call.name) {
                Some((_, closing, _)) => {
                    out.push_str(&on_its_line(&out, closing, &body[pos..]));
                }
                None => {
                    *done
                        .left_out
                        .entry(format!("{{{{< /{} >}}}}", call.name))
                        .or_default() += 1
                }
            }
            continue;
        }
        let paired = !call.self_closing && has_closing((body, pos), &call.name, &code);
        match folio_call(&call, paired, context) {
            Some((text, closing)) => {
                let start = out.len();
                out.push_str(&on_its_line(&out, &text, &body[pos..]));
                *done.converted.entry(call.name.clone()).or_default() += 1;
                if paired {
                    open.push((call.name, closing, start..out.len()));
                }
            }
            None => {
                *done.left_out.entry(call.name.clone()).or_default() += 1;
                if paired {
                    open.push((call.name, "", out.len()..out.len()));
                }
            }
        }
    }
    out.push_str(&body[pos..]);
    // A call one closing tag was counted for twice (nested in one of its
    // name) is closed by nothing: its opening would leave a folio block
    // open, or a fence running to the end.
    for (name, _, written) in open
        .into_iter()
        .rev()
        .filter(|(_, closing, _)| !closing.is_empty())
    {
        out.replace_range(written, "");
        if let Some(count) = done.converted.get_mut(&name) {
            *count -= 1;
        }
        *done.left_out.entry(name).or_default() += 1;
    }
    done.converted.retain(|_, count| *count > 0);
    (out, done)
}

/// `written` as it goes after `out`, followed by `next`: a code fence on a
/// line of its own, as Markdown reads one.
fn on_its_line(out: &str, written: &str, next: &str) -> String {
    if !written.starts_with("```") {
        return written.to_owned();
    }
    let before = if out.is_empty() || out.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    let after = if next.starts_with('\n') { "" } else { "\n" };
    format!("{before}{written}{after}")
}

/// Where the next call at or after `from` starts in `body`: Hugo reads
/// them anywhere, in code too.
fn next_call(body: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(found) = body.get(at..)?.find("{{") {
        let start = at + found;
        if matches!(body.as_bytes().get(start + 2), Some(b'<' | b'%')) {
            return Some(start);
        }
        at = start + 2;
    }
    None
}

/// Whether `body` closes the call `name` (`{{< /name >}}`) after `from`,
/// outside code.
fn has_closing((body, from): (&str, usize), name: &str, code: &[Range<usize>]) -> bool {
    let mut pos = from;
    while let Some(at) = next_call(body, pos) {
        let tail = &body[at..];
        let close = if tail.starts_with("{{<") {
            ">}}"
        } else {
            "%}}"
        };
        let Some(end) = tail[3..].find(close).map(|end| end + 3) else {
            return false;
        };
        let in_code = code.iter().any(|range| range.contains(&at));
        if !in_code
            && read_call(&tail[3..end]).is_some_and(|call| call.closing && call.name == name)
        {
            return true;
        }
        pos = at + end + 3;
    }
    false
}

/// `name "positional" key="value" key2=bare /` as a call.
fn read_call(inside: &str) -> Option<Call> {
    let inside = inside.trim();
    let (closing, inside) = match inside.strip_prefix('/') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, inside),
    };
    let (self_closing, inside) = match inside.strip_suffix('/') {
        Some(rest) => (true, rest.trim_end()),
        None => (false, inside),
    };
    let mut words = words(inside).into_iter();
    let name = words.next()?;
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || "_-/.".contains(c))
    {
        return None;
    }
    let mut call = Call {
        name,
        positional: Vec::new(),
        named: BTreeMap::new(),
        closing,
        self_closing,
    };
    for word in words {
        match word.split_once('=') {
            Some((key, value)) if !key.is_empty() && !key.contains(['"', '`']) => {
                call.named.insert(key.to_owned(), unquote(value));
            }
            _ => call.positional.push(unquote(&word)),
        }
    }
    Some(call)
}

/// Words separated by white space outside `"…"` and `` `…` ``.
fn words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (None, '"' | '`') => {
                quote = Some(c);
                word.push(c);
            }
            (Some(q), _) if q == c => {
                quote = None;
                word.push(c);
            }
            (None, c) if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            _ => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn unquote(text: &str) -> String {
    let unquoted = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
    let raw = text.strip_prefix('`').and_then(|t| t.strip_suffix('`'));
    match (unquoted, raw) {
        (Some(inner), _) => inner.replace("\\\"", "\""),
        (_, Some(inner)) => inner.to_owned(),
        _ => text.to_owned(),
    }
}

/// A folio call doing what `call` did, and what closes it when it is
/// paired; `None` for one folio cannot run.
fn folio_call(call: &Call, paired: bool, context: &Context<'_>) -> Option<(String, &'static str)> {
    let arg = |key: &str, at: usize| {
        call.named
            .get(key)
            .or_else(|| call.positional.get(at))
            .filter(|v| !v.is_empty())
    };
    let quoted = |text: &str| Value::String(text.to_owned()).to_string();
    let args = |pairs: &[(&str, Option<&String>)]| {
        let written: Vec<String> = pairs
            .iter()
            .filter_map(|(k, v)| Some(format!("{k}={}", quoted((*v)?))))
            .collect();
        written.join(", ")
    };
    let inline = |text: String| Some((text, ""));
    match call.name.as_str() {
        "figure" if !paired => {
            let caption = call.named.get("caption").or(call.named.get("title"));
            let pairs = [
                ("src", arg("src", 0)),
                ("alt", call.named.get("alt")),
                ("caption", caption),
                ("link", call.named.get("link")),
                ("width", call.named.get("width")),
                ("height", call.named.get("height")),
                ("class", call.named.get("class")),
            ];
            arg("src", 0)?;
            inline(format!("{{{{ figure({}) }}}}", args(&pairs)))
        }
        // A video without its id is no call folio's player can make.
        "youtube" if !paired && arg("id", 0).is_some() => inline(format!(
            "{{{{ youtube({}) }}}}",
            args(&[
                ("id", arg("id", 0)),
                ("start", call.named.get("start")),
                ("title", call.named.get("title"))
            ])
        )),
        "vimeo" if !paired && arg("id", 0).is_some() => inline(format!(
            "{{{{ vimeo({}) }}}}",
            args(&[("id", arg("id", 0)), ("title", call.named.get("title"))])
        )),
        "gist" if !paired => {
            let (user, id) = (arg("user", 0)?, arg("id", 1)?);
            let file = arg("file", 2)
                .map(|f| format!("?file={f}"))
                .unwrap_or_default();
            inline(format!(
                "<script src=\"https://gist.github.com/{user}/{id}.js{file}\"></script>"
            ))
        }
        "highlight" if paired => {
            let language = arg("lang", 0).map_or("text", String::as_str);
            let options = call
                .positional
                .get(1)
                .map(|o| hugo_options(o))
                .unwrap_or_default();
            Some((format!("```{language}{options}"), "```"))
        }
        "ref" | "relref" if !paired => (context.reference)(arg("path", 0)?).and_then(inline),
        "param" if !paired => {
            let key = arg("name", 0)?;
            let value = lookup(context.page, key).or_else(|| lookup(context.params, key))?;
            inline(super::scalar_text(value)?)
        }
        "note" | "warning" | "tip" | "caution" | "details" if paired => {
            let name = match call.name.as_str() {
                "tip" => "note",
                "caution" => "warning",
                other => other,
            };
            let title = match name {
                "details" => args(&[("summary", arg("summary", 0))]),
                _ => args(&[("title", arg("title", 0))]),
            };
            Some((format!("{{% {name}({title}) %}}"), "{% end %}"))
        }
        _ => None,
    }
}

/// Hugo's `"linenos=table,hl_lines=8 15-17,linenostart=199"` as folio's
/// fence options (`,linenos,hl_lines=8 15-17,linenostart=199`).
fn hugo_options(options: &str) -> String {
    let mut written = String::new();
    for option in options.split(',') {
        match option.trim().split_once('=') {
            Some(("linenos", "false")) => {}
            Some(("linenos", _)) => written.push_str(",linenos"),
            Some((key @ ("hl_lines" | "linenostart"), value)) => {
                written.push_str(&format!(",{key}={}", value.trim_matches(['[', ']'])))
            }
            _ => {}
        }
    }
    written
}

/// `a.b` in `value`, Hugo's keys read without regard to case.
fn lookup<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    key.split('.').try_fold(value, |value, part| {
        let map = value.as_object()?;
        map.get(part).or_else(|| {
            map.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(part))
                .map(|(_, v)| v)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convert_alone(body: &str) -> (String, Converted) {
        let reference = |path: &str| (path == "/blog/a.md").then(|| "@/en/blog/a.md".to_owned());
        let page = serde_json::json!({"Version": "1.17"});
        let params = serde_json::json!({"release": {"name": "Halley"}});
        convert(
            body,
            &Context {
                reference: &reference,
                page: &page,
                params: &params,
            },
        )
    }

    #[test]
    fn hugo_s_built_in_shortcodes_become_folio_s() {
        let (out, done) = convert_alone(
            "{{<figure width=\"600\" src=\"/i/a.png\" caption=\"Figure 1.\">}}\n\
             {{< youtube w7Ft2ymGmfc >}} {{< vimeo id=\"146022717\" >}} {{< gist spf13 7896402 >}}\n\
             [a]({{< ref \"/blog/a.md\" >}}) v{{< param Version >}} {{% param \"release.name\" %}}\n\
             {{< highlight go \"linenos=table,hl_lines=8 15-17\" >}}\nfunc main() {}\n{{< /highlight >}}\n",
        );
        assert_eq!(
            out,
            "{{ figure(src=\"/i/a.png\", caption=\"Figure 1.\", width=\"600\") }}\n\
             {{ youtube(id=\"w7Ft2ymGmfc\") }} {{ vimeo(id=\"146022717\") }} <script src=\"https://gist.github.com/spf13/7896402.js\"></script>\n\
             [a](@/en/blog/a.md) v1.17 Halley\n\
             ```go,linenos,hl_lines=8 15-17\nfunc main() {}\n```\n"
        );
        assert_eq!(done.converted.values().sum::<usize>(), 8);
        assert!(done.left_out.is_empty());
    }

    /// The pieces Hugo's shortcodes are made of, which the property test
    /// shuffles.
    const PIECES: &[&str] = &[
        "{{<",
        ">}}",
        "{{%",
        "%}}",
        "{{< note >}}",
        "{{< /note >}}",
        "{{% x %}}",
        "{{</* y */>}}",
        "{{< figure src=\"a.png\" >}}",
        "{{< highlight go \"linenos=table\" >}}",
        "{{< /highlight >}}",
        "{{< ref \"a.md\" >}}",
        "{{< youtube >}}",
        "{{< /x >}}",
        "```",
        "\n",
        "`",
        "é",
        "x",
        " ",
        "{{",
        "}}",
    ];

    #[test]
    fn whatever_the_calls_the_body_is_one_a_build_reads() {
        for body in crate::import::shuffled(PIECES, 2_000, 0x9E37_79B9_7F4A_7C15) {
            let (out, _) = convert_alone(&body);
            let (out, _) = crate::import::shortcodes::escape_unread(&out);
            let read = crate::source::shortcodes::syntax::pieces(&out, MARKDOWN);
            assert!(read.is_ok(), "{body:?}\n→ {out:?}\n{read:?}");
        }
    }

    #[test]
    fn a_highlight_in_a_line_is_fenced_on_lines_of_its_own() {
        let (out, _) = convert_alone("See {{< highlight go >}}x := 1{{< /highlight >}} here.");
        assert_eq!(out, "See \n```go\nx := 1\n```\n here.");
    }

    #[test]
    fn a_call_nothing_closes_is_taken_out() {
        let (out, done) =
            convert_alone("{{< note >}}a{{< note >}}b{{< /note >}}c\n{{< highlight go >}}\nx");
        assert_eq!(out, "a{% note() %}b{% end %}c\n\nx");
        assert_eq!(
            (
                done.converted["note"],
                done.left_out["note"],
                done.left_out["highlight"]
            ),
            (1, 1, 1)
        );
        // Calls that cross: the closing tag of the outer one inside the
        // inner one closes nothing, and the outer one is taken out.
        let (out, _) = convert_alone(
            "{{< note >}}a\n{{< highlight go >}}\nb {{< /note >}}\n{{< /highlight >}}\nc",
        );
        assert_eq!(out, "a\n```go\nb \n```\nc");
    }

    #[test]
    fn a_video_without_its_id_is_taken_out() {
        let (out, done) = convert_alone("a {{< youtube >}} b {{< vimeo title=\"x\" >}}");
        assert_eq!(out, "a  b ");
        assert_eq!(done.left_out.len(), 2);
    }

    #[test]
    fn broken_calls_are_text_and_a_closing_tag_in_code_closes_nothing() {
        let (out, _) = convert_alone("a {{%}} b {{<>}} c {{< x");
        assert_eq!(out, "a {{%}} b {{<>}} c {{< x");
        // The note's closing tag is only shown in code: the note is not
        // paired, so it is taken out alone.
        let (out, done) = convert_alone("{{< note >}} text\n```\n{{< /note >}}\n```\n");
        assert_eq!(out, " text\n```\n{{< /note >}}\n```\n");
        assert_eq!(done.left_out["note"], 1);
    }

    #[test]
    fn a_site_s_shortcodes_become_folio_s_or_are_taken_out_keeping_their_text() {
        let (out, done) = convert_alone(
            "{{< note >}}\nRead **this**.\n{{< /note >}}  \n{{% blocks/feature icon=\"fa-x\" %}}\nInside.\n{{% /blocks/feature %}}\n\
             {{< deprecationwarning >}} `{{</* note */>}}`\n```\n{{< note >}}\n```\n",
        );
        assert_eq!(
            out,
            "{% note() %}\nRead **this**.\n{% end %}  \n\nInside.\n\n `{{< note >}}`\n```\n{{< note >}}\n```\n"
        );
        assert_eq!(done.converted["note"], 1);
        assert_eq!(
            done.left_out.keys().collect::<Vec<_>>(),
            ["blocks/feature", "deprecationwarning"]
        );
    }
}
