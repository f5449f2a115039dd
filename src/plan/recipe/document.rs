//! A document's own page: a post or a page, in the template its front
//! matter asks for.

use super::*;

/// The page of the document at this index into the records.
#[derive(Debug, Clone)]
pub(in crate::plan) struct Document(pub(in crate::plan) usize);

impl Document {
    pub(super) fn inputs<'s>(&self, model: &'s Model) -> Inputs<'s> {
        let i = self.0;
        let record = &model.records[i];
        let (newer, older) = model.neighbours(i);
        Inputs {
            parts: vec![
                Input::Text(&record.lang),
                Input::Document(i),
                Input::Versions(model.translations_of(i)),
                Input::Neighbour(newer),
                Input::Neighbour(older),
            ],
            config_keys: match record.kind {
                Kind::Post => &["permalink", "timezone", "highlight", "math", "markdown"],
                Kind::Page => &["highlight", "math", "markdown"],
            },
        }
    }

    /// The post or the page; its body is read from its source when it is
    /// rendered.
    pub(super) fn fill<'s>(&self, plan: &'s Plan<'_>, context: &mut Context<'s>) {
        let (config, model, i18n) = (plan.config, &plan.model, plan.views.i18n);
        let i = self.0;
        let record = &model.records[i];
        let lang = record.lang.as_str();
        let extra = extra_of(record);
        let image = extra
            .get("image")
            .and_then(|image| image.as_str())
            .map(|image| absolute_url(config, &record.url, image));
        let toc = toc(record.heading_list());
        if record.kind == Kind::Page {
            context.page = Some(PageView {
                title: record.title.clone(),
                description: record.description.clone(),
                image,
                extra,
                url: record.url.clone(),
                tags: model.tag_links(i),
                taxonomies: model.term_links(i),
                toc,
                word_count: record.word_count,
                reading_time: record.reading_time,
                source_hash: record.source.hash.clone(),
                content: None,
            });
            return;
        }
        let (newer, older) = model.neighbours(i);
        let date = DisplayDate::new(config, i18n.strings(lang), record.published_at);
        let updated = record
            .updated_at
            .map(|ms| DisplayDate::new(config, i18n.strings(lang), ms));
        context.post = Some(PostView {
            id: record.id.to_string(),
            title: record.title.clone(),
            slug: record.slug.clone(),
            date: date.ymd,
            date_display: date.display,
            date_iso: date.iso,
            updated: updated.as_ref().map(|d| d.ymd.clone()),
            updated_display: updated.as_ref().map(|d| d.display.clone()),
            updated_iso: updated.map(|d| d.iso),
            tags: model.tag_links(i),
            taxonomies: model.term_links(i),
            related: Vec::new(),
            description: record.description.clone(),
            image,
            summary: model.as_shown(i, &record.summary).into_owned(),
            url: record.url.clone(),
            toc,
            word_count: record.word_count,
            reading_time: record.reading_time,
            newer: model.link(newer),
            older: model.link(older),
            extra,
            source_hash: record.source.hash.clone(),
            content: None,
        });
    }
}

/// A document's headings as its table of contents: each heading holds
/// those after it of a deeper level, until one of its level or above.
fn toc(headings: Vec<Heading>) -> Vec<TocEntry> {
    // The open entries, outermost first; each is added to its parent when
    // a heading of its level or above (or the end) closes it.
    let mut open: Vec<TocEntry> = Vec::new();
    let mut top = Vec::new();
    let close = |open: &mut Vec<TocEntry>, top: &mut Vec<TocEntry>| {
        let Some(done) = open.pop() else {
            return;
        };
        match open.last_mut() {
            Some(parent) => parent.children.push(done),
            None => top.push(done),
        }
    };
    for heading in headings {
        while open.last().is_some_and(|last| last.level >= heading.level) {
            close(&mut open, &mut top);
        }
        open.push(TocEntry {
            level: heading.level,
            url: format!("#{}", heading.id),
            id: heading.id,
            title: heading.title,
            children: Vec::new(),
        });
    }
    while !open.is_empty() {
        close(&mut open, &mut top);
    }
    top
}

/// `link` (a front matter's `image`) as an absolute URL: as it is when it
/// names its scheme, from the site's root when it starts with `/`, else
/// beside the page at `page_url`, where a bundle's files go.
fn absolute_url(config: &Config, page_url: &str, link: &str) -> String {
    let has_scheme = link.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    });
    if has_scheme {
        link.to_owned()
    } else if let Some(host_relative) = link.strip_prefix("//") {
        format!(
            "{}//{host_relative}",
            config.origin.split("//").next().unwrap_or("https:")
        )
    } else if link.starts_with('/') {
        format!("{}{}{link}", config.origin, config.base_path)
    } else {
        format!("{}{page_url}{link}", config.origin)
    }
}

