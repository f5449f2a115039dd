//! Rows in and out: reading the documents and outputs back, the
//! upserts and deletions of one build's transaction.

use super::*;

use crate::plan::KeptPage;

/// How much of the index SQLite reads through a memory map instead of
/// `pread`: every build that plans reads most of the file, and a copy of
/// each page out of the kernel's cache cost more than SQLite's own work
/// (a sixth of a one-post edit's time at 5,000 posts × 3).
pub(super) const MAPPED_BYTES: i64 = 1 << 30;

/// A connection of its own to the index at `path` that only reads, for a
/// thread beside the index's own.
pub(super) fn reader(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)?;
    conn.pragma_update(None, "mmap_size", MAPPED_BYTES)?;
    Ok(conn)
}

/// Which columns of `posts` a read fills its records with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Columns {
    Every,
    /// All but those only a page showing the document reads: its summary,
    /// its extra fields and its headings, left empty ([`Index::complete`]
    /// reads them). A link naming an anchor (`@/x.md#part`) reads the
    /// headings of a document no page may show: a build that has one
    /// reads every row's ([`crate::plan::anchors_named`]).
    Light,
}

/// The columns of `posts` a read leaves out when [`Columns::Light`], in
/// the order [`LeftOut::Every`] fills them back: the headings are two
/// thirds of a row's text, copied twice (by SQLite, then into the record)
/// and checked as UTF-8.
const HEAVY: [&str; 3] = ["summary", "extra", "headings"];

/// Every row of `posts`, sorted by source path: over `conn`, or in runs of
/// rowids, one per thread of the pool, each over a connection of its own
/// to the index at `path`. A row costs about 2 µs to read and make into a
/// record, most of it this side of SQLite: a site of 60,000 documents
/// takes 130 ms on one core.
pub(super) fn read_records(
    conn: &Connection,
    path: &Path,
    columns: Columns,
) -> rusqlite::Result<Vec<Record>> {
    let every: i64 = conn.query_row("SELECT count(*) FROM posts", [], |row| row.get(0))?;
    let every = every as usize;
    // Each row has its place from the start: the first run's records are
    // made where every run's end up (a record is 600 bytes; another copy
    // of 60,000 of them, into memory the kernel clears first, cost a tenth
    // of the read).
    let runs = in_runs((conn, path), "posts", |conn, run, bounds| {
        let span = (bounds.1 - bounds.0 + 1) as usize;
        let capacity = if run == 0 { every } else { span.min(every) };
        read_run(conn, bounds, columns, capacity)
    })?;
    let mut runs = runs.into_iter();
    let mut records = runs.next().unwrap_or_default();
    for run in runs {
        records.extend(run);
    }
    // Sorting here is cheaper than SQLite's walk of the path index.
    records.par_sort_unstable_by(|a, b| a.source.path.cmp(&b.source.path));
    Ok(records)
}

