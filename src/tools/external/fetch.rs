//! Asking for links over HTTP: many hosts at once, a few links per host,
//! each within the timeout.
//!
//! Each host's links are dealt into [`PER_HOST`] lanes, each lane asked in
//! turn by one of [`AT_ONCE`] threads: so no host has more than
//! [`PER_HOST`] requests open, whatever the number of threads. A host's
//! name is looked up once, before its first link, which is how a host
//! that does not exist is told from a host that did not answer; a host
//! that answers 429 Too Many Requests is asked nothing more in this check.
//!
//! Each link is a GET, never a HEAD (servers answer HEAD 403, 404 or 405
//! where GET works, and crates.io answers a request that does not accept
//! HTML 404), of which only the head is read: the connection is closed
//! without reading the body.

use std::collections::BTreeMap;
use std::net::ToSocketAddrs;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, mpsc};
use std::time::Duration;

use url::{Host as UrlHost, Url};

use crate::model::error::LinkAnswer;

/// Requests open at once to one host: a few, as a browser opening a page
/// would, never a burst that a host's rate limit answers with 429.
const PER_HOST: usize = 2;

/// Requests open at once in all: each waits on the network, not on a core.
const AT_ONCE: usize = 16;

/// Who asks: a host that refuses programs can be told apart in its logs.
const USER_AGENT: &str = concat!("folio/", env!("CARGO_PKG_VERSION"), " (link check)");

/// What a browser following a link accepts.
const ACCEPT: &str = "text/html,application/xhtml+xml,*/*;q=0.8";

/// Asks for each of `urls` (serialized [`Url`]s, without fragments); its
/// answer by URL: `Ok` for a success, after redirects.
pub(super) fn ask_all(
    urls: &[&str],
    timeout: Duration,
) -> BTreeMap<String, Result<(), LinkAnswer>> {
    let mut answers = BTreeMap::new();
    let mut by_host: BTreeMap<(String, u16), Vec<Url>> = BTreeMap::new();
    for url in urls {
        match Url::parse(url) {
            Ok(parsed) => {
                let host = parsed.host_str().unwrap_or_default().to_owned();
                let port = parsed.port_or_known_default().unwrap_or_default();
                by_host.entry((host, port)).or_default().push(parsed);
            }
            Err(e) => {
                answers.insert(url.to_string(), Err(LinkAnswer::Invalid(e.to_string())));
            }
        }
    }
    let mut lanes: Vec<(&Host, Vec<Url>)> = Vec::new();
    let hosts: Vec<(Host, Vec<Url>)> = by_host
        .into_values()
        .map(|urls| (Host::of(&urls[0]), urls))
        .collect();
    for (host, urls) in &hosts {
        for lane in 0..PER_HOST.min(urls.len()) {
            let dealt = urls.iter().skip(lane).step_by(PER_HOST).cloned().collect();
            lanes.push((host, dealt));
        }
    }
    // The longest lanes first, so that the check does not end waiting on
    // one host's long lane begun last.
    lanes.sort_by_key(|(_, urls)| std::cmp::Reverse(urls.len()));
    let agent = agent(timeout);
    let next = AtomicUsize::new(0);
    let found = Mutex::new(answers);
    std::thread::scope(|scope| {
        for _ in 0..AT_ONCE.min(lanes.len()) {
            scope.spawn(|| {
                while let Some((host, urls)) = lanes.get(next.fetch_add(1, Ordering::Relaxed)) {
                    for url in urls {
                        let answer = host.ask(&agent, url, timeout);
                        let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                        found.insert(url.to_string(), answer);
                    }
                }
            });
        }
    });
    found.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// One host the check asks, shared by its lanes.
struct Host {
    /// Its name to look up; `None` for an IP address.
    name: Option<String>,
    port: u16,
    /// The look-up of its name, made by the first lane to ask.
    looked_up: OnceLock<Result<(), LinkAnswer>>,
    /// Whether it answered 429 Too Many Requests.
    limited: AtomicBool,
}

impl Host {
    fn of(url: &Url) -> Host {
        Host {
            name: match url.host() {
                Some(UrlHost::Domain(name)) => Some(name.to_owned()),
                _ => None,
            },
            port: url.port_or_known_default().unwrap_or_default(),
            looked_up: OnceLock::new(),
            limited: AtomicBool::new(false),
        }
    }

    /// What `url`, a link to this host, answers.
    fn ask(&self, agent: &ureq::Agent, url: &Url, timeout: Duration) -> Result<(), LinkAnswer> {
        if self.limited.load(Ordering::Relaxed) {
            return Err(LinkAnswer::NotAsked);
        }
        if let Some(name) = &self.name {
            self.looked_up
                .get_or_init(|| look_up(name, self.port, timeout))
                .clone()?;
        }
        let answer = get(agent, url, timeout);
        if answer == Err(LinkAnswer::Status(429)) {
            self.limited.store(true, Ordering::Relaxed);
        }
        answer
    }
}

/// The client: statuses as answers rather than errors, the timeout on the
/// whole exchange (redirects included), and no proxy, since the library
/// reads no environment. (ureq reads its proxy variables when it makes
/// its default settings, which this replaces.)
fn agent(timeout: Duration) -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .user_agent(USER_AGENT)
        .proxy(None)
        .build()
        .into()
}

