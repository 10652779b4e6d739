//! Optimal search: IDA* over canonical sequences, pruned by pattern
//! databases, on several threads with results independent of their number.
//!
//! The search is split into prefixes (the first few moves) that threads
//! take in order. Solutions are reported in lexicographic order of their
//! moves, so "the first N solutions" is the same set whatever the thread
//! count: a prefix's solutions count only once every earlier prefix is done,
//! and later prefixes are abandoned as soon as enough are found.
//!
//! Pattern databases start with their near layers only (a fraction of a
//! second of filling) and grow while the searches show they are worth it:
//! before each depth, if the searching done so far, and expected next,
//! outweighs the filling done so far plus a table's next layer, that layer
//! is filled (the classic rent-or-buy balance, which keeps the total
//! within a small factor of the better of the two). Easy positions then
//! cost little set-up, and hard ones still end with complete tables.
//! Tables come from the [`TableStore`] the solver is given, and go back
//! to it when built and when the caller asks for grown ones to be kept
//! ([`Solver::save_grown_tables`]): nothing is written behind its back.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use twistor_core::store::{NoStore, StoreError, StoreEvent, TableKey, TableStore};
use twistor_core::symmetry::SymmetryGroup;
use twistor_core::{Layout, Pattern, Puzzle};

use crate::cache::{self, fnv1a};
use crate::canonical::{CanonicalFsm, FORBIDDEN};
use crate::hashed::{HashedFill, HashedSymmetry, HashedTable};
use crate::planner::{plan_tables, TablePlan};
use crate::table::{FillLimit, FillProgress, LayerCost, PruneTable};

/// Work (in [`PruneTable::next_layer_work`] units) each table may take
/// before the first search; more layers come when searching shows the need.
const INITIAL_FILL_WORK: u64 = 1 << 25;
/// Sequences the hashed table's first fill may walk.
const INITIAL_HASHED_SEQUENCES: u64 = 1 << 20;
/// Seconds a hashed fill is taken to spend per sequence until one is
/// timed (a move, a hash and a random write).
const SEQUENCE_SECS: f64 = 1e-7;

/// Entries for a hashed table of `sequences` positions: eight per
/// position keeps collisions rare (more would only cost memory and disk),
/// within `cap`.
fn hashed_entries(cap: u64, sequences: u64) -> u64 {
    cap.min(sequences.saturating_mul(8).max(1 << 17))
}

/// Most preparation work (about 30 ms) spent on a cached table's move
/// tables so that the search can carry its coordinates.
const SEARCH_PREPARATION_WORK: u64 = 1 << 23;

/// Sequences (about 30 s) a hashed fill may walk before time rather than
/// memory limits its depth; see [`Solver::new`] on symmetry.
const SYMMETRY_SEQUENCES: u64 = 1 << 28;

/// Largest rotation group a solver reduces by.
const MAX_SYMMETRIES: usize = 1000;

/// Nodes below which a depth is searched on one thread.
const SMALL_SEARCH_NODES: u64 = 1 << 16;

/// Seconds per unit of each kind of fill work until fills are timed:
/// building move tables, computing a neighbour (mostly a cache miss in a
/// large table), scanning a word of entries.
const FILL_RATES: FillRates = FillRates {
    preparation: 1e-9,
    neighbours: 5e-9,
    scanned: 1e-9,
};

/// Seconds per unit of each part of a [`LayerCost`], as measured.
#[derive(Clone, Copy, Debug)]
struct FillRates {
    preparation: f64,
    neighbours: f64,
    scanned: f64,
}

impl FillRates {
    /// Seconds `cost` is expected to take.
    fn secs(&self, cost: &LayerCost) -> f64 {
        self.parts(cost).iter().sum()
    }

    fn parts(&self, cost: &LayerCost) -> [f64; 3] {
        [
            cost.preparation as f64 * self.preparation,
            cost.neighbours as f64 * self.neighbours,
            cost.scanned as f64 * self.scanned,
        ]
    }

    /// Learns from a fill of `cost` that took `secs`: the part expected to
    /// dominate takes the time the others are not expected to.
    fn learn(&mut self, cost: &LayerCost, secs: f64) {
        let parts = self.parts(cost);
        let (k, _) = parts
            .iter()
            .enumerate()
            .fold((0, f64::MIN), |b, (i, &p)| if p > b.1 { (i, p) } else { b });
        let others: f64 = parts
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, p)| p)
            .sum();
        let units = [cost.preparation, cost.neighbours, cost.scanned][k];
        // Below a millisecond, timings are mostly noise.
        if units == 0 || secs < 1e-3 {
            return;
        }
        let slot = match k {
            0 => &mut self.preparation,
            1 => &mut self.neighbours,
            _ => &mut self.scanned,
        };
        // One odd fill (a page fault storm, a busy machine) moves a rate
        // by at most a factor of four.
        let rate = (secs - others).max(secs / 4.0) / units as f64;
        *slot = rate.clamp(*slot / 4.0, *slot * 4.0).clamp(1e-11, 1e-5);
    }
}
use crate::{MoveSet, SearchError};

/// How a solver is set up.
#[derive(Clone)]
pub struct SolverOptions {
    /// Memory the pruning tables may use, in bytes.
    pub memory_bytes: u64,
    /// Threads for filling tables and searching.
    pub threads: usize,
    /// Where tables are kept between runs ([`NoStore`]: nowhere).
    pub store: Arc<dyn TableStore>,
    /// Whether the hashed table may be reduced by the puzzle's rotations
    /// that keep the goal and the moves (see [`twistor_core::symmetry`]);
    /// it is when memory rather than fill time limits its depth.
    pub symmetry: bool,
}

