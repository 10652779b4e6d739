//! twistor's own definitions of cubing.js's hand-written puzzles: compared
//! with cubing.js's definitions when `../shared` holds them, and checked
//! against facts about the puzzles everywhere.

use std::path::PathBuf;

use twistor_core::BigUint;
use twistor_core::{MoveKind, Puzzle, Transformation};
use twistor_formats::alg::Alg;
use twistor_formats::kpuzzle::parse_kpuzzle;
use twistor_formats::resolve::alg_transformation;
use twistor_tools::handmade::{definition, ids};

const SHARED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/puzzles/kpuzzle"
);

fn puzzle(id: &str) -> Puzzle {
    definition(id).unwrap_or_else(|| panic!("no definition for {id}"))
}

fn alg(p: &Puzzle, text: &str) -> Transformation {
    let parsed: Alg = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    alg_transformation(p, &parsed).unwrap_or_else(|e| panic!("{}: {text}: {e}", p.name()))
}

fn mv<'a>(p: &'a Puzzle, name: &str) -> &'a Transformation {
    let i = p
        .find_move(name)
        .unwrap_or_else(|| panic!("{}: no move {name}", p.name()));
    &p.moves()[i].transformation
}

fn order(p: &Puzzle, name: &str) -> BigUint {
    p.layout().order(mv(p, name))
}

/// The group order of the named moves.
fn group_order(p: &Puzzle, names: &[&str]) -> BigUint {
    let indices: Vec<usize> = names
        .iter()
        .map(|n| p.find_move(n).unwrap_or_else(|| panic!("no move {n}")))
        .collect();
    p.group_order(&indices)
}

fn factorial(n: u32) -> BigUint {
    (1..=n).map(BigUint::from).product()
}

/// An alg followed by its inverse does nothing, and the inverse alg is the
/// inverse transformation.
fn round_trip(p: &Puzzle, text: &str) {
    let parsed: Alg = text.parse().unwrap();
    let t = alg_transformation(p, &parsed).unwrap();
    let inv = alg_transformation(p, &parsed.invert()).unwrap();
    let l = p.layout();
    assert!(l.is_identity(&l.compose(&t, &inv)), "{}: {text}", p.name());
    assert_eq!(inv, l.invert(&t), "{}: {text}", p.name());
}

// ------------------------------------------------------------ against cubing.js

/// cubing.js's definition of `id`, or `None` (with a note) without `../shared`.
fn reference(id: &str) -> Option<Puzzle> {
    let path = PathBuf::from(SHARED).join(format!("{id}.json"));
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(parse_kpuzzle(&text, &path.display().to_string()).unwrap()),
        Err(_) => {
            eprintln!(
                "note: {} is not there; {id} is not compared with cubing.js",
                path.display()
            );
            None
        }
    }
}

fn kind(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Base => "base",
        _ => "derived",
    }
}

#[test]
fn definitions_match_cubing_js() {
    for id in ids() {
        let ours = puzzle(id);
        let Some(theirs) = reference(id) else {
            continue;
        };
        let (lo, lt) = (ours.layout(), theirs.layout());
        let shape = |l: &twistor_core::Layout| -> Vec<(String, usize, usize)> {
            l.orbits()
                .iter()
                .map(|o| (o.name().to_string(), o.num_pieces(), o.num_orientations()))
                .collect()
        };
        assert_eq!(shape(lo), shape(lt), "{id}: orbits");
        assert_eq!(ours.start(), theirs.start(), "{id}: start");
        let names = |p: &Puzzle| -> Vec<(String, &'static str)> {
            let mut v: Vec<_> = p
                .moves()
                .iter()
                .map(|m| (m.name.clone(), kind(m.kind)))
                .collect();
            v.sort();
            v
        };
        assert_eq!(names(&ours), names(&theirs), "{id}: move names");
        for m in theirs.moves() {
            assert_eq!(
                mv(&ours, &m.name),
                &m.transformation,
                "{id}: move {}",
                m.name
            );
        }
        // The redi cube's seven other corner turns, derived moves in
        // cubing.js, are search moves here: solve turns every corner.
        let turns_derived_there = if id == "redi_cube" { 7 } else { 0 };
        assert_eq!(
            ours.search_moves().len(),
            theirs.search_moves().len() + turns_derived_there,
            "{id}: search moves"
        );
    }
}

