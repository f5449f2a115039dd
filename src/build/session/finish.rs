//! The second half of a build, once its documents are read and checked:
//! plan, select, render, write and commit, and keep what it learned.

use std::sync::Mutex;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::build::assets::{self, AssetWork};
use crate::build::images::{self, ImageWork};
use crate::build::scan::Damaged;
use crate::model::asset::facts_json;
use crate::model::doc::Kind;
use crate::plan::AssetAt;
use crate::render::Requests;
use crate::render::assets::AssetUrls;
use crate::render::images::Resizer;
use crate::source::config::Images;
use crate::source::image::{ImageFiles, drawn_json};
use crate::store::index::ArrangementChange;

use super::shown::moved_titles;
use super::*;

impl Session {
    /// Plans, selects, renders, writes and commits a prepared build, and
    /// keeps what it learned for the next one.
    pub(super) fn finish(&mut self, mut prepared: Prepared) -> Result<Attempt, Error> {
        let mut report = std::mem::take(&mut prepared.report);
        self.progress.start(Stage::Plan, 0);
        let records = std::mem::take(&mut prepared.analysis.current);
        let kept_plan = prepared.kept_plan.take();
        let site = Arc::clone(&self.site);
        let views = Views::new(site.config(), &prepared.scan.i18n);
        let changed_alone = match prepared.outputs {
            OutputRows::Unread => {
                let (changed_alone, read) = self.outputs_for(&views, &prepared, &records)?;
                (prepared.analysis.snapshot.outputs, prepared.outputs) = read;
                Some(changed_alone)
            }
            OutputRows::Every | OutputRows::Shown(_) => None,
        };
        let planned = self
            .plan(
                &site,
                &views,
                &prepared,
                records,
                (kept_plan, changed_alone),
            )
            .map_err(|e| on_field_lines(e, &self.root))?;
        let (plan, fingerprinted) = match planned {
            Ok(planned) => planned,
            // The pages that show the documents that changed alone cannot
            // be made again by themselves: every page is planned, against
            // every output's row.
            Err(mut records) => {
                self.index.load_every(&mut records)?;
                if !prepared.outputs.are_every() {
                    prepared.analysis.snapshot.outputs = self.index.outputs(&self.out_key)?;
                    prepared.outputs = OutputRows::Every;
                }
                self.plan_changed_alone(&site, &views, &prepared, records)
                    .map_err(|e| on_field_lines(e, &self.root))?
            }
        };
        for warning in &plan.warnings {
            self.progress.warn(&mut report, warning.clone());
        }
        report.fingerprinted = fingerprinted.as_ref().map_or(plan.specs.len(), Vec::len);
        let among = fingerprinted.and_then(|pages| plan.select_among(pages));
        let templates = plan.templates();
        report.inputs = prepared.scan.inputs(&self.root, templates);
        let meta = self.meta_after(&plan, &prepared, templates);
        let outputs = &prepared.analysis.snapshot.outputs;
        // A plan brought up to date has the pages of the last build: none
        // of its outputs is stale.
        let stale = match among {
            Some(_) => Vec::new(),
            None => select::stale(&plan, outputs),
        };
        let selected = select::outdated(&plan, outputs, &prepared.scan.damaged, among.as_deref());
        if self.options.dry_run {
            report.why = self.reasons(&plan, &prepared, &selected);
        }
        let batches = selected.into_batches(&plan, &stale);
        self.progress.finish(&mut report, Stage::Plan);
        let made = self.produce(&prepared, &plan, (batches, &stale), meta, &mut report)?;
        let (dropped, written_rows, meta) = match made {
            Made::SourcesChanged(paths) => return Ok(Attempt::SourcesChanged(paths)),
            Made::DryRun => return Ok(Attempt::Built(Box::new(report))),
            Made::Committed {
                dropped,
                written_rows,
                meta,
            } => (dropped, written_rows, meta),
        };
        let kept_plan = plan.into_kept();
        drop((stale, views));
        self.keep(prepared, kept_plan, (dropped, written_rows, *meta))?;
        Ok(Attempt::Built(Box::new(report)))
    }

