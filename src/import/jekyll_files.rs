//! Which files of a Jekyll site are documents, and of what kind: posts
//! (`_posts/`), the documents of collections Jekyll writes (`output:
//! true`), and pages (a file with front matter outside the `_` folders
//! `include` does not name); and the URL Jekyll gives a page or a
//! collection's document that names none.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use super::Source;
use crate::model::error::Error;
use crate::model::url::collapse_slashes;

/// What a document is to Jekyll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Kind {
    Post,
    Page,
    /// A document of the collection so named, whose documents Jekyll gives
    /// the URL pattern `permalink` when they name none.
    Collection {
        name: String,
        permalink: String,
    },
}

impl Kind {
    /// The folder of a language's content it is written in, and the
    /// `scope: type` of Jekyll's `defaults` it answers to.
    pub(super) fn folder(&self) -> &str {
        match self {
            Kind::Post => "posts",
            Kind::Page => "pages",
            Kind::Collection { name, .. } => name,
        }
    }
}

/// A Jekyll site's files, by what Jekyll does with them.
#[derive(Default)]
pub(super) struct Found {
    pub documents: Vec<(PathBuf, Kind)>,
    /// Copied as they are.
    pub statics: Vec<PathBuf>,
    /// Run through Liquid, no pages (`feed.xml`, `assets/main.scss`).
    pub templates: Vec<PathBuf>,
}

/// The site's settings that decide which files are documents.
pub(super) struct Files {
    /// The collections Jekyll writes, by name, with their URL pattern.
    collections: BTreeMap<String, String>,
    /// Names `include` takes in although Jekyll would leave them out.
    include: Vec<String>,
    exclude: Vec<String>,
}

impl Files {
    pub(super) fn new(config: &Value, site_permalink: &str) -> Files {
        let names = |key: &str| -> Vec<String> {
            let list = config.get(key).and_then(Value::as_array);
            let names = list.into_iter().flatten().filter_map(Value::as_str);
            names
                .map(|name| name.trim_matches('/').to_owned())
                .collect()
        };
        // Jekyll's own pattern for a collection; `pretty` drops the extension.
        let default_pattern = match site_permalink {
            "pretty" => "/:collection/:path/",
            _ => "/:collection/:path:output_ext",
        };
        let collections = config
            .get("collections")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter(|(name, _)| name.as_str() != "posts")
            .filter(|(_, settings)| settings.get("output").and_then(Value::as_bool) == Some(true))
            .map(|(name, settings)| {
                let pattern = settings.get("permalink").and_then(Value::as_str);
                (name.clone(), pattern.unwrap_or(default_pattern).to_owned())
            })
            .collect();
        Files {
            collections,
            include: names("include"),
            exclude: names("exclude"),
        }
    }

    /// Every document of the site with its kind, sorted by path, and the
    /// files Jekyll copies as they are (no front matter) or runs through
    /// Liquid without being pages (a feed's or a stylesheet's template).
    pub(super) fn documents(&self, source: &Source) -> Result<Found, Error> {
        let mut found = Found::default();
        let walk = source.walk(source.root())?.sort_by_file_name().into_iter();
        let walk = walk.filter_entry(|e| {
            let rel = source.relative(e.path());
            e.depth() == 0 || !self.left_out(&rel, e.file_type().is_dir())
        });
        for entry in walk {
            let entry = entry.map_err(|e| Error::io(source.root(), std::io::Error::other(e)))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let rel = source.relative(entry.path());
            let extension = rel.rsplit_once('.').map_or("", |(_, ext)| ext);
            let parts: Vec<&str> = rel.split('/').collect();
            let kind = if parts.contains(&"_posts") {
                matches!(extension, "md" | "markdown").then_some(Kind::Post)
            } else if let Some(name) = parts[0].strip_prefix('_')
                && let Some(pattern) = self.collections.get(name)
            {
                let kind = Kind::Collection {
                    name: name.to_owned(),
                    permalink: pattern.clone(),
                };
                matches!(extension, "md" | "markdown" | "html").then_some(kind)
            } else {
                let front_matter = source.opens_with(entry.path(), b"---")?;
                let page = matches!(extension, "md" | "markdown" | "html");
                match (front_matter, page) {
                    (true, true) => Some(Kind::Page),
                    (true, false) => {
                        found.templates.push(entry.path().to_owned());
                        None
                    }
                    (false, _) => {
                        found.statics.push(entry.path().to_owned());
                        None
                    }
                }
            };
            if let Some(kind) = kind {
                found.documents.push((entry.into_path(), kind));
            }
        }
        Ok(found)
    }

