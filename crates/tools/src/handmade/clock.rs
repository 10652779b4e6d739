//! The Rubik's Clock as cubing.js models it.
//!
//! Eighteen dials, nine a side: `DIALS` 0-8 are the front grid row by row,
//! 9-17 the back grid row by row as seen from the back (so back 9 is
//! behind front 2). A dial's orientation is its hour, mod 12. The four
//! corner dials of each side are one gear with the dial behind them, so a
//! corner turning clockwise on one side turns anticlockwise (as that side
//! sees it) on the other. `FACES` (mod 1) and `HOUR_MARKS` (quarter turns
//! of the face under a dial) follow the whole-puzzle rotations only, and
//! `FRAME` (mod 2) says which side faces you.
//!
//! A turn is a set of pins and a side: the four pins sit between the
//! dials, each touching a 2x2 block of them; with pins up on the front,
//! turning a front wheel turns every front dial in those pins' blocks, and
//! the back corners behind the front corners among them turn the other
//! way. The back moves are the same with the pins down, seen from the
//! back. cubing.js names the moves after the pins (`UL`, `U` for both
//! upper pins, `MUL` for the diagonal `UL DR`, `ULw` for all but `DR`,
//! `ALL`), with `_PLUS_` so that `UR3+` and `DL2-` read as amounts of
//! them; only `UL_PLUS_`, `U_PLUS_`, `ALL_PLUS_` and the rotations `y2`
//! and `z` are base moves, the rest are conjugates and products of them.

use super::{Builder, Part};

/// The four pins, clockwise from the upper left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pin {
    UL,
    UR,
    DR,
    DL,
}

const PINS: [Pin; 4] = [Pin::UL, Pin::UR, Pin::DR, Pin::DL];

impl Pin {
    /// The rows and columns (front view) of the dials the pin touches.
    fn block(self) -> ([usize; 2], [usize; 2]) {
        match self {
            Pin::UL => ([0, 1], [0, 1]),
            Pin::UR => ([0, 1], [1, 2]),
            Pin::DR => ([1, 2], [1, 2]),
            Pin::DL => ([1, 2], [0, 1]),
        }
    }
}

/// A side of the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    Front,
    Back,
}

/// The dial at row `r`, column `c` of the front view, on `side`.
fn dial(side: Side, r: usize, c: usize) -> usize {
    match side {
        Side::Front => 3 * r + c,
        // Seen from the back the columns run the other way.
        Side::Back => 9 + 3 * r + (2 - c),
    }
}

/// How many hours each dial turns when the wheels on `side` turn one hour
/// clockwise as seen from the front, with `pins` connecting them (up on
/// the front side, down on the back side): dials on that side in the
/// pins' blocks, and every corner among them on both sides, front dials
/// +1 and back dials -1 (anticlockwise as the back sees it).
pub(super) fn pin_turn(side: Side, pins: &[Pin]) -> [i64; 18] {
    let mut delta = [0i64; 18];
    let sign = |s: Side| if s == Side::Front { 1 } else { -1 };
    let mut turned = [[false; 3]; 3];
    for pin in pins {
        let (rows, cols) = pin.block();
        for r in rows {
            for c in cols {
                turned[r][c] = true;
            }
        }
    }
    for (r, row) in turned.iter().enumerate() {
        for (c, &t) in row.iter().enumerate() {
            if !t {
                continue;
            }
            delta[dial(side, r, c)] = sign(side);
            if r != 1 && c != 1 {
                let other = if side == Side::Front {
                    Side::Back
                } else {
                    Side::Front
                };
                delta[dial(other, r, c)] = sign(other);
            }
        }
    }
    delta
}

type Vec3 = [i64; 3];

