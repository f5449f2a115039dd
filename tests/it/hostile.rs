//! Hostile input (issue 20): every case of `tests/hostile/` is built by the
//! real `folio build` in a fresh site, and must end as its file says: an
//! error with exactly the stderr it lists (exit 1, nothing written), or a
//! page holding what it lists (exit 0). Whatever the outcome, folio never
//! panics, and nothing changes outside the output folder and `.folio/`:
//! neither the site's own files nor a canary folder beside the site that
//! the cases' symbolic links point at.
//!
//! A case is one file: a header of `# key: value` lines, then the body, the
//! text written to `file` in a site of a few posts (`TestSite::with_posts`).
//! The header ends at the first line that does not start with `#`; `#`
//! lines with no known key describe the case.
//!
//! | key | meaning |
//! |---|---|
//! | `file: PATH` | where the body is written, from the site root |
//! | `also: PATH` | the same body written there too (repeatable) |
//! | `repeat: NAME N TEXT` | `${NAME}` in the body is TEXT N times; TEXT takes `\n`, `\r`, `\t`, `\\` and `\xNN` (any byte) |
//! | `link: PATH -> TARGET` | a symbolic link at PATH; `{canary}` in TARGET is the canary folder |
//! | `expect: error` or `expect: ok` | the outcome |
//! | `stderr: LINE` | one line of the exact stderr (repeatable; none means empty); `{root}` and `{canary}` stand for those folders |
//! | `page: PATH` | for `ok`: the output file (under `public/`) that must exist… |
//! | `contains: TEXT` | …and hold TEXT (repeatable) |
//! | `absent: PATH` | for `ok`: an output file that must not exist (repeatable) |
//!
//! `cargo test --test it hostile:: -- --nocapture` prints every case and its
//! outcome.

use crate::util;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use util::{TestSite, folio_command, source_hash};

/// Longer than any case takes in a debug build on a loaded machine: a case
/// that hangs is reported, instead of hanging the suite.
const TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Debug, Default)]
struct Case {
    name: String,
    file: String,
    also: Vec<String>,
    links: Vec<(String, String)>,
    error: bool,
    stderr: Vec<String>,
    page: Option<String>,
    contains: Vec<String>,
    absent: Vec<String>,
    body: Vec<u8>,
}

#[test]
fn every_hostile_case_ends_as_its_file_says() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut cases: Vec<Case> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "case"))
        .map(|path| Case::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect();
    assert!(cases.len() >= 40, "only {} cases", cases.len());
    // The biggest inputs first, so that no core is left with one at the end.
    cases.sort_by(|a, b| b.body.len().cmp(&a.body.len()).then(a.name.cmp(&b.name)));
    let started = Instant::now();
    let mut results: Vec<(&Case, Result<String, Vec<String>>)> = cases
        .par_iter()
        .with_max_len(1)
        .map(|case| (case, run(case)))
        .collect();
    results.sort_by(|a, b| a.0.name.cmp(&b.0.name));
    let mut failures = Vec::new();
    for (case, result) in &results {
        match result {
            Ok(outcome) => println!("ok    {:<44} {outcome}", case.name),
            Err(problems) => {
                println!("FAIL  {:<44} {}", case.name, problems.join("; "));
                failures.push(format!("{}:\n  {}", case.name, problems.join("\n  ")));
            }
        }
    }
    println!(
        "{} hostile cases tried, {} as expected, in {:.1}s",
        results.len(),
        results.len() - failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        results.len(),
        failures.join("\n")
    );
}

