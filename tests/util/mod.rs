//! A site in a temp dir: write sources, build through the library or the
//! binary, and look at the output tree and the index.

#![allow(dead_code)] // each test crate uses its own part of the helper

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicI64, Ordering};

use folio::{BuildOptions, BuildReport, Session, Site};

pub(crate) const SITE_TOML: &str = r#"title = "Test"
base_url = "https://example.org"
default_language = "en"

[languages.en]
name = "English"

[languages.fr]
name = "Français"

[languages.ja]
name = "日本語"
"#;

/// The moment every build of the suite runs at, set explicitly so that the
/// machine's clock and its `SOURCE_DATE_EPOCH` (Nix sets 1980) change nothing:
/// 2026-01-01T00:00:00Z.
pub(crate) const NOW_MS: i64 = 1_767_225_600_000;

/// The options of a plain build at [`NOW_MS`], changed by `set`.
pub(crate) fn options(set: impl FnOnce(&mut BuildOptions)) -> BuildOptions {
    let mut options = BuildOptions::new(NOW_MS);
    set(&mut options);
    options
}

/// Source mtimes are set from this fake clock, in the past, one second
/// apart: a build never mistakes them for "racy", and an edit always moves
/// the mtime, as it does on a real disk.
static FAKE_CLOCK: AtomicI64 = AtomicI64::new(1_600_000_000);

pub(crate) struct TestSite {
    dir: tempfile::TempDir,
    /// When set, every build goes through this one kept session: the first
    /// is its `build()`, the next ones its `rebuild()` of the paths written,
    /// touched or removed since.
    session: RefCell<Option<Session>>,
    kept: Cell<bool>,
    changed: RefCell<Vec<String>>,
    /// Whether the kept session's last build succeeded.
    last_built: Cell<bool>,
}

impl TestSite {
    /// A site with the three-language site.toml and no content.
    pub(crate) fn new() -> TestSite {
        let site = TestSite {
            dir: tempfile::tempdir().expect("temp dir"),
            session: RefCell::new(None),
            kept: Cell::new(false),
            changed: RefCell::new(Vec::new()),
            last_built: Cell::new(false),
        };
        site.write("site.toml", SITE_TOML);
        site
    }

    /// A site with a few posts in three languages and a page.
    pub(crate) fn with_posts() -> TestSite {
        let site = TestSite::new();
        site.write(
            "content/en/posts/hello-world.md",
            &post(
                "Hello",
                "2024-05-01T09:00:00Z",
                "First paragraph.\n\nSecond paragraph.",
            ),
        );
        site.write(
            "content/fr/posts/hello-world.md",
            &post(
                "Bonjour",
                "2024-05-01T09:00:00Z",
                "Premier paragraphe.\n\nDeuxième.",
            ),
        );
        site.write(
            "content/ja/posts/hello-world.md",
            &post("こんにちは", "2024-05-01T09:00:00Z", "最初の段落。"),
        );
        site.write(
            "content/posts/2024-06-12-second.md",
            "---\ntitle: Second\ntags: [a, b]\n---\nThe second post.\n\nMore.\n",
        );
        site.write(
            "content/posts/third.fr.md",
            "+++\ntitle = \"Troisième\"\ndate = 2024-07-01T10:00:00+02:00\n+++\nLe troisième.\n",
        );
        site.write(
            "content/en/about.md",
            "---\ntitle: About\n---\nAbout this site.\n",
        );
        site
    }

    /// [`TestSite::with_posts`], built through a kept session when `kept`.
    pub(crate) fn with_posts_kept(kept: bool) -> TestSite {
        let site = TestSite::with_posts();
        if kept {
            site.keep_session();
        }
        site
    }

    /// The three-language site.toml with `theme = "NAME"`.
    pub(crate) fn use_theme(&self, name: &str) {
        self.write("site.toml", &format!("theme = \"{name}\"\n{SITE_TOML}"));
    }

    /// Declares Swahili, for which folio has no built-in words: a build
    /// warns once that English stands in for them.
    pub(crate) fn add_a_language_without_words(&self) {
        let toml = format!("{SITE_TOML}\n[languages.sw]\nname = \"Kiswahili\"\n");
        self.write("site.toml", &toml);
    }

