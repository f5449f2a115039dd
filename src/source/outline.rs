//! What a body holds besides its HTML, read once when its source is
//! parsed and kept in its row: its headings (its table of contents, and
//! the anchors a link to it may name), how many words it has and how long
//! they take to read, and its links to other documents (`@/path.md`), which
//! the plan resolves and checks.

use std::ops::Range;

use pulldown_cmark::{Event, Tag, TagEnd};
use rustc_hash::FxHashMap;

use crate::model::doc::{Heading, InternalLink};
use crate::model::url::heading_id;
use crate::source::html::{INTERNAL_LINK, internal_links};

/// Words read per minute, Zola's figure; and characters of Chinese or
/// Japanese, which are not written in words, per minute, Hugo's.
const WORDS_PER_MINUTE: u64 = 200;
const CJK_CHARACTERS_PER_MINUTE: u64 = 500;

/// What [`outline`] finds in a body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outline {
    pub headings: Vec<Heading>,
    /// Words, each CJK character counted as one.
    pub word_count: u32,
    /// Whole minutes, at least 1.
    pub reading_time: u32,
    pub links: Vec<InternalLink>,
    /// The shortcodes it calls, by name, sorted; filled by whoever takes
    /// the calls out of the text.
    pub shortcodes: Vec<String>,
    /// The local images it shows, as written, each once.
    pub images: Vec<String>,
}

/// The outline of a Markdown body whose first line is line `first_line` of
/// its source, parsed with `options` (those its HTML is rendered with, so
/// that the headings are the ones the page shows). A build reads it with
/// the summary (`markdown::summary_and_outline`).
#[cfg(test)]
pub(crate) fn outline(
    markdown: &str,
    options: pulldown_cmark::Options,
    first_line: usize,
) -> Outline {
    let mut reader = OutlineReader::new(markdown, first_line);
    for (event, range) in pulldown_cmark::Parser::new_ext(markdown, options).into_offset_iter() {
        reader.see(&event, range);
    }
    reader.finish()
}

/// An outline read from the events of a body's parse, as they pass: whoever
/// parses the body for something else (its summary) reads the outline on
/// the way, instead of a second parse of every body.
pub struct OutlineReader<'t> {
    headings: Vec<Heading>,
    ids: HeadingIds,
    /// The heading being read: its level, the id written for it, its text.
    heading: Option<(u8, Option<String>, String)>,
    words: WordCount,
    links: Vec<InternalLink>,
    images: Vec<String>,
    lines: LineCounter<'t>,
    /// The HTML block being read, when one is.
    html_block: Option<HtmlBlock>,
}

/// An HTML block read so far: its lines one after the other, and where
/// each starts in it and in the Markdown.
#[derive(Default)]
struct HtmlBlock {
    text: String,
    lines: Vec<(usize, usize)>,
}

impl<'t> OutlineReader<'t> {
    /// A reader of the events of `markdown`, whose first line is line
    /// `first_line` of its source.
    pub fn new(markdown: &'t str, first_line: usize) -> Self {
        OutlineReader {
            headings: Vec::new(),
            ids: HeadingIds::default(),
            heading: None,
            words: WordCount::default(),
            links: Vec::new(),
            images: Vec::new(),
            lines: LineCounter::new(markdown, first_line),
            html_block: None,
        }
    }