impl Case {
    fn read(path: &Path) -> Result<Case, String> {
        let text = std::fs::read(path).map_err(|e| e.to_string())?;
        let mut case = Case {
            name: path.file_name().unwrap().to_string_lossy().into_owned(),
            ..Case::default()
        };
        let mut repeats = Vec::new();
        let mut expect = None;
        let mut rest: &[u8] = &text;
        while rest.starts_with(b"#") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |i| i + 1);
            let line = std::str::from_utf8(&rest[..end]).map_err(|e| e.to_string())?;
            rest = &rest[end..];
            let line = line.strip_prefix('#').unwrap().trim_end_matches('\n');
            let Some((key, value)) = line.trim_start().split_once(": ") else {
                continue;
            };
            let value = value.to_owned();
            match key {
                "file" => case.file = value,
                "also" => case.also.push(value),
                "repeat" => repeats.push(repeat(&value)?),
                "link" => {
                    let (at, target) = value.split_once(" -> ").ok_or("link: PATH -> TARGET")?;
                    case.links.push((at.to_owned(), target.to_owned()));
                }
                "expect" => expect = Some(value),
                // A line of stderr keeps its leading spaces: `  = help: …`.
                "stderr" => case.stderr.push(value),
                "page" => case.page = Some(value),
                "contains" => case.contains.push(value),
                "absent" => case.absent.push(value),
                _ => {}
            }
        }
        case.body = expand(rest, &repeats);
        match expect.as_deref() {
            Some("error") if !case.stderr.is_empty() => case.error = true,
            Some("error") => return Err("an error case lists its stderr".into()),
            Some("ok") if case.page.is_some() || case.contains.is_empty() => {}
            _ => return Err("`expect: error` or `expect: ok` (with `page` for `contains`)".into()),
        }
        if case.file.is_empty() && case.links.is_empty() {
            return Err("a case writes a `file` or makes a `link`".into());
        }
        Ok(case)
    }
}

/// `NAME N TEXT` of a `repeat` line: the name and the bytes it stands for.
fn repeat(value: &str) -> Result<(String, Vec<u8>), String> {
    let mut parts = value.splitn(3, ' ');
    let (Some(name), Some(count), Some(text)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("repeat: NAME N TEXT, not `{value}`"));
    };
    let count: usize = count
        .parse()
        .map_err(|_| format!("repeat: `{count}` is not a count"))?;
    Ok((format!("${{{name}}}"), unescape(text)?.repeat(count)))
}

/// TEXT of a `repeat` line as bytes: `\n`, `\r`, `\t`, `\\`, `\xNN`.
fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let mut rest = text.as_bytes();
    while let Some((&b, after)) = rest.split_first() {
        rest = after;
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        let (&escape, after) = rest.split_first().ok_or("a `\\` ends the text")?;
        rest = after;
        match escape {
            b'n' => bytes.push(b'\n'),
            b'r' => bytes.push(b'\r'),
            b't' => bytes.push(b'\t'),
            b'\\' => bytes.push(b'\\'),
            b'x' if rest.len() >= 2 => {
                let hex = std::str::from_utf8(&rest[..2]).map_err(|e| e.to_string())?;
                bytes.push(u8::from_str_radix(hex, 16).map_err(|e| format!("\\x{hex}: {e}"))?);
                rest = &rest[2..];
            }
            other => return Err(format!("unknown escape `\\{}`", other as char)),
        }
    }
    Ok(bytes)
}

/// `body` with each `${NAME}` of `repeats` replaced.
fn expand(body: &[u8], repeats: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut body = body.to_vec();
    for (marker, bytes) in repeats {
        let marker = marker.as_bytes();
        let mut out = Vec::with_capacity(body.len() + bytes.len());
        let mut rest = &body[..];
        while let Some(at) = rest.windows(marker.len()).position(|w| w == marker) {
            out.extend_from_slice(&rest[..at]);
            out.extend_from_slice(bytes);
            rest = &rest[at + marker.len()..];
        }
        out.extend_from_slice(rest);
        body = out;
    }
    body
}

/// What is at a path, for a snapshot: a folder, a file's hash, or a link's
/// target.
#[derive(Debug, PartialEq, Eq)]
enum Entry {
    Folder,
    File(String),
    Link(PathBuf),
    Other,
}

