//! A kept session: what `rebuild(changed)` looks at, and when it falls back
//! to scanning everything. Every edit of tests/edit_matrix.rs also runs
//! through a kept session; these are the session's own rules.

use crate::util;

use folio::{Session, Site};
use util::{NOW_MS, TestSite, options, post};

fn session(site: &TestSite) -> Session {
    let mut session = Session::open(site.site(), options(|_| {})).unwrap();
    session.build().unwrap();
    session
}

const HELLO: &str = "content/en/posts/hello-world.md";

/// An edit after the summary: only the post's own page changes.
fn edit_hello(site: &TestSite, second_paragraph: &str) {
    site.write(
        HELLO,
        &post(
            "Hello",
            "2024-05-01T09:00:00Z",
            &format!("First paragraph.\n\n{second_paragraph}"),
        ),
    );
}

#[test]
fn a_rebuild_looks_only_at_the_paths_it_is_told_changed() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    edit_hello(&site, "Second, edited.");

    let untold = session.rebuild::<&str>(&[]).unwrap();
    assert!(!untold.scanned_everything);
    assert_eq!((untold.parsed, untold.written.len()), (0, 0));

    let told = session.rebuild(&[HELLO]).unwrap();
    assert!(!told.scanned_everything);
    assert_eq!(told.parsed, 1);
    assert_eq!(told.written, ["posts/hello-world/index.html"]);
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[test]
fn absolute_paths_are_read_against_the_root_and_paths_elsewhere_ignored() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    edit_hello(&site, "Edited.");
    let elsewhere = tempfile::tempdir().unwrap();
    let report = session
        .rebuild(&[elsewhere.path().join("x.md"), site.path(HELLO)])
        .unwrap();
    assert!(!report.scanned_everything);
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
    // `..` is read against the root too: this names nothing of the site.
    edit_hello(&site, "Edited again.");
    let report = session
        .rebuild(&["../content/en/posts/hello-world.md"])
        .unwrap();
    assert!(report.written.is_empty());
    // The root itself, as a watcher names it when it lost events: all of it.
    let report = session.rebuild(&[site.root()]).unwrap();
    assert!(report.scanned_everything);
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
}

#[test]
fn a_new_folder_or_site_toml_makes_a_rebuild_scan_everything() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    site.write(
        "content/de/posts/hallo.md",
        &post("Hallo", "2024-05-03T09:00:00Z", "Hallo."),
    );
    site.write(
        "site.toml",
        &format!("{}\n[languages.de]\nname = \"Deutsch\"\n", util::SITE_TOML),
    );
    // A watcher reports the new folder, not the file inside it.
    let report = session.rebuild(&["content/de", "site.toml"]).unwrap();
    assert!(report.scanned_everything);
    assert!(
        report
            .written
            .contains(&"de/posts/hallo/index.html".to_owned())
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());

    // A removed folder takes its sources with it, without a walk.
    std::fs::remove_dir_all(site.path("content/de")).unwrap();
    let report = session.rebuild(&["content/de"]).unwrap();
    assert!(!report.scanned_everything);
    assert!(
        report
            .deleted
            .contains(&"de/posts/hallo/index.html".to_owned())
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[test]
fn an_input_folder_appearing_makes_a_rebuild_scan_everything() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    let old = site.twin_of("style.css");
    site.write("templates/style.css", "body { color: red }\n");
    let report = session.rebuild(&["templates"]).unwrap();
    assert!(report.scanned_everything);
    // The sheet, its new twin, and the pages linking it by that name.
    let sheets: Vec<&String> = (report.written.iter())
        .filter(|p| !p.ends_with(".html"))
        .collect();
    let mut expected = ["style.css".to_owned(), site.twin_of("style.css")];
    expected.sort();
    assert_eq!(sheets, expected.iter().collect::<Vec<_>>());
    assert_eq!(report.deleted, [old]);
}

