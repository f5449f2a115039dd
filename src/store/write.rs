//! Rendered bytes → files, written only when they differ, and never half.
//!
//! Owns the output folder: atomic writes (a temp file beside the target, then
//! a rename), the byte comparison that skips identical pages, the refusal to
//! overwrite a file folio did not write, and pruning of the outputs no page
//! produces any more. Every path it touches is an [`OutputPath`] joined under
//! the output folder, so nothing is written outside it.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::model::doc::Stat;
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::output_hash;
use crate::plan::OutputPath;
use crate::store::index::OutputRow;

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

/// A rendered page on its way: compared with the file on disk and, when it
/// differs, written to a temp file beside its target.
pub struct StagedPage {
    pub output: OutputPath,
    /// The file does not hold these bytes yet: they must be written.
    pub changed: bool,
    hash: String,
    fingerprint: String,
    on_disk: Option<Stat>,
    /// The temp file and its stat, which the rename keeps.
    temp: Option<(PathBuf, Stat)>,
}

/// What staging a page found.
pub enum Staged {
    Page(StagedPage),
    /// The target exists, differs, and folio did not write it.
    Foreign(Problem),
}

/// Compares `page` with its target and, unless `dry_run`, writes the temp
/// file a changed page will be renamed from. The stored row lets an
/// unchanged page skip even the read: same hash and same stat as when folio
/// last wrote it.
pub fn stage(
    staging: &Staging,
    page: Rendered,
    stored: Option<&OutputRow>,
    dry_run: bool,
) -> Result<Staged, Error> {
    let hash = output_hash(&page.bytes);
    if let Some(fresh) = &staging.fresh {
        // The output folder was empty: nothing to compare with, nothing to
        // refuse, and the page goes straight to its place in the new folder.
        let path = target(fresh, &page.output);
        return Ok(Staged::Page(StagedPage {
            output: page.output,
            changed: true,
            hash,
            fingerprint: page.fingerprint,
            on_disk: None,
            temp: Some(write_file(&path, &page.bytes)?),
        }));
    }
    let path = target(&staging.folders.out_dir, &page.output);
    // One stat answers both whether anything is there and, for a file (or
    // a link to one), its stat; most pages of a first build find nothing.
    let present = fs::symlink_metadata(&path).ok();
    let on_disk = match &present {
        Some(meta) if meta.is_symlink() => fs::metadata(&path).ok(),
        Some(meta) => Some(meta.clone()),
        None => None,
    }
    .filter(|m| m.is_file())
    .map(|m| Stat::of(&m));
    // A pending row speaks for a file only if the file is the one that
    // build was writing: a file put there since is someone else's.
    let stored = stored
        .filter(|row| row.stat.is_some() || present.is_none() || holds_recorded_bytes(row, &path));
    let known_identical = stored.is_some_and(|row| {
        row.hash.as_deref() == Some(hash.as_str()) && row.stat.is_some() && row.stat == on_disk
    });
    let identical = known_identical
        || (on_disk.is_some_and(|s| s.size == page.bytes.len() as u64)
            && fs::read(&path).is_ok_and(|existing| existing == page.bytes));
    if !identical && let Some(link) = staging.folders.linked_folder(&page.output) {
        return Ok(Staged::Foreign(Problem::new(
            &path,
            None,
            ProblemKind::LinkedOutputFolder { link },
        )));
    }
    // A folder (someone's) where the page goes: a rename cannot replace
    // it, and finding out at the renames would leave the build half done.
    let folder_in_place = present.as_ref().is_some_and(|meta| meta.is_dir());
    if !identical && (folder_in_place || (stored.is_none() && present.is_some())) {
        return Ok(Staged::Foreign(Problem::new(
            &path,
            None,
            ProblemKind::ForeignOutput {
                output: path.clone(),
            },
        )));
    }
    if identical && !dry_run && stored.is_some_and(|row| row.stat.is_none()) {
        // A killed build reserved this page; its temp file may remain.
        let _ = fs::remove_file(temp_path(&path));
    }
    let temp = if identical || dry_run {
        None
    } else {
        Some(write_file(&temp_path(&path), &page.bytes)?)
    };
    Ok(Staged::Page(StagedPage {
        output: page.output,
        changed: !identical,
        hash,
        fingerprint: page.fingerprint,
        on_disk,
        temp,
    }))
}

