//! `--dry-run` (what would be written and why) and `explain` (what an output
//! is built from).

use crate::util;

use util::{TestSite, options, post};

#[test]
fn a_dry_run_says_what_the_build_would_do_and_why_and_writes_nothing() {
    let site = TestSite::with_posts();
    site.write(
        "templates/post.html",
        &std::fs::read_to_string(format!(
            "{}/templates/post.html",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    );
    site.build();
    site.write(
        "content/fr/posts/hello-world.md",
        &post(
            "Salut",
            "2024-05-01T09:00:00Z",
            "Premier paragraphe.\n\nDeuxième.",
        ),
    );
    site.remove("content/en/about.md");
    let tree = site.output_tree();
    let rows = site.rows();
    let outputs = site.query("SELECT * FROM outputs ORDER BY path");

    let dry = site.dry_run();
    assert!(dry.dry_run);
    assert_eq!(site.output_tree(), tree, "a dry run writes no output");
    assert_eq!(site.rows(), rows, "nor a row");
    assert_eq!(site.query("SELECT * FROM outputs ORDER BY path"), outputs);
    assert_eq!(
        dry.why["fr/posts/hello-world/index.html"],
        "source changed: content/fr/posts/hello-world.md"
    );
    assert!(
        dry.why["fr/posts/third/index.html"].contains("content/fr/posts/hello-world.md"),
        "its neighbour's title: {:?}",
        dry.why
    );
    assert_eq!(dry.why["about/index.html"], "no page produces it any more");
    assert_eq!(dry.deleted, ["about/index.html"]);

    let real = site.build();
    assert_eq!(
        real.written, dry.written,
        "the dry run named exactly what the build wrote"
    );
    assert_eq!(real.deleted, dry.deleted);

    // Templates and config are named as such.
    let text = site.read("templates/post.html");
    site.write(
        "templates/post.html",
        &text.replace("<article", "<article data-x"),
    );
    let dry = site.dry_run();
    assert_eq!(dry.written.len(), 5);
    assert!(
        dry.why
            .values()
            .all(|why| why == "template changed: post.html"),
        "{:?}",
        dry.why
    );
    site.build();
    site.write(
        "site.toml",
        &site
            .read("site.toml")
            .replace("title = \"Test\"", "title = \"Other\""),
    );
    let dry = site.dry_run();
    assert!(
        dry.why["index.html"].contains("site.toml changed"),
        "{:?}",
        dry.why
    );
    // A file deleted from the output folder is named as such.
    site.build();
    site.remove("public/fr/index.html");
    assert_eq!(
        site.dry_run().why["fr/index.html"],
        "its file in the output folder is missing or was changed"
    );
}

#[test]
fn explain_names_the_templates_sources_and_config_keys_of_an_output() {
    let site = TestSite::with_posts();
    site.write("static/logo.svg", "<svg/>");
    site.build();
    let folio = site.site();
    let options = options(|_| {});
    let page = folio
        .explain("fr/posts/hello-world/index.html", &options)
        .unwrap();
    assert_eq!(page.made_for, "content/fr/posts/hello-world.md");
    // The sheet it links by its twin (`asset_url`) is made from a template.
    assert_eq!(page.templates, ["post.html", "base.html", "style.css"]);
    assert_eq!(
        page.sources,
        [
            "content/fr/posts/hello-world.md",
            "content/en/posts/hello-world.md",
            "content/ja/posts/hello-world.md",
            "content/posts/third.fr.md",
        ]
    );
    assert!(
        page.config_keys.contains(&"permalink".to_owned())
            && page.config_keys.contains(&"title".to_owned())
    );
    assert_eq!(page.language.as_deref(), Some("fr"));

    // The same output, named three ways.
    let full = site.path("public/fr/posts/hello-world/index.html");
    assert_eq!(
        folio.explain(full.to_str().unwrap(), &options).unwrap(),
        page
    );
    assert_eq!(
        folio.explain("/fr/posts/hello-world/", &options).unwrap(),
        page
    );

    let feed = folio.explain("/fr/atom.xml", &options).unwrap();
    assert_eq!(feed.templates, ["atom.xml"]);
    assert!(feed.config_keys.contains(&"feed_limit".to_owned()));
    let logo = folio.explain("logo.svg", &options).unwrap();
    assert_eq!(
        (logo.sources, logo.templates.len()),
        (vec!["static/logo.svg".to_owned()], 0)
    );
    // A twin is its asset under another name.
    let sheet = folio.explain(&site.twin_of("style.css"), &options).unwrap();
    assert_eq!(
        (sheet.output.as_str(), &sheet.templates[..]),
        ("style.css", &["style.css".to_owned()][..])
    );
    assert!(matches!(
        folio.explain("no/such/page.html", &options),
        Err(folio::Error::UnknownOutput { query }) if query == "no/such/page.html"
    ));

    // The CLI prints the same, and exits 1 on an unknown path.
    let out = site.cli(&["explain", "/fr/posts/hello-world/"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("templates: post.html, base.html, style.css"),
        "{text}"
    );
    assert_eq!(site.cli(&["explain", "nope.html"]).status.code(), Some(1));
    assert!(site.build().written.is_empty(), "explaining wrote nothing");
}
