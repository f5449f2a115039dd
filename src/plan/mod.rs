//! Which pages the site has, what each one is rendered from, and which of
//! them must be rendered again.
//!
//! Owns the site's page model: a page per visible document (its bundle's
//! files beside it), and per language a paginated home, tag pages, their
//! feeds; a sitemap and robots.txt for the site; translations, `hreflang`
//! alternates and the language switcher; URLs turned into output paths;
//! and fingerprints: the hash of a page's template closure and of
//! everything its context is computed from (the config, its language's
//! words, and each document it shows, stood in for by its path and source
//! hash). A page whose fingerprint is unchanged and whose output file is
//! intact is not rendered, and its context is never built.

use std::borrow::{Borrow, Cow};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use jiff::Timestamp;
use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

use crate::model::asset::{AssetFacts, KeptFacts};
use crate::model::doc::{Heading, Kind, Record, TemplateChoice};
use crate::model::error::{Error, Problem, ProblemKind};
use crate::model::hash::hex;
use crate::model::id::format_ms;
use crate::model::url::{TermSlugs, push_encoded_segment, term_slug};
use crate::plugin::{DocumentSummary, LanguageDocuments, Plugins, stamp};
use crate::render::i18n::{I18n, Strings};
use crate::render::minify;
use crate::render::{
    Alternate, Context, FeedEntry, FeedLink, FeedView, LangView, LanguageLink, Link, ListItem,
    MenuView, PageView, Paginator, PostView, Reads, RedirectView, SectionLink, SectionView, Shared,
    SiteView, SitemapEntry, SwitchLink, TagCount, TagLink, TaxonomyLink, Theme, TocEntry,
};
use crate::source::bundle::Bundle;
use crate::source::config::{Config, text_direction};
use crate::source::discover::StaticFile;
use crate::source::image::{Drawn, Shown, Variant, location};
use crate::source::sass::{self, SassFile};
use crate::source::section::SectionFile;

mod arrangement;
mod assets;
mod hasher;
mod images;
mod links;
mod make;
mod menus;
mod model;
mod output;
mod page;
mod recipe;
mod sections;
mod stored;
mod views;

use arrangement::Arranged;
pub use arrangement::Arrangement;
use assets::PlannedAssets;
pub use assets::{AssetAt, AssetsBefore, WrittenWith};
use hasher::{KeyHasher, KeyPrefixes};
pub use images::drawn_copy;
use images::{DrawnImages, ShownImages};
use links::Places;
pub use links::links_read_whole_rows;
pub use make::{
    ChangedSince, Sheets, Sources, copies, plan, replan, same_place, same_section_place,
};
use make::{
    copies_and_model, documents_take_generated_places, fingerprinted_and_settled, language_recipes,
    retired_template, specs_of,
};
use menus::LanguageMenus;
pub use model::Model;
use model::{DocumentDigest, authors_of, extra_of};
pub use output::OutputPath;
use page::{Covered, DisplayDate, output_collisions, paginator};
pub use recipe::site_file_urls;
use recipe::{Input, Inputs, Recipe, document_recipe};
use sections::{Sections, section_url};
pub use stored::{KeptPage, Load, PlanOfShown, cover_keys, covers_any, plan_shown};
pub use views::{Views, Visibility};
use views::{
    archive_url, feed_links, feed_url, home_url, paginated, taxonomy_link, taxonomy_url, term_url,
};

/// A template's name: one of the theme's fixed ones, or one a document's
/// front matter asks for.
pub type Template = Cow<'static, str>;

/// One output file, with its context: a page that must be rendered.
pub struct Page<'a> {
    pub output: OutputPath,
    pub template: Template,
    pub context: Context<'a>,
    pub fingerprint: String,
}

/// One output file before its context is built: what it is, where it goes,
/// and its fingerprint.
pub struct Spec {
    pub output: OutputPath,
    pub template: Template,
    pub url: String,
    /// Hash of the template closure and of everything the page's context is
    /// computed from, a document standing in by its path and source hash.
    pub fingerprint: String,
    recipe: Recipe,
    /// What its template reads beyond its own context.
    reads: Reads,
}

impl Spec {
    /// Whether the sitemap lists it: every HTML page but the site's own
    /// files (its 404 page).
    fn in_sitemap(&self) -> bool {
        self.template.ends_with(".html")
            && !matches!(self.recipe, Recipe::SiteFile(_) | Recipe::Redirect(_))
    }

