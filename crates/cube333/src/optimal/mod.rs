//! The optimal solver: iterative deepening on the whole cube, bounded below
//! by a pruning table read from six views, that grows the solution from
//! whichever end branches less (the method of Rokicki's nxopt).
//!
//! * [`table`]: Kociemba's huge table (UD-slice-sorted classes × twist ×
//!   flip, 3,529,433,088 entries) at exact distances, 3 bits an entry,
//!   1.34 GB — within vcube's smallest table (1.33 GiB). Exact entries bound
//!   a view however it was reached. The `Giant` kind is the next size up
//!   (flip-UD-slice classes × twist × where the D corners are, 3.79 GB);
//!   the `Small` kind reads the phase-1 table (70 MB) instead: much weaker,
//!   for tests and small machines.
//! * [`view`]: the cube as the search turns it, a byte a cubie, so a move
//!   on either side of a view is one shuffle (AVX2 where the processor has
//!   it, checked at run time).
//! * [`search`]: the depth-first search and the rules that prune it.
//!
//! The first three moves (four once a depth costs 100,000 nodes) are
//! enumerated here, once a solve, and the subtrees below them searched in
//! parallel, densest first: those with the most nodes at the last depth
//! (weighted by how many move sequences their last face allows) are the
//! likeliest to hold a solution of this one (vcube's order). On ten random
//! cubes' last depths (R000-R009 of the benchmark states), with four
//! moves 10% of the depth was searched before the first solution, on
//! average, against 17% with three moves and 21% in move order. The first
//! solution of a depth is optimal.
//!
//! Symmetric cubes (the superflip has all 48 symmetries) search only one
//! first move of each class of moves the cube's symmetries exchange, and
//! so on down while the prefix stays symmetric.

mod search;
mod table;
mod view;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use crate::coord;
use crate::cubie::CubieCube;
use crate::moves::{FaceTurn, MoveSeq, N_MOVES};
use crate::prune::phase1_table;
use crate::symmetry::{Symmetries, N_SYM};
use crate::tables::CoordTables;
use search::{bound, views_of, Frame, Moves, Searcher, Start, Tools, Turns, NO_FACE};
use table::{Bound, ExactGiant, ExactHuge, Phase1Bound};
use twistor_core::store::{StoreEvent, TableStore};
use view::{CoordLookup, Scalar};

/// Which pruning table the optimal solver uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptimalTableKind {
    /// Kociemba's 3,529,433,088-entry table at exact distances (1.34 GB).
    Huge,
    /// The phase-1 coordinates (flip-UD-slice classes × twist) × where the
    /// D corners are (70), 9,863,588,700 entries at exact distances
    /// (3.79 GB; built in minutes in about that memory): the next size up,
    /// nxopt's "112" table in Kociemba's coordinates.
    Giant,
    /// The phase-1 table (70 MB): slow, for tests and small machines.
    Small,
}

impl OptimalTableKind {
    /// The name a user gives the table by (`--optimal-table`).
    pub fn name(self) -> &'static str {
        match self {
            OptimalTableKind::Huge => "huge",
            OptimalTableKind::Giant => "giant",
            OptimalTableKind::Small => "small",
        }
    }

    /// What the table is called in messages ("the phase-1 table").
    pub fn title(self) -> &'static str {
        match self {
            OptimalTableKind::Small => "phase-1",
            other => other.name(),
        }
    }

    /// The table kind of a name.
    pub fn from_name(name: &str) -> Option<OptimalTableKind> {
        [
            OptimalTableKind::Huge,
            OptimalTableKind::Giant,
            OptimalTableKind::Small,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }

    /// Bytes of the table in memory and in the cache.
    pub fn bytes(self) -> u64 {
        match self {
            OptimalTableKind::Huge => table::EXACT_BYTES as u64,
            OptimalTableKind::Giant => table::GIANT_BYTES as u64,
            OptimalTableKind::Small => crate::prune::PHASE1_ENTRIES.div_ceil(2) as u64,
        }
    }

    /// Bytes the process holds at the peak of building the table: the
    /// table, built in its own memory, and beside it the coordinate tables
    /// and the lists of the entries near the goal (the huge table's build
    /// peaked at 1.39 GB, 3 % over the table, measured).
    pub fn build_bytes(self) -> u64 {
        self.bytes() + self.bytes() / 20
    }
}

