//! Fingerprinted assets (`asset_url`): a file of the site written again as
//! a twin named by a hash of its bytes, linked with its integrity; a new
//! version renders exactly the pages naming it, and prunes the old twin;
//! a twin no page names is pruned; through fresh builds and a kept session.

use base64::Engine;
use sha2::{Digest, Sha384};

use crate::util;

use util::TestSite;

/// The twin of the file at `output` a built site holds, with its bytes.
fn twin_of(site: &TestSite, output: &str) -> (String, Vec<u8>) {
    let twin = site.twin_of(output);
    let bytes = std::fs::read(site.out().join(&twin)).unwrap();
    (twin, bytes)
}

/// The pages of a built site whose bytes hold `text`.
fn pages_with(site: &TestSite, text: &str) -> Vec<String> {
    (site.output_tree().into_iter())
        .filter(|(path, bytes)| {
            path.ends_with(".html") && String::from_utf8_lossy(bytes).contains(text)
        })
        .map(|(path, _)| path)
        .collect()
}

fn integrity(bytes: &[u8]) -> String {
    let sha384 = Sha384::digest(bytes);
    format!(
        "sha384-{}",
        base64::engine::general_purpose::STANDARD.encode(sha384)
    )
}

#[test]
fn the_default_theme_links_its_stylesheet_by_a_twin_named_by_its_bytes() {
    let site = TestSite::with_posts();
    site.build();
    let css = std::fs::read(site.path("public/style.css")).unwrap();
    let (twin, bytes) = twin_of(&site, "style.css");
    assert_eq!(bytes, css, "the twin is the sheet");
    let sha256 = util::source_hash(&css);
    assert_eq!(twin, format!("style.{}.css", &sha256[..20]));
    let link = format!(
        r#"<link rel="stylesheet" href="/{twin}" integrity="{}">"#,
        integrity(&css)
    );
    let linking = pages_with(&site, &link);
    let pages = pages_with(&site, "<html");
    assert_eq!(linking, pages, "every page links the twin");
    assert!(pages.len() > 10);
    // Nothing moves after.
    let report = site.build();
    assert!(
        report.written.is_empty() && report.deleted.is_empty(),
        "{report:?}"
    );
    assert_eq!(report.rendered, 0);
}

#[test]
fn a_new_stylesheet_writes_its_twin_and_the_pages_naming_it_and_prunes_the_old() {
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        site.build();
        let (old, _) = twin_of(&site, "style.css");
        let pages = pages_with(&site, &format!("href=\"/{old}\""));
        site.write("templates/style.css", "body { color: #123; }\n");
        let mut written = pages.clone();
        written.push("style.css".into());
        // A template's last newline is not written (minijinja's rule).
        let sha256 = util::source_hash(b"body { color: #123; }");
        let new = format!("style.{}.css", &sha256[..20]);
        written.push(new.clone());
        written.sort();
        let written: Vec<&str> = written.iter().map(String::as_str).collect();
        site.assert_rebuild(&written, &[old.as_str()]);
        assert_eq!(pages_with(&site, &format!("href=\"/{new}\"")), pages);
        let report = site.build();
        assert!(
            report.written.is_empty() && report.deleted.is_empty(),
            "kept: {kept}"
        );
    }
}

#[test]
fn pages_written_only_for_a_new_name_are_reported_relinked() {
    let site = TestSite::with_posts_kept(true);
    site.build();
    site.write("templates/style.css", "body { color: #123; }\n");
    let report = site.build();
    let pages: Vec<&String> = (report.written.iter())
        .filter(|p| p.ends_with(".html"))
        .collect();
    assert!(!pages.is_empty());
    assert_eq!(report.relinked.iter().collect::<Vec<_>>(), pages);
    // A post's new text is more than a new name.
    site.write(
        "content/en/posts/hello-world.md",
        "---\ntitle: Hello\ndate: 2024-05-01T09:00:00Z\n---\nNew text.\n",
    );
    site.write("templates/style.css", "body { color: #456; }\n");
    let report = site.build();
    assert!(
        report
            .written
            .contains(&"posts/hello-world/index.html".to_owned())
    );
    assert!(
        !report
            .relinked
            .contains(&"posts/hello-world/index.html".to_owned())
    );
    assert!(report.relinked.contains(&"about/index.html".to_owned()));
}

