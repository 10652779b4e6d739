//! Puzzle descriptors: the short text (`c f 0.333333333333333`) that says
//! which Platonic solid to cut and where, in PuzzleGeometry's language.
//!
//! A descriptor is a solid letter followed by cuts. Each cut is a kind —
//! `f` (a plane parallel to a face), `v` (perpendicular to the direction of
//! a vertex) or `e` (perpendicular to the direction of an edge's midpoint)
//! — and a distance from the centre, where 1 is the distance from the
//! centre to a face. Every cut is replicated over the solid's rotations.
//!
//! Beyond PuzzleGeometry, a cut may be curved (a surface of revolution
//! about the same directions, as the rotation-puzzle notation allows):
//!
//! - `v sphere 1.6`: a sphere of radius 1.6 centred at each vertex; its
//!   inside turns (the Rex Cube). `e sphere 2 at 2.83` centres it on the
//!   edge direction at distance 2.83 from the centre instead.
//! - `f cone 60 at 0.2`: a cone with its apex on each face direction at
//!   distance 0.2 (default 0, the centre), opening towards the face with
//!   a half angle of 60°; its inside turns. At 90° it is the plane.
//!
//! Every surface is replicated by the solid's rotations and every turn is
//! one of them, so a turn maps the whole cut set onto itself: no turn
//! these descriptors make can jumble.

use std::fmt;

use crate::{CurvedCutProblem, GeometryError};

/// Most cuts a descriptor may list. The largest named puzzle needs 20.
pub const MAX_CUTS: usize = 256;

/// A Platonic solid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `t`: four triangles.
    Tetrahedron,
    /// `c`: six squares.
    Cube,
    /// `o`: eight triangles.
    Octahedron,
    /// `d`: twelve pentagons.
    Dodecahedron,
    /// `i`: twenty triangles.
    Icosahedron,
}

impl Shape {
    /// The five Platonic solids.
    pub const ALL: [Shape; 5] = [
        Shape::Tetrahedron,
        Shape::Cube,
        Shape::Octahedron,
        Shape::Dodecahedron,
        Shape::Icosahedron,
    ];

    /// Its place in [`Shape::ALL`].
    pub fn index(self) -> usize {
        match self {
            Shape::Tetrahedron => 0,
            Shape::Cube => 1,
            Shape::Octahedron => 2,
            Shape::Dodecahedron => 3,
            Shape::Icosahedron => 4,
        }
    }
}

impl Shape {
    /// The solid a descriptor letter names.
    pub fn from_letter(s: &str) -> Option<Shape> {
        Some(match s {
            "t" => Shape::Tetrahedron,
            "c" => Shape::Cube,
            "o" => Shape::Octahedron,
            "d" => Shape::Dodecahedron,
            "i" => Shape::Icosahedron,
            _ => return None,
        })
    }

    /// Its descriptor letter.
    pub fn letter(self) -> char {
        match self {
            Shape::Tetrahedron => 't',
            Shape::Cube => 'c',
            Shape::Octahedron => 'o',
            Shape::Dodecahedron => 'd',
            Shape::Icosahedron => 'i',
        }
    }

    /// How many faces it has.
    pub fn face_count(self) -> usize {
        match self {
            Shape::Tetrahedron => 4,
            Shape::Cube => 6,
            Shape::Octahedron => 8,
            Shape::Dodecahedron => 12,
            Shape::Icosahedron => 20,
        }
    }
}

/// Which kind of direction a cut plane is perpendicular to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CutKind {
    /// `f`: a face normal.
    Face,
    /// `v`: the direction of a vertex.
    Vertex,
    /// `e`: the direction of an edge's midpoint.
    Edge,
}

impl CutKind {
    /// Its descriptor letter.
    pub fn letter(self) -> char {
        match self {
            CutKind::Face => 'f',
            CutKind::Vertex => 'v',
            CutKind::Edge => 'e',
        }
    }
}

/// One cut: a kind of direction, a distance from the centre and a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// The direction the cut is about.
    pub kind: CutKind,
    /// Distance from the centre along that direction (1 = a face): the
    /// plane's, the sphere's centre's, the cone's apex's.
    pub distance: f64,
    /// The surface.
    pub shape: CutShape,
}

impl Cut {
    /// A plane cut (PuzzleGeometry's only kind).
    pub fn plane(kind: CutKind, distance: f64) -> Cut {
        Cut {
            kind,
            distance,
            shape: CutShape::Plane,
        }
    }
}

/// The surface a cut is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CutShape {
    /// A plane perpendicular to the direction.
    Plane,
    /// A sphere centred on the direction; its inside turns.
    Sphere {
        /// Its radius.
        radius: f64,
        /// Whether its centre was given (`at`), not the feature's point.
        centre_given: bool,
    },
    /// A cone with its apex on the direction, opening towards it; its
    /// inside turns.
    Cone {
        /// Half the angle at its apex, in degrees (0 to 180).
        half_angle: f64,
        /// Whether its apex was given (`at`), not the centre.
        apex_given: bool,
    },
}

/// A solid and its cuts.
#[derive(Clone, Debug, PartialEq)]
pub struct Descriptor {
    /// The solid.
    pub shape: Shape,
    /// The cuts, in the order given.
    pub cuts: Vec<Cut>,
}

