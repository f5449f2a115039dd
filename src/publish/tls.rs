//! TLS to the database, read from the URL the way libpq reads it:
//! `sslmode` (`disable`, `prefer`, `require`, `verify-ca`, `verify-full`)
//! and `sslrootcert` (a PEM file of the certificates to trust, or
//! `system`). tokio-postgres knows only the first three modes and no
//! `sslrootcert`, so folio takes both out of the URL before tokio-postgres
//! reads the rest, and hands it a rustls connector that checks what the
//! mode asks for.
//!
//! Where folio differs from libpq: with no `sslrootcert`, `verify-full`
//! trusts Mozilla's root certificates (built into folio, as
//! `sslrootcert=system` would the system's), since a library reads no
//! home folder for `~/.postgresql/root.crt`; and a relative `sslrootcert`
//! is read from the site's root.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres::config::{Host, SslMode};
use tokio_postgres_rustls::MakeRustlsConnect;

/// What `sslmode` asks of the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Disable,
    /// TLS when the server offers it, unchecked: libpq's default.
    Prefer,
    /// TLS or no connection, unchecked.
    Require,
    /// TLS with a certificate signed by a trusted authority, for any name.
    VerifyCa,
    /// TLS with a trusted certificate for the host folio connects to.
    VerifyFull,
}

const MODES: [(&str, Mode); 5] = [
    ("disable", Mode::Disable),
    ("prefer", Mode::Prefer),
    ("require", Mode::Require),
    ("verify-ca", Mode::VerifyCa),
    ("verify-full", Mode::VerifyFull),
];

/// Where the trusted certificates come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Roots {
    /// Mozilla's, built into folio.
    Builtin,
    File(PathBuf),
}

/// The TLS settings of a database URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tls {
    pub mode: Mode,
    /// `None` when nothing is checked.
    pub roots: Option<Roots>,
}

/// A URL's TLS settings that folio cannot honour, in words for the user.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub message: String,
    pub help: String,
}

/// Splits the TLS settings off `database` (a URL or `key=value` words),
/// returning the rest for tokio-postgres to read. `defaults` (libpq's
/// `sslmode`/`sslrootcert` keys, from PGSSLMODE and PGSSLROOTCERT) apply
/// where `database` names none.
pub(crate) fn split(
    database: &str,
    defaults: &[(String, String)],
) -> Result<(String, Tls), Refusal> {
    // tokio-postgres's own test of a URL: anything else is words, even
    // with a `://` in a value.
    let url = ["postgres://", "postgresql://"]
        .iter()
        .any(|scheme| database.starts_with(scheme));
    let (rest, mut settings) = match url {
        true => split_url(database),
        false => split_words(database)?,
    };
    let given: Vec<String> = settings.iter().map(|(key, _)| key.clone()).collect();
    let unset = defaults
        .iter()
        .filter(|(key, _)| !given.contains(key))
        .cloned();
    settings.splice(0..0, unset);
    Ok((rest, tls_of(settings)?))
}

/// The `ssl…` keys of the URL's query, decoded; the rest as written.
fn split_url(url: &str) -> (String, Vec<(String, String)>) {
    // As tokio-postgres reads a URL: everything up to the first `@` is
    // user and password, where a `?` is not a query's start.
    let after_credentials = url.find('@').map_or(0, |at| at + 1);
    let Some(start) = url[after_credentials..].find('?') else {
        return (url.to_owned(), Vec::new());
    };
    let (base, query) = (
        &url[..after_credentials + start],
        &url[after_credentials + start + 1..],
    );
    let decode = |s: &str| {
        percent_encoding::percent_decode_str(s)
            .decode_utf8_lossy()
            .into_owned()
    };
    let mut settings = Vec::new();
    let mut kept = Vec::new();
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(key);
        if is_tls_key(&key) {
            settings.push((key, decode(value)));
        } else {
            kept.push(pair);
        }
    }
    match kept.is_empty() {
        true => (base.to_owned(), settings),
        false => (format!("{base}?{}", kept.join("&")), settings),
    }
}

