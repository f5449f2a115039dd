//! `folio check`: the links of a built site. Every `href` and `src` of
//! every page that points into the site must name a page or a file of it,
//! and every `#fragment` an element of the page it points to. The build
//! itself (run into a throwaway folder, see [`crate::Site::check`])
//! checks everything else: sources, front matter, the ids' guard,
//! templates.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::Path;

use html5gum::{Token, Tokenizer};
use rayon::prelude::*;

use crate::build::options::BuildOptions;
use crate::build::session::{INDEX_FILE, Session, index_path};
use crate::build::site::Site;
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::report::{BuildReport, Explanation};
use crate::model::url::decode_segment;
use crate::render::TEMPLATES_DIR;
use crate::source::config::Config;
use crate::source::parse::line_at;
use crate::store::index::Index;

impl Site {
    /// Checks the whole site without writing a page or a row of its own:
    /// builds it, as `options` say, into `scratch` (an empty folder the
    /// caller made and removes) with a copy of the index, so that every
    /// rule of a build holds (the ids' guard included), then checks the
    /// links of every page it built. Returns the scratch build's report;
    /// the errors of the first stage that fails, or every broken link,
    /// each named by the file (a source or a template) and line that
    /// write it.
    pub fn check(&self, options: &BuildOptions, scratch: &Path) -> Result<BuildReport, Error> {
        let mut checked = self.checked_build(options, scratch)?;
        let broken = checked.pages.broken(self.config());
        if broken.is_empty() {
            return Ok(checked.report);
        }
        let pages = broken.iter().map(|link| link.page.as_str()).collect();
        let mut writers = Writers::new(self, checked.explain(pages)?);
        Err(Error::Content(writers.internal(&broken)))
    }

    /// The build of [`Site::check`] into `scratch`, and the pages it made.
    pub(crate) fn checked_build(
        &self,
        options: &BuildOptions,
        scratch: &Path,
    ) -> Result<Checked, Error> {
        let index = index_path(self, options);
        let mut scratch_options = options.clone();
        scratch_options.out_dir = Some(scratch.join("site"));
        scratch_options.index_path = Some(scratch.join(INDEX_FILE));
        scratch_options.dry_run = false;
        if index.exists() {
            Index::copy(&index, &scratch.join(INDEX_FILE))?;
        }
        let mut session = Session::open(self.clone(), scratch_options)?;
        let report = session.build_as_opened()?;
        let pages = SitePages::read(&scratch.join("site"))?;
        Ok(Checked {
            session,
            report,
            pages,
        })
    }
}

/// A site built for a check: the session that built it, its report, and
/// the pages it made.
pub(crate) struct Checked {
    session: Session,
    /// The scratch build's report.
    pub(crate) report: BuildReport,
    /// Every page it made, read back.
    pub(crate) pages: SitePages,
}

impl Checked {
    /// What each of `pages` is made from, by page.
    pub(crate) fn explain(
        &mut self,
        pages: BTreeSet<&str>,
    ) -> Result<HashMap<String, Explanation>, Error> {
        let pages: Vec<&str> = pages.into_iter().collect();
        let explained = self.session.explain_each(&pages)?;
        Ok(pages
            .into_iter()
            .map(str::to_owned)
            .zip(explained)
            .collect())
    }
}

/// A link of a built page that leads nowhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLink {
    /// The page, relative to the output folder.
    pub page: String,
    /// The link as the page writes it.
    pub link: String,
    /// What is missing: the target, or the fragment in it.
    pub missing: Missing,
}

/// What a broken link misses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// No page or file of the site is at its path.
    Target,
    /// Its target has no element with this id.
    Anchor(String),
}

impl BrokenLink {
    /// The problem to report, with how to fix it.
    pub fn kind(&self) -> ProblemKind {
        let (message, help) = match &self.missing {
            Missing::Target => (
                format!(
                    "links to {}, which no page or file of the site is",
                    self.link
                ),
                "fix the link, or add the page or the file under static/",
            ),
            Missing::Anchor(id) => (
                format!(
                    "links to {}, whose page has no element with id `{id}`",
                    self.link
                ),
                "fix the fragment, or the heading it names (headings get ids from their text)",
            ),
        };
        ProblemKind::Layout {
            message,
            help: help.into(),
        }
    }
}

/// What one page holds for the check: its links and its ids.
#[derive(Default)]
struct Page {
    links: Vec<String>,
    ids: HashSet<String>,
}

