//! Kociemba's two-phase solver.
//!
//! Phase 1 brings the cube into `G1 = <U, D, R2, L2, F2, B2>` by IDA* on
//! (twist, flip, UD-slice) with an exact, symmetry-reduced distance table;
//! phase 2 solves within G1 by IDA* on (corner permutation, UD-edge
//! permutation, slice permutation). Every phase-1 solution of each length
//! is tried, so the total shrinks as phase 1 grows, until a solution of at
//! most the target length is found.
//!
//! As in min2phase, six searches run interleaved, phase-1 length by
//! phase-1 length: the cube seen from each of the three axes (conjugated
//! by the 120° rotation about URF-DBL), and the same for its inverse. A
//! cube that is easy from one of them is solved fast.
//!
//! The solver does no I/O; tables come from [`TwoPhaseTables::load`] (the
//! exact, symmetry-reduced phase-1 table and a large phase-2 table, 126 MB
//! through the store) or [`TwoPhaseTables::compact`] (min2phase's
//! projections, reduced by symmetry: 1.3 MB with their move tables, 4 bits
//! an entry, built in memory in 0.2 s; the maximum of four lower bounds in
//! phase 1 and of four in phase 2, and of four more for the inverse cube).

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::coord::{self, N_CORNERS, N_FLIP, N_SLICE, N_TWIST, N_UD_EDGES};
use crate::cubie::CubieCube;
use crate::moves::{FaceTurn, MoveSeq, N_MOVES};
use crate::prune::{build_sym_nibbles, phase1_table, phase2_table, NibbleTable, SymSpace};
use crate::symmetry::Symmetries;
use crate::tables::CoordTables;
use twistor_core::store::{StoreEvent, TableStore};

/// Longest phase-1 and phase-2 sequences a search can hold.
const MAX_LEN: usize = 32;

/// The tables of the two-phase solver: the coordinate tables (computed at
/// start-up in a tenth of a second) and pruning tables of one of two
/// kinds. [`TwoPhaseTables::load`] gives the exact, symmetry-reduced ones
/// (126 MB, built once in about 9 s and kept in the store; the fastest per
/// solve); [`TwoPhaseTables::compact`] gives min2phase's projections (1.3 MB
/// of lower bounds, built in memory in 0.2 s on two cores).
pub struct TwoPhaseTables {
    pub(crate) coord: &'static CoordTables,
    prune: Prune,
}

enum Prune {
    Full {
        phase1: NibbleTable,
        phase2: NibbleTable,
    },
    Compact(Box<CompactPrune>),
}

/// Lower bounds from projections: phase 1 by (twist class, UD slice),
/// (flip class, UD slice) and (twist class, flip), the last for the cube
/// turned a quarter about UD too ([`Phase1Compact`]); phase 2 by (corners, slice
/// permutation) (the coordinate tables' own), (UD edges, slice
/// permutation), (UD edges, corner combination) and (corners, edge
/// combination). Each table's only 0 is the goal, so a bound of 0 is
/// exact there as with the full tables.
struct CompactPrune {
    /// Phase 1's tables.
    phase1: Phase1Compact,
    /// (UD-edge class under the 16 symmetries, slice permutation turned
    /// with it): 2768 × 24 entries, where the raw pairs took 968 K.
    ud_slice: Nibbles,
    /// (UD-edge class, which 4 of the 8 corner slots hold U corners,
    /// turned likewise): 2768 × 70.
    ud_corner_comb: Nibbles,
    /// The corner combination (0..70) of each corner permutation.
    corner_comb: Vec<u8>,
    /// (corner class, which 4 of the 8 U/D edge slots hold U edges): 2768
    /// × 70.
    corner_edge_comb: Nibbles,
    /// The edge combination (0..70) of each UD-edge permutation.
    edge_comb: Vec<u8>,
    /// Each UD-edge permutation's class and the symmetry to it, `class <<
    /// 4 | sym` (the corners' are the coordinate tables' own).
    ud_class: Vec<u32>,
    /// The combinations and slice permutation conjugated by each of the
    /// 16 symmetries: `[x * 16 + s]`.
    corner_comb_conj: Vec<u8>,
    edge_comb_conj: Vec<u8>,
    slice_perm_conj: Vec<u8>,
    /// The inverse of each corner permutation, UD-edge permutation and
    /// slice permutation: a phase-2 cube and its inverse are as far from
    /// solved, so the bounds of the inverse prune too (min2phase's).
    /// Each move turned a quarter about UD (`S · m · S⁻¹`).
    quarter_move: [u8; N_MOVES],
    /// (corner class, slice permutation turned with it): 2768 × 24, in
    /// place of the coordinate tables' raw 968 KB (corners, slice
    /// permutation) distances, which do not stay in cache beside the rest.
    corner_slice: Nibbles,
    /// Phase 2 carries the corners and the UD edges as (class, symmetry)
    /// (`class << 4 | sym`, the symmetry taking the cube's coordinate to
    /// its class's representative), so that its move tables are a class's
    /// rather than a permutation's: 2768 × 10 entries where the raw ones
    /// are 40320 × 18, and phase 2's tables together stay in cache.
    /// `corner_class_move[k * 10 + i]`: the class and symmetry of the
    /// representative of corner class `k` after phase-2 move `i`.
    corner_class_move: Vec<u32>,
    ud_class_move: Vec<u32>,
    /// Each class's inverse: the class and symmetry of the inverse of its
    /// representative.
    corner_class_inv: Vec<u32>,
    ud_class_inv: Vec<u32>,
    /// The combination of each class's representative.
    corner_class_comb: Vec<u8>,
    ud_class_comb: Vec<u8>,
    /// `move_conj[s][i]`: phase-2 move `i` conjugated by symmetry `s`, as
    /// an index of `PHASE2_MOVES`.
    move_conj: [[u8; 10]; 16],
    /// `sym_mult[a][b]`: the symmetry `S_a · S_b`; `sym_inv[a]`: `S_a⁻¹`.
    sym_mult: [[u8; 16]; 16],
    sym_inv: [u8; 16],
    /// The slice permutation after each phase-2 move, ten moves wide.
    slice_move2: [u8; 24 * 10],
    slice_perm_inv: [u8; 24],
}

/// Distances at 4 bits an entry (a distance above 15 is kept as 15, still
/// a lower bound): half the bytes, so that phase 1's three tables fit the
/// processor's second-level cache together, where most of the search's
/// time went in waiting for table reads.
struct Nibbles(Vec<u8>);

impl Nibbles {
    #[inline(always)]
    fn get(&self, i: usize) -> u8 {
        (self.0[i >> 1] >> ((i & 1) * 4)) & 15
    }

