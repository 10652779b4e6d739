//! The puzzle model of twistor: orbits, packed patterns and transformations,
//! composition, inversion, powers and orders, and group theory.
//!
//! Everything else in twistor (file formats, search, God's algorithm, the
//! 3x3x3 solvers, geometry) is built on these types. The conventions are
//! those of ksolve/twsearch and cubing.js: permutations are *passive*
//! (slot → piece), orientations are in *state representation* (slot →
//! orientation), and a product `a · b` means `a` then `b`:
//!
//! ```text
//! (a·b).p[i] = a.p[b.p[i]]        (a·b).o[i] = a.o[b.p[i]] + b.o[i]
//! ```
//!
//! ```
//! use twistor_core::{Layout, Orbit, Transformation};
//!
//! // A 4-cycle of edges that flips two of them.
//! let layout = Layout::new(vec![Orbit::new("EDGES", 4, 2)?])?;
//! let t = Transformation::from_bytes(&layout, vec![1, 2, 3, 0, 0, 0, 1, 1])?;
//! assert_eq!(layout.order(&t), 4u32.into());
//! assert!(layout.is_identity(&layout.power(&t, 1_000_000_000)));
//! # Ok::<(), twistor_core::CoreError>(())
//! ```
#![deny(missing_docs)]

mod error;
pub mod group;
pub mod index;
mod layout;
pub mod pattern;
pub mod puzzle;
pub mod random;
pub mod stabilizer;
pub mod symmetry;
pub mod transformation;

pub use error::CoreError;
pub use group::StabilizerChain;
pub use layout::{Layout, Orbit, MAX_ORIENTATIONS, MAX_PIECES};
pub use num_bigint::BigUint;
pub use pattern::{Pattern, PatternOrbit};
pub use puzzle::{
    is_rotation_name, power_name, IllegalPlacement, MoveDef, MoveKind, MoveNotation, MovePower,
    Puzzle,
};
pub use transformation::{OrbitCycles, Transformation};