impl Default for SolverOptions {
    fn default() -> SolverOptions {
        SolverOptions {
            memory_bytes: 256 << 20,
            threads: 1,
            store: Arc::new(NoStore),
            symmetry: true,
        }
    }
}

impl std::fmt::Debug for SolverOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverOptions")
            .field("memory_bytes", &self.memory_bytes)
            .field("threads", &self.threads)
            .field("store_writes", &self.store.writes())
            .field("symmetry", &self.symmetry)
            .finish()
    }
}

/// What happens to the pruning tables while a solver is set up.
#[derive(Debug)]
pub enum TableEvent<'a> {
    /// A table is being filled.
    Filling(&'a FillProgress),
    /// What the store did with a table: loaded it, rejected a copy it
    /// could not trust, kept it or failed to.
    Store(StoreEvent<'a>),
    /// The hashed table of whole positions is being filled.
    Hashing {
        /// Positions within this many moves are inserted.
        depth: u8,
        /// Its entries.
        entries: u64,
    },
}

/// How many solutions to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolutionCount {
    /// The first `n` in order of length, then lexicographic move order.
    First(usize),
    /// Every solution of the optimal length.
    AllOptimal,
}

/// What one search is asked.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// How many solutions.
    pub count: SolutionCount,
    /// Shortest length to consider.
    pub min_depth: u32,
    /// Longest length to consider.
    pub max_depth: u32,
    /// Threads.
    pub threads: usize,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            count: SolutionCount::First(1),
            min_depth: 0,
            max_depth: 40,
            threads: 1,
        }
    }
}

