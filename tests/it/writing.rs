//! What an author writes beyond the text, on a real site: a post's table
//! of contents, word count and reading time; links between documents
//! written from `content/` (`@/posts/x.md#part`), resolved, checked and
//! rendered again exactly when their target moves.

use crate::util;

use util::{TestSite, post};

/// `n` words of filler.
fn words(n: usize) -> String {
    "word ".repeat(n)
}

/// A long post with nested headings, a short one, and one in Japanese.
fn site_with_outlines() -> TestSite {
    let site = TestSite::new();
    site.write(
        "content/en/posts/long.md",
        &post(
            "Long",
            "2024-05-01T09:00:00Z",
            &format!(
                "Intro {}\n\n## First part\n\n{}\n\n### A detail\n\nMore.\n\n## Second `part`\n\n{}\n",
                words(300),
                words(300),
                words(300)
            ),
        ),
    );
    site.write(
        "content/en/posts/short.md",
        &post("Short", "2024-04-01T09:00:00Z", "## Only\n\nA few words."),
    );
    site.write(
        "content/ja/posts/long.md",
        &post("長い", "2024-05-01T09:00:00Z", &"語".repeat(1000)),
    );
    site
}

#[test]
fn the_default_theme_shows_the_contents_of_long_posts_and_every_reading_time() {
    let site = site_with_outlines();
    site.build();
    let long = site.read("public/posts/long/index.html");
    assert!(long.contains("reading-time\">5 min read</span>"), "{long}");
    let toc = &long[long.find("<nav class=\"toc\"").expect("contents")..];
    let toc = &toc[..toc.find("</nav>").unwrap()];
    assert!(
        toc.contains(
            "<ul><li><a href=\"#first-part\">First part</a><ul><li><a href=\"#a-detail\">A detail</a></li></ul></li><li><a href=\"#second-part\">Second part</a></li></ul>"
        ),
        "{toc}"
    );
    // Each entry leads to a heading of the page.
    for id in ["first-part", "a-detail", "second-part"] {
        assert!(long.contains(&format!("id=\"{id}\"")), "{id}");
    }
    let short = site.read("public/posts/short/index.html");
    assert!(
        short.contains("reading-time\">1 min read</span>"),
        "{short}"
    );
    assert!(!short.contains("class=\"toc\""), "{short}");
    let japanese = site.read("public/ja/posts/long/index.html");
    assert!(
        japanese.contains("reading-time\">2分で読めます</span>"),
        "{japanese}"
    );
}

#[test]
fn templates_get_the_contents_words_and_minutes_of_posts_pages_and_list_items() {
    let site = site_with_outlines();
    site.write(
        "templates/post.html",
        "{{ post.word_count }} {{ post.reading_time }} {{ post.toc|tojson }}",
    );
    site.write(
        "templates/page.html",
        "{{ page.word_count }} {{ page.reading_time }} {{ page.toc|length }}",
    );
    site.write(
        "templates/list.html",
        "{% for item in posts %}{{ item.title }}={{ item.word_count }}/{{ item.reading_time }};{% endfor %}",
    );
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\n# Who\n\n## We\n\nAre here.\n",
    );
    site.build();
    let long = site.read("public/posts/long/index.html");
    let (counts, toc) = long.split_at(long.find('[').unwrap());
    assert_eq!(counts, "908 5 ");
    let toc: serde_json::Value = serde_json::from_str(toc).unwrap();
    assert_eq!(
        toc,
        serde_json::json!([
            {"level": 2, "id": "first-part", "title": "First part", "url": "#first-part", "children": [
                {"level": 3, "id": "a-detail", "title": "A detail", "url": "#a-detail", "children": []}
            ]},
            {"level": 2, "id": "second-part", "title": "Second part", "url": "#second-part", "children": []}
        ])
    );
    assert_eq!(site.read("public/about/index.html"), "4 1 1");
    assert_eq!(site.read("public/index.html"), "Long=908/5;Short=4/1;");
    assert_eq!(site.read("public/ja/index.html"), "長い=1000/2;");
}

