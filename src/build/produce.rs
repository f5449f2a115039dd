//! Rendering the selected pages and staging them beside their targets:
//! every page is rendered, compared with its file and, when it differs,
//! written to a temp file before any output changes; the stale outputs in
//! the way of a page are pruned only once every page has rendered.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::build::analyse::RUN_LEN;
use crate::build::assets::{AssetWork, MadeAsset, Making as AssetMaking};
use crate::build::images::ImageWork;
use crate::build::select::blocks;
use crate::model::asset::{AssetFacts, asks_in};
use crate::model::doc::Record;
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::source_hash;
use crate::model::report::{BuildReport, Event, Reporter};
use crate::plan::{AssetAt, Copy, Making, OutputPath, Plan, Spec, WrittenWith};
use crate::plugin::{Document, Plugins};
use crate::render::assets::AssetUrls;
use crate::render::images::Resizer;
use crate::render::minify;
#[cfg(feature = "minify")]
use crate::render::minify::Minifiable;
use crate::render::{SitemapEntry, Theme};
use crate::source::config::Config;
use crate::source::discover::{FilesAt, walk_order};
use crate::source::image::location;
use crate::source::parse::{self, BodyAt};
use crate::source::sass::{self, SassFile};
use crate::source::shortcodes::Shortcodes;
use crate::store::index::OutputRow;
use crate::store::write::{self, Pruned, Rendered};

/// What rendering and staging the pages of a build reads.
pub(crate) struct RenderJob<'j, 'p> {
    pub root: &'j Path,
    pub dry_run: bool,
    pub out_dir: &'j Path,
    /// The index file, for errors about its rows.
    pub index: &'j Path,
    pub plan: &'j Plan<'p>,
    pub sitemap: Option<&'j [SitemapEntry]>,
    pub theme: &'j Theme,
    pub env: &'j minijinja::Environment<'j>,
    pub files: &'j FilesAt,
    pub bodies: &'j HashMap<usize, BodyAt>,
    /// The bodies full-content feeds show, each rendered once.
    pub shared: &'j SharedBodies,
    /// The output rows of the folder, as the build found them.
    pub stored: &'j FxHashMap<String, OutputRow>,
    /// How the index names the folder, when `stored` holds only some of
    /// its rows (those of the pages that show what changed): the others
    /// are read from the index if a question needs them.
    pub partly_stored: Option<&'j str>,
    pub plugins: &'j Plugins,
    /// How bodies are rendered: `[highlight]`, `[math]`, `[markdown]`.
    pub config: &'j Config,
    pub shortcodes: &'j Shortcodes,
    pub progress: &'j Reporter,
    /// What rendering the bodies noted, as warnings naming
    /// their file and line; the build reports them sorted.
    pub notes: &'j Mutex<Vec<String>>,
    /// The files of `sass/` as the scan found them, and when the build
    /// started: a compiled sheet's fingerprint covers what it read.
    pub sass: (&'j [SassFile], i64),
    /// What each stylesheet compiled read or looked for, by its path from
    /// the root: the next build fingerprints it by them.
    pub sass_reads: &'j Mutex<Vec<(String, Vec<String>)>>,
    /// The making of the variants of images.
    pub images: &'j ImageWork<'p>,
    /// What `resize_image` finds and records.
    pub resizer: &'j Resizer,
    /// The assets `asset_url` fingerprints, each made once.
    pub assets: &'j AssetWork,
    /// What `asset_url` finds and records.
    pub asset_urls: &'j AssetUrls,
}

impl RenderJob<'_, '_> {
    /// `bytes` of the output at `output`, made from `source`, minified when
    /// the site asks and the output is a page, a stylesheet or a script; one
    /// the minifier cannot read is kept as it is, with a warning.
    #[cfg(feature = "minify")]
    fn minified(&self, output: &OutputPath, bytes: Vec<u8>, source: &str) -> Vec<u8> {
        let kind = Minifiable::of(output.as_str()).filter(|_| self.config.minify);
        let Some(kind) = kind else {
            return bytes;
        };
        let (bytes, why) = kind.minify(bytes);
        if let Some(why) = why {
            let mut notes = self.notes.lock().unwrap_or_else(PoisonError::into_inner);
            notes.push(format!("{source}: written as it is, not minified: {why}"));
        }
        bytes
    }

