//! `site.toml` → a validated [`Config`].
//!
//! Owns the site's settings and the rules derived from them alone: which
//! languages exist, where each language's pages live, and how a date written
//! without an offset is read. Unknown keys are errors, so a typo never silently
//! falls back to a default.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jiff::tz::TimeZone;
use serde::Deserialize;

use crate::Error;
use crate::source::highlight::Highlight;
use crate::source::markdown::{MarkdownSettings, Markup};
use crate::source::math::Math;

mod check;
mod defaults;
mod feeds;
mod images;
mod layers;
mod menus;
mod places;
mod publish;

pub use crate::model::url::TermSlugs;
pub use check::{LinkCheck, Links, Severity};
use defaults::{missing_keys, with_language_defaults};
pub use feeds::{FeedContent, FeedFile, FeedFormat, Feeds};
pub use images::{ImageFormat, Images, WIDEST};
pub use layers::Overrides;
use layers::deep_merge;
pub use menus::{MenuItem, Menus};
pub use publish::Publish;

pub const CONFIG_FILE: &str = "site.toml";

/// Where the themes a site can name are, under its root.
pub const THEMES_DIR: &str = "themes";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    title: String,
    #[serde(default)]
    base_url: String,
    /// The only declared language's, or `en` when none is declared.
    default_language: Option<String>,
    /// One language, the default one, when none is declared.
    #[serde(default)]
    languages: BTreeMap<String, Language>,
    #[serde(default = "default_timezone")]
    timezone: String,
    #[serde(default = "default_output_dir")]
    output_dir: PathBuf,
    #[serde(default)]
    default_language_in_subdir: bool,
    #[serde(default = "default_permalink")]
    permalink: String,
    #[serde(default = "default_paginate")]
    paginate: usize,
    #[serde(default = "default_feed_limit")]
    feed_limit: usize,
    #[serde(default = "feeds::default_files", deserialize_with = "feeds::files")]
    feeds: Vec<FeedFile>,
    #[serde(default)]
    feed_content: FeedContent,
    #[serde(default = "feeds::default_lists")]
    feeds_for: Vec<feeds::FeedList>,
    #[serde(default = "places::default_taxonomies")]
    taxonomies: Vec<String>,
    #[serde(default)]
    term_slugs: TermSlugs,
    author: Option<String>,
    /// What the site is about, for themes (`site.description`).
    description: Option<String>,
    /// A theme of `themes/`, under the site's own templates, words and
    /// static files.
    theme: Option<String>,
    /// Settings of the site's own for its templates (`site.extra`).
    #[serde(default)]
    extra: toml::Table,
    #[serde(default = "default_post_sections")]
    post_sections: Vec<String>,
    #[serde(default)]
    publish: Publish,
    #[serde(default)]
    plugins: BuiltInPlugins,
    #[serde(default)]
    highlight: Highlight,
    #[serde(default)]
    math: Math,
    #[serde(default)]
    markdown: MarkdownSettings,
    #[serde(default)]
    check: LinkCheck,
    #[serde(default)]
    links: Links,
    #[serde(default)]
    menus: Menus,
    #[serde(default)]
    minify: bool,
    images: Option<images::RawImages>,
}

/// The `[plugins]` table: which of the plugins that ship with folio every
/// build of the site runs, for `folio build` and `folio serve` as for a
/// host that registers them itself.
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct BuiltInPlugins {
    /// A `search.json` per language (its posts and pages: title, URL,
    /// date, summary, tags), for a search in the browser.
    #[serde(default)]
    pub search_index: bool,
    /// `{{< youtube ID >}}` in a body becomes an embedded video.
    #[serde(default)]
    pub youtube: bool,
}

fn default_permalink() -> String {
    "/{lang}/{section}/{slug}/".to_owned()
}

fn default_post_sections() -> Vec<String> {
    vec!["posts".to_owned()]
}

fn default_paginate() -> usize {
    10
}

fn default_feed_limit() -> usize {
    20
}

fn default_timezone() -> String {
    "UTC".to_owned()
}

