//! Whole cosets of Kociemba's group `H = <U, D, R2, L2, F2, B2>`, solved at
//! once: the distance of every one of a coset's 19,508,428,800 positions,
//! by Rokicki's method (the one that proved God's number is 20).
//!
//! # The mathematics
//!
//! A position is the product of the moves applied ([`CubieCube::from_moves`];
//! `a·b` is `a` then `b`). For a cube `g` the coset is
//! `C_g = { x : g·x ∈ H } = g⁻¹H`: the positions that take `g` into `H`.
//! It depends only on `H·g`, that is on `g`'s phase-1 coordinates (twist,
//! flip, UD slice), which are the coset's identity ([`CosetId`]). Each `x`
//! of the coset is indexed by `y = g·x ∈ H`: corner permutation (8!) ×
//! UD-edge permutation (8!) × slice permutation (4!, of which the
//! permutation parity leaves 12).
//!
//! A shortest face-turn sequence `w` for `x` splits as `w = s·t` with `t`
//! its longest suffix of `H`'s ten moves; then `g·s ∈ H` and the last move
//! of `s` is a quarter turn of R, L, F or B, so `s` is a *phase-1 solution*
//! of `g`. With `S_n` the positions found within `n` moves:
//!
//! ```text
//! S_n = S_(n-1) ∪ S_(n-1)·{U, U2, U', D, D2, D', R2, L2, F2, B2} ∪ P_n
//! P_n = { g·s : s a phase-1 solution of g of exactly n moves }
//! ```
//!
//! `P_n` is enumerated by an exhaustive depth-first search over canonical
//! sequences (no face twice in a row, opposite faces in one order), pruned
//! by phase-1 distances: exact ones from the two-phase solver's table
//! (70 MB), read only where two small projection tables and a table of the
//! cosets within four moves of `H` (all of which stay in cache) do not
//! prune first. Its cost grows about 13-fold a move, so
//! [`CosetOptions::phase1_depth`] caps it: up to that depth the counts are
//! the coset's exact distance distribution; beyond it the sets grow by the
//! ten moves only, and a position counted at depth `n` is only known to be
//! at most `n` moves from solved, the positions found within `n` moves a
//! lower bound on those within `n` (Rokicki's proof worked so).
//!
//! # The sets
//!
//! While `S_n` is small it is a sorted list of positions; once it is large
//! it becomes a bitmap of 40320 × 40320 `u16`s (corner permutation ×
//! UD-edge permutation, 12 bits for the slice permutations of the right
//! parity), two of them (3.25 GB each) for the old and the new set. A step
//! walks the target rows of the new bitmap (one corner permutation each,
//! 80 KB, so every write stays in cache) and pulls, for each of the ten
//! moves `m`, the source row `c = target·m⁻¹`. Only blocks of 16 entries
//! that changed in the last step are expanded (an unchanged entry's
//! images are already in the set), and full rows are left alone. The
//! phase-1 solutions are marked in the new bitmap with atomic ORs. A
//! [`CosetWorkspace`] keeps the bitmaps from one solve to the next.

use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

use memmap2::MmapMut;
use rayon::prelude::*;
use thiserror::Error;

use crate::twophase::{bfs, binomial, face_allowed, NO_FACE};

use crate::coord::{
    self, N_CORNERS, N_FLIP, N_SLICE, N_SLICE_PERM, N_SLICE_SORTED, N_TWIST, N_UD_EDGES,
};
use crate::cubie::{permutation_parity_odd, CubieCube};
use crate::error::CubeError;
use crate::moves::N_MOVES;
use crate::prune::{phase1_table, NibbleTable};
use crate::symmetry::{Symmetries, N_SYM_D4H};
use crate::tables::{CoordTables, PHASE2_MOVES};
use twistor_core::store::{StoreEvent, TableStore};

/// Positions in one coset of `H` (its order, 8!·8!·4!/2).
pub const COSET_SIZE: u64 = 19_508_428_800;

/// Cosets of `H` in the cube group: 3^7 · 2^11 · C(12,4).
pub const COSET_COUNT: u64 = (N_TWIST * N_FLIP * N_SLICE) as u64;

/// Cells of a bitmap: corner permutation × UD-edge permutation.
const CELLS: usize = N_CORNERS * N_UD_EDGES;
/// The 18 face turns, for breadth-first searches over all of them.
const ALL_MOVES: [u8; N_MOVES] = {
    let mut m = [0u8; N_MOVES];
    let mut i = 0;
    while i < N_MOVES {
        m[i] = i as u8;
        i += 1;
    }
    m
};
/// Entries (corner × UD-edge cells) a block of the change flags covers.
const BLOCK: usize = 16;
/// Blocks in a row: 40320 / 16.
const BLOCKS: usize = N_UD_EDGES / BLOCK;
/// 64-bit words of change flags a row.
const FLAG_WORDS: usize = BLOCKS.div_ceil(64);
/// Positions in a full row.
const FULL_ROW: u32 = (N_UD_EDGES * 12) as u32;
/// Bytes of the two bitmaps and their row flags and counts.
const DENSE_BYTES: u64 = 2 * (CELLS as u64 * 2 + (N_CORNERS * (FLAG_WORDS * 8 + 4)) as u64);
/// Positions of the two arrays of 4 edges (UR UF UL UB; DR DF DL DB),
/// order included: 12·11·10·9.
const N_EDGE4: usize = N_SLICE_SORTED;
/// The eight phase-1 moves that leave `H`: quarter turns of R, F, L, B.
const QUARTER_RFLB: [usize; 8] = [3, 5, 6, 8, 12, 14, 15, 17];

/// Why a coset could not be solved.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CosetError {
    /// The cube given is not a solvable position.
    #[error("not a solvable cube: {0}")]
    InvalidCube(#[from] CubeError),
    /// A coset coordinate is out of range.
    #[error(
        "no coset has twist {twist}, flip {flip}, slice {slice} \
         (twist < 2187, flip < 2048, slice < 495)"
    )]
    OutOfRange {
        /// The twist given.
        twist: u32,
        /// The flip given.
        flip: u32,
        /// The slice given.
        slice: u32,
    },
    /// A coset index at or above [`COSET_COUNT`].
    #[error("coset index {0} is not below 2,217,093,120")]
    IndexOutOfRange(u64),
    /// Going on needs more memory than the limit allows.
    #[error(
        "depth {depth} needs {needed} bytes, more than the memory limit of {limit} bytes \
         (the dense sets take {dense} bytes)",
        dense = DENSE_BYTES
    )]
    MemoryLimit {
        /// The depth that would not fit.
        depth: usize,
        /// Bytes the cheapest way on would take.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// The operating system refused the memory.
    #[error("could not reserve {bytes} bytes: {message}")]
    Allocation {
        /// Bytes asked for.
        bytes: u64,
        /// The system's answer.
        message: String,
    },
    /// The worker threads could not be started.
    #[error("could not start {threads} worker threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why not.
        message: String,
    },
    /// The stop flag was raised; the depths finished before it are kept.
    #[error("stopped after {} depths", .partial.counts.len())]
    Stopped {
        /// What was found before the stop.
        partial: Box<CosetReport>,
    },
}

/// A coset of `H`, named by the phase-1 coordinates every cube `g` with
/// `C_g` equal to it shares: `C_g = C_g'` exactly when `H·g = H·g'`, that
/// is when `g` and `g'` have the same twist (corner orientations, 0..2187),
/// flip (edge orientations, 0..2048) and slice (which four slots hold the
/// UD-slice edges, 0..495).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CosetId {
    twist: u16,
    flip: u16,
    slice: u16,
}

impl CosetId {
    /// The coset of `H` itself (the cubes of `H`, and the solved cube).
    pub const H: CosetId = CosetId {
        twist: 0,
        flip: 0,
        slice: 0,
    };

    /// The coset with these phase-1 coordinates.
    pub fn new(twist: u32, flip: u32, slice: u32) -> Result<CosetId, CosetError> {
        if twist as usize >= N_TWIST || flip as usize >= N_FLIP || slice as usize >= N_SLICE {
            return Err(CosetError::OutOfRange { twist, flip, slice });
        }
        Ok(CosetId {
            twist: twist as u16,
            flip: flip as u16,
            slice: slice as u16,
        })
    }

    /// The coset `C_g` of cube `g`: the positions `x` with `g·x` in `H`.
    pub fn of(g: &CubieCube) -> CosetId {
        CosetId {
            twist: coord::twist(g),
            flip: coord::flip(g),
            slice: coord::slice_sorted(g) / N_SLICE_PERM as u16,
        }
    }

    /// Twist coordinate (0..2187).
    pub fn twist(&self) -> u16 {
        self.twist
    }

    /// Flip coordinate (0..2048).
    pub fn flip(&self) -> u16 {
        self.flip
    }

