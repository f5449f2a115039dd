//! A one-off build that may plan only the pages showing what changed reads
//! the documents' rows light: without their summaries, extra fields and
//! headings, which hold most of their bytes and which only a page showing
//! them, or an `#anchor` naming one of their headings, reads
//! ([`Index::snapshot_of_documents`]). Those are read before anything reads
//! them: for the documents read again (which their rows are compared with),
//! for those an anchored link may name (before the plan checks the links),
//! and for those the pages about to render show whole.

use rustc_hash::FxHashSet;

use crate::model::doc::Record;
use crate::source::outline::INTERNAL_LINK;
use crate::source::section::SectionFile;

use super::*;

impl Session {
    /// Reads in full the rows the documents this build read again are
    /// compared with: a row left as it was is not written again.
    pub(super) fn complete_read_again(&self, analysis: &mut Analysis) -> Result<(), Error> {
        let every: Vec<usize> = (0..analysis.snapshot.records.len()).collect();
        self.index.complete(&mut analysis.snapshot.records, &every)
    }

    /// Reads in full the rows of the documents (of `records`, the build's,
    /// by source path) that a link with an `#anchor`, of a document, of a
    /// section's `_index.md` or of a menu, may name: whether the anchor is
    /// among their headings is checked as the site is planned. Those read
    /// again (`fresh`) are whole already.
    pub(super) fn complete_link_targets(
        &self,
        records: &mut [Record],
        (fresh, sections): (&[usize], &[SectionFile]),
    ) -> Result<(), Error> {
        let config = self.site.config();
        let menus: Vec<_> = config
            .ordered_languages()
            .map(|(code, _)| config.menus_in(code))
            .collect();
        let menu_links = (menus.iter().flat_map(|menus| menus.values().flatten()))
            .filter_map(|item| item.url.strip_prefix(INTERNAL_LINK));
        let links = (records.iter().flat_map(|r| &r.links))
            .chain(sections.iter().flat_map(|s| &s.links))
            .map(|link| link.target.as_str())
            .chain(menu_links);
        let named: FxHashSet<&str> = links
            .filter_map(|target| target.split_once('#'))
            .map(|(path, _)| file_stem(path))
            .collect();
        if named.is_empty() {
            return Ok(());
        }
        // A link names a document by a path under `content/` or under a
        // language's folder, or by one without the language its file name
        // holds (`x.md` for `x.fr.md`): every document whose file name
        // starts the same may be it.
        let which: Vec<usize> = (0..records.len())
            .filter(|i| fresh.binary_search(i).is_err())
            .filter(|&i| named.contains(file_stem(&records[i].source.path)))
            .collect();
        self.index.complete(records, &which)
    }

    /// Reads in full the rows of the documents the pages about to render
    /// (`needs_render`, by their place in the plan) show whole.
    pub(super) fn complete_shown(
        &self,
        plan: &mut Plan<'_>,
        needs_render: &[bool],
        fresh: &[usize],
    ) -> Result<(), Error> {
        let rendered = (0..needs_render.len()).filter(|&s| needs_render[s]);
        let mut which = plan.documents_shown_by(rendered);
        which.retain(|i| fresh.binary_search(i).is_err());
        plan.complete_records(&which, |records, which| self.index.complete(records, which))
    }
}

/// What a file's name at `path` holds before its first dot.
fn file_stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split('.').next().unwrap_or(name)
}
