//! End-to-end builds of real sites in temp dirs: bytes on disk, rows in the
//! index, and which files were (not) rewritten.

use crate::util;

use folio::{Error, ProblemKind, Site};
use util::{TestSite, options, post, rewritten};

#[test]
fn second_build_writes_nothing_and_reads_no_source() {
    let site = TestSite::with_posts();
    let first = site.build();
    assert_eq!(first.scanned, 6);
    assert_eq!(first.parsed, 6);
    assert!(
        first
            .written
            .contains(&"posts/hello-world/index.html".to_owned())
    );
    assert!(first.written.contains(&"fr/index.html".to_owned()));
    let before = site.output_identities();
    let rows_before = site.rows();

    let second = site.build();
    assert_eq!(second.parsed, 0, "no source may be read");
    assert_eq!(second.unchanged, 6);
    assert_eq!(second.rendered, 0, "no page may be rendered");
    assert!(second.written.is_empty(), "{:?}", second.written);
    assert!(second.deleted.is_empty());
    assert_eq!(second.rows_upserted, 0);
    assert_eq!(site.output_identities(), before);
    assert_eq!(site.rows(), rows_before);
}

#[test]
fn editing_a_body_rewrites_that_post_and_only_the_pages_showing_its_summary() {
    let site = TestSite::with_posts();
    site.build();

    // After the summary: only the post's own page shows it.
    let before = site.output_identities();
    site.write(
        "content/en/posts/hello-world.md",
        &post(
            "Hello",
            "2024-05-01T09:00:00Z",
            "First paragraph.\n\nSecond paragraph, edited.",
        ),
    );
    let report = site.build();
    assert_eq!(report.parsed, 1);
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
    assert_eq!(
        rewritten(&before, &site.output_identities()),
        report.written
    );
    assert!(
        site.read("public/posts/hello-world/index.html")
            .contains("Second paragraph, edited.")
    );

    // The summary itself: the English home and feed show it too.
    let before = site.output_identities();
    site.write(
        "content/en/posts/hello-world.md",
        &post(
            "Hello",
            "2024-05-01T09:00:00Z",
            "First paragraph, edited.\n\nSecond paragraph, edited.",
        ),
    );
    let report = site.build();
    assert_eq!(
        report.written,
        [
            "atom.xml",
            "index.html",
            "posts/hello-world/index.html",
            "posts/index.html"
        ]
    );
    assert_eq!(
        rewritten(&before, &site.output_identities()),
        report.written
    );
    assert!(
        site.read("public/index.html")
            .contains("First paragraph, edited.")
    );
}

#[test]
fn a_body_edit_fingerprints_only_the_pages_that_show_the_post() {
    let site = TestSite::with_posts();
    let every_page = site.build().fingerprinted;
    let hello = |date: &str, body: &str| post("Hello", date, body);
    // In what it holds: the post keeps its place, and the pages that do
    // not show it keep the fingerprints they were written with.
    site.write(
        "content/en/posts/hello-world.md",
        &hello(
            "2024-05-01T09:00:00Z",
            "First paragraph.\n\nSecond, edited.",
        ),
    );
    let report = site.build();
    assert!(
        report.fingerprinted > 0 && report.fingerprinted * 2 < every_page,
        "{} of {every_page}",
        report.fingerprinted
    );
    assert_eq!(report.written, ["posts/hello-world/index.html"]);
    // A page whose file is gone is made again, though no fingerprint
    // moved.
    site.remove("public/about/index.html");
    site.write(
        "content/en/posts/hello-world.md",
        &hello("2024-05-01T09:00:00Z", "First paragraph.\n\nSecond, again."),
    );
    let report = site.build();
    assert_eq!(
        report.written,
        ["about/index.html", "posts/hello-world/index.html"]
    );
    // Its date is its place in every list: every page is fingerprinted.
    site.write(
        "content/en/posts/hello-world.md",
        &hello("2024-05-02T09:00:00Z", "First paragraph.\n\nSecond, again."),
    );
    let report = Site::open(site.root())
        .unwrap()
        .build(&options(|o| o.accept_id_changes = true))
        .unwrap();
    assert_eq!(report.fingerprinted, every_page);
    // So does a template's edit, with the post's body edited too.
    site.write("templates/post.html", "{{ post.title }}");
    site.write(
        "content/en/posts/hello-world.md",
        &hello("2024-05-02T09:00:00Z", "Edited once more."),
    );
    assert_eq!(site.build().fingerprinted, every_page);
}

