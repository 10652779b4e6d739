//! The optimal solver's pruning tables: what bounds a view's distance.
//!
//! (Long because the table's layout, its build and its probes must agree
//! bit for bit, and read best side by side.)
//!
//! The huge table is Kociemba's: the UD-slice-sorted coordinate's 788
//! classes under the 16 symmetries that keep the UD axis, × twist (2187) ×
//! flip (2048) = 3,529,433,088 entries. It is kept as *exact* distances
//! at 3 bits, 21 to a 64-bit word: 1.34 GB, and built in that memory: as
//! distances mod 3 at 2 bits an entry first (a breadth-first search needs
//! only to tell the last level from the next), widened in place (see
//! [`build_exact`]), so the build holds no more than the table and its
//! small maps. Exact values bound any view at any time, so the
//! search may turn either end of the solution (a move before a cube can
//! change its entry by more than one, which distances mod 3 cannot follow).
//!
//! Three bits hold 6..=12 (12 is the largest distance but for 28 entries at
//! 13, read as 12); code 0 means "5 or less", and those few entries (found
//! again at load by a breadth-first search from the goal) are looked up in
//! a small map.
//!
//! The giant table is the next size up, the same idea on other
//! coordinates (nxopt's "112" table, in Kociemba's terms): the phase-1
//! coordinate's 64,430 flip-UD-slice classes × where the four D corners are
//! (70) × twist (2187, padded to 2208 so that a row of the build is whole
//! words) = 9,958,300,800 entries (9,863,588,700 of them positions), 3.79 GB
//! at 3 bits. It knows less of the
//! slice edges' order than the huge table and more of the corners, and
//! bounds a random cube higher on average. Both are built by one
//! breadth-first search over a [`Layout`]: rows whose part outside the row
//! moves once a row and move.
//!
//! The small kind is the phase-1 table (70 MB, exact distances to
//! `<U, D, R2, L2, F2, B2>`): much weaker, for tests and small machines.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::view::Coords;
use crate::cache::{load_or_build, table_key, TableMemory};
use crate::coord::{N_CORNER_COMB, N_FLIP, N_TWIST};
use crate::moves::N_MOVES;
use crate::prune::NibbleTable;
use crate::tables::{CoordTables, N_FLIPSLICE_CLASS, N_SLICE_SORTED_CLASS};
use twistor_core::store::{BuildProgress, PayloadLen, StoreEvent, TableKey, TableStore};
use twistor_memory::TableBuffer;

/// Entries of the huge table.
pub const N_HUGE: usize = N_SLICE_SORTED_CLASS * N_TWIST * N_FLIP;

/// Twists a row of the giant table holds: 2187 and padding to a whole
/// number of 64-bit words of the build's 2-bit entries.
const GIANT_ROW: usize = 2208;

/// Entries of the giant table, padding included: flip-UD-slice classes ×
/// corner combinations × twists.
pub const N_GIANT: usize = N_FLIPSLICE_CLASS * N_CORNER_COMB * GIANT_ROW;

/// Entries a 64-bit word of an exact table holds.
const PER_WORD: usize = 21;

/// Bytes of an exact table of `n` entries.
const fn exact_bytes(n: usize) -> usize {
    n.div_ceil(PER_WORD) * 8
}

/// Bytes of the exact huge table.
pub(super) const EXACT_BYTES: usize = exact_bytes(N_HUGE);

/// Bytes of the exact giant table.
pub(super) const GIANT_BYTES: usize = exact_bytes(N_GIANT);

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

/// How an exact table is indexed by a view's coordinates.
pub(super) trait TableIndex: Sync {
    fn index(&self, c: Coords) -> usize;
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
        let slice_info = (0..coord.slice_sorted_classes().packed.len())
            .map(|ss| {
                let p = coord.slice_sorted_classes().packed[ss] as usize;
                let (cls, sym) = (p >> 4, p & 15);
                let rep_slice = coord.slice_sorted_classes().rep[cls] as usize / 24;
                // conj_flip(0 ^ f) = flip_conj[f] ^ mask: the mask alone.
                let mask = coord.conj_flip(0, sym, rep_slice) ^ coord.flip_conj[sym];
                (cls as u32) << 15 | (sym as u32) << 11 | mask as u32
            })
            .collect();
        HugeIndex { coord, slice_info }
    }
}

