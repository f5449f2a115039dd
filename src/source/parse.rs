//! A source's bytes → a [`Parsed`] document: its index row and where its
//! body starts; and, when its page renders, that body as HTML.
//!
//! Owns front matter (YAML `---` and TOML `+++` through gray_matter, Hugo-style
//! JSON objects), the fields and their types, dates and the site time zone,
//! slugs, and Markdown (pulldown-cmark with tables, footnotes, strikethrough,
//! task lists and heading anchors). Pure: no I/O, so it runs on any thread and
//! is tested without a disk.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt::Write as _;

use gray_matter::engine::{TOML, YAML};
use gray_matter::{Matter, Pod};
use jiff::civil;
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd, html};
use serde_json::{Map, Value};
use xxhash_rust::xxh3::xxh3_128;

use crate::model::doc::{Kind, Record, Source, SourceState, TemplateChoice};
use crate::model::error::ProblemKind;
use crate::model::id::{PostId, format_ms};
use crate::model::url::{
    MAX_SLUG_BYTES, collapse_slashes, encode_segment, fill_placeholders, heading_id,
    normalize_slug, tag_slug,
};
use crate::plugin::{Document, Phase, Plugins};
use crate::source::config::Config;

/// A freshly read source. Its body is rendered when its page renders, from
/// the source read again ([`body_html`]): holding every body from parse to
/// render was half a cold build's memory.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub record: Record,
    pub body: BodyAt,
    /// The date was written without an offset and read in the site time zone.
    pub date_is_local: bool,
    /// Where `date` is written, for errors about it.
    pub date_line: Option<usize>,
    /// The line of the `slug` field, when the front matter has one.
    pub slug_line: Option<usize>,
}

/// The fields folio reads: its own, then those of Jekyll, Hugo and Zola
/// that mean one of its own (the README has the table). Any other field is
/// kept for templates (`post.extra.<name>`), unless it is one typo away
/// from one of these.
pub(crate) const FIELDS: &[&str] = &[
    "title",
    "date",
    "slug",
    "tags",
    "draft",
    "description",
    "translation_key",
    "updated",
    "summary",
    "authors",
    "lang",
    "permalink",
    "aliases",
    "template",
    // Other generators' names for folio's fields.
    "lastmod",
    "last_modified_at",
    "excerpt",
    "categories",
    "category",
    "author",
    "published",
    "url",
    "redirect_from",
    "layout",
    // Zola's tables: `[taxonomies]` (tags and categories are tags, the
    // others are kept) and `[extra]` (kept).
    "taxonomies",
    "extra",
];

/// The fields that give `updated`, in the order they are looked for.
const UPDATED: &[&str] = &["updated", "lastmod", "last_modified_at"];

const MORE_MARKER: &str = "<!-- more -->";

/// Where a parsed source's body is, for its page to render it from the
/// source read again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyAt {
    /// Where the Markdown body starts in the source's text.
    pub start: usize,
    /// XXH3-128 of the bytes parsed: cheap next to SHA-256, and only ever
    /// compared within one build.
    check: u128,
}

impl BodyAt {
    /// Whether `bytes`, read again, are the ones parsed.
    pub fn holds(&self, bytes: &[u8]) -> bool {
        xxh3_128(bytes) == self.check
    }
}

/// A problem with a line in the source, where known.
pub type ParseError = (Option<usize>, ProblemKind);

/// Parses one source. `hash` is [`source_hash`] of `bytes`.
// The error is the rare path, built once per bad file: its size (a problem
// with every value its message names) costs nothing a box would save.
#[allow(clippy::result_large_err)]
pub fn parse(
    source: &Source,
    bytes: &[u8],
    hash: String,
    (config, plugins): (&Config, &Plugins),
) -> Result<Parsed, ParseError> {
    let text = source_text(bytes)?;
    let front = split_front_matter(&text)?;
    let fields = Fields::of(&front, &text);
    fields.no_typos()?;
    fields.same_language(source)?;

    let title = fields
        .string("title")?
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            fields.problem(
                "title",
                "is required".into(),
                "add `title: …` to the front matter".into(),
            )
        })?;
    let (file_date, file_slug) = split_date_prefix(&source.stem);
    let date_line = fields.line_of("date");
    let slug_line = fields.line_of("slug");
    let (published_at, date_is_local) = publication_date(&fields, source.kind, file_date, config)?;
    let updated_at = match UPDATED.iter().find(|field| fields.get(field).is_some()) {
        Some(field) => fields.date(field, config)?.map(|(ms, _)| ms),
        None => None,
    };
    let slug = slug_of(&fields, file_slug)?;
    let id_ms = if source.kind == Kind::Page {
        0
    } else {
        published_at
    };
    let id = fields.id(&slug, &source.lang, id_ms)?;
    let tags = fields.tags()?;
    let draft = fields.draft()?;
    let description = fields.string("description")?;
    let translation_key = fields
        .string("translation_key")?
        .unwrap_or_else(|| source.key.clone());

    let document = Document {
        source: &source.path,
        lang: &source.lang,
    };
    let (mut summary, touched_by) = summary_through(front.body, (plugins, &document))?;
    if let Some(written) = fields.written_summary()? {
        summary = written;
    }
    let body = BodyAt {
        // The body is always the end of the text.
        start: text.len() - front.body.len(),
        check: xxh3_128(bytes),
    };
    // A path written by hand is from the site's root, under its base path.
    let url = match fields.written_url()? {
        Some(url) => format!("{}{url}", config.base_path),
        None => document_url(config, source.kind, &source.lang, &source.key, &slug, id_ms),
    };
    Ok(Parsed {
        record: Record {
            id,
            kind: source.kind,
            slug,
            lang: source.lang.clone(),
            published_at: id_ms,
            updated_at,
            source: SourceState {
                path: source.path.clone(),
                hash,
                stat: source.stat,
            },
            title,
            url,
            summary,
            description,
            tags,
            draft,
            ever_published: !draft,
            translation_key,
            plugins: touched_by,
            extra: fields.extra()?,
            aliases: fields
                .aliases()?
                .into_iter()
                .map(|alias| format!("{}{alias}", config.base_path))
                .collect(),
            template: fields.template()?,
        },
        body,
        date_is_local,
        date_line,
        slug_line,
    })
}