/// A GET of `url`, of which only the status is read.
fn get(agent: &ureq::Agent, url: &Url, timeout: Duration) -> Result<(), LinkAnswer> {
    match agent.get(url.as_str()).header("accept", ACCEPT).call() {
        Ok(response) if response.status().is_success() => Ok(()),
        Ok(response) => Err(LinkAnswer::Status(response.status().as_u16())),
        Err(ureq::Error::Timeout(_)) => Err(timed_out(timeout)),
        Err(ureq::Error::HostNotFound) => Err(LinkAnswer::NoSuchHost),
        Err(e) => Err(LinkAnswer::Failed(e.to_string())),
    }
}

fn timed_out(timeout: Duration) -> LinkAnswer {
    LinkAnswer::TimedOut {
        after_ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
    }
}

/// Whether `name` resolves, within `timeout`. The system's resolver has no
/// timeout a program can set: one that does not answer is left to finish
/// in its own thread.
fn look_up(name: &str, port: u16, timeout: Duration) -> Result<(), LinkAnswer> {
    let (sender, receiver) = mpsc::channel();
    let name = name.to_owned();
    std::thread::spawn(move || {
        let found = (name.as_str(), port)
            .to_socket_addrs()
            .map(|mut addresses| addresses.next().is_some());
        // The check may have stopped waiting: nobody to tell.
        let _ = sender.send(found);
    });
    match receiver.recv_timeout(timeout) {
        Ok(Ok(true)) => Ok(()),
        Ok(Ok(false)) => Err(LinkAnswer::NoSuchHost),
        Ok(Err(e)) => Err(failed_look_up(&e)),
        Err(_) => Err(timed_out(timeout)),
    }
}

/// The system resolver's failures reach Rust as its text alone
/// ("failed to lookup address information: Name or service not known"):
/// these are its words for a name that does not exist, in glibc (also "No
/// address associated with hostname"), musl, macOS and Windows ("No such
/// host is known"). Any other failure (no network, a resolver that says
/// to try again) may mend by itself.
fn failed_look_up(e: &std::io::Error) -> LinkAnswer {
    const NO_SUCH_NAME: &[&str] = &[
        "not known",
        "no such host",
        "no address associated",
        "does not resolve",
    ];
    let text = e.to_string();
    let lower = text.to_ascii_lowercase();
    if NO_SUCH_NAME.iter().any(|words| lower.contains(words)) {
        LinkAnswer::NoSuchHost
    } else {
        LinkAnswer::LookupFailed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_does_not_exist_is_told_from_a_resolver_that_failed() {
        let failed = |text: &str| failed_look_up(&std::io::Error::other(text.to_owned()));
        for gone in [
            "failed to lookup address information: Name or service not known",
            "failed to lookup address information: No address associated with hostname",
            "failed to lookup address information: Name does not resolve",
            "failed to lookup address information: nodename nor servname provided, or not known",
            "No such host is known. (os error 11001)",
        ] {
            assert_eq!(failed(gone), LinkAnswer::NoSuchHost, "{gone}");
        }
        let again = "failed to lookup address information: Temporary failure in name resolution";
        assert_eq!(failed(again), LinkAnswer::LookupFailed(again.into()));
    }
}
