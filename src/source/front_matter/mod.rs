//! Front matter: where it is in a source (a YAML `---` or TOML `+++` block,
//! or a JSON object as Hugo writes it), its fields as JSON values with the
//! line of each, and what is wrong with it, on which line.
//!
//! Each format is read by its own crate, which says where things are:
//! yaml-rust2's events (`yaml.rs`), toml's spanned tables, serde_json's raw
//! values. gray_matter wraps the first two but hands back values alone, read
//! from a trimmed copy of the block, so a field's line would have to be
//! searched for in the text; folio finds the block itself, and leaves
//! gray_matter to `folio import`, which needs no line (`import::yaml_map`).
//! Each front matter is read once.

pub(crate) mod yaml;

use std::collections::HashMap;
use std::ops::Range;

use serde::Deserialize as _;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use toml::Spanned;
use toml::de::{DeTable, DeValue, ValueDeserializer};

use crate::source::parse::{ParseError, line_at, syntax};

/// A source's front matter read, and the body after it.
pub(crate) struct FrontMatter<'a> {
    pub(crate) map: Map<String, Value>,
    pub(crate) body: &'a str,
    /// Each top-level field's name and line, in the order written.
    lines: Vec<(String, usize)>,
}

impl FrontMatter<'_> {
    /// The line where `field` is written.
    pub(crate) fn line_of(&self, field: &str) -> Option<usize> {
        // Two keys YAML tells apart can have one name (`1` and `"1"`): the
        // value is the last one's.
        self.lines
            .iter()
            .rev()
            .find(|(name, _)| name == field)
            .map(|&(_, line)| line)
    }
}

/// A key written twice in one table: its name, the keys of the tables it is
/// in (none at the top level), and the lines of both.
#[derive(Debug)]
pub(crate) struct Repeated {
    pub(crate) key: String,
    pub(crate) table: Vec<String>,
    pub(crate) first: usize,
    pub(crate) second: usize,
}

/// A front matter's value as a reader gives it, and the line of each
/// top-level key, in the order written.
type Read = (Value, Vec<(String, usize)>);

const YAML_HELP: &str = "fix the YAML there: quote a value that holds `: ` or ` #` or starts with `[`, `{`, `*`, `&`, `!`, `%` or `@`, in single quotes if it holds a backslash (`title: 'Why: a story'`)";
const TOML_HELP: &str = "fix the TOML there: a text value is quoted (`title = \"Hello\"`), a date is not (`date = 2024-05-01`)";
const JSON_HELP: &str = "fix the JSON object at the top of the file (a file starting with `{` is read as one), or start the file with a `---` YAML block";

/// Finds the front matter of `text` and reads it.
pub(crate) fn split(text: &str) -> Result<FrontMatter<'_>, ParseError> {
    if text.trim().is_empty() {
        return Err(syntax(
            None,
            "the file is empty",
            "write a front matter holding at least `title` (and `date` for a post), or delete the file",
        ));
    }
    let missing = || {
        syntax(
            Some(1),
            "the file has no front matter",
            "start it with a `---` YAML block (or `+++` TOML, or a JSON object) holding at least `title`",
        )
    };
    let first = text.lines().next().unwrap_or("").trim_end();
    let ((value, lines), body) = match first {
        "---" => {
            let block = Block::find(text, "---", "YAML")?;
            (read_yaml(&block)?, block.body)
        }
        "+++" => {
            let block = Block::find(text, "+++", "TOML")?;
            (read_toml(&block)?, block.body)
        }
        _ if first.starts_with('{') => {
            let (read, end) = read_json(text)?;
            if !read.0.is_object() {
                return Err(missing());
            }
            (read, &text[end..])
        }
        _ => return Err(missing()),
    };
    let Value::Object(map) = value else {
        return Err(syntax(
            Some(2),
            "the front matter is not a table of fields",
            "write one `field: value` per line",
        ));
    };
    Ok(FrontMatter { map, body, lines })
}

/// A front matter between two delimiter lines.
struct Block<'t> {
    /// The source up to the closing line.
    head: &'t str,
    /// Where the fields start in `head`: after the opening line.
    from: usize,
    /// What follows the closing line.
    body: &'t str,
}