impl TableIndex for HugeIndex {
    #[inline(always)]
    fn index(&self, c: Coords) -> usize {
        let t = self.coord;
        let info = self.slice_info[c.slice_sorted as usize] as usize;
        let (cls, sym) = (info >> 15, info >> 11 & 15);
        let tw = t.twist_conj[c.twist as usize * 16 + sym] as usize;
        let fl = (t.flip_conj[c.flip as usize * 16 + sym] as usize) ^ (info & 0x7ff);
        (cls * N_TWIST + tw) * N_FLIP + fl
    }
}

/// The giant table's index of one view's coordinates: the flip-UD-slice
/// class, and corner combination and twist conjugated by the symmetry to
/// it.
pub(super) struct GiantIndex {
    coord: &'static CoordTables,
}

impl TableIndex for GiantIndex {
    #[inline(always)]
    fn index(&self, c: Coords) -> usize {
        let t = self.coord;
        let p = t.flipslice().packed[(c.slice_sorted as usize / 24) * N_FLIP + c.flip as usize]
            as usize;
        let (cls, sym) = (p >> 4, p & 15);
        let cc = t.corner_comb_conj[c.corner_comb as usize * 16 + sym] as usize;
        let tw = t.twist_conj[c.twist as usize * 16 + sym] as usize;
        (cls * N_CORNER_COMB + cc) * GIANT_ROW + tw
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
    fn write_u64(&mut self, x: u64) {
        self.0 = x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20;
    }
}

type NearMap = HashMap<u64, u8, BuildHasherDefault<IndexHasher>>;

/// A table at exact distances, 3 bits an entry, with the entries of
/// distance [`NEAR`] or less in a map.
pub(super) struct ExactTable<I> {
    bytes: TableMemory,
    near: NearMap,
    index: I,
}

/// The huge table at exact distances.
pub(super) type ExactHuge = ExactTable<HugeIndex>;

/// The giant table at exact distances.
pub(super) type ExactGiant = ExactTable<GiantIndex>;

/// An exact table as the search reads it.
pub(super) struct ExactReader<'a, I> {
    words: &'a [u8],
    near: &'a NearMap,
    index: &'a I,
}

impl<I> Clone for ExactReader<'_, I> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I> Copy for ExactReader<'_, I> {}

impl<I: TableIndex> Bound for ExactReader<'_, I> {
    #[inline(always)]
    fn index(&self, c: Coords) -> usize {
        self.index.index(c)
    }

    #[inline(always)]
    fn value(&self, i: usize) -> u8 {
        exact_value(self.words, self.near, i)
    }

    #[inline(always)]
    fn prefetch(&self, i: usize) {
        let at = (8 * (i / PER_WORD)).min(self.words.len() - 1);
        twistor_memory::prefetch(&self.words[at]);
    }
}

/// Entry `i` of an exact table's words, with its map of near entries.
#[inline(always)]
fn exact_value(words: &[u8], near: &NearMap, i: usize) -> u8 {
    let w = i / PER_WORD;
    let word = u64::from_le_bytes(words[8 * w..8 * w + 8].try_into().unwrap_or_default());
    let code = (word >> (3 * (i - w * PER_WORD)) & 7) as u8;
    if code != 0 {
        code + NEAR
    } else {
        near.get(&(i as u64)).copied().unwrap_or(0)
    }
}

impl<I> ExactTable<I> {
    pub(super) fn size_bytes(&self) -> usize {
        self.bytes.as_slice().len()
    }

    /// The table as the search reads it.
    pub(super) fn reader(&self) -> ExactReader<'_, I> {
        ExactReader {
            words: self.bytes.as_slice(),
            near: &self.near,
            index: &self.index,
        }
    }
}

