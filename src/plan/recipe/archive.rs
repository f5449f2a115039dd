//! A language's archive: every post, by year, newest first, on one page.
//! It shows each post's title, URL and date alone, and its fingerprint
//! covers those alone ([`Input::Listed`]): an edit to a post's body leaves
//! it as it is, where a page listing whole posts is rendered again.

use super::*;
use crate::render::{ArchiveEntry, ArchiveYear};

/// The archive of one language.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Archive {
    pub(in crate::plan) lang: String,
}

impl Archive {
    pub(super) fn inputs<'s>(&'s self, model: &'s Model) -> Inputs<'s> {
        Inputs {
            parts: vec![
                Input::Text(&self.lang),
                Input::Listed(model.posts_of(&self.lang)),
            ],
            config_keys: &["permalink", "timezone"],
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let (config, model) = (plan.config, &plan.model);
        let words = plan.views.i18n.strings(&self.lang);
        let mut years: Vec<ArchiveYear> = Vec::new();
        for &i in model.posts_of(&self.lang) {
            let record = &model.records[i];
            let date = DisplayDate::new(config, words, record.published_at);
            let year = date.year().to_owned();
            let entry = ArchiveEntry {
                title: record.title.clone(),
                url: record.url.clone(),
                date_display: date.display,
                date_iso: date.iso,
                date: date.ymd,
            };
            // Newest first: a year's posts come together.
            match years.last_mut() {
                Some(last) if last.year == year => last.posts.push(entry),
                _ => years.push(ArchiveYear {
                    year,
                    posts: vec![entry],
                }),
            }
        }
        context.archive = Some(years);
    }
}

/// The archive of `lang`: one page, empty when it has no post.
pub(in crate::plan) fn archive_recipe(
    config: &Config,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    recipes.push((
        archive_url(config, lang),
        "archive.html".into(),
        Recipe::Archive(Archive {
            lang: lang.to_owned(),
        }),
    ));
}
