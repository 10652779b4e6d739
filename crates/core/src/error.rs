//! Errors of the puzzle model.

/// What can be wrong with a model built from outside data.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoreError {
    /// An orbit with no pieces or more than [`MAX_PIECES`](crate::MAX_PIECES).
    #[error("orbit {orbit}: {pieces} pieces (an orbit has 1 to 255)")]
    OrbitSize {
        /// Orbit name.
        orbit: String,
        /// The count given.
        pieces: usize,
    },
    /// An orbit with no orientations or more than [`MAX_ORIENTATIONS`](crate::MAX_ORIENTATIONS).
    #[error("orbit {orbit}: {orientations} orientations (a piece has 1 to 127)")]
    OrbitOrientations {
        /// Orbit name.
        orbit: String,
        /// The count given.
        orientations: usize,
    },
    /// A puzzle with no orbits.
    #[error("a puzzle needs at least one orbit")]
    NoOrbits,
    /// Two orbits with the same name.
    #[error("orbit {orbit} is defined twice")]
    DuplicateOrbit {
        /// Orbit name.
        orbit: String,
    },
    /// Two moves with the same name.
    #[error("move {name} is defined twice")]
    DuplicateMove {
        /// Move name.
        name: String,
    },
    /// Packed data of the wrong length.
    #[error("expected {expected} entries, found {found}")]
    StateLength {
        /// Expected length.
        expected: usize,
        /// Length found.
        found: usize,
    },
    /// An orbit's data of the wrong length.
    #[error("orbit {orbit}: {list} has {found} entries, expected {expected} (one a piece)")]
    OrbitLength {
        /// Orbit name.
        orbit: String,
        /// Which list: `pieces`, `orientation` or `orientationMod`.
        list: &'static str,
        /// Expected length.
        expected: usize,
        /// Length found.
        found: usize,
    },
    /// A piece id beyond the orbit.
    #[error("orbit {orbit}: slot {slot} holds piece {piece}, beyond the orbit")]
    PieceOutOfRange {
        /// Orbit name.
        orbit: String,
        /// Slot (0-based).
        slot: usize,
        /// Piece id (0-based).
        piece: usize,
    },
    /// A transformation that maps two slots to the same piece.
    #[error("orbit {orbit}: not a permutation (piece {piece} appears twice)")]
    NotAPermutation {
        /// Orbit name.
        orbit: String,
        /// The repeated piece (0-based).
        piece: usize,
    },
    /// An orientation at or above its modulus.
    #[error("orbit {orbit}: slot {slot} has orientation {value}, not below {modulus}")]
    OrientationOutOfRange {
        /// Orbit name.
        orbit: String,
        /// Slot (0-based).
        slot: usize,
        /// The value.
        value: usize,
        /// The modulus it must be below.
        modulus: usize,
    },
    /// An orientation modulus that is neither 0 nor a proper divisor.
    #[error("orbit {orbit}: slot {slot} has orientationMod {modulus}; it must be 0 or a proper divisor of {orientations}")]
    BadOrientationMod {
        /// Orbit name.
        orbit: String,
        /// Slot (0-based).
        slot: usize,
        /// The modulus given.
        modulus: usize,
        /// The orbit's orientation count.
        orientations: usize,
    },
}
