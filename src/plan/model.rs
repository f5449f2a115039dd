//! The site seen from one build: what is visible, in which order, how
//! documents relate, and what stands for a document in a fingerprint.

use super::*;

/// How many related posts a post shows at most.
const RELATED: usize = 5;

thread_local! {
    /// Each thread's counts of shared terms, kept between posts: a site's
    /// posts share thousands of terms, each counted in a slot of a list
    /// rather than a map, the list cleared where it was touched alone.
    static SHARED: std::cell::RefCell<SharedTerms> = std::cell::RefCell::default();
}

/// How many terms each post of one language shares with one post, by its
/// place in the language's list (newest first), and which were counted.
#[derive(Default)]
struct SharedTerms {
    counts: Vec<u32>,
    touched: Vec<usize>,
}

impl SharedTerms {
    /// Counts what each post of record `i`'s language shares with it.
    fn count(&mut self, model: &Model, i: usize) {
        let lang = model.records[i].lang.as_str();
        let total = model.posts_of(lang).len();
        if self.counts.len() < total {
            self.counts.resize(total, 0);
        }
        for taxonomy in &model.taxonomies {
            let Some(terms) = taxonomy.by_lang.get(lang) else {
                continue;
            };
            for slug in taxonomy.slugs_of(&model.records[i], i).iter() {
                let posts = terms.get(&**slug).map_or(&[][..], |(_, posts)| posts);
                // A term's posts are visible posts of the language: each
                // has its place.
                for at in posts.iter().filter_map(|&j| model.position[j]) {
                    if self.counts[at] == 0 {
                        self.touched.push(at);
                    }
                    self.counts[at] += 1;
                }
            }
        }
    }

    /// The places of the [`RELATED`] posts that share the most, the newer
    /// (the smaller place) first among equals, but the post at `own`;
    /// the counts cleared for the next post.
    fn most(&mut self, own: usize) -> impl Iterator<Item = usize> {
        let mut best: Vec<(u32, usize)> = Vec::with_capacity(RELATED + 1);
        for &at in &self.touched {
            let count = std::mem::take(&mut self.counts[at]);
            if at == own {
                continue;
            }
            // Kept sorted, most shared first: an entry goes in only if it
            // beats the last.
            let place = best.partition_point(|&(c, a)| c > count || (c == count && a < at));
            if place < RELATED {
                best.insert(place, (count, at));
                best.truncate(RELATED);
            }
        }
        self.touched.clear();
        best.into_iter().map(|(_, at)| at)
    }
}

/// The terms of one taxonomy in one language: slug → (shown name, its
/// documents: posts newest first, then pages).
pub(super) type TermIndex = BTreeMap<String, (String, Vec<usize>)>;

/// One taxonomy of the site (`tags`, `series`…) as one build sees it.
pub(super) struct Taxonomy {
    pub(super) name: String,
    /// Per language, its terms.
    pub(super) by_lang: BTreeMap<String, TermIndex>,
    /// Per record, the slug of each of its terms.
    pub(super) slugs: RecordSlugs,
    /// Per language and term slug, the URL of the term's first page: made
    /// once per term, not for each link to it (130,000 tag links in a cold
    /// build of 5,000 posts in 3 languages).
    pub(super) pages: FxHashMap<String, FxHashMap<Box<str>, String>>,
}

/// The slug of each term of each record of one taxonomy: made for every
/// record when the model derives its terms from them, or else asked for a
/// record when a page shows it (its slugs are those of its own terms).
pub(super) enum RecordSlugs {
    Made(Vec<Vec<Arc<str>>>),
    Asked(TermSlugs),
}

