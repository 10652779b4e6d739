//! Breadth-first distance tables over small coordinate spaces: the one
//! fill the dedicated solvers' pruning tables share (two-phase's compact
//! tables, the 4x4x4's phase tables, Square-1's shape and view tables).
//!
//! The states are the integers `0..n`; the caller says where each state's
//! moves lead, so a move table of any shape (a flat array, several tables,
//! moves a state cannot make) drives the same loop. The generic engine's tables are larger and filled in
//! parallel by `search`; these are at most tens of millions of entries.
//!
//! ```
//! use twistor_core::distances::{breadth_first, UNREACHED};
//!
//! // A cycle of six states, one move forward and one back.
//! let d = breadth_first(6, [0], |s, visit| {
//!     visit.to((s + 1) % 6);
//!     visit.to((s + 5) % 6);
//! });
//! assert_eq!(d, [0, 1, 2, 3, 2, 1]);
//! // Moves that never reach state 3 leave it unreached.
//! let d = breadth_first(4, [0], |s, visit| {
//!     if s < 2 {
//!         visit.to(s + 1);
//!     }
//! });
//! assert_eq!(d, [0, 1, 2, UNREACHED]);
//! ```

/// The distance of a state no sequence of moves reaches from a goal.
pub const UNREACHED: u8 = u8::MAX;

/// Distances from the nearest of `goals` over the states `0..n`, where
/// `neighbours(state, visit)` calls [`Visit::to`] with every state one
/// move from `state` (below `n`); a state never reached is [`UNREACHED`].
/// Distances past 254 are not told apart from it.
pub fn breadth_first(
    n: usize,
    goals: impl IntoIterator<Item = usize>,
    mut neighbours: impl FnMut(usize, &mut Visit<'_>),
) -> Vec<u8> {
    let mut distance = vec![UNREACHED; n];
    let mut frontier: Vec<u32> = Vec::new();
    for g in goals {
        if distance[g] == UNREACHED {
            distance[g] = 0;
            frontier.push(g as u32);
        }
    }
    let mut depth = 0u8;
    while !frontier.is_empty() && depth < UNREACHED - 1 {
        let mut visit = Visit {
            distance: &mut distance,
            next: Vec::with_capacity(frontier.len() * 2),
            depth: depth + 1,
        };
        for &x in &frontier {
            neighbours(x as usize, &mut visit);
        }
        frontier = visit.next;
        depth += 1;
    }
    distance
}

/// A breadth-first fill's step: the states found one move further.
pub struct Visit<'a> {
    distance: &'a mut [u8],
    next: Vec<u32>,
    depth: u8,
}

impl Visit<'_> {
    /// State `y` is one move from the state being expanded.
    #[inline]
    pub fn to(&mut self, y: usize) {
        if self.distance[y] == UNREACHED {
            self.distance[y] = self.depth;
            self.next.push(y as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_of_a_grid_are_manhattan_distances_from_the_nearest_goal() {
        // A 5x7 grid, moves to the four neighbours, goals at two corners.
        let (w, h) = (5usize, 7usize);
        let d = breadth_first(w * h, [0, w * h - 1], |s, visit| {
            let (x, y) = (s % w, s / w);
            if x > 0 {
                visit.to(s - 1);
            }
            if x + 1 < w {
                visit.to(s + 1);
            }
            if y > 0 {
                visit.to(s - w);
            }
            if y + 1 < h {
                visit.to(s + w);
            }
        });
        for (s, &distance) in d.iter().enumerate() {
            let (x, y) = (s % w, s / w);
            let near = (x + y).min((w - 1 - x) + (h - 1 - y));
            assert_eq!(distance as usize, near, "state {s}");
        }
    }
}
