//! `twistor canonicalize`: cancel, merge across commuting moves, and put
//! commuting moves in canonical order.

use twistor_tools::sequence::{canonicalize, MoveTable, CANONICALIZE_LIMIT};

use crate::commands::algio::{alg_error, alg_moves, emit_moves, for_each_alg};
use crate::error::CliResult;
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor canonicalize`.
#[derive(clap::Args)]
#[command(
    after_help = "Moves on the same grip are merged, also across moves that commute with \
them, and runs of commuting moves are written in the puzzle's move order, so the result is a \
canonical sequence as `twistor canon` counts them (half-turn metric) and algs equal up to \
commuting moves give the same line. Commutation is tested on the puzzle, by crates/search's \
canonical-sequence automaton.\n\nExamples:\n  twistor canonicalize 3x3x3 \"U D U\"      # prints D U2\n  twistor canonicalize 3x3x3 \"R L R' F\"      # prints L F"
)]
pub struct CanonicalizeArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Algs; read from standard input, one a line, if none.
    algs: Vec<String>,
    /// Print one JSON object a line: `{"input": ..., "alg": ..., "length": n}`.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor canonicalize`.
pub fn run(args: CanonicalizeArgs) -> CliResult {
    let puzzle = args.source.load()?;
    let mut table = MoveTable::new(&puzzle);
    for_each_alg(&args.algs, |text| {
        let moves = alg_moves(text, CANONICALIZE_LIMIT)?;
        let out = canonicalize(&mut table, &moves).map_err(|e| alg_error(text, e))?;
        emit_moves(text, &out, args.json)
    })
}
