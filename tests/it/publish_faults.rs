//! `folio publish` through a proxy that loses what the server said (see
//! tests/pg/proxy.rs): an answer dropped with its connection after the
//! server applied the statement, a retryable error in its place, one that
//! is not, an answer that never comes. Every statement of a publish is
//! idempotent on its own, so retrying it is enough: whatever reply is lost,
//! the table ends as a publish without faults leaves it.

use crate::pg;
use crate::util;

use std::time::Duration;

use folio::{PublishOptions, PublishReport, Session};
use pg::Database;
use pg::proxy::{Fault, Proxy};
use util::{TestSite, options, post};

/// Rows a statement: small, so that a publish of a few hundred documents
/// is a few dozen statements, each a reply to lose.
const BATCH_ROWS: usize = 10;

/// A site of 300 posts published once, then changed so that its next
/// publish deletes 30 rows, overwrites 100 and adds 50; the table as it
/// was is kept aside to start each trial from.
struct Scenario {
    site: TestSite,
    db: Database,
    /// The table after a publish without faults.
    expected: Vec<String>,
    /// The replies of a publish without faults, the startup's included.
    replies: usize,
}

impl Scenario {
    fn new(tag: &str) -> Scenario {
        let db = Database::fresh(tag);
        let site = TestSite::new();
        for i in 0..300 {
            site.write(
                &path(i),
                &post(&format!("Post {i}"), &date(i), &format!("Body {i}.")),
            );
        }
        run(&site, &db.options()).expect("the first publish");
        db.execute("CREATE TABLE public.published AS SELECT * FROM folio.posts");
        for i in 0..30 {
            site.remove(&path(i));
        }
        for i in 100..200 {
            site.write(
                &path(i),
                &post(
                    &format!("Post {i}"),
                    &date(i),
                    &format!("Body {i}, revised."),
                ),
            );
        }
        for i in 300..350 {
            site.write(
                &path(i),
                &post(&format!("Post {i}"), &date(i), &format!("Body {i}.")),
            );
        }
        site.build();
        let mut scenario = Scenario {
            site,
            db,
            expected: Vec::new(),
            replies: 0,
        };
        let proxy = Proxy::start(scenario.db.server.addr(), Fault::None);
        let report = scenario
            .publish(&proxy, |_| {})
            .expect("a publish without faults");
        assert_eq!((report.written.len(), report.deleted.len()), (150, 30));
        assert_eq!(report.retried_statements, 0);
        scenario.expected = scenario.db.rows();
        assert_eq!(scenario.expected.len(), 320);
        scenario.replies = proxy.replies();
        scenario.reset();
        scenario
    }

    /// The table as the first publish left it.
    fn reset(&self) {
        self.db.execute(
            "TRUNCATE folio.posts; INSERT INTO folio.posts SELECT * FROM public.published",
        );
    }

    fn publish(
        &self,
        proxy: &Proxy,
        set: impl FnOnce(&mut PublishOptions),
    ) -> Result<PublishReport, folio::Error> {
        let mut options = self.db.options_on(proxy.port());
        options.batch_rows = BATCH_ROWS;
        set(&mut options);
        run(&self.site, &options)
    }

    /// The table holds what a publish without faults writes, and no
    /// (slug, lang) twice.
    fn assert_converged(&self, what: &str) {
        assert_eq!(self.db.rows(), self.expected, "{what}");
        assert_eq!(
            self.db
                .count("SELECT count(DISTINCT (slug, lang)) FROM folio.posts"),
            self.expected.len() as i64,
            "{what}"
        );
    }
}

fn path(i: usize) -> String {
    format!("content/posts/p{i:03}.md")
}

fn date(i: usize) -> String {
    format!("2025-01-{:02}T{:02}:00:00Z", 1 + i % 28, i % 24)
}

/// The rows the database reports changed when the answer of reply `n`
/// was lost: its statement, sent again, finds its batch written and
/// changes nothing. The first three replies (startup, version, read) write
/// nothing.
fn changed_after_a_loss_at(n: usize) -> usize {
    180 - if n > 3 { BATCH_ROWS } else { 0 }
}

fn run(site: &TestSite, with: &PublishOptions) -> Result<PublishReport, folio::Error> {
    Session::open(site.site(), options(|_| {}))
        .expect("session opens")
        .publish(with)
}

