//! The sitemap: every HTML page of the site, with its alternates.

use super::*;

/// The site's sitemap.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Sitemap;

impl Sitemap {
    pub(super) fn inputs(&self) -> Inputs<'static> {
        Inputs {
            parts: vec![Input::Sitemap],
            config_keys: &["paginate", "permalink"],
        }
    }

    /// Its entries are made once per build that renders it
    /// ([`Plan::sitemap_if_selected`]) and borrowed.
    pub(super) fn fill<'s>(&self, context: &mut Context<'s>, sitemap: Option<&'s [SitemapEntry]>) {
        context.sitemap = sitemap;
    }
}

/// The sitemap of the site.
pub(in crate::plan) fn sitemap_recipe(
    config: &Config,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    recipes.push((
        format!("{}/sitemap.xml", config.base_path),
        "sitemap.xml".into(),
        Recipe::Sitemap(Sitemap),
    ));
}

impl<'a> Plan<'a> {
    /// What the sitemap's fingerprint covers: every HTML page with its
    /// alternates. Hashed in parallel, in chunks of fixed size whose
    /// digests are hashed in order.
    pub(in crate::plan) fn sitemap_key(&self, specs: &[Spec]) -> String {
        let chunks: Vec<DocumentDigest> = specs
            .par_chunks(1024)
            .map(|chunk| {
                let mut key = KeyHasher(Sha256::new());
                for spec in chunk.iter().filter(|s| s.in_sitemap()) {
                    key.text(&spec.url);
                    key.0
                        .update(self.lastmod(&spec.recipe).unwrap_or(i64::MIN).to_le_bytes());
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

    /// When what the page of `recipe` shows last changed, in Unix ms, as
    /// its documents' dates tell (search engines read it to recrawl): a
    /// document's update, else its publication (a page has none); a list's
    /// newest item. Lists of tags, redirects and the site's own files have
    /// no date of their own.
    fn lastmod(&self, recipe: &Recipe) -> Option<i64> {
        let records = &self.model.records;
        let changed = |i: usize| {
            let record = &records[i];
            match record.kind {
                Kind::Post => Some(record.updated_at.unwrap_or(0).max(record.published_at)),
                Kind::Page => record.updated_at,
            }
        };
        match recipe {
            Recipe::Document(Document(i)) => changed(*i),
            Recipe::Home(Home { list, .. })
            | Recipe::Term(Term { list, .. })
            | Recipe::Section(Section { list, .. }) => {
                list.items.iter().filter_map(|&i| changed(i)).max()
            }
            Recipe::TaxonomyIndex(_)
            | Recipe::Archive(_)
            | Recipe::Feed(_)
            | Recipe::Sitemap(_)
            | Recipe::SiteFile(_)
            | Recipe::Redirect(_)
            | Recipe::Extra(_) => None,
        }
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
                    lastmod: self.lastmod(&spec.recipe).map(format_ms),
                }
            })
            .collect();
        entries.par_sort_by(|a, b| a.loc.cmp(&b.loc));
        entries
    }
}
