//! A source's bytes → a [`Parsed`] document: its index row and where its
//! body starts; and, when its page renders, that body as HTML.
//!
//! The stage's entry: it reads the text, has the front matter split and read
//! (`front_matter`), takes the fields it needs through their types
//! (`fields`), dates (`dates`) and the summary (`markdown`), and makes the
//! record and its URL. Pure: no I/O, so it runs on any thread and is tested
//! without a disk.

use std::borrow::Cow;
use std::fmt::Write as _;

use jiff::civil;
use xxhash_rust::xxh3::xxh3_128;

use crate::model::doc::{InternalLink, Kind, Record, Source, SourceState};
use crate::model::error::ProblemKind;
use crate::model::id::format_ms;
use crate::model::url::{
    MAX_SLUG_BYTES, collapse_slashes, encode_segment, fill_placeholders, normalize_slug,
};
use crate::plugin::{Document, Phase, Plugins};
use crate::source::config::Config;
use crate::source::dates::split_date_prefix;
use crate::source::fields::Fields;
use crate::source::front_matter;
use crate::source::highlight::Note;
use crate::source::html::internal_links;
use crate::source::markdown::{
    expand_shortcodes, outline_call_bodies, render_body, render_markdown, summary_and_outline,
};
use crate::source::outline::Outline;
use crate::source::shortcodes::Shortcodes;

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

/// The fields that give `updated`, in the order they are looked for.
const UPDATED: &[&str] = &["updated", "lastmod", "last_modified_at"];

/// The fields that give `expires`: folio's, then Hugo's (whose keys are
/// read without regard to case, and written both ways).
const EXPIRES: &[&str] = &["expires", "expiryDate", "expirydate"];

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

/// When a document says it was updated, by the first field among
/// [`UPDATED`] it has.
#[allow(clippy::result_large_err)]
fn updated(fields: &Fields, config: &Config) -> Result<Option<i64>, ParseError> {
    match UPDATED.iter().find(|field| fields.get(field).is_some()) {
        Some(field) => Ok(fields.date(field, config)?.map(|(ms, _)| ms)),
        None => Ok(None),
    }
}

/// Parses one source. `hash` is [`source_hash`] of `bytes`.
// The error is the rare path, built once per bad file: its size (a problem
// with every value its message names) costs nothing a box would save.
#[allow(clippy::result_large_err)]
pub fn parse(
    source: &Source,
    bytes: &[u8],
    hash: String,
    (config, plugins, shortcodes): (&Config, &Plugins, &Shortcodes),
) -> Result<Parsed, ParseError> {
    let text = source_text(bytes)?;
    let front = front_matter::split(&text)?;
    let fields = Fields::of(&front);
    fields.no_typos(&config.taxonomies)?;
    fields.same_language(source)?;

    let title = title_of(&fields)?;
    let (file_date, file_slug) = split_date_prefix(&source.stem);
    let date_line = fields.line_of("date");
    let slug_line = fields.line_of("slug");
    let (published_at, date_is_local) = publication_date(&fields, source.kind, file_date, config)?;
    let updated_at = updated(&fields, config)?;
    let expires_at = expiry(&fields, published_at, config)?;
    let slug = slug_of(&fields, file_slug)?;
    let id_ms = if source.kind == Kind::Page {
        0
    } else {
        published_at
    };
    let id = fields.id(&slug, &source.lang, id_ms)?;
    let terms = fields.terms(&config.taxonomies, config.term_slugs)?;
    let draft = fields.draft()?;
    let description = fields.string("description")?;
    let translation_key = fields
        .string("translation_key")?
        .unwrap_or_else(|| source.key.clone());

    let document = Document {
        source: &source.path,
        lang: &source.lang,
    };
    let first_line = line_at(&text, text.len() - front.body.len());
    let (mut summary, mut outline, touched_by) = summary_through(
        front.body,
        first_line,
        (plugins, &document),
        (config, shortcodes),
    )?;
    if let Some(written) = written_summary(&fields, config, &mut outline, first_line)? {
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
            expires_at,
            source: SourceState {
                path: source.path.clone(),
                hash,
                stat: source.stat,
            },
            title,
            url,
            summary,
            description,
            tags: terms.tags,
            terms: terms.others,
            draft,
            ever_published: !draft,
            translation_key,
            plugins: touched_by,
            extra: fields.extra(&config.taxonomies)?,
            aliases: aliases_of(&fields, config)?,
            template: fields.template()?,
            word_count: outline.word_count,
            reading_time: outline.reading_time,
            headings: serde_json::to_string(&outline.headings).unwrap_or_else(|_| "[]".into()),
            links: outline.links,
            shortcodes: outline.shortcodes,
            images: outline.images,
            weight: fields.weight()?,
        },
        body,
        date_is_local,
        date_line,
        slug_line,
    })
}

