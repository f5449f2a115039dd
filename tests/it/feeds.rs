//! Feeds on a real site: Atom, RSS 2.0 and JSON Feed, each read back by a
//! feed reader's parser (feed-rs) once a strict parser of its syntax took
//! it; summaries or whole posts; the names of other generators' feed
//! files; a feed per tag; and exactly the feeds that show an edit written
//! again.

use std::collections::BTreeMap;

use feed_rs::model::{Entry, Feed, FeedType};

use crate::util;

use util::{SITE_TOML, TestSite, post};

const BASE: &str = "https://example.org";

/// What a title may hold that a feed must keep as text.
const HOSTILE: &str = "Tags <b> & \"quotes\" </script> in a title";

/// Three English posts (the newest with a title full of markup, tagged `a`
/// and `b`; one linking it, tagged `a`; an older one tagged `c`) and a
/// French one, with `settings` at the top of site.toml.
fn site(settings: &str) -> TestSite {
    let site = TestSite::new();
    site.write("site.toml", &format!("{settings}\n{SITE_TOML}"));
    site.write(
        "content/en/posts/hostile.md",
        &format!(
            "---\ntitle: '{HOSTILE}'\ndate: 2024-06-01T10:30:00+02:00\ntags: [a, b]\nauthors: [Ann]\ndescription: A plain summary\n---\nSecond post, **bold**.\n\nIts body goes on past the summary.\n"
        ),
    );
    site.write(
        "content/en/posts/first.md",
        "---\ntitle: First\ndate: 2024-05-01T09:00:00Z\ntags: [a]\n---\nThe first post.\n\nIts second paragraph links [the next one](@/posts/hostile.md).\n",
    );
    site.write(
        "content/en/posts/third.md",
        "---\ntitle: Third\ndate: 2024-04-01T09:00:00Z\ntags: [c]\n---\nAn older post.\n",
    );
    site.write(
        "content/fr/posts/first.md",
        &post("Premier", "2024-05-01T09:00:00Z", "Le premier."),
    );
    site
}

const EVERY_FORMAT: &str = r#"feeds = ["atom.xml", "rss.xml", "feed.json"]"#;

/// The feed at `path` under the output folder, read by feed-rs after a
/// strict parser of its syntax (roxmltree, serde_json) took it: feed-rs
/// forgives what some readers do not.
fn read_feed(site: &TestSite, path: &str) -> Feed {
    let text = site.read(&format!("public/{path}"));
    if text.starts_with('{') {
        serde_json::from_str::<serde_json::Value>(&text)
            .unwrap_or_else(|e| panic!("{path} is not JSON: {e}\n{text}"));
    } else {
        roxmltree::Document::parse(&text)
            .unwrap_or_else(|e| panic!("{path} is not XML: {e}\n{text}"));
    }
    feed_rs::parser::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{path}: {e}\n{text}"))
}

/// Each post of `lang` by its absolute URL: its id and date (Unix ms), as
/// the index holds them.
fn posts_of(site: &TestSite, lang: &str) -> BTreeMap<String, (folio::PostId, i64)> {
    site.query(&format!(
        "SELECT url, id, published_at FROM posts WHERE lang = '{lang}' AND kind = 'post'"
    ))
    .into_iter()
    .map(|row| {
        let parts: Vec<&str> = row.split(" | ").collect();
        let id = parts[1].parse().unwrap();
        (
            format!("{BASE}{}", parts[0]),
            (id, parts[2].parse().unwrap()),
        )
    })
    .collect()
}

fn title(entry: &Entry) -> &str {
    entry.title.as_ref().map_or("", |t| t.content.as_str())
}

/// The HTML an entry shows in place of the post: its summary in Atom and
/// RSS, its `content_html` in JSON Feed.
fn shown(feed: &Feed, entry: &Entry) -> String {
    match feed.feed_type {
        FeedType::JSON => entry.content.as_ref().and_then(|c| c.body.clone()),
        _ => entry.summary.as_ref().map(|s| s.content.clone()),
    }
    .unwrap_or_default()
}

/// The whole post an entry holds besides, if any.
fn whole(feed: &Feed, entry: &Entry) -> Option<String> {
    match feed.feed_type {
        // JSON Feed has one field for the post's HTML.
        FeedType::JSON => None,
        // feed-rs trims Atom's, not RSS's.
        _ => entry
            .content
            .as_ref()
            .and_then(|c| c.body.as_deref())
            .map(|body| body.trim().to_owned()),
    }
}

