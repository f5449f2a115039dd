//! Real blogs move in, checked against what their old generator served:
//! the Minimal Mistakes documentation (Jekyll) and the Kubernetes blog
//! (Hugo) in tests/corpora, each with the URL its generator gave every post
//! (`NAME.md`, made without folio), imported, built on the first try,
//! checked and built again.

use std::collections::BTreeSet;
use std::path::Path;

use crate::import::{builds, corpora, hugo_urls, import, served_file, unpack};
use crate::util::folio_command;

/// The (source file, URL path) pairs of a companion file's Appendix A:
/// `content/x.md` then `-> https://host/path/` (Kubernetes), or `_posts/x.md
/// /path/` on one line (Minimal Mistakes), the path percent-decoded as a
/// file name holds it.
fn listed_urls(companion: &str, host: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(corpora().join(companion)).unwrap();
    let appendix = &text[text.find("\nAppendix A").unwrap()..];
    let decoded = |path: &str| {
        let path = percent_encoding::percent_decode_str(path)
            .decode_utf8()
            .unwrap();
        path.into_owned()
    };
    let mut pairs = Vec::new();
    let mut file = None;
    for line in appendix.lines().skip(1).map(str::trim) {
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("->"), Some(url)) => {
                let path = url.strip_prefix(host).unwrap_or_else(|| panic!("{url}"));
                pairs.push((file.take().unwrap(), decoded(path)));
            }
            (Some(name), None) if name.ends_with(".md") => file = Some(name.to_owned()),
            (Some(name), Some(path)) if path.starts_with('/') && name.contains('.') => {
                pairs.push((name.to_owned(), decoded(path)));
            }
            _ => {}
        }
    }
    pairs
}

/// What `folio check` names as broken links on the site at `root`: each
/// link's target.
fn broken_links(root: &Path) -> Vec<String> {
    let check = folio_command()
        .args(["check", "--root"])
        .arg(root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&check.stderr);
    let mut broken = Vec::new();
    for line in stderr
        .lines()
        .filter(|l| !l.starts_with("  = help") && !l.starts_with("warning:"))
    {
        if let Some((_, rest)) = line.split_once(": links to ") {
            let target = rest.split(", wh").next().unwrap();
            broken.push(target.to_owned());
        } else {
            assert!(
                line.ends_with("problems; the build wrote nothing"),
                "{line}"
            );
        }
    }
    broken
}

/// Checks that a build of the imported site at `into`, of `documents`
/// sources, has nothing to do: the import's own build converged.
fn builds_nothing(into: &Path, documents: usize) {
    let again = folio_command()
        .args(["build", "--root"])
        .arg(into)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&again.stdout);
    let nothing = format!("0 parsed, {documents} unchanged; 0 pages written, 0 deleted");
    assert!(
        again.status.success() && report.contains(&nothing),
        "{report}"
    );
}

/// Every HTML page under `out`.
fn html_pages(out: &Path) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(out)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| e.into_path())
        .collect()
}

/// What a reader sees of a page's `<main>`: its text without tags, code
/// (`<pre>`, `<code>`) left out.
pub(crate) fn visible_text(html: &str) -> String {
    let main = html.find("<main").map_or(html, |at| &html[at..]);
    let main = main.find("</main>").map_or(main, |end| &main[..end]);
    let mut text = String::new();
    let mut rest = main;
    while let Some(open) = rest.find('<') {
        text.push_str(&rest[..open]);
        rest = &rest[open..];
        let code = ["<pre", "<code"]
            .into_iter()
            .find(|tag| rest.starts_with(tag));
        let end = match code {
            Some(tag) => rest
                .find(&format!("</{}>", &tag[1..]))
                .unwrap_or(rest.len()),
            None => rest.find('>').map_or(rest.len(), |end| end + 1),
        };
        rest = &rest[end..];
    }
    text.push_str(rest);
    text.replace("&#123;", "{").replace("&lbrace;", "{")
}

