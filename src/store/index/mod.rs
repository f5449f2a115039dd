//! The SQLite index: schema, migrations, hash-skipping upserts and queries.
//!
//! Owns `.folio/index.sqlite`. It remembers every document's row (so list
//! pages and translation links need no re-parse), every output folio wrote
//! (so pruning never touches a file it did not write) and the settings the
//! rows were derived with. Every change of a build lands in one transaction.

use rustc_hash::FxHashMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use rusqlite::{Connection, OpenFlags, OptionalExtension, Transaction, params};

use crate::model::doc::{Kind, Record, SourceState, Stat, TemplateChoice};
use crate::model::error::Error;
use crate::model::id::PostId;
use crate::store::state::StateDir;

mod arrangement;
mod images;
mod pages;
mod rows;
mod schema;

pub use arrangement::ArrangementChange;
pub use images::ImageRows;

pub use rows::outputs_at;
use rows::{
    Columns, apply, corrupt, read_outputs, read_records, reservation_key, reservations_on,
    staging_key, str_ref, text, with_reservations,
};
use schema::MIGRATIONS;
#[cfg(test)]
use schema::SCHEMA_V1;
pub use schema::SCHEMA_VERSION;

/// An output file as the index remembers it. `stat` is `None` while the
/// file is being written (a build killed there left it pending); `hash` is
/// then the hash of the bytes being written, when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputRow {
    pub hash: Option<String>,
    pub fingerprint: Option<String>,
    pub stat: Option<Stat>,
}

/// A page's fingerprint ends with the assets it asked for: the plan reads
/// them from the row it was written with.
impl crate::plan::WrittenWith for FxHashMap<String, OutputRow> {
    fn written_with(&self, output: &str) -> Option<&str> {
        self.get(output)?.fingerprint.as_deref()
    }
}

/// Everything the index held when the build started.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Sorted by source path.
    pub records: Vec<Record>,
    /// The outputs of the folder this build writes to.
    pub outputs: FxHashMap<String, OutputRow>,
    pub meta: Meta,
    /// What folio measured of the images documents show, by path.
    pub images: FxHashMap<String, crate::source::image::Measured>,
}

/// What the last build recorded beside the rows (the `meta` table, one row
/// per field, the field's name as its key). `None`: never recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meta {
    /// The settings the rows were derived with
    /// ([`crate::source::config::Config::content_settings`]).
    pub content_settings: Option<String>,
    pub timezone: Option<String>,
    /// The digest of every input ([`crate::build::scan::inputs_digest`]); empty when
    /// a stat could not be trusted.
    pub inputs: Option<String>,
    /// The oldest date held back as future, and the newest shown: while
    /// `now` stays between them, publishing decides nothing new.
    pub next_due: Option<i64>,
    pub last_shown: Option<i64>,
    /// What the last build's pages were made with, for a dry run to say
    /// which of them changed: templates' own hashes, config and words digests.
    pub theme: Option<String>,
    pub globals: Option<String>,
    pub wording: Option<String>,
    /// The templates the pages use, with what they reach (a JSON list): a
    /// build with nothing to do reports its inputs without a plan.
    pub templates: Option<String>,
    /// What each stylesheet's last compile read or looked for (a JSON
    /// object: the sheet's path from the root → paths under `sass/`): what
    /// its fingerprint covers.
    pub sass_reads: Option<String>,
    /// The variants of images each page's templates asked for
    /// (`resize_image`) when it last rendered (a JSON object: the page's
    /// output → `[image path, variant]` pairs): their images are in its
    /// fingerprint, and they are outputs while it asks for them.
    pub image_uses: Option<String>,
    /// The facts of each asset the pages name (`asset_url`): a JSON
    /// object, the asset's output → [`crate::model::asset::AssetFacts`].
    /// Which assets a page names, its output row's fingerprint says.
    pub assets: Option<String>,
}

