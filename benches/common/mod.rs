//! What the benches share: the generated corpus, copies of it, the edit
//! they time, and medians.

#![allow(dead_code)] // each bench uses its own part

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// The bench's arguments, without the `--bench` cargo adds.
pub(crate) fn args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect()
}

/// A scratch folder, on /dev/shm when there is one.
pub(crate) fn scratch(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(if Path::new("/dev/shm").is_dir() {
            "/dev/shm"
        } else {
            "/tmp"
        })
        .expect("a scratch folder")
}

/// The corpus named by the first argument (generated there when absent,
/// to be reused by the next run), or else one generated into `scratch`.
pub(crate) fn corpus(args: &[String], scratch: &Path) -> PathBuf {
    match args.first().map(PathBuf::from) {
        Some(site) if site.exists() => site,
        Some(site) => generate_corpus(&site),
        None => generate_corpus(&scratch.join("corpus")),
    }
}

/// The corpus bench/run.sh measures: 5,000 posts in three languages.
pub(crate) fn generate_corpus(dir: &Path) -> PathBuf {
    let generator = Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/gen_corpus.py");
    eprintln!("generating 5,000 posts × en, fr, de into {}", dir.display());
    let status = Command::new("python3")
        .arg(generator)
        .args([
            "--posts", "5000", "--langs", "en,fr,de", "--format", "folio",
        ])
        .arg(dir)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("python3 runs bench/gen_corpus.py");
    assert!(status.success(), "bench/gen_corpus.py failed");
    dir.to_owned()
}

pub(crate) fn copy_site(from: &Path, to: &Path) -> PathBuf {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("the site is readable");
        let rel = entry.path().strip_prefix(from).unwrap();
        if rel.starts_with(".folio") || rel.starts_with("public") {
            continue;
        }
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
    to.to_owned()
}

/// The post bench/run.sh and bench/compare.py edit.
pub(crate) fn middle_english_post(site: &Path) -> PathBuf {
    let dir = site.join("content/en/posts");
    let mut posts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    posts.sort();
    posts[(posts.len() - 1) / 2].clone()
}

pub(crate) fn append_sentence(post: &Path, edit: usize) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().append(true).open(post).unwrap();
    writeln!(
        file,
        "\nOne more sentence, appended by the rebuild bench ({edit})."
    )
    .unwrap();
}

pub(crate) fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

pub(crate) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