#[test]
fn the_kubernetes_blog_moves_in_from_hugo_with_every_url_served() {
    let dir = tempfile::tempdir().unwrap();
    let source = unpack("kubernetes-blog-hugo.tar.gz", dir.path()).join("kubernetes-blog");
    let into = dir.path().join("folio-site");
    let summary = import("hugo", &source, &into);
    println!("{summary}");
    assert!(summary.contains("posts:        313 en, 38 zh"), "{summary}");
    // Hugo builds nothing of a language `disableLanguages` names.
    assert!(summary.contains("left out:     content/no/blog/_posts/2018-09-06-2018-steering-committee-election-cycle-kicks-off.md: its language, `no`, is in `disableLanguages`"));
    // The import built the site and found there every URL Hugo served:
    // posts, each language's home (its `_index.html`) and blog section, the home's feed.
    assert!(summary.contains("every old URL is still served: the 394 URLs the old site served are served by the built site; 20 translation(s) that had their original's moved under their language"), "{summary}");
    assert!(summary.contains("moved:        content/zh/blog/_posts/2015-03-00-Welcome-To-Kubernetes-Blog.md is at /zh/blog/2015/03/Welcome-To-Kubernetes-Blog/"));
    // The homes link the documentation, which the blog does not hold.
    assert!(summary.contains("needs a hand: {{< relref >}} (a link to a page the imported site does not hold): left out of the text in 9 file(s)"), "{summary}");

    let warnings = builds(&into, None);
    let out = into.join("public");
    let listed = listed_urls("kubernetes-blog-hugo.md", "https://kubernetes.io");
    assert_eq!(listed.len(), 351);
    let missing: Vec<&(String, String)> = listed
        .iter()
        .filter(|(_, url)| !served_file(&out, url).is_file())
        .collect();
    assert!(missing.is_empty(), "not served: {missing:#?}\n{warnings}");
    // Every post whose original Hugo served under the default language
    // keeps its URL, capital letters and all; and the English page is the
    // one there.
    let welcome = std::fs::read_to_string(served_file(
        &out,
        "/blog/2015/03/Welcome-To-Kubernetes-Blog/",
    ))
    .unwrap();
    assert!(welcome.contains("<html lang=\"en\""), "{welcome}");

    // Hugo linked translations by their file's path under each language's
    // content folder: every Chinese post links its English original.
    let chinese: Vec<&(String, String)> = listed
        .iter()
        .filter(|(file, _)| file.starts_with("content/zh/"))
        .collect();
    assert_eq!(chinese.len(), 38);
    for (file, url) in chinese {
        let moved = format!("/zh{url}");
        let page = [url.as_str(), moved.as_str()]
            .into_iter()
            .map(|url| std::fs::read_to_string(served_file(&out, url)).unwrap_or_default())
            .find(|html| html.contains("<html lang=\"zh\""))
            .unwrap_or_else(|| panic!("{file}: no Chinese page at {url}"));
        assert!(
            page.contains("hreflang=\"en\""),
            "{file} is not linked to its English original"
        );
    }

    // Hugo's shortcodes are folio's: `figure`, and the site's `note`, which
    // does what folio's does; none is left in what a reader sees.
    assert!(
        summary.contains("converted:    {{< figure >}} in 15 file(s)"),
        "{summary}"
    );
    assert!(
        summary.contains("converted:    {{< note >}} in 4 file(s)"),
        "{summary}"
    );
    let microk8s = std::fs::read_to_string(served_file(
        &out,
        "/blog/2019/11/26/running-kubernetes-locally-on-linux-with-microk8s/",
    ))
    .unwrap();
    assert!(
        microk8s.contains("001-install.png\" alt=\"\" width=\"600\" loading=\"lazy\"></figure>"),
        "{microk8s}"
    );
    for page in html_pages(&out) {
        let text = visible_text(&std::fs::read_to_string(&page).unwrap());
        assert!(
            !text.contains("{{<") && !text.contains("{{%") && !text.contains("{{"),
            "{}: a shortcode left in\n{text}",
            page.display()
        );
    }

    // The blog sections put themselves in the main menu, by their
    // linkTitle, in each language's menu.
    let toml = std::fs::read_to_string(into.join("site.toml")).unwrap();
    assert!(
        toml.contains("[[menus.main]]\nname = \"Blog\"\nurl = \"/blog/\"\nweight = 40"),
        "{toml}"
    );
    assert!(toml.contains("[[languages.zh.menus.main]]"), "{toml}");
    let home = std::fs::read_to_string(served_file(&out, "/")).unwrap();
    assert!(home.contains("href=\"/blog/\""), "{home}");

    // A link to a post by its URL in lower case (which the old host served)
    // leads to the post.
    assert!(
        summary.contains("link(s) between documents written again"),
        "{summary}"
    );
    // What `folio check` still finds broken leads to what the corpus does
    // not hold (the site's docs, images, case studies…), and six
    // `[#7443][199](vishh)`: pulldown-cmark reads `[199](vishh)` as a link
    // where CommonMark's reference implementation reads the reference link
    // `[#7443][199]` followed by text.
    let not_in_corpus = [
        "/docs/",
        "/images/",
        "/case-studies/",
        "/community/",
        "/partners/",
        "/security/",
    ];
    let read_as_links: BTreeSet<&str> = [
        "AntonioMeireles",
        "aveshagarwal",
        "bkeroackdsc",
        "cjcullen",
        "roberthbailey",
        "vishh",
    ]
    .into();
    let broken = broken_links(&into);
    let unexplained: Vec<&String> = broken
        .iter()
        .filter(|target| {
            let path = target
                .strip_prefix("https://kubernetes.io")
                .unwrap_or(target);
            !not_in_corpus.iter().any(|prefix| path.starts_with(prefix))
                && !read_as_links.contains(path)
        })
        .collect();
    assert!(unexplained.is_empty(), "{unexplained:#?}");
    assert!(broken.len() > 600, "{}", broken.len());

    builds_nothing(&into, 363);
}

