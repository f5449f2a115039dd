//! Multilingual publishing: translations, hreflang, the switcher, feeds, the
//! sitemap, tags, pagination, i18n, and exactly which files each edit rewrites.

use crate::util;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use folio::Site;
use util::{TestSite, options, post};

const BASE: &str = "https://example.org";

/// `<link rel="alternate" hreflang=… href=…>` of an HTML page: code → URL.
fn hreflangs(html: &str) -> BTreeMap<String, String> {
    let mut found = BTreeMap::new();
    let mut rest = html;
    while let Some(at) = rest.find("<link rel=\"alternate\" hreflang=\"") {
        rest = &rest[at + 32..];
        let code = &rest[..rest.find('"').unwrap()];
        let href_at = rest.find("href=\"").unwrap() + 6;
        let href = &rest[href_at..href_at + rest[href_at..].find('"').unwrap()];
        found.insert(code.to_owned(), href.to_owned());
    }
    found
}

/// The language switcher's links: code → href (the current language has none).
fn switcher(html: &str) -> BTreeMap<String, String> {
    let Some(start) = html.find("<nav class=\"langs\"") else {
        return BTreeMap::new();
    };
    let nav = &html[start..start + html[start..].find("</nav>").unwrap()];
    nav.split("<a href=\"")
        .skip(1)
        .map(|a| {
            let href = &a[..a.find('"').unwrap()];
            let code_at = a.find("hreflang=\"").unwrap() + 10;
            (
                a[code_at..code_at + a[code_at..].find('"').unwrap()].to_owned(),
                href.to_owned(),
            )
        })
        .collect()
}

/// The output file an absolute URL of the site is served from.
fn file_of(url: &str) -> String {
    let path = url
        .strip_prefix(BASE)
        .unwrap_or(url)
        .trim_start_matches('/');
    let decoded: Vec<String> = path
        .split('/')
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .unwrap()
                .into_owned()
        })
        .collect();
    let joined = decoded.join("/");
    if joined.is_empty() || joined.ends_with('/') {
        format!("{joined}index.html")
    } else {
        joined
    }
}

/// The HTML pages a reader reaches (not the 404 page a host answers with).
fn html_pages(tree: &BTreeMap<String, Vec<u8>>) -> BTreeMap<&str, String> {
    tree.iter()
        .filter(|(p, _)| p.ends_with(".html") && *p != "404.html")
        .map(|(p, b)| (p.as_str(), String::from_utf8(b.clone()).unwrap()))
        .collect()
}

/// hreflang sets are symmetric, include the page itself, and x-default
/// points at the default language's version.
fn check_hreflang(tree: &BTreeMap<String, Vec<u8>>, default_lang: &str) {
    let pages = html_pages(tree);
    for (path, html) in &pages {
        let set = hreflangs(html);
        if set.is_empty() {
            continue;
        }
        let own = set
            .iter()
            .find(|(code, url)| *code != "x-default" && file_of(url) == *path);
        assert!(own.is_some(), "{path} does not list itself: {set:?}");
        if let Some(default) = set.get(default_lang) {
            assert_eq!(set.get("x-default"), Some(default), "{path}");
        }
        for (code, url) in set.iter().filter(|(c, _)| *c != "x-default") {
            let other = file_of(url);
            let html = pages
                .get(other.as_str())
                .unwrap_or_else(|| panic!("{path} links {url}, which is not built"));
            assert_eq!(&hreflangs(html), &set, "{path} ↔ {other} ({code})");
        }
    }
}

/// Every HTML page is in the sitemap, once, with the same alternates as its
/// own hreflang links, and the sitemap lists no page that is not built.
fn check_sitemap(tree: &BTreeMap<String, Vec<u8>>) {
    let xml = String::from_utf8(tree["sitemap.xml"].clone()).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("the sitemap is XML");
    let root = doc.root_element();
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.sitemaps.org/schemas/sitemap/0.9")
    );
    let mut listed = BTreeSet::new();
    for url in root.children().filter(|n| n.has_tag_name("url")) {
        let loc = url
            .children()
            .find(|n| n.has_tag_name("loc"))
            .unwrap()
            .text()
            .unwrap();
        let file = file_of(loc);
        assert!(listed.insert(file.clone()), "{loc} is listed twice");
        let alternates: BTreeMap<String, String> = url
            .children()
            .filter(|n| n.has_tag_name(("http://www.w3.org/1999/xhtml", "link")))
            .map(|n| {
                (
                    n.attribute("hreflang").unwrap().to_owned(),
                    n.attribute("href").unwrap().to_owned(),
                )
            })
            .collect();
        let html = String::from_utf8(
            tree.get(&file)
                .unwrap_or_else(|| panic!("{loc} is not built"))
                .clone(),
        )
        .unwrap();
        assert_eq!(alternates, hreflangs(&html), "{loc}");
    }
    let built: BTreeSet<String> = html_pages(tree).keys().map(|p| p.to_string()).collect();
    assert_eq!(listed, built);
    let robots = String::from_utf8(tree["robots.txt"].clone()).unwrap();
    assert!(
        robots.contains(&format!("Sitemap: {BASE}/sitemap.xml")),
        "{robots}"
    );
}

