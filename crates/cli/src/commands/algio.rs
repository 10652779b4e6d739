//! Algs in and out for the sequence utilities: from the arguments or, one
//! a line, streamed from standard input (nothing is held back, so a
//! pipeline of any length runs in bounded memory), and lines written as
//! they are ready.

use twistor_formats::alg::{Alg, Move};
use twistor_tools::sequence::{expand, moves_to_alg};
use twistor_tools::ToolError;

use crate::error::CliError;
use crate::load::{parse_alg, shorten};

/// Calls `each` with every alg given as an argument or, when there are
/// none, with every non-blank line of standard input as it arrives.
pub fn for_each_alg(
    args: &[String],
    mut each: impl FnMut(&str) -> Result<(), CliError>,
) -> Result<(), CliError> {
    if !args.is_empty() {
        for a in args {
            each(a)?;
        }
        return Ok(());
    }
    for line in crate::load::stdin_lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        each(&line)?;
    }
    Ok(())
}

/// The expanded moves of `text` (an error names the alg).
pub fn alg_moves(text: &str, limit: usize) -> Result<Vec<Move>, CliError> {
    let alg = parse_alg(text)?;
    expand(&alg, limit).map_err(|e| alg_error(text, e))
}

/// An error about the alg `text`, as invalid input.
pub fn alg_error(text: &str, e: ToolError) -> CliError {
    CliError::input(format!("alg {:?}: {e}", shorten(text)))
}

/// Writes one line to standard output; a closed pipe ends quietly.
pub fn emit(line: &str) -> Result<(), CliError> {
    outln!("{line}");
    Ok(())
}

/// Writes the result of a sequence tool for the alg `input`: the moves
/// alone, or with `--json` `{"input": ..., "alg": ..., "length": n}`.
pub fn emit_moves(input: &str, moves: &[Move], json: bool) -> Result<(), CliError> {
    emit_alg(input, &moves_to_alg(moves), moves.len(), json)
}

/// [`emit_moves`] for an alg of `length` moves as written.
pub fn emit_alg(input: &str, alg: &Alg, length: usize, json: bool) -> Result<(), CliError> {
    if json {
        emit(
            &serde_json::json!({"input": input.trim(), "alg": alg.to_string(), "length": length})
                .to_string(),
        )
    } else {
        emit(&show(alg))
    }
}

/// An alg's text, or `.` (cubing.js's empty alg) when it has no moves.
pub fn show(alg: &Alg) -> String {
    let s = alg.to_string();
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}