/// Where dial `i` sits: x right, y up, z towards the front viewer.
fn position(i: usize) -> Vec3 {
    let (side, cell) = (i / 9, i % 9);
    let (r, c) = (cell / 3, cell % 3);
    if side == 0 {
        [c as i64 - 1, 1 - r as i64, 1]
    } else {
        // Back column k (as seen from the back) is front-view column 2 - k.
        [1 - c as i64, 1 - r as i64, -1]
    }
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn neg(a: Vec3) -> Vec3 {
    [-a[0], -a[1], -a[2]]
}

/// A whole-clock rotation as cubing.js's orbits see it: dials, faces and
/// hour marks move with their positions; a dial's hour and its face's
/// hour marks turn by the quarter turns the rotation gives the twelve
/// o'clock direction, as the side it lands on sees it; the frame flips
/// when the front turns away.
fn rotation(rotate: impl Fn(Vec3) -> Vec3) -> Vec<Part> {
    let up: Vec3 = [0, 1, 0];
    let mut to = vec![0; 18];
    let mut quarter = vec![0i64; 18];
    for (i, slot) in to.iter_mut().enumerate() {
        let p = rotate(position(i));
        let j = (0..18)
            .find(|&j| position(j) == p)
            .expect("rotations keep the dials' places");
        *slot = j;
        let normal = [0, 0, p[2]];
        let right = cross(up, normal);
        let u = rotate(up);
        quarter[j] = [up, right, neg(up), neg(right)]
            .iter()
            .position(|&d| d == u)
            .expect("quarter turns keep twelve o'clock on an axis") as i64;
    }
    let permutation = super::from_destinations(&to);
    let flip = i64::from(rotate([0, 0, 1])[2] < 0);
    vec![
        Part::new(
            "DIALS",
            permutation.clone(),
            quarter.iter().map(|q| 3 * q).collect(),
        ),
        Part::permutation("FACES", permutation.clone()),
        Part::new("FRAME", vec![0], vec![flip]),
        Part::new("HOUR_MARKS", permutation, quarter),
    ]
}

fn dials(delta: [i64; 18]) -> Vec<Part> {
    vec![Part::new("DIALS", (0..18).collect(), delta.to_vec())]
}

/// The pin sets cubing.js names, front view: `(name, pins)`.
pub(super) fn pin_sets() -> Vec<(&'static str, Vec<Pin>)> {
    use Pin::*;
    let all_but = |p: Pin| PINS.iter().copied().filter(|&q| q != p).collect();
    vec![
        ("UL", vec![UL]),
        ("UR", vec![UR]),
        ("DR", vec![DR]),
        ("DL", vec![DL]),
        ("U", vec![UL, UR]),
        ("R", vec![UR, DR]),
        ("D", vec![DR, DL]),
        ("L", vec![DL, UL]),
        ("MUL", vec![UL, DR]),
        ("MDR", vec![UL, DR]),
        ("MUR", vec![UR, DL]),
        ("MDL", vec![UR, DL]),
        ("ULw", all_but(DR)),
        ("URw", all_but(DL)),
        ("DRw", all_but(UL)),
        ("DLw", all_but(UR)),
        ("ALL", PINS.to_vec()),
        ("F", PINS.to_vec()),
    ]
}

/// The front move's name as the back sees it: left and right swap.
fn mirrored(name: &str) -> String {
    if name == "ALL" {
        return name.to_string();
    }
    name.chars()
        .map(|c| match c {
            'L' => 'R',
            'R' => 'L',
            c => c,
        })
        .collect()
}

/// The name of a back move: `B` then the front move's name, and `B` alone
/// for all pins.
pub(super) fn back_name(front: &str) -> String {
    if front == "ALL" {
        "B".to_string()
    } else {
        format!("B{front}")
    }
}

pub(super) fn definition() -> twistor_core::Puzzle {
    let mut b = Builder::new(
        "clock",
        &[
            ("DIALS", 18, 12),
            ("FACES", 18, 1),
            ("FRAME", 1, 2),
            ("HOUR_MARKS", 18, 4),
        ],
    );
    b.base("UL_PLUS_", &dials(pin_turn(Side::Front, &[Pin::UL])));
    b.base(
        "U_PLUS_",
        &dials(pin_turn(Side::Front, &[Pin::UL, Pin::UR])),
    );
    b.base("ALL_PLUS_", &dials(pin_turn(Side::Front, &PINS)));
    // A half turn about the vertical axis, and a quarter turn clockwise
    // as seen from the front.
    b.base("y2", &rotation(|[x, y, z]| [-x, y, -z]));
    b.base("z", &rotation(|[x, y, z]| [y, -x, z]));

    // The other corners and edges are the upper-left corner and the upper
    // edge turned round to them: clockwise from the upper left, the
    // rotation that brings each to the upper left (or the top).
    let to_top = ["", "z'", "z2", "z"];
    for (corner, rot) in ["UL", "UR", "DR", "DL"].iter().zip(to_top).skip(1) {
        b.derived(&format!("{corner}_PLUS_"), &format!("[{rot}: UL_PLUS_]"));
    }
    for (edge, rot) in ["U", "R", "D", "L"].iter().zip(to_top).skip(1) {
        b.derived(&format!("{edge}_PLUS_"), &format!("[{rot}: U_PLUS_]"));
    }
    b.derived("F_PLUS_", "ALL_PLUS_");
    b.derived("x2", "y2 z2");
    // Three pins: both edges through a corner, less the corner counted twice.
    for (v, h) in [("U", "L"), ("U", "R"), ("D", "L"), ("D", "R")] {
        b.derived(
            &format!("{v}{h}w_PLUS_"),
            &format!("{v}_PLUS_ {h}_PLUS_ {v}{h}_PLUS_'"),
        );
    }
    // A diagonal pair: the four edges less the other diagonal's corners,
    // less everything once more.
    for (name, others) in [("MUL", ["UR", "DL"]), ("MUR", ["UL", "DR"])] {
        b.derived(
            &format!("{name}_PLUS_"),
            &format!(
                "{}_PLUS_' {}_PLUS_' U_PLUS_ R_PLUS_ D_PLUS_ L_PLUS_ ALL_PLUS_'",
                others[0], others[1]
            ),
        );
    }
    b.derived("MDR_PLUS_", "MUL_PLUS_");
    b.derived("MDL_PLUS_", "MUR_PLUS_");
    // The back: flip the clock, turn the mirrored pins the other way, flip back.
    for (name, _) in pin_sets() {
        if name == "F" {
            continue;
        }
        b.derived(
            &format!("{}_PLUS_", back_name(name)),
            &format!("[y2: {}_PLUS_']", mirrored(name)),
        );
    }
    // Pin states written at the end of a scramble do nothing to the dials.
    for pin in ["UL", "UR", "DL", "DR"] {
        b.derived(pin, ".");
    }
    b.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dial_move_is_its_pins_turn() {
        let clock = definition();
        let l = clock.layout();
        for (name, pins) in pin_sets() {
            for side in [Side::Front, Side::Back] {
                let full = match side {
                    Side::Front => format!("{name}_PLUS_"),
                    Side::Back if name == "F" => continue,
                    Side::Back => format!("{}_PLUS_", back_name(name)),
                };
                let b = Builder::new(
                    "clock",
                    &[
                        ("DIALS", 18, 12),
                        ("FACES", 18, 1),
                        ("FRAME", 1, 2),
                        ("HOUR_MARKS", 18, 4),
                    ],
                );
                let expected = b.transformation(&full, &dials(pin_turn(side, &pins)));
                let i = clock.find_move(&full).unwrap_or_else(|| panic!("{full}"));
                assert_eq!(clock.moves()[i].transformation, expected, "{full}");
                assert_eq!(l.order(&expected), 12u32.into(), "{full}");
            }
        }
    }

    #[test]
    fn rotations_have_their_orders() {
        let clock = definition();
        let l = clock.layout();
        for (name, order) in [("y2", 2u32), ("z", 4), ("x2", 2)] {
            let t = &clock.moves()[clock.find_move(name).unwrap()].transformation;
            assert_eq!(l.order(t), order.into(), "{name}");
        }
    }
}