#[test]
fn each_format_reads_back_with_its_titles_links_ids_dates_and_summaries() {
    let site = site(EVERY_FORMAT);
    site.build();
    let posts = posts_of(&site, "en");
    for (path, kind) in [
        ("atom.xml", FeedType::Atom),
        ("rss.xml", FeedType::RSS2),
        ("feed.json", FeedType::JSON),
    ] {
        let feed = read_feed(&site, path);
        assert_eq!(feed.feed_type, kind, "{path}");
        assert_eq!(feed.title.as_ref().unwrap().content, "Test", "{path}");
        assert!(
            feed.links.iter().any(|l| l.href == format!("{BASE}/")),
            "{path}: {:?}",
            feed.links
        );
        let titles: Vec<&str> = feed.entries.iter().map(title).collect();
        assert_eq!(titles, [HOSTILE, "First", "Third"], "{path}: newest first");
        for entry in &feed.entries {
            let link = &entry.links[0].href;
            let (id, published) = posts[link];
            // The post's ULID as a URN, whatever the format.
            assert_eq!(entry.id, format!("urn:uuid:{}", id.to_uuid()), "{path}");
            assert_eq!(
                entry.published.map(|d| d.timestamp_millis()),
                Some(published),
                "{path}: {link}"
            );
            assert_eq!(whole(&feed, entry), None, "{path}: summaries only");
        }
        let hostile = &feed.entries[0];
        assert_eq!(
            shown(&feed, hostile),
            "<p>Second post, <strong>bold</strong>.</p>",
            "{path}"
        );
        let tags: Vec<&str> = hostile.categories.iter().map(|c| c.term.as_str()).collect();
        assert_eq!(tags, ["a", "b"], "{path}");
        let authors: Vec<&str> = hostile
            .authors
            .iter()
            .filter_map(|a| a.name.as_deref())
            .collect();
        assert_eq!(authors, ["Ann"], "{path}");
        // The French feed has the French post alone.
        let fr = read_feed(&site, &format!("fr/{path}"));
        assert_eq!(
            fr.entries.iter().map(title).collect::<Vec<_>>(),
            ["Premier"]
        );
    }
    // RSS dates and ids as RSS writes them.
    let rss = site.read("public/rss.xml");
    assert!(
        rss.contains("<pubDate>Sat, 01 Jun 2024 08:30:00 +0000</pubDate>"),
        "{rss}"
    );
    let id = posts[&format!("{BASE}/posts/hostile/")].0.to_uuid();
    assert!(
        rss.contains(&format!("<guid isPermaLink=\"false\">urn:uuid:{id}</guid>")),
        "{rss}"
    );
    // Every page of a language advertises its language's feeds.
    let home = site.read("public/fr/index.html");
    for (kind, path, title) in [
        ("application/atom+xml", "atom.xml", "Flux Atom"),
        ("application/rss+xml", "rss.xml", "Flux RSS"),
        ("application/feed+json", "feed.json", "Flux JSON"),
    ] {
        let link = format!(
            "<link rel=\"alternate\" type=\"{kind}\" title=\"{title}\" href=\"/fr/{path}\">"
        );
        assert!(home.contains(&link), "{link}\n{home}");
    }
}

#[test]
fn markup_in_a_title_stays_text_in_every_format() {
    let site = site(EVERY_FORMAT);
    let toml = site.read("site.toml").replace(
        "title = \"Test\"",
        "title = \"Tom & Jerry's <blog> \\\"</script>\\\"\"",
    );
    site.write("site.toml", &toml);
    site.build();
    for path in ["atom.xml", "rss.xml", "feed.json"] {
        let feed = read_feed(&site, path);
        assert_eq!(
            feed.title.as_ref().unwrap().content,
            "Tom & Jerry's <blog> \"</script>\"",
            "{path}"
        );
        assert_eq!(title(&feed.entries[0]), HOSTILE, "{path}");
        let text = site.read(&format!("public/{path}"));
        assert!(!text.contains("</script>"), "{path}: {text}");
    }
}

#[test]
fn whole_posts_go_in_each_entry_with_their_links_resolved() {
    let site = site(&format!("{EVERY_FORMAT}\nfeed_content = \"full\""));
    site.build();
    for path in ["atom.xml", "rss.xml", "feed.json"] {
        let feed = read_feed(&site, path);
        let [hostile, first, _] = &feed.entries[..] else {
            panic!("{path}: {:?}", feed.entries)
        };
        let body = |entry: &Entry| match feed.feed_type {
            FeedType::JSON => shown(&feed, entry),
            _ => whole(&feed, entry).unwrap_or_else(|| panic!("{path}: no content")),
        };
        assert_eq!(
            body(hostile),
            "<p>Second post, <strong>bold</strong>.</p>\n<p>Its body goes on past the summary.</p>",
            "{path}"
        );
        assert!(
            body(first).contains("<a href=\"/posts/hostile/\">the next one</a>"),
            "{path}: {}",
            body(first)
        );
        if feed.feed_type == FeedType::JSON {
            // Its summary is the post's description: plain text.
            assert_eq!(hostile.summary.as_ref().unwrap().content, "A plain summary");
        } else {
            assert_eq!(
                shown(&feed, hostile),
                "<p>Second post, <strong>bold</strong>.</p>",
                "{path}: the summary stays"
            );
        }
    }
}