    /// Keeps what a committed build learned, its rows and its plan, for
    /// the next build of the session; a one-off build keeps nothing.
    fn keep(
        &mut self,
        prepared: Prepared,
        mut kept_plan: KeptPlan,
        (dropped, written_rows, meta): (Vec<String>, Vec<(String, OutputRow)>, Meta),
    ) -> Result<(), Error> {
        let Prepared {
            lock,
            scan,
            analysis,
            images,
            ..
        } = prepared;
        drop(lock);
        if !self.keeps_state {
            // Its rows and pages are freed on the pool while the caller goes
            // on (10 ms of a one-post edit of 15,000 posts), and a process
            // that exits does not wait.
            self.pool.spawn(move || drop((kept_plan, scan, analysis)));
            return Ok(());
        }
        let mut snapshot = analysis.snapshot;
        snapshot.records = kept_plan.take_records();
        for path in &dropped {
            snapshot.outputs.remove(path);
        }
        snapshot.outputs.extend(written_rows);
        snapshot.meta = meta;
        snapshot.images = images.shown.measured.into_iter().collect();
        self.kept = Some(Kept {
            scan: Scan {
                damaged: Default::default(),
                ..scan
            },
            snapshot,
            plan: Some(kept_plan),
            data_version: self.index.data_version()?,
        });
        Ok(())
    }

