//! Shortening move sequences: every window of a sequence is replaced by an
//! optimal sequence for the same transformation, until none can be.
//!
//! The algorithm:
//! 1. Adjacent moves on the same grip are merged ([`crate::sequence::cancel`]).
//! 2. The sequence is cut at moves that are not moves of the search's move
//!    set (rotations, wide moves of a definition without them); each piece
//!    is shortened on its own and the cut moves are kept where they were.
//! 3. Windows are tried longest first (up to `max_window` moves), left to
//!    right. For a window of `L` moves doing `W`, the generic optimal
//!    [`Solver`] (IDA* with pattern databases, every piece distinguishable,
//!    so the replacement does exactly `W` and the rest of the sequence is
//!    unaffected) looks for a sequence of at most `L - 1` moves doing `W`;
//!    the first one found (shortest, then first in move order) replaces the
//!    window and the search starts again from the longest windows.
//! 4. It stops when no window of up to `max_window` moves can be
//!    shortened: a fixed point. Results of windows already searched are
//!    remembered, so going round again costs only the new windows.
//!
//! Proving that a long window is already optimal is an exhaustive search,
//! which can be costly; each window's search is given `max_nodes` nodes
//! (checked between depths: a depth is not started when the nodes so far
//! plus the last depth's nodes times its growth would pass the budget), and
//! a window whose search would exceed it counts as not shortened (the
//! report says how many were given up).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use twistor_core::{Layout, Puzzle, Transformation};
use twistor_formats::alg::{Alg, AlgNode, Move};
use twistor_search::{
    MoveSet, SaveGrown, SearchProgress, SolutionCount, SolveOptions, Solver, SolverOptions,
    TableEvent,
};

use crate::sequence::{cancel, MoveTable};
use crate::ToolError;

/// How hard [`Shortener::shorten`] tries.
#[derive(Clone, Debug)]
pub struct ShortenOptions {
    /// Longest window replaced by an optimal sequence.
    pub max_window: usize,
    /// Search nodes allowed for one window.
    pub max_nodes: u64,
    /// Threads of each search.
    pub threads: usize,
}

impl Default for ShortenOptions {
    fn default() -> ShortenOptions {
        ShortenOptions {
            max_window: 14,
            max_nodes: 2_000_000,
            threads: 1,
        }
    }
}

/// What [`Shortener::shorten`] did.
#[derive(Clone, Debug, Default)]
pub struct ShortenReport {
    /// Windows replaced by shorter sequences.
    pub replacements: usize,
    /// Windows searched (each distinct window once).
    pub windows_searched: usize,
    /// Windows whose search was given up at the node budget.
    pub windows_given_up: usize,
    /// Search nodes in all.
    pub nodes: u64,
}

/// A shortener for one puzzle and move set, with its pruning tables.
pub struct Shortener {
    layout: Layout,
    solver: Solver,
    /// Search move of each transformation the move set makes.
    by_transformation: HashMap<Vec<u8>, usize>,
}

