//! The contexts handed to templates: one view type per kind of page and
//! the parts they share, each shared part serialized and hashed once, and
//! `Context`, all a template can see. Nothing in a context comes from the
//! clock. Each name a template sees is documented in docs/templates.md,
//! which `reference.rs` holds to these types.

use super::*;

/// A view every page of a language shares (its site view, its words),
/// built once with the hash of its serialization, which the pages'
/// fingerprints take instead of serializing the view again. It is handed to
/// templates as one prebuilt template value, shared by reference, rather
/// than converted again for every page.
#[derive(Debug)]
pub struct Shared<T> {
    /// What templates see: the render module's tests compare it.
    pub(super) value: Value,
    digest: String,
    of: std::marker::PhantomData<fn() -> T>,
}

impl<T: Serialize> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared {
            value: Value::from(minijinja::value::Serde(&value)),
            digest: digest_of(&value),
            of: std::marker::PhantomData,
        }
    }

    /// The hash of the value's serialization.
    pub fn digest(&self) -> &str {
        &self.digest
    }
}

impl Shared<BTreeMap<String, String>> {
    /// A language's words, which `t("key")` looks up some twenty times a
    /// page: held as a [`Words`] map, found by the key's text.
    pub fn words(words: BTreeMap<String, String>) -> Self {
        Shared {
            digest: digest_of(&words),
            value: Value::from_object(Words(
                words
                    .into_iter()
                    .map(|(key, text)| (key, Value::from(text)))
                    .collect(),
            )),
            of: std::marker::PhantomData,
        }
    }
}

/// The hash of a view's serialization.
pub(super) fn digest_of(value: &impl Serialize) -> String {
    let mut hasher = Sha256::new();
    // A value made of strings, numbers and lists always serializes.
    let _ = serde_json::to_writer(HashWriter(&mut hasher), value);
    hex(&hasher.finalize())
}

/// A language's words as a template value. minijinja's own map finds a key
/// by building a template value from it and comparing it with the keys as
/// template values; this one compares text. Seen from a template, the same
/// map: `i18n.key`, `i18n["key"]`, iteration in key order.
#[derive(Debug)]
pub(super) struct Words(BTreeMap<String, Value>);

impl minijinja::value::Object for Words {
    fn get_value(self: &std::sync::Arc<Self>, key: &Value) -> Option<Value> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &std::sync::Arc<Self>, key: &str) -> Option<Value> {
        self.0.get(key).cloned()
    }

    fn enumerate(self: &std::sync::Arc<Self>) -> minijinja::value::Enumerator {
        use minijinja::value::ObjectExt as _;
        self.mapped_enumerator(|words| {
            Box::new(words.0.keys().map(|key| Value::from(key.as_str())))
        })
    }

    fn enumerator_len(self: &std::sync::Arc<Self>) -> Option<usize> {
        Some(self.0.len())
    }
}

impl<T> Serialize for Shared<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

/// Feeds serialized bytes straight into a hash.
pub(super) struct HashWriter<'a>(&'a mut Sha256);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The site as every page sees it, in that page's language.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SiteView {
    pub title: String,
    /// `description`, the language's own when it has one.
    pub description: Option<String>,
    /// `[extra]`, with the language's `[languages.<code>.extra]` laid over.
    pub extra: serde_json::Value,
    /// The scheme and host: every URL a template gets is a path from here,
    /// so `site.base_url ~ url` is absolute, sub-path included.
    pub base_url: String,
    /// `/blog` for a site under a sub-path of its host, else empty.
    pub base_path: String,
    pub default_language: String,
    pub languages: Vec<LanguageLink>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LanguageLink {
    pub code: String,
    pub name: String,
    pub home_url: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct LangView {
    pub code: String,
    pub name: String,
    pub dir: &'static str,
    pub home_url: String,
    /// The index of the tags, when the site has them.
    pub tags_url: String,
    /// Its archive: every post, by year.
    pub archive_url: String,
    /// The index of each of the site's taxonomies, in site.toml's order.
    pub taxonomies: Vec<TaxonomyLink>,
}

/// A taxonomy's index, as the pages of a language link it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TaxonomyLink {
    /// As site.toml names it: `series`.
    pub name: String,
    /// As the language calls it: `Séries`.
    pub title: String,
    pub url: String,
}

