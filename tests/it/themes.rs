//! `theme = "NAME"`: the theme's templates, static files and words under
//! the site's own, and what an edit to either rewrites.

use crate::util;

use util::TestSite;

/// The posts of `TestSite::with_posts` with theme `plain`: its post
/// template, a stylesheet of its own, one the site replaces, and a word.
fn site(kept: bool) -> TestSite {
    let site = TestSite::with_posts_kept(kept);
    site.use_theme("plain");
    site.write(
        "themes/plain/templates/post.html",
        "{% extends \"base.html\" %}{% block content %}<article class=\"plain\">{{ post.title }} · {{ t(\"read_more\") }}</article>{% endblock %}",
    );
    site.write("themes/plain/static/theme.css", "/* theme */\n");
    site.write("themes/plain/static/shared.css", "/* theme's */\n");
    site.write("static/shared.css", "/* site's */\n");
    site.write(
        "themes/plain/i18n/en.toml",
        "read_more = \"Keep reading\"\n",
    );
    site.build();
    site
}

const POSTS: &[&str] = &[
    "fr/posts/hello-world/index.html",
    "fr/posts/third/index.html",
    "ja/posts/hello-world/index.html",
    "posts/hello-world/index.html",
    "posts/second/index.html",
];

#[test]
fn a_theme_s_files_are_used_under_the_site_s_own() {
    let site = site(false);
    let post = site.read("public/posts/hello-world/index.html");
    assert!(
        post.contains("<article class=\"plain\">Hello · Keep reading</article>"),
        "{post}"
    );
    assert_eq!(site.read("public/theme.css"), "/* theme */\n");
    assert_eq!(site.read("public/shared.css"), "/* site's */\n");
    // The site's own template wins over the theme's.
    site.write(
        "templates/post.html",
        "{% extends \"base.html\" %}{% block content %}mine{% endblock %}",
    );
    site.build();
    assert!(
        site.read("public/posts/hello-world/index.html")
            .contains("mine")
    );
}

/// The English lists, which show the word `read_more` (folio's list.html
/// and section.html).
const ENGLISH_LISTS: &[&str] = &[
    "index.html",
    "posts/index.html",
    "tags/a/index.html",
    "tags/b/index.html",
];

/// One edit at a time, each rewriting exactly the pages that show it.
fn theme_edits(site: TestSite) {
    site.write(
        "themes/plain/templates/post.html",
        "{% extends \"base.html\" %}{% block content %}<article class=\"plain2\">{{ post.title }}</article>{% endblock %}",
    );
    site.assert_rebuild(POSTS, &[]);
    site.remove("static/shared.css");
    site.assert_rebuild(&["shared.css"], &[]);
    assert_eq!(site.read("public/shared.css"), "/* theme's */\n");
    // The post template no longer shows the word; the lists still do.
    site.write("themes/plain/i18n/en.toml", "read_more = \"More\"\n");
    site.assert_rebuild(ENGLISH_LISTS, &[]);
    site.write(
        "themes/plain/templates/post.html",
        "{% extends \"base.html\" %}{% block content %}{{ t(\"read_more\") }}{% endblock %}",
    );
    site.assert_rebuild(POSTS, &[]);
    site.write("themes/plain/static/img/new.svg", "<svg/>");
    site.assert_rebuild(&["img/new.svg"], &[]);
    site.remove("themes/plain/static/img/new.svg");
    site.assert_rebuild(&[], &["img/new.svg"]);
    // A file of the theme that no build reads: nothing to do, and a kept
    // session does not walk for it.
    site.write("themes/plain/README.md", "A plain theme.\n");
    site.assert_rebuild(&[], &[]);
    // Nor does another theme's.
    site.write("themes/other/templates/post.html", "other");
    site.assert_rebuild(&[], &[]);
}

#[test]
fn a_theme_edit_rewrites_what_shows_it_through_fresh_builds() {
    theme_edits(site(false));
}

#[test]
fn a_theme_edit_rewrites_what_shows_it_through_a_kept_session() {
    theme_edits(site(true));
}

#[test]
fn a_missing_theme_is_refused_with_the_nearest_one() {
    let site = TestSite::with_posts();
    site.write("themes/plain/templates/post.html", "x");
    site.use_theme("plian");
    let error = folio::Site::open(site.root()).unwrap_err().to_string();
    assert!(
        error.contains("theme `plian` is not a folder of themes/"),
        "{error}"
    );
    assert!(
        error.contains("did you mean `theme = \"plain\"`?"),
        "{error}"
    );
}