    /// The pages of the site: the last build's brought up to date when
    /// only what some documents hold changed (with the pages whose
    /// fingerprint was computed again); or, when those documents are all
    /// that changed since the last build (`changed_alone`, when already
    /// known), the pages that show them (with the pages whose fingerprint
    /// was computed), or their records back when these cannot be made by
    /// themselves; or else every page, planned afresh.
    fn plan<'p>(
        &self,
        site: &'p Site,
        views: &'p Views<'p>,
        prepared: &'p Prepared,
        mut records: Vec<crate::model::doc::Record>,
        (kept_plan, changed_alone): (Option<KeptPlan>, Option<bool>),
    ) -> Result<Result<Planned<'p>, Vec<crate::model::doc::Record>>, Error> {
        let analysis = &prepared.analysis;
        if let Some(kept_plan) = kept_plan
            && self.only_contents_changed(&kept_plan, views, prepared, &records)
        {
            let retitled = moved_titles(prepared, &records);
            let assets = plan::AssetsBefore {
                facts: &prepared.assets,
                outputs: &analysis.snapshot.outputs,
            };
            let (plan, fingerprinted) = plan::replan(
                site.config(),
                views,
                &prepared.scan.theme,
                (kept_plan, assets),
                (records, analysis.sections.clone()),
                (&analysis.fresh, &retitled),
            )?;
            return Ok(Ok((plan, Some(fingerprinted))));
        }
        let changed_alone = changed_alone
            .unwrap_or_else(|| self.documents_changed_alone(views, prepared, &records));
        if changed_alone {
            let retitled = moved_titles(prepared, &records);
            let changed = plan::ChangedSince {
                documents: &analysis.fresh,
                retitled: &retitled,
            };
            let planned = self.plan_shown((site, views), prepared, records, changed)?;
            return Ok(planned.map(|(plan, fingerprinted)| (plan, Some(fingerprinted))));
        }
        self.index.load_every(&mut records)?;
        let settings = (self.visibility(), &self.options.plugins, None);
        plan_of(site, views, prepared, records, settings).map(Ok)
    }

    /// Whether this build's documents and sections differ from the last
    /// build's only in what they hold: the same sources, each in the same
    /// place in the site, with the same theme, words, settings and static
    /// files, and no post due or withdrawn since.
    fn only_contents_changed(
        &self,
        kept: &KeptPlan,
        views: &Views<'_>,
        prepared: &Prepared,
        records: &[crate::model::doc::Record],
    ) -> bool {
        let analysis = &prepared.analysis;
        let scan = &prepared.scan;
        let sheets = plan::Sheets {
            files: &scan.sass,
            reads: &prepared.sass_reads,
        };
        let copies = plan::copies(
            self.site.config(),
            (&scan.statics, &scan.bundles, sheets, &prepared.images.shown),
            (records, self.visibility()),
            prepared.lock.started_ns,
        );
        self.read_again_in_place(views, prepared, records, kept.sorts_by_title())
            && records.len() == kept.documents()
            && kept.section_files().len() == analysis.sections.len()
            && kept
                .section_files()
                .iter()
                .zip(&analysis.sections)
                .all(|(old, new)| plan::same_section_place(old, new))
            && kept.copies() == copies.as_slice()
    }

    /// Whether each document this build read again has a row that it
    /// differs from only in what it holds (a title is a place when
    /// `sorts_by_title`, and for a page with terms, which its terms' pages
    /// list by title), none retired and no image asked for or measured,
    /// with the same theme, words and settings as the last build, and no
    /// post due or withdrawn since.
    pub(super) fn read_again_in_place(
        &self,
        views: &Views<'_>,
        prepared: &Prepared,
        records: &[crate::model::doc::Record],
        sorts_by_title: bool,
    ) -> bool {
        let analysis = &prepared.analysis;
        let (old, meta) = (&analysis.snapshot.records, &analysis.snapshot.meta);
        // A document that shows other images than it did is planned afresh:
        // which files its images are, and their variants, are the plan's.
        let images_moved =
            (old.iter().zip(&analysis.fresh)).any(|(old, &i)| old.images != records[i].images);
        analysis.verdict.retired.is_empty()
            && !(self.site.config().images.is_some() && images_moved)
            // What a page's templates ask of images is known once it renders.
            && prepared.drawn.is_empty()
            && !prepared.images.measured_any()
            && old.len() == analysis.fresh.len()
            && old.iter().zip(&analysis.fresh).all(|(old, &i)| {
                let new = &records[i];
                let listed_by_title = sorts_by_title
                    || (new.kind == Kind::Page && !(new.tags.is_empty() && new.terms.is_empty()));
                plan::same_place(old, new) && (!listed_by_title || old.title == new.title)
            })
            && self.settings_as_last(meta, (&analysis.settings, views, &prepared.scan.theme))
    }

    /// Whether the last build, which left `meta`, read its documents with
    /// the same content `settings`, theme and words as this one, and no
    /// post became due or withdrawn since.
    pub(super) fn settings_as_last(
        &self,
        meta: &Meta,
        (settings, views, theme): (&str, &Views<'_>, &crate::render::Theme),
    ) -> bool {
        let now = self.options.now_ms;
        meta.content_settings.as_deref() == Some(settings)
            && meta.globals.as_deref() == Some(views.globals())
            && meta.wording == serde_json::to_string(views.wording()).ok()
            && meta.theme == serde_json::to_string(theme.own_hashes()).ok()
            && meta.last_shown.is_some_and(|shown| shown <= now)
            && meta.next_due.is_some_and(|due| now < due)
    }

    /// Why each selected output would be written (a dry run).
    fn reasons(
        &self,
        plan: &Plan<'_>,
        prepared: &Prepared,
        selected: &select::Selected,
    ) -> std::collections::BTreeMap<String, String> {
        explain::reasons(&Reasons {
            plan,
            theme: &prepared.scan.theme,
            specs: &plan.specs,
            selected: &selected.needs_render,
            copies: selected.copies.iter().map(|&c| &plan.copies[c]).collect(),
            snapshot: &prepared.analysis.snapshot,
            fresh: prepared
                .analysis
                .fresh
                .iter()
                .map(|&i| &plan.records()[i])
                .collect(),
            retired: &prepared.analysis.verdict.retired,
            damaged: &prepared.scan.damaged,
        })
    }

    /// The settings a build records beside its rows.
    fn meta_after(&self, plan: &Plan<'_>, prepared: &Prepared, templates: &[String]) -> Meta {
        let (last_shown, next_due) = self.visibility().bounds(plan.records());
        Meta {
            content_settings: Some(prepared.analysis.settings.clone()),
            timezone: Some(self.site.config().timezone_name.clone()),
            inputs: Some(prepared.inputs.clone().unwrap_or_default()),
            next_due: Some(next_due),
            last_shown: Some(last_shown),
            theme: Some(
                serde_json::to_string(prepared.scan.theme.own_hashes()).unwrap_or_default(),
            ),
            globals: Some(plan.globals().to_owned()),
            wording: Some(serde_json::to_string(plan.wording()).unwrap_or_default()),
            templates: serde_json::to_string(templates).ok(),
            // Those of the sheets this build compiles are added once done.
            sass_reads: prepared.analysis.snapshot.meta.sass_reads.clone(),
            // Those of the pages this build renders are added once done.
            image_uses: prepared.analysis.snapshot.meta.image_uses.clone(),
            assets: prepared.analysis.snapshot.meta.assets.clone(),
        }
    }
}

