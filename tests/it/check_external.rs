//! `folio check --external`: the links out of the site, asked for from web
//! servers the test starts on loopback, each counting what it is asked.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use folio::{LinkAnswer, LinkReport, Problem, ProblemKind};

use crate::util::{NOW_MS, SITE_TOML, TestSite, options, post, stderr, stdout};

/// What a server answers a path: the status line's rest and any headers.
type Answers = fn(&str) -> &'static str;

/// A web server on loopback: one thread per request, each answered by
/// its `Answers` and closed. It counts the requests for each path and the
/// most it had open at once.
struct Web {
    port: u16,
    seen: Arc<Mutex<BTreeMap<String, usize>>>,
    most_open: Arc<AtomicUsize>,
}

impl Web {
    fn start(answers: Answers) -> Web {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(BTreeMap::new()));
        let open = Arc::new(AtomicUsize::new(0));
        let most_open = Arc::new(AtomicUsize::new(0));
        let web = Web {
            port,
            seen: Arc::clone(&seen),
            most_open: Arc::clone(&most_open),
        };
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (seen, open, most_open) =
                    (Arc::clone(&seen), Arc::clone(&open), Arc::clone(&most_open));
                std::thread::spawn(move || {
                    let now = open.fetch_add(1, Ordering::SeqCst) + 1;
                    most_open.fetch_max(now, Ordering::SeqCst);
                    let path = request_path(&stream);
                    *seen.lock().unwrap().entry(path.clone()).or_default() += 1;
                    let answer = answers(&path);
                    // Closed before the answer is sent, so the client
                    // cannot begin its next request while this one counts.
                    open.fetch_sub(1, Ordering::SeqCst);
                    let _ = write!(
                        &stream,
                        "HTTP/1.1 {answer}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    );
                });
            }
        });
        web
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// How many requests asked for `path`.
    fn asked(&self, path: &str) -> usize {
        self.seen.lock().unwrap().get(path).copied().unwrap_or(0)
    }

    /// How many requests it had, for any path.
    fn asked_in_all(&self) -> usize {
        self.seen.lock().unwrap().values().sum()
    }
}

/// The path of the request on `stream`, once its head is read.
fn request_path(stream: &TcpStream) -> String {
    let mut reader = BufReader::new(stream);
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|read| read > 2) {
        line.clear();
    }
    first.split_whitespace().nth(1).unwrap_or("").to_owned()
}

fn site_answers(path: &str) -> &'static str {
    match path {
        "/gone" => "404 Not Found",
        "/removed" => "410 Gone",
        "/moved" => "301 Moved Permanently\r\nLocation: /landing",
        "/down" => "503 Service Unavailable",
        _ => "200 OK",
    }
}

fn too_many(_: &str) -> &'static str {
    "429 Too Many Requests"
}

/// Answers long after any timeout of the tests; its threads end with the
/// test process.
fn slow(_: &str) -> &'static str {
    std::thread::sleep(Duration::from_secs(60));
    "200 OK"
}

/// The three servers and a site linking to them from one post, whose
/// `[check]` gives a link a second and skips one prefix.
struct Fixture {
    site: TestSite,
    web: Web,
    limited: Web,
    slow: Web,
}

