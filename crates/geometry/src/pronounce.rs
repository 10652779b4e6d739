//! The rotation-surface model and its pronounceable notation.
//!
//! In this model (the "Universal Rotation Permutation Puzzle Pronounceable
//! Notation") a puzzle is a solid cut by oriented rotation surfaces; a
//! piece's position is the list of surfaces it lies above (0) or under (1)
//! — the *position matrix* has one such column per piece. A turn names a
//! surface, a direction and what turns:
//!
//! | token | turns |
//! |---|---|
//! | `RE` / `RA` | the pieces above surface `R`, clockwise (`E`) / anticlockwise (`A`) as seen from above |
//! | `REU` | the pieces under it |
//! | `REO` | the whole puzzle (a block turn) |
//! | `REI` | the slice just under it, up to the next surface |
//!
//! Surfaces are named after the face, edge or vertex they face (`T` for
//! the top, since `U` means "under"), numbered from the outside in when an
//! end has several (`R`, `R2`, ...). The modifier may also come before the
//! direction (`RUE`). On cubes the notation translates to and from SiGN.
//!
//! The spec leaves the slice turn ambiguous ("above this surface and below
//! the next"): here the slice is the one directly under the surface, so
//! `RIE` on the 3x3x3 is the middle layer turned like `R`.

use std::fmt::Write;

use twistor_core::Transformation;
use twistor_formats::alg::{Alg, AlgError, Move};

use crate::build::Axis;
use crate::descriptor::{CutKind, Shape};
use crate::notation::GripTurn;
use crate::puzzle::GeneratedPuzzle;
use crate::solid::split_face_names;

/// Why pronounceable notation could not be read or written.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PronounceError {
    /// A token is not a surface followed by a direction and a modifier.
    #[error("{token:?} is not a surface name followed by E or A and optionally U, O or I")]
    BadToken {
        /// The token (at most 40 characters of it).
        token: String,
    },
    /// A SiGN move this puzzle's notation does not know.
    #[error("the move {name} is not known on this puzzle")]
    UnknownMove {
        /// The move as written.
        name: String,
    },
    /// A move that is not a turn about one of the puzzle's axes.
    #[error("the move {name} does not turn about a cut axis")]
    NotAnAxisTurn {
        /// The move as written.
        name: String,
    },
    /// A range of slices that no surface turn turns, alone or undone
    /// in part by another.
    #[error("the move slices {lo}-{hi} does not turn about a cut axis")]
    UnturnableSlices {
        /// The first slice, from the axis's normal end.
        lo: usize,
        /// The last slice.
        hi: usize,
    },
    /// SiGN output was asked of a puzzle that is not a cube with face cuts.
    #[error("SiGN names moves only on cubes cut parallel to their faces")]
    NotACube,
    /// The alg could not be expanded.
    #[error(transparent)]
    Alg(#[from] AlgError),
}

/// Which pieces a surface turn moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Above the surface (no letter).
    Above,
    /// Under it (`U`).
    Under,
    /// All of them (`O`).
    Block,
    /// The slice just under it (`I`).
    Slice,
}

/// One turn in pronounceable notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurfaceTurn {
    /// Index into [`RotationModel::surfaces`].
    pub surface: usize,
    /// `E` (clockwise seen from above the surface) or `A`.
    pub clockwise: bool,
    /// What turns.
    pub part: Part,
}

/// An oriented rotation surface.
#[derive(Clone, Debug, PartialEq)]
pub struct Surface {
    /// Its name (`R`, `T2`, `BL`).
    pub name: String,
    /// The axis it belongs to.
    pub axis: usize,
    /// Its index among the axis's planes, in increasing distance along
    /// the axis normal.
    pub plane: usize,
    /// Whether "above" is towards the axis normal's end.
    pub towards_normal: bool,
    /// Signed distance from the centre along the axis normal (a curved
    /// surface's level: where it meets the axis on its turning side).
    pub distance: f64,
    /// What it is: `plane`, or the sphere or cone it is.
    pub shape: String,
    /// Whether it is curved (a sphere or a cone).
    pub curved: bool,
}

/// A puzzle described by its rotation surfaces and axes.
#[derive(Clone, Debug)]
pub struct RotationModel {
    surfaces: Vec<Surface>,
    /// Display name of each axis end: (normal end, other end).
    ends: Vec<(String, String)>,
    planes: Vec<usize>,
    orders: Vec<usize>,
    cube: bool,
}

