//! A TCP proxy between the client under test and the PostgreSQL server
//! that breaks one answer of the server on purpose: lost, replaced by an
//! error, or never sent.
//!
//! The unit it counts is a *reply*: the server's messages up to and
//! including a ReadyForQuery (`Z`), the point at which the client knows its
//! request is answered. Startup ends with one, a simple query (however many
//! statements it holds) with one, and each Sync of the extended protocol
//! with one. Replies are numbered from 1 over every connection through the
//! proxy, so a fault at reply N means the same moment of a test however
//! many times the client reconnects before it.
//!
//! The client's side is copied through as it is; only the server's side is
//! read as messages. That is all a client with `sslmode=disable` needs:
//! there is no SSLRequest whose one-byte answer would not be a message.

use std::future::Future;
use std::io;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{ReadHalf, WriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

/// What the proxy does to the server's replies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Forward everything.
    None,
    /// At reply N the server has answered in full (the statement was
    /// applied and, outside a transaction, committed), but both sockets of
    /// that connection are closed without forwarding any of the reply: the
    /// client loses the acknowledgement while it waits for it.
    DropAt(usize),
    /// Reply N is replaced by an ErrorResponse of severity ERROR with this
    /// SQLSTATE and message, then a ReadyForQuery (idle). The connection
    /// goes on working.
    ErrorAt {
        reply: usize,
        code: &'static str,
        message: &'static str,
    },
    /// Reply N is never forwarded, nor anything after it on that
    /// connection, and both sockets stay open: only the client's own
    /// timeout ends its wait.
    StallAt(usize),
}

/// A proxy listening on loopback; dropping it closes every connection.
pub(crate) struct Proxy {
    listening: Listening,
    shared: Arc<Shared>,
}

struct Shared {
    upstream: SocketAddr,
    fault: Fault,
    replies: AtomicUsize,
    fired: AtomicBool,
}

impl Proxy {
    /// Starts a proxy to `upstream` injecting `fault`.
    pub(crate) fn start(upstream: SocketAddr, fault: Fault) -> Proxy {
        let shared = Arc::new(Shared {
            upstream,
            fault,
            replies: AtomicUsize::new(0),
            fired: AtomicBool::new(false),
        });
        let serving = Arc::clone(&shared);
        let listening = Listening::start(move |client| connection(client, Arc::clone(&serving)));
        Proxy { listening, shared }
    }

    /// The port it listens on, of 127.0.0.1.
    pub(crate) fn port(&self) -> u16 {
        self.listening.port
    }

    /// The replies that went through, or were faulted, so far, over all
    /// connections.
    pub(crate) fn replies(&self) -> usize {
        self.shared.replies.load(Ordering::SeqCst)
    }

    /// Whether the fault fired.
    pub(crate) fn fired(&self) -> bool {
        self.shared.fired.load(Ordering::SeqCst)
    }
}

/// A port of 127.0.0.1 whose connections are served, each by its own
/// task, on a thread of its own; dropping it closes every connection.
pub(crate) struct Listening {
    pub port: u16,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Listening {
    pub(crate) fn start<Serve, Served>(serve: Serve) -> Listening
    where
        Serve: Fn(TcpStream) -> Served + Send + 'static,
        Served: Future<Output = ()> + Send + 'static,
    {
        // Bound here rather than in the thread so that the port is known,
        // and connections are queued, before `start` returns.
        let listener = std::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
            .expect("the proxy binds a port of 127.0.0.1");
        let port = listener.local_addr().expect("a bound address").port();
        listener
            .set_nonblocking(true)
            .expect("the proxy's listener is made non-blocking");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("the proxy's runtime starts");
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(format!("pg-proxy-{port}"))
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = match TcpListener::from_std(listener) {
                        Ok(listener) => listener,
                        Err(e) => {
                            eprintln!("pg proxy on port {port}: {e}");
                            return;
                        }
                    };
                    tokio::select! {
                        _ = stopped => {}
                        () = accept(listener, serve) => {}
                    }
                });
                // Dropping the runtime drops every connection's task, and
                // with them their sockets.
                drop(runtime);
            })
            .expect("the proxy's thread starts");
        Listening {
            port,
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            // A panic of the proxy's thread must not turn a failing test's
            // unwinding into an abort.
            let _ = thread.join();
        }
    }
}

