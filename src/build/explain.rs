//! Telling a user what the engine decided: what an output is made from
//! (`folio explain`) and why each output a dry run would write is out of
//! date. Both read the same plan a build makes.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use crate::build::scan::Damaged;
use crate::build::site::lexical;
use crate::model::asset::{Asks, asks_in};
use crate::model::doc::Record;
use crate::model::error::Error;
use crate::model::id::PostId;
use crate::model::report::Explanation;
use crate::plan::{AssetAt, Copy, Making, OutputPath, Plan, Sheets, Spec, WrittenWith};
use crate::render::Theme;
use crate::store::index::Snapshot;

/// Names what the output at `query` is built from: a path in the output
/// folder `out_dir` (`public/fr/index.html`), relative to it
/// (`fr/index.html`) or a URL path (`/fr/`).
pub(crate) fn explanation(
    plan: &Plan<'_>,
    (theme, sheets): (&Theme, Sheets<'_>),
    (out_dir, written): (&Path, &dyn WrittenWith),
    query: &str,
) -> Result<Explanation, Error> {
    let under_out = std::path::absolute(Path::new(query))
        .ok()
        .map(|p| lexical(&p))
        .and_then(|p| {
            p.strip_prefix(out_dir)
                .ok()
                .map(|r| r.to_string_lossy().replace('\\', "/"))
        });
    // A URL path may carry the site's base path (`/blog/fr/`).
    let url_path = plan.config().site_path(query).unwrap_or(query);
    let rel = under_out.unwrap_or_else(|| url_path.trim_start_matches('/').to_owned());
    let wanted = if rel.is_empty() || rel.ends_with('/') {
        OutputPath::for_url(&format!("/{rel}"))
    } else {
        OutputPath::new(&rel).or_else(|| OutputPath::for_url(&format!("/{rel}")))
    };
    let not_found = || Error::UnknownOutput {
        query: query.to_owned(),
    };
    let wanted = wanted.ok_or_else(not_found)?;
    // A twin is its asset again, under another name.
    let twin_of =
        (plan.asset_facts().iter()).find(|(asset, facts)| facts.twin(asset) == wanted.as_str());
    let wanted = match twin_of.and_then(|(asset, _)| OutputPath::new(asset)) {
        Some(asset) => asset,
        None => wanted,
    };
    if let Some(spec) = plan.specs.iter().find(|s| s.output == wanted) {
        let written = written.written_with(spec.output.as_str());
        return Ok(page_explanation(plan, (theme, sheets), (spec, written)));
    }
    let mut copies = plan.copies.iter().chain(plan.drawn());
    if let Some(copy) = copies.find(|c| c.output == wanted) {
        return Ok(Explanation {
            output: copy.output.to_string(),
            made_for: copy.source.clone(),
            templates: Vec::new(),
            sources: copy_sources(copy, sheets),
            config_keys: Vec::new(),
            language: None,
        });
    }
    Err(not_found())
}

/// What the page of `spec` is made from: its templates and sources, with
/// the images and assets its templates asked for when it last rendered
/// (an asset's templates, or its files; its fingerprint then, `written`,
/// says which assets).
fn page_explanation(
    plan: &Plan<'_>,
    (theme, sheets): (&Theme, Sheets<'_>),
    (spec, written): (&Spec, Option<&str>),
) -> Explanation {
    let mut sources = plan.sources_of(spec);
    let mut templates = theme.closure(&spec.template);
    let images = plan.drawn_uses().get(spec.output.as_str());
    let mut asked: Vec<String> = images
        .into_iter()
        .flatten()
        .map(|(image, _)| image.clone())
        .collect();
    for asset in written.map(asks_in).unwrap_or_default() {
        match plan.assets().get(asset) {
            Some(&AssetAt::Copy(c)) => asked.extend(copy_sources(&plan.copies[c], sheets)),
            Some(&AssetAt::Spec(s)) => {
                for template in theme.closure(&plan.specs[s].template) {
                    if !templates.contains(&template) {
                        templates.push(template);
                    }
                }
            }
            None => {}
        }
    }
    for source in asked {
        if !sources.contains(&source) {
            sources.push(source);
        }
    }
    Explanation {
        output: spec.output.to_string(),
        made_for: plan.made_by(spec),
        templates,
        sources,
        config_keys: plan.config_keys(spec),
        language: Some(plan.language(spec).to_owned()),
    }
}

/// The files a copy is made from: its source; a stylesheet's, every file of
/// its `sass/` folder its last compile read.
fn copy_sources(copy: &Copy, sheets: Sheets<'_>) -> Vec<String> {
    let read = match copy.making {
        Making::Verbatim | Making::Image { .. } => None,
        Making::Sass => sheets.reads.get(&copy.source),
    };
    let Some(read) = read else {
        return vec![copy.source.clone()];
    };
    sheets
        .files
        .iter()
        .filter(|file| read.contains(&file.path))
        .map(|file| file.path.clone())
        .collect()
}

/// What [`reasons`] compares: the plan and its selection against the
/// index as the build found it.
pub(crate) struct Reasons<'p, 'a> {
    pub plan: &'p Plan<'a>,
    pub theme: &'p Theme,
    pub specs: &'p [Spec],
    pub selected: &'p [bool],
    pub copies: Vec<&'p Copy>,
    pub snapshot: &'p Snapshot,
    pub fresh: Vec<&'p Record>,
    pub retired: &'p [PostId],
    pub damaged: &'p Damaged,
}

/// Why each page to render (and file to copy) is out of date, in words.
pub(crate) fn reasons(r: &Reasons<'_, '_>) -> BTreeMap<String, String> {
    let then = Then::of(r);
    let mut why = BTreeMap::new();
    for (spec, _) in r
        .specs
        .iter()
        .zip(r.selected)
        .filter(|(_, picked)| **picked)
    {
        let reason = match r.snapshot.outputs.get(spec.output.as_str()) {
            None => "a new page".to_owned(),
            Some(row) if !r.damaged.intact(spec.output.as_str(), row) => {
                "its file in the output folder is missing or was changed".to_owned()
            }
            Some(_) => then.changes_for(r, spec),
        };
        why.insert(spec.output.to_string(), reason);
    }
    for copy in &r.copies {
        let reason = if r.snapshot.outputs.contains_key(copy.output.as_str()) {
            format!("{} changed", copy.source)
        } else {
            format!("{} is new", copy.source)
        };
        why.insert(copy.output.to_string(), reason);
    }
    why
}

/// What the last build's pages were made with, as far as it differs from
/// this build's.
struct Then<'p> {
    changed_sources: HashSet<&'p str>,
    theme: BTreeMap<String, String>,
    wording: BTreeMap<String, String>,
    globals_changed: bool,
    another_folio: bool,
}

impl<'p> Then<'p> {
    fn of(r: &Reasons<'p, '_>) -> Then<'p> {
        let stored_by_path: HashMap<&str, &Record> = r
            .snapshot
            .records
            .iter()
            .map(|rec| (rec.source.path.as_str(), rec))
            .collect();
        let retired: HashSet<&PostId> = r.retired.iter().collect();
        let changed_sources = r
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
        let meta = &r.snapshot.meta;
        Then {
            changed_sources,
            theme: parse_map(&meta.theme),
            wording: parse_map(&meta.wording),
            globals_changed: meta.globals.as_deref() != Some(r.plan.globals()),
            // The settings a folio brings of its own are in every page's
            // fingerprint too: after an upgrade, every page renders with
            // site.toml untouched.
            another_folio: !meta
                .content_settings
                .as_deref()
                .is_some_and(crate::source::config::made_by_this_folio),
        }
    }

    /// What changed among the inputs of `spec`, a page the last build made.
    fn changes_for(&self, r: &Reasons<'_, '_>, spec: &Spec) -> String {
        let mut parts = Vec::new();
        let templates: Vec<String> = r
            .theme
            .closure(&spec.template)
            .into_iter()
            .filter(|t| self.theme.get(t) != r.theme.own_hashes().get(t))
            .collect();
        if !templates.is_empty() {
            parts.push(format!("template changed: {}", templates.join(", ")));
        }
        if self.globals_changed {
            parts.push(if self.another_folio {
                "another folio (another version) made the last build".to_owned()
            } else {
                "site.toml changed".to_owned()
            });
        }
        let lang = r.plan.language(spec);
        if self.wording.get(lang) != r.plan.wording().get(lang) {
            parts.push(format!("the words of `{lang}` changed"));
        }
        let sources: Vec<String> = r
            .plan
            .sources_of(spec)
            .into_iter()
            .filter(|s| self.changed_sources.contains(s.as_str()))
            .collect();
        if !sources.is_empty() {
            parts.push(format!("source changed: {}", sources.join(", ")));
        }
        let written = r.snapshot.outputs.written_with(spec.output.as_str());
        let moved: Vec<&str> = (written.map(Asks::of).into_iter().flatten())
            .filter(|(asset, sha256)| {
                (r.plan.asset_facts().get(*asset)).is_none_or(|facts| facts.sha256 != *sha256)
            })
            .map(|(asset, _)| asset)
            .collect();
        if !moved.is_empty() {
            parts.push(format!("an asset it links changed: {}", moved.join(", ")));
        }
        if parts.is_empty() {
            parts.push(
                "what it lists or links changed (a document added, removed, re-dated or published)"
                    .to_owned(),
            );
        }
        parts.join("; ")
    }
}
