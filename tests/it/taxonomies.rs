//! Taxonomies on real site trees: each one site.toml declares has an index
//! and a page per term in every language, paginated, fed when `feeds_for`
//! names it; `categories` stops being tags once declared; mistakes are
//! named with their file and line; and an edit writes again exactly the
//! pages that show it, through fresh builds and a kept session.

use feed_rs::model::FeedType;

use crate::util;

use util::{SITE_TOML, TestSite};

const TAXONOMIES: &str = "taxonomies = [\"tags\", \"categories\", \"series\"]\npaginate = 1";

/// Three English posts and a French one, in tags, categories (Jekyll's
/// words, Zola's table) and a series, with `settings` over site.toml.
fn site(settings: &str) -> TestSite {
    let site = TestSite::new();
    site.write("site.toml", &format!("{settings}\n{SITE_TOML}"));
    site.write(
        "content/en/posts/day-one.md",
        "---\ntitle: Day one\ndate: 2024-05-01\ntags: [travel]\ncategories: journal notes\nseries: [Around Japan]\n---\nWe left.\n",
    );
    site.write(
        "content/en/posts/day-two.md",
        "---\ntitle: Day two\ndate: 2024-05-02\ntags: [travel, food]\nseries: Around Japan\n---\nWe ate.\n",
    );
    site.write(
        "content/en/posts/zola.md",
        "+++\ntitle = \"From Zola\"\ndate = 2024-04-01\n[taxonomies]\ntags = [\"meta\"]\ncategories = [\"journal\"]\nseries = [\"Moving in\"]\n[extra]\nmood = \"calm\"\n+++\nMoved.\n",
    );
    site.write(
        "content/fr/posts/day-one.md",
        "---\ntitle: Premier jour\ndate: 2024-05-01\nseries: [Le Japon]\n---\nNous partons.\n",
    );
    site
}

#[test]
fn each_declared_taxonomy_has_an_index_and_a_page_per_term_in_each_language() {
    let site = site(TAXONOMIES);
    site.build();
    let tree = site.output_tree();
    for page in [
        "tags/index.html",
        "tags/travel/index.html",
        "tags/travel/page/2/index.html",
        "categories/index.html",
        "categories/journal/index.html",
        "categories/journal/page/2/index.html",
        "categories/notes/index.html",
        "series/index.html",
        "series/around-japan/index.html",
        "series/around-japan/page/2/index.html",
        "series/moving-in/index.html",
        "fr/series/index.html",
        "fr/series/le-japon/index.html",
        "fr/categories/index.html",
    ] {
        assert!(tree.contains_key(page), "{page}");
    }
    // Declared, categories are no longer tags.
    assert!(!tree.contains_key("tags/journal/index.html"));
    let index = site.main_of("categories/index.html");
    assert!(index.contains("<h1>Categories</h1>"), "{index}");
    assert!(
        index.contains("<a class=\"tag\" href=\"/categories/journal/\" rel=\"tag\">journal</a> 2"),
        "{index}"
    );
    let term = site.main_of("series/around-japan/index.html");
    assert!(
        term.contains("<h1>Series: <span class=\"term\">Around Japan</span></h1>"),
        "{term}"
    );
    assert!(term.contains("/posts/day-two/"), "{term}");
    assert!(term.contains("/series/around-japan/page/2/"), "{term}");
    // A post links its terms of every taxonomy, each under its name; the
    // terms are not kept as fields of its own.
    let post = site.read("public/posts/zola/index.html");
    for link in [
        "<a href=\"/series/\">Series</a>: <a href=\"/series/moving-in/\">Moving in</a>",
        "<a href=\"/categories/\">Categories</a>: <a href=\"/categories/journal/\">journal</a>",
        "href=\"/tags/meta/\" rel=\"tag\">#meta</a>",
    ] {
        assert!(post.contains(link), "{link}\n{post}");
    }
    let extra = site.query("SELECT extra FROM posts WHERE slug = 'zola'");
    assert_eq!(extra, ["{\"mood\":\"calm\"}"]);
    // The home links each taxonomy's index.
    let home = site.main_of("index.html");
    for link in [
        "href=\"/tags/\"",
        "href=\"/categories/\"",
        "href=\"/series/\"",
    ] {
        assert!(home.contains(link), "{link}\n{home}");
    }
    // Each index is one page in every language, translated by hreflang.
    let french = site.read("public/fr/series/index.html");
    assert!(
        french.contains("hreflang=\"en\" href=\"https://example.org/series/\""),
        "{french}"
    );
    let sitemap = site.read("public/sitemap.xml");
    assert!(sitemap.contains("<loc>https://example.org/fr/series/le-japon/</loc>"));
}