/// Each feed is Atom 1.0 with the required elements; entries are the newest
/// posts of its language, their ids the posts' ULIDs as urn:uuid.
fn check_feed(site: &TestSite, feed: &str, lang: &str, limit: usize) -> Vec<String> {
    let xml = site.read(&format!("public/{feed}"));
    let doc = roxmltree::Document::parse(&xml).expect("the feed is XML");
    let atom = "http://www.w3.org/2005/Atom";
    let root = doc.root_element();
    assert!(root.has_tag_name((atom, "feed")), "{feed}");
    let child = |node: roxmltree::Node<'_, '_>, name: &str| {
        node.children()
            .find(|n| n.has_tag_name((atom, name)))
            .map(|n| n.text().unwrap_or("").to_owned())
    };
    assert!(
        child(root, "id").is_some_and(|id| id.starts_with(BASE)),
        "{feed}: feed id"
    );
    assert!(child(root, "title").is_some(), "{feed}: title");
    let feed_updated: jiff::Timestamp = child(root, "updated").unwrap().parse().unwrap();
    assert!(
        root.children().any(|n| n.has_tag_name((atom, "author"))),
        "{feed}: author"
    );

    let ids_by_url: BTreeMap<String, String> = site
        .query(&format!(
            "SELECT url, id FROM posts WHERE lang = '{lang}' AND kind = 'post'"
        ))
        .into_iter()
        .map(|row| {
            let (url, id) = row.split_once(" | ").unwrap();
            (format!("{BASE}{url}"), id.to_owned())
        })
        .collect();
    let mut titles = Vec::new();
    let mut last_published = None;
    for entry in root.children().filter(|n| n.has_tag_name((atom, "entry"))) {
        let link = entry
            .children()
            .find(|n| n.has_tag_name((atom, "link")))
            .unwrap()
            .attribute("href")
            .unwrap();
        let ulid: folio::PostId = ids_by_url[link].parse().unwrap();
        assert_eq!(
            child(entry, "id").unwrap(),
            format!("urn:uuid:{}", ulid.to_uuid())
        );
        let published: jiff::Timestamp = child(entry, "published").unwrap().parse().unwrap();
        let updated: jiff::Timestamp = child(entry, "updated").unwrap().parse().unwrap();
        assert_eq!(
            published.as_millisecond(),
            ulid.published_ms(),
            "the date is the id's"
        );
        assert!(updated >= published && updated <= feed_updated);
        if let Some(last) = last_published {
            assert!(published <= last, "newest first");
        }
        last_published = Some(published);
        titles.push(child(entry, "title").unwrap());
    }
    assert!(titles.len() <= limit);
    titles
}