#[test]
fn the_minimal_mistakes_docs_move_in_from_jekyll_with_every_url_served() {
    let dir = tempfile::tempdir().unwrap();
    let source = unpack("minimal-mistakes-jekyll.tar.gz", dir.path()).join("minimal-mistakes");
    let into = dir.path().join("folio-site");
    let summary = import("jekyll", &source, &into);
    println!("{summary}");
    // Posts, the `docs` collection (`output: true`) and the pages of
    // `_pages` (which `include` takes in).
    assert!(summary.contains("posts:        70 en"), "{summary}");
    assert!(summary.contains("pages:        44 en"), "{summary}");
    assert!(summary.contains("every post keeps its old URL: the 116 URLs the old site served are served by the built site"), "{summary}");

    let warnings = builds(&into, None);
    let out = into.join("public");
    let listed = listed_urls(
        "minimal-mistakes-jekyll.md",
        "https://mmistakes.github.io/minimal-mistakes",
    );
    assert_eq!(listed.len(), 114);
    // Jekyll left out the post dated 9999-12-31 (a future post); folio
    // keeps it as a draft.
    let (future, served): (Vec<_>, Vec<_>) = listed
        .iter()
        .partition(|(file, _)| file == "_posts/2010-10-25-post-future-date.md");
    assert!(!served_file(&out, &future[0].1).exists());
    let missing: Vec<_> = served
        .iter()
        .filter(|(_, url)| !served_file(&out, url).is_file())
        .collect();
    assert!(missing.is_empty(), "not served: {missing:#?}\n{warnings}");
    // Categories keep their spaces, as Jekyll kept them.
    assert!(served_file(&out, "/post formats/post-gallery/").is_file());
    // Jekyll ran the Liquid of every document before Markdown: what it
    // wrote is there (a gallery from the front matter, a feature row, a
    // video as folio's player), and no tag is left in what a reader sees.
    assert!(
        summary.contains("converted:    {% include gallery %} in 4 file(s)"),
        "{summary}"
    );
    assert!(
        summary.contains("needs a hand: site.posts: left out of the text"),
        "{summary}"
    );
    // kramdown's attribute lists are on what they followed.
    assert!(
        summary.contains("converted:    kramdown attribute lists ({: .class}) in 28 file(s)"),
        "{summary}"
    );
    let notice = std::fs::read_to_string(served_file(&out, "/post formats/post-notice/")).unwrap();
    assert!(
        notice.contains("<div class=\"notice--info\">\n<p><strong>Info Notice:</strong>"),
        "{notice}"
    );
    // The Markdown kramdown read inside `<div markdown="1">` is Markdown.
    assert!(
        notice.contains(
            "<div class=\"notice--primary\">\n<p><strong>Primary Notice with code block:</strong>"
        ),
        "{notice}"
    );
    let home = std::fs::read_to_string(served_file(&out, "/")).unwrap();
    assert!(
        home.contains("<h2 class=\"archive__item-title\">Super customizable</h2>"),
        "{home}"
    );
    let video = std::fs::read_to_string(served_file(
        &out,
        "/layout/uncategorized/layout-header-video/",
    ))
    .unwrap();
    assert!(
        video.contains("https://www.youtube-nocookie.com/embed/-PVofD2A9t8"),
        "{video}"
    );
    for page in html_pages(&out) {
        let text = visible_text(&std::fs::read_to_string(&page).unwrap());
        let file = page.display();
        assert!(
            !text.contains("{%") && !text.contains("{{"),
            "{file}: Liquid left in\n{text}"
        );
        assert!(
            !text.contains("{:"),
            "{file}: a kramdown attribute list left in\n{text}"
        );
        // Every `[text][ref]` found its definition.
        assert!(
            !text.contains("]["),
            "{file}: a reference link left unresolved\n{text}"
        );
    }

    // kramdown's tables are GitHub's: no row of dashes or equals signs.
    let tables =
        std::fs::read_to_string(served_file(&out, "/layout-table-of-contents-post/")).unwrap();
    assert!(
        tables.contains(">Foot1</td>")
            && !tables.contains(">----</td>")
            && !tables.contains("=====</td>"),
        "{tables}"
    );

    // What `folio check` finds broken was broken on the old site too, or
    // leads to what the corpus does not hold: its images (`/assets/`), the
    // `recipes` collection, the example navigation's URLs, and anchors its
    // text names and no heading has (`#home-page`; `#1`, a footnote's, on
    // lists that show the summary without its footnotes).
    let broken = broken_links(&into);
    let explained = |target: &str| {
        let path = target
            .strip_prefix("https://mmistakes.github.io")
            .unwrap_or(target);
        let path = path.strip_prefix("/minimal-mistakes").unwrap_or(path);
        path.starts_with("/assets/")
            || path.starts_with("/recipes/")
            || path.contains("-page-url/")
            || [
                "#1",
                "#ruby-gem-method",
                "#Bilibili",
                "#link",
                "/#test-link",
                "/docs/layouts/#home-page",
            ]
            .contains(&path)
    };
    let unexplained: Vec<&String> = broken.iter().filter(|t| !explained(t)).collect();
    assert!(unexplained.is_empty(), "{unexplained:#?}");

    // Its navigation is folio's menu, under the site's base path; its own
    // settings are `[extra]`.
    let toml = std::fs::read_to_string(into.join("site.toml")).unwrap();
    assert!(toml.contains("[[menus.main]]\nname = \"Quick-Start Guide\"\nurl = \"/minimal-mistakes/docs/quick-start-guide/\""), "{toml}");
    assert!(
        toml.contains("minimal_mistakes_skin = \"default\""),
        "{toml}"
    );

    // The site's own page for a missing URL is the one written.
    let not_found = std::fs::read_to_string(out.join("404.html")).unwrap();
    assert!(not_found.contains("<title>Page Not Found"), "{not_found}");

    builds_nothing(&into, 114);
}

