//! A Zola site's calls of shortcodes are written escaped
//! (`{{/* admonition(…) */}}`): their Tera templates (the site's, its
//! theme's) are not carried over, so the page shows the call as the source
//! wrote it, the build does not fail on it, and the report counts it for a
//! hand.

use crate::source::markdown::MARKDOWN;
use crate::source::shortcodes::syntax::{self, Piece};

/// `body` with each call escaped, and how many were. A call that does not
/// read (Zola showed it as text: a comma left out, a quote inside a string
/// of the same quotes) is escaped as written, up to its `}}` or `%}`.
pub(super) fn escape_calls(body: &str) -> (String, usize) {
    let (body, unread) = escape_unread(body);
    let (out, escaped) = escape_read(&body);
    (out, escaped + unread)
}

/// `body` with each call that does not read escaped as written (one left
/// open, one that does not parse), the others as they are; and how many
/// were: what a build reads without failing.
pub(super) fn escape_unread(body: &str) -> (String, usize) {
    let mut body = body.to_owned();
    let mut unread = 0;
    while let Err((line, _)) = syntax::pieces(&body, MARKDOWN) {
        match escape_on_line(&body, line) {
            Some(escaped) => {
                body = escaped;
                unread += 1;
            }
            None => break,
        }
    }
    (body, unread)
}

/// `body` with the tag on `line` (1 for the first) that does not read
/// escaped as written; `None` when no such tag starts there.
fn escape_on_line(body: &str, line: usize) -> Option<String> {
    let start = match line {
        0 => return None,
        1 => 0,
        _ => memchr::memchr_iter(b'\n', body.as_bytes()).nth(line - 2)? + 1,
    };
    let end_of_line = body[start..]
        .find('\n')
        .map_or(body.len(), |end| start + end);
    let mut from = start;
    while let Some(found) = body[from..end_of_line].find('{') {
        let at = from + found;
        from = at + 1;
        let close = match body.get(at..at + 2) {
            Some("{{") => "}}",
            Some("{%") => "%}",
            _ => continue,
        };
        let Some(len) = body[at + 2..].find(close).map(|len| len + 2) else {
            // An opening nothing ends: its brace written as a character
            // reference, which shows the same and opens nothing.
            return Some(format!("{}&#123;{}", &body[..at], &body[at + 1..]));
        };
        let tag = &body[at..at + len + 2];
        // Already escaped, or a call that reads on its own: not this one.
        let reads = syntax::pieces(tag, MARKDOWN).is_ok();
        if tag.starts_with("{{/*") || tag.starts_with("{%/*") || reads {
            continue;
        }
        let end = at + tag.len();
        return Some(format!(
            "{}{}{}",
            &body[..at],
            escape_tag(tag),
            &body[end..]
        ));
    }
    None
}

/// The calls of `body`, which read, escaped.
fn escape_read(body: &str) -> (String, usize) {
    let Ok(Some(pieces)) = syntax::pieces(body, MARKDOWN) else {
        return (body.to_owned(), 0);
    };
    let mut out = String::with_capacity(body.len());
    let mut escaped = 0;
    for piece in pieces {
        match piece {
            Piece::Text(text) => out.push_str(text),
            // An escape read back is written escaped again.
            Piece::Escaped(call) => out.push_str(&escape_tag(&call)),
            Piece::Call(call) => {
                out.push_str(&escape_tag(call.open));
                if let Some(inner) = call.body {
                    let (inner, n) = escape_calls(inner);
                    out.push_str(&inner);
                    out.push_str("{%/* end */%}");
                    escaped += n;
                }
                escaped += 1;
            }
        }
    }
    (out, escaped)
}

/// `{{ x }}` as `{{/* x */}}`, `{% x %}` as `{%/* x */%}`.
pub(super) fn escape_tag(tag: &str) -> String {
    let (open, close) = tag.split_at(2);
    let inner = &close[..close.len() - 2];
    let close = &close[close.len() - 2..];
    format!("{open}/*{inner}*/{close}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_escaped_and_code_left_alone() {
        let body = "{{ admonition(type=\"tip\", text='a') }}\n\n{% note() %}\nin {{ toc() }}\n{% end %}\n\n{% mermaid() %}\ngraph\n{% end %}\n\n`{{ toc() }}`\n";
        let (escaped, count) = escape_calls(body);
        assert_eq!(
            escaped,
            "{{/* admonition(type=\"tip\", text='a') */}}\n\n{%/* note() */%}\nin {{/* toc() */}}\n{%/* end */%}\n\n{%/* mermaid() */%}\ngraph\n{%/* end */%}\n\n`{{ toc() }}`\n"
        );
        assert_eq!(count, 4);
        // Escaped once, shown as written; escaped again, the same.
        assert_eq!(escape_calls(&escaped), (escaped.clone(), 0));
    }

    #[test]
    fn a_call_that_does_not_read_is_escaped_as_written() {
        let body = "a\n{{ img(src=\"x\" alt=\"y\") }} and {{ note(text='it's') }}\n{{ ok() }}\n";
        let (escaped, count) = escape_calls(body);
        assert_eq!(
            escaped,
            "a\n{{/* img(src=\"x\" alt=\"y\") */}} and {{/* note(text='it's') */}}\n{{/* ok() */}}\n"
        );
        assert_eq!(count, 3);
    }
}
