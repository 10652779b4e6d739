//! A server on a free loopback port for each test, and a small HTTP/1.1
//! client (requests with `Connection: close`, chunked bodies decoded), so
//! the tests speak HTTP as a browser does without another HTTP crate.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;

use serde_json::Value;
use twistor_server::{serve_blocking, ServeOptions};

/// A running server.
pub struct Server {
    pub addr: SocketAddr,
}

impl Server {
    /// Starts a server with `workers` job workers, its tables kept beside
    /// the other tests' (`CARGO_TARGET_TMPDIR`).
    pub fn start(workers: usize) -> Server {
        Server::start_with(workers, |_| {})
    }

    /// [`Server::start`], with `adjust` changing the options first.
    pub fn start_with(workers: usize, adjust: impl FnOnce(&mut ServeOptions)) -> Server {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut options = ServeOptions {
            workers,
            queue: 4,
            memory_bytes: 64 << 20,
            job_seconds: 120,
            store: Arc::new(twistor_store::DirStore::new(
                std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-tables"),
            )),
            ..ServeOptions::default()
        };
        adjust(&mut options);
        std::thread::spawn(move || {
            serve_blocking("127.0.0.1:0".parse().unwrap(), options, |addr| {
                tx.send(addr).unwrap()
            })
            .unwrap()
        });
        Server {
            addr: rx.recv().unwrap(),
        }
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

fn request(server: &Server, method: &str, path: &str, body: &str) -> TcpStream {
    let host = format!("Host: {}", server.addr);
    request_with(server, method, path, &[&host], body)
}

/// A request with the given header lines (a `Host` among them, or not).
fn request_with(
    server: &Server,
    method: &str,
    path: &str,
    headers: &[&str],
    body: &str,
) -> TcpStream {
    let mut s = TcpStream::connect(server.addr).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    write!(
        s,
        "{head}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    // A refused body may close the connection before it is all sent.
    let _ = s.write_all(body.as_bytes());
    s
}

/// Reads a whole response: its status and its body (chunks joined).
fn response(s: TcpStream) -> (u16, String) {
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    let status: u16 = line.split(' ').nth(1).unwrap().parse().unwrap();
    let mut chunked = false;
    let mut length = None;
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        let l = line.trim_end().to_ascii_lowercase();
        if l.is_empty() {
            break;
        }
        if l == "transfer-encoding: chunked" {
            chunked = true;
        }
        if let Some(n) = l.strip_prefix("content-length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            line.clear();
            if r.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            let size = usize::from_str_radix(line.trim(), 16).unwrap_or(0);
            if size == 0 {
                break;
            }
            let mut chunk = vec![0; size + 2];
            r.read_exact(&mut chunk).unwrap();
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = length {
        body.resize(n, 0);
        r.read_exact(&mut body).unwrap();
    } else {
        let _ = r.read_to_end(&mut body);
    }
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// POST, the body as text.
pub fn post_raw(server: &Server, path: &str, body: &str) -> (u16, String) {
    response(request(server, "POST", path, body))
}

/// POST, the body as JSON (`Null` when it is not JSON).
pub fn post(server: &Server, path: &str, body: &str) -> (u16, Value) {
    let (status, text) = post_raw(server, path, body);
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// POST with the given header lines instead of the usual `Host`.
pub fn post_with(server: &Server, path: &str, headers: &[&str], body: &str) -> (u16, Value) {
    let (status, text) = response(request_with(server, "POST", path, headers, body));
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// GET, the body as JSON.
pub fn get(server: &Server, path: &str) -> (u16, Value) {
    let (status, text) = response(request(server, "GET", path, ""));
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// POSTs, reads the first line of the streamed body, and hangs up.
pub fn post_first_line(server: &Server, path: &str, body: &str) -> String {
    let s = request(server, "POST", path, body);
    let mut r = BufReader::new(s);
    let mut line = String::new();
    // Headers, then the first chunk's size, then its first line.
    loop {
        line.clear();
        r.read_line(&mut line).unwrap();
        if line.trim_end().is_empty() {
            break;
        }
    }
    line.clear();
    r.read_line(&mut line).unwrap();
    line.clear();
    r.read_line(&mut line).unwrap();
    line.trim().to_string()
    // The reader, and with it the connection, is dropped here.
}

/// This process's resident memory, in KiB.
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
