//! Templates, the contexts handed to them, and turning a planned page into
//! bytes.
//!
//! Owns the theme: the site's `templates/` folder over the default theme
//! embedded in the binary, the dependency closure of each template (what it
//! extends, includes or imports, which is what a page's fingerprint covers),
//! and the minijinja environment. A context is all a template can see; nothing
//! in it comes from the clock.

pub mod assets;
mod context;
mod default_theme;
mod dependencies;
pub mod i18n;
pub mod images;
pub mod minify;
#[cfg(test)]
mod reference;

pub use context::{
    Alternate, ArchiveEntry, ArchiveYear, Context, FeedEntry, FeedLink, FeedView, LangView,
    LanguageLink, Link, ListItem, MenuView, PageView, Paginator, PostView, RedirectView,
    SectionLink, SectionView, Shared, SiteView, SitemapEntry, SwitchLink, TagCount, TagLink,
    TaxonomyLink, TocEntry,
};

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use minijinja::value::Rest;
use minijinja::{AutoEscape, Environment, Output, State, Value};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::model::error::Error;
use crate::model::hash::hex;
use crate::plugin::{Callable, Plugins, TemplateFunction, stamp};
use crate::source::highlight::{Highlight, stylesheet};
use crate::source::shortcodes::{SHORTCODES_DIR, Shortcodes};
use dependencies::{Dependencies, closure, dependencies};

pub const TEMPLATES_DIR: &str = "templates";

use default_theme::DEFAULT_THEME;

/// The work one render may do, in minijinja fuel (one per instruction, and
/// one per 64 bytes of data made or written). The default theme's largest
/// pages take far less: the sitemap of a site of 6,000 posts in three
/// languages 0.44 M, a post of 20 MB 1.2 M, a page of this repository's own
/// site 1,200. A template that loops without end runs out in seconds, with
/// at most some 640 MB made, instead of hanging the build.
const FUEL: u64 = 10_000_000;

/// How deep templates may nest (an include counts 10, a macro call 4, a
/// block, loop or condition 1): minijinja's default, 500, overflowed the
/// 2 MB stack of a build's worker thread in a debug build, a macro calling
/// itself through `caller()`, before the limit stopped it; 300 did not.
/// Real themes nest a few levels.
const RECURSION_LIMIT: usize = 250;

/// Where a template's text came from, for error messages.
#[derive(Debug, Clone)]
enum Origin {
    Site(PathBuf),
    Default,
}

/// The templates of a site, with a hash of each one's dependency closure.
pub struct Theme {
    sources: BTreeMap<String, (String, Origin)>,
    /// Each template's own hash, and the members of its closure.
    own_hashes: BTreeMap<String, String>,
    closures: BTreeMap<String, BTreeSet<String>>,
    closure_hashes: BTreeMap<String, String>,
    /// What each template, with those it reaches, reads beyond its page.
    reads: BTreeMap<String, Reads>,
    /// The template functions and filters of the build's plugins.
    functions: Vec<Arc<dyn TemplateFunction>>,
    /// The folder of the theme site.toml names, relative to the root.
    theme_dir: Option<String>,
    /// Its `shortcodes/` templates, ready for bodies to call.
    shortcodes: Shortcodes,
}

/// What a template reads beyond its own page's context: lists of posts
/// that grow with the site, so that only the pages of the templates naming
/// them pay for them (in work and in fingerprints).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reads {
    /// `all_posts`: every published post of the page's language.
    pub all_posts: bool,
    /// `post.related`: the posts sharing the most terms with the page's.
    pub related: bool,
}

impl Reads {
    /// What a template of `text`s (it and those it reaches) names. A
    /// name it only seems to read (in a comment, as `related` in a word of
    /// its own) costs some work and renderings, never a stale page.
    fn of<'t>(texts: impl Iterator<Item = &'t str> + Clone) -> Reads {
        Reads {
            all_posts: texts.clone().any(|text| mentions(text, "all_posts")),
            related: texts.into_iter().any(|text| mentions(text, "related")),
        }
    }
}

