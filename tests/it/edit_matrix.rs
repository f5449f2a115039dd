//! Every kind of edit, and exactly the files it writes and deletes. Each
//! rebuild is also compared byte for byte, and row for row, with a clean
//! build of the same sources (`TestSite::assert_rebuild`). Every edit runs
//! twice: through a fresh build each time, as `folio build` runs, and
//! through one kept session told the paths that changed, as `folio serve`
//! runs.

use crate::util;

use util::{TestSite, post};

const THEME: &[&str] = &[
    "base.html",
    "post.html",
    "list.html",
    "page.html",
    "taxonomy.html",
    "archive.html",
    "section.html",
    "atom.xml",
    "sitemap.xml",
    "robots.txt",
    "style.css",
    "404.html",
];

/// The posts of `TestSite::with_posts`, the default theme as files of the
/// site, and a static file, built once (through a kept session when
/// `kept`).
fn site(kept: bool) -> TestSite {
    let site = TestSite::with_posts_kept(kept);
    for name in THEME {
        let text =
            std::fs::read_to_string(format!("{}/templates/{name}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        site.write(&format!("templates/{name}"), &text);
    }
    site.write("static/css/site.css", "body { margin: 0 }\n");
    site.build();
    site
}

/// Appends a comment to a template: its bytes change, its output does not
/// necessarily (only where the comment is rendered).
fn edit_template(site: &TestSite, name: &str) {
    let text = site.read(&format!("templates/{name}"));
    site.write(
        &format!("templates/{name}"),
        &format!("{text}{{# edited #}}\n"),
    );
}

/// A change to a template that shows in what it renders.
fn mark_template(site: &TestSite, name: &str, marker: &str) {
    let text = site.read(&format!("templates/{name}"));
    // base.html's own content block is overridden by every page: mark the
    // layout around it instead.
    let marked = if text.contains("<main") {
        text.replacen("<main", &format!("{marker}<main"), 1)
    } else if text.contains("{% block content %}") {
        text.replacen(
            "{% block content %}",
            &format!("{{% block content %}}{marker}"),
            1,
        )
    } else {
        format!("{text}{marker}")
    };
    site.write(&format!("templates/{name}"), &marked);
}

const EVERY_HTML_PAGE: &[&str] = &[
    "404.html",
    "about/index.html",
    "archive/index.html",
    "fr/archive/index.html",
    "fr/index.html",
    "fr/posts/hello-world/index.html",
    "fr/posts/index.html",
    "fr/posts/third/index.html",
    "fr/tags/index.html",
    "index.html",
    "ja/archive/index.html",
    "ja/index.html",
    "ja/posts/hello-world/index.html",
    "ja/posts/index.html",
    "ja/tags/index.html",
    "posts/hello-world/index.html",
    "posts/index.html",
    "posts/second/index.html",
    "tags/a/index.html",
    "tags/b/index.html",
    "tags/index.html",
];

fn body_after_the_summary(site: TestSite) {
    site.write(
        "content/en/posts/hello-world.md",
        &post(
            "Hello",
            "2024-05-01T09:00:00Z",
            "First paragraph.\n\nSecond, edited.",
        ),
    );
    site.assert_rebuild(&["posts/hello-world/index.html"], &[]);
}

fn title(site: TestSite) {
    site.write(
        "content/posts/2024-06-12-second.md",
        "---\ntitle: Second, renamed\ntags: [a, b]\n---\nThe second post.\n\nMore.\n",
    );
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/hello-world/index.html",
            "posts/index.html",
            "posts/second/index.html",
            "tags/a/index.html",
            "tags/b/index.html",
        ],
        &[],
    );
}

fn summary_marker(site: TestSite) {
    site.write("content/posts/2024-06-12-second.md", "---\ntitle: Second\ntags: [a, b]\n---\nThe second post.\n\nMore.\n\n<!-- more -->\n\nRest.\n");
    site.assert_rebuild(
        &[
            "atom.xml",
            "index.html",
            "posts/index.html",
            "posts/second/index.html",
            "tags/a/index.html",
            "tags/b/index.html",
        ],
        &[],
    );
}

