//! `twistor gods`: God's algorithm — how many positions lie at each
//! distance from the start, the antipodes, and the local maxima.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use twistor_search::gods::{
    self, Engine, GodsControl, GodsError, GodsEvent, GodsMethod, GodsOptions, GodsReport, Storage,
};
use twistor_search::{Metric, MoveSet};
use twistor_store::FileCheckpoint;

use crate::error::{CliError, CliResult};
use crate::moves::listed_move_set;
use crate::puzzle_source::PuzzleSource;

/// How distances are computed.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum MethodArg {
    /// Breadth-first search.
    Bfs,
    /// Store positions up to a depth, then build the deeper ones as products.
    Products,
}

/// Where breadth-first search keeps positions.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum StorageArg {
    /// Bit arrays when the positions can be indexed and fit, else sorted arrays.
    Auto,
    /// Two bits a position over a perfect index.
    Bits,
    /// Sorted arrays of packed positions (reduced by rotations when possible).
    Sorted,
}

/// Arguments of `twistor gods`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  twistor gods 2x2x2.tws --moves U,F,R --local-maxima\n  \
    twistor gods skewb.tws -t 2 --antipodes 5\n  \
    twistor gods pyraminx.tws --checkpoint pyra.ckpt      # kill it, then add --resume\n  \
    twistor gods 2x2x2 --workers 2                        # sharded over timely workers\n  \
    twistor gods 2x2x2 --workers 1 --processes 2 --process 0 --hosts hosts.txt --checkpoint ckpt/\n  \
    twistor gods 2x2x2 --workers 1 --processes 2 --process 1 --hosts hosts.txt --checkpoint ckpt/\n  \
    twistor gods 2x2x2 --moves U,R --subgroup U,R2 --results r.jsonl   # coset by coset\n  \
    twistor gods 3x3x3 --subgroup U,D,R2,L2,F2,B2 --sample 3 -M 8192   # real 3x3x3 cosets (6.6 GB, about a minute each)"
)]
pub struct GodsArgs {
    #[command(flatten)]
    pub(super) source: PuzzleSource,
    /// Use only these moves, comma-separated (`U,F,R`; `R2` keeps only R's half turns).
    #[arg(long, value_name = "A,B,C")]
    pub(super) moves: Option<String>,
    /// Count quarter turns (only the single steps of each move).
    #[arg(long)]
    pub(super) qtm: bool,
    /// Print the first K antipodes with a move sequence reaching each.
    #[arg(long, value_name = "K", default_value_t = 0)]
    antipodes: usize,
    /// Count the local maxima at each distance (no neighbour farther) and
    /// the strong ones (every neighbour closer).
    #[arg(long)]
    local_maxima: bool,
    /// The method.
    #[arg(long, value_enum, default_value = "bfs")]
    method: MethodArg,
    /// With --method products: the depth found breadth-first before the
    /// products (default: where the layers stop growing).
    #[arg(long, value_name = "A")]
    products_depth: Option<usize>,
    /// Where breadth-first search keeps positions.
    #[arg(long, value_enum, default_value = "auto")]
    storage: StorageArg,
    /// Do not reduce by the definition's rotations.
    #[arg(long)]
    no_symmetry: bool,
    /// Worker threads (default: every core).
    #[arg(short = 't', long = "threads", value_name = "N", default_value_t = 0)]
    threads: usize,
    /// Memory limit in megabytes.
    #[arg(
        short = 'M',
        long = "memory",
        value_name = "MB",
        default_value_t = 4096
    )]
    pub(super) memory: u64,
    /// Save the state after every depth to FILE (replaced atomically); with
    /// --workers, a directory of one file a shard and depth.
    #[arg(long, value_name = "FILE")]
    pub(super) checkpoint: Option<PathBuf>,
    /// Shard the search over N timely dataflow workers in this process (the
    /// distributed engine: distributions only).
    #[arg(long, value_name = "N", conflicts_with_all = ["antipodes", "local_maxima", "method", "storage"])]
    pub(super) workers: Option<usize>,
    /// With --workers: the number of processes taking part, each started
    /// with the same --hosts and its own --process.
    #[arg(long, value_name = "N", requires = "workers")]
    pub(super) processes: Option<usize>,
    /// With --processes: this process's number, from 0.
    #[arg(long, value_name = "I", requires = "processes")]
    pub(super) process: Option<usize>,
    /// Enumerate coset by coset: the cosets of the subgroup these moves
    /// generate (`U,R2`), one class under the rotations at a time, merged
    /// into the whole distribution.
    #[arg(long, value_name = "A,B,C", conflicts_with_all = ["workers", "antipodes", "local_maxima", "method", "storage", "checkpoint"])]
    pub(super) subgroup: Option<String>,
    /// With --subgroup: solve only these coset classes (numbers as the
    /// run lists them, comma-separated); on the 3x3x3 with
    /// <U,D,R2,L2,F2,B2>, coset numbers (twist·2048·495 + flip·495 + slice,
    /// in the cube's own frame).
    #[arg(long, value_name = "I,J", requires = "subgroup")]
    pub(super) cosets: Option<String>,
    /// With --subgroup on the 3x3x3 and <U,D,R2,L2,F2,B2>: solve N random
    /// cosets (of 2,217,093,120), drawn with --seed.
    #[arg(
        long,
        value_name = "N",
        requires = "subgroup",
        conflicts_with = "cosets"
    )]
    pub(super) sample: Option<usize>,
    /// With --sample: the seed of the draw.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "sample")]
    pub(super) seed: u64,
    /// With --subgroup on the 3x3x3: enumerate phase-1 solutions to this
    /// length (the counts are exact up to it, upper bounds after); each
    /// more costs about 13 times as much.
    #[arg(long, value_name = "K", requires = "subgroup")]
    pub(super) phase1_depth: Option<usize>,
    /// With --subgroup: append each solved coset to FILE (a JSON line each),
    /// for merging runs made on other machines or days.
    #[arg(long, value_name = "FILE", requires = "subgroup")]
    pub(super) results: Option<PathBuf>,
    /// With --subgroup: solve nothing; merge the cosets in these results
    /// files into the whole distribution (every class must be there).
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "subgroup", conflicts_with_all = ["cosets", "results"])]
    pub(super) merge: Vec<PathBuf>,
    /// With --processes: a file of `host:port` lines, one a process in
    /// process order (default: 127.0.0.1 ports 2101, 2102, ...).
    #[arg(long, value_name = "FILE", requires = "processes")]
    pub(super) hosts: Option<PathBuf>,
    /// Continue the run saved in the --checkpoint file.
    #[arg(long, requires = "checkpoint")]
    pub(super) resume: bool,
    /// Print JSON: {"distribution": [...], "total": N, ...}.
    #[arg(long)]
    pub(super) json: bool,
}

