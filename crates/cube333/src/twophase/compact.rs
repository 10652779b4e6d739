//! The compact tables: min2phase's projections of the phase-1 and
//! phase-2 coordinates, reduced by symmetry, 4 bits an entry, built in
//! memory in a fraction of a second; and the medium tables, the same
//! phase 1 with two larger phase-2 projections, all kept in the store.
//!
//! (Long because each projection's coordinates, symmetry reduction and
//! bound are written out next to each other, as min2phase's are.)

use super::*;

/// Lower bounds from projections: phase 1 by (twist class, UD slice),
/// (flip class, UD slice) and (twist class, flip), the last for the cube
/// turned a quarter about UD too ([`Phase1Compact`]); phase 2 by the
/// projections of [`Phase2Tables`], for the cube and its inverse. Each
/// table's only 0 is the goal, so a bound of 0 is exact there as with
/// the full tables.
pub(super) struct CompactPrune {
    /// Phase 1's tables.
    pub(super) phase1: Phase1Compact,
    /// Phase 2's distance tables.
    pub(super) phase2: Phase2Tables,
    /// The corner combination (0..70) of each corner permutation.
    pub(super) corner_comb: Vec<u8>,
    /// The edge combination (0..70) of each UD-edge permutation.
    pub(super) edge_comb: Vec<u8>,
    /// Each UD-edge permutation's class and the symmetry to it, `class <<
    /// 4 | sym` (the corners' are the coordinate tables' own).
    pub(super) ud_class: Vec<u32>,
    /// The combinations and slice permutation conjugated by each of the
    /// 16 symmetries: `[x * 16 + s]`.
    pub(super) corner_comb_conj: Vec<u8>,
    pub(super) edge_comb_conj: Vec<u8>,
    pub(super) slice_perm_conj: Vec<u8>,
    /// The inverse of each corner permutation, UD-edge permutation and
    /// slice permutation: a phase-2 cube and its inverse are as far from
    /// solved, so the bounds of the inverse prune too (min2phase's).
    /// Each move turned a quarter about UD (`S · m · S⁻¹`).
    pub(super) quarter_move: [u8; N_MOVES],
    /// Phase 2 carries the corners and the UD edges as (class, symmetry)
    /// (`class << 4 | sym`, the symmetry taking the cube's coordinate to
    /// its class's representative), so that its move tables are a class's
    /// rather than a permutation's: 2768 × 10 entries where the raw ones
    /// are 40320 × 18, and phase 2's tables together stay in cache.
    /// `corner_class_move[k * 10 + i]`: the class and symmetry of the
    /// representative of corner class `k` after phase-2 move `i`.
    pub(super) corner_class_move: Vec<u32>,
    pub(super) ud_class_move: Vec<u32>,
    /// Each class's inverse: the class and symmetry of the inverse of its
    /// representative.
    pub(super) corner_class_inv: Vec<u32>,
    pub(super) ud_class_inv: Vec<u32>,
    /// The combination of each class's representative.
    pub(super) corner_class_comb: Vec<u8>,
    pub(super) ud_class_comb: Vec<u8>,
    /// `move_conj[s][i]`: phase-2 move `i` conjugated by symmetry `s`, as
    /// an index of `PHASE2_MOVES`.
    pub(super) move_conj: [[u8; 10]; 16],
    /// `sym_mult[a][b]`: the symmetry `S_a · S_b`; `sym_inv[a]`: `S_a⁻¹`.
    pub(super) sym_mult: [[u8; 16]; 16],
    pub(super) sym_inv: [u8; 16],
    /// The slice permutation after each phase-2 move, ten moves wide.
    pub(super) slice_move2: [u8; 24 * 10],
    pub(super) slice_perm_inv: [u8; 24],
}

/// Phase 2's distance tables: the corners and the UD edges each reduced
/// by the 16 symmetries, the other coordinates turned with them.
pub(super) enum Phase2Tables {
    Projections(Projections),
    Paired(Paired),
}

/// Four small projections, 254 KB together, built with phase 1's
/// tables at start-up.
pub(super) struct Projections {
    /// (UD-edge class, slice permutation turned with it): 2768 × 24
    /// entries, where the raw pairs took 968 K.
    pub(super) ud_slice: Nibbles,
    /// (UD-edge class, which 4 of the 8 corner slots hold U corners,
    /// turned likewise): 2768 × 70.
    pub(super) ud_corner_comb: Nibbles,
    /// (corner class, which 4 of the 8 U/D edge slots hold U edges): 2768
    /// × 70.
    pub(super) corner_edge_comb: Nibbles,
    /// (corner class, slice permutation): 2768 × 24, in place of the
    /// coordinate tables' raw 968 KB (corners, slice permutation)
    /// distances, which do not stay in cache beside the rest.
    pub(super) corner_slice: Nibbles,
}

/// Two projections that each pair the slice permutation with the other
/// piece type's combination: (corner class, slice permutation, edge
/// combination) and (UD-edge class, slice permutation, corner
/// combination), 2768 × 24 × 70 entries, 2.3 MB each. Each is at least
/// two of [`Projections`]' four, and together they leave phase 2 a
/// sixth of the nodes at length 21 (see `twistor 333 bench`). Their
/// build takes most of a second, so they are kept in the store.
pub(super) struct Paired {
    pub(super) corner_slice_edges: NibbleTable,
    pub(super) ud_slice_corners: NibbleTable,
}

/// Entries of each [`Paired`] table: classes × slice permutations ×
/// combinations.
pub(super) const PAIRED_INNER: usize = 24 * 70;

/// The store [`CompactPrune::build`] reads its kept tables from and
/// writes them to, and where it tells what happened.
pub(super) struct StoreSource<'a> {
    pub(super) store: &'a dyn TableStore,
    pub(super) report: &'a mut dyn FnMut(StoreEvent),
}

/// The names of the [`Paired`] tables in the store.
const PAIRED_NAMES: [&str; 2] = [
    "phase2-corner-sliceperm-edgecomb",
    "phase2-udedge-sliceperm-cornercomb",
];

/// The cache identities of the [`Paired`] tables (corners', UD edges').
pub(super) fn paired_table_ids() -> [TableKey; 2] {
    PAIRED_NAMES.map(|name| {
        crate::cache::table_key(name, [N_CORNER_CLASS as u64, PAIRED_INNER as u64, 4, 0])
    })
}

/// A slice permutation and a combination as one inner coordinate of a
/// [`Paired`] table, `slice * 70 + combination`, each moved (or turned
/// by a symmetry) by its own function.
fn pair(
    slice: impl Fn(usize, usize) -> usize + Sync,
    comb: impl Fn(usize, usize) -> usize + Sync,
) -> impl Fn(usize, usize) -> usize + Sync {
    move |k, x| slice(k / 70, x) * 70 + comb(k % 70, x)
}

/// A phase-2 lower bound, as the search reads it: the largest of a
/// table set's bounds for a phase-2 cube and for its inverse (which is
/// as far from solved).
pub(super) trait Phase2Bound {
    /// Whether the search reads all children's bounds before it decides
    /// on any (tables that miss the cache: the processor overlaps the
    /// misses) rather than each child's tables one by one until one
    /// reaches the limit (tables that stay in cache: most children are
    /// decided by the first read or two).
    const READ_ALL_FIRST: bool;