/// Where a search stands, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptimalProgress {
    /// The depth being searched.
    pub depth: u8,
    /// Whether that depth is finished (without a solution unless it was
    /// the last).
    pub depth_done: bool,
    /// Prefixes (the first few moves, whose subtrees are searched in
    /// parallel) of this depth searched.
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
    /// Turn the cube byte by byte even where the processor has AVX2 (the
    /// portable kernel, for comparison; same answers, slower).
    pub portable: bool,
    /// Called after each searched prefix and each completed depth.
    pub progress: Option<ProgressFn>,
    /// Raised by the caller to stop the search (it ends within a few
    /// thousand nodes on each thread).
    pub stop: Option<std::sync::Arc<AtomicBool>>,
}

impl std::fmt::Debug for OptimalOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OptimalOptions")
            .field("no_symmetry_reduction", &self.no_symmetry_reduction)
            .field("single_thread", &self.single_thread)
            .field("portable", &self.portable)
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

enum Table {
    Huge(ExactHuge),
    Giant(ExactGiant),
    Small(Phase1Bound),
}

/// The optimal solver with its table.
pub struct OptimalSolver {
    table: Table,
    lookup: CoordLookup,
    moves: Moves,
    /// Whether the processor runs the AVX2 kernel.
    avx2: bool,
}

/// A node of the first moves, searched below in parallel.
struct Prefix {
    moves: Vec<u8>,
    frame: Frame,
    /// The shortest search depth at which no node on the way is pruned.
    need: u8,
    last_face: u8,
    /// Whether the next move may take the face opposite the last in either
    /// order (after a symmetry-reduced or rotated move).
    relaxed: bool,
    /// The symmetries (of 48) that fix the cube and the prefix.
    stab: Vec<u8>,
}

/// Moves enumerated before the parallel search, while depths are cheap.
const PREFIX_MOVES: usize = 3;

/// Moves enumerated once a depth takes this many nodes (the next will take
/// about thirteen times as many).
const FINE_PREFIX_MOVES: usize = 4;
const FINE_ORDER_FROM: u64 = 100_000;

impl OptimalSolver {
    /// Loads the table from the cache or builds it.
    pub fn load(
        kind: OptimalTableKind,
        store: &dyn TableStore,
        report: &mut dyn FnMut(StoreEvent),
    ) -> OptimalSolver {
        let coord = CoordTables::get();
        let table = match kind {
            OptimalTableKind::Small => {
                Table::Small(Phase1Bound::new(phase1_table(store, report), coord))
            }
            OptimalTableKind::Huge => Table::Huge(ExactHuge::load(coord, store, report)),
            OptimalTableKind::Giant => Table::Giant(ExactGiant::load(coord, store, report)),
        };
        OptimalSolver {
            table,
            lookup: CoordLookup::new(),
            moves: Moves::new(),
            avx2: avx2_available(),
        }
    }

    /// Table size in bytes.
    pub fn size_bytes(&self) -> usize {
        match &self.table {
            Table::Huge(t) => t.size_bytes(),
            Table::Giant(t) => t.size_bytes(),
            Table::Small(t) => t.table.size_bytes(),
        }
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
        match kind {
            OptimalTableKind::Huge => ExactHuge::stored(store),
            OptimalTableKind::Giant => ExactGiant::stored(store),
            OptimalTableKind::Small => store.contains(
                &crate::prune::phase1_table_id(),
                twistor_core::store::PayloadLen::Exactly(kind.bytes()),
            ),
        }
    }

    /// The tools the search reads, with the table as a [`Bound`].
    fn with_tools<R>(&self, f: impl FnOnce(&dyn Dispatch) -> R) -> R {
        match &self.table {
            Table::Huge(h) => f(&self.tools(h.reader())),
            Table::Giant(g) => f(&self.tools(g.reader())),
            Table::Small(s) => f(&self.tools(s.reader())),
        }
    }

