//! The 3x3x3 Rubik's cube: a cubie model, Kociemba's two-phase solver and
//! an optimal solver.
#![deny(missing_docs)]

pub mod coord;
pub mod cubie;
mod error;
pub mod facelet;
pub mod kpattern;
pub mod moves;
pub mod symmetry;
pub mod tables;
pub mod cache;
pub mod prune;
pub mod twophase;

pub use cubie::CubieCube;
pub use error::CubeError;
pub use facelet::FaceletCube;
pub use moves::{Face, Move, MoveSeq};
