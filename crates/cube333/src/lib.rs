//! The 3x3x3 Rubik's cube: a cubie model, Kociemba's two-phase solver, an
//! optimal solver and a solver of whole cosets.
//!
//! The generic engines of `twistor_search` solve any puzzle, but the 3x3x3's
//! 4.3 × 10¹⁹ positions need what only a dedicated model gives: coordinates
//! small enough to index, the cube's 48 symmetries, and pruning tables built
//! for them. This crate is that model, with the two solvers built on it: a
//! near-optimal answer in milliseconds (two-phase) or a provably shortest
//! one (optimal).
//!
//! # Main types
//!
//! * [`CubieCube`] is the cube at the cubie level; it converts from and to
//!   facelet strings ([`FaceletCube`], Kociemba's URFDLB order) and
//!   face-turn sequences ([`MoveSeq`] of [`FaceTurn`]s), checking every
//!   defect with its own [`CubeError`].
//! * [`TwoPhaseTables`] with [`solve_two_phase`] is the two-phase solver,
//!   [`OptimalSolver`] the optimal one.
//! * [`CosetSolver`] finds the distance of every position of a coset of
//!   `H = <U, D, R2, L2, F2, B2>` (19.5 billion positions) at once, by
//!   Rokicki's method; [`CosetId`] names a coset by its phase-1
//!   coordinates, gives a cube of it and its canonical form under the 16
//!   symmetries that keep the UD axis.
//! * [`CubeCorrespondence`] finds the 3x3x3 in any puzzle definition (a
//!   `.tws` or KPuzzle file numbering pieces its own way), so the generic
//!   tools can hand such a cube to these solvers and map the answer back.
//!
//! That is the whole public surface: the coordinates, the 48 symmetries,
//! the move, symmetry and pruning tables are private modules
//! (`coord`, `symmetry`, `tables`, `prune`, `cache`), free to change; so
//! are the coset solver's sets and tables (`coset`).
//!
//! # How data flows
//!
//! A position enters as facelets, moves or a recognised definition and
//! becomes a [`CubieCube`]; a solver maps it to coordinates, searches with
//! its tables and returns a [`MoveSeq`], which [`CubieCube::apply_moves`]
//! checks. The tables are built once a process, or loaded from the
//! [`TableStore`](twistor_core::store::TableStore) the solvers are given
//! (the `twistor-store` crate keeps them in a cache directory): the
//! solvers do no I/O, and report what happens to the tables through a
//! callback.
//!
//! # Example
//!
//! ```
//! use twistor_cube333::{solve_two_phase, CubieCube, MoveSeq, TwoPhaseOptions, TwoPhaseTables};
//!
//! let scramble: MoveSeq = "R U R' U' F2 D L'".parse()?;
//! let cube = CubieCube::from_moves(&scramble.0);
//! assert_eq!(cube.to_string().len(), 54);
//!
//! // Tables kept in the user's cache directory: built once (seconds),
//! // then mapped.
//! let dir = twistor_store::default_cache_dir().expect("a cache directory");
//! let store = twistor_store::DirStore::new(dir);
//! let tables = TwoPhaseTables::load(&store, &mut |_event| {});
//! let options = TwoPhaseOptions { max_length: 7, ..Default::default() };
//! let solution = solve_two_phase(&tables, &cube, &options)?;
//! assert!(cube.apply_moves(&solution.moves.0).is_solved());
//! assert!(solution.moves.len() <= 7);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
// Cube code walks several parallel fixed-size arrays (slots, pieces,
// orientations) by index; iterator chains would hide which is which.
#![allow(clippy::needless_range_loop)]

mod cache;
mod coord;
mod coset;
mod cubie;
mod error;
mod facelet;
mod moves;
mod optimal;
mod prune;
mod recognize;
mod symmetry;
mod tables;
mod twophase;

#[cfg(test)]
mod tests;

pub use coset::{
    CosetError, CosetEvent, CosetId, CosetOptions, CosetReport, CosetSolver, CosetWorkspace,
    DepthStats, COSET_COUNT, COSET_SIZE, DEFAULT_PHASE1_DEPTH,
};
pub use cubie::CubieCube;
pub use error::CubeError;
pub use facelet::FaceletCube;
pub use moves::{Face, FaceTurn, MoveSeq};
pub use optimal::{
    OptimalOptions, OptimalProgress, OptimalSolution, OptimalSolver, OptimalTableKind, ProgressFn,
};
pub use recognize::CubeCorrespondence;
pub use twophase::{
    solve as solve_two_phase, solve_batch as solve_two_phase_batch, TwoPhaseError, TwoPhaseOptions,
    TwoPhaseSolution, TwoPhaseTableKind, TwoPhaseTables,
};
