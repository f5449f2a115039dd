//! What the old site's configuration says that its templates read, carried
//! into `site.toml`: its taxonomies, its menus and its own settings
//! (Hugo's `params`, Zola's `[extra]`, a Jekyll site's keys of its own),
//! for the site's and each language's.

use std::collections::BTreeMap;

use serde_json::Value;

/// The settings carried over.
#[derive(Debug, Default, Clone)]
pub(super) struct Carried {
    /// The taxonomies posts are grouped by, when not folio's default
    /// (`tags`).
    pub taxonomies: Option<Vec<String>>,
    /// Each menu's entries: name, URL, weight, parent.
    pub menus: BTreeMap<String, Vec<Value>>,
    /// The site's own settings (`[extra]`).
    pub extra: serde_json::Map<String, Value>,
    /// Each language's own settings, laid over them.
    pub language_extra: BTreeMap<String, serde_json::Map<String, Value>>,
    /// Each language's own menus, which replace the site's on its pages.
    pub language_menus: BTreeMap<String, BTreeMap<String, Vec<Value>>>,
}

/// Jekyll's own settings, which `[extra]` does not carry: folio says them
/// its way, or they are how Jekyll builds.
const JEKYLL_SETTINGS: &[&str] = &[
    "title",
    "url",
    "baseurl",
    "permalink",
    "timezone",
    "lang",
    "default_lang",
    "defaults",
    "collections",
    "include",
    "exclude",
    "keep_files",
    "plugins",
    "gems",
    "markdown",
    "kramdown",
    "highlighter",
    "sass",
    "encoding",
    "paginate",
    "paginate_path",
    "future",
    "show_drafts",
    "unpublished",
    "liquid",
    "feed",
    "whitelist",
    "theme",
    "remote_theme",
    "safe",
    "source",
    "destination",
    "data_dir",
    "layouts_dir",
    "includes_dir",
    "port",
    "host",
    "livereload",
    "incremental",
    "strict_front_matter",
    "excerpt_separator",
];

impl Carried {
    /// Jekyll: the keys of `_config.yml` that are the site's own, and the
    /// `main` navigation of `_data/navigation.yml` (the menu Jekyll themes
    /// read) as `menus.main`.
    pub(super) fn jekyll(config: &Value, navigation: Option<&Value>) -> Carried {
        let mut carried = Carried::default();
        for (key, value) in config.as_object().into_iter().flatten() {
            if !JEKYLL_SETTINGS.contains(&key.as_str()) {
                carried.extra.insert(key.clone(), value.clone());
            }
        }
        // Themes write a URL under the site's `baseurl` (`relative_url`).
        let base = config
            .get("baseurl")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim_end_matches('/');
        for (menu, entries) in navigation.and_then(Value::as_object).into_iter().flatten() {
            let mut folio = Vec::new();
            for entry in entries.as_array().into_iter().flatten() {
                navigation_entry(entry, (base, None), &mut folio);
            }
            if !folio.is_empty() {
                carried.menus.insert(menu.clone(), folio);
            }
        }
        carried
    }

