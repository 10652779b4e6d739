//! Reachability decided before solving, against breadth-first search: on
//! a puzzle whose pieces are partly alike every verdict is checked
//! against the positions the moves reach, and on named puzzles scrambles
//! are proven reachable and a twisted corner is ruled out.

use std::collections::HashSet;

use twistor_core::{Pattern, Puzzle};
use twistor_formats::read_puzzle;
use twistor_geometry::{build, PuzzleOptions};
use twistor_tools::analysis::{Reachability, ReachabilityTest};

/// Two orbits linked by the moves: a 6-cycle of edges with identical
/// pieces in two colours and a 3-cycle of twisting corners.
const LINKED: &str = include_str!("support/linked.tws");

fn test_of(p: &Puzzle) -> ReachabilityTest {
    let gens: Vec<&[u8]> = (p.search_moves().iter())
        .map(|&i| p.moves()[i].transformation.as_bytes())
        .collect();
    ReachabilityTest::new(p, p.start(), &gens, 2_000, u64::MAX)
}

fn decide(p: &Puzzle, test: &ReachabilityTest, position: &Pattern) -> Reachability {
    test.decide(p.layout(), position)
}

/// Every position the search moves reach from the start.
fn bfs(p: &Puzzle) -> HashSet<Pattern> {
    let moves: Vec<_> = (p.search_moves().iter())
        .map(|&i| p.moves()[i].transformation.clone())
        .collect();
    let mut seen = HashSet::from([p.start().clone()]);
    let mut stack = vec![p.start().clone()];
    while let Some(q) = stack.pop() {
        for m in &moves {
            let r = p.layout().apply(&q, m);
            if seen.insert(r.clone()) {
                stack.push(r);
            }
        }
    }
    seen
}

/// A small deterministic generator (tests need no statistical quality).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The start after `n` random search moves.
fn scrambled(p: &Puzzle, rng: &mut Lcg, n: usize) -> Pattern {
    let moves = p.search_moves();
    (0..n).fold(p.start().clone(), |q, _| {
        let m = &p.moves()[moves[rng.below(moves.len())]];
        p.layout().apply(&q, &m.transformation)
    })
}

/// `pattern` with its pieces shuffled and turned at random within each
/// orbit (every arrangement of the goal's pieces, reachable or not).
fn shuffled(p: &Puzzle, pattern: &Pattern, rng: &mut Lcg) -> Pattern {
    let layout = p.layout();
    let mut orbits = layout.pattern_orbits(pattern);
    for (k, o) in orbits.iter_mut().enumerate() {
        let n = o.pieces.len();
        for i in (1..n).rev() {
            o.pieces.swap(i, rng.below(i + 1));
        }
        let m = layout.orbits()[k].num_orientations();
        for x in &mut o.orientation {
            *x = rng.below(m) as u8;
        }
    }
    layout.pattern(&orbits).unwrap()
}

#[test]
fn verdicts_agree_with_breadth_first_search_where_pieces_are_alike() {
    let p = read_puzzle(LINKED, "linked.tws").unwrap();
    let test = test_of(&p);
    let reached = bfs(&p);
    // No reachable position is ruled out, and some are proven reachable
    // by a labelling of the pieces alike that the group contains (720 of
    // the 4,320 here: the few labellings tried find one where an orbit's
    // parity is what matters, as on the cubes below, not wherever the
    // moves tie orientations to places, as here).
    let proven_reached = (reached.iter())
        .filter(|q| {
            let verdict = decide(&p, &test, q);
            assert_ne!(verdict, Reachability::Unreachable, "{q:?}");
            verdict == Reachability::Reachable
        })
        .count();
    assert!(proven_reached > 0);
    // Arrangements at random: never called reachable when they are not,
    // never ruled out when they are; and the corners (distinct) rule out
    // every arrangement whose corners no reachable position has, so what
    // stays unknown has reachable corners.
    let corners = p.layout().orbit_index("CORNERS").unwrap();
    let corner_parts: HashSet<Vec<u8>> = (reached.iter())
        .map(|q| {
            let b = q.as_bytes();
            [p.layout().perm(b, corners), p.layout().ori(b, corners)].concat()
        })
        .collect();
    let mut rng = Lcg(7);
    let (mut ruled_out, mut proven) = (0, 0);
    for _ in 0..5_000 {
        let q = shuffled(&p, p.start(), &mut rng);
        let b = q.as_bytes();
        let corner_part = [p.layout().perm(b, corners), p.layout().ori(b, corners)].concat();
        match decide(&p, &test, &q) {
            Reachability::Reachable => {
                assert!(reached.contains(&q), "{q:?}");
                proven += 1;
            }
            Reachability::Unreachable => {
                assert!(!reached.contains(&q), "{q:?}");
                ruled_out += 1;
            }
            Reachability::Unknown => {
                assert!(corner_parts.contains(&corner_part), "{q:?}");
            }
        }
    }
    assert!(proven > 0 && ruled_out > 0, "{proven} {ruled_out}");
}

#[test]
fn scrambles_with_pieces_alike_are_proven_reachable_and_a_twisted_corner_is_not() {
    for name in ["4x4x4", "master skewb", "3x3x3"] {
        // As the commands build it: a master skewb's 24 centres in one
        // orbit, in two classes of slots the moves never mix.
        let p = build(name, &PuzzleOptions::for_notation())
            .unwrap()
            .into_puzzle();
        let test = test_of(&p);
        let mut rng = Lcg(11);
        let corners = (0..p.layout().orbits().len())
            .find(|&k| p.layout().orbits()[k].name().starts_with("CORNER"))
            .expect("a corner orbit");
        for _ in 0..10 {
            let q = scrambled(&p, &mut rng, 60);
            assert_eq!(decide(&p, &test, &q), Reachability::Reachable, "{name}");
            // One corner turned in place: no move sequence does that.
            let mut orbits = p.layout().pattern_orbits(&q);
            let o = &mut orbits[corners].orientation[0];
            *o = (*o + 1) % 3;
            let twisted = p.layout().pattern(&orbits).unwrap();
            assert_eq!(
                decide(&p, &test, &twisted),
                Reachability::Unreachable,
                "{name}"
            );
        }
    }
}