impl RotationModel {
    /// The surfaces and axes of a generated puzzle.
    pub fn new(gp: &GeneratedPuzzle) -> RotationModel {
        let g = gp.geometry();
        let solid = g.solid();
        let face_names: Vec<&str> = solid.faces().iter().map(|f| f.name.as_str()).collect();
        let external: Option<&[&str]> = match solid.shape {
            Shape::Dodecahedron => Some(&[
                "U", "F", "L", "BL", "BR", "R", "FR", "FL", "DL", "B", "DR", "D",
            ]),
            Shape::Octahedron => Some(&["F", "D", "L", "BL", "R", "U", "BR", "B"]),
            _ => None,
        };
        // People's names for features, with T for the top face.
        let display = |name: &str| -> String {
            match split_face_names(name, &face_names) {
                Some(parts) => parts
                    .iter()
                    .map(|&i| {
                        let n = external.map_or(face_names[i], |e| e[i]);
                        if n == "U" {
                            "T"
                        } else {
                            n
                        }
                    })
                    .collect(),
                None => name.to_string(),
            }
        };
        let mut surfaces = Vec::new();
        let mut ends = Vec::new();
        for (k, a) in g.axes().iter().enumerate() {
            let (pos, neg) = (display(a.pos_name()), display(a.neg_name()));
            // A surface through the centre faces R, T or F when one of
            // those is an end, else the normal's end.
            let centre_to_normal =
                !matches!(neg.as_str(), "R" | "T" | "F") || matches!(pos.as_str(), "R" | "T" | "F");
            let levels: Vec<f64> = a.surfaces.iter().map(|s| s.level()).collect();
            // A curved surface faces the end its inside turns with.
            let to_normal: Vec<bool> = (a.surfaces.iter().zip(&levels))
                .map(|(s, &d)| {
                    s.turning_end().unwrap_or(if d.abs() < 1e-9 {
                        centre_to_normal
                    } else {
                        d > 0.0
                    })
                })
                .collect();
            // Number each end's surfaces from the outside in.
            let mut named: Vec<(usize, String)> = Vec::new();
            let up: Vec<usize> = (0..levels.len()).rev().filter(|&j| to_normal[j]).collect();
            let down: Vec<usize> = (0..levels.len()).filter(|&j| !to_normal[j]).collect();
            for (depth, &j) in up.iter().enumerate() {
                named.push((j, numbered(&pos, depth)));
            }
            for (depth, &j) in down.iter().enumerate() {
                named.push((j, numbered(&neg, depth)));
            }
            for (j, name) in named {
                surfaces.push(Surface {
                    name,
                    axis: k,
                    plane: j,
                    towards_normal: to_normal[j],
                    distance: levels[j],
                    shape: a.surfaces[j].describe(),
                    curved: a.surfaces[j].curved(),
                });
            }
            ends.push((pos, neg));
        }
        let d = g.descriptor();
        RotationModel {
            surfaces,
            ends,
            planes: g.axes().iter().map(Axis::planes).collect(),
            orders: g.axes().iter().map(Axis::order).collect(),
            cube: d.shape == Shape::Cube
                && d.has(CutKind::Face)
                && !d.has(CutKind::Vertex)
                && !d.has(CutKind::Edge),
        }
    }

    /// The surfaces: axis by axis, each end's from the outside in.
    pub fn surfaces(&self) -> &[Surface] {
        &self.surfaces
    }

    /// A readable description: every axis, its ends, order and surfaces.
    pub fn describe(&self) -> String {
        let mut s = String::new();
        for (k, (pos, neg)) in self.ends.iter().enumerate() {
            let _ = writeln!(
                s,
                "axis {} {pos}/{neg}: {} turns a circle, {} slices",
                k + 1,
                self.orders[k],
                self.planes[k] + 1
            );
            for sf in self.surfaces.iter().filter(|x| x.axis == k) {
                let towards = if sf.towards_normal { pos } else { neg };
                let _ = if !sf.curved {
                    writeln!(
                        s,
                        "  surface {:<6} at {:+.6} towards {towards}",
                        sf.name, sf.distance
                    )
                } else {
                    writeln!(s, "  surface {:<6} {} towards {towards}", sf.name, sf.shape)
                };
            }
        }
        s
    }

