//! `folio serve`: the preview built, served and rebuilt on every save
//! until Ctrl-C, a line printed per build; the names `--allow-host` takes;
//! the browser opened with `--open`.

use std::sync::Arc;

use folio::{BuildOptions, BuildReport};

use super::{Publish, now_ms, says_waits};

/// `folio serve`: the preview built into its own folder, served, and
/// rebuilt through the same session on every save until Ctrl-C. A build
/// that fails keeps the server up, showing the error in every open page.
pub(crate) fn serve(
    site: super::SiteArgs,
    addr: std::net::SocketAddr,
    allowed_hosts: &[String],
    publish: Publish,
    open: bool,
) -> Result<(), folio::Error> {
    let root = site.root.clone();
    let site = site.open()?;
    let preview = site.make_preview_dir()?;
    let mut options = BuildOptions::new(now_ms()?);
    options.observer = Some(says_waits());
    options.out_dir = Some(preview.clone());
    options.drafts = publish.drafts;
    options.future = publish.future;
    options.expired = publish.expired;
    // Watching starts first: a save during the first build is rebuilt next.
    let watcher = folio::Watcher::new(&root)?;
    let mut session = folio::Session::open(site, options)?;
    let runtime = tokio::runtime::Runtime::new().map_err(|source| folio::Error::Io {
        path: root.clone(),
        source,
    })?;
    let base_path = session.site().config().base_path.clone();
    let mut server = runtime
        .block_on(folio::PreviewServer::bind(&preview, addr))?
        .under(&base_path);
    for name in allowed_hosts {
        server = server.allow_host(name);
    }
    if !addr.ip().to_canonical().is_loopback() {
        let drafts = if publish.drafts {
            ", drafts included,"
        } else {
            ""
        };
        eprintln!(
            "warning: {} is not a loopback address: the preview{drafts} is reachable from the network (`--bind 127.0.0.1` keeps it on this machine)",
            addr.ip()
        );
    }
    let live = server.live_reload();
    let first = session.build();
    match &first {
        Ok(report) => live.rebuilt(&report.written, &report.deleted, &report.relinked),
        Err(error) => live.failed(&error.to_string()),
    }
    report_build("built", &[], &first);
    let url = format!("http://{}{base_path}/", server.local_addr());
    out!("serving {} at {url} (Ctrl-C stops)", root.display());
    if open {
        open_in_browser(&url);
    }
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let rebuilding = {
        let stop = Arc::clone(&stop);
        let root = std::fs::canonicalize(&root).unwrap_or(root);
        std::thread::spawn(move || {
            let clock = || now_ms().unwrap_or_default();
            folio::rebuild_on_changes(
                &mut session,
                &watcher,
                &live,
                &stop,
                clock,
                |changes, result| {
                    let changed: Vec<String> = changes
                        .paths
                        .iter()
                        .map(|p| p.strip_prefix(&root).unwrap_or(p).display().to_string())
                        .collect();
                    report_build("rebuilt", &changed, result);
                },
            );
        })
    };
    runtime.block_on(server.run(async {
        let _ = tokio::signal::ctrl_c().await;
    }));
    // The rebuild under way, if any, finishes: no half-written page, and
    // the index is left consistent.
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = rebuilding.join();
    Ok(())
}

/// A name for `--allow-host`: one a `Host` header can carry, without a port
/// (any port is answered).
pub(crate) fn host_name(name: &str) -> Result<String, String> {
    if folio::PreviewServer::is_host_name(name) {
        Ok(name.to_owned())
    } else {
        Err(
            "expected a host name such as `mybox.local`, without a port \
             (IP addresses are always answered)"
                .to_owned(),
        )
    }
}

/// One line per build of the preview: what changed, what was written, the
/// time; or the error, which the open pages show too.
fn report_build(what: &str, changed: &[String], result: &Result<BuildReport, folio::Error>) {
    let cause = match changed {
        [] => String::new(),
        [one] => format!(" after {one}"),
        [first, rest @ ..] => format!(" after {first} and {} more", rest.len()),
    };
    match result {
        Ok(report) => {
            for warning in &report.warnings {
                eprintln!("warning: {warning}");
            }
            out!(
                "{what}{cause}: {} pages written, {} deleted in {} ms",
                report.written.len(),
                report.deleted.len(),
                report.elapsed_ms
            );
        }
        Err(error) => eprintln!("error{cause}: {error}"),
    }
}

/// Opens `url` with the system's opener; a machine without one only misses
/// the convenience.
fn open_in_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(url).spawn().is_err() {
        eprintln!("warning: could not open a browser ({opener}); open {url}");
    }
}
