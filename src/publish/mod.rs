//! `folio publish`: the site's published documents, upserted into a
//! shared PostgreSQL for other programs to read (a dynamic front end, a
//! search service, a newsletter sender).
//!
//! It is a user of the engine: the session builds the site first, and the
//! rows are its records, with each body rendered as the page renders it.
//! What makes it safe where acknowledgements get lost is the id: derived
//! from (slug, lang, date), it lands a retried write on the same row, and
//! the stored `source_hash` turns a write of an unchanged row into none.
//! Before writing, the remote's (slug, lang) → id is checked against the
//! site's, as the local index is, so a changed date is refused there too.

mod remote;
mod rows;
mod schema;
mod tls;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::build::session::Session;
use crate::model::doc::Record;
use crate::model::error::{AnotherId, Error, Problem, ProblemKind};
use crate::model::id::format_ms;
use crate::model::report::BuildReport;
use crate::plan::Model;
use crate::source::discover::FilesAt;
use crate::source::image::Shown;
use remote::{Answer, GaveUp, Remote, RemoteRow, Statement};
use rows::{Local, Row};

/// How to publish. `PublishOptions::new(url)` publishes like `folio
/// publish --database URL`.
#[derive(Clone)]
#[non_exhaustive]
pub struct PublishOptions {
    /// A `postgres://` URL or `key=value` words. The caller resolves it
    /// (the CLI: `--database`, then `DATABASE_URL`, then `[publish]
    /// database` of site.toml); the library reads no environment.
    pub database: String,
    /// The password, when the URL has none (the CLI passes `PGPASSWORD`).
    pub password: Option<String>,
    /// libpq's `sslmode` and `sslrootcert` settings, as `(key, value)`, for
    /// a URL that names none (the CLI passes `PGSSLMODE` and
    /// `PGSSLROOTCERT`).
    pub tls_defaults: Vec<(String, String)>,
    /// Read the database and say what would be written and deleted; write
    /// nothing, there or in the site.
    pub dry_run: bool,
    /// Let a document whose id changed (a new date) replace the database's
    /// row of the same (slug, lang): the old row is deleted.
    pub accept_id_changes: bool,
    /// Rows per statement.
    pub batch_rows: usize,
    /// Tries of each statement, its first send included.
    pub attempts: u32,
    /// The wait before the first retry; it doubles with each one.
    pub backoff: Duration,
    /// How long a connection or a statement may take before it is taken
    /// for lost (and retried).
    pub timeout: Duration,
}

impl PublishOptions {
    /// The options of a plain `folio publish` to `database`.
    pub fn new(database: impl Into<String>) -> PublishOptions {
        PublishOptions {
            database: database.into(),
            password: None,
            tls_defaults: Vec::new(),
            dry_run: false,
            accept_id_changes: false,
            batch_rows: 500,
            attempts: 6,
            backoff: Duration::from_millis(100),
            timeout: Duration::from_secs(30),
        }
    }
}