    fn tools<B: Bound>(&self, bound: B) -> Tools<'_, B> {
        Tools {
            bound,
            lookup: &self.lookup,
            moves: &self.moves,
        }
    }

    /// A lower bound on the distance of `cube`.
    pub fn lower_bound(&self, cube: &CubieCube) -> u8 {
        self.with_tools(|t| bound(&t.frame(views_of(cube)).bounds))
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
        self.with_tools(|t| self.solve_with(t, cube, opts, max_depth))
    }

    fn solve_with(
        &self,
        tools: &dyn Dispatch,
        cube: &CubieCube,
        opts: &OptimalOptions,
        max_depth: u8,
    ) -> Option<OptimalSolution> {
        let mut tree = self.prefix_root(tools, cube, opts);
        let start = tree.levels[0][0].need;
        let avx2 = self.avx2 && !opts.portable;
        let nodes = AtomicU64::new(0);
        let stopped = || {
            opts.stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
        };
        // Nodes below each prefix at the last depth searched, and the
        // prefixes' length then.
        let mut density: Option<(usize, Vec<u64>)> = None;
        for depth in start..=max_depth {
            // Short prefixes while the depths are cheap; once they are not,
            // longer ones, whose finer density order finds the last
            // depth's solution sooner (the tens of thousands of them cost
            // a tenth of a second a depth).
            let cheap = density
                .as_ref()
                .is_none_or(|(_, d)| d.iter().sum::<u64>() < FINE_ORDER_FROM);
            let len = (depth as usize).min(if cheap {
                PREFIX_MOVES
            } else {
                FINE_PREFIX_MOVES
            });
            while tree.levels.len() <= len {
                self.grow(tools, &mut tree);
            }
            let level = &tree.levels[len];
            let mut order: Vec<usize> = (0..level.len())
                .filter(|&i| level[i].need <= depth)
                .collect();
            // The subtrees densest in nodes at the last depth first: a
            // solution of this depth is likelier there (vcube's order).
            if let Some((_, d)) = density.as_ref().filter(|(l, _)| *l == len) {
                let weight = |i: usize| d[i] as f64 * subtree_weight(level[i].last_face);
                order.sort_by(|&a, &b| weight(b).total_cmp(&weight(a)));
            }
            let counts: Vec<AtomicU64> = (0..level.len()).map(|_| AtomicU64::new(0)).collect();
            let found = AtomicBool::new(false);
            let solution = std::sync::Mutex::new(None);
            let next = AtomicUsize::new(0);
            let done = AtomicUsize::new(0);
            let tell = |prefixes_done: usize, depth_done: bool| {
                if let Some(report) = &opts.progress {
                    report(OptimalProgress {
                        depth,
                        depth_done,
                        prefixes_done,
                        prefixes: order.len(),
                        nodes: nodes.load(Ordering::Relaxed),
                    });
                }
            };
            let halt = || found.load(Ordering::Relaxed) || stopped();
            // Each thread takes the next prefix in order until one finds a
            // solution; the first solution of this depth is optimal.
            let work = || {
                let mut searcher = Searcher::new();
                // Progress and the node total are told every few prefixes:
                // there are tens of thousands a depth.
                let (mut mine, mut told) = (0usize, 0u64);
                let flush = |mine: &mut usize, told: &mut u64, searcher: &Searcher| {
                    nodes.fetch_add(searcher.nodes - *told, Ordering::Relaxed);
                    *told = searcher.nodes;
                    tell(done.fetch_add(*mine, Ordering::Relaxed) + *mine, false);
                    *mine = 0;
                };
                while !halt() {
                    let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let p = &level[i];
                    let before = searcher.nodes;
                    let start = Start {
                        frame: &p.frame,
                        left: depth - len as u8,
                        last: [p.last_face, NO_FACE],
                        relaxed: p.relaxed,
                    };
                    let turns = tools.search(&mut searcher, start, &halt, avx2);
                    counts[i].store(searcher.nodes - before, Ordering::Relaxed);
                    mine += 1;
                    if mine == 64 {
                        flush(&mut mine, &mut told, &searcher);
                    }
                    if let Some(turns) = turns {
                        let mut first = solution.lock().unwrap_or_else(|e| e.into_inner());
                        if first.is_none() {
                            *first = Some(solution_moves(&p.moves, &turns));
                        }
                        found.store(true, Ordering::Relaxed);
                    }
                }
                flush(&mut mine, &mut told, &searcher);
            };
            if opts.single_thread {
                work();
            } else {
                rayon::broadcast(|_| work());
            }
            tell(done.load(Ordering::Relaxed), true);
            if let Some(path) = solution.into_inner().unwrap_or_else(|e| e.into_inner()) {
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
            density = Some((
                len,
                counts.iter().map(|c| c.load(Ordering::Relaxed)).collect(),
            ));
        }
        None
    }

    /// The prefix tree's root: the cube, with what decides how its first
    /// moves are reduced.
    fn prefix_root(
        &self,
        tools: &dyn Dispatch,
        cube: &CubieCube,
        opts: &OptimalOptions,
    ) -> PrefixTree {
        let sy = Symmetries::get();
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
        // be a quarter turn, and the next any other face.
        let central = !opts.no_symmetry_reduction
            && coord::flip(cube) != 0
            && FaceTurn::all()
                .all(|m| cube.apply_move(m) == CubieCube::from_moves(&[m]).multiply(cube));
        let frame = tools.frame(views_of(cube));
        PrefixTree {
            levels: vec![vec![Prefix {
                moves: Vec::new(),
                need: bound(&frame.bounds),
                frame,
                last_face: NO_FACE,
                relaxed: true,
                stab,
            }]],
            central,
            avx2: self.avx2 && !opts.portable,
        }
    }

    /// Adds the prefixes one move longer than the tree's longest, each
    /// with the depth it needs, symmetry-reduced while the cube and
    /// prefix are symmetric.
    fn grow(&self, tools: &dyn Dispatch, tree: &mut PrefixTree) {
        let sy = Symmetries::get();
        let level = tree.levels.len() - 1;
        let central = tree.central;
        let mut next = Vec::new();
        for p in &tree.levels[level] {
            let symmetric = p.stab.len() > 1;
            let moves: Vec<usize> = (0..N_MOVES)
                .filter(|&m| {
                    self.moves.allowed(m, p.last_face, p.relaxed)
                        && !(central && level == 0 && m % 3 == 1)
                        && !(symmetric
                            && p.stab
                                .iter()
                                .any(|&s| (sy.conj_move[s as usize][m] as usize) < m))
                })
                .collect();
            let frames = tools.children(&p.frame, &moves, tree.avx2);
            for (&m, frame) in moves.iter().zip(frames) {
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
                    need: p.need.max(bound(&frame.bounds) + level as u8 + 1),
                    frame,
                    last_face: (m / 3) as u8,
                    relaxed: symmetric || (central && level == 0),
                    stab,
                });
            }
        }
        tree.levels.push(next);
    }
}

