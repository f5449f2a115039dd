//! Sections on real site trees: a list page for every posts section and
//! every folder with an `_index.md`, in each language that has it,
//! paginated and ordered as the `_index.md` says, its feeds when asked,
//! its mistakes named with their file and line; and exactly the pages that
//! show an edit written again, through fresh builds and a kept session.

use feed_rs::model::FeedType;

use crate::util;

use util::{SITE_TOML, TestSite, is_sorted, options, order_of, post};

#[test]
fn every_posts_section_has_a_list_in_each_language_it_has_posts_in() {
    let site = TestSite::with_posts();
    site.build();
    let tree = site.output_tree();
    for list in [
        "posts/index.html",
        "fr/posts/index.html",
        "ja/posts/index.html",
    ] {
        assert!(tree.contains_key(list), "{list}");
    }
    // The page folder without an `_index.md` is no section.
    assert!(!tree.keys().any(|p| p.ends_with("_index/index.html")));
    let english = site.read("public/posts/index.html");
    assert!(english.contains("<h1>Posts</h1>"), "{english}");
    let main = site.main_of("posts/index.html");
    assert!(is_sorted(&order_of(
        &main,
        &["/posts/second/", "/posts/hello-world/"]
    )));
    for (code, url) in [
        ("en", "/posts/"),
        ("fr", "/fr/posts/"),
        ("ja", "/ja/posts/"),
    ] {
        let link = format!("hreflang=\"{code}\" href=\"https://example.org{url}\"");
        assert!(english.contains(&link), "{link}");
    }
    let sitemap = site.read("public/sitemap.xml");
    assert!(sitemap.contains("<loc>https://example.org/fr/posts/</loc>"));
}

#[test]
fn an_index_gives_its_section_a_title_a_text_an_order_and_pages() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/_index.md",
        "---\ntitle: Writing\ndescription: All of it\nsort_by: title\npaginate: 1\n---\nThe *intro*.\n",
    );
    site.build();
    let first = site.read("public/posts/index.html");
    assert!(first.contains("<h1>Writing</h1>"), "{first}");
    assert!(first.contains("<p>The <em>intro</em>.</p>"), "{first}");
    assert!(first.contains("content=\"All of it\""), "{first}");
    // By title: Hello, then Second, one a page.
    assert!(
        site.main_of("posts/index.html")
            .contains("/posts/hello-world/")
    );
    let second = site.main_of("posts/page/2/index.html");
    assert!(second.contains("/posts/second/"), "{second}");
    assert!(!second.contains("The <em>intro</em>"), "{second}");
    assert!(second.contains("href=\"/posts/\" rel=\"prev\""), "{second}");
    // The `_index.md` is not a post; French keeps its own defaults.
    assert!(!site.output_tree().keys().any(|p| p.contains("_index")));
    assert!(
        site.read("public/fr/posts/index.html")
            .contains("<h1>Posts</h1>")
    );
}

/// A folder of pages made a section by its `_index.md`, ordered by
/// weight, with a section inside it.
fn docs_site() -> TestSite {
    let site = TestSite::new();
    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\nsort_by: weight\n---\nRead these.\n",
    );
    site.write(
        "content/en/docs/setup.md",
        "---\ntitle: Setup\nweight: 2\n---\nSetup.\n",
    );
    site.write(
        "content/en/docs/intro.md",
        "---\ntitle: Intro\nweight: 1\n---\nIntro.\n",
    );
    site.write(
        "content/en/docs/later.md",
        "---\ntitle: Later\n---\nLater.\n",
    );
    site.write(
        "content/en/docs/guides/_index.md",
        "+++\ntitle = \"Guides\"\n+++\n",
    );
    site.write(
        "content/en/docs/guides/deploy.md",
        "---\ntitle: Deploy\n---\nDeploy.\n",
    );
    site
}

