//! The optimal solver's pruning tables: what bounds a view's distance.
//!
//! The huge table is Kociemba's: the UD-slice-sorted coordinate's 788
//! classes under the 16 symmetries that keep the UD axis, × twist (2187) ×
//! flip (2048) = 3,529,433,088 entries. It is built as distances mod 3 at
//! 2 bits an entry (a breadth-first search needs only to tell the last
//! level from the next), then kept as *exact* distances at 3 bits, 21 to a
//! 64-bit word: 1.34 GB. Exact values bound any view at any time, so the
//! search may turn either end of the solution (a move before a cube can
//! change its entry by more than one, which distances mod 3 cannot follow).
//!
//! Three bits hold 6..=12 (12 is the largest distance but for 28 entries at
//! 13, read as 12); code 0 means "5 or less", and those few entries (found
//! again at load by a breadth-first search from the goal) are looked up in
//! a small map.
//!
//! The small kind is the phase-1 table (70 MB, exact distances to
//! `<U, D, R2, L2, F2, B2>`): much weaker, for tests and small machines.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::view::Coords;
use crate::cache::{load_or_build, table_key, TableMemory};
use crate::coord::{N_FLIP, N_TWIST};
use crate::moves::N_MOVES;
use crate::prune::NibbleTable;
use crate::tables::{CoordTables, N_SLICE_SORTED_CLASS};
use twistor_core::store::{PayloadLen, StoreEvent, TableKey, TableStore};

/// Entries of the huge table.
pub const N_HUGE: usize = N_SLICE_SORTED_CLASS * N_TWIST * N_FLIP;

/// Entries a 64-bit word of the exact table holds.
const PER_WORD: usize = 21;

/// Bytes of the exact huge table.
pub(super) const EXACT_BYTES: usize = N_HUGE.div_ceil(PER_WORD) * 8;

/// The distance code 1 stands for; code 0 is "at most `NEAR`".
const NEAR: u8 = 5;

/// A lower bound on the distance of a view, from its coordinates: a
/// table as the search reads it, its bytes borrowed once a solve (so that
/// a probe is one load, with no call to find the bytes).
pub(super) trait Bound: Copy + Sync {
    /// The table index of a view's coordinates.
    fn index(&self, c: Coords) -> usize;
    /// The bound stored at `index`.
    fn value(&self, index: usize) -> u8;
    /// Asks for the entry at `index` to be brought into the cache.
    #[inline(always)]
    fn prefetch(&self, _index: usize) {}
}

/// The huge table's index of one view's coordinates: the slice-sorted
/// class, and twist and flip conjugated by the symmetry to it.
pub(super) struct HugeIndex {
    coord: &'static CoordTables,
    /// `slice_info[ss]`: the class of slice-sorted `ss` (bits 15..), the
    /// symmetry to it (bits 11..15) and the flip mask that symmetry's
    /// conjugation needs (bits 0..11): one read in place of three.
    slice_info: Vec<u32>,
}

impl HugeIndex {
    pub(super) fn new(coord: &'static CoordTables) -> HugeIndex {
        let slice_info = (0..coord.slice_sorted.packed.len())
            .map(|ss| {
                let p = coord.slice_sorted.packed[ss] as usize;
                let (cls, sym) = (p >> 4, p & 15);
                let rep_slice = coord.slice_sorted.rep[cls] as usize / 24;
                // conj_flip(0 ^ f) = flip_conj[f] ^ mask: the mask alone.
                let mask = coord.conj_flip(0, sym, rep_slice) ^ coord.flip_conj[sym];
                (cls as u32) << 15 | (sym as u32) << 11 | mask as u32
            })
            .collect();
        HugeIndex { coord, slice_info }
    }

    #[inline(always)]
    pub(super) fn index(&self, c: Coords) -> usize {
        let t = self.coord;
        let info = self.slice_info[c.slice_sorted as usize] as usize;
        let (cls, sym) = (info >> 15, info >> 11 & 15);
        let tw = t.twist_conj[c.twist as usize * 16 + sym] as usize;
        let fl = (t.flip_conj[c.flip as usize * 16 + sym] as usize) ^ (info & 0x7ff);
        (cls * N_TWIST + tw) * N_FLIP + fl
    }
}

