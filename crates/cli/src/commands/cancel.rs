//! `twistor cancel`: merge adjacent moves on the same grip.

use twistor_tools::sequence::{cancel, MoveTable, MOVE_LIMIT};

use crate::commands::algio::{alg_error, alg_moves, emit_moves, for_each_alg};
use crate::error::CliResult;
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor cancel`.
#[derive(clap::Args)]
#[command(
    after_help = "Adjacent moves with the same quantum (R, 2-3Rw, x) are merged and amounts \
reduced modulo the move's order on the puzzle, until no two adjacent moves share one; moves are \
never moved past each other (see `twistor canonicalize` for that). Groupings, commutators and \
conjugates are written out. `.` stands for an empty result.\n\nExamples:\n  twistor cancel 3x3x3 \"R U U' R2\"      # prints R'\n  printf \"R R\\nF2 F2\\n\" | twistor cancel 3x3x3"
)]
pub struct CancelArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Algs; read from standard input, one a line, if none.
    algs: Vec<String>,
    /// Print one JSON object a line: `{"input": ..., "alg": ..., "length": n}`.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor cancel`.
pub fn run(args: CancelArgs) -> CliResult {
    let puzzle = args.source.load()?;
    let mut table = MoveTable::new(&puzzle);
    for_each_alg(&args.algs, |text| {
        let moves = alg_moves(text, MOVE_LIMIT)?;
        let out = cancel(&mut table, &moves).map_err(|e| alg_error(text, e))?;
        emit_moves(text, &out, args.json)
    })
}
