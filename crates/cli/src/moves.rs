//! The `--moves` option shared by commands that choose generators.

use twistor_core::Puzzle;
use twistor_search::{Metric, MoveSet};

use crate::error::CliError;

/// Restricts the moves a command uses.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct MoveSubset {
    /// Use only these moves, comma-separated (e.g. `U,F,R`).
    #[arg(long, value_name = "A,B,C")]
    pub moves: Option<String>,
}

/// The search move set `subset` selects, in `metric`.
pub fn move_set(puzzle: &Puzzle, subset: &MoveSubset, metric: Metric) -> Result<MoveSet, CliError> {
    listed_move_set(puzzle, "--moves", subset.moves.as_deref(), metric)
}

/// The move set of the comma-separated `list` given to `option` (all the
/// search moves when there is none), in `metric`.
pub fn listed_move_set(
    puzzle: &Puzzle,
    option: &str,
    list: Option<&str>,
    metric: Metric,
) -> Result<MoveSet, CliError> {
    let result = match list {
        None => MoveSet::all(puzzle, metric),
        Some(list) => {
            let names: Vec<String> = list
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            MoveSet::named(puzzle, &names, metric)
        }
    };
    result.map_err(|e| CliError::input(format!("{option}: {e}")))
}

/// `-n/--count`: how many, at least one (the same rule in every command).
pub fn positive_count(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err("at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{s:?} is not a whole number")),
    }
}
