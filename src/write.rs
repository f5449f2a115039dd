//! Rendered bytes → files, written only when they differ, and never half.
//!
//! Owns the output folder: atomic writes (a temp file beside the target, then
//! a rename), the byte comparison that skips identical pages, the refusal to
//! overwrite a file folio did not write, and pruning of the outputs no page
//! produces any more. Every path it touches is an [`OutputPath`] joined under
//! the output folder, so nothing is written outside it.

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::discover::Stat;
use crate::error::{Error, Problem, ProblemKind};
use crate::index::OutputRow;
use crate::parse::hex;
use crate::plan::OutputPath;

/// A rendered page on its way to disk.
pub struct Rendered {
    pub output: OutputPath,
    pub bytes: Vec<u8>,
    pub fingerprint: String,
}

/// What became of one rendered page.
pub struct Written {
    pub output: OutputPath,
    pub row: OutputRow,
    /// False when the file on disk already held these bytes.
    pub changed: bool,
}

pub fn target(out_dir: &Path, output: &OutputPath) -> PathBuf {
    out_dir.join(output.as_str())
}

/// Refuses, before anything is written, to replace a file that folio did not
/// write and that differs from the page. Returns the pages whose target
/// already holds exactly their bytes (adopted as folio's own).
pub fn check_foreign<'a>(
    out_dir: &Path,
    rendered: &'a [Rendered],
    known: &HashMap<String, OutputRow>,
) -> Result<Vec<&'a OutputPath>, Error> {
    let mut problems = Vec::new();
    let mut adopted = Vec::new();
    for page in rendered
        .iter()
        .filter(|p| !known.contains_key(p.output.as_str()))
    {
        let path = target(out_dir, &page.output);
        match fs::read(&path) {
            Ok(existing) if existing == page.bytes => adopted.push(&page.output),
            Ok(_) => problems.push(Problem::new(
                &path,
                None,
                ProblemKind::ForeignOutput {
                    output: path.clone(),
                },
            )),
            // A folder where the file should go is foreign too.
            Err(_) if path.is_dir() => problems.push(Problem::new(
                &path,
                None,
                ProblemKind::ForeignOutput {
                    output: path.clone(),
                },
            )),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    if problems.is_empty() {
        Ok(adopted)
    } else {
        Err(Error::Content(problems))
    }
}

/// Writes one page unless the file already holds its bytes. The stored row
/// lets an unchanged page skip even the read: same hash and same stat as
/// when folio last wrote it.
pub fn write_page(
    out_dir: &Path,
    page: &Rendered,
    stored: Option<&OutputRow>,
) -> Result<Written, Error> {
    let path = target(out_dir, &page.output);
    let (hash, on_disk, identical) = compare(out_dir, page, stored);
    let stat = if identical {
        if stored.is_some_and(|row| row.hash.is_none()) {
            // A killed build reserved this page; its temp file may remain.
            let _ = fs::remove_file(temp_path(&path));
        }
        on_disk
    } else {
        Some(write_atomically(&path, &page.bytes)?)
    };
    Ok(Written {
        output: page.output.clone(),
        row: OutputRow {
            hash: Some(hash),
            fingerprint: Some(page.fingerprint.clone()),
            stat,
        },
        changed: !identical,
    })
}

/// Whether writing `page` would change the file on disk: false when the
/// file already holds its bytes.
pub fn would_write(out_dir: &Path, page: &Rendered, stored: Option<&OutputRow>) -> bool {
    !compare(out_dir, page, stored).2
}

/// (hash of the page, stat of the file on disk, whether the file holds the
/// page's bytes). The stored row lets an unchanged page skip even the read:
/// same hash and same stat as when folio last wrote it.
fn compare(
    out_dir: &Path,
    page: &Rendered,
    stored: Option<&OutputRow>,
) -> (String, Option<Stat>, bool) {
    let path = target(out_dir, &page.output);
    let hash = hex(&Sha256::digest(&page.bytes));
    let on_disk = fs::metadata(&path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| Stat::of(&m));
    let known_identical = stored.is_some_and(|row| {
        row.hash.as_deref() == Some(hash.as_str()) && row.stat.is_some() && row.stat == on_disk
    });
    let identical = known_identical
        || (on_disk.is_some_and(|s| s.size == page.bytes.len() as u64)
            && fs::read(&path).is_ok_and(|existing| existing == page.bytes));
    (hash, on_disk, identical)
}

/// Writes `bytes` to a temp file in the target's folder, then renames it over
/// the target: a reader (or a killed build) sees the old file or the new one,
/// never half of one.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<Stat, Error> {
    let dir = path
        .parent()
        .ok_or_else(|| Error::io(path, std::io::Error::other("an output file needs a folder")))?;
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let temp = dir.join(format!(".{file_name}.folio-tmp"));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        drop(file);
        fs::rename(&temp, path)?;
        fs::metadata(path)
    })();
    match result {
        Ok(meta) => Ok(Stat::of(&meta)),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            Err(Error::io(path, e))
        }
    }
}

