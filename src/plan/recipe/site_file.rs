//! The files of the site as a whole that every theme makes (`robots.txt`,
//! its stylesheet, the page for a missing URL), in the default language.

use super::*;

/// The site-wide files every theme produces, beside the sitemap.
/// `404.html` is the page a static host (and `folio serve`) answers with,
/// with status 404, where no other page is. A file of the site's `static/`
/// at one of these places wins over the theme's, and so does a document
/// whose URL it is (a site moved in with its own `404.html` page).
pub(in crate::plan) const SITE_FILES: &[(&str, &str)] = &[
    ("/robots.txt", "robots.txt"),
    ("/style.css", "style.css"),
    ("/404.html", "404.html"),
];

/// One of [`SITE_FILES`]: its template is the only thing that sets it
/// apart.
#[derive(Debug, Clone)]
pub(in crate::plan) struct SiteFile;

impl SiteFile {
    /// Only what every page reads: the config and the default language's
    /// words.
    pub(super) fn inputs(&self) -> Inputs<'static> {
        Inputs {
            parts: Vec::new(),
            config_keys: &[],
        }
    }
}

/// Each of [`SITE_FILES`] that no file of the site's `static/`, and no
/// document of `recipes`, replaces.
/// The URLs of [`SITE_FILES`] on the site: a document at one takes the
/// file's place.
pub fn site_file_urls(config: &Config) -> Vec<String> {
    let base = &config.base_path;
    SITE_FILES
        .iter()
        .map(|(url, _)| format!("{base}{url}"))
        .collect()
}

pub(in crate::plan) fn site_file_recipes(
    config: &Config,
    copies: &[Copy],
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    let base = &config.base_path;
    for (url, template) in SITE_FILES {
        let url = format!("{base}{url}");
        let copied = copies
            .iter()
            .any(|copy| format!("{base}/{}", copy.output) == url);
        let written = recipes
            .iter()
            .any(|(at, _, recipe)| *at == url && matches!(recipe, Recipe::Document(_)));
        if !copied && !written {
            recipes.push((url, (*template).into(), Recipe::SiteFile(SiteFile)));
        }
    }
}
