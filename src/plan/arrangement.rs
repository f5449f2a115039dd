//! How the documents are arranged: which are visible, their orders and
//! groups of translations, each taxonomy's terms, and each section's list.
//! A model derives it from the place of every document ([`Arranged::of`]);
//! the index keeps it between one-off builds ([`Arrangement`]), so that a
//! build whose documents all changed in place takes it as it is instead of
//! deriving it from every row again: what a document holds, beyond its
//! place, arranges nothing.

use serde::{Deserialize, Serialize};

use super::model::{
    Orders, RecordSlugs, Taxonomy, TermIndex, is_visible, newest_first, own_term_slugs, positions,
    tagged_by_lang, term_slugs,
};
use super::sections::SectionList;
use super::*;

/// What a model derives from the place of every document.
pub(super) struct Arranged {
    pub(super) visible: Vec<usize>,
    pub(super) groups: Vec<Vec<usize>>,
    pub(super) group_of: Vec<Option<u32>>,
    pub(super) posts_by_lang: BTreeMap<String, Vec<usize>>,
    pub(super) position: Vec<Option<usize>>,
    pub(super) taxonomies: Vec<Taxonomy>,
    pub(super) sections: Sections,
}

impl Arranged {
    /// The arrangement of `records` and of the sections' `section_files`.
    pub(super) fn of(
        config: &Config,
        (records, section_files): (&[Record], Vec<SectionFile>),
        visibility: Visibility,
    ) -> Arranged {
        // The taxonomies were nearly half of the model's time (28 of 61 ms
        // at 20,000 posts × 3, all on one thread): their slugs need only the
        // records, and they nothing of the sections, so each is made beside
        // the other.
        let (slugs, orders) = rayon::join(
            || {
                (config.taxonomies.iter())
                    .map(|name| term_slugs(records, name, config.term_slugs))
                    .collect::<Vec<_>>()
            },
            || Orders::new(config, records, visibility),
        );
        let Orders {
            visible,
            groups,
            group_of,
            posts_by_lang,
            position,
        } = orders;
        let tagged = tagged_by_lang(records, &visible, &posts_by_lang);
        let (taxonomies, sections) = rayon::join(
            || {
                (config.taxonomies.iter().zip(slugs))
                    .map(|(name, slugs)| Taxonomy::new(config, name, (records, slugs), &tagged))
                    .collect()
            },
            || {
                Sections::new(
                    config,
                    (records, &visible),
                    section_files,
                    visibility.drafts,
                )
            },
        );
        Arranged {
            visible,
            groups,
            group_of,
            posts_by_lang,
            position,
            taxonomies,
            sections,
        }
    }
}

/// The shape of [`Arrangement`]'s bytes: bumped whenever it changes (the
/// test `the_encoding_is_pinned` fails until it is).
const FORMAT: u32 = 1;

/// An [`Arranged`] as the index keeps it (its bytes: [`Arrangement::encode`]).
/// Documents are numbered by their place among every document, by source
/// path.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Arrangement {
    /// [`FORMAT`], first: postcard's bytes do not say their shape, and
    /// those of another may decode into numbers that fit.
    format: u32,
    documents: usize,
    visible: Vec<usize>,
    groups: Vec<Vec<usize>>,
    posts_by_lang: Vec<(String, Vec<usize>)>,
    taxonomies: Vec<ArrangedTaxonomy>,
    sections: Vec<SectionList>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct ArrangedTaxonomy {
    name: String,
    /// Per language, its terms. Which terms each document has, its own
    /// record says: a page showing it makes their slugs.
    by_lang: BTreeMap<String, TermIndex>,
}

/// The parts of a model an [`Arrangement`] is made of.
struct Parts<'a> {
    documents: usize,
    visible: &'a [usize],
    groups: &'a [Vec<usize>],
    posts_by_lang: &'a BTreeMap<String, Vec<usize>>,
    taxonomies: &'a [Taxonomy],
    sections: &'a Sections,
}

impl Arrangement {
    /// What the index keeps of `arranged`, the arrangement of `documents`.
    pub(super) fn of(arranged: &Arranged, documents: usize) -> Arrangement {
        Arrangement::of_parts(Parts {
            documents,
            visible: &arranged.visible,
            groups: &arranged.groups,
            posts_by_lang: &arranged.posts_by_lang,
            taxonomies: &arranged.taxonomies,
            sections: &arranged.sections,
        })
    }