/// What a dry run says of a page whose place a stale output holds: it
/// would be written once that output is pruned.
pub fn planned(page: Rendered) -> Staged {
    Staged::Page(StagedPage {
        output: page.output,
        changed: true,
        hash: output_hash(&page.bytes),
        fingerprint: page.fingerprint,
        on_disk: None,
        temp: None,
    })
}

/// Writes `bytes` to a new file at `path` (making its folder), returning
/// the path and the file's stat, which a rename keeps.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(PathBuf, Stat), Error> {
    let dir = path
        .parent()
        .ok_or_else(|| Error::io(path, std::io::Error::other("an output file needs a folder")))?;
    fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let result = (|| {
        let mut file = create_new(path)?;
        file.write_all(bytes)?;
        file.metadata()
    })();
    match result {
        Ok(meta) => Ok((path.to_owned(), Stat::of(&meta))),
        Err(e) => {
            let _ = fs::remove_file(path);
            Err(Error::io(path, e))
        }
    }
}

/// The rule every path of the output folder goes through, for writing and
/// deleting alike: no folder on its way may be a symbolic link (the output
/// folder itself may: it is the user's to place).
struct Confinement {
    out_dir: PathBuf,
    /// Folders under the output folder found not to be symbolic links.
    real_folders: std::sync::Mutex<rustc_hash::FxHashSet<String>>,
}

impl Confinement {
    fn new(out_dir: &Path) -> Confinement {
        Confinement {
            out_dir: out_dir.to_owned(),
            real_folders: std::sync::Mutex::default(),
        }
    }

    /// The first folder on the way to `output` that is a symbolic link, if
    /// any: nothing is written or deleted through one.
    fn linked_folder(&self, output: &OutputPath) -> Option<PathBuf> {
        let path = output.as_str();
        for (at, _) in path.match_indices('/') {
            let folder = &path[..at];
            let known = self
                .real_folders
                .lock()
                .map(|real| real.contains(folder))
                .unwrap_or(false);
            if known {
                continue;
            }
            let on_disk = self.out_dir.join(folder);
            match fs::symlink_metadata(&on_disk) {
                Ok(meta) if meta.file_type().is_symlink() => return Some(on_disk),
                // Absent: it and everything under it will be made real.
                Err(_) => return None,
                Ok(_) => {
                    if let Ok(mut real) = self.real_folders.lock() {
                        real.insert(folder.to_owned());
                    }
                }
            }
        }
        None
    }
}

/// A new file at `path`, never opened through a link: whatever stands
/// there (a temp file a killed build left, or a link planted in the output
/// folder under a temp file's name) is removed, not written through.
pub(crate) fn create_new(path: &Path) -> std::io::Result<fs::File> {
    let create = || {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
    };
    match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            fs::remove_file(path)?;
            create()
        }
        created => created,
    }
}

/// The staged pages of a build. Until [`Staging::commit`] renames them into
/// place, no output has changed; dropped uncommitted (a later page failed),
/// it removes its temp files and the folders made for them.
pub struct Staging {
    /// The output folder, and where a page may go in it: never through a
    /// linked folder.
    folders: Confinement,
    /// When the output folder is absent or empty, the pages are written as
    /// they are into this hidden folder inside it, whose entries the commit
    /// renames into place: a rename per top-level entry instead of a temp
    /// file and a rename per page. The output folder itself (a link, a
    /// mount, its owner and mode) stays the user's.
    fresh: Option<PathBuf>,
    pages: Vec<StagedPage>,
}

impl StagedPage {
    /// The page's [`output_hash`].
    pub fn hash(&self) -> &str {
        &self.hash
    }

    /// The page in place, its file left with `stat`.
    fn written(self, stat: Option<Stat>) -> Written {
        Written {
            output: self.output,
            row: OutputRow {
                hash: Some(self.hash),
                fingerprint: Some(self.fingerprint),
                stat,
            },
            changed: self.changed,
        }
    }
}

impl Staging {
    fn new(out_dir: &Path) -> Staging {
        Staging {
            folders: Confinement::new(out_dir),
            fresh: None,
            pages: Vec::new(),
        }
    }

