//! Which engine solves a position, and when to switch: `twistor solve`'s
//! policy as a library, so a web page or another program solves as the
//! command line does.
//!
//! A [`Portfolio`] is set up for a puzzle, a move set and a goal. When the
//! definition is the 3x3x3 turned by its six faces and one solution is
//! asked for, the dedicated optimal solver (Kociemba's coordinates,
//! `twistor-cube333`) answers, at once if its tables are in the store;
//! otherwise the generic search, which grows its tables as it goes and
//! solves short positions sooner, gets [`GENERIC_FIRST_SECS`] first and
//! the dedicated solver takes the position it could not solve in that time
//! and the rest (at most about twice the better of the two). The dedicated
//! solver starts with the phase-1 table (seconds to build) and builds its
//! huge table (minutes, 1.34 GB) only for a position that needs it and only
//! when memory allows. Positions the moves cannot reach are told apart
//! before searching, by sifting, where that can be decided; with
//! [`Orientation::AnyRotation`] every orientation the puzzle can be held in
//! is tried, depth by depth, so the first answer is the shortest.
//!
//! Everything that happens is reported as a [`PortfolioEvent`]; the work
//! stops when the stop flag is set.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use twistor_core::store::TableStore;
use twistor_core::{Pattern, Puzzle, StabilizerChain};
use twistor_cube333::{
    CubeCorrespondence, OptimalOptions, OptimalProgress, OptimalSolver, OptimalTableKind,
};
use twistor_search::{
    Metric, MoveSet, SaveGrown, SearchProgress, SolutionCount, SolveOptions, SolveReport, Solver,
    SolverOptions, TableEvent,
};

use crate::analysis::{reachability, Reachability};
use crate::rotations::WholeRotations;
use crate::ToolError;

/// Seconds the generic search gets, over all positions, on a definition
/// recognised as the 3x3x3 before the dedicated solver builds its tables
/// (which takes about 5 s on two cores).
pub const GENERIC_FIRST_SECS: f64 = 3.0;
/// Memory from which the dedicated solver may use its huge table (the
/// table and the solver's own memory: a solve peaks at 1325 MiB).
pub const HUGE_TABLE_MEMORY: u64 = 1350 << 20;
/// Memory from which the dedicated solver uses its giant table (3.79 GB)
/// once that table is cached.
pub const GIANT_TABLE_MEMORY: u64 = 3800 << 20;
/// Memory from which an optimal 3x3x3 solve with a limit the user gave
/// builds the giant table when it is not cached (the build held 7.6 GB
/// at its peak and takes minutes).
pub const GIANT_BUILD_MEMORY: u64 = 7600 << 20;

/// The strongest optimal-solver table within `memory` bytes: the giant
/// table when it fits and is cached, or when its build fits too and
/// `may_build_giant` (a limit the user gave, not a guess from the memory
/// free: a first solve should not wait minutes for a build nobody asked
/// for); else the huge table from [`HUGE_TABLE_MEMORY`]; else the
/// phase-1 table.
pub fn optimal_table_within(
    memory: u64,
    may_build_giant: bool,
    store: &dyn TableStore,
) -> OptimalTableKind {
    let giant_cached = || OptimalSolver::table_cached(OptimalTableKind::Giant, store);
    if memory >= GIANT_TABLE_MEMORY
        && ((may_build_giant && memory >= GIANT_BUILD_MEMORY) || giant_cached())
    {
        OptimalTableKind::Giant
    } else if memory >= HUGE_TABLE_MEMORY {
        OptimalTableKind::Huge
    } else {
        OptimalTableKind::Small
    }
}

/// Until the huge table is cached, positions within this many moves are
/// solved with the phase-1 table (seconds), and the huge one is built only
/// for a deeper one.
const SMALL_FIRST: u8 = 15;
/// When the huge table is cached (loading it takes seconds), positions
/// within this many moves are still solved with the phase-1 table, which
/// answers them in a tenth of a second.
const SMALL_FIRST_CACHED: u8 = 14;

