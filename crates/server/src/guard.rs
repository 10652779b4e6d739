//! What keeps the server standing whoever calls it: a bounded number of
//! connections, each closed when it has been idle too long, and requests
//! only from the server's own page.
//!
//! The server binds the loopback address, but a loopback server is still
//! reachable from any web page the user opens: a page whose name an
//! attacker makes resolve to 127.0.0.1 (*DNS rebinding*) sends requests
//! the browser considers same-origin, with its own name in `Host`. So a
//! request is served only when its `Host` is an IP address, `localhost`
//! or a name the server was told to allow, and when it carries an
//! `Origin` (browsers send one with every POST and cross-site request),
//! only when that origin is the server itself (`http://` + the `Host`).
//! Scripts (`curl`) send no `Origin` and are served.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::{Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

use crate::api::ApiError;

/// A listener that holds at most a number of connections at once (more
/// wait in the system's backlog) and closes any that neither reads nor
/// writes for the idle time.
pub struct Connections {
    listener: TcpListener,
    permits: Arc<Semaphore>,
    idle: Duration,
}

impl Connections {
    /// `most` connections at once, each closed after `idle` without traffic.
    pub fn new(listener: TcpListener, most: usize, idle: Duration) -> Connections {
        Connections {
            listener,
            permits: Arc::new(Semaphore::new(most.max(1))),
            idle,
        }
    }
}

impl axum::serve::Listener for Connections {
    type Io = Connection;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Connection, SocketAddr) {
        loop {
            // The semaphore is never closed: acquiring fails only then.
            let Ok(permit) = Arc::clone(&self.permits).acquire_owned().await else {
                continue;
            };
            match self.listener.accept().await {
                Ok((stream, addr)) => {
                    let _ = stream.set_nodelay(true);
                    return (Connection::new(stream, permit, self.idle), addr);
                }
                // Out of descriptors, or a connection reset before it was
                // accepted: wait a little rather than spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

/// An accepted connection: its place among the connections is given back
/// when it is dropped, and reading or writing fails with `TimedOut` once
/// it has made no progress for the idle time (hyper then closes it).
pub struct Connection {
    stream: TcpStream,
    _permit: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl Connection {
    fn new(stream: TcpStream, permit: OwnedSemaphorePermit, idle: Duration) -> Connection {
        Connection {
            stream,
            _permit: permit,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    /// What came of an I/O poll: progress pushes the deadline back; no
    /// progress past the deadline is an error.
    fn watch<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        match poll {
            Poll::Ready(result) => {
                let idle = self.idle;
                self.deadline.as_mut().reset(Instant::now() + idle);
                Poll::Ready(result)
            }
            Poll::Pending => match self.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the connection was idle too long",
                ))),
                Poll::Pending => Poll::Pending,
            },
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_read(cx, buf);
        this.watch(cx, poll)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        this.watch(cx, poll)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_flush(cx);
        this.watch(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The names besides IP addresses and `localhost` a request's `Host` may
/// give.
#[derive(Clone, Debug, Default)]
pub struct AllowedHosts(pub Vec<String>);

impl AllowedHosts {
    /// Whether `host` (a `Host` header: a name or address, maybe a port)
    /// names this server.
    fn allows(&self, host: &str) -> bool {
        let name = match host.strip_prefix('[') {
            // An IPv6 literal: `[::1]:7333`.
            Some(rest) => match rest.split_once(']') {
                Some((addr, _)) => return addr.parse::<IpAddr>().is_ok(),
                None => return false,
            },
            None => match host.rsplit_once(':') {
                Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
                _ => host,
            },
        };
        name.parse::<IpAddr>().is_ok()
            || name.eq_ignore_ascii_case("localhost")
            || self.0.iter().any(|a| a.eq_ignore_ascii_case(name))
    }
}

/// Refuses (403) a request whose `Host` is not this server's or whose
/// `Origin` is another site.
pub async fn same_origin(
    State(allowed): State<Arc<AllowedHosts>>,
    request: Request,
    next: Next,
) -> Response {
    // Read before the await: a reference to the request (whose body is
    // not `Sync`) must not be held across it.
    let (host, origin) = {
        let header = |name| {
            (request.headers().get(name)).map(|v| v.to_str().unwrap_or("").trim().to_string())
        };
        (header(HOST), header(ORIGIN))
    };
    let forbidden = |message: String| ApiError::forbidden(message).into_response();
    let Some(host) = host else {
        return forbidden("a request needs a Host header".into());
    };
    if !allowed.allows(&host) {
        return forbidden(format!(
            "Host {host:?} is not this server's name (an IP address or localhost; \
             twistor serve --allow-host NAME adds one)"
        ));
    }
    if let Some(origin) = origin {
        if !origin.eq_ignore_ascii_case(&format!("http://{host}")) {
            return forbidden(format!(
                "requests from {origin:?} are refused: only this server's own page may send them"
            ));
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_addresses_localhost_or_allowed_names() {
        let allowed = AllowedHosts(vec!["cube.lan".into()]);
        for ok in [
            "127.0.0.1:7333",
            "127.0.0.1",
            "[::1]:7333",
            "localhost:80",
            "LOCALHOST",
            "192.168.1.20:8080",
            "cube.lan:7333",
        ] {
            assert!(allowed.allows(ok), "{ok}");
        }
        for refused in [
            "evil.example:7333",
            "127.0.0.1.evil.example",
            "localhost.evil.example:7333",
            "[::1",
            "",
        ] {
            assert!(!allowed.allows(refused), "{refused}");
        }
    }
}