#[test]
fn a_build_by_another_process_makes_the_next_rebuild_scan_everything() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    edit_hello(&site, "Built elsewhere.");
    let elsewhere = Site::open(site.root())
        .unwrap()
        .build(&options(|_| {}))
        .unwrap();
    assert_eq!(elsewhere.written, ["posts/hello-world/index.html"]);
    // The session was not told, and its rows are no longer the index's.
    let report = session.rebuild::<&str>(&[]).unwrap();
    assert!(report.scanned_everything);
    assert!(report.written.is_empty());
    edit_hello(&site, "Then here.");
    let report = session.rebuild(&[HELLO]).unwrap();
    assert!(!report.scanned_everything);
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[test]
fn after_a_failed_rebuild_the_next_one_scans_everything_and_converges() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    site.write(HELLO, "---\ntitle: [unclosed\n---\nBroken.\n");
    let err = session.rebuild(&[HELLO]).unwrap_err();
    assert!(err.to_string().contains(HELLO), "{err}");
    edit_hello(&site, "Fixed.");
    let report = session.rebuild(&[HELLO]).unwrap();
    assert!(report.scanned_everything);
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
    let report = session.rebuild::<&str>(&[]).unwrap();
    assert!(!report.scanned_everything);
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[test]
fn a_session_publishes_a_future_post_once_its_clock_passes_the_date() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/later.md",
        &post("Later", "2026-01-02T00:00:00Z", "Soon."),
    );
    let mut session = session(&site);
    assert!(!site.path("public/posts/later/index.html").exists());
    session.set_now(NOW_MS + 2 * 86_400_000);
    let report = session.rebuild::<&str>(&[]).unwrap();
    assert!(!report.scanned_everything);
    assert!(
        report
            .written
            .contains(&"posts/later/index.html".to_owned())
    );
}

#[test]
fn a_session_withdraws_an_expired_post_once_its_clock_passes_the_moment() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/offer.md",
        "---\ntitle: Offer\ndate: 2024-01-01T00:00:00Z\nexpires: 2026-01-02T00:00:00Z\n---\nBuy.\n",
    );
    let mut session = session(&site);
    assert!(site.path("public/posts/offer/index.html").exists());
    session.set_now(NOW_MS + 2 * 86_400_000);
    let report = session.rebuild::<&str>(&[]).unwrap();
    assert!(!report.scanned_everything);
    assert_eq!(report.deleted, ["posts/offer/index.html"]);
    assert!(!site.read("public/atom.xml").contains("Offer"));
}

#[test]
fn explain_and_dry_run_go_through_a_session_and_write_nothing() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    let explanation = session.explain("/fr/posts/hello-world/").unwrap();
    assert_eq!(explanation.made_for, "content/fr/posts/hello-world.md");
    edit_hello(&site, "Edited.");
    let before = site.output_identities();
    let mut dry = Session::open(site.site(), options(|o| o.dry_run = true)).unwrap();
    let report = dry.build().unwrap();
    assert!(report.dry_run);
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
    assert_eq!(site.output_identities(), before);
    // The kept session still builds it, from what it kept.
    let report = session.rebuild(&[HELLO]).unwrap();
    assert!(!report.scanned_everything);
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
}

#[test]
fn a_link_saved_into_content_is_refused_by_a_rebuild_as_by_a_build() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("post.md"),
        post("Leak", "2024-01-01", "Secret."),
    )
    .unwrap();
    let link = site.path("content/en/posts/leak.md");
    std::os::unix::fs::symlink(outside.path().join("post.md"), &link).unwrap();
    let error = session.rebuild(&[&link]).unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/leak.md: is a symbolic link"),
        "{error}"
    );
    assert!(!site.path("public/posts/leak").exists());
}

#[test]
fn a_rebuild_told_of_edits_additions_and_removals_reads_only_those() {
    let site = TestSite::with_posts();
    let mut session = session(&site);
    let sources = session.build().unwrap().scanned;

    // A path told that did not change is not read.
    let untouched = session.rebuild(&[HELLO]).unwrap();
    assert_eq!((untouched.parsed, untouched.unchanged), (0, sources));

    // An edit, a new post and a removed one at once.
    let (new, gone) = (
        "content/en/posts/new.md",
        "content/posts/2024-06-12-second.md",
    );
    assert!(site.path(gone).is_file(), "the site has {gone}");
    edit_hello(&site, "Second, edited.");
    site.write(new, &post("New", "2024-06-01T09:00:00Z", "New."));
    site.remove(gone);
    let mixed = session.rebuild(&[HELLO, new, gone]).unwrap();
    assert!(!mixed.scanned_everything);
    assert_eq!((mixed.parsed, mixed.unchanged), (2, sources - 2));
    assert_eq!(site.output_tree(), site.clean_build_tree());

    // Then edits alone, each row kept in its place.
    for (n, text) in ["Once.", "Twice."].into_iter().enumerate() {
        site.write(new, &post("New", "2024-06-01T09:00:00Z", text));
        edit_hello(&site, text);
        let edited = session.rebuild(&[new, HELLO]).unwrap();
        assert_eq!(
            (edited.parsed, edited.unchanged),
            (2, sources - 2),
            "edit {n}"
        );
        assert_eq!(site.output_tree(), site.clean_build_tree(), "edit {n}");
    }
}