/// The `ssl…` words of `key=value` settings; the rest written again, each
/// value quoted, in the grammar tokio-postgres reads.
fn split_words(words: &str) -> Result<(String, Vec<(String, String)>), Refusal> {
    let mut settings = Vec::new();
    let mut kept = Vec::new();
    for (key, value) in key_values(words)? {
        if is_tls_key(&key) {
            settings.push((key, value));
        } else {
            let quoted = value.replace('\\', "\\\\").replace('\'', "\\'");
            kept.push(format!("{key}='{quoted}'"));
        }
    }
    Ok((kept.join(" "), settings))
}

/// libpq's `key = value` words: a value is quoted with `'` or runs to
/// the next space, and `\` takes the next character as it is. What libpq
/// refuses (a word without `=`, a quote left open) is refused: read
/// otherwise, it could swallow the words after it, sslmode among them.
fn key_values(words: &str) -> Result<Vec<(String, String)>, Refusal> {
    let malformed = |what: &str| {
        Refusal {
        message: format!("the database's settings are not libpq's `key=value` words: {what}"),
        help: "write each setting as key=value, quoting a value with spaces as key='a value', or write a postgres:// URL".into(),
    }
    };
    let mut pairs = Vec::new();
    let mut chars = words.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| *c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        if key.is_empty() && chars.peek().is_none() {
            return Ok(pairs);
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if key.is_empty() || chars.next_if_eq(&'=').is_none() {
            return Err(malformed("a setting without its `key=`"));
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let quoted = chars.next_if_eq(&'\'').is_some();
        let mut value = String::new();
        let mut closed = !quoted;
        while let Some(c) = chars.next() {
            match c {
                '\\' => value.extend(chars.next()),
                '\'' if quoted => {
                    closed = true;
                    break;
                }
                c if c.is_whitespace() && !quoted => break,
                c => value.push(c),
            }
        }
        if !closed {
            return Err(malformed(&format!("the quote of `{key}` is never closed")));
        }
        pairs.push((key, value));
    }
}

fn is_tls_key(key: &str) -> bool {
    key.starts_with("ssl") && key != "sslnegotiation"
}

fn tls_of(settings: Vec<(String, String)>) -> Result<Tls, Refusal> {
    let mut mode = None;
    let mut root_cert = None;
    for (key, value) in settings {
        match key.as_str() {
            "sslmode" => mode = Some(mode_of(&value)?),
            // As libpq: an empty value is no value.
            "sslrootcert" => root_cert = Some(value).filter(|v| !v.is_empty()),
            "sslcert" | "sslkey" | "sslpassword" | "sslcertmode" => {
                return Err(Refusal {
                    message: format!("`{key}` is not read by folio publish: it checks the server's certificate, but sends no certificate of its own"),
                    help: "log in with a password (PGPASSWORD), and leave sslcert, sslkey and sslpassword out of the URL".into(),
                });
            }
            _ => {
                return Err(Refusal {
                    message: format!(
                        "`{key}` is not read by folio publish, which reads sslmode and sslrootcert of libpq's TLS settings"
                    ),
                    help: format!("leave `{key}` out of the URL"),
                });
            }
        }
    }
    let system = root_cert.as_deref() == Some("system");
    let mode = match mode {
        Some(Mode::VerifyFull) | None if system => Mode::VerifyFull,
        Some(weak) if system => {
            let name = MODES
                .iter()
                .find(|(_, m)| *m == weak)
                .map_or("", |(n, _)| n);
            return Err(Refusal {
                message: format!(
                    "sslrootcert=system trusts any certificate a public authority signed, so it checks the host name too; sslmode={name} would not"
                ),
                help: "leave sslmode out, or write sslmode=verify-full".into(),
            });
        }
        Some(mode) => mode,
        None => Mode::Prefer,
    };
    let roots = match (mode, root_cert) {
        (Mode::Disable | Mode::Prefer, _) | (Mode::Require, None) => None,
        (_, Some(file)) if file != "system" => Some(Roots::File(PathBuf::from(file))),
        (Mode::VerifyCa, _) => {
            return Err(Refusal {
                message: "sslmode=verify-ca needs the certificate of the authority that signed the server's: it trusts that one only".into(),
                help: "add sslrootcert=FILE (a PEM file, as your database provider gives it), or write sslmode=verify-full to trust the public authorities for the server's host name".into(),
            });
        }
        (_, _) => Some(Roots::Builtin),
    };
    // As libpq: `require` with a file of trusted certificates checks the
    // server's against them.
    let mode = match (mode, &roots) {
        (Mode::Require, Some(_)) => Mode::VerifyCa,
        (mode, _) => mode,
    };
    Ok(Tls { mode, roots })
}

fn mode_of(value: &str) -> Result<Mode, Refusal> {
    if let Some((_, mode)) = MODES.iter().find(|(name, _)| *name == value) {
        return Ok(*mode);
    }
    // libpq's `allow` tries the clear first, then TLS; tokio-postgres has
    // no such order, and TLS first asks no less of the server.
    if value == "allow" {
        return Ok(Mode::Prefer);
    }
    let nearest = MODES
        .iter()
        .map(|(name, _)| (strsim::jaro_winkler(name, value), name))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .filter(|(score, _)| *score > 0.8)
        .map_or(String::new(), |(_, name)| {
            format!("did you mean `{name}`? ")
        });
    let names: Vec<&str> = MODES.iter().map(|(name, _)| *name).collect();
    Err(Refusal {
        message: format!("sslmode={value} is not a mode PostgreSQL knows"),
        help: format!("{nearest}write one of {}", names.join(", ")),
    })
}

impl Tls {
    /// The mode tokio-postgres negotiates with at `config`'s hosts:
    /// whether it asks for TLS, and whether it may go on without. As in
    /// libpq, sslmode does not apply to a Unix socket, where PostgreSQL
    /// never speaks TLS.
    fn ssl_mode(&self, config: &tokio_postgres::Config) -> SslMode {
        let hosts = config.get_hosts();
        // A `hostaddr` is reached over TCP, whatever `host` says.
        let all_local = !hosts.is_empty()
            && config.get_hostaddrs().is_empty()
            && hosts.iter().all(|host| !matches!(host, Host::Tcp(_)));
        match self.mode {
            _ if all_local => SslMode::Disable,
            Mode::Disable => SslMode::Disable,
            Mode::Prefer => SslMode::Prefer,
            Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
        }
    }

    /// Sets `config`'s TLS negotiation, and gives the connector that
    /// checks what the mode asks for. `root` is the folder a relative
    /// `sslrootcert` is read from; it is not read when TLS is not used.
    pub(super) fn prepare(
        &self,
        config: &mut tokio_postgres::Config,
        root: &Path,
    ) -> Result<MakeRustlsConnect, Refusal> {
        let ssl_mode = self.ssl_mode(config);
        config.ssl_mode(ssl_mode);
        if ssl_mode == SslMode::Disable {
            return Tls {
                mode: Mode::Disable,
                roots: None,
            }
            .connector(root);
        }
        if config.get_hosts().is_empty() && !config.get_hostaddrs().is_empty() {
            if self.mode == Mode::VerifyFull {
                return Err(Refusal {
                    message: "sslmode=verify-full checks the server's certificate against a host name, and only `hostaddr` is given".into(),
                    help: "add host=NAME, the name the certificate was made for, beside hostaddr".into(),
                });
            }
            // TLS is told a name however little it checks it: the address,
            // as libpq does.
            for address in config.get_hostaddrs().to_vec() {
                config.host(address.to_string());
            }
        }
        for host in config.get_hosts() {
            if let Host::Tcp(name) = host
                && ServerName::try_from(name.as_str()).is_err()
            {
                return Err(Refusal {
                    message: format!("the host `{name}` is neither a DNS name nor an IP address, which TLS needs to name the server"),
                    help: "write the host's DNS name (in ASCII: xn-- for other letters) or its IP address, or sslmode=disable where the network is trusted".into(),
                });
            }
        }
        self.connector(root)
    }

    /// The connector that checks what the mode asks for.
    fn connector(&self, root: &Path) -> Result<MakeRustlsConnect, Refusal> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let algorithms = provider.signature_verification_algorithms;
        let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| Refusal {
                message: format!("TLS cannot be set up: {e}"),
                help: "report this to folio's developers".into(),
            })?;
        // verify-full always has roots (see tls_of); were it ever without,
        // it would check against the built-in ones, never nothing.
        let roots = match (&self.roots, self.mode) {
            (None, Mode::VerifyFull) => Some(&Roots::Builtin),
            (roots, _) => roots.as_ref(),
        };
        let chain = match roots {
            None => None,
            Some(roots) => {
                let store = Arc::new(root_store(roots, root)?);
                let webpki = WebPkiServerVerifier::builder_with_provider(store, provider)
                    .build()
                    .map_err(|e| Refusal {
                        message: format!("the trusted certificates cannot be used: {e}"),
                        help: "give sslrootcert a PEM file of CA certificates".into(),
                    })?;
                Some(webpki)
            }
        };
        let verifier: Arc<dyn ServerCertVerifier> = match (self.mode, chain) {
            (Mode::VerifyFull, Some(webpki)) => webpki,
            (_, chain) => Arc::new(ShortOfName { chain, algorithms }),
        };
        let mut config = builder
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        // What libpq 17 announces, and what a PostgreSQL 17 server requires
        // of a client that starts with TLS (`sslnegotiation=direct`).
        config.alpn_protocols = vec![b"postgresql".to_vec()];
        Ok(MakeRustlsConnect::new(config))
    }
}