/// The page of every visible document, with the template it asks for, and
/// a redirect page at each of its old URLs; the problems of the templates
/// asked for that the theme does not have.
pub(in crate::plan) fn document_recipes(
    model: &Model,
    theme: &Theme,
    recipes: &mut Vec<(String, Template, Recipe)>,
) -> Vec<Problem> {
    // The documents are most of the pages: room for them and the site's
    // own files in one step, rather than by doubling a vector of 15,000.
    recipes.reserve_exact(model.visible.len() + SITE_FILES.len() + 1);
    let mut problems = Vec::new();
    for &i in &model.visible {
        let record = &model.records[i];
        match document_recipe(model, theme, i) {
            Some(recipe) => recipes.push(recipe),
            None => problems.push(missing_template(
                &record.source.path,
                None,
                record_template(record),
                theme,
            )),
        }
        Redirect::recipes_of(record, i, recipes);
    }
    problems
}

/// The page of document `i`, with the template it asks for; `None` when
/// the theme does not have it.
pub(in crate::plan) fn document_recipe(
    model: &Model,
    theme: &Theme,
    i: usize,
) -> Option<(String, Template, Recipe)> {
    let record = &model.records[i];
    let template = document_template(record, theme)?;
    Some((record.url.clone(), template, Recipe::Document(Document(i))))
}

/// The template of a document's page: the one its front matter asks for,
/// else its kind's. `None` when it names one the theme does not have.
fn document_template(record: &Record, theme: &Theme) -> Option<Template> {
    let default = match record.kind {
        Kind::Post => "post.html",
        Kind::Page => "page.html",
    };
    match &record.template {
        None => Some(default.into()),
        Some(TemplateChoice::Named(name)) => theme.has(name).then(|| name.clone().into()),
        // Another generator's layout is used only when the site has a
        // template of that name: folio's own are made for their kind.
        Some(TemplateChoice::Layout(name))
            if name != default && theme.site_file(name).is_some() =>
        {
            Some(name.clone().into())
        }
        Some(TemplateChoice::Layout(_)) => Some(default.into()),
    }
}

/// The template a document's front matter names.
fn record_template(record: &Record) -> &str {
    match &record.template {
        Some(TemplateChoice::Named(name) | TemplateChoice::Layout(name)) => name.as_str(),
        None => "",
    }
}

/// The problem of the source at `path` (a document, a section's
/// `_index.md`) whose `template` (at `line`, where known) names `name`,
/// which the theme does not have; with the nearest name it has.
pub(in crate::plan) fn missing_template(
    path: &str,
    line: Option<usize>,
    name: &str,
    theme: &Theme,
) -> Problem {
    let names = theme.names();
    let near = names
        .iter()
        .min_by_key(|known| strsim::levenshtein(known, name));
    let help = match near {
        Some(near) => format!("did you mean `{near}`? Or add templates/{name}"),
        None => format!("add templates/{name}"),
    };
    let message = match theme.theme_dir() {
        Some(dir) => format!(
            "names `{name}`, which neither templates/, {dir}/templates/ nor folio's theme has"
        ),
        None => format!("names `{name}`, which neither templates/ nor folio's theme has"),
    };
    let field = "template".to_owned();
    Problem::new(
        path,
        line,
        ProblemKind::Field {
            field,
            message,
            help,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contents_nest_each_heading_under_the_last_one_above_it() {
        let heading = |level, id: &str| Heading {
            level,
            id: id.into(),
            title: id.to_uppercase(),
        };
        let toc = toc(vec![
            heading(2, "a"),
            heading(3, "a1"),
            heading(4, "a1x"),
            heading(3, "a2"),
            heading(2, "b"),
            heading(1, "c"),
            heading(3, "c1"),
        ]);
        let shape = |entries: &[TocEntry]| -> String {
            fn walk(entries: &[TocEntry], out: &mut String) {
                for entry in entries {
                    out.push_str(&entry.id);
                    if !entry.children.is_empty() {
                        out.push('(');
                        walk(&entry.children, out);
                        out.push(')');
                    }
                    out.push(' ');
                }
            }
            let mut out = String::new();
            walk(entries, &mut out);
            out
        };
        assert_eq!(shape(&toc), "a(a1(a1x ) a2 ) b c(c1 ) ");
        assert_eq!(toc[0].url, "#a");
        assert_eq!(toc[0].title, "A");
    }

    #[test]
    fn an_image_is_made_absolute_from_where_it_is_written() {
        let config = Config::parse(
            "title = \"T\"\nbase_url = \"https://example.org/blog\"\ndefault_language = \"en\"\n[languages.en]\nname = \"English\"\n",
            std::path::Path::new("site.toml"),
        )
        .unwrap();
        let page = "/blog/posts/trip/";
        for (written, absolute) in [
            ("https://cdn.example/x.jpg", "https://cdn.example/x.jpg"),
            ("//cdn.example/x.jpg", "https://cdn.example/x.jpg"),
            ("/images/x.jpg", "https://example.org/blog/images/x.jpg"),
            ("cover.jpg", "https://example.org/blog/posts/trip/cover.jpg"),
            (
                "img/a b.jpg",
                "https://example.org/blog/posts/trip/img/a b.jpg",
            ),
        ] {
            assert_eq!(absolute_url(&config, page, written), absolute, "{written}");
        }
    }
}
