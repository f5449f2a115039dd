//! The attributes of HTML's tags as Markdown and authors write them, and
//! the links between documents (`href="@/posts/x.md"`) among them: what
//! the plan puts URLs in place of, and what a document's outline keeps of
//! the HTML its body and summary write by hand.

use std::ops::Range;

/// A link to another document is written from `content/`, as Zola's are.
pub const INTERNAL_LINK: &str = "@/";

/// A double-quoted attribute of a tag in `html`: the tag's name, the
/// attribute's name, and where its value is.
pub struct Attribute<'h> {
    pub tag: &'h str,
    pub name: &'h str,
    pub value: Range<usize>,
}

impl Attribute<'_> {
    /// Whether its value is a URL the page leads to (`href`, `src`).
    pub fn is_link(&self) -> bool {
        self.name == "href" || self.name == "src"
    }
}

/// The double-quoted attributes of `html`'s tags, in order. Text that
/// looks like one is not: Markdown writes a `<` of text as `&lt;`, so a
/// tag starts at a `<` as written, and a quote of text (`<code>href="#x"`)
/// is outside every tag.
pub fn attributes(html: &str) -> impl Iterator<Item = Attribute<'_>> {
    let mut scanned = 0;
    let mut tag: Option<usize> = None;
    memchr::memmem::find_iter(html.as_bytes(), "=\"").filter_map(move |at| {
        if at < scanned {
            return None;
        }
        for (offset, byte) in html.as_bytes()[scanned..at].iter().enumerate() {
            match byte {
                b'<' => tag = Some(scanned + offset),
                b'>' => tag = None,
                _ => {}
            }
        }
        let start = at + 2;
        let Some(opened) = tag else {
            // A quote of text: its `<` and `>` are read on.
            scanned = start;
            return None;
        };
        let len = html[start..].find('"')?;
        // A value's `>` ends no tag.
        scanned = start + len + 1;
        let before = &html[opened + 1..at];
        let name_at = before.rfind(|c: char| c.is_ascii_whitespace())? + 1;
        let tag_name = before
            .split(|c: char| c.is_ascii_whitespace() || c == '/')
            .next()?;
        Some(Attribute {
            tag: tag_name,
            name: &before[name_at..],
            value: start..start + len,
        })
    })
}

/// The document a link's attribute value names (what follows `@/`), as
/// written in HTML: its character references decoded (`&amp;`, and the
/// `&#x2f;` a template writes for a `/` it escapes), other bytes outside a
/// URL percent-encoded. `None` for a value that names no document.
pub fn internal_target(written: &str) -> Option<String> {
    if !written.starts_with('@') {
        return None;
    }
    let decoded = html_escape::decode_html_entities(written);
    let target = decoded.strip_prefix(INTERNAL_LINK)?;
    Some(
        percent_encoding::percent_decode_str(target)
            .decode_utf8_lossy()
            .into_owned(),
    )
}

/// Whether `html` may hold an `@/` link in an attribute (`="@/`, or
/// `="@&#x2f;` as a template escapes a whole link it is given): the test
/// before any scan.
pub fn may_link(html: &str) -> bool {
    let bytes = html.as_bytes();
    memchr::memmem::find(bytes, b"=\"@/").is_some()
        || memchr::memmem::find(bytes, b"=\"@&#").is_some()
}

/// The documents the `href` and `src` attributes of `html` name
/// ([`internal_target`]), each with where its value starts, in the order
/// written; those of its comments and of the text of its `script`,
/// `style` and `textarea` elements, which no browser reads as tags, are
/// not links.
pub fn internal_links(html: &str) -> Vec<(usize, String)> {
    if !may_link(html) {
        return Vec::new();
    }
    let read = read_as_tag(html);
    attributes(html)
        .filter(|a| a.is_link() && read(a))
        .filter_map(|a| Some((a.value.start, internal_target(&html[a.value])?)))
        .collect()
}

/// Whether an attribute of `html` is one a browser reads: not one of its
/// comments, nor of the text of its `script`, `style` and `textarea`
/// elements.
pub fn read_as_tag(html: &str) -> impl Fn(&Attribute<'_>) -> bool {
    let unread = unread(html);
    move |a| !unread.iter().any(|range| range.contains(&a.value.start))
}

/// Where `html` holds what is no tag: its comments (`<!-- … -->`), and the
/// text of its `script`, `style` and `textarea` elements, each up to its
/// end tag (or the end of `html`).
fn unread(html: &str) -> Vec<Range<usize>> {
    const RAW_TEXT: [&str; 3] = ["script", "style", "textarea"];
    let lower = html.to_ascii_lowercase();
    let mut ranges = Vec::new();
    let mut at = 0;
    while let Some(found) = lower[at..].find('<') {
        let start = at + found;
        let rest = &lower[start + 1..];
        let closing = if rest.starts_with("!--") {
            Some(("-->".to_owned(), start + 4))
        } else {
            RAW_TEXT.iter().find_map(|name| {
                let after = rest.strip_prefix(name)?;
                after
                    .starts_with(|c: char| c == '>' || c == '/' || c.is_ascii_whitespace())
                    .then(|| (format!("</{name}"), start + 1 + name.len()))
            })
        };
        let Some((closing, from)) = closing else {
            at = start + 1;
            continue;
        };
        let end = lower[from..]
            .find(&closing)
            .map_or(html.len(), |e| from + e + closing.len());
        ranges.push(start..end);
        at = end;
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_links_to_documents_of_tags_are_found_and_those_of_text_are_not() {
        let html = "<p><a class=\"x\" href=\"@/posts/a%20b.md#part\">A</a> \
                    <img src=\"@/b.md?x=1&amp;y=2\"> <code>href=\"@/c.md\"</code> \
                    <a href=\"/d/\">D</a> <a title=\"@/e.md\">E</a></p>";
        let found: Vec<String> = internal_links(html).into_iter().map(|(_, t)| t).collect();
        assert_eq!(found, ["posts/a b.md#part", "b.md?x=1&y=2"]);
        assert_eq!(internal_links("<p>no link</p>"), []);
        assert_eq!(internal_links("<a href=\"@/a.md\">")[0].0, 9);
        let escaped = internal_links("<a href=\"@/posts&#x2f;caf%C3%A9.md\">");
        assert_eq!(escaped[0].1, "posts/café.md");
        let whole = internal_links("<a href=\"@&#x2f;posts&#x2f;a.md\">");
        assert_eq!(whole[0].1, "posts/a.md");
    }

    #[test]
    fn links_in_comments_scripts_styles_and_textareas_are_no_links() {
        let html = "<!-- <a href=\"@/old.md\"> --><a href=\"@/a.md\">\
                    <SCRIPT>x = '<a href=\"@/s.md\">'</script>\
                    <style>/* <a href=\"@/c.md\"> */</style><textarea><a href=\"@/t.md\"></textarea>\
                    <scripts href=\"@/b.md\"></scripts><!-- <a href=\"@/open.md\">";
        let found: Vec<String> = internal_links(html).into_iter().map(|(_, t)| t).collect();
        assert_eq!(found, ["a.md", "b.md"]);
    }
}