impl Meta {
    fn read(conn: &Connection) -> rusqlite::Result<Meta> {
        let mut stmt = conn.prepare_cached(
            "SELECT key, value FROM meta WHERE key IN
             ('content_settings', 'timezone', 'inputs', 'next_due', 'last_shown',
              'theme', 'globals', 'wording', 'templates', 'sass_reads', 'image_uses', 'assets')",
        )?;
        let mut meta = Meta::default();
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            let value: String = row.get(1)?;
            let number = || value.parse::<i64>().ok();
            match str_ref(row, 0)? {
                "content_settings" => meta.content_settings = Some(value),
                "timezone" => meta.timezone = Some(value),
                "inputs" => meta.inputs = Some(value),
                "next_due" => meta.next_due = number(),
                "last_shown" => meta.last_shown = number(),
                "theme" => meta.theme = Some(value),
                "globals" => meta.globals = Some(value),
                "wording" => meta.wording = Some(value),
                "sass_reads" => meta.sass_reads = Some(value),
                "image_uses" => meta.image_uses = Some(value),
                "assets" => meta.assets = Some(value),
                _ => meta.templates = Some(value),
            }
        }
        Ok(meta)
    }

    /// The rows a commit writes: every field that has a value.
    fn rows(&self) -> Vec<(&'static str, String)> {
        // Destructured, so that a field added to `Meta` cannot be left out.
        let Meta {
            content_settings,
            timezone,
            inputs,
            next_due,
            last_shown,
            theme,
            globals,
            wording,
            templates,
            sass_reads,
            image_uses,
            assets,
        } = self;
        [
            ("content_settings", content_settings.clone()),
            ("timezone", timezone.clone()),
            ("inputs", inputs.clone()),
            ("next_due", next_due.map(|n| n.to_string())),
            ("last_shown", last_shown.map(|n| n.to_string())),
            ("theme", theme.clone()),
            ("globals", globals.clone()),
            ("wording", wording.clone()),
            ("templates", templates.clone()),
            ("sass_reads", sass_reads.clone()),
            ("image_uses", image_uses.clone()),
            ("assets", assets.clone()),
        ]
        .into_iter()
        .filter_map(|(key, value)| Some((key, value?)))
        .collect()
    }

    /// [`Meta::sass_reads`], read: none for an index that has not recorded
    /// them (each sheet is then compiled again, and they are).
    pub fn sass_reads(&self) -> BTreeMap<String, Vec<String>> {
        self.sass_reads
            .as_deref()
            .and_then(|json| serde_json::from_str(json).ok())
            .unwrap_or_default()
    }

    /// [`Meta::image_uses`], read: none for an index that has not recorded
    /// them (no page asked for an image yet).
    pub fn image_uses(&self) -> crate::source::image::Drawn {
        let pairs: BTreeMap<String, Vec<(String, String)>> = (self.image_uses.as_deref())
            .and_then(|json| serde_json::from_str(json).ok())
            .unwrap_or_default();
        pairs
            .into_iter()
            .map(|(page, uses)| {
                let uses = uses.into_iter().filter_map(|(image, spec)| {
                    Some((image, crate::source::image::Variant::from_spec(&spec)?))
                });
                (page, uses.collect())
            })
            .collect()
    }

    /// Whether the last build recorded these inputs and `now` still lies
    /// between the newest date it showed and the oldest it held back (a clock
    /// moved back would unpublish, one moved on would publish).
    pub fn unchanged_since(&self, inputs: &str, now_ms: i64) -> bool {
        self.inputs.as_deref() == Some(inputs)
            && self.last_shown.unwrap_or(i64::MAX) <= now_ms
            && now_ms < self.next_due.unwrap_or(i64::MIN)
    }
}

