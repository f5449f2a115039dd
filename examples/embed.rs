//! Embedding folio as one step of another tool's build, the way a larger
//! pipeline (a docs toolchain, an app bundler) would: its own output and state
//! folders, its own progress display, and the report to decide what to upload.
//!
//! Run it on the example site: `cargo run --example embed -- . /tmp/dist`.
//! `cargo test` runs it too, on a copy of this repository's site.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use folio::{BuildOptions, BuildReport, Event, Site};

/// The host tool's build step at `now_ms` (the moment that decides which
/// posts are out yet): returns the files its deploy stage must upload and the
/// ones it must delete remotely.
fn build_step(
    site_root: &Path,
    dist: &Path,
    now_ms: i64,
) -> Result<(BuildReport, usize), folio::Error> {
    let site = Site::open(site_root)?;
    let rendered = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&rendered);
    let mut options = BuildOptions::new(now_ms);
    options.out_dir = Some(dist.join("site"));
    // The host keeps its caches in its own folder, not in the site.
    options.index_path = Some(dist.join(".cache/folio.sqlite"));
    options.observer = Some(Arc::new(move |event: &Event| {
        if let Event::PageRendered { .. } = event {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }));
    let report = site.build(&options)?;
    Ok((report, rendered.load(Ordering::Relaxed)))
}

fn main() -> std::process::ExitCode {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let root = args.next().unwrap_or_else(|| PathBuf::from("."));
    let dist = args
        .next()
        .unwrap_or_else(|| std::env::temp_dir().join("folio-embed"));
    // The library never reads the clock: the host says what time it is.
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |since| since.as_millis() as i64);
    match build_step(&root, &dist, now_ms) {
        Ok((report, rendered)) => {
            println!("rendered {rendered} pages");
            for path in &report.written {
                println!("upload {path}");
            }
            for path in &report.deleted {
                println!("delete {path}");
            }
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("site step failed: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copy_dir(from: &Path, to: &Path) {
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let target = to.join(entry.file_name());
            if entry.file_type().unwrap().is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                copy_dir(&entry.path(), &target);
            } else {
                std::fs::copy(entry.path(), &target).unwrap();
            }
        }
    }

    #[test]
    fn the_build_step_builds_the_repository_site_and_reports_uploads() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        let work = tempfile::tempdir().unwrap();
        let site = work.path().join("site");
        for part in ["content", "templates"] {
            std::fs::create_dir_all(site.join(part)).unwrap();
            copy_dir(&repo.join(part), &site.join(part));
        }
        std::fs::copy(repo.join("site.toml"), site.join("site.toml")).unwrap();
        let dist = work.path().join("dist");
        // 2026-01-01T00:00:00Z: every post of the example site is out.
        let now_ms = 1_767_225_600_000;

        let (report, rendered) = build_step(&site, &dist, now_ms).unwrap();
        assert!(
            report
                .written
                .contains(&"ja/posts/kyoto-autumn/index.html".to_owned())
        );
        assert!(
            report
                .written
                .contains(&"fr/posts/carnet-de-voyage/index.html".to_owned())
        );
        // The observer hears of each page rendered and each file read to
        // be copied: the map beside the travel notes (a bundle's file).
        let map = "fr/posts/carnet-de-voyage/itineraire.svg".to_owned();
        assert!(report.written.contains(&map));
        assert_eq!(rendered, report.rendered + 1);
        // And the stylesheet's twin (`asset_url`), written from the
        // sheet's bytes once the pages named it.
        let twin = |path: &String| path.starts_with("style.") && path != "style.css";
        assert_eq!(report.written.iter().filter(|p| twin(p)).count(), 1);
        assert_eq!(report.written.len(), rendered + 1);
        assert!(dist.join("site/index.html").is_file());
        assert!(dist.join(".cache/folio.sqlite").is_file());

        let (again, rendered) = build_step(&site, &dist, now_ms).unwrap();
        assert!(again.written.is_empty() && again.deleted.is_empty());
        assert_eq!(rendered, 0);
    }
}
