//! Zola gives a heading the id of its text transliterated to ASCII
//! (`Anàlisi web` → `analisi-web`, its `slugify.anchors = "on"`, the
//! default); folio keeps the text's letters (`anàlisi-web`). A link to
//! such an anchor, from the site or from anywhere else, would lead to the
//! top of the page: the import writes Zola's id on each heading whose id
//! would differ (`## Anàlisi web {#analisi-web}`), so every old anchor
//! still leads where it did.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::source::markdown::MARKDOWN;
use crate::source::outline::HeadingIds;

/// `body` with Zola's id written on each ATX heading folio would give
/// another id, and how many were written.
pub(super) fn keep_zola_anchors(body: &str) -> (String, usize) {
    let mut folio_ids = HeadingIds::default();
    let mut zola_ids = HeadingIds::default();
    // Where to write each id, in order.
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let mut heading: Option<(Option<String>, usize, String)> = None;
    for (event, range) in Parser::new_ext(body, MARKDOWN).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { id, .. }) => {
                heading = Some((id.map(|id| id.to_string()), range.start, String::new()));
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some((_, _, title)) = &mut heading {
                    title.push_str(&text);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let Some((given, start, title)) = heading.take() else {
                    continue;
                };
                let folio = folio_ids.issue(given.as_deref(), &title);
                let zola = zola_ids.issue_base(given.as_deref(), zola_anchor(&title));
                if given.is_none()
                    && folio != zola
                    && let Some(at) = end_of_atx_heading(body, start)
                {
                    inserts.push((at, format!(" {{#{zola}}}")));
                }
            }
            _ => {}
        }
    }
    let count = inserts.len();
    let mut out = body.to_owned();
    for (at, id) in inserts.into_iter().rev() {
        out.insert_str(at, &id);
    }
    (out, count)
}

/// Zola's anchor for a heading's text (its `slugify.anchors = "on"`):
/// transliterated to ASCII, lowercase, other runs a dash, as the `slug`
/// crate Zola uses makes it.
fn zola_anchor(title: &str) -> String {
    let anchor = slug::slugify(title);
    if anchor.is_empty() {
        // Zola's `slugify` gives an empty id; folio's never is, and an
        // empty one cannot be written.
        "section".into()
    } else {
        anchor
    }
}

/// Where an id can be written on the ATX heading starting at `start`: the
/// end of its line, before trailing spaces; `None` for a Setext heading
/// (its text spans lines) or one with a closing sequence of `#`.
fn end_of_atx_heading(body: &str, start: usize) -> Option<usize> {
    let line = &body[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    if !line.trim_start().starts_with('#') {
        return None;
    }
    let text = line.trim_end();
    if text.ends_with('#') {
        return None;
    }
    Some(start + text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_keep_zola_s_ascii_ids_where_folio_s_would_differ() {
        let body = "## Anàlisi web\n\nText.\n\n## Plain\n\n### Anàlisi web\n\n## Given {#mine}\n\nSetext é\n--------\n\n```\n## Not a heading é\n```\n";
        let (kept, count) = keep_zola_anchors(body);
        assert_eq!(
            kept,
            "## Anàlisi web {#analisi-web}\n\nText.\n\n## Plain\n\n### Anàlisi web {#analisi-web-1}\n\n## Given {#mine}\n\nSetext é\n--------\n\n```\n## Not a heading é\n```\n"
        );
        assert_eq!(count, 2);
    }

    #[test]
    fn the_ids_written_are_the_ones_the_page_then_has() {
        let (kept, _) = keep_zola_anchors("# Café\n\n# Café\n\n# Cafe\n");
        let html = crate::source::markdown::render_body(&kept, &Default::default()).0;
        for id in ["cafe", "cafe-1", "cafe-2"] {
            assert!(html.contains(&format!("id=\"{id}\"")), "{id}: {html}");
        }
    }
}
