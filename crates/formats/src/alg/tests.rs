//! The alg reader's and writer's own cases; cubing.js's are in
//! `tests/alg_syntax.rs`.

use super::*;

#[test]
fn a_square1_tuple_is_one_step() {
    let alg = Alg::parse("(1,0) / (-3, 3) (/ (2,-1))' R U2").unwrap();
    let steps: Vec<String> = alg
        .steps(100)
        .unwrap()
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(steps, ["(1, 0)", "/", "(-3, 3)", "(-2, 1)", "/", "R", "U2"]);
    // The steps do what the moves do: the same moves, grouped (an
    // inverted tuple's two turns, which commute, in the tuple's order).
    let count: usize = (alg.steps(100).unwrap().iter())
        .map(|s| s.expanded_moves(10).unwrap().len())
        .sum();
    assert_eq!(count, alg.expanded_moves(100).unwrap().len());
}

#[test]
fn an_inverted_line_comment_keeps_its_line_to_itself() {
    let alg = Alg::parse("R U // c\nF D").unwrap();
    let inverted = alg.invert();
    // cubing.js: the comment, then a newline, then the moves after it.
    assert_eq!(inverted.to_string(), "D' F'\n// c\nU' R'");
    // Read back, the same moves: none swallowed by the comment.
    let read = Alg::parse(&inverted.to_string()).unwrap();
    assert_eq!(
        read.expanded_moves(100).unwrap(),
        inverted.expanded_moves(100).unwrap()
    );
}

fn round_trip(s: &str) -> String {
    Alg::parse(s)
        .unwrap_or_else(|e| panic!("{s:?}: {e}"))
        .to_string()
}

#[test]
fn prints_what_it_parses() {
    for s in [
        "R U R' U'",
        "U2 U2' U5 R0",
        "2R 2-3Rw r x y2 z' Uv",
        "(R U)3 (R U)2' [R, U] [F: [R, U]] [R, U]2",
        "R++ D-- UR4+ DL2- ALL0+",
        "(3, 0) / (-1, 2) /",
        "R . U\nF // a comment\nB",
        "_SLASH_ R_PLUS_3",
    ] {
        let printed = round_trip(s);
        assert_eq!(round_trip(&printed), printed, "{s}");
    }
    assert_eq!(round_trip("R  U  F"), "R U F");
    assert_eq!(round_trip("[R, U]1"), "[R, U]");
    assert_eq!(round_trip("[R,]"), "[R, ]");
}

#[test]
fn rejects_what_cubing_js_rejects() {
    for s in [
        "R,",
        "::",
        "[, ]",
        "R\tU",
        "R\r\nU",
        "(R U)-2",
        "(R U",
        "R U)",
        "R2''",
        "[R: U",
        "[R U]",
        "R U]",
        "RU'U",
        "R9999999999",
        "(R U)9999999999",
        "R U R' U' %",
        "U05",
        "3",
        "R2++",
        "UR-",
        "R'+",
        "0R",
    ] {
        assert!(Alg::parse(s).is_err(), "{s:?} parsed");
    }
}

#[test]
fn errors_point_at_the_column() {
    let e = Alg::parse("R U R' U' %").unwrap_err();
    assert_eq!(e.column, 11);
    let e = Alg::parse("R U(R)").unwrap_err();
    assert_eq!((e.column, e.kind), (4, AlgErrorKind::MissingSpace('(')));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let s = "(".repeat(100_000);
    assert_eq!(Alg::parse(&s).unwrap_err().kind, AlgErrorKind::TooDeep);
}

#[test]
fn expansion_matches_definitions() {
    let e = |s: &str| Alg::parse(s).unwrap().expand(1000).unwrap().to_string();
    assert_eq!(e("[R, U]"), "R U R' U'");
    assert_eq!(e("[R: U]"), "R U R'");
    assert_eq!(e("(R U)2'"), "U' R' U' R'");
    assert_eq!(e("[R, U]'"), "U R U' R'");
    assert_eq!(e("[R: U]2"), "R U R' R U R'");
    assert!(Alg::parse("(R U)1000")
        .unwrap()
        .expanded_moves(100)
        .is_err());
}

#[test]
fn count_does_not_expand() {
    let a = Alg::parse("((R U)1000000)1000000").unwrap();
    assert_eq!(a.move_count(), 2_000_000_000_000);
}

#[test]
fn reversed_and_empty_ranges_are_refused() {
    for text in ["3-2Rw", "2-2Rw", "1-1R"] {
        let e = Alg::parse(text).unwrap_err();
        assert_eq!(e.column, text.find('-').unwrap() + 2, "{text}: {e}");
    }
    assert!(Alg::parse("1-2R").is_ok());
}

#[test]
fn layers_and_families() {
    let a = Alg::parse("2-3Rw'").unwrap();
    let AlgNode::Move(m) = &a.nodes()[0] else {
        unreachable!()
    };
    assert_eq!(
        (m.outer_layer, m.inner_layer, m.family.as_str(), m.amount),
        (Some(2), Some(3), "Rw", -1)
    );
    assert_eq!(m.quantum(), "2-3Rw");
}