#[test]
fn editing_a_title_rewrites_the_pages_that_show_it() {
    let site = TestSite::with_posts();
    site.build();
    let before = site.output_identities();
    site.write(
        "content/fr/posts/hello-world.md",
        &post(
            "Salut",
            "2024-05-01T09:00:00Z",
            "Premier paragraphe.\n\nDeuxième.",
        ),
    );
    let report = site.build();
    // The post, the French home, archive and feed show the title, and so
    // does the link from its older neighbour; the switchers show language
    // names only.
    assert_eq!(
        report.written,
        [
            "fr/archive/index.html",
            "fr/atom.xml",
            "fr/index.html",
            "fr/posts/hello-world/index.html",
            "fr/posts/index.html",
            "fr/posts/third/index.html"
        ]
    );
    assert_eq!(
        rewritten(&before, &site.output_identities()),
        report.written
    );
}

#[test]
fn changed_date_is_refused_before_any_write() {
    let site = TestSite::with_posts();
    site.build();
    let tree = site.output_tree();
    let rows = site.rows();
    let outputs = site.query("SELECT * FROM outputs ORDER BY path");

    site.write(
        "content/fr/posts/hello-world.md",
        &post(
            "Bonjour",
            "2024-05-02T09:00:00Z",
            "Premier paragraphe, modifié.",
        ),
    );
    // An unrelated edit in the same build must not be written either.
    site.write(
        "content/en/about.md",
        "---\ntitle: About us\n---\nChanged.\n",
    );
    let err = site.try_build().unwrap_err();
    let Error::Content(problems) = &err else {
        panic!("expected a content error, got {err}")
    };
    assert_eq!(problems.len(), 1);
    assert_eq!(
        problems[0].path.to_str(),
        Some("content/fr/posts/hello-world.md")
    );
    assert_eq!(problems[0].line, Some(3));
    assert!(matches!(
        &problems[0].kind,
        ProblemKind::DateChanged { old, new, .. } if old == "2024-05-01T09:00:00Z" && new == "2024-05-02T09:00:00Z"
    ));
    let message = err.to_string();
    for needle in [
        "content/fr/posts/hello-world.md:3",
        "2024-05-01T09:00:00Z",
        "2024-05-02T09:00:00Z",
        "updated",
        "folio redate content/fr/posts/hello-world.md 2024-05-02T09:00:00Z",
        "--accept-id-changes",
    ] {
        assert!(
            message.contains(needle),
            "message lacks {needle:?}:\n{message}"
        );
    }
    assert_eq!(site.output_tree(), tree, "no page may change");
    assert_eq!(site.rows(), rows, "no row may change");
    assert_eq!(site.query("SELECT * FROM outputs ORDER BY path"), outputs);

    // The CLI says the same on stderr and exits 1.
    let out = site.cli(&["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2024-05-02T09:00:00Z"));
    assert_eq!(site.output_tree(), tree);
}

#[test]
fn accepting_a_date_change_replaces_the_row() {
    let site = TestSite::with_posts();
    site.build();
    site.write(
        "content/fr/posts/hello-world.md",
        &post("Bonjour", "2024-05-02T09:00:00Z", "Premier."),
    );
    let report = site
        .build_with(&options(|o| o.accept_id_changes = true))
        .unwrap();
    assert_eq!(report.rows_deleted, 1);
    let ids = site.query("SELECT id FROM posts WHERE slug = 'hello-world' AND lang = 'fr'");
    let expected = site
        .site()
        .id_of(&site.path("content/fr/posts/hello-world.md"))
        .unwrap();
    assert_ne!(expected.to_string(), "01HWSP3MM0WH8KC7X90Y5108NS");
    assert_eq!(ids, [expected.to_string()]);
    assert!(site.build().written.is_empty());
}

