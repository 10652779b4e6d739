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

/// The algs given as arguments, or else the lines of standard input.
pub fn algs_or_stdin(args: &[String]) -> Box<dyn Iterator<Item = Result<String, CliError>>> {
    if !args.is_empty() {
        let owned: Vec<Result<String, CliError>> = args.iter().cloned().map(Ok).collect();
        return Box::new(owned.into_iter());
    }
    let stdin = std::io::stdin();
    Box::new(
        stdin
            .lock()
            .lines()
            .map(|l| l.map_err(|e| CliError::input(format!("reading standard input: {e}"))))
            .collect::<Vec<_>>()
            .into_iter(),
    )
}

/// A prefix of `s` fit for an error message.
pub fn shorten(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}
