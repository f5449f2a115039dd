//! Re-runs, interrupted runs, config changes and edits that are not content
//! changes: the index and the output converge, and nothing is written twice.

use crate::util;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use folio::{BuildOptions, Error, Event, ProblemKind, Stage};
use util::{TestSite, options, post, rewritten};

#[test]
fn a_build_killed_before_its_index_commit_is_repaired_by_the_next() {
    let site = TestSite::with_posts();
    site.build();
    // Simulate a kill after the outputs were written but before the index
    // transaction: run a build, then put the index back as it was.
    let index = site.path(".folio/index.sqlite");
    let saved = std::fs::read(&index).unwrap();
    site.write(
        "content/en/posts/hello-world.md",
        &post(
            "Hello again",
            "2024-05-01T09:00:00Z",
            "New first.\n\nNew second.",
        ),
    );
    site.remove("content/posts/third.fr.md");
    site.write(
        "content/en/posts/fresh.md",
        &post("Fresh", "2024-10-01", "Fresh post."),
    );
    site.build();
    std::fs::write(&index, saved).unwrap();
    let _ = std::fs::remove_file(site.path(".folio/index.sqlite-wal"));
    let _ = std::fs::remove_file(site.path(".folio/index.sqlite-shm"));

    let before = site.output_identities();
    let repair = site.build();
    assert!(
        repair.written.is_empty(),
        "the bytes on disk are already right: {:?}",
        repair.written
    );
    assert_eq!(
        rewritten(&before, &site.output_identities()),
        Vec::<String>::new()
    );

    let clean = TestSite::with_posts();
    clean.write(
        "content/en/posts/hello-world.md",
        &post(
            "Hello again",
            "2024-05-01T09:00:00Z",
            "New first.\n\nNew second.",
        ),
    );
    clean.remove("content/posts/third.fr.md");
    clean.write(
        "content/en/posts/fresh.md",
        &post("Fresh", "2024-10-01", "Fresh post."),
    );
    clean.build();
    assert_eq!(site.output_tree(), clean.output_tree());
    assert_eq!(site.content_rows(), clean.content_rows());
    assert!(site.build().written.is_empty());
}

#[test]
fn outputs_reserved_by_a_killed_build_are_still_pruned() {
    let site = TestSite::with_posts();
    site.build();
    // A killed build reserved and wrote a page, then died; its source is gone.
    site.write("public/posts/ghost/index.html", "half a build\n");
    reserve(&site, "posts/ghost/index.html", "half a build\n");
    let report = site.build();
    assert_eq!(report.deleted, ["posts/ghost/index.html"]);
    assert!(!site.path("public/posts/ghost").exists());
}

#[test]
fn a_file_put_where_a_killed_build_was_writing_is_not_folios() {
    let site = TestSite::with_posts();
    site.build();
    // The killed build never got to write these two; someone else did since.
    site.write("public/posts/ghost/index.html", "mine\n");
    reserve(&site, "posts/ghost/index.html", "the page folio meant\n");
    site.write("public/posts/late/index.html", "mine too\n");
    reserve(&site, "posts/late/index.html", "the page folio meant\n");
    site.write(
        "content/en/posts/late.md",
        &post("Late", "2024-09-01", "A page that wants that path."),
    );
    let err = site.try_build().unwrap_err().to_string();
    assert!(err.contains("posts/late/index.html"), "{err}");
    assert_eq!(site.read("public/posts/late/index.html"), "mine too\n");

    site.remove("content/en/posts/late.md");
    let report = site.build();
    assert!(report.deleted.is_empty(), "{:?}", report.deleted);
    assert_eq!(site.read("public/posts/ghost/index.html"), "mine\n");
    assert_eq!(site.read("public/posts/late/index.html"), "mine too\n");
}

/// What a build does just before moving its staged pages into place.
fn reserve(site: &TestSite, path: &str, bytes: &str) {
    site.reserve(path, &util::output_hash(bytes.as_bytes()));
}

#[test]
fn a_pending_row_of_an_older_folio_is_pruned_like_a_reservation() {
    // Before reservations were one row, each was a row of its own, without
    // a stat, holding the SHA-256 of the bytes (`sha256sum` of them, here);
    // an index killed then still holds them.
    let site = TestSite::with_posts();
    site.build();
    site.write("public/posts/ghost/index.html", "half a build\n");
    site.write("public/posts/other/index.html", "someone else's\n");
    for path in ["posts/ghost/index.html", "posts/other/index.html"] {
        site.query(&format!(
            "INSERT INTO outputs (dir, path, hash) VALUES ('{}', '{path}',
             '173390d1092e99ea439f8677836c64e53f084fabd542f9847c9c9f29b95b6a46') RETURNING path",
            site.out().display(),
        ));
    }
    let report = site.build();
    assert_eq!(report.deleted, ["posts/ghost/index.html"]);
    assert_eq!(
        site.read("public/posts/other/index.html"),
        "someone else's\n"
    );
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(report.warnings[0].contains("posts/other/index.html"));
    assert!(
        site.query("SELECT path FROM outputs WHERE size IS NULL")
            .is_empty()
    );
    // The file left is the user's now: said once, not at every build.
    assert!(site.build().warnings.is_empty());
}

#[test]
fn a_page_a_killed_build_replaced_is_restored_and_its_reservation_cleared() {
    let site = TestSite::with_posts();
    site.build();
    let page = site.read("public/posts/hello-world/index.html");
    // The killed build reserved the page and renamed its new bytes into
    // place; those sources were then put back.
    reserve(
        &site,
        "posts/hello-world/index.html",
        "what a killed build wrote",
    );
    site.write(
        "public/posts/hello-world/index.html",
        "what a killed build wrote",
    );
    assert_eq!(
        site.query("SELECT key FROM meta WHERE key LIKE 'reserved %'")
            .len(),
        1
    );
    let report = site.build();
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
    assert_eq!(site.read("public/posts/hello-world/index.html"), page);
    assert!(
        site.query("SELECT key FROM meta WHERE key LIKE 'reserved %'")
            .is_empty()
    );
    assert!(site.build().written.is_empty());
}

