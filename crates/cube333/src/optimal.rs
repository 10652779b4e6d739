//! The optimal solver: IDA* on the whole cube, bounded below by a
//! phase-1-style pruning table probed from the three axes (Reid's and
//! Kociemba's method), and from the three axes of the inverse cube
//! (Rokicki's nxopt).
//!
//! The `Huge` table is Kociemba's: UD-slice-sorted classes under the 16
//! symmetries (788) × twist (2187) × flip (2048) = 3,529,433,088 entries
//! at 2 bits (distance mod 3; the search tracks exact distances from the
//! root, where they are recovered by descending the table), 882 MB. The
//! `Small` kind reuses the phase-1 table (70 MB) — much weaker, for tests
//! and small machines.
//!
//! A table entry of a cube seen from an axis bounds the distance to
//! solved; the maximum over the three axes prunes, plus one when all three
//! are equal (a solution's last move keeps its own axis's coset). At a
//! leaf all three bounds are zero, so every edge is home and oriented and
//! the corners are twisted right: only the corner permutation is left to
//! check.
//!
//! The inverse cube is as far from solved, but a move after the cube is a
//! move *before* its inverse, which can change the inverse's entry by more
//! than one: the mod-3 trick does not follow it. So the inverse is bounded
//! by absolute values instead: a bit an entry of the huge table's layout
//! saying "at least 11" (441 MB), and the phase-1 table (70 MB, exact).
//! Most of the search's probes are at nodes 10 or 11 moves from their
//! depth, where these bounds cut. An inverse axis whose bound equals the
//! moves left must come nearer at every move, so its own U and D turns,
//! which leave its coordinates as they are, are skipped (nxopt's axis
//! mask). Together: 1.39 GB, within vcube's smallest table (1.33 GiB).
//!
//! Symmetric cubes (the superflip has all 48 symmetries) search only one
//! first move of each class of moves the cube's symmetries exchange, and
//! so on down while the prefix stays symmetric.
//!
//! One file, though long: the huge table's index, its build and the
//! search that probes it from three axes share one coordinate layout.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::cache::{load_or_build, table_key, TableMemory};
use crate::coord::{self, N_FLIP, N_TWIST};
use crate::cubie::CubieCube;
use crate::moves::{FaceTurn, MoveSeq, N_MOVES};
use crate::prune::{phase1_table, NibbleTable};
use crate::symmetry::{Symmetries, N_SYM};
use crate::tables::{CoordTables, N_SLICE_SORTED_CLASS};
use twistor_core::store::{PayloadLen, StoreEvent, TableKey, TableStore};

/// Which pruning table the optimal solver uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimalTableKind {
    /// Kociemba's 3,529,433,088-entry table (882 MB), with a bit an entry
    /// (441 MB) and the phase-1 table (70 MB) for the inverse: 1.39 GB.
    Huge,
    /// The phase-1 table (70 MB): slow, for tests and small machines.
    Small,
}

/// Where a search stands, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimalProgress {
    /// The depth being searched.
    pub depth: u8,
    /// Whether that depth is finished (without a solution unless it was
    /// the last).
    pub depth_done: bool,
    /// Three-move prefixes of this depth searched, and how many there are.
    pub prefixes_done: usize,
    /// Prefixes at this depth.
    pub prefixes: usize,
    /// Nodes visited so far, over all depths.
    pub nodes: u64,
}

/// A progress callback; called from the search's threads.
pub type ProgressFn = std::sync::Arc<dyn Fn(OptimalProgress) + Send + Sync>;

/// Options of an optimal search.
#[derive(Clone, Default)]
pub struct OptimalOptions {
    /// Do not use the cube's symmetries to skip equivalent first moves.
    pub no_symmetry_reduction: bool,
    /// Search on the calling thread only.
    pub single_thread: bool,
    /// Called after each searched prefix and each completed depth.
    pub progress: Option<ProgressFn>,
    /// Raised by the caller to stop the search (it ends within one
    /// prefix's search on each thread).
    pub stop: Option<std::sync::Arc<AtomicBool>>,
}

impl std::fmt::Debug for OptimalOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptimalOptions")
            .field("no_symmetry_reduction", &self.no_symmetry_reduction)
            .field("single_thread", &self.single_thread)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// An optimal solution.
#[derive(Clone, Debug)]
pub struct OptimalSolution {
    /// The moves.
    pub moves: MoveSeq,
    /// Nodes visited.
    pub nodes: u64,
    /// Whether the search was stopped (then `moves` is empty).
    pub stopped: bool,
}

/// The huge table: 2 bits an entry, distance mod 3.
pub struct HugeTable {
    bytes: TableMemory,
}

/// Entries of the huge table.
pub const N_HUGE: usize = N_SLICE_SORTED_CLASS * N_TWIST * N_FLIP;

impl HugeTable {
    #[inline]
    fn get(&self, i: usize) -> u8 {
        (self.bytes.as_slice()[i >> 2] >> ((i & 3) * 2)) & 3
    }
}

