//! The stylesheets of `sass/` and of the theme's `sass/`: which files are
//! sheets (each becomes CSS at its path, `sass/css/main.scss` →
//! `css/main.css`, the site's over the theme's; partials, `_*.scss`, only
//! by being used), and a sheet compiled with grass, confined to its
//! folder, with every path it read or looked for: what its fingerprint
//! covers, so that a partial's change recompiles exactly the sheets that
//! use it.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use grass_compiler as grass;
use sha2::{Digest, Sha256};

use crate::model::doc::Stat;
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::hex;
use crate::source::discover::{self, walk_order};

/// The folder of the site's stylesheets, at its root (as Zola has it).
pub const SASS_DIR: &str = "sass";

/// The compiler and its version: a new one may compile a sheet otherwise.
const COMPILER: &str = "grass 0.13.4";

/// A file of `sass/` (the site's or its theme's): a sheet, a partial, or
/// anything a sheet may read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SassFile {
    /// Relative to the site root, `/`-separated: `sass/_vars.scss`,
    /// `themes/plain/sass/main.scss`.
    pub path: String,
    /// Relative to its `sass/` folder: also where its CSS goes.
    pub rel: String,
    pub stat: Stat,
}

impl SassFile {
    /// Its `sass/` folder, relative to the site root.
    fn folder(&self) -> &str {
        let end = self.path.len() - self.rel.len();
        self.path[..end].trim_end_matches('/')
    }
}

/// Every file of the site's `sass/` and of its theme's (`theme_dir`), by
/// path in walk order: the theme's, then the site's.
pub fn discover(root: &Path, theme_dir: Option<&str>) -> Result<Vec<SassFile>, Error> {
    let mut files = Vec::new();
    let folders = theme_dir.map(|theme| format!("{theme}/{SASS_DIR}"));
    for folder in folders.into_iter().chain([SASS_DIR.to_owned()]) {
        for file in discover::walk(&root.join(&folder), &[])? {
            let Some(rel) = file.rel else {
                return Err(Error::io(
                    &file.path,
                    std::io::Error::other("the file name is not valid UTF-8; rename it"),
                ));
            };
            files.push(SassFile {
                path: format!("{folder}/{rel}"),
                rel,
                stat: file.stat,
            });
        }
    }
    files.sort_by(|a, b| walk_order(&a.path, &b.path));
    Ok(files)
}

/// The sheets of `files` to compile: each of the site's, and each of its
/// theme's the site has no sheet of its own at.
pub fn sheets(files: &[SassFile]) -> impl Iterator<Item = &SassFile> {
    let own: BTreeSet<&str> = files
        .iter()
        .filter(|f| f.folder() == SASS_DIR)
        .map(|f| f.rel.as_str())
        .collect();
    files.iter().filter(move |f| {
        is_sheet(&f.rel) && (f.folder() == SASS_DIR || !own.contains(f.rel.as_str()))
    })
}

/// Whether the file at `rel` (under `sass/`) is compiled to CSS of its own:
/// SCSS or the indented syntax, not a partial.
pub fn is_sheet(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    !name.starts_with('_') && (name.ends_with(".scss") || name.ends_with(".sass"))
}

/// Where the CSS of the sheet at `rel` goes, under the output folder.
pub fn output_of(rel: &str) -> String {
    let stem = rel.rsplit_once('.').map_or(rel, |(stem, _)| stem);
    format!("{stem}.css")
}

/// What a sheet's CSS is made from: the compiler and every path (from the
/// root) its last compile read or looked for (`reads`), each with its stat
/// now, or none where nothing is. A sheet never compiled is made from
/// itself, which its first compile then adds to.
pub fn fingerprint(reads: &[String], files: &[SassFile], started_ns: i64) -> String {
    let mut hasher = Sha256::new();
    hasher.update(COMPILER.as_bytes());
    for path in reads {
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        match files.binary_search_by(|f| walk_order(&f.path, path)) {
            Ok(at) => {
                let stat = files[at].stat.settled(started_ns);
                hasher.update([1]);
                hasher.update(stat.size.to_le_bytes());
                hasher.update(stat.mtime_ns.to_le_bytes());
            }
            Err(_) => hasher.update([0]),
        }
    }
    format!("sass {}", hex(&hasher.finalize()))
}

/// A sheet's CSS, the paths (from the root, in its `sass/` folder) its
/// compile read or looked for (sorted), and what its `@warn` and `@debug`
/// said.
#[derive(Debug)]
pub struct Compiled {
    pub css: Vec<u8>,
    pub reads: Vec<String>,
    pub notes: Vec<String>,
}

