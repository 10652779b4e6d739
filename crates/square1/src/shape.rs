//! Phase 1's coordinate: layout (3,678) × reading parity (2) = 7,356
//! shape states, with move and pruning tables.

use twistor_core::distances::breadth_first;

use crate::position::{fill_layout, layouts, Square1Position, LAYOUT_COUNT};

/// Number of shape states.
pub(crate) const SHAPE_COUNT: usize = 2 * LAYOUT_COUNT;

/// Marks "this turn does not lead to a twistable layout".
pub(crate) const NONE: u16 = u16::MAX;

/// Corner masks of a square layer whose slot 0 starts a corner
/// (corner-first) or holds an edge (edge-first).
const SQUARE_CORNER_FIRST: u32 = 0b0110_1101_1011;
const SQUARE_EDGE_FIRST: u32 = 0b1101_1011_0110;

/// Whether layout `key` is square on both layers.
pub(crate) fn is_square_square(key: u32) -> bool {
    let sq = |m: u32| m == SQUARE_CORNER_FIRST || m == SQUARE_EDGE_FIRST;
    sq(key >> 12) && sq(key & 0xfff)
}

/// The shape state of a twistable position: `2 · layout + parity`.
pub(crate) fn shape_of(pos: &Square1Position) -> Option<u16> {
    let layout = pos.layout_index()?;
    Some((2 * layout + usize::from(pos.reading_parity())) as u16)
}

/// Move and pruning tables over the shape states.
pub(crate) struct ShapeTables {
    /// `top[12 · s + m]`: the state after turning the top `m` slots
    /// (`1 ≤ m < 12`), or [`NONE`] when `/` is then impossible.
    pub top: Vec<u16>,
    /// The same for the bottom layer.
    pub bottom: Vec<u16>,
    /// The state after `/`.
    pub twist: Vec<u16>,
    /// Fewest moves (each turn and each `/` counting one) to a phase-2
    /// goal state.
    pub prune: Vec<u8>,
}

impl ShapeTables {
    pub(crate) fn build() -> ShapeTables {
        let keys = layouts();
        let mut top = vec![NONE; SHAPE_COUNT * 12];
        let mut bottom = vec![NONE; SHAPE_COUNT * 12];
        let mut twist = vec![NONE; SHAPE_COUNT];
        let corners = [0, 1, 2, 3, 4, 5, 6, 7];
        let edges = [8, 9, 10, 11, 12, 13, 14, 15];
        // A move's effect on the reading parity depends only on the layout,
        // so one representative per layout gives both parities' entries.
        for (layout, &key) in keys.iter().enumerate() {
            let rep = fill_layout(key, &corners, &edges);
            let parity = usize::from(rep.reading_parity());
            let record = |table: &mut Vec<u16>, at: usize, after: &Square1Position| {
                if let Some(s) = shape_of(after) {
                    let flip = usize::from(s & 1) ^ parity;
                    let target = usize::from(s) & !1;
                    for p in 0..2 {
                        table[at + 12 * p] = (target | (p ^ flip)) as u16;
                    }
                }
            };
            let base = 2 * layout;
            for m in 1..12 {
                let mut after = rep;
                after.turn_top(m);
                record(&mut top, 12 * base + m, &after);
                let mut after = rep;
                after.turn_bottom(m);
                record(&mut bottom, 12 * base + m, &after);
            }
            let mut after = rep;
            after.slash();
            let s = shape_of(&after).map_or(NONE, |s| s);
            let flip = (s & 1) ^ parity as u16;
            let target = s & !1;
            twist[base] = target | flip;
            twist[base + 1] = target | (1 ^ flip);
        }

        // Goal states: those reached from solved by moves that keep both
        // layers square (phase 2's moves).
        let mut prune = vec![u8::MAX; SHAPE_COUNT];
        let solved = shape_of(&Square1Position::solved()).map_or(0, usize::from);
        let square = |s: usize| is_square_square(keys[s / 2]);
        let mut stack = vec![solved];
        prune[solved] = 0;
        while let Some(s) = stack.pop() {
            let mut next: Vec<usize> = vec![usize::from(twist[s])];
            for m in 1..12 {
                next.push(usize::from(top[12 * s + m]));
                next.push(usize::from(bottom[12 * s + m]));
            }
            for n in next {
                if n != usize::from(NONE) && square(n) && prune[n] != 0 {
                    prune[n] = 0;
                    stack.push(n);
                }
            }
        }

        // Breadth-first search from the goal states.
        let goals: Vec<usize> = (0..SHAPE_COUNT).filter(|&s| prune[s] == 0).collect();
        let prune = breadth_first(SHAPE_COUNT, goals, |s, visit| {
            let mut to = |n: u16| {
                if n != NONE {
                    visit.to(usize::from(n));
                }
            };
            to(twist[s]);
            for m in 1..12 {
                to(top[12 * s + m]);
                to(bottom[12 * s + m]);
            }
        });
        ShapeTables {
            top,
            bottom,
            twist,
            prune,
        }
    }

    /// Bytes held by the tables.
    pub(crate) fn bytes(&self) -> usize {
        2 * (self.top.len() + self.bottom.len() + self.twist.len()) + self.prune.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_goal_states_and_all_states_reached() {
        let t = ShapeTables::build();
        assert_eq!(t.prune.iter().filter(|&&d| d == 0).count(), 4);
        assert!(t.prune.iter().all(|&d| d != u8::MAX));
        // Every goal state is square/square, and `/` is an involution.
        for s in 0..SHAPE_COUNT {
            if t.prune[s] == 0 {
                assert!(is_square_square(layouts()[s / 2]));
            }
            assert_eq!(usize::from(t.twist[usize::from(t.twist[s])]), s);
        }
    }
}