impl std::fmt::Debug for PublishOptions {
    // The URL and the password may hold a secret: neither is shown.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PublishOptions")
            .field("dry_run", &self.dry_run)
            .field("accept_id_changes", &self.accept_id_changes)
            .field("batch_rows", &self.batch_rows)
            .field("attempts", &self.attempts)
            .field("backoff", &self.backoff)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// What a publish did (or, in a dry run, would do).
#[derive(Debug, Clone, Default, serde::Serialize)]
#[non_exhaustive]
pub struct PublishReport {
    /// The database, as `postgres://user@host:port/dbname`: no password.
    pub database: String,
    /// The schema of folio's tables there.
    pub schema: String,
    /// The build that brought the site up to date first (none in a dry
    /// run).
    pub build: Option<BuildReport>,
    /// The documents the site publishes.
    pub documents: usize,
    /// Of those, the ones the database holds as they are: not sent.
    pub unchanged: usize,
    /// The ids sent to be written, because the database lacks them or
    /// holds them with another `source_hash`.
    pub written: Vec<String>,
    /// The ids deleted: documents no longer published, or replaced under a
    /// new id.
    pub deleted: Vec<String>,
    /// Rows the database reports it changed. Lower than `written` when a
    /// statement whose answer was lost had written them before its retry,
    /// or when another publish wrote them first.
    pub rows_changed: usize,
    /// Statements that succeeded.
    pub statements: usize,
    /// Of those, the ones sent more than once (a lost answer, a timeout, a
    /// retryable error).
    pub retried_statements: usize,
    /// Connections made again after one was lost.
    pub reconnections: usize,
    /// Whether the schema was created or migrated.
    pub migrated: bool,
    /// The one round trip that read the database's ids and hashes.
    pub read_ms: u64,
    /// The whole publish, the build included.
    pub elapsed_ms: u64,
    /// Nothing was written.
    pub dry_run: bool,
}

impl Session {
    /// Publishes the site to the database `options` names: builds it when
    /// it is not up to date (not in a dry run), brings folio's schema to
    /// this version, refuses a document whose id the database holds under
    /// another one, deletes the rows of documents no longer published, then
    /// writes every document whose row differs, in batches, each statement
    /// idempotent and retried when its answer is lost. A publish that gives
    /// up says what it wrote; the next one finishes the job.
    ///
    /// It runs its own single-threaded tokio runtime and blocks until done:
    /// call it from a plain thread (in an async program, from
    /// `tokio::task::spawn_blocking`), since a runtime cannot be started
    /// inside another.
    pub fn publish(&mut self, options: &PublishOptions) -> Result<PublishReport, Error> {
        let started = Instant::now();
        let (build, read) = up_to_date(self, options.dry_run)?;
        let (read, read_shown) = match read {
            Some((records, shown)) => (Some(records), shown),
            None => (None, None),
        };
        let (every, records) = published(self, read.as_deref());
        let config = self.site().config();
        let schema = config.publish.schema().to_owned();
        let mut remote = Remote::new(options, &schema, self.site().root())?;
        let shown = read_shown.unwrap_or_else(|| self.shown_images(every));
        let links = Model::for_links(config, (every, &shown), self.visibility());
        let theme = self.theme()?;
        let locals: Vec<Local<'_>> = self.pool().install(|| {
            records
                .par_iter()
                .map(|r| Local::new(r, config, (links.as_ref(), &theme)))
                .collect()
        });
        let mut report = PublishReport {
            database: remote.name.clone(),
            schema,
            build,
            documents: locals.len(),
            dry_run: options.dry_run,
            ..PublishReport::default()
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| publish_error(&remote, format!("cannot start: {e}"), "".into()))?;
        let plugins = self.plugins();
        let writer = Writer {
            every,
            locals: &locals,
            files: FilesAt::new(self.site().root()),
            plugins,
            config,
            shortcodes: theme.shortcodes(),
            links: links.as_ref(),
            options,
        };
        let pool = self.pool();
        // The bodies are rendered on the session's pool, a batch ahead of
        // the one on the wire: the runtime's one thread only waits for the
        // database.
        let outcome = std::thread::scope(|scope| {
            let (order, orders) = std::sync::mpsc::channel::<Vec<usize>>();
            let (sender, batches) = tokio::sync::mpsc::channel(1);
            let writer = &writer;
            scope.spawn(move || {
                if let Ok(write) = orders.recv() {
                    pool.install(|| writer.render(&write, &sender));
                }
            });
            let rendering = Rendering { order, batches };
            runtime.block_on(writer.publish(&mut remote, &mut report, rendering))
        });
        report.statements = remote.counts.statements;
        report.retried_statements = remote.counts.retried_statements;
        report.reconnections = remote.counts.reconnections();
        report.elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        outcome.map(|()| report)
    }
}

