//! Walks `content/` and says, for every source, what it is and whether it
//! must be read.
//!
//! Owns the content layout (which language and section a file belongs to) and
//! the stat fast path: a file whose size and mtime match the index, and whose
//! mtime is older than this build's start, keeps its stored hash without being
//! opened. The start is the mtime of the lock file this build just wrote, so it
//! comes from the file system's own clock, the one that stamped the sources.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use unicode_normalization::UnicodeNormalization;
use walkdir::WalkDir;

use crate::model::doc::{Kind, Source, Stat};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::source::bundle::{self, ContentFile};
use crate::source::config::{self, Config};

pub const CONTENT_DIR: &str = "content";
pub const STATIC_DIR: &str = "static";

/// Stats and reads files by their path relative to one folder opened once:
/// the kernel then resolves only the relative part of each path, which is
/// most of what a stat costs when tens of thousands of them run per build.
pub struct FilesAt {
    dir: PathBuf,
    #[cfg(unix)]
    fd: Option<rustix::fd::OwnedFd>,
}

impl FilesAt {
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn new(dir: &Path) -> FilesAt {
        FilesAt {
            dir: dir.to_owned(),
            #[cfg(unix)]
            fd: rustix::fs::open(
                dir,
                rustix::fs::OFlags::RDONLY
                    | rustix::fs::OFlags::DIRECTORY
                    | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )
            .ok(),
        }
    }

    /// The stat of `rel` (a path under the folder) and whether it is a
    /// regular file; `follow` decides whether a symlink is followed.
    pub fn stat(&self, rel: &Path, follow: bool) -> std::io::Result<(Stat, bool)> {
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            use rustix::fs::{AtFlags, FileType};
            let flags = if follow {
                AtFlags::empty()
            } else {
                AtFlags::SYMLINK_NOFOLLOW
            };
            let st = rustix::fs::statat(fd, rel, flags)?;
            let stat = Stat {
                size: st.st_size as u64,
                mtime_ns: (st.st_mtime as i64)
                    .saturating_mul(1_000_000_000)
                    .saturating_add(st.st_mtime_nsec as i64),
            };
            let is_file = FileType::from_raw_mode(st.st_mode) == FileType::RegularFile;
            return Ok((stat, is_file));
        }
        let path = self.dir.join(rel);
        let meta = if follow {
            std::fs::metadata(path)?
        } else {
            std::fs::symlink_metadata(path)?
        };
        Ok((Stat::of(&meta), meta.is_file()))
    }

    /// The bytes of `rel` (a path under the folder), expected to be `size`
    /// long. One read asks for a byte more than that: getting exactly `size`
    /// is taken as the end of the file, without the stat and the second read
    /// that `fs::read` spends on each of tens of thousands of sources. A file
    /// of another size is read on to its end. (A file that grew since its
    /// stat, read short at exactly its old size, would be cut there; its new
    /// stat has the next build read it again.)
    pub fn read(&self, rel: &str, size: u64) -> std::io::Result<Vec<u8>> {
        self.read_first(rel, size, MAX_FIRST_READ)
    }

    fn read_first(&self, rel: &str, size: u64, most: usize) -> std::io::Result<Vec<u8>> {
        use std::io::Read as _;
        let mut file = self.open(rel)?;
        let size = usize::try_from(size).unwrap_or(usize::MAX);
        let asked = size.saturating_add(1).min(most);
        let mut bytes = Vec::with_capacity(asked);
        let got = read_once(&file, &mut bytes)?;
        // Only a read shorter than asked can be the end of the file.
        if got != size || got == asked {
            file.read_to_end(&mut bytes)?;
        }
        Ok(bytes)
    }

    fn open(&self, rel: &str) -> std::io::Result<std::fs::File> {
        #[cfg(unix)]
        if let Some(fd) = &self.fd {
            use rustix::fs::{Mode, OFlags};
            let file =
                rustix::fs::openat(fd, rel, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty())?;
            return Ok(std::fs::File::from(file));
        }
        std::fs::File::open(self.dir.join(rel))
    }
}