fn updated_date_set(site: TestSite) {
    site.write("content/en/posts/hello-world.md", "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\nupdated: 2024-07-01T09:00:00Z\n---\nFirst paragraph.\n\nSecond paragraph.\n");
    // The post shows it, its feed entry and its sitemap lastmod carry it.
    site.assert_rebuild(
        &["atom.xml", "posts/hello-world/index.html", "sitemap.xml"],
        &[],
    );
    assert!(
        site.read("public/sitemap.xml").contains(
            "<loc>https://example.org/posts/hello-world/</loc>\n<lastmod>2024-07-01T09:00:00Z</lastmod>"
        ),
        "{}",
        site.read("public/sitemap.xml")
    );
}

fn tag_added(site: TestSite) {
    site.write("content/en/posts/hello-world.md", "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\ntags: [a]\n---\nFirst paragraph.\n\nSecond paragraph.\n");
    site.assert_rebuild(
        &[
            "atom.xml",
            "index.html",
            "posts/hello-world/index.html",
            "posts/index.html",
            "tags/a/index.html",
            "tags/index.html",
        ],
        &[],
    );
}

fn date_changed_is_refused_and_changes_nothing(site: TestSite) {
    let tree = site.output_tree();
    let rows = site.rows();
    site.write(
        "content/en/posts/hello-world.md",
        &post(
            "Hello",
            "2024-05-02T09:00:00Z",
            "First paragraph.\n\nSecond paragraph.",
        ),
    );
    assert!(site.try_build().is_err());
    assert_eq!(site.output_tree(), tree);
    assert_eq!(site.rows(), rows);
}

fn slug_changed_by_hand_is_refused_and_changes_nothing(site: TestSite) {
    let tree = site.output_tree();
    let rows = site.rows();
    site.write("content/en/posts/hello-world.md", "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\nslug: hello\n---\nFirst paragraph.\n\nSecond paragraph.\n");
    assert!(site.try_build().is_err());
    assert_eq!(site.output_tree(), tree);
    assert_eq!(site.rows(), rows);
}

fn slug_moved(site: TestSite) {
    let moved = site.cli(&["move", "content/en/posts/hello-world.md", "hello"]);
    assert!(
        moved.status.success(),
        "{}",
        String::from_utf8_lossy(&moved.stderr)
    );
    // The kept session hears of the edit as a watcher would tell it, and
    // finds the index changed by another process.
    site.touch("content/en/posts/hello-world.md");
    site.next_build_walks();
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "fr/posts/hello-world/index.html",
            "index.html",
            "ja/posts/hello-world/index.html",
            "posts/hello-world/index.html",
            "posts/hello/index.html",
            "posts/index.html",
            "posts/second/index.html",
            "sitemap.xml",
        ],
        &[],
    );
    assert!(
        site.read("public/posts/hello-world/index.html")
            .contains("url=/posts/hello/")
    );
}

fn new_post(site: TestSite) {
    site.write(
        "content/en/posts/fresh.md",
        &post("Fresh", "2024-12-01T00:00:00Z", "Fresh."),
    );
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/fresh/index.html",
            "posts/index.html",
            "posts/second/index.html",
            "sitemap.xml",
        ],
        &[],
    );
}

fn deleted_post(site: TestSite) {
    site.remove("content/posts/2024-06-12-second.md");
    site.assert_rebuild(
        &[
            "archive/index.html",
            "atom.xml",
            "index.html",
            "posts/hello-world/index.html",
            "posts/index.html",
            "sitemap.xml",
            "tags/index.html",
        ],
        &[
            "posts/second/index.html",
            "tags/a/index.html",
            "tags/b/index.html",
        ],
    );
}

fn new_translation(site: TestSite) {
    site.write(
        "content/ja/posts/third.md",
        &post("三番目", "2024-07-01T08:00:00Z", "三番目。"),
    );
    site.assert_rebuild(
        &[
            "fr/posts/third/index.html",
            "ja/archive/index.html",
            "ja/atom.xml",
            "ja/index.html",
            "ja/posts/hello-world/index.html",
            "ja/posts/index.html",
            "ja/posts/third/index.html",
            "sitemap.xml",
        ],
        &[],
    );
}