/// The site seen from one build: what is visible, in which order, and how
/// documents relate.
pub struct Model {
    /// Every current document, by source path.
    pub(super) records: Vec<Record>,
    pub(super) visible: Vec<usize>,
    /// Visible posts per language, newest first.
    pub(super) posts_by_lang: BTreeMap<String, Vec<usize>>,
    /// Where each visible post stands in its language's list, per record.
    pub(super) position: Vec<Option<usize>>,
    /// Visible documents by (kind, translation key), in language order.
    pub(super) groups: Vec<Vec<usize>>,
    /// Per record, its place in `groups`, when it is visible.
    pub(super) group_of: Vec<Option<u32>>,
    /// The site's taxonomies, in site.toml's order.
    pub(super) taxonomies: Vec<Taxonomy>,
    /// Per record, its entry in lists, built on first use.
    pub(super) items: Vec<OnceLock<minijinja::Value>>,
    /// Per record, its related posts ([`Model::related`]), found on first
    /// use: only the pages of a template that shows them ask.
    pub(super) related: Vec<OnceLock<Vec<usize>>>,
    /// Per record, what stands in for it in fingerprints, made on first
    /// use: a plan of the pages that show what changed hashes a few.
    pub(super) digests: Vec<OnceLock<DocumentDigest>>,
    /// Where the documents are, when one links another.
    pub(super) places: Option<Places>,
    /// The hash of each shortcode's template that a document calls, by
    /// name: in the digest of each document calling it.
    pub(super) shortcode_hashes: BTreeMap<String, String>,
    /// Each language's menus, once [`Model::menus`] made them.
    pub(super) menus: BTreeMap<String, LanguageMenus>,
    /// The sections, each with its documents in its order.
    pub(super) sections: Sections,
    /// Whether the arrangement (visible, orders, taxonomies, sections) is
    /// the one the index kept: a commit then keeps it as it is.
    pub(super) arrangement_kept: bool,
    /// The bundles' documents, whose relative links lead to the files
    /// beside their page: [`Model::shown_elsewhere`] roots them there.
    pub(super) bundled: FxHashSet<usize>,
    /// The images the documents show, with `[images]`.
    pub(super) images: Option<ShownImages>,
    /// The variants of images the pages' templates asked for.
    pub(super) drawn: DrawnImages,
    /// The assets templates may fingerprint, and those the pages asked for.
    pub(super) assets: PlannedAssets,
}

/// Which documents are visible, and their orders: what the taxonomies and
/// sections are made from.
pub(super) struct Orders {
    pub(super) visible: Vec<usize>,
    pub(super) groups: Vec<Vec<usize>>,
    pub(super) group_of: Vec<Option<u32>>,
    pub(super) posts_by_lang: BTreeMap<String, Vec<usize>>,
    pub(super) position: Vec<Option<usize>>,
}

/// Whether `record` is among the model's documents: published, in a
/// language the site has. (Rows are re-derived whenever the declared
/// languages change, so a row of an undeclared language cannot reach
/// this; the check keeps the views' lookups total all the same.)
pub(super) fn is_visible(config: &Config, visibility: Visibility, record: &Record) -> bool {
    visibility.shows(record) && config.is_language(&record.lang)
}

/// The slug of each of `record`'s terms of `taxonomy`, as `rule` makes it.
pub(super) fn own_term_slugs<'r>(
    record: &'r Record,
    taxonomy: &str,
    rule: TermSlugs,
) -> impl Iterator<Item = String> + 'r {
    (record.terms_of(taxonomy).iter()).map(move |term| term_slug(term, rule))
}

/// The order of a language's posts: newest first, then by slug.
pub(super) fn newest_first(a: &Record, b: &Record) -> std::cmp::Ordering {
    b.published_at
        .cmp(&a.published_at)
        .then_with(|| a.slug.cmp(&b.slug))
}

/// Per document (of `documents`), where it stands in the list of posts of
/// its language among `lists`, when it is in one.
pub(super) fn positions<'l>(
    documents: usize,
    lists: impl Iterator<Item = &'l Vec<usize>>,
) -> Vec<Option<usize>> {
    let mut position = vec![None; documents];
    for posts in lists {
        for (at, &i) in posts.iter().enumerate() {
            position[i] = Some(at);
        }
    }
    position
}

