//! The solutions a search reports do not depend on the thread count: the
//! parallel search splits the tree into prefix tasks and keeps results in
//! task order, so `-t 1` and `-t 8` print the same lines in the same order.

mod support;

use std::sync::atomic::AtomicBool;

use support::{after_moves, pattern, CUBE2};
use twistor_formats::read_puzzle;
use twistor_search::{Metric, MoveSet, SolutionCount, SolveOptions, Solver, SolverOptions};

/// Positions reached by these move-index sequences (with six grips and three
/// powers each, index `3 * grip + power`), chosen to need 6 to 9 moves.
const SCRAMBLES: [&[usize]; 4] = [
    &[0, 4, 8, 1, 5, 6],
    &[2, 3, 7, 0, 4, 8, 1, 3],
    &[0, 5, 7, 2, 3, 8, 1, 4, 6],
    &[1, 3, 6, 0, 4, 7, 2, 5, 8, 0],
];

#[test]
fn solutions_are_the_same_whatever_the_thread_count() {
    let puzzle = read_puzzle(CUBE2, "cube2.tws").unwrap();
    // All six faces: each position has many optimal solutions, so the order
    // in which threads find them would show if it leaked into the output.
    let moves = MoveSet::all(&puzzle, Metric::Htm).unwrap();
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(
        &puzzle,
        moves,
        puzzle.start().clone(),
        &SolverOptions {
            memory_bytes: 2 << 20,
            threads: 2,
            ..Default::default()
        },
        &stop,
        &mut |_| {},
    )
    .unwrap();
    for scramble in SCRAMBLES {
        let state = after_moves(&puzzle, solver.moves(), puzzle.start().as_bytes(), scramble);
        let position = pattern(&puzzle, &state);
        for count in [
            SolutionCount::First(1),
            SolutionCount::First(40),
            SolutionCount::AllOptimal,
        ] {
            let mut run = |threads| {
                let options = SolveOptions {
                    count,
                    threads,
                    ..Default::default()
                };
                solver
                    .solve(&position, &options, &stop, &mut |_| {})
                    .solutions
            };
            let one = run(1);
            assert!(!one.is_empty());
            for threads in [2, 3, 8] {
                assert_eq!(
                    run(threads),
                    one,
                    "{scramble:?} {count:?} with {threads} threads"
                );
            }
            if count == SolutionCount::First(40) {
                // Sorted by length, and more than one length when there are
                // fewer optimal solutions than asked for.
                assert!(one.windows(2).all(|w| w[0].len() <= w[1].len()));
            }
        }
    }
}