    fn bytes(&self) -> usize {
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
const E8: [usize; 8] = [0, 1, 4, 5, 8, 9, 12, 13];

/// A coordinate reduced by the symmetries of [`E8`]: value `x` is
/// `S_e · rep · S_e` for its class's representative `rep`, kept as
/// `class << 3 | e`.
struct E8Reduction {
    /// `class << 3 | e` of each raw value.
    packed: Vec<u16>,
    /// Each class's representative.
    rep: Vec<u16>,
    /// The symmetries (as bits of their index among the 48) that fix each
    /// representative.
    stab: Vec<u16>,
}

impl E8Reduction {
    /// Reduces `n` values given `conj(x, s) = S_s · x · S_s⁻¹`.
    fn build(n: usize, conj: impl Fn(usize, usize) -> usize) -> E8Reduction {
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
    fn class_moves(&self, raw_move: &[u16]) -> Vec<u16> {
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
fn e8_class_move(table: &[u16]) -> impl Fn(usize, usize) -> (usize, usize) + Sync + Copy + '_ {
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
struct Phase1Compact {
    twist: E8Reduction,
    flip: E8Reduction,
    /// `twist_move[class * 18 + m]`: the representative after move `m`,
    /// as `class << 3 | e` (and `flip_move` likewise).
    twist_move: Vec<u16>,
    flip_move: Vec<u16>,
    /// `sym_move[e][m]`: move `m` conjugated by `S_e`.
    sym_move: [[u8; N_MOVES]; 8],
    /// `slice_conj[slice * 8 + e]`: the slice conjugated by `S_e`.
    slice_conj: Vec<u16>,
    /// `flip_raw[class * 8 + e]`: the flip `S_e · rep · S_e`.
    flip_raw: Vec<u16>,
    slice_twist: Nibbles,
    slice_flip: Nibbles,
    twist_flip: Nibbles,
}

/// The (twist class, slice) and (flip class, slice) tables' index of a
/// twist or flip (`class << 3 | e`) and a slice: the slice turned by the
/// symmetry that takes the coordinate to its class's representative.
#[inline(always)]
fn slice_index(slice_conj: &[u16], x: usize, slice: usize) -> usize {
    (x >> 3) * N_SLICE + slice_conj[slice * 8 + (x & 7)] as usize
}

/// The (twist class, flip) table's index: the cube turned by the twist's
/// symmetry, which turns the flip by the two symmetries' product.
#[inline(always)]
fn twist_flip_index(flip_raw: &[u16], twist: usize, flip: usize) -> usize {
    (twist >> 3) * N_FLIP + flip_raw[(flip >> 3) * 8 + ((twist ^ flip) & 7)] as usize
}

impl Phase1Compact {
    /// The (twist class, slice), (flip class, slice) and (twist class,
    /// flip) tables' indices of raw coordinates.
    fn indices(&self, twist: usize, flip: usize, slice: usize) -> [usize; 3] {
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
struct Phase1View<'a> {
    twist_move: &'a [u16],
    flip_move: &'a [u16],
    sym_move: &'a [[u8; N_MOVES]; 8],
    slice_move: &'a [u16],
    slice_conj: &'a [u16],
    flip_raw: &'a [u16],
    slice_twist: &'a [u8],
    slice_flip: &'a [u8],
    twist_flip: &'a [u8],
    quarter_move: &'a [u8; N_MOVES],
}

/// Where a compact phase-2 search stands: the corners and UD edges as
/// `class << 4 | symmetry`, and the slice permutation.
type Phase2At = (u32, u32, usize);

/// Where a compact phase-1 search stands: twist and flip as `class << 3 |
/// e` ([`E8Reduction`]), the slice, and the twist and flip of the cube
/// turned a quarter about UD, likewise.
#[derive(Clone, Copy)]
struct Phase1At {
    twist: usize,
    flip: usize,
    slice: usize,
    quarter: (usize, usize),
}

/// Entry `i` of a table of nibbles.
#[inline(always)]
fn nibble(t: &[u8], i: usize) -> u8 {
    (t[i >> 1] >> ((i & 1) * 4)) & 15
}

impl Phase1View<'_> {
    /// A twist or flip (`class << 3 | e`) after move `m`: the class's
    /// representative moved by `m` turned by `S_e`, then turned back.
    #[inline(always)]
    fn step(&self, table: &[u16], x: usize, m: usize) -> usize {
        let e = x & 7;
        table[(x >> 3) * N_MOVES + self.sym_move[e][m] as usize] as usize ^ e
    }

    /// The largest of the (twist class, slice), (flip class, slice) and
    /// (twist class, flip) bounds. All three are read, without a branch
    /// between them: which one prunes is as good as random, and a
    /// mispredicted early exit costs more than the third read (as
    /// min2phase does).
    #[inline(always)]
    fn bound3(&self, twist: usize, flip: usize, slice: usize) -> u8 {
        let a = nibble(self.slice_twist, slice_index(self.slice_conj, twist, slice));
        let b = nibble(self.slice_flip, slice_index(self.slice_conj, flip, slice));
        a.max(b).max(self.twist_flip(twist, flip))
    }

    /// The (twist class, flip) bound.
    #[inline(always)]
    fn twist_flip(&self, twist: usize, flip: usize) -> u8 {
        nibble(
            self.twist_flip,
            twist_flip_index(self.flip_raw, twist, flip),
        )
    }
}

/// The phase-2 moves' columns of the first `n` rows of an 18-wide move
/// table.
fn ten_wide(table: &[u16], n: usize) -> Vec<u16> {
    (0..n * 10)
        .map(|i| table[i / 10 * N_MOVES + crate::tables::PHASE2_MOVES[i % 10] as usize])
        .collect()
}

/// For each class of a reduction and each phase-2 move: the class and
/// symmetry (`class << 4 | sym`) of its representative after the move.
fn class_moves(red: &crate::tables::SymReduction, perm_move: &[u16]) -> Vec<u32> {
    (0..red.rep.len() * 10)
        .map(|i| {
            let m = crate::tables::PHASE2_MOVES[i % 10] as usize;
            red.packed[perm_move[red.rep[i / 10] as usize * N_MOVES + m] as usize]
        })
        .collect()
}

/// For each class of a reduction of a permutation coordinate: the class
/// and symmetry of its representative's inverse, through cubies.
fn class_inverses(
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
struct ProjectionSpace<'a, C, I, J, S> {
    classes: usize,
    inner: usize,
    moves: &'a [u8],
    class_move: C,
    inner_move: I,
    inner_conj: J,
    stab: S,
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

/// The symmetry that turns the cube a quarter about UD.
const QUARTER_ABOUT_UD: usize = 2;

/// Which four of the eight slots hold pieces 0..4, as a rank in 0..70.
fn comb_rank(perm: &[u8]) -> u8 {
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

pub(crate) fn binomial(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |r, i| r * (n - i) / (i + 1))
}

/// Solves expected before the full tables pay for building them (9 s
/// against about 0.3 ms a solve saved; see `twistor 333 bench`).
pub const FULL_TABLES_PAY_AFTER: usize = 20_000;

/// Breadth-first distances over `n` states from state 0.
pub(crate) fn bfs(n: usize, moves: &[u8], next: impl Fn(usize, usize) -> usize) -> Vec<u8> {
    let mut d = vec![u8::MAX; n];
    d[0] = 0;
    let mut frontier = vec![0u32];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        let mut nextf = Vec::with_capacity(frontier.len() * 4);
        for &x in &frontier {
            for &m in moves {
                let y = next(x as usize, m as usize);
                if d[y] == u8::MAX {
                    d[y] = depth + 1;
                    nextf.push(y as u32);
                }
            }
        }
        frontier = nextf;
        depth += 1;
    }
    d
}

impl CompactPrune {
    /// The phase-1 bound of raw coordinates if it is below `limit`, else
    /// some bound of at least `limit` (the tables are read cheapest first,
    /// and the reading stops at the first that reaches the limit).
    fn phase1_bound_below(
        &self,
        coord: &CoordTables,
        twist: usize,
        flip: usize,
        slice: usize,
        limit: usize,
    ) -> u8 {
        let p = &self.phase1;
        let [a, b, c] = p.indices(twist, flip, slice);
        let a = p.slice_twist.get(a);
        if a as usize >= limit {
            return a;
        }
        let b = p.slice_flip.get(b).max(a);
        if b as usize >= limit {
            return b;
        }
        let c = p.twist_flip.get(c).max(b);
        if c as usize >= limit {
            return c;
        }
        let (tq, fq) = self.quarter_turned(coord, twist, flip, slice);
        self.phase1_view(coord).twist_flip(tq, fq).max(c)
    }

    /// Phase 1's tables as its search reads them.
    fn phase1_view<'a>(&'a self, coord: &'a CoordTables) -> Phase1View<'a> {
        let p = &self.phase1;
        Phase1View {
            twist_move: &p.twist_move,
            flip_move: &p.flip_move,
            sym_move: &p.sym_move,
            slice_move: &coord.slice_move,
            slice_conj: &p.slice_conj,
            flip_raw: &p.flip_raw,
            slice_twist: &p.slice_twist.0,
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
    fn quarter_turned(
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

    /// The phase-2 tables' indices of (corners, UD edges, slice
    /// permutation), the corners and UD edges as (class, symmetry): each
    /// pair turned by the symmetry that takes its first coordinate to its
    /// class's representative. A coordinate `x` of class `k` and symmetry
    /// `s` is `S_s⁻¹ · rep_k · S_s`, so the other's combination, turned by
    /// `S_a`, is the representative's turned by `S_a · S_s⁻¹`.
    #[inline(always)]
    fn phase2_indices(&self, (corner, ud, sp): Phase2At) -> [usize; 4] {
        let (cc, cs) = ((corner >> 4) as usize, (corner & 15) as usize);
        let (uc, us) = ((ud >> 4) as usize, (ud & 15) as usize);
        let to_corner = self.sym_mult[cs][self.sym_inv[us] as usize] as usize;
        let to_ud = self.sym_mult[us][self.sym_inv[cs] as usize] as usize;
        [
            uc * 24 + self.slice_perm_conj[sp * 16 + us] as usize,
            uc * 70
                + self.corner_comb_conj[self.corner_class_comb[cc] as usize * 16 + to_ud] as usize,
            cc * 70
                + self.edge_comb_conj[self.ud_class_comb[uc] as usize * 16 + to_corner] as usize,
            cc * 24 + self.slice_perm_conj[sp * 16 + cs] as usize,
        ]
    }

    /// Phase 2's coordinates of raw corners, UD edges and slice
    /// permutation.
    #[inline]
    fn phase2_at(&self, coord: &CoordTables, corners: usize, ud: usize, sp: usize) -> Phase2At {
        (coord.corner.packed[corners], self.ud_class[ud], sp)
    }

    /// The inverse cube's phase-2 coordinates: `x⁻¹ = S_s⁻¹ · rep⁻¹ · S_s`
    /// and `rep⁻¹ = S_t⁻¹ · rep_j · S_t`, so class `j`, symmetry `S_t · S_s`.
    #[inline(always)]
    fn phase2_inverse(&self, (corner, ud, sp): Phase2At) -> Phase2At {
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
    fn phase2_move(&self, (corner, ud, sp): Phase2At, i: usize) -> Phase2At {
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

    /// The compact tables' phase-2 bound.
    #[inline]
    fn phase2_bound(&self, at: Phase2At) -> u8 {
        let [a, b, c, d] = self.phase2_indices(at);
        self.ud_slice
            .get(a)
            .max(self.ud_corner_comb.get(b))
            .max(self.corner_edge_comb.get(c))
            .max(self.corner_slice.get(d))
    }

    /// Whether every phase-2 bound is below `limit`.
    #[inline]
    fn phase2_within(&self, at: Phase2At, limit: usize) -> bool {
        let [a, b, c, d] = self.phase2_indices(at);
        (self.corner_slice.get(d) as usize) < limit
            && (self.ud_slice.get(a) as usize) < limit
            && (self.ud_corner_comb.get(b) as usize) < limit
            && (self.corner_edge_comb.get(c) as usize) < limit
    }

    fn build(c: &CoordTables) -> CompactPrune {
        // The combinations and flip classes first (quick), then the six
        // breadth-first searches at once.
        let corner_comb: Vec<u8> = (0..N_CORNERS)
            .map(|x| {
                let mut cube = CubieCube::SOLVED;
                coord::set_corners(&mut cube, x as u16);
                comb_rank(&cube.cp)
            })
            .collect();
        let edge_comb: Vec<u8> = (0..N_UD_EDGES)
            .map(|x| {
                let mut cube = CubieCube::SOLVED;
                coord::set_ud_edges(&mut cube, x as u16);
                comb_rank(&cube.ep[..8])
            })
            .collect();
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
        // Phase 2's tables are reduced by the corners' or the UD edges'
        // classes, the other coordinate turned with them.
        let ud_red = crate::tables::SymReduction::build(N_UD_EDGES, |x, s| {
            c.ud_edges_conj[x * 16 + s] as usize
        });
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
        let mut corner_slice = Vec::new();
        let mut tables: [Vec<u8>; 6] = Default::default();
        let [slice_twist, slice_flip, twist_flip, ud_slice, ud_corner_comb, corner_edge_comb] =
            &mut tables;
        rayon::scope(|scope| {
            scope.spawn(|_| {
                *corner_edge_comb = build_sym_nibbles(&ProjectionSpace {
                    classes: c.corner.rep.len(),
                    inner: 70,
                    moves: p2,
                    class_move: |class: usize, m: usize| c.corner_class_move(class, m),
                    inner_move: |k: usize, m: usize| edge_comb_move[k * N_MOVES + m] as usize,
                    inner_conj: |k: usize, s: usize| edge_comb_conj[k * 16 + s] as usize,
                    stab: |class: usize| c.corner.stab[class],
                })
            });
            scope.spawn(|_| {
                *ud_corner_comb = build_sym_nibbles(&ProjectionSpace {
                    classes: ud_red.rep.len(),
                    inner: 70,
                    moves: p2,
                    class_move: ud_class_move,
                    inner_move: |k: usize, m: usize| corner_comb_move[k * N_MOVES + m] as usize,
                    inner_conj: |k: usize, s: usize| corner_comb_conj[k * 16 + s] as usize,
                    stab: |class: usize| ud_red.stab[class],
                })
            });
            // Phase 1's three tables, 4 bits an entry as they are built.
            scope.spawn(|_| {
                *twist_flip = build_sym_nibbles(&ProjectionSpace {
                    classes: twist8.rep.len(),
                    inner: N_FLIP,
                    moves: &all,
                    class_move: twist_class_move,
                    inner_move: |fl: usize, m: usize| c.flip_move[fl * N_MOVES + m] as usize,
                    inner_conj: |fl: usize, s: usize| c.flip_conj[fl * 16 + s] as usize,
                    stab: |class: usize| twist8.stab[class],
                })
            });
            scope.spawn(|_| {
                *slice_twist = build_sym_nibbles(&ProjectionSpace {
                    classes: twist8.rep.len(),
                    inner: N_SLICE,
                    moves: &all,
                    class_move: twist_class_move,
                    inner_move: slice_inner,
                    inner_conj: slice_conj,
                    stab: |class: usize| twist8.stab[class],
                })
            });
            scope.spawn(|_| {
                *slice_flip = build_sym_nibbles(&ProjectionSpace {
                    classes: flip8.rep.len(),
                    inner: N_SLICE,
                    moves: &all,
                    class_move: flip_class_move,
                    inner_move: slice_inner,
                    inner_conj: slice_conj,
                    stab: |class: usize| flip8.stab[class],
                })
            });
            scope.spawn(|_| {
                corner_slice = build_sym_nibbles(&ProjectionSpace {
                    classes: c.corner.rep.len(),
                    inner: 24,
                    moves: p2,
                    class_move: |class: usize, m: usize| c.corner_class_move(class, m),
                    inner_move: |sp: usize, m: usize| {
                        c.slice_sorted_move[sp * N_MOVES + m] as usize
                    },
                    inner_conj: |sp: usize, s: usize| slice_perm_conj[sp * 16 + s] as usize,
                    stab: |class: usize| c.corner.stab[class],
                })
            });
            scope.spawn(|_| {
                *ud_slice = build_sym_nibbles(&ProjectionSpace {
                    classes: ud_red.rep.len(),
                    inner: 24,
                    moves: p2,
                    class_move: ud_class_move,
                    inner_move: |sp: usize, m: usize| {
                        c.slice_sorted_move[sp * N_MOVES + m] as usize
                    },
                    inner_conj: |sp: usize, s: usize| slice_perm_conj[sp * 16 + s] as usize,
                    stab: |class: usize| ud_red.stab[class],
                })
            });
        });
        let [slice_twist, slice_flip, twist_flip, ud_slice, ud_corner_comb, corner_edge_comb] =
            tables;
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
            slice_twist: Nibbles(slice_twist),
            slice_flip: Nibbles(slice_flip),
            twist_flip: Nibbles(twist_flip),
        };
        CompactPrune {
            phase1,
            ud_slice: Nibbles(ud_slice),
            ud_corner_comb: Nibbles(ud_corner_comb),
            corner_comb,
            corner_edge_comb: Nibbles(corner_edge_comb),
            edge_comb,
            ud_class: ud_red.packed.clone(),
            corner_comb_conj,
            edge_comb_conj,
            slice_perm_conj,
            quarter_move: Symmetries::get().conj_move[QUARTER_ABOUT_UD],
            corner_slice: Nibbles(corner_slice),
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

impl TwoPhaseTables {
    /// Loads the pruning tables from the cache, or builds (and caches) them.
    pub fn load(store: &dyn TableStore, report: &mut dyn FnMut(StoreEvent)) -> TwoPhaseTables {
        let coord = CoordTables::get();
        let phase1 = phase1_table(store, report);
        let phase2 = phase2_table(store, report);
        TwoPhaseTables {
            coord,
            prune: Prune::Full { phase1, phase2 },
        }
    }

    /// The compact tables, built in memory (1.3 MB of pruning tables
    /// in 0.2 s on two cores): for a few solves on a machine without the
    /// full tables, as min2phase starts.
    pub fn compact() -> TwoPhaseTables {
        let coord = CoordTables::get();
        TwoPhaseTables {
            coord,
            prune: Prune::Compact(Box::new(CompactPrune::build(coord))),
        }
    }

    /// The tables for about `solves` solves: the full ones when the store
    /// already has them (loading is quick) or when that many solves pay for
    /// building them ([`FULL_TABLES_PAY_AFTER`]), else the compact ones.
    pub fn for_solves(
        store: &dyn TableStore,
        solves: usize,
        report: &mut dyn FnMut(StoreEvent),
    ) -> TwoPhaseTables {
        if solves >= FULL_TABLES_PAY_AFTER || crate::prune::full_tables_stored(store) {
            TwoPhaseTables::load(store, report)
        } else {
            TwoPhaseTables::compact()
        }
    }

    /// Whether these are the compact tables.
    pub fn is_compact(&self) -> bool {
        matches!(self.prune, Prune::Compact(_))
    }

    /// Size of the pruning tables in bytes.
    pub fn size_bytes(&self) -> usize {
        match &self.prune {
            Prune::Full { phase1, phase2 } => phase1.size_bytes() + phase2.size_bytes(),
            Prune::Compact(c) => {
                let p = &c.phase1;
                p.slice_twist.bytes()
                    + p.slice_flip.bytes()
                    + p.twist_flip.bytes()
                    + 2 * (p.twist.packed.len() + p.flip.packed.len())
                    + 2 * (p.twist_move.len() + p.flip_move.len())
                    + 2 * (p.slice_conj.len() + p.flip_raw.len())
                    + c.ud_slice.bytes()
                    + c.ud_corner_comb.bytes()
                    + c.corner_comb.len()
                    + c.corner_edge_comb.bytes()
                    + c.edge_comb.len()
                    + std::mem::size_of::<u32>() * c.ud_class.len()
                    + c.corner_comb_conj.len()
                    + c.edge_comb_conj.len()
                    + c.slice_perm_conj.len()
                    + c.corner_slice.bytes()
                    + 4 * (c.corner_class_move.len() + c.ud_class_move.len())
                    + 4 * (c.corner_class_inv.len() + c.ud_class_inv.len())
            }
        }
    }

    /// The quarter-turned twist and flip phase 1 carries with the compact
    /// tables ((0, 0) with the full ones, which do not read them).
    fn quarter_of(&self, twist: usize, flip: usize, slice: usize) -> (usize, usize) {
        match &self.prune {
            Prune::Compact(cp) => cp.quarter_turned(self.coord, twist, flip, slice),
            Prune::Full { .. } => (0, 0),
        }
    }

    /// Index in the phase-1 table of (twist, flip, slice).
    #[inline(always)]
    fn phase1_index(&self, twist: usize, flip: usize, slice: usize) -> usize {
        let t = self.coord;
        let p = t.flipslice.packed[slice * N_FLIP + flip] as usize;
        (p >> 4) * N_TWIST + t.twist_conj[twist * 16 + (p & 15)] as usize
    }

    /// Phase-1 distance of (twist, flip, slice): exact with the full
    /// tables, a lower bound with the compact ones.
    #[inline]
    fn phase1_depth(&self, twist: usize, flip: usize, slice: usize) -> u8 {
        match &self.prune {
            Prune::Full { phase1, .. } => phase1.get(self.phase1_index(twist, flip, slice)),
            Prune::Compact(c) => c.phase1_bound_below(self.coord, twist, flip, slice, usize::MAX),
        }
    }

    /// Lower bound on the phase-2 distance.
    #[inline]
    fn phase2_bound(&self, corners: usize, ud_edges: usize, slice_perm: usize) -> u8 {
        let t = self.coord;
        match &self.prune {
            Prune::Full { phase2, .. } => {
                let p = t.corner.packed[corners] as usize;
                phase2
                    .get((p >> 4) * N_UD_EDGES + t.ud_edges_conj[ud_edges * 16 + (p & 15)] as usize)
                    .max(t.corner_slice_depth[corners * 24 + slice_perm])
            }
            Prune::Compact(c) => c.phase2_bound(c.phase2_at(t, corners, ud_edges, slice_perm)),
        }
    }
}

/// When to stop searching.
#[derive(Clone, Debug)]
pub struct TwoPhaseOptions {
    /// Return the first solution of at most this many moves.
    pub max_length: usize,
    /// Give up after this many phase-2 searches.
    pub probe_limit: Option<u64>,
    /// Give up after this long.
    pub time_limit: Option<Duration>,
    /// Search from the three axes and on the inverse (six searches); when
    /// false, only the cube as given from the UD axis.
    pub all_directions: bool,
    /// After a solution is found, look on for shorter ones for this many
    /// more phase-2 probes (min2phase's "probeMin"): an easy cube then gets
    /// a short answer, not the first one of at most `max_length` moves.
    /// 0 returns the first solution.
    pub improve_probes: u64,
}

impl Default for TwoPhaseOptions {
    fn default() -> Self {
        TwoPhaseOptions {
            max_length: 21,
            probe_limit: None,
            time_limit: None,
            all_directions: true,
            improve_probes: 0,
        }
    }
}

/// Why no solution came back.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TwoPhaseError {
    /// The limits were reached first.
    #[error("no solution of at most {max_length} moves found within the probe or time limit")]
    LimitReached {
        /// The target length.
        max_length: usize,
    },
    /// No solution of at most this length exists in the two-phase search
    /// space (every 3x3x3 has one of 20 moves, but two-phase may need more).
    #[error("no two-phase solution of at most {max_length} moves exists")]
    TooShort {
        /// The target length.
        max_length: usize,
    },
}

/// A solution and what it cost.
#[derive(Clone, Debug)]
pub struct TwoPhaseSolution {
    /// The moves that solve the cube.
    pub moves: MoveSeq,
    /// Phase-2 searches started.
    pub probes: u64,
    /// Phase-1 nodes expanded.
    pub phase1_nodes: u64,
    /// Phase-2 nodes expanded.
    pub phase2_nodes: u64,
}

/// One of the six views of the cube.
#[derive(Clone, Copy)]
struct Direction {
    cube: CubieCube,
    /// Symmetry conjugated by (0, 16 or 32).
    sym: usize,
    inverse: bool,
}

struct Search<'a> {
    t: &'a TwoPhaseTables,
    dir: Direction,
    moves1: [u8; MAX_LEN],
    moves2: [u8; MAX_LEN],
    /// `cubes[i]` is the direction's cube after the first `i` phase-1 moves,
    /// valid for `i <= valid`.
    cubes: [CubieCube; MAX_LEN + 1],
    valid: usize,
    /// Phase 1's length, and the pre-moves' (see [`Search::with_pre_moves`]).
    len1: usize,
    pre: [u8; MAX_LEN],
    npre: usize,
    bound: usize,
    found: Option<usize>,
    probes: u64,
    nodes1: u64,
    nodes2: u64,
    probe_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// How far the last probe's phase-2 bound was past the moves phase 2
    /// had (0 when phase 2 was searched): see `phase1_compact`.
    excess: usize,
    /// The most moves phase 2 may take in this pass.
    phase2_cap: usize,
}

/// Phase 2's length in the first pass: longer ones are rarely needed and
/// cost the most (min2phase's `MAX_DEPTH2`); a second pass over the
/// phase-1 lengths it cut short keeps the search complete.
const PHASE2_CAP: usize = 12;

/// Phase 1's shortest length beside pre-moves (min2phase's).
const MIN_PHASE1_WITH_PRE_MOVES: usize = 7;

/// The previous face at length 0: none. Not 6, which `face_allowed`
/// would read as "after L" (D's face plus 3) and so forbid D first.
pub(crate) const NO_FACE: usize = 9;

#[inline]
pub(crate) const fn face_allowed(m: usize, last_face: usize) -> bool {
    let f = m / 3;
    // No face twice in a row; opposite faces only in URF-before-DLB order.
    !(f == last_face || f + 3 == last_face)
}

/// `FACES_AFTER[face]`: the faces (as bits) that may not turn right after
/// `face`, by [`face_allowed`], as phase 2's loop tests them.
const FACES_AFTER: [u8; 6] = {
    let mut t = [0u8; 6];
    let mut face = 0;
    while face < 6 {
        let mut f = 0;
        while f < 6 {
            if !face_allowed(f * 3, face) {
                t[face] |= 1 << f;
            }
            f += 1;
        }
        face += 1;
    }
    t
};

/// R, F, L or B turned clockwise.
#[inline]
fn is_clockwise_quarter_off_phase2(m: usize) -> bool {
    m % 3 == 0 && !is_phase2_move(m)
}

#[inline]
fn is_phase2_move(m: usize) -> bool {
    // U and D turns, and half turns of the others.
    let f = m / 3;
    f == 0 || f == 3 || m % 3 == 1
}

impl<'a> Search<'a> {
    /// A search of `dir` for answers within `bound` moves, phase 2 capped
    /// at `phase2_cap`, with no probe or time limit.
    fn new(t: &'a TwoPhaseTables, dir: Direction, bound: usize, phase2_cap: usize) -> Search<'a> {
        let mut cubes = [CubieCube::SOLVED; MAX_LEN + 1];
        cubes[0] = dir.cube;
        Search {
            t,
            dir,
            moves1: [0; MAX_LEN],
            moves2: [0; MAX_LEN],
            cubes,
            valid: 0,
            len1: 0,
            pre: [0; MAX_LEN],
            npre: 0,
            bound,
            found: None,
            probes: 0,
            nodes1: 0,
            nodes2: 0,
            probe_limit: u64::MAX,
            deadline: None,
            stopped: false,
            excess: 0,
            phase2_cap,
        }
    }

    /// `quarter`: the twist and flip of the cube turned a quarter about UD
    /// (the compact tables' fourth bound; unused with the full tables).
    fn phase1(
        &mut self,
        twist: usize,
        flip: usize,
        slice: usize,
        quarter: (usize, usize),
        depth: usize,
        last_face: usize,
    ) -> bool {
        let remaining = self.len1 - depth;
        if remaining == 0 {
            // Every table's only 0 is the goal, full or compact.
            debug_assert!(twist == 0 && flip == 0 && slice == 0);
            return self.start_phase2(last_face, self.max2());
        }
        if remaining < 5 && twist | flip | slice == 0 && self.probe_shorter(depth, last_face) {
            return true;
        }
        self.nodes1 += 1;
        let t = self.t;
        let phase1 = match &t.prune {
            Prune::Compact(cp) => {
                self.nodes1 -= 1;
                let view = cp.phase1_view(self.t.coord);
                let at = Phase1At {
                    twist: cp.phase1.twist.packed[twist] as usize,
                    flip: cp.phase1.flip.packed[flip] as usize,
                    slice,
                    quarter,
                };
                return self.phase1_compact(&view, at, depth, last_face);
            }
            Prune::Full { phase1, .. } => phase1,
        };
        let c = self.t.coord;
        // The full table is large: children first, table reads in a tight
        // loop of their own so the processor overlaps their cache misses,
        // then the recursion.
        let mut kids = [(0u8, 0u16, 0u16, 0u16); N_MOVES];
        let mut n = 0;
        for m in 0..N_MOVES {
            if !face_allowed(m, last_face) {
                continue;
            }
            // A phase-1 solution ending in a phase-2 move was already tried
            // one move shorter.
            if remaining == 1 && is_phase2_move(m) {
                continue;
            }
            let tw = c.twist_move[twist * N_MOVES + m];
            let fl = c.flip_move[flip * N_MOVES + m];
            let sl = c.slice_move[slice * N_MOVES + m];
            kids[n] = (m as u8, tw, fl, sl);
            n += 1;
        }
        let mut h = [0u8; N_MOVES];
        let mut idx = [0usize; N_MOVES];
        for i in 0..n {
            let (_, tw, fl, sl) = kids[i];
            idx[i] = self.t.phase1_index(tw as usize, fl as usize, sl as usize);
        }
        for i in 0..n {
            h[i] = phase1.get(idx[i]);
        }
        for i in 0..n {
            if h[i] as usize >= remaining {
                continue;
            }
            let (m, tw, fl, sl) = kids[i];
            self.moves1[depth] = m;
            if self.valid > depth {
                self.valid = depth;
            }
            if self.phase1(
                tw as usize,
                fl as usize,
                sl as usize,
                (0, 0),
                depth + 1,
                m as usize / 3,
            ) {
                return true;
            }
            if self.stopped {
                return true;
            }
        }
        false
    }

    /// Phase 1 with the compact tables, which stay in the processor's
    /// caches: each child is bounded and searched at once, cheapest bound
    /// first. The three turns of a face are each one move from the others,
    /// so a bound above `remaining` for one leaves the face's later turns
    /// at least `remaining`: pruned unread (min2phase's axis skip).
    fn phase1_compact(
        &mut self,
        v: &Phase1View,
        at: Phase1At,
        depth: usize,
        last_face: usize,
    ) -> bool {
        let Phase1At {
            twist,
            flip,
            slice,
            quarter: (twist_q, flip_q),
        } = at;
        let remaining = self.len1 - depth;
        if remaining == 0 {
            return self.start_phase2(last_face, self.max2());
        }
        // Classes 0 hold only the solved twist and flip.
        if remaining < 5
            && (twist >> 3) | (flip >> 3) | slice == 0
            && self.probe_shorter(depth, last_face)
        {
            return true;
        }
        self.nodes1 += 1;
        // This node's rows of the move tables: one bounds check each.
        let (te, fe) = (twist & 7, flip & 7);
        let twist_row = &v.twist_move[(twist >> 3) * N_MOVES..][..N_MOVES];
        let flip_row = &v.flip_move[(flip >> 3) * N_MOVES..][..N_MOVES];
        let (twist_sym, flip_sym) = (&v.sym_move[te], &v.sym_move[fe]);
        let slice_row = &v.slice_move[slice * N_MOVES..][..N_MOVES];
        // Face by face (min2phase's loop): a bound past the moves left
        // after one turn of a face rules out its other turns too.
        for face in 0..6 {
            // No face twice in a row; opposite faces only in URF-before-DLB order.
            if face == last_face || face + 3 == last_face {
                continue;
            }
            for m in face * 3..face * 3 + 3 {
                // A phase-1 solution ending in a phase-2 move was already
                // tried one move shorter.
                if remaining == 1 && is_phase2_move(m) {
                    continue;
                }
                // The class's representative moved by the move turned by
                // the symmetry, then turned back (an XOR: see E8).
                let tw = twist_row[twist_sym[m] as usize] as usize ^ te;
                let fl = flip_row[flip_sym[m] as usize] as usize ^ fe;
                let sl = slice_row[m] as usize;
                let mut quarter = (0, 0);
                if remaining == 1 {
                    // Only the goal itself will do: classes 0 (which hold
                    // only the solved twist and flip) and slice 0.
                    if (tw >> 3) | (fl >> 3) | sl != 0 {
                        continue;
                    }
                } else {
                    let mut h = v.bound3(tw, fl, sl) as usize;
                    if h < remaining {
                        // The quarter-turned cube moves by the quarter-turned
                        // move: its coordinates are carried, not recomputed.
                        let mq = v.quarter_move[m] as usize;
                        quarter = (
                            v.step(v.twist_move, twist_q, mq),
                            v.step(v.flip_move, flip_q, mq),
                        );
                        h = h.max(v.twist_flip(quarter.0, quarter.1) as usize);
                    }
                    if h > remaining {
                        break;
                    }
                    if h == remaining {
                        continue;
                    }
                }
                self.moves1[depth] = m as u8;
                if self.valid > depth {
                    self.valid = depth;
                }
                let child = Phase1At {
                    twist: tw,
                    flip: fl,
                    slice: sl,
                    quarter,
                };
                if self.phase1_compact(v, child, depth + 1, face) || self.stopped {
                    return true;
                }
                // The face's other quarter turn ends phase 1 in this cube
                // times the face's half turn, a phase-2 move, which lowers
                // a phase-2 bound by at most one: when this probe's bound
                // was two or more past the moves phase 2 had, the other
                // turn's probe would fail too (min2phase's skip).
                if remaining == 1 && self.excess >= 2 {
                    break;
                }
            }
        }
        false
    }

    /// At a node of a phase-1 search after pre-moves that reaches phase
    /// 2's group with fewer than 5 of its moves left: when the search is
    /// one of the shortest phase 1s pre-moves allow, searches phase 2
    /// from here within the moves a full-length phase 1 would leave it
    /// (min2phase's `allowShorter`). Pre-moves and a phase 1 shorter than
    /// [`MIN_PHASE1_WITH_PRE_MOVES`] are otherwise never tried, and a
    /// cube one pre-move from such a pair is solved one length sooner.
    /// The node is expanded as usual afterwards, so every phase-1
    /// solution is still tried.
    fn probe_shorter(&mut self, depth: usize, last_face: usize) -> bool {
        if !(self.npre > 0 && self.len1 == MIN_PHASE1_WITH_PRE_MOVES) || depth == 0 {
            return false;
        }
        let (full, max2) = (self.len1, self.max2());
        self.len1 = depth;
        if self.start_phase2(last_face, max2) {
            // The solution reads this phase 1's length.
            return true;
        }
        self.len1 = full;
        self.stopped
    }

    /// The most moves phase 2 may take after this phase 1 and the
    /// pre-moves.
    fn max2(&self) -> usize {
        (self.bound - self.len1 - self.npre).min(self.phase2_cap)
    }

    /// Searches phase 2 within `max2` moves after the first `len1` moves
    /// of phase 1.
    fn start_phase2(&mut self, last_face: usize, max2: usize) -> bool {
        self.probes += 1;
        if self.probes >= self.probe_limit {
            self.stopped = true;
            return false;
        }
        if self.probes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                    return false;
                }
            }
        }
        while self.valid < self.len1 {
            let i = self.valid;
            self.cubes[i + 1] =
                self.cubes[i].apply_move(FaceTurn::from_index(self.moves1[i] as usize));
            self.valid += 1;
        }
        let cube = self.cubes[self.len1];
        if self.phase2_from(&cube, max2, last_face) {
            return true;
        }
        let excess = self.excess;
        // The pre-move next to phase 2 turned the other way: the cube is
        // its half turn `g` (a phase-2 move) times this one, and g·Y·S is
        // in phase 2's group exactly when Y·S is, so this phase-1
        // solution serves it too, and its phase 2 starts from g·X.
        // (with_pre_moves starts phase 1 after clockwise turns only.)
        if self.npre > 0 {
            let last = self.pre[self.npre - 1] as usize;
            let half = FaceTurn::from_index(last / 3 * 3 + 1);
            let other = half.cubie().multiply_proper(&cube);
            if self.phase2_from(&other, max2, last_face) {
                self.pre[self.npre - 1] = (last / 3 * 3 + 2) as u8;
                return true;
            }
            self.excess = self.excess.min(excess);
        }
        false
    }

    /// Searches phase 2 from `cube` within `max2` moves, after phase 1's
    /// last turn of `last_face`.
    ///
    /// Phase 2's first turn may be of any face but that one. A turn of
    /// the opposite face commutes with phase 1's last, but moved into
    /// phase 1 it makes phase 1 a move longer: here is its only place at
    /// this length (forbidding it, as the order within a search does,
    /// missed a 20-move answer of a phase 1 of 9 moves ending in L' and a
    /// phase 2 starting with R2; min2phase found it a length sooner).
    fn phase2_from(&mut self, cube: &CubieCube, max2: usize, last_face: usize) -> bool {
        let first = if last_face < 6 { 1 << last_face } else { 0 };
        let corners = coord::corners(cube) as usize;
        let ud = coord::ud_edges(cube) as usize;
        let sp = coord::slice_sorted(cube) as usize;
        debug_assert!(sp < 24);
        if let Prune::Compact(cp) = &self.t.prune {
            let at = cp.phase2_at(self.t.coord, corners, ud, sp);
            let h = cp.phase2_bound(at) as usize;
            self.excess = h.saturating_sub(max2);
            for len2 in h..=max2 {
                if self.phase2_compact(cp, at, 0, len2, first) {
                    self.found = Some(len2);
                    return true;
                }
            }
            return false;
        }
        // The small (corners, slice) table first: it often decides alone,
        // and the big table read is a cache miss.
        if self.t.coord.corner_slice_depth[corners * 24 + sp] as usize > max2 {
            return false;
        }
        let h = self.t.phase2_bound(corners, ud, sp) as usize;
        for len2 in h..=max2 {
            if self.phase2(corners, ud, sp, 0, len2, first) {
                self.found = Some(len2);
                return true;
            }
        }
        false
    }

    fn phase2(
        &mut self,
        corners: usize,
        ud: usize,
        sp: usize,
        depth: usize,
        len2: usize,
        forbidden: u8,
    ) -> bool {
        let remaining = len2 - depth;
        if remaining == 0 {
            return corners == 0 && ud == 0 && sp == 0;
        }
        self.nodes2 += 1;
        let c = self.t.coord;
        for &m in &crate::tables::PHASE2_MOVES {
            let m = m as usize;
            if forbidden >> (m / 3) & 1 != 0 {
                continue;
            }
            let c2 = c.corners_move[corners * N_MOVES + m] as usize;
            let u2 = c.ud_edges_move[ud * N_MOVES + m] as usize;
            let s2 = c.slice_sorted_move[sp * N_MOVES + m] as usize;
            if self.t.phase2_bound(c2, u2, s2) as usize >= remaining {
                continue;
            }
            self.moves2[depth] = m as u8;
            if self.phase2(c2, u2, s2, depth + 1, len2, FACES_AFTER[m / 3]) {
                return true;
            }
        }
        false
    }

    /// Phase 2 with the compact tables: their ten-wide move tables, and
    /// the bounds of the inverse cube as well (it is as far from solved).
    fn phase2_compact(
        &mut self,
        cp: &CompactPrune,
        at: Phase2At,
        depth: usize,
        len2: usize,
        forbidden: u8,
    ) -> bool {
        let remaining = len2 - depth;
        if remaining == 0 {
            // The solved corners and edges are their classes' (0)
            // representatives under every symmetry.
            return at.0 >> 4 == 0 && at.1 >> 4 == 0 && at.2 == 0;
        }
        self.nodes2 += 1;
        for (i, &m) in crate::tables::PHASE2_MOVES.iter().enumerate() {
            let m = m as usize;
            if forbidden >> (m / 3) & 1 != 0 {
                continue;
            }
            let child = cp.phase2_move(at, i);
            if !cp.phase2_within(child, remaining)
                || !cp.phase2_within(cp.phase2_inverse(child), remaining)
            {
                continue;
            }
            self.moves2[depth] = m as u8;
            if self.phase2_compact(cp, child, depth + 1, len2, FACES_AFTER[m / 3]) {
                return true;
            }
        }
        false
    }

    /// Searches `total` moves of pre-moves and phase 1 on `cube` (the
    /// direction's cube with the pre-moves so far, `self.pre[..npre]`,
    /// applied before it): min2phase's pre-moves. A solution `S` of
    /// `P·C` (pre-moves `P` done before the cube `C`) gives `S` then `P`
    /// for `C`, so the answer may end outside the phase-2 group; the
    /// phase-1 search stays at least [`MIN_PHASE1_WITH_PRE_MOVES`] long,
    /// and the pre-moves multiply the phase-1 solutions tried at each
    /// length, which finds short answers sooner.
    fn with_pre_moves(
        &mut self,
        cube: CubieCube,
        npre: usize,
        total: usize,
        last_face: usize,
    ) -> bool {
        // The pre-move next to phase 2 leaves its group (else phase 2
        // could have made it), and is a clockwise quarter turn: phase 2
        // tries the anticlockwise one too (see start_phase2).
        if npre == 0 || is_clockwise_quarter_off_phase2(self.pre[npre - 1] as usize) {
            let twist = coord::twist(&cube) as usize;
            let flip = coord::flip(&cube) as usize;
            let slice = coord::slice(&cube) as usize;
            let len1 = total - npre;
            if self.t.phase1_depth(twist, flip, slice) as usize <= len1 {
                self.cubes[0] = cube;
                self.valid = 0;
                self.npre = npre;
                self.len1 = len1;
                let quarter = self.t.quarter_of(twist, flip, slice);
                if self.phase1(twist, flip, slice, quarter, 0, NO_FACE) || self.stopped {
                    return true;
                }
            }
        }
        if npre + 1 + MIN_PHASE1_WITH_PRE_MOVES > total {
            return false;
        }
        // A child that cannot take a pre-move of its own only starts phase
        // 1, which it does after a clockwise quarter turn off phase 2.
        let leaf = npre + 2 + MIN_PHASE1_WITH_PRE_MOVES > total;
        for m in 0..N_MOVES {
            if !face_allowed(m, last_face) || (leaf && !is_clockwise_quarter_off_phase2(m)) {
                continue;
            }
            let next = FaceTurn::from_index(m).cubie().multiply_proper(&cube);
            self.pre[npre] = m as u8;
            if self.with_pre_moves(next, npre + 1, total, m / 3) {
                return true;
            }
        }
        false
    }

    /// The solution found, in the original cube's frame.
    fn solution(&self, len2: usize) -> MoveSeq {
        let sy = Symmetries::get();
        let back = sy.inv[self.dir.sym] as usize;
        // The pre-moves come last, the latest applied first.
        let mut v: Vec<FaceTurn> = self.moves1[..self.len1]
            .iter()
            .chain(&self.moves2[..len2])
            .chain(self.pre[..self.npre].iter().rev())
            .map(|&m| FaceTurn::from_index(sy.conj_move[back][m as usize] as usize))
            .collect();
        if self.dir.inverse {
            v = v.iter().rev().map(|m| m.inverse()).collect();
        }
        // Phase 2's last turn and the pre-move after it may be of one
        // face (or of opposite faces around one): merged, the answer is a
        // move shorter than the search counted.
        MoveSeq(v).simplified()
    }
}

/// The six views of `cube`, without repeats (a symmetric cube has fewer).
fn directions(cube: &CubieCube, all: bool) -> Vec<Direction> {
    let sy = Symmetries::get();
    let mut out: Vec<Direction> = Vec::new();
    let inv = cube.inverse();
    let views: &[(bool, usize)] = if all {
        &[
            (false, 0),
            (false, 16),
            (false, 32),
            (true, 0),
            (true, 16),
            (true, 32),
        ]
    } else {
        &[(false, 0)]
    };
    for &(inverse, s) in views {
        let base = if inverse { &inv } else { cube };
        let c = sy.conjugate(base, s);
        if out.iter().any(|d| d.cube == c) {
            continue;
        }
        out.push(Direction {
            cube: c,
            sym: s,
            inverse,
        });
    }
    out
}

/// Solves `cube` with at most `opts.max_length` moves (then, for
/// `opts.improve_probes` more probes, with fewer).
pub fn solve(
    tables: &TwoPhaseTables,
    cube: &CubieCube,
    opts: &TwoPhaseOptions,
) -> Result<TwoPhaseSolution, TwoPhaseError> {
    let deadline = opts.time_limit.map(|d| Instant::now() + d);
    let mut best = solve_once(tables, cube, opts, PHASE2_CAP)?;
    let mut left = opts.improve_probes;
    while left > 0 && !best.moves.is_empty() {
        // The looking on shares the caller's time limit.
        let time_limit = match deadline {
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(rest) if !rest.is_zero() => Some(rest),
                _ => break,
            },
            None => None,
        };
        let shorter = TwoPhaseOptions {
            max_length: best.moves.len() - 1,
            probe_limit: Some(left),
            time_limit,
            ..opts.clone()
        };
        match solve_once(tables, cube, &shorter, PHASE2_CAP) {
            Ok(s) => {
                left = left.saturating_sub(s.probes.max(1));
                best = TwoPhaseSolution {
                    probes: best.probes + s.probes,
                    phase1_nodes: best.phase1_nodes + s.phase1_nodes,
                    phase2_nodes: best.phase2_nodes + s.phase2_nodes,
                    moves: s.moves,
                };
            }
            // The budget is spent, or nothing shorter exists.
            Err(_) => break,
        }
    }
    Ok(best)
}

/// One search of `cube` within `opts`, phase 2 capped at `phase2_cap`
/// moves in a first pass ([`PHASE2_CAP`]).
fn solve_once(
    tables: &TwoPhaseTables,
    cube: &CubieCube,
    opts: &TwoPhaseOptions,
    phase2_cap: usize,
) -> Result<TwoPhaseSolution, TwoPhaseError> {
    if cube.is_solved() {
        return Ok(TwoPhaseSolution {
            moves: MoveSeq::default(),
            probes: 0,
            phase1_nodes: 0,
            phase2_nodes: 0,
        });
    }
    let deadline = opts.time_limit.map(|d| Instant::now() + d);
    let bound = opts.max_length.min(MAX_LEN - 1);
    let mut searches: Vec<(Search, [usize; 3], usize)> = directions(cube, opts.all_directions)
        .into_iter()
        .map(|dir| {
            let twist = coord::twist(&dir.cube) as usize;
            let flip = coord::flip(&dir.cube) as usize;
            let slice = coord::slice(&dir.cube) as usize;
            let h = tables.phase1_depth(twist, flip, slice) as usize;
            // The probe limit is set before each length (below).
            let mut s = Search::new(tables, dir, bound, phase2_cap);
            s.deadline = deadline;
            (s, [twist, flip, slice], h)
        })
        .collect();
    let mut probes = 0u64;
    // First with phase 2 capped (min2phase's), then, for the phase-1
    // lengths the cap cut short, without it.
    let passes = [
        (phase2_cap, 0..=bound),
        (MAX_LEN, 0..=bound.saturating_sub(phase2_cap + 1)),
    ];
    for (cap, lengths) in passes {
        for len1 in lengths {
            for (s, [twist, flip, slice], h) in searches.iter_mut() {
                s.phase2_cap = cap;
                s.probe_limit = opts
                    .probe_limit
                    .map_or(u64::MAX, |p| p.saturating_sub(probes) + s.probes);
                let before = s.probes;
                if len1 > MIN_PHASE1_WITH_PRE_MOVES {
                    s.with_pre_moves(s.dir.cube, 0, len1, NO_FACE);
                } else if *h <= len1 {
                    s.cubes[0] = s.dir.cube;
                    s.valid = 0;
                    s.npre = 0;
                    s.len1 = len1;
                    let quarter = tables.quarter_of(*twist, *flip, *slice);
                    s.phase1(*twist, *flip, *slice, quarter, 0, NO_FACE);
                }
                probes += s.probes - before;
                if let Some(len2) = s.found {
                    let (nodes1, nodes2) = searches
                        .iter()
                        .fold((0, 0), |(a, b), x| (a + x.0.nodes1, b + x.0.nodes2));
                    let s = &searches.iter().find(|x| x.0.found.is_some()).map(|x| &x.0);
                    let Some(s) = s else { break };
                    return Ok(TwoPhaseSolution {
                        moves: s.solution(len2),
                        probes,
                        phase1_nodes: nodes1,
                        phase2_nodes: nodes2,
                    });
                }
                if s.stopped {
                    return Err(TwoPhaseError::LimitReached {
                        max_length: opts.max_length,
                    });
                }
            }
        }
    }
    Err(TwoPhaseError::TooShort {
        max_length: opts.max_length,
    })
}

/// Solves many cubes on all cores; results in input order.
pub fn solve_batch(
    tables: &TwoPhaseTables,
    cubes: &[CubieCube],
    opts: &TwoPhaseOptions,
) -> Vec<Result<TwoPhaseSolution, TwoPhaseError>> {
    use rayon::prelude::*;
    cubes.par_iter().map(|c| solve(tables, c, opts)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The coordinates the compact bounds read for the cube turned a
    /// quarter about UD, and for a phase-2 cube's inverse, are those of the
    /// cubes themselves; with the tables' exactness (below), every bound is
    /// a true distance of a projection, so none overestimates.
    #[test]
    fn conjugate_and_inverse_coordinates_are_the_cubes_own() {
        let c = CoordTables::get();
        let compact = TwoPhaseTables::compact();
        let Prune::Compact(cp) = &compact.prune else {
            unreachable!()
        };
        let sy = Symmetries::get();
        let mut rng = twistor_core::random::SeededRng::new(31);
        for _ in 0..2000 {
            let x = CubieCube::random(|| rng.next_u64());
            let q = sy.conjugate(&x, 2);
            let slice = coord::slice_sorted(&x) as usize / 24;
            let slice_q = c.slice_conj[slice * 16 + 2] as usize;
            assert_eq!(slice_q, coord::slice_sorted(&q) as usize / 24);
            assert_eq!(
                c.twist_conj[coord::twist(&x) as usize * 16 + 2],
                coord::twist(&q)
            );
            assert_eq!(c.conj_flip(coord::flip(&x), 2, slice_q), coord::flip(&q));
            let p = CubieCube::random_in_phase2(&mut rng, 10);
            // The class-carrying move tables move twist and flip as the
            // cube's (a representative that symmetries fix has several
            // symmetries to it: compared as raw values), and give the same
            // bounds.
            let p1 = &cp.phase1;
            let v = cp.phase1_view(c);
            let (tw, fl) = (coord::twist(&x) as usize, coord::flip(&x) as usize);
            let sl = coord::slice(&x) as usize;
            let m = rng.below(N_MOVES);
            let tx = v.step(v.twist_move, p1.twist.packed[tw] as usize, m);
            let fx = v.step(v.flip_move, p1.flip.packed[fl] as usize, m);
            let y = x.apply_move(FaceTurn::from_index(m));
            let (ty, fy, sy_) = (coord::twist(&y), coord::flip(&y), coord::slice(&y) as usize);
            let twist_of = |x: usize| c.twist_conj[p1.twist.rep[x >> 3] as usize * 16 + E8[x & 7]];
            assert_eq!(twist_of(tx), ty);
            assert_eq!(p1.flip_raw[(fx >> 3) * 8 + (fx & 7)], fy);
            let sl2 = c.slice_move[sl * N_MOVES + m] as usize;
            assert_eq!(sl2, sy_);
            let [a, b, k] = p1.indices(ty as usize, fy as usize, sy_);
            let raw = p1
                .slice_twist
                .get(a)
                .max(p1.slice_flip.get(b))
                .max(p1.twist_flip.get(k));
            assert_eq!(v.bound3(tx, fx, sl2), raw);
            // The quarter-turned cube's, carried through the move turned
            // likewise, are those of the moved cube turned a quarter.
            let (tq, fq) = cp.quarter_turned(c, tw, fl, sl);
            let mq = cp.quarter_move[m] as usize;
            let (tq, fq) = (v.step(v.twist_move, tq, mq), v.step(v.flip_move, fq, mq));
            let yq = sy.conjugate(&y, QUARTER_ABOUT_UD);
            assert_eq!(twist_of(tq), coord::twist(&yq));
            assert_eq!(p1.flip_raw[(fq >> 3) * 8 + (fq & 7)], coord::flip(&yq));
            assert_eq!(
                cp.phase1_bound_below(c, ty as usize, fy as usize, sy_, usize::MAX),
                raw.max(v.twist_flip(tq, fq))
            );
            // The class-carried coordinates move and invert as the cube's:
            // the same bounds (a representative that symmetries fix has
            // several symmetries to it, which give twin entries).
            let raw_at = |q: &CubieCube| {
                let (cn, ud) = (coord::corners(q) as usize, coord::ud_edges(q) as usize);
                cp.phase2_at(c, cn, ud, coord::slice_sorted(q) as usize)
            };
            let bounds = |at: Phase2At| {
                let [a, b, k, d] = cp.phase2_indices(at);
                let t = [
                    &cp.ud_slice,
                    &cp.ud_corner_comb,
                    &cp.corner_edge_comb,
                    &cp.corner_slice,
                ];
                [t[0].get(a), t[1].get(b), t[2].get(k), t[3].get(d)]
            };
            let at = raw_at(&p);
            assert_eq!(bounds(cp.phase2_inverse(at)), bounds(raw_at(&p.inverse())));
            let i = rng.below(10);
            let moved = p.apply_move(FaceTurn::from_index(
                crate::tables::PHASE2_MOVES[i] as usize,
            ));
            assert_eq!(bounds(cp.phase2_move(at, i)), bounds(raw_at(&moved)));
            let inv = p.inverse();
            assert_eq!(
                cp.slice_perm_inv[coord::slice_sorted(&p) as usize],
                coord::slice_sorted(&inv) as u8
            );
        }
    }

    /// The symmetry-reduced (twist, slice), (flip, slice) and (twist, flip)
    /// tables hold the raw pairs' distances: a breadth-first search over
    /// every raw pair agrees entry for entry. (Without the twins of a
    /// representative that a symmetry fixes, the first was 5 where the
    /// raw pair is 4 moves from the goal.)
    #[test]
    fn reduced_slice_tables_equal_the_raw_ones() {
        let c = CoordTables::get();
        let compact = TwoPhaseTables::compact();
        let Prune::Compact(cp) = &compact.prune else {
            unreachable!()
        };
        // Every (a, b) pair of two coordinates with these move tables: its
        // distance by a breadth-first search over the raw pairs, against
        // the reduced table's entry.
        let check = |name: &str,
                     (na, a_move): (usize, &[u16]),
                     (nb, b_move): (usize, &[u16]),
                     reduced: &dyn Fn(usize, usize) -> u8| {
            let all: Vec<u8> = (0..N_MOVES as u8).collect();
            let raw = bfs(na * nb, &all, |x, m| {
                a_move[x / nb * N_MOVES + m] as usize * nb + b_move[x % nb * N_MOVES + m] as usize
            });
            for a in 0..na {
                for b in 0..nb {
                    assert_eq!(reduced(a, b), raw[a * nb + b].min(15), "{name} {a} {b}");
                }
            }
        };
        let slice = (N_SLICE, &c.slice_move[..]);
        let twist = (N_TWIST, &c.twist_move[..]);
        let flip = (N_FLIP, &c.flip_move[..]);
        let p1 = &cp.phase1;
        check("slice, twist", slice, twist, &|sl, tw| {
            p1.slice_twist.get(p1.indices(tw, 0, sl)[0])
        });
        check("slice, flip", slice, flip, &|sl, fl| {
            p1.slice_flip.get(p1.indices(0, fl, sl)[1])
        });
        check("twist, flip", twist, flip, &|tw, fl| {
            p1.twist_flip.get(p1.indices(tw, fl, 0)[2])
        });
        // min2phase's class counts under the eight symmetries.
        assert_eq!((p1.twist.rep.len(), p1.flip.rep.len()), (324, 336));
    }

    /// The symmetry-reduced phase-2 tables of the compact kind hold the
    /// raw pairs' distances: (UD edges, slice permutation), (UD edges,
    /// corner combination), (corners, slice permutation) and (corners, edge
    /// combination), each against a breadth-first search over every raw
    /// pair in phase 2's moves.
    #[test]
    fn reduced_phase2_tables_equal_the_raw_ones() {
        let c = CoordTables::get();
        let compact = TwoPhaseTables::compact();
        let Prune::Compact(cp) = &compact.prune else {
            unreachable!()
        };
        let p2 = &crate::tables::PHASE2_MOVES;
        let check = |name: &str,
                     nb: usize,
                     next: &(dyn Fn(usize, usize) -> usize + Sync),
                     reduced: &dyn Fn(usize, usize) -> u8| {
            let raw = bfs(N_UD_EDGES * nb, p2, next);
            for x in 0..N_UD_EDGES {
                for y in 0..nb {
                    assert_eq!(reduced(x, y), raw[x * nb + y].min(15), "{name} {x} {y}");
                }
            }
        };
        // Each raw pair read through a cube with those coordinates: the
        // other coordinates of the cube are solved, which the tables
        // ignore.
        let reps = |comb: &[u8]| -> Vec<usize> {
            (0..70)
                .map(|k| comb.iter().position(|&x| x as usize == k).unwrap_or(0))
                .collect()
        };
        let (corner_rep, edge_rep) = (reps(&cp.corner_comb), reps(&cp.edge_comb));
        let ud_move = |ud: usize, m: usize| c.ud_edges_move[ud * N_MOVES + m] as usize;
        let corner_move = |cn: usize, m: usize| c.corners_move[cn * N_MOVES + m] as usize;
        check(
            "UD edges, slice permutation",
            24,
            &|x, m| ud_move(x / 24, m) * 24 + c.slice_sorted_move[x % 24 * N_MOVES + m] as usize,
            &|ud, sp| {
                cp.ud_slice
                    .get(cp.phase2_indices(cp.phase2_at(c, 0, ud, sp))[0])
            },
        );
        check(
            "UD edges, corner combination",
            70,
            &|x, m| {
                let k2 = cp.corner_comb[corner_move(corner_rep[x % 70], m)];
                ud_move(x / 70, m) * 70 + k2 as usize
            },
            &|ud, k| {
                let corners = corner_rep[k];
                cp.ud_corner_comb
                    .get(cp.phase2_indices(cp.phase2_at(c, corners, ud, 0))[1])
            },
        );
        // Corners × slice permutation: the coordinate tables' own
        // breadth-first search, over the raw pairs.
        for cn in 0..N_CORNERS {
            for sp in 0..24 {
                let got = cp
                    .corner_slice
                    .get(cp.phase2_indices(cp.phase2_at(c, cn, 0, sp))[3]);
                let want = c.corner_slice_depth[cn * 24 + sp].min(15);
                assert_eq!(got, want, "corners, slice permutation {cn} {sp}");
            }
        }
        // Corners × edge combination, with the corners in the first place.
        let raw = bfs(N_CORNERS * 70, p2, |x, m| {
            let k2 = cp.edge_comb[ud_move(edge_rep[x % 70], m)];
            corner_move(x / 70, m) * 70 + k2 as usize
        });
        for cn in 0..N_CORNERS {
            for k in 0..70 {
                let ud = edge_rep[k];
                let got = cp
                    .corner_edge_comb
                    .get(cp.phase2_indices(cp.phase2_at(c, cn, ud, 0))[2]);
                assert_eq!(
                    got,
                    raw[cn * 70 + k].min(15),
                    "corners, edge combination {cn} {k}"
                );
            }
        }
    }

    /// Phase 2 may start with a turn of the face opposite phase 1's last
    /// (here R2 after L'): that turn commutes with L', but moved into
    /// phase 1 it makes phase 1 ten moves long, so at length 9 this is its
    /// only place. Forbidding it by the canonical order of opposite faces
    /// lost this 20-move answer at phase-1 length 9 (min2phase found it
    /// there; the solver found another a length later).
    #[test]
    fn phase2_may_start_on_the_face_opposite_phase1s_last() {
        let phase1: MoveSeq = "U2 F2 D' L2 U2 R U2 F' L'".parse().unwrap();
        let phase2: MoveSeq = "R2 F2 L2 U' B2 D2 F2 U R2 F2 U".parse().unwrap();
        let whole: Vec<FaceTurn> = phase1.0.iter().chain(&phase2.0).copied().collect();
        let cube = CubieCube::from_moves(&whole).inverse();
        let tables = TwoPhaseTables::compact();
        let dir = Direction {
            cube,
            sym: 0,
            inverse: false,
        };
        let mut search = Search::new(&tables, dir, 20, MAX_LEN);
        search.len1 = 9;
        let (twist, flip, slice) = (
            coord::twist(&cube) as usize,
            coord::flip(&cube) as usize,
            coord::slice(&cube) as usize,
        );
        let quarter = tables.quarter_of(twist, flip, slice);
        assert!(search.phase1(twist, flip, slice, quarter, 0, NO_FACE));
        let len2 = search.found.expect("found");
        let answer = search.solution(len2);
        assert!(answer.len() <= 20);
        assert!(cube.apply_moves(&answer.0).is_solved(), "{answer}");
    }

    /// Phase 2 is capped at first ([`PHASE2_CAP`]); the pass over the
    /// phase-1 lengths the cap cut short keeps the search complete. With
    /// the cap at 2, a cube of phase 2's group whose answers within the
    /// limit are phase 2's alone is solved only by that pass.
    #[test]
    fn capped_phase2_still_finds_every_answer_within_the_limit() {
        let tables = TwoPhaseTables::compact();
        let cube = CubieCube::from_moves(&"U R2 U' F2 D".parse::<MoveSeq>().unwrap().0);
        // The cube as it is: the other five views are not in phase 2's
        // group, and their phase 1s would find other answers.
        let opts = TwoPhaseOptions {
            max_length: 5,
            all_directions: false,
            ..Default::default()
        };
        let s = solve_once(&tables, &cube, &opts, 2).expect("solved within 5");
        assert!(s.moves.len() <= 5 && cube.apply_moves(&s.moves.0).is_solved());
    }

    /// A table build says after each depth how far it is: the depths in
    /// order, the entries filled growing to all of them.
    #[test]
    fn symmetric_table_builds_report_each_depth() {
        let c = CoordTables::get();
        let all: Vec<u8> = (0..N_MOVES as u8).collect();
        let mut seen: Vec<(String, u64, u64)> = Vec::new();
        let space = ProjectionSpace {
            classes: N_SLICE,
            inner: 1,
            moves: &all,
            class_move: |sl: usize, m: usize| (c.slice_move[sl * N_MOVES + m] as usize, 0),
            inner_move: |_: usize, _: usize| 0,
            inner_conj: |_: usize, _: usize| 0,
            stab: |_: usize| 1,
        };
        let table = crate::prune::build_sym_nibbles_reporting(&space, &mut |step, done, total| {
            seen.push((step.to_string(), done, total))
        });
        // The UD slice alone is at most 5 moves from home.
        let depths: Vec<String> = (1..=5).map(|d| format!("depth {d}")).collect();
        assert_eq!(seen.iter().map(|s| s.0.clone()).collect::<Vec<_>>(), depths);
        assert!(seen.windows(2).all(|w| w[0].1 < w[1].1));
        assert_eq!(
            seen.last().map(|s| (s.1, s.2)),
            Some((N_SLICE as u64, N_SLICE as u64))
        );
        assert_eq!((0..N_SLICE).map(|i| nibble(&table, i)).max(), Some(5));
    }

    /// Phase 1 composes the symmetries of its twist and flip classes by
    /// XOR: that holds only if the eight commute and are their own inverses.
    #[test]
    fn edge_orientation_symmetries_compose_by_xor() {
        let sy = Symmetries::get();
        for a in 0..8 {
            assert!(!crate::symmetry::flips_slice_edges(E8[a]));
            for b in 0..8 {
                assert_eq!(sy.mult[E8[a]][E8[b]] as usize, E8[a ^ b], "{a} {b}");
            }
        }
    }

    #[test]
    fn canonical_order_forbids_same_and_reversed_opposite_faces_and_allows_any_first_move() {
        assert!(!face_allowed(0, 0));
        assert!(face_allowed(9, 0)); // D after U
        assert!(!face_allowed(0, 3)); // U after D
        for m in 0..18 {
            assert!(face_allowed(m, NO_FACE), "move {m} first");
        }
        assert!(is_phase2_move(4) && !is_phase2_move(3) && is_phase2_move(10));
    }
}
