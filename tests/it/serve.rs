//! The preview server over real HTTP: a built site served from its output
//! folder, requests written byte for byte (so no client tidies a path
//! before it is sent), and what a static host answers.

use crate::util;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use folio::{LiveReload, PreviewServer};
use util::{Serving, TestSite};

/// A served site; dropping it stops the server.
struct Served {
    site: TestSite,
    addr: SocketAddr,
    live: LiveReload,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    runtime: tokio::runtime::Runtime,
}

impl Served {
    fn start() -> Served {
        Served::start_with(|server| server)
    }

    /// A served site, its server set up by `setup` before it runs.
    fn start_with(setup: impl FnOnce(PreviewServer) -> PreviewServer) -> Served {
        let site = TestSite::with_posts();
        site.write("static/404.html", "<p>not here</p>");
        site.write("static/fonts/a.woff2", "font");
        site.write("static/app.wasm", "wasm");
        site.write("static/logo.svg", "<svg/>");
        site.write("outside.txt", "a source file");
        site.build();
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = runtime
            .block_on(PreviewServer::bind(
                &site.out(),
                "127.0.0.1:0".parse().unwrap(),
            ))
            .unwrap();
        let server = setup(server);
        let addr = server.local_addr();
        let live = server.live_reload();
        runtime.spawn(server.run(async {
            let _ = stopped.await;
        }));
        Served {
            site,
            addr,
            live,
            stop: Some(stop),
            runtime,
        }
    }

    /// Sends `request` as it is and returns the status, the headers
    /// (lowercase names) and the body.
    fn raw(&self, request: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).unwrap();
        let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8(bytes[..split].to_vec()).unwrap();
        let mut lines = head.lines();
        let status = lines
            .next()
            .unwrap()
            .split(' ')
            .nth(1)
            .unwrap()
            .parse()
            .unwrap();
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        (status, headers, bytes[split + 4..].to_vec())
    }

    fn get(&self, path: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
        self.raw(&format!(
            "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        ))
    }
}

impl Served {
    fn listen(&self) -> Events {
        listen(self.addr)
    }
}

/// Opens the live-reload event stream of the server at `addr`, as a tab does.
fn listen(addr: SocketAddr) -> Events {
    try_listen(addr).unwrap_or_else(|head| panic!("the stream was refused: {head}"))
}

/// The live-reload event stream of the server at `addr`, or the head of the
/// response that refused it.
fn try_listen(addr: SocketAddr) -> Result<Events, String> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(
            b"GET /__folio/live HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n",
        )
        .unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    let mut events = Events {
        stream,
        seen: String::new(),
    };
    let head = events.until("\r\n\r\n");
    if head.starts_with("HTTP/1.1 200 ") {
        Ok(events)
    } else {
        Err(head)
    }
}

/// A tab's view of the event stream.
struct Events {
    stream: TcpStream,
    seen: String,
}

impl Events {
    /// Reads until `text` has come, and returns what came up to its end.
    fn until(&mut self, text: &str) -> String {
        let mut buffer = [0u8; 4096];
        while !self.seen.contains(text) {
            let n = self
                .stream
                .read(&mut buffer)
                .expect("the event came in time");
            assert!(n > 0, "the stream ended before {text:?}: {}", self.seen);
            self.seen.push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
        let end = self.seen.find(text).unwrap() + text.len();
        let came: String = self.seen.drain(..end).collect();
        came
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = &self.runtime;
    }
}

/// An HTML body as the build wrote it: without the live-reload script the
/// server injects.
fn as_built(body: Vec<u8>) -> String {
    let body = String::from_utf8(body).unwrap();
    let start = body.find("<script>").expect("the live script is injected");
    let end = body[start..].find("</script>").unwrap() + start + "</script>".len();
    assert!(body[start..end].contains("/__folio/live"));
    format!("{}{}", &body[..start], &body[end..])
}

fn header<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn pages_are_served_by_their_pretty_url_with_their_bytes() {
    let served = Served::start();
    let (status, headers, body) = served.get("/fr/posts/hello-world/");
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        as_built(body),
        served.site.read("public/fr/posts/hello-world/index.html")
    );
    let (status, headers, _) = served.get("/fr/posts/hello-world");
    assert_eq!(status, 301);
    assert_eq!(header(&headers, "location"), Some("/fr/posts/hello-world/"));
    assert_eq!(served.get("/").0, 200);
}

