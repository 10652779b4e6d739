//! How long an optimal search would take, before starting it.
//!
//! A position at the typical distance `D` of a puzzle with `N` positions
//! and branching factor `b` (canonical sequences grow by `b` a move) is
//! searched to depth `D ≈ log N / log b`, the *counting bound*: fewer
//! moves cannot even name every position. Pattern databases of `E`
//! entries prune the last `h ≈ log E / log b` levels, so IDA* visits about
//! `b^(D − h)` nodes (Korf's analysis). The estimate is coarse — a factor
//! of a hundred either way — but the puzzles it sorts are millions of
//! times apart: a 2x2x2 (`b^(D−h)` near 1) against a 4x4x4 (`10^37`).
//!
//! Positions are counted from the orbits alone (arrangements and twists,
//! pieces alike counted once): an upper bound that ignores parity and
//! twist constraints, a few factors of two or three, and costs nothing
//! even on a 40x40x40.

use twistor_core::{Pattern, Puzzle};
use twistor_search::{CanonicalFsm, MoveSet};

/// Nodes (log10) above which an optimal search is out of reach: hours of
/// search on two cores.
pub const OUT_OF_REACH_LOG10_NODES: f64 = 11.0;
/// Nodes (log10) below which an optimal search is quick enough to answer
/// `solve --fast` (a second or so).
pub const QUICK_LOG10_NODES: f64 = 8.0;

/// The estimate of an optimal search.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// log10 of the positions the goal's pieces can take (an upper bound).
    pub log10_positions: f64,
    /// Canonical sequences' growth a move.
    pub branching: f64,
    /// Moves too few to name every position: ⌈log N / log b⌉.
    pub counting_bound: u32,
    /// Levels the pattern databases prune, log E / log b.
    pub pruned_levels: f64,
    /// log10 of the nodes a search to the counting bound visits.
    pub log10_nodes: f64,
}

impl Estimate {
    /// Whether an optimal search is out of reach for a typical position.
    pub fn out_of_reach(&self) -> bool {
        self.log10_nodes > OUT_OF_REACH_LOG10_NODES
    }

    /// Whether an optimal search answers a typical position quickly.
    pub fn quick(&self) -> bool {
        self.log10_nodes <= QUICK_LOG10_NODES
    }
}

/// The estimate for positions of `puzzle` reaching `goal` with `moves`,
/// with tables of `memory_bytes`.
pub fn estimate(puzzle: &Puzzle, moves: &MoveSet, goal: &Pattern, memory_bytes: u64) -> Estimate {
    let log10_positions = log10_positions(puzzle, moves, goal);
    let branching = branching(moves).max(1.01);
    let counting_bound = (log10_positions / branching.log10()).ceil().max(0.0) as u32;
    // Four-bit entries; a database's mean bound sits about a level below
    // its deepest entries.
    let entries = (memory_bytes as f64 * 2.0).max(2.0);
    let pruned_levels = (entries.log10() / branching.log10() - 1.0).max(0.0);
    let log10_nodes = ((counting_bound as f64 - pruned_levels) * branching.log10()).max(0.0);
    Estimate {
        log10_positions,
        branching,
        counting_bound,
        pruned_levels,
        log10_nodes,
    }
}

/// log10 of the arrangements of the goal's pieces in the slots the moves
/// turn: per orbit, the slots' multinomial over pieces alike, times the
/// orientations known.
pub fn log10_positions(puzzle: &Puzzle, moves: &MoveSet, goal: &Pattern) -> f64 {
    let layout = puzzle.layout();
    let mut total = 0.0;
    for (k, o) in layout.orbits().iter().enumerate() {
        let n_all = layout.perm(goal.as_bytes(), k).len();
        let turned: Vec<usize> = (0..n_all)
            .filter(|&s| {
                moves.moves().iter().any(|m| {
                    let t = m.transformation.as_bytes();
                    layout.perm(t, k)[s] as usize != s || layout.ori(t, k)[s] != 0
                })
            })
            .collect();
        let perm: Vec<u8> = turned
            .iter()
            .map(|&s| layout.perm(goal.as_bytes(), k)[s])
            .collect();
        let ori: Vec<u8> = turned
            .iter()
            .map(|&s| layout.ori(goal.as_bytes(), k)[s])
            .collect();
        let n = perm.len();
        let mut counts: Vec<usize> = Vec::new();
        let mut ids: Vec<u8> = Vec::new();
        for &id in &perm {
            match ids.iter().position(|&x| x == id) {
                Some(i) => counts[i] += 1,
                None => {
                    ids.push(id);
                    counts.push(1);
                }
            }
        }
        total += log10_factorial(n) - counts.iter().map(|&c| log10_factorial(c)).sum::<f64>();
        for &code in &ori {
            let (_, m) = layout.decode_orientation(k, code);
            let m = if m == 0 {
                o.num_orientations()
            } else {
                m as usize
            };
            total += (m as f64).log10();
        }
    }
    total
}

fn log10_factorial(n: usize) -> f64 {
    (2..=n).map(|i| (i as f64).log10()).sum()
}

/// Canonical sequences' growth a move, from the automaton's counts (or,
/// past the grips it handles, the moves less those of the last grip).
pub fn branching(moves: &MoveSet) -> f64 {
    if let Ok(fsm) = CanonicalFsm::new(moves) {
        let counts = fsm.counts(12);
        let (a, b) = (counts[11] as f64, counts[12] as f64);
        if a > 0.0 && b > 0.0 {
            return b / a;
        }
    }
    let m = moves.moves().len() as f64;
    let grips = moves.grips().len().max(1) as f64;
    m - m / grips
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_geometry::{build, PuzzleOptions};
    use twistor_search::Metric;

    fn estimate_of(name: &str) -> Estimate {
        let puzzle = build(name, &PuzzleOptions::default())
            .unwrap()
            .into_puzzle();
        let moves = MoveSet::all(&puzzle, Metric::Htm).unwrap();
        estimate(&puzzle, &moves, puzzle.start(), 256 << 20)
    }

    #[test]
    fn the_3x3x3_counting_bound_is_the_known_one() {
        // 4.3 × 10^19 positions (counted without the parity and twist
        // constraints: 12 times more), 13.35 canonical sequences a move.
        let e = estimate_of("3x3x3");
        assert!((e.branching - 13.348).abs() < 0.01, "{e:?}");
        assert!(
            (e.log10_positions - (4.3252e19f64 * 12.0).log10()).abs() < 0.01,
            "{e:?}"
        );
        assert_eq!(e.counting_bound, 19);
    }

    #[test]
    fn small_puzzles_are_quick_and_big_ones_out_of_reach() {
        assert!(estimate_of("2x2x2").quick());
        assert!(estimate_of("pyraminx").quick());
        for name in ["4x4x4", "megaminx", "FTO", "5x5x5"] {
            assert!(estimate_of(name).out_of_reach(), "{name}");
        }
    }
}
