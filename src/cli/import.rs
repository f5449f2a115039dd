//! `folio import`: another generator's site written as a folio site by the
//! library, and the report of what it kept, fixed and left for a hand.

use std::path::PathBuf;

/// The generators `folio import` reads.
#[derive(Clone, Copy, clap::ValueEnum)]
pub(crate) enum ImportFrom {
    Jekyll,
    Hugo,
    Zola,
}

pub(crate) fn import(
    from: ImportFrom,
    source: PathBuf,
    into: Option<PathBuf>,
) -> Result<(), folio::Error> {
    let into = into.unwrap_or_else(|| {
        let name = source
            .file_name()
            .map_or("site".into(), |n| n.to_string_lossy().into_owned());
        source.with_file_name(format!("{name}-folio"))
    });
    let generator = match from {
        ImportFrom::Jekyll => folio::import::Generator::Jekyll,
        ImportFrom::Zola => folio::import::Generator::Zola,
        ImportFrom::Hugo => folio::import::Generator::Hugo,
    };
    let report = folio::import::import(generator, &source, &into)?;
    out!("imported {} into {}", source.display(), into.display());
    print_counts(&report);
    out!(
        "  languages:    {} (the default first)",
        report.languages.join(", ")
    );
    for (from, to) in &report.mapped_languages {
        out!("  language:     `{from}` is written `{to}` (BCP 47, and its folder name)");
    }
    if report.translations_linked > 0 {
        out!(
            "  translations: {} documents linked to another language's as the old site linked them (Jekyll's `ref`, `name` or permalink; Hugo's and Zola's file path or `translationKey`), written down as `translation_key`",
            report.translations_linked
        );
    }
    for (file, slug) in &report.renamed {
        out!("  renamed:      {file} is `{slug}`: another post of its language had its slug");
    }
    for made in &report.slugs_made_safe {
        out!(
            "  made safe:    {}: its slug {}; written as `{}`, its old URL kept as its permalink",
            made.file,
            made.why,
            made.slug
        );
    }
    for (file, key) in &report.repeated_keys {
        out!(
            "  fixed:        {file} set `{key}` twice; the last value is kept, as the old site's generator read it"
        );
    }
    if !report.extra_fields.is_empty() {
        let fields: Vec<&str> = report.extra_fields.iter().map(String::as_str).collect();
        out!("  kept for templates (extra): {}", fields.join(", "));
    }
    for (file, key) in &report.reindented {
        out!(
            "  fixed:        {file}: `{key}` continues a quoted value at the start of a line; indented as YAML requires"
        );
    }
    for (file, title) in &report.titled {
        out!(
            "  fixed:        {file} has no title; given \"{title}\", from its file's name (as Jekyll showed it; Hugo and Zola showed none)"
        );
    }
    for (file, why) in &report.drafted {
        out!("  drafted:      {file}: {why}");
    }
    for (file, why) in &report.left_out {
        out!("  left out:     {file}: {why}");
    }
    print_links_fixed(&report);
    if report.zola_templates > 0 {
        out!(
            "  needs a hand: {} document(s) name a Zola template, kept as `zola_template`: folio's theme renders them",
            report.zola_templates
        );
    }
    print_liquid(&report);
    for (tag, files) in &report.template_tags {
        out!("  needs a hand: {tag} in {files} file(s), left as written");
    }
    verify(&report, &into)
}

/// Builds the imported site, as `folio build` would, and checks that it
/// serves every URL the old site served.
fn verify(
    report: &folio::import::ImportReport,
    into: &std::path::Path,
) -> Result<(), folio::Error> {
    let site = folio::Site::open(into)?;
    let options = folio::BuildOptions::new(super::now_ms()?);
    let out_dir = site.output_dir(&options);
    let built = site.build(&options).inspect_err(|_| {
        out!(
            "the first build of {} failed: the site is written; fix what follows, then run folio build --root {}",
            into.display(),
            into.display()
        );
    })?;
    for warning in &built.warnings {
        eprintln!("warning: {warning}");
    }
    print_urls(report, &folio::import::verify(report, &out_dir));
    out!(
        "built:        {} pages in {}; preview: folio serve --root {}",
        built.written.len(),
        out_dir.display(),
        into.display()
    );
    Ok(())
}

/// The posts, pages and sections written, per language.
fn print_counts(report: &folio::import::ImportReport) {
    // `3 en, 1 fr`, or nothing.
    let per_language = |counts: &std::collections::BTreeMap<String, usize>| {
        let counts: Vec<String> = counts
            .iter()
            .map(|(lang, n)| format!("{n} {lang}"))
            .collect();
        counts.join(", ")
    };
    let posts = per_language(&report.posts);
    if !posts.is_empty() {
        out!("  posts:        {posts}");
    }
    let pages = per_language(&report.pages);
    if !pages.is_empty() {
        out!("  pages:        {pages}");
    }
    if report.files_copied > 0 {
        out!(
            "  files:        {} copied as they were (static files, and each bundle's beside its page)",
            report.files_copied
        );
    }
    let sections = per_language(&report.sections);
    if !sections.is_empty() {
        out!("  sections:     {sections} (each `_index.md`, listed at its folder's URL)");
    }
}

/// Whether every post keeps its URL, and the translations moved off their
/// original's.
fn print_urls(report: &folio::import::ImportReport, misses: &[folio::import::OldUrl]) {
    let checked = report.old_urls.len();
    match (misses.is_empty(), report.relocated.is_empty()) {
        (true, true) => out!(
            "  URLs:         every post keeps its old URL: the {checked} URLs the old site served are served by the built site ({} written down as `permalink`)",
            report.permalinks_written
        ),
        (true, false) => out!(
            "  URLs:         every old URL is still served: the {checked} URLs the old site served are served by the built site; {} translation(s) that had their original's moved under their language",
            report.relocated.len()
        ),
        (false, _) => out!(
            "  URLs:         {} of the {checked} URLs the old site served are not served by the built site:",
            misses.len()
        ),
    }
    for miss in misses {
        out!("  not served:   {} (from {})", miss.url, miss.file);
    }
    for (file, url) in &report.relocated {
        out!(
            "  moved:        {file} is at {url}: its original had its URL, and the old site wrote one over the other"
        );
    }
}

/// What became of Jekyll's Liquid: converted, or left out and why, each
/// kind with its number of files and the first five.
fn print_liquid(report: &folio::import::ImportReport) {
    let files = |files: &[String]| {
        let mut named = files.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
        if files.len() > 5 {
            named.push_str(", …");
        }
        format!("{} file(s): {named}", files.len())
    };
    for (kind, in_files) in &report.converted {
        out!("  converted:    {kind} in {}", files(in_files));
    }
    for (why, in_files) in &report.taken_out {
        out!(
            "  needs a hand: {why}: left out of the text in {}",
            files(in_files)
        );
    }
}

/// What the import did to keep the links between documents and to their
/// headings working.
fn print_links_fixed(report: &folio::import::ImportReport) {
    if report.anchors_kept > 0 {
        out!(
            "  fixed:        {} heading(s) keep the id the old site gave them, so old #anchors still lead there",
            report.anchors_kept
        );
    }
    if report.links_rewritten > 0 {
        out!(
            "  fixed:        {} link(s) between documents written again to lead where their target is (Zola's `@/…`; a page's URL in other letter case, or without its last `/`, which only a case-blind host served)",
            report.links_rewritten
        );
    }
}