fn default_output_dir() -> PathBuf {
    PathBuf::from("public")
}

/// One `[languages.<code>]` table.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Language {
    /// The name shown to readers, in the language itself ("Français");
    /// its code when site.toml gives none, which a site of one language
    /// never shows.
    #[serde(default)]
    pub name: String,
    /// The site title in this language; the site's `title` when absent.
    pub title: Option<String>,
    /// The site's description in this language; the site's when absent.
    pub description: Option<String>,
    /// Laid over the site's `[extra]` for the pages of this language.
    #[serde(default)]
    pub extra: toml::Table,
    /// The theme's words in this language, over `i18n/<code>.toml`.
    #[serde(default)]
    pub(crate) i18n: BTreeMap<String, toml::Value>,
    /// Menus of this language's pages, each replacing the site's of its
    /// name.
    #[serde(default)]
    pub menus: Menus,
}

/// The validated site configuration.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Config {
    /// The site title (in the default language).
    pub title: String,
    /// Without a trailing slash: `https://user.github.io/blog`.
    pub base_url: String,
    /// Its scheme and host: `https://user.github.io`. Every URL folio writes
    /// is a path from here, so `origin + url` is the absolute URL.
    pub origin: String,
    /// Its path, without a trailing slash: `/blog`, or empty for a site at
    /// the root of its host. Every URL folio writes starts with it; the
    /// output folder holds what is under it.
    pub base_path: String,
    /// The language whose pages are at the root, unless
    /// `default_language_in_subdir`.
    pub default_language: String,
    /// Keyed by the code exactly as declared.
    pub languages: BTreeMap<String, Language>,
    /// The IANA name of the time zone dates without an offset are read in.
    pub timezone_name: String,
    pub(crate) timezone: TimeZone,
    /// As written in site.toml (relative to the root unless absolute).
    pub output_dir: PathBuf,
    /// Whether the default language has its own folder too.
    pub default_language_in_subdir: bool,
    /// The URL pattern of posts: `{lang}`, `{section}`, `{slug}`, `{year}`,
    /// `{month}`, `{day}`; `{lang}` is empty for a default language at the
    /// root.
    pub permalink: String,
    /// The folders of a language that hold posts (`posts`, `blog`,
    /// `_posts`…); any other holds pages.
    pub post_sections: Vec<String>,
    /// Posts per list page (home and term pages).
    pub paginate: usize,
    /// What posts are grouped by (`tags`, `categories`, `series`…), in
    /// site.toml's order: the front matter's fields of those names.
    pub taxonomies: Vec<String>,
    /// How a term becomes its page's URL segment.
    pub term_slugs: TermSlugs,
    /// Entries per feed.
    pub feed_limit: usize,
    /// The feed files of each list that has them, and what they hold.
    pub feeds: Feeds,
    /// The feeds' author; the site title when absent.
    pub author: Option<String>,
    /// Where `folio publish` writes.
    pub publish: Publish,
    /// The plugins that ship with folio this site turns on.
    pub plugins: BuiltInPlugins,
    /// What the site is about (`description`), in the default language.
    pub description: Option<String>,
    /// The site's `[extra]` table, for its templates.
    pub extra: toml::Table,
    /// The theme's folder (`themes/<theme>`), relative to the root.
    pub theme_dir: Option<String>,
    /// How bodies become HTML: `[highlight]`, `[math]`, `[markdown]`.
    pub markup: Markup,
    /// How links between documents are checked (`[links]`).
    pub links: Links,
    /// The menus of every language (`[[menus.<name>]]`).
    pub menus: Menus,
    /// How `folio check --external` treats links out of the site (`[check]`).
    pub check: LinkCheck,
    /// Whether the HTML pages, stylesheets and scripts are written minified
    /// (`minify = true`, `--minify`).
    pub minify: bool,
    /// How the local images of posts are shown (`[images]`); none without
    /// the table.
    pub images: Option<Images>,
    /// [`crate::model::hash::source_hash`] of site.toml's text: any change to it, down to a comment.
    pub(crate) digest: String,
}