fn gods_error(e: GodsError) -> CliError {
    use twistor_search::gods::CheckpointError;
    match e {
        // A damaged checkpoint is bad input, as a damaged definition is;
        // one that cannot be read or written is the system's failure.
        GodsError::Checkpoint(CheckpointError::Corrupt { .. } | CheckpointError::Inconsistent) => {
            CliError::input(e)
        }
        GodsError::Stopped { .. } | GodsError::Checkpoint(_) | GodsError::Threads(_) => {
            CliError::failure(e)
        }
        _ => CliError::input(e),
    }
}

/// Draws one progress bar per depth on stderr.
struct Bars {
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    fn event(&self, e: &GodsEvent) {
        let Ok(mut slot) = self.bar.lock() else {
            return;
        };
        match e {
            GodsEvent::LevelStarted {
                depth,
                work,
                backward,
            } => {
                let bar = ProgressBar::new(*work);
                bar.set_style(
                    ProgressStyle::with_template(
                        "depth {msg:>10} [{bar:40}] {percent:>3}% {elapsed_precise} eta {eta}",
                    )
                    .unwrap_or_else(|_| ProgressStyle::default_bar())
                    .progress_chars("=> "),
                );
                bar.set_message(format!("{depth}{}", if *backward { " (back)" } else { "" }));
                bar.enable_steady_tick(Duration::from_millis(250));
                if let Some(old) = slot.replace(bar) {
                    old.finish_and_clear();
                }
            }
            GodsEvent::LevelProgress { done, .. } => {
                if let Some(bar) = slot.as_ref() {
                    bar.set_position(*done);
                }
            }
            GodsEvent::LevelFinished {
                depth,
                positions,
                total,
            } => {
                let line = format!("depth {depth}: {positions} positions, {total} in all");
                match slot.take() {
                    Some(bar) => {
                        bar.finish_and_clear();
                        note!("{line}");
                    }
                    None => note!("{line}"),
                }
            }
            GodsEvent::Resumed { depth } => note!("resuming after depth {depth}"),
            GodsEvent::FindingAntipodes { count } => {
                if let Some(bar) = slot.take() {
                    bar.finish_and_clear();
                }
                note!("finding move sequences for {count} antipodes");
            }
            GodsEvent::Plan(_) | GodsEvent::CheckpointSaved { .. } => {}
        }
    }

