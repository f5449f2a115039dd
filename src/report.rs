//! What a build tells its caller: progress while it runs, the report or
//! explanation when it ends, and the timing of each stage.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde::Serialize;

/// A build stage that reports progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Stage {
    /// Reading and parsing the sources that changed.
    Parse,
    /// Rendering the pages whose inputs changed, and reading the static
    /// files to copy.
    Render,
    /// Moving the staged files into place.
    Write,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Parse => "parse",
            Stage::Render => "render",
            Stage::Write => "write",
        })
    }
}

/// `done` of `total` items of `stage` are finished. Sent once with `done ==
/// 0` when a stage starts, then after each item, from any thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Progress {
    /// The stage.
    pub stage: Stage,
    /// Items finished so far.
    pub done: usize,
    /// Items the stage has.
    pub total: usize,
}

/// Receives [`Progress`] during a build.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// What an output file is built from (`folio explain`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Explanation {
    /// Relative to the output folder.
    pub output: String,
    /// The source (or generated page, in parentheses) the output is made for.
    pub made_for: String,
    /// Its template first, then what that extends, includes or imports.
    pub templates: Vec<String>,
    /// Every source whose content reaches it.
    pub sources: Vec<String>,
    /// The site.toml keys it reads.
    pub config_keys: Vec<String>,
    /// The language whose words (`i18n/<lang>.toml`) and dates it shows.
    pub language: Option<String>,
}

/// What a build did. Paths are relative to the output folder and sorted.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct BuildReport {
    /// Sources found under `content/`.
    pub scanned: usize,
    /// Whether this build walked `content/` and `static/` and stat'ed every
    /// output; false when a kept session looked only at the paths it was
    /// told changed ([`crate::Session::rebuild`]).
    pub scanned_everything: bool,
    /// Sources read and parsed (changed, new, or not trusted by their stat).
    pub parsed: usize,
    /// Sources skipped on their stat alone, never opened.
    pub unchanged: usize,
    /// Pages rendered (their fingerprint changed or their file was not intact).
    pub rendered: usize,
    /// Output files written.
    pub written: Vec<String>,
    /// Output files deleted because no page produces them any more.
    pub deleted: Vec<String>,
    /// Index rows inserted or updated.
    pub rows_upserted: usize,
    /// Index rows deleted (documents gone, or re-dated with
    /// `accept_date_changes`).
    pub rows_deleted: usize,
    /// In a dry run, why each path would be written or deleted.
    pub why: BTreeMap<String, String>,
    /// Whether this was a dry run: nothing was written.
    pub dry_run: bool,
    /// Things worth fixing that did not stop the build (a missing
    /// translation of a theme word).
    pub warnings: Vec<String>,
    /// Wall time of the build, for the summary line only: no output holds it.
    pub elapsed_ms: u64,
    /// Wall milliseconds per stage, in pipeline order (the last attempt's,
    /// when a build started over): where the time went.
    pub stages: Vec<(String, f64)>,
}

/// Times the stages of one build attempt.
#[derive(Clone, Copy)]
pub(crate) struct StageClock {
    last: Instant,
}

impl StageClock {
    pub fn start() -> StageClock {
        StageClock {
            last: Instant::now(),
        }
    }

    /// Records the time since the previous lap as `stage`'s.
    pub fn lap(&mut self, report: &mut BuildReport, stage: &str) {
        let now = Instant::now();
        let ms = now.duration_since(self.last).as_secs_f64() * 1000.0;
        report
            .stages
            .push((stage.to_owned(), (ms * 100.0).round() / 100.0));
        self.last = now;
    }
}

/// Counts finished items per stage and forwards them to the callback.
pub(crate) struct Reporter {
    callback: Option<ProgressFn>,
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Reporter {
    pub fn new(callback: Option<ProgressFn>) -> Reporter {
        Reporter {
            callback,
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
        }
    }

    pub fn start(&self, stage: Stage, total: usize) {
        self.done.store(0, Ordering::SeqCst);
        self.total.store(total, Ordering::SeqCst);
        if let Some(callback) = &self.callback {
            callback(Progress {
                stage,
                done: 0,
                total,
            });
        }
    }

    pub fn advance(&self, stage: Stage) {
        if let Some(callback) = &self.callback {
            let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
            callback(Progress {
                stage,
                done,
                total: self.total.load(Ordering::SeqCst),
            });
        }
    }
}