impl Config {
    /// Reads and validates `<root>/site.toml`.
    pub fn load(root: &Path) -> Result<Config, Error> {
        let (path, text) = read_site_toml(root)?;
        Config::parse(&text, &path)
    }

    /// Parses the text of a `site.toml`; `path` is only used in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config, Error> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| toml_error(path, text, &e))?;
        let invalid = |message: String, help: &str| Error::Config {
            path: path.to_owned(),
            line: None,
            message,
            help: help.to_owned(),
        };
        let mut raw = raw;
        missing_keys(&raw).map_err(|(message, help)| invalid(message, &help))?;
        built_with_what_it_asks(&raw).map_err(|(message, help)| invalid(message.into(), help))?;
        with_language_defaults(&mut raw);
        let default_language = raw.default_language.clone().unwrap_or_default();
        for code in raw.languages.keys() {
            if !is_language_code(code) {
                return Err(invalid(
                    format!("`{code}` is not a language code"),
                    "use a BCP 47 code such as `en`, `fr`, `pt-BR` or `zh-Hant`",
                ));
            }
        }
        if !raw.languages.contains_key(&default_language) {
            return Err(invalid(
                format!(
                    "default_language `{default_language}` is not one of the declared languages"
                ),
                "declare it with a `[languages.<code>]` table, or pick a declared one",
            ));
        }
        let timezone = TimeZone::get(&raw.timezone).map_err(|_| {
            invalid(
                format!("`{}` is not a known IANA time zone", raw.timezone),
                "use a name such as `UTC`, `Europe/Paris` or `Asia/Tokyo`",
            )
        })?;
        places::check(&raw.post_sections, &raw.permalink, &raw.taxonomies)
            .err()
            .or_else(|| Feeds::unknown_list(&raw.feeds_for, &raw.taxonomies))
            .map_or(Ok(()), |(message, help)| Err(invalid(message, &help)))?;
        check_sizes_and_names(&raw).map_err(|(message, help)| invalid(message, help))?;
        raw.highlight
            .check()
            .map_err(|(message, help)| invalid(message, &help))?;
        let languages = raw.languages.values().map(|l| &l.menus);
        menus::check_every(&raw.menus, languages)
            .map_err(|(message, help)| invalid(message, help))?;
        raw.check
            .check()
            .map_err(|(message, help)| invalid(message, &help))?;
        let images = raw.images.map(Images::new).transpose();
        let images = images.map_err(|(message, help)| invalid(message, &help))?;
        let base_url = raw.base_url.trim_end_matches('/').to_owned();
        let (origin, base_path) = split_base_url(&base_url);
        Ok(Config {
            title: raw.title,
            origin: origin.to_owned(),
            base_path: base_path.to_owned(),
            base_url,
            default_language,
            languages: raw.languages,
            timezone_name: raw.timezone,
            timezone,
            output_dir: raw.output_dir,
            default_language_in_subdir: raw.default_language_in_subdir,
            permalink: raw.permalink,
            post_sections: raw.post_sections,
            paginate: raw.paginate,
            taxonomies: raw.taxonomies,
            term_slugs: raw.term_slugs,
            feed_limit: raw.feed_limit,
            feeds: Feeds::new(raw.feeds, raw.feed_content, &raw.feeds_for),
            author: raw.author,
            publish: raw.publish,
            plugins: raw.plugins,
            description: raw.description,
            extra: raw.extra,
            theme_dir: raw.theme.map(|name| format!("{THEMES_DIR}/{name}")),
            markup: Markup {
                highlight: raw.highlight,
                math: raw.math,
                markdown: raw.markdown,
            },
            links: raw.links,
            menus: raw.menus,
            check: raw.check,
            minify: raw.minify,
            images,
            digest: crate::model::hash::source_hash(text.as_bytes()),
        })
    }

    /// Whether the folder `name`, first under a language's place, holds
    /// posts.
    pub fn is_post_section(&self, name: &str) -> bool {
        self.post_sections.iter().any(|section| section == name)
    }

    /// Whether `code` is a declared language.
    pub fn is_language(&self, code: &str) -> bool {
        self.languages.contains_key(code)
    }

    /// The declared language codes, sorted.
    pub fn language_codes(&self) -> Vec<String> {
        self.languages.keys().cloned().collect()
    }

    /// Languages in display order: the default first, then by code.
    pub fn ordered_languages(&self) -> impl Iterator<Item = (&String, &Language)> {
        let default = self.languages.get_key_value(&self.default_language);
        default.into_iter().chain(
            self.languages
                .iter()
                .filter(|(code, _)| **code != self.default_language),
        )
    }

    /// The URL prefix of a language's pages: `/` or `/<code>/`, under the
    /// base path.
    pub fn language_root(&self, lang: &str) -> String {
        if lang == self.default_language && !self.default_language_in_subdir {
            format!("{}/", self.base_path)
        } else {
            format!("{}/{lang}/", self.base_path)
        }
    }

    /// A URL of the site as a path in the output folder's terms: without
    /// the base path (`/blog/fr/` is `/fr/`). `None` for a URL outside it.
    pub fn site_path<'u>(&self, url: &'u str) -> Option<&'u str> {
        let rest = url.strip_prefix(self.base_path.as_str())?;
        rest.starts_with('/').then_some(rest)
    }

    /// The site title as shown in `lang`.
    pub fn title_in(&self, lang: &str) -> &str {
        self.languages
            .get(lang)
            .and_then(|l| l.title.as_deref())
            .unwrap_or(&self.title)
    }

    /// The site's description as shown in `lang`.
    pub fn description_in(&self, lang: &str) -> Option<&str> {
        self.languages
            .get(lang)
            .and_then(|l| l.description.as_deref())
            .or(self.description.as_deref())
    }

    /// The menus of the pages of `lang`: the site's, each replaced by the
    /// language's own of its name.
    pub fn menus_in(&self, lang: &str) -> Menus {
        match self.languages.get(lang) {
            Some(language) => menus::merged(&self.menus, &language.menus),
            None => self.menus.clone(),
        }
    }

    /// The site's `[extra]` for the pages of `lang`: the language's own
    /// `[languages.<lang>.extra]` laid over it, table by table.
    pub fn extra_in(&self, lang: &str) -> toml::Table {
        let mut extra = self.extra.clone();
        if let Some(language) = self.languages.get(lang) {
            deep_merge(&mut extra, language.extra.clone());
        }
        extra
    }

    /// The settings that change what parsing a source yields (its language,
    /// date, url, row). When these differ from the ones the index was built with, every
    /// source is parsed again. They start with [`folio_settings`].
    pub(crate) fn content_settings(&self) -> String {
        let mut settings = format!(
            "{}; languages {}; timezone {}; default_language {}; default_language_in_subdir {}; permalink {}; post_sections {}; taxonomies {}; base_path {}; {}",
            folio_settings(),
            self.language_codes().join(","),
            self.timezone_name,
            self.default_language,
            self.default_language_in_subdir,
            self.permalink,
            self.post_sections.join(","),
            // Which fields are terms, and which are kept for templates.
            self.taxonomies.join(","),
            // Every URL a row holds starts with it.
            self.base_path,
            self.markup.settings(),
        );
        // Only when set, so that the sites that never set it keep the
        // settings their rows were derived with.
        if self.term_slugs != TermSlugs::Unicode {
            settings.push_str(&format!("; term_slugs {:?}", self.term_slugs));
        }
        settings
    }
}

