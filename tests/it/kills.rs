//! Real kills: the `folio` binary building a site of a few thousand pages is
//! killed with SIGKILL at 30 moments spread over its stages (parse, render
//! and staging, the renames, the index transaction and its commit), in a
//! fresh copy or after an edit, and a normal build then runs. Every time the
//! output equals a clean build's byte for byte, the index passes SQLite's
//! integrity check and vouches only for files that hold what it says, no
//! temp file is left, and the user's own file in the output folder is
//! untouched.
//!
//! A moment is either a time, drawn over the stage times an uninterrupted
//! run of the same build reports (for the long stages: parse, render and
//! staging), or a system call, the Nth of its kind that an uninterrupted run
//! makes (for the short ones: a rename into the output folder, the `syncfs`
//! before the commit, a write into the index's log, the log's fsync that
//! commits a transaction). strace delivers the SIGKILL as that call starts.
//! The times and the Ns are drawn from a seed (`FOLIO_KILL_SEED`, printed
//! with every trial), so a failing trial can be replayed.

use crate::util;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use util::{TestSite, folio_command, output_hash};

const LANGUAGES: [&str; 3] = ["en", "fr", "de"];
const POSTS_PER_LANGUAGE: usize = 450;
const USER_FILE: &str = "notes-of-the-user.txt";
const USER_BYTES: &[u8] = b"mine, not folio's\n";

/// How a trial's build starts.
#[derive(Clone, Copy, Debug)]
enum Scenario {
    /// A first build into an empty output folder (staged in one hidden
    /// folder, moved into place entry by entry).
    ColdEmpty,
    /// A first build into an output folder holding the user's file (a temp
    /// file beside each page).
    ColdBesideUserFile,
    /// The theme's base template changed: every page is written again.
    TemplateEdit,
    /// Posts removed, added and edited: pruning, new pages, rewritten lists.
    ContentEdits,
}

const SCENARIOS: [(Scenario, usize); 4] = [
    (Scenario::ColdEmpty, 8),
    (Scenario::ColdBesideUserFile, 7),
    (Scenario::TemplateEdit, 8),
    (Scenario::ContentEdits, 7),
];

/// Where a trial's kill is aimed; a scenario of n trials takes the first n.
const AIMS: [Aim; 8] = [
    Aim::During("parse"),
    Aim::Call(Call::Rename),
    Aim::Call(Call::LogWrite),
    Aim::Call(Call::Syncfs),
    Aim::During("render"),
    Aim::Call(Call::LogSync),
    Aim::Call(Call::Rename),
    Aim::Call(Call::LogWrite),
];

#[derive(Clone, Copy)]
enum Aim {
    /// A time within this stage of the report.
    During(&'static str),
    /// The Nth call of this kind.
    Call(Call),
}

/// The system calls a kill can be aimed at.
#[derive(Clone, Copy, Debug)]
enum Call {
    /// A page or a staged folder renamed into place.
    Rename,
    /// The flush of the output folder before the index commit.
    Syncfs,
    /// A write into the index's write-ahead log: inside a transaction.
    LogWrite,
    /// The log's fsync: a transaction committing.
    LogSync,
}

impl Call {
    const ALL: [Call; 4] = [Call::Rename, Call::Syncfs, Call::LogWrite, Call::LogSync];

    /// Whether a call of strace's log (`-y`: with the paths of its file
    /// descriptors), by its system call's name, is one of this kind.
    fn made(self, name: &str, line: &str) -> bool {
        let log = line.contains("index.sqlite-wal>");
        match self {
            Call::Rename => name.starts_with("rename"),
            Call::Syncfs => name == "syncfs",
            Call::LogWrite => log && (name == "pwrite64" || name == "write"),
            Call::LogSync => log && name.ends_with("sync"),
        }
    }
}

/// The system calls the kills are aimed at.
const TRACED: &str = "rename,renameat,renameat2,syncfs,pwrite64,write,fsync,fdatasync";

/// A moment a build is killed at.
enum Moment {
    After(Duration),
    /// The Nth call of a system call (strace counts per system call and per
    /// thread), which is a call of this kind.
    Nth(Call, String, usize),
}

impl std::fmt::Display for Moment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Moment::After(at) => write!(f, "at {} ms", at.as_millis()),
            Moment::Nth(call, name, n) => write!(f, "at {name} #{n} ({call:?})"),
        }
    }
}