/// Which engines may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engines {
    /// A dedicated solver where one fits the puzzle, else the generic search.
    Any,
    /// The generic search only.
    GenericOnly,
}

/// Which positions count as solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// The goal as it is held (as twsearch and cubing.js solve).
    AsHeld,
    /// The goal in any orientation the puzzle can be held in; a solution
    /// is written as the rotation, then the moves.
    AnyRotation,
}

/// How a portfolio searches.
#[derive(Clone)]
pub struct PortfolioOptions {
    /// Memory the generic search's tables may use, in bytes.
    pub memory_bytes: u64,
    /// Memory the dedicated 3x3x3 solver's table may use, in bytes: its
    /// huge table (1.34 GB, which the superflip and other deep positions
    /// need to be solved in minutes rather than hours) is used from
    /// [`HUGE_TABLE_MEMORY`] on. Callers pass `memory_bytes` when the user
    /// set a limit, and what the machine has free otherwise.
    pub dedicated_memory_bytes: u64,
    /// Threads.
    pub threads: usize,
    /// How many solutions.
    pub count: SolutionCount,
    /// Shortest length to consider.
    pub min_depth: u32,
    /// Longest length to consider.
    pub max_depth: u32,
    /// Which engines may answer.
    pub engines: Engines,
    /// Which positions count as solved.
    pub orientation: Orientation,
    /// Whether the generic search's hashed table may be reduced by symmetry.
    pub symmetry: bool,
    /// Where tables are kept between runs.
    pub store: Arc<dyn TableStore>,
    /// Called, from the dedicated solver's threads, with its progress.
    pub optimal_progress: Option<Arc<dyn Fn(OptimalProgress) + Send + Sync>>,
}

impl std::fmt::Debug for PortfolioOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PortfolioOptions")
            .field("memory_bytes", &self.memory_bytes)
            .field("dedicated_memory_bytes", &self.dedicated_memory_bytes)
            .field("threads", &self.threads)
            .field("count", &self.count)
            .field("min_depth", &self.min_depth)
            .field("max_depth", &self.max_depth)
            .field("engines", &self.engines)
            .field("orientation", &self.orientation)
            .finish()
    }
}

/// Something a person may want to know about the choice of engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// The 3x3x3 is recognised and its dedicated tables are cached: the
    /// dedicated optimal solver takes every position.
    Dedicated {
        /// The table it starts with.
        table: OptimalTableKind,
    },
    /// The 3x3x3 is recognised but the dedicated solver's tables are not
    /// cached: the generic search gets this many seconds first.
    GenericFirst {
        /// Its time, over all positions.
        secs: f64,
    },
    /// The generic search did not solve a position in its time: the
    /// dedicated solver takes it and the rest.
    SwitchedToDedicated,
    /// A position is longer than the phase-1 table solves quickly: a
    /// deeper table is loaded (and built, once, if it is not cached).
    DeepTable {
        /// The length it is longer than.
        limit: u8,
        /// The table loaded.
        table: OptimalTableKind,
    },
    /// With pieces alike, whether the moves reach the position is not
    /// known before searching; if it is the puzzle held differently,
    /// [`Orientation::AnyRotation`] solves it.
    ReachabilityUnknown,
}

/// What happens while a portfolio is set up and solves.
#[derive(Debug)]
pub enum PortfolioEvent<'a> {
    /// Something happened to a table (of either engine).
    Table(TableEvent<'a>),
    /// The generic search finished a depth.
    Search(&'a SearchProgress),
    /// A choice of engine, or a reason to wait.
    Notice(Notice),
}

/// Which engine answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The generic search.
    Generic,
    /// The dedicated optimal 3x3x3 solver.
    Dedicated,
}

/// How a position's search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Solutions were found.
    Solved,
    /// None within the longest length asked for.
    NotWithin,
    /// No sequence of the moves reaches the position (in any orientation,
    /// with [`Orientation::AnyRotation`]).
    Unreachable,
    /// Stopped before it was done (the solutions found are kept).
    Stopped,
}

