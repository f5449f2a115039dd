//! Front matter: where it is in a source (a YAML `---` or TOML `+++`
//! block, or a JSON object as Hugo writes it), its fields as JSON values, and
//! what is wrong with it, on which line.

use std::collections::HashSet;

use gray_matter::engine::{TOML, YAML};
use gray_matter::{Matter, Pod};
use serde_json::{Map, Value};

use crate::source::parse::{ParseError, line_at, syntax};

pub(crate) struct FrontMatter<'a> {
    pub(crate) map: Map<String, Value>,
    pub(crate) body: &'a str,
    /// The lines the front matter occupies, 1-based, to find a field's line.
    pub(crate) first_line: usize,
    pub(crate) last_line: usize,
    /// Whether it is a JSON object, where a key need not start its line.
    pub(crate) json: bool,
}

pub(crate) fn split_front_matter(text: &str) -> Result<FrontMatter<'_>, ParseError> {
    let first = text.lines().next().unwrap_or("").trim_end();
    let missing = || {
        syntax(
            Some(1),
            "the file has no front matter",
            "start it with a `---` YAML block (or `+++` TOML, or a JSON object) holding at least `title`",
        )
    };
    if text.trim().is_empty() {
        return Err(syntax(
            None,
            "the file is empty",
            "write a front matter holding at least `title` (and `date` for a post), or delete the file",
        ));
    }
    if first.starts_with('{') {
        let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
        let value = match stream.next() {
            Some(Ok(value)) => value,
            Some(Err(e)) => {
                // Its message ends with where: the line is the problem's.
                let message = e.to_string();
                let what = message
                    .rsplit_once(" at line ")
                    .map_or(message.as_str(), |(what, _)| what);
                return Err(syntax(
                    Some(e.line()),
                    &format!(
                        "the JSON front matter does not parse: {what} (column {})",
                        e.column()
                    ),
                    "fix the JSON object at the top of the file (a file starting with `{` is read as one), or start the file with a `---` YAML block",
                ));
            }
            None => return Err(missing()),
        };
        let end = stream.byte_offset();
        if let Some(key) = repeated_json_key(&text[..end]) {
            let lines = json_key_lines(&text[..end], &key);
            let (first, second) = (lines.first().copied(), lines.get(1).copied());
            let on = match (first, second) {
                (Some(first), Some(second)) if first != second => {
                    format!(", on lines {first} and {second}")
                }
                (Some(line), _) => format!(", on line {line}"),
                _ => String::new(),
            };
            return Err(syntax(
                second.or(first),
                &format!("`{key}` is written twice{on}"),
                &format!("keep one `{key}`: the front matter cannot say which one is meant"),
            ));
        }
        let Value::Object(map) = value else {
            return Err(missing());
        };
        return Ok(FrontMatter {
            map,
            body: &text[end..],
            first_line: 1,
            last_line: text[..end].matches('\n').count() + 1,
            json: true,
        });
    }
    let (pod, matter_lines, body) = match first {
        "---" => parse_delimited(Matter::<YAML>::new(), text, "YAML")?,
        "+++" => {
            let mut matter = Matter::<TOML>::new();
            matter.delimiter = "+++".to_owned();
            parse_delimited(matter, text, "TOML")?
        }
        _ => return Err(missing()),
    };
    let Value::Object(map) = pod_to_json(pod) else {
        return Err(syntax(
            Some(2),
            "the front matter is not a table of fields",
            "write one `field: value` per line",
        ));
    };
    Ok(FrontMatter {
        map,
        body,
        first_line: 2,
        last_line: matter_lines + 1,
        json: false,
    })
}

