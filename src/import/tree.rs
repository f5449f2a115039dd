//! A site of sections and pages, as Zola and Hugo keep it: each document
//! written where folio's layout puts it, with the URL its generator gave
//! it, and `site.toml` with the sections that hold posts.

use std::collections::{BTreeMap, BTreeSet};

use super::feeds::OldFeeds;
use super::links::{Moves, relink};
use super::statics::copy_folder;
use super::{Destination, ImportReport, READ_FIELDS, SiteSettings, Source};
use crate::model::error::Error;

/// How a document's front matter is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FrontFormat {
    Yaml,
    Toml,
}

/// One page or section of the old site, as folio will hold it.
pub(super) struct TreeDocument {
    /// Relative to the source folder.
    pub path: String,
    pub lang: String,
    /// The section path under the content folder (`blog`, `pages`), empty
    /// at the root.
    pub section: String,
    pub slug: String,
    /// The slug its file's name gives (a bundle's, its folder's).
    pub file_slug: String,
    pub format: FrontFormat,
    /// Front matter lines, without the delimiter lines.
    pub front: Vec<String>,
    pub body: String,
    pub url: String,
    pub dated: bool,
    /// The date its file's name gave it, which its front matter lacks.
    pub date_from_file_name: Option<String>,
    /// What its translations share in the old site: their path under their
    /// language's content folder without language and extension
    /// (`blog/post`), or Hugo's `translationKey`.
    pub translation: String,
    /// The `translation_key` written down, where folio's default (the
    /// path inside the language root) would not link it.
    pub translation_key: Option<String>,
    /// Its old URLs (`aliases`), served by redirects.
    pub aliases: Vec<String>,
    /// Its terms: taxonomy and term, as written.
    pub terms: Vec<(String, String)>,
    /// The menus it puts itself in, each with its entry (name, weight,
    /// parent), its URL still to come.
    pub menus: Vec<(String, serde_json::Value)>,
    /// A bundle's folder in the source (`content/blog/trip/` of
    /// `trip/index.md`), whose other files are copied beside it.
    pub bundle: Option<std::path::PathBuf>,
    /// A section's own page (`_index.md`).
    pub is_section: bool,
    /// Its front matter's top-level keys.
    pub keys: Vec<String>,
}

/// Where a content file stands in its site's tree.
pub(super) struct Place {
    /// Its section's path (`blog`, `docs/guide`), empty at the root.
    pub section: String,
    /// Its own name: the file's, a bundle's folder's, or a section's last
    /// folder.
    pub name: String,
    /// A section's own page (`_index.md`).
    pub is_section: bool,
}

impl Place {
    /// The file named `name` (without language and extension) in `dir`:
    /// `_index` is its folder's section page, `index` a bundle named by
    /// its folder, anything else a page of the section `dir`.
    pub(super) fn of(dir: &str, name: &str) -> Place {
        let (section, name, is_section) = match name {
            "_index" => (dir, dir.rsplit('/').next().unwrap_or(""), true),
            "index" => {
                let (parent, bundle) = dir.rsplit_once('/').unwrap_or(("", dir));
                (parent, bundle, false)
            }
            _ => (dir, name, false),
        };
        Place {
            section: section.to_owned(),
            name: name.to_owned(),
            is_section,
        }
    }
}

/// What `site.toml` takes from the old site's configuration.
pub(super) struct TreeSite {
    pub generator: &'static str,
    /// The configuration file that made its homes and feeds.
    pub config_file: String,
    pub title: String,
    pub base_url: String,
    pub default_language: String,
    /// The old site only warned of a link to a missing anchor.
    pub anchors_warn: bool,
    pub feeds: Option<OldFeeds>,
    /// Its taxonomies, menus and own settings.
    pub carried: super::carried::Carried,
    /// The old generator's slug of a term, in its URL.
    pub term_slug: fn(&str) -> String,
    /// Whether that slug is folio's `term_slugs = "ascii"`.
    pub ascii_terms: bool,
}

