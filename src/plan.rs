//! Which pages the site has, what each one is rendered from, and which of
//! them must be rendered again.
//!
//! Owns the site's page model: a page per visible document, and per language
//! a paginated home, tag pages, an Atom feed; a sitemap and robots.txt for
//! the site; translations, `hreflang` alternates and the language switcher;
//! URLs turned into output paths; and fingerprints: the hash of a page's
//! template closure and of its exact context, where a body is stood in for by
//! its source hash. A page whose fingerprint is unchanged and whose output
//! file is intact is not rendered.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::PathBuf;

use jiff::Timestamp;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

use crate::config::{Config, encode_segment, text_direction};
use crate::discover::{Kind, StaticFile};
use crate::error::{Error, Problem, ProblemKind};
use crate::i18n::{I18n, Strings};
use crate::identify::format_ms;
use crate::parse::{Record, hex};
use crate::render::{
    Alternate, Context, FeedEntry, FeedView, LangView, LanguageLink, Link, ListItem, PageView,
    Paginator, PostView, Shared, SiteView, SitemapEntry, SwitchLink, TagLink, Theme, hash_context,
};

/// A path relative to the output folder, `/`-separated, that cannot leave it:
/// no empty, `.` or `..` segment, no backslash, no NUL.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutputPath(String);

impl OutputPath {
    pub fn new(path: &str) -> Option<OutputPath> {
        let confined = !path.is_empty()
            && path
                .split('/')
                .all(|s| !s.is_empty() && s != "." && s != ".." && !s.contains(['\\', '\0']));
        confined.then(|| OutputPath(path.to_owned()))
    }

    /// The file a page at `url` (`/fr/posts/x/`, percent-encoded) is
    /// written to: its segments decoded, then `index.html`. A URL ending in
    /// a file name (`/fr/atom.xml`) is that file.
    pub fn for_url(url: &str) -> Option<OutputPath> {
        let parts: Vec<&str> = url.strip_prefix('/')?.split('/').collect();
        let (last, dirs) = parts.split_last()?;
        let mut segments = Vec::with_capacity(parts.len());
        for dir in dirs {
            segments.push(crate::config::decode_segment(dir)?);
        }
        segments.push(if last.is_empty() {
            "index.html".to_owned()
        } else {
            crate::config::decode_segment(last)?
        });
        if segments.iter().any(|s| s.contains('/')) {
            return None;
        }
        OutputPath::new(&segments.join("/"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for OutputPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One output file.
pub struct Page<'a> {
    pub output: OutputPath,
    pub template: &'static str,
    pub context: Context<'a>,
    /// The document whose body the page shows, by index into the records.
    pub body_of: Option<usize>,
    pub fingerprint: String,
}

/// A static file to copy. Its fingerprint is its stat (size, mtime), so an
/// unchanged file is not even read; a racy stat never matches.
pub struct Copy {
    pub output: OutputPath,
    /// Relative to the site root.
    pub source: String,
    pub fingerprint: String,
}

/// Everything a build produces.
pub struct Plan<'a> {
    pub pages: Vec<Page<'a>>,
    pub copies: Vec<Copy>,
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
    pub fn shows(&self, record: &Record) -> bool {
        (self.drafts || !record.draft)
            && (self.future || record.kind == Kind::Page || record.published_at <= self.now_ms)
    }
}

/// Per-language views shared by every page of that language, each built and
/// hashed once.
pub struct Views<'i> {
    sites: BTreeMap<String, Shared<SiteView>>,
    langs: BTreeMap<String, Shared<LangView>>,
    words: BTreeMap<String, Shared<BTreeMap<String, String>>>,
    i18n: &'i I18n,
}

impl<'i> Views<'i> {
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
        };
        for (code, lang) in &config.languages {
            let site = SiteView {
                title: config.title_in(code).to_owned(),
                base_url: config.base_url.clone(),
                default_language: config.default_language.clone(),
                languages: languages.clone(),
            };
            let view = LangView {
                code: code.clone(),
                name: lang.name.clone(),
                dir: text_direction(code),
                home_url: config.language_root(code),
                tags_url: tags_url(config, code),
            };
            views.sites.insert(code.clone(), Shared::new(site));
            views.langs.insert(code.clone(), Shared::new(view));
            views
                .words
                .insert(code.clone(), Shared::new(i18n.strings(code).text.clone()));
        }
        views
    }
}

