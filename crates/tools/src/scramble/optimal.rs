//! Random-state scrambles by an optimal solver on a puzzle from geometry
//! (the 2x2x2, pyraminx and skewb), on a definition with exactly the
//! scramble's moves.

use super::*;

/// Random-state scrambles by an optimal solver on a puzzle from geometry.
pub(super) struct OptimalEngine {
    /// The puzzle with exactly the scramble's moves (solving moves first,
    /// then tip moves), named as the scramble writes them.
    puzzle: Puzzle,
    chain: StabilizerChain,
    solver: Solver,
    goal: Goal,
    /// Puzzle move indices of the tip moves and their orders.
    tips: Vec<(usize, i64)>,
    min_distance: usize,
}

impl OptimalEngine {
    pub(super) fn new(
        name: &str,
        solving: &[&str],
        tips: &[&str],
        min_distance: usize,
        options: &ScrambleOptions,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<OptimalEngine, ToolError> {
        let puzzle = scramble_puzzle(name, solving, tips)?;
        let all: Vec<usize> = (0..puzzle.moves().len()).collect();
        let chain = puzzle.group(&all);
        let layout = puzzle.layout().clone();
        // Tips are solved last: the goal leaves the orientation of every
        // slot a tip move twists unknown.
        let mut target: Vec<PatternOrbit> = layout.pattern_orbits(puzzle.start());
        for i in solving.len()..puzzle.moves().len() {
            let t = &puzzle.moves()[i].transformation;
            for (k, po) in target.iter_mut().enumerate() {
                let n = po.pieces.len();
                for s in 0..n {
                    if layout.ori(t.as_bytes(), k)[s] != 0
                        || layout.perm(t.as_bytes(), k)[s] as usize != s
                    {
                        let mods = po.orientation_mod.get_or_insert_with(|| vec![0; n]);
                        mods[s] = 1;
                        po.orientation[s] = 0;
                    }
                }
            }
        }
        let target = layout
            .pattern(&target)
            .expect("the start pattern with wildcards is a pattern");
        let goal = Goal::target(&puzzle, target).expect("wildcards coarsen the start");
        let names: Vec<String> = solving.iter().map(|s| s.to_string()).collect();
        let moves = MoveSet::named(&puzzle, &names, Metric::Htm)?;
        let solver_options = SolverOptions {
            memory_bytes: 64 << 20,
            threads: options.threads.max(1),
            store: Arc::clone(&options.store),
            symmetry: true,
        };
        let stop = AtomicBool::new(false);
        let solver = Solver::new(
            &puzzle,
            moves,
            goal.pattern.clone(),
            &solver_options,
            &stop,
            events,
        )?;
        let tips = (solving.len()..puzzle.moves().len())
            .map(|i| {
                let order =
                    i64::try_from(layout.order(&puzzle.moves()[i].transformation)).unwrap_or(1);
                (i, order)
            })
            .collect();
        Ok(OptimalEngine {
            puzzle,
            chain,
            solver,
            goal,
            tips,
            min_distance,
        })
    }

    pub(super) fn scramble(&mut self, rng: &mut SeededRng) -> WcaScramble {
        let layout = self.puzzle.layout();
        let stop = AtomicBool::new(false);
        let options = SolveOptions {
            count: SolutionCount::First(1),
            min_depth: 0,
            max_depth: 40,
            threads: 1,
            node_limit: u64::MAX,
        };
        loop {
            let points = self.chain.random_element(|n| rng.below(n));
            let bytes = layout
                .from_points(&points)
                .expect("group elements map pieces to pieces");
            let t = twistor_core::Transformation::from_bytes(layout, bytes)
                .expect("group elements are transformations");
            let position = layout.apply(self.puzzle.start(), &t);
            let relabelled = self
                .goal
                .relabel(&self.puzzle, &position)
                .expect("reachable positions have the start's pieces");
            let report = self.solver.solve(&relabelled, &options, &stop, &mut |_| {});
            let Some(solution) = report.solutions.into_iter().next() else {
                continue;
            };
            if solution.len() < self.min_distance {
                continue;
            }
            let set = self.solver.moves();
            let mut after = position.clone();
            for m in &solution {
                after = layout.apply(&after, &set.moves()[*m].transformation);
            }
            let Some(tips) = self.tip_turns(&after) else {
                continue;
            };
            // Scramble: the solution undone (each move's inverse, named as
            // the move set names it: R2 stays R2), then the tips undone.
            let mut alg: Vec<String> = Vec::new();
            for &m in solution.iter().rev() {
                let inverse = set
                    .inverse_of(m)
                    .expect("every power's inverse is in the set");
                alg.push(set.moves()[inverse].name.clone());
            }
            for (i, amount) in tips {
                let name = &self.puzzle.moves()[i].name;
                alg.push(match -amount {
                    1 => name.clone(),
                    -1 => format!("{name}'"),
                    a if a > 0 => format!("{name}{a}"),
                    a => format!("{name}{}'", -a),
                });
            }
            return WcaScramble {
                alg: alg.join(" "),
                distance: Some(solution.len()),
            };
        }
    }

    /// The tip turns (move index, signed amount) that bring `after` to the
    /// start pattern, if any.
    pub(super) fn tip_turns(&self, after: &Pattern) -> Option<Vec<(usize, i64)>> {
        let layout = self.puzzle.layout();
        let start = self.puzzle.start();
        let mut amounts = vec![0i64; self.tips.len()];
        loop {
            let mut p = after.clone();
            for (k, &(i, _)) in self.tips.iter().enumerate() {
                let t = layout.power(&self.puzzle.moves()[i].transformation, amounts[k]);
                p = layout.apply(&p, &t);
            }
            if p == *start {
                return Some(
                    self.tips
                        .iter()
                        .zip(&amounts)
                        .filter(|(_, &a)| a != 0)
                        .map(|(&(i, order), &a)| (i, if 2 * a > order { a - order } else { a }))
                        .collect(),
                );
            }
            // Next combination of amounts.
            let mut k = 0;
            loop {
                if k == amounts.len() {
                    return None;
                }
                amounts[k] += 1;
                if amounts[k] < self.tips[k].1 {
                    break;
                }
                amounts[k] = 0;
                k += 1;
            }
        }
    }
}

/// The named puzzle with exactly these moves (community names resolved by
/// its notation), every piece as the named puzzle has it.
pub fn scramble_puzzle(name: &str, solving: &[&str], tips: &[&str]) -> Result<Puzzle, ToolError> {
    let built = twistor_geometry::build(name, &PuzzleOptions::for_notation())?;
    let full = built.puzzle();
    let mut p = Puzzle::new(name, full.layout().clone(), full.start().clone());
    for &m in solving.iter().chain(tips) {
        let t = alg_transformation(full, &Alg::parse(m)?)?;
        p.add_move(MoveDef {
            name: m.to_string(),
            transformation: t,
            kind: MoveKind::Base,
            definition: None,
        })?;
    }
    Ok(p)
}