/// Writes `site.toml` and every document. A top-level section whose every
/// page is dated is a section of posts; a section's own page without text
/// is a list, which folio makes, and is left out.
pub(super) fn write_site(
    (source, into): (&Source, &Destination),
    site: &TreeSite,
    mut documents: Vec<TreeDocument>,
    report: &mut ImportReport,
) -> Result<(), Error> {
    let default_language = site.default_language.clone();
    for doc in &mut documents {
        doc.slug = report.safe_slug(&doc.path, &doc.slug, &doc.file_slug);
    }
    give_distinct_slugs(&mut documents, report);
    // The URLs the old site served, before any is given up to another
    // language's page.
    for doc in &documents {
        report.served_at(&doc.path, &doc.url, &doc.aliases);
    }
    keep_urls_apart(&mut documents, &default_language, report);
    for doc in &documents {
        // Zola's `path` is the permalink now.
        let kept = doc
            .keys
            .iter()
            .filter(|key| !READ_FIELDS.contains(&key.as_str()) && *key != "path");
        report.extra_fields.extend(kept.cloned());
    }
    // A section whose every page is dated is a section of posts.
    let mut sections: BTreeMap<String, bool> = BTreeMap::new();
    for doc in documents.iter().filter(|d| !d.is_section) {
        let top = doc.section.split('/').next().unwrap_or("").to_owned();
        let all_dated = sections.entry(top).or_insert(true);
        *all_dated &= doc.dated && !doc.section.is_empty();
    }
    let post_sections: Vec<String> = sections
        .into_iter()
        .filter(|(name, all_dated)| *all_dated && !name.is_empty())
        .map(|(name, _)| name)
        .collect();
    let mut langs: BTreeSet<String> = documents.iter().map(|d| d.lang.clone()).collect();
    langs.insert(default_language.clone());
    report.languages = std::iter::once(default_language.clone())
        .chain(langs.into_iter().filter(|l| *l != default_language))
        .collect();
    let mut settings = SiteSettings {
        generator: site.generator,
        title: site.title.clone(),
        base_url: site.base_url.clone(),
        default_language,
        timezone: None,
        post_sections: if post_sections.is_empty() {
            vec!["posts".into()]
        } else {
            post_sections.clone()
        },
        anchors_warn: site.anchors_warn,
        feeds: site.feeds.clone(),
        carried: site.carried.clone(),
        ascii_terms: site.ascii_terms,
    };
    // Each language of the site had its home, under its prefix.
    let homes = report
        .languages
        .iter()
        .map(|lang| format!("{}/", language_prefix(lang, &settings.default_language)))
        .collect();
    report.homes_served(&site.config_file, homes, site.feeds.as_ref());
    terms_served(site, &documents, &settings.default_language, report);
    let (places, moved) = places_of(&documents);
    menu_entries(&documents, &places, &mut settings);
    let site_toml = settings.site_toml(&report.languages);
    into.write(&["site.toml"], &site_toml, "site.toml")?;
    link_translations(&mut documents, &places, report);
    let urls: Vec<String> = documents.iter().map(|doc| doc.url.clone()).collect();
    let moves = Moves::new(&moved, &site.base_url, urls.iter().map(String::as_str));
    for (doc, place) in documents.iter_mut().zip(&places) {
        if place.is_none() {
            let why = match doc.section.as_str() {
                "" => "the home page's section, without text: folio makes the home page",
                _ => {
                    "a section without text or pages at the URL of folio's archive, which lists every post"
                }
            };
            let why = why.to_owned();
            report.left_out.push((doc.path.clone(), why));
            continue;
        }
        let (body, relinked) = relink(&doc.body, |dest| moves.of(dest));
        doc.body = body;
        report.links_rewritten += relinked;
    }
    write_documents((source, into), &documents, places, &post_sections, report)
}

/// The prefix of `lang`'s URLs in the old site (`/fr`), none for the
/// default language.
fn language_prefix(lang: &str, default_language: &str) -> String {
    match lang == default_language {
        true => String::new(),
        false => format!("/{}", lang.to_lowercase()),
    }
}

/// The menu entries documents give themselves in their front matter
/// (Hugo's `menu: main`), as folio's: to the document, by its `@/` path
/// (a section by its URL), in the site's menus for the default language
/// and in a language's own for the others.
fn menu_entries(
    documents: &[TreeDocument],
    places: &[Option<Vec<String>>],
    settings: &mut SiteSettings,
) {
    for (doc, place) in documents.iter().zip(places) {
        let Some(place) = place else { continue };
        for (menu, entry) in &doc.menus {
            let mut entry = entry.clone();
            entry["url"] = serde_json::Value::String(match doc.is_section {
                true => doc.url.clone(),
                false => format!("@/{}", place[1..].join("/")),
            });
            let menus = match doc.lang == settings.default_language {
                true => &mut settings.carried.menus,
                false => settings
                    .carried
                    .language_menus
                    .entry(doc.lang.clone())
                    .or_default(),
            };
            menus.entry(menu.clone()).or_default().push(entry);
        }
    }
}

