//! How the documents are arranged: which are visible, their orders and
//! groups of translations, each taxonomy's terms, and each section's list.
//! A model derives it from the place of every document ([`Arranged::of`]);
//! the index keeps it between one-off builds ([`Arrangement`]), so that a
//! build whose documents all changed in place takes it as it is instead of
//! deriving it from every row again: what a document holds, beyond its
//! place, arranges nothing.

use serde::{Deserialize, Serialize};

use super::model::{Orders, RecordSlugs, Taxonomy, TermIndex, tagged_by_lang, term_slugs};
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

/// An [`Arranged`] as the index keeps it (its bytes: [`Arrangement::encode`]).
/// Documents are numbered by their place among every document, by source
/// path.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Arrangement {
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

    /// Its bytes, as the index keeps them.
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// The arrangement the index kept as `bytes`; `None` for bytes another
    /// version wrote, or damaged.
    pub fn decode(bytes: &[u8]) -> Option<Arrangement> {
        postcard::from_bytes(bytes).ok()
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
        let mut position = vec![None; documents];
        for (_, posts) in &self.posts_by_lang {
            for (at, &i) in posts.iter().enumerate() {
                position[i] = Some(at);
            }
        }
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
    /// `section_files`: as many documents, the site's taxonomies, every
    /// number in range. (That it is theirs, the inputs it was kept with say.)
    pub(super) fn fits(
        &self,
        config: &Config,
        documents: usize,
        section_files: &[SectionFile],
    ) -> bool {
        let document = |i: &usize| *i < documents;
        let lists = self.sections.len();
        self.documents == documents
            && self.visible.iter().all(document)
            && self.groups.iter().flatten().all(document)
            && self.posts_by_lang.iter().flat_map(|(_, p)| p).all(document)
            && self.taxonomies.len() == config.taxonomies.len()
            && (self.taxonomies.iter().zip(&config.taxonomies))
                .all(|(taxonomy, name)| taxonomy.name == *name && taxonomy.fits(documents))
            && self.sections.iter().all(|list| {
                list.items.iter().all(document)
                    && list.subsections.iter().all(|&at| at < lists)
                    && list.file.is_none_or(|f| f < section_files.len())
            })
    }
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
    }
}
