//! kramdown's attribute lists (`{: .notice--info}`, `{: #id}`, `{:toc}`),
//! which Jekyll's Markdown reads and CommonMark shows as text, written as
//! what gives the same HTML: a heading's as its `{#id .class}`, a block's
//! as a `<div>` around it, a link's or an image's as its HTML tag; the
//! list a `{:toc}` marks is the theme's table of contents. An HTML block
//! kramdown reads Markdown in (`markdown="1"`) is spaced as CommonMark
//! needs to read it so.

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag};

use super::liquid::escape;
use crate::source::markdown::MARKDOWN;
use crate::source::shortcodes::syntax::code_ranges;

/// What became of a document's attribute lists.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Attributes {
    /// Set on what they followed.
    pub applied: usize,
    /// `{:toc}` lists, which the theme's contents replace.
    pub tables_of_contents: usize,
    /// Attributes that are no class or id (`rules="groups"`), and lists
    /// after nothing they could be set on: taken out of the text.
    pub dropped: usize,
}

/// `body` with its attribute lists applied (see the module); code is left
/// as written.
pub(super) fn attribute_lists(body: &str) -> (String, Attributes) {
    let mut done = Attributes::default();
    let body = span_lists(body, &mut done);
    let body = block_lists(&body, &mut done);
    (body, done)
}

/// A list's classes and id, and whether it held anything else.
#[derive(Debug, Default, PartialEq, Eq)]
struct List {
    classes: Vec<String>,
    id: Option<String>,
    other: bool,
}

impl List {
    /// `{: .a .b #c key="v"}` (or `{:.a}`); `None` for what is none.
    fn read(text: &str) -> Option<List> {
        let inner = text.trim().strip_prefix("{:")?.strip_suffix('}')?;
        if inner.starts_with(':') {
            // `{::comment}` and other extensions are not attribute lists.
            return None;
        }
        let mut list = List::default();
        for word in inner.split_whitespace() {
            if let Some(class) = word.strip_prefix('.') {
                list.classes.push(class.to_owned());
            } else if let Some(id) = word.strip_prefix('#') {
                list.id = Some(id.to_owned());
            } else {
                list.other = true;
            }
        }
        Some(list)
    }

    /// ` class="a b" id="c"`, as HTML attributes.
    fn html(&self) -> String {
        let mut html = String::new();
        if !self.classes.is_empty() {
            html.push_str(&format!(" class=\"{}\"", escape(&self.classes.join(" "))));
        }
        if let Some(id) = &self.id {
            html.push_str(&format!(" id=\"{}\"", escape(id)));
        }
        html
    }
}

/// Links and images followed by a list (`[Go](/x){: .btn}`) as HTML tags
/// with its attributes; their text stays Markdown.
fn span_lists(body: &str, done: &mut Attributes) -> String {
    let mut edits: Vec<(Range<usize>, String)> = Vec::new();
    let parser = Parser::new_ext(body, MARKDOWN).into_offset_iter();
    let mut open: Vec<(Range<usize>, Tag<'_>)> = Vec::new();
    for (event, range) in parser {
        match event {
            Event::Start(tag @ (Tag::Link { .. } | Tag::Image { .. })) => open.push((range, tag)),
            Event::End(_) if open.last().is_some_and(|(r, _)| r.clone() == range) => {
                let (range, tag) = open.pop().expect("checked");
                let after = &body[range.end..];
                let Some(end) = after.starts_with("{:").then(|| after.find('}')).flatten() else {
                    continue;
                };
                let Some(list) = List::read(&after[..=end]) else {
                    continue;
                };
                let inner = text_inside(&body[range.clone()]);
                let html = match tag {
                    Tag::Link {
                        dest_url, title, ..
                    } => {
                        let title = if title.is_empty() {
                            String::new()
                        } else {
                            format!(" title=\"{}\"", escape(&title))
                        };
                        let href = escape(&dest_url);
                        format!("<a href=\"{href}\"{title}{}>{inner}</a>", list.html())
                    }
                    Tag::Image { dest_url, .. } => format!(
                        "<img src=\"{}\" alt=\"{}\"{}>",
                        escape(&dest_url),
                        escape(inner),
                        list.html()
                    ),
                    _ => continue,
                };
                done.applied += 1;
                done.dropped += usize::from(list.other);
                edits.push((range.start..range.end + end + 1, html));
            }
            _ => {}
        }
    }
    apply(body, edits)
}

/// The text of `[text](url)` or `![text](url)`: between its first `[` and
/// the `]` that closes it.
fn text_inside(link: &str) -> &str {
    let start = link.find('[').map_or(0, |at| at + 1);
    let mut depth = 0usize;
    for (at, c) in link[start..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => return &link[start..start + at],
            ']' => depth -= 1,
            _ => {}
        }
    }
    &link[start..]
}

fn apply(body: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(body.len());
    let mut copied = 0;
    for (range, text) in edits {
        if range.start < copied {
            continue;
        }
        out.push_str(&body[copied..range.start]);
        out.push_str(&text);
        copied = range.end;
    }
    out.push_str(&body[copied..]);
    out
}