#[test]
fn a_link_within_a_post_leads_to_its_page_from_lists_and_feeds() {
    let site = site(&format!("{EVERY_FORMAT}\nfeed_content = \"full\""));
    site.write(
        "content/en/posts/third.md",
        "---\ntitle: Third\ndate: 2024-04-01T09:00:00Z\ntags: [c]\n---\nAn older post.[^1] See [below](#more).\n\n## More\n\n[^1]: A note.\n",
    );
    site.build();
    // Its own page holds the footnote and the heading: the links stay.
    let page = site.read("public/posts/third/index.html");
    assert!(page.contains("<a href=\"#1\">1</a>"), "{page}");
    assert!(page.contains("<a href=\"#more\">below</a>"), "{page}");
    // Its summary on a list, and its body in a feed, lead to its page.
    let list = site.main_of("tags/c/index.html");
    assert!(list.contains("<a href=\"/posts/third/#1\">1</a>"), "{list}");
    assert!(
        list.contains("<a href=\"/posts/third/#more\">below</a>"),
        "{list}"
    );
    assert!(!list.contains("href=\"#"), "{list}");
    let feed = read_feed(&site, "atom.xml");
    let third = feed.entries.iter().find(|e| title(e) == "Third").unwrap();
    let body = whole(&feed, third).unwrap();
    assert!(body.contains("href=\"/posts/third/#1\""), "{body}");
    assert!(!body.contains("href=\"#"), "{body}");
}

#[test]
fn feed_files_take_the_names_other_generators_gave_them() {
    let site = site(
        r#"feeds = [{ file = "index.xml", format = "rss" }, { file = "feed.xml", format = "atom" }]"#,
    );
    site.build();
    assert_eq!(read_feed(&site, "index.xml").feed_type, FeedType::RSS2);
    assert_eq!(read_feed(&site, "fr/index.xml").feed_type, FeedType::RSS2);
    let atom = read_feed(&site, "feed.xml");
    assert_eq!(atom.feed_type, FeedType::Atom);
    assert_eq!(atom.id, format!("{BASE}/feed.xml"));
    assert!(!site.path("public/atom.xml").exists());
    let home = site.read("public/index.html");
    for link in [
        "<link rel=\"alternate\" type=\"application/rss+xml\" title=\"RSS feed\" href=\"/index.xml\">",
        "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Atom feed\" href=\"/feed.xml\">",
    ] {
        assert!(home.contains(link), "{link}\n{home}");
    }
    // A name that does not say its format is refused, with the line and
    // the way to say it.
    site.write(
        "site.toml",
        &format!("feeds = [\"atom.xml\",\n  \"index.xml\"]\n{SITE_TOML}"),
    );
    let said = folio::Site::open(site.root()).err().unwrap().to_string();
    assert!(said.contains("site.toml:2: `index.xml`"), "{said}");
    assert!(
        said.contains("write { file = \"index.xml\", format = \"rss\" }"),
        "{said}"
    );
}

#[test]
fn each_tag_has_its_feeds_when_asked() {
    let site = site("feeds = [\"atom.xml\", \"feed.json\"]\nfeeds_for = [\"home\", \"tags\"]");
    site.build();
    let of_tag = |tag: &str| {
        let feed = read_feed(&site, &format!("tags/{tag}/atom.xml"));
        assert_eq!(
            feed.title.as_ref().unwrap().content,
            format!("Posts tagged #{tag} · Test")
        );
        assert!(
            feed.links
                .iter()
                .any(|l| l.href == format!("{BASE}/tags/{tag}/")),
            "{:?}",
            feed.links
        );
        let json = read_feed(&site, &format!("tags/{tag}/feed.json"));
        assert_eq!(json.entries.len(), feed.entries.len());
        feed.entries
            .iter()
            .map(title)
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(of_tag("a"), [HOSTILE, "First"]);
    assert_eq!(of_tag("b"), [HOSTILE]);
    assert_eq!(of_tag("c"), ["Third"]);
    // A tag's page advertises its feeds beside its language's.
    let page = site.read("public/tags/b/index.html");
    for link in [
        "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Atom feed\" href=\"/atom.xml\">",
        "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"Posts tagged #b · Atom feed\" href=\"/tags/b/atom.xml\">",
        "<link rel=\"alternate\" type=\"application/feed+json\" title=\"Posts tagged #b · JSON feed\" href=\"/tags/b/feed.json\">",
    ] {
        assert!(page.contains(link), "{link}\n{page}");
    }
    // Without `tags` in feeds_for, tags have no feed and advertise none.
    let untagged = self::site("");
    untagged.build();
    assert!(!untagged.path("public/tags/a/atom.xml").exists());
    let page = untagged.read("public/tags/a/index.html");
    assert!(!page.contains("/tags/a/atom.xml"), "{page}");
}

#[test]
fn a_site_that_sets_nothing_gets_the_atom_feed_folio_always_wrote() {
    let site = TestSite::with_posts();
    site.build();
    let golden = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/atom.xml"
    ))
    .unwrap();
    assert_eq!(site.read("public/atom.xml"), golden);
}

