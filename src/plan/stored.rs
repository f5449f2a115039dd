//! What the index keeps of each page beside its output's row: which page
//! it is and the documents its fingerprint covers. A one-off build whose
//! documents changed alone since the last build ([`ChangedSince`]) finds
//! the pages that show them by those, and plans only them
//! ([`plan_shown`](super::plan_shown)), making each one's recipe again with
//! the functions a whole plan makes it with.
//!
//! What is kept of a page is a function of its inputs: a page whose
//! fingerprint did not move since its row was written is the same page,
//! covering the same documents, so a row is written again only with its
//! output's.

use super::*;

/// Which page an output is, as its row keeps it: enough for a later build
/// to make its recipe again from its own model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum StoredPage {
    /// The page of the document at this source path.
    Document(String),
    /// A page at an old URL of the document whose page is at this URL
    /// (which its fingerprint covers, unlike the document's path).
    Redirect(String),
    /// A page of the lists of a language ([`language_recipes`]): its
    /// home, archive, taxonomies, terms and their feeds, and the files of
    /// output plugins.
    Language(String),
    /// A page or feed of a section.
    Section,
    /// One of the site's own files ([`SITE_FILES`]), which every plan has.
    SiteFile,
    /// The sitemap, made from every page: no plan of some pages has it.
    Sitemap,
}

impl StoredPage {
    /// As its row keeps it: a word, then the path or language.
    pub(super) fn to_stored(&self) -> String {
        match self {
            StoredPage::Document(path) => format!("document {path}"),
            StoredPage::Redirect(url) => format!("redirect {url}"),
            StoredPage::Language(code) => format!("language {code}"),
            StoredPage::Section => "section".to_owned(),
            StoredPage::SiteFile => "site".to_owned(),
            StoredPage::Sitemap => "sitemap".to_owned(),
        }
    }

    /// `None` for one this version does not write.
    pub(super) fn from_stored(stored: &str) -> Option<StoredPage> {
        match stored.split_once(' ') {
            Some(("document", path)) => Some(StoredPage::Document(path.to_owned())),
            Some(("redirect", url)) => Some(StoredPage::Redirect(url.to_owned())),
            Some(("language", code)) => Some(StoredPage::Language(code.to_owned())),
            None => match stored {
                "section" => Some(StoredPage::Section),
                "site" => Some(StoredPage::SiteFile),
                "sitemap" => Some(StoredPage::Sitemap),
                _ => None,
            },
            _ => None,
        }
    }
}

/// What the index keeps of one page: which page it is
/// ([`StoredPage::to_stored`]) and the documents its fingerprint covers
/// ([`covers_any`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptPage {
    pub page: String,
    pub covers: Vec<u8>,
}

/// The key a page's covers name a document by: the first four bytes of the
/// SHA-256 of what its fingerprint covers of the document, so that a page
/// whose fingerprint held still covers the same keys: its source path for
/// a page that shows it whole (its digest covers its path), its URL for one
/// that lists it by title, URL and date (a document moved to another file
/// keeps its place in a list) or names it by title beside its URL (a
/// redirect). Two documents may share a key; the pages of one are then
/// planned when the other changed, and found unchanged.
pub(super) fn cover_key(covered: &str) -> u32 {
    let digest = Sha256::digest(covered.as_bytes());
    u32::from_le_bytes([digest[0], digest[1], digest[2], digest[3]])
}

/// Whether the covers of a page (as [`Plan::kept_pages`] writes them: the
/// number of documents it shows whole, their keys, then the keys of those
/// it lists by title, URL and date alone, each a little-endian `u32`) name
/// one of `documents` among the first, or one of `retitled` among the
/// others (a document retitled is among `documents` too).
pub fn covers_any(covers: &[u8], documents: &FxHashSet<u32>, retitled: &FxHashSet<u32>) -> bool {
    let mut keys = covers
        .chunks_exact(4)
        .map(|key| u32::from_le_bytes([key[0], key[1], key[2], key[3]]));
    let Some(whole) = keys.next() else {
        return false;
    };
    let mut at = 0;
    keys.any(|key| {
        at += 1;
        match at <= whole as usize {
            true => documents.contains(&key),
            false => retitled.contains(&key),
        }
    })
}

