//! Front matter as real blogs write it: fields of Jekyll, Hugo and Zola
//! are read for what they mean, the others are kept for templates.

mod util;

use util::TestSite;

/// A Jekyll post as the Bitcoin Core site writes them (the fields, not the
/// text), and a theme that shows what folio kept.
fn jekyll_site() -> TestSite {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/2024-03-13-performance.md",
        "---\ntype: posts\nlang: en\nname: performance-1\nid: en-performance-1\ntitle: Performance, part 1\nversion: 1\nauthor: Ada\ncategories: releases mining\nlast_modified_at: 2024-04-01\nexcerpt: Milestones that *mattered*.\n---\nThe long body.\n",
    );
    site.write(
        "templates/post.html",
        "{% extends \"base.html\" %}{% block content %}<p class=\"by\">{{ post.extra.authors | join(\", \") }}, v{{ post.extra.version }} ({{ post.extra.name }})</p>{{ post.summary | safe }}{{ content }}{% endblock %}",
    );
    site
}

#[test]
fn a_jekyll_post_builds_with_its_fields_read_or_kept() {
    let site = jekyll_site();
    let report = site.build();
    let page = site.read("public/posts/performance/index.html");
    assert!(
        page.contains("<p class=\"by\">Ada, v1 (performance-1)</p>"),
        "{page}"
    );
    assert!(page.contains("<p>Milestones that <em>mattered</em>.</p>"));
    assert!(
        report
            .written
            .iter()
            .any(|w| w == "tags/releases/index.html")
    );
    assert!(report.written.iter().any(|w| w == "tags/mining/index.html"));
    let feed = site.read("public/atom.xml");
    assert!(feed.contains("<author><name>Ada</name></author>"), "{feed}");
    assert!(feed.contains("<updated>2024-04-01T"));
    let row = site.query("SELECT extra FROM posts WHERE slug = 'performance'");
    assert_eq!(
        row,
        [
            r#"{"authors":["Ada"],"id":"en-performance-1","name":"performance-1","type":"posts","version":1}"#
        ]
    );

    // Converged: nothing to do.
    assert!(site.build().written.is_empty());

    // A field only templates read changes its pages.
    let source = site.read("content/en/posts/2024-03-13-performance.md");
    site.write(
        "content/en/posts/2024-03-13-performance.md",
        &source.replace("version: 1", "version: 2"),
    );
    let report = site.build();
    assert!(
        report
            .written
            .iter()
            .any(|w| w == "posts/performance/index.html")
    );
    assert!(
        site.read("public/posts/performance/index.html")
            .contains(", v2 (")
    );
}

#[test]
fn a_typo_of_a_field_is_an_error_naming_the_file_line_and_the_field_meant() {
    let site = jekyll_site();
    site.write(
        "content/en/posts/typo.md",
        "---\ntitle: Typo\ndate: 2024-05-01\ntag: [a]\n---\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/typo.md:4") && error.contains("did you mean `tags`?"),
        "{error}"
    );
    assert!(!site.out().exists(), "nothing written");
}
