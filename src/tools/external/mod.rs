//! `folio check --external` (`external-links` feature): the check of
//! [`Site::check`], then every link out of the site asked for over HTTP.
//! A link is gone (an error) when it answers 404 or 410, names a host that
//! does not exist, or is no URL at all; any other failure may mend by
//! itself (429, 5xx, a timeout, a refused connection) and is a warning.
//! Links found alive are kept in the state folder for a day
//! (`cache.rs`), so a check run on every push asks each host again once a
//! day, not once a push. The network is this module's and `fetch.rs`'s
//! alone: the build engine never opens a connection.

mod cache;
mod fetch;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use url::Url;

use crate::build::options::BuildOptions;
use crate::build::session::index_path;
use crate::build::site::Site;
use crate::model::error::{Error, LinkAnswer, Problem, ProblemKind};
use crate::model::report::BuildReport;
use crate::source::config::Config;
use crate::store::state::StateDir;
use crate::tools::check::Writers;
use cache::Cache;

/// What [`Site::check_external`] found.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LinkReport {
    /// The scratch build's report.
    pub build: BuildReport,
    /// Links out of the site asked for this time (each URL once, whatever
    /// its fragment or the number of pages holding it).
    pub asked: usize,
    /// Links out of the site found alive by a check less than a day ago,
    /// and not asked again.
    pub cached: usize,
    /// Links left alone: they start with one of `[check] skip_prefixes`.
    pub skipped: usize,
    /// Every broken link, in the site (a page, file or anchor that is not
    /// there) or out of it ([`LinkAnswer::is_broken`]), each of the file
    /// that writes it, sorted by file and line. The check fails when there
    /// is one.
    pub broken: Vec<Problem>,
    /// The links out of the site that could not be told alive this time
    /// ([`ProblemKind::ExternalLink`]): asked again at the next check.
    pub warnings: Vec<Problem>,
}

/// How long a link found alive is taken to stay so: a day.
const FRESH_FOR_MS: i64 = 24 * 60 * 60 * 1000;

impl Site {
    /// [`Site::check`], and the links out of the site: each URL that a
    /// page's `href` or `src` names over `http:` or `https:` (but those
    /// `[check] skip_prefixes` names) is asked for, a few at a time per
    /// host, unless a check found it alive less than a day before
    /// `now_ms` (Unix milliseconds, the caller's clock). What it found
    /// alive is written to the state folder (`.folio/links.json`), the
    /// one file the check writes there. An error only when the build
    /// fails or the state folder cannot be used: broken links are in the
    /// report.
    pub fn check_external(
        &self,
        options: &BuildOptions,
        scratch: &Path,
        now_ms: i64,
    ) -> Result<LinkReport, Error> {
        let mut checked = self.checked_build(options, scratch)?;
        let config = self.config();
        let internal = checked.pages.broken(config);
        let outward = checked.pages.outward(config);
        let index = index_path(self, options);
        let state = StateDir::open(index.parent().unwrap_or(self.root()))?;
        let asked = Asked::ask(outward.keys(), config, &state, now_ms)?;
        let pages = internal
            .iter()
            .map(|link| link.page.as_str())
            .chain(
                asked
                    .failed
                    .keys()
                    .flat_map(|link| outward[link].iter().map(String::as_str)),
            )
            .collect();
        let mut writers = Writers::new(self, checked.explain(pages)?);
        let mut broken = writers.internal(&internal);
        let mut warnings = Vec::new();
        for (link, answer) in &asked.failed {
            for problem in writers.external(link, &outward[link], answer) {
                if answer.is_broken() {
                    broken.push(problem);
                } else {
                    warnings.push(problem);
                }
            }
        }
        broken.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
        warnings.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
        Ok(LinkReport {
            build: checked.report,
            asked: asked.asked,
            cached: asked.cached,
            skipped: asked.skipped,
            broken,
            warnings,
        })
    }
}

/// What asking for the links out of the site gave.
struct Asked {
    /// How many URLs were asked for.
    asked: usize,
    /// How many were found alive in the cache.
    cached: usize,
    /// How many links were left alone.
    skipped: usize,
    /// The links (as the pages write them) that are not alive, and what
    /// they answered.
    failed: BTreeMap<String, LinkAnswer>,
}