/// What one publish writes with.
struct Writer<'w> {
    /// Every document of the site, published or not: the guard holds a
    /// draft or a post dated later to its id as the local index does.
    every: &'w [Record],
    /// The published ones.
    locals: &'w [Local<'w>],
    files: FilesAt,
    plugins: &'w crate::plugin::Plugins,
    /// How bodies are rendered: `[highlight]`, `[math]`, `[markdown]`.
    config: &'w crate::source::config::Config,
    shortcodes: &'w crate::source::shortcodes::Shortcodes,
    links: Option<&'w Model>,
    options: &'w PublishOptions,
}

/// One batch of rows, rendered.
type Batch = Result<Vec<Row>, Error>;

/// The way to the rendering thread: the rows to render go one way, the
/// batches come back.
struct Rendering {
    order: std::sync::mpsc::Sender<Vec<usize>>,
    batches: tokio::sync::mpsc::Receiver<Batch>,
}

/// What the database lacks of the site, and holds that the site no longer
/// publishes.
struct Changes {
    /// Indices into the locals.
    write: Vec<usize>,
    delete: Vec<String>,
}

impl Writer<'_> {
    async fn publish(
        &self,
        remote: &mut Remote,
        report: &mut PublishReport,
        rendering: Rendering,
    ) -> Result<(), Error> {
        let stored = self.stored_rows(remote, report).await?;
        let changes = self.changes(&stored, remote)?;
        report.unchanged = self.locals.len() - changes.write.len();
        report.written = changes
            .write
            .iter()
            .map(|&i| self.locals[i].id.clone())
            .collect();
        report.deleted.clone_from(&changes.delete);
        if self.options.dry_run {
            return Ok(());
        }
        let mut progress = Progress {
            to_delete: changes.delete.len(),
            to_write: changes.write.len(),
            ..Progress::default()
        };
        for ids in changes.delete.chunks(self.batch_rows()) {
            if let Answer::Ids(gone) = self
                .send(remote, &Statement::Delete(ids), "deleting rows", &progress)
                .await?
            {
                report.rows_changed += gone.len();
            }
            progress.deleted += ids.len();
        }
        self.write(remote, (changes.write, rendering), report, &mut progress)
            .await
    }

    /// The database's rows, once folio's schema there is at this version
    /// (made or migrated, unless in a dry run, which reads what is there).
    async fn stored_rows(
        &self,
        remote: &mut Remote,
        report: &mut PublishReport,
    ) -> Result<Vec<RemoteRow>, Error> {
        let nothing_written = Progress::default();
        let version = match self
            .send(
                remote,
                &Statement::Version,
                "reading folio's schema version",
                &nothing_written,
            )
            .await?
        {
            Answer::Version(version) => version,
            _ => unreachable!("a version statement answers a version"),
        };
        if version > schema::VERSION {
            return Err(publish_error(
                remote,
                format!(
                    "its folio schema is at version {version}, newer than this folio's ({})",
                    schema::VERSION
                ),
                "publish with the newer folio that wrote it".into(),
            ));
        }
        if version < schema::VERSION && !self.options.dry_run {
            self.send(
                remote,
                &Statement::Migrate,
                "creating folio's tables",
                &nothing_written,
            )
            .await?;
            report.migrated = true;
        }
        if version == 0 && self.options.dry_run {
            return Ok(Vec::new());
        }
        let read = Instant::now();
        let stored = self
            .send(
                remote,
                &Statement::ReadRows,
                "reading the stored rows",
                &nothing_written,
            )
            .await?;
        report.read_ms = u64::try_from(read.elapsed().as_millis()).unwrap_or(u64::MAX);
        match stored {
            Answer::Rows(rows) => Ok(rows),
            _ => unreachable!("a read answers rows"),
        }
    }

    fn batch_rows(&self) -> usize {
        self.options.batch_rows.max(1)
    }

    /// The guard, then the rows to send: each document whose id the
    /// database lacks or holds with another hash, and each stored id the
    /// site no longer publishes.
    fn changes(&self, stored: &[RemoteRow], remote: &Remote) -> Result<Changes, Error> {
        // A site that publishes nothing is a wrong root or a lost content
        // folder far more often than a blog taken down: not a reason to
        // empty a table others read.
        if self.locals.is_empty() && !stored.is_empty() {
            return Err(publish_error(
                remote,
                format!(
                    "the site publishes no document, and the database holds {}; folio does not empty it",
                    stored.len()
                ),
                format!(
                    "check --root and that content/ holds published posts; to empty the table on purpose, run `TRUNCATE {}.posts`",
                    remote.schema()
                ),
            ));
        }
        let by_id: HashMap<&str, &RemoteRow> =
            stored.iter().map(|row| (row.id.as_str(), row)).collect();
        let by_place: HashMap<(&str, &str), &RemoteRow> = stored
            .iter()
            .map(|row| ((row.slug.as_str(), row.lang.as_str()), row))
            .collect();
        let mut problems = Vec::new();
        for record in self.every {
            if let Some(there) = by_place.get(&(record.slug.as_str(), record.lang.as_str()))
                && there.id != record.id.to_string()
                && !self.options.accept_id_changes
            {
                problems.push(another_id(record, there, &remote.name));
            }
        }
        let mut ours = std::collections::HashSet::new();
        let mut write = Vec::new();
        for (i, local) in self.locals.iter().enumerate() {
            if by_id
                .get(local.id.as_str())
                .is_none_or(|there| there.source_hash != local.hash)
            {
                write.push(i);
            }
            ours.insert(local.id.as_str());
        }
        if !problems.is_empty() {
            problems.sort_by(|a: &Problem, b| a.path.cmp(&b.path));
            return Err(Error::Content(problems));
        }
        let mut delete: Vec<String> = stored
            .iter()
            .filter(|row| !ours.contains(row.id.as_str()))
            .map(|row| row.id.clone())
            .collect();
        delete.sort();
        // In id order, as a concurrent publish of the same site sends
        // them: two writers lock the same rows in the same order, never in
        // a cycle.
        write.sort_by_key(|&i| self.locals[i].record.id);
        Ok(Changes { write, delete })
    }

    /// Renders the rows at `write`, a batch at a time, for [`Writer::write`].
    fn render(&self, write: &[usize], sender: &tokio::sync::mpsc::Sender<Batch>) {
        for chunk in write.chunks(self.batch_rows()) {
            let batch = chunk
                .par_iter()
                .map(|&i| {
                    let render = (self.plugins, self.config, self.shortcodes);
                    rows::row(&self.locals[i], &self.files, render, self.links)
                })
                .collect();
            // The receiver is gone when the publish gave up.
            if sender.blocking_send(batch).is_err() {
                break;
            }
        }
    }

    /// Sends the rows at `write` in batches, as the rendering thread hands
    /// them over.
    async fn write(
        &self,
        remote: &mut Remote,
        (write, rendering): (Vec<usize>, Rendering),
        report: &mut PublishReport,
        progress: &mut Progress,
    ) -> Result<(), Error> {
        let Rendering { order, mut batches } = rendering;
        // The thread renders nothing when it is told nothing.
        if write.is_empty() || order.send(write).is_err() {
            return Ok(());
        }
        while let Some(batch) = batches.recv().await {
            let batch = batch?;
            let statement = Statement::Upsert(&batch);
            if let Answer::Ids(written) = self
                .send(remote, &statement, "writing rows", progress)
                .await?
            {
                report.rows_changed += written.len();
            }
            progress.written += batch.len();
        }
        Ok(())
    }

    async fn send(
        &self,
        remote: &mut Remote,
        statement: &Statement<'_>,
        what: &str,
        progress: &Progress,
    ) -> Result<Answer, Error> {
        remote
            .run(statement)
            .await
            .map_err(|gave_up| gave_up_error(remote, what, gave_up, progress))
    }
}