/// A fast hash for table indices (the map is small and never adversarial).
#[derive(Default)]
struct IndexHasher(u64);

impl Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u32(&mut self, x: u32) {
        self.0 = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20;
    }
}

type NearMap = HashMap<u32, u8, BuildHasherDefault<IndexHasher>>;

/// The huge table at exact distances.
pub(super) struct ExactHuge {
    bytes: TableMemory,
    near: NearMap,
    pub(super) index: HugeIndex,
}

/// The exact huge table as the search reads it.
#[derive(Clone, Copy)]
pub(super) struct HugeReader<'a> {
    words: &'a [u8],
    near: &'a NearMap,
    index: &'a HugeIndex,
}

impl Bound for HugeReader<'_> {
    #[inline(always)]
    fn index(&self, c: Coords) -> usize {
        self.index.index(c)
    }

    #[inline(always)]
    fn value(&self, i: usize) -> u8 {
        let w = i / PER_WORD;
        let word = u64::from_le_bytes(self.words[8 * w..8 * w + 8].try_into().unwrap_or_default());
        let code = (word >> (3 * (i - w * PER_WORD)) & 7) as u8;
        if code != 0 {
            code + NEAR
        } else {
            self.near.get(&(i as u32)).copied().unwrap_or(0)
        }
    }

    #[inline(always)]
    fn prefetch(&self, i: usize) {
        #[cfg(target_arch = "x86_64")]
        {
            let at = (8 * (i / PER_WORD)).min(self.words.len() - 1);
            // SAFETY: a prefetch never faults and reads nothing the program
            // sees; the address is within the table anyway.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    self.words.as_ptr().add(at).cast(),
                    std::arch::x86_64::_MM_HINT_T0,
                )
            };
        }
    }
}

impl ExactHuge {
    /// Loads the table from the store or builds it (minutes, on all cores).
    pub(super) fn load(
        coord: &'static CoordTables,
        store: &dyn TableStore,
        report: &mut dyn FnMut(StoreEvent),
    ) -> ExactHuge {
        let bytes = load_or_build(
            store,
            &exact_table_id(),
            EXACT_BYTES,
            || {
                let (two_bit, far) = build_mod3(coord);
                let shallow = shallow_entries(coord, 7);
                let exact = pack_exact(&two_bit, &far, &shallow);
                // The tables an earlier twistor kept for the same search
                // are not read any more.
                store.discard(&old_mod3_table_id());
                store.discard(&old_far_bits_id());
                exact
            },
            report,
        );
        ExactHuge {
            bytes,
            near: shallow_entries(coord, NEAR),
            index: HugeIndex::new(coord),
        }
    }

    pub(super) fn size_bytes(&self) -> usize {
        self.bytes.as_slice().len()
    }

    /// The table as the search reads it.
    pub(super) fn reader(&self) -> HugeReader<'_> {
        HugeReader {
            words: self.bytes.as_slice(),
            near: &self.near,
            index: &self.index,
        }
    }

    /// Whether the store holds the table.
    pub(super) fn stored(store: &dyn TableStore) -> bool {
        store.contains(&exact_table_id(), PayloadLen::Exactly(EXACT_BYTES as u64))
    }
}

/// The phase-1 table as a bound: the distance to `<U, D, R2, L2, F2, B2>`.
pub(super) struct Phase1Bound {
    pub(super) table: NibbleTable,
    coord: &'static CoordTables,
}

impl Phase1Bound {
    pub(super) fn new(table: NibbleTable, coord: &'static CoordTables) -> Phase1Bound {
        Phase1Bound { table, coord }
    }
}

impl Phase1Bound {
    /// The table as the search reads it.
    pub(super) fn reader(&self) -> Phase1Reader<'_> {
        Phase1Reader {
            nibbles: self.table.bytes(),
            coord: self.coord,
        }
    }
}

