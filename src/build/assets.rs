//! The assets the pages fingerprint (`asset_url`), made once per build: an
//! asset's bytes are made (or read back from the output folder, when it is
//! as folio left it) before the first page that asks for it renders, by
//! whichever worker comes first; the others, and the produce loop that
//! would have made it too, take those bytes. Once the pages have rendered,
//! the twins they name are staged, and those none names are pruned.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::build::scan::Damaged;
use crate::model::asset::{AssetFacts, AssetUses, KeptFacts, asks_in, is_twin};
use crate::model::error::Error;
use crate::plan::{Plan, WrittenWith};
use crate::store::index::OutputRow;
use crate::store::write::Rendered;

/// One asset as this build has it.
pub(crate) struct MadeAsset {
    /// Its output, bytes and fingerprint, as this build writes or wrote it.
    pub rendered: Rendered,
    /// What its bytes are.
    pub facts: AssetFacts,
    /// Whether this build made it (rather than read it back), and so must
    /// write it: the produce loop takes it, once.
    pub to_stage: AtomicBool,
}

/// The assets of one build, each made at most once.
#[derive(Default)]
pub(crate) struct AssetWork {
    /// Per asset asked for, the lock its making holds, and what it made.
    slots: Mutex<FxHashMap<String, Arc<Slot>>>,
    /// The assets the pages asked for when they last rendered: those the
    /// produce loop makes through their slot, for the pages to share.
    asked_before: FxHashSet<String>,
    /// The assets this build makes; the others are as folio left them.
    selected: FxHashSet<String>,
}

/// One asset's making: held while it is made, then what it made.
type Slot = Mutex<Option<Arc<MadeAsset>>>;

/// How making an asset ended: made, or its source holds other bytes than
/// its record was made from (the build starts over).
pub(crate) type Making = Result<Arc<MadeAsset>, String>;

impl AssetWork {
    /// Those of `plan`, whose pages at `specs` and copies at `copies`
    /// (places in the plan) this build makes.
    pub(crate) fn new<'i>(
        plan: &Plan<'_>,
        specs: impl IntoIterator<Item = &'i usize>,
        copies: impl IntoIterator<Item = &'i usize>,
    ) -> AssetWork {
        let assets = plan.assets();
        if assets.is_empty() {
            return AssetWork::default();
        }
        let specs = specs.into_iter().map(|&s| plan.specs[s].output.as_str());
        let copies = copies.into_iter().map(|&c| plan.copies[c].output.as_str());
        AssetWork {
            slots: Mutex::default(),
            asked_before: plan.named_assets().keys().cloned().collect(),
            selected: (specs.chain(copies))
                .filter(|output| assets.contains_key(*output))
                .map(str::to_owned)
                .collect(),
        }
    }

    /// Whether this build makes the asset at `asset`.
    pub(crate) fn selected(&self, asset: &str) -> bool {
        self.selected.contains(asset)
    }

    /// Whether the pages asked for `asset` when they last rendered.
    pub(crate) fn asked_before(&self, asset: &str) -> bool {
        self.asked_before.contains(asset)
    }

    /// The asset at `asset` as this build has it: made by `make` unless
    /// another call made it first. A failed making is not kept: the next
    /// call tries again, and reports its own error.
    pub(crate) fn made(
        &self,
        asset: &str,
        make: impl FnOnce() -> Result<Making, Error>,
    ) -> Result<Making, Error> {
        let slot = {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(slots.entry(asset.to_owned()).or_default())
        };
        // Held while making: the others asking wait for its bytes. Making
        // an asset never waits on another asset (a site file's template may
        // name copies alone), nor runs rayon work that could.
        let mut made = slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(made) = &*made {
            return Ok(Ok(Arc::clone(made)));
        }
        let making = make()?;
        if let Ok(asset) = &making {
            *made = Some(Arc::clone(asset));
        }
        Ok(making)
    }

    /// What a page made at `output` before the produce loop reached it, for
    /// the loop to stage instead of making it again; once.
    pub(crate) fn take_staged(&self, output: &str) -> Option<Rendered> {
        let slot = {
            let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            Arc::clone(slots.get(output)?)
        };
        let made = slot.lock().unwrap_or_else(PoisonError::into_inner);
        let made = made.as_ref()?;
        let rendered = &made.rendered;
        made.to_stage
            .swap(false, Ordering::AcqRel)
            .then(|| Rendered {
                output: rendered.output.clone(),
                bytes: rendered.bytes.clone(),
                fingerprint: rendered.fingerprint.clone(),
            })
    }
}

/// The twins the pages of a build name, once they rendered.
#[derive(Default)]
pub(crate) struct Twins {
    /// To stage: the asset, its twin's output and fingerprint; named, and
    /// not as folio left them.
    pub late: Vec<(String, String, String)>,
    /// The twins no page names any more, to prune.
    pub dead: Vec<String>,
    /// Every twin a page names: none is stale, even one whose row a
    /// killed build reserved without a fingerprint.
    pub live: FxHashSet<String>,
    /// What the index keeps: the facts of each asset a page names.
    pub facts: KeptFacts,
}