    /// From now on, builds go through one kept [`Session`] and its
    /// `rebuild` of the paths this helper changed.
    pub(crate) fn keep_session(&self) {
        self.kept.set(true);
    }

    /// The next rebuild of a kept session may start from the disk:
    /// another process (`folio move`) changed the index in between.
    pub(crate) fn next_build_walks(&self) {
        self.last_built.set(false);
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.root().join(rel)
    }

    pub(crate) fn out(&self) -> PathBuf {
        self.path("public")
    }

    /// Writes a file and gives it the next fake mtime.
    pub(crate) fn write(&self, rel: &str, text: &str) {
        self.write_bytes(rel, text.as_bytes());
    }

    pub(crate) fn write_bytes(&self, rel: &str, bytes: &[u8]) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        self.touch(rel);
    }

    /// Moves a file's mtime on without changing it.
    pub(crate) fn touch(&self, rel: &str) {
        self.changed.borrow_mut().push(rel.to_owned());
        let seconds = FAKE_CLOCK.fetch_add(1, Ordering::SeqCst);
        filetime::set_file_mtime(
            self.path(rel),
            filetime::FileTime::from_unix_time(seconds, 0),
        )
        .unwrap();
    }

    pub(crate) fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub(crate) fn remove(&self, rel: &str) {
        self.changed.borrow_mut().push(rel.to_owned());
        std::fs::remove_file(self.path(rel)).unwrap();
    }

    pub(crate) fn site(&self) -> Site {
        Site::open(self.root()).expect("site opens")
    }

    pub(crate) fn build(&self) -> BuildReport {
        self.try_build()
            .unwrap_or_else(|e| panic!("build failed:\n{e}"))
    }

    pub(crate) fn try_build(&self) -> Result<BuildReport, folio::Error> {
        if !self.kept.get() {
            return self.site().build(&options(|_| {}));
        }
        let mut session = self.session.borrow_mut();
        let changed = std::mem::take(&mut *self.changed.borrow_mut());
        match session.as_mut() {
            Some(session) => {
                let report = session.rebuild(&changed);
                // Only a build that failed, or an edit of site.toml, leaves
                // the next one nothing to start from but the disk.
                if self.last_built.get() && !changed.iter().any(|c| c == "site.toml") {
                    let report = report.as_ref().map_err(ToString::to_string);
                    assert!(
                        report.is_err() || report.is_ok_and(|r| !r.scanned_everything),
                        "a rebuild of {changed:?} walked everything"
                    );
                }
                self.last_built.set(report.is_ok());
                report
            }
            None => {
                let mut opened = Session::open(self.site(), options(|_| {}))?;
                let report = opened.build();
                self.last_built.set(report.is_ok());
                *session = Some(opened);
                report
            }
        }
    }

    pub(crate) fn build_with(&self, options: &BuildOptions) -> Result<BuildReport, folio::Error> {
        self.site().build(options)
    }

    /// What a build would write and delete, and why; writes nothing.
    pub(crate) fn dry_run(&self) -> BuildReport {
        self.build_with(&options(|o| o.dry_run = true))
            .unwrap_or_else(|e| panic!("dry run failed:\n{e}"))
    }

    /// Runs the `folio` binary in the site root, at [`NOW_MS`].
    pub(crate) fn cli(&self, args: &[&str]) -> Output {
        folio_command()
            .args(args)
            .current_dir(self.root())
            .output()
            .expect("folio runs")
    }

    /// Every file under `dir`, relative, with its bytes.
    pub(crate) fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e
                    .path()
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (rel, std::fs::read(e.path()).unwrap())
            })
            .collect()
    }

    pub(crate) fn output_tree(&self) -> BTreeMap<String, Vec<u8>> {
        TestSite::tree(&self.out())
    }

    /// (inode, mtime) of every output file: a file written again, even with
    /// the same bytes, gets a new inode (temp file + rename).
    pub(crate) fn output_identities(&self) -> BTreeMap<String, (u64, i64, i64)> {
        walkdir::WalkDir::new(self.out())
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let meta = e.metadata().unwrap();
                let rel = e
                    .path()
                    .strip_prefix(self.out())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                (rel, (meta.ino(), meta.mtime(), meta.mtime_nsec()))
            })
            .collect()
    }

    /// The index's posts table, one line per row, every column.
    pub(crate) fn rows(&self) -> Vec<String> {
        self.query("SELECT * FROM posts ORDER BY id")
    }

    /// The `<main>` of the page at `path` under the output folder.
    pub(crate) fn main_of(&self, path: &str) -> String {
        let html = self.read(&format!("public/{path}"));
        let start = html.find("<main").expect("a <main>");
        let end = html.find("</main>").expect("a </main>");
        html[start..end].to_owned()
    }

    /// The posts table without the stat columns, which describe this folder's
    /// files rather than the content.
    pub(crate) fn content_rows(&self) -> Vec<String> {
        self.query(
            "SELECT id, kind, slug, lang, published_at, updated_at, source_path, source_hash, title, url,
                    summary, description, tags, draft, translation_key, plugins, extra, expires_at, terms,
                    headings
             FROM posts ORDER BY id",
        )
    }

    /// The outputs table without the folder and the files' stats (a static
    /// file's, a bundle's file's or a stylesheet's fingerprint is made of
    /// its sources' stats), with what each page's row keeps of it.
    pub(crate) fn output_rows(&self) -> Vec<String> {
        self.query(
            "SELECT path, hash, CASE WHEN fingerprint LIKE 'static %' THEN 'static'
                                     WHEN fingerprint LIKE 'bundle %' THEN 'bundle'
                                     WHEN fingerprint LIKE 'sass %' THEN 'sass'
                                     ELSE fingerprint END,
                    page, hex(covers)
             FROM outputs ORDER BY path",
        )
    }

    pub(crate) fn query(&self, sql: &str) -> Vec<String> {
        let conn = rusqlite::Connection::open(self.path(".folio/index.sqlite")).unwrap();
        let mut stmt = conn.prepare(sql).unwrap();
        let columns = stmt.column_count();
        stmt.query_map([], |row| {
            Ok((0..columns)
                .map(|i| match row.get_ref(i).unwrap() {
                    rusqlite::types::ValueRef::Null => "NULL".to_owned(),
                    rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                    rusqlite::types::ValueRef::Real(x) => x.to_string(),
                    rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                    rusqlite::types::ValueRef::Blob(b) => format!("{b:?}"),
                })
                .collect::<Vec<_>>()
                .join(" | "))
        })
        .unwrap()
        .map(|r| r.unwrap())
        .collect()
    }
}

