//! Formulas rendered at build time, on a real site: the MathML of a page
//! and of its summary, every backslash kept, the warning and the code for
//! a formula that does not parse, `$` left as text when math is off, and
//! what turning `[math]` on rewrites (through a fresh build and through a
//! kept session).

use crate::util;

use util::{SITE_TOML, TestSite, post};

const PAGE: &str = "posts/formulas/index.html";

/// A post with an inline formula, a display matrix and a formula that does
/// not parse (on line 9 of the file: the front matter takes 4), and a post
/// with dollars that are not formulas.
fn site(kept: bool, math: bool) -> TestSite {
    let site = TestSite::new();
    if kept {
        site.keep_session();
    }
    if math {
        site.write("site.toml", &with_math("enabled = true"));
    }
    site.write(
        "content/en/posts/formulas.md",
        &post(
            "Formulas",
            "2024-05-01T09:00:00Z",
            "The area is $\\int_0^1 x\\,dx = \\frac{1}{2}$ and $a < b$.\n\n$$\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}$$\n\nBroken: $x^^2$, <b>after</b>.\n",
        ),
    );
    site.write(
        "content/en/posts/prices.md",
        &post(
            "Prices",
            "2024-04-01T09:00:00Z",
            "It costs $5, or $10 today; `echo $HOME` and \\$x\\$ are not formulas.",
        ),
    );
    site
}

fn with_math(table: &str) -> String {
    format!("{SITE_TOML}\n[math]\n{table}\n")
}

#[test]
fn formulas_are_mathml_with_every_backslash_kept_and_a_bad_one_is_code() {
    let site = site(false, true);
    let report = site.build();
    let html = site.read(&format!("public/{PAGE}"));
    assert!(
        html.contains("<p>The area is <math display=\"inline\"><semantics><mrow><msubsup><mo movablelimits=\"false\">∫</mo><mn>0</mn><mn>1</mn></msubsup><mi>x</mi><mspace width=\"0.16666667em\" />"),
        "{html}"
    );
    assert!(
        html.contains("<annotation encoding=\"application/x-tex\">\\int_0^1 x\\,dx = \\frac{1}{2}</annotation></semantics></math> and <math display=\"inline\">"),
        "{html}"
    );
    // A `<` of the formula is escaped, not written as markup.
    assert!(html.contains("<mi>a</mi><mo>&lt;</mo><mi>b</mi>"), "{html}");
    assert!(html.contains("<math display=\"block\">"), "{html}");
    assert!(
        html.contains("\\begin{pmatrix} a &amp; b \\\\ c &amp; d \\end{pmatrix}</annotation>"),
        "{html}"
    );
    assert_eq!(html.matches("<mtr>").count(), 2, "{html}");
    assert!(
        html.contains("<p>Broken: <code>$x^^2$</code>, <b>after</b>.</p>"),
        "{html}"
    );
    assert_eq!(
        report.warnings,
        [
            "content/en/posts/formulas.md:9: the formula `$x^^2$` does not parse (subscript and/or superscript found as argument to a command): it is shown as code"
        ]
    );
    // The summary (the first paragraph) on the home page has the same
    // MathML; the prices are text.
    let home = site.read("public/index.html");
    assert!(
        home.contains("The area is <math display=\"inline\"><semantics>"),
        "{home}"
    );
    let prices = site.read("public/posts/prices/index.html");
    assert!(
        prices.contains(
            "<p>It costs $5, or $10 today; <code>echo $HOME</code> and $x$ are not formulas.</p>"
        ),
        "{prices}"
    );
}

#[test]
fn off_by_default_dollars_stay_text_as_commonmark_reads_them() {
    let site = site(false, false);
    let report = site.build();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let html = site.read(&format!("public/{PAGE}"));
    assert!(!html.contains("<math"), "{html}");
    assert!(
        html.contains("<p>The area is $\\int_0^1 x,dx = \\frac{1}{2}$ and $a &lt; b$.</p>"),
        "{html}"
    );
    assert!(
        html.contains("<p>Broken: $x^^2$, <b>after</b>.</p>"),
        "{html}"
    );
}

#[test]
fn turning_math_on_rewrites_the_pages_that_show_formulas_and_nothing_else() {
    for kept in [false, true] {
        let site = site(kept, false);
        site.build();
        site.write("site.toml", &with_math("enabled = true"));
        site.assert_rebuild(&["atom.xml", "index.html", PAGE, "posts/index.html"], &[]);
        assert!(site.read(&format!("public/{PAGE}")).contains("<math"));
        site.write("site.toml", &with_math("enabled = false"));
        site.assert_rebuild(&["atom.xml", "index.html", PAGE, "posts/index.html"], &[]);
        assert!(!site.read(&format!("public/{PAGE}")).contains("<math"));
    }
}

#[test]
fn an_unknown_math_key_is_refused() {
    let site = site(false, false);
    site.write("site.toml", &with_math("enable = true"));
    let error = folio::Site::open(site.root()).unwrap_err().to_string();
    assert!(error.contains("enable"), "{error}");
}
