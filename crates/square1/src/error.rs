//! Typed errors for everything that reads user input.

use thiserror::Error;

/// Why Square-1 notation, a move or a description of a position was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Square1Error {
    /// The text is not WCA Square-1 notation (`(a,b)` tuples and `/`).
    #[error("malformed Square-1 notation at byte {offset}: {reason}")]
    Syntax {
        /// Byte offset of the offending character in the input.
        offset: usize,
        /// What was expected there.
        reason: &'static str,
    },
    /// A turn amount is outside -11..=11.
    #[error("turn amount {value} at byte {offset} is outside -11..=11")]
    AmountOutOfRange {
        /// Byte offset of the number in the input.
        offset: usize,
        /// The amount as written.
        value: i64,
    },
    /// A `/` was applied while a layer's cut runs through a corner.
    #[error("move {index} (`/`) would slice through a corner")]
    IllegalSlash {
        /// Index of the `/` in the move sequence (0-based).
        index: usize,
    },
    /// A list of slot contents is not a Square-1 position.
    #[error("not a Square-1 position: {reason}")]
    InvalidPosition {
        /// What is wrong with the slots.
        reason: PositionReason,
    },
}

/// Why slot contents are no Square-1 position
/// ([`Square1Error::InvalidPosition`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum PositionReason {
    /// A piece id of 16 or more.
    #[error("piece ids are 0..16")]
    PieceOutOfRange,
    /// A corner in other than two slots, or an edge in other than one.
    #[error("each corner fills two slots and each edge one")]
    PieceCount,
    /// A corner whose two slots are not side by side in one layer.
    #[error("a corner's two slots must be adjacent in one layer")]
    SplitCorner,
    /// A layer that no rotation lines up for `/`.
    #[error("a layer has no rotation that lets the slice turn")]
    NoSliceTurn,
}