#[test]
fn duplicate_slug_and_language_names_both_files() {
    let site = TestSite::with_posts();
    site.build();
    let tree = site.output_tree();
    // content/en/posts/hello-world.md and content/posts/hello-world.md are both (hello-world, en).
    site.write(
        "content/posts/hello-world.md",
        &post("Other", "2024-08-01", "x"),
    );
    let err = site.try_build().unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("content/posts/hello-world.md"),
        "{message}"
    );
    assert!(
        message.contains("content/en/posts/hello-world.md"),
        "{message}"
    );
    assert!(
        matches!(&err, Error::Content(p) if matches!(p[0].kind, ProblemKind::DuplicateSlug { .. }))
    );
    assert_eq!(site.output_tree(), tree);

    // Both new in the same build: still both named.
    let fresh = TestSite::new();
    fresh.write("content/posts/x.md", &post("A", "2024-01-01", "a"));
    fresh.write(
        "content/en/posts/y.md",
        "---\ntitle: B\ndate: 2024-01-02\nslug: x\n---\nb\n",
    );
    let message = fresh.try_build().unwrap_err().to_string();
    assert!(
        message.contains("content/posts/x.md") && message.contains("content/en/posts/y.md"),
        "{message}"
    );
    assert!(!fresh.out().exists(), "nothing is written");
}

#[test]
fn deleting_a_post_removes_its_page_and_row_but_not_user_files() {
    let site = TestSite::with_posts();
    site.build();
    site.write("public/CNAME", "example.org\n");
    site.write("public/posts/hello-world/notes.txt", "mine\n");
    assert_eq!(
        site.query(
            "SELECT count(*) FROM posts WHERE source_path = 'content/en/posts/hello-world.md'"
        ),
        ["1"]
    );

    site.remove("content/en/posts/hello-world.md");
    let report = site.build();
    assert_eq!(report.deleted, ["posts/hello-world/index.html"]);
    assert_eq!(report.rows_deleted, 1);
    assert!(!site.path("public/posts/hello-world/index.html").exists());
    assert_eq!(
        site.query(
            "SELECT count(*) FROM posts WHERE source_path = 'content/en/posts/hello-world.md'"
        ),
        ["0"]
    );
    assert_eq!(
        site.query("SELECT count(*) FROM outputs WHERE path = 'posts/hello-world/index.html'"),
        ["0"]
    );
    assert_eq!(site.read("public/CNAME"), "example.org\n");
    assert_eq!(site.read("public/posts/hello-world/notes.txt"), "mine\n");
    // The home no longer lists it; the translations no longer link to it.
    assert!(
        !site
            .read("public/index.html")
            .contains("/posts/hello-world/")
    );
    assert!(
        !site
            .read("public/fr/posts/hello-world/index.html")
            .contains("href=\"/posts/hello-world/\"")
    );
    assert!(
        report
            .written
            .contains(&"fr/posts/hello-world/index.html".to_owned())
    );
}

#[test]
fn a_file_folio_did_not_write_is_never_overwritten() {
    let site = TestSite::with_posts();
    site.write("public/posts/new-post/index.html", "hand-made\n");
    site.write(
        "content/en/posts/new-post.md",
        &post("New", "2024-09-01", "x"),
    );
    let err = site.try_build().unwrap_err();
    assert!(
        err.to_string().contains("public/posts/new-post/index.html"),
        "{err}"
    );
    assert_eq!(site.read("public/posts/new-post/index.html"), "hand-made\n");
    assert!(
        !site.path("public/index.html").exists(),
        "nothing is written"
    );
}

