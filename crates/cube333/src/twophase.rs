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
//! The solver does no I/O; tables come from [`TwoPhaseTables::load`].

use std::time::{Duration, Instant};

use thiserror::Error;

use crate::coord::{self, N_FLIP, N_TWIST, N_UD_EDGES};
use crate::cubie::CubieCube;
use crate::moves::{FaceTurn, MoveSeq, N_MOVES};
use crate::prune::{phase1_table, phase2_table, NibbleTable};
use crate::symmetry::Symmetries;
use crate::tables::CoordTables;
use twistor_core::store::{StoreEvent, TableStore};

/// Longest phase-1 and phase-2 sequences a search can hold.
const MAX_LEN: usize = 32;

/// The tables of the two-phase solver (about 126 MB of pruning tables,
/// cached on disk, plus a few MB computed at start-up).
pub struct TwoPhaseTables {
    pub(crate) coord: &'static CoordTables,
    pub(crate) phase1: NibbleTable,
    pub(crate) phase2: NibbleTable,
}

impl TwoPhaseTables {
    /// Loads the pruning tables from the cache, or builds (and caches) them.
    pub fn load(store: &dyn TableStore, report: &mut dyn FnMut(StoreEvent)) -> TwoPhaseTables {
        let coord = CoordTables::get();
        let phase1 = phase1_table(store, report);
        let phase2 = phase2_table(store, report);
        TwoPhaseTables {
            coord,
            phase1,
            phase2,
        }
    }

    /// Size of the pruning tables in bytes.
    pub fn size_bytes(&self) -> usize {
        self.phase1.size_bytes() + self.phase2.size_bytes()
    }

    /// Index in the phase-1 table of (twist, flip, slice).
    #[inline(always)]
    fn phase1_index(&self, twist: usize, flip: usize, slice: usize) -> usize {
        let t = self.coord;
        let p = t.flipslice.packed[slice * N_FLIP + flip] as usize;
        (p >> 4) * N_TWIST + t.twist_conj[twist * 16 + (p & 15)] as usize
    }

    /// Exact phase-1 distance of (twist, flip, slice).
    #[inline]
    fn phase1_depth(&self, twist: usize, flip: usize, slice: usize) -> u8 {
        self.phase1.get(self.phase1_index(twist, flip, slice))
    }