impl Orders {
    pub(super) fn new(config: &Config, records: &[Record], visibility: Visibility) -> Orders {
        let language_order: FxHashMap<&str, usize> = config
            .ordered_languages()
            .enumerate()
            .map(|(i, (code, _))| (code.as_str(), i))
            .collect();
        let visible: Vec<usize> = (0..records.len())
            .filter(|&i| is_visible(config, visibility, &records[i]))
            .collect();

        let mut group_at: FxHashMap<(Kind, &str), u32> = FxHashMap::default();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut group_of = vec![None; records.len()];
        let mut posts_by_lang: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for &i in &visible {
            let r = &records[i];
            let at = *group_at
                .entry((r.kind, r.translation_key.as_str()))
                .or_insert_with(|| {
                    groups.push(Vec::new());
                    (groups.len() - 1) as u32
                });
            groups[at as usize].push(i);
            group_of[i] = Some(at);
            if r.kind == Kind::Post {
                match posts_by_lang.get_mut(r.lang.as_str()) {
                    Some(posts) => posts.push(i),
                    None => {
                        posts_by_lang.insert(r.lang.clone(), vec![i]);
                    }
                }
            }
        }
        drop(group_at);
        for members in &mut groups {
            members.sort_by_key(|&i| language_order.get(records[i].lang.as_str()).copied());
        }
        for posts in posts_by_lang.values_mut() {
            posts.sort_by(|&a, &b| newest_first(&records[a], &records[b]));
        }
        let position = positions(records.len(), posts_by_lang.values());
        Orders {
            visible,
            groups,
            group_of,
            posts_by_lang,
            position,
        }
    }
}

impl Model {
    /// The model of `records`, of the sections' `section_files` and of the
    /// `images` the records show; `shortcode_hash` gives the hash of the
    /// template of a shortcode they call. Their arrangement is the `kept`
    /// one, which [fits](Arrangement::fits) them, or else derived.
    pub(super) fn new(
        config: &Config,
        (records, section_files, images): (Vec<Record>, Vec<SectionFile>, Option<ShownImages>),
        (visibility, kept): (Visibility, Option<Arrangement>),
        shortcode_hash: &dyn Fn(&str) -> String,
    ) -> Model {
        let arrangement_kept = kept.is_some();
        let arranged = match kept {
            Some(kept) => kept.arranged(config, records.len(), section_files),
            None => Arranged::of(config, (&records, section_files), visibility),
        };
        let Arranged {
            visible,
            groups,
            group_of,
            posts_by_lang,
            position,
            taxonomies,
            sections,
        } = arranged;
        let mut places = None;
        let shortcode_hashes = rayon::in_place_scope(|scope| {
            scope.spawn(|_| places = Places::of(config, &records, &sections.files));
            shortcode_hashes(&records, &sections.files, shortcode_hash)
        });
        Model {
            places,
            shortcode_hashes,
            menus: BTreeMap::new(),
            sections,
            bundled: FxHashSet::default(),
            images,
            drawn: DrawnImages::default(),
            assets: PlannedAssets::default(),
            visible,
            posts_by_lang,
            position,
            groups,
            group_of,
            taxonomies,
            arrangement_kept,
            items: (0..records.len()).map(|_| OnceLock::new()).collect(),
            related: (0..records.len()).map(|_| OnceLock::new()).collect(),
            digests: (0..records.len()).map(|_| OnceLock::new()).collect(),
            records,
        }
    }

    /// The arrangement of the documents, as the index keeps it.
    pub fn arrangement(&self) -> Arrangement {
        Arrangement::of_model(self)
    }

    /// What stands for document `i` in fingerprints ([`Model::digest_of`]).
    pub(super) fn digest(&self, i: usize) -> DocumentDigest {
        *self.digests[i].get_or_init(|| self.digest_of(i))
    }