/// Three posts in English and French linking each other from `content/`.
fn site_with_links() -> TestSite {
    let site = TestSite::new();
    site.write(
        "content/en/posts/a.md",
        &post(
            "A",
            "2024-05-01T09:00:00Z",
            "See [B's second part](@/posts/b.md#second) and [the French B](@/fr/posts/b.md).\n\nMore, after the summary.\n",
        ),
    );
    site.write(
        "content/fr/posts/a.md",
        &post("A fr", "2024-05-01T09:00:00Z", "Voir [B](@/posts/b.md).\n"),
    );
    site.write(
        "content/en/posts/b.md",
        &post(
            "B",
            "2024-04-01T09:00:00Z",
            "Body of B.\n\n## First\n\nOne.\n\n## Second\n\nTwo.\n",
        ),
    );
    site.write(
        "content/fr/posts/b.md",
        &post("B fr", "2024-04-01T09:00:00Z", "Corps de B.\n"),
    );
    site.write(
        "content/en/posts/c.md",
        &post("C", "2024-03-01T09:00:00Z", "Unlinked.\n"),
    );
    site
}

#[test]
fn a_link_from_content_leads_to_its_target_in_the_linker_s_language() {
    let site = site_with_links();
    site.build();
    let a = site.read("public/posts/a/index.html");
    assert!(
        a.contains("<a href=\"/posts/b/#second\">B&#39;s second part</a>")
            || a.contains("<a href=\"/posts/b/#second\">B's second part</a>"),
        "{a}"
    );
    assert!(
        a.contains("<a href=\"/fr/posts/b/\">the French B</a>"),
        "{a}"
    );
    assert!(!a.contains("@/"), "{a}");
    let french = site.read("public/fr/posts/a/index.html");
    assert!(
        french.contains("<a href=\"/fr/posts/b/\">B</a>"),
        "{french}"
    );
    // The summary in the home's list and in the feed is resolved too.
    let home = site.read("public/index.html");
    assert!(home.contains("href=\"/posts/b/#second\""), "{home}");
    assert!(!home.contains("@/"), "{home}");
    let feed = site.read("public/atom.xml");
    assert!(!feed.contains("@/"), "{feed}");
}

#[test]
fn a_link_written_as_html_or_in_a_summary_field_is_checked_at_its_line() {
    let site = site_with_links();
    site.build();
    let before = site.output_tree();
    site.write(
        "content/en/posts/c.md",
        "---\ntitle: C\ndate: 2024-03-01T09:00:00Z\nsummary: 'Read [b](@/posts/bb.md).'\n---\n\nSee <a href=\"@/posts/b.md#secnd\">b</a>.\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/c.md:4: the link `@/posts/bb.md` leads nowhere"),
        "{error}"
    );
    assert!(
        error.contains("content/en/posts/c.md:7: the link `@/posts/b.md#secnd` leads nowhere"),
        "{error}"
    );
    assert_eq!(site.output_tree(), before, "the build wrote nothing");
}

#[test]
fn a_link_in_an_html_comment_or_script_is_none_and_one_in_a_block_is_found_across_lines() {
    let site = site_with_links();
    let body = "Intro <!-- <a href=\"@/gone.md\"> -->.\n\n<!--\n<a href=\"@/gone.md\">old</a>\n-->\n\n\
                <script>x = '<a href=\"@/gone.md\">';</script>\n\n\
                <div>\n<a class=\"x\"\n   href=\"@/posts/b.md\">b</a>\n</div>\n";
    site.write(
        "content/en/posts/c.md",
        &post("C", "2024-03-01T09:00:00Z", body),
    );
    site.build();
    let c = site.read("public/posts/c/index.html");
    assert!(c.contains("href=\"/posts/b/\">b</a>"), "{c}");
    site.write(
        "content/en/posts/c.md",
        &post(
            "C",
            "2024-03-01T09:00:00Z",
            &body.replace("posts/b.md", "posts/bb.md"),
        ),
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/c.md:15: the link `@/posts/bb.md` leads nowhere"),
        "{error}"
    );
    assert!(!error.contains("gone.md"), "{error}");
}

