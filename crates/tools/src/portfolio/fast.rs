//! Fast mode: an answer for every position, from the engine that fits the
//! puzzle best (see the module above for the order they are tried in).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use twistor_core::{Pattern, Puzzle};
use twistor_cube333::{solve_two_phase, CubeCorrespondence, TwoPhaseOptions, TwoPhaseTables};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_search::{
    Metric, MoveSet, SaveGrown, SolutionCount, SolveOptions, Solver, SolverOptions, TableEvent,
};
use twistor_staged::{StagedError, StagedEvent, StagedOptions, StagedSolver};

use super::clock::ClockSolver;
use super::cube444::Reduction444;
use super::estimate::estimate;
use super::square1::TwoPhaseSquare1;
use super::{wide, Answer, Engine, Engines, Notice, Outcome, PortfolioEvent, PortfolioOptions};
use crate::analysis::{Reachability, ReachabilityTest};
use crate::rotations::WholeRotations;
use crate::ToolError;

/// Nodes the generic search gets in fast mode before the staged solver
/// takes the position (a second or two).
const QUICK_NODES: u64 = 30_000_000;

/// The engine fast mode answers with.
enum Fast {
    /// The 3x3x3 by two-phase.
    TwoPhase {
        correspondence: CubeCorrespondence,
        tables: Box<TwoPhaseTables>,
    },
    /// The named 4x4x4 by reduction.
    Reduction444(Box<Reduction444>),
    /// The Square-1 by two-phase.
    Square1(Box<TwoPhaseSquare1>),
    /// The clock by linear algebra.
    Clock(Box<ClockSolver>),
    /// The generic search (quick by the estimate), the staged solver
    /// taking what it does not finish.
    Generic(Box<Solver>),
    /// The staged solver.
    Staged,
}

pub(super) struct FastEngines<'p> {
    puzzle: &'p Puzzle,
    moves: MoveSet,
    goal: Pattern,
    options: PortfolioOptions,
    fast: Fast,
    staged: Option<StagedSolver>,
    /// Reachability by the group of the moves, on the orbits whose
    /// pieces are all distinct.
    reach: Option<ReachabilityTest>,
    /// The slots (orbit, slot) no move turns: a position whose pieces
    /// there are not the goal's is unreachable as held.
    fixed: Vec<(usize, usize)>,
    /// The rotations a position may be held in, when the puzzle has some.
    rotations: Option<WholeRotations>,
}

