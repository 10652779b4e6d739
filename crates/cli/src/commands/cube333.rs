//! `twistor 333`: the 3x3x3 solvers.

use crate::error::{CliError, CliResult};

/// Arguments of `twistor 333`.
#[derive(clap::Args)]
pub struct Cube333Args {}

/// Runs `twistor 333`.
pub fn run(_args: Cube333Args) -> CliResult {
    Err(CliError::failure("twistor 333 is not built yet"))
}
