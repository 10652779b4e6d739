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
) -> Result<Built, String> {
    let deadline = Instant::now() + timeout;
    let listener = TcpListener::bind(&addresses[me])
        .map_err(|e| format!("cannot listen on {}: {e}", addresses[me]))?;
    listener.set_nonblocking(true).map_err(|e| e.to_string())?;
    let mut sockets: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();
    for (j, address) in addresses.iter().enumerate().take(me) {
        let mut told = false;
        let stream = loop {
            match TcpStream::connect(address) {
                Ok(s) => break s,
                Err(e) if Instant::now() >= deadline => {
                    return Err(format!("process {j} at {address} did not answer: {e}"))
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
            .map_err(|e| format!("process {j} at {address}: {e}"))?;
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
                    .map_err(|e| format!("a connection to {}: {e}", addresses[me]))?;
                let j = u64::from_be_bytes(id) as usize;
                if j <= me || j >= addresses.len() || sockets[j].is_some() {
                    return Err(format!(
                        "{}: a connection from a process numbered {j}, which should not connect here",
                        addresses[me]
                    ));
                }
                sockets[j] = Some(stream);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    let missing = (me + 1..addresses.len()).find(|&j| sockets[j].is_none());
                    return Err(format!(
                        "process {} did not connect to {} in {} s",
                        missing.unwrap_or(me + 1),
                        addresses[me],
                        timeout.as_secs()
                    ));
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
            Err(e) => return Err(format!("{}: {e}", addresses[me])),
        }
    }
    let hooks = Hooks::default();
    let local =
        ProcessBuilder::new_typed_vector(workers, hooks.refill.clone(), hooks.spill.clone());
    let (tcp, guard) = initialize_networking_from_sockets(local, sockets, me, workers, hooks)
        .map_err(|e| format!("could not start the network threads: {e}"))?;
    Ok((
        tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
    ))
}
