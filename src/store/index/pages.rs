//! What the index keeps of each page beside its output's row (its `page`
//! and `covers` columns, [`KeptPage`]): the pages a one-off build whose
//! documents changed alone in place must look at are found by these, not
//! by planning every page.

use super::*;

use std::sync::Arc;

use rusqlite::functions::FunctionFlags;

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

    /// The rows of the output folder `dir` that a plan of the pages showing
    /// some documents needs: those of the pages whose covers `shows`
    /// accepts, each with the page its row keeps, and those of the files
    /// every plan makes (the site's own files, the sitemap, copies and
    /// twins). `None` when a row is pending (a build that stopped since
    /// reserved it): its file may be any page's. Every row is looked at,
    /// its covers read where they are, unallocated: a page is a few bytes
    /// of them; in runs of rowids, as the documents' rows are read.
    pub fn shown_outputs(
        &self,
        dir: &str,
        shows: impl Fn(&[u8]) -> bool + Send + Sync + std::panic::RefUnwindSafe + 'static,
    ) -> Result<Option<ShownOutputs>, Error> {
        let read = || -> rusqlite::Result<Option<ShownOutputs>> {
            if !self.reservations(dir)?.is_empty() {
                return Ok(None);
            }
            let shows = Arc::new(shows);
            let conn = (&self.conn, self.path.as_path());
            let read = rows::in_runs(conn, "outputs", |conn, _, bounds| {
                read_shown(conn, dir, bounds, Arc::clone(&shows))
            })?;
            let mut shown = ShownOutputs::default();
            for run in read {
                let Some(run) = run else {
                    return Ok(None);
                };
                shown.pages.extend(run.pages);
                shown.rows.extend(run.rows);
            }
            shown.pages.sort_unstable();
            Ok(Some(shown))
        };
        read().map_err(|e| index_error(&self.path, e))
    }
}

/// The rows [`Index::shown_outputs`] finds among those at rowids within
/// `(from, to)`, over `conn`: SQLite asks `shows` of each row's covers
/// itself, as [`SHOWS`], so that most rows never cross into Rust.
fn read_shown(
    conn: &Connection,
    dir: &str,
    (from, to): (i64, i64),
    shows: Arc<impl Fn(&[u8]) -> bool + Send + Sync + std::panic::RefUnwindSafe + 'static>,
) -> rusqlite::Result<Option<ShownOutputs>> {
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    conn.create_scalar_function(SHOWS, 1, flags, move |call| {
        match call.get_raw(0).as_blob_or_null() {
            Ok(covers) => Ok(covers.is_some_and(|covers| shows(covers))),
            Err(e) => Err(rusqlite::Error::UserFunctionError(Box::new(e))),
        }
    })?;
    let shown = shown_within(conn, dir, (from, to));
    conn.remove_function(SHOWS, 1)?;
    shown
}

/// [`read_shown`]'s walk, [`SHOWS`] given: the table in rowid order, not
/// through its index of paths (a lookup of each row's place in the table).
fn shown_within(
    conn: &Connection,
    dir: &str,
    (from, to): (i64, i64),
) -> rusqlite::Result<Option<ShownOutputs>> {
    let mut stmt = conn.prepare(
        "SELECT path, folio_shows(covers), page, hash, fingerprint, size, mtime_ns
         FROM outputs NOT INDEXED
         WHERE rowid BETWEEN ?2 AND ?3 AND dir = ?1
               AND (size IS NULL OR mtime_ns IS NULL OR page IS NULL
                    OR page IN ('site', 'sitemap') OR folio_shows(covers))",
    )?;
    let mut rows = stmt.query(params![dir, from, to])?;
    let mut shown = ShownOutputs::default();
    while let Some(row) = rows.next()? {
        let stat = (row.get::<_, Option<i64>>(5)?).zip(row.get::<_, Option<i64>>(6)?);
        let Some((size, mtime_ns)) = stat else {
            return Ok(None);
        };
        let path = text(row, 0)?;
        let page = (row.get_ref(2)?.as_str_or_null()).map_err(|_| corrupt(2, "page"))?;
        let shows: bool = row.get(1)?;
        if let Some(page) = page.filter(|_| shows) {
            shown.pages.push((path.clone(), page.to_owned()));
        }
        let stored = OutputRow {
            hash: row.get(3)?,
            fingerprint: row.get(4)?,
            stat: Some(Stat {
                size: size as u64,
                mtime_ns,
            }),
        };
        shown.rows.insert(path, stored);
    }
    Ok(Some(shown))
}

/// The SQL function [`Index::shown_outputs`] asks whether a page's covers
/// name what changed.
const SHOWS: &str = "folio_shows";

