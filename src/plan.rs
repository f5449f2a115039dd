//! Which pages the site has, what each one is rendered from, and which of
//! them must be rendered again.
//!
//! Owns the site's page model (a page per visible document, a home per
//! language), URLs turned into output paths, and fingerprints: the hash of a
//! page's template closure and of its exact context, where a body is stood in
//! for by its source hash. A page whose fingerprint is unchanged and whose
//! output file is intact is not rendered.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::PathBuf;

use jiff::Timestamp;
use sha2::{Digest, Sha256};

use crate::config::{Config, text_direction};
use crate::discover::Kind;
use crate::error::{Error, Problem, ProblemKind};
use crate::parse::{Record, hex};
use crate::render::{
    Context, LangView, LanguageLink, ListItem, PageView, PostView, SiteView, Theme, Translation,
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

    /// The file a page at `url` (`/fr/posts/x/`) is written to.
    pub fn for_url(url: &str) -> Option<OutputPath> {
        let dir = url.trim_matches('/');
        if dir.is_empty() {
            OutputPath::new("index.html")
        } else {
            OutputPath::new(&format!("{dir}/index.html"))
        }
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

/// One output page.
pub struct Page<'a> {
    pub output: OutputPath,
    pub template: &'static str,
    pub context: Context<'a>,
    /// The document whose body the page shows, by index into the records.
    pub body_of: Option<usize>,
    pub fingerprint: String,
}

/// Per-language views shared by every page of that language.
pub struct Views {
    sites: BTreeMap<String, SiteView>,
    langs: BTreeMap<String, LangView>,
}

impl Views {
    pub fn new(config: &Config) -> Views {
        let languages: Vec<LanguageLink> = config
            .ordered_languages()
            .map(|(code, lang)| LanguageLink {
                code: code.clone(),
                name: lang.name.clone(),
                home_url: config.language_root(code),
            })
            .collect();
        let sites = config
            .languages
            .keys()
            .map(|code| {
                let site = SiteView {
                    title: config.title_in(code).to_owned(),
                    base_url: config.base_url.clone(),
                    default_language: config.default_language.clone(),
                    languages: languages.clone(),
                };
                (code.clone(), site)
            })
            .collect();
        let langs = config
            .languages
            .iter()
            .map(|(code, lang)| {
                let view = LangView {
                    code: code.clone(),
                    name: lang.name.clone(),
                    dir: text_direction(code),
                };
                (code.clone(), view)
            })
            .collect();
        Views { sites, langs }
    }
}

/// Lists every page of the site. `records` are all current documents;
/// drafts are left out unless `drafts`.
pub fn pages<'a>(
    config: &Config,
    views: &'a Views,
    theme: &Theme,
    records: &[Record],
    drafts: bool,
) -> Result<Vec<Page<'a>>, Error> {
    let visible: Vec<usize> = (0..records.len())
        .filter(|&i| drafts || !records[i].draft)
        .collect();
    let language_order: HashMap<&str, usize> = config
        .ordered_languages()
        .enumerate()
        .map(|(i, (code, _))| (code.as_str(), i))
        .collect();
    let mut groups: HashMap<(Kind, &str), Vec<usize>> = HashMap::new();
    for &i in &visible {
        let r = &records[i];
        groups
            .entry((r.kind, r.translation_key.as_str()))
            .or_default()
            .push(i);
    }
    for members in groups.values_mut() {
        members.sort_by_key(|&i| language_order.get(records[i].lang.as_str()).copied());
    }

    let mut pages = Vec::new();
    let mut claimed: HashMap<OutputPath, PathBuf> = HashMap::new();
    let mut problems = Vec::new();
    let mut claim = |output: &OutputPath, by: &str, problems: &mut Vec<Problem>| {
        if let Some(other) = claimed.insert(output.clone(), PathBuf::from(by)) {
            problems.push(Problem::new(
                by,
                None,
                ProblemKind::OutputCollision {
                    output: output.to_string(),
                    other,
                },
            ));
        }
    };

    for &i in &visible {
        let record = &records[i];
        let (Some(site), Some(lang)) =
            (views.sites.get(&record.lang), views.langs.get(&record.lang))
        else {
            continue;
        };
        let Some(output) = OutputPath::for_url(&record.url) else {
            problems.push(Problem::new(
                &record.source.path,
                None,
                ProblemKind::Syntax {
                    message: format!("the URL {} would leave the output folder", record.url),
                    help: "change the slug".into(),
                },
            ));
            continue;
        };
        claim(&output, &record.source.path, &mut problems);
        let translations = groups[&(record.kind, record.translation_key.as_str())]
            .iter()
            .filter(|&&j| j != i)
            .map(|&j| Translation {
                code: records[j].lang.clone(),
                name: config.languages[&records[j].lang].name.clone(),
                url: records[j].url.clone(),
                title: records[j].title.clone(),
            })
            .collect();
        let mut context = Context {
            site,
            lang,
            url: record.url.clone(),
            translations,
            post: None,
            page: None,
            posts: None,
        };
        let template = match record.kind {
            Kind::Post => {
                context.post = Some(post_view(config, record));
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
        pages.push(Page {
            output,
            template,
            context,
            body_of: Some(i),
            fingerprint: String::new(),
        });
    }

    for (code, _) in config.ordered_languages() {
        let (site, lang) = (&views.sites[code], &views.langs[code]);
        let mut posts: Vec<&Record> = visible
            .iter()
            .map(|&i| &records[i])
            .filter(|r| r.kind == Kind::Post && r.lang == *code)
            .collect();
        posts.sort_by(|a, b| {
            b.published_at
                .cmp(&a.published_at)
                .then_with(|| a.slug.cmp(&b.slug))
        });
        let url = config.language_root(code);
        let Some(output) = OutputPath::for_url(&url) else {
            continue;
        };
        claim(&output, &format!("(home of {code})"), &mut problems);
        let translations = config
            .ordered_languages()
            .filter(|(other, _)| *other != code)
            .map(|(other, language)| Translation {
                code: other.clone(),
                name: language.name.clone(),
                url: config.language_root(other),
                title: config.title_in(other).to_owned(),
            })
            .collect();
        pages.push(Page {
            output,
            template: "list.html",
            context: Context {
                site,
                lang,
                url,
                translations,
                post: None,
                page: None,
                posts: Some(posts.iter().map(|r| list_item(config, r)).collect()),
            },
            body_of: None,
            fingerprint: String::new(),
        });
    }

    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }
    for page in &mut pages {
        page.fingerprint = fingerprint(theme, page.template, &page.context);
    }
    Ok(pages)
}

