//! God's algorithm by breadth-first search: published tables, and the bit
//! arrays against the sorted arrays and against a plain breadth-first
//! search (independent engines). The puzzles are the support module's
//! definitions and the geometry crate's.

mod support;

use std::collections::HashMap;

use support::{
    bfs_distances, cube2, geometry, geometry_with_rotations, loopover3, move_set, shared_puzzle,
    two_colour_cube2,
};

use twistor_core::Puzzle;
use twistor_search::gods::{
    self, Engine, GodsControl, GodsError, GodsOptions, GodsReport, Storage,
};
use twistor_search::{Metric, MoveSet};

fn run(p: &Puzzle, moves: &MoveSet, options: GodsOptions) -> GodsReport {
    gods::enumerate(p, moves, &options, GodsControl::default()).unwrap()
}

fn with_maxima(storage: Storage) -> GodsOptions {
    GodsOptions {
        local_maxima: true,
        storage,
        threads: 2,
        ..GodsOptions::default()
    }
}

/// OEIS A079761 and Longridge's table of the 2x2x2 in the face-turn metric.
#[test]
fn two_by_two_face_turn_metric_with_local_maxima() {
    let p = cube2();
    let moves = move_set(&p, Some("U,F,R"), Metric::Htm);
    let r = run(&p, &moves, with_maxima(Storage::BitArray));
    assert_eq!(r.plan.engine, Engine::BitArray);
    let t = &r.table;
    assert_eq!(
        t.counts,
        [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    );
    assert_eq!(t.total(), 3_674_160);
    let lm = t.local_maxima.as_ref().unwrap();
    assert_eq!(
        lm,
        &[0, 0, 0, 0, 11, 8, 96, 904, 13212, 413392, 604516, 2644]
    );
    assert_eq!(lm.iter().sum::<u64>(), 1_034_783);
    let strong = t.strong_local_maxima.as_ref().unwrap();
    assert_eq!(strong.iter().sum::<u64>(), 8508);
}

/// OEIS A079762 and Longridge's table in the quarter-turn metric, where
/// every local maximum is strong (a quarter turn changes the parity).
#[test]
fn two_by_two_quarter_turn_metric_with_local_maxima() {
    let p = cube2();
    let moves = move_set(&p, Some("U,F,R"), Metric::Qtm);
    let r = run(&p, &moves, with_maxima(Storage::BitArray));
    let t = &r.table;
    assert_eq!(
        t.counts,
        [
            1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280,
            276
        ]
    );
    let lm = t.local_maxima.as_ref().unwrap();
    assert_eq!(
        lm,
        &[0, 0, 0, 0, 0, 0, 0, 16, 53, 260, 1460, 34088, 402260, 88636, 276]
    );
    assert_eq!(lm.iter().sum::<u64>(), 527_049);
    assert_eq!(t.strong_local_maxima.as_ref(), Some(lm));
}

/// The antipodes come with shortest sequences that reach them.
#[test]
fn antipodes_come_with_shortest_sequences() {
    let p = cube2();
    let moves = move_set(&p, Some("U,F,R"), Metric::Htm);
    let options = GodsOptions {
        antipodes: 4,
        threads: 2,
        ..GodsOptions::default()
    };
    let r = run(&p, &moves, options);
    assert_eq!(r.antipodes.count, 2644);
    assert_eq!(r.antipodes.positions.len(), 4);
    assert_eq!(r.antipodes.sequences.len(), 4);
    let layout = p.layout();
    for (pos, seq) in r.antipodes.positions.iter().zip(&r.antipodes.sequences) {
        assert_eq!(seq.len(), 11);
        let mut s = p.start().clone();
        for &m in seq {
            s = layout.apply(&s, &moves.moves()[m].transformation);
        }
        assert_eq!(s.as_bytes(), &pos[..]);
    }
}

/// The bit arrays and the sorted arrays agree, local maxima included, on
/// puzzles with identical pieces, orientations and inexact indices.
#[test]
fn bit_arrays_and_sorted_arrays_agree() {
    for (name, p, moves, metric) in [
        ("pyramorphix", geometry("pyramorphix"), None, Metric::Htm),
        ("two-colour 2x2x2", two_colour_cube2(), None, Metric::Htm),
        ("LoopOver 3x3", loopover3(), None, Metric::Qtm),
        ("2x2x2", cube2(), Some("U,R"), Metric::Htm),
        (
            "skewb diamond",
            geometry("skewb diamond"),
            None,
            Metric::Htm,
        ),
        (
            "master pyramorphix",
            geometry("master pyramorphix"),
            None,
            Metric::Qtm,
        ),
    ] {
        let ms = move_set(&p, moves, metric);
        let bits = run(&p, &ms, with_maxima(Storage::BitArray));
        let sorted = run(
            &p,
            &ms,
            GodsOptions {
                symmetry: false,
                ..with_maxima(Storage::SortedArray)
            },
        );
        assert_eq!(sorted.plan.engine, Engine::SortedArray);
        assert_eq!(bits.table, sorted.table, "{name} {moves:?}");
        assert!(bits.table.total() > 1, "{name}");
    }
}

/// Without local maxima, dense forward levels mark neighbours without
/// reading their codes: in a bit array of each thread's own when memory
/// allows, otherwise in the codes themselves (one thread plainly, two
/// atomically after reading). Every way gives the sorted arrays'
/// distribution, on levels computed forward and backward.
#[test]
fn every_way_of_marking_agrees_with_sorted_arrays() {
    for (name, p, moves, metric) in [
        ("2x2x2", cube2(), Some("U,F,R"), Metric::Htm),
        ("2x2x2", cube2(), Some("U,F,R"), Metric::Qtm),
        ("pyramorphix", geometry("pyramorphix"), None, Metric::Htm),
        ("two-colour 2x2x2", two_colour_cube2(), None, Metric::Htm),
        ("LoopOver 3x3", loopover3(), None, Metric::Qtm),
    ] {
        let ms = move_set(&p, moves, metric);
        let plain = |threads| GodsOptions {
            storage: Storage::BitArray,
            threads,
            ..GodsOptions::default()
        };
        let sorted = run(
            &p,
            &ms,
            GodsOptions {
                symmetry: false,
                storage: Storage::SortedArray,
                ..plain(2)
            },
        );
        assert_eq!(sorted.plan.engine, Engine::SortedArray, "{name}");
        for threads in [1, 2] {
            let private = run(&p, &ms, plain(threads));
            assert_eq!(private.plan.engine, Engine::BitArray, "{name}");
            assert_eq!(private.table, sorted.table, "{name} {metric:?} {threads}");
            // A byte short of the mark arrays: the codes are marked.
            let shared = run(
                &p,
                &ms,
                GodsOptions {
                    memory_limit: private.plan.memory - 1,
                    ..plain(threads)
                },
            );
            assert!(shared.plan.memory < private.plan.memory, "{name}");
            assert_eq!(shared.table, sorted.table, "{name} {metric:?} {threads}");
        }
        assert!(sorted.table.total() > 1, "{name}");
    }
}

/// The table of `p` from the distances of a plain breadth-first search
/// (of a puzzle at most 64 moves deep).
fn bfs_counts(p: &Puzzle, moves: &MoveSet) -> Vec<u64> {
    let dist: HashMap<Vec<u8>, u32> = bfs_distances(p, moves, 64);
    let mut counts = vec![0u64; dist.values().max().map_or(0, |&d| d as usize + 1)];
    for &d in dist.values() {
        counts[d as usize] += 1;
    }
    counts
}

/// Identical pieces: the two-colour 2x2x2 (C(8,4) · 3^7 positions)
/// against a plain breadth-first search over its patterns, and the
/// published counts of the Puzzler Novice when `../shared` is there. The
/// LoopOver 3x3's table is its conformance data.
#[test]
fn identical_pieces_and_sliding_tiles() {
    let p = two_colour_cube2();
    let ms = MoveSet::all(&p, Metric::Htm).unwrap();
    let r = run(&p, &ms, GodsOptions::default());
    assert_eq!(r.table.total(), 153_090);
    assert_eq!(r.table.counts, bfs_counts(&p, &ms));
    if let Some(p) = shared_puzzle("tws", "puzzlernovice") {
        let r = run(
            &p,
            &MoveSet::all(&p, Metric::Htm).unwrap(),
            GodsOptions::default(),
        );
        assert_eq!(
            r.table.counts,
            [1, 5, 25, 98, 409, 1555, 5391, 14419, 28341, 30236, 13760, 2546, 213, 21]
        );
    }
    let p = loopover3();
    let ms = MoveSet::all(&p, Metric::Htm).unwrap();
    let r = run(&p, &ms, GodsOptions::default());
    assert_eq!(
        r.table.counts,
        [1, 12, 96, 736, 5208, 28674, 89497, 54741, 2475]
    );
    assert_eq!(r.table.total(), 181_440);
    assert_eq!(r.table.counts, bfs_counts(&p, &ms));
}

/// Reducing by the rotations gives the same table as not reducing, with
/// fewer stored classes.
#[test]
fn symmetry_reduction_matches_the_full_enumeration() {
    for name in ["pyramorphix", "skewb diamond"] {
        let p = geometry_with_rotations(name);
        let ms = MoveSet::all(&p, Metric::Htm).unwrap();
        let reduced = run(&p, &ms, with_maxima(Storage::SortedArray));
        assert!(reduced.plan.symmetry.is_some_and(|s| s > 1), "{name}");
        let classes: u64 = reduced.classes.as_ref().unwrap().iter().sum();
        assert!(classes < reduced.table.total(), "{name}");
        let full = run(&p, &ms, with_maxima(Storage::BitArray));
        assert_eq!(reduced.table, full.table, "{name}");
    }
}

#[test]
fn too_little_memory_says_how_much_is_needed() {
    let p = cube2();
    let ms = MoveSet::all(&p, Metric::Htm).unwrap();
    let options = GodsOptions {
        memory_limit: 1 << 20,
        ..GodsOptions::default()
    };
    match gods::enumerate(&p, &ms, &options, GodsControl::default()) {
        Err(GodsError::NotEnoughMemory { needed, limit }) => {
            assert_eq!(limit, 1 << 20);
            // 88,179,840 positions at two bits each.
            assert!(needed >= 88_179_840 / 4, "{needed}");
        }
        other => panic!("expected NotEnoughMemory, got {other:?}"),
    }
}