#[test]
fn temp_files_of_a_build_killed_while_staging_are_swept_by_the_next() {
    let site = TestSite::with_posts();
    site.build();
    let before = site.output_identities();
    // A build was killed after staging two pages: the index still says so.
    site.write("public/posts/hello-world/.index.html.folio-tmp", "half");
    site.write("public/posts/brand-new/.index.html.folio-tmp", "half");
    // And a first build into an empty folder stages inside it.
    site.write("public/.folio-tmp/index.html", "half");
    site.query(&format!(
        "INSERT INTO meta (key, value) VALUES ('staging {}', '1') RETURNING key",
        site.out().display()
    ));
    let report = site.build();
    assert!(report.written.is_empty(), "{:?}", report.written);
    assert_eq!(site.output_identities(), before, "only the temps went");
    assert!(
        !site
            .path("public/posts/hello-world/.index.html.folio-tmp")
            .exists()
    );
    assert!(
        !site.path("public/posts/brand-new").exists(),
        "its folder was made for the temp"
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
    assert!(
        site.query("SELECT key FROM meta WHERE key LIKE 'staging %'")
            .is_empty()
    );

    // Without that mark, a file of that name is nobody's business.
    site.write("public/.notes.folio-tmp", "mine");
    site.build();
    assert!(site.path("public/.notes.folio-tmp").exists());
}

#[test]
fn an_output_that_turns_from_file_to_folder_and_back_is_rebuilt() {
    // The static file goes; a page takes its URL as a folder.
    let site = notes_turning_into_a_page();
    assert!(site.path("public/notes").is_file());
    let report = site.build();
    assert_eq!(report.deleted, ["notes"]);
    assert!(report.written.contains(&"notes/index.html".to_owned()));
    assert_eq!(site.output_tree(), site.clean_build_tree());

    // And back: the page goes, the file returns where its folder was.
    site.remove("content/en/notes.md");
    site.write("static/notes", "plain notes again\n");
    let report = site.build();
    assert_eq!(report.deleted, ["notes/index.html"]);
    assert!(report.written.contains(&"notes".to_owned()));
    assert_eq!(site.output_tree(), site.clean_build_tree());
    assert!(site.build().written.is_empty());
}

#[test]
fn a_page_in_the_way_of_a_stale_output_checks_its_source_before_the_prune() {
    let site = notes_turning_into_a_page();
    let tree = site.output_tree();
    // The page's source changes under both attempts: the build fails, and
    // must not have pruned the file its page would replace.
    let options = saving_during_render(site.path("content/en/notes.md"), |n| {
        Some(format!("---\ntitle: Notes\n---\nSave {n}.\n"))
    });
    assert!(site.build_with(&options).is_err());
    assert_eq!(site.output_tree(), tree);
    assert!(site.path("public/notes").is_file());
}

#[test]
fn a_page_in_the_way_of_a_stale_output_that_fails_to_render_prunes_nothing() {
    let site = notes_turning_into_a_page();
    let page = std::fs::read_to_string(format!(
        "{}/templates/page.html",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    // Only the page that replaces the stale file fails.
    site.write(
        "templates/page.html",
        &page.replace(
            "{% block content %}",
            "{% block content %}{% if page.title == \"Notes\" %}{{ no_such_function() }}{% endif %}",
        ),
    );
    let tree = site.output_tree();
    let err = site.try_build().unwrap_err().to_string();
    assert!(err.contains("page.html"), "{err}");
    assert_eq!(site.output_tree(), tree);
    assert!(site.path("public/notes").is_file());
}

#[test]
fn a_stale_output_changed_by_hand_in_the_way_of_a_page_is_reported() {
    let site = notes_turning_into_a_page();
    site.write("public/notes", "edited by hand\n");
    let err = site.try_build().unwrap_err().to_string();
    assert!(err.contains("notes") && err.contains("in the way"), "{err}");
    assert_eq!(site.read("public/notes"), "edited by hand\n");
}

#[test]
fn a_timezone_change_that_moves_dates_is_reported_once() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!("timezone = \"Europe/Paris\"\n{}", util::SITE_TOML),
    );
    site.write(
        "content/en/posts/a.md",
        &post("A", "2024-01-01T10:00:00", "a"),
    );
    site.write("content/en/posts/b.md", &post("B", "2024-01-02", "b"));
    site.write(
        "content/en/posts/c.md",
        &post("C", "2024-01-03T10:00:00Z", "c"),
    );
    site.build();
    let tree = site.output_tree();
    let rows = site.rows();

    site.write(
        "site.toml",
        &format!("timezone = \"Asia/Tokyo\"\n{}", util::SITE_TOML),
    );
    let err = site.try_build().unwrap_err();
    match &err {
        Error::TimezoneMovedDates { old, new, files } => {
            assert_eq!((old.as_str(), new.as_str()), ("Europe/Paris", "Asia/Tokyo"));
            let files: Vec<_> = files
                .iter()
                .map(|f| f.to_string_lossy().into_owned())
                .collect();
            assert_eq!(files, ["content/en/posts/a.md", "content/en/posts/b.md"]);
        }
        other => panic!("expected one config error, got {other}"),
    }
    assert!(err.to_string().starts_with("site.toml:"), "{err}");
    assert_eq!(site.output_tree(), tree);
    assert_eq!(site.rows(), rows);

    // A time zone change that moves no date is fine.
    site.write(
        "site.toml",
        &format!("timezone = \"Europe/Berlin\"\n{}", util::SITE_TOML),
    );
    let report = site.build();
    assert_eq!(
        report.parsed, 3,
        "a content setting changed: every source is read again"
    );
    assert!(report.written.is_empty());
}

#[test]
fn a_slug_changed_on_purpose_moves_the_page() {
    let site = TestSite::with_posts();
    site.build();
    site.write(
        "content/en/posts/hello-world.md",
        "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\nslug: hello\n---\nFirst paragraph.\n",
    );
    // Refused by hand (tests/amend.rs); let through, it moves.
    let report = site
        .build_with(&options(|o| o.accept_id_changes = true))
        .unwrap();
    assert_eq!(report.deleted, ["posts/hello-world/index.html"]);
    assert!(
        report
            .written
            .contains(&"posts/hello/index.html".to_owned())
    );
    assert_eq!(
        site.query("SELECT slug FROM posts WHERE source_path = 'content/en/posts/hello-world.md'"),
        ["hello"]
    );
    assert!(
        site.read("public/fr/posts/hello-world/index.html")
            .contains("href=\"/posts/hello/\"")
    );
}

#[test]
fn renaming_a_file_without_changing_it_rewrites_nothing() {
    let site = TestSite::with_posts();
    site.build();
    let text = site.read("content/en/posts/hello-world.md");
    site.remove("content/en/posts/hello-world.md");
    site.write("content/posts/hello-world.md", &text);
    let report = site.build();
    assert!(report.written.is_empty(), "{:?}", report.written);
    assert!(report.deleted.is_empty());
    assert_eq!(
        site.query("SELECT source_path FROM posts WHERE id = '01HWSP3MM02BC0VWVKC580KT23'"),
        ["content/posts/hello-world.md"]
    );
}

#[test]
fn touching_a_file_reads_it_once_and_writes_nothing() {
    let site = TestSite::with_posts();
    site.build();
    let rows = site.content_rows();
    site.touch("content/fr/posts/hello-world.md");
    let report = site.build();
    assert_eq!(report.parsed, 1);
    assert!(report.written.is_empty());
    assert_eq!(
        report.rows_upserted, 0,
        "same hash: only the stat is refreshed"
    );
    assert_eq!(site.content_rows(), rows);
    assert_eq!(site.build().parsed, 0);
}

#[test]
fn a_source_modified_during_a_build_is_read_again_by_the_next() {
    let site = TestSite::with_posts();
    // An mtime at or after the build's start cannot be trusted: the file may
    // change again within the same tick without its stat changing.
    let future = filetime::FileTime::from_unix_time(4_000_000_000, 0);
    filetime::set_file_mtime(site.path("content/en/about.md"), future).unwrap();
    site.build();
    assert_eq!(
        site.query("SELECT source_mtime_ns FROM posts WHERE source_path = 'content/en/about.md'"),
        ["-1"]
    );
    let report = site.build();
    assert_eq!(report.parsed, 1);
    assert!(report.written.is_empty());
}

#[test]
fn a_source_saved_between_its_parse_and_its_page_is_read_again() {
    let site = TestSite::with_posts();
    site.build();
    site.write(
        "content/en/posts/hello-world.md",
        &post("Hello, edited", "2024-05-01T09:00:00Z", "Edited."),
    );
    let saved = post(
        "Hello again",
        "2024-05-01T09:00:00Z",
        "Saved while the build ran.",
    );
    // Bodies are read again when their page renders: a save after the parse
    // must not give a page the old title over the new body.
    let text = saved.clone();
    let options = saving_during_render(site.path("content/en/posts/hello-world.md"), move |n| {
        (n == 0).then(|| text.clone())
    });
    let report = site.build_with(&options).unwrap();
    assert_eq!(
        report.parsed, 1,
        "the retry reads the saved file: {report:?}"
    );
    let page = site.read("public/posts/hello-world/index.html");
    assert!(page.contains("<h1>Hello again</h1>"), "{page}");
    assert!(page.contains("Saved while the build ran."), "{page}");
    assert_eq!(
        site.query(
            "SELECT source_hash FROM posts WHERE source_path = 'content/en/posts/hello-world.md'"
        ),
        [util::source_hash(saved.as_bytes())]
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
    assert!(site.build().written.is_empty());
}

#[test]
fn a_source_saved_again_during_the_retry_fails_the_build_and_changes_nothing() {
    let site = TestSite::with_posts();
    site.build();
    site.write(
        "content/en/posts/hello-world.md",
        &post("Hello, edited", "2024-05-01T09:00:00Z", "Edited."),
    );
    let outputs = || site.query("SELECT * FROM outputs ORDER BY path");
    let (tree, rows, output_rows) = (site.output_tree(), site.rows(), outputs());
    let options = saving_during_render(site.path("content/en/posts/hello-world.md"), |n| {
        Some(post("Hello", "2024-05-01T09:00:00Z", &format!("Save {n}.")))
    });
    let Err(Error::Content(problems)) = site.build_with(&options) else {
        panic!("a source that changes under every attempt is an error");
    };
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].kind, ProblemKind::ChangedDuringBuild);
    assert!(
        problems[0].to_string().contains("kept changing"),
        "{}",
        problems[0]
    );
    assert_eq!(site.output_tree(), tree);
    assert_eq!(site.rows(), rows);
    assert_eq!(outputs(), output_rows);
}

