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
pub(super) enum Columns<'a> {
    Every,
    /// Those of a [`Record::stub`], which a build that plans only the
    /// pages showing what changed reads of every row ([`Index::load`]
    /// reads the rest of those it needs); the URL only of a document at one
    /// of `claimed`, the URLs of the site's own files, which it takes from
    /// them. A row's text is mostly its summary, extra fields and headings,
    /// copied twice (by SQLite, then into the record) and checked as UTF-8.
    Stub {
        claimed: &'a [String],
    },
}

/// Every row of `posts`, sorted by source path: over `conn`, or in runs of
/// rowids, one per thread of the pool, each over a connection of its own
/// to the index at `path`. A row costs about 2 µs to read and make into a
/// record, most of it this side of SQLite: a site of 60,000 documents
/// takes 130 ms on one core.
pub(super) fn read_records(
    conn: &Connection,
    path: &Path,
    columns: Columns<'_>,
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

/// Every column of `posts`, in the order [`record_of`] reads them.
const EVERY: &str = "id, kind, slug, lang, published_at, updated_at, source_path, source_hash,
    source_size, source_mtime_ns, title, url, summary, description, tags, draft,
    translation_key, plugins, extra, aliases, template, ever_published, word_count,
    reading_time, headings, links, shortcodes, expires_at, terms, weight, images";

/// The rows of `posts` whose rowids are within `(from, to)`, in a list
/// with room for `capacity`.
fn read_run(
    conn: &Connection,
    (from, to): (i64, i64),
    columns: Columns<'_>,
    capacity: usize,
) -> rusqlite::Result<Vec<Record>> {
    let mut records = Vec::with_capacity(capacity);
    match columns {
        Columns::Every => {
            let select = format!("SELECT {EVERY} FROM posts WHERE rowid BETWEEN ?1 AND ?2");
            let mut stmt = conn.prepare(&select)?;
            for record in stmt.query_map([from, to], record_of)? {
                records.push(record?);
            }
        }
        Columns::Stub { claimed } => {
            let claims = (0..claimed.len().max(1))
                .map(|at| format!("?{}", at + 3))
                .collect::<Vec<_>>()
                .join(", ");
            let select = format!(
                "SELECT source_path, source_size, source_mtime_ns, kind, lang, published_at,
                        draft, expires_at, links, shortcodes, images,
                        CASE WHEN url IN ({claims}) THEN url ELSE '' END
                 FROM posts WHERE rowid BETWEEN ?1 AND ?2"
            );
            let mut stmt = conn.prepare(&select)?;
            let mut values: Vec<&dyn rusqlite::ToSql> = vec![&from, &to];
            let unclaimable = "";
            match claimed.is_empty() {
                true => values.push(&unclaimable),
                false => values.extend(claimed.iter().map(|url| url as &dyn rusqlite::ToSql)),
            }
            for record in stmt.query_map(values.as_slice(), stub_of)? {
                records.push(record?);
            }
        }
    }
    Ok(records)
}

/// The [`Record::stub`] of a row read as [`Columns::Stub`] selects it.
fn stub_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Record> {
    let stat = Stat {
        size: row.get::<_, i64>(1)? as u64,
        mtime_ns: row.get(2)?,
    };
    let kind = Kind::parse(str_ref(row, 3)?).ok_or_else(|| corrupt(3, "kind"))?;
    let mut record = Record::stub(text(row, 0)?, stat, kind, text(row, 4)?);
    record.published_at = row.get(5)?;
    record.draft = row.get(6)?;
    record.expires_at = row.get(7)?;
    record.links = json_list(row, 8, "links")?;
    record.shortcodes = json_list(row, 9, "shortcodes")?;
    record.images = json_list(row, 10, "images")?;
    record.url = text(row, 11)?;
    Ok(record)
}

/// Column `at` of `row`, a JSON list: most are empty, and not parsed.
fn json_list<T: serde::de::DeserializeOwned>(
    row: &rusqlite::Row<'_>,
    at: usize,
    name: &str,
) -> rusqlite::Result<Vec<T>> {
    match str_ref(row, at)? {
        "[]" => Ok(Vec::new()),
        list => serde_json::from_str(list).map_err(|_| corrupt(at, name)),
    }
}

/// The record of a row whose columns are [`EVERY`].
fn record_of(row: &rusqlite::Row<'_>) -> rusqlite::Result<Record> {
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
        terms: json_list(row, 28, "terms")?,
        draft: row.get(15)?,
        ever_published: row.get(21)?,
        translation_key: text(row, 16)?,
        plugins: serde_json::from_str(str_ref(row, 17)?).map_err(|_| corrupt(17, "plugins"))?,
        extra: text(row, 18)?,
        aliases: serde_json::from_str(str_ref(row, 19)?).map_err(|_| corrupt(19, "aliases"))?,
        template: match optional_text(row, 20)? {
            None => None,
            Some(text) => {
                Some(TemplateChoice::from_stored(&text).ok_or_else(|| corrupt(20, "template"))?)
            }
        },
        word_count: row.get(22)?,
        reading_time: row.get(23)?,
        headings: text(row, 24)?,
        links: json_list(row, 25, "links")?,
        shortcodes: json_list(row, 26, "shortcodes")?,
        weight: row.get(29)?,
        images: json_list(row, 30, "images")?,
    })
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

    /// Reads whole the rows of the [stubs](Record::stub) of `records`
    /// (sorted by source path, as a snapshot has them) at the places
    /// `which` names (a record read whole already stays as it is). A few
    /// are read one by one, by the index of their paths; many, in runs of
    /// rowids on the pool, as a snapshot is.
    pub fn load(&self, records: &mut [Record], which: &[usize]) -> Result<(), Error> {
        let mut stubs: Vec<usize> = (which.iter().copied())
            .filter(|&i| records[i].is_stub())
            .collect();
        // Each once: the walk counts the rows it found against them.
        stubs.sort_unstable();
        stubs.dedup();
        let mut read = || -> rusqlite::Result<()> {
            if stubs.is_empty() {
                return Ok(());
            }
            if stubs.len() < ONE_BY_ONE {
                let one = format!("SELECT {EVERY} FROM posts WHERE source_path = ?1");
                let mut stmt = self.conn.prepare_cached(&one)?;
                for &i in &stubs {
                    let mut rows = stmt.query([&records[i].source.path])?;
                    let row = rows.next()?.ok_or_else(missing)?;
                    records[i] = record_of(row)?;
                }
                return Ok(());
            }
            let mut wanted = vec![false; records.len()];
            for &i in &stubs {
                wanted[i] = true;
            }
            let (paths, wanted) = (&*records, &wanted);
            let runs = in_runs((&self.conn, &self.path), "posts", |conn, _, (from, to)| {
                let select = format!("SELECT {EVERY} FROM posts WHERE rowid BETWEEN ?1 AND ?2");
                let mut stmt = conn.prepare(&select)?;
                let mut rows = stmt.query([from, to])?;
                let mut read = Vec::new();
                while let Some(row) = rows.next()? {
                    let path = str_ref(row, 6)?;
                    let at = paths.binary_search_by(|r| r.source.path.as_str().cmp(path));
                    if let Some(i) = at.ok().filter(|&i| wanted[i]) {
                        read.push((i, record_of(row)?));
                    }
                }
                Ok(read)
            })?;
            let mut filled = 0;
            for (i, record) in runs.into_iter().flatten() {
                records[i] = record;
                filled += 1;
            }
            match filled == stubs.len() {
                true => Ok(()),
                false => Err(missing()),
            }
        };
        read().map_err(|e| index_error(&self.path, e))
    }

    /// [`Index::load`] of every stub among `records`.
    pub fn load_every(&self, records: &mut [Record]) -> Result<(), Error> {
        self.load(records, &(0..records.len()).collect::<Vec<_>>())
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

/// What [`Index::load`] meets when a document it loads has no row:
/// the index changed under the build lock.
fn missing() -> rusqlite::Error {
    corrupt(0, "source_path")
}

/// From how many documents [`Index::load`] walks the table rather than
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
    use crate::model::doc::InternalLink;

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
    fn stubs_hold_what_says_whether_a_document_is_shown_and_loading_reads_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        let records: Vec<Record> = (0..1_000)
            .map(|n| Record {
                summary: format!("<p>{n}</p>"),
                extra: format!("{{\"n\":{n}}}"),
                headings: format!("[{{\"level\":2,\"id\":\"h{n}\",\"title\":\"H\"}}]"),
                url: format!("/p{n}/"),
                draft: n % 3 == 0,
                expires_at: (n % 5 == 0).then_some(n),
                shortcodes: vec![format!("s{}", n % 2)],
                images: vec![format!("i{n}.png")],
                links: vec![InternalLink {
                    line: 2,
                    target: format!("p{}.md", n + 1),
                }],
                ..record(&format!("p{n:04}"), "h")
            })
            .collect();
        index
            .commit(&Changes {
                upserts: records.iter().collect(),
                ..Changes::default()
            })
            .unwrap();
        let claimed = ["/p7/".to_owned(), "/robots.txt".to_owned()];
        let mut stubs = index.snapshot_of_stubs("out", &claimed).unwrap().records;
        let stub = |r: &Record| r.as_stub(&claimed);
        assert_eq!(stubs, records.iter().map(stub).collect::<Vec<_>>());
        assert!(stubs.iter().all(Record::is_stub));
        assert_eq!(stubs[7].url, "/p7/", "a claimed URL");
        index.load(&mut stubs, &[500, 3, 500]).unwrap();
        assert_eq!(
            (stubs[3].clone(), stubs[500].clone()),
            (records[3].clone(), records[500].clone())
        );
        assert_eq!(stubs[4], stub(&records[4]));
        // Many, in a walk; those read whole already stay as they are.
        stubs[3].title = "kept".into();
        let every: Vec<usize> = (0..records.len()).collect();
        let twice: Vec<usize> = every.iter().chain(&every).copied().collect();
        index.load(&mut stubs, &twice).unwrap();
        assert_eq!(stubs[3].title, "kept");
        stubs[3] = records[3].clone();
        assert_eq!(stubs, records);
        let mut fewer = index.snapshot_of_stubs("out", &[]).unwrap().records;
        assert!(fewer.iter().all(|r| r.url.is_empty()), "none claimed");
        fewer.remove(7);
        assert!(index.load(&mut fewer, &[7]).is_ok(), "a row of its own");
        let stat = fewer[7].source.stat;
        fewer[7] = Record::stub(
            "content/en/posts/gone.md".into(),
            stat,
            Kind::Post,
            "en".into(),
        );
        assert!(index.load(&mut fewer, &[7]).is_err());
        assert!(index.load(&mut fewer, &every[..999]).is_err());
    }
}