/// The summary written in the front matter, if any, whose links (at the
/// field's line) are added to the document's, as those of its body are.
fn written_summary(
    fields: &Fields<'_>,
    config: &Config,
    outline: &mut Outline,
    first_line: usize,
) -> Result<Option<String>, ParseError> {
    let Some((written, field)) = fields.written_summary(config)? else {
        return Ok(None);
    };
    let line = fields.line_of(field).unwrap_or(first_line) as u32;
    let links = internal_links(&written).into_iter();
    let links = links.map(|(_, target)| InternalLink { line, target });
    outline.links.extend(links);
    Ok(Some(written))
}

/// The document's old URLs, each under the site's base path as every URL
/// folio writes.
fn aliases_of(fields: &Fields<'_>, config: &Config) -> Result<Vec<String>, ParseError> {
    let aliases = fields.aliases()?.into_iter();
    Ok(aliases
        .map(|alias| format!("{}{alias}", config.base_path))
        .collect())
}

/// The `title` field, which every document needs.
fn title_of(fields: &Fields<'_>) -> Result<String, ParseError> {
    fields
        .string("title")?
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            fields.problem(
                "title",
                "is required".into(),
                "add `title: …` to the front matter".into(),
            )
        })
}

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

/// A source's bytes as the text its front matter and body are read from:
/// UTF-8, without a byte-order mark, with `\n` line ends.
pub(crate) fn source_text(bytes: &[u8]) -> Result<Cow<'_, str>, ParseError> {
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