impl Fixture {
    fn new() -> Fixture {
        let (web, limited, slow) = (
            Web::start(site_answers),
            Web::start(too_many),
            Web::start(slow),
        );
        let site = TestSite::with_posts();
        site.write(
            "site.toml",
            &format!(
                "{SITE_TOML}\n[check]\ntimeout = 1\nskip_prefixes = [\"{}\"]\n",
                web.url("/skipped")
            ),
        );
        let body = format!(
            "Links.\n\n[ok]({ok}) and [ok again]({ok}#part)\n[gone]({gone})\n[removed]({removed})\n\
             [moved]({moved})\n[down]({down})\n[a]({a}) [b]({b}) [c]({c})\n[slow]({slow})\n\
             [busy 1]({l1}) [busy 2]({l2}) [busy 3]({l3})\n[skipped]({skipped}/x)",
            ok = web.url("/ok"),
            gone = web.url("/gone"),
            removed = web.url("/removed"),
            moved = web.url("/moved"),
            down = web.url("/down"),
            a = web.url("/a"),
            b = web.url("/b"),
            c = web.url("/c"),
            slow = slow.url("/slow"),
            l1 = limited.url("/1"),
            l2 = limited.url("/2"),
            l3 = limited.url("/3"),
            skipped = web.url("/skipped"),
        );
        site.write(
            "content/en/posts/links.md",
            &post("Links", "2024-08-01", &body),
        );
        Fixture {
            site,
            web,
            limited,
            slow,
        }
    }

    /// `folio check --external` through the library, at `now_ms`.
    fn check(&self, now_ms: i64) -> LinkReport {
        let scratch = tempfile::tempdir().unwrap();
        self.site
            .site()
            .check_external(&options(|_| {}), scratch.path(), now_ms)
            .unwrap()
    }
}

/// Each problem as (file, line, link, answer).
fn said(problems: &[Problem]) -> Vec<(String, Option<usize>, String, LinkAnswer)> {
    problems
        .iter()
        .map(|problem| match &problem.kind {
            ProblemKind::ExternalLink { url, answer, .. } => (
                problem.path.display().to_string(),
                problem.line,
                url.clone(),
                answer.clone(),
            ),
            other => panic!("not a link out of the site: {other}"),
        })
        .collect()
}

const HOUR_MS: i64 = 60 * 60 * 1000;

#[test]
fn links_out_of_the_site_are_asked_for_and_those_alive_trusted_for_a_day() {
    let fixture = Fixture::new();
    let (site, web) = (&fixture.site, &fixture.web);
    let before = TestSite::tree(site.root());
    let report = fixture.check(NOW_MS);
    let file = "content/en/posts/links.md".to_owned();
    assert_eq!(
        said(&report.broken),
        [
            (
                file.clone(),
                Some(8),
                web.url("/gone"),
                LinkAnswer::Status(404)
            ),
            (
                file.clone(),
                Some(9),
                web.url("/removed"),
                LinkAnswer::Status(410)
            ),
        ]
    );
    let (limited, warnings): (Vec<_>, Vec<_>) = said(&report.warnings)
        .into_iter()
        .partition(|(_, _, url, _)| url.starts_with(&fixture.limited.url("/")));
    assert_eq!(
        warnings,
        [
            (
                file.clone(),
                Some(11),
                web.url("/down"),
                LinkAnswer::Status(503)
            ),
            (
                file.clone(),
                Some(13),
                fixture.slow.url("/slow"),
                LinkAnswer::TimedOut { after_ms: 1000 }
            ),
        ]
    );
    // Once the limited host answered 429, its links left were not asked
    // for; how many that is depends on which of its two lanes ran first.
    let answered = limited
        .iter()
        .filter(|(.., answer)| *answer == LinkAnswer::Status(429))
        .count();
    let not_asked = limited
        .iter()
        .filter(|(.., answer)| *answer == LinkAnswer::NotAsked)
        .count();
    assert!(answered >= 1 && not_asked >= 1, "{limited:?}");
    assert_eq!(answered + not_asked, 3, "{limited:?}");
    assert_eq!(fixture.limited.asked_in_all(), answered);
    match &report.broken[0].kind {
        ProblemKind::ExternalLink { pages, .. } => {
            assert_eq!(pages, &["posts/links/index.html".to_owned()])
        }
        other => panic!("{other}"),
    }
    assert_eq!((report.asked, report.cached, report.skipped), (12, 0, 1));
    // Each URL once, whatever its fragment; a redirect followed; the
    // skipped one never; no more than two at once to one host.
    for path in [
        "/ok", "/gone", "/removed", "/moved", "/landing", "/down", "/a", "/b", "/c",
    ] {
        assert_eq!(web.asked(path), 1, "{path}");
    }
    assert_eq!(web.asked("/skipped/x"), 0);
    assert_eq!(fixture.slow.asked("/slow"), 1);
    assert!(web.most_open.load(Ordering::SeqCst) <= 2);
    let mut after = TestSite::tree(site.root());
    assert!(after.remove(".folio/links.json").is_some());
    assert_eq!(after, before, "the check writes nothing else");

    // An hour later, what was alive is not asked again; the rest is.
    let report = fixture.check(NOW_MS + HOUR_MS);
    assert_eq!((report.asked, report.cached), (7, 5));
    for (path, times) in [
        ("/ok", 1),
        ("/moved", 1),
        ("/landing", 1),
        ("/a", 1),
        ("/gone", 2),
        ("/down", 2),
    ] {
        assert_eq!(web.asked(path), times, "{path}");
    }
    assert_eq!(fixture.slow.asked("/slow"), 2);
    assert_eq!(report.broken.len(), 2);

    // A day after they were found alive, they are asked again.
    let report = fixture.check(NOW_MS + 25 * HOUR_MS);
    assert_eq!((report.asked, report.cached), (12, 0));
    assert_eq!(web.asked("/ok"), 2);
    assert_eq!(web.asked("/landing"), 2);
}

