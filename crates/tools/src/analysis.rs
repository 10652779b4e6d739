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

use std::sync::OnceLock;

use twistor_core::stabilizer::{
    count_positions, PositionCount, PositionCountError, PositionCountOptions,
};
use twistor_core::{
    BigUint, Layout, Pattern, PatternOrbit, ProjectedGroup, Puzzle, StabilizerChain, Transformation,
};

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

/// Decides whether positions can be reached from a goal, by sifting
/// through stabilizer chains of the group the moves generate. A search
/// for an unreachable position would otherwise run to its depth limit (or
/// a staged solve through all its stages) and report nothing; and of the
/// ways a position may be held, the one that is reachable is tried first.
///
/// Where the goal's pieces are all distinct, the one transformation from
/// goal to position decides exactly. Where some orbit has pieces alike (a
/// big cube's centres), weaker tests:
/// - the moves never carry a piece out of its class of slots, so each
///   class must hold the goal's pieces;
/// - the orbits whose goal pieces are distinct and fully oriented (the
///   labelled orbits) project the group, and a position outside the
///   projection is unreachable (a twisted corner, a master skewb held in
///   another orientation);
/// - a labelling of the pieces alike that the group contains proves the
///   position reachable. The labellings tried are the pieces numbered in
///   slot order within each class, then with two alike swapped in one or
///   two classes (what a class's parity asks for); finding none leaves it
///   unknown.
pub struct ReachabilityTest {
    goal: Pattern,
    /// Per orbit of the puzzle, whether its goal pieces are distinct and
    /// fully oriented.
    labelled: Vec<bool>,
    /// Each orbit's slot classes ([`Layout::slot_classes`]).
    classes: Vec<Vec<usize>>,
    /// The group projected onto the labelled orbits, where some orbit is
    /// not labelled.
    projection: Option<ProjectedGroup>,
    /// The group over every point, where the goal's orientations are all
    /// known and the points are few enough.
    whole: Option<Whole>,
    /// Most bytes the chains above take, by their bounds.
    bytes_bound: u64,
}

/// The group over every point, built on first need, and what labelling
/// pieces alike takes.
struct Whole {
    generators: Vec<Vec<u8>>,
    /// The goal with its pieces numbered by slot.
    numbered: Pattern,
    group: OnceLock<Option<ProjectedGroup>>,
}

impl ReachabilityTest {
    /// The test for `goal` under the group `generators` (transformations
    /// of `puzzle`) generate. A chain over more than `max_points` (slot,
    /// orientation) points is not built (its cost grows with them), nor
    /// chains that together might take more than `max_bytes`
    /// ([`ReachabilityTest::bytes_bound`]).
    pub fn new(
        puzzle: &Puzzle,
        goal: &Pattern,
        generators: &[&[u8]],
        max_points: usize,
        max_bytes: u64,
    ) -> ReachabilityTest {
        let layout = puzzle.layout();
        let labelled = layout.labelled_orbits(goal);
        let classes = layout.slot_classes(generators);
        let goal_orbits = layout.pattern_orbits(goal);
        let projection = if labelled.iter().all(|&l| l) {
            None
        } else {
            ProjectedGroup::new(layout, goal, &labelled, generators, max_points, max_bytes)
        };
        let projection_bytes = if projection.is_some() {
            ProjectedGroup::bytes_bound(layout, goal, &labelled)
        } else {
            0
        };
        let whole_bytes = layout.group_bytes_bound();
        let whole = (!layout.has_partial_orientation(goal)
            && layout.num_points() <= max_points
            && projection_bytes.saturating_add(whole_bytes) <= max_bytes)
            .then(|| {
                let generators: Vec<Vec<u8>> = generators.iter().map(|t| t.to_vec()).collect();
                let numbered = numbered(layout, &goal_orbits, |k| {
                    (0..goal_orbits[k].pieces.len() as u8).collect()
                })?;
                Some(Whole {
                    generators,
                    numbered,
                    group: OnceLock::new(),
                })
            })
            .flatten();
        let bytes_bound = projection_bytes + if whole.is_some() { whole_bytes } else { 0 };
        ReachabilityTest {
            goal: goal.clone(),
            labelled,
            classes,
            projection,
            whole,
            bytes_bound,
        }
    }