impl<'t> Block<'t> {
    /// The block `text` opens with a `delimiter` line. Found here, not by
    /// a reader: an unclosed block gets its own message, and the body is
    /// borrowed from the source.
    fn find(text: &'t str, delimiter: &str, format: &str) -> Result<Block<'t>, ParseError> {
        let from = text.find('\n').map_or(text.len(), |i| i + 1);
        let mut offset = from;
        for line in text[from..].split_inclusive('\n') {
            if line.trim_end() == delimiter {
                return Ok(Block {
                    head: &text[..offset],
                    from,
                    body: &text[offset + line.len()..],
                });
            }
            offset += line.len();
        }
        Err(syntax(
            Some(1),
            &format!("the {format} front matter opened here is never closed"),
            &format!("add a line `{delimiter}` after the last field"),
        ))
    }

    /// The fields as gray_matter handed them to its readers, trimmed, for
    /// every front matter to read as it did; and where they start in `head`.
    fn fields(&self) -> (&'t str, usize) {
        let fields = &self.head[self.from..];
        let trimmed = fields.trim_start();
        (trimmed.trim_end(), self.from + fields.len() - trimmed.len())
    }
}

fn read_yaml(block: &Block<'_>) -> Result<Read, ParseError> {
    let (fields, at) = block.fields();
    let line_start = block.head[..at].rfind('\n').map_or(0, |i| i + 1);
    let start = yaml::Start {
        line: line_at(block.head, at),
        column: block.head[line_start..at].chars().count(),
    };
    let problem = |problem| match problem {
        yaml::Problem::Syntax {
            line,
            column,
            message,
        } => syntax(
            Some(line),
            &format!("the YAML front matter does not parse: {message} (column {column})"),
            YAML_HELP,
        ),
        yaml::Problem::Repeated(repeated) => written_twice(&repeated),
        yaml::Problem::Aliases { line, alias } => syntax(
            Some(line),
            &format!(
                "its YAML aliases would have the reader copy more than {} MiB (`*{alias}` goes over): it copies an anchored value for each alias",
                yaml::MAX_ALIAS_EXPANSION >> 20
            ),
            "write the values out, or repeat them through fewer aliases (`&name` marks a value, `*name` repeats it)",
        ),
        yaml::Problem::Anchors { line } => syntax(
            Some(line),
            &format!(
                "its YAML anchors would have the reader copy more than {} MiB (the value anchored here goes over): it keeps a copy of each anchored value, for its aliases",
                yaml::MAX_ALIAS_EXPANSION >> 20
            ),
            "anchor (`&name`) only the values an alias (`*name`) repeats",
        ),
        yaml::Problem::TooDeep { line } => syntax(
            Some(line),
            &format!(
                "the YAML front matter nests lists and tables more than {} deep",
                yaml::MAX_DEPTH
            ),
            "write the values with fewer levels",
        ),
    };
    yaml::read(fields, start).map_err(problem)
}

fn read_toml(block: &Block<'_>) -> Result<Read, ParseError> {
    let (fields, at) = block.fields();
    // gray_matter read no TOML from blank fields: no table.
    if fields.is_empty() {
        return Ok((Value::Null, Vec::new()));
    }
    let lines = LineStarts::of(block.head);
    let line = |offset: usize| lines.line(at + offset);
    let problem = |e: toml::de::Error| {
        let span = e.span();
        if e.message() == "duplicate key"
            && let Some(repeated) = span
                .clone()
                .and_then(|span| first_of_repeated(fields, span))
        {
            return written_twice(&Repeated {
                first: line(repeated.first),
                second: line(repeated.second),
                ..repeated
            });
        }
        let message = format!(
            "the TOML front matter does not parse: {}",
            e.message().trim()
        );
        syntax(span.map(|span| line(span.start)), &message, TOML_HELP)
    };
    let table = DeTable::parse(fields).map_err(problem)?;
    let mut map = Map::new();
    let mut named = Vec::new();
    for (key, value) in table.into_inner() {
        let key_line = line(key.span().start);
        let value = toml::Value::deserialize(ValueDeserializer::from(value)).map_err(problem)?;
        let name = key.into_inner().into_owned();
        named.push((name.clone(), key_line));
        map.insert(name, toml_json(value));
    }
    Ok((Value::Object(map), named))
}

/// The key toml says is written twice, at `span` of `toml`: its name, the
/// keys of its table, and where each one is (offsets, in `first` and
/// `second`). toml's error points at the second alone; the text is read
/// again with that one renamed, which puts the new name in the table both
/// belong to, beside the first.
fn first_of_repeated(toml: &str, span: Range<usize>) -> Option<Repeated> {
    let written = toml.get(span.clone())?;
    // A quoted key is read as TOML reads it.
    let name = match DeValue::parse(written).map(Spanned::into_inner) {
        Ok(DeValue::String(name)) => name.into_owned(),
        _ => written.to_owned(),
    };
    let mut renamed = String::from("folio-renamed-key");
    while toml.contains(&renamed) {
        renamed.push('-');
    }
    let text = format!("{}{renamed}{}", &toml[..span.start], &toml[span.end..]);
    let (root, _) = DeTable::parse_recoverable(&text);
    let mut table = Vec::new();
    let holder = holding(root.get_ref(), &renamed, &mut table)?;
    let first = holder
        .keys()
        .find(|key| key.get_ref() == &name && key.span().start < span.start)?;
    Some(Repeated {
        key: name,
        table,
        first: first.span().start,
        second: span.start,
    })
}

/// The table (at any depth, in arrays too) that holds `key`, with the keys
/// leading to it added to `path`.
fn holding<'a, 't>(
    table: &'a DeTable<'t>,
    key: &str,
    path: &mut Vec<String>,
) -> Option<&'a DeTable<'t>> {
    if table.keys().any(|name| name.get_ref() == key) {
        return Some(table);
    }
    for (name, value) in table {
        path.push(name.get_ref().to_string());
        if let Some(found) = holding_in(value.get_ref(), key, path) {
            return Some(found);
        }
        path.pop();
    }
    None
}

fn holding_in<'a, 't>(
    value: &'a DeValue<'t>,
    key: &str,
    path: &mut Vec<String>,
) -> Option<&'a DeTable<'t>> {
    match value {
        DeValue::Table(table) => holding(table, key, path),
        DeValue::Array(items) => items
            .iter()
            .find_map(|item| holding_in(item.get_ref(), key, path)),
        _ => None,
    }
}

/// A TOML value as JSON, as gray_matter gave it.
fn toml_json(value: toml::Value) -> Value {
    match value {
        toml::Value::String(text) => Value::String(text),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(datetime) => Value::String(datetime_text(&datetime)),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(toml_json).collect()),
        toml::Value::Table(table) => Value::Object(
            table
                .into_iter()
                .map(|(key, value)| (key, toml_json(value)))
                .collect(),
        ),
    }
}