#[test]
fn drafts_are_built_only_on_request_and_keep_their_row() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/idea.md",
        "---\ntitle: Idea\ndate: 2024-09-01\ndraft: true\n---\nNot yet.\n",
    );
    site.build();
    assert!(!site.path("public/posts/idea/index.html").exists());
    assert!(!site.read("public/index.html").contains("Idea"));
    assert_eq!(
        site.query("SELECT draft FROM posts WHERE slug = 'idea'"),
        ["1"]
    );

    let with = site.build_with(&options(|o| o.drafts = true)).unwrap();
    // The draft's neighbour links to it; the home, archive, feed, posts
    // section and sitemap list it.
    assert_eq!(
        with.written,
        [
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/idea/index.html",
            "posts/index.html",
            "posts/second/index.html",
            "sitemap.xml"
        ]
    );
    let without = site.build();
    assert_eq!(without.deleted, ["posts/idea/index.html"]);
    assert_eq!(
        site.query("SELECT count(*) FROM posts WHERE slug = 'idea'"),
        ["1"]
    );
}

#[test]
fn every_invalid_source_is_reported_at_once_and_nothing_is_written() {
    let site = TestSite::with_posts();
    site.write("content/posts/x.de.md", &post("X", "2024-01-01", "x"));
    site.write(
        "content/en/posts/bad-tags.md",
        "---\ntitle: T\ndate: 2024-01-01\ntags: solo\n---\n",
    );
    site.write("content/fr/posts/no-date.md", "---\ntitle: T\n---\n");
    let err = site.try_build().unwrap_err();
    let message = err.to_string();
    for needle in [
        "content/posts/x.de.md: language `de` is not declared",
        "content/en/posts/bad-tags.md:4: field `tags`: expected a list of strings, found a string",
        "content/fr/posts/no-date.md: field `date`: is required for a post",
        "3 problems",
    ] {
        assert!(message.contains(needle), "lacks {needle:?}:\n{message}");
    }
    assert!(!site.out().exists());
    assert!(site.query("SELECT count(*) FROM posts") == ["0"]);
}