#[test]
fn a_site_that_declares_none_has_tags_with_categories_among_them() {
    let site = site("");
    site.build();
    let tree = site.output_tree();
    assert!(tree.contains_key("tags/journal/index.html"));
    assert!(tree.contains_key("tags/notes/index.html"));
    assert!(
        !tree
            .keys()
            .any(|p| p.starts_with("series/") || p.starts_with("categories/"))
    );
    // An undeclared taxonomy is a field of the post's own, for templates.
    let extra = site.query("SELECT extra FROM posts WHERE slug = 'day-one' AND lang = 'en'");
    assert_eq!(extra, ["{\"series\":[\"Around Japan\"]}"]);
}

#[test]
fn the_words_of_a_language_name_its_taxonomies() {
    let site = site(TAXONOMIES);
    site.write("i18n/fr.toml", "series = \"Séries\"\n");
    site.build();
    let index = site.main_of("fr/series/index.html");
    assert!(index.contains("<h1>Séries</h1>"), "{index}");
    let post = site.read("public/fr/posts/day-one/index.html");
    assert!(
        post.contains(
            "<a href=\"/fr/series/\">Séries</a>: <a href=\"/fr/series/le-japon/\">Le Japon</a>"
        ),
        "{post}"
    );
}

#[test]
fn each_term_of_a_taxonomy_feeds_named_has_its_feeds() {
    let site = site(&format!(
        "{TAXONOMIES}\nfeeds = [\"atom.xml\", \"rss.xml\", \"feed.json\"]\nfeeds_for = [\"home\", \"series\"]"
    ));
    site.build();
    for (name, kind) in [
        ("atom.xml", FeedType::Atom),
        ("rss.xml", FeedType::RSS2),
        ("feed.json", FeedType::JSON),
    ] {
        let path = format!("series/around-japan/{name}");
        let text = site.read(&format!("public/{path}"));
        let feed =
            feed_rs::parser::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(feed.feed_type, kind);
        assert_eq!(
            feed.title.unwrap().content,
            "Series: Around Japan · Test",
            "{path}"
        );
        let titles: Vec<String> = feed
            .entries
            .iter()
            .map(|e| e.title.as_ref().unwrap().content.clone())
            .collect();
        assert_eq!(titles, ["Day two", "Day one"], "{path}");
    }
    assert!(site.path("public/fr/series/le-japon/atom.xml").exists());
    // Tags were not named: no tag has a feed.
    assert!(!site.path("public/tags/travel/atom.xml").exists());
    let page = site.read("public/series/around-japan/index.html");
    assert!(
        page.contains(
            "title=\"Series: Around Japan · Atom feed\" href=\"/series/around-japan/atom.xml\""
        ),
        "{page}"
    );
}