/// The pages of a built site, read back: every file's path (relative to
/// the output folder), and each HTML page's links and ids.
pub struct SitePages {
    files: HashSet<String>,
    pages: BTreeMap<String, Page>,
}

impl SitePages {
    /// Reads the site built into `out_dir`.
    pub fn read(out_dir: &Path) -> Result<SitePages, Error> {
        let files: HashSet<String> = walkdir::WalkDir::new(out_dir)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .filter_map(|e| {
                let rel = e.path().strip_prefix(out_dir).ok()?.to_str()?;
                Some(rel.replace('\\', "/"))
            })
            .collect();
        let pages = files
            .par_iter()
            .filter(|file| file.ends_with(".html"))
            .map(|file| {
                let path = out_dir.join(file);
                // A static page in another encoding is read as far as it goes.
                let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
                Ok((file.clone(), read_page(&String::from_utf8_lossy(&bytes))))
            })
            .collect::<Result<_, Error>>()?;
        Ok(SitePages { files, pages })
    }

    /// The links into the site that lead nowhere, sorted by page.
    pub fn broken(&self, config: &Config) -> Vec<BrokenLink> {
        let files: HashSet<&str> = self.files.iter().map(String::as_str).collect();
        let mut broken = Vec::new();
        for (page, held) in &self.pages {
            for link in &held.links {
                let Some((target, fragment)) = resolve(page, link, config) else {
                    continue;
                };
                let target = match target {
                    None => Some(page.clone()),
                    Some(target) => find(&files, &target),
                };
                let missing = match (target, fragment) {
                    (None, _) => Some(Missing::Target),
                    // Browsers scroll to the top for these, with no element.
                    (Some(_), Some(id)) if id.is_empty() || id.eq_ignore_ascii_case("top") => None,
                    (Some(target), Some(id)) => self
                        .pages
                        .get(&target)
                        .filter(|found| !found.ids.contains(&id))
                        .map(|_| Missing::Anchor(id)),
                    (Some(_), None) => None,
                };
                if let Some(missing) = missing {
                    broken.push(BrokenLink {
                        page: page.clone(),
                        link: link.clone(),
                        missing,
                    });
                }
            }
        }
        broken
    }

    /// The links out of the site a browser would fetch over HTTP
    /// (`http:`, `https:`, `//host/…`), as the pages write them (trimmed),
    /// each with the pages that hold it.
    #[cfg(feature = "external-links")]
    pub fn outward(&self, config: &Config) -> BTreeMap<String, Vec<String>> {
        let mut outward: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (page, held) in &self.pages {
            for link in &held.links {
                let link = link.trim();
                let web = link.starts_with("//")
                    || link
                        .get(..7)
                        .is_some_and(|s| s.eq_ignore_ascii_case("http://"))
                    || link
                        .get(..8)
                        .is_some_and(|s| s.eq_ignore_ascii_case("https://"));
                if web && resolve(page, link, config).is_none() {
                    let pages = outward.entry(link.to_owned()).or_default();
                    if pages.last() != Some(page) {
                        pages.push(page.clone());
                    }
                }
            }
        }
        outward
    }
}

/// Which file of the site writes a link: of the sources and templates a
/// page is made from, the first whose text holds it, and the line where it
/// first does; else the file the page is made for, with no line. A
/// template is the site's file, else its theme's, as the build takes it.
pub(crate) struct Writers<'r> {
    root: &'r Path,
    /// The theme's folder under the root, when the site names one.
    theme_dir: Option<&'r str>,
    explained: HashMap<String, Explanation>,
    texts: HashMap<String, Option<String>>,
}

