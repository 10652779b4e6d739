//! Text in and out of twistor: ksolve/twsearch `.tws` definitions and
//! scramble files, cubing.js KPuzzle and KPattern JSON, and move notation.
//!
//! Puzzles reach twistor as text written for other programs (twsearch,
//! ksolve, cubing.js) and leave it as text those programs read back. This
//! crate is the border: it turns that text into the model of
//! [`twistor_core`] and back, and it owns the one notation every command
//! speaks, cubing.js's algs.
//!
//! # Main types and functions
//!
//! * [`read_puzzle`] reads a definition in either format
//!   ([`PuzzleFormat::detect`] tells which) into a
//!   [`Puzzle`]; [`write_puzzle`] writes one.
//!   [`tws`] and [`kpuzzle`] hold each format's readers and writers,
//!   including scramble files ([`tws::parse_scrambles`]) and KPattern
//!   positions ([`kpuzzle::parse_kpattern`]).
//! * [`alg::Alg`] is an alg as cubing.js reads it (groupings, commutators,
//!   conjugates, repetitions); it parses, prints, inverts and expands, and
//!   knows nothing of any puzzle.
//! * [`resolve`] evaluates an alg on a puzzle: each move is looked up in the
//!   puzzle's notation and definition, giving a
//!   [`Transformation`](twistor_core::Transformation) or a new pattern.
//! * [`positions`] reads whatever another command wrote (a scramble file,
//!   KPatterns, one alg a line), so commands pipe into each other.
//! * [`stages`] reads a stage file, a plan for the staged solver.
//! * [`ParseError`] says the file, the line (and column where there is one)
//!   and what is wrong ([`ParseErrorKind`]).
//!
//! # How data flows
//!
//! Text → reader → [`Puzzle`] → engines, and back:
//! model → writer → text. Readers take the text and a name for it (used in
//! error messages, which always say the file, the line and what is wrong);
//! they never panic on bad input and bound their work by the input's size.
//! Writers produce text the matching reader reads back to the same model
//! (the crate's property tests check the round trips).
//!
//! # Example
//!
//! ```
//! use twistor_formats::{alg::Alg, read_puzzle, resolve::alg_transformation};
//!
//! let tws = "Name Flip\nSet EDGES 2 2\nSolved\nEDGES\n1 2\n0 0\nEnd\n\
//!            Move F\nEDGES\n2 1\n1 0\nEnd\n";
//! let puzzle = read_puzzle(tws, "flip.tws")?;
//! let f2 = alg_transformation(&puzzle, &"F2".parse::<Alg>().unwrap()).unwrap();
//! // F swaps the edges and flips one; F2 flips both.
//! assert_eq!(f2.as_bytes(), &[0, 1, 1, 1]);
//! # Ok::<(), twistor_formats::ParseError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod alg;
mod error;
mod json;
pub mod kpuzzle;
pub mod positions;
pub mod resolve;
pub mod stages;
pub mod tws;

pub use error::{JsonReason, ParseError, ParseErrorKind, UnsupportedReason};

use twistor_core::Puzzle;

/// A file format for puzzle definitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleFormat {
    /// ksolve/twsearch `.tws`.
    Tws,
    /// cubing.js KPuzzle JSON.
    KPuzzleJson,
}

impl PuzzleFormat {
    /// The format a file's name or content says: `.json` or text starting
    /// with `{` is KPuzzle JSON, anything else `.tws`.
    pub fn detect(file: &str, text: &str) -> PuzzleFormat {
        if file.to_ascii_lowercase().ends_with(".json") || text.trim_start().starts_with('{') {
            PuzzleFormat::KPuzzleJson
        } else {
            PuzzleFormat::Tws
        }
    }
}

/// Reads a puzzle definition in the format [`PuzzleFormat::detect`] finds.
pub fn read_puzzle(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let text = positions::strip_bom(text);
    match PuzzleFormat::detect(file, text) {
        PuzzleFormat::Tws => tws::parse_tws(text, file),
        PuzzleFormat::KPuzzleJson => kpuzzle::parse_kpuzzle(text, file),
    }
}

/// Writes a puzzle definition in `format`.
pub fn write_puzzle(puzzle: &Puzzle, format: PuzzleFormat) -> Result<String, ParseError> {
    match format {
        PuzzleFormat::Tws => tws::write_tws(puzzle),
        PuzzleFormat::KPuzzleJson => Ok(kpuzzle::write_kpuzzle(puzzle)),
    }
}