#[test]
fn leaving_a_theme_rewrites_what_showed_it() {
    let site = site(false);
    site.write("site.toml", util::SITE_TOML);
    // folio's post.html again, and its `read_more` on the English lists.
    let mut written: Vec<&str> = POSTS.iter().chain(ENGLISH_LISTS).copied().collect();
    written.sort_unstable();
    site.assert_rebuild(&written, &["theme.css"]);
}

#[test]
fn a_theme_s_files_are_inputs_and_the_folders_new_ones_would_go_in() {
    let site = site(false);
    // Words for a language the site lacks: its i18n/ holds no input, yet a
    // file added there may be one.
    site.remove("themes/plain/i18n/en.toml");
    site.write("themes/plain/i18n/de.toml", "read_more = \"Weiterlesen\"\n");
    let inputs = site.build().inputs;
    for file in [
        "themes/plain/templates/post.html",
        "themes/plain/static/theme.css",
        "static/shared.css",
    ] {
        assert!(inputs.files.iter().any(|f| f == file), "{file}: {inputs:?}");
    }
    // The site's own shared.css is copied, not the theme's.
    for unread in [
        "themes/plain/static/shared.css",
        "themes/plain/i18n/de.toml",
    ] {
        assert!(
            !inputs.files.iter().any(|f| f == unread),
            "{unread}: {inputs:?}"
        );
    }
    for folder in [
        "themes/plain/templates",
        "themes/plain/static",
        "themes/plain/i18n",
    ] {
        assert!(
            inputs.folders.iter().any(|f| f == folder),
            "{folder}: {inputs:?}"
        );
    }
}

/// The output row of `path`: its fingerprint names the file it was copied
/// from.
fn copied_from(site: &TestSite, path: &str) -> String {
    site.query(&format!(
        "SELECT fingerprint FROM outputs WHERE path = '{path}'"
    ))
    .join("")
}

#[test]
fn a_site_s_copy_of_a_theme_s_file_with_its_stat_is_another_input() {
    let site = site(false);
    assert!(copied_from(&site, "theme.css").contains("themes/plain"));
    // `cp -p`: the same bytes and mtime, in the site's own static/.
    let theme_file = site.path("themes/plain/static/theme.css");
    std::fs::copy(&theme_file, site.path("static/theme.css")).unwrap();
    let mtime =
        filetime::FileTime::from_last_modification_time(&std::fs::metadata(&theme_file).unwrap());
    filetime::set_file_mtime(site.path("static/theme.css"), mtime).unwrap();
    site.assert_rebuild(&[], &[]);
    assert!(!copied_from(&site, "theme.css").contains("themes/plain"));
    site.remove("static/theme.css");
    site.assert_rebuild(&[], &[]);
    assert!(copied_from(&site, "theme.css").contains("themes/plain"));
}

#[test]
fn a_site_s_template_with_a_broken_link_is_named_by_check_from_its_theme() {
    let site = site(false);
    site.write(
        "themes/plain/templates/page.html",
        "{% extends \"base.html\" %}{% block content %}<a href=\"/contact/\">contact</a>{% endblock %}",
    );
    let checked = site.cli(&["check"]);
    let stderr = util::stderr(&checked);
    assert!(
        stderr.contains(
            "themes/plain/templates/page.html:1: links to /contact/, which no page or file of the site is"
        ),
        "{stderr}"
    );
}

#[test]
fn a_theme_folder_gone_under_a_kept_session_fails_its_build_as_a_fresh_one_does() {
    let site = site(false);
    let mut session = folio::Session::open(site.site(), util::options(|_| {})).unwrap();
    session.build().unwrap();
    std::fs::rename(site.path("themes/plain"), site.path("themes/plane")).unwrap();
    let error = session
        .rebuild(&["themes/plain", "themes/plane"])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("theme `plain` is not a folder of themes/"),
        "{error}"
    );
    assert!(
        error.contains("did you mean `theme = \"plane\"`?"),
        "{error}"
    );
}

#[test]
fn a_template_no_layer_has_is_refused_naming_the_theme_s_folder_too() {
    let site = site(false);
    site.write(
        "content/en/posts/wide.md",
        "---\ntitle: Wide\ndate: 2024-08-01\ntemplate: wide.html\n---\nWide.\n",
    );
    let error = site.try_build().unwrap_err().to_string();
    assert!(
        error.contains(
            "names `wide.html`, which neither templates/, themes/plain/templates/ nor folio's theme has"
        ),
        "{error}"
    );
    // A theme's template is one a document may name.
    site.write("themes/plain/templates/wide.html", "{{ post.title }}");
    site.build();
    assert_eq!(site.read("public/posts/wide/index.html"), "Wide");
}
