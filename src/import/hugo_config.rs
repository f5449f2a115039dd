//! Hugo's configuration as Hugo reads it: `hugo.toml` (or `config.*`, in
//! TOML, YAML or JSON) at the site's root, or the folder
//! `config/_default/` whose files are its keys (`languages.toml`,
//! `params.toml`, `menus.en.toml` for one language), every folder it names
//! checked to be inside the site.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::feeds::{self, OldFeeds};
use super::{Source, checked_language, scalar_text, yaml_map};
use crate::model::error::Error;

/// What folio takes from Hugo's configuration.
pub(super) struct HugoConfig {
    pub(super) title: String,
    pub(super) base_url: String,
    pub(super) default_language: String,
    pub(super) in_subdir: bool,
    /// Per language (as written), its content folder when it has one,
    /// checked to be inside the site.
    pub(super) content_dirs: BTreeMap<String, Option<PathBuf>>,
    /// The site's `contentDir` (`content/` unless it names another): the
    /// folder of the languages without one of their own.
    pub(super) content_dir: PathBuf,
    /// Per section, its URL pattern.
    pub(super) permalinks: BTreeMap<String, String>,
    pub(super) lowercase: bool,
    /// `uglyURLs`: for the whole site, or per section (`/x.html` rather
    /// than `/x/`).
    pub(super) ugly: (bool, BTreeMap<String, bool>),
    pub(super) feeds: Option<OldFeeds>,
    /// Where a page's date comes from, the first found: front matter keys,
    /// or `:filename` (`[frontmatter] date`).
    pub(super) date_sources: Vec<String>,
    /// The languages Hugo builds nothing of (`disableLanguages`).
    pub(super) disabled: Vec<String>,
    /// Its taxonomies, menus and `params`, for site.toml.
    pub(super) carried: super::carried::Carried,
    /// `params`, which `{{< param >}}` reads after the page's own.
    pub(super) params: Value,
    /// Where it was read, relative to the site.
    pub(super) file: String,
    /// Its files copied as they are (`staticDir`, `static/` unless it
    /// names another), checked to be inside the site.
    pub(super) static_dir: PathBuf,
}

impl HugoConfig {
    pub(super) fn read(source: &Source) -> Result<HugoConfig, Error> {
        let folder = source.root().join("config/_default");
        let root_file = CONFIG_NAMES
            .iter()
            .map(|name| source.root().join(name))
            .find(|path| source.has_file(path));
        let has_folder = source.has_folder(&folder);
        let (mut config, path) = match (root_file, has_folder) {
            (Some(path), _) => (read_config_file(source, &path)?, path),
            (None, true) => (
                Value::Object(serde_json::Map::new()),
                folder.join("hugo.toml"),
            ),
            (None, false) => {
                return Err(Error::Config {
                    path: source.root().join("hugo.toml"),
                    line: None,
                    message: "no Hugo configuration here (hugo.toml, config.toml, .yaml or .json, or config/_default/)".into(),
                    help: "name the folder of the Hugo site, the one `hugo` builds".into(),
                });
            }
        };
        if has_folder {
            merge_config_folder(source, &folder, &mut config)?;
        }
        let languages_file = match source.has_file(&folder.join("languages.toml")) {
            true => folder.join("languages.toml"),
            false => path.clone(),
        };
        let text = |key: &str| config.get(key).and_then(scalar_text);
        let languages = config.get("languages").and_then(Value::as_object);
        let content_dirs = content_dirs(source, languages, &languages_file)?;
        let content_dir = match text("contentDir") {
            Some(dir) => source.configured_folder(&dir, &path, "contentDir")?,
            None => source.root().join("content"),
        };
        let default_language = text("defaultContentLanguage").unwrap_or_else(|| "en".into());
        checked_language(&default_language, &path, "defaultContentLanguage")?;
        let permalinks = config
            .get("permalinks")
            .and_then(Value::as_object)
            .map(|map| {
                map.iter()
                    .filter_map(|(section, pattern)| Some((section.clone(), scalar_text(pattern)?)))
                    .collect()
            })
            .unwrap_or_default();
        Ok(HugoConfig {
            title: text("title").unwrap_or_else(|| "Imported site".into()),
            base_url: text("baseURL")
                .or_else(|| text("baseurl"))
                .unwrap_or_else(|| "https://example.org".into()),
            default_language,
            in_subdir: config
                .get("defaultContentLanguageInSubdir")
                .and_then(Value::as_bool)
                == Some(true),
            content_dirs,
            content_dir,
            permalinks,
            lowercase: config.get("disablePathToLower").and_then(Value::as_bool) != Some(true),
            ugly: match config.get("uglyURLs").or_else(|| config.get("uglyurls")) {
                Some(Value::Bool(all)) => (*all, BTreeMap::new()),
                Some(Value::Object(sections)) => {
                    let each = sections
                        .iter()
                        .filter_map(|(s, v)| Some((s.clone(), v.as_bool()?)));
                    (false, each.collect())
                }
                _ => (false, BTreeMap::new()),
            },
            feeds: feeds::hugo(&config),
            date_sources: date_sources(&config),
            carried: super::carried::Carried::hugo(&config),
            params: config.get("params").cloned().unwrap_or(Value::Null),
            file: source.relative(&path),
            static_dir: match text("staticDir") {
                Some(dir) => source.configured_folder(&dir, &path, "staticDir")?,
                None => source.root().join("static"),
            },
            disabled: config
                .get("disableLanguages")
                .and_then(Value::as_array)
                .map(|codes| codes.iter().filter_map(scalar_text).collect())
                .unwrap_or_default(),
        })
    }

