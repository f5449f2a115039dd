//! A one-off build whose documents changed alone since the last build,
//! each in its place, plans only the pages that show them: found by what
//! the index keeps of each page ([`plan::plan_shown`]). Every build keeps
//! that of the pages whose rows it writes.

use rustc_hash::FxHashSet;

use crate::model::doc::Record;
use crate::plan::KeptPage;

use super::finish::sources_of;
use super::*;

impl Session {
    /// The plan of the pages that show the documents `changed` names, with
    /// the pages whose fingerprint it computed; `records` back when this
    /// build plans every page: a session keeps its plan for the next build
    /// to bring up to date, a damaged output may be any page's, and an
    /// index that does not keep every page's row cannot say which show them.
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
        let Some(templates) = templates else {
            return Ok(Err(records));
        };
        if self.keeps_state
            || !prepared.scan.damaged.is_empty()
            || !self.index.keeps_pages(&self.out_key)?
        {
            return Ok(Err(records));
        }
        let (documents, retitled) =
            plan::cover_keys(&records, (changed.documents, changed.retitled));
        let shown = self.index.showing(&self.out_key, |covers| {
            plan::covers_any(covers, &documents, &retitled)
        })?;
        let plugins = &self.options.plugins;
        let planned = plan::plan_shown(
            (site.config(), views, &prepared.scan.theme),
            (records, prepared.analysis.sections.clone()),
            (
                sources_of(prepared, plugins, Some(changed)),
                &shown,
                templates,
            ),
            self.visibility(),
            prepared.lock.started_ns,
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
