//! A site and its build: the stages wired together.
//!
//! Owns the order of the pipeline and what passes between the stages; each
//! stage's rules live in its own module. Everything that can fail on the
//! content (parsing, the invariants, URLs, templates, foreign files) fails
//! before the first output is written; the index changes in one transaction
//! after the outputs are on disk, so a build killed in between is repaired by
//! the next one.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::discover::{self, CONTENT_DIR, FilesAt};
use crate::doc::{Kind, Record, Source, SourceState, Stat};
use crate::hash::source_hash;
use crate::error::{Error, Problem, ProblemKind};
use crate::i18n::I18n;
use crate::id::PostId;
use crate::identify::{self, TimezoneChange};
use crate::index::{Changes, Index, OutputRow, Snapshot};
use crate::parse::{self, BodyAt, Parsed};
use crate::plan::{self, OutputPath, Views, Visibility};
use crate::render::{SitemapEntry, TEMPLATES_DIR, Theme};
use crate::write::{self, Pruned, Rendered};

/// Where folio keeps its state, under the site root.
pub const STATE_DIR: &str = ".folio";
const INDEX_FILE: &str = "index.sqlite";
const LOCK_FILE: &str = "build.lock";

/// A folio site: a root folder with `site.toml`, `content/` and optionally
/// `templates/`.
#[derive(Debug, Clone)]
pub struct Site {
    root: PathBuf,
    config: Config,
}

/// A build stage that reports progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Stage {
    Parse,
    Render,
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
    pub stage: Stage,
    pub done: usize,
    pub total: usize,
}

/// Receives [`Progress`] during a build.
pub type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

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
    /// The moment (Unix ms) after which a post is in the future: the caller
    /// says what time it is (the CLI takes `SOURCE_DATE_EPOCH`, else the
    /// clock), since the library reads neither. It decides which posts are
    /// published, never what a page says.
    pub now_ms: i64,
    /// Accept changed publication dates: the post gets a new id and its old
    /// row is replaced. For dates that were never published.
    pub accept_date_changes: bool,
    /// Say what would be written and deleted, and why, without writing an
    /// output or changing a row.
    pub dry_run: bool,
    pub progress: Option<ProgressFn>,
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
            now_ms,
            accept_date_changes: false,
            dry_run: false,
            progress: None,
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
            .field("now_ms", &self.now_ms)
            .field("threads", &self.threads)
            .field("accept_date_changes", &self.accept_date_changes)
            .field("dry_run", &self.dry_run)
            .field("progress", &self.progress.as_ref().map(|_| "…"))
            .finish()
    }
}

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
    /// Index rows inserted or updated, and deleted.
    pub rows_upserted: usize,
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

