//! Regression tests, each named after the bug it pins down.

mod support;

use twistor_formats::read_puzzle;

/// cubing.js's clock definition gives its `z` rotation orientation deltas
/// of `-1` on a 4-orientation orbit; the reader rejected the file
/// ("expected a whole number from 0 to 255, found -1").
#[test]
fn kpuzzle_negative_orientation_delta_is_read_modulo_the_orientation_count() {
    let json = |delta: &str| {
        format!(
            r#"{{"name": "t", "orbits": [{{"orbitName": "MARKS", "numPieces": 2, "numOrientations": 4}}],
                "defaultPattern": {{"MARKS": {{"pieces": [0, 1], "orientation": [0, 0]}}}},
                "moves": {{"z": {{"MARKS": {{"permutation": [1, 0], "orientationDelta": [1, {delta}]}}}}}}}}"#
        )
    };
    let p = read_puzzle(&json("-1"), "t.json").unwrap();
    let z = &p.moves()[0].transformation;
    assert_eq!(z.as_bytes(), &[1, 0, 1, 3]);
    assert_eq!(p.layout().order(z), 2u32.into());
    // -3 is the same as 1; -4 and below are not turns of a 4-orientation piece.
    let p = read_puzzle(&json("-3"), "t.json").unwrap();
    assert_eq!(p.moves()[0].transformation.as_bytes(), &[1, 0, 1, 1]);
    for bad in ["-4", "4", "-1.5", "\"-1\""] {
        let e = read_puzzle(&json(bad), "t.json").unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("t.json", 3), "{bad}: {e}");
    }
    if let Some(shared) = support::shared_dir() {
        let path = shared.join("puzzles/kpuzzle/clock.json");
        let p = read_puzzle(&support::read_text(&path), "clock.json").unwrap();
        let z = &p.moves()[p.find_move("z").unwrap()].transformation;
        assert_eq!(p.layout().order(z), 4u32.into());
    }
}

/// Move definitions had every comma made a space (twsearch separates moves
/// with commas), so a commutator in a `.tws` `MoveAlias`/`MoveSequence` or a
/// KPuzzle derived move was refused ("unexpected character ']'").
#[test]
fn commutator_in_move_alias_and_derived_move_is_read() {
    use twistor_formats::{alg::Alg, resolve::alg_transformation};
    let cube = read_puzzle(support::CUBE3_TWS, "cube3.tws").unwrap();
    let sexy = alg_transformation(&cube, &Alg::parse("R U R' U'").unwrap()).unwrap();
    let tws = format!(
        "{}\nMoveAlias S [R, U]\nMoveSequence T R,U,[R, U]\n",
        support::CUBE3_TWS
    );
    let p = read_puzzle(&tws, "cube3.tws").unwrap();
    let s = &p.moves()[p.find_move("S").unwrap()].transformation;
    assert_eq!(s, &sexy);
    let t = &p.moves()[p.find_move("T").unwrap()].transformation;
    let want = alg_transformation(&cube, &Alg::parse("R U R U R' U'").unwrap()).unwrap();
    assert_eq!(t, &want);
    // The same through KPuzzle JSON's derivedMoves, and back to .tws.
    let json = twistor_formats::kpuzzle::write_kpuzzle(&p);
    assert!(json.contains("\"[R, U]\""), "{json}");
    let q = read_puzzle(&json, "cube3.json").unwrap();
    assert_eq!(&q.moves()[q.find_move("S").unwrap()].transformation, &sexy);
    let back = twistor_formats::tws::write_tws(&q).unwrap();
    let r = read_puzzle(&back, "back.tws").unwrap();
    assert_eq!(&r.moves()[r.find_move("S").unwrap()].transformation, &sexy);
    // Commas between moves still separate them, and a stray ] does not
    // upset the count.
    let odd = format!("{}\nMoveAlias V R,U]\n", support::CUBE3_TWS);
    let e = read_puzzle(&odd, "odd.tws").unwrap_err();
    assert_eq!(e.line, support::CUBE3_TWS.lines().count() + 2, "{e}");
}