/// What `read` makes of each run of rowids of `table` (with its place
/// among them), in their order: one run per thread of the pool from 4,096
/// rows a run on, each over a connection of its own to the index at `path`;
/// a small table in one run over `conn`, without asking any pool for
/// threads. None for an empty table.
pub(super) fn in_runs<T: Send>(
    (conn, path): (&Connection, &Path),
    table: &str,
    read: impl Fn(&Connection, usize, (i64, i64)) -> rusqlite::Result<T> + Sync,
) -> rusqlite::Result<Vec<T>> {
    // Each alone, as SQLite finds a min or a max at an end of the table:
    // asked together, they are a walk of every row.
    let ends = format!("SELECT (SELECT min(rowid) FROM {table}), (SELECT max(rowid) FROM {table})");
    let (first, last): (Option<i64>, Option<i64>) =
        conn.query_row(&ends, [], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let (Some(first), Some(last)) = (first, last) else {
        return Ok(Vec::new());
    };
    let runs = match (last - first) / 4096 + 1 {
        1 => return Ok(vec![read(conn, 0, (first, last))?]),
        most => (rayon::current_num_threads() as i64).clamp(1, most),
    };
    let length = (last - first) / runs + 1;
    (0..runs)
        .into_par_iter()
        .map(|run| {
            let bounds = (
                first + run * length,
                (first + (run + 1) * length - 1).min(last),
            );
            read(&reader(path)?, run as usize, bounds)
        })
        .collect()
}

/// The rows of `posts` whose rowids are within `(from, to)`, in a list
/// with room for `capacity`.
fn read_run(
    conn: &Connection,
    (from, to): (i64, i64),
    columns: Columns,
    capacity: usize,
) -> rusqlite::Result<Vec<Record>> {
    let mut select = String::from(
        "SELECT id, kind, slug, lang, published_at, updated_at, source_path, source_hash,
                source_size, source_mtime_ns, title, url, summary, description, tags, draft,
                translation_key, plugins, extra, aliases, template, ever_published,
                word_count, reading_time, headings, links, shortcodes, expires_at, terms,
                weight, images
         FROM posts WHERE rowid BETWEEN ?1 AND ?2",
    );
    if columns == Columns::Light {
        for column in HEAVY {
            select = select.replacen(&format!(" {column},"), " '',", 1);
        }
    }
    let mut stmt = conn.prepare(&select)?;
    let rows = stmt.query_map([from, to], |row| {
        let id = str_ref(row, 0)?;
        let kind = str_ref(row, 1)?;
        let tags = str_ref(row, 14)?;
        Ok(Record {
            id: id.parse().map_err(|_| corrupt(0, "id"))?,
            kind: Kind::parse(kind).ok_or_else(|| corrupt(1, "kind"))?,
            slug: text(row, 2)?,
            lang: text(row, 3)?,
            published_at: row.get(4)?,
            updated_at: row.get(5)?,
            expires_at: row.get(27)?,
            source: SourceState {
                path: text(row, 6)?,
                hash: text(row, 7)?,
                stat: Stat {
                    size: row.get::<_, i64>(8)? as u64,
                    mtime_ns: row.get(9)?,
                },
            },
            title: text(row, 10)?,
            url: text(row, 11)?,
            summary: text(row, 12)?,
            description: optional_text(row, 13)?,
            tags: serde_json::from_str(tags).map_err(|_| corrupt(14, "tags"))?,
            terms: match str_ref(row, 28)? {
                "[]" => Vec::new(),
                terms => serde_json::from_str(terms).map_err(|_| corrupt(28, "terms"))?,
            },
            draft: row.get(15)?,
            ever_published: row.get(21)?,
            translation_key: text(row, 16)?,
            plugins: serde_json::from_str(str_ref(row, 17)?).map_err(|_| corrupt(17, "plugins"))?,
            extra: text(row, 18)?,
            aliases: serde_json::from_str(str_ref(row, 19)?).map_err(|_| corrupt(19, "aliases"))?,
            template: match optional_text(row, 20)? {
                None => None,
                Some(text) => Some(
                    TemplateChoice::from_stored(&text).ok_or_else(|| corrupt(20, "template"))?,
                ),
            },
            word_count: row.get(22)?,
            reading_time: row.get(23)?,
            headings: text(row, 24)?,
            links: match str_ref(row, 25)? {
                // Most documents link no other: no parse for them.
                "[]" => Vec::new(),
                links => serde_json::from_str(links).map_err(|_| corrupt(25, "links"))?,
            },
            shortcodes: match str_ref(row, 26)? {
                "[]" => Vec::new(),
                names => serde_json::from_str(names).map_err(|_| corrupt(26, "shortcodes"))?,
            },
            weight: row.get(29)?,
            images: match str_ref(row, 30)? {
                "[]" => Vec::new(),
                images => serde_json::from_str(images).map_err(|_| corrupt(30, "images"))?,
            },
        })
    })?;
    let mut records = Vec::with_capacity(capacity);
    for record in rows {
        records.push(record?);
    }
    Ok(records)
}

impl Index {
    /// How many documents the index keeps a row of: a build that finds as
    /// many sources may find each in its place.
    pub fn documents_count(&self) -> Result<usize, Error> {
        (self.conn)
            .query_row("SELECT count(*) FROM posts", [], |r| r.get::<_, i64>(0))
            .map(|count| count as usize)
            .map_err(|e| index_error(&self.path, e))
    }

    /// Reads what [`Index::snapshot_of_documents`] left out of the
    /// documents of `records` (sorted by source path, as a snapshot has
    /// them) at the places `which` names (each once): all of it, or their
    /// headings alone. A few are read one by one, by the index of their
    /// paths; many, in one walk of the table.
    pub fn complete(
        &self,
        records: &mut [Record],
        which: &[usize],
        left_out: LeftOut,
    ) -> Result<(), Error> {
        let columns = left_out.columns();
        let mut read = || -> rusqlite::Result<()> {
            if which.len() < ONE_BY_ONE {
                let one = format!("SELECT {columns} FROM posts WHERE source_path = ?1");
                let mut stmt = self.conn.prepare_cached(&one)?;
                for &i in which {
                    let mut rows = stmt.query([&records[i].source.path])?;
                    let row = rows.next()?.ok_or_else(missing)?;
                    left_out.fill(&mut records[i], row, 0)?;
                }
                return Ok(());
            }
            let mut wanted = vec![false; records.len()];
            for &i in which {
                wanted[i] = true;
            }
            let every = format!("SELECT source_path, {columns} FROM posts");
            let mut stmt = self.conn.prepare(&every)?;
            let mut rows = stmt.query([])?;
            let mut filled = 0;
            while let Some(row) = rows.next()? {
                let path = str_ref(row, 0)?;
                let Ok(i) = records.binary_search_by(|r| r.source.path.as_str().cmp(path)) else {
                    continue;
                };
                if std::mem::take(&mut wanted[i]) {
                    left_out.fill(&mut records[i], row, 1)?;
                    filled += 1;
                }
            }
            match filled == which.len() {
                true => Ok(()),
                false => Err(missing()),
            }
        };
        read().map_err(|e| index_error(&self.path, e))
    }
}

/// What [`Index::complete`] reads of the rows a light read left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// All of it: for a document read again, or one a page shows whole.
    Every,
    /// Its headings alone: what a link naming an anchor in it reads.
    Headings,
}