    /// Reads the next event of the parse, found at `range` of the body.
    pub fn see(&mut self, event: &Event<'_>, range: Range<usize>) {
        match event {
            Event::Text(text) | Event::Code(text) => {
                self.words.add(text);
                if let Some((_, _, title)) = &mut self.heading {
                    title.push_str(text);
                }
            }
            Event::Start(Tag::Heading { level, id, .. }) => {
                self.words.stop();
                let given = id.as_ref().map(|id| id.to_string());
                self.heading = Some((*level as u8, given, String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                self.words.stop();
                if let Some((level, given, title)) = self.heading.take() {
                    let id = self.ids.issue(given.as_deref(), &title);
                    self.headings.push(Heading { level, id, title });
                }
            }
            Event::Start(Tag::Image { dest_url, .. })
                if is_local_image(dest_url) && !self.images.iter().any(|i| i == &**dest_url) =>
            {
                self.images.push(dest_url.to_string());
            }
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                if let Some(target) = dest_url.strip_prefix(INTERNAL_LINK) {
                    self.links.push(InternalLink {
                        line: self.lines.line_at(range.start),
                        target: target.to_owned(),
                    });
                }
            }
            // A link its author wrote as HTML is the document's as one
            // written in Markdown: checked, and followed when its target
            // moves. A block comes a line at a time, and a tag or a
            // comment may span lines: the block is read whole.
            Event::Start(Tag::HtmlBlock) => {
                self.words.stop();
                self.html_block = Some(HtmlBlock::default());
            }
            Event::Html(html) | Event::InlineHtml(html) => {
                self.words.stop();
                match &mut self.html_block {
                    Some(block) => {
                        block.lines.push((block.text.len(), range.start));
                        block.text.push_str(html);
                    }
                    None => {
                        let line = self.lines.line_at(range.start);
                        let links = internal_links(html).into_iter();
                        self.links
                            .extend(links.map(|(_, target)| InternalLink { line, target }));
                    }
                }
            }
            Event::End(TagEnd::HtmlBlock) => {
                self.words.stop();
                if let Some(block) = self.html_block.take() {
                    for (at, target) in internal_links(&block.text) {
                        let of_line = block.lines.partition_point(|&(from, _)| from <= at) - 1;
                        let line = self.lines.line_at(block.lines[of_line].1);
                        self.links.push(InternalLink { line, target });
                    }
                }
            }
            // Inline markup may split a word (`un*break*able`); anything
            // else ends the one being read.
            Event::Start(Tag::Emphasis | Tag::Strong | Tag::Strikethrough)
            | Event::End(
                TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link,
            ) => {}
            _ => self.words.stop(),
        }
    }

    pub fn finish(self) -> Outline {
        Outline {
            headings: self.headings,
            word_count: self.words.total(),
            reading_time: self.words.minutes(),
            links: self.links,
            shortcodes: Vec::new(),
            images: self.images,
        }
    }
}

/// Whether an image's address names a file of the site: a path, relative
/// or from the root, not a URL (`https:`, `data:`, `//host/`), a document
/// (`@/`) or an anchor.
pub fn is_local_image(dest: &str) -> bool {
    let scheme = dest
        .split_once(':')
        .is_some_and(|(scheme, _)| !scheme.is_empty() && !scheme.contains('/'));
    !dest.is_empty()
        && !scheme
        && !dest.starts_with("//")
        && !dest.starts_with('#')
        && !dest.starts_with('?')
        && !dest.starts_with(INTERNAL_LINK)
}

/// The ids of a page's headings: the one written (`{#id}`) as it is, else
/// the heading's text slugified, `-1`, `-2`… added when taken. The body's
/// HTML and the outline give the same ids through it.
#[derive(Debug, Default)]
pub struct HeadingIds {
    /// Each id given out, and the next suffix to try when it comes again
    /// as a base.
    issued: FxHashMap<String, usize>,
}

impl HeadingIds {
    /// The id of the next heading: `given`, or the first of its text's slug,
    /// `slug-1`, `slug-2`… that no heading of the page has. A suffixed id
    /// can be another heading's own (`A`, `A`, `A-1` give `a`, `a-1`, `a-1-1`).
    pub fn issue(&mut self, given: Option<&str>, text: &str) -> String {
        if given.is_some() {
            return self.issue_base(given, String::new());
        }
        self.issue_base(None, heading_id(text))
    }

