//! `folio id`, `folio redate` and `folio move`: a document's id, printed
//! or changed the sanctioned way, and what changed printed.

use std::path::PathBuf;

use folio::{BuildOptions, Site};

use super::{now_ms, says_waits};

pub(crate) fn id(root: PathBuf, file: PathBuf) -> Result<(), folio::Error> {
    let site = Site::open(root)?;
    out!("{}", site.id_of(&file)?);
    Ok(())
}

pub(crate) fn amend(
    root: PathBuf,
    file: &std::path::Path,
    change: folio::Change<'_>,
) -> Result<(), folio::Error> {
    let mut options = BuildOptions::new(now_ms()?);
    options.observer = Some(says_waits());
    let mut session = folio::Session::open(Site::open(root)?, options)?;
    let done = match change {
        folio::Change::Date(date) => session.redate(file, date)?,
        folio::Change::Slug(slug) => session.move_to(file, slug)?,
    };
    match &done.old_id {
        Some(old) if *old != done.new_id => out!("{}: id {old} -> {}", done.file, done.new_id),
        _ => out!("{}: id {}", done.file, done.new_id),
    }
    if let Some(from) = &done.redirect_from {
        out!("{from} will redirect to {}", done.new_url);
    }
    out!("next: folio build");
    Ok(())
}