/// A position's answer.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The solutions, each in the puzzle's notation (with
    /// [`Orientation::AnyRotation`], the rotation first).
    pub solutions: Vec<String>,
    /// Their length in moves (not counting a rotation).
    pub length: Option<usize>,
    /// How the search ended.
    pub outcome: Outcome,
    /// Which engine answered.
    pub engine: Engine,
    /// Nodes the search visited.
    pub nodes: u64,
}

/// The dedicated 3x3x3 solver, once chosen.
struct Dedicated {
    correspondence: CubeCorrespondence,
    solver: Option<(OptimalSolver, OptimalTableKind)>,
}

/// Solves positions of one puzzle with the engine that suits them.
pub struct Portfolio<'p> {
    puzzle: &'p Puzzle,
    goal: Pattern,
    options: PortfolioOptions,
    generic: Option<Solver>,
    /// The 3x3x3 recognised, before or after its solver took over.
    dedicated: Option<Dedicated>,
    /// Whether the dedicated solver answers (from now on).
    dedicated_active: bool,
    /// The generic search's remaining time before the dedicated solver
    /// takes over, when the 3x3x3 is recognised.
    generic_budget: Option<f64>,
    chain: Option<StabilizerChain>,
    rotations: Option<WholeRotations>,
}

impl<'p> Portfolio<'p> {
    /// A portfolio reaching `goal` (a pattern of `puzzle`) with `moves`.
    /// Sets up the engine that will answer first (building or loading its
    /// tables: reported to `events`).
    pub fn new(
        puzzle: &'p Puzzle,
        moves: MoveSet,
        goal: Pattern,
        options: PortfolioOptions,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Portfolio<'p>, ToolError> {
        let grips: Vec<usize> = moves.grips().iter().map(|g| g.puzzle_move).collect();
        let rotations = match options.orientation {
            Orientation::AsHeld => None,
            Orientation::AnyRotation => {
                let group = WholeRotations::of(puzzle)?;
                if group.is_empty() {
                    return Err(ToolError::NoRotations);
                }
                Some(group)
            }
        };
        let one_solution = options.count == SolutionCount::First(1)
            && options.min_depth == 0
            && goal == *puzzle.start();
        let whole_turns =
            moves.metric() == Metric::Htm && moves.grips().iter().all(|g| g.step == 1);
        let mut portfolio = Portfolio {
            puzzle,
            goal,
            options,
            generic: None,
            dedicated: None,
            dedicated_active: false,
            generic_budget: None,
            chain: None,
            rotations,
        };
        let dedicated_allowed = one_solution
            && whole_turns
            && portfolio.options.engines == Engines::Any
            && portfolio.rotations.is_none();
        if dedicated_allowed {
            if let Some(correspondence) = CubeCorrespondence::find(puzzle, &grips) {
                portfolio.dedicated = Some(Dedicated {
                    correspondence,
                    solver: None,
                });
                if portfolio.dedicated_tables_cached() {
                    portfolio.activate_dedicated(events);
                    return Ok(portfolio);
                }
                events(PortfolioEvent::Notice(Notice::GenericFirst {
                    secs: GENERIC_FIRST_SECS,
                }));
                portfolio.generic_budget = Some(GENERIC_FIRST_SECS);
            }
        }
        let solver_options = SolverOptions {
            memory_bytes: portfolio.options.memory_bytes,
            threads: portfolio.options.threads,
            store: Arc::clone(&portfolio.options.store),
            symmetry: portfolio.options.symmetry,
        };
        let solver = Solver::new(
            puzzle,
            moves,
            portfolio.goal.clone(),
            &solver_options,
            stop,
            &mut |e| events(PortfolioEvent::Table(e)),
        )?;
        // Sifting decides reachability only for a goal of distinct pieces:
        // the group is not built for a goal it cannot help with.
        if puzzle.layout().transformation_of(&portfolio.goal).is_some() {
            portfolio.chain = Some(reachability_chain(puzzle, &grips, &solver));
        }
        portfolio.generic = Some(solver);
        Ok(portfolio)
    }

