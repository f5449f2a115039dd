//! Real faults under the output folder: a file system that runs out of
//! space, one that turns read-only, and a place folio may not replace. Each
//! build fails naming the path and the cause, changes no output file, and
//! leaves an index from which the next build, once the fault is gone,
//! converges. The output folder is a small tmpfs the test mounts (CI runs
//! as root).

use crate::util;

use std::path::{Path, PathBuf};
use std::process::Command;

use util::{TestSite, post};

/// A tmpfs mounted for one test, unmounted when dropped.
struct Mount {
    dir: PathBuf,
}

impl Mount {
    fn new(dir: &Path, size: &str) -> Mount {
        std::fs::create_dir_all(dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .expect("mount runs");
        assert!(
            mounted.status.success(),
            "these tests mount a small tmpfs as the output folder, which needs root (CI runs as root): {}",
            String::from_utf8_lossy(&mounted.stderr)
        );
        Mount {
            dir: dir.to_owned(),
        }
    }

    fn remount(&self, options: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(&self.dir)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}

/// A site of posts big enough to overflow a 1 MB folder.
fn big_site() -> TestSite {
    let site = TestSite::with_posts();
    let paragraph = "A paragraph long enough to take room on disk. ".repeat(40);
    for n in 0..40 {
        site.write(
            &format!("content/en/posts/big-{n}.md"),
            &post(&format!("Big {n}"), "2024-03-01", &paragraph.repeat(8)),
        );
    }
    site
}

fn build(site: &TestSite) -> std::process::Output {
    site.cli(&["build", "--json"])
}

fn assert_fails_naming(output: &std::process::Output, out: &Path, cause: &str) {
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&out.display().to_string()) && stderr.contains(cause),
        "names a path in the output folder and the cause ({cause}): {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The fault gone, the next build converges to a clean build's output and
/// a further build writes nothing.
fn assert_converges(site: &TestSite) {
    let again = build(site);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(
        site.output_tree() == site.clean_build_tree(),
        "the output equals a clean build's"
    );
    assert!(site.build().written.is_empty());
}

#[test]
fn a_full_output_folder_fails_cleanly_and_the_next_build_converges() {
    let site = big_site();
    let mount = Mount::new(&site.out(), "1m");
    // The first build: nothing of it may appear.
    let full = build(&site);
    assert_fails_naming(&full, &site.out(), "No space left on device");
    assert_eq!(
        TestSite::tree(&site.out()).len(),
        0,
        "no page, no temp file"
    );

    mount.remount("size=64m");
    assert_converges(&site);

    // An edit that no longer fits: every page keeps its old bytes.
    let before = site.output_tree();
    mount.remount("size=3m");
    site.write(
        "templates/base.html",
        &format!(
            "{}\n<!-- {} -->\n",
            std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("templates/base.html")
            )
            .unwrap(),
            "x".repeat(40_000)
        ),
    );
    let full = build(&site);
    assert_fails_naming(&full, &site.out(), "No space left on device");
    assert!(site.output_tree() == before, "no output file changed");
    mount.remount("size=64m");
    assert_converges(&site);
}

#[test]
fn a_read_only_output_folder_fails_cleanly_and_the_next_build_converges() {
    let site = TestSite::with_posts();
    let mount = Mount::new(&site.out(), "16m");
    site.build();
    let before = site.output_tree();
    site.write(
        "content/en/posts/hello-world.md",
        &post("Hello, edited", "2024-05-01T09:00:00Z", "Edited."),
    );
    site.remove("content/posts/third.fr.md");
    mount.remount("ro");
    let refused = build(&site);
    assert_fails_naming(&refused, &site.out(), "Read-only file system");
    assert!(site.output_tree() == before, "no output file changed");
    mount.remount("rw");
    assert_converges(&site);
}

#[test]
fn a_folder_where_a_page_goes_is_refused_naming_it() {
    let site = TestSite::with_posts();
    site.build();
    let before = site.output_tree();
    site.write(
        "content/en/posts/hello-world.md",
        &post("Hello, edited", "2024-05-01T09:00:00Z", "Edited."),
    );
    // Someone made a folder where the page is: folio may not replace it.
    let page = site.path("public/posts/hello-world/index.html");
    std::fs::remove_file(&page).unwrap();
    std::fs::create_dir_all(page.join("kept")).unwrap();
    std::fs::write(page.join("kept/file.txt"), "mine").unwrap();
    let refused = build(&site);
    assert_fails_naming(&refused, &page, "");
    let mut after = site.output_tree();
    assert_eq!(
        after.remove("posts/hello-world/index.html/kept/file.txt"),
        Some(b"mine".to_vec())
    );
    let mut expected = before;
    expected.remove("posts/hello-world/index.html");
    let changed: Vec<&String> = expected
        .keys()
        .chain(after.keys())
        .filter(|path| after.get(*path) != expected.get(*path))
        .collect();
    assert!(changed.is_empty(), "no output file changed: {changed:?}");
    std::fs::remove_dir_all(&page).unwrap();
    assert_converges(&site);
}