/// One bit an entry of the huge table's layout: set where the entry's
/// distance is at least [`FAR`]. The huge table's entries are known only
/// modulo 3, which the search makes exact by following a cube's bound from
/// the root, one move at a time; the inverse cube changes by a move done
/// *before* it, which can change its bound by more than one, so its
/// bound is read here instead.
pub struct FarBits {
    bytes: TableMemory,
}

/// The distance [`FarBits`] marks: 41% of the huge table's entries are at
/// least 11 away, and most of the search's probes are at nodes with 10 or
/// 11 moves left, where this bound prunes.
const FAR: u8 = 11;

impl FarBits {
    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        self.bytes.as_slice()[i >> 3] >> (i & 7) & 1 == 1
    }
}

enum Table {
    /// The huge table, its far bits and the phase-1 table: the last two
    /// bound the inverse cube.
    Huge(HugeTable, FarBits, NibbleTable),
    Small(NibbleTable),
}

/// The optimal solver with its table.
pub struct OptimalSolver {
    table: Table,
    coord: &'static CoordTables,
    inverse: InverseTables,
    /// `slice_info[ss]`: the huge table's class of slice-sorted `ss`
    /// (bits 15..), the symmetry to it (bits 11..15) and the flip mask that
    /// symmetry's conjugation needs (bits 0..11), read at once in place of
    /// three dependent reads on every probe.
    slice_info: Vec<u32>,
}

/// Coordinates of the cube seen from one axis, with the exact bound.
#[derive(Clone, Copy, Debug)]
struct Axis {
    twist: u16,
    flip: u16,
    ss: u16,
    depth: u8,
}

/// The cube's inverse seen from one axis, a byte a slot: corners
/// `4 · piece + twist`, edges `2 · piece + flip`. A move after the cube is
/// a move before its inverse, and a move before a cube relabels its
/// pieces: one lookup a byte ([`InverseTables`]).
#[derive(Clone, Copy, Debug)]
struct InverseAxis {
    corners: [u8; 8],
    edges: [u8; 12],
}

impl InverseAxis {
    fn of(c: &CubieCube) -> InverseAxis {
        InverseAxis {
            corners: std::array::from_fn(|i| 4 * c.cp[i] + c.co[i]),
            edges: std::array::from_fn(|i| 2 * c.ep[i] + c.eo[i]),
        }
    }

    /// The twist, flip and slice-sorted coordinates.
    #[inline]
    fn coords(&self) -> (usize, usize, usize) {
        let twist = self.corners[..7]
            .iter()
            .fold(0usize, |a, &b| a * 3 + (b & 3) as usize);
        let flip = self.edges[..11]
            .iter()
            .fold(0usize, |a, &b| a * 2 + (b & 1) as usize);
        let ss = coord::slice_sorted_of(&self.edges.map(|b| b >> 1));
        (twist, flip, ss as usize)
    }
}

/// Moves done before an [`InverseAxis`].
struct InverseTables {
    /// `corner[p][b]`: corner byte `b` after move `p` is done before it.
    corner: [[u8; 32]; N_MOVES],
    /// `edge[p][b]`: edge byte `b` after move `p` is done before it.
    edge: [[u8; 24]; N_MOVES],
    /// `premove[k][m]`: the move done before axis `k`'s inverse when the
    /// search turns `m` (the inverse of `m`, seen from the axis).
    premove: [[u8; N_MOVES]; 3],
    /// `keeps[k]`: the moves (bit `m`) whose premove is axis `k`'s own U or
    /// D turn, which leaves that axis's inverse coordinates as they were.
    keeps: [u32; 3],
}

impl InverseTables {
    fn new() -> InverseTables {
        let sy = Symmetries::get();
        let mut corner = [[0u8; 32]; N_MOVES];
        let mut edge = [[0u8; 24]; N_MOVES];
        for (p, a) in FaceTurn::all().map(FaceTurn::cubie).enumerate() {
            // (a · x) holds a.cp[q] with twist a.co[q] + o where x held q, o.
            for q in 0..8 {
                for o in 0..3 {
                    corner[p][4 * q + o] = 4 * a.cp[q] + (a.co[q] + o as u8) % 3;
                }
            }
            for q in 0..12 {
                for o in 0..2 {
                    edge[p][2 * q + o] = 2 * a.ep[q] + (a.eo[q] ^ o as u8);
                }
            }
        }
        let premove = std::array::from_fn(|k| {
            std::array::from_fn(|m| sy.conj_move[16 * k][3 * (m / 3) + 2 - m % 3])
        });
        let keeps = std::array::from_fn(|k| {
            (0..N_MOVES)
                .filter(|&m| matches!(premove[k][m] / 3, 0 | 3))
                .fold(0, |bits, m| bits | 1 << m)
        });
        InverseTables {
            corner,
            edge,
            premove,
            keeps,
        }
    }

    /// Axis `k`'s inverse after the search turns `m`.
    #[inline(always)]
    fn step(&self, x: &InverseAxis, k: usize, m: usize) -> InverseAxis {
        let p = self.premove[k][m] as usize;
        let (c, e) = (&self.corner[p], &self.edge[p]);
        InverseAxis {
            corners: x.corners.map(|b| c[b as usize]),
            edges: x.edges.map(|b| e[b as usize]),
        }
    }