impl LeftOut {
    fn columns(self) -> String {
        match self {
            LeftOut::Every => HEAVY.join(", "),
            LeftOut::Headings => "headings".to_owned(),
        }
    }

    /// Gives `record` the values of `row`'s columns from `at` on, as
    /// [`LeftOut::columns`] names them.
    fn fill(self, record: &mut Record, row: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<()> {
        match self {
            LeftOut::Every => {
                (record.summary, record.extra, record.headings) =
                    (text(row, at)?, text(row, at + 1)?, text(row, at + 2)?);
            }
            LeftOut::Headings => record.headings = text(row, at)?,
        }
        Ok(())
    }
}

/// The row of every output of the folder `dir` ([`Index::outputs`]), read
/// over a connection of its own to the index at `path`: for a thread that
/// does not hold the index.
pub fn outputs_at(path: &Path, dir: &str) -> Result<FxHashMap<String, OutputRow>, Error> {
    let read = || -> rusqlite::Result<_> {
        let conn = reader(path)?;
        Ok(with_reservations(
            read_outputs(&conn, dir)?,
            reservations_on(&conn, dir)?,
        ))
    };
    read().map_err(|e| index_error(path, e))
}

/// What [`Index::complete`] meets when a document it completes has no row:
/// the index changed under the build lock.
fn missing() -> rusqlite::Error {
    corrupt(0, "source_path")
}

/// From how many documents [`Index::complete`] walks the table rather than
/// look each one up.
const ONE_BY_ONE: usize = 512;

pub(super) fn read_outputs(
    conn: &Connection,
    dir: &str,
) -> rusqlite::Result<FxHashMap<String, OutputRow>> {
    let mut stmt =
        conn.prepare("SELECT path, hash, fingerprint, size, mtime_ns FROM outputs WHERE dir = ?1")?;
    stmt.query_map([dir], |row| {
        let size: Option<i64> = row.get(3)?;
        let mtime: Option<i64> = row.get(4)?;
        Ok((
            text(row, 0)?,
            OutputRow {
                hash: optional_text(row, 1)?,
                fingerprint: optional_text(row, 2)?,
                stat: size.zip(mtime).map(|(size, mtime_ns)| Stat {
                    size: size as u64,
                    mtime_ns,
                }),
            },
        ))
    })?
    .collect::<rusqlite::Result<FxHashMap<_, _>>>()
}

/// `outputs` with the files `reserved` (output, hash) by a build that
/// stopped since: a committed row stays as it is; a pending one gathers
/// every hash (without one, it vouches for any file and stays so); a file
/// without a row gets a pending one.
pub(super) fn with_reservations(
    mut outputs: FxHashMap<String, OutputRow>,
    reserved: Vec<(String, String)>,
) -> FxHashMap<String, OutputRow> {
    for (path, hash) in reserved {
        match outputs.get_mut(&path) {
            Some(row) if row.stat.is_some() => {}
            Some(row) => {
                if let Some(hashes) = &mut row.hash {
                    hashes.push(' ');
                    hashes.push_str(&hash);
                }
            }
            None => {
                let row = OutputRow {
                    hash: Some(hash),
                    fingerprint: None,
                    stat: None,
                };
                outputs.insert(path, row);
            }
        }
    }
    outputs
}

/// Column `i` of `row` as text. Every row of a snapshot is read on every
/// rebuild; a SIMD check of its UTF-8 costs a fraction of the standard one.
pub(super) fn str_ref<'r>(row: &'r rusqlite::Row<'_>, i: usize) -> rusqlite::Result<&'r str> {
    let bytes = row.get_ref(i)?.as_bytes().map_err(|_| corrupt(i, "text"))?;
    simdutf8::basic::from_utf8(bytes).map_err(|_| corrupt(i, "text"))
}

pub(super) fn text(row: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<String> {
    str_ref(row, i).map(str::to_owned)
}

pub(super) fn optional_text(row: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<Option<String>> {
    match row.get_ref(i)? {
        rusqlite::types::ValueRef::Null => Ok(None),
        _ => text(row, i).map(Some),
    }
}

/// The reservations of the folder `dir` ([`Index::reserve_outputs`]) the
/// index at `conn` holds.
pub(super) fn reservations_on(
    conn: &Connection,
    dir: &str,
) -> rusqlite::Result<Vec<(String, String)>> {
    let key = reservation_key(dir);
    let lines: Option<String> = conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()?;
    (lines.unwrap_or_default().lines())
        .map(|line| serde_json::from_str(line).map_err(|_| corrupt(1, "reservation")))
        .collect()
}

pub(super) fn reservation_key(dir: &str) -> String {
    format!("reserved {dir}")
}

pub(super) fn staging_key(dir: &str) -> String {
    format!("staging {dir}")
}

/// Inserts or updates the rows of `records`. Callers pass only rows whose
/// content differs from the stored ones (the hash skip happens before
/// this, where both rows are at hand).
pub(super) fn upsert_records(tx: &Transaction<'_>, records: &[&Record]) -> rusqlite::Result<()> {
    let mut upsert = tx.prepare_cached(
        "INSERT INTO posts (id, kind, slug, lang, published_at, updated_at, source_path,
             source_hash, source_size, source_mtime_ns, title, url, summary, description,
             tags, draft, translation_key, plugins, extra, aliases, template, ever_published,
             word_count, reading_time, headings, links, shortcodes, expires_at, terms, weight,
             images)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                 ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31)
         ON CONFLICT (id) DO UPDATE SET
             kind = excluded.kind, slug = excluded.slug, lang = excluded.lang,
             published_at = excluded.published_at, updated_at = excluded.updated_at,
             source_path = excluded.source_path, source_hash = excluded.source_hash,
             source_size = excluded.source_size, source_mtime_ns = excluded.source_mtime_ns,
             title = excluded.title, url = excluded.url, summary = excluded.summary,
             description = excluded.description, tags = excluded.tags,
             draft = excluded.draft, translation_key = excluded.translation_key,
             plugins = excluded.plugins, extra = excluded.extra,
             aliases = excluded.aliases, template = excluded.template,
             word_count = excluded.word_count, reading_time = excluded.reading_time,
             headings = excluded.headings, links = excluded.links,
             shortcodes = excluded.shortcodes, expires_at = excluded.expires_at,
             terms = excluded.terms, weight = excluded.weight, images = excluded.images,
             ever_published = posts.ever_published OR excluded.ever_published",
    )?;
    for r in records {
        upsert.execute(params![
            r.id.to_string(),
            r.kind.as_str(),
            r.slug,
            r.lang,
            r.published_at,
            r.updated_at,
            r.source.path,
            r.source.hash,
            r.source.stat.size as i64,
            r.source.stat.mtime_ns,
            r.title,
            r.url,
            r.summary,
            r.description,
            serde_json::to_string(&r.tags).unwrap_or_else(|_| "[]".into()),
            r.draft,
            r.translation_key,
            serde_json::to_string(&r.plugins).unwrap_or_else(|_| "[]".into()),
            r.extra,
            serde_json::to_string(&r.aliases).unwrap_or_else(|_| "[]".into()),
            r.template.as_ref().map(TemplateChoice::to_stored),
            r.ever_published,
            r.word_count,
            r.reading_time,
            r.headings,
            serde_json::to_string(&r.links).unwrap_or_else(|_| "[]".into()),
            serde_json::to_string(&r.shortcodes).unwrap_or_else(|_| "[]".into()),
            r.expires_at,
            serde_json::to_string(&r.terms).unwrap_or_else(|_| "[]".into()),
            r.weight,
            serde_json::to_string(&r.images).unwrap_or_else(|_| "[]".into()),
        ])?;
    }
    Ok(())
}

pub(super) fn apply(tx: &Transaction<'_>, changes: &Changes<'_>) -> rusqlite::Result<()> {
    tx.execute(
        "DELETE FROM meta WHERE key IN (?1, ?2)",
        [
            staging_key(changes.output_dir),
            reservation_key(changes.output_dir),
        ],
    )?;
    {
        let mut retire = tx.prepare_cached("DELETE FROM posts WHERE id = ?1")?;
        for id in changes.retired {
            retire.execute([id.to_string()])?;
        }
    }
    upsert_records(tx, &changes.upserts)?;
    super::images::apply_images(tx, &changes.images)?;
    {
        let mut restat = tx.prepare_cached(
            "UPDATE posts SET source_size = ?2, source_mtime_ns = ?3 WHERE id = ?1",
        )?;
        for (id, stat) in &changes.restats {
            restat.execute(params![id.to_string(), stat.size as i64, stat.mtime_ns])?;
        }
    }
    {
        let mut drop = tx.prepare_cached("DELETE FROM outputs WHERE dir = ?1 AND path = ?2")?;
        for path in &changes.dropped_outputs {
            drop.execute([changes.output_dir, path])?;
        }
        // A row of an output that is no page (any more) keeps none.
        let mut put = tx.prepare_cached(
            "INSERT INTO outputs (dir, path, hash, fingerprint, size, mtime_ns, page, covers)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
             ON CONFLICT (dir, path) DO UPDATE SET hash = excluded.hash, fingerprint = excluded.fingerprint,
                 size = excluded.size, mtime_ns = excluded.mtime_ns, page = excluded.page,
                 covers = excluded.covers",
        )?;
        let mut kept: FxHashMap<&str, &KeptPage> = (changes.pages.iter())
            .map(|(path, page)| (path.as_str(), page))
            .collect();
        for (path, row) in &changes.outputs {
            let page = kept.remove(path.as_str());
            put.execute(params![
                changes.output_dir,
                path,
                row.hash,
                row.fingerprint,
                row.stat.map(|s| s.size as i64),
                row.stat.map(|s| s.mtime_ns),
                page.map(|p| &p.page),
                page.map(|p| &p.covers),
            ])?;
        }
        super::pages::apply_pages(tx, changes, kept)?;
    }
    {
        let mut meta = tx.prepare_cached(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value",
        )?;
        for (key, value) in changes.meta.rows() {
            meta.execute([key, value.as_str()])?;
        }
    }
    super::arrangement::apply_arrangement(tx, changes)
}

pub(super) fn corrupt(column: usize, what: &str) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        column,
        rusqlite::types::Type::Text,
        format!("stored {what} is not valid").into(),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::record;
    use super::*;

