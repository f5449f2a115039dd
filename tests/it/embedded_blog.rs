//! examples/embedded-blog: a crate whose build.rs builds this repository's
//! example site with folio and embeds it in its binary. Cargo builds the
//! site again when, and only when, one of the inputs folio reported
//! changed, and then folio rewrites only the pages that changed.

use crate::util;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use folio::Site;

const EDITED: &str = "content/en/posts/markdown-tour.md";

/// Copies the example site (not its output or state) to `to`.
fn copy_site(to: &Path) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(to).unwrap();
    std::fs::copy(repo.join("site.toml"), to.join("site.toml")).unwrap();
    for folder in ["content", "templates", "i18n", "static"] {
        if !repo.join(folder).exists() {
            continue;
        }
        for entry in walkdir::WalkDir::new(repo.join(folder)) {
            let entry = entry.unwrap();
            let target = to.join(entry.path().strip_prefix(repo).unwrap());
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    }
}

fn edit(site: &Path) {
    let path = site.join(EDITED);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\nOne more sentence, added by the test.\n");
    std::fs::write(&path, text).unwrap();
}

struct Crate {
    site: PathBuf,
    target: PathBuf,
}

impl Crate {
    fn cargo_build(&self) -> Output {
        let manifest =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/embedded-blog/Cargo.toml");
        let output = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["build", "-v", "--manifest-path"])
            .arg(manifest)
            .env("CARGO_TARGET_DIR", &self.target)
            .env("FOLIO_EMBED_SITE", &self.site)
            .env("SOURCE_DATE_EPOCH", (util::NOW_MS / 1000).to_string())
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Whether that `cargo build` ran the crate's build script.
    fn built_the_site(output: &Output) -> bool {
        String::from_utf8_lossy(&output.stderr).lines().any(|line| {
            line.trim_start().starts_with("Running")
                && line.contains("embedded-blog")
                && line.contains("build-script-build")
        })
    }

    fn binary(&self, args: &[&str]) -> Command {
        let mut command = Command::new(self.target.join("debug/embedded-blog"));
        command.args(args);
        command
    }

    fn run(&self, args: &[&str]) -> String {
        let output = self.binary(args).output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    }

    /// The paths the build that made the binary wrote.
    fn written(&self) -> BTreeSet<String> {
        self.run(&["report"])
            .lines()
            .filter_map(|line| line.strip_prefix("written "))
            .map(str::to_owned)
            .collect()
    }
}

/// What the library writes for the same site: every page of a first
/// build, then what it rewrites for the same edit.
fn written_by_the_library(dir: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let site = dir.join("reference");
    copy_site(&site);
    let options = util::options(|o| o.out_dir = Some(dir.join("reference-out")));
    let cold = Site::open(&site).unwrap().build(&options).unwrap();
    edit(&site);
    let edited = Site::open(&site).unwrap().build(&options).unwrap();
    (
        cold.written.into_iter().collect(),
        edited.written.into_iter().collect(),
    )
}

/// GETs `path` from the server at `addr`: the status line and the body.
fn get(addr: &str, path: &str) -> (String, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.lines().next().unwrap_or_default().to_owned();
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn cargo_builds_the_site_again_only_when_an_input_changed_and_folio_rewrites_only_that() {
    let dir = tempfile::tempdir().unwrap();
    let blog = Crate {
        site: dir.path().join("site"),
        // Kept between runs of the suite: only the first compiles folio.
        target: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("embedded-blog"),
    };
    copy_site(&blog.site);
    let (every_page, written_for_the_edit) = written_by_the_library(dir.path());

    // The target folder outlives the test's temp folders: the first build
    // of this site may find the output of an earlier run in OUT_DIR.
    let first = blog.cargo_build();
    assert!(Crate::built_the_site(&first), "a new site is built");
    let pages = blog.run(&["list"]);
    assert_eq!(
        pages.lines().map(str::to_owned).collect::<BTreeSet<_>>(),
        every_page,
        "the binary embeds every page of the site"
    );

    // Nothing changed, and a file that is no input changed: no site build.
    std::fs::write(blog.site.join("notes.txt"), "not part of the site").unwrap();
    let second = blog.cargo_build();
    assert!(
        !Crate::built_the_site(&second),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );

    // One post edited: the site is built again, and only that post's pages
    // and the pages that show it are rewritten.
    edit(&blog.site);
    let third = blog.cargo_build();
    assert!(Crate::built_the_site(&third));
    let written = blog.written();
    assert!(written.contains("posts/markdown-tour/index.html"));
    assert!(written.len() < pages.lines().count() / 2, "{written:?}");
    assert_eq!(written, written_for_the_edit);

    // A new post, in a folder folio listed: the site is built again.
    std::fs::write(
        blog.site.join("content/en/posts/brand-new.md"),
        "---\ntitle: Brand new\ndate: 2025-01-02\n---\nJust arrived.\n",
    )
    .unwrap();
    assert!(Crate::built_the_site(&blog.cargo_build()));
    assert!(blog.written().contains("posts/brand-new/index.html"));

    // The binary serves what it embeds.
    let mut server = blog
        .binary(&["serve", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first_line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first_line)
        .unwrap();
    let addr = first_line
        .trim()
        .strip_prefix("serving on http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("{first_line}"))
        .to_owned();
    let (status, body) = get(&addr, "/posts/markdown-tour/");
    assert!(status.contains("200"), "{status}");
    assert!(body.contains("One more sentence, added by the test."));
    let (status, _) = get(&addr, "/no/such/page/");
    assert!(status.contains("404"), "{status}");
    server.kill().unwrap();
    server.wait().unwrap();
}