    /// Whether Jekyll leaves out the file or folder at `rel`: one it names
    /// in `exclude`, or whose name starts with `.`, `_` or `#` (or ends with
    /// `~`) unless `include` names it, a collection's folder or `_posts`,
    /// or where Jekyll writes and keeps its tools (`_site`, `vendor`,
    /// `node_modules`).
    fn left_out(&self, rel: &str, folder: bool) -> bool {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let included = self.include.iter().any(|n| n == rel || n == name);
        let kept_folder = folder
            && name
                .strip_prefix('_')
                .is_some_and(|n| n == "posts" || self.collections.contains_key(n));
        let special = name.starts_with(['.', '_', '#']) || name.ends_with('~');
        let tools = ["_site", "vendor", "node_modules", "Gemfile", "Gemfile.lock"].contains(&name);
        let excluded = self.exclude.iter().any(|pattern| excluded_by(pattern, rel));
        tools || excluded || (special && !included && !kept_folder)
    }
}

/// Whether an `exclude` entry names `rel`: the path itself, a folder
/// holding it, or a `*` pattern of its name (`*.sublime-project`).
fn excluded_by(pattern: &str, rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    match pattern.split_once('*') {
        Some((start, end)) => {
            name.starts_with(start) && name.ends_with(end) && name.len() >= start.len() + end.len()
        }
        None => rel == pattern || rel.starts_with(&format!("{pattern}/")),
    }
}

/// The URL Jekyll gives a page at `rel` (relative to the site) that names
/// none: its folder and name, `.html` for Markdown, an `index` its
/// folder's URL; the site's `pretty` style, or a pattern ending in `/`,
/// drops the extension.
pub(super) fn page_url(site_permalink: &str, rel: &str) -> String {
    let (folder, file) = rel.rsplit_once('/').unwrap_or(("", rel));
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    let pretty = site_permalink == "pretty" || site_permalink.ends_with('/');
    let url = match (stem, pretty) {
        ("index", _) => format!("/{folder}/"),
        (_, true) => format!("/{folder}/{stem}/"),
        (_, false) => format!("/{folder}/{stem}.html"),
    };
    collapse_slashes(&url)
}

/// The URL a collection's pattern (`/:collection/:path/`) gives the
/// document at `path` inside the collection (`guide/setup.md`), whose
/// slug is `slug`.
pub(super) fn collection_url(pattern: &str, collection: &str, path: &str, slug: &str) -> String {
    let without_extension = path.rsplit_once('.').map_or(path, |(stem, _)| stem);
    let name = without_extension
        .rsplit('/')
        .next()
        .unwrap_or(without_extension);
    let url = pattern
        .replace(":collection", collection)
        .replace(":path", without_extension)
        .replace(":name", name)
        .replace(":title", slug)
        .replace(":slug", slug)
        .replace(":output_ext", ".html");
    collapse_slashes(&url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_and_collection_documents_get_the_urls_jekyll_gives_them() {
        assert_eq!(page_url("date", "about.md"), "/about.html");
        assert_eq!(page_url("pretty", "about.md"), "/about/");
        assert_eq!(
            page_url("/:categories/:title/", "docs/faq.md"),
            "/docs/faq/"
        );
        assert_eq!(page_url("date", "blog/index.html"), "/blog/");
        assert_eq!(page_url("date", "index.md"), "/");
        assert_eq!(
            collection_url("/:collection/:path/", "docs", "guide/01-setup.md", "setup"),
            "/docs/guide/01-setup/"
        );
        assert_eq!(
            collection_url(
                "/:collection/:path:output_ext",
                "recipes",
                "soup.md",
                "soup"
            ),
            "/recipes/soup.html"
        );
    }

    #[test]
    fn files_jekyll_leaves_out_are_left_out() {
        let config = serde_json::json!({
            "include": ["_pages", ".htaccess"],
            "exclude": ["*.sublime-project", "vendor", "docs/drafts"],
            "collections": {"docs": {"output": true}, "notes": {"output": false}},
        });
        let files = Files::new(&config, "date");
        for rel in [
            "_drafts",
            "_notes",
            "_includes",
            ".git",
            "a.sublime-project",
            "docs/drafts/x.md",
            "#x.md",
            "x.md~",
            "_site",
        ] {
            assert!(files.left_out(rel, !rel.contains('.')), "{rel}");
        }
        for rel in ["_pages", "_docs", "_posts", "about.md", "docs/x.md"] {
            assert!(!files.left_out(rel, !rel.contains('.')), "{rel}");
        }
        assert_eq!(files.collections["docs"], "/:collection/:path:output_ext");
    }
}
