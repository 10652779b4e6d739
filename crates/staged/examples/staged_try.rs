//! Scrambles a named puzzle with random moves and solves it with the
//! staged solver: `staged_try NAME [SCRAMBLE_MOVES] [COUNT]`.
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use twistor_core::random::SeededRng;
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::{Metric, MoveSet};
use twistor_staged::{StagedEvent, StagedOptions, StagedSolver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("megaminx", |s| s.as_str());
    let len: usize = args.get(2).map_or(Ok(200), |s| s.parse())?;
    let count: usize = args.get(3).map_or(Ok(3), |s| s.parse())?;
    let verbose = std::env::var_os("VERBOSE").is_some();
    let puzzle = build(name, &PuzzleOptions::default())?.into_puzzle();
    let moves = MoveSet::all(&puzzle, Metric::Htm)?;
    let layout = puzzle.layout();
    let t0 = Instant::now();
    let mut solver = StagedSolver::new(
        moves.clone(),
        puzzle.start().clone(),
        None,
        StagedOptions::default(),
    )?;
    println!("set up in {:.3} s", t0.elapsed().as_secs_f64());
    let first: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    for i in 0..count {
        let mut rng = SeededRng::new(first + i as u64);
        let mut position = puzzle.start().clone();
        for _ in 0..len {
            let m = rng.below(moves.moves().len());
            position = layout.apply(&position, &moves.moves()[m].transformation);
        }
        let t = Instant::now();
        let solution = solver.solve(&position, &AtomicBool::new(false), &mut |e| {
            let StagedEvent::Step(s) = e;
            if verbose {
                println!(
                    "  {:?} {} {} moves {} nodes",
                    s.method, s.what, s.moves, s.nodes
                );
            }
        })?;
        let solved = solution.moves.iter().fold(position, |p, &m| {
            layout.apply(&p, &moves.moves()[m].transformation)
        });
        let ok = solved == *puzzle.start();
        let search: usize = solution
            .steps
            .iter()
            .filter(|s| s.method == twistor_staged::Method::Search)
            .map(|s| s.moves)
            .sum();
        println!(
            "{name} #{i}: {} moves ({} by search) in {:.3} s, solved: {ok}",
            solution.moves.len(),
            search,
            t.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