impl Asked {
    /// Asks for each of `links` that `config` does not skip and the cache
    /// of `state` does not know alive at `now_ms`, then keeps in the cache
    /// what is alive.
    fn ask<'l>(
        links: impl Iterator<Item = &'l String>,
        config: &Config,
        state: &StateDir,
        now_ms: i64,
    ) -> Result<Asked, Error> {
        let mut skipped = 0;
        let mut targets: Vec<(&str, Result<String, LinkAnswer>)> = Vec::new();
        for link in links {
            let target = target(link, &config.origin);
            let skips = |url: &Url| config.check.skips(url.as_str());
            if config.check.skips(link) || target.as_ref().is_ok_and(skips) {
                skipped += 1;
            } else {
                targets.push((link, target.map(String::from)));
            }
        }
        let cache = Cache::read(state)?;
        let wanted: BTreeSet<&str> = targets
            .iter()
            .filter_map(|(_, target)| target.as_deref().ok())
            .collect();
        let (cached, to_ask): (Vec<&str>, Vec<&str>) = wanted
            .into_iter()
            .partition(|url| cache.alive_at(url, now_ms, FRESH_FOR_MS));
        let answers = fetch::ask_all(&to_ask, Duration::from_secs_f64(config.check.timeout));
        let alive = cached
            .iter()
            .filter_map(|url| Some((url.to_string(), cache.checked_at(url)?)))
            .chain(
                answers
                    .iter()
                    .filter(|(_, answer)| answer.is_ok())
                    .map(|(url, _)| (url.clone(), now_ms)),
            )
            .collect();
        Cache::write(state, alive)?;
        let failed = targets
            .iter()
            .filter_map(|(link, target)| {
                let answer = match target {
                    Ok(url) => answers.get(url)?.clone().err()?,
                    Err(invalid) => invalid.clone(),
                };
                Some((link.to_string(), answer))
            })
            .collect();
        Ok(Asked {
            asked: to_ask.len(),
            cached: cached.len(),
            skipped,
            failed,
        })
    }
}

/// The URL a browser fetches for `link`, without its fragment (the page is
/// the same whatever the fragment); a link starting with `//` takes the
/// site's scheme. What is wrong with it, when it is no URL.
fn target(link: &str, origin: &str) -> Result<Url, LinkAnswer> {
    let scheme = if origin.starts_with("http://") {
        "http:"
    } else {
        "https:"
    };
    let absolute = match link.strip_prefix("//") {
        Some(_) => format!("{scheme}{link}"),
        None => link.to_owned(),
    };
    let mut url = Url::parse(&absolute).map_err(|e| LinkAnswer::Invalid(e.to_string()))?;
    url.set_fragment(None);
    Ok(url)
}

impl Writers<'_> {
    /// The problems of the link out of the site `link`, held by `pages`,
    /// which answered `answer`: one per file that writes it, naming the
    /// pages where it does so.
    fn external(&mut self, link: &str, pages: &[String], answer: &LinkAnswer) -> Vec<Problem> {
        let mut by_writer: BTreeMap<String, (Option<usize>, Vec<String>)> = BTreeMap::new();
        for page in pages {
            let (who, line) = self.locate(page, link);
            let (_, on) = by_writer.entry(who).or_insert((line, Vec::new()));
            on.push(page.clone());
        }
        by_writer
            .into_iter()
            .map(|(who, (line, pages))| {
                let kind = ProblemKind::ExternalLink {
                    url: link.to_owned(),
                    pages,
                    answer: answer.clone(),
                };
                Problem::new(who, line, kind)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_asked_for_as_a_browser_would_fetch_it() {
        let target = |link: &str| target(link, "https://example.org").map(String::from);
        assert_eq!(
            target("https://Example.COM/a b#part").unwrap(),
            "https://example.com/a%20b"
        );
        assert_eq!(
            target("//cdn.example/x.js").unwrap(),
            "https://cdn.example/x.js"
        );
        assert_eq!(
            target("https://münchen.example/café").unwrap(),
            "https://xn--mnchen-3ya.example/caf%C3%A9"
        );
        assert!(matches!(target("https://"), Err(LinkAnswer::Invalid(_))));
        assert!(matches!(
            target("http://exa mple.org/"),
            Err(LinkAnswer::Invalid(_))
        ));
    }
}