/// Progress of a search.
#[derive(Clone, Debug)]
pub struct SearchProgress {
    /// Depth just searched.
    pub depth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// Solutions so far.
    pub solutions: usize,
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct SolveReport {
    /// Solutions as move indices into the solver's move set.
    pub solutions: Vec<Vec<usize>>,
    /// Nodes visited.
    pub nodes: u64,
    /// Whether the search was stopped before it finished.
    pub stopped: bool,
}

/// A solver for one puzzle, move set and goal.
pub struct Solver {
    layout: Layout,
    moves: MoveSet,
    fsm: CanonicalFsm,
    goal: Pattern,
    tables: Vec<PruneTable>,
    /// Each table's key in the store, and the fill work it grew by since
    /// it was kept.
    table_keys: Vec<(TableKey, u64)>,
    /// The hashed table's most entries, its cache key, and whether it grew
    /// since it was stored.
    hashed_cap: u64,
    hashed_key: TableKey,
    hashed_grown: bool,
    /// Where tables are kept.
    store: Arc<dyn TableStore>,
    threads: usize,
    /// Seconds this solver spent filling tables, and searching (both
    /// measured: a search node's cost varies too much between puzzles for
    /// a constant).
    fill_secs: f64,
    search_secs: f64,
    /// What fill work costs, as last measured.
    rates: FillRates,
    /// Seconds per sequence a hashed fill takes, as last measured.
    sequence_secs: f64,
    /// How many times more nodes each depth of search visits than the last.
    branching: u64,
    /// Exact distances of whole positions near the goal, if there is room.
    hashed: Option<HashedTable>,
    /// The symmetries the hashed table reduces by.
    symmetry: Option<HashedSymmetry>,
    /// Whether h(position⁻¹) is also a lower bound (goal is the identity
    /// and positions are transformations).
    inverse_ok: bool,
    /// Forbidden (byte offset, piece) placements.
    illegal: Vec<(usize, [bool; 256])>,
}

impl Solver {
    /// A solver reaching `goal` (a pattern of `puzzle`) with `moves`,
    /// building pruning tables within `options.memory_bytes`.
    pub fn new(
        puzzle: &Puzzle,
        moves: MoveSet,
        goal: Pattern,
        options: &SolverOptions,
        stop: &AtomicBool,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<Solver, SearchError> {
        let layout = puzzle.layout().clone();
        let fsm = CanonicalFsm::new(&moves)?;
        let (plan, hashed_bytes) = plan_tables(&layout, &goal, &moves, options.memory_bytes);
        let nmoves = moves.moves().len();
        let mut tables = Vec::new();
        let mut fill_secs = 0f64;
        for TablePlan { mut projection } in plan {
            projection.arrange_for(nmoves);
            let key = TableKey::new(
                puzzle.name(),
                table_key(&layout, &moves, &goal, &projection),
            );
            let site = StoreSite {
                store: &*options.store,
                key: &key,
            };
            let for_load = projection.clone();
            let t = site.load_or_build(
                |store, key| cache::load_table(store, key, for_load),
                |events| {
                    let t0 = std::time::Instant::now();
                    let t = PruneTable::build(
                        &layout,
                        projection,
                        &goal,
                        &moves,
                        options.threads,
                        FillLimit::Work(INITIAL_FILL_WORK),
                        stop,
                        &mut |p| events(TableEvent::Filling(p)),
                    )?;
                    fill_secs += t0.elapsed().as_secs_f64();
                    Some(t)
                },
                // A table still waiting for its first layer holds nothing
                // worth writing.
                |store, key, t| {
                    if t.filled_depth() == 0 && !t.is_complete() {
                        return Ok(false);
                    }
                    cache::save_table(store, key, t).map(|()| true)
                },
                PruneTable::bytes,
                events,
            )?;
            tables.push((t, (key, 0)));
        }
        let (mut tables, table_keys): (Vec<PruneTable>, _) = tables.into_iter().unzip();
        // Tables from the cache come without move tables; small ones get
        // them, so the search can carry their coordinates.
        for t in &mut tables {
            t.prepare_moves(&layout, &moves, SEARCH_PREPARATION_WORK);
        }
        let identity = layout.identity_bytes();
        let inverse_ok = goal.as_bytes() == &identity[..];
        let illegal = puzzle
            .illegal()
            .iter()
            .map(|il| {
                let mut mask = [false; 256];
                for &p in &il.pieces {
                    mask[p as usize] = true;
                }
                (layout.offset(il.orbit) + il.slot, mask)
            })
            .collect();
        let hashed_cap = hashed_bytes * 2;
        // Reducing by symmetry saves memory but costs every lookup a least
        // conjugate (up to |R| partial ones): worth it only when memory,
        // not the time a fill takes, is what limits the hashed table.
        let memory_bound = {
            let (by_memory, _) = HashedTable::depth_for(&fsm, None, hashed_cap, u64::MAX);
            let (by_time, _) = HashedTable::depth_for(&fsm, None, u64::MAX, SYMMETRY_SEQUENCES);
            by_memory <= by_time
        };
        let symmetry = if options.symmetry && memory_bound && puzzle.illegal().is_empty() {
            let group =
                SymmetryGroup::for_puzzle(puzzle, &goal, &moves.transformations(), MAX_SYMMETRIES);
            HashedSymmetry::new(std::sync::Arc::new(group), &moves)
        } else {
            None
        };
        let mut sequence_secs = SEQUENCE_SECS;
        let hashed_key = TableKey::new(
            puzzle.name(),
            hashed_key(&layout, &moves, &goal, hashed_cap, symmetry.as_ref()),
        );
        let hashed = if hashed_bytes >= 1 << 16 {
            // Start shallow (a fraction of a second); searching grows it.
            let budget =
                INITIAL_HASHED_SEQUENCES / symmetry.as_ref().map_or(1, |s| s.insert_cost());
            let (depth, sequences) =
                HashedTable::depth_for(&fsm, symmetry.as_ref(), hashed_cap, budget);
            let entries = hashed_entries(hashed_cap, sequences);
            let site = StoreSite {
                store: &*options.store,
                key: &hashed_key,
            };
            let fill = HashedFill {
                entries,
                depth,
                threads: options.threads,
            };
            Some(site.load_or_build(
                |store, key| cache::load_hashed(store, key, hashed_cap, symmetry.as_ref()),
                |events| {
                    events(TableEvent::Hashing { depth, entries });
                    let t0 = std::time::Instant::now();
                    let h = HashedTable::build(
                        &layout,
                        &goal,
                        &moves,
                        &fsm,
                        symmetry.as_ref(),
                        fill,
                        stop,
                    );
                    let secs = t0.elapsed().as_secs_f64();
                    fill_secs += secs;
                    sequence_secs = (secs / sequences.max(1) as f64).clamp(1e-9, 1e-5);
                    h
                },
                |store, key, t| cache::save_hashed(store, key, t).map(|()| true),
                HashedTable::bytes,
                events,
            )?)
        } else {
            None
        };
        let counts = fsm.counts(12);
        let branching = (counts[12] / counts[11].max(1)).clamp(1, 1 << 20) as u64;
        let mut solver = Solver {
            layout,
            moves,
            fsm,
            goal,
            tables,
            table_keys,
            hashed_cap,
            hashed_key,
            hashed_grown: false,
            store: Arc::clone(&options.store),
            threads: options.threads,
            fill_secs,
            search_secs: 0.0,
            rates: FILL_RATES,
            sequence_secs,
            branching,
            hashed,
            symmetry,
            inverse_ok,
            illegal,
        };
        solver.order_tables();
        Ok(solver)
    }

    /// Most informative table first, so most prunes cost one lookup.
    fn order_tables(&mut self) {
        let mut both: Vec<(PruneTable, (TableKey, u64))> = std::mem::take(&mut self.tables)
            .into_iter()
            .zip(std::mem::take(&mut self.table_keys))
            .collect();
        both.sort_by(|a, b| {
            b.0.mean()
                .partial_cmp(&a.0.mean())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        (self.tables, self.table_keys) = both.into_iter().unzip();
    }

    /// Fills the next layers of tables while the search work, done and
    /// expected for the next depth, outweighs the filling done plus the
    /// layer's.
    fn grow_tables(&mut self, expected_secs: f64, stop: &AtomicBool) {
        // The next depth is expected to cost `expected` with the tables as
        // they are. A layer that raises a table's mean bound by `x` makes
        // an iterative-deepening search about `branching^x` times smaller
        // (Korf's estimate), so the expectation shrinks as layers come.
        let mut expected = expected_secs;
        let mut grown = false;
        while let Some(growth) = self.cheapest_growth() {
            if self.search_secs + expected < self.fill_secs + growth.secs() {
                break;
            }
            let t0 = std::time::Instant::now();
            match growth {
                Growth::Deeper {
                    depth, sequences, ..
                } => {
                    let fill = HashedFill {
                        entries: hashed_entries(self.hashed_cap, sequences),
                        depth,
                        threads: self.threads,
                    };
                    let Some(h) = HashedTable::build(
                        &self.layout,
                        &self.goal,
                        &self.moves,
                        &self.fsm,
                        self.symmetry.as_ref(),
                        fill,
                        stop,
                    ) else {
                        break;
                    };
                    let secs = t0.elapsed().as_secs_f64();
                    self.sequence_secs = (secs / sequences.max(1) as f64).clamp(1e-9, 1e-5);
                    self.hashed = Some(h);
                    self.hashed_grown = true;
                    self.fill_secs += secs;
                }
                Growth::Layer { table, cost, .. } => {
                    // The search takes the largest bound, which the best
                    // other table mostly sets: only a mean above theirs
                    // counts as raised.
                    let best_other = (self.tables.iter().enumerate())
                        .filter(|&(i, _)| i != table)
                        .map(|(_, t)| t.mean())
                        .fold(0.0, f64::max);
                    let before = self.tables[table].mean().max(best_other);
                    let done = self.tables[table].extend(
                        &self.layout,
                        &self.moves,
                        self.threads,
                        FillLimit::Work(cost.total()),
                        stop,
                        &mut |_| {},
                    );
                    let Some(w) = done.filter(|&w| w > 0) else {
                        break;
                    };
                    let secs = t0.elapsed().as_secs_f64();
                    self.rates.learn(&cost, secs);
                    let raised = (self.tables[table].mean() - before).max(0.0);
                    expected *= (self.branching as f64).powf(-raised);
                    self.fill_secs += secs;
                    self.table_keys[table].1 = self.table_keys[table].1.saturating_add(w);
                    grown = true;
                }
            }
        }
        if grown {
            self.order_tables();
        }
    }

    /// The cheapest way the tables can grow: a pattern database's next
    /// layer, or the hashed table one move deeper if there is room for it
    /// (a layer first when they cost the same).
    fn cheapest_growth(&self) -> Option<Growth> {
        let nm = self.moves.moves().len();
        let layers = self
            .tables
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.is_complete() && !t.is_interrupted())
            .map(|(table, t)| {
                let cost = t.next_layer_cost(nm);
                Growth::Layer {
                    table,
                    cost,
                    secs: self.rates.secs(&cost),
                }
            });
        let deeper = self.hashed.as_ref().and_then(|h| {
            let depth = h.depth() + 1;
            let sym = self.symmetry.as_ref();
            let (deepest, _) = HashedTable::depth_for(&self.fsm, sym, self.hashed_cap, u64::MAX);
            (deepest >= depth).then(|| {
                // The sequences bound the positions it will hold.
                let walked = HashedTable::walked(&self.fsm, sym, depth as usize);
                let sequences = walked[depth as usize].min(u64::MAX as u128) as u64;
                Growth::Deeper {
                    depth,
                    sequences,
                    // A rate measured on a smaller table, mostly in cache,
                    // is optimistic for a larger one, so no better than
                    // the default. (Counting it twice, as once, made a
                    // search that carries coordinates, and so is cheaper,
                    // put the 4x4x4 flip's depth 8 off until it had
                    // searched 7 M nodes at depth 14 that the deeper table
                    // cuts to 1 M.)
                    secs: sequences as f64 * self.sequence_secs.max(SEQUENCE_SECS),
                }
            })
        });
        layers
            .chain(deeper)
            .min_by(|a, b| a.secs().total_cmp(&b.secs()))
    }

    /// Gives the tables that grew since they were last kept back to the
    /// store: all of them, or with [`SaveGrown::WhenWorthIt`] those whose
    /// growth cost more than writing them. What happens is reported to
    /// `events` (a failure only means the next run grows them again).
    pub fn save_grown_tables(&mut self, which: SaveGrown, events: &mut dyn FnMut(TableEvent)) {
        if !self.store.writes() {
            return;
        }
        let store = &*self.store;
        let mut report = |key: &TableKey, bytes: u64, saved: Result<(), StoreError>| match saved {
            Ok(()) => events(TableEvent::Store(StoreEvent::Saved {
                key,
                location: store.location(key),
                bytes,
            })),
            Err(error) => events(TableEvent::Store(StoreEvent::SaveFailed {
                key,
                error: &error,
            })),
        };
        if let (true, Some(h)) = (self.hashed_grown, &self.hashed) {
            report(
                &self.hashed_key,
                h.bytes(),
                cache::save_hashed(store, &self.hashed_key, h),
            );
            self.hashed_grown = false;
        }
        for (t, (key, grown)) in self.tables.iter().zip(self.table_keys.iter_mut()) {
            let worth = match which {
                SaveGrown::All => *grown > 0,
                // A unit of fill work is a few nanoseconds; writing a byte
                // about one.
                SaveGrown::WhenWorthIt => *grown > t.bytes() / 2,
            };
            if worth && !t.is_interrupted() {
                report(key, t.bytes(), cache::save_table(store, key, t));
                *grown = 0;
            }
        }
    }

    /// The move set.
    pub fn moves(&self) -> &MoveSet {
        &self.moves
    }

    /// The pruning tables.
    pub fn tables(&self) -> &[PruneTable] {
        &self.tables
    }

    /// Names of a solution's moves.
    pub fn names(&self, solution: &[usize]) -> Vec<String> {
        solution
            .iter()
            .map(|&m| self.moves.moves()[m].name.clone())
            .collect()
    }

    /// The hashed table of whole positions, if any.
    pub fn hashed(&self) -> Option<&HashedTable> {
        self.hashed.as_ref()
    }

    /// The lower bound for a position.
    pub fn lower_bound(&self, state: &[u8]) -> u32 {
        let mut h = 0;
        for t in &self.tables {
            h = h.max(t.lookup(&self.layout, state) as u32);
        }
        if let Some(t) = &self.hashed {
            h = h.max(t.lookup(state) as u32);
        }
        if self.inverse_ok {
            let mut inv = vec![0u8; state.len()];
            self.layout.invert_into(state, &mut inv);
            for t in &self.tables {
                h = h.max(t.lookup(&self.layout, &inv) as u32);
            }
            if let Some(t) = &self.hashed {
                h = h.max(t.lookup(&inv) as u32);
            }
        }
        h
    }

    fn legal(&self, state: &[u8]) -> bool {
        self.illegal
            .iter()
            .all(|(off, mask)| !mask[state[*off] as usize])
    }

    /// Searches for solutions from `start` (a pattern with the goal's
    /// pieces), by increasing length.
    pub fn solve(
        &mut self,
        start: &Pattern,
        options: &SolveOptions,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchProgress),
    ) -> SolveReport {
        let mut report = SolveReport::default();
        let wanted = match options.count {
            SolutionCount::First(n) => n,
            SolutionCount::AllOptimal => usize::MAX,
        };
        if wanted == 0 {
            return report;
        }
        // A position an exact table cannot index is not reachable from the
        // goal at all (and must not be looked up).
        // (Only a transformation has an inverse: when the goal is solved.)
        let mut inverse = vec![0u8; start.as_bytes().len()];
        if self.inverse_ok {
            self.layout.invert_into(start.as_bytes(), &mut inverse);
        }
        let indexable = self.tables.iter().all(|t| {
            let p = t.projection();
            p.checked_index(&self.layout, start.as_bytes()).is_some()
                && (!self.inverse_ok || p.checked_index(&self.layout, &inverse).is_some())
        });
        if !indexable {
            return report;
        }
        let mut last_secs = 0f64;
        let mut last_nodes = 0u64;
        let mut depth = options.min_depth;
        while depth <= options.max_depth {
            if stop.load(Ordering::Relaxed) {
                report.stopped = true;
                break;
            }
            self.grow_tables(last_secs * self.branching as f64, stop);
            // The bound may have risen with the tables.
            let bound = self.lower_bound(start.as_bytes());
            depth = depth.max(bound);
            if depth > options.max_depth {
                break;
            }
            let need = wanted - report.solutions.len().min(wanted);
            // Starting threads costs more than a small depth's search.
            let expected_nodes = match last_nodes {
                // Searching a little beyond the bound is quick.
                0 if depth < bound + 3 => 0,
                0 => u64::MAX,
                n => n.saturating_mul(self.branching),
            };
            let threads = if expected_nodes < SMALL_SEARCH_NODES {
                1
            } else {
                options.threads.max(1)
            };
            let t0 = std::time::Instant::now();
            let (found, nodes, stopped) =
                self.search_depth(start.as_bytes(), depth, need, threads, stop);
            last_nodes = nodes;
            last_secs = t0.elapsed().as_secs_f64();
            self.search_secs += last_secs;
            report.nodes += nodes;
            report.solutions.extend(found);
            progress(&SearchProgress {
                depth,
                nodes: report.nodes,
                solutions: report.solutions.len(),
            });
            if stopped {
                report.stopped = true;
                break;
            }
            let done = match options.count {
                SolutionCount::First(n) => report.solutions.len() >= n,
                SolutionCount::AllOptimal => !report.solutions.is_empty(),
            };
            if done {
                break;
            }
            depth += 1;
        }
        report
    }

    /// All prefixes of length `len` (canonical, not pruned) in order.
    fn prefixes(&self, start: &[u8], len: u32, depth: u32) -> Vec<(Vec<usize>, u32, Vec<u8>)> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        self.collect_prefixes(start, CanonicalFsm::START, len, depth, &mut path, &mut out);
        out
    }