fn parse_delimited<'t, E: gray_matter::engine::Engine>(
    matter: Matter<E>,
    text: &'t str,
    format: &str,
) -> Result<(Pod, usize, &'t str), ParseError> {
    let delimiter = matter.delimiter.clone();
    // gray_matter leaves an unclosed block as body; find the closing line
    // ourselves so that mistake gets its own message, and so that the body
    // is borrowed from the source instead of rebuilt.
    let start = text.find('\n').map_or(text.len(), |i| i + 1);
    let mut offset = start;
    let mut lines = 0;
    let mut close = None;
    for line in text[offset..].split_inclusive('\n') {
        lines += 1;
        if line.trim_end() == delimiter {
            close = Some(offset + line.len());
            break;
        }
        offset += line.len();
    }
    let Some(body_start) = close else {
        return Err(syntax(
            Some(1),
            &format!("the {format} front matter opened here is never closed"),
            &format!("add a line `{delimiter}` after the last field"),
        ));
    };
    // The fields, between the two delimiter lines: line 1 of this text is
    // line 2 of the file.
    let fields = &text[start..offset];
    if format == "YAML"
        && let Some((line, alias)) = alias_bomb(fields)
    {
        return Err(syntax(
            Some(line + 1),
            &format!(
                "its YAML aliases would have the reader copy more than {} MiB (`*{alias}` goes over): it copies an anchored value for each alias",
                MAX_ALIAS_EXPANSION >> 20
            ),
            "write the values out, or repeat them through fewer aliases (`&name` marks a value, `*name` repeats it)",
        ));
    }
    let parsed = matter.parse::<Pod>(&text[..body_start]).map_err(|e| {
        let separator = if format == "TOML" { '=' } else { ':' };
        if let Some((key, first, second)) = repeated_key(&text[..body_start], separator) {
            return syntax(
                Some(second),
                &format!("`{key}` is written twice, on lines {first} and {second}"),
                &format!("keep one `{key}`: the front matter cannot say which one is meant"),
            );
        }
        let (line, message, help) = if format == "TOML" {
            let (line, message) = toml_error(fields, &e.to_string());
            let help = "fix the TOML there: a text value is quoted (`title = \"Hello\"`), a date is not (`date = 2024-05-01`)";
            (line, format!("the TOML front matter does not parse: {message}"), help.to_owned())
        } else {
            yaml_error(fields, &e.to_string())
        };
        syntax(line.map(|line| line + 1), &message, &help)
    })?;
    Ok((parsed.data.unwrap_or(Pod::Null), lines, &text[body_start..]))
}

/// What the TOML reader says is wrong with `fields`, and the line (of
/// `fields`, 1-based). gray_matter's message quotes the text around it with
/// its own line numbers; the `toml` crate is asked again for the span alone.
fn toml_error(fields: &str, reported: &str) -> (Option<usize>, String) {
    match toml::from_str::<toml::Table>(fields) {
        Err(e) => (
            e.span().map(|span| line_at(fields, span.start)),
            e.message().trim().to_owned(),
        ),
        Ok(_) => (None, without_prefix(reported).to_owned()),
    }
}

/// What the YAML reader says is wrong with `fields`, the line (of
/// `fields`, 1-based) and how to fix it. Its message ends with `at byte B
/// line L column C`, counted in the text it was given, which gray_matter
/// trimmed of its leading blank lines.
fn yaml_error(fields: &str, reported: &str) -> (Option<usize>, String, String) {
    let reported = without_prefix(reported);
    let help = "fix the YAML there: quote a value that holds `: ` or ` #` or starts with `[`, `{`, `*`, `&`, `!`, `%` or `@`, in single quotes if it holds a backslash (`title: 'Why: a story'`)";
    let (what, at) = reported.rsplit_once(" at byte ").unwrap_or((reported, ""));
    let words: Vec<&str> = at.split(' ').collect();
    let number = |i: usize| words.get(i).and_then(|w| w.parse::<usize>().ok());
    let blank = fields.len() - fields.trim_start().len();
    let skipped = memchr::memchr_iter(b'\n', &fields.as_bytes()[..blank]).count();
    let line = number(2).map(|line| line + skipped);
    let column = number(4).map_or(String::new(), |column| format!(" (column {column})"));
    // A key repeated in a nested table; the top level's are found before.
    if let Some(key) = what
        .strip_suffix(": duplicated key in mapping")
        .and_then(|key| key.strip_prefix("String(\""))
        .and_then(|key| key.strip_suffix("\")"))
    {
        return (
            line,
            format!("`{key}` is written twice in one table"),
            format!("keep one `{key}`: the front matter cannot say which one is meant"),
        );
    }
    let message = format!("the YAML front matter does not parse: {what}{column}");
    (line, message, help.to_owned())
}

/// gray_matter's wording around a reader's message.
fn without_prefix(message: &str) -> &str {
    message
        .strip_prefix("Deserialize error: ")
        .unwrap_or(message)
        .trim()
}

/// The most bytes the aliases of a YAML front matter may make the reader
/// copy: yaml-rust2 copies an anchored value for each alias, so that a few
/// lines of aliases of aliases (the "billion laughs") would take more
/// memory than a machine has.
const MAX_ALIAS_EXPANSION: usize = 1 << 20;