impl TestSite {
    /// What a build records just before it moves its first staged page into
    /// place (the `reserved <folder>` row of docs/ARCHITECTURE.md): a build
    /// killed after this knows the file at `path` holding bytes of
    /// `hash` is its own.
    pub(crate) fn reserve(&self, path: &str, hash: &str) {
        let conn = rusqlite::Connection::open(self.path(".folio/index.sqlite")).unwrap();
        let line = serde_json::to_string(&(path, hash)).unwrap() + "\n";
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET value = meta.value || excluded.value",
            [format!("reserved {}", self.out().display()), line],
        )
        .unwrap();
    }
}

/// The index's `source_hash` of these bytes: their hex SHA-256.
pub(crate) fn source_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The index's hash of an output file's bytes: their hex XXH3-128.
pub(crate) fn output_hash(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// What [`TestSite::clean_build`] made.
pub(crate) struct CleanBuild {
    pub tree: BTreeMap<String, Vec<u8>>,
    pub content_rows: Vec<String>,
    pub output_rows: Vec<String>,
}

/// The `folio` binary, told that it is [`NOW_MS`] whatever the machine's
/// clock and environment say, and not told a TLS setting of the
/// developer's environment (a test that wants one sets it).
pub(crate) fn folio_command() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_folio"));
    command
        .env("SOURCE_DATE_EPOCH", (NOW_MS / 1000).to_string())
        .env_remove("PGSSLMODE")
        .env_remove("PGSSLROOTCERT");
    command
}

/// What a command printed on stdout, as text.
pub(crate) fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// What a command printed on stderr, as text.
pub(crate) fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Where each of `needles` first appears in `haystack`, which must hold
/// them all.
pub(crate) fn order_of(haystack: &str, needles: &[&str]) -> Vec<usize> {
    needles
        .iter()
        .map(|n| {
            haystack
                .find(n)
                .unwrap_or_else(|| panic!("no {n:?} in {haystack}"))
        })
        .collect()
}

/// Whether places found by [`order_of`] come one after another.
pub(crate) fn is_sorted(at: &[usize]) -> bool {
    at.windows(2).all(|w| w[0] < w[1])
}