    fn step_all(&self, x: &[InverseAxis; 3], m: usize) -> [InverseAxis; 3] {
        std::array::from_fn(|k| self.step(&x[k], k, m))
    }
}

/// The cache identity of the huge table's [`FarBits`].
fn far_bits_id() -> TableKey {
    table_key(
        "optimal-slicesorted-twist-flip-far",
        [
            N_SLICE_SORTED_CLASS as u64,
            N_TWIST as u64,
            N_FLIP as u64,
            FAR as u64,
        ],
    )
}

/// The cache identity of the huge table.
fn huge_table_id() -> TableKey {
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

impl OptimalSolver {
    /// Loads the table from the cache or builds it.
    pub fn load(
        kind: OptimalTableKind,
        store: &dyn TableStore,
        report: &mut dyn FnMut(StoreEvent),
    ) -> OptimalSolver {
        let coord = CoordTables::get();
        let table = match kind {
            OptimalTableKind::Small => Table::Small(phase1_table(store, report)),
            OptimalTableKind::Huge => {
                // One breadth-first search builds both tables; the bits
                // built beside a huge table are kept for the second load.
                let mut spare_far = None;
                let bytes = load_or_build(
                    store,
                    &huge_table_id(),
                    N_HUGE / 4,
                    || {
                        let (huge, far) = build_huge(coord);
                        spare_far = Some(far);
                        huge
                    },
                    report,
                );
                let far = load_or_build(
                    store,
                    &far_bits_id(),
                    N_HUGE / 8,
                    || spare_far.take().unwrap_or_else(|| build_huge(coord).1),
                    report,
                );
                let phase1 = phase1_table(store, report);
                Table::Huge(HugeTable { bytes }, FarBits { bytes: far }, phase1)
            }
        };
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
        OptimalSolver {
            table,
            coord,
            inverse: InverseTables::new(),
            slice_info,
        }
    }

    /// Table size in bytes.
    pub fn size_bytes(&self) -> usize {
        match &self.table {
            Table::Huge(t, far, phase1) => {
                t.bytes.as_slice().len() + far.bytes.as_slice().len() + phase1.size_bytes()
            }
            Table::Small(t) => t.size_bytes(),
        }
    }

    /// Table index of a cube's coordinates in one axis frame.
    #[inline(always)]
    fn index(&self, twist: usize, flip: usize, ss: usize) -> usize {
        let t = self.coord;
        match &self.table {
            Table::Huge(..) => {
                let info = self.slice_info[ss] as usize;
                let (cls, sym) = (info >> 15, info >> 11 & 15);
                let tw = t.twist_conj[twist * 16 + sym] as usize;
                let fl = (t.flip_conj[flip * 16 + sym] as usize) ^ (info & 0x7ff);
                (cls * N_TWIST + tw) * N_FLIP + fl
            }
            Table::Small(_) => phase1_index(t, twist, flip, ss),
        }
    }

    /// Table value at an index (exact for Small, mod 3 for Huge).
    #[inline(always)]
    fn value(&self, i: usize) -> u8 {
        match &self.table {
            Table::Huge(h, ..) => h.get(i),
            Table::Small(p) => p.get(i),
        }
    }

    /// Table value of a cube's coordinates in one axis frame.
    #[inline]
    fn raw(&self, twist: usize, flip: usize, ss: usize) -> u8 {
        self.value(self.index(twist, flip, ss))
    }

    /// Exact bound from a table value, given the parent's bound.
    #[inline(always)]
    fn depth_from_value(&self, parent: u8, v: u8) -> u8 {
        match &self.table {
            Table::Small(_) => v,
            Table::Huge(..) => match (v + 3 - parent % 3) % 3 {
                0 => parent,
                1 => parent + 1,
                _ => parent - 1,
            },
        }
    }

    /// Exact bound of a child given its parent's.
    #[inline]
    fn child_depth(&self, parent: u8, twist: usize, flip: usize, ss: usize) -> u8 {
        self.depth_from_value(parent, self.raw(twist, flip, ss))
    }

    /// Exact bound at the root (descends the mod-3 table to the goal).
    fn root_depth(&self, twist: usize, flip: usize, ss: usize) -> u8 {
        if let Table::Small(_) = self.table {
            return self.raw(twist, flip, ss);
        }
        let t = self.coord;
        let (mut tw, mut fl, mut s) = (twist, flip, ss);
        let mut depth = 0u8;
        // The goal coset: every edge of the slice home, no twist, no flip;
        // the slice order within the class is irrelevant to the table.
        while !(tw == 0 && fl == 0 && t.slice_sorted.class[s] == t.slice_sorted.class[0]) {
            let v = self.raw(tw, fl, s);
            let want = (v + 2) % 3;
            let mut moved = false;
            for m in 0..N_MOVES {
                let tw2 = t.twist_move[tw * N_MOVES + m] as usize;
                let fl2 = t.flip_move[fl * N_MOVES + m] as usize;
                let s2 = t.slice_sorted_move[s * N_MOVES + m] as usize;
                if self.raw(tw2, fl2, s2) == want {
                    (tw, fl, s) = (tw2, fl2, s2);
                    depth += 1;
                    moved = true;
                    break;
                }
            }
            if !moved || depth > 30 {
                break;
            }
        }
        depth
    }

    fn axes(&self, cube: &CubieCube) -> [Axis; 3] {
        let sy = Symmetries::get();
        std::array::from_fn(|k| {
            let c = sy.conjugate(cube, 16 * k);
            let twist = coord::twist(&c);
            let flip = coord::flip(&c);
            let ss = coord::slice_sorted(&c);
            let depth = self.root_depth(twist as usize, flip as usize, ss as usize);
            Axis {
                twist,
                flip,
                ss,
                depth,
            }
        })
    }

    /// The inverse of `cube` seen from the three axes.
    fn inverse_axes(&self, cube: &CubieCube) -> [InverseAxis; 3] {
        let sy = Symmetries::get();
        let inv = cube.inverse();
        std::array::from_fn(|k| InverseAxis::of(&sy.conjugate(&inv, 16 * k)))
    }

    /// Whether the inverse cube is at least `at_least` away by the far bits
    /// and the phase-1 table.
    fn inverse_beyond(&self, inv: &[InverseAxis; 3], at_least: u8) -> bool {
        let (far, phase1) = match &self.table {
            Table::Huge(_, far, phase1) => (Some(far), phase1),
            Table::Small(phase1) => (None, phase1),
        };
        inv.iter().any(|x| {
            let (tw, fl, ss) = x.coords();
            far.is_some_and(|far| at_least <= FAR && far.get(self.index(tw, fl, ss)))
                || phase1.get(phase1_index(self.coord, tw, fl, ss)) >= at_least
        })
    }

    /// A lower bound on the distance of `cube`.
    pub fn lower_bound(&self, cube: &CubieCube) -> u8 {
        self.bound_with_inverse(&self.axes(cube), &self.inverse_axes(cube))
    }

    /// [`bound`] of the axes, raised by the inverse's bound.
    fn bound_with_inverse(&self, axes: &[Axis; 3], inv: &[InverseAxis; 3]) -> u8 {
        let b = bound(axes);
        (b + 1..=20)
            .take_while(|&d| self.inverse_beyond(inv, d))
            .last()
            .unwrap_or(b)
    }

    /// Whether the huge table is in the cache already (a file is there;
    /// [`OptimalSolver::load`] still checks it), so loading it costs
    /// seconds rather than a build of minutes.
    pub fn huge_table_cached(store: &dyn TableStore) -> bool {
        Self::table_cached(OptimalTableKind::Huge, store)
    }

    /// Whether the table of `kind` is in the cache already (a file is
    /// there; [`OptimalSolver::load`] still checks it).
    pub fn table_cached(kind: OptimalTableKind, store: &dyn TableStore) -> bool {
        let (id, len) = match kind {
            OptimalTableKind::Huge => {
                if !store.contains(&far_bits_id(), PayloadLen::Exactly(N_HUGE as u64 / 8)) {
                    return false;
                }
                (huge_table_id(), N_HUGE / 4)
            }
            OptimalTableKind::Small => (
                crate::prune::phase1_table_id(),
                crate::prune::PHASE1_ENTRIES.div_ceil(2),
            ),
        };
        store.contains(&id, PayloadLen::Exactly(len as u64))
    }

    /// Finds a shortest solution.
    pub fn solve(&self, cube: &CubieCube, opts: &OptimalOptions) -> OptimalSolution {
        self.solve_up_to(cube, opts, 30)
            .unwrap_or_else(|| OptimalSolution {
                moves: MoveSeq::default(),
                nodes: 0,
                stopped: false,
            })
    }

    /// Finds a shortest solution if one has at most `max_depth` moves
    /// (`None` if none has; a stopped search returns a solution marked
    /// [`OptimalSolution::stopped`]).
    pub fn solve_up_to(
        &self,
        cube: &CubieCube,
        opts: &OptimalOptions,
        max_depth: u8,
    ) -> Option<OptimalSolution> {
        let sy = Symmetries::get();
        let axes = self.axes(cube);
        let inv = self.inverse_axes(cube);
        let corners = coord::corners(cube);
        let stab: Vec<u8> = if opts.no_symmetry_reduction {
            vec![0]
        } else {
            (0..N_SYM)
                .filter(|&s| sy.conjugate(cube, s) == *cube)
                .map(|s| s as u8)
                .collect()
        };
        // A cube that commutes with every move (the superflip) has all the
        // cyclic rotations of a solution as solutions; one of them starts
        // with a quarter turn when the solution has one, which it must if
        // edges are flipped (half turns flip none). So the first move can
        // be a quarter turn, and the next any other face (see `prefixes`).
        let central = !opts.no_symmetry_reduction
            && coord::flip(cube) != 0
            && FaceTurn::all()
                .all(|m| cube.apply_move(m) == CubieCube::from_moves(&[m]).multiply(cube));
        let nodes = AtomicU64::new(0);
        let start = self.bound_with_inverse(&axes, &inv);
        let stopped = || {
            opts.stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
        };
        for depth in start..=max_depth {
            // Split the tree into the prefixes of three moves and search those
            // in parallel; the first solution of this depth is optimal.
            let prefixes = self.prefixes(
                (axes, inv),
                corners,
                &stab,
                central,
                depth.min(3) as usize,
                depth,
            );
            let found = AtomicBool::new(false);
            let done = AtomicUsize::new(0);
            let tell = |prefixes_done: usize, depth_done: bool| {
                if let Some(report) = &opts.progress {
                    report(OptimalProgress {
                        depth,
                        depth_done,
                        prefixes_done,
                        prefixes: prefixes.len(),
                        nodes: nodes.load(Ordering::Relaxed),
                    });
                }
            };
            let run = |p: &Prefix| -> Option<Vec<u8>> {
                if found.load(Ordering::Relaxed) || stopped() {
                    return None;
                }
                let mut w = Worker {
                    s: self,
                    path: [0; 32],
                    nodes: 0,
                    found: &found,
                };
                w.path[..p.moves.len()].copy_from_slice(&p.moves);
                let d = p.moves.len();
                let ok = w.search(
                    (p.axes, p.inv, 0),
                    p.corners,
                    d,
                    depth as usize - d,
                    p.last_face,
                    p.relaxed,
                );
                nodes.fetch_add(w.nodes, Ordering::Relaxed);
                tell(done.fetch_add(1, Ordering::Relaxed) + 1, false);
                ok.then(|| {
                    found.store(true, Ordering::Relaxed);
                    w.path[..depth as usize].to_vec()
                })
            };
            let result = if opts.single_thread {
                prefixes.iter().find_map(run)
            } else {
                prefixes.par_iter().find_map_any(run)
            };
            tell(done.load(Ordering::Relaxed), true);
            if let Some(path) = result {
                return Some(OptimalSolution {
                    moves: MoveSeq(
                        path.iter()
                            .map(|&m| FaceTurn::from_index(m as usize))
                            .collect(),
                    ),
                    nodes: nodes.load(Ordering::Relaxed),
                    stopped: false,
                });
            }
            if stopped() {
                return Some(OptimalSolution {
                    moves: MoveSeq::default(),
                    nodes: nodes.load(Ordering::Relaxed),
                    stopped: true,
                });
            }
        }
        None
    }

    /// Applies move `m` (in the cube's frame) to the state of axis `k`.
    #[inline]
    fn axis_step(&self, a: &Axis, k: usize, m: usize) -> Axis {
        let sy = Symmetries::get();
        let t = self.coord;
        let mk = sy.conj_move[16 * k][m] as usize;
        let twist = t.twist_move[a.twist as usize * N_MOVES + mk];
        let flip = t.flip_move[a.flip as usize * N_MOVES + mk];
        let ss = t.slice_sorted_move[a.ss as usize * N_MOVES + mk];
        let depth = self.child_depth(a.depth, twist as usize, flip as usize, ss as usize);
        Axis {
            twist,
            flip,
            ss,
            depth,
        }
    }

    /// Applies move `m` to the three axis states, or `None` if the bound
    /// exceeds `remaining` after the move.
    #[inline]
    fn step(&self, axes: &[Axis; 3], m: usize, remaining: usize) -> Option<[Axis; 3]> {
        let mut out = *axes;
        for k in 0..3 {
            out[k] = self.axis_step(&axes[k], k, m);
            if out[k].depth as usize > remaining {
                return None;
            }
        }
        Some(out)
    }

    /// The search's prefixes of `len` moves (fewer at shallow depths),
    /// pruned, symmetry-reduced while the cube and prefix are symmetric.
    fn prefixes(
        &self,
        (axes, inv): ([Axis; 3], [InverseAxis; 3]),
        corners: u16,
        stab: &[u8],
        central: bool,
        len: usize,
        depth: u8,
    ) -> Vec<Prefix> {
        let mut out = vec![Prefix {
            moves: Vec::new(),
            axes,
            inv,
            corners,
            last_face: 6,
            relaxed: true,
            stab: stab.to_vec(),
        }];
        let sy = Symmetries::get();
        for level in 0..len {
            let remaining = depth as usize - level - 1;
            let mut next = Vec::new();
            for p in &out {
                let symmetric = p.stab.len() > 1;
                for m in 0..N_MOVES {
                    if !move_allowed(m, p.last_face, p.relaxed) {
                        continue;
                    }
                    if central && level == 0 && m % 3 == 1 {
                        continue;
                    }
                    if symmetric
                        && p.stab
                            .iter()
                            .any(|&s| (sy.conj_move[s as usize][m] as usize) < m)
                    {
                        continue;
                    }
                    let Some(a) = self.step(&p.axes, m, remaining) else {
                        continue;
                    };
                    let stab: Vec<u8> = if symmetric {
                        p.stab
                            .iter()
                            .copied()
                            .filter(|&s| sy.conj_move[s as usize][m] as usize == m)
                            .collect()
                    } else {
                        vec![0]
                    };
                    let mut moves = p.moves.clone();
                    moves.push(m as u8);
                    next.push(Prefix {
                        moves,
                        axes: a,
                        inv: self.inverse.step_all(&p.inv, m),
                        corners: self.coord.corners_move[p.corners as usize * N_MOVES + m],
                        last_face: m / 3,
                        // After a symmetry-reduced (or rotated) first move
                        // the next one may take an opposite face in either
                        // order.
                        relaxed: symmetric || (central && level == 0),
                        stab,
                    });
                }
            }
            out = next;
        }
        out
    }
}

/// The phase-1 table's index of one axis's coordinates.
#[inline(always)]
fn phase1_index(t: &CoordTables, twist: usize, flip: usize, ss: usize) -> usize {
    let p = t.flipslice.packed[(ss / 24) * N_FLIP + flip] as usize;
    (p >> 4) * N_TWIST + t.twist_conj[twist * 16 + (p & 15)] as usize
}

/// The distance bound of three axis states: the largest, and one more when
/// all three are the same `b > 0`. A solution in `b` moves ends with a turn
/// of one axis's face, which lies in that axis's subgroup `H`; the moves
/// before it then bring the cube into `H`, so that axis is at most `b - 1`
/// away (nxopt's rule).
fn bound(axes: &[Axis; 3]) -> u8 {
    let b = axes[0].depth;
    if b > 0 && axes.iter().all(|a| a.depth == b) {
        b + 1
    } else {
        axes.iter().map(|a| a.depth).max().unwrap_or(0)
    }
}

struct Prefix {
    moves: Vec<u8>,
    axes: [Axis; 3],
    inv: [InverseAxis; 3],
    corners: u16,
    last_face: usize,
    relaxed: bool,
    stab: Vec<u8>,
}

#[inline]
fn move_allowed(m: usize, last_face: usize, relaxed: bool) -> bool {
    let f = m / 3;
    if f == last_face {
        return false;
    }
    relaxed || f + 3 != last_face
}

struct Worker<'a> {
    s: &'a OptimalSolver,
    path: [u8; 32],
    nodes: u64,
    found: &'a AtomicBool,
}

