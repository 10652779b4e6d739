//! `twistor apply`: the pattern an alg reaches from the start state.

use twistor_formats::kpuzzle::{write_kpattern, JsonStyle};
use twistor_formats::resolve::apply_alg;
use twistor_formats::tws::write_scrambles;

use crate::error::{CliError, CliResult};
use crate::load::{parse_alg, shorten};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor apply`.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  twistor apply 3x3x3.tws \"R U R' U'\" --json")]
pub struct ApplyArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// The alg to apply (cubing.js notation).
    alg: String,
    /// Print the pattern as KPattern JSON (otherwise as a .tws Scramble block).
    #[arg(long)]
    json: bool,
}

/// Runs `twistor apply`.
pub fn run(args: ApplyArgs) -> CliResult {
    let puzzle = args.source.load()?;
    let alg = parse_alg(&args.alg)?;
    let pattern = apply_alg(&puzzle, puzzle.start(), &alg)
        .map_err(|e| CliError::input(format!("alg {:?}: {e}", shorten(&args.alg))))?;
    if args.json {
        outln!("{}", write_kpattern(&puzzle, &pattern, JsonStyle::Compact));
    } else {
        let text = write_scrambles(&puzzle, &[("Applied".to_string(), pattern)])
            .map_err(CliError::failure)?;
        out!("{text}");
    }
    Ok(())
}
