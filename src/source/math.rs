//! Formulas (`$…$`, `$$…$$`) as MathML, written when the site is built,
//! so a page needs no script to show them.
//!
//! pulldown-cmark finds the formulas (its math extension, on with
//! `[math] enabled = true`) and hands their TeX as written, every
//! backslash kept; pulldown-latex turns it into MathML Core, which browsers
//! lay out themselves. A formula that does not parse is shown as code, as
//! written, and noted. Off, `$` is text as CommonMark reads it, as before.
//! Pure: no I/O.

use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pulldown_cmark::{CowStr, Event, Options};
use pulldown_cmark_escape::escape_html_body_text;
use pulldown_latex::config::DisplayMode;
use pulldown_latex::event::Content;
use pulldown_latex::{Parser, RenderConfig, Storage, push_mathml};
use serde::Deserialize;

use crate::source::parse::line_at;

/// The math renderer: part of the fingerprint of every page (through the
/// content settings) when math is on, since a new version can write any
/// formula differently. Kept equal to Cargo.lock by a test.
pub const RENDERER: &str = "pulldown-latex 0.8.0";

/// The `[math]` table of site.toml.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct Math {
    /// Whether `$…$` and `$$…$$` are formulas. Off by default, as in Hugo
    /// (Zola has no math): `$` is common in prose (prices, shell
    /// variables), and a site that never asked for math keeps its text.
    pub enabled: bool,
}

impl Math {
    /// What a page's body depends on: the renderer's version, or that
    /// `$` is text.
    pub fn settings(&self) -> String {
        if self.enabled {
            format!("math {RENDERER}")
        } else {
            "math off".into()
        }
    }

    /// `options`, with formulas read when math is on.
    pub fn options(&self, options: Options) -> Options {
        if self.enabled {
            options.union(Options::ENABLE_MATH)
        } else {
            options
        }
    }
}

/// A formula that does not parse: its TeX as written (delimiters
/// included) and why, for the warning naming its file and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unparsed {
    pub tex: String,
    pub why: String,
}

impl std::fmt::Display for Unparsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // One line, and not the whole of a long display formula.
        let tex: String = self.tex.split_whitespace().collect::<Vec<_>>().join(" ");
        let tex = match tex.char_indices().nth(60) {
            Some((at, _)) => format!("{}…", &tex[..at]),
            None => tex,
        };
        write!(
            f,
            "the formula `{tex}` does not parse ({}): it is shown as code",
            self.why
        )
    }
}

/// A formula event of `markdown` written as MathML; one that does not
/// parse added to `unparsed` with the line where it starts; any other
/// event as it is.
pub fn formula_at<'a>(
    (event, range): (Event<'a>, Range<usize>),
    markdown: &str,
    unparsed: &mut Vec<(usize, Unparsed)>,
) -> (Event<'a>, Range<usize>) {
    let (event, why) = formula(event);
    if let Some(why) = why {
        let line = line_at(markdown, range.start);
        unparsed.push((line, why));
    }
    (event, range)
}

/// A formula event written as MathML, or as code with why it does not
/// parse; any other event as it is.
pub fn formula(event: Event<'_>) -> (Event<'_>, Option<Unparsed>) {
    let (tex, display, delimiter) = match &event {
        Event::InlineMath(tex) => (tex, DisplayMode::Inline, "$"),
        Event::DisplayMath(tex) => (tex, DisplayMode::Block, "$$"),
        _ => return (event, None),
    };
    match mathml(tex, display) {
        Ok(mathml) => (Event::InlineHtml(CowStr::from(mathml)), None),
        Err(why) => {
            let tex = format!("{delimiter}{tex}{delimiter}");
            let mut code = String::with_capacity(tex.len() + 16);
            code.push_str("<code>");
            // Writing to a String cannot fail.
            let _ = escape_html_body_text(&mut code, &tex);
            code.push_str("</code>");
            (
                Event::InlineHtml(CowStr::from(code)),
                Some(Unparsed { tex, why }),
            )
        }
    }
}