/// The shortcodes every site can call, by template name
/// (`shortcodes/note.html`), with their text: what `folio import` runs a
/// Zola site's calls with.
pub(crate) fn built_in_shortcodes() -> impl Iterator<Item = (&'static str, &'static str)> {
    DEFAULT_THEME
        .iter()
        .copied()
        .filter(|(name, _)| name.starts_with(crate::source::shortcodes::SHORTCODES_DIR))
}

/// The names folio's templates are given besides the plugins': a plugin
/// may not take one.
pub const BUILT_IN_CALLABLES: &[&str] =
    &["t", "safe", "highlight_css", "resize_image", "asset_url"];

/// What one build's templates may ask of it beyond their context, and
/// that it records per page: variants of images, fingerprinted assets.
#[derive(Clone)]
pub struct Requests {
    pub resizer: Arc<images::Resizer>,
    pub assets: Arc<assets::AssetUrls>,
}

impl Requests {
    /// Requests that find no file: what tests of templates that make none
    /// are given.
    #[cfg(any(test, feature = "internals"))]
    pub fn without_files() -> Requests {
        Requests {
            resizer: images::Resizer::without_files(),
            assets: assets::AssetUrls::without_files(),
        }
    }
}

thread_local! {
    /// The output of the page this thread renders, for the requests its
    /// templates make to be recorded as its.
    static RENDERING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `render` as the rendering of the page at `output`: the requests
/// its templates make are that page's.
pub fn rendering<T>(output: &str, render: impl FnOnce() -> T) -> T {
    let outer = RENDERING.with(|page| page.replace(Some(output.to_owned())));
    let result = render();
    RENDERING.with(|page| *page.borrow_mut() = outer);
    result
}

/// The page this thread renders, if it renders one.
fn rendering_page() -> Option<String> {
    RENDERING.with(|page| page.borrow().clone())
}

impl Theme {
    /// Reads `<root>/templates` (every file, recursively; names use `/`) over
    /// those of the theme at `<root>/<theme_dir>/templates`, over the
    /// embedded default theme.
    pub fn load(root: &Path, theme_dir: Option<&str>, plugins: &Plugins) -> Result<Theme, Error> {
        let mut sources: BTreeMap<String, (String, Origin)> = DEFAULT_THEME
            .iter()
            .map(|(name, text)| ((*name).to_owned(), ((*text).to_owned(), Origin::Default)))
            .collect();
        // The named theme's templates over folio's, the site's over both.
        let folders = theme_dir
            .map(|theme| Path::new(theme).join(TEMPLATES_DIR))
            .into_iter()
            .chain([PathBuf::from(TEMPLATES_DIR)]);
        for folder in folders {
            for file in crate::source::discover::walk(&root.join(folder), &[])? {
                // A template is named by its path; one that cannot be named
                // cannot be used.
                let Some(name) = file.rel else {
                    continue;
                };
                let text =
                    std::fs::read_to_string(&file.path).map_err(|e| Error::io(&file.path, e))?;
                let shown = file.path.strip_prefix(root).unwrap_or(&file.path);
                sources.insert(name, (text, Origin::Site(shown.to_owned())));
            }
        }
        Ok(Theme {
            theme_dir: theme_dir.map(str::to_owned),
            ..Theme::from_sources(sources, plugins.functions.clone())
        })
    }

    /// A template's own hash covers the plugins it calls (by name and
    /// version), so that a new version of one renders again the pages of
    /// the templates that call it, and only those.
    fn from_sources(
        sources: BTreeMap<String, (String, Origin)>,
        functions: Vec<Arc<dyn TemplateFunction>>,
    ) -> Theme {
        let own_hashes: BTreeMap<String, String> = sources
            .iter()
            .map(|(name, (text, _))| {
                let mut hasher = Sha256::new();
                hasher.update(text.as_bytes());
                for plugin in functions.iter().filter(|p| mentions(text, p.name())) {
                    hasher.update(b"\0plugin ");
                    hasher.update(stamp(plugin.as_ref()).as_bytes());
                }
                (name.clone(), hex(&hasher.finalize()))
            })
            .collect();
        let direct: BTreeMap<&str, Dependencies> = sources
            .iter()
            .map(|(name, (text, _))| (name.as_str(), dependencies(text)))
            .collect();
        let closures: BTreeMap<String, BTreeSet<String>> = sources
            .keys()
            .map(|name| (name.clone(), closure(name, &direct)))
            .collect();
        let closure_hashes = closures
            .iter()
            .map(|(name, closure)| {
                let mut hasher = Sha256::new();
                for member in closure {
                    hasher.update(member.as_bytes());
                    hasher.update(b"\0");
                    hasher.update(own_hashes.get(member).map_or("missing", String::as_str));
                    hasher.update(b"\0");
                }
                (name.clone(), hex(&hasher.finalize()))
            })
            .collect();
        let shortcodes = shortcodes_of(&sources, &closure_hashes);
        let reads = closures
            .iter()
            .map(|(name, closure)| {
                let texts = closure
                    .iter()
                    .chain([name])
                    .filter_map(|member| sources.get(member).map(|(text, _)| text.as_str()));
                (name.clone(), Reads::of(texts))
            })
            .collect();
        Theme {
            sources,
            own_hashes,
            closures,
            closure_hashes,
            reads,
            functions,
            theme_dir: None,
            shortcodes,
        }
    }

    /// The shortcodes bodies may call.
    pub fn shortcodes(&self) -> &Shortcodes {
        &self.shortcodes
    }

    /// The hash of the template of the shortcode `name` and of every
    /// template it reaches.
    pub fn shortcode_hash(&self, name: &str) -> &str {
        self.closure_hash(&format!("{SHORTCODES_DIR}{name}.html"))
    }

    /// Every template's own hash, by name.
    pub fn own_hashes(&self) -> &BTreeMap<String, String> {
        &self.own_hashes
    }

    /// `name` and every template it extends, includes or imports.
    pub fn closure(&self, name: &str) -> Vec<String> {
        let mut members: Vec<String> = self
            .closures
            .get(name)
            .map(|c| c.iter().filter(|m| *m != name).cloned().collect())
            .unwrap_or_default();
        members.insert(0, name.to_owned());
        members
    }

    /// What the pages of template `name` read beyond their own context.
    pub fn reads(&self, name: &str) -> Reads {
        self.reads.get(name).copied().unwrap_or_default()
    }

    /// The hash of `name` and of every template it reaches.
    pub fn closure_hash(&self, name: &str) -> &str {
        self.closure_hashes.get(name).map_or("", String::as_str)
    }

    /// The folder of the theme site.toml names, relative to the root.
    pub fn theme_dir(&self) -> Option<&str> {
        self.theme_dir.as_deref()
    }

    /// Whether the site, its theme or folio's theme has the template `name`.
    pub fn has(&self, name: &str) -> bool {
        self.sources.contains_key(name)
    }

    /// Every template's name.
    pub fn names(&self) -> Vec<&str> {
        self.sources.keys().map(String::as_str).collect()
    }

    /// The file of the site's template `name` (its own, or its theme's),
    /// relative to the root; `None` for one of folio's default theme.
    pub fn site_file(&self, name: &str) -> Option<&Path> {
        match self.sources.get(name) {
            Some((_, Origin::Site(path))) => Some(path),
            _ => None,
        }
    }

    fn shown_path(&self, name: &str) -> PathBuf {
        match self.sources.get(name) {
            Some((_, Origin::Site(path))) => path.clone(),
            _ => PathBuf::from(format!("{TEMPLATES_DIR}/{name} (folio's default theme)")),
        }
    }

    /// Whether a template of the theme mentions `name` (a function it may
    /// call): a name in a comment counts too.
    pub fn mention(&self, name: &str) -> bool {
        self.sources.values().any(|(text, _)| mentions(text, name))
    }

    /// Compiles every template; a syntax error names its file and line.
    /// `highlight_css()` gives the stylesheet of highlighted code: made
    /// only when a template calls it, and a function of `highlight`, which
    /// every page's fingerprint holds (the content settings);
    /// `resize_image(…)` and `asset_url(…)` what `requests` find and
    /// record.
    pub fn environment(
        &self,
        highlight: &Highlight,
        requests: &Requests,
    ) -> Result<Environment<'_>, Error> {
        let mut env = Environment::new();
        env.set_fuel(Some(FUEL));
        env.set_recursion_limit(RECURSION_LIMIT);
        // A misspelled name prints as an error, not as nothing; `{% if x %}`
        // still tells whether a page has `x`.
        env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
        env.set_formatter(escape_html_text);
        env.add_function("t", translate);
        env.add_filter("safe", safe);
        let highlight = highlight.clone();
        env.add_function("highlight_css", move || {
            Value::from_safe_string(stylesheet(&highlight))
        });
        let resizer = Arc::clone(&requests.resizer);
        env.add_function(
            "resize_image",
            move |path: Option<String>, kwargs: minijinja::value::Kwargs| {
                resizer.call(path, kwargs)
            },
        );
        let assets = Arc::clone(&requests.assets);
        env.add_function("asset_url", move |path: &str| assets.call(path));
        for plugin in &self.functions {
            let callable = Arc::clone(plugin);
            let call = move |args: Rest<Value>| call_plugin(callable.as_ref(), &args);
            match plugin.callable() {
                Callable::Function => env.add_function(plugin.name(), call),
                Callable::Filter => env.add_filter(plugin.name(), call),
            }
        }
        for (name, (text, _)) in &self.sources {
            env.add_template(name, text)
                .map_err(|e| self.template_error(&e))?;
        }
        Ok(env)
    }

    pub fn template_error(&self, error: &minijinja::Error) -> Error {
        let error = innermost(error);
        let name = error.name().unwrap_or("?");
        let message = match (error.kind(), error.detail()) {
            (minijinja::ErrorKind::OutOfFuel, _) => format!(
                "rendering a page took more than the {FUEL} steps folio allows one: a loop that does not end, or one over far too much"
            ),
            (minijinja::ErrorKind::InvalidOperation, Some(detail))
                if detail.contains("recursion limit") =>
            {
                "a macro, include or block calls itself without end (minijinja's recursion limit)"
                    .to_owned()
            }
            (kind, Some(detail)) => format!("{kind}: {detail}"),
            (kind, None) => kind.to_string(),
        };
        Error::Template {
            path: self.shown_path(name),
            line: error.line(),
            message,
        }
    }

    /// Renders `template` with `context` into a buffer of `size_hint`
    /// bytes: a page written into a growing string was copied on each of
    /// its doublings, some 2% of a cold build's instructions.
    pub fn render(
        &self,
        env: &Environment<'_>,
        template: &str,
        context: &impl Serialize,
        size_hint: usize,
    ) -> Result<Vec<u8>, Error> {
        let mut page = Vec::with_capacity(size_hint);
        let root = Value::from(minijinja::value::Serde(context));
        env.get_template(template)
            .and_then(|t| t.render_captured_to(root.clone(), &mut page))
            .map_err(|e| match (self.template_error(&e), names_near(&e, &root)) {
                (
                    Error::Template {
                        path,
                        line,
                        message,
                    },
                    Some(names),
                ) => Error::Template {
                    path,
                    line,
                    message: format!("{message}; {names}"),
                },
                (error, _) => error,
            })?;
        Ok(page)
    }
}

