//! `twistor invert`: the inverse of each alg.

use serde_json::json;

use crate::error::CliResult;
use crate::load::{algs_or_stdin, parse_alg};

/// Arguments of `twistor invert`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  twistor invert \"[R, U] F2\"      # prints F2' [U, R]\n  printf 'R U\\nF D\\n' | twistor invert"
)]
pub struct InvertArgs {
    /// Algs to invert; read from standard input, one a line, if none.
    algs: Vec<String>,
    /// Print one JSON object a line: `{"alg": ..., "inverse": ...}`.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor invert`.
pub fn run(args: InvertArgs) -> CliResult {
    for text in algs_or_stdin(&args.algs) {
        let text = text?;
        let inverse = parse_alg(&text)?.invert();
        if args.json {
            outln!("{}", json!({"alg": text, "inverse": inverse.to_string()}));
        } else {
            outln!("{inverse}");
        }
    }
    Ok(())
}
