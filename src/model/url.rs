//! How text becomes part of a URL: the one URL rule (a file is named with
//! the Unicode text itself, every link to it is the percent-encoded UTF-8 of
//! that text), the placeholder filling that permalinks and date formats
//! share, and the three ways a name becomes a segment. They differ on
//! purpose, and changing one would move published URLs: a post's slug is
//! the author's, checked and kept as written (spaces become dashes); a tag's
//! is derived from its name, lowercased, with what breaks a URL turned into
//! dashes; a heading's anchor keeps only letters and digits, like GitHub's.

use unicode_normalization::UnicodeNormalization;

/// File systems cap a name at 255 bytes; a slug (or any other segment that
/// becomes a folder or file name) leaves room for the temp name beside it.
pub const MAX_SLUG_BYTES: usize = 200;

/// The names Windows keeps for devices, with or without an extension
/// (`con`, `aux.html`): a folder of that name cannot be made there.
const WINDOWS_DEVICES: &[&str] = &["con", "prn", "aux", "nul"];

/// What a URL path segment keeps as is: RFC 3986's unreserved characters.
const SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The one URL rule: a file is named with the Unicode text itself, and every
/// link to it is the percent-encoded UTF-8 of that text.
pub fn encode_segment(segment: &str) -> String {
    let mut encoded = String::with_capacity(segment.len());
    push_encoded_segment(&mut encoded, segment);
    encoded
}

/// [`encode_segment`] onto the end of `url`, for URLs built a piece at a time.
pub fn push_encoded_segment(url: &mut String, segment: &str) {
    url.extend(percent_encoding::utf8_percent_encode(segment, SEGMENT));
}

/// The Unicode segment behind an encoded one; `None` if it is not UTF-8.
pub fn decode_segment(segment: &str) -> Option<String> {
    percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .ok()
        .map(|s| s.into_owned())
}

