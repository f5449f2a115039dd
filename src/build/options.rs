//! How a build is asked for: the options a caller sets.

use std::fmt;
use std::path::PathBuf;

use crate::model::report::Observer;
use crate::plugin::Plugins;

/// How to build. `BuildOptions::new(now_ms)` builds like `folio build` at
/// that moment; set the other fields on the value it returns.
#[derive(Clone)]
#[non_exhaustive]
pub struct BuildOptions {
    /// The output folder; `output_dir` of site.toml (relative to the root)
    /// when `None`.
    pub out_dir: Option<PathBuf>,
    /// The index file; `.folio/index.sqlite` under the root when `None`.
    pub index_path: Option<PathBuf>,
    /// Publish drafts too.
    pub drafts: bool,
    /// Worker threads; rayon's default (one per core) when `None`. The output
    /// is byte-identical whatever the number.
    pub threads: Option<usize>,
    /// Publish posts dated in the future too.
    pub future: bool,
    /// Publish documents past their `expires` moment too.
    pub expired: bool,
    /// The moment (Unix ms) after which a post is in the future: the caller
    /// says what time it is (the CLI takes `SOURCE_DATE_EPOCH`, else the
    /// clock), since the library reads neither. It decides which posts are
    /// published, never what a page says.
    pub now_ms: i64,
    /// Accept changes to posts' ids (a changed publication date or slug):
    /// the post gets a new id and its old row is replaced. For ids that
    /// were never published; `folio redate` and `folio move` change a
    /// published one. The CLI's `--accept-id-changes`, and
    /// `PublishOptions::accept_id_changes` at the
    /// database (formerly `accept_date_changes`).
    pub accept_id_changes: bool,
    /// Say what would be written and deleted, and why, without writing an
    /// output or changing a row.
    pub dry_run: bool,
    /// Receives the build's [`Event`](crate::Event)s as they happen: its
    /// stages, each source parsed, page written and file deleted, and its
    /// warnings. The CLI's progress bar is one.
    pub observer: Option<Observer>,
    /// The plugins of the build: Markdown transforms, template functions
    /// and filters, and extra outputs.
    pub plugins: Plugins,
    /// When another build of the site holds its lock (another terminal,
    /// `folio serve`): wait for it to finish (sending
    /// [`Event::WaitingForLock`](crate::Event::WaitingForLock) once), or,
    /// when false, fail at once with [`Error::Busy`](crate::Error::Busy).
    pub wait_for_lock: bool,
}

impl BuildOptions {
    /// The options of a plain `folio build` at `now_ms` (Unix milliseconds).
    pub fn new(now_ms: i64) -> BuildOptions {
        BuildOptions {
            out_dir: None,
            index_path: None,
            drafts: false,
            threads: None,
            future: false,
            expired: false,
            now_ms,
            accept_id_changes: false,
            dry_run: false,
            observer: None,
            plugins: Plugins::new(),
            wait_for_lock: true,
        }
    }
}

impl fmt::Debug for BuildOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BuildOptions")
            .field("out_dir", &self.out_dir)
            .field("index_path", &self.index_path)
            .field("drafts", &self.drafts)
            .field("future", &self.future)
            .field("expired", &self.expired)
            .field("now_ms", &self.now_ms)
            .field("threads", &self.threads)
            .field("accept_id_changes", &self.accept_id_changes)
            .field("dry_run", &self.dry_run)
            .field("observer", &self.observer.as_ref().map(|_| "…"))
            .field("plugins", &self.plugins)
            .field("wait_for_lock", &self.wait_for_lock)
            .finish()
    }
}