    /// What the index keeps of `model`'s arrangement.
    pub(super) fn of_model(model: &Model) -> Arrangement {
        Arrangement::of_parts(Parts {
            documents: model.records.len(),
            visible: &model.visible,
            groups: &model.groups,
            posts_by_lang: &model.posts_by_lang,
            taxonomies: &model.taxonomies,
            sections: &model.sections,
        })
    }

    fn of_parts(parts: Parts<'_>) -> Arrangement {
        Arrangement {
            format: FORMAT,
            documents: parts.documents,
            visible: parts.visible.to_vec(),
            groups: parts.groups.to_vec(),
            posts_by_lang: (parts.posts_by_lang.iter())
                .map(|(lang, posts)| (lang.clone(), posts.clone()))
                .collect(),
            taxonomies: parts.taxonomies.iter().map(ArrangedTaxonomy::of).collect(),
            sections: parts.sections.lists.clone(),
        }
    }

    /// Its bytes, as the index keeps them (none, which is no arrangement,
    /// should postcard ever refuse it: the next build derives its own).
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// The arrangement the index kept as `bytes`; `None` for bytes of
    /// another shape, or damaged.
    pub fn decode(bytes: &[u8]) -> Option<Arrangement> {
        postcard::from_bytes(bytes)
            .ok()
            .filter(|arrangement: &Arrangement| arrangement.format == FORMAT)
    }

    /// The arrangement kept, made whole again with this build's section
    /// files, which it [fits](Arrangement::fits).
    pub(super) fn arranged(
        self,
        config: &Config,
        documents: usize,
        section_files: Vec<SectionFile>,
    ) -> Arranged {
        let mut group_of = vec![None; documents];
        for (at, members) in self.groups.iter().enumerate() {
            for &i in members {
                group_of[i] = Some(at as u32);
            }
        }
        let position = positions(documents, self.posts_by_lang.iter().map(|(_, posts)| posts));
        Arranged {
            visible: self.visible,
            groups: self.groups,
            group_of,
            posts_by_lang: self.posts_by_lang.into_iter().collect(),
            position,
            taxonomies: (self.taxonomies.into_iter())
                .map(|taxonomy| taxonomy.taxonomy(config))
                .collect(),
            sections: Sections {
                files: section_files,
                lists: self.sections,
            },
        }
    }

    /// Whether it may be the arrangement of `documents` and of
    /// `section_files`: as many documents, the site's taxonomies and
    /// languages, every number in range, each document visible, listed
    /// among posts and among translations once at most. (That it is theirs,
    /// the inputs it was kept with say.)
    pub(super) fn fits(
        &self,
        config: &Config,
        documents: usize,
        section_files: &[SectionFile],
    ) -> bool {
        let document = |i: &usize| *i < documents;
        let language = |lang: &String| config.is_language(lang);
        let lists = self.sections.len();
        self.documents == documents
            && self.visible.iter().all(document)
            && self.visible.is_sorted_by(|a, b| a < b)
            && at_most_once(documents, self.groups.iter().flatten())
            && (self.posts_by_lang.iter()).all(|(lang, _)| language(lang))
            && at_most_once(documents, self.posts_by_lang.iter().flat_map(|(_, p)| p))
            && self.taxonomies.len() == config.taxonomies.len()
            && (self.taxonomies.iter().zip(&config.taxonomies)).all(|(taxonomy, name)| {
                taxonomy.name == *name
                    && taxonomy.by_lang.keys().all(language)
                    && taxonomy.fits(documents)
            })
            && self.sections.iter().all(|list| {
                language(&list.lang)
                    && list.items.iter().all(document)
                    && list.subsections.iter().all(|&at| at < lists)
                    && list.file.is_none_or(|f| f < section_files.len())
            })
    }

    /// The documents [`Arrangement::agrees`] reads besides those read
    /// again (`fresh`): the posts either side of each among its
    /// language's, and every version of it.
    pub(super) fn around(&self, fresh: &[usize]) -> Vec<usize> {
        let mut is_fresh = vec![false; self.documents];
        for &i in fresh.iter().filter(|&&i| i < self.documents) {
            is_fresh[i] = true;
        }
        let mut around = Vec::new();
        for (_, list) in &self.posts_by_lang {
            for (at, _) in list.iter().enumerate().filter(|(_, i)| is_fresh[**i]) {
                around.extend(at.checked_sub(1).map(|newer| list[newer]));
                around.extend(list.get(at + 1));
            }
        }
        for group in &self.groups {
            if group.iter().any(|&i| is_fresh[i]) {
                around.extend(group);
            }
        }
        around
    }

