//! Markdown as HTML: a body (pulldown-cmark with tables, footnotes,
//! strikethrough, task lists, heading anchors and highlighted code blocks)
//! and its summary.

use std::borrow::Cow;
use std::collections::{BTreeSet, VecDeque};
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd, html};
use serde::Deserialize;

use crate::source::highlight::{Highlight, Note, block_html};
use crate::source::math::{self, Math};
use crate::source::outline::{HeadingIds, Outline, OutlineReader};
use crate::source::parse::line_at;
use crate::source::shortcodes::{CallError, Expanded, Shortcodes, WrittenLinks};

const MORE_MARKER: &str = "<!-- more -->";

/// The extensions every body is read with.
pub(crate) const MARKDOWN: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_HEADING_ATTRIBUTES);

/// How every body's Markdown becomes HTML: the settings of site.toml that
/// change it (`[highlight]`, `[math]`, `[markdown]`), handed around as one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Markup {
    pub highlight: Highlight,
    pub math: Math,
    pub markdown: MarkdownSettings,
}

impl Markup {
    /// The parser's extensions: [`MARKDOWN`]'s and those site.toml turns on.
    pub fn options(&self) -> Options {
        let options = self.math.options(MARKDOWN);
        if self.markdown.smart_punctuation {
            options.union(Options::ENABLE_SMART_PUNCTUATION)
        } else {
            options
        }
    }

    /// What a body's HTML and its row depend on, for the content settings.
    pub fn settings(&self) -> String {
        format!(
            "{}; {}; smart_punctuation {}",
            self.highlight.settings(),
            self.math.settings(),
            self.markdown.smart_punctuation
        )
    }
}

/// The `[markdown]` table of site.toml.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct MarkdownSettings {
    /// Straight quotes, `--`, `---` and `...` written as typographic ones
    /// (‘ ’ “ ” – — …), as Zola's `smart_punctuation` does. Off by default,
    /// as in Zola: a site that never asked keeps its characters.
    pub smart_punctuation: bool,
}

/// A body rendered with its shortcodes.
#[derive(Debug)]
pub struct BodyHtml {
    pub html: String,
    /// What highlighting its code noted, with the line of each fence in
    /// the source.
    pub notes: Vec<(usize, Note)>,
    /// The shortcodes it called.
    pub called: BTreeSet<String>,
    /// The `@/` links their templates wrote, each at its call's line.
    pub written_links: WrittenLinks,
}

/// Renders a Markdown body whose first line is `first_line` of its source,
/// of a document in `lang`, with its shortcodes: its HTML, what
/// highlighting its code noted (with the line of each fence in the
/// source) and the shortcodes it called.
pub fn render_markdown(
    markdown: &str,
    (lang, first_line): (&str, usize),
    settings: (&Markup, &Shortcodes),
) -> Result<BodyHtml, CallError> {
    let expanded = expand_shortcodes(markdown, (lang, first_line), settings)?;
    let text = expanded.as_ref().map_or(markdown, |e| e.text.as_str());
    let (html, notes) = render_body(text, settings.0);
    let (html, called, written_links) = match expanded {
        Some(expanded) => (expanded.fill(&html), expanded.called, expanded.links),
        None => (html, BTreeSet::new(), Vec::new()),
    };
    Ok(BodyHtml {
        html,
        notes: shifted(notes, first_line),
        called,
        written_links,
    })
}

/// The shortcode calls of `markdown` (whose first line is `first_line` of
/// its source, of a document in `lang`) rendered and taken out, each body a
/// call encloses rendered by [`render_markdown`]; `None` when it calls none.
pub fn expand_shortcodes(
    markdown: &str,
    (lang, first_line): (&str, usize),
    (markup, shortcodes): (&Markup, &Shortcodes),
) -> Result<Option<Expanded>, CallError> {
    let nested = |inner: &str, line: usize| {
        render_markdown(inner, (lang, line), (markup, shortcodes))
            .map(|body| (body.html, body.called, body.written_links))
    };
    shortcodes.expand(markdown, (lang, first_line), &nested)
}

/// Notes of lines counted in a body, as lines of its source.
fn shifted(mut notes: Vec<(usize, Note)>, first_line: usize) -> Vec<(usize, Note)> {
    for (line, _) in &mut notes {
        *line += first_line - 1;
    }
    notes
}

/// Renders a Markdown body to HTML, with what highlighting its code
/// blocks and reading its formulas noted, each with its line in `markdown`.
pub fn render_body(markdown: &str, markup: &Markup) -> (String, Vec<(usize, Note)>) {
    let mut body = String::with_capacity(markdown.len() * 3 / 2);
    let mut notes = Vec::new();
    let mut formulas = Vec::new();
    let events = Parser::new_ext(markdown, markup.options())
        .into_offset_iter()
        .map(|event| math::formula_at(event, markdown, &mut formulas));
    let blocks = CodeBlocks {
        events,
        markdown,
        highlight: &markup.highlight,
        notes: &mut notes,
        held: VecDeque::new(),
    };
    html::push_html(&mut body, HeadingAnchors::new(blocks));
    notes.extend(
        formulas
            .into_iter()
            .map(|(line, f)| (line, Note::Formula(f))),
    );
    notes.sort_by_key(|(line, _)| *line);
    (body, notes)
}

