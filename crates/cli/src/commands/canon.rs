//! `twistor canon`: how many canonical move sequences there are.

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
    // The sequences `solve` searches: a named puzzle's in its notation.
    let puzzle = args.source.load_in_notation()?;
    let metric = if args.qtm { Metric::Qtm } else { Metric::Htm };
    let set = move_set(&puzzle, &args.moves, metric)?;
    let fsm = CanonicalFsm::new(&set).map_err(CliError::input)?;
    let counts = fsm.exact_counts(args.depth);
    if args.json {
        // JSON numbers are unbounded; these are written exactly, as digits.
        let list: Vec<String> = counts.iter().map(ToString::to_string).collect();
        outln!("{{\"counts\": [{}]}}", list.join(", "));
    } else {
        note!("{} canonical states", fsm.num_states());
        for (d, c) in counts.iter().enumerate() {
            outln!("{d} {c}");
        }
    }
    Ok(())
}