    /// The page that lists every HTML page of the site.
    pub fn is_sitemap(&self) -> bool {
        matches!(self.recipe, Recipe::Sitemap(_))
    }

    /// The document whose body the page shows, by index into the records.
    pub fn body_of(&self) -> Option<usize> {
        match self.recipe {
            Recipe::Document(recipe::Document(i)) => Some(i),
            _ => None,
        }
    }
}

/// A file to copy: a static file, or a bundle's beside its page; or a
/// stylesheet of `sass/` to compile. Its fingerprint is its stat (size,
/// mtime), with those of what a stylesheet uses, so an unchanged file is
/// not even read; a racy stat never matches.
#[derive(Debug, PartialEq, Eq)]
pub struct Copy {
    pub output: OutputPath,
    /// Relative to the site root.
    pub source: String,
    pub fingerprint: String,
    pub making: Making,
}

/// How a [`Copy`]'s output is made from its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Making {
    /// Its bytes, as they are.
    Verbatim,
    /// Compiled from Sass to CSS ([`crate::source::sass`]).
    Sass,
    /// A variant of an image a document shows ([`crate::source::image`]).
    Image {
        variant: Variant,
        /// The hash of the image's bytes, which the variant is made from.
        source_hash: String,
        /// A page that shows it, for an error to name.
        shown_by: String,
    },
}

/// Everything a build produces: the pages as specs (cheap to list and to
/// fingerprint), the static files to copy, and what it takes to build a
/// page's context when its fingerprint says it must be rendered.
pub struct Plan<'a> {
    pub specs: Vec<Spec>,
    pub copies: Vec<Copy>,
    config: &'a Config,
    views: &'a Views<'a>,
    model: Model,
    /// What the sitemap's fingerprint covers: every HTML page's URL and
    /// alternates.
    sitemap_key: String,
    /// Per source, the pages whose fingerprint covers it; made on the
    /// first [`replan`] that needs it.
    dependents: Option<Dependents>,
    /// The templates its pages use, and those they reach.
    templates: Vec<String>,
    /// The old URLs left out because a page or a file is there.
    pub warnings: Vec<String>,
    /// Whether it has every page of the site, not only those that show
    /// what changed ([`plan_shown`]).
    whole: bool,
}

/// A plan without the config and words it borrowed: what a kept session
/// holds between builds, for [`replan`] to bring up to date.
pub struct KeptPlan {
    specs: Vec<Spec>,
    copies: Vec<Copy>,
    model: Model,
    sitemap_key: String,
    dependents: Option<Dependents>,
    templates: Vec<String>,
}

/// Per source, the pages (by place in the plan's specs) whose fingerprint
/// covers it: what a [`replan`] renders again when it changes.
struct Dependents {
    /// Per document, the pages whose fingerprint covers its digest.
    documents: Vec<Vec<u32>>,
    /// Per document, the pages that list it by its title, URL and date
    /// alone: a document brought up to date keeps its URL and date, so
    /// only a new title reaches them.
    listings: Vec<Vec<u32>>,
    /// Per section's `_index.md`, the pages that show it, whole or its
    /// title.
    sections: Vec<Vec<u32>>,
}

impl KeptPlan {
    /// Takes the documents out, for the next build's analysis to start
    /// from; [`replan`] puts the new ones back.
    pub fn take_records(&mut self) -> Vec<Record> {
        std::mem::take(&mut self.model.records)
    }

    pub fn copies(&self) -> &[Copy] {
        &self.copies
    }

    /// How many documents the plan was made from.
    pub fn documents(&self) -> usize {
        // Its records are the kept snapshot's meanwhile; one digest each.
        self.model.digests.len()
    }

    /// What the sections' `_index.md` files said.
    pub fn section_files(&self) -> &[SectionFile] {
        &self.model.sections.files
    }