/// Everything under `dir` (links not followed), skipping the top-level
/// names in `skip`.
fn snapshot(dir: &Path, skip: &[&str]) -> BTreeMap<PathBuf, Entry> {
    if !dir.exists() {
        return BTreeMap::new();
    }
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .filter_entry(|e| {
            e.depth() != 1
                || !skip
                    .iter()
                    .any(|s| e.file_name() == std::ffi::OsStr::new(s))
        })
        .map(|e| {
            let e = e.unwrap();
            let kind = e.file_type();
            let entry = if kind.is_symlink() {
                Entry::Link(std::fs::read_link(e.path()).unwrap())
            } else if kind.is_dir() {
                Entry::Folder
            } else if kind.is_file() {
                Entry::File(source_hash(&std::fs::read(e.path()).unwrap()))
            } else {
                Entry::Other
            };
            (e.path().strip_prefix(dir).unwrap().to_owned(), entry)
        })
        .collect()
}

/// What differs between two snapshots, named by path.
fn changes(before: &BTreeMap<PathBuf, Entry>, after: &BTreeMap<PathBuf, Entry>) -> Vec<String> {
    let paths: std::collections::BTreeSet<&PathBuf> = before.keys().chain(after.keys()).collect();
    paths
        .into_iter()
        .filter(|p| before.get(*p) != after.get(*p))
        .map(|p| p.display().to_string())
        .collect()
}

/// A fresh site (and canary) for `case`, ready to build.
fn prepare(case: &Case) -> (TestSite, tempfile::TempDir) {
    let site = TestSite::with_posts();
    let canary = tempfile::tempdir().unwrap();
    let post = "---\ntitle: Canary\ndate: 2024-01-01\n---\nThe canary's secret.\n";
    std::fs::write(canary.path().join("post.md"), post).unwrap();
    std::fs::write(canary.path().join("secret.txt"), "secret\n").unwrap();
    for path in std::iter::once(&case.file)
        .chain(&case.also)
        .filter(|p| !p.is_empty())
    {
        site.write_bytes(path, &case.body);
    }
    for (at, target) in &case.links {
        let target = target.replace("{canary}", &canary.path().display().to_string());
        let at = site.path(at);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, at).unwrap();
    }
    (site, canary)
}

/// Builds `case` and checks it: its outcome in a few words, or what went
/// wrong.
fn run(case: &Case) -> Result<String, Vec<String>> {
    let (site, canary) = prepare(case);
    let outside = snapshot(site.root(), &["public", ".folio"]);
    let output = snapshot(&site.out(), &[]);
    let guarded = snapshot(canary.path(), &[]);
    let (code, stderr, took) = build(&site, canary.path());
    let mut problems = Vec::new();
    if stderr.contains("panicked") {
        problems.push(format!("folio panicked:\n{stderr}"));
    }
    let expected: String = case.stderr.iter().map(|line| format!("{line}\n")).collect();
    if stderr != expected {
        problems.push(format!(
            "stderr differs:\n--- expected\n{expected}--- got\n{stderr}---"
        ));
    }
    let wanted = if case.error { Some(1) } else { Some(0) };
    if code != wanted {
        problems.push(format!("exit status {code:?}, expected {wanted:?}"));
    }
    let moved = changes(&outside, &snapshot(site.root(), &["public", ".folio"]));
    if !moved.is_empty() {
        problems.push(format!("changed outside the output folder: {moved:?}"));
    }
    let moved = changes(&guarded, &snapshot(canary.path(), &[]));
    if !moved.is_empty() {
        problems.push(format!("changed in the canary folder: {moved:?}"));
    }
    if case.error {
        let written = changes(&output, &snapshot(&site.out(), &[]));
        if !written.is_empty() {
            problems.push(format!("an error, yet written: {written:?}"));
        }
    } else if let Some(page) = &case.page {
        check_page(&site, page, &case.contains, &mut problems);
    }
    for absent in case.absent.iter().filter(|a| site.out().join(a).exists()) {
        problems.push(format!("{absent} was written"));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let first = case.stderr.first().map_or("", String::as_str);
    let outcome = if case.error { "refused" } else { "built" };
    let said: String = first.chars().take(70).collect();
    Ok(format!("{outcome} in {:.2}s {said}", took.as_secs_f64()))
}

fn check_page(site: &TestSite, page: &str, contains: &[String], problems: &mut Vec<String>) {
    match std::fs::read(site.out().join(page)) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            for wanted in contains.iter().filter(|w| !text.contains(w.as_str())) {
                problems.push(format!("{page} does not hold `{wanted}`"));
            }
        }
        Err(e) => problems.push(format!("{page}: {e}")),
    }
}