    /// Slice coordinate (0..495).
    pub fn slice(&self) -> u16 {
        self.slice
    }

    /// A number in `0..COSET_COUNT`, ordered as the triples (twist, flip,
    /// slice).
    pub fn index(&self) -> u64 {
        (self.twist as u64 * N_FLIP as u64 + self.flip as u64) * N_SLICE as u64 + self.slice as u64
    }

    /// The coset with this [`index`](Self::index).
    pub fn from_index(index: u64) -> Result<CosetId, CosetError> {
        if index >= COSET_COUNT {
            return Err(CosetError::IndexOutOfRange(index));
        }
        let slice = index % N_SLICE as u64;
        let rest = index / N_SLICE as u64;
        CosetId::new(
            (rest / N_FLIP as u64) as u32,
            (rest % N_FLIP as u64) as u32,
            slice as u32,
        )
    }

    /// A uniformly random coset, from 64 random bits at a time.
    pub fn random(mut next_u64: impl FnMut() -> u64) -> CosetId {
        let zone = u64::MAX - u64::MAX % COSET_COUNT;
        loop {
            let x = next_u64();
            if x < zone {
                // In range by construction.
                return CosetId::from_index(x % COSET_COUNT).unwrap_or(CosetId::H);
            }
        }
    }

    /// A cube `g` of this coset (`CosetId::of(&g) == self`): the slice
    /// edges placed by the slice coordinate, the other pieces in order (two
    /// corners swapped when the edges are odd), oriented by twist and flip.
    pub fn representative(&self) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        coord::set_slice_sorted(&mut c, self.slice * N_SLICE_PERM as u16);
        if c.edge_parity_odd() {
            c.cp.swap(0, 1);
        }
        coord::set_twist(&mut c, self.twist);
        coord::set_flip(&mut c, self.flip);
        c
    }

    /// The coset of `S·g·S⁻¹` for `g` in this one, `S` symmetry `s` of the
    /// 16 that keep the UD axis (`s < 16`, Kociemba's numbering
    /// `F2^b · U4^c · LR2^d` as `8b + 2c + d`). They normalise `H`, so the
    /// conjugate coset has the same distance distribution.
    pub fn conjugate(&self, s: usize) -> CosetId {
        assert!(s < N_SYM_D4H, "symmetry {s} does not keep the UD axis");
        CosetId::of(&Symmetries::get().conjugate(&self.representative(), s))
    }

    /// The least of the coset's 16 conjugates, and a symmetry giving it
    /// (`self.conjugate(s) == canonical`): cosets with the same canonical
    /// form have the same distribution, so solving one of each covers all.
    pub fn canonical(&self) -> (CosetId, usize) {
        (0..N_SYM_D4H)
            .map(|s| (self.conjugate(s), s))
            .min()
            .unwrap_or((*self, 0))
    }

    /// How many different cosets the 16 conjugates are (16 divided by the
    /// number of symmetries that fix this coset): the weight of its
    /// canonical form when the cosets are reduced by symmetry.
    pub fn class_size(&self) -> usize {
        let mut all: Vec<CosetId> = (0..N_SYM_D4H).map(|s| self.conjugate(s)).collect();
        all.sort_unstable();
        all.dedup();
        all.len()
    }
}

impl std::fmt::Display for CosetId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "twist {} flip {} slice {}",
            self.twist, self.flip, self.slice
        )
    }
}

/// How far to search, and with what.
#[derive(Clone, Debug)]
pub struct CosetOptions {
    /// Phase-1 solutions are enumerated up to this length; counts up to it
    /// are exact. Each more move costs about 14 times as much (a random
    /// coset has about 1.2 million phase-1 solutions of 14 moves, 17
    /// million of 15 and 250 million of 16).
    pub phase1_depth: usize,
    /// The last depth computed (unless the coset is full before).
    pub max_depth: usize,
    /// Most bytes the sets may take (the solver's tables not included);
    /// the dense sets take 6.5 GB.
    pub memory_limit: u64,
    /// Worker threads; 0 uses rayon's global pool.
    pub threads: usize,
    /// Most positions (of the set's growth in one step) kept as a sorted
    /// list before the sets become dense bitmaps.
    pub sparse_limit: u64,
}

impl Default for CosetOptions {
    fn default() -> Self {
        CosetOptions {
            phase1_depth: DEFAULT_PHASE1_DEPTH,
            max_depth: 20,
            memory_limit: 8 << 30,
            threads: 0,
            sparse_limit: 1 << 25,
        }
    }
}

/// The phase-1 depth [`CosetOptions::default`] uses. Measured on a random
/// coset on two cores: with 13 about 60 s and half a billion positions not
/// found within 20 moves, with 14 about 70 s and 2.6 million, with 15
/// about 60 s and under a hundred (the dense sets start from a fuller
/// set), with 16 over 400 s and none.
pub const DEFAULT_PHASE1_DEPTH: usize = 15;

/// What the solver reports while it works.
#[derive(Clone, Debug, PartialEq)]
pub enum CosetEvent {
    /// The sets are becoming dense bitmaps at this depth.
    Dense {
        /// The depth about to be computed.
        depth: usize,
        /// Bytes reserved for them.
        bytes: u64,
    },
    /// A depth is done.
    Depth(DepthStats),
}

/// One depth of a coset's solve.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthStats {
    /// The depth.
    pub depth: usize,
    /// Positions found at this depth and not before.
    pub count: u64,
    /// Positions found within this depth.
    pub found: u64,
    /// Whether `count` is the exact number at this distance (phase-1
    /// solutions of this length were enumerated).
    pub exact: bool,
    /// Phase-1 solutions of exactly this length enumerated.
    pub phase1_leaves: u64,
    /// Seconds spent on the phase-1 search.
    pub phase1_seconds: f64,
    /// Seconds for the whole depth.
    pub seconds: f64,
    /// Whether the sets were dense bitmaps.
    pub dense: bool,
}

/// A coset's distance distribution, as far as it was computed.
#[derive(Clone, Debug, PartialEq)]
pub struct CosetReport {
    /// The coset.
    pub coset: CosetId,
    /// `counts[n]`: positions found at depth `n` and not before.
    pub counts: Vec<u64>,
    /// `counts[..=exact_through]` are exact distances; beyond, a position
    /// counted at depth `n` is only known to be within `n` moves. `None`
    /// when not even depth 0 is exact.
    pub exact_through: Option<usize>,
    /// Positions of the coset not found within the depths computed.
    pub remaining: u64,
    /// `phase1_leaves[n]`: phase-1 solutions of exactly `n` moves.
    pub phase1_leaves: Vec<u64>,
    /// Seconds of each depth.
    pub seconds: Vec<f64>,
    /// Seconds of each depth's phase-1 search.
    pub phase1_seconds: Vec<f64>,
    /// The first depth computed on dense bitmaps, if any.
    pub dense_from: Option<usize>,
    /// The most bytes the sets took (reserved; the solver's tables not
    /// included).
    pub peak_bytes: u64,
    /// Seconds of the whole solve.
    pub total_seconds: f64,
}

impl CosetReport {
    /// Positions found.
    pub fn found(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Whether every position of the coset was found.
    pub fn is_complete(&self) -> bool {
        self.remaining == 0
    }
}

/// The phase-1 distance bound.
struct Phase1Bound {
    /// The exact, symmetry-reduced table of the two-phase solver, if
    /// loaded.
    full: Option<NibbleTable>,
    /// Exact distances of two projections, (slice, twist) and (slice,
    /// flip): lower bounds, and with the full table a filter read first
    /// (2 MB that stay in cache, where the full table's reads miss).
    slice_twist: Vec<u8>,
    slice_flip: Vec<u8>,
    /// Exact distances of the cosets near `H`.
    near: NearCosets,
}

impl Phase1Bound {
    fn build(c: &CoordTables, full: Option<NibbleTable>) -> Phase1Bound {
        let slice_move =
            |sl: usize, m: usize| c.slice_sorted_move[sl * 24 * N_MOVES + m] as usize / 24;
        let (slice_twist, slice_flip) = rayon::join(
            || {
                bfs(N_SLICE * N_TWIST, &ALL_MOVES, |x, m| {
                    let (sl, tw) = (x / N_TWIST, x % N_TWIST);
                    slice_move(sl, m) * N_TWIST + c.twist_move[tw * N_MOVES + m] as usize
                })
            },
            || {
                bfs(N_SLICE * N_FLIP, &ALL_MOVES, |x, m| {
                    let (sl, fl) = (x / N_FLIP, x % N_FLIP);
                    slice_move(sl, m) * N_FLIP + c.flip_move[fl * N_MOVES + m] as usize
                })
            },
        );
        Phase1Bound {
            full,
            slice_twist,
            slice_flip,
            near: NearCosets::build(c),
        }
    }

