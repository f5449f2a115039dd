//! `folio publish` over TLS, read from the URL as libpq reads it: the test
//! server's own TLS (Debian's cluster, with the machine's self-signed
//! certificate), and a TLS front with a certificate authority of the
//! test's own for what that certificate cannot show (a host name that
//! matches, a server that refuses TLS). See tests/pg/tls.rs.

use crate::pg;
use crate::util;

use folio::{Error, PublishOptions, PublishReport, Session};
use pg::Database;
use pg::tls::{Authority, Began, Sniffer, TlsFront, server_certificate};
use util::{TestSite, options};

fn publish(site: &TestSite, with: &PublishOptions) -> Result<PublishReport, Error> {
    Session::open(site.site(), options(|_| {}))
        .expect("session opens")
        .publish(with)
}

fn published(site: &TestSite, db: &Database, url: String) -> PublishReport {
    publish(site, &db.options_for(url.clone()))
        .unwrap_or_else(|e| panic!("publish to {url} failed:\n{e}"))
}

/// The message of a publish to `url` that must fail, once: a refused
/// certificate is refused on every try, so none is retried.
fn refused(site: &TestSite, db: &Database, url: String) -> String {
    let error = publish(site, &db.options_for(url.clone()))
        .expect_err(&format!("{url} is refused"))
        .to_string();
    assert!(!error.contains("tries"), "retried:\n{error}");
    error
}

#[test]
fn tls_is_asked_for_and_taken_unless_the_url_says_disable() {
    let db = Database::fresh("tls_default");
    let site = TestSite::with_posts();
    server_certificate(&db);
    let sniffer = Sniffer::start(db.server.addr());
    // libpq's default, prefer: TLS when the server offers it.
    let report = published(&site, &db, db.url_at("127.0.0.1", sniffer.port(), ""));
    assert_eq!(report.rows_changed, report.documents);
    let url = db.url_at("127.0.0.1", sniffer.port(), "?sslmode=require");
    site.write(
        "content/posts/new.md",
        &util::post("New", "2024-09-01T00:00:00Z", "New."),
    );
    assert_eq!(published(&site, &db, url).rows_changed, 1);
    let began = sniffer.began();
    assert!(
        !began.is_empty() && began.iter().all(|b| *b == Began::Tls),
        "{began:?}"
    );
    let url = db.url_at("127.0.0.1", sniffer.port(), "?sslmode=disable");
    published(&site, &db, url);
    assert_eq!(sniffer.began().last(), Some(&Began::InTheClear));
}

#[test]
fn verify_ca_trusts_the_authority_it_is_given_and_no_other() {
    let db = Database::fresh("tls_verify_ca");
    let site = TestSite::with_posts();
    let certificate = server_certificate(&db);
    let root = certificate.display();
    // The server's certificate is made for its machine's name, not for
    // 127.0.0.1: verify-ca does not ask.
    let trusted = db.url_at(
        "127.0.0.1",
        db.server.port,
        &format!("?sslmode=verify-ca&sslrootcert={root}"),
    );
    let report = published(&site, &db, trusted);
    assert_eq!(report.rows_changed, report.documents);
    // As libpq: require with a file of trusted certificates checks against it.
    let stranger = Authority::new("stranger");
    let untrusted = db.url_at(
        "127.0.0.1",
        db.server.port,
        &format!("?sslmode=require&sslrootcert={}", stranger.pem.display()),
    );
    let error = refused(&site, &db, untrusted);
    assert!(error.contains("UnknownIssuer"), "{error}");
    assert!(
        error.contains("not signed by an authority folio trusts: give sslrootcert the PEM file"),
        "{error}"
    );
    // verify-full asks for the name too.
    let named = db.url_at(
        "127.0.0.1",
        db.server.port,
        &format!("?sslmode=verify-full&sslrootcert={root}"),
    );
    let error = refused(&site, &db, named);
    assert!(
        error.contains("made for another host name: connect to the name it was made for"),
        "{error}"
    );
    // With no file, verify-full trusts the public authorities, which did
    // not sign a self-signed certificate.
    let public = db.url_at("127.0.0.1", db.server.port, "?sslmode=verify-full");
    assert!(refused(&site, &db, public).contains("UnknownIssuer"));
}

#[test]
fn verify_full_takes_a_certificate_made_for_the_host_it_connects_to() {
    let db = Database::fresh("tls_verify_full");
    let site = TestSite::with_posts();
    let authority = Authority::new("folio-test-ca");
    let front = TlsFront::start(
        db.server.addr(),
        Some(authority.server(&["localhost", "127.0.0.1"])),
    );
    let query = format!(
        "?sslmode=verify-full&sslrootcert={}",
        authority.pem.display()
    );
    let report = published(&site, &db, db.url_at("localhost", front.port(), &query));
    assert_eq!(report.rows_changed, report.documents);
    let protocols = front.protocols();
    assert!(!protocols.is_empty(), "no TLS session");
    assert!(
        protocols
            .iter()
            .all(|p| p.as_deref() == Some(b"postgresql".as_slice())),
        "{protocols:?}"
    );
    // A relative sslrootcert is read from the site's root.
    std::fs::copy(&authority.pem, site.root().join("ca.pem")).expect("copied");
    let relative = db.url_at(
        "127.0.0.1",
        front.port(),
        "?sslmode=verify-full&sslrootcert=ca.pem",
    );
    published(&site, &db, relative);

    let only_localhost = TlsFront::start(db.server.addr(), Some(authority.server(&["localhost"])));
    let at_address = |mode: &str| {
        db.url_at(
            "127.0.0.1",
            only_localhost.port(),
            &format!("?sslmode={mode}&sslrootcert={}", authority.pem.display()),
        )
    };
    let error = refused(&site, &db, at_address("verify-full"));
    assert!(
        error.contains("certificate not valid for name \"127.0.0.1\""),
        "{error}"
    );
    published(&site, &db, at_address("verify-ca"));
}

