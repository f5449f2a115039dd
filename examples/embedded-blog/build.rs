//! Builds the blog into OUT_DIR with folio, and tells Cargo exactly which
//! files it was made from: `cargo build` builds the site again when, and
//! only when, one of them changed (a post saved, a new post, a template).

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The site: this repository's example site, unless told otherwise.
    println!("cargo:rerun-if-env-changed=FOLIO_EMBED_SITE");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    let manifest_dir =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").ok_or("no CARGO_MANIFEST_DIR")?);
    let site_root = std::env::var_os("FOLIO_EMBED_SITE")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest_dir.join("../.."));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").ok_or("no OUT_DIR")?);

    // The library reads no clock: a build script says what time it is.
    let now_ms = match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(seconds) => seconds.trim().parse::<i64>()? * 1000,
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)?
            .as_millis() as i64,
    };
    let mut options = folio::BuildOptions::new(now_ms);
    options.out_dir = Some(out.join("site"));
    // The index lives beside the output, so the next build of this crate
    // rewrites only what changed.
    options.index_path = Some(out.join("folio-index.sqlite"));

    let report = folio::Site::open(&site_root)?.build(&options)?;
    report
        .inputs
        .write_cargo_rerun_if_changed(&mut std::io::stdout())?;
    // The binary carries what its site's last build did.
    std::fs::write(out.join("folio-report.txt"), report_lines(&report))?;
    Ok(())
}

/// The report as `embedded-blog report` prints it: one line per written and
/// deleted file.
fn report_lines(report: &folio::BuildReport) -> String {
    let mut text = String::new();
    for path in &report.written {
        text.push_str(&format!("written {path}\n"));
    }
    for path in &report.deleted {
        text.push_str(&format!("deleted {path}\n"));
    }
    text
}
