//! The library API alone, as an embedding program uses it.

use crate::util;

use std::sync::{Arc, Mutex};

use folio::{Event, Site, Stage};
use util::{TestSite, options};

#[test]
fn a_site_builds_through_the_library_with_its_own_paths() {
    let site = TestSite::with_posts();
    let elsewhere = tempfile::tempdir().unwrap();
    let options = options(|o| {
        o.out_dir = Some(elsewhere.path().join("out"));
        o.index_path = Some(elsewhere.path().join("state/index.sqlite"));
    });
    let report = Site::open(site.root()).unwrap().build(&options).unwrap();
    // Pages and feeds, a posts section's list and an archive in each
    // language, the stylesheet and its twin.
    assert_eq!(report.written.len(), 28);
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
    let again = Site::open(site.root()).unwrap().build(&options).unwrap();
    assert!(again.written.is_empty());
    assert_eq!(again.parsed, 0);
}

/// Builds with an observer that records every event.
fn observed_build(site: &TestSite) -> (folio::BuildReport, Vec<Event>) {
    let seen: Arc<Mutex<Vec<Event>>> = Arc::default();
    let sink = Arc::clone(&seen);
    let options = options(|o| {
        o.observer = Some(Arc::new(move |event: &Event| {
            sink.lock().unwrap().push(event.clone())
        }));
    });
    let report = Site::open(site.root()).unwrap().build(&options).unwrap();
    let events = seen.lock().unwrap().clone();
    (report, events)
}

/// The stages in the order they started, checking that each one's items
/// and its end come before the next one starts.
fn stages_in_order(events: &[Event]) -> Vec<Stage> {
    let mut stages = Vec::new();
    let mut open: Option<Stage> = None;
    for event in events {
        match event {
            Event::StageStarted { stage, .. } => {
                assert_eq!(open, None, "{stage} started inside another stage");
                open = Some(*stage);
                stages.push(*stage);
            }
            Event::StageFinished { stage } => {
                assert_eq!(open.take(), Some(*stage), "{stage} finished unopened");
            }
            Event::SourceParsed { .. } => assert_eq!(open, Some(Stage::Parse)),
            Event::PageRendered { .. } => assert_eq!(open, Some(Stage::Render)),
            Event::PageWritten { .. } => assert_eq!(open, Some(Stage::Write)),
            Event::FileDeleted { .. } => {
                assert!(matches!(open, Some(Stage::Render | Stage::Write)))
            }
            Event::Warning { .. } => assert!(open.is_some()),
            other => panic!("an event this test does not know: {other:?}"),
        }
    }
    assert_eq!(open, None, "the last stage never finished");
    stages
}

fn written_events(events: &[Event]) -> Vec<String> {
    let mut written: Vec<String> = events
        .iter()
        .filter_map(|event| match event {
            Event::PageWritten { output } => Some(output.clone()),
            _ => None,
        })
        .collect();
    written.sort();
    written
}

#[test]
fn an_observer_sees_every_stage_in_order_and_one_event_per_written_page() {
    let site = TestSite::with_posts();
    let (report, events) = observed_build(&site);
    use Stage::*;
    assert_eq!(
        stages_in_order(&events),
        [Discover, Parse, Identify, Plan, Render, Write, Index]
    );
    assert_eq!(
        written_events(&events),
        report.written,
        "one per written page"
    );
    let parsed = events
        .iter()
        .filter(|e| matches!(e, Event::SourceParsed { .. }))
        .count();
    assert_eq!(parsed, report.parsed);
    let items = |of: Stage| {
        events.iter().find_map(|e| match e {
            Event::StageStarted { stage, items } if *stage == of => Some(*items),
            _ => None,
        })
    };
    assert_eq!(items(Parse), Some(report.parsed));
    assert_eq!(items(Write), Some(report.written.len()));

    // A post removed: its pages are deleted, one event each, and the
    // pages that listed it are written again.
    site.remove("content/en/posts/hello-world.md");
    let (report, events) = observed_build(&site);
    stages_in_order(&events);
    let mut deleted: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::FileDeleted { output } => Some(output.clone()),
            _ => None,
        })
        .collect();
    deleted.sort();
    assert!(!deleted.is_empty());
    assert_eq!(deleted, report.deleted);
    assert_eq!(written_events(&events), report.written);

    // Nothing changed: the build ends after discover.
    let (report, events) = observed_build(&site);
    assert!(report.written.is_empty());
    assert_eq!(stages_in_order(&events), [Discover]);
}

#[test]
fn warnings_reach_the_observer_as_they_reach_the_report() {
    let site = TestSite::with_posts();
    site.add_a_language_without_words();
    let (report, events) = observed_build(&site);
    let warnings: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::Warning { message } => Some(message.clone()),
            _ => None,
        })
        .collect();
    assert!(!report.warnings.is_empty(), "a table missing words warns");
    assert_eq!(warnings, report.warnings);
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

#[test]
fn the_engine_alone_pulls_in_neither_the_cli_nor_the_server() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let tree = |features: &[&str]| {
        let output = std::process::Command::new(&cargo)
            .args(["tree", "--offline", "--edges", "normal", "--prefix", "none"])
            .args(features)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        let text = String::from_utf8(output.stdout).unwrap();
        text.lines()
            .filter_map(|line| line.split(' ').next().map(str::to_owned))
            .collect::<std::collections::BTreeSet<String>>()
    };
    let front = ["clap", "indicatif", "mimalloc", "axum", "tokio", "notify"];
    let alone = tree(&["--no-default-features"]);
    assert!(alone.contains("rusqlite") && alone.contains("rayon"));
    for name in front {
        assert!(!alone.contains(name), "{name} is in the engine's build");
    }
    // The check sees them when they are there.
    let full = tree(&[]);
    for name in front {
        assert!(full.contains(name), "{name} is not in the CLI's build");
    }
}

#[test]
fn a_host_whose_rayon_pool_is_busy_still_gets_its_build_and_finishes_its_work() {
    use std::sync::mpsc;
    use std::time::Duration;
    // The host's global pool has one worker, and it waits for the build to
    // end: a build that ran on the global pool could not start until it
    // gave up.
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .unwrap();
    let (built, build_ended) = mpsc::channel::<()>();
    let (host_done, host_result) = mpsc::channel();
    rayon::spawn(move || {
        let waited = build_ended.recv_timeout(Duration::from_secs(30));
        let sum: u64 = rayon::iter::ParallelIterator::sum(
            rayon::iter::IntoParallelIterator::into_par_iter(1..=1000u64),
        );
        host_done.send((waited.is_ok(), sum)).unwrap();
    });
    let site = TestSite::with_posts();
    let report = Site::open(site.root())
        .unwrap()
        .build(&options(|o| o.threads = Some(2)))
        .unwrap();
    // Pages and feeds, a posts section's list and an archive in each
    // language, the stylesheet and its twin.
    assert_eq!(report.written.len(), 28);
    built.send(()).unwrap();
    let (waited, sum) = host_result.recv_timeout(Duration::from_secs(60)).unwrap();
    assert!(waited, "the build waited for the host's pool");
    assert_eq!(sum, 500_500, "the host's own work finished");
}