    /// Stages into [`FRESH_DIR`] inside `out_dir` when `may_start_fresh`
    /// (not a dry run, and the index knows no file of `out_dir`) and
    /// `out_dir` is absent or empty; into `out_dir` itself otherwise.
    pub fn for_folder(out_dir: &Path, may_start_fresh: bool) -> Result<Staging, Error> {
        let mut staging = Staging::new(out_dir);
        if !may_start_fresh {
            return Ok(staging);
        }
        let empty = match fs::read_dir(out_dir) {
            Ok(mut entries) => entries.next().is_none(),
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        };
        if !empty {
            return Ok(staging);
        }
        let fresh = out_dir.join(FRESH_DIR);
        fs::create_dir_all(&fresh).map_err(|e| Error::io(&fresh, e))?;
        staging.fresh = Some(fresh);
        Ok(staging)
    }

    pub fn push(&mut self, page: StagedPage) {
        self.pages.push(page);
    }

    pub fn pages(&self) -> &[StagedPage] {
        &self.pages
    }

    /// Renames every temp file over its target: a reader (or a killed build)
    /// sees the old file or the new one, never half of one.
    /// `on_each` is called after each page, from any thread.
    pub fn commit(mut self, on_each: impl Fn(&Written) + Sync) -> Result<Vec<Written>, Error> {
        let pages = std::mem::take(&mut self.pages);
        let out_dir = self.folders.out_dir.clone();
        if let Some(fresh) = self.fresh.take() {
            let moved = move_entries(&fresh, &out_dir);
            self.fresh = Some(fresh);
            moved?;
            return Ok(pages
                .into_iter()
                .map(|page| {
                    let stat = page.temp.as_ref().map(|(_, stat)| *stat);
                    let written = page.written(stat);
                    on_each(&written);
                    written
                })
                .collect());
        }
        let results: Vec<Result<Written, Error>> = pages
            .into_par_iter()
            .map(|page| {
                let stat = match &page.temp {
                    None => page.on_disk,
                    Some((temp, stat)) => {
                        let path = target(&out_dir, &page.output);
                        match fs::rename(temp, &path) {
                            Ok(()) => Some(*stat),
                            Err(e) => {
                                let _ = fs::remove_file(temp);
                                return Err(Error::io(path, e));
                            }
                        }
                    }
                };
                let written = page.written(stat);
                on_each(&written);
                Ok(written)
            })
            .collect();
        results.into_iter().collect()
    }
}

/// Renames every entry of `from` to the same name in `to`, then removes the
/// emptied `from`. A name taken in `to` since (by someone else: the build
/// holds the lock) is refused, not replaced.
fn move_entries(from: &Path, to: &Path) -> Result<(), Error> {
    let entries = fs::read_dir(from).map_err(|e| Error::io(from, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(from, e))?;
        let target = to.join(entry.file_name());
        if fs::symlink_metadata(&target).is_ok() {
            return Err(Error::Content(vec![Problem::new(
                &target,
                None,
                ProblemKind::ForeignOutput {
                    output: target.clone(),
                },
            )]));
        }
        fs::rename(entry.path(), &target).map_err(|e| Error::io(&target, e))?;
    }
    fs::remove_dir(from).map_err(|e| Error::io(from, e))
}

impl Drop for Staging {
    fn drop(&mut self) {
        if let Some(fresh) = &self.fresh {
            let _ = fs::remove_dir_all(fresh);
            return;
        }
        for (temp, _) in self.pages.iter().filter_map(|p| p.temp.as_ref()) {
            let _ = fs::remove_file(temp);
            remove_empty_parents(&self.folders.out_dir, temp);
        }
    }
}

/// Removes the folders above `path` that are empty, up to (not including)
/// the output folder.
fn remove_empty_parents(out_dir: &Path, path: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == out_dir || !d.starts_with(out_dir) || fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// What pruning did with an output no page produces any more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pruned {
    Deleted,
    /// Already gone.
    Missing,
    /// Changed since folio wrote it: someone else's now, left in place.
    Kept,
    /// A folder on its way is a symbolic link (this one): left in place,
    /// since what the link points to is not the output folder's.
    ThroughLink(PathBuf),
}