fn draft_flipped(site: TestSite) {
    site.write("content/posts/third.fr.md", "+++\ntitle = \"Troisième\"\ndate = 2024-07-01T10:00:00+02:00\ndraft = true\n+++\nLe troisième.\n");
    site.assert_rebuild(
        &[
            "fr/archive/index.html",
            "fr/atom.xml",
            "fr/index.html",
            "fr/posts/hello-world/index.html",
            "fr/posts/index.html",
            "sitemap.xml",
        ],
        &["fr/posts/third/index.html"],
    );
}

fn section_index(site: TestSite) {
    // French posts, in the layout that names the language in the file's
    // name: the French list alone shows it.
    site.write(
        "content/posts/_index.fr.md",
        "---\ntitle: Articles\n---\nTout ce qui est écrit ici.\n",
    );
    site.assert_rebuild(&["fr/posts/index.html"], &[]);
    assert!(
        site.read("public/fr/posts/index.html")
            .contains("<h1>Articles</h1>")
    );
    site.write(
        "content/posts/_index.fr.md",
        "---\ntitle: Articles\nfeed: true\n---\nTout.\n",
    );
    site.assert_rebuild(&["fr/posts/atom.xml", "fr/posts/index.html"], &[]);
    site.remove("content/posts/_index.fr.md");
    site.assert_rebuild(&["fr/posts/index.html"], &["fr/posts/atom.xml"]);
}

fn each_template(site: TestSite) {
    let posts: &[&str] = &[
        "fr/posts/hello-world/index.html",
        "fr/posts/third/index.html",
        "ja/posts/hello-world/index.html",
        "posts/hello-world/index.html",
        "posts/second/index.html",
    ];
    let lists: &[&str] = &[
        "fr/index.html",
        "index.html",
        "ja/index.html",
        "tags/a/index.html",
        "tags/b/index.html",
    ];
    let expected: &[(&str, &[&str])] = &[
        ("post.html", posts),
        ("list.html", lists),
        ("page.html", &["about/index.html"]),
        (
            "section.html",
            &[
                "fr/posts/index.html",
                "ja/posts/index.html",
                "posts/index.html",
            ],
        ),
        (
            "taxonomy.html",
            &[
                "fr/tags/index.html",
                "ja/tags/index.html",
                "tags/index.html",
            ],
        ),
        (
            "archive.html",
            &[
                "archive/index.html",
                "fr/archive/index.html",
                "ja/archive/index.html",
            ],
        ),
        ("atom.xml", &["atom.xml", "fr/atom.xml", "ja/atom.xml"]),
        ("sitemap.xml", &["sitemap.xml"]),
        ("robots.txt", &["robots.txt"]),
        ("404.html", &["404.html"]),
        ("base.html", EVERY_HTML_PAGE),
    ];
    for (name, written) in expected {
        mark_template(&site, name, &format!("<!-- {name} -->"));
        site.assert_rebuild(written, &[]);
    }
    // The stylesheet, its new twin, and every page, which links it by its
    // twin (`asset_url`); the old twin goes.
    mark_template(&site, "style.css", "/* style.css */");
    site.assert_asset_rebuild("style.css", EVERY_HTML_PAGE);
    // A template edit that changes no output renders its pages and writes nothing.
    edit_template(&site, "post.html");
    let report = site.build();
    assert_eq!((report.rendered, report.written.len()), (5, 0));
    // A template nothing uses: nothing is even rendered.
    site.write("templates/unused.html", "{% extends \"base.html\" %}");
    let report = site.build();
    assert_eq!((report.rendered, report.written.len()), (0, 0));
}

