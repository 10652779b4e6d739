//! Dropping `Solver::solutions` mid-search, or setting its stop flag, ends
//! the search: no worker thread outlives it. (A test binary of its own,
//! so that the process's thread count is this test's alone.)

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use twistor_geometry::{build, PuzzleOptions};
use twistor_search::{Metric, MoveSet, Solver, SolverOptions};

/// Threads of this process, as Linux lists them.
fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

/// Whether the thread count falls back to `before` within a few seconds
/// (a thread pool a table fill used and dropped lets its threads exit on
/// their own, just after).
fn back_to(before: usize) -> bool {
    let t0 = std::time::Instant::now();
    while threads() > before {
        if t0.elapsed() > Duration::from_secs(5) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

#[test]
fn dropping_or_stopping_the_iterator_ends_its_workers() {
    let puzzle = build("3x3x3", &PuzzleOptions::default())
        .unwrap()
        .into_puzzle();
    let moves = MoveSet::named(&puzzle, &["U", "F", "R"].map(String::from), Metric::Htm).unwrap();
    let turn = |p: &twistor_core::Pattern, name: &str| {
        let m = moves.moves().iter().find(|m| m.name == name).unwrap();
        puzzle.layout().apply(p, &m.transformation)
    };
    // Small tables: a position of <U, F, R> needing many moves takes long.
    let mut solver = Solver::new(
        &puzzle,
        moves.clone(),
        puzzle.start().clone(),
        &SolverOptions {
            memory_bytes: 1 << 20,
            threads: 2,
            ..Default::default()
        },
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    // Table growth fills on rayon's global pool, whose threads live as
    // long as the process: started before counting, they are not the
    // search's workers.
    rayon::broadcast(|_| ());
    let before = threads();

    // Many solutions of the same length: take one and drop the rest.
    let easy = ["R", "U", "F", "R"]
        .iter()
        .fold(puzzle.start().clone(), |p, m| turn(&p, m));
    let mut solutions = solver.solutions(&easy).threads(2);
    let first = solutions.next().unwrap();
    assert_eq!(first.len(), 4);
    drop(solutions);
    assert!(back_to(before), "workers outlived the iterator");

    // A long search, stopped from another thread after a moment.
    let hard = "R U F R2 U' F2 R' U2 F' R U' F R2 U F' R' U2 F2"
        .split(' ')
        .fold(puzzle.start().clone(), |p, m| turn(&p, m));
    let stop = AtomicBool::new(false);
    let t0 = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        let mut solutions = solver.solutions(&hard).threads(2).stop_on(&stop);
        let found = solutions.next();
        assert!(found.is_none() || stop.load(Ordering::Relaxed));
        assert!(solutions.stopped() || found.is_some());
    });
    assert!(
        t0.elapsed() < Duration::from_secs(60),
        "the stop flag was not heeded"
    );
    assert!(back_to(before), "workers outlived the stopped search");
}