    fn collect_prefixes(
        &self,
        state: &[u8],
        fsm: u32,
        len: u32,
        depth: u32,
        path: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, u32, Vec<u8>)>,
    ) {
        if path.len() as u32 == len {
            out.push((path.clone(), fsm, state.to_vec()));
            return;
        }
        let mut child = vec![0u8; state.len()];
        for (m, mv) in self.moves.moves().iter().enumerate() {
            let next = self.fsm.next(fsm, m);
            if next == FORBIDDEN {
                continue;
            }
            self.layout
                .compose_into(state, mv.transformation.as_bytes(), &mut child);
            if !self.legal(&child) || self.lower_bound(&child) > depth - path.len() as u32 - 1 {
                continue;
            }
            path.push(m);
            self.collect_prefixes(&child, next, len, depth, path, out);
            path.pop();
        }
    }

    /// One iteration: every solution of length `depth`, in order, up to
    /// `need` of them.
    fn search_depth(
        &self,
        start: &[u8],
        depth: u32,
        need: usize,
        threads: usize,
        stop: &AtomicBool,
    ) -> (Vec<Vec<usize>>, u64, bool) {
        // Enough prefixes to keep every thread busy and balance the load.
        let mut plen = 0;
        if threads > 1 {
            let counts = self.fsm.counts(depth as usize);
            while plen < depth && counts[plen as usize] < 64 * threads as u128 {
                plen += 1;
            }
        }
        let tasks = self.prefixes(start, plen, depth);
        let results: Vec<Mutex<Option<Vec<Vec<usize>>>>> =
            tasks.iter().map(|_| Mutex::new(None)).collect();
        let next_task = AtomicUsize::new(0);
        let cutoff = AtomicUsize::new(usize::MAX);
        let nodes = AtomicU64::new(0);
        let done_upto = Mutex::new((0usize, 0usize)); // (tasks complete in order, their solutions)
        let work = || {
            let mut w = Worker::new(self, depth);
            loop {
                let i = next_task.fetch_add(1, Ordering::Relaxed);
                if i >= tasks.len()
                    || i >= cutoff.load(Ordering::Relaxed)
                    || stop.load(Ordering::Relaxed)
                {
                    break;
                }
                let (path, fsm, state) = &tasks[i];
                w.solutions.clear();
                w.path.clear();
                w.path.extend_from_slice(path);
                w.stack[plen as usize * w.len..(plen as usize + 1) * w.len].copy_from_slice(state);
                w.read_coords(plen as usize);
                let aborted = w.dfs(plen as usize, depth - plen, *fsm, need, &|| {
                    i >= cutoff.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed)
                });
                if aborted {
                    continue;
                }
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(std::mem::take(&mut w.solutions));
                // Advance the in-order completion front.
                let mut front = done_upto.lock().unwrap_or_else(|e| e.into_inner());
                while front.0 < tasks.len() {
                    let r = results[front.0].lock().unwrap_or_else(|e| e.into_inner());
                    match &*r {
                        Some(s) => {
                            front.1 += s.len();
                            front.0 += 1;
                        }
                        None => break,
                    }
                    if front.1 >= need {
                        cutoff.fetch_min(front.0, Ordering::Relaxed);
                        break;
                    }
                }
            }
            nodes.fetch_add(w.nodes, Ordering::Relaxed);
        };
        let workers = threads.min(tasks.len()).max(1);
        if workers == 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 0..workers {
                    scope.spawn(work);
                }
            });
        }
        let front = done_upto.into_inner().unwrap_or_else(|e| e.into_inner());
        let complete = front.0;
        let stopped = stop.load(Ordering::Relaxed) && complete < tasks.len() && front.1 < need;
        let mut found = Vec::new();
        for r in results.into_iter().take(complete) {
            if let Some(s) = r.into_inner().unwrap_or_else(|e| e.into_inner()) {
                found.extend(s);
            }
        }
        found.truncate(need);
        (found, nodes.load(Ordering::Relaxed), stopped)
    }
}

