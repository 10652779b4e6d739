//! How pieces of NxNxN cubes are numbered within their orbits.
//!
//! Everywhere else a piece's index within its orbit is the order in which a
//! breadth-first walk under the axis turns reaches it. On a cube cut only
//! parallel to its faces PuzzleGeometry instead numbers pieces the way
//! cubers do, and cubing.js's cube definitions (and so every position,
//! scramble and solution exchanged with it) use that numbering:
//!
//! - corners, and on the 3x3x3 and 2x2x2 every piece, in Reid order
//!   (`UFR URB UBL ULF DRF DFL DLB DBR`, `UF UR ... BL`, `U L F R B D`);
//! - on larger cubes, edges and centres by their Speffz letter: each
//!   sticker takes the letter of the face corner it is nearest (or, when
//!   it is equally near two neighbouring corners, the first of them), a
//!   centre piece its sticker's letter, and an edge wing the letter of its
//!   sticker that comes first counterclockwise round the corner the wing
//!   sits by, counting from the corner's third face.
//!
//! Pieces Speffz cannot letter (true centres, midges, whose stickers sit
//! between two corners each) keep their breadth-first index, as there.

use crate::build::{Cubie, OrbitData, Sticker};
use crate::math::{Vec3, EPS};
use crate::solid::Solid;

/// Reid order: edges, corners, centres, by their faces' letters.
const REID: [&[&str]; 3] = [
    &[
        "UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL",
    ],
    &["UFR", "URB", "UBL", "ULF", "DRF", "DFL", "DLB", "DBR"],
    &["U", "L", "F", "R", "B", "D"],
];

/// Speffz faces in letter order (A–D on U, E–H on L, ...).
const SPEFFZ_FACES: [&str; 6] = ["U", "L", "F", "R", "B", "D"];

/// The corner behind each Speffz letter, four per face in letter order;
/// each corner's faces are read counterclockwise.
const SPEFFZ_CORNERS: [&str; 24] = [
    "UBL", "URB", "UFR", "ULF", "UBL", "ULF", "DFL", "DLB", "ULF", "UFR", "DRF", "DFL", "UFR",
    "URB", "DBR", "DRF", "URB", "UBL", "DLB", "DBR", "DFL", "DRF", "DBR", "DLB",
];

/// A set of face letters as a bit set.
fn letters(s: &str) -> u32 {
    s.bytes().map(|b| 1u32 << (b & 31)).fold(0, |a, b| a | b)
}

/// Renumbers the pieces of a cube cut only parallel to its faces; see the
/// module documentation. An orbit whose new numbers would not be a
/// permutation keeps its breadth-first numbering.
pub(crate) fn number_cube_pieces(
    solid: &Solid,
    stickers: &[Sticker],
    stickers_per_face: usize,
    cubies: &mut [Cubie],
    orbits: &mut [OrbitData],
) {
    let face_letter = |s: usize| solid.faces[stickers[s].face].name.as_str();
    let corner_at = |name: &str| -> Option<Vec3> {
        solid
            .vertices
            .iter()
            .find(|v| letters(&v.name) == letters(name))
            .map(|v| v.point)
    };
    let Some(speffz_corners) = SPEFFZ_CORNERS
        .iter()
        .map(|&n| corner_at(n))
        .collect::<Option<Vec<Vec3>>>()
    else {
        return;
    };
    // A sticker's Speffz letter (0..24) and the corner it belongs to.
    let speffz = |s: usize| -> Option<(usize, &'static str)> {
        let f = SPEFFZ_FACES.iter().position(|&n| n == face_letter(s))?;
        let at = stickers[s].center;
        let (mut best, mut nearest) = (f64::INFINITY, 0u32);
        for i in 0..4 {
            let d = at.dist(speffz_corners[4 * f + i]);
            if d + EPS < best {
                best = d;
                nearest = 1 << i;
            } else if d < best + EPS {
                nearest |= 1 << i;
            }
        }
        // One nearest corner, or two neighbouring ones (the first of them).
        let corner = match nearest {
            0b0001 | 0b0011 => 0,
            0b0010 | 0b0110 => 1,
            0b0100 | 0b1100 => 2,
            0b1000 | 0b1001 => 3,
            _ => return None,
        };
        Some((4 * f + corner, SPEFFZ_CORNERS[4 * f + corner]))
    };
    let number = |c: &Cubie| -> Option<usize> {
        let n = c.stickers.len();
        if n == 3 || stickers_per_face <= 9 {
            let set: u32 = c
                .stickers
                .iter()
                .map(|&s| letters(&face_letter(s)[..1]))
                .fold(0, |a, b| a | b);
            return REID
                .iter()
                .find_map(|list| list.iter().position(|&p| letters(p) == set));
        }
        if n > 2 {
            return None;
        }
        let found: Vec<(usize, &str)> = c.stickers.iter().filter_map(|&s| speffz(s)).collect();
        match found[..] {
            [(letter, _)] if n == 1 => Some(letter),
            [(l0, corner), (l1, other)] if corner == other => {
                // The wing's faces are two of the corner's three; take the
                // one following the third counterclockwise.
                let (f0, f1) = (face_letter(c.stickers[0]), face_letter(c.stickers[1]));
                let faces: Vec<&str> = (0..3).map(|k| &corner[k..k + 1]).collect();
                let third = faces.iter().position(|&x| x != f0 && x != f1)?;
                let next = faces[(third + 1) % 3];
                if next == f0 {
                    Some(l0)
                } else if next == f1 {
                    Some(l1)
                } else {
                    None
                }
            }
            _ => None,
        }
    };
    for orbit in orbits.iter_mut() {
        let n = orbit.cubies.len();
        let mut index: Vec<usize> = orbit
            .cubies
            .iter()
            .map(|&c| number(&cubies[c]).unwrap_or(cubies[c].index))
            .collect();
        let mut seen = vec![false; n];
        if index
            .iter()
            .any(|&i| i >= n || std::mem::replace(&mut seen[i], true))
        {
            index = orbit.cubies.iter().map(|&c| cubies[c].index).collect();
        }
        let mut by_index = vec![0; n];
        for (&c, &i) in orbit.cubies.iter().zip(&index) {
            cubies[c].index = i;
            by_index[i] = c;
        }
        orbit.cubies = by_index;
    }
}
