//! A session: one site's engine, kept across builds.
//!
//! Owns the resources of a site's builds (the options, the index
//! connection, a thread pool of its own, the observer of its events) and what
//! the last build learned (every row, the outputs as it left them, the
//! scan of the sources). Each build runs the same steps in the same order:
//! scan → prepare (analyse) → plan → select → produce → commit. `build`
//! scans everything, as `folio build` does; `rebuild` starts from the last
//! build and looks only at the paths it is told changed. Both end in the
//! same bytes and rows.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::build::analyse::{self, Analysis, Reading};
use crate::build::commit::{self, Folder};
use crate::build::explain::{self, Reasons};
use crate::build::options::BuildOptions;
use crate::build::produce::{self, RenderJob};
use crate::build::scan::{self, Scan};
use crate::build::select;
use crate::build::site::{STATE_DIR, Site, lexical};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::report::{BuildReport, Explanation, Reporter, Stage};
use crate::plan::{self, KeptPlan, Plan, Views, Visibility};
use crate::plugin::Plugins;
use crate::source::config::CONFIG_FILE;
use crate::source::discover::FilesAt;
use crate::source::image::ImageFiles;
#[cfg(feature = "publish")]
use crate::source::image::Shown;
use crate::store::index::{Index, Meta, OutputRow, Snapshot};
use crate::store::state::BuildLock;
use crate::store::write;

mod finish;
mod shown;
mod stubs;

use finish::plan_of;

pub(crate) const INDEX_FILE: &str = "index.sqlite";

/// One site's engine across builds: what `folio build` runs once, and what
/// `folio serve` or a host program keeps to rebuild in proportion to what
/// changed.
///
/// ```no_run
/// use folio::{BuildOptions, Session, Site};
///
/// let site = Site::open("my-blog")?;
/// let mut session = Session::open(site, BuildOptions::new(1_767_225_600_000))?;
/// session.build()?;
/// // … a file watcher reports a save …
/// let report = session.rebuild(&["content/en/posts/hello.md"])?;
/// # Ok::<(), folio::Error>(())
/// ```
pub struct Session {
    /// Shared with the plan of the build under way, which borrows its
    /// config while the session writes.
    site: Arc<Site>,
    /// The site root, absolute, to read the changed paths against.
    root: PathBuf,
    options: BuildOptions,
    out_dir: PathBuf,
    /// The output folder as the index names it.
    out_key: String,
    state_dir: PathBuf,
    index: Index,
    pool: Arc<rayon::ThreadPool>,
    progress: Reporter,
    /// Whether builds will follow this one, so that what it learns is worth
    /// keeping even when it had nothing to do.
    keeps_state: bool,
    kept: Option<Kept>,
    /// The plugins the host registered; `options.plugins` adds those the
    /// site's `[plugins]` turns on.
    host_plugins: Plugins,
}

/// What the last build learned, for the next one to start from. Taken by
/// the build that uses it: a build that fails leaves none, and the next one
/// scans everything.
struct Kept {
    scan: Scan,
    /// Every current row (not only those a build replaces), the outputs as
    /// the build left them, and the settings it recorded.
    snapshot: Snapshot,
    /// The pages of that build, with their fingerprints (without the rows,
    /// which the snapshot holds).
    plan: Option<KeptPlan>,
    /// The index's `data_version` after that build: another one moved it.
    data_version: i64,
}

/// What a build starts from when it resumes from a kept state.
struct Resumed {
    snapshot: Snapshot,
    plan: Option<KeptPlan>,
}

/// Which files a build looks at.
#[derive(Clone, Copy)]
enum Scope<'c> {
    Everything,
    /// These paths, relative to the root and `/`-separated, over the last
    /// build's scan.
    Changed(&'c [String]),
}

