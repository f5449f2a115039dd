//! Every way a build can fail, as typed values.
//!
//! Each error names the file it is about (and the line where it is known), says
//! what is wrong and how to fix it, in that order, so that the CLI can print it
//! as it is and an embedding program can match on it.

use std::fmt;
use std::path::PathBuf;

/// A failed build, check or lookup. Nothing was written when one is returned
/// before the write stage, which is every variant except [`Error::Io`] on an
/// output file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// `site.toml` is missing, malformed or inconsistent.
    #[error("{}", located(path, *line, message, help))]
    Config {
        /// The file it is about.
        path: PathBuf,
        /// The 1-based line, where known.
        line: Option<usize>,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// One or more sources are invalid; all of them are reported at once so a
    /// user fixes a batch instead of re-running once per mistake.
    #[error("{}", Problems(.0))]
    Content(Vec<Problem>),
    /// A config change moved the publication date, and so the id, of posts
    /// whose sources did not change. Reported once instead of once per post.
    #[error(
        "site.toml: `timezone` changed from {old} to {new}, which moves the publication date of {count} post(s) dated without an offset, for example {example}\n  \
         = why: a post's id is derived from its date, so every one of them would be published as a new post\n  \
         = help: set `timezone = \"{old}\"` back, or write the dates of those posts with an explicit offset (e.g. `2024-05-01T09:00:00+02:00`)",
        count = files.len(),
        example = files.first().map(|f| f.display().to_string()).unwrap_or_default()
    )]
    TimezoneMovedDates {
        /// The value before.
        old: String,
        /// The value now.
        new: String,
        /// The posts whose date it moves.
        files: Vec<PathBuf>,
    },
    /// A template failed to parse or render.
    #[error("{}", located(path, *line, message, "fix the template; the build wrote nothing"))]
    Template {
        /// The file it is about.
        path: PathBuf,
        /// The 1-based line, where known.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A file the build needed could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file it is about.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The SQLite index could not be opened or updated. The cause is
    /// opaque: which database library folio uses is not part of its API.
    #[error(
        "{}: the index could not be used: {source}\n  = help: if the file is damaged, move it aside and build again; folio then treats the files already in the output folder as not its own unless they hold exactly the bytes it would write",
        path.display()
    )]
    Index {
        /// The file it is about.
        path: PathBuf,
        /// The cause.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// folio's state folder, or a file or folder in it, is a symbolic
    /// link: folio never writes its state through one (a repository can
    /// commit a link there that points at any file of the user's).
    #[error(
        "{}: is a symbolic link, and folio keeps its state (index, build lock, preview) only in files and folders of its own\n  = help: remove the link (`rm {}`), not what it points to, and run folio again: it makes what it needs",
        path.display(),
        path.display()
    )]
    LinkedState {
        /// The link.
        path: PathBuf,
    },
    /// An environment variable the CLI reads holds a value it cannot use.
    #[error("{variable}: {message}\n  = help: {help}")]
    Environment {
        /// The variable's name.
        variable: &'static str,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// `folio explain` was given a path that no output of the site has.
    #[error(
        "{query}: no output of this site is written there\n  = help: name a file of the output folder, e.g. `public/fr/index.html`, `fr/index.html` or `/fr/`"
    )]
    UnknownOutput {
        /// The path or URL asked about.
        query: String,
    },
    /// The preview server could not listen where it was asked to.
    #[error(
        "{addr}: the preview server cannot listen there: {source}\n  = help: choose another port with `--port`, or `--port 0` for any free one"
    )]
    Bind {
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A plugin was registered wrongly (its name is taken), or an output
    /// plugin failed to produce its file.
    #[error("{}", located(path, None, &format!("plugin `{plugin}`: {message}"), help))]
    Plugin {
        /// The plugin's name.
        plugin: String,
        /// The output it was producing, or `(plugins)` for a registration.
        path: PathBuf,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// `folio publish` could not read the database URL, reach the
    /// database, or write to it. `database` names it without its password,
    /// and no message carries it. When some statements were sent before
    /// the publish gave up, `message` says what was and was not written.
    #[error("{database}: {message}\n  = help: {help}")]
    Publish {
        /// The database, as `postgres://user@host:port/dbname`.
        database: String,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// Another build of the same site holds the lock.
    #[error(
        "{}: another folio build of this site is running\n  = help: wait for it to finish and build again, or build without --no-wait to wait for it",
        path.display()
    )]
    Busy {
        /// The file it is about.
        path: PathBuf,
    },
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// A document the database holds under another id: see
/// [`ProblemKind::PublishedUnderAnotherId`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnotherId {
    /// The database, without its password.
    pub database: String,
    /// The language code.
    pub lang: String,
    /// The slug.
    pub slug: String,
    /// The date the database's id says.
    pub old: String,
    /// The date the file says now.
    pub new: String,
}