/// The first moves of a search, level by level, grown as the search
/// needs them.
struct PrefixTree {
    levels: Vec<Vec<Prefix>>,
    /// Whether the cube commutes with every move (see `prefix_root`).
    central: bool,
    avx2: bool,
}

/// The solution: the prefix, the moves made after the cube in order, then
/// those made after its inverse, last first and inverted.
fn solution_moves(prefix: &[u8], turns: &Turns) -> Vec<u8> {
    let inverse = |m: u8| m / 3 * 3 + 2 - m % 3;
    let mut out = prefix.to_vec();
    out.extend(turns.iter().filter(|t| t.0 == 0).map(|t| t.1));
    out.extend(
        turns
            .iter()
            .rev()
            .filter(|t| t.0 == 1)
            .map(|t| inverse(t.1)),
    );
    out
}

/// How much smaller the subtree after a turn of face `f` is expected to
/// be, relative to one after U, R or F: after D, L or B the opposite face
/// may not follow, and canonical sequences after them are fewer by
/// sqrt(3/2) (the eigenvector of the count's recurrence).
fn subtree_weight(f: u8) -> f64 {
    if (3..6).contains(&f) {
        1.224_744_871_391_589
    } else {
        1.0
    }
}

/// Whether the processor runs the AVX2 kernel.
fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        view::Avx2::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The search over one table, its kernel chosen at run time.
trait Dispatch: Sync {
    fn frame(&self, views: [view::View; 6]) -> Frame;
    /// The nodes after each of `moves` after the cube.
    fn children(&self, f: &Frame, moves: &[usize], avx2: bool) -> Vec<Frame>;
    fn search(
        &self,
        searcher: &mut Searcher,
        start: Start,
        halt: &(dyn Fn() -> bool + Sync),
        avx2: bool,
    ) -> Option<Turns>;
}

