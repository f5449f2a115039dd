//! One body edit, through a kept session against through `folio build`:
//!
//!     cargo bench --bench rebuild -- [SITE [EDITS [FOLIO]]]
//!
//! SITE is a generated corpus (`bench/gen_corpus.py --format folio`); without
//! one, the bench generates 5,000 posts × en, fr, de into its scratch folder
//! (python3). FOLIO defaults to the `folio` binary cargo built with the bench.
//! The site is copied twice into a scratch folder (on /dev/shm when there is
//! one): a session opened on the first builds it, then rebuilds after each
//! edit, told the one path that changed; the `folio` binary builds the second,
//! cold once, then after the same edit each round. The edits are interleaved,
//! so that both go through the same minutes of a noisy machine. A sentence is
//! appended to the middle English post, as bench/run.sh and bench/compare.py
//! do.
//!
//! Prints each edit's times and the medians: the session's from the call of
//! `rebuild` to its return (after the last rename and the index commit),
//! the binary's as the whole process.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use folio::{BuildOptions, Session, Site};

mod common;
use common::{append_sentence, args, copy_site, corpus, median, middle_english_post, ms, scratch};

/// Every build runs at this moment (2026-01-01T00:00:00Z), after every post
/// the generator dates.
const NOW_MS: i64 = 1_767_225_600_000;

fn main() {
    let args = args();
    let scratch = scratch("folio-rebuild-");
    let site = corpus(&args, scratch.path());
    let edits: usize = args
        .get(1)
        .map_or(15, |n| n.parse().expect("EDITS is a number"));
    let folio = args
        .get(2)
        .map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_folio")), PathBuf::from);
    let kept_site = copy_site(&site, &scratch.path().join("kept"));
    let cli_site = copy_site(&site, &scratch.path().join("cli"));

    let mut session = Session::open(Site::open(&kept_site).expect("the site opens"), options())
        .expect("a session");
    let cold = Instant::now();
    session.build().expect("the cold build");
    eprintln!("session cold build: {:.0} ms", ms(cold));
    cli_build(&folio, &cli_site);

    let post = middle_english_post(&kept_site);
    let rel = post.strip_prefix(&kept_site).unwrap().to_owned();
    let cli_post = cli_site.join(&rel);
    let (mut kept_ms, mut cli_ms) = (Vec::new(), Vec::new());
    let mut stages: Vec<Vec<(String, f64)>> = Vec::new();
    println!("edit  session rebuild ms  folio build ms  pages written");
    for edit in 0..edits {
        append_sentence(&post, edit);
        let started = Instant::now();
        let report = session.rebuild(&[&rel]).expect("the rebuild");
        kept_ms.push(ms(started));
        assert!(!report.scanned_everything, "the rebuild scanned everything");
        stages.push(report.stages.clone());

        append_sentence(&cli_post, edit);
        let started = Instant::now();
        cli_build(&folio, &cli_site);
        cli_ms.push(ms(started));
        println!(
            "{edit:>4}  {:>18.1}  {:>14.1}  {:>13}",
            kept_ms[edit],
            cli_ms[edit],
            report.written.len()
        );
    }
    let (kept, cli) = (median(kept_ms), median(cli_ms));
    println!("session rebuild, median ms per stage:");
    for (at, (stage, _)) in stages[0].iter().enumerate() {
        let times = stages
            .iter()
            .filter_map(|s| s.get(at).map(|(_, ms)| *ms))
            .collect();
        println!("  {stage:<10} {:>6.1}", median(times));
    }
    println!(
        "median  {kept:>16.1}  {cli:>14.1}  (folio build ÷ rebuild: {:.1}x)",
        cli / kept
    );
}

fn options() -> BuildOptions {
    let mut options = BuildOptions::new(NOW_MS);
    options.out_dir = Some("public".into());
    options
}

fn cli_build(folio: &Path, site: &Path) {
    let status = Command::new(folio)
        .args(["build", "--root"])
        .arg(site)
        .env("SOURCE_DATE_EPOCH", (NOW_MS / 1000).to_string())
        .stdout(std::process::Stdio::null())
        .status()
        .expect("the folio binary runs");
    assert!(status.success(), "folio build failed");
}