/// Where the aliases of a YAML front matter would have the reader copy
/// more than [`MAX_ALIAS_EXPANSION`] bytes: the line of the alias that goes
/// over, and its name. Read from the text alone, erring high: an anchored
/// value is taken to run from its `&name` to the first `*name`, and to hold
/// what the aliases in between repeat. Real front matter has no alias, or a
/// few.
pub(crate) fn alias_bomb(fields: &str) -> Option<(usize, &str)> {
    // Most front matter has no alias at all.
    memchr::memchr(b'*', fields.as_bytes())?;
    // Each anchor: its name, where it is, and (once used) its size.
    let mut anchors: Vec<(&str, usize, Option<usize>)> = Vec::new();
    // Each alias's place and the running total of what the aliases repeat.
    let mut repeated: Vec<(usize, usize)> = Vec::new();
    let mut total = 0usize;
    for (at, sigil, name) in yaml_marks(fields) {
        if sigil == b'&' {
            anchors.push((name, at, None));
            continue;
        }
        let Some(anchor) = anchors.iter_mut().rev().find(|(n, _, _)| *n == name) else {
            continue;
        };
        let size = *anchor.2.get_or_insert_with(|| {
            let from = anchor.1;
            let before = repeated.partition_point(|&(place, _)| place < from);
            let before = before.checked_sub(1).map_or(0, |i| repeated[i].1);
            (at - from).saturating_add(total - before)
        });
        total = total.saturating_add(size);
        repeated.push((at, total));
        if total > MAX_ALIAS_EXPANSION {
            return Some((line_at(fields, at), name));
        }
    }
    None
}

/// The anchors (`&name`) and aliases (`*name`) of a YAML text, as (place,
/// sigil, name), and some text that only looks like one (in a quoted or
/// block value): no harm, as [`alias_bomb`] errs high.
fn yaml_marks(text: &str) -> impl Iterator<Item = (usize, u8, &str)> {
    let bytes = text.as_bytes();
    let ends_name = |b: u8| b.is_ascii_whitespace() || b"[]{},".contains(&b);
    (0..bytes.len()).filter_map(move |at| {
        let sigil = bytes[at];
        let starts = at == 0 || ends_name(bytes[at - 1]);
        if !(sigil == b'&' || sigil == b'*') || !starts {
            return None;
        }
        let len = bytes[at + 1..]
            .iter()
            .position(|&b| ends_name(b))
            .unwrap_or(bytes.len() - at - 1);
        // A name ends at an ASCII byte, so this is a char boundary.
        (len > 0).then(|| (at, sigil, &text[at + 1..at + 1 + len]))
    })
}

/// The first top-level key of a front matter written twice, with the
/// lines (1-based) of both: a real blog's most common YAML mistake, which
/// the YAML reader reports without saying where the first one is.
fn repeated_key(front: &str, separator: char) -> Option<(&str, usize, usize)> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (i, line) in front.lines().enumerate().skip(1) {
        // TOML's top-level keys come before its first table.
        if line.starts_with('[') {
            break;
        }
        // Top-level keys start the line; YAML's nested ones are indented.
        let Some((key, _)) = line.split_once(separator) else {
            continue;
        };
        let key = key.trim_end();
        if key.is_empty() || key.starts_with([' ', '\t', '-', '#']) || key.contains(' ') {
            continue;
        }
        if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == key) {
            return Some((key, first, i + 1));
        }
        seen.push((key, i + 1));
    }
    None
}

/// The first key of a JSON object written twice: serde_json keeps the last
/// one, where the YAML and TOML readers refuse.
fn repeated_json_key(object: &str) -> Option<String> {
    struct Repeated(Option<String>);
    struct Keys;
    impl<'de> serde::de::Visitor<'de> for Keys {
        type Value = Repeated;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Repeated, A::Error> {
            let mut seen = HashSet::new();
            let mut repeated = None;
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<serde::de::IgnoredAny>()?;
                if !seen.insert(key.clone()) && repeated.is_none() {
                    repeated = Some(key);
                }
            }
            Ok(Repeated(repeated))
        }
    }
    impl<'de> serde::Deserialize<'de> for Repeated {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_map(Keys)
        }
    }
    serde_json::from_str::<Repeated>(object).ok()?.0
}

