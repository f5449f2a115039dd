//! Which pages the site has, what each one is rendered from, and which of
//! them must be rendered again.
//!
//! Owns the site's page model: a page per visible document, and per language
//! a paginated home, tag pages, an Atom feed; a sitemap and robots.txt for
//! the site; translations, `hreflang` alternates and the language switcher;
//! URLs turned into output paths; and fingerprints: the hash of a page's
//! template closure and of everything its context is computed from (the
//! config, its language's words, and each document it shows, stood in for by
//! its path and source hash). A page whose fingerprint is unchanged and whose
//! output file is intact is not rendered, and its context is never built.

use std::borrow::{Borrow, Cow};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use jiff::Timestamp;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

use crate::model::doc::{Kind, Record, TemplateChoice};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::hex;
use crate::model::id::format_ms;
use crate::model::url::{push_encoded_segment, tag_slug};
use crate::plugin::{DocumentSummary, LanguageDocuments, Plugins, stamp};
use crate::render::i18n::{I18n, Strings};
use crate::render::{
    Alternate, Context, FeedEntry, FeedView, LangView, LanguageLink, Link, ListItem, PageView,
    Paginator, PostView, RedirectView, Shared, SiteView, SitemapEntry, SwitchLink, TagCount,
    TagLink, Theme,
};
use crate::source::config::{Config, text_direction};
use crate::source::discover::StaticFile;

/// A path relative to the output folder, `/`-separated, that cannot leave it:
/// no empty, `.` or `..` segment, no backslash, no NUL.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutputPath(String);

impl OutputPath {
    pub fn new(path: &str) -> Option<OutputPath> {
        OutputPath::checked(path.to_owned())
    }

    /// Every page's path is checked on every build: one pass over the bytes
    /// for the forbidden ones, then the segments, and no copy.
    fn checked(path: String) -> Option<OutputPath> {
        let confined = !path.is_empty()
            && !path.bytes().any(|b| b == b'\\' || b == 0)
            && path
                .split('/')
                .all(|s| !s.is_empty() && s != "." && s != "..");
        confined.then_some(OutputPath(path))
    }

