//! The fuzz targets' inputs, replayed without the fuzzer: every crash found
//! (`fuzz/regressions/<target>/`) and every input of the kept, minimized
//! corpora (`fuzz/corpus/<target>/`) goes through the same code the target
//! runs (`fuzz/checks.rs`), which must not panic. Needs the `internals`
//! feature: `cargo test --features internals --test it fuzz_regressions::`.

#[path = "../../fuzz/checks.rs"]
mod checks;

use std::path::{Path, PathBuf};

/// Runs `check` on every file kept for `target`; fails naming each input
/// that panics.
fn replay(target: &str, check: fn(&[u8])) {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut inputs: Vec<PathBuf> = Vec::new();
    for kept in ["regressions", "corpus"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(kept).join(target)) else {
            continue;
        };
        inputs.extend(entries.map(|entry| entry.unwrap().path()));
    }
    inputs.sort();
    assert!(
        !inputs.is_empty(),
        "no kept inputs for {target} under fuzz/corpus/{target}"
    );
    let failed: Vec<&PathBuf> = inputs
        .iter()
        .filter(|path| {
            let bytes = std::fs::read(path).unwrap();
            std::panic::catch_unwind(|| check(&bytes)).is_err()
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} inputs of {target} panic: {failed:?}",
        failed.len(),
        inputs.len()
    );
}

#[test]
fn front_matter_markdown() {
    replay("front_matter_markdown", checks::front_matter_markdown);
}

#[test]
fn slug_url() {
    replay("slug_url", checks::slug_url);
}

#[test]
fn site_toml() {
    replay("site_toml", checks::site_toml);
}