/// The summary of a Markdown body whose first line is `first_line` of its
/// source, as HTML (the part before `<!-- more -->`, or else the first
/// paragraph), and its outline, both from one parse of the body. Its code
/// blocks are highlighted as the body's are; the body's render tells what
/// they noted.
pub fn summary_and_outline(
    markdown: &str,
    first_line: usize,
    markup: &Markup,
) -> (String, Outline) {
    let more = markdown.find(MORE_MARKER);
    let mut outline = OutlineReader::new(markdown, first_line);
    let mut first_paragraph = Vec::new();
    let mut paragraph = if more.is_some() {
        Paragraph::Read
    } else {
        Paragraph::NotYet
    };
    for (event, range) in Parser::new_ext(markdown, markup.options()).into_offset_iter() {
        outline.see(&event, range);
        if paragraph == Paragraph::NotYet && matches!(event, Event::Start(Tag::Paragraph)) {
            paragraph = Paragraph::In;
        }
        // Only headings differ with anchors, and a paragraph holds none.
        if paragraph == Paragraph::In {
            if matches!(event, Event::End(TagEnd::Paragraph)) {
                paragraph = Paragraph::Read;
            }
            first_paragraph.push(math::formula(event).0);
        }
    }
    let mut summary = String::new();
    match more {
        Some(at) => summary = render_body(&markdown[..at], markup).0,
        None => html::push_html(&mut summary, first_paragraph.into_iter()),
    }
    summary.truncate(summary.trim_end().len());
    (summary, outline.finish())
}

/// Adds to `outline` the links and local images of the Markdown the calls
/// of a body enclose (a note's body; a call nested in it is text of it),
/// which the text around the calls does not show, and the links the
/// calls' templates write: a page's fingerprint must cover where they
/// lead, and a link that leads nowhere is named, as the body's own.
pub fn outline_call_bodies(expanded: &Expanded, markup: &Markup, outline: &mut Outline) {
    outline.links.extend(expanded.links.iter().cloned());
    for (line, body) in &expanded.bodies {
        let mut reader = OutlineReader::new(body, *line);
        for (event, range) in Parser::new_ext(body, markup.options()).into_offset_iter() {
            reader.see(&event, range);
        }
        let inner = reader.finish();
        outline.links.extend(inner.links);
        for image in inner.images {
            if !outline.images.contains(&image) {
                outline.images.push(image);
            }
        }
    }
}

/// Where the parse of a body is, in the summary it gives when it has no
/// `<!-- more -->`: its first paragraph.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Paragraph {
    NotYet,
    In,
    Read,
}

/// Writes every fenced code block with a language through the
/// highlighter; other events pass as they are. Only a code block's own
/// events are held back, until its text is known.
struct CodeBlocks<'a, 'n, I> {
    events: I,
    markdown: &'a str,
    highlight: &'n Highlight,
    notes: &'n mut Vec<(usize, Note)>,
    held: VecDeque<Event<'a>>,
}

impl<'a, I: Iterator<Item = (Event<'a>, Range<usize>)>> CodeBlocks<'a, '_, I> {
    /// The block's HTML, or its events held to pass as they are.
    fn block(&mut self, start: Event<'a>, info: &str, at: usize) -> Option<Event<'a>> {
        let mut code = String::new();
        let mut events = vec![start];
        for (event, _) in self.events.by_ref() {
            let end = matches!(event, Event::End(TagEnd::CodeBlock));
            if let Event::Text(text) = &event {
                code.push_str(text);
            }
            events.push(event);
            if end {
                break;
            }
        }
        let mut notes = Vec::new();
        let html = block_html(self.highlight, info, &code, &mut notes);
        if !notes.is_empty() {
            let line = line_at(self.markdown, at);
            for note in notes {
                // One warning per language a document names, at its first block.
                let again = matches!(&note, Note::UnknownLanguage(_))
                    && self.notes.iter().any(|(_, seen)| *seen == note);
                if !again {
                    self.notes.push((line, note));
                }
            }
        }
        match html {
            Some(html) => Some(Event::Html(CowStr::from(html))),
            None => {
                self.held.extend(events);
                self.held.pop_front()
            }
        }
    }
}

impl<'a, I: Iterator<Item = (Event<'a>, Range<usize>)>> Iterator for CodeBlocks<'a, '_, I> {
    type Item = Event<'a>;