    /// The file a page at `url` (`/fr/posts/x/`, percent-encoded) is
    /// written to: its segments decoded, then `index.html`. A URL ending in
    /// a file name (`/fr/atom.xml`) is that file.
    pub fn for_url(url: &str) -> Option<OutputPath> {
        let rest = url.strip_prefix('/')?;
        if !rest.contains('%') {
            // Nothing to decode: the URL's own path, plus `index.html` for a
            // folder.
            let path = if rest.is_empty() || rest.ends_with('/') {
                format!("{rest}index.html")
            } else {
                rest.to_owned()
            };
            return OutputPath::checked(path);
        }
        let parts: Vec<&str> = rest.split('/').collect();
        let (last, dirs) = parts.split_last()?;
        let mut segments = Vec::with_capacity(parts.len());
        for dir in dirs {
            segments.push(crate::model::url::decode_segment(dir)?);
        }
        segments.push(if last.is_empty() {
            "index.html".to_owned()
        } else {
            crate::model::url::decode_segment(last)?
        });
        if segments.iter().any(|s| s.contains('/')) {
            return None;
        }
        OutputPath::checked(segments.join("/"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

// Hash and Eq are the String's, so a map of paths can be asked with a &str.
impl Borrow<str> for OutputPath {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for OutputPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A template's name: one of the theme's fixed ones, or one a document's
/// front matter asks for.
pub type Template = Cow<'static, str>;

/// One output file, with its context: a page that must be rendered.
pub struct Page<'a> {
    pub output: OutputPath,
    pub template: Template,
    pub context: Context<'a>,
    pub fingerprint: String,
}

/// One output file before its context is built: what it is, where it goes,
/// and its fingerprint.
pub struct Spec {
    pub output: OutputPath,
    pub template: Template,
    pub url: String,
    /// Hash of the template closure and of everything the page's context is
    /// computed from, a document standing in by its path and source hash.
    pub fingerprint: String,
    recipe: Recipe,
}

impl Spec {
    /// Whether the sitemap lists it: every HTML page but the site's own
    /// files (its 404 page).
    fn in_sitemap(&self) -> bool {
        self.template.ends_with(".html")
            && !matches!(self.recipe, Recipe::SiteFile | Recipe::Redirect(_))
    }

    /// The page that lists every HTML page of the site.
    pub fn is_sitemap(&self) -> bool {
        matches!(self.recipe, Recipe::Sitemap)
    }

    /// The document whose body the page shows, by index into the records.
    pub fn body_of(&self) -> Option<usize> {
        match self.recipe {
            Recipe::Document(i) => Some(i),
            _ => None,
        }
    }
}

/// How a page's context is built, once it must be.
#[derive(Debug, Clone)]
enum Recipe {
    Document(usize),
    Home {
        lang: String,
        page: usize,
        total: usize,
        items: Vec<usize>,
    },
    Tags {
        lang: String,
    },
    Tag {
        lang: String,
        slug: String,
        page: usize,
        total: usize,
        items: Vec<usize>,
    },
    Feed {
        lang: String,
        items: Vec<usize>,
    },
    Sitemap,
    /// A file of the site as a whole (`robots.txt`, the theme's stylesheet),
    /// rendered in the default language.
    SiteFile,
    /// A page at an old URL of the document, redirecting to its page.
    Redirect(usize),
    /// An output plugin's file for one language, from its published
    /// documents: the plugin by its place among the build's output plugins,
    /// and by its name and version.
    Extra {
        plugin: usize,
        stamp: String,
        lang: String,
        items: Vec<usize>,
    },
}

/// What a page is computed from ([`Plan::inputs`]).
struct Inputs<'m> {
    parts: Vec<Input<'m>>,
    /// The site.toml keys it reads beyond those every page reads.
    config_keys: &'static [&'static str],
}

/// One input of a page.
enum Input<'m> {
    /// A value that shapes the page: its language, a page number, a tag.
    Text(&'m str),
    Number(usize),
    /// A document it shows, stood in for by its digest.
    Document(usize),
    /// Documents it shows (a list, the translations), and how many.
    Documents(&'m [usize]),
    /// The newer or older post it links, if any.
    Neighbour(Option<usize>),
    /// A language's tag index: each tag's slug, name and number of posts,
    /// which every post of the language contributes to.
    TagIndex(&'m str),
    /// Every HTML page's URL and alternates, hashed once per build (the
    /// sitemap key), which every visible document contributes to.
    Sitemap,
}

/// The template of the pages at old URLs.
const REDIRECT_TEMPLATE: &str = "redirect.html";

/// The site-wide files every theme produces, beside the sitemap.
/// `404.html` is the page a static host (and `folio serve`) answers with,
/// with status 404, where no other page is. A file of the site's `static/`
/// at one of these places wins over the theme's.
const SITE_FILES: &[(&str, &str)] = &[
    ("/robots.txt", "robots.txt"),
    ("/style.css", "style.css"),
    ("/404.html", "404.html"),
];

/// A static file to copy. Its fingerprint is its stat (size, mtime), so an
/// unchanged file is not even read; a racy stat never matches.
#[derive(Debug, PartialEq, Eq)]
pub struct Copy {
    pub output: OutputPath,
    /// Relative to the site root.
    pub source: String,
    pub fingerprint: String,
}

/// Everything a build produces: the pages as specs (cheap to list and to
/// fingerprint), the static files to copy, and what it takes to build a
/// page's context when its fingerprint says it must be rendered.
pub struct Plan<'a> {
    pub specs: Vec<Spec>,
    pub copies: Vec<Copy>,
    config: &'a Config,
    views: &'a Views<'a>,
    model: Model,
    /// What the sitemap's fingerprint covers: every HTML page's URL and
    /// alternates.
    sitemap_key: String,
    /// Per document, the pages whose fingerprint covers its digest; made
    /// on the first [`replan`] that needs it.
    dependents: Option<Vec<Vec<u32>>>,
    /// The old URLs left out because a page or a file is there.
    pub warnings: Vec<String>,
}

/// A plan without the config and words it borrowed: what a kept session
/// holds between builds, for [`replan`] to bring up to date.
pub struct KeptPlan {
    specs: Vec<Spec>,
    copies: Vec<Copy>,
    model: Model,
    sitemap_key: String,
    dependents: Option<Vec<Vec<u32>>>,
}

impl KeptPlan {
    /// Takes the documents out, for the next build's analysis to start
    /// from; [`replan`] puts the new ones back.
    pub fn take_records(&mut self) -> Vec<Record> {
        std::mem::take(&mut self.model.records)
    }

    pub fn copies(&self) -> &[Copy] {
        &self.copies
    }

    /// How many documents the plan was made from.
    pub fn documents(&self) -> usize {
        self.model.digests.len()
    }
}

/// Which documents are published.
#[derive(Debug, Clone, Copy)]
pub struct Visibility {
    pub drafts: bool,
    pub future: bool,
    /// Posts dated after this (Unix ms) are future posts.
    pub now_ms: i64,
}

impl Visibility {
    /// Whether `record` is published: not a draft (or drafts shown), and a
    /// page or a post whose date has come (or future posts shown).
    pub fn shows(&self, record: &Record) -> bool {
        self.shows_draft(record)
            && (self.future || record.kind == Kind::Page || self.is_due(record))
    }

    fn shows_draft(&self, record: &Record) -> bool {
        self.drafts || !record.draft
    }

    fn is_due(&self, record: &Record) -> bool {
        record.published_at <= self.now_ms
    }

    /// The newest date of a post shown and the oldest of a post held back
    /// for its date: while the clock stays between them, no post is
    /// published or withdrawn by it (with `future`, no date decides).
    pub fn bounds(&self, records: &[Record]) -> (i64, i64) {
        if self.future {
            return (i64::MIN, i64::MAX);
        }
        let (mut last_shown, mut next_due) = (i64::MIN, i64::MAX);
        for record in records
            .iter()
            .filter(|r| r.kind == Kind::Post && self.shows_draft(r))
        {
            if self.is_due(record) {
                last_shown = last_shown.max(record.published_at);
            } else {
                next_due = next_due.min(record.published_at);
            }
        }
        (last_shown, next_due)
    }
}

/// Per-language views shared by every page of that language, each built and
/// hashed once.
pub struct Views<'i> {
    sites: BTreeMap<String, Shared<SiteView>>,
    langs: BTreeMap<String, Shared<LangView>>,
    words: BTreeMap<String, Shared<BTreeMap<String, String>>>,
    i18n: &'i I18n,
    /// Hash of everything any page may take from the config, beyond what its
    /// documents give it.
    globals: String,
    /// Per language, hash of its words and date format.
    wording: BTreeMap<String, String>,
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
        for (code, lang) in &config.languages {
            let site = Shared::new(SiteView {
                title: config.title_in(code).to_owned(),
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
                tags_url: tags_url(config, code),
            });
            let words = Shared::words(i18n.strings(code).text.clone());
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
        }
        views.globals = hex(&globals.finalize());
        views
    }
}

/// The URLs of a language's generated pages.
fn home_url(config: &Config, lang: &str, page: usize) -> String {
    paginated(config.language_root(lang), page)
}

fn tags_url(config: &Config, lang: &str) -> String {
    let mut url = config.language_root(lang);
    url.push_str("tags/");
    url
}

/// Built a piece at a time into one string: every tag link of every page
/// and list entry is one of these.
fn tag_url(config: &Config, lang: &str, slug: &str, page: usize) -> String {
    let mut url = tags_url(config, lang);
    push_encoded_segment(&mut url, slug);
    url.push('/');
    paginated(url, page)
}

/// Page `page` of a list whose first page is at `first`.
fn paginated(mut first: String, page: usize) -> String {
    if page > 1 {
        first.push_str("page/");
        first.push_str(&page.to_string());
        first.push('/');
    }
    first
}

pub fn feed_url(config: &Config, lang: &str) -> String {
    format!("{}atom.xml", config.language_root(lang))
}

/// The tags of one language: slug → (shown name, its posts newest first).
type TagIndex = BTreeMap<String, (String, Vec<usize>)>;

/// The site seen from one build: what is visible, in which order, and how
/// documents relate.
pub struct Model {
    /// Every current document, by source path.
    records: Vec<Record>,
    visible: Vec<usize>,
    /// Visible posts per language, newest first.
    posts_by_lang: BTreeMap<String, Vec<usize>>,
    /// Where each visible post stands in its language's list, per record.
    position: Vec<Option<usize>>,
    /// Visible documents by (kind, translation key), in language order.
    groups: Vec<Vec<usize>>,
    /// Per record, its place in `groups`, when it is visible.
    group_of: Vec<Option<u32>>,
    tags_by_lang: BTreeMap<String, TagIndex>,
    /// Per record, the slug of each of its tags.
    tag_slugs: Vec<Vec<Arc<str>>>,
    /// Per language and tag slug, the URL of the tag's first page: made once
    /// per tag, not for each link to it (130,000 in a cold build of 5,000
    /// posts in 3 languages).
    tag_pages: FxHashMap<String, FxHashMap<Box<str>, String>>,
    /// Per record, its entry in lists, built on first use.
    items: Vec<OnceLock<minijinja::Value>>,
    /// Per record, what stands in for it in fingerprints.
    digests: Vec<DocumentDigest>,
}

impl Model {
    fn new(config: &Config, records: Vec<Record>, visibility: Visibility) -> Model {
        let language_order: FxHashMap<&str, usize> = config
            .ordered_languages()
            .enumerate()
            .map(|(i, (code, _))| (code.as_str(), i))
            .collect();
        // Rows are re-derived whenever the declared languages change, so a
        // row of an undeclared language cannot reach this; the filter keeps
        // the views' lookups total all the same.
        let visible: Vec<usize> = (0..records.len())
            .filter(|&i| visibility.shows(&records[i]) && config.is_language(&records[i].lang))
            .collect();
        // A site has far fewer distinct tags than tag uses.
        let mut slug_of: FxHashMap<&str, Arc<str>> = FxHashMap::default();
        let tag_slugs: Vec<Vec<Arc<str>>> = records
            .iter()
            .map(|r| {
                r.tags
                    .iter()
                    .map(|t| {
                        slug_of
                            .entry(t)
                            .or_insert_with(|| tag_slug(t).into())
                            .clone()
                    })
                    .collect()
            })
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
        let mut position = vec![None; records.len()];
        for posts in posts_by_lang.values_mut() {
            posts.sort_by(|&a, &b| {
                let (a, b) = (&records[a], &records[b]);
                b.published_at
                    .cmp(&a.published_at)
                    .then_with(|| a.slug.cmp(&b.slug))
            });
            for (at, &i) in posts.iter().enumerate() {
                position[i] = Some(at);
            }
        }
        let tags_by_lang = tag_indexes(&records, &posts_by_lang, &tag_slugs);
        let tag_pages = tags_by_lang
            .iter()
            .map(|(lang, index)| {
                let urls = index
                    .keys()
                    .map(|slug| (slug.as_str().into(), tag_url(config, lang, slug, 1)))
                    .collect();
                (lang.clone(), urls)
            })
            .collect();
        Model {
            visible,
            posts_by_lang,
            position,
            groups,
            group_of,
            tags_by_lang,
            tag_slugs,
            tag_pages,
            items: (0..records.len()).map(|_| OnceLock::new()).collect(),
            digests: records.par_iter().map(document_digest).collect(),
            records,
        }
    }

