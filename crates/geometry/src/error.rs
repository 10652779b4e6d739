//! Why a puzzle could not be built from geometry.

use thiserror::Error;

use crate::PieceKind;

/// Everything that can go wrong turning a descriptor or a name into a puzzle.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum GeometryError {
    /// The descriptor is empty.
    #[error("empty puzzle descriptor (expected a solid letter such as `c`, then cuts such as `f 0.333`)")]
    EmptyDescriptor,
    /// The first word is not one of `t c o d i`.
    #[error("unknown solid {solid:?}: expected t (tetrahedron), c (cube), o (octahedron), d (dodecahedron) or i (icosahedron)")]
    UnknownShape {
        /// The word written (at most 40 characters of it).
        solid: String,
    },
    /// A cut kind is not one of `f v e`.
    #[error("cut {index}: unknown cut kind {kind:?}: expected f (face), v (vertex) or e (edge)")]
    UnknownCutKind {
        /// 1-based cut number.
        index: usize,
        /// What was written.
        kind: String,
    },
    /// A cut kind without its distance.
    #[error("cut {index} ({kind}) has no distance")]
    MissingDistance {
        /// 1-based cut number.
        index: usize,
        /// The cut kind.
        kind: char,
    },
    /// A distance that is not a finite number.
    #[error("cut {index}: {text:?} is not a finite number (a cut is f, v or e, then a distance, `sphere RADIUS` or `cone HALF-ANGLE`)")]
    BadDistance {
        /// 1-based cut number.
        index: usize,
        /// What was written.
        text: String,
    },
    /// A sphere or cone whose size or place cannot cut as one.
    #[error("cut {index}: {problem}")]
    BadCurvedCut {
        /// 1-based cut number.
        index: usize,
        /// What is wrong with it.
        problem: CurvedCutProblem,
    },
    /// Too many cuts in the descriptor.
    #[error("{count} cuts is more than the {limit} a descriptor may have")]
    TooManyCuts {
        /// Cuts given.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// The cuts replicate to too many planes.
    #[error("the cuts make {count} planes, more than the {limit} supported")]
    TooManyPlanes {
        /// Planes made.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// The cuts make too many stickers.
    #[error("the cuts make more than {limit} stickers; use fewer cuts")]
    TooManyStickers {
        /// The limit.
        limit: usize,
    },
    /// No puzzle of that name.
    #[error("no puzzle named {name:?}")]
    UnknownName {
        /// The name given (at most 60 characters of it).
        name: String,
    },
    /// An orbit has more pieces than a state can hold.
    #[error("orbit {orbit} has {pieces} pieces, more than the {limit} supported")]
    OrbitTooLarge {
        /// Orbit name.
        orbit: String,
        /// Pieces in it.
        pieces: usize,
        /// The limit.
        limit: usize,
    },
    /// The option asks for a piece type the puzzle does not have.
    #[error("the puzzle has no {} piece to fix", .piece.word())]
    NoPieceToFix {
        /// The kind of piece asked for.
        piece: PieceKind,
    },
    /// Fixing the piece would split a move into two blocks.
    #[error("fixing a {} piece would split a move into two blocks; this puzzle cannot keep that piece fixed", .piece.word())]
    FixDisconnects {
        /// The kind of piece to fix.
        piece: PieceKind,
    },
    /// After options are applied nothing is left to describe.
    #[error("no orbit is left: every piece is omitted or never moves")]
    NothingLeft,
    /// Floating-point geometry went wrong (a cut too close to another feature).
    #[error("degenerate geometry: {reason}")]
    Degenerate {
        /// What went wrong.
        reason: DegenerateReason,
    },
    /// The core model refused the result.
    #[error(transparent)]
    Core(#[from] twistor_core::CoreError),
}

/// How floating-point geometry went wrong ([`GeometryError::Degenerate`]).
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum DegenerateReason {
    /// Two cut surfaces about one axis cross inside the solid, so its
    /// parts are not layers one above another.
    #[error("two cuts about one axis cross inside the puzzle (make the spheres or cones on an axis nest)")]
    SurfacesCross,
    /// Two separate parts of one face lie on the same side of every cut
    /// (pieces are told apart by their sides), as where a sphere only
    /// touches a face's edges.
    #[error("two separate parts of a face are on the same side of every cut, so they cannot be told apart as stickers (a curved cut that only touches a face's edges does this)")]
    SplitSticker,
    /// A symmetry that does not map the cut axes to each other.
    #[error("a rotation does not map axes to axes")]
    RotationAxes,
    /// A turn that does not map the solid's faces to each other.
    #[error("a turn does not map faces to faces")]
    TurnFaces,
    /// A sticker with no sticker where a turn takes it.
    #[error("a sticker's image under a turn was not found (a cut is too close to a corner)")]
    StickerImage,
    /// A turn that takes two pieces to one place.
    #[error("a turn sends two pieces to the same place (a cut is too close to a corner)")]
    TurnCollision,
}

/// What is wrong with a curved cut.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum CurvedCutProblem {
    /// A sphere's radius is not positive.
    #[error("a sphere's radius must be more than 0")]
    Radius,
    /// A sphere's centre is not on the feature's side of the centre.
    #[error("a sphere's centre must lie towards its feature (`at` more than 0)")]
    Centre,
    /// A cone's apex lies on the plane of one of the solid's faces.
    #[error("a cone's apex must not lie on the plane of a face")]
    ApexOnFace,
    /// A cone's half angle is not between 0 and 180 degrees.
    #[error("a cone's half angle must be between 0 and 180 degrees")]
    Angle,
}