/// Notes each taxonomy's index and each term's page, in each language that
/// has the term, as served: the old generator made them.
fn terms_served(
    site: &TreeSite,
    documents: &[TreeDocument],
    default_language: &str,
    report: &mut ImportReport,
) {
    let mut pages: BTreeSet<String> = BTreeSet::new();
    for doc in documents {
        let prefix = language_prefix(&doc.lang, default_language);
        for (taxonomy, term) in &doc.terms {
            pages.insert(format!("{prefix}/{taxonomy}/"));
            pages.insert(format!("{prefix}/{taxonomy}/{}/", (site.term_slug)(term)));
        }
    }
    for url in pages {
        report.served_at(&site.config_file, &url, &[]);
    }
}

/// Writes each document at its place (a section as its `_index.md`),
/// counting posts, pages and sections per language.
fn write_documents(
    (source, into): (&Source, &Destination),
    documents: &[TreeDocument],
    places: Vec<Option<Vec<String>>>,
    post_sections: &[String],
    report: &mut ImportReport,
) -> Result<(), Error> {
    for (doc, place) in documents.iter().zip(places) {
        let Some(place) = place else { continue };
        if doc.is_section && !doc.section.is_empty() {
            write_document(into, doc, &place, report)?;
            *report.sections.entry(doc.lang.clone()).or_default() += 1;
            continue;
        }
        let is_post = post_sections
            .iter()
            .any(|s| doc.section.split('/').next() == Some(s.as_str()))
            && !doc.is_section;
        write_document(into, doc, &place, report)?;
        if let Some(bundle) = doc.bundle.as_deref() {
            // Its files go beside it; its Markdown files are documents of
            // their own (its translations among them).
            let folder: Vec<&str> = place[..place.len() - 1]
                .iter()
                .map(String::as_str)
                .collect();
            let keep = |under: &str| !under.ends_with(".md") && !under.ends_with(".markdown");
            copy_folder((source, bundle), (into, &folder), &keep, report)?;
        }
        let count = if is_post {
            &mut report.posts
        } else {
            &mut report.pages
        };
        *count.entry(doc.lang.clone()).or_default() += 1;
        report.permalinks_written += 1;
    }
    Ok(())
}

/// Where each document goes (`None` for a section without text of its own
/// that holds pages of its language: a list, which folio makes, with
/// nothing to carry over; an empty one is kept as a page, so that its URL
/// is still served), and for links
/// between them, each one's old path under the content folder to its new
/// one, or to the URL of a section left out.
fn places_of(documents: &[TreeDocument]) -> (Vec<Option<Vec<String>>>, BTreeMap<String, String>) {
    let mut written = BTreeSet::new();
    let mut moved = BTreeMap::new();
    // The sections of each language that hold documents.
    let holding: BTreeSet<(&str, &str)> = documents
        .iter()
        .filter(|doc| !doc.is_section)
        .map(|doc| (doc.lang.as_str(), doc.section.as_str()))
        .collect();
    let places = documents
        .iter()
        .map(|doc| {
            let old = doc
                .path
                .split_once('/')
                .map_or("", |(_, rest)| rest)
                .to_owned();
            // A link to a section leads to its list's URL.
            if doc.is_section {
                moved.insert(old.clone(), doc.url.clone());
            }
            // Folio writes each language's archive at `archive/`: an empty
            // section there (a theme's own archive page) has nothing to add.
            let empty = doc.body.trim().is_empty()
                && !holding.contains(&(doc.lang.as_str(), doc.section.as_str()));
            if doc.is_section && doc.section == "archive" && empty {
                return None;
            }
            if doc.is_section && !doc.section.is_empty() {
                let mut place: Vec<String> = ["content", doc.lang.as_str()]
                    .into_iter()
                    .chain(doc.section.split('/'))
                    .map(str::to_owned)
                    .collect();
                place.push("_index.md".to_owned());
                return Some(place);
            }
            if doc.is_section && doc.body.trim().is_empty() {
                return None;
            }
            let place = destination(doc, &mut written);
            if !doc.is_section {
                moved.insert(old, place[1..].join("/"));
            }
            Some(place)
        })
        .collect();
    (places, moved)
}

