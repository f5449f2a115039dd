//! Every output of the site as a recipe with its fingerprint: the plan of
//! a build, and `replan`, which brings a kept plan up to date.

use super::*;

/// The static files to copy, for a build that started at `started_ns`.
pub fn copies(statics: &[StaticFile], started_ns: i64) -> Vec<Copy> {
    statics
        .iter()
        .filter_map(|file| {
            let stat = file.stat.settled(started_ns);
            Some(Copy {
                output: OutputPath::new(&file.rel)?,
                source: file.source_path(),
                fingerprint: format!("static {} {}", stat.size, stat.mtime_ns),
            })
        })
        .collect()
}

/// Whether a document keeps its place in the site: what decides which
/// pages there are, in which order each list shows its documents, and how
/// they link (its source, id, kind, slug, language, date, URL, tags, draft
/// flag and translation key). What else it holds (title, summary, body)
/// is in the fingerprints of the pages that show it.
pub fn same_place(old: &Record, new: &Record) -> bool {
    old.same_claims(new)
        && old.published_at == new.published_at
        && old.url == new.url
        && old.tags == new.tags
        && old.draft == new.draft
        && old.translation_key == new.translation_key
        && old.aliases == new.aliases
        && old.template == new.template
}

/// Lists every output of the site with its fingerprint, and the static
/// files to copy. `records` are all current documents; `started_ns` is the
/// build's start, for the racy rule on static files' stats.
pub fn plan<'a>(
    config: &'a Config,
    views: &'a Views<'a>,
    theme: &Theme,
    records: Vec<Record>,
    (statics, plugins): (&[StaticFile], &Plugins),
    visibility: Visibility,
    started_ns: i64,
) -> Result<Plan<'a>, Error> {
    let model = Model::new(config, records, visibility);
    let copies = copies(statics, started_ns);

    let mut recipes: Vec<(String, Template, Recipe)> = Vec::new();
    for (code, _) in config.ordered_languages() {
        language_recipes(config, &model, code, &mut recipes);
        extra_recipes(config, &model, (code, plugins), &mut recipes);
    }
    let mut problems = document_recipes(&model, theme, &mut recipes);
    documents_take_generated_places(&mut recipes);
    let base = &config.base_path;
    recipes.push((
        format!("{base}/sitemap.xml"),
        "sitemap.xml".into(),
        Recipe::Sitemap,
    ));
    for (url, template) in SITE_FILES {
        // The site's own static file at that place wins over the theme's.
        if !copies
            .iter()
            .any(|copy| format!("/{}", copy.output) == *url)
        {
            recipes.push((format!("{base}{url}"), (*template).into(), Recipe::SiteFile));
        }
    }

    let (mut specs, misplaced) = specs_of(config, &model, recipes);
    problems.extend(misplaced);
    let warnings = drop_aliases_in_the_way(&model, &copies, &mut specs);
    // Static files claim their outputs first, then the pages in plan order.
    let outputs: Vec<&str> = copies
        .iter()
        .map(|c| c.output.as_str())
        .chain(specs.iter().map(|s| s.output.as_str()))
        .collect();
    let made_by = |at: usize| match at.checked_sub(copies.len()) {
        None => PathBuf::from(&copies[at].source),
        Some(i) => PathBuf::from(model.made_by(&specs[i].recipe, &specs[i].template)),
    };
    problems.extend(output_collisions(&outputs, made_by));
    drop(outputs);
    if !problems.is_empty() {
        problems.sort_by(|a, b| a.path.cmp(&b.path));
        return Err(Error::Content(problems));
    }

    let mut plan = Plan {
        specs: Vec::new(),
        copies,
        config,
        views,
        model,
        sitemap_key: String::new(),
        dependents: None,
        warnings,
    };
    plan.sitemap_key = plan.sitemap_key(&specs);
    let prefixes = KeyPrefixes::new(
        theme,
        views,
        specs
            .iter()
            .map(|spec| (spec.template.as_ref(), plan.language_of(&spec.recipe))),
    );
    let fingerprints: Vec<String> = specs
        .par_iter()
        .map(|spec| plan.key(&prefixes, spec))
        .collect();
    drop(prefixes);
    for (spec, fingerprint) in specs.iter_mut().zip(fingerprints) {
        spec.fingerprint = fingerprint;
    }
    Ok(Plan { specs, ..plan })
}

