//! God's algorithm beyond one machine: a breadth-first search whose bit
//! arrays are sharded over the workers of a [timely dataflow] computation.
//!
//! One process holds two bits a position; some puzzles have more positions
//! than that leaves room for, and some take longer than one machine should
//! spend. This crate splits the perfect index of the positions (from
//! [`NeighbourIndex`]) into one contiguous shard per worker. Every depth,
//! each worker expands the frontier positions of its shard, marks the
//! neighbours it owns itself, and sends the others' through timely's
//! exchange channels to their owners, who mark them; one more exchange
//! sums what every worker found, and the search stops at the first depth
//! that finds nothing. The workers are threads of one process or of
//! several processes joined by timely's own cluster configuration (one
//! address a process), on one machine or many; nothing of the message
//! layer is written here.
//!
//! After each depth every worker can save its shard (seen and frontier
//! bits, and the counts so far) through a [`ShardStore`] it is given; a
//! run started again with `resume` agrees on the newest depth every shard
//! has saved and continues from there, to the same distribution. Workers
//! keep their last two checkpoints, because one worker may save a depth
//! before another is stopped before saving it.
//!
//! The engine does no I/O: checkpoints go through the store, progress
//! through a callback.
//!
//! # Example
//!
//! ```
//! use std::sync::Arc;
//! use twistor_distributed::{enumerate, DistributedOptions};
//! use twistor_search::gods::NeighbourIndex;
//! use twistor_search::{Metric, MoveSet};
//!
//! // The 2x2x2 turned by U, F and R (one corner stays put).
//! let puzzle = twistor_geometry::build("2x2x2", &Default::default())?.into_puzzle();
//! let names = ["U", "F", "R"].map(String::from);
//! let moves = MoveSet::named(&puzzle, &names, Metric::Htm)?;
//! let index = Arc::new(NeighbourIndex::new(&puzzle, &moves)?);
//! let options = DistributedOptions { workers: 2, ..DistributedOptions::default() };
//! let report = enumerate(index, &options, None, Arc::new(|_| {}))?;
//! assert_eq!(report.counts.iter().sum::<u64>(), 3_674_160);
//! assert_eq!(report.counts.len() - 1, 11);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [timely dataflow]: https://docs.rs/timely
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod cluster;

pub use cluster::ConnectError;
mod shard;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use timely::dataflow::channels::pact::Pipeline;
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Exchange, Input, Inspect, Operator, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::worker::Worker;
use twistor_search::gods::NeighbourIndex;

use shard::{Shard, ShardHeader};

/// Where the shards' checkpoints are kept: one blob a shard and depth.
pub trait ShardStore: Send + Sync {
    /// Keeps `bytes` as the checkpoint of shard `shard` of `shards` after
    /// `depth`, atomically (a reader sees the old state or the new one).
    fn save(&self, shard: usize, shards: usize, depth: usize, bytes: &[u8]) -> std::io::Result<()>;
    /// The checkpoint of that shard after that depth, if kept.
    fn load(&self, shard: usize, shards: usize, depth: usize) -> std::io::Result<Option<Vec<u8>>>;
    /// The depths after which that shard has a checkpoint.
    fn depths(&self, shard: usize, shards: usize) -> std::io::Result<Vec<usize>>;
    /// Forgets the checkpoint of that shard after that depth.
    fn remove(&self, shard: usize, shards: usize, depth: usize) -> std::io::Result<()>;
}

/// Which processes take part.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Processes {
    /// This process alone.
    #[default]
    One,
    /// Several processes, each started with the same addresses
    /// (`host:port`, one a process, in process order) and its own number.
    Cluster {
        /// This process's number, from 0.
        process: usize,
        /// Every process's address.
        addresses: Vec<String>,
    },
}

/// Options of [`enumerate`].
#[derive(Clone, Debug)]
pub struct DistributedOptions {
    /// Worker threads in each process (at least 1).
    pub workers: usize,
    /// The processes.
    pub processes: Processes,
    /// Most bytes this process may use for its shards and tables.
    pub memory_limit: u64,
    /// Continue from the store's checkpoints instead of starting afresh.
    pub resume: bool,
    /// Identifies the puzzle and moves in checkpoints, so that a shard
    /// saved for another run is refused.
    pub fingerprint: u64,
    /// How long a process waits for the others to start.
    pub connect_timeout: std::time::Duration,
}

