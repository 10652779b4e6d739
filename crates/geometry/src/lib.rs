//! Puzzles from geometry: a Platonic solid cut by planes becomes a puzzle
//! definition, with the names and notation puzzle people use.
//!
//! Most twisty puzzles are a solid cut by planes that turn about their
//! axes. Writing their definitions by hand (which piece each turn sends
//! where, with which twist) is slow and error-prone; cubing.js's
//! PuzzleGeometry computes them from the geometry instead, and this crate
//! does the same, numbering pieces and naming moves exactly as
//! PuzzleGeometry does so that definitions, KPatterns and algs agree with
//! cubing.js.
//!
//! # How data flows
//!
//! 1. A name ([`NAMED_PUZZLES`]: `3x3x3`, `megaminx`, `FTO`, ...) resolves
//!    to a [`Descriptor`] such as `c f 0.333333333333333` (a cube cut by
//!    planes a third of the way from the centre to each face): a [`Shape`]
//!    and [`Cut`]s.
//! 2. The descriptor is cut into stickers, pieces, orbits and turns about
//!    axes: a [`Geometry`] (its [`Solid`], with [`SolidFace`]s and
//!    [`Feature`]s, [`Axis`], [`Cubie`], [`Sticker`]).
//! 3. [`build`] (or [`GeneratedPuzzle::from_descriptor`]) turns the geometry
//!    into a [`GeneratedPuzzle`]: a [`twistor_core::Puzzle`] whose moves
//!    carry PuzzleGeometry's names and whose notation
//!    ([`GeometryNotation`]) accepts the community's (`Rw`, `M`, `x`, `R++`,
//!    `T`), with the slice moves ([`SliceMove`]) it was built from.
//! 4. From there on the puzzle is like any other: the formats crate writes
//!    it, the engines search it. [`svg`] draws any of its positions as a
//!    net, [`view`] gives a 3D view its stickers and turns, and
//!    [`pronounce`] reads and writes the rotation-surface model's notation
//!    (`RE TA`) and position matrix.
//!
//! [`PuzzleOptions`] choose which moves the definition has (middle slices,
//! blocks, rotations) and which pieces it keeps (omitted kinds or orbits, a
//! fixed piece, oriented centres), as PuzzleGeometry's options do. Errors are
//! [`GeometryError`]s naming what is wrong with a descriptor or name.
//!
//! # Example
//!
//! ```
//! use twistor_geometry::{build, PuzzleOptions};
//! use twistor_formats::{alg::Alg, resolve::alg_transformation};
//!
//! let cube = build("3x3x3", &PuzzleOptions::default())?;
//! let puzzle = cube.puzzle();
//! assert_eq!(puzzle.group_order(&puzzle.search_moves()).to_string(), "43252003274489856000");
//! // Community notation works through the puzzle's notation mapping.
//! let sexy = alg_transformation(puzzle, &"(R U R' U')6".parse::<Alg>().unwrap()).unwrap();
//! assert!(puzzle.layout().is_identity(&sexy));
//! # Ok::<(), twistor_geometry::GeometryError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod arrange;
mod build;
mod cube_order;
mod descriptor;
mod error;
mod math;
mod names;
mod notation;
pub mod pronounce;
mod puzzle;
mod solid;
mod surface;
pub mod svg;
pub mod view;

pub use build::{Axis, Cubie, FeatureKind, Geometry, OrbitData, Sticker, MAX_PLANES, MAX_STICKERS};
pub use descriptor::{Cut, CutKind, CutShape, Descriptor, Shape, MAX_CUTS};
pub use error::{CurvedCutProblem, DegenerateReason, GeometryError};
pub use math::{Quat, Vec3};
pub use names::{descriptor_for, LEGACY_NAMES, NAMED_PUZZLES};
pub use notation::GeometryNotation;
pub use puzzle::{GeneratedPuzzle, PieceKind, PuzzleOptions, SliceMove};
pub use solid::{Feature, Solid, SolidFace};
pub use surface::{Cone, CutSurface, Plane, Sphere};

/// Builds a puzzle from a name (`megaminx`, `master skewb`) or a
/// descriptor (`c f 0.333333333333333`).
pub fn build(spec: &str, options: &PuzzleOptions) -> Result<GeneratedPuzzle, GeometryError> {
    let spec = spec.trim();
    match descriptor_for(spec) {
        Some((name, desc)) => {
            let d = Descriptor::parse(desc)?;
            GeneratedPuzzle::from_descriptor(name, &d, options)
        }
        None => match Descriptor::parse(spec) {
            Ok(d) => GeneratedPuzzle::from_descriptor(&d.to_string(), &d, options),
            Err(GeometryError::UnknownShape { .. }) if !spec.contains(char::is_whitespace) => {
                Err(GeometryError::UnknownName {
                    name: spec.chars().take(60).collect(),
                })
            }
            Err(e) => Err(e),
        },
    }
}

/// Whether `spec` is a puzzle name or looks like a descriptor (so is
/// meant for [`build`] rather than as a file name).
pub fn is_geometry_spec(spec: &str) -> bool {
    let spec = spec.trim();
    descriptor_for(spec).is_some()
        || spec
            .split_whitespace()
            .next()
            .is_some_and(|w| Shape::from_letter(w).is_some())
}
