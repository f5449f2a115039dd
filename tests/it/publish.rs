//! `folio publish` against a real PostgreSQL (see tests/pg): what it
//! writes, what it does not write again, and what it refuses.

use crate::pg;
use crate::util;

use folio::{Error, ProblemKind, PublishOptions, PublishReport, Session};
use pg::Database;
use util::{TestSite, options, post};

fn publish(site: &TestSite, with: &PublishOptions) -> Result<PublishReport, Error> {
    Session::open(site.site(), options(|_| {}))
        .expect("session opens")
        .publish(with)
}

fn published(site: &TestSite, db: &Database) -> PublishReport {
    publish(site, &db.options()).unwrap_or_else(|e| panic!("publish failed:\n{e}"))
}

/// A site with posts in three languages, a page, a draft and a post dated
/// after the suite's clock.
fn blog() -> TestSite {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/draft.md",
        "---\ntitle: Not yet\ndate: 2024-08-01\ndraft: true\n---\nDraft.\n",
    );
    site.write(
        "content/en/posts/future.md",
        &post("Later", "2030-01-01T00:00:00Z", "Not out yet."),
    );
    site
}

#[test]
fn a_first_publish_writes_every_published_document_as_its_pages_show_it() {
    let db = Database::fresh("first_publish");
    let site = blog();
    let report = published(&site, &db);
    // 5 posts and a page; the draft and the future post are not out.
    assert_eq!(report.documents, 6);
    assert_eq!(report.written.len(), 6);
    assert_eq!(report.rows_changed, 6);
    assert!(report.migrated);
    assert!(
        report.build.as_ref().is_some_and(|b| !b.written.is_empty()),
        "it built first"
    );
    let mut client = db.client();
    let rows = client
        .query(
            "SELECT id, kind, slug, lang, published_at::text, url, tags, body, title FROM folio.posts ORDER BY url",
            &[],
        )
        .unwrap();
    let urls: Vec<String> = rows.iter().map(|r| r.get(5)).collect();
    assert_eq!(
        urls,
        [
            "https://example.org/about/",
            "https://example.org/fr/posts/hello-world/",
            "https://example.org/fr/posts/third/",
            "https://example.org/ja/posts/hello-world/",
            "https://example.org/posts/hello-world/",
            "https://example.org/posts/second/",
        ]
    );
    let hello = rows
        .iter()
        .find(|r| {
            r.get::<_, String>(5).ends_with("/posts/hello-world/") && r.get::<_, String>(3) == "en"
        })
        .unwrap();
    // The test vector of DESIGN.md: the same id as the index's.
    assert_eq!(hello.get::<_, String>(0), "01HWSP3MM02BC0VWVKC580KT23");
    assert_eq!(hello.get::<_, String>(1), "post");
    assert_eq!(hello.get::<_, String>(4), "2024-05-01 09:00:00+00");
    let body: String = hello.get(7);
    assert_eq!(body, "<p>First paragraph.</p>\n<p>Second paragraph.</p>\n");
    // The same bytes as the page's.
    assert!(
        site.read("public/posts/hello-world/index.html")
            .contains(&body)
    );
    let second = rows
        .iter()
        .find(|r| r.get::<_, String>(2) == "second")
        .unwrap();
    assert_eq!(second.get::<_, Vec<String>>(6), ["a", "b"]);
    let about = rows
        .iter()
        .find(|r| r.get::<_, String>(2) == "about")
        .unwrap();
    assert_eq!(about.get::<_, String>(1), "page");
    assert_eq!(about.get::<_, Option<String>>(4), None);
    assert_eq!(
        db.count("SELECT count(*) FROM folio.schema_migrations WHERE version = 1"),
        1
    );
}