const EVERY_FEED: &str =
    "feeds = [\"atom.xml\", \"rss.xml\", \"feed.json\"]\nfeeds_for = [\"home\", \"tags\"]";

/// The feeds of the list at `folder` (`` or `tags/a/`), as written.
fn feeds_at<'a>(folder: &'a str, names: &'a [&'a str]) -> impl Iterator<Item = String> + 'a {
    names.iter().map(move |name| format!("{folder}{name}"))
}

/// Exactly the feeds that show an edit are written again, and those of
/// every list when a setting of feeds changes; `kept` rebuilds through a
/// kept session told the paths that changed.
fn edits(kept: bool) {
    let site = site(EVERY_FEED);
    if kept {
        site.keep_session();
    }
    site.build();
    let formats = ["atom.xml", "feed.json", "rss.xml"];
    let sorted = |paths: Vec<String>| {
        let mut paths = paths;
        paths.sort();
        paths
    };
    let assert_rebuild = |written: &[String], deleted: &[String]| {
        let written: Vec<&str> = written.iter().map(String::as_str).collect();
        let deleted: Vec<&str> = deleted.iter().map(String::as_str).collect();
        site.assert_rebuild(&written, &deleted);
    };

    // A title: its page, its neighbours', the lists and the feeds that
    // show it; not tag b's or c's, nor the French ones.
    let first = site.read("content/en/posts/first.md");
    site.write(
        "content/en/posts/first.md",
        &first.replace("title: First", "title: Premier"),
    );
    let mut written: Vec<String> = feeds_at("", &formats)
        .chain(feeds_at("tags/a/", &formats))
        .collect();
    written.extend(
        [
            "archive/index.html",
            "index.html",
            "posts/first/index.html",
            "posts/hostile/index.html",
            "posts/index.html",
            "posts/third/index.html",
            "tags/a/index.html",
        ]
        .map(str::to_owned),
    );
    assert_rebuild(&sorted(written), &[]);

    // Its body past the summary: its page alone, while feeds hold summaries.
    let first = site.read("content/en/posts/first.md");
    site.write(
        "content/en/posts/first.md",
        &format!("{first}\nOne more paragraph.\n"),
    );
    assert_rebuild(&["posts/first/index.html".to_owned()], &[]);

    // Whole posts: every feed with an entry, and no page.
    site.write(
        "site.toml",
        &format!("{EVERY_FEED}\nfeed_content = \"full\"\n{SITE_TOML}"),
    );
    let written: Vec<String> = ["", "fr/", "tags/a/", "tags/b/", "tags/c/"]
        .iter()
        .flat_map(|folder| feeds_at(folder, &formats))
        .collect();
    assert_rebuild(&sorted(written), &[]);

    // Now its body shows in the feeds that show it.
    let first = site.read("content/en/posts/first.md");
    site.write(
        "content/en/posts/first.md",
        &format!("{first}\nAnd another.\n"),
    );
    let mut written: Vec<String> = feeds_at("", &formats)
        .chain(feeds_at("tags/a/", &formats))
        .collect();
    written.push("posts/first/index.html".to_owned());
    assert_rebuild(&sorted(written), &[]);

    // A format dropped: its files go, and every page's links change.
    let before = site.output_tree();
    site.write(
        "site.toml",
        &format!(
            "feeds = [\"atom.xml\", \"feed.json\"]\nfeeds_for = [\"home\", \"tags\"]\nfeed_content = \"full\"\n{SITE_TOML}"
        ),
    );
    let pages: Vec<String> = before
        .keys()
        .filter(|path| path.ends_with(".html"))
        .cloned()
        .collect();
    let gone: Vec<String> = before
        .keys()
        .filter(|path| path.ends_with("rss.xml"))
        .cloned()
        .collect();
    assert_rebuild(&pages, &gone);
}

#[test]
fn an_edit_writes_exactly_the_feeds_that_show_it() {
    edits(false);
}

#[test]
fn a_kept_session_writes_exactly_the_feeds_that_show_an_edit() {
    edits(true);
}