    /// The projections' bound.
    #[inline(always)]
    fn projected(&self, twist: usize, flip: usize, slice: usize) -> u8 {
        self.slice_twist[slice * N_TWIST + twist].max(self.slice_flip[slice * N_FLIP + flip])
    }
}

/// Cosets at most this far from `H` are looked up in [`NearCosets`].
const NEAR: usize = 4;

/// The 8505 cosets within [`NEAR`] moves of `H` and their distances, in
/// an open-addressed hash table small enough (128 KB) to stay in cache:
/// near the leaves of the phase-1 search, where every child needs a
/// distance of at most a few moves, it answers without the full table.
struct NearCosets {
    /// `(index + 1) << 8 | distance`, 0 for an empty slot.
    slots: Vec<u64>,
}

impl NearCosets {
    const BITS: u32 = 14;

    #[inline(always)]
    fn slot(index: u64) -> usize {
        (index.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::BITS)) as usize
    }

    fn build(c: &CoordTables) -> NearCosets {
        let mut t = NearCosets {
            slots: vec![0; 1 << Self::BITS],
        };
        let mut frontier = vec![(0u16, 0u16, 0u16)];
        t.insert(0, 0);
        for d in 1..=NEAR {
            let mut next = Vec::new();
            for &(tw, fl, sl) in &frontier {
                for m in 0..N_MOVES {
                    let tw2 = c.twist_move[tw as usize * N_MOVES + m];
                    let fl2 = c.flip_move[fl as usize * N_MOVES + m];
                    let sl2 = c.slice_sorted_move[sl as usize * 24 * N_MOVES + m] / 24;
                    if t.get(tw2 as usize, fl2 as usize, sl2 as usize).is_none() {
                        t.insert(
                            Self::index(tw2 as usize, fl2 as usize, sl2 as usize),
                            d as u8,
                        );
                        next.push((tw2, fl2, sl2));
                    }
                }
            }
            frontier = next;
        }
        t
    }

    #[inline(always)]
    fn index(twist: usize, flip: usize, slice: usize) -> u64 {
        ((twist * N_FLIP + flip) * N_SLICE + slice) as u64
    }

    fn insert(&mut self, index: u64, d: u8) {
        let mask = self.slots.len() - 1;
        let mut i = Self::slot(index);
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = (index + 1) << 8 | d as u64;
    }

    /// The coset's distance, if at most [`NEAR`].
    #[inline(always)]
    fn get(&self, twist: usize, flip: usize, slice: usize) -> Option<u8> {
        let key = Self::index(twist, flip, slice) + 1;
        let mask = self.slots.len() - 1;
        let mut i = Self::slot(key - 1);
        loop {
            let e = self.slots[i];
            if e == 0 {
                return None;
            }
            if e >> 8 == key {
                return Some(e as u8);
            }
            i = (i + 1) & mask;
        }
    }
}

/// Phase-1 coordinates of a cube, with the pieces phase 2 needs.
#[derive(Clone, Copy, Debug)]
struct Node {
    twist: u16,
    flip: u16,
    /// Slice edges' positions and order (0..11880; below 24 in `H`).
    slice_sorted: u16,
    corners: u16,
    /// Positions and order of UR UF UL UB.
    u_edges: u16,
    /// Positions and order of DR DF DL DB.
    d_edges: u16,
}

/// Where phase-1 solutions go.
trait LeafSink {
    /// The position `y = g·s` reached, by its phase-2 coordinates.
    fn leaf(&mut self, corners: u16, ud_edges: u16, slice_perm: u16);
}

/// A move's action on the dense sets.
struct DenseMove {
    /// `corners · m⁻¹`: the source row of a target row.
    corner_src: Vec<u16>,
    /// `ud · m` in the low 16 bits, the parity of `ud` in bit 16.
    edges: Vec<u32>,
    /// The slice-permutation sets' images, `[parity << 12 | set]`; `None`
    /// when the move leaves the slice alone (U and D turns).
    slice_sets: Option<Vec<u16>>,
}

/// The tables the coset solver adds to the coordinate tables.
struct CosetTables {
    /// `u_move[x * 18 + m]` for the UR UF UL UB coordinate.
    u_move: Vec<u16>,
    /// Likewise for DR DF DL DB.
    d_move: Vec<u16>,
    /// UD-edge permutation of `(u, order of d)`: `merge[u * 24 + d % 24]`,
    /// valid when both lie in slots 0..8.
    merge: Vec<u16>,
    /// Parity (1 = odd) of each corner permutation.
    corner_parity: Vec<u8>,
    /// Bit of each slice permutation among the 12 of its parity.
    slice_bit: [u8; 24],
    /// The ten moves of `H`.
    moves: Vec<DenseMove>,
}

/// The coset solver (Rokicki's method): the distance of every position of
/// a coset of `H = <U, D, R2, L2, F2, B2>` at once.
///
/// The coset of a cube `g` is `C_g = { x : g·x ∈ H }` (positions are
/// products of moves, `a·b` is `a` then `b`): 19,508,428,800 positions,
/// named by `g`'s phase-1 coordinates ([`CosetId`]). A shortest sequence
/// for `x` is a phase-1 solution `s` of `g` (ending in a quarter turn of
/// R, F, L or B) followed by moves of `H`, so with `S_n` the positions
/// found within `n` moves and `P_n` the cubes `g·s` for the phase-1
/// solutions of exactly `n` moves,
/// `S_n = S_(n-1) ∪ S_(n-1)·{U, U2, U', D, D2, D', R2, L2, F2, B2} ∪ P_n`.
/// Phase-1 solutions are enumerated up to [`CosetOptions::phase1_depth`]
/// (each move more costs about 13 times as much); counts up to it are the
/// exact distance distribution, beyond it a position counted at depth `n`
/// is only known to be within `n` moves.
///
/// The sets are sorted lists while small, then two bitmaps of 3.25 GB
/// (corner permutation × UD-edge permutation × the 12 slice permutations
/// of the right parity). With the default options a random coset takes
/// about a minute on two cores, 6.6 GB, and leaves a few hundred of its
/// positions unfound at depth 20.
///
/// The solver holds its tables (the phase-1 distance table and small
/// tables of its own), shared by any number of solves.
pub struct CosetSolver {
    coord: &'static CoordTables,
    bound: Phase1Bound,
    t: CosetTables,
}

/// Rank of a permutation of 0..4 (0..24).
fn perm4_rank(p: [u8; 4]) -> u16 {
    let mut r = 0u16;
    for i in 0..4 {
        let smaller_after = p[i + 1..].iter().filter(|&&x| x < p[i]).count() as u16;
        r = r * (4 - i as u16) + smaller_after;
    }
    r
}

/// The permutation of 0..4 with rank `r`.
fn perm4_unrank(mut r: u16) -> [u8; 4] {
    let mut digits = [0u16; 4];
    for i in (0..4).rev() {
        digits[i] = r % (4 - i as u16);
        r /= 4 - i as u16;
    }
    let mut unused = vec![0u8, 1, 2, 3];
    let mut out = [0u8; 4];
    for i in 0..4 {
        out[i] = unused.remove(digits[i] as usize);
    }
    out
}

/// The coordinate of edges `first..first + 4`: `24 · comb + order`, with
/// `comb` the rank (combinatorial number system) of the four slots holding
/// them and `order` the rank of which of them sits in each slot, slots
/// taken in increasing order.
fn edge4(c: &CubieCube, first: u8) -> u16 {
    let mut comb = 0usize;
    let mut k = 0;
    let mut order = [0u8; 4];
    for slot in 0..12 {
        let e = c.ep[slot];
        if (first..first + 4).contains(&e) {
            order[k] = e - first;
            k += 1;
            comb += binomial(slot, k);
        }
    }
    (comb * 24) as u16 + perm4_rank(order)
}

/// The four slots (increasing) of an [`edge4`] coordinate and the edge
/// (0..4 within the group) in each.
fn edge4_slots(x: u16) -> ([u8; 4], [u8; 4]) {
    let mut comb = x as usize / 24;
    let mut slots = [0u8; 4];
    for k in (1..=4).rev() {
        let mut s = k - 1;
        while binomial(s + 1, k) <= comb {
            s += 1;
        }
        comb -= binomial(s, k);
        slots[k - 1] = s as u8;
    }
    (slots, perm4_unrank(x % 24))
}

/// A cube with edges `first..first + 4` as [`edge4`] `x` says and the
/// other edges in order in the other slots.
fn set_edge4(c: &mut CubieCube, first: u8, x: u16) {
    let (slots, order) = edge4_slots(x);
    let mut ep = [u8::MAX; 12];
    for i in 0..4 {
        ep[slots[i] as usize] = first + order[i];
    }
    let mut others = (0..12u8).filter(|e| !(first..first + 4).contains(e));
    for e in ep.iter_mut() {
        if *e == u8::MAX {
            *e = others.next().unwrap_or(0);
        }
    }
    c.ep = ep;
}

