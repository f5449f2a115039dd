//! The two folders an import touches, each behind the one type that may
//! touch it: [`Source`] reads only what resolves inside the site it was
//! given, [`Destination`] writes only below `--into`. Front matter and
//! configuration values end up in paths (a slug, a language, a
//! `contentDir`), and a check at every call site is one forgotten call
//! away from writing over a file of the user's: here no path is built
//! that was not checked.

use std::fs;
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::model::error::Error;

/// The folder of the site being imported, read and never written.
pub(super) struct Source {
    /// As the user named it, for messages and relative names.
    root: PathBuf,
    /// With every symlink resolved: what a read must stay under.
    canonical: PathBuf,
}

impl Source {
    pub(super) fn open(root: &Path) -> Result<Source, Error> {
        let canonical = fs::canonicalize(root).map_err(|e| Error::io(root, e))?;
        Ok(Source {
            root: root.to_owned(),
            canonical,
        })
    }

    /// The folder as the user named it.
    pub(super) fn root(&self) -> &Path {
        &self.root
    }

    /// `file`'s name relative to the source folder, with `/` between
    /// folders, as the import's report names files.
    pub(super) fn relative(&self, file: &Path) -> String {
        super::relative(&self.root, file)
    }

    /// The folder a configuration file names (Hugo's `contentDir`), which
    /// must be relative and stay inside the site: an import reads the site
    /// it was given, not a folder its configuration points at.
    pub(super) fn configured_folder(
        &self,
        value: &str,
        config: &Path,
        key: &str,
    ) -> Result<PathBuf, Error> {
        let path = Path::new(value);
        let refused = |message: String| Error::Config {
            path: config.to_owned(),
            line: None,
            message,
            help: format!(
                "write `{key}` relative to the site's folder, without `..` (like `content/fr`), or move that folder into the site"
            ),
        };
        if path.has_root() || path.is_absolute() {
            return Err(refused(format!(
                "`{key}` is `{value}`, an absolute path: an import reads only the folder it imports"
            )));
        }
        if path
            .components()
            .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(refused(format!(
                "`{key}` is `{value}`, which climbs out of the site's folder: an import reads only the folder it imports"
            )));
        }
        Ok(self.root.join(path))
    }

    /// Checks that `path`, with every symlink followed, is inside the
    /// source folder: a link (the content folder, a configuration file)
    /// may point anywhere on the machine.
    fn inside(&self, path: &Path) -> Result<(), Error> {
        let resolved = fs::canonicalize(path).map_err(|e| Error::io(path, e))?;
        if resolved.starts_with(&self.canonical) {
            return Ok(());
        }
        Err(Error::Config {
            path: path.to_owned(),
            line: None,
            message: format!(
                "is a link to {}, outside the folder being imported ({}): an import reads only that folder",
                resolved.display(),
                self.canonical.display()
            ),
            help: "copy what it links to into the site's folder in its place, or import the folder that holds both".into(),
        })
    }

    /// Whether the site has a file at `path` (one outside it, through a
    /// link, is refused when read).
    pub(super) fn has_file(&self, path: &Path) -> bool {
        path.starts_with(&self.root) && path.is_file()
    }

    /// Whether the site has a folder at `path` (one outside it, through a
    /// link, is refused when walked).
    pub(super) fn has_folder(&self, path: &Path) -> bool {
        path.starts_with(&self.root) && path.is_dir()
    }

    /// The text of a file of the site.
    pub(super) fn read(&self, file: &Path) -> Result<String, Error> {
        self.inside(file)?;
        fs::read_to_string(file).map_err(|e| Error::io(file, e))
    }

    /// Whether a file of the site starts with `prefix` (`---`: it has
    /// front matter), read no further than that.
    pub(super) fn opens_with(&self, file: &Path, prefix: &[u8]) -> Result<bool, Error> {
        use std::io::Read as _;
        self.inside(file)?;
        let mut start = Vec::with_capacity(prefix.len());
        let opened = fs::File::open(file).map_err(|e| Error::io(file, e))?;
        opened
            .take(prefix.len() as u64)
            .read_to_end(&mut start)
            .map_err(|e| Error::io(file, e))?;
        Ok(start == prefix)
    }

    /// The bytes of a file of the site (an image, a font).
    pub(super) fn read_bytes(&self, file: &Path) -> Result<Vec<u8>, Error> {
        self.inside(file)?;
        fs::read(file).map_err(|e| Error::io(file, e))
    }

    /// A walk of `folder`, in file name order. walkdir follows a root that
    /// is a link, so the root is checked first; links below it are not
    /// followed (they come back as links, which the importers skip), and
    /// every file is checked again when it is read.
    pub(super) fn walk(&self, folder: &Path) -> Result<walkdir::WalkDir, Error> {
        self.inside(folder)?;
        Ok(walkdir::WalkDir::new(folder).sort_by_file_name())
    }

    /// The entries right inside `folder`, in file name order (as
    /// [`Source::walk`] finds them).
    pub(super) fn entries(&self, folder: &Path) -> Result<Vec<walkdir::DirEntry>, Error> {
        self.walk(folder)?
            .min_depth(1)
            .max_depth(1)
            .into_iter()
            .map(|entry| entry.map_err(|e| Error::io(folder, std::io::Error::other(e))))
            .collect()
    }
}