/// The shortcodes among `sources`, with a digest of their closures'
/// hashes.
fn shortcodes_of(
    sources: &BTreeMap<String, (String, Origin)>,
    closure_hashes: &BTreeMap<String, String>,
) -> Shortcodes {
    let mut digest = Sha256::new();
    for (name, hash) in closure_hashes {
        if name.starts_with(SHORTCODES_DIR) {
            digest.update(name.as_bytes());
            digest.update(hash.as_bytes());
        }
    }
    Shortcodes::new(
        sources
            .iter()
            .map(|(name, (text, _))| (name.clone(), text.clone())),
        hex(&digest.finalize()),
    )
}

/// The error to report of `error`: one in an included template or an
/// imported macro comes wrapped in one about the caller ("could not render
/// include"), and the innermost one that names a template says where to
/// look.
fn innermost(error: &minijinja::Error) -> &minijinja::Error {
    let mut error = error;
    while let Some(inner) = std::error::Error::source(error)
        .and_then(|source| source.downcast_ref::<minijinja::Error>())
        .filter(|inner| inner.name().is_some())
    {
        error = inner;
    }
    error
}

/// For a name a template used that is not there (`post.titel`), the names
/// that are there (`post`'s fields), the nearest first when one is a typo
/// away. Looked up from the page's context: a name inside a macro or a
/// loop is not.
fn names_near(error: &minijinja::Error, root: &Value) -> Option<String> {
    let error = innermost(error);
    if error.kind() != minijinja::ErrorKind::UndefinedError {
        return None;
    }
    let (path, _) = error
        .detail()?
        .strip_prefix('`')?
        .split_once("` is undefined")?;
    let (parent, missing) = match path.rsplit_once('.') {
        Some((parent, missing)) => (Some(parent), missing),
        None => (None, path),
    };
    let mut at = root.clone();
    for part in parent.into_iter().flat_map(|parent| parent.split('.')) {
        at = at
            .get_attr(part)
            .ok()
            .filter(|value| !value.is_undefined())?;
    }
    let mut names: Vec<String> = at
        .try_iter()
        .ok()?
        .filter_map(|key| key.as_str().map(str::to_owned))
        .collect();
    names.sort();
    // A swap of two letters is one typo; a short name is near only one
    // typo away, so that `titel` suggests `title` and not `site`.
    let typos = |name: &str| strsim::damerau_levenshtein(name, missing);
    let near_enough = (missing.chars().count() / 4).max(1);
    let nearest = names
        .iter()
        .filter(|name| typos(name) <= near_enough)
        .min_by_key(|name| typos(name));
    let there = parent.map_or("the page".to_owned(), |parent| format!("`{parent}`"));
    let listed = names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(match nearest {
        _ if names.is_empty() => format!("{there} has no names at all"),
        Some(near) => format!("did you mean `{near}`? {there} has {listed}"),
        None => format!("{there} has {listed}"),
    })
}