// ------------------------------------------------------------ the clock

#[test]
fn clock_has_twelve_to_the_fourteen_positions() {
    let clock = puzzle("clock");
    // Every dial move, front and back: 14 independent dials (the four
    // corners are one gear each side), 12 hours each.
    let dial_moves: Vec<&str> = clock
        .moves()
        .iter()
        .filter(|m| m.name.ends_with("_PLUS_"))
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(dial_moves.len(), 35);
    let positions = BigUint::from(12u32).pow(14);
    assert_eq!(positions, BigUint::from(1_283_918_464_548_864u64));
    assert_eq!(group_order(&clock, &dial_moves), positions);
    // The rotations add the clock's eight orientations in space.
    let mut with_rotations = dial_moves.clone();
    with_rotations.extend(["y2", "z"]);
    assert_eq!(group_order(&clock, &with_rotations), positions * 8u32);
}

#[test]
fn clock_moves_have_their_orders() {
    let clock = puzzle("clock");
    for m in clock.moves() {
        let expected: u32 = match m.name.as_str() {
            "y2" | "x2" => 2,
            "z" => 4,
            "UL" | "UR" | "DL" | "DR" => 1,
            _ => 12,
        };
        assert_eq!(
            clock.layout().order(&m.transformation),
            expected.into(),
            "{}",
            m.name
        );
    }
}

#[test]
fn clock_notation_reads_as_dial_turns() {
    let clock = puzzle("clock");
    let l = clock.layout();
    // `UR3+` is three hours of UR, `DL2-` two back.
    assert_eq!(alg(&clock, "UR3+"), l.power(mv(&clock, "UR_PLUS_"), 3));
    assert_eq!(alg(&clock, "DL2-"), l.power(mv(&clock, "DL_PLUS_"), -2));
    assert_eq!(alg(&clock, "ALL6+ ALL6+"), l.identity());
    // Turning the clock over twice, or a quarter four times, is nothing.
    assert_eq!(alg(&clock, "y2 y2"), l.identity());
    assert_eq!(alg(&clock, "z z z z"), l.identity());
    // The pins written at the end of a scramble do nothing.
    assert_eq!(alg(&clock, "UR DL"), l.identity());
    // A front corner turn is a back corner turn the other way: the gear
    // the two sides share.
    let start = clock.start();
    let turned = l.apply(start, &alg(&clock, "UL1+"));
    let dials = &l.pattern_orbits(&turned)[0];
    assert_eq!(dials.orientation[0], 1);
    assert_eq!(dials.orientation[11], 11);
    for text in [
        "UR4+ DR3- DL1+ UL5- U2+ R6+ D2- L1+ ALL3- y2 U4+ R1- D5+ L0+ ALL2+ UR DL",
        "ULw2+ BR3- MUL1+ BMDR4- x2 z B5+ F1-",
    ] {
        round_trip(&clock, text);
    }
}

// ------------------------------------------------------------ Square-1

