//! Fenced code blocks as highlighted HTML, and the stylesheet of their
//! classes.
//!
//! The info string is read in Zola's form (`rust,linenos,hl_lines=2-3 5`)
//! or Hugo's (`rust {linenos=true,hl_lines=[2,"4-5"]}`); the code is split
//! into tokens by syntect with bat's grammars (two-face) and written with
//! CSS classes (`z-keyword`…, styled by [`stylesheet`]) or inline styles. A
//! language without a grammar is written plain, escaped, and noted; an
//! option folio does not read is noted and ignored. Pure: the grammars and
//! themes are compiled into the binary, each loaded on first use.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock, Mutex};

use pulldown_cmark_escape::{escape_html, escape_html_body_text};
use rustc_hash::FxHashMap;
use serde::Deserialize;
use syntect::easy::HighlightLines;
use syntect::highlighting::Theme;
use syntect::html::{
    ClassStyle, IncludeBackground, css_for_theme_with_class_style, styled_line_to_highlighted_html,
};
use syntect::parsing::{
    BasicScopeStackOp, ParseState, Scope, ScopeStack, ScopeStackOp, SyntaxReference, SyntaxSet,
};
use syntect::util::LinesWithEndings;
use two_face::theme::{EmbeddedLazyThemeSet, EmbeddedThemeName};
use xxhash_rust::xxh3::Xxh3;

mod info;

pub use info::{Info, Note, parse_info};

/// The highlighter and its grammars: part of the fingerprint of every page
/// (through the content settings), since a new grammar can change any
/// highlighted block. Kept equal to Cargo.lock by a test.
pub const HIGHLIGHTER: &str = "syntect 5.3.0, two-face 0.5.2+bat-0.26.1";

/// Every class syntect writes starts with it, so a theme's own classes
/// never collide with a grammar's scope names.
const CLASSES: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "z-" };

/// Loaded once per process, each grammar compiled on its first block:
/// loading all of them takes about 2 ms.
static SYNTAXES: LazyLock<SyntaxSet> = LazyLock::new(two_face::syntax::extra_newlines);
static THEMES: LazyLock<EmbeddedLazyThemeSet> = LazyLock::new(two_face::theme::extra);

/// Names written on code blocks that name no grammar's extension or name.
const ALIASES: &[(&str, &str)] = &[
    ("shell", "sh"),
    ("zsh", "sh"),
    ("golang", "go"),
    ("docker", "dockerfile"),
    ("py3", "py"),
    ("jsx", "js"),
    ("ps1", "powershell"),
];

/// Names that ask for no highlighting: written plain, without a warning.
/// Diagrams among them: a script of the theme draws those from the
/// block's `language-mermaid` class, as Hugo's and Zola's themes do.
const PLAIN: &[&str] = &[
    "text",
    "txt",
    "plain",
    "plaintext",
    "none",
    "mermaid",
    "dot",
    "graphviz",
    "plantuml",
    "d2",
];

/// The `[highlight]` table of site.toml.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Highlight {
    /// Whether fenced blocks with a language are highlighted at all.
    pub enabled: bool,
    /// CSS classes (the stylesheet written by folio) or inline styles.
    pub style: Style,
    /// The theme of the classes' light scheme, and of inline styles.
    pub light_theme: String,
    /// The theme of the classes under `prefers-color-scheme: dark`.
    pub dark_theme: String,
}

impl Default for Highlight {
    fn default() -> Self {
        Highlight {
            enabled: true,
            style: Style::Classes,
            light_theme: "GitHub".into(),
            dark_theme: "OneHalfDark".into(),
        }
    }
}

/// How highlighted tokens carry their colours.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Style {
    Classes,
    Inline,
}

impl Highlight {
    /// What a page's body depends on: the highlighter's version and every
    /// setting, or that blocks are written plain.
    pub fn settings(&self) -> String {
        if !self.enabled {
            return "highlight off".into();
        }
        format!(
            "highlight {HIGHLIGHTER} {:?} {} / {}",
            self.style, self.light_theme, self.dark_theme
        )
    }

