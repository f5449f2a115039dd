//! Zola's links between documents (`@/blog/trip/index.fr.md#day-2`) name
//! files where Zola keeps them; the import moves the files, so each link is
//! written again with the path folio reads it at, or with the URL of a
//! section folio does not carry over.

use std::ops::Range;

use pulldown_cmark::{Event, Parser, Tag};

use crate::source::markdown::MARKDOWN;
use crate::source::outline::INTERNAL_LINK;

/// `body` with the path of each `@/` link and link definition given by
/// `moved` (the old path under `content/` to what to write instead: a new
/// path, or a URL); links in code, and paths `moved` has nothing for, are
/// left as written. Returns how many were written again.
pub(super) fn relink(body: &str, moved: impl Fn(&str) -> Option<String>) -> (String, usize) {
    let parser = Parser::new_ext(body, MARKDOWN);
    let mut spans: Vec<Range<usize>> = parser
        .reference_definitions()
        .iter()
        .filter_map(|(_, definition)| dest_in(body, definition.span.clone(), &definition.dest))
        .collect();
    for (event, range) in parser.into_offset_iter() {
        if let Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) = &event
            && let Some(span) = dest_in(body, range, dest_url)
        {
            spans.push(span);
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
        let Some(new) = moved(&path[INTERNAL_LINK.len()..]) else {
            continue;
        };
        out.push_str(&body[copied..span.start]);
        if !new.starts_with('/') {
            out.push_str(INTERNAL_LINK);
        }
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

/// Where `dest`, an `@/` destination, is written in `body[range]`: its last
/// occurrence there, since a link's text comes before its destination.
fn dest_in(body: &str, range: Range<usize>, dest: &str) -> Option<Range<usize>> {
    if !dest.starts_with(INTERNAL_LINK) {
        return None;
    }
    let at = body.get(range.clone())?.rfind(dest)?;
    Some(range.start + at..range.start + at + dest.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moved(old: &str) -> Option<String> {
        match old {
            "blog/trip/index.fr.md" => Some("fr/blog/trip.md".into()),
            "blog/_index.md" => Some("/blog/".into()),
            _ => None,
        }
    }

    #[test]
    fn links_and_definitions_follow_their_files_and_code_is_left_alone() {
        let body = "See [the trip](@/blog/trip/index.fr.md#day-2), [the blog](@/blog/_index.md) \
                    and [x][r].\n\n`[a](@/blog/_index.md)`\n\n[other](@/elsewhere.md)\n\n\
                    [r]: @/blog/trip/index.fr.md\n";
        let (relinked, count) = relink(body, moved);
        assert_eq!(
            relinked,
            "See [the trip](@/fr/blog/trip.md#day-2), [the blog](/blog/) \
             and [x][r].\n\n`[a](@/blog/_index.md)`\n\n[other](@/elsewhere.md)\n\n\
             [r]: @/fr/blog/trip.md\n"
        );
        assert_eq!(count, 3);
    }
}