/// `tex` as a `<math>` element, or why it does not parse.
fn mathml(tex: &str, display: DisplayMode) -> Result<String, String> {
    let mut annotation = String::with_capacity(tex.len());
    let _ = escape_html_body_text(&mut annotation, tex);
    let config = RenderConfig {
        display_mode: display,
        // The TeX as written, for whoever copies the formula or reads
        // the page's source.
        annotation: Some(&annotation),
        ..RenderConfig::default()
    };
    // pulldown-latex 0.8.0 panics on some input (`\char` before a letter
    // outside ASCII slices inside it): one formula must not stop a build.
    let rendered = catch_unwind(AssertUnwindSafe(|| {
        let storage = Storage::new();
        let mut error = None;
        let events = Parser::new(tex, &storage).map(|event| match event {
            // Written raw into `<mi>` by pulldown-latex: as text, it is
            // escaped (see `escaped`).
            Ok(pulldown_latex::Event::Content(Content::Function(name)))
                if name.contains(['<', '>', '&']) =>
            {
                Ok(pulldown_latex::Event::Content(Content::Text(name)))
            }
            Err(e) => {
                error.get_or_insert_with(|| reason(&e));
                Err(e)
            }
            ok => ok,
        });
        let mut mathml = String::with_capacity(tex.len() * 8 + 64);
        let written = push_mathml(&mut mathml, events, config);
        match (error, written) {
            (None, Ok(())) => Ok(mathml),
            (Some(why), _) => Err(why),
            (None, Err(e)) => Err(e.to_string()),
        }
    }));
    let mathml = rendered.unwrap_or_else(|_| Err("the math renderer failed on it".into()))?;
    Ok(escaped(mathml))
}

/// The first line of a parser's error, without its prefix: the rest is
/// a drawing of where it is, for a terminal of its own.
fn reason(error: &pulldown_latex::ParserError) -> String {
    let message = error.to_string();
    let first = message.lines().next().unwrap_or_default();
    first
        .strip_prefix("parsing error: ")
        .unwrap_or(first)
        .to_owned()
}