/// A version of the page in a language (for `hreflang`), itself included.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Alternate {
    pub code: String,
    pub url: String,
}

/// One entry of the language switcher: the page's own translation, or that
/// language's home when there is none.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SwitchLink {
    pub code: String,
    pub name: String,
    pub url: String,
    pub current: bool,
    pub translated: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Link {
    pub title: String,
    pub url: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TagLink {
    pub name: String,
    pub url: String,
}

/// A tag with the number of posts it has in the page's language.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TagCount {
    pub name: String,
    pub url: String,
    pub count: usize,
}

/// A section, on its list's pages.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SectionView {
    /// Its `_index.md`'s `title`, else its folder's name with a capital.
    pub title: String,
    pub description: Option<String>,
    /// Its `_index.md`'s body, as HTML marked safe.
    pub content: Value,
    /// The URL of its first page.
    pub url: String,
    /// Its folder inside its language (`posts`, `docs/guides`).
    pub path: String,
    /// `posts` when it lists posts, `pages` when pages.
    pub kind: &'static str,
    /// Its order: `date` (newest first), `title` or `weight`.
    pub sort_by: &'static str,
    /// Its `_index.md`'s `[extra]` table.
    pub extra: serde_json::Value,
    /// The sections right below it, in its language.
    pub subsections: Vec<SectionLink>,
}

/// A section linked from the one above it, with how many documents it
/// lists.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SectionLink {
    pub title: String,
    pub url: String,
    pub count: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PostView {
    pub id: String,
    pub title: String,
    pub slug: String,
    /// `YYYY-MM-DD` in the site time zone.
    pub date: String,
    /// In the language's own format, month names included.
    pub date_display: String,
    pub date_iso: String,
    pub updated: Option<String>,
    pub updated_display: Option<String>,
    pub updated_iso: Option<String>,
    pub tags: Vec<TagLink>,
    /// Its terms of each taxonomy it has any of (tags too), by taxonomy.
    pub taxonomies: BTreeMap<String, Vec<TagLink>>,
    /// Each a [`ListItem`]: the posts of its language sharing the most
    /// terms with it, for a template that names `related`; else empty.
    pub related: Vec<Value>,
    pub description: Option<String>,
    /// The front matter's `image`, as an absolute URL: what a link to the
    /// post shows when shared (OpenGraph, Twitter cards).
    pub image: Option<String>,
    pub summary: String,
    pub url: String,
    /// Its headings, each with those under it.
    pub toc: Vec<TocEntry>,
    /// Words in its body, each CJK character counted as one.
    pub word_count: u32,
    /// Whole minutes, at least 1.
    pub reading_time: u32,
    pub newer: Option<Link>,
    pub older: Option<Link>,
    /// The front matter fields folio does not read.
    pub extra: serde_json::Value,
    /// Stands in for the body in the fingerprint: the body is a function of
    /// the source bytes this hashes.
    pub source_hash: String,
    /// Filled only when the page is rendered, as HTML marked safe: handed to
    /// the template as it is, not copied into it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PageView {
    pub title: String,
    pub description: Option<String>,
    /// The front matter's `image`, as an absolute URL: what a link to the
    /// page shows when shared (OpenGraph, Twitter cards).
    pub image: Option<String>,
    pub extra: serde_json::Value,
    pub url: String,
    /// Its tags, linked to their pages, which list it after the posts.
    pub tags: Vec<TagLink>,
    /// Its terms of each taxonomy it has any of (tags too), by taxonomy.
    pub taxonomies: BTreeMap<String, Vec<TagLink>>,
    pub toc: Vec<TocEntry>,
    pub word_count: u32,
    pub reading_time: u32,
    pub source_hash: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}

