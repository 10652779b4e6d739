//! Whole-puzzle rotations in notation on every named puzzle.
//!
//! With [`PuzzleOptions::notation_rotations`] (how the command line builds
//! a named puzzle to read algs), SiGN's `x y z` work on every cube-shaped
//! puzzle, not only where the puzzle's own axes reach them: the skewb's
//! corner axes make only the twelve rotations of a tetrahedron, so the
//! build adds the cube's face rotations (and the FTO its corner rotations,
//! for `T`). cubing.js 0.63.4 accepts `x y z` on its skewb (and the NxNxN
//! cubes); on the other cube-shaped puzzles it has no notation mapper and
//! rejects them, but accepts `Rv Uv Fv`, which `x y z` mean. On tetrahedral
//! puzzles it rejects `x` and `z` (a quarter turn is no symmetry of a
//! tetrahedron), and so does twistor. The patterns themselves are compared
//! with cubing.js's in `cubingjs_vectors.rs`.

use twistor_core::{Puzzle, Transformation};
use twistor_formats::{alg::Alg, resolve::alg_transformation};
use twistor_geometry::{build, PuzzleOptions};

fn notation_build(name: &str) -> Puzzle {
    build(name, &PuzzleOptions::for_notation())
        .unwrap()
        .into_puzzle()
}

fn alg(p: &Puzzle, text: &str) -> Transformation {
    alg_transformation(p, &text.parse::<Alg>().unwrap())
        .unwrap_or_else(|e| panic!("{}: {text}: {e}", p.name()))
}

fn accepts(p: &Puzzle, text: &str) -> bool {
    alg_transformation(p, &text.parse::<Alg>().unwrap()).is_ok()
}

const CUBE_SHAPED: [&str; 12] = [
    "skewb",
    "master skewb",
    "professor skewb",
    "compy cube",
    "helicopter",
    "curvy copter",
    "dino",
    "little chop",
    "2x2x2 + dino",
    "dino + little chop",
    "3x3x3",
    "4x4x4",
];

#[test]
fn sign_rotations_are_quarter_turns_of_the_cube_on_every_cube_shaped_puzzle() {
    for name in CUBE_SHAPED {
        let p = notation_build(name);
        let l = p.layout();
        for r in ["x", "y", "z"] {
            let t = alg(&p, r);
            assert_eq!(l.order(&t).to_string(), "4", "{name}: order of {r}");
            assert!(l.is_identity(&alg(&p, &format!("{r}4"))), "{name}: {r}4");
            assert_eq!(alg(&p, &format!("{r} {r}'")), l.identity(), "{name}");
        }
        // x follows R, y follows U, z follows F: turning the puzzle by x
        // brings the front to the top, so a turn about the top in between
        // is a turn about the front.
        for (word, is) in [
            ("x y x'", "z"),
            ("y z y'", "x"),
            ("z x z'", "y"),
            ("x' y x", "z'"),
            ("x2 y2", "z2"),
            ("x y", "z x"),
        ] {
            assert_eq!(alg(&p, word), alg(&p, is), "{name}: {word} = {is}");
        }
        assert_ne!(alg(&p, "x"), alg(&p, "x'"), "{name}");
        // Whole-puzzle rotations are never search moves.
        for &i in &p.search_moves() {
            assert!(!p.moves()[i].is_rotation(), "{name}");
        }
    }
}

/// Where the notation has no other use for the names, `x y z` are the
/// face rotations `Rv Uv Fv` (the skewb's notation reads those as its
/// corner rotations, as cubing.js's does).
#[test]
fn sign_rotations_are_the_face_rotations() {
    for name in CUBE_SHAPED.iter().filter(|&&n| n != "skewb") {
        let p = notation_build(name);
        for (sign, face) in [
            ("x", "Rv"),
            ("y", "Uv"),
            ("z", "Fv"),
            ("x'", "Lv"),
            ("y", "Dv'"),
        ] {
            assert_eq!(alg(&p, sign), alg(&p, face), "{name}: {sign} = {face}");
        }
    }
    let skewb = notation_build("skewb");
    for face in ["Rv", "Uv", "Fv"] {
        let t = alg(&skewb, face);
        assert_eq!(skewb.layout().order(&t).to_string(), "3", "skewb {face}");
    }
}