/// A build up to its analysis, under the lock: what a build, a dry run and
/// `explain` share.
struct Prepared {
    lock: BuildLock,
    scan: Scan,
    analysis: Analysis,
    /// The last build's plan, when this build starts from a kept state.
    kept_plan: Option<KeptPlan>,
    /// The images its published documents show, measured.
    images: crate::build::images::Survey,
    /// The variants of images each page's templates asked for when it last
    /// rendered.
    drawn: crate::source::image::Drawn,
    /// What each stylesheet's last compile read or looked for, by the
    /// sheet's path from the root (the index's meta, read once).
    sass_reads: std::collections::BTreeMap<String, Vec<String>>,
    /// The facts of the assets the pages named (`asset_url`) when last
    /// written (the index's meta, read once).
    assets: crate::model::asset::KeptFacts,
    inputs: Option<String>,
    report: BuildReport,
    /// Which of the output folder's rows `analysis.snapshot.outputs` holds.
    outputs: OutputRows,
}

/// Which rows of the output folder a build read.
enum OutputRows {
    /// None yet: a one-off build that may plan only the pages showing the
    /// documents that changed reads them once it knows whether it does (a
    /// fifth of a one-post edit's work at 20,000 posts × 3 was reading
    /// every row).
    Unread,
    /// Every row.
    Every,
    /// The rows of the pages that show the documents that changed alone
    /// (these pages, each with the page its row keeps), and of the files
    /// every plan makes ([`Index::shown_outputs`]).
    Shown(Vec<(String, String)>),
}

impl OutputRows {
    /// Whether the build holds every row of the folder.
    fn are_every(&self) -> bool {
        matches!(self, OutputRows::Every)
    }
}

/// How one attempt at a build ended.
enum Attempt {
    Built(Box<BuildReport>),
    /// These sources hold other bytes than their records were made from:
    /// trusted by an unchanged stat, or changed since this build read them.
    SourcesChanged(HashSet<String>),
}

impl Session {
    /// Opens the engine of `site` for builds with `options`: checks the
    /// output folder and opens (creating or migrating) the index.
    pub fn open(site: Site, mut options: BuildOptions) -> Result<Session, Error> {
        let host_plugins = std::mem::take(&mut options.plugins);
        options.plugins = with_site_plugins(&host_plugins, site.config())?;
        let out_dir = site.checked_output_dir(&options)?;
        let index_path = index_path(&site, &options);
        let state_dir = index_path.parent().unwrap_or(site.root()).to_owned();
        let progress = Reporter::new(options.observer.clone());
        let root =
            lexical(&std::path::absolute(site.root()).map_err(|e| Error::io(site.root(), e))?);
        let out_key = output_key(&root, &out_dir);
        let index = {
            let _migrating = BuildLock::acquire(&state_dir, options.wait_for_lock, &progress)?;
            let mut index = Index::open(&index_path)?;
            index.rekey_outputs(&out_dir.to_string_lossy(), &out_key)?;
            index
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.map_or(0, |threads| threads.max(1)))
            .thread_name(|i| format!("folio-{i}"))
            .build()
            .map_err(|e| Error::io(site.root(), std::io::Error::other(e)))?;
        Ok(Session {
            root,
            out_key,
            out_dir,
            state_dir,
            index,
            pool: Arc::new(pool),
            progress,
            keeps_state: true,
            kept: None,
            host_plugins,
            options,
            site: Arc::new(site),
        })
    }

    /// A session for one build, which keeps nothing for a next one.
    pub(crate) fn open_once(site: Site, options: BuildOptions) -> Result<Session, Error> {
        let mut once = Session::open(site, options)?;
        once.keeps_state = false;
        Ok(once)
    }

    /// The site, with the config its last build read.
    pub fn site(&self) -> &Site {
        &self.site
    }

    /// The output folder, absolute.
    pub fn output_dir(&self) -> &Path {
        &self.out_dir
    }

    /// Moves the session's clock: the moment after which a post is in the
    /// future, for the builds from now on.
    pub fn set_now(&mut self, now_ms: i64) {
        self.options.now_ms = now_ms;
    }