/// A TOML date-time as gray_matter's toml wrote it: the seconds always, a
/// fraction only when not zero. (toml 1 leaves out seconds not written and
/// keeps a zero fraction: the same value would reach templates as other
/// text.)
fn datetime_text(datetime: &toml::value::Datetime) -> String {
    use std::fmt::Write as _;
    let mut text = String::new();
    // Writing to a String cannot fail.
    if let Some(date) = &datetime.date {
        let _ = write!(text, "{date}");
    }
    if let Some(time) = &datetime.time {
        if datetime.date.is_some() {
            text.push('T');
        }
        let second = time.second.unwrap_or(0);
        let _ = write!(text, "{:02}:{:02}:{second:02}", time.hour, time.minute);
        if let Some(nanosecond) = time.nanosecond.filter(|&n| n != 0) {
            let digits = format!("{nanosecond:09}");
            let _ = write!(text, ".{}", digits.trim_end_matches('0'));
        }
    }
    if let Some(offset) = &datetime.offset {
        let _ = write!(text, "{offset}");
    }
    text
}

/// JSON front matter: the object `text` starts with, and where it ends.
fn read_json(text: &str) -> Result<(Read, usize), ParseError> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let value = match stream.next() {
        Some(Ok(value)) => value,
        Some(Err(e)) => {
            // serde_json's message ends with where, which it also gives.
            let message = e.to_string();
            let place = format!(" at line {} column {}", e.line(), e.column());
            let what = message.strip_suffix(&place).unwrap_or(&message);
            return Err(syntax(
                Some(e.line()),
                &format!(
                    "the JSON front matter does not parse: {what} (column {})",
                    e.column()
                ),
                JSON_HELP,
            ));
        }
        // Not an object: the caller says there is no front matter.
        None => Value::Null,
    };
    let end = stream.byte_offset();
    let lines = json_lines(&text[..end])?;
    Ok(((value, lines), end))
}