/// A source's bytes as the text its front matter and body are read from:
/// UTF-8, without a byte-order mark, with `\n` line ends.
/// The date of a document: its `date` field, else the date its file name
/// starts with (midnight in the site time zone); a page may have none.
/// Whether it was read in the site time zone comes with it.
fn publication_date(
    fields: &Fields<'_>,
    kind: Kind,
    file_date: Option<civil::Date>,
    config: &Config,
) -> Result<(i64, bool), ParseError> {
    if let Some(date) = fields.date("date", config)? {
        return Ok(date);
    }
    match (kind, file_date) {
        (_, Some(date)) => Ok((
            config
                .timezone
                .to_timestamp(date.to_datetime(civil::Time::midnight()))
                .map_err(|_| {
                    let message = format!("the file name's date {date} is after 9999-12-30, the last date folio can read");
                    fields.problem("date", message, "rename the file with a date from 1970 to 9999, or set `date`".into())
                })?
                .as_millisecond(),
            true,
        )),
        (Kind::Page, None) => Ok((0, false)),
        (Kind::Post, None) => Err(fields.problem(
            "date",
            "is required for a post".into(),
            "add `date: 2024-05-01` (or a full RFC 3339 date-time), or start the file name with the date (`2024-05-01-name.md`)".into(),
        )),
    }
}

/// The `slug` field, else the file name without its date.
fn slug_of(fields: &Fields<'_>, file_slug: &str) -> Result<String, ParseError> {
    match fields.string("slug")? {
        Some(slug) => normalize_slug(&slug).map_err(|why| {
            let help = format!(
                "write a slug of letters, digits and dashes, of at most {MAX_SLUG_BYTES} bytes"
            );
            fields.problem("slug", why, help)
        }),
        None => normalize_slug(file_slug).map_err(|why| {
            (
                None,
                ProblemKind::Layout {
                    message: format!("the slug taken from the file name {why}"),
                    help: "rename the file, or set `slug` in the front matter".into(),
                },
            )
        }),
    }
}

fn source_text(bytes: &[u8]) -> Result<Cow<'_, str>, ParseError> {
    // Sources are mostly ASCII with accented runs, where the standard
    // library's check leaves its fast path; a SIMD check is several times
    // faster and reports the same position.
    let text = simdutf8::compat::from_utf8(bytes).map_err(|e| {
        let line = memchr::memchr_iter(b'\n', &bytes[..e.valid_up_to()]).count() + 1;
        syntax(
            Some(line),
            "the file is not valid UTF-8",
            "save the file as UTF-8",
        )
    })?;
    // A NUL byte is valid UTF-8 but never text: a binary file, or one saved
    // as UTF-16 without its byte-order mark, whose every other byte is NUL.
    if let Some(at) = memchr::memchr(0, text.as_bytes()) {
        return Err(syntax(
            Some(line_at(text, at)),
            "the file holds a NUL byte, which no text file does",
            "save the file as UTF-8 text (an editor saving UTF-16 writes a NUL beside every letter), or move a binary file out of content/",
        ));
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Every source is searched for a `\r` twice in a cold build; the
    // standard library's search was 3% of its instructions.
    Ok(if memchr::memchr(b'\r', text.as_bytes()).is_some() {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    })
}

/// The body of a source as HTML, through the site's transforms.
/// `body_start` is [`BodyAt::start`] when these bytes were parsed in this
/// build; without it the front matter is read again to find where the body
/// starts.
pub fn body_html(
    bytes: &[u8],
    body_start: Option<usize>,
    (plugins, document): (&Plugins, &Document<'_>),
) -> Result<String, ParseError> {
    let text = source_text(bytes)?;
    let body = match body_start {
        Some(start) => text
            .get(start..)
            .ok_or((None, ProblemKind::ChangedDuringBuild))?,
        None => split_front_matter(&text)?.body,
    };
    let mut touched_by = Vec::new();
    let markdown = transformed(
        body.into(),
        Phase::BeforeMarkdown,
        (plugins, document),
        &mut touched_by,
    )?;
    let html = render_body(&markdown);
    Ok(transformed(
        html.into(),
        Phase::AfterMarkdown,
        (plugins, document),
        &mut touched_by,
    )?
    .into_owned())
}

/// The summary of `body` through the transforms, and the stamps of those
/// that change the body (sorted): the whole body is rendered to tell only
/// when an HTML transform is there.
fn summary_through(
    body: &str,
    (plugins, document): (&Plugins, &Document<'_>),
) -> Result<(String, Vec<String>), ParseError> {
    let mut touched_by = Vec::new();
    let before = Phase::BeforeMarkdown;
    let markdown = transformed(body.into(), before, (plugins, document), &mut touched_by)?;
    let after = Phase::AfterMarkdown;
    let summary = summary_html(&markdown);
    let summary = transformed(summary.into(), after, (plugins, document), &mut touched_by)?;
    if plugins.transforms(after).next().is_some() {
        let body = render_body(&markdown);
        transformed(body.into(), after, (plugins, document), &mut touched_by)?;
    }
    touched_by.sort();
    touched_by.dedup();
    Ok((summary.into_owned(), touched_by))
}

/// `text` through the transforms of `phase`, in order, adding to
/// `touched_by` the stamp of each one that changed it. Without transforms
/// the text is not copied.
fn transformed<'t>(
    mut text: Cow<'t, str>,
    phase: Phase,
    (plugins, document): (&Plugins, &Document<'_>),
    touched_by: &mut Vec<String>,
) -> Result<Cow<'t, str>, ParseError> {
    for plugin in plugins.transforms(phase) {
        match plugin.transform(&text, document) {
            Ok(Some(changed)) if changed != *text => {
                touched_by.push(crate::plugin::stamp(plugin));
                text = Cow::Owned(changed);
            }
            Ok(_) => {}
            Err(error) => {
                let plugin = plugin.name().to_owned();
                let message = error.to_string();
                return Err((None, ProblemKind::Plugin { plugin, message }));
            }
        }
    }
    Ok(text)
}

/// The URL of a document, percent-encoded: posts by the site's permalink
/// pattern, pages at `<lang root><section>/<slug>/`.
pub fn document_url(
    config: &Config,
    kind: Kind,
    lang: &str,
    key: &str,
    slug: &str,
    published_ms: i64,
) -> String {
    let slug = encode_segment(slug);
    match kind {
        Kind::Post => {
            let at_root = lang == config.default_language && !config.default_language_in_subdir;
            let date = jiff::Timestamp::from_millisecond(published_ms)
                .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
                .to_zoned_datetime(config.timezone.clone());
            let mut url = String::with_capacity(config.permalink.len() + slug.len() + 32);
            url.push_str(&config.base_path);
            fill_placeholders(&config.permalink, &mut url, |field, url| {
                // Writing to a String cannot fail.
                let _ = match field {
                    "lang" if at_root => Ok(()),
                    "lang" => url.write_str(lang),
                    "year" => write!(url, "{:04}", date.year()),
                    "month" => write!(url, "{:02}", date.month()),
                    "day" => write!(url, "{:02}", date.day()),
                    "slug" => url.write_str(&slug),
                    // The post's folder under its language: `posts`, `blog`…
                    "section" => {
                        url.write_str(&encode_segment(key.split('/').next().unwrap_or("")))
                    }
                    _ => return false,
                };
                true
            });
            collapse_slashes(&url)
        }
        Kind::Page => {
            let mut url = config.language_root(lang);
            if let Some((section, _)) = key.rsplit_once('/') {
                for part in section.split('/') {
                    url.push_str(&encode_segment(part));
                    url.push('/');
                }
            }
            url.push_str(&slug);
            url.push('/');
            url
        }
    }
}

/// A long text as a message quotes it: its first 40 characters and `…`.
fn abridged(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(40) {
        Some((at, _)) => Cow::Owned(format!("{}…", &text[..at])),
        None => Cow::Borrowed(text),
    }
}

/// The 1-based line of the byte at `at`.
fn line_at(text: &str, at: usize) -> usize {
    memchr::memchr_iter(b'\n', &text.as_bytes()[..at]).count() + 1
}

fn syntax(line: Option<usize>, message: &str, help: &str) -> ParseError {
    (
        line,
        ProblemKind::Syntax {
            message: message.to_owned(),
            help: help.to_owned(),
        },
    )
}

struct FrontMatter<'a> {
    map: Map<String, Value>,
    body: &'a str,
    /// The lines the front matter occupies, 1-based, to find a field's line.
    first_line: usize,
    last_line: usize,
    /// Whether it is a JSON object, where a key need not start its line.
    json: bool,
}

