//! The preview server over real HTTP: a built site served from its output
//! folder, requests written byte for byte (so no client tidies a path
//! before it is sent), and what a static host answers.

mod util;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

use folio::PreviewServer;
use util::TestSite;

/// A served site; dropping it stops the server.
struct Served {
    site: TestSite,
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    runtime: tokio::runtime::Runtime,
}

impl Served {
    fn start() -> Served {
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
        let addr = server.local_addr().unwrap();
        runtime.spawn(server.run(async {
            let _ = stopped.await;
        }));
        Served {
            site,
            addr,
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
            "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        ))
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
        body,
        served
            .site
            .read("public/fr/posts/hello-world/index.html")
            .as_bytes()
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
    assert_eq!(body, b"<p>not here</p>");
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
        served.raw("HEAD /style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert_eq!(status, 200);
    assert!(head_body.is_empty());
    assert_eq!(header(&head_headers, "etag"), Some(etag.as_str()));
    assert_eq!(
        header(&head_headers, "content-length"),
        Some(length.as_str())
    );

    let (status, _, body) = served.raw(&format!(
        "GET /style.css HTTP/1.1\r\nHost: x\r\nIf-None-Match: {etag}\r\nConnection: close\r\n\r\n"
    ));
    assert_eq!((status, body.len()), (304, 0));
    let (status, _, _) = served.raw(
        "GET /style.css HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"other\"\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(status, 200);
    let (status, _, _) = served.raw(
        "POST /style.css HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
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
        assert_eq!(body, b"<p>not here</p>", "{path}");
    }
}
