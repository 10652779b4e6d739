//! The optimal solver against plain breadth-first distances.

mod support;

use std::sync::atomic::AtomicBool;

use support::{bfs_distances, pattern, CUBE2};
use twistor_formats::read_puzzle;
use twistor_search::{Metric, MoveSet, SolveOptions, Solver, SolverOptions};

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_2x2x2_ufr_position_up_to_depth_6_is_solved_optimally() {
    let puzzle = read_puzzle(CUBE2, "cube2.tws").unwrap();
    let moves = MoveSet::named(&puzzle, &names(&["U", "F", "R"]), Metric::Htm).unwrap();
    let dist = bfs_distances(&puzzle, &moves, 6);
    // OEIS A079761: 1, 9, 54, 321, 1847, 9992, 50136 positions at 0..6.
    let mut per = [0usize; 7];
    for &d in dist.values() {
        per[d as usize] += 1;
    }
    assert_eq!(per, [1, 9, 54, 321, 1847, 9992, 50136]);
    let stop = AtomicBool::new(false);
    // A small budget, so the tables are projections rather than exact.
    let options = SolverOptions {
        memory_bytes: 4 << 20,
        threads: 1,
        ..Default::default()
    };
    let solver = Solver::new(
        &puzzle,
        moves,
        puzzle.start().clone(),
        &options,
        &stop,
        &mut |_| {},
    )
    .unwrap();
    let layout = puzzle.layout();
    for (state, &d) in &dist {
        assert!(
            solver.lower_bound(state) <= d,
            "lower bound above the distance"
        );
        let report = solver.solve(
            &pattern(&puzzle, state),
            &SolveOptions::default(),
            &stop,
            &mut |_| {},
        );
        let sol = &report.solutions[0];
        assert_eq!(sol.len() as u32, d);
        let mut s = state.clone();
        let mut buf = vec![0u8; s.len()];
        for &m in sol {
            layout.compose_into(
                &s,
                solver.moves().moves()[m].transformation.as_bytes(),
                &mut buf,
            );
            std::mem::swap(&mut s, &mut buf);
        }
        assert_eq!(&s[..], puzzle.start().as_bytes());
    }
}

/// With room for it, the 2x2x2 `<U,F,R>` gets one exact table, and its
/// breadth-first fill counts the published distance distribution (OEIS
/// A079761), so the word-by-word scan of the fill misses no entry.
#[test]
fn exact_2x2x2_ufr_table_has_the_published_distribution() {
    let puzzle = read_puzzle(CUBE2, "cube2.tws").unwrap();
    let moves = MoveSet::named(&puzzle, &names(&["U", "F", "R"]), Metric::Htm).unwrap();
    let options = SolverOptions {
        memory_bytes: 64 << 20,
        threads: 2,
        ..Default::default()
    };
    let stop = AtomicBool::new(false);
    let solver = Solver::new(
        &puzzle,
        moves,
        puzzle.start().clone(),
        &options,
        &stop,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(solver.tables().len(), 1);
    // The index covers all 8! x 3^7 corner positions; those the moves
    // cannot reach are counted last, as unreached.
    let histogram = solver.tables()[0].histogram();
    assert_eq!(
        &histogram[..12],
        &[1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    );
    assert_eq!(histogram[12..], [40320 * 2187 - 3674160]);
}