    /// Whether a document's title decides its place in a list.
    pub fn sorts_by_title(&self) -> bool {
        self.model.sections.sort_by_title()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_paths_stay_inside_the_output_folder() {
        assert_eq!(OutputPath::for_url("/").unwrap().as_str(), "index.html");
        assert_eq!(
            OutputPath::for_url("/fr/posts/x/").unwrap().as_str(),
            "fr/posts/x/index.html"
        );
        assert_eq!(
            OutputPath::for_url("/ja/posts/京都/").unwrap().as_str(),
            "ja/posts/京都/index.html"
        );
        assert_eq!(
            OutputPath::for_url("/ja/posts/%E4%BA%AC%E9%83%BD/")
                .unwrap()
                .as_str(),
            "ja/posts/京都/index.html"
        );
        assert_eq!(
            OutputPath::for_url("/fr/atom.xml").unwrap().as_str(),
            "fr/atom.xml"
        );
        for bad in [
            "/../x/",
            "/a/../../b/",
            "/a//b/",
            "/./x/",
            "/a\\..\\b/",
            "/%2E%2E/x/",
            "/a%2Fb/",
            "/%FF/",
            "/a%5Cb/",
            "/a%00b/",
            "/a\0b/",
        ] {
            assert!(OutputPath::for_url(bad).is_none(), "{bad}");
        }
        for bad in ["", "a/", "/a", "a/./b", "a\\b", "a\0b", ".."] {
            assert!(OutputPath::new(bad).is_none(), "{bad:?}");
        }
        assert_eq!(OutputPath::new("a/b.c").unwrap().as_str(), "a/b.c");
    }

    #[test]
    fn collisions_name_both_producers_and_the_first_keeps_its_output() {
        let outputs = [
            "a/index.html",
            "b",
            "a/index.html",
            "b/index.html",
            "Ä/index.html",
            "ä/index.html",
        ];
        let problems = output_collisions(&outputs, |i| PathBuf::from(format!("p{i}")));
        let said: Vec<String> = problems
            .iter()
            .map(|p| format!("{}: {}", p.path.display(), p.kind))
            .collect();
        assert_eq!(said.len(), 3, "{said:#?}");
        assert!(said[0].starts_with("p2: would be written to a/index.html, which p0 also"));
        assert!(said[1].starts_with(
            "p5: would be written to ä/index.html (the same file as Ä/index.html where case is ignored), which p4"
        ));
        assert!(
            said[2]
                .starts_with("p3: would be written to b/index.html (inside b, a file), which p1")
        );
        assert!(
            output_collisions(&["x/index.html", "y/index.html"], |_| unreachable!()).is_empty()
        );
    }

    /// The records of `sources` ((path under content/, text)), by path,
    /// and what their sections' `_index.md` files say.
    fn records(config: &Config, sources: &[(&str, String)]) -> (Vec<Record>, Vec<SectionFile>) {
        let (mut records, mut sections) = (Vec::new(), Vec::new());
        for (rel, text) in sources {
            let mut source = crate::source::discover::classify(rel, config).unwrap();
            source.path = format!("content/{rel}");
            let hash = crate::model::hash::source_hash(text.as_bytes());
            let plugins = crate::plugin::Plugins::new();
            let settings = (config, &plugins, &Default::default());
            if crate::source::section::is_section_file(&source) {
                let section = crate::source::section::parse_section;
                sections.push(section(
                    &source,
                    text.as_bytes(),
                    hash,
                    (config, settings.2),
                ));
            } else {
                let parsed = crate::source::parse::parse(&source, text.as_bytes(), hash, settings);
                records.push(parsed.unwrap().record);
            }
        }
        records.sort_by(|a, b| a.source.path.cmp(&b.source.path));
        let sections = sections.into_iter().map(Result::unwrap).collect();
        (records, sections)
    }

    /// Plans `sources`, then plans them after `edit` both afresh and
    /// brought up to date from the first plan, asserts that both give every
    /// page the same fingerprint, and returns the outputs brought up to
    /// date.
    fn replanned_after(edit: impl FnOnce(&mut Vec<(&str, String)>)) -> Vec<String> {
        let config = Config::parse(
            "title = \"T\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n\
             paginate = 2\n[languages.en]\nname = \"English\"\n[languages.fr]\nname = \"Français\"\n",
            std::path::Path::new("site.toml"),
        )
        .unwrap();
        let root = tempfile::tempdir().unwrap();
        let (theme, i18n) = (
            Theme::load(root.path(), None, &crate::plugin::Plugins::new()).unwrap(),
            I18n::load(root.path(), &config).unwrap(),
        );
        let views = Views::new(&config, &i18n);
        let mut sources: Vec<(&str, String)> = vec![
            ("en/posts/a.md", post("A", 1, "x", "First.\n\nMore.")),
            ("en/posts/b.md", post("B", 2, "x, y", "Second.")),
            ("en/posts/c.md", post("C", 3, "y", "Third.")),
            ("fr/posts/a.md", post("A fr", 1, "x", "Premier.")),
            ("en/about.md", "---\ntitle: About\n---\nAbout.\n".to_owned()),
            (
                "en/posts/_index.md",
                "---\ntitle: Writing\n---\nAll.\n".to_owned(),
            ),
        ];
        let visibility = Visibility {
            drafts: false,
            future: false,
            expired: false,
            now_ms: i64::MAX,
        };
        let planned = |(records, sections)| {
            plan(
                &config,
                &views,
                &theme,
                (records, sections),
                Sources::documents_only(&crate::plugin::Plugins::new()),
                visibility,
                0,
            )
            .unwrap()
            .0
        };
        let before_records = records(&config, &sources).0;
        let before = planned(records(&config, &sources)).into_kept();
        edit(&mut sources);
        let after = records(&config, &sources);
        let changed: Vec<usize> = (0..after.0.len())
            .filter(|&i| after.0[i] != before_records[i])
            .collect();
        let retitled: Vec<usize> = changed
            .iter()
            .copied()
            .filter(|&i| after.0[i].title != before_records[i].title)
            .collect();
        let afresh = planned(after.clone());
        let (replanned, fingerprinted) = replan(
            &config,
            &views,
            &theme,
            (before, AssetsBefore::NONE),
            after,
            (&changed, &retitled),
        )
        .unwrap();
        let fingerprints = |plan: &Plan<'_>| -> Vec<(String, String)> {
            plan.specs
                .iter()
                .map(|s| (s.output.to_string(), s.fingerprint.clone()))
                .collect()
        };
        assert_eq!(fingerprints(&replanned), fingerprints(&afresh));
        fingerprinted
            .iter()
            .map(|&s| afresh.specs[s].output.to_string())
            .collect()
    }

