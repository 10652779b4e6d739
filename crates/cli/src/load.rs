//! Reading what the user names: puzzle files, scramble files, algs.

use std::io::{BufRead, Read};

use twistor_formats::alg::Alg;

use crate::error::CliError;

/// Largest input file read (definitions and scramble files are small).
const MAX_FILE_BYTES: u64 = 256 << 20;

/// Reads a text file (invalid UTF-8 is replaced, not fatal), `-` for stdin.
pub fn read_text(path: &str) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    if path == "-" {
        std::io::stdin()
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::input(format!("reading standard input: {e}")))?;
    } else {
        let f = std::fs::File::open(path).map_err(|e| CliError::input(format!("{path}: {e}")))?;
        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(CliError::input(format!("{path}: is a directory")));
        }
        f.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::input(format!("{path}: {e}")))?;
    }
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(CliError::input(format!(
            "{path}: larger than {} MiB",
            MAX_FILE_BYTES >> 20
        )));
    }
    let text = String::from_utf8_lossy(&bytes);
    // A UTF-8 byte-order mark is no part of any format we read.
    Ok(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())
}

/// Parses an alg given on the command line.
pub fn parse_alg(text: &str) -> Result<Alg, CliError> {
    Alg::parse(text).map_err(|e| CliError::input(format!("alg {:?}: {e}", shorten(text))))
}

/// Longest line read from standard input: far beyond any alg, and a
/// bound on what one line can make the reader hold.
const MAX_LINE_BYTES: u64 = 16 << 20;

/// The lines of standard input, streamed (one held at a time), each at
/// most [`MAX_LINE_BYTES`]: a longer one is an error naming its line.
pub fn stdin_lines() -> impl Iterator<Item = Result<String, CliError>> {
    let mut input = std::io::stdin().lock();
    let mut number = 0usize;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        number += 1;
        let mut bytes = Vec::new();
        let read = (&mut input)
            .take(MAX_LINE_BYTES + 1)
            .read_until(b'\n', &mut bytes);
        let result = match read {
            Ok(0) => return None,
            Err(e) => Err(CliError::input(format!("reading standard input: {e}"))),
            Ok(_) if bytes.len() as u64 > MAX_LINE_BYTES => Err(CliError::input(format!(
                "standard input, line {number}: longer than {} MiB",
                MAX_LINE_BYTES >> 20
            ))),
            Ok(_) => {
                if bytes.last() == Some(&b'\n') {
                    bytes.pop();
                    if bytes.last() == Some(&b'\r') {
                        bytes.pop();
                    }
                }
                String::from_utf8(bytes).map_err(|_| {
                    CliError::input(format!("standard input, line {number}: not UTF-8"))
                })
            }
        };
        failed = result.is_err();
        Some(result)
    })
}

/// The algs given as arguments, or else the lines of standard input
/// (streamed, as [`stdin_lines`] reads them).
pub fn algs_or_stdin(args: &[String]) -> Box<dyn Iterator<Item = Result<String, CliError>>> {
    if !args.is_empty() {
        let owned: Vec<Result<String, CliError>> = args.iter().cloned().map(Ok).collect();
        return Box::new(owned.into_iter());
    }
    Box::new(stdin_lines())
}

/// A prefix of `s` fit for an error message.
pub fn shorten(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}