/// A site whose post pages also name a script of `static/` and a sheet of
/// `sass/`, built through a kept session when `kept`.
fn scripted(kept: bool) -> TestSite {
    let site = TestSite::with_posts_kept(kept);
    site.write("static/js/app.js", "console.log(1);\n");
    site.write("sass/css/_ink.scss", "$ink: #123;\n");
    site.write(
        "sass/css/main.scss",
        "@use \"ink\";\nbody { color: ink.$ink; }\n",
    );
    site.write(
        "templates/post.html",
        "{% extends \"base.html\" %}{% block content %}{% set js = asset_url(\"/js/app.js\") %}\
         <script src=\"{{ js }}\" integrity=\"{{ js.integrity }}\"></script>\
         <link rel=\"stylesheet\" href=\"{{ asset_url('css/main.css').url }}\">\
         <h1>{{ post.title }}</h1>{{ post.content }}{% endblock %}",
    );
    site.build();
    site
}

#[test]
fn a_dry_run_names_the_new_twin_and_writes_nothing() {
    let site = TestSite::with_posts();
    site.build();
    let (old, _) = twin_of(&site, "style.css");
    site.write("templates/style.css", "body { color: #123; }\n");
    let before = site.output_tree();
    let report = site.dry_run();
    let new = format!(
        "style.{}.css",
        &util::source_hash(b"body { color: #123; }")[..20]
    );
    assert!(report.written.contains(&new), "{:?}", report.written);
    assert!(report.written.contains(&"index.html".to_owned()));
    assert_eq!(
        report.why["index.html"],
        "an asset it links changed: style.css"
    );
    assert_eq!(report.deleted, [old]);
    assert_eq!(site.output_tree(), before, "a dry run writes nothing");
}

#[test]
fn a_static_script_and_a_compiled_sheet_have_twins_too() {
    for kept in [false, true] {
        let site = scripted(kept);
        let (js, bytes) = twin_of(&site, "js/app.js");
        assert_eq!(bytes, b"console.log(1);\n");
        let posts = pages_with(
            &site,
            &format!(
                r#"<script src="/{js}" integrity="{}"></script>"#,
                integrity(&bytes)
            ),
        );
        assert_eq!(posts.len(), 5, "{posts:?}");
        let (css, _) = twin_of(&site, "css/main.css");
        assert_eq!(pages_with(&site, &format!("href=\"/{css}\"")), posts);
        // What a post is made from counts the files of what it names.
        let explained = site
            .site()
            .explain(&posts[0], &util::options(|_| {}))
            .unwrap();
        for source in [
            "static/js/app.js",
            "sass/css/main.scss",
            "sass/css/_ink.scss",
        ] {
            assert!(
                explained.sources.iter().any(|s| s == source),
                "{source}: {explained:?}"
            );
        }

        // The script changes: its twin and the posts, nothing else.
        site.write("static/js/app.js", "console.log(2);\n");
        let (new_js, _) = {
            let sha256 = util::source_hash(b"console.log(2);\n");
            (format!("js/app.{}.js", &sha256[..20]), ())
        };
        let mut written: Vec<&str> = posts.iter().map(String::as_str).collect();
        written.extend(["js/app.js", new_js.as_str()]);
        written.sort_unstable();
        site.assert_rebuild(&written, &[js.as_str()]);

        // A partial the sheet uses: the sheet, its twin, the posts.
        site.write("sass/css/_ink.scss", "$ink: #456;\n");
        let sha256 = util::source_hash(b"body {\n  color: #456;\n}\n");
        let new_css = format!("css/main.{}.css", &sha256[..20]);
        let mut written: Vec<&str> = posts.iter().map(String::as_str).collect();
        written.extend(["css/main.css", new_css.as_str()]);
        written.sort_unstable();
        site.assert_rebuild(&written, &[css.as_str()]);

        // The posts stop naming them: their twins go, the files stay.
        site.write(
            "templates/post.html",
            "{% extends \"base.html\" %}{% block content %}<h1>{{ post.title }}</h1>{{ post.content }}{% endblock %}",
        );
        let mut deleted = [new_js.as_str(), new_css.as_str()];
        deleted.sort_unstable();
        site.assert_rebuild(&written_pages(&posts), &deleted);
        assert!(site.path("public/js/app.js").is_file());
    }
}

fn written_pages(pages: &[String]) -> Vec<&str> {
    pages.iter().map(String::as_str).collect()
}

#[test]
fn the_twin_only_a_deleted_page_named_is_pruned_with_it() {
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        site.write("static/js/about.js", "about();\n");
        site.write(
            "templates/page.html",
            "{% extends \"base.html\" %}{% block content %}\
             <script src=\"{{ asset_url('js/about.js') }}\"></script>{% endblock %}",
        );
        site.build();
        let (twin, _) = twin_of(&site, "js/about.js");
        site.remove("content/en/about.md");
        let report = site.build();
        assert!(report.deleted.contains(&twin), "kept: {kept}: {report:?}");
        assert!(site.path("public/js/about.js").is_file());
        assert_eq!(site.output_tree(), site.clean_build_tree());
        assert!(site.build().written.is_empty());
    }
}