    fn post(title: &str, day: usize, tags: &str, body: &str) -> String {
        format!("---\ntitle: {title}\ndate: 2024-05-{day:02}\ntags: [{tags}]\n---\n{body}\n")
    }

    #[test]
    fn a_plan_brought_up_to_date_equals_one_planned_afresh() {
        // What b holds changes (its title, summary and body), not its
        // place; so does what the posts section says of itself.
        let fingerprinted = replanned_after(|sources| {
            sources[1].1 = post("B, retitled", 2, "x, y", "Second, rewritten.\n\nAnd more.");
            sources[5].1 = "---\ntitle: Essays\n---\nAll of them.\n".to_owned();
        });
        // Its page, its neighbours', the lists, the archive and the feed:
        // not the untouched French page, the about page or the site's own
        // files.
        for touched in [
            "posts/b/index.html",
            "posts/a/index.html",
            "atom.xml",
            "archive/index.html",
            // The posts section's both pages show its new title.
            "posts/page/2/index.html",
        ] {
            assert!(
                fingerprinted.iter().any(|a| a == touched),
                "{touched}: {fingerprinted:?}"
            );
        }
        for untouched in [
            "fr/posts/a/index.html",
            "about/index.html",
            "robots.txt",
            "sitemap.xml",
        ] {
            assert!(
                !fingerprinted.iter().any(|a| a == untouched),
                "{untouched}: {fingerprinted:?}"
            );
        }
    }

    #[test]
    fn a_body_edit_leaves_the_lists_by_title_alone() {
        let fingerprinted = replanned_after(|sources| {
            sources[1].1 = post("B", 2, "x, y", "Second, rewritten.");
        });
        assert!(
            fingerprinted.iter().any(|a| a == "posts/b/index.html"),
            "{fingerprinted:?}"
        );
        assert!(
            !fingerprinted.iter().any(|a| a == "archive/index.html"),
            "{fingerprinted:?}"
        );
    }

    #[test]
    fn pagination_links_point_both_ways() {
        let p = paginator(1, 3, |n| format!("/page/{n}/"));
        assert_eq!(
            (p.newer_url, p.older_url.as_deref()),
            (None, Some("/page/2/"))
        );
        let p = paginator(3, 3, |n| format!("/page/{n}/"));
        assert_eq!(
            (p.newer_url.as_deref(), p.older_url),
            (Some("/page/2/"), None)
        );
    }
}
