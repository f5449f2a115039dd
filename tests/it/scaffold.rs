//! `folio init` and `folio new post`, through the program: a site that
//! builds at once, posts started in each language, and nothing written
//! over what is there.

use crate::util;

use util::{TestSite, folio_command};

fn run(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    folio_command()
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn init_starts_a_site_that_builds_and_new_post_adds_a_draft() {
    let dir = tempfile::tempdir().unwrap();
    let started = run(dir.path(), &["init", "blog"]);
    assert!(started.status.success(), "{}", util::stderr(&started));
    let root = dir.path().join("blog");
    let built = run(&root, &["build"]);
    assert!(built.status.success(), "{}", util::stderr(&built));
    assert!(root.join("public/posts/hello-world/index.html").is_file());

    let new = run(&root, &["new", "post", "Don't panic: a guide!"]);
    assert!(new.status.success(), "{}", util::stderr(&new));
    let said = util::stdout(&new);
    assert!(
        said.contains("content/posts/don-t-panic-a-guide.md"),
        "{said}"
    );
    let text = std::fs::read_to_string(root.join("content/posts/don-t-panic-a-guide.md")).unwrap();
    // SOURCE_DATE_EPOCH is the tests' clock; the site's zone is UTC.
    assert_eq!(
        text,
        "---\ntitle: 'Don''t panic: a guide!'\ndate: 2026-01-01T00:00:00+00:00\ndraft: true\n---\n\n"
    );
    // A draft: built with --drafts only.
    let drafts = run(&root, &["build", "--drafts"]);
    assert!(drafts.status.success(), "{}", util::stderr(&drafts));
    assert!(
        root.join("public/posts/don-t-panic-a-guide/index.html")
            .is_file()
    );

    let twice = run(&root, &["new", "post", "Don't panic: a guide!"]);
    assert!(!twice.status.success());
    assert!(
        util::stderr(&twice).contains("is already there"),
        "{}",
        util::stderr(&twice)
    );
    let again = run(dir.path(), &["init", "blog"]);
    assert!(!again.status.success());
    assert!(util::stderr(&again).contains("site.toml is already there"));
}

#[test]
fn a_translation_shares_its_original_s_date_and_key() {
    let site = TestSite::with_posts();
    let root = site.root().to_str().unwrap().to_owned();
    let new = site.cli(&[
        "new",
        "post",
        "Hallo",
        "--lang",
        "ja",
        "--translation-of",
        "content/posts/2024-06-12-second.md",
        "--root",
        &root,
    ]);
    assert!(new.status.success(), "{}", util::stderr(&new));
    let text = site.read("content/ja/posts/hallo.md");
    assert!(text.contains("date: 2024-06-12T00:00:00+00:00\n"), "{text}");
    assert!(
        text.contains("translation_key: 'posts/2024-06-12-second'\n"),
        "{text}"
    );
    site.write(
        "content/ja/posts/hallo.md",
        &text.replace("draft: true\n", ""),
    );
    site.build();
    let english = site.read("public/posts/second/index.html");
    assert!(
        english.contains("hreflang=\"ja\" href=\"https://example.org/ja/posts/hallo/\""),
        "{english}"
    );

    let unknown = site.cli(&["new", "post", "X", "--lang", "de", "--root", &root]);
    assert!(util::stderr(&unknown).contains("`de` is not a language of this site"));
    let section = site.cli(&["new", "post", "X", "--section", "notes", "--root", &root]);
    assert!(util::stderr(&section).contains("add it to post_sections"));
}