/// The changes of one build, applied in one transaction.
#[derive(Debug, Default)]
pub struct Changes<'a> {
    /// The output folder `outputs` and `dropped_outputs` are files of.
    pub output_dir: &'a str,
    pub retired: &'a [PostId],
    pub upserts: Vec<&'a Record>,
    /// Rows whose content is unchanged but whose file was touched.
    pub restats: Vec<(&'a PostId, Stat)>,
    pub outputs: Vec<(String, OutputRow)>,
    pub dropped_outputs: Vec<String>,
    pub meta: Meta,
    pub images: ImageRows<'a>,
    /// What the index keeps of the pages among `outputs`, and of the
    /// others when `every_page` ([`Index::keeps_pages`]).
    pub pages: Vec<(String, crate::plan::KeptPage)>,
    pub every_page: bool,
    pub arrangement: ArrangementChange,
}

pub struct Index {
    conn: Connection,
    path: PathBuf,
}

impl Index {
    /// Opens (creating if needed) the index at `path`, in WAL mode, migrated
    /// to [`SCHEMA_VERSION`]. Its folder is a state folder: neither it nor
    /// the database's files may be links ([`StateDir`]).
    pub fn open(path: &Path) -> Result<Index, Error> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let name = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| {
            Error::io(
                path,
                std::io::Error::other("the index needs a file name in UTF-8"),
            )
        })?;
        // SQLite opens these by path, beside the database; a link at any
        // of them would be written through.
        let companions = ["", "-wal", "-shm", "-journal"].map(|suffix| format!("{name}{suffix}"));
        StateDir::open(dir)?.refuse_links(&companions.each_ref().map(String::as_str))?;
        let flags = OpenFlags::default() | OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| index_error(path, e))?;
        let mut index = Index {
            conn,
            path: path.to_owned(),
        };
        index.prepare().map_err(|e| index_error(path, e))?;
        Ok(index)
    }

    fn prepare(&mut self) -> rusqlite::Result<()> {
        self.conn.pragma_update(None, "journal_mode", "WAL")?;
        // FULL: a transaction is on disk when its commit returns. The rows
        // reserving the outputs a build is about to rename must survive a
        // power loss that the renames survive, or the next build would find
        // pages no row vouches for and refuse them as someone else's.
        self.conn.pragma_update(None, "synchronous", "FULL")?;
        self.conn.busy_timeout(std::time::Duration::from_secs(5))?;
        self.conn
            .pragma_update(None, "mmap_size", rows::MAPPED_BYTES)?;
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        let migrations: &[&str] = match version {
            0..SCHEMA_VERSION => &MIGRATIONS[version as usize..],
            SCHEMA_VERSION => &[],
            newer => {
                return Err(rusqlite::Error::ToSqlConversionFailure(
                    format!(
                        "schema version {newer} is newer than this folio understands ({SCHEMA_VERSION}); upgrade folio"
                    )
                    .into(),
                ));
            }
        };
        if migrations.is_empty() {
            return Ok(());
        }
        let tx = self.conn.transaction()?;
        for migration in migrations {
            tx.execute_batch(migration)?;
        }
        tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        tx.commit()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads every row.
    pub fn snapshot(&self, dir: &str) -> Result<Snapshot, Error> {
        self.read_snapshot(dir, Columns::Every)
            .map_err(|e| index_error(&self.path, e))
    }

    /// Reads every row but the outputs', and the documents' as
    /// [stubs](Record::stub), the URL only of those at one of `claimed`
    /// (the site's own files'): a one-off build that may plan only the
    /// pages showing what changed reads the outputs' once it knows which
    /// pages it plans, and the documents' of those pages ([`Index::outputs`],
    /// [`Index::shown_outputs`], [`Index::load`]).
    pub fn snapshot_of_stubs(&self, dir: &str, claimed: &[String]) -> Result<Snapshot, Error> {
        self.read_snapshot(dir, Columns::Stub { claimed })
            .map_err(|e| index_error(&self.path, e))
    }

    /// The row of every output of the folder `dir`, a file reserved by a
    /// build that stopped since among them.
    pub fn outputs(&self, dir: &str) -> Result<FxHashMap<String, OutputRow>, Error> {
        let read = || -> rusqlite::Result<_> {
            Ok(with_reservations(
                read_outputs(&self.conn, dir)?,
                self.reservations(dir)?,
            ))
        };
        read().map_err(|e| index_error(&self.path, e))
    }

    fn read_snapshot(&self, dir: &str, columns: Columns<'_>) -> rusqlite::Result<Snapshot> {
        let with_outputs = columns == Columns::Every;
        // The two tables are read at once, the outputs over a second
        // connection on another thread: each read is mostly SQLite's own
        // work, one core each. The build lock keeps writers out in between.
        let outputs_conn = with_outputs.then(|| rows::reader(&self.path)).transpose()?;
        let (records, outputs) = std::thread::scope(|scope| {
            let outputs = outputs_conn.map(|conn| scope.spawn(move || read_outputs(&conn, dir)));
            let records = read_records(&self.conn, &self.path, columns);
            let outputs = outputs.map(|outputs| {
                outputs
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            (records, outputs)
        });
        let outputs = match outputs {
            Some(outputs) => with_reservations(outputs?, self.reservations(dir)?),
            None => FxHashMap::default(),
        };
        Ok(Snapshot {
            records: records?,
            outputs,
            meta: Meta::read(&self.conn)?,
            images: images::read_images(&self.conn)?,
        })
    }

    fn meta(&self, key: &str) -> rusqlite::Result<Option<String>> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
    }

    /// Files the outputs rows an index was migrated with without knowing
    /// their folder (it predates the record of one) under `dir`, the folder
    /// of the first build that asks; whether there were any.
    pub fn adopt_unfiled_outputs(&mut self, dir: &str) -> Result<bool, Error> {
        self.conn
            .execute(
                "UPDATE OR IGNORE outputs SET dir = ?1 WHERE dir = ''",
                [dir],
            )
            .and_then(|changed| pages::forget_kept_pages(&self.conn, &[dir]).map(|()| changed > 0))
            .map_err(|e| index_error(&self.path, e))
    }

    /// Copies the index at `from` to a new file `to`, as of one moment,
    /// without writing to `from`: what `folio check` builds with.
    pub fn copy(from: &Path, to: &Path) -> Result<(), Error> {
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let result = Connection::open_with_flags(from, flags)
            .and_then(|conn| conn.execute("VACUUM INTO ?1", [to.to_string_lossy()]));
        result.map(drop).map_err(|e| index_error(from, e))
    }

    /// Moves the post `old` to its new id, slug and date in one
    /// transaction (`folio redate`, `folio move`). Its source hash is left
    /// as it was: the next build reads the edited source and brings the
    /// rest of the row up to date. The digest of the last build's inputs
    /// goes: its pages were made from the row as it was, so the next build
    /// may not take them as its own (a build with nothing to do, or pages
    /// whose fingerprints it keeps as written).
    pub fn move_record(
        &mut self,
        old: &PostId,
        new: &PostId,
        slug: &str,
        published_at: i64,
    ) -> Result<(), Error> {
        let result = (|| {
            let tx = self.conn.transaction()?;
            tx.execute(
                "UPDATE posts SET id = ?2, slug = ?3, published_at = ?4 WHERE id = ?1",
                rusqlite::params![old.to_string(), new.to_string(), slug, published_at],
            )?;
            tx.execute("DELETE FROM meta WHERE key = 'inputs'", [])?;
            arrangement::forget(&tx)?;
            tx.commit()
        })();
        result.map_err(|e| index_error(&self.path, e))
    }

    /// Moves the rows of the output folder `from` to the key `to`: an index
    /// made when folders were keyed by their absolute path, and the site has
    /// not moved since.
    pub fn rekey_outputs(&mut self, from: &str, to: &str) -> Result<(), Error> {
        if from == to {
            return Ok(());
        }
        let result = (|| {
            let tx = self.conn.transaction()?;
            let moved = tx.execute(
                "UPDATE OR IGNORE outputs SET dir = ?2 WHERE dir = ?1",
                [from, to],
            )?;
            tx.execute("DELETE FROM outputs WHERE dir = ?1", [from])?;
            for key in [staging_key, reservation_key] {
                tx.execute(
                    "UPDATE OR IGNORE meta SET key = ?2 WHERE key = ?1",
                    [key(from), key(to)],
                )?;
            }
            if moved > 0 {
                pages::forget_kept_pages(&tx, &[from, to])?;
            }
            tx.commit()
        })();
        result.map_err(|e| index_error(&self.path, e))
    }

    /// Whether a build was staging temp files in the output folder `dir` when
    /// it stopped: set before the first temp file, cleared by the commit.
    pub fn staging(&self, dir: &str) -> Result<bool, Error> {
        self.meta(&staging_key(dir))
            .map(|v| v.is_some())
            .map_err(|e| index_error(&self.path, e))
    }

    pub fn set_staging(&mut self, dir: &str, staging: bool) -> Result<(), Error> {
        let key = staging_key(dir);
        let result = if staging {
            self.conn.execute(
                "INSERT INTO meta (key, value) VALUES (?1, '1') ON CONFLICT (key) DO NOTHING",
                [key],
            )
        } else {
            self.conn.execute("DELETE FROM meta WHERE key = ?1", [key])
        };
        result.map(drop).map_err(|e| index_error(&self.path, e))
    }

    /// What the last build recorded beside the rows.
    pub fn meta_values(&self) -> Result<Meta, Error> {
        Meta::read(&self.conn).map_err(|e| index_error(&self.path, e))
    }

    /// A number that moves whenever another connection commits: a kept
    /// session's rows are stale once it does.
    pub fn data_version(&self) -> Result<i64, Error> {
        self.conn
            .pragma_query_value(None, "data_version", |r| r.get(0))
            .map_err(|e| index_error(&self.path, e))
    }

    /// Every output folio wrote with the stat it left it with (pending
    /// writes have none, and so never match a file).
    pub fn output_stats(&self, dir: &str) -> Result<Vec<(String, Stat)>, Error> {
        let read = || -> rusqlite::Result<Vec<(String, Stat)>> {
            let mut stmt = self.conn.prepare(
                "SELECT path, size, mtime_ns, hash IS NOT NULL FROM outputs WHERE dir = ?1",
            )?;
            let pending = Stat {
                size: u64::MAX,
                mtime_ns: Stat::RACY,
            };
            let rows = stmt.query_map([dir], |row| {
                let (size, mtime): (Option<i64>, Option<i64>) = (row.get(1)?, row.get(2)?);
                let hashed: bool = row.get(3)?;
                let stat = match (size, mtime, hashed) {
                    (Some(size), Some(mtime_ns), true) => Stat {
                        size: size as u64,
                        mtime_ns,
                    },
                    _ => pending,
                };
                Ok((text(row, 0)?, stat))
            })?;
            let mut stats: Vec<(String, Stat)> = rows.collect::<rusqlite::Result<_>>()?;
            let reserved = self.reservations(dir)?;
            if !reserved.is_empty() {
                let known: FxHashMap<&str, Stat> = stats
                    .iter()
                    .map(|(path, stat)| (path.as_str(), *stat))
                    .collect();
                let mut added: Vec<String> = reserved
                    .into_iter()
                    .map(|(path, _)| path)
                    .filter(|path| !known.contains_key(path.as_str()))
                    .collect();
                drop(known);
                added.sort();
                added.dedup();
                stats.extend(added.into_iter().map(|path| (path, pending)));
            }
            Ok(stats)
        };
        read().map_err(|e| index_error(&self.path, e))
    }

    /// Records outputs about to be written, with the hash of the bytes about
    /// to be written, before any of them is: a build killed part way still
    /// knows which files are its own, and which are not (a file put there
    /// since holds other bytes). They are one row, appended to, that the
    /// commit removes: a cold build reserves every page, and 24,000 rows
    /// cost more than the pages' own index rows. Until then every reading of
    /// the outputs sees them as pending rows.
    /// A row still pending from a killed build keeps the hashes it had: that
    /// build may have written its bytes.
    pub fn reserve_outputs(&mut self, dir: &str, paths: &[(&str, &str)]) -> Result<(), Error> {
        if paths.is_empty() {
            return Ok(());
        }
        // JSON escapes every control character: one line per pair. A cold
        // build reserves 24,000 pages, between the parallel stages.
        let lines: String = paths
            .par_iter()
            .map(|pair| {
                let mut line = serde_json::to_string(pair).unwrap_or_default();
                line.push('\n');
                line
            })
            .collect();
        self.conn
            .execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value = meta.value || excluded.value",
                [reservation_key(dir), lines],
            )
            .map(drop)
            .map_err(|e| index_error(&self.path, e))
    }

    /// The (path, hash) pairs [`Index::reserve_outputs`] recorded since the
    /// last commit, oldest first.
    fn reservations(&self, dir: &str) -> rusqlite::Result<Vec<(String, String)>> {
        reservations_on(&self.conn, dir)
    }

    /// Applies one build's changes in one transaction.
    pub fn commit(&mut self, changes: &Changes<'_>) -> Result<(), Error> {
        let result = (|| {
            let tx = self.conn.transaction()?;
            apply(&tx, changes)?;
            tx.commit()
        })();
        result.map_err(|e| index_error(&self.path, e))
    }
}