/// The line of `field` in the front matter of `text`: for a problem found
/// after parsing, from the record alone (a template the theme lacks).
pub fn field_line(text: &str, field: &str) -> Option<usize> {
    let front = split_front_matter(text).ok()?;
    Fields::of(&front, text).line_of(field)
}

fn split_front_matter(text: &str) -> Result<FrontMatter<'_>, ParseError> {
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
fn json_key_lines(text: &str, key: &str) -> Vec<usize> {
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

/// Typed access to front matter fields, with errors that name the field and
/// its line.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    text: &'a str,
    first_line: usize,
    last_line: usize,
    json: bool,
}

impl<'a> Fields<'a> {
    fn of(front: &'a FrontMatter<'_>, text: &'a str) -> Fields<'a> {
        Fields {
            map: &front.map,
            text,
            first_line: front.first_line,
            last_line: front.last_line,
            json: front.json,
        }
    }

    /// No field is one typo away from one folio reads (`darft`, `tittle`,
    /// `tag`): that is a mistake, not a field of the author's own.
    fn no_typos(&self) -> Result<(), ParseError> {
        for key in self
            .map
            .keys()
            .filter(|key| !FIELDS.contains(&key.as_str()))
        {
            if let Some(meant) = FIELDS
                .iter()
                .find(|field| strsim::osa_distance(key, field) == 1)
            {
                return Err(self.problem(
                    key,
                    format!("is not a field folio reads; did you mean `{meant}`?"),
                    format!("rename it to `{meant}`; a field of your own needs a name further from folio's (it is given to templates as `extra.<name>`)"),
                ));
            }
        }
        Ok(())
    }

    /// `lang`, where written, is the language of the file's place.
    fn same_language(&self, source: &Source) -> Result<(), ParseError> {
        let Some(lang) = self.string("lang")? else {
            return Ok(());
        };
        let same = lang.replace('_', "-").eq_ignore_ascii_case(&source.lang);
        if same {
            return Ok(());
        }
        Err(self.problem(
            "lang",
            format!(
                "says `{lang}`, but the file's place makes it `{}`",
                source.lang
            ),
            format!("move the file to the `{lang}` language's place, or remove `lang`"),
        ))
    }

    /// `draft`, or Jekyll's `published: false`.
    fn draft(&self) -> Result<bool, ParseError> {
        let draft = self.bool("draft")?;
        let published = self.bool("published")?;
        match (draft, published) {
            (Some(draft), Some(published)) if draft == published => Err(self.problem(
                "published",
                format!("says {published}, but `draft` says {draft}"),
                "keep one of the two".into(),
            )),
            (Some(draft), _) => Ok(draft),
            (None, published) => Ok(published == Some(false)),
        }
    }

    /// The URL the front matter sets (`permalink`, or Hugo's `url`).
    fn written_url(&self) -> Result<Option<String>, ParseError> {
        for field in ["permalink", "url"] {
            if let Some(text) = self.string(field)? {
                return self.url_path(field, &text).map(Some);
            }
        }
        Ok(None)
    }

    /// The old URLs of the document (`aliases`, Jekyll's `redirect_from`),
    /// each once.
    fn aliases(&self) -> Result<Vec<String>, ParseError> {
        let mut aliases = Vec::new();
        for field in ["aliases", "redirect_from"] {
            if let Some(value) = self.get(field) {
                for text in self.strings(field, value, false)? {
                    let path = self.url_path(field, &text)?;
                    if !aliases.contains(&path) {
                        aliases.push(path);
                    }
                }
            }
        }
        Ok(aliases)
    }

    fn url_path(&self, field: &str, text: &str) -> Result<String, ParseError> {
        let path = crate::model::url::written_path(text).ok_or_else(|| {
            self.problem(
                field,
                format!("`{text}` is not a path inside the site"),
                "write a path from the site's root, like `/2024/05/01/hello/`, without `.` or `..`"
                    .into(),
            )
        })?;
        // Each segment becomes the name of a folder or file.
        let longest = path
            .split('/')
            .filter_map(crate::model::url::decode_segment)
            .map(|segment| segment.len())
            .max()
            .unwrap_or(0);
        if longest > MAX_SLUG_BYTES {
            return Err(self.problem(
                field,
                format!(
                    "`{}` has a part of {longest} bytes; each part between slashes becomes a folder name, of at most {MAX_SLUG_BYTES} bytes",
                    abridged(text)
                ),
                "shorten it".into(),
            ));
        }
        Ok(path)
    }

    /// The template the front matter asks for: `template` (which must
    /// exist), or a `layout` (used when the theme has it).
    fn template(&self) -> Result<Option<TemplateChoice>, ParseError> {
        if let Some(name) = self.string("template")? {
            let name = name.trim();
            // A template is named by its path under templates/.
            let outside = name.starts_with('/')
                || name.contains('\\')
                || name.split('/').any(|part| matches!(part, "" | "." | ".."));
            if outside {
                return Err(self.problem(
                    "template",
                    format!("`{name}` is not the name of a template"),
                    "name a file of templates/ by its path there, like `post.html` or `wide/post.html`".into(),
                ));
            }
            return Ok(Some(TemplateChoice::Named(name.to_owned())));
        }
        Ok(self
            .string("layout")?
            .map(|layout| TemplateChoice::Layout(format!("{}.html", layout.trim()))))
    }

    /// The id of the document `slug` in `lang` dated `ms`; a date an id
    /// cannot hold is a problem of `date`.
    fn id(&self, slug: &str, lang: &str, ms: i64) -> Result<PostId, ParseError> {
        PostId::derive(slug, lang, ms).map_err(|e| {
            let when = if e.millis < 0 {
                "before 1970-01-01, the earliest"
            } else {
                "after the last"
            };
            self.problem(
                "date",
                format!("{} is {when} date a post's id can hold", format_ms(e.millis)),
                "use a date from 1970 on; an older date can be kept for the templates in a field of your own (`written: 1969-07-20`)".into(),
            )
        })
    }

    /// A summary written in the front matter (`summary`, or Jekyll's
    /// `excerpt`), as HTML from its Markdown.
    fn written_summary(&self) -> Result<Option<String>, ParseError> {
        for field in ["summary", "excerpt"] {
            if let Some(text) = self.string(field)?.filter(|t| !t.trim().is_empty()) {
                return Ok(Some(render_body(text.trim()).trim_end().to_owned()));
            }
        }
        Ok(None)
    }

    /// The fields folio does not read, for templates, as a JSON object:
    /// Zola's `[extra]` table, the other fields, the taxonomies other than
    /// tags and categories, and `authors` (from `author` or `authors`).
    fn extra(&self) -> Result<String, ParseError> {
        let mut extra = match self.get("extra") {
            None => Map::new(),
            Some(Value::Object(table)) => table.clone(),
            Some(other) => return Err(self.wrong_type("extra", "a table", other)),
        };
        for (key, value) in self.map {
            if !FIELDS.contains(&key.as_str()) {
                extra.insert(key.clone(), value.clone());
            }
        }
        if let Some(Value::Object(taxonomies)) = self.get("taxonomies") {
            let others: Map<String, Value> = taxonomies
                .iter()
                .filter(|(name, _)| !matches!(name.as_str(), "tags" | "categories"))
                .map(|(name, terms)| (name.clone(), terms.clone()))
                .collect();
            if !others.is_empty() {
                extra.insert("taxonomies".into(), Value::Object(others));
            }
        }
        let mut authors = Vec::new();
        for field in ["author", "authors"] {
            if let Some(value) = self.get(field) {
                authors.extend(self.strings(field, value, false)?);
            }
        }
        if !authors.is_empty() {
            extra.insert("authors".into(), Value::from(authors));
        }
        Ok(Value::Object(extra).to_string())
    }

    /// The line where `key` is written: the first front matter line that
    /// starts with it as a YAML, TOML or JSON key.
    fn line_of(&self, key: &str) -> Option<usize> {
        if self.json {
            let end = self
                .text
                .lines()
                .take(self.last_line)
                .map(|line| line.len() + 1)
                .sum();
            let object = self.text.get(..end).unwrap_or(self.text);
            return json_key_lines(object, key).first().copied();
        }
        let quoted = format!("\"{key}\"");
        self.text
            .lines()
            .enumerate()
            .skip(self.first_line - 1)
            .take(self.last_line + 1 - self.first_line)
            .find(|(_, line)| {
                let line = line.trim_start();
                // A TOML table: `[extra]`.
                let table = line
                    .strip_prefix('[')
                    .and_then(|rest| rest.strip_prefix(key));
                if table.is_some_and(|rest| rest.trim_end() == "]") {
                    return true;
                }
                [key, quoted.as_str()].iter().any(|k| {
                    line.strip_prefix(k).is_some_and(|rest| {
                        matches!(rest.trim_start().chars().next(), Some(':' | '='))
                    })
                })
            })
            .map(|(i, _)| i + 1)
    }

    fn problem(&self, field: &str, message: String, help: String) -> ParseError {
        (
            self.line_of(field),
            ProblemKind::Field {
                field: field.to_owned(),
                message,
                help,
            },
        )
    }

    fn wrong_type(&self, field: &str, expected: &str, value: &Value) -> ParseError {
        let found = match value {
            Value::Null => "nothing",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "a list",
            Value::Object(_) => "a table",
        };
        self.problem(
            field,
            format!("expected {expected}, found {found}"),
            format!("write `{field}` as {expected}"),
        )
    }

    fn get(&self, field: &str) -> Option<&Value> {
        self.map.get(field).filter(|v| !v.is_null())
    }

    /// A string; a number is taken as its text (`title: 1984`).
    fn string(&self, field: &str) -> Result<Option<String>, ParseError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(self.wrong_type(field, "a string", other)),
        }
    }

    fn bool(&self, field: &str) -> Result<Option<bool>, ParseError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => Err(self.wrong_type(field, "true or false", other)),
        }
    }

    /// `tags`, with the other generators' categories (Jekyll's
    /// `categories` and `category`, Zola's `[taxonomies]` tags and
    /// categories) as tags too, each once, in the order written.
    fn tags(&self) -> Result<Vec<String>, ParseError> {
        let mut found = Vec::new();
        if let Some(value) = self.get("tags") {
            found.extend(self.tag_names("tags", value, false)?);
        }
        // Jekyll reads a string of categories as words.
        for field in ["categories", "category"] {
            if let Some(value) = self.get(field) {
                found.extend(self.tag_names(field, value, field == "categories")?);
            }
        }
        if let Some(table) = self.get("taxonomies") {
            let Value::Object(taxonomies) = table else {
                return Err(self.wrong_type("taxonomies", "a table", table));
            };
            for name in ["tags", "categories"] {
                if let Some(value) = taxonomies.get(name).filter(|v| !v.is_null()) {
                    found.extend(self.tag_names("taxonomies", value, false)?);
                }
            }
        }
        let mut seen = HashSet::new();
        found.retain(|tag| !tag.is_empty() && seen.insert(tag.clone()));
        Ok(found)
    }

    /// The tags `field` gives: [`Fields::strings`], each short enough for
    /// its URL segment to name its folder.
    fn tag_names(
        &self,
        field: &str,
        value: &Value,
        words: bool,
    ) -> Result<Vec<String>, ParseError> {
        let tags = self.strings(field, value, words)?;
        if let Some(long) = tags.iter().find(|tag| tag_slug(tag).len() > MAX_SLUG_BYTES) {
            return Err(self.problem(
                field,
                format!(
                    "the tag `{}` is {} bytes long; its page's folder is named after it, in at most {MAX_SLUG_BYTES} bytes",
                    abridged(long),
                    long.len()
                ),
                "shorten the tag".into(),
            ));
        }
        Ok(tags)
    }

    /// A list of strings; a lone string is one item (or, with `words`, one
    /// item per word). Numbers are taken as their text.
    fn strings(&self, field: &str, value: &Value, words: bool) -> Result<Vec<String>, ParseError> {
        let item = |value: &Value| match value {
            Value::String(s) => Ok(s.trim().to_owned()),
            Value::Number(n) => Ok(n.to_string()),
            other => Err(self.wrong_type(field, "a list of strings", other)),
        };
        match value {
            Value::Array(items) => items.iter().map(item).collect(),
            Value::String(s) if words => Ok(s.split_whitespace().map(str::to_owned).collect()),
            single @ (Value::String(_) | Value::Number(_)) if field != "tags" => {
                Ok(vec![item(single)?])
            }
            other => Err(self.wrong_type(field, "a list of strings", other)),
        }
    }

    /// A date as (Unix ms, read in the site time zone).
    fn date(&self, field: &str, config: &Config) -> Result<Option<(i64, bool)>, ParseError> {
        let Some(text) = self.string(field)? else {
            return Ok(None);
        };
        parse_date(&text, config)
            .map(Some)
            .map_err(|(message, help)| self.problem(field, message, help.into()))
    }
}