impl CosetTables {
    fn build(c: &CoordTables) -> CosetTables {
        let edge_move = |first: u8| -> Vec<u16> {
            let mut t = vec![0u16; N_EDGE4 * N_MOVES];
            for x in 0..N_EDGE4 {
                let mut cube = CubieCube::SOLVED;
                set_edge4(&mut cube, first, x as u16);
                for m in 0..N_MOVES {
                    let d = cube.apply_move(crate::moves::FaceTurn::from_index(m));
                    t[x * N_MOVES + m] = edge4(&d, first);
                }
            }
            t
        };
        let (u_move, d_move) = rayon::join(|| edge_move(0), || edge_move(4));
        let mut merge = vec![u16::MAX; N_EDGE4 * 24];
        for u in 0..N_EDGE4 {
            let (u_slots, u_order) = edge4_slots(u as u16);
            if u_slots[3] >= 8 {
                continue;
            }
            let mut d_slots = [0u8; 4];
            let mut k = 0;
            for s in 0..8u8 {
                if !u_slots.contains(&s) {
                    d_slots[k] = s;
                    k += 1;
                }
            }
            for od in 0..24u16 {
                let d_order = perm4_unrank(od);
                let mut cube = CubieCube::SOLVED;
                for i in 0..4 {
                    cube.ep[u_slots[i] as usize] = u_order[i];
                    cube.ep[d_slots[i] as usize] = 4 + d_order[i];
                }
                merge[u * 24 + od as usize] = coord::ud_edges(&cube);
            }
        }
        let parity_of = |set: &dyn Fn(&mut CubieCube), corners: bool| -> u8 {
            let mut cube = CubieCube::SOLVED;
            set(&mut cube);
            if corners {
                permutation_parity_odd(&cube.cp) as u8
            } else {
                permutation_parity_odd(&cube.ep) as u8
            }
        };
        let corner_parity: Vec<u8> = (0..N_CORNERS)
            .map(|x| parity_of(&|cube| coord::set_corners(cube, x as u16), true))
            .collect();
        let edge_parity: Vec<u8> = (0..N_UD_EDGES)
            .map(|x| parity_of(&|cube| coord::set_ud_edges(cube, x as u16), false))
            .collect();
        let slice_parity: [u8; 24] = std::array::from_fn(|p| {
            parity_of(&|cube| coord::set_slice_sorted(cube, p as u16), false)
        });
        let mut slice_bit = [0u8; 24];
        let mut slice_of_bit = [[0u8; 12]; 2];
        let mut seen = [0usize; 2];
        for p in 0..24 {
            let q = slice_parity[p] as usize;
            slice_bit[p] = seen[q] as u8;
            slice_of_bit[q][seen[q]] = p as u8;
            seen[q] += 1;
        }
        let moves = PHASE2_MOVES
            .iter()
            .map(|&m| {
                let m = m as usize;
                let inv = m / 3 * 3 + 2 - m % 3;
                let corner_src = (0..N_CORNERS)
                    .map(|x| c.corners_move[x * N_MOVES + inv])
                    .collect();
                let edges = (0..N_UD_EDGES)
                    .map(|x| {
                        c.ud_edges_move[x * N_MOVES + m] as u32 | (edge_parity[x] as u32) << 16
                    })
                    .collect();
                let moves_slice =
                    (0..24).any(|p| c.slice_sorted_move[p * N_MOVES + m] as usize != p);
                let slice_sets = moves_slice.then(|| {
                    let mut t = vec![0u16; 2 << 12];
                    for q in 0..2 {
                        for set in 0..1usize << 12 {
                            let mut out = 0u16;
                            for b in 0..12 {
                                if set >> b & 1 == 1 {
                                    let p = slice_of_bit[q][b] as usize;
                                    let p2 = c.slice_sorted_move[p * N_MOVES + m] as usize;
                                    out |= 1 << slice_bit[p2];
                                }
                            }
                            t[q << 12 | set] = out;
                        }
                    }
                    t
                });
                DenseMove {
                    corner_src,
                    edges,
                    slice_sets,
                }
            })
            .collect();
        CosetTables {
            u_move,
            d_move,
            merge,
            corner_parity,
            slice_bit,
            moves,
        }
    }

    fn size_bytes(&self) -> usize {
        2 * (self.u_move.len() + self.d_move.len() + self.merge.len())
            + self.corner_parity.len()
            + self
                .moves
                .iter()
                .map(|m| {
                    2 * m.corner_src.len()
                        + 4 * m.edges.len()
                        + 2 * m.slice_sets.as_ref().map_or(0, |s| s.len())
                })
                .sum::<usize>()
    }
}

/// A sparse set's key of a position of `H`: corners, UD edges, slice
/// permutation, in that order of significance.
#[inline(always)]
fn key(corners: u16, ud: u16, slice_perm: u16) -> u64 {
    ((corners as u64 * N_UD_EDGES as u64 + ud as u64) << 5) | slice_perm as u64
}

#[inline(always)]
fn unkey(k: u64) -> (usize, usize, usize) {
    let ce = (k >> 5) as usize;
    (ce / N_UD_EDGES, ce % N_UD_EDGES, (k & 31) as usize)
}

/// Collects phase-1 leaves as sparse keys.
struct ListSink {
    keys: Vec<u64>,
}

/// Marks phase-1 leaves in a dense bitmap.
struct DenseSink<'a> {
    cells: &'a [AtomicU16],
    flags: &'a [AtomicU64],
    rows: &'a [AtomicU32],
    slice_bit: &'a [u8; 24],
    leaves: u64,
    added: u64,
}

impl LeafSink for ListSink {
    #[inline(always)]
    fn leaf(&mut self, corners: u16, ud: u16, slice_perm: u16) {
        self.keys.push(key(corners, ud, slice_perm));
    }
}

impl LeafSink for DenseSink<'_> {
    #[inline(always)]
    fn leaf(&mut self, corners: u16, ud: u16, slice_perm: u16) {
        self.leaves += 1;
        let (c, e) = (corners as usize, ud as usize);
        let cell = &self.cells[c * N_UD_EDGES + e];
        let bit = 1u16 << self.slice_bit[slice_perm as usize];
        if cell.load(Ordering::Relaxed) & bit != 0 {
            return;
        }
        if cell.fetch_or(bit, Ordering::Relaxed) & bit == 0 {
            self.added += 1;
            self.rows[c].fetch_add(1, Ordering::Relaxed);
            let block = e / BLOCK;
            self.flags[c * FLAG_WORDS + block / 64].fetch_or(1 << (block % 64), Ordering::Relaxed);
        }
    }
}

/// A dense set: 12 bits of slice permutations for each (corner
/// permutation, UD-edge permutation), in anonymous memory that the system
/// provides as it is first written.
struct Bitmap {
    map: MmapMut,
}

impl Bitmap {
    fn new(huge_pages: bool) -> Result<Bitmap, CosetError> {
        let bytes = CELLS * 2;
        let map = MmapMut::map_anon(bytes).map_err(|e| CosetError::Allocation {
            bytes: bytes as u64,
            message: e.to_string(),
        })?;
        // Only a hint. A large set fills most pages, and huge pages spare
        // the TLB the phase-1 leaves' random writes; a small one (the
        // tests) touches few, and 2 MB pages would commit far more.
        #[cfg(target_os = "linux")]
        {
            let advice = if huge_pages {
                memmap2::Advice::HugePage
            } else {
                memmap2::Advice::NoHugePage
            };
            let _ = map.advise(advice);
        }
        #[cfg(not(target_os = "linux"))]
        let _ = huge_pages;
        Ok(Bitmap { map })
    }

    fn cells(&self) -> &[u16] {
        // SAFETY: the map is CELLS u16s long and page-aligned; anonymous
        // memory starts zeroed, a valid u16 everywhere.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr() as *const u16, CELLS) }
    }

    fn cells_mut(&mut self) -> &mut [u16] {
        // SAFETY: as in `cells`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr() as *mut u16, CELLS) }
    }

    fn atomic(&mut self) -> &[AtomicU16] {
        // SAFETY: AtomicU16 has the size, alignment and bit validity of
        // u16; the unique borrow of the map becomes shared atomic access
        // for its lifetime.
        unsafe { std::slice::from_raw_parts(self.map.as_mut_ptr() as *const AtomicU16, CELLS) }
    }
}

/// The dense state: the set within `n - 1` moves (`x`) and within `n - 2`
/// (`y`, overwritten by the set within `n`), each with flags of the
/// blocks that changed in its step and its row counts. Where a block's
/// flag in `x` is clear, `y` holds the same entries.
struct Dense {
    x: Bitmap,
    y: Bitmap,
    x_flags: Vec<AtomicU64>,
    y_flags: Vec<AtomicU64>,
    x_rows: Vec<AtomicU32>,
    y_rows: Vec<AtomicU32>,
}

