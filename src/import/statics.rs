//! The files of the old site that are no documents, copied as they are: a
//! `static/` folder (Hugo's `staticDir`, Zola's), Jekyll's files without
//! front matter, and a page bundle's files beside its page, so that the
//! images and downloads the pages link to are still there.

use std::path::Path;

use super::{Destination, ImportReport, Source};
use crate::model::error::Error;

/// Copies every file under `folder` of the source (none when it has no such
/// folder) to the same path under `to` in the new site, but those `keep`
/// refuses (given their path under `folder`). Links are not followed:
/// the source's reader refuses what leads out of it.
pub(super) fn copy_folder(
    (source, folder): (&Source, &Path),
    (into, to): (&Destination, &[&str]),
    keep: &dyn Fn(&str) -> bool,
    report: &mut ImportReport,
) -> Result<(), Error> {
    if !source.has_folder(folder) {
        return Ok(());
    }
    for entry in source.walk(folder)? {
        let entry = entry.map_err(|e| Error::io(folder, std::io::Error::other(e)))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let under = super::relative(folder, entry.path());
        if !keep(&under) {
            continue;
        }
        copy_file(source, entry.path(), (into, to, &under), report)?;
    }
    Ok(())
}

/// Copies the file `file` of the source to `under` (a path with `/`)
/// below `to` in the new site.
pub(super) fn copy_file(
    source: &Source,
    file: &Path,
    (into, to, under): (&Destination, &[&str], &str),
    report: &mut ImportReport,
) -> Result<(), Error> {
    let bytes = source.read_bytes(file)?;
    let parts: Vec<&str> = to.iter().copied().chain(under.split('/')).collect();
    into.write_bytes(&parts, &bytes, &source.relative(file))?;
    report.files_copied += 1;
    Ok(())
}