#[test]
fn template_edits_rerender_exactly_the_pages_that_use_them() {
    let site = TestSite::with_posts();
    for name in ["base.html", "post.html", "list.html", "page.html"] {
        let default =
            std::fs::read_to_string(format!("{}/templates/{name}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        site.write(&format!("templates/{name}"), &default);
    }
    let first = site.build();
    assert_eq!(first.rendered, 27);
    assert_eq!(site.build().rendered, 0);

    let edit = |name: &str, marker: &str| {
        let text = site.read(&format!("templates/{name}"));
        site.write(
            &format!("templates/{name}"),
            &text.replacen(
                "{% block content %}",
                &format!("{{% block content %}}{marker}"),
                1,
            ),
        );
    };
    edit("post.html", "<!-- post -->");
    let report = site.build();
    assert_eq!(report.rendered, 5);
    assert_eq!(
        report
            .written
            .iter()
            .filter(|p| p.contains("posts/"))
            .count(),
        5
    );
    assert_eq!(report.written.len(), 5);

    let text = site.read("templates/base.html");
    site.write(
        "templates/base.html",
        &text.replace("<main", "<!-- base --><main"),
    );
    // Every HTML page (the 404 page, the sections' lists and the archives
    // too); the feeds, the sitemap and robots.txt do not extend it.
    assert_eq!(site.build().written.len(), 21);

    site.write("templates/unused.html", "nothing extends me");
    let report = site.build();
    assert_eq!((report.rendered, report.written.len()), (0, 0));
}

#[test]
fn an_output_folder_that_would_overwrite_the_site_is_refused() {
    let site = TestSite::with_posts();
    for out in [
        ".",
        "content",
        "content/en",
        "templates",
        "public/..",
        "public/../content",
        ".folio",
    ] {
        let err = site
            .build_with(&options(|o| o.out_dir = Some(out.into())))
            .unwrap_err();
        assert!(matches!(err, Error::Config { .. }), "{out}: {err}");
    }
}

#[test]
fn building_into_another_folder_never_touches_that_folders_own_files() {
    let site = TestSite::with_posts();
    site.build();
    let elsewhere = tempfile::tempdir().unwrap();
    let dist = elsewhere.path().join("dist");
    std::fs::create_dir_all(dist.join("about")).unwrap();
    std::fs::write(dist.join("about/index.html"), "hand-made").unwrap();
    let to_dist = options(|o| o.out_dir = Some(dist.clone()));
    let err = site.build_with(&to_dist).unwrap_err();
    assert!(err.to_string().contains("about/index.html"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dist.join("about/index.html")).unwrap(),
        "hand-made"
    );

    std::fs::remove_file(dist.join("about/index.html")).unwrap();
    site.build_with(&to_dist).unwrap();
    // Back to public/: its rows were kept, so nothing is rewritten...
    let report = site.build();
    assert!(report.written.is_empty(), "{:?}", report.written);
    // ...and a change after a build elsewhere is written like any other.
    site.build_with(&to_dist).unwrap();
    site.write(
        "content/en/posts/hello-world.md",
        &post(
            "Hello, moved",
            "2024-05-01T09:00:00Z",
            "Changed while away.",
        ),
    );
    let report = site.build();
    assert!(
        report
            .written
            .contains(&"posts/hello-world/index.html".to_owned()),
        "{:?}",
        report.written
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
    site.remove("content/en/about.md");
    let third = elsewhere.path().join("third");
    std::fs::create_dir_all(third.join("about")).unwrap();
    std::fs::write(third.join("about/index.html"), "mine").unwrap();
    let report = site
        .build_with(&options(|o| o.out_dir = Some(third.clone())))
        .unwrap();
    assert!(report.deleted.is_empty());
    assert_eq!(
        std::fs::read_to_string(third.join("about/index.html")).unwrap(),
        "mine"
    );
}

#[test]
fn outputs_that_cannot_coexist_on_disk_are_refused_before_any_write() {
    let site = TestSite::new();
    site.write("content/en/posts/a.md", &post("A", "2024-01-01", "a"));
    // A page at /index.html/ would need index.html to be a folder and a file.
    site.write(
        "content/en/odd.md",
        "---\ntitle: Odd\nslug: index.html\n---\n",
    );
    let message = site.try_build().unwrap_err().to_string();
    assert!(
        message.contains("content/en/odd.md") && message.contains("inside index.html"),
        "{message}"
    );
    assert!(!site.out().exists());

    let site = TestSite::new();
    site.write(
        "content/en/posts/a.md",
        "---\ntitle: A\ndate: 2024-01-01\nslug: Hello\n---\n",
    );
    site.write(
        "content/en/posts/b.md",
        "---\ntitle: B\ndate: 2024-01-02\nslug: hello\n---\n",
    );
    let message = site.try_build().unwrap_err().to_string();
    assert!(message.contains("where case is ignored"), "{message}");
    assert!(!site.out().exists());
}

#[test]
fn a_config_change_rederives_rows_and_the_next_build_writes_nothing() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!("timezone = \"UTC\"\n{}", util::SITE_TOML),
    );
    site.write(
        "content/en/posts/a.md",
        "---\ntitle: A\ndate: 2024-01-01T00:00:00Z\nupdated: 2024-06-01T01:00:00\n---\nA.\n",
    );
    site.build();
    site.write(
        "site.toml",
        &format!("timezone = \"Asia/Tokyo\"\n{}", util::SITE_TOML),
    );
    let report = site.build();
    assert_eq!(
        report.rows_upserted, 1,
        "`updated` moved with the time zone"
    );
    assert!(
        site.read("public/posts/a/index.html")
            .contains("datetime=\"2024-06-01T01:00:00+09:00\"")
    );
    let again = site.build();
    assert!(again.written.is_empty(), "{:?}", again.written);
}

#[test]
fn removing_a_language_reports_its_files_instead_of_failing() {
    let site = TestSite::with_posts();
    site.build();
    site.write(
        "site.toml",
        &util::SITE_TOML.replace("[languages.fr]\nname = \"Français\"\n", ""),
    );
    let err = site.try_build().unwrap_err();
    let Error::Content(problems) = &err else {
        panic!("{err}")
    };
    assert!(problems.iter().all(|p| matches!(&p.kind, folio::ProblemKind::UndeclaredLanguage { lang, .. } if lang == "fr")), "{err}");
    assert_eq!(problems.len(), 2, "{err}");
}

#[test]
fn a_source_whose_stat_did_not_change_but_whose_bytes_did_is_read_again() {
    let site = TestSite::with_posts();
    site.build();
    // Same size, same mtime, other bytes: what `cp -p` or `rsync -t` can do.
    let path = site.path("content/fr/posts/hello-world.md");
    let mtime = filetime::FileTime::from_last_modification_time(&std::fs::metadata(&path).unwrap());
    let text = site
        .read("content/fr/posts/hello-world.md")
        .replace("Premier", "PREMIER");
    std::fs::write(&path, text).unwrap();
    filetime::set_file_mtime(&path, mtime).unwrap();
    // Nothing forces its page to render: the stat is trusted, as designed.
    assert_eq!(site.build().parsed, 0);
    // A template edit renders it again; its bytes then disagree with its row
    // and the build reads it instead of mixing old and new.
    site.write(
        "templates/post.html",
        &std::fs::read_to_string(format!(
            "{}/templates/post.html",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .replace("<article", "<article data-v=\"2\""),
    );
    let report = site.build();
    assert!(report.parsed >= 1, "{report:?}");
    assert!(
        site.read("public/fr/posts/hello-world/index.html")
            .contains("PREMIER")
    );
    assert!(
        site.read("public/fr/index.html").contains("PREMIER"),
        "the summary follows"
    );
    assert!(site.build().written.is_empty());
}

#[test]
fn an_output_deleted_or_edited_by_hand_is_restored_when_nothing_else_changed() {
    let site = TestSite::with_posts();
    site.build();
    let original = site.read("public/fr/index.html");
    site.remove("public/fr/index.html");
    assert_eq!(site.build().written, ["fr/index.html"]);
    site.write("public/posts/second/index.html", "defaced");
    assert_eq!(site.build().written, ["posts/second/index.html"]);
    assert_eq!(site.read("public/fr/index.html"), original);
    assert!(site.build().written.is_empty());
}

#[cfg(unix)]
#[test]
fn a_page_is_never_written_through_a_linked_folder() {
    let site = TestSite::with_posts();
    site.build();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(elsewhere.path().join("index.html"), "not folio's").unwrap();
    std::fs::remove_dir_all(site.path("public/posts/hello-world")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), site.path("public/posts/hello-world")).unwrap();
    site.write(
        "content/en/posts/hello-world.md",
        &post("Hello, linked", "2024-05-01T09:00:00Z", "Changed."),
    );
    let err = site.try_build().unwrap_err().to_string();
    assert!(err.contains("symbolic link"), "{err}");
    assert_eq!(
        std::fs::read_to_string(elsewhere.path().join("index.html")).unwrap(),
        "not folio's"
    );
    let names: Vec<_> = std::fs::read_dir(elsewhere.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temp file was left there either");
}

#[cfg(unix)]
#[test]
fn a_first_build_into_a_linked_or_existing_empty_folder_keeps_that_folder() {
    use std::os::unix::fs::PermissionsExt;
    let site = TestSite::with_posts();
    std::fs::create_dir(site.path("www")).unwrap();
    std::os::unix::fs::symlink(site.path("www"), site.out()).unwrap();
    site.build();
    assert!(site.path("www/index.html").exists());
    assert!(
        site.out()
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );

    let site = TestSite::with_posts();
    std::fs::create_dir(site.out()).unwrap();
    std::fs::set_permissions(site.out(), std::fs::Permissions::from_mode(0o2770)).unwrap();
    site.build();
    let mode = std::fs::metadata(site.out()).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode, 0o2770, "the folder is the user's, settings and all");
}

#[test]
fn a_folder_beside_the_output_folder_is_not_folios() {
    let site = TestSite::with_posts();
    site.write(".public.folio-tmp/keep.txt", "mine");
    site.build();
    assert_eq!(site.read(".public.folio-tmp/keep.txt"), "mine");
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[test]
fn a_refused_build_prunes_nothing_in_the_way() {
    let site = notes_turning_into_a_page();
    // A file of the user's where a new post goes: the build is refused.
    site.write("public/posts/fresh/index.html", "mine\n");
    site.write(
        "content/en/posts/fresh.md",
        &post("Fresh", "2024-10-01", "Fresh post."),
    );
    let err = site.try_build().unwrap_err().to_string();
    assert!(err.contains("did not write"), "{err}");
    assert_eq!(site.read("public/notes"), "plain notes\n");
}

#[test]
fn a_dry_run_of_a_folder_turning_into_a_file_says_what_the_build_does() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/notes.md",
        "---\ntitle: Notes\n---\nNotes as a page.\n",
    );
    site.build();
    site.remove("content/en/notes.md");
    site.write("static/notes", "plain notes\n");
    let dry = site.dry_run();
    assert_eq!(dry.deleted, ["notes/index.html"]);
    assert!(
        dry.written.contains(&"notes".to_owned()),
        "{:?}",
        dry.written
    );
    let real = site.build();
    assert_eq!(real.deleted, dry.deleted);
    assert_eq!(real.written, dry.written);
}

#[test]
fn two_killed_builds_in_a_row_still_converge() {
    let site = TestSite::with_posts();
    site.build();
    site.write(
        "content/en/posts/fresh.md",
        &post("Fresh", "2024-10-01", "Version C."),
    );
    // Build 1 reserved the page for bytes A and was killed before moving
    // anything into place; build 2 reserved it for bytes B, moved them into
    // place and was killed before its commit.
    for bytes in ["<html>A</html>", "<html>B</html>"] {
        reserve(&site, "posts/fresh/index.html", bytes);
    }
    site.write("public/posts/fresh/index.html", "<html>B</html>");
    site.build();
    assert!(
        site.read("public/posts/fresh/index.html")
            .contains("Version C")
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
}

#[cfg(unix)]
#[test]
fn a_backslash_in_a_template_name_is_part_of_the_name() {
    let site = TestSite::with_posts();
    site.write("templates/odd\\name.html", "x");
    site.build();
}

#[test]
fn hashes_an_older_folio_stored_are_replaced_without_rewriting_a_page() {
    // Hashes are compared, never recomputed from one another: an index whose
    // hashes came from another algorithm (BLAKE3 for a day, before output
    // hashes were XXH3) and whose fingerprints were made from them costs a
    // re-read of what was touched and a render of every page, and no write.
    let site = TestSite::with_posts();
    site.build();
    site.query("UPDATE posts SET source_hash = substr(source_hash, 2) || '0' RETURNING id");
    for rel in TestSite::tree(&site.path("content")).keys() {
        site.touch(&format!("content/{rel}"));
    }
    assert_upgrade_writes_nothing(&site);
}

#[test]
fn an_index_of_a_folio_that_stored_blake3_has_every_source_read_once() {
    // A folio of early December 2026 stored BLAKE3 in source_hash, 64 hex
    // digits like SHA-256's: no row tells them apart, and a source whose
    // stat held would keep its BLAKE3 for good. The settings the rows were
    // made with now name the algorithm, so such an index has every source
    // read once; every page renders (the settings are in every fingerprint)
    // and none is written.
    let site = TestSite::with_posts();
    site.build();
    as_if_built_by_the_blake3_folio(&site);
    assert_upgrade_writes_nothing(&site);
}

#[test]
fn a_dry_run_after_an_upgrade_names_the_folio_not_site_toml() {
    // Every fingerprint holds the settings a folio brings of its own, so the
    // first build by another folio renders every page; the pages it would
    // write are named with that, and with their sources.
    let site = TestSite::with_posts();
    site.build();
    as_if_built_by_the_blake3_folio(&site);
    let text = site.read("content/posts/third.fr.md");
    site.write(
        "content/posts/third.fr.md",
        &format!("{text}\nUne phrase de plus.\n"),
    );
    let dry = site.dry_run();
    assert_eq!(
        dry.why.get("fr/posts/third/index.html").map(String::as_str),
        Some(
            "another folio (another version) made the last build; source changed: content/posts/third.fr.md"
        ),
        "{:?}",
        dry.why
    );
    assert!(
        dry.why.values().all(|why| !why.contains("site.toml")),
        "{:?}",
        dry.why
    );
}

/// The meta rows as the folio that stored BLAKE3 left them: its content
/// settings did not name the source hash, and the digests of what it read
/// and of what every page shares held those settings.
fn as_if_built_by_the_blake3_folio(site: &TestSite) {
    site.query(
        "UPDATE meta SET value = replace(value, ', source_hash sha256', '')
         WHERE key = 'content_settings' RETURNING key",
    );
    site.query("UPDATE meta SET value = 'older' WHERE key IN ('inputs', 'globals') RETURNING key");
}

/// With every output row as an older folio left it (another hash, another
/// fingerprint, and the digest of its inputs its own, as the settings it
/// recorded name that folio), the first build after the upgrade reads
/// every source (all touched or untrusted) and renders every page, writes
/// none, and leaves every row with this folio's hashes: the SHA-256 of
/// each source, the XXH3-128 (32 hex digits) of each output. The next
/// build does nothing.
fn assert_upgrade_writes_nothing(site: &TestSite) {
    site.query(
        "UPDATE outputs SET hash = hash || hash, fingerprint = 'older ' || fingerprint RETURNING path",
    );
    site.query("UPDATE meta SET value = 'older' WHERE key = 'inputs' RETURNING key");
    let sources = TestSite::tree(&site.path("content"));
    let before = site.output_identities();
    let report = site.build();
    assert_eq!((report.parsed, report.unchanged), (sources.len(), 0));
    // Every output is made again; the stylesheet's twin is not rendered
    // but copied from the sheet's bytes.
    assert_eq!(report.rendered, before.len() - 1);
    assert!(report.written.is_empty(), "{:?}", report.written);
    assert_eq!(site.output_identities(), before);
    for (rel, bytes) in &sources {
        let stored = site.query(&format!(
            "SELECT source_hash FROM posts WHERE source_path = 'content/{rel}'"
        ));
        assert_eq!(stored, [util::source_hash(bytes)], "{rel}");
    }
    assert_eq!(
        site.query("SELECT DISTINCT length(hash) FROM outputs"),
        ["32"]
    );
    let again = site.build();
    assert_eq!(
        (again.parsed, again.rendered, again.written.len()),
        (0, 0, 0)
    );
}

/// A built site whose static file `notes` has just given way to a page at
/// `/notes/`: the page's output stands where a stale file is.
fn notes_turning_into_a_page() -> TestSite {
    let site = TestSite::with_posts();
    site.write("static/notes", "plain notes\n");
    site.build();
    site.remove("static/notes");
    site.write(
        "content/en/notes.md",
        "---\ntitle: Notes\n---\nNotes as a page.\n",
    );
    site
}

/// Build options that save `save(n)`, if any, to `path` as the render stage
/// of the build's attempt `n` (0, then 1 for the retry) starts: after the
/// parse, before any page reads its source again.
fn saving_during_render(
    path: std::path::PathBuf,
    save: impl Fn(usize) -> Option<String> + Send + Sync + 'static,
) -> BuildOptions {
    let attempts = AtomicUsize::new(0);
    options(|o| {
        o.observer = Some(Arc::new(move |event: &Event| {
            if let Event::StageStarted {
                stage: Stage::Render,
                ..
            } = event
                && let Some(text) = save(attempts.fetch_add(1, Ordering::SeqCst))
            {
                std::fs::write(&path, text).unwrap();
            }
        }));
    })
}

/// The outputs where the site differs from a clean build of its sources.
fn differing_from_clean(site: &TestSite) -> Vec<String> {
    let (tree, clean) = (site.output_tree(), site.clean_build_tree());
    let differing: std::collections::BTreeSet<&String> = (tree.keys().chain(clean.keys()))
        .filter(|path| tree.get(*path) != clean.get(*path))
        .collect();
    differing.into_iter().cloned().collect()
}

/// Builds `site`, and asserts that the build wrote `page`.
fn build_writing(site: &TestSite, page: &str) {
    let written = site.build().written;
    assert!(written.iter().any(|path| path == page), "{written:?}");
}

/// Asserts that `site`'s output folder, its outputs' rows and its documents'
/// rows are those a clean build of its sources makes (`context` says which
/// run of a test this is).
fn assert_as_a_clean_build(site: &TestSite, context: &str) {
    let clean = site.clean_build();
    assert_eq!(differing_from_clean(site), [] as [&str; 0], "{context}");
    assert_eq!(site.output_rows(), clean.output_rows, "{context}");
    assert_eq!(site.content_rows(), clean.content_rows, "{context}");
}

/// Builds `first`, then `then`, through one-off builds and through a kept
/// session: each time the site ends as a clean build of its sources would.
/// Both keep the fingerprints of the pages a changed document does not
/// reach; these are the edits that reach a page in a way no document's
/// digest says.
fn assert_both_ways_as_clean(first: &[(&str, &str)], then: &[(&str, &str)]) {
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        for (path, text) in first {
            site.write(path, text);
        }
        site.build();
        for (path, text) in then {
            site.write(path, text);
        }
        site.build();
        assert_eq!(differing_from_clean(&site), [] as [&str; 0], "kept: {kept}");
    }
}

#[test]
fn few_posts_read_again_among_many_end_as_a_clean_build_with_its_rows() {
    // Two of two dozen sources read again, none come or gone: the rows
    // stay in their places (analyse's in-place split), whose order by path
    // differs from the walk's (`p-1` sorts before `p.md`, a folder's files
    // where its name does), in one-off builds and a kept session alike.
    let names = |n: usize| match n % 3 {
        0 => format!("content/en/posts/p{n:02}.md"),
        1 => format!("content/en/posts/p{n:02}-1.md"),
        _ => format!("content/en/posts/p{n:02}/index.md"),
    };
    let dated = |n: usize, title: &str, body: &str| {
        let date = format!("2024-04-{:02}T09:00:00Z", n + 1);
        format!(
            "---\ntitle: {title}\ndate: {date}\ntags: [t{}]\n---\n{body}\n",
            n % 4
        )
    };
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        for n in 0..18 {
            site.write(&names(n), &dated(n, &format!("Post {n}"), "First."));
        }
        site.build();
        site.write(&names(7), &dated(7, "Post 7", "Edited.\n\nAnd longer."));
        site.write(&names(11), &dated(11, "Renamed", "First."));
        site.build();
        assert_as_a_clean_build(&site, &format!("kept: {kept}"));
        assert!(
            site.read("public/posts/p07-1/index.html")
                .contains("And longer.")
        );
    }
}

