//! The sanctioned ways to change what feeds a published post's id: `folio
//! redate` (its date) and `folio move` (its slug). Each edits the source's
//! front matter (the new value, and the old URL as an alias, so the old
//! address redirects), checks that the edited file reads back as intended,
//! and moves the post's row to its new id in one transaction: the next
//! build then sees the post where it now is, and the guard that refuses an
//! unsanctioned change has nothing to refuse.

use std::fs;
use std::path::Path;

use crate::build::session::Session;
use crate::model::doc::{Kind, Record};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::url::normalize_slug;
use crate::source::config::Config;
use crate::source::dates::parse_date;
use crate::source::parse::Parsed;

impl Session {
    /// Changes the publication date of the post at `file` to `date` (as
    /// front matter writes it): the sanctioned way, which `folio redate`
    /// runs. See [`Session::amend`].
    pub fn redate(&mut self, file: &Path, date: &str) -> Result<Amendment, Error> {
        self.amend(file, Change::Date(date))
    }

    /// Changes the slug of the document at `file` to `slug`, as `folio
    /// move` does. See [`Session::amend`].
    pub fn move_to(&mut self, file: &Path, slug: &str) -> Result<Amendment, Error> {
        self.amend(file, Change::Slug(slug))
    }

    /// Makes `change` to the source at `file`, under the build lock: its
    /// front matter gets the new value (and, for a published post whose URL
    /// moves, the old URL among its aliases, which the next build turns
    /// into a redirect), after the edited file is read back and found to
    /// say what was meant; then the post's row moves to its new id in one
    /// transaction. The next build publishes it where it now is, with no
    /// guard to trip. A draft just gets the new value.
    pub fn amend(&mut self, file: &Path, change: Change<'_>) -> Result<Amendment, Error> {
        let _lock = self.lock()?;
        let site = self.shared_site();
        let (source, bytes) = site.read_source(file)?;
        let parsed = site.parse_source(&source, &bytes, file)?;
        let wanted = wanted(change, site.config()).map_err(|k| problem(file, k))?;
        let snapshot = self.read_index()?;
        let before = Before {
            parsed: &parsed,
            row: snapshot
                .records
                .iter()
                .find(|r| r.source.path == source.path),
            rows: &snapshot.records,
            wanted_ms: wanted,
        };
        let text = String::from_utf8_lossy(&bytes);
        // An edited file that does not read is folio's failure, not the
        // user's: the file on disk is as it was.
        let edit = |alias: Option<&str>| -> Result<(String, Parsed), Error> {
            let edited = edit(&text, change, &before, alias).map_err(|k| problem(file, k))?;
            let read_back = site
                .parse_source(&source, edited.as_bytes(), file)
                .map_err(|_| problem(file, cannot_edit()))?;
            Ok((edited, read_back))
        };
        let site_path = |url: &str| site.config().site_path(url).map(str::to_owned);
        let (mut edited, mut read_back) = edit(None)?;
        let published = published(&before);
        let alias = published
            .filter(|row| row.url != read_back.record.url)
            .and_then(|row| site_path(&row.url))
            // Run again, the change finds its alias already there.
            .filter(|alias| {
                !read_back
                    .record
                    .aliases
                    .iter()
                    .any(|a| site_path(a).as_ref() == Some(alias))
            });
        if alias.is_some() {
            (edited, read_back) = edit(alias.as_deref())?;
        }
        let alias = alias.or_else(|| {
            published
                .filter(|row| row.url != read_back.record.url)
                .and_then(|row| site_path(&row.url))
        });
        check_edit(
            change,
            (&parsed, &read_back),
            wanted,
            alias.as_deref(),
            site_path,
        )
        .map_err(|k| problem(file, k))?;
        replace_file(file, &edited)?;
        let new = &read_back.record;
        if let Some(row) = published.filter(|row| row.id != new.id) {
            self.index_for_change()
                .move_record(&row.id, &new.id, &new.slug, new.published_at)?;
        }
        Ok(Amendment {
            file: source.path,
            old_id: before.row.map(|row| row.id.to_string()),
            new_id: new.id.to_string(),
            old_url: before.row.map(|row| row.url.clone()),
            new_url: new.url.clone(),
            redirect_from: alias,
        })
    }
}

