//! The database end of `folio publish`: one connection, made again when it
//! drops, and every statement sent through [`Remote::run`], which retries
//! what is safe to retry. Every statement folio sends is idempotent on its
//! own (see `schema`), so a statement whose answer was lost is simply sent
//! again: no transaction spans two of them, no client-side sequence.

use std::path::Path;
use std::time::Duration;

use tokio_postgres::Client;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::PublishOptions;
use super::rows::Row;
use super::schema;
use super::tls;
use crate::model::error::Error;

/// How hard to try.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Policy {
    /// Tries of one statement (its first send included).
    pub attempts: u32,
    /// The wait before the first retry; it doubles with each one, up to
    /// [`MAX_BACKOFF`].
    pub backoff: Duration,
    /// How long a connection or a statement may take before it is given up
    /// as lost.
    pub timeout: Duration,
}

const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// How much longer than the server's statement_timeout the client waits
/// for an answer before it takes the connection for lost.
const WATCHDOG_MARGIN: Duration = Duration::from_secs(2);

/// What was sent, for the report.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Counts {
    /// Statements that succeeded.
    pub statements: usize,
    /// Of those, the ones that took more than one try.
    pub retried_statements: usize,
    /// Connections made, the first included.
    pub connections: usize,
}

impl Counts {
    /// Connections made after the first.
    pub(super) fn reconnections(&self) -> usize {
        self.connections.saturating_sub(1)
    }
}

