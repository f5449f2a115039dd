//! Which outputs of a plan must be made again, which outputs the index
//! knows no page produces any more, and in which batches the pages go when
//! a stale output stands in the way of a new one.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};

use crate::index::OutputRow;
use crate::plan::{Copy, Plan, Spec};
use crate::render::SitemapEntry;
use crate::scan::Damaged;

/// The outputs the index knows in this folder that no page or copy of
/// `plan` produces any more, sorted by path.
pub(crate) fn stale<'s>(
    plan: &Plan<'_>,
    outputs: &'s FxHashMap<String, OutputRow>,
) -> Vec<(&'s String, &'s OutputRow)> {
    let produced: FxHashSet<&str> = plan
        .specs
        .iter()
        .map(|s| s.output.as_str())
        .chain(plan.copies.iter().map(|c| c.output.as_str()))
        .collect();
    let mut stale: Vec<(&String, &OutputRow)> = outputs
        .iter()
        .filter(|(path, _)| !produced.contains(path.as_str()))
        .collect();
    stale.sort_by(|a, b| a.0.cmp(b.0));
    stale
}

/// Every page of a plan, with whether it must be rendered, and the copies
/// that must be made.
pub(crate) struct Selected {
    pub specs: Vec<Spec>,
    pub needs_render: Vec<bool>,
    pub copies: Vec<Copy>,
}

/// Takes the pages and copies out of `plan` and marks the ones whose
/// fingerprint moved, or whose file is not as folio left it.
pub(crate) fn outdated(
    plan: &mut Plan<'_>,
    outputs: &FxHashMap<String, OutputRow>,
    damaged: &Damaged,
) -> Selected {
    let outdated = |output: &str, fingerprint: &str| {
        outputs.get(output).is_none_or(|row| {
            row.fingerprint.as_deref() != Some(fingerprint) || !damaged.intact(output, row)
        })
    };
    let specs = std::mem::take(&mut plan.specs);
    let needs_render = specs
        .par_iter()
        .map(|spec| outdated(spec.output.as_str(), &spec.fingerprint))
        .collect();
    let copies = std::mem::take(&mut plan.copies)
        .into_par_iter()
        .filter(|copy| outdated(copy.output.as_str(), &copy.fingerprint))
        .collect();
    Selected {
        specs,
        needs_render,
        copies,
    }
}

/// The pages and copies to make, in two batches: the free ones first, then
/// those a stale output stands in the way of (a file where a folder must
/// go, or the other way round), staged once it is pruned.
pub(crate) struct Batches {
    pub free: (Vec<Spec>, Vec<Copy>),
    pub blocked: (Vec<Spec>, Vec<Copy>),
    /// The sitemap's entries, when the sitemap is among the pages.
    pub sitemap: Option<Vec<SitemapEntry>>,
}

impl Batches {
    pub fn pages(&self) -> usize {
        self.free.0.len() + self.blocked.0.len()
    }

    pub fn copies(&self) -> usize {
        self.free.1.len() + self.blocked.1.len()
    }
}

impl Selected {
    pub fn into_batches(self, plan: &Plan<'_>, stale: &[(&String, &OutputRow)]) -> Batches {
        let sitemap = plan.sitemap_if_selected(&self.specs, &self.needs_render);
        let blockers = Blockers::new(stale);
        // Sized up front: grown by doubling, the 24,000 specs of a cold
        // build were copied and faulted into fresh memory a dozen times over,
        // while one core idled.
        let (mut blocked, mut free) = (Vec::new(), Vec::with_capacity(self.specs.len()));
        for (spec, render) in self.specs.into_iter().zip(self.needs_render) {
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
        if let Some(at) = free.iter().position(Spec::is_sitemap) {
            free[..=at].rotate_right(1);
        }
        let (blocked_copies, free_copies): (Vec<Copy>, Vec<Copy>) = self
            .copies
            .into_iter()
            .partition(|c| blockers.block(c.output.as_str()));
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
        for output in ["a", "a/index.html/x", "b/index.html", "c", "c/d", "c/x", "bb/x"] {
            let expected = stale_paths.iter().any(|s| blocks(s, output));
            assert_eq!(blockers.block(output), expected, "{output}");
        }
    }
}