/// What to change.
#[derive(Debug, Clone, Copy)]
pub enum Change<'a> {
    /// The publication date, as front matter writes it.
    Date(&'a str),
    /// The slug.
    Slug(&'a str),
}

/// What a redate or a move did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Amendment {
    /// The source, relative to the site root.
    pub file: String,
    /// The id the index knew, when the post was built before.
    pub old_id: Option<String>,
    /// The id the post has now.
    pub new_id: String,
    /// The URL path before and after.
    pub old_url: Option<String>,
    /// The URL path it is published at now.
    pub new_url: String,
    /// The old URL, added to the front matter's aliases: it redirects.
    pub redirect_from: Option<String>,
}

/// Where the post stands before the change, as the index knows it.
pub(crate) struct Before<'a> {
    pub parsed: &'a Parsed,
    /// Its row, when a build recorded it.
    pub row: Option<&'a Record>,
    /// Every row, to refuse a slug another document holds.
    pub rows: &'a [Record],
    /// The instant a redate asks for.
    pub wanted_ms: Option<i64>,
}

/// Edits the front matter of `text` for `change`, adding `alias` (the old
/// URL of a published post whose URL moves) to its aliases.
pub(crate) fn edit(
    text: &str,
    change: Change<'_>,
    before: &Before<'_>,
    alias: Option<&str>,
) -> Result<String, ProblemKind> {
    let record = &before.parsed.record;
    if let (Change::Date(_), Kind::Page) = (change, record.kind) {
        return Err(refusal(
            "a page has no publication date".into(),
            "only posts are redated".into(),
        ));
    }
    if let Change::Slug(slug) = change
        && let Some(other) = before.rows.iter().find(|r| {
            r.slug == slug && r.lang == record.lang && r.source.path != record.source.path
        })
    {
        return Err(ProblemKind::DuplicateSlug {
            slug: slug.to_owned(),
            lang: record.lang.clone(),
            other: other.source.path.clone().into(),
        });
    }
    if let Change::Slug(slug) = change
        && slug != record.slug
        && slug.eq_ignore_ascii_case(&record.slug)
    {
        return Err(refusal(
            format!("`{slug}` differs from the slug `{}` only by case", record.slug),
            "a file system that ignores case would hold both pages, and the redirect, in one file: choose another slug".into(),
        ));
    }
    let mut front = FrontMatter::of(text)?;
    // Set by hand already (as the guard's refusal suggests), the value
    // stays as written: only the row moves, and the old URL redirects.
    match change {
        Change::Date(date) if !before.says(change, date) => {
            front.set("date", &front.date_value(date))
        }
        Change::Slug(slug) if !before.says(change, slug) => front.set("slug", &quoted(slug)),
        _ => {}
    }
    if let Some(alias) = alias {
        front.add_alias(alias);
    }
    Ok(front.text())
}

impl Before<'_> {
    /// Whether the file already gives `value` for the field `change` sets.
    fn says(&self, change: Change<'_>, value: &str) -> bool {
        match change {
            Change::Date(_) => self.wanted_ms == Some(self.parsed.record.published_at),
            Change::Slug(_) => self.parsed.record.slug == value,
        }
    }
}

/// The row of a post some build published (a draft now or not): the one
/// whose old URL is redirected and whose row moves.
pub(crate) fn published<'a>(before: &Before<'a>) -> Option<&'a Record> {
    before.row.filter(|row| row.ever_published)
}

