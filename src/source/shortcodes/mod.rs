//! Shortcodes: templates of the theme's `shortcodes/` folder called from a
//! body in Zola's syntax ([`syntax`]), their arguments the template's
//! variables and the body they enclose, rendered as Markdown, its `body`.
//!
//! A call is taken out of the text before Markdown reads it, a placeholder
//! of private-use characters left in its place, and its HTML put there
//! after: Markdown never sees (nor mangles) what a shortcode writes, and a
//! call alone in its paragraph replaces the paragraph.

use std::collections::{BTreeMap, BTreeSet};

use minijinja::{Environment, Value};

use crate::model::doc::InternalLink;
use crate::model::error::ProblemKind;
use crate::source::html::internal_links;

pub mod syntax;

use syntax::{Call, Piece};

/// The folder of the theme's templates that holds the shortcodes.
pub const SHORTCODES_DIR: &str = "shortcodes/";

/// The variables folio gives every shortcode besides its arguments.
const GIVEN: &[&str] = &["body", "nth", "lang"];

/// The work one shortcode may do, in minijinja fuel: far more than an
/// embed or a figure takes, far less than a page.
const FUEL: u64 = 1_000_000;

/// Placeholders are made of characters of the Private Use Area, which no
/// text of a post means and Markdown passes as they are.
const MARK: char = '\u{E000}';

/// The shortcodes of a site, ready to render.
pub struct Shortcodes {
    env: Environment<'static>,
    /// Each shortcode's arguments: the variables its template reads that
    /// folio does not give.
    params: BTreeMap<String, BTreeSet<String>>,
    /// Stands for every shortcode template, in the content settings.
    digest: String,
    /// Whether calls are taken out of bodies at all.
    expanding: bool,
}

/// A body with its calls taken out: the text Markdown reads, what each
/// placeholder stands for, and the shortcodes it called.
pub struct Expanded {
    pub text: String,
    outputs: Vec<String>,
    pub called: BTreeSet<String>,
    /// The Markdown each call of the text encloses (nested calls within
    /// it), with the line of its call in the source: where the outline
    /// finds the links and images a note's body holds.
    pub bodies: Vec<(usize, String)>,
    /// The `@/` links each call's template writes itself (not those of
    /// the Markdown it encloses, but those of the calls nested in it), with
    /// the line of its call.
    pub links: WrittenLinks,
}

/// A problem with a call, at a line of the body.
pub type CallError = (usize, ProblemKind);

/// The `@/` links shortcode templates wrote (not the Markdown of their
/// calls), each at the line of its call in the source.
pub type WrittenLinks = Vec<InternalLink>;

/// Renders the Markdown a call encloses, whose first line is the given
/// line of the source: its HTML, the shortcodes it called, and the links
/// their templates wrote.
pub type Render<'r> =
    dyn Fn(&str, usize) -> Result<(String, BTreeSet<String>, WrittenLinks), CallError> + 'r;

impl Default for Shortcodes {
    fn default() -> Self {
        Shortcodes::new(std::iter::empty(), String::new())
    }
}

impl Shortcodes {
    /// The shortcodes among `templates` (every template of the theme, by
    /// name, so that one may include another), and `digest`, which stands
    /// for them all. A template that does not compile is named when the
    /// theme is, so it is left out here.
    pub fn new(templates: impl Iterator<Item = (String, String)>, digest: String) -> Shortcodes {
        let mut env = Environment::new();
        env.set_fuel(Some(FUEL));
        env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
        let mut names = Vec::new();
        for (name, text) in templates {
            if name.starts_with(SHORTCODES_DIR) {
                names.push(name.clone());
            }
            let _ = env.add_template_owned(name, text);
        }
        let params = names
            .into_iter()
            .filter_map(|file| {
                let variables = env.get_template(&file).ok()?.undeclared_variables(false);
                let name = file.strip_prefix(SHORTCODES_DIR)?.strip_suffix(".html")?;
                let params = variables
                    .into_iter()
                    .filter(|v| !GIVEN.contains(&v.as_str()))
                    .collect();
                Some((name.to_owned(), params))
            })
            .collect();
        Shortcodes {
            env,
            params,
            digest,
            expanding: true,
        }
    }

    /// Shortcodes that leave every call in the text as written: for reading
    /// what no body decides (an id, a front matter) without the theme.
    pub fn unexpanded() -> Shortcodes {
        Shortcodes {
            expanding: false,
            ..Shortcodes::default()
        }
    }

    /// The arguments shortcode `name` takes, when there is one.
    pub(crate) fn takes(&self, name: &str) -> Option<&BTreeSet<String>> {
        self.params.get(name)
    }

    /// What the content settings hold of the shortcodes: a summary renders
    /// the calls it holds when its source is parsed.
    pub fn settings(&self) -> &str {
        &self.digest
    }