#[test]
fn a_folder_of_pages_lists_them_by_weight_with_its_sections_inside() {
    let site = docs_site();
    site.build();
    let docs = site.main_of("docs/index.html");
    // Lightest first, those without a weight after, the guide's page too.
    assert!(is_sorted(&order_of(
        &docs,
        &["/docs/intro/", "/docs/setup/", "/docs/guides/deploy/"]
    )));
    assert!(docs.contains("/docs/later/"));
    assert!(
        docs.contains("<li><a href=\"/docs/guides/\">Guides</a> (1)</li>"),
        "{docs}"
    );
    // Pages have no date to show.
    assert!(!docs.contains("<time"), "{docs}");
    let guides = site.main_of("docs/guides/index.html");
    assert!(guides.contains("/docs/guides/deploy/") && !guides.contains("/docs/intro/"));
    // French has no document there and no `_index.md`: no list.
    assert!(!site.output_tree().contains_key("fr/docs/index.html"));
}

#[test]
fn a_listed_page_with_a_tag_no_post_has_links_its_page() {
    // A page's tag has a page as a post's has, even one no post has
    // (its section's list once panicked on such a tag).
    let site = docs_site();
    site.write(
        "content/en/docs/tagged.md",
        "---\ntitle: Tagged\ntags: [rust, only-here]\n---\nTagged.\n",
    );
    site.write(
        "content/en/posts/rusty.md",
        "---\ntitle: Rusty\ndate: 2024-03-01\ntags: [rust]\n---\nRust.\n",
    );
    site.build();
    let docs = site.main_of("docs/index.html");
    assert!(
        docs.contains("<a href=\"/docs/tagged/\">Tagged</a>"),
        "{docs}"
    );
    let tagged = site.main_of("docs/tagged/index.html");
    assert!(
        tagged.contains("href=\"/tags/only-here/\" rel=\"tag\">#only-here</a>"),
        "{tagged}"
    );
    let only_here = site.main_of("tags/only-here/index.html");
    assert!(only_here.contains("/docs/tagged/"), "{only_here}");
    assert!(site.output_tree().contains_key("tags/rust/index.html"));
}

#[test]
fn sections_inside_one_stand_by_weight_and_a_draft_has_no_list() {
    let site = docs_site();
    site.write(
        "content/en/docs/api/_index.md",
        "---\ntitle: API\nweight: 1\n---\n",
    );
    site.write(
        "content/en/docs/api/types.md",
        "---\ntitle: Types\n---\nT.\n",
    );
    site.build();
    let docs = site.main_of("docs/index.html");
    // Weighed first, then by folder.
    assert!(
        is_sorted(&order_of(&docs, &[">API</a>", ">Guides</a>"])),
        "{docs}"
    );

    site.write(
        "content/en/docs/guides/_index.md",
        "+++\ntitle = \"Guides\"\ndraft = true\nmenu = \"main\"\n+++\n",
    );
    site.build();
    assert!(!site.output_tree().contains_key("docs/guides/index.html"));
    let docs = site.main_of("docs/index.html");
    // Its pages are still the docs' own.
    assert!(!docs.contains(">Guides</a>") && docs.contains("/docs/guides/deploy/"));
    site.build_with(&options(|o| o.drafts = true)).unwrap();
    assert!(site.output_tree().contains_key("docs/guides/index.html"));
}

#[test]
fn an_index_links_documents_as_they_do() {
    let site = docs_site();
    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\n---\nStart with [the setup](@/docs/setup.md).\n",
    );
    site.build();
    let docs = site.main_of("docs/index.html");
    assert!(
        docs.contains("<a href=\"/docs/setup/\">the setup</a>"),
        "{docs}"
    );

    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\n---\nStart with [the setup](@/docs/setpu.md).\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(error.contains("content/en/docs/_index.md:4"), "{error}");
    assert!(error.contains("did you mean `@/docs/setup.md`?"), "{error}");
}

