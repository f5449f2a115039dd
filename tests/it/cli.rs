//! The `folio` binary: its output, its exit codes, its flags.

use crate::util;

use util::{TestSite, folio_command, post, stderr, stdout};

#[test]
fn build_ends_with_one_summary_line() {
    let site = TestSite::with_posts();
    let out = site.cli(&["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("scanned 6 files: 6 parsed, 0 unchanged; 28 pages written, 0 deleted in "),
        "{text}"
    );
    assert!(
        stderr(&out).is_empty(),
        "no progress bar when not on a terminal: {}",
        stderr(&out)
    );
    let again = stdout(&site.cli(&["build"]));
    assert!(
        again.starts_with("scanned 6 files: 0 parsed, 6 unchanged; 0 pages written, 0 deleted in "),
        "{again}"
    );
}

#[test]
fn json_report_lists_written_and_deleted_paths() {
    let site = TestSite::with_posts();
    site.cli(&["build"]);
    site.remove("content/posts/third.fr.md");
    let out = site.cli(&["build", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(
        report["deleted"],
        serde_json::json!(["fr/posts/third/index.html"])
    );
    // The French home, archive and feed listed it, its neighbour linked to
    // it, the sitemap had it.
    assert_eq!(
        report["written"],
        serde_json::json!([
            "fr/archive/index.html",
            "fr/atom.xml",
            "fr/index.html",
            "fr/posts/hello-world/index.html",
            "fr/posts/index.html",
            "sitemap.xml"
        ])
    );
    assert_eq!(report["scanned"], 5);
    assert_eq!(report["parsed"], 0);
}

#[test]
fn root_and_out_flags_choose_the_folders() {
    let site = TestSite::with_posts();
    let elsewhere = tempfile::tempdir().unwrap();
    let out_dir = elsewhere.path().join("dist");
    let out = util::folio_command()
        .args(["build", "--root"])
        .arg(site.root())
        .arg("--out")
        .arg(&out_dir)
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out_dir.join("posts/hello-world/index.html").is_file());
    assert!(!site.out().exists());
}

#[test]
fn id_prints_the_id_of_a_source() {
    let site = TestSite::with_posts();
    let out = site.cli(&["id", "content/fr/posts/hello-world.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "01HWSP3MM0WH8KC7X90Y5108NS\n");
    let out = site.cli(&["id", "site.toml"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn exit_codes_tell_content_errors_from_usage_errors() {
    let site = TestSite::with_posts();
    site.write("content/en/posts/broken.md", "---\ntitle: [a\n---\n");
    let out = site.cli(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("content/en/posts/broken.md"),
        "{}",
        stderr(&out)
    );
    assert!(!site.out().exists());

    assert_eq!(
        site.cli(&["build", "--no-such-flag"]).status.code(),
        Some(2)
    );
    assert_eq!(site.cli(&["frobnicate"]).status.code(), Some(2));

    let empty = tempfile::tempdir().unwrap();
    let out = util::folio_command()
        .arg("build")
        .current_dir(empty.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("site.toml"), "{}", stderr(&out));
}

#[test]
fn a_site_without_templates_uses_the_default_theme() {
    let site = TestSite::new();
    site.write(
        "content/ja/posts/kyoto.md",
        &post("京都の秋", "2024-11-20T10:00:00+09:00", "紅葉が見頃です。"),
    );
    let out = site.cli(&["build"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = site.read("public/ja/posts/kyoto/index.html");
    assert!(html.starts_with("<!doctype html>"));
    assert!(html.contains("<html lang=\"ja\" dir=\"ltr\">"));
    assert!(html.contains("<h1>京都の秋</h1>"));
    assert!(
        html.contains("<time datetime=\"2024-11-20T01:00:00+00:00\">2024年11月20日</time>"),
        "{html}"
    );
}

#[test]
fn dry_run_lists_each_path_with_its_reason_and_writes_nothing() {
    let site = TestSite::with_posts();
    site.cli(&["build"]);
    site.write(
        "content/posts/third.fr.md",
        "+++\ntitle = \"Trois\"\ndate = 2024-07-01T10:00:00+02:00\n+++\nLe troisième.\n",
    );
    let tree = site.output_tree();
    let out = site.cli(&["build", "--dry-run"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "would write fr/posts/third/index.html: source changed: content/posts/third.fr.md"
        ),
        "{text}"
    );
    assert!(
        text.lines()
            .last()
            .unwrap()
            .contains("pages would be written"),
        "{text}"
    );
    assert_eq!(site.output_tree(), tree);

    let out = site.cli(&["explain", "--json", "fr/posts/third/index.html"]);
    let explanation: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(explanation["made_for"], "content/posts/third.fr.md");
    assert_eq!(
        explanation["templates"],
        serde_json::json!(["post.html", "base.html", "style.css"])
    );
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    let site = TestSite::with_posts();
    let mut child = util::folio_command()
        .args(["build", "--json"])
        .current_dir(site.root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // `folio build --json | head -0`: the pipe closes before the build
    // has printed anything.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(site.path("public/index.html").is_file(), "the build ran");
}

#[test]
fn source_date_epoch_says_what_time_it_is_and_a_bad_one_is_an_error() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/later.md",
        &post("Later", "2030-01-01T00:00:00Z", "Soon."),
    );
    let at = |epoch: &str| {
        util::folio_command()
            .env("SOURCE_DATE_EPOCH", epoch)
            .args(["build"])
            .current_dir(site.root())
            .output()
            .unwrap()
    };
    assert_eq!(at("1893456000").status.code(), Some(0)); // 2030-01-01
    assert!(site.path("public/posts/later/index.html").is_file());
    assert_eq!(at("1262304000").status.code(), Some(0)); // 2010-01-01
    assert!(!site.path("public/posts/later/index.html").exists());
    let out = at("soon");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("SOURCE_DATE_EPOCH: `soon`"),
        "{}",
        stderr(&out)
    );
}

/// Holds the build lock of `site` as another build would.
fn hold_the_lock(site: &TestSite) -> std::fs::File {
    std::fs::create_dir_all(site.path(".folio")).unwrap();
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(site.path(".folio/build.lock"))
        .unwrap();
    lock.lock().unwrap();
    lock
}

#[test]
fn a_second_build_waits_for_the_first_saying_so_or_with_no_wait_fails_at_once() {
    let site = TestSite::with_posts();
    site.build();
    let held = hold_the_lock(&site);

    let refused = folio_command()
        .args(["build", "--no-wait", "--root"])
        .arg(site.root())
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let message = stderr(&refused);
    assert!(
        message.contains("build.lock")
            && message.contains("another folio build of this site is running"),
        "{message}"
    );

    // Without --no-wait it waits, says what for, and builds once the other
    // build is done.
    site.write(
        "content/en/posts/new.md",
        &post("New", "2025-01-01T00:00:00Z", "New."),
    );
    let mut waiting = folio_command()
        .args(["build", "--root"])
        .arg(site.root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = std::io::BufReader::new(waiting.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut err, &mut line).unwrap();
    assert!(
        line.starts_with("waiting for another folio build of this site to finish"),
        "{line}"
    );
    assert!(waiting.try_wait().unwrap().is_none(), "it waits");
    drop(held);
    let out = waiting.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(stdout(&out).contains("1 parsed"), "{}", stdout(&out));
    assert!(site.path("public/posts/new/index.html").is_file());
}
