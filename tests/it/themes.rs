//! `theme = "NAME"`: the theme's templates, static files and words under
//! the site's own, and what an edit to either rewrites.

use crate::util;

use util::TestSite;

/// The posts of `TestSite::with_posts` with theme `plain`: its post
/// template, a stylesheet of its own, one the site replaces, and a word.
fn site(kept: bool) -> TestSite {
    let site = TestSite::with_posts();
    if kept {
        site.keep_session();
    }
    site.write(
        "site.toml",
        &format!("theme = \"plain\"\n{}", util::SITE_TOML),
    );
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

fn theme_edits(site: TestSite) {
    site.write(
        "themes/plain/templates/post.html",
        "{% extends \"base.html\" %}{% block content %}<article class=\"plain2\">{{ post.title }}</article>{% endblock %}",
    );
    site.assert_rebuild(POSTS, &[]);
    site.remove("static/shared.css");
    site.assert_rebuild(&["shared.css"], &[]);
    assert_eq!(site.read("public/shared.css"), "/* theme's */\n");
    site.write("themes/plain/i18n/en.toml", "read_more = \"More\"\n");
    site.write(
        "themes/plain/templates/post.html",
        "{% extends \"base.html\" %}{% block content %}{{ t(\"read_more\") }}{% endblock %}",
    );
    site.assert_rebuild(POSTS, &[]);
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
    site.write(
        "site.toml",
        &format!("theme = \"plian\"\n{}", util::SITE_TOML),
    );
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