    fn clear(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}

/// Runs `twistor gods`.
pub fn run(args: GodsArgs) -> CliResult {
    // A named puzzle in its community's moves, as `solve` and `random` load
    // it: the skewb's four fixed-corner turns give its 3,149,280 positions,
    // where the definition's eight (which also turn it whole) give
    // 37,791,360.
    let puzzle = args.source.load_in_notation()?;
    let metric = if args.qtm { Metric::Qtm } else { Metric::Htm };
    let moves = listed_move_set(&puzzle, "--moves", args.moves.as_deref(), metric)?;
    let options = GodsOptions {
        local_maxima: args.local_maxima,
        antipodes: args.antipodes,
        method: match args.method {
            MethodArg::Bfs => GodsMethod::BreadthFirst,
            MethodArg::Products => GodsMethod::Products {
                stored_depth: args.products_depth,
            },
        },
        storage: match args.storage {
            StorageArg::Auto => Storage::Auto,
            StorageArg::Bits => Storage::BitArray,
            StorageArg::Sorted => Storage::SortedArray,
        },
        threads: args.threads,
        memory_limit: crate::machine::exact_memory(args.memory),
        symmetry: !args.no_symmetry,
    };
    if let Some(subgroup) = &args.subgroup {
        return super::gods_cosets::run(&args, &puzzle, &moves, subgroup, metric);
    }
    if let Some(workers) = args.workers {
        return super::gods_sharded::run(&args, &puzzle, &moves, workers);
    }
    let bars = Bars {
        bar: Mutex::new(None),
    };
    let draw = |e: &GodsEvent| bars.event(e);
    if let (true, Some(path)) = (args.resume, &args.checkpoint) {
        if !path.exists() {
            return Err(CliError::input(format!(
                "--resume: there is no checkpoint at {}",
                path.display()
            )));
        }
    }
    let mut store = args.checkpoint.as_ref().map(FileCheckpoint::new);
    if let Some(s) = &store {
        s.remove_stale_temporaries();
    }
    let control = GodsControl {
        stop: None,
        progress: crate::progress::drawn().then_some(&draw as _),
        checkpoint: store.as_mut().map(|s| s as _),
        resume: args.resume,
    };
    let report = gods::enumerate(&puzzle, &moves, &options, control);
    bars.clear();
    let report = report.map_err(|e| match e {
        GodsError::NotEnoughMemory { .. } => CliError::input(format!(
            "{e}: -M {} MiB less what the program itself holds; raise -M",
            args.memory
        )),
        e => gods_error(e),
    })?;
    print_report(&args, &moves, &report);
    Ok(())
}

fn alg(moves: &MoveSet, seq: &[usize]) -> String {
    seq.iter()
        .map(|&m| moves.moves()[m].name.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_report(args: &GodsArgs, moves: &MoveSet, r: &GodsReport) {
    let t = &r.table;
    let algs: Vec<String> = r
        .antipodes
        .sequences
        .iter()
        .map(|s| alg(moves, s))
        .collect();
    let engine = match r.plan.engine {
        Engine::BitArray => "bits",
        Engine::SortedArray => "sorted",
        Engine::Products => "products",
    };
    if args.json {
        let mut v = json!({
            "distribution": t.counts,
            "total": t.total(),
            "antipodes": {"count": r.antipodes.count, "first": algs},
            "engine": engine,
        });
        if let (Some(lm), Some(strong)) = (&t.local_maxima, &t.strong_local_maxima) {
            v["local_maxima"] = json!(lm);
            v["strong_local_maxima"] = json!(strong);
        }
        if let Some(c) = &r.classes {
            v["classes"] = json!(c);
        }
        if let Some(u) = &r.union_local_maxima {
            v["union_local_maxima"] = json!(u);
        }
        outln!("{v}");
        return;
    }
    let lm = t.local_maxima.as_ref().zip(t.strong_local_maxima.as_ref());
    match lm {
        Some(_) => outln!(
            "{:>5} {:>16} {:>16} {:>16}",
            "depth",
            "positions",
            "local maxima",
            "strong"
        ),
        None => outln!("{:>5} {:>16}", "depth", "positions"),
    }
    for (d, c) in t.counts.iter().enumerate() {
        match lm {
            Some((l, s)) => outln!("{d:>5} {c:>16} {:>16} {:>16}", l[d], s[d]),
            None => outln!("{d:>5} {c:>16}"),
        }
    }
    match lm {
        Some((l, s)) => outln!(
            "{:>5} {:>16} {:>16} {:>16}",
            "total",
            t.total(),
            l.iter().sum::<u64>(),
            s.iter().sum::<u64>()
        ),
        None => outln!("{:>5} {:>16}", "total", t.total()),
    }
    outln!(
        "antipodes: {} at distance {}",
        r.antipodes.count,
        t.diameter()
    );
    for a in &algs {
        outln!("  {a}");
    }
    if args.antipodes > 0 && algs.is_empty() && r.antipodes.count > 0 {
        outln!("  (no move sequences: the search for them would not fit the memory limit)");
    }
}