/// How far the writes went, for a publish that gives up to say.
#[derive(Default)]
struct Progress {
    to_delete: usize,
    deleted: usize,
    to_write: usize,
    written: usize,
}

/// The documents a publish read itself, not those the session kept, with
/// the images they show when it measured them.
type Read = Option<(Vec<Record>, Option<Shown>)>;

/// Brings the site up to date for a publish: builds it, or, in a dry run,
/// reads what changed without writing. Returns the build's report, and the
/// documents when they are not those the session kept.
fn up_to_date(session: &mut Session, dry_run: bool) -> Result<(Option<BuildReport>, Read), Error> {
    if dry_run {
        let (records, shown) = session.read_documents()?;
        return Ok((None, Some((records, Some(shown)))));
    }
    let build = session.build()?;
    let records = match session.kept_records() {
        Some(_) => None,
        None => Some((session.indexed_records()?, None)),
    };
    Ok((Some(build), records))
}

/// Every document of `records` (or else of the session's last build), and
/// those the site publishes: what a publish sends.
fn published<'r>(
    session: &'r Session,
    records: Option<&'r [Record]>,
) -> (&'r [Record], Vec<&'r Record>) {
    let visibility = session.visibility();
    let records = records.or(session.kept_records()).unwrap_or(&[]);
    (
        records,
        records.iter().filter(|r| visibility.shows(r)).collect(),
    )
}