/// The line of each top-level key of `object`, a JSON object serde_json has
/// read; a key written twice is refused (serde_json keeps the last, where
/// the YAML and TOML readers refuse).
fn json_lines(object: &str) -> Result<Vec<(String, usize)>, ParseError> {
    /// The fields of an object as written: each name and its value's text,
    /// borrowed from the source.
    struct Written<'t>(Vec<(String, &'t RawValue)>);
    impl<'de> serde::Deserialize<'de> for Written<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_map(WrittenVisitor)
        }
    }
    struct WrittenVisitor;
    impl<'de> serde::de::Visitor<'de> for WrittenVisitor {
        type Value = Written<'de>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(
            self,
            mut map: A,
        ) -> Result<Written<'de>, A::Error> {
            let mut fields = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                fields.push((key, map.next_value::<&'de RawValue>()?));
            }
            Ok(Written(fields))
        }
    }
    let Ok(Written(fields)) = serde_json::from_str::<Written<'_>>(object) else {
        return Ok(Vec::new());
    };
    let lines = LineStarts::of(object);
    let mut named: Vec<(String, usize)> = Vec::with_capacity(fields.len());
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(fields.len());
    for (key, value) in &fields {
        // A value's text is a slice of the object: its place is where its
        // pointer is. Its key ends on the line of the last character before
        // the colon, as a JSON string holds no line break.
        let at = value.get().as_ptr() as usize - object.as_ptr() as usize;
        let before = object[..at].trim_end().strip_suffix(':').unwrap_or("");
        let line = lines.line(before.trim_end().len().saturating_sub(1));
        if let Some(&first) = seen.get(key.as_str()) {
            return Err(written_twice(&Repeated {
                key: key.clone(),
                table: Vec::new(),
                first,
                second: line,
            }));
        }
        seen.insert(key, line);
        named.push((key.clone(), line));
    }
    Ok(named)
}

/// The error for a key written twice, on the second one's line.
fn written_twice(repeated: &Repeated) -> ParseError {
    let Repeated {
        key,
        table,
        first,
        second,
    } = repeated;
    let within = if table.is_empty() {
        String::new()
    } else {
        format!(" in `{}`", table.join("."))
    };
    let on = if first == second {
        format!(", on line {second}")
    } else {
        format!(", on lines {first} and {second}")
    };
    syntax(
        Some(*second),
        &format!("`{key}` is written twice{within}{on}"),
        &format!("keep one `{key}`: the front matter cannot say which one is meant"),
    )
}