/// Calls a template plugin with the template's values as JSON, and hands
/// its result back as a template value.
fn call_plugin(plugin: &dyn TemplateFunction, args: &[Value]) -> Result<Value, minijinja::Error> {
    let failed = |message: String| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!("the plugin `{}` failed: {message}", plugin.name()),
        )
    };
    let args = args
        .iter()
        .map(serde_json::to_value)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| failed(e.to_string()))?;
    let result = plugin.call(&args).map_err(|e| failed(e.to_string()))?;
    Ok(Value::from(minijinja::value::Serde(result)))
}

/// Whether `text` names `name` as a whole word: the templates that can
/// call a plugin. A mention in plain text counts too, which costs at most a
/// page rendered that did not need to be.
fn mentions(text: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            !before.is_some_and(is_word) && !after.is_some_and(is_word)
        })
}

/// `|safe`, as minijinja's own, except that a value already safe (a page's
/// body, tens of kilobytes) passes through instead of being copied twice.
fn safe(value: Value) -> Value {
    if value.is_safe() {
        value
    } else {
        Value::from_safe_string(value.to_string())
    }
}

/// minijinja's HTML escaping also escapes `/`, which turns every URL in an
/// attribute into `&#x2f;` soup; `&<>"'` are all that HTML needs escaped.
fn escape_html_text(
    out: &mut Output,
    state: &mut State,
    value: &Value,
) -> Result<(), minijinja::Error> {
    if !matches!(state.auto_escape(), AutoEscape::Html) || value.is_safe() {
        return minijinja::escape_formatter(out, state, value);
    }
    // The same five characters, scanned 16 bytes at a time: a page's
    // titles, dates and URLs are mostly runs with nothing to escape.
    let escape = |out: &mut Output, text: &str| {
        pulldown_cmark_escape::escape_html(pulldown_cmark_escape::FmtWriter(out), text)
            .map_err(Into::into)
    };
    if let Some(text) = value.as_str() {
        return escape(out, text);
    }
    // An object printing as text (`asset_url`'s value) is escaped as that
    // text: minijinja's own escape would write its URL's `/` as `&#x2f;`.
    if value.as_object().is_some() {
        return escape(out, &value.to_string());
    }
    minijinja::escape_formatter(out, state, value)
}