/// What the change asks for, checked before anything is edited: the
/// date's instant (a date is read as front matter reads it, in the site's
/// time zone), or a slug that is already in folio's form.
pub(crate) fn wanted(change: Change<'_>, config: &Config) -> Result<Option<i64>, ProblemKind> {
    match change {
        Change::Date(date) => {
            parse_date(date, config)
                .map(|(ms, _)| Some(ms))
                .map_err(|(message, help)| {
                    refusal(
                        format!("`{date}` is not a date folio reads: {message}"),
                        help.into(),
                    )
                })
        }
        Change::Slug(slug) => match normalize_slug(slug) {
            Ok(normal) if normal == slug => Ok(None),
            Ok(normal) => Err(refusal(
                format!("`{slug}` is not a slug as folio writes them"),
                format!("did you mean `{normal}`?"),
            )),
            Err(message) => Err(refusal(
                format!("`{slug}` cannot be a slug: {message}"),
                "give lowercase words joined by `-`, such as `hello-world`".into(),
            )),
        },
    }
}

/// Checks that the edited source reads back with the change made, the
/// alias among its aliases, and nothing else of the document changed (an
/// edit in the wrong place, say inside a multi-line string, would).
pub(crate) fn check_edit(
    change: Change<'_>,
    (original, edited): (&Parsed, &Parsed),
    wanted_ms: Option<i64>,
    alias: Option<&str>,
    site_path: impl Fn(&str) -> Option<String>,
) -> Result<(), ProblemKind> {
    let record = &edited.record;
    let made = match change {
        Change::Date(_) => Some(record.published_at) == wanted_ms,
        Change::Slug(slug) => record.slug == slug,
    };
    let redirects = alias.is_none_or(|alias| {
        record
            .aliases
            .iter()
            .any(|a| site_path(a).as_deref() == Some(alias))
    });
    if made && redirects && same_but_the_id(&original.record, record) {
        return Ok(());
    }
    Err(cannot_edit())
}

/// Whether two readings of a document differ only in what a redate or a
/// move changes: the date, the slug, the URL and the aliases (and so the id).
fn same_but_the_id(before: &Record, after: &Record) -> bool {
    let mut after = after.clone();
    after.id = before.id;
    after.slug.clone_from(&before.slug);
    after.published_at = before.published_at;
    after.url.clone_from(&before.url);
    after.aliases.clone_from(&before.aliases);
    after.source = before.source.clone();
    after == *before
}

/// The refusal of an edit folio cannot make safely by itself.
pub(crate) fn cannot_edit() -> ProblemKind {
    refusal(
        "folio could not make this change to the front matter by itself (the edited file reads back otherwise); the file is unchanged".into(),
        "set the field by hand, then run this command again: it moves the post and adds the redirect".into(),
    )
}

/// Writes `text` over `file` all at once: a temp file beside it, renamed.
pub(crate) fn replace_file(file: &Path, text: &str) -> Result<(), Error> {
    let temp = crate::store::write::temp_path(file);
    let written = (|| {
        // Never through a link planted at the temp file's name.
        let mut created = crate::store::write::create_new(&temp)?;
        std::io::Write::write_all(&mut created, text.as_bytes())?;
        if let Ok(meta) = fs::metadata(file) {
            created.set_permissions(meta.permissions())?;
        }
        created.sync_all()?;
        fs::rename(&temp, file)?;
        // The rename on disk before the index moves the row to the new id.
        match file
            .parent()
            .filter(|folder| !folder.as_os_str().is_empty())
        {
            Some(folder) => fs::File::open(folder)?.sync_all(),
            None => Ok(()),
        }
    })();
    written.map_err(|e| {
        let _ = fs::remove_file(&temp);
        Error::io(file, e)
    })
}

/// The error of a change folio does not make, for `file`.
pub(crate) fn problem(file: &Path, kind: ProblemKind) -> Error {
    Error::Content(vec![Problem::new(file, None, kind)])
}

fn refusal(message: String, help: String) -> ProblemKind {
    ProblemKind::Layout { message, help }
}

/// A double-quoted string, the same in YAML and TOML (JSON's escapes).
fn quoted(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The front matter of a source as lines, edited a field at a time; the
/// body and every line not edited stay byte for byte.
struct FrontMatter<'t> {
    toml: bool,
    /// A byte order mark before the front matter, kept.
    bom: &'static str,
    /// The line ending the file uses, for the lines written.
    eol: &'static str,
    /// The opening delimiter line and everything before the body, split.
    lines: Vec<String>,
    /// Whether each line starts at the top level (TOML: not inside a
    /// multi-line string or an open array or table).
    top: Vec<bool>,
    /// Index in `lines` of the closing delimiter.
    close: usize,
    body: &'t str,
}

