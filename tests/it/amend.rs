//! The guard over what feeds a published post's id (its date and its slug),
//! and the sanctioned ways through it: `folio redate` and `folio move`.

use crate::util;

use util::{SITE_TOML, TestSite, options, post, stderr, stdout};

const POST: &str = "content/en/posts/hello-world.md";

/// A site whose permalinks hold the date, so a new date is a new URL.
fn dated_site() -> TestSite {
    let site = TestSite::with_posts();
    site.write(
        "site.toml",
        &SITE_TOML.replace(
            "default_language = \"en\"",
            "default_language = \"en\"\npermalink = \"/{lang}/{year}/{month}/{slug}/\"",
        ),
    );
    site
}

/// The id column of the row of `file`.
fn id_of_row(site: &TestSite, file: &str) -> String {
    site.query(&format!(
        "SELECT id FROM posts WHERE source_path = '{file}'"
    ))
    .pop()
    .unwrap()
}

#[test]
fn a_changed_slug_of_a_published_post_is_refused_and_points_to_folio_move() {
    let site = TestSite::with_posts();
    site.build();
    let before = site.output_tree();
    site.write(
        POST,
        "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\nslug: greetings\n---\nFirst.\n",
    );
    let refused = site.cli(&["build"]);
    assert_eq!(refused.status.code(), Some(1));
    let message = stderr(&refused);
    assert!(
        message.contains(&format!("{POST}:4:")),
        "names the file and the slug's line: {message}"
    );
    assert!(
        message.contains("changed from `hello-world` to `greetings`"),
        "{message}"
    );
    assert!(
        message.contains(&format!("folio move {POST} greetings")),
        "{message}"
    );
    assert_eq!(site.output_tree(), before, "nothing is written");

    // Let through on purpose, it is published anew.
    let accepted = site.cli(&["build", "--accept-id-changes"]);
    assert!(accepted.status.success(), "{}", stderr(&accepted));
    assert!(site.path("public/posts/greetings/index.html").exists());
    assert!(!site.path("public/posts/hello-world").exists());
}

#[test]
fn drafts_change_their_date_and_slug_freely() {
    let site = TestSite::new();
    let draft = "content/en/posts/idea.md";
    site.write(
        draft,
        "---\ntitle: Idea\ndate: 2024-05-01\ndraft: true\n---\nSoon.\n",
    );
    site.build();
    site.write(
        draft,
        "---\ntitle: Idea\ndate: 2024-06-01\nslug: better-idea\ndraft: true\n---\nSoon.\n",
    );
    site.build();
    let moved = site.cli(&["move", draft, "best-idea"]);
    assert!(moved.status.success(), "{}", stderr(&moved));
    assert!(
        !site.read(draft).contains("aliases"),
        "no redirect for a page never published"
    );
    site.build();
}

