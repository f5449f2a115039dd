//! What a Jekyll site gives the Liquid of its documents: `site` (its
//! `_config.yml` and `_data/`), its `_includes/`, the folio shortcodes that
//! do what some includes did, and where the import wrote each document,
//! for `{% post_url %}` and `{% link %}`.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use super::liquid::{Site, relative_url};
use super::{Source, yaml_map};
use crate::model::error::Error;

pub(super) struct JekyllSite {
    site: Value,
    includes: BTreeMap<String, String>,
    /// A post's file name without extension (`2010-09-09-gallery`), and a
    /// document's path in the site (`_docs/17-javascript.md`), to the `@/`
    /// path the import wrote it at.
    pub documents: BTreeMap<String, String>,
}

impl JekyllSite {
    /// The site's `site` object and its includes; `config` is
    /// `_config.yml` read.
    pub(super) fn read(source: &Source, config: &Value) -> Result<JekyllSite, Error> {
        let mut site = config.clone();
        if !site.is_object() {
            site = Value::Object(Map::new());
        }
        let data = read_data(source, &source.root().join("_data"))?;
        site["data"] = Value::Object(data);
        let mut includes = BTreeMap::new();
        let folder = source.root().join("_includes");
        if source.has_folder(&folder) {
            for entry in source.walk(&folder)? {
                let entry = entry.map_err(|e| Error::io(&folder, std::io::Error::other(e)))?;
                if entry.file_type().is_file() {
                    let name = entry.path().strip_prefix(&folder).unwrap_or(entry.path());
                    let name = name.to_string_lossy().replace('\\', "/");
                    includes.insert(name, source.read(entry.path())?.replace("\r\n", "\n"));
                }
            }
        }
        Ok(JekyllSite {
            site,
            includes,
            documents: BTreeMap::new(),
        })
    }
}

/// `_data/`: each YAML or JSON file under its name, folders as objects.
fn read_data(source: &Source, folder: &Path) -> Result<Map<String, Value>, Error> {
    let mut data = Map::new();
    if !source.has_folder(folder) {
        return Ok(data);
    }
    for entry in source.entries(folder)? {
        let path = entry.path();
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if entry.file_type().is_dir() {
            data.insert(name, Value::Object(read_data(source, path)?));
            continue;
        }
        let value = match path.extension().and_then(|e| e.to_str()) {
            Some("yml" | "yaml") => yaml_map(&source.read(path)?),
            Some("json") => serde_json::from_str(&source.read(path)?).ok(),
            _ => None,
        };
        if let Some(value) = value {
            data.insert(name, value);
        }
    }
    Ok(data)
}

impl JekyllSite {
    /// A file of `_data/` by its name (`navigation` is `navigation.yml`).
    pub(super) fn data(&self, name: &str) -> Option<Value> {
        self.site.get("data")?.get(name).cloned()
    }
}

impl Site for JekyllSite {
    fn site(&self) -> &Value {
        &self.site
    }

    fn include(&self, name: &str) -> Option<String> {
        self.includes.get(name).cloned()
    }

    fn shortcode(&self, name: &str, params: &Map<String, Value>) -> Option<String> {
        let text = |key: &str| {
            params
                .get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        let quoted = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
        match name.trim_end_matches(".html") {
            // Minimal Mistakes' and many themes' `video`: folio's own
            // players for the providers it has.
            "video" => {
                let id = quoted(text("id")?);
                match text("provider")? {
                    "youtube" => Some(format!("{{{{ youtube(id={id}) }}}}")),
                    "vimeo" => Some(format!("{{{{ vimeo(id={id}) }}}}")),
                    _ => None,
                }
            }
            // A figure whose caption is plain text: folio's `figure` shows
            // it as written (one with Markdown is the include's to write).
            "figure" => {
                let src = text("image_path").or_else(|| text("src"))?;
                let mut args = vec![format!("src={}", quoted(&relative_url(src, &self.site)))];
                for (key, arg) in [("alt", "alt"), ("caption", "caption"), ("class", "class")] {
                    if let Some(value) = text(key) {
                        if value.contains(['*', '_', '[', '`', '<']) {
                            return None;
                        }
                        args.push(format!("{arg}={}", quoted(value)));
                    }
                }
                Some(format!("{{{{ figure({}) }}}}", args.join(", ")))
            }
            // The theme's table of contents stands for the include's.
            "toc" => Some(String::new()),
            _ => None,
        }
    }

    fn document_link(&self, _tag: &str, argument: &str) -> Option<String> {
        let key = argument.trim().trim_start_matches('/');
        self.documents.get(key).map(|path| format!("@/{path}"))
    }
}
