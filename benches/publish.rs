//! `folio publish` of 5,000 posts × en, fr, de against PostgreSQL's own
//! `COPY` of the same rows into the same table, in the same run:
//!
//!     pg_virtualenv -t cargo bench --bench publish -- [SITE [ROUNDS]]
//!
//! The server is the tests' (tests/pg: the one PGHOST, PGPORT, PGUSER and
//! PGPASSWORD name, which pg_virtualenv sets); the bench makes the database
//! `folio_bench` anew. SITE is a generated corpus as for the rebuild bench, generated
//! when absent. Each round, interleaved so that all four go through the
//! same minutes of a noisy machine:
//! - first: the table emptied, then `Session::publish` of every row (the
//!   site already built: its no-op build is included, and shown apart);
//! - COPY: the table emptied, then `COPY … FROM STDIN (FORMAT binary)` of
//!   the rows the publishes wrote, dumped with `COPY … TO`; both in the
//!   clear (`sslmode=disable`), as the reference client speaks;
//! - first over TLS: the first publish again, with `sslmode=require`
//!   (the test cluster's TLS);
//! - no-op: nothing changed; its one read of (id, source_hash) shown apart;
//! - one edit: a sentence appended to the middle English post, then a
//!   publish, which must write exactly one row.
//!
//! Then the peak memory of the `folio` binary: a cold `folio build` of a
//! fresh copy, and a first `folio publish` of the built site into the
//! emptied table (GNU time's maximum resident set size).

use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use folio::{BuildOptions, PublishOptions, Session, Site};

mod common;
#[path = "../tests/pg/mod.rs"]
mod pg;
use common::{append_sentence, args, copy_site, corpus, median, middle_english_post, ms, scratch};
use pg::Database;

/// 2026-01-01T00:00:00Z, after every post the generator dates.
const NOW_MS: i64 = 1_767_225_600_000;

fn main() {
    let args = args();
    // A plain `cargo bench` runs every bench: this one says what it needs
    // instead of failing the others' run.
    if std::env::var_os("PGHOST").is_none() {
        eprintln!(
            "the publish bench needs a PostgreSQL server: run `pg_virtualenv -t cargo bench --bench publish`"
        );
        return;
    }
    let server = Server::fresh();
    let scratch = scratch("folio-publish-");
    let corpus = corpus(&args, scratch.path());
    let rounds: usize = args
        .get(1)
        .map_or(7, |n| n.parse().expect("ROUNDS is a number"));
    let site = copy_site(&corpus, &scratch.path().join("site"));
    let mut session =
        Session::open(Site::open(&site).unwrap(), BuildOptions::new(NOW_MS)).expect("a session");
    session.build().expect("the cold build");
    let options = server.publish_options("disable");
    let over_tls = server.publish_options("require");
    let first = session.publish(&options).expect("the first publish");
    eprintln!("{} documents", first.documents);
    let mut rows = server.dump();
    let post = middle_english_post(&site);
    let rel = post.strip_prefix(&site).unwrap().to_owned();

    let mut times: [Vec<f64>; 7] = Default::default();
    println!("round  first ms (build)  COPY ms  TLS first ms  no-op ms (read)  one edit ms");
    for round in 0..rounds {
        server.empty();
        let started = Instant::now();
        let report = session.publish(&options).expect("a first publish");
        let first = ms(started);
        let build = report.build.as_ref().map_or(0, |b| b.elapsed_ms) as f64;
        assert_eq!(report.written.len(), report.documents);

        server.empty();
        let copy = server.copy_in(&rows);

        server.empty();
        let started = Instant::now();
        session
            .publish(&over_tls)
            .expect("a first publish over TLS");
        let tls = ms(started);

        let started = Instant::now();
        let report = session.publish(&options).expect("a no-op publish");
        let no_op = ms(started);
        assert!(report.written.is_empty() && report.deleted.is_empty());
        let read = report.read_ms as f64;

        append_sentence(&post, round);
        let started = Instant::now();
        session.rebuild(&[&rel]).expect("the edit's build");
        let report = session.publish(&options).expect("a publish of one edit");
        let edit = ms(started);
        assert_eq!(report.rows_changed, 1, "one edit writes one row");
        // The rows COPY writes next round, and the no-op finds, are the
        // site's as it now is.
        rows = server.dump();

        println!(
            "{round:>5}  {first:>8.0} ({build:>4.0})  {copy:>7.0}  {tls:>12.0}  {no_op:>8.1} ({read:>4.1})  {edit:>11.1}"
        );
        for (at, value) in [first, build, copy, tls, no_op, read, edit]
            .into_iter()
            .enumerate()
        {
            times[at].push(value);
        }
    }
    let [first, build, copy, tls, no_op, read, edit] = times.map(median);
    println!(
        "median {first:>8.0} ({build:>4.0})  {copy:>7.0}  {tls:>12.0}  {no_op:>8.1} ({read:>4.1})  {edit:>11.1}"
    );
    println!("first publish ÷ COPY: {:.2}x", first / copy);
    println!("first publish over TLS ÷ in the clear: {:.2}x", tls / first);
    peak_memory(&corpus, scratch.path(), &server);
}

/// The peak resident memory of a cold `folio build` and of a first `folio
/// publish` of the built site.
fn peak_memory(corpus: &Path, scratch: &Path, server: &Server) {
    let site = copy_site(corpus, &scratch.join("memory"));
    let build = max_rss(
        Command::new(env!("CARGO_BIN_EXE_folio"))
            .args(["build", "--root"])
            .arg(&site),
    );
    server.empty();
    let publish = max_rss(
        Command::new(env!("CARGO_BIN_EXE_folio"))
            .args(["publish", "--database", &server.url("disable"), "--root"])
            .arg(&site),
    );
    println!("peak memory: folio build (cold) {build} MB, folio publish (first) {publish} MB");
}

fn max_rss(command: &mut Command) -> u64 {
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(command.get_program())
        .args(command.get_args())
        .env("SOURCE_DATE_EPOCH", (NOW_MS / 1000).to_string())
        .output()
        .expect("GNU time runs (apt-get install time)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    let kb: u64 = stderr.lines().last().unwrap().trim().parse().unwrap();
    kb / 1024
}

/// The bench's database, on the tests' server (tests/pg), with what only
/// the bench does to it.
struct Server {
    db: Database,
}

impl Server {
    fn fresh() -> Server {
        Server {
            db: Database::fresh("bench"),
        }
    }

    fn url(&self, sslmode: &str) -> String {
        let port = self.db.server.port;
        self.db
            .url_at("127.0.0.1", port, &format!("?sslmode={sslmode}"))
    }

    fn publish_options(&self, sslmode: &str) -> PublishOptions {
        let mut options = PublishOptions::new(self.url(sslmode));
        options.password = Some(self.db.server.password.clone());
        options
    }

    fn empty(&self) {
        self.db.execute("TRUNCATE folio.posts");
    }

    fn dump(&self) -> Vec<u8> {
        let mut rows = Vec::new();
        self.db
            .client()
            .copy_out("COPY folio.posts TO STDOUT (FORMAT binary)")
            .unwrap()
            .read_to_end(&mut rows)
            .unwrap();
        rows
    }

    /// Times `COPY … FROM STDIN` of `rows`, from the statement to its
    /// commit.
    fn copy_in(&self, rows: &[u8]) -> f64 {
        let mut client = self.db.client();
        let started = Instant::now();
        let mut writer = client
            .copy_in("COPY folio.posts FROM STDIN (FORMAT binary)")
            .unwrap();
        writer.write_all(rows).unwrap();
        writer.finish().unwrap();
        ms(started)
    }
}
