//! Whether the documents a build read again are all that changed since the
//! last build, each in its place; a one-off build whose documents did
//! reads the rows of, and plans, only the pages that show them: found by
//! what the index keeps of each page ([`plan::plan_shown`]). Every build
//! keeps that of the pages whose rows it writes.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::model::doc::{Record, Stat};
use crate::plan::KeptPage;
use crate::store::index::OutputRow;

use super::finish::{Planned, plan_of, sources_of};
use super::*;

/// The outputs' rows by output path.
type OutputMap = FxHashMap<String, OutputRow>;

impl Session {
    /// Whether the documents this build read again are all that changed
    /// since the last build wrote its outputs, each in what it holds alone:
    /// with their stats as that build read them (their rows'), everything
    /// this build reads has the digest that build recorded, and no output
    /// row is one a build stopped since reserved (its file is checked as
    /// damaged when the row is a committed one; rows not read yet are
    /// checked as they are, [`Session::outputs_for`]).
    pub(super) fn documents_changed_alone(
        &self,
        views: &Views<'_>,
        prepared: &Prepared,
        records: &[Record],
    ) -> bool {
        let analysis = &prepared.analysis;
        let sorts_by_title = crate::source::section::any_sorted_by_title(&analysis.sections);
        if !self.read_again_in_place(views, prepared, records, sorts_by_title)
            || analysis
                .snapshot
                .outputs
                .values()
                .any(|row| row.stat.is_none())
        {
            return false;
        }
        let earlier: FxHashMap<&str, Stat> = (analysis.snapshot.records.iter())
            .map(|old| (old.source.path.as_str(), old.source.stat))
            .collect();
        let as_last_read = scan::inputs_digest(
            (self.site.config(), &self.options),
            &prepared.scan,
            &earlier,
            &self.out_key,
            prepared.lock.started_ns,
        );
        as_last_read.is_some() && analysis.snapshot.meta.inputs == as_last_read
    }

    /// Every page, when the documents that changed alone since the last
    /// build are all that did: the fingerprints of the pages that show none
    /// of them are the rows'.
    pub(super) fn plan_changed_alone<'p>(
        &self,
        site: &'p Site,
        views: &'p Views<'p>,
        prepared: &'p Prepared,
        records: Vec<Record>,
    ) -> Result<Planned<'p>, Error> {
        let retitled = moved_titles(prepared, &records);
        let changed_since = plan::ChangedSince {
            documents: &prepared.analysis.fresh,
            retitled: &retitled,
        };
        let settings = (
            self.visibility(),
            &self.options.plugins,
            Some(changed_since),
        );
        plan_of(site, views, prepared, records, settings)
    }

    /// Whether the documents this build read again are all that changed
    /// since the last build ([`Session::documents_changed_alone`]), with
    /// the outputs' rows the plan that follows needs: those
    /// [`Index::shown_outputs`] finds when they are, or else every row.
    pub(super) fn outputs_for(
        &self,
        views: &Views<'_>,
        prepared: &Prepared,
        records: &[Record],
    ) -> Result<(bool, (OutputMap, OutputRows)), Error> {
        if self.documents_changed_alone(views, prepared, records) {
            let analysis = &prepared.analysis;
            let retitled = moved_titles(prepared, records);
            let (documents, retitled) = plan::cover_keys(records, (&analysis.fresh, &retitled));
            let shown = self.index.shown_outputs(&self.out_key, move |covers| {
                plan::covers_any(covers, &documents, &retitled)
            })?;
            if let Some(shown) = shown {
                return Ok((true, (shown.rows, OutputRows::Shown(shown.pages))));
            }
        }
        let every = self.index.outputs(&self.out_key)?;
        Ok((false, (every, OutputRows::Every)))
    }

    /// The plan of the pages that show the documents `changed` names, with
    /// the pages whose fingerprint it computed; `records` back when this
    /// build plans every page: a session keeps its plan for the next build
    /// to bring up to date, a damaged output may be any page's, and an
    /// index that does not keep every page's row cannot say which show them
    /// (the rows of those pages alone are read only when none of these
    /// holds: [`Session::prepare`] leaves them unread, and
    /// [`Session::outputs_for`] reads them).
    pub(super) fn plan_shown<'p>(
        &self,
        (site, views): (&'p Site, &'p Views<'p>),
        prepared: &'p Prepared,
        records: Vec<Record>,
        changed: plan::ChangedSince<'_>,
    ) -> Result<plan::PlanOfShown<'p>, Error> {
        let meta = &prepared.analysis.snapshot.meta;
        let templates: Option<Vec<String>> =
            (meta.templates.as_deref()).and_then(|json| serde_json::from_str(json).ok());
        let (Some(templates), OutputRows::Shown(shown)) = (templates, &prepared.outputs) else {
            return Ok(Err(records));
        };
        let plugins = &self.options.plugins;
        // Kept by the last build, which left `meta`: the documents changed
        // in place alone since, so it is theirs.
        // (None is kept for inputs that could not be trusted, empty.)
        let kept = match meta.inputs.as_deref() {
            Some(inputs) => (self.index.arrangement(inputs)?)
                .and_then(|bytes| plan::Arrangement::decode(&bytes)),
            None => None,
        };
        let planned = plan::plan_shown(
            (site.config(), views, &prepared.scan.theme),
            (records, prepared.analysis.sections.clone()),
            (
                sources_of(prepared, plugins, Some(changed)),
                shown,
                templates,
            ),
            (self.visibility(), kept),
            (prepared.lock.started_ns, &|records, which| {
                self.index.load(records, which)
            }),
        )?;
        Ok(match planned {
            // An asset with new bytes has a new link in every page naming
            // it, shown here or not.
            Ok((plan, fingerprinted)) if plan.select_among(fingerprinted.clone()).is_none() => {
                Err(plan.into_records())
            }
            planned => planned,
        })
    }

    /// What the index keeps of the pages among the `written` outputs, or of
    /// every page when it does not keep every page's yet (a first build, an
    /// index of an older version): with whether it is every page's.
    pub(super) fn kept_pages(
        &self,
        plan: &Plan<'_>,
        written: &[(String, OutputRow)],
    ) -> Result<(Vec<(String, KeptPage)>, bool), Error> {
        // A plan of some pages is made only once the index keeps every
        // page's ([`Session::plan_shown`]): `every_page` plans every page.
        let every_page = !self.index.keeps_pages(&self.out_key)?;
        let pages: Vec<usize> = match every_page {
            true => (0..plan.specs.len()).collect(),
            false => {
                let written: FxHashSet<&str> =
                    written.iter().map(|(path, _)| path.as_str()).collect();
                (0..plan.specs.len())
                    .filter(|&s| written.contains(plan.specs[s].output.as_str()))
                    .collect()
            }
        };
        Ok((plan.kept_pages(&pages), every_page))
    }
}

/// Of the documents read again, each in its place (their rows, as they
/// were, in the order of `fresh`), those whose title moved: the pages that
/// list them by title alone are fingerprinted again too.
pub(super) fn moved_titles(prepared: &Prepared, records: &[Record]) -> Vec<usize> {
    let analysis = &prepared.analysis;
    (analysis.snapshot.records.iter())
        .zip(&analysis.fresh)
        .filter(|(old, i)| old.title != records[**i].title)
        .map(|(_, &i)| i)
        .collect()
}
