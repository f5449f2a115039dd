//! A one-off build that may plan only the pages showing what changed reads
//! every document's row as a [stub](Record::stub) ([`Index::snapshot_of_stubs`]):
//! what says whether it is shown, its language and kind, what it links,
//! calls and shows. A row is read whole ([`Index::load`]) before anything
//! reads more of it: those of the documents read again before they are
//! checked (`analyse`); every one when the build plans every page, or when
//! a link reads more of the documents than their stubs hold before the
//! pages are known (here); those the planned pages read, first of all those
//! around the documents read again ([`plan::plan_shown`]).

use crate::plugin::Phase;

use super::*;

impl Session {
    /// Reads whole every row that is a stub still when a link reads more of
    /// documents than their stubs hold before the pages are known (one
    /// naming an anchor is checked against the headings of a document no
    /// planned page may show; a menu's leads from every page), or a
    /// transform of the HTML may write a link no row lists.
    pub(super) fn whole_when_linked(&self, analysis: &mut Analysis) -> Result<(), Error> {
        let plugins = &self.options.plugins;
        let transformed = plugins.transforms(Phase::AfterMarkdown).next().is_some();
        let config = self.site.config();
        let (records, sections) = (&analysis.current, &analysis.sections);
        if transformed || plan::links_read_whole_rows(config, records, sections) {
            self.index.load_every(&mut analysis.current)?;
        }
        Ok(())
    }
}