    /// Hugo: `[taxonomies]` (singular = plural; Hugo's own are `tags` and
    /// `categories`, none when `disableKinds` leaves them out), `[menus]`
    /// (or `[menu]`), `[params]`, each language's `params` and `menus`.
    pub(super) fn hugo(config: &Value) -> Carried {
        let disabled = config
            .get("disableKinds")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        let no_terms = disabled
            .filter_map(Value::as_str)
            .any(|kind| kind.eq_ignore_ascii_case("taxonomy"));
        let taxonomies: Vec<String> = match config.get("taxonomies").and_then(Value::as_object) {
            _ if no_terms => Vec::new(),
            Some(map) => map
                .values()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            None => vec!["tags".to_owned(), "categories".to_owned()],
        };
        let mut carried = Carried {
            taxonomies: (taxonomies != ["tags"]).then_some(taxonomies),
            menus: hugo_menus(config),
            extra: params(config),
            ..Carried::default()
        };
        for (lang, table) in config
            .get("languages")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            let own = params(table);
            if !own.is_empty() {
                carried
                    .language_extra
                    .insert(super::language_code(lang), own);
            }
        }
        carried
    }

    /// Zola: its taxonomies (by name), and `[extra]`.
    pub(super) fn zola(config: &Value) -> Carried {
        let names = config
            .get("taxonomies")
            .and_then(Value::as_array)
            .into_iter()
            .flatten();
        let taxonomies: Vec<String> = names
            .filter_map(|t| t.get("name").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        Carried {
            taxonomies: (taxonomies != ["tags"]).then_some(taxonomies),
            extra: config
                .get("extra")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default(),
            ..Carried::default()
        }
    }

    /// The lines of `site.toml` that say it: `taxonomies` (a top-level
    /// key), then the tables.
    pub(super) fn toml(&self) -> (String, String) {
        let mut top = String::new();
        if let Some(taxonomies) = &self.taxonomies {
            let names: Vec<String> = taxonomies
                .iter()
                .map(|t| toml::Value::String(t.clone()).to_string())
                .collect();
            top.push_str(&format!("taxonomies = [{}]\n", names.join(", ")));
        }
        let mut tables = toml::Table::new();
        if !self.extra.is_empty() {
            tables.insert("extra".into(), toml_of(&Value::Object(self.extra.clone())));
        }
        if !self.menus.is_empty() {
            let menus = self
                .menus
                .iter()
                .map(|(name, entries)| (name.clone(), toml_of(&Value::Array(entries.clone()))));
            tables.insert("menus".into(), toml::Value::Table(menus.collect()));
        }
        let mut text = String::new();
        if !tables.is_empty() {
            text.push_str("\n# The old site's own settings, for templates.\n");
            text.push_str(&toml::to_string(&tables).unwrap_or_default());
        }
        (top, text)
    }

    /// `[languages.<lang>.extra]` for `lang`, when it has its own.
    pub(super) fn language_toml(&self, lang: &str) -> String {
        let mut table = toml::Table::new();
        if let Some(extra) = self.language_extra.get(lang) {
            table.insert("extra".into(), toml_of(&Value::Object(extra.clone())));
        }
        if let Some(menus) = self.language_menus.get(lang) {
            let menus = menus
                .iter()
                .map(|(name, entries)| (name.clone(), toml_of(&Value::Array(entries.clone()))));
            table.insert("menus".into(), toml::Value::Table(menus.collect()));
        }
        if table.is_empty() {
            return String::new();
        }
        let mut wrapped = toml::Table::new();
        wrapped.insert(lang.to_owned(), toml::Value::Table(table));
        let mut languages = toml::Table::new();
        languages.insert("languages".into(), toml::Value::Table(wrapped));
        toml::to_string(&languages).unwrap_or_default()
    }
}

/// A Jekyll navigation entry (`title`, `url`, `children`) as folio's menu
/// entries, under `parent`; a heading without a URL leaves its children at
/// its level.
fn navigation_entry(entry: &Value, (base, parent): (&str, Option<&Value>), folio: &mut Vec<Value>) {
    let name = entry.get("title").or_else(|| entry.get("name"));
    let url = entry
        .get("url")
        .and_then(Value::as_str)
        .map(|url| match url.starts_with('/') {
            true => format!("{base}{url}"),
            false => url.to_owned(),
        });
    let linked = match (name, url) {
        (Some(name), Some(url)) => {
            let mut item = serde_json::json!({ "name": name, "url": url });
            if let Some(parent) = parent {
                item["parent"] = parent.clone();
            }
            folio.push(item);
            Some(name)
        }
        _ => None,
    };
    for child in entry
        .get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        navigation_entry(child, (base, linked.or(parent)), folio);
    }
}

/// Hugo's `params` of a table (the site's, a language's).
fn params(table: &Value) -> serde_json::Map<String, Value> {
    table
        .get("params")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// Hugo's site menus (`[[menus.main]]`, `[[menu.main]]`), as folio's
/// entries: name, URL (`pageRef` is a document, `url` any), weight, parent.
fn hugo_menus(config: &Value) -> BTreeMap<String, Vec<Value>> {
    let menus = config
        .get("menus")
        .or_else(|| config.get("menu"))
        .and_then(Value::as_object);
    let mut carried = BTreeMap::new();
    for (menu, entries) in menus.into_iter().flatten() {
        let entries = entries
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|entry| {
                let name = entry.get("name")?;
                let url = match (
                    entry.get("url"),
                    entry.get("pageRef").and_then(Value::as_str),
                ) {
                    (Some(url), _) => url.clone(),
                    (None, Some(page)) => {
                        Value::String(format!("@/{}", page.trim_start_matches('/')))
                    }
                    (None, None) => return None,
                };
                let mut folio = serde_json::json!({ "name": name, "url": url });
                for key in ["weight", "parent", "identifier"] {
                    if let Some(value) = entry.get(key) {
                        folio[key] = value.clone();
                    }
                }
                Some(folio)
            });
        carried.insert(menu.clone(), entries.collect());
    }
    carried
}