#[test]
fn square1_turns_and_slashes() {
    let sq1 = puzzle("square1");
    let l = sq1.layout();
    assert_eq!(order(&sq1, "U_SQ_"), 12u32.into());
    assert_eq!(order(&sq1, "D_SQ_"), 12u32.into());
    assert_eq!(order(&sq1, "_SLASH_"), 2u32.into());
    assert_eq!(alg(&sq1, "(6, 0) (6, 0)"), l.identity());
    assert_eq!(alg(&sq1, "/ /"), l.identity());
    assert_eq!(alg(&sq1, "(1, -1)"), alg(&sq1, "(13, 11)"));
    // A position worked out on the puzzle: cubing.js agrees.
    let p = l.apply(sq1.start(), &alg(&sq1, "(1, 0) / (-3, 3) /"));
    let orbits = l.pattern_orbits(&p);
    assert_eq!(
        orbits[0].pieces,
        [2, 3, 4, 12, 13, 14, 21, 22, 23, 5, 6, 7, 15, 16, 17, 11, 0, 1, 8, 9, 10, 18, 19, 20]
    );
    assert_eq!(orbits[1].orientation, [0, 0]);
    for text in [
        "(1, 0) / (-1, 2) / (3, 0) / (-2, -5) / (6, 6) /",
        "(0, -1) / / (4, 4) (1, 1)",
    ] {
        round_trip(&sq1, text);
    }
}

#[test]
fn square1_model_moves_wedges_freely() {
    // Without bandaging, the turns and the slash reach every arrangement
    // of the 24 wedges (the ring turns are odd, so all of them), and the
    // slash's half turn of the equator is independent of it.
    let sq1 = puzzle("square1");
    assert_eq!(
        group_order(&sq1, &["U_SQ_", "D_SQ_", "_SLASH_"]),
        factorial(24) * 2u32
    );
}

// ------------------------------------------------------------ Redi Cube

#[test]
fn redi_cube_has_its_published_position_count() {
    let redi = puzzle("redi_cube");
    // 3^7 · 12!/2 = 523,788,249,600: seven corners turned, the eighth
    // (here DLB, turned by B) held as the reference.
    let count = BigUint::from(3u32).pow(7) * factorial(12) / 2u32;
    assert_eq!(count, BigUint::from(523_788_249_600u64));
    assert_eq!(
        group_order(&redi, &["F", "UR", "U", "UL", "D", "L", "R"]),
        count
    );
}

#[test]
fn redi_cube_moves_are_corner_turns() {
    let redi = puzzle("redi_cube");
    let l = redi.layout();
    for m in ["F", "UR", "U", "UL", "D", "L", "R", "B"] {
        assert_eq!(order(&redi, m), 3u32.into(), "{m}");
        // Each turns one corner in place and cycles three edges.
        let cycles = &l.cycles(mv(&redi, m));
        assert_eq!(cycles[0].cycles, [(3, 0)], "{m} edges");
        assert_eq!(cycles[1].cycles, [(1, 1)], "{m} corners");
    }
    for m in ["x", "y", "z"] {
        assert_eq!(order(&redi, m), 4u32.into(), "{m}");
    }
    // Opposite corners: B is F's corner turn seen from the other end of
    // the axis, so F and a rotation about that axis commute with B.
    assert_eq!(alg(&redi, "[F, B]"), l.identity());
    for text in ["F UR' U UL' D L' R B'", "[F, UR] [x: U'] y z'"] {
        round_trip(&redi, text);
    }
}

// ------------------------------------------------------------ Loopover

#[test]
fn loopover_reaches_the_even_arrangements() {
    let lo = puzzle("loopover");
    // Every slide is a 5-cycle, so only even arrangements: 25!/2.
    let names: Vec<&str> = ["U", "2U", "3U", "4U", "5U", "R", "2R", "3R", "4R", "5R"].to_vec();
    assert_eq!(group_order(&lo, &names), factorial(25) / 2u32);
    for m in lo.moves() {
        assert_eq!(
            lo.layout().order(&m.transformation),
            5u32.into(),
            "{}",
            m.name
        );
    }
    let l = lo.layout();
    // The rows slide together: the whole grid shifts.
    assert_eq!(alg(&lo, "U 2U 3U 4U 5U D'"), alg(&lo, "2U 3U 4U 5U D' U"));
    assert_eq!(alg(&lo, "M"), alg(&lo, "3R'"));
    assert_eq!(alg(&lo, "E"), alg(&lo, "3U'"));
    assert_eq!(alg(&lo, "L R"), alg(&lo, "R L"));
    assert_eq!(alg(&lo, "U5"), l.identity());
    let p = l.apply(lo.start(), &alg(&lo, "U"));
    assert_eq!(l.pattern_orbits(&p)[0].pieces[..5], [1, 2, 3, 4, 0]);
    round_trip(&lo, "U R' 2U 3R2 [M, E] 5D L'");
}

