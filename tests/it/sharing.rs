//! What a shared link and a search engine read of the default theme's
//! pages: OpenGraph and Twitter card tags, a post's JSON-LD, and the
//! sitemap's dates.

use crate::util;

use util::TestSite;

/// A post in two languages with everything a card shows, and a page with
/// an image from the site's root.
fn site() -> TestSite {
    let site = TestSite::new();
    site.write(
        "content/en/posts/trip.md",
        "---\ntitle: 'A \"trip\" </script><b>'\ndate: 2024-05-01T09:00:00Z\nupdated: 2024-06-02T10:00:00Z\ndescription: Where we went & why\nimage: cover.jpg\nauthors: [Ann, Bo]\ntags: [travel]\n---\nWe went.\n",
    );
    site.write(
        "content/fr/posts/trip.md",
        "---\ntitle: Voyage\ndate: 2024-05-01T09:00:00Z\n---\nNous sommes partis.\n",
    );
    site.write(
        "content/en/about.md",
        "---\ntitle: About\nimage: /img/me.png\n---\nUs.\n",
    );
    site.build();
    site
}

/// The JSON-LD of a page, parsed: the text between its script tags must be
/// JSON on its own, whatever the title holds.
fn json_ld(html: &str) -> serde_json::Value {
    let start = html
        .find("<script type=\"application/ld+json\">")
        .expect("a JSON-LD script")
        + "<script type=\"application/ld+json\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap_or_else(|e| panic!("{e}: {}", &html[start..end]))
}