/// Compiles `sheet`, of the site at `root`. A mistake in it or in what it
/// uses is a problem naming that file, its line and column.
pub fn compile(root: &Path, sheet: &SassFile) -> Result<Compiled, Error> {
    let confined = Confined {
        root: root.to_owned(),
        folder: root.join(sheet.folder()),
        reads: Mutex::default(),
    };
    let notes = Notes {
        root: root.to_owned(),
        said: Mutex::default(),
    };
    let options = grass::Options::default()
        .fs(&confined)
        .logger(&notes)
        .style(grass::OutputStyle::Expanded);
    // grass panics on some input (its errors' kinds hold an
    // `unreachable!`): one sheet must not stop the other workers.
    let compiled = catch_unwind(AssertUnwindSafe(|| {
        grass::from_path(root.join(&sheet.path), &options)
            .map_err(|error| compile_error(root, &sheet.path, *error))
    }));
    let css = compiled.unwrap_or_else(|_| {
        Err(Error::Content(vec![Problem::new(
            sheet.path.clone(),
            None,
            ProblemKind::Stylesheet {
                message: "grass failed on it (a fault of the compiler's, on this sheet)".into(),
                column: 1,
            },
        )]))
    })?;
    let mut reads: Vec<String> = confined
        .reads
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .collect();
    reads.sort_by(|a, b| walk_order(a, b));
    Ok(Compiled {
        css: css.into_bytes(),
        reads,
        notes: notes
            .said
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner),
    })
}

fn compile_error(root: &Path, sheet: &str, error: grass::Error) -> Error {
    let sheet = sheet.to_owned();
    match error.kind() {
        grass::ErrorKind::ParseError { message, loc, .. } => {
            let file = relative_to(root, Path::new(loc.file.name())).unwrap_or(sheet);
            Error::Content(vec![Problem::new(
                file,
                Some(loc.begin.line + 1),
                ProblemKind::Stylesheet {
                    message,
                    column: loc.begin.column + 1,
                },
            )])
        }
        grass::ErrorKind::IoError(io) => Error::io(root.join(&sheet), std::io::Error::other(io)),
        grass::ErrorKind::FromUtf8Error(message) => Error::Content(vec![Problem::new(
            sheet,
            None,
            ProblemKind::Stylesheet { message, column: 1 },
        )]),
        _ => Error::Content(vec![Problem::new(
            sheet,
            None,
            ProblemKind::Stylesheet {
                message: "grass could not compile it".to_owned(),
                column: 1,
            },
        )]),
    }
}

/// `path` relative to `root`, `/`-separated, read lexically (a `..`
/// steps out of the folder before it); `None` when it is not under `root`.
fn relative_to(root: &Path, path: &Path) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for component in path.strip_prefix(root).ok()?.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?),
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

/// The file system grass sees: the sheet's `sass/` folder alone, without
/// links, noting every file it reads or looks for (by its path from the
/// root). A sheet that reaches out of the folder (`@import
/// "../../secret"`, an absolute path) finds nothing there.
#[derive(Debug)]
struct Confined {
    root: PathBuf,
    folder: PathBuf,
    reads: Mutex<BTreeSet<String>>,
}

impl Confined {
    /// `path` in the folder, noted; `None` outside it.
    fn inside(&self, path: &Path) -> Option<PathBuf> {
        let rel = relative_to(&self.folder, path)?;
        let inside = self.folder.join(&rel);
        let from_root = relative_to(&self.root, &inside)?;
        self.reads
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(from_root);
        Some(inside)
    }
}

impl grass::Fs for Confined {
    fn is_dir(&self, path: &Path) -> bool {
        relative_to(&self.folder, path).is_some()
            && std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_dir())
    }

    fn is_file(&self, path: &Path) -> bool {
        self.inside(path)
            .is_some_and(|path| std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file()))
    }

    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.inside(path) {
            Some(path) if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_file()) => {
                std::fs::read(path)
            }
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "{} is not a file of the sheet's {SASS_DIR}/",
                    path.display()
                ),
            )),
        }
    }
}

/// What `@warn` and `@debug` say, as a build's warnings naming the file and
/// line: the library prints nothing.
#[derive(Debug)]
struct Notes {
    root: PathBuf,
    said: Mutex<Vec<String>>,
}

impl Notes {
    fn note(&self, location: &grass::codemap::SpanLoc, what: &str, message: &str) {
        let file = relative_to(&self.root, Path::new(location.file.name()))
            .unwrap_or_else(|| location.file.name().to_owned());
        // A quoted string is said without its quotes, as Dart Sass says it.
        let message = message
            .strip_prefix('"')
            .and_then(|m| m.strip_suffix('"'))
            .unwrap_or(message);
        let note = format!("{file}:{}: {what}: {message}", location.begin.line + 1);
        self.said
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(note);
    }
}

impl grass::Logger for Notes {
    fn debug(&self, location: grass::codemap::SpanLoc, message: &str) {
        self.note(&location, "@debug", message);
    }