#[test]
fn skewb_rotations_move_corners_and_centres_as_the_cube_turns() {
    let p = notation_build("skewb");
    let l = p.layout();
    let names: Vec<&str> = l.orbits().iter().map(|o| o.name()).collect();
    // The rotations join the two sets of four corners into one orbit, as
    // cubing.js's rotations do.
    assert_eq!(names, ["CORNERS", "CENTERS"]);
    for r in ["x", "y", "z"] {
        let cycles = l.cycles(&alg(&p, r));
        // Two rings of four corners; four centres round the axis, the two
        // on it staying where they are.
        assert_eq!(
            cycles[0].cycles.iter().map(|c| c.0).collect::<Vec<_>>(),
            [4, 4],
            "{r}"
        );
        assert_eq!(
            cycles[1].cycles.iter().map(|c| c.0).collect::<Vec<_>>(),
            [4],
            "{r}"
        );
    }
    // A rotation conjugates a corner turn into another corner turn.
    let t = alg(&p, "x R x'");
    assert_eq!(l.order(&t).to_string(), "3");
    assert_ne!(t, alg(&p, "R"));
    // The search moves are the skewb's own: four corner axes, both halves.
    let search: Vec<&str> = p
        .search_moves()
        .into_iter()
        .map(|i| p.moves()[i].name.as_str())
        .collect();
    assert_eq!(search.len(), 8, "{search:?}");
    let rotations: Vec<&str> = p
        .rotations()
        .into_iter()
        .map(|i| p.moves()[i].name.as_str())
        .collect();
    let mut sorted = rotations.clone();
    sorted.sort();
    assert_eq!(sorted, ["x", "y", "z"]);
    // The skewb's own rotation names keep their corner meaning (cubing.js's
    // skewb `Fv` turns about the UFR corner, a third of a turn).
    for name in ["Fv", "Rv", "Uv", "Lv"] {
        assert_eq!(l.order(&alg(&p, name)).to_string(), "3", "skewb {name}");
    }
    assert_ne!(alg(&p, "Fv"), alg(&p, "z"));
}

/// Without notation rotations (`twistor info`, `convert`) nothing changes:
/// the skewb keeps its two corner orbits and has no rotation moves.
#[test]
fn definitions_without_notation_rotations_are_unchanged() {
    let p = build("skewb", &PuzzleOptions::default())
        .unwrap()
        .into_puzzle();
    let orbits: Vec<(&str, usize)> = p
        .layout()
        .orbits()
        .iter()
        .map(|o| (o.name(), o.num_pieces()))
        .collect();
    assert_eq!(orbits, [("CORNERS", 4), ("CORNERS2", 4), ("CENTERS", 6)]);
    assert!(p.rotations().is_empty());
    assert!(!accepts(&p, "x"));
    // Puzzles whose axes already reach every rotation get no more axes.
    for name in ["3x3x3", "helicopter", "little chop", "pyraminx", "megaminx"] {
        let with = build(
            name,
            &PuzzleOptions {
                notation_rotations: true,
                ..Default::default()
            },
        )
        .unwrap();
        let without = build(name, &PuzzleOptions::default()).unwrap();
        assert_eq!(
            with.geometry().axes().len(),
            without.geometry().axes().len(),
            "{name}"
        );
    }
}

/// The FTO's `T` turns the whole puzzle about a corner: a quarter turn its
/// face axes do not reach.
#[test]
fn fto_t_is_a_corner_quarter_turn() {
    for name in ["FTO", "master FTO"] {
        let p = notation_build(name);
        let l = p.layout();
        if name == "FTO" {
            let t = alg(&p, "T");
            assert_eq!(l.order(&t).to_string(), "4");
            assert!(p.moves()[p.find_move("F").unwrap()].is_search_move());
        }
        // The face rotations stay as they were.
        for r in ["Fv", "Dv", "Lv", "BLv", "Rv", "Uv", "BRv", "Bv"] {
            assert!(accepts(&p, r), "{name}: {r}");
        }
    }
}

/// On tetrahedral puzzles a quarter turn is no rotation of the solid:
/// `x` and `z` are refused (as cubing.js refuses them); `y` is the
/// pyraminx's, and face rotations such as `Rv` work wherever cubing.js
/// takes them (on the pyramorphix, whose edge axes alone make only four
/// rotations).
#[test]
fn tetrahedral_puzzles_take_the_rotations_of_a_tetrahedron() {
    for name in [
        "pyraminx",
        "tetraminx",
        "master pyraminx",
        "pyramorphix",
        "mastermorphix",
        "master pyramorphix",
    ] {
        let p = notation_build(name);
        for r in ["x", "z", "x2"] {
            assert!(!accepts(&p, r), "{name}: {r}");
        }
        let rotations = if name.contains("morphix") {
            ["Rv", "Fv", "Dv", "Lv"]
        } else {
            ["Uv", "Lv", "Rv", "Bv"]
        };
        for r in rotations {
            let t = alg(&p, r);
            assert_eq!(p.layout().order(&t).to_string(), "3", "{name}: {r}");
        }
        if !name.contains("morphix") {
            let t = alg(&p, "y");
            assert_eq!(p.layout().order(&t).to_string(), "3", "{name}: y");
        }
    }
}
