//! Symmetry-reduced pruning tables with exact distances (4 bits an entry)
//! and the breadth-first search that fills them.
//!
//! A table covers a coordinate space `class × inner`: `class` is a
//! symmetry class of one coordinate (flip-UD-slice, corner permutation)
//! and `inner` another coordinate conjugated into the representative's
//! frame (twist, UD-edge permutation). Phase 1 uses
//! 64430 · 2187 = 140,908,410 entries, phase 2 2768 · 40320 =
//! 111,605,760.
//!
//! The search fills the table level by level, on all cores: forward
//! (expand every entry at depth d) while the frontier is small, backward
//! (find every empty entry with a neighbour at depth d) once most entries
//! are filled.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::cache::{load_or_build, table_key, TableMemory};
use crate::coord::{N_FLIP, N_TWIST, N_UD_EDGES};
use crate::moves::N_MOVES;
use crate::tables::{CoordTables, N_CORNER_CLASS, N_FLIPSLICE_CLASS, PHASE2_MOVES};
use twistor_core::store::{BuildProgress, PayloadLen, StoreEvent, TableKey, TableStore};
use twistor_memory::nibbles_equal;

const EMPTY: u64 = 0xF;

/// A coordinate space reduced by symmetry, as the table builder sees it.
pub(crate) trait SymSpace: Sync {
    /// Number of classes.
    fn n_classes(&self) -> usize;
    /// Number of inner coordinates.
    fn n_inner(&self) -> usize;
    /// The moves of the space.
    fn moves(&self) -> &[u8];
    /// Applies move `m` to the representative of `class`: the new class
    /// and the symmetry reducing it.
    fn class_move(&self, class: usize, m: usize) -> (usize, usize);
    /// Applies move `m` to an inner coordinate.
    fn inner_move(&self, inner: usize, m: usize) -> usize;
    /// Conjugates an inner coordinate by symmetry `s`.
    fn inner_conj(&self, inner: usize, s: usize) -> usize;
    /// Symmetries fixing the representative of `class`.
    fn stab(&self, class: usize) -> u16;
}

/// Phase 1: flip-UD-slice class × twist, all 18 moves.
pub(crate) struct Phase1Space<'a>(pub &'a CoordTables, pub [u8; 18]);

impl SymSpace for Phase1Space<'_> {
    fn n_classes(&self) -> usize {
        N_FLIPSLICE_CLASS
    }
    fn n_inner(&self) -> usize {
        N_TWIST
    }
    fn moves(&self) -> &[u8] {
        &self.1
    }
    #[inline]
    fn class_move(&self, class: usize, m: usize) -> (usize, usize) {
        let t = self.0;
        let rep = t.flipslice().rep[class] as usize;
        let (slice, flip) = (rep / N_FLIP, rep % N_FLIP);
        let slice2 = t.slice_sorted_move[slice * 24 * N_MOVES + m] as usize / 24;
        let flip2 = t.flip_move[flip * N_MOVES + m] as usize;
        t.flipslice_class(slice2, flip2)
    }
    #[inline]
    fn inner_move(&self, inner: usize, m: usize) -> usize {
        self.0.twist_move[inner * N_MOVES + m] as usize
    }
    #[inline]
    fn inner_conj(&self, inner: usize, s: usize) -> usize {
        self.0.twist_conj[inner * 16 + s] as usize
    }
    fn stab(&self, class: usize) -> u16 {
        self.0.flipslice().stab[class]
    }
}

/// Phase 2: corner-permutation class × UD-edge permutation, 10 moves.
pub(crate) struct Phase2Space<'a>(pub &'a CoordTables);

impl SymSpace for Phase2Space<'_> {
    fn n_classes(&self) -> usize {
        N_CORNER_CLASS
    }
    fn n_inner(&self) -> usize {
        N_UD_EDGES
    }
    fn moves(&self) -> &[u8] {
        &PHASE2_MOVES
    }
    #[inline]
    fn class_move(&self, class: usize, m: usize) -> (usize, usize) {
        self.0.corner_class_move(class, m)
    }
    #[inline]
    fn inner_move(&self, inner: usize, m: usize) -> usize {
        self.0.ud_edges_move[inner * N_MOVES + m] as usize
    }
    #[inline]
    fn inner_conj(&self, inner: usize, s: usize) -> usize {
        self.0.ud_edges_conj[inner * 16 + s] as usize
    }
    fn stab(&self, class: usize) -> u16 {
        self.0.corner.stab[class]
    }
}

struct AtomicNibbles(Vec<AtomicU64>);

