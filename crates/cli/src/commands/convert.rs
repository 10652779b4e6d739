//! `twistor convert`: a definition from .tws to KPuzzle JSON or back.

use twistor_formats::{write_puzzle, PuzzleFormat};

use crate::error::{CliError, CliResult};
use crate::puzzle_source::PuzzleSource;

/// Output formats of `twistor convert`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Format {
    /// ksolve/twsearch .tws
    Tws,
    /// cubing.js KPuzzle JSON
    Json,
}

/// Arguments of `twistor convert`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  twistor convert 3x3x3.tws --to json > 3x3x3.json\n  twistor convert 3x3x3.json --to tws"
)]
pub struct ConvertArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// The format to write. A named puzzle's KPuzzle JSON is the definition
    /// `apply --json` prints patterns of, as cubing.js has it (the pieces
    /// only rotations move, such as the 3x3x3's centres, included; every
    /// piece numbered apart in its default pattern); its .tws is
    /// PuzzleGeometry's ksolve output, as twsearch reads it (alike centres
    /// one label; add --rotations for the rotations).
    #[arg(long, value_enum)]
    to: Format,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<String>,
}

/// Runs `twistor convert`.
pub fn run(args: ConvertArgs) -> CliResult {
    // A named puzzle's KPuzzle JSON is the definition `apply --json` and
    // the server print patterns of (cubing.js's); its .tws is
    // PuzzleGeometry's ksolve output, as twsearch users have it.
    let puzzle = match args.to {
        Format::Json => args.source.load_kpuzzle()?,
        Format::Tws => args.source.load_definition()?,
    };
    let format = match args.to {
        Format::Tws => PuzzleFormat::Tws,
        Format::Json => PuzzleFormat::KPuzzleJson,
    };
    let text = write_puzzle(&puzzle, format)
        .map_err(|e| CliError::input(format!("{}: {}", args.source.puzzle, e.kind)))?;
    match args.output {
        Some(path) => {
            std::fs::write(&path, text).map_err(|e| CliError::failure(format!("{path}: {e}")))?
        }
        None => out!("{text}"),
    }
    Ok(())
}
