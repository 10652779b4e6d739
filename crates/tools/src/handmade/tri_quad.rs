//! The TriQuad (Bram Cohen and Carl Hoff, 2018) as cubing.js models it.
//!
//! Two axes: `U` turns a quarter about a four-fold axis and `R` a third
//! about a three-fold one, each carrying rings of pieces round its axis
//! and twisting the piece on the axis itself (`CORNER_U`, four
//! orientations, and `CORNER_R`, three). The pieces are numbered as
//! cubing.js numbers them; a turn is the rings it carries, each listed in
//! the direction the pieces travel, and the twist each piece gains.

use super::{Builder, Part};

/// A turn of one orbit of `n` pieces: each ring's piece in slot `ring[k]`
/// moves to `ring[k + 1]` (the last to the first), gaining `twist`.
fn rings(orbit: &'static str, n: usize, rings: &[&[usize]], twist: i64) -> Part {
    let mut to: Vec<usize> = (0..n).collect();
    let mut delta = vec![0; n];
    for ring in rings {
        for (k, &slot) in ring.iter().enumerate() {
            let next = ring[(k + 1) % ring.len()];
            to[slot] = next;
            delta[next] = twist;
        }
    }
    Part::new(orbit, super::from_destinations(&to), delta)
}

/// A piece on the axis, turned in place.
fn tip(orbit: &'static str, twist: i64) -> Part {
    Part::new(orbit, vec![0], vec![twist])
}

pub(super) fn definition() -> twistor_core::Puzzle {
    let mut b = Builder::new(
        "tri_quad",
        &[
            ("CORNERS", 5, 3),
            ("CORNER_U", 1, 4),
            ("CORNER_R", 1, 3),
            ("EDGES", 8, 2),
            ("BIG_CENTERS", 6, 1),
            ("SMALL_CENTERS", 13, 3),
        ],
    );
    // The four-fold axis: one ring of four corners, edges and big centres
    // each, and the eight small centres (two a side) moving two places.
    let quarter: &[usize] = &[3, 2, 1, 0];
    b.base(
        "U",
        &[
            rings("CORNERS", 5, &[quarter], 0),
            tip("CORNER_U", -1),
            rings("EDGES", 8, &[quarter], 0),
            rings("BIG_CENTERS", 6, &[quarter], 0),
            rings("SMALL_CENTERS", 13, &[&[6, 4, 2, 0], &[7, 5, 3, 1]], 0),
        ],
    );
    // The three-fold axis: three corners (two of them on the U ring), two
    // rings of edges, one of big centres and three of small centres.
    b.base(
        "R",
        &[
            rings("CORNERS", 5, &[&[0, 1, 4]], 2),
            tip("CORNER_R", 2),
            rings("EDGES", 8, &[&[0, 7, 5], &[1, 6, 4]], 0),
            rings("BIG_CENTERS", 6, &[&[0, 5, 4]], 0),
            rings(
                "SMALL_CENTERS",
                13,
                &[&[0, 11, 9], &[1, 10, 8], &[2, 12, 7]],
                0,
            ),
        ],
    );
    b.finish()
}