impl Default for DistributedOptions {
    fn default() -> DistributedOptions {
        DistributedOptions {
            workers: 1,
            processes: Processes::One,
            memory_limit: 4096 << 20,
            resume: false,
            fingerprint: 0,
            connect_timeout: std::time::Duration::from_secs(120),
        }
    }
}

/// What a run reports while it goes (from the first worker of each process).
#[derive(Clone, Debug)]
pub enum DistributedEvent {
    /// The shards and this process's memory.
    Plan {
        /// Workers in all processes (one shard each).
        shards: usize,
        /// Positions a shard holds (the last may hold fewer).
        shard_positions: u64,
        /// Bytes this process needs.
        memory: u64,
    },
    /// This process waits for another to start or to answer.
    Waiting {
        /// The other process's number.
        process: usize,
        /// Its address.
        address: String,
    },
    /// The run continues after this depth, from checkpoints.
    Resumed {
        /// The depth.
        depth: usize,
    },
    /// A depth is complete.
    DepthFinished {
        /// The depth.
        depth: usize,
        /// Positions at that depth.
        positions: u64,
        /// Positions at that depth or less.
        total: u64,
        /// Seconds the depth took.
        seconds: f64,
        /// Bytes of positions sent from one worker to another during it.
        exchanged_bytes: u64,
    },
}

/// The result of [`enumerate`].
#[derive(Clone, Debug, PartialEq)]
pub struct DistributedReport {
    /// Positions at each distance from the start.
    pub counts: Vec<u64>,
    /// Bytes of positions sent between workers in all (this run only, not
    /// the depths before a resume).
    pub exchanged_bytes: u64,
    /// Workers in all processes.
    pub shards: usize,
}

