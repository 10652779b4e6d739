//! Canonical sequences: one move sequence per commutation class.
//!
//! Two grips commute when every power of one commutes with every power of
//! the other (checked on the transformations themselves). A sequence is
//! canonical when it never turns the same grip twice in a row and, among
//! commuting grips played one after another, lists them in increasing
//! order. The automaton tracks the set of grips played since the last move
//! that does not commute with them; a move is forbidden when a higher grip
//! of that set commutes with it (or, in the half-turn metric, when its grip
//! is in the set). This is twsearch's construction, so sequence counts agree
//! with its published figures, including non-transitive commutation
//! (megaminx) and the quarter-turn metric, where each quarter turn is its own
//! class, a half turn is written `U U` and never `U' U'`, and `U U'` is never
//! played.

use twistor_core::BigUint;

use crate::{Metric, MoveSet, SearchError};

/// Sentinel for a forbidden transition.
pub const FORBIDDEN: u32 = u32::MAX;

/// The canonical-sequence automaton of a move set.
#[derive(Clone, Debug)]
pub struct CanonicalFsm {
    /// Class of each move of the move set.
    class_of_move: Vec<usize>,
    num_classes: usize,
    /// `next[state * num_classes + class]`, or [`FORBIDDEN`].
    next: Vec<u32>,
    num_states: usize,
}

impl CanonicalFsm {
    /// The automaton of `moves`.
    pub fn new(moves: &MoveSet) -> Result<CanonicalFsm, SearchError> {
        let qtm = moves.metric() == Metric::Qtm;
        let ms = moves.moves();
        // Classes: grips (HTM) or single moves (QTM).
        let class_of_move: Vec<usize> = if qtm {
            (0..ms.len()).collect()
        } else {
            ms.iter().map(|m| m.grip).collect()
        };
        let num_classes = if qtm { ms.len() } else { moves.grips().len() };
        if num_classes > 64 {
            return Err(SearchError::TooManyGrips(num_classes));
        }
        // Class i commutes with j when every move of i commutes with every move of j.
        let layout = moves.layout();
        let mut commutes = vec![u64::MAX; num_classes];
        let mut ab = vec![0u8; layout.state_len()];
        let mut ba = vec![0u8; layout.state_len()];
        for i in 0..ms.len() {
            for j in 0..i {
                layout.compose_into(
                    ms[i].transformation.as_bytes(),
                    ms[j].transformation.as_bytes(),
                    &mut ab,
                );
                layout.compose_into(
                    ms[j].transformation.as_bytes(),
                    ms[i].transformation.as_bytes(),
                    &mut ba,
                );
                if ab != ba {
                    let (ci, cj) = (class_of_move[i], class_of_move[j]);
                    commutes[ci] &= !(1u64 << cj);
                    commutes[cj] &= !(1u64 << ci);
                }
            }
        }
        // In QTM a state also remembers the last move and how many times in
        // a row it was played.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        struct Key {
            set: u64,
            last: Option<usize>,
            repeats: u32,
        }
        let mut keys = vec![Key {
            set: 0,
            last: None,
            repeats: 0,
        }];
        let mut index = std::collections::HashMap::new();
        index.insert(keys[0], 0u32);
        let mut next = Vec::new();
        let mut q = 0;
        while q < keys.len() {
            let key = keys[q];
            q += 1;
            for m in 0..num_classes {
                let forbidden =
                    ((key.set & commutes[m]) >> m) >> 1 != 0 || (!qtm && (key.set >> m) & 1 == 1);
                if forbidden {
                    next.push(FORBIDDEN);
                    continue;
                }
                let mut repeats = 1;
                if qtm {
                    let mv = &ms[m];
                    if let Some(last) = key.last {
                        let prev = &ms[last];
                        if last != m && prev.grip == mv.grip {
                            // U then U': never.
                            next.push(FORBIDDEN);
                            continue;
                        }
                        if last == m {
                            // At most half the order in a row, and a
                            // half turn only as U U, never U' U'.
                            let order = moves.grips()[mv.grip].order;
                            if 2 * (key.repeats + 1) + u32::from(mv.amount != 1) > order {
                                next.push(FORBIDDEN);
                                continue;
                            }
                            repeats = key.repeats + 1;
                        }
                    }
                }
                let mut set = (key.set & commutes[m]) | (1u64 << m);
                // Of two classes that commute with exactly the same classes,
                // only the higher matters; dropping the lower keeps the
                // automaton small on big cubes without changing what it admits.
                for i in 0..64 {
                    if (set >> i) & 1 == 1
                        && (i + 1..64).any(|j| (set >> j) & 1 == 1 && commutes[i] == commutes[j])
                    {
                        set &= !(1u64 << i);
                    }
                }
                let nk = Key {
                    set,
                    last: qtm.then_some(m),
                    repeats: if qtm { repeats } else { 0 },
                };
                let id = *index.entry(nk).or_insert_with(|| {
                    keys.push(nk);
                    (keys.len() - 1) as u32
                });
                next.push(id);
            }
        }
        Ok(CanonicalFsm {
            class_of_move,
            num_classes,
            next,
            num_states: keys.len(),
        })
    }

    /// The start state.
    pub const START: u32 = 0;

    /// Number of states.
    pub fn num_states(&self) -> usize {
        self.num_states
    }

    /// The state after playing move `m` (an index into the move set) from
    /// `state`, or [`FORBIDDEN`].
    #[inline]
    pub fn next(&self, state: u32, m: usize) -> u32 {
        self.next[state as usize * self.num_classes + self.class_of_move[m]]
    }

    /// How many canonical sequences there are of each length `0..=depth`,
    /// exactly (the 3x3x3's counts pass `u128::MAX` at length 35).
    pub fn exact_counts(&self, depth: usize) -> Vec<BigUint> {
        let mut per_class = vec![0u32; self.num_classes];
        for &c in &self.class_of_move {
            per_class[c] += 1;
        }
        let mut cur = vec![BigUint::ZERO; self.num_states];
        cur[0] = BigUint::from(1u32);
        let mut out = vec![BigUint::from(1u32)];
        for _ in 0..depth {
            let mut nxt = vec![BigUint::ZERO; self.num_states];
            for (s, ways) in cur.iter().enumerate() {
                if *ways == BigUint::ZERO {
                    continue;
                }
                let row = &self.next[s * self.num_classes..(s + 1) * self.num_classes];
                for (&t, &moves) in row.iter().zip(&per_class) {
                    if t != FORBIDDEN && moves > 0 {
                        nxt[t as usize] += ways * moves;
                    }
                }
            }
            out.push(nxt.iter().sum());
            cur = nxt;
        }
        out
    }

    /// How many canonical sequences there are of each length `0..=depth`
    /// (saturating at `u128::MAX`).
    pub fn counts(&self, depth: usize) -> Vec<u128> {
        self.exact_counts(depth)
            .iter()
            .map(|c| u128::try_from(c).unwrap_or(u128::MAX))
            .collect()
    }
}
