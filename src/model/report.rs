//! What a build tells its caller: events while it runs, the report or
//! explanation when it ends, and the timing of each stage.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;

use serde::Serialize;

/// A stage of a build, in pipeline order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Stage {
    /// Finding the sources, templates and static files, and telling which
    /// changed since the last build by their stat.
    Discover,
    /// Reading and parsing the sources that changed.
    Parse,
    /// Deriving ids and checking that no post was forked or re-dated.
    Identify,
    /// Listing every page with its fingerprint, and choosing those to
    /// render.
    Plan,
    /// Rendering the chosen pages, and reading the static files to copy.
    Render,
    /// Moving the staged files into place and deleting stale ones.
    Write,
    /// Recording the build in the index.
    Index,
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Discover => "discover",
            Stage::Parse => "parse",
            Stage::Identify => "identify",
            Stage::Plan => "plan",
            Stage::Render => "render",
            Stage::Write => "write",
            Stage::Index => "index",
        })
    }
}

/// Something that happened during a build, sent to the
/// [`BuildOptions::observer`](crate::BuildOptions::observer) as it happens.
///
/// Events come in stage order: a stage's `StageStarted`, its items, its
/// `StageFinished`, then the next stage's; a build that must wait for
/// another one's lock says so first (`WaitingForLock`). Items of one stage may come from
/// several threads, in any order among themselves. A build with nothing to
/// do ends after `Discover`; a dry run writes and deletes nothing, so it
/// sends no `PageWritten` or `FileDeleted`. A build that must start over
/// (a source changed while it ran) sends its stages again from `Discover`.
/// Paths are `/`-separated: sources relative to the site root, outputs
/// relative to the output folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// Another build of the site holds its lock: this one waits for it to
    /// finish, before it starts.
    WaitingForLock {
        /// The lock file.
        lock: String,
    },
    /// A stage began.
    StageStarted {
        /// The stage.
        stage: Stage,
        /// How many sources (`Parse`), pages (`Render`) or written pages
        /// (`Write`) the stage goes through; 0 for the stages that do not
        /// count theirs. Deletions and warnings are not counted.
        items: usize,
    },
    /// A stage ended.
    StageFinished {
        /// The stage.
        stage: Stage,
    },
    /// A source was read and parsed (in `Parse`).
    SourceParsed {
        /// The source, relative to the site root.
        source: String,
    },
    /// A page was rendered or a static file read (in `Render`); it is
    /// written only if its bytes differ from its file's.
    PageRendered {
        /// The output, relative to the output folder.
        output: String,
    },
    /// An output file was written (in `Write`): one event per path of
    /// [`BuildReport::written`].
    PageWritten {
        /// The output, relative to the output folder.
        output: String,
    },
    /// An output no page produces any more was deleted (in `Render`, when
    /// it stood where a new page goes, or else in `Write`).
    FileDeleted {
        /// The output, relative to the output folder.
        output: String,
    },
    /// Something worth fixing that does not stop the build: the same text
    /// as in [`BuildReport::warnings`].
    Warning {
        /// What is wrong, naming the file.
        message: String,
    },
}

/// Receives the [`Event`]s of a build, from any of the build's threads.
/// A host that prefers a channel sends each event on it:
///
/// ```
/// use std::sync::{Arc, Mutex, mpsc};
/// use folio::{BuildOptions, Event};
///
/// let (sender, events) = mpsc::channel::<Event>();
/// let sender = Mutex::new(sender);
/// let mut options = BuildOptions::new(1_767_225_600_000);
/// options.observer = Some(Arc::new(move |event: &Event| {
///     let _ = sender.lock().unwrap().send(event.clone());
/// }));
/// # drop(options);
/// # assert!(events.try_recv().is_err());
/// ```
pub type Observer = Arc<dyn Fn(&Event) + Send + Sync>;

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
///
/// It serializes to the JSON `folio build --json` prints, field for field;
/// `schema` says which shape that is. Fields may be added within a schema;
/// a field renamed, removed or given another meaning moves it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct BuildReport {
    /// The version of this shape: [`BuildReport::SCHEMA`].
    pub schema: u32,
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
    /// Pages whose fingerprint the build computed: every page of the site,
    /// unless only what some documents hold changed since the last build
    /// (each keeps its place: URL, date, terms, translations), when only
    /// the pages showing them are; the others keep the fingerprint they
    /// were written with.
    pub fingerprinted: usize,
    /// Pages rendered (their fingerprint changed or their file was not intact).
    pub rendered: usize,
    /// Output files written.
    pub written: Vec<String>,
    /// Of the pages written, those written only because an asset they
    /// fingerprint (`asset_url`) has new bytes, hence a new name: what a
    /// preview swaps in place of a reload when the asset is a stylesheet.
    pub relinked: Vec<String>,
    /// Images decoded to make variants the cache lacked (`[images]`): once
    /// per image and build at most, none when every variant was made before.
    pub images_decoded: usize,
    /// Variants of images encoded: each once, ever, while the cache keeps it.
    pub images_encoded: usize,
    /// Output files deleted because no page produces them any more.
    pub deleted: Vec<String>,
    /// Index rows inserted or updated.
    pub rows_upserted: usize,
    /// Index rows deleted (documents gone, or re-dated with
    /// `accept_id_changes`).
    pub rows_deleted: usize,
    /// In a dry run, why each path would be written or deleted.
    pub why: BTreeMap<String, String>,
    /// Whether this was a dry run: nothing was written.
    pub dry_run: bool,
    /// Things worth fixing that did not stop the build (a missing
    /// translation of a theme word).
    pub warnings: Vec<String>,
    /// Every file the outputs depend on, and the folders where a new file
    /// would change them. Shared: a kept session's builds hand out one list
    /// until a file comes or goes.
    pub inputs: Arc<Inputs>,
    /// Wall time of the build, for the summary line only: no output holds it.
    pub elapsed_ms: u64,
    /// Wall milliseconds per stage, in pipeline order (the last attempt's,
    /// when a build started over): where the time went.
    pub stages: Vec<(String, f64)>,
}