/// What the output folder holds as a build ends: each output's row as the
/// build found it, those to prune, and those not as folio left them.
pub(crate) type Folder<'a> = (
    &'a FxHashMap<String, OutputRow>,
    &'a [(&'a String, &'a OutputRow)],
    &'a Damaged,
);

/// The twins the pages of `plan` name, once those at `rendered` (those
/// of them that named an asset before, at least) rendered and `asked` for
/// theirs; `facts_of` gives the facts the build knows of an asset.
pub(crate) fn twins(
    plan: &Plan<'_>,
    (rendered, asked): (&FxHashSet<&str>, AssetUses),
    facts_of: impl Fn(&str) -> Option<AssetFacts>,
    ((stored, stale, damaged), every_row): (Folder<'_>, &EveryRow<'_>),
) -> Result<Twins, Error> {
    let any_stored = || {
        stored
            .values()
            .any(|row| is_twin(row.fingerprint.as_deref()))
    };
    if asked.is_empty() && plan.named_assets().is_empty() && !any_stored() {
        // No page names a twin, nor did: a theme without asset_url.
        return Ok(Twins::default());
    }
    let named = named_assets(plan, (rendered, &asked), (stored, stale), every_row)?;
    // Looked for twin by twin: a few, against every output.
    let planned = |twin: &str| {
        (plan.specs.iter()).any(|spec| spec.output.as_str() == twin)
            || (plan.copies.iter()).any(|copy| copy.output.as_str() == twin)
    };
    let facts: KeptFacts = (named.into_iter())
        .filter_map(|asset| Some((asset.to_owned(), facts_of(asset)?)))
        .collect();
    // A file of the site at a twin's place is that file: no twin there.
    let live: BTreeMap<String, (&str, String)> = (facts.iter())
        .map(|(asset, facts)| {
            (
                facts.twin(asset),
                (asset.as_str(), facts.twin_fingerprint(asset)),
            )
        })
        .filter(|(twin, _)| !planned(twin))
        .collect();
    let mut dead: Vec<String> = (stored.iter())
        .filter(|(output, row)| is_twin(row.fingerprint.as_deref()) && !live.contains_key(*output))
        .map(|(output, _)| output.clone())
        .collect();
    dead.sort_unstable();
    let names: FxHashSet<String> = live.keys().cloned().collect();
    let late = (live.into_iter())
        .filter(|(twin, (_, fingerprint))| {
            stored.get(twin).is_none_or(|row| {
                row.fingerprint.as_deref() != Some(fingerprint.as_str())
                    || !damaged.intact(twin, row)
            })
        })
        .map(|(twin, (asset, fingerprint))| (asset.to_owned(), twin, fingerprint))
        .collect();
    Ok(Twins {
        late,
        dead,
        live: names,
        facts,
    })
}

/// The row of every output of the folder when the rows a build holds are
/// only some of them (`None`: they are all).
pub(crate) type EveryRow<'r> = dyn Fn() -> Result<Option<FxHashMap<String, OutputRow>>, Error> + 'r;

/// The assets the pages name once those at `rendered` rendered and
/// `asked` for theirs: those named before and those asked now, less those
/// a page that rendered or is pruned named before and that no page names
/// now. Only then are the other pages' fingerprints read (a template that
/// stops naming an asset), from every row (`every_row`, when `stored` is
/// only some); most builds read none.
fn named_assets<'a>(
    plan: &'a Plan<'_>,
    (rendered, asked): (&FxHashSet<&str>, &'a AssetUses),
    (stored, stale): (
        &'a FxHashMap<String, OutputRow>,
        &[(&'a String, &'a OutputRow)],
    ),
    every_row: &EveryRow<'_>,
) -> Result<BTreeSet<&'a str>, Error> {
    let asked_now: BTreeSet<&str> = asked.values().flatten().map(String::as_str).collect();
    let mut dropped: BTreeSet<&str> = BTreeSet::new();
    for page in rendered {
        let now = asked.get(*page);
        let before = stored.written_with(page).map(asks_in).unwrap_or_default();
        dropped.extend(
            before
                .into_iter()
                .filter(|asset| now.is_none_or(|now| !now.contains(*asset))),
        );
    }
    for (_, row) in stale {
        dropped.extend(row.fingerprint.as_deref().map(asks_in).unwrap_or_default());
    }
    dropped.retain(|asset| !asked_now.contains(asset));
    let mut named: BTreeSet<&str> = plan.named_assets().keys().map(String::as_str).collect();
    named.extend(&asked_now);
    if dropped.is_empty() {
        return Ok(named);
    }
    let pruned: FxHashSet<&str> = stale.iter().map(|(path, _)| path.as_str()).collect();
    let every = every_row()?;
    let rows = every.as_ref().unwrap_or(stored);
    let still: BTreeSet<&str> = (rows.iter())
        .filter(|(page, _)| !rendered.contains(page.as_str()) && !pruned.contains(page.as_str()))
        .flat_map(|(_, row)| row.fingerprint.as_deref().map(asks_in).unwrap_or_default())
        .filter(|asset| dropped.contains(asset))
        .collect();
    named.retain(|asset| !dropped.contains(asset) || still.contains(asset));
    Ok(named)
}