    #[test]
    fn the_index_and_its_readers_read_through_a_memory_map() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.sqlite");
        let index = Index::open(&path).unwrap();
        for conn in [&index.conn, &reader(&path).unwrap()] {
            let mapped: i64 = conn
                .pragma_query_value(None, "mmap_size", |row| row.get(0))
                .unwrap();
            assert_eq!(mapped, MAPPED_BYTES);
        }
    }

    #[test]
    fn rows_read_in_runs_are_every_row_once_sorted_by_path() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        // Rowids with a gap wider than a run, and runs of rows ending it.
        let records: Vec<Record> = (0..12_000)
            .map(|n| record(&format!("p{}", (n * 7919) % 12_000), "h"))
            .collect();
        let retired: Vec<PostId> = records[3_000..8_000].iter().map(|r| r.id).collect();
        index
            .commit(&Changes {
                upserts: records.iter().collect(),
                ..Changes::default()
            })
            .unwrap();
        index
            .commit(&Changes {
                retired: &retired,
                ..Changes::default()
            })
            .unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        let count = index.documents_count().unwrap();
        let index = &mut index;
        let read = pool.install(move || index.snapshot("out")).unwrap().records;
        let mut kept: Vec<&str> = (records.iter())
            .filter(|r| !retired.contains(&r.id))
            .map(|r| r.source.path.as_str())
            .collect();
        kept.sort_unstable();
        let read: Vec<&str> = read.iter().map(|r| r.source.path.as_str()).collect();
        assert_eq!(read, kept);
        assert_eq!(count, kept.len());
    }

    #[test]
    fn a_light_read_leaves_out_what_completing_reads_one_by_one_or_all_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        let records: Vec<Record> = (0..1_000)
            .map(|n| Record {
                summary: format!("<p>{n}</p>"),
                extra: format!("{{\"n\":{n}}}"),
                headings: format!("[{{\"level\":2,\"id\":\"h{n}\",\"title\":\"H\"}}]"),
                ..record(&format!("p{n:04}"), "h")
            })
            .collect();
        index
            .commit(&Changes {
                upserts: records.iter().collect(),
                ..Changes::default()
            })
            .unwrap();
        let mut light = index.snapshot_of_documents("out").unwrap().records;
        let left_out = |r: &Record| Record {
            summary: String::new(),
            extra: String::new(),
            headings: String::new(),
            ..r.clone()
        };
        assert_eq!(light, records.iter().map(left_out).collect::<Vec<_>>());
        index
            .complete(&mut light, &[3, 500], LeftOut::Every)
            .unwrap();
        assert_eq!(
            (light[3].clone(), light[500].clone()),
            (records[3].clone(), records[500].clone())
        );
        assert_eq!(light[4], left_out(&records[4]));
        // Its headings alone: one by one, then in a walk.
        index.complete(&mut light, &[4], LeftOut::Headings).unwrap();
        let only_headings = |r: &Record| Record {
            headings: r.headings.clone(),
            ..left_out(r)
        };
        assert_eq!(light[4], only_headings(&records[4]));
        let mut headings = index.snapshot_of_documents("out").unwrap().records;
        let every: Vec<usize> = (0..records.len()).collect();
        index
            .complete(&mut headings, &every, LeftOut::Headings)
            .unwrap();
        assert_eq!(
            headings,
            records.iter().map(only_headings).collect::<Vec<_>>()
        );
        index.complete(&mut light, &every, LeftOut::Every).unwrap();
        assert_eq!(light, records);
        let mut fewer = index.snapshot_of_documents("out").unwrap().records;
        fewer.remove(7);
        assert!(
            index.complete(&mut fewer, &[7], LeftOut::Every).is_ok(),
            "a row of its own"
        );
        fewer[7].source.path = "content/en/posts/gone.md".into();
        assert!(index.complete(&mut fewer, &[7], LeftOut::Every).is_err());
        assert!(
            index
                .complete(&mut fewer, &every[..999], LeftOut::Every)
                .is_err()
        );
    }
}
