//! `twistor shorten`: replace windows of algs by optimal sequences until
//! none can be shortened.

use std::sync::atomic::AtomicBool;

use twistor_search::{Metric, SaveGrown, SolverOptions, TableEvent};
use twistor_tools::sequence::{MoveTable, MOVE_LIMIT};
use twistor_tools::shorten::{ShortenOptions, Shortener};

use crate::cache::CacheArgs;
use crate::commands::algio::{alg_error, alg_moves, emit_moves, for_each_alg};
use crate::error::{CliError, CliResult};
use crate::moves::{move_set, MoveSubset};
use crate::progress::Progress;
use crate::puzzle_source::PuzzleSource;
use crate::report::report_table_event;

/// Arguments of `twistor shorten`.
#[derive(clap::Args)]
#[command(
    after_help = "Algorithm: adjacent moves on one grip are merged; then windows of up to \
--window moves, longest first, are each replaced by an optimal sequence doing the same \
transformation (IDA* with pattern databases, every piece distinguishable) when one is shorter, \
starting again after every replacement, until no window can be shortened (a fixed point). A \
window whose search would pass --max-nodes counts as not shortened (reported on stderr). Moves \
outside the search's move set (rotations, wide turns a definition lacks) are kept in place and \
the parts between them shortened. Tables are cached like `twistor solve`'s.\n\nExample:\n  \
twistor shorten 3x3x3 \"R U R' U' R' F R2 U' R' U' R U R' F'\"      # 11 moves: D R2 D' F2 U F2 R2 U R2 U' R2"
)]
pub struct ShortenArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Algs; read from standard input, one a line, if none.
    algs: Vec<String>,
    /// Print one JSON object a line: `{"input": ..., "alg": ..., "length": n}`.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    moves: MoveSubset,
    /// Longest window replaced by an optimal sequence.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(2..=40))]
    window: u32,
    /// Search nodes allowed for one window.
    #[arg(long, default_value_t = 2_000_000)]
    max_nodes: u64,
    /// Memory for pruning tables, in MiB.
    #[arg(short = 'M', long = "memory", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=65536))]
    memory: u64,
    /// Threads (default: all cores).
    #[arg(short = 't', long, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: Option<u32>,
    #[command(flatten)]
    cache: CacheArgs,
}

/// Runs `twistor shorten`.
pub fn run(args: ShortenArgs) -> CliResult {
    let puzzle = args.source.load_in_notation()?;
    let threads = args
        .threads
        .map(|t| t as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let moves = move_set(&puzzle, &args.moves, Metric::Htm)?;
    let stop = AtomicBool::new(false);
    let mut bar = Progress::stderr();
    let solver_options = SolverOptions {
        memory_bytes: args.memory << 20,
        threads,
        store: args.cache.store()?,
        symmetry: true,
    };
    let written_to = args.cache.written_to();
    let mut shortener = Shortener::new(
        &puzzle,
        moves,
        &solver_options,
        &stop,
        &mut |e: TableEvent| report_table_event(&mut bar, written_to.as_deref(), e),
    )
    .map_err(CliError::failure)?;
    bar.finish();
    let options = ShortenOptions {
        max_window: args.window as usize,
        max_nodes: args.max_nodes,
        threads,
    };
    let mut table = MoveTable::new(&puzzle);
    let result = for_each_alg(&args.algs, |text| {
        let moves = alg_moves(text, MOVE_LIMIT)?;
        if moves.len() > 10_000 {
            return Err(CliError::input(format!(
                "alg of {} moves: shorten takes at most 10000",
                moves.len()
            )));
        }
        let (out, report) = shortener
            .shorten(&mut table, &moves, &options)
            .map_err(|e| alg_error(text, e))?;
        if report.windows_given_up > 0 {
            eprintln!(
                "twistor: {} window(s) not searched to the end (--max-nodes {}); the result may not be a fixed point",
                report.windows_given_up, args.max_nodes
            );
        }
        emit_moves(text, &out, args.json)
    });
    shortener.save_grown_tables(SaveGrown::All, &mut |e| {
        report_table_event(&mut bar, written_to.as_deref(), e)
    });
    result
}
