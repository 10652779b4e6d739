//! Typed errors for everything that reads user input.

use thiserror::Error;

/// Why a description of a cube (facelets, moves, KPattern JSON, cubies) is
/// not a solvable 3x3x3 position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CubeError {
    /// The facelet string does not have 54 letters.
    #[error(
        "a facelet string has 54 letters (U1..U9 R1..R9 F1..F9 D1..D9 L1..L9 B1..B9), got {0}"
    )]
    FaceletLength(usize),
    /// Two centres have the same colour.
    #[error(
        "the six centres (positions U5 R5 F5 D5 L5 B5) must have six different colours, got {centers:?}"
    )]
    CentersNotDistinct {
        /// The six centre colours, in the order U R F D L B.
        centers: String,
    },
    /// A sticker's colour is not the colour of any centre.
    #[error("sticker {position} has colour {colour:?}, which is not the colour of any centre ({centers})")]
    UnknownColour {
        /// Facelet name, such as `R3`.
        position: String,
        /// The letter found.
        colour: char,
        /// The six centre colours.
        centers: String,
    },
    /// A colour appears on a number of stickers other than nine.
    #[error("colour {colour:?} appears on {count} stickers, expected 9")]
    StickerCount {
        /// The colour.
        colour: char,
        /// How many stickers have it.
        count: usize,
    },
    /// The stickers of a corner slot do not form any corner.
    #[error("the stickers of corner slot {slot} ({colours}) are not the colours of any corner")]
    BadCorner {
        /// Slot name, such as `URF`.
        slot: String,
        /// The sticker colours found there.
        colours: String,
    },
    /// The stickers of an edge slot do not form any edge.
    #[error("the stickers of edge slot {slot} ({colours}) are not the colours of any edge")]
    BadEdge {
        /// Slot name, such as `UR`.
        slot: String,
        /// The sticker colours found there.
        colours: String,
    },
    /// A cubie is missing or appears more than once.
    #[error("cubie {cubie} appears {count} times, expected once")]
    CubieCount {
        /// The cubie's name, such as `UFL`.
        cubie: String,
        /// How often it appears.
        count: usize,
    },
    /// The corners are twisted: their total twist is not 0 mod 3.
    #[error("the corners' twists sum to {0} mod 3 (one corner is twisted); must be 0")]
    Twist(u8),
    /// An odd number of edges is flipped.
    #[error("an odd number of edges is flipped (one edge is flipped)")]
    Flip,
    /// Corner and edge permutations have different parities.
    #[error("corner and edge permutations have different parity (two pieces are swapped)")]
    Parity,
    /// A piece id or orientation is out of range.
    #[error("{kind} {what} {value} out of range 0..{limit}")]
    BadPiece {
        /// `corner` or `edge`.
        kind: &'static str,
        /// `id` or `orientation`.
        what: &'static str,
        /// The value found.
        value: u8,
        /// The bound it must be below.
        limit: u8,
    },
    /// A move sequence cannot be read.
    #[error("column {column}: {message}")]
    Alg {
        /// 1-based column of the problem.
        column: usize,
        /// What is wrong.
        message: String,
    },
}