impl<'p> FastEngines<'p> {
    pub fn new(
        puzzle: &'p Puzzle,
        moves: MoveSet,
        goal: Pattern,
        options: PortfolioOptions,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<FastEngines<'p>, ToolError> {
        let grips: Vec<usize> = moves.grips().iter().map(|g| g.puzzle_move).collect();
        let whole_turns =
            moves.metric() == Metric::Htm && moves.grips().iter().all(|g| g.step == 1);
        let dedicated_allowed = options.engines == Engines::Any
            && goal == *puzzle.start()
            && whole_turns
            && options.stages.is_none();
        let chosen = |engine: Engine, why: String, events: &mut dyn FnMut(PortfolioEvent)| {
            events(PortfolioEvent::Notice(Notice::Chosen { engine, why }));
        };
        let by_name: Option<Fast> = if !dedicated_allowed {
            None
        } else if let Some(clock) = ClockSolver::for_puzzle(puzzle) {
            chosen(Engine::Clock, "the puzzle is the clock".to_string(), events);
            Some(Fast::Clock(Box::new(clock)))
        } else if let Some(sq1) = TwoPhaseSquare1::for_puzzle(puzzle) {
            chosen(
                Engine::Square1,
                "the puzzle is the Square-1".to_string(),
                events,
            );
            Some(Fast::Square1(Box::new(sq1)))
        } else {
            None
        };
        let reduction = (dedicated_allowed && by_name.is_none())
            .then(|| {
                Reduction444::for_puzzle(puzzle, &*options.store, &mut |e| {
                    events(PortfolioEvent::Table(TableEvent::Store(e)))
                })
            })
            .flatten();
        let fast = match (
            reduction,
            (dedicated_allowed && by_name.is_none())
                .then(|| CubeCorrespondence::find(puzzle, &grips))
                .flatten(),
        ) {
            _ if by_name.is_some() => by_name.expect("just checked"),
            (Some(reduction), _) => {
                chosen(
                    Engine::Reduction444,
                    "the puzzle is the 4x4x4".to_string(),
                    events,
                );
                Fast::Reduction444(Box::new(reduction))
            }
            (None, Some(correspondence)) => {
                chosen(
                    Engine::TwoPhase,
                    "the definition is the 3x3x3".to_string(),
                    events,
                );
                let tables = super::two_phase_tables_for(None, 1, &*options.store, &mut |e| {
                    events(PortfolioEvent::Table(TableEvent::Store(e)))
                });
                Fast::TwoPhase {
                    correspondence,
                    tables: Box::new(tables),
                }
            }
            (None, None) => {
                let e = estimate(puzzle, &moves, &goal, options.memory_bytes);
                if e.quick() && options.stages.is_none() {
                    chosen(
                        Engine::Generic,
                        format!(
                            "an optimal search is quick here (about 10^{:.0} nodes)",
                            e.log10_nodes
                        ),
                        events,
                    );
                    let solver_options = SolverOptions {
                        memory_bytes: options.memory_bytes,
                        threads: options.threads,
                        store: Arc::clone(&options.store),
                        symmetry: options.symmetry,
                    };
                    let solver = Solver::new(
                        puzzle,
                        moves.clone(),
                        goal.clone(),
                        &solver_options,
                        stop,
                        &mut |e| events(PortfolioEvent::Table(e)),
                    )?;
                    Fast::Generic(Box::new(solver))
                } else {
                    chosen(
                        Engine::Staged,
                        format!(
                            "no dedicated engine fits, and an optimal search is out of reach (about 10^{:.0} nodes)",
                            e.log10_nodes
                        ),
                        events,
                    );
                    Fast::Staged
                }
            }
        };
        // (The clock's turns are not its search moves: its solver decides.)
        let reach = if matches!(fast, Fast::Clock(_)) {
            None
        } else {
            let grips: Vec<&[u8]> = (moves.grips().iter())
                .map(|g| g.transformation.as_bytes())
                .collect();
            // Beside the staged solver, its chains take a part of the
            // solver's memory; beside the other engines, a part of what
            // is kept back beside their tables.
            let max_bytes = if matches!(fast, Fast::Staged) {
                options.memory_bytes / super::REACHABILITY_SHARE_OF_STAGED
            } else {
                super::REACHABILITY_BYTES_BESIDE_TABLES
            };
            Some(ReachabilityTest::new(
                puzzle,
                &goal,
                &grips,
                super::REACHABILITY_POINTS,
                max_bytes,
            ))
        };
        let rotations = WholeRotations::of(puzzle).ok().filter(|r| !r.is_empty());
        let fixed = if matches!(fast, Fast::Clock(_)) {
            Vec::new()
        } else {
            fixed_slots(puzzle, &moves)
        };
        let mut engines = FastEngines {
            puzzle,
            moves,
            goal,
            options,
            fast,
            staged: None,
            reach,
            fixed,
            rotations,
        };
        if matches!(engines.fast, Fast::Staged) {
            engines.staged(events)?;
        }
        Ok(engines)
    }

    pub fn generic(&self) -> Option<&Solver> {
        match &self.fast {
            Fast::Generic(s) => Some(s),
            _ => None,
        }
    }

    pub fn engine(&self) -> Engine {
        match &self.fast {
            Fast::TwoPhase { .. } => Engine::TwoPhase,
            Fast::Reduction444(_) => Engine::Reduction444,
            Fast::Square1(_) => Engine::Square1,
            Fast::Clock(_) => Engine::Clock,
            Fast::Generic(_) => Engine::Generic,
            Fast::Staged => Engine::Staged,
        }
    }

    pub fn save_grown_tables(&mut self, which: SaveGrown, events: &mut dyn FnMut(PortfolioEvent)) {
        if let Fast::Generic(s) = &mut self.fast {
            s.save_grown_tables(which, &mut |e| events(PortfolioEvent::Table(e)));
        }
    }

