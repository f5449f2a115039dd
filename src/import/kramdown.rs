//! kramdown's attribute lists (`{: .notice--info}`, `{: #id}`, `{:toc}`),
//! which Jekyll's Markdown reads and CommonMark shows as text, written as
//! what gives the same HTML: a heading's as its `{#id .class}`, a block's
//! as a `<div>` around it, a link's or an image's as its HTML tag; the
//! list a `{:toc}` marks is the theme's table of contents.

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
    fn a_toc_list_is_the_theme_s_contents() {
        let (out, done) = attribute_lists("Intro\n\n* TOC\n{:toc}\n\n## One\n");
        assert_eq!(out, "Intro\n\n\n## One\n");
        assert_eq!(done.tables_of_contents, 1);
    }
}
