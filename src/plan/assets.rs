//! The assets of a plan that templates may fingerprint (`asset_url`): which
//! outputs they are, and which of the facts the index keeps still hold (an
//! asset's facts hold while its fingerprint is the one they were taken
//! at). A page is written with its own fingerprint followed by the assets
//! it named and their hashes; it is as it would be now while its own part
//! is the plan's and each of those hashes still holds. Otherwise it
//! renders, and learns what it names.

use super::*;

use crate::model::asset::{Asks, AssetFacts, KeptFacts, asks_in, assets_part, with_assets};

/// What makes an asset, by its place in the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetAt {
    Copy(usize),
    Spec(usize),
}

/// What a plan knows of the assets from the last build: the facts the
/// index keeps, and the fingerprint each output was last written with
/// (`None` for one the index does not know), whose end says which assets
/// a page asked for.
#[derive(Clone, Copy)]
pub struct AssetsBefore<'a> {
    pub facts: &'a KeptFacts,
    pub outputs: &'a dyn WrittenWith,
}

#[cfg(any(test, feature = "internals"))]
impl AssetsBefore<'static> {
    /// Nothing known: a first build.
    pub const NONE: AssetsBefore<'static> = AssetsBefore {
        facts: &BTreeMap::new(),
        outputs: &(),
    };
}

/// The outputs of a folder as the index knows them.
pub trait WrittenWith: Sync {
    /// The fingerprint the output at `output` was last written with.
    fn written_with(&self, output: &str) -> Option<&str>;
}

/// No output.
impl WrittenWith for () {
    fn written_with(&self, _output: &str) -> Option<&str> {
        None
    }
}

/// The assets of one plan.
#[derive(Default)]
pub(super) struct PlannedAssets {
    /// Every output a template may name: the files of `static/` and the
    /// sheets of `sass/` (the first copies), and the site files that are
    /// no page (`style.css`, `robots.txt`).
    candidates: FxHashMap<String, AssetAt>,
    /// The facts the index keeps, of the assets there still are.
    recorded: KeptFacts,
    /// Those of them that hold.
    holding: FxHashMap<String, AssetFacts>,
}

impl PlannedAssets {
    /// Those of a plan whose first `statics` copies come from `static/` and
    /// `sass/`.
    pub(super) fn new((copies, statics): (&[Copy], usize), specs: &[Spec]) -> PlannedAssets {
        let copied = (copies[..statics].iter().enumerate())
            .map(|(c, copy)| (copy.output.to_string(), AssetAt::Copy(c)));
        let site_files = (specs.iter().enumerate())
            .filter(|(_, spec)| {
                matches!(spec.recipe, Recipe::SiteFile(_))
                    && !spec.output.as_str().ends_with(".html")
            })
            .map(|(s, spec)| (spec.output.to_string(), AssetAt::Spec(s)));
        PlannedAssets {
            candidates: copied.chain(site_files).collect(),
            ..PlannedAssets::default()
        }
    }

    /// Puts in the fingerprint of each site file that is an asset the
    /// assets it asked for when it was last written (`before`; it may name
    /// copies alone), then checks the facts of each asset against its
    /// fingerprint. The other pages' fingerprints stay their own: which
    /// assets they named is checked as they are selected
    /// ([`PlannedAssets::written_as_planned`]).
    pub(super) fn settle(&mut self, specs: &mut [Spec], copies: &[Copy], before: AssetsBefore<'_>) {
        self.take_facts(before.facts);
        self.hold_where(|at| match at {
            AssetAt::Copy(c) => Some(&copies[c].fingerprint),
            AssetAt::Spec(_) => None,
        });
        if before.facts.is_empty() {
            // No page named an asset: most sites but those of folio's theme.
            return;
        }
        let site_files: Vec<usize> = (self.candidates.values())
            .filter_map(|at| match at {
                AssetAt::Spec(s) => Some(*s),
                AssetAt::Copy(_) => None,
            })
            .collect();
        for &s in &site_files {
            self.add_asks(&mut specs[s], before);
        }
        self.hold_where(|at| match at {
            AssetAt::Copy(c) => Some(&copies[c].fingerprint),
            AssetAt::Spec(s) => Some(&specs[s].fingerprint),
        });
    }

    /// Takes the facts the index keeps now, for a kept plan whose `specs`
    /// and `copies` have their fingerprints.
    pub(super) fn refresh(&mut self, facts: &KeptFacts, specs: &[Spec], copies: &[Copy]) {
        self.take_facts(facts);
        self.hold_where(|at| match at {
            AssetAt::Copy(c) => Some(&copies[c].fingerprint),
            AssetAt::Spec(s) => Some(&specs[s].fingerprint),
        });
    }

    /// Takes the facts the index keeps of the assets there still are; none
    /// holds until checked.
    fn take_facts(&mut self, facts: &KeptFacts) {
        self.recorded = (facts.iter())
            .filter(|(asset, _)| self.candidates.contains_key(*asset))
            .map(|(asset, facts)| (asset.clone(), facts.clone()))
            .collect();
        self.holding.clear();
    }

    /// Holds the recorded facts of each asset whose fingerprint
    /// (`fingerprint_of` its place, when known) is the one they were taken at.
    fn hold_where<'f>(&mut self, fingerprint_of: impl Fn(AssetAt) -> Option<&'f String>) {
        for (asset, facts) in &self.recorded {
            let Some(&at) = self.candidates.get(asset) else {
                continue;
            };
            if fingerprint_of(at).is_some_and(|fingerprint| *fingerprint == facts.fingerprint) {
                self.holding.insert(asset.clone(), facts.clone());
            }
        }
    }

    /// Whether a page planned with `fingerprint` (its own) was last written
    /// as it would be now: with that fingerprint, or with it followed by
    /// the assets it asked for, each with the hash its facts still hold.
    /// What a page asks for is learnt only as it renders: a page's own
    /// fingerprint is planned, and the assets it named are checked here,
    /// against the row the build looks up anyway.
    pub(super) fn written_as_planned(&self, fingerprint: &str, written: &str) -> bool {
        let Some(part) = written.strip_prefix(fingerprint) else {
            return false;
        };
        part.is_empty()
            || (assets_part(part) == Some(part)
                && Asks::of(part).all(|(asset, sha256)| {
                    self.holding
                        .get(asset)
                        .is_some_and(|facts| facts.sha256 == sha256)
                }))
    }

    /// Ends the fingerprint of `spec` (its own, as its recipe gives it)
    /// with the assets it asked for when it was last written, each with its
    /// hash as the plan knows it; most pages asked for none, and are left
    /// alone.
    pub(super) fn add_asks(&self, spec: &mut Spec, before: AssetsBefore<'_>) {
        let Some(asks) = before
            .outputs
            .written_with(spec.output.as_str())
            .map(asks_in)
        else {
            return;
        };
        if asks.is_empty() {
            return;
        }
        spec.fingerprint = with_assets(&spec.fingerprint, asks, |asset| {
            self.holding.get(asset).map(|facts| facts.sha256.as_str())
        });
    }

    pub(super) fn candidates(&self) -> &FxHashMap<String, AssetAt> {
        &self.candidates
    }

    pub(super) fn holding(&self) -> &FxHashMap<String, AssetFacts> {
        &self.holding
    }

    pub(super) fn recorded(&self) -> &KeptFacts {
        &self.recorded
    }
}