/// The keys of documents `changed` (by place in `records`) whose whole a
/// page may show, and of those `retitled`, as [`covers_any`] takes them.
pub fn cover_keys(
    records: &[Record],
    (changed, retitled): (&[usize], &[usize]),
) -> (FxHashSet<u32>, FxHashSet<u32>) {
    let mut whole: FxHashSet<u32> = (changed.iter())
        .map(|&i| cover_key(&records[i].source.path))
        .collect();
    // A post among them, shown or not: the pages reading every post of its
    // language are planned, and found unchanged when it is a draft.
    let posts = (changed.iter()).filter(|&&i| records[i].kind == Kind::Post);
    whole.extend(posts.map(|&i| cover_key(&every_post_of(&records[i].lang))));
    let listed = (retitled.iter()).map(|&i| cover_key(&records[i].url));
    (whole, listed.collect())
}

/// What stands for every visible post of `lang` in the covers of a page
/// that shows them all ([`Input::PostsOf`]): no source path or URL reads so.
fn every_post_of(lang: &str) -> String {
    format!("every post of {lang}")
}

impl Plan<'_> {
    /// What the index keeps of each page at `pages` (places in the specs),
    /// with its output.
    pub fn kept_pages(&self, pages: &[usize]) -> Vec<(String, KeptPage)> {
        let records = &self.model.records;
        // A cold build keeps every page, and most documents are covered by
        // a dozen: each key is made once.
        let keys: Option<Vec<(u32, u32)>> = (pages.len() > records.len() / 8).then(|| {
            (records.par_iter())
                .map(|r| (cover_key(&r.source.path), cover_key(&r.url)))
                .collect()
        });
        let path_key = |i: usize| match &keys {
            Some(keys) => keys[i].0,
            None => cover_key(&records[i].source.path),
        };
        let url_key = |i: usize| match &keys {
            Some(keys) => keys[i].1,
            None => cover_key(&records[i].url),
        };
        (pages.par_iter())
            .map(|&s| {
                let spec = &self.specs[s];
                let page = self.stored_page(&spec.recipe);
                let (mut whole, mut listed) = (Vec::new(), Vec::new());
                self.covered_by(spec, |covered| match covered {
                    Covered::Document(i) => whole.push(path_key(i)),
                    // One key for them all: a base template reading them
                    // would otherwise keep every post's key on every page.
                    Covered::PostsOf(lang) => whole.push(cover_key(&every_post_of(lang))),
                    Covered::Listing(i) => listed.push(url_key(i)),
                    Covered::Section(_) | Covered::Site => {}
                });
                (spec.output.to_string(), kept_page(&page, whole, listed))
            })
            .collect()
    }

    /// Which page a recipe makes, for its row.
    fn stored_page(&self, recipe: &Recipe) -> StoredPage {
        let path_of = |i: usize| self.model.records[i].source.path.clone();
        match recipe {
            Recipe::Document(recipe::Document(i)) => StoredPage::Document(path_of(*i)),
            Recipe::Redirect(recipe::Redirect(i)) => {
                StoredPage::Redirect(self.model.records[*i].url.clone())
            }
            Recipe::Section(_)
            | Recipe::Feed(recipe::Feed {
                of: recipe::FeedOf::Section(_),
                ..
            }) => StoredPage::Section,
            Recipe::Home(_)
            | Recipe::Archive(_)
            | Recipe::TaxonomyIndex(_)
            | Recipe::Term(_)
            | Recipe::Feed(_)
            | Recipe::Extra(_) => StoredPage::Language(self.language_of(recipe).to_owned()),
            Recipe::SiteFile(_) => StoredPage::SiteFile,
            Recipe::Sitemap(_) => StoredPage::Sitemap,
        }
    }
}

/// A plan of the pages that show what changed, with the pages whose
/// fingerprint it computed; or, when one cannot be made, the records given
/// to make it, for a plan of every page.
pub type PlanOfShown<'a> = Result<(Plan<'a>, Vec<usize>), Vec<Record>>;

