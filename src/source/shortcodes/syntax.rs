//! Where a body calls shortcodes, in Zola's syntax: `{{ name(arg="v") }}`
//! inline, `{% name(arg="v") %}…{% end %}` around a body, arguments of
//! strings (`"…"`, `'…'`, `` `…` ``), numbers, booleans and lists of them;
//! `{{/* name() */}}` writes the call itself. Never inside code.

use std::collections::BTreeMap;
use std::ops::Range;

use minijinja::Value;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use crate::source::parse::line_at;

/// A piece of a body: text as written, or a shortcode's call.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece<'a> {
    Text(&'a str),
    /// A call written escaped (`{{/* x */}}`), as the text it shows
    /// (`{{ x }}`).
    Escaped(String),
    Call(Call<'a>),
}

/// One call of a shortcode.
#[derive(Debug, Clone, PartialEq)]
pub struct Call<'a> {
    pub name: &'a str,
    pub args: BTreeMap<&'a str, Value>,
    /// What a `{% … %}` call encloses, as written.
    pub body: Option<&'a str>,
    /// The call's opening tag as written (`{{ name(…) }}`, `{% name(…) %}`).
    pub open: &'a str,
    /// The line of the call, from the body's first.
    pub line: usize,
}

/// A call that cannot be read: the line (from the body's first) and why.
pub type SyntaxError = (usize, String);

/// The pieces of `markdown`, read with `options`; `None` when it calls no
/// shortcode, as most bodies do.
pub fn pieces(
    markdown: &str,
    options: pulldown_cmark::Options,
) -> Result<Option<Vec<Piece<'_>>>, SyntaxError> {
    if memchr::memmem::find(markdown.as_bytes(), b"{{").is_none()
        && memchr::memmem::find(markdown.as_bytes(), b"{%").is_none()
    {
        return Ok(None);
    }
    let code = code_ranges(markdown, options);
    let mut reader = Reader {
        text: markdown,
        code: &code,
        at: 0,
    };
    let pieces = reader.read_until_end(false)?;
    if pieces.iter().all(|piece| matches!(piece, Piece::Text(_))) {
        return Ok(None);
    }
    Ok(Some(pieces))
}

/// Where `markdown` has code (spans and blocks), in which nothing is a call.
pub(crate) fn code_ranges(markdown: &str, options: pulldown_cmark::Options) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut block_start = None;
    for (event, range) in Parser::new_ext(markdown, options).into_offset_iter() {
        match event {
            Event::Code(_) => ranges.push(range),
            Event::Start(Tag::CodeBlock(_)) => block_start = Some(range.start),
            Event::End(TagEnd::CodeBlock) => {
                if let Some(start) = block_start.take() {
                    ranges.push(start..range.end);
                }
            }
            _ => {}
        }
    }
    ranges
}

struct Reader<'a, 'c> {
    text: &'a str,
    code: &'c [Range<usize>],
    at: usize,
}