    /// Whether it places the documents read again (`fresh`, by place in
    /// `records`) where their records put them: visible or not, among
    /// the posts of their language between a newer and an older one, among
    /// versions of their own, under each of their terms and in sections of
    /// their language and folder, and nowhere else. That the others kept
    /// their places, the inputs it was kept with say; one that disagrees
    /// (a change of place the checks of an edit in place missed) is not
    /// trusted, and the arrangement is derived again.
    pub(super) fn agrees(
        &self,
        config: &Config,
        records: &[Record],
        fresh: &[usize],
        visibility: Visibility,
    ) -> bool {
        let mut is_fresh = vec![false; records.len()];
        for &i in fresh {
            is_fresh[i] = true;
        }
        let shown = |i: usize| is_visible(config, visibility, &records[i]);
        let mut posts = vec![0; records.len()];
        let posts_agree = self.posts_by_lang.iter().all(|(lang, list)| {
            list.iter().enumerate().all(|(at, &i)| {
                if !is_fresh[i] {
                    return true;
                }
                posts[i] += 1;
                let record = &records[i];
                let newer = |a: &Record, b: &Record| newest_first(a, b).is_lt();
                record.lang == *lang
                    && record.kind == Kind::Post
                    && (at == 0 || newer(&records[list[at - 1]], record))
                    && list
                        .get(at + 1)
                        .is_none_or(|&older| newer(record, &records[older]))
            })
        });
        let mut versions = vec![0; records.len()];
        let groups_agree = self.groups.iter().all(|group| {
            let Some(&i) = group.iter().find(|&&i| is_fresh[i]) else {
                return true;
            };
            let key = |j: usize| (records[j].kind, records[j].translation_key.as_str());
            group
                .iter()
                .filter(|&&j| is_fresh[j])
                .for_each(|&j| versions[j] += 1);
            group.iter().all(|&j| key(j) == key(i))
        });
        posts_agree
            && groups_agree
            && fresh.iter().all(|&i| {
                let shown = shown(i);
                self.visible.binary_search(&i).is_ok() == shown
                    && posts[i] == usize::from(shown && records[i].kind == Kind::Post)
                    && versions[i] == usize::from(shown)
            })
            && (self.taxonomies.iter())
                .all(|taxonomy| taxonomy.agrees(config, records, (fresh, &is_fresh), &shown))
            && self.sections.iter().all(|list| {
                (list.items.iter().filter(|&&i| is_fresh[i])).all(|&i| {
                    let folder = super::sections::folder_of(config, &records[i].source.path);
                    list.lang == records[i].lang
                        && (folder == list.folder
                            || folder
                                .strip_prefix(list.folder.as_str())
                                .is_some_and(|rest| rest.starts_with('/')))
                })
            })
    }
}

/// Whether none of `indices`, each below `documents`, comes twice.
fn at_most_once<'i>(documents: usize, indices: impl Iterator<Item = &'i usize>) -> bool {
    let mut seen = vec![false; documents];
    for &i in indices {
        if i >= documents || std::mem::replace(&mut seen[i], true) {
            return false;
        }
    }
    true
}

impl ArrangedTaxonomy {
    fn of(taxonomy: &Taxonomy) -> ArrangedTaxonomy {
        ArrangedTaxonomy {
            name: taxonomy.name.clone(),
            by_lang: taxonomy.by_lang.clone(),
        }
    }

    fn fits(&self, documents: usize) -> bool {
        (self.by_lang.values().flat_map(BTreeMap::values))
            .all(|(_, members)| members.iter().all(|&i| i < documents))
    }