    /// Where the bound of one position (not its inverse) is read: its
    /// tables' indices.
    type Reads: Copy + Default;

    fn reads(&self, cp: &CompactPrune, at: Phase2At) -> Self::Reads;

    /// The bound read from them.
    fn read(&self, reads: Self::Reads) -> u8;

    /// The bound of `at` and of its inverse.
    #[inline(always)]
    fn bound(&self, cp: &CompactPrune, at: Phase2At) -> u8 {
        let inverse = self.reads(cp, cp.phase2_inverse(at));
        self.read(self.reads(cp, at)).max(self.read(inverse))
    }

    /// Whether the bounds of `at` and of its inverse are below `limit`.
    #[inline(always)]
    fn within(&self, cp: &CompactPrune, at: Phase2At, limit: usize) -> bool {
        (self.read(self.reads(cp, at)) as usize) < limit
            && (self.read(self.reads(cp, cp.phase2_inverse(at))) as usize) < limit
    }
}

impl Phase2Bound for Projections {
    const READ_ALL_FIRST: bool = false;

    type Reads = [usize; 4];

    #[inline(always)]
    fn reads(&self, cp: &CompactPrune, at: Phase2At) -> Self::Reads {
        cp.phase2_indices(at)
    }

    #[inline(always)]
    fn read(&self, [a, b, c, d]: Self::Reads) -> u8 {
        self.ud_slice
            .get(a)
            .max(self.ud_corner_comb.get(b))
            .max(self.corner_edge_comb.get(c))
            .max(self.corner_slice.get(d))
    }

    /// Table by table, the one most often decisive first.
    #[inline(always)]
    fn within(&self, cp: &CompactPrune, at: Phase2At, limit: usize) -> bool {
        let one = |at: Phase2At| {
            let [a, b, c, d] = cp.phase2_indices(at);
            (self.corner_slice.get(d) as usize) < limit
                && (self.ud_slice.get(a) as usize) < limit
                && (self.ud_corner_comb.get(b) as usize) < limit
                && (self.corner_edge_comb.get(c) as usize) < limit
        };
        one(at) && one(cp.phase2_inverse(at))
    }
}

/// [`Paired`]'s tables as the search reads them, borrowed once a phase-2
/// search.
pub(super) struct PairedView<'a> {
    corner_slice_edges: &'a [u8],
    ud_slice_corners: &'a [u8],
}

impl Paired {
    pub(super) fn view(&self) -> PairedView<'_> {
        PairedView {
            corner_slice_edges: self.corner_slice_edges.bytes(),
            ud_slice_corners: self.ud_slice_corners.bytes(),
        }
    }
}

impl Phase2Bound for PairedView<'_> {
    const READ_ALL_FIRST: bool = true;

    type Reads = [usize; 2];

    #[inline(always)]
    fn reads(&self, cp: &CompactPrune, at: Phase2At) -> Self::Reads {
        cp.paired_indices(at)
    }

    #[inline(always)]
    fn read(&self, [a, b]: Self::Reads) -> u8 {
        nibble(self.corner_slice_edges, a).max(nibble(self.ud_slice_corners, b))
    }
}

/// Distances at 4 bits an entry (a distance above 15 is kept as 15, still
/// a lower bound): half the bytes, so that phase 1's three tables fit the
/// processor's second-level cache together, where most of the search's
/// time went in waiting for table reads.
pub(super) struct Nibbles(Vec<u8>);

impl Nibbles {
    #[inline(always)]
    pub(super) fn get(&self, i: usize) -> u8 {
        (self.0[i >> 1] >> ((i & 1) * 4)) & 15
    }

    pub(super) fn bytes(&self) -> usize {
        self.0.len()
    }
}

/// The eight symmetries that keep the UD axis and every edge's
/// orientation: generated by LR2, U2 and F2, which commute and are each
/// their own inverse, so that composing two is the XOR of their indices
/// `e` (bit 0 LR2, bit 1 U2, bit 2 F2). `E8[e]` is the symmetry's index
/// among the 48. Twist and flip are both reduced by them (min2phase's
/// choice): a conjugate's flip needs no slice, and carrying the
/// symmetry is an XOR.
pub(super) const E8: [usize; 8] = [0, 1, 4, 5, 8, 9, 12, 13];

/// A coordinate reduced by the symmetries of [`E8`]: value `x` is
/// `S_e · rep · S_e` for its class's representative `rep`, kept as
/// `class << 3 | e`.
pub(super) struct E8Reduction {
    /// `class << 3 | e` of each raw value.
    pub(super) packed: Vec<u16>,
    /// Each class's representative.
    pub(super) rep: Vec<u16>,
    /// The symmetries (as bits of their index among the 48) that fix each
    /// representative.
    pub(super) stab: Vec<u16>,
}

impl E8Reduction {
    /// Reduces `n` values given `conj(x, s) = S_s · x · S_s⁻¹`.
    pub(super) fn build(n: usize, conj: impl Fn(usize, usize) -> usize) -> E8Reduction {
        let mut packed = vec![u16::MAX; n];
        let (mut rep, mut stab) = (Vec::new(), Vec::new());
        for x in 0..n {
            if packed[x] != u16::MAX {
                continue;
            }
            let class = rep.len() as u16;
            rep.push(x as u16);
            let mut fixed = 0u16;
            for (e, &s) in E8.iter().enumerate() {
                let y = conj(x, s);
                if y == x {
                    fixed |= 1 << s;
                }
                if packed[y] == u16::MAX {
                    packed[y] = class << 3 | e as u16;
                }
            }
            stab.push(fixed);
        }
        E8Reduction { packed, rep, stab }
    }

    /// The class and symmetry (as `class << 3 | e`) of each class's
    /// representative after each of the 18 moves.
    pub(super) fn class_moves(&self, raw_move: &[u16]) -> Vec<u16> {
        (0..self.rep.len() * N_MOVES)
            .map(|i| {
                self.packed
                    [raw_move[self.rep[i / N_MOVES] as usize * N_MOVES + i % N_MOVES] as usize]
            })
            .collect()
    }
}

/// A class move table of an [`E8Reduction`] as a [`SymSpace`] reads it:
/// the class after the move and the symmetry (among the 48) to it.
pub(super) fn e8_class_move(
    table: &[u16],
) -> impl Fn(usize, usize) -> (usize, usize) + Sync + Copy + '_ {
    move |class, m| {
        let p = table[class * N_MOVES + m] as usize;
        (p >> 3, E8[p & 7])
    }
}