fn atomics64(n: usize) -> Vec<AtomicU64> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
}

fn atomics32(n: usize) -> Vec<AtomicU32> {
    (0..n).map(|_| AtomicU32::new(0)).collect()
}

/// The sets while they are lists: all found (`all`), and found at the last
/// depth (`last`), both sorted.
struct Sparse {
    all: Vec<u64>,
    last: Vec<u64>,
}

/// Memory kept between solves: the dense sets (6.5 GB, once a solve has
/// needed them). A solve given a workspace that holds them clears and
/// reuses them instead of asking the system for fresh pages, which the
/// system must clear too, page by page on first touch: seconds saved a
/// coset when solving many.
#[derive(Default)]
pub struct CosetWorkspace {
    dense: Option<Box<Dense>>,
}

impl CosetWorkspace {
    /// An empty workspace.
    pub fn new() -> CosetWorkspace {
        CosetWorkspace::default()
    }

    /// Bytes it holds.
    pub fn reserved_bytes(&self) -> u64 {
        if self.dense.is_some() {
            DENSE_BYTES
        } else {
            0
        }
    }

    /// Gives the memory back.
    pub fn release(&mut self) {
        self.dense = None;
    }
}

/// Runs work on the solve's own pool or on rayon's global one.
struct Exec {
    pool: Option<rayon::ThreadPool>,
}

impl Exec {
    fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }
}

/// ORs the images of the changed blocks of one source row under one move
/// into a target row. `SKIP_EMPTY` tests each entry first: worth it (and
/// it leaves untouched pages untouched) when most entries are empty;
/// otherwise the loop runs without branches.
#[inline(always)]
fn expand_row<const MOVES_SLICE: bool, const SKIP_EMPTY: bool>(
    src: &[u16],
    src_flags: &[u64; FLAG_WORDS],
    edges: &[u32],
    slice_sets: &[u16],
    corner_parity: u32,
    dst: &mut [u16],
) {
    for (w, &word) in src_flags.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let b = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let base = b * BLOCK;
            let cells = &src[base..base + BLOCK];
            let moved = &edges[base..base + BLOCK];
            for (&v, &t) in cells.iter().zip(moved) {
                if SKIP_EMPTY && v == 0 {
                    continue;
                }
                let x = if MOVES_SLICE {
                    let q = (t >> 16) ^ corner_parity;
                    slice_sets[(q as usize) << 12 | v as usize]
                } else {
                    v
                };
                dst[(t & 0xFFFF) as usize] |= x;
            }
        }
    }
}

/// Flags the blocks where `new` gained on `old` (a subset of it) and
/// counts the positions gained.
fn row_gain(new: &[u16], old: &[u16], flags: &mut [u64; FLAG_WORDS]) -> u64 {
    let mut added = 0u64;
    for (b, (n, o)) in new
        .chunks_exact(BLOCK)
        .zip(old.chunks_exact(BLOCK))
        .enumerate()
    {
        let mut any = 0u16;
        let mut count = 0u32;
        for i in 0..BLOCK {
            let g = n[i] ^ o[i];
            any |= g;
            count += g.count_ones();
        }
        flags[b / 64] |= ((any != 0) as u64) << (b % 64);
        added += count as u64;
    }
    added
}

fn load_flags(flags: &[AtomicU64], row: usize) -> [u64; FLAG_WORDS] {
    std::array::from_fn(|i| flags[row * FLAG_WORDS + i].load(Ordering::Relaxed))
}

impl CosetSolver {
    /// The solver with the exact phase-1 distance table (70 MB) from
    /// `store`, built (seconds) and kept there if missing.
    pub fn load(store: &dyn TableStore, report: &mut dyn FnMut(StoreEvent)) -> CosetSolver {
        let coord = CoordTables::get();
        let table = phase1_table(store, report);
        CosetSolver {
            coord,
            bound: Phase1Bound::build(coord, Some(table)),
            t: CosetTables::build(coord),
        }
    }

    /// The solver with small projection tables (2 MB, built in a fraction
    /// of a second) as the phase-1 bound: the same answers, found slower
    /// past a dozen moves.
    pub fn compact() -> CosetSolver {
        let coord = CoordTables::get();
        CosetSolver {
            coord,
            bound: Phase1Bound::build(coord, None),
            t: CosetTables::build(coord),
        }
    }

    /// Whether the phase-1 bound is the compact projections alone.
    pub fn is_compact(&self) -> bool {
        self.bound.full.is_none()
    }

    /// Bytes of the solver's own tables (the shared coordinate tables not
    /// included).
    pub fn size_bytes(&self) -> usize {
        let b = &self.bound;
        b.full.as_ref().map_or(0, |t| t.size_bytes())
            + b.slice_twist.len()
            + b.slice_flip.len()
            + 8 * b.near.slots.len()
            + self.t.size_bytes()
    }

    /// Bytes the two dense sets take.
    pub const DENSE_BYTES: u64 = DENSE_BYTES;

    /// Lower bound on the phase-1 distance (exact with the full table).
    #[inline(always)]
    fn bound(&self, twist: usize, flip: usize, slice: usize) -> usize {
        match &self.bound.full {
            Some(t) => {
                let c = self.coord;
                let p = c.flipslice.packed[slice * N_FLIP + flip] as usize;
                t.get((p >> 4) * N_TWIST + c.twist_conj[twist * 16 + (p & 15)] as usize) as usize
            }
            None => self.bound.projected(twist, flip, slice) as usize,
        }
    }

    fn node(g: &CubieCube) -> Node {
        Node {
            twist: coord::twist(g),
            flip: coord::flip(g),
            slice_sorted: coord::slice_sorted(g),
            corners: coord::corners(g),
            u_edges: edge4(g, 0),
            d_edges: edge4(g, 4),
        }
    }

    #[inline(always)]
    fn apply(&self, n: &Node, m: usize) -> Node {
        let c = self.coord;
        Node {
            twist: c.twist_move[n.twist as usize * N_MOVES + m],
            flip: c.flip_move[n.flip as usize * N_MOVES + m],
            slice_sorted: c.slice_sorted_move[n.slice_sorted as usize * N_MOVES + m],
            corners: c.corners_move[n.corners as usize * N_MOVES + m],
            u_edges: self.t.u_move[n.u_edges as usize * N_MOVES + m],
            d_edges: self.t.d_move[n.d_edges as usize * N_MOVES + m],
        }
    }

    /// UD-edge permutation of a node in `H`.
    #[inline(always)]
    fn ud_edges(&self, n: &Node) -> u16 {
        let ud = self.t.merge[n.u_edges as usize * 24 + n.d_edges as usize % 24];
        debug_assert!(ud != u16::MAX);
        ud
    }

    /// Every canonical continuation of `node` by exactly `remaining`
    /// moves that ends in `H` with a quarter turn of R, F, L or B, to
    /// `sink`.
    fn dfs<S: LeafSink>(&self, node: &Node, remaining: usize, last_face: usize, sink: &mut S) {
        let c = self.coord;
        if remaining == 1 {
            for &m in &QUARTER_RFLB {
                if !face_allowed(m, last_face)
                    || c.twist_move[node.twist as usize * N_MOVES + m] != 0
                    || c.flip_move[node.flip as usize * N_MOVES + m] != 0
                    || c.slice_sorted_move[node.slice_sorted as usize * N_MOVES + m] as usize
                        >= N_SLICE_PERM
                {
                    continue;
                }
                let child = self.apply(node, m);
                sink.leaf(child.corners, self.ud_edges(&child), child.slice_sorted);
            }
            return;
        }
        // Children's phase-1 coordinates first, then their bounds in a loop
        // of their own (the table reads' cache misses overlap), then the
        // recursion.
        let mut kids = [(0u8, 0u16, 0u16, 0u16); N_MOVES];
        let mut n = 0;
        for m in 0..N_MOVES {
            if !face_allowed(m, last_face) {
                continue;
            }
            kids[n] = (
                m as u8,
                c.twist_move[node.twist as usize * N_MOVES + m],
                c.flip_move[node.flip as usize * N_MOVES + m],
                c.slice_sorted_move[node.slice_sorted as usize * N_MOVES + m],
            );
            n += 1;
        }
        let next = remaining - 1;
        let mut h = [u8::MAX; N_MOVES];
        if next <= NEAR {
            // Exact, from the small table of cosets near H.
            for i in 0..n {
                let (_, tw, fl, ss) = kids[i];
                h[i] = self
                    .bound
                    .near
                    .get(tw as usize, fl as usize, ss as usize / 24)
                    .unwrap_or(u8::MAX);
            }
            return self.descend(node, &kids[..n], &h, next, sink);
        }
        // The projections first (in cache); the full table only where they
        // do not prune.
        for i in 0..n {
            let (_, tw, fl, ss) = kids[i];
            h[i] = self
                .bound
                .projected(tw as usize, fl as usize, ss as usize / 24);
        }
        if let Some(t) = &self.bound.full {
            let mut idx = [0usize; N_MOVES];
            let mut which = [0usize; N_MOVES];
            let mut k = 0;
            for i in 0..n {
                if h[i] as usize > next {
                    continue;
                }
                let (_, tw, fl, ss) = kids[i];
                let p = c.flipslice.packed[ss as usize / 24 * N_FLIP + fl as usize] as usize;
                idx[k] = (p >> 4) * N_TWIST + c.twist_conj[tw as usize * 16 + (p & 15)] as usize;
                which[k] = i;
                k += 1;
            }
            for j in 0..k {
                h[which[j]] = t.get(idx[j]);
            }
        }
        self.descend(node, &kids[..n], &h, next, sink)
    }

