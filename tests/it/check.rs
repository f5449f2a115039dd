//! `folio check`: every rule of a build, plus links and anchors, without
//! writing a page or a row of the site's own.

use crate::util;

use util::{TestSite, post, stderr};

#[test]
fn check_reports_every_broken_link_and_anchor_and_writes_nothing() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/links.md",
        &post(
            "Links",
            "2024-08-01",
            "[fine](/posts/second/), [home](/), [nowhere](/posts/nope/), \
             [bad anchor](/posts/second/#missing), [out](https://example.com/x)\n\n\
             ## A heading\n\n[heading](#a-heading)",
        ),
    );
    site.write("static/img/logo.svg", "<svg/>");
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\n![logo](/img/logo.svg) ![gone](/img/gone.png)\n",
    );
    let before = TestSite::tree(site.root());
    let checked = site.cli(&["check"]);
    assert_eq!(checked.status.code(), Some(1));
    assert_eq!(
        stderr(&checked),
        "error: content/en/about.md:4: links to /img/gone.png, which no page or file of the site is\n  \
         = help: fix the link, or add the page or the file under static/\n\
         content/en/posts/links.md:5: links to /posts/nope/, which no page or file of the site is\n  \
         = help: fix the link, or add the page or the file under static/\n\
         content/en/posts/links.md:5: links to /posts/second/#missing, whose page has no element with id `missing`\n  \
         = help: fix the fragment, or the heading it names (headings get ids from their text)\n\
         3 problems; the build wrote nothing\n"
    );
    assert_eq!(TestSite::tree(site.root()), before, "nothing is written");

    site.write(
        "content/en/posts/links.md",
        &post("Links", "2024-08-01", "[fine](/posts/second/)"),
    );
    site.remove("content/en/about.md");
    let checked = site.cli(&["check"]);
    assert!(checked.status.success(), "{}", stderr(&checked));
}

#[test]
fn check_applies_the_guard_against_the_index_without_touching_it() {
    let site = TestSite::with_posts();
    site.build();
    let index = std::fs::read(site.path(".folio/index.sqlite")).unwrap();
    let output = site.output_tree();
    site.write(
        "content/fr/posts/hello-world.md",
        &post("Bonjour", "2024-05-02T09:00:00Z", "Premier."),
    );
    let checked = site.cli(&["check"]);
    assert_eq!(checked.status.code(), Some(1));
    assert!(
        stderr(&checked).contains("folio redate content/fr/posts/hello-world.md"),
        "{}",
        stderr(&checked)
    );
    assert_eq!(
        std::fs::read(site.path(".folio/index.sqlite")).unwrap(),
        index
    );
    assert_eq!(site.output_tree(), output);
}

#[test]
fn each_broken_link_is_said_once_of_the_file_that_writes_it() {
    let site = TestSite::with_posts();
    for name in ["a", "b"] {
        site.write(
            &format!("content/en/posts/{name}.md"),
            &post(name, "2024-08-01", "[gone](/nowhere/) and [top](#top)"),
        );
    }
    // Relative links from a page at the root of the site.
    site.write(
        "content/en/home-page.md",
        "---\ntitle: Root\npermalink: /root.html\n---\n[a](posts/a/) ![logo](logo.png)\n",
    );
    site.write("static/logo.png", "png");
    let base = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/base.html"),
    )
    .unwrap();
    site.write(
        "templates/base.html",
        &base.replace("</body>", "<a href=\"/contact/\">contact</a>\n</body>"),
    );
    let checked = site.cli(&["check"]);
    let stderr = stderr(&checked);
    let said: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains(": links to "))
        .map(|line| line.trim_start_matches("error: "))
        .collect();
    assert_eq!(
        said,
        [
            "content/en/posts/a.md:5: links to /nowhere/, which no page or file of the site is",
            "content/en/posts/b.md:5: links to /nowhere/, which no page or file of the site is",
            "templates/base.html:39: links to /contact/, which no page or file of the site is",
        ],
        "{stderr}"
    );
}

#[test]
fn check_builds_in_a_fresh_folder_of_its_own_and_removes_it() {
    let site = TestSite::with_posts();
    let temp = tempfile::tempdir().unwrap();
    let victim = temp.path().join("victim.sqlite");
    std::fs::write(&victim, "precious\n").unwrap();
    // Another local user's plant under the name check once used, which
    // a pid made predictable: `exec` keeps the shell's pid for folio.
    let planted = std::process::Command::new("sh")
        .arg("-c")
        .arg(r#"mkdir "$TMPDIR/folio-check-$$" && ln -s "$VICTIM" "$TMPDIR/folio-check-$$/index.sqlite" && exec "$FOLIO" check"#)
        .env("TMPDIR", temp.path())
        .env("VICTIM", &victim)
        .env("FOLIO", env!("CARGO_BIN_EXE_folio"))
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .current_dir(site.root())
        .output()
        .unwrap();
    assert!(planted.status.success(), "{}", stderr(&planted));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let mut left: Vec<String> = std::fs::read_dir(temp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    // The plant is untouched (check neither used nor removed it), and the
    // scratch folder is gone.
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left[0].starts_with("folio-check-") && left[1] == "victim.sqlite");
    assert!(temp.path().join(&left[0]).join("index.sqlite").is_symlink());
}
