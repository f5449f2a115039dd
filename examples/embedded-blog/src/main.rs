//! A program that ships its blog inside its binary. `build.rs` builds the
//! site with folio into OUT_DIR; this embeds the result.
//!
//! - `embedded-blog list`: the pages it holds, one path per line;
//! - `embedded-blog report`: what the site build that made it wrote;
//! - `embedded-blog serve [ADDR]`: serves the site (default 127.0.0.1:8080;
//!   port 0 takes a free one), printing the URL first.

use std::process::ExitCode;

use include_dir::{Dir, DirEntry, include_dir};

static SITE: Dir<'static> = include_dir!("$OUT_DIR/site");
static REPORT: &str = include_str!(concat!(env!("OUT_DIR"), "/folio-report.txt"));

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("list") => {
            for path in pages() {
                println!("{path}");
            }
            ExitCode::SUCCESS
        }
        Some("report") => {
            print!("{REPORT}");
            ExitCode::SUCCESS
        }
        Some("serve") => match serve(args.get(1).map_or("127.0.0.1:8080", String::as_str)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("embedded-blog: {e}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!("usage: embedded-blog list | report | serve [ADDR]");
            ExitCode::from(2)
        }
    }
}

/// Every file of the embedded site, sorted.
fn pages() -> Vec<String> {
    fn walk(dir: &Dir<'_>, into: &mut Vec<String>) {
        for entry in dir.entries() {
            match entry {
                DirEntry::Dir(dir) => walk(dir, into),
                DirEntry::File(file) => into.push(file.path().to_string_lossy().into_owned()),
            }
        }
    }
    let mut paths = Vec::new();
    walk(&SITE, &mut paths);
    paths.sort();
    paths
}

fn serve(addr: &str) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let server = tiny_http::Server::http(addr)?;
    println!("serving on http://{}/", server.server_addr());
    for request in server.incoming_requests() {
        let (status, bytes, kind) = match file_for(request.url()) {
            Some((bytes, kind)) => (200, bytes, kind),
            None => match SITE.get_file("404.html") {
                Some(page) => (404, page.contents(), "text/html; charset=utf-8".into()),
                None => (404, &b"not found"[..], "text/plain".into()),
            },
        };
        let header =
            tiny_http::Header::from_bytes("Content-Type", kind.as_bytes()).expect("a valid header");
        let response = tiny_http::Response::from_data(bytes)
            .with_status_code(status)
            .with_header(header);
        let _ = request.respond(response);
    }
    Ok(())
}

/// The embedded file a URL path names (`/fr/` is `fr/index.html`), with its
/// content type.
fn file_for(url: &str) -> Option<(&'static [u8], String)> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = percent_encoding::percent_decode_str(path.trim_start_matches('/'))
        .decode_utf8()
        .ok()?
        .into_owned();
    let path = if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path
    };
    let file = SITE.get_file(&path)?;
    let kind = mime_guess::from_path(&path).first_or_octet_stream();
    let kind = match kind.type_() {
        mime_guess::mime::TEXT => format!("{kind}; charset=utf-8"),
        _ => kind.to_string(),
    };
    Some((file.contents(), kind))
}