impl<'a> Reader<'a, '_> {
    fn in_code(&self, offset: usize) -> bool {
        self.code.iter().any(|range| range.contains(&offset))
    }

    /// Pieces up to the end of the text, or (in a body) to its `{% end %}`,
    /// which is read too.
    fn read_until_end(&mut self, in_body: bool) -> Result<Vec<Piece<'a>>, SyntaxError> {
        let mut pieces = Vec::new();
        let mut text_from = self.at;
        while let Some(found) = self.text[self.at..].find('{').map(|at| self.at + at) {
            self.at = found + 1;
            let rest = &self.text[found..];
            if !(rest.starts_with("{{") || rest.starts_with("{%")) || self.in_code(found) {
                continue;
            }
            if let Some(escaped) = self.escape(found) {
                push_text(&mut pieces, &self.text[text_from..found]);
                pieces.push(Piece::Escaped(escaped));
                text_from = self.at;
                continue;
            }
            if in_body && is_end(rest) {
                push_text(&mut pieces, &self.text[text_from..found]);
                self.at = found + rest.find("%}").map_or(rest.len(), |end| end + 2);
                return Ok(pieces);
            }
            let Some(call) = self.call(found)? else {
                continue;
            };
            push_text(&mut pieces, &self.text[text_from..found]);
            pieces.push(Piece::Call(call));
            text_from = self.at;
        }
        if in_body {
            return Err((0, String::new()));
        }
        push_text(&mut pieces, &self.text[text_from..]);
        self.at = self.text.len();
        Ok(pieces)
    }

    /// `{{/* x */}}` as `{{ x }}` (and `{%/* x */%}` as `{% x %}`): the
    /// text to write, with the reader past it.
    fn escape(&mut self, start: usize) -> Option<String> {
        let rest = &self.text[start..];
        let (open, close) = if rest.starts_with("{{/*") {
            ("{{/*", "*/}}")
        } else if rest.starts_with("{%/*") {
            ("{%/*", "*/%}")
        } else {
            return None;
        };
        let end = rest.find(close)?;
        self.at = start + end + close.len();
        let inner = &rest[open.len()..end];
        Some(format!("{}{inner}{}", &open[..2], &close[2..]))
    }

    /// The call at `start` (`{{ name(…) }}` or `{% name(…) %}…{% end %}`),
    /// or `None` when the text there is no call (`{{ var }}`, Liquid).
    fn call(&mut self, start: usize) -> Result<Option<Call<'a>>, SyntaxError> {
        let rest = &self.text[start..];
        let block = rest.starts_with("{%");
        let close = if block { "%}" } else { "}}" };
        let inner = rest[2..].trim_start();
        let name_len = inner
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        let name = &inner[..name_len];
        let after_name = inner[name_len..].trim_start();
        if name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
            || !after_name.starts_with('(')
        {
            return Ok(None);
        }
        let line = line_at(self.text, start);
        let args_start = self.text.len() - after_name.len() + 1;
        let mut args = Args {
            text: self.text,
            at: args_start,
        };
        let parsed = args
            .read()
            .map_err(|why| (line, format!("the call of `{name}` {why}")))?;
        let after = self.text[args.at..].trim_start();
        if !after.starts_with(close) {
            return Err((
                line,
                format!("the call of `{name}` must end with `)` and `{close}`"),
            ));
        }
        self.at = self.text.len() - after.len() + close.len();
        let open = &self.text[start..self.at];
        let body = if block {
            let body_start = self.at;
            let inner_pieces = self.read_until_end(true).map_err(|_| {
                (
                    line,
                    format!("`{{% {name}(…) %}}` has no `{{% end %}}` after it"),
                )
            })?;
            drop(inner_pieces);
            let end_tag = self.text[..self.at].rfind("{%").unwrap_or(self.at);
            Some(&self.text[body_start..end_tag])
        } else {
            None
        };
        Ok(Some(Call {
            name,
            args: parsed,
            body,
            open,
            line,
        }))
    }
}

/// Text pieces are kept apart from calls; empty ones are left out.
fn push_text<'a>(pieces: &mut Vec<Piece<'a>>, text: &'a str) {
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
}

/// `{% end %}`, with any spaces inside.
fn is_end(rest: &str) -> bool {
    rest.strip_prefix("{%")
        .map(str::trim_start)
        .and_then(|inner| inner.strip_prefix("end"))
        .is_some_and(|after| after.trim_start().starts_with("%}"))
}

