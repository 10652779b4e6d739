//! `twistor unrotate`: push whole-puzzle rotations to the end.

use twistor_tools::sequence::{unrotate, MoveTable, MOVE_LIMIT};

use crate::commands::algio::{alg_error, alg_moves, emit_moves, for_each_alg};
use crate::error::CliResult;
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor unrotate`.
#[derive(clap::Args)]
#[command(
    after_help = "Each move after rotations r is replaced by the move doing r m r' (named \
in the same style: same layers and suffix, another face), and the rotations follow at the end, \
adjacent ones merged. Rotations are moves named as twsearch does (x, y2, z', Uv) or that the \
puzzle marks as rotations.\n\nExamples:\n  twistor unrotate 3x3x3 \"x U x'\"      # prints F\n  twistor unrotate 3x3x3 \"y R U\"      # prints B U y"
)]
pub struct UnrotateArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Algs; read from standard input, one a line, if none.
    algs: Vec<String>,
    /// Print one JSON object a line: `{"input": ..., "alg": ..., "length": n}`.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor unrotate`.
pub fn run(args: UnrotateArgs) -> CliResult {
    let puzzle = args.source.load()?;
    let mut table = MoveTable::new(&puzzle);
    for_each_alg(&args.algs, |text| {
        let moves = alg_moves(text, MOVE_LIMIT)?;
        let out = unrotate(&mut table, &moves).map_err(|e| alg_error(text, e))?;
        emit_moves(text, &out, args.json)
    })
}
