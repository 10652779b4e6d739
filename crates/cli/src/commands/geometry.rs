//! `twistor geometry` (being built).

use crate::error::{CliError, CliResult};

/// Arguments of `twistor geometry`.
#[derive(clap::Args)]
pub struct GeometryArgs {}

/// Runs `twistor geometry`.
pub fn run(_args: GeometryArgs) -> CliResult {
    Err(CliError::failure("twistor geometry is not built yet"))
}
