//! Links between documents, written again where the import moved what
//! they lead to. Zola's (`@/blog/trip/index.fr.md#day-2`) name files where
//! Zola keeps them: each is written with the path folio reads it at, or
//! with the URL of a section folio does not carry over. A link to a page of
//! the site by its URL in other letter case or without its last `/` (which
//! a case-blind host served) is written with the URL the page has.

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag};

use rustc_hash::FxHashMap;

use crate::source::html::{Attribute, INTERNAL_LINK, attributes};
use crate::source::markdown::MARKDOWN;

/// What a link to a document written at its old place leads to now.
pub(super) struct Moves<'a> {
    /// An `@/` link's old path under `content/` to its new path or, for
    /// a section folio does not carry over, its URL.
    pub paths: &'a std::collections::BTreeMap<String, String>,
    /// The site's base URL (`https://example.org`), whose links are the
    /// site's own.
    pub base_url: &'a str,
    /// Each page's URL by its lowercase form without a last `/`: `None`
    /// where two pages share that form.
    pub urls: FxHashMap<String, Option<String>>,
}

impl<'a> Moves<'a> {
    pub(super) fn new<'u>(
        paths: &'a std::collections::BTreeMap<String, String>,
        base_url: &'a str,
        urls: impl Iterator<Item = &'u str>,
    ) -> Moves<'a> {
        let mut by_form: FxHashMap<String, Option<String>> = FxHashMap::default();
        for url in urls {
            by_form
                .entry(url_form(url))
                .and_modify(|known| {
                    if known.as_deref() != Some(url) {
                        *known = None;
                    }
                })
                .or_insert_with(|| Some(url.to_owned()));
        }
        Moves {
            paths,
            base_url: base_url.trim_end_matches('/'),
            urls: by_form,
        }
    }

    /// What to write for the destination `dest` (without its `#anchor`),
    /// if it changes.
    pub(super) fn of(&self, dest: &str) -> Option<String> {
        if let Some(path) = dest.strip_prefix(INTERNAL_LINK) {
            let new = self.paths.get(path)?;
            return Some(match new.starts_with('/') {
                true => new.clone(),
                false => format!("{INTERNAL_LINK}{new}"),
            });
        }
        let (origin, path) = match dest.strip_prefix(self.base_url) {
            Some(path) if !self.base_url.is_empty() && path.starts_with('/') => {
                (self.base_url, path)
            }
            _ if dest.starts_with('/') && !dest.starts_with("//") => ("", dest),
            _ => return None,
        };
        let (path, query) = path.split_at(path.find('?').unwrap_or(path.len()));
        let served = self.urls.get(&url_form(path))?.as_deref()?;
        (served != path).then(|| format!("{origin}{served}{query}"))
    }
}

/// A URL path as a case-blind host that adds the last `/` reads it.
fn url_form(path: &str) -> String {
    path.trim_end_matches('/').to_lowercase()
}

/// `body` with the destination of each link and link definition (and of
/// each `@/` link written as HTML; without its `#anchor`) given by `moved`, which gives what to write instead;
/// links in code, and destinations `moved` has nothing for, are left as
/// written. Returns how many were written again.
pub(super) fn relink(body: &str, moved: impl Fn(&str) -> Option<String>) -> (String, usize) {
    let parser = Parser::new_ext(body, MARKDOWN);
    let mut spans: Vec<Range<usize>> = parser
        .reference_definitions()
        .iter()
        .filter_map(|(_, definition)| dest_in(body, definition.span.clone(), &definition.dest))
        .collect();
    for (event, range) in parser.into_offset_iter() {
        match &event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                spans.extend(dest_in(body, range, dest_url));
            }
            // A link to a document written as HTML is one too (a Hugo
            // `ref` in an attribute).
            Event::Html(html) | Event::InlineHtml(html) => {
                // Where the HTML is the body's bytes as they are (not in a
                // quote or a list, whose markers a line loses), a value is
                // where the attribute says.
                let verbatim = body.get(range.clone()) == Some(&**html);
                for attribute in attributes(html).filter(Attribute::is_link) {
                    let value = &html[attribute.value.clone()];
                    if !value.starts_with(INTERNAL_LINK) {
                        continue;
                    }
                    spans.extend(match verbatim {
                        true => Some(
                            range.start + attribute.value.start..range.start + attribute.value.end,
                        ),
                        false => dest_in(body, range.clone(), value),
                    });
                }
            }
            _ => {}
        }
    }
    spans.sort_by_key(|span| span.start);
    spans.dedup();
    let mut out = String::with_capacity(body.len());
    let mut copied = 0;
    let mut count = 0;
    for span in spans {
        let written = &body[span.clone()];
        let (path, anchor) = match written.split_once('#') {
            Some((path, anchor)) => (path, Some(anchor)),
            None => (written, None),
        };
        let Some(new) = moved(path) else {
            continue;
        };
        out.push_str(&body[copied..span.start]);
        out.push_str(&new);
        if let Some(anchor) = anchor {
            out.push('#');
            out.push_str(anchor);
        }
        copied = span.end;
        count += 1;
    }
    out.push_str(&body[copied..]);
    (out, count)
}

