//! Front matter as real blogs write it: fields of Jekyll, Hugo and Zola
//! are read for what they mean, the others are kept for templates.

use crate::util;

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
        "{% extends \"base.html\" %}{% block content %}{% if post.extra.authors %}<p class=\"by\">{{ post.extra.authors | join(\", \") }}, v{{ post.extra.version }} ({{ post.extra.name }})</p>{% endif %}{{ post.summary | safe }}{{ post.content | safe }}{% endblock %}",
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

#[test]
fn permalink_sets_the_url_and_old_urls_redirect_to_it() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/2017-03-13-perf.md",
        "---\ntitle: Perf\npermalink: /en/2017/03/13/perf-1/\nredirect_from:\n  - /zh_CN/2017/03/13/perf-1/\n  - /old/perf.html\naliases: [/en/perf]\n---\nFast.\n",
    );
    let report = site.build();
    assert!(
        site.read("public/en/2017/03/13/perf-1/index.html")
            .contains("Fast.")
    );
    assert!(!site.path("public/posts/perf/index.html").exists());
    let redirect = site.read("public/zh_CN/2017/03/13/perf-1/index.html");
    let target = "https://example.org/en/2017/03/13/perf-1/";
    assert!(
        redirect.contains(&format!("<link rel=\"canonical\" href=\"{target}\">")),
        "{redirect}"
    );
    assert!(redirect.contains("content=\"0; url=/en/2017/03/13/perf-1/\""));
    assert!(site.path("public/old/perf.html").is_file());
    assert!(site.path("public/en/perf/index.html").is_file());
    for written in [
        "zh_CN/2017/03/13/perf-1/index.html",
        "old/perf.html",
        "en/perf/index.html",
    ] {
        assert!(
            report.written.iter().any(|w| w == written),
            "{written} not reported"
        );
    }
    let sitemap = site.read("public/sitemap.xml");
    assert!(
        sitemap.contains(target) && !sitemap.contains("zh_CN"),
        "redirects are no pages"
    );
    assert!(
        site.read("public/index.html")
            .contains("href=\"/en/2017/03/13/perf-1/\"")
    );
    assert!(site.build().written.is_empty());

    // An old URL dropped: its redirect goes. The page stays.
    site.write(
        "content/en/posts/2017-03-13-perf.md",
        "---\ntitle: Perf\npermalink: /en/2017/03/13/perf-1/\nredirect_from: /old/perf.html\n---\nFast.\n",
    );
    let report = site.build();
    assert!(
        report
            .deleted
            .iter()
            .any(|d| d == "zh_CN/2017/03/13/perf-1/index.html")
    );
    assert!(!site.path("public/en/perf/index.html").exists());
    assert!(site.path("public/old/perf.html").is_file());
}

#[test]
fn an_old_url_never_replaces_a_real_page() {
    let site = TestSite::with_posts();
    site.build();
    let real = site.read("public/posts/hello-world/index.html");
    site.write(
        "content/en/posts/moved.md",
        "---\ntitle: Moved\ndate: 2024-09-01\naliases: [/posts/hello-world/]\n---\nHere now.\n",
    );
    let report = site.build();
    assert_eq!(site.read("public/posts/hello-world/index.html"), real);
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.contains("content/en/posts/moved.md") && w.contains("/posts/hello-world/")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn bad_permalinks_and_templates_are_errors_naming_the_file() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/escape.md",
        "---\ntitle: Escape\ndate: 2024-09-01\npermalink: /../../etc/\n---\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/escape.md:4") && error.contains("permalink"),
        "{error}"
    );
    site.remove("content/en/posts/escape.md");

    site.write(
        "content/en/posts/twin.md",
        "---\ntitle: Twin\ndate: 2024-09-01\npermalink: /posts/hello-world/\n---\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/twin.md")
            && error.contains("content/en/posts/hello-world.md"),
        "{error}"
    );
    site.remove("content/en/posts/twin.md");

    site.write(
        "content/en/posts/fancy.md",
        "---\ntitle: Fancy\ndate: 2024-09-01\ntemplate: psot.html\n---\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/fancy.md") && error.contains("did you mean `post.html`"),
        "{error}"
    );
    assert!(!site.out().exists(), "nothing written");
}

#[test]
fn template_and_layout_choose_the_template() {
    let site = TestSite::with_posts();
    site.write(
        "templates/video.html",
        "{% extends \"base.html\" %}{% block content %}<div class=\"video-post\">{{ post.content | safe }}</div>{% endblock %}",
    );
    site.write(
        "content/en/posts/clip.md",
        "---\ntitle: Clip\ndate: 2024-09-01\ntemplate: video.html\n---\nWatch.\n",
    );
    site.write(
        "content/en/posts/jekyll-clip.md",
        "---\ntitle: Clip 2\ndate: 2024-09-02\nlayout: video\n---\nWatch again.\n",
    );
    // Jekyll's own layouts are not folio templates: the post's is used.
    site.write(
        "content/en/posts/plain.md",
        "---\ntitle: Plain\ndate: 2024-09-03\nlayout: default\n---\nRead.\n",
    );
    site.build();
    assert!(
        site.read("public/posts/clip/index.html")
            .contains("<div class=\"video-post\">")
    );
    assert!(
        site.read("public/posts/jekyll-clip/index.html")
            .contains("<div class=\"video-post\">")
    );
    let plain = site.read("public/posts/plain/index.html");
    assert!(!plain.contains("video-post") && plain.contains("Read."));
    // The template is an input of that page only.
    site.write(
        "templates/video.html",
        "{% extends \"base.html\" %}{% block content %}<div class=\"video\">{{ post.content | safe }}</div>{% endblock %}",
    );
    let mut written = site.build().written;
    written.sort();
    assert_eq!(
        written,
        ["posts/clip/index.html", "posts/jekyll-clip/index.html"]
    );
}

