//! The end of a build: the staged pages renamed into place, the stale
//! outputs pruned and flushed to disk, and every change recorded in the
//! index in one transaction, after the files it vouches for are on disk. A dry run ends
//! here too, with what it would have done.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rustc_hash::FxHashMap;

use crate::build::analyse::{Analysis, same_content};
use crate::model::asset::only_assets_moved;
use crate::model::doc::Record;
use crate::model::error::Error;
use crate::model::id::PostId;
use crate::model::report::{BuildReport, Event, Reporter, Stage};
use crate::store::index::{Changes, Index, Meta, OutputRow};
use crate::store::write::{self, Pruned, Staging, Written};

/// What a dry run would write and delete, and why, from what it staged.
pub(crate) fn dry_run_report(
    (out_dir, index): (&Path, &Path),
    staging: &Staging,
    stale: &[(&String, &OutputRow)],
    report: &mut BuildReport,
) -> Result<(), Error> {
    report.written = staging
        .pages()
        .iter()
        .filter(|page| page.changed)
        .map(|page| page.output.to_string())
        .collect();
    report.written.sort();
    let stale = stale.iter().map(|&(path, row)| (path, row));
    for (path, result) in write::prune_all(out_dir, index, stale, true) {
        if result? == Pruned::Deleted {
            report.deleted.push(path.clone());
        }
    }
    let mut why = std::mem::take(&mut report.why);
    report.why = report
        .written
        .iter()
        .map(|path| (path.clone(), why.remove(path).unwrap_or_default()))
        .chain(
            report
                .deleted
                .iter()
                .map(|path| (path.clone(), "no page produces it any more".to_owned())),
        )
        .collect();
    Ok(())
}

/// Where a build writes, and what the index knew of it.
pub(crate) struct Folder<'a> {
    pub out_dir: &'a Path,
    pub out_key: &'a str,
    pub stored: &'a FxHashMap<String, OutputRow>,
}

/// Reserves the outputs about to appear, renames the staged pages into
/// place and prunes the stale outputs not pruned yet. Returns what was
/// written, sorted by output.
pub(crate) fn write(
    index: &mut Index,
    folder: &Folder<'_>,
    staging: Staging,
    (stale, pruned_early): (&[(&String, &OutputRow)], &HashSet<&str>),
    progress: &Reporter,
    report: &mut BuildReport,
) -> Result<Vec<Written>, Error> {
    let new_paths: Vec<(&str, &str)> = staging
        .pages()
        .iter()
        .filter(|p| p.changed)
        .map(|p| (p.output.as_str(), p.hash()))
        .filter(|(p, _)| folder.stored.get(*p).is_none_or(|row| row.stat.is_none()))
        .collect();
    index.reserve_outputs(folder.out_key, &new_paths)?;
    let changed = staging.pages().iter().filter(|p| p.changed).count();
    progress.start(Stage::Write, changed);
    let mut written = staging.commit(|written| {
        if written.changed {
            progress.emit(|| Event::PageWritten {
                output: written.output.to_string(),
            });
        }
    })?;
    written.sort_by(|a, b| a.output.cmp(&b.output));
    let left = stale
        .iter()
        .filter(|(path, _)| !pruned_early.contains(path.as_str()))
        .map(|&(path, row)| (path, row));
    for (path, result) in write::prune_all(folder.out_dir, index.path(), left, false) {
        match result? {
            Pruned::Deleted => {
                progress.emit(|| Event::FileDeleted {
                    output: path.clone(),
                });
                report.deleted.push(path.clone());
            }
            Pruned::Missing => {}
            Pruned::ThroughLink(link) => progress.warn(
                report,
                format!(
                    "{}: left in place: it is reached through {}, a symbolic link, and folio deletes nothing through one",
                    folder.out_dir.join(path).display(),
                    link.display()
                ),
            ),
            Pruned::Kept => progress.warn(
                report,
                format!(
                    "{}: left in place: it changed since folio wrote it, and no page produces it any more",
                    folder.out_dir.join(path).display()
                ),
            ),
        }
    }
    report.deleted.sort();
    if !written.is_empty() || !report.deleted.is_empty() {
        write::make_durable(folder.out_dir, &written)?;
    }
    report.written = written
        .iter()
        .filter(|w| w.changed)
        .map(|w| w.output.to_string())
        .collect();
    report.relinked = (written.iter())
        .filter(|w| w.changed && relinked(folder.stored.get(w.output.as_str()), &w.row))
        .map(|w| w.output.to_string())
        .collect();
    Ok(written)
}

/// Whether a page the index knew as `old` is written as `new` only because
/// an asset it fingerprints has a new name.
fn relinked(old: Option<&OutputRow>, new: &OutputRow) -> bool {
    let fingerprints =
        (old.and_then(|old| old.fingerprint.as_deref())).zip(new.fingerprint.as_deref());
    fingerprints.is_some_and(|(old, new)| only_assets_moved(old, new))
}

/// The rows one build changes: the documents it read whose content moved
/// (or only their stat), the documents retired, the outputs written and
/// dropped, and the settings it ran with.
pub(crate) fn changes<'a>(
    folder: &Folder<'a>,
    (analysis, current): (&'a Analysis, &'a [Record]),
    written: Vec<Written>,
    dropped_outputs: Vec<String>,
    meta: Meta,
) -> Changes<'a> {
    let stored_by_id: HashMap<PostId, &Record> = analysis
        .snapshot
        .records
        .iter()
        .map(|r| (r.id, r))
        .collect();
    let retired: HashSet<PostId> = analysis.verdict.retired.iter().copied().collect();
    let mut changes = Changes {
        output_dir: folder.out_key,
        retired: &analysis.verdict.retired,
        dropped_outputs,
        meta,
        ..Changes::default()
    };
    for record in analysis.fresh.iter().map(|&i| &current[i]) {
        match stored_by_id.get(&record.id) {
            Some(stored) if !retired.contains(&record.id) && same_content(stored, record) => {
                if stored.source.stat != record.source.stat {
                    changes.restats.push((&record.id, record.source.stat));
                }
            }
            _ => changes.upserts.push(record),
        }
    }
    changes.outputs = written
        .into_iter()
        .filter(|w| folder.stored.get(w.output.as_str()) != Some(&w.row))
        .map(|w| (w.output.to_string(), w.row))
        .collect();
    changes
}