impl BuildReport {
    /// The version of the report's shape this folio writes.
    pub const SCHEMA: u32 = 1;
}

impl Default for BuildReport {
    /// An empty report of the current [`BuildReport::SCHEMA`].
    fn default() -> BuildReport {
        BuildReport {
            schema: BuildReport::SCHEMA,
            scanned: 0,
            scanned_everything: false,
            parsed: 0,
            unchanged: 0,
            fingerprinted: 0,
            rendered: 0,
            written: Vec::new(),
            relinked: Vec::new(),
            images_decoded: 0,
            images_encoded: 0,
            deleted: Vec::new(),
            rows_upserted: 0,
            rows_deleted: 0,
            why: BTreeMap::new(),
            dry_run: false,
            warnings: Vec::new(),
            inputs: Arc::default(),
            elapsed_ms: 0,
            stages: Vec::new(),
        }
    }
}

/// What a site's outputs are made from: every file they depend on, and the
/// folders where a new file would change them (a new post). This is what a
/// build script hands Cargo ([`Inputs::write_cargo_rerun_if_changed`]), so
/// that the site is built again when, and only when, one of them changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Inputs {
    /// The site root, absolute: `files` and `folders` are relative to it.
    pub root: PathBuf,
    /// `site.toml`; every source under `content/`, published or not; the
    /// templates of the site and of its theme that pages use, with every
    /// template they extend, include or import; the `i18n/` tables read
    /// (the theme's too); the static files copied. `/`-separated and
    /// sorted. A template of folio's default theme is no file of the site,
    /// and an unused one, or a theme's file the site's replaces, is no input.
    pub files: Vec<String>,
    /// `content/`, `static/`, `templates/` and `i18n/`, and those of the
    /// theme (`themes/<name>/templates/`, …), those that exist, and every
    /// folder under them that holds one of the `files`.
    pub folders: Vec<String>,
}

impl Inputs {
    /// Writes `cargo:rerun-if-changed=PATH` for every file and folder, as
    /// absolute paths, for a build script to print:
    ///
    /// ```no_run
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let out = std::path::PathBuf::from(std::env::var("OUT_DIR")?);
    /// let mut options = folio::BuildOptions::new(0);
    /// options.out_dir = Some(out.join("site"));
    /// options.index_path = Some(out.join("folio-index.sqlite"));
    /// let report = folio::Site::open("blog")?.build(&options)?;
    /// report.inputs.write_cargo_rerun_if_changed(&mut std::io::stdout())?;
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// Cargo compares their mtimes with its last run of the script: a saved
    /// post reruns it, and so does a new file in one of the folders (Cargo
    /// looks through a folder's files). A path Cargo cannot be told (one
    /// holding a line break) is skipped.
    pub fn write_cargo_rerun_if_changed(
        &self,
        out: &mut impl std::io::Write,
    ) -> std::io::Result<()> {
        for path in self.files.iter().chain(&self.folders) {
            let path = self.root.join(path);
            let Some(text) = path.to_str().filter(|p| !p.contains(['\n', '\r'])) else {
                continue;
            };
            writeln!(out, "cargo:rerun-if-changed={text}")?;
        }
        Ok(())
    }
}

/// Sends a build's events to its observer, and times its stages.
pub(crate) struct Reporter {
    observer: Option<Observer>,
    /// The end of the previous stage (or the start of the attempt): a
    /// stage's time runs from there to its end.
    last_lap: Mutex<Instant>,
}

impl Reporter {
    pub(crate) fn new(observer: Option<Observer>) -> Reporter {
        Reporter {
            observer,
            last_lap: Mutex::new(Instant::now()),
        }
    }

    /// Sends the event `make` builds, if anyone listens.
    pub(crate) fn emit(&self, make: impl FnOnce() -> Event) {
        if let Some(observer) = &self.observer {
            observer(&make());
        }
    }

    /// A build attempt starts: its first stage, discover, with it.
    pub(crate) fn begin(&self) {
        *self.last_lap.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.start(Stage::Discover, 0);
    }

    pub(crate) fn start(&self, stage: Stage, items: usize) {
        self.emit(|| Event::StageStarted { stage, items });
    }

    /// `stage` ended: records its time in the report since the previous
    /// stage ended.
    pub(crate) fn finish(&self, report: &mut BuildReport, stage: Stage) {
        let now = Instant::now();
        let mut last = self.last_lap.lock().unwrap_or_else(|e| e.into_inner());
        let ms = now.duration_since(*last).as_secs_f64() * 1000.0;
        *last = now;
        drop(last);
        report
            .stages
            .push((stage.to_string(), (ms * 100.0).round() / 100.0));
        self.emit(|| Event::StageFinished { stage });
    }

    /// Adds a warning to the report and sends it.
    pub(crate) fn warn(&self, report: &mut BuildReport, message: String) {
        self.emit(|| Event::Warning {
            message: message.clone(),
        });
        report.warnings.push(message);
    }
}