#[test]
fn folio_redate_moves_the_post_and_leaves_a_redirect_at_the_old_url() {
    let site = dated_site();
    site.build();
    let old_id = id_of_row(&site, POST);
    assert!(site.path("public/2024/05/hello-world/index.html").exists());

    // The guard refuses the date changed by hand, and says how to do it.
    let original = site.read(POST);
    site.write(
        POST,
        &original.replace("2024-05-01T09:00:00Z", "2024-06-02"),
    );
    let refused = stderr(&site.cli(&["build"]));
    assert!(
        refused.contains(&format!("folio redate {POST} 2024-06-02")),
        "{refused}"
    );
    site.write(POST, &original);

    let redated = site.cli(&["redate", POST, "2024-06-02"]);
    assert!(redated.status.success(), "{}", stderr(&redated));
    assert!(
        stdout(&redated).contains("/2024/05/hello-world/ will redirect to /2024/06/hello-world/"),
        "{}",
        stdout(&redated)
    );
    assert_eq!(
        site.read(POST),
        "---\ntitle: Hello\ndate: 2024-06-02\naliases: [\"/2024/05/hello-world/\"]\n---\nFirst paragraph.\n\nSecond paragraph.\n"
    );
    let new_id = id_of_row(&site, POST);
    assert_ne!(new_id, old_id, "the row moved to its new id");
    assert_eq!(stdout(&site.cli(&["id", POST])).trim(), new_id);

    let report = site.build();
    assert!(
        report
            .written
            .contains(&"2024/06/hello-world/index.html".to_owned())
    );
    assert!(
        report
            .written
            .contains(&"2024/05/hello-world/index.html".to_owned())
    );
    let redirect = site.read("public/2024/05/hello-world/index.html");
    assert!(redirect.contains("/2024/06/hello-world/"), "{redirect}");
    assert!(site.build().written.is_empty(), "the next build is clean");
    // The same sources built from nothing give the same site.
    assert_eq!(site.output_tree(), site.clean_build_tree());

    // Run again, it changes nothing.
    let again = site.cli(&["redate", POST, "2024-06-02"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(site.read(POST).matches("aliases").count(), 1);
    assert!(site.build().written.is_empty());
}

#[test]
fn folio_redate_keeps_the_url_when_the_permalink_has_no_date() {
    let site = TestSite::with_posts();
    site.build();
    let redated = site.cli(&["redate", POST, "2024-04-30T08:00:00+02:00"]);
    assert!(redated.status.success(), "{}", stderr(&redated));
    assert!(
        !site.read(POST).contains("aliases"),
        "no URL to redirect from"
    );
    assert!(
        site.read(POST)
            .contains("date: 2024-04-30T08:00:00+02:00\n")
    );
    let report = site.build();
    assert!(
        report
            .written
            .contains(&"posts/hello-world/index.html".to_owned())
    );
    assert!(report.deleted.is_empty());
    // The row moved before the build read the source: the build may not
    // keep the fingerprints the pages were written with from the row as
    // it was. The archive shows the new date, as a clean build does.
    assert!(
        report.written.contains(&"archive/index.html".to_owned()),
        "{:?}",
        report.written
    );
    assert_eq!(site.output_tree(), site.clean_build_tree());
    assert!(site.build().written.is_empty());
}

#[test]
fn folio_move_renames_the_slug_with_a_redirect_and_refuses_a_taken_one() {
    let site = TestSite::with_posts();
    site.build();
    let taken = site.cli(&["move", POST, "second"]);
    assert_eq!(taken.status.code(), Some(1));
    assert!(
        stderr(&taken)
            .contains("slug `second` (en) is also claimed by content/posts/2024-06-12-second.md"),
        "{}",
        stderr(&taken)
    );
    let bad = site.cli(&["move", POST, "Hello World"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("did you mean `Hello-World`"),
        "{}",
        stderr(&bad)
    );
    assert!(
        !site.read(POST).contains("slug"),
        "a refused move edits nothing"
    );

    let moved = site.cli(&["move", POST, "greetings"]);
    assert!(moved.status.success(), "{}", stderr(&moved));
    assert!(
        site.read(POST)
            .contains("slug: \"greetings\"\naliases: [\"/posts/hello-world/\"]\n")
    );
    let report = site.build();
    assert!(
        report
            .written
            .contains(&"posts/greetings/index.html".to_owned())
    );
    assert!(
        site.read("public/posts/hello-world/index.html")
            .contains("/posts/greetings/"),
        "the old URL redirects"
    );
    assert!(site.build().written.is_empty());

    // The redirect is an ordinary output: gone with the alias.
    let text = site
        .read(POST)
        .replace("aliases: [\"/posts/hello-world/\"]\n", "");
    site.write(POST, &text);
    let report = site.build();
    assert_eq!(report.deleted, ["posts/hello-world/index.html"]);
}

#[test]
fn the_library_moves_a_post_in_a_kept_session() {
    let site = TestSite::with_posts();
    let mut session = folio::Session::open(site.site(), options(|_| {})).unwrap();
    session.build().unwrap();
    let done = session.move_to(&site.path(POST), "greetings").unwrap();
    assert_eq!(done.file, POST);
    assert_eq!(done.redirect_from.as_deref(), Some("/posts/hello-world/"));
    assert_eq!(done.new_url, "/posts/greetings/");
    let report = session.build().unwrap();
    assert!(
        report
            .written
            .contains(&"posts/greetings/index.html".to_owned())
    );
    site.write(POST, &post("Hello", "2024-05-01T09:00:00Z", "Edited."));
    let refused = session.build().unwrap_err().to_string();
    assert!(
        refused.contains("changed from `greetings` to `hello-world`"),
        "{refused}"
    );
}

#[test]
fn a_date_set_by_hand_is_kept_and_redate_moves_the_post_to_it() {
    let site = dated_site();
    site.build();
    let by_hand = site
        .read(POST)
        .replace("2024-05-01T09:00:00Z", "2024-06-02");
    site.write(POST, &by_hand);
    let refused = stderr(&site.cli(&["build"]));
    // The guard's advice, followed as it is written.
    let advice = refused
        .split('`')
        .find(|part| part.starts_with("folio redate"))
        .unwrap_or_else(|| panic!("{refused}"))
        .to_owned();
    let args: Vec<&str> = advice.split(' ').skip(1).collect();
    let redated = site.cli(&args);
    assert!(redated.status.success(), "{}", stderr(&redated));
    assert_eq!(
        site.read(POST),
        by_hand.replace(
            "date: 2024-06-02\n",
            "date: 2024-06-02\naliases: [\"/2024/05/hello-world/\"]\n"
        ),
        "the date stays as written"
    );
    site.build();
    assert!(site.build().written.is_empty());
}

#[test]
fn an_alias_that_only_ends_like_the_old_url_does_not_stand_for_it() {
    let site = dated_site();
    site.write(
        POST,
        "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\naliases: [\"/archive/2024/05/hello-world/\"]\n---\nFirst.\n",
    );
    site.build();
    let redated = site.cli(&["redate", POST, "2024-06-02"]);
    assert!(redated.status.success(), "{}", stderr(&redated));
    assert!(
        site.read(POST)
            .contains("aliases: [\"/archive/2024/05/hello-world/\", \"/2024/05/hello-world/\"]"),
        "{}",
        site.read(POST)
    );
    site.build();
    assert!(
        site.read("public/2024/05/hello-world/index.html")
            .contains("url=/2024/06/hello-world/")
    );
}

#[test]
fn a_slug_that_differs_only_by_case_is_refused() {
    let site = TestSite::with_posts();
    site.build();
    let refused = site.cli(&["move", POST, "Hello-World"]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stderr(&refused).contains("differs from the slug `hello-world` only by case"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn a_published_post_made_a_draft_keeps_its_date_and_slug_guarded() {
    let site = dated_site();
    site.build();
    let drafted = site.read(POST).replacen(
        "date: 2024-05-01T09:00:00Z\n",
        "date: 2024-05-01T09:00:00Z\ndraft: true\n",
        1,
    );
    site.write(POST, &drafted);
    site.build();
    assert!(!site.path("public/2024/05/hello-world").exists());
    assert!(site.build().written.is_empty(), "a draft again is no churn");
    assert_eq!(
        site.query(&format!(
            "SELECT draft, ever_published FROM posts WHERE source_path = '{POST}'"
        )),
        ["1 | 1"]
    );
    // Re-dated while a draft, then published again: still the same post.
    site.write(
        POST,
        &drafted
            .replace("2024-05-01T09:00:00Z", "2024-06-02")
            .replace("draft: true\n", ""),
    );
    let refused = stderr(&site.cli(&["build"]));
    assert!(refused.contains("folio redate"), "{refused}");
    let redated = site.cli(&["redate", POST, "2024-06-02"]);
    assert!(redated.status.success(), "{}", stderr(&redated));
    assert!(
        site.read(POST)
            .contains("aliases: [\"/2024/05/hello-world/\"]")
    );
    site.build();
}

#[test]
fn a_post_redated_back_is_at_its_first_url_again_with_no_warning() {
    let site = dated_site();
    site.build();
    for date in ["2024-06-02", "2024-05-01T09:00:00Z"] {
        let redated = site.cli(&["redate", POST, date]);
        assert!(redated.status.success(), "{}", stderr(&redated));
        site.build();
    }
    let report = site.build();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert!(
        !site
            .read("public/2024/05/hello-world/index.html")
            .contains("http-equiv=\"refresh\""),
        "its own page, not a redirect"
    );
    assert!(
        site.read("public/2024/06/hello-world/index.html")
            .contains("url=/2024/05/hello-world/")
    );
}

#[test]
fn redate_writes_nothing_through_a_link_at_its_temp_file() {
    let site = dated_site();
    site.build();
    let canary = tempfile::tempdir().unwrap();
    let victim = canary.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::os::unix::fs::symlink(
        &victim,
        site.path("content/en/posts/.hello-world.md.folio-tmp"),
    )
    .unwrap();
    let redated = site.cli(&["redate", POST, "2024-06-02"]);
    assert!(redated.status.success(), "{}", stderr(&redated));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(site.read(POST).contains("date: 2024-06-02"));
    assert!(
        !site
            .path("content/en/posts/.hello-world.md.folio-tmp")
            .exists()
    );
}
