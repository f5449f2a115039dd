//! What each page is computed from (its inputs, hence its fingerprint),
//! and the context its template is given, built only when it is rendered;
//! the checks of the outputs' paths against each other.

use super::*;

impl<'a> Plan<'a> {
    /// What the page of `recipe` is computed from, beyond its template, the
    /// config every page reads and its language's words: the one list its
    /// fingerprint, `folio explain` and a dry run's reasons read.
    pub(super) fn inputs<'s>(&'s self, recipe: &'s Recipe) -> Inputs<'s> {
        let model = &self.model;
        const LISTS: &[&str] = &["paginate", "permalink", "timezone"];
        match recipe {
            Recipe::Document(i) => {
                let record = &model.records[*i];
                let (newer, older) = model.neighbours(*i);
                Inputs {
                    parts: vec![
                        Input::Text(&record.lang),
                        Input::Document(*i),
                        Input::Documents(model.translations_of(*i)),
                        Input::Neighbour(newer),
                        Input::Neighbour(older),
                    ],
                    config_keys: match record.kind {
                        Kind::Post => &["permalink", "timezone"],
                        Kind::Page => &[],
                    },
                }
            }
            Recipe::Home {
                lang,
                page,
                total,
                items,
            } => Inputs {
                parts: vec![
                    Input::Text(lang),
                    Input::Number(*page),
                    Input::Number(*total),
                    Input::Documents(items),
                ],
                config_keys: LISTS,
            },
            Recipe::Tags { lang } => Inputs {
                parts: vec![Input::Text(lang), Input::TagIndex(lang)],
                config_keys: &[],
            },
            Recipe::Tag {
                lang,
                slug,
                page,
                total,
                items,
            } => {
                let (name, tagged) = &model.tags_by_lang[lang.as_str()][slug];
                Inputs {
                    parts: vec![
                        Input::Text(lang),
                        Input::Text(slug),
                        Input::Text(name),
                        Input::Number(tagged.len()),
                        Input::Number(*page),
                        Input::Number(*total),
                        Input::Documents(items),
                    ],
                    config_keys: LISTS,
                }
            }
            Recipe::Feed { lang, items } => Inputs {
                parts: vec![Input::Text(lang), Input::Documents(items)],
                config_keys: &["author", "feed_limit", "permalink", "timezone"],
            },
            Recipe::Sitemap => Inputs {
                parts: vec![Input::Sitemap],
                config_keys: &["paginate", "permalink"],
            },
            Recipe::SiteFile => Inputs {
                parts: Vec::new(),
                config_keys: &[],
            },
            Recipe::Redirect(i) => {
                let record = &model.records[*i];
                Inputs {
                    parts: vec![Input::Text(&record.url), Input::Text(&record.title)],
                    config_keys: &["base_url"],
                }
            }
            Recipe::Extra {
                stamp, lang, items, ..
            } => Inputs {
                parts: vec![
                    Input::Text(lang),
                    Input::Text(stamp),
                    Input::Documents(items),
                ],
                config_keys: &["permalink"],
            },
        }
    }

    /// The fingerprint of a spec: the hash of its [`Plan::inputs`].
    pub(super) fn key(&self, prefixes: &KeyPrefixes<'_>, spec: &Spec) -> String {
        let model = &self.model;
        let digests = &model.digests;
        let mut key = prefixes.start(&spec.template, self.language_of(&spec.recipe), &spec.url);
        for part in self.inputs(&spec.recipe).parts {
            match part {
                Input::Text(text) => key.text(text),
                Input::Number(n) => key.number(n),
                Input::Document(i) => key.document(digests, i),
                Input::Documents(indices) => key.documents(digests, indices.iter().copied()),
                Input::Neighbour(i) => key.documents(digests, i),
                Input::TagIndex(lang) => {
                    for (slug, (name, posts)) in model.tags_by_lang.get(lang).into_iter().flatten()
                    {
                        key.text(slug);
                        key.text(name);
                        key.number(posts.len());
                    }
                }
                Input::Sitemap => key.text(&self.sitemap_key),
            }
        }
        key.finish()
    }