#[test]
fn the_example_site_has_valid_feeds_sitemap_and_symmetric_hreflang() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let site = TestSite::new();
    for part in ["content", "templates", "i18n"] {
        for entry in walkdir::WalkDir::new(repo.join(part)) {
            let entry = entry.unwrap();
            if entry.file_type().is_file() {
                let rel = entry
                    .path()
                    .strip_prefix(repo)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                site.write_bytes(&rel, &std::fs::read(entry.path()).unwrap());
            }
        }
    }
    site.write(
        "site.toml",
        &std::fs::read_to_string(repo.join("site.toml"))
            .unwrap()
            .replace("https://folio.example.org", BASE),
    );
    let report = site.build();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let tree = site.output_tree();
    check_hreflang(&tree, "en");
    check_sitemap(&tree);
    assert_eq!(
        check_feed(&site, "atom.xml", "en", 20).len(),
        3,
        "the draft is left out"
    );
    assert_eq!(check_feed(&site, "fr/atom.xml", "fr", 20).len(), 3);
    assert_eq!(check_feed(&site, "ja/atom.xml", "ja", 20).len(), 2);

    // The switcher links each page to its own translation, or to the home.
    let hello = site.read("public/ja/posts/hello-world/index.html");
    assert_eq!(
        switcher(&hello),
        BTreeMap::from([
            ("en".into(), "/posts/hello-world/".into()),
            ("fr".into(), "/fr/posts/hello-world/".into())
        ])
    );
    let kyoto = site.read("public/ja/posts/kyoto-autumn/index.html");
    assert_eq!(
        switcher(&kyoto),
        BTreeMap::from([("en".into(), "/".into()), ("fr".into(), "/fr/".into())])
    );
    assert!(
        hreflangs(&kyoto).is_empty(),
        "an untranslated page has no alternates"
    );
    // Dates in each language's own words.
    assert!(
        site.read("public/fr/posts/carnet-de-voyage/index.html")
            .contains(">15 août 2024</time>")
    );
    assert!(
        site.read("public/posts/markdown-tour/index.html")
            .contains(">July 3, 2024</time>")
    );
    assert!(site.read("public/ja/index.html").contains("続きを読む"));
}

/// English (default), Japanese with Japanese slugs, Arabic (right to left).
fn three_scripts(paginate: usize) -> TestSite {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!(
            "title = \"T\"\nbase_url = \"{BASE}\"\ndefault_language = \"en\"\npaginate = {paginate}\n\
             [languages.en]\nname = \"English\"\n[languages.ja]\nname = \"日本語\"\n[languages.ar]\nname = \"العربية\"\n\
             [languages.ar.i18n]\nread_more = \"اقرأ المزيد\"\n"
        ),
    );
    site.write("content/en/posts/autumn.md", "---\ntitle: Autumn\ndate: 2024-10-01\ntranslation_key: autumn\ntags: [seasons]\n---\nLeaves.\n");
    site.write(
        "content/ja/posts/秋.md",
        "---\ntitle: 秋\ndate: 2024-10-01\ntranslation_key: autumn\ntags: [季節]\n---\n紅葉。\n",
    );
    site.write(
        "content/ar/posts/خريف.md",
        "---\ntitle: الخريف\ndate: 2024-10-01\ntranslation_key: autumn\n---\nأوراق.\n",
    );
    site
}