#[test]
fn content_types_are_those_of_a_static_host() {
    let served = Served::start();
    for (path, expected) in [
        ("/style.css", "text/css; charset=utf-8"),
        ("/atom.xml", "text/xml; charset=utf-8"),
        ("/sitemap.xml", "text/xml; charset=utf-8"),
        ("/robots.txt", "text/plain; charset=utf-8"),
        ("/logo.svg", "image/svg+xml; charset=utf-8"),
        ("/fonts/a.woff2", "font/woff2"),
        ("/app.wasm", "application/wasm"),
    ] {
        let (status, headers, _) = served.get(path);
        assert_eq!(status, 200, "{path}");
        assert_eq!(header(&headers, "content-type"), Some(expected), "{path}");
    }
}

#[test]
fn a_missing_page_is_the_site_s_404_with_status_404() {
    let served = Served::start();
    let (status, _, body) = served.get("/no/such/page/");
    assert_eq!(status, 404);
    assert_eq!(as_built(body), "<p>not here</p>");
}

#[test]
fn head_and_conditional_get_answer_as_a_static_host() {
    let served = Served::start();
    let (status, headers, body) = served.get("/style.css");
    assert_eq!(status, 200);
    let etag = header(&headers, "etag").unwrap().to_owned();
    let length = header(&headers, "content-length").unwrap().to_owned();
    assert_eq!(length, body.len().to_string());

    let (status, head_headers, head_body) =
        served.raw("HEAD /style.css HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 200);
    assert!(head_body.is_empty());
    assert_eq!(header(&head_headers, "etag"), Some(etag.as_str()));
    assert_eq!(
        header(&head_headers, "content-length"),
        Some(length.as_str())
    );

    let (status, _, body) = served.raw(&format!(
        "GET /style.css HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n"
    ));
    assert_eq!((status, body.len()), (304, 0));
    let (status, _, _) = served.raw(
        "GET /style.css HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: \"other\"\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    let (status, _, _) = served.raw(
        "POST /style.css HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 405);
}

#[test]
fn nothing_outside_the_output_folder_is_served() {
    let served = Served::start();
    let sibling = served.site.path("public-old");
    std::fs::create_dir_all(&sibling).unwrap();
    std::fs::write(sibling.join("secret.html"), "old").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        served.site.path("outside.txt"),
        served.site.path("public/link.txt"),
    )
    .unwrap();
    for path in [
        "/../outside.txt",
        "/%2e%2e/outside.txt",
        "/%2E%2E/site.toml",
        "/..%2foutside.txt",
        "/..%2Foutside.txt",
        "/..%5coutside.txt",
        "/..\\outside.txt",
        "/%252e%252e/outside.txt",
        "/..%252foutside.txt",
        "/%2e%2e/.folio/index.sqlite",
        "/../.folio/index.sqlite",
        "/%2e%2e/content/en/about.md",
        "/%2e%2e/public-old/secret.html",
        "/link.txt",
    ] {
        let (status, _, body) = served.get(path);
        assert_eq!(status, 404, "{path}");
        assert_eq!(as_built(body), "<p>not here</p>", "{path}");
    }
}

#[test]
fn html_is_served_with_the_live_script_and_the_file_on_disk_stays_the_build_s() {
    let served = Served::start();
    let (_, _, body) = served.get("/posts/hello-world/");
    let on_disk = served.site.read("public/posts/hello-world/index.html");
    assert!(!on_disk.contains("/__folio/live"));
    let text = String::from_utf8(body.clone()).unwrap();
    // Just before `</body>`.
    assert!(text.contains("</script></body>"), "{text}");
    assert_eq!(as_built(body), on_disk);
    let (_, _, css) = served.get("/style.css");
    assert!(!String::from_utf8(css).unwrap().contains("EventSource"));
}

#[test]
fn open_tabs_are_told_to_reload_to_swap_stylesheets_and_of_a_failure() {
    let served = Served::start();
    let mut tab = served.listen();
    served.live.rebuilt(
        &["posts/hello-world/index.html".into(), "index.html".into()],
        &[],
        &[],
    );
    assert!(tab.until("\n\n").contains("event: reload"));
    served.live.rebuilt(&["style.css".into()], &[], &[]);
    let came = tab.until("\n\n");
    assert!(
        came.contains("event: stylesheets") && came.contains(r#"data: ["/style.css"]"#),
        "{came}"
    );
    // A fingerprinted sheet: its new twin written, its old one deleted, the
    // pages naming it written for the new name alone: still a swap.
    let twin = |hash: &str| format!("css/main.{}.css", hash.repeat(20));
    served.live.rebuilt(
        &["css/main.css".into(), twin("b"), "index.html".into()],
        &[twin("a")],
        &["index.html".into()],
    );
    let came = tab.until("\n\n");
    let sheets = format!(r#"data: ["/css/main.css","/{}"]"#, twin("b"));
    assert!(
        came.contains("event: stylesheets") && came.contains(&sheets),
        "{came}"
    );
    // A page written for more than a new name: a reload.
    served.live.rebuilt(
        &["css/main.css".into(), twin("c"), "index.html".into()],
        &[twin("b")],
        &[],
    );
    assert!(tab.until("\n\n").contains("event: reload"));
    // Nothing written, nothing failing: nothing to tell.
    served.live.rebuilt(&[], &[], &[]);
    served
        .live
        .failed("content/en/posts/x.md:2: field `title`: is required");
    let came = tab.until("\n\n");
    assert!(
        came.contains("event: failed") && came.contains("content/en/posts/x.md:2"),
        "{came}"
    );
    // A tab opened during the failure is told at once.
    let mut late = served.listen();
    assert!(late.until("\n\n").contains("event: failed"));
    // The next good build with nothing to write clears it.
    served.live.rebuilt(&[], &[], &[]);
    assert!(tab.until("\n\n").contains("event: recovered"));
    assert!(late.until("\n\n").contains("event: recovered"));
}

#[test]
fn folio_serve_rebuilds_on_save_and_its_preview_is_what_folio_build_makes() {
    let site = TestSite::with_posts();
    let serving = Serving::start(&site);
    serving.page_once_it_shows("/posts/hello-world/", "<h1>Hello</h1>");
    site.write(
        "content/en/posts/hello-world.md",
        &util::post(
            "Hello, renamed",
            "2024-05-01T09:00:00Z",
            "First paragraph.\n\nSecond paragraph.",
        ),
    );
    serving.page_once_it_shows("/posts/hello-world/", "<h1>Hello, renamed</h1>");
    serving.line_with("rebuilt after content/en/posts/hello-world.md");
    assert_eq!(
        TestSite::tree(&site.site().preview_dir()),
        site.clean_build_tree()
    );
    assert!(!site.out().exists(), "the preview is not public/");
}

#[test]
fn two_hundred_files_saved_at_once_cost_at_most_two_rebuilds() {
    let site = TestSite::with_posts();
    let serving = Serving::start(&site);
    for n in 0..200 {
        site.write(
            &format!("content/en/posts/burst-{n:03}.md"),
            &util::post(
                &format!("Burst {n}"),
                "2024-08-01T09:00:00Z",
                "Saved at once.",
            ),
        );
    }
    serving.page_once_it_shows("/posts/burst-199/", "<h1>Burst 199</h1>");
    let lines = serving.lines_until_quiet(std::time::Duration::from_millis(1500));
    let rebuilds = lines.iter().filter(|l| l.starts_with("rebuilt")).count();
    assert!((1..=2).contains(&rebuilds), "{lines:#?}");
    assert_eq!(
        TestSite::tree(&site.site().preview_dir()),
        site.clean_build_tree()
    );
}

#[test]
fn a_failed_build_keeps_serving_shows_the_error_and_a_fix_recovers() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/broken.md",
        "---\ntitle: [unclosed\n---\nBroken.\n",
    );
    let serving = Serving::start(&site);
    let mut tab = listen(serving.addr());
    let came = tab.until("\n\n");
    assert!(
        came.contains("event: failed") && came.contains("content/en/posts/broken.md"),
        "{came}"
    );
    site.write(
        "content/en/posts/broken.md",
        &util::post("Fixed", "2024-08-01T09:00:00Z", "Fixed."),
    );
    let came = tab.until("\n\n");
    assert!(came.contains("event: reload"), "{came}");
    serving.page_once_it_shows("/posts/broken/", "<h1>Fixed</h1>");
}

#[test]
fn a_port_in_use_is_an_error_naming_it() {
    let site = TestSite::with_posts();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = util::folio_command()
        .args(["serve", "--port", &port, "--root"])
        .arg(site.root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("127.0.0.1:{port}")) && stderr.contains("--port"),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_stops_cleanly_and_the_next_build_has_nothing_to_repair() {
    let site = TestSite::with_posts();
    let mut serving = Serving::start(&site);
    // A tab listening keeps a connection open: it must not hold the stop.
    let _tab = listen(serving.addr());
    let status = std::process::Command::new("kill")
        .args(["-INT", &serving.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let started = std::time::Instant::now();
    let code = loop {
        if let Some(status) = serving.child.try_wait().unwrap() {
            break status.code();
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "serve did not stop"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(code, Some(0));
    let preview = site.site().preview_dir();
    let out = site.cli(&["build", "--json", "--out", preview.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["written"], serde_json::json!([]));
    assert_eq!(report["parsed"], 0);
}

#[test]
fn a_server_killed_mid_rebuild_leaves_a_site_the_next_build_repairs() {
    let site = TestSite::with_posts();
    let mut serving = Serving::start(&site);
    let preview = site.site().preview_dir();
    for n in 0..300 {
        site.write(
            &format!("content/en/posts/killed-{n:03}.md"),
            &util::post(
                &format!("Killed {n}"),
                "2024-08-01T09:00:00Z",
                "Saved at once.",
            ),
        );
    }
    // Killed the moment the rebuild's first page is in place.
    let started = std::time::Instant::now();
    while !preview.join("posts/killed-000").exists() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "no rebuild"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    serving.child.kill().unwrap();
    serving.child.wait().unwrap();
    let out = site.cli(&["build", "--out", preview.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(TestSite::tree(&preview), site.clean_build_tree());
    let again = site.cli(&["build", "--json", "--out", preview.to_str().unwrap()]);
    let report: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(report["written"], serde_json::json!([]));
}

#[test]
fn open_hands_the_url_to_the_system_s_opener() {
    let site = TestSite::with_posts();
    // A stand-in for xdg-open that writes down what it was asked to open.
    let bin = tempfile::tempdir().unwrap();
    let asked = bin.path().join("asked");
    let opener = bin.path().join("xdg-open");
    std::fs::write(
        &opener,
        format!("#!/bin/sh\necho \"$1\" > {}\n", asked.display()),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = util::folio_command()
        .env("PATH", path)
        .args(["serve", "--open", "--port", "0", "--root"])
        .arg(site.root())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("serving ") {
        line.clear();
        std::io::BufRead::read_line(&mut stdout, &mut line).unwrap();
    }
    let url = line
        .split(" at ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_owned();
    let started = std::time::Instant::now();
    let opened = loop {
        match std::fs::read_to_string(&asked) {
            Ok(text) if text.ends_with('\n') => break text,
            _ => {}
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "nothing was opened"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(opened.trim(), url);
}

#[test]
fn a_missing_page_of_a_site_without_its_own_is_the_theme_s_404() {
    let site = TestSite::with_posts();
    let serving = Serving::start(&site);
    let mut stream = TcpStream::connect(serving.addr()).unwrap();
    stream
        .write_all(b"GET /no/such/page/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 404"), "{response}");
    assert!(response.contains("<h1>Page not found</h1>"), "{response}");
}

#[test]
fn a_site_under_a_sub_path_is_previewed_under_it() {
    let site = TestSite::with_posts();
    site.write(
        "site.toml",
        &util::SITE_TOML.replace("https://example.org", "https://user.github.io/blog/"),
    );
    let serving = Serving::start(&site);
    assert!(serving.url.ends_with("/blog/"), "{}", serving.url);
    let page = serving.page_once_it_shows("/blog/posts/hello-world/", "<h1>Hello</h1>");
    // The stylesheet's twin, under the sub-path.
    let sheet = page
        .split("<link rel=\"stylesheet\" href=\"")
        .nth(1)
        .unwrap_or_default();
    assert!(
        sheet.starts_with("/blog/style.") && sheet.contains(".css\" integrity=\"sha384-"),
        "{page}"
    );
    let status = |path: &str| {
        let response = serving.response(path);
        let status = response.split(' ').nth(1).unwrap_or_default().to_owned();
        let location = response
            .lines()
            .find_map(|l| {
                l.strip_prefix("location: ")
                    .or_else(|| l.strip_prefix("Location: "))
            })
            .map(str::to_owned);
        (status, location)
    };
    assert_eq!(status("/blog/style.css").0, "200");
    let twin = &sheet[..sheet.find('"').unwrap_or_default()];
    assert_eq!(status(twin).0, "200", "{twin}");
    assert_eq!(
        status("/posts/hello-world/").0,
        "404",
        "outside the base path"
    );
    assert_eq!(
        status("/blog"),
        ("301".to_owned(), Some("/blog/".to_owned()))
    );
    let (code, location) = status("/blog/posts/hello-world");
    assert!(code.starts_with('3'), "{code}");
    assert_eq!(location.as_deref(), Some("/blog/posts/hello-world/"));
}

/// A GET of `path` naming `host` (none when `None`).
fn get_naming(
    served: &Served,
    path: &str,
    host: Option<&str>,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    let host = host.map(|h| format!("Host: {h}\r\n")).unwrap_or_default();
    served.raw(&format!(
        "GET {path} HTTP/1.1\r\n{host}Connection: close\r\n\r\n"
    ))
}

#[test]
fn a_foreign_host_is_refused_on_pages_and_on_the_live_stream() {
    let served = Served::start();
    let port = served.addr.port();
    for path in [
        "/",
        "/posts/hello-world/",
        "/style.css",
        "/no/such/page/",
        "/__folio/live",
    ] {
        for host in [
            "evil.example".to_owned(),
            format!("evil.example:{port}"),
            format!("localhost.evil.example:{port}"),
            format!("127.0.0.1.evil.example:{port}"),
        ] {
            let (status, headers, body) = get_naming(&served, path, Some(&host));
            assert_eq!(status, 403, "{path} {host}");
            assert_eq!(
                header(&headers, "content-type"),
                Some("text/plain; charset=utf-8"),
                "{path} {host}"
            );
            let body = String::from_utf8(body).unwrap();
            assert!(
                body.contains("--allow-host") && !body.contains("Hello"),
                "{path} {host}: {body}"
            );
        }
    }
    let (status, _, body) = get_naming(&served, "/", Some("evil.example"));
    assert_eq!(status, 403);
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("--allow-host evil.example"),
        "the refusal says what to pass"
    );
    // No Host, two, and an absolute URL naming another host than its Host.
    for request in [
        "GET / HTTP/1.0\r\n\r\n".to_owned(),
        "GET / HTTP/1.1\r\nConnection: close\r\n\r\n".to_owned(),
        "GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
            .to_owned(),
        format!(
            "GET http://evil.example:{port}/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        ),
        "GET /__folio/live HTTP/1.0\r\n\r\n".to_owned(),
    ] {
        assert_eq!(served.raw(&request).0, 403, "{request:?}");
    }
}

#[test]
fn loopback_names_and_addresses_are_answered_on_any_port_and_no_other_name() {
    let served = Served::start();
    let port = served.addr.port();
    for host in [
        "localhost".to_owned(),
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        "localhost:1".to_owned(),
        format!("blog.localhost:{port}"),
        format!("127.0.0.1:{port}"),
        served.addr.to_string(),
        "[::1]".to_owned(),
        format!("[::1]:{port}"),
        // Addresses cannot be rebound: those of a `--bind 0.0.0.0` too.
        format!("192.168.1.20:{port}"),
    ] {
        assert_eq!(get_naming(&served, "/", Some(&host)).0, 200, "{host}");
    }
    let (status, _, _) = served.raw(&format!(
        "GET http://localhost:{port}/ HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n"
    ));
    assert_eq!(status, 200);
    assert_eq!(get_naming(&served, "/", Some("mybox.local")).0, 403);
}

#[test]
fn names_passed_to_allow_host_are_answered_and_no_others() {
    let served = Served::start_with(|server| {
        server
            .allow_host("MyBox.local")
            .allow_host("preview.example.org")
    });
    let port = served.addr.port();
    for host in [
        "mybox.local".to_owned(),
        format!("mybox.local:{port}"),
        format!("MYBOX.LOCAL:{port}"),
        format!("preview.example.org:{port}"),
        format!("localhost:{port}"),
    ] {
        assert_eq!(get_naming(&served, "/", Some(&host)).0, 200, "{host}");
        assert!(
            listen_naming(served.addr, &host).starts_with("HTTP/1.1 200 "),
            "{host}"
        );
    }
    for host in ["other.local", "sub.mybox.local", "example.org"] {
        assert_eq!(get_naming(&served, "/", Some(host)).0, 403, "{host}");
        assert!(
            listen_naming(served.addr, host).starts_with("HTTP/1.1 403 "),
            "{host}"
        );
    }
}

/// The head of the answer to a live-stream request naming `host`.
fn listen_naming(addr: SocketAddr, host: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /__folio/live HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
    )
    .unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    Events {
        stream,
        seen: String::new(),
    }
    .until("\r\n\r\n")
}

#[test]
fn folio_serve_answers_the_names_passed_with_allow_host() {
    let site = TestSite::with_posts();
    let serving = Serving::start_with(
        &site,
        &[
            "--allow-host",
            "mybox.local",
            "--allow-host",
            "other.example",
        ],
    );
    let addr = serving.addr();
    let status = |host: &str| {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(
            stream,
            "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response.split(' ').nth(1).unwrap_or_default().to_owned()
    };
    let port = addr.port();
    let answered = [
        status(&format!("mybox.local:{port}")),
        status("other.example"),
        status("evil.example"),
    ];
    drop(serving);
    assert_eq!(answered, ["200", "200", "403"]);
    // A name no Host header can carry is refused at once.
    let out = util::folio_command()
        .args(["serve", "--allow-host", "mybox.local:8080", "--root"])
        .arg(site.root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        util::stderr(&out).contains("--allow-host"),
        "{}",
        util::stderr(&out)
    );
}

/// Waits (at most 30 s) for the server to close `stream`; what came first.
fn closed_by_the_server(mut stream: TcpStream) -> Vec<u8> {
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let mut came = Vec::new();
    match stream.read_to_end(&mut came) {
        Ok(_) => came,
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => came,
        Err(e) => panic!("the connection was kept open: {e}"),
    }
}

#[test]
fn a_half_sent_request_is_closed_by_the_server() {
    let served =
        Served::start_with(|server| server.header_read_timeout(std::time::Duration::from_secs(1)));
    let mut half = TcpStream::connect(served.addr).unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: local").unwrap();
    let silent = TcpStream::connect(served.addr).unwrap();
    let mut kept_alive = TcpStream::connect(served.addr).unwrap();
    kept_alive
        .write_all(b"GET /style.css HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    // The stream's response is under way: its request was read in time.
    let mut tab = served.listen();
    for stream in [half, silent] {
        let came = closed_by_the_server(stream);
        assert!(!came.starts_with(b"HTTP/1.1 200"), "{came:?}");
    }
    // Answered, then closed when no next request came.
    let came = closed_by_the_server(kept_alive);
    assert!(came.starts_with(b"HTTP/1.1 200"));
    served.live.rebuilt(&["index.html".into()], &[], &[]);
    assert!(tab.until("\n\n").contains("event: reload"));
}

#[test]
fn the_65th_live_stream_is_refused_until_one_closes() {
    let served = Served::start();
    let mut tabs: Vec<Events> = (0..64).map(|_| served.listen()).collect();
    let Err(head) = try_listen(served.addr) else {
        panic!("the 65th stream was opened");
    };
    assert!(head.starts_with("HTTP/1.1 503 "), "{head}");
    // Refused, it ends: its body can be read to the end.
    let (status, headers, body) =
        served.raw("GET /__folio/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 503);
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/plain; charset=utf-8")
    );
    assert_eq!(header(&headers, "x-content-type-options"), Some("nosniff"));
    let body = String::from_utf8(body).unwrap();
    assert!(body.contains("too many"), "{body}");
    // Pages are still served.
    assert_eq!(served.get("/").0, 200);
    // A closed tab gives its place back, without waiting for an event.
    drop(tabs.pop());
    let started = std::time::Instant::now();
    let mut tab = loop {
        match try_listen(served.addr) {
            Ok(tab) => break tab,
            Err(head) => assert!(
                started.elapsed() < std::time::Duration::from_secs(30),
                "no stream after one closed: {head}"
            ),
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(try_listen(served.addr).is_err(), "64 are open again");
    served.live.rebuilt(&["index.html".into()], &[], &[]);
    assert!(tab.until("\n\n").contains("event: reload"));
    assert!(tabs[0].until("\n\n").contains("event: reload"));
}

#[test]
fn every_response_says_nosniff() {
    let served = Served::start();
    let (_, headers, _) = served.get("/style.css");
    let etag = header(&headers, "etag").unwrap().to_owned();
    let post =
        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    let post_live = "POST /__folio/live HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    let responses = [
        served.get("/posts/hello-world/"),
        served.get("/style.css"),
        served.raw("HEAD / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"),
        served.get("/no/such/page/"),
        served.get("/posts/hello-world"),
        served.raw(&format!(
            "GET /style.css HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n"
        )),
        served.raw(post),
        served.raw(post_live),
        get_naming(&served, "/", Some("evil.example")),
    ];
    let statuses: Vec<u16> = responses.iter().map(|r| r.0).collect();
    assert_eq!(statuses, [200, 200, 200, 404, 301, 304, 405, 405, 403]);
    for (status, headers, _) in &responses {
        assert_eq!(
            header(headers, "x-content-type-options"),
            Some("nosniff"),
            "{status}"
        );
    }
    let head = listen_naming(served.addr, "localhost").to_ascii_lowercase();
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
}

/// What `folio serve ARGS` printed on stderr until it was stopped, once
/// serving.
fn serve_stderr(site: &TestSite, args: &[&str]) -> String {
    Serving::start_with(site, args).stop()
}

#[test]
fn folio_serve_warns_when_the_preview_is_reachable_from_the_network() {
    let site = TestSite::with_posts();
    let stderr = serve_stderr(&site, &["--bind", "0.0.0.0", "--drafts"]);
    let warning = stderr
        .lines()
        .find(|l| l.starts_with("warning: ") && l.contains("reachable from the network"))
        .unwrap_or_else(|| panic!("no warning: {stderr}"));
    assert!(
        warning.contains("0.0.0.0") && warning.contains("drafts included"),
        "{warning}"
    );
    let stderr = serve_stderr(&site, &["--bind", "0.0.0.0"]);
    assert!(stderr.contains("reachable from the network"), "{stderr}");
    assert!(!stderr.contains("drafts"), "no drafts are shown: {stderr}");
    for loopback in [&[][..], &["--bind", "127.0.0.1", "--drafts"]] {
        let stderr = serve_stderr(&site, loopback);
        assert!(!stderr.contains("reachable"), "{loopback:?}: {stderr}");
    }
}