impl Worker<'_> {
    /// `skip`: moves (bit `m`) the inverse's bound rules out here.
    fn search(
        &mut self,
        (axes, inv, skip): ([Axis; 3], [InverseAxis; 3], u32),
        corners: u16,
        depth: usize,
        remaining: usize,
        last_face: usize,
        relaxed: bool,
    ) -> bool {
        if remaining == 0 {
            return corners == 0 && axes.iter().all(|a| a.ss == 0);
        }
        self.nodes += 1;
        if self.nodes & 0xFFFF == 0 && self.found.load(Ordering::Relaxed) {
            return false;
        }
        // The children's table probes are independent memory reads: do
        // them axis by axis for all children at once, so the processor
        // overlaps the cache misses, and keep the children that survive.
        let mut moves = [0u8; N_MOVES];
        let mut n = 0;
        for m in 0..N_MOVES {
            if move_allowed(m, last_face, relaxed) && skip >> m & 1 == 0 {
                moves[n] = m as u8;
                n += 1;
            }
        }
        let mut kids = [axes; N_MOVES];
        let sy = Symmetries::get();
        let t = self.s.coord;
        // Axis 0 first: it prunes about 60% of the children, so the other
        // two axes are probed only for the rest, both in one round of
        // misses (all three in one round probe more and are slower).
        {
            let k = 0;
            let a = axes[k];
            let mut probe = [a; N_MOVES];
            let mut idx = [0usize; N_MOVES];
            for i in 0..n {
                let mk = sy.conj_move[16 * k][moves[i] as usize] as usize;
                let twist = t.twist_move[a.twist as usize * N_MOVES + mk];
                let flip = t.flip_move[a.flip as usize * N_MOVES + mk];
                let ss = t.slice_sorted_move[a.ss as usize * N_MOVES + mk];
                probe[i] = Axis {
                    twist,
                    flip,
                    ss,
                    depth: 0,
                };
                idx[i] = self.s.index(twist as usize, flip as usize, ss as usize);
            }
            // A tight loop of independent loads: many misses in flight.
            let mut val = [0u8; N_MOVES];
            for i in 0..n {
                val[i] = self.s.value(idx[i]);
            }
            for i in 0..n {
                probe[i].depth = self.s.depth_from_value(a.depth, val[i]);
            }
            let mut kept = 0;
            for i in 0..n {
                if (probe[i].depth as usize) < remaining {
                    moves[kept] = moves[i];
                    kids[kept] = kids[i];
                    kids[kept][k] = probe[i];
                    kept += 1;
                }
            }
            n = kept;
        }
        {
            let mut idx = [[0usize; N_MOVES]; 2];
            for k in 1..3 {
                let a = axes[k];
                for i in 0..n {
                    let mk = sy.conj_move[16 * k][moves[i] as usize] as usize;
                    let twist = t.twist_move[a.twist as usize * N_MOVES + mk];
                    let flip = t.flip_move[a.flip as usize * N_MOVES + mk];
                    let ss = t.slice_sorted_move[a.ss as usize * N_MOVES + mk];
                    kids[i][k] = Axis {
                        twist,
                        flip,
                        ss,
                        depth: 0,
                    };
                    idx[k - 1][i] = self.s.index(twist as usize, flip as usize, ss as usize);
                }
            }
            let mut val = [[0u8; N_MOVES]; 2];
            for k in 0..2 {
                for i in 0..n {
                    val[k][i] = self.s.value(idx[k][i]);
                }
            }
            let mut kept = 0;
            for i in 0..n {
                let d1 = self.s.depth_from_value(axes[1].depth, val[0][i]);
                let d2 = self.s.depth_from_value(axes[2].depth, val[1][i]);
                if (d1 as usize) < remaining && (d2 as usize) < remaining {
                    moves[kept] = moves[i];
                    kids[kept] = kids[i];
                    kids[kept][1].depth = d1;
                    kids[kept][2].depth = d2;
                    kept += 1;
                }
            }
            n = kept;
        }
        // A child at the same bound on all three axes is one further away
        // (see `bound`): pruned when that bound is one under the remaining.
        if remaining > 1 {
            let r = remaining as u8 - 1;
            let mut kept = 0;
            for i in 0..n {
                if !kids[i].iter().all(|a| a.depth == r) {
                    moves[kept] = moves[i];
                    kids[kept] = kids[i];
                    kept += 1;
                }
            }
            n = kept;
        }
        // The survivors' inverses, and their bound where it can prune.
        let mut inv_kids = [inv; N_MOVES];
        for i in 0..n {
            inv_kids[i] = self.s.inverse.step_all(&inv, moves[i] as usize);
        }
        // Each survivor's inverse axes are bounded below by the far bits
        // and the phase-1 table. One beyond the moves it has left prunes
        // it; one exactly there must come nearer at every move, so the
        // moves that keep that axis (done before the inverse, its own U
        // and D turns keep its coordinates) are skipped below it, and a
        // survivor with all three there is pruned (nxopt's axis mask).
        let mut kid_skip = [0u32; N_MOVES];
        // With the small table the phase-1 table is all there is, and it
        // bounds the inverse at every depth.
        let (far, phase1, reach) = match &self.s.table {
            Table::Huge(_, far, phase1) => (Some(far), phase1, FAR as usize + 1),
            Table::Small(phase1) => (None, phase1, usize::MAX),
        };
        if remaining <= reach {
            let rk = remaining as u8 - 1;
            // Indices first, then tight loops of loads (as above).
            let mut idx = [[0usize; 3]; N_MOVES];
            let mut idx1 = [[0usize; 3]; N_MOVES];
            for i in 0..n {
                for k in 0..3 {
                    let (tw, fl, ss) = inv_kids[i][k].coords();
                    if far.is_some() {
                        idx[i][k] = self.s.index(tw, fl, ss);
                    }
                    idx1[i][k] = phase1_index(t, tw, fl, ss);
                }
            }
            let mut lb = [[0u8; 3]; N_MOVES];
            if let Some(far) = far {
                for i in 0..n {
                    for k in 0..3 {
                        lb[i][k] = if far.get(idx[i][k]) { FAR } else { 0 };
                    }
                }
            }
            // The phase-1 table is rarely FAR or more: with the far bits,
            // read only where it is the stronger bound.
            if rk < FAR || far.is_none() {
                for i in 0..n {
                    for k in 0..3 {
                        lb[i][k] = lb[i][k].max(phase1.get(idx1[i][k]));
                    }
                }
            }
            let mut kept = 0;
            for i in 0..n {
                let mut skip = 0;
                let mut tight = 0;
                let mut beyond = false;
                for k in 0..3 {
                    beyond |= lb[i][k] > rk;
                    if lb[i][k] == rk && rk > 0 {
                        skip |= self.s.inverse.keeps[k];
                        tight += 1;
                    }
                }
                if !beyond && tight < 3 {
                    moves[kept] = moves[i];
                    kids[kept] = kids[i];
                    inv_kids[kept] = inv_kids[i];
                    kid_skip[kept] = skip;
                    kept += 1;
                }
            }
            n = kept;
        }
        for i in 0..n {
            let m = moves[i] as usize;
            self.path[depth] = m as u8;
            let c2 = t.corners_move[corners as usize * N_MOVES + m];
            if self.search(
                (kids[i], inv_kids[i], kid_skip[i]),
                c2,
                depth + 1,
                remaining - 1,
                m / 3,
                false,
            ) {
                return true;
            }
        }
        false
    }
}

