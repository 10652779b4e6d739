//! `twistor gods --workers N`: God's algorithm sharded over timely
//! dataflow workers, in one process or several (`--processes`).

use std::sync::Arc;

use serde_json::json;
use twistor_core::Puzzle;
use twistor_distributed::{DistributedEvent, DistributedOptions, Processes, ShardStore};
use twistor_search::gods::{CheckpointChecksum, NeighbourIndex};
use twistor_search::MoveSet;
use twistor_store::DirShardStore;

use super::gods::GodsArgs;
use crate::error::{CliError, CliResult};

/// The first port of the default addresses, timely's own default.
const FIRST_PORT: usize = 2101;

/// Runs the sharded engine.
pub(super) fn run(args: &GodsArgs, puzzle: &Puzzle, moves: &MoveSet, workers: usize) -> CliResult {
    if workers == 0 {
        return Err(CliError::input("--workers: at least 1"));
    }
    let processes = match args.processes.unwrap_or(1) {
        0 => return Err(CliError::input("--processes: at least 1")),
        1 if args.hosts.is_none() => Processes::One,
        n => {
            let process = args.process.ok_or_else(|| {
                CliError::input("--processes needs --process (this process's number, from 0)")
            })?;
            let addresses = match &args.hosts {
                Some(path) => read_hosts(path)?,
                None => (0..n)
                    .map(|i| format!("127.0.0.1:{}", FIRST_PORT + i))
                    .collect(),
            };
            if addresses.len() != n {
                return Err(CliError::input(format!(
                    "--hosts lists {} addresses for --processes {n}",
                    addresses.len()
                )));
            }
            if process >= n {
                return Err(CliError::input(format!(
                    "--process {process}: the processes are numbered 0 to {}",
                    n - 1
                )));
            }
            Processes::Cluster { process, addresses }
        }
    };
    if args.resume && args.checkpoint.is_none() {
        return Err(CliError::input("--resume needs --checkpoint DIR"));
    }
    if let Some(dir) = &args.checkpoint {
        if dir.is_file() {
            return Err(CliError::input(format!(
                "--checkpoint {}: with --workers this is a directory of shard files, and a file is there",
                dir.display()
            )));
        }
    }
    let index = NeighbourIndex::new(puzzle, moves).map_err(CliError::input)?;
    let options = DistributedOptions {
        workers,
        processes,
        memory_limit: crate::machine::exact_memory(args.memory),
        resume: args.resume,
        fingerprint: fingerprint(puzzle, moves),
        ..DistributedOptions::default()
    };
    let store = args.checkpoint.as_ref().map(|d| {
        let store = DirShardStore::new(d);
        store.remove_stale_temporaries();
        Arc::new(store) as Arc<dyn ShardStore>
    });
    let started = std::time::Instant::now();
    let progress = Arc::new(move |e: &DistributedEvent| {
        match e {
        DistributedEvent::Plan {
            shards,
            shard_positions,
            memory,
        } => note!(
            "{shards} shards of {shard_positions} positions; this process needs {} MB",
            memory.div_ceil(1 << 20)
        ),
        DistributedEvent::Resumed { depth } => note!("resuming after depth {depth}"),
        DistributedEvent::Waiting { process, address } => {
            note!("waiting for process {process} at {address}")
        }
        DistributedEvent::DepthFinished {
            depth,
            positions,
            total,
            seconds,
            exchanged_bytes,
        } => note!(
            "depth {depth}: {positions} positions, {total} in all, {:.2} s ({:.1} M/s), {:.1} MB exchanged ({:.1} bytes a position); {:.1} s elapsed",
            seconds,
            *positions as f64 / seconds.max(1e-9) / 1e6,
            *exchanged_bytes as f64 / 1e6,
            *exchanged_bytes as f64 / (*positions).max(1) as f64,
            started.elapsed().as_secs_f64()
        ),
    }
    });
    if matches!(options.processes, Processes::Cluster { .. }) {
        quiet_lost_peers();
    }
    let report = twistor_distributed::enumerate(Arc::new(index), &options, store, progress)
        .map_err(|e| match e {
            twistor_distributed::DistributedError::NotEnoughMemory { .. } => CliError::input(
                format!("{e} (raise it with -M, or add workers in other processes)"),
            ),
            twistor_distributed::DistributedError::PeerLost => CliError::failure(format!(
                "{e}; start every process again with --resume to continue from the last checkpoint"
            )),
            twistor_distributed::DistributedError::NoWorkers
            | twistor_distributed::DistributedError::NoSuchProcess { .. }
            | twistor_distributed::DistributedError::ResumeWithoutStore
            | twistor_distributed::DistributedError::TooFewWorkers { .. }
            | twistor_distributed::DistributedError::NoCheckpoint { .. }
            | twistor_distributed::DistributedError::BadCheckpoint { .. } => CliError::input(e),
            _ => CliError::failure(crate::error::with_causes(&e)),
        })?;
    let total: u64 = report.counts.iter().sum();
    let diameter = report.counts.len() - 1;
    if args.json {
        outln!(
            "{}",
            json!({
                "distribution": report.counts,
                "total": total,
                "antipodes": {"count": report.counts[diameter], "first": []},
                "engine": "sharded",
                "shards": report.shards,
                "exchanged_bytes": report.exchanged_bytes,
            })
        );
        return Ok(());
    }
    outln!("{:>5} {:>16}", "depth", "positions");
    for (d, c) in report.counts.iter().enumerate() {
        outln!("{d:>5} {c:>16}");
    }
    outln!("{:>5} {:>16}", "total", total);
    outln!(
        "antipodes: {} at distance {diameter}",
        report.counts[diameter]
    );
    Ok(())
}

/// The addresses of a hosts file: `host:port` a line; blank lines and
/// `#` comments skipped.
fn read_hosts(path: &std::path::Path) -> Result<Vec<String>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::input(format!("--hosts {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let port_ok = line
            .rsplit_once(':')
            .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if !port_ok {
            return Err(CliError::input(format!(
                "{}:{}: expected host:port, found `{line}`",
                path.display(),
                i + 1
            )));
        }
        out.push(line.to_string());
    }
    Ok(out)
}

/// Identifies the puzzle and moves in shard checkpoints.
fn fingerprint(puzzle: &Puzzle, moves: &MoveSet) -> u64 {
    let mut sum = CheckpointChecksum::new(puzzle.name());
    for &b in puzzle.start().as_bytes() {
        sum.word(b as u64);
    }
    for m in moves.moves() {
        sum.word(u64::MAX);
        for &b in m.transformation.as_bytes() {
            sum.word(b as u64);
        }
    }
    sum.value()
}

/// When another process of a run dies, timely's network thread here
/// panics, and its workers and destructors panic after it (sometimes
/// aborting). The first such panic ends this process at once with the
/// reason and exit 1: every finished depth is already in the checkpoint
/// files, written atomically.
fn quiet_lost_peers() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        let timely = info.location().is_some_and(|l| l.file().contains("timely"));
        if timely || message.contains("timely communication error") {
            eprintln!(
                "twistor: another process of the run stopped answering ({message}); start every process again with --resume to continue from the last checkpoint"
            );
            std::process::exit(1);
        }
        default(info);
    }));
}
