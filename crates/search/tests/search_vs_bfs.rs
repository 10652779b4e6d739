//! The optimal solver against plain breadth-first distances.

mod support;

use std::sync::atomic::AtomicBool;

use support::{bfs_distances, pattern, CUBE2};
use twistor_core::Transformation;
use twistor_formats::read_puzzle;
use twistor_search::projection::{OrbitSelection, Projection};
use twistor_search::{FillLimit, Metric, MoveSet, PruneTable, SolveOptions, Solver, SolverOptions};

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
    let mut solver = Solver::new(
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

/// With room for it, the 2x2x2 `<U,F,R>` gets one table over core's
/// perfect index, which starts with its near layers only. Filled to the
/// end, that index and the plain one over all 8! x 3^7 corner positions
/// both count the published distance distribution (OEIS A079761): two
/// independent indexings, and the word-by-word scan of the fill misses no
/// entry.
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
        moves.clone(),
        puzzle.start().clone(),
        &options,
        &stop,
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(solver.tables().len(), 1);
    assert!(solver.tables()[0]
        .projection()
        .description()
        .starts_with("exact"));
    let published = [
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
    ];
    let layout = puzzle.layout();
    let goal = puzzle.start();
    let generators: Vec<&Transformation> =
        moves.moves().iter().map(|m| &m.transformation).collect();
    let exact = Projection::exact(layout, goal, &generators).unwrap();
    assert_eq!(exact.size(), 3674160);
    let plain = Projection::new(
        layout,
        goal,
        &[OrbitSelection {
            orbit: 0,
            ids: (0..8).collect(),
            orientation: true,
        }],
        &[true],
    )
    .unwrap();
    assert_eq!(plain.size(), 40320 * 2187);
    for (projection, unreached) in [(exact, None), (plain, Some(40320 * 2187 - 3674160))] {
        let table = PruneTable::build(
            layout,
            projection,
            goal,
            &moves,
            2,
            FillLimit::Complete,
            &stop,
            &mut |_| {},
        )
        .unwrap();
        assert!(table.is_complete());
        let histogram = table.histogram();
        assert_eq!(&histogram[..12], &published);
        assert_eq!(histogram.get(12).copied(), unreached);
        assert_eq!(histogram.len(), 12 + unreached.is_some() as usize);
    }
}

/// A table filled part of the way bounds with `filled + 1` where it has
/// no entry, and growing it layer by layer ends with the complete table's
/// entries.
#[test]
fn partial_tables_grow_into_the_complete_one() {
    let puzzle = read_puzzle(CUBE2, "cube2.tws").unwrap();
    let moves = MoveSet::named(&puzzle, &names(&["U", "F", "R"]), Metric::Htm).unwrap();
    let layout = puzzle.layout();
    let goal = puzzle.start();
    let generators: Vec<&Transformation> =
        moves.moves().iter().map(|m| &m.transformation).collect();
    let projection = Projection::exact(layout, goal, &generators).unwrap();
    let stop = AtomicBool::new(false);
    let build = |limit| {
        PruneTable::build(
            layout,
            projection.clone(),
            goal,
            &moves,
            1,
            limit,
            &stop,
            &mut |_| {},
        )
        .unwrap()
    };
    let complete = build(FillLimit::Complete);
    // No budget: just the goal.
    let mut partial = build(FillLimit::Work(0));
    assert_eq!(partial.filled_depth(), 0);
    assert!(!partial.is_complete());
    let mut layers = 0;
    while !partial.is_complete() {
        let d = partial.filled_depth();
        for i in (0..projection.size()).step_by(997) {
            let full = complete.entry(i);
            assert_eq!(partial.entry(i), full.min(d + 1), "entry {i} at depth {d}");
        }
        let next = partial.next_layer_work(moves.moves().len());
        partial
            .extend(layout, &moves, 2, FillLimit::Work(next), &stop, &mut |_| {})
            .unwrap();
        assert_eq!(partial.filled_depth(), d + 1);
        layers += 1;
    }
    // Distances 1 to 11, one call each; the one reaching the last
    // position completes the table.
    assert_eq!(layers, 11);
    assert_eq!(partial.histogram(), complete.histogram());
    for i in (0..projection.size()).step_by(101) {
        assert_eq!(partial.entry(i), complete.entry(i));
    }
}