/// Phase 1's compact tables. Twist and flip travel as `class << 3 | e`
/// under [`E8`], so their move tables are a class's (324 and 336 rows,
/// 12 KB each, where the raw ones are 2187 and 2048 rows of four bytes);
/// with the slice's conjugations and the flip of each class turned by
/// each symmetry, the tables read beside the distances stay in the first
/// level cache. The three distance tables, at 4 bits an entry:
/// (twist class, slice turned with it), 324 × 495, 80 KB; (flip class,
/// slice), 336 × 495, 83 KB; (twist class, flip turned with it), 324 ×
/// 2048, 332 KB.
pub(super) struct Phase1Compact {
    pub(super) twist: E8Reduction,
    pub(super) flip: E8Reduction,
    /// `twist_move[class * 18 + m]`: the representative after move `m`,
    /// as `class << 3 | e` (and `flip_move` likewise).
    pub(super) twist_move: Vec<u16>,
    pub(super) flip_move: Vec<u16>,
    /// `sym_move[e][m]`: move `m` conjugated by `S_e`.
    pub(super) sym_move: [[u8; N_MOVES]; 8],
    /// `slice_conj[slice * 8 + e]`: the slice conjugated by `S_e`.
    pub(super) slice_conj: Vec<u16>,
    /// `flip_raw[class * 8 + e]`: the flip `S_e · rep · S_e`.
    pub(super) flip_raw: Vec<u16>,
    pub(super) twist_slice: TwistSlice,
    pub(super) slice_flip: Nibbles,
    pub(super) twist_flip: Nibbles,
}

/// Phase 1's bound of the twist with the slice.
pub(super) enum TwistSlice {
    /// The compact tables': (twist class, slice).
    Slice(Nibbles),
    /// The medium tables': (twist class, slice flips).
    SliceFlips(SliceFlips),
}

/// Entries of the slice-flips coordinate: the UD slice's places and the
/// flips of the four edges in them, `slice * 16 + flips` (bit `k` the
/// flip of the edge in the `k`th of the places, in slot order).
pub(super) const N_SLICE_FLIPS: usize = N_SLICE * 16;

/// The medium tables' phase-1 addition: (twist class, slice flips),
/// 324 × 7920 entries, 1.3 MB. The flips of the edges in the slice's
/// places move with the places alone (a move turns an edge by where it
/// stands, not by which edge it is), so this is a coordinate of its own,
/// and it refines the (twist class, slice) table with four of the flip's
/// bits: phase 1 expands half the nodes.
pub(super) struct SliceFlips {
    /// `moves[x * 18 + m]`.
    pub(super) moves: Vec<u16>,
    /// `conj[x * 8 + e]`: conjugated by `S_e` of [`E8`].
    pub(super) conj: Vec<u16>,
    pub(super) twist_table: NibbleTable,
}

/// The slice-flips coordinate of a cube ([`N_SLICE_FLIPS`]).
pub(super) fn slice_flips(cube: &CubieCube) -> usize {
    let mut flips = 0;
    let mut k = 0;
    for (&e, &o) in cube.ep.iter().zip(&cube.eo) {
        if e >= 8 {
            flips |= (o as usize) << k;
            k += 1;
        }
    }
    coord::slice(cube) as usize * 16 + flips
}

/// A cube with slice flips `x` (its other pieces as solved but for the
/// edges the slice's edges displaced).
fn cube_of_slice_flips(x: usize) -> CubieCube {
    let mut cube = CubieCube::SOLVED;
    coord::set_slice_sorted(&mut cube, (x / 16 * 24) as u16);
    let mut k = 0;
    for (&e, o) in cube.ep.iter().zip(cube.eo.iter_mut()) {
        if e >= 8 {
            *o = (x >> k & 1) as u8;
            k += 1;
        }
    }
    cube
}

impl SliceFlips {
    /// The coordinate's move and conjugation tables, through cubies, and
    /// its table with the twist classes from the store (or built and
    /// kept there).
    fn load<C, S>(twist_classes: Classes<C, S>, source: &mut StoreSource) -> SliceFlips
    where
        C: Fn(usize, usize) -> (usize, usize) + Sync + Copy,
        S: Fn(usize) -> u16 + Sync + Copy,
    {
        use rayon::prelude::*;
        let sy = Symmetries::get();
        // Through cubies, a value's row at a time, on every core: most of
        // a start on the stored medium tables otherwise.
        let (moves, conj): (Vec<u16>, Vec<u16>) = rayon::join(
            || {
                (0..N_SLICE_FLIPS)
                    .into_par_iter()
                    .flat_map_iter(|x| {
                        let cube = cube_of_slice_flips(x);
                        (0..N_MOVES).map(move |m| {
                            slice_flips(&cube.apply_move(FaceTurn::from_index(m))) as u16
                        })
                    })
                    .collect()
            },
            || {
                (0..N_SLICE_FLIPS)
                    .into_par_iter()
                    .flat_map_iter(|x| {
                        let cube = cube_of_slice_flips(x);
                        E8.iter()
                            .map(move |&e| slice_flips(&sy.conjugate(&cube, e)) as u16)
                    })
                    .collect()
            },
        );
        // The symmetries of the twist classes' moves are E8's, by their
        // index among the 48.
        let mut e8_index = [0usize; 16];
        for (e, &s) in E8.iter().enumerate() {
            e8_index[s] = e;
        }
        let space = twist_classes.with(
            N_SLICE_FLIPS,
            |x: usize, m: usize| moves[x * N_MOVES + m] as usize,
            |x: usize, s: usize| conj[x * 8 + e8_index[s]] as usize,
        );
        let key = twist_slice_flips_id();
        let twist_table = stored_sym_nibbles(source.store, &key, &space, source.report);
        SliceFlips {
            moves,
            conj,
            twist_table,
        }
    }
}

/// Whether the store holds sound copies of the medium tables' five
/// stored tables.
pub(super) fn medium_tables_stored(store: &dyn TableStore) -> bool {
    let bytes = |entries: usize| PayloadLen::Exactly(entries.div_ceil(2) as u64);
    let paired = bytes(N_CORNER_CLASS * PAIRED_INNER);
    let [twist_flip, slice_flip] = phase1_projection_ids();
    paired_table_ids().iter().all(|k| store.contains(k, paired))
        && store.contains(
            &twist_slice_flips_id(),
            bytes(N_TWIST_E8_CLASS * N_SLICE_FLIPS),
        )
        && store.contains(&twist_flip, bytes(N_TWIST_E8_CLASS * N_FLIP))
        && store.contains(&slice_flip, bytes(N_FLIP_E8_CLASS * N_SLICE))
}