/// Bit `2j` set where 2-bit lane `j` of `word` equals `v`.
#[inline]
fn lanes_equal(word: u64, v: u64) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let x = word ^ (v * LOW);
    !(x | (x >> 1)) & LOW
}

/// Builds the huge table: breadth-first over UD-slice-sorted classes ×
/// twist × flip, 2 bits an entry (3 = not reached yet), on all cores.
fn build_huge(t: &CoordTables) -> (Vec<u8>, Vec<u8>) {
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
    // Class moves: for each class and move, (new class, symmetry, slice of
    // the new class's representative).
    let class_moves: Vec<(u16, u8, u16)> = (0..N_SLICE_SORTED_CLASS)
        .flat_map(|c| {
            let rep = t.slice_sorted.rep[c] as usize;
            (0..N_MOVES).map(move |m| {
                let ss2 = t.slice_sorted_move[rep * N_MOVES + m] as usize;
                let c2 = t.slice_sorted.class[ss2];
                let s2 = t.slice_sorted.sym[ss2];
                (c2, s2, (t.slice_sorted.rep[c2 as usize] / 24) as u16)
            })
        })
        .collect();
    // The goal: slice edges home in any order that is symmetric to home
    // (the class of slice-sorted 0), no twist, no flip.
    let goal_class = t.slice_sorted.class[0] as usize;
    set(goal_class * N_TWIST * N_FLIP, 0);
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
                            for m in 0..N_MOVES {
                                let (c2, s2, sl2) = class_moves[cls * N_MOVES + m];
                                let s2 = s2 as usize;
                                let tw2 = t.twist_conj
                                    [t.twist_move[twist * N_MOVES + m] as usize * 16 + s2]
                                    as usize;
                                let f2 = t.conj_flip(t.flip_move[f * N_MOVES + m], s2, sl2 as usize)
                                    as usize;
                                let c2 = c2 as usize;
                                if set((c2 * N_TWIST + tw2) * N_FLIP + f2, nv) {
                                    local += 1;
                                }
                                // The same coset seen through the representative's
                                // own symmetries is another entry.
                                let st = t.slice_sorted.stab[c2];
                                if st != 1 {
                                    for s in 1..16 {
                                        if st >> s & 1 == 1 {
                                            let tw3 = t.twist_conj[tw2 * 16 + s] as usize;
                                            let f3 =
                                                t.conj_flip(f2 as u16, s, sl2 as usize) as usize;
                                            if set((c2 * N_TWIST + tw3) * N_FLIP + f3, nv) {
                                                local += 1;
                                            }
                                        }
                                    }
                                }
                            }
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
        if depth == FAR as u64 - 1 {
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

    /// The solver with the small table, built here.
    fn small_solver() -> OptimalSolver {
        OptimalSolver::load(
            OptimalTableKind::Small,
            &twistor_core::store::NoStore,
            &mut |_| {},
        )
    }

    /// The cubes at each distance 1..=`depth`, by breadth-first search.
    fn cubes_by_distance(depth: u8) -> Vec<Vec<CubieCube>> {
        let mut seen = std::collections::HashSet::from([CubieCube::SOLVED]);
        let mut levels = vec![vec![CubieCube::SOLVED]];
        for _ in 0..depth {
            let next: Vec<CubieCube> = levels[levels.len() - 1]
                .iter()
                .flat_map(|c| FaceTurn::all().map(|m| c.apply_move(m)))
                .filter(|x| seen.insert(*x))
                .collect();
            levels.push(next);
        }
        levels.remove(0);
        levels
    }

    /// The equal-bounds rule (`bound`) on every cube within five moves:
    /// never above the distance, and above the largest axis bound on some.
    #[test]
    fn equal_axis_bounds_add_one_without_overestimating() {
        let s = small_solver();
        let mut raised = 0;
        for (c, distance) in cubes_by_distance(5)
            .iter()
            .zip(1u8..)
            .flat_map(|(level, d)| level.iter().map(move |c| (c, d)))
        {
            let axes = s.axes(c);
            let b = bound(&axes);
            assert!(b <= distance, "{c:?}: bound {b} above {distance}");
            raised += usize::from(b > axes.iter().map(|a| a.depth).max().unwrap());
        }
        assert!(raised > 0);
    }

    /// The inverse axes the search steps by premoves are those of the
    /// cube's inverse computed afresh; the moves `keeps` names leave their
    /// axis's coordinates as they were; and the phase-1 bound of each
    /// inverse axis is within the distance (cubes within four moves).
    #[test]
    fn inverse_axes_follow_the_moves() {
        let s = small_solver();
        let Table::Small(phase1) = &s.table else {
            unreachable!("the small kind was loaded")
        };
        let mut kept = 0;
        let levels = cubes_by_distance(4);
        for (level, distance) in levels.iter().zip(1u8..) {
            for c in level {
                for x in s.inverse_axes(c) {
                    let (tw, fl, ss) = x.coords();
                    assert!(phase1.get(phase1_index(s.coord, tw, fl, ss)) <= distance);
                }
            }
        }
        // Stepped from the solved cube and each cube within three moves.
        for c in std::iter::once(&CubieCube::SOLVED).chain(levels[..3].iter().flatten()) {
            let inv = s.inverse_axes(c);
            for m in FaceTurn::all() {
                let stepped = s.inverse.step_all(&inv, m.index());
                let fresh = s.inverse_axes(&c.apply_move(m));
                for k in 0..3 {
                    assert_eq!(stepped[k].coords(), fresh[k].coords(), "{m:?} axis {k}");
                    if s.inverse.keeps[k] >> m.index() & 1 == 1 {
                        assert_eq!(fresh[k].coords(), inv[k].coords(), "{m:?} axis {k}");
                        kept += 1;
                    }
                }
            }
        }
        assert!(kept > 0);
    }

    #[test]
    fn relaxed_order_allows_both_orders_of_opposite_faces() {
        assert!(!move_allowed(0, 3, false));
        assert!(move_allowed(0, 3, true));
        assert!(!move_allowed(0, 0, true));
    }
}