/// Each recipe at its place in the output folder, or the problem of a URL
/// that would leave it.
pub(super) fn specs_of(
    config: &Config,
    model: &Model,
    recipes: Vec<(String, Template, Recipe)>,
) -> (Vec<Spec>, Vec<Problem>) {
    recipes
        .into_par_iter()
        .partition_map(|(url, template, recipe)| {
            match config.site_path(&url).and_then(OutputPath::for_url) {
                Some(output) => rayon::iter::Either::Left(Spec {
                    output,
                    template,
                    url,
                    fingerprint: String::new(),
                    recipe,
                }),
                None => rayon::iter::Either::Right(Problem::new(
                    model.made_by(&recipe, &template),
                    None,
                    ProblemKind::UrlOutsideOutput { url },
                )),
            }
        })
}

/// The last build's plan, brought up to date with `records` where only the
/// documents at `changed` differ, and only in what they hold: each keeps its
/// path, id, slug, URL, date, tags, draft flag and translation key, so the
/// site has the same pages, listed in the same order (the caller checks
/// that, and that the theme, the words, the config, the static files and
/// what is published are those of the last build). Only the fingerprints
/// of the pages that show a changed document are computed again. Returns
/// the plan and those pages, by their place in its specs.
pub fn replan<'a>(
    config: &'a Config,
    views: &'a Views<'a>,
    theme: &Theme,
    kept: KeptPlan,
    records: Vec<Record>,
    changed: &[usize],
) -> (Plan<'a>, Vec<usize>) {
    let KeptPlan {
        specs,
        copies,
        mut model,
        sitemap_key,
        dependents,
    } = kept;
    model.records = records;
    for &i in changed {
        model.digests[i] = document_digest(&model.records[i]);
        model.items[i] = OnceLock::new();
    }
    let mut plan = Plan {
        specs,
        copies,
        config,
        views,
        model,
        sitemap_key,
        dependents,
        // Said when the old URLs were planned; they did not change since.
        warnings: Vec::new(),
    };
    let dependents = plan.dependents.take().unwrap_or_else(|| plan.dependents());
    let mut affected: Vec<usize> = changed
        .iter()
        .flat_map(|&i| dependents[i].iter().map(|&s| s as usize))
        .collect();
    affected.sort_unstable();
    affected.dedup();
    let prefixes = KeyPrefixes::new(
        theme,
        views,
        affected.iter().map(|&s| {
            let spec = &plan.specs[s];
            (spec.template.as_ref(), plan.language_of(&spec.recipe))
        }),
    );
    let fingerprints: Vec<String> = affected
        .iter()
        .map(|&s| plan.key(&prefixes, &plan.specs[s]))
        .collect();
    drop(prefixes);
    for (&s, fingerprint) in affected.iter().zip(fingerprints) {
        plan.specs[s].fingerprint = fingerprint;
    }
    plan.dependents = Some(dependents);
    (plan, affected)
}

/// A document whose URL is that of a generated list (a language's home, its
/// tags page, a tag's page) takes its place, as a static file takes the
/// place of the theme's: a site moved in keeps its own home page at `/fr/`.
pub(super) fn documents_take_generated_places(recipes: &mut Vec<(String, Template, Recipe)>) {
    let generated: FxHashMap<&str, usize> = recipes
        .iter()
        .enumerate()
        .filter(|(_, (_, _, recipe))| {
            matches!(
                recipe,
                Recipe::Home { .. } | Recipe::Tags { .. } | Recipe::Tag { .. }
            )
        })
        .map(|(at, (url, _, _))| (url.as_str(), at))
        .collect();
    let mut taken: Vec<usize> = recipes
        .iter()
        .filter(|(_, _, recipe)| matches!(recipe, Recipe::Document(_)))
        .filter_map(|(url, _, _)| generated.get(url.as_str()).copied())
        .collect();
    drop(generated);
    taken.sort_unstable();
    taken.dedup();
    for at in taken.into_iter().rev() {
        recipes.remove(at);
    }
}

