//! Puzzles written for the tests, and a plain breadth-first search to
//! check the engines against.

// Each test binary uses only some of these.
#![allow(dead_code)]

use std::collections::HashMap;

use twistor_core::{Pattern, Puzzle};
use twistor_search::{Metric, MoveSet};

/// The 2x2x2 as a .tws definition (corners URF UFL ULB UBR DFR DLF DBL DRB
/// would do; this numbering is our own), written from the cube's geometry.
pub const CUBE2: &str = "Name Cube2
Set CORNERS 8 3
Solved
CORNERS
1 2 3 4 5 6 7 8
0 0 0 0 0 0 0 0
End
# Slots: 1 UFR 2 URB 3 UBL 4 ULF 5 DRF 6 DFL 7 DLB 8 DBR
MoveTransformation U
CORNERS
1 2 3 0 4 5 6 7
0 0 0 0 0 0 0 0
End
MoveTransformation R
CORNERS
4 0 2 3 7 5 6 1
1 2 0 0 2 0 0 1
End
MoveTransformation F
CORNERS
3 1 2 5 0 4 6 7
2 0 0 1 1 2 0 0
End
MoveTransformation D
CORNERS
0 1 2 3 5 6 7 4
0 0 0 0 0 0 0 0
End
MoveTransformation L
CORNERS
0 1 6 2 4 3 5 7
0 0 1 2 0 1 2 0
End
MoveTransformation B
CORNERS
0 7 1 3 4 5 2 6
0 1 2 0 0 0 1 2
End
";

/// Distances from the start pattern of every position within `max` moves,
/// by plain breadth-first search over packed patterns.
pub fn bfs_distances(puzzle: &Puzzle, moves: &MoveSet, max: u32) -> HashMap<Vec<u8>, u32> {
    bfs_from(puzzle, moves, puzzle.start(), max)
}

/// Distances from `goal` of every pattern within `max` moves, by plain
/// breadth-first search over packed patterns.
pub fn bfs_from(
    puzzle: &Puzzle,
    moves: &MoveSet,
    goal: &Pattern,
    max: u32,
) -> HashMap<Vec<u8>, u32> {
    let layout = puzzle.layout();
    let mut dist = HashMap::new();
    let start = goal.as_bytes().to_vec();
    dist.insert(start.clone(), 0);
    let mut frontier = vec![start];
    let mut buf = vec![0u8; layout.state_len()];
    for d in 1..=max {
        let mut next = Vec::new();
        for s in &frontier {
            for m in moves.moves() {
                layout.compose_into(s, m.transformation.as_bytes(), &mut buf);
                if !dist.contains_key(&buf) {
                    dist.insert(buf.clone(), d);
                    next.push(buf.clone());
                }
            }
        }
        frontier = next;
    }
    dist
}

/// A pattern from packed bytes.
pub fn pattern(puzzle: &Puzzle, bytes: &[u8]) -> Pattern {
    puzzle
        .layout()
        .pattern_from_bytes(bytes.to_vec())
        .expect("a reachable pattern")
}

/// A reference puzzle from `../shared/puzzles/DIR/NAME.tws`.
pub fn shared_puzzle(dir: &str, name: &str) -> Puzzle {
    let path = format!(
        "{}/../../../shared/puzzles/{dir}/{name}.tws",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    twistor_formats::read_puzzle(&text, &path).unwrap()
}

/// The listed moves (`U,F,R`), or every move of the puzzle.
pub fn move_set(p: &Puzzle, moves: Option<&str>, metric: Metric) -> MoveSet {
    match moves {
        Some(list) => {
            let names: Vec<String> = list.split(',').map(String::from).collect();
            MoveSet::named(p, &names, metric).unwrap()
        }
        None => MoveSet::all(p, metric).unwrap(),
    }
}
