//! Random-state Square-1 scrambles: a uniformly random position and a
//! short WCA-notation scramble that reaches it.
//!
//! WCA scrambles for Square-1 are random *states*, not random moves: the
//! official program (TNoodle) draws a position uniformly among all
//! positions the slice can turn in, solves it with Chen Shuang's two-phase
//! solver (sq12phase) and prints the inverse of the solution. The random
//! moves twistor used before reach some shapes far more often than others.
//! This crate does what TNoodle does, with its own implementation of the
//! same design, so its scrambles have the same distribution and about the
//! same length (11–12 slashes).
//!
//! # Design
//!
//! * [`Square1Position`] is 24 slots of 30° (top 0..12, bottom 12..24, the
//!   numbering of TNoodle and cubing.js) holding piece ids, plus the middle
//!   layer. [`Square1Move`] is a WCA `(a,b)` turn or `/`;
//!   [`parse_moves`] and [`format_moves`] read and write the notation.
//! * A *layout* says which slots hold corners. Those in which `/` can turn
//!   are four half-layers of six slots, each filled with whole pieces (13
//!   ways), with eight corners in all: 3,678 layouts. The random position is
//!   a uniform layout, then uniformly shuffled corners and edges, then a
//!   coin for the middle layer; since every layout has the same 8!·8!
//!   fillings this is uniform over positions.
//! * Phase 1 (IDA*) works on the *shape*: layout × the parity of the order
//!   in which the 16 pieces are read from slot 0 (7,356 states). Its goal is
//!   both layers square, with the parity phase 2 can solve; phase 2's moves
//!   keep the squares, so the parity has to be right before it starts. Move
//!   tables give each turn's and `/`'s effect; the pruning table holds each
//!   shape state's distance (each layer turn and each `/` counting one,
//!   up to 18).
//! * Phase 2 (IDA*) keeps both layers square and solves the order of the
//!   corners (8! = 40,320), of the edges (40,320) and the middle layer. The
//!   three move tables (`/`, top, bottom) serve corners and edges, which
//!   move alike. Two pruning tables of 322,560 entries (one kind's order ×
//!   middle layer × whether each layer starts with a corner or an edge)
//!   bound the distance; the heuristic is the larger of the two look-ups.
//!   Phase 2 may use at most min(17, max(31 − phase-1 length, 13)) − 1
//!   moves; phase 1 lengthens until a phase-2 solution fits, and the first
//!   one found is the answer.
//! * As in sq12phase, bottom turns of six slots or more are not tried in
//!   phase 1, nor in phase 2 with more than six moves to go: solutions stay
//!   as short and the search is several times faster. (Past a phase-1
//!   length of 24, never reached in practice, the cuts and phase 2's limit
//!   are lifted, so every position is solved.)
//! * [`Square1Solver`] holds the tables (about 1.3 MB, built in about
//!   30 ms). [`Square1Solver::scramble`] inverts the solution and merges
//!   the turns between two slashes into one tuple with amounts in
//!   -5..=6, as TNoodle prints it.
//!
//! # Example
//!
//! ```
//! use twistor_core::random::SeededRng;
//! use twistor_square1::{Square1Position, Square1Solver};
//!
//! let solver = Square1Solver::new();
//! let mut rng = SeededRng::new(17);
//! let (position, scramble) = solver.random_scramble(&mut rng);
//!
//! // The scramble takes the solved puzzle to exactly the drawn position.
//! let mut puzzle = Square1Position::solved();
//! puzzle.apply_notation(&scramble)?;
//! assert_eq!(puzzle, position);
//!
//! // And the solution takes the position back to solved.
//! let mut back = position;
//! back.apply_moves(&solver.solve(&position))?;
//! assert!(back.is_solved());
//! # Ok::<(), twistor_square1::Square1Error>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod error;
mod notation;
mod position;
mod shape;
mod solver;
mod square;

pub use error::{PositionReason, Square1Error};
pub use notation::{format_moves, invert_moves, normalize, parse_moves, Square1Move};
pub use position::{Square1Position, LAYOUT_COUNT};
pub use solver::Square1Solver;