/// pulldown-latex 0.8.0 writes a `<`, `>` or `&` that is a symbol of the
/// formula as it is (`$a < b$` gives `<mo><</mo>`), which is not HTML.
/// Its own markup is regular: a tag's `<` is followed by `/` or a letter
/// and its attributes hold no `>`, an entity's `&` by a letter or `#`.
/// A symbol's never is (each is written alone before its closing tag, or
/// before a combining slash), once operator names holding them are
/// written as text: so any other is escaped.
fn escaped(mathml: String) -> String {
    let bytes = mathml.as_bytes();
    let mut out: Option<String> = None;
    let mut in_tag = false;
    let mut copied = 0;
    for (at, &byte) in bytes.iter().enumerate() {
        let next = bytes.get(at + 1).copied().unwrap_or(b' ');
        let entity = match byte {
            b'<' if !in_tag && (next == b'/' || next.is_ascii_alphabetic()) => {
                in_tag = true;
                continue;
            }
            b'>' if in_tag => {
                in_tag = false;
                continue;
            }
            b'&' if next.is_ascii_alphabetic() || next == b'#' => continue,
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'&' => "&amp;",
            _ => continue,
        };
        let out = out.get_or_insert_with(|| String::with_capacity(mathml.len() + 8));
        out.push_str(&mathml[copied..at]);
        out.push_str(entity);
        copied = at + 1;
    }
    match out {
        Some(mut out) => {
            out.push_str(&mathml[copied..]);
            out
        }
        None => mathml,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::highlight::Note;
    use crate::source::markdown::{Markup, render_body, summary_and_outline};

    const ON: Math = Math { enabled: true };

    fn on() -> Markup {
        Markup {
            math: ON,
            ..Markup::default()
        }
    }

    fn body(markdown: &str) -> (String, Vec<(usize, Note)>) {
        render_body(markdown, &on())
    }

    #[test]
    fn formulas_are_mathml_and_every_backslash_is_kept() {
        let (html, notes) = body(
            "Area $\\int_0^1 x\\,dx$ and\n\n$$\\begin{matrix} a & b \\\\ c & d \\end{matrix}$$\n",
        );
        assert!(notes.is_empty(), "{notes:?}");
        assert!(
            html.starts_with("<p>Area <math display=\"inline\"><semantics>"),
            "{html}"
        );
        assert!(html.contains("<mspace width=\"0.16666667em\" />"), "{html}");
        assert!(
            html.contains(
                "<annotation encoding=\"application/x-tex\">\\int_0^1 x\\,dx</annotation>"
            ),
            "{html}"
        );
        assert!(html.contains("<math display=\"block\">"), "{html}");
        assert!(html.contains("<mtable class=\"menv-arraylike"), "{html}");
        assert!(
            html.contains(">\\begin{matrix} a &amp; b \\\\ c &amp; d \\end{matrix}</annotation>"),
            "{html}"
        );
    }

    #[test]
    fn off_leaves_dollars_as_commonmark_reads_them() {
        let markdown = "It costs $5, or $$\\int_0^1 x\\,dx$$.\n";
        let (off, _) = render_body(markdown, &Markup::default());
        assert_eq!(off, "<p>It costs $5, or $$\\int_0^1 x,dx$$.</p>\n");
        // On, a lone `$` before a digit and a space is still text.
        let (on, _) = body("It costs $5 and $10 today.\n");
        assert_eq!(on, "<p>It costs $5 and $10 today.</p>\n");
    }

    #[test]
    fn a_formula_that_does_not_parse_is_code_with_its_line() {
        let (html, notes) = body("Fine $x$.\n\nBroken\n$x^^2 > 1$ and $$\\foo$$.\n");
        assert!(
            html.contains("<code>$x^^2 &gt; 1$</code> and <code>$$\\foo$$</code>"),
            "{html}"
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(notes[0].0, 4);
        let Note::Formula(first) = &notes[0].1 else {
            panic!("{notes:?}")
        };
        assert_eq!(first.tex, "$x^^2 > 1$");
        assert_eq!(
            notes[1].1.to_string(),
            "the formula `$$\\foo$$` does not parse (unknown primitive command found): it is shown as code"
        );
    }

    #[test]
    fn the_renderer_panicking_is_a_formula_that_does_not_parse() {
        let (html, notes) = body("See $\\char`é$.\n");
        assert!(html.contains("<code>$\\char`é$</code>"), "{html}");
        assert_eq!(notes.len(), 1, "{notes:?}");
    }

    #[test]
    fn symbols_that_are_markup_characters_are_escaped() {
        let (html, _) =
            body("$a < b > c$, $\\{x \\mid x<y\\}$, $\\char38$, $\\operatorname{a<b}$\n");
        assert!(html.contains("<mo>&lt;</mo>"), "{html}");
        assert!(html.contains("<mo>&gt;</mo>"), "{html}");
        assert!(html.contains("<mi>&amp;</mi>"), "{html}");
        assert!(html.contains("<mtext>a&lt;b</mtext>"), "{html}");
        assert!(html.contains("x&lt;y\\}</annotation>"), "{html}");
        assert!(!html.contains("<<") && !html.contains("<b"), "{html}");
    }

    #[test]
    fn escaping_leaves_the_renderers_markup_alone() {
        let markup =
            "<math display=\"inline\"><mtext>a&amp;&nbsp;b</mtext><mspace width=\"1em\" /></math>";
        assert_eq!(escaped(markup.into()), markup);
        assert_eq!(
            escaped("<mo><</mo><mi>&</mi><mo>>\u{338}</mo>".into()),
            "<mo>&lt;</mo><mi>&amp;</mi><mo>&gt;\u{338}</mo>"
        );
    }

    #[test]
    fn summaries_render_formulas_as_the_body_does() {
        let summary = summary_and_outline("# $x$\n\nLet $y^2$ be.\n\nMore.\n", 1, &on()).0;
        assert!(
            summary.starts_with("<p>Let <math display=\"inline\">"),
            "{summary}"
        );
        assert!(
            summary.contains("<msup><mi>y</mi><mn>2</mn></msup>"),
            "{summary}"
        );
        let summary = summary_and_outline("$$\\sqrt{2}$$\n\n<!-- more -->\n\nRest.\n", 1, &on()).0;
        assert!(summary.contains("<msqrt>"), "{summary}");
    }

    #[test]
    fn a_heading_with_a_formula_has_the_id_its_outline_gives() {
        let markdown = "## The $\\alpha$ case\n\nText.\n";
        let (html, _) = body(markdown);
        let outline = crate::source::outline::outline(markdown, on().options(), 1);
        let id = &outline.headings[0].id;
        assert!(
            html.contains(&format!("<h2 id=\"{id}\">The <math")),
            "{id}: {html}"
        );
    }

    #[test]
    fn the_renderer_named_in_fingerprints_is_the_one_built() {
        let lock =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
        let (name, version) = RENDERER.split_once(' ').unwrap();
        let entry = format!("name = \"{name}\"\nversion = \"{version}\"");
        assert!(lock.contains(&entry), "Cargo.lock has no {entry}");
        assert_eq!(Math::default().settings(), "math off");
        assert_eq!(ON.settings(), format!("math {RENDERER}"));
    }
}