    /// Whether each fresh document is under each of its terms in its
    /// language when it is shown, under no other, and nowhere when hidden.
    fn agrees(
        &self,
        config: &Config,
        records: &[Record],
        (fresh, is_fresh): (&[usize], &[bool]),
        shown: &dyn Fn(usize) -> bool,
    ) -> bool {
        let slugs = |i: usize| -> BTreeSet<String> {
            own_term_slugs(&records[i], &self.name, config.term_slugs).collect()
        };
        let mut under: FxHashMap<usize, BTreeSet<&str>> = FxHashMap::default();
        for (lang, terms) in &self.by_lang {
            for (slug, (_, members)) in terms {
                for &i in members.iter().filter(|&&i| is_fresh[i]) {
                    if records[i].lang != *lang {
                        return false;
                    }
                    under.entry(i).or_default().insert(slug);
                }
            }
        }
        fresh.iter().all(|&i| {
            let expected = if shown(i) { slugs(i) } else { BTreeSet::new() };
            let found = under.remove(&i).unwrap_or_default();
            found.len() == expected.len() && found.iter().all(|slug| expected.contains(*slug))
        })
    }

    fn taxonomy(self, config: &Config) -> Taxonomy {
        let slugs = RecordSlugs::Asked(config.term_slugs);
        Taxonomy::with_pages(config, self.name, self.by_lang, slugs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_of_another_shape_are_no_arrangement() {
        assert_eq!(Arrangement::decode(b""), None);
        assert_eq!(Arrangement::decode(&[0xff; 7]), None);
        let mut bytes = small().encode();
        assert_eq!(Arrangement::decode(&bytes), Some(small()));
        bytes[0] = FORMAT as u8 + 1;
        assert_eq!(Arrangement::decode(&bytes), None, "another format");
    }

    /// Two documents, one visible post with a tag, in a section.
    fn small() -> Arrangement {
        let terms = BTreeMap::from([("rust".to_owned(), ("Rust".to_owned(), vec![1]))]);
        Arrangement {
            format: FORMAT,
            documents: 2,
            visible: vec![1],
            groups: vec![vec![1]],
            posts_by_lang: vec![("en".to_owned(), vec![1])],
            taxonomies: vec![ArrangedTaxonomy {
                name: "tags".to_owned(),
                by_lang: BTreeMap::from([("en".to_owned(), terms)]),
            }],
            sections: vec![SectionList {
                lang: "en".to_owned(),
                folder: "posts".to_owned(),
                file: None,
                url: "/posts/".to_owned(),
                items: vec![1],
                subsections: Vec::new(),
                posts: true,
            }],
        }
    }

    #[test]
    fn an_arrangement_fits_only_documents_and_languages_it_may_be_of() {
        let config = Config::parse(
            "title = \"T\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n\
             [languages.en]\nname = \"English\"\n",
            std::path::Path::new("site.toml"),
        )
        .unwrap();
        assert_eq!(config.taxonomies, ["tags"]);
        assert!(small().fits(&config, 2, &[]));
        assert!(!small().fits(&config, 1, &[]), "a document more");
        let mut far = small();
        far.documents = 1;
        assert!(!far.fits(&config, 1, &[]), "an index out of range");
        let mut twice = small();
        twice.posts_by_lang[0].1.push(1);
        assert!(!twice.fits(&config, 2, &[]), "a post listed twice");
        let mut unsorted = small();
        unsorted.visible = vec![1, 0];
        assert!(!unsorted.fits(&config, 2, &[]));
        let mut other = small();
        other.sections[0].lang = "fr".to_owned();
        assert!(!other.fits(&config, 2, &[]), "a language the site has not");
        let mut filed = small();
        filed.sections[0].file = Some(0);
        assert!(!filed.fits(&config, 2, &[]), "a section file there is not");
    }

    #[test]
    fn the_encoding_is_pinned() {
        // A change to these bytes is a change of shape: bump FORMAT, then
        // write the new bytes here.
        assert_eq!(
            small().encode(),
            [
                &[1, 2, 1, 1, 1, 1, 1, 1, 2, b'e', b'n', 1, 1][..],
                &[1, 4, b't', b'a', b'g', b's', 1, 2, b'e', b'n'],
                &[
                    1, 4, b'r', b'u', b's', b't', 4, b'R', b'u', b's', b't', 1, 1
                ],
                &[1, 2, b'e', b'n', 5, b'p', b'o', b's', b't', b's', 0],
                &[7, b'/', b'p', b'o', b's', b't', b's', b'/', 1, 1, 0, 1],
            ]
            .concat()
        );
    }
}
