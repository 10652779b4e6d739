//! Test support shared by the formats tests, the fuzz harness
//! (`examples/fuzz/main.rs`) and the core benchmarks: small puzzle definitions
//! written for twistor's tests, and where to find the reference puzzles of
//! `../shared` when the checkout has them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The 3x3x3 with its six face turns, in ksolve's `Move` convention
/// (1-based passive permutations, orientation given per piece). Corners are
/// numbered URF UFL ULB UBR DFR DLF DBL DRB and edges UR UF UL UB DR DF DL DB
/// FR FL BL BR; orientation 1 of a corner is a clockwise twist.
pub const CUBE3_TWS: &str = include_str!("cube3.tws");

/// The order of the 3x3x3's group.
pub const CUBE3_ORDER: &str = "43252003274489856000";

/// A small made-up puzzle that uses every part of the `.tws` format:
/// identical pieces, orientation wildcards, a one-orientation orbit,
/// `Move` and `MoveTransformation` blocks, move sequences and aliases
/// (one defined before what it refers to), `Illegal` and comments.
pub const GADGET_TWS: &str = include_str!("gadget.tws");

/// A made-up KPuzzle definition with orientation moduli in its default
/// pattern and derived moves.
pub const WIDGET_JSON: &str = r#"{
  "name": "Widget",
  "orbits": [
    {"orbitName": "CORNERS", "numPieces": 4, "numOrientations": 3},
    {"orbitName": "CENTERS", "numPieces": 3, "numOrientations": 4}
  ],
  "defaultPattern": {
    "CORNERS": {"pieces": [0, 1, 2, 3], "orientation": [0, 0, 0, 0]},
    "CENTERS": {"pieces": [0, 1, 2], "orientation": [1, 0, 0], "orientationMod": [2, 0, 1]}
  },
  "moves": {
    "R": {
      "CORNERS": {"permutation": [1, 2, 0, 3], "orientationDelta": [1, 2, 0, 0]},
      "CENTERS": {"permutation": [0, 2, 1], "orientationDelta": [0, 1, 3]}
    },
    "U": {"CORNERS": {"permutation": [0, 3, 1, 2], "orientationDelta": [0, 0, 0, 0]}}
  },
  "derivedMoves": {"Rw": "R U", "x": "[R: U]", "Uv": "(R U)2'", "M": "Rw x'"}
}
"#;

/// The same kind of definition in cubing.js's older layout (orbits as an
/// object, `startStateData`, `orientation` in moves), with twistor's
/// `twistorIllegal` extension.
pub const GIZMO_OLD_JSON: &str = r#"{
  "name": "Gizmo",
  "orbits": {"EDGES": {"numPieces": 3, "numOrientations": 2}},
  "startStateData": {"EDGES": {"pieces": [0, 0, 1], "orientation": [0, 0, 0]}},
  "moves": {
    "F": {"EDGES": {"permutation": [2, 0, 1], "orientation": [1, 0, 1]}},
    "F2": {"EDGES": {"permutation": [1, 2, 0], "orientation": [0, 1, 1]}}
  },
  "twistorIllegal": [{"orbit": "EDGES", "slot": 0, "pieces": [1]}]
}
"#;

/// A scramble file for [`CUBE3_TWS`]: a position and an alg.
pub const CUBE3_SCRAMBLES: &str = include_str!("cube3.scr");

/// A scramble file for [`GADGET_TWS`], with wildcards where its start
/// state has them.
pub const GADGET_SCRAMBLES: &str = include_str!("gadget.scr");

/// A KPattern for [`WIDGET_JSON`].
pub const WIDGET_PATTERN: &str = r#"{
  "CORNERS": {"pieces": [1, 0, 3, 2], "orientation": [0, 1, 2, 0]},
  "CENTERS": {"pieces": [2, 0, 1], "orientation": [1, 3, 0], "orientationMod": [2, 0, 1]}
}"#;

/// Algs that exercise the whole notation.
pub const ALGS: &[&str] = &[
    "R U R' U'",
    "R U2' F2 D' L3 B0",
    "2R 2-3Rw' r x y2 z' Uv 3Uw2 DFR BL'",
    "(R U)3 (R U)2' [R, U] [F: [R, U]] [R, U]2 [F: R]'",
    "R++ D-- 2R++ UR4+ DL2- ALL0+ U6-",
    "(3, 0) / (-1, 2) / (0,-3)/",
    "R . U\nF // a comment\nB . .",
    "[[R: U], [F, (D L)2]] ((R U)2 (F B)3')4",
    "(R U)2147483647 R2147483647'",
];

/// `../shared` beside the checkout, if it is there.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    dir.join("puzzles").is_dir().then_some(dir)
}

/// The reference definitions of `../shared` (`puzzles/tws`,
/// `puzzles/tws-symm` and `puzzles/kpuzzle`), sorted; empty without it.
pub fn reference_definitions() -> Vec<PathBuf> {
    let Some(shared) = shared_dir() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in ["puzzles/tws", "puzzles/tws-symm", "puzzles/kpuzzle"] {
        let Ok(entries) = std::fs::read_dir(shared.join(sub)) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("tws") | Some("json")
            ) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Reads a file as the command-line program does (invalid UTF-8 replaced).
pub fn read_text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes).into_owned()
}
