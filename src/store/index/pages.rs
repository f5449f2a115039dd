//! What the index keeps of each page beside its output's row (its `page`
//! and `covers` columns, [`KeptPage`]): the pages a one-off build whose
//! documents changed alone in place must look at are found by these, not
//! by planning every page.

use super::*;

use crate::plan::KeptPage;

/// The meta key saying that every page's row of the output folder `dir`
/// keeps its page: set by the first build that wrote them all.
fn pages_key(dir: &str) -> String {
    format!("pages {dir}")
}

/// Forgets that the rows of the folders `dirs` keep every page's: rows
/// came to them that may keep none (an index too old to name its folders,
/// or one that named them otherwise).
pub(super) fn forget_kept_pages(conn: &Connection, dirs: &[&str]) -> rusqlite::Result<()> {
    for dir in dirs {
        conn.execute("DELETE FROM meta WHERE key = ?1", [pages_key(dir)])?;
    }
    Ok(())
}

impl Index {
    /// Whether the row of every page of the output folder `dir` keeps which
    /// page it is and what it covers.
    pub fn keeps_pages(&self, dir: &str) -> Result<bool, Error> {
        self.meta(&pages_key(dir))
            .map(|value| value.is_some())
            .map_err(|e| index_error(&self.path, e))
    }

    /// The outputs of `dir` whose covers `shows` accepts, each with the
    /// page its row keeps. Every row is looked at, its covers read where
    /// they are, unallocated: a page is a few bytes of them.
    pub fn showing(
        &self,
        dir: &str,
        shows: impl Fn(&[u8]) -> bool,
    ) -> Result<Vec<(String, String)>, Error> {
        let read = || -> rusqlite::Result<Vec<(String, String)>> {
            let mut stmt = self.conn.prepare(
                "SELECT path, covers, page FROM outputs
                 WHERE dir = ?1 AND covers IS NOT NULL AND page IS NOT NULL",
            )?;
            let mut rows = stmt.query([dir])?;
            let mut shown = Vec::new();
            while let Some(row) = rows.next()? {
                let covers = row
                    .get_ref(1)?
                    .as_blob()
                    .map_err(|_| corrupt(1, "covers"))?;
                if shows(covers) {
                    shown.push((text(row, 0)?, text(row, 2)?));
                }
            }
            Ok(shown)
        };
        read().map_err(|e| index_error(&self.path, e))
    }
}

/// Writes what `changes` keeps of the pages whose rows it did not write
/// with their outputs (`kept`, what is left of them): the other pages',
/// when the build kept every page's, which the index then says.
pub(super) fn apply_pages(
    tx: &Transaction<'_>,
    changes: &Changes<'_>,
    kept: FxHashMap<&str, &KeptPage>,
) -> rusqlite::Result<()> {
    let mut update = tx
        .prepare_cached("UPDATE outputs SET page = ?3, covers = ?4 WHERE dir = ?1 AND path = ?2")?;
    for (path, page) in kept {
        update.execute(params![changes.output_dir, path, page.page, page.covers])?;
    }
    if changes.every_page {
        tx.execute(
            "INSERT INTO meta (key, value) VALUES (?1, '1') ON CONFLICT (key) DO NOTHING",
            [pages_key(changes.output_dir)],
        )?;
    }
    Ok(())
}