/// Why a sharded run failed.
#[derive(Debug, thiserror::Error)]
pub enum DistributedError {
    /// The shards do not fit the memory limit.
    #[error("this process needs about {} MB for its shards; the limit is {} MB", .needed >> 20, .limit >> 20)]
    NotEnoughMemory {
        /// Bytes needed.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// No workers were asked for.
    #[error("at least one worker is needed")]
    NoWorkers,
    /// This process's number is not among the cluster's addresses.
    #[error("process {process} is not among the {addresses} addresses")]
    NoSuchProcess {
        /// The number given.
        process: usize,
        /// How many addresses there are.
        addresses: usize,
    },
    /// Resuming was asked for without a store to resume from.
    #[error("resuming needs a checkpoint store")]
    ResumeWithoutStore,
    /// Too few workers for shards that fit 32-bit offsets.
    #[error("{positions} positions make shards of more than 2^32; use at least {workers} workers in all")]
    TooFewWorkers {
        /// Positions to shard.
        positions: u64,
        /// The fewest workers that fit.
        workers: u64,
    },
    /// Timely could not start (it says why only in words).
    #[error("timely could not start: {reason}")]
    Start {
        /// What timely said.
        reason: String,
    },
    /// This process could not join the cluster (an address in use, a
    /// process unreachable).
    #[error("could not join the cluster")]
    Connect(#[from] cluster::ConnectError),
    /// A worker thread failed.
    #[error("a worker failed: {panic}")]
    Worker {
        /// The worker's panic message.
        panic: String,
    },
    /// The store failed.
    #[error("checkpoint of shard {shard}")]
    Store {
        /// The shard.
        shard: usize,
        /// What the store said.
        #[source]
        source: std::io::Error,
    },
    /// A checkpoint does not describe this run's shard.
    #[error("the checkpoint of shard {shard} cannot be used: {why}")]
    BadCheckpoint {
        /// The shard.
        shard: usize,
        /// What is wrong.
        why: String,
    },
    /// Some shard has nothing to resume from.
    #[error("cannot resume: shard {shard} has no checkpoint")]
    NoCheckpoint {
        /// The first shard without one.
        shard: usize,
    },
    /// The connection to another process broke (it was stopped or died).
    #[error("another process of the run stopped answering")]
    PeerLost,
    /// Another worker failed; this one stopped with it.
    #[error("another worker failed")]
    PeerFailed,
}

/// Counts, one a depth from 0, of the positions the index's moves reach
/// from its start, computed by the workers `options` describes; each
/// process calls this with the same index and options except its number.
pub fn enumerate(
    index: Arc<NeighbourIndex>,
    options: &DistributedOptions,
    store: Option<Arc<dyn ShardStore>>,
    progress: Arc<dyn Fn(&DistributedEvent) + Send + Sync>,
) -> Result<DistributedReport, DistributedError> {
    let workers = options.workers;
    if workers == 0 {
        return Err(DistributedError::NoWorkers);
    }
    let processes = match &options.processes {
        Processes::One => 1,
        Processes::Cluster { process, addresses } => {
            if *process >= addresses.len() {
                return Err(DistributedError::NoSuchProcess {
                    process: *process,
                    addresses: addresses.len(),
                });
            }
            addresses.len()
        }
    };
    if options.resume && store.is_none() {
        return Err(DistributedError::ResumeWithoutStore);
    }
    let shards = workers * processes;
    let layout = ShardLayout::new(index.size(), shards);
    if layout.shard_len > 1 << 32 {
        return Err(DistributedError::TooFewWorkers {
            positions: index.size(),
            workers: index.size().div_ceil(1 << 32),
        });
    }
    let memory = Shard::bytes(layout.shard_len) * workers as u64 + index.memory();
    if memory > options.memory_limit {
        return Err(DistributedError::NotEnoughMemory {
            needed: memory,
            limit: options.memory_limit,
        });
    }
    progress(&DistributedEvent::Plan {
        shards,
        shard_positions: layout.shard_len,
        memory,
    });
    let run = Run {
        index,
        layout,
        workers,
        resume: options.resume,
        fingerprint: options.fingerprint,
        store,
        progress,
    };
    let (builders, guard) = match &options.processes {
        Processes::One if workers == 1 => timely::CommunicationConfig::Thread
            .try_build()
            .map_err(|reason| DistributedError::Start { reason })?,
        Processes::One => timely::CommunicationConfig::Process(workers)
            .try_build()
            .map_err(|reason| DistributedError::Start { reason })?,
        Processes::Cluster { process, addresses } => cluster::connect(
            addresses,
            *process,
            workers,
            options.connect_timeout,
            &*run.progress,
        )?,
    };
    let guards = timely::execute::execute_from(
        builders,
        guard,
        timely::WorkerConfig::default(),
        move |worker| run.work(worker),
    )
    .map_err(|reason| DistributedError::Start { reason })?;
    // When another process dies, timely's network threads panic, the
    // workers fail on the poisoned queues, and dropping the guards panics
    // in turn: all of that becomes one error.
    let joined = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()));
    let Ok(results) = joined else {
        return Err(DistributedError::PeerLost);
    };
    let mut report = None;
    let mut failure = None;
    let cluster = matches!(options.processes, Processes::Cluster { .. });
    for result in results {
        match result {
            Ok(Ok(r)) => report = Some(r),
            Ok(Err(DistributedError::PeerFailed)) => {}
            Ok(Err(e)) => failure = failure.or(Some(e)),
            Err(_) if cluster => failure = failure.or(Some(DistributedError::PeerLost)),
            Err(panic) => failure = failure.or(Some(DistributedError::Worker { panic })),
        }
    }
    match (failure, report) {
        (Some(e), _) => Err(e),
        (None, Some(r)) => Ok(r),
        (None, None) => Err(DistributedError::PeerFailed),
    }
}

/// How the index is cut into shards.
#[derive(Clone, Copy, Debug)]
struct ShardLayout {
    size: u64,
    /// Positions a shard owns, a multiple of 64.
    shard_len: u64,
}

impl ShardLayout {
    fn new(size: u64, shards: usize) -> ShardLayout {
        let shard_len = size.div_ceil(shards as u64).div_ceil(64).max(1) * 64;
        ShardLayout { size, shard_len }
    }

    fn range(&self, shard: usize) -> (u64, u64) {
        let lo = (shard as u64 * self.shard_len).min(self.size);
        (lo, (lo + self.shard_len).min(self.size))
    }
}