impl<B: Bound> Dispatch for Tools<'_, B> {
    fn frame(&self, views: [view::View; 6]) -> Frame {
        Tools::frame::<Scalar>(self, views)
    }

    fn children(&self, f: &Frame, moves: &[usize], avx2: bool) -> Vec<Frame> {
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            // SAFETY: `avx2` is true only where `Avx2::available` found
            // the features `children_avx2` is compiled for.
            return unsafe { children_avx2(self, f, moves) };
        }
        let _ = avx2;
        Tools::children::<Scalar>(self, f, moves)
    }

    fn search(
        &self,
        searcher: &mut Searcher,
        start: Start,
        halt: &(dyn Fn() -> bool + Sync),
        avx2: bool,
    ) -> Option<Turns> {
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            // SAFETY: as in `children` above.
            return unsafe { search_avx2(searcher, self, start, halt) };
        }
        let _ = avx2;
        searcher.run::<B, Scalar>(self, start, halt)
    }
}

/// The search compiled for AVX2 and BMI2, which the kernel's intrinsics
/// inline into.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
fn search_avx2<B: Bound>(
    searcher: &mut Searcher,
    tools: &Tools<B>,
    start: Start,
    halt: &(dyn Fn() -> bool + Sync),
) -> Option<Turns> {
    searcher.run::<B, view::Avx2>(tools, start, halt)
}

/// Moves after the cube, compiled for AVX2 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi2")]
fn children_avx2<B: Bound>(tools: &Tools<B>, f: &Frame, moves: &[usize]) -> Vec<Frame> {
    tools.children::<view::Avx2>(f, moves)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// The bound of every cube within five moves is within its distance,
    /// and the equal-bounds rule raises it above the largest view's on
    /// some.
    #[test]
    fn bounds_never_exceed_the_distance() {
        let s = small_solver();
        let mut raised = 0;
        for (level, distance) in cubes_by_distance(5).iter().zip(1u8..) {
            for c in level {
                let b = s.lower_bound(c);
                assert!(b <= distance, "{c:?}: bound {b} above {distance}");
                let Table::Small(t) = &s.table else {
                    unreachable!("the small kind was loaded")
                };
                let tools = s.tools(t.reader());
                let f = Tools::frame::<Scalar>(&tools, views_of(c));
                raised += usize::from(b > *f.bounds.iter().max().unwrap());
            }
        }
        assert!(raised > 0);
    }

    /// A step on either side gives the views of the cube with the move
    /// made after it or (inverted) before it.
    #[test]
    fn steps_on_either_side_are_moves_at_either_end() {
        let s = small_solver();
        let Table::Small(t) = &s.table else {
            unreachable!("the small kind was loaded")
        };
        let tools = s.tools(t.reader());
        for c in cubes_by_distance(3).iter().flatten().take(500) {
            let f = Tools::frame::<Scalar>(&tools, views_of(c));
            for m in FaceTurn::all() {
                let after = Tools::step::<Scalar>(&tools, &f, 0, m.index());
                assert_eq!(after.views, views_of(&c.apply_move(m)));
                let before = Tools::step::<Scalar>(&tools, &f, 1, m.index());
                assert_eq!(
                    before.views,
                    views_of(&m.inverse().cubie().multiply(c)),
                    "{m:?}"
                );
            }
        }
    }

    #[test]
    fn solutions_read_the_inverse_side_backwards() {
        // U (cube side), R then F (inverse side): U · F' · R'.
        let turns = vec![(0, 0), (1, 3), (1, 6)];
        assert_eq!(solution_moves(&[], &turns), vec![0, 8, 5]);
    }
}
