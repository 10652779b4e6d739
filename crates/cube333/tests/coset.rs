//! The coset solver against a breadth-first search of the whole cube
//! group, against itself under symmetry and with either phase-1 bound, and
//! on bad input.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use twistor_core::random::SeededRng;
use twistor_cube333::{
    CosetError, CosetEvent, CosetId, CosetOptions, CosetReport, CosetSolver, CubieCube, FaceTurn,
    MoveSeq, COSET_COUNT, COSET_SIZE,
};

fn cube(moves: &str) -> CubieCube {
    CubieCube::from_moves(&moves.parse::<MoveSeq>().unwrap().0)
}

fn solve(solver: &CosetSolver, g: &CubieCube, options: &CosetOptions) -> CosetReport {
    solver
        .solve(g, options, &mut |_| {}, &AtomicBool::new(false))
        .unwrap()
}

fn to_depth(depth: usize) -> CosetOptions {
    CosetOptions {
        phase1_depth: depth,
        max_depth: depth,
        ..Default::default()
    }
}

/// A cube as 100 bits: corner slots (3 bits) and twists (2), edge slots (4)
/// and flips (1).
fn pack(c: &CubieCube) -> u128 {
    let mut k = 0u128;
    for i in 0..8 {
        k = k << 5 | (c.cp[i] as u128) << 2 | c.co[i] as u128;
    }
    for i in 0..12 {
        k = k << 5 | (c.ep[i] as u128) << 1 | c.eo[i] as u128;
    }
    k
}

fn unpack(mut k: u128) -> CubieCube {
    let mut c = CubieCube::SOLVED;
    for i in (0..12).rev() {
        c.ep[i] = (k >> 1 & 15) as u8;
        c.eo[i] = (k & 1) as u8;
        k >>= 5;
    }
    for i in (0..8).rev() {
        c.cp[i] = (k >> 2 & 7) as u8;
        c.co[i] = (k & 3) as u8;
        k >>= 5;
    }
    c
}

/// Every position within `depth` face turns, level by level (sorted).
fn levels(depth: usize) -> Vec<Vec<u128>> {
    let mut out: Vec<Vec<u128>> = vec![vec![pack(&CubieCube::SOLVED)]];
    for d in 0..depth {
        let mut next: Vec<u128> = out[d]
            .par_iter()
            .flat_map_iter(|&k| {
                let c = unpack(k);
                FaceTurn::all().map(move |m| pack(&c.apply_move(m)))
            })
            .collect();
        next.par_sort_unstable();
        next.dedup();
        // Neighbours of level d lie at d - 1, d or d + 1.
        let seen = |k: &u128| {
            out[d].binary_search(k).is_ok() || (d > 0 && out[d - 1].binary_search(k).is_ok())
        };
        next.retain(|k| !seen(k));
        out.push(next);
    }
    out
}

/// Test 1: the counts of each depth that a breadth-first search over all
/// 8.2 million positions within six moves finds in the coset, for three
/// cosets, against the solver with either phase-1 bound.
#[test]
fn coset_counts_match_a_breadth_first_search_of_the_cube() {
    let levels = levels(6);
    // The search itself: the known numbers of positions at each distance.
    let sizes: Vec<usize> = levels.iter().map(Vec::len).collect();
    assert_eq!(sizes, [1, 18, 243, 3240, 43239, 574908, 7618438]);
    let gs = [cube(""), cube("R"), cube("R U F"), cube("F2 L' D B2 R U'")];
    let solver = CosetSolver::compact();
    for g in &gs {
        let bfs: Vec<u64> = levels
            .iter()
            .map(|level| {
                level
                    .par_iter()
                    .filter(|&&k| CosetId::of(&g.multiply(&unpack(k))) == CosetId::H)
                    .count() as u64
            })
            .collect();
        let report = solve(&solver, g, &to_depth(6));
        assert_eq!(report.counts, bfs, "coset of {g:?}");
        assert_eq!(report.exact_through, Some(6));
        assert_eq!(report.remaining, COSET_SIZE - bfs.iter().sum::<u64>());
    }
}

/// Test 2: small facts by hand. In H's own coset, the solved cube alone
/// is at depth 0 and H's ten moves at depth 1; the coset of R holds R and
/// R' at depth 1 (R·R' and R·R = R2 are in H) and nothing at 0.
#[test]
fn first_depths_by_hand() {
    let solver = CosetSolver::compact();
    let h = solve(&solver, &CubieCube::SOLVED, &to_depth(2));
    assert_eq!(h.counts[..2], [1, 10]);
    assert_eq!(h.phase1_leaves[0], 1);
    let r = solve(&solver, &cube("R"), &to_depth(2));
    assert_eq!(r.counts[..2], [0, 2]);
    assert_eq!(r.phase1_leaves[..2], [0, 2]);
    // The coset is named by any of its cubes: R, R' and R·U2 = R·(U2).
    assert_eq!(CosetId::of(&cube("R")), CosetId::of(&cube("R'")));
    assert_eq!(CosetId::of(&cube("U2 R")), CosetId::of(&cube("R")));
    assert_ne!(CosetId::of(&cube("R U2")), CosetId::of(&cube("R")));
}