#[test]
fn builds_killed_at_thirty_moments_converge() {
    assert!(
        Command::new("strace").arg("-V").output().is_ok(),
        "these tests kill folio at chosen system calls with strace: install it (apt-get install strace), or run .ci/test, which does"
    );
    let seed = std::env::var("FOLIO_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_261_204_u64);
    let mut rng = Rng(seed.max(1));
    let work = tempfile::tempdir().unwrap();
    let sources = work.path().join("sources");
    generate_site(&sources);
    // Every moment is drawn first, in order, so that a seed names the same
    // trials however they are run.
    let mut prepared = Vec::new();
    let mut trials = Vec::new();
    for (at, (scenario, count)) in SCENARIOS.into_iter().enumerate() {
        let expected = reference_tree(work.path(), &sources, scenario);
        let base = base(work.path(), &sources, scenario);
        let timing = time_uninterrupted(work.path(), &base, scenario);
        let calls = count_calls(work.path(), &base, scenario);
        for aim in &AIMS[..count] {
            let moment = match *aim {
                Aim::During(stage) => Moment::After(timing.moment(stage, rng.fraction())),
                Aim::Call(call) => {
                    let made = &calls[call as usize];
                    assert!(!made.is_empty(), "{scenario:?} makes no {call:?} call");
                    let (name, n) = made[(rng.fraction() * made.len() as f64) as usize].clone();
                    Moment::Nth(call, name, n)
                }
            };
            trials.push((at, moment));
        }
        prepared.push((scenario, base, expected));
    }
    assert_eq!(trials.len(), 30);
    // Each trial has a folder of its own: they run side by side, one per
    // core (most of a trial is strace stopping folio at each system call).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let found = std::sync::Mutex::new(vec![String::new(); trials.len()]);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let number = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((at, moment)) = trials.get(number) else {
                        return;
                    };
                    let (scenario, base, expected) = &prepared[*at];
                    let dir = work.path().join(format!("trial-{}", number + 1));
                    let what = run_trial(base, &dir, *scenario, moment, expected);
                    std::fs::remove_dir_all(&dir).unwrap();
                    found.lock().unwrap()[number] = what;
                }
            });
        }
    });
    let mut log = String::new();
    for (number, ((at, moment), found)) in
        trials.iter().zip(found.into_inner().unwrap()).enumerate()
    {
        let scenario = prepared[*at].0;
        let number = number + 1;
        writeln!(
            log,
            "trial {number:2} (seed {seed}): {scenario:?}, killed {moment}: {found}"
        )
        .unwrap();
    }
    eprint!("{log}");
}

/// Prepares a trial's site, kills its build at `moment`, runs a normal
/// build and checks everything the harness promises. Returns what the kill
/// found.
fn run_trial(
    base: &Path,
    dir: &Path,
    scenario: Scenario,
    moment: &Moment,
    expected: &BTreeMap<String, Vec<u8>>,
) -> String {
    prepare(base, dir, scenario);
    let killed = match moment {
        Moment::After(at) => {
            let mut child = folio_command()
                .args(["build", "--root"])
                .arg(dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(*at);
            let finished_first = child.try_wait().unwrap().is_some();
            child.kill().unwrap();
            child.wait().unwrap();
            !finished_first
        }
        Moment::Nth(_, name, n) => {
            let status = traced(dir, Some((name, *n)))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .unwrap();
            status.code().is_none() || status.code() == Some(128 + 9)
        }
    };
    let found = if killed {
        what_the_kill_left(dir)
    } else {
        "the build had finished".to_owned()
    };
    let out = dir.join("public");
    if matches!(scenario, Scenario::ColdEmpty) {
        // The user's file comes after the kill here: before, it would have
        // made the folder non-empty and the build another kind of build.
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join(USER_FILE), USER_BYTES).unwrap();
    }
    let recovery = build(dir);
    let context = format!("{scenario:?} killed {moment} ({found})");
    assert!(
        recovery.status.success(),
        "{context}: the next build failed: {}",
        String::from_utf8_lossy(&recovery.stderr)
    );
    check_converged(dir, expected, &context);
    found
}

