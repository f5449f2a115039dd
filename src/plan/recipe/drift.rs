//! Each kind of page keeps its inputs and its context together: for every
//! change to a site, a page whose context changed must have a new
//! fingerprint (else it would not be rendered again), and a page whose
//! fingerprint changed must show something new, or show a document whose
//! source changed (a document stands in whole, by its digest), or read a
//! setting or word that changed (the config and a language's words stand in
//! whole too).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::*;
use crate::plugin::SearchIndex;
use crate::source::section::{is_section_file, parse_section};

/// A site: its site.toml, its sources (path under content/ → text) and the
/// words of `i18n/fr.toml`.
#[derive(Clone)]
struct Fixture {
    config: String,
    sources: BTreeMap<&'static str, String>,
    words_fr: String,
}

/// What one page is, seen from outside its recipe.
struct Seen {
    kind: &'static str,
    /// Everything its template is handed (and an output plugin is given).
    shown: String,
    fingerprint: String,
    /// The documents among its inputs, by path and source hash.
    documents: Vec<(String, String)>,
    /// The config and the words of its language, as digests.
    settings: (String, Option<String>),
}

fn post(title: &str, date: &str, more: &str, body: &str) -> String {
    format!("---\ntitle: {title}\ndate: {date}\n{more}---\n{body}\n")
}

fn fixture() -> Fixture {
    let config = "title = \"T\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n\
                  paginate = 2\nfeed_limit = 3\nauthor = \"Ann\"\n\
                  feeds = [\"atom.xml\", { file = \"index.xml\", format = \"rss\" }, \"feed.json\"]\n\
                  taxonomies = [\"tags\", \"series\"]\n\
                  feeds_for = [\"home\", \"tags\", \"series\"]\n\
                  [languages.en]\nname = \"English\"\n[languages.fr]\nname = \"Français\"\n";
    let sources = BTreeMap::from([
        (
            "en/posts/a.md",
            post("A", "2024-05-01", "tags: [x]\n", "First.\n\nMore of a."),
        ),
        (
            "en/posts/b.md",
            post(
                "B",
                "2024-05-02",
                "tags: [x, y]\nseries: [s]\ndescription: About b\n",
                "Second.\n\nMore of b.",
            ),
        ),
        (
            "en/posts/c.md",
            post(
                "C",
                "2024-05-03",
                "tags: [y]\naliases: [/old/c/]\n",
                "Third.",
            ),
        ),
        (
            "en/posts/d.md",
            post("D", "2024-05-04", "tags: [zé]\nseries: [s]\n", "Fourth."),
        ),
        (
            "fr/posts/a.md",
            post("A fr", "2024-05-01", "tags: [x]\n", "Premier."),
        ),
        (
            "en/about.md",
            "---\ntitle: About\n---\nAbout us.\n".to_owned(),
        ),
        (
            "en/posts/_index.md",
            "---\ntitle: Writing\nfeed: true\n---\nAll of it.\n".to_owned(),
        ),
        (
            "en/docs/_index.md",
            "---\ntitle: Docs\nsort_by: weight\n---\n".to_owned(),
        ),
        (
            "en/docs/guides/_index.md",
            "---\ntitle: Guides\n---\n".to_owned(),
        ),
        ("en/docs/ref/_index.md", "---\ntitle: Ref\n---\n".to_owned()),
        (
            "en/docs/a.md",
            "---\ntitle: Alpha\nweight: 2\n---\nA.\n".to_owned(),
        ),
        (
            "en/docs/b.md",
            "---\ntitle: Beta\nweight: 1\n---\nB.\n".to_owned(),
        ),
    ]);
    Fixture {
        config: config.to_owned(),
        sources,
        words_fr: "tags = \"Étiquettes\"\nseries = \"Séries\"\n".to_owned(),
    }
}