/// The URLs of a language's generated pages.
fn home_url(config: &Config, lang: &str, page: usize) -> String {
    let root = config.language_root(lang);
    if page <= 1 {
        root
    } else {
        format!("{root}page/{page}/")
    }
}

fn tags_url(config: &Config, lang: &str) -> String {
    format!("{}tags/", config.language_root(lang))
}

fn tag_url(config: &Config, lang: &str, slug: &str, page: usize) -> String {
    let base = format!("{}{}/", tags_url(config, lang), encode_segment(slug));
    if page <= 1 {
        base
    } else {
        format!("{base}page/{page}/")
    }
}

pub fn feed_url(config: &Config, lang: &str) -> String {
    format!("{}atom.xml", config.language_root(lang))
}

/// A tag's URL segment: lowercase, white space and URL-breaking characters
/// turned into dashes, NFC.
pub fn tag_slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.nfc().flat_map(char::to_lowercase) {
        if c.is_whitespace() || matches!(c, '/' | '\\' | '?' | '#' | '%') || c.is_control() {
            if !slug.ends_with('-') {
                slug.push('-');
            }
        } else {
            slug.push(c);
        }
    }
    let slug = slug.trim_matches(|c| c == '-' || c == '.');
    if slug.is_empty() {
        "tag".to_owned()
    } else {
        slug.to_owned()
    }
}

/// The tags of one language: slug → (shown name, its posts newest first).
type TagIndex = BTreeMap<String, (String, Vec<usize>)>;

/// The site seen from one build: what is visible, in which order, how
/// documents relate, and the views every page that lists a post shares.
struct Model<'r> {
    records: &'r [Record],
    visible: Vec<usize>,
    /// Visible posts per language, newest first.
    posts_by_lang: BTreeMap<&'r str, Vec<usize>>,
    /// Where each visible post stands in its language's list.
    position: HashMap<usize, usize>,
    /// Visible documents by (kind, translation key), in language order.
    groups: HashMap<(Kind, &'r str), Vec<usize>>,
    tags_by_lang: BTreeMap<&'r str, TagIndex>,
    /// Per record: its tags' slugs and its dates, computed once.
    tag_slugs: Vec<Vec<String>>,
    dates: Vec<DisplayDate>,
    /// Per visible post: its entry in lists, built and hashed once.
    items: HashMap<usize, Shared<ListItem>>,
}

impl<'r> Model<'r> {
    fn new(
        config: &Config,
        i18n: &I18n,
        records: &'r [Record],
        visibility: Visibility,
    ) -> Model<'r> {
        let language_order: HashMap<&str, usize> = config
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
        let (tag_slugs, dates): (Vec<Vec<String>>, Vec<DisplayDate>) = records
            .par_iter()
            .map(|r| {
                let slugs = r.tags.iter().map(|t| tag_slug(t)).collect();
                let date = DisplayDate::new(config, i18n.strings(&r.lang), r.published_at);
                (slugs, date)
            })
            .unzip();