/// `folio build --threads 1` of `dir` under strace, which logs the calls
/// the kills are aimed at, or kills it at the `n`th call of `name` (strace
/// counts calls per thread: one worker makes the counts the build's).
fn traced(dir: &Path, kill_at: Option<(&str, usize)>) -> Command {
    let mut strace = Command::new("strace");
    // No --seccomp-bpf: with it, strace 6.1 injects at the first call only.
    strace.args(["-f", "-qq", "-y", "-o"]);
    strace.arg(dir.with_extension("strace"));
    match kill_at {
        // Traced alone: strace 6.1 injects nothing when other calls are
        // traced beside it.
        Some((name, n)) => strace.args([
            format!("--trace={name}"),
            format!("--inject={name}:signal=KILL:when={n}"),
        ]),
        None => strace.arg(format!("--trace={TRACED}")),
    };
    let folio = folio_command();
    strace.arg(folio.get_program());
    strace.envs(folio.get_envs().filter_map(|(k, v)| Some((k, v?))));
    strace.args(["build", "--threads", "1", "--root"]).arg(dir);
    strace
}

/// The calls of each kind an uninterrupted build of the scenario makes, as
/// (system call, its number among that thread's calls of it).
fn count_calls(work: &Path, base: &Path, scenario: Scenario) -> Vec<Vec<(String, usize)>> {
    let dir = work.join("counting");
    prepare(base, &dir, scenario);
    let status = traced(&dir, None).stdout(Stdio::null()).status().unwrap();
    assert!(status.success());
    let log = std::fs::read_to_string(dir.with_extension("strace")).unwrap();
    let mut numbers: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut calls = vec![Vec::new(); Call::ALL.len()];
    for line in log.lines() {
        let Some((thread, rest)) = line.split_once(' ') else {
            continue;
        };
        let Some((name, _)) = rest.trim_start().split_once('(') else {
            continue;
        };
        let n = numbers
            .entry((thread.to_owned(), name.to_owned()))
            .or_default();
        *n += 1;
        for call in Call::ALL {
            if call.made(name, line) {
                calls[call as usize].push((name.to_owned(), *n));
            }
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    calls
}

/// Output tree, user file, index and temp files after the recovery build;
/// then a further build writes nothing.
fn check_converged(dir: &Path, expected: &BTreeMap<String, Vec<u8>>, context: &str) {
    let out = dir.join("public");
    let mut tree = TestSite::tree(&out);
    assert_eq!(
        tree.remove(USER_FILE).as_deref(),
        Some(USER_BYTES),
        "{context}: the user's file is untouched"
    );
    let temps: Vec<&String> = tree.keys().filter(|p| p.contains(".folio-tmp")).collect();
    assert!(temps.is_empty(), "{context}: temp files left: {temps:?}");
    if tree != *expected {
        let differ: Vec<&String> = expected
            .keys()
            .chain(tree.keys())
            .filter(|p| tree.get(*p) != expected.get(*p))
            .take(10)
            .collect();
        panic!("{context}: the output differs from a clean build's at {differ:?}");
    }
    let index = rusqlite::Connection::open(dir.join(".folio/index.sqlite")).unwrap();
    let integrity: String = index
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok", "{context}");
    let rows: Vec<(String, Option<String>, Option<i64>)> = index
        .prepare("SELECT path, hash, mtime_ns FROM outputs")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(rows.len(), tree.len(), "{context}: one row per output file");
    for (path, hash, mtime) in rows {
        let bytes = tree
            .get(&path)
            .unwrap_or_else(|| panic!("{context}: a row for {path}, which is not on disk"));
        assert!(mtime.is_some(), "{context}: {path} is still reserved");
        assert_eq!(
            hash.as_deref(),
            Some(output_hash(bytes).as_str()),
            "{context}: the row of {path} vouches for other bytes"
        );
    }
    let again = build(dir);
    let report: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(
        report["written"],
        serde_json::json!([]),
        "{context}: a further build writes nothing"
    );
}

/// What the killed build left: its temp files, the outputs it reserved
/// (about to be renamed into place), and the rows vouching for files.
fn what_the_kill_left(dir: &Path) -> String {
    let out = dir.join("public");
    let temps = walkdir::WalkDir::new(&out)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".folio-tmp"))
        .count();
    let index_path = dir.join(".folio/index.sqlite");
    if !index_path.exists() {
        return "no index yet".to_owned();
    }
    let index = rusqlite::Connection::open(&index_path).unwrap();
    let count = |sql: &str| -> i64 { index.query_row(sql, [], |r| r.get(0)).unwrap() };
    if count("SELECT count(*) FROM sqlite_master WHERE name = 'meta'") == 0 {
        return "index being created".to_owned();
    }
    let reserved = count(
        "SELECT coalesce(sum(length(value) - length(replace(value, char(10), ''))), 0)
         FROM meta WHERE key LIKE 'reserved %'",
    );
    let vouching = count("SELECT count(*) FROM outputs");
    let staging = count("SELECT count(*) FROM meta WHERE key LIKE 'staging %'");
    let phase = match (staging, reserved) {
        (0, _) => "nothing staged",
        (_, 0) => "staging",
        _ => "renaming, before the commit",
    };
    format!("{phase}: {temps} temp entries, {reserved} outputs reserved, {vouching} rows vouching")
}