/// Prunes each stale output (or, in a dry run, only says what pruning
/// would do): the one loop behind a build's pruning, the early pruning of
/// the outputs in a page's way, and a dry run's list of deletions. Returns,
/// for each, where its file is and what became of it; a row whose path
/// would leave the output folder is an error of the index at `index`.
/// Deleting goes through the [`Confinement`] writing does.
pub fn prune_all<'s>(
    out_dir: &Path,
    index: &Path,
    stale: impl Iterator<Item = (&'s String, &'s OutputRow)>,
    dry_run: bool,
) -> Vec<(&'s String, Result<Pruned, Error>)> {
    let folders = Confinement::new(out_dir);
    stale
        .map(|(path, row)| {
            let result = match OutputPath::new(path) {
                None => Err(Error::Index {
                    path: index.to_owned(),
                    source: format!("an output row names {path}, outside the output folder").into(),
                }),
                Some(output) if dry_run => prunable(&folders, &output, row),
                Some(output) => prune(&folders, &output, row),
            };
            (path, result)
        })
        .collect()
}

/// Deletes an output folio wrote earlier and no page produces any more (and
/// the temp file a killed write may have left beside it), then the folders
/// that deleting it left empty, never the output folder itself.
fn prune(folders: &Confinement, output: &OutputPath, row: &OutputRow) -> Result<Pruned, Error> {
    let out_dir = &folders.out_dir;
    let path = target(out_dir, output);
    let verdict = prunable(folders, output, row)?;
    if !matches!(verdict, Pruned::ThroughLink(_)) {
        let _ = fs::remove_file(temp_path(&path));
    }
    if verdict != Pruned::Deleted {
        return Ok(verdict);
    }
    match fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if is_absent(&e) => return Ok(Pruned::Missing),
        Err(e) => return Err(Error::io(&path, e)),
    }
    remove_empty_parents(out_dir, &path);
    Ok(Pruned::Deleted)
}

/// What [`prune`] would do, without doing it.
fn prunable(folders: &Confinement, output: &OutputPath, row: &OutputRow) -> Result<Pruned, Error> {
    if let Some(link) = folders.linked_folder(output) {
        return Ok(Pruned::ThroughLink(link));
    }
    let path = target(&folders.out_dir, output);
    let on_disk = match fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => Stat::of(&meta),
        Ok(_) => return Ok(Pruned::Kept),
        Err(e) if is_absent(&e) => return Ok(Pruned::Missing),
        Err(e) => return Err(Error::io(&path, e)),
    };
    // A row vouches only for the file it recorded: its stat when the write
    // was committed, and always its bytes, so that a row written into the
    // index by someone else cannot name a file of theirs for deletion. A
    // pending row (a write a killed build started) has only the bytes.
    let ours = row.stat.is_none_or(|stat| stat == on_disk) && holds_recorded_bytes(row, &path);
    Ok(if ours { Pruned::Deleted } else { Pruned::Kept })
}

/// Whether the file at `path` holds bytes `row` recorded: a committed row
/// the hash of what was written, a pending row the hash each build that
/// reserved it since the last commit was writing. A row without a hash
/// vouches for no file. A folio killed before output hashes were XXH3
/// reserved with SHA-256 (64 hex digits), which is checked as such.
fn holds_recorded_bytes(row: &OutputRow, path: &Path) -> bool {
    match &row.hash {
        Some(hashes) => fs::read(path).is_ok_and(|bytes| {
            let xxh3 = output_hash(&bytes);
            let sha256 = std::cell::OnceCell::new();
            hashes.split(' ').any(|reserved| match reserved.len() {
                64 => reserved == sha256.get_or_init(|| crate::model::hash::source_hash(&bytes)),
                _ => reserved == xxh3,
            })
        }),
        None => false,
    }
}