#[test]
fn check_external_names_each_link_its_file_line_and_pages_and_fails_on_broken_ones() {
    let fixture = Fixture::new();
    let site = &fixture.site;
    let checked = site.cli(&["check", "--external"]);
    assert_eq!(checked.status.code(), Some(1), "{}", stderr(&checked));
    let (web, slow) = (&fixture.web, &fixture.slow);
    let text = stderr(&checked);
    for expected in [
        format!(
            "warning: content/en/posts/links.md:11: links to {} (on posts/links/index.html), which answered HTTP 503, an error of its server\n  \
             = help: it is asked again at the next check\n",
            web.url("/down")
        ),
        format!(
            "warning: content/en/posts/links.md:13: links to {} (on posts/links/index.html), which did not answer within 1 s\n",
            slow.url("/slow")
        ),
        format!(
            "error: content/en/posts/links.md:8: links to {} (on posts/links/index.html), which answers HTTP 404 (not found)\n  \
             = help: fix the link or remove it; a page gone for good may be kept at web.archive.org\n\
             content/en/posts/links.md:9: links to {} (on posts/links/index.html), which answers HTTP 410 (gone)\n",
            web.url("/gone"),
            web.url("/removed")
        ),
        "2 problems; the build wrote nothing\n".to_owned(),
    ] {
        assert!(text.contains(&expected), "{expected}\nnot in:\n{text}");
    }

    // The broken links fixed, the check passes, and what was alive an
    // instant ago is not asked again.
    let body = format!("[ok]({})\n[moved]({})", web.url("/ok"), web.url("/moved"));
    site.write(
        "content/en/posts/links.md",
        &post("Links", "2024-08-01", &body),
    );
    let checked = site.cli(&["check", "--external"]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    assert!(
        stdout(&checked).ends_with(
            "pages with their links, and 2 links out of the site (2 found alive within a day): no error\n"
        ),
        "{}",
        stdout(&checked)
    );
    assert_eq!((web.asked("/ok"), web.asked("/landing")), (1, 1));
}

#[test]
fn a_skip_prefix_without_a_scheme_is_refused() {
    let site = TestSite::with_posts();
    site.write(
        "site.toml",
        &format!("{SITE_TOML}\n[check]\nskip_prefixes = [\"github.com\"]\n"),
    );
    let checked = site.cli(&["check"]);
    assert_eq!(checked.status.code(), Some(1));
    assert!(
        stderr(&checked).contains(
            "check.skip_prefixes: `github.com` is not the start of an http:// or https:// URL"
        ),
        "{}",
        stderr(&checked)
    );
}