#[test]
fn a_retitled_post_s_redirect_names_its_new_title() {
    let post = |title: &str| {
        format!(
            "---\ntitle: {title}\ndate: 2024-05-01T09:00:00Z\naliases: [/old/hello/]\n---\nFirst.\n"
        )
    };
    let path = "content/en/posts/hello-world.md";
    assert_both_ways_as_clean(&[(path, &post("Hello"))], &[(path, &post("Greetings"))]);
}

#[test]
fn a_retitled_tagged_page_moves_among_its_term_s_pages_and_in_the_sitemap() {
    // A term lists its pages by title, one a page here: a new title is a
    // new place, and each term page's date in the sitemap is its newest.
    let site_toml = format!("paginate = 1\n{}", util::SITE_TOML);
    let page = |title: &str, updated: &str| {
        format!("---\ntitle: {title}\ntags: [t]\nupdated: {updated}\n---\nText.\n")
    };
    let (alpha, beta) = ("content/en/alpha.md", "content/en/beta.md");
    assert_both_ways_as_clean(
        &[
            ("site.toml", &site_toml),
            (alpha, &page("Alpha", "2025-03-01")),
            (beta, &page("Beta", "2025-01-01")),
        ],
        &[(alpha, &page("Zulu", "2025-03-01"))],
    );
}