/// A change to the site, by name.
type Change = (&'static str, Box<dyn Fn(&mut Fixture)>);

/// `from` replaced by `to` in the source at `path` (or in site.toml).
fn edit(path: &'static str, from: &'static str, to: &'static str) -> Box<dyn Fn(&mut Fixture)> {
    Box::new(move |site: &mut Fixture| {
        let text = match path {
            "site.toml" => &mut site.config,
            "i18n/fr.toml" => &mut site.words_fr,
            _ => site.sources.get_mut(path).unwrap(),
        };
        assert!(text.contains(from), "{path} has no {from:?}");
        *text = text.replacen(from, to, 1);
    })
}

fn changes() -> Vec<Change> {
    let mut changes = document_changes();
    changes.extend(section_changes());
    changes.extend(setting_changes());
    changes
}

/// Changes to what the sources say.
fn document_changes() -> Vec<Change> {
    vec![
        ("retitle b", edit("en/posts/b.md", "title: B", "title: Bee")),
        (
            "b's body",
            edit("en/posts/b.md", "More of b.", "Much more of b."),
        ),
        (
            "b's summary",
            edit("en/posts/b.md", "Second.", "Second, rewritten."),
        ),
        (
            "b's description",
            edit("en/posts/b.md", "About b", "All about b"),
        ),
        (
            "b redated",
            edit("en/posts/b.md", "2024-05-02", "2024-05-05"),
        ),
        (
            "b updated",
            edit(
                "en/posts/b.md",
                "description:",
                "updated: 2024-06-01\ndescription:",
            ),
        ),
        ("b's tags", edit("en/posts/b.md", "[x, y]", "[x, y, w]")),
        (
            "a page tagged",
            edit("en/about.md", "title: About", "title: About\ntags: [x]"),
        ),
        (
            "b's series",
            edit("en/posts/b.md", "series: [s]", "series: [s, t]"),
        ),
        ("tag spelled anew", edit("en/posts/a.md", "[x]", "[X]")),
        (
            "b's authors",
            edit(
                "en/posts/b.md",
                "description:",
                "authors: [Bo]\ndescription:",
            ),
        ),
        (
            "c a draft",
            edit("en/posts/c.md", "tags:", "draft: true\ntags:"),
        ),
        (
            "an alias for a",
            edit("en/posts/a.md", "tags:", "aliases: [/old/a/]\ntags:"),
        ),
        ("about retitled", edit("en/about.md", "About", "Who we are")),
        ("fr a retitled", edit("fr/posts/a.md", "A fr", "Un")),
        (
            "fr a unlinked",
            edit("fr/posts/a.md", "tags:", "translation_key: solo\ntags:"),
        ),
        (
            "a new post",
            Box::new(|site: &mut Fixture| {
                site.sources.insert(
                    "en/posts/e.md",
                    post("E", "2024-05-06", "tags: [y]\n", "Fifth."),
                );
            }),
        ),
        (
            "d removed",
            Box::new(|site: &mut Fixture| {
                site.sources.remove("en/posts/d.md");
            }),
        ),
    ]
}

/// Changes to the sections: their `_index.md` files, and what they list.
fn section_changes() -> Vec<Change> {
    vec![
        (
            "section retitled",
            edit("en/posts/_index.md", "Writing", "Essays"),
        ),
        (
            "section's text",
            edit("en/posts/_index.md", "All of it.", "Everything."),
        ),
        (
            "docs page reweighed",
            edit("en/docs/a.md", "weight: 2", "weight: 0"),
        ),
        ("docs page retitled", edit("en/docs/a.md", "Alpha", "Alef")),
        (
            "docs sorted by title",
            edit("en/docs/_index.md", "sort_by: weight", "sort_by: title"),
        ),
        (
            "ref weighed before guides",
            edit(
                "en/docs/ref/_index.md",
                "title: Ref",
                "title: Ref\nweight: -1",
            ),
        ),
        (
            "docs a draft",
            edit(
                "en/docs/_index.md",
                "title: Docs",
                "title: Docs\ndraft: true",
            ),
        ),
        (
            "a field of the author's in an index",
            edit("en/posts/_index.md", "feed: true", "feed: true\nicon: pen"),
        ),
        (
            "a docs page in fr",
            Box::new(|site: &mut Fixture| {
                site.sources
                    .insert("fr/docs/a.md", "---\ntitle: Alpha fr\n---\nA.\n".to_owned());
            }),
        ),
        (
            "a section inside docs",
            Box::new(|site: &mut Fixture| {
                site.sources.insert(
                    "en/docs/deep/_index.md",
                    "---\ntitle: Deep\n---\n".to_owned(),
                );
            }),
        ),
    ]
}

/// Changes to site.toml and to the words.
fn setting_changes() -> Vec<Change> {
    vec![
        ("author", edit("site.toml", "Ann", "Bea")),
        (
            "term slugs in ASCII",
            edit(
                "site.toml",
                "paginate = 2",
                "paginate = 2\nterm_slugs = \"ascii\"",
            ),
        ),
        (
            "feed_limit",
            edit("site.toml", "feed_limit = 3", "feed_limit = 2"),
        ),
        (
            "paginate",
            edit("site.toml", "paginate = 2", "paginate = 3"),
        ),
        (
            "a feed file renamed",
            edit("site.toml", "\"feed.json\"", "\"posts.json\""),
        ),
        (
            "whole posts in feeds",
            edit(
                "site.toml",
                "feeds_for",
                "feed_content = \"full\"\nfeeds_for",
            ),
        ),
        (
            "no tag feeds",
            edit("site.toml", "[\"home\", \"tags\", ", "[\"home\", "),
        ),
        (
            "no series feeds",
            edit("site.toml", ", \"series\"]\n[", "]\n["),
        ),
        ("fr's series", edit("i18n/fr.toml", "Séries", "Suites")),
        (
            "site title",
            edit("site.toml", "title = \"T\"", "title = \"U\""),
        ),
        ("fr's name", edit("site.toml", "Français", "French")),
        ("base_url", edit("site.toml", "example.org", "example.com")),
        (
            "fr's words",
            edit("i18n/fr.toml", "Étiquettes", "Mots-clés"),
        ),
    ]
}

/// Every kind [`kind_of`] names.
const EVERY_KIND: [&str; 13] = [
    "document",
    "home",
    "archive",
    "taxonomy",
    "term",
    "home feed",
    "term feed",
    "section",
    "section feed",
    "sitemap",
    "site file",
    "redirect",
    "extra",
];

fn kind_of(recipe: &Recipe) -> &'static str {
    match recipe {
        Recipe::Document(_) => "document",
        Recipe::Home(_) => "home",
        Recipe::Archive(_) => "archive",
        Recipe::TaxonomyIndex(_) => "taxonomy",
        Recipe::Term(_) => "term",
        Recipe::Section(_) => "section",
        Recipe::Feed(Feed {
            of: FeedOf::Home, ..
        }) => "home feed",
        Recipe::Feed(Feed {
            of: FeedOf::Term(..),
            ..
        }) => "term feed",
        Recipe::Feed(Feed {
            of: FeedOf::Section(_),
            ..
        }) => "section feed",
        Recipe::Sitemap(_) => "sitemap",
        Recipe::SiteFile(_) => "site file",
        Recipe::Redirect(_) => "redirect",
        Recipe::Extra(_) => "extra",
    }
}

