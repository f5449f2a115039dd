//! `folio publish`: the options the library is handed (from the flags, the
//! environment libpq would read, site.toml), and its report printed.

use std::path::PathBuf;

use folio::{BuildOptions, Site};

use super::build::summary;
use super::{now_ms, says_waits};

/// `folio publish`: the database from the flag, the environment or
/// site.toml, in that order; a password the URL lacks from PGPASSWORD.
pub(crate) fn publish(
    root: PathBuf,
    database: Option<String>,
    json: bool,
    (dry_run, accept_id_changes): (bool, bool),
) -> Result<(), folio::Error> {
    let site = Site::open(root)?;
    let database = database
        .or_else(|| std::env::var("DATABASE_URL").ok())
        .or_else(|| site.config().publish.database.clone())
        .ok_or_else(|| folio::Error::Environment {
            variable: "DATABASE_URL",
            message: "folio publish has no database to write to".into(),
            help: "pass --database postgres://USER@HOST:PORT/DATABASE, set DATABASE_URL, or set `database` under `[publish]` in site.toml".into(),
        })?;
    let mut build_options = BuildOptions::new(now_ms()?);
    build_options.accept_id_changes = accept_id_changes;
    build_options.observer = Some(says_waits());
    let mut options = folio::PublishOptions::new(database);
    options.password = std::env::var("PGPASSWORD").ok();
    // As libpq, the environment's TLS settings, where the URL has none.
    for (key, variable) in [("sslmode", "PGSSLMODE"), ("sslrootcert", "PGSSLROOTCERT")] {
        if let Ok(value) = std::env::var(variable) {
            options.tls_defaults.push((key.to_owned(), value));
        }
    }
    options.dry_run = dry_run;
    options.accept_id_changes = accept_id_changes;
    let mut session = folio::Session::open(site, build_options)?;
    let report = session.publish(&options)?;
    for warning in report.build.iter().flat_map(|build| &build.warnings) {
        eprintln!("warning: {warning}");
    }
    if json {
        out!(
            "{}",
            serde_json::to_string_pretty(&report).expect("a report always serializes")
        );
        return Ok(());
    }
    if let Some(build) = &report.build {
        out!("{}", summary(build));
    }
    let (verb, would) = match report.dry_run {
        true => ("would publish", "would be "),
        false => ("published", ""),
    };
    out!(
        "{verb} {} documents to {} (schema {}): {} unchanged, {} {would}written, {} {would}deleted",
        report.documents,
        report.database,
        report.schema,
        report.unchanged,
        report.written.len(),
        report.deleted.len()
    );
    out!(
        "  {} statements, {} retried, {} reconnections; stored rows read in {} ms; {:.2}s in all",
        report.statements,
        report.retried_statements,
        report.reconnections,
        report.read_ms,
        report.elapsed_ms as f64 / 1000.0
    );
    Ok(())
}