    /// Builds the site from everything on disk, as `folio build` does
    /// (site.toml is read again). On error nothing was written, except for
    /// an I/O error while writing outputs, after which the next build
    /// converges.
    pub fn build(&mut self) -> Result<BuildReport, Error> {
        self.site = Arc::new(self.site.reopen()?);
        self.options.plugins = with_site_plugins(&self.host_plugins, self.site.config())?;
        self.out_dir = self.site.checked_output_dir(&self.options)?;
        self.out_key = output_key(&self.root, &self.out_dir);
        self.run(Scope::Everything)
    }

    /// [`Session::build`] with the config the session was opened with.
    pub(crate) fn build_as_opened(&mut self) -> Result<BuildReport, Error> {
        self.run(Scope::Everything)
    }

    /// Builds again after the files at `changed` changed (added, saved or
    /// removed; relative to the site root, or absolute under it), looking
    /// only at those: no walk of `content/`, no stat of an output nothing
    /// touched, no row loaded again. Ends in the same bytes and rows as
    /// [`Session::build`]. It trusts the output folder to be as the last
    /// build left it, and falls back to a full build when it cannot tell
    /// (no build kept yet, a folder, the root or `site.toml` among the
    /// paths, or another process built in between).
    pub fn rebuild<P: AsRef<Path>>(&mut self, changed: &[P]) -> Result<BuildReport, Error> {
        let Some(changed) = self.relative_to_root(changed) else {
            return self.build();
        };
        // site.toml changes everything; the root itself is what a watcher
        // names when it lost track.
        if changed
            .iter()
            .any(|path| path == CONFIG_FILE || path.is_empty())
        {
            return self.build();
        }
        self.run(Scope::Changed(&changed))
    }

    /// Names what the output file at `output` is built from: its templates,
    /// sources, config keys and words. `output` is a path in the output
    /// folder (`public/fr/index.html`), relative to it (`fr/index.html`) or a
    /// URL path (`/fr/`). Reads the changed sources; writes nothing.
    pub fn explain(&mut self, output: &str) -> Result<Explanation, Error> {
        let mut one = self.explain_each(&[output])?;
        Ok(one.remove(0))
    }

    /// [`Session::explain`] of each of `outputs`, from one plan.
    pub(crate) fn explain_each(&mut self, outputs: &[&str]) -> Result<Vec<Explanation>, Error> {
        let pool = Arc::clone(&self.pool);
        pool.install(|| {
            let mut prepared = self.read_everything()?;
            let records = std::mem::take(&mut prepared.analysis.current);
            let views = Views::new(self.site.config(), &prepared.scan.i18n);
            let (plan, _) = plan_of(
                &self.site,
                &views,
                &prepared,
                records,
                (self.visibility(), &self.options.plugins, None),
            )?;
            let sheets = crate::plan::Sheets {
                files: &prepared.scan.sass,
                reads: &prepared.sass_reads,
            };
            let made_with = (&prepared.scan.theme, sheets);
            outputs
                .iter()
                .map(|output| {
                    let folder = (
                        self.out_dir.as_path(),
                        &prepared.analysis.snapshot.outputs as _,
                    );
                    explain::explanation(&plan, made_with, folder, output)
                })
                .collect()
        })
    }

    /// The images `records` show, as the last build measured them: what
    /// `folio publish` renders their bodies with, as their pages do. None
    /// without `[images]` or a kept build.
    #[cfg(feature = "publish")]
    pub(crate) fn shown_images(&self, records: &[crate::model::doc::Record]) -> Shown {
        let mut shown = Shown::default();
        let config = self.site.config();
        let Some(kept) = self.kept.as_ref().filter(|_| config.images.is_some()) else {
            return shown;
        };
        let files = ImageFiles::new(&kept.scan.statics, &kept.scan.bundles, &config.base_path);
        for record in records {
            let mut found = Vec::new();
            for (src, path, _) in files.measured_of(record) {
                if let Some(measured) = kept.snapshot.images.get(&path) {
                    shown.measured.insert(path.clone(), measured.clone());
                    found.push((src.clone(), path));
                }
            }
            if !found.is_empty() {
                shown.by_document.insert(record.source.path.clone(), found);
            }
        }
        shown
    }