#[test]
fn mistakes_in_an_index_name_its_file_and_line() {
    let site = docs_site();
    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\nsort: weight\n---\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(error.contains("content/en/docs/_index.md:3"), "{error}");
    assert!(error.contains("did you mean `sort_by`?"), "{error}");

    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\ntemplate: sectoin.html\n---\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(error.contains("content/en/docs/_index.md:3"), "{error}");
    assert!(
        error.contains("`sectoin.html`") && error.contains("did you mean `section.html`?"),
        "{error}"
    );

    site.write(
        "templates/wide.html",
        "{{ section.title }}: {% for p in posts %}{{ p.title }} {% endfor %}",
    );
    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\ntemplate: wide.html\n---\n",
    );
    site.build();
    assert!(site.read("public/docs/index.html").starts_with("Docs: "));
}

#[test]
fn a_section_has_feeds_when_its_index_or_the_site_asks() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/_index.md",
        "---\ntitle: Writing\nfeed: true\n---\n",
    );
    site.build();
    let text = site.read("public/posts/atom.xml");
    roxmltree::Document::parse(&text).unwrap();
    let feed = feed_rs::parser::parse(text.as_bytes()).unwrap();
    assert_eq!(feed.feed_type, FeedType::Atom);
    assert_eq!(feed.title.unwrap().content, "Writing · Test");
    assert_eq!(feed.entries.len(), 2);
    assert!(
        site.read("public/posts/index.html")
            .contains("href=\"/posts/atom.xml\"")
    );
    assert!(!site.output_tree().contains_key("fr/posts/atom.xml"));

    site.write(
        "site.toml",
        &format!("feeds = [\"atom.xml\", \"feed.json\"]\nfeeds_for = [\"home\", \"sections\"]\n{SITE_TOML}"),
    );
    site.write(
        "content/en/posts/_index.md",
        "---\ntitle: Writing\nfeed: false\n---\n",
    );
    site.build();
    let tree = site.output_tree();
    assert!(!tree.contains_key("posts/atom.xml"));
    let text = site.read("public/fr/posts/feed.json");
    let feed = feed_rs::parser::parse(text.as_bytes()).unwrap();
    assert_eq!(feed.feed_type, FeedType::JSON);
    assert_eq!(feed.entries.len(), 2);
}