/// Which table set [`CompactPrune::build`] makes, and where from.
pub(super) enum CompactSet<'a> {
    /// The compact tables, built in memory.
    Built,
    /// The compact tables, read from the store, or built and kept there.
    Kept(StoreSource<'a>),
    /// The medium tables, read from the store, or built and kept there.
    Medium(StoreSource<'a>),
}

/// A kept table's entries, two a byte: read from the store, or built and
/// kept there.
fn kept_bytes(
    store: &dyn TableStore,
    key: &TableKey,
    space: &impl SymSpace,
    report: &mut dyn FnMut(StoreEvent),
) -> Vec<u8> {
    stored_sym_nibbles(store, key, space, report)
        .bytes()
        .to_vec()
}

/// The cache identities of the compact set's other five tables (phase
/// 1's (twist class, UD slice); phase 2's (corner class, edge
/// combination), (UD-edge class, corner combination), (corner class,
/// slice permutation) and (UD-edge class, slice permutation)); its
/// (twist class, flip) and (flip class, slice) are the medium set's.
pub(super) fn compact_table_ids() -> [TableKey; 5] {
    let key = |name: &str, classes: usize, inner: usize| {
        crate::cache::table_key(name, [classes as u64, inner as u64, 4, 0])
    };
    [
        key("phase1-twistclass-slice", N_TWIST_E8_CLASS, N_SLICE),
        key("phase2-cornerclass-edgecomb", N_CORNER_CLASS, 70),
        key("phase2-udclass-cornercomb", N_CORNER_CLASS, 70),
        key("phase2-cornerclass-sliceperm", N_CORNER_CLASS, 24),
        key("phase2-udclass-sliceperm", N_CORNER_CLASS, 24),
    ]
}

/// The cache identities of phase 1's (twist class, flip) and (flip
/// class, UD slice) tables, which the medium tables keep in the store.
pub(super) fn phase1_projection_ids() -> [TableKey; 2] {
    [
        crate::cache::table_key(
            "phase1-twistclass-flip",
            [N_TWIST_E8_CLASS as u64, N_FLIP as u64, 4, 0],
        ),
        crate::cache::table_key(
            "phase1-flipclass-slice",
            [N_FLIP_E8_CLASS as u64, N_SLICE as u64, 4, 0],
        ),
    ]
}

/// The (twist class, slice flips) table's cache identity.
pub(super) fn twist_slice_flips_id() -> TableKey {
    crate::cache::table_key(
        "phase1-twistclass-sliceflips",
        [N_TWIST_E8_CLASS as u64, N_SLICE_FLIPS as u64, 4, 0],
    )
}

/// Twist classes under [`E8`].
pub(super) const N_TWIST_E8_CLASS: usize = 324;

/// Flip classes under [`E8`].
pub(super) const N_FLIP_E8_CLASS: usize = 336;

/// The slice as phase 1 carries it, and its bound with the twist: the
/// plain UD slice (495 values) with the (twist class, slice) table, or
/// the slice flips ([`N_SLICE_FLIPS`]) with the (twist class, slice
/// flips) table. Either way `x >> shift` is the slice.
#[derive(Clone, Copy)]
pub(super) struct SliceTwist<'a> {
    /// `moves[x * 18 + m]`.
    moves: &'a [u16],
    /// `conj[x * 8 + e]`.
    conj: &'a [u16],
    table: &'a [u8],
    inner: usize,
    shift: u32,
}

impl<'a> SliceTwist<'a> {
    /// The carried coordinate after each of the 18 moves.
    #[inline(always)]
    pub(super) fn row(&self, x: usize) -> &'a [u16] {
        &self.moves[x * N_MOVES..][..N_MOVES]
    }

    /// The UD slice of the carried coordinate.
    #[inline(always)]
    pub(super) fn slice(&self, x: usize) -> usize {
        x >> self.shift
    }

    /// The bound of a twist (`class << 3 | e`) with the carried
    /// coordinate, turned by the twist's symmetry.
    #[inline(always)]
    pub(super) fn bound(&self, twist: usize, x: usize) -> u8 {
        nibble(
            self.table,
            (twist >> 3) * self.inner + self.conj[x * 8 + (twist & 7)] as usize,
        )
    }
}

/// The (twist class, slice) and (flip class, slice) tables' index of a
/// twist or flip (`class << 3 | e`) and a slice: the slice turned by the
/// symmetry that takes the coordinate to its class's representative.
#[inline(always)]
pub(super) fn slice_index(slice_conj: &[u16], x: usize, slice: usize) -> usize {
    (x >> 3) * N_SLICE + slice_conj[slice * 8 + (x & 7)] as usize
}

/// The (twist class, flip) table's index: the cube turned by the twist's
/// symmetry, which turns the flip by the two symmetries' product.
#[inline(always)]
pub(super) fn twist_flip_index(flip_raw: &[u16], twist: usize, flip: usize) -> usize {
    (twist >> 3) * N_FLIP + flip_raw[(flip >> 3) * 8 + ((twist ^ flip) & 7)] as usize
}

impl Phase1Compact {
    /// The (twist class, slice), (flip class, slice) and (twist class,
    /// flip) tables' indices of raw coordinates.
    #[cfg(test)]
    pub(super) fn indices(&self, twist: usize, flip: usize, slice: usize) -> [usize; 3] {
        let (tx, fx) = (
            self.twist.packed[twist] as usize,
            self.flip.packed[flip] as usize,
        );
        [
            slice_index(&self.slice_conj, tx, slice),
            slice_index(&self.slice_conj, fx, slice),
            twist_flip_index(&self.flip_raw, tx, fx),
        ]
    }
}

/// Phase 1's compact tables as the search reads them: slices borrowed
/// once a phase-1 search, so the search keeps their addresses at hand (the
/// solver's own fields are read again after every write to it).
pub(super) struct Phase1View<'a> {
    pub(super) twist_move: &'a [u16],
    pub(super) flip_move: &'a [u16],
    pub(super) sym_move: &'a [[u8; N_MOVES]; 8],
    pub(super) slice_twist: SliceTwist<'a>,
    pub(super) slice_conj: &'a [u16],
    pub(super) flip_raw: &'a [u16],
    pub(super) slice_flip: &'a [u8],
    pub(super) twist_flip: &'a [u8],
    pub(super) quarter_move: &'a [u8; N_MOVES],
}

/// Where a compact phase-2 search stands: the corners and UD edges as
/// `class << 4 | symmetry`, and the slice permutation.
pub(super) type Phase2At = (u32, u32, usize);

/// Where a compact phase-1 search stands: twist and flip as `class << 3 |
/// e` ([`E8Reduction`]), the slice as [`SliceTwist`] carries it, and the
/// twist and flip of the cube turned a quarter about UD, likewise.
#[derive(Clone, Copy)]
pub(super) struct Phase1At {
    pub(super) twist: usize,
    pub(super) flip: usize,
    pub(super) slice: usize,
    pub(super) quarter: (usize, usize),
}

/// Entry `i` of a table of nibbles.
#[inline(always)]
pub(super) fn nibble(t: &[u8], i: usize) -> u8 {
    (t[i >> 1] >> ((i & 1) * 4)) & 15
}

impl Phase1View<'_> {
    /// A twist or flip (`class << 3 | e`) after move `m`: the class's
    /// representative moved by `m` turned by `S_e`, then turned back.
    #[inline(always)]
    pub(super) fn step(&self, table: &[u16], x: usize, m: usize) -> usize {
        let e = x & 7;
        table[(x >> 3) * N_MOVES + self.sym_move[e][m] as usize] as usize ^ e
    }

    /// The largest of the twist's bound with the carried slice
    /// ([`SliceTwist`]), the (flip class, slice) and the (twist class,
    /// flip) bounds. All three are read, without a branch between them:
    /// which one prunes is as good as random, and a mispredicted early
    /// exit costs more than the third read (as min2phase does).
    #[inline(always)]
    pub(super) fn bound3(&self, twist: usize, flip: usize, x: usize) -> u8 {
        let slice = self.slice_twist.slice(x);
        let a = self.slice_twist.bound(twist, x);
        let b = nibble(self.slice_flip, slice_index(self.slice_conj, flip, slice));
        a.max(b).max(self.twist_flip(twist, flip))
    }

    /// The (twist class, flip) bound.
    #[inline(always)]
    pub(super) fn twist_flip(&self, twist: usize, flip: usize) -> u8 {
        nibble(
            self.twist_flip,
            twist_flip_index(self.flip_raw, twist, flip),
        )
    }
}