    #[cfg(feature = "publish")]
    /// The documents the last build kept, when it kept what it learned.
    pub(crate) fn kept_records(&self) -> Option<&[crate::model::doc::Record]> {
        self.kept
            .as_ref()
            .map(|kept| kept.snapshot.records.as_slice())
    }

    #[cfg(feature = "publish")]
    /// Every document as the index holds it.
    pub(crate) fn indexed_records(&mut self) -> Result<Vec<crate::model::doc::Record>, Error> {
        Ok(self.read_index()?.records)
    }

    /// Every row the index holds of the session's site and output folder,
    /// read on the session's threads, never on a host's.
    pub(crate) fn read_index(&mut self) -> Result<Snapshot, Error> {
        let pool = Arc::clone(&self.pool);
        let (index, out_key) = (&mut self.index, &self.out_key);
        pool.install(move || index.snapshot(out_key))
    }

    #[cfg(feature = "publish")]
    /// Every document read and checked from its source as a build would,
    /// and the images they show, measured: writing nothing.
    pub(crate) fn read_documents(
        &mut self,
    ) -> Result<(Vec<crate::model::doc::Record>, Shown), Error> {
        let pool = Arc::clone(&self.pool);
        let prepared = pool.install(|| self.read_everything())?;
        Ok((prepared.analysis.current, prepared.images.shown))
    }

    #[cfg(feature = "publish")]
    /// The plugins of the session's builds.
    pub(crate) fn plugins(&self) -> &Plugins {
        &self.options.plugins
    }

    #[cfg(feature = "publish")]
    /// The site's templates as a build reads them now: a publish renders
    /// the bodies it sends with their shortcodes.
    pub(crate) fn theme(&self) -> Result<crate::render::Theme, Error> {
        let config = self.site.config();
        crate::render::Theme::load(
            self.site.root(),
            config.theme_dir.as_deref(),
            &self.options.plugins,
        )
    }

    #[cfg(feature = "publish")]
    /// The session's worker threads.
    pub(crate) fn pool(&self) -> &rayon::ThreadPool {
        &self.pool
    }

    /// The build lock of the session's site.
    pub(crate) fn lock(&self) -> Result<BuildLock, Error> {
        BuildLock::acquire(&self.state_dir, self.options.wait_for_lock, &self.progress)
    }

    /// The site, shared: for a tool that reads it while it changes the
    /// index.
    pub(crate) fn shared_site(&self) -> Arc<Site> {
        Arc::clone(&self.site)
    }

    /// The index, for a tool that changes rows outside a build (under the
    /// lock): what the last build learned is dropped, since the rows no
    /// longer say what it read.
    pub(crate) fn index_for_change(&mut self) -> &mut Index {
        self.kept = None;
        &mut self.index
    }

    /// Every source read and checked as a build would, under the lock,
    /// writing nothing: what `explain` and a publish's dry run start from.
    fn read_everything(&mut self) -> Result<Prepared, Error> {
        let lock = self.lock()?;
        self.progress.begin();
        let (scan, _) = self.scan(Scope::Everything, false)?;
        self.prepare(lock, scan, (None, None), (&HashSet::new(), None))
    }

    /// `changed` as paths relative to the root; `None` when one cannot be
    /// read as such (not UTF-8), which only a full build accounts for.
    fn relative_to_root<P: AsRef<Path>>(&self, changed: &[P]) -> Option<Vec<String>> {
        changed
            .iter()
            .filter_map(|path| {
                // A path outside the root changes nothing of the site.
                let path = lexical(&self.root.join(path));
                let relative = path.strip_prefix(&self.root).ok()?;
                Some(relative.to_str().map(|p| p.replace('\\', "/")))
            })
            .collect()
    }