#[test]
fn fresh_folders_give_byte_identical_output_with_one_or_four_threads() {
    let a = TestSite::with_posts();
    let b = TestSite::with_posts();
    a.build_with(&options(|o| o.threads = Some(1))).unwrap();
    b.build_with(&options(|o| o.threads = Some(4))).unwrap();
    let (ta, tb) = (a.output_tree(), b.output_tree());
    // The pages, the stylesheet and its twin.
    assert_eq!(ta.len(), 28);
    assert_eq!(ta, tb);
    assert_eq!(a.content_rows(), b.content_rows());
}

#[test]
fn ids_match_the_design_vectors_and_are_stored() {
    let site = TestSite::with_posts();
    site.build();
    let rows = site.query("SELECT id, lang FROM posts WHERE slug = 'hello-world' ORDER BY lang");
    assert_eq!(rows.len(), 3);
    assert!(
        rows[0].contains("01HWSP3MM02BC0VWVKC580KT23") && rows[0].contains("en"),
        "{rows:?}"
    );
    assert!(
        rows[1].contains("01HWSP3MM0WH8KC7X90Y5108NS") && rows[1].contains("fr"),
        "{rows:?}"
    );
    let id = site
        .site()
        .id_of(&site.path("content/en/posts/hello-world.md"))
        .unwrap();
    assert_eq!(id.to_string(), "01HWSP3MM02BC0VWVKC580KT23");
    // The columns the issue names, with the values they must hold:
    // source_hash is the hex SHA-256 of the file, as `sha256sum` prints it.
    let sha256 = hex_sha256(site.read("content/en/posts/hello-world.md").as_bytes());
    let row = site.query(
        "SELECT slug, lang, published_at, source_path, source_hash, title, url FROM posts WHERE id = '01HWSP3MM02BC0VWVKC580KT23'",
    );
    assert_eq!(
        row,
        [format!(
            "hello-world | en | 1714554000000 | content/en/posts/hello-world.md | {sha256} | Hello | /posts/hello-world/"
        )]
    );
}

#[test]
fn a_build_waits_for_another_saying_so_or_is_busy_at_once_when_told_not_to_wait() {
    use std::sync::{Arc, Mutex};
    let site = TestSite::with_posts();
    site.build();
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .open(site.path(".folio/build.lock"))
        .unwrap();
    lock.try_lock().unwrap();
    let no_wait = util::options(|o| o.wait_for_lock = false);
    match site.site().build(&no_wait) {
        Err(folio::Error::Busy { path }) => assert!(path.ends_with(".folio/build.lock")),
        other => panic!("expected Busy, got {other:?}"),
    }
    // Waiting: the observer hears why, and the build runs once the lock
    // is released.
    let heard: Arc<Mutex<Vec<folio::Event>>> = Arc::default();
    let sink = Arc::clone(&heard);
    let waiting = util::options(|o| {
        o.observer = Some(Arc::new(move |e: &folio::Event| {
            sink.lock().unwrap().push(e.clone())
        }))
    });
    let site_handle = site.site();
    let build = std::thread::spawn(move || site_handle.build(&waiting));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while heard.lock().unwrap().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "no event while waiting"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(
        matches!(&heard.lock().unwrap()[0], folio::Event::WaitingForLock { lock } if lock.ends_with("build.lock"))
    );
    assert!(!build.is_finished(), "it waits for the lock");
    drop(lock);
    assert!(build.join().unwrap().is_ok());
}

fn hex_sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn static_files_are_copied_with_well_known_but_without_other_hidden_files() {
    let site = TestSite::with_posts();
    site.write("static/.well-known/security.txt", "Contact: mailto:a@b\n");
    site.write("static/.well-known/acme-challenge/tok", "tok.key\n");
    site.write("static/.well-known/.swp", "editor state\n");
    site.write("static/.DS_Store", "finder\n");
    site.write("static/css/.hidden/x.css", "p {}\n");
    site.write("static/css/site.css", "p {}\n");
    let report = site.build();
    for copied in [
        ".well-known/security.txt",
        ".well-known/acme-challenge/tok",
        "css/site.css",
    ] {
        assert!(report.written.contains(&copied.to_owned()), "{copied}");
        assert_eq!(
            site.read(&format!("public/{copied}")),
            site.read(&format!("static/{copied}"))
        );
    }
    for skipped in [".well-known/.swp", ".DS_Store", "css/.hidden/x.css"] {
        assert!(
            !site.path(&format!("public/{skipped}")).exists(),
            "{skipped}"
        );
    }
}

