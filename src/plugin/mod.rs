//! Plugins a host registers through the library ([`crate::BuildOptions::plugins`]):
//! transforms of a document's body, functions and filters for templates,
//! and extra output files. Each has a name and a version; both enter the
//! fingerprint of every page it touches, so a new version re-renders those
//! pages and no other:
//!
//! - a [`MarkdownTransform`]: the pages that show a document whose body it
//!   changed (a new version reads every source again to find them);
//! - a [`TemplateFunction`]: the pages of the templates whose text names it,
//!   or that extend, include or import one that does;
//! - an [`OutputPlugin`]: its own files.
//!
//! Two ship with folio, as examples and for use: the [`YouTube`] shortcode
//! and the per-language [`SearchIndex`].
//!
//! ```
//! use folio::plugin::{
//!     Callable, Plugin, PluginError, SearchIndex, TemplateFunction, Value, YouTube,
//! };
//! use folio::{BuildOptions, Plugins};
//!
//! /// `{{ "tags" | shout }}` in a template gives `TAGS`.
//! struct Shout;
//!
//! impl Plugin for Shout {
//!     fn name(&self) -> &str { "shout" }
//!     fn version(&self) -> &str { "1" }
//! }
//!
//! impl TemplateFunction for Shout {
//!     fn callable(&self) -> Callable { Callable::Filter }
//!     fn call(&self, args: &[Value]) -> Result<Value, PluginError> {
//!         match args.first() {
//!             Some(Value::String(text)) => Ok(Value::String(text.to_uppercase())),
//!             _ => Err("shout takes a string".into()),
//!         }
//!     }
//! }
//!
//! let mut options = BuildOptions::new(1_767_225_600_000);
//! options.plugins.markdown(YouTube::new()).template(Shout).output(SearchIndex::new());
//! ```

mod search_index;
mod youtube;

/// What a plugin fails with: any error (a `String` converts with `.into()`,
/// and `?` takes the plugin's own errors), shown to the user as its
/// message, naming the source, template or output it failed on.
pub type PluginError = Box<dyn std::error::Error + Send + Sync>;

pub use search_index::SearchIndex;
pub use youtube::YouTube;

use std::fmt;
use std::sync::Arc;

use crate::model::error::Error;

pub use serde_json::Value;

/// What every plugin says about itself. The pair names the plugin's
/// behaviour: give a new `version` whenever its output may change.
pub trait Plugin: Send + Sync {
    /// Unique among the plugins of a build; a template plugin is called by
    /// this name in templates.
    fn name(&self) -> &str;
    /// Any text; a change re-renders the pages the plugin touches.
    fn version(&self) -> &str;
}

/// When a [`MarkdownTransform`] runs on a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Phase {
    /// On the Markdown, before it becomes HTML (shortcodes, custom syntax).
    BeforeMarkdown,
    /// On the HTML the Markdown became (post-processing), the summary's too.
    AfterMarkdown,
}

/// The document whose body a transform is given.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Document<'a> {
    /// The source, relative to the site root.
    pub source: &'a str,
    /// Its language code.
    pub lang: &'a str,
}

impl<'a> Document<'a> {
    /// The document of the source at `source` (relative to the site root),
    /// in `lang`: for a host testing its transform.
    pub fn new(source: &'a str, lang: &'a str) -> Document<'a> {
        Document { source, lang }
    }
}

/// Rewrites the body of every post and page. It must be a function of its
/// input: the same body gives the same result in every build.
pub trait MarkdownTransform: Plugin {
    /// When it runs.
    fn phase(&self) -> Phase;
    /// The body rewritten, or `None` to leave it as it is: a document the
    /// plugin leaves alone keeps its pages when the plugin's version moves.
    /// An `Err` stops the build with the message, naming the source.
    fn transform(&self, body: &str, document: &Document<'_>)
    -> Result<Option<String>, PluginError>;
}

/// How templates call a [`TemplateFunction`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Callable {
    /// `{{ name(arg, …) }}`.
    Function,
    /// `{{ value | name(arg, …) }}`: the value comes first in `args`.
    Filter,
}

/// A function or filter for templates. Its values are JSON values; a
/// string it returns is escaped like any other (`| safe` keeps HTML).
pub trait TemplateFunction: Plugin {
    /// A function or a filter.
    fn callable(&self) -> Callable;
    /// The result for `args`; an `Err` stops the build with the message,
    /// naming the template. It must be a function of its arguments.
    fn call(&self, args: &[Value]) -> Result<Value, PluginError>;
}

/// What an [`OutputPlugin`] is given: one language's published documents.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LanguageDocuments<'a> {
    /// The language code.
    pub lang: &'a str,
    /// Where the language's pages live in the output folder: `""` for the
    /// default language at the root, else `"fr/"`.
    pub root: String,
    /// Its published posts, newest first, then its pages by path.
    pub documents: Vec<DocumentSummary<'a>>,
}