    /// Checks the theme names: a message naming the key, and the theme
    /// meant when one is close.
    pub fn check(&self) -> Result<(), (String, String)> {
        for (key, name) in [
            ("light_theme", &self.light_theme),
            ("dark_theme", &self.dark_theme),
        ] {
            if theme_named(name).is_none() {
                let names = EmbeddedLazyThemeSet::theme_names()
                    .iter()
                    .map(|t| t.as_name());
                let near = names.clone().min_by_key(|known| {
                    strsim::levenshtein(&known.to_lowercase(), &name.to_lowercase())
                });
                let all: Vec<&str> = names.collect();
                let help = match near {
                    Some(near) => format!("did you mean `{near}`? The themes: {}", all.join(", ")),
                    None => String::new(),
                };
                return Err((
                    format!("[highlight] {key} `{name}` is not a theme folio has"),
                    help,
                ));
            }
        }
        Ok(())
    }
}

fn theme_named(name: &str) -> Option<&'static Theme> {
    let theme = EmbeddedLazyThemeSet::theme_names()
        .iter()
        .find(|t| t.as_name() == name)?;
    Some(THEMES.get(*theme))
}

/// The light theme, then the dark one; the defaults stand in for a name
/// [`Highlight::check`] would refuse.
fn themes(settings: &Highlight) -> [&'static Theme; 2] {
    let or = |name: &str, default: EmbeddedThemeName| {
        theme_named(name).unwrap_or_else(|| THEMES.get(default))
    };
    [
        or(&settings.light_theme, EmbeddedThemeName::Github),
        or(&settings.dark_theme, EmbeddedThemeName::OneHalfDark),
    ]
}

/// The CSS of highlighted blocks written with classes: the light theme,
/// the dark one under `prefers-color-scheme: dark`, and the marks of line
/// numbers and highlighted lines. Empty when blocks carry inline styles or
/// are not highlighted.
pub fn stylesheet(settings: &Highlight) -> String {
    if !settings.enabled || settings.style != Style::Classes {
        return String::new();
    }
    let [light, dark] = themes(settings);
    let mut css = String::from(LINES_CSS);
    // A theme's CSS is made of its own colours: writing to a String
    // cannot fail.
    css.push_str(&css_for_theme_with_class_style(light, CLASSES).unwrap_or_default());
    css.push_str(&line_highlight(light));
    css.push_str("@media (prefers-color-scheme: dark) {\n");
    css.push_str(&css_for_theme_with_class_style(dark, CLASSES).unwrap_or_default());
    css.push_str(&line_highlight(dark));
    css.push_str("}\n");
    css
}

const LINES_CSS: &str = "\
/* Highlighted code, written by folio from [highlight] in site.toml. */
.highlight .ln { display: inline-block; min-width: 2ch; margin-inline-end: 1em; text-align: end; opacity: .6; user-select: none; }
.highlight .line.hl { display: inline-block; min-width: 100%; }
";

/// The rule of a highlighted line: the theme's line highlight, or a
/// translucent grey for a theme without one.
fn line_highlight(theme: &Theme) -> String {
    let colour = theme.settings.line_highlight.map_or_else(
        || "rgba(127, 127, 127, .2)".to_owned(),
        |c| format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b),
    );
    format!(".highlight .line.hl {{ background-color: {colour}; }}\n")
}

fn syntax_of(lang: &str) -> Option<&'static SyntaxReference> {
    let lower = lang.to_ascii_lowercase();
    let token = ALIASES
        .iter()
        .find(|(alias, _)| *alias == lower)
        .map_or(lower.as_str(), |(_, meant)| meant);
    SYNTAXES.find_syntax_by_token(token)
}