impl<'r> Writers<'r> {
    /// The writers of links on the pages `explained` (by page) of `site`.
    pub(crate) fn new(site: &'r Site, explained: HashMap<String, Explanation>) -> Writers<'r> {
        Writers {
            root: site.root(),
            theme_dir: site.config().theme_dir.as_deref(),
            explained,
            texts: HashMap::new(),
        }
    }

    /// The file that writes `link` on `page` (relative to the site root),
    /// and its line there.
    pub(crate) fn locate(&mut self, page: &str, link: &str) -> (String, Option<usize>) {
        let Some(explanation) = self.explained.get(page) else {
            return (page.to_owned(), None);
        };
        let (root, theme_dir) = (self.root, self.theme_dir);
        let templates = explanation.templates.iter().filter_map(move |name| {
            let own = format!("{TEMPLATES_DIR}/{name}");
            let theme = theme_dir.map(|theme| format!("{theme}/{own}"));
            std::iter::once(own)
                .chain(theme)
                .find(|file| root.join(file).is_file())
        });
        let candidates = std::iter::once(explanation.made_for.clone())
            .chain(explanation.sources.iter().cloned())
            .chain(templates);
        // A file where the link is only part of a longer URL is taken when
        // none writes it on its own.
        let mut within: Option<(String, Option<usize>)> = None;
        for file in candidates {
            let text = self.texts.entry(file.clone()).or_insert_with(|| {
                let bytes = std::fs::read(self.root.join(&file)).ok()?;
                Some(String::from_utf8_lossy(&bytes).into_owned())
            });
            let Some(text) = text.as_deref() else {
                continue;
            };
            match find_link(text, link) {
                Some((at, true)) => return (file, Some(line_at(text, at))),
                Some((at, false)) if within.is_none() => {
                    within = Some((file, Some(line_at(text, at))));
                }
                _ => {}
            }
        }
        within.unwrap_or_else(|| (explanation.made_for.clone(), None))
    }

    /// The problems of `broken` links, each said once, of the file that
    /// writes it: a post (also when its summary carries the link onto
    /// list pages), a template, or what the page is made for.
    pub(crate) fn internal(&mut self, broken: &[BrokenLink]) -> Vec<Problem> {
        let mut said: BTreeMap<(String, Option<usize>, String), Problem> = BTreeMap::new();
        for link in broken {
            let (who, line) = self.locate(&link.page, &link.link);
            said.entry((who.clone(), line, link.link.clone()))
                .or_insert_with(|| Problem::new(&who, line, link.kind()));
        }
        said.into_values().collect()
    }
}

/// Where `link` is first written in `text`, and whether it stands on its
/// own there rather than as part of a longer URL (`/a` in `/a/b`, `//x.org`
/// in `https://x.org`): the first place it does, else the first place.
fn find_link(text: &str, link: &str) -> Option<(usize, bool)> {
    let part_of_url = |c: char| c.is_alphanumeric() || "/-_%#?&=~+@".contains(c);
    let mut first = None;
    for (at, _) in text.match_indices(link) {
        let before = text[..at].chars().next_back();
        let mut after = text[at + link.len()..].chars();
        let next = after.next();
        // Punctuation after a URL ends it, unless more of the URL follows
        // (`.html`, `:8080`).
        let goes_on = next.is_some_and(|c| {
            part_of_url(c)
                || (".,:;!".contains(c) && after.next().is_some_and(char::is_alphanumeric))
        });
        let within = before.is_some_and(|c| part_of_url(c) || ".:".contains(c)) || goes_on;
        if !within {
            return Some((at, true));
        }
        first.get_or_insert((at, false));
    }
    first
}

/// The `href` and `src` values of `html`, and its ids (and `<a name>`s).
/// A `<link>` that only hints at a host to connect to early (`preconnect`,
/// `dns-prefetch`) names a host, not a page: its `href` is left out.
fn read_page(html: &str) -> Page {
    let mut page = Page::default();
    for token in Tokenizer::new(html) {
        let Ok(Token::StartTag(tag)) = token else {
            continue;
        };
        let hint = &tag.name[..] == b"link"
            && tag.attributes.get(&b"rel"[..]).is_some_and(|rel| {
                String::from_utf8_lossy(rel)
                    .split_ascii_whitespace()
                    .any(|rel| {
                        rel.eq_ignore_ascii_case("preconnect")
                            || rel.eq_ignore_ascii_case("dns-prefetch")
                    })
            });
        for (name, value) in &tag.attributes {
            let value = String::from_utf8_lossy(value).into_owned();
            match &name[..] {
                b"href" if hint => {}
                b"href" | b"src" => page.links.push(value),
                b"id" => {
                    page.ids.insert(value);
                }
                b"name" if &tag.name[..] == b"a" => {
                    page.ids.insert(value);
                }
                _ => {}
            }
        }
    }
    page
}

/// Where a link of `page` leads in the output folder: the target's path
/// (`None`: the page itself) and the fragment. `None` for a link out of
/// the site (another scheme, host or base path).
fn resolve(page: &str, link: &str, config: &Config) -> Option<(Option<String>, Option<String>)> {
    let link = link.trim();
    let (rest, fragment) = match link.split_once('#') {
        Some((rest, fragment)) => (rest, decode_segment(fragment)),
        None => (link, None),
    };
    let rest = rest.split('?').next().unwrap_or_default();
    let origin = config.origin.trim_end_matches('/');
    let rest = match rest.strip_prefix(origin) {
        Some(path) if !origin.is_empty() && path.starts_with('/') => path,
        _ => rest,
    };
    if rest.is_empty() {
        return Some((None, fragment));
    }
    if rest.starts_with("//")
        || rest
            .split('/')
            .next()
            .is_some_and(|first| first.contains(':'))
    {
        return None;
    }
    let absolute = if rest.starts_with('/') {
        config.site_path(rest)?.to_owned()
    } else {
        match page.rsplit_once('/') {
            Some((folder, _)) => format!("/{folder}/{rest}"),
            None => format!("/{rest}"),
        }
    };
    let mut segments: Vec<String> = Vec::new();
    for segment in absolute.split('/').skip(1) {
        match segment {
            "." => {}
            ".." => {
                segments.pop();
            }
            other => segments.push(decode_segment(other).unwrap_or_else(|| other.to_owned())),
        }
    }
    Some((Some(segments.join("/")), fragment))
}

/// The file a resolved path names: itself, or the `index.html` of the
/// folder it names (with or without its trailing slash).
fn find(files: &HashSet<&str>, target: &str) -> Option<String> {
    let folder_index = match target.trim_end_matches('/') {
        "" => "index.html".to_owned(),
        folder => format!("{folder}/index.html"),
    };
    [target.to_owned(), folder_index]
        .into_iter()
        .find(|candidate| files.contains(candidate.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config::parse(
            "title = \"t\"\nbase_url = \"https://example.org/blog/\"\ndefault_language = \"en\"\n[languages.en]\nname = \"English\"\n",
            Path::new("site.toml"),
        )
        .unwrap()
    }

    #[test]
    fn links_resolve_to_output_paths_or_leave_the_site() {
        let config = config();
        let resolve = |page: &str, link: &str| resolve(page, link, &config);
        let to = |path: &str, fragment: Option<&str>| {
            Some((Some(path.to_owned()), fragment.map(str::to_owned)))
        };
        assert_eq!(
            resolve("fr/index.html", "/blog/fr/posts/a/"),
            to("fr/posts/a/", None)
        );
        assert_eq!(
            resolve("fr/index.html", "https://example.org/blog/x.css"),
            to("x.css", None)
        );
        assert_eq!(
            resolve("fr/p/index.html", "../q/#top"),
            to("fr/q/", Some("top"))
        );
        assert_eq!(
            resolve("a/index.html", "caf%C3%A9.png?v=2"),
            to("a/café.png", None)
        );
        assert_eq!(
            resolve("a/index.html", "#here"),
            Some((None, Some("here".into())))
        );
        assert_eq!(resolve("index.html", "posts/a/"), to("posts/a/", None));
        assert_eq!(resolve("404.html", "./logo.png"), to("logo.png", None));
        for outside in [
            "https://other.org/",
            "mailto:a@b.c",
            "//cdn.org/x.js",
            "/elsewhere/",
        ] {
            assert_eq!(resolve("a/index.html", outside), None, "{outside}");
        }
    }

    #[test]
    fn a_link_is_found_where_it_stands_on_its_own() {
        let text = "[a](https://x.org/a/b) [b](https://x.org/a#top)\n[c](https://x.org/a).\n";
        assert_eq!(
            find_link(text, "https://x.org/a"),
            Some((text.rfind("https").unwrap(), true))
        );
        assert_eq!(find_link(text, "//x.org/a/b"), Some((10, false)));
        assert_eq!(find_link(text, "https://x.org/a/b"), Some((4, true)));
        assert_eq!(find_link(text, "https://y.org/"), None);
        assert_eq!(line_at(text, text.rfind("https").unwrap()), 2);
    }

    #[test]
    fn missing_pages_and_anchors_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::create_dir_all(out.join("a")).unwrap();
        std::fs::write(
            out.join("index.html"),
            "<a href=\"/blog/a/\">a</a><a href=\"/blog/a#x\">x</a><a href=\"/blog/a/#nope\">n</a>\
             <img src=\"/blog/gone.png\"><a href=\"#self\" id=\"self\">s</a><a href=\"https://x.org/\">o</a>",
        )
        .unwrap();
        std::fs::write(out.join("a/index.html"), "<h2 id=\"x\">X</h2>").unwrap();
        let broken = SitePages::read(out).unwrap().broken(&config());
        let found: Vec<(&str, &Missing)> = broken
            .iter()
            .map(|b| (b.link.as_str(), &b.missing))
            .collect();
        assert_eq!(
            found,
            [
                ("/blog/a/#nope", &Missing::Anchor("nope".into())),
                ("/blog/gone.png", &Missing::Target),
            ]
        );
    }
}