#[test]
fn the_theme_s_404_page_is_built_out_of_the_sitemap_and_a_static_one_wins() {
    let site = TestSite::with_posts();
    site.build();
    let page = site.read("public/404.html");
    assert!(page.contains("<h1>Page not found</h1>"), "{page}");
    assert!(page.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(!site.read("public/sitemap.xml").contains("404"));
    site.write("static/404.html", "<p>our own</p>");
    let report = site.build();
    assert_eq!(report.written, ["404.html"]);
    assert_eq!(site.read("public/404.html"), "<p>our own</p>");
}

#[test]
fn a_page_at_the_url_of_the_theme_s_404_page_takes_its_place() {
    let site = TestSite::with_posts();
    site.build();
    // A site moved in keeps its own page for a missing URL.
    site.write(
        "content/en/missing.md",
        "---\ntitle: Lost\npermalink: /404.html\n---\nNothing here.\n",
    );
    let report = site.build();
    assert!(
        report.written.contains(&"404.html".to_owned()),
        "{:?}",
        report.written
    );
    let page = site.read("public/404.html");
    assert!(
        page.contains("Nothing here.") && !page.contains("<h1>Page not found</h1>"),
        "{page}"
    );
    site.remove("content/en/missing.md");
    site.build();
    assert!(
        site.read("public/404.html")
            .contains("<h1>Page not found</h1>")
    );
}

#[test]
fn a_site_moved_to_another_folder_keeps_its_outputs_and_its_index() {
    let site = TestSite::with_posts();
    site.build();
    // An index made when output folders were keyed by their absolute path.
    let absolute = site.out().to_string_lossy().into_owned();
    site.query(&format!("UPDATE outputs SET dir = '{absolute}'"));
    assert!(site.build().written.is_empty());
    assert_eq!(site.query("SELECT DISTINCT dir FROM outputs"), ["public"]);

    // Copied elsewhere with its state, as a CI cache is restored into
    // another checkout: the pages there are still folio's to replace.
    let elsewhere = tempfile::tempdir().unwrap();
    let copy = elsewhere.path().join("blog");
    let copied = std::process::Command::new("cp")
        .arg("-a")
        .arg(site.root())
        .arg(&copy)
        .status()
        .unwrap();
    assert!(copied.success());
    std::fs::write(
        copy.join("content/en/posts/hello-world.md"),
        post("Hello, moved", "2024-05-01T09:00:00Z", "Edited."),
    )
    .unwrap();
    let report = folio::Site::open(&copy)
        .unwrap()
        .build(&options(|_| {}))
        .unwrap();
    assert!(
        report
            .written
            .contains(&"posts/hello-world/index.html".to_owned())
    );
    assert_eq!(report.parsed, 1);
}

#[test]
fn a_misspelled_name_in_a_template_fails_the_build_naming_it_and_writes_nothing() {
    let site = TestSite::with_posts();
    let post = std::fs::read_to_string(format!(
        "{}/templates/post.html",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    site.write(
        "templates/post.html",
        &post.replace("<h1>{{ post.title }}</h1>", "<h1>{{ post.tittle }}</h1>"),
    );
    let error = folio::Site::open(site.root())
        .unwrap()
        .build(&util::options(|_| {}))
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("templates/post.html:"), "{error}");
    assert!(
        error.contains("`post.tittle` is undefined; did you mean `title`?"),
        "{error}"
    );
    assert!(site.output_tree().is_empty(), "no page is written");
}