/// The exact phase-1 table and the compact projections prune differently
/// but must enumerate the same phase-1 solutions.
#[test]
fn full_and_compact_bounds_agree() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-cube333-tables");
    let full = CosetSolver::load(&twistor_store::DirStore::new(dir), &mut |_| {});
    let compact = CosetSolver::compact();
    assert!(!full.is_compact() && compact.is_compact());
    let g = cube("B' R2 D F' L U");
    let a = solve(&full, &g, &to_depth(8));
    let b = solve(&compact, &g, &to_depth(8));
    assert_eq!(a.counts, b.counts);
    assert_eq!(a.phase1_leaves, b.phase1_leaves);
    assert!(a.phase1_leaves[6..].iter().all(|&n| n > 0), "{a:?}");
}

/// Test 3: conjugating by the 16 symmetries that keep the UD axis maps a
/// coset to one with the same distribution.
#[test]
fn symmetric_cosets_have_the_same_counts() {
    let solver = CosetSolver::compact();
    let mut rng = SeededRng::new(20);
    let moves: Vec<FaceTurn> = (0..5)
        .map(|_| FaceTurn::from_index(rng.below(18)))
        .collect();
    let g = CubieCube::from_moves(&moves);
    let id = CosetId::of(&g);
    let base = solve(&solver, &g, &to_depth(7));
    assert!(base.found() > 1000, "{base:?}");
    let (canonical, s0) = id.canonical();
    assert_eq!(id.conjugate(s0), canonical);
    for s in [1, 2, 5, 8, 15] {
        let other = id.conjugate(s);
        assert_eq!(other.canonical().0, canonical);
        let report = solve(&solver, &other.representative(), &to_depth(7));
        assert_eq!(report.counts, base.counts, "symmetry {s}");
    }
}

#[test]
fn coset_ids_round_trip() {
    let mut rng = SeededRng::new(8);
    for _ in 0..200 {
        let id = CosetId::random(|| rng.next_u64());
        let g = id.representative();
        assert!(g.validate().is_ok());
        assert_eq!(CosetId::of(&g), id);
        assert_eq!(CosetId::from_index(id.index()).unwrap(), id);
        let size = id.class_size();
        assert!(16 % size == 0);
        // Every cube of H·g names the same coset.
        let h = cube("U R2 D' F2 L2 B2");
        assert_eq!(CosetId::of(&h.multiply(&g)), id);
    }
    assert_eq!(CosetId::H.class_size(), 1);
    assert_eq!(CosetId::of(&CubieCube::SOLVED), CosetId::H);
    assert!(CosetId::from_index(COSET_COUNT).is_err());
    assert!(matches!(
        CosetId::new(2187, 0, 0),
        Err(CosetError::OutOfRange { twist: 2187, .. })
    ));
}

/// Test 4: bad input and limits give errors.
#[test]
fn bad_input_and_limits_are_errors() {
    let solver = CosetSolver::compact();
    let stop = AtomicBool::new(false);
    let mut twisted = CubieCube::SOLVED;
    twisted.co[0] = 1;
    assert!(matches!(
        solver.solve(&twisted, &CosetOptions::default(), &mut |_| {}, &stop),
        Err(CosetError::InvalidCube(_))
    ));
    let none = CosetOptions {
        memory_limit: 0,
        ..Default::default()
    };
    assert!(matches!(
        solver.solve(&CubieCube::SOLVED, &none, &mut |_| {}, &stop),
        Err(CosetError::MemoryLimit { depth: 0, .. })
    ));
    // 20 MB holds the lists for some depths, never the dense sets.
    let small = CosetOptions {
        memory_limit: 20 << 20,
        phase1_depth: 6,
        ..Default::default()
    };
    let mut depths = 0;
    let r = solver.solve(
        &CubieCube::SOLVED,
        &small,
        &mut |e| depths += matches!(e, CosetEvent::Depth(_)) as usize,
        &stop,
    );
    match r {
        Err(CosetError::MemoryLimit {
            depth,
            needed,
            limit,
        }) => {
            assert_eq!(depth, depths);
            assert!(needed > limit && limit == 20 << 20);
        }
        other => panic!("expected a memory error, got {other:?}"),
    }
    assert!(depths >= 4);
}

/// Raising the stop flag keeps the depths done.
#[test]
fn stop_keeps_the_depths_done() {
    let solver = CosetSolver::compact();
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let r = solver.solve(
        &CubieCube::SOLVED,
        &to_depth(6),
        &mut |e| {
            if let CosetEvent::Depth(d) = e {
                seen.push(d.count);
                if d.depth == 3 {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        },
        &stop,
    );
    match r {
        Err(CosetError::Stopped { partial }) => {
            assert_eq!(partial.counts, seen);
            assert_eq!(partial.counts.len(), 4);
        }
        other => panic!("expected a stop, got {other:?}"),
    }
}