    /// Per document, the pages whose fingerprint covers its digest: the
    /// documents among their [`Plan::inputs`].
    pub(super) fn dependents(&self) -> Vec<Vec<u32>> {
        let mut dependents = vec![Vec::new(); self.model.records.len()];
        for (s, spec) in self.specs.iter().enumerate() {
            let s = s as u32;
            for part in self.inputs(&spec.recipe).parts {
                match part {
                    Input::Document(i) | Input::Neighbour(Some(i)) => dependents[i].push(s),
                    Input::Documents(list) => list.iter().for_each(|&i| dependents[i].push(s)),
                    Input::Text(_)
                    | Input::Number(_)
                    | Input::Neighbour(None)
                    | Input::TagIndex(_)
                    | Input::Sitemap => {}
                }
            }
        }
        dependents
    }

    /// Every current document, by source path.
    pub fn records(&self) -> &[Record] {
        &self.model.records
    }

    /// The plan without its borrows, to be kept for the next build.
    pub fn into_kept(self) -> KeptPlan {
        KeptPlan {
            specs: self.specs,
            copies: self.copies,
            model: self.model,
            sitemap_key: self.sitemap_key,
            dependents: self.dependents,
        }
    }

    /// The sitemap shows every HTML page with its alternates. Hashed in
    /// parallel, in chunks of fixed size whose digests are hashed in order.
    pub(super) fn sitemap_key(&self, specs: &[Spec]) -> String {
        let chunks: Vec<DocumentDigest> = specs
            .par_chunks(1024)
            .map(|chunk| {
                let mut key = KeyHasher(Sha256::new());
                for spec in chunk.iter().filter(|s| s.in_sitemap()) {
                    key.text(&spec.url);
                    self.each_alternate(&spec.recipe, &spec.url, |code, url| {
                        key.0.update([1]);
                        key.text(code);
                        key.text(url);
                    });
                    key.0.update([0]);
                }
                key.0.finalize().into()
            })
            .collect();
        let mut key = KeyHasher(Sha256::new());
        for chunk in chunks {
            key.0.update(chunk);
        }
        key.finish()
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
            Recipe::Document(i) => {
                for &j in self.model.translations_of(*i) {
                    let record = &self.model.records[j];
                    visit(&record.lang, &record.url);
                }
            }
            Recipe::Home { page: 1, .. } => every_language(&|code| home_url(config, code, 1)),
            Recipe::Tags { .. } => every_language(&|code| tags_url(config, code)),
            Recipe::Home { lang, .. } | Recipe::Tag { lang, .. } => visit(lang, url),
            Recipe::Feed { .. }
            | Recipe::Sitemap
            | Recipe::SiteFile
            | Recipe::Extra { .. }
            | Recipe::Redirect(_) => {}
        }
    }

    /// The language a page is in.
    pub(super) fn language_of<'s>(&'s self, recipe: &'s Recipe) -> &'s str {
        match recipe {
            Recipe::Document(i) | Recipe::Redirect(i) => &self.model.records[*i].lang,
            Recipe::Home { lang, .. }
            | Recipe::Tags { lang }
            | Recipe::Tag { lang, .. }
            | Recipe::Feed { lang, .. }
            | Recipe::Extra { lang, .. } => lang,
            Recipe::Sitemap | Recipe::SiteFile => &self.config.default_language,
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
        let extra = self.inputs(&spec.recipe).config_keys;
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
    pub fn templates(&self, theme: &Theme) -> Vec<String> {
        let used: BTreeSet<&str> = self
            .specs
            .iter()
            .map(|spec| spec.template.as_ref())
            .collect();
        let reached: BTreeSet<String> = used
            .into_iter()
            .flat_map(|name| theme.closure(name))
            .collect();
        reached.into_iter().collect()
    }

    /// Who produces the output of `spec` (`folio explain`).
    pub fn made_by(&self, spec: &Spec) -> String {
        self.model.made_by(&spec.recipe, &spec.template)
    }

    /// The sources a page is built from (`folio explain`).
    pub fn sources_of(&self, spec: &Spec) -> Vec<String> {
        let model = &self.model;
        let mut indices: Vec<usize> = Vec::new();
        for part in self.inputs(&spec.recipe).parts {
            match part {
                Input::Text(_) | Input::Number(_) => {}
                Input::Document(i) => indices.push(i),
                Input::Documents(list) => indices.extend_from_slice(list),
                Input::Neighbour(i) => indices.extend(i),
                Input::TagIndex(lang) => {
                    indices.extend(model.posts_by_lang.get(lang).into_iter().flatten())
                }
                Input::Sitemap => indices.extend_from_slice(&model.visible),
            }
        }
        let mut seen = std::collections::HashSet::new();
        indices.retain(|i| seen.insert(*i));
        indices
            .iter()
            .map(|&i| model.records[i].source.path.clone())
            .collect()
    }

    /// The sitemap's entries, when `selected` picks the sitemap to render.
    /// `specs` are all of the plan's: the sitemap lists them.
    pub fn sitemap_if_selected(
        &self,
        specs: &[Spec],
        selected: &[bool],
    ) -> Option<Vec<SitemapEntry>> {
        specs
            .iter()
            .zip(selected)
            .any(|(spec, &picked)| picked && spec.is_sitemap())
            .then(|| self.sitemap(specs))
    }

    /// When an output plugin makes the page of `spec`: the plugin, by its
    /// place among the build's output plugins, and what it is given.
    pub fn extra_documents<'s>(&'s self, spec: &'s Spec) -> Option<(usize, LanguageDocuments<'s>)> {
        let Recipe::Extra {
            plugin,
            lang,
            items,
            ..
        } = &spec.recipe
        else {
            return None;
        };
        let home = home_url(self.config, lang, 1);
        let documents = items
            .iter()
            .map(|&i| {
                let record = &self.model.records[i];
                DocumentSummary {
                    kind: record.kind.as_str(),
                    title: &record.title,
                    url: &record.url,
                    published_at: record.published_at,
                    summary: &record.summary,
                    description: record.description.as_deref(),
                    tags: &record.tags,
                }
            })
            .collect();
        let root = self.config.site_path(&home).unwrap_or("/")[1..].to_owned();
        Some((
            *plugin,
            LanguageDocuments {
                lang,
                root,
                documents,
            },
        ))
    }

    /// Builds the context of `spec`: the page, ready to render. `sitemap`
    /// is [`Plan::sitemap_if_selected`]'s answer.
    pub fn page<'s>(&'s self, spec: &Spec, sitemap: Option<&'s [SitemapEntry]>) -> Page<'s> {
        let config = self.config;
        let model = &self.model;
        let i18n = self.views.i18n;
        let lang = self.language_of(&spec.recipe).to_owned();
        let alternates = self.alternates(&spec.recipe, &spec.url);
        let alternates = if alternates.len() > 1 {
            alternates
        } else {
            Vec::new()
        };
        let mut context = self.context(&lang, spec.url.clone(), alternates);
        match &spec.recipe {
            Recipe::Document(i) => self.document_context(&mut context, &lang, *i),
            Recipe::Home {
                lang,
                page,
                total,
                items,
            } => {
                context.posts = Some(items.iter().map(|&i| model.item(config, i18n, i)).collect());
                context.paginator = Some(paginator(*page, *total, |p| home_url(config, lang, p)));
            }
            Recipe::Tags { lang } => {
                context.tags = Some(
                    model
                        .tags_by_lang
                        .get(lang.as_str())
                        .into_iter()
                        .flatten()
                        .map(|(slug, (name, posts))| TagCount {
                            name: name.clone(),
                            url: model.tag_page(lang, slug),
                            count: posts.len(),
                        })
                        .collect(),
                );
            }
            Recipe::Tag {
                lang,
                slug,
                page,
                total,
                items,
            } => {
                let (name, tagged) = &model.tags_by_lang[lang.as_str()][slug];
                context.tag = Some(TagCount {
                    name: name.clone(),
                    url: model.tag_page(lang, slug),
                    count: tagged.len(),
                });
                context.posts = Some(items.iter().map(|&i| model.item(config, i18n, i)).collect());
                context.paginator =
                    Some(paginator(*page, *total, |p| tag_url(config, lang, slug, p)));
            }
            Recipe::Feed { lang, items } => self.feed_context(&mut context, lang, items, &spec.url),
            Recipe::Sitemap => context.sitemap = sitemap,
            Recipe::Redirect(i) => {
                let record = &model.records[*i];
                context.redirect = Some(RedirectView {
                    url: format!("{}{}", config.origin, record.url),
                    path: record.url.clone(),
                    title: record.title.clone(),
                });
            }
            // Its plugin renders it, from [`Plan::extra_documents`].
            Recipe::SiteFile | Recipe::Extra { .. } => {}
        }
        Page {
            output: spec.output.clone(),
            template: spec.template.clone(),
            context,
            fingerprint: spec.fingerprint.clone(),
        }
    }

    /// The post or page a document's page shows.
    pub(super) fn document_context(&self, context: &mut Context<'a>, lang: &str, i: usize) {
        let config = self.config;
        let model = &self.model;
        let i18n = self.views.i18n;
        let record = &model.records[i];
        if record.kind == Kind::Post {
            let (newer, older) = model.neighbours(i);
            let date = DisplayDate::new(config, i18n.strings(lang), record.published_at);
            let updated = record
                .updated_at
                .map(|ms| DisplayDate::new(config, i18n.strings(lang), ms));
            context.post = Some(PostView {
                id: record.id.to_string(),
                title: record.title.clone(),
                slug: record.slug.clone(),
                date: date.ymd,
                date_display: date.display,
                date_iso: date.iso,
                updated: updated.as_ref().map(|d| d.ymd.clone()),
                updated_display: updated.as_ref().map(|d| d.display.clone()),
                updated_iso: updated.map(|d| d.iso),
                tags: model.tag_links(i),
                description: record.description.clone(),
                summary: record.summary.clone(),
                url: record.url.clone(),
                newer: model.link(newer),
                older: model.link(older),
                extra: extra_of(record),
                source_hash: record.source.hash.clone(),
                content: None,
            });
        } else {
            context.page = Some(PageView {
                title: record.title.clone(),
                description: record.description.clone(),
                extra: extra_of(record),
                url: record.url.clone(),
                source_hash: record.source.hash.clone(),
                content: None,
            });
        }
    }

    /// The entries and header of a language's feed.
    pub(super) fn feed_context(
        &self,
        context: &mut Context<'a>,
        lang: &str,
        items: &[usize],
        url: &str,
    ) {
        let config = self.config;
        let model = &self.model;
        let records = &model.records;
        context.entries = Some(
            items
                .iter()
                .map(|&i| {
                    let r = &records[i];
                    FeedEntry {
                        id: format!("urn:uuid:{}", r.id.to_uuid()),
                        title: r.title.clone(),
                        url: format!("{}{}", config.origin, r.url),
                        published: format_ms(r.published_at),
                        updated: format_ms(r.updated_at.unwrap_or(r.published_at)),
                        summary: r.summary.clone(),
                        tags: r.tags.clone(),
                        authors: authors_of(r),
                    }
                })
                .collect(),
        );
        let updated = items
            .iter()
            .map(|&i| {
                records[i]
                    .updated_at
                    .unwrap_or(0)
                    .max(records[i].published_at)
            })
            .max()
            .unwrap_or(0);
        context.feed = Some(FeedView {
            id: format!("{}{}", config.origin, url),
            title: config.title_in(lang).to_owned(),
            home_url: format!("{}{}", config.origin, config.language_root(lang)),
            updated: format_ms(updated),
            author: config
                .author
                .clone()
                .unwrap_or_else(|| config.title.clone()),
        });
    }

    /// The sitemap's entries: every HTML page, with its alternates.
    pub(super) fn sitemap(&self, specs: &[Spec]) -> Vec<SitemapEntry> {
        let base = &self.config.origin;
        // Built between the parallel stages, where one core idles: 17 ms of
        // a cold build of 15,000 posts on one core.
        let mut entries: Vec<SitemapEntry> = specs
            .par_iter()
            .filter(|s| s.in_sitemap())
            .map(|spec| {
                let alternates = self.alternates(&spec.recipe, &spec.url);
                let x_default = self.x_default(&alternates);
                SitemapEntry {
                    loc: format!("{base}{}", spec.url),
                    alternates: if alternates.len() > 1 {
                        alternates
                            .into_iter()
                            .map(|a| Alternate {
                                code: a.code,
                                url: format!("{base}{}", a.url),
                            })
                            .collect()
                    } else {
                        Vec::new()
                    },
                    x_default: x_default.map(|url| format!("{base}{url}")),
                }
            })
            .collect();
        entries.par_sort_by(|a, b| a.loc.cmp(&b.loc));
        entries
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
    pub(super) fn context(
        &self,
        lang: &str,
        url: String,
        alternates: Vec<Alternate>,
    ) -> Context<'a> {
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
            feed_url: feed_url(config, lang),
            url,
            alternates,
            x_default,
            switcher,
            post: None,
            page: None,
            posts: None,
            paginator: None,
            tag: None,
            redirect: None,
            tags: None,
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
}