#[test]
fn a_stylesheet_made_from_the_posts_relinks_every_page_naming_it() {
    // The theme's style.css lists every post's summary: a body edit gives
    // it new bytes, hence a new twin, which every page must link.
    let style = "/* {% for p in all_posts %}{{ p.summary }} {% endfor %} */ body { margin: 0 }\n";
    let path = "content/en/posts/hello-world.md";
    assert_both_ways_as_clean(
        &[("templates/style.css", style)],
        &[(
            path,
            &post("Hello", "2024-05-01T09:00:00Z", "Edited first.\n\nSecond."),
        )],
    );
}

/// Two dozen dated posts with a tag each, named as
/// [`few_posts_read_again_among_many_end_as_a_clean_build_with_its_rows`]
/// names them, built once.
fn two_dozen_posts(kept: bool) -> (TestSite, impl Fn(usize, &str, &str) -> (String, String)) {
    let post = |n: usize, title: &str, body: &str| {
        let path = match n % 3 {
            0 => format!("content/en/posts/p{n:02}.md"),
            1 => format!("content/en/posts/p{n:02}-1.md"),
            _ => format!("content/en/posts/p{n:02}/index.md"),
        };
        let date = format!("2024-04-{:02}T09:00:00Z", n + 1);
        let tag = n % 4;
        let text = format!("---\ntitle: {title}\ndate: {date}\ntags: [t{tag}]\n---\n{body}\n");
        (path, text)
    };
    let site = TestSite::with_posts_kept(kept);
    for n in 0..24 {
        let (path, text) = post(n, &format!("Post {n}"), "First.");
        site.write(&path, &text);
    }
    site.build();
    (site, post)
}

#[test]
fn a_one_off_build_after_edits_in_place_plans_the_pages_a_kept_session_would() {
    // A kept session brings its plan up to date, fingerprinting the pages
    // that show what changed; a one-off build finds the same pages by what
    // their rows keep, and plans no other (the sitemap included).
    let mut fingerprinted = Vec::new();
    for kept in [true, false] {
        let (site, post) = two_dozen_posts(kept);
        let (path, text) = post(7, "Post 7", "Edited.\n\nAnd longer.");
        site.write(&path, &text);
        let (retitled, text) = post(11, "Renamed", "First.");
        site.write(&retitled, &text);
        let report = site.build();
        fingerprinted.push(report.fingerprinted);
        assert_as_a_clean_build(&site, &format!("kept: {kept}"));
    }
    assert_eq!(fingerprinted[0], fingerprinted[1], "kept, then one-off");
    assert!(fingerprinted[1] < 20, "{fingerprinted:?} of some 80 pages");
}

#[test]
fn an_index_whose_rows_keep_no_page_is_brought_to_keep_every_page() {
    // An index of an older folio keeps no page beside its outputs: the
    // next build that plans keeps every page's, and planning some pages
    // waits until it has.
    let (site, post) = two_dozen_posts(false);
    site.query("UPDATE outputs SET page = NULL, covers = NULL");
    site.query("DELETE FROM meta WHERE key LIKE 'pages %'");
    let (path, text) = post(5, "Post 5", "Edited.");
    site.write(&path, &text);
    site.build();
    assert_as_a_clean_build(&site, "");
    let (path, text) = post(6, "Post 6", "Edited too.");
    site.write(&path, &text);
    site.build();
    assert_eq!(differing_from_clean(&site), [] as [&str; 0]);
    assert_eq!(site.output_rows(), site.clean_build().output_rows);
}

#[test]
fn a_page_its_row_names_in_a_way_unknown_is_planned_with_every_other() {
    // A row another version wrote may name its page in a way this one does
    // not read: the build plans every page instead, and names it anew.
    let (site, post) = two_dozen_posts(false);
    site.query("UPDATE outputs SET page = 'term en tags t1' WHERE path LIKE 'tags/t1/%'");
    let (path, text) = post(5, "Post 5", "Edited.");
    site.write(&path, &text);
    let before = site.output_tree();
    let report = site.build();
    assert!(report.written.contains(&"posts/p05/index.html".to_owned()));
    // Planned with every output's row, not only those of the pages that
    // show the post: the others' fingerprints are their rows', and a page
    // whose bytes stay is not written again.
    assert!(
        report.fingerprinted < 20,
        "{} of some 80 pages",
        report.fingerprinted
    );
    let after = site.output_tree();
    let changed: Vec<&String> = (after.iter())
        .filter(|(path, bytes)| before.get(*path) != Some(*bytes))
        .map(|(path, _)| path)
        .collect();
    assert_eq!(report.written.iter().collect::<Vec<_>>(), changed);
    assert_as_a_clean_build(&site, "");
}