impl<I> ExactTable<I> {
    /// Loads the table `key` from the store, or builds it by a
    /// breadth-first search over `layout` (minutes, on all cores) and
    /// calls `built`; `index` reads it for the search.
    fn load_over<L: Layout>(
        layout: &L,
        key: &TableKey,
        index: I,
        store: &dyn TableStore,
        report: &mut dyn FnMut(StoreEvent),
        built: impl FnOnce(),
    ) -> ExactTable<I> {
        let bytes = load_or_build(
            store,
            key,
            exact_bytes(layout.len()),
            |progress| {
                let exact = build_exact(layout, progress);
                built();
                exact
            },
            report,
        );
        ExactTable {
            bytes,
            near: shallow_entries(layout, NEAR),
            index,
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
        ExactTable::load_over(
            &HugeLayout::new(coord),
            &exact_table_id(),
            HugeIndex::new(coord),
            store,
            report,
            || {
                // The tables an earlier twistor kept for the same search
                // are not read any more.
                store.discard(&old_mod3_table_id());
                store.discard(&old_far_bits_id());
            },
        )
    }

    /// Whether the store holds the table.
    pub(super) fn stored(store: &dyn TableStore) -> bool {
        store.contains(&exact_table_id(), PayloadLen::Exactly(EXACT_BYTES as u64))
    }
}

impl ExactGiant {
    /// Loads the table from the store or builds it (several minutes on all
    /// cores, in the table's own memory).
    pub(super) fn load(
        coord: &'static CoordTables,
        store: &dyn TableStore,
        report: &mut dyn FnMut(StoreEvent),
    ) -> ExactGiant {
        ExactTable::load_over(
            &GiantLayout::new(coord),
            &giant_table_id(),
            GiantIndex { coord },
            store,
            report,
            || {},
        )
    }

