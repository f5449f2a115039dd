//! The sections of the site for one build: which folders are sections (each
//! top-level posts section, and every folder with an `_index.md`), in which
//! languages each has a list (one with documents there or its own
//! `_index.md`, unless that is a draft), the documents each lists in its
//! order, and the sections right below it. A section lists every visible
//! document under its folder, those of the sections inside it too.

use super::*;
use crate::source::section::{SectionFile, SortBy};

/// One section in one language: the list at its folder's URL.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub(super) struct SectionList {
    pub(super) lang: String,
    /// Its folder inside the language (`posts`, `docs/guides`).
    pub(super) folder: String,
    /// Its `_index.md` in this language, by place in [`Sections::files`].
    pub(super) file: Option<usize>,
    /// The URL of its first page.
    pub(super) url: String,
    /// Its visible documents, in its order.
    pub(super) items: Vec<usize>,
    /// The sections right below it in its language, by place in `lists`.
    pub(super) subsections: Vec<usize>,
    /// Whether it holds posts (a folder of a posts section), else pages.
    pub(super) posts: bool,
}

/// The site's sections and their `_index.md` files.
#[derive(Debug, Default)]
pub(super) struct Sections {
    pub(super) files: Vec<SectionFile>,
    /// By language (the site's order), then folder (walk order).
    pub(super) lists: Vec<SectionList>,
}

impl Sections {
    /// The sections of the visible documents `visible` of `records`, and of
    /// `files`; a draft's list only when `drafts` are shown.
    pub(super) fn new(
        config: &Config,
        (records, visible): (&[Record], &[usize]),
        files: Vec<SectionFile>,
        drafts: bool,
    ) -> Sections {
        let mut folders: BTreeSet<&str> = files.iter().map(|f| f.folder.as_str()).collect();
        folders.extend(config.post_sections.iter().map(String::as_str));
        let mut members: FxHashMap<(&str, &str), Vec<usize>> = FxHashMap::default();
        for &i in visible {
            let record = &records[i];
            let mut folder = folder_of(config, &record.source.path);
            loop {
                if let Some(&known) = folders.get(folder) {
                    members
                        .entry((record.lang.as_str(), known))
                        .or_default()
                        .push(i);
                }
                match folder.rsplit_once('/') {
                    Some((parent, _)) => folder = parent,
                    None => break,
                }
            }
        }
        let mut folders: Vec<&str> = folders.into_iter().collect();
        folders.sort_by(|a, b| crate::source::discover::walk_order(a, b));
        let mut lists = Vec::new();
        for (code, _) in config.ordered_languages() {
            for &folder in &folders {
                let file = files
                    .iter()
                    .position(|f| f.lang == *code && f.folder == folder);
                let items = members.remove(&(code.as_str(), folder));
                let Some(mut items) = items.or_else(|| file.map(|_| Vec::new())) else {
                    continue;
                };
                if file.is_some_and(|f| files[f].draft) && !drafts {
                    continue;
                }
                let sort_by = file.map_or(SortBy::Date, |f| files[f].sort_by);
                sort(records, &mut items, sort_by);
                lists.push(SectionList {
                    lang: code.clone(),
                    url: section_url(config, code, folder, 1),
                    folder: folder.to_owned(),
                    file,
                    items,
                    subsections: Vec::new(),
                    posts: config.is_post_section(folder.split('/').next().unwrap_or(folder)),
                });
            }
        }
        let mut sections = Sections { files, lists };
        sections.link_subsections();
        sections
    }

    /// Each list's `subsections`: the lists right below it, lightest
    /// `weight` first, those without one after, in walk order.
    fn link_subsections(&mut self) {
        for at in 0..self.lists.len() {
            if let Some(parent) = self.parent_of(at) {
                self.lists[parent].subsections.push(at);
            }
        }
        let weights: Vec<Option<i64>> = (0..self.lists.len())
            .map(|at| self.file_of(at).and_then(|f| f.weight))
            .collect();
        for list in &mut self.lists {
            // Stable: walk order among equals.
            list.subsections
                .sort_by_key(|&sub| (weights[sub].is_none(), weights[sub]));
        }
    }

    /// The nearest section above the list at `at`, in its language.
    fn parent_of(&self, at: usize) -> Option<usize> {
        let list = &self.lists[at];
        let mut folder = list.folder.as_str();
        while let Some((parent, _)) = folder.rsplit_once('/') {
            if let Some(found) = self.find(&list.lang, parent) {
                return Some(found);
            }
            folder = parent;
        }
        None
    }