    /// Recurses into the children whose bound allows a phase-1 solution
    /// in `next` more moves.
    #[inline(always)]
    fn descend<S: LeafSink>(
        &self,
        node: &Node,
        kids: &[(u8, u16, u16, u16)],
        h: &[u8; N_MOVES],
        next: usize,
        sink: &mut S,
    ) {
        for (i, kid) in kids.iter().enumerate() {
            let h = h[i] as usize;
            // In H with one move left: a quarter turn leaves H.
            if h > next || (next == 1 && h == 0) {
                continue;
            }
            let m = kid.0 as usize;
            let child = self.apply(node, m);
            self.dfs(&child, next, m / 3, sink);
        }
    }

    /// The nodes `len` moves from `root` (canonical, within the bound of
    /// a phase-1 solution of `n` moves), with their last faces: the
    /// independent tasks of the phase-1 search.
    fn prefixes(&self, root: Node, n: usize, len: usize) -> Vec<(Node, usize)> {
        let mut level = vec![(root, NO_FACE)];
        for d in 0..len {
            let left = n - d - 1;
            let mut next = Vec::with_capacity(level.len() * 13);
            for (node, last) in level {
                for m in 0..N_MOVES {
                    if !face_allowed(m, last) {
                        continue;
                    }
                    let child = self.apply(&node, m);
                    let h = self.bound(
                        child.twist as usize,
                        child.flip as usize,
                        child.slice_sorted as usize / 24,
                    );
                    if h > left || (left == 1 && h == 0) {
                        continue;
                    }
                    next.push((child, m / 3));
                }
            }
            level = next;
        }
        level
    }

    /// Phase-1 solutions of exactly `n` moves (n ≥ 1) of `root`, each
    /// task's leaves to a sink made by `make`; the sinks come back.
    fn phase1<S: LeafSink + Send>(
        &self,
        root: Node,
        n: usize,
        stop: &AtomicBool,
        make: impl Fn() -> S + Sync + Send,
    ) -> Vec<S> {
        let len = (n - 1).min(if n >= 12 { 4 } else { 3 });
        let tasks = self.prefixes(root, n, len);
        tasks
            .par_iter()
            .with_max_len(1)
            .map(|(node, last)| {
                let mut sink = make();
                if !stop.load(Ordering::Relaxed) {
                    self.dfs(node, n - len, *last, &mut sink);
                }
                sink
            })
            .collect()
    }

    /// Solves the coset of `g`: the distances of the positions `x` with
    /// `g·x ∈ H` (see [`CosetSolver`]), depth by depth
    /// until the coset is full or `options.max_depth`, each depth reported
    /// to `progress` as it is done. Raising `stop` ends the solve at the
    /// next check with [`CosetError::Stopped`] and what was done.
    pub fn solve(
        &self,
        g: &CubieCube,
        options: &CosetOptions,
        progress: &mut dyn FnMut(CosetEvent),
        stop: &AtomicBool,
    ) -> Result<CosetReport, CosetError> {
        self.solve_in(&mut CosetWorkspace::new(), g, options, progress, stop)
    }

    /// [`solve`](Self::solve) with the dense sets kept in `workspace`
    /// (reused if it holds them, left there afterwards): for solving many
    /// cosets. The memory limit counts what the workspace holds.
    pub fn solve_in(
        &self,
        workspace: &mut CosetWorkspace,
        g: &CubieCube,
        options: &CosetOptions,
        progress: &mut dyn FnMut(CosetEvent),
        stop: &AtomicBool,
    ) -> Result<CosetReport, CosetError> {
        g.validate()?;
        let exec = Exec {
            pool: match options.threads {
                0 => None,
                n => Some(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(n)
                        .build()
                        .map_err(|e| CosetError::Threads {
                            threads: n,
                            message: e.to_string(),
                        })?,
                ),
            },
        };
        let started = Instant::now();
        let root = Self::node(g);
        let mut report = CosetReport {
            coset: CosetId::of(g),
            counts: Vec::new(),
            exact_through: None,
            remaining: COSET_SIZE,
            phase1_leaves: Vec::new(),
            seconds: Vec::new(),
            phase1_seconds: Vec::new(),
            dense_from: None,
            peak_bytes: 0,
            total_seconds: 0.0,
        };
        let limit = options.memory_limit;
        // Depth 0: g itself, if it is in H.
        let in_h = root.twist == 0 && root.flip == 0 && (root.slice_sorted as usize) < N_SLICE_PERM;
        let first: Vec<u64> = if in_h {
            vec![key(root.corners, self.ud_edges(&root), root.slice_sorted)]
        } else {
            Vec::new()
        };
        if limit < 16 {
            return Err(CosetError::MemoryLimit {
                depth: 0,
                needed: 16,
                limit,
            });
        }
        let mut found = first.len() as u64;
        // The sorted lists, until the sets become the workspace's bitmaps.
        let mut sparse = Some(Sparse {
            all: first.clone(),
            last: first,
        });
        let reserved = workspace.reserved_bytes();
        report.peak_bytes = reserved + 16;
        self.record(
            &mut report,
            options,
            progress,
            0,
            found,
            found,
            (in_h as u64, 0.0),
            started,
            false,
        );
        for n in 1..=options.max_depth {
            if found == COSET_SIZE {
                break;
            }
            if stop.load(Ordering::Relaxed) {
                report.total_seconds = started.elapsed().as_secs_f64();
                return Err(CosetError::Stopped {
                    partial: Box::new(report),
                });
            }
            let t0 = Instant::now();
            let with_phase1 = n <= options.phase1_depth;
            // Nothing new and no phase-1 solutions to come: the set is final.
            if let Some(s) = &sparse {
                if s.last.is_empty() && !with_phase1 {
                    break;
                }
            }
            let estimate = if with_phase1 {
                report
                    .phase1_leaves
                    .last()
                    .copied()
                    .unwrap_or(0)
                    .max(1 << 12)
                    * 16
            } else {
                0
            };
            if let Some(s) = &sparse {
                let cand = 10 * s.last.len() as u64 + estimate;
                let sparse_bytes =
                    reserved + 8 * (2 * s.all.len() as u64 + s.last.len() as u64 + 2 * cand);
                // The list is read into the bitmaps, so both are held a while.
                let dense_bytes = DENSE_BYTES + 8 * s.all.len() as u64;
                let sparse_fits = sparse_bytes <= limit;
                let dense_fits = dense_bytes <= limit;
                let go_dense = if cand <= options.sparse_limit && sparse_fits {
                    false
                } else if dense_fits {
                    true
                } else if sparse_fits {
                    false
                } else {
                    return Err(CosetError::MemoryLimit {
                        depth: n,
                        needed: sparse_bytes.min(dense_bytes),
                        limit,
                    });
                };
                if go_dense {
                    progress(CosetEvent::Dense {
                        depth: n,
                        bytes: DENSE_BYTES,
                    });
                    exec.run(|| self.to_dense(s, workspace))?;
                    report.dense_from = Some(n);
                    report.peak_bytes = report.peak_bytes.max(dense_bytes);
                } else {
                    report.peak_bytes = report.peak_bytes.max(sparse_bytes);
                }
            }
            if report.dense_from.is_some() {
                sparse = None;
            }
            let (count, leaves, p1_seconds) = match (&mut sparse, &mut workspace.dense) {
                (Some(s), _) => {
                    let (count, leaves, p1, bytes) =
                        exec.run(|| self.sparse_step(s, root, n, with_phase1, stop));
                    report.peak_bytes = report.peak_bytes.max(reserved + bytes);
                    (count, leaves, p1)
                }
                (None, Some(d)) => exec.run(|| self.dense_step(d, root, n, with_phase1, stop)),
                (None, None) => unreachable!("the sets are either lists or bitmaps"),
            };
            if stop.load(Ordering::Relaxed) {
                report.total_seconds = started.elapsed().as_secs_f64();
                return Err(CosetError::Stopped {
                    partial: Box::new(report),
                });
            }
            found += count;
            self.record(
                &mut report,
                options,
                progress,
                n,
                count,
                found,
                (leaves, p1_seconds),
                t0,
                sparse.is_none(),
            );
            if count == 0 && !with_phase1 {
                break;
            }
        }
        report.total_seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// Adds depth `n`'s results to the report and tells `progress`.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        report: &mut CosetReport,
        options: &CosetOptions,
        progress: &mut dyn FnMut(CosetEvent),
        n: usize,
        count: u64,
        found: u64,
        (leaves, p1_seconds): (u64, f64),
        t0: Instant,
        dense: bool,
    ) {
        let exact = n <= options.phase1_depth;
        if exact {
            report.exact_through = Some(n);
        }
        let seconds = t0.elapsed().as_secs_f64();
        report.counts.push(count);
        report.phase1_leaves.push(leaves);
        report.seconds.push(seconds);
        report.phase1_seconds.push(p1_seconds);
        report.remaining = COSET_SIZE - found;
        progress(CosetEvent::Depth(DepthStats {
            depth: n,
            count,
            found,
            exact,
            phase1_leaves: leaves,
            phase1_seconds: p1_seconds,
            seconds,
            dense,
        }));
    }

