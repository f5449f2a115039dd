//! A language's Atom feed: its newest posts, up to `feed_limit`.

use super::*;

/// The feed of a language.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Feed {
    pub(in crate::plan) lang: String,
    pub(in crate::plan) items: Vec<usize>,
}

impl Feed {
    pub(super) fn inputs(&self) -> Inputs<'_> {
        Inputs {
            parts: vec![Input::Text(&self.lang), Input::Documents(&self.items)],
            config_keys: &["author", "feed_limit", "permalink", "timezone"],
        }
    }

    /// Its entries and its header.
    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let config = plan.config;
        let records = &plan.model.records;
        context.entries = Some(
            self.items
                .iter()
                .map(|&i| {
                    let r = &records[i];
                    FeedEntry {
                        id: format!("urn:uuid:{}", r.id.to_uuid()),
                        title: r.title.clone(),
                        url: format!("{}{}", config.origin, r.url),
                        published: format_ms(r.published_at),
                        updated: format_ms(r.updated_at.unwrap_or(r.published_at)),
                        summary: plan.model.with_links(i, &r.summary).into_owned(),
                        tags: r.tags.clone(),
                        authors: authors_of(r),
                    }
                })
                .collect(),
        );
        let updated = self
            .items
            .iter()
            .map(|&i| {
                records[i]
                    .updated_at
                    .unwrap_or(0)
                    .max(records[i].published_at)
            })
            .max()
            .unwrap_or(0);
        let lang = self.lang.as_str();
        context.feed = Some(FeedView {
            id: format!("{}{}", config.origin, feed_url(config, lang)),
            title: config.title_in(lang).to_owned(),
            home_url: format!("{}{}", config.origin, config.language_root(lang)),
            updated: format_ms(updated),
            author: config
                .author
                .clone()
                .unwrap_or_else(|| config.title.clone()),
        });
    }
}

/// The feed of `lang`.
pub(in crate::plan) fn feed_recipe(
    config: &Config,
    model: &Model,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    let posts = model.posts_by_lang.get(lang).map_or(&[][..], Vec::as_slice);
    recipes.push((
        feed_url(config, lang),
        "atom.xml".into(),
        Recipe::Feed(Feed {
            lang: lang.to_owned(),
            items: posts[..posts.len().min(config.feed_limit)].to_vec(),
        }),
    ));
}
