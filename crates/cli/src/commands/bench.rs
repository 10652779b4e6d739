//! `twistor bench`: whole-program measurements people can rerun.

use std::sync::atomic::AtomicBool;

use serde_json::json;
use twistor_tools::bench::{all_puzzles, sweep_puzzle, SweepOptions};

use crate::cache::CacheArgs;
use crate::error::{CliError, CliResult};
use crate::progress::Progress;

/// Arguments of `twistor bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchCommand,
}

#[derive(clap::Subcommand)]
enum BenchCommand {
    /// Every puzzle twistor knows (PuzzleGeometry's 72 names and the
    /// hand-written and cubing.js puzzles), solved by `solve --fast` from
    /// random states: per puzzle the median and longest time and length,
    /// beside the counting bound ⌈log N / log b⌉.
    #[command(
        after_help = "Examples:\n  twistor bench solve-all -n 20 --seed 1\n  twistor bench solve-all --only megaminx,5x5x5,FTO -n 5\n  twistor bench solve-all --skip 20x20x20,30x30x30,40x40x40 --json"
    )]
    SolveAll(SolveAllArgs),
}

#[derive(clap::Args)]
struct SolveAllArgs {
    /// Random positions a puzzle.
    #[arg(short = 'n', long = "count", default_value_t = 20)]
    count: usize,
    /// Seed of the random states.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only these puzzles (comma-separated names).
    #[arg(long, value_name = "NAMES")]
    only: Option<String>,
    /// Leave out these puzzles (comma-separated names).
    #[arg(long, value_name = "NAMES")]
    skip: Option<String>,
    /// Memory for tables, in MiB.
    #[arg(short = 'M', long = "memory", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    memory: u64,
    /// Threads (default: all cores).
    #[arg(short = 't', long)]
    threads: Option<usize>,
    /// One JSON object a puzzle instead of the table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cache: CacheArgs,
}

/// Runs `twistor bench`.
pub fn run(args: BenchArgs) -> CliResult {
    match args.what {
        BenchCommand::SolveAll(a) => solve_all(a),
    }
}

fn names(list: &Option<String>) -> Vec<String> {
    list.as_deref()
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

fn solve_all(args: SolveAllArgs) -> CliResult {
    if args.count == 0 {
        return Err(CliError::input("-n/--count: at least 1"));
    }
    let all = all_puzzles();
    let only = names(&args.only);
    let skip = names(&args.skip);
    for n in only.iter().chain(&skip) {
        if !all.contains(n) {
            return Err(CliError::input(format!(
                "{n}: not one of the sweep's puzzles ({})",
                all.join(", ")
            )));
        }
    }
    let puzzles: Vec<String> = all
        .into_iter()
        .filter(|p| (only.is_empty() || only.contains(p)) && !skip.contains(p))
        .collect();
    let options = SweepOptions {
        count: args.count,
        seed: args.seed,
        memory_bytes: args.memory << 20,
        threads: args
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        store: args.cache.store()?,
    };
    let stop = AtomicBool::new(false);
    let mut bar = Progress::stderr();
    if !args.json {
        outln!("| puzzle | engine | answered | setup s | median s | max s | median moves | max moves | counting bound | median / bound |");
        outln!("|---|---|---|---|---|---|---|---|---|---|");
    }
    let mut failed = 0;
    for name in &puzzles {
        bar.message(&format!("{name}: setting up"));
        let row = sweep_puzzle(name, &options, &stop, &mut |i, secs| {
            bar.message(&format!(
                "{name}: position {} of {} in {secs:.2} s",
                i + 1,
                options.count
            ));
        });
        bar.finish();
        let row = match row {
            Ok(r) => r,
            Err(e) => {
                failed += 1;
                note!("{name}: {e}");
                continue;
            }
        };
        if let Some(f) = &row.failure {
            failed += 1;
            note!("{name}: {f}");
        }
        let ratio = row.median_moves as f64 / row.bound.max(1) as f64;
        if args.json {
            outln!(
                "{}",
                json!({
                    "puzzle": row.puzzle, "engine": row.engine, "asked": row.asked,
                    "answered": row.answered, "setup_secs": row.setup_secs, "median_secs": row.median_secs,
                    "max_secs": row.max_secs, "median_moves": row.median_moves,
                    "max_moves": row.max_moves, "counting_bound": row.bound,
                    "log10_positions": row.log10_positions, "failure": row.failure,
                })
            );
        } else {
            outln!(
                "| {} | {} | {}/{} | {:.2} | {:.3} | {:.3} | {} | {} | {} | {:.2} |",
                row.puzzle,
                row.engine,
                row.answered,
                row.asked,
                row.setup_secs,
                row.median_secs,
                row.max_secs,
                row.median_moves,
                row.max_moves,
                row.bound,
                ratio
            );
        }
    }
    if failed > 0 {
        return Err(CliError::failure(format!(
            "{failed} puzzle(s) had positions unanswered (see above)"
        )));
    }
    Ok(())
}