    /// One depth on sorted lists: returns the positions added, the
    /// phase-1 leaves, the phase-1 seconds and the bytes held at the peak.
    fn sparse_step(
        &self,
        s: &mut Sparse,
        root: Node,
        n: usize,
        with_phase1: bool,
        stop: &AtomicBool,
    ) -> (u64, u64, f64, u64) {
        let c = self.coord;
        let mut cand: Vec<u64> = s
            .last
            .par_iter()
            .flat_map_iter(|&k| {
                let (co, e, p) = unkey(k);
                PHASE2_MOVES.iter().map(move |&m| {
                    let m = m as usize;
                    key(
                        c.corners_move[co * N_MOVES + m],
                        c.ud_edges_move[e * N_MOVES + m],
                        c.slice_sorted_move[p * N_MOVES + m],
                    )
                })
            })
            .collect();
        let t1 = Instant::now();
        let mut leaves = 0u64;
        if with_phase1 {
            let sinks = self.phase1(root, n, stop, || ListSink { keys: Vec::new() });
            for sink in sinks {
                leaves += sink.keys.len() as u64;
                cand.extend_from_slice(&sink.keys);
            }
        }
        let p1_seconds = t1.elapsed().as_secs_f64();
        cand.par_sort_unstable();
        cand.dedup();
        // The new positions: candidates not in the set.
        let mut fresh = Vec::with_capacity(cand.len());
        let mut i = 0;
        for &k in &cand {
            while i < s.all.len() && s.all[i] < k {
                i += 1;
            }
            if i >= s.all.len() || s.all[i] != k {
                fresh.push(k);
            }
        }
        let bytes =
            8 * (s.all.capacity() + s.last.capacity() + cand.capacity() + fresh.capacity()) as u64;
        drop(cand);
        let mut all = Vec::with_capacity(s.all.len() + fresh.len());
        let (mut i, mut j) = (0, 0);
        while i < s.all.len() || j < fresh.len() {
            if j >= fresh.len() || (i < s.all.len() && s.all[i] < fresh[j]) {
                all.push(s.all[i]);
                i += 1;
            } else {
                all.push(fresh[j]);
                j += 1;
            }
        }
        let bytes = bytes.max(8 * (s.all.capacity() + all.capacity() + fresh.capacity()) as u64);
        let count = fresh.len() as u64;
        s.all = all;
        s.last = fresh;
        (count, leaves, p1_seconds, bytes)
    }

    /// The dense sets for the sparse ones: every position in `x`, every
    /// nonempty block flagged (as if all had just been found), `y` empty.
    fn to_dense(&self, s: &Sparse, workspace: &mut CosetWorkspace) -> Result<(), CosetError> {
        let reused = workspace.dense.is_some();
        if !reused {
            // A million positions or more will spread over most pages.
            let huge = s.all.len() >= 1 << 20;
            workspace.dense = Some(Box::new(Dense {
                x: Bitmap::new(huge)?,
                y: Bitmap::new(huge)?,
                x_flags: atomics64(N_CORNERS * FLAG_WORDS),
                y_flags: atomics64(N_CORNERS * FLAG_WORDS),
                x_rows: atomics32(N_CORNERS),
                y_rows: atomics32(N_CORNERS),
            }));
        }
        let Some(d) = workspace.dense.as_mut() else {
            unreachable!("just made");
        };
        if reused {
            // Fresh maps are zero; these hold an old solve, whose row
            // counts say which rows hold anything.
            let y_rows = &d.y_rows;
            d.y.cells_mut()
                .par_chunks_mut(N_UD_EDGES)
                .enumerate()
                .for_each(|(c, row)| {
                    if y_rows[c].load(Ordering::Relaxed) != 0 {
                        row.fill(0);
                    }
                });
        }
        let (flags, rows) = (&d.x_flags, &d.x_rows);
        let all = &s.all;
        d.x.cells_mut()
            .par_chunks_mut(N_UD_EDGES)
            .enumerate()
            .for_each(|(c, cells)| {
                if reused && rows[c].load(Ordering::Relaxed) != 0 {
                    cells.fill(0);
                }
                // The list is sorted, corners first.
                let from = all.partition_point(|&k| k < key(c as u16, 0, 0));
                let to = all.partition_point(|&k| k < key(c as u16 + 1, 0, 0));
                let mut f = [0u64; FLAG_WORDS];
                for &k in &all[from..to] {
                    let (_, e, p) = unkey(k);
                    cells[e] |= 1 << self.t.slice_bit[p];
                    let block = e / BLOCK;
                    f[block / 64] |= 1 << (block % 64);
                }
                for (w, &word) in f.iter().enumerate() {
                    flags[c * FLAG_WORDS + w].store(word, Ordering::Relaxed);
                }
                rows[c].store((to - from) as u32, Ordering::Relaxed);
            });
        Ok(())
    }