    fn run(&mut self, scope: Scope<'_>) -> Result<BuildReport, Error> {
        let started = Instant::now();
        let pool = Arc::clone(&self.pool);
        let mut report = pool.install(|| self.run_with_retry(scope))?;
        report.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        Ok(report)
    }

    /// A page's body is read from its source when the page renders, and the
    /// bytes must be those its record was made from: a source saved since
    /// this build parsed it, or whose bytes changed while its size and mtime
    /// did not (`cp -p`, `rsync -t`, trusted by its stat until its page must
    /// be rendered again), disagrees. No output has changed at that point
    /// (the pages staged after a prune are rendered before it), so the build
    /// starts over once, from everything, reading those sources; a second
    /// disagreement is an error.
    fn run_with_retry(&mut self, scope: Scope<'_>) -> Result<BuildReport, Error> {
        let paths = match self.attempt(scope, &HashSet::new())? {
            Attempt::Built(report) => return Ok(*report),
            Attempt::SourcesChanged(paths) => paths,
        };
        let paths = match self.attempt(Scope::Everything, &paths)? {
            Attempt::Built(report) => return Ok(*report),
            Attempt::SourcesChanged(paths) => paths,
        };
        let mut paths: Vec<String> = paths.into_iter().collect();
        paths.sort();
        Err(Error::Content(
            paths
                .iter()
                .map(|path| Problem::new(path, None, ProblemKind::ChangedDuringBuild))
                .collect(),
        ))
    }

    /// One attempt: scan, then stop if nothing any page is made from
    /// changed, else prepare and finish.
    fn attempt(
        &mut self,
        scope: Scope<'_>,
        force_read: &HashSet<String>,
    ) -> Result<Attempt, Error> {
        let lock = self.lock()?;
        let dry_run = self.options.dry_run;
        // A build killed while staging left temp files that no row names.
        if !dry_run && self.index.staging(&self.out_key)? {
            write::sweep_temps(&self.out_dir);
            self.index.set_staging(&self.out_key, false)?;
        }
        self.progress.begin();
        let (scan, kept) = self.scan(scope, !dry_run)?;
        // This build replaces what the last one kept, or fails and keeps
        // nothing.
        self.kept = None;
        let scanned_everything = kept.is_none();
        let inputs = scan::inputs_digest(
            (self.site.config(), &self.options),
            &scan,
            &Default::default(),
            &self.out_key,
            lock.started_ns,
        );
        let meta = match &kept {
            Some(resumed) => resumed.snapshot.meta.clone(),
            None => self.index.meta_values()?,
        };
        // Nothing any page is made from changed since the last build, and
        // every output is as it left it: the whole plan would be a no-op.
        let templates: Option<Vec<String>> = meta
            .templates
            .as_deref()
            .and_then(|json| serde_json::from_str(json).ok());
        if let Some(templates) = templates
            && scan.problems.is_empty()
            && force_read.is_empty()
            && scan.damaged.is_empty()
            && inputs
                .as_deref()
                .is_some_and(|inputs| meta.unchanged_since(inputs, self.options.now_ms))
        {
            let mut report = BuildReport {
                scanned: scan.sources.len(),
                scanned_everything,
                unchanged: scan.sources.len(),
                dry_run,
                inputs: scan.inputs(&self.root, &templates),
                ..BuildReport::default()
            };
            self.warn_of(&scan, &mut report);
            self.progress.finish(&mut report, Stage::Discover);
            // A session that builds again starts its next build from the
            // rows; a one-off build does not pay for reading them.
            let kept = match kept {
                None if self.keeps_state => Some(Resumed {
                    snapshot: self.index.snapshot(&self.out_key)?,
                    plan: None,
                }),
                kept => kept,
            };
            if let Some(Resumed { snapshot, plan }) = kept {
                let data_version = self.index.data_version()?;
                self.kept = Some(Kept {
                    scan,
                    snapshot,
                    plan,
                    data_version,
                });
            }
            return Ok(Attempt::Built(Box::new(report)));
        }
        let changed = match (scope, &kept) {
            (Scope::Changed(changed), Some(_)) => Some(changed),
            _ => None,
        };
        let mut prepared = self.prepare(lock, scan, (kept, changed), (force_read, Some(&meta)))?;
        prepared.inputs = inputs;
        prepared.report.scanned_everything = scanned_everything;
        self.finish(prepared)
    }