#[test]
fn a_post_moved_to_another_file_then_retitled_is_renamed_on_every_page_naming_it() {
    // Moved, it keeps its URL, date and title: the pages listing it or
    // redirecting to it are the same pages, not written again. Retitled
    // later, a one-off build still finds every one of them.
    let post = |title: &str| {
        format!(
            "---\ntitle: {title}\nslug: kept\ndate: 2024-04-30T09:00:00Z\ntags: [t1]\naliases: [/old/kept/]\n---\nBody.\n"
        )
    };
    let (site, _) = two_dozen_posts(false);
    site.write("content/en/posts/kept.md", &post("Kept"));
    site.build();
    site.remove("content/en/posts/kept.md");
    site.write("content/en/posts/moved/kept.md", &post("Kept"));
    let moved = site.build();
    assert!(moved.written.is_empty(), "{:?}", moved.written);
    site.write("content/en/posts/moved/kept.md", &post("Renamed"));
    site.build();
    assert_as_a_clean_build(&site, "");
    assert!(site.read("public/old/kept/index.html").contains("Renamed"));
}

#[test]
fn every_post_a_base_template_reads_is_kept_as_one_key_on_every_page() {
    // A base template reading `all_posts` shows every post on every page:
    // each page's row keeps one key for them all, not one per post, and a
    // post retitled is renamed on every page all the same.
    let (site, post) = two_dozen_posts(false);
    let base = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/base.html"));
    let listed = "{% for p in all_posts %}<i>{{ p.title }}</i>{% endfor %}";
    site.write(
        "templates/base.html",
        &base
            .unwrap()
            .replacen("</body>", &format!("{listed}</body>"), 1),
    );
    site.build();
    let widest = site.query("SELECT max(length(covers)) FROM outputs WHERE page LIKE 'document %'");
    let widest: usize = widest[0].parse().unwrap();
    assert!(
        widest < 4 * 12,
        "{widest} bytes of covers for a post's page"
    );
    let (path, text) = post(9, "Nine", "First.");
    site.write(&path, &text);
    site.build();
    assert!(
        site.read("public/posts/p03/index.html")
            .contains("<i>Nine</i>")
    );
    assert_as_a_clean_build(&site, "");
}

#[test]
fn a_post_in_the_place_of_a_term_page_is_planned_alone_with_what_shows_it() {
    // A post whose URL is a term's page takes its place; an edit of a post
    // listed there plans the pages a kept session would, none else.
    let taker = "content/en/posts/d.md";
    let text = |title: &str| {
        format!("---\ntitle: {title}\ndate: 2024-04-10T10:00:00Z\npermalink: /tags/t1/\n---\nD.\n")
    };
    let mut fingerprinted = Vec::new();
    for kept in [true, false] {
        let (site, post) = two_dozen_posts(kept);
        site.write(taker, &text("D"));
        site.build();
        let (path, edited) = post(9, "Post 9", "Edited.");
        site.write(&path, &edited);
        site.write(taker, &text("D2"));
        fingerprinted.push(site.build().fingerprinted);
        assert_as_a_clean_build(&site, &format!("kept: {kept}"));
    }
    assert_eq!(fingerprinted[0], fingerprinted[1], "kept, then one-off");
}

#[test]
fn a_one_off_edit_leads_links_to_the_documents_it_did_not_read() {
    // A one-off build reads the rows of the documents it does not read
    // again as stubs, without their URLs: those a planned page shows a
    // link to are read whole, from a body, from a summary a list shows,
    // and from a post left as it was that a list shows beside it. (One
    // source read again in eight or more leaves the rows in their places.)
    let site = TestSite::with_posts();
    for n in 1..=8 {
        let date = format!("2023-0{n}-01T09:00:00Z");
        site.write(
            &format!("content/en/posts/p{n}.md"),
            &post("P", &date, "Else.\n"),
        );
    }
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\nAbout this site.\n",
    );
    site.write(
        "content/en/posts/older.md",
        &post(
            "Older",
            "2024-04-01T09:00:00Z",
            "Read [the greeting](@/posts/hello-world.md).\n",
        ),
    );
    let linking = |summary: &str, body: &str| {
        let en = format!(
            "{summary} [about us](@/about.md).\n\n<!-- more -->\n\n{body} [the older one](@/posts/older.md).\n"
        );
        site.write(
            "content/en/posts/hello-world.md",
            &post("Hello", "2024-05-01T09:00:00Z", &en),
        );
    };
    linking("See", "Then");
    site.build();
    linking("Do see", "And then");
    build_writing(&site, "posts/hello-world/index.html");
    let page = site.read("public/posts/hello-world/index.html");
    assert!(page.contains("href=\"/about/\""), "{page}");
    assert!(page.contains("href=\"/posts/older/\""), "{page}");
    assert_as_a_clean_build(&site, "");
}

#[test]
fn a_one_off_edit_checks_anchors_against_the_headings_of_documents_it_did_not_read() {
    // A one-off build reads the rows of the documents it does not read
    // again as stubs, without their headings: an anchored link is still
    // checked against them, by a path under a language's folder or without the
    // language of the file's name.
    let site = TestSite::with_posts();
    site.write(
        "content/posts/third.fr.md",
        "+++\ntitle = \"Troisième\"\ndate = 2024-07-01T10:00:00+02:00\n+++\nLe troisième.\n\n## Plus loin\n\nSuite.\n",
    );
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\nAbout this site.\n\n## Team\n\nUs.\n",
    );
    let linking = |fr: &str, en: &str| {
        let fr = format!("Voir [la suite](@/posts/third.md#plus-loin).\n\n{fr}");
        let en = format!("See [the team](@/about.md#team).\n\n{en}");
        site.write(
            "content/fr/posts/hello-world.md",
            &post("Bonjour", "2024-05-01T09:00:00Z", &fr),
        );
        site.write(
            "content/en/posts/hello-world.md",
            &post("Hello", "2024-05-01T09:00:00Z", &en),
        );
    };
    linking("Deuxième.", "Second.");
    site.build();
    linking("Deuxième, modifié.", "Second, edited.");
    build_writing(&site, "fr/posts/hello-world/index.html");
    assert!(
        site.read("public/fr/posts/hello-world/index.html")
            .contains("#plus-loin")
    );
    assert_as_a_clean_build(&site, "");
}

#[test]
fn a_one_off_edit_leaves_a_commented_out_anchored_link_as_a_clean_build_does() {
    // A link in a comment is none: no row lists it, and no page resolves
    // it, so a build that did not read its target's headings writes what
    // one that did writes.
    let site = TestSite::with_posts();
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\nAbout this site.\n\n## Team\n\nUs.\n",
    );
    let body = |x: &str| {
        format!("See [about](@/about.md).\n\n<!-- <a href=\"@/about.md#team\">t</a> -->\n\n{x}\n")
    };
    let write = |x: &str| {
        site.write(
            "content/en/posts/hello-world.md",
            &post("Hello", "2024-05-01T09:00:00Z", &body(x)),
        )
    };
    write("Second.");
    site.build();
    write("Second, edited.");
    site.build();
    let page = site.read("public/posts/hello-world/index.html");
    assert!(
        page.contains("<!-- <a href=\"@/about.md#team\">t</a> -->"),
        "{page}"
    );
    assert!(page.contains("href=\"/about/\""), "{page}");
    assert_eq!(differing_from_clean(&site), [] as [&str; 0]);
}

