//! A file an output plugin makes for one language, from its published
//! documents (a search index, say); no template renders it.

use super::*;

/// An output plugin's file for one language: the plugin by its place among
/// the build's output plugins, and by its name and version.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Extra {
    pub(in crate::plan) plugin: usize,
    pub(in crate::plan) stamp: String,
    pub(in crate::plan) lang: String,
    pub(in crate::plan) items: Vec<usize>,
}

impl Extra {
    pub(super) fn inputs(&self) -> Inputs<'_> {
        Inputs {
            parts: vec![
                Input::Text(&self.lang),
                Input::Text(&self.stamp),
                Input::Documents(&self.items),
            ],
            config_keys: &["permalink"],
        }
    }
}

impl Plan<'_> {
    /// When an output plugin makes the page of `spec`: the plugin, by its
    /// place among the build's output plugins, and what it is given.
    pub fn extra_documents<'s>(&'s self, spec: &'s Spec) -> Option<(usize, LanguageDocuments<'s>)> {
        let Recipe::Extra(Extra {
            plugin,
            lang,
            items,
            ..
        }) = &spec.recipe
        else {
            return None;
        };
        let home = home_url(self.config, lang, 1);
        let documents = items
            .iter()
            .map(|&i| {
                let record = &self.model.records[i];
                DocumentSummary {
                    kind: record.kind.as_str(),
                    title: &record.title,
                    url: &record.url,
                    published_at: record.published_at,
                    summary: &record.summary,
                    description: record.description.as_deref(),
                    tags: &record.tags,
                }
            })
            .collect();
        let root = self.config.site_path(&home).unwrap_or("/")[1..].to_owned();
        Some((
            *plugin,
            LanguageDocuments {
                lang,
                root,
                documents,
            },
        ))
    }
}

/// The files the output plugins make for `lang`.
pub(in crate::plan) fn extra_recipes(
    config: &Config,
    model: &Model,
    (lang, plugins): (&str, &Plugins),
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    if plugins.outputs.is_empty() {
        return;
    }
    let home = home_url(config, lang, 1);
    let in_output = config.site_path(&home).unwrap_or("/");
    let root = &in_output[1..];
    let posts = model.posts_by_lang.get(lang).into_iter().flatten().copied();
    let pages = model.visible.iter().copied().filter(|&i| {
        let record = &model.records[i];
        record.kind == Kind::Page && record.lang == lang
    });
    let items: Vec<usize> = posts.chain(pages).collect();
    for (at, plugin) in plugins.outputs.iter().enumerate() {
        recipes.push((
            format!("{}/{}", config.base_path, plugin.path(lang, root)),
            "".into(),
            Recipe::Extra(Extra {
                plugin: at,
                stamp: stamp(plugin.as_ref()),
                lang: lang.to_owned(),
                items: items.clone(),
            }),
        ));
    }
}
