//! docs/templates.md is the reference of what a template can use; these
//! tests hold it to the code. Every name a context serializes (each field
//! of each view, at each place a template finds it), every function,
//! filter and test of the environment, every template of the default theme
//! and every word of its English table must be documented there, and the
//! page may document nothing that is gone. A failure names what is missing
//! and the section to add it to.
//!
//! A value of the context is matched to the section describing its type by
//! the place it is at: a section's `Seen as:` line names each place, as
//! `post.toc[].children[]` (`[]` for a list's items). So the type list is
//! the reference itself, and `every_part` is the one place here to extend.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value as Json;

use super::*;
use crate::source::highlight::Highlight;

const REFERENCE: &str = "docs/templates.md";

/// The chapters of the reference that list names of one kind.
const TOP_LEVEL: &str = "Top-level variables";
const TEMPLATES: &str = "Templates";
const CALLABLES: &str = "Functions, filters and tests";

fn reference() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(REFERENCE);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What a context borrows: the language's site view, its view, its words
/// (the default theme's English table) and the sitemap.
struct Borrowed {
    site: Shared<SiteView>,
    lang: Shared<LangView>,
    words: Shared<BTreeMap<String, String>>,
    menus: Shared<BTreeMap<String, Vec<MenuView>>>,
    feeds: Shared<Vec<FeedLink>>,
    sitemap: Vec<SitemapEntry>,
}

impl Borrowed {
    fn new() -> Borrowed {
        let words = toml::from_str(include_str!("../../i18n/en.toml"))
            .expect("i18n/en.toml is a table of strings");
        let entry = |name: &str, url: &str, children| MenuView {
            name: name.into(),
            url: url.into(),
            weight: 1,
            identifier: name.into(),
            children,
        };
        let menus = BTreeMap::from([(
            "main".to_owned(),
            vec![entry(
                "Articles",
                "/blog/fr/",
                vec![entry("Rust", "/blog/fr/tags/rust/", Vec::new())],
            )],
        )]);
        Borrowed {
            menus: Shared::new(menus),
            feeds: Shared::new(vec![feed_link()]),
            site: Shared::new(SiteView {
                title: "My blog".into(),
                description: Some("Notes on things".into()),
                extra: extra(),
                base_url: "https://example.org".into(),
                base_path: "/blog".into(),
                default_language: "en".into(),
                languages: vec![LanguageLink {
                    code: "fr".into(),
                    name: "Français".into(),
                    home_url: "/blog/fr/".into(),
                }],
            }),
            lang: Shared::new(LangView {
                code: "fr".into(),
                name: "Français".into(),
                dir: "ltr",
                home_url: "/blog/fr/".into(),
                tags_url: "/blog/fr/tags/".into(),
                archive_url: "/blog/fr/archive/".into(),
                taxonomies: vec![taxonomy()],
            }),
            words: Shared::words(words),
            sitemap: vec![SitemapEntry {
                loc: "https://example.org/blog/fr/".into(),
                alternates: vec![alternate()],
                x_default: Some("https://example.org/blog/".into()),
                lastmod: Some("2024-05-01T09:00:00Z".into()),
            }],
        }
    }
}

fn alternate() -> Alternate {
    Alternate {
        code: "fr".into(),
        url: "/blog/fr/posts/bonjour/".into(),
    }
}

fn tag() -> TagLink {
    TagLink {
        name: "voyage".into(),
        url: "/blog/fr/tags/voyage/".into(),
    }
}

fn taxonomy() -> TaxonomyLink {
    TaxonomyLink {
        name: "series".into(),
        title: "Séries".into(),
        url: "/blog/fr/series/".into(),
    }
}

/// Each taxonomy's links, of one taxonomy, so that its items are walked.
fn taxonomies() -> BTreeMap<String, Vec<TagLink>> {
    BTreeMap::from([("series".into(), vec![tag()])])
}