#[test]
fn a_term_lists_the_pages_that_have_it_after_its_posts_and_feeds_its_posts_alone() {
    let site = site("feeds_for = [\"home\", \"tags\"]");
    site.write(
        "content/en/projects/kyoto-guide.md",
        "---\ntitle: A Kyoto guide\ntags: [travel]\n---\nWhere to go.\n",
    );
    site.write(
        "content/en/about.md",
        "---\ntitle: About\ntags: [travel, me]\n---\nWho.\n",
    );
    site.build();
    let term = site.main_of("tags/travel/index.html");
    let order: Vec<usize> = [
        "/posts/day-two/",
        "/posts/day-one/",
        "/projects/kyoto-guide/",
        "/about/",
    ]
    .iter()
    .map(|url| {
        term.find(&format!("<a href=\"{url}\">"))
            .unwrap_or_else(|| panic!("{url}\n{term}"))
    })
    .collect();
    // "A Kyoto guide" before "About".
    assert!(
        order.is_sorted(),
        "posts newest first, then pages by title:\n{term}"
    );
    // A page has no date to show.
    assert_eq!(term.matches("<time").count(), 2, "{term}");
    // A term only pages have has its page, linked from them and counted.
    assert!(site.path("public/tags/me/index.html").exists());
    let about = site.read("public/about/index.html");
    assert!(about.contains("href=\"/tags/me/\""), "{about}");
    let index = site.main_of("tags/index.html");
    assert!(
        index.contains("href=\"/tags/travel/\" rel=\"tag\">#travel</a> 4"),
        "{index}"
    );
    // The feed follows what is published: the posts.
    let feed = site.read("public/tags/travel/atom.xml");
    let feed = feed_rs::parser::parse(feed.as_bytes()).unwrap();
    let titles: Vec<String> = feed
        .entries
        .iter()
        .map(|e| e.title.as_ref().unwrap().content.clone())
        .collect();
    assert_eq!(titles, ["Day two", "Day one"]);
    let me = site.read("public/tags/me/atom.xml");
    assert!(
        feed_rs::parser::parse(me.as_bytes())
            .unwrap()
            .entries
            .is_empty()
    );
}

