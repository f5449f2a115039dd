//! The preview server's HTTP side: the files of one output folder, served as
//! a static host would, and nothing outside it.
//!
//! A request's path is split into segments before anything is decoded, each
//! segment is percent-decoded once and refused if it is `.`, `..`, empty, or
//! holds a `/`, a `\` or a NUL; the file it names is then resolved by the
//! file system (links followed) and served only if the resolved path lies
//! under the resolved output folder, compared component by component (a
//! text prefix would let `public-old` pass for `public`, Zola's
//! CVE-2023-40274). Pretty URLs: a folder is served by its `index.html`, and
//! its URL without the final slash redirects to the one with it. A missing
//! file is the site's own `404.html`, with status 404. `HEAD` and
//! conditional `GET` (`If-None-Match` against an ETag made of the file's
//! size and mtime) are answered as a static host would.
//!
//! Live reload: every HTML page is served with a small script injected
//! before `</body>` (the file on disk stays as the build wrote it), which
//! listens to the Server-Sent Events of [`LIVE_PATH`]. [`LiveReload`] tells
//! the open tabs to reload (keeping their scroll position), to swap changed
//! stylesheets in place, or to show a failed build's error over the page
//! until the next good one; a tab opened during a failure is told at once.
//!
//! Trust: a request is answered only when it names a host that a page of
//! another site cannot make its own by DNS rebinding (see [`host`]); a
//! client gets [`HEADER_READ_TIMEOUT`] to send a request's head; at most
//! [`MAX_LIVE_STREAMS`] event streams are open at once; and every response
//! says `X-Content-Type-Options: nosniff`, so no file of the preview is run
//! as a script or a stylesheet of a type it does not have.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use axum::response::sse::{Event, KeepAlive, Sse};
use tokio::sync::broadcast;

use crate::model::error::Error;

mod host;
mod watch;

use host::AllowedHosts;

pub use watch::{Changes, Watcher, rebuild_on_changes};

/// Where the open tabs listen for what changed. Under a name a site's own
/// pages cannot have (a build never writes a folder starting with `__folio`).
pub(crate) const LIVE_PATH: &str = "/__folio/live";

/// How long a client may take to send the head of a request (the wait for
/// the next one on a kept-alive connection included), unless
/// [`PreviewServer::header_read_timeout`] says otherwise: a connection
/// that sends half a request is closed then, instead of held for ever.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// The most live-reload streams open at once: each holds a task, a channel
/// and a connection for as long as its tab is open, and 2,000 of them held
/// 63 MB. One person's tabs of one preview are far fewer.
const MAX_LIVE_STREAMS: usize = 64;

/// The script injected into every HTML page served.
const LIVE_SCRIPT: &str = include_str!("live.js");

/// What the open tabs are told.
#[derive(Debug, Clone)]
enum Told {
    Reload,
    /// These stylesheets (URL paths) changed, and nothing else did.
    Stylesheets(Vec<String>),
    Failed(String),
    Recovered,
}

/// Tells the open tabs of a [`PreviewServer`] what a rebuild did. Cheap to
/// clone; any thread may use it.
#[derive(Clone)]
pub struct LiveReload {
    sender: broadcast::Sender<Told>,
    /// The site's base path (`/blog`, or empty): the URLs of the outputs
    /// start with it.
    base_path: Arc<str>,
    /// The error a tab opened now must show.
    failure: Arc<std::sync::Mutex<Option<String>>>,
}

impl LiveReload {
    fn new() -> LiveReload {
        LiveReload {
            sender: broadcast::channel(64).0,
            base_path: Arc::from(""),
            failure: Arc::default(),
        }
    }

    /// The site was rebuilt, writing and deleting these outputs (relative
    /// to the output folder), `relinked` among those written only for the
    /// new name of an asset they fingerprint: each tab reloads, or, when
    /// only stylesheets moved (written, their old twins deleted, the pages
    /// naming them relinked), swaps them. A tab showing a failure drops it.
    pub fn rebuilt(&self, written: &[String], deleted: &[String], relinked: &[String]) {
        let recovered = self.set_failure(None);
        let is_sheet = |path: &String| path.ends_with(".css");
        let stylesheets: Option<Vec<String>> = written
            .iter()
            .filter(|path| relinked.binary_search(path).is_err())
            .map(|path| {
                let url = || format!("{}{}", self.base_path, url_of(path));
                is_sheet(path).then(url)
            })
            .collect();
        let unchanged = written.is_empty() && deleted.is_empty();
        let told = match stylesheets {
            Some(sheets) if !sheets.is_empty() && deleted.iter().all(is_sheet) => {
                Told::Stylesheets(sheets)
            }
            _ if unchanged && !recovered => return,
            _ if unchanged => Told::Recovered,
            _ => Told::Reload,
        };
        let _ = self.sender.send(told);
    }