fn tag_count() -> TagCount {
    TagCount {
        name: "voyage".into(),
        url: "/blog/fr/tags/voyage/".into(),
        count: 3,
    }
}

fn link() -> Link {
    Link {
        title: "Avant".into(),
        url: "/blog/fr/posts/avant/".into(),
    }
}

/// A heading with one under it, so that both levels are walked.
fn toc() -> Vec<TocEntry> {
    let entry = |level, id: &str, children| TocEntry {
        level,
        id: id.into(),
        title: id.into(),
        url: format!("#{id}"),
        children,
    };
    vec![entry(2, "depart", vec![entry(3, "train", Vec::new())])]
}

/// A site's own map, left empty: its keys are the site's, not folio's.
fn extra() -> Json {
    Json::Object(Default::default())
}

/// A body, as it is handed to the template when the page is rendered.
fn body() -> Option<Value> {
    Some(Value::from_safe_string("<p>Bonjour.</p>".into()))
}

/// A post as a list shows it.
fn item() -> Value {
    Value::from(minijinja::value::Serde(ListItem {
        kind: "post",
        title: "Bonjour".into(),
        url: "/blog/fr/posts/bonjour/".into(),
        date: "2024-05-01".into(),
        date_display: "1 mai 2024".into(),
        date_iso: "2024-05-01T11:00:00+02:00".into(),
        year: "2024".into(),
        summary: "<p>Bonjour.</p>".into(),
        description: Some("Un bonjour".into()),
        tags: vec![tag()],
        taxonomies: taxonomies(),
        word_count: 1,
        reading_time: 1,
        extra: extra(),
    }))
}

/// A post with every optional field set.
fn post() -> PostView {
    PostView {
        id: "01HWSP3MM02BC0VWVKC580KT23".into(),
        title: "Bonjour".into(),
        slug: "bonjour".into(),
        date: "2024-05-01".into(),
        date_display: "1 mai 2024".into(),
        date_iso: "2024-05-01T11:00:00+02:00".into(),
        updated: Some("2024-05-03".into()),
        updated_display: Some("3 mai 2024".into()),
        updated_iso: Some("2024-05-03T12:00:00+02:00".into()),
        tags: vec![tag()],
        taxonomies: taxonomies(),
        related: vec![item()],
        description: Some("Un bonjour".into()),
        image: Some("https://example.org/blog/fr/posts/bonjour/a.jpg".into()),
        summary: "<p>Bonjour.</p>".into(),
        url: "/blog/fr/posts/bonjour/".into(),
        toc: toc(),
        word_count: 1,
        reading_time: 1,
        newer: Some(link()),
        older: Some(link()),
        extra: extra(),
        source_hash: "83c8c45e".into(),
        content: body(),
    }
}

/// One context holding every part a page may have, each optional field
/// set and each list given an item, so that its serialization shows every
/// name a template can meet. A new part or field of a context is added
/// here, and then to the reference.
fn section() -> SectionView {
    SectionView {
        title: "Articles".into(),
        description: Some("Tout ce qui est écrit ici".into()),
        content: Value::from_safe_string("<p>Bienvenue.</p>".into()),
        url: "/blog/fr/posts/".into(),
        path: "posts".into(),
        kind: "posts",
        sort_by: "date",
        extra: extra(),
        subsections: vec![SectionLink {
            title: "Rust".into(),
            url: "/blog/fr/posts/rust/".into(),
            count: 3,
        }],
    }
}