/// Where the lines of a text start, to tell the line of many places in it
/// without counting from the start for each.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn of(text: &str) -> LineStarts {
        LineStarts(memchr::memchr_iter(b'\n', text.as_bytes()).collect())
    }

    /// The 1-based line of the byte at `at`.
    fn line(&self, at: usize) -> usize {
        self.0.partition_point(|&end| end < at) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::error::ProblemKind;
    use crate::source::parse::tests::{field_error, run};

    /// Each top-level field's line, by name.
    fn lines(text: &str) -> Vec<(String, usize)> {
        let mut lines = split(text).unwrap().lines;
        lines.sort();
        lines
    }

    /// The line and message of a front matter refused.
    #[track_caller]
    fn refused(text: &str) -> (Option<usize>, String) {
        match split(text) {
            Err((line, ProblemKind::Syntax { message, .. })) => (line, message),
            Err(other) => panic!("{other:?}"),
            Ok(front) => panic!("read, with fields {:?}", front.lines),
        }
    }

    fn named(pairs: &[(&str, usize)]) -> Vec<(String, usize)> {
        let mut named: Vec<_> = pairs.iter().map(|&(k, l)| (k.to_owned(), l)).collect();
        named.sort();
        named
    }

    #[test]
    fn each_top_level_key_has_its_line_in_yaml_toml_and_json() {
        let yaml = "---\ntitle: x\nextra:\n  title: nested\n  more: [a, b]\n\"date\": 2024-01-01\n---\nBody.\n";
        assert_eq!(
            lines(yaml),
            named(&[("date", 6), ("extra", 3), ("title", 2)])
        );
        let toml = "+++\ntitle = \"x\"\n\"date\" = 2024-01-01\n[extra]\ntitle = \"nested\"\n[taxonomies]\ntags = [\"a\"]\n+++\n";
        assert_eq!(
            lines(toml),
            named(&[("date", 3), ("extra", 4), ("taxonomies", 6), ("title", 2)])
        );
        let json = "{\n  \"title\": \"x\",\n  \"extra\": {\"title\": \"nested\"}, \"date\":\n    \"2024-01-01\"\n}\nBody.\n";
        assert_eq!(
            lines(json),
            named(&[("date", 3), ("extra", 3), ("title", 2)])
        );
    }

    #[test]
    fn blank_lines_before_the_fields_leave_every_line_right() {
        let yaml = "---\n\n\ntitle: x\ndate: 2024-01-01\n---\n";
        assert_eq!(lines(yaml), named(&[("date", 5), ("title", 4)]));
        let toml = "+++\n\n  \ntitle = \"x\"\ndate = 2024-01-01\n+++\n";
        assert_eq!(lines(toml), named(&[("date", 5), ("title", 4)]));
        // And the problems'.
        assert_eq!(refused("---\n\n\ntitle: x\ntitle: y\n---\n").0, Some(5));
        assert_eq!(refused("+++\n\n\ntitle = \"x\"\ndate =\n+++\n").0, Some(5));
        let (line, message) = refused("---\n\n  title: [x\n---\n");
        assert_eq!(line, Some(4), "{message}");
    }

    #[test]
    fn a_key_written_twice_is_an_error_naming_both_lines() {
        let (line, message) =
            refused("---\ntitle: x\ntype: posts\ndate: 2024-01-01\ntype: advisory\n---\n");
        assert_eq!(line, Some(5));
        assert_eq!(message, "`type` is written twice, on lines 3 and 5");
        let (line, message) =
            refused("+++\ntitle = \"x\"\ndate = 2024-01-01\ntitle = \"y\"\n+++\n");
        assert_eq!(line, Some(4));
        assert_eq!(message, "`title` is written twice, on lines 2 and 4");
        let (line, message) =
            refused("{\n  \"title\": \"x\",\n  \"date\": \"2024-01-01\",\n  \"title\": \"y\"\n}\n");
        assert_eq!(line, Some(4));
        assert_eq!(message, "`title` is written twice, on lines 2 and 4");
        // A table written twice in TOML is a key written twice.
        let (line, message) = refused("+++\ntitle = \"x\"\n[extra]\na = 1\n[extra]\nb = 2\n+++\n");
        assert_eq!(
            (line, message.as_str()),
            (Some(5), "`extra` is written twice, on lines 3 and 5")
        );
        // Keys of one name in two tables are no repetition.
        assert!(split("---\na:\n  k: 1\nb:\n  k: 2\n---\n").is_ok());
        assert!(split("+++\n[a]\nk = 1\n[b]\nk = 2\n+++\n").is_ok());
        assert!(split("+++\n[[a]]\nk = 1\n[[a]]\nk = 2\n+++\n").is_ok());
    }

    #[test]
    fn a_key_written_twice_two_levels_down_names_its_tables_and_both_lines() {
        let yaml =
            "---\ntitle: x\nextra:\n  seo:\n    image: a.png\n    alt: A\n    image: b.png\n---\n";
        let (line, message) = refused(yaml);
        assert_eq!(line, Some(7));
        assert_eq!(
            message,
            "`image` is written twice in `extra.seo`, on lines 5 and 7"
        );
        // Through a list: the list's key names it.
        let (line, message) = refused("---\nauthors:\n  - name: A\n    name: B\n---\n");
        assert_eq!(
            (line, message.as_str()),
            (
                Some(4),
                "`name` is written twice in `authors`, on lines 3 and 4"
            )
        );
        let toml = "+++\ntitle = \"x\"\n[extra.seo]\nimage = \"a.png\"\nalt = \"A\"\nimage = \"b.png\"\n+++\n";
        let (line, message) = refused(toml);
        assert_eq!(line, Some(6));
        assert_eq!(
            message,
            "`image` is written twice in `extra.seo`, on lines 4 and 6"
        );
        // Dotted keys, and a second table of the same name in an array.
        let dotted = "+++\nextra.seo.image = \"a\"\nextra.other.image = \"b\"\nextra.seo.\"image\" = \"c\"\n+++\n";
        let (line, message) = refused(dotted);
        assert_eq!(
            (line, message.as_str()),
            (
                Some(4),
                "`image` is written twice in `extra.seo`, on lines 2 and 4"
            )
        );
        let array =
            "+++\n[[authors]]\nname = \"A\"\n[[authors]]\nname = \"B\"\nname = \"C\"\n+++\n";
        let (line, message) = refused(array);
        assert_eq!(
            (line, message.as_str()),
            (
                Some(6),
                "`name` is written twice in `authors`, on lines 5 and 6"
            )
        );
    }

    #[test]
    fn syntax_errors_say_where_the_reader_stopped() {
        let (line, message) =
            refused("---\ntitle: x\ndate: 2024-01-01\nsummary: \"C:\\xyz\"\n---\n");
        assert_eq!(line, Some(4));
        assert_eq!(
            message,
            "the YAML front matter does not parse: while parsing a quoted scalar, did not find expected hexadecimal number (column 10)"
        );
        // The column counts what the reader was not given: the indent of
        // the first line.
        let (line, message) = refused("---\n   title: x: y\n---\n");
        assert_eq!(line, Some(2));
        assert!(message.ends_with("(column 12)"), "{message}");
        let (line, message) =
            refused("+++\ntitle = \"x\"\ndate = 2024-01-01\nsummary = unquoted\n+++\n");
        assert_eq!(line, Some(4));
        assert!(
            message
                .starts_with("the TOML front matter does not parse: string values must be quoted"),
            "{message}"
        );
        // A value toml reads but cannot hold.
        let (line, message) = refused("+++\ntitle = \"x\"\nbig = 99999999999999999999\n+++\n");
        assert_eq!(line, Some(3), "{message}");
        let (line, message) = refused("{\n  \"title\": \"x\",\n  \"date\": ,\n}\n");
        assert_eq!(line, Some(3));
        assert_eq!(
            message,
            "the JSON front matter does not parse: expected value (column 11)"
        );
    }

    #[test]
    fn unclosed_front_matter_and_what_is_no_table_are_errors() {
        assert_eq!(refused("---\ntitle: x\n").0, Some(1));
        assert_eq!(refused("+++\ntitle = \"x\"\n").0, Some(1));
        assert_eq!(refused("no front matter").0, Some(1));
        assert_eq!(refused("---\njust a sentence\n---\n").0, Some(2));
        // Blank fields are no table, in either format.
        assert_eq!(refused("---\n\n---\n").0, Some(2));
        assert_eq!(refused("+++\n  \n+++\n").0, Some(2));
        assert!(matches!(
            split("  \n"),
            Err((None, ProblemKind::Syntax { .. }))
        ));
    }

    #[test]
    fn values_read_as_gray_matter_read_them() {
        let yaml = "---\n1: one\ntrue: yes\n~: nothing\n0x10: hex\ninf: .inf\nbig: 1e999\nint: !!int 12\nbad: !!int twelve\nfloat: !!float 1\nquoted: '12'\nlisted: [1, 1.5, true, ~]\n? [a, b]\n: dropped\n---\n";
        let map = split(yaml).unwrap().map;
        assert_eq!(
            Value::Object(map),
            serde_json::json!({
                "1": "one", "true": "yes", "null": "nothing", "16": "hex", "inf": 0.0,
                "big": null, "int": 12, "bad": null, "float": 1.0, "quoted": "12",
                "listed": [1, 1.5, true, null]
            })
        );
        let toml = "+++\nat = 2024-05-01T09:00:00.000Z\nshort = 2024-05-01T09:00+02:00\nfine = 1979-05-27T00:32:00.999999-07:00\nday = 2024-05-01\ntime = 07:32:00\n+++\n";
        let map = split(toml).unwrap().map;
        assert_eq!(
            Value::Object(map),
            serde_json::json!({
                "at": "2024-05-01T09:00:00Z", "short": "2024-05-01T09:00:00+02:00",
                "fine": "1979-05-27T00:32:00.999999-07:00", "day": "2024-05-01", "time": "07:32:00"
            })
        );
    }

    #[test]
    fn aliases_that_would_copy_too_much_are_refused_at_the_alias_that_goes_over() {
        // Real front matter: a few aliases, and text that looks like one.
        let fine = "---\ntitle: x\nauthor: &me Ada\nreviewers: [*me, Grace, *me]\nnote: '*me* & *you*'\neditor: &me Grace\nlast: *me\n---\n";
        let map = split(fine).unwrap().map;
        assert_eq!(map["reviewers"], serde_json::json!(["Ada", "Grace", "Ada"]));
        assert_eq!(map["last"], "Grace");
        // Nine times nine… of 40 bytes: each level copies nine of the one
        // before; the fifth level's first alias goes over.
        let mut bomb =
            String::from("---\na0: &a0 [\"0123456789012345678901234567890123456789\"]\n");
        for level in 1..10 {
            let alias = format!("*a{}", level - 1);
            let items = [alias.as_str(); 9].join(", ");
            bomb.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        bomb.push_str("---\n");
        let (line, message) = refused(&bomb);
        assert_eq!(line, Some(7), "{message}");
        assert!(message.contains("(`*a4` goes over)"), "{message}");
        // Empty values count too.
        let mut empty = String::from("---\na0: &a0 [~, ~, ~, ~, ~, ~, ~, ~, ~]\n");
        for level in 1..10 {
            let items = [format!("*a{}", level - 1).as_str(); 9].join(", ");
            empty.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        empty.push_str("---\n");
        assert!(refused(&empty).1.contains("goes over"));
        // One big value repeated often enough goes over too, and one fewer
        // time does not.
        // (Its name is read where the alias is, past letters of two bytes.)
        let big = |times: usize| {
            format!(
                "---\ntitre: Été\na: &big '{}'\nb: [{}]\n---\n",
                "é".repeat(50_000),
                ["*big"; 20][..times].join(", ")
            )
        };
        assert!(split(&big(10)).is_ok());
        let (line, message) = refused(&big(11));
        assert_eq!(line, Some(4));
        assert!(message.contains("(`*big` goes over)"), "{message}");
        // What is anchored is kept in a copy: anchors nested in anchors count.
        let mut nested = String::from("---\nv: ");
        for level in 0..12 {
            nested.push_str(&format!("&n{level} ["));
        }
        nested.push_str(&format!("'{}'", "x".repeat(100_000)));
        nested.push_str(&"]".repeat(12));
        nested.push_str("\n---\n");
        let (line, message) = refused(&nested);
        assert_eq!(line, Some(2));
        assert!(
            message.contains("the value anchored here goes over"),
            "{message}"
        );
    }

    #[test]
    fn values_nested_deeper_than_any_reader_recurses_are_refused() {
        let deep = |levels: usize| format!("---\ntitle: x\nlist:\n{}a\n---\n", "- ".repeat(levels));
        assert!(split(&deep(yaml::MAX_DEPTH - 1)).is_ok());
        let (line, message) = refused(&deep(10_000));
        assert_eq!(line, Some(4));
        assert_eq!(
            message,
            "the YAML front matter nests lists and tables more than 256 deep"
        );
        // Through aliases as well.
        let half = yaml::MAX_DEPTH / 2 + 1;
        let text = format!(
            "---\na: &a {}x{}\nb: {}*a{}\n---\n",
            "[".repeat(half),
            "]".repeat(half),
            "[".repeat(half),
            "]".repeat(half)
        );
        assert_eq!(refused(&text).0, Some(3));
    }

    #[test]
    fn crlf_line_ends_keep_the_lines() {
        let text = "---\r\ntitle: x\r\ndate: 2024-01-01\r\ndraft: maybe\r\n---\r\nBody.\r\n";
        let (line, field, _) = field_error(run("en/posts/x.md", text));
        assert_eq!((line, field.as_str()), (Some(4), "draft"));
        let text = "+++\r\ntitle = \"x\"\r\n\r\ndate = 2024-01-01\r\ntitle = \"y\"\r\n+++\r\n";
        match run("en/posts/x.md", text) {
            Err((Some(5), ProblemKind::Syntax { message, .. })) => {
                assert_eq!(message, "`title` is written twice, on lines 2 and 5");
            }
            other => panic!("{other:?}"),
        }
        let bytes = b"\xef\xbb\xbf---\r\ntitle: x\r\ntemplate: wide.html\r\n---\r\n";
        assert_eq!(crate::source::parse::field_line(bytes, "template"), Some(3));
    }
}