impl AtomicNibbles {
    fn new(n: usize) -> Self {
        AtomicNibbles(
            (0..n.div_ceil(16))
                .map(|_| AtomicU64::new(u64::MAX))
                .collect(),
        )
    }
    #[inline]
    fn get(&self, i: usize) -> u64 {
        (self.0[i >> 4].load(Ordering::Relaxed) >> ((i & 15) * 4)) & 0xF
    }
    /// Sets an entry that is EMPTY (all ones) to `v` by clearing bits;
    /// concurrent writers of the same value agree, and exactly one of them
    /// is told it set the entry.
    #[inline]
    fn set_from_empty(&self, i: usize, v: u64) -> bool {
        let shift = (i & 15) * 4;
        let old = self.0[i >> 4].fetch_and(!((EMPTY ^ v) << shift), Ordering::Relaxed);
        (old >> shift) & 0xF == EMPTY
    }
    /// Calls `f` with each entry in `start..end` equal to `v`, as the
    /// words read when the call gets to them: sixteen entries a word, so
    /// the few entries of a shallow layer cost a scan of words, not of
    /// entries.
    #[inline]
    fn for_each_equal(&self, start: usize, end: usize, v: u64, mut f: impl FnMut(usize)) {
        if start >= end {
            return;
        }
        for w in start >> 4..=(end - 1) >> 4 {
            let mut lanes = nibbles_equal(self.0[w].load(Ordering::Relaxed), v as u8);
            while lanes != 0 {
                let i = w * 16 + lanes.trailing_zeros() as usize / 4;
                lanes &= lanes - 1;
                if (start..end).contains(&i) {
                    f(i);
                }
            }
        }
    }
}

/// Fills a table over `space` with exact distances from the entry
/// `(0, 0)` (solved). Returns the nibble bytes (low nibble first).
pub(crate) fn build_sym_nibbles<S: SymSpace>(space: &S) -> Vec<u8> {
    build_sym_nibbles_reporting(space, &mut |_, _, _| {})
}

/// [`build_sym_nibbles`], saying after each depth how many entries are
/// filled (the two-phase tables take seconds a depth).
pub(crate) fn build_sym_nibbles_reporting<S: SymSpace>(
    space: &S,
    progress: BuildProgress,
) -> Vec<u8> {
    let nc = space.n_classes();
    let ni = space.n_inner();
    let total = nc * ni;
    let t = AtomicNibbles::new(total);
    t.set_from_empty(0, 0);
    let mut filled = 1usize;
    let mut count_d = 1usize;
    let mut depth = 0u64;
    let moves: Vec<usize> = space.moves().iter().map(|&m| m as usize).collect();
    assert!(moves.len() <= N_MOVES, "a space has at most the 18 moves");
    while filled < total && count_d > 0 {
        let empty = total - filled;
        let backward = count_d * moves.len() > empty * 3;
        // Each class counts the entries it sets; the sum is the next layer.
        count_d = (0..nc)
            .into_par_iter()
            .with_min_len(64)
            .map(|c| {
                let base = c * ni;
                // Where each move takes the class, worked out at its first
                // entry of interest (most classes of a shallow layer have
                // none).
                let targets = std::cell::OnceCell::new();
                // Entry `e`'s neighbour by the `k`th move: its class and
                // inner coordinate.
                let neighbour = |e: usize, k: usize| {
                    let targets = targets.get_or_init(|| {
                        let mut to = [(0usize, 0usize); N_MOVES];
                        for (k, &m) in moves.iter().enumerate() {
                            to[k] = space.class_move(c, m);
                        }
                        to
                    });
                    let (c2, s2) = targets[k];
                    (
                        c2,
                        space.inner_conj(space.inner_move(e - base, moves[k]), s2),
                    )
                };
                let mut set = 0;
                if backward {
                    t.for_each_equal(base, base + ni, EMPTY, |e| {
                        for k in 0..moves.len() {
                            let (c2, i2) = neighbour(e, k);
                            if t.get(c2 * ni + i2) == depth {
                                set += t.set_from_empty(e, depth + 1) as usize;
                                break;
                            }
                        }
                    });
                } else {
                    t.for_each_equal(base, base + ni, depth, |e| {
                        for k in 0..moves.len() {
                            let (c2, i2) = neighbour(e, k);
                            if t.get(c2 * ni + i2) != EMPTY {
                                continue;
                            }
                            set += t.set_from_empty(c2 * ni + i2, depth + 1) as usize;
                            // The same coset, seen through the representative's
                            // own symmetries, is a different entry.
                            let st = space.stab(c2);
                            if st != 1 {
                                for s in 1..16 {
                                    if st >> s & 1 == 1 {
                                        let i3 = space.inner_conj(i2, s);
                                        if t.get(c2 * ni + i3) == EMPTY {
                                            set +=
                                                t.set_from_empty(c2 * ni + i3, depth + 1) as usize;
                                        }
                                    }
                                }
                            }
                        }
                    });
                }
                set
            })
            .sum();
        depth += 1;
        filled += count_d;
        progress(&format!("depth {depth}"), filled as u64, total as u64);
    }
    let mut out = Vec::with_capacity(total.div_ceil(2));
    for w in t.0 {
        out.extend_from_slice(&w.into_inner().to_le_bytes());
    }
    out.truncate(total.div_ceil(2));
    out
}

