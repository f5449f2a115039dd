//! The sanctioned ways to change what feeds a published post's id: `folio
//! redate` (its date) and `folio move` (its slug). Each edits the source's
//! front matter (the new value, and the old URL as an alias, so the old
//! address redirects), checks that the edited file reads back as intended,
//! and moves the post's row to its new id in one transaction: the next
//! build then sees the post where it now is, and the guard that refuses an
//! unsanctioned change has nothing to refuse.

use std::fs;
use std::path::Path;

use crate::config::Config;
use crate::doc::{Kind, Record};
use crate::error::{Error, Problem, ProblemKind};
use crate::parse::{Parsed, parse_date};
use crate::url::normalize_slug;

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
    let mut front = FrontMatter::of(text)?;
    match change {
        Change::Date(date) => front.set("date", &front.date_value(date)),
        Change::Slug(slug) => front.set("slug", &quoted(slug)),
    }
    if let Some(alias) = alias {
        front.add_alias(alias);
    }
    Ok(front.text())
}

/// The row of a published post (not a draft, then or now): the one whose
/// old URL is redirected and whose row moves.
pub(crate) fn published<'a>(before: &Before<'a>) -> Option<&'a Record> {
    before
        .row
        .filter(|row| !row.draft && !before.parsed.record.draft)
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

/// Checks that the edited source reads back with the change made.
pub(crate) fn check_edit(
    change: Change<'_>,
    edited: &Parsed,
    wanted_ms: Option<i64>,
    alias: Option<&str>,
) -> Result<(), ProblemKind> {
    let record = &edited.record;
    let made = match change {
        Change::Date(_) => Some(record.published_at) == wanted_ms,
        Change::Slug(slug) => record.slug == slug,
    };
    let redirects = alias.is_none_or(|alias| record.aliases.iter().any(|a| a.ends_with(alias)));
    if made && redirects {
        return Ok(());
    }
    Err(refusal(
        "folio could not make this change to the front matter by itself (it reads back otherwise)".into(),
        "make it by hand: set the field, add the old URL to `aliases`, then run `folio build --accept-id-changes`".into(),
    ))
}

/// Writes `text` over `file` all at once: a temp file beside it, renamed.
pub(crate) fn replace_file(file: &Path, text: &str) -> Result<(), Error> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = file.with_file_name(format!(".{name}.folio-tmp"));
    let written = fs::write(&temp, text).and_then(|()| {
        if let Ok(meta) = fs::metadata(file) {
            fs::set_permissions(&temp, meta.permissions())?;
        }
        fs::File::open(&temp)?.sync_all()?;
        fs::rename(&temp, file)
    });
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
    /// The opening delimiter line and everything before the body, split.
    lines: Vec<String>,
    /// Index in `lines` of the closing delimiter.
    close: usize,
    body: &'t str,
}

impl<'t> FrontMatter<'t> {
    fn of(text: &'t str) -> Result<FrontMatter<'t>, ProblemKind> {
        let delimiter = match text.lines().next().map(str::trim_end) {
            Some("---") => "---",
            Some("+++") => "+++",
            _ => {
                return Err(refusal(
                    "the file has no YAML (`---`) or TOML (`+++`) front matter to edit".into(),
                    "add a front matter block at the top of the file".into(),
                ));
            }
        };
        let mut lines = Vec::new();
        let mut rest = text;
        let mut close = None;
        while let Some(end) = rest.find('\n') {
            let line = &rest[..=end];
            rest = &rest[end + 1..];
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
        Ok(FrontMatter {
            toml: delimiter == "+++",
            lines,
            close,
            body: rest,
        })
    }

    fn text(&self) -> String {
        let mut text = self.lines.concat();
        text.push_str(self.body);
        text
    }

    /// The line of top-level `key`, before any TOML table.
    fn find(&self, key: &str) -> Option<usize> {
        (1..self.end_of_top_level()).find(|&i| {
            let line = &self.lines[i];
            let rest = line.strip_prefix(key).unwrap_or("");
            line.starts_with(key)
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
        let tables = self
            .toml
            .then(|| (1..self.close).find(|&i| self.lines[i].trim_start().starts_with('[')));
        tables.flatten().unwrap_or(self.close)
    }

    fn line(&self, key: &str, value: &str) -> String {
        if self.toml {
            format!("{key} = {value}\n")
        } else {
            format!("{key}: {value}\n")
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
            self.lines[at] = format!("{key}{separator} [{items}]\n");
        } else if value == "[" {
            let end = (at + 1..self.close)
                .find(|&i| self.lines[i].trim_start().starts_with(']'))
                .unwrap_or(self.close);
            self.insert(end, format!("  {item},\n"));
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
            self.insert(end, format!("{indent}- {item}\n"));
        } else {
            self.lines[at] = format!("{key}{separator} [{value}, {item}]\n");
        }
    }
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