#[test]
fn an_old_url_the_built_site_does_not_serve_is_named_and_nothing_is_claimed() {
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("hugo-site");
    let write = |rel: &str, text: &str| put(&source, rel, text.as_bytes());
    write(
        "hugo.toml",
        "baseURL = \"https://example.org/\"\ntitle = \"Docs\"\n",
    );
    // A section whose list Hugo served at a URL of its own: folio lists a
    // section at its folder's URL.
    write(
        "content/docs/_index.md",
        "---\ntitle: Docs\nurl: /manual/\n---\n",
    );
    write("content/docs/setup.md", "---\ntitle: Setup\n---\nSteps.\n");
    let into = dir.path().join("folio-site");
    let summary = import("hugo", &source, &into);
    assert!(
        summary.contains(
            "URLs:         1 of the 4 URLs the old site served are not served by the built site:"
        ),
        "{summary}"
    );
    assert!(
        summary.contains("not served:   /manual/ (from content/docs/_index.md)"),
        "{summary}"
    );
    assert!(!summary.contains("keeps its old URL"), "{summary}");
}

/// Writes `bytes` at `rel` under `root`, folders made.
fn put(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn static_files_and_a_bundle_s_files_move_in_with_their_pages() {
    let dir = tempfile::tempdir().unwrap();
    let hugo = dir.path().join("hugo-site");
    put(&hugo, "hugo.toml", b"baseURL = \"https://example.org/\"\ntitle = \"Trips\"\n[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n");
    let logo: &[u8] = b"\x89PNG\r\n\x1a\n not text \xff";
    put(&hugo, "static/img/logo.png", logo);
    put(
        &hugo,
        "content/posts/trip/index.md",
        b"---\ntitle: Trip\ndate: 2024-05-01\n---\n![The view](photo.jpg)\n",
    );
    put(
        &hugo,
        "content/posts/trip/index.fr.md",
        b"---\ntitle: Voyage\ndate: 2024-05-01\n---\n![La vue](photo.jpg)\n",
    );
    put(&hugo, "content/posts/trip/photo.jpg", b"jpeg bytes");
    // A Markdown file of the bundle is a resource, no page of Hugo's.
    put(
        &hugo,
        "content/posts/trip/notes.md",
        b"---\ntitle: Notes\n---\nResource.\n",
    );
    let into = dir.path().join("from-hugo");
    let summary = import("hugo", &hugo, &into);
    assert!(
        summary.contains("files:        3 copied as they were"),
        "{summary}"
    );
    assert!(
        summary.contains(
            "left out:     content/posts/trip/notes.md: a page bundle's Markdown resource"
        ),
        "{summary}"
    );
    assert_eq!(
        std::fs::read(into.join("static/img/logo.png")).unwrap(),
        logo
    );
    // The bundle stays one, in each language, its photo beside its page.
    for lang in ["en", "fr"] {
        assert!(
            into.join(format!("content/{lang}/posts/trip/index.md"))
                .is_file()
        );
        assert_eq!(
            std::fs::read(into.join(format!("content/{lang}/posts/trip/photo.jpg"))).unwrap(),
            b"jpeg bytes"
        );
    }
    let out = into.join("public");
    assert_eq!(
        std::fs::read(out.join("posts/trip/photo.jpg")).unwrap(),
        b"jpeg bytes"
    );
    assert_eq!(
        std::fs::read(out.join("fr/posts/trip/photo.jpg")).unwrap(),
        b"jpeg bytes"
    );
    assert_eq!(std::fs::read(out.join("img/logo.png")).unwrap(), logo);

    let jekyll = dir.path().join("jekyll-site");
    put(
        &jekyll,
        "_config.yml",
        b"title: J\nurl: https://example.org\n",
    );
    put(
        &jekyll,
        "_posts/2024-05-01-hi.md",
        b"---\ntitle: Hi\n---\n![a](/assets/a.png)\n",
    );
    put(&jekyll, "assets/a.png", logo);
    put(
        &jekyll,
        "feed.xml",
        b"---\nlayout: null\n---\n<feed>{{ site.title }}</feed>\n",
    );
    put(
        &jekyll,
        "_drafts/2024-06-01-later.md",
        b"---\ntitle: Later\n---\nSoon.\n",
    );
    let into = dir.path().join("from-jekyll");
    let summary = import("jekyll", &jekyll, &into);
    assert!(
        summary.contains("files:        1 copied as they were"),
        "{summary}"
    );
    assert_eq!(
        std::fs::read(into.join("static/assets/a.png")).unwrap(),
        logo
    );
    assert!(
        summary.contains("left out:     feed.xml: Jekyll ran it through Liquid and it is no page"),
        "{summary}"
    );
    assert!(!into.join("static/feed.xml").exists() && !into.join("static/_drafts").exists());
    assert_eq!(
        std::fs::read(into.join("public/assets/a.png")).unwrap(),
        logo
    );
}

#[test]
fn hugo_and_zola_pages_without_a_title_build_with_their_file_s_name() {
    let dir = tempfile::tempdir().unwrap();
    let hugo = dir.path().join("hugo-site");
    put(
        &hugo,
        "hugo.toml",
        b"baseURL = \"https://example.org/\"\ntitle = \"x\"\n",
    );
    put(
        &hugo,
        "content/posts/untitled-post.md",
        b"---\ndate: 2024-01-01\n---\nNo title.\n",
    );
    let into = dir.path().join("from-hugo");
    let summary = import("hugo", &hugo, &into);
    assert!(
        summary.contains(
            "fixed:        content/posts/untitled-post.md has no title; given \"Untitled Post\""
        ),
        "{summary}"
    );
    let zola = dir.path().join("zola-site");
    put(
        &zola,
        "config.toml",
        b"base_url = \"https://example.org\"\ntitle = \"z\"\n",
    );
    put(
        &zola,
        "content/notes/plain.md",
        b"+++\n+++\nNo title either.\n",
    );
    let into = dir.path().join("from-zola");
    let summary = import("zola", &zola, &into);
    assert!(summary.contains("given \"Plain\""), "{summary}");
    let page = std::fs::read_to_string(into.join("public/notes/plain/index.html")).unwrap();
    assert!(
        page.contains("<h1>Plain</h1>") || page.contains(">Plain<"),
        "{page}"
    );
}

#[test]
fn a_hugo_site_configured_by_its_config_folder_keeps_the_urls_hugo_lists() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("hugo-site");
    // Hugo reads its configuration from config/_default/, a key a file
    // (JSON too); the posts section has ugly URLs; content in .markdown and
    // .html files.
    put(&site, "config/_default/hugo.toml", b"baseURL = \"https://example.org/\"\ntitle = \"Folder\"\ndefaultContentLanguage = \"en\"\n[uglyURLs]\nposts = true\n");
    put(
        &site,
        "config/_default/languages.toml",
        b"[en]\nweight = 1\n[fr]\nweight = 2\n",
    );
    put(
        &site,
        "config/_default/permalinks.json",
        b"{\"posts\": \"/:year/:month/:day/:slug/\"}",
    );
    put(
        &site,
        "config/_default/params.toml",
        b"release = \"Halley\"\n",
    );
    put(
        &site,
        "content/posts/first.markdown",
        b"---\ntitle: First One\ndate: 2022-05-19\n---\nOn {{< param release >}}.\n",
    );
    put(
        &site,
        "content/posts/first.fr.markdown",
        b"---\ntitle: Premier\ndate: 2022-05-19\n---\nBonjour.\n",
    );
    put(
        &site,
        "content/about.html",
        b"---\ntitle: About\n---\n<div>\n\n    <p>Indented, after a blank line.</p>\n</div>\n",
    );
    let expected = hugo_urls(&site);
    assert!(
        expected
            .iter()
            .any(|url| url == "/2022/05/19/first-one.html"),
        "{expected:?}"
    );

    let into = dir.path().join("folio-site");
    let summary = import("hugo", &site, &into);
    assert!(
        summary.contains("every post keeps its old URL"),
        "{summary}"
    );
    let out = into.join("public");
    for url in &expected {
        assert!(
            served_file(&out, url).is_file(),
            "{url} is not served\n{summary}"
        );
    }
    let first = std::fs::read_to_string(out.join("2022/05/19/first-one.html")).unwrap();
    assert!(first.contains("On Halley."), "{first}");
    // The HTML page is HTML still, not an indented code block.
    let about = std::fs::read_to_string(served_file(
        &out,
        expected.iter().find(|u| u.contains("about")).unwrap(),
    ))
    .unwrap();
    assert!(
        about.contains("<p>Indented, after a blank line.</p>") && !about.contains("<code>"),
        "{about}"
    );
}

