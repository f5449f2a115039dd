//! Starting things: a site that builds at once (`folio init`) and a post
//! with its front matter written (`folio new post`). Neither writes over a
//! file: what is there is the author's.

use std::fs;
use std::io::Write as _;
use std::path::Path;

use jiff::Timestamp;

use crate::build::site::Site;
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::url::{heading_id, normalize_slug};
use crate::source::config::{CONFIG_FILE, Config};
use crate::source::discover::CONTENT_DIR;

/// What `.gitignore` keeps out of version control: the output and
/// folio's state (the index, the preview).
const IGNORED: &[&str] = &["/public/", "/.folio/"];

/// A post to start ([`Site::new_post`]).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct NewPost<'a> {
    /// Its title, from which its slug is made.
    pub title: &'a str,
    /// The site's default language when `None`.
    pub lang: Option<&'a str>,
    /// The first of `post_sections` when `None`.
    pub section: Option<&'a str>,
    /// A post of the site this one translates: it shares its date and
    /// translation key.
    pub translation_of: Option<&'a Path>,
}

impl<'a> NewPost<'a> {
    /// A post titled `title`, in the default language and first posts
    /// section.
    pub fn new(title: &'a str) -> NewPost<'a> {
        NewPost {
            title,
            lang: None,
            section: None,
            translation_of: None,
        }
    }
}

impl Site {
    /// Starts a site in `dir` (made if missing) that builds at once: a
    /// `site.toml` of one language, a first post dated `now_ms`, and the
    /// output and state folders in `.gitignore` (added to one that is
    /// there). Writes nothing if `site.toml` or the first post is there.
    /// Returns the files written, relative to `dir`.
    pub fn init(dir: &Path, now_ms: i64) -> Result<Vec<String>, Error> {
        let post = format!("{CONTENT_DIR}/posts/hello-world.md");
        for taken in [CONFIG_FILE, post.as_str()] {
            if dir.join(taken).exists() {
                return Err(refused(
                    &dir.join(taken),
                    format!("{taken} is already there"),
                    "folio init starts a site in a folder without one: pick another folder".into(),
                ));
            }
        }
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        // Named after its folder, `.` included: what a reader sees first,
        // and the author changes.
        let title = dir
            .canonicalize()
            .ok()
            .and_then(|dir| {
                dir.file_name()
                    .map(|name| name.to_string_lossy().into_owned())
            })
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "My blog".to_owned());
        let config = format!(
            "title = {}\n# Where the site is published: every absolute link starts with it.\nbase_url = \"https://example.org\"\n",
            toml_string(&title)
        );
        let date = Timestamp::from_millisecond(now_ms)
            .map(|t| t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string())
            .unwrap_or_else(|_| "2026-01-01".to_owned());
        let first_post = format!(
            "---\ntitle: Hello, world\ndate: {date}\ntags: [hello]\n---\nThe first post of {title}. Its summary is this first paragraph.\n\nWrite the next one with `folio new post \"Its title\"`.\n"
        );
        write_new(&dir.join(CONFIG_FILE), &config)?;
        write_new(&dir.join(&post), &first_post)?;
        let mut written = vec![CONFIG_FILE.to_owned(), post];
        if add_ignored(&dir.join(".gitignore"))? {
            written.push(".gitignore".to_owned());
        }
        Ok(written)
    }

    /// Writes the source of a new post, a draft, with its front matter: the
    /// title, the slug made from it by the rule of heading ids (`Hello,
    /// World!` → `hello-world`), the date `now_ms` in the site's time zone
    /// (or the date of the post it translates), and the translation key it
    /// shares. Returns its path, relative to the site root; refuses a
    /// language or section the site does not have and a file that is there.
    pub fn new_post(&self, post: &NewPost<'_>, now_ms: i64) -> Result<String, Error> {
        let config = self.config();
        let lang = post.lang.unwrap_or(&config.default_language);
        if !config.is_language(lang) {
            return Err(refused(
                &self.root().join(CONFIG_FILE),
                format!("`{lang}` is not a language of this site"),
                format!(
                    "pass one of {}, or declare it with a `[languages.{lang}]` table",
                    config.language_codes().join(", ")
                ),
            ));
        }
        let section = post.section.unwrap_or(&config.post_sections[0]);
        if !config.is_post_section(section) {
            return Err(refused(
                &self.root().join(CONFIG_FILE),
                format!("`{section}` is not a folder of posts"),
                format!(
                    "pass one of {}, or add it to post_sections in site.toml",
                    config.post_sections.join(", ")
                ),
            ));
        }
        let slug = normalize_slug(&heading_id(post.title)).map_err(|why| {
            refused(
                Path::new(post.title),
                format!("the slug made from this title {why}"),
                "give the post a title with letters or digits".into(),
            )
        })?;
        let (date, key) = match post.translation_of {
            Some(original) => {
                let (source, bytes) = self.read_source(original)?;
                let record = self.parse_source(&source, &bytes, original)?.record;
                (
                    format_date(config, record.published_at),
                    Some(record.translation_key),
                )
            }
            None => (format_date(config, now_ms), None),
        };
        let rel = self.post_path(lang, section, &slug);
        let mut text = format!(
            "---\ntitle: {}\ndate: {date}\ndraft: true\n",
            yaml_string(post.title)
        );
        if let Some(key) = key {
            text.push_str(&format!("translation_key: {}\n", yaml_string(&key)));
        }
        text.push_str("---\n\n");
        write_new(&self.root().join(&rel), &text)?;
        Ok(rel)
    }

