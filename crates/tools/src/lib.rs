//! Everyday tools built on twistor's engines: uniformly random positions,
//! scrambles in the notation each puzzle community uses, the sequence
//! utilities puzzle people reach for, and what a puzzle's moves allow.
//!
//! The engines below this crate answer exact questions about a
//! [`Puzzle`](twistor_core::Puzzle) (its group, its distances); this crate
//! turns them into the jobs people bring: *give me a fair scramble*, *tidy
//! this alg*, *how many positions does this puzzle have?* Each tool is a
//! function or a small struct over the model of `twistor_core`; the
//! command-line program only parses arguments and prints.
//!
//! # The tools
//!
//! * [`random::RandomStates`] draws uniformly random group elements and
//!   positions from a puzzle's Schreier–Sims chain, so every reachable
//!   position is exactly equally likely.
//! * [`scramble::Scrambler`] writes scrambles for the WCA's events
//!   ([`scramble::Event`]), random-state where a solver can undo a random
//!   position (3x3x3 by the two-phase solver, 2x2x2, pyraminx and skewb
//!   optimally with `twistor_search`), random-move where the WCA uses
//!   them; [`sheet`] prints a round of them as a PDF, with a
//!   [`picture`] of each scrambled puzzle.
//! * [`sequence`] cancels, orders canonically, and moves rotations to the
//!   end of move sequences through a [`sequence::MoveTable`], and tells
//!   positions apart ([`sequence::PositionFilter`]); [`shorten`] replaces
//!   windows of a sequence by optimal ones; [`rotations`] is the group of
//!   whole-puzzle rotations a definition carries.
//! * [`analysis`] says what the moves allow: move orders, orientation and
//!   parity constraints, the number of distinguishable positions.
//! * [`catalog`] maps the names people type (PuzzleGeometry's, cubing.js's
//!   ids, WCA event ids) to puzzles, and [`handmade`] defines the puzzles
//!   cubing.js writes by hand (clock, Square-1, ...) as cubing.js does.
//!
//! # How data flows
//!
//! A puzzle comes from `twistor_formats` or `twistor_geometry` (or
//! [`catalog`]); algs are `twistor_formats` [`Alg`](twistor_formats::alg::Alg)s.
//! Tools take them with a seed, a [`MoveTable`](sequence::MoveTable) or the
//! solver options they need, and return model values (patterns, moves) or
//! text in the puzzle's notation; errors are [`ToolError`]s that keep the
//! engines' errors as their sources.
//!
//! Seeded randomness is reproducible everywhere ([`rng`]): the same seed
//! gives the same states and scrambles on every platform and version.
//!
//! # Example
//!
//! A seeded random state of the 2x2x2, and a WCA scramble for it:
//!
//! ```
//! use twistor_geometry::{build, PuzzleOptions};
//! use twistor_tools::random::RandomStates;
//! use twistor_tools::scramble::{Event, ScrambleOptions, Scrambler};
//!
//! let cube = build("2x2x2", &PuzzleOptions::default())?;
//! let puzzle = cube.puzzle();
//! let mut states = RandomStates::new(puzzle, &puzzle.search_moves(), 42);
//! let position = states.next_pattern();
//! // The same seed draws the same position.
//! let again = RandomStates::new(puzzle, &puzzle.search_moves(), 42).next_pattern();
//! assert!(position == again);
//!
//! // A random-state 2x2x2 scramble: a uniformly random position, undone by
//! // an optimal solution.
//! let options = ScrambleOptions::default();
//! let mut scrambler = Scrambler::new(Event::Cube222, 7, &options, &mut |_| {})?;
//! let scramble = scrambler.next_scramble();
//! let distance = scramble.distance.unwrap();
//! assert!((4..=11).contains(&distance));
//! assert_eq!(scramble.alg.split(' ').count(), distance);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod analysis;
pub mod bench;
pub mod budget;
pub mod catalog;
pub mod cosets;
pub mod cube;
pub mod handmade;
pub mod picture;
pub mod portfolio;
pub mod random;
pub mod rng;
pub mod rotations;
pub mod scramble;
pub mod sequence;
pub mod sheet;
pub mod shorten;

use twistor_core::CoreError;
use twistor_formats::alg::AlgError;
use twistor_geometry::GeometryError;
use twistor_search::SearchError;
use twistor_staged::StagedError;

use crate::catalog::NameError;

/// What can go wrong in a tool.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ToolError {
    /// An alg that does not parse, expands too far or names an unknown move.
    #[error(transparent)]
    Alg(#[from] AlgError),
    /// A search that cannot be set up.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A conjugated move the puzzle has no name for.
    #[error("{alg}, moved past the rotations before it, is no move this puzzle can name")]
    Unnameable {
        /// The move as written.
        alg: String,
    },
    /// Symmetry asked of a puzzle without rotations.
    #[error("the puzzle defines no whole-puzzle rotations to compare positions under (use a definition with rotations, such as a named puzzle)")]
    NoRotations,
    /// A rotation group too large to enumerate.
    #[error("the rotations generate more than {0} elements")]
    TooManySymmetries(usize),
    /// A named puzzle that cannot be built from its geometry.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    /// A puzzle the model refuses to extend (a move it cannot add).
    #[error(transparent)]
    Model(#[from] CoreError),
    /// A move of an alg for the 3x3x3 solvers that is not a face turn.
    #[error("column {column}: {turn} is not a face turn of the 3x3x3 (only U R F D L B with amounts are supported)")]
    NotFaceTurn {
        /// 1-based column of the move.
        column: usize,
        /// The move as written.
        turn: String,
    },
    /// A position the 3x3x3 solvers cannot take: the puzzle's pieces or
    /// orientations do not all correspond to the cube's.
    #[error("not a position of the cube (pieces or orientations unknown); try the generic search")]
    NotACubePosition,
    /// A position the staged solver cannot take, or a plan it refuses.
    #[error(transparent)]
    Staged(#[from] StagedError),
    /// A puzzle name that could not be built.
    #[error(transparent)]
    Name(#[from] NameError),
    /// A bug: an engine's answer that does not reach the goal.
    #[error("internal error: the answer {answer:?} does not solve the position")]
    WrongAnswer {
        /// The answer, in the puzzle's notation.
        answer: String,
    },
    /// A stage file's move the search's moves do not have.
    #[error("{file}:{line}: stage {stage}: no move {name} among the moves searched ({known})")]
    StageMove {
        /// The stage file.
        file: String,
        /// Its line.
        line: usize,
        /// The stage.
        stage: String,
        /// The move as written.
        name: String,
        /// The moves there are.
        known: String,
    },
    /// Work whose memory, bounded before it starts, exceeds the limit.
    #[error("{what} needs up to {} to build, more than the limit of {}", budget::Bytes(*needs), budget::Bytes(*limit))]
    TooLarge {
        /// What would be built.
        what: String,
        /// Its upper bound, in bytes.
        needs: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// A scramble asked for a puzzle the scrambler does not know.
    #[error("unknown scramble event {event:?}{hint} (known: {known})", known = scramble::Event::names().join(", "))]
    UnknownEvent {
        /// What was asked for (its first 40 characters).
        event: String,
        /// "; did you mean …?" where an event's id or puzzle is near.
        hint: String,
    },
}