#[test]
fn a_publish_of_unchanged_documents_writes_no_row_and_one_edit_writes_one() {
    let db = Database::fresh("no_op_and_edit");
    let site = blog();
    published(&site, &db);
    let before = db.versions();
    let again = published(&site, &db);
    assert_eq!(
        (again.unchanged, again.written.len(), again.rows_changed),
        (6, 0, 0)
    );
    assert!(again.deleted.is_empty());
    // Version, then the read of every (id, source_hash): two statements.
    assert_eq!(again.statements, 2);
    assert_eq!(db.versions(), before, "a row was written again");

    site.write(
        "content/fr/posts/hello-world.md",
        &post(
            "Bonjour",
            "2024-05-01T09:00:00Z",
            "Premier paragraphe, revu.",
        ),
    );
    let edit = published(&site, &db);
    assert_eq!(edit.written, ["01HWSP3MM0WH8KC7X90Y5108NS"]);
    assert_eq!(edit.rows_changed, 1);
    let after = db.versions();
    let changed: Vec<&String> = after
        .keys()
        .filter(|id| before.get(*id) != after.get(*id))
        .collect();
    assert_eq!(changed, ["01HWSP3MM0WH8KC7X90Y5108NS"]);
    let body: String = db
        .client()
        .query_one(
            "SELECT body FROM folio.posts WHERE id = '01HWSP3MM0WH8KC7X90Y5108NS'",
            &[],
        )
        .unwrap()
        .get(0);
    assert_eq!(body, "<p>Premier paragraphe, revu.</p>\n");
}

#[test]
fn a_row_follows_its_site_settings_and_a_removed_or_withdrawn_document_is_deleted() {
    let db = Database::fresh("deletes");
    let site = blog();
    published(&site, &db);
    site.remove("content/ja/posts/hello-world.md");
    site.write(
        "content/posts/2024-06-12-second.md",
        "---\ntitle: Second\ntags: [a, b]\ndraft: true\n---\nThe second post.\n\nMore.\n",
    );
    let report = published(&site, &db);
    assert_eq!(report.deleted.len(), 2);
    assert_eq!(db.count("SELECT count(*) FROM folio.posts"), 4);
    assert_eq!(
        db.count("SELECT count(*) FROM folio.posts WHERE slug = 'second' OR lang = 'ja'"),
        0
    );
    // A site that publishes nothing does not empty the table.
    let empty = TestSite::new();
    let error = publish(&empty, &db.options()).expect_err("an empty site");
    assert!(
        error.to_string().contains(
            "the site publishes no document, and the database holds 4; folio does not empty it"
        ),
        "{error}"
    );
    assert_eq!(db.count("SELECT count(*) FROM folio.posts"), 4);
    // A setting that moves every URL rewrites every row, though no source
    // changed.
    site.write(
        "site.toml",
        &util::SITE_TOML.replace("https://example.org", "https://blog.example.net"),
    );
    let moved = published(&site, &db);
    assert_eq!(moved.written.len(), 4);
    assert_eq!(
        db.count("SELECT count(*) FROM folio.posts WHERE url LIKE 'https://blog.example.net/%'"),
        4
    );
}

/// The same sources in a fresh checkout: no local index, so only the
/// database knows what was published.
fn fresh_checkout_of(site: &TestSite) -> TestSite {
    let copy = TestSite::new();
    for (path, bytes) in TestSite::tree(&site.path("content")) {
        copy.write_bytes(&format!("content/{path}"), &bytes);
    }
    copy
}