#[test]
fn non_latin_slugs_are_unicode_files_and_percent_encoded_links() {
    let site = three_scripts(10);
    let report = site.build();
    assert!(site.path("public/ja/posts/秋/index.html").is_file());
    assert!(site.path("public/ar/posts/خريف/index.html").is_file());
    assert!(site.path("public/ja/tags/季節/index.html").is_file());
    let en = site.read("public/posts/autumn/index.html");
    assert!(en.contains("href=\"/ja/posts/%E7%A7%8B/\""), "{en}");
    assert!(en.contains(&format!(
        "hreflang=\"ja\" href=\"{BASE}/ja/posts/%E7%A7%8B/\""
    )));
    let ja = site.read("public/ja/index.html");
    assert!(ja.contains("href=\"/ja/tags/%E5%AD%A3%E7%AF%80/\""), "{ja}");
    // A post page links its tags too: in its language, or at the root.
    let ja_post = site.read("public/ja/posts/秋/index.html");
    assert!(
        ja_post.contains("href=\"/ja/tags/%E5%AD%A3%E7%AF%80/\""),
        "{ja_post}"
    );
    assert!(en.contains("href=\"/tags/seasons/\""), "{en}");
    assert_eq!(
        site.query("SELECT url FROM posts WHERE lang = 'ja'"),
        ["/ja/posts/%E7%A7%8B/"]
    );
    let tree = site.output_tree();
    check_hreflang(&tree, "en");
    check_sitemap(&tree);
    check_feed(&site, "ja/atom.xml", "ja", 20);

    // Right to left, with the site's own words over folio's Arabic table,
    // and CLDR's dates.
    let ar = site.read("public/ar/posts/خريف/index.html");
    assert!(ar.contains("<html lang=\"ar\" dir=\"rtl\">"));
    let home = site.read("public/ar/index.html");
    assert!(home.contains("اقرأ المزيد"), "the site's word");
    assert!(!home.contains("تابع القراءة"), "over folio's");
    assert!(
        ar.contains("الوسوم") || !ar.contains("class=\"tags\""),
        "folio's Arabic for the rest"
    );
    assert!(ar.contains("1 أكتوبر 2024"), "dates are CLDR's");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn pagination_boundaries() {
    for (posts, pages) in [(3usize, 1usize), (4, 2), (6, 2), (7, 3)] {
        let site = TestSite::new();
        site.write("site.toml", &format!("paginate = 3\n{}", util::SITE_TOML));
        for n in 0..posts {
            site.write(
                &format!("content/en/posts/p{n}.md"),
                &format!(
                    "---\ntitle: P{n}\ndate: 2024-01-{:02}\ntags: [all]\n---\nBody {n}.\n",
                    n + 1
                ),
            );
        }
        site.build();
        let first = site.read("public/index.html");
        assert_eq!(
            first.matches("<article class=\"entry\">").count(),
            posts.min(3),
            "{posts} posts"
        );
        assert!(
            first.contains(&format!("<h2><a href=\"/posts/p{}/\">", posts - 1)),
            "newest first"
        );
        assert_eq!(
            site.read("public/tags/all/index.html")
                .matches("<article class=\"entry\">")
                .count(),
            posts.min(3)
        );
        for page in 2..=pages {
            let html = site.read(&format!("public/page/{page}/index.html"));
            let expected = if page == pages {
                posts - 3 * (pages - 1)
            } else {
                3
            };
            assert_eq!(
                html.matches("<article class=\"entry\">").count(),
                expected,
                "{posts} posts, page {page}"
            );
            let newer = if page == 2 {
                "/".to_owned()
            } else {
                format!("/page/{}/", page - 1)
            };
            assert!(
                html.contains(&format!("<a href=\"{newer}\" rel=\"prev\">")),
                "{html}"
            );
            assert_eq!(html.contains("rel=\"next\""), page < pages);
            assert!(
                site.path(&format!("public/tags/all/page/{page}/index.html"))
                    .is_file()
            );
        }
        assert!(
            !site
                .path(&format!("public/page/{}/index.html", pages + 1))
                .exists(),
            "{posts} posts"
        );
        assert_eq!(
            site.read("public/index.html").contains("rel=\"next\""),
            pages > 1
        );
        assert!(
            !site.path("public/page/1/index.html").exists(),
            "page 1 is the home itself"
        );
    }
}

#[test]
fn neighbours_link_within_a_language() {
    let site = TestSite::with_posts();
    site.build();
    let second = site.read("public/posts/second/index.html");
    assert!(
        second.contains("href=\"/posts/hello-world/\" rel=\"next\""),
        "older"
    );
    assert!(!second.contains("rel=\"prev\""), "newest English post");
    let hello = site.read("public/fr/posts/hello-world/index.html");
    assert!(hello.contains("href=\"/fr/posts/third/\" rel=\"prev\""));
}

#[test]
fn future_posts_wait_for_their_date_or_for_the_flag() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/later.md",
        &post("Later", "2030-01-01T00:00:00Z", "Soon."),
    );
    let at = |now: &str| {
        options(|o| o.now_ms = now.parse::<jiff::Timestamp>().unwrap().as_millisecond())
    };
    site.build_with(&at("2029-12-31T23:59:59Z")).unwrap();
    assert!(!site.path("public/posts/later/index.html").exists());
    assert!(!site.read("public/atom.xml").contains("Later"));
    assert!(!site.read("public/sitemap.xml").contains("/posts/later/"));
    assert_eq!(
        site.query("SELECT count(*) FROM posts WHERE slug = 'later'"),
        ["1"]
    );

    let report = site.build_with(&at("2030-01-01T00:00:00Z")).unwrap();
    assert_eq!(
        report.parsed, 0,
        "its date came: no source is read, its page appears"
    );
    assert!(
        report
            .written
            .contains(&"posts/later/index.html".to_owned())
    );
    assert!(site.read("public/atom.xml").contains("Later"));
    // A clock moved back unpublishes it again, fast path or not.
    let report = site.build_with(&at("2029-06-01T00:00:00Z")).unwrap();
    assert_eq!(report.deleted, ["posts/later/index.html"]);

    let flagged = TestSite::with_posts();
    flagged.write(
        "content/en/posts/later.md",
        &post("Later", "2030-01-01T00:00:00Z", "Soon."),
    );
    flagged
        .build_with(&{
            let mut options = at("2024-12-01T00:00:00Z");
            options.future = true;
            options
        })
        .unwrap();
    assert!(flagged.path("public/posts/later/index.html").exists());
}

