//! What the TLS tests stand between folio and the server with: a
//! [`Sniffer`] that sees whether each connection asked for TLS and got it,
//! a [`TlsFront`] that speaks TLS with a certificate of the test's own
//! [`Authority`] (or refuses TLS) and passes the session on in the clear,
//! and the test server's own certificate.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::rustls;

use super::Database;
use super::proxy::Listening;

/// A client's first message when it asks for TLS: length 8, code 80877103.
const SSL_REQUEST: [u8; 8] = [0, 0, 0, 8, 4, 210, 22, 47];

/// How a connection began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Began {
    /// The client sent its startup message in the clear.
    InTheClear,
    /// The client asked for TLS, and the server answered `S`.
    Tls,
    /// The client asked for TLS, and the server answered `N`.
    TlsRefused,
}

/// Passes every byte through, and notes how each connection began.
pub(crate) struct Sniffer {
    listening: Listening,
    began: Arc<Mutex<Vec<Began>>>,
}

impl Sniffer {
    pub(crate) fn start(upstream: SocketAddr) -> Sniffer {
        let began = Arc::new(Mutex::new(Vec::new()));
        let noted = Arc::clone(&began);
        let listening = Listening::start(move |client| sniff(client, upstream, Arc::clone(&noted)));
        Sniffer { listening, began }
    }

    pub(crate) fn port(&self) -> u16 {
        self.listening.port
    }

    /// How every connection so far began.
    pub(crate) fn began(&self) -> Vec<Began> {
        self.began.lock().expect("no panic while noting").clone()
    }
}

async fn sniff(mut client: TcpStream, upstream: SocketAddr, began: Arc<Mutex<Vec<Began>>>) {
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    let mut first = [0u8; 8];
    if client.read_exact(&mut first).await.is_err() || server.write_all(&first).await.is_err() {
        return;
    }
    let how = match first == SSL_REQUEST {
        false => Began::InTheClear,
        true => {
            let mut answer = [0u8; 1];
            if server.read_exact(&mut answer).await.is_err()
                || client.write_all(&answer).await.is_err()
            {
                return;
            }
            match &answer {
                b"S" => Began::Tls,
                _ => Began::TlsRefused,
            }
        }
    };
    began.lock().expect("no panic while noting").push(how);
    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
}

/// A certificate authority made for one test, and the files folio reads.
pub(crate) struct Authority {
    issuer: rcgen::Issuer<'static, rcgen::KeyPair>,
    /// Its own certificate and key, to serve as a server's by mistake.
    own: (rustls::pki_types::CertificateDer<'static>, Vec<u8>),
    /// Its certificate, as a PEM file.
    pub pem: PathBuf,
    /// Holds `pem`, until the authority is dropped.
    _folder: tempfile::TempDir,
}

impl Authority {
    pub(crate) fn new(name: &str) -> Authority {
        let key = rcgen::KeyPair::generate().expect("a key");
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, name);
        let certificate = params.self_signed(&key).expect("a self-signed CA");
        let own = (certificate.der().clone(), key.serialize_der());
        let folder = tempfile::tempdir().expect("a temporary folder");
        let pem = folder.path().join(format!("{name}.pem"));
        std::fs::write(&pem, certificate.pem()).expect("the CA's file is written");
        Authority {
            issuer: rcgen::Issuer::new(params, key),
            own,
            pem,
            _folder: folder,
        }
    }

    /// A server configuration with a certificate this authority signed
    /// for `names` (host names or IP addresses).
    pub(crate) fn server(&self, names: &[&str]) -> rustls::ServerConfig {
        self.server_until(names, 2100)
    }

    /// The same, with a certificate that expires as `year` begins.
    pub(crate) fn server_until(&self, names: &[&str], year: i32) -> rustls::ServerConfig {
        let key = rcgen::KeyPair::generate().expect("a key");
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut params = rcgen::CertificateParams::new(names).expect("params");
        params.not_before = rcgen::date_time_ymd(2000, 1, 1);
        params.not_after = rcgen::date_time_ymd(year, 1, 1);
        let certificate = params.signed_by(&key, &self.issuer).expect("signed");
        serving(certificate.der().clone(), key.serialize_der())
    }