/// Every page of the site with its fingerprint: computed, or taken from
/// the outputs' rows for the pages that show none of the documents that
/// changed alone since the last build (`changed_since`); with the pages
/// whose fingerprint was computed, then.
pub(super) fn plan_of<'p>(
    site: &'p Site,
    views: &'p Views<'p>,
    prepared: &'p Prepared,
    records: Vec<crate::model::doc::Record>,
    (visibility, plugins, changed_since): (Visibility, &Plugins, Option<plan::ChangedSince<'_>>),
) -> Result<Planned<'p>, Error> {
    plan::plan(
        site.config(),
        views,
        &prepared.scan.theme,
        (records, prepared.analysis.sections.clone()),
        sources_of(prepared, plugins, changed_since),
        visibility,
        prepared.lock.started_ns,
    )
}

/// What a plan of `prepared` copies, compiles or makes besides its pages,
/// and what changed since the last build, when only documents did.
pub(super) fn sources_of<'s>(
    prepared: &'s Prepared,
    plugins: &'s Plugins,
    changed_since: Option<plan::ChangedSince<'s>>,
) -> plan::Sources<'s> {
    plan::Sources {
        statics: &prepared.scan.statics,
        bundles: &prepared.scan.bundles,
        sheets: plan::Sheets {
            files: &prepared.scan.sass,
            reads: &prepared.sass_reads,
        },
        shown: &prepared.images.shown,
        drawn: &prepared.drawn,
        assets: plan::AssetsBefore {
            facts: &prepared.assets,
            outputs: &prepared.analysis.snapshot.outputs,
        },
        plugins,
        changed_since,
    }
}

/// A plan, with the pages whose fingerprint it computed when not every
/// page's.
pub(super) type Planned<'p> = (Plan<'p>, Option<Vec<usize>>);

/// How the making of a planned build ended.
enum Made {
    SourcesChanged(HashSet<String>),
    DryRun,
    /// Written and recorded: the outputs it dropped and the rows it wrote,
    /// for the kept state to follow the index.
    Committed {
        dropped: Vec<String>,
        written_rows: Vec<(String, OutputRow)>,
        meta: Box<Meta>,
    },
}

impl Session {
    /// Renders and stages the selected pages; then, unless in a dry run,
    /// writes them, prunes the stale outputs and commits the index.
    fn produce(
        &mut self,
        prepared: &Prepared,
        plan: &Plan<'_>,
        (batches, stale): (select::Batches, &[(&String, &OutputRow)]),
        meta: Meta,
        report: &mut BuildReport,
    ) -> Result<Made, Error> {
        let dry_run = self.options.dry_run;
        let highlight = &self.site.config().markup.highlight;
        let requests = Requests {
            resizer: resizer_for(&self.site, prepared),
            assets: asset_urls_for(&self.site, prepared, plan),
        };
        let env = prepared.scan.theme.environment(highlight, &requests)?;
        let outputs = &prepared.analysis.snapshot.outputs;
        report.rendered = batches.pages();
        // A twin of an asset a page named may be made without a page
        // rendering: one deleted, say.
        let makes = report.rendered > 0
            || batches.copies() > 0
            || !plan.drawn().is_empty()
            || !plan.named_assets().is_empty();
        if !dry_run && makes {
            self.index.set_staging(&self.out_key, true)?;
        }
        self.progress
            .start(Stage::Render, report.rendered + batches.copies());
        // A folder the index knows no file of may be staged afresh.
        let knows_none = prepared.outputs.are_every() && outputs.is_empty();
        let mut staging = write::Staging::for_folder(&self.out_dir, !dry_run && knows_none)?;
        let files = FilesAt::new(self.site.root());
        let (notes, sass_reads) = (Mutex::default(), Mutex::default());
        let pages = batches.free.0.iter().chain(&batches.blocked.0);
        let rendered = asked_again(plan, pages.clone());
        let shared = produce::SharedBodies::of(plan, pages.clone());
        let made = plan.copies.iter().chain(plan.drawn());
        let images = ImageWork::new(made, &self.state_dir, dry_run);
        let copies = batches.free.1.iter().chain(&batches.blocked.1);
        let assets = AssetWork::new(plan, pages.clone(), copies);
        let job = RenderJob {
            root: self.site.root(),
            dry_run,
            out_dir: &self.out_dir,
            index: self.index.path(),
            plan,
            sitemap: batches.sitemap.as_deref(),
            theme: &prepared.scan.theme,
            env: &env,
            files: &files,
            bodies: &prepared.analysis.bodies,
            shared: &shared,
            stored: outputs,
            partly_stored: (!prepared.outputs.are_every()).then_some(&self.out_key),
            plugins: &self.options.plugins,
            config: self.site.config(),
            shortcodes: prepared.scan.theme.shortcodes(),
            progress: &self.progress,
            notes: &notes,
            sass: (&prepared.scan.sass, prepared.lock.started_ns),
            sass_reads: &sass_reads,
            images: &images,
            resizer: &requests.resizer,
            assets: &assets,
            asset_urls: &requests.assets,
        };
        let mut pruned_early = HashSet::new();
        let changed = produce::render_and_stage(
            &job,
            [batches.free, batches.blocked],
            stale,
            &mut staging,
            report,
            &mut pruned_early,
        )?;
        if !changed.is_empty() {
            return Ok(Made::SourcesChanged(changed));
        }
        let asked = (&rendered, &prepared.scan.damaged);
        let stale = (stale, outputs);
        let after = match asked_after(&job, asked, &mut staging, stale)? {
            Ok(after) => after,
            Err(changed) => return Ok(Made::SourcesChanged(changed)),
        };
        let mut meta = with_sass_reads(meta, (plan, prepared), sass_reads);
        (meta.image_uses, meta.assets) = (Some(after.image_uses), Some(after.assets));
        let stale = after.stale;
        let stale = &stale[..];
        produce::report_notes(notes, &self.progress, report);
        (report.images_decoded, report.images_encoded) = images.counts();
        images.prune_cache(prepared.lock.started_ns - CACHE_MONTH_NS)?;
        self.progress.finish(report, Stage::Render);
        if dry_run {
            return self.dry_run_written(&staging, stale, report);
        }
        let staged = (staging, stale, &pruned_early);
        self.write_and_record(prepared, plan, staged, (meta, env), report)
    }