/// The statements of a publish.
pub(crate) enum Statement<'a> {
    Version,
    Migrate,
    ReadRows,
    Upsert(&'a [Row]),
    Delete(&'a [String]),
}

/// A row as the remote holds it: what the guard and the skip compare.
pub(crate) struct RemoteRow {
    pub id: String,
    pub slug: String,
    pub lang: String,
    pub source_hash: String,
}

pub(crate) enum Answer {
    Version(i32),
    Rows(Vec<RemoteRow>),
    /// The ids the statement changed.
    Ids(Vec<String>),
    Done,
}

/// Why one try failed, and whether another may succeed.
struct Fault {
    message: String,
    retryable: bool,
    /// The connection is lost or in doubt (no answer, a timeout): the next
    /// try makes a new one. A server that answered with an error keeps it.
    lost: bool,
    /// A PostgreSQL SQLSTATE, when the server answered with one.
    code: Option<String>,
    /// What to do about it, when the fault says more than its code.
    help: Option<String>,
}

/// A statement given up on.
pub(crate) struct GaveUp {
    pub message: String,
    pub code: Option<String>,
    pub retryable: bool,
    /// The last try's answer was lost: the server may have applied it.
    pub in_doubt: bool,
    pub attempts: u32,
    pub help: Option<String>,
}

pub(crate) struct Remote {
    config: tokio_postgres::Config,
    tls: MakeRustlsConnect,
    /// The database as messages name it: no password, ever.
    pub name: String,
    /// Text that must never reach a message: the password, as written and
    /// as sent.
    secrets: Vec<String>,
    policy: Policy,
    schema: String,
    client: Option<Client>,
    pub counts: Counts,
}

impl Remote {
    /// Reads the options' database (a `postgres://` URL or `key=value`
    /// words) without connecting. Their password is used when the URL has
    /// none; a relative `sslrootcert` is read from `root`.
    pub(super) fn new(
        options: &PublishOptions,
        schema: &str,
        root: &Path,
    ) -> Result<Remote, Error> {
        let policy = Policy {
            attempts: options.attempts.max(1),
            backoff: options.backoff,
            timeout: options.timeout,
        };
        let password = options.password.as_deref();
        let mut secrets: Vec<String> = password.into_iter().map(str::to_owned).collect();
        secrets.extend(written_password(&options.database));
        let refused = |refusal: tls::Refusal, secrets: &[String]| Error::Publish {
            database: "the database URL".into(),
            message: scrub(secrets, &refusal.message),
            help: scrub(secrets, &refusal.help),
        };
        let (database, tls) = tls::split(&options.database, &options.tls_defaults)
            .map_err(|r| refused(r, &secrets))?;
        let mut config: tokio_postgres::Config = database.parse().map_err(|e| {
            let e = scrub(&secrets, &with_cause(&e));
            Error::Publish {
                database: "the database URL".into(),
                message: format!("it is not one PostgreSQL reads: {e}"),
                help: "write it as `postgres://USER@HOST:PORT/DATABASE` (the password in PGPASSWORD), or as `host=… user=… dbname=…`".into(),
            }
        })?;
        if config.get_password().is_none()
            && let Some(password) = password
        {
            config.password(password);
        }
        if let Some(sent) = config.get_password() {
            secrets.push(String::from_utf8_lossy(sent).into_owned());
        }
        secrets.retain(|s| !s.is_empty());
        let name = scrub(&secrets, &display_name(&config));
        let host_has_at = config
            .get_hosts()
            .iter()
            .any(|host| matches!(host, tokio_postgres::config::Host::Tcp(h) if h.contains('@')));
        if host_has_at {
            return Err(Error::Publish {
                database: "the database URL".into(),
                message: "it has more than one `@` before its host: a password with an `@` is read as part of the host".into(),
                help: "write the password's `@` as `%40`, or leave the password out of the URL and set PGPASSWORD".into(),
            });
        }
        let connector = tls
            .prepare(&mut config, root)
            .map_err(|r| refused(r, &secrets))?;
        // The server ends a statement that outlives the client's wait, or
        // that waits on a lock that long: one left running after folio gave
        // up on it must not land after a later publish and undo it.
        let limit = policy.timeout.as_millis();
        let options = format!(
            "{} -c statement_timeout={limit} -c lock_timeout={limit}",
            config.get_options().unwrap_or("")
        );
        config
            .application_name("folio publish")
            .options(options.trim_start())
            .connect_timeout(policy.timeout);
        Ok(Remote {
            config,
            tls: connector,
            name,
            secrets,
            policy,
            schema: schema.to_owned(),
            client: None,
            counts: Counts::default(),
        })
    }

    /// The schema of folio's tables.
    pub(super) fn schema(&self) -> &str {
        &self.schema
    }

    /// Sends `statement` until it succeeds, a try fails in a way another
    /// would too, or the tries run out. A lost connection or a timeout
    /// drops the connection; the next try makes a new one.
    pub(super) async fn run(&mut self, statement: &Statement<'_>) -> Result<Answer, GaveUp> {
        let mut attempt = 1;
        loop {
            match self.try_once(statement).await {
                Ok(answer) => {
                    self.counts.statements += 1;
                    if attempt > 1 {
                        self.counts.retried_statements += 1;
                    }
                    return Ok(answer);
                }
                Err(fault) if fault.retryable && attempt < self.policy.attempts => {
                    if fault.lost {
                        self.client = None;
                    }
                    tokio::time::sleep(backoff(self.policy.backoff, attempt)).await;
                    attempt += 1;
                }
                Err(fault) => {
                    self.client = None;
                    return Err(GaveUp {
                        message: scrub(&self.secrets, &fault.message),
                        code: fault.code,
                        retryable: fault.retryable,
                        in_doubt: fault.lost,
                        attempts: attempt,
                        help: fault.help,
                    });
                }
            }
        }
    }

    async fn try_once(&mut self, statement: &Statement<'_>) -> Result<Answer, Fault> {
        let timeout = self.policy.timeout;
        let schema = self.schema.clone();
        let client = self.client().await?;
        let cancel = client.cancel_token();
        let sent = execute(client, statement, &schema);
        // The server's own statement_timeout answers first when it can:
        // this wait is for an answer lost on the way.
        let Ok(answer) = tokio::time::timeout(timeout + WATCHDOG_MARGIN, sent).await else {
            // Asked to stop, the server does not run on with a statement
            // folio is about to send again.
            let _ =
                tokio::time::timeout(WATCHDOG_MARGIN, cancel.cancel_query(self.tls.clone())).await;
            return Err(Fault {
                message: format!("no answer within {} s", timeout.as_secs_f32()),
                retryable: true,
                lost: true,
                code: None,
                help: None,
            });
        };
        match answer {
            // Folio never published here: version 0, every migration to run.
            Err(e)
                if matches!(statement, Statement::Version)
                    && e.code()
                        .is_some_and(|code| matches!(code.code(), "3F000" | "42P01")) =>
            {
                Ok(Answer::Version(0))
            }
            answer => answer.map_err(fault_of),
        }
    }

    async fn client(&mut self) -> Result<&Client, Fault> {
        if self.client.as_ref().is_some_and(Client::is_closed) {
            self.client = None;
        }
        if self.client.is_none() {
            let connecting = self.config.connect(self.tls.clone());
            let (client, connection) = tokio::time::timeout(self.policy.timeout, connecting)
                .await
                .map_err(|_| Fault {
                    message: format!(
                        "could not connect within {} s",
                        self.policy.timeout.as_secs_f32()
                    ),
                    retryable: true,
                    lost: true,
                    code: None,
                    help: None,
                })?
                .map_err(fault_of)?;
            // The connection does the socket's work while the client waits
            // for answers; it ends when the client is dropped.
            tokio::spawn(connection);
            self.counts.connections += 1;
            self.client = Some(client);
        }
        Ok(self.client.as_ref().expect("connected above"))
    }
}

async fn execute(
    client: &Client,
    statement: &Statement<'_>,
    schema: &str,
) -> Result<Answer, tokio_postgres::Error> {
    match statement {
        Statement::Version => {
            let row = client
                .query_typed_one(&schema::read_version(schema), &[])
                .await?;
            Ok(Answer::Version(row.try_get(0)?))
        }
        Statement::Migrate => {
            client.batch_execute(&schema::migrate(schema)).await?;
            Ok(Answer::Done)
        }
        Statement::ReadRows => {
            let rows = client.query_typed(&schema::read_rows(schema), &[]).await?;
            rows.iter()
                .map(|row| {
                    Ok(RemoteRow {
                        id: row.try_get(0)?,
                        slug: row.try_get(1)?,
                        lang: row.try_get(2)?,
                        source_hash: row.try_get(3)?,
                    })
                })
                .collect::<Result<_, tokio_postgres::Error>>()
                .map(Answer::Rows)
        }
        Statement::Upsert(rows) => upsert(client, rows, schema).await,
        Statement::Delete(ids) => {
            let written = client
                .query_typed(
                    &schema::delete(schema),
                    &[(ids as &(dyn ToSql + Sync), Type::TEXT_ARRAY)],
                )
                .await?;
            ids_of(&written)
        }
    }
}

async fn upsert(
    client: &Client,
    rows: &[Row],
    schema: &str,
) -> Result<Answer, tokio_postgres::Error> {
    let text = |f: fn(&Row) -> &str| rows.iter().map(f).collect::<Vec<&str>>();
    let id = text(|r| &r.id);
    let kind = text(|r| r.kind);
    let slug = text(|r| &r.slug);
    let lang = text(|r| &r.lang);
    let published: Vec<Option<i64>> = rows.iter().map(|r| r.published_ms).collect();
    let updated: Vec<Option<i64>> = rows.iter().map(|r| r.updated_ms).collect();
    let title = text(|r| &r.title);
    let url = text(|r| &r.url);
    let description: Vec<Option<&str>> = rows.iter().map(|r| r.description.as_deref()).collect();
    let summary = text(|r| &r.summary);
    let body = text(|r| &r.body);
    let tags = text(|r| &r.tags);
    let translation_key = text(|r| &r.translation_key);
    let extra = text(|r| &r.extra);
    let source_hash = text(|r| &r.source_hash);
    let params: [(&(dyn ToSql + Sync), Type); 15] = [
        (&id, Type::TEXT_ARRAY),
        (&kind, Type::TEXT_ARRAY),
        (&slug, Type::TEXT_ARRAY),
        (&lang, Type::TEXT_ARRAY),
        (&published, Type::INT8_ARRAY),
        (&updated, Type::INT8_ARRAY),
        (&title, Type::TEXT_ARRAY),
        (&url, Type::TEXT_ARRAY),
        (&description, Type::TEXT_ARRAY),
        (&summary, Type::TEXT_ARRAY),
        (&body, Type::TEXT_ARRAY),
        (&tags, Type::TEXT_ARRAY),
        (&translation_key, Type::TEXT_ARRAY),
        (&extra, Type::TEXT_ARRAY),
        (&source_hash, Type::TEXT_ARRAY),
    ];
    let written = client.query_typed(&schema::upsert(schema), &params).await?;
    ids_of(&written)
}

fn ids_of(rows: &[tokio_postgres::Row]) -> Result<Answer, tokio_postgres::Error> {
    rows.iter()
        .map(|row| row.try_get(0))
        .collect::<Result<_, _>>()
        .map(Answer::Ids)
}

/// The server's errors that say "try again": a transaction that lost a
/// conflict (serialization failure, deadlock) or a server going away
/// (shutdown, crash, not accepting connections yet), and every
/// connection failure (class 08). What CockroachDB and YugabyteDB ask
/// their clients to retry is among them.
///
/// Also: a statement or lock wait over folio's timeout (`57014`, `55P03`),
/// a server full for now (`53300`), a primary that became a read-only
/// standby in a failover (`25006`: the next connection may find the new
/// primary), and a unique (slug, lang) that two publishes of the same
/// new row raced for (`23505`: the retry takes the `ON CONFLICT` path; a
/// real fork was refused by the guard before any write).
fn retryable_code(code: &str) -> bool {
    matches!(
        code,
        "40001"
            | "40P01"
            | "57P01"
            | "57P02"
            | "57P03"
            | "57P05"
            | "57014"
            | "55P03"
            | "53300"
            | "25006"
            | "23505"
    ) || code.starts_with("08")
}

/// Whether after this error the session is gone or in doubt.
fn ends_session(code: &str) -> bool {
    code.starts_with("08") || code.starts_with("57P") || code == "25006"
}

fn fault_of(e: tokio_postgres::Error) -> Fault {
    match e.as_db_error() {
        Some(db) => {
            let code = db.code().code().to_owned();
            let mut message = format!("{} (SQLSTATE {code})", db.message());
            if let Some(detail) = db.detail() {
                message.push_str(&format!("; {detail}"));
            }
            Fault {
                message,
                retryable: retryable_code(&code),
                lost: ends_session(&code),
                code: Some(code),
                help: None,
            }
        }
        None => {
            // A certificate refused now is refused on every try.
            let help = tls::refused_handshake(&e);
            // No answer from the server (the connection failed, dropped
            // or timed out) is worth another try; folio's own mistakes
            // (a missing password, a value it cannot read) are not.
            let network = help.is_none()
                && (e.is_closed()
                    || e.to_string() == "timeout waiting for server"
                    || e.to_string() == "unexpected message from server"
                    || std::error::Error::source(&e)
                        .is_some_and(|cause| cause.is::<std::io::Error>()));
            Fault {
                message: with_cause(&e),
                retryable: network,
                lost: network,
                code: None,
                help,
            }
        }
    }
}

/// The error and what caused it: tokio-postgres keeps the reason apart.
fn with_cause(e: &tokio_postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) if !e.to_string().contains(&cause.to_string()) => format!("{e}: {cause}"),
        _ => e.to_string(),
    }
}