    /// Without the `minify` feature a site cannot ask for it (its site.toml
    /// is refused): `bytes` are written as they are.
    #[cfg(not(feature = "minify"))]
    fn minified(&self, _output: &OutputPath, bytes: Vec<u8>, _source: &str) -> Vec<u8> {
        bytes
    }

    /// Compares a rendered page with its output and, when it differs, writes
    /// the temp file it will be renamed from (unless in a dry run).
    fn stage(&self, staging: &write::Staging, page: Rendered) -> Result<Rendering, Error> {
        let stored = self.stored.get(page.output.as_str());
        write::stage(staging, page, stored, self.dry_run).map(Rendering::Staged)
    }
}

/// One page on its way through render and staging.
pub(crate) enum Rendering {
    Done(Rendered),
    Staged(write::Staged),
    /// The page's source no longer holds the bytes its record was made
    /// from.
    SourceChanged(String),
    /// Not rendered: another page failed first.
    Skipped,
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
pub(crate) fn render_and_stage<'s>(
    job: &RenderJob<'_, '_>,
    [(free, free_copies), (blocked, blocked_copies)]: [(Vec<usize>, Vec<usize>); 2],
    stale: &[(&'s String, &'s OutputRow)],
    staging: &mut write::Staging,
    report: &mut BuildReport,
    pruned_early: &mut HashSet<&'s str>,
) -> Result<HashSet<String>, Error> {
    let dry_run = job.dry_run;
    let (mut ready, mut foreign) = (Vec::new(), Vec::new());
    let outcomes = render_all(job, free, free_copies, |page| job.stage(staging, page));
    let changed = gather(outcomes, staging, &mut ready, &mut foreign)?;
    // A build already refused prunes nothing.
    if !changed.is_empty()
        || !foreign.is_empty()
        || (blocked.is_empty() && blocked_copies.is_empty())
    {
        return refused_or(changed, foreign);
    }
    let outcomes = render_all(job, blocked, blocked_copies, |page| {
        Ok(Rendering::Done(page))
    });
    let changed = gather(outcomes, staging, &mut ready, &mut foreign)?;
    if !changed.is_empty() {
        return Ok(changed);
    }
    // Every blocked page rendered: they are what `ready` holds.
    if !dry_run {
        let outputs: Vec<&str> = ready.iter().map(|page| page.output.as_str()).collect();
        let pruned = (report, pruned_early);
        prune_in_the_way(job, stale, &outputs, pruned)?;
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

/// Renders the pages at `specs` and reads the copies at `copies` (places
/// in the plan) in parallel, handing each page to
/// `then` (which stages it, or keeps it for later). After an error, the
/// pages after it are skipped; those before it still render, so the
/// error reported (the first in page order) is the same from run to run.
fn render_all(
    job: &RenderJob<'_, '_>,
    specs: Vec<usize>,
    copies: Vec<usize>,
    then: impl Fn(Rendered) -> Result<Rendering, Error> + Sync,
) -> Vec<Result<Rendering, Error>> {
    let first_failed = AtomicUsize::new(usize::MAX);
    let finish = |at: usize, output: &OutputPath, made: Option<Result<Rendering, Error>>| {
        let result = match made.unwrap_or(Ok(Rendering::Skipped)) {
            Ok(Rendering::Done(page)) => then(page),
            other => other,
        };
        if result.is_err() {
            first_failed.fetch_min(at, Ordering::Relaxed);
        }
        job.progress.emit(|| Event::PageRendered {
            output: output.to_string(),
        });
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
        .map(|(at, s)| {
            let spec = &job.plan.specs[s];
            let made = || match job.asset_first(spec.output.as_str())? {
                Some(rendering) => Ok(rendering),
                None => render_minified(job, spec),
            };
            finish(at, &spec.output, due(at).then(made))
        });
    let copied = copies
        .into_par_iter()
        .with_max_len(RUN_LEN)
        .enumerate()
        .map(|(at, c)| {
            let at = pages + at;
            let copy = &job.plan.copies[c];
            let made = || match job.asset_first(copy.output.as_str())? {
                Some(rendering) => Ok(rendering),
                None => make_copy(job, copy),
            };
            finish(at, &copy.output, due(at).then(made))
        });
    rendered.chain(copied).collect()
}

/// One page rendered, and minified when the site asks.
fn render_minified(job: &RenderJob<'_, '_>, spec: &Spec) -> Result<Rendering, Error> {
    render_page(job, spec).map(|rendering| match rendering {
        Rendering::Done(mut page) => {
            let bytes = std::mem::take(&mut page.bytes);
            page.bytes = job.minified(&page.output, bytes, spec.output.as_str());
            Rendering::Done(page)
        }
        other => other,
    })
}

/// One page, its body read again from its source if it shows one, or
/// the bodies of a full-content feed's entries.
fn render_page(job: &RenderJob<'_, '_>, spec: &Spec) -> Result<Rendering, Error> {
    if let Some((at, documents)) = job.plan.extra_documents(spec) {
        let plugin = &job.plugins.outputs[at];
        let bytes = plugin.render(&documents).map_err(|error| Error::Plugin {
            plugin: plugin.name().to_owned(),
            path: job.out_dir.join(spec.output.as_str()),
            message: error.to_string(),
            help: "fix the plugin or the documents it names; the build wrote nothing".into(),
        })?;
        return Ok(Rendering::Done(Rendered {
            output: spec.output.clone(),
            bytes,
            fingerprint: spec.fingerprint.clone(),
        }));
    }
    let mut page = job.plan.page(spec, job.sitemap);
    if let Some(i) = spec.body_of() {
        let Some((body, notes)) = job.body(i)? else {
            return Ok(Rendering::SourceChanged(job.source_of(i)));
        };
        if !notes.is_empty() {
            let mut warnings = job.notes.lock().unwrap_or_else(|e| e.into_inner());
            warnings.extend(notes);
        }
        page.context.set_content(body);
    }
    if let Some(items) = job.plan.feed_bodies(spec) {
        let bodies: Vec<_> = items.par_iter().map(|&i| job.body(i)).collect();
        let mut contents = Vec::with_capacity(items.len());
        // What highlighting noted is said by each post's own page.
        for (body, &i) in bodies.into_iter().zip(items) {
            let Some((body, _notes)) = body? else {
                return Ok(Rendering::SourceChanged(job.source_of(i)));
            };
            contents.push(job.plan.in_feed(i, body));
        }
        page.context.set_entry_contents(contents);
    }
    let size_hint = page.context.size_hint();
    let output = page.output.as_str();
    // The assets it asked for last time, known before it renders.
    let asked_before = job
        .stored
        .written_with(output)
        .map(asks_in)
        .unwrap_or_default();
    if let Some(changed) = job.know_assets(asked_before)? {
        return Ok(Rendering::SourceChanged(changed));
    }
    let render = || {
        crate::render::rendering(output, || {
            job.theme
                .render(job.env, &page.template, &page.context, size_hint)
        })
    };
    let mut bytes = render()?;
    // An asset it asked for before the build knew its bytes: its twin's
    // name is known once they are, and the page renders again with it.
    // Each round learns every asset the last one missed.
    loop {
        let missed = job.asset_urls.take_missed(output);
        if missed.is_empty() {
            break;
        }
        if let Some(changed) = job.know_assets(missed.iter().map(String::as_str))? {
            return Ok(Rendering::SourceChanged(changed));
        }
        bytes = render()?;
    }
    // What its templates asked of images and assets this time, which the
    // next plan finds in its fingerprint too.
    let fingerprint = job.resizer.fingerprint_of(output, page.fingerprint);
    let fingerprint = job.asset_urls.fingerprint_of(output, fingerprint);
    Ok(Rendering::Done(Rendered {
        output: page.output,
        bytes,
        fingerprint,
    }))
}

/// A body and what highlighting it noted, as warnings naming its file and
/// line.
type Body = (String, Vec<String>);

/// The bodies of the documents this build's full-content feeds show, each
/// rendered by the first of its page and those feeds to need it and
/// shared by the others, until the build ends: a post is in its home's
/// feed and its tags' feeds, each in every format the site writes.
pub(crate) struct SharedBodies(FxHashMap<usize, OnceLock<Body>>);

impl SharedBodies {
    /// Those of the feeds among the pages at `specs` (places in the plan).
    pub(crate) fn of<'s>(plan: &Plan<'_>, specs: impl IntoIterator<Item = &'s usize>) -> Self {
        let shown = specs
            .into_iter()
            .filter_map(|&s| plan.feed_bodies(&plan.specs[s]))
            .flatten();
        SharedBodies(shown.map(|&i| (i, OnceLock::new())).collect())
    }
}

impl RenderJob<'_, '_> {
    /// The body of document `i` as its page shows it, its links between
    /// documents resolved; `None` when its source no longer holds the
    /// bytes its record was made from.
    fn body(&self, i: usize) -> Result<Option<Body>, Error> {
        let Some(cell) = self.shared.0.get(&i) else {
            return self.render_body(i);
        };
        if let Some(body) = cell.get() {
            return Ok(Some(body.clone()));
        }
        // Two workers may render it at once; both get the same bytes.
        let Some(body) = self.render_body(i)? else {
            return Ok(None);
        };
        Ok(Some(cell.get_or_init(|| body).clone()))
    }

    fn render_body(&self, i: usize) -> Result<Option<Body>, Error> {
        let record = self.plan.records()[i].whole();
        let read = self.bodies.get(&i);
        let body = body_html(
            self.files,
            record,
            read,
            (self.plugins, self.config, self.shortcodes),
        )?;
        Ok(body.map(|(html, notes)| (self.plan.as_shown(i, &html).into_owned(), notes)))
    }

    fn source_of(&self, i: usize) -> String {
        self.plan.records()[i].source.path.clone()
    }
}

impl RenderJob<'_, '_> {
    /// What a page made of the asset at `output` before the produce loop
    /// reached it, or, for an asset the pages asked for last time, made
    /// now through its slot for them to share; `None`: the loop makes it
    /// as any output.
    fn asset_first(&self, output: &str) -> Result<Option<Rendering>, Error> {
        if !self.plan.assets().contains_key(output) {
            return Ok(None);
        }
        if self.assets.asked_before(output)
            && let Err(changed) = self.asset_made(output)?
        {
            return Ok(Some(Rendering::SourceChanged(changed)));
        }
        Ok(self.assets.take_staged(output).map(Rendering::Done))
    }

    /// Makes the facts of each of `assets` known, its bytes made or read
    /// back first where the build does not know them; the source that
    /// changed under the build instead, if one did. An asset there no
    /// longer is, is left for `asset_url` to name as such.
    fn know_assets<'a>(
        &self,
        assets: impl IntoIterator<Item = &'a str>,
    ) -> Result<Option<String>, Error> {
        for asset in assets {
            if !self.plan.assets().contains_key(asset) || self.asset_urls.facts(asset).is_some() {
                continue;
            }
            match self.asset_made(asset)? {
                Ok(made) => self.asset_urls.know(asset, made.facts.clone()),
                Err(changed) => return Ok(Some(changed)),
            }
        }
        Ok(None)
    }

    /// The asset at `asset` as this build has it: made as its output is
    /// when this build makes it, else read back from the output folder,
    /// which holds it as folio left it.
    fn asset_made(&self, asset: &str) -> Result<AssetMaking, Error> {
        self.assets.made(asset, || {
            let at = self.plan.assets().get(asset).copied();
            let making = match at {
                Some(AssetAt::Spec(s)) if self.assets.selected(asset) => {
                    render_minified(self, &self.plan.specs[s])?
                }
                Some(AssetAt::Copy(c)) if self.assets.selected(asset) => {
                    make_copy(self, &self.plan.copies[c])?
                }
                _ => return self.asset_read_back(asset, at),
            };
            Ok(match making {
                Rendering::Done(rendered) => Ok(Arc::new(MadeAsset {
                    facts: AssetFacts::of(&rendered.bytes, &rendered.fingerprint),
                    rendered,
                    to_stage: true.into(),
                })),
                Rendering::SourceChanged(changed) => Err(changed),
                // Neither is what making one output gives.
                Rendering::Staged(_) | Rendering::Skipped => Err(asset.to_owned()),
            })
        })
    }

    /// The asset at `asset`, made by what is `at` and as folio left it.
    fn asset_read_back(&self, asset: &str, at: Option<AssetAt>) -> Result<AssetMaking, Error> {
        let fingerprint = match at {
            Some(AssetAt::Spec(s)) => &self.plan.specs[s].fingerprint,
            Some(AssetAt::Copy(c)) => &self.plan.copies[c].fingerprint,
            None => return Ok(Err(asset.to_owned())),
        };
        let output = OutputPath::new(asset).ok_or_else(|| Error::UnknownOutput {
            query: asset.to_owned(),
        })?;
        let path = write::target(self.out_dir, &output);
        let bytes = fs::read(&path).map_err(|e| Error::io(&path, e))?;
        Ok(Ok(Arc::new(MadeAsset {
            facts: AssetFacts::of(&bytes, fingerprint),
            rendered: Rendered {
                output,
                bytes,
                fingerprint: fingerprint.clone(),
            },
            to_stage: false.into(),
        })))
    }
}

/// Stages `late`, the twins the pages name that are not as folio left them
/// (each an asset, its twin's output and fingerprint), known only once the
/// pages have rendered. Returns the sources whose bytes changed under the
/// build (it must start over).
pub(crate) fn stage_twins(
    job: &RenderJob<'_, '_>,
    late: &[(String, String, String)],
    staging: &mut write::Staging,
) -> Result<HashSet<String>, Error> {
    let outcomes = late
        .par_iter()
        .filter_map(|(asset, twin, fingerprint)| {
            let output = OutputPath::new(twin)?;
            Some(match job.asset_made(asset) {
                Ok(Ok(made)) => job.stage(
                    staging,
                    Rendered {
                        output,
                        bytes: made.rendered.bytes.clone(),
                        fingerprint: fingerprint.clone(),
                    },
                ),
                Ok(Err(changed)) => Ok(Rendering::SourceChanged(changed)),
                Err(error) => Err(error),
            })
        })
        .collect();
    let mut foreign = Vec::new();
    let changed = gather(outcomes, staging, &mut Vec::new(), &mut foreign)?;
    refused_or(changed, foreign)
}

/// Makes and stages `late`: the variants of images the pages' templates
/// asked for (`resize_image`) that are not as folio left them, known only
/// once the pages have rendered. Returns the images whose bytes changed
/// since they were measured (the build must start over).
pub(crate) fn stage_drawn(
    job: &RenderJob<'_, '_>,
    late: &[Copy],
    staging: &mut write::Staging,
) -> Result<HashSet<String>, Error> {
    let outcomes = late
        .par_iter()
        .map(|copy| match make_copy(job, copy)? {
            Rendering::Done(page) => job.stage(staging, page),
            other => Ok(other),
        })
        .collect();
    let mut foreign = Vec::new();
    let changed = gather(outcomes, staging, &mut Vec::new(), &mut foreign)?;
    refused_or(changed, foreign)
}

/// A static file read, a stylesheet compiled, or a variant of an image
/// made, to be staged like a page.
fn make_copy(job: &RenderJob<'_, '_>, copy: &Copy) -> Result<Rendering, Error> {
    let (bytes, fingerprint) = match &copy.making {
        Making::Verbatim => {
            let path = job.root.join(&copy.source);
            let mut bytes = fs::read(&path).map_err(|e| Error::io(&path, e))?;
            if copy.fingerprint.ends_with(location::MARK)
                && let Some(without) = location::without_location(&bytes)
            {
                bytes = without;
            }
            (bytes, copy.fingerprint.clone())
        }
        Making::Sass => {
            let (files, started_ns) = job.sass;
            let at = files.binary_search_by(|f| walk_order(&f.path, &copy.source));
            let sheet = at.map(|at| &files[at]).map_err(|_| {
                Error::io(
                    job.root.join(&copy.source),
                    std::io::ErrorKind::NotFound.into(),
                )
            })?;
            let compiled = sass::compile(job.root, sheet)?;
            // What it read this time, which its fingerprint covers from now.
            let mut fingerprint = sass::fingerprint(&compiled.reads, files, started_ns);
            minify::mark(&mut fingerprint, copy.output.as_str(), job.config.minify);
            let mut notes = job.notes.lock().unwrap_or_else(PoisonError::into_inner);
            notes.extend(compiled.notes);
            let mut reads = job
                .sass_reads
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            reads.push((copy.source.clone(), compiled.reads));
            (compiled.css, fingerprint)
        }
        Making::Image {
            variant,
            source_hash,
            shown_by,
        } => {
            let source = (
                copy.source.as_str(),
                source_hash.as_str(),
                shown_by.as_str(),
            );
            match job.images.make(job.files, source, variant)? {
                Some(bytes) => (bytes, copy.fingerprint.clone()),
                None => return Ok(Rendering::SourceChanged(copy.source.clone())),
            }
        }
    };
    Ok(Rendering::Done(Rendered {
        output: copy.output.clone(),
        bytes: job.minified(&copy.output, bytes, &copy.source),
        fingerprint,
    }))
}

/// The body of `record`'s page as HTML, from its source read again (see
/// [`read_source`]), and what rendering it noted (code blocks, formulas), as
/// warnings naming the source and line; `None` when the source no longer
/// holds the bytes its record was made from. `folio publish` sends the
/// same.
pub(crate) fn body_html(
    files: &FilesAt,
    record: &Record,
    read: Option<&BodyAt>,
    (plugins, config, shortcodes): (&Plugins, &Config, &Shortcodes),
) -> Result<Option<(String, Vec<String>)>, Error> {
    let Some(bytes) = read_source(files, record, read) else {
        return Ok(None);
    };
    let document = Document {
        source: &record.source.path,
        lang: &record.lang,
    };
    let at = read.map(|at| at.start);
    let (html, notes) = parse::body_html(&bytes, at, (plugins, &document), (config, shortcodes))
        .map_err(|(line, kind)| {
            Error::Content(vec![Problem::new(&record.source.path, line, kind)])
        })?;
    let path = &record.source.path;
    let warnings = notes
        .into_iter()
        .map(|(line, note)| format!("{path}:{line}: {note}"))
        .collect();
    Ok(Some((html, warnings)))
}

/// Reports what rendering the bodies noted. Pages render in
/// any order: the warnings are sorted, so every run reports them alike.
pub(crate) fn report_notes(
    notes: Mutex<Vec<String>>,
    progress: &Reporter,
    report: &mut BuildReport,
) {
    let mut notes = notes.into_inner().unwrap_or_else(|e| e.into_inner());
    notes.sort();
    for note in notes {
        progress.warn(report, note);
    }
}

/// The bytes of a document's source, read again for its page: `read`
/// has their check for a source this build parsed, the record's hash
/// stands for one trusted by its stat. `None` if the source no longer
/// holds the bytes its record was made from, or cannot be read: the
/// build then starts over, and its parse reports what is wrong.
fn read_source(files: &FilesAt, record: &Record, read: Option<&BodyAt>) -> Option<Vec<u8>> {
    let bytes = files
        .read(&record.source.path, record.source.stat.size)
        .ok()?;
    let same = match read {
        Some(at) => at.holds(&bytes),
        None => source_hash(&bytes) == record.source.hash,
    };
    same.then_some(bytes)
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
    job: &RenderJob<'_, '_>,
    stale: &[(&'s String, &'s OutputRow)],
    outputs: &[&str],
    (report, pruned): (&mut BuildReport, &mut HashSet<&'s str>),
) -> Result<(), Error> {
    let (out_dir, index) = (job.out_dir, job.index);
    let mut in_the_way = Vec::new();
    let blocking = stale
        .iter()
        .filter(|(path, _)| outputs.iter().any(|output| blocks(path, output)))
        .map(|&(path, row)| (path, row));
    for (path, result) in write::prune_all(out_dir, index, blocking, false) {
        let message = match result {
            Ok(Pruned::Deleted) => {
                job.progress.emit(|| Event::FileDeleted {
                    output: path.clone(),
                });
                report.deleted.push(path.clone());
                None
            }
            Ok(Pruned::Missing) => None,
            Ok(Pruned::Kept) => Some("it changed since folio wrote it".to_owned()),
            Ok(Pruned::ThroughLink(link)) => Some(format!(
                "it is reached through {}, a symbolic link, and folio deletes nothing through one",
                link.display()
            )),
            Err(e) => Some(format!("it could not be removed: {e}")),
        };
        if let Some(message) = message {
            let target = out_dir.join(path);
            in_the_way.push(Problem::new(
                target,
                None,
                ProblemKind::InTheWay { message },
            ));
        }
        pruned.insert(path.as_str());
    }
    if in_the_way.is_empty() {
        Ok(())
    } else {
        Err(Error::Content(in_the_way))
    }
}
