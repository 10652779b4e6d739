//! Optimal search: IDA* over canonical sequences, pruned by pattern
//! databases, on several threads with results independent of their number.
//!
//! A [`Solver`] is set up once for a puzzle, a move set and a goal
//! (`tables`: its pruning tables, from the store it is given or filled,
//! and grown while searching shows them worth it), then answers any number
//! of positions: [`Solver::solutions`] yields a position's solutions
//! shortest first, lazily (`solutions`), and [`Solver::solve`] collects
//! them as [`SolveOptions`] asks; the search itself is in `ida`.
//! Tables go back to the store when built, and when the caller asks for
//! grown ones to be kept ([`Solver::save_grown_tables`]): nothing is
//! written behind the caller's back.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use twistor_core::store::{NoStore, StoreEvent, TableKey, TableStore};
use twistor_core::{Layout, Pattern};

use crate::canonical::CanonicalFsm;
use crate::hashed::{HashedSymmetry, HashedTable};
use crate::table::{FillProgress, PruneTable};
use crate::MoveSet;

mod ida;
mod solutions;
mod tables;

pub use solutions::Solutions;

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

/// One step of a table's growth while searching, and why it was taken:
/// the search expected for the next depth (with the tables as they were
/// before the step) outweighed the filling, both modelled in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct TableGrowth {
    /// The depth about to be searched.
    pub before_depth: u32,
    /// The table: a projection's description, or "hashed positions".
    pub table: String,
    /// The depth it is filled to now.
    pub to_depth: u8,
    /// Its mean bound now (a pattern database's; positions not reached
    /// yet count one beyond the depth filled).
    pub mean: Option<f64>,
    /// Whether it holds every position now (a pattern database's last
    /// step finds that the layers beyond are empty).
    pub complete: bool,
    /// Whether the step built a complete table's move tables (so that the
    /// search carries its coordinates) rather than filling it.
    pub move_tables: bool,
    /// The step's modelled seconds.
    pub secs: f64,
    /// The next depth's modelled search seconds before the step.
    pub expected_search_secs: f64,
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
    /// Most nodes to visit (see [`Solutions::node_limit`]).
    pub node_limit: u64,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            count: SolutionCount::First(1),
            min_depth: 0,
            max_depth: 40,
            threads: 1,
            node_limit: u64::MAX,
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
    /// Whether it was the node limit that stopped it.
    pub over_limit: bool,
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
    /// Seconds this solver is modelled to have spent growing tables and
    /// searching: modelled from counts rather than timed, so that the
    /// tables grow the same way every run.
    fill_secs: f64,
    search_secs: f64,
    /// The tables' growth while searching, in order.
    growth_log: Vec<TableGrowth>,
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

    /// How the tables grew while searching, and why, in order.
    pub fn growth_log(&self) -> &[TableGrowth] {
        &self.growth_log
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
    /// pieces), by increasing length: [`Solver::solutions`], collected as
    /// `options` asks.
    pub fn solve(
        &mut self,
        start: &Pattern,
        options: &SolveOptions,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&SearchProgress),
    ) -> SolveReport {
        let wanted = match options.count {
            SolutionCount::First(n) => n,
            SolutionCount::AllOptimal => usize::MAX,
        };
        let mut report = SolveReport::default();
        if wanted == 0 {
            return report;
        }
        let mut solutions = self
            .solutions(start)
            .threads(options.threads)
            .min_depth(options.min_depth)
            .max_depth(options.max_depth)
            .expect(wanted)
            .stop_on(stop)
            .node_limit(options.node_limit)
            .on_progress(progress);
        while report.solutions.len() < wanted {
            let Some(s) = solutions.next() else { break };
            if options.count == SolutionCount::AllOptimal {
                solutions.this_depth_only();
            }
            report.solutions.push(s);
        }
        report.nodes = solutions.nodes();
        report.stopped = solutions.stopped();
        report.over_limit = solutions.over_limit();
        report
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
