//! `twistor unique`: drop algs that reach a position already seen.

use twistor_tools::sequence::{MoveTable, PositionFilter, MOVE_LIMIT};

use crate::commands::algio::{alg_error, alg_moves, emit, emit_alg, for_each_alg};
use crate::error::{CliError, CliResult};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor unique`.
#[derive(clap::Args)]
#[command(
    after_help = "Prints each alg (as given) whose position, reached from the start state, \
no earlier alg reached. With --symmetry, positions that are the same seen from another side \
count as one: t and r' t r for every r in the group the puzzle's whole-puzzle rotations generate \
(named puzzles carry them; .tws files need Move blocks named x, y, z or ...v).\n\nExamples:\n  \
printf \"R U\\n(R U)\\nU R\\n\" | twistor unique 3x3x3      # prints R U, U R\n  twistor unique 3x3x3 --symmetry R U F      # prints R"
)]
pub struct UniqueArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Algs; read from standard input, one a line, if none.
    algs: Vec<String>,
    /// Print one JSON object a line: `{"input": ..., "alg": ..., "length": n}`.
    #[arg(long)]
    json: bool,
    /// Count positions equal up to the puzzle's rotations as one.
    #[arg(long)]
    symmetry: bool,
}

/// Runs `twistor unique`.
pub fn run(args: UniqueArgs) -> CliResult {
    let puzzle = args.source.load()?;
    let mut filter = if args.symmetry {
        PositionFilter::with_symmetry(&puzzle).map_err(CliError::input)?
    } else {
        PositionFilter::new(&puzzle)
    };
    let mut table = MoveTable::new(&puzzle);
    for_each_alg(&args.algs, |text| {
        let moves = alg_moves(text, MOVE_LIMIT)?;
        let t = table
            .sequence_transformation(&moves)
            .map_err(|e| alg_error(text, e))?;
        if filter.insert(&t) {
            if args.json {
                emit_alg(text, &crate::load::parse_alg(text)?, moves.len(), true)?;
            } else {
                emit(text.trim())?;
            }
        }
        Ok(())
    })
}