fn every_part(borrowed: &Borrowed) -> Context<'_> {
    Context {
        site: &borrowed.site,
        lang: &borrowed.lang,
        i18n: &borrowed.words,
        menus: &borrowed.menus,
        url: "/blog/fr/posts/bonjour/".into(),
        feeds: &borrowed.feeds,
        feed_url: Some("/blog/fr/atom.xml".into()),
        list_feeds: vec![feed_link()],
        alternates: vec![alternate()],
        x_default: Some("/blog/posts/hello/".into()),
        switcher: vec![SwitchLink {
            code: "fr".into(),
            name: "Français".into(),
            url: "/blog/fr/posts/bonjour/".into(),
            current: true,
            translated: true,
        }],
        post: Some(post()),
        page: Some(PageView {
            title: "À propos".into(),
            description: Some("Qui écrit ici".into()),
            image: Some("https://example.org/blog/moi.jpg".into()),
            extra: extra(),
            url: "/blog/fr/about/".into(),
            tags: vec![tag()],
            taxonomies: taxonomies(),
            toc: toc(),
            word_count: 1,
            reading_time: 1,
            source_hash: "43a150d4".into(),
            content: body(),
        }),
        posts: Some(vec![item()]),
        all_posts: Some(vec![item()]),
        archive: Some(vec![ArchiveYear {
            year: "2024".into(),
            posts: vec![ArchiveEntry {
                title: "Bonjour".into(),
                url: "/blog/fr/posts/bonjour/".into(),
                date: "2024-05-01".into(),
                date_display: "1 mai 2024".into(),
                date_iso: "2024-05-01T11:00:00+02:00".into(),
            }],
        }]),
        paginator: Some(Paginator {
            current: 2,
            total: 3,
            newer_url: Some("/blog/fr/".into()),
            older_url: Some("/blog/fr/page/3/".into()),
        }),
        taxonomy: Some(taxonomy()),
        terms: Some(vec![tag_count()]),
        term: Some(tag_count()),
        section: Some(section()),
        feed: Some(FeedView {
            id: "https://example.org/blog/fr/atom.xml".into(),
            title: "Mon blog".into(),
            home_url: "https://example.org/blog/fr/".into(),
            updated: "2024-05-03T10:00:00Z".into(),
            updated_rfc822: "Fri, 03 May 2024 10:00:00 +0000".into(),
            author: "Ada".into(),
            term: Some("voyage".into()),
            taxonomy: Some(taxonomy()),
            section: Some("Articles".into()),
        }),
        entries: Some(vec![FeedEntry {
            id: "urn:uuid:018f3361-d280-12d8-0df3-73615009e843".into(),
            title: "Bonjour".into(),
            url: "https://example.org/blog/fr/posts/bonjour/".into(),
            published: "2024-05-01T09:00:00Z".into(),
            published_rfc822: "Wed, 01 May 2024 09:00:00 +0000".into(),
            updated: "2024-05-03T10:00:00Z".into(),
            summary: "<p>Bonjour.</p>".into(),
            description: Some("Un bonjour".into()),
            content: Some("<p>Bonjour.</p>\n<p>Le reste.</p>".into()),
            tags: vec!["voyage".into()],
            authors: vec!["Ada".into()],
        }]),
        redirect: Some(RedirectView {
            url: "https://example.org/blog/fr/posts/bonjour/".into(),
            path: "/blog/fr/posts/bonjour/".into(),
            title: "Bonjour".into(),
        }),
        sitemap: Some(&borrowed.sitemap),
    }
}

/// A feed of a list, as `<link rel="alternate">` names it.
fn feed_link() -> FeedLink {
    FeedLink {
        url: "/blog/fr/atom.xml".into(),
        media_type: "application/atom+xml",
        format: "atom",
        title: "Flux Atom".into(),
    }
}

/// A part of the reference under a heading. Fenced code is left out: a
/// template's `#` or `|` there is no heading or row.
struct Section<'d> {
    heading: &'d str,
    /// Down to the next heading.
    own: Vec<&'d str>,
    /// Down to the next heading of its level or above.
    whole: Vec<&'d str>,
}