    /// The taxonomies of the site (`tags`, unless it says others).
    pub(super) fn taxonomies(&self) -> impl Iterator<Item = &str> {
        let default: &[String] = &[];
        let named = self.carried.taxonomies.as_deref();
        named
            .unwrap_or(default)
            .iter()
            .map(String::as_str)
            .chain(named.is_none().then_some("tags"))
    }

    /// Whether the pages of the section `top` have Hugo's ugly URLs.
    pub(super) fn ugly_in(&self, top: &str) -> bool {
        self.ugly.1.get(top).copied().unwrap_or(self.ugly.0)
    }

    /// The prefix of `lang`'s URLs: none for the default language at the
    /// root.
    pub(super) fn prefix(&self, lang: &str) -> String {
        if lang == self.default_language && !self.in_subdir {
            String::new()
        } else {
            format!("/{}", lang.to_lowercase())
        }
    }
}

/// Each language's content folder, if it has one, checked to be inside
/// the site; and each language checked to be a language code, since it
/// becomes a folder name. `file` is where the languages were read.
fn content_dirs(
    source: &Source,
    languages: Option<&serde_json::Map<String, Value>>,
    file: &Path,
) -> Result<BTreeMap<String, Option<PathBuf>>, Error> {
    let mut dirs = BTreeMap::new();
    for (code, table) in languages.into_iter().flatten() {
        checked_language(code, file, &format!("languages.{code}"))?;
        let dir = match table.get("contentDir").and_then(scalar_text) {
            Some(dir) => {
                let key = format!("languages.{code}.contentDir");
                Some(source.configured_folder(&dir, file, &key)?)
            }
            None => None,
        };
        dirs.insert(code.clone(), dir);
    }
    Ok(dirs)
}

fn read_config_file(source: &Source, path: &Path) -> Result<Value, Error> {
    let text = source.read(path)?;
    let parsed = match path.extension().and_then(|e| e.to_str()) {
        Some("toml") => toml::from_str::<toml::Table>(&text)
            .ok()
            .map(|table| json_of(toml::Value::Table(table))),
        Some("json") => serde_json::from_str(&text).ok(),
        _ => yaml_map(&text),
    };
    parsed.ok_or_else(|| Error::Config {
        path: path.to_owned(),
        line: None,
        message: "does not parse".into(),
        help: "fix it so that Hugo itself would read it".into(),
    })
}