/// A step [`Solver::grow_tables`] can take, with the seconds it is
/// expected to take.
enum Growth {
    /// Fill pattern database `table`'s next layer.
    Layer {
        table: usize,
        cost: LayerCost,
        secs: f64,
    },
    /// Refill the hashed table with positions within `depth` moves.
    Deeper {
        depth: u8,
        sequences: u64,
        secs: f64,
    },
}

impl Growth {
    fn secs(&self) -> f64 {
        match *self {
            Growth::Layer { secs, .. } | Growth::Deeper { secs, .. } => secs,
        }
    }
}

/// Which grown tables [`Solver::save_grown_tables`] gives to the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveGrown {
    /// Every table that grew.
    All,
    /// Those whose growth cost more time than writing them would.
    WhenWorthIt,
}

/// What identifies a table: the format, the puzzle's layout, the moves, the
/// goal and the projection.
fn table_key(
    layout: &Layout,
    moves: &MoveSet,
    goal: &Pattern,
    projection: &crate::projection::Projection,
) -> u64 {
    let mut bytes = search_bytes(layout, moves, goal);
    bytes.extend_from_slice(projection.signature());
    fnv1a(&bytes, 1)
}

/// One table's place in the store.
struct StoreSite<'a> {
    store: &'a dyn TableStore,
    key: &'a TableKey,
}

