//! Watching a site's inputs and rebuilding through its session on every
//! save.
//!
//! A burst of events (an editor's write-and-rename, a checkout touching 500
//! files) is gathered until the file system has been quiet for [`QUIET`]
//! ([`QUIET_IN_BURST`] when changes kept coming during the last rebuild; at
//! most [`LONGEST_BURST`] in all), then handed to
//! [`Session::rebuild`] as one set of changed paths: what arrives while a
//! rebuild runs waits for the next one, so a burst costs one or two
//! rebuilds. An event the watcher lost (a queue overflow) makes the next
//! rebuild a full one: a lost event must never leave a stale page.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use notify::{EventKind, RecursiveMode, Watcher as _};

use super::LiveReload;
use crate::build::session::Session;
use crate::model::error::Error;
use crate::model::report::BuildReport;
use crate::render::TEMPLATES_DIR;
use crate::render::i18n::I18N_DIR;
use crate::source::config::CONFIG_FILE;
use crate::source::config::THEMES_DIR;
use crate::source::discover::{CONTENT_DIR, STATIC_DIR};
use crate::source::sass::SASS_DIR;

/// How long the file system must be quiet before a burst is rebuilt: an
/// editor's save is a few events within a millisecond or two.
const QUIET: Duration = Duration::from_millis(8);

/// The quiet awaited when changes kept coming while the last rebuild ran:
/// a burst is under way (a checkout, a script), and its writer may pause
/// longer than an editor between two files.
const QUIET_IN_BURST: Duration = Duration::from_millis(50);

/// The longest a burst is gathered before it is rebuilt anyway.
const LONGEST_BURST: Duration = Duration::from_millis(250);

/// How often a wait for changes looks whether it must stop.
const STOP_CHECK: Duration = Duration::from_millis(100);

/// The folders whose files a site is built from, under its root.
const WATCHED: [&str; 6] = [
    CONTENT_DIR,
    TEMPLATES_DIR,
    STATIC_DIR,
    SASS_DIR,
    I18N_DIR,
    THEMES_DIR,
];

/// Watches the inputs of the site at a root: `content/`, `templates/`,
/// `static/`, `sass/`, `i18n/`, `themes/` and `site.toml`.
pub struct Watcher {
    root: PathBuf,
    watcher: Mutex<notify::RecommendedWatcher>,
    events: Receiver<notify::Result<notify::Event>>,
}

/// One burst of changes.
#[derive(Debug, Default)]
pub struct Changes {
    /// The paths that changed, absolute, each once.
    pub paths: Vec<PathBuf>,
    /// Whether the watcher lost events: only a full build can tell.
    pub lost: bool,
}

impl Watcher {
    /// Starts watching the site at `root`.
    pub fn new(root: &Path) -> Result<Watcher, Error> {
        let root = std::fs::canonicalize(root).map_err(|e| Error::io(root, e))?;
        let (send, events) = channel();
        let mut watcher = notify::recommended_watcher(move |event| {
            let _ = send.send(event);
        })
        .map_err(|e| watch_error(&root, e))?;
        // The root itself, not below it: site.toml, and the watched folders
        // appearing; the output folders under it are never watched.
        watcher
            .watch(&root, RecursiveMode::NonRecursive)
            .map_err(|e| watch_error(&root, e))?;
        let watcher = Watcher {
            root,
            watcher: Mutex::new(watcher),
            events,
        };
        for folder in WATCHED {
            watcher.watch_folder(folder);
        }
        Ok(watcher)
    }

    /// Watches `root/folder` and everything under it, when it exists.
    fn watch_folder(&self, folder: &str) {
        let path = self.root.join(folder);
        if path.is_dir()
            && let Ok(mut watcher) = self.watcher.lock()
        {
            // A folder that cannot be watched is seen when the root's
            // events name it; nothing is lost but speed.
            let _ = watcher.watch(&path, RecursiveMode::Recursive);
        }
    }

    /// Waits for the next burst of changes; `None` once `stop` is set.
    pub fn next_changes(&self, stop: &AtomicBool) -> Option<Changes> {
        if stop.load(Ordering::SeqCst) {
            return None;
        }
        let mut changes = Changes::default();
        // Changes that came while the caller rebuilt: a burst goes on.
        let mut quiet = QUIET;
        while let Ok(event) = self.events.try_recv() {
            self.take(event, &mut changes);
        }
        if !changes.paths.is_empty() || changes.lost {
            quiet = QUIET_IN_BURST;
        }
        while changes.paths.is_empty() && !changes.lost {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            match self.events.recv_timeout(STOP_CHECK) {
                Ok(event) => self.take(event, &mut changes),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
        let started = Instant::now();
        while started.elapsed() < LONGEST_BURST {
            match self.events.recv_timeout(quiet) {
                Ok(event) => self.take(event, &mut changes),
                Err(_) => break,
            }
        }
        changes.paths.sort();
        changes.paths.dedup();
        Some(changes)
    }

    /// Adds what `event` says changed among the site's inputs.
    fn take(&self, event: notify::Result<notify::Event>, changes: &mut Changes) {
        let event = match event {
            Ok(event) => event,
            Err(_) => {
                changes.lost = true;
                return;
            }
        };
        if event.need_rescan() {
            changes.lost = true;
        }
        if matches!(event.kind, EventKind::Access(_)) {
            return;
        }
        for path in event.paths {
            let Ok(relative) = path.strip_prefix(&self.root) else {
                continue;
            };
            let mut parts = relative.components();
            let Some(top) = parts.next().and_then(|c| c.as_os_str().to_str()) else {
                continue;
            };
            let at_top = parts.next().is_none();
            if at_top && WATCHED.contains(&top) {
                // A watched folder appeared (or went): watch what is under it.
                self.watch_folder(top);
            }
            if (at_top && top == CONFIG_FILE) || WATCHED.contains(&top) {
                changes.paths.push(path);
            }
        }
    }
}

fn watch_error(root: &Path, error: notify::Error) -> Error {
    Error::Io {
        path: root.to_owned(),
        source: std::io::Error::other(format!("cannot watch it for changes: {error}")),
    }
}

/// Rebuilds through `session` after each burst of changes `watcher` sees,
/// tells the open tabs of `live`, and hands each burst and its outcome to
/// `on_rebuild`, until `stop` is set. `now` says what time it is before each
/// rebuild (the library reads no clock). A burst the watcher lost events of
/// is a full build.
pub fn rebuild_on_changes(
    session: &mut Session,
    watcher: &Watcher,
    live: &LiveReload,
    stop: &AtomicBool,
    now: impl Fn() -> i64,
    mut on_rebuild: impl FnMut(&Changes, &Result<BuildReport, Error>),
) {
    while let Some(changes) = watcher.next_changes(stop) {
        session.set_now(now());
        let result = if changes.lost {
            session.build()
        } else {
            session.rebuild(&changes.paths)
        };
        match &result {
            Ok(report) => live.rebuilt(&report.written, &report.deleted, &report.relinked),
            Err(error) => live.failed(&error.to_string()),
        }
        on_rebuild(&changes, &result);
    }
}