        let mut groups: HashMap<(Kind, &str), Vec<usize>> = HashMap::new();
        let mut posts_by_lang: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for &i in &visible {
            let r = &records[i];
            groups
                .entry((r.kind, r.translation_key.as_str()))
                .or_default()
                .push(i);
            if r.kind == Kind::Post {
                posts_by_lang.entry(r.lang.as_str()).or_default().push(i);
            }
        }
        for members in groups.values_mut() {
            members.sort_by_key(|&i| language_order.get(records[i].lang.as_str()).copied());
        }
        let mut position = HashMap::new();
        for posts in posts_by_lang.values_mut() {
            posts.sort_by(|&a, &b| {
                let (a, b) = (&records[a], &records[b]);
                b.published_at
                    .cmp(&a.published_at)
                    .then_with(|| a.slug.cmp(&b.slug))
            });
            position.extend(posts.iter().enumerate().map(|(at, &i)| (i, at)));
        }
        let mut tags_by_lang: BTreeMap<&str, TagIndex> = BTreeMap::new();
        for (lang, posts) in &posts_by_lang {
            let tags = tags_by_lang.entry(lang).or_default();
            for &i in posts {
                for (name, slug) in records[i].tags.iter().zip(&tag_slugs[i]) {
                    let entry = tags
                        .entry(slug.clone())
                        .or_insert_with(|| (name.clone(), Vec::new()));
                    // Spellings that share a slug show as the smallest one,
                    // whatever order the posts come in.
                    if *name < entry.0 {
                        entry.0 = name.clone();
                    }
                    entry.1.push(i);
                }
            }
        }
        let mut model = Model {
            records,
            visible,
            posts_by_lang,
            position,
            groups,
            tags_by_lang,
            tag_slugs,
            dates,
            items: HashMap::new(),
        };
        let posts: Vec<usize> = model.posts_by_lang.values().flatten().copied().collect();
        let items: Vec<(usize, Shared<ListItem>)> = posts
            .par_iter()
            .map(|&i| (i, Shared::new(model.list_item(config, i))))
            .collect();
        model.items = items.into_iter().collect();
        model
    }

    fn translations_of(&self, i: usize) -> &[usize] {
        let r = &self.records[i];
        &self.groups[&(r.kind, r.translation_key.as_str())]
    }

    /// The tags of record `i`, linked to its language's tag pages.
    fn tag_links(&self, config: &Config, i: usize) -> Vec<TagLink> {
        let record = &self.records[i];
        let index = self.tags_by_lang.get(record.lang.as_str());
        record
            .tags
            .iter()
            .zip(&self.tag_slugs[i])
            .map(|(name, slug)| TagLink {
                name: name.clone(),
                url: tag_url(config, &record.lang, slug, 1),
                count: index
                    .and_then(|t| t.get(slug))
                    .map_or(0, |(_, posts)| posts.len()),
            })
            .collect()
    }

    fn list_item(&self, config: &Config, i: usize) -> ListItem {
        let record = &self.records[i];
        let date = &self.dates[i];
        ListItem {
            title: record.title.clone(),
            url: record.url.clone(),
            date: date.ymd.clone(),
            date_display: date.display.clone(),
            date_iso: date.iso.clone(),
            summary: record.summary.clone(),
            description: record.description.clone(),
            tags: self.tag_links(config, i),
        }
    }

    fn items(&self, indices: &[usize]) -> Vec<Shared<ListItem>> {
        indices.iter().map(|i| self.items[i].clone()).collect()
    }

    fn link(&self, i: Option<&usize>) -> Option<Link> {
        i.map(|&i| Link {
            title: self.records[i].title.clone(),
            url: self.records[i].url.clone(),
        })
    }
}

/// Builds every page of the site and lists the static files to copy.
/// `records` are all current documents; `started_ns` is the build's start,
/// for the racy rule on static files' stats.
pub fn plan<'a>(
    config: &Config,
    views: &'a Views<'_>,
    theme: &Theme,
    records: &[Record],
    statics: &[StaticFile],
    visibility: Visibility,
    started_ns: i64,
) -> Result<Plan<'a>, Error> {
    let model = Model::new(config, views.i18n, records, visibility);
    let mut builder = Builder {
        config,
        views,
        pages: Vec::new(),
        claimed: HashMap::new(),
        problems: Vec::new(),
    };
    let mut copies = Vec::with_capacity(statics.len());
    for file in statics {
        let source = file.source_path();
        let Some(output) = OutputPath::new(&file.rel) else {
            continue;
        };
        if builder.claim(&output, &source) {
            let stat = file.stat.settled(started_ns);
            copies.push(Copy {
                output,
                source,
                fingerprint: format!("static {} {}", stat.size, stat.mtime_ns),
            });
        }
    }

    for (code, _) in config.ordered_languages() {
        builder.language_pages(&model, code);
    }
    let documents: Vec<Draft<'a>> = model
        .visible
        .par_iter()
        .map(|&i| builder.document_page(&model, i))
        .collect();
    for draft in documents {
        builder.push(draft);
    }
    builder.site_pages();

    let Builder {
        mut pages,
        mut problems,
        claimed,
        ..
    } = builder;
    problems.extend(nested_or_case_collisions(&claimed));
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }
    pages.par_iter_mut().for_each(|page| {
        page.fingerprint = fingerprint(theme, page.template, &page.context);
    });
    Ok(Plan { pages, copies })
}