#[test]
fn a_link_written_as_html_follows_its_target_when_it_moves() {
    // An `@/` link the body writes as HTML, or its front matter summary
    // does: the pages showing it are made again when its target moves.
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        site.write("content/en/about.md", "---\ntitle: About\n---\nAbout.\n");
        site.write(
            "content/en/posts/hello-world.md",
            "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\nsummary: 'See <a href=\"@/about.md\">us</a>.'\n---\nSee <a href=\"@/about.md\">about</a>.\n",
        );
        site.build();
        site.write(
            "content/en/about.md",
            "---\ntitle: About\nurl: /team/\n---\nAbout.\n",
        );
        site.build();
        assert!(
            site.read("public/posts/hello-world/index.html")
                .contains("href=\"/team/\">about</a>"),
            "kept {kept}"
        );
        assert!(
            site.read("public/index.html")
                .contains("href=\"/team/\">us</a>"),
            "kept {kept}"
        );
        site.clean_build();
        assert_eq!(differing_from_clean(&site), [] as [&str; 0], "kept {kept}");
    }
}

#[test]
fn a_body_edit_renders_no_page_that_names_the_post_by_title_or_url_alone() {
    // Its newer and older posts' pages link it by title and URL, its
    // versions in other languages by URL: none shows its body, none is
    // rendered again. Its own page, the home and the section's list (its
    // summary) and the feed (its body) are.
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        let en = |name: &str, title: &str, date: &str, body: &str| {
            site.write(
                &format!("content/en/posts/{name}.md"),
                &post(title, date, body),
            )
        };
        en("older", "Older", "2024-04-01T09:00:00Z", "Older.");
        en("newer", "Newer", "2024-06-01T09:00:00Z", "Newer.");
        site.build();
        let edited = "First paragraph.\n\nEdited.";
        en("hello-world", "Hello", "2024-05-01T09:00:00Z", edited);
        let report = site.build();
        assert_eq!(
            report.written,
            ["posts/hello-world/index.html"],
            "kept {kept}"
        );
        assert_eq!(report.rendered, 4, "kept {kept}");
        // A new title is what they show of it.
        en("hello-world", "Hello again", "2024-05-01T09:00:00Z", edited);
        let report = site.build();
        for page in ["posts/older/index.html", "posts/newer/index.html"] {
            assert!(
                report.written.contains(&page.to_owned()),
                "kept {kept}: {page}"
            );
        }
        site.clean_build();
        assert_eq!(differing_from_clean(&site), [] as [&str; 0], "kept {kept}");
    }
}

/// The digest of the last build's inputs, and the arrangement the index
/// keeps: its inputs and its bytes.
fn kept_arrangement(site: &TestSite) -> (String, Vec<(String, Vec<u8>)>) {
    let conn = rusqlite::Connection::open(site.path(".folio/index.sqlite")).unwrap();
    let inputs = conn
        .query_row("SELECT value FROM meta WHERE key = 'inputs'", [], |r| {
            r.get(0)
        })
        .unwrap();
    let mut rows = conn
        .prepare(
            "SELECT (SELECT value FROM meta WHERE key = 'arrangement'), state FROM arrangement",
        )
        .unwrap();
    let kept = rows
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    (inputs, kept)
}

/// `state` kept as the arrangement, for the inputs it answers.
fn plant(site: &TestSite, state: &[u8]) {
    let conn = rusqlite::Connection::open(site.path(".folio/index.sqlite")).unwrap();
    conn.execute("UPDATE arrangement SET state = ?1", [state])
        .unwrap();
}

#[test]
fn the_arrangement_an_edit_in_place_takes_is_kept_for_the_next_and_a_damaged_one_is_not_taken() {
    let site = TestSite::with_posts();
    site.build();
    let (inputs, kept) = kept_arrangement(&site);
    let [(kept_for, state)] = &kept[..] else {
        panic!("one arrangement is kept: {kept:?}");
    };
    assert_eq!(*kept_for, inputs, "kept for the inputs of its build");
    let state = state.clone();

    // The documents changed in place: the build takes it as it is, and
    // it answers that build's inputs.
    // Its first paragraph, its summary, stays: its own page alone shows
    // what changed.
    let body = |text: &str| {
        let text = format!("First paragraph.\n\n{text}");
        post("Hello", "2024-05-01T09:00:00Z", &text)
    };
    site.write("content/en/posts/hello-world.md", &body("Edited."));
    assert_eq!(site.build().written, ["posts/hello-world/index.html"]);
    let (after, kept) = kept_arrangement(&site);
    assert_ne!(after, inputs);
    assert_eq!(kept, [(after.clone(), state.clone())]);

    // Bytes that are no arrangement are not taken: the documents' own is
    // derived, and kept in their place.
    plant(&site, b"\xff\x00\xff");
    site.write("content/en/posts/hello-world.md", &body("Edited again."));
    assert_eq!(site.build().written, ["posts/hello-world/index.html"]);
    assert_eq!(differing_from_clean(&site), [] as [&str; 0]);
    let (last, kept) = kept_arrangement(&site);
    assert_eq!(kept, [(last, state.clone())]);

    // A new post arranges them anew.
    site.write(
        "content/en/posts/newest.md",
        &post("Newest", "2024-12-01", "New."),
    );
    site.build();
    let (inputs, kept) = kept_arrangement(&site);
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].0, inputs);
    assert_ne!(kept[0].1, state, "the new post is among them");

    // One that places a document read again elsewhere than its record
    // does is not taken, in any build: it is derived again.
    let hello = "content/en/posts/hello-world.md";
    let tagged = |tag: &str, text: &str| {
        format!(
            "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\ntags: [{tag}]\n---\n\
             First paragraph.\n\n{text}\n"
        )
    };
    site.write(hello, &tagged("old", "Tagged."));
    site.build();
    let old = kept_arrangement(&site).1.remove(0).1;
    site.write(hello, &tagged("new", "Tagged."));
    site.build();
    let current = kept_arrangement(&site).1.remove(0).1;
    assert_ne!(old, current);
    plant(&site, &old);
    site.write(hello, &tagged("new", "Tagged again."));
    site.build();
    assert_eq!(differing_from_clean(&site), [] as [&str; 0]);
    let (inputs, kept) = kept_arrangement(&site);
    assert_eq!(kept, [(inputs, current)], "derived again");

    // One that places them as their records do is taken without deriving
    // it: planted where another belongs, it trips the check of a debug
    // build.
    if cfg!(debug_assertions) {
        let planted = kept_arrangement(&site).1.remove(0).1;
        site.write(
            "content/en/posts/newest.md",
            "---\ntitle: Newest\ndate: 2024-12-01\ntags: [fresh]\n---\nNew.\n",
        );
        site.build();
        assert_ne!(
            kept_arrangement(&site).1[0].1,
            planted,
            "a new tag arranges them anew"
        );
        plant(&site, &planted);
        site.write(hello, &tagged("new", "Planted."));
        let taken = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| site.try_build()));
        let panic = taken.expect_err("the arrangement planted was taken, and checked");
        let message = (panic.downcast_ref::<String>().map(String::as_str))
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        assert!(
            message.contains("the arrangement kept is not the documents'"),
            "{message}"
        );
    }

    // A session's builds keep none: each would write it again.
    let site = TestSite::with_posts_kept(true);
    site.build();
    site.write(
        "content/en/posts/hello-world.md",
        &body("Edited in a session."),
    );
    site.build();
    assert_eq!(kept_arrangement(&site).1, []);
}