/// Runs `folio build` in the site: its exit code, its stderr with the
/// site's and the canary's paths replaced by `{root}` and `{canary}`, and
/// how long it took.
fn build(site: &TestSite, canary: &Path) -> (Option<i32>, String, Duration) {
    let logs = tempfile::tempdir().unwrap();
    let (out, err) = (logs.path().join("stdout"), logs.path().join("stderr"));
    let started = Instant::now();
    let mut child = folio_command()
        .arg("build")
        .current_dir(site.root())
        .stdout(Stdio::from(std::fs::File::create(&out).unwrap()))
        .stderr(Stdio::from(std::fs::File::create(&err).unwrap()))
        .spawn()
        .expect("folio runs");
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > TIMEOUT {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = started.elapsed();
    let mut stderr = String::from_utf8_lossy(&std::fs::read(&err).unwrap()).into_owned();
    for (path, name) in [(site.root(), "{root}"), (canary, "{canary}")] {
        let real = path.canonicalize().unwrap();
        stderr = stderr.replace(&real.display().to_string(), name);
        stderr = stderr.replace(&path.display().to_string(), name);
    }
    match status {
        Some(status) => (status.code(), stderr, took),
        None => (
            None,
            format!("{stderr}(timed out after {TIMEOUT:?})\n"),
            took,
        ),
    }
}

/// Inserts a row into the index's outputs, as someone who can write the
/// index could: `hash` and the stat of `stat_of` (when given) as recorded.
fn plant_output_row(
    site: &TestSite,
    dir: &str,
    path: &str,
    hash: Option<&str>,
    stat_of: Option<&Path>,
) {
    let conn = rusqlite::Connection::open(site.path(".folio/index.sqlite")).unwrap();
    let (size, mtime) = match stat_of.map(|p| std::fs::metadata(p).unwrap()) {
        Some(meta) => {
            let mtime = meta
                .modified()
                .unwrap()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap();
            (Some(meta.len() as i64), Some(mtime.as_nanos() as i64))
        }
        None => (None, None),
    };
    conn.execute(
        "INSERT INTO outputs (dir, path, hash, size, mtime_ns) VALUES (?1, ?2, ?3, ?4, ?5)",
        rusqlite::params![dir, path, hash, size, mtime],
    )
    .unwrap();
}

#[test]
fn a_crafted_row_deletes_nothing_through_a_linked_folder() {
    let site = TestSite::with_posts();
    site.build();
    let victim = tempfile::tempdir().unwrap();
    let precious = victim.path().join("precious.txt");
    std::fs::write(&precious, "precious\n").unwrap();
    std::os::unix::fs::symlink(victim.path(), site.out().join("up")).unwrap();
    let recorded = victim.path().join("recorded.txt");
    std::fs::write(&recorded, "recorded\n").unwrap();
    // As the review did it: a row without a hash; and one that records a
    // file's stat and hash exactly, which vouches for it, but not through
    // a link.
    plant_output_row(&site, "public", "up/precious.txt", None, None);
    plant_output_row(
        &site,
        "public",
        "up/recorded.txt",
        Some(&util::output_hash(b"recorded\n")),
        Some(&recorded),
    );
    let built = site.cli(&["build", "--json"]);
    assert!(built.status.success(), "{}", util::stderr(&built));
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "precious\n");
    assert_eq!(std::fs::read_to_string(&recorded).unwrap(), "recorded\n");
    let report: serde_json::Value = serde_json::from_slice(&built.stdout).unwrap();
    assert_eq!(report["deleted"], serde_json::json!([]), "{report}");
    assert!(
        util::stderr(&built).contains(&format!(
            "public/up/precious.txt: left in place: it is reached through {}/public/up, a symbolic link, and folio deletes nothing through one",
            site.root().canonicalize().unwrap().display()
        )),
        "{}",
        util::stderr(&built)
    );
}