    /// What stands for document `i` in fingerprints: its digest, with the
    /// URL each of its links leads to, the hash of the template of each
    /// shortcode it calls, and the hash of each image it shows.
    pub(super) fn digest_of(&self, i: usize) -> DocumentDigest {
        let record = self.records[i].whole();
        let digest = document_digest(record);
        let mut key = KeyHasher(Sha256::new());
        let shows_images = self.images.as_ref().is_some_and(|s| s.digest(i, &mut key));
        if record.links.is_empty() && record.shortcodes.is_empty() && !shows_images {
            return digest;
        }
        key.0.update(digest);
        for link in &record.links {
            key.text(self.link_url(i, &link.target).as_deref().unwrap_or(""));
        }
        for name in &record.shortcodes {
            key.text(name);
            key.text(self.shortcode_hashes.get(name).map_or("", String::as_str));
        }
        key.0.finalize().into()
    }

    /// The visible documents that are versions of visible document `i`,
    /// itself included.
    pub(super) fn translations_of(&self, i: usize) -> &[usize] {
        self.group_of[i].map_or(&[], |at| &self.groups[at as usize])
    }

    pub(super) fn neighbours(&self, i: usize) -> (Option<usize>, Option<usize>) {
        let Some(at) = self.position[i] else {
            return (None, None);
        };
        let siblings = &self.posts_by_lang[self.records[i].lang.as_str()];
        (
            at.checked_sub(1).and_then(|k| siblings.get(k)).copied(),
            siblings.get(at + 1).copied(),
        )
    }

    /// The visible posts of `lang`, newest first.
    pub(super) fn posts_of(&self, lang: &str) -> &[usize] {
        self.posts_by_lang.get(lang).map_or(&[], Vec::as_slice)
    }

    /// The posts of post `i`'s language that share the most terms with it
    /// (of every taxonomy), at most [`RELATED`], newest first among equals;
    /// none for a page or a post with no term.
    pub(super) fn related(&self, i: usize) -> &[usize] {
        self.related[i].get_or_init(|| {
            let Some(own) = self.position[i] else {
                return Vec::new();
            };
            let posts = self.posts_of(&self.records[i].lang);
            SHARED.with_borrow_mut(|shared| {
                shared.count(self, i);
                shared.most(own).map(|at| posts[at]).collect()
            })
        })
    }

    /// The taxonomy `name`, with its place among the site's.
    pub(super) fn taxonomy(&self, name: &str) -> Option<(usize, &Taxonomy)> {
        self.taxonomies
            .iter()
            .enumerate()
            .find(|(_, t)| t.name == name)
    }

    /// The tags of record `i`, linked to their pages; none when the site
    /// has no tags.
    pub(super) fn tag_links(&self, i: usize) -> Vec<TagLink> {
        self.taxonomy("tags")
            .map_or_else(Vec::new, |(_, tags)| tags.links(&self.records[i], i))
    }

    /// The terms of record `i` of each taxonomy it has terms of, linked to
    /// their pages, by taxonomy.
    pub(super) fn term_links(&self, i: usize) -> BTreeMap<String, Vec<TagLink>> {
        let record = &self.records[i];
        self.taxonomies
            .iter()
            .filter(|t| !record.terms_of(&t.name).is_empty())
            .map(|t| (t.name.clone(), t.links(record, i)))
            .collect()
    }

    pub(super) fn item(&self, config: &Config, i18n: &I18n, i: usize) -> minijinja::Value {
        self.items[i]
            .get_or_init(|| {
                let record = self.records[i].whole();
                let date =
                    DisplayDate::new(config, i18n.strings(&record.lang), record.published_at);
                minijinja::Value::from(minijinja::value::Serde(ListItem {
                    kind: record.kind.as_str(),
                    title: record.title.clone(),
                    url: record.url.clone(),
                    year: date.year().to_owned(),
                    date: date.ymd,
                    date_display: date.display,
                    date_iso: date.iso,
                    summary: self.shown_elsewhere(i, &record.summary).into_owned(),
                    description: record.description.clone(),
                    tags: self.tag_links(i),
                    taxonomies: self.term_links(i),
                    word_count: record.word_count,
                    reading_time: record.reading_time,
                    extra: extra_of(record),
                }))
            })
            .clone()
    }

