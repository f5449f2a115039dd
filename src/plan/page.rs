//! A page from its recipe: its fingerprint (the hash of its inputs), its
//! alternates and the common part of its context, built only when it is
//! rendered; the checks of the outputs' paths against each other.

use super::*;

impl<'a> Plan<'a> {
    /// What the page of `spec` is computed from: [`Recipe::inputs`], and
    /// the lists of posts its template reads beyond its context (every
    /// post of its language, a post's related posts).
    pub(super) fn inputs<'s>(&'s self, spec: &'s Spec) -> Inputs<'s> {
        let model = &self.model;
        let mut inputs = spec.recipe.inputs(model);
        if spec.reads.all_posts {
            let lang = self.language_of(&spec.recipe);
            inputs.parts.push(Input::PostsOf(lang));
        }
        if spec.reads.related
            && let Recipe::Document(recipe::Document(i)) = spec.recipe
        {
            inputs.parts.push(Input::Documents(model.related(i)));
        }
        inputs
    }

    /// The fingerprint of a spec: the hash of its [`Plan::inputs`].
    pub(super) fn key(&self, prefixes: &KeyPrefixes<'_>, spec: &Spec) -> String {
        let model = &self.model;
        let mut key = prefixes.start(&spec.template, self.language_of(&spec.recipe), &spec.url);
        for part in self.inputs(spec).parts {
            match part {
                Input::Text(text) => key.text(text),
                Input::Title(i) => {
                    let record = model.records[i].whole();
                    key.text(&record.title)
                }
                Input::Number(n) => key.number(n),
                Input::Document(i) => key.document(model, i),
                Input::Documents(indices) => key.documents(model, indices.iter().copied()),
                Input::PostsOf(lang) => key.documents(model, model.posts_of(lang).iter().copied()),
                Input::Listed(indices) => {
                    for &i in indices {
                        let record = model.records[i].whole();
                        key.text(&record.title);
                        key.text(&record.url);
                        key.moment(record.published_at);
                    }
                    key.number(indices.len());
                }
                Input::Neighbour(i) => key.named(model, i, |r| [&r.title, &r.url]),
                Input::Versions(list) => {
                    key.named(model, list.iter().copied(), |r| [&r.lang, &r.url])
                }
                Input::TermIndex(t, lang) => {
                    let terms = model.taxonomies[t].by_lang.get(lang);
                    for (slug, (name, posts)) in terms.into_iter().flatten() {
                        key.text(slug);
                        key.text(name);
                        key.number(posts.len());
                    }
                }
                Input::Sitemap => key.text(&self.sitemap_key),
                Input::SectionFile(file) => {
                    let file = &model.sections.files[file];
                    key.text(&file.hash);
                    key.number(file.shortcodes.len());
                    for name in &file.shortcodes {
                        key.text(model.shortcode_hashes.get(name).map_or("", String::as_str));
                    }
                }
                Input::SectionTitle(file) => {
                    key.text(model.sections.files[file].title.as_deref().unwrap_or(""))
                }
            }
        }
        model.drawn.fingerprint(spec.output.as_str(), key.finish())
    }

    /// The variants of images the pages' templates asked for when they last
    /// rendered, but those the copies make: made, or pruned, once the pages
    /// have rendered.
    pub fn drawn(&self) -> &[Copy] {
        self.model.drawn.copies()
    }

    /// What the pages' templates asked for when they last rendered, by
    /// page.
    pub fn drawn_uses(&self) -> &Drawn {
        self.model.drawn.uses()
    }

    /// Every output `asset_url` may name, and what makes it.
    pub fn assets(&self) -> &FxHashMap<String, AssetAt> {
        self.model.assets.candidates()
    }

    /// The facts of the assets that hold: those of the bytes the plan's
    /// assets have.
    pub fn asset_facts(&self) -> &FxHashMap<String, AssetFacts> {
        self.model.assets.holding()
    }

    /// Whether the page of `spec` was last written (with the fingerprint
    /// `written`) as it would be now: its own fingerprint the same, and
    /// each asset it named with the hash it was written with.
    pub fn written_as_planned(&self, spec: &Spec, written: &str) -> bool {
        self.model
            .assets
            .written_as_planned(&spec.fingerprint, written)
    }

