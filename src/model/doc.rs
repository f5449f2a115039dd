//! The document types every stage passes on: a source as discover finds it,
//! and a document as the index stores it.

use std::time::SystemTime;

use crate::model::id::PostId;

/// A post (dated, listed, in feeds) or a page (undated, standalone).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Post,
    Page,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Post => "post",
            Kind::Page => "page",
        }
    }

    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "post" => Some(Kind::Post),
            "page" => Some(Kind::Page),
            _ => None,
        }
    }
}

/// What the file system says about a source, without opening it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub size: u64,
    /// Nanoseconds since the Unix epoch; [`Stat::RACY`] when the index must
    /// not trust it.
    pub mtime_ns: i64,
}

impl Stat {
    /// Stored for a file modified at or after the start of the build that
    /// read it: the file may have changed again within the same clock tick,
    /// so the next build reads it instead of trusting its stat.
    pub const RACY: i64 = -1;

    pub fn of(meta: &std::fs::Metadata) -> Stat {
        Stat {
            size: meta.len(),
            mtime_ns: meta.modified().map(nanos_since_epoch).unwrap_or(Stat::RACY),
        }
    }

    /// The stat to store for a file read by a build that started at `start`.
    pub fn settled(self, start: i64) -> Stat {
        if self.mtime_ns >= start {
            Stat {
                mtime_ns: Stat::RACY,
                ..self
            }
        } else {
            self
        }
    }
}

pub fn nanos_since_epoch(time: SystemTime) -> i64 {
    match time.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_nanos()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_nanos()).unwrap_or(i64::MAX),
    }
}

/// A source file and where it belongs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Relative to the site root, `/`-separated: the key of the index.
    pub path: String,
    pub lang: String,
    pub kind: Kind,
    /// The path inside its language root, without the language suffix and
    /// extension (`posts/hello-world`): the default translation key.
    pub key: String,
    /// The file name without language suffix and extension; a bundle's
    /// folder name.
    pub stem: String,
    /// Whether it is a bundle's document (`<folder>/index.md`): named by
    /// its folder, with the folder's other files copied beside its page.
    pub bundle: bool,
    pub stat: Stat,
}

/// Where a row's source is and what it held when it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceState {
    pub path: String,
    /// Hex SHA-256 of the file's bytes.
    pub hash: String,
    pub stat: Stat,
}

/// A document as the index stores it: everything list pages, feeds and
/// translation links need, without the body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub id: PostId,
    pub kind: Kind,
    pub slug: String,
    pub lang: String,
    /// Unix milliseconds; 0 for pages.
    pub published_at: i64,
    pub updated_at: Option<i64>,
    /// Unix milliseconds from which it is no longer published (`expires`,
    /// Hugo's `expiryDate`).
    pub expires_at: Option<i64>,
    pub source: SourceState,
    pub title: String,
    pub url: String,
    /// HTML: the part before `<!-- more -->`, or else the first paragraph.
    pub summary: String,
    pub description: Option<String>,
    /// Its terms of the `tags` taxonomy (with other generators'
    /// categories, unless the site declares `categories`).
    pub tags: Vec<String>,
    /// Its terms of each other taxonomy the site declares, in site.toml's
    /// order, those it has none of left out.
    pub terms: Vec<(String, Vec<String>)>,
    pub draft: bool,
    /// Published by some build, even if a draft now: its id is public (its
    /// page and feed entry were out), so its date and slug are guarded.
    pub ever_published: bool,
    pub translation_key: String,
    /// The Markdown transform plugins that changed its body, as
    /// `name version`, sorted: part of its pages' fingerprints.
    pub plugins: Vec<String>,
    /// The front matter fields folio does not read, for templates: a JSON
    /// object (with `authors` from `author` or `authors`).
    pub extra: String,
    /// Old URLs of the document (`aliases`, `redirect_from`), as URL paths:
    /// each gets a page that redirects to it.
    pub aliases: Vec<String>,
    /// The template the front matter asks for.
    pub template: Option<TemplateChoice>,
    /// Words in its body, each CJK character counted as one.
    pub word_count: u32,
    /// Whole minutes its body takes to read, at least 1.
    pub reading_time: u32,
    /// Its headings in order ([`Heading`]s as JSON), read only when its
    /// contents are shown or a link names one: most rows are never asked.
    pub headings: String,
    /// Its links to other documents (`@/path.md`), in the order written.
    pub links: Vec<InternalLink>,
    /// The shortcodes its body calls, by name, sorted: their templates are
    /// in the fingerprints of the pages that show it.
    pub shortcodes: Vec<String>,
    /// The local images its body shows (`![](cat.jpg)`,
    /// `![](/images/map.png)`), as written, each once, in the order first
    /// written: with `[images]`, what its pages show of them is measured
    /// and made responsive.
    pub images: Vec<String>,
    /// Where a section ordered by weight lists it: lightest first.
    pub weight: Option<i64>,
}

