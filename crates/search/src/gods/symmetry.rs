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

use twistor_core::symmetry::SymmetryGroup;
use twistor_core::Puzzle;

use super::keys::{Key, KeyPacker};
use crate::MoveSet;

/// Largest rotation group used.
const MAX_ROTATIONS: usize = 1000;

/// The rotations that map the moves to moves (a group, with the identity).
pub(crate) struct Symmetry {
    group: SymmetryGroup,
}

/// Scratch space for conjugating.
pub(crate) struct SymmetryScratch {
    a: Vec<u8>,
}

impl Symmetry {
    /// The rotations of the puzzle that map its moves to moves, if there
    /// are any besides the identity and its start is the identity.
    pub fn new(puzzle: &Puzzle, moves: &MoveSet) -> Option<Symmetry> {
        let layout = puzzle.layout();
        if puzzle.rotations().is_empty()
            || puzzle.start().as_bytes() != &layout.identity_bytes()[..]
        {
            return None;
        }
        let group = SymmetryGroup::for_puzzle(
            puzzle,
            puzzle.start(),
            &moves.transformations(),
            MAX_ROTATIONS,
        );
        (group.order() > 1).then_some(Symmetry { group })
    }

    /// The order of the rotation group.
    pub fn order(&self) -> usize {
        self.group.order()
    }

    /// Scratch buffers for states of `len` bytes.
    pub fn scratch(len: usize) -> SymmetryScratch {
        SymmetryScratch { a: vec![0; len] }
    }

    /// The key of the class representative of `state`.
    pub fn canonical<K: Key>(
        &self,
        packer: &KeyPacker,
        state: &[u8],
        s: &mut SymmetryScratch,
    ) -> K {
        let mut best: Option<K> = None;
        for i in 0..self.group.order() {
            self.group.conjugate_into(i, state, &mut s.a);
            let k: K = packer.pack(&s.a);
            if best.is_none_or(|b| k < b) {
                best = Some(k);
            }
        }
        best.unwrap_or_else(|| packer.pack(state))
    }

    /// How many positions the class of `state` holds.
    pub fn class_size(&self, state: &[u8], s: &mut SymmetryScratch) -> u64 {
        let mut fixed = 0u64;
        for i in 0..self.group.order() {
            self.group.conjugate_into(i, state, &mut s.a);
            if s.a == state {
                fixed += 1;
            }
        }
        self.group.order() as u64 / fixed.max(1)
    }
}
