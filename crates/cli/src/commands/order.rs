//! `twistor order`: how many times an alg must be repeated to do nothing.

use serde_json::json;
use twistor_formats::resolve::alg_transformation;

use crate::error::{CliError, CliResult};
use crate::load::{algs_or_stdin, parse_alg, shorten};
use crate::puzzle_source::PuzzleSource;

/// Arguments of `twistor order`.
#[derive(clap::Args)]
#[command(after_help = "Example:\n  twistor order 3x3x3.tws \"R U\"      # prints 105")]
pub struct OrderArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// Algs; read from standard input, one a line, if none.
    algs: Vec<String>,
    /// Print one JSON object a line: `{"alg": ..., "order": "..."}`.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor order`.
pub fn run(args: OrderArgs) -> CliResult {
    let puzzle = args.source.load()?;
    for text in algs_or_stdin(&args.algs) {
        let text = text?;
        let alg = parse_alg(&text)?;
        let t = alg_transformation(&puzzle, &alg)
            .map_err(|e| CliError::input(format!("alg {:?}: {e}", shorten(&text))))?;
        let order = puzzle.layout().order(&t);
        if args.json {
            outln!("{}", json!({"alg": text, "order": order.to_string()}));
        } else {
            outln!("{order}");
        }
    }
    Ok(())
}
