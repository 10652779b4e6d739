//! Phase 2's coordinates, with both layers square: the order in which the
//! eight corners are read (8! = 40,320), the same for the eight edges, and
//! the middle layer.
//!
//! Pieces are read from slot 0 to 23, top then bottom. A layer is
//! "corner-first" when its first slot (0 or 12) begins a corner, else
//! "edge-first". Turning a corner-first layer one slot makes it edge-first
//! and cycles that layer's four edges in reading order; turning an
//! edge-first layer two slots makes it corner-first and cycles its four
//! corners. `/` (possible only when both layers agree) swaps reading
//! positions 2, 3 with 4, 5, for corners and edges alike. So one move table
//! per move serves corners and edges.

use twistor_core::distances::breadth_first;

use crate::position::{is_corner, Square1Position};

/// 8!.
pub(crate) const PERM_COUNT: usize = 40320;

/// The index (Lehmer code) of a permutation of 0..8.
pub(crate) fn perm_index(p: &[u8; 8]) -> u16 {
    let mut idx = 0usize;
    for i in 0..8 {
        let smaller = p[i + 1..].iter().filter(|&&q| q < p[i]).count();
        idx = idx * (8 - i) + smaller;
    }
    idx as u16
}

/// The permutation with index `idx`.
pub(crate) fn perm_from_index(mut idx: usize) -> [u8; 8] {
    let mut digits = [0usize; 8];
    for i in (0..8).rev() {
        digits[i] = idx % (8 - i);
        idx /= 8 - i;
    }
    let mut available: Vec<u8> = (0..8).collect();
    let mut out = [0u8; 8];
    for i in 0..8 {
        out[i] = available.remove(digits[i]);
    }
    out
}

/// Phase 2's view of a square/square position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SquareCoord {
    pub corners: u16,
    pub edges: u16,
    pub middle: u8,
    pub top_edge_first: bool,
    pub bottom_edge_first: bool,
}

impl SquareCoord {
    /// The coordinates of a position whose layers are both square and
    /// twistable.
    pub(crate) fn of(pos: &Square1Position) -> SquareCoord {
        let reading = pos.reading();
        let mut corners = [0u8; 8];
        let mut edges = [0u8; 8];
        let (mut c, mut e) = (0, 0);
        for &p in &reading {
            if is_corner(p) {
                corners[c % 8] = p;
                c += 1;
            } else {
                edges[e % 8] = p - 8;
                e += 1;
            }
        }
        let slots = pos.slots();
        SquareCoord {
            corners: perm_index(&corners),
            edges: perm_index(&edges),
            middle: u8::from(pos.middle_flipped()),
            top_edge_first: !is_corner(slots[0]),
            bottom_edge_first: !is_corner(slots[12]),
        }
    }
}

/// Phase 2's move and pruning tables.
pub(crate) struct SquareTables {
    /// `/` on a reading permutation.
    pub twist: Vec<u16>,
    /// A top-layer cycle of reading positions 0..4.
    pub top: Vec<u16>,
    /// A bottom-layer cycle of reading positions 4..8.
    pub bottom: Vec<u16>,
    /// Fewest moves (each `/` and each layer turn counting one) that solve
    /// the corners' order, the middle layer and both layers' alignment,
    /// indexed by [`view_index`].
    pub corner_prune: Vec<u8>,
    /// The same for the edges' order.
    pub edge_prune: Vec<u8>,
}

/// Index into the pruning tables: permutation, middle layer, whether the
/// top and the bottom layer are edge-first.
#[inline]
pub(crate) fn view_index(
    perm: u16,
    middle: u8,
    top_edge_first: bool,
    bottom_edge_first: bool,
) -> usize {
    ((usize::from(perm) * 2 + usize::from(middle)) * 2 + usize::from(top_edge_first)) * 2
        + usize::from(bottom_edge_first)
}

/// Breadth-first distances for one kind of piece seen alone (with the
/// middle layer and the alignments). A layer turn cycles the corners when
/// it takes an edge-first layer to corner-first, the edges when it takes a
/// corner-first layer to edge-first.
fn view_prune(twist: &[u16], top: &[u16], bottom: &[u16], edges: bool) -> Vec<u8> {
    // Solved: top corner-first, bottom edge-first.
    let goal = view_index(0, 0, false, true);
    breadth_first(8 * PERM_COUNT, [goal], |i, visit| {
        let perm = (i / 8) as u16;
        let middle = (i / 4 % 2) as u8;
        let ta = i / 2 % 2 == 1;
        let ba = i % 2 == 1;
        if ta == ba {
            visit.to(view_index(twist[usize::from(perm)], middle ^ 1, ta, ba));
        }
        // Up to seven alignment steps make the whole turn (12 slots).
        let (mut p, mut a) = (perm, ta);
        for _ in 0..7 {
            if a != edges {
                p = top[usize::from(p)];
            }
            a = !a;
            visit.to(view_index(p, middle, a, ba));
        }
        let (mut p, mut a) = (perm, ba);
        for _ in 0..7 {
            if a != edges {
                p = bottom[usize::from(p)];
            }
            a = !a;
            visit.to(view_index(p, middle, ta, a));
        }
    })
}