/// The site a scenario's build starts from, before its edit: the sources,
/// and for an edit the user's file and a first build.
fn base(work: &Path, sources: &Path, scenario: Scenario) -> std::path::PathBuf {
    let dir = work.join(format!("base-{scenario:?}"));
    copy_tree(sources, &dir);
    match scenario {
        Scenario::ColdEmpty => {}
        Scenario::ColdBesideUserFile => put_user_file(&dir),
        Scenario::TemplateEdit | Scenario::ContentEdits => {
            put_user_file(&dir);
            assert!(build(&dir).status.success());
        }
    }
    dir
}

/// A trial's site: a copy of the base (with its index and output: the
/// index names its output folder relative to the site), edited.
fn prepare(base: &Path, dir: &Path, scenario: Scenario) {
    copy_tree(base, dir);
    edit(dir, scenario);
}

fn put_user_file(dir: &Path) {
    std::fs::create_dir_all(dir.join("public")).unwrap();
    std::fs::write(dir.join("public").join(USER_FILE), USER_BYTES).unwrap();
}

fn edit(dir: &Path, scenario: Scenario) {
    match scenario {
        Scenario::TemplateEdit => {
            let base = dir.join("templates/base.html");
            let text = std::fs::read_to_string(&base).unwrap();
            std::fs::write(&base, text.replace("</body>", "<!-- edited -->\n</body>")).unwrap();
        }
        Scenario::ContentEdits => {
            for lang in LANGUAGES {
                for n in (0..POSTS_PER_LANGUAGE).step_by(9) {
                    std::fs::remove_file(post_path(dir, lang, n)).unwrap();
                }
                for n in POSTS_PER_LANGUAGE..POSTS_PER_LANGUAGE + 40 {
                    write_post(dir, lang, n);
                }
                let edited = post_path(dir, lang, 5);
                let text = std::fs::read_to_string(&edited).unwrap();
                std::fs::write(&edited, text + "\nOne more paragraph, added later.\n").unwrap();
            }
        }
        Scenario::ColdEmpty | Scenario::ColdBesideUserFile => {}
    }
}

/// The output of a clean build, into a fresh folder, of the sources a
/// scenario ends with.
fn reference_tree(work: &Path, sources: &Path, scenario: Scenario) -> BTreeMap<String, Vec<u8>> {
    let dir = work.join("reference");
    copy_tree(sources, &dir);
    edit(&dir, scenario);
    assert!(build(&dir).status.success());
    let tree = TestSite::tree(&dir.join("public"));
    std::fs::remove_dir_all(&dir).unwrap();
    tree
}

/// When each stage of a scenario's build runs, from its start as a process.
struct Timing {
    /// Process start to the report's clock starting.
    startup: Duration,
    stages: Vec<(String, Duration)>,
}

impl Timing {
    /// The moment `fraction` of the way through `stage`.
    fn moment(&self, stage: &str, fraction: f64) -> Duration {
        let mut start = self.startup;
        for (name, length) in &self.stages {
            if name == stage {
                return start + length.mul_f64(fraction);
            }
            start += *length;
        }
        panic!("no stage {stage}")
    }
}