/// A page before its output is claimed.
struct Draft<'a> {
    by: String,
    url: String,
    template: &'static str,
    context: Context<'a>,
    body_of: Option<usize>,
}

struct Builder<'c, 'a> {
    config: &'c Config,
    views: &'a Views<'a>,
    pages: Vec<Page<'a>>,
    claimed: HashMap<OutputPath, PathBuf>,
    problems: Vec<Problem>,
}

impl<'a> Builder<'_, 'a> {
    fn push(&mut self, draft: Draft<'a>) {
        let Some(output) = OutputPath::for_url(&draft.url) else {
            self.problems.push(Problem::new(
                &draft.by,
                None,
                ProblemKind::Syntax {
                    message: format!("the URL {} would leave the output folder", draft.url),
                    help: "change the slug".into(),
                },
            ));
            return;
        };
        if !self.claim(&output, &draft.by) {
            return;
        }
        self.pages.push(Page {
            output,
            template: draft.template,
            context: draft.context,
            body_of: draft.body_of,
            fingerprint: String::new(),
        });
    }

    /// Takes `output` for `by`; false (and a problem) when it is taken.
    fn claim(&mut self, output: &OutputPath, by: &str) -> bool {
        match self.claimed.get(output) {
            Some(other) => {
                self.problems.push(Problem::new(
                    by,
                    None,
                    ProblemKind::OutputCollision {
                        output: output.to_string(),
                        other: other.clone(),
                    },
                ));
                false
            }
            None => {
                self.claimed.insert(output.clone(), PathBuf::from(by));
                true
            }
        }
    }

    /// The common part of a context. `alternates` are the page's versions,
    /// itself included; the switcher falls back to each language's home.
    fn context(&self, lang: &str, url: String, alternates: Vec<Alternate>) -> Context<'a> {
        let config = self.config;
        let x_default = (alternates.len() > 1).then(|| {
            alternates
                .iter()
                .find(|a| a.code == config.default_language)
                .map_or_else(
                    || config.language_root(&config.default_language),
                    |a| a.url.clone(),
                )
        });
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
        Context {
            site: &self.views.sites[lang],
            lang: &self.views.langs[lang],
            i18n: &self.views.words[lang],
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
            tags: None,
            feed: None,
            entries: None,
            sitemap: None,
        }
    }

    /// The same generated page in every language, for `hreflang`.
    fn every_language(&self, url_of: impl Fn(&str) -> String) -> Vec<Alternate> {
        self.config
            .ordered_languages()
            .map(|(code, _)| Alternate {
                code: code.clone(),
                url: url_of(code),
            })
            .collect()
    }

    fn language_pages(&mut self, model: &Model<'_>, lang: &str) {
        let config = self.config;
        let empty = Vec::new();
        let posts = model.posts_by_lang.get(lang).unwrap_or(&empty);
        let tags = model.tags_by_lang.get(lang);

        // Home, paginated.
        let chunks: Vec<&[usize]> = if posts.is_empty() {
            vec![&[]]
        } else {
            posts.chunks(config.paginate).collect()
        };
        for (n, chunk) in chunks.iter().enumerate() {
            let page = n + 1;
            let url = home_url(config, lang, page);
            let alternates = if page == 1 {
                self.every_language(|code| home_url(config, code, 1))
            } else {
                vec![Alternate {
                    code: lang.to_owned(),
                    url: url.clone(),
                }]
            };
            let mut context = self.context(lang, url.clone(), alternates);
            context.posts = Some(model.items(chunk));
            context.paginator = Some(paginator(page, chunks.len(), |p| home_url(config, lang, p)));
            self.push(Draft {
                by: format!("(home of {lang}, page {page})"),
                url,
                template: "list.html",
                context,
                body_of: None,
            });
        }

        // Tags: an index, and a paginated list per tag.
        let url = tags_url(config, lang);
        let alternates = self.every_language(|code| tags_url(config, code));
        let mut context = self.context(lang, url.clone(), alternates);
        context.tags = Some(
            tags.into_iter()
                .flatten()
                .map(|(slug, (name, posts))| TagLink {
                    name: name.clone(),
                    url: tag_url(config, lang, slug, 1),
                    count: posts.len(),
                })
                .collect(),
        );
        self.push(Draft {
            by: format!("(tags of {lang})"),
            url,
            template: "tags.html",
            context,
            body_of: None,
        });
        for (slug, (name, tagged)) in tags.into_iter().flatten() {
            let chunks: Vec<&[usize]> = tagged.chunks(config.paginate).collect();
            for (n, chunk) in chunks.iter().enumerate() {
                let page = n + 1;
                let url = tag_url(config, lang, slug, page);
                let alternates = vec![Alternate {
                    code: lang.to_owned(),
                    url: url.clone(),
                }];
                let mut context = self.context(lang, url.clone(), alternates);
                context.tag = Some(TagLink {
                    name: name.clone(),
                    url: tag_url(config, lang, slug, 1),
                    count: tagged.len(),
                });
                context.posts = Some(model.items(chunk));
                context.paginator = Some(paginator(page, chunks.len(), |p| {
                    tag_url(config, lang, slug, p)
                }));
                self.push(Draft {
                    by: format!("(tag `{name}` of {lang}, page {page})"),
                    url,
                    template: "list.html",
                    context,
                    body_of: None,
                });
            }
        }

        // The Atom feed.
        let url = feed_url(config, lang);
        let newest = &posts[..posts.len().min(config.feed_limit)];
        let entries: Vec<FeedEntry> = newest
            .iter()
            .map(|&i| {
                let r = &model.records[i];
                FeedEntry {
                    id: format!("urn:uuid:{}", r.id.to_uuid()),
                    title: r.title.clone(),
                    url: format!("{}{}", config.base_url, r.url),
                    published: format_ms(r.published_at),
                    updated: format_ms(r.updated_at.unwrap_or(r.published_at)),
                    summary: r.summary.clone(),
                    tags: r.tags.clone(),
                }
            })
            .collect();
        let updated = newest
            .iter()
            .map(|&i| {
                let r = &model.records[i];
                r.updated_at.unwrap_or(r.published_at).max(r.published_at)
            })
            .max()
            .unwrap_or(0);
        let mut context = self.context(lang, url.clone(), Vec::new());
        context.feed = Some(FeedView {
            id: format!("{}{url}", config.base_url),
            title: config.title_in(lang).to_owned(),
            home_url: format!("{}{}", config.base_url, config.language_root(lang)),
            updated: format_ms(updated),
            author: config
                .author
                .clone()
                .unwrap_or_else(|| config.title.clone()),
        });
        context.entries = Some(entries);
        self.push(Draft {
            by: format!("(feed of {lang})"),
            url,
            template: "atom.xml",
            context,
            body_of: None,
        });
    }

    /// The page of document `i`, not yet claimed (built in parallel).
    fn document_page(&self, model: &Model<'_>, i: usize) -> Draft<'a> {
        let config = self.config;
        let record = &model.records[i];
        let alternates = model
            .translations_of(i)
            .iter()
            .map(|&j| Alternate {
                code: model.records[j].lang.clone(),
                url: model.records[j].url.clone(),
            })
            .collect();
        let mut context = self.context(&record.lang, record.url.clone(), alternates);
        let template = match record.kind {
            Kind::Post => {
                let siblings = &model.posts_by_lang[record.lang.as_str()];
                let at = model.position[&i];
                let date = &model.dates[i];
                let updated = record
                    .updated_at
                    .map(|ms| DisplayDate::new(config, self.views.i18n.strings(&record.lang), ms));
                context.post = Some(PostView {
                    id: record.id.to_string(),
                    title: record.title.clone(),
                    slug: record.slug.clone(),
                    date: date.ymd.clone(),
                    date_display: date.display.clone(),
                    date_iso: date.iso.clone(),
                    updated: updated.as_ref().map(|d| d.ymd.clone()),
                    updated_display: updated.as_ref().map(|d| d.display.clone()),
                    updated_iso: updated.map(|d| d.iso),
                    tags: model.tag_links(config, i),
                    description: record.description.clone(),
                    summary: record.summary.clone(),
                    url: record.url.clone(),
                    newer: model.link(at.checked_sub(1).and_then(|k| siblings.get(k))),
                    older: model.link(siblings.get(at + 1)),
                    source_hash: record.source.hash.clone(),
                    content: None,
                });
                "post.html"
            }
            Kind::Page => {
                context.page = Some(PageView {
                    title: record.title.clone(),
                    description: record.description.clone(),
                    url: record.url.clone(),
                    source_hash: record.source.hash.clone(),
                    content: None,
                });
                "page.html"
            }
        };
        Draft {
            by: record.source.path.clone(),
            url: record.url.clone(),
            template,
            context,
            body_of: Some(i),
        }
    }

    /// The sitemap (every HTML page with its alternates) and robots.txt.
    fn site_pages(&mut self) {
        let config = self.config;
        let absolute = |url: &str| format!("{}{url}", config.base_url);
        let mut entries: Vec<SitemapEntry> = self
            .pages
            .iter()
            .filter(|p| p.template.ends_with(".html"))
            .map(|p| SitemapEntry {
                loc: absolute(&p.context.url),
                alternates: p
                    .context
                    .alternates
                    .iter()
                    .filter(|_| p.context.alternates.len() > 1)
                    .map(|a| Alternate {
                        code: a.code.clone(),
                        url: absolute(&a.url),
                    })
                    .collect(),
                x_default: p.context.x_default.as_deref().map(absolute),
            })
            .collect();
        entries.sort_by(|a, b| a.loc.cmp(&b.loc));
        let lang = config.default_language.clone();
        let mut context = self.context(&lang, "/sitemap.xml".to_owned(), Vec::new());
        context.sitemap = Some(entries);
        self.push(Draft {
            by: "(sitemap)".into(),
            url: "/sitemap.xml".into(),
            template: "sitemap.xml",
            context,
            body_of: None,
        });
        let context = self.context(&lang, "/robots.txt".to_owned(), Vec::new());
        self.push(Draft {
            by: "(robots.txt)".into(),
            url: "/robots.txt".into(),
            template: "robots.txt",
            context,
            body_of: None,
        });
    }
}

