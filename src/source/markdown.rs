//! Markdown as HTML: a body (pulldown-cmark with tables, footnotes,
//! strikethrough, task lists and heading anchors) and its summary.

use std::borrow::Cow;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};

use crate::model::url::heading_id;

const MORE_MARKER: &str = "<!-- more -->";

const MARKDOWN: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_HEADING_ATTRIBUTES);

/// Renders a Markdown body to HTML.
pub fn render_body(markdown: &str) -> String {
    let mut body = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(
        &mut body,
        HeadingAnchors::new(Parser::new_ext(markdown, MARKDOWN)),
    );
    body
}

/// The summary of a Markdown body, as HTML: the part before
/// `<!-- more -->`, or else the first paragraph.
pub fn summary_html(markdown: &str) -> String {
    let mut summary = String::new();
    match markdown.find(MORE_MARKER) {
        Some(at) => html::push_html(
            &mut summary,
            HeadingAnchors::new(Parser::new_ext(&markdown[..at], MARKDOWN)),
        ),
        None => {
            // Inline parsing is lazy: what follows the first paragraph is
            // never parsed past its blocks. Only headings differ with
            // anchors, and a paragraph holds none.
            let mut events = Parser::new_ext(markdown, MARKDOWN)
                .skip_while(|event| !matches!(event, Event::Start(Tag::Paragraph)));
            let mut first_paragraph = Vec::new();
            for event in events.by_ref() {
                let end = matches!(event, Event::End(TagEnd::Paragraph));
                first_paragraph.push(event);
                if end {
                    break;
                }
            }
            html::push_html(&mut summary, first_paragraph.into_iter());
        }
    }
    summary.trim_end().to_owned()
}

/// Gives every heading an id (its text, slugified; `-1`, `-2`… when repeated)
/// unless it has one (`{#id}`), and a trailing `#` link to itself. Only a
/// heading's own events are held back, until its text is known.
struct HeadingAnchors<'a, I> {
    events: I,
    used: rustc_hash::FxHashMap<String, usize>,
    /// The events of the heading being given its id, and its end.
    held: std::collections::VecDeque<Event<'a>>,
}

impl<'a, I: Iterator<Item = Event<'a>>> HeadingAnchors<'a, I> {
    fn new(events: I) -> Self {
        HeadingAnchors {
            events,
            used: rustc_hash::FxHashMap::default(),
            held: std::collections::VecDeque::new(),
        }
    }

    /// Holds `start` and the heading's events up to its end, with the id
    /// set and the link to it added. Every heading of a cold build passes
    /// here: its text is slugified without allocating per character, and
    /// the id escaped only when it needs to be.
    fn hold_heading(&mut self, start: Event<'a>) {
        self.held.push_back(start);
        let mut end = None;
        for event in self.events.by_ref() {
            if matches!(event, Event::End(TagEnd::Heading(_))) {
                end = Some(event);
                break;
            }
            self.held.push_back(event);
        }
        let anchor = match &self.held[0] {
            Event::Start(Tag::Heading { id: Some(id), .. }) => {
                // An id the author chose is kept as it is, and taken.
                self.used.entry(id.to_string()).or_insert(1);
                id.to_string()
            }
            _ => {
                let mut text = String::new();
                for event in self.held.range(1..) {
                    if let Event::Text(t) | Event::Code(t) = event {
                        text.push_str(t);
                    }
                }
                numbered(&mut self.used, heading_id(&text))
            }
        };
        let mut link = String::with_capacity(anchor.len() + 56);
        link.push_str(" <a class=\"anchor\" href=\"#");
        link.push_str(&html_attr(&anchor));
        link.push_str("\" aria-hidden=\"true\">#</a>");
        if let Event::Start(Tag::Heading { id, .. }) = &mut self.held[0] {
            *id = Some(CowStr::from(anchor));
        }
        self.held.push_back(Event::InlineHtml(CowStr::from(link)));
        self.held.extend(end);
    }
}

impl<'a, I: Iterator<Item = Event<'a>>> Iterator for HeadingAnchors<'a, I> {
    type Item = Event<'a>;

    fn next(&mut self) -> Option<Event<'a>> {
        if let Some(event) = self.held.pop_front() {
            return Some(event);
        }
        let event = self.events.next()?;
        if !matches!(event, Event::Start(Tag::Heading { .. })) {
            return Some(event);
        }
        self.hold_heading(event);
        self.held.pop_front()
    }
}