/// `url` with each run of `/` made one: a pattern's empty placeholder
/// (`{lang}` at the root) leaves no empty segment.
pub fn collapse_slashes(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

/// A URL path written by hand (a front matter `permalink`, an old URL) as
/// folio writes its own: rooted at `/`, each segment percent-encoded by the
/// one URL rule (what was already encoded is decoded first), empty segments
/// dropped, and a last segment made a folder unless it is a file name (no
/// final `/`, and an extension of letters: `/old.html`): `/a/b` is `/a/b/`,
/// as static hosts serve it, and so is `/notes/v1.2`. A full URL keeps only its path,
/// a query or fragment is dropped. `None` for a path with `.` or `..`
/// segments, or one that does not decode to UTF-8.
pub fn written_path(text: &str) -> Option<String> {
    let text = text.trim();
    let path = match text.split_once("://") {
        Some((_, rest)) => rest.find('/').map_or("/", |at| &rest[at..]),
        None => text,
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    let folder = path.ends_with('/');
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut url = String::from("/");
    for (i, segment) in segments.iter().enumerate() {
        let decoded = decode_segment(segment)?;
        if decoded == "." || decoded == ".." || decoded.contains(['/', '\\']) {
            return None;
        }
        push_encoded_segment(&mut url, &decoded);
        let extension = decoded.rsplit_once('.').map(|(_, ext)| ext);
        let named_file = extension.is_some_and(|ext| {
            (1..=5).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_alphabetic())
        });
        let is_file = i + 1 == segments.len() && !folder && named_file;
        if !is_file {
            url.push('/');
        }
    }
    Some(url)
}

/// Copies `pattern` onto `out` with each `{name}` that `fill` knows (it
/// writes the value and says true) replaced; any other brace is kept as it
/// is. One pass: a `replace` per placeholder copied the whole text each
/// time, for the date of every page and the URL of every post.
pub fn fill_placeholders(
    pattern: &str,
    out: &mut String,
    mut fill: impl FnMut(&str, &mut String) -> bool,
) {
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        rest = &rest[open..];
        match rest.find('}') {
            Some(close) if fill(&rest[1..close], out) => rest = &rest[close + 1..],
            _ => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
}

/// NFC-normalizes a slug, turns runs of white space into one dash, and refuses
/// what could escape a URL path segment or the output folder.
pub fn normalize_slug(raw: &str) -> Result<String, String> {
    let slug: String = raw
        .nfc()
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-");
    if slug.is_empty() {
        return Err("is empty".into());
    }
    // File systems cap a name at 255 bytes; leave room for the temp name.
    // First, so that no message quotes a slug of any length.
    if slug.len() > MAX_SLUG_BYTES {
        return Err(format!(
            "is {} bytes long; a slug becomes a folder name and may be at most {MAX_SLUG_BYTES} bytes",
            slug.len()
        ));
    }
    if slug.starts_with('.') {
        return Err(format!(
            "`{}` starts with a dot, which hides a folder or leads out of one",
            shown(&slug)
        ));
    }
    // Beyond what breaks a URL, the characters Windows refuses in a file
    // name: the same sources must build on every system.
    if let Some(c) = slug.chars().find(|c| {
        matches!(
            c,
            '/' | '\\' | '?' | '#' | '%' | ':' | '*' | '"' | '<' | '>' | '|'
        ) || c.is_control()
    }) {
        return Err(format!(
            "`{}` contains `{}`",
            shown(&slug),
            shown(&c.to_string())
        ));
    }
    if slug.ends_with('.') {
        return Err(format!(
            "`{slug}` ends with a dot, which Windows drops from a folder name"
        ));
    }
    if is_windows_device(&slug) {
        return Err(format!(
            "`{slug}` is a name Windows keeps for a device: no folder can have it there"
        ));
    }
    Ok(slug)
}

/// `text` as an error shows it: as written, but with control characters
/// (a tab, a NUL) escaped.
fn shown(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Whether Windows keeps `name` (before its first dot, in any case) for a
/// device: `con`, `prn`, `aux`, `nul`, `com0`–`com9`, `lpt0`–`lpt9`, and
/// `com¹`… which Windows counts as digits too.
fn is_windows_device(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).to_ascii_lowercase();
    if WINDOWS_DEVICES.contains(&stem.as_str()) {
        return true;
    }
    let Some(number) = stem
        .strip_prefix("com")
        .or_else(|| stem.strip_prefix("lpt"))
    else {
        return false;
    };
    let mut digits = number.chars();
    matches!(
        (digits.next(), digits.next()),
        (Some('0'..='9' | '¹' | '²' | '³'), None)
    )
}

/// How a term of a taxonomy becomes its page's URL segment: site.toml's
/// `term_slugs`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TermSlugs {
    /// Letters of every script kept, lowercased ([`tag_slug`]): `/tags/música/`.
    #[default]
    Unicode,
    /// Written in ASCII letters and digits, as Zola's default `slugify`
    /// writes them (deunicode's transliteration): `/tags/musica/`,
    /// `多言語` as `duo-yan-yu`. What a site moved from Zola keeps its URLs
    /// with.
    Ascii,
}

/// The URL segment of term `name` under `rule`.
pub fn term_slug(name: &str, rule: TermSlugs) -> String {
    match rule {
        TermSlugs::Unicode => tag_slug(name),
        TermSlugs::Ascii => {
            let slug = slug::slugify(name);
            if slug.is_empty() {
                "tag".to_owned()
            } else {
                slug
            }
        }
    }
}

/// A tag's URL segment: lowercase, white space and URL-breaking characters
/// turned into dashes, NFC.
pub fn tag_slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.nfc().flat_map(char::to_lowercase) {
        if c.is_whitespace() || matches!(c, '/' | '\\' | '?' | '#' | '%') || c.is_control() {
            if !slug.ends_with('-') {
                slug.push('-');
            }
        } else {
            slug.push(c);
        }
    }
    let slug = slug.trim_matches(|c| c == '-' || c == '.');
    if slug.is_empty() {
        "tag".to_owned()
    } else {
        slug.to_owned()
    }
}

/// Lowercase letters and digits of any script, other runs become one dash.
pub fn heading_id(text: &str) -> String {
    let mut id = String::with_capacity(text.len());
    // ASCII is always NFC, and so are most headings.
    if text.is_ascii()
        || unicode_normalization::is_nfc_quick(text.chars())
            == unicode_normalization::IsNormalized::Yes
    {
        push_slug(&mut id, text.chars());
    } else {
        push_slug(&mut id, text.nfc());
    }
    let trimmed = id.trim_end_matches('-').len();
    id.truncate(trimmed);
    if id.is_empty() {
        id.push_str("section");
    }
    id
}

