//! The `PUZZLE` argument every puzzle command takes: a `.tws` file, a
//! KPuzzle `.json` file, or (from the geometry crate) a puzzle's name.

use twistor_core::Puzzle;

use crate::error::CliError;
use crate::load::read_text;

/// Where a puzzle definition comes from, with the options for named puzzles.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PuzzleSource {
    /// A .tws file, a KPuzzle .json file, or a puzzle name such as 3x3x3.
    #[arg(value_name = "PUZZLE")]
    pub puzzle: String,
    /// For named puzzles: include inner slice moves (cubing.js `allMoves`).
    #[arg(long)]
    pub all_moves: bool,
}

impl PuzzleSource {
    /// Loads the puzzle.
    pub fn load(&self) -> Result<Puzzle, CliError> {
        let text = read_text(&self.puzzle)?;
        twistor_formats::read_puzzle(&text, &self.puzzle).map_err(CliError::input)
    }
}
