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
//! The solver does no I/O; tables come in three sizes:
//! - [`TwoPhaseTables::load`]: the exact, symmetry-reduced phase-1 table
//!   and a large phase-2 table, 126 MB through the store; the fastest.
//! - [`TwoPhaseTables::medium`]: the compact tables below, with phase 1's
//!   (twist, slice) projection refined by the flips of the edges in the
//!   slice, and phase 2's four projections replaced by two that each pair
//!   the slice permutation with a combination: 6.4 MB of pruning tables
//!   through the store (built in under a second), a solve about 0.6 of
//!   min2phase's.
//! - [`TwoPhaseTables::compact`]: min2phase's projections, reduced by
//!   symmetry: 1.3 MB with their move tables, 4 bits an entry, built in
//!   memory in 0.2 s; the maximum of four lower bounds in phase 1 and of
//!   four in phase 2, and of four more for the inverse cube.

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::coord::{self, N_CORNERS, N_FLIP, N_SLICE, N_TWIST, N_UD_EDGES};
use crate::cubie::CubieCube;
use crate::moves::{FaceTurn, MoveSeq, N_MOVES};
use crate::prune::{
    build_sym_nibbles, phase1_table, phase2_table, stored_sym_nibbles, NibbleTable, SymSpace,
};
use crate::symmetry::Symmetries;
use crate::tables::{CoordTables, N_CORNER_CLASS};
use twistor_core::store::{PayloadLen, StoreEvent, TableKey, TableStore};

mod compact;
mod search;

use compact::*;
pub(crate) use compact::{bfs, binomial};
use search::*;
pub(crate) use search::{face_allowed, NO_FACE};

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

/// The three sizes of [`TwoPhaseTables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoPhaseTableKind {
    /// [`TwoPhaseTables::compact`].
    Compact,
    /// [`TwoPhaseTables::medium`].
    Medium,
    /// [`TwoPhaseTables::load`].
    Full,
}

enum Prune {
    Full {
        phase1: NibbleTable,
        phase2: NibbleTable,
    },
    Compact(Box<CompactPrune>),
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

    /// The compact tables, built in memory (1.3 MB of pruning tables in
    /// about 0.06 s on two cores): for a few solves on a machine without
    /// the larger tables, as min2phase starts.
    pub fn compact() -> TwoPhaseTables {
        TwoPhaseTables::of_set(CompactSet::Built)
    }

    /// The medium tables: the compact phase-1 tables, but for the (twist
    /// class, slice flips) table (1.3 MB), and two larger phase-2 tables
    /// (4.6 MB), all loaded from the store, or built (under a second on
    /// two cores) and kept there, so that a process on them starts
    /// without a breadth-first search.
    pub fn medium(store: &dyn TableStore, report: &mut dyn FnMut(StoreEvent)) -> TwoPhaseTables {
        TwoPhaseTables::of_set(CompactSet::Medium(StoreSource { store, report }))
    }

    /// The compact tables read from the store, or built (as
    /// [`TwoPhaseTables::compact`] builds them) and kept there: a later
    /// process starts without their breadth-first searches. Only a copy
    /// rejected or a failed save is reported.
    pub fn compact_kept(
        store: &dyn TableStore,
        report: &mut dyn FnMut(StoreEvent),
    ) -> TwoPhaseTables {
        TwoPhaseTables::of_set(CompactSet::Kept(StoreSource { store, report }))
    }

    /// The compact or medium tables, as `set` says.
    fn of_set(set: CompactSet) -> TwoPhaseTables {
        let coord = CoordTables::get();
        TwoPhaseTables {
            coord,
            prune: Prune::Compact(Box::new(CompactPrune::build(coord, set))),
        }
    }

    /// Whether the store has sound copies of the full tables (loading
    /// them then takes a fraction of a second).
    pub fn full_tables_stored(store: &dyn TableStore) -> bool {
        crate::prune::full_tables_stored(store)
    }

    /// Whether the store has sound copies of the medium tables' phase-2
    /// tables (the rest are built in memory in a tenth of a second).
    pub fn medium_tables_stored(store: &dyn TableStore) -> bool {
        compact::medium_tables_stored(store)
    }