/// Whether this build of folio has the features `raw` asks for.
fn built_with_what_it_asks(raw: &RawConfig) -> Result<(), (&'static str, &'static str)> {
    if raw.images.is_some() && !cfg!(feature = "images") {
        return Err((
            "`[images]` asks for image processing this build of folio was made without",
            "build folio with its `images` feature (the `folio` program has it), or remove `[images]`",
        ));
    }
    if raw.minify && !cfg!(feature = "minify") {
        return Err((
            "`minify = true` asks for minifiers this build of folio was made without",
            "build folio with its `minify` feature (the `folio` program has it), or remove `minify`",
        ));
    }
    Ok(())
}

/// What the folio binary itself brings to [`Config::content_settings`]:
/// its version, because the Markdown rendering rules come with it, and the
/// algorithm of `source_hash`, because a folio that stored BLAKE3 there
/// wrote 64 hex digits like SHA-256's, and only a new reading of every
/// source tells them apart.
pub fn folio_settings() -> String {
    format!("folio {}, source_hash sha256", env!("CARGO_PKG_VERSION"))
}

/// Whether content settings an index stored were made by this folio: they
/// start with its [`folio_settings`], as [`Config::content_settings`] writes them.
pub fn made_by_this_folio(content_settings: &str) -> bool {
    content_settings
        .strip_prefix(&folio_settings())
        .is_some_and(|rest| rest.starts_with("; "))
}