/// Every page of `site`, planned afresh, by output path.
/// What a build of `site` plans from, read as a build reads it (its words
/// under `root`); the documents in their order, by path.
struct Read {
    config: Config,
    plugins: Plugins,
    theme: Theme,
    i18n: I18n,
    records: Vec<Record>,
    sections: Vec<SectionFile>,
}

const EVERYTHING: Visibility = Visibility {
    drafts: false,
    future: false,
    expired: false,
    now_ms: i64::MAX,
};

fn read(site: &Fixture, root: &Path) -> Read {
    std::fs::create_dir(root.join("i18n")).unwrap();
    std::fs::write(root.join("i18n/fr.toml"), &site.words_fr).unwrap();
    let config = Config::parse(&site.config, Path::new("site.toml")).unwrap();
    let mut plugins = Plugins::new();
    plugins.output(SearchIndex::new());
    let theme = Theme::load(root, None, &plugins).unwrap();
    let i18n = I18n::load(root, &config).unwrap();
    let mut records: Vec<Record> = Vec::new();
    let mut sections = Vec::new();
    for (rel, text) in &site.sources {
        let mut source = crate::source::discover::classify(rel, &config).unwrap();
        source.path = format!("content/{rel}");
        let hash = crate::model::hash::source_hash(text.as_bytes());
        let settings = (&config, &plugins, &Default::default());
        if is_section_file(&source) {
            let read = parse_section(&source, text.as_bytes(), hash, (settings.0, settings.2));
            sections.push(read.unwrap());
        } else {
            let parsed = crate::source::parse::parse(&source, text.as_bytes(), hash, settings);
            records.push(parsed.unwrap().record);
        }
    }
    records.sort_by(|a, b| a.source.path.cmp(&b.source.path));
    Read {
        config,
        plugins,
        theme,
        i18n,
        records,
        sections,
    }
}