#[test]
fn a_post_says_what_a_shared_link_shows_and_its_translations() {
    let site = site();
    let html = site.read("public/posts/trip/index.html");
    for tag in [
        r#"<meta property="og:type" content="article">"#,
        r#"<meta property="og:title" content="A &quot;trip&quot; &lt;/script&gt;&lt;b&gt;">"#,
        r#"<meta property="og:description" content="Where we went &amp; why">"#,
        r#"<meta property="og:url" content="https://example.org/posts/trip/">"#,
        r#"<meta property="og:image" content="https://example.org/posts/trip/cover.jpg">"#,
        r#"<meta property="og:locale" content="en">"#,
        r#"<meta property="og:locale:alternate" content="fr">"#,
        r#"<meta property="og:site_name" content="Test">"#,
        r#"<meta property="article:published_time" content="2024-05-01T09:00:00+00:00">"#,
        r#"<meta property="article:modified_time" content="2024-06-02T10:00:00+00:00">"#,
        r#"<meta property="article:tag" content="travel">"#,
        r#"<meta name="twitter:card" content="summary_large_image">"#,
    ] {
        assert!(html.contains(tag), "{tag} missing from:\n{html}");
    }
    assert!(
        !html.contains(r#"og:locale:alternate" content="en""#),
        "{html}"
    );
    let french = site.read("public/fr/posts/trip/index.html");
    assert!(french.contains(r#"<meta property="og:locale" content="fr">"#));
    assert!(french.contains(r#"<meta property="og:locale:alternate" content="en">"#));
    assert!(french.contains(r#"<meta name="twitter:card" content="summary">"#));
    assert!(!french.contains("og:image"), "{french}");
}

#[test]
fn a_post_s_json_ld_is_json_whatever_its_title_holds() {
    let site = site();
    let data = json_ld(&site.read("public/posts/trip/index.html"));
    assert_eq!(data["@type"], "BlogPosting");
    assert_eq!(data["headline"], "A \"trip\" </script><b>");
    assert_eq!(data["url"], "https://example.org/posts/trip/");
    assert_eq!(data["inLanguage"], "en");
    assert_eq!(data["datePublished"], "2024-05-01T09:00:00+00:00");
    assert_eq!(data["dateModified"], "2024-06-02T10:00:00+00:00");
    assert_eq!(data["description"], "Where we went & why");
    assert_eq!(data["image"], "https://example.org/posts/trip/cover.jpg");
    assert_eq!(data["author"][1]["name"], "Bo");
    let french = json_ld(&site.read("public/fr/posts/trip/index.html"));
    assert_eq!(french["dateModified"], french["datePublished"]);
    assert!(french.get("description").is_none() && french.get("author").is_none());
}

#[test]
fn a_page_and_a_list_say_what_they_are() {
    let site = site();
    let about = site.read("public/about/index.html");
    assert!(about.contains(r#"<meta property="og:type" content="website">"#));
    assert!(about.contains(r#"<meta property="og:title" content="About">"#));
    assert!(
        about.contains(r#"<meta property="og:image" content="https://example.org/img/me.png">"#)
    );
    assert!(!about.contains("ld+json"));
    let home = site.read("public/index.html");
    assert!(
        home.contains(r#"<meta property="og:title" content="Test">"#),
        "{home}"
    );
    assert!(home.contains(r#"<meta property="og:locale:alternate" content="fr">"#));
}

#[test]
fn the_sitemap_dates_each_page_by_what_it_shows() {
    let site = site();
    let sitemap = site.read("public/sitemap.xml");
    let lastmod = |loc: &str| {
        let at = sitemap
            .find(&format!("<loc>https://example.org{loc}</loc>\n"))
            .unwrap_or_else(|| panic!("{loc} not in:\n{sitemap}"));
        let rest = &sitemap[at..];
        let entry = &rest[..rest.find("</url>").unwrap()];
        entry
            .split_once("<lastmod>")
            .map(|(_, date)| date[..date.find('<').unwrap()].to_owned())
    };
    assert_eq!(
        lastmod("/posts/trip/").as_deref(),
        Some("2024-06-02T10:00:00Z")
    );
    assert_eq!(
        lastmod("/fr/posts/trip/").as_deref(),
        Some("2024-05-01T09:00:00Z")
    );
    assert_eq!(lastmod("/").as_deref(), Some("2024-06-02T10:00:00Z"));
    assert_eq!(lastmod("/about/"), None, "a page with no update date");
    assert_eq!(lastmod("/tags/"), None);
}

#[test]
fn site_extra_and_descriptions_reach_every_page_in_its_language() {
    let site = TestSite::with_posts();
    let config = "title = \"Test\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n\
                  description = \"Notes on things\"\n\
                  [extra]\ncolor = \"red\"\nsocial = { mastodon = \"@ann\" }\n\
                  [languages.en]\nname = \"English\"\n\
                  [languages.fr]\nname = \"Français\"\ndescription = \"Des notes\"\n\
                  [languages.fr.extra]\ncolor = \"rouge\"\n\
                  [languages.ja]\nname = \"日本語\"\n";
    site.write("site.toml", config);
    site.write(
        "templates/list.html",
        "{% extends \"base.html\" %}{% block content %}<p class=\"x\">{{ site.extra.color }} {{ site.extra.social.mastodon }}</p>{% endblock %}",
    );
    site.build();
    let home = site.read("public/index.html");
    assert!(
        home.contains(r#"<meta name="description" content="Notes on things">"#),
        "{home}"
    );
    assert!(home.contains(r#"<p class="x">red @ann</p>"#), "{home}");
    let french = site.read("public/fr/index.html");
    assert!(
        french.contains(r#"<meta name="description" content="Des notes">"#),
        "{french}"
    );
    assert!(
        french.contains(r#"<p class="x">rouge @ann</p>"#),
        "{french}"
    );
    let post = site.read("public/posts/hello-world/index.html");
    assert!(
        !post.contains("Notes on things"),
        "a post has its own description, or none"
    );

    // A setting only templates read re-renders the pages that show it.
    site.write(
        "site.toml",
        &config.replace("color = \"red\"", "color = \"blue\""),
    );
    let report = site.build();
    assert!(
        report.written.iter().any(|p| p == "index.html"),
        "{:?}",
        report.written
    );
    assert!(
        site.read("public/index.html")
            .contains(r#"<p class="x">blue @ann</p>"#)
    );
    assert!(
        site.read("public/fr/index.html")
            .contains(r#"<p class="x">rouge @ann</p>"#)
    );
}