/// The phase-1 table as the search reads it.
#[derive(Clone, Copy)]
pub(super) struct Phase1Reader<'a> {
    nibbles: &'a [u8],
    coord: &'static CoordTables,
}

impl Bound for Phase1Reader<'_> {
    #[inline(always)]
    fn index(&self, c: Coords) -> usize {
        let t = self.coord;
        let p =
            t.flipslice.packed[(c.slice_sorted as usize / 24) * N_FLIP + c.flip as usize] as usize;
        (p >> 4) * N_TWIST + t.twist_conj[c.twist as usize * 16 + (p & 15)] as usize
    }

    #[inline(always)]
    fn value(&self, i: usize) -> u8 {
        self.nibbles[i >> 1] >> ((i & 1) * 4) & 15
    }
}

/// The cache identity of the exact huge table.
fn exact_table_id() -> TableKey {
    table_key(
        "optimal-slicesorted-twist-flip-exact",
        [
            N_SLICE_SORTED_CLASS as u64,
            N_TWIST as u64,
            N_FLIP as u64,
            3,
        ],
    )
}

/// The mod-3 table an earlier twistor kept (882 MB).
fn old_mod3_table_id() -> TableKey {
    table_key(
        "optimal-slicesorted-twist-flip",
        [
            N_SLICE_SORTED_CLASS as u64,
            N_TWIST as u64,
            N_FLIP as u64,
            2,
        ],
    )
}

/// The far bits an earlier twistor kept beside it (441 MB).
fn old_far_bits_id() -> TableKey {
    table_key(
        "optimal-slicesorted-twist-flip-far",
        [
            N_SLICE_SORTED_CLASS as u64,
            N_TWIST as u64,
            N_FLIP as u64,
            11,
        ],
    )
}

/// The moves of the huge table's entries: for each class and move, the
/// class reached, the symmetry to it and its representative's slice.
struct ClassMoves(Vec<(u16, u8, u16)>);

impl ClassMoves {
    fn new(t: &CoordTables) -> ClassMoves {
        ClassMoves(
            (0..N_SLICE_SORTED_CLASS)
                .flat_map(|c| {
                    let rep = t.slice_sorted.rep[c] as usize;
                    (0..N_MOVES).map(move |m| {
                        let ss2 = t.slice_sorted_move[rep * N_MOVES + m] as usize;
                        let c2 = t.slice_sorted.class[ss2];
                        let s2 = t.slice_sorted.sym[ss2];
                        (c2, s2, (t.slice_sorted.rep[c2 as usize] / 24) as u16)
                    })
                })
                .collect(),
        )
    }

    /// Calls `f` with every entry one move from entry `(cls, twist, flip)`,
    /// the same coset seen through the reached representative's own
    /// symmetries included.
    #[inline]
    fn neighbours(
        &self,
        t: &CoordTables,
        (cls, twist, flip): (usize, usize, usize),
        mut f: impl FnMut(usize),
    ) {
        for m in 0..N_MOVES {
            let (c2, s2, sl2) = self.0[cls * N_MOVES + m];
            let s2 = s2 as usize;
            let tw2 = t.twist_conj[t.twist_move[twist * N_MOVES + m] as usize * 16 + s2] as usize;
            let f2 = t.conj_flip(t.flip_move[flip * N_MOVES + m], s2, sl2 as usize) as usize;
            let c2 = c2 as usize;
            f((c2 * N_TWIST + tw2) * N_FLIP + f2);
            let st = t.slice_sorted.stab[c2];
            if st != 1 {
                for s in 1..16 {
                    if st >> s & 1 == 1 {
                        let tw3 = t.twist_conj[tw2 * 16 + s] as usize;
                        let f3 = t.conj_flip(f2 as u16, s, sl2 as usize) as usize;
                        f((c2 * N_TWIST + tw3) * N_FLIP + f3);
                    }
                }
            }
        }
    }
}

/// The entry of the goal: the slice edges home in any order symmetric to
/// home (the class of slice-sorted 0), no twist, no flip.
fn goal(t: &CoordTables) -> usize {
    t.slice_sorted.class[0] as usize * N_TWIST * N_FLIP
}

