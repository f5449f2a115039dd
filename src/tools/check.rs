//! `folio check`: the links of a built site. Every `href` and `src` of
//! every page that points into the site must name a page or a file of it,
//! and every `#fragment` an element of the page it points to. The build
//! itself (run into a throwaway folder, see [`crate::Session::check`])
//! checks everything else: sources, front matter, the ids' guard,
//! templates.

use std::collections::{BTreeMap, HashMap, HashSet};
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
use crate::store::index::Index;

impl Site {
    /// Checks the whole site without writing a page or a row of its own:
    /// builds it, as `options` say, into `scratch` (an empty folder the
    /// caller made and removes) with a copy of the index, so that every
    /// rule of a build holds (the ids' guard included), then checks the
    /// links of every page it built. Returns the scratch build's report;
    /// the errors of the first stage that fails, or every broken link,
    /// each named by the source its page is made for.
    pub fn check(&self, options: &BuildOptions, scratch: &Path) -> Result<BuildReport, Error> {
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
        let broken = broken_links(&scratch.join("site"), self.config())?;
        if broken.is_empty() {
            return Ok(report);
        }
        let pages: Vec<&str> = broken.iter().map(|link| link.page.as_str()).collect();
        let explained = session.explain_each(&pages)?;
        let theme_dir = self.config().theme_dir.as_deref();
        Err(Error::Content(attribute(
            &broken,
            &explained,
            (self.root(), theme_dir),
        )))
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

/// The broken links of the site built into `out_dir`, sorted by page.
pub fn broken_links(out_dir: &Path, config: &Config) -> Result<Vec<BrokenLink>, Error> {
    let files: Vec<String> = walkdir::WalkDir::new(out_dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(out_dir).ok()?.to_str()?;
            Some(rel.replace('\\', "/"))
        })
        .collect();
    let pages: BTreeMap<String, Page> = files
        .par_iter()
        .filter(|file| file.ends_with(".html"))
        .map(|file| {
            let path = out_dir.join(file);
            // A static page in another encoding is read as far as it goes.
            let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
            Ok((file.clone(), read_page(&String::from_utf8_lossy(&bytes))))
        })
        .collect::<Result<_, Error>>()?;
    let files: HashSet<&str> = files.iter().map(String::as_str).collect();
    let mut broken = Vec::new();
    for (page, held) in &pages {
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
                (Some(target), Some(id)) => pages
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
    Ok(broken)
}

/// The problems of `broken` links, each said once, of the file that writes
/// it: of the pages' sources (a post's page, or a list showing its summary)
/// and templates (`explained`, page by page), the first whose text holds
/// the link; else of what the page is made for. A template is the site's
/// file, else its theme's (`theme_dir`), as the build takes it.
pub fn attribute(
    broken: &[BrokenLink],
    explained: &[Explanation],
    (root, theme_dir): (&Path, Option<&str>),
) -> Vec<Problem> {
    let mut texts: HashMap<String, Option<String>> = HashMap::new();
    let mut holds = |file: &str, link: &str| {
        texts
            .entry(file.to_owned())
            .or_insert_with(|| {
                let bytes = std::fs::read(root.join(file)).ok()?;
                Some(String::from_utf8_lossy(&bytes).into_owned())
            })
            .as_deref()
            .is_some_and(|text| text.contains(link))
    };
    let mut said: BTreeMap<(String, String), Problem> = BTreeMap::new();
    for (link, explanation) in broken.iter().zip(explained) {
        let templates = explanation.templates.iter().filter_map(|name| {
            let own = format!("{TEMPLATES_DIR}/{name}");
            let theme = theme_dir.map(|theme| format!("{theme}/{own}"));
            std::iter::once(own)
                .chain(theme)
                .find(|file| root.join(file).is_file())
        });
        let mut candidates = std::iter::once(explanation.made_for.clone())
            .chain(explanation.sources.iter().cloned())
            .chain(templates);
        let who = candidates
            .find(|file| holds(file, &link.link))
            .unwrap_or_else(|| explanation.made_for.clone());
        said.entry((who.clone(), link.link.clone()))
            .or_insert_with(|| Problem::new(&who, None, link.kind()));
    }
    said.into_values().collect()
}

/// The `href` and `src` values of `html`, and its ids (and `<a name>`s).
fn read_page(html: &str) -> Page {
    let mut page = Page::default();
    for token in Tokenizer::new(html) {
        let Ok(Token::StartTag(tag)) = token else {
            continue;
        };
        for (name, value) in &tag.attributes {
            let value = String::from_utf8_lossy(value).into_owned();
            match &name[..] {
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
        let broken = broken_links(out, &config()).unwrap();
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