/// One invalid source: which file, where, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The source, relative to the site root.
    pub path: PathBuf,
    /// 1-based line in the source, where known.
    pub line: Option<usize>,
    /// What is wrong with it.
    pub kind: ProblemKind,
}

impl Problem {
    pub(crate) fn new(path: impl Into<PathBuf>, line: Option<usize>, kind: ProblemKind) -> Self {
        Problem {
            path: path.into(),
            line,
            kind,
        }
    }
}

/// What is wrong with a source.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// The file is not UTF-8 or its front matter does not parse.
    Syntax {
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// The file's place or name does not fit the content layout.
    Layout {
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// The page's URL would lead outside the output folder.
    UrlOutsideOutput {
        /// The URL.
        url: String,
    },
    /// The file changed again and again while folio read it.
    ChangedDuringBuild,
    /// A stylesheet of `sass/` (the sheet or a file it uses) does not
    /// compile.
    Stylesheet {
        /// What the compiler says is wrong.
        message: String,
        /// 1-based column of the line.
        column: usize,
    },
    /// An image the document shows cannot be read: not an image, or one
    /// folio does not read, or damaged.
    Image {
        /// The image file, relative to the site root.
        image: String,
        /// What is wrong with it.
        message: String,
    },
    /// An output folio wrote earlier stands where a page must go and cannot
    /// be removed: it changed since, or the removal failed.
    InTheWay {
        /// What is wrong.
        message: String,
    },
    /// A front matter field is missing, of the wrong type or has a bad value.
    Field {
        /// The front matter field.
        field: String,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// The file names a language that `site.toml` does not declare.
    UndeclaredLanguage {
        /// The language code.
        lang: String,
        /// The languages site.toml declares.
        declared: Vec<String>,
    },
    /// The post's (slug, lang) is indexed under another id: its date changed.
    DateChanged {
        /// The source file, as the site names it.
        file: String,
        /// The language code.
        lang: String,
        /// The value before.
        old: String,
        /// The value now.
        new: String,
    },
    /// The slug of a published post changed: a new id, a forked post.
    SlugChanged {
        /// The source file, as the site names it.
        file: String,
        /// The language code.
        lang: String,
        /// The slug before.
        old: String,
        /// The slug now.
        new: String,
    },
    /// The database `folio publish` writes to holds this document's (slug,
    /// lang) under another id: its date changed since it was published
    /// there.
    PublishedUnderAnotherId(Box<AnotherId>),
    /// Two sources claim the same (slug, lang).
    DuplicateSlug {
        /// The slug.
        slug: String,
        /// The language code.
        lang: String,
        /// The other file that claims it.
        other: PathBuf,
    },
    /// Two sources of one language share a translation key.
    DuplicateTranslation {
        /// The translation key.
        key: String,
        /// The language code.
        lang: String,
        /// The other file that claims it.
        other: PathBuf,
    },
    /// Two sources would be written to the same output file.
    OutputCollision {
        /// The output file, relative to the output folder.
        output: String,
        /// The other file that claims it.
        other: PathBuf,
    },
    /// The output file exists, differs, and folio did not write it.
    ForeignOutput {
        /// The output file, relative to the output folder.
        output: PathBuf,
    },
    /// A Markdown transform plugin failed on the file's body.
    Plugin {
        /// The plugin's name.
        plugin: String,
        /// What it said.
        message: String,
    },
    /// A shortcode's call cannot be read, names no shortcode or argument
    /// it has, or its template fails.
    Shortcode {
        /// The shortcode, when the call names one.
        name: String,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// A link to another document (`@/path.md#anchor`) leads nowhere.
    BrokenLink {
        /// The link as written.
        link: String,
        /// What is wrong.
        message: String,
        /// How to fix it.
        help: String,
    },
    /// A folder on the way to an output is a symbolic link: writing through
    /// it would write outside the output folder.
    LinkedOutputFolder {
        /// The symbolic link.
        link: PathBuf,
    },
    /// A link out of the site (`folio check --external`) that is gone, or
    /// that could not be checked this time: [`LinkAnswer::is_broken`] tells
    /// which.
    ExternalLink {
        /// The link as the pages write it.
        url: String,
        /// The pages that hold it (relative to the output folder).
        pages: Vec<String>,
        /// What asking for it gave.
        answer: LinkAnswer,
    },
}

/// What asking for a link out of the site gave, when it was not a page.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinkAnswer {
    /// An HTTP status other than a success, after following redirects.
    Status(u16),
    /// Its host name does not exist.
    NoSuchHost,
    /// Its host name could not be looked up this time (the resolver said
    /// to try again).
    LookupFailed(String),
    /// No answer within the check's timeout (`[check] timeout`).
    TimedOut {
        /// The timeout, in milliseconds.
        after_ms: u64,
    },
    /// Not asked: its host answered another link 429 Too Many Requests in
    /// this check, and asking on would only prolong the limit.
    NotAsked,
    /// The exchange failed: the connection was refused or reset, TLS
    /// failed, redirects went round.
    Failed(String),
    /// It is not a URL a browser can follow.
    Invalid(String),
}

impl LinkAnswer {
    /// Whether the link is gone (404 Not Found, 410 Gone, a host that does
    /// not exist, not a URL), which fails the check; any other answer may
    /// change by itself, and is a warning.
    pub fn is_broken(&self) -> bool {
        matches!(
            self,
            LinkAnswer::Status(404 | 410) | LinkAnswer::NoSuchHost | LinkAnswer::Invalid(_)
        )
    }

    /// The problem of a link to `url` on `pages` that answered this.
    fn said(&self, f: &mut fmt::Formatter<'_>, url: &str, pages: &[String]) -> fmt::Result {
        let (what, help) = self.explained();
        write!(
            f,
            "links to {url} (on {}), which {what}\n  = help: {help}",
            some_pages(pages)
        )
    }

    /// What it says, after "which", and how to fix it.
    fn explained(&self) -> (String, &'static str) {
        const AGAIN: &str = "it is asked again at the next check";
        match self {
            LinkAnswer::Status(code @ (404 | 410)) => (
                format!(
                    "answers HTTP {code} ({})",
                    if *code == 404 { "not found" } else { "gone" }
                ),
                "fix the link or remove it; a page gone for good may be kept at web.archive.org",
            ),
            LinkAnswer::Status(429) => (
                "answered HTTP 429 (too many requests)".into(),
                "it is asked again at the next check; a host that always limits can be left alone with `[check] skip_prefixes` in site.toml",
            ),
            LinkAnswer::Status(code @ 500..=599) => (
                format!("answered HTTP {code}, an error of its server"),
                AGAIN,
            ),
            LinkAnswer::Status(code) => (
                format!("answers HTTP {code}"),
                "open it in a browser: a site may refuse programs (403) or want a login (401); if it works there, leave it alone with `[check] skip_prefixes` in site.toml",
            ),
            LinkAnswer::NoSuchHost => (
                "names a host that does not exist".into(),
                "fix the host's name, or remove the link",
            ),
            LinkAnswer::LookupFailed(why) => (
                format!("names a host that could not be looked up: {why}"),
                AGAIN,
            ),
            LinkAnswer::TimedOut { after_ms } => (
                format!("did not answer within {} s", *after_ms as f64 / 1000.0),
                "it is asked again at the next check; `[check] timeout` in site.toml gives slow hosts longer",
            ),
            LinkAnswer::NotAsked => (
                "was not asked for: its host answered another link HTTP 429 (too many requests)"
                    .into(),
                AGAIN,
            ),
            LinkAnswer::Failed(why) => (format!("could not be fetched: {why}"), AGAIN),
            LinkAnswer::Invalid(why) => (
                format!("is not a URL a browser can follow: {why}"),
                "fix the link",
            ),
        }
    }
}

/// `pages` as a message names them: the first three, and how many more.
fn some_pages(pages: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut named = pages
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if pages.len() > SHOWN {
        named.push_str(&format!(" and {} more", pages.len() - SHOWN));
    }
    named
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProblemKind::Syntax { message, help } | ProblemKind::Layout { message, help } => {
                write!(f, "{message}\n  = help: {help}")
            }
            ProblemKind::UrlOutsideOutput { url } => write!(
                f,
                "its URL {url} would lead outside the output folder\n  = help: change its `slug`"
            ),
            ProblemKind::Plugin { plugin, message } => write!(
                f,
                "the plugin `{plugin}` failed on its body: {message}\n  = help: fix what the plugin points at in the file, or the plugin"
            ),
            ProblemKind::Stylesheet { message, column } => write!(
                f,
                "column {column}: {message}\n  = help: fix the stylesheet (grass compiles it by Dart Sass's rules); its CSS was not written"
            ),
            ProblemKind::Image { image, message } => write!(
                f,
                "the image {image} it shows cannot be read: {message}\n  = help: save it again as a JPEG, PNG, WebP or GIF image, or show another"
            ),
            ProblemKind::ChangedDuringBuild => write!(
                f,
                "the file kept changing while folio built\n  = help: build again once it is saved"
            ),
            ProblemKind::InTheWay { message } => write!(
                f,
                "{message}, in the way of a page folio must write there\n  = help: move or delete it, then build again"
            ),
            ProblemKind::Field {
                field,
                message,
                help,
            } => write!(f, "field `{field}`: {message}\n  = help: {help}"),
            ProblemKind::UndeclaredLanguage { lang, declared } => write!(
                f,
                "language `{lang}` is not declared in site.toml (declared: {})\n  = help: add a `[languages.{lang}]` table to site.toml, or move the file under a declared language",
                declared.join(", ")
            ),
            ProblemKind::DateChanged {
                file,
                lang,
                old,
                new,
            } => date_changed(f, file, lang, (old, new)),
            ProblemKind::SlugChanged {
                file,
                lang,
                old,
                new,
            } => slug_changed(f, file, lang, (old, new)),
            ProblemKind::PublishedUnderAnotherId(another) => published_under_another_id(f, another),
            ProblemKind::DuplicateSlug { slug, lang, other } => write!(
                f,
                "slug `{slug}` ({lang}) is also claimed by {}\n  = help: give one of the two files another `slug`, or delete one",
                other.display()
            ),
            ProblemKind::DuplicateTranslation { key, lang, other } => write!(
                f,
                "translation key `{key}` ({lang}) is also used by {}\n  = help: a language has one version of each translated document; change `translation_key` in one of the two files",
                other.display()
            ),
            ProblemKind::OutputCollision { output, other } => write!(
                f,
                "would be written to {output}, which {} also produces\n  = help: change the `slug` or the file name of one of them",
                other.display()
            ),
            ProblemKind::ForeignOutput { output } => write!(
                f,
                "would overwrite {}, a different file that folio did not write\n  = help: move that file away, or build into another output folder",
                output.display()
            ),
            ProblemKind::Shortcode {
                name,
                message,
                help,
            } if name.is_empty() => write!(f, "{message}\n  = help: {help}"),
            ProblemKind::Shortcode {
                name,
                message,
                help,
            } => write!(f, "shortcode `{name}`: {message}\n  = help: {help}"),
            ProblemKind::BrokenLink {
                link,
                message,
                help,
            } => write!(
                f,
                "the link `{link}` leads nowhere: {message}\n  = help: {help}"
            ),
            ProblemKind::LinkedOutputFolder { link } => write!(
                f,
                "{} is a symbolic link, and folio writes only inside the output folder\n  = help: replace the link by a folder, or build into another output folder",
                link.display()
            ),
            ProblemKind::ExternalLink { url, pages, answer } => answer.said(f, url, pages),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.kind),
            None => write!(f, "{}: {}", self.path.display(), self.kind),
        }
    }
}