/// The phase-2 moves' columns of the first `n` rows of an 18-wide move
/// table.
pub(super) fn ten_wide(table: &[u16], n: usize) -> Vec<u16> {
    (0..n * 10)
        .map(|i| table[i / 10 * N_MOVES + crate::tables::PHASE2_MOVES[i % 10] as usize])
        .collect()
}

/// For each class of a reduction and each phase-2 move: the class and
/// symmetry (`class << 4 | sym`) of its representative after the move.
pub(super) fn class_moves(red: &crate::tables::SymReduction, perm_move: &[u16]) -> Vec<u32> {
    (0..red.rep.len() * 10)
        .map(|i| {
            let m = crate::tables::PHASE2_MOVES[i % 10] as usize;
            red.packed[perm_move[red.rep[i / 10] as usize * N_MOVES + m] as usize]
        })
        .collect()
}

/// For each class of a reduction of a permutation coordinate: the class
/// and symmetry of its representative's inverse, through cubies.
pub(super) fn class_inverses(
    red: &crate::tables::SymReduction,
    set: fn(&mut CubieCube, u16),
    get: fn(&CubieCube) -> u16,
) -> Vec<u32> {
    red.rep
        .iter()
        .map(|&r| {
            let mut cube = CubieCube::SOLVED;
            set(&mut cube, r as u16);
            red.packed[get(&cube.inverse()) as usize]
        })
        .collect()
}

/// A symmetry-reduced projection for [`build_sym_nibbles`]: classes of
/// one coordinate (moved by their representatives) × another coordinate,
/// turned with them.
pub(super) struct ProjectionSpace<'a, C, I, J, S> {
    pub(super) classes: usize,
    pub(super) inner: usize,
    pub(super) moves: &'a [u8],
    pub(super) class_move: C,
    pub(super) inner_move: I,
    pub(super) inner_conj: J,
    pub(super) stab: S,
}

impl<C, I, J, S> SymSpace for ProjectionSpace<'_, C, I, J, S>
where
    C: Fn(usize, usize) -> (usize, usize) + Sync,
    I: Fn(usize, usize) -> usize + Sync,
    J: Fn(usize, usize) -> usize + Sync,
    S: Fn(usize) -> u16 + Sync,
{
    fn n_classes(&self) -> usize {
        self.classes
    }
    fn n_inner(&self) -> usize {
        self.inner
    }
    fn moves(&self) -> &[u8] {
        self.moves
    }
    #[inline]
    fn class_move(&self, class: usize, m: usize) -> (usize, usize) {
        (self.class_move)(class, m)
    }
    #[inline]
    fn inner_move(&self, inner: usize, m: usize) -> usize {
        (self.inner_move)(inner, m)
    }
    #[inline]
    fn inner_conj(&self, inner: usize, s: usize) -> usize {
        (self.inner_conj)(inner, s)
    }
    fn stab(&self, class: usize) -> u16 {
        (self.stab)(class)
    }
}

/// The classes a [`ProjectionSpace`] is over: how many, the moves, where
/// a move takes a class's representative, and the symmetries fixing it.
#[derive(Clone, Copy)]
pub(super) struct Classes<'a, C, S> {
    pub(super) n: usize,
    pub(super) moves: &'a [u8],
    pub(super) class_move: C,
    pub(super) stab: S,
}

impl<'a, C: Copy, S: Copy> Classes<'a, C, S> {
    /// These classes × an inner coordinate of `inner` values, moved and
    /// turned by a symmetry by the two functions.
    pub(super) fn with<I, J>(
        self,
        inner: usize,
        inner_move: I,
        inner_conj: J,
    ) -> ProjectionSpace<'a, C, I, J, S> {
        ProjectionSpace {
            classes: self.n,
            inner,
            moves: self.moves,
            class_move: self.class_move,
            inner_move,
            inner_conj,
            stab: self.stab,
        }
    }
}

/// The symmetry that turns the cube a quarter about UD.
pub(super) const QUARTER_ABOUT_UD: usize = 2;

/// Which four of the eight slots hold pieces 0..4, as a rank in 0..70.
pub(super) fn comb_rank(perm: &[u8]) -> u8 {
    let mut rank = 0;
    let mut k = 0;
    for (i, &p) in perm.iter().enumerate() {
        if p < 4 {
            k += 1;
            rank += binomial(i, k);
        }
    }
    rank as u8
}

/// `n` choose `k` (0 when `k > n`): the core's kernel, in this crate's
/// integer type (the arguments here are at most 12).
pub(crate) fn binomial(n: usize, k: usize) -> usize {
    twistor_core::index::binomial(n as u64, k as u64).map_or(0, |b| b as usize)
}

/// Breadth-first distances over `n` states from state 0.
pub(crate) fn bfs(n: usize, moves: &[u8], next: impl Fn(usize, usize) -> usize) -> Vec<u8> {
    twistor_core::distances::breadth_first(n, [0], |x, visit| {
        for &m in moves {
            visit.to(next(x, m as usize));
        }
    })
}

impl CompactPrune {
    /// Where phase 1 starts from a cube's coordinates.
    pub(super) fn phase1_at(&self, coord: &CoordTables, c: &Phase1Coords) -> Phase1At {
        let (twist, flip, slice) = self.phase1_carried(c);
        Phase1At {
            twist,
            flip,
            slice,
            quarter: self.quarter_turned(coord, c.twist, c.flip, c.slice),
        }
    }

    /// The twist and flip as `class << 3 | e`, and the slice as phase 1
    /// carries it.
    fn phase1_carried(&self, c: &Phase1Coords) -> (usize, usize, usize) {
        let p = &self.phase1;
        let slice = match p.twist_slice {
            TwistSlice::SliceFlips(_) => c.slice_flips,
            TwistSlice::Slice(_) => c.slice,
        };
        (
            p.twist.packed[c.twist] as usize,
            p.flip.packed[c.flip] as usize,
            slice,
        )
    }

    /// The phase-1 bound of a cube's coordinates (the search's four) if
    /// it is at most `limit`, else a bound above `limit`: the
    /// quarter-turned cube's, the costliest to work out, is read last and
    /// only if the other three leave the limit in reach.
    pub(super) fn phase1_bound(&self, coord: &CoordTables, c: &Phase1Coords, limit: usize) -> u8 {
        let v = self.phase1_view(coord);
        let (twist, flip, slice) = self.phase1_carried(c);
        let h = v.bound3(twist, flip, slice);
        if h as usize > limit {
            return h;
        }
        let (tq, fq) = self.quarter_turned(coord, c.twist, c.flip, c.slice);
        h.max(v.twist_flip(tq, fq))
    }