/// The folder an import writes, `--into`: nothing is created but below it.
pub(super) struct Destination {
    root: PathBuf,
}

impl Destination {
    /// `root`, which must not exist yet or be empty: an import never
    /// writes over files. Nothing is created until the first write, so that
    /// an import refused while reading leaves nothing behind.
    pub(super) fn new(root: &Path) -> Result<Destination, Error> {
        let empty = fs::read_dir(root).map_or(true, |mut entries| entries.next().is_none());
        if !empty {
            return Err(Error::Config {
                path: root.to_owned(),
                line: None,
                message: "the folder to import into is not empty".into(),
                help: "name a new folder with --into; an import never writes over files".into(),
            });
        }
        Ok(Destination {
            root: root.to_owned(),
        })
    }

    /// Writes `text` to the file `parts` names below the folder (the last
    /// part the file's name, the others folders, created as needed) for
    /// the document `from` (relative to the source folder, for the
    /// message). Refuses a part that is not one plain name, and a file that
    /// exists already.
    pub(super) fn write(&self, parts: &[&str], text: &str, from: &str) -> Result<(), Error> {
        self.write_bytes(parts, text.as_bytes(), from)
    }

    /// [`Destination::write`] for bytes: a file copied as it is.
    pub(super) fn write_bytes(
        &self,
        parts: &[&str],
        bytes: &[u8],
        from: &str,
    ) -> Result<(), Error> {
        if let Some(bad) = parts.iter().find(|part| !is_plain_name(part)) {
            return Err(Error::Config {
                path: PathBuf::from(from),
                line: None,
                message: format!(
                    "would be written as `{}`, whose part `{}` is not a file or folder name: it could lead out of the folder imported into",
                    parts.join("/"),
                    bad.escape_debug()
                ),
                help: "rename the file, or fix the front matter value that names it (its slug or language)".into(),
            });
        }
        let (file, folders) = parts.split_last().ok_or_else(|| Error::Config {
            path: PathBuf::from(from),
            line: None,
            message: "would be written under no name".into(),
            help: "rename the file".into(),
        })?;
        let folder = folders
            .iter()
            .fold(self.root.clone(), |path, part| path.join(part));
        fs::create_dir_all(&folder).map_err(|e| Error::io(&folder, e))?;
        let path = folder.join(file);
        // `create_new`: two documents given one name must not quietly
        // become one; the importers give distinct names, this holds them
        // to it.
        let mut out = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        out.write_all(bytes).map_err(|e| Error::io(&path, e))
    }
}

