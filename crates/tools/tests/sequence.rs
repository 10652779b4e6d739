//! The sequence utilities on expected outputs, and canonical forms checked
//! against the canonical-sequence automaton and against transformations.

use twistor_core::Puzzle;
use twistor_formats::alg::Alg;
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::canonical::FORBIDDEN;
use twistor_search::{CanonicalFsm, Metric, MoveSet};
use twistor_tools::rng::SeededRng;
use twistor_tools::sequence::{
    amounts_reduced, cancel, canonicalize, describe_transformation, expand, moves_to_alg, unrotate,
    MoveTable, PositionFilter, MOVE_LIMIT,
};

fn cube(name: &str) -> Puzzle {
    build(name, &PuzzleOptions::for_notation())
        .unwrap()
        .into_puzzle()
}

fn run(
    p: &Puzzle,
    f: fn(
        &mut MoveTable,
        &[twistor_formats::alg::Move],
    ) -> Result<Vec<twistor_formats::alg::Move>, twistor_tools::ToolError>,
    alg: &str,
) -> String {
    let mut t = MoveTable::new(p);
    let moves = expand(&alg.parse::<Alg>().unwrap(), MOVE_LIMIT).unwrap();
    moves_to_alg(&f(&mut t, &moves).unwrap()).to_string()
}

fn same_transformation(p: &Puzzle, a: &str, b: &str) -> bool {
    let mut t = MoveTable::new(p);
    let ma = expand(&a.parse::<Alg>().unwrap(), MOVE_LIMIT).unwrap();
    let mb = expand(&b.parse::<Alg>().unwrap(), MOVE_LIMIT).unwrap();
    t.sequence_transformation(&ma).unwrap() == t.sequence_transformation(&mb).unwrap()
}

#[test]
fn cancel_merges_adjacent_moves() {
    let p = cube("3x3x3");
    for (input, want) in [
        ("R U U' R2", "R'"),
        ("R R R R", ""),
        ("R3", "R'"),
        ("(R U)2 U'", "R U R"),
        ("R L R'", "R L R'"),
        ("[R, U]", "R U R' U'"),
        ("x x'", ""),
    ] {
        assert_eq!(run(&p, cancel, input), want, "{input}");
    }
    // Megaminx amounts run to R2' (order 5).
    let m = cube("megaminx");
    assert_eq!(run(&m, cancel, "R2 R"), "R2'");
    assert_eq!(run(&m, cancel, "R++ R--"), "");
    assert_eq!(run(&m, cancel, "R++ R++"), "R++ R++");
    // Wide moves are grips of their own.
    let c4 = cube("4x4x4");
    assert_eq!(run(&c4, cancel, "Rw Rw 2R"), "Rw2 2R");
}

#[test]
fn canonicalize_merges_across_commuting_moves_and_orders_them() {
    let p = cube("3x3x3");
    for (input, want) in [
        ("U D U", "D U2"),
        ("R L R' F", "L F"),
        ("D U", "D U"),
        ("U D", "D U"),
        ("U D F U' D'", "D U F D' U'"),
    ] {
        assert_eq!(run(&p, canonicalize, input), want, "{input}");
    }
}

/// Random sequences: the canonical form does the same, is accepted by the
/// automaton, and commuting rearrangements give the same form.
#[test]
fn canonical_forms_are_canonical_sequences() {
    for name in ["3x3x3", "megaminx"] {
        let p = cube(name);
        let set = MoveSet::all(&p, Metric::Htm).unwrap();
        let fsm = CanonicalFsm::new(&set).unwrap();
        let names: Vec<String> = set.moves().iter().map(|m| m.name.clone()).collect();
        let mut rng = SeededRng::new(3);
        for _ in 0..200 {
            let len = 1 + rng.below(12);
            let alg: Vec<&str> = (0..len)
                .map(|_| names[rng.below(names.len())].as_str())
                .collect();
            let alg = alg.join(" ");
            let out = run(&p, canonicalize, &alg);
            assert!(same_transformation(&p, &alg, &out), "{alg} -> {out}");
            // Walk the automaton with the result's moves.
            let mut state = CanonicalFsm::START;
            for w in out.split_whitespace() {
                let m = names
                    .iter()
                    .position(|n| n == w)
                    .unwrap_or_else(|| panic!("{w} not a search move"));
                state = fsm.next(state, m);
                assert_ne!(state, FORBIDDEN, "{alg} -> {out} is not canonical");
            }
            // Idempotent.
            assert_eq!(run(&p, canonicalize, &out), out);
            // Swapping adjacent moves that commute changes nothing.
            let mut words: Vec<String> = alg.split_whitespace().map(String::from).collect();
            for _ in 0..words.len() {
                let k = rng.below(words.len());
                if k + 1 < words.len() {
                    let (a, b) = (words[k].clone(), words[k + 1].clone());
                    if same_transformation(&p, &format!("{a} {b}"), &format!("{b} {a}")) {
                        words.swap(k, k + 1);
                    }
                }
            }
            assert_eq!(run(&p, canonicalize, &words.join(" ")), out, "{alg}");
        }
    }
}