fn push_slug(id: &mut String, chars: impl Iterator<Item = char>) {
    for c in chars {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if c.is_alphanumeric() {
            id.extend(c.to_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_in_one_pass_and_other_braces_kept() {
        let fill = |pattern: &str| {
            let mut out = String::new();
            fill_placeholders(pattern, &mut out, |name, out| match name {
                "a" => {
                    out.push_str("{b}");
                    true
                }
                "b" => {
                    out.push('B');
                    true
                }
                _ => false,
            });
            out
        };
        assert_eq!(fill("/{a}/{b}/"), "/{b}/B/");
        assert_eq!(fill("{{b}} {c} {b"), "{B} {c} {b");
        assert_eq!(fill("no braces"), "no braces");
        assert_eq!(fill("}{"), "}{");
    }

    #[test]
    fn segments_round_trip_through_percent_encoding() {
        for text in ["hello-world", "京都の秋", "привет", "مرحبا", "a b", "100%"] {
            let encoded = encode_segment(text);
            assert!(encoded.is_ascii(), "{encoded}");
            assert_eq!(decode_segment(&encoded).as_deref(), Some(text));
        }
        assert_eq!(encode_segment("京都"), "%E4%BA%AC%E9%83%BD");
        assert_eq!(encode_segment("a.b_c~d-e"), "a.b_c~d-e");
    }

    #[test]
    fn heading_ids_keep_letters_and_digits_of_any_script() {
        assert_eq!(heading_id("Hello, World! 2024"), "hello-world-2024");
        assert_eq!(heading_id("Été à Paris"), "été-à-paris");
        // Decomposed (as macOS writes file names) gives the same id.
        assert_eq!(heading_id("E\u{301}te\u{301}"), "été");
        assert_eq!(heading_id("C++ & Rust --"), "c-rust");
        assert_eq!(heading_id("«Привет, мир»"), "привет-мир");
        assert_eq!(heading_id("?!"), "section");
    }

    #[test]
    fn slugs_windows_cannot_name_a_folder_are_refused() {
        for bad in ["con", "AUX", "nul.html", "com1", "Lpt9", "com¹", "draft."] {
            assert!(normalize_slug(bad).is_err(), "{bad}");
        }
        for good in [
            "console",
            "auxiliary",
            "com10",
            "lpt",
            "com-1",
            "nul-hypothesis",
            "v1.2",
        ] {
            assert_eq!(normalize_slug(good).as_deref(), Ok(good));
        }
        assert_eq!(normalize_slug("a\\b").unwrap_err(), "`a\\b` contains `\\`");
        assert_eq!(
            normalize_slug("a\tb\u{0}").unwrap_err(),
            "`a-b\\u{0}` contains `\\u{0}`"
        );
    }

    #[test]
    fn tag_slugs_are_lowercase_and_url_safe() {
        assert_eq!(tag_slug("Rust"), "rust");
        assert_eq!(tag_slug("Static sites"), "static-sites");
        assert_eq!(tag_slug("a/b?c"), "a-b-c");
        assert_eq!(tag_slug("多言語"), "多言語");
        assert_eq!(tag_slug("../"), "tag");
        assert_eq!(term_slug("Música", TermSlugs::Ascii), "musica");
        assert_eq!(term_slug("web app", TermSlugs::Ascii), "web-app");
        assert_eq!(term_slug("sèries", TermSlugs::Ascii), "series");
        assert_eq!(term_slug("多言語", TermSlugs::Ascii), "duo-yan-yu");
        assert_eq!(term_slug("../", TermSlugs::Ascii), "tag");
        assert_eq!(term_slug("Música", TermSlugs::Unicode), "música");
        // Transliterated, a name may grow: its front matter checks the slug.
        assert_eq!(term_slug(&"語".repeat(3), TermSlugs::Ascii), "yu-yu-yu");
    }

    #[test]
    fn written_paths_become_folio_urls() {
        assert_eq!(
            written_path("/en/2017/03/13/perf/").as_deref(),
            Some("/en/2017/03/13/perf/")
        );
        assert_eq!(
            written_path("en/2017//perf").as_deref(),
            Some("/en/2017/perf/")
        );
        assert_eq!(written_path("/old.html").as_deref(), Some("/old.html"));
        assert_eq!(
            written_path("/en/release-0.12.0/").as_deref(),
            Some("/en/release-0.12.0/")
        );
        assert_eq!(written_path("/notes/v1.2").as_deref(), Some("/notes/v1.2/"));
        assert_eq!(written_path("/old.html/").as_deref(), Some("/old.html/"));
        assert_eq!(
            written_path("https://ex.org/a b/?q=1#x").as_deref(),
            Some("/a%20b/")
        );
        assert_eq!(written_path("/caf%C3%A9/").as_deref(), Some("/caf%C3%A9/"));
        assert_eq!(written_path("/café/").as_deref(), Some("/caf%C3%A9/"));
        assert_eq!(written_path("/").as_deref(), Some("/"));
        assert_eq!(written_path("/a/../etc/passwd"), None);
        assert_eq!(written_path("/a%2Fb/"), None);
    }
}
