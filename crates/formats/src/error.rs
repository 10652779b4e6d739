//! Errors of the readers: every one names the file, the line (and column
//! where it helps) and what is wrong.

use std::fmt;

use twistor_core::CoreError;

use crate::alg::AlgError;

/// A problem in an input file, with its location.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ParseError {
    /// The file (or `-` for standard input, or a description).
    pub file: String,
    /// 1-based line; 0 when the problem is with the file as a whole.
    pub line: usize,
    /// 1-based column, where it helps.
    pub column: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if let Some(c) = self.column {
                write!(f, ":{c}")?;
            }
        }
        write!(f, ": {}", self.kind)
    }
}

/// What can be wrong in an input file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// A line starting with a word the format does not know.
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    /// A command where it may not appear.
    #[error("{command} is not allowed here: {reason}")]
    WrongPlace {
        /// The command.
        command: String,
        /// Why not.
        reason: &'static str,
    },
    /// A command with the wrong number of words.
    #[error("{command} takes {expected}, found {found} words")]
    TokenCount {
        /// The command.
        command: String,
        /// What it takes, in words.
        expected: &'static str,
        /// Words found (the command included).
        found: usize,
    },
    /// A number that is not one, or out of range.
    #[error("bad number {token:?}: {reason}")]
    BadNumber {
        /// The token.
        token: String,
        /// Why.
        reason: String,
    },
    /// An orbit the definition does not have.
    #[error("unknown orbit {0:?}")]
    UnknownOrbit(String),
    /// The same orbit twice in one block.
    #[error("orbit {0} appears twice in this block")]
    RepeatedOrbit(String),
    /// A block given twice.
    #[error("{0} is given twice")]
    Repeated(String),
    /// The file ended inside a block.
    #[error("the file ends inside this {0} block (no End)")]
    UnexpectedEnd(String),
    /// A line of numbers where none may be.
    #[error("{0}")]
    UnexpectedNumbers(&'static str),
    /// An orbit given with no numbers.
    #[error("orbit {0} is named but given no numbers")]
    EmptyOrbit(String),
    /// A line with the wrong count of numbers.
    #[error("orbit {orbit}: expected {expected} numbers, found {found}")]
    WrongLength {
        /// Orbit name.
        orbit: String,
        /// Expected count.
        expected: usize,
        /// Count found.
        found: usize,
    },
    /// A value out of range for its orbit.
    #[error("orbit {orbit}: {what} {value} is out of range (allowed {min}..={max})")]
    OutOfRange {
        /// Orbit name.
        orbit: String,
        /// What the value is.
        what: &'static str,
        /// The value as written.
        value: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A move permutation that repeats a piece.
    #[error("orbit {orbit}: not a permutation ({piece} appears twice)")]
    NotAPermutation {
        /// Orbit name.
        orbit: String,
        /// The repeated value as written.
        piece: u64,
    },
    /// Piece ids of a start state that skip a value.
    #[error("orbit {orbit}: piece ids must run from the first id with none skipped ({missing} is missing)")]
    PieceIdGap {
        /// Orbit name.
        orbit: String,
        /// The first missing id, as written.
        missing: u64,
    },
    /// `?` where only numbers may stand.
    #[error("orbit {0}: orientation wildcards (?) are not allowed in moves")]
    WildcardInMove(String),
    /// Identical pieces some with and some without a wildcard.
    #[error(
        "orbit {orbit}: identical pieces {piece} must all or none have a wildcard orientation"
    )]
    WildcardConflict {
        /// Orbit name.
        orbit: String,
        /// The piece id as written.
        piece: u64,
    },
    /// A wildcard in a scramble that the start state does not have, or the reverse.
    #[error("orbit {0}: orientation wildcards must match the start state's")]
    WildcardMismatch(String),
    /// A scramble whose pieces differ from the start state's.
    #[error("orbit {0}: the pieces are not those of the start state")]
    PiecesDiffer(String),
    /// Something the file must have.
    #[error("{0}")]
    Missing(String),
    /// A move or alg that cannot be resolved.
    #[error("{name}: {source}")]
    BadAlg {
        /// The move or alg being defined.
        name: String,
        /// Why it cannot be evaluated.
        source: AlgError,
    },
    /// Derived moves that refer to each other.
    #[error("derived moves refer to each other in a cycle: {0}")]
    Cycle(String),
    /// A JSON syntax error.
    #[error("invalid JSON: {0}")]
    Json(String),
    /// A JSON value of the wrong type or shape.
    #[error("{path}: {expected}")]
    JsonShape {
        /// Where, as a JSON path.
        path: String,
        /// What was expected.
        expected: String,
    },
    /// Something the model rejects.
    #[error("{0}")]
    Model(#[from] CoreError),
    /// What the output format cannot express.
    #[error("{0}")]
    Unsupported(String),
}

/// Builds errors for one file.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    pub file: &'a str,
}

impl At<'_> {
    pub fn err(&self, line: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            column: None,
            kind,
        }
    }

    pub fn err_col(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            column: Some(column),
            kind,
        }
    }
}