    /// One depth on the dense sets: the positions added, the phase-1
    /// leaves and the phase-1 seconds. Afterwards `x` holds the new set.
    fn dense_step(
        &self,
        d: &mut Dense,
        root: Node,
        n: usize,
        with_phase1: bool,
        stop: &AtomicBool,
    ) -> (u64, u64, f64) {
        let t = &self.t;
        let xs = d.x.cells();
        let (x_flags, y_flags) = (&d.x_flags, &d.y_flags);
        let (x_rows, y_rows) = (&d.x_rows, &d.y_rows);
        let added: u64 = d
            .y
            .cells_mut()
            .par_chunks_mut(N_UD_EDGES)
            .enumerate()
            .map(|(target, dst)| {
                if stop.load(Ordering::Relaxed) {
                    return 0;
                }
                let own = load_flags(x_flags, target);
                let mut any = own.iter().any(|&w| w != 0);
                let mut sources = [(0usize, [0u64; FLAG_WORDS]); 10];
                for (i, mv) in t.moves.iter().enumerate() {
                    let c = mv.corner_src[target] as usize;
                    let f = load_flags(x_flags, c);
                    any |= f.iter().any(|&w| w != 0);
                    sources[i] = (c, f);
                }
                let before = x_rows[target].load(Ordering::Relaxed);
                if !any {
                    // Nothing near changed: the row is as it was, in both sets.
                    for w in 0..FLAG_WORDS {
                        y_flags[target * FLAG_WORDS + w].store(0, Ordering::Relaxed);
                    }
                    y_rows[target].store(before, Ordering::Relaxed);
                    return 0;
                }
                // The blocks that changed last step are stale here.
                let row = &xs[target * N_UD_EDGES..][..N_UD_EDGES];
                for (w, &word) in own.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let b = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let r = b * BLOCK..(b + 1) * BLOCK;
                        dst[r.clone()].copy_from_slice(&row[r]);
                    }
                }
                let mut gained = [0u64; FLAG_WORDS];
                let mut added = 0u64;
                if before < FULL_ROW {
                    for (i, mv) in t.moves.iter().enumerate() {
                        let (c, f) = &sources[i];
                        if f.iter().all(|&w| w == 0) {
                            continue;
                        }
                        let src = &xs[c * N_UD_EDGES..][..N_UD_EDGES];
                        let parity = t.corner_parity[*c] as u32;
                        // Mostly empty cells: test each.
                        let sparse = (x_rows[*c].load(Ordering::Relaxed) as usize) < N_UD_EDGES / 8;
                        let edges = &mv.edges;
                        match (&mv.slice_sets, sparse) {
                            (Some(sets), true) => {
                                expand_row::<true, true>(src, f, edges, sets, parity, dst)
                            }
                            (Some(sets), false) => {
                                expand_row::<true, false>(src, f, edges, sets, parity, dst)
                            }
                            (None, true) => {
                                expand_row::<false, true>(src, f, edges, &[], parity, dst)
                            }
                            (None, false) => {
                                expand_row::<false, false>(src, f, edges, &[], parity, dst)
                            }
                        }
                    }
                    added = row_gain(dst, row, &mut gained);
                }
                for w in 0..FLAG_WORDS {
                    y_flags[target * FLAG_WORDS + w].store(gained[w], Ordering::Relaxed);
                }
                y_rows[target].store(before + added as u32, Ordering::Relaxed);
                added
            })
            .sum();
        let t1 = Instant::now();
        let mut leaves = 0u64;
        let mut from_leaves = 0u64;
        if with_phase1 && !stop.load(Ordering::Relaxed) {
            let cells = d.y.atomic();
            let sinks = self.phase1(root, n, stop, || DenseSink {
                cells,
                flags: y_flags,
                rows: y_rows,
                slice_bit: &t.slice_bit,
                leaves: 0,
                added: 0,
            });
            for s in sinks {
                leaves += s.leaves;
                from_leaves += s.added;
            }
        }
        let p1_seconds = t1.elapsed().as_secs_f64();
        std::mem::swap(&mut d.x, &mut d.y);
        std::mem::swap(&mut d.x_flags, &mut d.y_flags);
        std::mem::swap(&mut d.x_rows, &mut d.y_rows);
        (added + from_leaves, leaves, p1_seconds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::FaceTurn;
    use twistor_core::random::SeededRng;

    #[test]
    fn edge4_is_a_bijection_and_merges_to_ud_edges() {
        let mut c = CubieCube::SOLVED;
        for first in [0u8, 4, 8] {
            for x in 0..N_EDGE4 as u16 {
                set_edge4(&mut c, first, x);
                assert_eq!(edge4(&c, first), x);
            }
        }
        assert_eq!(edge4(&CubieCube::SOLVED, 8) % 24, 0);
        let t = CosetTables::build(CoordTables::get());
        let mut rng = SeededRng::new(11);
        for _ in 0..500 {
            let g = CubieCube::random_in_phase2(&mut rng, 30);
            let u = edge4(&g, 0) as usize;
            let d = edge4(&g, 4) as usize;
            assert_eq!(t.merge[u * 24 + d % 24], coord::ud_edges(&g));
            // And the move tables follow the cubies.
            let m = rng.below(18);
            let h = g.apply_move(FaceTurn::from_index(m));
            assert_eq!(t.u_move[u * 18 + m], edge4(&h, 0));
            assert_eq!(t.d_move[d * 18 + m], edge4(&h, 4));
        }
    }

    /// The cosets near H have the published phase-1 distribution, and the
    /// projections never exceed their distances.
    #[test]
    fn near_cosets_have_the_known_distribution() {
        let c = CoordTables::get();
        let b = Phase1Bound::build(c, None);
        let mut counts = [0u64; NEAR + 1];
        for &e in &b.near.slots {
            if e != 0 {
                let d = (e & 0xFF) as usize;
                counts[d] += 1;
                let index = (e >> 8) - 1;
                let id = CosetId::from_index(index).unwrap();
                let (tw, fl, sl) = (id.twist as usize, id.flip as usize, id.slice as usize);
                assert_eq!(b.near.get(tw, fl, sl), Some(d as u8));
                assert!(b.projected(tw, fl, sl) as usize <= d);
            }
        }
        assert_eq!(counts, [1, 4, 50, 592, 7156]);
        let far = CosetId::of(&CubieCube::from_moves(
            &"R U F D L B R".parse::<crate::moves::MoveSeq>().unwrap().0,
        ));
        let (tw, fl, sl) = (far.twist as usize, far.flip as usize, far.slice as usize);
        assert_eq!(b.near.get(tw, fl, sl), None);
    }

    /// The dense move data (rows, edges with parity, slice sets) against
    /// cubies.
    #[test]
    fn dense_moves_follow_cubies() {
        let c = CoordTables::get();
        let t = CosetTables::build(c);
        let mut rng = SeededRng::new(5);
        for _ in 0..300 {
            let g = CubieCube::random_in_phase2(&mut rng, 30);
            let (co, e, p) = (
                coord::corners(&g) as usize,
                coord::ud_edges(&g) as usize,
                coord::slice_sorted(&g) as usize,
            );
            for (i, &m) in PHASE2_MOVES.iter().enumerate() {
                let h = g.apply_move(FaceTurn::from_index(m as usize));
                let mv = &t.moves[i];
                let (co2, e2, p2) = (
                    coord::corners(&h) as usize,
                    coord::ud_edges(&h) as usize,
                    coord::slice_sorted(&h) as usize,
                );
                assert_eq!(mv.corner_src[co2] as usize, co);
                assert_eq!((mv.edges[e] & 0xFFFF) as usize, e2);
                let q = ((mv.edges[e] >> 16) ^ t.corner_parity[co] as u32) as usize;
                let set = 1u16 << t.slice_bit[p];
                let image = mv
                    .slice_sets
                    .as_ref()
                    .map_or(set, |s| s[q << 12 | set as usize]);
                assert_eq!(image, 1 << t.slice_bit[p2]);
            }
        }
    }

    fn solve(s: &CosetSolver, g: &CubieCube, o: &CosetOptions) -> CosetReport {
        s.solve(g, o, &mut |_| {}, &AtomicBool::new(false)).unwrap()
    }

    /// The dense sets (forced from depth 1; the pages touched are few)
    /// give what the sorted lists give.
    #[test]
    fn dense_sets_agree_with_sparse_lists() {
        let solver = CosetSolver::compact();
        for moves in ["", "R U F", "F' L D2 B"] {
            let g = CubieCube::from_moves(&moves.parse::<crate::moves::MoveSeq>().unwrap().0);
            let sparse = CosetOptions {
                phase1_depth: 5,
                max_depth: 6,
                threads: 2,
                ..Default::default()
            };
            let dense = CosetOptions {
                sparse_limit: 0,
                ..sparse.clone()
            };
            let a = solve(&solver, &g, &sparse);
            let b = solve(&solver, &g, &dense);
            assert_eq!(a.dense_from, None);
            assert_eq!(b.dense_from, Some(1));
            assert_eq!(a.counts, b.counts, "{moves}");
            assert_eq!(a.phase1_leaves, b.phase1_leaves);
            assert!(a.found() > 100, "{moves}: {:?}", a.counts);
        }
    }

    /// A workspace's bitmaps, reused, give what fresh lists give.
    #[test]
    fn reused_workspace_gives_the_same_counts() {
        let solver = CosetSolver::compact();
        let stop = AtomicBool::new(false);
        let dense = CosetOptions {
            phase1_depth: 5,
            max_depth: 5,
            sparse_limit: 0,
            threads: 2,
            ..Default::default()
        };
        let mut ws = CosetWorkspace::new();
        assert_eq!(ws.reserved_bytes(), 0);
        let mut reports = Vec::new();
        for moves in ["R U F", "", "D' B L2", "R U F"] {
            let g = CubieCube::from_moves(&moves.parse::<crate::moves::MoveSeq>().unwrap().0);
            let again = solver
                .solve_in(&mut ws, &g, &dense, &mut |_| {}, &stop)
                .unwrap();
            assert_eq!(ws.reserved_bytes(), CosetSolver::DENSE_BYTES);
            let fresh = solve(
                &solver,
                &g,
                &CosetOptions {
                    sparse_limit: u64::MAX,
                    ..dense.clone()
                },
            );
            assert_eq!(fresh.dense_from, None);
            assert_eq!(again.dense_from, Some(1));
            assert_eq!(again.counts, fresh.counts, "{moves}");
            reports.push(again.counts);
        }
        assert_eq!(reports[0], reports[3]);
        assert_ne!(reports[0], reports[1]);
        ws.release();
        assert_eq!(ws.reserved_bytes(), 0);
    }

    /// Conjugating the cube itself by a symmetry that keeps the UD axis
    /// (mirrors included) gives the coset `CosetId::conjugate` names, with
    /// the same counts.
    #[test]
    fn conjugated_cubes_have_the_same_counts() {
        let solver = CosetSolver::compact();
        let sy = Symmetries::get();
        let g = CubieCube::from_moves(&"L F' D2 R B".parse::<crate::moves::MoveSeq>().unwrap().0);
        let options = CosetOptions {
            phase1_depth: 8,
            max_depth: 8,
            ..Default::default()
        };
        let base = solve(&solver, &g, &options);
        assert!(base.found() > 500, "{:?}", base.counts);
        for s in [3, 6, 9, 12] {
            let h = sy.conjugate(&g, s);
            assert_eq!(CosetId::of(&h), CosetId::of(&g).conjugate(s));
            assert_eq!(
                solve(&solver, &h, &options).counts,
                base.counts,
                "symmetry {s}"
            );
        }
    }
}