    /// The generic search, while it answers.
    pub fn generic(&self) -> Option<&Solver> {
        self.generic.as_ref().filter(|_| !self.dedicated_active)
    }

    /// Which engine answers the next position.
    pub fn engine(&self) -> Engine {
        if self.dedicated_active {
            Engine::Dedicated
        } else {
            Engine::Generic
        }
    }

    /// Solves `position` (a pattern with the goal's pieces).
    pub fn solve(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Answer, ToolError> {
        if self.dedicated_active {
            return self.solve_dedicated(position, stop, events);
        }
        let reach = |p: &Pattern| match &self.chain {
            Some(c) => reachability(self.puzzle.layout(), c, &self.goal, p),
            None => Reachability::Unknown,
        };
        if self.rotations.is_none() {
            match reach(position) {
                Reachability::Unreachable => {
                    return Ok(Answer {
                        solutions: Vec::new(),
                        length: None,
                        outcome: Outcome::Unreachable,
                        engine: Engine::Generic,
                        nodes: 0,
                    })
                }
                Reachability::Unknown if !self.puzzle.rotations().is_empty() => {
                    events(PortfolioEvent::Notice(Notice::ReachabilityUnknown))
                }
                _ => {}
            }
        }
        // Each orientation the puzzle may be held in is a start of its own;
        // the identity first.
        let candidates: Vec<(String, Pattern)> = match &self.rotations {
            None => vec![(String::new(), position.clone())],
            Some(group) => group
                .iter()
                .map(|r| {
                    let p = self.puzzle.layout().apply(position, &r.transformation);
                    (r.name.clone(), p)
                })
                .filter(|(_, p)| reach(p) != Reachability::Unreachable)
                .collect(),
        };
        let o = &self.options;
        let solve_options = SolveOptions {
            count: o.count,
            min_depth: o.min_depth,
            max_depth: o.max_depth,
            threads: o.threads,
        };
        // One search over the whole depth range; with every orientation,
        // they are searched depth by depth in turn, so the first answer is
        // the shortest over all of them, and an orientation the moves
        // cannot reach (which sifting cannot always tell when pieces are
        // alike) never holds the others up.
        let attempts: Vec<(usize, SolveOptions)> = match &self.rotations {
            None => vec![(0, solve_options)],
            Some(_) => (o.min_depth..=o.max_depth)
                .flat_map(|d| {
                    let one_depth = SolveOptions {
                        min_depth: d,
                        max_depth: d,
                        ..solve_options.clone()
                    };
                    (0..candidates.len()).map(move |c| (c, one_depth.clone()))
                })
                .collect(),
        };
        let t0 = Instant::now();
        let mut best: Option<(usize, SolveReport)> = None;
        let mut nodes = 0;
        let budget = self.generic_budget;
        let solver = self.generic.as_mut().expect("the generic search answers");
        for (c, options) in &attempts {
            let report = solve_within(solver, &candidates[*c].1, options, budget, stop, &mut |p| {
                events(PortfolioEvent::Search(p))
            });
            nodes += report.nodes;
            let found = !report.solutions.is_empty() || report.stopped;
            best = Some((*c, report));
            if found {
                break;
            }
        }
        let user_stopped = stop.load(Ordering::Relaxed);
        if let Some(budget) = &mut self.generic_budget {
            *budget -= t0.elapsed().as_secs_f64();
            if best.as_ref().is_some_and(|(_, r)| r.stopped) && !user_stopped {
                // Out of time: the dedicated solver takes this and the rest.
                self.save_grown_tables(SaveGrown::All, events);
                events(PortfolioEvent::Notice(Notice::SwitchedToDedicated));
                self.activate_dedicated(events);
                return self.solve_dedicated(position, stop, events);
            }
        }
        let solver = self.generic.as_ref().expect("the generic search answers");
        let Some((c, report)) = best else {
            // Every orientation unreachable.
            return Ok(Answer {
                solutions: Vec::new(),
                length: None,
                outcome: Outcome::Unreachable,
                engine: Engine::Generic,
                nodes,
            });
        };
        let rotation = &candidates[c].0;
        let solutions: Vec<String> = report
            .solutions
            .iter()
            .map(|s| {
                let moves = solver.names(s).join(" ");
                match (rotation.is_empty(), moves.is_empty()) {
                    (true, _) => moves,
                    (false, true) => rotation.clone(),
                    (false, false) => format!("{rotation} {moves}"),
                }
            })
            .collect();
        let outcome = match (report.stopped, solutions.is_empty()) {
            (true, _) => Outcome::Stopped,
            (false, false) => Outcome::Solved,
            (false, true) => Outcome::NotWithin,
        };
        Ok(Answer {
            length: report.solutions.first().map(Vec::len),
            solutions,
            outcome,
            engine: Engine::Generic,
            nodes,
        })
    }

    /// Gives the generic search's grown tables to the store (see
    /// [`Solver::save_grown_tables`]).
    pub fn save_grown_tables(&mut self, which: SaveGrown, events: &mut dyn FnMut(PortfolioEvent)) {
        if let Some(s) = &mut self.generic {
            s.save_grown_tables(which, &mut |e| events(PortfolioEvent::Table(e)));
        }
    }

    /// Whether the dedicated solver's tables for the memory given are in
    /// the store, so that it starts at once.
    fn dedicated_tables_cached(&self) -> bool {
        let store = &*self.options.store;
        OptimalSolver::table_cached(OptimalTableKind::Small, store)
            || (self.huge_allowed() && OptimalSolver::huge_table_cached(store))
    }

    fn huge_allowed(&self) -> bool {
        self.options.dedicated_memory_bytes >= HUGE_TABLE_MEMORY
    }

    /// Hands every position from now on to the dedicated solver, loading
    /// its first table.
    fn activate_dedicated(&mut self, events: &mut dyn FnMut(PortfolioEvent)) {
        let store = Arc::clone(&self.options.store);
        // The phase-1 table first (quick to load) whenever it is cached or
        // the huge one is not: easy positions never wait for the huge one.
        let kind = if self.huge_allowed()
            && OptimalSolver::huge_table_cached(&*store)
            && !OptimalSolver::table_cached(OptimalTableKind::Small, &*store)
        {
            OptimalTableKind::Huge
        } else {
            OptimalTableKind::Small
        };
        events(PortfolioEvent::Notice(Notice::Dedicated { table: kind }));
        let solver = OptimalSolver::load(kind, &*store, &mut |e| {
            events(PortfolioEvent::Table(TableEvent::Store(e)))
        });
        if let Some(d) = &mut self.dedicated {
            d.solver = Some((solver, kind));
        }
        self.dedicated_active = true;
        self.generic = None;
    }

    fn solve_dedicated(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Answer, ToolError> {
        let huge_allowed = self.huge_allowed();
        let memory = self.options.dedicated_memory_bytes;
        let store = Arc::clone(&self.options.store);
        // The dedicated solver's threads watch a flag of their own, set
        // from the caller's by a watchdog.
        let inner = Arc::new(AtomicBool::new(stop.load(Ordering::Relaxed)));
        let optimal = OptimalOptions {
            progress: self.options.optimal_progress.clone(),
            stop: Some(Arc::clone(&inner)),
            ..OptimalOptions::default()
        };
        let d = self.dedicated.as_mut().expect("the 3x3x3 was recognised");
        let cube = d
            .correspondence
            .cube(self.puzzle.layout(), position)
            .ok_or_else(|| {
                ToolError::Position(
                    "not a position of the cube (pieces or orientations unknown); \
                     try the generic search"
                        .to_string(),
                )
            })?;
        let (solver, kind) = d.solver.as_mut().expect("the dedicated solver is loaded");
        // On the phase-1 table, the table a deep position moves up to: the
        // giant one only when it is cached (its build is minutes; `333
        // tables` makes it). With the memory for the huge one, that is
        // never the phase-1 table again.
        let deep = (*kind == OptimalTableKind::Small && huge_allowed)
            .then(|| optimal_table_within(memory, false, &*store));
        let limit = match deep {
            Some(deep) if OptimalSolver::table_cached(deep, &*store) => SMALL_FIRST_CACHED,
            Some(_) => SMALL_FIRST,
            None => 30,
        };
        let solution = relaying_stop(stop, &inner, || {
            match solver.solve_up_to(&cube, &optimal, limit) {
                Some(s) => s,
                None => {
                    let table = deep.unwrap_or(OptimalTableKind::Huge);
                    events(PortfolioEvent::Notice(Notice::DeepTable { limit, table }));
                    *kind = table;
                    *solver = OptimalSolver::load(*kind, &*store, &mut |e| {
                        events(PortfolioEvent::Table(TableEvent::Store(e)))
                    });
                    solver.solve(&cube, &optimal)
                }
            }
        });
        if solution.stopped {
            return Ok(Answer {
                solutions: Vec::new(),
                length: None,
                outcome: Outcome::Stopped,
                engine: Engine::Dedicated,
                nodes: solution.nodes,
            });
        }
        let words = d.correspondence.move_names(self.puzzle, &solution.moves);
        let fits = words.len() as u32 <= self.options.max_depth;
        Ok(Answer {
            length: fits.then_some(words.len()),
            solutions: if fits {
                vec![words.join(" ")]
            } else {
                Vec::new()
            },
            outcome: if fits {
                Outcome::Solved
            } else {
                Outcome::NotWithin
            },
            engine: Engine::Dedicated,
            nodes: solution.nodes,
        })
    }
}

/// One generic search, stopped when `stop` is set or after `budget`
/// seconds, if there is a budget.
fn solve_within(
    solver: &mut Solver,
    start: &Pattern,
    options: &SolveOptions,
    budget: Option<f64>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&SearchProgress),
) -> SolveReport {
    let Some(secs) = budget else {
        return solver.solve(start, options, stop, progress);
    };
    let inner = AtomicBool::new(false);
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        // A watchdog: the caller's stop, or the end of the budget, stops
        // the search; the search's end (the channel closing) ends it.
        let inner = &inner;
        scope.spawn(move || {
            let end = Instant::now() + Duration::from_secs_f64(secs.max(0.0));
            loop {
                let left = end.saturating_duration_since(Instant::now());
                match finished.recv_timeout(left.min(Duration::from_millis(50))) {
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        if stop.load(Ordering::Relaxed) || Instant::now() >= end {
                            inner.store(true, Ordering::Relaxed);
                            return;
                        }
                    }
                    _ => return,
                }
            }
        });
        let report = solver.solve(start, options, inner, progress);
        drop(done);
        report
    })
}

/// Runs `work`, raising `inner` when `outer` is raised meanwhile.
fn relaying_stop<T>(outer: &AtomicBool, inner: &AtomicBool, work: impl FnOnce() -> T) -> T {
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || loop {
            match finished.recv_timeout(Duration::from_millis(50)) {
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                    if outer.load(Ordering::Relaxed) {
                        inner.store(true, Ordering::Relaxed);
                        return;
                    }
                }
                _ => return,
            }
        });
        let result = work();
        drop(done);
        result
    })
}

/// The group the search moves generate, for telling unreachable positions
/// apart (built over every piece as distinguishable).
fn reachability_chain(puzzle: &Puzzle, grips: &[usize], solver: &Solver) -> StabilizerChain {
    let steps = solver.moves().grips();
    if steps.iter().all(|g| g.step == 1) {
        return puzzle.group(grips);
    }
    let layout = puzzle.layout();
    let gens: Vec<Vec<u16>> = steps
        .iter()
        .map(|g| layout.to_points(g.transformation.as_bytes()))
        .collect();
    StabilizerChain::new(layout.num_points(), &gens)
}