#[test]
fn unrotate_pushes_rotations_to_the_end() {
    let p = cube("3x3x3");
    for (input, want) in [
        ("x U x'", "F"),
        ("y R U", "B U y"),
        ("R U", "R U"),
        ("x y U x'", "F x y x'"),
    ] {
        let out = run(&p, unrotate, input);
        assert_eq!(out, want, "{input}");
        assert!(same_transformation(&p, input, &out), "{input}");
    }
    let c4 = cube("4x4x4");
    let out = run(&c4, unrotate, "x Rw U");
    assert_eq!(out, "Rw F x");
    assert!(same_transformation(&c4, "x Rw U", &out));
}

#[test]
fn positions_are_told_apart_with_and_without_symmetry() {
    let p = cube("3x3x3");
    let mut table = MoveTable::new(&p);
    let mut t = |s: &str| {
        let m = expand(&s.parse::<Alg>().unwrap(), MOVE_LIMIT).unwrap();
        table.sequence_transformation(&m).unwrap()
    };
    let (ru, ru2, ur, r, u, f) = (t("R U"), t("(R U)"), t("U R"), t("R"), t("U"), t("F"));
    let mut plain = PositionFilter::new(&p);
    assert!(plain.insert(&ru));
    assert!(!plain.insert(&ru2));
    assert!(plain.insert(&ur));
    let mut sym = PositionFilter::with_symmetry(&p).unwrap();
    assert_eq!(sym.symmetry_count(), 24);
    assert!(sym.insert(&r));
    assert!(!sym.insert(&u));
    assert!(!sym.insert(&f));
    assert!(sym.insert(&ru));
}

#[test]
fn describe_lists_cycles_and_twists() {
    let p = cube("3x3x3");
    let l = p.layout();
    let u = &p.moves()[p.find_move("U").unwrap()].transformation;
    let effects = describe_transformation(l, u);
    assert_eq!(effects.len(), 2);
    for e in &effects {
        assert_eq!(e.cycles.len(), 1);
        assert_eq!(e.cycles[0].len(), 4);
        assert!(e.twists.is_empty());
    }
    let r = &p.moves()[p.find_move("R").unwrap()].transformation;
    let corners = &describe_transformation(l, r)[0];
    assert_eq!(corners.twists.len(), 4);
    // Following the cycle four times returns each piece: the cycle is R's.
    let p4 = l.power(r, 4);
    assert!(l.is_identity(&p4));
}

#[test]
fn inverted_half_turns_are_written_plainly() {
    use twistor_formats::resolve::alg_transformation;
    let cube333 = cube("3x3x3");
    let inverted = "R U2 F' D2 (R U2)2".parse::<Alg>().unwrap().invert();
    // cubing.js's inverse keeps the sign of a half turn.
    assert_eq!(inverted.to_string(), "(R U2)2' D2' F U2' R'");
    let plain = amounts_reduced(&cube333, &inverted);
    assert_eq!(plain.to_string(), "(R U2)2' D2 F U2 R'");
    assert_eq!(
        alg_transformation(&cube333, &plain).unwrap(),
        alg_transformation(&cube333, &inverted).unwrap()
    );
    // A five-fold turn's double stays signed: U2' is not U2 there.
    let minx = cube("megaminx");
    let alg: Alg = "U2' R3".parse().unwrap();
    assert_eq!(amounts_reduced(&minx, &alg).to_string(), "U2' R2'");
}