fn publish_error(remote: &Remote, message: String, help: String) -> Error {
    Error::Publish {
        database: remote.name.clone(),
        message,
        help,
    }
}

/// A statement given up on, with what the publish had written by then.
fn gave_up_error(remote: &Remote, what: &str, gave_up: GaveUp, progress: &Progress) -> Error {
    let tries = match gave_up.attempts {
        1 => String::new(),
        n => format!(" after {n} tries"),
    };
    let done = if progress.to_delete + progress.to_write == 0 {
        "nothing was written".to_owned()
    } else {
        let doubt = match gave_up.in_doubt {
            true => " (its answer was lost: the server may have applied it)",
            false => "",
        };
        let mut done = Vec::new();
        if progress.to_delete > 0 {
            done.push(format!(
                "{} of {} rows to delete were deleted",
                progress.deleted, progress.to_delete
            ));
        }
        if progress.to_write > 0 {
            done.push(format!(
                "{} of {} rows to write were written",
                progress.written, progress.to_write
            ));
        }
        format!(
            "{} before this statement{doubt}; the rest was not",
            done.join(" and ")
        )
    };
    let help = gave_up.help.clone().unwrap_or_else(|| match gave_up.code.as_deref() {
        None if progress.to_delete + progress.to_write == 0 => format!(
            "check that PostgreSQL runs and answers at {}, then publish again",
            remote.name
        ),
        _ if gave_up.retryable => "publish again once the database answers: every write is idempotent, so the next publish finishes the job".to_owned(),
        Some("28P01" | "28000") => "check the user and the password (PGPASSWORD, or the URL's)".to_owned(),
        Some("3D000") => "create the database first (`createdb`), or name one that exists".to_owned(),
        Some("42501") => format!("publish as a role that may create the schema `{0}`, or have its owner grant this one USAGE on it, SELECT on `{0}.schema_migrations`, and SELECT, INSERT, UPDATE, DELETE on `{0}.posts`", remote.schema()),
        Some("42P01" | "3F000") => format!("folio's table is gone while `{0}.schema_migrations` says it was made: drop the schema (`DROP SCHEMA {0} CASCADE`) and publish again to make both anew", remote.schema()),
        _ => "fix what the server says, then publish again: what was written stays, and the next publish finishes the job".to_owned(),
    });
    publish_error(
        remote,
        format!("{what} failed{tries}: {}; {done}", gave_up.message),
        help,
    )
}

/// The guard's refusal of `record`, which the database holds under
/// another id.
fn another_id(record: &Record, there: &RemoteRow, database: &str) -> Problem {
    let old = there.id.parse::<crate::model::id::PostId>().map_or_else(
        |_| format!("under id {}", there.id),
        |id| format_ms(id.published_ms()),
    );
    Problem::new(
        &record.source.path,
        None,
        ProblemKind::PublishedUnderAnotherId(Box::new(AnotherId {
            database: database.to_owned(),
            lang: record.lang.clone(),
            slug: record.slug.clone(),
            old,
            new: format_ms(record.published_at),
        })),
    )
}