/// A post that expires on 2030-01-01 (`expires`) and a page that expires
/// on 2031-01-01 (Hugo's `expiryDate`).
fn site_with_expiring_documents() -> TestSite {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/offer.md",
        "---\ntitle: Offer\ndate: 2024-01-01T00:00:00Z\nexpires: 2030-01-01T00:00:00Z\n---\nBuy.\n",
    );
    site.write(
        "content/en/sale.md",
        "---\ntitle: Sale\nexpiryDate: 2031-01-01T00:00:00Z\n---\nSale.\n",
    );
    site
}

#[test]
fn expired_documents_are_withdrawn_when_the_clock_passes_or_kept_by_the_flag() {
    let site = site_with_expiring_documents();
    let at = |now: &str| {
        options(|o| o.now_ms = now.parse::<jiff::Timestamp>().unwrap().as_millisecond())
    };
    site.build_with(&at("2029-12-31T23:59:59Z")).unwrap();
    assert!(site.path("public/posts/offer/index.html").exists());
    assert!(site.path("public/sale/index.html").exists());
    assert!(site.read("public/atom.xml").contains("Offer"));
    // The moment comes: nothing is read again, the post's page goes and
    // the lists that showed it are written.
    let report = site.build_with(&at("2030-01-01T00:00:00Z")).unwrap();
    assert_eq!(report.parsed, 0);
    assert_eq!(report.deleted, ["posts/offer/index.html"]);
    assert!(!site.read("public/atom.xml").contains("Offer"));
    assert!(!site.read("public/sitemap.xml").contains("/posts/offer/"));
    assert!(site.path("public/sale/index.html").exists());
    // Its row stays: its id was published and stays guarded.
    assert_eq!(
        site.query("SELECT count(*) FROM posts WHERE slug = 'offer' AND expires_at IS NOT NULL"),
        ["1"]
    );
    let report = site.build_with(&at("2031-06-01T00:00:00Z")).unwrap();
    assert_eq!(report.deleted, ["sale/index.html"]);
    // A clock moved back publishes them again.
    let report = site.build_with(&at("2029-06-01T00:00:00Z")).unwrap();
    assert!(
        report
            .written
            .contains(&"posts/offer/index.html".to_owned())
    );
    assert!(report.written.contains(&"sale/index.html".to_owned()));

    let mut flagged = at("2032-01-01T00:00:00Z");
    flagged.expired = true;
    site.build_with(&flagged).unwrap();
    assert!(site.path("public/posts/offer/index.html").exists());
    assert!(site.path("public/sale/index.html").exists());
}

#[test]
fn an_expiry_not_after_the_date_is_refused_naming_the_field_and_line() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/never.md",
        "---\ntitle: Never\ndate: 2024-05-01T00:00:00Z\nexpires: 2024-04-01T00:00:00Z\n---\nNo.\n",
    );
    let output = site.cli(&["build"]);
    assert!(!output.status.success());
    let stderr = util::stderr(&output);
    assert!(stderr.contains("content/en/posts/never.md:4"), "{stderr}");
    assert!(stderr.contains("is not after the date"), "{stderr}");
    assert!(!site.path("public").exists(), "nothing is written");
}

#[test]
fn a_new_translation_rewrites_its_siblings_and_its_language_lists() {
    let site = TestSite::with_posts();
    site.build();
    // A French version of the English-only "second" (2024-06-12), between
    // the French "third" (2024-07-01) and "hello-world" (2024-05-01).
    site.write(
        "content/posts/2024-06-12-second.fr.md",
        "---\ntitle: Deuxième\n---\nLe deuxième.\n",
    );
    site.assert_rebuild(
        &[
            "fr/archive/index.html",
            "fr/atom.xml",
            "fr/index.html",
            "fr/posts/hello-world/index.html",
            "fr/posts/index.html",
            "fr/posts/second/index.html",
            "fr/posts/third/index.html",
            "posts/second/index.html",
            "sitemap.xml",
        ],
        &[],
    );
}