    fn next(&mut self) -> Option<Event<'a>> {
        if let Some(event) = self.held.pop_front() {
            return Some(event);
        }
        let (event, range) = self.events.next()?;
        let info = match &event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if self.highlight.enabled && !info.trim().is_empty() =>
            {
                info.clone()
            }
            _ => return Some(event),
        };
        self.block(event, &info, range.start)
    }
}

/// Gives every heading an id (its text, slugified; `-1`, `-2`… when repeated)
/// unless it has one (`{#id}`), and a trailing `#` link to itself. Only a
/// heading's own events are held back, until its text is known.
struct HeadingAnchors<'a, I> {
    events: I,
    ids: HeadingIds,
    /// The events of the heading being given its id, and its end.
    held: VecDeque<Event<'a>>,
}

impl<'a, I: Iterator<Item = Event<'a>>> HeadingAnchors<'a, I> {
    fn new(events: I) -> Self {
        HeadingAnchors {
            events,
            ids: HeadingIds::default(),
            held: VecDeque::new(),
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
        let given = match &self.held[0] {
            Event::Start(Tag::Heading { id: Some(id), .. }) => Some(id.to_string()),
            _ => None,
        };
        let mut text = String::new();
        if given.is_none() {
            for event in self.held.range(1..) {
                if let Event::Text(t) | Event::Code(t) = event {
                    text.push_str(t);
                }
            }
        }
        let anchor = self.ids.issue(given.as_deref(), &text);
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

    fn body(markdown: &str) -> String {
        render_body(markdown, &Markup::default()).0
    }

    fn summary_of(markdown: &str) -> String {
        summary_and_outline(markdown, 1, &Markup::default()).0
    }

    #[test]
    fn summary_comes_from_the_more_marker_or_the_first_paragraph() {
        let summary = summary_of("One.\n\nTwo.\n\n<!-- more -->\n\nThree.\n");
        assert_eq!(summary, "<p>One.</p>\n<p>Two.</p>");
        let summary = summary_of("# Title\n\nFirst *para*.\n\nSecond.\n");
        assert_eq!(summary, "<p>First <em>para</em>.</p>");
        // A reference defined at the end still resolves in the first paragraph.
        let summary = summary_of("- item\n\nSee [it][r].\n\nMore.\n\n[r]: https://x.test/\n");
        assert_eq!(summary, "<p>See <a href=\"https://x.test/\">it</a>.</p>");
        // The first paragraph wherever it is, its footnote reference kept.
        let summary = summary_of("> Quoted[^n].\n\nAfter.\n\n[^n]: A note.\n");
        assert!(
            summary.starts_with("<p>Quoted<sup class=\"footnote-reference\">"),
            "{summary}"
        );
        assert!(summary.ends_with("</sup>.</p>"), "{summary}");
        let summary = summary_of("1. one\n\n2. two\n\nText.\n");
        assert_eq!(summary, "<p>one</p>");
    }

    #[test]
    fn markdown_extensions_and_heading_anchors() {
        let body = body(
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
        let body = body("# A\n\n# A\n\n# A\n\n# Given {#x&y}\n\n# Intro\n");
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
            body(markdown)
                .split("id=\"")
                .skip(1)
                .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
                .collect()
        };
        assert_eq!(ids("# A\n\n# A\n\n# A-1\n"), ["a", "a-1", "a-1-1"]);
        assert_eq!(ids("# A-1\n\n# A\n\n# A\n"), ["a-1", "a", "a-2"]);
        assert_eq!(ids("# B {#a}\n\n# A\n"), ["a", "a-1"]);
    }

    #[test]
    fn code_blocks_are_highlighted_and_each_unknown_language_noted_once() {
        let markdown = "Intro.\n\n```rust\nfn f() {}\n```\n\n```klingon\nQapla'\n```\n\n~~~klingon\nagain\n~~~\n\n```\nno language\n```\n";
        let (html, notes) = render_body(markdown, &Markup::default());
        assert!(
            html.contains("<pre class=\"highlight z-code\"><code class=\"language-rust\""),
            "{html}"
        );
        assert!(
            html.contains("data-lang=\"klingon\">Qapla&#39;\n</code></pre>")
                || html.contains("data-lang=\"klingon\">Qapla'\n</code></pre>"),
            "{html}"
        );
        assert!(
            html.contains("<pre><code>no language\n</code></pre>"),
            "{html}"
        );
        assert_eq!(notes, [(7, Note::UnknownLanguage("klingon".into()))]);
        let mut off = Markup::default();
        off.highlight.enabled = false;
        let (html, notes) = render_body(markdown, &off);
        assert!(
            html.contains("<pre><code class=\"language-rust\">fn f() {}\n</code></pre>"),
            "{html}"
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn a_summary_highlights_its_code_like_the_body() {
        let summary = summary_of("Look:\n\n```rust\nlet x = 1;\n```\n\n<!-- more -->\n\nRest.\n");
        assert!(
            summary.contains("<span class=\"z-storage z-type z-rust\">let</span>"),
            "{summary}"
        );
    }
}
