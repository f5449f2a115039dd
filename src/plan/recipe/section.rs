//! A section's list: its documents in its order, a page of them at a time,
//! at its folder's URL, in each language that has it; its `_index.md`'s
//! title, description and text above them; and its feeds, when it has
//! them.

use super::*;
use crate::source::section::SortBy;

/// One page of a section's list.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Section {
    /// The list, by place in the model's sections.
    pub(in crate::plan) at: usize,
    pub(in crate::plan) list: ListPage,
}

/// The site.toml keys a section's page reads, beyond a list's.
const SECTIONS: &[&str] = &[
    "paginate",
    "permalink",
    "timezone",
    "post_sections",
    "feeds",
    "feeds_for",
];

impl Section {
    pub(super) fn inputs<'s>(&'s self, model: &'s Model) -> Inputs<'s> {
        let sections = &model.sections;
        let list = &sections.lists[self.at];
        let mut parts = vec![Input::Text(&list.lang), Input::Text(&list.folder)];
        match list.file {
            Some(file) => {
                parts.push(Input::SectionFile(file));
                let links = &sections.files[file].links;
                parts.extend(model.link_targets(&list.lang, links).map(Input::Document));
            }
            None => parts.push(Input::Text("")),
        }
        if self.list.page == 1 {
            // Its first page's alternates: the languages that have it.
            let versions = sections.versions(&list.folder);
            parts.extend(versions.map(|v| Input::Text(&sections.lists[v].lang)));
        }
        for &sub in &list.subsections {
            parts.extend(section_title_inputs(model, sub));
            parts.push(Input::Number(sections.lists[sub].items.len()));
        }
        parts.extend(self.list.inputs());
        Inputs {
            parts,
            config_keys: SECTIONS,
        }
    }

    pub(super) fn fill(&self, plan: &Plan<'_>, context: &mut Context<'_>) {
        let (config, model) = (plan.config, &plan.model);
        let sections = &model.sections;
        let list = &sections.lists[self.at];
        let file = sections.file_of(self.at);
        context.section = Some(SectionView {
            title: sections.title(self.at),
            description: file.and_then(|f| f.description.clone()),
            content: minijinja::Value::from_safe_string(file.map_or_else(String::new, |f| {
                model.with_links_in(&list.lang, &f.content).into_owned()
            })),
            url: list.url.clone(),
            path: list.folder.clone(),
            kind: if list.posts { "posts" } else { "pages" },
            sort_by: file.map_or(SortBy::Date, |f| f.sort_by).name(),
            extra: file.map_or_else(|| serde_json::json!({}), |f| f.extra.clone()),
            subsections: list
                .subsections
                .iter()
                .map(|&sub| SectionLink {
                    title: sections.title(sub),
                    url: sections.lists[sub].url.clone(),
                    count: sections.lists[sub].items.len(),
                })
                .collect(),
        });
        if sections.has_feeds(config, self.at) {
            let words = plan.views.i18n.strings(&list.lang);
            context.list_feeds = feed_links(config, words, &list.url);
        }
        self.list.fill(plan, context, |p| {
            section_url(config, &list.lang, &list.folder, p)
        });
    }
}

/// What a section's title is made from, for a page that shows its title
/// alone: its folder and its `_index.md`'s `title`.
pub(in crate::plan) fn section_title_inputs(model: &Model, at: usize) -> [Input<'_>; 2] {
    [
        Input::Text(&model.sections.lists[at].folder),
        model.sections.lists[at]
            .file
            .map_or(Input::Text(""), Input::SectionTitle),
    ]
}

/// The pages and feeds of every section, language by language; the
/// problems of the templates `_index.md` files name that the theme lacks.
pub(in crate::plan) fn section_recipes(
    config: &Config,
    model: &Model,
    theme: &Theme,
    recipes: &mut Vec<(String, Template, Recipe)>,
) -> Vec<Problem> {
    let sections = &model.sections;
    let mut problems = Vec::new();
    for (at, list) in sections.lists.iter().enumerate() {
        let file = sections.file_of(at);
        let template: Template = match file.and_then(|f| Some((f, f.template.as_ref()?))) {
            None => "section.html".into(),
            Some((_, (name, _))) if theme.has(name) => name.clone().into(),
            Some((file, (name, line))) => {
                problems.push(missing_template(&file.path, *line, name, theme));
                continue;
            }
        };
        if sections.has_feeds(config, at) {
            let of = FeedOf::Section(at);
            feed_recipes(config, &list.lang, of, &list.url, &list.items, recipes);
        }
        let per_page = file.and_then(|f| f.paginate).unwrap_or(config.paginate);
        let per_page = if per_page == 0 {
            list.items.len().max(1)
        } else {
            per_page
        };
        let chunks: Vec<&[usize]> = if list.items.is_empty() {
            vec![&[]]
        } else {
            list.items.chunks(per_page).collect()
        };
        for (n, chunk) in chunks.iter().enumerate() {
            recipes.push((
                section_url(config, &list.lang, &list.folder, n + 1),
                template.clone(),
                Recipe::Section(Section {
                    at,
                    list: ListPage {
                        page: n + 1,
                        total: chunks.len(),
                        items: chunk.to_vec(),
                    },
                }),
            ));
        }
    }
    problems
}
