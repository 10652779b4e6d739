//! Search engines for twistor: the moves a search turns, canonical
//! sequences, pruning tables, optimal search (IDA*) and God's algorithm.
//!
//! This crate answers the two questions asked of any puzzle built in
//! [`twistor_core`]: *how far is this position from the goal, and by which
//! moves?* (the [`Solver`]) and *how many positions are at each distance?*
//! (the [`gods`] module). It works on packed patterns of any
//! [`Puzzle`](twistor_core::Puzzle), whatever file, name or geometry it came
//! from; the 3x3x3's specialised solvers are in `twistor_cube333`.
//!
//! # How data flows
//!
//! 1. A [`MoveSet`] takes a puzzle's moves (or the ones named) and a
//!    [`Metric`], and lists the moves a search makes: each power of each
//!    grip (`U`, `U2`, `U'`), with its transformation.
//! 2. A [`CanonicalFsm`] is built from the move set: an automaton over the
//!    moves that allows each sequence of commuting moves in one order only
//!    and never two moves of one grip in a row, so no search expands the
//!    same product twice for those reasons.
//! 3. [`Solver::new`] plans pruning tables ([`PruneTable`]: exact distances
//!    of projected positions, see [`projection`]) and, when there is room,
//!    a [`hashed`] table of whole positions near the goal, within the
//!    memory it is given. Tables come from the
//!    [`TableStore`](twistor_core::store::TableStore) it is given when
//!    that holds them and are filled on its threads otherwise; what
//!    happens to them is reported as [`TableEvent`]s, and grown tables go
//!    back to the store when the caller asks ([`Solver::save_grown_tables`]).
//! 4. [`Solver::solutions`] runs IDA* from a position, depth by depth, on
//!    several threads, and yields solutions shortest first as they are
//!    taken (dropping it stops the search); [`Solver::solve`] collects
//!    them into a [`SolveReport`]. Solutions are indices into the move
//!    set, in an order that does not depend on the thread count;
//!    [`Solver::names`] turns them into move names.
//!
//! The goal need not be the solved state: [`target::Goal`] puts positions
//! in the terms of a partial target (pieces made alike, orientations
//! unknown), whose pattern the solver then searches for.
//!
//! Engines do no I/O and know nothing of the terminal: long jobs report
//! progress through a callback and can be stopped through a flag (an
//! [`AtomicBool`](std::sync::atomic::AtomicBool) the caller raises).
//!
//! # Example
//!
//! The 2x2x2, built from its geometry, scrambled and solved optimally with
//! `<U, R, F>`:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//!
//! use twistor_formats::{alg::Alg, resolve::apply_alg};
//! use twistor_geometry::{build, PuzzleOptions};
//! use twistor_search::{Metric, MoveSet, SolveOptions, Solver, SolverOptions};
//!
//! let cube = build("2x2x2", &PuzzleOptions::default())?;
//! let puzzle = cube.puzzle();
//! let moves = MoveSet::named(puzzle, &["U".into(), "R".into(), "F".into()], Metric::Htm)?;
//!
//! let stop = AtomicBool::new(false);
//! let options = SolverOptions { memory_bytes: 4 << 20, ..Default::default() };
//! let goal = puzzle.start().clone();
//! let mut solver = Solver::new(puzzle, moves, goal, &options, &stop, &mut |_event| {})?;
//!
//! let scramble: Alg = "R U2 F' R U' F2".parse()?;
//! let scrambled = apply_alg(puzzle, puzzle.start(), &scramble)?;
//! let report = solver.solve(&scrambled, &SolveOptions::default(), &stop, &mut |_progress| {});
//! let solution = &report.solutions[0];
//! assert!(solution.len() <= 6);
//!
//! // Playing the solution returns the cube to its start.
//! let layout = puzzle.layout();
//! let mut position = scrambled.clone();
//! for &m in solution {
//!     position = layout.apply(&position, &solver.moves().moves()[m].transformation);
//! }
//! assert!(position == *puzzle.start());
//! println!("solution: {}", solver.names(solution).join(" "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod cache;
pub mod canonical;
pub mod gods;
// The pattern databases are implementation, reached through `Solver`;
// public (and hidden from the docs) only for this crate's benchmarks and
// integration tests.
#[doc(hidden)]
pub mod hashed;
pub mod moves;
mod planner;
#[doc(hidden)]
pub mod projection;
pub mod solver;
#[doc(hidden)]
pub mod table;
pub mod target;

pub use canonical::CanonicalFsm;
pub use moves::{Grip, Metric, MoveSet, SearchMove};
pub use solver::{
    SaveGrown, SearchProgress, SolutionCount, Solutions, SolveOptions, SolveReport, Solver,
    SolverOptions, TableEvent, TableGrowth,
};
pub use table::{FillLimit, FillProgress, LayerCost, PruneTable};

/// What can go wrong setting up a search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A move the puzzle does not have.
    #[error("the puzzle has no move {name:?}")]
    UnknownMove {
        /// The move as written.
        name: String,
    },
    /// A move listed twice.
    #[error("move {name} is listed twice")]
    MoveListedTwice {
        /// The move as written.
        name: String,
    },
    /// An empty move list.
    #[error("no moves to search with")]
    NoMoves,
    /// More move classes than the canonical automaton handles.
    #[error("{0} move classes; canonical sequences handle at most 64")]
    TooManyGrips(usize),
    /// The work was stopped before it finished.
    #[error("stopped")]
    Stopped,
    /// A move whose order is too large to enumerate its powers.
    #[error("move {name} has too large an order to search with")]
    MoveOrderTooLarge {
        /// The move as written.
        name: String,
    },
}