/// How to write a date folio reads.
const DATE_FORMATS: &str = "write an RFC 3339 date-time (`2024-05-01T09:00:00+02:00`), a date-time read in the site time zone (`2024-05-01T09:00:00`) or a date (`2024-05-01`)";

/// Reads a date: RFC 3339 with an offset, or a date-time or date without one,
/// read in the site time zone. Returns (Unix ms, read in the site time zone),
/// or what is wrong and how to fix it.
pub fn parse_date(text: &str, config: &Config) -> Result<(i64, bool), (String, &'static str)> {
    let text = text.trim();
    // jiff reads years 0 to 9999 (and -9999 with a sign), and a moment up
    // to 9999-12-30T22:00Z, so that any offset can be applied to it.
    let in_range = "use a date from 1970 to 9999";
    let beyond = || {
        let message = format!("`{text}` is after 9999-12-30, the last date folio can read");
        (message, in_range)
    };
    let year_digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let long_year = year_digits > 4 && text.as_bytes().get(year_digits) == Some(&b'-');
    if long_year || text.starts_with(['+', '-']) {
        let message = format!("`{text}` has a year folio cannot read: dates run from 1970 to 9999");
        return Err((message, in_range));
    }
    match text.parse::<jiff::Timestamp>() {
        Ok(timestamp) => return Ok((timestamp.as_millisecond(), false)),
        // A date-time with an offset that jiff cannot hold as a moment: it
        // must not be read again without its offset.
        Err(_) if has_offset(text) && text.parse::<civil::DateTime>().is_ok() => {
            return Err(beyond());
        }
        Err(_) => {}
    }
    let local = text
        .parse::<civil::DateTime>()
        .or_else(|_| {
            text.parse::<civil::Date>()
                .map(|d| d.to_datetime(civil::Time::midnight()))
        })
        .map_err(|_| (format!("`{text}` is not a date"), DATE_FORMATS))?;
    // Only a moment past the last one jiff holds cannot be placed: a time
    // in a daylight-saving gap is moved on, as clocks are.
    let timestamp = config.timezone.to_timestamp(local).map_err(|_| beyond())?;
    Ok((timestamp.as_millisecond(), true))
}