/// The text direction of a language, from its primary subtag.
pub fn text_direction(code: &str) -> &'static str {
    const RTL: &[&str] = &[
        "ar", "arc", "ckb", "dv", "fa", "he", "iw", "ks", "ku", "ps", "sd", "ug", "ur", "yi",
    ];
    let primary = code.split('-').next().unwrap_or(code).to_ascii_lowercase();
    if RTL.contains(&primary.as_str()) {
        "rtl"
    } else {
        "ltr"
    }
}

/// `https://host/path` as (`https://host`, `/path`); the path is empty for
/// a site at the root of its host.
fn split_base_url(base_url: &str) -> (&str, &str) {
    let after_scheme = base_url.find("://").map_or(0, |at| at + 3);
    match base_url[after_scheme..].find('/') {
        Some(at) => base_url.split_at(after_scheme + at),
        None => (base_url, ""),
    }
}

/// The settings checked on their own: counts, the theme's and the output
/// folder's names, the publish schema. The error's message and help.
fn check_sizes_and_names(raw: &RawConfig) -> Result<(), (String, &'static str)> {
    if let Some(theme) = &raw.theme
        && (theme.is_empty() || theme.starts_with('.') || theme.contains(['/', '\\']))
    {
        return Err((
            format!("theme `{theme}` is not a folder name"),
            "name a folder of themes/, such as `theme = \"plain\"`",
        ));
    }
    if raw.paginate == 0 || raw.feed_limit == 0 {
        return Err((
            "paginate and feed_limit must be at least 1".into(),
            "leave them out for the defaults (10 and 20)",
        ));
    }
    if raw.output_dir.as_os_str().is_empty() {
        return Err(("output_dir is empty".into(), "leave it out to use `public`"));
    }
    if raw.publish.schema() == "public" {
        return Err((
            "publish.schema: `public` is every program's schema, and folio deletes from its own what the site no longer publishes".into(),
            "give folio a schema of its own, e.g. `folio` (the default) or `blog`",
        ));
    }
    if !is_identifier(raw.publish.schema()) {
        return Err((
            format!(
                "publish.schema: `{}` is not a schema name folio uses",
                raw.publish.schema()
            ),
            "use lower-case letters, digits and `_`, starting with a letter, at most 63 characters, e.g. `folio` or `blog_fr`",
        ));
    }
    Ok(())
}