/// A JSON value as TOML: nulls, which TOML has not, left out.
fn toml_of(value: &Value) -> toml::Value {
    match value {
        Value::Bool(b) => toml::Value::Boolean(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => toml::Value::Integer(i),
            None => toml::Value::Float(n.as_f64().unwrap_or_default()),
        },
        Value::String(s) => toml::Value::String(s.clone()),
        Value::Array(items) => {
            toml::Value::Array(items.iter().filter(|v| !v.is_null()).map(toml_of).collect())
        }
        Value::Object(map) => toml::Value::Table(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), toml_of(v)))
                .collect(),
        ),
        Value::Null => toml::Value::String(String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugo_s_taxonomies_menus_and_params_are_said_in_site_toml() {
        let config = serde_json::json!({
            "taxonomies": {"tag": "tags", "series": "series"},
            "menus": {"main": [{"name": "Docs", "pageRef": "/docs", "weight": 2}, {"name": "Blog", "url": "/blog/"}]},
            "params": {"release": "Halley", "social": {"mastodon": "@x"}, "none": null},
            "languages": {"fr": {"params": {"release": "Halley FR"}}, "en": {}},
        });
        let carried = Carried::hugo(&config);
        let (top, tables) = carried.toml();
        assert_eq!(top, "taxonomies = [\"series\", \"tags\"]\n");
        let parsed: toml::Table = toml::from_str(&tables).unwrap();
        assert_eq!(parsed["extra"]["release"].as_str(), Some("Halley"));
        assert!(parsed["extra"].get("none").is_none());
        assert_eq!(parsed["menus"]["main"][0]["url"].as_str(), Some("@/docs"));
        assert!(carried.language_toml("fr").contains("[languages.fr.extra]"));
        assert_eq!(carried.language_toml("en"), "");
        // Hugo's defaults, and none when its taxonomy pages are off.
        assert_eq!(
            Carried::hugo(&serde_json::json!({})).taxonomies,
            Some(vec!["tags".into(), "categories".into()])
        );
        let off = serde_json::json!({"disableKinds": ["taxonomy", "taxonomyTerm"]});
        assert_eq!(Carried::hugo(&off).taxonomies, Some(Vec::new()));
    }

    #[test]
    fn a_jekyll_site_s_own_keys_and_navigation_are_said_in_site_toml() {
        let config =
            serde_json::json!({"title": "x", "baseurl": "/mm", "skin": "dark", "exclude": ["a"]});
        let navigation = serde_json::json!({
            "main": [{"title": "About", "url": "/about/"}, {"title": "Out", "url": "https://x.org/"}],
            "docs": [{"title": "Getting Started", "children": [{"title": "Setup", "url": "/docs/setup/"}]},
                     {"title": "Guide", "url": "/docs/", "children": [{"title": "One", "url": "/docs/one/"}]}],
            "empty": [],
        });
        let carried = Carried::jekyll(&config, Some(&navigation));
        assert_eq!(carried.extra.keys().collect::<Vec<_>>(), ["skin"]);
        assert_eq!(carried.menus.keys().collect::<Vec<_>>(), ["docs", "main"]);
        assert_eq!(
            carried.menus["main"][0],
            serde_json::json!({"name": "About", "url": "/mm/about/"})
        );
        assert_eq!(carried.menus["main"][1]["url"], "https://x.org/");
        // A heading without a URL leaves its children at its level; a
        // linked one is their parent.
        assert_eq!(
            carried.menus["docs"][0],
            serde_json::json!({"name": "Setup", "url": "/mm/docs/setup/"})
        );
        assert_eq!(carried.menus["docs"][2]["parent"], "Guide");
    }
}