/// Leaves out the redirect pages whose place a page, a static file or an
/// earlier redirect takes (a real page is never replaced by a redirect),
/// and says which.
pub(super) fn drop_aliases_in_the_way(
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
        if let Recipe::Redirect(i) = spec.recipe {
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

/// The page of every visible document, with the template it asks for, and
/// a redirect page at each of its old URLs; the problems of the templates
/// asked for that the theme does not have.
pub(super) fn document_recipes(
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
        match document_template(record, theme) {
            Some(template) => recipes.push((record.url.clone(), template, Recipe::Document(i))),
            None => problems.push(missing_template(record, theme)),
        }
        // A post redated back to an earlier URL keeps that URL among its
        // aliases: its own page is there, and nothing needs redirecting.
        for alias in record.aliases.iter().filter(|alias| **alias != record.url) {
            recipes.push((alias.clone(), REDIRECT_TEMPLATE.into(), Recipe::Redirect(i)));
        }
    }
    problems
}

/// The template of a document's page: the one its front matter asks for,
/// else its kind's. `None` when it names one the theme does not have.
pub(super) fn document_template(record: &Record, theme: &Theme) -> Option<Template> {
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

/// The problem of a document whose `template` the theme does not have,
/// with the nearest name it has.
pub(super) fn missing_template(record: &Record, theme: &Theme) -> Problem {
    let name = match &record.template {
        Some(TemplateChoice::Named(name) | TemplateChoice::Layout(name)) => name.as_str(),
        None => "",
    };
    let names = theme.names();
    let near = names
        .iter()
        .min_by_key(|known| strsim::levenshtein(known, name));
    let help = match near {
        Some(near) => format!("did you mean `{near}`? Or add templates/{name}"),
        None => format!("add templates/{name}"),
    };
    let message = format!("names `{name}`, which neither templates/ nor folio's theme has");
    let field = "template".to_owned();
    Problem::new(
        &record.source.path,
        None,
        ProblemKind::Field {
            field,
            message,
            help,
        },
    )
}

/// The files the output plugins make for one language, as (url, template,
/// recipe): no template renders them.
pub(super) fn extra_recipes(
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
            Recipe::Extra {
                plugin: at,
                stamp: stamp(plugin.as_ref()),
                lang: lang.to_owned(),
                items: items.clone(),
            },
        ));
    }
}

/// The generated pages of one language, as (url, template, recipe).
pub(super) fn language_recipes(
    config: &Config,
    model: &Model,
    lang: &str,
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    let empty = Vec::new();
    let posts = model.posts_by_lang.get(lang).unwrap_or(&empty);
    let chunks: Vec<&[usize]> = if posts.is_empty() {
        vec![&[]]
    } else {
        posts.chunks(config.paginate).collect()
    };
    for (n, chunk) in chunks.iter().enumerate() {
        recipes.push((
            home_url(config, lang, n + 1),
            "list.html".into(),
            Recipe::Home {
                lang: lang.to_owned(),
                page: n + 1,
                total: chunks.len(),
                items: chunk.to_vec(),
            },
        ));
    }
    recipes.push((
        tags_url(config, lang),
        "tags.html".into(),
        Recipe::Tags {
            lang: lang.to_owned(),
        },
    ));
    for (slug, (_, tagged)) in model.tags_by_lang.get(lang).into_iter().flatten() {
        let chunks: Vec<&[usize]> = tagged.chunks(config.paginate).collect();
        for (n, chunk) in chunks.iter().enumerate() {
            recipes.push((
                tag_url(config, lang, slug, n + 1),
                "list.html".into(),
                Recipe::Tag {
                    lang: lang.to_owned(),
                    slug: slug.clone(),
                    page: n + 1,
                    total: chunks.len(),
                    items: chunk.to_vec(),
                },
            ));
        }
    }
    recipes.push((
        feed_url(config, lang),
        "atom.xml".into(),
        Recipe::Feed {
            lang: lang.to_owned(),
            items: posts[..posts.len().min(config.feed_limit)].to_vec(),
        },
    ));
}