    /// Lower bound on the phase-2 distance.
    #[inline]
    fn phase2_bound(&self, corners: usize, ud_edges: usize, slice_perm: usize) -> u8 {
        let t = self.coord;
        let p = t.corner.packed[corners] as usize;
        let a = self
            .phase2
            .get((p >> 4) * N_UD_EDGES + t.ud_edges_conj[ud_edges * 16 + (p & 15)] as usize);
        let b = t.corner_slice_depth[corners * 24 + slice_perm];
        a.max(b)
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
}

impl Default for TwoPhaseOptions {
    fn default() -> Self {
        TwoPhaseOptions {
            max_length: 21,
            probe_limit: None,
            time_limit: None,
            all_directions: true,
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
    len1: usize,
    bound: usize,
    found: Option<usize>,
    probes: u64,
    nodes1: u64,
    nodes2: u64,
    probe_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

#[inline]
fn face_allowed(m: usize, last_face: usize) -> bool {
    let f = m / 3;
    // No face twice in a row; opposite faces only in URF-before-DLB order.
    !(f == last_face || f + 3 == last_face)
}

#[inline]
fn is_phase2_move(m: usize) -> bool {
    // U and D turns, and half turns of the others.
    let f = m / 3;
    f == 0 || f == 3 || m % 3 == 1
}

impl<'a> Search<'a> {
    fn phase1(
        &mut self,
        twist: usize,
        flip: usize,
        ss: usize,
        depth: usize,
        last_face: usize,
    ) -> bool {
        let remaining = self.len1 - depth;
        if remaining == 0 {
            return self.start_phase2(last_face);
        }
        self.nodes1 += 1;
        let c = self.t.coord;
        // Children first, table reads in a tight loop of their own so the
        // processor overlaps their cache misses, then the recursion.
        let mut kids = [(0u8, 0u16, 0u16, 0u16); N_MOVES];
        let mut idx = [0usize; N_MOVES];
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
            let s2 = c.slice_sorted_move[ss * N_MOVES + m];
            kids[n] = (m as u8, tw, fl, s2);
            idx[n] = self
                .t
                .phase1_index(tw as usize, fl as usize, s2 as usize / 24);
            n += 1;
        }
        let mut h = [0u8; N_MOVES];
        for i in 0..n {
            h[i] = self.t.phase1.get(idx[i]);
        }
        for i in 0..n {
            if h[i] as usize >= remaining {
                continue;
            }
            let (m, tw, fl, s2) = kids[i];
            self.moves1[depth] = m;
            if self.valid > depth {
                self.valid = depth;
            }
            if self.phase1(
                tw as usize,
                fl as usize,
                s2 as usize,
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

    fn start_phase2(&mut self, last_face: usize) -> bool {
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
        let cube = &self.cubes[self.len1];
        let corners = coord::corners(cube) as usize;
        let ud = coord::ud_edges(cube) as usize;
        let sp = coord::slice_sorted(cube) as usize;
        debug_assert!(sp < 24);
        let max2 = self.bound - self.len1;
        // The small (corners, slice) table first: it often decides alone,
        // and the big table read is a cache miss.
        if self.t.coord.corner_slice_depth[corners * 24 + sp] as usize > max2 {
            return false;
        }
        let h = self.t.phase2_bound(corners, ud, sp) as usize;
        for len2 in h..=max2 {
            if self.phase2(corners, ud, sp, 0, len2, last_face) {
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
        last_face: usize,
    ) -> bool {
        let remaining = len2 - depth;
        if remaining == 0 {
            return corners == 0 && ud == 0 && sp == 0;
        }
        self.nodes2 += 1;
        let c = self.t.coord;
        for &m in &crate::tables::PHASE2_MOVES {
            let m = m as usize;
            if !face_allowed(m, last_face) {
                continue;
            }
            let c2 = c.corners_move[corners * N_MOVES + m] as usize;
            let u2 = c.ud_edges_move[ud * N_MOVES + m] as usize;
            let s2 = c.slice_sorted_move[sp * N_MOVES + m] as usize;
            if self.t.phase2_bound(c2, u2, s2) as usize >= remaining {
                continue;
            }
            self.moves2[depth] = m as u8;
            if self.phase2(c2, u2, s2, depth + 1, len2, m / 3) {
                return true;
            }
        }
        false
    }

    /// The solution found, in the original cube's frame.
    fn solution(&self, len2: usize) -> MoveSeq {
        let sy = Symmetries::get();
        let back = sy.inv[self.dir.sym] as usize;
        let mut v: Vec<FaceTurn> = self.moves1[..self.len1]
            .iter()
            .chain(&self.moves2[..len2])
            .map(|&m| FaceTurn::from_index(sy.conj_move[back][m as usize] as usize))
            .collect();
        if self.dir.inverse {
            v = v.iter().rev().map(|m| m.inverse()).collect();
        }
        MoveSeq(v)
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

/// Solves `cube` with at most `opts.max_length` moves.
pub fn solve(
    tables: &TwoPhaseTables,
    cube: &CubieCube,
    opts: &TwoPhaseOptions,
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
            let ss = coord::slice_sorted(&dir.cube) as usize;
            let h = tables.phase1_depth(twist, flip, ss / 24) as usize;
            let mut cubes = [CubieCube::SOLVED; MAX_LEN + 1];
            cubes[0] = dir.cube;
            let s = Search {
                t: tables,
                dir,
                moves1: [0; MAX_LEN],
                moves2: [0; MAX_LEN],
                cubes,
                valid: 0,
                len1: 0,
                bound,
                found: None,
                probes: 0,
                nodes1: 0,
                nodes2: 0,
                probe_limit: opts.probe_limit.unwrap_or(u64::MAX),
                deadline,
                stopped: false,
            };
            (s, [twist, flip, ss], h)
        })
        .collect();
    let mut probes = 0u64;
    for len1 in 0..=bound {
        for (s, [twist, flip, ss], h) in searches.iter_mut() {
            if *h > len1 {
                continue;
            }
            s.len1 = len1;
            s.probe_limit = opts
                .probe_limit
                .map_or(u64::MAX, |p| p.saturating_sub(probes) + s.probes);
            let before = s.probes;
            // At length 0 there is no previous face; 6 is none of them.
            s.phase1(*twist, *flip, *ss, 0, 6);
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

    #[test]
    fn canonical_order_forbids_same_and_reversed_opposite_faces() {
        assert!(!face_allowed(0, 0));
        assert!(face_allowed(9, 0)); // D after U
        assert!(!face_allowed(0, 3)); // U after D
        assert!(face_allowed(0, 6));
        assert!(is_phase2_move(4) && !is_phase2_move(3) && is_phase2_move(10));
    }
}
