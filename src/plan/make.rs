//! Making a plan: every output of the site as a recipe with its
//! fingerprint, and `replan`, which brings a kept plan up to date. What
//! each kind of page is lives in `recipe/`.

use super::*;

/// The files to copy or compile, for a build that started at `started_ns`:
/// the static files, the stylesheets of `sass/`, then each bundle's files
/// beside the page of each of its documents that `visibility` publishes,
/// in its language's folder (a draft's stay out with it), then the
/// variants of the images those documents show.
pub fn copies(
    config: &Config,
    files: (&[StaticFile], &[Bundle], Sheets<'_>, &Shown),
    (records, visibility): (&[Record], Visibility),
    started_ns: i64,
) -> Vec<Copy> {
    copies_of(config, files, (records, visibility), started_ns).0
}

/// [`copies`], with what the plan also takes from making them: how many
/// of them come first from `static/` and `sass/` (those a site file of
/// folio's gives way to), the place in the records of each bundle's
/// documents, and the images the documents show.
type Copies = (Vec<Copy>, usize, Vec<Option<usize>>, Option<ShownImages>);

fn copies_of(
    config: &Config,
    (statics, bundles, sheets, shown): (&[StaticFile], &[Bundle], Sheets<'_>, &Shown),
    (records, visibility): (&[Record], Visibility),
    started_ns: i64,
) -> Copies {
    let mut all = static_copies(statics, started_ns);
    all.extend(sass_copies(sheets, started_ns));
    let statics = all.len();
    let documents = bundle_records(bundles, records);
    all.extend(bundle_copies(
        config,
        (bundles, &documents),
        (records, visibility),
        started_ns,
    ));
    let images = ShownImages::new(config, records, shown);
    if let Some(images) = &images {
        all.extend(images.copies(records, visibility));
    }
    minified_copies(config, &mut all);
    located_copies(config, &mut all);
    (all, statics, documents, images)
}

/// The site's copies, how many of them come first from `static/` and
/// `sass/`, and the model of `records` and `sections` (arranged as `kept`,
/// which fits them and agrees with those read again, or else derived):
/// where every plan made afresh starts (a kept plan brought up to date
/// keeps its own).
pub(super) fn copies_and_model(
    (config, theme): (&Config, &Theme),
    (records, sections): (Vec<Record>, Vec<SectionFile>),
    sources: Sources<'_>,
    (visibility, kept): (Visibility, Option<Arrangement>),
    started_ns: i64,
) -> Result<(Vec<Copy>, usize, Model), Error> {
    let files = (
        sources.statics,
        sources.bundles,
        sources.sheets,
        sources.shown,
    );
    let (copies, statics, documents, images) =
        copies_of(config, files, (&records, visibility), started_ns);
    let mut model = Model::new(
        config,
        (records, sections, images),
        (visibility, kept),
        &|name| theme.shortcode_hash(name).to_owned(),
    );
    model.bundled = documents.into_iter().flatten().collect();
    model.menus = model.menus(config).map_err(Error::Content)?;
    Ok((copies, statics, model))
}

/// Each copy's fingerprint marked when it is written minified.
fn minified_copies(config: &Config, copies: &mut [Copy]) {
    for copy in copies {
        minify::mark(&mut copy.fingerprint, copy.output.as_str(), config.minify);
    }
}

/// Each JPEG copied as it is marked, when `[images]` has it copied
/// without where it was taken.
fn located_copies(config: &Config, copies: &mut [Copy]) {
    if config.images.is_none() {
        return;
    }
    let copied_jpegs = copies
        .iter_mut()
        .filter(|copy| copy.making == Making::Verbatim && location::is_jpeg(copy.output.as_str()));
    for copy in copied_jpegs {
        copy.fingerprint.push_str(location::MARK);
    }
}

/// The place in `records` of each bundle's documents, bundle after bundle
/// in the order of their `documents`.
fn bundle_records(bundles: &[Bundle], records: &[Record]) -> Vec<Option<usize>> {
    if bundles.is_empty() {
        return Vec::new();
    }
    let documents: FxHashMap<&str, usize> = bundles
        .iter()
        .flat_map(|bundle| &bundle.documents)
        .enumerate()
        .map(|(at, path)| (path.as_str(), at))
        .collect();
    let mut found = vec![None; documents.len()];
    for (i, record) in records.iter().enumerate() {
        if let Some(&at) = documents.get(record.source.path.as_str()) {
            found[at] = Some(i);
        }
    }
    found
}

/// What a plan copies, compiles or makes besides its pages, and the
/// plugins that make pages of their own.
#[derive(Clone, Copy)]
pub struct Sources<'a> {
    pub statics: &'a [StaticFile],
    pub bundles: &'a [Bundle],
    pub sheets: Sheets<'a>,
    /// The images the published documents show.
    pub shown: &'a Shown,
    /// The variants of images each page's templates asked for when it last
    /// rendered.
    pub drawn: &'a Drawn,
    /// The facts of the assets the pages named when last written, and
    /// what each page asked for then.
    pub assets: AssetsBefore<'a>,
    pub plugins: &'a Plugins,
    /// The documents that changed since the build that wrote the outputs
    /// of `assets`, when nothing else did and none of them moved.
    pub changed_since: Option<ChangedSince<'a>>,
}

/// What changed since the last build, when only some documents did, each
/// in what it holds alone ([`same_place`]), and no page of the last build
/// asked for an image (the caller checks): the site has the pages it had,
/// and each page that shows none of them has the fingerprint it was
/// written with. Only the others' are computed (and the sitemap's).
#[derive(Clone, Copy)]
pub struct ChangedSince<'a> {
    /// The documents read again, by place in the records.
    pub documents: &'a [usize],
    /// Those of them whose title changed.
    pub retitled: &'a [usize],
}