#[test]
fn a_twin_one_page_stops_naming_stays_while_a_page_not_rendered_names_it() {
    // A one-off edit reads only the rows of the pages that show what
    // changed: whether another page still names the asset its page no
    // longer names is asked of every row.
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        site.write("static/js/about.js", "about();\n");
        site.write(
            "templates/page.html",
            "{% extends \"base.html\" %}{% block content %}{% if page.extra.scripted %}\
             <script src=\"{{ asset_url('js/about.js') }}\"></script>{% endif %}{% endblock %}",
        );
        let page =
            |scripted: bool| format!("---\ntitle: About\nscripted: {scripted}\n---\nAbout.\n");
        site.write("content/en/about.md", &page(true));
        site.write(
            "content/en/contact.md",
            &page(true).replace("About", "Contact"),
        );
        site.build();
        let (twin, _) = twin_of(&site, "js/about.js");
        site.write("content/en/about.md", &page(false));
        let report = site.build();
        assert!(!report.deleted.contains(&twin), "kept: {kept}: {report:?}");
        assert!(site.read("public/contact/index.html").contains(&twin));
        assert!(site.out().join(&twin).is_file(), "kept: {kept}");
        assert_eq!(site.output_tree(), site.clean_build_tree());
    }
}

#[test]
fn a_deleted_twin_is_written_again_and_a_minified_site_names_the_minified_bytes() {
    let site = TestSite::with_posts();
    site.build();
    let (twin, bytes) = twin_of(&site, "style.css");
    site.remove(&format!("public/{twin}"));
    site.assert_rebuild(&[twin.as_str()], &[]);
    assert_eq!(
        std::fs::read(site.path(&format!("public/{twin}"))).unwrap(),
        bytes
    );

    let toml = site.read("site.toml");
    site.write("site.toml", &format!("minify = true\n{toml}"));
    site.build();
    let (minified, minified_bytes) = twin_of(&site, "style.css");
    assert_ne!(minified, twin);
    assert_eq!(
        minified_bytes,
        std::fs::read(site.path("public/style.css")).unwrap()
    );
    assert!(
        minified_bytes.len() < bytes.len(),
        "the twin is the minified sheet"
    );
    assert!(
        !site.path(&format!("public/{twin}")).exists(),
        "the old twin is pruned"
    );
}

#[test]
fn a_name_the_site_writes_no_file_at_fails_the_build_with_the_nearest() {
    let site = TestSite::with_posts();
    site.write("static/js/app.js", "console.log(1);\n");
    site.write(
        "templates/page.html",
        "{% extends \"base.html\" %}{% block content %}{{ asset_url(\"js/ap.js\") }}{% endblock %}",
    );
    let message = site.try_build().unwrap_err().to_string();
    assert!(message.contains("templates/page.html"), "{message}");
    assert!(message.contains("js/ap.js"), "{message}");
    assert!(message.contains("did you mean \"js/app.js\""), "{message}");
    assert!(!site.path("public/index.html").exists(), "nothing written");
}

#[test]
fn a_site_files_template_names_static_files_not_other_site_files() {
    let site = TestSite::with_posts();
    site.write("static/fonts/a.woff2", "font");
    site.write(
        "templates/style.css",
        "@font-face { src: url({{ asset_url('fonts/a.woff2') }}); }\n",
    );
    site.build();
    let (font, _) = twin_of(&site, "fonts/a.woff2");
    let css = site.read("public/style.css");
    assert_eq!(css, format!("@font-face {{ src: url(/{font}); }}"));
    let (twin, _) = twin_of(&site, "style.css");
    // The font changes: the sheet, hence its twin, hence every page.
    site.write("static/fonts/a.woff2", "font 2");
    let report = site.build();
    assert!(
        report.deleted.contains(&font) && report.deleted.contains(&twin),
        "{report:?}"
    );
    assert!(report.written.contains(&"index.html".to_owned()));
    assert!(site.build().written.is_empty());
    assert_eq!(site.output_tree(), site.clean_build_tree());

    site.write(
        "templates/style.css",
        "/* {{ asset_url('robots.txt') }} */\n",
    );
    let message = site.try_build().unwrap_err().to_string();
    assert!(message.contains("style.css"), "{message}");
    assert!(
        message.contains("not another file made from a template"),
        "{message}"
    );
}
