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
    /// The format to write. A named puzzle's KPuzzle JSON numbers every
    /// piece apart in its default pattern, as cubing.js's definitions do;
    /// its .tws gives alike centres one label, as PuzzleGeometry's ksolve
    /// output does.
    #[arg(long, value_enum)]
    to: Format,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<String>,
}

/// Runs `twistor convert`.
pub fn run(args: ConvertArgs) -> CliResult {
    // Named puzzles are written as PuzzleGeometry writes them: KPuzzle JSON
    // numbers every piece apart (as cubing.js's definitions do), .tws gives
    // alike centres one label (as its ksolve output does).
    let json = matches!(args.to, Format::Json);
    let puzzle = args.source.load_definition(json)?;
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