/// A post with YAML front matter.
pub(crate) fn post(title: &str, date: &str, body: &str) -> String {
    format!("---\ntitle: {title}\ndate: {date}\n---\n{body}\n")
}

/// Files whose identity changed between two snapshots, or that appeared.
pub(crate) fn rewritten(
    before: &BTreeMap<String, (u64, i64, i64)>,
    after: &BTreeMap<String, (u64, i64, i64)>,
) -> Vec<String> {
    after
        .iter()
        .filter(|(path, id)| before.get(*path) != Some(*id))
        .map(|(path, _)| path.clone())
        .collect()
}

impl TestSite {
    /// The output of a clean build of the same sources in a fresh folder.
    pub(crate) fn clean_build_tree(&self) -> BTreeMap<String, Vec<u8>> {
        self.clean_build().tree
    }

    /// A clean build of the same sources in a fresh folder: its output, and
    /// its index's rows without the stats of that folder's files.
    pub(crate) fn clean_build(&self) -> CleanBuild {
        let fresh = tempfile::tempdir().unwrap();
        for entry in walkdir::WalkDir::new(self.root()) {
            let entry = entry.unwrap();
            let rel = entry.path().strip_prefix(self.root()).unwrap();
            let first = rel
                .components()
                .next()
                .map(|c| c.as_os_str().to_string_lossy().into_owned());
            if matches!(first.as_deref(), Some("public" | ".folio")) || !entry.file_type().is_file()
            {
                continue;
            }
            let target = fresh.path().join(rel);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(entry.path(), target).unwrap();
        }
        Site::open(fresh.path())
            .unwrap()
            .build(&options(|_| {}))
            .unwrap();
        let site = TestSite {
            dir: fresh,
            session: RefCell::new(None),
            kept: Cell::new(false),
            changed: RefCell::new(Vec::new()),
            last_built: Cell::new(false),
        };
        CleanBuild {
            tree: site.output_tree(),
            content_rows: site.content_rows(),
            output_rows: site.output_rows(),
        }
    }

    /// Builds, checks that exactly `expected_written` were written (by the
    /// report and by the files' identities) and `expected_deleted` deleted,
    /// and that the result equals a clean build.
    #[track_caller]
    pub(crate) fn assert_rebuild(&self, expected_written: &[&str], expected_deleted: &[&str]) {
        self.check_rebuild(|_| (to_strings(expected_written), to_strings(expected_deleted)));
    }

    /// [`TestSite::assert_rebuild`] for an edit that gives the asset at
    /// `asset` new bytes: `pages`, the asset and its new twin (named by the
    /// bytes the build wrote, as the SHA-256 of the file gives it) written,
    /// its old twin deleted. Gives the build's report.
    #[track_caller]
    pub(crate) fn assert_asset_rebuild(&self, asset: &str, pages: &[&str]) -> BuildReport {
        let old = self.twin_of(asset);
        self.check_rebuild(|site| {
            let bytes = std::fs::read(site.out().join(asset)).unwrap();
            let (stem, extension) = asset.rsplit_once('.').unwrap();
            let new = format!("{stem}.{}.{extension}", &source_hash(&bytes)[..20]);
            let mut written = to_strings(pages);
            written.extend([asset.to_owned(), new]);
            written.sort();
            (written, vec![old])
        })
    }

    /// The HTML pages of the output folder.
    pub(crate) fn html_pages(&self) -> Vec<String> {
        (self.output_tree().into_keys())
            .filter(|path| path.ends_with(".html"))
            .collect()
    }