#[test]
fn a_zola_site_s_shortcodes_move_in_when_folio_runs_them_and_are_written_as_folio_s_when_not() {
    let dir = tempfile::tempdir().unwrap();
    let zola = dir.path().join("zola-site");
    put(
        &zola,
        "config.toml",
        b"base_url = \"https://example.org\"\ntitle = \"z\"\ntheme = \"plain\"\n",
    );
    // The theme's `stars` runs in folio; the site's own `stars` replaces
    // it; its `related` is Tera that calls Zola's `get_url`; the theme's
    // `unused` is called by nothing.
    put(
        &zola,
        "themes/plain/templates/shortcodes/stars.html",
        b"<span>theme {{ n }}</span>",
    );
    put(
        &zola,
        "themes/plain/templates/shortcodes/unused.html",
        b"<hr>",
    );
    put(
        &zola,
        "templates/shortcodes/stars.html",
        b"<span class=\"stars\">{% for i in range(n) %}*{% endfor %}</span>",
    );
    put(
        &zola,
        "templates/shortcodes/related.html",
        b"<a href=\"{{ get_url(path=path) }}\">{{ text }}</a>",
    );
    put(
        &zola,
        "content/notes/calls.md",
        b"+++\ntitle = \"Calls\"\n+++\nRated {{ stars(n=3) }}.\n\n{{ admonition(type=\"warning\", title=\"Mind\", text=\"The **gap**.\") }}\n\n{{ related(path=\"@/notes/other.md\", text=\"See the other\") }}\n\n{{ youtube(id=\"dQw4w9WgXcQ\", class=\"wide\") }}\n\n{{ dual_theme_image(light_src=\"day.webp\" dark_src=\"night.webp\" alt=\"Day\") }}\n\nWritten: {{/* stars(n=1) */}}\n",
    );
    let into = dir.path().join("from-zola");
    let summary = import("zola", &zola, &into);
    for said in [
        "converted:    {{ stars() }} (the site's shortcode, its template copied) in 1 file(s): content/notes/calls.md",
        "converted:    {{ admonition() }} as folio's note or warning",
        "converted:    {{ youtube() }} without the arguments folio's template does not take (class)",
        "converted:    {{ dual_theme_image() }} as a Markdown image",
        "needs a hand: {{ related() }} (a shortcode",
        "left out:     templates/shortcodes/related.html: a shortcode template no call",
        "left out:     themes/plain/templates/shortcodes/unused.html: a shortcode template no call",
    ] {
        assert!(summary.contains(said), "{said}\n{summary}");
    }
    // The site's template, not the theme's, is the one copied.
    let copied = std::fs::read_to_string(into.join("templates/shortcodes/stars.html")).unwrap();
    assert!(copied.contains("class=\"stars\""), "{copied}");
    assert!(!into.join("templates/shortcodes/related.html").exists());
    let page = std::fs::read_to_string(into.join("public/notes/calls/index.html")).unwrap();
    for shown in [
        "Rated <span class=\"stars\">***</span>.",
        "<aside class=\"admonition warning\"",
        "<strong>gap</strong>",
        "See the other",
        "youtube-nocookie.com/embed/dQw4w9WgXcQ",
        "<img src=\"day.webp\" alt=\"Day\"",
        "Written: {{ stars(n=1) }}",
    ] {
        assert!(page.contains(shown), "{shown}\n{page}");
    }
    assert!(!page.contains("get_url"), "{page}");
}