fn time_uninterrupted(work: &Path, base: &Path, scenario: Scenario) -> Timing {
    let dir = work.join("timing");
    prepare(base, &dir, scenario);
    let started = Instant::now();
    let run = build(&dir);
    let wall = started.elapsed();
    assert!(run.status.success());
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let elapsed = Duration::from_millis(report["elapsed_ms"].as_u64().unwrap());
    let stages = report["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|stage| {
            let ms = stage[1].as_f64().unwrap();
            (
                stage[0].as_str().unwrap().to_owned(),
                Duration::from_secs_f64(ms / 1000.0),
            )
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    Timing {
        startup: wall.saturating_sub(elapsed),
        stages,
    }
}

fn build(dir: &Path) -> std::process::Output {
    folio_command()
        .args(["build", "--json", "--root"])
        .arg(dir)
        .output()
        .unwrap()
}

/// `cp -a`: the copy keeps the sources' mtimes, as a checkout would.
fn copy_tree(from: &Path, to: &Path) {
    let status = Command::new("cp")
        .arg("-a")
        .arg(from)
        .arg(to)
        .status()
        .unwrap();
    assert!(status.success());
}

/// A site of 450 posts in each of three languages with the repository's
/// own theme: about 2,500 files.
fn generate_site(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let mut toml = String::from(
        "title = \"Kills\"\nbase_url = \"https://example.org\"\ndefault_language = \"en\"\n",
    );
    for lang in LANGUAGES {
        write!(toml, "\n[languages.{lang}]\nname = \"{lang}\"\n").unwrap();
    }
    std::fs::write(dir.join("site.toml"), toml).unwrap();
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
        &dir.join("templates"),
    );
    for lang in LANGUAGES {
        for n in 0..POSTS_PER_LANGUAGE {
            write_post(dir, lang, n);
        }
    }
}

fn post_path(dir: &Path, lang: &str, n: usize) -> std::path::PathBuf {
    dir.join(format!("content/{lang}/posts/post-{n:04}.md"))
}

fn write_post(dir: &Path, lang: &str, n: usize) {
    let path = post_path(dir, lang, n);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let words = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
    ];
    let mut body = String::new();
    for paragraph in 0..6 {
        for word in 0..40 {
            body.push_str(words[(n * 7 + paragraph * 3 + word) % words.len()]);
            body.push(' ');
        }
        body.push_str("\n\n");
    }
    // One post a day, so the order of the lists is fixed.
    let date = format!("{}-{}T08:00:00Z", 2020 + n / 336, day(n));
    let text = format!(
        "---\ntitle: Post {n} ({lang})\ndate: {date}\ntags: [t{}, t{}]\n---\n# Part {n}\n\n{body}- one\n- two\n\n```\ncode {n}\n```\n",
        n % 17,
        n % 5
    );
    std::fs::write(path, text).unwrap();
}

/// The `MM-DD` of day `n` of a 28-day-month calendar, years apart after 336.
fn day(n: usize) -> String {
    format!("{:02}-{:02}", n / 28 % 12 + 1, n % 28 + 1)
}

/// xorshift64: the moments of a seed, the same on every machine.
struct Rng(u64);

impl Rng {
    fn fraction(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// What a power loss can find is decided by the order of the flushes: the
/// outputs about to be renamed are reserved in a committed transaction
/// before the first rename, the output folder is flushed after the last
/// rename, and only then does the index commit vouch for the pages. Read
/// off strace, for a cold build and for an edit.
#[test]
fn pages_reach_the_disk_before_the_index_vouches_for_them() {
    assert!(
        Command::new("strace").arg("-V").output().is_ok(),
        "this test reads folio's system calls with strace: install it (apt-get install strace), or run .ci/test, which does"
    );
    let site = TestSite::with_posts();
    let calls = |site: &TestSite| -> Vec<String> {
        let status = traced(site.root(), None)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success());
        let log = site.root().with_extension("strace");
        let lines = std::fs::read_to_string(&log).unwrap();
        std::fs::remove_file(&log).unwrap();
        lines.lines().map(str::to_owned).collect()
    };
    for edit in [None, Some("Edited.")] {
        if let Some(body) = edit {
            site.write(
                "content/en/posts/hello-world.md",
                &util::post("Hello", "2024-05-01T09:00:00Z", body),
            );
        }
        let lines = calls(&site);
        let at = |what: &dyn Fn(&str) -> bool| -> Vec<usize> {
            lines
                .iter()
                .enumerate()
                .filter(|(_, line)| what(line))
                .map(|(i, _)| i)
                .collect()
        };
        let renames = at(&|l| l.contains("rename") && l.contains("/public"));
        let flush = at(&|l| l.contains("syncfs("));
        let commits = at(&|l| l.contains("sync(") && l.contains("index.sqlite-wal>"));
        let (first, last) = (renames[0], *renames.last().unwrap());
        assert_eq!(flush.len(), 1, "one flush of the output folder");
        assert!(flush[0] > last, "the flush follows the last rename");
        assert!(
            commits.iter().any(|&c| c < first),
            "the reservation is committed before the first rename"
        );
        assert!(
            !commits.iter().any(|&c| c > first && c < flush[0]),
            "no commit between the renames and the flush"
        );
        assert!(
            commits.iter().any(|&c| c > flush[0]),
            "the index commits after the flush"
        );
    }
}
