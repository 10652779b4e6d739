//! God's algorithm one coset at a time (Rokicki's method), so that the
//! work splits into pieces that need no knowledge of each other and can
//! run on different machines and days, then be merged exactly.
//!
//! `H` is the subgroup some of the moves generate. For a representative
//! `g`, the coset `C = g⁻¹H` holds the positions `x` with `g·x ∈ H`, and
//! is indexed by `y = g·x` with `H`'s perfect index. A shortest sequence
//! for `x` ends in a longest run `t` of `H`'s moves; what comes before,
//! `s`, brings `g` into `H` and ends in a move outside `H` (a *phase-1
//! solution* of `g`). So the positions of `C` within `n` moves are
//!
//! ```text
//! S(n) = S(n-1) ∪ S(n-1)·M_H ∪ { g·s : s a phase-1 solution of g, |s| = n }
//! ```
//!
//! found by a breadth-first search over `H`'s index seeded, depth by
//! depth, by a depth-first search for phase-1 solutions pruned by the
//! distance of each coset from `H` (a table over the cosets).
//!
//! Cosets are told apart by a key that `H` cannot change: each point
//! (slot and orientation) of the puzzle is coloured by its orbit under
//! `H`, and a position's key is the colour of the point each point goes
//! to. Two positions have the same key exactly when they lie in the same
//! coset if `H` is all of the colour-preserving elements; the planner
//! checks that by counting (keys × |H| = |G|) and refuses a subgroup it
//! cannot tell apart this way. Rotations of the puzzle that map the moves
//! and `H`'s moves to themselves map cosets to cosets with the same
//! distances, so only one coset of each class is solved and weighed by
//! the class's size.

use std::collections::HashMap;
use std::time::Instant;

use twistor_core::symmetry::SymmetryGroup;
use twistor_core::{Puzzle, StabilizerChain};

use super::{GodsError, NeighbourIndex, SubgroupReason};
use crate::MoveSet;

/// Most cosets the planner lists.
const MAX_COSETS: usize = 20_000_000;
/// Largest rotation group used.
const MAX_ROTATIONS: usize = 1000;

/// One class of cosets under the symmetries.
#[derive(Clone, Debug)]
pub struct CosetClass {
    /// The coset's number (its place in breadth-first order from `H`).
    pub id: usize,
    /// How many cosets the class holds.
    pub weight: u64,
    /// Distance of the coset from `H` in the coset graph.
    pub phase1_distance: u8,
}

/// The cosets of a subgroup, ready to be solved one at a time.
pub struct CosetSpace {
    layout: twistor_core::Layout,
    moves: Vec<Vec<u8>>,
    /// Grip of each move, to skip a move of the grip just turned.
    grips: Vec<usize>,
    in_subgroup: Vec<bool>,
    /// Each coset's distance from the subgroup, by number.
    distance: Vec<u8>,
    /// Each coset's neighbour under each move: `step[c * moves + m]`.
    step: Vec<u32>,
    representatives: Vec<Vec<u8>>,
    classes: Vec<CosetClass>,
    /// The subgroup's positions by index, with its moves' tables.
    subgroup: NeighbourIndex,
    subgroup_order: u64,
    symmetry: usize,
}

/// What solving one coset found.
#[derive(Clone, Debug, PartialEq)]
pub struct CosetCounts {
    /// Positions of the coset at each distance.
    pub counts: Vec<u64>,
    /// Phase-1 solutions found at each length.
    pub phase1_solutions: Vec<u64>,
    /// Seconds taken.
    pub seconds: f64,
}