    pub(super) fn link(&self, i: Option<usize>) -> Option<Link> {
        i.map(|i| {
            let record = self.records[i].whole();
            Link {
                title: record.title.clone(),
                url: record.url.clone(),
            }
        })
    }
}

/// The hash of the template of each shortcode the documents and the
/// sections' `_index.md` files call, by name.
fn shortcode_hashes(
    records: &[Record],
    section_files: &[SectionFile],
    shortcode_hash: &dyn Fn(&str) -> String,
) -> BTreeMap<String, String> {
    records
        .iter()
        .flat_map(|r| &r.shortcodes)
        .chain(section_files.iter().flat_map(|f| &f.shortcodes))
        .map(|name| (name.clone(), shortcode_hash(name)))
        .collect()
}

impl Taxonomy {
    /// Taxonomy `name` of `records`, whose terms have the `slugs`
    /// [`term_slugs`] made, on the pages of the documents `tagged` lists.
    pub(super) fn new(
        config: &Config,
        name: &str,
        (records, slugs): (&[Record], Vec<Vec<Arc<str>>>),
        tagged: &BTreeMap<String, Vec<usize>>,
    ) -> Taxonomy {
        let by_lang = term_indexes(records, name, tagged, &slugs);
        Taxonomy::with_pages(config, name.to_owned(), by_lang, RecordSlugs::Made(slugs))
    }

    /// Taxonomy `name` with its terms `by_lang` and each record's `slugs`,
    /// and the URL of each term's first page.
    pub(super) fn with_pages(
        config: &Config,
        name: String,
        by_lang: BTreeMap<String, TermIndex>,
        slugs: RecordSlugs,
    ) -> Taxonomy {
        let pages = by_lang
            .iter()
            .map(|(lang, index)| {
                let urls = index
                    .keys()
                    .map(|slug| (slug.as_str().into(), term_url(config, lang, &name, slug, 1)))
                    .collect();
                (lang.clone(), urls)
            })
            .collect();
        Taxonomy {
            name,
            by_lang,
            slugs,
            pages,
        }
    }

    /// The slug of each term of `record`, number `i`.
    fn slugs_of(&self, record: &Record, i: usize) -> Cow<'_, [Arc<str>]> {
        match &self.slugs {
            RecordSlugs::Made(slugs) => Cow::Borrowed(&slugs[i]),
            RecordSlugs::Asked(rule) => own_term_slugs(record, &self.name, *rule)
                .map(Arc::from)
                .collect(),
        }
    }

    /// The URL of the first page of term `slug` in `lang`, which has one.
    pub(super) fn page(&self, lang: &str, slug: &str) -> String {
        self.pages[lang][slug].clone()
    }

    /// The name and posts of term `slug` in `lang`, which has it.
    pub(super) fn term(&self, lang: &str, slug: &str) -> &(String, Vec<usize>) {
        &self.by_lang[lang][slug]
    }

    /// The terms of `record`, number `i`, linked to their pages.
    fn links(&self, record: &Record, i: usize) -> Vec<TagLink> {
        // A visible document's terms each have a page in its language;
        // another's may have none: those are not shown.
        let pages = self.pages.get(&record.lang);
        record
            .terms_of(&self.name)
            .iter()
            .zip(self.slugs_of(record, i).iter())
            .filter_map(|(name, slug)| {
                Some(TagLink {
                    name: name.clone(),
                    url: pages?.get(&**slug)?.clone(),
                })
            })
            .collect()
    }
}