fn backoff(first: Duration, attempt: u32) -> Duration {
    first
        .saturating_mul(1 << (attempt - 1).min(16))
        .min(MAX_BACKOFF)
}

/// `postgres://user@host:port/dbname`, from the parsed URL: the text the
/// user wrote (and the password in it) is never echoed.
fn display_name(config: &tokio_postgres::Config) -> String {
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(host)) => host.clone(),
        #[cfg(unix)]
        Some(tokio_postgres::config::Host::Unix(path)) => path.display().to_string(),
        None => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    let user = config.get_user().unwrap_or("");
    let dbname = config.get_dbname().unwrap_or(user);
    let at = if user.is_empty() { "" } else { "@" };
    format!("postgres://{user}{at}{host}:{port}/{dbname}")
}

/// The password as written in a URL (`postgres://user:PASSWORD@host`) or
/// in `password=…`, raw and percent-decoded, found from the text itself so
/// that even a URL PostgreSQL cannot read is scrubbed of it.
fn written_password(database: &str) -> Vec<String> {
    let mut found = Vec::new();
    if let Some((_, rest)) = database.split_once("://") {
        let authority = rest.split(['/', '?']).next().unwrap_or(rest);
        if let Some((userinfo, _)) = authority.rsplit_once('@')
            && let Some((_, password)) = userinfo.split_once(':')
        {
            found.push(password.to_owned());
            let decoded = percent_encoding::percent_decode_str(password).decode_utf8_lossy();
            found.push(decoded.into_owned());
        }
    }
    for word in database.split_whitespace() {
        if let Some(password) = word.strip_prefix("password=") {
            found.push(password.trim_matches('\'').to_owned());
        }
    }
    found
}