/// What pruning did with an output no page produces any more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pruned {
    Deleted,
    /// Already gone.
    Missing,
    /// Changed since folio wrote it: someone else's now, left in place.
    Kept,
}

/// Deletes an output folio wrote earlier and no page produces any more (and
/// the temp file a killed write may have left beside it), then the folders
/// that deleting it left empty, never the output folder itself.
pub fn prune(out_dir: &Path, output: &OutputPath, row: &OutputRow) -> Result<Pruned, Error> {
    let path = target(out_dir, output);
    let _ = fs::remove_file(temp_path(&path));
    match prunable(out_dir, output, row)? {
        Pruned::Deleted => {}
        other => return Ok(other),
    }
    match fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if is_absent(&e) => return Ok(Pruned::Missing),
        Err(e) => return Err(Error::io(&path, e)),
    }
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == out_dir || !d.starts_with(out_dir) || fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
    Ok(Pruned::Deleted)
}

/// What [`prune`] would do, without doing it.
pub fn prunable(out_dir: &Path, output: &OutputPath, row: &OutputRow) -> Result<Pruned, Error> {
    let path = target(out_dir, output);
    let on_disk = match fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => Stat::of(&meta),
        Ok(_) => return Ok(Pruned::Kept),
        Err(e) if is_absent(&e) => return Ok(Pruned::Missing),
        Err(e) => return Err(Error::io(&path, e)),
    };
    // A pending row (hash unset) is a write a killed build started: ours.
    if row.hash.is_some() && row.stat != Some(on_disk) {
        Ok(Pruned::Kept)
    } else {
        Ok(Pruned::Deleted)
    }
}

/// Not there, or a file stands where a folder of the path should be.
fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

fn temp_path(path: &Path) -> PathBuf {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    path.with_file_name(format!(".{file_name}.folio-tmp"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_changed_since_folio_wrote_it_is_not_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let written = write_page(dir.path(), &page("a/index.html", "x"), None).unwrap();
        fs::write(dir.path().join("a/index.html"), "the user's now, longer").unwrap();
        let path = OutputPath::new("a/index.html").unwrap();
        assert_eq!(
            prune(dir.path(), &path, &written.row).unwrap(),
            Pruned::Kept
        );
        assert!(dir.path().join("a/index.html").exists());
        // A pending row is a write folio itself started: removed with its temp file.
        fs::write(dir.path().join("a/.index.html.folio-tmp"), "half").unwrap();
        let pending = OutputRow {
            hash: None,
            fingerprint: None,
            stat: None,
        };
        assert_eq!(prune(dir.path(), &path, &pending).unwrap(), Pruned::Deleted);
        assert!(!dir.path().join("a").exists());
    }

    fn page(path: &str, bytes: &str) -> Rendered {
        Rendered {
            output: OutputPath::new(path).unwrap(),
            bytes: bytes.as_bytes().to_vec(),
            fingerprint: "f".into(),
        }
    }

    #[test]
    fn identical_bytes_are_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let first = write_page(dir.path(), &page("a/index.html", "x"), None).unwrap();
        assert!(first.changed);
        let again = write_page(dir.path(), &page("a/index.html", "x"), None).unwrap();
        assert!(!again.changed);
        let known = write_page(dir.path(), &page("a/index.html", "x"), Some(&first.row)).unwrap();
        assert!(!known.changed);
        let edited = write_page(dir.path(), &page("a/index.html", "y"), Some(&first.row)).unwrap();
        assert!(edited.changed);
        assert_eq!(
            fs::read_to_string(dir.path().join("a/index.html")).unwrap(),
            "y"
        );
        let leftovers: Vec<_> = fs::read_dir(dir.path().join("a")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file is left behind");
    }

    #[test]
    fn foreign_files_are_refused_unless_identical() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("a")).unwrap();
        fs::write(dir.path().join("a/index.html"), "mine").unwrap();
        let pages = [page("a/index.html", "folio")];
        assert!(check_foreign(dir.path(), &pages, &HashMap::new()).is_err());
        let pages = [page("a/index.html", "mine")];
        assert_eq!(
            check_foreign(dir.path(), &pages, &HashMap::new())
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn pruning_removes_emptied_folders_but_not_the_output_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        let x = write_page(&out, &page("fr/posts/x/index.html", "x"), None).unwrap();
        let home = write_page(&out, &page("fr/index.html", "h"), None).unwrap();
        let path = |p: &str| OutputPath::new(p).unwrap();
        assert_eq!(
            prune(&out, &path("fr/posts/x/index.html"), &x.row).unwrap(),
            Pruned::Deleted
        );
        assert!(!out.join("fr/posts").exists());
        assert!(out.join("fr/index.html").exists());
        assert_eq!(
            prune(&out, &path("fr/index.html"), &home.row).unwrap(),
            Pruned::Deleted
        );
        assert!(out.is_dir());
        assert_eq!(
            prune(&out, &path("fr/index.html"), &home.row).unwrap(),
            Pruned::Missing
        );
        assert_eq!(
            prune(&out, &path("fr/index.html/index.html"), &home.row).unwrap(),
            Pruned::Missing
        );
    }
}
