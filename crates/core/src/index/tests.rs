//! Tests of the perfect index: rankings round trip, and the index is
//! perfect on small puzzles with every kind of component.

use super::*;
use crate::{Orbit, PatternOrbit};

#[test]
fn permutation_ranks_round_trip_in_order() {
    let mut p = [0u8; 5];
    let mut prev: Option<[u8; 5]> = None;
    for i in 0..120 {
        unrank_permutation(i, &mut p);
        assert_eq!(rank_permutation(&p), i);
        if let Some(q) = prev {
            assert!(q < p, "lexicographic order at {i}");
        }
        prev = Some(p);
    }
}

#[test]
fn parity_halves_round_trip() {
    let mut p = [0u8; 6];
    for parity in 0..2u8 {
        let mut seen = std::collections::HashSet::new();
        for i in 0..360 {
            unrank_permutation_with_parity(i, parity, &mut p);
            assert_eq!(permutation_parity(&p), parity);
            assert_eq!(rank_permutation(&p) >> 1, i);
            seen.insert(p);
        }
        assert_eq!(seen.len(), 360);
    }
}

#[test]
fn multiset_ranks_round_trip() {
    let counts = [2u8, 3, 1];
    assert_eq!(multinomial(&counts), Some(60));
    let mut out = [0u8; 6];
    let mut prev: Option<[u8; 6]> = None;
    for i in 0..60 {
        unrank_multiset(i, &counts, &mut out).unwrap();
        assert_eq!(rank_multiset(&out, &counts), Some(i));
        if let Some(q) = prev {
            assert!(q < out);
        }
        prev = Some(out);
    }
    assert_eq!(multinomial(&[30, 30, 30]), None);
    assert_eq!(multinomial(&[20, 20]), Some(137_846_528_820));
}

fn layout_and_moves() -> (Layout, Vec<Transformation>) {
    let layout = Layout::new(vec![
        Orbit::new("A", 4, 3).unwrap(),
        Orbit::new("B", 4, 3).unwrap(),
        Orbit::new("T", 2, 2).unwrap(),
    ])
    .unwrap();
    let moves = [
        // Move 1: 3-cycle of slots 0,1,2 of A and B alike, twisting A
        // (sum 0) and B (sum 1); flips T[0].
        vec![
            1, 2, 0, 3, 1, 2, 0, 0, //
            1, 2, 0, 3, 1, 0, 0, 0, //
            0, 1, 1, 0,
        ],
        // Move 2: 4-cycle of all slots of A and B alike (odd), no twists.
        vec![
            1, 2, 3, 0, 0, 0, 0, 0, //
            1, 2, 3, 0, 0, 0, 0, 0, //
            0, 1, 0, 0,
        ],
    ]
    .into_iter()
    .map(|bytes| Transformation::from_bytes(&layout, bytes).unwrap())
    .collect();
    (layout, moves)
}

/// Every state the moves reach from `start`, by brute force.
fn reachable(layout: &Layout, start: &Pattern, moves: &[Transformation]) -> Vec<Vec<u8>> {
    let mut seen = std::collections::HashSet::new();
    let mut queue = vec![start.as_bytes().to_vec()];
    seen.insert(queue[0].clone());
    let mut i = 0;
    while i < queue.len() {
        for m in moves {
            let mut out = vec![0u8; layout.state_len()];
            layout.compose_into(&queue[i], m.as_bytes(), &mut out);
            if seen.insert(out.clone()) {
                queue.push(out);
            }
        }
        i += 1;
    }
    queue
}

/// The index numbers every reachable state differently, below its size,
/// and gives it back.
fn check_perfect(ix: &PositionIndexer, states: &[Vec<u8>]) {
    let mut ranks = std::collections::HashSet::new();
    let mut back = vec![0u8; states[0].len()];
    for s in states {
        let r = ix.rank(s);
        assert!(r < ix.size());
        assert!(ranks.insert(r), "two states rank to {r}");
        ix.unrank(r, &mut back);
        assert_eq!(&back, s);
    }
}

#[test]
fn blocks_followers_sums_and_joints() {
    let (layout, moves) = layout_and_moves();
    let gens: Vec<&Transformation> = moves.iter().collect();
    let start = layout.pattern_of(&layout.identity());
    let ix = PositionIndexer::new(&layout, &start, &gens).unwrap();
    // B's arrangement follows A's.
    let followers: usize = ix.components().iter().map(|c| c.followers()).sum();
    assert_eq!(followers, 1);
    let states = reachable(&layout, &start, &moves);
    check_perfect(&ix, &states);
    // Without joints: A's arrangements (24), A's twists with a fixed
    // sum (27), B's (81), T[0] (2); T[1] never moves. The joints may
    // only take away what the moves cannot reach.
    assert!(ix.size() <= 24 * 27 * 81 * 2);
    assert!(ix.size() >= states.len() as u64);
}

#[test]
fn identical_pieces_and_moduli() {
    let layout = Layout::new(vec![Orbit::new("C", 4, 4).unwrap()]).unwrap();
    // A 4-cycle that turns the arriving pieces by 1, 1, 1, 1.
    let m = Transformation::from_bytes(&layout, vec![1, 2, 3, 0, 1, 1, 1, 1]).unwrap();
    let start = layout
        .pattern(&[PatternOrbit {
            pieces: vec![0, 0, 1, 1],
            orientation: vec![0, 1, 0, 1],
            orientation_mod: Some(vec![2, 2, 2, 2]),
        }])
        .unwrap();
    let ix = PositionIndexer::new(&layout, &start, &[&m]).unwrap();
    // One move of order 4 reaches 4 patterns; the arrangements (6) and
    // the orientations mod 2 with a fixed sum (8) are tied together
    // by a joint component, which makes the index exact.
    let states = reachable(&layout, &start, std::slice::from_ref(&m));
    assert_eq!(states.len(), 4);
    assert_eq!(ix.size(), 4);
    assert_eq!(ix.components()[0].kind(), ComponentKind::Joint);
    let (a, b) = ix.components()[0].parts().unwrap();
    assert_eq!((a.radix() * b.radix()), 6 * 8);
    check_perfect(&ix, &states);
    let mixed = layout
        .pattern(&[PatternOrbit {
            pieces: vec![0, 1, 2, 3],
            orientation: vec![0, 1, 0, 1],
            orientation_mod: Some(vec![2, 0, 2, 2]),
        }])
        .unwrap();
    assert!(matches!(
        PositionIndexer::new(&layout, &mixed, &[&m]),
        Err(IndexError::MixedOrientationModuli { .. })
    ));
}

#[test]
fn every_index_round_trips_on_a_small_space() {
    let (layout, moves) = layout_and_moves();
    let gens: Vec<&Transformation> = moves.iter().collect();
    let start = layout.pattern_of(&layout.identity());
    let ix = PositionIndexer::new(&layout, &start, &gens).unwrap();
    let mut state = vec![0u8; layout.state_len()];
    let step = ix.size() / 5000 + 1;
    let mut i = 0;
    while i < ix.size() {
        ix.unrank(i, &mut state);
        assert_eq!(ix.rank(&state), i);
        i += step;
    }
}
