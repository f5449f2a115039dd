//! A page at an old URL of a document (`aliases`, `redirect_from`),
//! redirecting to its page.

use super::*;

/// The template of the pages at old URLs.
const REDIRECT_TEMPLATE: &str = "redirect.html";

/// The redirect of the document at this index into the records.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Redirect(pub(in crate::plan) usize);

impl Redirect {
    pub(super) fn inputs<'s>(&self, model: &'s Model) -> Inputs<'s> {
        let record = &model.records[self.0];
        Inputs {
            parts: vec![Input::Text(&record.url), Input::Title(self.0)],
            config_keys: &["base_url"],
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let record = &plan.model.records[self.0];
        context.redirect = Some(RedirectView {
            url: format!("{}{}", plan.config.origin, record.url),
            path: record.url.clone(),
            title: record.title.clone(),
        });
    }

    /// A redirect at each old URL of `record`, the `i`th document.
    pub(in crate::plan) fn recipes_of(
        record: &Record,
        i: usize,
        recipes: &mut Vec<(String, Template, Recipe)>,
    ) {
        // A post redated back to an earlier URL keeps that URL among its
        // aliases: its own page is there, and nothing needs redirecting.
        for alias in record.aliases.iter().filter(|alias| **alias != record.url) {
            recipes.push((
                alias.clone(),
                REDIRECT_TEMPLATE.into(),
                Recipe::Redirect(Redirect(i)),
            ));
        }
    }
}

/// Leaves out the redirect pages whose place a page, a static file or an
/// earlier redirect takes (a real page is never replaced by a redirect),
/// and says which.
pub(in crate::plan) fn drop_aliases_in_the_way(
    model: &Model,
    copies: &[Copy],
    specs: &mut Vec<Spec>,
) -> Vec<String> {
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
        if let Recipe::Redirect(Redirect(i)) = spec.recipe {
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