    /// Renames the staged files into place, prunes the stale outputs and
    /// commits the index.
    fn write_and_record(
        &mut self,
        prepared: &Prepared,
        plan: &Plan<'_>,
        (staging, stale, pruned_early): Staged<'_, '_>,
        (meta, env): (Meta, minijinja::Environment<'_>),
        report: &mut BuildReport,
    ) -> Result<Made, Error> {
        let outputs = &prepared.analysis.snapshot.outputs;
        let folder = Folder {
            out_dir: &self.out_dir,
            out_key: &self.out_key,
            stored: outputs,
        };
        let written = commit::write(
            &mut self.index,
            &folder,
            staging,
            (stale, pruned_early),
            &self.progress,
            report,
        )?;
        self.progress.finish(report, Stage::Write);
        let dropped: Vec<String> = stale.iter().map(|(path, _)| (*path).clone()).collect();
        let mut changes = commit::changes(
            &folder,
            (&prepared.analysis, plan.records()),
            written,
            dropped.clone(),
            meta,
        );
        (changes.pages, changes.every_page) = self.kept_pages(plan, &changes.outputs)?;
        changes.arrangement = match plan.arrangement_kept() {
            // A session brings its own plan up to date: an arrangement
            // kept would be one more write of each of its builds.
            _ if self.keeps_state => ArrangementChange::Dropped,
            true => ArrangementChange::Kept,
            false => ArrangementChange::New(plan.arrangement().encode()),
        };
        let index = (&mut self.index, &self.progress);
        record(index, changes, (prepared, dropped), env, report)
    }
}

/// How long a variant no page names stays in the cache: a month.
const CACHE_MONTH_NS: i64 = 30 * 24 * 3600 * 1_000_000_000;

/// The `resize_image` of a build: the image files its templates may name
/// (none when no template names the function), what the survey measured.
fn resizer_for(site: &Site, prepared: &Prepared) -> Arc<Resizer> {
    let config = site.config();
    let scan = &prepared.scan;
    let paths = match scan.theme.mention("resize_image") {
        true => ImageFiles::new(&scan.statics, &scan.bundles, &config.base_path).template_paths(),
        false => Default::default(),
    };
    let measured = (prepared.images.shown.measured.iter())
        .map(|(path, measured)| (path.clone(), measured.facts.clone()));
    let quality = config
        .images
        .as_ref()
        .map_or(Images::DEFAULT_QUALITY, |i| i.quality);
    let settings = (config.base_path.as_str(), quality);
    Arc::new(Resizer::new(site.root(), paths, measured, settings))
}

/// Which of the pages at `pages` (places in the plan) asked for images or
/// assets when they last rendered: those whose asks this build learns anew.
fn asked_again<'p, 'b>(
    plan: &'p Plan<'_>,
    pages: impl Iterator<Item = &'b usize>,
) -> FxHashSet<&'p str> {
    if plan.drawn_uses().is_empty() && plan.named_assets().is_empty() {
        return FxHashSet::default();
    }
    pages.map(|&s| plan.specs[s].output.as_str()).collect()
}