    /// The files of this build, and the rows it starts from when the last
    /// build's are kept and still the index's (taken: only a `Changed`
    /// scope uses them).
    fn scan(
        &mut self,
        scope: Scope<'_>,
        may_write: bool,
    ) -> Result<(Scan, Option<Resumed>), Error> {
        let kept = match scope {
            Scope::Changed(_) => self.kept.take(),
            Scope::Everything => None,
        };
        if let (Scope::Changed(changed), Some(kept)) = (scope, kept)
            && kept.data_version == self.index.data_version()?
            && let Some(scan) =
                scan::after_changes(self.site.root(), self.settings(), kept.scan, changed)?
        {
            let resumed = Resumed {
                snapshot: kept.snapshot,
                plan: kept.plan,
            };
            return Ok((scan, Some(resumed)));
        }
        let scan = scan::everything(
            self.site.root(),
            (self.site.config(), &self.options.plugins),
            &mut self.index,
            (&self.out_dir, &self.out_key),
            may_write,
        )?;
        Ok((scan, None))
    }

    /// Reads what changed and checks the invariants: the documents of the
    /// build, with the rows as they were (`kept`, or else the index's;
    /// those of the outputs left for later when it plans, after a build
    /// that left `last`, may plan only some pages, and that is for
    /// [`Session::outputs_for`] to say).
    fn prepare(
        &mut self,
        lock: BuildLock,
        mut scan: Scan,
        (kept, changed): (Option<Resumed>, Option<&[String]>),
        (force_read, last): (&HashSet<String>, Option<&Meta>),
    ) -> Result<Prepared, Error> {
        let mut report = BuildReport {
            scanned: scan.sources.len(),
            dry_run: self.options.dry_run,
            ..BuildReport::default()
        };
        self.warn_of(&scan, &mut report);
        // What a plan of some pages asks first ([`Session::plan_shown`]),
        // and what rules out most builds that plan every page: a document
        // that came or went, other settings, a template edited. Those read
        // every row at once, the outputs' beside the documents'.
        let may_plan_shown = || -> Result<bool, Error> {
            let Some(meta) = last.filter(|_| !self.keeps_state && scan.damaged.is_empty()) else {
                return Ok(false);
            };
            if !self.index.keeps_pages(&self.out_key)?
                || self.index.documents_count()? != scan.sources.len()
            {
                return Ok(false);
            }
            let config = self.site.config();
            let settings =
                analyse::content_settings(config, &self.options.plugins, scan.theme.shortcodes());
            let views = Views::new(config, &scan.i18n);
            Ok(self.settings_as_last(meta, (&settings, &views, &scan.theme)))
        };
        let (snapshot, kept_plan, outputs) = match kept {
            Some(Resumed { snapshot, plan }) => (snapshot, plan, OutputRows::Every),
            None if may_plan_shown()? => {
                let claimed = plan::site_file_urls(self.site.config());
                let snapshot = self.index.snapshot_of_stubs(&self.out_key, &claimed)?;
                (snapshot, None, OutputRows::Unread)
            }
            None => (self.index.snapshot(&self.out_key)?, None, OutputRows::Every),
        };
        let files = FilesAt::new(self.site.root());
        let reading = Reading {
            root: self.site.root(),
            config: self.site.config(),
            files: &files,
            force_read,
            changed,
            started_ns: lock.started_ns,
            accept_id_changes: self.options.accept_id_changes,
            plugins: &self.options.plugins,
            shortcodes: scan.theme.shortcodes(),
            progress: &self.progress,
        };
        let problems = std::mem::take(&mut scan.problems);
        let stubs_of = matches!(outputs, OutputRows::Unread).then_some(&self.index);
        let mut analysis = analyse::analyse(
            &reading,
            (snapshot, stubs_of),
            (&scan.sources, &scan.sections),
            problems,
            &mut report,
        )?;
        self.whole_when_linked(&mut analysis)?;
        let config = self.site.config();
        let image_files = ImageFiles::new(&scan.statics, &scan.bundles, &config.base_path);
        let drawn = analysis.snapshot.meta.image_uses();
        let sass_reads = analysis.snapshot.meta.sass_reads();
        let assets = crate::model::asset::facts_from_json(analysis.snapshot.meta.assets.as_deref());
        let images = crate::build::images::survey(
            (config, &files, &image_files),
            (&analysis.current, self.visibility(), &drawn),
            (&analysis.snapshot.images, force_read),
            lock.started_ns,
        )?;
        Ok(Prepared {
            lock,
            scan,
            analysis,
            kept_plan,
            images,
            drawn,
            sass_reads,
            assets,
            inputs: None,
            report,
            outputs,
        })
    }

