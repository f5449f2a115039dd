//! A language's tags: the index of them all, and each tag's page of posts,
//! a page of them at a time.

use super::*;

/// The index of a language's tags.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Tags {
    pub(in crate::plan) lang: String,
}

/// One page of a tag's posts.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Tag {
    pub(in crate::plan) lang: String,
    pub(in crate::plan) slug: String,
    pub(in crate::plan) list: ListPage,
}

impl Tags {
    pub(super) fn inputs(&self) -> Inputs<'_> {
        Inputs {
            parts: vec![Input::Text(&self.lang), Input::TagIndex(&self.lang)],
            config_keys: &[],
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let model = &plan.model;
        let lang = self.lang.as_str();
        context.tags = Some(
            model
                .tags_by_lang
                .get(lang)
                .into_iter()
                .flatten()
                .map(|(slug, (name, posts))| TagCount {
                    name: name.clone(),
                    url: model.tag_page(lang, slug),
                    count: posts.len(),
                })
                .collect(),
        );
    }
}

impl Tag {
    pub(super) fn inputs<'s>(&'s self, model: &'s Model) -> Inputs<'s> {
        let (name, tagged) = &model.tags_by_lang[self.lang.as_str()][&self.slug];
        let mut parts = vec![
            Input::Text(&self.lang),
            Input::Text(&self.slug),
            Input::Text(name),
            Input::Number(tagged.len()),
        ];
        parts.extend(self.list.inputs());
        Inputs {
            parts,
            config_keys: LISTS,
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let (config, model) = (plan.config, &plan.model);
        let (lang, slug) = (self.lang.as_str(), self.slug.as_str());
        let (name, tagged) = &model.tags_by_lang[lang][slug];
        context.tag = Some(TagCount {
            name: name.clone(),
            url: model.tag_page(lang, slug),
            count: tagged.len(),
        });
        if config.feeds.tags {
            let words = plan.views.i18n.strings(lang);
            context.list_feeds = feed_links(config, words, &model.tag_page(lang, slug));
        }
        self.list
            .fill(plan, context, |p| tag_url(config, lang, slug, p));
    }
}

/// The tag index of `lang` and the pages of each of its tags.
pub(in crate::plan) fn tag_recipes(
    config: &Config,
    model: &Model,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    recipes.push((
        tags_url(config, lang),
        "tags.html".into(),
        Recipe::Tags(Tags {
            lang: lang.to_owned(),
        }),
    ));
    for (slug, (_, tagged)) in model.tags_by_lang.get(lang).into_iter().flatten() {
        if config.feeds.tags {
            let of = FeedOf::Tag(slug.clone());
            feed_recipes(
                config,
                lang,
                of,
                &model.tag_page(lang, slug),
                tagged,
                recipes,
            );
        }
        let chunks: Vec<&[usize]> = tagged.chunks(config.paginate).collect();
        for (n, chunk) in chunks.iter().enumerate() {
            recipes.push((
                tag_url(config, lang, slug, n + 1),
                "list.html".into(),
                Recipe::Tag(Tag {
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