#[cfg(any(test, feature = "internals"))]
impl<'a> Sources<'a> {
    /// A site of documents alone: no static file, bundle, sheet or image.
    pub fn documents_only(plugins: &'a Plugins) -> Sources<'a> {
        const NO_IMAGES: &Shown = &Shown {
            by_document: BTreeMap::new(),
            measured: BTreeMap::new(),
        };
        const NO_USES: &Drawn = &BTreeMap::new();
        Sources {
            statics: &[],
            bundles: &[],
            sheets: Sheets::NONE,
            shown: NO_IMAGES,
            drawn: NO_USES,
            assets: AssetsBefore::NONE,
            plugins,
            changed_since: None,
        }
    }
}

/// The stylesheets of `sass/` and the paths each one's last compile read
/// or looked for, by the sheet's path from the root.
#[derive(Debug, Clone, Copy)]
pub struct Sheets<'a> {
    pub files: &'a [SassFile],
    pub reads: &'a BTreeMap<String, Vec<String>>,
}

#[cfg(any(test, feature = "internals"))]
impl Sheets<'static> {
    /// A site without `sass/`.
    pub const NONE: Sheets<'static> = Sheets {
        files: &[],
        reads: &BTreeMap::new(),
    };
}

/// Each sheet of `sass/` (the site's over its theme's) as CSS at its path,
/// fingerprinted by what its last compile read (or, never compiled, by
/// itself).
fn sass_copies(sheets: Sheets<'_>, started_ns: i64) -> Vec<Copy> {
    sass::sheets(sheets.files)
        .filter_map(|file| {
            let itself = [file.path.clone()];
            let reads = sheets
                .reads
                .get(&file.path)
                .map_or(&itself[..], Vec::as_slice);
            Some(Copy {
                output: OutputPath::new(&sass::output_of(&file.rel))?,
                fingerprint: sass::fingerprint(reads, sheets.files, started_ns),
                source: file.path.clone(),
                making: Making::Sass,
            })
        })
        .collect()
}

fn static_copies(statics: &[StaticFile], started_ns: i64) -> Vec<Copy> {
    statics
        .iter()
        .filter_map(|file| {
            let stat = file.stat.settled(started_ns);
            Some(Copy {
                output: OutputPath::new(&file.rel)?,
                source: file.source_path(),
                // A theme's file and the site's at one path are two files.
                fingerprint: match &file.theme_dir {
                    None => format!("static {} {}", stat.size, stat.mtime_ns),
                    Some(theme) => format!("static {theme} {} {}", stat.size, stat.mtime_ns),
                },
                making: Making::Verbatim,
            })
        })
        .collect()
}

