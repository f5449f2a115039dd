//! A language's home: its posts, newest first, a page of them at a time.

use super::*;

/// One page of a language's home.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Home {
    pub(in crate::plan) lang: String,
    pub(in crate::plan) list: ListPage,
}

impl Home {
    pub(super) fn inputs(&self) -> Inputs<'_> {
        let mut parts = vec![Input::Text(&self.lang)];
        parts.extend(self.list.inputs());
        Inputs {
            parts,
            config_keys: LISTS,
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let config = plan.config;
        self.list
            .fill(plan, context, |p| home_url(config, &self.lang, p));
    }
}

/// The pages of the home of `lang` (one, empty, when it has no post).
pub(in crate::plan) fn home_recipes(
    config: &Config,
    model: &Model,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    let posts = model.posts_by_lang.get(lang).map_or(&[][..], Vec::as_slice);
    let chunks: Vec<&[usize]> = if posts.is_empty() {
        vec![&[]]
    } else {
        posts.chunks(config.paginate).collect()
    };
    for (n, chunk) in chunks.iter().enumerate() {
        recipes.push((
            home_url(config, lang, n + 1),
            "list.html".into(),
            Recipe::Home(Home {
                lang: lang.to_owned(),
                list: ListPage {
                    page: n + 1,
                    total: chunks.len(),
                    items: chunk.to_vec(),
                },
            }),
        ));
    }
}
