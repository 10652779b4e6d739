//! Reading `--target` files.

use twistor_core::Puzzle;
use twistor_formats::kpuzzle::parse_kpattern;
use twistor_formats::tws::{parse_scrambles, ScrambleBody};
pub use twistor_search::target::Goal;

use crate::error::CliError;
use crate::load::read_text;

/// The goal of a search: the start state, or the target in `path` (a
/// KPattern JSON file or a .tws file with one `Scramble` block).
pub fn load_goal(puzzle: &Puzzle, path: Option<&str>) -> Result<Goal, CliError> {
    let Some(path) = path else {
        return Ok(Goal::start(puzzle));
    };
    let text = read_text(path)?;
    let pattern = if text.trim_start().starts_with('{') {
        parse_kpattern(&text, path, puzzle).map_err(CliError::input)?
    } else {
        let mut blocks = parse_scrambles(&text, path, puzzle).map_err(CliError::input)?;
        if blocks.len() != 1 {
            return Err(CliError::input(format!(
                "{path}: a target file holds exactly one Scramble block"
            )));
        }
        match blocks.remove(0).body {
            ScrambleBody::Pattern(p) => p,
            ScrambleBody::Alg(_) => {
                return Err(CliError::input(format!(
                    "{path}: a target must be a Scramble block, not a ScrambleAlg"
                )))
            }
        }
    };
    Goal::target(puzzle, pattern).map_err(|e| CliError::input(format!("{path}: {e}")))
}