impl<'t> FrontMatter<'t> {
    fn of(text: &'t str) -> Result<FrontMatter<'t>, ProblemKind> {
        let (bom, text) = match text.strip_prefix('\u{feff}') {
            Some(rest) => ("\u{feff}", rest),
            None => ("", text),
        };
        let delimiter = match text.lines().next().map(str::trim_end) {
            Some("---") => "---",
            Some("+++") => "+++",
            Some(line) if line.starts_with('{') => {
                return Err(refusal(
                    "folio edits YAML and TOML front matter, not JSON".into(),
                    "set the field by hand, then run this command again: it moves the post and adds the redirect".into(),
                ));
            }
            _ => {
                return Err(refusal(
                    "the file has no YAML (`---`) or TOML (`+++`) front matter to edit".into(),
                    "add a front matter block at the top of the file".into(),
                ));
            }
        };
        let eol = if text.lines().next().is_some_and(|_| text.contains("\r\n")) {
            "\r\n"
        } else {
            "\n"
        };
        let mut lines = Vec::new();
        let mut rest = text;
        let mut close = None;
        while !rest.is_empty() {
            let end = rest.find('\n').map_or(rest.len(), |end| end + 1);
            let line = &rest[..end];
            rest = &rest[end..];
            let at = lines.len();
            lines.push(line.to_owned());
            if at > 0 && line.trim_end() == delimiter {
                close = Some(at);
                break;
            }
        }
        let close = close.ok_or_else(|| {
            refusal(
                "the front matter is not closed".into(),
                format!("end it with a `{delimiter}` line"),
            )
        })?;
        let toml = delimiter == "+++";
        let mut front = FrontMatter {
            toml,
            bom,
            eol,
            lines,
            top: Vec::new(),
            close,
            body: rest,
        };
        front.top = top_level(&front.lines, toml);
        Ok(front)
    }

    fn text(&self) -> String {
        let mut text = String::from(self.bom);
        text.push_str(&self.lines.concat());
        text.push_str(self.body);
        text
    }

    /// The line of top-level `key`, before any TOML table.
    fn find(&self, key: &str) -> Option<usize> {
        (1..self.end_of_top_level()).find(|&i| {
            let line = &self.lines[i];
            let rest = line.strip_prefix(key).unwrap_or("");
            self.top[i]
                && line.starts_with(key)
                && if self.toml {
                    rest.trim_start().starts_with('=')
                } else {
                    rest.starts_with(':')
                }
        })
    }

    /// Where keys of the top level end: a TOML table's header, or the
    /// closing delimiter.
    fn end_of_top_level(&self) -> usize {
        let tables = self.toml.then(|| {
            (1..self.close).find(|&i| self.top[i] && self.lines[i].trim_start().starts_with('['))
        });
        tables.flatten().unwrap_or(self.close)
    }

    fn line(&self, key: &str, value: &str) -> String {
        let eol = self.eol;
        if self.toml {
            format!("{key} = {value}{eol}")
        } else {
            format!("{key}: {value}{eol}")
        }
    }

    /// How `date` is written: bare when the format reads it as a date.
    fn date_value(&self, date: &str) -> String {
        let bare = if self.toml {
            date.parse::<toml::value::Datetime>().is_ok()
        } else {
            date.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-:+.".contains(c))
        };
        if bare { date.to_owned() } else { quoted(date) }
    }

    fn set(&mut self, key: &str, value: &str) {
        let line = self.line(key, value);
        match self.find(key) {
            Some(at) => self.lines[at] = line,
            None => self.insert(self.end_of_top_level(), line),
        }
    }

    fn insert(&mut self, at: usize, line: String) {
        self.lines.insert(at, line);
        self.close += 1;
        self.top = top_level(&self.lines, self.toml);
    }

    /// Adds `url` to `aliases` (or Jekyll's `redirect_from`), whichever
    /// the file has, in the form it has: `[a, b]`, a YAML block list, a
    /// TOML array over several lines, or a single value.
    fn add_alias(&mut self, url: &str) {
        let item = quoted(url);
        let Some(at) = self.find("aliases").or_else(|| self.find("redirect_from")) else {
            let line = self.line("aliases", &format!("[{item}]"));
            return self.insert(self.end_of_top_level(), line);
        };
        let line = self.lines[at].trim_end().to_owned();
        let separator = if self.toml { '=' } else { ':' };
        let (key, value) = line.split_once(separator).unwrap_or((&line, ""));
        let value = value.trim();
        if let Some(items) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            let items = match items.trim() {
                "" => item,
                items => format!("{items}, {item}"),
            };
            self.lines[at] = format!("{key}{separator} [{items}]{}", self.eol);
        } else if value == "[" {
            let end = (at + 1..self.close)
                .find(|&i| self.lines[i].trim_start().starts_with(']'))
                .unwrap_or(self.close);
            self.insert(end, format!("  {item},{}", self.eol));
        } else if value.is_empty() && !self.toml {
            let mut end = at + 1;
            while end < self.close && self.lines[end].trim_start().starts_with("- ") {
                end += 1;
            }
            let indent = self.lines[at + 1..end]
                .first()
                .map(|l| &l[..l.len() - l.trim_start().len()])
                .unwrap_or("  ")
                .to_owned();
            self.insert(end, format!("{indent}- {item}{}", self.eol));
        } else {
            self.lines[at] = format!("{key}{separator} [{value}, {item}]{}", self.eol);
        }
    }
}