/// The outputs to prune once the pages rendered, and what the index keeps
/// of what their templates asked for: the variants of images
/// ([`Meta::image_uses`]) and the assets ([`Meta::assets`]).
struct AskedAfter<'s> {
    stale: StaleRows<'s>,
    image_uses: String,
    assets: String,
}

/// Once the pages at `rendered` rendered: the variants of images and the
/// twins of assets their templates asked for staged ([`drawn_after`],
/// [`twins_after`]); the stale outputs with those none asks for any more,
/// and what the index keeps of each; the sources that changed under the
/// build instead, when one did.
fn asked_after<'s>(
    job: &RenderJob<'_, '_>,
    (rendered, damaged): (&FxHashSet<&str>, &Damaged),
    staging: &mut write::Staging,
    (stale, outputs): Stale<'s>,
) -> Result<Result<AskedAfter<'s>, HashSet<String>>, Error> {
    let resizer = (job.resizer, rendered, damaged);
    let (stale, image_uses) = match drawn_after(job, resizer, staging, (stale, outputs))? {
        Ok(drawn) => drawn,
        Err(changed) => return Ok(Err(changed)),
    };
    let twins = (rendered, damaged);
    Ok(
        twins_after(job, twins, staging, (stale, outputs))?.map(|(stale, assets)| AskedAfter {
            stale,
            image_uses,
            assets,
        }),
    )
}

/// Once the pages rendered: makes and stages the variants of images their
/// templates asked for (`resize_image`) that are not as folio left them;
/// gives the stale outputs with the variants no page asks for any more,
/// and what each page asks for (as the index keeps it); the images that
/// changed under the build instead, when one did.
fn drawn_after<'s>(
    job: &RenderJob<'_, '_>,
    (resizer, rendered, damaged): (&Resizer, &FxHashSet<&str>, &Damaged),
    staging: &mut write::Staging,
    (stale, outputs): Stale<'s>,
) -> Result<Result<(StaleRows<'s>, String), HashSet<String>>, Error> {
    let asked = (rendered, resizer.take_asked());
    let drawing = images::drawing(job.plan, asked, || resizer.hashes(), (outputs, damaged));
    let changed = produce::stage_drawn(job, &drawing.late, staging)?;
    if !changed.is_empty() {
        return Ok(Err(changed));
    }
    let dead = (drawing.dead.iter()).filter_map(|path| outputs.get_key_value(path.as_str()));
    // A variant made late is no stale output, even one whose row a killed
    // build reserved without a fingerprint.
    let late: FxHashSet<&str> = drawing
        .late
        .iter()
        .map(|copy| copy.output.as_str())
        .collect();
    let stale = (stale.iter().copied())
        .filter(|(path, _)| !late.contains(path.as_str()))
        .chain(dead)
        .collect();
    Ok(Ok((stale, drawn_json(&drawing.uses))))
}

/// The `asset_url` of a build: the assets of its plan (none when no
/// template names the function), and the facts of those whose bytes it
/// knows.
fn asset_urls_for(site: &Site, prepared: &Prepared, plan: &Plan<'_>) -> Arc<AssetUrls> {
    let assets = plan.assets();
    let mut names = (
        std::collections::BTreeSet::new(),
        std::collections::BTreeSet::new(),
    );
    if prepared.scan.theme.mention("asset_url") {
        for (asset, at) in assets {
            names.0.insert(asset.clone());
            if matches!(at, AssetAt::Spec(_)) {
                names.1.insert(asset.clone());
            }
        }
    }
    let known = (plan.asset_facts().iter()).map(|(asset, facts)| (asset.clone(), facts.clone()));
    Arc::new(AssetUrls::new(names, known, &site.config().base_path))
}