/// One read into the spare capacity of `bytes`, which grows by what it got.
/// The buffer is not zeroed first: zeroing every source, twice in a cold
/// build, was 2% of its instructions.
fn read_once(file: &std::fs::File, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    #[cfg(unix)]
    loop {
        match rustix::io::read(file, rustix::buffer::spare_capacity(bytes)) {
            Err(rustix::io::Errno::INTR) => continue,
            other => return other.map_err(Into::into),
        }
    }
    #[cfg(not(unix))]
    {
        use std::io::Read as _;
        let start = bytes.len();
        bytes.resize(bytes.capacity(), 0);
        let got = loop {
            match (&*file).read(&mut bytes[start..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        bytes.truncate(start + *got.as_ref().unwrap_or(&0));
        got
    }
}

/// The most a first read of a source asks for: a size from a stale stat must
/// not make folio allocate gigabytes up front.
const MAX_FIRST_READ: usize = 64 << 20;

/// A file found by [`walk`].
pub struct Walked {
    pub path: PathBuf,
    /// Relative to the walked folder, `/`-separated; `None` when the name is
    /// not UTF-8 (each caller has its own answer to that).
    pub rel: Option<String>,
    pub stat: Stat,
}

/// Every file under `dir` with its stat, sorted by path; hidden names (a
/// leading dot) are skipped at any depth, except the top-level folders
/// named in `hidden_kept`. Listing a folder is cheap and stays on one
/// thread; the stats, one system call per file, run in parallel. An absent
/// folder has no files.
pub fn walk(dir: &Path, hidden_kept: &[&str]) -> Result<Vec<Walked>, Error> {
    walk_with_links(dir, hidden_kept).map(|(files, _)| files)
}

/// [`walk`], and the symbolic links it did not follow, sorted.
fn walk_with_links(dir: &Path, hidden_kept: &[&str]) -> Result<(Vec<Walked>, Vec<PathBuf>), Error> {
    if !dir.is_dir() {
        return Ok((Vec::new(), Vec::new()));
    }
    let shown = |e: &walkdir::DirEntry| {
        let name = e.file_name().as_encoded_bytes();
        e.depth() == 0
            || !name.starts_with(b".")
            || (e.depth() == 1
                && e.file_type().is_dir()
                && hidden_kept.iter().any(|kept| kept.as_bytes() == name))
    };
    let walker = WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(shown);
    let mut files = Vec::new();
    let mut links = Vec::new();
    for entry in walker {
        let entry = entry.map_err(|e| {
            let path = e
                .path()
                .map(Path::to_owned)
                .unwrap_or_else(|| dir.to_owned());
            Error::io(path, e.into())
        })?;
        if entry.file_type().is_file() {
            files.push(entry.into_path());
        } else if entry.file_type().is_symlink() {
            links.push(entry.into_path());
        }
    }
    let at = FilesAt::new(dir);
    let files = files
        .into_par_iter()
        .map(|path| {
            let relative = path.strip_prefix(dir).unwrap_or(&path);
            let stat = at
                .stat(relative, false)
                .map(|(stat, _)| stat)
                .map_err(|e| Error::io(&path, e))?;
            // `/`-separated on every system; a backslash is part of a name
            // except where it separates folders.
            let rel = relative.to_str().map(|p| {
                if cfg!(windows) {
                    p.replace('\\', "/")
                } else {
                    p.to_owned()
                }
            });
            Ok(Walked { stat, rel, path })
        })
        .collect::<Result<_, Error>>()?;
    Ok((files, links))
}

/// What a walk of `content/` found.
pub struct Discovered {
    /// In walk order.
    pub sources: Vec<Source>,
    /// The files that are no source, in walk order: a bundle's are copied.
    pub files: Vec<ContentFile>,
    /// Sources whose place or name is wrong.
    pub problems: Vec<Problem>,
}

/// Walks `<root>/content` in a stable order. Problems (an undeclared language,
/// a file name that is not UTF-8) are collected, not returned early, so a user
/// sees them all at once.
pub fn discover(root: &Path, config: &Config) -> Result<Discovered, Error> {
    let (files, links) = walk_with_links(&root.join(CONTENT_DIR), &[])?;
    let (files, others): (Vec<Walked>, Vec<Walked>) =
        files.into_iter().partition(|file| is_markdown(&file.path));
    // A name that is not UTF-8 could be no part of a URL; such a file was
    // never read, and a bundle leaves it out too.
    let others = others
        .into_iter()
        .filter_map(|file| {
            Some(ContentFile {
                path: format!("{CONTENT_DIR}/{}", file.rel?),
                stat: file.stat,
            })
        })
        .collect();
    let found: Vec<Result<Source, Box<Problem>>> = files
        .into_par_iter()
        .map(|file| {
            let shown = || relative(root, &file.path);
            let Some(rel) = &file.rel else {
                return Err(Box::new(Problem::new(
                    shown(),
                    None,
                    ProblemKind::Layout {
                        message: "the file name is not valid UTF-8".into(),
                        help: "rename the file; its name becomes part of a URL".into(),
                    },
                )));
            };
            let mut source = classify(rel, config)
                .map_err(|kind| Box::new(Problem::new(shown(), None, kind)))?;
            source.path = format!("{CONTENT_DIR}/{rel}");
            source.stat = file.stat;
            Ok(source)
        })
        .collect();
    let mut sources = Vec::with_capacity(found.len());
    let mut problems: Vec<Problem> = links
        .iter()
        .filter_map(|link| linked_source(root, link))
        .collect();
    for result in found {
        match result {
            Ok(source) => sources.push(source),
            Err(problem) => problems.push(*problem),
        }
    }
    Ok(Discovered {
        sources,
        files: others,
        problems,
    })
}

/// The problem of a symbolic link in `content/` that could stand for
/// sources: folio does not follow one, since it could lead out of the site
/// (and publish what it finds there) or around in a loop. A link to any
/// other file (an image in a bundle) is not followed either, and so not
/// copied, but it is no error: `static/` skips links the same way.
fn linked_source(root: &Path, link: &Path) -> Option<Problem> {
    let to_other_file = std::fs::metadata(link).is_ok_and(|meta| meta.is_file());
    if to_other_file && !is_markdown(link) {
        return None;
    }
    let target = std::fs::read_link(link).unwrap_or_default();
    Some(Problem::new(
        relative(root, link),
        None,
        ProblemKind::Layout {
            message: format!(
                "is a symbolic link (to {}); folio reads no link in content/, which could lead out of the site or around in a loop",
                target.display()
            ),
            help: "put the file or folder itself here, or delete the link".into(),
        },
    ))
}

/// A file of `static/`, copied as it is to the same path in the output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaticFile {
    /// Relative to `static/`, `/`-separated: also its output path.
    pub rel: String,
    pub stat: Stat,
    /// The folder it is in, relative to the site root, when that is not
    /// the site's own `static/`: its theme's.
    pub theme_dir: Option<String>,
}

impl StaticFile {
    /// Relative to the site root.
    pub fn source_path(&self) -> String {
        match &self.theme_dir {
            Some(theme) => format!("{theme}/{STATIC_DIR}/{}", self.rel),
            None => format!("{STATIC_DIR}/{}", self.rel),
        }
    }
}

/// Hidden folders of `static/` that are copied all the same: sites need
/// `.well-known/` for ACME challenges, `security.txt` and app links.
pub const PUBLISHED_HIDDEN: &[&str] = &[".well-known"];

/// Walks `<root>/static` in a stable order. Hidden files are skipped (an
/// editor's `.swp`, a `.DS_Store`), except under [`PUBLISHED_HIDDEN`].
/// With a theme (`theme_dir`), its static files join the site's, in the
/// one walk order, but for those the site's own `static/` has at the same
/// path, which win.
pub fn discover_static(root: &Path, theme_dir: Option<&str>) -> Result<Vec<StaticFile>, Error> {
    let own = static_files(root, None)?;
    let Some(theme) = theme_dir else {
        return Ok(own);
    };
    let overridden: std::collections::HashSet<&str> = own.iter().map(|f| f.rel.as_str()).collect();
    let mut files: Vec<StaticFile> = static_files(root, Some(theme))?
        .into_iter()
        .filter(|file| !overridden.contains(file.rel.as_str()))
        .collect();
    files.extend(own);
    files.sort_by(|a, b| walk_order(&a.rel, &b.rel));
    Ok(files)
}

/// The order a walk lists paths in: by name within a folder, a folder's
/// files where its name sorts (`a/b` before `a-b`, unlike plain text order).
pub(crate) fn walk_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.split('/').cmp(b.split('/'))
}

/// The files of one `static/` folder: the site's, or `theme_dir`'s.
fn static_files(root: &Path, theme_dir: Option<&str>) -> Result<Vec<StaticFile>, Error> {
    let folder = match theme_dir {
        Some(theme) => root.join(theme).join(STATIC_DIR),
        None => root.join(STATIC_DIR),
    };
    walk(&folder, PUBLISHED_HIDDEN)?
        .into_iter()
        .map(|file| match file.rel {
            Some(rel) => Ok(StaticFile {
                rel,
                stat: file.stat,
                theme_dir: theme_dir.map(str::to_owned),
            }),
            None => Err(Error::io(
                &file.path,
                std::io::Error::other("the file name is not valid UTF-8; rename it"),
            )),
        })
        .collect()
}

/// The theme site.toml names must be a folder of `themes/`, checked when a
/// site is opened and at every walk: without it the build would quietly
/// fall back on folio's theme. The nearest folder there is offered.
pub fn check_theme(root: &Path, config: &Config) -> Result<(), Error> {
    let Some(theme_dir) = config.theme_dir.as_deref() else {
        return Ok(());
    };
    if root.join(theme_dir).is_dir() {
        return Ok(());
    }
    let wanted = theme_dir.rsplit('/').next().unwrap_or(theme_dir);
    let there: Vec<String> = std::fs::read_dir(root.join(config::THEMES_DIR))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.path().is_dir())
        .filter_map(|entry| entry.file_name().to_str().map(str::to_owned))
        .collect();
    let help = match there
        .iter()
        .min_by_key(|name| strsim::levenshtein(name, wanted))
    {
        Some(near) => format!("did you mean `theme = \"{near}\"`? Or add the folder {theme_dir}/"),
        None => {
            format!("add the folder {theme_dir}/ with the theme's templates/, static/ and i18n/")
        }
    };
    Err(Error::Config {
        path: root.join(config::CONFIG_FILE),
        line: None,
        message: format!(
            "theme `{wanted}` is not a folder of {}/",
            config::THEMES_DIR
        ),
        help,
    })
}

