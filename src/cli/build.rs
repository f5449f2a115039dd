//! `folio build`: the options from the flags, a progress bar on a terminal,
//! the warnings, and the summary (or the JSON report, or a dry run's
//! reasons).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

use folio::{BuildOptions, BuildReport, Event};
use indicatif::{ProgressBar, ProgressStyle};

use super::{Publish, now_ms, say_waiting};

/// How careful the build is.
pub(crate) struct Checks {
    pub(crate) accept_id_changes: bool,
    pub(crate) dry_run: bool,
    pub(crate) no_wait: bool,
}

pub(crate) fn build(
    site: &super::SiteArgs,
    out: Option<PathBuf>,
    publish: Publish,
    json: bool,
    threads: Option<usize>,
    checks: Checks,
) -> Result<(), folio::Error> {
    let site = site.open()?;
    let bar = std::io::stderr().is_terminal().then(progress_bar);
    let mut options = BuildOptions::new(now_ms()?);
    options.out_dir = out;
    options.drafts = publish.drafts;
    options.future = publish.future;
    options.expired = publish.expired;
    options.threads = threads;
    options.accept_id_changes = checks.accept_id_changes;
    options.dry_run = checks.dry_run;
    options.wait_for_lock = !checks.no_wait;
    let shown = bar.clone();
    options.observer = Some(Arc::new(move |event: &Event| match (event, &shown) {
        (Event::WaitingForLock { lock }, _) => say_waiting(lock),
        // Only the stages with items to count move the bar.
        (Event::StageStarted { stage, items }, Some(bar)) if *items > 0 => {
            bar.set_length(*items as u64);
            bar.set_position(0);
            bar.set_message(stage.to_string());
        }
        (
            Event::SourceParsed { .. } | Event::PageRendered { .. } | Event::PageWritten { .. },
            Some(bar),
        ) => bar.inc(1),
        _ => {}
    }));
    let result = site.build(&options);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let report = result?;
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&report).expect("a report always serializes")
        );
    } else {
        if report.dry_run {
            for (path, why) in &report.why {
                let verb = if report.deleted.contains(path) {
                    "delete"
                } else {
                    "write"
                };
                out!("would {verb} {path}: {why}");
            }
        }
        out!("{}", summary(&report));
    }
    Ok(())
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::hidden();
    bar.set_style(
        ProgressStyle::with_template("{msg:>7} [{bar:30}] {pos}/{len}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    // Only builds long enough to watch get a bar.
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    bar
}

pub(super) fn summary(report: &BuildReport) -> String {
    let (written, deleted) = if report.dry_run {
        ("pages would be written", "would be deleted")
    } else {
        ("pages written", "deleted")
    };
    // Only a build that made image variants says so: most make none.
    let images = match report.images_encoded {
        0 => String::new(),
        made => format!(
            "; {made} image variants made from {} images",
            report.images_decoded
        ),
    };
    format!(
        "scanned {} files: {} parsed, {} unchanged; {} {written}, {} {deleted}{images} in {:.2}s",
        report.scanned,
        report.parsed,
        report.unchanged,
        report.written.len(),
        report.deleted.len(),
        report.elapsed_ms as f64 / 1000.0
    )
}
