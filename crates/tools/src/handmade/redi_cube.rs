//! The Redi Cube as cubing.js models it.
//!
//! Twelve edges and eight corners, numbered and oriented as cubing.js's
//! 3x3x3 numbers them ([`super::cubie`]). Each of the eight corners turns
//! by thirds, carrying the three edges next to it. cubing.js defines one
//! corner turn, `F` at the UFR corner, and the rotations `x` and `y`; the
//! other corner turns (`UR U UL D L R B`) and `z` are conjugates of them.
//! Here those corner turns are search moves (defined by their algs), so
//! that `solve`, `random` and God's algorithm turn every corner, not `F`
//! alone.

use super::cubie::{turn, ufr, x, y, CORNERS, EDGES};
use super::Builder;

pub(super) fn definition() -> twistor_core::Puzzle {
    let mut b = Builder::new("redi_cube", &[("EDGES", 12, 2), ("CORNERS", 8, 3)]);
    let everything = |_: [i64; 3]| true;
    // The UFR corner and the edges touching it: the cubies whose centres
    // lie on the corner's side of a plane across its three edges.
    let near_ufr = |c: [i64; 3]| c[0] + c[1] + c[2] >= 2;
    b.base(
        "F",
        &[
            turn("EDGES", &EDGES, &ufr, &near_ufr),
            turn("CORNERS", &CORNERS, &ufr, &near_ufr),
        ],
    );
    for (name, rotate) in [("x", x as fn(_) -> _), ("y", y)] {
        b.base(
            name,
            &[
                turn("EDGES", &EDGES, &rotate, &everything),
                turn("CORNERS", &CORNERS, &rotate, &everything),
            ],
        );
    }
    b.derived("z", "[x: y]");
    // Each corner turn is F with the cube turned so that its corner is at
    // UFR: y brings URB there, y2 UBL, y' ULF, x DRF, z2 DFL, x2 DBR and
    // y2 x DLB.
    for (name, rotation) in [
        ("UR", "y"),
        ("U", "y2"),
        ("UL", "y'"),
        ("D", "x"),
        ("L", "z2"),
        ("R", "x2"),
        ("B", "y2 x"),
    ] {
        b.sequence(name, &format!("[{rotation}: F]"));
    }
    b.finish()
}