/// Links the documents the old site linked as translations of each other
/// (they share [`TreeDocument::translation`]) where folio would not: their
/// paths inside their language roots differ (a translation with a slug of
/// its own). Each then gets the old key as its `translation_key`.
fn link_translations(
    documents: &mut [TreeDocument],
    places: &[Option<Vec<String>>],
    report: &mut ImportReport,
) {
    // content/<lang>/<path>.md: folio's own key is <path>.
    let folio_key = |place: &[String]| place[2..].join("/").trim_end_matches(".md").to_owned();
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (at, doc) in documents.iter().enumerate() {
        if places[at].is_some() {
            groups.entry(doc.translation.as_str()).or_default().push(at);
        }
    }
    let mut linked: Vec<usize> = Vec::new();
    for members in groups.into_values().filter(|members| members.len() > 1) {
        let languages: BTreeSet<&str> = members
            .iter()
            .map(|&at| documents[at].lang.as_str())
            .collect();
        let keys: BTreeSet<String> = members
            .iter()
            .filter_map(|&at| places[at].as_deref())
            .map(folio_key)
            .collect();
        // One language's pages sharing a key are no translations.
        if languages.len() == members.len() && keys.len() > 1 {
            linked.extend(members);
        }
    }
    for at in linked {
        let doc = &mut documents[at];
        doc.translation_key = Some(doc.translation.clone());
        report.translations_linked += 1;
    }
}

/// Gives each document that shares its (slug, language) with another (two
/// sections with a page of one name) a slug of its own: the slug and its
/// section. Its URL stays its permalink.
fn give_distinct_slugs(documents: &mut [TreeDocument], report: &mut ImportReport) {
    let count = |documents: &[TreeDocument]| {
        let mut count: BTreeMap<(String, String), usize> = BTreeMap::new();
        for doc in documents {
            *count
                .entry((doc.slug.clone(), doc.lang.clone()))
                .or_default() += 1;
        }
        count
    };
    let shared = count(documents);
    let mut renamed = vec![false; documents.len()];
    for (doc, renamed) in documents.iter_mut().zip(&mut renamed) {
        if shared[&(doc.slug.clone(), doc.lang.clone())] > 1 && !doc.section.is_empty() {
            doc.slug = format!("{}-{}", doc.slug, doc.section.replace('/', "-"));
            *renamed = true;
        }
    }
    // Posts of one section that share a slug (a weekly meeting's notes):
    // each is told by its file's name, unique in its folder.
    let shared = count(documents);
    for (doc, renamed) in documents.iter_mut().zip(&mut renamed) {
        if shared[&(doc.slug.clone(), doc.lang.clone())] > 1 {
            let file = doc.path.rsplit('/').next().unwrap_or(&doc.path);
            let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
            doc.slug = match doc.section.is_empty() {
                true => stem.to_lowercase(),
                false => format!("{}-{}", stem.to_lowercase(), doc.section.replace('/', "-")),
            };
            *renamed = true;
        }
    }
    for (doc, _) in documents
        .iter()
        .zip(renamed)
        .filter(|(_, renamed)| *renamed)
    {
        report.renamed.push((doc.path.clone(), doc.slug.clone()));
    }
}

/// Gives each page whose URL a page of another language has too (a
/// translation that copied its original's `url`) the URL under its own
/// language's folder. The page in the default language keeps the old URL,
/// else the one whose language comes first: the old generator served one
/// of them there and wrote the other over it.
fn keep_urls_apart(
    documents: &mut [TreeDocument],
    default_language: &str,
    report: &mut ImportReport,
) {
    let mut by_url: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (at, doc) in documents.iter().enumerate() {
        by_url.entry(doc.url.as_str()).or_default().push(at);
    }
    let rank = |doc: &TreeDocument| {
        (
            doc.lang != default_language,
            doc.lang.clone(),
            doc.path.clone(),
        )
    };
    let mut moved: Vec<usize> = Vec::new();
    for mut sharing in by_url.into_values().filter(|at| at.len() > 1) {
        sharing.sort_by_key(|&at| rank(&documents[at]));
        let keeper = &documents[sharing[0]].lang;
        // Pages of one language at one URL are the build's to name.
        moved.extend(sharing.iter().filter(|&&at| documents[at].lang != *keeper));
    }
    moved.sort_unstable();
    for at in moved {
        let doc = &mut documents[at];
        // Never the default language's: it is the keeper when it shares.
        doc.url = format!(
            "{}{}",
            language_prefix(&doc.lang, default_language),
            doc.url
        );
        report.relocated.push((doc.path.clone(), doc.url.clone()));
    }
}