/// A fenced block as HTML: `None` for a block without a language, which
/// Markdown writes as it always did. A language without a grammar is
/// written plain and noted.
pub fn block_html(
    settings: &Highlight,
    info: &str,
    code: &str,
    notes: &mut Vec<Note>,
) -> Option<String> {
    let written = info;
    let info = parse_info(written, notes);
    if info.lang.is_empty() {
        return None;
    }
    let syntax = if PLAIN.contains(&info.lang.to_ascii_lowercase().as_str()) {
        None
    } else {
        let found = syntax_of(info.lang);
        if found.is_none() {
            notes.push(Note::UnknownLanguage(info.lang.to_owned()));
        }
        found
    };
    if syntax.is_none() {
        return Some(write_block(settings, &info, None, code));
    }
    let key = {
        let mut hasher = Xxh3::new();
        for part in [settings.settings().as_str(), written, code] {
            hasher.update(part.as_bytes());
            hasher.update(b"\0");
        }
        hasher.digest128()
    };
    let memo = || MEMO.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(html) = memo().blocks.get(&key) {
        return Some(String::from(&**html));
    }
    let html = write_block(settings, &info, syntax, code);
    memo().keep(key, &html);
    Some(html)
}

/// Blocks highlighted earlier in this process, by a hash of the settings,
/// the info string and the code. The translations of a post mostly carry
/// the same code: on a corpus of 5,000 posts in three languages this
/// highlights 5,000 blocks instead of 15,000. Emptied when it reaches
/// [`MEMO_BYTES`], so a long `folio serve` holds at most that much.
static MEMO: LazyLock<Mutex<Memo>> = LazyLock::new(Mutex::default);

const MEMO_BYTES: usize = 32 << 20;

#[derive(Default)]
struct Memo {
    blocks: FxHashMap<u128, Arc<str>>,
    bytes: usize,
}

impl Memo {
    fn keep(&mut self, key: u128, html: &str) {
        if self.bytes + html.len() > MEMO_BYTES {
            self.blocks.clear();
            self.bytes = 0;
        }
        self.bytes += html.len();
        self.blocks.insert(key, Arc::from(html));
    }
}

/// A block as HTML: highlighted with `syntax`, or plain without one.
fn write_block(
    settings: &Highlight,
    info: &Info<'_>,
    syntax: Option<&SyntaxReference>,
    code: &str,
) -> String {
    let mut html = String::with_capacity(code.len() * 4 + 96);
    let inline = settings.style == Style::Inline;
    html.push_str("<pre class=\"highlight");
    match syntax {
        Some(_) if inline => {
            let [light, _] = themes(settings);
            let colour = |c: Option<syntect::highlighting::Color>| {
                c.map(|c| format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b))
            };
            html.push('"');
            if let (Some(bg), Some(fg)) = (
                colour(light.settings.background),
                colour(light.settings.foreground),
            ) {
                let _ = write!(html, " style=\"background-color:{bg};color:{fg}\"");
            }
        }
        Some(_) => html.push_str(" z-code\""),
        None => html.push('"'),
    }
    html.push_str("><code class=\"language-");
    escape_attr(&mut html, info.lang);
    html.push_str("\" data-lang=\"");
    escape_attr(&mut html, info.lang);
    if let Some(name) = info.name {
        html.push_str("\" data-name=\"");
        escape_attr(&mut html, name);
    }
    html.push_str("\">");
    let code_at = html.len();
    let written = match syntax {
        Some(syntax) if inline => inline_lines(&mut html, syntax, code, (info, settings)),
        Some(syntax) => classed_lines(&mut html, syntax, code, info),
        None => Err(()),
    };
    if written.is_err() {
        // A grammar that fails on this text (none is known to) leaves the
        // block plain rather than the build stopped.
        html.truncate(code_at);
        plain_lines(&mut html, code, info);
    }
    html.push_str("</code></pre>\n");
    html
}

fn escape_attr(out: &mut String, text: &str) {
    // Writing to a String cannot fail.
    let _ = escape_html(&mut *out, text);
}

/// Starts line `n` (0-based) of a block that wraps its lines.
fn open_line(out: &mut String, n: usize, info: &Info<'_>) {
    if info.is_highlighted(n + 1) {
        out.push_str("<span class=\"line hl\">");
    } else {
        out.push_str("<span class=\"line\">");
    }
    if info.linenos {
        let _ = write!(out, "<span class=\"ln\">{}</span>", info.linenostart + n);
    }
}

