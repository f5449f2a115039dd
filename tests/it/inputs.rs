//! The inputs a build reports: every file its outputs depend on and no
//! other, and the folders where a new file would change them.

use crate::util;

use folio::{BuildReport, Site};
use util::{TestSite, options};

fn site_with_own_templates() -> TestSite {
    let site = TestSite::with_posts();
    site.write(
        "templates/post.html",
        "{% extends \"base.html\" %}{% block content %}{% include \"partials/byline.html\" %}{{ post.content | safe }}{% endblock %}",
    );
    site.write("templates/partials/byline.html", "<p>{{ post.title }}</p>");
    site.write("templates/unused.html", "never rendered");
    site.write("i18n/fr.toml", "read_more = \"Lire la suite\"\n");
    site.write("static/img/logo.svg", "<svg/>");
    site.write("content/en/posts/.draft.md.swp", "an editor's swap file");
    site
}

fn build(site: &TestSite) -> BuildReport {
    Site::open(site.root())
        .unwrap()
        .build(&options(|_| {}))
        .unwrap()
}

#[test]
fn the_inputs_are_every_file_the_pages_read_and_no_other() {
    let site = site_with_own_templates();
    let report = build(&site);
    let files = &report.inputs.files;
    for expected in [
        "site.toml",
        "content/en/posts/hello-world.md",
        "content/posts/2024-06-12-second.md",
        "templates/post.html",
        "templates/partials/byline.html",
        "i18n/fr.toml",
        "static/img/logo.svg",
    ] {
        assert!(
            files.iter().any(|f| f == expected),
            "{expected} missing: {files:?}"
        );
    }
    for unread in [
        "templates/unused.html",
        "content/en/posts/.draft.md.swp",
        "i18n/ja.toml",
    ] {
        assert!(!files.iter().any(|f| f == unread), "{unread} listed");
    }
    let mut sorted = files.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(&sorted, files, "sorted, once each");
    for file in files {
        assert!(
            site.path(file).is_file(),
            "{file} is not a file of the site"
        );
    }
    assert_eq!(
        report.inputs.root,
        std::path::absolute(site.root()).unwrap()
    );

    // A build with nothing to do, one-off or kept, reports the same.
    let again = build(&site);
    assert!(again.written.is_empty());
    assert_eq!(again.inputs, report.inputs);
    let mut session =
        folio::Session::open(Site::open(site.root()).unwrap(), options(|_| {})).unwrap();
    session.build().unwrap();
    site.write(
        "content/en/posts/hello-world.md",
        &util::post("Hi", "2024-05-01T09:00:00Z", "Edited."),
    );
    let kept = session
        .rebuild(&["content/en/posts/hello-world.md"])
        .unwrap();
    assert!(!kept.scanned_everything && !kept.written.is_empty());
    assert_eq!(kept.inputs, report.inputs);
}

#[test]
fn a_new_post_lands_in_a_listed_folder_and_cargo_hears_of_it() {
    let site = site_with_own_templates();
    let report = build(&site);
    let folders = &report.inputs.folders;
    for expected in ["content", "content/en/posts", "static", "templates", "i18n"] {
        assert!(
            folders.iter().any(|f| f == expected),
            "{expected}: {folders:?}"
        );
    }
    let mut directives = Vec::new();
    report
        .inputs
        .write_cargo_rerun_if_changed(&mut directives)
        .unwrap();
    let directives = String::from_utf8(directives).unwrap();
    let root = report.inputs.root.display().to_string();
    assert_eq!(
        directives.lines().count(),
        report.inputs.files.len() + report.inputs.folders.len()
    );
    assert!(directives.contains(&format!("cargo:rerun-if-changed={root}/content/en/posts\n")));
    assert!(directives.contains(&format!(
        "cargo:rerun-if-changed={root}/templates/partials/byline.html\n"
    )));

    // The new post's folder was listed before the post existed, and the
    // post is an input once built.
    site.write(
        "content/en/posts/new.md",
        &util::post("New", "2024-07-01T09:00:00Z", "New."),
    );
    assert!(folders.iter().any(|f| f == "content/en/posts"));
    let after = build(&site);
    assert!(
        after
            .inputs
            .files
            .iter()
            .any(|f| f == "content/en/posts/new.md")
    );
    assert!(after.written.iter().any(|w| w.contains("posts/new")));
}

#[test]
fn a_kept_session_lists_the_files_that_came_and_drops_those_that_went() {
    let site = site_with_own_templates();
    let mut session =
        folio::Session::open(Site::open(site.root()).unwrap(), options(|_| {})).unwrap();
    let listed = |report: &BuildReport, file: &str| report.inputs.files.iter().any(|f| f == file);
    let first = session.build().unwrap();
    let (post, picture) = ("content/en/posts/new.md", "static/new.png");
    site.write(post, &util::post("New", "2024-07-01T09:00:00Z", "New."));
    site.write(picture, "png");
    let came = session.rebuild(&[post, picture]).unwrap();
    assert!(!came.scanned_everything);
    assert!(listed(&came, post) && listed(&came, picture));
    assert!(!listed(&first, post));

    // An edit in place keeps the list as it was.
    site.write(post, &util::post("New", "2024-07-01T09:00:00Z", "Edited."));
    let edited = session.rebuild(&[post]).unwrap();
    assert_eq!(edited.inputs, came.inputs);

    site.remove(post);
    site.remove(picture);
    let went = session.rebuild(&[post, picture]).unwrap();
    assert!(!went.scanned_everything);
    assert!(!listed(&went, post) && !listed(&went, picture));
    assert_eq!(went.inputs, first.inputs);
}