/// Where `dest` is written in `body[range]`: its last occurrence there,
/// since a link's text comes before its destination.
fn dest_in(body: &str, range: Range<usize>, dest: &str) -> Option<Range<usize>> {
    if dest.is_empty() {
        return None;
    }
    let at = body.get(range.clone())?.rfind(dest)?;
    Some(range.start + at..range.start + at + dest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths() -> std::collections::BTreeMap<String, String> {
        [
            ("blog/trip/index.fr.md", "fr/blog/trip.md"),
            ("blog/_index.md", "/blog/"),
        ]
        .into_iter()
        .map(|(old, new)| (old.to_owned(), new.to_owned()))
        .collect()
    }

    #[test]
    fn links_and_definitions_follow_their_files_and_code_is_left_alone() {
        let body = "See [the trip](@/blog/trip/index.fr.md#day-2), [the blog](@/blog/_index.md) \
                    and [x][r].\n\n`[a](@/blog/_index.md)`\n\n[other](@/elsewhere.md)\n\n\
                    [r]: @/blog/trip/index.fr.md\n";
        let paths = paths();
        let moves = Moves::new(&paths, "", std::iter::empty());
        let (relinked, count) = relink(body, |dest| moves.of(dest));
        assert_eq!(
            relinked,
            "See [the trip](@/fr/blog/trip.md#day-2), [the blog](/blog/) \
             and [x][r].\n\n`[a](@/blog/_index.md)`\n\n[other](@/elsewhere.md)\n\n\
             [r]: @/fr/blog/trip.md\n"
        );
        assert_eq!(count, 3);
    }

    #[test]
    fn links_written_as_html_follow_their_files_and_code_is_left_alone() {
        let body = "See <a title=\"@/blog/_index.md\" href=\"@/blog/_index.md\">the blog</a>.\n\n<div>\n\
                    <img src=\"@/blog/trip/index.fr.md#day-2\" title=\"@/blog/_index.md\">\n</div>\n\n\
                    `<a href=\"@/blog/_index.md\">`\n";
        let paths = paths();
        let moves = Moves::new(&paths, "", std::iter::empty());
        let (relinked, count) = relink(body, |dest| moves.of(dest));
        assert_eq!(
            relinked,
            "See <a title=\"@/blog/_index.md\" href=\"/blog/\">the blog</a>.\n\n<div>\n\
             <img src=\"@/fr/blog/trip.md#day-2\" title=\"@/blog/_index.md\">\n</div>\n\n\
             `<a href=\"@/blog/_index.md\">`\n"
        );
        assert_eq!(count, 2);
    }

    #[test]
    fn a_link_to_a_page_in_other_letter_case_leads_to_its_url() {
        let paths = paths();
        let urls = ["/blog/2015/03/Welcome/", "/blog/a/", "/blog/A/"];
        let moves = Moves::new(&paths, "https://k8s.io/", urls.into_iter());
        let body = "[a](https://k8s.io/blog/2015/03/welcome) [b](/blog/2015/03/welcome/#x) \
                    [c](/blog/2015/03/Welcome/) [d](/blog/a) [e](https://other.org/blog/2015/03/welcome) \
                    [f](//k8s.io/blog/2015/03/welcome)\n";
        let (relinked, count) = relink(body, |dest| moves.of(dest));
        // `/blog/a` could be either of two pages: left as written.
        assert_eq!(
            relinked,
            "[a](https://k8s.io/blog/2015/03/Welcome/) [b](/blog/2015/03/Welcome/#x) \
             [c](/blog/2015/03/Welcome/) [d](/blog/a) [e](https://other.org/blog/2015/03/welcome) \
             [f](//k8s.io/blog/2015/03/welcome)\n"
        );
        assert_eq!(count, 2);
    }
}