fn sections(doc: &str) -> Vec<Section<'_>> {
    let mut in_code = false;
    let lines: Vec<&str> = doc
        .lines()
        .filter(|line| {
            let fence = line.starts_with("```");
            in_code ^= fence;
            !fence && !in_code
        })
        .collect();
    let headings: Vec<(usize, usize, &str)> = lines
        .iter()
        .enumerate()
        .filter_map(|(at, line)| {
            let level = line.len() - line.trim_start_matches('#').len();
            let heading = line[level..].strip_prefix(' ')?;
            (level > 0).then_some((at, level, heading.trim()))
        })
        .collect();
    headings
        .iter()
        .enumerate()
        .map(|(n, &(at, level, heading))| {
            let next = |deeper_too: bool| {
                headings[n + 1..]
                    .iter()
                    .find(|&&(_, other, _)| deeper_too || other <= level)
                    .map_or(lines.len(), |&(next, _, _)| next)
            };
            Section {
                heading,
                own: lines[at + 1..next(true)].to_vec(),
                whole: lines[at + 1..next(false)].to_vec(),
            }
        })
        .collect()
}

/// The text between backticks.
fn quoted(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

impl<'d> Section<'d> {
    /// The places a template finds the type this section describes.
    fn seen_as(&self) -> Vec<&'d str> {
        self.own
            .iter()
            .filter_map(|line| line.strip_prefix("Seen as:"))
            .flat_map(quoted)
            .collect()
    }

    /// The names its tables document: what the first cell of a row quotes,
    /// without a function's arguments (`t(key)` documents `t`).
    fn names(&self, lines: &[&'d str]) -> BTreeSet<&'d str> {
        lines
            .iter()
            .filter_map(|line| line.strip_prefix('|')?.split('|').next())
            .flat_map(quoted)
            .map(|name| name.split('(').next().unwrap_or(name))
            .collect()
    }
}

/// The check of the reference against a context: which names it lacks or
/// has in excess.
struct Check<'d> {
    sections: Vec<Section<'d>>,
    problems: Vec<String>,
    /// The names met in the objects each section describes, by heading.
    met: BTreeMap<&'d str, BTreeSet<String>>,
    paths: BTreeSet<String>,
}

impl<'d> Check<'d> {
    fn section(&self, heading: &str) -> Option<&Section<'d>> {
        self.sections.iter().find(|s| s.heading == heading)
    }

    /// The section of the value at `path`: the top level's, or the one
    /// seen as `path`.
    fn describing(&self, path: &str) -> Option<&Section<'d>> {
        if path.is_empty() {
            return self.section(TOP_LEVEL);
        }
        self.sections.iter().find(|s| s.seen_as().contains(&path))
    }

    fn walk(&mut self, path: &str, value: &Json) {
        let file = file!();
        match value {
            // One of the site's own maps (`extra`), which `every_part`
            // leaves empty: nothing in it is folio's to document.
            Json::Object(fields) if fields.is_empty() => {}
            Json::Object(fields) => {
                self.paths.insert(path.to_owned());
                let Some(section) = self.describing(path) else {
                    let fields: Vec<&str> = fields.keys().map(String::as_str).collect();
                    self.problems.push(format!(
                        "`{path}` holds a value no section of {REFERENCE} describes: add one \
                         (`### TypeName`, then `Seen as: `{path}``) with a row for each of its \
                         fields: {fields:?}"
                    ));
                    return;
                };
                let (heading, documented) = (section.heading, section.names(&section.own));
                for (key, value) in fields {
                    let child = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    if !documented.contains(key.as_str()) {
                        self.problems.push(format!(
                            "`{child}` is not in {REFERENCE}: add the row \
                             `| `{key}` | type | what it is | example |` under “{heading}”"
                        ));
                    }
                    self.met.entry(heading).or_default().insert(key.clone());
                    self.walk(&child, value);
                }
            }
            Json::Array(items) => {
                for item in items {
                    self.walk(&format!("{path}[]"), item);
                }
                // A recursive type ends with an empty list of itself.
                let (parent, key) = path.rsplit_once('.').unwrap_or(("", path));
                let recursion_ends = parent.split('.').any(|part| part == format!("{key}[]"));
                if items.is_empty() && !recursion_ends {
                    self.problems.push(format!(
                        "`{path}` is empty in the context of {file}: give it an item in \
                         `every_part`, so that its fields are checked"
                    ));
                }
            }
            Json::Null => self.problems.push(format!(
                "`{path}` is none in the context of {file}: set it in `every_part`, so that \
                 what it holds is checked"
            )),
            _ => {}
        }
    }

    /// What the reference documents that the context does not have.
    fn excess(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for section in &self.sections {
            for path in section.seen_as() {
                if !self.paths.contains(path) {
                    problems.push(format!(
                        "{REFERENCE} says “{}” is seen as `{path}`, which no context has: \
                         correct its `Seen as:` line",
                        section.heading
                    ));
                }
            }
            let Some(met) = self.met.get(section.heading) else {
                continue;
            };
            for name in section.names(&section.own) {
                if !met.contains(name) {
                    problems.push(format!(
                        "{REFERENCE} documents `{name}` under “{}”, which no context has: \
                         remove its row",
                        section.heading
                    ));
                }
            }
        }
        problems
    }
}

