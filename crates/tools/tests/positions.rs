//! Distinguishable positions: the 4x4x4's exact count (the geometry
//! crate's 4x4x4, whose centres of a colour are alike), and breadth-first
//! search on small puzzles with identical pieces written here.

use std::collections::HashSet;

use twistor_core::Puzzle;
use twistor_formats::read_puzzle;
use twistor_geometry::{build, PuzzleOptions};
use twistor_tools::analysis::{constraints, has_indistinguishable_pieces, positions};

fn bfs(p: &Puzzle) -> u64 {
    let l = p.layout();
    let moves: Vec<_> = p
        .search_moves()
        .iter()
        .map(|&i| p.moves()[i].transformation.clone())
        .collect();
    let mut seen = HashSet::new();
    seen.insert(p.start().clone());
    let mut stack = vec![p.start().clone()];
    while let Some(q) = stack.pop() {
        for m in &moves {
            let r = l.apply(&q, m);
            if seen.insert(r.clone()) {
                stack.push(r);
            }
        }
    }
    seen.len() as u64
}

fn count(p: &Puzzle) -> twistor_core::BigUint {
    let chain = p.group(&p.search_moves());
    positions(p, &chain).unwrap().positions
}

#[test]
fn four_by_four_has_24_times_the_textbook_count() {
    let p = build("4x4x4", &PuzzleOptions::default())
        .unwrap()
        .into_puzzle();
    assert!(has_indistinguishable_pieces(&p));
    let n = count(&p);
    let textbook: twistor_core::BigUint = "7401196841564901869874093974498574336000000000"
        .parse()
        .unwrap();
    assert_eq!(n, textbook * 24u32);
    assert_eq!(
        n.to_string(),
        "177628724197557644876978255387965784064000000000"
    );
}

/// A 2x2x2 with only U and R, three top corners alike, the fourth with
/// its twist unknown, and the bottom ones in two colours.
const TWO_COLOUR: &str = include_str!("support/two-colour.tws");

/// Two orbits linked by the moves: a 6-cycle of edges with identical
/// pieces in two colours and a 3-cycle of twisting corners.
const LINKED: &str = include_str!("support/linked.tws");

#[test]
fn counts_match_breadth_first_search() {
    for text in [TWO_COLOUR, LINKED] {
        let p = read_puzzle(text, "test.tws").unwrap();
        assert!(has_indistinguishable_pieces(&p));
        let n = count(&p);
        let b = bfs(&p);
        assert_eq!(n, b.into(), "{}", p.name());
        assert!(n < p.group_order(&p.search_moves()));
    }
}

#[test]
fn constraints_of_the_three_by_three() {
    let p = build("3x3x3", &PuzzleOptions::default())
        .unwrap()
        .into_puzzle();
    let moves: Vec<_> = (p.search_moves().iter())
        .map(|&i| &p.moves()[i].transformation)
        .collect();
    let c = constraints(&p, &moves);
    assert!(c.orientation_sums.iter().all(|s| s.preserved()));
    // Edge and corner parities are linked.
    let orbit = |name| p.layout().orbit_index(name).unwrap();
    let mut linked = vec![orbit("EDGES"), orbit("CORNERS")];
    linked.sort();
    assert_eq!(c.parity_relations, vec![linked]);
}
