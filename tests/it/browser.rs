//! `folio serve` in a real headless Chromium, driven through chromedriver
//! (Debian's `chromium` and `chromium-driver`; `.ci/test` installs them).
//! WebDriver is a small JSON protocol over HTTP, spoken here directly: no
//! crate that could download a browser of its own.

use crate::util;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use util::{Serving, TestSite};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A Chromium session through a chromedriver of its own.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    fn start() -> Browser {
        for (path, package) in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")] {
            assert!(
                std::path::Path::new(path).exists(),
                "{path} is missing: install it with `apt-get install chromium chromium-driver` \
                 (the README's test command, .ci/test, does) to run the browser tests ({package})"
            );
        }
        let port = {
            let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            probe.local_addr().unwrap().port()
        };
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let profile = tempfile::tempdir().unwrap();
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let args = [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=900,700",
        ]
        .map(String::from)
        .into_iter()
        .chain([format!(
            "--user-data-dir={}",
            browser._profile.path().display()
        )])
        .collect::<Vec<_>>();
        let created = browser.call(
            "POST",
            "/session",
            json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {"binary": CHROMIUM, "args": args}
            }}}),
        );
        browser.session = created["sessionId"].as_str().unwrap().to_owned();
        browser
    }

    /// One WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let body = body.to_string();
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        // chromedriver keeps the connection open whatever the request says:
        // the body is as long as its Content-Length.
        let mut response = Vec::new();
        let mut buffer = [0u8; 8192];
        let body = loop {
            let n = stream.read(&mut buffer).unwrap();
            assert!(n > 0, "chromedriver closed the connection");
            response.extend_from_slice(&buffer[..n]);
            let Some(end) = response.windows(4).position(|w| w == b"\r\n\r\n") else {
                continue;
            };
            let head = String::from_utf8_lossy(&response[..end]).to_ascii_lowercase();
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(0, |v| v.trim().parse().unwrap());
            if response.len() >= end + 4 + length {
                break response[end + 4..end + 4 + length].to_vec();
            }
        };
        let value: Value = serde_json::from_slice(&body).unwrap();
        assert!(
            value["value"]["error"].is_null(),
            "{method} {path}: {value}"
        );
        value["value"].clone()
    }

    fn goto(&self, url: &str) {
        self.call(
            "POST",
            &format!("/session/{}/url", self.session),
            json!({"url": url}),
        );
    }

    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            &format!("/session/{}/execute/sync", self.session),
            json!({"script": script, "args": []}),
        )
    }

    /// Runs `script` until it returns something other than null or false.
    fn wait_for(&self, what: &str, script: &str) -> Value {
        let started = Instant::now();
        loop {
            let value = self.run(script);
            if !value.is_null() && value != json!(false) {
                return value;
            }
            if started.elapsed() > Duration::from_secs(20) {
                let state = self.run(
                    "return [document.querySelector('h1') && document.querySelector('h1').textContent, \
                     document.documentElement.outerHTML.includes('__folio/live'), location.href]",
                );
                panic!("never: {what} ({state})");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.call("DELETE", &format!("/session/{}", self.session), json!({}))
            }));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

const LONG: &str = "A paragraph long enough to scroll past. ";

fn long_post(title: &str, slug_line: &str) -> String {
    let body = (0..80)
        .map(|n| format!("{}{n}\n\n", LONG.repeat(4)))
        .collect::<String>();
    format!("---\ntitle: {title}\ndate: 2024-05-01T09:00:00Z\n{slug_line}---\n{body}")
}

#[test]
fn a_browser_follows_saves_live() {
    let site = TestSite::with_posts();
    site.write("content/en/posts/hello-world.md", &long_post("Hello", ""));
    let serving = Serving::start(&site);
    let browser = Browser::start();
    browser.goto(&format!("{}posts/hello-world/", serving.url));
    browser.wait_for(
        "the post",
        "return document.querySelector('h1').textContent === 'Hello'",
    );

    // A new title: the page reloads itself, at the same scroll position.
    browser.run("window.scrollTo(0, 600);");
    browser.wait_for("the scroll", "return window.scrollY === 600");
    site.write(
        "content/en/posts/hello-world.md",
        &long_post("Hello, retitled", ""),
    );
    browser.wait_for(
        "the new title",
        "return document.querySelector('h1').textContent === 'Hello, retitled'",
    );
    browser.wait_for("the scroll kept", "return window.scrollY === 600");

    // A stylesheet: swapped in place, no reload (the variable survives).
    browser.run("window.folioMarker = 42;");
    site.write(
        "templates/style.css",
        "body { background-color: rgb(1, 2, 3); }\n",
    );
    browser.wait_for(
        "the new style",
        "return getComputedStyle(document.body).backgroundColor === 'rgb(1, 2, 3)'",
    );
    assert_eq!(
        browser.run("return window.folioMarker"),
        json!(42),
        "the page reloaded"
    );
    assert_eq!(browser.run("return window.scrollY"), json!(600));

    // Broken front matter: the overlay names the file; the fix clears it.
    site.write(
        "content/en/posts/hello-world.md",
        "---\ntitle: [broken\n---\nx\n",
    );
    let overlay = browser.wait_for(
        "the overlay",
        "const o = document.getElementById('folio-overlay'); return o && o.textContent",
    );
    assert!(
        overlay
            .as_str()
            .unwrap()
            .contains("content/en/posts/hello-world.md"),
        "{overlay}"
    );
    site.write(
        "content/en/posts/hello-world.md",
        &long_post("Hello, fixed", ""),
    );
    browser.wait_for(
        "the recovery",
        "return !document.getElementById('folio-overlay') && \
         document.querySelector('h1').textContent === 'Hello, fixed'",
    );

    // A new slug by hand is refused like a new date: the overlay says how.
    site.write(
        "content/en/posts/hello-world.md",
        &long_post("Hello, moved", "slug: moved\n"),
    );
    let overlay = browser.wait_for(
        "the refused slug",
        "const o = document.getElementById('folio-overlay'); return o && o.textContent",
    );
    assert!(
        overlay
            .as_str()
            .unwrap()
            .contains("folio move content/en/posts/hello-world.md moved"),
        "{overlay}"
    );
    // The sanctioned way: the new URL serves the post, the old one
    // redirects to it.
    site.write(
        "content/en/posts/hello-world.md",
        &long_post("Hello, moved", ""),
    );
    let moved = site.cli(&["move", "content/en/posts/hello-world.md", "moved"]);
    assert!(
        moved.status.success(),
        "{}",
        String::from_utf8_lossy(&moved.stderr)
    );
    serving.page_once_it_shows("/posts/moved/", "Hello, moved");
    browser.goto(&format!("{}posts/hello-world/", serving.url));
    browser.wait_for(
        "the redirect",
        "return location.pathname === '/posts/moved/' && document.querySelector('h1').textContent",
    );
}
