//! Cubies of a cube, numbered and oriented as cubing.js's 3x3x3 (and so
//! its 2x2x2 and Redi Cube) numbers them, for building moves from 3D
//! rotations.
//!
//! A slot is the list of faces its stickers lie on; a piece in the slot has
//! orientation 0 when its reference sticker lies on the slot's first face,
//! otherwise the index of the face it lies on. Corners list their faces
//! clockwise starting from the U or D face; edges start from U or D, or
//! for the middle layer from F or B.

use super::Part;

/// A vector: x to the right, y up, z towards the front.
pub(super) type Vec3 = [i64; 3];

pub(super) const U: Vec3 = [0, 1, 0];
pub(super) const D: Vec3 = [0, -1, 0];
pub(super) const R: Vec3 = [1, 0, 0];
pub(super) const L: Vec3 = [-1, 0, 0];
pub(super) const F: Vec3 = [0, 0, 1];
pub(super) const B: Vec3 = [0, 0, -1];

/// Corner slots in cubing.js's order: UFR URB UBL ULF DRF DFL DLB DBR.
pub(super) const CORNERS: [[Vec3; 3]; 8] = [
    [U, R, F],
    [U, B, R],
    [U, L, B],
    [U, F, L],
    [D, F, R],
    [D, L, F],
    [D, B, L],
    [D, R, B],
];

/// Edge slots in cubing.js's order: UF UR UB UL DF DR DB DL FR FL BR BL.
pub(super) const EDGES: [[Vec3; 2]; 12] = [
    [U, F],
    [U, R],
    [U, B],
    [U, L],
    [D, F],
    [D, R],
    [D, B],
    [D, L],
    [F, R],
    [F, L],
    [B, R],
    [B, L],
];

/// The centre of a cubie: the sum of its faces.
pub(super) fn centre(faces: &[Vec3]) -> Vec3 {
    faces
        .iter()
        .fold([0; 3], |s, f| [s[0] + f[0], s[1] + f[1], s[2] + f[2]])
}

/// The part of a move on `orbit` whose `slots` are turned by `rotate`
/// where `turns` says so (by the cubie's centre) and stay put elsewhere.
pub(super) fn turn<const N: usize>(
    orbit: &'static str,
    slots: &[[Vec3; N]],
    rotate: &impl Fn(Vec3) -> Vec3,
    turns: &impl Fn(Vec3) -> bool,
) -> Part {
    let mut to = Vec::with_capacity(slots.len());
    let mut delta = vec![0i64; slots.len()];
    for (i, slot) in slots.iter().enumerate() {
        if !turns(centre(slot)) {
            to.push(i);
            continue;
        }
        let moved: Vec<Vec3> = slot.iter().map(|&f| rotate(f)).collect();
        let j = slots
            .iter()
            .position(|s| s.iter().all(|f| moved.contains(f)))
            .expect("a turn takes cubies to cubies");
        delta[j] = slots[j]
            .iter()
            .position(|&f| f == moved[0])
            .expect("the reference sticker lands on the slot") as i64;
        to.push(j);
    }
    Part::new(orbit, super::from_destinations(&to), delta)
}

/// A quarter turn clockwise about the x axis seen from the right (`x`).
pub(super) fn x([a, b, c]: Vec3) -> Vec3 {
    [a, c, -b]
}

/// A quarter turn clockwise about the y axis seen from above (`y`).
pub(super) fn y([a, b, c]: Vec3) -> Vec3 {
    [-c, b, a]
}

/// A third of a turn clockwise about the UFR corner seen from outside it
/// (U to R to F).
pub(super) fn ufr([a, b, c]: Vec3) -> Vec3 {
    [b, c, a]
}