/// Expanding an alg walked every repetition of a grouping even when the
/// grouping holds no moves, so `R (.)2147483647` took minutes (and
/// `twistor 333 solve --alg` with it hung).
#[test]
fn expanding_a_repeated_empty_grouping_does_not_hang() {
    use twistor_formats::alg::Alg;
    let a = Alg::parse("R (.)2147483647 ((// c\n)2147483647 ())2147483647' [(.)2147483647: U]")
        .unwrap();
    assert_eq!(a.move_count(), 2);
    let moves = a.expanded_moves(10).unwrap();
    assert_eq!(Alg::from_moves(moves).to_string(), "R U");
    assert_eq!(a.invert().expand(10).unwrap().to_string(), "U' R'");
}

/// KPuzzle piece ids may skip (cubing.js numbers the 4x4x4's identical
/// centres 0, 4, 8, ...) but `.tws` ids may not, so converting such a
/// definition wrote a `.tws` file the reader refused ("piece ids must run
/// from the first id with none skipped").
#[test]
fn tws_writer_renumbers_start_ids_that_skip() {
    use twistor_formats::{write_puzzle, PuzzleFormat};
    let json = r#"{"name": "Skip", "orbits": [{"orbitName": "C", "numPieces": 6, "numOrientations": 1}],
        "defaultPattern": {"C": {"pieces": [0, 0, 3, 3, 5, 5], "orientation": [0, 0, 0, 0, 0, 0]}},
        "moves": {"M": {"C": {"permutation": [1, 2, 3, 4, 5, 0], "orientationDelta": [0, 0, 0, 0, 0, 0]}}},
        "twistorIllegal": [{"orbit": "C", "slot": 1, "pieces": [3, 5]}]}"#;
    let p = read_puzzle(json, "skip.json").unwrap();
    let tws = write_puzzle(&p, PuzzleFormat::Tws).unwrap();
    assert!(tws.contains("\n1 1 2 2 3 3\n"), "{tws}");
    assert!(tws.contains("Illegal C 2 2 3\n"), "{tws}");
    let q = read_puzzle(&tws, "skip.tws").unwrap_or_else(|e| panic!("{e}\n{tws}"));
    assert_eq!(
        q.layout().pattern_orbits(q.start())[0].pieces,
        [0, 0, 1, 1, 2, 2]
    );
    assert_eq!(q.illegal()[0].pieces, [1, 2]);
    assert_eq!(q.moves()[0].transformation, p.moves()[0].transformation);
    // Ids that do not skip are written as they are.
    let cube = read_puzzle(support::CUBE3_TWS, "cube3.tws").unwrap();
    let again = read_puzzle(&write_puzzle(&cube, PuzzleFormat::Tws).unwrap(), "c.tws").unwrap();
    assert_eq!(again.start(), cube.start());
    if let Some(shared) = support::shared_dir() {
        let path = shared.join("puzzles/kpuzzle/4x4x4.json");
        let p = read_puzzle(&support::read_text(&path), "4x4x4.json").unwrap();
        let tws = write_puzzle(&p, PuzzleFormat::Tws).unwrap();
        read_puzzle(&tws, "4x4x4.tws").unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A Square-1 tuple accepted `-2147483648`, whose negation does not fit an
/// `i32`: inverting `(-2147483648, 0)` gave the tuple itself, which on the
/// Square-1 is not the inverse turn (U_SQ_ has order 12).
#[test]
fn square1_tuple_amounts_are_bounded_like_other_amounts() {
    use twistor_formats::alg::{Alg, AlgErrorKind};
    for s in ["(-2147483648, 0)", "(0, -2147483648)", "(2147483648, 0)"] {
        let e = Alg::parse(s).unwrap_err();
        assert!(matches!(e.kind, AlgErrorKind::BadNumber { .. }), "{s}: {e}");
    }
    let a = Alg::parse("(-2147483647, 2147483647)").unwrap();
    assert_eq!(a.invert().to_string(), "(2147483647, -2147483647)");
    if let Some(shared) = support::shared_dir() {
        use twistor_formats::resolve::alg_transformation;
        let path = shared.join("puzzles/kpuzzle/square1.json");
        let p = read_puzzle(&support::read_text(&path), "square1.json").unwrap();
        let t = alg_transformation(&p, &a).unwrap();
        let inv = alg_transformation(&p, &a.invert()).unwrap();
        assert_eq!(inv, p.layout().invert(&t));
    }
}

/// Internal family names typed as moves printed as notation that does not
/// read back: `_PLUSPLUS_` as `++`, `_PLUS_3` as `3+`, `_SLASH_2` as `/`
/// (found by the fuzz harness's print/parse check).
#[test]
fn internal_move_names_print_as_notation_that_reads_back() {
    use twistor_formats::alg::Alg;
    for (typed, printed) in [
        ("_PLUSPLUS_", "_PLUSPLUS_"),
        ("R _PLUSPLUS_' U", "R _PLUSPLUS_' U"),
        ("_PLUS_3", "_PLUS_3"),
        ("2-3_PLUS_'", "2-3_PLUS_'"),
        ("_SLASH_2 _SLASH_ 2_SLASH_", "_SLASH_2 / 2_SLASH_"),
        (
            "R_PLUSPLUS_' UR_PLUS_4 x_PLUS__PLUS_2'",
            "R-- UR4+ x_PLUS_2-",
        ),
    ] {
        let a = Alg::parse(typed).unwrap();
        assert_eq!(a.to_string(), printed, "{typed}");
        assert_eq!(Alg::parse(printed).unwrap(), a, "{typed}");
    }
}

/// KPuzzle names may be any string; the `.tws` writer wrote names with
/// spaces (or an orbit called `End` or `3x`) as they were, giving files its
/// reader refused or misread (found by the fuzz harness's round-trip
/// check). It now refuses such names, and puzzle names lose control
/// characters as well as spaces.
#[test]
fn tws_writer_refuses_names_tws_cannot_hold() {
    use twistor_formats::{write_puzzle, ParseErrorKind, PuzzleFormat};
    let json = |orbit: &str, mv: &str, name: &str| {
        format!(
            r#"{{"name": "{name}", "orbits": [{{"orbitName": "{orbit}", "numPieces": 2, "numOrientations": 2}}],
                "defaultPattern": {{"{orbit}": {{"pieces": [0, 1], "orientation": [0, 0]}}}},
                "moves": {{"{mv}": {{"{orbit}": {{"permutation": [1, 0], "orientationDelta": [1, 0]}}}}}},
                "derivedMoves": {{"{mv}2x": "."}}}}"#
        )
    };
    for (orbit, mv) in [
        ("E", "R U"),
        ("E", ""),
        ("E", "#R"),
        ("E", "R\\u0001"),
        ("E F", "R"),
        ("End", "R"),
        ("3x", "R"),
        ("-E", "R"),
        ("?", "R"),
    ] {
        let p = read_puzzle(&json(orbit, mv, "P"), "p.json").unwrap_or_else(|e| panic!("{e}"));
        let e = write_puzzle(&p, PuzzleFormat::Tws).unwrap_err();
        assert!(
            matches!(e.kind, ParseErrorKind::Unsupported { .. }),
            "{orbit:?} {mv:?}: {e}"
        );
    }
    // Names that are single words are written, and read back.
    let p = read_puzzle(&json("E-1", "R", "My\\tpuzzle\\u0001"), "p.json").unwrap();
    let tws = write_puzzle(&p, PuzzleFormat::Tws).unwrap();
    let q = read_puzzle(&tws, "p.tws").unwrap_or_else(|e| panic!("{e}\n{tws}"));
    assert_eq!(q.name(), "My_puzzle_");
    assert_eq!(q.moves()[0].transformation, p.moves()[0].transformation);
}