/// An entry of a menu (`[[menus.<name>]]` in site.toml).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct MenuView {
    pub name: String,
    /// Its URL; a document's (`@/about.md`) in the page's language.
    pub url: String,
    pub weight: i64,
    /// What its children name as their `parent`: its `identifier`, else its
    /// name.
    pub identifier: String,
    /// The entries under it, lightest first.
    pub children: Vec<MenuView>,
}

/// A heading in a document's table of contents.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct TocEntry {
    /// 1 for `#`, 6 for `######`.
    pub level: u8,
    pub id: String,
    pub title: String,
    /// `#id`: the link to it from its page.
    pub url: String,
    /// The headings under it, until the next of its level or above.
    pub children: Vec<TocEntry>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ListItem {
    /// `post` or `page`: a term's pages list both.
    pub kind: &'static str,
    pub title: String,
    pub url: String,
    pub date: String,
    pub date_display: String,
    pub date_iso: String,
    /// Its year, `YYYY`, for archives (`groupby("year")`).
    pub year: String,
    pub summary: String,
    pub description: Option<String>,
    pub tags: Vec<TagLink>,
    /// Its terms of each taxonomy it has any of (tags too), by taxonomy.
    pub taxonomies: BTreeMap<String, Vec<TagLink>>,
    pub word_count: u32,
    pub reading_time: u32,
    pub extra: serde_json::Value,
}

/// A year of a language's archive.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ArchiveYear {
    /// `YYYY`, in the site's time zone.
    pub year: String,
    /// Its posts, newest first.
    pub posts: Vec<ArchiveEntry>,
}

/// A post in an archive: what it is listed by, and nothing an edit of its
/// body changes.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ArchiveEntry {
    pub title: String,
    pub url: String,
    pub date: String,
    pub date_display: String,
    pub date_iso: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Paginator {
    pub current: usize,
    pub total: usize,
    pub newer_url: Option<String>,
    pub older_url: Option<String>,
}