/// Where folio's layout puts a document, as the parts of its path: posts
/// and pages under `content/<lang>/<section>/`, a section's own page as
/// `<section>.md` beside its folder; a name `written` holds already gets a
/// number.
fn destination(doc: &TreeDocument, written: &mut BTreeSet<Vec<String>>) -> Vec<String> {
    let (folder, name) = if doc.is_section {
        let (parent, name) = doc.section.rsplit_once('/').unwrap_or(("", &doc.section));
        (parent, if name.is_empty() { "home" } else { name })
    } else {
        (doc.section.as_str(), doc.slug.as_str())
    };
    let mut path: Vec<String> = ["content", doc.lang.as_str()]
        .into_iter()
        .chain(folder.split('/').filter(|part| !part.is_empty()))
        .map(str::to_owned)
        .collect();
    // A bundle stays one: its folder, named by its slug, holds its files.
    let bundle = doc.bundle.is_some() && !doc.is_section;
    let named = |name: &str| match bundle {
        true => vec![name.to_owned(), "index.md".to_owned()],
        false => vec![format!("{name}.md")],
    };
    let mut candidate = path.clone();
    candidate.extend(named(name));
    let mut n = 2;
    while !written.insert(candidate.clone()) {
        candidate = path.clone();
        candidate.extend(named(&format!("{}-{n}", doc.slug)));
        n += 1;
    }
    path = candidate;
    path
}

/// A section's `sort_by` line as folio reads it: Zola's `update_date` is
/// `date`, `title_bytes` `title`; `slug` and `none`, orders folio does not
/// have, give folio's (newest first).
fn folio_sort(line: &str, separator: char) -> Option<String> {
    let value = line
        .split_once(separator)?
        .1
        .trim()
        .trim_matches(['"', '\'']);
    let folio = match value {
        "update_date" => "date",
        "title_bytes" => "title",
        "date" | "title" | "weight" => value,
        _ => return None,
    };
    Some(match separator {
        '=' => format!("sort_by = \"{folio}\""),
        _ => format!("sort_by: {folio}"),
    })
}