/// Lists alone on their line, set on the block just above them as kramdown
/// sets them: a heading gets `{#id .class}`, another block a `<div>`
/// around it. One after a blank line (kramdown's list for the block below)
/// is taken out.
fn block_lists(body: &str, done: &mut Attributes) -> String {
    let mut lines: Vec<String> = body.split('\n').map(str::to_owned).collect();
    // Kept beside `lines`, edit for edit.
    let mut code = code_lines(body);
    let mut at = 0;
    while at < lines.len() {
        let list = (!code[at]).then(|| List::read(&lines[at])).flatten();
        let Some(list) = list else {
            at += 1;
            continue;
        };
        let above = at.checked_sub(1).filter(|&a| !lines[a].trim().is_empty());
        if lines[at]
            .trim()
            .trim_start_matches("{:")
            .trim_end_matches('}')
            .trim()
            == "toc"
        {
            // `* TOC` / `1. TOC` above it: the theme's contents stand for both.
            let marked = above.is_some_and(|a| {
                lines[a]
                    .trim_start()
                    .trim_start_matches(['*', '-', '+', '1', '.'])
                    .trim()
                    == "TOC"
            });
            if let Some(a) = above.filter(|_| marked) {
                lines.drain(a..=at);
                code.drain(a..=at);
                at = a;
            } else {
                lines.remove(at);
                code.remove(at);
            }
            done.tables_of_contents += 1;
            continue;
        }
        done.dropped += usize::from(list.other);
        let attributes = list.html();
        match above {
            Some(a) if lines[a].trim_start().starts_with('#') => {
                let heading = lines[a].trim_end().to_owned();
                let words: Vec<String> = list
                    .id
                    .iter()
                    .map(|id| format!("#{id}"))
                    .chain(list.classes.iter().map(|c| format!(".{c}")))
                    .collect();
                lines[a] = if words.is_empty() {
                    heading
                } else {
                    format!("{heading} {{{}}}", words.join(" "))
                };
                lines.remove(at);
                code.remove(at);
                done.applied += 1;
            }
            Some(_) if !attributes.is_empty() => {
                let start = block_start(&lines, &code, at);
                lines[at] = "\n</div>".to_owned();
                lines.insert(start, format!("<div{attributes}>\n"));
                code.insert(start, false);
                done.applied += 1;
                at += 2;
            }
            _ => {
                // Before a block, or with nothing to set: kramdown's
                // attributes of what follows, kept only as a class on it
                // would need its HTML; the list is taken out.
                lines.remove(at);
                code.remove(at);
                done.dropped += usize::from(!attributes.is_empty());
            }
        }
    }
    lines.join("\n")
}

/// Where the block that ends above line `at` starts: after the blank line
/// before it (a fenced code block taken whole).
fn block_start(lines: &[String], code: &[bool], at: usize) -> usize {
    let mut start = at;
    while start > 0 && (code[start - 1] || !lines[start - 1].trim().is_empty()) {
        start -= 1;
    }
    start
}

/// `body` with kramdown's HTML blocks whose Markdown it reads (`<div
/// class="notice" markdown="1">`, the tag and its end each on a line of
/// its own) written as CommonMark reads Markdown inside HTML: the
/// attribute taken out, a blank line after the opening tag and before the
/// end, without which CommonMark shows the lines in between as HTML (their
/// `**bold**` as asterisks). How many were.
pub(super) fn markdown_in_html(body: &str) -> (String, usize) {
    if !body.contains("markdown=") {
        return (body.to_owned(), 0);
    }
    let in_code = code_lines(body);
    let mut out: Vec<String> = Vec::new();
    // Per open block, its tag and how many tags of that name opened inside.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut blocks = 0;
    // A fence inside such a block: CommonMark read the block as HTML, so
    // `code_lines` did not see it.
    let mut fence: Option<&str> = None;
    // After a block's end, CommonMark reads on as HTML up to a blank line.
    let mut blank_after = false;
    for (line, code) in body.split('\n').zip(in_code) {
        let trimmed = line.trim();
        if std::mem::take(&mut blank_after) && !trimmed.is_empty() {
            out.push(String::new());
        }
        if !open.is_empty() && !code {
            let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
            match (fence, marker) {
                (None, Some(marker)) => fence = Some(marker),
                (Some(open_fence), Some(marker)) if open_fence == marker => fence = None,
                _ => {}
            }
            if fence.is_some() || marker.is_some() {
                out.push(line.to_owned());
                continue;
            }
        }
        if code || !trimmed.starts_with('<') || !trimmed.ends_with('>') {
            out.push(line.to_owned());
            continue;
        }
        if let Some((tag, plain)) = markdown_block(trimmed) {
            out.push(plain);
            out.push(String::new());
            open.push((tag, 0));
            blocks += 1;
            continue;
        }
        if let Some((tag, nested)) = open.last_mut() {
            let name = trimmed[1..]
                .split(|c: char| !c.is_ascii_alphanumeric())
                .next()
                .unwrap_or_default();
            let end = format!("</{tag}>");
            if name == tag.as_str() && !trimmed.ends_with(&end) {
                *nested += 1;
            } else if trimmed == end {
                if *nested > 0 {
                    *nested -= 1;
                } else {
                    if out.last().is_some_and(|l| !l.trim().is_empty()) {
                        out.push(String::new());
                    }
                    open.pop();
                    blank_after = true;
                }
            }
        }
        out.push(line.to_owned());
    }
    (out.join("\n"), blocks)
}