#[test]
fn a_crafted_row_vouches_only_for_a_file_whose_stat_and_hash_it_recorded() {
    let site = TestSite::with_posts();
    let elsewhere = tempfile::tempdir().unwrap();
    let out = elsewhere.path().join("site");
    site.write(
        "site.toml",
        &site.read("site.toml").replacen(
            "title",
            &format!("output_dir = {:?}\ntitle", out.display().to_string()),
            1,
        ),
    );
    site.build();
    let dir = out.display().to_string();
    let foreign = |name: &str| {
        let path = out.join(name);
        std::fs::write(&path, format!("{name} is the user's\n")).unwrap();
        path
    };
    let (no_hash, wrong_hash, no_stat) = (foreign("a.txt"), foreign("b.txt"), foreign("c.txt"));
    plant_output_row(&site, &dir, "a.txt", None, Some(&no_hash));
    plant_output_row(
        &site,
        &dir,
        "b.txt",
        Some("0123456789abcdef"),
        Some(&wrong_hash),
    );
    plant_output_row(&site, &dir, "c.txt", None, None);
    let report = site.build();
    assert!(report.deleted.is_empty(), "{:?}", report.deleted);
    for file in [no_hash, wrong_hash, no_stat] {
        assert!(
            std::fs::read_to_string(&file)
                .unwrap()
                .ends_with("is the user's\n")
        );
    }
}

#[test]
fn explain_publish_and_serve_refuse_a_linked_state_and_write_nothing_through_it() {
    let site = TestSite::with_posts();
    let canary = tempfile::tempdir().unwrap();
    let victim = canary.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::fs::create_dir(site.path(".folio")).unwrap();
    std::os::unix::fs::symlink(&victim, site.path(".folio/build.lock")).unwrap();
    let runs: [&[&str]; 3] = [
        &["explain", "/"],
        &[
            "publish",
            "--dry-run",
            "--database",
            "postgres://nobody@127.0.0.1:9/none",
        ],
        &["serve", "--port", "0"],
    ];
    let refused_lock = "error: .folio/build.lock: is a symbolic link";
    for args in runs {
        let run = site.cli(args);
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        assert!(
            util::stderr(&run).starts_with(refused_lock),
            "{args:?}: {}",
            util::stderr(&run)
        );
    }
    std::fs::remove_dir_all(site.path(".folio")).unwrap();
    std::os::unix::fs::symlink(canary.path(), site.path(".folio")).unwrap();
    for args in runs {
        let run = site.cli(args);
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        assert!(
            util::stderr(&run).starts_with("error: .folio: is a symbolic link"),
            "{args:?}: {}",
            util::stderr(&run)
        );
    }
    std::fs::remove_file(site.path(".folio")).unwrap();
    std::fs::create_dir(site.path(".folio")).unwrap();
    std::os::unix::fs::symlink(canary.path(), site.path(".folio/preview")).unwrap();
    let serve = site.cli(&["serve", "--port", "0"]);
    assert_eq!(serve.status.code(), Some(1));
    assert!(util::stderr(&serve).starts_with("error: .folio/preview: is a symbolic link"));
    let entries: Vec<_> = std::fs::read_dir(canary.path()).unwrap().collect();
    assert_eq!(entries.len(), 1, "only the victim: {entries:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}