fn observe(site: &Fixture) -> BTreeMap<String, Seen> {
    let root = tempfile::tempdir().unwrap();
    let read = read(site, root.path());
    let views = Views::new(&read.config, &read.i18n);
    let (plan, _) = plan(
        &read.config,
        &views,
        &read.theme,
        (read.records, read.sections),
        Sources::documents_only(&read.plugins),
        EVERYTHING,
        0,
    )
    .unwrap();
    let every = vec![true; plan.specs.len()];
    let sitemap = plan.sitemap_if_selected(&plan.specs, &every);
    plan.specs
        .iter()
        .map(|spec| {
            let page = plan.page(spec, sitemap.as_deref());
            let mut shown = serde_json::to_string(&page.context).unwrap();
            if let Some((_, given)) = plan.extra_documents(spec) {
                shown.push_str(&format!("{given:?}"));
            }
            let lang = plan.language(spec);
            let seen = Seen {
                kind: kind_of(&spec.recipe),
                shown,
                fingerprint: spec.fingerprint.clone(),
                documents: documents_of(&plan, spec),
                settings: (plan.globals().to_owned(), plan.wording().get(lang).cloned()),
            };
            (spec.output.to_string(), seen)
        })
        .collect()
}

/// The sources that stand in whole among the inputs of `spec` (documents,
/// sections' `_index.md` files), by path and source hash.
fn documents_of(plan: &Plan<'_>, spec: &Spec) -> Vec<(String, String)> {
    let mut indices = Vec::new();
    let mut files = Vec::new();
    for part in plan.inputs(spec).parts {
        match part {
            Input::Document(i) => indices.push(i),
            Input::Documents(list) => indices.extend_from_slice(list),
            Input::PostsOf(lang) => indices.extend_from_slice(plan.model.posts_of(lang)),
            // Listed by what the page shows of them, not by their sources.
            Input::Listed(_) | Input::Title(_) | Input::Neighbour(_) | Input::Versions(_) => {}
            Input::SectionFile(f) => {
                let file = &plan.model.sections.files[f];
                files.push((file.path.clone(), file.hash.clone()));
            }
            Input::Text(_)
            | Input::Number(_)
            | Input::TermIndex(..)
            | Input::Sitemap
            | Input::SectionTitle(_) => {}
        }
    }
    files.extend(indices.into_iter().map(|i| {
        let record = &plan.records()[i];
        (record.source.path.clone(), record.source.hash.clone())
    }));
    files
}

#[test]
fn what_a_page_shows_is_in_its_fingerprint_and_nothing_else() {
    let before = observe(&fixture());
    let mut shown_anew: BTreeSet<&str> = BTreeSet::new();
    let mut kept: BTreeSet<&str> = BTreeSet::new();
    for (change, apply) in changes() {
        let mut site = fixture();
        apply(&mut site);
        let after = observe(&site);
        for (output, old) in &before {
            let Some(new) = after.get(output) else {
                continue;
            };
            let kind = old.kind;
            let fingerprint_changed = old.fingerprint != new.fingerprint;
            if old.shown != new.shown {
                assert!(
                    fingerprint_changed,
                    "{change}: {output} ({kind}) shows something new with the same fingerprint: its inputs miss what its context reads"
                );
                shown_anew.insert(kind);
            } else if fingerprint_changed {
                assert!(
                    old.documents != new.documents || old.settings != new.settings,
                    "{change}: {output} ({kind}) has a new fingerprint but shows nothing new: its inputs read what its context does not"
                );
            } else {
                kept.insert(kind);
            }
        }
    }
    for kind in EVERY_KIND {
        assert!(
            shown_anew.contains(kind),
            "no change showed anew a page of kind {kind}"
        );
        assert!(
            kept.contains(kind),
            "no change left alone a page of kind {kind}"
        );
    }
}