    /// `markdown` with its calls rendered by their templates and taken out
    /// (`None` when it calls none), for a document in `lang` whose body's
    /// first line is `first_line` of its source; `render` turns an
    /// enclosed body's Markdown into HTML.
    pub fn expand(
        &self,
        markdown: &str,
        (lang, first_line): (&str, usize),
        render: &Render<'_>,
    ) -> Result<Option<Expanded>, CallError> {
        if !self.expanding {
            return Ok(None);
        }
        let pieces = syntax::pieces(markdown, crate::source::markdown::MARKDOWN).map_err(
            |(line, message)| {
                let help =
                    "write `{{ name(arg=\"value\") }}`, or `{{/* … */}}` to show a call as it is"
                        .into();
                (first_line + line - 1, shortcode_problem("", message, help))
            },
        )?;
        let Some(pieces) = pieces else {
            return Ok(None);
        };
        let mut expanded = Expanded {
            text: String::with_capacity(markdown.len()),
            outputs: Vec::new(),
            called: BTreeSet::new(),
            bodies: Vec::new(),
            links: Vec::new(),
        };
        let mut nth: BTreeMap<&str, usize> = BTreeMap::new();
        for piece in pieces {
            match piece {
                Piece::Text(text) => expanded.text.push_str(text),
                Piece::Escaped(call) => expanded.text.push_str(&call),
                Piece::Call(call) => {
                    let line = first_line + call.line - 1;
                    let count = nth.entry(call.name).or_default();
                    *count += 1;
                    let (html, called, links) = self
                        .render(&call, (lang, *count, line), render)
                        .map_err(|kind| (line, kind))?;
                    expanded.called.insert(call.name.to_owned());
                    expanded.called.extend(called);
                    expanded.links.extend(links);
                    if let Some(body) = call.body {
                        expanded.bodies.push((line, body.to_owned()));
                    }
                    push_placeholder(&mut expanded.text, expanded.outputs.len());
                    expanded.outputs.push(html);
                }
            }
        }
        Ok(Some(expanded))
    }

    /// One call's HTML, its body rendered first; the shortcodes called,
    /// and the `@/` links its template wrote beside its body's (and those
    /// the templates of the calls in its body wrote).
    fn render(
        &self,
        call: &Call<'_>,
        (lang, nth, line): (&str, usize, usize),
        render: &Render<'_>,
    ) -> Result<(String, BTreeSet<String>, WrittenLinks), ProblemKind> {
        let Some(params) = self.params.get(call.name) else {
            let near = self
                .params
                .keys()
                .min_by_key(|known| strsim::levenshtein(known, call.name));
            let help = match near {
                Some(near) => format!(
                    "did you mean `{near}`? Or add templates/{SHORTCODES_DIR}{}.html",
                    call.name
                ),
                None => format!("add templates/{SHORTCODES_DIR}{}.html", call.name),
            };
            let message = "there is no such shortcode".into();
            return Err(shortcode_problem(call.name, message, help));
        };
        if let Some(unknown) = call.args.keys().find(|arg| !params.contains(**arg)) {
            let near = params
                .iter()
                .min_by_key(|known| strsim::levenshtein(known, unknown));
            let takes = params
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join(", ");
            let help = match near {
                Some(near) if strsim::levenshtein(near, unknown) <= 2 => {
                    format!("did you mean `{near}`? It takes: {takes}")
                }
                _ if takes.is_empty() => "it takes no argument".into(),
                _ => format!("it takes: {takes}"),
            };
            let message = format!("it has no argument `{unknown}`");
            return Err(shortcode_problem(call.name, message, help));
        }
        let mut context: BTreeMap<&str, Value> = call
            .args
            .iter()
            .map(|(key, value)| (*key, value.clone()))
            .collect();
        context.insert("nth", Value::from(nth));
        context.insert("lang", Value::from(lang));
        let mut called = BTreeSet::new();
        let (mut body_links, mut written) = (Vec::new(), Vec::new());
        if let Some(body) = call.body {
            let (html, inner, inner_written) = render(body, line).map_err(|(_, kind)| kind)?;
            called = inner;
            body_links = internal_links(&html);
            written = inner_written;
            context.insert("body", Value::from_safe_string(html));
        }
        let file = format!("{SHORTCODES_DIR}{}.html", call.name);
        self.env
            .get_template(&file)
            .and_then(|template| template.render(context))
            .map(|html| {
                // The body's links are read from its Markdown, and those
                // its calls' templates wrote are already in `written`.
                for (_, target) in internal_links(&html) {
                    match body_links.iter().position(|(_, t)| *t == target) {
                        Some(at) => drop(body_links.swap_remove(at)),
                        None => written.push(InternalLink {
                            line: u32::try_from(line).unwrap_or(u32::MAX),
                            target,
                        }),
                    }
                }
                (html.trim().to_owned(), called, written)
            })
            .map_err(|error| {
                let at = error.line().map(|l| format!(":{l}")).unwrap_or_default();
                let message = format!("its template failed: templates/{file}{at}: {error:#}");
                let help = "fix the call's arguments or the template".into();
                shortcode_problem(call.name, message, help)
            })
    }
}

impl Expanded {
    /// `html`, rendered from [`Expanded::text`], with each placeholder
    /// replaced by its shortcode's HTML: a paragraph holding only one by
    /// that HTML alone.
    pub fn fill(&self, html: &str) -> String {
        let mut filled = html.to_owned();
        for (n, output) in self.outputs.iter().enumerate() {
            let mut placeholder = String::new();
            push_placeholder(&mut placeholder, n);
            let alone = format!("<p>{placeholder}</p>");
            filled = if filled.contains(&alone) {
                filled.replace(&alone, output)
            } else {
                filled.replace(&placeholder, output)
            };
        }
        filled
    }
}

/// The placeholder of the `n`th call: its number in two private-use
/// characters between two marks.
fn push_placeholder(text: &mut String, n: usize) {
    let digit = |value: usize| char::from_u32(0xE100 + (value % 1024) as u32).unwrap_or(MARK);
    text.push(MARK);
    text.push(digit(n / 1024));
    text.push(digit(n));
    text.push(MARK);
}

fn shortcode_problem(name: &str, message: String, help: String) -> ProblemKind {
    ProblemKind::Shortcode {
        name: name.to_owned(),
        message,
        help,
    }
}

#[cfg(test)]
mod tests;
