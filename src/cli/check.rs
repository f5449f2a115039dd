//! `folio check`: the check built into a scratch folder of the CLI's own,
//! made private and removed after; with `--external`, the links out of the
//! site too, dated by the clock. The warnings, and a line when all is well.

use folio::BuildOptions;

use super::{Publish, now_ms};

pub(crate) fn check(
    site: &super::SiteArgs,
    publish: Publish,
    external: bool,
) -> Result<(), folio::Error> {
    let site = site.open()?;
    let mut options = BuildOptions::new(now_ms()?);
    options.drafts = publish.drafts;
    options.future = publish.future;
    options.expired = publish.expired;
    // The library reads no environment: the scratch folder is the CLI's,
    // new (made atomically, mode 0700, under a name no one can guess), so
    // no one else can have put anything in it.
    let temp = std::env::temp_dir();
    let scratch = tempfile::Builder::new()
        .prefix("folio-check-")
        .tempdir_in(&temp)
        .map_err(|source| folio::Error::Io { path: temp, source })?;
    let result = if external {
        // The clock, not SOURCE_DATE_EPOCH: the cache's day is a real one,
        // where the build's moment may be pinned to a commit's.
        let clock = jiff::Timestamp::now().as_millisecond();
        site.check_external(&options, scratch.path(), clock)
            .map(|links| (links.build.clone(), Some(links)))
    } else {
        site.check(&options, scratch.path())
            .map(|report| (report, None))
    };
    let scratch_path = scratch.path().to_owned();
    if let Err(e) = scratch.close() {
        eprintln!(
            "warning: {}: the scratch folder of this check could not be removed: {e}",
            scratch_path.display()
        );
    }
    let (report, links) = result?;
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    let Some(links) = links else {
        out!(
            "checked {} sources and {} pages with their links: no error",
            report.scanned,
            report.rendered
        );
        return Ok(());
    };
    for warning in &links.warnings {
        eprintln!("warning: {warning}");
    }
    if !links.broken.is_empty() {
        return Err(folio::Error::Content(links.broken));
    }
    let skipped = match links.skipped {
        0 => String::new(),
        n => format!(", {n} left alone by [check] skip_prefixes"),
    };
    out!(
        "checked {} sources and {} pages with their links, and {} links out of the site ({} found alive within a day{skipped}): no error",
        report.scanned,
        report.rendered,
        links.asked + links.cached,
        links.cached,
    );
    Ok(())
}
