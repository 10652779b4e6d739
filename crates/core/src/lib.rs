//! The puzzle model of twistor: orbits, packed patterns and transformations,
//! composition, inversion, powers and orders, and group theory.
//!
//! Every other twistor crate speaks these types: the file formats read text
//! into them, geometry cuts solids into them, the engines search over them
//! and the tools draw, scramble and rewrite them. Keeping the model in one
//! small crate, free of I/O and notation, is what lets a puzzle read from a
//! `.tws` file, a KPuzzle or a name like `megaminx` go through the same
//! solver.
//!
//! # Main types
//!
//! * A [`Layout`] is a list of [`Orbit`]s (sets of interchangeable pieces,
//!   each with its orientation count) and says how a position packs into
//!   bytes: per orbit, the piece in each slot, then each slot's orientation.
//! * A [`Transformation`] is what a move or sequence does: distinguishable
//!   pieces, full orientations. Transformations compose, invert and have
//!   orders ([`Layout::compose_into`], [`Layout::order`]).
//! * A [`Pattern`] is what a puzzle looks like: it may have identical
//!   pieces, unknown orientations or orientations known modulo a divisor
//!   (cubing.js's `orientationMod`). A pattern followed by a transformation
//!   is a pattern ([`Layout::apply`]); patterns never stand on the right.
//! * A [`Puzzle`] is a definition: a layout, a start pattern and named moves
//!   ([`MoveDef`]), with an optional [`MoveNotation`] that reads the names a
//!   community writes (`Rw`, `x`) into the puzzle's moves.
//! * [`StabilizerChain`] (Schreier–Sims, in [`group`]) gives the exact order
//!   of the group some moves generate, membership and uniformly random
//!   elements; [`stabilizer`] counts distinguishable positions, [`index`]
//!   numbers positions perfectly for exhaustive enumeration, [`symmetry`]
//!   finds the rotations a search may reduce by.
//!
//! # How data flows
//!
//! Readers build a [`Layout`] and a [`Puzzle`] once; from then on positions
//! are plain byte slices of the layout's length, so engines can store
//! millions of them and compose them with [`Layout::compose_into`] without
//! allocating. Everything here is checked when built (a transformation that
//! maps two slots to one piece is refused) so the byte-level operations can
//! trust their input.
//!
//! The conventions are those of ksolve/twsearch and cubing.js: permutations
//! are *passive* (slot → piece), orientations are in *state representation*
//! (slot → orientation), and a product `a · b` means `a` then `b`:
//!
//! ```text
//! (a·b).p[i] = a.p[b.p[i]]        (a·b).o[i] = a.o[b.p[i]] + b.o[i]
//! ```
//!
//! # Example
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
#![forbid(unsafe_code)]

pub mod distances;
mod error;
pub mod group;
pub mod index;
mod layout;
pub mod lazy;
pub mod pattern;
pub mod puzzle;
pub mod random;
pub mod stabilizer;
pub mod store;
pub mod symmetry;
pub mod transformation;

pub use error::CoreError;
pub use group::StabilizerChain;
pub use layout::{Layout, Orbit, SparseTransformation, MAX_ORIENTATIONS, MAX_PIECES};
pub use num_bigint::BigUint;
pub use pattern::{Pattern, PatternOrbit};
pub use puzzle::{
    is_rotation_name, power_name, IllegalPlacement, MoveDef, MoveKind, MoveNotation, MovePower,
    ProjectedGroup, Puzzle,
};
pub use transformation::{OrbitCycles, Transformation};