/// A name PostgreSQL takes unquoted and keeps as written: folio writes it
/// into its statements, so nothing else may pass.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && name.len() <= 63
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// A BCP 47-shaped code: 2–3 letters, then `-`-separated alphanumeric subtags.
/// Codes become path components, so this is also what keeps them confined.
pub fn is_language_code(code: &str) -> bool {
    let mut parts = code.split('-');
    let primary = parts.next().unwrap_or("");
    (2..=3).contains(&primary.len())
        && primary.bytes().all(|b| b.is_ascii_alphabetic())
        && parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The TOML reader's `message`, saying which key or table it is about
/// when it points within one line (`title = [1]`): its messages about a
/// value's type ("invalid type: sequence, expected a string") or a repeated
/// table ("duplicate key") do not.
fn with_key(message: &str, text: &str, span: Option<std::ops::Range<usize>>) -> String {
    let Some(span) = span.filter(|span| span.end <= text.len()) else {
        return message.to_owned();
    };
    let one_line = !text[span.clone()].trim().contains('\n');
    if !one_line || message.starts_with("missing field") {
        return message.to_owned();
    }
    let line_start = text[..span.start].rfind('\n').map_or(0, |at| at + 1);
    let line = text[line_start..].lines().next().unwrap_or("").trim();
    let key = match line.strip_prefix('[') {
        Some(_) => line.find(']').map_or(line, |end| &line[..=end]),
        None => line.split_once('=').map_or("", |(key, _)| key.trim()),
    };
    if key.is_empty() || message.contains(&format!("`{key}`")) {
        message.to_owned()
    } else {
        format!("`{key}`: {message}")
    }
}

/// `<root>/site.toml`, as messages name it, and its text.
fn read_site_toml(root: &Path) -> Result<(PathBuf, String), Error> {
    // `site.toml` rather than `./site.toml` in messages when folio runs
    // in the site root, as content files are named from it.
    let path = root.join(CONFIG_FILE);
    let path = path.strip_prefix(".").map_or(path.clone(), Path::to_owned);
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::Config {
            path: path.clone(),
            line: None,
            message: "no site.toml here; this folder is not a folio site".into(),
            help: "run folio from the site root, or pass --root DIR".into(),
        },
        _ => Error::io(&path, e),
    })?;
    Ok((path, text))
}

/// What the toml reader said is wrong with `text`, the file at `path`,
/// with its line and the key it is about.
fn toml_error(path: &Path, text: &str, e: &toml::de::Error) -> Error {
    Error::Config {
        path: path.to_owned(),
        line: e.span().map(|span| line_of_offset(text, span.start)),
        message: with_key(e.message().trim(), text, e.span()),
        help: "see docs/configuration.md for the keys site.toml takes".into(),
    }
}