async fn accept<Serve, Served>(listener: TcpListener, serve: Serve)
where
    Serve: Fn(TcpStream) -> Served,
    Served: Future<Output = ()> + Send + 'static,
{
    loop {
        match listener.accept().await {
            Ok((client, _)) => {
                tokio::spawn(serve(client));
            }
            // Out of descriptors, or a connection reset before it was
            // accepted: the next one may do, but not in a busy loop.
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
}

/// One client's connection, until either end leaves or the fault ends it.
/// Its errors end it alone.
async fn connection(mut client: TcpStream, shared: Arc<Shared>) {
    let Ok(mut server) = TcpStream::connect(shared.upstream).await else {
        return;
    };
    // Replies are forwarded in one write each; Nagle would only delay
    // the client's small messages.
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (mut client_read, mut client_write) = client.split();
    let (mut server_read, mut server_write) = server.split();
    tokio::select! {
        _ = tokio::io::copy(&mut client_read, &mut server_write) => {}
        _ = replies(&mut server_read, &mut client_write, &shared) => {}
    }
}

/// Copies the server's messages to the client, a reply at a time, and
/// applies the fault at its reply.
async fn replies(
    server: &mut ReadHalf<'_>,
    client: &mut WriteHalf<'_>,
    shared: &Shared,
) -> io::Result<()> {
    // Bytes read but not yet a whole message.
    let mut input: Vec<u8> = Vec::with_capacity(16 * 1024);
    // The whole messages of the reply in progress, held back so that a
    // fault at its `Z` can still keep all of it from the client.
    let mut held: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        let read = server.read(&mut chunk).await?;
        if read == 0 {
            // A server that ends a connection (a FATAL error, a shutdown)
            // sends no `Z` first: what it said must still reach the client.
            held.extend_from_slice(&input);
            client.write_all(&held).await?;
            return Ok(());
        }
        input.extend_from_slice(&chunk[..read]);
        let mut start = 0;
        while let Some(len) = message_len(&input[start..])? {
            let kind = input[start];
            held.extend_from_slice(&input[start..start + len]);
            start += len;
            match kind {
                // The server waits for the client here, before any `Z`: an
                // authentication request, or the start of a COPY FROM STDIN
                // (or of a replication stream). Holding these back would
                // hang both ends.
                b'R' | b'G' | b'W' => {
                    client.write_all(&held).await?;
                    held.clear();
                }
                b'Z' => {
                    let n = shared.replies.fetch_add(1, Ordering::SeqCst) + 1;
                    // `fired` is set before the client can see the fault's
                    // effect, so that a test that saw it also sees `fired()`.
                    match shared.fault {
                        Fault::DropAt(at) if at == n => {
                            shared.fired.store(true, Ordering::SeqCst);
                            return Ok(());
                        }
                        Fault::ErrorAt {
                            reply,
                            code,
                            message,
                        } if reply == n => {
                            shared.fired.store(true, Ordering::SeqCst);
                            held.clear();
                            client.write_all(&error_reply(code, message)).await?;
                        }
                        Fault::StallAt(at) if at == n => {
                            shared.fired.store(true, Ordering::SeqCst);
                            return stall(server).await;
                        }
                        _ => {
                            client.write_all(&held).await?;
                            held.clear();
                        }
                    }
                }
                _ => {}
            }
        }
        input.drain(..start);
    }
}

/// The length of the message `input` starts with, type byte included, once
/// all of it is there.
fn message_len(input: &[u8]) -> io::Result<Option<usize>> {
    let Some(header) = input.get(..5) else {
        return Ok(None);
    };
    let declared = i32::from_be_bytes([header[1], header[2], header[3], header[4]]);
    // The length counts itself: below 4, the stream is not the protocol
    // this proxy reads, and guessing where the next message starts would
    // only forward garbage.
    let body = usize::try_from(declared)
        .ok()
        .filter(|&len| len >= 4)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "server message {:?} declares length {declared}",
                    char::from(header[0])
                ),
            )
        })?;
    Ok((input.len() > body).then_some(body + 1))
}

/// ErrorResponse then ReadyForQuery, as a server that failed the request
/// outside a transaction would send them.
fn error_reply(code: &str, message: &str) -> Vec<u8> {
    let mut fields = Vec::new();
    for (field, value) in [
        (b'S', "ERROR"),
        (b'V', "ERROR"),
        (b'C', code),
        (b'M', message),
    ] {
        fields.push(field);
        fields.extend_from_slice(value.as_bytes());
        fields.push(0);
    }
    fields.push(0);
    let mut reply = Vec::with_capacity(fields.len() + 11);
    reply.push(b'E');
    reply.extend_from_slice(&(fields.len() as i32 + 4).to_be_bytes());
    reply.extend_from_slice(&fields);
    reply.extend_from_slice(&[b'Z', 0, 0, 0, 5, b'I']);
    reply
}

/// Keeps the connection open and the client unanswered. The server's
/// further output is read and dropped so that it never blocks on a full
/// socket; when it closes, the client still hears nothing: the connection
/// ends when the client leaves (the other half of `connection`).
async fn stall(server: &mut ReadHalf<'_>) -> io::Result<()> {
    let mut sink = vec![0u8; 16 * 1024];
    while let Ok(read) = server.read(&mut sink).await {
        if read == 0 {
            break;
        }
    }
    std::future::pending().await
}