/// A feed as a page that advertises it links it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FeedLink {
    pub url: String,
    /// `application/atom+xml`, `application/rss+xml`, `application/feed+json`.
    pub media_type: &'static str,
    /// `atom`, `rss` or `json`, as site.toml names it.
    pub format: &'static str,
    /// Its format's name in the page's language (`Atom feed`, `Flux RSS`).
    pub title: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FeedView {
    /// The feed's own absolute URL, which is also its Atom id.
    pub id: String,
    /// The site's title in the feed's language.
    pub title: String,
    /// The absolute URL of the list it follows (a home, a tag's page).
    pub home_url: String,
    /// The newest date among its entries: RFC 3339, and RFC 822 for RSS.
    pub updated: String,
    pub updated_rfc822: String,
    pub author: String,
    /// The term's name, for a term's feed.
    pub term: Option<String>,
    /// The term's taxonomy, for a term's feed.
    pub taxonomy: Option<TaxonomyLink>,
    /// The section's title, for a section's feed.
    pub section: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct FeedEntry {
    /// `urn:uuid:` + the post's id: stable across edits.
    pub id: String,
    pub title: String,
    pub url: String,
    /// RFC 3339, and RFC 822 for RSS.
    pub published: String,
    pub published_rfc822: String,
    pub updated: String,
    /// HTML, as the lists show it.
    pub summary: String,
    /// The front matter's `description`: plain text.
    pub description: Option<String>,
    /// The whole post as HTML, with `feed_content = "full"`; filled only
    /// when the feed is rendered, and escaped as any text is (a feed holds
    /// it as text).
    pub content: Option<String>,
    pub tags: Vec<String>,
    /// From the post's `author` or `authors`; the feed's author when none.
    pub authors: Vec<String>,
}

/// Where a page at an old URL sends its reader.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RedirectView {
    /// The document's page, absolute: the canonical URL.
    pub url: String,
    /// The document's page from the site's root (with the base path): where
    /// the browser goes, on the host it is on (production, or a preview).
    pub path: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct SitemapEntry {
    pub loc: String,
    pub alternates: Vec<Alternate>,
    pub x_default: Option<String>,
    /// When what the page shows last changed, by the dates its documents
    /// give (RFC 3339, UTC): a post's or page's update or publication, a
    /// list's newest item. `None` for a page no date speaks for.
    pub lastmod: Option<String>,
}

/// The whole context of one page. Every page has the common part; the
/// optional parts depend on its template.
#[derive(Debug, Clone, Serialize)]
pub struct Context<'a> {
    pub site: &'a Shared<SiteView>,
    pub lang: &'a Shared<LangView>,
    /// The language's words, reached through `t("key")`.
    pub i18n: &'a Shared<BTreeMap<String, String>>,
    /// The language's menus, by name.
    pub menus: &'a Shared<BTreeMap<String, Vec<MenuView>>>,
    pub url: String,
    /// The feeds of the language's home.
    pub feeds: &'a Shared<Vec<FeedLink>>,
    /// The first of `feeds`, if any.
    pub feed_url: Option<String>,
    /// The feeds of the list the page is a page of (a tag's), beside
    /// those of its language's home.
    pub list_feeds: Vec<FeedLink>,
    pub alternates: Vec<Alternate>,
    pub x_default: Option<String>,
    pub switcher: Vec<SwitchLink>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub post: Option<PostView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<PageView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Each a [`ListItem`], converted to a template value once per build and
    /// shared by every list showing it.
    pub posts: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paginator: Option<Paginator>,
    /// On a taxonomy's index and its terms' pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taxonomy: Option<TaxonomyLink>,
    /// On a taxonomy's index: its terms in the page's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terms: Option<Vec<TagCount>>,
    /// On a term's page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub term: Option<TagCount>,
    /// On a language's archive: its posts by year, newest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<Vec<ArchiveYear>>,
    /// Each a [`ListItem`]: every published post of the page's language,
    /// newest first, for a template that names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub all_posts: Option<Vec<Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<SectionView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feed: Option<FeedView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entries: Option<Vec<FeedEntry>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub redirect: Option<RedirectView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Borrowed from the build rather than copied: an entry for every HTML
    /// page of the site.
    pub sitemap: Option<&'a [SitemapEntry]>,
}

impl Context<'_> {
    /// About what the page will weigh once rendered: its body, or a
    /// feed's entries, if any, and room for the theme's markup and a list
    /// page's summaries.
    pub fn size_hint(&self) -> usize {
        const MARKUP: usize = 16 * 1024;
        let content = self
            .post
            .as_ref()
            .and_then(|post| post.content.as_ref())
            .or_else(|| self.page.as_ref().and_then(|page| page.content.as_ref()));
        let entries = self
            .entries
            .iter()
            .flatten()
            .map(|entry| entry.summary.len() + entry.content.as_ref().map_or(0, String::len));
        MARKUP + content.and_then(Value::as_str).map_or(0, str::len) + entries.sum::<usize>()
    }

    /// Hands a feed's entries their whole posts, in entry order.
    pub fn set_entry_contents(&mut self, contents: impl IntoIterator<Item = String>) {
        for (entry, html) in self.entries.iter_mut().flatten().zip(contents) {
            entry.content = Some(html);
        }
    }

    /// Hands the body to whichever view the page has.
    pub fn set_content(&mut self, html: String) {
        let html = Value::from_safe_string(html);
        if let Some(post) = &mut self.post {
            post.content = Some(html);
        } else if let Some(page) = &mut self.page {
            page.content = Some(html);
        }
    }
}