#[test]
fn adding_and_removing_a_tag_rewrite_exactly_the_tag_pages() {
    let site = TestSite::with_posts();
    site.build();
    site.write(
        "content/posts/2024-06-12-second.md",
        "---\ntitle: Second\ntags: [a, b, c]\n---\nThe second post.\n\nMore.\n",
    );
    site.assert_rebuild(
        &[
            "atom.xml",
            "index.html",
            "posts/index.html",
            "posts/second/index.html",
            "sitemap.xml",
            "tags/a/index.html",
            "tags/b/index.html",
            "tags/c/index.html",
            "tags/index.html",
        ],
        &[],
    );
    site.write(
        "content/posts/2024-06-12-second.md",
        "---\ntitle: Second\ntags: [a, c]\n---\nThe second post.\n\nMore.\n",
    );
    site.assert_rebuild(
        &[
            "atom.xml",
            "index.html",
            "posts/index.html",
            "posts/second/index.html",
            "sitemap.xml",
            "tags/a/index.html",
            "tags/c/index.html",
            "tags/index.html",
        ],
        &["tags/b/index.html"],
    );
}

#[test]
fn flipping_a_draft_and_deleting_a_post_rewrite_exactly_their_relations() {
    let site = TestSite::with_posts();
    site.build();
    site.write("content/fr/posts/hello-world.md", "---\ntitle: Bonjour\ndate: 2024-05-01T09:00:00Z\ndraft: true\n---\nPremier paragraphe.\n\nDeuxième.\n");
    let translations_and_lists = [
        "fr/archive/index.html",
        "fr/atom.xml",
        "fr/index.html",
        "fr/posts/index.html",
        "fr/posts/third/index.html",
        "ja/posts/hello-world/index.html",
        "posts/hello-world/index.html",
        "sitemap.xml",
    ];
    site.assert_rebuild(
        &translations_and_lists,
        &["fr/posts/hello-world/index.html"],
    );

    site.write(
        "content/fr/posts/hello-world.md",
        &post(
            "Bonjour",
            "2024-05-01T09:00:00Z",
            "Premier paragraphe.\n\nDeuxième.",
        ),
    );
    let mut back = translations_and_lists.to_vec();
    back.insert(3, "fr/posts/hello-world/index.html");
    site.assert_rebuild(&back, &[]);

    // The other languages' posts sections no longer link a Japanese one.
    site.remove("content/ja/posts/hello-world.md");
    site.assert_rebuild(
        &[
            "fr/posts/hello-world/index.html",
            "fr/posts/index.html",
            "ja/archive/index.html",
            "ja/atom.xml",
            "ja/index.html",
            "posts/hello-world/index.html",
            "posts/index.html",
            "sitemap.xml",
        ],
        &["ja/posts/hello-world/index.html", "ja/posts/index.html"],
    );
}

#[test]
fn default_language_in_a_subfolder_and_a_permalink_pattern() {
    let site = TestSite::new();
    site.write(
        "site.toml",
        &format!("default_language_in_subdir = true\npermalink = \"/{{lang}}/{{year}}/{{month}}/{{slug}}/\"\n{}", util::SITE_TOML),
    );
    site.write("content/en/posts/x.md", &post("X", "2024-03-05", "x"));
    site.write("content/fr/posts/x.md", &post("X fr", "2024-03-05", "x"));
    site.build();
    assert!(site.path("public/en/2024/03/x/index.html").is_file());
    assert!(site.path("public/fr/2024/03/x/index.html").is_file());
    assert!(site.path("public/en/index.html").is_file());
    let en = site.read("public/en/2024/03/x/index.html");
    assert!(
        en.contains(&format!(
            "hreflang=\"x-default\" href=\"{BASE}/en/2024/03/x/\""
        )),
        "{en}"
    );
    check_hreflang(&site.output_tree(), "en");
}

#[test]
fn two_posts_of_one_language_with_one_translation_key_are_refused() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/other.md",
        "---\ntitle: Other\ndate: 2024-02-02\ntranslation_key: posts/hello-world\n---\n",
    );
    let message = site.try_build().unwrap_err().to_string();
    assert!(
        message.contains("content/en/posts/other.md")
            && message.contains("content/en/posts/hello-world.md"),
        "{message}"
    );
    assert!(message.contains("translation key"), "{message}");
}

#[test]
fn a_changed_word_rewrites_the_pages_of_its_language_only() {
    let site = TestSite::with_posts();
    site.build();
    site.write("i18n/fr.toml", "read_more = \"Lire plus\"\n");
    let report = Site::open(site.root())
        .unwrap()
        .build(&options(|_| {}))
        .unwrap();
    assert!(!report.written.is_empty());
    assert!(
        report.written.iter().all(|p| p.starts_with("fr/")),
        "{:?}",
        report.written
    );
    assert!(site.read("public/fr/index.html").contains("Lire plus"));
}
