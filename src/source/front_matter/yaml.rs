//! YAML front matter, read from yaml-rust2's events with where each one is:
//! the values gray_matter gave (yaml-rust2's loader, then its conversion), the
//! line of every key, both lines of a key written twice at any depth, and a
//! bound on what anchors and aliases make the reader copy and on how deep
//! values nest, counted before anything is copied.

use rustc_hash::FxHashMap;
use serde_json::{Map, Value};
use yaml_rust2::parser::{Event, Parser, Tag};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::yaml::{Hash, Yaml};

use super::{Read, Repeated};

/// The most bytes that aliases may make the reader copy, and the most it may
/// keep in copies of anchored values: it copies an anchored value for each
/// alias, so that a few lines of aliases of aliases (the "billion laughs")
/// would take more memory than a machine has; and it keeps a copy of each
/// anchored value, so that values anchored within anchored values would
/// too.
pub(crate) const MAX_ALIAS_EXPANSION: usize = 1 << 20;

/// What a value counts for beside its text: what a `serde_json::Value`
/// takes, so that empty values repeated count too. Fixed, so that the same
/// front matter is refused on every machine.
const VALUE_BYTES: usize = 32;

/// How deep lists and tables may nest: every reader of the values (their
/// conversion, the templates, the JSON of the record) goes down them by
/// recursion. Above the 255 levels yaml-rust2 allows within brackets, so
/// only indented lists and tables (or aliases) reach it.
pub(crate) const MAX_DEPTH: usize = 256;

/// What is wrong with a YAML text, with lines and columns in the file.
#[derive(Debug)]
pub(crate) enum Problem {
    /// The reader's own message.
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// A key written twice in one table.
    Repeated(Repeated),
    /// The alias `*name` on `line` takes what the reader copies over
    /// [`MAX_ALIAS_EXPANSION`].
    Aliases { line: usize, alias: String },
    /// The value anchored on `line` takes the copies the reader keeps over
    /// [`MAX_ALIAS_EXPANSION`].
    Anchors { line: usize },
    /// Nested more than [`MAX_DEPTH`] deep, on `line`.
    TooDeep { line: usize },
}

/// Where a YAML text starts in its file: the line of its first line, and
/// how many characters of that line come before it.
#[derive(Clone, Copy)]
pub(crate) struct Start {
    pub(crate) line: usize,
    pub(crate) column: usize,
}

/// Reads `yaml`, which starts at `start` in its file: its first document as
/// JSON values, and the line of each top-level key.
pub(crate) fn read(yaml: &str, start: Start) -> Result<Read, Problem> {
    let mut parser = Parser::new_from_str(yaml);
    let mut reader = Reader::default();
    let newlines = Newlines::of(yaml);
    let line = |mark: Marker| start.line + newlines.before(mark.line());
    loop {
        let (event, mark) = parser.next_token().map_err(|e| {
            let mark = *e.marker();
            let shift = if mark.line() == 1 { start.column } else { 0 };
            Problem::Syntax {
                line: line(mark),
                // As yaml-rust2 writes it in its own messages.
                column: mark.col() + 1 + shift,
                message: e.info().to_owned(),
            }
        })?;
        if event == Event::StreamEnd {
            break;
        }
        reader.budget.count(&event).map_err(|over| match over {
            Over::Depth => Problem::TooDeep { line: line(mark) },
            Over::Aliases => Problem::Aliases {
                line: line(mark),
                alias: alias_at(yaml, mark),
            },
            Over::Anchors => Problem::Anchors { line: line(mark) },
        })?;
        reader.on(event, line(mark)).map_err(Problem::Repeated)?;
    }
    Ok(reader.into_read())
}

/// Whether the anchors, aliases and nesting of `yaml` stay within the
/// bounds a build sets, up to its first syntax error: for a reader that
/// copies aliases and recurses as it goes (gray_matter's, in `folio import`)
/// to be handed only what a build would read.
pub(crate) fn fits(yaml: &str) -> bool {
    let mut parser = Parser::new_from_str(yaml);
    let mut budget = Budget::default();
    while let Ok((event, _)) = parser.next_token() {
        if event == Event::StreamEnd {
            return true;
        }
        if budget.count(&event).is_err() {
            return false;
        }
    }
    true
}

/// The name of the alias at `mark`: the parser gives an alias's anchor by
/// number, and a message names it as written.
fn alias_at(yaml: &str, mark: Marker) -> String {
    // The marker counts characters.
    let at = yaml
        .char_indices()
        .nth(mark.index())
        .map_or(yaml.len(), |(at, _)| at);
    let name = yaml[at..].strip_prefix('*').unwrap_or_default();
    let end = name
        .find(|c: char| c.is_whitespace() || ",[]{}".contains(c))
        .unwrap_or(name.len());
    name[..end].to_owned()
}

/// How many `\n` come before each of the reader's lines. yaml-rust2 takes a
/// `\r` alone for a line break; a file's lines are counted by `\n` (as in
/// every other message), and a `\r` left in a source's text is alone.
enum Newlines {
    /// No `\r`: the reader's lines are the file's.
    Same,
    /// By the reader's line, from the first.
    Counted(Vec<usize>),
}