    /// The visible documents that are versions of visible document `i`,
    /// itself included.
    fn translations_of(&self, i: usize) -> &[usize] {
        self.group_of[i].map_or(&[], |at| &self.groups[at as usize])
    }

    fn neighbours(&self, i: usize) -> (Option<usize>, Option<usize>) {
        let Some(at) = self.position[i] else {
            return (None, None);
        };
        let siblings = &self.posts_by_lang[self.records[i].lang.as_str()];
        (
            at.checked_sub(1).and_then(|k| siblings.get(k)).copied(),
            siblings.get(at + 1).copied(),
        )
    }

    /// The tags of record `i`, linked to its language's tag pages.
    fn tag_links(&self, i: usize) -> Vec<TagLink> {
        let record = &self.records[i];
        record
            .tags
            .iter()
            .zip(&self.tag_slugs[i])
            .map(|(name, slug)| TagLink {
                name: name.clone(),
                // Only shown posts link their tags, and each of their tags
                // has a page in their language.
                url: self.tag_page(&record.lang, slug),
            })
            .collect()
    }

    /// The URL of the first page of tag `slug` in `lang`, which has one.
    fn tag_page(&self, lang: &str, slug: &str) -> String {
        self.tag_pages[lang][slug].clone()
    }

    fn item(&self, config: &Config, i18n: &I18n, i: usize) -> minijinja::Value {
        self.items[i]
            .get_or_init(|| {
                let record = &self.records[i];
                let date =
                    DisplayDate::new(config, i18n.strings(&record.lang), record.published_at);
                minijinja::Value::from(minijinja::value::Serde(ListItem {
                    title: record.title.clone(),
                    url: record.url.clone(),
                    date: date.ymd,
                    date_display: date.display,
                    date_iso: date.iso,
                    summary: record.summary.clone(),
                    description: record.description.clone(),
                    tags: self.tag_links(i),
                    extra: extra_of(record),
                }))
            })
            .clone()
    }