struct Problems<'a>(&'a [Problem]);

impl fmt::Display for Problems<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{problem}")?;
        }
        if self.0.len() > 1 {
            write!(f, "\n{} problems; the build wrote nothing", self.0.len())?;
        }
        Ok(())
    }
}

fn published_under_another_id(f: &mut fmt::Formatter<'_>, another: &AnotherId) -> fmt::Result {
    let AnotherId {
        database,
        lang,
        slug,
        old,
        new,
    } = another;
    write!(
        f,
        "{database} holds a post at ({lang}, slug `{slug}`) published {old}, and this file, dated {new}, has that slug: its date changed, or it took another post's slug\n  \
                 = why: a post's id is derived from its slug, language and date; publishing this file would replace the database's row with a post of another id, which its readers (feeds, links, comments keyed by id) take for a new post\n  \
                 = help: put `date` back to {old} (or `slug` back, if this post took it); or, if the change is meant (`folio redate` or `folio move` made it, or the post was never read from there), run `folio publish --accept-id-changes`, which deletes the old row and writes the new one; nothing was written"
    )
}

fn date_changed(
    f: &mut fmt::Formatter<'_>,
    file: &str,
    lang: &str,
    (old, new): (&str, &str),
) -> fmt::Result {
    write!(
        f,
        "the publication date of this post ({lang}) changed from {old} to {new}\n  \
         = why: a post's id (and its feed entry id) is derived from its slug, language and date; a new date would publish it as a different post and orphan the old one\n  \
         = help: to move the post to its new date, run `folio redate {file} {new}` (it keeps the date as written and moves the post; its old URL, if it changes, redirects to the new one); \
         or put `date` back to {old} and record the change in `updated`; \
         or, if the old date was never published, run `folio build --accept-id-changes`"
    )
}

fn slug_changed(
    f: &mut fmt::Formatter<'_>,
    file: &str,
    lang: &str,
    (old, new): (&str, &str),
) -> fmt::Result {
    write!(
        f,
        "the slug of this published post ({lang}) changed from `{old}` to `{new}`\n  \
         = why: a post's id (and its feed entry id) is derived from its slug, language and date; a new slug would publish it as a different post, shown again as new in every feed reader\n  \
         = help: to rename it, run `folio move {file} {new}` (it keeps the slug as written and moves the post; its old URL redirects to the new one); or put `slug` back to `{old}`; \
         or, if it was never published, run `folio build --accept-id-changes`"
    )
}

fn located(path: &std::path::Path, line: Option<usize>, message: &str, help: &str) -> String {
    match line {
        Some(line) => format!("{}:{line}: {message}\n  = help: {help}", path.display()),
        None => format!("{}: {message}\n  = help: {help}", path.display()),
    }
}