/// Puts every file written, renamed and deleted in the output folder so far
/// on disk, before the index commit that records them: after a power loss
/// the index may be behind the files (the next build repairs that, as after
/// a kill), never ahead. One `syncfs` flushes the folder's file system,
/// data and renames together, which costs one flush instead of one per
/// page.
pub fn make_durable(out_dir: &Path, written: &[Written]) -> Result<(), Error> {
    #[cfg(target_os = "linux")]
    {
        let _ = written;
        let folder = fs::File::open(out_dir).map_err(|e| Error::io(out_dir, e))?;
        rustix::fs::syncfs(&folder).map_err(|e| Error::io(out_dir, e.into()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        // No syncfs: each changed file, then each folder holding one (its
        // rename), then the output folder (its pruned entries).
        let mut folders = std::collections::BTreeSet::new();
        for page in written.iter().filter(|w| w.changed) {
            let path = target(out_dir, &page.output);
            sync_path(&path)?;
            folders.extend(path.parent().map(Path::to_owned));
        }
        folders.insert(out_dir.to_owned());
        folders.iter().try_for_each(|folder| sync_path(folder))
    }
}

#[cfg(not(target_os = "linux"))]
fn sync_path(path: &Path) -> Result<(), Error> {
    fs::File::open(path)
        .and_then(|file| file.sync_all())
        .map_err(|e| Error::io(path, e))
}

/// Not there, or a file stands where a folder of the path should be.
fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    )
}

/// Removes the temp files a killed build left in the output folder (and the
/// folders made only for them). Only called when the index says a build was
/// staging when it stopped: a file of that name is folio's.
pub fn sweep_temps(out_dir: &Path) {
    let _ = fs::remove_dir_all(out_dir.join(FRESH_DIR));
    let temps: Vec<PathBuf> = walkdir::WalkDir::new(out_dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_temp_name(&e.file_name().to_string_lossy()))
        .map(walkdir::DirEntry::into_path)
        .collect();
    for temp in &temps {
        if fs::remove_file(temp).is_ok() {
            remove_empty_parents(out_dir, temp);
        }
    }
}

/// The folder, inside an empty output folder, that a first build stages in.
const FRESH_DIR: &str = ".folio-tmp";

fn is_temp_name(name: &str) -> bool {
    name.starts_with('.') && name.ends_with(TEMP_SUFFIX)
}

pub const TEMP_SUFFIX: &str = ".folio-tmp";