/// The lines (1-based) where `"key":` is written in a JSON text.
pub(crate) fn json_key_lines(text: &str, key: &str) -> Vec<usize> {
    let quoted = serde_json::to_string(key).unwrap_or_default();
    text.match_indices(&quoted)
        .filter(|(at, _)| text[at + quoted.len()..].trim_start().starts_with(':'))
        .map(|(at, _)| line_at(text, at))
        .collect()
}

fn pod_to_json(pod: Pod) -> Value {
    match pod {
        Pod::Null => Value::Null,
        Pod::String(s) => Value::String(s),
        Pod::Integer(i) => Value::from(i),
        Pod::Float(f) => Value::from(f),
        Pod::Boolean(b) => Value::Bool(b),
        Pod::Array(items) => Value::Array(items.into_iter().map(pod_to_json).collect()),
        Pod::Hash(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, pod_to_json(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::error::ProblemKind;
    use crate::plugin::Plugins;
    use crate::source::parse::parse;
    use crate::source::parse::tests::{config, run, source};

    #[test]
    fn a_key_written_twice_is_an_error_naming_both_lines() {
        let text = "---\ntitle: x\ntype: posts\ndate: 2024-01-01\ntype: advisory\n---\n";
        match run("en/posts/x.md", text) {
            Err((Some(5), ProblemKind::Syntax { message, .. })) => {
                assert!(
                    message.contains("`type` is written twice, on lines 3 and 5"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
        // Nested keys of one name in two tables are no repetition.
        let nested = "---\ntitle: x\ndate: 2024-01-01\na:\n  k: 1\nb:\n  k: 2\n---\n";
        assert!(run("en/posts/x.md", nested).is_ok());
        let toml = "+++\ntitle = \"x\"\ndate = 2024-01-01\ntitle = \"y\"\n+++\n";
        match run("en/posts/x.md", toml) {
            Err((Some(4), ProblemKind::Syntax { message, .. })) => {
                assert!(
                    message.contains("`title` is written twice, on lines 2 and 4"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
        let tables = "+++\ntitle = \"x\"\ndate = 2024-01-01\n[a]\nk = 1\n[b]\nk = 2\n+++\n";
        assert!(run("en/posts/x.md", tables).is_ok());
    }

    #[test]
    fn unclosed_front_matter_and_bad_syntax_are_errors() {
        assert!(matches!(
            run("en/posts/x.md", "---\ntitle: x\n"),
            Err((Some(1), ProblemKind::Syntax { .. }))
        ));
        assert!(matches!(
            run("en/posts/x.md", "no front matter"),
            Err((Some(1), ProblemKind::Syntax { .. }))
        ));
        assert!(matches!(
            run("en/posts/x.md", "{\"title\": \n"),
            Err((_, ProblemKind::Syntax { .. }))
        ));
        assert!(run("en/posts/x.md", "---\ntitle: [unclosed\n---\n").is_err());
        let invalid = b"---\ntitle: x\n---\n\xff\n";
        let result = parse(
            &source("en/posts/x.md"),
            invalid,
            String::new(),
            (&config("UTC"), &Plugins::new()),
        );
        assert!(matches!(result, Err((Some(4), ProblemKind::Syntax { .. }))));
    }

    #[test]
    fn only_aliases_that_would_copy_too_much_are_refused() {
        // Real front matter: a few aliases, text that looks like one.
        let fine = "a: &me Ada\nb: [*me, *me]\nc: '*me* & *you*'\nd: &me Grace\ne: *me\n";
        assert_eq!(alias_bomb(fine), None);
        // Nine times nine… of 40 bytes goes over 1 MiB at the fifth level.
        let mut bomb = String::from("a0: &a0 [\"0123456789012345678901234567890123456789\"]\n");
        for level in 1..10 {
            let alias = format!("*a{}", level - 1);
            let items = [alias.as_str(); 9].join(", ");
            bomb.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        assert_eq!(alias_bomb(&bomb), Some((6, "a4")));
        // One big value repeated often enough goes over too.
        let big = format!(
            "a: &big '{}'\nb: [{}]\n",
            "x".repeat(100_000),
            ["*big"; 11].join(", ")
        );
        assert_eq!(alias_bomb(&big), Some((2, "big")));
        let few = format!(
            "a: &big '{}'\nb: [{}]\n",
            "x".repeat(100_000),
            ["*big"; 9].join(", ")
        );
        assert_eq!(alias_bomb(&few), None);
    }
}
