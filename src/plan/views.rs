//! Which documents are published, the per-language views every page of
//! a language shares, and the URLs of a language's generated pages.

use super::*;

/// Which documents are published.
#[derive(Debug, Clone, Copy)]
pub struct Visibility {
    pub drafts: bool,
    pub future: bool,
    /// Whether documents past their `expires` moment are published too.
    pub expired: bool,
    /// Posts dated after this (Unix ms) are future posts; documents that
    /// expire at or before it have expired.
    pub now_ms: i64,
}

impl Visibility {
    /// Whether `record` is published: not a draft (or drafts shown), a
    /// page or a post whose date has come (or future posts shown), and not
    /// expired (or expired documents shown).
    pub fn shows(&self, record: &Record) -> bool {
        self.shows_draft(record)
            && (self.future || record.kind == Kind::Page || self.is_due(record))
            && (self.expired || !self.has_expired(record))
    }

    fn has_expired(&self, record: &Record) -> bool {
        record.expires_at.is_some_and(|at| at <= self.now_ms)
    }

    pub(super) fn shows_draft(&self, record: &Record) -> bool {
        self.drafts || !record.draft
    }

    pub(super) fn is_due(&self, record: &Record) -> bool {
        record.published_at <= self.now_ms
    }

    /// The last moment a date published or withdrew a document, and the
    /// next one at which a date will: while the clock stays between them
    /// (from the first, before the second), no document is published or
    /// withdrawn by it. The dates are a post's publication (unless future
    /// posts are shown) and a document's expiry (unless expired ones are).
    pub fn bounds(&self, records: &[Record]) -> (i64, i64) {
        let (mut last, mut next) = (i64::MIN, i64::MAX);
        let mut moment = |at: i64| {
            if at <= self.now_ms {
                last = last.max(at);
            } else {
                next = next.min(at);
            }
        };
        for record in records.iter().filter(|r| self.shows_draft(r)) {
            if !self.future && record.kind == Kind::Post {
                moment(record.published_at);
            }
            if let Some(expires_at) = record.expires_at.filter(|_| !self.expired) {
                moment(expires_at);
            }
        }
        (last, next)
    }
}

/// Per-language views shared by every page of that language, each built and
/// hashed once.
pub struct Views<'i> {
    pub(super) sites: BTreeMap<String, Shared<SiteView>>,
    pub(super) langs: BTreeMap<String, Shared<LangView>>,
    pub(super) words: BTreeMap<String, Shared<BTreeMap<String, String>>>,
    /// Per language, its home's feeds, which every page of it links.
    pub(super) feeds: BTreeMap<String, Shared<Vec<FeedLink>>>,
    pub(super) i18n: &'i I18n,
    /// Hash of everything any page may take from the config, beyond what its
    /// documents give it.
    pub(super) globals: String,
    /// Per language, hash of its words and date format.
    pub(super) wording: BTreeMap<String, String>,
}

impl<'i> Views<'i> {
    /// [`Plan::globals`], before there is a plan.
    pub fn globals(&self) -> &str {
        &self.globals
    }

    /// [`Plan::wording`], before there is a plan.
    pub fn wording(&self) -> &BTreeMap<String, String> {
        &self.wording
    }

