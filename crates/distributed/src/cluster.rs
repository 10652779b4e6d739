//! Joining the processes of a cluster: one TCP connection between each
//! pair, made here (quietly, with a deadline) and handed to timely.
//!
//! Timely can make these connections itself, but it prints on standard
//! output while it waits and retries for ever; a command whose output is
//! its answer cannot have either. The handshake is timely's own: process
//! `i` connects to every process before it and sends its number (8 bytes,
//! big-endian), and accepts a connection from every process after it.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};

use crate::DistributedEvent;

/// Why this process could not join the cluster. The socket error, where
/// there is one, is the source (its kind says whether an address was in
/// use, refused or unreachable).
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// This process's own address could not be listened on.
    #[error("cannot listen on {address}")]
    Listen {
        /// The address.
        address: String,
        /// What the socket said.
        #[source]
        source: std::io::Error,
    },
    /// A process before this one never accepted a connection.
    #[error("process {process} at {address} did not answer")]
    NoAnswer {
        /// Its number.
        process: usize,
        /// Its address.
        address: String,
        /// The last connection error.
        #[source]
        source: std::io::Error,
    },
    /// The connection to a process before this one failed as this one
    /// introduced itself.
    #[error("the connection to process {process} at {address} failed")]
    Handshake {
        /// The other process's number.
        process: usize,
        /// Its address.
        address: String,
        /// What the socket said.
        #[source]
        source: std::io::Error,
    },
    /// A connection from a process after this one failed before it said
    /// which it is.
    #[error("a connection to {address} failed before the process introduced itself")]
    Introduction {
        /// This process's address.
        address: String,
        /// What the socket said.
        #[source]
        source: std::io::Error,
    },
    /// A connection from a process that should not connect here.
    #[error(
        "{address}: a connection from a process numbered {process}, which should not connect here"
    )]
    Stranger {
        /// This process's address.
        address: String,
        /// The number the other end gave.
        process: usize,
    },
    /// A process after this one never connected.
    #[error("process {process} did not connect to {address} in {seconds} s")]
    Timeout {
        /// The first process missing.
        process: usize,
        /// This process's address.
        address: String,
        /// The deadline.
        seconds: u64,
    },
    /// Timely's network threads could not start.
    #[error("could not start the network threads")]
    Network {
        /// What timely said.
        #[source]
        source: std::io::Error,
    },
}

/// How often a process retries a connection or looks for one.
const POLL: Duration = Duration::from_millis(20);

type Built = (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>);

/// Connects this process (`me`) to the others and builds timely's
/// allocators for `workers` threads.
pub(crate) fn connect(
    addresses: &[String],
    me: usize,
    workers: usize,
    timeout: Duration,
    progress: &(dyn Fn(&DistributedEvent) + Send + Sync),
) -> Result<Built, ConnectError> {
    let deadline = Instant::now() + timeout;
    let listen = |source| ConnectError::Listen {
        address: addresses[me].clone(),
        source,
    };
    let listener = TcpListener::bind(&addresses[me]).map_err(listen)?;
    listener.set_nonblocking(true).map_err(listen)?;
    let mut sockets: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();
    for (j, address) in addresses.iter().enumerate().take(me) {
        let mut told = false;
        let stream = loop {
            match TcpStream::connect(address) {
                Ok(s) => break s,
                Err(source) if Instant::now() >= deadline => {
                    return Err(ConnectError::NoAnswer {
                        process: j,
                        address: address.clone(),
                        source,
                    })
                }
                Err(_) => {
                    if !told {
                        progress(&DistributedEvent::Waiting {
                            process: j,
                            address: address.clone(),
                        });
                        told = true;
                    }
                    std::thread::sleep(POLL);
                }
            }
        };
        let mut stream = stream;
        stream
            .set_nodelay(true)
            .and_then(|()| stream.write_all(&(me as u64).to_be_bytes()))
            .map_err(|source| ConnectError::Handshake {
                process: j,
                address: address.clone(),
                source,
            })?;
        sockets[j] = Some(stream);
    }
    let mut told = false;
    while sockets[me + 1..].iter().any(Option::is_none) {
        match listener.accept() {
            Ok((mut stream, _)) => {
                let mut id = [0u8; 8];
                stream
                    .set_nonblocking(false)
                    .and_then(|()| stream.set_read_timeout(Some(timeout)))
                    .and_then(|()| stream.read_exact(&mut id))
                    .and_then(|()| stream.set_read_timeout(None))
                    .and_then(|()| stream.set_nodelay(true))
                    .map_err(|source| ConnectError::Introduction {
                        address: addresses[me].clone(),
                        source,
                    })?;
                let j = u64::from_be_bytes(id) as usize;
                if j <= me || j >= addresses.len() || sockets[j].is_some() {
                    return Err(ConnectError::Stranger {
                        address: addresses[me].clone(),
                        process: j,
                    });
                }
                sockets[j] = Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing = (me + 1..addresses.len()).find(|&j| sockets[j].is_none());
                    return Err(ConnectError::Timeout {
                        process: missing.unwrap_or(me + 1),
                        address: addresses[me].clone(),
                        seconds: timeout.as_secs(),
                    });
                }
                if !told {
                    if let Some(j) = (me + 1..addresses.len()).find(|&j| sockets[j].is_none()) {
                        progress(&DistributedEvent::Waiting {
                            process: j,
                            address: addresses[j].clone(),
                        });
                    }
                    told = true;
                }
                std::thread::sleep(POLL);
            }
            Err(source) => return Err(listen(source)),
        }
    }
    let hooks = Hooks::default();
    let local =
        ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), hooks.spill.clone());
    let (tcp, guard) = initialize_networking_from_sockets(local, sockets, me, workers, hooks)
        .map_err(|source| ConnectError::Network { source })?;
    Ok((
        tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
    ))
}