/// Whether a date-time ends with an offset (`Z`, `+02:00`, `-0500`).
fn has_offset(text: &str) -> bool {
    let Some((_, time)) = text.split_once(['T', 't', ' ']) else {
        return false;
    };
    time.ends_with(['Z', 'z']) || time.contains(['+', '-'])
}

/// Splits a leading `YYYY-MM-DD-` (or Jekyll's unpadded `YYYY-M-D-`) off a
/// file stem. The rest is the slug; the date is used when front matter has none.
fn split_date_prefix(stem: &str) -> (Option<civil::Date>, &str) {
    let mut parts = stem.splitn(4, '-');
    let (Some(y), Some(m), Some(d), Some(rest)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return (None, stem);
    };
    let digits = |s: &str, lens: std::ops::RangeInclusive<usize>| {
        lens.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    if !(digits(y, 4..=4) && digits(m, 1..=2) && digits(d, 1..=2)) || rest.is_empty() {
        return (None, stem);
    }
    let (Ok(y), Ok(m), Ok(d)) = (y.parse::<i16>(), m.parse::<i8>(), d.parse::<i8>()) else {
        return (None, stem);
    };
    match civil::Date::new(y, m, d) {
        Ok(date) => (Some(date), rest),
        Err(_) => (None, stem),
    }
}

const MARKDOWN: Options = Options::ENABLE_TABLES
    .union(Options::ENABLE_FOOTNOTES)
    .union(Options::ENABLE_STRIKETHROUGH)
    .union(Options::ENABLE_TASKLISTS)
    .union(Options::ENABLE_HEADING_ATTRIBUTES);

/// Renders a Markdown body to HTML.
pub fn render_body(markdown: &str) -> String {
    let mut body = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(
        &mut body,
        HeadingAnchors::new(Parser::new_ext(markdown, MARKDOWN)),
    );
    body
}

/// The summary of a Markdown body, as HTML: the part before
/// `<!-- more -->`, or else the first paragraph.
pub fn summary_html(markdown: &str) -> String {
    let mut summary = String::new();
    match markdown.find(MORE_MARKER) {
        Some(at) => html::push_html(
            &mut summary,
            HeadingAnchors::new(Parser::new_ext(&markdown[..at], MARKDOWN)),
        ),
        None => {
            // Inline parsing is lazy: what follows the first paragraph is
            // never parsed past its blocks. Only headings differ with
            // anchors, and a paragraph holds none.
            let mut events = Parser::new_ext(markdown, MARKDOWN)
                .skip_while(|event| !matches!(event, Event::Start(Tag::Paragraph)));
            let mut first_paragraph = Vec::new();
            for event in events.by_ref() {
                let end = matches!(event, Event::End(TagEnd::Paragraph));
                first_paragraph.push(event);
                if end {
                    break;
                }
            }
            html::push_html(&mut summary, first_paragraph.into_iter());
        }
    }
    summary.trim_end().to_owned()
}

/// Gives every heading an id (its text, slugified; `-1`, `-2`… when repeated)
/// unless it has one (`{#id}`), and a trailing `#` link to itself. Only a
/// heading's own events are held back, until its text is known.
struct HeadingAnchors<'a, I> {
    events: I,
    used: rustc_hash::FxHashMap<String, usize>,
    /// The events of the heading being given its id, and its end.
    held: std::collections::VecDeque<Event<'a>>,
}