    pub fn new(config: &Config, i18n: &'i I18n) -> Views<'i> {
        let languages: Vec<LanguageLink> = config
            .ordered_languages()
            .map(|(code, lang)| LanguageLink {
                code: code.clone(),
                name: lang.name.clone(),
                home_url: config.language_root(code),
            })
            .collect();
        let mut views = Views {
            sites: BTreeMap::new(),
            langs: BTreeMap::new(),
            words: BTreeMap::new(),
            feeds: BTreeMap::new(),
            i18n,
            globals: String::new(),
            wording: BTreeMap::new(),
        };
        let mut globals = Sha256::new();
        globals.update(config.content_settings().as_bytes());
        for part in [
            &config.title,
            &config.base_url,
            config.author.as_deref().unwrap_or(""),
        ] {
            globals.update(part.as_bytes());
            globals.update(b"\0");
        }
        globals.update(format!("{} {}", config.paginate, config.feed_limit).as_bytes());
        globals.update(format!("minify {}", config.minify).as_bytes());
        globals.update(format!("{:?}", config.feeds).as_bytes());
        for (code, lang) in &config.languages {
            let site = Shared::new(SiteView {
                title: config.title_in(code).to_owned(),
                description: config.description_in(code).map(str::to_owned),
                extra: serde_json::to_value(config.extra_in(code)).unwrap_or_default(),
                base_url: config.origin.clone(),
                base_path: config.base_path.clone(),
                default_language: config.default_language.clone(),
                languages: languages.clone(),
            });
            let view = Shared::new(LangView {
                code: code.clone(),
                name: lang.name.clone(),
                dir: text_direction(code),
                home_url: config.language_root(code),
                tags_url: taxonomy_url(config, code, "tags"),
                archive_url: archive_url(config, code),
                taxonomies: config
                    .taxonomies
                    .iter()
                    .map(|name| taxonomy_link(config, i18n.strings(code), code, name))
                    .collect(),
            });
            let words = Shared::words(i18n.strings(code).text.clone());
            // What the feeds' links are made of is in the globals (the
            // settings) and the language's words (their titles) already.
            let feeds = Shared::new(match config.feeds.home {
                true => feed_links(config, i18n.strings(code), &config.language_root(code)),
                false => Vec::new(),
            });
            for digest in [site.digest(), view.digest()] {
                globals.update(digest.as_bytes());
            }
            // Dates are written with the month names too, which are not
            // strings of the table the templates see.
            let wording = Sha256::new()
                .chain_update(words.digest().as_bytes())
                .chain_update(format!("{:?}", i18n.strings(code)).as_bytes())
                .finalize();
            views.wording.insert(code.clone(), hex(&wording));
            views.sites.insert(code.clone(), site);
            views.langs.insert(code.clone(), view);
            views.words.insert(code.clone(), words);
            views.feeds.insert(code.clone(), feeds);
        }
        views.globals = hex(&globals.finalize());
        views
    }
}

/// The URLs of a language's generated pages.
pub(super) fn home_url(config: &Config, lang: &str, page: usize) -> String {
    paginated(config.language_root(lang), page)
}

/// What a taxonomy is called in a language: the theme's word of its name
/// (`series = "Séries"`), else its name with a capital (`Series`).
pub(super) fn taxonomy_title(words: &Strings, name: &str) -> String {
    if let Some(word) = words.text.get(name) {
        return word.clone();
    }
    let spaced = name.replace(['-', '_'], " ");
    let mut chars = spaced.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Taxonomy `name` as the pages of `lang` link it: its name, what the
/// language calls it, the URL of its index there.
pub(super) fn taxonomy_link(
    config: &Config,
    words: &Strings,
    lang: &str,
    name: &str,
) -> TaxonomyLink {
    TaxonomyLink {
        name: name.to_owned(),
        title: taxonomy_title(words, name),
        url: taxonomy_url(config, lang, name),
    }
}

/// The URL of a language's archive: `/fr/archive/`.
pub(super) fn archive_url(config: &Config, lang: &str) -> String {
    let mut url = config.language_root(lang);
    url.push_str("archive/");
    url
}

/// The URL of a taxonomy's index in `lang`: `/fr/series/`.
pub(super) fn taxonomy_url(config: &Config, lang: &str, taxonomy: &str) -> String {
    let mut url = config.language_root(lang);
    url.push_str(taxonomy);
    url.push('/');
    url
}

/// Built a piece at a time into one string: every term link of every page
/// and list entry is one of these.
pub(super) fn term_url(
    config: &Config,
    lang: &str,
    taxonomy: &str,
    slug: &str,
    page: usize,
) -> String {
    let mut url = taxonomy_url(config, lang, taxonomy);
    push_encoded_segment(&mut url, slug);
    url.push('/');
    paginated(url, page)
}

/// Page `page` of a list whose first page is at `first`.
pub(super) fn paginated(mut first: String, page: usize) -> String {
    if page > 1 {
        first.push_str("page/");
        first.push_str(&page.to_string());
        first.push('/');
    }
    first
}

/// The URL of a list's feed file `name`: in the folder of the list's
/// first page, `list_url`.
pub(super) fn feed_url(list_url: &str, name: &str) -> String {
    let mut url = list_url.to_owned();
    push_encoded_segment(&mut url, name);
    url
}

/// The feeds of the list at `list_url`, as a page that advertises them
/// links them: one per file site.toml names, titled with the words of the
/// page's language for its format (`Atom feed`, `Flux RSS`).
pub(super) fn feed_links(config: &Config, words: &Strings, list_url: &str) -> Vec<FeedLink> {
    config
        .feeds
        .files
        .iter()
        .map(|file| FeedLink {
            url: feed_url(list_url, &file.name),
            media_type: file.format.media_type(),
            format: file.format.key(),
            title: words
                .text
                .get(file.format.word())
                .cloned()
                .unwrap_or_default(),
        })
        .collect()
}
