//! The report's JSON is a contract with the programs that read it: its
//! shape is pinned by tests/golden/build-report.json, and the library's
//! serialization and `folio build --json` are the same document.

use crate::util;

use folio::{BuildReport, Site};
use serde_json::Value;
use util::{TestSite, folio_command, options};

const GOLDEN: &str = "tests/golden/build-report.json";

/// The report with what differs from run to run (timings, the temp root)
/// set to fixed values; the fields stay, with their types.
fn pinned(mut report: Value) -> Value {
    report["elapsed_ms"] = Value::from(0);
    report["inputs"]["root"] = Value::from("/site");
    for stage in report["stages"].as_array_mut().unwrap() {
        stage[1] = Value::from(0.0);
    }
    report
}

fn edited_site() -> TestSite {
    let site = TestSite::with_posts();
    site.write("static/img/logo.svg", "<svg/>");
    site.build();
    // One edit and one removal, so that written, deleted and both row
    // counts hold something.
    site.write(
        "content/en/posts/hello-world.md",
        &util::post("Hello again", "2024-05-01T09:00:00Z", "Edited."),
    );
    site.remove("content/ja/posts/hello-world.md");
    site
}

#[test]
fn the_report_json_has_the_pinned_shape_and_the_cli_prints_the_same() {
    let site = edited_site();
    let report: BuildReport = Site::open(site.root())
        .unwrap()
        .build(&options(|_| {}))
        .unwrap();
    assert_eq!(report.schema, BuildReport::SCHEMA);
    let from_library = pinned(serde_json::to_value(&report).unwrap());
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    assert_eq!(
        from_library,
        golden,
        "the report's JSON moved: if on purpose, bump BuildReport::SCHEMA when a field was renamed or removed, document it in docs/deployment.md (its JSON report table) and write this to {GOLDEN}:\n{}",
        serde_json::to_string_pretty(&from_library).unwrap()
    );

    // The same edit through the CLI prints the same document.
    let site = edited_site();
    let output = folio_command()
        .args(["build", "--json", "--root"])
        .arg(site.root())
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let from_cli: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(pinned(from_cli), golden);
}