impl<'a, I: Iterator<Item = Event<'a>>> HeadingAnchors<'a, I> {
    fn new(events: I) -> Self {
        HeadingAnchors {
            events,
            used: rustc_hash::FxHashMap::default(),
            held: std::collections::VecDeque::new(),
        }
    }

    /// Holds `start` and the heading's events up to its end, with the id
    /// set and the link to it added. Every heading of a cold build passes
    /// here: its text is slugified without allocating per character, and
    /// the id escaped only when it needs to be.
    fn hold_heading(&mut self, start: Event<'a>) {
        self.held.push_back(start);
        let mut end = None;
        for event in self.events.by_ref() {
            if matches!(event, Event::End(TagEnd::Heading(_))) {
                end = Some(event);
                break;
            }
            self.held.push_back(event);
        }
        let anchor = match &self.held[0] {
            Event::Start(Tag::Heading { id: Some(id), .. }) => {
                // An id the author chose is kept as it is, and taken.
                self.used.entry(id.to_string()).or_insert(1);
                id.to_string()
            }
            _ => {
                let mut text = String::new();
                for event in self.held.range(1..) {
                    if let Event::Text(t) | Event::Code(t) = event {
                        text.push_str(t);
                    }
                }
                numbered(&mut self.used, heading_id(&text))
            }
        };
        let mut link = String::with_capacity(anchor.len() + 56);
        link.push_str(" <a class=\"anchor\" href=\"#");
        link.push_str(&html_attr(&anchor));
        link.push_str("\" aria-hidden=\"true\">#</a>");
        if let Event::Start(Tag::Heading { id, .. }) = &mut self.held[0] {
            *id = Some(CowStr::from(anchor));
        }
        self.held.push_back(Event::InlineHtml(CowStr::from(link)));
        self.held.extend(end);
    }
}

impl<'a, I: Iterator<Item = Event<'a>>> Iterator for HeadingAnchors<'a, I> {
    type Item = Event<'a>;

    fn next(&mut self) -> Option<Event<'a>> {
        if let Some(event) = self.held.pop_front() {
            return Some(event);
        }
        let event = self.events.next()?;
        if !matches!(event, Event::Start(Tag::Heading { .. })) {
            return Some(event);
        }
        self.hold_heading(event);
        self.held.pop_front()
    }
}

/// `base`, or else the first of `base-1`, `base-2`… that no heading of the
/// page has: a suffixed id can be another heading's own (`A`, `A`, `A-1`
/// give `a`, `a-1`, `a-1-1`). `issued` maps each id given out to the next
/// suffix to try when it comes again as a base.
fn numbered(issued: &mut rustc_hash::FxHashMap<String, usize>, base: String) -> String {
    let Some(&first) = issued.get(&base) else {
        issued.insert(base.clone(), 1);
        return base;
    };
    let mut suffix = first;
    loop {
        let anchor = format!("{base}-{suffix}");
        suffix += 1;
        if !issued.contains_key(&anchor) {
            issued.insert(base, suffix);
            issued.insert(anchor.clone(), 1);
            return anchor;
        }
    }
}

