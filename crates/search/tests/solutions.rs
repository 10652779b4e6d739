//! `Solver::solutions`: a position's solutions shortest first, found as
//! they are asked for. Taken one at a time (each depth searched again for
//! twice as many when more are wanted) they are the same, in the same
//! order, as one search asked for all of them at once, and every one
//! returns the position to the goal.

mod support;

use std::sync::atomic::AtomicBool;

use support::{after_moves, pattern, CUBE2};
use twistor_core::Pattern;
use twistor_formats::read_puzzle;
use twistor_search::{Metric, MoveSet, SolutionCount, SolveOptions, Solver, SolverOptions};

fn solver_and_position(puzzle: &twistor_core::Puzzle, scramble: &[usize]) -> (Solver, Pattern) {
    let moves = MoveSet::all(puzzle, Metric::Htm).unwrap();
    let solver = Solver::new(
        puzzle,
        moves,
        puzzle.start().clone(),
        &SolverOptions {
            memory_bytes: 2 << 20,
            threads: 2,
            ..Default::default()
        },
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap();
    let state = after_moves(puzzle, solver.moves(), puzzle.start().as_bytes(), scramble);
    (solver, pattern(puzzle, &state))
}

#[test]
fn solutions_one_at_a_time_are_those_of_one_search_for_all() {
    let puzzle = read_puzzle(CUBE2, "cube2.tws").unwrap();
    let (mut solver, position) = solver_and_position(&puzzle, &[0, 4, 8, 1, 5, 6]);
    let stop = AtomicBool::new(false);
    // One search asked for the first 200: several lengths.
    let all = solver
        .solve(
            &position,
            &SolveOptions {
                count: SolutionCount::First(200),
                ..Default::default()
            },
            &stop,
            &mut |_| {},
        )
        .solutions;
    assert_eq!(all.len(), 200);
    assert!(all.first().unwrap().len() < all.last().unwrap().len());
    for threads in [1, 2] {
        // Nothing said about how many: each depth is searched for one,
        // then again for two, four, ... as they are taken.
        let lazily: Vec<Vec<usize>> = solver
            .solutions(&position)
            .threads(threads)
            .take(200)
            .collect();
        assert_eq!(lazily, all, "{threads} threads");
    }
    for s in &all {
        let state = after_moves(&puzzle, solver.moves(), position.as_bytes(), s);
        assert_eq!(&state[..], puzzle.start().as_bytes());
    }
    // Bounds on the length are kept.
    let shortest = all[0].len() as u32;
    let longer: Vec<Vec<usize>> = solver
        .solutions(&position)
        .min_depth(shortest + 1)
        .max_depth(shortest + 1)
        .collect();
    assert!(!longer.is_empty());
    assert!(longer.iter().all(|s| s.len() as u32 == shortest + 1));
    assert_eq!(
        longer[..],
        all.iter()
            .filter(|s| s.len() as u32 == shortest + 1)
            .cloned()
            .collect::<Vec<_>>()[..]
    );
}