/// What [`Index::shown_outputs`] found.
#[derive(Debug, Default)]
pub struct ShownOutputs {
    /// The output and the page its row keeps, of each page found.
    pub pages: Vec<(String, String)>,
    /// The rows of those pages and of the files every plan makes.
    pub rows: FxHashMap<String, OutputRow>,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: i64) -> OutputRow {
        OutputRow {
            hash: Some(format!("h{n}")),
            fingerprint: Some(format!("f{n}")),
            stat: Some(Stat {
                size: 1,
                mtime_ns: n,
            }),
        }
    }

    /// An index whose folder `o` holds a post's page covering key 1, a list
    /// covering keys 1 and 2, a page covering key 2, a site file, the
    /// sitemap and a twin, which keeps no page.
    fn index_of_pages(dir: &Path) -> Index {
        let mut index = Index::open(&dir.join("i.sqlite")).unwrap();
        let kept = |page: &str, keys: &[u8]| KeptPage {
            page: page.to_owned(),
            covers: keys.to_vec(),
        };
        let pages = [
            ("a/index.html", kept("document a.md", &[1])),
            ("index.html", kept("language en", &[1, 2])),
            ("b/index.html", kept("document b.md", &[2])),
            ("robots.txt", kept("site", &[])),
            ("sitemap.xml", kept("sitemap", &[9])),
        ];
        let mut outputs: Vec<(String, OutputRow)> = (pages.iter().enumerate())
            .map(|(n, (path, _))| (path.to_string(), row(n as i64)))
            .collect();
        outputs.push(("style.0123.css".into(), row(7)));
        index
            .commit(&Changes {
                output_dir: "o",
                outputs,
                pages: pages.map(|(path, page)| (path.to_owned(), page)).into(),
                every_page: true,
                ..Changes::default()
            })
            .unwrap();
        index
    }

    #[test]
    fn the_shown_pages_come_with_their_rows_and_those_of_every_plan_s_files() {
        let dir = tempfile::tempdir().unwrap();
        let index = index_of_pages(dir.path());
        let shown = index
            .shown_outputs("o", |covers| covers.contains(&1))
            .unwrap()
            .unwrap();
        let mut pages = shown.pages;
        pages.sort();
        assert_eq!(
            pages,
            [
                ("a/index.html".to_owned(), "document a.md".to_owned()),
                ("index.html".to_owned(), "language en".to_owned()),
            ]
        );
        let mut rows: Vec<&str> = shown.rows.keys().map(String::as_str).collect();
        rows.sort_unstable();
        assert_eq!(
            rows,
            [
                "a/index.html",
                "index.html",
                "robots.txt",
                "sitemap.xml",
                "style.0123.css"
            ]
        );
        assert_eq!(shown.rows["a/index.html"], row(0));
        assert_eq!(shown.rows["style.0123.css"], row(7));
        assert!(
            index
                .shown_outputs("elsewhere", |_| true)
                .unwrap()
                .unwrap()
                .rows
                .is_empty()
        );
    }

    #[test]
    fn a_pending_row_or_reservation_leaves_the_shown_pages_unknown() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = index_of_pages(dir.path());
        index.reserve_outputs("o", &[("new.html", "h")]).unwrap();
        assert!(index.shown_outputs("o", |_| true).unwrap().is_none());
        assert!(index.shown_outputs("p", |_| true).unwrap().is_some());
        index
            .commit(&Changes {
                output_dir: "o",
                ..Changes::default()
            })
            .unwrap();
        assert!(index.shown_outputs("o", |_| true).unwrap().is_some());
        index
            .conn
            .execute(
                "UPDATE outputs SET mtime_ns = NULL WHERE path = 'b/index.html'",
                [],
            )
            .unwrap();
        assert!(index.shown_outputs("o", |_| false).unwrap().is_none());
    }

    #[test]
    fn the_shown_pages_of_a_walk_in_runs_are_every_match_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        // 12,000 pages, each covering its number mod 100; rows taken out
        // of the middle leave a gap in the rowids wider than a run.
        let page = |n: u32| {
            let kept = KeptPage {
                page: format!("document p{n}.md"),
                covers: [1u32, n % 100]
                    .iter()
                    .flat_map(|k| k.to_le_bytes())
                    .collect(),
            };
            (format!("p{n}/index.html"), kept)
        };
        let pages: Vec<(String, KeptPage)> = (0..12_000).map(page).collect();
        let mut outputs: Vec<(String, OutputRow)> = (pages.iter())
            .map(|(path, _)| (path.clone(), row(1)))
            .collect();
        // Another folder's pages, in the rows walked: never found.
        for (dir, range) in [("elsewhere", 0..200), ("elsewhere", 11_800..12_000)] {
            let pages: Vec<(String, KeptPage)> = range.map(page).collect();
            let outputs = (pages.iter())
                .map(|(path, _)| (path.clone(), row(2)))
                .collect();
            index
                .commit(&Changes {
                    output_dir: dir,
                    outputs,
                    pages,
                    every_page: true,
                    ..Changes::default()
                })
                .unwrap();
        }
        // A copy keeps no page: its row comes with every plan's.
        outputs.push(("style.css".to_owned(), row(3)));
        index
            .commit(&Changes {
                output_dir: "o",
                outputs,
                pages: pages.clone(),
                every_page: true,
                ..Changes::default()
            })
            .unwrap();
        let gone: Vec<String> = (3_000..8_000).map(|n| page(n).0).collect();
        index
            .commit(&Changes {
                output_dir: "o",
                dropped_outputs: gone,
                ..Changes::default()
            })
            .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let shows = |covers: &[u8]| covers[4..8] == 42u32.to_le_bytes();
        // `&mut`, which is `Send`: the pool's thread reads through it.
        let walk = |index: &mut Index| pool.install(move || index.shown_outputs("o", shows));
        let shown = walk(&mut index).unwrap().unwrap();
        let mut expected: Vec<(String, String)> = (0..12_000)
            .filter(|n| n % 100 == 42 && !(3_000..8_000).contains(n))
            .map(|n| (page(n).0, page(n).1.page))
            .collect();
        expected.sort_unstable();
        assert_eq!(shown.pages, expected);
        assert_eq!(shown.rows.len(), expected.len() + 1);
        assert_eq!(shown.rows["style.css"], row(3));
        assert!(
            shown.rows.values().all(|r| *r != row(2)),
            "no row of elsewhere"
        );
        // A pending row in the last run leaves them unknown.
        (index.conn)
            .execute(
                "UPDATE outputs SET size = NULL WHERE path = 'p11999/index.html'",
                [],
            )
            .unwrap();
        assert!(walk(&mut index).unwrap().is_none());
    }
}