/// `text` as an attribute value; a slugified id has nothing to escape.
fn html_attr(text: &str) -> Cow<'_, str> {
    if !text.contains(['&', '"', '<']) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn config(tz: &str) -> Config {
        Config::parse(
            &format!("title='t'\nbase_url='https://e.org'\ndefault_language='en'\ntimezone='{tz}'\n[languages.en]\nname='English'\n[languages.fr]\nname='Français'\n"),
            Path::new("site.toml"),
        )
        .unwrap()
    }

    fn source(rel: &str) -> Source {
        let config = config("UTC");
        let mut s = crate::source::discover::classify(rel, &config).unwrap();
        s.path = format!("content/{rel}");
        s
    }

    fn run(rel: &str, text: &str) -> Result<Parsed, ParseError> {
        parse_in(rel, text, "UTC")
    }

    fn parse_in(rel: &str, text: &str, tz: &str) -> Result<Parsed, ParseError> {
        parse(
            &source(rel),
            text.as_bytes(),
            crate::model::hash::source_hash(text.as_bytes()),
            (&config(tz), &Plugins::new()),
        )
    }

    #[track_caller]
    fn field_error(result: Result<Parsed, ParseError>) -> (Option<usize>, String, String) {
        match result.unwrap_err() {
            (line, ProblemKind::Field { field, message, .. }) => (line, field, message),
            other => panic!("expected a field error, got {other:?}"),
        }
    }

    #[test]
    fn yaml_toml_and_json_front_matter_give_the_same_record() {
        let yaml =
            "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\ntags: [a, b]\n---\nBody *text*.\n";
        let toml = "+++\ntitle = \"Hello\"\ndate = 2024-05-01T09:00:00Z\ntags = [\"a\", \"b\"]\n+++\nBody *text*.\n";
        let json = "{\n  \"title\": \"Hello\",\n  \"date\": \"2024-05-01T09:00:00Z\",\n  \"tags\": [\"a\", \"b\"]\n}\n\nBody *text*.\n";
        let records: Vec<Record> = [yaml, toml, json]
            .iter()
            .map(|text| {
                let mut r = run("en/posts/hello-world.md", text).unwrap().record;
                r.source.hash.clear();
                r
            })
            .collect();
        assert_eq!(records[0], records[1]);
        assert_eq!(records[0], records[2]);
        assert_eq!(records[0].id.to_string(), "01HWSP3MM02BC0VWVKC580KT23");
        assert_eq!(records[0].tags, ["a", "b"]);
        assert_eq!(records[0].url, "/posts/hello-world/");
        assert_eq!(records[0].summary, "<p>Body <em>text</em>.</p>");
    }

    #[test]
    fn bom_and_crlf_are_accepted() {
        let text = "\u{feff}---\r\ntitle: Hi\r\ndate: 2024-05-01\r\n---\r\nLine one\r\n";
        let parsed = run("en/posts/x.md", text).unwrap();
        assert_eq!(parsed.record.title, "Hi");
        assert!(parsed.body.holds(text.as_bytes()));
        assert!(!parsed.body.holds(b"other bytes"));
        let document = Document {
            source: "content/posts/x.md",
            lang: "en",
        };
        let plugins = (&Plugins::new(), &document);
        let body = body_html(text.as_bytes(), Some(parsed.body.start), plugins).unwrap();
        assert_eq!(body, "<p>Line one</p>\n");
        assert_eq!(body_html(text.as_bytes(), None, plugins).unwrap(), body);
    }

    #[test]
    fn unquoted_toml_dates_and_bare_dates_work() {
        let parsed = run(
            "posts/x.fr.md",
            "+++\ntitle = \"x\"\ndate = 2024-06-12T08:30:00+02:00\n+++\n",
        )
        .unwrap();
        assert_eq!(
            parsed.record.published_at,
            "2024-06-12T06:30:00Z"
                .parse::<jiff::Timestamp>()
                .unwrap()
                .as_millisecond()
        );
        assert!(!parsed.date_is_local);
        let parsed = run("posts/x.md", "+++\ntitle = \"x\"\ndate = 2024-06-12\n+++\n").unwrap();
        assert!(parsed.date_is_local);
    }

    #[test]
    fn dates_without_offset_are_read_in_the_site_time_zone() {
        let text = "---\ntitle: x\ndate: 2024-05-01T11:00:00\n---\n";
        let paris = parse_in("en/posts/x.md", text, "Europe/Paris").unwrap();
        let utc = parse_in("en/posts/x.md", text, "UTC").unwrap();
        assert_eq!(
            utc.record.published_at - paris.record.published_at,
            2 * 3600 * 1000
        );
        assert!(paris.date_is_local);
        let spaced = parse_in(
            "en/posts/x.md",
            "---\ntitle: x\ndate: 2024-05-01 11:00:00\n---\n",
            "Europe/Paris",
        )
        .unwrap();
        assert_eq!(spaced.record.published_at, paris.record.published_at);
    }

    #[test]
    fn file_name_gives_slug_and_date_but_front_matter_date_wins() {
        let parsed = run("posts/2024-06-12-incremental.md", "---\ntitle: x\n---\n").unwrap();
        assert_eq!(parsed.record.slug, "incremental");
        assert_eq!(identify_date(&parsed), "2024-06-12T00:00:00Z");
        let parsed = run("posts/2024-6-2-jekyll.md", "---\ntitle: x\n---\n").unwrap();
        assert_eq!(parsed.record.slug, "jekyll");
        assert_eq!(identify_date(&parsed), "2024-06-02T00:00:00Z");
        let parsed = run(
            "posts/2024-06-12-x.md",
            "---\ntitle: x\ndate: 2025-01-01T00:00:00Z\n---\n",
        )
        .unwrap();
        assert_eq!(identify_date(&parsed), "2025-01-01T00:00:00Z");
        // Not a date: kept in the slug.
        let parsed = run(
            "posts/2024-13-40-odd.md",
            "---\ntitle: x\ndate: 2024-01-01\n---\n",
        )
        .unwrap();
        assert_eq!(parsed.record.slug, "2024-13-40-odd");
    }

    fn identify_date(parsed: &Parsed) -> String {
        format_ms(parsed.record.published_at)
    }

    #[test]
    fn slug_is_nfc_normalized_and_front_matter_slug_wins() {
        let parsed = run(
            "fr/posts/cafe\u{301}.md",
            "---\ntitle: x\ndate: 2024-01-01\n---\n",
        )
        .unwrap();
        assert_eq!(parsed.record.slug, "caf\u{e9}");
        let parsed = run(
            "fr/posts/x.md",
            "---\ntitle: x\ndate: 2024-01-01\nslug: mon article\n---\n",
        )
        .unwrap();
        assert_eq!(parsed.record.slug, "mon-article");
        assert_eq!(parsed.record.url, "/fr/posts/mon-article/");
    }

    #[test]
    fn slugs_that_could_escape_are_refused() {
        let long = "京".repeat(70);
        for bad in [
            "../../etc",
            "a/b",
            ".hidden",
            "a?b",
            "%2e",
            "C:",
            "a|b",
            long.as_str(),
        ] {
            let text = format!("---\ntitle: x\ndate: 2024-01-01\nslug: \"{bad}\"\n---\n");
            let (line, field, _) = field_error(run("en/posts/x.md", &text));
            assert_eq!((line, field.as_str()), (Some(4), "slug"), "{bad}");
        }
    }

    #[test]
    fn wrong_types_name_the_field_and_line() {
        let (line, field, message) = field_error(run(
            "en/posts/x.md",
            "---\ndate: 2024-01-01\ntitle: [a, b]\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(3), "title"));
        assert!(message.contains("found a list"), "{message}");
        let (line, field, _) = field_error(run(
            "en/posts/x.md",
            "---\ntitle: x\ndate: yesterday\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(3), "date"));
        let (line, field, _) = field_error(run(
            "en/posts/x.md",
            "---\ntitle: x\ndate: 2024-01-01\ndraft: maybe\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(4), "draft"));
        let (_, field, _) = field_error(run(
            "en/posts/x.md",
            "{\"title\": \"x\", \"date\": \"2024-01-01\", \"tags\": \"solo\"}\n",
        ));
        assert_eq!(field, "tags");
    }

    #[test]
    fn missing_title_missing_date_and_typos_of_fields_are_errors() {
        assert_eq!(
            field_error(run("en/posts/x.md", "---\ndate: 2024-01-01\n---\n")).1,
            "title"
        );
        assert_eq!(
            field_error(run("en/posts/x.md", "---\ntitle: x\n---\n")).1,
            "date"
        );
        let (line, field, _) = field_error(run(
            "en/posts/x.md",
            "---\ntitle: x\ndate: 2024-01-01\ndarft: true\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(4), "darft"));
        for (typo, meant) in [
            ("tittle", "title"),
            ("tag", "tags"),
            ("Date", "date"),
            ("updatd", "updated"),
        ] {
            let text = format!("---\ntitle: x\ndate: 2024-01-01\n{typo}: y\n---\n");
            let (line, field, message) = field_error(run("en/posts/x.md", &text));
            assert_eq!((line, field.as_str()), (Some(4), typo));
            assert!(
                message.contains(&format!("did you mean `{meant}`")),
                "{message}"
            );
        }
    }

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
    fn fields_folio_does_not_read_are_kept_for_templates() {
        let text = "---\ntitle: x\ndate: 2024-01-01\ntype: posts\nversion: 2\nname: x-post\nauthor: Ada\nnested: {a: [1, 2]}\n---\n";
        let extra: Value =
            serde_json::from_str(&run("en/posts/x.md", text).unwrap().record.extra).unwrap();
        assert_eq!(
            extra,
            serde_json::json!({"type": "posts", "version": 2, "name": "x-post", "nested": {"a": [1, 2]}, "authors": ["Ada"]})
        );
        // Zola: `[extra]` is kept as it is, `[taxonomies]` tags and
        // categories are tags, other taxonomies are kept.
        let text = "+++\ntitle = \"x\"\ndate = 2024-01-01\nauthors = [\"A\", \"B\"]\n[taxonomies]\ntags = [\"t\"]\ncategories = [\"c\"]\nseries = [\"s\"]\n[extra]\ntoc = true\n+++\n";
        let record = run("en/posts/x.md", text).unwrap().record;
        assert_eq!(record.tags, ["t", "c"]);
        let extra: Value = serde_json::from_str(&record.extra).unwrap();
        assert_eq!(
            extra,
            serde_json::json!({"toc": true, "taxonomies": {"series": ["s"]}, "authors": ["A", "B"]})
        );
        let plain = run("en/posts/x.md", "---\ntitle: x\ndate: 2024-01-01\n---\n").unwrap();
        assert_eq!(plain.record.extra, "{}");
    }

    #[test]
    fn other_generators_fields_mean_what_folio_has() {
        let record = |front: &str| {
            let text = format!("---\ntitle: x\ndate: 2024-01-01\n{front}\n---\nThe body.\n");
            run("en/posts/x.md", &text).unwrap().record
        };
        let day = |date: &str| parse_date(date, &config("UTC")).unwrap().0;
        assert_eq!(
            record("lastmod: 2024-02-01").updated_at,
            Some(day("2024-02-01"))
        );
        assert_eq!(
            record("last_modified_at: 2024-03-01").updated_at,
            Some(day("2024-03-01"))
        );
        assert_eq!(
            record("excerpt: In *short*.").summary,
            "<p>In <em>short</em>.</p>"
        );
        assert_eq!(record("summary: Brief.").summary, "<p>Brief.</p>");
        assert_eq!(record("").summary, "<p>The body.</p>");
        assert_eq!(
            record("categories: news releases").tags,
            ["news", "releases"]
        );
        assert_eq!(
            record("category: faqs\ntags: [a, faqs]").tags,
            ["a", "faqs"]
        );
        assert!(record("published: false").draft);
        assert!(!record("published: true").draft);
        let contradiction = "---\ntitle: x\ndate: 2024-01-01\ndraft: true\npublished: true\n---\n";
        assert_eq!(
            field_error(run("en/posts/x.md", contradiction)).1,
            "published"
        );
    }

    #[test]
    fn a_lang_field_must_agree_with_the_files_place() {
        assert!(
            run(
                "fr/posts/x.md",
                "---\ntitle: x\ndate: 2024-01-01\nlang: fr\n---\n"
            )
            .is_ok()
        );
        let (line, field, message) = field_error(run(
            "fr/posts/x.md",
            "---\ntitle: x\ndate: 2024-01-01\nlang: en\n---\n",
        ));
        assert_eq!((line, field.as_str()), (Some(4), "lang"));
        assert!(
            message.contains("`en`") && message.contains("`fr`"),
            "{message}"
        );
    }

    #[test]
    fn pages_need_no_date_and_get_timestamp_zero() {
        let parsed = run("en/about.md", "---\ntitle: About\n---\nHi\n").unwrap();
        assert_eq!(parsed.record.kind, Kind::Page);
        assert_eq!(parsed.record.id.published_ms(), 0);
        assert_eq!(parsed.record.url, "/about/");
        let parsed = run("fr/docs/setup.md", "---\ntitle: Setup\n---\n").unwrap();
        assert_eq!(parsed.record.url, "/fr/docs/setup/");
    }

    #[test]
    fn urls_follow_the_permalink_and_percent_encode_unicode() {
        let mut config = config("Asia/Tokyo");
        config.permalink = "/{lang}/{year}/{month}/{day}/{slug}/".into();
        let ms = "2024-05-01T20:00:00Z"
            .parse::<jiff::Timestamp>()
            .unwrap()
            .as_millisecond();
        assert_eq!(
            document_url(&config, Kind::Post, "en", "posts/x", "x", ms),
            "/2024/05/02/x/"
        );
        assert_eq!(
            document_url(&config, Kind::Post, "fr", "posts/x", "été", ms),
            "/fr/2024/05/02/%C3%A9t%C3%A9/"
        );
        config.default_language_in_subdir = true;
        assert_eq!(
            document_url(&config, Kind::Post, "en", "posts/x", "x", ms),
            "/en/2024/05/02/x/"
        );
        assert_eq!(
            document_url(&config, Kind::Page, "fr", "guides/démarrer", "démarrer", 0),
            "/fr/guides/d%C3%A9marrer/"
        );
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

    #[test]
    fn dates_before_1970_are_refused() {
        let (_, field, message) = field_error(run(
            "en/posts/x.md",
            "---\ntitle: x\ndate: 1969-12-31\n---\n",
        ));
        assert_eq!(field, "date");
        assert!(message.contains("before 1970-01-01"), "{message}");
    }

    #[test]
    fn summary_comes_from_the_more_marker_or_the_first_paragraph() {
        let summary = summary_html("One.\n\nTwo.\n\n<!-- more -->\n\nThree.\n");
        assert_eq!(summary, "<p>One.</p>\n<p>Two.</p>");
        let summary = summary_html("# Title\n\nFirst *para*.\n\nSecond.\n");
        assert_eq!(summary, "<p>First <em>para</em>.</p>");
        // A reference defined at the end still resolves in the first paragraph.
        let summary = summary_html("- item\n\nSee [it][r].\n\nMore.\n\n[r]: https://x.test/\n");
        assert_eq!(summary, "<p>See <a href=\"https://x.test/\">it</a>.</p>");
        // The first paragraph wherever it is, its footnote reference kept.
        let summary = summary_html("> Quoted[^n].\n\nAfter.\n\n[^n]: A note.\n");
        assert!(
            summary.starts_with("<p>Quoted<sup class=\"footnote-reference\">"),
            "{summary}"
        );
        assert!(summary.ends_with("</sup>.</p>"), "{summary}");
        let summary = summary_html("1. one\n\n2. two\n\nText.\n");
        assert_eq!(summary, "<p>one</p>");
    }

    #[test]
    fn markdown_extensions_and_heading_anchors() {
        let body = render_body(
            "## Intro\n\n## Intro\n\n## 日本語 見出し\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~ [^1]\n\n- [x] done\n\n[^1]: note\n",
        );
        assert!(
            body.contains("<h2 id=\"intro\">Intro <a class=\"anchor\" href=\"#intro\""),
            "{body}"
        );
        assert!(body.contains("<h2 id=\"intro-1\">"), "{body}");
        assert!(body.contains("<h2 id=\"日本語-見出し\">"), "{body}");
        assert!(body.contains("<table>"));
        assert!(body.contains("<del>old</del>"));
        assert!(body.contains("footnote-definition"));
        assert!(body.contains("type=\"checkbox\""));
    }

    #[test]
    fn heading_ids_are_numbered_and_given_ids_escaped() {
        let body = render_body("# A\n\n# A\n\n# A\n\n# Given {#x&y}\n\n# Intro\n");
        let ids: Vec<&str> = body
            .split("id=\"")
            .skip(1)
            .map(|rest| &rest[..rest.find('"').unwrap()])
            .collect();
        assert_eq!(ids, ["a", "a-1", "a-2", "x&amp;y", "intro"], "{body}");
        assert!(body.contains("href=\"#x&amp;y\""), "{body}");
    }

    #[test]
    fn heading_ids_are_unique_even_when_a_heading_reads_like_a_numbered_one() {
        let ids = |markdown: &str| -> Vec<String> {
            render_body(markdown)
                .split("id=\"")
                .skip(1)
                .map(|rest| rest[..rest.find('"').unwrap()].to_owned())
                .collect()
        };
        assert_eq!(ids("# A\n\n# A\n\n# A-1\n"), ["a", "a-1", "a-1-1"]);
        assert_eq!(ids("# A-1\n\n# A\n\n# A\n"), ["a-1", "a", "a-2"]);
        assert_eq!(ids("# B {#a}\n\n# A\n"), ["a", "a-1"]);
    }
}