    /// The twin of the asset at `asset` (`css/main.css`) in the output
    /// folder: `css/main.<20 hex digits>.css`, the one there is.
    #[track_caller]
    pub(crate) fn twin_of(&self, asset: &str) -> String {
        let (stem, extension) = asset.rsplit_once('.').unwrap();
        let twins: Vec<String> = (self.output_tree().into_keys())
            .filter(|path| {
                (path.strip_prefix(stem))
                    .and_then(|rest| rest.strip_suffix(&format!(".{extension}")))
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|hash| {
                        hash.len() == 20 && hash.bytes().all(|b| b.is_ascii_hexdigit())
                    })
            })
            .collect();
        assert_eq!(twins.len(), 1, "one twin of {asset}: {twins:?}");
        twins.into_iter().next().unwrap()
    }

    /// Builds, checks what `expected` (given the site once built) says was
    /// written and deleted, and that the result equals a clean build.
    #[track_caller]
    fn check_rebuild(
        &self,
        expected: impl FnOnce(&TestSite) -> (Vec<String>, Vec<String>),
    ) -> BuildReport {
        let before = self.output_identities();
        let report = self.build();
        let (expected_written, expected_deleted) = expected(self);
        assert_eq!(report.written, expected_written, "written");
        assert_eq!(report.deleted, expected_deleted, "deleted");
        assert_eq!(
            rewritten(&before, &self.output_identities()),
            expected_written,
            "files on disk"
        );
        let clean = self.clean_build();
        let tree = self.output_tree();
        let differing: Vec<&String> = (tree.keys().chain(clean.tree.keys()))
            .filter(|path| tree.get(*path) != clean.tree.get(*path))
            .collect();
        assert!(
            differing.is_empty(),
            "differs from a clean build at {differing:?}"
        );
        assert_eq!(self.content_rows(), clean.content_rows, "rows");
        assert_eq!(self.output_rows(), clean.output_rows, "output rows");
        report
    }
}

fn to_strings(paths: &[&str]) -> Vec<String> {
    paths.iter().map(|path| (*path).to_owned()).collect()
}

/// `folio serve` running on a site, its output lines gathered as they come;
/// dropping it kills the server.
pub(crate) struct Serving {
    pub child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    errors: std::sync::Arc<std::sync::Mutex<String>>,
    /// The thread reading stderr, done once the server has stopped.
    stderr_read: Option<std::thread::JoinHandle<()>>,
    pub url: String,
}

impl Serving {
    pub(crate) fn start(site: &TestSite) -> Serving {
        Serving::start_with(site, &[])
    }

    /// `folio serve ARGS` on `site`, once it says where it serves.
    pub(crate) fn start_with(site: &TestSite, args: &[&str]) -> Serving {
        let mut child = folio_command()
            .arg("serve")
            .args(args)
            .args(["--port", "0", "--root"])
            .arg(site.root())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let (send, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                let _ = send.send(line);
            }
        });
        let errors = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = std::sync::Arc::clone(&errors);
        let mut stderr = child.stderr.take().unwrap();
        let stderr_read = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            sink.lock().unwrap().push_str(&text);
        });
        let mut serving = Serving {
            child,
            lines,
            errors,
            stderr_read: Some(stderr_read),
            url: String::new(),
        };
        let line = serving.line_with("serving ");
        serving.url = line
            .split(" at ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_owned();
        serving
    }

    /// The next output line that contains `text`.
    pub(crate) fn line_with(&self, text: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(20))
                .unwrap_or_else(|_| {
                    panic!(
                        "no line with {text:?}; stderr: {}",
                        self.errors.lock().unwrap()
                    )
                });
            if line.contains(text) {
                return line;
            }
        }
    }

    pub(crate) fn addr(&self) -> std::net::SocketAddr {
        let host = self.url.trim_start_matches("http://");
        host[..host.find('/').unwrap_or(host.len())]
            .parse()
            .unwrap()
    }

    /// The whole response (status line, headers, body) to a GET of `path`.
    pub(crate) fn response(&self, path: &str) -> String {
        let mut stream = std::net::TcpStream::connect(self.addr()).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    /// The body of `path` once it contains `text`.
    pub(crate) fn page_once_it_shows(&self, path: &str, text: &str) -> String {
        let started = std::time::Instant::now();
        loop {
            let body = self.response(path);
            if body.contains(text) {
                return body;
            }
            assert!(
                started.elapsed() < std::time::Duration::from_secs(20),
                "{path} never showed {text:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Output lines that came within `quiet` of each other, from now on.
    pub(crate) fn lines_until_quiet(&self, quiet: std::time::Duration) -> Vec<String> {
        self.lines
            .try_iter()
            .chain(std::iter::from_fn(|| self.lines.recv_timeout(quiet).ok()))
            .collect()
    }
}

impl Serving {
    /// Stops the server; all it printed on stderr.
    pub(crate) fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Some(reading) = self.stderr_read.take() {
            let _ = reading.join();
        }
        self.errors.lock().unwrap().clone()
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