impl StoreSite<'_> {
    /// Reads the table from the store (a copy that cannot be used is
    /// reported and discarded), else builds it and gives it to the store
    /// (unless `save` finds nothing worth keeping: `Ok(false)`); `Err`
    /// only if the build was stopped.
    fn load_or_build<T>(
        &self,
        load: impl FnOnce(&dyn TableStore, &TableKey) -> Result<Option<T>, StoreError>,
        build: impl FnOnce(&mut dyn FnMut(TableEvent)) -> Option<T>,
        save: impl FnOnce(&dyn TableStore, &TableKey, &T) -> Result<bool, StoreError>,
        bytes_of: impl Fn(&T) -> u64,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<T, SearchError> {
        let (store, key) = (self.store, self.key);
        match load(store, key) {
            Ok(Some(t)) => {
                events(TableEvent::Store(StoreEvent::Loaded {
                    key,
                    location: store.location(key),
                    bytes: bytes_of(&t),
                }));
                return Ok(t);
            }
            Ok(None) => {}
            Err(error) => {
                events(TableEvent::Store(StoreEvent::Rejected {
                    key,
                    location: store.location(key),
                    error: &error,
                }));
                store.discard(key);
            }
        }
        let t = build(events).ok_or(SearchError::Stopped)?;
        if store.writes() {
            match save(store, key, &t) {
                Ok(true) => events(TableEvent::Store(StoreEvent::Saved {
                    key,
                    location: store.location(key),
                    bytes: bytes_of(&t),
                })),
                Ok(false) => {}
                Err(error) => events(TableEvent::Store(StoreEvent::SaveFailed {
                    key,
                    error: &error,
                })),
            }
        }
        Ok(t)
    }
}

/// The cache key of a hashed table: what [`table_key`] covers, with the
/// most entries it may have and the version of the position hash (not its
/// depth: a table grown deeper replaces the shallower one).
fn hashed_key(
    layout: &Layout,
    moves: &MoveSet,
    goal: &Pattern,
    max_entries: u64,
    symmetry: Option<&HashedSymmetry>,
) -> u64 {
    /// Bump when [`crate::hashed`]'s hash of positions changes.
    const HASH_VERSION: u64 = 1;
    let mut bytes = search_bytes(layout, moves, goal);
    bytes.extend_from_slice(b"hashed");
    for v in [HASH_VERSION, max_entries] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    // The rotations it reduces by (the identity alone adds nothing, so
    // tables cached before symmetry keep their keys).
    if let Some(s) = symmetry {
        let group = s.group();
        for i in 0..group.order() {
            bytes.extend_from_slice(group.rotation(i));
        }
    }
    fnv1a(&bytes, 2)
}