/// Whether a walk skips the file at `rel` (relative to the walked folder):
/// a name with a leading dot anywhere on its path, except a top-level
/// folder named in `hidden_kept`. The rule of [`walk`], for one path.
pub fn is_hidden(rel: &str, hidden_kept: &[&str]) -> bool {
    let mut parts = rel.split('/').enumerate().peekable();
    while let Some((depth, part)) = parts.next() {
        let kept = depth == 0 && parts.peek().is_some() && hidden_kept.contains(&part);
        if part.starts_with('.') && !kept {
            return true;
        }
    }
    false
}

pub fn is_markdown(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("md" | "markdown")
    )
}

fn relative(root: &Path, path: &Path) -> PathBuf {
    path.strip_prefix(root).unwrap_or(path).to_owned()
}

/// Places a path relative to `content/` in the layout: `<lang>/posts/x.md`,
/// `posts/x.<lang>.md`, `x.md` (default language), `<lang>/about.md`.
pub fn classify(rel: &str, config: &Config) -> Result<Source, ProblemKind> {
    // Keys and slugs come from the name in NFC, so a checkout on a file
    // system that stores NFD (macOS) links and names pages the same way.
    let rel: std::borrow::Cow<'_, str> = if rel.is_ascii() {
        rel.into()
    } else {
        rel.nfc().collect::<String>().into()
    };
    let parts: Vec<&str> = rel.split('/').collect();
    let (file, dirs) = parts.split_last().ok_or_else(|| ProblemKind::Layout {
        message: "empty path".into(),
        help: "".into(),
    })?;
    let undeclared = |lang: &str| ProblemKind::UndeclaredLanguage {
        lang: lang.to_owned(),
        declared: config.language_codes(),
    };

    let (dir_lang, section) = match dirs.split_first() {
        Some((first, rest)) if config.is_language(first) => (Some(*first), rest),
        // A language folder holding a posts section is meant as a language;
        // anything else may well be an ordinary section name.
        Some((first, rest))
            if looks_like_language(first)
                && rest.first().is_some_and(|s| config.is_post_section(s)) =>
        {
            return Err(undeclared(first));
        }
        _ => (None, dirs),
    };

    let name = file
        .strip_suffix(".markdown")
        .or_else(|| file.strip_suffix(".md"))
        .unwrap_or(file);
    let (stem, file_lang) = match name.rsplit_once('.') {
        Some((stem, suffix)) if config.is_language(suffix) => (stem, Some(suffix)),
        Some((_, suffix)) if looks_like_language(suffix) => return Err(undeclared(suffix)),
        _ => (name, None),
    };
    let lang = match (dir_lang, file_lang) {
        (Some(dir), Some(file)) if dir != file => {
            return Err(ProblemKind::Layout {
                message: format!(
                    "the folder says language `{dir}` but the file name says `{file}`"
                ),
                help: format!("remove the `.{file}` suffix or move the file under `{file}/`"),
            });
        }
        (Some(lang), _) | (None, Some(lang)) => lang,
        (None, None) => config.default_language.as_str(),
    };
    let kind = if section.first().is_some_and(|s| config.is_post_section(s)) {
        Kind::Post
    } else {
        Kind::Page
    };
    // A bundle's document is its folder's: its key and its name, so that
    // `posts/trip/index.md` is `posts/trip.md` with its files beside it.
    let bundle = bundle::is_document(stem, section, |s| config.is_post_section(s));
    let (stem, key) = match section.split_last() {
        Some((folder, _)) if bundle => (*folder, section.join("/")),
        _ => {
            let path = section.iter().copied().chain(std::iter::once(stem));
            (stem, path.collect::<Vec<_>>().join("/"))
        }
    };
    Ok(Source {
        path: String::new(),
        lang: lang.to_owned(),
        kind,
        key,
        stem: stem.to_owned(),
        bundle,
        stat: Stat {
            size: 0,
            mtime_ns: Stat::RACY,
        },
    })
}