    /// The list of `folder` in `lang`, if the section has one there.
    pub(super) fn find(&self, lang: &str, folder: &str) -> Option<usize> {
        self.lists
            .iter()
            .position(|l| l.lang == lang && l.folder == folder)
    }

    /// The lists of `folder`, one per language that has it, in the site's
    /// order of languages.
    pub(super) fn versions<'s>(&'s self, folder: &'s str) -> impl Iterator<Item = usize> + 's {
        (0..self.lists.len()).filter(move |&at| self.lists[at].folder == folder)
    }

    /// The `_index.md` of the list at `at`, if it has one.
    pub(super) fn file_of(&self, at: usize) -> Option<&SectionFile> {
        self.lists[at].file.map(|f| &self.files[f])
    }

    /// The title of the list at `at`: its `_index.md`'s, else its folder's
    /// name with a capital, as Hugo titles a section without one.
    pub(super) fn title(&self, at: usize) -> String {
        if let Some(title) = self.file_of(at).and_then(|f| f.title.clone()) {
            return title;
        }
        let folder = &self.lists[at].folder;
        let name = folder.rsplit('/').next().unwrap_or(folder);
        let mut chars = name.chars();
        chars.next().map_or_else(String::new, |first| {
            first.to_uppercase().chain(chars).collect()
        })
    }

    /// Whether the list at `at` has feeds: a section of posts whose
    /// `_index.md` asks for them, or whose site does (`feeds_for`).
    pub(super) fn has_feeds(&self, config: &Config, at: usize) -> bool {
        let asked = self.file_of(at).and_then(|f| f.feed);
        self.lists[at].posts && asked.unwrap_or(config.feeds.sections)
    }

    /// Whether any section orders its documents by title: a title then
    /// decides a document's place.
    pub(super) fn sort_by_title(&self) -> bool {
        crate::source::section::any_sorted_by_title(&self.files)
    }
}

/// The folder of the document at `path` (`content/…`) inside its language:
/// `posts/rust` for `content/fr/posts/rust/x.md` and `content/posts/rust/x.fr.md`.
pub(super) fn folder_of<'p>(config: &Config, path: &'p str) -> &'p str {
    let rel = path.strip_prefix("content/").unwrap_or(path);
    let dir = rel.rsplit_once('/').map_or("", |(dir, _)| dir);
    match dir.split_once('/') {
        Some((first, rest)) if config.is_language(first) => rest,
        None if config.is_language(dir) => "",
        _ => dir,
    }
}

/// `items` in the order `sort_by` says; ties by slug, as the home's.
fn sort(records: &[Record], items: &mut [usize], sort_by: SortBy) {
    let newest_first = |a: usize, b: usize| {
        let (a, b) = (&records[a], &records[b]);
        b.published_at
            .cmp(&a.published_at)
            .then_with(|| a.slug.cmp(&b.slug))
    };
    match sort_by {
        SortBy::Date => items.sort_by(|&a, &b| newest_first(a, b)),
        SortBy::Title => items
            .sort_by_cached_key(|&i| (records[i].title.to_lowercase(), records[i].slug.clone())),
        SortBy::Weight => items.sort_by(|&a, &b| {
            let weight = |i: usize| (records[i].weight.is_none(), records[i].weight);
            weight(a).cmp(&weight(b)).then_with(|| newest_first(a, b))
        }),
    }
}

/// Page `page` of the section of `folder` in `lang`.
pub(super) fn section_url(config: &Config, lang: &str, folder: &str, page: usize) -> String {
    let mut url = config.language_root(lang);
    for part in folder.split('/') {
        push_encoded_segment(&mut url, part);
        url.push('/');
    }
    paginated(url, page)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_s_folder_is_inside_its_language() {
        let config = Config::parse(
            "title = \"T\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n\
             [languages.en]\nname = \"English\"\n[languages.fr]\nname = \"Français\"\n",
            std::path::Path::new("site.toml"),
        )
        .unwrap();
        for (path, folder) in [
            ("content/fr/posts/rust/x.md", "posts/rust"),
            ("content/posts/rust/x.fr.md", "posts/rust"),
            ("content/posts/x.md", "posts"),
            ("content/fr/about.md", ""),
            ("content/about.md", ""),
        ] {
            assert_eq!(folder_of(&config, path), folder, "{path}");
        }
        assert_eq!(
            section_url(&config, "fr", "docs/été", 2),
            "/fr/docs/%C3%A9t%C3%A9/page/2/"
        );
    }
}