/// `base`, or else the first of `base-1`, `base-2`… that no heading of the
/// page has: a suffixed id can be another heading's own (`A`, `A`, `A-1`
/// give `a`, `a-1`, `a-1-1`). `issued` maps each id given out to the next
/// suffix to try when it comes again as a base.
fn numbered(issued: &mut rustc_hash::FxHashMap<String, usize>, base: String) -> String {
    let Some(&first) = issued.get(&base) else {
        issued.insert(base.clone(), 1);
        return base;
    };
    let mut suffix = first;
    loop {
        let anchor = format!("{base}-{suffix}");
        suffix += 1;
        if !issued.contains_key(&anchor) {
            issued.insert(base, suffix);
            issued.insert(anchor.clone(), 1);
            return anchor;
        }
    }
}

/// `text` as an attribute value; a slugified id has nothing to escape.
fn html_attr(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '"', '<']) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_comes_from_the_more_marker_or_the_first_paragraph() {
        let summary = summary_html("One.\n\nTwo.\n\n<!-- more -->\n\nThree.\n");
        assert_eq!(summary, "<p>One.</p>\n<p>Two.</p>");
        let summary = summary_html("# Title\n\nFirst *para*.\n\nSecond.\n");
        assert_eq!(summary, "<p>First <em>para</em>.</p>");
        // A reference defined at the end still resolves in the first paragraph.
        let summary = summary_html("- item\n\nSee [it][r].\n\nMore.\n\n[r]: https://x.test/\n");
        assert_eq!(summary, "<p>See <a href=\"https://x.test/\">it</a>.</p>");
        // The first paragraph wherever it is, its footnote reference kept.
        let summary = summary_html("> Quoted[^n].\n\nAfter.\n\n[^n]: A note.\n");
        assert!(
            summary.starts_with("<p>Quoted<sup class=\"footnote-reference\">"),
            "{summary}"
        );
        assert!(summary.ends_with("</sup>.</p>"), "{summary}");
        let summary = summary_html("1. one\n\n2. two\n\nText.\n");
        assert_eq!(summary, "<p>one</p>");
    }

    #[test]
    fn markdown_extensions_and_heading_anchors() {
        let body = render_body(
            "## Intro\n\n## Intro\n\n## 日本語 見出し\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~ [^1]\n\n- [x] done\n\n[^1]: note\n",
        );
        assert!(
            body.contains("<h2 id=\"intro\">Intro <a class=\"anchor\" href=\"#intro\""),
            "{body}"
        );
        assert!(body.contains("<h2 id=\"intro-1\">"), "{body}");
        assert!(body.contains("<h2 id=\"日本語-見出し\">"), "{body}");
        assert!(body.contains("<table>"));
        assert!(body.contains("<del>old</del>"));
        assert!(body.contains("footnote-definition"));
        assert!(body.contains("type=\"checkbox\""));
    }

    #[test]
    fn heading_ids_are_numbered_and_given_ids_escaped() {
        let body = render_body("# A\n\n# A\n\n# A\n\n# Given {#x&y}\n\n# Intro\n");
        let ids: Vec<&str> = body
            .split("id=\"")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect();
        assert_eq!(ids, ["a", "a-1", "a-2", "x&amp;y", "intro"], "{body}");
        assert!(body.contains("href=\"#x&amp;y\""), "{body}");
    }

    #[test]
    fn heading_ids_are_unique_even_when_a_heading_reads_like_a_numbered_one() {
        let ids = |markdown: &str| -> Vec<String> {
            render_body(markdown)
                .split("id=\"")
                .skip(1)
                .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
                .collect()
        };
        assert_eq!(ids("# A\n\n# A\n\n# A-1\n"), ["a", "a-1", "a-1-1"]);
        assert_eq!(ids("# A-1\n\n# A\n\n# A\n"), ["a-1", "a", "a-2"]);
        assert_eq!(ids("# B {#a}\n\n# A\n"), ["a", "a-1"]);
    }
}