/// The arguments of a call, after its `(`.
struct Args<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Args<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn skip_spaces(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    /// `key=value, …)`, with the reader past the `)`.
    fn read(&mut self) -> Result<BTreeMap<&'a str, Value>, String> {
        let mut args = BTreeMap::new();
        loop {
            self.skip_spaces();
            if let Some(rest) = self.rest().strip_prefix(')') {
                self.at = self.text.len() - rest.len();
                return Ok(args);
            }
            let rest = self.rest();
            let key_len = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if key_len == 0 {
                return Err("needs `name=value` arguments".into());
            }
            let key = &rest[..key_len];
            self.at += key_len;
            self.skip_spaces();
            let Some(rest) = self.rest().strip_prefix('=') else {
                return Err(format!("needs `=` after the argument `{key}`"));
            };
            self.at = self.text.len() - rest.len();
            self.skip_spaces();
            let value = self.value()?;
            if args.insert(key, value).is_some() {
                return Err(format!("gives the argument `{key}` twice"));
            }
            let after_value = self.at;
            self.skip_spaces();
            // Zola reads arguments apart by white space alone too
            // (`src="a" alt="b"`), as sites written for it do.
            let spaced = self.at > after_value
                && self
                    .rest()
                    .starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            if let Some(rest) = self.rest().strip_prefix(',') {
                self.at = self.text.len() - rest.len();
            } else if !self.rest().starts_with(')') && !spaced {
                return Err(format!("needs `,` or `)` after the argument `{key}`"));
            }
        }
    }

    /// A string, a number, a boolean or a list of them.
    fn value(&mut self) -> Result<Value, String> {
        let rest = self.rest();
        if let Some(quote) = rest.chars().next().filter(|c| "\"'`".contains(*c)) {
            let end = rest[1..]
                .find(quote)
                .ok_or_else(|| format!("has a string with no closing {quote}"))?;
            self.at += end + 2;
            return Ok(Value::from(&rest[1..=end]));
        }
        if let Some(list) = rest.strip_prefix('[') {
            self.at = self.text.len() - list.len();
            let mut items = Vec::new();
            loop {
                self.skip_spaces();
                if let Some(after) = self.rest().strip_prefix(']') {
                    self.at = self.text.len() - after.len();
                    return Ok(Value::from(items));
                }
                items.push(self.value()?);
                self.skip_spaces();
                if let Some(after) = self.rest().strip_prefix(',') {
                    self.at = self.text.len() - after.len();
                }
            }
        }
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '+'))
            .unwrap_or(rest.len());
        let word = &rest[..len];
        self.at += len;
        match word {
            "true" => Ok(Value::from(true)),
            "false" => Ok(Value::from(false)),
            _ => word
                .parse::<i64>()
                .map(Value::from)
                .or_else(|_| word.parse::<f64>().map(Value::from))
                .map_err(|_| format!("has `{word}`, which is not a value: quote a string")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::markdown::MARKDOWN;

    fn calls(markdown: &str) -> Vec<Piece<'_>> {
        pieces(markdown, MARKDOWN).unwrap().unwrap_or_default()
    }

    #[test]
    fn inline_and_body_calls_with_every_kind_of_argument() {
        let markdown = "Intro {{ youtube(id=\"abc\", start=10, ratio=1.5, autoplay=true) }} then\n\n{% note(title='A \"note\"', tags=[\"a\", `b`]) %}\nSome *text*.\n{% end %}\nAfter.";
        let pieces = calls(markdown);
        assert_eq!(pieces.len(), 5, "{pieces:?}");
        assert_eq!(pieces[0], Piece::Text("Intro "));
        let Piece::Call(video) = &pieces[1] else {
            panic!()
        };
        assert_eq!(video.name, "youtube");
        assert_eq!(video.args["id"], Value::from("abc"));
        assert_eq!(video.args["start"], Value::from(10));
        assert_eq!(video.args["ratio"], Value::from(1.5));
        assert_eq!(video.args["autoplay"], Value::from(true));
        assert_eq!(video.body, None);
        let Piece::Call(note) = &pieces[3] else {
            panic!()
        };
        assert_eq!(note.name, "note");
        assert_eq!(note.args["title"], Value::from("A \"note\""));
        assert_eq!(
            note.args["tags"],
            Value::from(vec![Value::from("a"), Value::from("b")])
        );
        assert_eq!(note.body, Some("\nSome *text*.\n"));
        assert_eq!(note.line, 3);
        assert_eq!(pieces[4], Piece::Text("\nAfter."));
    }

    #[test]
    fn arguments_apart_by_white_space_alone_read_as_zola_reads_them() {
        let read = calls("{{ img(src=\"a.webp\" alt='b', wide=true\n  n=2) }}");
        let Piece::Call(image) = &read[0] else {
            panic!("{read:?}")
        };
        assert_eq!(image.args["src"], Value::from("a.webp"));
        assert_eq!(image.args["alt"], Value::from("b"));
        assert_eq!(image.args["n"], Value::from(2));
        // Glued to the value, the next word is no argument.
        assert!(pieces("{{ img(src=\"a\"alt=\"b\") }}", MARKDOWN).is_err());
    }

    #[test]
    fn calls_in_code_and_template_text_that_is_no_call_are_left_alone() {
        assert_eq!(
            pieces(
                "`{{ youtube(id=\"x\") }}`\n\n```\n{% note() %}\n```\n\n{{ var }} {% if x %}\n",
                MARKDOWN
            )
            .unwrap(),
            None
        );
    }

    #[test]
    fn an_escaped_call_is_written_as_a_call() {
        let pieces = calls("Write {{/* youtube(id=\"x\") */}} to embed.");
        let text: String = pieces
            .iter()
            .map(|piece| match piece {
                Piece::Text(text) => text,
                Piece::Escaped(call) => call.as_str(),
                Piece::Call(_) => "CALL",
            })
            .collect();
        assert_eq!(text, "Write {{ youtube(id=\"x\") }} to embed.");
    }

    #[test]
    fn bodies_nest() {
        let pieces =
            calls("{% details(summary=\"a\") %}\n{% note() %}\ninner\n{% end %}\n{% end %}\n");
        let Piece::Call(outer) = &pieces[0] else {
            panic!("{pieces:?}")
        };
        assert_eq!(outer.body, Some("\n{% note() %}\ninner\n{% end %}\n"));
    }

    #[test]
    fn a_call_that_does_not_read_is_an_error_with_its_line() {
        let error = |markdown: &str| pieces(markdown, MARKDOWN).unwrap_err();
        assert_eq!(
            error("a\n\n{{ youtube(id=abc x) }}"),
            (
                3,
                "the call of `youtube` has `abc`, which is not a value: quote a string".into()
            )
        );
        assert_eq!(
            error("{{ youtube(id=\"x\" }}"),
            (
                1,
                "the call of `youtube` needs `,` or `)` after the argument `id`".into()
            )
        );
        assert_eq!(
            error("x\n{% note() %}\nnever closed\n"),
            (2, "`{% note(…) %}` has no `{% end %}` after it".into())
        );
        assert_eq!(
            error("{{ f(a=\"1\", a=\"2\") }}"),
            (1, "the call of `f` gives the argument `a` twice".into())
        );
    }
}