impl SquareTables {
    pub(crate) fn build() -> SquareTables {
        let mut twist = vec![0u16; PERM_COUNT];
        let mut top = vec![0u16; PERM_COUNT];
        let mut bottom = vec![0u16; PERM_COUNT];
        for i in 0..PERM_COUNT {
            let p = perm_from_index(i);
            let mut t = p;
            t.swap(2, 4);
            t.swap(3, 5);
            twist[i] = perm_index(&t);
            let mut t = p;
            t[..4].rotate_right(1);
            top[i] = perm_index(&t);
            let mut t = p;
            t[4..].rotate_right(1);
            bottom[i] = perm_index(&t);
        }
        let corner_prune = view_prune(&twist, &top, &bottom, false);
        let edge_prune = view_prune(&twist, &top, &bottom, true);
        SquareTables {
            twist,
            top,
            bottom,
            corner_prune,
            edge_prune,
        }
    }

    /// The heuristic: the larger of the corner and the edge distance.
    #[inline]
    pub(crate) fn bound(&self, c: &SquareCoord) -> u8 {
        let corners = self.corner_prune
            [view_index(c.corners, c.middle, c.top_edge_first, c.bottom_edge_first)];
        let edges =
            self.edge_prune[view_index(c.edges, c.middle, c.top_edge_first, c.bottom_edge_first)];
        corners.max(edges)
    }

    /// Bytes held by the tables.
    pub(crate) fn bytes(&self) -> usize {
        2 * (self.twist.len() + self.top.len() + self.bottom.len())
            + self.corner_prune.len()
            + self.edge_prune.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perm_index_round_trip() {
        for i in [0usize, 1, 5039, 40319, 12345] {
            assert_eq!(usize::from(perm_index(&perm_from_index(i))), i);
        }
        assert_eq!(perm_index(&[0, 1, 2, 3, 4, 5, 6, 7]), 0);
    }

    #[test]
    fn tables_follow_real_moves() {
        use twistor_core::random::SeededRng;
        let t = SquareTables::build();
        assert!(t.corner_prune.iter().all(|&d| d != u8::MAX));
        assert!(t.edge_prune.iter().all(|&d| d != u8::MAX));
        let mut rng = SeededRng::new(3);
        let mut pos = Square1Position::solved();
        // Random walk within the square/square shape, checking each step.
        for _ in 0..2000 {
            let before = SquareCoord::of(&pos);
            match rng.below(3) {
                0 => {
                    if before.top_edge_first != before.bottom_edge_first {
                        continue;
                    }
                    pos.slash();
                    let after = SquareCoord::of(&pos);
                    assert_eq!(after.corners, t.twist[usize::from(before.corners)]);
                    assert_eq!(after.edges, t.twist[usize::from(before.edges)]);
                    assert_eq!(after.middle, before.middle ^ 1);
                }
                1 => {
                    let m = if before.top_edge_first { 2 } else { 1 };
                    pos.turn_top(m);
                    let after = SquareCoord::of(&pos);
                    assert_eq!(after.top_edge_first, !before.top_edge_first);
                    if before.top_edge_first {
                        assert_eq!(after.corners, t.top[usize::from(before.corners)]);
                        assert_eq!(after.edges, before.edges);
                    } else {
                        assert_eq!(after.edges, t.top[usize::from(before.edges)]);
                        assert_eq!(after.corners, before.corners);
                    }
                }
                _ => {
                    let m = if before.bottom_edge_first { 2 } else { 1 };
                    pos.turn_bottom(m);
                    let after = SquareCoord::of(&pos);
                    assert_eq!(after.bottom_edge_first, !before.bottom_edge_first);
                    if before.bottom_edge_first {
                        assert_eq!(after.corners, t.bottom[usize::from(before.corners)]);
                        assert_eq!(after.edges, before.edges);
                    } else {
                        assert_eq!(after.edges, t.bottom[usize::from(before.edges)]);
                        assert_eq!(after.corners, before.corners);
                    }
                }
            }
        }
    }
}