    /// Where a new post of `lang` goes: in the language's folder when the
    /// site has one or `lang` is not the default language, else straight
    /// under `content/`.
    fn post_path(&self, lang: &str, section: &str, slug: &str) -> String {
        let config = self.config();
        let in_language_folder =
            lang != config.default_language || self.root().join(CONTENT_DIR).join(lang).is_dir();
        if in_language_folder {
            format!("{CONTENT_DIR}/{lang}/{section}/{slug}.md")
        } else {
            format!("{CONTENT_DIR}/{section}/{slug}.md")
        }
    }
}

/// `ms` as front matter writes a date: RFC 3339 with the offset of the
/// site's time zone.
fn format_date(config: &Config, ms: i64) -> String {
    Timestamp::from_millisecond(ms)
        .unwrap_or(Timestamp::UNIX_EPOCH)
        .to_zoned_datetime(config.timezone.clone())
        .strftime("%Y-%m-%dT%H:%M:%S%:z")
        .to_string()
}

/// Creates `path` (and its folders) with `text`, refusing one that is there.
fn write_new(path: &Path, text: &str) -> Result<(), Error> {
    if let Some(folder) = path.parent() {
        fs::create_dir_all(folder).map_err(|e| Error::io(folder, e))?;
    }
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => refused(
                path,
                "is already there".into(),
                "folio writes no file over another: move it away, or pick another title".into(),
            ),
            _ => Error::io(path, e),
        })?;
    file.write_all(text.as_bytes())
        .map_err(|e| Error::io(path, e))
}

/// Adds the lines of [`IGNORED`] that `path` lacks (making it when there
/// is none); whether it wrote.
fn add_ignored(path: &Path) -> Result<bool, Error> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::io(path, e)),
    };
    let missing: Vec<&str> = IGNORED
        .iter()
        .copied()
        .filter(|line| !text.lines().any(|have| have.trim() == *line))
        .collect();
    if missing.is_empty() {
        return Ok(false);
    }
    let mut added = String::new();
    if !text.is_empty() && !text.ends_with('\n') {
        added.push('\n');
    }
    for line in missing {
        added.push_str(line);
        added.push('\n');
    }
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    file.write_all(added.as_bytes())
        .map_err(|e| Error::io(path, e))?;
    Ok(true)
}

fn refused(path: &Path, message: String, help: String) -> Error {
    Error::Content(vec![Problem::new(
        path,
        None,
        ProblemKind::Layout { message, help },
    )])
}

/// `text` as a YAML string in single quotes, which escape nothing but
/// themselves.
fn yaml_string(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_767_225_600_000;

    #[test]
    fn a_new_site_builds_at_once_and_is_never_started_twice() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("my-blog");
        let written = Site::init(&root, NOW).unwrap();
        assert_eq!(
            written,
            ["site.toml", "content/posts/hello-world.md", ".gitignore"]
        );
        let site = Site::open(&root).unwrap();
        assert_eq!(site.config().title, "my-blog");
        let report = site.build(&crate::BuildOptions::new(NOW)).unwrap();
        assert!(
            report
                .written
                .iter()
                .any(|p| p == "posts/hello-world/index.html")
        );
        let again = Site::init(&root, NOW).unwrap_err().to_string();
        assert!(again.contains("site.toml is already there"), "{again}");
        assert_eq!(
            fs::read_to_string(root.join(".gitignore")).unwrap(),
            "/public/\n/.folio/\n"
        );
    }

    #[test]
    fn gitignore_gets_only_the_lines_it_lacks() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(".gitignore"), "target\n/.folio/").unwrap();
        Site::init(dir.path(), NOW).unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join(".gitignore")).unwrap(),
            "target\n/.folio/\n/public/\n"
        );
    }

    #[test]
    fn quoting_keeps_what_a_title_holds() {
        assert_eq!(yaml_string("Don't: #1"), "'Don''t: #1'");
        let line = format!("title = {}", toml_string("a \"b\" 'c'"));
        let read: toml::Table = toml::from_str(&line).unwrap();
        assert_eq!(read["title"].as_str(), Some("a \"b\" 'c'"));
    }
}