/// Takes the line's newline out of the HTML just written from `from` on,
/// so the line's span closes before it.
fn close_line(out: &mut String, from: usize, open: usize) {
    let newline = out[from..].rfind('\n').map(|at| from + at);
    if let Some(at) = newline {
        out.remove(at);
    }
    for _ in 0..open {
        out.push_str("</span>");
    }
    out.push_str("</span>");
    if newline.is_some() {
        out.push('\n');
    }
}

fn plain_lines(out: &mut String, code: &str, info: &Info<'_>) {
    for (n, line) in LinesWithEndings::from(code).enumerate() {
        let from = out.len();
        if info.wraps_lines() {
            open_line(out, n, info);
        }
        let _ = escape_html_body_text(&mut *out, line);
        if info.wraps_lines() {
            close_line(out, from, 0);
        }
    }
}

fn classed_lines(
    out: &mut String,
    syntax: &SyntaxReference,
    code: &str,
    info: &Info<'_>,
) -> Result<(), ()> {
    let mut state = ParseState::new(syntax);
    let mut stack = ScopeStack::new();
    let mut opened = 0usize;
    for (n, line) in LinesWithEndings::from(code).enumerate() {
        let ops = state.parse_line(line, &SYNTAXES).map_err(drop)?;
        let from = out.len();
        if info.wraps_lines() {
            open_line(out, n, info);
            // The scopes still open from the lines before, opened again
            // inside this line's span.
            for scope in stack.as_slice() {
                open_span(out, *scope);
            }
        }
        spans(out, line, &ops, &mut stack)?;
        if info.wraps_lines() {
            close_line(out, from, stack.len());
        }
        opened = stack.len();
    }
    if !info.wraps_lines() {
        for _ in 0..opened {
            out.push_str("</span>");
        }
    }
    Ok(())
}

thread_local! {
    /// The classes of each scope met on this thread, as `z-source z-rust`:
    /// syntect's own writer looks every atom up under a process-wide lock,
    /// once per token, for which two render threads wait on each other.
    static SCOPE_CLASSES: RefCell<FxHashMap<Scope, Box<str>>> = RefCell::default();
}

fn open_span(out: &mut String, scope: Scope) {
    out.push_str("<span class=\"");
    SCOPE_CLASSES.with_borrow_mut(|classes| {
        let names = classes.entry(scope).or_insert_with(|| {
            let mut names = String::new();
            for atom in scope.build_string().split('.') {
                if !names.is_empty() {
                    names.push(' ');
                }
                names.push_str("z-");
                names.push_str(atom);
            }
            names.into()
        });
        escape_attr(out, names);
    });
    out.push_str("\">");
}

/// One line's text and the spans of its scopes, as syntect's
/// `line_tokens_to_classed_spans` writes them (a span opened and closed
/// around no text is left out), into `out`.
fn spans(
    out: &mut String,
    line: &str,
    ops: &[(usize, ScopeStackOp)],
    stack: &mut ScopeStack,
) -> Result<(), ()> {
    let mut written = 0;
    let mut empty_span_at = None;
    for (at, op) in ops {
        let at = (*at).min(line.len());
        if at > written {
            empty_span_at = None;
            let _ = escape_html_body_text(&mut *out, line.get(written..at).ok_or(())?);
            written = at;
        }
        stack
            .apply_with_hook(op, |op, _| match op {
                BasicScopeStackOp::Push(scope) => {
                    empty_span_at = Some(out.len());
                    open_span(out, scope);
                }
                BasicScopeStackOp::Pop => match empty_span_at.take() {
                    Some(start) => out.truncate(start),
                    None => out.push_str("</span>"),
                },
            })
            .map_err(drop)?;
    }
    let _ = escape_html_body_text(&mut *out, line.get(written..).ok_or(())?);
    Ok(())
}