    /// The pages at `fingerprinted` (places, sorted) as the only ones
    /// select need look at, the others' fingerprints being as written;
    /// `None` when one of them is an asset (a site file `asset_url` names),
    /// whose new bytes would give every page naming it a new link.
    pub fn select_among(&self, fingerprinted: Vec<usize>) -> Option<Vec<usize>> {
        let assets = self.model.assets.candidates().values();
        let fingerprints_an_asset = assets
            .filter_map(|at| match at {
                AssetAt::Spec(s) => Some(s),
                AssetAt::Copy(_) => None,
            })
            .any(|s| fingerprinted.binary_search(s).is_ok());
        (!fingerprints_an_asset).then_some(fingerprinted)
    }

    /// The facts the index keeps of the assets some page named when last
    /// written, holding or not: which assets the pages name.
    pub fn named_assets(&self) -> &KeptFacts {
        self.model.assets.recorded()
    }

    /// Per document and per section's `_index.md`, the pages whose
    /// fingerprint covers it: the documents and the sections' files among
    /// their [`Plan::inputs`].
    pub(super) fn dependents(&self) -> Dependents {
        let mut documents = vec![Vec::new(); self.model.records.len()];
        let mut listings = vec![Vec::new(); self.model.records.len()];
        let mut sections = vec![Vec::new(); self.model.sections.files.len()];
        for (s, spec) in self.specs.iter().enumerate() {
            let s = s as u32;
            self.covered_by(spec, |covered| match covered {
                Covered::Document(i) => documents[i].push(s),
                Covered::Listing(i) => listings[i].push(s),
                Covered::Section(f) => sections[f].push(s),
                Covered::PostsOf(lang) => {
                    for &i in self.model.posts_of(lang) {
                        documents[i].push(s);
                    }
                }
                // A kept plan keeps its sitemap key: what it covers is the
                // documents' places, which a replan never moves.
                Covered::Site => {}
            });
        }
        Dependents {
            documents,
            listings,
            sections,
        }
    }

    /// Whether the fingerprint of `spec` covers a document of `changed`,
    /// or lists one of `retitled` by its title.
    pub(super) fn shows_any(
        &self,
        spec: &Spec,
        (changed, retitled): (&FxHashSet<usize>, &FxHashSet<usize>),
    ) -> bool {
        let mut shows = false;
        self.covered_by(spec, |covered| {
            shows |= match covered {
                Covered::Document(i) => changed.contains(&i),
                Covered::Listing(i) => retitled.contains(&i),
                // A changed document among them: a visible post of `lang`.
                Covered::PostsOf(lang) => changed.iter().any(|&i| {
                    self.model.position[i].is_some() && self.model.records[i].lang == lang
                }),
                Covered::Section(_) => false,
                // One page, computed again from the key the plan made.
                Covered::Site => true,
            }
        });
        shows
    }