/// A `ScrambleAlg` block's lines were joined into one alg with no line
/// breaks, so a comment at the end of one line swallowed the next line's
/// moves once the alg was printed (found by the fuzz harness).
#[test]
fn scramble_alg_lines_stay_lines() {
    use twistor_formats::alg::Alg;
    use twistor_formats::tws::{parse_scrambles, ScrambleBody};
    let cube = read_puzzle(support::CUBE3_TWS, "cube3.tws").unwrap();
    let text = "ScrambleAlg s\nR U // first line\nF\n\nD2 // last\nEnd\n";
    let s = parse_scrambles(text, "s.scr", &cube).unwrap();
    let ScrambleBody::Alg(a) = &s[0].body else {
        panic!("an alg")
    };
    assert_eq!(a.to_string(), "R U // first line\nF\nD2 // last");
    assert_eq!(Alg::parse(&a.to_string()).unwrap(), *a);
    assert_eq!(a.move_count(), 4);
}

/// A KPuzzle start pattern whose identical pieces differ in being wild
/// (`orientationMod` 1 on some) was written as a `.tws` start state its
/// reader refuses ("identical pieces must all or none have a wildcard");
/// found by the fuzz harness. The writer now says it cannot express it.
#[test]
fn tws_writer_refuses_identical_pieces_partly_wild() {
    use twistor_formats::{write_puzzle, ParseErrorKind, PuzzleFormat};
    let json = |mods: &str| {
        format!(
            r#"{{"name": "W", "orbits": [{{"orbitName": "E", "numPieces": 3, "numOrientations": 2}}],
                "defaultPattern": {{"E": {{"pieces": [0, 1, 1], "orientation": [0, 0, 0], "orientationMod": {mods}}}}},
                "moves": {{"M": {{"E": {{"permutation": [1, 2, 0], "orientationDelta": [1, 0, 1]}}}}}}}}"#
        )
    };
    let p = read_puzzle(&json("[0, 1, 0]"), "w.json").unwrap();
    let e = write_puzzle(&p, PuzzleFormat::Tws).unwrap_err();
    assert!(matches!(e.kind, ParseErrorKind::Unsupported { .. }), "{e}");
    // All or none wild is written, and reads back.
    for mods in ["[0, 1, 1]", "[1, 0, 0]"] {
        let p = read_puzzle(&json(mods), "w.json").unwrap();
        let tws = write_puzzle(&p, PuzzleFormat::Tws).unwrap();
        let q = read_puzzle(&tws, "w.tws").unwrap_or_else(|e| panic!("{e}\n{tws}"));
        assert_eq!(q.start(), p.start(), "{mods}");
    }
}

