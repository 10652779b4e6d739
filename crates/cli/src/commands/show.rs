//! `twistor show` (being built).

use crate::error::{CliError, CliResult};

/// Arguments of `twistor show`.
#[derive(clap::Args)]
pub struct ShowArgs {}

/// Runs `twistor show`.
pub fn run(_args: ShowArgs) -> CliResult {
    Err(CliError::failure("twistor show is not built yet"))
}