pub(crate) fn line_of_offset(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_of_one_language_needs_only_a_title_and_a_base_url() {
        let config = Config::parse(
            "title = \"T\"\nbase_url = \"https://example.org\"\n",
            Path::new("site.toml"),
        )
        .unwrap();
        assert_eq!(config.default_language, "en");
        assert_eq!(config.language_codes(), ["en"]);
        let config = Config::parse(
            "title = \"T\"\nbase_url = \"https://example.org\"\n[languages.fr]\n",
            Path::new("site.toml"),
        )
        .unwrap();
        assert_eq!(config.default_language, "fr");
        assert_eq!(config.languages["fr"].name, "fr");
    }

    #[test]
    fn every_missing_key_is_named_in_one_error() {
        let said = Config::parse("[languages.en]\n[languages.fr]\n", Path::new("site.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            said.contains("`title`, `base_url` and `default_language` are missing"),
            "{said}"
        );
        assert!(
            said.contains("base_url = \"https://example.org\""),
            "{said}"
        );
        let said = Config::parse("title = \"T\"\n", Path::new("site.toml"))
            .unwrap_err()
            .to_string();
        assert!(said.contains("`base_url` is missing"), "{said}");
    }

    const MINIMAL: &str = r#"
title = "T"
base_url = "https://example.org/"
default_language = "en"
[languages.en]
name = "English"
[languages.fr]
name = "Français"
title = "T (fr)"
"#;

    fn parse(text: &str) -> Result<Config, Error> {
        Config::parse(text, Path::new("site.toml"))
    }

    #[test]
    fn minify_is_read_where_the_minifiers_are_built_in_and_refused_where_not() {
        assert!(!parse(MINIMAL).unwrap().minify);
        let asked = parse(&format!("minify = true\n{MINIMAL}"));
        if cfg!(feature = "minify") {
            assert!(asked.unwrap().minify);
        } else {
            let said = asked.unwrap_err().to_string();
            assert!(said.contains("`minify` feature"), "{said}");
        }
    }

    #[test]
    fn defaults_apply_and_base_url_loses_its_trailing_slash() {
        let config = parse(MINIMAL).unwrap();
        assert_eq!(config.base_url, "https://example.org");
        assert_eq!(config.timezone_name, "UTC");
        assert_eq!(config.output_dir, PathBuf::from("public"));
        assert_eq!(config.language_root("en"), "/");
        assert_eq!(config.language_root("fr"), "/fr/");
        assert_eq!(config.title_in("fr"), "T (fr)");
        assert_eq!(config.title_in("en"), "T");
    }

    #[test]
    fn unknown_key_is_an_error_naming_the_key_and_line() {
        let err = parse(&format!(
            "{MINIMAL}\n[languages.de]\nname = \"Deutsch\"\ncolour = 1\n"
        ))
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("colour"), "{text}");
        assert!(text.starts_with("site.toml:13:"), "{text}");
    }

    #[test]
    fn undeclared_default_language_and_bad_timezone_are_refused() {
        let text = MINIMAL.replace("default_language = \"en\"", "default_language = \"de\"");
        assert!(parse(&text).unwrap_err().to_string().contains("`de`"));
        let text = format!("timezone = \"Mars/Olympus\"\n{MINIMAL}");
        assert!(
            parse(&text)
                .unwrap_err()
                .to_string()
                .contains("Mars/Olympus")
        );
    }

    #[test]
    fn a_theme_is_a_folder_of_themes_and_nothing_beyond() {
        let theme = |name: &str| parse(&format!("theme = \"{name}\"\n{MINIMAL}"));
        assert_eq!(
            theme("plain").unwrap().theme_dir.as_deref(),
            Some("themes/plain")
        );
        assert_eq!(parse(MINIMAL).unwrap().theme_dir, None);
        for outside in ["", "..", "../x", "a/b", ".hidden", "a\\\\b"] {
            let said = theme(outside).unwrap_err().to_string();
            assert!(said.contains("is not a folder name"), "{outside}: {said}");
        }
    }

    #[test]
    fn a_database_url_in_site_toml_is_not_shown_by_debug() {
        let config = parse(&format!(
            "{MINIMAL}\n[publish]\ndatabase = \"postgres://ann:hunter2@db/blog\"\n"
        ))
        .unwrap();
        assert!(!format!("{config:?}").contains("hunter2"));
    }

    #[test]
    fn the_publish_schema_is_a_plain_name_and_folio_by_default() {
        assert_eq!(parse(MINIMAL).unwrap().publish.schema(), "folio");
        let with = |schema: &str| parse(&format!("{MINIMAL}\n[publish]\nschema = \"{schema}\"\n"));
        assert_eq!(with("blog_fr").unwrap().publish.schema(), "blog_fr");
        assert!(with("public").is_err());
        for bad in ["Blog", "1blog", "blog; DROP TABLE x", "", &"a".repeat(64)] {
            let error = with(bad).unwrap_err().to_string();
            assert!(
                error.contains("is not a schema name folio uses"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn language_codes_must_be_path_safe() {
        assert!(is_language_code("en"));
        assert!(is_language_code("pt-BR"));
        assert!(is_language_code("zh-Hant"));
        assert!(!is_language_code("../x"));
        assert!(!is_language_code("english"));
        assert!(!is_language_code(""));
        let text = MINIMAL.replace("[languages.fr]", "[languages.\"..\"]");
        assert!(parse(&text).is_err());
    }

    #[test]
    fn a_permalink_s_mistake_is_named() {
        let text = format!("permalink = \"/{{title}}/\"\n{MINIMAL}");
        assert!(parse(&text).unwrap_err().to_string().contains("{title}"));
    }

    #[test]
    fn rtl_languages_are_detected_by_primary_subtag() {
        assert_eq!(text_direction("ar"), "rtl");
        assert_eq!(text_direction("he-IL"), "rtl");
        assert_eq!(text_direction("fr"), "ltr");
        assert_eq!(text_direction("ja"), "ltr");
    }
}
