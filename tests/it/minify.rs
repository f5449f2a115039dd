//! `minify = true` (and `--minify`): pages, stylesheets and scripts written
//! smaller, reading back as the same text; switching it writes exactly
//! those again, through fresh builds and a kept session.

use std::collections::BTreeMap;

use crate::util;

use html5gum::{Token, Tokenizer};
use util::{SITE_TOML, TestSite};

const SCRIPT: &str = "function greet(name) {\n  const greeting = 'Hello, ' + name;\n  return greeting;\n}\nwindow.greet = greet;\n";

fn site(kept: bool) -> TestSite {
    let site = TestSite::with_posts_kept(kept);
    site.write("static/js/app.js", SCRIPT);
    site.write(
        "static/css/extra.css",
        "p {\n  margin: 0px;\n  color: #ff0000;\n}\n",
    );
    site.write("static/notes.txt", "kept   as   it   is\n");
    site.write(
        "sass/main.scss",
        "$ink: #123;\nbody { nav { color: $ink; } }\n",
    );
    site.build();
    site
}

/// The outputs a switch of `minify` writes again: every page, stylesheet
/// and script.
fn minifiable(tree: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let kinds = [".html", ".css", ".js"];
    let mut paths: Vec<String> = tree
        .keys()
        .filter(|path| kinds.iter().any(|kind| path.ends_with(kind)))
        .cloned()
        .collect();
    paths.sort();
    paths
}

/// The text a page shows, node by node (white space runs as one space, at
/// the ends of a node none: between blocks it shows nothing), and its tags
/// in order: what minifying must keep.
fn shown(html: &[u8]) -> (Vec<String>, Vec<String>) {
    let (mut text, mut tags) = (Vec::new(), Vec::new());
    for token in Tokenizer::new(html) {
        match token.expect("the page tokenizes") {
            Token::String(s) => {
                let words: Vec<String> = String::from_utf8_lossy(&s)
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect();
                if !words.is_empty() {
                    text.push(words.join(" "));
                }
            }
            Token::StartTag(tag) => tags.push(String::from_utf8_lossy(&tag.name).into_owned()),
            Token::Error(error) => panic!("the page does not parse: {error:?}"),
            _ => {}
        }
    }
    (text, tags)
}

#[test]
fn a_switch_writes_every_page_sheet_and_script_again_and_nothing_else() {
    for kept in [false, true] {
        let site = site(kept);
        let plain = site.output_tree();
        // The stylesheet's twin is not written again: another, named by
        // the minified bytes, takes its place.
        let plain_twin = site.twin_of("style.css");
        let expected = minifiable(&plain);
        let expected: Vec<&str> = (expected.iter().map(String::as_str))
            .filter(|path| *path != plain_twin)
            .collect();
        assert!(expected.contains(&"js/app.js") && expected.contains(&"main.css"));
        let others: Vec<&str> = expected
            .iter()
            .copied()
            .filter(|p| *p != "style.css")
            .collect();

        site.write("site.toml", &format!("minify = true\n{SITE_TOML}"));
        site.assert_asset_rebuild("style.css", &others);
        let minified = site.output_tree();
        for path in &expected {
            let (before, after) = (&plain[*path], &minified[*path]);
            assert!(after.len() < before.len(), "{path} is not smaller");
            if path.ends_with(".html") {
                assert_eq!(shown(after), shown(before), "{path} shows other text");
            }
        }
        assert_eq!(minified["notes.txt"], plain["notes.txt"]);
        assert_eq!(minified["atom.xml"], plain["atom.xml"]);
        assert_eq!(minified["css/extra.css"], b"p{color:red;margin:0}");
        assert!(!String::from_utf8_lossy(&minified["js/app.js"]).contains("greeting"));

        // Nothing changed: nothing written; then back as it was.
        site.assert_rebuild(&[], &[]);
        site.write("site.toml", SITE_TOML);
        site.assert_asset_rebuild("style.css", &others);
        assert_eq!(site.output_tree(), plain, "kept: {kept}");
    }
}

#[test]
fn a_script_the_minifier_cannot_read_is_written_as_it_is_with_a_warning() {
    let site = site(false);
    site.write("site.toml", &format!("minify = true\n{SITE_TOML}"));
    site.write("static/js/broken.js", "function (\n");
    let report = site.build();
    assert_eq!(site.read("public/js/broken.js"), "function (\n");
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.starts_with("static/js/broken.js: written as it is, not minified")),
        "{:?}",
        report.warnings
    );
}

#[test]
fn the_flag_minifies_one_build_and_a_plain_build_goes_back() {
    let site = site(false);
    let plain = site.read("public/posts/hello-world/index.html");
    let root = site.root().to_str().unwrap().to_owned();
    let output = site.cli(&["build", "--minify", "--root", &root]);
    assert!(output.status.success(), "{}", util::stderr(&output));
    let minified = site.read("public/posts/hello-world/index.html");
    assert!(minified.len() < plain.len());
    assert_eq!(shown(minified.as_bytes()), shown(plain.as_bytes()));
    let output = site.cli(&["build", "--root", &root]);
    assert!(output.status.success(), "{}", util::stderr(&output));
    assert_eq!(site.read("public/posts/hello-world/index.html"), plain);
}