/// A KPuzzle `twistorIllegal` entry with no pieces was written as an
/// `Illegal` line with no pieces, which the `.tws` reader refuses (found by
/// the fuzz harness's 10-million-input run). It forbids nothing, so the
/// KPuzzle reader drops it and the writer leaves it out (a later run found
/// the count of constraints changing between the formats).
#[test]
fn tws_writer_leaves_out_illegal_with_no_pieces() {
    use twistor_formats::{write_puzzle, PuzzleFormat};
    let json = r#"{"name": "I", "orbits": [{"orbitName": "E", "numPieces": 3, "numOrientations": 1}],
        "defaultPattern": {"E": {"pieces": [0, 1, 2]}},
        "moves": {"M": {"E": {"permutation": [1, 2, 0]}}},
        "twistorIllegal": [{"orbit": "E", "slot": 0, "pieces": []}, {"orbit": "E", "slot": 2, "pieces": [1]}]}"#;
    let p = read_puzzle(json, "i.json").unwrap();
    assert_eq!(p.illegal().len(), 1);
    let tws = write_puzzle(&p, PuzzleFormat::Tws).unwrap();
    let q = read_puzzle(&tws, "i.tws").unwrap_or_else(|e| panic!("{e}\n{tws}"));
    assert_eq!(q.illegal().len(), 1);
    assert_eq!(
        (q.illegal()[0].slot, &q.illegal()[0].pieces[..]),
        (2, &[1u8][..])
    );
}