/// ISO 639-1: the two-letter codes a language suffix or folder is written
/// with. Anything else after a dot (`node.js`, `notes.v2`) is part of the
/// name, not a language.
const ISO_639_1: &[&str] = &[
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh",
    "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da",
    "de", "dv", "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr",
    "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz",
    "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj",
    "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln",
    "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb",
    "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi",
    "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru", "rw", "sa", "sc", "sd", "se", "sg", "si", "sk",
    "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw", "ta", "te", "tg", "th", "ti",
    "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug", "uk", "ur", "uz", "ve", "vi", "vo",
    "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu",
];

/// A declared-looking language code (`de`, `pt-BR`) that is not declared
/// would be an error; this tells a language from a name with a dot in it.
fn looks_like_language(code: &str) -> bool {
    let primary = code.split('-').next().unwrap_or(code);
    config::is_language_code(code) && ISO_639_1.contains(&primary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config::parse(
            "title='t'\nbase_url='x'\ndefault_language='en'\n[languages.en]\nname='English'\n[languages.fr]\nname='Français'\n[languages.ja]\nname='日本語'\n",
            Path::new("site.toml"),
        )
        .unwrap()
    }

    #[track_caller]
    fn place(rel: &str) -> (String, Kind, String, String) {
        let s = classify(rel, &config()).unwrap();
        (s.lang, s.kind, s.key, s.stem)
    }

    #[test]
    fn both_layouts_place_a_post_in_its_language() {
        let fr = |key: &str, stem: &str| ("fr".into(), Kind::Post, key.into(), stem.into());
        assert_eq!(place("fr/posts/x.md"), fr("posts/x", "x"));
        assert_eq!(place("posts/x.fr.md"), fr("posts/x", "x"));
        assert_eq!(place("posts/x.fr.markdown"), fr("posts/x", "x"));
        assert_eq!(place("fr/posts/x.fr.md"), fr("posts/x", "x"));
        assert_eq!(
            place("posts/2024-06-12-x.md"),
            (
                "en".into(),
                Kind::Post,
                "posts/2024-06-12-x".into(),
                "2024-06-12-x".into()
            )
        );
    }

    #[test]
    fn files_outside_posts_are_pages() {
        assert_eq!(
            place("en/about.md"),
            ("en".into(), Kind::Page, "about".into(), "about".into())
        );
        assert_eq!(
            place("docs/setup.ja.md"),
            ("ja".into(), Kind::Page, "docs/setup".into(), "setup".into())
        );
    }

    #[test]
    fn a_bundle_s_document_is_named_and_keyed_by_its_folder() {
        let bundle = |rel: &str| {
            let s = classify(rel, &config()).unwrap();
            (s.bundle, s.lang, s.kind, s.key, s.stem)
        };
        let trip = |lang: &str| {
            let (key, stem) = ("posts/2024-05-01-trip", "2024-05-01-trip");
            (true, lang.into(), Kind::Post, key.into(), stem.into())
        };
        assert_eq!(bundle("posts/2024-05-01-trip/index.md"), trip("en"));
        assert_eq!(bundle("posts/2024-05-01-trip/index.fr.md"), trip("fr"));
        assert_eq!(bundle("fr/posts/2024-05-01-trip/index.md"), trip("fr"));
        let about = (
            true,
            "ja".into(),
            Kind::Page,
            "about".into(),
            "about".into(),
        );
        assert_eq!(bundle("ja/about/index.md"), about);
        // A posts section's own folder and a language root hold no bundle.
        let not = |key: &str, kind| (false, "en".into(), kind, key.into(), "index".into());
        assert_eq!(bundle("posts/index.md"), not("posts/index", Kind::Post));
        assert_eq!(bundle("en/index.md"), not("index", Kind::Page));
        assert_eq!(bundle("index.md"), not("index", Kind::Page));
    }

    #[test]
    fn undeclared_languages_are_errors() {
        let err = classify("posts/x.de.md", &config()).unwrap_err();
        assert!(matches!(err, ProblemKind::UndeclaredLanguage { ref lang, .. } if lang == "de"));
        let err = classify("de/posts/x.md", &config()).unwrap_err();
        assert!(matches!(err, ProblemKind::UndeclaredLanguage { ref lang, .. } if lang == "de"));
        // An ordinary section whose name happens to be short is not a language,
        // and neither is the end of a dotted name.
        assert_eq!(place("faq/x.md").0, "en");
        assert_eq!(
            place("posts/why-node.js.md"),
            (
                "en".into(),
                Kind::Post,
                "posts/why-node.js".into(),
                "why-node.js".into()
            )
        );
        assert_eq!(place("posts/notes.txt.md").3, "notes.txt");
        assert!(classify("posts/x.pt-BR.md", &config()).is_err());
    }

    #[test]
    fn a_walk_skips_exactly_the_paths_is_hidden_names() {
        let dir = tempfile::tempdir().unwrap();
        let all = [
            ".well-known/a",
            ".well-known/.b",
            ".well-known",
            "x/.well-known/c",
            ".git/d",
            "e/.f",
            "g",
        ];
        for rel in all {
            let path = dir.path().join(rel);
            if path.exists() {
                continue;
            }
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            // `.well-known` at the top is a folder here, from the first path.
            std::fs::write(path, "x").unwrap();
        }
        let walked: Vec<String> = walk(dir.path(), PUBLISHED_HIDDEN)
            .unwrap()
            .into_iter()
            .map(|w| w.rel.unwrap())
            .collect();
        let shown: Vec<&str> = [
            "g",
            ".well-known/a",
            ".well-known/.b",
            "x/.well-known/c",
            ".git/d",
            "e/.f",
        ]
        .into_iter()
        .filter(|rel| !is_hidden(rel, PUBLISHED_HIDDEN))
        .collect();
        assert_eq!(walked, [".well-known/a", "g"]);
        assert_eq!(shown, ["g", ".well-known/a"]);
        assert!(
            is_hidden(".well-known", PUBLISHED_HIDDEN),
            "a file by that name"
        );
        assert!(is_hidden(".well-known/a", &[]));
    }

    #[test]
    fn keys_are_nfc_whatever_the_file_system_stores() {
        assert_eq!(
            place("fr/posts/e\u{301}te\u{301}.md").2,
            "posts/\u{e9}t\u{e9}"
        );
    }

    #[test]
    fn conflicting_folder_and_suffix_languages_are_refused_as_a_layout_problem() {
        assert!(matches!(
            classify("fr/posts/x.ja.md", &config()),
            Err(ProblemKind::Layout { message, .. }) if message.contains("`fr`") && message.contains("`ja`")
        ));
    }

    #[test]
    fn a_read_gets_the_whole_file_whatever_size_was_expected() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "twelve bytes").unwrap();
        std::fs::write(dir.path().join("empty.md"), "").unwrap();
        let files = FilesAt::new(dir.path());
        for expected in [0, 5, 11, 12, 13, 4096] {
            assert_eq!(files.read("a.md", expected).unwrap(), b"twelve bytes");
        }
        assert_eq!(files.read("empty.md", 0).unwrap(), b"");
        assert_eq!(files.read("empty.md", 3).unwrap(), b"");
        let missing = files.read("gone.md", 1).unwrap_err();
        assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
        // A first read capped below the expected size reads on, even when
        // the cap is exactly that size.
        for (expected, most) in [(12, 4), (12, 12), (4, 4), (3, 4)] {
            assert_eq!(
                files.read_first("a.md", expected, most).unwrap(),
                b"twelve bytes"
            );
        }
    }

    #[test]
    fn racy_stats_are_not_trusted() {
        let stat = Stat {
            size: 3,
            mtime_ns: 100,
        };
        assert_eq!(stat.settled(101), stat);
        assert_eq!(stat.settled(100).mtime_ns, Stat::RACY);
    }
}