/// What every worker is given.
struct Run {
    index: Arc<NeighbourIndex>,
    layout: ShardLayout,
    workers: usize,
    resume: bool,
    fingerprint: u64,
    store: Option<Arc<dyn ShardStore>>,
    progress: Arc<dyn Fn(&DistributedEvent) + Send + Sync>,
}

/// Positions sent to one owner: its shard number and their offsets in its
/// shard (4 bytes a position on the wire).
type Marks = (u32, Vec<u32>);

/// Offsets in one message of marks.
const MARKS_A_MESSAGE: usize = 1024;

/// A control message: every worker sends one to every worker.
type Control = [u64; 3];
const NONE: u64 = u64::MAX;

/// Positions a worker expands before sending what it found and letting
/// the other operators run (which bounds the messages in flight).
const EXPAND_WORDS: usize = 1 << 10;

/// One worker's channels.
struct Channels {
    marks: InputHandleVec<u64, Marks>,
    mark_probe: ProbeHandle<u64>,
    queries: InputHandleVec<u64, (u64, u64)>,
    query_probe: ProbeHandle<u64>,
    control: InputHandleVec<u64, Control>,
    control_probe: ProbeHandle<u64>,
    /// Messages with the round (time) they were sent in: a worker that
    /// has finished a round may send the next before this one has read it.
    received: Rc<RefCell<Vec<(u64, Control)>>>,
}

impl Channels {
    /// Sends `msg` to every worker and returns every worker's.
    fn all_send(&mut self, worker: &mut Worker, msg: Control) -> Vec<Control> {
        let round = *self.control.time();
        self.control.send(msg);
        self.control.advance_to(round + 1);
        while self.control_probe.less_than(self.control.time()) {
            worker.step();
        }
        let mut received = self.received.borrow_mut();
        let mine = received
            .iter()
            .filter(|m| m.0 == round)
            .map(|m| m.1)
            .collect();
        received.retain(|m| m.0 != round);
        mine
    }
}

