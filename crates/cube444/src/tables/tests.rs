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
    let t = Tables::new(&twistor_core::store::NoStore, &mut |_| {});
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
    // bit arrays those at exactly eight and nine; TNoodle's counts up to
    // symmetry (one class stands for at most 16 pairings) bound them.
    let far = |from: usize| {
        (0..FAR_BYTES)
            .map(|i| t.pairing.far[from + i].count_ones() as usize)
            .sum::<usize>()
    };
    let (near, at8, at9) = (t.pairing.near_count, far(0), far(FAR_BYTES));
    let tnoodle_cumulative = [77_640usize, 485_359, 2_778_197];
    assert!(near > tnoodle_cumulative[0] && near <= 16 * tnoodle_cumulative[0]);
    assert!(near + at8 > tnoodle_cumulative[1] && near + at8 <= 16 * tnoodle_cumulative[1]);
    assert!(
        near + at8 + at9 > tnoodle_cumulative[2] && near + at8 + at9 <= 16 * tnoodle_cumulative[2]
    );
    // The identity is paired; one quarter slice away is not within 0.
    let id: [u8; 12] = std::array::from_fn(|i| i as u8);
    assert_eq!(t.pairing.get(&id), 0);
    for k in 0..t.p3_moves.len() {
        assert!(t.pairing.get(&t.pairing_after(&id, k)) <= 1);
    }
}
