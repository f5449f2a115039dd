//! Stylesheets of `sass/`: each sheet compiled to CSS at its path, a
//! partial's edit recompiling exactly the sheets that use it, through
//! fresh builds and a kept session alike; mistakes named by file, line and
//! column, with nothing written.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use crate::util;

use folio::{Event, Site};
use util::{TestSite, options};

const VARS: &str = "$ink: #123;\n$paper: #fff;\n";

fn site(kept: bool) -> TestSite {
    let site = TestSite::with_posts_kept(kept);
    site.write("sass/_vars.scss", VARS);
    site.write(
        "sass/main.scss",
        "@use \"vars\";\nbody { color: vars.$ink; nav { a { color: vars.$paper; } } }\n",
    );
    site.write(
        "sass/css/print.scss",
        "@media print { body { margin: 0; } }\n",
    );
    site.write("sass/notes.txt", "not a sheet");
    site.build();
    site
}

#[test]
fn each_sheet_becomes_css_at_its_path_and_partials_none() {
    let site = site(false);
    assert_eq!(
        site.read("public/main.css"),
        "body {\n  color: #123;\n}\nbody nav a {\n  color: #fff;\n}\n"
    );
    assert_eq!(
        site.read("public/css/print.css"),
        "@media print {\n  body {\n    margin: 0;\n  }\n}\n"
    );
    for absent in ["public/_vars.css", "public/vars.css", "public/notes.txt"] {
        assert!(!site.path(absent).exists(), "{absent}");
    }
    // The sheets and what they use are inputs.
    let report = site.build();
    assert!(report.written.is_empty(), "{:?}", report.written);
    for input in ["sass/_vars.scss", "sass/main.scss", "sass/css/print.scss"] {
        assert!(report.inputs.files.iter().any(|f| f == input), "{input}");
    }
    assert!(report.inputs.folders.iter().any(|f| f == "sass"));
}

#[test]
fn a_partial_recompiles_exactly_the_sheets_that_use_it() {
    for kept in [false, true] {
        let site = site(kept);
        site.write("sass/_vars.scss", &VARS.replace("#123", "#456"));
        site.assert_rebuild(&["main.css"], &[]);
        assert!(
            site.read("public/main.css").contains("#456"),
            "kept: {kept}"
        );

        site.write(
            "sass/css/print.scss",
            "@media print { body { margin: 1em; } }\n",
        );
        site.assert_rebuild(&["css/print.css"], &[]);

        // A new partial, then a sheet that starts using it.
        site.write("sass/_type.scss", "$face: serif;\n");
        site.assert_rebuild(&[], &[]);
        site.write(
            "sass/css/print.scss",
            "@use \"../type\";\n@media print { body { font-family: type.$face; } }\n",
        );
        site.assert_rebuild(&["css/print.css"], &[]);
        site.write("sass/_type.scss", "$face: sans-serif;\n");
        site.assert_rebuild(&["css/print.css"], &[]);

        // A sheet gone takes its CSS with it.
        site.remove("sass/main.scss");
        site.assert_rebuild(&[], &["main.css"]);
    }
}

/// The stylesheets a fresh build compiles (whether or not their CSS
/// changed).
fn compiled(site: &TestSite) -> BTreeSet<String> {
    let made: Arc<Mutex<BTreeSet<String>>> = Arc::default();
    let sink = Arc::clone(&made);
    let options = options(|o| {
        o.observer = Some(Arc::new(move |event: &Event| {
            if let Event::PageRendered { output } = event
                && output.ends_with(".css")
            {
                sink.lock().unwrap().insert(output.clone());
            }
        }));
    });
    Site::open(site.root()).unwrap().build(&options).unwrap();
    made.lock().unwrap().clone()
}

#[test]
fn only_the_sheets_that_read_a_changed_file_are_compiled() {
    let site = site(false);
    assert_eq!(compiled(&site), BTreeSet::new());
    // The same bytes again: main.scss reads it, print.scss does not.
    site.write("sass/_vars.scss", VARS);
    assert_eq!(compiled(&site), BTreeSet::from(["main.css".to_owned()]));
    site.write(
        "sass/css/print.scss",
        "@media print { body { margin: 0; } }
",
    );
    assert_eq!(
        compiled(&site),
        BTreeSet::from(["css/print.css".to_owned()])
    );
    // Where `@use "vars"` looked and found nothing, a file now stands.
    // (A sheet of its own, too.)
    site.write("sass/vars.scss", "$ink: #789;\n$paper: #000;\n");
    let both = ["main.css".to_owned(), "vars.css".to_owned()];
    assert_eq!(compiled(&site), BTreeSet::from(both));
    site.remove("sass/vars.scss");
    assert_eq!(compiled(&site), BTreeSet::from(["main.css".to_owned()]));
    assert_eq!(compiled(&site), BTreeSet::new());
}