/// The entries at most `depth` from the goal, with their distances, by a
/// breadth-first search over a map (a few hundred thousand entries).
fn shallow_entries(t: &CoordTables, depth: u8) -> NearMap {
    let moves = ClassMoves::new(t);
    let mut dist = NearMap::default();
    dist.insert(goal(t) as u32, 0);
    let mut level = vec![goal(t)];
    for d in 1..=depth {
        let mut next = Vec::new();
        for &i in &level {
            let split = (i / (N_TWIST * N_FLIP), i / N_FLIP % N_TWIST, i % N_FLIP);
            moves.neighbours(t, split, |j| {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(j as u32) {
                    e.insert(d);
                    next.push(j);
                }
            });
        }
        level = next;
    }
    dist
}

/// Exact distances at 3 bits from the mod-3 table, the bits saying "at
/// least 11" and the entries of distance 7 or less.
fn pack_exact(two_bit: &[u8], far: &[u8], shallow: &NearMap) -> Vec<u8> {
    let mut bytes = vec![0u8; EXACT_BYTES];
    bytes.par_chunks_mut(8).enumerate().for_each(|(w, out)| {
        let mut word = 0u64;
        for j in 0..PER_WORD {
            let i = w * PER_WORD + j;
            if i >= N_HUGE {
                break;
            }
            let v = two_bit[i >> 2] >> ((i & 3) * 2) & 3;
            let base = if far[i >> 3] >> (i & 7) & 1 == 1 {
                11
            } else {
                8
            };
            let d = base + (v + 1) % 3;
            word |= ((d.min(12) - NEAR) as u64) << (3 * j);
        }
        out.copy_from_slice(&word.to_le_bytes());
    });
    for (&i, &d) in shallow {
        let (w, j) = (i as usize / PER_WORD, i as usize % PER_WORD);
        let at = &mut bytes[8 * w..8 * w + 8];
        let mut word = u64::from_le_bytes(at.try_into().unwrap_or_default());
        word &= !(7 << (3 * j));
        word |= (d.saturating_sub(NEAR) as u64) << (3 * j);
        at.copy_from_slice(&word.to_le_bytes());
    }
    bytes
}

/// Bit `2j` set where 2-bit lane `j` of `word` equals `v`.
#[inline]
fn lanes_equal(word: u64, v: u64) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let x = word ^ (v * LOW);
    !(x | (x >> 1)) & LOW
}

/// The distance the mod-3 build also marks: entries at least this far.
const FAR: u64 = 11;

