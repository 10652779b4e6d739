//! Two-phase solutions of random cubes are checked by applying them.

use std::path::PathBuf;

use twistor_core::random::SeededRng;
use twistor_cube333::{
    solve_two_phase as solve, TwoPhaseError, TwoPhaseOptions, TwoPhaseTableKind, TwoPhaseTables,
};
use twistor_cube333::{CubieCube, MoveSeq};

fn store() -> twistor_store::DirStore {
    // Shared by the test binaries of this crate, so the tables are built once.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-cube333-tables");
    twistor_store::DirStore::new(dir)
}

fn tables() -> TwoPhaseTables {
    TwoPhaseTables::load(&store(), &mut |_| {})
}

fn medium() -> TwoPhaseTables {
    TwoPhaseTables::medium(&store(), &mut |_| {})
}

/// Random cubes, with the three sizes of table: answers within 21 and
/// 20 moves solve the cube (through pre-moves, phase 2 started from the
/// other turn of the last pre-move, and the compact and medium bounds).
#[test]
fn random_cubes_are_solved_within_the_target() {
    for t in [tables(), medium(), TwoPhaseTables::compact()] {
        let mut rng = SeededRng::new(2024);
        for target in [21, 20] {
            let opts = TwoPhaseOptions {
                max_length: target,
                ..Default::default()
            };
            for _ in 0..30 {
                let c = CubieCube::random(|| rng.next_u64());
                let s = solve(&t, &c, &opts).unwrap();
                assert!(s.moves.len() <= target);
                assert!(c.apply_moves(&s.moves.0).is_solved());
            }
        }
    }
}

/// The first solution of at most 21 moves does not depend on the tables:
/// all are exact lower bounds and the search visits nodes in one fixed
/// order, so tighter pruning only skips nodes that lead to no solution.
/// A scrambler may therefore switch from the compact tables to the full
/// ones mid-batch without changing a scramble. The medium tables prune
/// harder than the compact ones and search fewer nodes.
#[test]
fn compact_medium_and_full_tables_give_the_same_first_solution() {
    let (full, medium, compact) = (tables(), medium(), TwoPhaseTables::compact());
    let mut rng = SeededRng::new(77);
    let (mut medium_nodes, mut compact_nodes) = (0, 0);
    for _ in 0..100 {
        let c = CubieCube::random(|| rng.next_u64());
        let options = TwoPhaseOptions::default();
        let a = solve(&full, &c, &options).unwrap();
        let b = solve(&compact, &c, &options).unwrap();
        let m = solve(&medium, &c, &options).unwrap();
        assert_eq!(a.moves.0, b.moves.0);
        assert_eq!(a.moves.0, m.moves.0);
        assert!(m.phase1_nodes <= b.phase1_nodes && m.phase2_nodes <= b.phase2_nodes);
        medium_nodes += m.phase1_nodes + m.phase2_nodes;
        compact_nodes += b.phase1_nodes + b.phase2_nodes;
    }
    assert!(
        2 * medium_nodes < compact_nodes,
        "{medium_nodes} {compact_nodes}"
    );
}