#[test]
fn the_sections_that_hold_posts_are_the_sites_to_choose() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/blog/2024-08-01-news.md",
        "---\ntitle: News\n---\nNew.\n",
    );
    site.write(
        "content/en/guide/setup.md",
        "---\ntitle: Setup\n---\nSteps.\n",
    );
    site.build();
    // By default only `posts` holds posts: `blog` is a section of pages.
    assert!(site.path("public/blog/news/index.html").is_file());
    assert!(!site.read("public/index.html").contains("News"));

    site.write(
        "site.toml",
        &format!("post_sections = [\"posts\", \"blog\"]\n{}", util::SITE_TOML),
    );
    let report = site.build();
    assert!(
        report.parsed > 0,
        "the kinds changed: every source is read again"
    );
    // Now a post: listed, dated from its file name, at its section's URL.
    let home = site.read("public/index.html");
    assert!(home.contains("href=\"/blog/news/\""), "{home}");
    assert!(site.path("public/posts/hello-world/index.html").is_file());
    assert!(site.path("public/guide/setup/index.html").is_file());
    assert!(site.build().written.is_empty());

    // And back: a page again, nothing refused.
    site.write("site.toml", util::SITE_TOML);
    site.build();
    assert!(!site.read("public/index.html").contains("News"));
    assert!(site.path("public/blog/news/index.html").is_file());

    site.write(
        "site.toml",
        &format!("post_sections = [\"blog/x\"]\n{}", util::SITE_TOML),
    );
    let error = folio::Site::open(site.root()).unwrap_err().to_string();
    assert!(
        error.contains("site.toml") && error.contains("post_sections"),
        "{error}"
    );
}

#[test]
fn a_site_under_a_sub_path_carries_it_in_every_link() {
    let site = TestSite::with_posts();
    site.write(
        "site.toml",
        &util::SITE_TOML.replace("https://example.org", "https://user.github.io/blog/"),
    );
    site.write(
        "content/en/posts/moved.md",
        "---\ntitle: Moved\ndate: 2024-09-01\npermalink: /2024/moved/\naliases: [/old/moved/]\n---\nHere.\n",
    );
    site.build();
    // The output folder holds what is under the sub-path.
    assert!(site.path("public/posts/hello-world/index.html").is_file());
    assert!(site.path("public/2024/moved/index.html").is_file());
    assert!(!site.path("public/blog").exists());

    let mut links = 0;
    for entry in walkdir::WalkDir::new(site.out()) {
        let entry = entry.unwrap();
        if !entry.file_type().is_file() {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for attribute in ["href=\"", "src=\"", "<loc>", "url="] {
            for (at, _) in text.match_indices(attribute) {
                let value = &text[at + attribute.len()..];
                if value.starts_with('/') {
                    links += 1;
                    assert!(
                        value.starts_with("/blog/"),
                        "{}: {}",
                        entry.path().display(),
                        &value[..value.len().min(60)]
                    );
                }
                if value.starts_with("https://") {
                    links += 1;
                    assert!(
                        value.starts_with("https://user.github.io/blog/"),
                        "{}: {}",
                        entry.path().display(),
                        &value[..value.len().min(60)]
                    );
                }
            }
        }
    }
    assert!(links > 50, "the check saw {links} links");
    let post = site.read("public/posts/hello-world/index.html");
    let sheet = format!("href=\"/blog/{}\"", site.twin_of("style.css"));
    assert!(post.contains(&sheet), "{post}");
    assert!(post.contains(
        "<link rel=\"canonical\" href=\"https://user.github.io/blog/posts/hello-world/\">"
    ));
    // The browser goes on the host it is on (production or a preview); the
    // canonical link names production.
    let redirect = site.read("public/old/moved/index.html");
    assert!(redirect.contains("url=/blog/2024/moved/"));
    assert!(
        redirect.contains("rel=\"canonical\" href=\"https://user.github.io/blog/2024/moved/\"")
    );
    assert!(site.read("public/atom.xml").contains("<link rel=\"alternate\" type=\"text/html\" href=\"https://user.github.io/blog/posts/hello-world/\"/>"));
    assert!(
        site.read("public/robots.txt")
            .contains("Sitemap: https://user.github.io/blog/sitemap.xml")
    );
    let explanation = folio::Site::open(site.root())
        .unwrap()
        .explain("/blog/fr/", &util::options(|_| {}))
        .unwrap();
    assert_eq!(explanation.output, "fr/index.html");
    assert!(site.build().written.is_empty());
}

#[test]
fn a_document_at_a_generated_lists_place_takes_it() {
    let site = TestSite::with_posts();
    site.write(
        "content/fr/accueil.md",
        "---\ntitle: Accueil\npermalink: /fr/\n---\nBienvenue sur le site.\n",
    );
    site.build();
    let home = site.read("public/fr/index.html");
    assert!(home.contains("Bienvenue sur le site."), "{home}");
    // The other languages keep the home folio makes.
    assert!(
        site.read("public/index.html")
            .contains("posts/hello-world/")
    );
    site.remove("content/fr/accueil.md");
    site.build();
    assert!(site.read("public/fr/index.html").contains("Bonjour"));
}