/// A published document as an output plugin sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DocumentSummary<'a> {
    /// `"post"` or `"page"`.
    pub kind: &'a str,
    /// The title.
    pub title: &'a str,
    /// Its path from the site's root (`/fr/posts/bonjour/`), percent-encoded.
    pub url: &'a str,
    /// Unix milliseconds; 0 for a page.
    pub published_at: i64,
    /// The summary, as HTML.
    pub summary: &'a str,
    /// The `description` field, if any.
    pub description: Option<&'a str>,
    /// Its tags as written.
    pub tags: &'a [String],
}

/// Writes one extra file per language (a search index, a `feed.json`),
/// from that language's published documents. It is written again when one
/// of them changes or its version moves.
pub trait OutputPlugin: Plugin {
    /// The file's path in the output folder for the language whose pages
    /// are under `root` (`""` or `"fr/"`), e.g. `format!("{root}search.json")`.
    fn path(&self, lang: &str, root: &str) -> String;
    /// The file's bytes. An `Err` stops the build with the message.
    fn render(&self, documents: &LanguageDocuments<'_>) -> Result<Vec<u8>, PluginError>;
}

/// The plugins of a build, in the order they were added (transforms of
/// one phase run in that order).
#[derive(Clone, Default)]
pub struct Plugins {
    pub(crate) transforms: Vec<Arc<dyn MarkdownTransform>>,
    pub(crate) functions: Vec<Arc<dyn TemplateFunction>>,
    pub(crate) outputs: Vec<Arc<dyn OutputPlugin>>,
}

impl Plugins {
    /// No plugins.
    pub const fn new() -> Plugins {
        Plugins {
            transforms: Vec::new(),
            functions: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// Adds a transform of every document's body.
    pub fn markdown(&mut self, plugin: impl MarkdownTransform + 'static) -> &mut Plugins {
        self.transforms.push(Arc::new(plugin));
        self
    }

    /// Adds a template function or filter.
    pub fn template(&mut self, plugin: impl TemplateFunction + 'static) -> &mut Plugins {
        self.functions.push(Arc::new(plugin));
        self
    }

    /// Adds an extra output per language.
    pub fn output(&mut self, plugin: impl OutputPlugin + 'static) -> &mut Plugins {
        self.outputs.push(Arc::new(plugin));
        self
    }

    /// The names of every plugin, of every kind.
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        let transforms = self.transforms.iter().map(|p| p.name());
        let functions = self.functions.iter().map(|p| p.name());
        transforms
            .chain(functions)
            .chain(self.outputs.iter().map(|p| p.name()))
    }

    /// Checks that every plugin has a name of its own, and that no template
    /// plugin takes one of `reserved` (folio's own template callables).
    pub(crate) fn check(&self, reserved: &[&str]) -> Result<(), Error> {
        let refused = |plugin: &str, message: &str, help: &str| Error::Plugin {
            plugin: plugin.to_owned(),
            path: "(plugins)".into(),
            message: message.to_owned(),
            help: help.to_owned(),
        };
        let mut seen = std::collections::HashSet::new();
        for name in self.names() {
            if name.trim().is_empty() {
                return Err(refused(name, "has no name", "give the plugin a name"));
            }
            if !seen.insert(name) {
                let help = "give each plugin of a build a name of its own";
                return Err(refused(
                    name,
                    "another plugin of this build has that name",
                    help,
                ));
            }
        }
        match self.functions.iter().find(|p| reserved.contains(&p.name())) {
            Some(plugin) => Err(refused(
                plugin.name(),
                "folio's templates already call a function or filter by that name",
                "register the plugin under another name",
            )),
            None => Ok(()),
        }
    }

    /// The transforms of `phase`, in order.
    pub(crate) fn transforms(&self, phase: Phase) -> impl Iterator<Item = &dyn MarkdownTransform> {
        self.transforms
            .iter()
            .map(|p| p.as_ref())
            .filter(move |p| p.phase() == phase)
    }

    /// What the transforms are, for the settings a re-parse depends on:
    /// empty without any.
    pub(crate) fn transforms_stamp(&self) -> String {
        self.transforms
            .iter()
            .map(|p| stamp(p.as_ref()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A plugin as a fingerprint names it: its name and its version.
pub(crate) fn stamp(plugin: &(impl Plugin + ?Sized)) -> String {
    format!("{} {}", plugin.name(), plugin.version())
}

impl fmt::Debug for Plugins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let transforms: Vec<String> = self.transforms.iter().map(|p| stamp(p.as_ref())).collect();
        let functions: Vec<String> = self.functions.iter().map(|p| stamp(p.as_ref())).collect();
        let outputs: Vec<String> = self.outputs.iter().map(|p| stamp(p.as_ref())).collect();
        f.debug_struct("Plugins")
            .field("markdown", &transforms)
            .field("template", &functions)
            .field("output", &outputs)
            .finish()
    }
}
