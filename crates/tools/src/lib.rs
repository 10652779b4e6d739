//! Everyday tools built on twistor's engines: uniformly random positions,
//! scrambles in the notation each puzzle community uses, and the sequence
//! utilities puzzle people reach for (cancel, canonical order, shortening,
//! pushing rotations to the end, telling positions apart), plus what a
//! puzzle's moves allow (orders, orientation and parity constraints,
//! distinguishable positions).
//!
//! Each tool is a function or a small struct over the model of
//! `twistor_core`; the command-line program only parses arguments and
//! prints. Seeded randomness is reproducible everywhere ([`rng`]).
#![deny(missing_docs)]

pub mod analysis;
pub mod catalog;
pub mod handmade;
pub mod picture;
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
    /// A scramble asked for a puzzle the scrambler does not know.
    #[error("unknown scramble event {0:?} (known: {known})", known = scramble::Event::names().join(", "))]
    UnknownEvent(String),
}