    /// The config and the plugins: what the scan reads the site with.
    fn settings(&self) -> (&crate::source::config::Config, &crate::plugin::Plugins) {
        (self.site.config(), &self.options.plugins)
    }

    /// Which documents the session's builds publish.
    pub(crate) fn visibility(&self) -> Visibility {
        Visibility {
            drafts: self.options.drafts,
            future: self.options.future,
            expired: self.options.expired,
            now_ms: self.options.now_ms,
        }
    }

    /// Reports the warnings the scan found (words missing from a
    /// language's table).
    fn warn_of(&self, scan: &Scan, report: &mut BuildReport) {
        for warning in &scan.i18n.warnings {
            self.progress.warn(report, warning.clone());
        }
    }
}

/// The plan's problems with a front matter field (a template the theme
/// does not have) found from the records, which keep no lines: each gets
/// its line from its source, read again for the error alone.
fn on_field_lines(error: Error, root: &Path) -> Error {
    let Error::Content(mut problems) = error else {
        return error;
    };
    for problem in problems.iter_mut().filter(|p| p.line.is_none()) {
        if let ProblemKind::Field { field, .. } = &problem.kind
            && let Ok(bytes) = fs::read(root.join(&problem.path))
        {
            problem.line = crate::source::parse::field_line(&bytes, field);
        }
    }
    Error::Content(problems)
}

/// The host's plugins and, after them, each plugin that ships with folio
/// which `config`'s `[plugins]` turns on and the host did not register
/// itself; checked, as every build's plugins are.
fn with_site_plugins(
    host: &Plugins,
    config: &crate::source::config::Config,
) -> Result<Plugins, Error> {
    let mut plugins = host.clone();
    let wanted = config.plugins;
    let registered = |name: &str| plugins.names().any(|known| known == name);
    let youtube = wanted.youtube && !registered(crate::plugin::YouTube::NAME);
    let search = wanted.search_index && !registered(crate::plugin::SearchIndex::NAME);
    if youtube {
        plugins.markdown(crate::plugin::YouTube::new());
    }
    if search {
        plugins.output(crate::plugin::SearchIndex::new());
    }
    plugins.check(crate::render::BUILT_IN_CALLABLES)?;
    Ok(plugins)
}

/// Where the index of `site` is for builds with `options`.
pub(crate) fn index_path(site: &Site, options: &BuildOptions) -> PathBuf {
    options
        .index_path
        .clone()
        .unwrap_or_else(|| site.root().join(STATE_DIR).join(INDEX_FILE))
}

/// How the index names the output folder `out_dir` (absolute): by its path
/// under the site root when it is inside, so that a site moved or copied
/// elsewhere (`cp -a`, a CI cache restored into another checkout) keeps
/// its outputs folio's; by its absolute path otherwise.
fn output_key(root: &Path, out_dir: &Path) -> String {
    match out_dir.strip_prefix(root) {
        Ok(inside) => inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => out_dir.to_string_lossy().into_owned(),
    }
}