#[test]
fn a_mistake_names_the_file_line_and_column_and_writes_nothing() {
    for kept in [false, true] {
        let site = site(kept);
        let before = site.output_tree();
        site.write("sass/_vars.scss", "$ink: #123;\n$paper: ;\n");
        let error = site.try_build().unwrap_err().to_string();
        assert!(error.contains("sass/_vars.scss:2"), "{error}");
        assert!(error.contains("column"), "{error}");
        assert_eq!(site.output_tree(), before, "kept: {kept}");

        // Mended, the build goes on from there.
        site.write("sass/_vars.scss", VARS);
        site.build();
        assert_eq!(site.output_tree(), site.clean_build_tree());
    }
}

#[test]
fn a_sheet_reaches_nothing_outside_sass() {
    let site = site(false);
    site.write("secret.scss", "a { b: c; }\n");
    site.write("sass/main.scss", "@import \"../secret\";\n");
    let error = site.try_build().unwrap_err().to_string();
    assert!(error.contains("sass/main.scss:1"), "{error}");
    assert!(!site.read("public/main.css").contains("b: c"));
}

#[test]
fn warnings_of_a_sheet_are_the_build_s_naming_its_line() {
    let site = site(false);
    site.write(
        "sass/_vars.scss",
        &format!("{VARS}@warn \"ink is dark\";\n"),
    );
    let report = site.build();
    assert_eq!(
        report.warnings,
        ["sass/_vars.scss:3: @warn: ink is dark"],
        "{:?}",
        report.warnings
    );
}

#[test]
fn a_sheet_at_the_stylesheet_s_path_replaces_folio_s() {
    let site = site(false);
    site.write("sass/style.scss", "body { color: red; }\n");
    let report = site.build();
    assert!(
        report.written.iter().any(|w| w == "style.css"),
        "{:?}",
        report.written
    );
    assert_eq!(site.read("public/style.css"), "body {\n  color: red;\n}\n");
}

#[test]
fn explain_names_every_file_a_sheet_read() {
    let site = site(false);
    let mut session = folio::Session::open(site.site(), options(|_| {})).unwrap();
    let main = session.explain("main.css").unwrap();
    assert_eq!(main.made_for, "sass/main.scss");
    assert_eq!(main.sources, ["sass/_vars.scss", "sass/main.scss"]);
    let print = session.explain("/css/print.css").unwrap();
    assert_eq!(print.sources, ["sass/css/print.scss"]);
}

#[test]
fn a_sheet_and_a_static_file_at_one_output_are_named_both() {
    let site = site(false);
    site.write("static/main.css", "body { color: blue; }\n");
    let error = site.try_build().unwrap_err().to_string();
    assert!(error.contains("main.css"), "{error}");
    assert!(
        error.contains("sass/main.scss") && error.contains("static/main.css"),
        "{error}"
    );
}

#[test]
fn a_theme_s_sheets_compile_under_the_site_s_own() {
    for kept in [false, true] {
        let site = TestSite::with_posts_kept(kept);
        site.use_theme("plain");
        site.write("themes/plain/sass/_vars.scss", "$ink: #123;\n");
        site.write(
            "themes/plain/sass/theme.scss",
            "@use \"vars\";\na { color: vars.$ink; }\n",
        );
        site.write("themes/plain/sass/main.scss", "b { color: blue; }\n");
        site.write("sass/main.scss", "i { color: red; }\n");
        site.build();
        assert_eq!(site.read("public/theme.css"), "a {\n  color: #123;\n}\n");
        assert_eq!(site.read("public/main.css"), "i {\n  color: red;\n}\n");

        // The theme's partial: its sheet again, not the site's.
        site.write("themes/plain/sass/_vars.scss", "$ink: #456;\n");
        site.assert_rebuild(&["theme.css"], &[]);
        // The site's sheet gone, the theme's takes its place.
        site.remove("sass/main.scss");
        site.assert_rebuild(&["main.css"], &[]);
        assert_eq!(
            site.read("public/main.css"),
            "b {\n  color: blue;\n}\n",
            "kept: {kept}"
        );
    }
}