#[test]
fn a_link_that_leads_nowhere_fails_the_build_naming_file_line_and_the_nearest() {
    let site = site_with_links();
    site.build();
    let before = site.output_tree();
    site.write(
        "content/en/posts/c.md",
        &post(
            "C",
            "2024-03-01T09:00:00Z",
            "Line one.\n\nSee [b](@/posts/bb.md) and [part](@/posts/b.md#secnd).\n",
        ),
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/c.md:7: the link `@/posts/bb.md` leads nowhere: no document is at content/posts/bb.md"),
        "{error}"
    );
    assert!(error.contains("did you mean `@/posts/b.md`?"), "{error}");
    assert!(
        error.contains("content/en/posts/c.md:7: the link `@/posts/b.md#secnd` leads nowhere: content/en/posts/b.md has no heading with the id `secnd`"),
        "{error}"
    );
    assert!(error.contains("did you mean `#second`?"), "{error}");
    assert_eq!(site.output_tree(), before, "the build wrote nothing");

    site.write(
        "content/en/posts/c.md",
        &post("C", "2024-03-01T09:00:00Z", "See [d](@/posts/d.md).\n"),
    );
    site.write(
        "content/en/posts/d.md",
        "---\ntitle: D\ndate: 2024-02-01T09:00:00Z\ndraft: true\n---\nNot yet.\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/d.md is not published by this build"),
        "{error}"
    );
}

/// An edit to a target that keeps its URL and headings renders its
/// linkers again through neither a fresh build nor a kept session; a
/// moved target renders them again in both.
fn linkers_render_again_exactly_when_their_target_moves(kept: bool) {
    let site = TestSite::new();
    if kept {
        site.keep_session();
    }
    site.write(
        "content/en/posts/a.md",
        &post(
            "A",
            "2024-05-01T09:00:00Z",
            "Intro.\n\nSee [about](@/about.md#team).\n",
        ),
    );
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\n## Team\n\nUs.\n",
    );
    site.write(
        "content/en/posts/z.md",
        &post("Z", "2024-01-01T09:00:00Z", "Unrelated.\n"),
    );
    site.build();
    site.write(
        "content/en/about.md",
        "---\ntitle: About\n---\n## Team\n\nUs, and more.\n",
    );
    site.assert_rebuild(&["about/index.html"], &[]);
    site.write(
        "content/en/about.md",
        "---\ntitle: About\nslug: about-us\n---\n## Team\n\nUs, and more.\n",
    );
    site.assert_rebuild(
        &["about-us/index.html", "posts/a/index.html", "sitemap.xml"],
        &["about/index.html"],
    );
    assert!(
        site.read("public/posts/a/index.html")
            .contains("href=\"/about-us/#team\"")
    );
    // A heading a link names, taken away, fails the next build.
    site.write(
        "content/en/about.md",
        "---\ntitle: About\nslug: about-us\n---\n## People\n\nUs.\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains("content/en/posts/a.md:7: the link `@/about.md#team` leads nowhere"),
        "{error}"
    );
    assert!(error.contains("did you mean `#people`?"), "{error}");
}

#[test]
fn linkers_render_again_exactly_when_their_target_moves_through_fresh_builds() {
    linkers_render_again_exactly_when_their_target_moves(false);
}

#[test]
fn linkers_render_again_exactly_when_their_target_moves_through_a_kept_session() {
    linkers_render_again_exactly_when_their_target_moves(true);
}