/// The temp file a write to `path` goes through (hidden, beside it).
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    path.with_file_name(format!(".{file_name}{TEMP_SUFFIX}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, bytes: &str) -> Rendered {
        Rendered {
            output: OutputPath::new(path).unwrap(),
            bytes: bytes.as_bytes().to_vec(),
            fingerprint: "f".into(),
        }
    }

    /// Stages and commits one page, as a build does.
    fn write(out: &Path, page: Rendered, stored: Option<&OutputRow>) -> Written {
        let mut staging = Staging::new(out);
        match stage(&staging, page, stored, false).unwrap() {
            Staged::Page(p) => staging.push(p),
            Staged::Foreign(problem) => panic!("{problem}"),
        }
        staging.commit(|_| {}).unwrap().pop().unwrap()
    }

    #[test]
    fn identical_bytes_are_not_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let first = write(dir.path(), page("a/index.html", "x"), None);
        assert!(first.changed);
        let again = write(dir.path(), page("a/index.html", "x"), Some(&first.row));
        assert!(!again.changed);
        let edited = write(dir.path(), page("a/index.html", "y"), Some(&first.row));
        assert!(edited.changed);
        assert_eq!(
            fs::read_to_string(dir.path().join("a/index.html")).unwrap(),
            "y"
        );
        let leftovers: Vec<_> = fs::read_dir(dir.path().join("a")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temp file is left behind");
    }

    #[test]
    fn an_uncommitted_staging_leaves_the_output_folder_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let kept = write(dir.path(), page("a/index.html", "old"), None);
        let mut staging = Staging::new(dir.path());
        for p in [page("a/index.html", "new"), page("b/c/index.html", "new")] {
            let stored = p.output.as_str().starts_with('a').then_some(&kept.row);
            let Staged::Page(staged) = stage(&staging, p, stored, false).unwrap() else {
                panic!("nothing foreign here")
            };
            staging.push(staged);
        }
        drop(staging);
        assert_eq!(
            fs::read_to_string(dir.path().join("a/index.html")).unwrap(),
            "old"
        );
        assert!(
            !dir.path().join("b").exists(),
            "folders made for temps are removed"
        );
        assert_eq!(fs::read_dir(dir.path().join("a")).unwrap().count(), 1);
    }

    fn stage_all(staging: &mut Staging, pages: Vec<Rendered>) {
        for p in pages {
            let Staged::Page(staged) = stage(staging, p, None, false).unwrap() else {
                panic!("nothing foreign in an empty folder")
            };
            staging.push(staged);
        }
    }

    #[test]
    fn an_empty_output_folder_is_staged_inside_and_moved_into_place() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        let mut staging = Staging::for_folder(&out, true).unwrap();
        stage_all(
            &mut staging,
            vec![page("index.html", "home"), page("a/b/index.html", "deep")],
        );
        assert!(
            !out.join("index.html").exists(),
            "nothing is in place before the commit"
        );
        let written = staging.commit(|_| {}).unwrap();
        assert_eq!(
            fs::read_to_string(out.join("a/b/index.html")).unwrap(),
            "deep"
        );
        for w in &written {
            let on_disk = Stat::of(&fs::metadata(target(&out, &w.output)).unwrap());
            assert_eq!(w.row.stat, Some(on_disk), "the stat survives the rename");
        }
        let mut names: Vec<_> = fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["a", "index.html"], "no staging folder is left");

        // Dropped before its commit, it leaves no trace.
        let empty = dir.path().join("empty");
        fs::create_dir(&empty).unwrap();
        let mut staging = Staging::for_folder(&empty, true).unwrap();
        stage_all(&mut staging, vec![page("index.html", "home")]);
        drop(staging);
        assert_eq!(fs::read_dir(&empty).unwrap().count(), 0);
    }

    #[test]
    fn foreign_files_are_refused_unless_identical() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("a")).unwrap();
        fs::write(dir.path().join("a/index.html"), "mine").unwrap();
        // A folder with files in it is never staged afresh.
        let staging = Staging::for_folder(dir.path(), true).unwrap();
        assert!(matches!(
            stage(&staging, page("a/index.html", "folio"), None, false).unwrap(),
            Staged::Foreign(_)
        ));
        let Staged::Page(adopted) =
            stage(&staging, page("a/index.html", "mine"), None, false).unwrap()
        else {
            panic!("identical bytes are adopted")
        };
        assert!(!adopted.changed);
    }

    #[test]
    fn a_file_changed_since_folio_wrote_it_is_not_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let written = write(dir.path(), page("a/index.html", "x"), None);
        fs::write(dir.path().join("a/index.html"), "the user's now, longer").unwrap();
        let path = OutputPath::new("a/index.html").unwrap();
        let folders = Confinement::new(dir.path());
        assert_eq!(prune(&folders, &path, &written.row).unwrap(), Pruned::Kept);
        assert!(dir.path().join("a/index.html").exists());
        // A pending row without a hash vouches for no file.
        let mut pending = OutputRow {
            hash: None,
            fingerprint: None,
            stat: None,
        };
        assert_eq!(prune(&folders, &path, &pending).unwrap(), Pruned::Kept);
        // One with the hash of what a build was writing is a write folio
        // itself started: removed with its temp file.
        fs::write(dir.path().join("a/.index.html.folio-tmp"), "half").unwrap();
        pending.hash = Some(format!("h0 {}", output_hash(b"the user's now, longer")));
        assert_eq!(prune(&folders, &path, &pending).unwrap(), Pruned::Deleted);
        assert!(!dir.path().join("a").exists());
    }

    #[test]
    fn pruning_removes_emptied_folders_but_not_the_output_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        let x = write(&out, page("fr/posts/x/index.html", "x"), None);
        let home = write(&out, page("fr/index.html", "h"), None);
        let path = |p: &str| OutputPath::new(p).unwrap();
        let out = Confinement::new(&out);
        assert_eq!(
            prune(&out, &path("fr/posts/x/index.html"), &x.row).unwrap(),
            Pruned::Deleted
        );
        assert!(!out.out_dir.join("fr/posts").exists());
        assert!(out.out_dir.join("fr/index.html").exists());
        assert_eq!(
            prune(&out, &path("fr/index.html"), &home.row).unwrap(),
            Pruned::Deleted
        );
        assert!(out.out_dir.is_dir());
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
