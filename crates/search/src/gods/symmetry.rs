//! Symmetry reduction by whole-puzzle rotations.
//!
//! When the moves are closed under conjugation by the rotations a
//! definition carries (`r⁻¹ m r` is again a move for every rotation `r`),
//! conjugating a position by a rotation keeps its distance, its local
//! maximality and its neighbours' distances. The sorted-array engine then
//! stores one representative of each class (the conjugate with the least
//! packed key) and weighs it by the class size, `|R| / |stabiliser|`.
//!
//! Only puzzles whose start state is the identity qualify: a position is
//! then the transformation that reaches it, so conjugating it is defined.

use std::collections::HashSet;

use twistor_core::{Puzzle, Transformation};

use super::keys::{Key, KeyPacker};
use crate::MoveSet;

/// Largest rotation group used.
const MAX_ROTATIONS: usize = 1000;

/// The rotation group, as pairs `(r⁻¹, r)` of packed transformations.
pub(crate) struct Symmetry {
    conjugators: Vec<(Vec<u8>, Vec<u8>)>,
}

/// Scratch space for conjugating.
pub(crate) struct SymmetryScratch {
    a: Vec<u8>,
    b: Vec<u8>,
}

impl Symmetry {
    /// The rotation group of the puzzle, if it has rotations, its start is
    /// the identity and the moves are closed under conjugation by them.
    pub fn new(puzzle: &Puzzle, moves: &MoveSet) -> Option<Symmetry> {
        let layout = puzzle.layout();
        let rotations = puzzle.rotations();
        if rotations.is_empty() || puzzle.start().as_bytes() != &layout.identity_bytes()[..] {
            return None;
        }
        let gens: Vec<&Transformation> = rotations
            .iter()
            .map(|&i| &puzzle.moves()[i].transformation)
            .collect();
        let mut group = vec![layout.identity()];
        let mut seen: HashSet<Transformation> = group.iter().cloned().collect();
        let mut i = 0;
        while i < group.len() {
            for g in &gens {
                let e = layout.compose(&group[i], g);
                if seen.insert(e.clone()) {
                    group.push(e);
                    if group.len() > MAX_ROTATIONS {
                        return None;
                    }
                }
            }
            i += 1;
        }
        let move_set: HashSet<&[u8]> = moves
            .moves()
            .iter()
            .map(|m| m.transformation.as_bytes())
            .collect();
        let mut conjugators = Vec::with_capacity(group.len());
        for r in &group {
            let r_inv = layout.invert(r);
            for m in moves.moves() {
                let c = layout.compose(&layout.compose(&r_inv, &m.transformation), r);
                if !move_set.contains(c.as_bytes()) {
                    return None;
                }
            }
            conjugators.push((r_inv.as_bytes().to_vec(), r.as_bytes().to_vec()));
        }
        Some(Symmetry { conjugators })
    }

    /// The order of the rotation group.
    pub fn order(&self) -> usize {
        self.conjugators.len()
    }

    /// Scratch buffers for states of `len` bytes.
    pub fn scratch(len: usize) -> SymmetryScratch {
        SymmetryScratch {
            a: vec![0; len],
            b: vec![0; len],
        }
    }

    /// The key of the class representative of `state`.
    pub fn canonical<K: Key>(
        &self,
        layout: &twistor_core::Layout,
        packer: &KeyPacker,
        state: &[u8],
        s: &mut SymmetryScratch,
    ) -> K {
        let mut best: Option<K> = None;
        for (r_inv, r) in &self.conjugators {
            layout.compose_into(r_inv, state, &mut s.a);
            layout.compose_into(&s.a, r, &mut s.b);
            let k: K = packer.pack(&s.b);
            if best.is_none_or(|b| k < b) {
                best = Some(k);
            }
        }
        best.unwrap_or_else(|| packer.pack(state))
    }

    /// How many positions the class of `state` holds.
    pub fn class_size(
        &self,
        layout: &twistor_core::Layout,
        state: &[u8],
        s: &mut SymmetryScratch,
    ) -> u64 {
        let mut fixed = 0u64;
        for (r_inv, r) in &self.conjugators {
            layout.compose_into(r_inv, state, &mut s.a);
            layout.compose_into(&s.a, r, &mut s.b);
            if s.b == state {
                fixed += 1;
            }
        }
        self.conjugators.len() as u64 / fixed.max(1)
    }
}