/// The tag name of `line`, an opening tag alone, and the line without its
/// `markdown` attribute, when the attribute asks kramdown to read its
/// content as Markdown blocks (`1`, `block`).
fn markdown_block(line: &str) -> Option<(String, String)> {
    let name: String = line[1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    if name.is_empty() || line.ends_with("/>") {
        return None;
    }
    let attribute = [
        " markdown=\"1\"",
        " markdown='1'",
        " markdown=1",
        " markdown=\"block\"",
    ]
    .into_iter()
    .find(|attribute| line.contains(attribute))?;
    Some((name, line.replacen(attribute, "", 1)))
}

/// Which of `body`'s lines are code (fenced or indented), where a list is
/// text shown as it is.
pub(super) fn code_lines(body: &str) -> Vec<bool> {
    let code = code_ranges(body, MARKDOWN);
    let mut start = 0;
    body.split('\n')
        .map(|line| {
            let in_code = code.iter().any(|range| range.contains(&start));
            start += line.len() + 1;
            in_code
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_after_blocks_links_and_headings_become_their_html() {
        let body = "**Info:** read [this](#x).\n{: .notice--info}\n\n## Setup\n{: #setup .no_toc}\n\n\
                    [Get it](https://x.io/a.zip){: .btn .btn--success} and ![logo](/l.png){: .align-left}\n\n\
                    | a | b |\n|---|---|\n| 1 | 2 |\n{: rules=\"groups\"}\n\n`{: .kept}`\n\n```\n{: .kept}\n```\n";
        let (out, done) = attribute_lists(body);
        assert_eq!(
            out,
            "<div class=\"notice--info\">\n\n**Info:** read [this](#x).\n\n</div>\n\n## Setup {#setup .no_toc}\n\n\
             <a href=\"https://x.io/a.zip\" class=\"btn btn--success\">Get it</a> and <img src=\"/l.png\" alt=\"logo\" class=\"align-left\">\n\n\
             | a | b |\n|---|---|\n| 1 | 2 |\n\n`{: .kept}`\n\n```\n{: .kept}\n```\n"
        );
        assert_eq!(
            done,
            Attributes {
                applied: 4,
                tables_of_contents: 0,
                dropped: 1
            }
        );
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, Parser::new_ext(&out, MARKDOWN));
        assert!(
            html.contains("<div class=\"notice--info\">\n<p><strong>Info:</strong>"),
            "{html}"
        );
    }

    #[test]
    fn lists_in_code_stay_and_attributes_are_quoted() {
        let body = "    indented code\n    {: #x}\n\n[a \"b\"](/x?a=1&b=\"2\" \"say \\\"hi\\\"\"){: .btn}\n";
        let (out, _) = attribute_lists(body);
        assert_eq!(
            out,
            "    indented code\n    {: #x}\n\n<a href=\"/x?a=1&amp;b=&quot;2&quot;\" title=\"say &quot;hi&quot;\" class=\"btn\">a \"b\"</a>\n"
        );
    }

    #[test]
    fn markdown_inside_a_marked_html_block_is_read_as_markdown() {
        let body = "<div class=\"notice--primary\" markdown=\"1\">\n**Note:** read.\n\n<div class=\"inner\">\nx\n</div>\n\n```html\n<div markdown=\"1\">\n```\n</div>\n<p markdown=\"span\">kept</p>\n";
        let (out, blocks) = markdown_in_html(body);
        // The inner `</div>` closes the inner div, not the block; the fence
        // is code, its `markdown="1"` kept.
        assert_eq!(
            out,
            "<div class=\"notice--primary\">\n\n**Note:** read.\n\n<div class=\"inner\">\nx\n</div>\n\n```html\n<div markdown=\"1\">\n```\n\n</div>\n\n<p markdown=\"span\">kept</p>\n"
        );
        assert_eq!(blocks, 1);
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, Parser::new_ext(&out, MARKDOWN));
        assert!(html.contains("<p><strong>Note:</strong> read."), "{html}");
        // A tag of its name opened and closed on one line is no block of
        // its; the Markdown after the block's end is Markdown again.
        let (out, _) = markdown_in_html(
            "<div markdown=\"1\">\n**a**\n<div class=\"clear\"></div>\n</div>\n**after**",
        );
        assert_eq!(
            out,
            "<div>\n\n**a**\n<div class=\"clear\"></div>\n\n</div>\n\n**after**"
        );
        assert!(html.contains("<code class=\"language-html\">"), "{html}");
    }

    #[test]
    fn a_toc_list_is_the_theme_s_contents() {
        let (out, done) = attribute_lists("Intro\n\n* TOC\n{:toc}\n\n## One\n");
        assert_eq!(out, "Intro\n\n\n## One\n");
        assert_eq!(done.tables_of_contents, 1);
    }
}