/// Writes a document at `path`, its front matter as it was plus its
/// `permalink` and `slug`, written before the first table (a key after `[extra]` would be
/// the table's); Zola's `template` is kept as `zola_template`, since its
/// templates are not folio's.
fn write_document(
    into: &Destination,
    doc: &TreeDocument,
    path: &[String],
    report: &mut ImportReport,
) -> Result<(), Error> {
    let (delimiter, separator) = match doc.format {
        FrontFormat::Toml => ("+++", '='),
        FrontFormat::Yaml => ("---", ':'),
    };
    // TOML's top-level keys come before its first table; the new ones go
    // there too, or they would be the table's.
    let first_table = match doc.format {
        FrontFormat::Toml => doc
            .front
            .iter()
            .position(|l| l.trim_start().starts_with('[')),
        FrontFormat::Yaml => None,
    }
    .unwrap_or(doc.front.len());
    // JSON's quoting is both TOML's and YAML's for these strings.
    let quote = |text: &str| serde_json::Value::String(text.to_owned()).to_string();
    let set = |key: &str, value: &str| match doc.format {
        FrontFormat::Toml => format!("{key} = {}", quote(value)),
        FrontFormat::Yaml => format!("{key}: {}", quote(value)),
    };
    // A section's `_index.md` is folio's too: its URL is its folder's.
    let section = doc.is_section && !doc.section.is_empty();
    let mut lines: Vec<String> = Vec::with_capacity(doc.front.len() + 3);
    for line in &doc.front[..first_table] {
        let top_level = !line.starts_with([' ', '\t', '-', '#']);
        let key = line.split(separator).next().unwrap_or("").trim();
        match key {
            // The URL they gave is the permalink now.
            "slug" | "path" | "url" if top_level => continue,
            "template" | "page_template" if top_level && doc.format == FrontFormat::Toml => {
                report.zola_templates += 1;
                lines.push(format!("zola_{}", line.trim_start()));
            }
            "sort_by" if top_level && section => lines.extend(folio_sort(line, separator)),
            _ => lines.push(line.clone()),
        }
    }
    if section {
        lines.extend(doc.front[first_table..].iter().cloned());
        let text = format!(
            "{delimiter}\n{}\n{delimiter}\n{}",
            lines.join("\n"),
            doc.body
        );
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        return into.write(&path, &text, &doc.path);
    }
    // Hugo and Zola show a page without a title; folio asks one of each
    // document, so it gets the one its file's name gives, as Jekyll does.
    if !doc.keys.iter().any(|key| key == "title") {
        let title = super::titleize_slug(&doc.file_slug);
        lines.push(set("title", &title));
        report.titled.push((doc.path.clone(), title));
    }
    if let Some(key) = &doc.translation_key {
        lines.push(set("translation_key", key));
    }
    if let Some(date) = &doc.date_from_file_name {
        lines.push(set("date", date));
    }
    lines.push(set("permalink", &doc.url));
    lines.push(set("slug", &doc.slug));
    lines.extend(doc.front[first_table..].iter().cloned());
    let text = format!(
        "{delimiter}\n{}\n{delimiter}\n{}",
        lines.join("\n"),
        doc.body
    );
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    into.write(&path, &text, &doc.path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(section: &str, slug: &str, lang: &str) -> TreeDocument {
        TreeDocument {
            path: format!("content/{section}/{slug}.md"),
            lang: lang.into(),
            section: section.into(),
            slug: slug.into(),
            file_slug: slug.into(),
            format: FrontFormat::Yaml,
            front: Vec::new(),
            body: String::new(),
            url: String::new(),
            dated: false,
            date_from_file_name: None,
            translation: format!("{section}/{slug}"),
            translation_key: None,
            aliases: Vec::new(),
            terms: Vec::new(),
            menus: Vec::new(),
            bundle: None,
            is_section: false,
            keys: Vec::new(),
        }
    }

    #[test]
    fn pages_of_one_name_in_two_sections_get_slugs_of_their_own() {
        let mut docs = vec![
            doc("blog", "intro", "en"),
            doc("docs/guide", "intro", "en"),
            doc("blog", "intro", "fr"),
        ];
        let mut report = ImportReport::default();
        give_distinct_slugs(&mut docs, &mut report);
        let slugs: Vec<&str> = docs.iter().map(|d| d.slug.as_str()).collect();
        assert_eq!(slugs, ["intro-blog", "intro-docs-guide", "intro"]);
        assert_eq!(report.renamed.len(), 2);
    }

    #[test]
    fn translations_the_old_site_linked_keep_their_link_when_their_slugs_differ() {
        let mut docs = vec![
            doc("blog", "hello", "en"),
            doc("blog", "ni-hao", "zh"),
            doc("blog", "same", "en"),
            doc("blog", "same", "fr"),
            doc("blog", "alone", "en"),
        ];
        for (doc, key) in docs.iter_mut().zip([
            "blog/hello",
            "blog/hello",
            "blog/same",
            "blog/same",
            "blog/alone",
        ]) {
            doc.translation = key.into();
        }
        let places: Vec<Option<Vec<String>>> = docs
            .iter()
            .map(|d| {
                Some(vec![
                    "content".into(),
                    d.lang.clone(),
                    d.section.clone(),
                    format!("{}.md", d.slug),
                ])
            })
            .collect();
        let mut report = ImportReport::default();
        link_translations(&mut docs, &places, &mut report);
        let keys: Vec<Option<&str>> = docs.iter().map(|d| d.translation_key.as_deref()).collect();
        // Folio links `same` by its path already; `alone` has nothing to link.
        assert_eq!(
            keys,
            [Some("blog/hello"), Some("blog/hello"), None, None, None]
        );
        assert_eq!(report.translations_linked, 2);
    }

    #[test]
    fn a_translation_at_its_originals_url_moves_under_its_language() {
        let mut docs = vec![
            doc("blog", "welcome", "zh"),
            doc("blog", "welcome", "en"),
            doc("blog", "other", "zh"),
            doc("blog", "same", "fr"),
            doc("blog", "same", "fr"),
        ];
        let urls = [
            "/blog/Welcome/",
            "/blog/Welcome/",
            "/zh/blog/other/",
            "/fr/x/",
            "/fr/x/",
        ];
        for (doc, url) in docs.iter_mut().zip(urls) {
            doc.url = url.into();
        }
        let mut report = ImportReport::default();
        keep_urls_apart(&mut docs, "en", &mut report);
        let urls: Vec<&str> = docs.iter().map(|d| d.url.as_str()).collect();
        // Two pages of one language at one URL are left for the build to name.
        assert_eq!(
            urls,
            [
                "/zh/blog/Welcome/",
                "/blog/Welcome/",
                "/zh/blog/other/",
                "/fr/x/",
                "/fr/x/"
            ]
        );
        assert_eq!(
            report.relocated,
            [(
                "content/blog/welcome.md".to_owned(),
                "/zh/blog/Welcome/".to_owned()
            )]
        );
    }
}