fn index_error(path: &Path, source: rusqlite::Error) -> Error {
    Error::Index {
        path: path.to_owned(),
        source: Box::new(source),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::store::index) fn record(slug: &str, hash: &str) -> Record {
        Record {
            id: PostId::derive(slug, "en", 1_700_000_000_000).unwrap(),
            kind: Kind::Post,
            slug: slug.into(),
            lang: "en".into(),
            published_at: 1_700_000_000_000,
            updated_at: None,
            expires_at: None,
            source: SourceState {
                path: format!("content/en/posts/{slug}.md"),
                hash: hash.into(),
                stat: Stat {
                    size: 10,
                    mtime_ns: 5,
                },
            },
            title: "T".into(),
            url: format!("/posts/{slug}/"),
            summary: "<p>s</p>".into(),
            description: None,
            tags: vec!["a".into()],
            terms: Vec::new(),
            draft: false,
            ever_published: true,
            translation_key: format!("posts/{slug}"),
            plugins: Vec::new(),
            extra: "{}".into(),
            aliases: Vec::new(),
            template: None,
            word_count: 3,
            reading_time: 1,
            headings: "[]".into(),
            links: Vec::new(),
            shortcodes: Vec::new(),
            images: Vec::new(),
            weight: None,
        }
    }

    #[test]
    fn slug_and_lang_are_unique() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        let a = record("a", "h1");
        let mut clash = record("a", "h1");
        clash.id = PostId::derive("a", "en", 1).unwrap();
        clash.source.path = "other.md".into();
        let result = index.commit(&Changes {
            upserts: vec![&a, &clash],
            ..Changes::default()
        });
        assert!(result.is_err());
        assert!(
            index.snapshot("out").unwrap().records.is_empty(),
            "the transaction rolled back"
        );
    }

    #[test]
    fn schema_version_is_recorded_and_wal_is_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.sqlite");
        drop(Index::open(&path).unwrap());
        let index = Index::open(&path).unwrap();
        let version: i64 = index
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let mode: String = index
            .conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    /// A version 1 index with one output row, plus `extra` SQL.
    fn version_1_index(path: &Path, extra: &str) {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(SCHEMA_V1).unwrap();
        conn.execute_batch(&format!(
            "INSERT INTO outputs VALUES ('index.html', 'h', 'f', 3, 7);
             {extra}
             PRAGMA user_version = 1;"
        ))
        .unwrap();
    }

    #[test]
    fn a_version_1_index_keeps_its_outputs_under_the_folder_it_last_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.sqlite");
        version_1_index(
            &path,
            "INSERT INTO meta VALUES ('output_dir', '/site/public');",
        );
        let index = Index::open(&path).unwrap();
        let row = OutputRow {
            hash: Some("h".into()),
            fingerprint: Some("f".into()),
            stat: Some(Stat {
                size: 3,
                mtime_ns: 7,
            }),
        };
        let public = index.snapshot("/site/public").unwrap().outputs;
        assert_eq!(public.get("index.html"), Some(&row));
        assert!(index.snapshot("/elsewhere").unwrap().outputs.is_empty());
        assert_eq!(index.output_stats("/site/public").unwrap().len(), 1);
    }

    #[test]
    fn outputs_of_one_folder_are_apart_from_another_s() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        let row = |hash: &str| OutputRow {
            hash: Some(hash.into()),
            fingerprint: None,
            stat: None,
        };
        for (folder, hash) in [("a", "ha"), ("b", "hb")] {
            index
                .commit(&Changes {
                    output_dir: folder,
                    outputs: vec![("index.html".into(), row(hash))],
                    ..Changes::default()
                })
                .unwrap();
        }
        index
            .commit(&Changes {
                output_dir: "b",
                dropped_outputs: vec!["index.html".into()],
                ..Changes::default()
            })
            .unwrap();
        assert_eq!(
            index.snapshot("a").unwrap().outputs.get("index.html"),
            Some(&row("ha"))
        );
        assert!(index.snapshot("b").unwrap().outputs.is_empty());
    }

    #[test]
    fn outputs_migrated_without_a_folder_go_to_the_first_build_s() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.sqlite");
        version_1_index(&path, "");
        let mut index = Index::open(&path).unwrap();
        index.adopt_unfiled_outputs("/site/public").unwrap();
        assert_eq!(index.snapshot("/site/public").unwrap().outputs.len(), 1);
        index.adopt_unfiled_outputs("/elsewhere").unwrap();
        assert!(index.snapshot("/elsewhere").unwrap().outputs.is_empty());
    }

    #[test]
    fn reservations_are_pending_rows_until_the_commit_and_keep_odd_names() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        index
            .commit(&Changes {
                output_dir: "o",
                outputs: vec![(
                    "kept".into(),
                    OutputRow {
                        hash: Some("h0".into()),
                        fingerprint: Some("f".into()),
                        stat: Some(Stat {
                            size: 1,
                            mtime_ns: 2,
                        }),
                    },
                )],
                ..Changes::default()
            })
            .unwrap();
        let odd = "tab\there/new\nline \"q\"";
        index
            .reserve_outputs("o", &[("kept", "h1"), (odd, "h2")])
            .unwrap();
        let snapshot = index.snapshot("o").unwrap();
        assert_eq!(snapshot.outputs["kept"].hash.as_deref(), Some("h0"));
        assert_eq!(snapshot.outputs[odd].hash.as_deref(), Some("h2"));
        assert_eq!(snapshot.outputs[odd].stat, None);
        let stats = index.output_stats("o").unwrap();
        assert_eq!(stats.len(), 2);
        assert!(stats.contains(&(
            odd.to_owned(),
            Stat {
                size: u64::MAX,
                mtime_ns: Stat::RACY
            }
        )));
        assert!(index.snapshot("p").unwrap().outputs.is_empty());

        index
            .commit(&Changes {
                output_dir: "o",
                ..Changes::default()
            })
            .unwrap();
        assert!(!index.snapshot("o").unwrap().outputs.contains_key(odd));
        assert_eq!(index.output_stats("o").unwrap().len(), 1);
    }

    #[test]
    fn a_pending_row_reserved_again_keeps_every_hash() {
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::open(&dir.path().join("i.sqlite")).unwrap();
        index.reserve_outputs("o", &[("a", "h1")]).unwrap();
        index.reserve_outputs("o", &[("a", "h2")]).unwrap();
        let row = &index.snapshot("o").unwrap().outputs["a"];
        assert_eq!(row.hash.as_deref(), Some("h1 h2"));
        assert_eq!(row.stat, None);
    }
}