impl Shortener {
    /// Builds the solver (pruning tables within `solver_options`) that
    /// replaces windows with moves from `moves`.
    pub fn new(
        puzzle: &Puzzle,
        moves: MoveSet,
        solver_options: &SolverOptions,
        stop: &AtomicBool,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<Shortener, ToolError> {
        let layout = puzzle.layout().clone();
        let mut by_transformation = HashMap::new();
        for (i, m) in moves.moves().iter().enumerate() {
            by_transformation
                .entry(m.transformation.as_bytes().to_vec())
                .or_insert(i);
        }
        // Every piece distinguishable: a replacement must do exactly what
        // the window did, whatever comes before and after it.
        let goal = layout.pattern_of(&layout.identity());
        let solver = Solver::new(puzzle, moves, goal, solver_options, stop, events)?;
        Ok(Shortener {
            layout,
            solver,
            by_transformation,
        })
    }

    /// The search's move set.
    pub fn moves(&self) -> &MoveSet {
        self.solver.moves()
    }

    /// Gives the tables that grew while shortening to the solver's store
    /// (see [`Solver::save_grown_tables`]).
    pub fn save_grown_tables(&mut self, which: SaveGrown, events: &mut dyn FnMut(TableEvent)) {
        self.solver.save_grown_tables(which, events)
    }

    /// Shortens `moves` (moves of the puzzle in any notation) to a fixed
    /// point; see the module documentation.
    pub fn shorten(
        &mut self,
        table: &mut MoveTable,
        moves: &[Move],
        options: &ShortenOptions,
    ) -> Result<(Vec<Move>, ShortenReport), ToolError> {
        let moves = cancel(table, moves)?;
        let mut report = ShortenReport::default();
        let mut memo: HashMap<Vec<usize>, Option<Vec<usize>>> = HashMap::new();
        let mut out = Vec::new();
        let mut segment: Vec<usize> = Vec::new();
        for m in &moves {
            let t = table.transformation(m)?;
            match self.by_transformation.get(t.as_bytes()) {
                Some(&i) => segment.push(i),
                None => {
                    let s = self.shorten_indices(&segment, options, &mut memo, &mut report);
                    out.extend(self.to_moves(&s));
                    segment.clear();
                    out.push(m.clone());
                }
            }
        }
        let s = self.shorten_indices(&segment, options, &mut memo, &mut report);
        out.extend(self.to_moves(&s));
        // Shortened pieces may now meet a cut move on the same grip.
        Ok((cancel(table, &out)?, report))
    }

    fn to_moves(&self, seq: &[usize]) -> Vec<Move> {
        seq.iter()
            .map(|&i| {
                let name = &self.solver.moves().moves()[i].name;
                match Alg::parse(name).ok().as_ref().map(|a| a.nodes()) {
                    Some([AlgNode::Move(m)]) => m.clone(),
                    _ => Move::new(name.clone(), 1),
                }
            })
            .collect()
    }

    /// Shortens a sequence of search moves to a fixed point.
    pub fn shorten_indices(
        &mut self,
        input: &[usize],
        options: &ShortenOptions,
        memo: &mut HashMap<Vec<usize>, Option<Vec<usize>>>,
        report: &mut ShortenReport,
    ) -> Vec<usize> {
        let mut seq = input.to_vec();
        'again: loop {
            let n = seq.len();
            for len in (2..=options.max_window.min(n)).rev() {
                for i in 0..=n - len {
                    let window = seq[i..i + len].to_vec();
                    let found = match memo.get(&window) {
                        Some(r) => r.clone(),
                        None => {
                            let r = self.shorter(&window, options, report);
                            memo.insert(window, r.clone());
                            r
                        }
                    };
                    if let Some(s) = found {
                        seq.splice(i..i + len, s);
                        report.replacements += 1;
                        continue 'again;
                    }
                }
            }
            return seq;
        }
    }

    /// A sequence shorter than `window` doing the same, if the search finds
    /// one within the budget.
    fn shorter(
        &mut self,
        window: &[usize],
        options: &ShortenOptions,
        report: &mut ShortenReport,
    ) -> Option<Vec<usize>> {
        let l = &self.layout;
        let ms = self.solver.moves().moves();
        let mut w: Transformation = l.identity();
        for &m in window {
            w = l.compose(&w, &ms[m].transformation);
        }
        // Solving the position W⁻¹ reaches gives sequences S with W⁻¹·S = 1.
        let start = l.pattern_of(&l.invert(&w));
        report.windows_searched += 1;
        let stop = AtomicBool::new(false);
        let mut previous = (0u64, 0u64); // (nodes so far, nodes of the last depth)
        let solve = SolveOptions {
            count: SolutionCount::First(1),
            min_depth: 0,
            max_depth: window.len() as u32 - 1,
            threads: options.threads.max(1),
            node_limit: u64::MAX,
        };
        let budget = options.max_nodes;
        let result = self
            .solver
            .solve(&start, &solve, &stop, &mut |p: &SearchProgress| {
                let this_depth = p.nodes - previous.0;
                let growth = this_depth
                    .checked_div(previous.1)
                    .map_or(13, |g| g.clamp(2, 20));
                if p.nodes.saturating_add(this_depth.saturating_mul(growth)) > budget {
                    stop.store(true, Ordering::Relaxed);
                }
                previous = (p.nodes, this_depth);
            });
        report.nodes += result.nodes;
        match result.solutions.into_iter().next() {
            Some(s) => Some(s),
            None => {
                if result.stopped {
                    report.windows_given_up += 1;
                }
                None
            }
        }
    }
}
