//! The tests of `table`.

use super::*;
use crate::coord;
use crate::cubie::CubieCube;
use crate::moves::FaceTurn;
use twistor_core::random::SeededRng;

fn coords(c: &CubieCube) -> Coords {
    Coords {
        twist: coord::twist(c),
        flip: coord::flip(c),
        slice_sorted: coord::slice_sorted(c),
        corner_comb: coord::corner_comb(c),
    }
}

/// Every move of a cube lands on an entry the build's `neighbours`
/// gives for the cube's entry: the layout's class moves, symmetry
/// conjugations and self-symmetries agree with the cubie model and
/// with the index the search reads.
fn check_neighbours<L: Layout>(layout: &L, index: impl Fn(Coords) -> usize) {
    let mut rng = SeededRng::new(12);
    let mut cubes: Vec<CubieCube> = (0..150)
        .map(|_| CubieCube::random(|| rng.next_u64()))
        .collect();
    // Near home, where the self-symmetric classes are.
    cubes.push(CubieCube::SOLVED);
    for m in FaceTurn::all() {
        cubes.push(CubieCube::from_moves(&[m]));
        cubes.push(CubieCube::from_moves(&[
            m,
            FaceTurn::from_index(3 * ((m.index() / 3 + 1) % 6)),
        ]));
    }
    for c in &cubes {
        let mut near = Vec::new();
        layout.neighbours(index(coords(c)), |j| near.push(j));
        assert!(near.iter().all(|&j| j < layout.len()));
        for m in FaceTurn::all() {
            let j = index(coords(&c.apply_move(m)));
            assert!(near.contains(&j), "{c:?} · {m:?}");
        }
    }
}

#[test]
fn huge_layout_moves_agree_with_cubies() {
    let t = CoordTables::get();
    let index = HugeIndex::new(t);
    check_neighbours(&HugeLayout::new(t), |c| index.index(c));
}

#[test]
fn giant_layout_moves_agree_with_cubies() {
    let t = CoordTables::get();
    let index = GiantIndex { coord: t };
    let layout = GiantLayout::new(t);
    check_neighbours(&layout, |c| index.index(c));
    assert_eq!(index.index(coords(&CubieCube::SOLVED)), layout.goal());
}

/// Twist × corner combination, no symmetry, in the giant table's
/// padded rows: small enough to check the breadth-first build and the
/// packing against a plain breadth-first search.
struct CornerLayout(&'static CoordTables);

impl Layout for CornerLayout {
    const ROW: usize = GIANT_ROW;
    type Step = ();

    fn rows(&self) -> usize {
        N_CORNER_COMB
    }
    fn row_len(&self) -> usize {
        N_TWIST
    }
    fn goal(&self) -> usize {
        0
    }
    fn step(&self, row: usize, m: usize) -> (usize, ()) {
        (
            self.0.corner_comb_move[row * N_MOVES + m] as usize * GIANT_ROW,
            (),
        )
    }
    fn inner(&self, _: (), f: usize, m: usize) -> usize {
        self.0.twist_move[f * N_MOVES + m] as usize
    }
    fn neighbours(&self, i: usize, mut f: impl FnMut(usize)) {
        for m in 0..N_MOVES {
            let (base, ()) = self.step(i / GIANT_ROW, m);
            f(base + self.inner((), i % GIANT_ROW, m));
        }
    }
}

/// Every entry of `layout`'s exact table, built in place, against a plain
/// breadth-first search over the positions alone; the deepest distance.
fn check_exact_build<L: Layout>(layout: &L) -> u8 {
    let words = build_exact(layout, &mut |_, _, _| {});
    assert_eq!(words.len(), exact_bytes(layout.len()));
    let near = shallow_entries(layout, NEAR);
    let mut dist = vec![u8::MAX; layout.len()];
    dist[layout.goal()] = 0;
    let mut queue = std::collections::VecDeque::from([layout.goal()]);
    while let Some(i) = queue.pop_front() {
        layout.neighbours(i, |j| {
            if dist[j] == u8::MAX {
                dist[j] = dist[i] + 1;
                queue.push_back(j);
            }
        });
    }
    let mut deepest = 0;
    for row in 0..layout.rows() {
        for f in 0..L::ROW {
            let i = row * L::ROW + f;
            if f >= layout.row_len() {
                assert_eq!(dist[i], u8::MAX, "padding is never reached");
                continue;
            }
            assert_eq!(exact_value(&words, &near, i), dist[i].min(12), "entry {i}");
            deepest = deepest.max(dist[i]);
        }
    }
    deepest
}

#[test]
fn exact_build_matches_a_plain_breadth_first_search() {
    let deepest = check_exact_build(&CornerLayout(CoordTables::get()));
    // Deep enough that every code, near map and mod-3 levels are used.
    assert!(deepest >= 8, "{deepest}");
}

/// A torus of 40 rows × 30 entries (rows of 32, two of padding): moves 0
/// and 1 step the row, 2 and 3 the entry in it, the others stay. Its
/// distances reach 35, past everything the build treats apart: the
/// mod-3 levels, distance 11 found on the exact table, and the far
/// entries left at 12.
struct TorusLayout;

impl Layout for TorusLayout {
    const ROW: usize = 32;
    type Step = ();

    fn rows(&self) -> usize {
        40
    }
    fn row_len(&self) -> usize {
        30
    }
    fn goal(&self) -> usize {
        0
    }
    fn step(&self, row: usize, m: usize) -> (usize, ()) {
        let row2 = match m {
            0 => (row + 1) % 40,
            1 => (row + 39) % 40,
            _ => row,
        };
        (row2 * 32, ())
    }
    fn inner(&self, _: (), f: usize, m: usize) -> usize {
        match m {
            2 => (f + 1) % 30,
            3 => (f + 29) % 30,
            _ => f,
        }
    }
    fn neighbours(&self, i: usize, mut f: impl FnMut(usize)) {
        for m in 0..N_MOVES {
            let (base, ()) = self.step(i / 32, m);
            f(base + self.inner((), i % 32, m));
        }
    }
}

#[test]
fn exact_build_in_place_reaches_past_every_level_it_treats_apart() {
    assert_eq!(check_exact_build(&TorusLayout), 35);
}

#[test]
fn lane_matching() {
    let word = 0b11_10_01_00u64 | (u64::MAX << 8);
    assert_eq!(lanes_equal(word, 0), 1);
    assert_eq!(lanes_equal(word, 1), 1 << 2);
    assert_eq!(lanes_equal(word, 2), 1 << 4);
    assert_eq!(lanes_equal(word, 3).count_ones(), 29);
}