/// Each bundle's files beside each of its published pages, by bundle, then
/// document, then file, in walk order. A page whose URL leaves the output
/// folder has no folder to take them, and is an error of its own.
fn bundle_copies(
    config: &Config,
    (bundles, documents): (&[Bundle], &[Option<usize>]),
    (records, visibility): (&[Record], Visibility),
    started_ns: i64,
) -> Vec<Copy> {
    let mut documents = documents.iter();
    let mut copies = Vec::new();
    for bundle in bundles {
        let pages = documents
            .by_ref()
            .take(bundle.documents.len())
            .flatten()
            .map(|&i| &records[i])
            .filter(|record| visibility.shows(record));
        for record in pages {
            let Some(page) = config.site_path(&record.url).and_then(OutputPath::for_url) else {
                continue;
            };
            let folder = page
                .as_str()
                .rsplit_once('/')
                .map_or("", |(folder, _)| folder);
            copies.extend(bundle.files.iter().filter_map(|file| {
                let place = bundle.place_of(file);
                let output = match folder {
                    "" => OutputPath::new(place),
                    _ => OutputPath::new(&format!("{folder}/{place}")),
                }?;
                let stat = file.stat.settled(started_ns);
                Some(Copy {
                    output,
                    source: file.path.clone(),
                    // Its path too: another bundle's file may come to this
                    // output with the same stat.
                    fingerprint: format!("bundle {} {} {}", file.path, stat.size, stat.mtime_ns),
                    making: Making::Verbatim,
                })
            }));
        }
    }
    copies
}

/// Whether a document keeps its place in the site: what decides which
/// pages there are, in which order each list shows its documents, and how
/// they link (its source, id, kind, slug, language, date, URL, terms,
/// draft flag, translation key and expiry), and the update date the sitemap gives (which
/// the sitemap's key, kept by a replan, covers). What else it holds
/// (title, summary, body) is in the fingerprints of the pages that show it.
pub fn same_place(old: &Record, new: &Record) -> bool {
    old.same_claims(new)
        && old.published_at == new.published_at
        && old.updated_at == new.updated_at
        && old.expires_at == new.expires_at
        && old.url == new.url
        && old.tags == new.tags
        && old.terms == new.terms
        && old.draft == new.draft
        && old.translation_key == new.translation_key
        && old.aliases == new.aliases
        && old.template == new.template
        && old.weight == new.weight
}

/// Whether a section's `_index.md` keeps its place in the site: what
/// decides which pages there are, what each lists in which order, with
/// which template, and where its links lead. What else it says (title,
/// description, text, extra) is in the fingerprints of the pages that show
/// it.
pub fn same_section_place(old: &SectionFile, new: &SectionFile) -> bool {
    // Every field named, so that a new one is placed or shown on purpose.
    let SectionFile {
        path,
        lang,
        folder,
        hash: _,
        title: _,
        description: _,
        sort_by,
        paginate,
        template,
        feed,
        draft,
        weight,
        extra: _,
        content: _,
        shortcodes: _,
        links,
    } = new;
    *path == old.path
        && *lang == old.lang
        && *folder == old.folder
        && *sort_by == old.sort_by
        && *paginate == old.paginate
        && *template == old.template
        && *feed == old.feed
        && *draft == old.draft
        && *weight == old.weight
        && *links == old.links
}

