//! A one-off build that may plan only the pages showing what changed reads
//! the documents' rows light: without their summaries, extra fields and
//! headings, which only a page showing them reads
//! ([`Index::snapshot_of_documents`]). Those are read before anything
//! reads them: for the documents read again (which their rows are compared
//! with), for every document when a link names an anchor, and for those
//! the pages about to render show whole.

use crate::plugin::Phase;
use crate::store::index::LeftOut;

use super::*;

impl Session {
    /// Reads in full the rows the documents this build read again are
    /// compared with (a row left as it was is not written again), and,
    /// when a link names an anchor, the headings of the documents it did
    /// not read again: such a link is checked against, and leads into, the
    /// headings of a document no page may show. So may a link a transform
    /// of the HTML wrote, which no row lists.
    pub(super) fn complete_read_again(&self, analysis: &mut Analysis) -> Result<(), Error> {
        let every: Vec<usize> = (0..analysis.snapshot.records.len()).collect();
        (self.index).complete(&mut analysis.snapshot.records, &every, LeftOut::Every)?;
        let plugins = &self.options.plugins;
        let transformed = plugins.transforms(Phase::AfterMarkdown).next().is_some();
        let config = self.site.config();
        if !transformed && !plan::anchors_named(config, &analysis.current, &analysis.sections) {
            return Ok(());
        }
        let fresh = &analysis.fresh;
        let unread: Vec<usize> = (0..analysis.current.len())
            .filter(|i| fresh.binary_search(i).is_err())
            .collect();
        (self.index).complete(&mut analysis.current, &unread, LeftOut::Headings)
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
        plan.complete_records(&which, |records, which| {
            (self.index).complete(records, which, LeftOut::Every)
        })
    }
}