impl CosetSpace {
    /// Lists the cosets of the subgroup `subgroup`'s moves generate in the
    /// group `moves` generate (the puzzle's start must be the identity,
    /// every subgroup move one of `moves`).
    pub fn new(
        puzzle: &Puzzle,
        moves: &MoveSet,
        subgroup: &MoveSet,
    ) -> Result<CosetSpace, GodsError> {
        let layout = puzzle.layout().clone();
        let refuse = |reason| GodsError::Subgroup { reason };
        if puzzle.start().as_bytes() != &layout.identity_bytes()[..] {
            return Err(refuse(SubgroupReason::StartNotIdentity));
        }
        let move_bytes: Vec<Vec<u8>> = moves
            .moves()
            .iter()
            .map(|m| m.transformation.as_bytes().to_vec())
            .collect();
        let sub_bytes: Vec<Vec<u8>> = subgroup
            .moves()
            .iter()
            .map(|m| m.transformation.as_bytes().to_vec())
            .collect();
        if let Some(m) = subgroup
            .moves()
            .iter()
            .find(|m| !move_bytes.contains(&m.transformation.as_bytes().to_vec()))
        {
            return Err(refuse(SubgroupReason::UnknownMove {
                name: m.name.clone(),
            }));
        }
        let in_subgroup = move_bytes.iter().map(|m| sub_bytes.contains(m)).collect();
        let n_points = layout.num_points();
        let points = |t: &[u8]| layout.to_points(t);
        // Colour the points by their orbits under the subgroup.
        let sub_points: Vec<Vec<u16>> = sub_bytes.iter().map(|t| points(t)).collect();
        let mut colour: Vec<u16> = (0..n_points as u16).collect();
        loop {
            let mut changed = false;
            for p in &sub_points {
                for (x, &y) in p.iter().enumerate() {
                    let (a, b) = (colour[x], colour[y as usize]);
                    if a != b {
                        let m = a.min(b);
                        for c in colour.iter_mut() {
                            if *c == a || *c == b {
                                *c = m;
                            }
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let order = |gens: &[Vec<u16>]| StabilizerChain::new(n_points, gens).order();
        let group_points: Vec<Vec<u16>> = move_bytes.iter().map(|t| points(t)).collect();
        let group_order = order(&group_points);
        let subgroup_order =
            u64::try_from(order(&sub_points)).map_err(|_| refuse(SubgroupReason::TooLarge))?;
        let cosets = &group_order / subgroup_order;
        let cosets = usize::try_from(&cosets)
            .ok()
            .filter(|&c| c <= MAX_COSETS)
            .ok_or_else(|| {
                refuse(SubgroupReason::TooManyCosets {
                    cosets: cosets.clone(),
                    limit: MAX_COSETS,
                })
            })?;
        let key_of = |t: &[u8]| -> Vec<u16> { key(&points(t), &colour) };
        // Breadth-first over the cosets: a number, a representative and a
        // distance each.
        let identity = layout.identity_bytes();
        let mut index_of: HashMap<Vec<u16>, usize> = HashMap::from([(key_of(&identity), 0)]);
        let mut representatives = vec![identity.clone()];
        let mut distance = vec![0u8];
        let mut depth_start = 0;
        let mut out = identity.clone();
        while depth_start < representatives.len() {
            let depth_end = representatives.len();
            let d = distance[depth_start]
                .checked_add(1)
                .ok_or_else(|| refuse(SubgroupReason::GraphTooDeep))?;
            for i in depth_start..depth_end {
                for m in &move_bytes {
                    layout.compose_into(&representatives[i], m, &mut out);
                    let n = representatives.len();
                    if let std::collections::hash_map::Entry::Vacant(e) =
                        index_of.entry(key_of(&out))
                    {
                        e.insert(n);
                        representatives.push(out.clone());
                        distance.push(d);
                        if representatives.len() > cosets {
                            return Err(refuse(SubgroupReason::NotColourPreserving));
                        }
                    }
                }
            }
            depth_start = depth_end;
        }
        if representatives.len() != cosets {
            return Err(refuse(SubgroupReason::OrbitsTellTooFew {
                told: representatives.len(),
                cosets,
            }));
        }
        // Symmetry: rotations mapping the moves and the subgroup's moves to themselves.
        let all: Vec<&[u8]> = move_bytes.iter().map(Vec::as_slice).collect();
        let group = SymmetryGroup::for_puzzle(puzzle, puzzle.start(), &all, MAX_ROTATIONS);
        let sym: Vec<usize> = (0..group.order())
            .filter(|&i| {
                sub_bytes
                    .iter()
                    .all(|m| sub_bytes.contains(&group.conjugate_transformation(i, m)))
            })
            .collect();
        let mut class_of = vec![usize::MAX; cosets];
        let mut classes = Vec::new();
        for i in 0..cosets {
            if class_of[i] != usize::MAX {
                continue;
            }
            let mut members: Vec<usize> = sym
                .iter()
                .map(|&s| {
                    index_of[&key_of(&group.conjugate_transformation(s, &representatives[i]))]
                })
                .collect();
            members.sort_unstable();
            members.dedup();
            for &m in &members {
                class_of[m] = classes.len();
            }
            classes.push(CosetClass {
                id: i,
                weight: members.len() as u64,
                phase1_distance: distance[i],
            });
        }
        let subgroup_index = NeighbourIndex::new(puzzle, subgroup)?;
        // The coset graph as a table, so the phase-1 search follows
        // numbers instead of hashing keys.
        let nm = move_bytes.len();
        let mut step = vec![0u32; cosets * nm];
        for (c, r) in representatives.iter().enumerate() {
            for (m, mv) in move_bytes.iter().enumerate() {
                layout.compose_into(r, mv, &mut out);
                step[c * nm + m] = index_of[&key_of(&out)] as u32;
            }
        }
        Ok(CosetSpace {
            layout,
            grips: moves.moves().iter().map(|m| m.grip).collect(),
            moves: move_bytes,
            in_subgroup,
            distance,
            step,
            representatives,
            classes,
            subgroup: subgroup_index,
            subgroup_order,
            symmetry: sym.len(),
        })
    }

    /// How many cosets there are.
    pub fn cosets(&self) -> usize {
        self.representatives.len()
    }

    /// One coset of each class under the symmetries, with its weight.
    pub fn classes(&self) -> &[CosetClass] {
        &self.classes
    }

    /// Positions in each coset (the subgroup's order).
    pub fn subgroup_order(&self) -> u64 {
        self.subgroup_order
    }

    /// How many symmetries reduce the cosets.
    pub fn symmetries(&self) -> usize {
        self.symmetry
    }

    /// The distances of every position of coset `id`.
    pub fn solve(&self, id: usize) -> Result<CosetCounts, GodsError> {
        let t0 = Instant::now();
        let g = self.representatives.get(id).ok_or(GodsError::Subgroup {
            reason: SubgroupReason::NoSuchCoset { id },
        })?;
        let size = self.subgroup.size();
        let words = size.div_ceil(64) as usize;
        let mut seen = vec![0u64; words];
        let mut frontier = vec![0u64; words];
        let mut next = vec![0u64; words];
        let mut counts = Vec::new();
        let mut phase1 = Vec::new();
        let mut total = 0u64;
        let mut cursor = self.subgroup.cursor();
        let mut neighbours = vec![0u64; self.subgroup.moves()];
        for n in 0.. {
            // S(n-1)·M_H, from the positions first found at n-1.
            for (wi, &w) in frontier.iter().enumerate() {
                let mut f = w;
                while f != 0 {
                    let y = wi as u64 * 64 + f.trailing_zeros() as u64;
                    f &= f - 1;
                    cursor.neighbours(y, &mut neighbours);
                    for &z in &neighbours {
                        mark(&mut seen, &mut next, z);
                    }
                }
            }
            // Phase-1 solutions of length n.
            let mut found = 0u64;
            self.phase1(g, id as u32, n, usize::MAX, &mut |y: &[u8]| {
                found += 1;
                mark(&mut seen, &mut next, self.subgroup.rank(y));
            });
            phase1.push(found);
            let new: u64 = next.iter().map(|w| w.count_ones() as u64).sum();
            counts.push(new);
            total += new;
            std::mem::swap(&mut frontier, &mut next);
            next.fill(0);
            if total >= self.subgroup_order {
                break;
            }
            if n > 255 {
                return Err(GodsError::Subgroup {
                    reason: SubgroupReason::CosetTooDeep,
                });
            }
        }
        Ok(CosetCounts {
            counts,
            phase1_solutions: phase1,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }

    /// Calls `leaf` with `t·s` for every sequence `s` of exactly `left`
    /// more moves that brings `t` (in coset number `coset`) into the
    /// subgroup (coset 0) and ends outside it.
    fn phase1(&self, t: &[u8], coset: u32, left: usize, last: usize, leaf: &mut dyn FnMut(&[u8])) {
        if left == 0 {
            if coset == 0 && (last == usize::MAX || !self.in_subgroup[last]) {
                leaf(t);
            }
            return;
        }
        if self.distance[coset as usize] as usize > left {
            return;
        }
        let nm = self.moves.len();
        let mut out = t.to_vec();
        for (m, mv) in self.moves.iter().enumerate() {
            if last != usize::MAX && self.grips[m] == self.grips[last] {
                continue;
            }
            let next = self.step[coset as usize * nm + m];
            if self.distance[next as usize] as usize > left - 1 {
                continue;
            }
            self.layout.compose_into(t, mv, &mut out);
            self.phase1(&out, next, left - 1, m, leaf);
        }
    }
}

/// The coset key of a position whose points go as `points` says: the
/// colour each point receives (unchanged when an element of the subgroup
/// acts first, since it keeps every colour).
fn key(points: &[u16], colour: &[u16]) -> Vec<u16> {
    let mut k = vec![0; points.len()];
    for (x, &p) in points.iter().enumerate() {
        k[p as usize] = colour[x];
    }
    k
}

fn mark(seen: &mut [u64], next: &mut [u64], y: u64) {
    let (w, b) = ((y >> 6) as usize, 1u64 << (y & 63));
    if seen[w] & b == 0 {
        seen[w] |= b;
        next[w] |= b;
    }
}

/// The whole puzzle's distribution from its cosets' (each weighed by its
/// class's size).
pub fn merge_cosets<'a>(results: impl IntoIterator<Item = (u64, &'a [u64])>) -> Vec<u64> {
    let mut total: Vec<u64> = Vec::new();
    for (weight, counts) in results {
        if total.len() < counts.len() {
            total.resize(counts.len(), 0);
        }
        for (t, c) in total.iter_mut().zip(counts) {
            *t += weight * c;
        }
    }
    while total.len() > 1 && total.last() == Some(&0) {
        total.pop();
    }
    total
}