#[test]
fn a_changed_date_is_refused_at_the_database_with_nothing_written() {
    let db = Database::fresh("remote_guard");
    let site = blog();
    published(&site, &db);
    let before = db.rows();
    let versions = db.versions();
    let checkout = fresh_checkout_of(&site);
    checkout.write(
        "content/fr/posts/hello-world.md",
        &post(
            "Bonjour",
            "2024-05-02T09:00:00Z",
            "Premier paragraphe.\n\nDeuxième.",
        ),
    );
    // An unrelated edit, which must not be written either.
    checkout.write("content/en/about.md", "---\ntitle: About\n---\nAbout it.\n");
    let error = publish(&checkout, &db.options()).expect_err("a forked post");
    let Error::Content(problems) = &error else {
        panic!("{error}")
    };
    assert_eq!(problems.len(), 1);
    assert_eq!(
        problems[0].path.to_str(),
        Some("content/fr/posts/hello-world.md")
    );
    let ProblemKind::PublishedUnderAnotherId(another) = &problems[0].kind else {
        panic!("{error}")
    };
    assert_eq!(
        (another.lang.as_str(), another.slug.as_str()),
        ("fr", "hello-world")
    );
    assert_eq!(
        (another.old.as_str(), another.new.as_str()),
        ("2024-05-01T09:00:00Z", "2024-05-02T09:00:00Z")
    );
    let message = error.to_string();
    assert!(
        message.contains("folio publish --accept-id-changes"),
        "{message}"
    );
    assert!(message.contains("nothing was written"), "{message}");
    assert_eq!(db.rows(), before);
    assert_eq!(db.versions(), versions);

    let mut accept = db.options();
    accept.accept_id_changes = true;
    let report = publish(&checkout, &accept).expect("an accepted change");
    assert_eq!(report.deleted, ["01HWSP3MM0WH8KC7X90Y5108NS"]);
    assert_eq!(
        db.count("SELECT count(*) FROM folio.posts WHERE slug = 'hello-world' AND lang = 'fr' AND published_at = '2024-05-02T09:00:00Z'"),
        1
    );
}

#[test]
fn two_posts_that_swapped_slugs_are_refused_at_the_database_each_named() {
    let db = Database::fresh("remote_guard_swap");
    let site = blog();
    site.write(
        "content/posts/alpha.md",
        &post("Alpha", "2024-03-01T00:00:00Z", "A."),
    );
    site.write(
        "content/posts/beta.md",
        &post("Beta", "2024-03-02T00:00:00Z", "B."),
    );
    published(&site, &db);
    let before = db.rows();
    let checkout = fresh_checkout_of(&site);
    let with_slug = |title: &str, date: &str, slug: &str| {
        format!(
            "---\ntitle: {title}\ndate: {date}\nslug: {slug}\n---\n{}.\n",
            &title[..1]
        )
    };
    checkout.write(
        "content/posts/alpha.md",
        &with_slug("Alpha", "2024-03-01T00:00:00Z", "beta"),
    );
    checkout.write(
        "content/posts/beta.md",
        &with_slug("Beta", "2024-03-02T00:00:00Z", "alpha"),
    );
    let error = publish(&checkout, &db.options()).expect_err("swapped slugs");
    let Error::Content(problems) = &error else {
        panic!("{error}")
    };
    let files: Vec<_> = problems.iter().filter_map(|p| p.path.to_str()).collect();
    assert_eq!(files, ["content/posts/alpha.md", "content/posts/beta.md"]);
    let message = error.to_string();
    assert!(
        message.contains("holds a post at (en, slug `beta`) published 2024-03-02T00:00:00Z, and this file, dated 2024-03-01T00:00:00Z, has that slug: its date changed, or it took another post's slug"),
        "{message}"
    );
    assert_eq!(db.rows(), before);

    let mut accept = db.options();
    accept.accept_id_changes = true;
    let report = publish(&checkout, &accept).expect("accepted moves");
    let counts = (
        report.deleted.len(),
        report.written.len(),
        report.rows_changed,
    );
    assert_eq!(counts, (2, 2, 4));
    assert_eq!(
        db.count("SELECT count(*) FROM folio.posts WHERE slug = 'beta' AND title = 'Alpha'"),
        1
    );
}

#[test]
fn a_post_moved_to_a_later_date_is_refused_too_not_withdrawn() {
    let db = Database::fresh("remote_guard_future");
    let site = blog();
    published(&site, &db);
    let before = db.rows();
    let checkout = fresh_checkout_of(&site);
    // After the suite's clock: the post would leave the site until then,
    // and come back under another id.
    checkout.write(
        "content/ja/posts/hello-world.md",
        &post("こんにちは", "2031-05-01T09:00:00Z", "最初の段落。"),
    );
    let error = publish(&checkout, &db.options()).expect_err("a forked post");
    assert!(
        error
            .to_string()
            .contains("content/ja/posts/hello-world.md"),
        "{error}"
    );
    assert_eq!(db.rows(), before);
}

