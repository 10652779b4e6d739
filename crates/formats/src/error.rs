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
    #[error("unknown command {command:?}")]
    UnknownCommand {
        /// The word, as written (at most 40 characters of it).
        command: String,
    },
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
    #[error("unknown orbit {orbit:?}")]
    UnknownOrbit {
        /// The orbit name, as written.
        orbit: String,
    },
    /// The same orbit twice in one block.
    #[error("orbit {orbit} appears twice in this block")]
    RepeatedOrbit {
        /// Orbit name.
        orbit: String,
    },
    /// A stage defined twice.
    #[error("stage {stage} is given twice")]
    RepeatedStage {
        /// Stage name.
        stage: String,
    },
    /// A stage with two `Moves` lines.
    #[error("Moves of stage {stage} is given twice")]
    RepeatedStageMoves {
        /// Stage name.
        stage: String,
    },
    /// An orbit defined by two `Set` lines.
    #[error("Set {orbit} is given twice")]
    RepeatedSet {
        /// Orbit name.
        orbit: String,
    },
    /// A second start state block.
    #[error("the start state (Solved/StartState) is given twice")]
    RepeatedStart,
    /// A move defined twice.
    #[error("move {name} is given twice")]
    RepeatedMove {
        /// Move name.
        name: String,
    },
    /// The file ended inside a block.
    #[error("the file ends inside this {block} block (no End)")]
    UnexpectedEnd {
        /// The block's command (`Solved`, `Move`, `ScrambleAlg`...).
        block: String,
    },
    /// A line of numbers before the first orbit name of a block.
    #[error("numbers before any orbit name")]
    NumbersBeforeOrbit,
    /// A third line of numbers after an orbit name (pieces, then
    /// orientations, is all there is).
    #[error("a third line of numbers for one orbit")]
    ThirdNumberLine,
    /// An orbit given with no numbers.
    #[error("orbit {orbit} is named but given no numbers")]
    EmptyOrbit {
        /// Orbit name.
        orbit: String,
    },
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
    #[error("orbit {orbit}: orientation wildcards (?) are not allowed in moves")]
    WildcardInMove {
        /// Orbit name.
        orbit: String,
    },
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
    #[error("orbit {orbit}: orientation wildcards must match the start state's")]
    WildcardMismatch {
        /// Orbit name.
        orbit: String,
    },
    /// A scramble whose pieces differ from the start state's.
    #[error("orbit {orbit}: the pieces are not those of the start state")]
    PiecesDiffer {
        /// Orbit name.
        orbit: String,
    },
    /// A `.tws` file with no `Set` line.
    #[error("no Set lines: a puzzle needs orbits")]
    NoOrbits,
    /// A `.tws` file with no start state block.
    #[error("no Solved block")]
    NoStartState,
    /// A `.tws` file that defines no move.
    #[error("no moves: a puzzle needs at least one Move")]
    NoMoves,
    /// A KPuzzle definition whose moves (derived ones too) are none.
    #[error("the definition has no moves")]
    EmptyMoves,
    /// A KPuzzle definition without a member it must have.
    #[error("the definition has no {member:?} member")]
    MissingMember {
        /// The member's name.
        member: String,
    },
    /// A JSON object without a member it must have.
    #[error("{path} has no {member}")]
    MissingField {
        /// Where the object is, as a JSON path.
        path: String,
        /// The member's name.
        member: String,
    },
    /// A KPuzzle pattern without an orbit of the puzzle.
    #[error("{path} has no entry for orbit {orbit}")]
    MissingOrbitEntry {
        /// Where the pattern is, as a JSON path.
        path: String,
        /// Orbit name.
        orbit: String,
    },
    /// A stage file with no stage.
    #[error("no Stage line")]
    NoStages,
    /// A stage that names no pieces.
    #[error("stage {stage} names no Pieces")]
    StageWithoutPieces {
        /// Stage name.
        stage: String,
    },
    /// More stages than a stage file may have.
    #[error("more than {limit} stages")]
    TooManyStages {
        /// The most a file may have.
        limit: usize,
    },
    /// A move or alg that cannot be resolved.
    #[error("{name}: {source}")]
    BadAlg {
        /// The move or alg being defined.
        name: String,
        /// Why it cannot be evaluated.
        source: AlgError,
    },
    /// Derived moves that refer to each other.
    #[error("derived moves refer to each other in a cycle: {}", .moves.join(", "))]
    Cycle {
        /// The moves left unresolved, in the order defined.
        moves: Vec<String>,
    },
    /// A JSON syntax error.
    #[error("invalid JSON: {reason}")]
    Json {
        /// What is wrong.
        reason: JsonReason,
    },
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
    #[error("{reason}")]
    Unsupported {
        /// What it is.
        reason: UnsupportedReason,
    },
}

/// What is wrong in a JSON text ([`ParseErrorKind::Json`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum JsonReason {
    /// Text after the value.
    #[error("unexpected text after the JSON value")]
    TrailingText,
    /// A character that cannot stand here.
    #[error("unexpected character")]
    UnexpectedCharacter,
    /// Arrays and objects nested too deeply.
    #[error("nested too deeply")]
    TooDeep,
    /// The text ends inside a value.
    #[error("unexpected end of input")]
    UnexpectedEnd,
    /// An object member whose key is not a string.
    #[error("expected a string key")]
    ExpectedKey,
    /// A key not followed by `:`.
    #[error("expected ':'")]
    ExpectedColon,
    /// An object member followed by neither `,` nor `}`.
    #[error("expected ',' or '}}'")]
    ExpectedCommaOrBrace,
    /// An array element followed by neither `,` nor `]`.
    #[error("expected ',' or ']'")]
    ExpectedCommaOrBracket,
    /// A malformed number.
    #[error("bad number")]
    BadNumber,
    /// The text ends inside a `\u` escape.
    #[error("unexpected end in \\u escape")]
    ShortUnicodeEscape,
    /// A `\u` escape of no character.
    #[error("bad \\u escape")]
    BadUnicodeEscape,
    /// A string with no closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// A `\u` escape of half a surrogate pair.
    #[error("unpaired surrogate in \\u escape")]
    UnpairedSurrogate,
    /// A backslash followed by no escape.
    #[error("bad escape in string")]
    BadEscape,
    /// A control character in a string.
    #[error("control character in string")]
    ControlCharacter,
    /// A string whose bytes are not UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
}

/// What the `.tws` writer cannot express ([`ParseErrorKind::Unsupported`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnsupportedReason {
    /// A start state whose identical pieces are some wild, some not.
    #[error("the start state: orbit {orbit} has identical pieces some with and some without an orientation wildcard, which .tws cannot express")]
    MixedWildcards {
        /// Orbit name.
        orbit: String,
    },
    /// An orientation modulus other than 0 (known) and 1 (`?`).
    #[error("{position}: orbit {orbit} has orientationMod {modulus}, which .tws cannot express (only ? wildcards)")]
    OrientationMod {
        /// The position: `the start state`, or a scramble's name.
        position: String,
        /// Orbit name.
        orbit: String,
        /// The modulus.
        modulus: u8,
    },
    /// An orbit name that is not a word a block reads as an orbit name.
    #[error("the orbit name {name:?} cannot be written in .tws (names there are single words that cannot be read as numbers or End)")]
    OrbitName {
        /// The name.
        name: String,
    },
    /// A move name that is not a single word.
    #[error("the move name {name:?} cannot be written in .tws (names there are single words)")]
    MoveName {
        /// The name.
        name: String,
    },
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