/// What a plan of the pages showing `documents`, changed alone, reads.
fn changed<'a>(documents: &'a [usize], plugins: &'a Plugins) -> Sources<'a> {
    Sources {
        changed_since: Some(ChangedSince {
            documents,
            retitled: &[],
        }),
        ..Sources::documents_only(plugins)
    }
}

#[test]
fn every_page_is_made_again_the_same_from_what_its_row_keeps() {
    let root = tempfile::tempdir().unwrap();
    let read = read(&fixture(), root.path());
    let views = Views::new(&read.config, &read.i18n);
    let theme = &read.theme;
    let documents = (read.records.clone(), read.sections.clone());
    let sources = Sources::documents_only(&read.plugins);
    let (whole, _) = plan(
        &read.config,
        &views,
        theme,
        documents,
        sources,
        EVERYTHING,
        0,
    )
    .unwrap();
    let every_page: Vec<usize> = (0..whole.specs.len()).collect();
    // Every document changed: each page shown is fingerprinted anew.
    let every_document: Vec<usize> = (0..read.records.len()).collect();
    let sources = changed(&every_document, &read.plugins);
    // Or none changed, and every row is a stub, read whole where the plan
    // reads more of it: by what it loads, from the records read.
    let stubs = changed(&[], &read.plugins);
    let claimed = super::site_file_urls(&read.config);
    let stubbed: Vec<Record> = read.records.iter().map(|r| r.as_stub(&claimed)).collect();
    let load = |records: &mut [Record], which: &[usize]| {
        for &i in which {
            if records[i].is_stub() {
                records[i] = read.records[i].clone();
            }
        }
        Ok(())
    };
    let (mut kinds, mut fewest) = (BTreeSet::new(), usize::MAX);
    // One page at a time: each is found by what its own row keeps.
    let pages = whole.kept_pages(&every_page);
    let as_stubs = pages.iter().map(|page| (page, stubs, stubbed.clone()));
    let as_read = (pages.iter()).map(|page| (page, sources, read.records.clone()));
    for ((output, kept), sources, records) in as_read.chain(as_stubs) {
        let (output, kept) = (output.clone(), kept.clone());
        let planned = &whole.specs[(whole.specs.iter())
            .position(|spec| spec.output.as_str() == output)
            .unwrap()];
        let shown = [(output.clone(), kept.page.clone())];
        let templates = whole.templates().to_vec();
        let stubbed = records.iter().any(Record::is_stub);
        let documents = (records, read.sections.clone());
        let some = plan_shown(
            (&read.config, &views, theme),
            documents,
            (sources, &shown, templates),
            // The arrangement the index would keep: checked against the
            // documents' own in a debug build.
            (EVERYTHING, Some(whole.model.arrangement())),
            (0, &load),
        )
        .unwrap();
        let Ok((some, _)) = some else {
            // The sitemap is made from every page: a plan of some has none.
            // A redirect is found by its document's URL, which a stub does
            // not hold (a redirect shown is one whose document was read
            // again, unless another's URL has the same key): every page is
            // planned instead.
            let kind = kind_of(&planned.recipe);
            assert!(
                kind == "sitemap" || (stubbed && kind == "redirect"),
                "{output} ({kind}) not made again"
            );
            continue;
        };
        let spec = (some.specs.iter())
            .find(|spec| spec.output.as_str() == output)
            .unwrap_or_else(|| panic!("{output} not made again"));
        assert_eq!(kind_of(&spec.recipe), kind_of(&planned.recipe), "{output}");
        assert_eq!(spec.template, planned.template, "{output}");
        assert_eq!(spec.url, planned.url, "{output}");
        assert_eq!(spec.fingerprint, planned.fingerprint, "{output}");
        let at = some.specs.iter().position(|s| s.output.as_str() == output);
        let kept_again = some.kept_pages(&[at.unwrap()]);
        assert_eq!(kept_again, [(output.clone(), kept)], "what its row keeps");
        kinds.insert(kind_of(&spec.recipe));
        if stubbed {
            fewest = fewest.min(some.records().iter().filter(|r| !r.is_stub()).count());
        }
    }
    let reached: BTreeSet<&str> = (EVERY_KIND.into_iter())
        .filter(|&kind| kind != "sitemap")
        .collect();
    assert_eq!(kinds, reached, "every kind but the sitemap");
    assert!(fewest < read.records.len() / 2, "{fewest} rows read whole");
}