/// A pruning table of exact distances, 4 bits an entry.
pub struct NibbleTable {
    bytes: TableMemory,
    /// Number of entries (read by the distribution tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub len: usize,
}

impl NibbleTable {
    /// Entry `i`.
    #[inline]
    pub fn get(&self, i: usize) -> u8 {
        let b = self.bytes.as_slice()[i >> 1];
        (b >> ((i & 1) * 4)) & 0xF
    }

    /// The entries, two a byte (entry `2j` in the low half of byte `j`).
    pub(crate) fn bytes(&self) -> &[u8] {
        self.bytes.as_slice()
    }

    /// Size in bytes.
    pub fn size_bytes(&self) -> usize {
        self.bytes.as_slice().len()
    }

    /// Raw positions at each distance: each entry `class × inner` stands
    /// for `class_size(class)` raw positions.
    #[cfg(test)]
    pub fn raw_distribution(
        &self,
        n_inner: usize,
        class_size: impl Fn(usize) -> u64 + Sync,
    ) -> Vec<u64> {
        let n_classes = self.len / n_inner;
        let per_class: Vec<Vec<u64>> = (0..n_classes)
            .into_par_iter()
            .map(|c| {
                let mut v = vec![0u64; 16];
                let w = class_size(c);
                for i in 0..n_inner {
                    v[self.get(c * n_inner + i) as usize] += w;
                }
                v
            })
            .collect();
        let mut counts = vec![0u64; 16];
        for v in per_class {
            for (a, b) in counts.iter_mut().zip(v) {
                *a += b;
            }
        }
        while counts.last() == Some(&0) {
            counts.pop();
        }
        counts
    }
}

/// Entries of the phase-1 table.
pub(crate) const PHASE1_ENTRIES: usize = N_FLIPSLICE_CLASS * N_TWIST;

/// The distances of a symmetry-reduced space, from the store or built
/// (reporting each depth) and kept there.
pub(crate) fn stored_sym_nibbles(
    store: &dyn TableStore,
    key: &TableKey,
    space: &impl SymSpace,
    report: &mut dyn FnMut(StoreEvent),
) -> NibbleTable {
    let len = space.n_classes() * space.n_inner();
    let bytes = load_or_build(
        store,
        key,
        len.div_ceil(2),
        |progress| build_sym_nibbles_reporting(space, progress),
        report,
    );
    NibbleTable { bytes, len }
}

/// The phase-1 table: distances to `<U, D, R2, L2, F2, B2>`.
pub fn phase1_table(store: &dyn TableStore, report: &mut dyn FnMut(StoreEvent)) -> NibbleTable {
    let all: [u8; 18] = std::array::from_fn(|i| i as u8);
    let space = Phase1Space(CoordTables::get(), all);
    stored_sym_nibbles(store, &phase1_table_id(), &space, report)
}

/// The phase-1 table's cache identity.
pub(crate) fn phase1_table_id() -> TableKey {
    table_key(
        "phase1-flipslice-twist",
        [N_FLIPSLICE_CLASS as u64, N_TWIST as u64, 4, 0],
    )
}

/// The phase-2 table's cache identity.
fn phase2_table_id() -> TableKey {
    table_key(
        "phase2-corner-udedge",
        [N_CORNER_CLASS as u64, N_UD_EDGES as u64, 4, 0],
    )
}

/// Whether the store holds both two-phase tables (so loading them is
/// quick).
pub(crate) fn full_tables_stored(store: &dyn TableStore) -> bool {
    let len1 = PayloadLen::Exactly(PHASE1_ENTRIES.div_ceil(2) as u64);
    let len2 = PayloadLen::Exactly((N_CORNER_CLASS * N_UD_EDGES).div_ceil(2) as u64);
    store.contains(&phase1_table_id(), len1) && store.contains(&phase2_table_id(), len2)
}

/// The phase-2 table: distances to solved within `<U, D, R2, L2, F2, B2>`
/// of (corner permutation, UD-edge permutation).
pub fn phase2_table(store: &dyn TableStore, report: &mut dyn FnMut(StoreEvent)) -> NibbleTable {
    let space = Phase2Space(CoordTables::get());
    stored_sym_nibbles(store, &phase2_table_id(), &space, report)
}