/// What reads whole the rows of the [stubs](Record::stub) among records
/// (sorted by source path) at the places given, a place maybe more than
/// once, before anything reads more of them
/// ([`crate::store::index::Index::load`]).
pub type Load<'l> = dyn Fn(&mut [Record], &[usize]) -> Result<(), Error> + 'l;

/// Pages as recipes, each with its URL and template.
type Recipes = Vec<(String, Template, Recipe)>;

/// The pages of the last build that show a document changed alone since,
/// with the site's own files an `asset_url` may name, each with its
/// fingerprint: all a one-off build must look at when only documents
/// changed, each in its place (`sources.changed_since`), and no page of the
/// last build asked for an image. `shown` holds each page's output and
/// what its row keeps of it ([`covers_any`] found them), `templates` the
/// templates of the last build's pages, which are this one's. With the plan
/// come the pages whose fingerprint it computed; when they include an
/// asset ([`Plan::select_among`]), every page naming it has a new link, and
/// the caller plans every page. A page that cannot be made again (a row
/// another version wrote) gives the records back, for the whole plan to be
/// made instead. Of the records that are [stubs](Record::stub), `load`
/// reads whole those the plan reads more of ([`whole_around`], then those
/// the planned pages read).
pub fn plan_shown<'a>(
    (config, views, theme): (&'a Config, &'a Views<'a>, &Theme),
    (records, sections): (Vec<Record>, Vec<SectionFile>),
    (sources, shown, templates): (Sources<'_>, &[(String, String)], Vec<String>),
    (visibility, kept): (Visibility, Option<Arrangement>),
    (started_ns, load): (i64, &Load<'_>),
) -> Result<PlanOfShown<'a>, Error> {
    let (records, kept) = whole_around(
        config,
        (records, &sections),
        (sources, shown),
        (visibility, kept),
        load,
    )?;
    let (copies, statics, mut model) = copies_and_model(
        (config, theme),
        (records, sections),
        sources,
        (visibility, kept),
        started_ns,
    )?;
    let (broken, mut warnings) = model.link_problems();
    if !broken.is_empty() {
        return Err(Error::Content(broken));
    }
    let Some(mut recipes) = recipes_of_shown((config, theme), &model, shown, sources.plugins)?
    else {
        return Ok(Err(std::mem::take(&mut model.records)));
    };
    // Every plan has them, an `asset_url` may name them: as a whole plan's,
    // unless a document has the place.
    let mut site_files = Vec::new();
    recipe::site_file_recipes(config, &copies[..statics], &mut site_files);
    site_files.retain(|(url, ..)| !(model.visible.iter()).any(|&i| model.records[i].url == *url));
    recipes.extend(site_files);
    let (specs, misplaced) = specs_of((config, theme), &model, recipes);
    if !misplaced.is_empty() {
        return Err(Error::Content(misplaced));
    }
    model.drawn = DrawnImages::new(sources.drawn, sources.shown, (&specs, &copies));
    warnings.extend(retired_template(theme));
    let mut plan = Plan {
        specs: Vec::new(),
        copies,
        config,
        views,
        model,
        // Only the sitemap's fingerprint reads it, and no edit in place
        // moves what it covers: the sitemap is not among these pages.
        sitemap_key: String::new(),
        dependents: None,
        templates,
        warnings,
        whole: false,
    };
    let read = plan.documents_read_by(&specs);
    plan.load_records(&read, load)?;
    plan.load_records(&plan.model.targets_of_links_in(&read), load)?;
    let (plan, fingerprinted) = fingerprinted_and_settled(plan, specs, (theme, statics), sources);
    Ok(Ok((plan, fingerprinted.unwrap_or_default())))
}

/// `records` with whole rows where the model and the recipes of the
/// `shown` pages read them, before those pages' inputs are known: around
/// each document read again (the posts either side of it, its versions:
/// what the `kept` arrangement is checked against), the documents whose
/// own pages are shown, and those of bundles (which files a bundle copies
/// depends on whether its document is shown, and where). Every row when no
/// kept arrangement fits the records or agrees with them: one is then
/// derived from all of them. With the arrangement, when it is theirs.
fn whole_around(
    config: &Config,
    (mut records, sections): (Vec<Record>, &[SectionFile]),
    (sources, shown): (Sources<'_>, &[(String, String)]),
    (visibility, kept): (Visibility, Option<Arrangement>),
    load: &Load<'_>,
) -> Result<(Vec<Record>, Option<Arrangement>), Error> {
    let load_every =
        |records: &mut [Record]| load(records, &(0..records.len()).collect::<Vec<_>>());
    let fresh = sources
        .changed_since
        .map_or(&[][..], |changed| changed.documents);
    let Some(kept) = kept.filter(|kept| kept.fits(config, records.len(), sections)) else {
        load_every(&mut records)?;
        return Ok((records, None));
    };
    let place_of = |path: &str| {
        (records.binary_search_by(|record| record.source.path.as_str().cmp(path))).ok()
    };
    let shown_pages = shown
        .iter()
        .filter_map(|(_, page)| match StoredPage::from_stored(page) {
            Some(StoredPage::Document(path)) => place_of(&path),
            _ => None,
        });
    let bundled = (sources.bundles.iter()).flat_map(|bundle| &bundle.documents);
    let mut first = kept.around(fresh);
    first.extend(shown_pages);
    first.extend(bundled.filter_map(|path| place_of(path)));
    load(&mut records, &first)?;
    if kept.agrees(config, &records, fresh, visibility) {
        if cfg!(debug_assertions) {
            // Derived again from every row whole, for the check.
            let mut whole = records.clone();
            load_every(&mut whole)?;
            let derived = Arranged::of(config, (&whole, sections.to_vec()), visibility);
            let derived = Arrangement::of(&derived, whole.len());
            assert_eq!(kept, derived, "the arrangement kept is not the documents'");
        }
        return Ok((records, Some(kept)));
    }
    load_every(&mut records)?;
    Ok((records, None))
}

/// The recipes of the pages at `shown` (output, what its row keeps), made
/// again by the functions a whole plan makes them with, from `model`, in
/// the order a whole plan lists them (a failed page is the first one that
/// fails in that order); `None` when one is not to be found, or is found
/// twice.
fn recipes_of_shown(
    (config, theme): (&Config, &Theme),
    model: &Model,
    shown: &[(String, String)],
    plugins: &Plugins,
) -> Result<Option<Recipes>, Error> {
    let mut pages = ShownPages::default();
    for (_, stored) in shown {
        if !pages.add(model, StoredPage::from_stored(stored)) {
            return Ok(None);
        }
    }
    let mut recipes = Vec::new();
    for (code, _) in config.ordered_languages() {
        if pages.languages.contains(code.as_str()) {
            language_recipes((config, theme), model, (code, plugins), &mut recipes);
        }
    }
    if pages.sections {
        let problems = recipe::section_recipes(config, model, theme, &mut recipes);
        if !problems.is_empty() {
            return Err(Error::Content(problems));
        }
    }
    // Each document once, in the records' order, as a whole plan goes.
    for &i in pages.pages.union(&pages.redirects) {
        if pages.pages.contains(&i) {
            let Some(recipe) = document_recipe(model, theme, i) else {
                return Ok(None);
            };
            recipes.push(recipe);
        }
        if pages.redirects.contains(&i) {
            recipe::Redirect::recipes_of(&model.records[i], i, &mut recipes);
        }
    }
    documents_take_generated_places(&mut recipes);
    let site_file = StoredPage::SiteFile.to_stored();
    let wanted: FxHashSet<&str> = (shown.iter())
        .filter(|(_, page)| *page != site_file)
        .map(|(output, _)| output.as_str())
        .collect();
    // Most of a language's list pages are not among them: the output path
    // of each is made on the pool (thousands at 20,000 posts).
    let recipes: Vec<(OutputPath, _)> = (recipes.into_par_iter())
        .filter_map(|recipe| {
            let output = config.site_path(&recipe.0).and_then(OutputPath::for_url)?;
            wanted.contains(output.as_str()).then_some((output, recipe))
        })
        .collect();
    let mut found = FxHashSet::default();
    let twice = !(recipes.iter()).all(|(output, _)| found.insert(output.as_str()));
    let complete = !twice && found.len() == wanted.len();
    Ok(complete.then(|| recipes.into_iter().map(|(_, recipe)| recipe).collect()))
}

/// The shown pages by what makes them again: the languages whose lists,
/// whether the sections', and the documents (by place) whose pages or
/// redirects.
#[derive(Default)]
struct ShownPages {
    languages: BTreeSet<String>,
    sections: bool,
    pages: BTreeSet<usize>,
    redirects: BTreeSet<usize>,
}

impl ShownPages {
    /// Adds the page a row keeps; whether it is one a plan of some pages
    /// makes again (not the sitemap, nor one of a document there is no
    /// more, nor one another version names).
    fn add(&mut self, model: &Model, page: Option<StoredPage>) -> bool {
        let place_of = |path: &str| {
            (model.records)
                .binary_search_by(|record| record.source.path.as_str().cmp(path))
                .ok()
        };
        match page {
            Some(StoredPage::Document(path)) => {
                let Some(i) = place_of(&path) else {
                    return false;
                };
                self.pages.insert(i);
            }
            Some(StoredPage::Redirect(url)) => {
                let led_to = (model.visible.iter()).find(|&&i| model.records[i].url == url);
                let Some(&i) = led_to else {
                    return false;
                };
                self.redirects.insert(i);
            }
            // One the site no longer has lists none of its pages.
            Some(StoredPage::Language(code)) => {
                self.languages.insert(code);
            }
            Some(StoredPage::Section) => self.sections = true,
            // Planned with every plan.
            Some(StoredPage::SiteFile) => {}
            Some(StoredPage::Sitemap) | None => return false,
        }
        true
    }
}

/// `page` with the keys it covers, each list sorted and without repeats.
fn kept_page(page: &StoredPage, mut whole: Vec<u32>, mut listed: Vec<u32>) -> KeptPage {
    for keys in [&mut whole, &mut listed] {
        keys.sort_unstable();
        keys.dedup();
    }
    let mut covers = Vec::with_capacity(4 * (1 + whole.len() + listed.len()));
    covers.extend((whole.len() as u32).to_le_bytes());
    for key in whole.iter().chain(&listed) {
        covers.extend(key.to_le_bytes());
    }
    KeptPage {
        page: page.to_stored(),
        covers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_page_reads_back_as_written() {
        for page in [
            StoredPage::Document("content/en/posts/a b.md".into()),
            StoredPage::Redirect("/fr/posts/x/".into()),
            StoredPage::Language("pt-BR".into()),
            StoredPage::Section,
            StoredPage::SiteFile,
            StoredPage::Sitemap,
        ] {
            assert_eq!(StoredPage::from_stored(&page.to_stored()), Some(page));
        }
        assert_eq!(StoredPage::from_stored("term en tags"), None);
    }

    #[test]
    fn covers_name_documents_shown_whole_or_listed_only_when_retitled() {
        let page = StoredPage::Section;
        let covers = kept_page(&page, vec![7, 3, 7], vec![9]).covers;
        assert_eq!(covers.len(), 4 * 4, "the count, two keys whole, one listed");
        let set = |keys: &[u32]| keys.iter().copied().collect::<FxHashSet<u32>>();
        assert!(covers_any(&covers, &set(&[3]), &set(&[])));
        assert!(covers_any(&covers, &set(&[7]), &set(&[])));
        assert!(covers_any(&covers, &set(&[]), &set(&[9])));
        assert!(!covers_any(&covers, &set(&[]), &set(&[7])));
        // A document listed by its title alone is reached by a new title,
        // not by what else it holds.
        assert!(!covers_any(&covers, &set(&[9]), &set(&[])));
        assert!(!covers_any(&covers, &set(&[1, 2]), &set(&[4])));
        assert!(!covers_any(&[], &set(&[0]), &set(&[0])));
    }
}
