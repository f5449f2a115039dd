//! The PostgreSQL server of the publish tests: the one `.ci/test` starts
//! for the run (a throwaway cluster, `pg_virtualenv`), found through the
//! libpq variables it sets, with a database of its own for each test.

#![allow(dead_code)] // each test crate uses its own part of the helper

pub(crate) mod proxy;
pub(crate) mod tls;

use std::collections::BTreeMap;
use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use folio::PublishOptions;

/// Where the server is and who may do anything there.
#[derive(Clone)]
pub(crate) struct Server {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
}

/// The server of this run, from PGHOST, PGPORT, PGUSER and PGPASSWORD.
/// Without them there is nothing to test against: the test fails saying
/// how to get one, since in CI no test is skipped.
pub(crate) fn server() -> Server {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let Some(host) = var("PGHOST") else {
        panic!(
            "the publish tests need a PostgreSQL server, and PGHOST is not set.\n\
             Run the tests with `.ci/test`: it installs Debian's `postgresql` when it is missing \
             and runs `cargo test` inside `pg_virtualenv`, which starts a throwaway cluster and sets \
             PGHOST, PGPORT, PGUSER and PGPASSWORD. Or point those variables at a server of yours \
             where PGUSER may create databases and roles."
        )
    };
    Server {
        host,
        port: var("PGPORT").and_then(|p| p.parse().ok()).unwrap_or(5432),
        user: var("PGUSER").unwrap_or_else(|| "postgres".into()),
        password: var("PGPASSWORD").unwrap_or_default(),
    }
}

impl Server {
    pub(crate) fn addr(&self) -> SocketAddr {
        (self.host.as_str(), self.port)
            .to_socket_addrs()
            .expect("PGHOST resolves")
            .find(SocketAddr::is_ipv4)
            .expect("PGHOST has an IPv4 address")
    }

    fn connect(&self, dbname: &str) -> postgres::Client {
        postgres::Config::new()
            .host(&self.host)
            .port(self.port)
            .user(&self.user)
            .password(&self.password)
            .dbname(dbname)
            .connect(postgres::NoTls)
            .unwrap_or_else(|e| panic!("connecting to {}:{}: {e}", self.host, self.port))
    }
}

/// A database of one test, made empty when the test starts.
pub(crate) struct Database {
    pub server: Server,
    pub name: String,
}

impl Database {
    /// `folio_<tag>`, dropped if a run before left it, and made anew.
    pub(crate) fn fresh(tag: &str) -> Database {
        let server = server();
        let name = format!("folio_{tag}");
        let mut admin = server.connect("postgres");
        // Each its own statement: neither runs in a transaction block.
        for sql in [
            format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            format!("CREATE DATABASE {name}"),
        ] {
            admin
                .batch_execute(&sql)
                .unwrap_or_else(|e| panic!("{sql}: {e}"));
        }
        Database { server, name }
    }

    /// Its URL, without the password (folio gets it apart, as PGPASSWORD).
    /// No sslmode: libpq's default, TLS when the server offers it, as the
    /// test server does.
    pub(crate) fn url(&self) -> String {
        self.url_at("127.0.0.1", self.server.port, "")
    }

    /// Its URL at `host:port`, with `query` (`?…` or nothing).
    pub(crate) fn url_at(&self, host: &str, port: u16, query: &str) -> String {
        format!(
            "postgres://{}@{host}:{port}/{}{query}",
            self.server.user, self.name
        )
    }

    /// Publish options to this database that retry fast.
    pub(crate) fn options(&self) -> PublishOptions {
        self.options_for(self.url())
    }

    /// Publish options through the fault proxy on `port`, without TLS:
    /// the proxy reads what the server says.
    pub(crate) fn options_on(&self, port: u16) -> PublishOptions {
        self.options_for(self.url_at("127.0.0.1", port, "?sslmode=disable"))
    }

    pub(crate) fn options_for(&self, url: String) -> PublishOptions {
        let mut options = PublishOptions::new(url);
        options.password = Some(self.server.password.clone());
        options.backoff = Duration::from_millis(5);
        options
    }

    pub(crate) fn client(&self) -> postgres::Client {
        self.server.connect(&self.name)
    }

    pub(crate) fn execute(&self, sql: &str) {
        self.client()
            .batch_execute(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }

    /// Each row as `id slug lang source_hash md5(body)`, by id.
    pub(crate) fn rows(&self) -> Vec<String> {
        self.client()
            .query(
                "SELECT id || ' ' || slug || ' ' || lang || ' ' || source_hash || ' ' || md5(body) FROM folio.posts ORDER BY id",
                &[],
            )
            .expect("folio.posts")
            .iter()
            .map(|row| row.get(0))
            .collect()
    }

    /// Each row's id and the transaction that last wrote it: a row written
    /// again, even with the same values, gets a new one.
    pub(crate) fn versions(&self) -> BTreeMap<String, String> {
        self.client()
            .query("SELECT id, xmin::text FROM folio.posts", &[])
            .expect("folio.posts")
            .iter()
            .map(|row| (row.get(0), row.get(1)))
            .collect()
    }

    pub(crate) fn count(&self, sql: &str) -> i64 {
        self.client().query_one(sql, &[]).expect(sql).get(0)
    }
}