#[test]
fn a_site_may_only_be_warned_of_a_missing_anchor_and_links_it_all_the_same() {
    let site = site_with_links();
    site.write(
        "site.toml",
        &format!("{}\n[links]\nanchors = \"warn\"\n", util::SITE_TOML),
    );
    site.write(
        "content/en/posts/c.md",
        &post(
            "C",
            "2024-03-01T09:00:00Z",
            "See [part](@/posts/b.md#secnd).\n",
        ),
    );
    let report = site.build();
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w
                .contains("content/en/posts/c.md:5: the link `@/posts/b.md#secnd` leads nowhere")),
        "{:?}",
        report.warnings
    );
    let c = site.read("public/posts/c/index.html");
    assert!(c.contains("<a href=\"/posts/b/#secnd\">part</a>"), "{c}");
    // A document that is not there still fails the build.
    site.write(
        "content/en/posts/c.md",
        &post(
            "C",
            "2024-03-01T09:00:00Z",
            "See [part](@/posts/nope.md).\n",
        ),
    );
    assert!(site.try_build().is_err());
}

/// A post whose body, heading and summary hold straight quotes, dashes and
/// an ellipsis, and a code span and block that must keep them.
fn site_with_punctuation(smart: bool) -> TestSite {
    let site = TestSite::new();
    if smart {
        site.write(
            "site.toml",
            &format!(
                "{}\n[markdown]\nsmart_punctuation = true\n",
                util::SITE_TOML
            ),
        );
    }
    site.write(
        "content/en/posts/quotes.md",
        &post(
            "Quotes",
            "2024-05-01T09:00:00Z",
            "\"Don't\" -- she said --- wait...\n\n## It's \"here\"\n\n`\"code\" -- kept`\n\n```\n\"block\" -- kept...\n```\n",
        ),
    );
    site.write(
        "content/en/posts/plain.md",
        &post(
            "Plain",
            "2024-04-01T09:00:00Z",
            "No quotes, a [link](@/posts/quotes.md#it-s-here).\n",
        ),
    );
    site
}

#[test]
fn smart_punctuation_makes_quotes_and_dashes_typographic_outside_code() {
    let site = site_with_punctuation(true);
    site.build();
    let html = site.read("public/posts/quotes/index.html");
    assert!(html.contains("<p>“Don’t” – she said — wait…</p>"), "{html}");
    // The heading's id comes from its typographic text, and the outline
    // the other post's link is checked against agrees with the body.
    assert!(
        html.contains("<h2 id=\"it-s-here\">It’s “here” <a"),
        "{html}"
    );
    let plain = site.read("public/posts/plain/index.html");
    assert!(
        plain.contains("<a href=\"/posts/quotes/#it-s-here\">"),
        "{plain}"
    );
    assert!(html.contains("<code>\"code\" -- kept</code>"), "{html}");
    assert!(html.contains("\"block\" -- kept...\n"), "{html}");
    // The summary on the home page reads the same way.
    let home = site.read("public/index.html");
    assert!(home.contains("“Don’t” – she said — wait…"), "{home}");
}

#[test]
fn punctuation_is_as_written_by_default_and_the_switch_rewrites_what_it_changes() {
    for kept in [false, true] {
        let site = site_with_punctuation(false);
        if kept {
            site.keep_session();
        }
        site.build();
        let html = site.read("public/posts/quotes/index.html");
        assert!(
            html.contains("<p>\"Don't\" -- she said --- wait...</p>"),
            "{html}"
        );
        let smart = format!(
            "{}\n[markdown]\nsmart_punctuation = true\n",
            util::SITE_TOML
        );
        site.write("site.toml", &smart);
        // The plain post reads the same either way: its page is not written.
        site.assert_rebuild(
            &[
                "atom.xml",
                "index.html",
                "posts/index.html",
                "posts/quotes/index.html",
            ],
            &[],
        );
        site.write("site.toml", util::SITE_TOML);
        site.assert_rebuild(
            &[
                "atom.xml",
                "index.html",
                "posts/index.html",
                "posts/quotes/index.html",
            ],
            &[],
        );
    }
}

#[test]
fn an_unknown_markdown_key_is_refused_naming_it() {
    let site = site_with_punctuation(false);
    let toml = format!("{}\n[markdown]\nsmart_quotes = true\n", util::SITE_TOML);
    site.write("site.toml", &toml);
    let output = site.cli(&["build"]);
    assert!(!output.status.success());
    let stderr = util::stderr(&output);
    assert!(stderr.contains("smart_quotes"), "{stderr}");
}
