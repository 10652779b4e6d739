//! `twistor gods` (being built).

use crate::error::{CliError, CliResult};

/// Arguments of `twistor gods`.
#[derive(clap::Args)]
pub struct GodsArgs {}

/// Runs `twistor gods`.
pub fn run(_args: GodsArgs) -> CliResult {
    Err(CliError::failure("twistor gods is not built yet"))
}
