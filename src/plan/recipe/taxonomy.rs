//! A language's taxonomies (`tags`, `categories`, `series`…): each one's
//! index of its terms, and each term's page of documents (its posts, then
//! its pages), a page of them at a time, with feeds of its posts when
//! `feeds_for` names the taxonomy.

use super::*;

/// The index of a taxonomy's terms in a language.
#[derive(Debug, Clone)]
pub(in crate::plan) struct TaxonomyIndex {
    /// Its place among the model's taxonomies.
    pub(in crate::plan) taxonomy: usize,
    pub(in crate::plan) lang: String,
}

/// One page of a term's documents.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Term {
    pub(in crate::plan) taxonomy: usize,
    pub(in crate::plan) lang: String,
    pub(in crate::plan) slug: String,
    pub(in crate::plan) list: ListPage,
}

impl TaxonomyIndex {
    pub(super) fn inputs<'s>(&'s self, model: &'s Model) -> Inputs<'s> {
        let name = &model.taxonomies[self.taxonomy].name;
        Inputs {
            parts: vec![
                Input::Text(&self.lang),
                Input::Text(name),
                Input::TermIndex(self.taxonomy, &self.lang),
            ],
            config_keys: &["taxonomies"],
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let taxonomy = &plan.model.taxonomies[self.taxonomy];
        let lang = self.lang.as_str();
        context.taxonomy = Some(taxonomy_link(
            plan.config,
            plan.views.i18n.strings(lang),
            lang,
            &taxonomy.name,
        ));
        context.terms = Some(
            taxonomy
                .by_lang
                .get(lang)
                .into_iter()
                .flatten()
                .map(|(slug, (name, posts))| TagCount {
                    name: name.clone(),
                    url: taxonomy.page(lang, slug),
                    count: posts.len(),
                })
                .collect(),
        );
    }
}

/// The site.toml keys a term's page reads.
const TERM: &[&str] = &[
    "paginate",
    "permalink",
    "timezone",
    "taxonomies",
    "feeds_for",
];

impl Term {
    pub(super) fn inputs<'s>(&'s self, model: &'s Model) -> Inputs<'s> {
        let taxonomy = &model.taxonomies[self.taxonomy];
        let (name, tagged) = taxonomy.term(&self.lang, &self.slug);
        let mut parts = vec![
            Input::Text(&self.lang),
            Input::Text(&taxonomy.name),
            Input::Text(&self.slug),
            Input::Text(name),
            Input::Number(tagged.len()),
        ];
        parts.extend(self.list.inputs());
        Inputs {
            parts,
            config_keys: TERM,
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let config = plan.config;
        let taxonomy = &plan.model.taxonomies[self.taxonomy];
        let (lang, slug) = (self.lang.as_str(), self.slug.as_str());
        let (name, tagged) = taxonomy.term(lang, slug);
        context.taxonomy = Some(taxonomy_link(
            plan.config,
            plan.views.i18n.strings(lang),
            lang,
            &taxonomy.name,
        ));
        context.term = Some(TagCount {
            name: name.clone(),
            url: taxonomy.page(lang, slug),
            count: tagged.len(),
        });
        if config.feeds.for_terms_of(&taxonomy.name) {
            let words = plan.views.i18n.strings(lang);
            context.list_feeds = feed_links(config, words, &taxonomy.page(lang, slug));
        }
        self.list.fill(plan, context, |p| {
            term_url(config, lang, &taxonomy.name, slug, p)
        });
    }
}

/// The templates of a taxonomy's pages: its own folder's
/// (`series/taxonomy.html`, `series/term.html`) where the theme has them,
/// else the ones every taxonomy shares; a term's page falls back on the
/// list of posts.
fn templates(theme: &Theme, name: &str) -> (Template, Template) {
    let pick = |names: &[String]| -> Template {
        names
            .iter()
            .find(|n| theme.has(n))
            .unwrap_or(&names[names.len() - 1])
            .clone()
            .into()
    };
    (
        pick(&[format!("{name}/taxonomy.html"), "taxonomy.html".into()]),
        pick(&[
            format!("{name}/term.html"),
            "term.html".into(),
            "list.html".into(),
        ]),
    )
}

/// The index of each taxonomy of `lang` and the pages of each of its
/// terms, with their feeds.
pub(in crate::plan) fn taxonomy_recipes(
    (config, theme): (&Config, &Theme),
    model: &Model,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    for (t, taxonomy) in model.taxonomies.iter().enumerate() {
        let (index_template, term_template) = templates(theme, &taxonomy.name);
        recipes.push((
            taxonomy_url(config, lang, &taxonomy.name),
            index_template,
            Recipe::TaxonomyIndex(TaxonomyIndex {
                taxonomy: t,
                lang: lang.to_owned(),
            }),
        ));
        for (slug, (_, tagged)) in taxonomy.by_lang.get(lang).into_iter().flatten() {
            if config.feeds.for_terms_of(&taxonomy.name) {
                // A feed follows what is published: the posts, which come
                // before the undated pages.
                let posts = tagged.partition_point(|&i| model.records[i].kind == Kind::Post);
                let of = FeedOf::Term(t, slug.clone());
                feed_recipes(
                    config,
                    lang,
                    of,
                    &taxonomy.page(lang, slug),
                    &tagged[..posts],
                    recipes,
                );
            }
            let chunks: Vec<&[usize]> = tagged.chunks(config.paginate).collect();
            for (n, chunk) in chunks.iter().enumerate() {
                recipes.push((
                    term_url(config, lang, &taxonomy.name, slug, n + 1),
                    term_template.clone(),
                    Recipe::Term(Term {
                        taxonomy: t,
                        lang: lang.to_owned(),
                        slug: slug.clone(),
                        list: ListPage {
                            page: n + 1,
                            total: chunks.len(),
                            items: chunk.to_vec(),
                        },
                    }),
                ));
            }
        }
    }
}