    /// [`HeadingIds::issue`] with the slug `base` made by another rule
    /// (Zola's, for an import).
    pub fn issue_base(&mut self, given: Option<&str>, base: String) -> String {
        if let Some(id) = given {
            self.issued.entry(id.to_owned()).or_insert(1);
            return id.to_owned();
        }
        let Some(&first) = self.issued.get(&base) else {
            self.issued.insert(base.clone(), 1);
            return base;
        };
        let mut suffix = first;
        loop {
            let anchor = format!("{base}-{suffix}");
            suffix += 1;
            if !self.issued.contains_key(&anchor) {
                self.issued.insert(base, suffix);
                self.issued.insert(anchor.clone(), 1);
                return anchor;
            }
        }
    }
}

/// Words as Hugo counts them: runs between white space, and in Chinese and
/// Japanese, which put no space between words, each character. Text comes
/// in pieces; a word may go on from one piece to the next.
#[derive(Debug, Default)]
struct WordCount {
    words: u64,
    cjk: u64,
    in_word: bool,
}

impl WordCount {
    fn add(&mut self, text: &str) {
        // Every text of a cold build's bodies passes here, and most of its
        // bytes are ASCII even in French or German: those are counted
        // without a branch of their own; only the others are decoded.
        let bytes = text.as_bytes();
        let mut after_space = !self.in_word;
        let mut at = 0;
        while at < bytes.len() {
            let byte = bytes[at];
            if byte.is_ascii() {
                let space = matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
                self.words += u64::from(after_space & !space);
                after_space = space;
                at += 1;
                continue;
            }
            // `at` is always at the start of a character.
            let Some(c) = text[at..].chars().next() else {
                break;
            };
            at += c.len_utf8();
            // What a shortcode writes stands in the text as private-use
            // characters: not words the reader reads here.
            if c.is_whitespace() || ('\u{E000}'..='\u{F8FF}').contains(&c) {
                after_space = true;
            } else if is_cjk(c) {
                self.cjk += 1;
                after_space = true;
            } else {
                self.words += u64::from(after_space);
                after_space = false;
            }
        }
        self.in_word = !after_space;
    }

    /// The word being read ends here.
    fn stop(&mut self) {
        self.in_word = false;
    }

    fn total(&self) -> u32 {
        u32::try_from(self.words + self.cjk).unwrap_or(u32::MAX)
    }

    fn minutes(&self) -> u32 {
        // In thousandths of the time one minute of reading takes at both
        // speeds, so that a part of a minute is rounded up, not lost.
        let unit = WORDS_PER_MINUTE * CJK_CHARACTERS_PER_MINUTE;
        let time = self.words * CJK_CHARACTERS_PER_MINUTE + self.cjk * WORDS_PER_MINUTE;
        u32::try_from(time.div_ceil(unit).max(1)).unwrap_or(u32::MAX)
    }
}

/// Han ideographs, kana and their punctuation: scripts written without
/// spaces between words. Korean puts spaces between words, so Hangul is
/// counted in words.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{30FF}'      // CJK punctuation, hiragana, katakana
        | '\u{3400}'..='\u{4DBF}'    // extension A
        | '\u{4E00}'..='\u{9FFF}'    // unified ideographs
        | '\u{F900}'..='\u{FAFF}'    // compatibility ideographs
        | '\u{FF00}'..='\u{FFEF}'    // full-width forms
        | '\u{20000}'..='\u{3134F}') // extensions B to G
}

