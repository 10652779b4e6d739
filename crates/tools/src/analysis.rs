//! What a puzzle's moves allow: move orders, orientation-sum and parity
//! constraints, and the number of distinguishable positions.
//!
//! The total orientation of an orbit (modulo its orientation count `m`) and
//! the permutation parity of each orbit are homomorphisms of the group, so
//! what the generators do to them is what the whole group does:
//! - the orientation sums reachable in an orbit are the multiples of
//!   `gcd(m, s_1, …, s_k)` where `s_i` is generator `i`'s sum;
//! - the reachable parity vectors (one bit per orbit) are the span over
//!   GF(2) of the generators' vectors, and the constraints are the vectors
//!   orthogonal to that span: each names a set of orbits whose parities
//!   always add up to even (one orbit alone: its parity is always even; two:
//!   their parities are linked).

use twistor_core::stabilizer::{
    count_positions, PositionCount, PositionCountError, PositionCountOptions,
};
use twistor_core::{BigUint, Puzzle, StabilizerChain, Transformation};

/// The orientation sums an orbit can reach.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrientationSum {
    /// Orbit index.
    pub orbit: usize,
    /// The orbit's orientation count.
    pub modulus: usize,
    /// The reachable sums are the multiples of this (a divisor of
    /// `modulus`); equal to `modulus` when the sum is always 0.
    pub step: usize,
}

impl OrientationSum {
    /// Whether the total orientation never changes.
    pub fn preserved(&self) -> bool {
        self.step == self.modulus
    }
}

/// What the moves allow, orbit by orbit.
#[derive(Clone, Debug)]
pub struct Constraints {
    /// For every orbit with more than one orientation.
    pub orientation_sums: Vec<OrientationSum>,
    /// Sets of orbit indices whose permutation parities always add up to
    /// even, as a basis of all such relations (reduced: an orbit whose
    /// parity is always even appears alone).
    pub parity_relations: Vec<Vec<usize>>,
}

/// The orientation-sum and parity constraints of the group `generators`
/// (the puzzle's moves, or any of its transformations) generate.
pub fn constraints(puzzle: &Puzzle, generators: &[&Transformation]) -> Constraints {
    let layout = puzzle.layout();
    let orbits = layout.orbits();
    let mut orientation_sums = Vec::new();
    for (k, o) in orbits.iter().enumerate() {
        let m = o.num_orientations();
        if m == 1 {
            continue;
        }
        let mut step = m;
        for t in generators {
            let s: usize = layout
                .ori(t.as_bytes(), k)
                .iter()
                .map(|&x| x as usize)
                .sum::<usize>()
                % m;
            step = gcd(step, s);
        }
        orientation_sums.push(OrientationSum {
            orbit: k,
            modulus: m,
            step,
        });
    }
    // Rows: generators' parity vectors; relations: the null space of the
    // matrix whose rows they are.
    let rows: Vec<Vec<bool>> = generators
        .iter()
        .map(|t| (0..orbits.len()).map(|k| layout.is_odd(t, k)).collect())
        .collect();
    Constraints {
        orientation_sums,
        parity_relations: null_space(rows, orbits.len()),
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A basis of the vectors `c` over GF(2) with `r · c = 0` for every row,
/// each as the set of its non-zero coordinates, smallest first.
fn null_space(mut rows: Vec<Vec<bool>>, width: usize) -> Vec<Vec<usize>> {
    // Reduced row echelon form.
    let mut pivots = Vec::new();
    let mut rank = 0;
    for col in 0..width {
        let Some(p) = (rank..rows.len()).find(|&r| rows[r][col]) else {
            continue;
        };
        rows.swap(rank, p);
        let pivot = rows[rank].clone();
        for (r, row) in rows.iter_mut().enumerate() {
            if r != rank && row[col] {
                for (a, &b) in row.iter_mut().zip(&pivot) {
                    *a ^= b;
                }
            }
        }
        pivots.push(col);
        rank += 1;
    }
    let mut basis = Vec::new();
    for free in (0..width).filter(|c| !pivots.contains(c)) {
        let mut v = vec![free];
        for (r, &pc) in pivots.iter().enumerate() {
            if rows[r][free] {
                v.push(pc);
            }
        }
        v.sort_unstable();
        basis.push(v);
    }
    basis.sort_by_key(|v| (v.len(), v.clone()));
    basis
}

/// The order of each of the given moves.
pub fn move_orders(puzzle: &Puzzle, moves: &[&Transformation]) -> Vec<BigUint> {
    moves.iter().map(|t| puzzle.layout().order(t)).collect()
}

/// Whether the start pattern has identical pieces or orientations known
/// only partly, so that positions are fewer than group elements.
pub fn has_indistinguishable_pieces(puzzle: &Puzzle) -> bool {
    let l = puzzle.layout();
    l.has_identical_pieces(puzzle.start()) || l.has_partial_orientation(puzzle.start())
}

/// The distinguishable positions reachable from the start pattern in the
/// group `chain` describes (see [`twistor_core::stabilizer`]).
pub fn positions(
    puzzle: &Puzzle,
    chain: &StabilizerChain,
) -> Result<PositionCount, PositionCountError> {
    // Each search node costs a pass over the points: bound the work, not
    // the nodes, so that info answers within seconds on any puzzle.
    let degree = puzzle.layout().num_points().max(1) as u64;
    let options = PositionCountOptions {
        max_nodes: (2_000_000_000 / degree).max(10_000),
        ..PositionCountOptions::default()
    };
    count_positions(puzzle.layout(), puzzle.start(), chain, &options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_space_of_linked_and_fixed_parities() {
        // Orbits A, B, C: generators flip A and B together; C never odd.
        let rows = vec![vec![true, true, false], vec![true, true, false]];
        assert_eq!(null_space(rows, 3), vec![vec![2], vec![0, 1]]);
        // No constraint when every orbit can be odd alone.
        let free = vec![vec![true, false], vec![false, true]];
        assert!(null_space(free, 2).is_empty());
    }
}

/// Whether a position can be reached from a goal by a group's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reachability {
    /// Some sequence of the moves takes the goal to the position.
    Reachable,
    /// No sequence of the moves can: the position is in another coset.
    Unreachable,
    /// Not decided: the goal or the position has identical pieces or
    /// unknown orientations, where membership is a coset question that
    /// sifting alone does not answer.
    Unknown,
}

/// Decides exactly whether `position` is `goal` times an element of the
/// group `chain` describes (built over `layout`'s points, as
/// [`Puzzle::group`] builds it), by sifting the one transformation that
/// could do it through the stabilizer chain. A search for an unreachable
/// position would otherwise run to its depth limit and report nothing.
pub fn reachability(
    layout: &twistor_core::Layout,
    chain: &StabilizerChain,
    goal: &twistor_core::Pattern,
    position: &twistor_core::Pattern,
) -> Reachability {
    let (Some(g), Some(p)) = (
        layout.transformation_of(goal),
        layout.transformation_of(position),
    ) else {
        return Reachability::Unknown;
    };
    // goal · t = position, so t = goal⁻¹ · position.
    let t = layout.compose(&layout.invert(&g), &p);
    if chain.contains(&layout.to_points(t.as_bytes())) {
        Reachability::Reachable
    } else {
        Reachability::Unreachable
    }
}