    /// A rebuild failed with `message` (which names the file, and the line
    /// where known): each tab shows it over the last good page.
    pub fn failed(&self, message: &str) {
        self.set_failure(Some(message.to_owned()));
        let _ = self.sender.send(Told::Failed(message.to_owned()));
    }

    /// Records the current failure; whether there was one before.
    fn set_failure(&self, failure: Option<String>) -> bool {
        let mut current = self
            .failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        std::mem::replace(&mut *current, failure).is_some()
    }

    fn current_failure(&self) -> Option<String> {
        self.failure
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// The URL path of an output path.
fn url_of(path: &str) -> String {
    path.split('/').map(crate::model::url::encode_segment).fold(
        String::new(),
        |mut url, segment| {
            url.push('/');
            url.push_str(&segment);
            url
        },
    )
}

/// What the preview serves: the files of one output folder.
#[derive(Clone)]
struct Served {
    /// The output folder, resolved (links followed).
    root: Arc<PathBuf>,
    /// Where the site is served: `/blog`, or empty for the root.
    base_path: Arc<str>,
    live: LiveReload,
    /// Becomes true when the server stops: the event streams end, or a
    /// graceful shutdown would wait for open tabs for ever.
    closing: tokio::sync::watch::Receiver<bool>,
    /// One permit per live-reload stream that may open.
    streams: Arc<tokio::sync::Semaphore>,
}

/// A preview server bound to its address, not serving yet.
pub struct PreviewServer {
    listener: tokio::net::TcpListener,
    /// Where it listens, the port chosen for 0 included.
    addr: SocketAddr,
    served: Served,
    close: tokio::sync::watch::Sender<bool>,
    hosts: AllowedHosts,
    header_read_timeout: Duration,
}

impl PreviewServer {
    /// Binds `addr` (port 0 takes a free one) to serve the files of
    /// `out_dir`, which must exist. Must be called inside a tokio runtime.
    pub async fn bind(out_dir: &Path, addr: SocketAddr) -> Result<PreviewServer, Error> {
        let root = std::fs::canonicalize(out_dir).map_err(|e| Error::io(out_dir, e))?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| Error::Bind { addr, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| Error::Bind { addr, source })?;
        let (close, closing) = tokio::sync::watch::channel(false);
        Ok(PreviewServer {
            listener,
            addr,
            served: Served {
                root: Arc::new(root),
                base_path: Arc::from(""),
                live: LiveReload::new(),
                closing,
                streams: Arc::new(tokio::sync::Semaphore::new(MAX_LIVE_STREAMS)),
            },
            close,
            hosts: AllowedHosts::default(),
            header_read_timeout: HEADER_READ_TIMEOUT,
        })
    }

    /// Serves the site at `base_path` (`/blog`, a site's
    /// [`Config::base_path`](crate::Config::base_path)) instead of at the
    /// root, as its host will: every URL the site links starts with it.
    pub fn under(mut self, base_path: &str) -> PreviewServer {
        let base_path: Arc<str> = Arc::from(base_path.trim_end_matches('/'));
        self.served.live.base_path = Arc::clone(&base_path);
        self.served.base_path = base_path;
        self
    }

    /// Also answers requests naming the host `name` (`mybox.local`, with
    /// any port): beside it, only `localhost` and the names under it and IP
    /// addresses are answered, so that a page of another site cannot read
    /// the preview by making its own name resolve to this machine. A name
    /// no `Host` header can carry is never matched.
    pub fn allow_host(mut self, name: &str) -> PreviewServer {
        self.hosts.allow(name);
        self
    }

    /// Whether `name` is one [`PreviewServer::allow_host`] can match: a
    /// host name as a browser sends it (ASCII labels of letters, digits,
    /// `-` and `_`), without a port.
    pub fn is_host_name(name: &str) -> bool {
        host::is_host_name(name)
    }

    /// Closes a connection that has not sent the head of its request within
    /// `timeout` (10 s unless set).
    pub fn header_read_timeout(mut self, timeout: Duration) -> PreviewServer {
        self.header_read_timeout = timeout;
        self
    }

    /// The handle that tells this server's open tabs what a rebuild did.
    pub fn live_reload(&self) -> LiveReload {
        self.served.live.clone()
    }

    /// The address it listens on (with the port the system chose for 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until `shutdown` completes, then waits for the requests under
    /// way (the event streams end at once). A failed accept (a client
    /// gone, no file descriptor left) does not stop it: nothing but
    /// `shutdown` does.
    pub async fn run(self, shutdown: impl std::future::Future<Output = ()> + Send + 'static) {
        let app = axum::Router::new()
            .route(LIVE_PATH, axum::routing::get(live_events))
            .fallback(respond)
            .layer(axum::middleware::from_fn_with_state(
                Arc::new(self.hosts),
                check_host,
            ))
            .layer(axum::middleware::map_response(nosniff))
            .with_state(self.served);
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(hyper_util::rt::TokioTimer::new())
            .header_read_timeout(self.header_read_timeout);
        let graceful = hyper_util::server::graceful::GracefulShutdown::new();
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let accepted = tokio::select! {
                accepted = self.listener.accept() => accepted,
                () = &mut shutdown => break,
            };
            let stream = match accepted {
                Ok((stream, _)) => stream,
                Err(error) => {
                    wait_after_accept_error(&error).await;
                    continue;
                }
            };
            let service = hyper_util::service::TowerToHyperService::new(app.clone());
            let connection = graceful
                .watch(http.serve_connection(hyper_util::rt::TokioIo::new(stream), service));
            // A connection's error (a reset, a timeout) is its own: the
            // server goes on.
            tokio::spawn(async move {
                let _ = connection.await;
            });
        }
        drop(self.listener);
        let _ = self.close.send(true);
        graceful.shutdown().await;
    }
}

/// After a failed accept: a connection reset before it was accepted is
/// nothing, but when the process is out of file descriptors (many clients
/// at once) the listener stays readable and an immediate retry would spin;
/// as axum::serve does, it waits a little and tries again rather than stop
/// the preview.
async fn wait_after_accept_error(error: &std::io::Error) {
    use std::io::ErrorKind;
    let of_one_connection = matches!(
        error.kind(),
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::ConnectionRefused
    );
    if !of_one_connection {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Answers a request only when its `Host` (and the authority of an
/// absolute URL, which a server must prefer to it) is one the preview
/// answers; a request without a `Host`, or with two, is refused too.
async fn check_host(
    State(hosts): State<Arc<AllowedHosts>>,
    request: Request,
    next: Next,
) -> Response {
    let mut named = request.headers().get_all(header::HOST).iter();
    let host = match (named.next(), named.next()) {
        (Some(host), None) => host.to_str().ok(),
        _ => None,
    };
    let authority = request.uri().authority().map(|a| a.as_str());
    let allowed =
        host.is_some_and(|h| hosts.allows(h)) && authority.is_none_or(|a| hosts.allows(a));
    if allowed {
        return next.run(request).await;
    }
    let body = match authority.or(host).and_then(AllowedHosts::name_of) {
        Some(name) => format!(
            "403: this preview does not answer the host {name}; \
             to reach it by that name, pass `--allow-host {name}` to folio serve\n"
        ),
        None => "403: this preview answers localhost, IP addresses and the names \
                 passed with `--allow-host NAME` to folio serve\n"
            .to_owned(),
    };
    (StatusCode::FORBIDDEN, body).into_response()
}

/// Browsers guess the type of a response by its bytes without it: a page
/// of the preview could then be run as a script by another page.
async fn nosniff(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// What a request's path names in the output folder.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    File(PathBuf),
    /// A folder asked for without its final slash: the URL with it.
    Redirect(String),
    NotFound,
}

async fn respond(State(served): State<Served>, request: Request) -> Response {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    let base_path = Arc::clone(&served.base_path);
    let path = request.uri().path();
    if path == &*base_path {
        return redirect(&format!("{base_path}/"));
    }
    // Outside the base path is outside the site.
    let path = path.strip_prefix(&*base_path).unwrap_or("").to_owned();
    let headers = request.headers().clone();
    let root = Arc::clone(&served.root);
    // Resolving and reading touch the disk: off the async workers.
    tokio::task::spawn_blocking(move || match resolve(&root, &path) {
        Target::File(file) => file_response(&file, &headers, StatusCode::OK),
        Target::Redirect(location) => redirect(&format!("{base_path}{location}")),
        Target::NotFound => not_found(&root, &headers),
    })
    .await
    .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

/// The event stream a tab listens to: a failure that is on now first, then
/// whatever the server is told.
async fn live_events(State(served): State<Served>) -> Response {
    let Ok(slot) = Arc::clone(&served.streams).try_acquire_owned() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "503: too many live-reload streams are open; close some tabs of this preview\n",
        )
            .into_response();
    };
    let (forward, events) =
        tokio::sync::mpsc::channel::<Result<Event, std::convert::Infallible>>(16);
    let mut told = served.live.sender.subscribe();
    let failure = served.live.current_failure();
    let mut closing = served.closing.clone();
    tokio::spawn(async move {
        // The stream's slot is given back when this task ends, however it
        // ends (the permit's drop), so the count of open streams is exact.
        let _slot = slot;
        if let Some(message) = failure {
            let _ = forward.send(Ok(event(Told::Failed(message)))).await;
        }
        loop {
            let received = tokio::select! {
                received = told.recv() => received,
                _ = closing.wait_for(|closing| *closing) => break,
                // A closed tab is seen at once, not at the next rebuild: its
                // slot is free for the next tab.
                () = forward.closed() => break,
            };
            let next = match received {
                Ok(next) => next,
                // A tab too slow to follow reloads: what it missed is stale.
                Err(broadcast::error::RecvError::Lagged(_)) => Told::Reload,
                Err(broadcast::error::RecvError::Closed) => break,
            };
            if forward.send(Ok(event(next))).await.is_err() {
                break;
            }
        }
    });
    Sse::new(tokio_stream::wrappers::ReceiverStream::new(events))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// An event of the stream. Each carries data: a browser does not dispatch
/// an event without any.
fn event(told: Told) -> Event {
    match told {
        Told::Reload => Event::default().event("reload").data("now"),
        Told::Stylesheets(sheets) => Event::default()
            .event("stylesheets")
            .data(serde_json::to_string(&sheets).unwrap_or_default()),
        Told::Failed(message) => Event::default().event("failed").data(message),
        Told::Recovered => Event::default().event("recovered").data("now"),
    }
}

/// The file of `url_path` under `root` (resolved), or why there is none.
fn resolve(root: &Path, url_path: &str) -> Target {
    let Some(rest) = url_path.strip_prefix('/') else {
        return Target::NotFound;
    };
    let mut path = root.to_path_buf();
    let mut segments = rest.split('/').peekable();
    while let Some(raw) = segments.next() {
        if raw.is_empty() && segments.peek().is_none() {
            break; // the final slash of a folder's URL
        }
        let Some(segment) = crate::model::url::decode_segment(raw) else {
            return Target::NotFound;
        };
        let refused = segment.is_empty()
            || segment == "."
            || segment == ".."
            || segment.contains(['/', '\\', '\0'])
            || segment.ends_with(crate::store::write::TEMP_SUFFIX);
        if refused {
            return Target::NotFound;
        }
        path.push(segment);
    }
    let Ok(resolved) = std::fs::canonicalize(&path) else {
        return Target::NotFound;
    };
    if !resolved.starts_with(root) {
        return Target::NotFound;
    }
    if !resolved.is_dir() {
        return if url_path.ends_with('/') {
            Target::NotFound
        } else {
            Target::File(resolved)
        };
    }
    if !url_path.ends_with('/') {
        return Target::Redirect(format!("{url_path}/"));
    }
    match std::fs::canonicalize(resolved.join("index.html")) {
        Ok(index) if index.starts_with(root) && index.is_file() => Target::File(index),
        _ => Target::NotFound,
    }
}

/// A file, or 304 when the client holds it already.
fn file_response(file: &Path, headers: &HeaderMap, status: StatusCode) -> Response {
    let Ok(meta) = std::fs::metadata(file) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let mtime = meta
        .modified()
        .map(crate::model::doc::nanos_since_epoch)
        .unwrap_or(0);
    let etag = format!("\"{:x}-{:x}\"", meta.len(), mtime);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    if fresh && status == StatusCode::OK {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    let Ok(mut bytes) = std::fs::read(file) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let content_type = content_type(file);
    if content_type.as_bytes().starts_with(b"text/html") {
        bytes = with_live_script(bytes);
    }
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type);
    if let Ok(etag) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, etag);
    }
    // A preview must show the latest build: the browser asks every time,
    // and the ETag makes the answer to an unchanged file empty.
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// A page with the live-reload script before its `</body>` (or at its end).
fn with_live_script(mut html: Vec<u8>) -> Vec<u8> {
    let script = format!("<script>{LIVE_SCRIPT}</script>");
    let at = html
        .windows(7)
        .rposition(|w| w.eq_ignore_ascii_case(b"</body>"))
        .unwrap_or(html.len());
    html.splice(at..at, script.into_bytes());
    html
}

/// The content type of a file, by its extension; text in UTF-8, as folio
/// writes it.
fn content_type(file: &Path) -> HeaderValue {
    let mime = mime_guess::from_path(file).first_or_octet_stream();
    let textual = mime.type_() == mime_guess::mime::TEXT
        || matches!(mime.subtype().as_str(), "xml" | "javascript" | "json")
        || mime.suffix().is_some_and(|s| s == mime_guess::mime::XML);
    let value = if textual {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("application/octet-stream"))
}

fn redirect(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(location) => (
            StatusCode::MOVED_PERMANENTLY,
            [(header::LOCATION, location)],
        )
            .into_response(),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    }
}

/// The site's own `404.html`, or a plain answer when it has none.
fn not_found(root: &Path, headers: &HeaderMap) -> Response {
    match resolve(root, "/404.html") {
        Target::File(page) => file_response(&page, headers, StatusCode::NOT_FOUND),
        _ => (
            StatusCode::NOT_FOUND,
            "404: no page of this site is there\n",
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("public");
        for (rel, text) in [
            ("public/index.html", "home"),
            ("public/fr/posts/été/index.html", "été"),
            ("public/style.css", "p {}"),
            ("public-old/secret.html", "old"),
            ("secret.txt", "source"),
        ] {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.path().join("secret.txt"), out.join("link.txt")).unwrap();
        let root = std::fs::canonicalize(&out).unwrap();
        (dir, root)
    }

    #[test]
    fn pretty_urls_name_the_folder_s_index_and_a_missing_slash_redirects() {
        let (_dir, root) = site();
        assert_eq!(resolve(&root, "/"), Target::File(root.join("index.html")));
        let ete = Target::File(root.join("fr/posts/été/index.html"));
        assert_eq!(resolve(&root, "/fr/posts/%C3%A9t%C3%A9/"), ete);
        assert_eq!(resolve(&root, "/fr/posts/été/"), ete);
        assert_eq!(
            resolve(&root, "/fr/posts/%C3%A9t%C3%A9"),
            Target::Redirect("/fr/posts/%C3%A9t%C3%A9/".into())
        );
        assert_eq!(
            resolve(&root, "/style.css"),
            Target::File(root.join("style.css"))
        );
        assert_eq!(resolve(&root, "/style.css/"), Target::NotFound);
        assert_eq!(resolve(&root, "/nope/"), Target::NotFound);
    }

    #[test]
    fn nothing_outside_the_output_folder_is_ever_named() {
        let (_dir, root) = site();
        for path in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/%2E%2E/secret.txt",
            "/fr/%2e%2e/%2e%2e/secret.txt",
            "/..%2fsecret.txt",
            "/..%2Fsecret.txt",
            "/..%5csecret.txt",
            "/%252e%252e/secret.txt",
            "/..%252fsecret.txt",
            "/../public-old/secret.html",
            "/%2e%2e/public-old/secret.html",
            "/link.txt",
            "/./index.html",
            "//index.html",
            "/index.html%00",
            "/%ff/",
            "relative",
        ] {
            assert_eq!(resolve(&root, path), Target::NotFound, "{path}");
        }
    }
}