    /// Phase 1's tables as its search reads them.
    pub(super) fn phase1_view<'a>(&'a self, coord: &'a CoordTables) -> Phase1View<'a> {
        let p = &self.phase1;
        let slice_twist = match &p.twist_slice {
            TwistSlice::SliceFlips(f) => SliceTwist {
                moves: &f.moves,
                conj: &f.conj,
                table: f.twist_table.bytes(),
                inner: N_SLICE_FLIPS,
                shift: 4,
            },
            TwistSlice::Slice(t) => SliceTwist {
                moves: &coord.slice_move,
                conj: &p.slice_conj,
                table: &t.0,
                inner: N_SLICE,
                shift: 0,
            },
        };
        Phase1View {
            twist_move: &p.twist_move,
            flip_move: &p.flip_move,
            sym_move: &p.sym_move,
            slice_twist,
            slice_conj: &p.slice_conj,
            flip_raw: &p.flip_raw,
            slice_flip: &p.slice_flip.0,
            twist_flip: &p.twist_flip.0,
            quarter_move: &self.quarter_move,
        }
    }

    /// The twist and flip of a cube turned a quarter about UD, from its
    /// raw coordinates, as `class << 3 | e`. The cube turned a quarter
    /// about UD is as far from phase 2, and its flip is measured against
    /// the other faces: the (twist class, flip) table gives a fourth bound
    /// (min2phase's conjugate pruning).
    pub(super) fn quarter_turned(
        &self,
        coord: &CoordTables,
        twist: usize,
        flip: usize,
        slice: usize,
    ) -> (usize, usize) {
        let slice_q = coord.slice_conj[slice * 16 + QUARTER_ABOUT_UD] as usize;
        let twist_q = coord.twist_conj[twist * 16 + QUARTER_ABOUT_UD] as usize;
        let flip_q = coord.conj_flip(flip as u16, QUARTER_ABOUT_UD, slice_q) as usize;
        (
            self.phase1.twist.packed[twist_q] as usize,
            self.phase1.flip.packed[flip_q] as usize,
        )
    }

    /// What phase 2's tables are indexed by, for (corners, UD edges,
    /// slice permutation) with the corners and UD edges as (class,
    /// symmetry): the corner class with the slice permutation and the
    /// edge combination, and the UD-edge class with the slice permutation
    /// and the corner combination, each turned by the symmetry that takes
    /// the class's coordinate to its representative. A coordinate `x` of
    /// class `k` and symmetry `s` is `S_s⁻¹ · rep_k · S_s`, so the other's
    /// combination, turned by `S_a`, is the representative's turned by
    /// `S_a · S_s⁻¹`.
    #[inline(always)]
    fn phase2_turned(&self, (corner, ud, sp): Phase2At) -> [[usize; 3]; 2] {
        let (cc, cs) = ((corner >> 4) as usize, (corner & 15) as usize);
        let (uc, us) = ((ud >> 4) as usize, (ud & 15) as usize);
        let to_corner = self.sym_mult[cs][self.sym_inv[us] as usize] as usize;
        let to_ud = self.sym_mult[us][self.sym_inv[cs] as usize] as usize;
        [
            [
                cc,
                self.slice_perm_conj[sp * 16 + cs] as usize,
                self.edge_comb_conj[self.ud_class_comb[uc] as usize * 16 + to_corner] as usize,
            ],
            [
                uc,
                self.slice_perm_conj[sp * 16 + us] as usize,
                self.corner_comb_conj[self.corner_class_comb[cc] as usize * 16 + to_ud] as usize,
            ],
        ]
    }

    /// [`Projections`]' indices: (UD-edge class, slice permutation),
    /// (UD-edge class, corner combination), (corner class, edge
    /// combination), (corner class, slice permutation).
    #[inline(always)]
    pub(super) fn phase2_indices(&self, at: Phase2At) -> [usize; 4] {
        let [[cc, c_slice, c_comb], [uc, u_slice, u_comb]] = self.phase2_turned(at);
        [
            uc * 24 + u_slice,
            uc * 70 + u_comb,
            cc * 70 + c_comb,
            cc * 24 + c_slice,
        ]
    }

    /// [`Paired`]'s indices: (corner class, slice permutation, edge
    /// combination) and (UD-edge class, slice permutation, corner
    /// combination).
    #[inline(always)]
    pub(super) fn paired_indices(&self, at: Phase2At) -> [usize; 2] {
        let [[cc, c_slice, c_comb], [uc, u_slice, u_comb]] = self.phase2_turned(at);
        [
            (cc * 24 + c_slice) * 70 + c_comb,
            (uc * 24 + u_slice) * 70 + u_comb,
        ]
    }

    /// Phase 2's coordinates of raw corners, UD edges and slice
    /// permutation.
    #[inline]
    pub(super) fn phase2_at(
        &self,
        coord: &CoordTables,
        corners: usize,
        ud: usize,
        sp: usize,
    ) -> Phase2At {
        (coord.corner.packed[corners], self.ud_class[ud], sp)
    }

    /// The inverse cube's phase-2 coordinates: `x⁻¹ = S_s⁻¹ · rep⁻¹ · S_s`
    /// and `rep⁻¹ = S_t⁻¹ · rep_j · S_t`, so class `j`, symmetry `S_t · S_s`.
    #[inline(always)]
    pub(super) fn phase2_inverse(&self, (corner, ud, sp): Phase2At) -> Phase2At {
        let inv = |table: &[u32], x: u32| {
            let j = table[(x >> 4) as usize];
            (j & !15) | self.sym_mult[(j & 15) as usize][(x & 15) as usize] as u32
        };
        (
            inv(&self.corner_class_inv, corner),
            inv(&self.ud_class_inv, ud),
            self.slice_perm_inv[sp] as usize,
        )
    }

    /// The phase-2 coordinates after phase-2 move `i`: the representative
    /// moved by `i` turned by the symmetry, then turned back.
    #[inline(always)]
    pub(super) fn phase2_move(&self, (corner, ud, sp): Phase2At, i: usize) -> Phase2At {
        let step = |table: &[u32], x: u32| {
            let s = (x & 15) as usize;
            let y = table[(x >> 4) as usize * 10 + self.move_conj[s][i] as usize];
            (y & !15) | self.sym_mult[(y & 15) as usize][s] as u32
        };
        (
            step(&self.corner_class_move, corner),
            step(&self.ud_class_move, ud),
            self.slice_move2[sp * 10 + i] as usize,
        )
    }

    /// The phase-2 bound of `at` (and of its inverse).
    pub(super) fn phase2_bound(&self, at: Phase2At) -> u8 {
        match &self.phase2 {
            Phase2Tables::Projections(p) => p.bound(self, at),
            Phase2Tables::Paired(p) => p.view().bound(self, at),
        }
    }

