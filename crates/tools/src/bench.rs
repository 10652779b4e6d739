//! `twistor bench solve-all`: every puzzle twistor knows, solved by the
//! portfolio's fast mode from random states, timed and measured against
//! its counting bound.
//!
//! Positions are uniformly random states drawn from the puzzle's group
//! (Schreier–Sims, [`RandomStates`]); the clock and the Square-1, whose
//! definitions' search moves are not their turns (the clock's pin
//! settings are derived moves; cubing.js's Square-1 does not bandage), take
//! WCA scrambles instead, which are random-state for both. Each answer
//! is played back and must reach the goal. The counting bound is
//! `⌈log N / log b⌉`: fewer moves than that cannot even name the `N`
//! distinguishable positions, `b` being the canonical sequences' growth.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use twistor_core::store::TableStore;
use twistor_core::{Pattern, Puzzle};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::{PuzzleOptions, NAMED_PUZZLES};
use twistor_search::{Metric, MoveSet};

use crate::catalog::build_named;
use crate::portfolio::estimate::{branching, log10_positions};
use crate::portfolio::{Mode, Outcome, Portfolio, PortfolioOptions};
use crate::random::RandomStates;
use crate::scramble::{Event, ScrambleOptions, Scrambler};
use crate::ToolError;

/// Every puzzle the sweep knows, in its order: PuzzleGeometry's 72 names,
/// the hand-written puzzles ([`crate::handmade::PUZZLES`]), then
/// cubing.js's own ids built from geometry (`kilominx`, `baby_fto`).
pub fn all_puzzles() -> Vec<String> {
    NAMED_PUZZLES
        .iter()
        .map(|(n, _)| *n)
        .chain(crate::handmade::ids())
        .chain(crate::catalog::DESCRIPTORS.iter().map(|(n, _)| *n))
        .chain(crate::catalog::CURVED.iter().map(|(n, _, _)| *n))
        .chain(["baby_fto"])
        .map(str::to_string)
        .collect()
}

/// One puzzle's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// The puzzle.
    pub puzzle: String,
    /// The engine that answered (the last position's).
    pub engine: String,
    /// Positions asked and answered.
    pub asked: usize,
    /// Positions answered (played back to the goal).
    pub answered: usize,
    /// Seconds to set the engine up (plans, tables, libraries) before
    /// the first position: what a one-off `solve` pays on top.
    pub setup_secs: f64,
    /// Seconds a position, median and most.
    pub median_secs: f64,
    /// The slowest position's seconds.
    pub max_secs: f64,
    /// Moves an answer, median and most.
    pub median_moves: usize,
    /// The longest answer's moves.
    pub max_moves: usize,
    /// The counting bound, and log10 of the positions it counts.
    pub bound: u32,
    /// log10 of the positions.
    pub log10_positions: f64,
    /// Why positions went unanswered, if any did.
    pub failure: Option<String>,
}

/// How the sweep runs.
#[derive(Clone)]
pub struct SweepOptions {
    /// Positions a puzzle.
    pub count: usize,
    /// The seed of the random states.
    pub seed: u64,
    /// Memory for the engines' tables.
    pub memory_bytes: u64,
    /// Threads.
    pub threads: usize,
    /// Where tables are kept between runs.
    pub store: Arc<dyn TableStore>,
}

/// Solves `options.count` random positions of `name`, reporting each
/// position's seconds to `progress` as it goes.
pub fn sweep_puzzle(
    name: &str,
    options: &SweepOptions,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, f64),
) -> Result<SweepRow, ToolError> {
    let puzzle = build_named(name, &PuzzleOptions::for_notation(), false)?.in_notation()?;
    let moves = MoveSet::all(&puzzle, Metric::Htm)?;
    let positions = positions(name, &puzzle, options)?;
    let log10 = log10_positions(&puzzle, &moves, puzzle.start());
    let b = branching(&moves).max(1.01);
    let bound = (log10 / b.log10()).ceil().max(0.0) as u32;
    let portfolio_options = PortfolioOptions {
        memory_bytes: options.memory_bytes,
        dedicated_memory_bytes: options.memory_bytes,
        threads: options.threads,
        store: Arc::clone(&options.store),
        ..PortfolioOptions::new(Mode::Fast)
    };
    let t0 = Instant::now();
    let mut portfolio = Portfolio::new(
        &puzzle,
        moves,
        puzzle.start().clone(),
        portfolio_options,
        stop,
        &mut |_| {},
    )?;
    let setup_secs = t0.elapsed().as_secs_f64();
    let mut secs = Vec::new();
    let mut lengths = Vec::new();
    let mut failure = None;
    let mut engine = portfolio.engine().name().to_string();
    for (i, position) in positions.iter().enumerate() {
        let t0 = Instant::now();
        let answer = portfolio.solve(position, stop, &mut |_| {});
        let s = t0.elapsed().as_secs_f64();
        progress(i, s);
        match answer {
            Ok(a) if a.outcome == Outcome::Solved => {
                let text = a.solutions.first().cloned().unwrap_or_default();
                if !solves(&puzzle, position, &text) {
                    failure = Some(format!("position {}: the answer does not solve it", i + 1));
                    continue;
                }
                engine = a.engine.name().to_string();
                secs.push(s);
                lengths.push(a.length.unwrap_or(0));
            }
            Ok(a) => failure = Some(format!("position {}: {:?}", i + 1, a.outcome)),
            Err(e) => failure = Some(format!("position {}: {e}", i + 1)),
        }
    }
    Ok(SweepRow {
        puzzle: name.to_string(),
        engine,
        asked: positions.len(),
        answered: secs.len(),
        setup_secs,
        median_secs: median_f(&secs),
        max_secs: secs.iter().copied().fold(0.0, f64::max),
        median_moves: median_u(&lengths),
        max_moves: lengths.iter().copied().max().unwrap_or(0),
        bound,
        log10_positions: log10,
        failure,
    })
}

/// Whether `text` takes `position` to the puzzle's start.
fn solves(puzzle: &Puzzle, position: &Pattern, text: &str) -> bool {
    let Ok(alg) = text.parse::<Alg>() else {
        return false;
    };
    alg_transformation(puzzle, &alg)
        .map(|t| puzzle.layout().apply(position, &t) == *puzzle.start())
        .unwrap_or(false)
}

/// The positions to solve: random states, or WCA scrambles applied.
fn positions(
    name: &str,
    puzzle: &Puzzle,
    options: &SweepOptions,
) -> Result<Vec<Pattern>, ToolError> {
    let event = match name {
        "clock" => Some(Event::Clock),
        "square1" => Some(Event::Square1),
        _ => None,
    };
    match event {
        Some(event) => {
            let mut scrambler = Scrambler::new(
                event,
                options.seed,
                &ScrambleOptions::default(),
                &mut |_| {},
            )?;
            (0..options.count)
                .map(|_| {
                    let alg: Alg = scrambler.next_scramble().alg.parse()?;
                    let t = alg_transformation(puzzle, &alg)?;
                    Ok(puzzle.layout().apply(puzzle.start(), &t))
                })
                .collect()
        }
        None => {
            let mut states = RandomStates::new(puzzle, &puzzle.search_moves(), options.seed);
            Ok((0..options.count).map(|_| states.next_pattern()).collect())
        }
    }
}

fn median_f(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn median_u(xs: &[usize]) -> usize {
    let mut v = xs.to_vec();
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}