impl Newlines {
    fn of(yaml: &str) -> Newlines {
        let bytes = yaml.as_bytes();
        if memchr::memchr(b'\r', bytes).is_none() {
            return Newlines::Same;
        }
        let mut before = vec![0];
        let mut newlines = 0;
        for (at, &byte) in bytes.iter().enumerate() {
            if byte == b'\n' {
                newlines += 1;
                before.push(newlines);
            } else if byte == b'\r' && bytes.get(at + 1) != Some(&b'\n') {
                before.push(newlines);
            }
        }
        Newlines::Counted(before)
    }

    /// The `\n` before the reader's (1-based) `line`; one past its last
    /// line (where it reports the end of the text) is one more.
    fn before(&self, line: usize) -> usize {
        let index = line.saturating_sub(1);
        match self {
            Newlines::Same => index,
            Newlines::Counted(before) => match before.get(index) {
                Some(&newlines) => newlines,
                None => before.last().copied().unwrap_or(0) + index + 1 - before.len(),
            },
        }
    }
}

/// Builds the values from the events as yaml-rust2's loader does, keeping
/// the line of every key.
#[derive(Default)]
struct Reader {
    open: Vec<Open>,
    /// A copy of each anchored value, by the number the parser gave it.
    anchored: FxHashMap<usize, Yaml>,
    /// The first document's value and the lines of its top-level keys.
    first: Option<(Yaml, Vec<usize>)>,
    documents: usize,
    budget: Budget,
}

/// A list or table being read, and the anchor it will be known by (0: none).
enum Open {
    List(Vec<Yaml>, usize),
    Table(Table, usize),
}

/// A table being read: its entries, the line of each key (in the order
/// written), and the key whose value comes next.
#[derive(Default)]
struct Table {
    entries: Hash,
    lines: Vec<usize>,
    key: Option<(Yaml, usize)>,
}

impl Reader {
    /// Takes one event that is on `line`.
    fn on(&mut self, event: Event, line: usize) -> Result<(), Repeated> {
        match event {
            Event::SequenceStart(anchor, _) => self.open.push(Open::List(Vec::new(), anchor)),
            Event::MappingStart(anchor, _) => {
                self.open.push(Open::Table(Table::default(), anchor));
            }
            Event::SequenceEnd | Event::MappingEnd => match self.open.pop() {
                Some(Open::List(items, anchor)) => self.place(Yaml::Array(items), anchor, line)?,
                Some(Open::Table(table, anchor)) => {
                    if self.open.is_empty() && self.first.is_none() && self.documents == 0 {
                        self.first = Some((Yaml::Hash(table.entries), table.lines));
                    } else {
                        self.place(Yaml::Hash(table.entries), anchor, line)?;
                    }
                }
                None => {}
            },
            Event::Scalar(text, style, anchor, tag) => {
                self.place(scalar(text, style, tag), anchor, line)?;
            }
            Event::Alias(id) => {
                // An alias of a value still being read is nothing, as the
                // loader has it.
                let value = self.anchored.get(&id).cloned();
                self.place(value.unwrap_or(Yaml::BadValue), 0, line)?;
            }
            Event::DocumentEnd => self.documents += 1,
            _ => {}
        }
        Ok(())
    }

    /// Puts a value read, whose last event is on `line`, where it goes: in
    /// the list or table open, or as the document.
    fn place(&mut self, value: Yaml, anchor: usize, line: usize) -> Result<(), Repeated> {
        if anchor > 0 {
            self.anchored.insert(anchor, value.clone());
        }
        let depth = self.open.len();
        let Some(open) = self.open.last_mut() else {
            if self.first.is_none() && self.documents == 0 {
                self.first = Some((value, Vec::new()));
            }
            return Ok(());
        };
        let table = match open {
            Open::List(items, _) => {
                items.push(value);
                return Ok(());
            }
            Open::Table(table, _) => table,
        };
        let Some((key, key_line)) = table.key.take() else {
            table.key = Some((value, line));
            return Ok(());
        };
        if table.entries.contains_key(&key) {
            let at = table.entries.keys().position(|k| *k == key).unwrap_or(0);
            let first = table.lines[at];
            return Err(Repeated {
                key: key_name(key.clone()).unwrap_or_else(|| format!("{key:?}")),
                table: self.open[..depth - 1]
                    .iter()
                    .filter_map(|open| match open {
                        Open::Table(table, _) => table.key.clone().and_then(|(k, _)| key_name(k)),
                        Open::List(..) => None,
                    })
                    .collect(),
                first,
                second: key_line,
            });
        }
        table.entries.insert(key, value);
        table.lines.push(key_line);
        Ok(())
    }

