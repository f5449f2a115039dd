//! Which outputs of a plan must be made again, which outputs the index
//! knows no page produces any more, and in which batches the pages go when
//! a stale output stands in the way of a new one.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::build::scan::Damaged;
use crate::model::asset::is_twin;
use crate::plan::{Plan, Spec};
use crate::render::SitemapEntry;
use crate::store::index::OutputRow;

/// The outputs the index knows in this folder that no page or copy of
/// `plan` produces any more, sorted by path. The variants the pages'
/// templates asked for are not among them, nor the twins of the assets
/// they fingerprint: whether a page still asks for one is known once it
/// renders.
pub(crate) fn stale<'s>(
    plan: &Plan<'_>,
    outputs: &'s FxHashMap<String, OutputRow>,
) -> Vec<(&'s String, &'s OutputRow)> {
    // A plan of the pages that show what changed is made only when the
    // site has the outputs of the last build: the others are its own.
    if !plan.is_whole() {
        return Vec::new();
    }
    let produced: FxHashSet<&str> = plan
        .specs
        .iter()
        .map(|s| s.output.as_str())
        .chain(plan.copies.iter().map(|c| c.output.as_str()))
        .chain(plan.drawn().iter().map(|c| c.output.as_str()))
        .collect();
    let mut stale: Vec<(&String, &OutputRow)> = outputs
        .iter()
        .filter(|(path, row)| {
            !produced.contains(path.as_str()) && !is_twin(row.fingerprint.as_deref())
        })
        .collect();
    stale.sort_by(|a, b| a.0.cmp(b.0));
    stale
}

/// Which pages of a plan must be rendered, and which of its copies made.
pub(crate) struct Selected {
    /// By the place of each page in the plan's specs.
    pub needs_render: Vec<bool>,
    /// Places in the plan's copies.
    pub copies: Vec<usize>,
}

/// Which outputs must be made again: those whose fingerprint moved, or
/// whose file is not as folio left it. `fingerprinted`, when given, are the
/// only pages whose fingerprint may have moved since the last build (those
/// the plan computed, [`Plan::select_among`]), and no copy has (a kept
/// session's [`crate::plan::replan`], or a plan that took the others' from
/// the rows): the rest are not looked at, unless an output is damaged.
pub(crate) fn outdated(
    plan: &Plan<'_>,
    outputs: &FxHashMap<String, OutputRow>,
    damaged: &Damaged,
    fingerprinted: Option<&[usize]>,
) -> Selected {
    let outdated = |output: &str, fingerprint: &str| {
        outputs.get(output).is_none_or(|row| {
            row.fingerprint.as_deref() != Some(fingerprint) || !damaged.intact(output, row)
        })
    };
    // A page's planned fingerprint is its own: the stored one may end with
    // the assets it named, which must still hold.
    let spec_outdated = |spec: &Spec| {
        let output = spec.output.as_str();
        outputs.get(output).is_none_or(|row| {
            let written = row.fingerprint.as_deref();
            !written.is_some_and(|written| plan.written_as_planned(spec, written))
                || !damaged.intact(output, row)
        })
    };
    // An output not as the last build left it (a one-off build's scan finds
    // them; a kept session trusts its folder) is made again, whatever its
    // fingerprint: every page and copy is looked at.
    let Some(fingerprinted) = fingerprinted.filter(|_| damaged.is_empty()) else {
        return Selected {
            needs_render: plan.specs.par_iter().map(spec_outdated).collect(),
            copies: (0..plan.copies.len())
                .into_par_iter()
                .filter(|&c| {
                    let copy = &plan.copies[c];
                    outdated(copy.output.as_str(), &copy.fingerprint)
                })
                .collect(),
        };
    };
    let mut needs_render = vec![false; plan.specs.len()];
    for &s in fingerprinted {
        needs_render[s] = spec_outdated(&plan.specs[s]);
    }
    Selected {
        needs_render,
        copies: Vec::new(),
    }
}

/// The pages and copies to make, by their place in the plan, in two
/// batches: the free ones first, then those a stale output stands in the
/// way of (a file where a folder must go, or the other way round), staged
/// once it is pruned.
pub(crate) struct Batches {
    pub free: (Vec<usize>, Vec<usize>),
    pub blocked: (Vec<usize>, Vec<usize>),
    /// The sitemap's entries, when the sitemap is among the pages.
    pub sitemap: Option<Vec<SitemapEntry>>,
}

impl Batches {
    pub(crate) fn pages(&self) -> usize {
        self.free.0.len() + self.blocked.0.len()
    }

    pub(crate) fn copies(&self) -> usize {
        self.free.1.len() + self.blocked.1.len()
    }
}

impl Selected {
    pub(crate) fn into_batches(self, plan: &Plan<'_>, stale: &[(&String, &OutputRow)]) -> Batches {
        let sitemap = plan.sitemap_if_selected(&plan.specs, &self.needs_render);
        let blockers = Blockers::new(stale);
        let (mut blocked, mut free) = (Vec::new(), Vec::new());
        for (s, render) in self.needs_render.into_iter().enumerate() {
            if !render {
                continue;
            }
            if blockers.block(plan.specs[s].output.as_str()) {
                blocked.push(s);
            } else {
                free.push(s);
            }
        }
        // The sitemap, one page with an entry for every other, goes first:
        // last in plan order, it was the last page rendered, one core idle
        // for the 35 to 120 ms it took at 15,000 posts.
        if let Some(at) = free.iter().position(|&s| plan.specs[s].is_sitemap()) {
            free[..=at].rotate_right(1);
        }
        let (blocked_copies, free_copies): (Vec<usize>, Vec<usize>) = self
            .copies
            .into_iter()
            .partition(|&c| blockers.block(plan.copies[c].output.as_str()));
        Batches {
            free: (free, free_copies),
            blocked: (blocked, blocked_copies),
            sitemap,
        }
    }
}

/// Whether the stale output `stale` stands where `output` must go: one is
/// a folder on the other's path.
pub(crate) fn blocks(stale: &str, output: &str) -> bool {
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
    files: FxHashSet<&'s str>,
    folders: FxHashSet<&'s str>,
}

impl<'s> Blockers<'s> {
    fn new(stale: &[(&'s String, &OutputRow)]) -> Blockers<'s> {
        let files: FxHashSet<&str> = stale.iter().map(|(path, _)| path.as_str()).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blockers_agree_with_blocks() {
        let row = OutputRow {
            hash: None,
            fingerprint: None,
            stat: None,
        };
        let stale_paths = ["a/index.html", "b", "c/d/e.html"].map(String::from);
        let stale: Vec<(&String, &OutputRow)> = stale_paths.iter().map(|p| (p, &row)).collect();
        let blockers = Blockers::new(&stale);
        for output in [
            "a",
            "a/index.html/x",
            "b/index.html",
            "c",
            "c/d",
            "c/x",
            "bb/x",
        ] {
            let expected = stale_paths.iter().any(|s| blocks(s, output));
            assert_eq!(blockers.block(output), expected, "{output}");
        }
    }
}