#[test]
fn short_scrambles_get_optimal_solutions() {
    // Two-phase with a target is exhaustive: a scramble of n moves gets a
    // solution of at most n, and none shorter than the true distance.
    let t = tables();
    let scramble: MoveSeq = "R U F' L2 D B'".parse().unwrap();
    let c = CubieCube::from_moves(&scramble.0);
    let s = solve(
        &t,
        &c,
        &TwoPhaseOptions {
            max_length: 6,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(s.moves.len(), 6);
    assert!(c.apply_moves(&s.moves.0).is_solved());
    assert_eq!(
        solve(
            &t,
            &c,
            &TwoPhaseOptions {
                max_length: 5,
                ..Default::default()
            }
        )
        .unwrap_err(),
        TwoPhaseError::TooShort { max_length: 5 }
    );
}

#[test]
fn single_direction_search_also_solves() {
    let t = tables();
    let mut rng = SeededRng::new(77);
    let opts = TwoPhaseOptions {
        max_length: 21,
        all_directions: false,
        ..Default::default()
    };
    for _ in 0..5 {
        let c = CubieCube::random(|| rng.next_u64());
        let s = solve(&t, &c, &opts).unwrap();
        assert!(c.apply_moves(&s.moves.0).is_solved());
    }
}

/// The compact and medium tables' bounds are admissible and the search
/// they drive is as exhaustive as the full tables': on random 10-move
/// scrambles, all three find a solution of the optimal length (from the
/// optimal solver) and prove there is none shorter.
#[test]
fn compact_and_medium_tables_search_exactly_as_the_full_ones() {
    use twistor_cube333::{OptimalOptions, OptimalSolver, OptimalTableKind};
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-cube333-tables");
    let store = twistor_store::DirStore::new(dir);
    let optimal = OptimalSolver::load(OptimalTableKind::Small, &store, &mut |_| {});
    let (full, medium, compact) = (tables(), medium(), TwoPhaseTables::compact());
    assert_eq!(compact.kind(), TwoPhaseTableKind::Compact);
    assert_eq!(medium.kind(), TwoPhaseTableKind::Medium);
    assert_eq!(full.kind(), TwoPhaseTableKind::Full);
    assert!(compact.size_bytes() < 2_000_000);
    assert!(medium.size_bytes() < 10_000_000);
    let mut rng = SeededRng::new(77);
    for _ in 0..12 {
        let moves: Vec<_> = (0..10)
            .map(|_| twistor_cube333::FaceTurn::from_index(rng.below(18)))
            .collect();
        let c = CubieCube::from_moves(&moves);
        let n = optimal.solve(&c, &OptimalOptions::default()).moves.len();
        for t in [&full, &medium, &compact] {
            let at = |max_length| {
                let o = TwoPhaseOptions {
                    max_length,
                    ..Default::default()
                };
                solve(t, &c, &o)
            };
            let s = at(n).unwrap();
            assert_eq!(s.moves.len(), n);
            assert!(c.apply_moves(&s.moves.0).is_solved());
            if n > 0 {
                assert_eq!(
                    at(n - 1).unwrap_err(),
                    TwoPhaseError::TooShort { max_length: n - 1 }
                );
            }
        }
    }
}

/// Looking on after the first solution (min2phase's probeMin) gives an
/// easy cube a short answer: the first solution of at most 21 moves of a
/// 7-move scramble is long, the improved one no longer than the scramble;
/// and every improved answer still solves and is no longer than the first.
#[test]
fn probes_after_the_first_solution_shorten_it() {
    for t in [tables(), TwoPhaseTables::compact()] {
        let scramble: MoveSeq = "R U R' U' F2 D L'".parse().unwrap();
        let c = CubieCube::from_moves(&scramble.0);
        let first = solve(&t, &c, &TwoPhaseOptions::default()).unwrap();
        let improved = solve(
            &t,
            &c,
            &TwoPhaseOptions {
                improve_probes: 1000,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(first.moves.len() > 7, "{}", first.moves);
        assert!(improved.moves.len() <= 7, "{}", improved.moves);
        assert!(c.apply_moves(&improved.moves.0).is_solved());
        let mut rng = SeededRng::new(12);
        for _ in 0..5 {
            let c = CubieCube::random(|| rng.next_u64());
            let a = solve(&t, &c, &TwoPhaseOptions::default()).unwrap();
            let b = solve(
                &t,
                &c,
                &TwoPhaseOptions {
                    improve_probes: 300,
                    ..Default::default()
                },
            )
            .unwrap();
            assert!(b.moves.len() <= a.moves.len());
            assert!(c.apply_moves(&b.moves.0).is_solved());
        }
    }
}

/// Phase 1 once began with "no previous face" written as 6, which the
/// move-order rule read as "after L", so no phase 1 began with D (the
/// search in other orientations hid it; the unit test of the rule fails on
/// it). These are solved in two moves only by solutions beginning with D.
#[test]
fn two_phase_solutions_may_start_with_d() {
    let t = tables();
    for scramble in ["R D", "F D2", "B2 D'"] {
        let c = CubieCube::from_moves(&scramble.parse::<MoveSeq>().unwrap().0);
        let opts = TwoPhaseOptions {
            max_length: 2,
            ..Default::default()
        };
        let s = solve(&t, &c, &opts).unwrap_or_else(|e| panic!("{scramble}: {e}"));
        assert_eq!(s.moves.len(), 2, "{scramble}");
        assert!(c.apply_moves(&s.moves.0).is_solved());
        assert_eq!(s.moves.0[0].face().letter(), 'D', "{scramble}");
    }
}