impl Run {
    fn work(&self, worker: &mut Worker) -> Result<DistributedReport, DistributedError> {
        let me = worker.index();
        let peers = worker.peers();
        let shard_len = self.layout.shard_len;
        let (lo, hi) = self.layout.range(me);
        let shard = Rc::new(RefCell::new(Shard::new(lo, hi)));
        let received = Rc::new(RefCell::new(Vec::new()));
        let mut marks = InputHandleVec::new();
        let mut queries = InputHandleVec::new();
        let mut control = InputHandleVec::new();
        let (mark_probe, query_probe, control_probe) = worker.dataflow::<u64, _, _>(|scope| {
            let owner = Rc::clone(&shard);
            let mark_probe = scope
                .input_from(&mut marks)
                .exchange(|batch: &Marks| batch.0 as u64)
                .inspect_core(move |event| {
                    if let Ok((stamp, batches)) = event {
                        let time = stamp.least().copied().unwrap_or_default();
                        let mut s = owner.borrow_mut();
                        let lo = s.lo;
                        for (_, offsets) in batches {
                            s.receive(time, offsets.iter().map(|&o| lo + o as u64));
                        }
                    }
                })
                .probe()
                .0;
            // Backward levels: "is y in your frontier?" goes to y's owner,
            // which answers with x to x's owner, who marks it.
            let asked = Rc::clone(&shard);
            let answered = Rc::clone(&shard);
            let query_probe = scope
                .input_from(&mut queries)
                .exchange(move |q: &(u64, u64)| q.0 / shard_len)
                .unary(Pipeline, "InFrontier", move |_, _| {
                    move |input, output| {
                        input.for_each_stamp(|cap, data| {
                            let s = asked.borrow();
                            let mut session = output.session(&cap);
                            for batch in data {
                                for &(y, x) in batch.iter() {
                                    if s.in_frontier(y) {
                                        session.give(x);
                                    }
                                }
                            }
                        })
                    }
                })
                .container::<Vec<u64>>()
                .exchange(move |x: &u64| x / shard_len)
                .inspect_core(move |event| {
                    if let Ok((stamp, xs)) = event {
                        let time = stamp.least().copied().unwrap_or_default();
                        answered.borrow_mut().receive(time, xs.iter().copied());
                    }
                })
                .probe()
                .0;
            let inbox = Rc::clone(&received);
            let control_probe = scope
                .input_from(&mut control)
                .broadcast()
                .inspect_core(move |event| {
                    if let Ok((stamp, msgs)) = event {
                        let time = stamp.least().copied().unwrap_or_default();
                        inbox.borrow_mut().extend(msgs.iter().map(|&c| (time, c)));
                    }
                })
                .probe()
                .0;
            (mark_probe, query_probe, control_probe)
        });
        let mut ch = Channels {
            marks,
            mark_probe,
            queries,
            query_probe,
            control,
            control_probe,
            received,
        };
        let reporter = me % self.workers == 0;
        let header = |counts: Vec<u64>| ShardHeader {
            fingerprint: self.fingerprint,
            shard: me,
            shards: peers,
            size: self.layout.size,
            counts,
        };

        let mut counts = if self.resume {
            let counts = self.restore(worker, &mut ch, &shard, &header(Vec::new()))?;
            if reporter {
                (self.progress)(&DistributedEvent::Resumed {
                    depth: counts.len() - 1,
                });
            }
            counts
        } else {
            let start = self.index.start();
            let mut s = shard.borrow_mut();
            if s.owns(start) {
                s.start_at(start);
            }
            vec![1]
        };
        let mut save_failed = None;
        if !self.resume {
            save_failed = self.save(&shard.borrow(), &header(counts.clone()), 0).err();
        }

        let mut cursor = self.index.cursor();
        let nm = self.index.moves();
        let mut neighbours = vec![0u64; nm];
        let mut outgoing: Vec<Vec<u32>> = vec![Vec::new(); peers];
        let mut batches: Vec<Marks> = Vec::with_capacity(peers);
        let mut asking: Vec<(u64, u64)> = Vec::with_capacity(EXPAND_WORDS * 64);
        let mut exchanged = 0u64;
        let reachable = self.index.reachable();
        loop {
            let depth = counts.len();
            let started = Instant::now();
            let total: u64 = counts.iter().sum();
            if reachable == Some(total) {
                break;
            }
            // As the single-process engine decides: backward when the
            // unseen positions are fewer than the frontier's.
            let frontier = counts[depth - 1];
            let backward =
                reachable.is_some_and(|r| (r - total) / 2 + (self.layout.size - r) < frontier);
            let words = shard.borrow().frontier.len();
            let mut sent = 0u64;
            for chunk in (0..words).step_by(EXPAND_WORDS) {
                let range = chunk..(chunk + EXPAND_WORDS).min(words);
                {
                    let mut s = shard.borrow_mut();
                    if backward {
                        s.look_back(range, &mut cursor, &mut neighbours, &mut asking);
                    } else {
                        s.expand(
                            range,
                            &mut cursor,
                            &mut neighbours,
                            shard_len,
                            &mut outgoing,
                        );
                    }
                }
                for (owner, offsets) in outgoing.iter_mut().enumerate() {
                    sent += offsets.len() as u64 * 4;
                    // Small messages keep the channels streaming. Copying
                    // them out measured faster than filling messages of
                    // this size in `expand` (1.14 s against 1.30 s, full
                    // 2x2x2 on two workers).
                    for part in offsets.chunks(MARKS_A_MESSAGE) {
                        batches.push((owner as u32, part.to_vec()));
                    }
                    offsets.clear();
                }
                sent += asking.len() as u64 * 16;
                ch.marks.send_batch(&mut batches);
                ch.queries.send_batch(&mut asking);
                batches.clear();
                asking.clear();
                worker.step();
            }
            let next = *ch.marks.time() + 1;
            ch.marks.advance_to(next);
            ch.queries.advance_to(next);
            while ch.mark_probe.less_than(ch.marks.time())
                || ch.query_probe.less_than(ch.queries.time())
            {
                worker.step();
            }
            let found = shard.borrow().found;
            let all = ch.all_send(worker, [found, sent, save_failed.is_some() as u64]);
            if let Some(e) = save_failed.take() {
                return Err(e);
            }
            if all.iter().any(|c| c[2] != 0) {
                return Err(DistributedError::PeerFailed);
            }
            let positions: u64 = all.iter().map(|c| c[0]).sum();
            let bytes: u64 = all.iter().map(|c| c[1]).sum();
            exchanged += bytes;
            if positions == 0 {
                break;
            }
            counts.push(positions);
            shard.borrow_mut().advance();
            if reporter {
                (self.progress)(&DistributedEvent::DepthFinished {
                    depth,
                    positions,
                    total: counts.iter().sum(),
                    seconds: started.elapsed().as_secs_f64(),
                    exchanged_bytes: bytes,
                });
            }
            save_failed = self
                .save(&shard.borrow(), &header(counts.clone()), depth)
                .err();
            // No worker asks about the next depth's frontier before every
            // worker has made it its frontier.
            ch.all_send(worker, [0; 3]);
        }
        Ok(DistributedReport {
            counts,
            exchanged_bytes: exchanged,
            shards: peers,
        })
    }