/// Whether each line of a front matter starts at its top level. YAML keys
/// at the top level start at the first column, which nothing nested can;
/// in TOML a line inside a multi-line string (`"""`, `\'\'\'`) or an open
/// array or inline table is not a key's line, whatever it starts with.
fn top_level(lines: &[String], toml: bool) -> Vec<bool> {
    if !toml {
        return vec![true; lines.len()];
    }
    let mut long_string: Option<&str> = None;
    let mut depth = 0usize;
    let mut top = Vec::with_capacity(lines.len());
    for line in lines {
        top.push(long_string.is_none() && depth == 0);
        let mut rest = line.as_str();
        while !rest.is_empty() {
            if let Some(quote) = long_string {
                match rest.find(quote) {
                    Some(end) => {
                        rest = &rest[end + 3..];
                        long_string = None;
                    }
                    None => break,
                }
                continue;
            }
            let Some(c) = rest.chars().next() else { break };
            if rest.starts_with("\"\"\"") || rest.starts_with("\'\'\'") {
                long_string = Some(&rest[..3]);
                rest = &rest[3..];
                continue;
            }
            match c {
                '#' => break,
                '"' | '\'' => rest = past_string(&rest[1..], c),
                '[' | '{' => depth += 1,
                ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if !matches!(c, '"' | '\'') {
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    top
}

/// The rest of a line after a one-line string that `rest` is inside of.
fn past_string(rest: &str, quote: char) -> &str {
    let mut escaped = false;
    for (at, c) in rest.char_indices() {
        match c {
            '\\' if quote == '"' && !escaped => escaped = true,
            c if c == quote && !escaped => return &rest[at + 1..],
            _ => escaped = false,
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edited(text: &str, edit: impl FnOnce(&mut FrontMatter<'_>)) -> String {
        let mut front = FrontMatter::of(text).unwrap();
        edit(&mut front);
        front.text()
    }

    #[test]
    fn a_field_is_replaced_or_added_and_the_rest_stays_byte_for_byte() {
        let yaml = "---\ntitle: A\ndate: 2024-05-01\n---\nBody: with --- and date: x\n";
        assert_eq!(
            edited(yaml, |f| f.set("date", "2024-06-01")),
            "---\ntitle: A\ndate: 2024-06-01\n---\nBody: with --- and date: x\n"
        );
        assert_eq!(
            edited(yaml, |f| f.set("slug", "\"b\"")),
            "---\ntitle: A\ndate: 2024-05-01\nslug: \"b\"\n---\nBody: with --- and date: x\n"
        );
        // TOML keys go before the first table, or they would join it.
        let toml = "+++\ntitle = \"A\"\n[extra]\nx = 1\n+++\nBody\n";
        assert_eq!(
            edited(toml, |f| f.set("slug", "\"b\"")),
            "+++\ntitle = \"A\"\nslug = \"b\"\n[extra]\nx = 1\n+++\nBody\n"
        );
        // `dates:` is another key than `date`.
        assert_eq!(
            edited("---\ndates: x\n---\n", |f| f.set("date", "2024-06-01")),
            "---\ndates: x\ndate: 2024-06-01\n---\n"
        );
    }

    #[test]
    fn toml_keys_inside_strings_and_arrays_are_not_the_top_level() {
        let text = "+++\nsummary = \"\"\"\nIntro.\n[a link](/x/) first\ndate = 1\n\"\"\"\nmatrix = [\n  [1, 2],\n]\nnote = \"a [bracket\" # [comment\ndate = 2024-05-01\n[extra]\ndate = 3\n+++\nBody\n";
        assert_eq!(
            edited(text, |f| f.set("date", "2024-06-02")),
            text.replace("date = 2024-05-01", "date = 2024-06-02")
        );
        assert_eq!(
            edited(text, |f| f.set("slug", "\"s\"")),
            text.replace("[extra]", "slug = \"s\"\n[extra]")
        );
    }

    #[test]
    fn a_bom_crlf_lines_and_a_last_line_without_newline_are_kept() {
        let text = "\u{feff}---\r\ntitle: A\r\ndate: 2024-05-01\r\n---";
        assert_eq!(
            edited(text, |f| {
                f.set("date", "2024-06-01");
                f.add_alias("/x/");
            }),
            "\u{feff}---\r\ntitle: A\r\ndate: 2024-06-01\r\naliases: [\"/x/\"]\r\n---"
        );
        assert!(FrontMatter::of("{\"title\": \"A\"}\n").is_err());
    }

    #[test]
    fn an_alias_joins_the_list_in_the_form_the_file_has() {
        let cases = [
            ("---\nt: a\n---\n", "---\nt: a\naliases: [\"/x/\"]\n---\n"),
            ("---\naliases: []\n---\n", "---\naliases: [\"/x/\"]\n---\n"),
            (
                "---\naliases: [/a/]\n---\n",
                "---\naliases: [/a/, \"/x/\"]\n---\n",
            ),
            (
                "---\nredirect_from:\n    - /a/\n    - /b/\nt: a\n---\n",
                "---\nredirect_from:\n    - /a/\n    - /b/\n    - \"/x/\"\nt: a\n---\n",
            ),
            (
                "---\naliases: /a/\n---\n",
                "---\naliases: [/a/, \"/x/\"]\n---\n",
            ),
            (
                "+++\naliases = [\n  \"/a/\",\n]\n+++\n",
                "+++\naliases = [\n  \"/a/\",\n  \"/x/\",\n]\n+++\n",
            ),
            (
                "+++\nt = 1\n[extra]\n+++\n",
                "+++\nt = 1\naliases = [\"/x/\"]\n[extra]\n+++\n",
            ),
        ];
        for (before, after) in cases {
            assert_eq!(edited(before, |f| f.add_alias("/x/")), after, "{before}");
        }
    }

    #[test]
    fn dates_are_bare_where_the_format_reads_them_as_dates() {
        let yaml = FrontMatter::of("---\n---\n").unwrap();
        assert_eq!(
            yaml.date_value("2024-06-01T10:00:00+02:00"),
            "2024-06-01T10:00:00+02:00"
        );
        assert_eq!(yaml.date_value("June 1, 2024"), "\"June 1, 2024\"");
        let toml = FrontMatter::of("+++\n+++\n").unwrap();
        assert_eq!(toml.date_value("2024-06-01"), "2024-06-01");
        assert_eq!(toml.date_value("1 June 2024"), "\"1 June 2024\"");
        assert!(FrontMatter::of("no front matter\n").is_err());
        assert!(FrontMatter::of("---\ntitle: a\n").is_err());
    }
}
