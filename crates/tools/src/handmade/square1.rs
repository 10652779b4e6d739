//! The Square-1 as cubing.js models it (its "hyperorbit" model).
//!
//! Each layer is a ring of twelve 30-degree wedges, a corner being two
//! wedges and an edge one: `WEDGES` 0-11 are the top ring, 12-23 the
//! bottom ring, each wedge its own piece. `EQUATOR` is the two halves of
//! the middle layer. The model does not bandage: `/` may cut through a
//! corner, so every sequence of turns is a position here, including those
//! the real puzzle cannot reach. The orientation counts (9 for wedges,
//! 6 for the equator) are cubing.js's; only the slash's half turn of the
//! right equator half (3 of 6) ever changes one.
//!
//! The moves are named as the notation reads them: `(1, 0)` is one
//! `U_SQ_`, `(0, 1)` one `D_SQ_`, `/` is `_SLASH_`.

use super::{Builder, Part};

/// Wedges per ring.
const RING: usize = 12;

/// One ring of wedges turned one wedge along: the wedge in slot `i` of
/// the ring moves to slot `i + 1`.
fn ring_turn(first: usize) -> Vec<usize> {
    let to: Vec<usize> = (0..2 * RING)
        .map(|i| {
            if (first..first + RING).contains(&i) {
                first + (i - first + 1) % RING
            } else {
                i
            }
        })
        .collect();
    super::from_destinations(&to)
}

pub(super) fn definition() -> twistor_core::Puzzle {
    let mut b = Builder::new("square1", &[("WEDGES", 2 * RING, 9), ("EQUATOR", 2, 6)]);
    b.base("U_SQ_", &[Part::permutation("WEDGES", ring_turn(0))]);
    b.base("D_SQ_", &[Part::permutation("WEDGES", ring_turn(RING))]);
    // The slash turns the right half of the puzzle over: the top ring's
    // last six wedges and the bottom ring's first six change places, and
    // the right half of the equator (piece 1) makes a half turn.
    let half = RING / 2;
    let to: Vec<usize> = (0..2 * RING)
        .map(|i| match i {
            i if (half..RING).contains(&i) => i + half,
            i if (RING..RING + half).contains(&i) => i - half,
            i => i,
        })
        .collect();
    b.base(
        "_SLASH_",
        &[
            Part::permutation("WEDGES", super::from_destinations(&to)),
            Part::new("EQUATOR", vec![0, 1], vec![0, 3]),
        ],
    );
    b.finish()
}