    /// Most bytes the test's chains take (the one over every point is
    /// built on first need), by [`StabilizerChain::bytes_bound`]: what a
    /// caller keeping to a memory limit sets aside for it.
    ///
    /// [`StabilizerChain::bytes_bound`]: twistor_core::StabilizerChain::bytes_bound
    pub fn bytes_bound(&self) -> u64 {
        self.bytes_bound
    }

    /// Whether `position` (of the puzzle given to [`new`](Self::new)) is
    /// the goal times an element of the group, as far as the tests above
    /// tell.
    pub fn decide(&self, layout: &Layout, position: &Pattern) -> Reachability {
        // A piece never leaves its class of slots: each class must hold
        // the goal's pieces.
        if !same_pieces_by_class(layout, &self.classes, &self.goal, position) {
            return Reachability::Unreachable;
        }
        if let Some(projection) = &self.projection {
            match projection.contains(layout, position) {
                Some(true) => {}
                Some(false) => return Reachability::Unreachable,
                // Pieces alike or orientations known partly there.
                None => return Reachability::Unknown,
            }
        }
        let Some(whole) = &self.whole else {
            return Reachability::Unknown;
        };

        let group = whole.group.get_or_init(|| {
            let gens: Vec<&[u8]> = whole.generators.iter().map(Vec::as_slice).collect();
            let all = vec![true; layout.orbits().len()];
            ProjectedGroup::new(layout, &whole.numbered, &all, &gens, usize::MAX, u64::MAX)
        });
        let (Some(group), Some(mut labellings)) = (
            group,
            labellings(layout, &self.classes, &self.goal, position),
        ) else {
            return Reachability::Unknown;
        };
        if labellings.any(|q| group.contains(layout, &q) == Some(true)) {
            Reachability::Reachable
        } else if self.labelled.iter().all(|&l| l) {
            // Distinct pieces have one labelling, so this is exact.
            Reachability::Unreachable
        } else {
            Reachability::Unknown
        }
    }
}

/// Whether every class of slots holds the same pieces in `a` as in `b`.
fn same_pieces_by_class(layout: &Layout, classes: &[Vec<usize>], a: &Pattern, b: &Pattern) -> bool {
    classes.iter().enumerate().all(|(k, class)| {
        let ids = |p: &Pattern| {
            let mut ids: Vec<(usize, u8)> = (layout.perm(p.as_bytes(), k).iter().enumerate())
                .map(|(s, &id)| (class[s], id))
                .collect();
            ids.sort_unstable();
            ids
        };
        ids(a) == ids(b)
    })
}

/// The position with its pieces alike told apart (each numbered by the
/// goal slot it is taken home to), in the labellings
/// [`Layout::alike_labellings`] gives; `None` where the position does not
/// hold the goal's pieces with every orientation known.
fn labellings<'a>(
    layout: &'a Layout,
    classes: &[Vec<usize>],
    goal: &Pattern,
    position: &Pattern,
) -> Option<impl Iterator<Item = Pattern> + 'a> {
    let position_orbits = layout.pattern_orbits(position);
    if position_orbits.iter().any(|o| o.orientation_mod.is_some()) {
        return None;
    }
    let homes = layout.alike_labellings(goal.as_bytes(), position.as_bytes(), classes)?;
    Some(homes.filter_map(move |homes| numbered(layout, &position_orbits, |k| homes[k].clone())))
}

/// `orbits` with each orbit `k`'s pieces numbered `pieces(k)`.
fn numbered(
    layout: &Layout,
    orbits: &[PatternOrbit],
    pieces: impl Fn(usize) -> Vec<u8>,
) -> Option<Pattern> {
    let numbered: Vec<PatternOrbit> = (orbits.iter().enumerate())
        .map(|(k, o)| PatternOrbit {
            pieces: pieces(k),
            orientation: o.orientation.clone(),
            orientation_mod: None,
        })
        .collect();
    layout.pattern(&numbered).ok()
}
