//! The tests of `tables`.

use super::*;

fn histogram(v: &[u8]) -> Vec<usize> {
    let mut h = vec![0usize; 20];
    for &d in v.iter().filter(|&&d| d != u8::MAX) {
        h[d as usize] += 1;
    }
    while h.last() == Some(&0) {
        h.pop();
    }
    h
}

/// The distance distributions of TNoodle's three-phase solver (as its
/// tables print them, counted in its own coordinates), against ours:
/// phase 2 and the phase-3 centres count the same positions four
/// times over here, once for each of the four ways up that keep the
/// pairs on their axes, which TNoodle's coordinates fold together.
#[test]
fn distance_distributions_match_the_three_phase_solvers() {
    let t = Tables::new(&twistor_core::store::NoStore, &mut |_| {}, true);
    let tnoodle2 = [6, 11, 97, 840, 5651, 30868, 114112, 217442, 80295, 1128];
    let tnoodle3 = [1, 3, 34, 238, 1118, 3719, 6991, 8360, 6600, 2208, 128];
    let times4 = |v: &[usize]| v.iter().map(|x| 4 * x).collect::<Vec<_>>();
    assert_eq!(histogram(&t.prun2), times4(&tnoodle2));
    for c in t.centre3.iter().flatten() {
        assert_eq!(histogram(c), times4(&tnoodle3));
    }
    // Phase 1 without symmetry: every placement of one pair's eight
    // centres is reached, within TNoodle's eight moves.
    let h1 = histogram(&t.prun1);
    assert_eq!(h1.iter().sum::<usize>(), 735_471);
    assert_eq!(h1.len(), 9);
    assert_eq!(h1[0], 3);
    // The pairings: the hash table holds those within seven moves, the
    // bit arrays those within eight and nine; TNoodle's counts up to
    // symmetry (one class stands for at most 16 pairings) bound them.
    let ones = |b: &[u8]| b.iter().map(|x| x.count_ones() as usize).sum::<usize>();
    let within = [
        t.pairing.near_count,
        ones(&t.pairing.within8),
        ones(t.pairing.within9.get().expect("built")),
    ];
    let tnoodle_cumulative = [77_640usize, 485_359, 2_778_197];
    for (w, c) in within.into_iter().zip(tnoodle_cumulative) {
        assert!(w > c && w <= 16 * c, "{w} pairings against {c} classes");
    }
    // The identity is paired; one quarter slice away is not within 0.
    let id: [u8; 12] = std::array::from_fn(|i| i as u8);
    assert_eq!(t.pairing.get(&id), 0);
    for k in 0..t.p3_moves.len() {
        assert!(t.pairing.get(&t.pairing_after(&id, k)) <= 1);
    }
}

/// Without the bits for 9 moves, a pairing's estimate (where phase 3
/// orders its starts) is still its exact distance up to 10, read from
/// its neighbours: the same as the complete table's on pairings of every
/// distance, walked out from paired by random moves.
#[test]
fn estimates_without_the_bits_for_nine_are_the_complete_tables() {
    let store = twistor_core::store::MemoryStore::default();
    let complete = Tables::new(&store, &mut |_| {}, true);
    let quick = Tables::new(&twistor_core::store::NoStore, &mut |_| {}, false);
    assert!(complete.pairing_complete() && !quick.pairing_complete());
    let mut rng = twistor_core::random::SeededRng::new(3);
    let mut seen = [0usize; 11];
    for walk in 0..400 {
        let mut p: [u8; 12] = std::array::from_fn(|i| i as u8);
        for _ in 0..walk % 24 {
            p = complete.pairing_after(&p, rng.below(complete.p3_moves.len()));
            let d = complete.pairing.get(&p);
            assert_eq!(quick.pairing_estimate(&p), d);
            assert!(quick.pairing.get(&p) == d.min(9));
            seen[d as usize] += 1;
        }
    }
    assert!(seen[8] > 0 && seen[9] > 0 && seen[10] > 0, "{seen:?}");
    // A quick table given the store's bits for 9 is complete.
    let loaded = Tables::new(&store, &mut |_| {}, false);
    assert!(loaded.pairing_complete());
}
