//! folio's own theme, built into the binary: the templates a site uses
//! unless it has its own of the same name, and the shortcodes every site
//! can call.

/// The default theme, used for every template the site does not provide.
pub(super) const DEFAULT_THEME: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("post.html", include_str!("../../templates/post.html")),
    ("list.html", include_str!("../../templates/list.html")),
    ("page.html", include_str!("../../templates/page.html")),
    (
        "taxonomy.html",
        include_str!("../../templates/taxonomy.html"),
    ),
    ("archive.html", include_str!("../../templates/archive.html")),
    ("section.html", include_str!("../../templates/section.html")),
    ("atom.xml", include_str!("../../templates/atom.xml")),
    ("rss.xml", include_str!("../../templates/rss.xml")),
    ("feed.json", include_str!("../../templates/feed.json")),
    ("sitemap.xml", include_str!("../../templates/sitemap.xml")),
    ("robots.txt", include_str!("../../templates/robots.txt")),
    ("style.css", include_str!("../../templates/style.css")),
    ("404.html", include_str!("../../templates/404.html")),
    (
        "redirect.html",
        include_str!("../../templates/redirect.html"),
    ),
    (
        "shortcodes/youtube.html",
        include_str!("../../templates/shortcodes/youtube.html"),
    ),
    (
        "shortcodes/vimeo.html",
        include_str!("../../templates/shortcodes/vimeo.html"),
    ),
    (
        "shortcodes/figure.html",
        include_str!("../../templates/shortcodes/figure.html"),
    ),
    (
        "shortcodes/details.html",
        include_str!("../../templates/shortcodes/details.html"),
    ),
    (
        "shortcodes/note.html",
        include_str!("../../templates/shortcodes/note.html"),
    ),
    (
        "shortcodes/warning.html",
        include_str!("../../templates/shortcodes/warning.html"),
    ),
];