/// Outputs that cannot coexist on disk although their paths differ: one
/// inside a folder that is another's file (`index.html/index.html`), or two
/// that differ only in case (one file on macOS and Windows).
fn nested_or_case_collisions(claimed: &HashMap<OutputPath, PathBuf>) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut by_folded: BTreeMap<String, Vec<&OutputPath>> = BTreeMap::new();
    for output in claimed.keys() {
        by_folded
            .entry(output.as_str().nfc().flat_map(char::to_lowercase).collect())
            .or_default()
            .push(output);
        let path = output.as_str();
        for (at, _) in path.match_indices('/') {
            if let Some((file, other)) = claimed.get_key_value(&OutputPath(path[..at].to_owned())) {
                problems.push(Problem::new(
                    &claimed[output],
                    None,
                    ProblemKind::OutputCollision {
                        output: format!("{output} (inside {file}, a file)"),
                        other: other.clone(),
                    },
                ));
            }
        }
    }
    for mut outputs in by_folded.into_values().filter(|o| o.len() > 1) {
        outputs.sort();
        for later in &outputs[1..] {
            problems.push(Problem::new(
                &claimed[*later],
                None,
                ProblemKind::OutputCollision {
                    output: format!(
                        "{later} (the same file as {} where case is ignored)",
                        outputs[0]
                    ),
                    other: claimed[outputs[0]].clone(),
                },
            ));
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

/// The hash of everything a page is rendered from.
pub fn fingerprint(theme: &Theme, template: &str, context: &Context<'_>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(concat!("folio ", env!("CARGO_PKG_VERSION"), "\0"));
    hasher.update(template.as_bytes());
    hasher.update(b"\0");
    hasher.update(theme.closure_hash(template).as_bytes());
    hasher.update(b"\0");
    hash_context(&mut hasher, context);
    hex(&hasher.finalize())
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
        ] {
            assert!(OutputPath::for_url(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn tag_slugs_are_lowercase_and_url_safe() {
        assert_eq!(tag_slug("Rust"), "rust");
        assert_eq!(tag_slug("Static sites"), "static-sites");
        assert_eq!(tag_slug("a/b?c"), "a-b-c");
        assert_eq!(tag_slug("多言語"), "多言語");
        assert_eq!(tag_slug("../"), "tag");
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