fn inline_lines(
    out: &mut String,
    syntax: &SyntaxReference,
    code: &str,
    (info, settings): (&Info<'_>, &Highlight),
) -> Result<(), ()> {
    let [light, _] = themes(settings);
    let mut lines = HighlightLines::new(syntax, light);
    for (n, line) in LinesWithEndings::from(code).enumerate() {
        let regions = lines.highlight_line(line, &SYNTAXES).map_err(drop)?;
        let from = out.len();
        if info.wraps_lines() {
            open_line(out, n, info);
        }
        out.push_str(
            &styled_line_to_highlighted_html(&regions, IncludeBackground::No).map_err(drop)?,
        );
        if info.wraps_lines() {
            close_line(out, from, 0);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(info: &str, code: &str) -> (String, Vec<Note>) {
        let mut notes = Vec::new();
        let html = block_html(&Highlight::default(), info, code, &mut notes).unwrap();
        (html, notes)
    }

    #[test]
    fn a_rust_block_gets_token_classes() {
        let (html, notes) = block("rust", "fn main() {\n    let x = 1;\n}\n");
        assert!(notes.is_empty(), "{notes:?}");
        assert!(
            html.starts_with(
                "<pre class=\"highlight z-code\"><code class=\"language-rust\" data-lang=\"rust\">"
            ),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"z-storage z-type z-function z-rust\">fn</span>"),
            "{html}"
        );
        assert!(html.ends_with("</code></pre>\n"), "{html}");
        assert_eq!(
            html.matches("<span").count(),
            html.matches("</span>").count(),
            "{html}"
        );
    }

    #[test]
    fn an_unknown_language_is_plain_escaped_and_noted() {
        let (html, notes) = block("klingon", "<b>&</b>\n");
        assert_eq!(
            html,
            "<pre class=\"highlight\"><code class=\"language-klingon\" data-lang=\"klingon\">&lt;b&gt;&amp;&lt;/b&gt;\n</code></pre>\n"
        );
        assert_eq!(notes, [Note::UnknownLanguage("klingon".into())]);
        // A diagram is for the theme's script to draw: plain, no warning.
        let (html, notes) = block("mermaid", "graph TD\n");
        assert!(html.contains("<code class=\"language-mermaid\""), "{html}");
        assert!(notes.is_empty(), "{notes:?}");
        // Asking for plain text is not a mistake.
        let (_, notes) = block("text", "x\n");
        assert!(notes.is_empty());
    }

    #[test]
    fn a_named_block_carries_its_file_name() {
        let (html, notes) = block("rust,name=src/main.rs", "fn main() {}\n");
        assert!(notes.is_empty(), "{notes:?}");
        assert!(
            html.starts_with(
                "<pre class=\"highlight z-code\"><code class=\"language-rust\" data-lang=\"rust\" data-name=\"src/main.rs\">"
            ),
            "{html}"
        );
        // Plain blocks carry it too, escaped as any attribute.
        let (html, _) = block("klingon,name=a\"><script>.kl", "x\n");
        assert!(
            html.contains("data-lang=\"klingon\" data-name=\"a&quot;&gt;&lt;script&gt;.kl\">"),
            "{html}"
        );
        // Without a name the block is as it was.
        assert!(!block("rust", "fn main() {}\n").0.contains("data-name"));
    }

    #[test]
    fn html_in_code_is_escaped() {
        let (html, _) = block("html", "<script>alert(\"&\")</script>\n");
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;"), "{html}");
        let (html, _) = block("rust\"><script>", "x\n");
        assert!(!html.contains("<script>"), "{html}");
    }

    #[test]
    fn line_numbers_and_highlighted_lines_wrap_each_line() {
        let (html, _) = block(
            "rust,linenos,hl_lines=2,linenostart=7",
            "let a = \"x\ny\";\nlet b = 2;\n",
        );
        let lines: Vec<&str> = html.lines().collect();
        assert!(
            lines[0].contains("<span class=\"line\"><span class=\"ln\">7</span>"),
            "{html}"
        );
        // The string open across the line break is closed and opened again.
        assert!(lines[1].starts_with("<span class=\"line hl\"><span class=\"ln\">8</span><span class=\"z-source z-rust\"><span class=\"z-string"), "{html}");
        assert!(lines[2].contains("<span class=\"ln\">9</span>"), "{html}");
        for line in &lines[..3] {
            assert_eq!(
                line.matches("<span").count(),
                line.matches("</span>").count(),
                "{line}"
            );
        }
        let (plain, _) = block("klingon,hl_lines=1", "a\nb\n");
        assert!(
            plain.contains("<span class=\"line hl\">a</span>\n<span class=\"line\">b</span>\n"),
            "{plain}"
        );
    }

    #[test]
    fn a_block_highlighted_again_is_taken_from_the_memo_of_its_settings() {
        let (first, _) = block("rust,hl_lines=1", "let memo = 1;\n");
        let (again, notes) = block("rust,hl_lines=1", "let memo = 1;\n");
        assert_eq!(first, again);
        assert!(notes.is_empty());
        let inline = Highlight {
            style: Style::Inline,
            ..Highlight::default()
        };
        let other = block_html(
            &inline,
            "rust,hl_lines=1",
            "let memo = 1;\n",
            &mut Vec::new(),
        );
        assert_ne!(other.as_deref(), Some(first.as_str()));
        // An option noted is noted again, though the HTML is remembered.
        for _ in 0..2 {
            let mut notes = Vec::new();
            block_html(&Highlight::default(), "rust,bogus", "x\n", &mut notes);
            assert_eq!(notes, [Note::IgnoredOption("bogus".into())]);
        }
    }

    #[test]
    fn inline_styles_carry_the_light_theme_colours() {
        let settings = Highlight {
            style: Style::Inline,
            ..Highlight::default()
        };
        let html = block_html(&settings, "rust", "fn x() {}\n", &mut Vec::new()).unwrap();
        assert!(
            html.starts_with("<pre class=\"highlight\" style=\"background-color:#"),
            "{html}"
        );
        assert!(html.contains("<span style=\"color:#"), "{html}");
        assert!(!html.contains("z-"), "{html}");
        assert_eq!(stylesheet(&settings), "");
    }

    #[test]
    fn the_stylesheet_has_a_light_and_a_dark_theme() {
        let css = stylesheet(&Highlight::default());
        let (light, dark) = css
            .split_once("@media (prefers-color-scheme: dark) {")
            .unwrap();
        assert!(
            light.contains(".z-code {") && dark.contains(".z-code {"),
            "{css}"
        );
        assert!(light.contains("theme \"GitHub\""), "{light}");
        assert!(dark.contains("theme \"OneHalfDark\""), "{dark}");
    }

    #[test]
    fn an_unknown_theme_names_the_one_meant() {
        let settings = Highlight {
            dark_theme: "OneHalfDrak".into(),
            ..Highlight::default()
        };
        let (message, help) = settings.check().unwrap_err();
        assert!(message.contains("dark_theme `OneHalfDrak`"), "{message}");
        assert!(help.starts_with("did you mean `OneHalfDark`?"), "{help}");
    }

    #[test]
    fn the_languages_blogs_use_have_a_grammar() {
        for lang in [
            "sh",
            "bash",
            "shell",
            "c",
            "cpp",
            "c++",
            "cs",
            "css",
            "diff",
            "dockerfile",
            "go",
            "html",
            "java",
            "js",
            "javascript",
            "json",
            "kotlin",
            "lua",
            "makefile",
            "markdown",
            "md",
            "nix",
            "php",
            "python",
            "ruby",
            "rust",
            "rs",
            "scss",
            "sql",
            "swift",
            "toml",
            "typescript",
            "ts",
            "yaml",
            "yml",
            "xml",
            "haskell",
            "elixir",
            "zig",
            "clojure",
            "r",
            "perl",
            "scala",
            "dart",
            "latex",
            "ocaml",
            "erlang",
            "tsx",
            "jsx",
            "graphql",
            "powershell",
            "ini",
            "terraform",
            "fish",
            "vim",
        ] {
            assert!(syntax_of(lang).is_some(), "no grammar for {lang}");
        }
    }

    #[test]
    fn the_highlighter_named_in_fingerprints_is_the_one_built() {
        let lock =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
        for (name, version) in HIGHLIGHTER.split(", ").map(|p| p.split_once(' ').unwrap()) {
            let entry = format!("name = \"{name}\"\nversion = \"{version}\"");
            assert!(lock.contains(&entry), "Cargo.lock has no {entry}");
        }
    }
}