#[test]
fn ascii_term_slugs_write_each_term_s_url_in_ascii() {
    let site = site("term_slugs = \"ascii\"");
    site.write(
        "content/en/posts/music.md",
        "---\ntitle: Music\ndate: 2024-05-03\ntags: [Música, 多言語, web app]\n---\nLa.\n",
    );
    site.build();
    for page in ["musica", "duo-yan-yu", "web-app", "travel"] {
        assert!(
            site.path(&format!("public/tags/{page}/index.html"))
                .exists(),
            "{page}"
        );
    }
    let post = site.read("public/posts/music/index.html");
    assert!(
        post.contains("href=\"/tags/musica/\" rel=\"tag\">#Música</a>"),
        "{post}"
    );
    // Back to the default: every page that links a term is written again.
    site.write("site.toml", &format!("\n{SITE_TOML}"));
    let report = site.build();
    assert!(site.path("public/tags/música/index.html").exists());
    assert!(!site.path("public/tags/musica/index.html").exists());
    assert!(
        report
            .written
            .iter()
            .any(|p| p.ends_with("posts/music/index.html")),
        "{report:?}"
    );
    // Written in ASCII, a name grows (龍 is `long`): 198 bytes as written,
    // 329 as its folder's name, refused under that rule alone.
    let dragons = "龍".repeat(66);
    site.write(
        "content/en/posts/dragons.md",
        &format!("---\ntitle: Dragons\ndate: 2024-05-04\ntags: [{dragons}]\n---\nRoar.\n"),
    );
    site.build();
    site.write("site.toml", &format!("term_slugs = \"ascii\"\n{SITE_TOML}"));
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/dragons.md:4: field `tags`: the tag `")
            && error.contains("is 329 bytes long in ASCII; its page's folder is named after it, in at most 200 bytes"),
        "{error}"
    );
}

#[test]
fn mistakes_in_taxonomies_are_named_with_their_file_and_help() {
    let site = site(TAXONOMIES);
    for (settings, says) in [
        (
            "taxonomies = [\"Series\"]",
            "taxonomies: `Series` is not a name folio can use",
        ),
        (
            "taxonomies = [\"title\"]",
            "`title` is a front matter field folio reads",
        ),
        (
            "taxonomies = [\"posts\"]",
            "`posts`'s pages would be where the site's other pages are",
        ),
        (
            "taxonomies = [\"tags\", \"series\"]\nfeeds_for = [\"home\", \"serie\"]",
            "did you mean `series`?",
        ),
    ] {
        site.write("site.toml", &format!("{settings}\n{SITE_TOML}"));
        let error = folio::Site::open(site.root()).unwrap_err().to_string();
        assert!(
            error.contains("site.toml") && error.contains(says),
            "{settings}: {error}"
        );
    }
    site.write("site.toml", &format!("{TAXONOMIES}\n{SITE_TOML}"));
    site.write(
        "content/en/posts/typo.md",
        "---\ntitle: Typo\ndate: 2024-06-01\nserie: [Around Japan]\n---\nOops.\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/typo.md:4") && error.contains("did you mean `series`?"),
        "{error}"
    );
}

#[test]
fn a_site_s_old_tags_template_is_named_as_unused() {
    let site = site("");
    site.write("templates/tags.html", "{{ tags }}");
    let report = site.build();
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("tags.html is no longer read") && w.contains("taxonomy.html")),
        "{:?}",
        report.warnings
    );
    site.write("templates/taxonomy.html", "{{ terms|length }}");
    assert!(site.build().warnings.is_empty());
    // travel, food, meta, and Jekyll's categories journal and notes.
    assert_eq!(site.read("public/tags/index.html"), "5");
}

#[test]
fn a_theme_gives_a_taxonomy_templates_of_its_own() {
    let site = site(TAXONOMIES);
    site.write(
        "templates/series/taxonomy.html",
        "series: {{ terms|map(attribute=\"name\")|join(\",\") }}",
    );
    site.write(
        "templates/series/term.html",
        "{{ taxonomy.name }} {{ term.name }} {{ term.count }}",
    );
    site.build();
    assert_eq!(
        site.read("public/series/index.html"),
        "series: Around Japan,Moving in"
    );
    assert_eq!(
        site.read("public/series/around-japan/index.html"),
        "series Around Japan 2"
    );
    // The others keep the shared ones.
    assert!(
        site.read("public/categories/index.html")
            .contains("<h1>Categories</h1>")
    );
}

/// Exactly the pages that show an edit are written again; `kept` rebuilds
/// through a kept session told the paths that changed.
fn edits(kept: bool) {
    let site = site(TAXONOMIES);
    if kept {
        site.keep_session();
    }
    site.build();

    // A post joins a second series: its page, the series index, the new
    // term's page; no other term's page, no tag's, no French page.
    let zola = site.read("content/en/posts/zola.md");
    site.write(
        "content/en/posts/zola.md",
        &zola.replace(
            "series = [\"Moving in\"]",
            "series = [\"Moving in\", \"Around Japan\"]",
        ),
    );
    site.assert_rebuild(
        &[
            "posts/zola/index.html",
            "series/around-japan/index.html",
            "series/around-japan/page/2/index.html",
            "series/around-japan/page/3/index.html",
            "series/index.html",
            "sitemap.xml",
        ],
        &[],
    );

    // Its body: its page, and the lists (its posts section's too) and the
    // feed that show its summary (a page of one post each: it is the
    // oldest).
    site.write(
        "content/en/posts/zola.md",
        &site
            .read("content/en/posts/zola.md")
            .replace("Moved.", "Moved in."),
    );
    site.assert_rebuild(
        &[
            "atom.xml",
            "categories/journal/page/2/index.html",
            "page/3/index.html",
            "posts/page/3/index.html",
            "posts/zola/index.html",
            "series/around-japan/page/3/index.html",
            "series/moving-in/index.html",
            "tags/meta/index.html",
        ],
        &[],
    );

    // What French calls series: the French pages that show the word (the
    // home's links, the post's, the index's title and the term's), not
    // the other indexes, which render the same bytes again.
    site.write("i18n/fr.toml", "series = \"Séries\"\n");
    site.assert_rebuild(
        &[
            "fr/index.html",
            "fr/posts/day-one/index.html",
            "fr/series/index.html",
            "fr/series/le-japon/index.html",
        ],
        &[],
    );

    // Series dropped from site.toml: their pages go, and the posts that
    // named one lose the link.
    site.write(
        "site.toml",
        &format!("taxonomies = [\"tags\", \"categories\"]\npaginate = 1\n{SITE_TOML}"),
    );
    let report = site.build();
    assert!(
        report.deleted.iter().any(|p| p == "series/index.html"),
        "{:?}",
        report.deleted
    );
    assert!(
        report
            .deleted
            .iter()
            .any(|p| p == "fr/series/le-japon/index.html")
    );
    assert!(
        !site
            .read("public/posts/zola/index.html")
            .contains("/series/")
    );
    assert!(
        site.output_tree() == site.clean_build_tree(),
        "differs from a clean build"
    );
}

#[test]
fn an_edit_writes_again_exactly_the_pages_that_show_it() {
    edits(false);
}

#[test]
fn an_edit_in_a_kept_session_writes_again_exactly_the_pages_that_show_it() {
    edits(true);
}
