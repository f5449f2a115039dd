//! The documents' arrangement the index keeps between builds
//! ([`crate::plan::Arrangement`], encoded): one row at most, and beside it
//! in `meta` the digest of the inputs of the build that left it, so that it
//! answers only a build that follows that one.

use rusqlite::{OptionalExtension, Transaction};

use super::{Changes, Error, Index, index_error};

/// What a commit does with the documents' arrangement the index keeps
/// ([`Index::arrangement`]), which answers the inputs of the build that
/// committed last, or none.
#[derive(Debug, Default)]
pub enum ArrangementChange {
    /// The build took it as it was, and leaves it so: it now answers this
    /// build's inputs.
    Kept,
    /// The build's own, encoded: kept for its inputs.
    New(Vec<u8>),
    /// The build cannot say: none is kept.
    #[default]
    Dropped,
}

impl Index {
    /// The documents' arrangement the last build left, encoded, when that
    /// build's `inputs` were these.
    pub fn arrangement(&self, inputs: &str) -> Result<Option<Vec<u8>>, Error> {
        self.conn
            .query_row(
                "SELECT state FROM arrangement
                 WHERE (SELECT value FROM meta WHERE key = 'arrangement') = ?1",
                [inputs],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| index_error(&self.path, e))
    }
}

/// The arrangement kept for the inputs `changes.meta` records, or none
/// when they are unknown (a stat that could not be trusted).
pub(super) fn apply_arrangement(
    tx: &Transaction<'_>,
    changes: &Changes<'_>,
) -> rusqlite::Result<()> {
    let inputs = changes
        .meta
        .inputs
        .as_deref()
        .filter(|inputs| !inputs.is_empty());
    match (&changes.arrangement, inputs) {
        (ArrangementChange::Kept, Some(inputs)) => answers(tx, inputs),
        (ArrangementChange::New(state), Some(inputs)) => {
            tx.execute("DELETE FROM arrangement", [])?;
            tx.execute("INSERT INTO arrangement (state) VALUES (?1)", [state])?;
            answers(tx, inputs)
        }
        _ => forget(tx),
    }
}

/// No arrangement is kept.
pub(super) fn forget(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch("DELETE FROM meta WHERE key = 'arrangement'; DELETE FROM arrangement")
}

/// The arrangement kept answers `inputs`.
fn answers(tx: &Transaction<'_>, inputs: &str) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('arrangement', ?1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [inputs],
    )
    .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::index::Meta;

    fn commit(index: &mut Index, inputs: &str, arrangement: ArrangementChange) {
        let meta = Meta {
            inputs: Some(inputs.to_owned()),
            ..Meta::default()
        };
        index
            .commit(&Changes {
                meta,
                arrangement,
                ..Changes::default()
            })
            .unwrap();
    }

    #[test]
    fn an_arrangement_answers_the_inputs_of_the_last_build_that_kept_it() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        commit(&mut index, "one", ArrangementChange::New(b"state".to_vec()));
        assert_eq!(
            index.arrangement("one").unwrap().as_deref(),
            Some(&b"state"[..])
        );
        commit(&mut index, "two", ArrangementChange::Kept);
        assert_eq!(index.arrangement("one").unwrap(), None);
        assert_eq!(
            index.arrangement("two").unwrap().as_deref(),
            Some(&b"state"[..])
        );
        commit(
            &mut index,
            "three",
            ArrangementChange::New(b"other".to_vec()),
        );
        assert_eq!(
            index.arrangement("three").unwrap().as_deref(),
            Some(&b"other"[..])
        );
        commit(&mut index, "four", ArrangementChange::Dropped);
        assert_eq!(index.arrangement("four").unwrap(), None);
        // Inputs that could not be trusted are no key.
        commit(&mut index, "", ArrangementChange::New(b"state".to_vec()));
        assert_eq!(index.arrangement("").unwrap(), None);
        let rows: i64 = (index.conn)
            .query_row("SELECT count(*) FROM arrangement", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 0);
    }
}
