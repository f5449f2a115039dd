//! docs/ARCHITECTURE.md is the map of `src/`: every file of the tree has
//! its line there, so a file added without one fails here.

use std::path::Path;

#[test]
fn every_source_file_has_its_line_in_the_architecture_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let missing: Vec<String> = walkdir::WalkDir::new(root.join("src"))
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(root).unwrap();
            rel.to_string_lossy().replace('\\', "/")
        })
        .filter(|rel| !map.contains(&format!("| `{rel}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/ARCHITECTURE.md has no line for {missing:?}: add `| `PATH` | what it owns |` to its map"
    );
}
