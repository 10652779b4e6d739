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

/// `-M` for the commands that build a puzzle's group (`info`, `random`):
/// its bound is checked before anything is built.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct GroupMemory {
    /// Memory the puzzle's group (its Schreier-Sims chain) may take, in
    /// MiB; a puzzle whose group might need more is refused before it is
    /// built, with the estimate.
    #[arg(short = 'M', long = "memory", default_value_t = twistor_tools::budget::DEFAULT_GROUP_BYTES >> 20, value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    memory: u64,
}

impl GroupMemory {
    /// Refuses `puzzle` when its group might not fit.
    pub fn check(self, puzzle: &twistor_core::Puzzle) -> Result<(), CliError> {
        twistor_tools::budget::check_group(puzzle, self.memory << 20)
            .map_err(|e| CliError::input(format!("{e} (-M {} MiB)", self.memory)))
    }
}