    fn warn(&self, location: grass::codemap::SpanLoc, message: &str) {
        self.note(&location, "@warn", message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(rel: &str) -> SassFile {
        SassFile {
            path: format!("{SASS_DIR}/{rel}"),
            rel: rel.to_owned(),
            stat: Stat {
                size: 0,
                mtime_ns: 0,
            },
        }
    }

    fn site(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (rel, text) in files {
            let path = dir.path().join(SASS_DIR).join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn sheets_are_not_partials_and_keep_their_path_as_css() {
        assert!(is_sheet("main.scss") && is_sheet("css/print.sass"));
        assert!(!is_sheet("_vars.scss") && !is_sheet("css/_mixins.scss"));
        assert!(!is_sheet("notes.txt") && !is_sheet("logo.svg"));
        assert_eq!(output_of("css/main.scss"), "css/main.css");
        assert_eq!(output_of("print.sass"), "print.css");
    }

    #[test]
    fn a_sheet_compiles_with_its_partials_and_notes_what_it_read() {
        let dir = site(&[
            (
                "main.scss",
                "@use \"vars\";\nbody { color: vars.$ink; a { b: c; } }\n",
            ),
            ("_vars.scss", "$ink: #123;\n@warn \"ink is dark\";\n"),
        ]);
        let compiled = compile(dir.path(), &sheet("main.scss")).unwrap();
        let css = String::from_utf8(compiled.css).unwrap();
        assert!(css.contains("body {\n  color: #123;\n}"), "{css}");
        assert!(css.contains("body a {\n  b: c;\n}"), "{css}");
        assert!(
            compiled.reads.iter().any(|r| r == "sass/_vars.scss"),
            "{:?}",
            compiled.reads
        );
        assert!(
            compiled.reads.iter().any(|r| r == "sass/main.scss"),
            "{:?}",
            compiled.reads
        );
        assert_eq!(compiled.notes, ["sass/_vars.scss:2: @warn: ink is dark"]);
    }

    #[test]
    fn the_indented_syntax_compiles_too() {
        let dir = site(&[("print.sass", "$gap: 0\nbody\n  margin: $gap\n")]);
        let css = compile(dir.path(), &sheet("print.sass")).unwrap().css;
        assert_eq!(String::from_utf8(css).unwrap(), "body {\n  margin: 0;\n}\n");
    }

    #[test]
    fn the_site_s_sheets_win_over_its_theme_s() {
        let file = |path: &str, rel: &str| SassFile {
            path: path.to_owned(),
            ..sheet(rel)
        };
        let mut files = vec![
            file("sass/main.scss", "main.scss"),
            file("themes/t/sass/_vars.scss", "_vars.scss"),
            file("themes/t/sass/main.scss", "main.scss"),
            file("themes/t/sass/print.scss", "print.scss"),
        ];
        files.sort_by(|a, b| walk_order(&a.path, &b.path));
        let compiled: Vec<&str> = sheets(&files).map(|f| f.path.as_str()).collect();
        assert_eq!(compiled, ["sass/main.scss", "themes/t/sass/print.scss"]);
        assert_eq!(files[1].folder(), "themes/t/sass");
    }

    #[test]
    fn a_mistake_names_the_file_line_and_column() {
        let dir = site(&[
            ("main.scss", "@use \"vars\";\n"),
            ("_vars.scss", "a {\n  color: ;\n}\n"),
        ]);
        let Error::Content(problems) = compile(dir.path(), &sheet("main.scss")).unwrap_err() else {
            panic!("not a problem of the sheet");
        };
        assert_eq!(problems[0].path, Path::new("sass/_vars.scss"));
        assert_eq!(problems[0].line, Some(2));
        assert!(
            matches!(&problems[0].kind, ProblemKind::Stylesheet { column, .. } if *column > 1),
            "{:?}",
            problems[0].kind
        );
    }

    #[test]
    fn nothing_outside_the_folder_is_read() {
        let dir = site(&[("main.scss", "@import \"../secret\";\n")]);
        std::fs::write(dir.path().join("secret.scss"), "a { b: c; }").unwrap();
        let error = compile(dir.path(), &sheet("main.scss"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("sass/main.scss"), "{error}");
        assert!(!error.contains("b: c"), "{error}");
    }

    #[test]
    fn the_fingerprint_follows_what_was_read_and_what_was_looked_for() {
        let stat = |size| Stat { size, mtime_ns: 1 };
        let file = |rel: &str, size| SassFile {
            stat: stat(size),
            ..sheet(rel)
        };
        let reads = ["sass/_vars.scss", "sass/main.scss", "sass/vars.css"].map(str::to_owned);
        let files = [file("_vars.scss", 1), file("main.scss", 2)];
        let before = fingerprint(&reads, &files, 10);
        assert_eq!(before, fingerprint(&reads, &files, 10));
        let edited = [file("_vars.scss", 3), file("main.scss", 2)];
        assert_ne!(before, fingerprint(&reads, &edited, 10));
        // A file where the compile looked and found nothing now stands.
        let found = [
            file("_vars.scss", 1),
            file("main.scss", 2),
            file("vars.css", 1),
        ];
        assert_ne!(before, fingerprint(&reads, &found, 10));
        // A file it did not read changes nothing.
        let other = [
            file("_other.scss", 1),
            file("_vars.scss", 1),
            file("main.scss", 2),
        ];
        assert_eq!(before, fingerprint(&reads, &other, 10));
    }
}
