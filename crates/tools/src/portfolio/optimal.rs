//! The optimal engines: the generic search (IDA* with pattern
//! databases) and, for a definition recognised as the 3x3x3, the dedicated
//! optimal solver, with the switch between them (see the module above).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use twistor_core::{Pattern, Puzzle};
use twistor_cube333::{CubeCorrespondence, OptimalOptions, OptimalSolver, OptimalTableKind};
use twistor_search::{
    Metric, MoveSet, SaveGrown, SearchProgress, SolutionCount, SolveOptions, SolveReport, Solver,
    SolverOptions, TableEvent,
};

use super::estimate::Estimate;
use super::wide;
use super::{
    optimal_table_within, Answer, Engine, Engines, Notice, Orientation, Outcome, PortfolioEvent,
    PortfolioOptions, GENERIC_FIRST_SECS, HUGE_TABLE_MEMORY,
};
use crate::analysis::{Reachability, ReachabilityTest};
use crate::rotations::WholeRotations;
use crate::ToolError;

/// Until the huge table is cached, positions within this many moves are
/// solved with the phase-1 table (seconds), and the huge one is built only
/// for a deeper one.
const SMALL_FIRST: u8 = 15;
/// When the huge table is cached (loading it takes seconds), positions
/// within this many moves are still solved with the phase-1 table, which
/// answers them in a tenth of a second.
const SMALL_FIRST_CACHED: u8 = 14;
/// Nodes an optimal search out of reach still gets: a shallower position
/// than the typical one is answered (optimally) within them, in seconds.
const OUT_OF_REACH_PROBE_NODES: u64 = 50_000_000;
/// Nodes it gets where the estimate is far out of reach (a 4x4x4, a
/// megaminx): a position a few moves deep, in well under a second even
/// while its tables are still cold (a random 4x4x4 from an empty cache
/// took 2.2 s to be told out of reach with a million; with this, 0.5 s,
/// a position of 8 moves still answered).
const HOPELESS_PROBE_NODES: u64 = 300_000;
/// The estimate (log10 nodes) past which a search is far out of reach.
const HOPELESS_LOG10_NODES: f64 = 20.0;

/// The dedicated 3x3x3 solver, once chosen.
struct Dedicated {
    correspondence: CubeCorrespondence,
    solver: Option<(OptimalSolver, OptimalTableKind)>,
}

/// The optimal engines: the generic search, and the dedicated 3x3x3
/// solver when the definition is the cube.
pub(super) struct OptimalEngines<'p> {
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
    /// Reachability by the group of the search moves, on the orbits
    /// whose pieces are all distinct.
    reach: Option<ReachabilityTest>,
    rotations: Option<WholeRotations>,
    /// The generic search's estimate, when it is out of reach: it then
    /// only gets a probe of a few seconds' nodes, for shallow positions.
    out_of_reach: Option<Estimate>,
}

impl<'p> OptimalEngines<'p> {
    /// The generic search's estimate when it is out of reach.
    pub fn out_of_reach(&self) -> Option<&Estimate> {
        self.out_of_reach
            .as_ref()
            .filter(|_| !self.dedicated_active)
    }

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
    ) -> Result<OptimalEngines<'p>, ToolError> {
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
        let mut portfolio = OptimalEngines {
            puzzle,
            goal,
            options,
            generic: None,
            dedicated: None,
            dedicated_active: false,
            generic_budget: None,
            reach: None,
            rotations,
            out_of_reach: None,
        };
        let dedicated_allowed = one_solution
            && whole_turns
            && portfolio.options.engines == Engines::Any
            && portfolio.rotations.is_none();
        if dedicated_allowed {
            if let Some(correspondence) = CubeCorrespondence::find(puzzle, &grips) {
                // `-M` is a promise: a table that does not fit is not
                // loaded, however it is cached.
                let (table_bytes, memory_bytes) = (
                    OptimalTableKind::Small.bytes(),
                    portfolio.options.dedicated_memory_bytes,
                );
                if table_bytes > memory_bytes {
                    events(PortfolioEvent::Notice(Notice::DedicatedTooLarge {
                        table_bytes,
                        memory_bytes,
                    }));
                } else {
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
        }
        let solver_options = SolverOptions {
            memory_bytes: portfolio.options.memory_bytes,
            threads: portfolio.options.threads,
            store: Arc::clone(&portfolio.options.store),
            symmetry: portfolio.options.symmetry,
        };
        if portfolio.dedicated.is_none() {
            let estimate = super::estimate::estimate(
                puzzle,
                &moves,
                &portfolio.goal,
                solver_options.memory_bytes,
            );
            if estimate.out_of_reach() {
                events(PortfolioEvent::Notice(Notice::OutOfReach(estimate.clone())));
                portfolio.out_of_reach = Some(estimate);
            }
        }
        let solver = Solver::new(
            puzzle,
            moves,
            portfolio.goal.clone(),
            &solver_options,
            stop,
            &mut |e| events(PortfolioEvent::Table(e)),
        )?;
        let grips: Vec<&[u8]> = (solver.moves().grips().iter())
            .map(|g| g.transformation.as_bytes())
            .collect();
        portfolio.reach = Some(ReachabilityTest::new(
            puzzle,
            &portfolio.goal,
            &grips,
            super::REACHABILITY_POINTS,
            super::REACHABILITY_BYTES_BESIDE_TABLES,
        ));
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
        let reach = |p: &Pattern| match &self.reach {
            Some(test) => test.decide(self.puzzle.layout(), p),
            None => Reachability::Unknown,
        };
        if self.rotations.is_none() {
            match reach(position) {
                Reachability::Unreachable => {
                    return Ok(Answer::empty(Outcome::Unreachable, Engine::Generic, 0))
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
            node_limit: match &self.out_of_reach {
                None => u64::MAX,
                Some(e) if e.log10_nodes > HOPELESS_LOG10_NODES => HOPELESS_PROBE_NODES,
                Some(_) => OUT_OF_REACH_PROBE_NODES,
            },
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
            return Ok(Answer::empty(Outcome::Unreachable, Engine::Generic, nodes));
        };
        let rotation = &candidates[c].0;
        let solutions: Vec<String> = report
            .solutions
            .iter()
            .map(|s| {
                // Written with wide turns; the length below stays counted
                // in the single layers the search proves it shortest in.
                let moves = wide::in_wide_turns(self.puzzle, solver.names(s).join(" "));
                match (rotation.is_empty(), moves.is_empty()) {
                    (true, _) => moves,
                    (false, true) => rotation.clone(),
                    (false, false) => format!("{rotation} {moves}"),
                }
            })
            .collect();
        let outcome = match (report.stopped, solutions.is_empty()) {
            (true, true) if report.over_limit => Outcome::OutOfReach,
            (true, _) => Outcome::Stopped,
            (false, false) => Outcome::Solved,
            (false, true) => Outcome::NotWithin,
        };
        Ok(Answer {
            length: report.solutions.first().map(Vec::len),
            solutions,
            optimal: outcome == Outcome::Solved,
            outcome,
            engine: Engine::Generic,
            nodes,
            rotation: None,
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
            && (self.options.build_huge_table
                || OptimalSolver::huge_table_cached(&*self.options.store))
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
            .ok_or(ToolError::NotACubePosition)?;
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
            return Ok(Answer::empty(
                Outcome::Stopped,
                Engine::Dedicated,
                solution.nodes,
            ));
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
            optimal: fits,
            engine: Engine::Dedicated,
            nodes: solution.nodes,
            rotation: None,
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