/// The body of a source as HTML, through the site's transforms, and what
/// highlighting its code blocks and reading its formulas noted, each with
/// its line in the source. `body_start` is [`BodyAt::start`] when these bytes were
/// parsed in this build; without it the front matter is read again to find
/// where the body starts.
pub fn body_html(
    bytes: &[u8],
    body_start: Option<usize>,
    (plugins, document): (&Plugins, &Document<'_>),
    (config, shortcodes): (&Config, &Shortcodes),
) -> Result<(String, Vec<(usize, Note)>), ParseError> {
    let text = source_text(bytes)?;
    let body = match body_start {
        Some(start) => text
            .get(start..)
            .ok_or((None, ProblemKind::ChangedDuringBuild))?,
        None => front_matter::split(&text)?.body,
    };
    // A transform before Markdown may move lines: the fences are counted
    // in the text it hands back.
    let first_line = line_at(&text, text.len() - body.len());
    let mut touched_by = Vec::new();
    let markdown = transformed(
        body.into(),
        Phase::BeforeMarkdown,
        (plugins, document),
        &mut touched_by,
    )?;
    let body = render_markdown(
        &markdown,
        (document.lang, first_line),
        (&config.markup, shortcodes),
    )
    .map_err(|(line, kind)| (Some(line), kind))?;
    let html = transformed(
        body.html.into(),
        Phase::AfterMarkdown,
        (plugins, document),
        &mut touched_by,
    )?;
    Ok((html.into_owned(), body.notes))
}

/// The summary of `body` (whose first line is `first_line` of its source)
/// through the transforms, its outline, and the stamps of the transforms
/// that change the body (sorted): the whole body is rendered to tell only
/// when an HTML transform is there.
fn summary_through(
    body: &str,
    first_line: usize,
    (plugins, document): (&Plugins, &Document<'_>),
    (config, shortcodes): (&Config, &Shortcodes),
) -> Result<(String, Outline, Vec<String>), ParseError> {
    let markup = &config.markup;
    let mut touched_by = Vec::new();
    let before = Phase::BeforeMarkdown;
    let markdown = transformed(body.into(), before, (plugins, document), &mut touched_by)?;
    let at = (document.lang, first_line);
    let expanded = expand_shortcodes(&markdown, at, (markup, shortcodes))
        .map_err(|(line, kind)| (Some(line), kind))?;
    let text = expanded.as_ref().map_or(&*markdown, |e| e.text.as_str());
    let (mut summary, mut outline) = summary_and_outline(text, first_line, markup);
    if let Some(expanded) = &expanded {
        summary = expanded.fill(&summary);
        outline.shortcodes = expanded.called.iter().cloned().collect();
        outline_call_bodies(expanded, markup, &mut outline);
    }
    let after = Phase::AfterMarkdown;
    let summary = transformed(summary.into(), after, (plugins, document), &mut touched_by)?;
    if plugins.transforms(after).next().is_some() {
        let (body, _) = render_body(text, markup);
        let body = match &expanded {
            Some(expanded) => expanded.fill(&body),
            None => body,
        };
        transformed(body.into(), after, (plugins, document), &mut touched_by)?;
    }
    touched_by.sort();
    touched_by.dedup();
    Ok((summary.into_owned(), outline, touched_by))
}

/// When the document stops being published, if its front matter says: a
/// moment not after its date would never show it, which is a mistake.
fn expiry(
    fields: &Fields<'_>,
    published_at: i64,
    config: &Config,
) -> Result<Option<i64>, ParseError> {
    let Some(field) = EXPIRES.iter().find(|field| fields.get(field).is_some()) else {
        return Ok(None);
    };
    let Some((expires_at, _)) = fields.date(field, config)? else {
        return Ok(None);
    };
    if expires_at <= published_at {
        return Err(fields.problem(
            field,
            format!(
                "{field} ({}) is not after the date ({}): the document would never be shown",
                format_ms(expires_at),
                format_ms(published_at)
            ),
            format!("give {field} a later moment, or remove it to publish the document for good"),
        ));
    }
    Ok(Some(expires_at))
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

/// The 1-based line of the byte at `at`.
pub(crate) fn line_at(text: &str, at: usize) -> usize {
    memchr::memchr_iter(b'\n', &text.as_bytes()[..at]).count() + 1
}

pub(crate) fn syntax(line: Option<usize>, message: &str, help: &str) -> ParseError {
    (
        line,
        ProblemKind::Syntax {
            message: message.to_owned(),
            help: help.to_owned(),
        },
    )
}

/// The line of `field` in the front matter of a source's `bytes`: for a
/// problem found after parsing, from the record alone (a template the theme
/// lacks). Read as [`parse`] reads them, so the lines are the same.
pub fn field_line(bytes: &[u8], field: &str) -> Option<usize> {
    let text = source_text(bytes).ok()?;
    front_matter::split(&text).ok()?.line_of(field)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::Path;

    pub(crate) fn config(tz: &str) -> Config {
        Config::parse(
            &format!("title='t'\nbase_url='https://e.org'\ndefault_language='en'\ntimezone='{tz}'\n[languages.en]\nname='English'\n[languages.fr]\nname='Français'\n"),
            Path::new("site.toml"),
        )
        .unwrap()
    }

    pub(crate) fn source(rel: &str) -> Source {
        let config = config("UTC");
        let mut s = crate::source::discover::classify(rel, &config).unwrap();
        s.path = format!("content/{rel}");
        s
    }

    pub(crate) fn run(rel: &str, text: &str) -> Result<Parsed, ParseError> {
        parse_in(rel, text, "UTC")
    }

    fn parse_in(rel: &str, text: &str, tz: &str) -> Result<Parsed, ParseError> {
        parse(
            &source(rel),
            text.as_bytes(),
            crate::model::hash::source_hash(text.as_bytes()),
            (&config(tz), &Plugins::new(), &Shortcodes::default()),
        )
    }

    #[track_caller]
    pub(crate) fn field_error(
        result: Result<Parsed, ParseError>,
    ) -> (Option<usize>, String, String) {
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
        let render = (&config("UTC"), &Shortcodes::default());
        let body = body_html(text.as_bytes(), Some(parsed.body.start), plugins, render);
        let body = body.unwrap();
        assert_eq!(body, ("<p>Line one</p>\n".to_owned(), Vec::new()));
        assert_eq!(
            body_html(text.as_bytes(), None, plugins, render).unwrap(),
            body
        );
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
    fn dates_before_1970_are_refused() {
        let (_, field, message) = field_error(run(
            "en/posts/x.md",
            "---\ntitle: x\ndate: 1969-12-31\n---\n",
        ));
        assert_eq!(field, "date");
        assert!(message.contains("before 1970-01-01"), "{message}");
    }
}