impl Descriptor {
    /// Parses a descriptor such as `c f 0.333333333333333 v 0.9`.
    ///
    /// Words are separated by white space; distances are decimal numbers
    /// (`.5`, `1e-3` and signs are fine), and must be finite.
    pub fn parse(text: &str) -> Result<Descriptor, GeometryError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&first, rest)) = words.split_first() else {
            return Err(GeometryError::EmptyDescriptor);
        };
        let shape = Shape::from_letter(first).ok_or_else(|| GeometryError::UnknownShape {
            solid: first.chars().take(40).collect(),
        })?;
        let count = rest
            .iter()
            .filter(|w| matches!(**w, "f" | "v" | "e"))
            .count();
        if count > MAX_CUTS {
            return Err(GeometryError::TooManyCuts {
                count,
                limit: MAX_CUTS,
            });
        }
        let mut cuts = Vec::with_capacity(count);
        let mut words = rest.iter().copied().peekable();
        let mut index = 0;
        while let Some(word) = words.next() {
            index += 1;
            let kind = match word {
                "f" => CutKind::Face,
                "v" => CutKind::Vertex,
                "e" => CutKind::Edge,
                other => {
                    return Err(GeometryError::UnknownCutKind {
                        index,
                        kind: other.chars().take(40).collect(),
                    })
                }
            };
            let number = |words: &mut std::iter::Peekable<_>| -> Result<f64, GeometryError> {
                let Some(d): Option<&str> = words.next() else {
                    return Err(GeometryError::MissingDistance {
                        index,
                        kind: kind.letter(),
                    });
                };
                d.parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| GeometryError::BadDistance {
                        index,
                        text: d.chars().take(40).collect(),
                    })
            };
            let curved = words.next_if(|w| *w == "sphere" || *w == "cone");
            let Some(surface) = curved else {
                let distance = number(&mut words)?;
                cuts.push(Cut::plane(kind, distance));
                continue;
            };
            let size = number(&mut words)?;
            let at = match words.next_if_eq(&"at") {
                Some(_) => Some(number(&mut words)?),
                None => None,
            };
            let bad = |problem| GeometryError::BadCurvedCut { index, problem };
            let cut = if surface == "sphere" {
                if size <= 0.0 {
                    return Err(bad(CurvedCutProblem::Radius));
                }
                let distance = at.unwrap_or_else(|| feature_distance(shape, kind));
                if distance <= 0.0 {
                    return Err(bad(CurvedCutProblem::Centre));
                }
                Cut {
                    kind,
                    distance,
                    shape: CutShape::Sphere {
                        radius: size,
                        centre_given: at.is_some(),
                    },
                }
            } else {
                if !(size > 0.0 && size < 180.0) {
                    return Err(bad(CurvedCutProblem::Angle));
                }
                Cut {
                    kind,
                    distance: at.unwrap_or(0.0),
                    shape: CutShape::Cone {
                        half_angle: size,
                        apex_given: at.is_some(),
                    },
                }
            };
            cuts.push(cut);
        }
        Ok(Descriptor { shape, cuts })
    }

    /// Whether any cut is of this kind.
    pub fn has(&self, kind: CutKind) -> bool {
        self.cuts.iter().any(|c| c.kind == kind)
    }
}

impl fmt::Display for Descriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.shape.letter())?;
        for c in &self.cuts {
            let k = c.kind.letter();
            let at = match c.shape {
                CutShape::Plane => {
                    write!(f, " {k} {}", c.distance)?;
                    false
                }
                CutShape::Sphere {
                    radius,
                    centre_given,
                } => {
                    write!(f, " {k} sphere {radius}")?;
                    centre_given
                }
                CutShape::Cone {
                    half_angle,
                    apex_given,
                } => {
                    write!(f, " {k} cone {half_angle}")?;
                    apex_given
                }
            };
            if at {
                write!(f, " at {}", c.distance)?;
            }
        }
        Ok(())
    }
}

/// The distance from the centre to the feature a kind of cut is about:
/// a face (1), a vertex, an edge's midpoint.
pub(crate) fn feature_distance(shape: Shape, kind: CutKind) -> f64 {
    let solid = crate::build::solid(shape);
    match kind {
        CutKind::Face => 1.0,
        CutKind::Vertex => solid.vertex_distance,
        CutKind::Edge => solid.edge_distance,
    }
}

impl std::str::FromStr for Descriptor {
    type Err = GeometryError;
    fn from_str(s: &str) -> Result<Descriptor, GeometryError> {
        Descriptor::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let d = Descriptor::parse("  c f 0.5   v .25 e -1e-1 ").unwrap();
        assert_eq!(d.shape, Shape::Cube);
        assert_eq!(d.cuts.len(), 3);
        assert_eq!(d.cuts[1].distance, 0.25);
        assert_eq!(d.cuts[2].distance, -0.1);
        assert_eq!(d.to_string(), "c f 0.5 v 0.25 e -0.1");
        assert_eq!(Descriptor::parse(&d.to_string()).unwrap(), d);
    }

    #[test]
    fn rejects_what_is_not_a_descriptor() {
        use GeometryError as E;
        assert_eq!(Descriptor::parse(" "), Err(E::EmptyDescriptor));
        assert!(matches!(
            Descriptor::parse("x f 1"),
            Err(E::UnknownShape { .. })
        ));
        assert!(matches!(
            Descriptor::parse("c q 1"),
            Err(E::UnknownCutKind { index: 1, .. })
        ));
        assert!(matches!(
            Descriptor::parse("c f 1 v"),
            Err(E::MissingDistance {
                index: 2,
                kind: 'v'
            })
        ));
        for bad in ["c f nan", "c f inf", "c f 1x", "c f --1"] {
            assert!(
                matches!(Descriptor::parse(bad), Err(E::BadDistance { .. })),
                "{bad}"
            );
        }
        let many = format!("c{}", " f 0.1".repeat(MAX_CUTS + 1));
        assert!(matches!(
            Descriptor::parse(&many),
            Err(E::TooManyCuts { .. })
        ));
    }
}
