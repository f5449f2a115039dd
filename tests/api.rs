//! The library API alone, as an embedding program uses it.

mod util;

use std::sync::{Arc, Mutex};

use folio::{Progress, Site, Stage};
use util::{TestSite, options};

#[test]
fn a_site_builds_through_the_library_with_its_own_paths_and_progress() {
    let site = TestSite::with_posts();
    let elsewhere = tempfile::tempdir().unwrap();
    let seen: Arc<Mutex<Vec<Progress>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let options = options(|o| {
        o.out_dir = Some(elsewhere.path().join("out"));
        o.index_path = Some(elsewhere.path().join("state/index.sqlite"));
        o.progress = Some(Arc::new(move |p| sink.lock().unwrap().push(p)));
    });
    let report = Site::open(site.root()).unwrap().build(&options).unwrap();
    assert_eq!(report.written.len(), 21);
    assert!(
        elsewhere
            .path()
            .join("out/fr/posts/hello-world/index.html")
            .is_file()
    );
    assert!(elsewhere.path().join("state/index.sqlite").is_file());
    assert!(
        !site.path(".folio/index.sqlite").exists(),
        "the state lives where it was told"
    );

    let progress = seen.lock().unwrap().clone();
    for stage in [Stage::Parse, Stage::Render, Stage::Write] {
        let of_stage: Vec<&Progress> = progress.iter().filter(|p| p.stage == stage).collect();
        let total = of_stage[0].total;
        assert_eq!(of_stage[0].done, 0);
        assert_eq!(
            of_stage.iter().map(|p| p.done).max(),
            Some(total),
            "{stage}"
        );
        assert_eq!(of_stage.len(), total + 1, "{stage}");
    }

    let again = Site::open(site.root()).unwrap().build(&options).unwrap();
    assert!(again.written.is_empty());
    assert_eq!(again.parsed, 0);
}

#[test]
fn errors_are_typed_values() {
    let site = TestSite::with_posts();
    site.write(
        "content/en/posts/x.md",
        "---\ntitle: x\ndate: 2024-01-01\ndraft: maybe\n---\n",
    );
    match Site::open(site.root()).unwrap().build(&options(|_| {})) {
        Err(folio::Error::Content(problems)) => {
            assert_eq!(problems.len(), 1);
            assert_eq!(problems[0].line, Some(4));
            assert!(
                matches!(&problems[0].kind, folio::ProblemKind::Field { field, .. } if field == "draft")
            );
        }
        other => panic!("expected a content error, got {other:?}"),
    }
}
