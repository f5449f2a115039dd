//! Code blocks highlighted at build time, on a real site: the HTML and the
//! stylesheet written, the warning for a language without a grammar, and
//! what a change to `[highlight]` rewrites (through a fresh build and
//! through a kept session).

use folio::Site;

use crate::util;

use util::{SITE_TOML, TestSite, post};

const PAGE: &str = "posts/code/index.html";

/// A post with a Rust block in Hugo's form, a Python block in Zola's and
/// two blocks in a language no grammar knows, built once.
fn site(kept: bool) -> TestSite {
    let site = TestSite::new();
    if kept {
        site.keep_session();
    }
    site.write(
        "content/en/posts/code.md",
        &post(
            "Code",
            "2024-05-01T09:00:00Z",
            "Some code.\n\n```rust {linenos=true,hl_lines=[2]}\nfn main() {\n    println!(\"<hi>\");\n}\n```\n\n```klingon\nQapla' <b>\n```\n\n```python,hl_lines=1\nprint(1)\n```\n\n```klingon\nagain\n```\n",
        ),
    );
    site.write(
        "content/en/posts/prose.md",
        &post("Prose", "2024-04-01T09:00:00Z", "No code here."),
    );
    site
}

fn with_highlight(table: &str) -> String {
    format!("{SITE_TOML}\n[highlight]\n{table}\n")
}

#[test]
fn code_blocks_are_highlighted_and_an_unknown_language_warned_once() {
    let site = site(false);
    let report = site.build();
    let html = site.read(&format!("public/{PAGE}"));
    assert!(
        html.contains("<pre class=\"highlight z-code\"><code class=\"language-rust\" data-lang=\"rust\"><span class=\"line\"><span class=\"ln\">1</span><span class=\"z-source z-rust\">"),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"line hl\"><span class=\"ln\">2</span>"),
        "{html}"
    );
    assert!(html.contains("&lt;hi&gt;"), "{html}");
    assert!(!html.contains("<hi>"), "{html}");
    assert!(
        html.contains("data-lang=\"python\"><span class=\"line hl\">"),
        "{html}"
    );
    assert!(
        html.contains("<pre class=\"highlight\"><code class=\"language-klingon\" data-lang=\"klingon\">Qapla&#39; &lt;b&gt;\n</code></pre>")
            || html.contains("<pre class=\"highlight\"><code class=\"language-klingon\" data-lang=\"klingon\">Qapla' &lt;b&gt;\n</code></pre>"),
        "{html}"
    );
    // The fence of the first klingon block is on line 13 of the file (the
    // front matter takes 4).
    let klingon: Vec<&String> = report
        .warnings
        .iter()
        .filter(|w| w.contains("klingon"))
        .collect();
    assert_eq!(klingon.len(), 1, "{:?}", report.warnings);
    assert!(
        klingon[0]
            .starts_with("content/en/posts/code.md:13: no grammar for the language `klingon`"),
        "{}",
        klingon[0]
    );
    let css = site.read("public/style.css");
    let (light, dark) = css
        .rsplit_once("@media (prefers-color-scheme: dark) {")
        .unwrap();
    assert!(
        light.contains("theme \"GitHub\"") && light.contains(".z-code {"),
        "{css}"
    );
    assert!(
        dark.contains("theme \"OneHalfDark\"") && dark.contains(".z-code {"),
        "{dark}"
    );
    assert!(css.contains(".highlight .line.hl {"), "{css}");
}

#[test]
fn a_theme_switch_rewrites_the_stylesheet_and_the_pages_linking_it() {
    for kept in [false, true] {
        let site = site(kept);
        site.build();
        let pages = site.html_pages();
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        site.write("site.toml", &with_highlight("dark_theme = \"Nord\""));
        // The pages link the new sheet by its new twin.
        site.assert_asset_rebuild("style.css", &pages);
        assert!(site.read("public/style.css").contains("theme \"Nord\""));
        site.write(
            "site.toml",
            &with_highlight("light_theme = \"Solarized (light)\""),
        );
        site.assert_asset_rebuild("style.css", &pages);
    }
}

#[test]
fn inline_styles_rewrite_the_highlighted_pages_and_drop_the_stylesheet_rules() {
    for kept in [false, true] {
        let site = site(kept);
        site.build();
        site.write("site.toml", &with_highlight("style = \"inline\""));
        let pages = site.html_pages();
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        site.assert_asset_rebuild("style.css", &pages);
        let html = site.read(&format!("public/{PAGE}"));
        assert!(
            html.contains("<pre class=\"highlight\" style=\"background-color:#"),
            "{html}"
        );
        assert!(!html.contains("z-source"), "{html}");
        assert!(!site.read("public/style.css").contains(".z-code"));
        // Inline colours come from the light theme: a new one rewrites the page.
        site.write(
            "site.toml",
            &with_highlight("style = \"inline\"\nlight_theme = \"Nord\""),
        );
        site.assert_rebuild(&[PAGE], &[]);
        site.write("site.toml", &with_highlight("enabled = false"));
        site.assert_rebuild(&[PAGE], &[]);
        let html = site.read(&format!("public/{PAGE}"));
        assert!(
            html.contains("<pre><code class=\"language-rust\">fn main"),
            "{html}"
        );
    }
}

#[test]
fn an_unknown_theme_or_key_is_refused_with_the_name_meant() {
    let site = site(false);
    site.write("site.toml", &with_highlight("dark_theme = \"Nrod\""));
    let error = Site::open(site.root()).unwrap_err().to_string();
    assert!(
        error.contains("dark_theme `Nrod`") && error.contains("did you mean `Nord`?"),
        "{error}"
    );
    site.write("site.toml", &with_highlight("dark_them = \"Nord\""));
    let error = Site::open(site.root()).unwrap_err().to_string();
    assert!(error.contains("dark_them"), "{error}");
}
