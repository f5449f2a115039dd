//! Bundles: a folder whose `index.md` (with its translations,
//! `index.fr.md`) is one document named by the folder, and whose other
//! files are that document's, copied beside its page so that the relative
//! links of its body (`![](photo.jpg)`) work.
//!
//! Owns which document is a bundle's and which files each bundle holds;
//! where the files go is the plan's, since it follows the page.

use rustc_hash::FxHashMap;

use crate::model::doc::{Source, Stat};

/// The name (without language suffix and extension) of a bundle's document.
pub const INDEX: &str = "index";

/// Whether a source named `stem` in the folders `section` (under its
/// language root) is a bundle's document. A posts section's own folder
/// (`posts/index.md`) and a language root are no bundle: their files are
/// the section's, not one post's.
pub fn is_document(stem: &str, section: &[&str], is_post_section: impl Fn(&str) -> bool) -> bool {
    stem == INDEX
        && match section {
            [] => false,
            [only] => !is_post_section(only),
            _ => true,
        }
}

/// A file of `content/` that is no source (not Markdown, not hidden).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentFile {
    /// Relative to the site root, `/`-separated.
    pub path: String,
    pub stat: Stat,
}

/// A bundle: its folder, its documents and its files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bundle {
    /// Relative to the site root (`content/posts/my-trip`).
    pub folder: String,
    /// The sources of its documents (one per language), in walk order.
    pub documents: Vec<String>,
    /// The files under its folder that no bundle inside it holds, in walk
    /// order; none, often.
    pub files: Vec<ContentFile>,
}

impl Bundle {
    /// Where `file`, one of its files, is under its folder: where it goes
    /// under its page's.
    pub fn place_of<'f>(&self, file: &'f ContentFile) -> &'f str {
        file.path
            .strip_prefix(self.folder.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(&file.path)
    }
}

/// The bundles, in the walk order of their first document: each file
/// belongs to the nearest folder above it that holds a bundle's document,
/// so a bundle inside another takes its own files. `sources` and `files`
/// are in walk order.
pub fn bundles(sources: &[Source], files: &[ContentFile]) -> Vec<Bundle> {
    let mut bundles: Vec<Bundle> = Vec::new();
    let mut at: FxHashMap<&str, usize> = FxHashMap::default();
    for source in sources.iter().filter(|source| source.bundle) {
        if let Some((folder, _)) = source.path.rsplit_once('/') {
            let i = *at.entry(folder).or_insert_with(|| {
                bundles.push(Bundle {
                    folder: folder.to_owned(),
                    documents: Vec::new(),
                    files: Vec::new(),
                });
                bundles.len() - 1
            });
            bundles[i].documents.push(source.path.clone());
        }
    }
    if bundles.is_empty() {
        return bundles;
    }
    for file in files {
        let mut folder = file.path.as_str();
        let owner = loop {
            let Some((parent, _)) = folder.rsplit_once('/') else {
                break None;
            };
            if let Some(&i) = at.get(parent) {
                break Some(i);
            }
            folder = parent;
        };
        if let Some(i) = owner {
            bundles[i].files.push(file.clone());
        }
    }
    bundles
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::doc::Kind;

    fn source(path: &str, bundle: bool) -> Source {
        Source {
            path: path.to_owned(),
            lang: "en".into(),
            kind: Kind::Post,
            key: String::new(),
            stem: String::new(),
            bundle,
            stat: Stat {
                size: 0,
                mtime_ns: 0,
            },
        }
    }

    fn file(path: &str) -> ContentFile {
        ContentFile {
            path: path.to_owned(),
            stat: Stat {
                size: 1,
                mtime_ns: 1,
            },
        }
    }

    #[test]
    fn only_an_index_below_a_section_s_own_folder_is_a_bundle_s() {
        let posts = |s: &str| s == "posts";
        assert!(is_document("index", &["posts", "trip"], posts));
        assert!(is_document("index", &["about"], posts));
        assert!(is_document("index", &["docs", "setup"], posts));
        assert!(!is_document("index", &["posts"], posts));
        assert!(!is_document("index", &[], posts));
        assert!(!is_document("_index", &["posts", "trip"], posts));
        assert!(!is_document("trip", &["posts", "trip"], posts));
    }

    #[test]
    fn each_file_is_the_nearest_bundle_s_above_it() {
        let sources = [
            source("content/posts/a.md", false),
            source("content/posts/trip/day/index.md", true),
            source("content/posts/trip/index.fr.md", true),
            source("content/posts/trip/index.md", true),
            source("content/posts/trip/notes.md", false),
        ];
        let files = [
            file("content/posts/photo.jpg"),
            file("content/posts/trip/day/a.png"),
            file("content/posts/trip/images/b.png"),
            file("content/posts/trip/map.svg"),
        ];
        let found = bundles(&sources, &files);
        let summary: Vec<(&str, Vec<&str>, Vec<&str>)> = found
            .iter()
            .map(|b| {
                let documents = b.documents.iter().map(String::as_str).collect();
                let places = b.files.iter().map(|f| b.place_of(f)).collect();
                (b.folder.as_str(), documents, places)
            })
            .collect();
        assert_eq!(
            summary,
            [
                (
                    "content/posts/trip/day",
                    vec!["content/posts/trip/day/index.md"],
                    vec!["a.png"]
                ),
                (
                    "content/posts/trip",
                    vec![
                        "content/posts/trip/index.fr.md",
                        "content/posts/trip/index.md"
                    ],
                    vec!["images/b.png", "map.svg"]
                ),
            ]
        );
        assert!(bundles(&sources[..1], &files).is_empty(), "no bundle");
        let without_files = bundles(&sources, &[]);
        assert_eq!(without_files.len(), 2);
        assert!(without_files.iter().all(|b| b.files.is_empty()));
    }
}