#[test]
fn require_refuses_a_server_without_tls_and_prefer_goes_on_without() {
    let db = Database::fresh("tls_refused");
    let site = TestSite::with_posts();
    let front = TlsFront::start(db.server.addr(), None);
    let error = refused(
        &site,
        &db,
        db.url_at("127.0.0.1", front.port(), "?sslmode=require"),
    );
    assert!(error.contains("server does not support TLS"), "{error}");
    assert!(
        error.contains("have `ssl = on` set in its postgresql.conf"),
        "{error}"
    );
    assert_eq!(
        db.count("SELECT count(*) FROM pg_namespace WHERE nspname = 'folio'"),
        0
    );
    let report = published(&site, &db, db.url_at("127.0.0.1", front.port(), ""));
    assert_eq!(report.rows_changed, report.documents);
}

#[test]
fn tls_settings_folio_cannot_honour_are_refused_before_connecting() {
    let db = Database::fresh("tls_settings");
    let site = TestSite::with_posts();
    let settings = [
        ("?sslmode=verify_full", "did you mean `verify-full`?"),
        (
            "?sslmode=verify-ca",
            "sslmode=verify-ca needs the certificate of the authority",
        ),
        (
            "?sslcert=me.pem&sslkey=me.key",
            "sends no certificate of its own",
        ),
        (
            "?sslmode=verify-full&sslrootcert=nowhere.pem",
            "nowhere.pem: cannot read it",
        ),
        (
            "?sslmode=require&sslrootcert=system",
            "sslmode=require would not",
        ),
    ];
    // Nothing listens on port 1: a setting that got as far as connecting
    // would fail otherwise.
    for (query, expected) in settings {
        let error = refused(&site, &db, db.url_at("127.0.0.1", 1, query));
        assert!(error.contains(expected), "{query}:\n{error}");
        assert!(!error.contains("connect"), "{query} connected:\n{error}");
    }
}

#[test]
fn a_certificate_expired_or_made_as_an_authority_is_refused_under_verify_ca() {
    let db = Database::fresh("tls_expired");
    let site = TestSite::with_posts();
    let authority = Authority::new("folio-test-ca");
    let root = format!("sslrootcert={}", authority.pem.display());
    let expired = TlsFront::start(
        db.server.addr(),
        Some(authority.server_until(&["localhost"], 2001)),
    );
    let url = db.url_at(
        "127.0.0.1",
        expired.port(),
        &format!("?sslmode=verify-ca&{root}"),
    );
    let error = refused(&site, &db, url);
    assert!(
        error.contains("the server's certificate has expired"),
        "{error}"
    );
    let own = TlsFront::start(
        db.server.addr(),
        Some(authority.server_with_its_own_certificate()),
    );
    let url = db.url_at(
        "127.0.0.1",
        own.port(),
        &format!("?sslmode=verify-ca&{root}"),
    );
    let error = refused(&site, &db, url);
    assert!(
        error.contains("presents a CA certificate as its own"),
        "{error}"
    );
    // Not checked, as libpq: both are taken under require.
    for front in [&expired, &own] {
        let url = db.url_at("127.0.0.1", front.port(), "?sslmode=require");
        published(&site, &db, url);
    }
}

#[test]
fn words_and_a_bare_address_are_read_as_libpq_reads_them() {
    let db = Database::fresh("tls_words");
    let site = TestSite::with_posts();
    server_certificate(&db);
    let without_tls = TlsFront::start(db.server.addr(), None);
    let (user, name) = (&db.server.user, &db.name);
    // A `://` in a value does not make words a URL, whose sslmode would
    // go unread.
    let words = format!(
        "host=127.0.0.1 port={} user={user} dbname={name} application_name=http://x sslmode=require",
        without_tls.port()
    );
    assert!(refused(&site, &db, words).contains("server does not support TLS"));
    // An address alone: TLS under the default, told the address as name.
    let sniffer = Sniffer::start(db.server.addr());
    let words = format!(
        "hostaddr=127.0.0.1 port={} user={user} dbname={name}",
        sniffer.port()
    );
    let report = published(&site, &db, words.clone());
    assert_eq!(report.rows_changed, report.documents);
    assert!(
        sniffer.began().iter().all(|b| *b == Began::Tls),
        "{:?}",
        sniffer.began()
    );
    let error = refused(&site, &db, format!("{words} sslmode=verify-full"));
    assert!(error.contains("add host=NAME"), "{error}");
}

#[test]
fn the_cli_reads_pgsslmode_where_the_url_names_no_sslmode() {
    let db = Database::fresh("tls_environment");
    let site = TestSite::with_posts();
    let without_tls = TlsFront::start(db.server.addr(), None);
    let run = |query: &str| {
        let mut command = util::folio_command();
        command
            .args(["publish", "--database"])
            .arg(db.url_at("127.0.0.1", without_tls.port(), query))
            .current_dir(site.root())
            .env("PGPASSWORD", &db.server.password)
            .env("PGSSLMODE", "require")
            .env_remove("DATABASE_URL");
        command.output().expect("folio runs")
    };
    let output = run("");
    assert!(!output.status.success());
    let err = util::stderr(&output);
    assert!(err.contains("server does not support TLS"), "{err}");
    let output = run("?sslmode=prefer");
    assert!(output.status.success(), "{}", util::stderr(&output));
}