#[test]
fn a_nul_written_as_an_escape_is_published_as_a_replacement_character() {
    let db = Database::fresh("nul");
    let site = TestSite::new();
    site.write(
        "content/en/posts/zero.md",
        "---\ntitle: \"Nul\\0here\"\ndate: 2024-01-01\ntags: [\"a\\0b\"]\nmood: \"x\\0y\"\n---\nBody.\n",
    );
    let report = published(&site, &db);
    assert_eq!(report.written.len(), 1);
    let row = db
        .client()
        .query_one("SELECT title, tags, extra->>'mood' FROM folio.posts", &[])
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "Nul\u{FFFD}here");
    assert_eq!(row.get::<_, Vec<String>>(1), ["a\u{FFFD}b"]);
    assert_eq!(row.get::<_, String>(2), "x\u{FFFD}y");
}

#[test]
fn a_statement_given_up_on_is_not_left_running_to_land_later() {
    let db = Database::fresh("orphans");
    let site = blog();
    published(&site, &db);
    site.write("content/en/about.md", "---\ntitle: About\n---\nAbout it.\n");
    // Another program holds the row the publish must write.
    let mut holder = db.client();
    let mut hold = holder.transaction().unwrap();
    hold.execute(
        "SELECT 1 FROM folio.posts WHERE slug = 'about' AND lang = 'en' FOR UPDATE",
        &[],
    )
    .unwrap();
    let mut options = db.options();
    options.timeout = std::time::Duration::from_secs(1);
    options.attempts = 2;
    let error = publish(&site, &options).expect_err("the row stays locked");
    let message = error.to_string();
    assert!(
        message.contains("writing rows failed after 2 tries"),
        "{message}"
    );
    // The lock wait and the statement are both bounded by the timeout:
    // either may end it first.
    assert!(
        message.contains("(SQLSTATE 57014)") || message.contains("(SQLSTATE 55P03)"),
        "{message}"
    );
    assert!(
        message.contains(
            "; 0 of 1 rows to write were written before this statement; the rest was not"
        ),
        "{message}"
    );
    // The server ended each try: nothing of folio's waits to land once
    // the lock is gone.
    assert_eq!(
        db.count("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'folio publish' AND state <> 'idle'"),
        0
    );
    let before = db.rows();
    hold.rollback().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(db.rows(), before);
    let report = published(&site, &db);
    assert_eq!(report.rows_changed, 1);
}

#[test]
fn a_dry_run_reads_the_database_and_writes_nothing_anywhere() {
    let db = Database::fresh("dry_run");
    let site = blog();
    let mut dry = db.options();
    dry.dry_run = true;
    // Nothing published yet: no schema is made.
    let report = publish(&site, &dry).unwrap();
    assert_eq!(report.written.len(), 6);
    assert!(report.build.is_none() && !site.out().exists());
    assert_eq!(
        db.count("SELECT count(*) FROM pg_namespace WHERE nspname = 'folio'"),
        0
    );
    published(&site, &db);
    site.remove("content/en/about.md");
    let before = db.rows();
    let report = publish(&site, &dry).unwrap();
    assert_eq!((report.written.len(), report.deleted.len()), (0, 1));
    assert_eq!(db.rows(), before);
    assert!(
        site.out().join("about/index.html").exists(),
        "the dry run deleted nothing"
    );
}