    /// Who produces the page of `recipe`: its source, or what the
    /// generated page is (`(home of fr, page 2)`, `(robots.txt)`).
    fn made_by(&self, recipe: &Recipe, template: &str) -> String {
        match recipe {
            Recipe::Document(i) | Recipe::Redirect(i) => self.records[*i].source.path.clone(),
            Recipe::Home { lang, page, .. } => format!("(home of {lang}, page {page})"),
            Recipe::Tags { lang } => format!("(tags of {lang})"),
            Recipe::Tag {
                lang, slug, page, ..
            } => {
                let name = self
                    .tags_by_lang
                    .get(lang.as_str())
                    .and_then(|tags| tags.get(slug))
                    .map_or(slug.as_str(), |(name, _)| name.as_str());
                format!("(tag `{name}` of {lang}, page {page})")
            }
            Recipe::Feed { lang, .. } => format!("(feed of {lang})"),
            Recipe::Sitemap => "(sitemap)".into(),
            Recipe::SiteFile => format!("({template})"),
            Recipe::Extra { stamp, lang, .. } => format!("(plugin {stamp}, {lang})"),
        }
    }

    fn link(&self, i: Option<usize>) -> Option<Link> {
        i.map(|i| Link {
            title: self.records[i].title.clone(),
            url: self.records[i].url.clone(),
        })
    }
}

/// Per language, each tag's name and posts, by slug. A language has tens
/// of tags and thousands of tag uses: the uses are gathered in a hash map,
/// the sorted index built once.
fn tag_indexes(
    records: &[Record],
    posts_by_lang: &BTreeMap<String, Vec<usize>>,
    tag_slugs: &[Vec<Arc<str>>],
) -> BTreeMap<String, TagIndex> {
    posts_by_lang
        .iter()
        .map(|(lang, posts)| {
            let mut tags: FxHashMap<&str, (&str, Vec<usize>)> = FxHashMap::default();
            for &i in posts {
                for (name, slug) in records[i].tags.iter().zip(&tag_slugs[i]) {
                    let entry = tags.entry(&**slug).or_insert((name, Vec::new()));
                    // Spellings that share a slug show as the smallest
                    // one, whatever order the posts come in.
                    if name.as_str() < entry.0 {
                        entry.0 = name;
                    }
                    entry.1.push(i);
                }
            }
            let index: TagIndex = tags
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
type DocumentDigest = [u8; 32];

fn document_digest(record: &Record) -> DocumentDigest {
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

/// Hashes what a page is built from, in a form that cannot be read two ways.
struct KeyHasher(Sha256);

impl KeyHasher {
    /// What every page of `template` in `lang` starts from: folio's
    /// version, the template's closure, the config and the language's words.
    fn prefix(theme: &Theme, template: &str, views: &Views<'_>, lang: &str) -> KeyHasher {
        let mut key = KeyHasher(Sha256::new());
        key.text(concat!("folio ", env!("CARGO_PKG_VERSION")));
        key.text(template);
        key.text(theme.closure_hash(template));
        key.text(&views.globals);
        key.text(lang);
        key.text(views.wording.get(lang).map_or("", String::as_str));
        key
    }

    fn text(&mut self, text: &str) {
        self.0.update((text.len() as u64).to_le_bytes());
        self.0.update(text.as_bytes());
    }

    fn number(&mut self, n: usize) {
        self.0.update((n as u64).to_le_bytes());
    }

    /// A document stands in by its [`document_digest`].
    fn document(&mut self, digests: &[DocumentDigest], i: usize) {
        self.0.update(digests[i]);
    }

    fn documents(&mut self, digests: &[DocumentDigest], indices: impl IntoIterator<Item = usize>) {
        let mut count = 0;
        for i in indices {
            self.document(digests, i);
            count += 1;
        }
        self.number(count);
    }

    fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

/// The [`KeyHasher::prefix`] of every (template, language) pair, hashed once
/// rather than once per page.
struct KeyPrefixes<'a> {
    theme: &'a Theme,
    views: &'a Views<'a>,
    prefixes: FxHashMap<(&'a str, &'a str), KeyHasher>,
}

impl<'a> KeyPrefixes<'a> {
    fn new(
        theme: &'a Theme,
        views: &'a Views<'a>,
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> KeyPrefixes<'a> {
        let mut prefixes = FxHashMap::default();
        for (template, lang) in pairs {
            prefixes
                .entry((template, lang))
                .or_insert_with(|| KeyHasher::prefix(theme, template, views, lang));
        }
        KeyPrefixes {
            theme,
            views,
            prefixes,
        }
    }

    /// The hasher of the page at `url`, of `template` in `lang`.
    fn start(&self, template: &str, lang: &str, url: &str) -> KeyHasher {
        let mut key = match self.prefixes.get(&(template, lang)) {
            Some(prefix) => KeyHasher(prefix.0.clone()),
            None => KeyHasher::prefix(self.theme, template, self.views, lang),
        };
        key.text(url);
        key
    }
}

/// The fields of a document's front matter folio does not read, for its
/// templates.
fn extra_of(record: &Record) -> serde_json::Value {
    serde_json::from_str(&record.extra).unwrap_or_default()
}

/// The authors a document names, for its feed entry.
fn authors_of(record: &Record) -> Vec<String> {
    match extra_of(record).get("authors") {
        Some(serde_json::Value::Array(names)) => names
            .iter()
            .filter_map(|name| name.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    }
}

/// The static files to copy, for a build that started at `started_ns`.
pub fn copies(statics: &[StaticFile], started_ns: i64) -> Vec<Copy> {
    statics
        .iter()
        .filter_map(|file| {
            let stat = file.stat.settled(started_ns);
            Some(Copy {
                output: OutputPath::new(&file.rel)?,
                source: file.source_path(),
                fingerprint: format!("static {} {}", stat.size, stat.mtime_ns),
            })
        })
        .collect()
}

/// Whether a document keeps its place in the site: what decides which
/// pages there are, in which order each list shows its documents, and how
/// they link (its source, id, kind, slug, language, date, URL, tags, draft
/// flag and translation key). What else it holds (title, summary, body)
/// is in the fingerprints of the pages that show it.
pub fn same_place(old: &Record, new: &Record) -> bool {
    old.same_claims(new)
        && old.published_at == new.published_at
        && old.url == new.url
        && old.tags == new.tags
        && old.draft == new.draft
        && old.translation_key == new.translation_key
        && old.aliases == new.aliases
        && old.template == new.template
}

/// Lists every output of the site with its fingerprint, and the static
/// files to copy. `records` are all current documents; `started_ns` is the
/// build's start, for the racy rule on static files' stats.
pub fn plan<'a>(
    config: &'a Config,
    views: &'a Views<'a>,
    theme: &Theme,
    records: Vec<Record>,
    (statics, plugins): (&[StaticFile], &Plugins),
    visibility: Visibility,
    started_ns: i64,
) -> Result<Plan<'a>, Error> {
    let model = Model::new(config, records, visibility);
    let copies = copies(statics, started_ns);

    let mut recipes: Vec<(String, Template, Recipe)> = Vec::new();
    for (code, _) in config.ordered_languages() {
        language_recipes(config, &model, code, &mut recipes);
        extra_recipes(config, &model, (code, plugins), &mut recipes);
    }
    let mut problems = document_recipes(&model, theme, &mut recipes);
    documents_take_generated_places(&mut recipes);
    let base = &config.base_path;
    recipes.push((
        format!("{base}/sitemap.xml"),
        "sitemap.xml".into(),
        Recipe::Sitemap,
    ));
    for (url, template) in SITE_FILES {
        // The site's own static file at that place wins over the theme's.
        if !copies
            .iter()
            .any(|copy| format!("/{}", copy.output) == *url)
        {
            recipes.push((format!("{base}{url}"), (*template).into(), Recipe::SiteFile));
        }
    }

    let (mut specs, misplaced) = specs_of(config, &model, recipes);
    problems.extend(misplaced);
    let warnings = drop_aliases_in_the_way(&model, &copies, &mut specs);
    // Static files claim their outputs first, then the pages in plan order.
    let outputs: Vec<&str> = copies
        .iter()
        .map(|c| c.output.as_str())
        .chain(specs.iter().map(|s| s.output.as_str()))
        .collect();
    let made_by = |at: usize| match at.checked_sub(copies.len()) {
        None => PathBuf::from(&copies[at].source),
        Some(i) => PathBuf::from(model.made_by(&specs[i].recipe, &specs[i].template)),
    };
    problems.extend(output_collisions(&outputs, made_by));
    drop(outputs);
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }

    let mut plan = Plan {
        specs: Vec::new(),
        copies,
        config,
        views,
        model,
        sitemap_key: String::new(),
        dependents: None,
        warnings,
    };
    plan.sitemap_key = plan.sitemap_key(&specs);
    let prefixes = KeyPrefixes::new(
        theme,
        views,
        specs
            .iter()
            .map(|spec| (spec.template.as_ref(), plan.language_of(&spec.recipe))),
    );
    let fingerprints: Vec<String> = specs
        .par_iter()
        .map(|spec| plan.key(&prefixes, spec))
        .collect();
    drop(prefixes);
    for (spec, fingerprint) in specs.iter_mut().zip(fingerprints) {
        spec.fingerprint = fingerprint;
    }
    Ok(Plan { specs, ..plan })
}

/// Each recipe at its place in the output folder, or the problem of a URL
/// that would leave it.
fn specs_of(
    config: &Config,
    model: &Model,
    recipes: Vec<(String, Template, Recipe)>,
) -> (Vec<Spec>, Vec<Problem>) {
    recipes
        .into_par_iter()
        .partition_map(|(url, template, recipe)| {
            match config.site_path(&url).and_then(OutputPath::for_url) {
                Some(output) => rayon::iter::Either::Left(Spec {
                    output,
                    template,
                    url,
                    fingerprint: String::new(),
                    recipe,
                }),
                None => rayon::iter::Either::Right(Problem::new(
                    model.made_by(&recipe, &template),
                    None,
                    ProblemKind::UrlOutsideOutput { url },
                )),
            }
        })
}

/// The last build's plan, brought up to date with `records` where only the
/// documents at `changed` differ, and only in what they hold: each keeps its
/// path, id, slug, URL, date, tags, draft flag and translation key, so the
/// site has the same pages, listed in the same order (the caller checks
/// that, and that the theme, the words, the config, the static files and
/// what is published are those of the last build). Only the fingerprints
/// of the pages that show a changed document are computed again. Returns
/// the plan and those pages, by their place in its specs.
pub fn replan<'a>(
    config: &'a Config,
    views: &'a Views<'a>,
    theme: &Theme,
    kept: KeptPlan,
    records: Vec<Record>,
    changed: &[usize],
) -> (Plan<'a>, Vec<usize>) {
    let KeptPlan {
        specs,
        copies,
        mut model,
        sitemap_key,
        dependents,
    } = kept;
    model.records = records;
    for &i in changed {
        model.digests[i] = document_digest(&model.records[i]);
        model.items[i] = OnceLock::new();
    }
    let mut plan = Plan {
        specs,
        copies,
        config,
        views,
        model,
        sitemap_key,
        dependents,
        // Said when the old URLs were planned; they did not change since.
        warnings: Vec::new(),
    };
    let dependents = plan.dependents.take().unwrap_or_else(|| plan.dependents());
    let mut affected: Vec<usize> = changed
        .iter()
        .flat_map(|&i| dependents[i].iter().map(|&s| s as usize))
        .collect();
    affected.sort_unstable();
    affected.dedup();
    let prefixes = KeyPrefixes::new(
        theme,
        views,
        affected.iter().map(|&s| {
            let spec = &plan.specs[s];
            (spec.template.as_ref(), plan.language_of(&spec.recipe))
        }),
    );
    let fingerprints: Vec<String> = affected
        .iter()
        .map(|&s| plan.key(&prefixes, &plan.specs[s]))
        .collect();
    drop(prefixes);
    for (&s, fingerprint) in affected.iter().zip(fingerprints) {
        plan.specs[s].fingerprint = fingerprint;
    }
    plan.dependents = Some(dependents);
    (plan, affected)
}

/// A document whose URL is that of a generated list (a language's home, its
/// tags page, a tag's page) takes its place, as a static file takes the
/// place of the theme's: a site moved in keeps its own home page at `/fr/`.
fn documents_take_generated_places(recipes: &mut Vec<(String, Template, Recipe)>) {
    let generated: FxHashMap<&str, usize> = recipes
        .iter()
        .enumerate()
        .filter(|(_, (_, _, recipe))| {
            matches!(
                recipe,
                Recipe::Home { .. } | Recipe::Tags { .. } | Recipe::Tag { .. }
            )
        })
        .map(|(at, (url, _, _))| (url.as_str(), at))
        .collect();
    let mut taken: Vec<usize> = recipes
        .iter()
        .filter(|(_, _, recipe)| matches!(recipe, Recipe::Document(_)))
        .filter_map(|(url, _, _)| generated.get(url.as_str()).copied())
        .collect();
    drop(generated);
    taken.sort_unstable();
    taken.dedup();
    for at in taken.into_iter().rev() {
        recipes.remove(at);
    }
}

/// Leaves out the redirect pages whose place a page, a static file or an
/// earlier redirect takes (a real page is never replaced by a redirect),
/// and says which.
fn drop_aliases_in_the_way(model: &Model, copies: &[Copy], specs: &mut Vec<Spec>) -> Vec<String> {
    let mut taken: FxHashSet<&str> = copies.iter().map(|c| c.output.as_str()).collect();
    taken.extend(
        specs
            .iter()
            .filter(|s| !matches!(s.recipe, Recipe::Redirect(_)))
            .map(|s| s.output.as_str()),
    );
    let mut in_the_way = Vec::new();
    let mut redirects: FxHashSet<&str> = FxHashSet::default();
    for (at, spec) in specs.iter().enumerate() {
        if let Recipe::Redirect(i) = spec.recipe {
            let output = spec.output.as_str();
            if taken.contains(output) || !redirects.insert(output) {
                in_the_way.push((at, i));
            }
        }
    }
    let warnings = in_the_way
        .iter()
        .map(|&(at, i)| {
            format!(
                "{}: the old URL {} is not redirected: another page or file of the site is there",
                model.records[i].source.path, specs[at].url
            )
        })
        .collect();
    for &(at, _) in in_the_way.iter().rev() {
        specs.remove(at);
    }
    warnings
}

/// The page of every visible document, with the template it asks for, and
/// a redirect page at each of its old URLs; the problems of the templates
/// asked for that the theme does not have.
fn document_recipes(
    model: &Model,
    theme: &Theme,
    recipes: &mut Vec<(String, Template, Recipe)>,
) -> Vec<Problem> {
    // The documents are most of the pages: room for them and the site's
    // own files in one step, rather than by doubling a vector of 15,000.
    recipes.reserve_exact(model.visible.len() + SITE_FILES.len() + 1);
    let mut problems = Vec::new();
    for &i in &model.visible {
        let record = &model.records[i];
        match document_template(record, theme) {
            Some(template) => recipes.push((record.url.clone(), template, Recipe::Document(i))),
            None => problems.push(missing_template(record, theme)),
        }
        // A post redated back to an earlier URL keeps that URL among its
        // aliases: its own page is there, and nothing needs redirecting.
        for alias in record.aliases.iter().filter(|alias| **alias != record.url) {
            recipes.push((alias.clone(), REDIRECT_TEMPLATE.into(), Recipe::Redirect(i)));
        }
    }
    problems
}

/// The template of a document's page: the one its front matter asks for,
/// else its kind's. `None` when it names one the theme does not have.
fn document_template(record: &Record, theme: &Theme) -> Option<Template> {
    let default = match record.kind {
        Kind::Post => "post.html",
        Kind::Page => "page.html",
    };
    match &record.template {
        None => Some(default.into()),
        Some(TemplateChoice::Named(name)) => theme.has(name).then(|| name.clone().into()),
        // Another generator's layout is used only when the site has a
        // template of that name: folio's own are made for their kind.
        Some(TemplateChoice::Layout(name))
            if name != default && theme.site_file(name).is_some() =>
        {
            Some(name.clone().into())
        }
        Some(TemplateChoice::Layout(_)) => Some(default.into()),
    }
}

/// The problem of a document whose `template` the theme does not have,
/// with the nearest name it has.
fn missing_template(record: &Record, theme: &Theme) -> Problem {
    let name = match &record.template {
        Some(TemplateChoice::Named(name) | TemplateChoice::Layout(name)) => name.as_str(),
        None => "",
    };
    let names = theme.names();
    let near = names
        .iter()
        .min_by_key(|known| strsim::levenshtein(known, name));
    let help = match near {
        Some(near) => format!("did you mean `{near}`? Or add templates/{name}"),
        None => format!("add templates/{name}"),
    };
    let message = format!("names `{name}`, which neither templates/ nor folio's theme has");
    let field = "template".to_owned();
    Problem::new(
        &record.source.path,
        None,
        ProblemKind::Field {
            field,
            message,
            help,
        },
    )
}

/// The files the output plugins make for one language, as (url, template,
/// recipe): no template renders them.
fn extra_recipes(
    config: &Config,
    model: &Model,
    (lang, plugins): (&str, &Plugins),
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    if plugins.outputs.is_empty() {
        return;
    }
    let home = home_url(config, lang, 1);
    let in_output = config.site_path(&home).unwrap_or("/");
    let root = &in_output[1..];
    let posts = model.posts_by_lang.get(lang).into_iter().flatten().copied();
    let pages = model.visible.iter().copied().filter(|&i| {
        let record = &model.records[i];
        record.kind == Kind::Page && record.lang == lang
    });
    let items: Vec<usize> = posts.chain(pages).collect();
    for (at, plugin) in plugins.outputs.iter().enumerate() {
        recipes.push((
            format!("{}/{}", config.base_path, plugin.path(lang, root)),
            "".into(),
            Recipe::Extra {
                plugin: at,
                stamp: stamp(plugin.as_ref()),
                lang: lang.to_owned(),
                items: items.clone(),
            },
        ));
    }
}

/// The generated pages of one language, as (url, template, recipe).
fn language_recipes(
    config: &Config,
    model: &Model,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    let empty = Vec::new();
    let posts = model.posts_by_lang.get(lang).unwrap_or(&empty);
    let chunks: Vec<&[usize]> = if posts.is_empty() {
        vec![&[]]
    } else {
        posts.chunks(config.paginate).collect()
    };
    for (n, chunk) in chunks.iter().enumerate() {
        recipes.push((
            home_url(config, lang, n + 1),
            "list.html".into(),
            Recipe::Home {
                lang: lang.to_owned(),
                page: n + 1,
                total: chunks.len(),
                items: chunk.to_vec(),
            },
        ));
    }
    recipes.push((
        tags_url(config, lang),
        "tags.html".into(),
        Recipe::Tags {
            lang: lang.to_owned(),
        },
    ));
    for (slug, (_, tagged)) in model.tags_by_lang.get(lang).into_iter().flatten() {
        let chunks: Vec<&[usize]> = tagged.chunks(config.paginate).collect();
        for (n, chunk) in chunks.iter().enumerate() {
            recipes.push((
                tag_url(config, lang, slug, n + 1),
                "list.html".into(),
                Recipe::Tag {
                    lang: lang.to_owned(),
                    slug: slug.clone(),
                    page: n + 1,
                    total: chunks.len(),
                    items: chunk.to_vec(),
                },
            ));
        }
    }
    recipes.push((
        feed_url(config, lang),
        "atom.xml".into(),
        Recipe::Feed {
            lang: lang.to_owned(),
            items: posts[..posts.len().min(config.feed_limit)].to_vec(),
        },
    ));
}

impl<'a> Plan<'a> {
    /// What the page of `recipe` is computed from, beyond its template, the
    /// config every page reads and its language's words: the one list its
    /// fingerprint, `folio explain` and a dry run's reasons read.
    fn inputs<'s>(&'s self, recipe: &'s Recipe) -> Inputs<'s> {
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
    fn key(&self, prefixes: &KeyPrefixes<'_>, spec: &Spec) -> String {
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
    fn dependents(&self) -> Vec<Vec<u32>> {
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
    fn sitemap_key(&self, specs: &[Spec]) -> String {
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
    fn alternates(&self, recipe: &Recipe, url: &str) -> Vec<Alternate> {
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
    fn each_alternate(&self, recipe: &Recipe, url: &str, mut visit: impl FnMut(&str, &str)) {
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
    fn language_of<'s>(&'s self, recipe: &'s Recipe) -> &'s str {
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
    fn document_context(&self, context: &mut Context<'a>, lang: &str, i: usize) {
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
    fn feed_context(&self, context: &mut Context<'a>, lang: &str, items: &[usize], url: &str) {
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
    fn sitemap(&self, specs: &[Spec]) -> Vec<SitemapEntry> {
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

    fn x_default(&self, alternates: &[Alternate]) -> Option<String> {
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
    fn context(&self, lang: &str, url: String, alternates: Vec<Alternate>) -> Context<'a> {
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
fn output_collisions(outputs: &[&str], made_by: impl Fn(usize) -> PathBuf) -> Vec<Problem> {
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

fn paginator(current: usize, total: usize, url_of: impl Fn(usize) -> String) -> Paginator {
    Paginator {
        current,
        total,
        newer_url: (current > 1).then(|| url_of(current - 1)),
        older_url: (current < total).then(|| url_of(current + 1)),
    }
}

/// A date in the site time zone: `YYYY-MM-DD`, the language's own format,
/// and RFC 3339 with the offset.
struct DisplayDate {
    ymd: String,
    display: String,
    iso: String,
}

impl DisplayDate {
    fn new(config: &Config, strings: &Strings, ms: i64) -> DisplayDate {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_paths_stay_inside_the_output_folder() {
        assert_eq!(OutputPath::for_url("/").unwrap().as_str(), "index.html");
        assert_eq!(
            OutputPath::for_url("/fr/posts/x/").unwrap().as_str(),
            "fr/posts/x/index.html"
        );
        assert_eq!(
            OutputPath::for_url("/ja/posts/京都/").unwrap().as_str(),
            "ja/posts/京都/index.html"
        );
        assert_eq!(
            OutputPath::for_url("/ja/posts/%E4%BA%AC%E9%83%BD/")
                .unwrap()
                .as_str(),
            "ja/posts/京都/index.html"
        );
        assert_eq!(
            OutputPath::for_url("/fr/atom.xml").unwrap().as_str(),
            "fr/atom.xml"
        );
        for bad in [
            "/../x/",
            "/a/../../b/",
            "/a//b/",
            "/./x/",
            "/a\\..\\b/",
            "/%2E%2E/x/",
            "/a%2Fb/",
            "/%FF/",
            "/a%5Cb/",
            "/a%00b/",
            "/a\0b/",
        ] {
            assert!(OutputPath::for_url(bad).is_none(), "{bad}");
        }
        for bad in ["", "a/", "/a", "a/./b", "a\\b", "a\0b", ".."] {
            assert!(OutputPath::new(bad).is_none(), "{bad:?}");
        }
        assert_eq!(OutputPath::new("a/b.c").unwrap().as_str(), "a/b.c");
    }

    #[test]
    fn collisions_name_both_producers_and_the_first_keeps_its_output() {
        let outputs = [
            "a/index.html",
            "b",
            "a/index.html",
            "b/index.html",
            "Ä/index.html",
            "ä/index.html",
        ];
        let problems = output_collisions(&outputs, |i| PathBuf::from(format!("p{i}")));
        let said: Vec<String> = problems
            .iter()
            .map(|p| format!("{}: {}", p.path.display(), p.kind))
            .collect();
        assert_eq!(said.len(), 3, "{said:#?}");
        assert!(said[0].starts_with("p2: would be written to a/index.html, which p0 also"));
        assert!(said[1].starts_with(
            "p5: would be written to ä/index.html (the same file as Ä/index.html where case is ignored), which p4"
        ));
        assert!(
            said[2]
                .starts_with("p3: would be written to b/index.html (inside b, a file), which p1")
        );
        assert!(
            output_collisions(&["x/index.html", "y/index.html"], |_| unreachable!()).is_empty()
        );
    }

    /// The records of `sources` ((path under content/, text)), by path.
    fn records(config: &Config, sources: &[(&str, String)]) -> Vec<Record> {
        let mut records: Vec<Record> = sources
            .iter()
            .map(|(rel, text)| {
                let mut source = crate::source::discover::classify(rel, config).unwrap();
                source.path = format!("content/{rel}");
                let hash = crate::model::hash::source_hash(text.as_bytes());
                let plugins = crate::plugin::Plugins::new();
                crate::source::parse::parse(&source, text.as_bytes(), hash, (config, &plugins))
                    .unwrap()
                    .record
            })
            .collect();
        records.sort_by(|a, b| a.source.path.cmp(&b.source.path));
        records
    }

    #[test]
    fn a_plan_brought_up_to_date_equals_one_planned_afresh() {
        let config = Config::parse(
            "title = \"T\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n\
             paginate = 2\n[languages.en]\nname = \"English\"\n[languages.fr]\nname = \"Français\"\n",
            std::path::Path::new("site.toml"),
        )
        .unwrap();
        let root = tempfile::tempdir().unwrap();
        let (theme, i18n) = (
            Theme::load(root.path(), &crate::plugin::Plugins::new()).unwrap(),
            I18n::load(root.path(), &config).unwrap(),
        );
        let views = Views::new(&config, &i18n);
        let post = |title: &str, day: usize, tags: &str, body: &str| {
            format!("---\ntitle: {title}\ndate: 2024-05-{day:02}\ntags: [{tags}]\n---\n{body}\n")
        };
        let mut sources: Vec<(&str, String)> = vec![
            ("en/posts/a.md", post("A", 1, "x", "First.\n\nMore.")),
            ("en/posts/b.md", post("B", 2, "x, y", "Second.")),
            ("en/posts/c.md", post("C", 3, "y", "Third.")),
            ("fr/posts/a.md", post("A fr", 1, "x", "Premier.")),
            ("en/about.md", "---\ntitle: About\n---\nAbout.\n".to_owned()),
        ];
        let visibility = Visibility {
            drafts: false,
            future: false,
            now_ms: i64::MAX,
        };
        let before = plan(
            &config,
            &views,
            &theme,
            records(&config, &sources),
            (&[], &crate::plugin::Plugins::new()),
            visibility,
            0,
        )
        .unwrap()
        .into_kept();
        // What b holds changes (its summary and its body), not its place.
        sources[1].1 = post("B, retitled", 2, "x, y", "Second, rewritten.\n\nAnd more.");
        let after = records(&config, &sources);
        let changed = [after
            .iter()
            .position(|r| r.source.path == "content/en/posts/b.md")
            .unwrap()];
        let afresh = plan(
            &config,
            &views,
            &theme,
            after.clone(),
            (&[], &crate::plugin::Plugins::new()),
            visibility,
            0,
        )
        .unwrap();
        let (replanned, affected) = replan(&config, &views, &theme, before, after, &changed);
        let fingerprints = |plan: &Plan<'_>| -> Vec<(String, String)> {
            plan.specs
                .iter()
                .map(|s| (s.output.to_string(), s.fingerprint.clone()))
                .collect()
        };
        assert_eq!(fingerprints(&replanned), fingerprints(&afresh));
        // Its page, its neighbours', the lists and the feed: not the
        // untouched French page, the about page or the site's own files.
        let affected: Vec<&str> = affected
            .iter()
            .map(|&s| afresh.specs[s].output.as_str())
            .collect();
        assert!(affected.contains(&"posts/b/index.html"), "{affected:?}");
        assert!(affected.contains(&"posts/a/index.html"), "{affected:?}");
        assert!(affected.contains(&"atom.xml"), "{affected:?}");
        for untouched in [
            "fr/posts/a/index.html",
            "about/index.html",
            "robots.txt",
            "sitemap.xml",
        ] {
            assert!(!affected.contains(&untouched), "{untouched}: {affected:?}");
        }
    }

    #[test]
    fn pagination_links_point_both_ways() {
        let p = paginator(1, 3, |n| format!("/page/{n}/"));
        assert_eq!(
            (p.newer_url, p.older_url.as_deref()),
            (None, Some("/page/2/"))
        );
        let p = paginator(3, 3, |n| format!("/page/{n}/"));
        assert_eq!(
            (p.newer_url.as_deref(), p.older_url),
            (Some("/page/2/"), None)
        );
    }
}