/// Exactly the pages that show an edit are written again; `kept` rebuilds
/// through a kept session told the paths that changed.
fn edits(kept: bool) {
    let site = TestSite::new();
    site.write(
        "content/en/posts/a.md",
        &post("A", "2024-05-01T09:00:00Z", "A."),
    );
    site.write(
        "content/en/posts/b.md",
        &post("B", "2024-05-02T09:00:00Z", "B."),
    );
    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\nsort_by: weight\n---\n",
    );
    site.write("content/en/docs/x.md", "---\ntitle: X\n---\nX.\n");
    site.write("content/en/docs/y.md", "---\ntitle: Y\n---\nY.\n");
    if kept {
        site.keep_session();
    }
    site.build();

    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Documents\nsort_by: weight\n---\nRead.\n",
    );
    site.assert_rebuild(&["docs/index.html"], &[]);

    site.write("content/en/posts/_index.md", "---\ntitle: Writing\n---\n");
    site.assert_rebuild(&["posts/index.html"], &[]);

    site.write(
        "content/en/posts/_index.md",
        "---\ntitle: Writing\nfeed: true\n---\n",
    );
    site.assert_rebuild(&["posts/atom.xml", "posts/index.html"], &[]);

    site.write(
        "content/en/posts/a.md",
        &post("Ay", "2024-05-01T09:00:00Z", "A."),
    );
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/a/index.html",
            "posts/atom.xml",
            "posts/b/index.html",
            "posts/index.html",
        ],
        &[],
    );

    site.write(
        "content/en/posts/c.md",
        &post("C", "2024-05-03T09:00:00Z", "C."),
    );
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/atom.xml",
            "posts/b/index.html",
            "posts/c/index.html",
            "posts/index.html",
            "sitemap.xml",
        ],
        &[],
    );

    site.remove("content/en/posts/c.md");
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/atom.xml",
            "posts/b/index.html",
            "posts/index.html",
            "sitemap.xml",
        ],
        &["posts/c/index.html"],
    );

    // A weight moves the page in its section's list; its own page does
    // not show it.
    site.write(
        "content/en/docs/y.md",
        "---\ntitle: Y\nweight: 1\n---\nY.\n",
    );
    site.assert_rebuild(&["docs/index.html"], &[]);
    let docs = site.main_of("docs/index.html");
    assert!(is_sorted(&order_of(&docs, &["/docs/y/", "/docs/x/"])));

    site.write("content/en/docs/x.md", "---\ntitle: Ex\n---\nX.\n");
    site.assert_rebuild(&["docs/index.html", "docs/x/index.html"], &[]);

    // A link from an `_index.md` follows its target where it moves.
    site.write(
        "content/en/posts/_index.md",
        "---\ntitle: Writing\nfeed: true\n---\nSee [X](@/docs/x.md).\n",
    );
    site.assert_rebuild(&["posts/index.html"], &[]);
    site.write(
        "content/en/docs/x.md",
        "---\ntitle: Ex\npermalink: /guide/x/\n---\nX.\n",
    );
    site.assert_rebuild(
        &[
            "docs/index.html",
            "guide/x/index.html",
            "posts/index.html",
            "sitemap.xml",
        ],
        &["docs/x/index.html"],
    );
    assert!(
        site.read("public/posts/index.html")
            .contains("href=\"/guide/x/\"")
    );
    site.write("content/en/docs/x.md", "---\ntitle: Ex\n---\nX.\n");
    site.assert_rebuild(
        &[
            "docs/index.html",
            "docs/x/index.html",
            "posts/index.html",
            "sitemap.xml",
        ],
        &["guide/x/index.html"],
    );

    // A French page makes the section French too: the English list's
    // first page links its new version.
    site.write("content/fr/docs/x.md", "---\ntitle: X fr\n---\nX.\n");
    site.assert_rebuild(
        &[
            "docs/index.html",
            "docs/x/index.html",
            "fr/docs/index.html",
            "fr/docs/x/index.html",
            "sitemap.xml",
        ],
        &[],
    );
    site.remove("content/fr/docs/x.md");
    site.assert_rebuild(
        &["docs/index.html", "docs/x/index.html", "sitemap.xml"],
        &["fr/docs/index.html", "fr/docs/x/index.html"],
    );

    site.remove("content/en/docs/_index.md");
    site.assert_rebuild(&["sitemap.xml"], &["docs/index.html"]);
}

#[test]
fn an_edit_writes_again_exactly_the_pages_that_show_it() {
    edits(false);
}

#[test]
fn an_edit_in_a_kept_session_writes_again_exactly_the_pages_that_show_it() {
    edits(true);
}

#[test]
fn a_section_linking_a_heading_leads_into_it_after_another_document_is_edited() {
    // A one-off edit reads the headings of the documents it does not read
    // again only when a link names an anchor: here only an `_index.md`
    // does.
    let site = docs_site();
    site.write(
        "content/en/docs/_index.md",
        "---\ntitle: Docs\nsort_by: weight\n---\nStart with [it](@/docs/setup.md#step-one).\n",
    );
    site.write(
        "content/en/docs/setup.md",
        "---\ntitle: Setup\nweight: 2\n---\nSetup.\n\n## Step one\n\nFirst.\n",
    );
    site.build();
    site.write(
        "content/en/docs/later.md",
        "---\ntitle: Later\n---\nLater, edited.\n",
    );
    site.build();
    let docs = site.read("public/docs/index.html");
    assert!(docs.contains("href=\"/docs/setup/#step-one\""), "{docs}");
    assert_eq!(site.output_tree(), site.clean_build_tree());
}