    fn into_read(self) -> Read {
        let Some((value, lines)) = self.first else {
            return (Value::Null, Vec::new());
        };
        let Yaml::Hash(entries) = value else {
            return (json(value), Vec::new());
        };
        let mut map = Map::new();
        let mut named = Vec::with_capacity(lines.len());
        for ((key, value), line) in entries.into_iter().zip(lines) {
            if let Some(name) = key_name(key) {
                named.push((name.clone(), line));
                map.insert(name, json(value));
            }
        }
        (Value::Object(map), named)
    }
}

/// A scalar as yaml-rust2's loader reads it: quoted, text; with a core tag
/// (`!!int`), of that type or nothing; with another tag, text; else
/// whatever it reads as.
fn scalar(text: String, style: TScalarStyle, tag: Option<Tag>) -> Yaml {
    if style != TScalarStyle::Plain {
        return Yaml::String(text);
    }
    let Some(tag) = tag else {
        return Yaml::from_str(&text);
    };
    if tag.handle != "tag:yaml.org,2002:" {
        return Yaml::String(text);
    }
    match tag.suffix.as_str() {
        "bool" => match text.as_str() {
            "true" | "True" | "TRUE" => Yaml::Boolean(true),
            "false" | "False" | "FALSE" => Yaml::Boolean(false),
            _ => Yaml::BadValue,
        },
        "int" => text.parse().map_or(Yaml::BadValue, Yaml::Integer),
        "float" => {
            let real = Yaml::Real(text);
            if real.as_f64().is_some() {
                real
            } else {
                Yaml::BadValue
            }
        }
        "null" => match text.as_str() {
            "~" | "null" => Yaml::Null,
            _ => Yaml::BadValue,
        },
        _ => Yaml::String(text),
    }
}

/// A key as gray_matter named it; a list or table as a key is dropped.
fn key_name(key: Yaml) -> Option<String> {
    match key {
        Yaml::String(text) | Yaml::Real(text) => Some(text),
        Yaml::Boolean(b) => Some(b.to_string()),
        Yaml::Integer(i) => Some(i.to_string()),
        Yaml::Null => Some("null".into()),
        _ => None,
    }
}

/// A value as gray_matter gave it: a real number as Rust reads its text
/// (`.inf` is 0), one JSON cannot hold (`1e999`) nothing.
fn json(value: Yaml) -> Value {
    match value {
        Yaml::Real(text) => Value::from(text.parse::<f64>().unwrap_or(0.0)),
        Yaml::Integer(i) => Value::from(i),
        Yaml::String(text) => Value::String(text),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(items) => Value::Array(items.into_iter().map(json).collect()),
        Yaml::Hash(entries) => Value::Object(
            entries
                .into_iter()
                .filter_map(|(key, value)| Some((key_name(key)?, json(value))))
                .collect(),
        ),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

/// What goes over a bound.
enum Over {
    Aliases,
    Anchors,
    Depth,
}

/// Counts, from the events alone, the bytes aliases make the reader copy,
/// those it keeps in copies of anchored values, and how deep values nest:
/// each value is its text and [`VALUE_BYTES`], a list or table what it
/// holds, an alias what its anchor holds.
#[derive(Default)]
struct Budget {
    /// Each list or table open: its size so far, the height of its deepest
    /// item, its anchor.
    open: Vec<Sized>,
    /// The size and height of each anchored value, by its number.
    anchored: FxHashMap<usize, (usize, usize)>,
    repeated: usize,
    kept: usize,
}

#[derive(Clone, Copy)]
struct Sized {
    size: usize,
    height: usize,
    anchor: usize,
}

impl Budget {
    fn count(&mut self, event: &Event) -> Result<(), Over> {
        match *event {
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                if self.open.len() >= MAX_DEPTH {
                    return Err(Over::Depth);
                }
                self.open.push(Sized {
                    size: VALUE_BYTES,
                    height: 0,
                    anchor,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(done) = self.open.pop() {
                    self.value(done.size, done.height + 1, done.anchor)?;
                }
            }
            Event::Scalar(ref text, _, anchor, _) => {
                self.value(VALUE_BYTES + text.len(), 0, anchor)?;
            }
            Event::Alias(id) => {
                let (size, height) = self.anchored.get(&id).copied().unwrap_or((VALUE_BYTES, 0));
                self.repeated = self.repeated.saturating_add(size);
                if self.repeated > MAX_ALIAS_EXPANSION {
                    return Err(Over::Aliases);
                }
                if self.open.len() + height > MAX_DEPTH {
                    return Err(Over::Depth);
                }
                self.value(size, height, 0)?;
            }
            _ => {}
        }
        Ok(())
    }

    /// A value read (or repeated) of `size` bytes and `height` levels.
    fn value(&mut self, size: usize, height: usize, anchor: usize) -> Result<(), Over> {
        if anchor > 0 {
            self.kept = self.kept.saturating_add(size);
            if self.kept > MAX_ALIAS_EXPANSION {
                return Err(Over::Anchors);
            }
            self.anchored.insert(anchor, (size, height));
        }
        if let Some(parent) = self.open.last_mut() {
            parent.size = parent.size.saturating_add(size);
            parent.height = parent.height.max(height);
        }
        Ok(())
    }
}