/// Line numbers of offsets met in increasing order, counted once.
struct LineCounter<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(text: &'a str, first_line: usize) -> Self {
        LineCounter {
            text,
            at: 0,
            line: first_line,
        }
    }

    fn line_at(&mut self, offset: usize) -> u32 {
        // Links come in the order they are written, except inside a
        // footnote definition or a reference moved earlier; count afresh.
        if offset < self.at {
            self.line -= memchr::memchr_iter(b'\n', &self.text.as_bytes()[offset..self.at]).count();
        } else {
            self.line += memchr::memchr_iter(b'\n', &self.text.as_bytes()[self.at..offset]).count();
        }
        self.at = offset;
        u32::try_from(self.line).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::markdown::MARKDOWN;

    fn of(markdown: &str) -> Outline {
        outline(markdown, MARKDOWN, 1)
    }

    fn heading(level: u8, id: &str, title: &str) -> Heading {
        Heading {
            level,
            id: id.into(),
            title: title.into(),
        }
    }

    #[test]
    fn headings_get_the_ids_the_body_gives_them() {
        let outline = of("# A\n\n## A\n\n### Given {#x}\n\n## `code` and *em*\n\nText.\n");
        assert_eq!(
            outline.headings,
            [
                heading(1, "a", "A"),
                heading(2, "a-1", "A"),
                heading(3, "x", "Given"),
                heading(2, "code-and-em", "code and em"),
            ]
        );
    }

    #[test]
    fn words_are_counted_across_markup_and_cjk_by_character() {
        assert_eq!(
            of("One *two* un*break*able, [link](x) `code`.\n").word_count,
            5
        );
        assert_eq!(of("# Title\nBody text\n").word_count, 3);
        // Eight characters of Japanese and one word of English.
        assert_eq!(of("日本語の文章です word\n").word_count, 9);
        // Korean is written in words.
        assert_eq!(of("안녕하세요 세계\n").word_count, 2);
    }

    #[test]
    fn ascii_and_other_text_count_the_same_words() {
        for text in ["a  b\tc\nd", " lead trail ", "x", "", "one\x0btwo"] {
            let mut ascii = WordCount::default();
            ascii.add(text);
            let mut chars = WordCount::default();
            // The same text made non-ASCII by a CJK character after it.
            chars.add(&format!("{text} 語"));
            assert_eq!(ascii.words, chars.words, "{text:?}");
        }
        let mut split = WordCount::default();
        split.add("un");
        split.add("break");
        split.add("é able");
        assert_eq!(split.words, 2);
    }

    #[test]
    fn reading_time_is_whole_minutes_and_at_least_one() {
        assert_eq!(of("Short.\n").reading_time, 1);
        let long = "word ".repeat(401);
        assert_eq!(of(&long).reading_time, 3);
        let japanese = "語".repeat(1000);
        assert_eq!(of(&japanese).reading_time, 2);
        assert_eq!(of(&"word ".repeat(400)).reading_time, 2);
    }

    #[test]
    fn internal_links_are_found_with_their_lines() {
        let markdown = "Intro.\n\nSee [b](@/posts/b.md#part) and\n[c][c].\n\n![x](@/img.md)\n\n[c]: @/posts/c.fr.md\n[web](https://x.test/)\n";
        let links = outline(markdown, MARKDOWN, 5).links;
        assert_eq!(
            links,
            [
                InternalLink {
                    line: 7,
                    target: "posts/b.md#part".into()
                },
                InternalLink {
                    line: 8,
                    target: "posts/c.fr.md".into()
                },
                InternalLink {
                    line: 10,
                    target: "img.md".into()
                },
            ]
        );
    }

    #[test]
    fn local_images_are_found_once_and_others_left() {
        let markdown = "![a](cat.jpg) ![b](/img/map.png) ![c](https://x.test/y.png)\n\n\
            ![d](cat.jpg) ![e](data:image/png;base64,AA) ![f](//cdn.test/z.jpg) ![g](@/x.md)\n\n\
            `![h](code.png)`\n";
        assert_eq!(of(markdown).images, ["cat.jpg", "/img/map.png"]);
        assert!(is_local_image("../shared/a b.jpg"));
        assert!(!is_local_image("mailto:x@y.test"));
    }

    #[test]
    fn links_in_code_are_not_links() {
        let links = of("`[a](@/x.md)`\n\n```\n[a](@/x.md)\n```\n").links;
        assert!(links.is_empty(), "{links:?}");
    }
}