    /// Parses tokens such as `RE TA R2EU FAO`.
    pub fn parse(&self, text: &str) -> Result<Vec<SurfaceTurn>, PronounceError> {
        text.split_whitespace()
            .map(|t| self.parse_token(t))
            .collect()
    }

    fn parse_token(&self, t: &str) -> Result<SurfaceTurn, PronounceError> {
        let bad = || PronounceError::BadToken {
            token: t.chars().take(40).collect(),
        };
        let find = |name: &str| self.surfaces.iter().position(|s| s.name == name);
        let dir = |c: char| match c {
            'E' => Some(true),
            'A' => Some(false),
            _ => None,
        };
        let part = |c: char| match c {
            'U' => Some(Part::Under),
            'O' => Some(Part::Block),
            'I' => Some(Part::Slice),
            _ => None,
        };
        let chars: Vec<char> = t.chars().collect();
        let n = chars.len();
        if n < 2 {
            return Err(bad());
        }
        let head = |k: usize| chars[..n - k].iter().collect::<String>();
        // Surface, direction, modifier.
        if n >= 3 {
            if let (Some(p), Some(c), Some(s)) =
                (part(chars[n - 1]), dir(chars[n - 2]), find(&head(2)))
            {
                return Ok(SurfaceTurn {
                    surface: s,
                    clockwise: c,
                    part: p,
                });
            }
            // Surface, modifier, direction.
            if let (Some(c), Some(p), Some(s)) =
                (dir(chars[n - 1]), part(chars[n - 2]), find(&head(2)))
            {
                return Ok(SurfaceTurn {
                    surface: s,
                    clockwise: c,
                    part: p,
                });
            }
        }
        match (dir(chars[n - 1]), find(&head(1))) {
            (Some(c), Some(s)) => Ok(SurfaceTurn {
                surface: s,
                clockwise: c,
                part: Part::Above,
            }),
            _ => Err(bad()),
        }
    }