/// The hash of everything a page is rendered from.
pub fn fingerprint(theme: &Theme, template: &str, context: &Context<'_>) -> String {
    let mut hasher = Sha256::new();
    hasher.update(concat!("folio ", env!("CARGO_PKG_VERSION"), "\0"));
    hasher.update(template.as_bytes());
    hasher.update(b"\0");
    hasher.update(theme.closure_hash(template).as_bytes());
    hasher.update(b"\0");
    // Serializing into the hasher avoids holding the JSON; a context always
    // serializes, its fields being strings, lists and options.
    let _ = serde_json::to_writer(HashWriter(&mut hasher), context);
    hex(&hasher.finalize())
}

struct HashWriter<'a>(&'a mut Sha256);

impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn post_view(config: &Config, record: &Record) -> PostView {
    let (date, date_iso) = display_dates(config, record.published_at);
    let updated = record.updated_at.map(|ms| display_dates(config, ms));
    PostView {
        id: record.id.to_string(),
        title: record.title.clone(),
        slug: record.slug.clone(),
        date,
        date_iso,
        updated: updated.as_ref().map(|(d, _)| d.clone()),
        updated_iso: updated.map(|(_, iso)| iso),
        tags: record.tags.clone(),
        description: record.description.clone(),
        summary: record.summary.clone(),
        url: record.url.clone(),
        source_hash: record.source.hash.clone(),
        content: None,
    }
}

fn list_item(config: &Config, record: &Record) -> ListItem {
    let (date, date_iso) = display_dates(config, record.published_at);
    ListItem {
        title: record.title.clone(),
        url: record.url.clone(),
        date,
        date_iso,
        summary: record.summary.clone(),
        description: record.description.clone(),
        tags: record.tags.clone(),
    }
}

/// (`YYYY-MM-DD`, RFC 3339 with offset), both in the site time zone.
fn display_dates(config: &Config, ms: i64) -> (String, String) {
    match Timestamp::from_millisecond(ms) {
        Ok(ts) => {
            let zoned = ts.to_zoned_datetime(config.timezone.clone());
            (
                zoned.strftime("%Y-%m-%d").to_string(),
                zoned.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string(),
            )
        }
        Err(_) => (String::new(), String::new()),
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
        for bad in ["/../x/", "/a/../../b/", "/a//b/", "/./x/", "/a\\..\\b/"] {
            assert!(OutputPath::for_url(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn dates_are_shown_in_the_site_time_zone() {
        let config = Config::parse(
            "title='t'\nbase_url='x'\ndefault_language='en'\ntimezone='Asia/Tokyo'\n[languages.en]\nname='E'\n",
            std::path::Path::new("site.toml"),
        )
        .unwrap();
        let ms = "2024-05-01T20:00:00Z"
            .parse::<Timestamp>()
            .unwrap()
            .as_millisecond();
        assert_eq!(
            display_dates(&config, ms),
            (
                "2024-05-02".to_owned(),
                "2024-05-02T05:00:00+09:00".to_owned()
            )
        );
    }
}