/// The huge table's distances mod 3 at 2 bits an entry, by breadth-first
/// search on all cores (3 = not reached yet), and a bit an entry set where
/// the distance is at least [`FAR`].
fn build_mod3(t: &CoordTables) -> (Vec<u8>, Vec<u8>) {
    const EMPTY: u64 = 3;
    let n_rows = N_SLICE_SORTED_CLASS * N_TWIST;
    let words_per_row = N_FLIP / 32;
    let table: Vec<AtomicU64> = (0..n_rows * words_per_row)
        .map(|_| AtomicU64::new(u64::MAX))
        .collect();
    let get = |i: usize| (table[i >> 5].load(Ordering::Relaxed) >> ((i & 31) * 2)) & 3;
    // Sets an EMPTY entry to v; true if this call changed it.
    let set = |i: usize, v: u64| -> bool {
        // Only an EMPTY entry may be cleared towards v: clearing bits of a
        // set entry would change it. Within a level every writer writes
        // the same v, so a stale EMPTY read is harmless.
        if get(i) != EMPTY {
            return false;
        }
        let mask = !((EMPTY ^ v) << ((i & 31) * 2));
        let old = table[i >> 5].fetch_and(mask, Ordering::Relaxed);
        (old >> ((i & 31) * 2)) & 3 == EMPTY
    };
    let moves = ClassMoves::new(t);
    let class_moves = &moves.0;
    set(goal(t), 0);
    let mut count = 1u64;
    let mut filled = 1u64;
    let total = N_HUGE as u64;
    let mut depth = 0u64;
    let mut far = vec![0u8; N_HUGE / 8];
    while count > 0 && filled < total {
        let dv = depth % 3;
        let nv = (depth + 1) % 3;
        let backward = count * 18 > (total - filled) * 2;
        let new_count = AtomicU64::new(0);
        (0..n_rows)
            .into_par_iter()
            .with_min_len(256)
            .for_each(|row| {
                let (cls, twist) = (row / N_TWIST, row % N_TWIST);
                let base = row * N_FLIP;
                let mut local = 0u64;
                if backward {
                    // The flips of this row still empty, as a bit set.
                    let mut open = [0u64; N_FLIP / 64];
                    let mut any = false;
                    for w in 0..words_per_row {
                        let word = table[row * words_per_row + w].load(Ordering::Relaxed);
                        let mut lanes = lanes_equal(word, EMPTY);
                        any |= lanes != 0;
                        while lanes != 0 {
                            let j = lanes.trailing_zeros() as usize / 2;
                            lanes &= lanes - 1;
                            let f = w * 32 + j;
                            open[f / 64] |= 1 << (f % 64);
                        }
                    }
                    if !any {
                        return;
                    }
                    for m in 0..N_MOVES {
                        let (c2, s2, sl2) = class_moves[cls * N_MOVES + m];
                        let s2 = s2 as usize;
                        let tw2 = t.twist_conj[t.twist_move[twist * N_MOVES + m] as usize * 16 + s2]
                            as usize;
                        let base2 = (c2 as usize * N_TWIST + tw2) * N_FLIP;
                        let mut left = false;
                        for w in 0..open.len() {
                            let mut bits = open[w];
                            while bits != 0 {
                                let j = bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                let f = w * 64 + j;
                                let f2 = t.conj_flip(t.flip_move[f * N_MOVES + m], s2, sl2 as usize)
                                    as usize;
                                if get(base2 + f2) == dv {
                                    set(base + f, nv);
                                    open[w] &= !(1 << j);
                                    local += 1;
                                }
                            }
                            left |= open[w] != 0;
                        }
                        if !left {
                            break;
                        }
                    }
                } else {
                    for w in 0..words_per_row {
                        let mut lanes =
                            lanes_equal(table[row * words_per_row + w].load(Ordering::Relaxed), dv);
                        while lanes != 0 {
                            let f = w * 32 + lanes.trailing_zeros() as usize / 2;
                            lanes &= lanes - 1;
                            moves.neighbours(t, (cls, twist, f), |i| {
                                if set(i, nv) {
                                    local += 1;
                                }
                            });
                        }
                    }
                }
                if local > 0 {
                    new_count.fetch_add(local, Ordering::Relaxed);
                }
            });
        count = new_count.into_inner();
        filled += count;
        depth += 1;
        if depth == FAR - 1 {
            // Whatever is still empty is at least FAR away.
            far.par_chunks_mut(4).enumerate().for_each(|(w, out)| {
                let empty = even_bits(lanes_equal(table[w].load(Ordering::Relaxed), EMPTY));
                out.copy_from_slice(&empty.to_le_bytes());
            });
        }
    }
    let mut out = Vec::with_capacity(N_HUGE / 4);
    for w in table {
        out.extend_from_slice(&w.into_inner().to_le_bytes());
    }
    (out, far)
}

/// Bits 0, 2, 4, … of `x`, packed into 32 bits.
fn even_bits(x: u64) -> u32 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    x = (x | x >> 16) & 0x0000_0000_ffff_ffff;
    x as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_matching() {
        let word = 0b11_10_01_00u64 | (u64::MAX << 8);
        assert_eq!(lanes_equal(word, 0), 1);
        assert_eq!(lanes_equal(word, 1), 1 << 2);
        assert_eq!(lanes_equal(word, 2), 1 << 4);
        assert_eq!(lanes_equal(word, 3).count_ones(), 29);
    }
}