/// Lists every output of the site with its fingerprint, and the static
/// files to copy. `records` are all current documents, `sections` what
/// the sections' `_index.md` files say; `started_ns` is the build's start,
/// for the racy rule on static files' stats. With the plan come the pages
/// whose fingerprint it computed, by their place in its specs, when it took
/// every other page's from the last build ([`ChangedSince`]): with those
/// whose output is damaged, the only ones that may need rendering.
pub fn plan<'a>(
    config: &'a Config,
    views: &'a Views<'a>,
    theme: &Theme,
    (records, sections): (Vec<Record>, Vec<SectionFile>),
    sources: Sources<'_>,
    visibility: Visibility,
    started_ns: i64,
) -> Result<(Plan<'a>, Option<Vec<usize>>), Error> {
    let (copies, statics, mut model) = copies_and_model(
        (config, theme),
        (records, sections),
        sources,
        (visibility, None),
        started_ns,
    )?;
    let plugins = sources.plugins;

    let mut recipes: Vec<(String, Template, Recipe)> = Vec::new();
    for (code, _) in config.ordered_languages() {
        language_recipes((config, theme), &model, (code, plugins), &mut recipes);
    }
    let mut problems = recipe::section_recipes(config, &model, theme, &mut recipes);
    problems.extend(recipe::document_recipes(&model, theme, &mut recipes));
    let (broken, mut warnings) = model.link_problems();
    problems.extend(broken);
    documents_take_generated_places(&mut recipes);
    recipe::sitemap_recipe(config, &mut recipes);
    // A bundle's file is no site file's replacement: one at `robots.txt`
    // is a collision, named with the page's.
    recipe::site_file_recipes(config, &copies[..statics], &mut recipes);

    let (mut specs, misplaced) = specs_of((config, theme), &model, recipes);
    problems.extend(misplaced);
    warnings.extend(recipe::drop_aliases_in_the_way(&model, &copies, &mut specs));
    model.drawn = DrawnImages::new(sources.drawn, sources.shown, (&specs, &copies));
    warnings.extend(retired_template(theme));
    // Documents changed alone in what they hold leave the site the outputs
    // of the last build, which had no two claiming one file.
    if sources.changed_since.is_none() {
        problems.extend(collisions(&copies, &specs, &model));
    }
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
        templates: templates_used(theme, &specs),
        warnings,
        whole: true,
    };
    plan.sitemap_key = plan.sitemap_key(&specs);
    Ok(fingerprinted_and_settled(
        plan,
        specs,
        (theme, statics),
        sources,
    ))
}

impl Plan<'_> {
    /// The fingerprint of each of `specs`, and whether it was computed:
    /// every one is, unless only some documents changed since the last
    /// build; then only those of the pages that show one of them (or have
    /// no output yet) are, and the others are the own part of the one they
    /// were written with (the assets they named are checked as a fresh
    /// plan's are).
    pub(super) fn fingerprints(
        &self,
        prefixes: &KeyPrefixes<'_>,
        specs: &[Spec],
        sources: Sources<'_>,
    ) -> Vec<(String, bool)> {
        let Some(changed) = sources.changed_since else {
            return (specs.par_iter())
                .map(|spec| (self.key(prefixes, spec), true))
                .collect();
        };
        let documents: FxHashSet<usize> = changed.documents.iter().copied().collect();
        let retitled: FxHashSet<usize> = changed.retitled.iter().copied().collect();
        let written = sources.assets.outputs;
        (specs.par_iter())
            .map(|spec| match written.written_with(spec.output.as_str()) {
                Some(written) if !self.shows_any(spec, (&documents, &retitled)) => (
                    crate::model::asset::own_fingerprint(written).to_owned(),
                    false,
                ),
                _ => (self.key(prefixes, spec), true),
            })
            .collect()
    }
}

/// `plan` with `specs` as its pages (replacing any it had), each given its
/// fingerprint ([`Plan::fingerprints`]), and the assets they name settled;
/// `statics` is how many of its copies come from `static/` and `sass/`. A
/// plan that has a sitemap has its `sitemap_key` already: the sitemap's
/// fingerprint reads it. With it come the places of the pages whose
/// fingerprint was computed, when the others' were taken as written.
pub(super) fn fingerprinted_and_settled<'a>(
    mut plan: Plan<'a>,
    mut specs: Vec<Spec>,
    (theme, statics): (&Theme, usize),
    sources: Sources<'_>,
) -> (Plan<'a>, Option<Vec<usize>>) {
    let prefixes = KeyPrefixes::new(
        theme,
        (plan.views, &plan.model.menus),
        specs
            .iter()
            .map(|spec| (spec.template.as_ref(), plan.language_of(&spec.recipe))),
    );
    let fingerprints = plan.fingerprints(&prefixes, &specs, sources);
    drop(prefixes);
    let mut fingerprinted = Vec::new();
    for (s, (spec, (fingerprint, computed))) in specs.iter_mut().zip(fingerprints).enumerate() {
        spec.fingerprint = fingerprint;
        if computed {
            fingerprinted.push(s);
        }
    }
    let mut assets = PlannedAssets::new((&plan.copies, statics), &specs);
    assets.settle(&mut specs, &plan.copies, sources.assets);
    plan.model.assets = assets;
    let fingerprinted = sources.changed_since.map(|_| fingerprinted);
    (Plan { specs, ..plan }, fingerprinted)
}

