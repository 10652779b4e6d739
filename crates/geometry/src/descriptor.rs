//! Puzzle descriptors: the short text (`c f 0.333333333333333`) that says
//! which Platonic solid to cut and where, in PuzzleGeometry's language.
//!
//! A descriptor is a solid letter followed by cuts. Each cut is a kind —
//! `f` (a plane parallel to a face), `v` (perpendicular to the direction of
//! a vertex) or `e` (perpendicular to the direction of an edge's midpoint)
//! — and a distance from the centre, where 1 is the distance from the
//! centre to a face. Every cut is replicated over the solid's rotations.

use std::fmt;

use crate::GeometryError;

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

/// One cut: a kind of direction and a distance from the centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    /// The direction the cut plane is perpendicular to.
    pub kind: CutKind,
    /// Distance from the centre along that direction (1 = a face).
    pub distance: f64,
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
        let count = rest.len().div_ceil(2);
        if count > MAX_CUTS {
            return Err(GeometryError::TooManyCuts {
                count,
                limit: MAX_CUTS,
            });
        }
        let mut cuts = Vec::with_capacity(count);
        for (i, pair) in rest.chunks(2).enumerate() {
            let index = i + 1;
            let kind = match pair[0] {
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
            let Some(&d) = pair.get(1) else {
                return Err(GeometryError::MissingDistance {
                    index,
                    kind: kind.letter(),
                });
            };
            let distance = d
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| GeometryError::BadDistance {
                    index,
                    text: d.chars().take(40).collect(),
                })?;
            cuts.push(Cut { kind, distance });
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
            write!(f, " {} {}", c.kind.letter(), c.distance)?;
        }
        Ok(())
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
