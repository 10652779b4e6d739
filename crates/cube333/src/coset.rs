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

mod sets;
mod solver;
mod tables;

pub use sets::CosetWorkspace;
use sets::*;
use tables::*;

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
#[derive(Debug, Error)]
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
    #[error("could not reserve {bytes} bytes")]
    Allocation {
        /// Bytes asked for.
        bytes: u64,
        /// The system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The worker threads could not be started.
    #[error("could not start {threads} worker threads")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why not.
        #[source]
        source: rayon::ThreadPoolBuildError,
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

#[cfg(test)]
mod tests;