/// The outputs two files claim: the copies claim theirs first, then the
/// pages in plan order.
fn collisions(copies: &[Copy], specs: &[Spec], model: &Model) -> Vec<Problem> {
    let outputs: Vec<&str> = copies
        .iter()
        .map(|c| c.output.as_str())
        .chain(specs.iter().map(|s| s.output.as_str()))
        .collect();
    let made_by = |at: usize| match at.checked_sub(copies.len()) {
        None => PathBuf::from(&copies[at].source),
        Some(i) => PathBuf::from(specs[i].recipe.made_by(model, &specs[i].template)),
    };
    output_collisions(&outputs, made_by)
}

/// Before taxonomies, tags had an index template of their own: a site's
/// copy of it would be left unused without a word.
pub(super) fn retired_template(theme: &Theme) -> Option<String> {
    let path = theme.site_file("tags.html")?;
    theme.site_file("taxonomy.html").is_none().then(|| {
        format!(
            "{}: tags.html is no longer read: each taxonomy's index is taxonomy.html, whose `tags` is now `terms` (docs/templates.md); rename it",
            path.display()
        )
    })
}

/// The templates the pages of `specs` use, with every template they extend,
/// include or import: sorted names. A plan brought up to date has the pages
/// and theme of the last, hence its templates.
fn templates_used(theme: &Theme, specs: &[Spec]) -> Vec<String> {
    let used: FxHashSet<&str> = specs.iter().map(|spec| spec.template.as_ref()).collect();
    let reached: BTreeSet<String> = used
        .into_iter()
        .flat_map(|name| theme.closure(name))
        .collect();
    reached.into_iter().collect()
}

/// The pages of the lists of language `code`: its home, archive,
/// taxonomies with their terms, its home's feeds, and the files of the
/// output plugins.
pub(super) fn language_recipes(
    (config, theme): (&Config, &Theme),
    model: &Model,
    (code, plugins): (&str, &Plugins),
    recipes: &mut Vec<(String, Template, Recipe)>,
) {
    recipe::home_recipes(config, model, code, recipes);
    recipe::archive_recipe(config, code, recipes);
    recipe::taxonomy_recipes((config, theme), model, code, recipes);
    recipe::home_feed_recipes(config, model, code, recipes);
    recipe::extra_recipes(config, model, (code, plugins), recipes);
}

/// Each recipe at its place in the output folder, or the problem of a URL
/// that would leave it.
pub(super) fn specs_of(
    (config, theme): (&Config, &Theme),
    model: &Model,
    recipes: Vec<(String, Template, Recipe)>,
) -> (Vec<Spec>, Vec<Problem>) {
    recipes
        .into_par_iter()
        .partition_map(|(url, template, recipe)| {
            match config.site_path(&url).and_then(OutputPath::for_url) {
                Some(output) => rayon::iter::Either::Left(Spec {
                    output,
                    reads: theme.reads(&template),
                    template,
                    url,
                    fingerprint: String::new(),
                    recipe,
                }),
                None => rayon::iter::Either::Right(Problem::new(
                    recipe.made_by(model, &template),
                    None,
                    ProblemKind::UrlOutsideOutput { url },
                )),
            }
        })
}