    /// Each document and section's `_index.md` the fingerprint of `spec`
    /// covers, and how: what a change to one of them reaches.
    pub(super) fn covered_by<'s>(&'s self, spec: &'s Spec, mut each: impl FnMut(Covered<'s>)) {
        for part in self.inputs(spec).parts {
            match part {
                Input::Document(i) => each(Covered::Document(i)),
                Input::Documents(list) => list.iter().for_each(|&i| each(Covered::Document(i))),
                Input::PostsOf(lang) => each(Covered::PostsOf(lang)),
                Input::Listed(list) | Input::Versions(list) => {
                    list.iter().for_each(|&i| each(Covered::Listing(i)))
                }
                Input::Title(i) | Input::Neighbour(Some(i)) => each(Covered::Listing(i)),
                Input::SectionFile(f) | Input::SectionTitle(f) => each(Covered::Section(f)),
                Input::Sitemap => each(Covered::Site),
                Input::Text(_)
                | Input::Number(_)
                | Input::Neighbour(None)
                | Input::TermIndex(..) => {}
            }
        }
    }

    /// `html` of document `i` (its body) as its page shows it: its images
    /// as `[images]` says, each `@/` link's URL in its place.
    pub fn as_shown<'h>(&self, i: usize, html: &'h str) -> Cow<'h, str> {
        self.model.as_shown(i, html)
    }

    /// `html` of document `i` (its body, its links already resolved) as a
    /// feed shows it: its links leading where they lead from its page.
    pub fn in_feed(&self, i: usize, html: String) -> String {
        match self.model.led_to_its_page(i, &html) {
            Cow::Owned(led) => led,
            Cow::Borrowed(_) => html,
        }
    }

    /// Every current document, by source path.
    pub fn records(&self) -> &[Record] {
        &self.model.records
    }

    /// The documents the pages of `specs` read, each once, in the records'
    /// order: those they show whole and those they list, name or link to
    /// by their title, URL, date or language, as their inputs say
    /// ([`Plan::inputs`]).
    pub(super) fn documents_read_by(&self, specs: &[Spec]) -> Vec<usize> {
        let model = &self.model;
        let mut read = BTreeSet::new();
        for spec in specs {
            for part in self.inputs(spec).parts {
                match part {
                    Input::Document(i) | Input::Title(i) | Input::Neighbour(Some(i)) => {
                        read.insert(i);
                    }
                    Input::Documents(indices) => read.extend(indices),
                    Input::Listed(indices) | Input::Versions(indices) => {
                        read.extend(indices.iter().copied())
                    }
                    Input::PostsOf(lang) => read.extend(model.posts_of(lang)),
                    Input::Text(_)
                    | Input::Number(_)
                    | Input::Neighbour(None)
                    | Input::TermIndex(..)
                    | Input::Sitemap
                    | Input::SectionFile(_)
                    | Input::SectionTitle(_) => {}
                }
            }
        }
        read.into_iter().collect()
    }

    /// Lets `load` read whole the rows of the [stubs](Record::stub) at
    /// `which` before a page reads them; what the model made of them
    /// before is made again.
    pub(super) fn load_records(&mut self, which: &[usize], load: &Load<'_>) -> Result<(), Error> {
        load(&mut self.model.records, which)?;
        for &i in which {
            self.model.items[i] = OnceLock::new();
            self.model.related[i] = OnceLock::new();
            self.model.digests[i] = OnceLock::new();
        }
        Ok(())
    }

    /// Whether it has every page of the site, not only those that show
    /// what changed ([`plan_shown`]).
    pub fn is_whole(&self) -> bool {
        self.whole
    }

    /// Its documents, the plan given up.
    pub fn into_records(mut self) -> Vec<Record> {
        std::mem::take(&mut self.model.records)
    }

    /// The plan without its borrows, to be kept for the next build.
    pub fn into_kept(self) -> KeptPlan {
        KeptPlan {
            specs: self.specs,
            copies: self.copies,
            model: self.model,
            sitemap_key: self.sitemap_key,
            dependents: self.dependents,
            templates: self.templates,
        }
    }

    /// The versions of a page in each language, itself included (for
    /// `hreflang`); a page with no translation has only itself.
    pub(super) fn alternates(&self, recipe: &Recipe, url: &str) -> Vec<Alternate> {
        let mut alternates = Vec::new();
        self.each_alternate(recipe, url, |code, url| {
            alternates.push(Alternate {
                code: code.to_owned(),
                url: url.to_owned(),
            })
        });
        alternates
    }

    /// [`Plan::alternates`], as (language code, URL) pairs handed to `visit`.
    pub(super) fn each_alternate(
        &self,
        recipe: &Recipe,
        url: &str,
        mut visit: impl FnMut(&str, &str),
    ) {
        let config = self.config;
        let mut every_language = |url_of: &dyn Fn(&str) -> String| {
            for (code, _) in config.ordered_languages() {
                visit(code, &url_of(code));
            }
        };
        match recipe {
            Recipe::Document(recipe::Document(i)) => {
                for &j in self.model.translations_of(*i) {
                    let record = &self.model.records[j];
                    visit(&record.lang, &record.url);
                }
            }
            Recipe::Home(recipe::Home { list, .. }) if list.page == 1 => {
                every_language(&|code| home_url(config, code, 1))
            }
            Recipe::Archive(_) => every_language(&|code| archive_url(config, code)),
            Recipe::TaxonomyIndex(recipe::TaxonomyIndex { taxonomy, .. }) => {
                let name = &self.model.taxonomies[*taxonomy].name;
                every_language(&|code| taxonomy_url(config, code, name))
            }
            Recipe::Section(recipe::Section { at, list }) if list.page == 1 => {
                let sections = &self.model.sections;
                for version in sections.versions(&sections.lists[*at].folder) {
                    let version = &sections.lists[version];
                    visit(&version.lang, &version.url);
                }
            }
            Recipe::Section(recipe::Section { at, .. }) => {
                visit(&self.model.sections.lists[*at].lang, url)
            }
            Recipe::Home(recipe::Home { lang, .. }) | Recipe::Term(recipe::Term { lang, .. }) => {
                visit(lang, url)
            }
            Recipe::Feed(_)
            | Recipe::Sitemap(_)
            | Recipe::SiteFile(_)
            | Recipe::Extra(_)
            | Recipe::Redirect(_) => {}
        }
    }

    /// The language a page is in.
    pub(super) fn language_of<'s>(&'s self, recipe: &'s Recipe) -> &'s str {
        match recipe {
            Recipe::Document(recipe::Document(i)) | Recipe::Redirect(recipe::Redirect(i)) => {
                &self.model.records[*i].lang
            }
            Recipe::Home(recipe::Home { lang, .. })
            | Recipe::Archive(recipe::Archive { lang })
            | Recipe::TaxonomyIndex(recipe::TaxonomyIndex { lang, .. })
            | Recipe::Term(recipe::Term { lang, .. })
            | Recipe::Feed(recipe::Feed { lang, .. })
            | Recipe::Extra(recipe::Extra { lang, .. }) => lang,
            Recipe::Section(recipe::Section { at, .. }) => &self.model.sections.lists[*at].lang,
            Recipe::Sitemap(_) | Recipe::SiteFile(_) => &self.config.default_language,
        }
    }

    /// The language whose words and dates a page shows.
    pub fn language<'s>(&'s self, spec: &'s Spec) -> &'s str {
        self.language_of(&spec.recipe)
    }

    /// The site.toml keys a page's context is computed from.
    pub fn config_keys(&self, spec: &Spec) -> Vec<String> {
        let lang = self.language_of(&spec.recipe);
        let mut keys = vec![
            if self.config.languages[lang].title.is_some() {
                format!("languages.{lang}.title")
            } else {
                "title".to_owned()
            },
            "base_url".to_owned(),
            "default_language".to_owned(),
            "default_language_in_subdir".to_owned(),
        ];
        keys.extend(
            self.config
                .languages
                .keys()
                .map(|code| format!("languages.{code}.name")),
        );
        let extra = self.inputs(spec).config_keys;
        keys.extend(extra.iter().map(|k| (*k).to_owned()));
        keys
    }

    /// The digest of everything any page takes from the config, and of the
    /// words of `lang`: what a dry run compares to say that they changed.
    pub fn globals(&self) -> &str {
        &self.views.globals
    }

    pub fn wording(&self) -> &BTreeMap<String, String> {
        &self.views.wording
    }

    /// The site's config.
    pub fn config(&self) -> &Config {
        self.config
    }

    /// The templates the pages use, with every template they extend,
    /// include or import: sorted names.
    pub fn templates(&self) -> &[String] {
        &self.templates
    }

    /// The documents' arrangement, as the index keeps it.
    pub fn arrangement(&self) -> Arrangement {
        self.model.arrangement()
    }

    /// Whether the documents' arrangement is the one the index kept.
    pub fn arrangement_kept(&self) -> bool {
        self.model.arrangement_kept
    }

    /// Who produces the output of `spec` (`folio explain`).
    pub fn made_by(&self, spec: &Spec) -> String {
        spec.recipe.made_by(&self.model, &spec.template)
    }

    /// The sources a page is built from (`folio explain`).
    pub fn sources_of(&self, spec: &Spec) -> Vec<String> {
        let model = &self.model;
        let mut indices: Vec<usize> = Vec::new();
        let mut files: Vec<String> = Vec::new();
        for part in self.inputs(spec).parts {
            match part {
                Input::Text(_) | Input::Number(_) => {}
                Input::Title(i) => indices.push(i),
                Input::SectionFile(file) | Input::SectionTitle(file) => {
                    files.push(model.sections.files[file].path.clone())
                }
                Input::Document(i) => indices.push(i),
                Input::Documents(list) | Input::Listed(list) | Input::Versions(list) => {
                    indices.extend_from_slice(list)
                }
                Input::PostsOf(lang) => indices.extend_from_slice(model.posts_of(lang)),
                Input::Neighbour(i) => indices.extend(i),
                Input::TermIndex(t, lang) => {
                    let terms = model.taxonomies[t].by_lang.get(lang).into_iter();
                    indices.extend(terms.flat_map(|terms| terms.values().flat_map(|(_, d)| d)))
                }
                Input::Sitemap => indices.extend_from_slice(&model.visible),
            }
        }
        let mut seen = std::collections::HashSet::new();
        indices.retain(|i| seen.insert(*i));
        files.extend(
            indices
                .iter()
                .map(|&i| model.records[i].source.path.clone()),
        );
        files
    }

    /// Builds the context of `spec`: the page, ready to render. `sitemap`
    /// is [`Plan::sitemap_if_selected`]'s answer.
    pub fn page<'s>(&'s self, spec: &Spec, sitemap: Option<&'s [SitemapEntry]>) -> Page<'s> {
        let lang = self.language_of(&spec.recipe).to_owned();
        let alternates = self.alternates(&spec.recipe, &spec.url);
        let alternates = if alternates.len() > 1 {
            alternates
        } else {
            Vec::new()
        };
        let mut context = self.context(&lang, spec.url.clone(), alternates);
        spec.recipe.fill(self, &mut context, sitemap);
        self.fill_reads(spec, &lang, &mut context);
        Page {
            output: spec.output.clone(),
            template: spec.template.clone(),
            context,
            fingerprint: spec.fingerprint.clone(),
        }
    }

    /// The lists of posts the page's template reads beyond its context,
    /// which [`Plan::inputs`] covers.
    fn fill_reads(&self, spec: &Spec, lang: &str, context: &mut Context<'_>) {
        let (config, model, i18n) = (self.config, &self.model, self.views.i18n);
        let items = |list: &[usize]| list.iter().map(|&i| model.item(config, i18n, i)).collect();
        if spec.reads.all_posts {
            context.all_posts = Some(items(model.posts_of(lang)));
        }
        if spec.reads.related
            && let (Recipe::Document(recipe::Document(i)), Some(post)) =
                (&spec.recipe, context.post.as_mut())
        {
            post.related = items(model.related(*i));
        }
    }

    pub(super) fn x_default(&self, alternates: &[Alternate]) -> Option<String> {
        let config = self.config;
        (alternates.len() > 1).then(|| {
            alternates
                .iter()
                .find(|a| a.code == config.default_language)
                .map_or_else(
                    || config.language_root(&config.default_language),
                    |a| a.url.clone(),
                )
        })
    }

    /// The common part of a context. `alternates` are the page's versions,
    /// itself included; the switcher falls back to each language's home.
    pub(super) fn context<'s>(
        &'s self,
        lang: &str,
        url: String,
        alternates: Vec<Alternate>,
    ) -> Context<'s> {
        let config = self.config;
        let x_default = self.x_default(&alternates);
        let switcher = config
            .ordered_languages()
            .map(|(code, language)| {
                let translation = alternates.iter().find(|a| a.code == *code);
                SwitchLink {
                    code: code.clone(),
                    name: language.name.clone(),
                    url: translation.map_or_else(|| config.language_root(code), |a| a.url.clone()),
                    current: code == lang,
                    translated: translation.is_some(),
                }
            })
            .collect();
        let views = self.views;
        Context {
            site: &views.sites[lang],
            lang: &views.langs[lang],
            i18n: &views.words[lang],
            menus: &self.model.menus[lang],
            feeds: &views.feeds[lang],
            feed_url: config
                .feeds
                .files
                .first()
                .filter(|_| config.feeds.home)
                .map(|file| feed_url(&config.language_root(lang), &file.name)),
            list_feeds: Vec::new(),
            url,
            alternates,
            x_default,
            switcher,
            post: None,
            page: None,
            posts: None,
            paginator: None,
            taxonomy: None,
            terms: None,
            term: None,
            archive: None,
            all_posts: None,
            section: None,
            redirect: None,
            feed: None,
            entries: None,
            sitemap: None,
        }
    }
}