/// `text` with every secret replaced.
fn scrub(secrets: &[String], text: &str) -> String {
    secrets
        .iter()
        .filter(|s| !s.is_empty())
        .fold(text.to_owned(), |text, secret| {
            text.replace(secret.as_str(), "********")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_found_in_every_way_it_is_written() {
        assert_eq!(
            written_password("postgres://ann:p%40ss@db:5432/blog"),
            ["p%40ss", "p@ss"]
        );
        assert_eq!(
            written_password("host=db password=hunter2 user=ann"),
            ["hunter2"]
        );
        assert!(written_password("postgres://ann@db/blog").is_empty());
    }

    #[test]
    fn the_name_of_a_database_has_no_password() {
        let config: tokio_postgres::Config = "postgres://ann:hunter2@db.example:6543/blog"
            .parse()
            .unwrap();
        assert_eq!(display_name(&config), "postgres://ann@db.example:6543/blog");
    }

    #[test]
    fn only_what_may_succeed_again_is_retried() {
        for code in [
            "40001", "40P01", "57P01", "08006", "57014", "55P03", "23505",
        ] {
            assert!(retryable_code(code), "{code}");
        }
        for code in ["42P01", "42501", "28P01", "22021", "3D000"] {
            assert!(!retryable_code(code), "{code}");
        }
    }

    #[test]
    fn waits_double_up_to_a_bound() {
        let first = Duration::from_millis(100);
        assert_eq!(backoff(first, 1), Duration::from_millis(100));
        assert_eq!(backoff(first, 3), Duration::from_millis(400));
        assert_eq!(backoff(first, 30), MAX_BACKOFF);
    }
}