    /// Which of the three sizes these tables are.
    pub fn kind(&self) -> TwoPhaseTableKind {
        match &self.prune {
            Prune::Full { .. } => TwoPhaseTableKind::Full,
            Prune::Compact(c) => match c.phase2 {
                Phase2Tables::Projections(_) => TwoPhaseTableKind::Compact,
                Phase2Tables::Paired(_) => TwoPhaseTableKind::Medium,
            },
        }
    }

    /// Size of the pruning tables in bytes.
    pub fn size_bytes(&self) -> usize {
        let c = match &self.prune {
            Prune::Full { phase1, phase2 } => return phase1.size_bytes() + phase2.size_bytes(),
            Prune::Compact(c) => c,
        };
        let p = &c.phase1;
        let twist_slice = match &p.twist_slice {
            TwistSlice::Slice(t) => t.bytes(),
            TwistSlice::SliceFlips(f) => {
                f.twist_table.size_bytes() + 2 * (f.moves.len() + f.conj.len())
            }
        };
        let phase2 = match &c.phase2 {
            Phase2Tables::Projections(p) => {
                p.ud_slice.bytes()
                    + p.ud_corner_comb.bytes()
                    + p.corner_edge_comb.bytes()
                    + p.corner_slice.bytes()
            }
            Phase2Tables::Paired(p) => {
                p.corner_slice_edges.size_bytes() + p.ud_slice_corners.size_bytes()
            }
        };
        twist_slice
            + p.slice_flip.bytes()
            + p.twist_flip.bytes()
            + 2 * (p.twist.packed.len() + p.flip.packed.len())
            + 2 * (p.twist_move.len() + p.flip_move.len())
            + 2 * (p.slice_conj.len() + p.flip_raw.len())
            + phase2
            + c.corner_comb.len()
            + c.edge_comb.len()
            + std::mem::size_of::<u32>() * c.ud_class.len()
            + c.corner_comb_conj.len()
            + c.edge_comb_conj.len()
            + c.slice_perm_conj.len()
            + 4 * (c.corner_class_move.len() + c.ud_class_move.len())
            + 4 * (c.corner_class_inv.len() + c.ud_class_inv.len())
    }

    /// Index in the phase-1 table of (twist, flip, slice).
    #[inline(always)]
    fn phase1_index(&self, twist: usize, flip: usize, slice: usize) -> usize {
        let t = self.coord;
        let p = t.flipslice().packed[slice * N_FLIP + flip] as usize;
        (p >> 4) * N_TWIST + t.twist_conj[twist * 16 + (p & 15)] as usize
    }

    /// Phase-1 distance of a cube's coordinates: exact with the full
    /// tables, a lower bound with the others, which may stop reading
    /// their tables once the bound is past `limit`.
    #[inline]
    fn phase1_depth(&self, c: &Phase1Coords, limit: usize) -> u8 {
        match &self.prune {
            Prune::Full { phase1, .. } => phase1.get(self.phase1_index(c.twist, c.flip, c.slice)),
            Prune::Compact(cp) => cp.phase1_bound(self.coord, c, limit),
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
                    .max(t.corner_slice_depth()[corners * 24 + slice_perm])
            }
            Prune::Compact(c) => c.phase2_bound(c.phase2_at(t, corners, ud_edges, slice_perm)),
        }
    }
}

/// Phase 1's coordinates of a cube, as a search starts from them.
#[derive(Clone, Copy)]
pub(super) struct Phase1Coords {
    twist: usize,
    flip: usize,
    slice: usize,
    /// The slice with the flips of the edges in it (the medium tables').
    slice_flips: usize,
}

impl Phase1Coords {
    fn of(cube: &CubieCube) -> Phase1Coords {
        let slice_flips = compact::slice_flips(cube);
        Phase1Coords {
            twist: coord::twist(cube) as usize,
            flip: coord::flip(cube) as usize,
            slice: slice_flips / 16,
            slice_flips,
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
    let mut searches: Vec<(Search, Phase1Coords, usize)> = directions(cube, opts.all_directions)
        .into_iter()
        .map(|dir| {
            let coords = Phase1Coords::of(&dir.cube);
            let h = tables.phase1_depth(&coords, usize::MAX) as usize;
            // The probe limit is set before each length (below).
            let mut s = Search::new(tables, dir, bound, phase2_cap);
            s.deadline = deadline;
            (s, coords, h)
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
            for (s, coords, h) in searches.iter_mut() {
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
                    s.start_phase1(coords);
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
mod tests;