impl Site {
    /// Opens the site at `root`, reading and validating its `site.toml`.
    pub fn open(root: impl Into<PathBuf>) -> Result<Site, Error> {
        let root = root.into();
        let config = Config::load(&root)?;
        Ok(Site { root, config })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The output folder a build with `options` writes to.
    pub fn output_dir(&self, options: &BuildOptions) -> PathBuf {
        let dir = options.out_dir.as_ref().unwrap_or(&self.config.output_dir);
        self.root.join(dir)
    }

    /// The id of the source at `file` (relative to the current folder or
    /// absolute), as `folio build` would derive it.
    pub fn id_of(&self, file: &Path) -> Result<PostId, Error> {
        let content = absolute(&self.root.join(CONTENT_DIR))?;
        let file_abs = absolute(file)?;
        let rel = file_abs
            .strip_prefix(&content)
            .ok()
            .and_then(|p| p.to_str())
            .map(|p| p.replace('\\', "/"))
            .ok_or_else(|| {
                Error::Content(vec![Problem::new(
                    file,
                    None,
                    ProblemKind::Layout {
                        message: format!("not under {}", content.display()),
                        help: "pass a Markdown file from the site's content folder".into(),
                    },
                )])
            })?;
        let mut source = discover::classify(&rel, &self.config)
            .map_err(|kind| Error::Content(vec![Problem::new(file, None, kind)]))?;
        source.path = format!("{CONTENT_DIR}/{rel}");
        let bytes = fs::read(file).map_err(|e| Error::io(file, e))?;
        let hash = source_hash(&bytes);
        parse::parse(&source, &bytes, hash, &self.config)
            .map(|parsed| parsed.record.id)
            .map_err(|(line, kind)| Error::Content(vec![Problem::new(file, line, kind)]))
    }

    /// Builds the site. On error nothing was written, except for an I/O error
    /// while writing outputs, after which the next build converges.
    pub fn build(&self, options: &BuildOptions) -> Result<BuildReport, Error> {
        let started = Instant::now();
        let mut report = match options.threads {
            Some(threads) => rayon::ThreadPoolBuilder::new()
                .num_threads(threads.max(1))
                .build()
                .map_err(|e| Error::io(&self.root, std::io::Error::other(e)))?
                .install(|| self.build_with_retry(options))?,
            None => self.build_with_retry(options)?,
        };
        report.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        Ok(report)
    }

    /// A page's body is read from its source when the page renders, and the
    /// bytes must be those its record was made from: a source saved since
    /// this build parsed it, or whose bytes changed while its size and mtime
    /// did not (`cp -p`, `rsync -t`, trusted by its stat until its page must
    /// be rendered again), disagrees. No output has changed at that point
    /// (the pages staged after a prune are rendered before it), so the build
    /// starts over once, reading those sources; a second disagreement is an
    /// error.
    fn build_with_retry(&self, options: &BuildOptions) -> Result<BuildReport, Error> {
        match self.build_once(options, &HashSet::new(), None)? {
            Attempt::Built(report) => Ok(report),
            Attempt::Explained(_) => unreachable!("only explain() asks for an explanation"),
            Attempt::SourcesChanged(paths) => match self.build_once(options, &paths, None)? {
                Attempt::Built(report) => Ok(report),
                Attempt::Explained(_) => unreachable!("only explain() asks for an explanation"),
                Attempt::SourcesChanged(paths) => {
                    let mut paths: Vec<String> = paths.into_iter().collect();
                    paths.sort();
                    Err(Error::Content(
                        paths
                            .iter()
                            .map(|path| Problem::new(path, None, ProblemKind::ChangedDuringBuild))
                            .collect(),
                    ))
                }
            },
        }
    }

    /// One attempt at a build; with `explain`, the planning of one and the
    /// sources of that output, nothing written.
    fn build_once(
        &self,
        options: &BuildOptions,
        force_read: &HashSet<String>,
        explain: Option<&str>,
    ) -> Result<Attempt, Error> {
        let out_dir = self.checked_output_dir(options)?;
        let index_path = options
            .index_path
            .clone()
            .unwrap_or_else(|| self.root.join(STATE_DIR).join(INDEX_FILE));
        let state_dir = index_path.parent().unwrap_or(&self.root).to_owned();
        let lock = BuildLock::acquire(&state_dir)?;
        let mut index = Index::open(&index_path)?;
        let progress = Reporter::new(options.progress.clone());
        let mut report = BuildReport::default();
        let mut clock = StageClock::start();
        let out_key = out_dir.to_string_lossy().into_owned();

        // A build killed while staging left temp files that no row names.
        if !options.dry_run && index.staging(&out_key)? {
            write::sweep_temps(&out_dir);
            index.set_staging(&out_key, false)?;
        }

        // discover, and stat every output the index knows: both are a system
        // call per file, and the outputs' stats serve both the no-op check
        // below and, for every page whose fingerprint held, whether its file
        // is intact.
        // The outputs' rows are read while the content folder is listed.
        let (discovered, damaged) = rayon::join(
            || discover::discover(&self.root, &self.config),
            || {
                let mut stored_stats = index.output_stats(&out_key)?;
                // Only a folder with no rows can be the one unfiled rows
                // belong to; a build of a folder it knows does no write here.
                if stored_stats.is_empty()
                    && !options.dry_run
                    && index.adopt_unfiled_outputs(&out_key)?
                {
                    stored_stats = index.output_stats(&out_key)?;
                }
                Ok::<_, Error>(Damaged::find(&out_dir, stored_stats))
            },
        );
        let (sources, problems) = discovered?;
        let damaged = damaged?;
        let statics = discover::discover_static(&self.root)?;
        let theme = Theme::load(&self.root)?;
        let i18n = I18n::load(&self.root, &self.config)?;
        report.scanned = sources.len();
        report.warnings = i18n.warnings.clone();
        let now = options.now_ms;
        let inputs = self.inputs_digest(&InputsOf {
            options,
            out_key: &out_key,
            sources: &sources,
            statics: &statics,
            theme: &theme,
            i18n: &i18n,
            started_ns: lock.started_ns,
        });
        // Nothing any page is made from changed since the last build, and
        // every output is as it left it: the whole plan would be a no-op.
        if problems.is_empty()
            && force_read.is_empty()
            && explain.is_none()
            && let Some(inputs) = &inputs
            && index.unchanged_since(inputs, now)?
            && damaged.is_empty()
        {
            report.unchanged = sources.len();
            report.dry_run = options.dry_run;
            clock.lap(&mut report, "discover");
            return Ok(Attempt::Built(report));
        }
        let snapshot = index.snapshot(&out_key)?;
        let files = FilesAt::new(&self.root);

        let Analysis {
            snapshot,
            fresh,
            bodies,
            current,
            verdict,
            settings,
        } = self.analyse(
            options,
            force_read,
            &files,
            snapshot,
            (sources, problems),
            lock.started_ns,
            &progress,
            &mut report,
            &mut clock,
        )?;

        // plan
        let env = theme.environment()?;
        let views = Views::new(&self.config, &i18n);
        let visibility = Visibility {
            drafts: options.drafts,
            future: options.future,
            now_ms: now,
        };
        // The fast path holds while `now` stays between the newest date shown
        // and the oldest date held back.
        let last_shown = current
            .iter()
            .filter(|r| {
                r.kind == Kind::Post
                    && (options.drafts || !r.draft)
                    && (options.future || r.published_at <= now)
            })
            .map(|r| r.published_at)
            .max()
            .unwrap_or(i64::MIN);
        let next_due = if options.future {
            i64::MAX
        } else {
            current
                .iter()
                .filter(|r| {
                    r.kind == Kind::Post && (options.drafts || !r.draft) && r.published_at > now
                })
                .map(|r| r.published_at)
                .min()
                .unwrap_or(i64::MAX)
        };
        let mut plan = plan::plan(
            &self.config,
            &views,
            &theme,
            &current,
            &statics,
            visibility,
            lock.started_ns,
        )?;
        if let Some(query) = explain {
            return self
                .explanation(&plan, &theme, &out_dir, query)
                .map(Attempt::Explained);
        }
        let specs = std::mem::take(&mut plan.specs);
        let copies = std::mem::take(&mut plan.copies);
        let produced: FxHashSet<&str> = specs
            .iter()
            .map(|s| s.output.as_str())
            .chain(copies.iter().map(|c| c.output.as_str()))
            .collect();
        let mut stale: Vec<(&String, &OutputRow)> = snapshot
            .outputs
            .iter()
            .filter(|(path, _)| !produced.contains(path.as_str()))
            .collect();
        stale.sort_by(|a, b| a.0.cmp(b.0));
        drop(produced);
        let outdated = |output: &OutputPath, fingerprint: &str| {
            snapshot.outputs.get(output.as_str()).is_none_or(|row| {
                row.fingerprint.as_deref() != Some(fingerprint) || !damaged.intact(output, row)
            })
        };
        let needs_render: Vec<bool> = specs
            .par_iter()
            .map(|spec| outdated(&spec.output, &spec.fingerprint))
            .collect();
        let copies: Vec<plan::Copy> = copies
            .into_par_iter()
            .filter(|copy| outdated(&copy.output, &copy.fingerprint))
            .collect();
        if options.dry_run {
            report.dry_run = true;
            report.why = self.reasons(&Reasons {
                plan: &plan,
                theme: &theme,
                specs: &specs,
                selected: &needs_render,
                copies: &copies,
                snapshot: &snapshot,
                fresh: fresh.iter().map(|&i| &current[i]).collect(),
                retired: &verdict.retired,
                damaged: &damaged,
            });
        }
        let meta_theme = serde_json::to_string(theme.own_hashes()).unwrap_or_default();
        let meta_globals = plan.globals().to_owned();
        let meta_wording = serde_json::to_string(plan.wording()).unwrap_or_default();
        // render, and stage what changed: no output changes until every page
        // has rendered and every check has passed.
        clock.lap(&mut report, "plan");
        let sitemap = plan.sitemap_if_selected(&specs, &needs_render);
        // An output that is now a file where a stale one was a folder, or
        // the other way round, is staged last, once the stale outputs in its
        // way are pruned: until then, no output has changed.
        let blockers = Blockers::new(&stale);
        // Sized up front: grown by doubling, the 24,000 specs of a cold
        // build were copied and faulted into fresh memory a dozen times over,
        // while one core idled.
        let (mut blocked, mut free) = (Vec::new(), Vec::with_capacity(specs.len()));
        for (spec, render) in specs.into_iter().zip(needs_render) {
            if !render {
                continue;
            }
            if blockers.block(spec.output.as_str()) {
                blocked.push(spec);
            } else {
                free.push(spec);
            }
        }
        // The sitemap, one page with an entry for every other, goes first:
        // last in plan order, it was the last page rendered, one core idle
        // for the 35 to 120 ms it took at 15,000 posts.
        if let Some(at) = free.iter().position(plan::Spec::is_sitemap) {
            free[..=at].rotate_right(1);
        }
        report.rendered = free.len() + blocked.len();
        if !options.dry_run && (report.rendered > 0 || !copies.is_empty()) {
            index.set_staging(&out_key, true)?;
        }
        progress.start(Stage::Render, report.rendered + copies.len());
        let mut staging =
            write::Staging::for_folder(&out_dir, !options.dry_run && snapshot.outputs.is_empty())?;
        let (blocked_copies, free_copies): (Vec<plan::Copy>, Vec<plan::Copy>) = copies
            .into_iter()
            .partition(|c| blockers.block(c.output.as_str()));
        let mut pruned_early: HashSet<&str> = HashSet::new();
        let job = RenderJob {
            options,
            out_dir: &out_dir,
            plan: &plan,
            sitemap: sitemap.as_deref(),
            theme: &theme,
            env: &env,
            files: &files,
            current: &current,
            bodies: &bodies,
            stored: &snapshot.outputs,
            progress: &progress,
        };
        let changed = self.render_and_stage(
            &job,
            [(free, free_copies), (blocked, blocked_copies)],
            &stale,
            &mut staging,
            &mut report,
            &mut pruned_early,
        )?;
        if !changed.is_empty() {
            return Ok(Attempt::SourcesChanged(changed));
        }

        // write
        clock.lap(&mut report, "render");
        if options.dry_run {
            report.written = staging
                .pages()
                .iter()
                .filter(|page| page.changed)
                .map(|page| page.output.to_string())
                .collect();
            report.written.sort();
            for (path, row) in &stale {
                let Some(confined) = OutputPath::new(path) else {
                    continue;
                };
                if write::prunable(&out_dir, &confined, row)? == Pruned::Deleted {
                    report.deleted.push((*path).clone());
                }
            }
            let mut why = std::mem::take(&mut report.why);
            report.why = report
                .written
                .iter()
                .map(|path| (path.clone(), why.remove(path).unwrap_or_default()))
                .chain(
                    report
                        .deleted
                        .iter()
                        .map(|path| (path.clone(), "no page produces it any more".to_owned())),
                )
                .collect();
            clock.lap(&mut report, "write");
            return Ok(Attempt::Built(report));
        }
        let new_paths: Vec<(&str, &str)> = staging
            .pages()
            .iter()
            .filter(|p| p.changed)
            .map(|p| (p.output.as_str(), p.hash()))
            .filter(|(p, _)| {
                snapshot
                    .outputs
                    .get(*p)
                    .is_none_or(|row| row.stat.is_none())
            })
            .collect();
        index.reserve_outputs(&out_key, &new_paths)?;
        progress.start(Stage::Write, staging.pages().len());
        let mut written: Vec<write::Written> = staging.commit(|| progress.advance(Stage::Write))?;
        written.sort_by(|a, b| a.output.cmp(&b.output));
        for (path, row) in stale
            .iter()
            .filter(|(path, _)| !pruned_early.contains(path.as_str()))
        {
            let confined = OutputPath::new(path).ok_or_else(|| Error::Index {
                path: index.path().to_owned(),
                source: format!("an output row names {path}, outside the output folder").into(),
            })?;
            match write::prune(&out_dir, &confined, row)? {
                Pruned::Deleted => report.deleted.push((*path).clone()),
                Pruned::Missing => {}
                Pruned::Kept => report.warnings.push(format!(
                    "{}: left in place: it changed since folio wrote it, and no page produces it any more",
                    write::target(&out_dir, &confined).display()
                )),
            }
        }
        report.deleted.sort();
        report.written = written
            .iter()
            .filter(|w| w.changed)
            .map(|w| w.output.to_string())
            .collect();

        // index
        clock.lap(&mut report, "write");
        let stored_by_id: HashMap<PostId, &Record> =
            snapshot.records.iter().map(|r| (r.id, r)).collect();
        let retired: HashSet<PostId> = verdict.retired.iter().copied().collect();
        let mut changes = Changes {
            output_dir: &out_key,
            retired: &verdict.retired,
            dropped_outputs: stale.iter().map(|(path, _)| (*path).clone()).collect(),
            meta: vec![
                ("content_settings", settings),
                ("timezone", self.config.timezone_name.clone()),
                ("inputs", inputs.unwrap_or_default()),
                ("next_due", next_due.to_string()),
                (
                    "last_shown",
                    if options.future { i64::MIN } else { last_shown }.to_string(),
                ),
                ("theme", meta_theme),
                ("globals", meta_globals),
                ("wording", meta_wording),
            ],
            ..Changes::default()
        };
        for record in fresh.iter().map(|&i| &current[i]) {
            match stored_by_id.get(&record.id) {
                Some(stored) if !retired.contains(&record.id) && same_content(stored, record) => {
                    if stored.source.stat != record.source.stat {
                        changes.restats.push((&record.id, record.source.stat));
                    }
                }
                _ => changes.upserts.push(record),
            }
        }
        changes.outputs = written
            .into_iter()
            .filter(|w| snapshot.outputs.get(w.output.as_str()) != Some(&w.row))
            .map(|w| (w.output.to_string(), w.row))
            .collect();
        report.rows_upserted = changes.upserts.len();
        report.rows_deleted = changes.retired.len();
        // The commit is SQLite's work on one core; the plan (every list
        // entry, as template values) is freed on the other meanwhile.
        let (committed, ()) = rayon::join(|| index.commit(&changes), move || drop((plan, env)));
        committed?;
        drop(lock);
        clock.lap(&mut report, "index");
        Ok(Attempt::Built(report))
    }

    /// Renders and stages the selected pages and copies: the free ones, each
    /// worker carrying a page from its context to its temp file; then the
    /// blocked ones, rendered before the prune that makes room for them and
    /// staged after it, so that a failing page or a changed source never
    /// stops a build that has deleted outputs. Returns the sources whose
    /// bytes are no longer those their records were made from (the build
    /// must start over reading them); a page in the way of a file folio did
    /// not write is an error. Every staged page joins `staging`, whose drop
    /// removes the temp files of a build that stops here.
    fn render_and_stage<'s>(
        &self,
        job: &RenderJob<'_, '_>,
        [(free, free_copies), (blocked, blocked_copies)]: [(Vec<plan::Spec>, Vec<plan::Copy>); 2],
        stale: &[(&'s String, &OutputRow)],
        staging: &mut write::Staging,
        report: &mut BuildReport,
        pruned_early: &mut HashSet<&'s str>,
    ) -> Result<HashSet<String>, Error> {
        let dry_run = job.options.dry_run;
        let (mut ready, mut foreign) = (Vec::new(), Vec::new());
        let outcomes = self.render_all(job, free, free_copies, |page| job.stage(staging, page));
        let changed = gather(outcomes, staging, &mut ready, &mut foreign)?;
        // A build already refused prunes nothing.
        if !changed.is_empty()
            || !foreign.is_empty()
            || (blocked.is_empty() && blocked_copies.is_empty())
        {
            return refused_or(changed, foreign);
        }
        let outcomes = self.render_all(job, blocked, blocked_copies, |page| {
            Ok(Rendering::Done(page))
        });
        let changed = gather(outcomes, staging, &mut ready, &mut foreign)?;
        if !changed.is_empty() {
            return Ok(changed);
        }
        // Every blocked page rendered: they are what `ready` holds.
        if !dry_run {
            let outputs: Vec<&str> = ready.iter().map(|page| page.output.as_str()).collect();
            prune_in_the_way(job.out_dir, stale, &outputs, report, pruned_early)?;
        }
        let outcomes = ready
            .into_par_iter()
            .map(|page| {
                // In a dry run, what stands in a blocked page's place is
                // still there, and would be pruned.
                if dry_run {
                    return Ok(Rendering::Staged(write::planned(page)));
                }
                job.stage(staging, page)
            })
            .collect();
        gather(outcomes, staging, &mut Vec::new(), &mut foreign)?;
        refused_or(HashSet::new(), foreign)
    }

    /// Renders `specs` and reads `copies` in parallel, handing each page to
    /// `then` (which stages it, or keeps it for later). After an error, the
    /// pages after it are skipped; those before it still render, so the
    /// error reported (the first in page order) is the same from run to run.
    fn render_all(
        &self,
        job: &RenderJob<'_, '_>,
        specs: Vec<plan::Spec>,
        copies: Vec<plan::Copy>,
        then: impl Fn(Rendered) -> Result<Rendering, Error> + Sync,
    ) -> Vec<Result<Rendering, Error>> {
        let first_failed = AtomicUsize::new(usize::MAX);
        let finish = |at: usize, made: Option<Result<Rendering, Error>>| {
            let result = match made.unwrap_or(Ok(Rendering::Skipped)) {
                Ok(Rendering::Done(page)) => then(page),
                other => other,
            };
            if result.is_err() {
                first_failed.fetch_min(at, Ordering::Relaxed);
            }
            job.progress.advance(Stage::Render);
            result
        };
        let due = |at: usize| at <= first_failed.load(Ordering::Relaxed);
        let pages = specs.len();
        // Each page is built, rendered and handed on by one worker in one
        // go, in runs of at most RUN_LEN: rayon splits a stolen job further
        // but never the run a worker is already through, and without a bound
        // the last run left one core rendering alone for ~175 ms of a cold
        // build.
        let rendered = specs
            .into_par_iter()
            .with_max_len(RUN_LEN)
            .enumerate()
            .map(|(at, spec)| finish(at, due(at).then(|| self.render_page(job, spec))));
        let copied = copies
            .into_par_iter()
            .with_max_len(RUN_LEN)
            .enumerate()
            .map(|(at, copy)| {
                let at = pages + at;
                finish(at, due(at).then(|| self.read_copy(copy)))
            });
        rendered.chain(copied).collect()
    }

    /// One page, its body read again from its source if it shows one.
    fn render_page(&self, job: &RenderJob<'_, '_>, spec: plan::Spec) -> Result<Rendering, Error> {
        let body_of = spec.body_of();
        let mut page = job.plan.page(spec, job.sitemap);
        if let Some(i) = body_of {
            let record = &job.current[i];
            let read = job.bodies.get(&i);
            let Some(bytes) = self.read_source(job.files, record, read) else {
                return Ok(Rendering::SourceChanged(record.source.path.clone()));
            };
            let body =
                parse::body_html(&bytes, read.map(|at| at.start)).map_err(|(line, kind)| {
                    Error::Content(vec![Problem::new(&record.source.path, line, kind)])
                })?;
            page.context.set_content(body);
        }
        let size_hint = page.context.size_hint();
        let bytes = job
            .theme
            .render(job.env, page.template, &page.context, size_hint)?;
        Ok(Rendering::Done(Rendered {
            output: page.output,
            bytes,
            fingerprint: page.fingerprint,
        }))
    }

    /// A static file, read to be staged like a page.
    fn read_copy(&self, copy: plan::Copy) -> Result<Rendering, Error> {
        let path = self.root.join(&copy.source);
        let bytes = fs::read(&path).map_err(|e| Error::io(&path, e))?;
        Ok(Rendering::Done(Rendered {
            output: copy.output,
            bytes,
            fingerprint: copy.fingerprint,
        }))
    }

    /// A digest of everything a build reads: the config, templates, words,
    /// options, and the stat of every source and static file. `None` when a
    /// stat cannot be trusted (racy), so that no later build skips on it.
    fn inputs_digest(&self, of: &InputsOf<'_>) -> Option<String> {
        let stats = of
            .sources
            .iter()
            .map(|s| (s.path.as_str(), s.stat))
            .chain(of.statics.iter().map(|s| (s.rel.as_str(), s.stat)));
        let mut hasher = Sha256::new();
        for (path, stat) in stats {
            if stat.mtime_ns == Stat::RACY || stat.mtime_ns >= of.started_ns {
                return None;
            }
            hasher.update(path.as_bytes());
            hasher.update(b"\0");
            hasher.update(stat.size.to_le_bytes());
            hasher.update(stat.mtime_ns.to_le_bytes());
        }
        let header = format!(
            "{}\0{}\0{}\0{:?}\0{}\0drafts {} future {}\0{}",
            self.config.content_settings(),
            self.config.digest,
            of.i18n.digest,
            of.theme.own_hashes(),
            of.out_key,
            of.options.drafts,
            of.options.future,
            of.sources.len(),
        );
        hasher.update(header.as_bytes());
        Some(crate::hash::hex(&hasher.finalize()))
    }

    /// Names what the output file at `output` is built from: its templates,
    /// sources, config keys and words. `output` is a path in the output
    /// folder (`public/fr/index.html`), relative to it (`fr/index.html`) or a
    /// URL path (`/fr/`). Reads the changed sources; writes nothing.
    pub fn explain(&self, output: &str, options: &BuildOptions) -> Result<Explanation, Error> {
        match self.build_once(options, &HashSet::new(), Some(output))? {
            Attempt::Explained(explanation) => Ok(explanation),
            Attempt::Built(_) | Attempt::SourcesChanged(_) => {
                unreachable!("an explaining attempt returns at the plan")
            }
        }
    }

    fn explanation(
        &self,
        plan: &plan::Plan<'_>,
        theme: &Theme,
        out_dir: &Path,
        query: &str,
    ) -> Result<Explanation, Error> {
        let under_out = absolute(Path::new(query))
            .ok()
            .map(|p| lexical(&p))
            .and_then(|p| {
                p.strip_prefix(out_dir)
                    .ok()
                    .map(|r| r.to_string_lossy().replace('\\', "/"))
            });
        let rel = under_out.unwrap_or_else(|| query.trim_start_matches('/').to_owned());
        let wanted = if rel.is_empty() || rel.ends_with('/') {
            OutputPath::for_url(&format!("/{rel}"))
        } else {
            OutputPath::new(&rel).or_else(|| OutputPath::for_url(&format!("/{rel}")))
        };
        let not_found = || Error::UnknownOutput {
            query: query.to_owned(),
        };
        let wanted = wanted.ok_or_else(not_found)?;
        if let Some(spec) = plan.specs.iter().find(|s| s.output == wanted) {
            return Ok(Explanation {
                output: spec.output.to_string(),
                made_for: plan.made_by(spec),
                templates: theme.closure(spec.template),
                sources: plan.sources_of(spec),
                config_keys: plan.config_keys(spec),
                language: Some(plan.language(spec).to_owned()),
            });
        }
        if let Some(copy) = plan.copies.iter().find(|c| c.output == wanted) {
            return Ok(Explanation {
                output: copy.output.to_string(),
                made_for: copy.source.clone(),
                templates: Vec::new(),
                sources: vec![copy.source.clone()],
                config_keys: Vec::new(),
                language: None,
            });
        }
        Err(not_found())
    }

    /// Why each page to render (and file to copy) is out of date, in words.
    fn reasons(&self, r: &Reasons<'_, '_>) -> BTreeMap<String, String> {
        let stored_by_path: HashMap<&str, &Record> = r
            .snapshot
            .records
            .iter()
            .map(|rec| (rec.source.path.as_str(), rec))
            .collect();
        let retired: HashSet<&PostId> = r.retired.iter().collect();
        let changed_sources: HashSet<&str> = r
            .fresh
            .iter()
            .filter(|record| {
                stored_by_path
                    .get(record.source.path.as_str())
                    .is_none_or(|old| old.source.hash != record.source.hash)
            })
            .map(|record| record.source.path.as_str())
            .chain(
                r.snapshot
                    .records
                    .iter()
                    .filter(|rec| retired.contains(&rec.id))
                    .map(|rec| rec.source.path.as_str()),
            )
            .collect();
        let parse_map = |json: &Option<String>| -> BTreeMap<String, String> {
            json.as_deref()
                .and_then(|j| serde_json::from_str(j).ok())
                .unwrap_or_default()
        };
        let old_theme = parse_map(&r.snapshot.theme);
        let old_wording = parse_map(&r.snapshot.wording);
        let globals_changed = r.snapshot.globals.as_deref() != Some(r.plan.globals());
        // The settings a folio brings of its own are in every page's
        // fingerprint too: after an upgrade, every page renders with
        // site.toml untouched.
        let another_folio = !r
            .snapshot
            .content_settings
            .as_deref()
            .is_some_and(crate::config::made_by_this_folio);

        let mut why = BTreeMap::new();
        for (spec, _) in r
            .specs
            .iter()
            .zip(r.selected)
            .filter(|(_, picked)| **picked)
        {
            let reason = match r.snapshot.outputs.get(spec.output.as_str()) {
                None => "a new page".to_owned(),
                Some(row) if !r.damaged.intact(&spec.output, row) => {
                    "its file in the output folder is missing or was changed".to_owned()
                }
                Some(_) => {
                    let mut parts = Vec::new();
                    let templates: Vec<String> = r
                        .theme
                        .closure(spec.template)
                        .into_iter()
                        .filter(|t| old_theme.get(t) != r.theme.own_hashes().get(t))
                        .collect();
                    if !templates.is_empty() {
                        parts.push(format!("template changed: {}", templates.join(", ")));
                    }
                    if globals_changed {
                        parts.push(if another_folio {
                            "another folio (another version) made the last build".to_owned()
                        } else {
                            "site.toml changed".to_owned()
                        });
                    }
                    let lang = r.plan.language(spec);
                    if old_wording.get(lang) != r.plan.wording().get(lang) {
                        parts.push(format!("the words of `{lang}` changed"));
                    }
                    let sources: Vec<String> = r
                        .plan
                        .sources_of(spec)
                        .into_iter()
                        .filter(|s| changed_sources.contains(s.as_str()))
                        .collect();
                    if !sources.is_empty() {
                        parts.push(format!("source changed: {}", sources.join(", ")));
                    }
                    if parts.is_empty() {
                        parts.push(
                            "what it lists or links changed (a document added, removed, re-dated or published)"
                                .to_owned(),
                        );
                    }
                    parts.join("; ")
                }
            };
            why.insert(spec.output.to_string(), reason);
        }
        for copy in r.copies {
            let reason = if r.snapshot.outputs.contains_key(copy.output.as_str()) {
                format!("{} changed", copy.source)
            } else {
                format!("{} is new", copy.source)
            };
            why.insert(copy.output.to_string(), reason);
        }
        why
    }

    /// Discover, parse and identify: the documents of this build, checked
    /// against the invariants. Reads what changed; writes nothing.
    #[allow(clippy::too_many_arguments)] // the pieces of one build, passed down once
    fn analyse(
        &self,
        options: &BuildOptions,
        force_read: &HashSet<String>,
        files: &FilesAt,
        mut snapshot: Snapshot,
        (sources, mut problems): (Vec<Source>, Vec<Problem>),
        started_ns: i64,
        progress: &Reporter,
        report: &mut BuildReport,
        clock: &mut StageClock,
    ) -> Result<Analysis, Error> {
        let settings = self.config.content_settings();
        let reparse_all = snapshot.content_settings.as_deref() != Some(settings.as_str());
        // A row whose source kept its stat is this build's record as it is:
        // it moves out of the snapshot, which keeps only the rows a changed,
        // new or removed source may conflict with.
        let mut trusted = vec![false; snapshot.records.len()];
        let to_read: Vec<&Source> = {
            let stored_by_path: FxHashMap<&str, usize> = snapshot
                .records
                .iter()
                .enumerate()
                .map(|(i, r)| (r.source.path.as_str(), i))
                .collect();
            sources
                .iter()
                .filter(|s| {
                    let unchanged = !reparse_all
                        && !force_read.contains(&s.path)
                        && s.stat.mtime_ns < started_ns
                        && stored_by_path.get(s.path.as_str()).is_some_and(|&i| {
                            let r = &snapshot.records[i];
                            r.source.stat == s.stat && r.source.stat.mtime_ns != Stat::RACY
                        });
                    if unchanged {
                        trusted[stored_by_path[s.path.as_str()]] = true;
                    }
                    !unchanged
                })
                .collect()
        };
        let mut unchanged_records = Vec::with_capacity(sources.len() - to_read.len());
        let mut others = Vec::new();
        for (record, trusted) in std::mem::take(&mut snapshot.records)
            .into_iter()
            .zip(trusted)
        {
            if trusted {
                unchanged_records.push(record);
            } else {
                others.push(record);
            }
        }
        snapshot.records = others;
        report.unchanged = unchanged_records.len();
        report.parsed = to_read.len();

        // parse
        clock.lap(report, "discover");
        progress.start(Stage::Parse, to_read.len());
        let results: Vec<Result<Parsed, Problem>> = to_read
            .par_iter()
            .with_max_len(RUN_LEN)
            .map(|source| {
                let result = self.read_and_parse(files, source, started_ns);
                progress.advance(Stage::Parse);
                result
            })
            .collect::<Result<_, Error>>()?;
        let mut fresh = Vec::with_capacity(results.len());
        for result in results {
            match result {
                Ok(parsed) => fresh.push(parsed),
                Err(problem) => problems.push(problem),
            }
        }
        if !problems.is_empty() {
            problems.sort_by(|a, b| a.path.cmp(&b.path));
            return Err(Error::Content(problems));
        }

        // identify
        clock.lap(report, "parse");
        let timezone_change = match &snapshot.timezone {
            Some(old) if reparse_all && *old != self.config.timezone_name => Some(TimezoneChange {
                old,
                new: &self.config.timezone_name,
            }),
            _ => None,
        };
        let verdict = identify::check(
            &fresh,
            &unchanged_records,
            &snapshot.records,
            timezone_change,
            options.accept_date_changes,
        )?;

        clock.lap(report, "identify");
        // Both halves are sorted by path: the stored rows as the snapshot
        // sorted them, the fresh ones here; merging keeps `current` sorted.
        // The fresh records move into `current` (a copy of 15,000 of them
        // was 20 ms of a cold build with one core idle); where each one's
        // body is goes into `bodies`, by its place there.
        fresh.sort_by(|a, b| a.record.source.path.cmp(&b.record.source.path));
        let mut bodies = Vec::with_capacity(fresh.len());
        let fresh_records = fresh.into_iter().map(|parsed| {
            bodies.push(parsed.body);
            parsed.record
        });
        let (current, fresh) = merge_by_path(unchanged_records, fresh_records);
        let bodies = fresh.iter().copied().zip(bodies).collect();
        Ok(Analysis {
            snapshot,
            fresh,
            bodies,
            current,
            verdict,
            settings,
        })
    }

    fn read_and_parse(
        &self,
        files: &FilesAt,
        source: &Source,
        started_ns: i64,
    ) -> Result<Result<Parsed, Problem>, Error> {
        let bytes = files
            .read(&source.path, source.stat.size)
            .map_err(|e| Error::io(self.root.join(&source.path), e))?;
        let hash = source_hash(&bytes);
        Ok(parse::parse(source, &bytes, hash, &self.config)
            .map(|mut parsed| {
                parsed.record.source.stat = source.stat.settled(started_ns);
                parsed
            })
            .map_err(|(line, kind)| Problem::new(&source.path, line, kind)))
    }

    /// The bytes of a document's source, read again for its page: `read`
    /// has their check for a source this build parsed, the record's hash
    /// stands for one trusted by its stat. `None` if the source no longer
    /// holds the bytes its record was made from, or cannot be read: the
    /// build then starts over, and its parse reports what is wrong.
    fn read_source(
        &self,
        files: &FilesAt,
        record: &Record,
        read: Option<&BodyAt>,
    ) -> Option<Vec<u8>> {
        let bytes = files
            .read(&record.source.path, record.source.stat.size)
            .ok()?;
        let same = match read {
            Some(at) => at.holds(&bytes),
            None => source_hash(&bytes) == record.source.hash,
        };
        same.then_some(bytes)
    }

    fn checked_output_dir(&self, options: &BuildOptions) -> Result<PathBuf, Error> {
        let out = lexical(&absolute(&self.output_dir(options))?);
        let root = lexical(&absolute(&self.root)?);
        let reserved = [CONTENT_DIR, TEMPLATES_DIR, STATE_DIR].map(|d| root.join(d));
        if root.starts_with(&out) || reserved.iter().any(|r| out.starts_with(r)) {
            return Err(Error::Config {
                path: self.root.join(crate::config::CONFIG_FILE),
                line: None,
                message: format!(
                    "the output folder {} would hold or overwrite the site's own files",
                    out.display()
                ),
                help: "choose an output folder of its own, such as `public`".into(),
            });
        }
        Ok(out)
    }
}

/// The content columns are equal: only the source's stat may differ.
fn same_content(stored: &Record, fresh: &Record) -> bool {
    // Destructured, so that a field added to `Record` cannot be left out.
    let Record {
        id,
        kind,
        slug,
        lang,
        published_at,
        updated_at,
        source: SourceState {
            path,
            hash,
            stat: _,
        },
        title,
        url,
        summary,
        description,
        tags,
        draft,
        translation_key,
    } = fresh;
    *id == stored.id
        && *kind == stored.kind
        && *slug == stored.slug
        && *lang == stored.lang
        && *published_at == stored.published_at
        && *updated_at == stored.updated_at
        && *path == stored.source.path
        && *hash == stored.source.hash
        && *title == stored.title
        && *url == stored.url
        && *summary == stored.summary
        && *description == stored.description
        && *tags == stored.tags
        && *draft == stored.draft
        && *translation_key == stored.translation_key
}

/// Sorts out what rendering some pages gave: staged pages join `staging`
/// (before any error returns, so that its drop removes their temp files),
/// rendered ones wait in `ready`, pages in the way of files folio did not
/// write go to `foreign`. The sources that changed, or the first error.
fn gather(
    outcomes: Vec<Result<Rendering, Error>>,
    staging: &mut write::Staging,
    ready: &mut Vec<Rendered>,
    foreign: &mut Vec<Problem>,
) -> Result<HashSet<String>, Error> {
    let mut changed = HashSet::new();
    let mut first_error = None;
    for outcome in outcomes {
        match outcome {
            Ok(Rendering::Staged(write::Staged::Page(page))) => staging.push(page),
            Ok(Rendering::Staged(write::Staged::Foreign(problem))) => foreign.push(problem),
            Ok(Rendering::Done(page)) => ready.push(page),
            Ok(Rendering::SourceChanged(path)) => {
                changed.insert(path);
            }
            Ok(Rendering::Skipped) => {}
            Err(e) => {
                first_error.get_or_insert(e);
            }
        }
    }
    first_error.map_or(Ok(changed), Err)
}

/// The sources that changed, unless pages stand in the way of files folio
/// did not write, which refuses the build.
fn refused_or(
    changed: HashSet<String>,
    mut foreign: Vec<Problem>,
) -> Result<HashSet<String>, Error> {
    if foreign.is_empty() || !changed.is_empty() {
        return Ok(changed);
    }
    foreign.sort_by(|a, b| a.path.cmp(&b.path));
    Err(Error::Content(foreign))
}

/// Prunes the stale outputs that stand where `outputs` must go (recording
/// them in `pruned` and the report); one changed by hand since folio wrote
/// it stays, and the build stops naming it.
fn prune_in_the_way<'s>(
    out_dir: &Path,
    stale: &[(&'s String, &OutputRow)],
    outputs: &[&str],
    report: &mut BuildReport,
    pruned: &mut HashSet<&'s str>,
) -> Result<(), Error> {
    let mut in_the_way = Vec::new();
    for (path, row) in stale {
        let Some(confined) = OutputPath::new(path) else {
            continue;
        };
        if !outputs.iter().any(|output| blocks(path, output)) {
            continue;
        }
        let target = write::target(out_dir, &confined);
        match write::prune(out_dir, &confined, row) {
            Ok(Pruned::Deleted) => report.deleted.push((*path).clone()),
            Ok(Pruned::Missing) => {}
            Ok(Pruned::Kept) => in_the_way.push(Problem::new(
                target,
                None,
                ProblemKind::InTheWay {
                    message: "it changed since folio wrote it".into(),
                },
            )),
            Err(e) => in_the_way.push(Problem::new(
                target,
                None,
                ProblemKind::InTheWay {
                    message: format!("it could not be removed: {e}"),
                },
            )),
        }
        pruned.insert(path.as_str());
    }
    if in_the_way.is_empty() {
        Ok(())
    } else {
        Err(Error::Content(in_the_way))
    }
}

/// Whether the stale output `stale` stands where `output` must go: one is
/// a folder on the other's path.
fn blocks(stale: &str, output: &str) -> bool {
    let under = |inner: &str, outer: &str| {
        inner.len() > outer.len()
            && inner.starts_with(outer)
            && inner.as_bytes()[outer.len()] == b'/'
    };
    under(output, stale) || under(stale, output)
}

/// The folders and files of the stale outputs, to tell cheaply which
/// outputs one of them [`blocks`].
struct Blockers<'s> {
    files: HashSet<&'s str>,
    folders: HashSet<&'s str>,
}

impl<'s> Blockers<'s> {
    fn new(stale: &[(&'s String, &OutputRow)]) -> Blockers<'s> {
        let files: HashSet<&str> = stale.iter().map(|(path, _)| path.as_str()).collect();
        let folders = files
            .iter()
            .flat_map(|path| path.match_indices('/').map(|(at, _)| &path[..at]))
            .collect();
        Blockers { files, folders }
    }

    fn block(&self, output: &str) -> bool {
        self.folders.contains(output)
            || output
                .match_indices('/')
                .any(|(at, _)| self.files.contains(&output[..at]))
    }
}

/// Merges two lists of records sorted by source path into one, and says
/// where `b`'s records went.
fn merge_by_path(
    a: Vec<Record>,
    b: impl ExactSizeIterator<Item = Record>,
) -> (Vec<Record>, Vec<usize>) {
    let mut merged = Vec::with_capacity(a.len() + b.len());
    let mut from_b = Vec::with_capacity(b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.source.path <= y.source.path,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return (merged, from_b),
        };
        if !take_a {
            from_b.push(merged.len());
        }
        merged.extend(if take_a { a.next() } else { b.next() });
    }
}

/// The outputs whose file is not as the index left it (changed, removed, or
/// never finished), found once per build.
struct Damaged(HashSet<String>);

impl Damaged {
    fn find(out_dir: &Path, stored: Vec<(String, Stat)>) -> Damaged {
        let at = FilesAt::new(out_dir);
        Damaged(
            stored
                .into_par_iter()
                .filter(|(path, stat)| match at.stat(Path::new(path), true) {
                    Ok((on_disk, true)) => on_disk != *stat,
                    _ => true,
                })
                .map(|(path, _)| path)
                .collect(),
        )
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the file of `output`, whose row is `row`, is as folio wrote it.
    fn intact(&self, output: &OutputPath, row: &OutputRow) -> bool {
        row.hash.is_some() && row.stat.is_some() && !self.0.contains(output.as_str())
    }
}

fn absolute(path: &Path) -> Result<PathBuf, Error> {
    std::path::absolute(path).map_err(|e| Error::io(path, e))
}

/// `..` and `.` resolved on the text of the path, so `public/..` is seen as
/// the root it names.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What [`Site::inputs_digest`] covers.
struct InputsOf<'a> {
    options: &'a BuildOptions,
    out_key: &'a str,
    sources: &'a [Source],
    statics: &'a [discover::StaticFile],
    theme: &'a Theme,
    i18n: &'a I18n,
    started_ns: i64,
}

/// What [`Site::reasons`] compares.
struct Reasons<'p, 'a> {
    plan: &'p plan::Plan<'a>,
    theme: &'p Theme,
    specs: &'p [plan::Spec],
    selected: &'p [bool],
    copies: &'p [plan::Copy],
    snapshot: &'p Snapshot,
    fresh: Vec<&'p Record>,
    retired: &'p [PostId],
    damaged: &'p Damaged,
}

/// The documents of a build, checked, with the index as it was.
struct Analysis {
    snapshot: Snapshot,
    /// The documents read by this build, by their place in `current`.
    fresh: Vec<usize>,
    /// Where their bodies are, by the same place.
    bodies: HashMap<usize, BodyAt>,
    /// Every current document, by source path.
    current: Vec<Record>,
    verdict: identify::Verdict,
    settings: String,
}

/// What rendering and staging the pages of a build reads.
struct RenderJob<'j, 'p> {
    options: &'j BuildOptions,
    out_dir: &'j Path,
    plan: &'j plan::Plan<'p>,
    sitemap: Option<&'j [SitemapEntry]>,
    theme: &'j Theme,
    env: &'j minijinja::Environment<'j>,
    files: &'j FilesAt,
    current: &'j [Record],
    bodies: &'j HashMap<usize, BodyAt>,
    /// The output rows of the folder, as the build found them.
    stored: &'j FxHashMap<String, OutputRow>,
    progress: &'j Reporter,
}

impl RenderJob<'_, '_> {
    /// Compares a rendered page with its output and, when it differs, writes
    /// the temp file it will be renamed from (unless in a dry run).
    fn stage(&self, staging: &write::Staging, page: Rendered) -> Result<Rendering, Error> {
        let stored = self.stored.get(page.output.as_str());
        write::stage(staging, page, stored, self.options.dry_run).map(Rendering::Staged)
    }
}

/// The most sources one worker parses, or pages it renders, in a row
/// before the rest can be shared out again: small enough that the last run
/// takes a few milliseconds.
const RUN_LEN: usize = 32;

/// One page on its way through render and staging.
enum Rendering {
    Done(Rendered),
    Staged(write::Staged),
    /// The page's source no longer holds the bytes its record was made
    /// from.
    SourceChanged(String),
    /// Not rendered: another page failed first.
    Skipped,
}

/// How one build attempt ended.
enum Attempt {
    Built(BuildReport),
    Explained(Explanation),
    /// These sources hold other bytes than their records were made from:
    /// trusted by an unchanged stat, or changed since this build read them.
    SourcesChanged(HashSet<String>),
}

/// Serializes builds of one site, and stamps the build's start with the file
/// system's clock, the one that stamped the sources' mtimes.
const LOCK_RETRY: std::time::Duration = std::time::Duration::from_millis(10);
const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

struct BuildLock {
    _file: fs::File,
    started_ns: i64,
}

impl BuildLock {
    fn acquire(state_dir: &Path) -> Result<BuildLock, Error> {
        fs::create_dir_all(state_dir).map_err(|e| Error::io(state_dir, e))?;
        let path = state_dir.join(LOCK_FILE);
        let mut file = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        // A lock just released can look held for a moment: a process forked
        // by the embedding program (before its exec closes the inherited
        // descriptor) holds it too. Waiting also lets a build started during
        // a short one (a no-op takes milliseconds) run after it; only a build
        // still running after the wait is reported.
        let mut waited = std::time::Duration::ZERO;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(fs::TryLockError::WouldBlock) if waited < LOCK_PATIENCE => {
                    std::thread::sleep(LOCK_RETRY);
                    waited += LOCK_RETRY;
                }
                Err(fs::TryLockError::WouldBlock) => return Err(Error::Busy { path }),
                Err(fs::TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
        }
        use std::io::{Seek, Write};
        let stamp = (|| {
            file.set_len(0)?;
            file.seek(std::io::SeekFrom::Start(0))?;
            file.write_all(b"a folio build holds this lock\n")?;
            file.metadata()?.modified()
        })()
        .map_err(|e| Error::io(&path, e))?;
        Ok(BuildLock {
            _file: file,
            started_ns: crate::doc::nanos_since_epoch(stamp),
        })
    }
}

/// Times the stages of one build attempt.
struct StageClock {
    last: Instant,
}

impl StageClock {
    fn start() -> StageClock {
        StageClock {
            last: Instant::now(),
        }
    }

    /// Records the time since the previous lap as `stage`'s.
    fn lap(&mut self, report: &mut BuildReport, stage: &str) {
        let now = Instant::now();
        let ms = now.duration_since(self.last).as_secs_f64() * 1000.0;
        report
            .stages
            .push((stage.to_owned(), (ms * 100.0).round() / 100.0));
        self.last = now;
    }
}

/// Counts finished items per stage and forwards them to the callback.
struct Reporter {
    callback: Option<ProgressFn>,
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Reporter {
    fn new(callback: Option<ProgressFn>) -> Reporter {
        Reporter {
            callback,
            done: AtomicUsize::new(0),
            total: AtomicUsize::new(0),
        }
    }

    fn start(&self, stage: Stage, total: usize) {
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

    fn advance(&self, stage: Stage) {
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