#[test]
fn an_answer_lost_at_any_reply_is_retried_and_the_table_converges() {
    let scenario = Scenario::new("lost_answers");
    // Startup, version, the read, 3 deletes, 15 upserts.
    assert_eq!(scenario.replies, 21);
    for n in 1..=scenario.replies {
        let proxy = Proxy::start(scenario.db.server.addr(), Fault::DropAt(n));
        let report = scenario
            .publish(&proxy, |_| {})
            .unwrap_or_else(|e| panic!("reply {n} lost:\n{e}"));
        assert!(proxy.fired(), "reply {n}");
        scenario.assert_converged(&format!("reply {n} lost"));
        assert_eq!(report.retried_statements, 1, "reply {n}");
        // A startup lost is a connection that failed, not one lost.
        assert_eq!(report.reconnections, usize::from(n > 1), "reply {n}");
        assert_eq!(report.rows_changed, changed_after_a_loss_at(n), "reply {n}");
        scenario.reset();
    }
}

#[test]
fn a_retryable_error_is_retried_on_the_same_connection() {
    let scenario = Scenario::new("serialization_failures");
    // Every reply after the startup's: the statement was applied, and its
    // answer is a serialization failure instead.
    for n in 2..=scenario.replies {
        let fault = Fault::ErrorAt {
            reply: n,
            code: "40001",
            message: "could not serialize access due to concurrent update",
        };
        let proxy = Proxy::start(scenario.db.server.addr(), fault);
        let report = scenario
            .publish(&proxy, |_| {})
            .unwrap_or_else(|e| panic!("40001 at reply {n}:\n{e}"));
        assert!(proxy.fired());
        scenario.assert_converged(&format!("40001 at reply {n}"));
        assert_eq!((report.retried_statements, report.reconnections), (1, 0));
        assert_eq!(report.rows_changed, changed_after_a_loss_at(n), "reply {n}");
        scenario.reset();
    }
}

#[test]
fn an_error_that_would_happen_again_is_not_retried_and_says_what_was_written() {
    let scenario = Scenario::new("fatal_error");
    // The 8th reply answers the second batch of rows to write.
    let fault = Fault::ErrorAt {
        reply: 8,
        code: "42P01",
        message: "relation \"folio.posts\" does not exist",
    };
    let proxy = Proxy::start(scenario.db.server.addr(), fault);
    let error = scenario.publish(&proxy, |_| {}).expect_err("a fatal error");
    let message = error.to_string();
    assert!(proxy.fired());
    assert_eq!(proxy.replies(), 8, "a statement was sent after the error");
    assert!(
        message.contains(
            "writing rows failed: relation \"folio.posts\" does not exist (SQLSTATE 42P01)"
        ),
        "{message}"
    );
    assert!(
        message.contains("30 of 30 rows to delete were deleted and 10 of 150 rows to write were written before this statement; the rest was not"),
        "{message}"
    );
    assert!(message.contains("DROP SCHEMA folio CASCADE"), "{message}");
    // The next publish finishes the job. The proxy's error stood in for
    // the answer of a statement the server had applied: its batch is
    // there too.
    let proxy = Proxy::start(scenario.db.server.addr(), Fault::None);
    let report = scenario.publish(&proxy, |_| {}).unwrap();
    assert_eq!(report.written.len(), 130);
    scenario.assert_converged("after the next publish");
}

#[test]
fn a_publish_that_gives_up_is_finished_by_the_next() {
    let scenario = Scenario::new("gives_up");
    let proxy = Proxy::start(scenario.db.server.addr(), Fault::DropAt(10));
    let error = scenario
        .publish(&proxy, |o| o.attempts = 1)
        .expect_err("one try, lost");
    let message = error.to_string();
    assert!(message.contains("writing rows failed: "), "{message}");
    assert!(
        message.contains("and 30 of 150 rows to write were written before this statement (its answer was lost: the server may have applied it); the rest was not"),
        "{message}"
    );
    assert!(
        message.contains("publish again once the database answers"),
        "{message}"
    );
    let proxy = Proxy::start(scenario.db.server.addr(), Fault::None);
    scenario.publish(&proxy, |_| {}).unwrap();
    scenario.assert_converged("after the next publish");
}

#[test]
fn an_answer_that_never_comes_times_out_and_is_retried() {
    let scenario = Scenario::new("timeout");
    let proxy = Proxy::start(scenario.db.server.addr(), Fault::StallAt(12));
    let report = scenario
        .publish(&proxy, |o| o.timeout = Duration::from_secs(3))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(proxy.fired());
    assert_eq!((report.retried_statements, report.reconnections), (1, 1));
    scenario.assert_converged("after a timeout");
}