    /// Writes turns as tokens.
    pub fn format(&self, turns: &[SurfaceTurn]) -> String {
        turns
            .iter()
            .map(|t| {
                let mut s = self.surfaces[t.surface].name.clone();
                s.push(if t.clockwise { 'E' } else { 'A' });
                match t.part {
                    Part::Above => {}
                    Part::Under => s.push('U'),
                    Part::Block => s.push('O'),
                    Part::Slice => s.push('I'),
                }
                s
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The axis, slice range (0 at the axis normal's end) and turns (the
    /// axis's way) of a surface turn.
    pub fn slices(&self, t: &SurfaceTurn) -> (usize, usize, usize, i64) {
        let s = &self.surfaces[t.surface];
        let planes = self.planes[s.axis];
        let j = s.plane;
        // Plane j separates slice planes-1-j (normal side) from planes-j.
        let (above, under) = if s.towards_normal {
            ((0, planes - 1 - j), (planes - j, planes))
        } else {
            ((planes - j, planes), (0, planes - 1 - j))
        };
        let (lo, hi) = match t.part {
            Part::Above => above,
            Part::Under => under,
            Part::Block => (0, planes),
            Part::Slice => {
                let k = if s.towards_normal {
                    planes - j
                } else {
                    planes - 1 - j
                };
                (k, k)
            }
        };
        let way = if s.towards_normal == t.clockwise {
            1
        } else {
            -1
        };
        (s.axis, lo, hi, way)
    }

    /// What a sequence of surface turns does.
    pub fn transformation(&self, gp: &GeneratedPuzzle, turns: &[SurfaceTurn]) -> Transformation {
        let layout = gp.puzzle().layout();
        let mut t = layout.identity();
        for turn in turns {
            let (axis, lo, hi, way) = self.slices(turn);
            t = layout.compose(&t, &gp.range_transformation(axis, lo, hi, way));
        }
        t
    }

    /// The position matrix of `t` (pieces as columns, surfaces as rows;
    /// 0 = above, 1 = under), with a header naming the pieces and a last
    /// row with their orientations.
    pub fn position_matrix(&self, gp: &GeneratedPuzzle, t: &Transformation) -> String {
        let layout = gp.puzzle().layout();
        let g = gp.geometry();
        // For each piece (column), the cubie of the slot it now occupies.
        let mut columns: Vec<(usize, u8)> = Vec::new();
        let mut header = String::new();
        for (j, &o) in gp.kept_orbits().iter().enumerate() {
            let perm = layout.perm(t.as_bytes(), j);
            let ori = layout.ori(t.as_bytes(), j);
            let cubies = &g.orbits()[o].cubies;
            let mut at = vec![(0usize, 0u8); cubies.len()];
            for (slot, &piece) in perm.iter().enumerate() {
                at[piece as usize] = (cubies[slot], ori[slot]);
            }
            columns.extend(at);
            let name = &g.orbits()[o].name;
            let _ = write!(header, "{name}:0-{} ", cubies.len() - 1);
        }
        let digit = |x: usize| -> char {
            std::char::from_digit((x % 36) as u32, 36)
                .unwrap_or('?')
                .to_ascii_uppercase()
        };
        let mut s = String::new();
        let _ = writeln!(s, "  {}", header.trim_end());
        let ids: String = {
            let mut v = String::new();
            for &o in gp.kept_orbits() {
                for i in 0..g.orbits()[o].cubies.len() {
                    v.push(digit(i));
                }
                v.push(' ');
            }
            v
        };
        let _ = writeln!(s, "  {}", ids.trim_end());
        let sizes: Vec<usize> = gp
            .kept_orbits()
            .iter()
            .map(|&o| g.orbits()[o].cubies.len())
            .collect();
        let row = |bits: &dyn Fn(usize) -> char| -> String {
            let mut r = String::new();
            let mut i = 0;
            for &n in &sizes {
                for _ in 0..n {
                    r.push(bits(i));
                    i += 1;
                }
                r.push(' ');
            }
            r.trim_end().to_string()
        };
        for sf in &self.surfaces {
            let planes = self.planes[sf.axis];
            let line = row(&|i: usize| {
                let slice = g.cubies()[columns[i].0].slices[sf.axis] as usize;
                let above_normal_side = slice < planes - sf.plane;
                if above_normal_side == sf.towards_normal {
                    '0'
                } else {
                    '1'
                }
            });
            let _ = writeln!(s, "| {line} | {}", sf.name);
        }
        let twist = row(&|i: usize| digit(columns[i].1 as usize));
        let _ = writeln!(s, "| {twist} | twist");
        s
    }

    /// SiGN for surface turns (cubes with face cuts only).
    pub fn to_sign(&self, turns: &[SurfaceTurn]) -> Result<String, PronounceError> {
        if !self.cube {
            return Err(PronounceError::NotACube);
        }
        let moves: Vec<String> = turns
            .iter()
            .map(|t| {
                let (axis, lo, hi, way) = self.slices(t);
                self.sign_move(axis, lo, hi, way)
            })
            .collect();
        Ok(moves.join(" "))
    }

    fn sign_move(&self, axis: usize, lo: usize, hi: usize, way: i64) -> String {
        let planes = self.planes[axis];
        let (pos, neg) = &self.ends[axis];
        let sign_face = |n: &str| {
            if n == "T" {
                "U".to_string()
            } else {
                n.to_string()
            }
        };
        let amount = |t: i64| -> String {
            let order = self.orders[axis] as i64;
            let mut t = t.rem_euclid(order);
            if t > order / 2 {
                t -= order;
            }
            match t {
                1 => String::new(),
                -1 => "'".into(),
                t if t < 0 => format!("{}'", -t),
                t => t.to_string(),
            }
        };
        if lo == 0 && hi == planes {
            let (letter, face) = match sign_face(pos).as_str() {
                "R" | "L" => ('x', "R"),
                "U" | "D" => ('y', "U"),
                _ => ('z', "F"),
            };
            let t = if sign_face(pos) == face { way } else { -way };
            return format!("{letter}{}", amount(t));
        }
        // Name the turn from the end it touches, else the nearer end.
        let from_pos = lo == 0 || (hi != planes && lo <= planes - hi);
        let (face, a, b, t) = if from_pos {
            (sign_face(pos), lo + 1, hi + 1, way)
        } else {
            (sign_face(neg), planes - hi + 1, planes - lo + 1, -way)
        };
        let q = if a == 1 && b == 1 {
            face
        } else if a == 1 {
            if b == 2 {
                format!("{face}w")
            } else {
                format!("{b}{face}w")
            }
        } else if a == b {
            format!("{a}{face}")
        } else {
            format!("{a}-{b}{face}w")
        };
        format!("{q}{}", amount(t))
    }

    /// Surface turns doing what a SiGN (or any notation the puzzle
    /// accepts) alg does; amounts become repeated turns.
    pub fn turns_for_alg(
        &self,
        gp: &GeneratedPuzzle,
        alg: &Alg,
    ) -> Result<Vec<SurfaceTurn>, PronounceError> {
        let moves = alg.expanded_moves(100_000)?;
        let mut out = Vec::new();
        for m in &moves {
            out.extend(self.turns_for_move(gp, m)?);
        }
        Ok(out)
    }

    fn turns_for_move(
        &self,
        gp: &GeneratedPuzzle,
        m: &Move,
    ) -> Result<Vec<SurfaceTurn>, PronounceError> {
        // Like the move resolver: the notation first, then the
        // definition's own names.
        let grip = gp
            .notation()
            .grip_turn(&m.family, m.outer_layer, m.inner_layer)
            .or_else(|| {
                gp.slice_moves()
                    .iter()
                    .find(|s| s.name == m.quantum())
                    .map(|s| GripTurn::Range {
                        axis: s.axis,
                        lo: s.lo,
                        hi: s.hi,
                        turns: if s.inverted { -1 } else { 1 },
                    })
            })
            .ok_or_else(|| PronounceError::UnknownMove {
                name: m.to_string(),
            })?;
        let g = gp.geometry();
        let (axis, lo, hi, turns) = match grip {
            GripTurn::Range {
                axis,
                lo,
                hi,
                turns,
            } => (axis, lo, hi, turns as i64),
            GripTurn::Rotation { direction, turns } => {
                let k = g
                    .axes()
                    .iter()
                    .position(|a| a.normal().dot(direction).abs() > 1.0 - 1e-9)
                    .ok_or_else(|| PronounceError::NotAnAxisTurn {
                        name: m.to_string(),
                    })?;
                let s = if g.axes()[k].normal().dot(direction) > 0.0 {
                    1
                } else {
                    -1
                };
                (k, 0, g.axes()[k].planes(), (turns * s) as i64)
            }
        };
        let total = turns * m.amount as i64;
        let unit = self.range_turns(axis, lo, hi)?;
        let order = self.orders[axis] as i64;
        let mut k = total.rem_euclid(order);
        let mut flip = false;
        if k > order / 2 {
            k = order - k;
            flip = true;
        }
        let mut out = Vec::new();
        for _ in 0..k {
            out.extend(unit.iter().map(|t| SurfaceTurn {
                clockwise: t.clockwise != flip,
                ..*t
            }));
        }
        Ok(out)
    }

    /// Surface turns turning slices `lo..=hi` of an axis once its way.
    fn range_turns(
        &self,
        axis: usize,
        lo: usize,
        hi: usize,
    ) -> Result<Vec<SurfaceTurn>, PronounceError> {
        let planes = self.planes[axis];
        let on_axis: Vec<usize> = (0..self.surfaces.len())
            .filter(|&i| self.surfaces[i].axis == axis)
            .collect();
        let find = |pred: &dyn Fn(&SurfaceTurn) -> bool| -> Option<SurfaceTurn> {
            for &i in &on_axis {
                for part in [Part::Above, Part::Under, Part::Slice, Part::Block] {
                    for clockwise in [true, false] {
                        let t = SurfaceTurn {
                            surface: i,
                            clockwise,
                            part,
                        };
                        if pred(&t) {
                            return Some(t);
                        }
                    }
                }
            }
            None
        };
        let exactly = |a: usize, b: usize| {
            find(&|t: &SurfaceTurn| {
                let (_, l, h, w) = self.slices(t);
                (l, h, w) == (a, b, 1)
            })
        };
        if let Some(t) = exactly(lo, hi) {
            return Ok(vec![t]);
        }
        // A block from the normal end to hi, less the block to lo - 1.
        if lo > 0 && hi < planes {
            if let (Some(a), Some(b)) = (exactly(0, hi), exactly(0, lo - 1)) {
                return Ok(vec![
                    a,
                    SurfaceTurn {
                        clockwise: !b.clockwise,
                        ..b
                    },
                ]);
            }
        }
        Err(PronounceError::UnturnableSlices { lo, hi })
    }
}

fn numbered(name: &str, depth: usize) -> String {
    if depth == 0 {
        name.to_string()
    } else {
        format!("{name}{}", depth + 1)
    }
}