/// What the reference lacks or has in excess, as `every_part` shows a
/// context.
fn context_problems(doc: &str) -> Vec<String> {
    let borrowed = Borrowed::new();
    let context = serde_json::to_value(every_part(&borrowed)).expect("a context serializes");
    let mut check = Check {
        sections: sections(doc),
        problems: Vec::new(),
        met: BTreeMap::new(),
        paths: BTreeSet::new(),
    };
    check.walk("", &context);
    let excess = check.excess();
    check.problems.extend(excess);
    check.problems
}

#[test]
fn the_reference_documents_every_name_a_context_holds() {
    let problems = context_problems(&reference());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_field_missing_from_the_reference_is_named_with_where_to_add_it() {
    let doc = reference();
    // What the reference lacks already is the other test's to report.
    let before = context_problems(&doc);
    let new_problems = |changed: &str| {
        let mut after = context_problems(changed);
        after.retain(|problem| !before.contains(problem));
        after
    };
    let row = "| `reading_time` |";
    let without: String = doc
        .lines()
        .filter(|line| !line.starts_with(row))
        .map(|line| format!("{line}\n"))
        .collect();
    let problem = |path: &str, heading: &str| {
        format!(
            "`{path}` is not in {REFERENCE}: add the row \
             `| `reading_time` | type | what it is | example |` under “{heading}”"
        )
    };
    assert_eq!(
        new_problems(&without),
        [
            problem("all_posts[].reading_time", "ListItem"),
            problem("i18n.reading_time", "The theme's words (`i18n`)"),
            problem("page.reading_time", "PageView"),
            problem("post.reading_time", "PostView"),
            problem("post.related[].reading_time", "ListItem"),
            problem("posts[].reading_time", "ListItem"),
        ]
    );
    let unseen = doc.replacen("Seen as: `paginator`", "Seen as: `pager`", 1);
    assert_eq!(
        new_problems(&unseen),
        [
            format!(
                "`paginator` holds a value no section of {REFERENCE} describes: add one \
                 (`### TypeName`, then `Seen as: `paginator``) with a row for each of its \
                 fields: [\"current\", \"newer_url\", \"older_url\", \"total\"]"
            ),
            format!(
                "{REFERENCE} says “Paginator” is seen as `pager`, which no context has: \
                 correct its `Seen as:` line"
            ),
        ]
    );
}

/// Every function, filter and test a template can call.
fn callables(env: &Environment<'_>) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = env.globals().map(|(name, _)| name.to_owned()).collect();
    // minijinja names an environment's filters and tests only in its debug
    // output: `filters: ["abs", …]`.
    let debug = format!("{env:?}");
    for field in ["filters", "tests"] {
        let list = debug
            .split_once(&format!("{field}: ["))
            .and_then(|(_, rest)| rest.split_once(']'))
            .map(|(list, _)| list)
            .unwrap_or_else(|| panic!("minijinja's debug output lists no {field}: {debug}"));
        names.extend(
            list.split(", ")
                .map(|name| name.trim_matches('"').to_owned()),
        );
    }
    names
}

#[test]
fn the_reference_documents_every_function_filter_and_test() {
    let theme = Theme::from_sources(BTreeMap::new(), Vec::new());
    let env = theme
        .environment(&Highlight::default(), &super::Requests::without_files())
        .unwrap();
    let names = callables(&env);
    let minijinja = callables(&Environment::new());
    // folio's own names are those a plugin may not take.
    let added: Vec<&String> = names.difference(&minijinja).collect();
    assert!(
        added
            .iter()
            .all(|name| BUILT_IN_CALLABLES.contains(&name.as_str())),
        "add each of {added:?} to BUILT_IN_CALLABLES in src/render/mod.rs"
    );
    let unregistered: Vec<&str> = BUILT_IN_CALLABLES
        .iter()
        .copied()
        .filter(|name| !names.contains(*name))
        .collect();
    assert!(
        unregistered.is_empty(),
        "BUILT_IN_CALLABLES in src/render/mod.rs names {unregistered:?}, which templates cannot call"
    );
    let doc = reference();
    let sections = sections(&doc);
    let chapter = sections
        .iter()
        .find(|s| s.heading == CALLABLES)
        .unwrap_or_else(|| panic!("{REFERENCE} has no “{CALLABLES}”"));
    let documented = chapter.names(&chapter.whole);
    let mut problems = Vec::new();
    for name in &names {
        if !documented.contains(name.as_str()) {
            problems.push(format!(
                "`{name}` is not in {REFERENCE}: add a row for it under “{CALLABLES}”"
            ));
        }
    }
    for name in documented {
        if !names.contains(name) {
            problems.push(format!(
                "{REFERENCE} documents `{name}` under “{CALLABLES}”, which templates cannot \
                 call: remove it"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reference_documents_every_template_of_the_default_theme() {
    let doc = reference();
    let sections = sections(&doc);
    let chapter = sections
        .iter()
        .find(|s| s.heading == TEMPLATES)
        .unwrap_or_else(|| panic!("{REFERENCE} has no “{TEMPLATES}”"));
    let documented = chapter.names(&chapter.own);
    let theme: BTreeSet<&str> = DEFAULT_THEME.iter().map(|(name, _)| *name).collect();
    let missing = theme.difference(&documented).map(|name| {
        format!("`{name}` is not in {REFERENCE}: add a row for it under “{TEMPLATES}”")
    });
    let gone = documented.difference(&theme).map(|name| {
        format!(
            "{REFERENCE} documents `{name}` under “{TEMPLATES}”, which the default theme does \
             not have: remove its row"
        )
    });
    let problems: Vec<String> = missing.chain(gone).collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_examples_of_the_reference_render() {
    let theme = Theme::from_sources(BTreeMap::new(), Vec::new());
    let env = theme
        .environment(&Highlight::default(), &super::Requests::without_files())
        .unwrap();
    let borrowed = Borrowed::new();
    let context = Value::from(minijinja::value::Serde(every_part(&borrowed)));
    let doc = reference();
    let mut examples = Vec::new();
    let mut lines = doc.lines();
    while lines.any(|line| line == "```jinja") {
        let example: Vec<&str> = lines.by_ref().take_while(|line| *line != "```").collect();
        examples.push(example.join("\n"));
    }
    assert!(!examples.is_empty(), "{REFERENCE} has no ```jinja example");
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|example| {
            let error = env
                .render_named_str("example.html", example, context.clone())
                .err()?;
            Some(format!("{REFERENCE}'s example\n{example}\nfails: {error}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
