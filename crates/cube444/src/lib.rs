//! Random-state 4x4x4 scrambles: a uniformly random position and a
//! competition-length scramble that reaches it.
//!
//! The WCA scrambles the 4x4x4 with random *states*: TNoodle draws a
//! position uniformly and prints the inverse of a solution found by Chen
//! Shuang's three-phase reduction solver. A generic search cannot solve a
//! 4x4x4 (7.4 × 10⁴⁵ positions), and random moves do not make every state
//! equally likely, so this crate is that reduction, written from the
//! published design with its own model and tables:
//!
//! 1. **One pair of centres onto an axis** (27 moves: outer turns and
//!    `Uw Rw Fw`). Coordinate: which 8 of the 24 centre slots hold one
//!    colour pair (735,471, ranked in colex order); the three pairs are
//!    searched together and thousands of solutions gathered.
//! 2. **The other centres and the wing parity** (the cube turned so the
//!    solved pair is on R/L; outer turns and `Uw2 Rw Rw2 Rw' Fw2`): the
//!    U/D/F/B centres split by pair, the R/L centres in a pattern phase 3
//!    can finish, the wings in an even permutation (no "OLL parity").
//!    Solutions are kept only when each edge's two wings lie one in each of
//!    phase 3's wing orbits.
//! 3. **Centres solved and edges paired** (`U D F B`, `R2 L2 Uw2 Rw2
//!    Fw2`), with a parity bit that leaves the reduced cube solvable as a
//!    3x3x3 (no "PLL parity"). The pairing is a permutation of 12; those
//!    within 7 moves are in a hash table, those within 8 and within 9 in
//!    two bit arrays over the 12!/2 even permutations (30 MB each, kept in
//!    the table store; the second, most of a cold start, may be built
//!    after the first scrambles: [`Cube444Solver::load_quick`]).
//! 4. **The 3x3x3** by `twistor-cube333`'s two-phase solver.
//!
//! The distance distributions of phases 2 and 3 equal TNoodle's exactly
//! (four times over, once per way up); scrambles average about 44.5 moves
//! in the WCA's notation (`U R F D L B`, `Uw Rw Fw`: the solution's whole-
//! cube rotations are folded into the moves), as TNoodle's do.
//!
//! Everything is derived from a sticker model ([`Cube444`], 96 stickers in
//! space, a move a quarter turn of the stickers in its layers), so no
//! permutation is written by hand. The crate does no I/O: the large table
//! goes through the [`TableStore`](twistor_core::store::TableStore) it is
//! given.
//!
//! # Example
//!
//! ```no_run
//! use twistor_core::random::SeededRng;
//! use twistor_core::store::NoStore;
//! use twistor_cube333::TwoPhaseTables;
//! use twistor_cube444::{Cube444, Cube444Solver};
//!
//! let three = TwoPhaseTables::load(&NoStore, &mut |_| {});
//! let solver = Cube444Solver::new();
//! let s = solver.random_scramble(&mut SeededRng::new(1), &three)?;
//! let reached = Cube444::solved().apply_alg(&s.alg);
//! assert!(reached.same_up_to_rotation(&s.position));
//! println!("{}", s.alg);
//! # Ok::<(), twistor_cube444::Cube444Error>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]
#![allow(clippy::needless_range_loop)]

mod coords;
mod cube;
mod geometry;
mod search;
mod solver;
mod tables;

pub use cube::{Alg444, Cube444, Move444, Turn444};
pub use solver::{within_one_move, Cube444Solver, Scramble444};

/// What can go wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Cube444Error {
    /// A token of an algorithm is not a 4x4x4 turn.
    #[error("'{token}' (turn {position}) is not a 4x4x4 turn: expected a face U R F D L B, 'w' for two layers, then nothing, 2 or ', or a rotation x y z")]
    BadTurn {
        /// The token.
        token: String,
        /// Its place in the algorithm, from 1.
        position: usize,
    },
    /// Stickers that are no position of the 4x4x4.
    #[error("not a 4x4x4 position: {reason}")]
    InvalidPosition {
        /// What is wrong with the stickers.
        reason: PositionReason,
    },
    /// A bug: the solver failed to solve a position (every 4x4x4
    /// position has a solution).
    #[error("internal error in the 4x4x4 solver: {reason}")]
    Internal {
        /// The step that failed.
        reason: InternalReason,
    },
}

/// Why stickers are no position of the 4x4x4
/// ([`Cube444Error::InvalidPosition`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PositionReason {
    /// A sticker colour of 6 or more.
    #[error("a sticker colour past the sixth")]
    ColourOutOfRange,
    /// A colour on other than four centre stickers.
    #[error("not four centres of each colour")]
    CentreCount,
    /// Wings that are not each of the cube's 24 once.
    #[error("a wing twice, or no wing of the cube")]
    Wings,
    /// Stickers of a corner slot that make no corner of the cube.
    #[error("a corner that is not one of the cube's")]
    UnknownCorner,
    /// Corners that are not each of the cube's once, or twisted.
    #[error("a corner twice, or the corners twisted")]
    Corners,
}

/// Which step of the 4x4x4 solver failed ([`Cube444Error::Internal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InternalReason {
    /// A phase of the reduction found no solution.
    #[error("phase {phase} found nothing")]
    PhaseFoundNothing {
        /// The phase (2 or 3).
        phase: u8,
    },
    /// The reduced cube is not a solvable 3x3x3.
    #[error("the reduction left an unsolvable 3x3x3")]
    UnsolvableReduction,
    /// The 3x3x3 solver found no solution.
    #[error("the 3x3x3 finish found nothing")]
    FinishFoundNothing,
    /// The 3x3x3 solution did not solve the cube.
    #[error("the 3x3x3 finish left the cube unsolved")]
    FinishUnsolved,
}