    /// Whether the store holds the table.
    pub(super) fn stored(store: &dyn TableStore) -> bool {
        store.contains(&giant_table_id(), PayloadLen::Exactly(GIANT_BYTES as u64))
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
        let p = t.flipslice().packed[(c.slice_sorted as usize / 24) * N_FLIP + c.flip as usize]
            as usize;
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

/// The cache identity of the exact giant table.
fn giant_table_id() -> TableKey {
    table_key(
        "optimal-flipslice-cornercomb-twist-exact",
        [
            N_FLIPSLICE_CLASS as u64,
            N_CORNER_COMB as u64,
            GIANT_ROW as u64,
            3,
        ],
    )
}

/// How the breadth-first build walks a table: rows of [`Layout::ROW`]
/// entries (a multiple of 32, the last ones padding past
/// [`Layout::row_len`]), whose row part moves once a row and move, and
/// whose in-row part moves by a small table after it.
trait Layout: Sync {
    /// Entries a row, padding included.
    const ROW: usize;
    /// What a move of a row leaves for the in-row part's move.
    type Step: Copy;
    /// Rows.
    fn rows(&self) -> usize;
    /// Entries of a row that stand for positions (the rest is padding).
    fn row_len(&self) -> usize;
    /// The entry of the goal.
    fn goal(&self) -> usize;
    /// Move `m` of row `row`: the first entry of the row reached, and
    /// what the in-row part needs.
    fn step(&self, row: usize, m: usize) -> (usize, Self::Step);
    /// Move `m` of in-row part `f`, after [`Layout::step`].
    fn inner(&self, step: Self::Step, f: usize, m: usize) -> usize;
    /// Calls `f` with every entry one move from entry `i`, the same coset
    /// seen through the reached representative's own symmetries included.
    fn neighbours(&self, i: usize, f: impl FnMut(usize));
    /// Entries, padding included.
    fn len(&self) -> usize {
        self.rows() * Self::ROW
    }
}

/// The huge table's rows: (slice-sorted class, twist), flips within.
struct HugeLayout {
    t: &'static CoordTables,
    /// For each class and move, the class reached, the symmetry to it and
    /// its representative's slice.
    class_moves: Vec<(u16, u8, u16)>,
}

impl HugeLayout {
    fn new(t: &'static CoordTables) -> HugeLayout {
        HugeLayout {
            t,
            class_moves: (0..N_SLICE_SORTED_CLASS)
                .flat_map(|c| {
                    let rep = t.slice_sorted_classes().rep[c] as usize;
                    (0..N_MOVES).map(move |m| {
                        let ss2 = t.slice_sorted_move[rep * N_MOVES + m] as usize;
                        let c2 = t.slice_sorted_classes().class[ss2];
                        let s2 = t.slice_sorted_classes().sym[ss2];
                        (
                            c2,
                            s2,
                            (t.slice_sorted_classes().rep[c2 as usize] / 24) as u16,
                        )
                    })
                })
                .collect(),
        }
    }
}

impl Layout for HugeLayout {
    const ROW: usize = N_FLIP;
    type Step = (u8, u16);

    fn rows(&self) -> usize {
        N_SLICE_SORTED_CLASS * N_TWIST
    }

    fn row_len(&self) -> usize {
        N_FLIP
    }

    fn goal(&self) -> usize {
        // The slice edges home in any order symmetric to home, no twist,
        // no flip.
        self.t.slice_sorted_classes().class[0] as usize * N_TWIST * N_FLIP
    }

    #[inline]
    fn step(&self, row: usize, m: usize) -> (usize, (u8, u16)) {
        let t = self.t;
        let (cls, twist) = (row / N_TWIST, row % N_TWIST);
        let (c2, s2, sl2) = self.class_moves[cls * N_MOVES + m];
        let tw2 = t.twist_conj[t.twist_move[twist * N_MOVES + m] as usize * 16 + s2 as usize];
        ((c2 as usize * N_TWIST + tw2 as usize) * N_FLIP, (s2, sl2))
    }

    #[inline]
    fn inner(&self, (s2, sl2): (u8, u16), f: usize, m: usize) -> usize {
        let t = self.t;
        t.conj_flip(t.flip_move[f * N_MOVES + m], s2 as usize, sl2 as usize) as usize
    }

    #[inline]
    fn neighbours(&self, i: usize, mut f: impl FnMut(usize)) {
        let t = self.t;
        let (row, flip) = (i / N_FLIP, i % N_FLIP);
        for m in 0..N_MOVES {
            let (base, (s2, sl2)) = self.step(row, m);
            let f2 = self.inner((s2, sl2), flip, m);
            f(base + f2);
            let (c2, tw2) = (base / N_FLIP / N_TWIST, base / N_FLIP % N_TWIST);
            let st = t.slice_sorted_classes().stab[c2];
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

/// The giant table's rows: (flip-UD-slice class, corner combination),
/// twists within.
struct GiantLayout {
    t: &'static CoordTables,
    /// `class_moves[cls * 18 + m]`: the flip-UD-slice class move `m` takes
    /// class `cls`'s representative to (bits 4..) and the symmetry to that
    /// class's representative (bits 0..4), read once a row and move.
    class_moves: Vec<u32>,
}

impl GiantLayout {
    fn new(t: &'static CoordTables) -> GiantLayout {
        let class_moves = (0..N_FLIPSLICE_CLASS * N_MOVES)
            .into_par_iter()
            .map(|i| {
                let (cls, m) = (i / N_MOVES, i % N_MOVES);
                let rep = t.flipslice().rep[cls] as usize;
                let (slice, flip) = (rep / N_FLIP, rep % N_FLIP);
                t.flipslice().packed[t.slice_move[slice * N_MOVES + m] as usize * N_FLIP
                    + t.flip_move[flip * N_MOVES + m] as usize]
            })
            .collect();
        GiantLayout { t, class_moves }
    }
}

impl Layout for GiantLayout {
    const ROW: usize = GIANT_ROW;
    type Step = u8;

    fn rows(&self) -> usize {
        N_FLIPSLICE_CLASS * N_CORNER_COMB
    }

    fn row_len(&self) -> usize {
        N_TWIST
    }

    fn goal(&self) -> usize {
        // Slice edges in the slice, no flip, D corners in the D layer, no
        // twist (all the coordinates 0).
        self.t.flipslice().class[0] as usize * N_CORNER_COMB * GIANT_ROW
    }

    #[inline]
    fn step(&self, row: usize, m: usize) -> (usize, u8) {
        let t = self.t;
        let (cls, cc) = (row / N_CORNER_COMB, row % N_CORNER_COMB);
        let p = self.class_moves[cls * N_MOVES + m] as usize;
        let (c2, s2) = (p >> 4, p & 15);
        let cc2 = t.corner_comb_conj[t.corner_comb_move[cc * N_MOVES + m] as usize * 16 + s2];
        ((c2 * N_CORNER_COMB + cc2 as usize) * GIANT_ROW, s2 as u8)
    }

    #[inline]
    fn inner(&self, s2: u8, tw: usize, m: usize) -> usize {
        let t = self.t;
        t.twist_conj[t.twist_move[tw * N_MOVES + m] as usize * 16 + s2 as usize] as usize
    }

    #[inline]
    fn neighbours(&self, i: usize, mut f: impl FnMut(usize)) {
        let t = self.t;
        let (row, tw) = (i / GIANT_ROW, i % GIANT_ROW);
        for m in 0..N_MOVES {
            let (base, s2) = self.step(row, m);
            let tw2 = self.inner(s2, tw, m);
            f(base + tw2);
            let row2 = base / GIANT_ROW;
            let (c2, cc2) = (row2 / N_CORNER_COMB, row2 % N_CORNER_COMB);
            let st = t.flipslice().stab[c2];
            if st != 1 {
                for s in 1..16 {
                    if st >> s & 1 == 1 {
                        let cc3 = t.corner_comb_conj[cc2 * 16 + s] as usize;
                        let tw3 = t.twist_conj[tw2 * 16 + s] as usize;
                        f((c2 * N_CORNER_COMB + cc3) * GIANT_ROW + tw3);
                    }
                }
            }
        }
    }
}

/// The entries at most `depth` from the goal, with their distances, by a
/// breadth-first search over a map (a few hundred thousand entries).
fn shallow_entries<L: Layout>(layout: &L, depth: u8) -> NearMap {
    let mut dist = NearMap::default();
    dist.insert(layout.goal() as u64, 0);
    let mut level = vec![layout.goal()];
    for d in 1..=depth {
        let mut next = Vec::new();
        for &i in &level {
            layout.neighbours(i, |j| {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(j as u64) {
                    e.insert(d);
                    next.push(j);
                }
            });
        }
        level = next;
    }
    dist
}

/// Bit `2j` set where 2-bit lane `j` of `word` equals `v`.
#[inline]
fn lanes_equal(word: u64, v: u64) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let x = word ^ (v * LOW);
    !(x | (x >> 1)) & LOW
}

/// The last distance the mod-3 search fills; the one after it is found
/// on the exact table, and what is left is at least 12.
const MOD3_LAST: u64 = 10;

/// The code of an entry of the exact table still to be placed, and of one
/// at least 12 away once the build is done.
const FAR_CODE: u64 = 7;

/// The exact table of `layout`, built in the memory it is kept in, so
/// that no second copy of it is ever held (the build's peak is the table
/// and its small maps; a mod-3 table, far bits and the exact copy beside
/// them used to take twice that).
///
/// A breadth-first search fills the front of that memory with distances
/// mod 3 at 2 bits an entry to distance [`MOD3_LAST`] ([`fill_mod3`]);
/// [`widen`] writes the exact 3-bit words over them from the back, an
/// entry not reached yet as [`FAR_CODE`], and the entries of distance 7
/// or less come from a small search of their own; [`last_layer`] then
/// finds among the far entries those one move from distance
/// [`MOD3_LAST`]. What is still far is at least 12, all the table tells.
fn build_exact<L: Layout>(layout: &L, progress: BuildProgress) -> TableBuffer<u8> {
    let n = layout.len();
    let mut buffer = TableBuffer::<u8>::zeroed_or_abort(exact_bytes(n), true);
    let words = buffer.as_atomic_words();
    let mod3 = &words[..n / 32];
    fill_mod3(layout, mod3, &mut *progress);
    progress("packing the distances", 0, 1);
    widen(words, n);
    mark_near(layout, words);
    last_layer(layout, words, progress);
    buffer
}

/// Gives the entries of distance 7 or less their codes, by a breadth-first
/// search on the exact table (after [`widen`], whose codes are 3 and up:
/// a code below 3 marks an entry found), holding two levels' lists at a
/// time (a few million entries) rather than a map of them all.
fn mark_near<L: Layout>(layout: &L, words: &[AtomicU64]) {
    let code = |i: usize| exact_code(words, i);
    let set = |i: usize, code: u64| {
        let (w, j) = (i / PER_WORD, i % PER_WORD);
        words[w].fetch_and((!(7u64 << (3 * j))).to_le(), Ordering::Relaxed);
        words[w].fetch_or((code << (3 * j)).to_le(), Ordering::Relaxed);
    };
    set(layout.goal(), 0);
    let mut level = vec![layout.goal()];
    for d in 1..=7u8 {
        let c = d.saturating_sub(NEAR) as u64;
        let mut next = Vec::new();
        for &i in &level {
            layout.neighbours(i, |j| {
                if code(j) >= 3 {
                    set(j, c);
                    next.push(j);
                }
            });
        }
        level = next;
    }
}

/// The code of entry `i` of an exact table being built in `words`.
#[inline]
fn exact_code(words: &[AtomicU64], i: usize) -> u64 {
    u64::from_le(words[i / PER_WORD].load(Ordering::Relaxed)) >> (3 * (i % PER_WORD)) & 7
}

/// The backward step of a breadth-first build over one row: each in-row
/// part in `open` (a bit set) one move from an entry `is_parent` accepts
/// is handed to `found` and leaves the set; the moves stop once it is
/// empty.
fn settle_row<L: Layout>(
    layout: &L,
    row: usize,
    open: &mut [u64],
    is_parent: impl Fn(usize) -> bool,
    mut found: impl FnMut(usize),
) {
    for m in 0..N_MOVES {
        let (base2, step) = layout.step(row, m);
        let mut left = false;
        for w in 0..open.len() {
            let mut bits = open[w];
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let f = w * 64 + j;
                if is_parent(base2 + layout.inner(step, f, m)) {
                    found(f);
                    open[w] &= !(1 << j);
                }
            }
            left |= open[w] != 0;
        }
        if !left {
            break;
        }
    }
}

/// Rewrites the mod-3 entries (2 bits, 32 to a word, at the front of
/// `words`) of an `n`-entry table as exact codes (3 bits, [`PER_WORD`] to
/// a word), in place. A word's entries are read from words no later than
/// its own, so the words are written from the back, in rounds whose
/// words read only words before the round.
fn widen(words: &[AtomicU64], n: usize) {
    let exact = |w: usize| {
        let mut word = 0u64;
        for j in 0..PER_WORD {
            let i = w * PER_WORD + j;
            if i >= n {
                break;
            }
            let code = match words[i >> 5].load(Ordering::Relaxed) >> ((i & 31) * 2) & 3 {
                3 => FAR_CODE,
                // 8, 9 or 10, by the distance mod 3; nearer entries are
                // set from their own map afterwards.
                v => 8 + (v + 1) % 3 - NEAR as u64,
            };
            word |= code << (3 * j);
        }
        word
    };
    let mut hi = n.div_ceil(PER_WORD);
    while hi > 0 {
        // Word `hi - 1` reads from mod-3 word `(PER_WORD * hi - 1) / 32`
        // at the latest; a one-word round reads its own word first.
        let lo = ((PER_WORD * hi - 1) / 32 + 1).min(hi - 1);
        (lo..hi).into_par_iter().with_min_len(1024).for_each(|w| {
            let word = exact(w);
            words[w].store(word.to_le(), Ordering::Relaxed);
        });
        hi = lo;
    }
}

/// Runs `visit` on every row on all cores, from a thread of its own,
/// while this one reports every quarter second how many rows are done as
/// `step` (a level takes up to a minute; the callback need not be
/// shareable).
fn for_rows_reporting(
    n_rows: usize,
    step: &str,
    progress: BuildProgress,
    visit: &(impl Fn(usize) + Sync),
) {
    let rows_done = AtomicU64::new(0);
    std::thread::scope(|scope| {
        let (here, done) = (std::thread::current(), &rows_done);
        let level = scope.spawn(move || {
            (0..n_rows)
                .into_par_iter()
                .with_min_len(256)
                .for_each(|row| {
                    visit(row);
                    done.fetch_add(1, Ordering::Relaxed);
                });
            here.unpark();
        });
        while !level.is_finished() {
            progress(step, rows_done.load(Ordering::Relaxed), n_rows as u64);
            std::thread::park_timeout(std::time::Duration::from_millis(250));
        }
    });
    progress(step, n_rows as u64, n_rows as u64);
}

/// Distances mod 3 at 2 bits an entry, 32 to a word of `table`, by
/// breadth-first search on all cores to distance [`MOD3_LAST`] (3 = not
/// reached; padding stays 3).
fn fill_mod3<L: Layout>(layout: &L, table: &[AtomicU64], progress: BuildProgress) {
    const EMPTY: u64 = 3;
    let n_rows = layout.rows();
    let words_per_row = L::ROW / 32;
    let row_len = layout.row_len();
    table
        .par_iter()
        .with_min_len(1 << 16)
        .for_each(|w| w.store(u64::MAX, Ordering::Relaxed));
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
    set(layout.goal(), 0);
    let mut count = 1u64;
    let mut filled = 1u64;
    let total = (n_rows * row_len) as u64;
    let mut depth = 0u64;
    while count > 0 && filled < total && depth < MOD3_LAST {
        let dv = depth % 3;
        let nv = (depth + 1) % 3;
        let backward = count * 18 > (total - filled) * 2;
        let new_count = AtomicU64::new(0);
        let visit = |row: usize| {
            let base = row * L::ROW;
            let mut local = 0u64;
            if backward {
                // The entries of this row still empty, as a bit set.
                let mut open = [0u64; 64];
                let open = &mut open[..L::ROW.div_ceil(64)];
                let mut any = false;
                for w in 0..words_per_row {
                    let word = table[row * words_per_row + w].load(Ordering::Relaxed);
                    let mut lanes = lanes_equal(word, EMPTY);
                    while lanes != 0 {
                        let j = lanes.trailing_zeros() as usize / 2;
                        lanes &= lanes - 1;
                        let f = w * 32 + j;
                        if f < row_len {
                            open[f / 64] |= 1 << (f % 64);
                            any = true;
                        }
                    }
                }
                if !any {
                    return;
                }
                settle_row(
                    layout,
                    row,
                    open,
                    |i| get(i) == dv,
                    |f| {
                        set(base + f, nv);
                        local += 1;
                    },
                );
            } else {
                for w in 0..words_per_row {
                    let mut lanes =
                        lanes_equal(table[row * words_per_row + w].load(Ordering::Relaxed), dv);
                    while lanes != 0 {
                        let f = w * 32 + lanes.trailing_zeros() as usize / 2;
                        lanes &= lanes - 1;
                        layout.neighbours(base + f, |i| {
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
        };
        for_rows_reporting(
            n_rows,
            &format!("depth {}", depth + 1),
            &mut *progress,
            &visit,
        );
        count = new_count.into_inner();
        filled += count;
        depth += 1;
    }
}

/// Distance [`MOD3_LAST`] + 1 on the exact table: each entry still far
/// (in a row's part that stands for positions) with a neighbour at
/// [`MOD3_LAST`] gets that distance's code (bit 0 cleared: 7 becomes 6).
fn last_layer<L: Layout>(layout: &L, words: &[AtomicU64], progress: BuildProgress) {
    const LAST_CODE: u64 = MOD3_LAST - NEAR as u64;
    let row_len = layout.row_len();
    let visit = |row: usize| {
        let base = row * L::ROW;
        let mut open = [0u64; 64];
        let open = &mut open[..row_len.div_ceil(64)];
        let mut any = false;
        for f in 0..row_len {
            if exact_code(words, base + f) == FAR_CODE {
                open[f / 64] |= 1 << (f % 64);
                any = true;
            }
        }
        if !any {
            return;
        }
        let is_parent = |i: usize| exact_code(words, i) == LAST_CODE;
        settle_row(layout, row, open, is_parent, |f| {
            let i = base + f;
            let bit = 1u64 << (3 * (i % PER_WORD));
            words[i / PER_WORD].fetch_and((!bit).to_le(), Ordering::Relaxed);
        });
    };
    let step = format!("depth {}", MOD3_LAST + 1);
    for_rows_reporting(layout.rows(), &step, progress, &visit);
}

#[cfg(test)]
mod tests;
