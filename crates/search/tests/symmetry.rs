//! Symmetry reduction by the rotations a definition carries, checked
//! against breadth-first distances and against the unreduced search.

mod support;

use support::bfs_from;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use twistor_core::symmetry::SymmetryGroup;
use twistor_core::{Pattern, Puzzle};
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::hashed::{HashedFill, HashedSymmetry, HashedTable};
use twistor_search::{CanonicalFsm, Metric, MoveSet, SolveOptions, Solver, SolverOptions};

/// The 2x2x2 with all six faces turning and its whole-cube rotations.
fn cube2() -> Puzzle {
    let options = PuzzleOptions {
        rotations: true,
        ..Default::default()
    };
    build("2x2x2", &options).unwrap().into_puzzle()
}

fn group(puzzle: &Puzzle, moves: &MoveSet, goal: &Pattern) -> SymmetryGroup {
    SymmetryGroup::for_puzzle(puzzle, goal, &moves.transformations(), 1000)
}

/// Every position within the depth of a hashed table, reduced by the 24
/// rotations or not, reads its breadth-first distance, every position one move
/// further reads more, and the fill walked several times fewer sequences
/// than the unreduced one.
#[test]
fn hashed_table_of_least_conjugates_matches_breadth_first_distances() {
    let puzzle = cube2();
    let moves = MoveSet::all(&puzzle, Metric::Htm).unwrap();
    let fsm = CanonicalFsm::new(&moves).unwrap();
    let goal = puzzle.start().clone();
    let sym = HashedSymmetry::new(Arc::new(group(&puzzle, &moves, &goal)), &moves).unwrap();
    assert_eq!(sym.group().order(), 24);
    // Clockwise, half and anticlockwise turns: three classes of moves.
    assert_eq!(sym.first_moves(), 3);
    let depth = 4;
    let dist = bfs_from(&puzzle, &moves, &goal, depth as u32 + 1);
    let stop = AtomicBool::new(false);
    let fill = HashedFill {
        entries: 1 << 22,
        depth,
        threads: 2,
    };
    let layout = puzzle.layout();
    let reduced = HashedTable::build(layout, &goal, &moves, &fsm, Some(&sym), fill, &stop).unwrap();
    let plain = HashedTable::build(layout, &goal, &moves, &fsm, None, fill, &stop).unwrap();
    assert_reads_distances(&reduced, &dist, depth);
    assert_reads_distances(&plain, &dist, depth);
    assert!(reduced.inserted() * 4 < plain.inserted());
    // The walk's count is the bound the solver plans with.
    let walked = HashedTable::walked(&fsm, Some(&sym), depth as usize);
    assert!(reduced.inserted() as u128 <= walked[depth as usize]);
}

/// The solver with the reduced hashed table finds solutions as short as
/// breadth-first search says, and the same first solution as without.
#[test]
fn solver_with_rotations_agrees_with_breadth_first_and_without_symmetry() {
    let puzzle = cube2();
    let moves = MoveSet::all(&puzzle, Metric::Htm).unwrap();
    let goal = puzzle.start().clone();
    let dist = bfs_from(&puzzle, &moves, &goal, 4);
    let stop = AtomicBool::new(false);
    let solver = |symmetry| {
        let options = SolverOptions {
            // Projections and a hashed table, not an exact table.
            memory_bytes: 2 << 20,
            threads: 2,
            symmetry,
            ..Default::default()
        };
        Solver::new(
            &puzzle,
            moves.clone(),
            goal.clone(),
            &options,
            &stop,
            &mut |_| {},
        )
        .unwrap()
    };
    let (mut with, mut without) = (solver(true), solver(false));
    assert!(with.hashed().unwrap().symmetry().is_some());
    assert!(without.hashed().unwrap().symmetry().is_none());
    // Every hundredth position at 3 or 4 moves, in a fixed order.
    let mut far: Vec<(&Vec<u8>, &u32)> = dist.iter().filter(|(_, &d)| d >= 3).collect();
    far.sort();
    for (state, &d) in far.into_iter().step_by(100) {
        let start = puzzle.layout().pattern_from_bytes(state.clone()).unwrap();
        let a = with.solve(&start, &SolveOptions::default(), &stop, &mut |_| {});
        let b = without.solve(&start, &SolveOptions::default(), &stop, &mut |_| {});
        assert_eq!(a.solutions[0].len() as u32, d);
        assert_eq!(a.solutions, b.solutions);
    }
    // Two deeper positions: the same lengths both ways.
    for alg in [
        [0usize, 4, 8, 13, 3, 16, 9, 1],
        [2, 7, 12, 17, 5, 10, 14, 0],
    ] {
        let layout = puzzle.layout();
        let mut s = goal.as_bytes().to_vec();
        let mut buf = s.clone();
        for &m in &alg {
            layout.compose_into(&s, moves.moves()[m].transformation.as_bytes(), &mut buf);
            std::mem::swap(&mut s, &mut buf);
        }
        let start = layout.pattern_from_bytes(s).unwrap();
        let a = with.solve(&start, &SolveOptions::default(), &stop, &mut |_| {});
        let b = without.solve(&start, &SolveOptions::default(), &stop, &mut |_| {});
        assert_eq!(a.solutions, b.solutions);
    }
}

/// A partial goal with identical pieces (the four top corners alike, the
/// four bottom ones alike): the rotations that keep it are the eight that
/// keep the top and bottom layers as sets (relabelling the two kinds when
/// they swap), and the reduced table still reads breadth-first distances.
#[test]
fn identical_pieces_keep_the_rotations_that_relabel_them() {
    let puzzle = cube2();
    let moves = MoveSet::all(&puzzle, Metric::Htm).unwrap();
    let layout = puzzle.layout();
    let start = layout.pattern_orbits(puzzle.start());
    // Which corners are on top: those a U turn moves.
    let u = puzzle.moves().iter().find(|m| m.name == "U").unwrap();
    let (k, corners) = (0, &start[0]);
    let top: Vec<bool> = (0..corners.pieces.len())
        .map(|i| layout.perm(u.transformation.as_bytes(), k)[i] as usize != i)
        .collect();
    let mut orbits = start.clone();
    orbits[0].pieces = top.iter().map(|&t| if t { 0 } else { 1 }).collect();
    let goal = layout.pattern(&orbits).unwrap();
    let sym = HashedSymmetry::new(Arc::new(group(&puzzle, &moves, &goal)), &moves).unwrap();
    assert_eq!(sym.group().order(), 8);
    let fsm = CanonicalFsm::new(&moves).unwrap();
    let stop = AtomicBool::new(false);
    let fill = HashedFill {
        entries: 1 << 20,
        depth: 3,
        threads: 1,
    };
    let table = HashedTable::build(layout, &goal, &moves, &fsm, Some(&sym), fill, &stop).unwrap();
    assert_reads_distances(&table, &bfs_from(&puzzle, &moves, &goal, 4), 3);
}

/// A table filled to `depth` never reads more than a position's distance
/// (within `depth`, or `depth + 1` beyond), and reads exactly that for all
/// but the few positions whose hash lands on a nearer position's entry.
fn assert_reads_distances(table: &HashedTable, dist: &HashMap<Vec<u8>, u32>, depth: u8) {
    let mut exact = 0;
    for (state, &d) in dist {
        let want = d.min(depth as u32 + 1);
        let read = table.lookup(state) as u32;
        assert!(read <= want, "{state:?}: reads {read}, distance {d}");
        exact += (read == want) as usize;
    }
    assert!(exact * 100 >= dist.len() * 99, "{exact} of {}", dist.len());
}
