//! The one URL rule (a file is named with the Unicode text itself, every
//! link to it is the percent-encoded UTF-8 of that text) and the placeholder
//! filling that permalinks and date formats share.

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
}