    /// Saves this worker's shard after `depth` and forgets the one two
    /// depths back (the one before stays: a peer may not have saved this
    /// depth yet when the run stops).
    fn save(
        &self,
        shard: &Shard,
        header: &ShardHeader,
        depth: usize,
    ) -> Result<(), DistributedError> {
        let Some(store) = &self.store else {
            return Ok(());
        };
        let err = |source| DistributedError::Store {
            shard: header.shard,
            source,
        };
        store
            .save(header.shard, header.shards, depth, &shard.encode(header))
            .map_err(err)?;
        if depth >= 2 {
            store
                .remove(header.shard, header.shards, depth - 2)
                .map_err(err)?;
        }
        Ok(())
    }

    /// Agrees with the other workers on the newest depth every shard has
    /// saved, and loads this shard's checkpoint of that depth.
    fn restore(
        &self,
        worker: &mut Worker,
        ch: &mut Channels,
        shard: &RefCell<Shard>,
        expected: &ShardHeader,
    ) -> Result<Vec<u64>, DistributedError> {
        let me = expected.shard;
        let store = self.store.as_ref().ok_or(DistributedError::PeerFailed)?;
        let depths = store.depths(me, expected.shards);
        let newest = match &depths {
            Ok(d) => d.iter().max().map_or(NONE, |&d| d as u64),
            Err(_) => NONE,
        };
        let all = ch.all_send(worker, [newest, me as u64, depths.is_err() as u64]);
        let depths = depths.map_err(|source| DistributedError::Store { shard: me, source })?;
        if let Some(c) = all.iter().filter(|c| c[0] == NONE).min_by_key(|c| c[1]) {
            return Err(if c[2] != 0 {
                DistributedError::PeerFailed
            } else {
                DistributedError::NoCheckpoint {
                    shard: c[1] as usize,
                }
            });
        }
        let depth = all.iter().map(|c| c[0]).min().unwrap_or(0) as usize;
        let (lo, hi) = self.layout.range(me);
        let loaded = if depths.contains(&depth) {
            store
                .load(me, expected.shards, depth)
                .map_err(|source| DistributedError::Store { shard: me, source })
                .and_then(|b| {
                    let b = b.ok_or(DistributedError::NoCheckpoint { shard: me })?;
                    Shard::decode(&b, lo, hi, expected)
                })
                .and_then(|(s, counts)| {
                    if counts.len() == depth + 1 {
                        Ok((s, counts))
                    } else {
                        Err(DistributedError::BadCheckpoint {
                            shard: me,
                            why: format!("it holds {} depths, not {}", counts.len(), depth + 1),
                        })
                    }
                })
        } else {
            Err(DistributedError::BadCheckpoint {
                shard: me,
                why: format!("it has no checkpoint after depth {depth}, which the others agree on"),
            })
        };
        // In place before the last round: a peer that finishes it first
        // starts sending marks for this shard.
        let loaded = loaded.map(|(restored, counts)| {
            *shard.borrow_mut() = restored;
            counts
        });
        let all = ch.all_send(worker, [loaded.is_err() as u64, 0, 0]);
        let counts = loaded?;
        if all.iter().any(|c| c[0] != 0) {
            return Err(DistributedError::PeerFailed);
        }
        Ok(counts)
    }
}
