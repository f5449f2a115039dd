//! Templates that list posts beyond their page's own list: the archive of
//! each language (every post, by year), any template naming `all_posts`,
//! and a post's related posts (`post.related`, by shared terms); each page
//! written again exactly when a post it lists changes, through fresh builds
//! and a kept session.

use crate::util;

use util::{SITE_TOML, TestSite, is_sorted, order_of};

/// Four English posts over two years, in tags and a series, and a French
/// one.
fn site() -> TestSite {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!("taxonomies = [\"tags\", \"series\"]\n{SITE_TOML}"),
    );
    for (slug, date, terms) in [
        ("oldest", "2023-03-01", "tags: [rust]\n"),
        (
            "spring",
            "2024-04-01",
            "tags: [rust, web]\nseries: [Build]\n",
        ),
        ("summer", "2024-07-01", "tags: [web]\nseries: [Build]\n"),
        ("autumn", "2024-10-01", "tags: [rust, web, cli]\n"),
    ] {
        site.write(
            &format!("content/en/posts/{slug}.md"),
            &format!("---\ntitle: {slug}\ndate: {date}\n{terms}---\nThe {slug} post.\n"),
        );
    }
    site.write(
        "content/fr/posts/hiver.md",
        "---\ntitle: hiver\ndate: 2024-01-01\ntags: [rust]\n---\nL'hiver.\n",
    );
    site
}

#[test]
fn each_language_has_an_archive_of_its_posts_by_year() {
    let site = site();
    site.build();
    let archive = site.main_of("archive/index.html");
    assert!(archive.contains("<h1>Archive</h1>"), "{archive}");
    let order = order_of(
        &archive,
        &[
            "<h2>2024</h2>",
            "/posts/autumn/",
            "/posts/summer/",
            "/posts/spring/",
            "<h2>2023</h2>",
            "/posts/oldest/",
        ],
    );
    assert!(is_sorted(&order), "{archive}");
    assert!(!archive.contains("hiver"), "{archive}");
    let french = site.main_of("fr/archive/index.html");
    assert!(french.contains("<h1>Archives</h1>") && french.contains("/fr/posts/hiver/"));
    // An empty language has an archive that says so; each links the others.
    let japanese = site.read("public/ja/archive/index.html");
    assert!(japanese.contains("class=\"empty\""), "{japanese}");
    assert!(
        japanese.contains("hreflang=\"fr\" href=\"https://example.org/fr/archive/\""),
        "{japanese}"
    );
    assert!(
        site.main_of("index.html")
            .contains("<a href=\"/archive/\">Archive</a>")
    );
    let sitemap = site.read("public/sitemap.xml");
    assert!(sitemap.contains("<loc>https://example.org/archive/</loc>"));
}

#[test]
fn a_post_s_related_posts_share_the_most_terms_with_it() {
    let site = site();
    site.write(
        "templates/post.html",
        "{% for p in post.related %}{{ p.title }} {% endfor %}",
    );
    site.build();
    // spring shares rust and web with autumn, web and a series with
    // summer: two terms each, the newer first; oldest shares one.
    assert_eq!(
        site.read("public/posts/spring/index.html"),
        "autumn summer oldest "
    );
    assert_eq!(
        site.read("public/posts/autumn/index.html"),
        "spring summer oldest "
    );
    assert_eq!(
        site.read("public/posts/oldest/index.html"),
        "autumn spring "
    );
    // Only posts of its own language.
    assert_eq!(site.read("public/fr/posts/hiver/index.html"), "");
}

/// A post's edits write again exactly the pages that list it; `kept`
/// rebuilds through a kept session told the paths that changed.
fn edits(kept: bool) {
    let site = site();
    site.write(
        "templates/post.html",
        "{% for p in post.related %}{{ p.title }} {% endfor %}",
    );
    site.write(
        "templates/page.html",
        "{{ page.title }}: {{ all_posts|length }} posts",
    );
    site.write("content/en/about.md", "---\ntitle: About\n---\nUs.\n");
    if kept {
        site.keep_session();
    }
    site.build();
    assert_eq!(site.read("public/about/index.html"), "About: 4 posts");

    // A title: the pages that show it, the archive and the page naming
    // `all_posts` among them (which shows its length alone, so its bytes
    // stay), and the posts that list it as related.
    site.write(
        "content/en/posts/oldest.md",
        &site
            .read("content/en/posts/oldest.md")
            .replace("title: oldest", "title: first"),
    );
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/autumn/index.html",
            "posts/index.html",
            "posts/spring/index.html",
            "tags/rust/index.html",
        ],
        &[],
    );

    // A body past its summary: nothing here shows it (this post template
    // shows related titles alone, the archive titles and dates).
    site.write(
        "content/en/posts/spring.md",
        &format!(
            "{}\nMore spring.\n",
            site.read("content/en/posts/spring.md")
        ),
    );
    site.assert_rebuild(&[], &[]);

    // A term: the lists that show its terms, the term's pages, and the
    // related posts of autumn, which it now shares two terms with (its own
    // page's related posts keep their order: its bytes stay).
    site.write(
        "content/en/posts/oldest.md",
        &site
            .read("content/en/posts/oldest.md")
            .replace("tags: [rust]", "tags: [rust, cli]"),
    );
    site.assert_rebuild(
        &[
            "atom.xml",
            "index.html",
            "posts/autumn/index.html",
            "posts/index.html",
            "tags/cli/index.html",
            "tags/index.html",
            "tags/rust/index.html",
        ],
        &[],
    );
    assert_eq!(
        site.read("public/posts/autumn/index.html"),
        "spring first summer "
    );
}

#[test]
fn an_edit_writes_again_exactly_the_pages_that_list_it() {
    edits(false);
}

#[test]
fn an_edit_in_a_kept_session_writes_again_exactly_the_pages_that_list_it() {
    edits(true);
}
