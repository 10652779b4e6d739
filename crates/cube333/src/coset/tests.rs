//! The tests of `coset`.

use super::*;
use crate::moves::FaceTurn;
use twistor_core::random::SeededRng;

#[test]
fn edge4_is_a_bijection_and_merges_to_ud_edges() {
    let mut c = CubieCube::SOLVED;
    for first in [0u8, 4, 8] {
        for x in 0..N_EDGE4 as u16 {
            set_edge4(&mut c, first, x);
            assert_eq!(edge4(&c, first), x);
        }
    }
    assert_eq!(edge4(&CubieCube::SOLVED, 8) % 24, 0);
    let t = CosetTables::build(CoordTables::get());
    let mut rng = SeededRng::new(11);
    for _ in 0..500 {
        let g = CubieCube::random_in_phase2(&mut rng, 30);
        let u = edge4(&g, 0) as usize;
        let d = edge4(&g, 4) as usize;
        assert_eq!(t.merge[u * 24 + d % 24], coord::ud_edges(&g));
        // And the move tables follow the cubies.
        let m = rng.below(18);
        let h = g.apply_move(FaceTurn::from_index(m));
        assert_eq!(t.u_move[u * 18 + m], edge4(&h, 0));
        assert_eq!(t.d_move[d * 18 + m], edge4(&h, 4));
    }
}

/// The cosets near H have the published phase-1 distribution, and the
/// projections never exceed their distances.
#[test]
fn near_cosets_have_the_known_distribution() {
    let c = CoordTables::get();
    let b = Phase1Bound::build(c, None);
    let mut counts = [0u64; NEAR + 1];
    for &e in &b.near.slots {
        if e != 0 {
            let d = (e & 0xFF) as usize;
            counts[d] += 1;
            let index = (e >> 8) - 1;
            let id = CosetId::from_index(index).unwrap();
            let (tw, fl, sl) = (id.twist as usize, id.flip as usize, id.slice as usize);
            assert_eq!(b.near.get(tw, fl, sl), Some(d as u8));
            assert!(b.projected(tw, fl, sl) as usize <= d);
        }
    }
    assert_eq!(counts, [1, 4, 50, 592, 7156]);
    let far = CosetId::of(&CubieCube::from_moves(
        &"R U F D L B R".parse::<crate::moves::MoveSeq>().unwrap().0,
    ));
    let (tw, fl, sl) = (far.twist as usize, far.flip as usize, far.slice as usize);
    assert_eq!(b.near.get(tw, fl, sl), None);
}

/// The dense move data (rows, edges with parity, slice sets) against
/// cubies.
#[test]
fn dense_moves_follow_cubies() {
    let c = CoordTables::get();
    let t = CosetTables::build(c);
    let mut rng = SeededRng::new(5);
    for _ in 0..300 {
        let g = CubieCube::random_in_phase2(&mut rng, 30);
        let (co, e, p) = (
            coord::corners(&g) as usize,
            coord::ud_edges(&g) as usize,
            coord::slice_sorted(&g) as usize,
        );
        for (i, &m) in PHASE2_MOVES.iter().enumerate() {
            let h = g.apply_move(FaceTurn::from_index(m as usize));
            let mv = &t.moves[i];
            let (co2, e2, p2) = (
                coord::corners(&h) as usize,
                coord::ud_edges(&h) as usize,
                coord::slice_sorted(&h) as usize,
            );
            assert_eq!(mv.corner_src[co2] as usize, co);
            assert_eq!((mv.edges[e] & 0xFFFF) as usize, e2);
            let q = ((mv.edges[e] >> 16) ^ t.corner_parity[co] as u32) as usize;
            let set = 1u16 << t.slice_bit[p];
            let image = mv
                .slice_sets
                .as_ref()
                .map_or(set, |s| s[q << 12 | set as usize]);
            assert_eq!(image, 1 << t.slice_bit[p2]);
        }
    }
}

fn solve(s: &CosetSolver, g: &CubieCube, o: &CosetOptions) -> CosetReport {
    s.solve(g, o, &mut |_| {}, &AtomicBool::new(false)).unwrap()
}

/// The dense sets (forced from depth 1; the pages touched are few)
/// give what the sorted lists give.
#[test]
fn dense_sets_agree_with_sparse_lists() {
    let solver = CosetSolver::compact();
    for moves in ["", "R U F", "F' L D2 B"] {
        let g = CubieCube::from_moves(&moves.parse::<crate::moves::MoveSeq>().unwrap().0);
        let sparse = CosetOptions {
            phase1_depth: 5,
            max_depth: 6,
            threads: 2,
            ..Default::default()
        };
        let dense = CosetOptions {
            sparse_limit: 0,
            ..sparse.clone()
        };
        let a = solve(&solver, &g, &sparse);
        let b = solve(&solver, &g, &dense);
        assert_eq!(a.dense_from, None);
        assert_eq!(b.dense_from, Some(1));
        assert_eq!(a.counts, b.counts, "{moves}");
        assert_eq!(a.phase1_leaves, b.phase1_leaves);
        assert!(a.found() > 100, "{moves}: {:?}", a.counts);
    }
}

/// A workspace's bitmaps, reused, give what fresh lists give.
#[test]
fn reused_workspace_gives_the_same_counts() {
    let solver = CosetSolver::compact();
    let stop = AtomicBool::new(false);
    let dense = CosetOptions {
        phase1_depth: 5,
        max_depth: 5,
        sparse_limit: 0,
        threads: 2,
        ..Default::default()
    };
    let mut ws = CosetWorkspace::new();
    assert_eq!(ws.reserved_bytes(), 0);
    let mut reports = Vec::new();
    for moves in ["R U F", "", "D' B L2", "R U F"] {
        let g = CubieCube::from_moves(&moves.parse::<crate::moves::MoveSeq>().unwrap().0);
        let again = solver
            .solve_in(&mut ws, &g, &dense, &mut |_| {}, &stop)
            .unwrap();
        assert_eq!(ws.reserved_bytes(), CosetSolver::DENSE_BYTES);
        let fresh = solve(
            &solver,
            &g,
            &CosetOptions {
                sparse_limit: u64::MAX,
                ..dense.clone()
            },
        );
        assert_eq!(fresh.dense_from, None);
        assert_eq!(again.dense_from, Some(1));
        assert_eq!(again.counts, fresh.counts, "{moves}");
        reports.push(again.counts);
    }
    assert_eq!(reports[0], reports[3]);
    assert_ne!(reports[0], reports[1]);
    ws.release();
    assert_eq!(ws.reserved_bytes(), 0);
}

/// Conjugating the cube itself by a symmetry that keeps the UD axis
/// (mirrors included) gives the coset `CosetId::conjugate` names, with
/// the same counts.
#[test]
fn conjugated_cubes_have_the_same_counts() {
    let solver = CosetSolver::compact();
    let sy = Symmetries::get();
    let g = CubieCube::from_moves(&"L F' D2 R B".parse::<crate::moves::MoveSeq>().unwrap().0);
    let options = CosetOptions {
        phase1_depth: 8,
        max_depth: 8,
        ..Default::default()
    };
    let base = solve(&solver, &g, &options);
    assert!(base.found() > 500, "{:?}", base.counts);
    for s in [3, 6, 9, 12] {
        let h = sy.conjugate(&g, s);
        assert_eq!(CosetId::of(&h), CosetId::of(&g).conjugate(s));
        assert_eq!(
            solve(&solver, &h, &options).counts,
            base.counts,
            "symmetry {s}"
        );
    }
}