/// The last build's plan, brought up to date with `records` where only the
/// documents at `changed` differ, and only in what they hold: each keeps its
/// path, id, slug, URL, date, terms, draft flag and translation key, so the
/// site has the same pages, listed in the same order (the caller checks
/// that, and that the theme, the words, the config, the static files and
/// what is published are those of the last build). Only the fingerprints
/// of the pages that show a changed document, or a section's `_index.md`
/// that changed in what it says only ([`same_section_place`]), are
/// computed again; of the pages that list a document by its title alone,
/// only those of the documents whose title changed (`retitled`). Returns
/// the plan and those pages, by their place in its specs; or the links
/// that lead nowhere now.
pub fn replan<'a>(
    config: &'a Config,
    views: &'a Views<'a>,
    theme: &Theme,
    (kept, assets): (KeptPlan, AssetsBefore<'_>),
    (records, sections): (Vec<Record>, Vec<SectionFile>),
    (changed, retitled): (&[usize], &[usize]),
) -> Result<(Plan<'a>, Vec<usize>), Error> {
    let KeptPlan {
        specs,
        copies,
        mut model,
        sitemap_key,
        dependents,
        templates,
    } = kept;
    model.records = records;
    // A plan is brought up to date only when no page's templates asked for
    // an image (the session checks): none of the last plan's stands.
    model.drawn = DrawnImages::default();
    let rewritten: Vec<usize> = (0..sections.len())
        .filter(|&f| model.sections.files.get(f) != Some(&sections[f]))
        .collect();
    model.sections.files = sections;
    hash_new_shortcodes(&mut model, theme, (changed, &rewritten));
    if model.places.is_none() {
        model.places = Places::of(config, &model.records, &model.sections.files);
    }
    let (broken, warnings) = model.link_problems();
    if !broken.is_empty() {
        return Err(Error::Content(broken));
    }
    for &i in changed {
        model.digests[i] = OnceLock::new();
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
        templates,
        // Those of old URLs were said when they were planned; they did not
        // change since. Those of anchors are said at every build, as a
        // fresh one says them.
        warnings,
        whole: true,
    };
    let dependents = plan.dependents.take().unwrap_or_else(|| plan.dependents());
    let of_documents = changed.iter().flat_map(|&i| &dependents.documents[i]);
    let of_titles = retitled.iter().flat_map(|&i| &dependents.listings[i]);
    let of_sections = rewritten.iter().flat_map(|&f| &dependents.sections[f]);
    let mut fingerprinted: Vec<usize> = of_documents
        .chain(of_titles)
        .chain(of_sections)
        .map(|&s| s as usize)
        .collect();
    fingerprinted.sort_unstable();
    fingerprinted.dedup();
    let prefixes = KeyPrefixes::new(
        theme,
        (views, &plan.model.menus),
        fingerprinted.iter().map(|&s| {
            let spec = &plan.specs[s];
            (spec.template.as_ref(), plan.language_of(&spec.recipe))
        }),
    );
    let fingerprints: Vec<String> = fingerprinted
        .iter()
        .map(|&s| plan.key(&prefixes, &plan.specs[s]))
        .collect();
    drop(prefixes);
    for (&s, fingerprint) in fingerprinted.iter().zip(fingerprints) {
        plan.specs[s].fingerprint = fingerprint;
    }
    // The facts of the assets the index keeps hold where their page's
    // fingerprint, as computed now, is the one they were taken at.
    plan.model
        .assets
        .refresh(assets.facts, &plan.specs, &plan.copies);
    plan.dependents = Some(dependents);
    Ok((plan, fingerprinted))
}

/// The template hash of each shortcode the `changed` documents or the
/// `rewritten` sections' files call that nothing called before.
fn hash_new_shortcodes(
    model: &mut Model,
    theme: &Theme,
    (changed, rewritten): (&[usize], &[usize]),
) {
    let called = (changed.iter())
        .flat_map(|&i| &model.records[i].shortcodes)
        .chain(
            rewritten
                .iter()
                .flat_map(|&f| &model.sections.files[f].shortcodes),
        );
    for name in called {
        if !model.shortcode_hashes.contains_key(name) {
            let hash = theme.shortcode_hash(name).to_owned();
            model.shortcode_hashes.insert(name.clone(), hash);
        }
    }
}

/// A document whose URL is that of a generated list (a language's home, its
/// tags page, a tag's page, a section's page) takes its place, as a static file takes the
/// place of the theme's: a site moved in keeps its own home page at `/fr/`.
pub(super) fn documents_take_generated_places(recipes: &mut Vec<(String, Template, Recipe)>) {
    let generated: FxHashMap<&str, usize> = recipes
        .iter()
        .enumerate()
        .filter(|(_, (_, _, recipe))| recipe.is_generated_list())
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