/// What every table depends on: the orbits, the moves and the goal.
fn search_bytes(layout: &Layout, moves: &MoveSet, goal: &Pattern) -> Vec<u8> {
    let mut bytes = Vec::new();
    for o in layout.orbits() {
        bytes.extend_from_slice(o.name().as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(&(o.num_pieces() as u32).to_le_bytes());
        bytes.push(o.num_orientations() as u8);
    }
    for m in moves.moves() {
        bytes.extend_from_slice(m.transformation.as_bytes());
    }
    bytes.extend_from_slice(goal.as_bytes());
    bytes
}

/// A table a node's children can be judged by, in two steps so that a
/// batch's memory reads overlap: where each child's entry is, then the entries.
trait LowerBound {
    /// The index of `state`'s entry (`scratch` is space of a state's length).
    fn index_of(&self, layout: &Layout, state: &[u8], scratch: &mut [u8]) -> u64;
    fn bound_at(&self, index: u64) -> u8;
}

impl LowerBound for PruneTable {
    #[inline]
    fn index_of(&self, layout: &Layout, state: &[u8], _scratch: &mut [u8]) -> u64 {
        self.projection().index(layout, state)
    }
    #[inline]
    fn bound_at(&self, index: u64) -> u8 {
        self.entry(index)
    }
}

impl LowerBound for HashedTable {
    #[inline]
    fn index_of(&self, _layout: &Layout, state: &[u8], scratch: &mut [u8]) -> u64 {
        self.index(state, scratch)
    }
    #[inline]
    fn bound_at(&self, index: u64) -> u8 {
        self.entry(index)
    }
}

/// One thread's search state.
///
/// A node's children are generated and judged together: every child's
/// index into the first table is computed, then all their entries are
/// read (independent loads, so the memory system overlaps the misses),
/// survivors go on to the next table, and so on; only then does the search
/// descend into the survivors, in move order.
struct Worker<'s> {
    solver: &'s Solver,
    len: usize,
    nmoves: usize,
    /// The state of the node at each level of the current path.
    stack: Vec<u8>,
    /// Per level: the candidate children's states.
    kids: Vec<u8>,
    /// Per level: each candidate's move and automaton state.
    kid_move: Vec<u16>,
    kid_next: Vec<u32>,
    /// Per level: the candidates that survived pruning, and how many.
    alive: Vec<u16>,
    alive_count: Vec<usize>,
    /// Scratch: inverses of the current node's children, indices, values.
    inverse: Vec<u8>,
    /// Scratch: a least conjugate.
    canon: Vec<u8>,
    /// Per table: where its coordinates start among a node's, if the
    /// search carries them (its projection moves by tables).
    coord_at: Vec<Option<usize>>,
    /// Coordinates per node, of all carried tables.
    coords: usize,
    /// Per level: the node's carried coordinates; and per level and
    /// candidate child, the child's.
    node_coords: Vec<u64>,
    kid_coords: Vec<u64>,
    index: Vec<u64>,
    path: Vec<usize>,
    solutions: Vec<Vec<usize>>,
    nodes: u64,
    checks: u32,
}

