//! The 3x3x3 Rubik's cube: a cubie model, Kociemba's two-phase solver and
//! an optimal solver.
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
//!   facelet strings ([`FaceletCube`], Kociemba's URFDLB order), face-turn
//!   sequences ([`MoveSeq`]) and cubing.js KPattern JSON ([`kpattern`]),
//!   checking every defect with its own [`CubeError`].
//! * [`coord`], [`symmetry`] and [`tables`] hold the coordinates, the 48
//!   symmetries and the move and symmetry tables; [`prune`] the
//!   symmetry-reduced pruning tables.
//! * [`twophase`] is the two-phase solver, [`optimal`] the optimal one.
//!
//! * [`recognize`] finds the 3x3x3 in any puzzle definition (a `.tws` or
//!   KPuzzle file numbering pieces its own way), so the generic tools can
//!   hand such a cube to these solvers and map the answer back.
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
//! use twistor_cube333::twophase::{solve, SolveOptions, TwoPhaseTables};
//! use twistor_cube333::{CubieCube, MoveSeq};
//!
//! let scramble: MoveSeq = "R U R' U' F2 D L'".parse()?;
//! let cube = CubieCube::from_moves(&scramble.0);
//! assert_eq!(cube.to_string().len(), 54);
//!
//! # let dir = std::env::temp_dir().join("twistor-cube333-doctest");
//! // Tables kept in a directory: built once (seconds), then mapped.
//! let store = twistor_store::DirStore::new(dir);
//! let tables = TwoPhaseTables::load(&store, &mut |_event| {});
//! let solution = solve(&tables, &cube, &SolveOptions { max_length: 7, ..Default::default() })?;
//! assert!(cube.apply_moves(&solution.moves.0).is_solved());
//! assert!(solution.moves.len() <= 7);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
// Cube code walks several parallel fixed-size arrays (slots, pieces,
// orientations) by index; iterator chains would hide which is which.
#![allow(clippy::needless_range_loop)]

mod cache;
pub mod coord;
pub mod cubie;
mod error;
pub mod facelet;
pub mod kpattern;
pub mod moves;
pub mod optimal;
pub mod prune;
pub mod recognize;
pub mod symmetry;
pub mod tables;
pub mod timing;
pub mod twophase;

pub use cubie::CubieCube;
pub use error::CubeError;
pub use facelet::FaceletCube;
pub use moves::{Face, Move, MoveSeq};
