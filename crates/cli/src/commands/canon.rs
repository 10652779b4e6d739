//! `twistor canon`: how many canonical move sequences there are.

use serde_json::json;
use twistor_search::{CanonicalFsm, Metric};

use crate::error::{CliError, CliResult};
use crate::moves::{move_set, MoveSubset};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor canon`.
#[derive(clap::Args)]
#[command(
    after_help = "Example:\n  twistor canon 3x3x3.tws --depth 8      # 1 18 243 3240 43254 ..."
)]
pub struct CanonArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Count sequences up to this length.
    #[arg(long, default_value_t = 10)]
    depth: usize,
    #[command(flatten)]
    moves: MoveSubset,
    /// Count in the quarter-turn metric.
    #[arg(long)]
    qtm: bool,
    /// Print `{"counts": [...]}`.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor canon`.
pub fn run(args: CanonArgs) -> CliResult {
    if args.depth > 1000 {
        return Err(CliError::input("--depth: at most 1000"));
    }
    let puzzle = args.source.load()?;
    let metric = if args.qtm { Metric::Qtm } else { Metric::Htm };
    let set = move_set(&puzzle, &args.moves, metric)?;
    let fsm = CanonicalFsm::new(&set).map_err(CliError::input)?;
    let counts = fsm.counts(args.depth);
    if args.json {
        // Counts beyond u64 are printed as decimal strings' digits still.
        let v: Vec<serde_json::Value> = counts
            .iter()
            .map(|&c| {
                u64::try_from(c)
                    .map(serde_json::Value::from)
                    .unwrap_or_else(|_| json!(c.to_string()))
            })
            .collect();
        outln!("{}", json!({ "counts": v }));
    } else {
        eprintln!("{} canonical states", fsm.num_states());
        for (d, c) in counts.iter().enumerate() {
            outln!("{d} {c}");
        }
    }
    Ok(())
}
