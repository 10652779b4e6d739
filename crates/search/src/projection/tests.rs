//! Tests of projections: every kind of coordinate against reading the
//! moved position, preparation, and decode/encode round trips.

use super::tables::MOVE_TABLE_LIMIT;
use super::*;
use twistor_core::{Orbit, PatternOrbit, Transformation};

fn layout() -> Layout {
    Layout::new(vec![
        Orbit::new("E", 6, 2).unwrap(),
        Orbit::new("C", 4, 3).unwrap(),
    ])
    .unwrap()
}

fn goal(l: &Layout) -> Pattern {
    l.pattern(&[
        PatternOrbit {
            pieces: vec![0, 1, 2, 3, 4, 5],
            orientation: vec![0; 6],
            orientation_mod: None,
        },
        PatternOrbit {
            pieces: vec![0, 0, 1, 1],
            orientation: vec![0; 4],
            orientation_mod: None,
        },
    ])
    .unwrap()
}

fn moves(l: &Layout) -> Vec<Transformation> {
    vec![
        Transformation::from_bytes(
            l,
            vec![1, 2, 3, 0, 4, 5, 0, 0, 1, 1, 0, 0, 1, 2, 3, 0, 1, 0, 0, 2],
        )
        .unwrap(),
        Transformation::from_bytes(
            l,
            vec![0, 1, 5, 3, 2, 4, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 0, 0, 0, 0],
        )
        .unwrap(),
    ]
}

/// Every kind of coordinate, moved by table or by hand, agrees with
/// reading the moved position.
/// The test puzzle's layout, goal and moves.
fn fixture() -> (Layout, Pattern, Vec<Transformation>) {
    let l = layout();
    let g = goal(&l);
    let ms = moves(&l);
    (l, g, ms)
}

/// The moves as packed bytes.
fn bytes_of(ms: &[Transformation]) -> Vec<&[u8]> {
    ms.iter().map(|t| t.as_bytes()).collect()
}

#[test]
fn coordinates_follow_the_moves() {
    let (l, g, ms) = fixture();
    let raw = bytes_of(&ms);
    for sels in [
        vec![OrbitSelection {
            orbit: 0,
            ids: vec![2, 4, 5],
            orientation: true,
        }],
        vec![OrbitSelection {
            orbit: 0,
            ids: (0..6).collect(),
            orientation: true,
        }],
        vec![OrbitSelection {
            orbit: 1,
            ids: vec![0],
            orientation: true,
        }],
        vec![
            OrbitSelection {
                orbit: 1,
                ids: vec![0, 1],
                orientation: true,
            },
            OrbitSelection {
                orbit: 0,
                ids: vec![0, 3],
                orientation: false,
            },
        ],
    ] {
        // The second move flips one edge alone: only the corners keep their total twist.
        let mut tabled = Projection::new(&l, &g, &sels, &[false, true]).unwrap();
        tabled.prepare(&l, &raw);
        // Without full move tables: split tables for tracked pieces, or none.
        let mut split = tabled.clone();
        split.prepare_with(&l, &raw, 0);
        for p in [tabled, split] {
            let mut s = g.as_bytes().to_vec();
            let mut buf = s.clone();
            let mut values = vec![0u64; p.num_coords()];
            let mut carried = vec![0u64; p.num_coords()];
            p.read_coords(&l, &s, &mut carried);
            let mut scratch = (Vec::new(), Vec::new());
            for step in 0..40 {
                let m = (step * 7 + step / 3) % ms.len();
                p.split(p.index(&l, &s), &mut values);
                let moved: Vec<u64> = (0..p.num_coords())
                    .map(|ci| p.move_coord(ci, m, values[ci], &mut scratch))
                    .collect();
                l.compose_into(&s, raw[m], &mut buf);
                std::mem::swap(&mut s, &mut buf);
                assert_eq!(p.join(&moved), p.index(&l, &s), "{sels:?} step {step}");
                // A search carries the coordinates from the start.
                if p.moves_by_table() {
                    let before = carried.clone();
                    let index = p.step_coords(&before, m, &mut carried);
                    assert_eq!(index, p.index(&l, &s), "{sels:?} step {step}");
                }
            }
        }
    }
}

/// A table read from the cache is looked up through an unprepared
/// projection: preparing one (which a fill does) must not change how
/// it indexes. It once moved a tabled coordinate last while filling.
#[test]
fn preparing_does_not_change_the_index() {
    let (l, g, ms) = fixture();
    let raw = bytes_of(&ms);
    let sels = vec![
        OrbitSelection {
            orbit: 1,
            ids: vec![0, 1],
            orientation: true,
        },
        OrbitSelection {
            orbit: 0,
            ids: (0..6).collect(),
            orientation: true,
        },
    ];
    let mut stored = Projection::new(&l, &g, &sels, &[false, true]).unwrap();
    stored.arrange_for(ms.len());
    for limit in [MOVE_TABLE_LIMIT, 0] {
        let mut filled = stored.clone();
        filled.prepare_with(&l, &raw, limit);
        let mut s = g.as_bytes().to_vec();
        let mut buf = s.clone();
        for step in 0..40 {
            let m = (step * 5 + step / 2) % ms.len();
            l.compose_into(&s, raw[m], &mut buf);
            std::mem::swap(&mut s, &mut buf);
            assert_eq!(stored.index(&l, &s), filled.index(&l, &s), "step {step}");
        }
    }
}

#[test]
fn decode_and_encode_are_inverse() {
    let (l, g, ms) = fixture();
    let raw = bytes_of(&ms);
    let sels = vec![
        OrbitSelection {
            orbit: 0,
            ids: vec![2, 4, 5],
            orientation: true,
        },
        OrbitSelection {
            orbit: 1,
            ids: vec![0, 1],
            orientation: true,
        },
    ];
    // One class, and more classes than the ranks keep in registers.
    let one = vec![OrbitSelection {
        orbit: 0,
        ids: vec![3],
        orientation: false,
    }];
    let five = vec![OrbitSelection {
        orbit: 0,
        ids: vec![0, 1, 2, 4, 5],
        orientation: false,
    }];
    for sels in [sels, one, five] {
        let mut p = Projection::new(&l, &g, &sels, &[false, true]).unwrap();
        p.prepare(&l, &raw);
        for c in &p.coords {
            let mut buf = Vec::new();
            for v in 0..c.size {
                c.decode(v, &mut buf);
                assert_eq!(c.encode(&buf), v);
            }
        }
    }
}
