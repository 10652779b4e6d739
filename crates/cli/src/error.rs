//! The one place errors are turned into messages and exit codes.

use std::fmt;

/// Exit code for invalid input (a bad file, alg or argument).
pub const EXIT_INVALID_INPUT: i32 = 2;
/// Exit code for any other failure.
pub const EXIT_FAILURE: i32 = 1;

/// An error on its way to the terminal.
#[derive(Debug)]
pub struct CliError {
    /// Process exit code.
    pub code: i32,
    /// What to print on stderr.
    pub message: String,
}

impl CliError {
    /// Invalid input: exit code 2.
    pub fn input(message: impl fmt::Display) -> CliError {
        CliError {
            code: EXIT_INVALID_INPUT,
            message: message.to_string(),
        }
    }

    /// Any other failure: exit code 1.
    pub fn failure(message: impl fmt::Display) -> CliError {
        CliError {
            code: EXIT_FAILURE,
            message: message.to_string(),
        }
    }
}

/// An error and every cause beneath it, as one line: `a: b: c`.
pub fn with_causes(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        out.push_str(": ");
        out.push_str(&c.to_string());
        cause = c.source();
    }
    out
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<std::io::Error> for CliError {
    /// A closed standard output (a reader such as `head` that has seen
    /// enough) is not a failure: it ends the program quietly, exit code 0.
    fn from(e: std::io::Error) -> CliError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            CliError {
                code: 0,
                message: String::new(),
            }
        } else {
            CliError::failure(e)
        }
    }
}

/// Result of a command.
pub type CliResult = Result<(), CliError>;