impl<'s> Worker<'s> {
    fn new(solver: &'s Solver, depth: u32) -> Worker<'s> {
        let len = solver.layout.state_len();
        let nmoves = solver.moves.moves().len();
        let levels = depth as usize + 2;
        let mut coords = 0;
        let coord_at = solver
            .tables
            .iter()
            .map(|t| {
                let p = t.projection();
                p.moves_by_table().then(|| {
                    coords += p.num_coords();
                    coords - p.num_coords()
                })
            })
            .collect();
        Worker {
            coord_at,
            coords,
            node_coords: vec![0; coords * levels],
            kid_coords: vec![0; coords * nmoves * levels],
            solver,
            len,
            nmoves,
            stack: vec![0u8; len * levels],
            kids: vec![0u8; len * nmoves * levels],
            kid_move: vec![0; nmoves * levels],
            kid_next: vec![0; nmoves * levels],
            alive: vec![0; nmoves * levels],
            alive_count: vec![0; levels],
            inverse: vec![0u8; len * nmoves],
            canon: vec![0u8; len],
            index: vec![0; nmoves],
            path: Vec::with_capacity(levels),
            solutions: Vec::new(),
            nodes: 0,
            checks: 0,
        }
    }

    /// The carried coordinates of the node at `level`, read from its state.
    fn read_coords(&mut self, level: usize) {
        let s = self.solver;
        let state = &self.stack[level * self.len..(level + 1) * self.len];
        for (t, at) in s.tables.iter().zip(&self.coord_at) {
            if let Some(at) = *at {
                let p = t.projection();
                let out = &mut self.node_coords[level * self.coords + at..][..p.num_coords()];
                p.read_coords(&s.layout, state, out);
            }
        }
    }

    /// [`Worker::prune_with`] for table `ti`, whose coordinates are carried
    /// (at `at` among a node's): each child's follow from the node's by
    /// the move tables.
    fn prune_carried(&mut self, level: usize, ti: usize, at: usize, bound: u32) {
        let table = &self.solver.tables[ti];
        let p = table.projection();
        let nc = p.num_coords();
        let base = level * self.nmoves;
        let count = self.alive_count[level];
        let node = &self.node_coords[level * self.coords + at..][..nc];
        for a in 0..count {
            let c = self.alive[base + a] as usize;
            let m = self.kid_move[base + c] as usize;
            let out = &mut self.kid_coords[(base + c) * self.coords + at..][..nc];
            self.index[a] = p.step_coords(node, m, out);
        }
        self.keep_within(level, bound, |i| table.entry(i));
    }

    /// Keeps the alive children of `level` whose entries, read by
    /// `bound_at` at the indices just computed, are within `bound`.
    fn keep_within(&mut self, level: usize, bound: u32, bound_at: impl Fn(u64) -> u8) {
        let base = level * self.nmoves;
        let mut kept = 0;
        for a in 0..self.alive_count[level] {
            if (bound_at(self.index[a]) as u32) <= bound {
                self.alive[base + kept] = self.alive[base + a];
                kept += 1;
            }
        }
        self.alive_count[level] = kept;
    }

    /// Keeps the alive children of `level` whose entries in `table`, read
    /// from `states` (`len` bytes per candidate, by candidate), are within
    /// `bound`.
    fn prune_with<T: LowerBound>(
        &mut self,
        level: usize,
        table: &T,
        from_inverse: bool,
        bound: u32,
    ) {
        let s = self.solver;
        let len = self.len;
        let base = level * self.nmoves;
        let count = self.alive_count[level];
        let states: &[u8] = if from_inverse {
            &self.inverse
        } else {
            &self.kids[base * len..(base + self.nmoves) * len]
        };
        for a in 0..count {
            let c = self.alive[base + a] as usize;
            self.index[a] =
                table.index_of(&s.layout, &states[c * len..(c + 1) * len], &mut self.canon);
        }
        self.keep_within(level, bound, |i| table.bound_at(i));
    }

    /// Depth-first search below `level` with `remaining` moves to go.
    /// Returns whether it was aborted.
    fn dfs(
        &mut self,
        level: usize,
        remaining: u32,
        fsm: u32,
        need: usize,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        self.nodes += 1;
        self.checks += 1;
        if self.checks >= 1 << 16 {
            self.checks = 0;
            if abort() {
                return true;
            }
        }
        let s = self.solver;
        let len = self.len;
        if remaining == 0 {
            if &self.stack[level * len..(level + 1) * len] == s.goal.as_bytes() {
                self.solutions.push(self.path.clone());
            }
            return false;
        }
        // Generate the children.
        let base = level * self.nmoves;
        let mut count = 0;
        for (m, mv) in s.moves.moves().iter().enumerate() {
            let next = s.fsm.next(fsm, m);
            if next == FORBIDDEN {
                continue;
            }
            let (cur, rest) = self.stack.split_at_mut((level + 1) * len);
            let _ = rest;
            let kid = &mut self.kids[(base + count) * len..(base + count + 1) * len];
            s.layout
                .compose_into(&cur[level * len..], mv.transformation.as_bytes(), kid);
            if !s.illegal.is_empty() && !s.legal(kid) {
                continue;
            }
            self.kid_move[base + count] = m as u16;
            self.kid_next[base + count] = next;
            self.alive[base + count] = count as u16;
            count += 1;
        }
        self.alive_count[level] = count;
        // Judge them, table by table, then on their inverses.
        let bound = remaining - 1;
        for (ti, t) in s.tables.iter().enumerate() {
            if self.alive_count[level] == 0 {
                break;
            }
            // (A table whose entries are all within the bound cannot
            // prune: skipped, unless its coordinates must be carried.)
            match self.coord_at[ti] {
                Some(at) => self.prune_carried(level, ti, at, bound),
                None if (t.max_entry() as u32) > bound => self.prune_with(level, t, false, bound),
                None => {}
            }
        }
        // The hashed table's entries are at most one more than its depth.
        let hashed = s.hashed.as_ref().filter(|h| h.depth() as u32 >= bound);
        if let Some(h) = hashed {
            if self.alive_count[level] > 0 {
                self.prune_with(level, h, false, bound);
            }
        }
        if s.inverse_ok && self.alive_count[level] > 0 {
            for a in 0..self.alive_count[level] {
                let c = self.alive[base + a] as usize;
                let (kids, inv) = (
                    &self.kids[(base + c) * len..(base + c + 1) * len],
                    &mut self.inverse[c * len..(c + 1) * len],
                );
                s.layout.invert_into(kids, inv);
            }
            for t in s.tables.iter().filter(|t| (t.max_entry() as u32) > bound) {
                if self.alive_count[level] == 0 {
                    break;
                }
                self.prune_with(level, t, true, bound);
            }
            if let Some(h) = hashed {
                if self.alive_count[level] > 0 {
                    self.prune_with(level, h, true, bound);
                }
            }
        }
        // Descend into the survivors, in move order.
        for a in 0..self.alive_count[level] {
            let c = self.alive[base + a] as usize;
            let (head, tail) = self.stack.split_at_mut((level + 1) * len);
            let _ = head;
            tail[..len].copy_from_slice(&self.kids[(base + c) * len..(base + c + 1) * len]);
            let tc = self.coords;
            self.node_coords[(level + 1) * tc..(level + 2) * tc]
                .copy_from_slice(&self.kid_coords[(base + c) * tc..(base + c + 1) * tc]);
            self.path.push(self.kid_move[base + c] as usize);
            let aborted = self.dfs(
                level + 1,
                remaining - 1,
                self.kid_next[base + c],
                need,
                abort,
            );
            self.path.pop();
            if aborted {
                return true;
            }
            if self.solutions.len() >= need {
                return false;
            }
        }
        false
    }
}