fn site_title(site: TestSite) {
    let text = site
        .read("site.toml")
        .replace("title = \"Test\"", "title = \"Renamed\"");
    site.write("site.toml", &text);
    let mut written: Vec<&str> = EVERY_HTML_PAGE.to_vec();
    written.extend(["atom.xml", "fr/atom.xml", "ja/atom.xml"]);
    written.sort();
    site.assert_rebuild(&written, &[]);
}

fn static_file_added_edited_deleted(site: TestSite) {
    site.write("static/img/logo.svg", "<svg/>");
    site.assert_rebuild(&["img/logo.svg"], &[]);
    site.write("static/css/site.css", "body { margin: 1rem }\n");
    site.assert_rebuild(&["css/site.css"], &[]);
    site.remove("static/img/logo.svg");
    site.assert_rebuild(&[], &["img/logo.svg"]);
    assert_eq!(site.read("public/css/site.css"), "body { margin: 1rem }\n");
}

fn touch_without_change(site: TestSite) {
    site.touch("content/en/posts/hello-world.md");
    site.touch("templates/base.html");
    site.touch("static/css/site.css");
    site.assert_rebuild(&[], &[]);
}

fn a_static_file_that_collides_with_a_page_is_refused(site: TestSite) {
    site.write("static/index.html", "<p>static home</p>");
    let message = site.try_build().unwrap_err().to_string();
    assert!(message.contains("static/index.html"), "{message}");
}

fn post_made_a_bundle_then_its_files_added_edited_deleted(site: TestSite) {
    // The same post, moved into a folder of its own: the same slug, date
    // and id, the same page, so nothing is written.
    let text = site.read("content/posts/2024-06-12-second.md");
    site.remove("content/posts/2024-06-12-second.md");
    site.write("content/posts/2024-06-12-second/index.md", &text);
    site.assert_rebuild(&[], &[]);
    site.write("content/posts/2024-06-12-second/map.svg", "<svg/>");
    site.assert_rebuild(&["posts/second/map.svg"], &[]);
    site.write("content/posts/2024-06-12-second/map.svg", "<svg>v2</svg>");
    site.assert_rebuild(&["posts/second/map.svg"], &[]);
    // A link to it further down than the summary: the post's page alone.
    site.write(
        "content/posts/2024-06-12-second/index.md",
        &format!(
            "{text}
![The map](map.svg)
"
        ),
    );
    site.assert_rebuild(&["posts/second/index.html"], &[]);
    site.remove("content/posts/2024-06-12-second/map.svg");
    site.assert_rebuild(&[], &["posts/second/map.svg"]);
}

fn a_bundle_s_file_that_collides_with_a_page_is_refused(site: TestSite) {
    let text = site.read("content/posts/2024-06-12-second.md");
    site.remove("content/posts/2024-06-12-second.md");
    site.write("content/posts/2024-06-12-second/index.md", &text);
    site.write(
        "content/posts/2024-06-12-second/index.html",
        "<p>by hand</p>",
    );
    let message = site.try_build().unwrap_err().to_string();
    assert!(
        message.contains("content/posts/2024-06-12-second/index.html also produces"),
        "{message}"
    );
}

/// Each edit above as a test, once per path through the engine.
macro_rules! through_both_paths {
    ($($edit:ident),* $(,)?) => {
        mod through_fresh_builds {
            $(#[test]
            fn $edit() {
                super::$edit(super::site(false));
            })*
        }
        mod through_a_kept_session {
            $(#[test]
            fn $edit() {
                super::$edit(super::site(true));
            })*
        }
    };
}

through_both_paths!(
    body_after_the_summary,
    title,
    summary_marker,
    tag_added,
    updated_date_set,
    date_changed_is_refused_and_changes_nothing,
    slug_changed_by_hand_is_refused_and_changes_nothing,
    slug_moved,
    new_post,
    deleted_post,
    new_translation,
    draft_flipped,
    section_index,
    each_template,
    site_title,
    static_file_added_edited_deleted,
    touch_without_change,
    a_static_file_that_collides_with_a_page_is_refused,
    post_made_a_bundle_then_its_files_added_edited_deleted,
    a_bundle_s_file_that_collides_with_a_page_is_refused,
);