/// A heading of a document's body: its contents entry, and an anchor a
/// link to the document may name.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Heading {
    /// 1 for `#`, 6 for `######`.
    pub level: u8,
    /// Its anchor on the page.
    pub id: String,
    /// Its text, without markup.
    pub title: String,
}

/// A link from a document's body to another document, written from
/// `content/` (Zola's `@/posts/x.md#anchor`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct InternalLink {
    /// Where it is written in the source.
    pub line: u32,
    /// What follows `@/`, its `#anchor` included.
    pub target: String,
}

/// The template a document's front matter asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateChoice {
    /// `template: name.html`: the theme must have it.
    Named(String),
    /// `layout: name` (Jekyll, Hugo): `name.html` when the theme has it,
    /// else the template of the document's kind, since another
    /// generator's layouts are not folio's templates.
    Layout(String),
}

impl TemplateChoice {
    /// As the index stores it.
    pub fn to_stored(&self) -> String {
        match self {
            TemplateChoice::Named(name) => format!("template:{name}"),
            TemplateChoice::Layout(name) => format!("layout:{name}"),
        }
    }

    /// From the index's text; `None` for text no folio wrote.
    pub fn from_stored(text: &str) -> Option<TemplateChoice> {
        match text.split_once(':')? {
            ("template", name) => Some(TemplateChoice::Named(name.to_owned())),
            ("layout", name) => Some(TemplateChoice::Layout(name.to_owned())),
            _ => None,
        }
    }
}

impl Record {
    /// The document at `path` as a build that plans only the pages showing
    /// what changed first knows it: what says whether it is shown, which
    /// language and kind it is, what it links, calls and shows (its URL only
    /// when it claims one of the site's own files'), and nothing a page
    /// reads of it. It stands in for a row the build may never need
    /// whole ([`Record::is_stub`]), which is read before a page reads it.
    pub fn stub(path: String, stat: Stat, kind: Kind, lang: String) -> Record {
        Record {
            id: PostId::unknown(),
            kind,
            slug: String::new(),
            lang,
            published_at: 0,
            updated_at: None,
            expires_at: None,
            source: SourceState {
                path,
                // The mark of a stub: every read source has a hash.
                hash: String::new(),
                stat,
            },
            title: String::new(),
            url: String::new(),
            summary: String::new(),
            description: None,
            tags: Vec::new(),
            terms: Vec::new(),
            draft: false,
            ever_published: false,
            translation_key: String::new(),
            plugins: Vec::new(),
            extra: String::new(),
            aliases: Vec::new(),
            template: None,
            word_count: 0,
            reading_time: 0,
            headings: String::new(),
            links: Vec::new(),
            shortcodes: Vec::new(),
            images: Vec::new(),
            weight: None,
        }
    }

    /// Its [`Record::stub`], as the index reads it with the site's own
    /// files at `claimed` (what tests of stubs start from).
    #[cfg(test)]
    pub(crate) fn as_stub(&self, claimed: &[String]) -> Record {
        let (path, stat) = (self.source.path.clone(), self.source.stat);
        Record {
            published_at: self.published_at,
            draft: self.draft,
            expires_at: self.expires_at,
            links: self.links.clone(),
            shortcodes: self.shortcodes.clone(),
            images: self.images.clone(),
            url: match claimed.contains(&self.url) {
                true => self.url.clone(),
                false => String::new(),
            },
            ..Record::stub(path, stat, self.kind, self.lang.clone())
        }
    }

    /// Whether it is a [`Record::stub`], its row not read whole yet.
    pub fn is_stub(&self) -> bool {
        self.source.hash.is_empty()
    }

    /// Itself, read whole: what a page or a check reads more of than a
    /// stub holds asks for it so, and a debug build stops at a stub there.
    #[track_caller]
    pub fn whole(&self) -> &Record {
        debug_assert!(!self.is_stub(), "{} was not read whole", self.source.path);
        self
    }

    /// Its terms of `taxonomy`.
    pub fn terms_of(&self, taxonomy: &str) -> &[String] {
        if taxonomy == "tags" {
            return &self.tags;
        }
        self.terms
            .iter()
            .find(|(name, _)| name == taxonomy)
            .map_or(&[], |(_, terms)| terms)
    }

    /// Its headings, from [`Record::headings`]' JSON.
    pub fn heading_list(&self) -> Vec<Heading> {
        serde_json::from_str(&self.headings).unwrap_or_default()
    }

    /// Whether two rows of one source claim the same things: the same id
    /// (and so date), the same (slug, language) and the same translation
    /// key in that language. What the invariants are checked on.
    pub fn same_claims(&self, other: &Record) -> bool {
        self.source.path == other.source.path
            && self.id == other.id
            && self.kind == other.kind
            && self.slug == other.slug
            && self.lang == other.lang
            && self.translation_key == other.translation_key
    }
}