    /// The staged solver, set up on first use.
    fn staged(
        &mut self,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<&mut StagedSolver, ToolError> {
        if self.staged.is_none() {
            let beside = self.reach.as_ref().map_or(0, ReachabilityTest::bytes_bound);
            let options = StagedOptions {
                memory_bytes: crate::budget::steady(
                    self.options.memory_bytes.saturating_sub(beside),
                ),
                ..StagedOptions::default()
            };
            let solver = StagedSolver::with_store(
                self.moves.clone(),
                self.goal.clone(),
                self.options.stages.clone(),
                options,
                Arc::clone(&self.options.store),
            )?;
            events(PortfolioEvent::Notice(Notice::Plan(solver.plan())));
            self.staged = Some(solver);
        }
        Ok(self.staged.as_mut().expect("just set up"))
    }

    pub fn solve(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Answer, ToolError> {
        // Positions held differently: the first rotation that makes the
        // position reachable (the identity when it already is).
        let layout = self.puzzle.layout();
        let mut starts: Vec<(Option<String>, Pattern)> = vec![(None, position.clone())];
        if let Some(rotations) = &self.rotations {
            starts.extend(rotations.iter().skip(1).map(|r| {
                (
                    Some(r.name.clone()),
                    layout.apply(position, &r.transformation),
                )
            }));
        }
        let reach = |p: &Pattern| {
            if !self.fixed_slots_match(p) {
                return Reachability::Unreachable;
            }
            match &self.reach {
                Some(test) => test.decide(layout, p),
                None => Reachability::Unknown,
            }
        };
        let as_held = reach(position);
        let decided: Vec<(Option<String>, Pattern)> = if as_held == Reachability::Reachable {
            starts.into_iter().take(1).collect()
        } else {
            // The ways of holding it not ruled out, those proven reachable
            // first, the rest as held first, then each rotation, until an
            // engine answers.
            let mut found: Vec<_> = (starts.into_iter().enumerate())
                .map(|(i, (r, p))| (if i == 0 { as_held } else { reach(&p) }, r, p))
                .filter(|(reach, _, _)| *reach != Reachability::Unreachable)
                .collect();
            found.sort_by_key(|(reach, _, _)| *reach != Reachability::Reachable);
            if found.is_empty() {
                return Ok(Answer::empty(Outcome::Unreachable, self.engine(), 0));
            }
            found.into_iter().map(|(_, r, p)| (r, p)).collect()
        };
        let mut last_unreachable = None;
        for (rotation, start) in decided {
            match self.solve_from(&start, stop, events)? {
                Ok((words, engine, optimal, nodes)) => {
                    if let Some(r) = &rotation {
                        events(PortfolioEvent::Notice(Notice::UpToRotation {
                            rotation: r.clone(),
                        }));
                    }
                    let with_rotation = |words: &[String]| {
                        rotation
                            .iter()
                            .chain(words)
                            .map(String::as_str)
                            .collect::<Vec<_>>()
                            .join(" ")
                    };
                    // On big cubes, adjacent layers turned together are
                    // written as the wide turn a cuber writes, and counted
                    // so.
                    let words: Vec<String> = wide::in_wide_turns(self.puzzle, words.join(" "))
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    let (length, text) = (words.len(), with_rotation(&words));
                    self.check(position, &text)?;
                    return Ok(Answer {
                        solutions: vec![text],
                        length: Some(length),
                        outcome: Outcome::Solved,
                        optimal: optimal && rotation.is_none(),
                        engine,
                        nodes,
                        rotation,
                    });
                }
                Err(outcome @ Outcome::Stopped) => {
                    return Ok(Answer::empty(outcome, self.engine(), 0));
                }
                Err(outcome) => last_unreachable = Some(outcome),
            }
        }
        Ok(Answer::empty(
            last_unreachable.unwrap_or(Outcome::Unreachable),
            self.engine(),
            0,
        ))
    }

    /// Plays `text` on `position`: it must reach the goal.
    fn check(&self, position: &Pattern, text: &str) -> Result<(), ToolError> {
        let alg: Alg = text.parse()?;
        let t = alg_transformation(self.puzzle, &alg)?;
        let reached = self.puzzle.layout().apply(position, &t);
        if reached == self.goal {
            Ok(())
        } else {
            Err(ToolError::WrongAnswer {
                answer: text.to_string(),
            })
        }
    }

    /// One position's answer from the engine: its moves in the puzzle's
    /// notation, the engine, whether optimal, nodes; or why none.
    #[allow(clippy::type_complexity)]
    fn solve_from(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Result<(Vec<String>, Engine, bool, u64), Outcome>, ToolError> {
        match &mut self.fast {
            Fast::TwoPhase {
                correspondence,
                tables,
            } => {
                let Some(cube) = correspondence.cube(self.puzzle.layout(), position) else {
                    return Ok(Err(Outcome::Unreachable));
                };
                // Looking on for a thousand probes after the first answer
                // gives an easy cube a short one (milliseconds).
                let options = TwoPhaseOptions {
                    improve_probes: 1000,
                    ..TwoPhaseOptions::default()
                };
                match solve_two_phase(tables, &cube, &options) {
                    Ok(solution) => {
                        let words = correspondence.move_names(self.puzzle, &solution.moves);
                        Ok(Ok((words, Engine::TwoPhase, false, 0)))
                    }
                    Err(_) => Ok(Err(Outcome::Unreachable)),
                }
            }
            Fast::Square1(sq1) => match sq1.solve(self.puzzle, position) {
                Some((text, _)) => Ok(Ok((words_of(&text), Engine::Square1, false, 0))),
                None => self.staged_answer(position, stop, events),
            },
            Fast::Clock(clock) => match clock.solve(self.puzzle, position) {
                // Its answer is the fewest turns (see `ClockSolver`).
                Some((text, _)) => Ok(Ok((words_of(&text), Engine::Clock, true, 0))),
                None => Ok(Err(Outcome::Unreachable)),
            },
            Fast::Reduction444(reduction) => match reduction.solve(self.puzzle, position) {
                Some((text, _)) => Ok(Ok((words_of(&text), Engine::Reduction444, false, 0))),
                None => self.staged_answer(position, stop, events),
            },
            Fast::Generic(solver) => {
                let options = SolveOptions {
                    count: SolutionCount::First(1),
                    min_depth: 0,
                    max_depth: self.options.max_depth,
                    threads: self.options.threads,
                    node_limit: QUICK_NODES,
                };
                let report = solver.solve(position, &options, stop, &mut |p| {
                    events(PortfolioEvent::Search(p))
                });
                if let Some(s) = report.solutions.first() {
                    return Ok(Ok((solver.names(s), Engine::Generic, true, report.nodes)));
                }
                if report.stopped && !report.over_limit {
                    return Ok(Err(Outcome::Stopped));
                }
                // Deeper than a quick search goes: the staged solver.
                self.staged_answer(position, stop, events)
            }
            Fast::Staged => self.staged_answer(position, stop, events),
        }
    }

    #[allow(clippy::type_complexity)]
    fn staged_answer(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Result<(Vec<String>, Engine, bool, u64), Outcome>, ToolError> {
        let moves = self.moves.clone();
        let solver = self.staged(events)?;
        match solver.solve(position, stop, &mut |e| {
            let StagedEvent::Step(step) = e;
            events(PortfolioEvent::Step(step));
        }) {
            Ok(solution) => {
                let words = solution
                    .moves
                    .iter()
                    .map(|&m| moves.moves()[m].name.clone())
                    .collect();
                Ok(Ok((words, Engine::Staged, false, 0)))
            }
            Err(StagedError::Stopped) => Ok(Err(Outcome::Stopped)),
            Err(StagedError::Unreachable { .. }) => Ok(Err(Outcome::Unreachable)),
            Err(e) => Err(ToolError::Staged(e)),
        }
    }
}

/// An answer's words.
fn words_of(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// The slots no move of `moves` turns or twists, as (orbit, slot).
fn fixed_slots(puzzle: &Puzzle, moves: &MoveSet) -> Vec<(usize, usize)> {
    let layout = puzzle.layout();
    let identity = layout.identity_bytes();
    (0..layout.orbits().len())
        .flat_map(|k| (0..layout.orbits()[k].num_pieces()).map(move |s| (k, s)))
        .filter(|&(k, s)| {
            moves.moves().iter().all(|m| {
                let t = m.transformation.as_bytes();
                layout.perm(t, k)[s] == layout.perm(&identity, k)[s]
                    && layout.ori(t, k)[s] == layout.ori(&identity, k)[s]
            })
        })
        .collect()
}

impl FastEngines<'_> {
    /// Whether `position` has the goal's pieces on every slot no move
    /// turns (orientations compared where the goal knows them).
    fn fixed_slots_match(&self, position: &Pattern) -> bool {
        let layout = self.puzzle.layout();
        let (p, g) = (position.as_bytes(), self.goal.as_bytes());
        self.fixed.iter().all(|&(k, s)| {
            let (po, _) = layout.decode_orientation(k, layout.ori(p, k)[s]);
            let (go, modulus) = layout.decode_orientation(k, layout.ori(g, k)[s]);
            let m = match modulus {
                0 => layout.orbits()[k].num_orientations() as u8,
                m => m,
            };
            layout.perm(p, k)[s] == layout.perm(g, k)[s] && po % m == go % m
        })
    }
}