    /// A server that shows the authority's own certificate as its own.
    pub(crate) fn server_with_its_own_certificate(&self) -> rustls::ServerConfig {
        serving(self.own.0.clone(), self.own.1.clone())
    }
}

/// A server configuration that shows `certificate`, with `key` (DER).
fn serving(
    certificate: rustls::pki_types::CertificateDer<'static>,
    key: Vec<u8>,
) -> rustls::ServerConfig {
    let key = rustls::pki_types::PrivateKeyDer::try_from(key).expect("a key");
    rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(vec![certificate], key)
        .expect("a server configuration")
}

/// The front of a server: TLS with its own certificate (or, without one,
/// an `N` to every request for TLS), and the session passed on to the
/// server in the clear.
pub(crate) struct TlsFront {
    listening: Listening,
    protocols: Arc<Mutex<Vec<Option<Vec<u8>>>>>,
}

impl TlsFront {
    /// With `config`, it offers the application protocol `postgresql`, as
    /// a PostgreSQL 17 server does.
    pub(crate) fn start(upstream: SocketAddr, config: Option<rustls::ServerConfig>) -> TlsFront {
        let acceptor = config.map(|mut config| {
            config.alpn_protocols = vec![b"postgresql".to_vec()];
            tokio_rustls::TlsAcceptor::from(Arc::new(config))
        });
        let protocols = Arc::new(Mutex::new(Vec::new()));
        let noted = Arc::clone(&protocols);
        let listening = Listening::start(move |client| {
            front(client, upstream, acceptor.clone(), Arc::clone(&noted))
        });
        TlsFront {
            listening,
            protocols,
        }
    }

    pub(crate) fn port(&self) -> u16 {
        self.listening.port
    }

    /// The application protocol each TLS session agreed on.
    pub(crate) fn protocols(&self) -> Vec<Option<Vec<u8>>> {
        self.protocols
            .lock()
            .expect("no panic while noting")
            .clone()
    }
}

async fn front(
    mut client: TcpStream,
    upstream: SocketAddr,
    acceptor: Option<tokio_rustls::TlsAcceptor>,
    protocols: Arc<Mutex<Vec<Option<Vec<u8>>>>>,
) {
    let mut first = [0u8; 8];
    if client.read_exact(&mut first).await.is_err() {
        return;
    }
    let Ok(mut server) = TcpStream::connect(upstream).await else {
        return;
    };
    match (first == SSL_REQUEST, acceptor) {
        (true, Some(acceptor)) => {
            if client.write_all(b"S").await.is_err() {
                return;
            }
            let Ok(mut client) = acceptor.accept(client).await else {
                return;
            };
            let protocol = client.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
            protocols
                .lock()
                .expect("no panic while noting")
                .push(protocol);
            let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
        }
        (true, None) => {
            if client.write_all(b"N").await.is_ok() {
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            }
        }
        (false, _) => {
            if server.write_all(&first).await.is_ok() {
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            }
        }
    }
}

/// The file of the test server's own certificate. Debian's clusters use
/// the machine's self-signed "snakeoil" one, which is its own authority.
/// Without TLS on the server, the tests that need it fail saying why.
pub(crate) fn server_certificate(db: &Database) -> PathBuf {
    let mut client = db.client();
    let ssl: String = client.query_one("SHOW ssl", &[]).expect("SHOW ssl").get(0);
    assert_eq!(
        ssl, "on",
        "the test server does not speak TLS. Debian's pg_createcluster turns it on when the \
         ssl-cert package has made the machine's snakeoil certificate: `apt-get install ssl-cert` \
         (postgresql-common depends on it), or set ssl = on in your server's postgresql.conf"
    );
    let file: String = client
        .query_one("SHOW ssl_cert_file", &[])
        .expect("SHOW ssl_cert_file")
        .get(0);
    let file = PathBuf::from(file);
    assert!(
        file.is_absolute() && file.exists(),
        "the test server's certificate {} is not a file this test can read",
        file.display()
    );
    file
}