#[test]
fn a_role_that_may_not_write_is_told_so_once_and_what_to_grant() {
    let db = Database::fresh("permission");
    let site = blog();
    published(&site, &db);
    db.execute(
        "DROP ROLE IF EXISTS folio_reader; CREATE ROLE folio_reader LOGIN PASSWORD 'reader'; \
         GRANT USAGE ON SCHEMA folio TO folio_reader; \
         GRANT SELECT ON folio.posts, folio.schema_migrations TO folio_reader;",
    );
    site.write("content/en/about.md", "---\ntitle: About\n---\nAbout it.\n");
    let mut reader = PublishOptions::new(format!(
        "postgres://folio_reader@127.0.0.1:{}/{}",
        db.server.port, db.name
    ));
    reader.password = Some("reader".into());
    let error = publish(&site, &reader).expect_err("no right to write");
    let message = error.to_string();
    assert!(
        message.contains("permission denied for table posts (SQLSTATE 42501)"),
        "{message}"
    );
    // Not retried: the first refusal is the answer.
    assert!(!message.contains("tries"), "{message}");
    assert!(
        message.contains("0 of 1 rows to write were written"),
        "{message}"
    );
    assert!(
        message.contains(
            "grant this one USAGE on it, SELECT on `folio.schema_migrations`, and SELECT, INSERT, UPDATE, DELETE on `folio.posts`"
        ),
        "{message}"
    );
}

#[test]
fn four_publishes_of_one_site_at_once_converge() {
    let db = Database::fresh("concurrent");
    let site = blog();
    for i in 0..120 {
        site.write(
            &format!("content/posts/p{i:03}.md"),
            &post(
                &format!("Post {i}"),
                "2025-01-01T00:00:00Z",
                &format!("Body {i}."),
            ),
        );
    }
    // Built first, so that the publishes, not their builds, overlap.
    let checkouts: Vec<TestSite> = (0..4).map(|_| fresh_checkout_of(&site)).collect();
    for checkout in &checkouts {
        checkout.build();
    }
    let runs: Vec<std::process::Child> = checkouts
        .iter()
        .map(|checkout| {
            util::folio_command()
                .args(["publish", "--database", &db.url()])
                .env("PGPASSWORD", &db.server.password)
                .current_dir(checkout.root())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("folio runs")
        })
        .collect();
    for run in runs {
        let output = run.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", util::stderr(&output));
    }
    let together = db.rows();
    assert_eq!(together.len(), 126);
    let alone = Database::fresh("concurrent_alone");
    published(&site, &alone);
    assert_eq!(together, alone.rows());
}