    /// The tables of `set`: phase 2's [`Projections`] with phase 1's, or
    /// the medium set's [`Paired`] tables and [`SliceFlips`] instead.
    pub(super) fn build(c: &CoordTables, set: CompactSet) -> CompactPrune {
        // The combinations and flip classes first (quick), then the
        // breadth-first searches at once.
        // (The three largest, 40,320 values each, side by side.)
        let ((corner_comb, edge_comb), ud_red) = rayon::join(
            || {
                rayon::join(
                    || -> Vec<u8> {
                        (0..N_CORNERS)
                            .map(|x| {
                                let mut cube = CubieCube::SOLVED;
                                coord::set_corners(&mut cube, x as u16);
                                comb_rank(&cube.cp)
                            })
                            .collect()
                    },
                    || -> Vec<u8> {
                        (0..N_UD_EDGES)
                            .map(|x| {
                                let mut cube = CubieCube::SOLVED;
                                coord::set_ud_edges(&mut cube, x as u16);
                                comb_rank(&cube.ep[..8])
                            })
                            .collect()
                    },
                )
            },
            // Phase 2's tables are reduced by the corners' or the UD
            // edges' classes, the other coordinate turned with them.
            || {
                crate::tables::SymReduction::build(N_UD_EDGES, |x, s| {
                    c.ud_edges_conj[x * 16 + s] as usize
                })
            },
        );
        // Each combination's move table, through a permutation that has it.
        let comb_moves = |comb: &[u8], perm_move: &[u16]| -> Vec<u8> {
            let mut rep = [0usize; 70];
            for (x, &k) in comb.iter().enumerate().rev() {
                rep[k as usize] = x;
            }
            (0..70 * N_MOVES)
                .map(|i| comb[perm_move[rep[i / N_MOVES] * N_MOVES + i % N_MOVES] as usize])
                .collect()
        };
        let corner_comb_move = comb_moves(&corner_comb, &c.corners_move);
        let edge_comb_move = comb_moves(&edge_comb, &c.ud_edges_move);
        // Twist and flip reduced by the eight symmetries that keep every
        // edge's orientation, as phase 1 carries them.
        let sy = Symmetries::get();
        let twist8 = E8Reduction::build(N_TWIST, |x, s| c.twist_conj[x * 16 + s] as usize);
        let flip8 = E8Reduction::build(N_FLIP, |x, s| c.flip_conj[x * 16 + s] as usize);
        let twist8_move = twist8.class_moves(&c.twist_move);
        let flip8_move = flip8.class_moves(&c.flip_move);
        let twist_class_move = e8_class_move(&twist8_move);
        let flip_class_move = e8_class_move(&flip8_move);
        let slice_inner = |sl: usize, m: usize| c.slice_move[sl * N_MOVES + m] as usize;
        let slice_conj = |sl: usize, s: usize| c.slice_conj[sl * 16 + s] as usize;
        let all: Vec<u8> = (0..N_MOVES as u8).collect();
        let p2 = &crate::tables::PHASE2_MOVES;
        // A permutation coordinate's inverse, through cubies.
        let inverse = |n: usize, set: fn(&mut CubieCube, u16), get: fn(&CubieCube) -> u16| {
            (0..n)
                .map(|x| {
                    let mut cube = CubieCube::SOLVED;
                    set(&mut cube, x as u16);
                    get(&cube.inverse())
                })
                .collect::<Vec<u16>>()
        };
        // A coordinate conjugated by each of the 16 symmetries, through
        // cubies: `set` makes a cube with value `x`, `get` reads it back.
        let conj_through_cubies =
            |n: usize, set: &dyn Fn(usize) -> CubieCube, get: &dyn Fn(&CubieCube) -> u8| {
                let sy = Symmetries::get();
                (0..n * 16)
                    .map(|i| get(&sy.conjugate(&set(i / 16), i % 16)))
                    .collect::<Vec<u8>>()
            };
        let first_with =
            |comb: &[u8], k: usize| comb.iter().position(|&x| x as usize == k).unwrap_or(0);
        let corner_comb_conj = conj_through_cubies(
            70,
            &|k| {
                let mut cube = CubieCube::SOLVED;
                coord::set_corners(&mut cube, first_with(&corner_comb, k) as u16);
                cube
            },
            &|cube| comb_rank(&cube.cp),
        );
        let edge_comb_conj = conj_through_cubies(
            70,
            &|k| {
                let mut cube = CubieCube::SOLVED;
                coord::set_ud_edges(&mut cube, first_with(&edge_comb, k) as u16);
                cube
            },
            &|cube| comb_rank(&cube.ep[..8]),
        );
        let slice_perm_conj = conj_through_cubies(
            24,
            &|sp| {
                let mut cube = CubieCube::SOLVED;
                coord::set_slice_sorted(&mut cube, sp as u16);
                cube
            },
            &|cube| coord::slice_sorted(cube) as u8,
        );
        let ud_class_move = |class: usize, m: usize| {
            let u2 = c.ud_edges_move[ud_red.rep[class] as usize * N_MOVES + m] as usize;
            let p = ud_red.packed[u2] as usize;
            (p >> 4, p & 15)
        };
        let corner_class_move = |class: usize, m: usize| c.corner_class_move(class, m);
        // Phase 2's inner coordinates, moved and turned by a symmetry.
        let edge_comb_inner = |k: usize, m: usize| edge_comb_move[k * N_MOVES + m] as usize;
        let edge_comb_conj_inner = |k: usize, s: usize| edge_comb_conj[k * 16 + s] as usize;
        let corner_comb_inner = |k: usize, m: usize| corner_comb_move[k * N_MOVES + m] as usize;
        let corner_comb_conj_inner = |k: usize, s: usize| corner_comb_conj[k * 16 + s] as usize;
        let slice_perm_inner = |sp: usize, m: usize| c.slice_sorted_move[sp * N_MOVES + m] as usize;
        let slice_perm_conj_inner = |sp: usize, s: usize| slice_perm_conj[sp * 16 + s] as usize;
        // The four kinds of class the projections are over.
        let twist_classes = Classes {
            n: twist8.rep.len(),
            moves: &all,
            class_move: twist_class_move,
            stab: |class: usize| twist8.stab[class],
        };
        let flip_classes = Classes {
            n: flip8.rep.len(),
            moves: &all,
            class_move: flip_class_move,
            stab: |class: usize| flip8.stab[class],
        };
        let corner_classes = Classes {
            n: c.corner.rep.len(),
            moves: p2,
            class_move: corner_class_move,
            stab: |class: usize| c.corner.stab[class],
        };
        let ud_classes = Classes {
            n: ud_red.rep.len(),
            moves: p2,
            class_move: ud_class_move,
            stab: |class: usize| ud_red.stab[class],
        };
        let twist_flip_space = twist_classes.with(
            N_FLIP,
            |fl: usize, m: usize| c.flip_move[fl * N_MOVES + m] as usize,
            |fl: usize, s: usize| c.flip_conj[fl * 16 + s] as usize,
        );
        let slice_flip_space = flip_classes.with(N_SLICE, slice_inner, slice_conj);
        let slice_twist_space = twist_classes.with(N_SLICE, slice_inner, slice_conj);
        let corner_edge_comb_space = corner_classes.with(70, edge_comb_inner, edge_comb_conj_inner);
        let ud_corner_comb_space = ud_classes.with(70, corner_comb_inner, corner_comb_conj_inner);
        let corner_slice_space = corner_classes.with(24, slice_perm_inner, slice_perm_conj_inner);
        let ud_slice_space = ud_classes.with(24, slice_perm_inner, slice_perm_conj_inner);
        let (twist_flip, slice_flip, twist_slice, phase2) = match set {
            // Phase 1's (twist class, flip) and (flip class, slice), then
            // the (twist class, slice flips) and the paired phase-2 tables
            // in place of the other five: each from the store, or built
            // and kept there.
            CompactSet::Medium(mut source) => {
                let (store, report) = (source.store, &mut *source.report);
                let [twist_flip_key, slice_flip_key] = phase1_projection_ids();
                let twist_flip = kept_bytes(store, &twist_flip_key, &twist_flip_space, report);
                let slice_flip = kept_bytes(store, &slice_flip_key, &slice_flip_space, report);
                let slice_flips = SliceFlips::load(twist_classes, &mut source);
                let StoreSource { store, report } = source;
                let [corner_key, ud_key] = paired_table_ids();
                let corner_slice_edges = stored_sym_nibbles(
                    store,
                    &corner_key,
                    &corner_classes.with(
                        PAIRED_INNER,
                        pair(slice_perm_inner, edge_comb_inner),
                        pair(slice_perm_conj_inner, edge_comb_conj_inner),
                    ),
                    report,
                );
                let ud_slice_corners = stored_sym_nibbles(
                    store,
                    &ud_key,
                    &ud_classes.with(
                        PAIRED_INNER,
                        pair(slice_perm_inner, corner_comb_inner),
                        pair(slice_perm_conj_inner, corner_comb_conj_inner),
                    ),
                    report,
                );
                (
                    twist_flip,
                    slice_flip,
                    TwistSlice::SliceFlips(slice_flips),
                    Phase2Tables::Paired(Paired {
                        corner_slice_edges,
                        ud_slice_corners,
                    }),
                )
            }
            set => {
                let mut tables: [Vec<u8>; 7] = Default::default();
                let [slice_twist, slice_flip, twist_flip, ud_slice, ud_corner_comb, corner_edge_comb, corner_slice] =
                    &mut tables;
                if let CompactSet::Kept(source) = set {
                    // Each from the store, or built (on every core) and
                    // kept there. They take a few hundredths of a second
                    // to build, so only what went wrong is told.
                    let (store, report) = (source.store, source.report);
                    let mut quiet = |e: StoreEvent| {
                        if matches!(
                            e,
                            StoreEvent::Rejected { .. } | StoreEvent::SaveFailed { .. }
                        ) {
                            report(e)
                        }
                    };
                    let [k_twist_flip, k_slice_flip] = phase1_projection_ids();
                    let [k_slice_twist, k_corner_edge, k_ud_corner, k_corner_slice, k_ud_slice] =
                        compact_table_ids();
                    *twist_flip = kept_bytes(store, &k_twist_flip, &twist_flip_space, &mut quiet);
                    *slice_flip = kept_bytes(store, &k_slice_flip, &slice_flip_space, &mut quiet);
                    *slice_twist =
                        kept_bytes(store, &k_slice_twist, &slice_twist_space, &mut quiet);
                    *corner_edge_comb =
                        kept_bytes(store, &k_corner_edge, &corner_edge_comb_space, &mut quiet);
                    *ud_corner_comb =
                        kept_bytes(store, &k_ud_corner, &ud_corner_comb_space, &mut quiet);
                    *corner_slice =
                        kept_bytes(store, &k_corner_slice, &corner_slice_space, &mut quiet);
                    *ud_slice = kept_bytes(store, &k_ud_slice, &ud_slice_space, &mut quiet);
                } else {
                    // All seven side by side, 4 bits an entry as they are
                    // built.
                    rayon::scope(|scope| {
                        scope.spawn(|_| *twist_flip = build_sym_nibbles(&twist_flip_space));
                        scope.spawn(|_| *slice_twist = build_sym_nibbles(&slice_twist_space));
                        scope.spawn(|_| *slice_flip = build_sym_nibbles(&slice_flip_space));
                        scope.spawn(|_| {
                            *corner_edge_comb = build_sym_nibbles(&corner_edge_comb_space)
                        });
                        scope.spawn(|_| *ud_corner_comb = build_sym_nibbles(&ud_corner_comb_space));
                        scope.spawn(|_| *corner_slice = build_sym_nibbles(&corner_slice_space));
                        scope.spawn(|_| *ud_slice = build_sym_nibbles(&ud_slice_space));
                    });
                }
                let [slice_twist, slice_flip, twist_flip, ud_slice, ud_corner_comb, corner_edge_comb, corner_slice] =
                    tables;
                (
                    twist_flip,
                    slice_flip,
                    TwistSlice::Slice(Nibbles(slice_twist)),
                    Phase2Tables::Projections(Projections {
                        ud_slice: Nibbles(ud_slice),
                        ud_corner_comb: Nibbles(ud_corner_comb),
                        corner_edge_comb: Nibbles(corner_edge_comb),
                        corner_slice: Nibbles(corner_slice),
                    }),
                )
            }
        };
        let corner_class_comb = c
            .corner
            .rep
            .iter()
            .map(|&r| corner_comb[r as usize])
            .collect();
        let ud_class_comb = ud_red.rep.iter().map(|&r| edge_comb[r as usize]).collect();
        let phase1 = Phase1Compact {
            sym_move: std::array::from_fn(|e| sy.conj_move[E8[e]]),
            slice_conj: (0..N_SLICE * 8)
                .map(|i| c.slice_conj[i / 8 * 16 + E8[i % 8]])
                .collect(),
            flip_raw: (0..flip8.rep.len() * 8)
                .map(|i| c.flip_conj[flip8.rep[i / 8] as usize * 16 + E8[i % 8]])
                .collect(),
            twist: twist8,
            flip: flip8,
            twist_move: twist8_move,
            flip_move: flip8_move,
            twist_slice,
            slice_flip: Nibbles(slice_flip),
            twist_flip: Nibbles(twist_flip),
        };
        CompactPrune {
            phase1,
            phase2,
            corner_comb,
            edge_comb,
            ud_class: ud_red.packed.clone(),
            corner_comb_conj,
            edge_comb_conj,
            slice_perm_conj,
            quarter_move: Symmetries::get().conj_move[QUARTER_ABOUT_UD],
            corner_class_move: class_moves(&c.corner, &c.corners_move),
            ud_class_move: class_moves(&ud_red, &c.ud_edges_move),
            corner_class_inv: class_inverses(&c.corner, coord::set_corners, coord::corners),
            ud_class_inv: class_inverses(&ud_red, coord::set_ud_edges, coord::ud_edges),
            corner_class_comb,
            ud_class_comb,
            move_conj: std::array::from_fn(|s| {
                std::array::from_fn(|i| {
                    let m = sy.conj_move[s][p2[i] as usize];
                    p2.iter().position(|&x| x == m).unwrap_or(0) as u8
                })
            }),
            sym_mult: std::array::from_fn(|a| {
                std::array::from_fn(|b| {
                    let x = sy.cubes[a].multiply(&sy.cubes[b]);
                    (0..16).find(|&t| sy.cubes[t] == x).unwrap_or(0) as u8
                })
            }),
            sym_inv: std::array::from_fn(|a| sy.inv[a]),
            slice_move2: {
                let t = ten_wide(&c.slice_sorted_move, 24);
                std::array::from_fn(|i| t[i] as u8)
            },
            slice_perm_inv: {
                let inv = inverse(24, coord::set_slice_sorted, coord::slice_sorted);
                std::array::from_fn(|x| inv[x] as u8)
            },
        }
    }
}