/// The outputs that clash: the same path twice, a path inside another
/// output (a file cannot be a folder), or two paths that differ only in
/// case (one file on macOS and Windows). `outputs` are in claim order, the
/// first claimant of a path keeps it; `made_by(i)` names who produces the
/// `i`th, and is asked only when there is a clash.
pub(super) fn output_collisions(
    outputs: &[&str],
    made_by: impl Fn(usize) -> PathBuf,
) -> Vec<Problem> {
    let collision = |at: usize, output: String, other: usize| {
        Problem::new(
            made_by(at),
            None,
            ProblemKind::OutputCollision {
                output,
                other: made_by(other),
            },
        )
    };
    let mut problems = Vec::new();
    // An exact duplicate folds to the same key as its first claimant.
    // Nearly every output is lowercase ASCII already and folds to itself.
    let mut by_fold: FxHashMap<std::borrow::Cow<'_, str>, usize> =
        FxHashMap::with_capacity_and_hasher(outputs.len(), Default::default());
    let mut owner: FxHashMap<&str, usize> =
        FxHashMap::with_capacity_and_hasher(outputs.len(), Default::default());
    for (at, &path) in outputs.iter().enumerate() {
        let fold = if path
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
        {
            std::borrow::Cow::Borrowed(path)
        } else {
            std::borrow::Cow::Owned(path.nfc().flat_map(char::to_lowercase).collect())
        };
        match by_fold.entry(fold) {
            std::collections::hash_map::Entry::Occupied(first) => {
                let first = *first.get();
                problems.push(if outputs[first] == path {
                    collision(at, path.to_owned(), first)
                } else {
                    collision(
                        at,
                        format!(
                            "{path} (the same file as {} where case is ignored)",
                            outputs[first]
                        ),
                        first,
                    )
                });
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(at);
                owner.insert(path, at);
            }
        }
    }
    for (at, &path) in outputs.iter().enumerate() {
        if owner.get(path) != Some(&at) {
            continue;
        }
        for (cut, _) in path.match_indices('/') {
            if let Some(&file) = owner.get(&path[..cut]) {
                problems.push(collision(
                    at,
                    format!("{path} (inside {}, a file)", outputs[file]),
                    file,
                ));
            }
        }
    }
    problems
}