fn root_store(roots: &Roots, root: &Path) -> Result<RootCertStore, Refusal> {
    let file = match roots {
        Roots::Builtin => {
            return Ok(RootCertStore {
                roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
            });
        }
        Roots::File(file) => root.join(file),
    };
    let unreadable = |e: &dyn std::fmt::Display| {
        Refusal {
        message: format!("sslrootcert {}: cannot read it: {e}", file.display()),
        help: "name a PEM file of the certificates to trust (a relative path is read from the site's root)".into(),
    }
    };
    let certificates = CertificateDer::pem_file_iter(&file)
        .map_err(|e| unreadable(&e))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| unreadable(&e))?;
    let mut store = RootCertStore::empty();
    let (added, _ignored) = store.add_parsable_certificates(certificates);
    if added == 0 {
        return Err(Refusal {
            message: format!("sslrootcert {}: it holds no certificate folio can read", file.display()),
            help: "give it the PEM file (`-----BEGIN CERTIFICATE-----`) of the authority that signed the server's certificate".into(),
        });
    }
    Ok(store)
}

/// What folio checks short of `verify-full`: with no `chain` (`prefer`,
/// `require`), nothing of the certificate, as libpq: the session is
/// encrypted, but whoever answers is believed; with a `chain`
/// (`verify-ca`), that a trusted authority signed it, for whatever name
/// it was made. The handshake's signatures are checked either way, so the
/// key the server shows is the key it holds.
#[derive(Debug)]
struct ShortOfName {
    chain: Option<Arc<WebPkiServerVerifier>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for ShortOfName {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        // rustls checks the chain, its dates and its use before the name:
        // only a name that does not match is let through.
        let verified =
            chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now);
        match verified {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            verified => verified,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// What to do about a handshake that failed on the server's certificate
/// or on TLS itself: another try would fail the same way.
pub(crate) fn refused_handshake(error: &tokio_postgres::Error) -> Option<String> {
    let mut cause = std::error::Error::source(error);
    while let Some(e) = cause {
        // tokio-postgres's words when the server answers `N` to TLS.
        if e.to_string() == "server does not support TLS" {
            return Some("the server does not offer TLS: have `ssl = on` set in its postgresql.conf, or write sslmode=prefer to go on without it where the network is trusted".into());
        }
        let rustls = e.downcast_ref::<rustls::Error>().or_else(|| {
            e.downcast_ref::<std::io::Error>()
                .and_then(|io| io.get_ref())
                .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        });
        if let Some(rustls) = rustls {
            return Some(match rustls {
                rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer) => "the server's certificate is not signed by an authority folio trusts: give sslrootcert the PEM file of the one that signed it (your database provider publishes it), or write sslmode=require to encrypt without checking who answers".into(),
                rustls::Error::InvalidCertificate(
                    CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
                ) => "the server's certificate is made for another host name: connect to the name it was made for, or write sslmode=verify-ca to check the authority only".into(),
                rustls::Error::InvalidCertificate(CertificateError::Expired | CertificateError::ExpiredContext { .. }) => "the server's certificate has expired (or this machine's clock is wrong): have it renewed".into(),
                rustls::Error::InvalidCertificate(CertificateError::Other(other)) if other.to_string().contains("CaUsedAsEndEntity") => "the server presents a CA certificate as its own (as `openssl req -x509` makes by default), which folio refuses to check a server by: give the server a certificate signed by that CA, or write sslmode=require to encrypt without checking who answers".into(),
                _ => "check the server's TLS settings and the URL's sslmode and sslrootcert".into(),
            });
        }
        cause = e.source();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tls(mode: Mode, roots: Option<Roots>) -> Tls {
        Tls { mode, roots }
    }

    #[test]
    fn a_url_gives_its_ssl_settings_and_keeps_the_rest_as_written() {
        let (rest, settings) =
            split("postgres://ann@db/blog?application_name=a%20b&sslmode=verify-full&sslrootcert=%2Fetc%2Fca.pem&connect_timeout=5", &[])
                .unwrap();
        assert_eq!(
            rest,
            "postgres://ann@db/blog?application_name=a%20b&connect_timeout=5"
        );
        assert_eq!(
            settings,
            tls(Mode::VerifyFull, Some(Roots::File("/etc/ca.pem".into())))
        );
        let (rest, settings) = split("postgresql://db/blog?sslmode=disable", &[]).unwrap();
        assert_eq!(
            (rest.as_str(), settings),
            ("postgresql://db/blog", tls(Mode::Disable, None))
        );
        // A `?` in a password does not start the query.
        let (rest, settings) = split("postgres://ann:a?b@db/blog?sslmode=require", &[]).unwrap();
        assert_eq!(rest, "postgres://ann:a?b@db/blog");
        assert_eq!(settings, tls(Mode::Require, None));
    }

    #[test]
    fn words_give_their_ssl_settings_and_keep_the_rest_quoted() {
        let (rest, settings) = split(
            r"host=db  sslmode = require user='o\'neil' sslrootcert='/a b/ca.pem' dbname=b\ c",
            &[],
        )
        .unwrap();
        assert_eq!(rest, r"host='db' user='o\'neil' dbname='b c'");
        assert_eq!(
            settings,
            tls(Mode::VerifyCa, Some(Roots::File("/a b/ca.pem".into())))
        );
        let config: tokio_postgres::Config = rest.parse().unwrap();
        assert_eq!(config.get_user(), Some("o'neil"));
        assert_eq!(config.get_dbname(), Some("b c"));
        // Words, even with a `://` in a value: their sslmode is read.
        let (_, settings) =
            split("host=db application_name=http://x sslmode=require", &[]).unwrap();
        assert_eq!(settings, tls(Mode::Require, None));
    }

    #[test]
    fn words_libpq_refuses_are_refused() {
        for (words, expected) in [
            (
                "host=db application_name='x sslmode=verify-full",
                "the quote of `application_name` is never closed",
            ),
            (
                "host=db password sslmode=require",
                "a setting without its `key=`",
            ),
            ("=db", "a setting without its `key=`"),
        ] {
            let refusal = split(words, &[]).unwrap_err();
            assert!(
                refusal.message.contains(expected),
                "{words}: {}",
                refusal.message
            );
        }
    }

    #[test]
    fn the_environment_s_settings_apply_where_the_url_names_none() {
        let defaults = [
            ("sslmode".to_owned(), "verify-full".to_owned()),
            ("sslrootcert".to_owned(), "/etc/ca.pem".to_owned()),
        ];
        let (_, settings) = split("postgres://db/b", &defaults).unwrap();
        assert_eq!(
            settings,
            tls(Mode::VerifyFull, Some(Roots::File("/etc/ca.pem".into())))
        );
        let (_, settings) = split("postgres://db/b?sslmode=disable", &defaults).unwrap();
        assert_eq!(settings, tls(Mode::Disable, None));
    }

    #[test]
    fn modes_follow_libpq() {
        let mode = |url: &str| split(url, &[]).map(|(_, tls)| tls);
        assert_eq!(mode("postgres://db/b"), Ok(tls(Mode::Prefer, None)));
        assert_eq!(
            mode("postgres://db/b?sslmode=require"),
            Ok(tls(Mode::Require, None))
        );
        assert_eq!(
            mode("postgres://db/b?sslmode=verify-full"),
            Ok(tls(Mode::VerifyFull, Some(Roots::Builtin)))
        );
        assert_eq!(
            mode("postgres://db/b?sslrootcert=system"),
            Ok(tls(Mode::VerifyFull, Some(Roots::Builtin)))
        );
        assert_eq!(
            mode("postgres://db/b?sslrootcert=ca.pem&sslmode=prefer"),
            Ok(tls(Mode::Prefer, None))
        );
        let refused = |url: &str| mode(url).unwrap_err();
        assert!(
            refused("postgres://db/b?sslmode=verify-ca")
                .help
                .contains("sslrootcert=FILE")
        );
        assert!(
            refused("postgres://db/b?sslmode=require&sslrootcert=system")
                .message
                .contains("sslmode=require")
        );
        assert!(
            refused("postgres://db/b?sslcert=me.pem")
                .message
                .contains("`sslcert`")
        );
        assert!(
            refused("postgres://db/b?sslcrl=x.pem")
                .message
                .contains("reads sslmode and sslrootcert")
        );
        assert_eq!(
            mode("postgres://db/b?sslmode=allow"),
            Ok(tls(Mode::Prefer, None))
        );
        // As libpq: an empty sslrootcert is none.
        assert_eq!(
            mode("postgres://db/b?sslmode=require&sslrootcert="),
            Ok(tls(Mode::Require, None))
        );
        let typo = refused("postgres://db/b?sslmode=verify_full");
        assert!(
            typo.help.starts_with("did you mean `verify-full`?"),
            "{}",
            typo.help
        );
        // Not a TLS setting: tokio-postgres reads it.
        assert_eq!(
            mode("postgres://db/b?sslnegotiation=direct&sslmode=require"),
            Ok(tls(Mode::Require, None))
        );
    }

    #[test]
    fn a_unix_socket_is_never_asked_for_tls() {
        let (rest, required) = split("host=/run/postgresql sslmode=verify-full", &[]).unwrap();
        let config: tokio_postgres::Config = rest.parse().unwrap();
        assert_eq!(required.ssl_mode(&config), SslMode::Disable);
        for tcp in [
            "host=db.example sslmode=verify-full",
            "host=/run/postgresql hostaddr=10.0.0.1 sslmode=verify-full",
        ] {
            let (rest, required) = split(tcp, &[]).unwrap();
            let config: tokio_postgres::Config = rest.parse().unwrap();
            assert_eq!(required.ssl_mode(&config), SslMode::Require, "{tcp}");
        }
    }

    #[test]
    fn a_root_file_must_hold_a_certificate() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("empty.pem"), "not a certificate\n").unwrap();
        let verify = |file: &str| tls(Mode::VerifyCa, Some(Roots::File(file.into())));
        let refusal = verify("empty.pem").connector(folder.path()).err().unwrap();
        assert!(
            refusal
                .message
                .contains("empty.pem: it holds no certificate"),
            "{}",
            refusal.message
        );
        let refusal = verify("missing.pem")
            .connector(folder.path())
            .err()
            .unwrap();
        assert!(
            refusal.message.contains("missing.pem: cannot read it"),
            "{}",
            refusal.message
        );
        assert!(
            tls(Mode::VerifyFull, Some(Roots::Builtin))
                .connector(folder.path())
                .is_ok()
        );
    }
}
