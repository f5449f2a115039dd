//! The library never prints: a build, a failing build and an explain, run
//! with this process's stdout and stderr pointed at files, leave both empty.
//! Its own harness, since libtest captures what Rust prints and so would
//! hide a stray `println!` from a check made inside a #[test].

mod util;

use std::fs::File;
use std::os::fd::{AsFd, OwnedFd};

use folio::Site;
use util::{TestSite, options};

/// Runs `work` with stdout and stderr going to files, and returns what each
/// received.
fn captured(work: impl FnOnce()) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (out_path, err_path) = (dir.path().join("stdout"), dir.path().join("stderr"));
    let (out_file, err_file) = (
        File::create(&out_path).unwrap(),
        File::create(&err_path).unwrap(),
    );
    let saved_out: OwnedFd = rustix::io::dup(rustix::stdio::stdout()).unwrap();
    let saved_err: OwnedFd = rustix::io::dup(rustix::stdio::stderr()).unwrap();
    rustix::stdio::dup2_stdout(out_file.as_fd()).unwrap();
    rustix::stdio::dup2_stderr(err_file.as_fd()).unwrap();
    work();
    rustix::stdio::dup2_stdout(saved_out.as_fd()).unwrap();
    rustix::stdio::dup2_stderr(saved_err.as_fd()).unwrap();
    (
        std::fs::read_to_string(out_path).unwrap(),
        std::fs::read_to_string(err_path).unwrap(),
    )
}

fn main() {
    let site = TestSite::with_posts();
    // The build has a warning to give.
    site.add_a_language_without_words();
    let (stdout, stderr) = captured(|| {
        let site = Site::open(site.root()).unwrap();
        let report = site.build(&options(|_| {})).unwrap();
        assert!(!report.written.is_empty() && !report.warnings.is_empty());
        site.explain("/fr/", &options(|_| {})).unwrap();
    });
    assert_eq!(
        (stdout.as_str(), stderr.as_str()),
        ("", ""),
        "a build printed"
    );

    site.write("content/en/posts/bad.md", "---\ntitle: [\n---\n");
    let (stdout, stderr) = captured(|| {
        let site = Site::open(site.root()).unwrap();
        assert!(site.build(&options(|_| {})).is_err());
    });
    assert_eq!(
        (stdout.as_str(), stderr.as_str()),
        ("", ""),
        "a failed build printed"
    );

    // The check sees what is printed.
    let (stdout, stderr) = captured(|| {
        println!("out");
        eprintln!("err");
    });
    assert_eq!((stdout.as_str(), stderr.as_str()), ("out\n", "err\n"));
    println!("quiet: a build, a failed build and an explain printed nothing");
}