/// Once the pages rendered: stages the twins of the assets they name
/// (`asset_url`) that are not as folio left them; gives the stale outputs
/// with the twins no page names any more, and what the index keeps of the
/// assets (JSON); the sources that changed under the build instead, when
/// one did.
fn twins_after<'s>(
    job: &RenderJob<'_, '_>,
    (rendered, damaged): (&FxHashSet<&str>, &Damaged),
    staging: &mut write::Staging,
    (stale, outputs): (StaleRows<'s>, &'s FxHashMap<String, OutputRow>),
) -> Result<Result<(StaleRows<'s>, String), HashSet<String>>, Error> {
    let asked = (rendered, job.asset_urls.take_asked());
    let facts_of = |asset: &str| job.asset_urls.facts(asset);
    let every_row = || match job.partly_stored {
        Some(dir) => crate::store::index::outputs_at(job.index, dir).map(Some),
        None => Ok(None),
    };
    let folder = (outputs, &stale[..], damaged);
    let twins = assets::twins(job.plan, asked, facts_of, (folder, &every_row))?;
    let changed = produce::stage_twins(job, &twins.late, staging)?;
    if !changed.is_empty() {
        return Ok(Err(changed));
    }
    let dead = (twins.dead.iter()).filter_map(|path| outputs.get_key_value(path.as_str()));
    let stale = (stale.into_iter())
        .filter(|(path, _)| !twins.live.contains(path.as_str()))
        .chain(dead)
        .collect();
    Ok(Ok((stale, facts_json(&twins.facts))))
}

/// The staged files of a build, the stale outputs and those pruned early.
type Staged<'a, 's> = (
    write::Staging,
    &'a [(&'s String, &'s OutputRow)],
    &'a HashSet<&'s str>,
);

/// Outputs to prune, with their rows.
type StaleRows<'s> = Vec<(&'s String, &'s OutputRow)>;

/// The stale outputs of a build, and the output rows they are among.
type Stale<'s> = (
    &'s [(&'s String, &'s OutputRow)],
    &'s FxHashMap<String, OutputRow>,
);

/// Commits the index's changes (with the images the build measured),
/// freeing the templates meanwhile.
fn record<'a>(
    (index, progress): (&mut Index, &Reporter),
    mut changes: crate::store::index::Changes<'a>,
    (prepared, dropped): (&'a Prepared, Vec<String>),
    env: minijinja::Environment<'_>,
    report: &mut BuildReport,
) -> Result<Made, Error> {
    progress.start(Stage::Index, 0);
    changes.images = prepared.images.rows();
    report.rows_upserted = changes.upserts.len();
    report.rows_deleted = changes.retired.len();
    // The commit is SQLite's work on one core; the templates are freed on
    // the other meanwhile.
    let (committed, ()) = rayon::join(|| index.commit(&changes), move || drop(env));
    committed?;
    progress.finish(report, Stage::Index);
    Ok(Made::Committed {
        dropped,
        written_rows: changes.outputs,
        meta: Box::new(changes.meta),
    })
}

impl Session {
    /// What a dry run would have written and deleted, in the report.
    fn dry_run_written(
        &self,
        staging: &write::Staging,
        stale: &[(&String, &OutputRow)],
        report: &mut BuildReport,
    ) -> Result<Made, Error> {
        self.progress.start(Stage::Write, 0);
        commit::dry_run_report((&self.out_dir, self.index.path()), staging, stale, report)?;
        self.progress.finish(report, Stage::Write);
        Ok(Made::DryRun)
    }
}

/// `meta` with what each stylesheet compiled by this build read, beside what
/// the others' last compile read; those of sheets gone are dropped.
fn with_sass_reads(
    mut meta: Meta,
    (plan, prepared): (&Plan<'_>, &Prepared),
    compiled: Mutex<Vec<(String, Vec<String>)>>,
) -> Meta {
    let compiled = compiled.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut reads = prepared.sass_reads.clone();
    reads.extend(compiled);
    let sheets: HashSet<&str> = plan
        .copies
        .iter()
        .filter(|copy| copy.making == plan::Making::Sass)
        .map(|copy| copy.source.as_str())
        .collect();
    reads.retain(|sheet, _| sheets.contains(sheet.as_str()));
    meta.sass_reads = serde_json::to_string(&reads).ok();
    meta
}
