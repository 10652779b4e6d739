//! Puzzles written for the tests, and a plain breadth-first search to
//! check the engines against.

// Each test binary uses only some of these.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use twistor_core::{Pattern, Puzzle};
use twistor_formats::read_puzzle;
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::{Metric, MoveSet};

/// The 2x2x2 as a .tws definition (corners URF UFL ULB UBR DFR DLF DBL DRB
/// would do; this numbering is our own), written from the cube's geometry.
pub const CUBE2: &str = include_str!("cube2.tws");

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

/// The packed state after the moves `seq` (indices into `moves`) from
/// `from`.
pub fn after_moves(puzzle: &Puzzle, moves: &MoveSet, from: &[u8], seq: &[usize]) -> Vec<u8> {
    let layout = puzzle.layout();
    let mut state = from.to_vec();
    let mut buf = state.clone();
    for &m in seq {
        layout.compose_into(&state, moves.moves()[m].transformation.as_bytes(), &mut buf);
        std::mem::swap(&mut state, &mut buf);
    }
    state
}

/// A pattern from packed bytes.
pub fn pattern(puzzle: &Puzzle, bytes: &[u8]) -> Pattern {
    puzzle
        .layout()
        .pattern_from_bytes(bytes.to_vec())
        .expect("a reachable pattern")
}

/// The 2x2x2 of [`CUBE2`].
pub fn cube2() -> Puzzle {
    read_puzzle(CUBE2, "cube2.tws").unwrap()
}

/// [`CUBE2`] with only the up/down colour showing: the four up corners
/// are alike, and so are the four down ones (orientations still count).
/// C(8,4) · 3^7 = 153,090 positions with every face turning.
pub fn two_colour_cube2() -> Puzzle {
    let solved = "Solved\nCORNERS\n1 2 3 4 5 6 7 8\n";
    assert!(CUBE2.contains(solved));
    let text = CUBE2
        .replace(solved, "Solved\nCORNERS\n1 1 1 1 2 2 2 2\n")
        .replace("Name Cube2", "Name TwoColourCube2");
    let p = read_puzzle(&text, "two-colour-cube2.tws").unwrap();
    assert!(p.layout().has_identical_pieces(p.start()));
    p
}

/// The LoopOver 3x3: nine tiles in a 3x3 grid (slots numbered row by
/// row) on a torus; a move shifts a row right (`R1` .. `R3`) or a column
/// down (`C1` .. `C3`) by one place, the end tile coming round to the
/// other end. Every move is a 3-cycle, so the 9!/2 = 181,440 even
/// permutations are the positions.
pub const LOOPOVER3: &str = include_str!("loopover3.tws");

/// The puzzle of [`LOOPOVER3`].
pub fn loopover3() -> Puzzle {
    read_puzzle(LOOPOVER3, "loopover3.tws").unwrap()
}

/// A puzzle the geometry crate builds from its name (`pyraminx`,
/// `skewb diamond`), with the default options.
pub fn geometry(name: &str) -> Puzzle {
    build(name, &PuzzleOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .into_puzzle()
}

/// [`geometry`] with the whole-puzzle rotations as well.
pub fn geometry_with_rotations(name: &str) -> Puzzle {
    let options = PuzzleOptions {
        rotations: true,
        ..PuzzleOptions::default()
    };
    build(name, &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .into_puzzle()
}

/// `../shared` beside the checkout, if it is there (reference data the
/// project does not make; checks against it are skipped without it).
pub fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    dir.is_dir().then_some(dir)
}

/// A reference puzzle from `../shared/puzzles/DIR/NAME.tws`, if
/// `../shared` is there; a note on stderr if not.
pub fn shared_puzzle(dir: &str, name: &str) -> Option<Puzzle> {
    let Some(shared) = shared_dir() else {
        eprintln!("../shared is absent: the check against {dir}/{name}.tws is skipped");
        return None;
    };
    let path = shared.join(format!("puzzles/{dir}/{name}.tws"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(read_puzzle(&text, &path.to_string_lossy()).unwrap())
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