// ---- Contexts: exactly what each template sees ----

/// `t("key")`: the word for `key` in the page's language, from the `i18n`
/// table of its context (so the fingerprint covers it).
fn translate(state: &State, key: &str) -> Result<Value, minijinja::Error> {
    let text = state
        .lookup("i18n")
        .and_then(|table| table.get_attr(key).ok())
        .filter(|v| !v.is_undefined() && !v.is_none());
    text.ok_or_else(|| {
        minijinja::Error::new(
            minijinja::ErrorKind::InvalidOperation,
            format!(
                "no i18n text for `{key}` in any language; add `{key} = \"…\"` to i18n/<lang>.toml"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theme(templates: &[(&str, &str)]) -> Theme {
        Theme::from_sources(
            templates
                .iter()
                .map(|(n, t)| ((*n).to_owned(), ((*t).to_owned(), Origin::Default)))
                .collect(),
            Vec::new(),
        )
    }

    #[test]
    fn closure_hash_changes_with_what_a_template_reaches_only() {
        let before = theme(&[
            ("base.html", "B{% block c %}{% endblock %}"),
            ("post.html", "{% extends 'base.html' %}"),
            ("list.html", "L"),
            ("unused.html", "U"),
        ]);
        let base_edited = theme(&[
            ("base.html", "B2{% block c %}{% endblock %}"),
            ("post.html", "{% extends 'base.html' %}"),
            ("list.html", "L"),
            ("unused.html", "U"),
        ]);
        let unused_edited = theme(&[
            ("base.html", "B{% block c %}{% endblock %}"),
            ("post.html", "{% extends 'base.html' %}"),
            ("list.html", "L"),
            ("unused.html", "U2"),
        ]);
        assert_ne!(
            before.closure_hash("post.html"),
            base_edited.closure_hash("post.html")
        );
        assert_eq!(
            before.closure_hash("list.html"),
            base_edited.closure_hash("list.html")
        );
        for name in ["base.html", "post.html", "list.html"] {
            assert_eq!(before.closure_hash(name), unused_edited.closure_hash(name));
        }
    }

    #[test]
    fn escaping_leaves_slashes_alone() {
        let theme = theme(&[(
            "t.html",
            "<a href=\"{{ url }}\">{{ text }}</a>{{ html|safe }}",
        )]);
        let env = theme
            .environment(&Highlight::default(), &Requests::without_files())
            .unwrap();
        let render = |context: serde_json::Value| {
            String::from_utf8(theme.render(&env, "t.html", &context, 0).unwrap()).unwrap()
        };
        assert_eq!(
            render(
                serde_json::json!({"url": "/fr/posts/x/", "text": "a<b & \"c\" 'd' > e", "html": "<p>x</p>"})
            ),
            "<a href=\"/fr/posts/x/\">a&lt;b &amp; &quot;c&quot; &#39;d&#39; &gt; e</a><p>x</p>"
        );
        // Under 16 bytes, the escaper takes its other path.
        assert_eq!(
            render(serde_json::json!({"url": "/", "text": "<'&\">", "html": ""})),
            "<a href=\"/\">&lt;&#39;&amp;&quot;&gt;</a>"
        );
    }

    #[test]
    fn a_body_is_markup_with_or_without_safe_and_safe_marks_anything() {
        let theme = theme(&[(
            "t.html",
            "{{ post.content }}|{{ post.content|safe }}|{{ n|safe }}|{{ text|safe }}",
        )]);
        let env = theme
            .environment(&Highlight::default(), &Requests::without_files())
            .unwrap();
        let body = Value::from_safe_string("<p>a & b</p>".into());
        let rendered = env
            .get_template("t.html")
            .unwrap()
            .render(minijinja::context! {
                post => minijinja::context! { content => body },
                n => 7,
                text => "<i>t</i>",
            })
            .unwrap();
        assert_eq!(rendered, "<p>a & b</p>|<p>a & b</p>|7|<i>t</i>");
    }

    #[test]
    fn words_look_to_a_template_like_the_map_they_were_made_from() {
        let theme = theme(&[(
            "t.html",
            "{{ i18n.feed }}|{{ i18n['tags'] }}|{% for k in i18n %}{{ k }},{% endfor %}|\
             {% for k, v in i18n|items %}{{ k }}={{ v }};{% endfor %}|{{ i18n|length }}|\
             {{ i18n|tojson }}|{{ i18n.missing is undefined }}|{{ i18n is mapping }}|\
             {{ t('feed') }}",
        )]);
        let env = theme
            .environment(&Highlight::default(), &Requests::without_files())
            .unwrap();
        let words = BTreeMap::from([
            ("tags".to_owned(), "Mots-clés".to_owned()),
            ("feed".to_owned(), "Flux <Atom>".to_owned()),
            ("a".to_owned(), "\"x\"".to_owned()),
        ]);
        let render = |i18n: Value| {
            env.get_template("t.html")
                .unwrap()
                .render(minijinja::context! { i18n => i18n })
                .unwrap()
        };
        let as_words = render(Shared::words(words.clone()).value.clone());
        assert_eq!(
            as_words,
            render(Value::from(minijinja::value::Serde(&words)))
        );
        assert!(
            as_words.starts_with("Flux &lt;Atom&gt;|Mots-clés|a,feed,tags,|"),
            "{as_words}"
        );
        assert_eq!(
            Shared::words(words.clone()).digest(),
            Shared::new(words).digest()
        );
    }

    #[test]
    fn template_errors_name_the_template_and_line() {
        let theme = theme(&[("bad.html", "line one\n{% if %}\n")]);
        match theme.environment(&Highlight::default(), &Requests::without_files()) {
            Err(Error::Template { path, line, .. }) => {
                assert!(path.to_string_lossy().contains("bad.html"));
                assert_eq!(line, Some(2));
            }
            Err(other) => panic!("unexpected error {other}"),
            Ok(_) => panic!("a syntax error must fail"),
        }
    }

    #[test]
    fn a_misspelled_name_is_an_error_naming_the_names_that_are_there() {
        let strict = theme(&[(
            "strict.html",
            "{% if post.draft %}never{% endif %}\n<h1>{{ post.titel }}</h1>\n",
        )]);
        let env = strict
            .environment(&Highlight::default(), &Requests::without_files())
            .unwrap();
        let context = serde_json::json!({"post": {"title": "T", "tags": []}, "url": "/x/"});
        match strict.render(&env, "strict.html", &context, 0) {
            Err(Error::Template {
                path,
                line,
                message,
            }) => {
                assert!(path.to_string_lossy().contains("strict.html"));
                assert_eq!(line, Some(2), "{message}");
                assert!(
                    message.contains("did you mean `title`? `post` has `tags`, `title`"),
                    "{message}"
                );
            }
            other => panic!(
                "a misspelled name must fail: {:?}",
                other.map(String::from_utf8)
            ),
        }
        let top = theme(&[("top.html", "{{ ulr }}")]);
        let env = top
            .environment(&Highlight::default(), &Requests::without_files())
            .unwrap();
        let said = top
            .render(&env, "top.html", &context, 0)
            .unwrap_err()
            .to_string();
        assert!(
            said.contains("did you mean `url`? the page has `post`, `url`"),
            "{said}"
        );
    }
}
