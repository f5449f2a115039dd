//! `folio check`: the check built into a scratch folder of the CLI's own,
//! made private and removed after; the warnings, and a line when all is
//! well.

use folio::BuildOptions;

use super::{Publish, now_ms};

pub(crate) fn check(site: &super::SiteArgs, publish: Publish) -> Result<(), folio::Error> {
    let site = site.open()?;
    let mut options = BuildOptions::new(now_ms()?);
    options.drafts = publish.drafts;
    options.future = publish.future;
    // The library reads no environment: the scratch folder is the CLI's,
    // new (made atomically, mode 0700, under a name no one can guess), so
    // no one else can have put anything in it.
    let temp = std::env::temp_dir();
    let scratch = tempfile::Builder::new()
        .prefix("folio-check-")
        .tempdir_in(&temp)
        .map_err(|source| folio::Error::Io { path: temp, source })?;
    let result = site.check(&options, scratch.path());
    let scratch_path = scratch.path().to_owned();
    if let Err(e) = scratch.close() {
        eprintln!(
            "warning: {}: the scratch folder of this check could not be removed: {e}",
            scratch_path.display()
        );
    }
    let report = result?;
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    out!(
        "checked {} sources and {} pages with their links: no error",
        report.scanned,
        report.rendered
    );
    Ok(())
}