// ------------------------------------------------------------ TriQuad

#[test]
fn tri_quad_turns_a_quarter_and_a_third() {
    let tq = puzzle("tri_quad");
    let l = tq.layout();
    assert_eq!(order(&tq, "U"), 4u32.into());
    assert_eq!(order(&tq, "R"), 3u32.into());
    assert_ne!(alg(&tq, "U R"), alg(&tq, "R U"));
    // The pieces on the axes only turn in place: U takes a quarter off
    // CORNER_U, R adds two thirds to CORNER_R.
    let p = l.apply(tq.start(), &alg(&tq, "U R U R' U R"));
    let orbits = l.pattern_orbits(&p);
    assert_eq!(orbits[1].orientation, [4 - 3]);
    assert_eq!(orbits[2].orientation, [(2 + 1 + 2) % 3]);
    round_trip(&tq, "U R U' R2 U2 R' [U, R] [R: U]");
}

// ------------------------------------------------------------ scrambles

#[test]
fn wca_scrambles_read_on_the_models() {
    use twistor_tools::scramble::{Event, ScrambleOptions, Scrambler};
    for (event, id) in [(Event::Clock, "clock"), (Event::Square1, "square1")] {
        let p = puzzle(id);
        let mut s = Scrambler::new(event, 7, &ScrambleOptions::default(), &mut |_| {}).unwrap();
        for _ in 0..20 {
            let scramble = s.next_scramble().alg;
            round_trip(&p, &scramble);
            assert!(!p.layout().is_identity(&alg(&p, &scramble)), "{scramble}");
        }
    }
}

// ------------------------------------------------------------ as JSON

/// Algs that reach a few positions on each puzzle.
fn sample_algs(id: &str) -> &'static [&'static str] {
    match id {
        "clock" => &["UR3+ DL2- y2 ALL5+ z BMUL1+", "x2 ULw4- B1+ UL"],
        "square1" => &["(1, 0) / (-3, 3) / (2, -1) /", "/ (6, 6) /"],
        "redi_cube" => &["F UR' B L x y' R D'", "[U, D'] z"],
        "loopover" => &["U 2R' 3D E M 5L2", "4U 2L'"],
        "tri_quad" => &["U R U' R' U2 R", "R2 U"],
        _ => &[],
    }
}

#[test]
fn kpuzzle_json_round_trips_and_patterns_mean_the_same_in_cubing_js() {
    use twistor_formats::kpuzzle::{parse_kpattern, write_kpattern, write_kpuzzle, JsonStyle};
    for id in ids() {
        let ours = puzzle(id);
        // Written as a KPuzzle and read back: the same definition.
        let again = parse_kpuzzle(&write_kpuzzle(&ours), id).unwrap();
        for m in ours.moves() {
            assert_eq!(mv(&again, &m.name), &m.transformation, "{id}: {}", m.name);
        }
        let theirs = reference(id);
        assert!(!sample_algs(id).is_empty(), "{id}");
        for text in sample_algs(id) {
            let p = ours.layout().apply(ours.start(), &alg(&ours, text));
            let json = write_kpattern(&ours, &p, JsonStyle::Compact);
            assert_eq!(parse_kpattern(&json, id, &ours).unwrap(), p, "{id}: {text}");
            if let Some(theirs) = &theirs {
                let q = theirs.layout().apply(theirs.start(), &alg(theirs, text));
                assert_eq!(
                    parse_kpattern(&json, id, theirs).unwrap(),
                    q,
                    "{id}: {text}"
                );
            }
        }
    }
}