/// Where a page's date comes from, the first found (`[frontmatter] date`),
/// Hugo's own list unless the site names one.
fn date_sources(config: &Value) -> Vec<String> {
    let named = config
        .pointer("/frontmatter/date")
        .and_then(Value::as_array);
    match named {
        Some(sources) => sources.iter().filter_map(scalar_text).collect(),
        None => [
            "date",
            "publishDate",
            "pubdate",
            "published",
            "lastmod",
            "modified",
        ]
        .map(String::from)
        .to_vec(),
    }
}

/// The names Hugo reads its configuration from, in its order.
const CONFIG_NAMES: &[&str] = &[
    "hugo.toml",
    "hugo.yaml",
    "hugo.yml",
    "hugo.json",
    "config.toml",
    "config.yaml",
    "config.yml",
    "config.json",
];

/// `config/_default/` laid under what the site's root file said: its
/// `hugo.*` (or `config.*`), then each other file as the key its name says
/// (`params.toml` is `params`), or that key of one language
/// (`menus.en.toml` is `languages.en.menus`). A key the root file sets wins.
fn merge_config_folder(source: &Source, folder: &Path, config: &mut Value) -> Result<(), Error> {
    for entry in source.entries(folder)? {
        let path = entry.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some((stem, extension)) = name.rsplit_once('.') else {
            continue;
        };
        if !entry.file_type().is_file() || !["toml", "yaml", "yml", "json"].contains(&extension) {
            continue;
        }
        let value = read_config_file(source, path)?;
        let layer = match stem.split_once('.') {
            _ if stem == "hugo" || stem == "config" => value,
            Some((key, lang)) => serde_json::json!({ "languages": { lang: { key: value } } }),
            None => serde_json::json!({ stem: value }),
        };
        lay_under(config, layer);
    }
    Ok(())
}

/// `under`'s keys where `over` has none, tables merged key by key.
fn lay_under(over: &mut Value, under: Value) {
    match (over, under) {
        (Value::Object(over), Value::Object(under)) => {
            for (key, value) in under {
                match over.get_mut(&key) {
                    Some(existing) => lay_under(existing, value),
                    None => {
                        over.insert(key, value);
                    }
                }
            }
        }
        (over @ Value::Null, under) => *over = under,
        _ => {}
    }
}

/// A TOML value as JSON, its dates as the text they were written as.
pub(super) fn json_of(value: toml::Value) -> Value {
    match value {
        toml::Value::String(s) => Value::String(s),
        toml::Value::Integer(i) => Value::from(i),
        toml::Value::Float(f) => Value::from(f),
        toml::Value::Boolean(b) => Value::Bool(b),
        toml::Value::Datetime(d) => Value::String(d.to_string()),
        toml::Value::Array(items) => Value::Array(items.into_iter().map(json_of).collect()),
        toml::Value::Table(table) => {
            Value::Object(table.into_iter().map(|(k, v)| (k, json_of(v))).collect())
        }
    }
}

/// The folders holding content, each with the language all its files are
/// in (a `contentDir`), or `None` for the shared `content/` whose files say
/// theirs by name.
pub(super) fn content_roots(config: &HugoConfig) -> Vec<(PathBuf, Option<String>)> {
    let mut roots: Vec<(PathBuf, Option<String>)> = config
        .content_dirs
        .iter()
        .filter_map(|(lang, dir)| Some((dir.clone()?, Some(lang.clone()))))
        .collect();
    // The site's `contentDir` holds the languages without a folder of
    // their own.
    let all_have_one =
        !config.content_dirs.is_empty() && config.content_dirs.values().all(Option::is_some);
    if !all_have_one {
        roots.push((config.content_dir.clone(), None));
    }
    roots
}
