//! A one-off build that may plan only the pages showing what changed reads
//! the documents' rows light: without their summaries and extra fields,
//! which only a page showing them reads ([`Index::snapshot_of_documents`]).
//! Those are read before anything reads them: for the documents read again
//! (which their rows are compared with), and for those the pages about to
//! render show whole.

use super::*;

impl Session {
    /// Reads in full the rows the documents this build read again are
    /// compared with: a row left as it was is not written again.
    pub(super) fn complete_read_again(&self, analysis: &mut Analysis) -> Result<(), Error> {
        let every: Vec<usize> = (0..analysis.snapshot.records.len()).collect();
        self.index.complete(&mut analysis.snapshot.records, &every)
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
