//! Which hosts a preview answers: the defence against DNS rebinding.
//!
//! A page on `evil.example` whose name is made to resolve to 127.0.0.1
//! after it loaded is, to the browser, still the origin `evil.example`: it
//! may read whatever that name now answers, the preview included. The one
//! thing it cannot change is the `Host` its requests carry, so a request is
//! answered only when it names a host no one else controls: `localhost` and
//! the names under it, an IP address, or a name the user allowed.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The hosts a preview answers, beside those it always does.
#[derive(Debug, Clone, Default)]
pub(super) struct AllowedHosts {
    /// Lowercase, without a port or a final dot.
    names: Vec<String>,
}

/// The host of a `Host` header, its port left out.
#[derive(Debug, PartialEq, Eq)]
enum Host {
    Ip(IpAddr),
    /// Lowercase, without its final dot.
    Name(String),
}

impl AllowedHosts {
    /// Also answers `name` (`mybox.local`), with or without a port. A name
    /// a `Host` header cannot carry is never matched.
    pub(super) fn allow(&mut self, name: &str) {
        if let Some(Host::Name(name)) = parse(name) {
            self.names.push(name);
        }
    }

    /// Whether a request whose `Host` header (or absolute URL's authority)
    /// is `host` may be answered.
    pub(super) fn allows(&self, host: &str) -> bool {
        match parse(host) {
            // An address is resolved by no one: a page cannot rebind it, so
            // it is safe whichever it is, and those who `--bind 0.0.0.0`
            // reach the preview by the machine's address without naming it.
            Some(Host::Ip(_)) => true,
            // Browsers resolve `localhost` and every name under it to
            // loopback themselves (RFC 6761), asking no DNS server.
            Some(Host::Name(name)) if name == "localhost" || name.ends_with(".localhost") => true,
            Some(Host::Name(name)) => self.names.contains(&name),
            None => false,
        }
    }

    /// The name of `host` as `--allow-host` would take it, when it is one
    /// (a refusal says what to pass).
    pub(super) fn name_of(host: &str) -> Option<String> {
        match parse(host) {
            Some(Host::Name(name)) => Some(name),
            _ => None,
        }
    }
}

/// The host of a `Host` value (`name`, `name:port`, `1.2.3.4:port`,
/// `[::1]:port`), or `None` when it is not one a browser sends.
fn parse(value: &str) -> Option<Host> {
    let (host, port) = match value.strip_prefix('[') {
        Some(bracketed) => {
            let (inside, rest) = bracketed.split_once(']')?;
            let address: Ipv6Addr = inside.parse().ok()?;
            let port_valid = rest.is_empty() || rest.strip_prefix(':').is_some_and(is_port);
            return port_valid.then_some(Host::Ip(IpAddr::V6(address)));
        }
        None => match value.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (value, None),
        },
    };
    if port.is_some_and(|port| !is_port(port)) {
        return None;
    }
    if let Ok(address) = host.parse::<Ipv4Addr>() {
        return Some(Host::Ip(IpAddr::V4(address)));
    }
    is_host_name(host)
        .then(|| Host::Name(host.strip_suffix('.').unwrap_or(host).to_ascii_lowercase()))
}

/// Whether `name` (a final dot allowed, no port) is a host name as a
/// browser sends one. Browsers send names in their ASCII form (punycode):
/// anything else (`@`, `%`, a space) is no host a tab would name.
pub(super) fn is_host_name(name: &str) -> bool {
    name.strip_suffix('.')
        .unwrap_or(name)
        .split('.')
        .all(|label| {
            !label.is_empty()
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

fn is_port(port: &str) -> bool {
    (1..=5).contains(&port.len()) && port.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowing(names: &[&str]) -> AllowedHosts {
        let mut hosts = AllowedHosts::default();
        for name in names {
            hosts.allow(name);
        }
        hosts
    }

    #[test]
    fn loopback_names_and_addresses_are_answered_with_or_without_a_port() {
        let hosts = AllowedHosts::default();
        for host in [
            "localhost",
            "localhost:1111",
            "LocalHost:1111",
            "localhost.",
            "blog.localhost:8080",
            "127.0.0.1",
            "127.0.0.1:1111",
            "[::1]",
            "[::1]:1111",
            "0.0.0.0:1111",
            "192.168.1.20:1111",
            "[fe80::1]:1111",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
    }

    #[test]
    fn other_names_are_refused_unless_allowed() {
        let hosts = AllowedHosts::default();
        for host in [
            "evil.example",
            "evil.example:1111",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "evillocalhost",
            "mybox.local",
        ] {
            assert!(!hosts.allows(host), "{host}");
        }
        let hosts = allowing(&["MyBox.local", "preview.example:8080"]);
        for host in [
            "mybox.local",
            "MYBOX.LOCAL:1111",
            "mybox.local.",
            "preview.example",
            "preview.example:1111",
        ] {
            assert!(hosts.allows(host), "{host}");
        }
        for host in ["evil.example", "sub.mybox.local", "mybox.localx"] {
            assert!(!hosts.allows(host), "{host}");
        }
    }

    #[test]
    fn malformed_hosts_are_refused() {
        let hosts = allowing(&["mybox"]);
        for host in [
            "",
            ":1111",
            "localhost:",
            "localhost:port",
            "localhost:123456",
            "localhost:1:2",
            "::1",
            "[::1",
            "[::1]x",
            "[::1]:",
            "[localhost]",
            "user@localhost",
            "local host",
            "localhost..",
            ".localhost",
            "mybox/x",
            "mybox%00",
        ] {
            assert!(!hosts.allows(host), "{host:?}");
        }
        // A name `--allow-host` cannot match is not kept.
        assert!(allowing(&["", "a b", "[::1]"]).names.is_empty());
    }

    #[test]
    fn a_refusal_names_what_to_allow_only_for_a_name() {
        assert_eq!(
            AllowedHosts::name_of("Evil.Example:1111").as_deref(),
            Some("evil.example")
        );
        assert_eq!(AllowedHosts::name_of("10.0.0.1:1111"), None);
        assert_eq!(AllowedHosts::name_of("evil example"), None);
    }
}