/// Per language, the visible documents a term's page may list, in the
/// order it lists them: the posts newest first, then the pages by title
/// (Hugo and Zola list every page of a term, not only the dated ones).
pub(super) fn tagged_by_lang(
    records: &[Record],
    visible: &[usize],
    posts_by_lang: &BTreeMap<String, Vec<usize>>,
) -> BTreeMap<String, Vec<usize>> {
    let mut tagged = posts_by_lang.clone();
    let mut pages: Vec<usize> = visible
        .iter()
        .copied()
        .filter(|&i| records[i].kind == Kind::Page)
        .collect();
    pages.sort_by(|&a, &b| {
        let (a, b) = (&records[a], &records[b]);
        (&a.title, &a.source.path).cmp(&(&b.title, &b.source.path))
    });
    for i in pages {
        tagged.entry(records[i].lang.clone()).or_default().push(i);
    }
    tagged
}

/// Per record, the slug of each of its terms of `taxonomy`. A site has far
/// fewer distinct terms than uses of them: each slug is made once.
pub(super) fn term_slugs(
    records: &[Record],
    taxonomy: &str,
    rule: TermSlugs,
) -> Vec<Vec<Arc<str>>> {
    let mut slug_of: FxHashMap<&str, Arc<str>> = FxHashMap::default();
    records
        .iter()
        .map(|r| {
            r.terms_of(taxonomy)
                .iter()
                .map(|t| {
                    slug_of
                        .entry(t)
                        .or_insert_with(|| term_slug(t, rule).into())
                        .clone()
                })
                .collect()
        })
        .collect()
}

/// Per language, each term's name and documents, by slug. A language has
/// tens of tags and thousands of uses of them: the uses are gathered in a
/// hash map, the sorted index built once.
fn term_indexes(
    records: &[Record],
    taxonomy: &str,
    tagged: &BTreeMap<String, Vec<usize>>,
    slugs: &[Vec<Arc<str>>],
) -> BTreeMap<String, TermIndex> {
    tagged
        .par_iter()
        .map(|(lang, documents)| {
            let mut terms: FxHashMap<&str, (&str, Vec<usize>)> = FxHashMap::default();
            for &i in documents {
                for (name, slug) in records[i].terms_of(taxonomy).iter().zip(&slugs[i]) {
                    let entry = terms.entry(&**slug).or_insert((name, Vec::new()));
                    // Spellings that share a slug show as the smallest
                    // one, whatever order the posts come in.
                    if name.as_str() < entry.0 {
                        entry.0 = name;
                    }
                    entry.1.push(i);
                }
            }
            let index: TermIndex = terms
                .into_iter()
                .map(|(slug, (name, posts))| (slug.to_owned(), (name.to_owned(), posts)))
                .collect();
            (lang.clone(), index)
        })
        .collect()
}

/// What a document is, for a fingerprint: a hash of its path and of the
/// hash of its bytes. Its row (and its body) is a function of those and of
/// the globals. A page shows up to a dozen documents, and hashing 32 bytes
/// for each rather than its path and hex hash halves the fingerprints' cost.
pub(super) type DocumentDigest = [u8; 32];

pub(super) fn document_digest(record: &Record) -> DocumentDigest {
    let mut key = KeyHasher(Sha256::new());
    key.text(&record.source.path);
    key.text(&record.source.hash);
    // The transforms that changed its body: a new version of one renders
    // again the pages that show it.
    for plugin in &record.plugins {
        key.text(plugin);
    }
    key.0.finalize().into()
}

/// The fields of a document's front matter folio does not read, for its
/// templates.
pub(super) fn extra_of(record: &Record) -> serde_json::Value {
    serde_json::from_str(&record.extra).unwrap_or_default()
}

/// The authors a document names, for its feed entry.
pub(super) fn authors_of(record: &Record) -> Vec<String> {
    match extra_of(record).get("authors") {
        Some(serde_json::Value::Array(names)) => names
            .iter()
            .filter_map(|name| name.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}