#[test]
fn the_password_appears_in_no_output_and_no_error() {
    let db = Database::fresh("secret");
    let secret = "Tr0ub4dor-and-3";
    db.execute(&format!(
        "DROP ROLE IF EXISTS folio_writer; CREATE ROLE folio_writer LOGIN PASSWORD '{secret}'; \
         GRANT CREATE ON DATABASE {} TO folio_writer;",
        db.name
    ));
    let site = blog();
    let port = db.server.port;
    let name = &db.name;
    let url = |password: &str, port: &str| {
        format!("postgres://folio_writer:{password}@127.0.0.1:{port}/{name}")
    };
    let runs: Vec<(Vec<String>, Option<&str>, bool)> = vec![
        // Published, with the password in the URL, then from PGPASSWORD.
        (
            vec![
                "--database".into(),
                url(secret, &port.to_string()),
                "--json".into(),
            ],
            None,
            true,
        ),
        (
            vec![
                "--database".into(),
                format!("postgres://folio_writer@127.0.0.1:{port}/{name}"),
            ],
            Some(secret),
            true,
        ),
        // A wrong password: the server's refusal.
        (
            vec![
                "--database".into(),
                url(&format!("{secret}x"), &port.to_string()),
            ],
            None,
            false,
        ),
        // Nothing listening.
        (vec!["--database".into(), url(secret, "1")], None, false),
        (
            vec![
                "--database".into(),
                format!("postgres://folio_writer@127.0.0.1:1/{name}"),
            ],
            Some(secret),
            false,
        ),
        // A password with an `@` written as is: read as part of the host.
        (
            vec![
                "--database".into(),
                format!("postgres://folio_writer:pre@{secret}@127.0.0.1:{port}/{name}"),
            ],
            None,
            false,
        ),
        // A server certificate refused, and TLS settings refused.
        (
            vec![
                "--database".into(),
                format!("{}?sslmode=verify-full", url(secret, &port.to_string())),
            ],
            None,
            false,
        ),
        (
            vec![
                "--database".into(),
                format!("{}?sslmode=verify-fll", url(secret, &port.to_string())),
            ],
            None,
            false,
        ),
        (
            vec![
                "--database".into(),
                format!("host=127.0.0.1 sslmode=verify-ca password={secret}"),
            ],
            None,
            false,
        ),
        // A URL PostgreSQL cannot read.
        (
            vec!["--database".into(), url(secret, "not-a-port")],
            None,
            false,
        ),
        (
            vec![
                "--database".into(),
                format!("host=127.0.0.1 port=x password={secret}"),
            ],
            None,
            false,
        ),
    ];
    for (args, pgpassword, succeeds) in runs {
        let mut command = util::folio_command();
        command.arg("publish").args(&args).current_dir(site.root());
        command.env_remove("PGPASSWORD").env_remove("DATABASE_URL");
        if let Some(password) = pgpassword {
            command.env("PGPASSWORD", password);
        }
        let output = command.output().unwrap();
        let (out, err) = (util::stdout(&output), util::stderr(&output));
        assert_eq!(output.status.success(), succeeds, "{args:?}\n{out}\n{err}");
        assert!(
            !out.contains(secret) && !err.contains(secret),
            "{args:?} showed the password:\n{out}\n{err}"
        );
        assert!(
            !out.contains("Tr0ub4dor") && !err.contains("Tr0ub4dor"),
            "{args:?}:\n{out}\n{err}"
        );
        if args.iter().any(|a| a == "--json") {
            let report: serde_json::Value = serde_json::from_str(&out).expect("a JSON report");
            assert_eq!(report["written"].as_array().map(Vec::len), Some(6), "{out}");
            assert_eq!(
                report["database"],
                format!("postgres://folio_writer@127.0.0.1:{port}/{name}")
            );
        }
        if !succeeds {
            assert!(err.starts_with("error: "), "{err}");
            assert!(err.contains("= help: "), "{err}");
        }
    }
}

#[test]
fn the_database_comes_from_the_flag_the_environment_or_site_toml() {
    let db = Database::fresh("url_sources");
    let site = blog();
    let run = |args: &[&str], env: Option<&str>| {
        let mut command = util::folio_command();
        command.arg("publish").args(args).current_dir(site.root());
        command
            .env("PGPASSWORD", &db.server.password)
            .env_remove("DATABASE_URL");
        if let Some(url) = env {
            command.env("DATABASE_URL", url);
        }
        command.output().unwrap()
    };
    let nowhere = run(&[], None);
    assert!(!nowhere.status.success());
    assert!(
        util::stderr(&nowhere).contains("pass --database postgres://"),
        "{}",
        util::stderr(&nowhere)
    );
    let from_env = run(&[], Some(&db.url()));
    assert!(from_env.status.success(), "{}", util::stderr(&from_env));
    assert!(
        util::stdout(&from_env).contains("6 written"),
        "{}",
        util::stdout(&from_env)
    );
    site.write(
        "site.toml",
        &format!(
            "{}\n[publish]\ndatabase = \"{}\"\nschema = \"blog\"\n",
            util::SITE_TOML,
            db.url()
        ),
    );
    let from_toml = run(&[], None);
    assert!(from_toml.status.success(), "{}", util::stderr(&from_toml));
    assert!(
        util::stdout(&from_toml).contains("(schema blog): 0 unchanged, 6 written"),
        "{}",
        util::stdout(&from_toml)
    );
    // The flag comes first: a database that does not exist.
    let wrong = format!(
        "postgres://{}@127.0.0.1:{}/folio_no_such_db",
        db.server.user, db.server.port
    );
    let flag = run(&["--database", &wrong], Some(&db.url()));
    assert!(
        util::stderr(&flag).contains("folio_no_such_db"),
        "{}",
        util::stderr(&flag)
    );
    assert!(
        util::stderr(&flag).contains("(SQLSTATE 3D000)"),
        "{}",
        util::stderr(&flag)
    );
}