/// One name of a file or folder, which no system reads as a path of its
/// own: not empty, `.` or `..`, no separator (either system's), no NUL,
/// no drive or root.
pub(super) fn is_plain_name(part: &str) -> bool {
    !part.is_empty()
        && part != "."
        && part != ".."
        && !part.contains(['/', '\\', '\0'])
        && matches!(
            Path::new(part).components().collect::<Vec<_>>()[..],
            [Component::Normal(_)]
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_are_written() {
        for bad in ["", ".", "..", "/etc", "a/b", "a\\b", "a\0b", "/"] {
            assert!(!is_plain_name(bad), "{bad:?}");
        }
        for good in ["en", "posts", "2024-01-01-a.md", "京都の秋.md", ".hidden"] {
            assert!(is_plain_name(good), "{good:?}");
        }
    }

    #[test]
    fn a_destination_writes_below_itself_and_nowhere_else() {
        let dir = tempfile::tempdir().unwrap();
        let into = Destination::new(&dir.path().join("into")).unwrap();
        into.write(&["content", "en", "a.md"], "a", "a.md").unwrap();
        assert_eq!(
            fs::read_to_string(dir.path().join("into/content/en/a.md")).unwrap(),
            "a"
        );
        for parts in [
            &["content", "..", "..", "x.md"][..],
            &["content", "/x.md"],
            &["content", "a/../../x.md"],
            &["..", "x.md"],
            &["content", ".", "x.md"],
            &["content", "", "x.md"],
            &[],
        ] {
            let refused = into.write(parts, "x", "a.md").unwrap_err().to_string();
            assert!(refused.starts_with("a.md:"), "{refused}");
        }
        assert!(!dir.path().join("x.md").exists());
        // An import never writes over a file, its own included.
        assert!(into.write(&["content", "en", "a.md"], "b", "b.md").is_err());
        assert_eq!(
            fs::read_to_string(dir.path().join("into/content/en/a.md")).unwrap(),
            "a"
        );
    }

    #[test]
    fn a_destination_that_is_not_empty_is_refused_and_one_refused_is_not_made() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("mine"), "mine").unwrap();
        assert!(Destination::new(dir.path()).is_err());
        let _unused = Destination::new(&dir.path().join("new")).unwrap();
        assert!(!dir.path().join("new").exists());
    }

    #[test]
    fn configured_folders_stay_inside_the_source() {
        let dir = tempfile::tempdir().unwrap();
        let source = Source::open(dir.path()).unwrap();
        let config = dir.path().join("hugo.toml");
        let key = "languages.fr.contentDir";
        assert_eq!(
            source
                .configured_folder("content/fr", &config, key)
                .unwrap(),
            dir.path().join("content/fr")
        );
        for bad in ["/home/me/private", "../private", "content/../../x"] {
            let refused = source
                .configured_folder(bad, &config, key)
                .unwrap_err()
                .to_string();
            assert!(
                refused.contains("hugo.toml") && refused.contains(key) && refused.contains(bad),
                "{refused}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_source_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join("site");
        let outside = dir.path().join("outside");
        fs::create_dir_all(site.join("content")).unwrap();
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("secret.md"), "secret").unwrap();
        fs::write(site.join("content/a.md"), "a").unwrap();
        std::os::unix::fs::symlink(&outside, site.join("linked")).unwrap();
        std::os::unix::fs::symlink(outside.join("secret.md"), site.join("config.toml")).unwrap();
        // A link inside the site, to the site, is followed.
        std::os::unix::fs::symlink(site.join("content"), site.join("also")).unwrap();
        let source = Source::open(&site).unwrap();
        assert_eq!(source.read(&site.join("content/a.md")).unwrap(), "a");
        assert!(source.walk(&site.join("also")).is_ok());
        let refused = source
            .read(&site.join("config.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("config.toml") && refused.contains("outside"),
            "{refused}"
        );
        assert!(source.walk(&site.join("linked")).is_err());
        assert!(source.read(&site.join("linked/secret.md")).is_err());
    }
}