pub(super) fn paginator(
    current: usize,
    total: usize,
    url_of: impl Fn(usize) -> String,
) -> Paginator {
    Paginator {
        current,
        total,
        newer_url: (current > 1).then(|| url_of(current - 1)),
        older_url: (current < total).then(|| url_of(current + 1)),
    }
}

/// A date in the site time zone: `YYYY-MM-DD`, the language's own format,
/// and RFC 3339 with the offset.
pub(super) struct DisplayDate {
    pub(super) ymd: String,
    pub(super) display: String,
    pub(super) iso: String,
}

impl DisplayDate {
    pub(super) fn new(config: &Config, strings: &Strings, ms: i64) -> DisplayDate {
        let zoned = Timestamp::from_millisecond(ms)
            .unwrap_or(Timestamp::UNIX_EPOCH)
            .to_zoned_datetime(config.timezone.clone());
        DisplayDate {
            ymd: zoned.strftime("%Y-%m-%d").to_string(),
            display: strings.format_date(&zoned),
            iso: zoned.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string(),
        }
    }

    /// Its year, `YYYY`: what an archive groups by.
    pub(super) fn year(&self) -> &str {
        self.ymd.get(..4).unwrap_or_default()
    }
}

/// How a page's fingerprint covers a document or a section's `_index.md`.
pub(super) enum Covered<'s> {
    /// All it holds, by its digest.
    Document(usize),
    /// Every visible post of a language, each by its digest.
    PostsOf(&'s str),
    /// Its title, URL and date alone.
    Listing(usize),
    /// A section's `_index.md`, whole or its title.
    Section(usize),
    /// Every visible document's URL, alternates and dates (the sitemap).
    Site,
}
