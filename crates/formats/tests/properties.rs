//! Property tests of the readers, the writers and move notation.
//!
//! - `.tws` → KPuzzle JSON → `.tws` and JSON → `.tws` → JSON keep what a
//!   puzzle does (orbits, start pattern, every named move's
//!   transformation, the search moves, `Illegal` constraints, the group
//!   order `twistor info` prints), for every reference puzzle of
//!   `../shared` (when present) and the support module's definitions; and
//!   the writers' output is a fixed point.
//! - Generated algs (moves with layers and amounts, groupings, commutators,
//!   conjugates, pauses, comments, newlines, Pochmann and clock moves,
//!   Square-1 tuples) print and parse back to themselves, invert twice to
//!   themselves, and expand consistently.
//! - On real puzzles, an inverted alg does the inverse transformation, and
//!   an alg does what its expanded moves do one after another.
//! - Scramble files and KPatterns written and read back give the same
//!   positions.

mod support;

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::Index;
use twistor_core::{IllegalPlacement, Pattern, PatternOrbit, Puzzle, Transformation};
use twistor_formats::alg::{Alg, AlgNode, Move};
use twistor_formats::kpuzzle::{self, JsonStyle};
use twistor_formats::resolve::{alg_transformation, move_transformation};
use twistor_formats::tws::{self, ScrambleBody};
use twistor_formats::{read_puzzle, write_puzzle, ParseErrorKind, PuzzleFormat};

// ---------------------------------------------------------------- puzzles

/// The support module's definitions and the reference puzzles, read once,
/// with the text they were read from.
fn puzzles() -> &'static [(String, String, Puzzle)] {
    static CELL: OnceLock<Vec<(String, String, Puzzle)>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut out: Vec<(String, String)> = vec![
            ("support/Cube3.tws".into(), support::CUBE3_TWS.into()),
            ("support/Gadget.tws".into(), support::GADGET_TWS.into()),
            ("support/Widget.json".into(), support::WIDGET_JSON.into()),
            ("support/Gizmo.json".into(), support::GIZMO_OLD_JSON.into()),
        ];
        for path in support::reference_definitions() {
            out.push((path.display().to_string(), support::read_text(&path)));
        }
        out.into_iter()
            .map(|(name, text)| {
                let p = read_puzzle(&text, &name).unwrap_or_else(|e| panic!("{e}"));
                (name, text, p)
            })
            .collect()
    })
}

fn shared_puzzle(rel: &str) -> Option<Puzzle> {
    let path = support::shared_dir()?.join(rel);
    Some(read_puzzle(&support::read_text(&path), &path.display().to_string()).unwrap())
}

/// The start pattern with each orbit's piece ids renumbered in order with
/// none skipped (as `.tws` writes them), and the `Illegal` constraints with
/// the same ids.
fn dense_start(p: &Puzzle) -> (Vec<PatternOrbit>, Vec<IllegalPlacement>) {
    let mut orbits = p.layout().pattern_orbits(p.start());
    let maps: Vec<Vec<u8>> = orbits
        .iter_mut()
        .map(|o| {
            let mut ids = o.pieces.clone();
            ids.sort_unstable();
            ids.dedup();
            let mut map = vec![u8::MAX; 256];
            for (new, &old) in ids.iter().enumerate() {
                map[old as usize] = new as u8;
            }
            for x in &mut o.pieces {
                *x = map[*x as usize];
            }
            map
        })
        .collect();
    let illegal = p
        .illegal()
        .iter()
        .map(|il| IllegalPlacement {
            pieces: il
                .pieces
                .iter()
                .map(|&x| maps[il.orbit][x as usize])
                .collect(),
            ..il.clone()
        })
        .collect();
    (orbits, illegal)
}

/// Whether two puzzles behave the same: everything but the way moves were
/// defined (a `MoveSequence` becomes a plain move in JSON, and so on) and,
/// unless `exact_ids`, the numbers given to identical pieces.
fn same_behaviour(a: &Puzzle, b: &Puzzle, exact_ids: bool) -> Result<(), String> {
    if a.layout() != b.layout() {
        return Err(format!(
            "orbits {:?} != {:?}",
            a.layout().orbits(),
            b.layout().orbits()
        ));
    }
    if exact_ids && (a.start() != b.start() || a.illegal() != b.illegal()) {
        return Err(format!("start {:?} != {:?}", a.start(), b.start()));
    }
    if dense_start(a) != dense_start(b) {
        return Err(format!(
            "start {:?} != {:?}",
            dense_start(a),
            dense_start(b)
        ));
    }
    if !a.name().contains(char::is_whitespace) && a.name() != b.name() {
        return Err(format!("name {} != {}", a.name(), b.name()));
    }
    let names = |p: &Puzzle, idx: Vec<usize>| {
        let mut v: Vec<String> = idx.iter().map(|&i| p.moves()[i].name.clone()).collect();
        v.sort();
        v
    };
    let all = |p: &Puzzle| names(p, (0..p.moves().len()).collect());
    if all(a) != all(b) {
        return Err(format!("moves {:?} != {:?}", all(a), all(b)));
    }
    if names(a, a.search_moves()) != names(b, b.search_moves()) {
        return Err("search moves differ".into());
    }
    if names(a, a.rotations()) != names(b, b.rotations()) {
        return Err("rotations differ".into());
    }
    for m in a.moves() {
        let other = &b.moves()[b.find_move(&m.name).unwrap()];
        if other.transformation != m.transformation {
            return Err(format!("move {} differs", m.name));
        }
    }
    Ok(())
}

/// Reads written text back; a writer's output must always be readable.
fn reread(text: &str, file: &str) -> Puzzle {
    read_puzzle(text, file).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Whether `.tws` can hold the start pattern: only full orientations and
/// `?` wildcards (moduli 0 and 1).
fn tws_can_hold(p: &Puzzle) -> bool {
    p.layout()
        .pattern_orbits(p.start())
        .iter()
        .all(|o| o.orientation_mod.iter().flatten().all(|&m| m <= 1))
}

/// Group orders are compared where they are quick to compute.
const GROUP_ORDER_POINTS: usize = 100;

#[test]
fn tws_to_json_to_tws_keeps_behaviour() {
    let mut checked = 0;
    for (name, _, p0) in puzzles() {
        if !name.ends_with(".tws") {
            continue;
        }
        let json = write_puzzle(p0, PuzzleFormat::KPuzzleJson).unwrap();
        let p1 = reread(&json, "round.json");
        same_behaviour(p0, &p1, true).unwrap_or_else(|e| panic!("{name} → JSON: {e}"));
        let tws = write_puzzle(&p1, PuzzleFormat::Tws).unwrap();
        let p2 = reread(&tws, "round.tws");
        same_behaviour(p0, &p2, false).unwrap_or_else(|e| panic!("{name} → JSON → tws: {e}"));
        // Written text reads back to text the writer writes again unchanged.
        let again = write_puzzle(&reread(&tws, "again.tws"), PuzzleFormat::Tws).unwrap();
        assert_eq!(tws, again, "{name}: .tws writer is not a fixed point");
        if p0.layout().num_points() <= GROUP_ORDER_POINTS {
            assert_eq!(
                p0.group_order(&p0.search_moves()),
                p2.group_order(&p2.search_moves()),
                "{name}"
            );
        }
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn json_to_tws_to_json_keeps_behaviour() {
    let mut checked = 0;
    for (name, _, p0) in puzzles() {
        if !name.ends_with(".json") {
            continue;
        }
        let json0 = write_puzzle(p0, PuzzleFormat::KPuzzleJson).unwrap();
        let direct = reread(&json0, "direct.json");
        same_behaviour(p0, &direct, true).unwrap_or_else(|e| panic!("{name} → JSON: {e}"));
        let again = write_puzzle(&direct, PuzzleFormat::KPuzzleJson).unwrap();
        assert_eq!(json0, again, "{name}: JSON writer is not a fixed point");
        match write_puzzle(p0, PuzzleFormat::Tws) {
            Ok(tws) => {
                assert!(
                    tws_can_hold(p0),
                    "{name}: .tws written for moduli it cannot hold"
                );
                let p1 = reread(&tws, "round.tws");
                same_behaviour(p0, &p1, false).unwrap_or_else(|e| panic!("{name} → tws: {e}"));
                let json = write_puzzle(&p1, PuzzleFormat::KPuzzleJson).unwrap();
                let p2 = reread(&json, "round.json");
                same_behaviour(p0, &p2, false)
                    .unwrap_or_else(|e| panic!("{name} → tws → JSON: {e}"));
                if p0.layout().num_points() <= GROUP_ORDER_POINTS {
                    assert_eq!(
                        p0.group_order(&p0.search_moves()),
                        p2.group_order(&p2.search_moves()),
                        "{name}"
                    );
                }
            }
            Err(e) => {
                // Only orientation moduli other than wildcards are refused.
                assert!(
                    matches!(e.kind, ParseErrorKind::Unsupported { .. }),
                    "{name}: {e}"
                );
                assert!(!tws_can_hold(p0), "{name}: refused: {e}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 2);
}

#[test]
fn the_support_cube_is_the_3x3x3() {
    let p = read_puzzle(support::CUBE3_TWS, "cube3.tws").unwrap();
    let order = p.group_order(&p.search_moves());
    assert_eq!(order.to_string(), support::CUBE3_ORDER);
    let t = |s: &str| alg_transformation(&p, &Alg::parse(s).unwrap()).unwrap();
    let l = p.layout();
    assert_eq!(l.order(&t("R U R' U'")), 6u32.into());
    assert_eq!(l.order(&t("R U")), 105u32.into());
    assert!(l.is_identity(&t("(R U R' U')6 [R, U]6 (R2 U2)6")));
    if let Some(reference) = shared_puzzle("puzzles/tws/3x3x3.tws") {
        assert_eq!(reference.group_order(&reference.search_moves()), order);
    }
}

// ---------------------------------------------------------------- alg generators

const FAMILIES: &[&str] = &[
    "R", "U", "F", "Rw", "x", "y", "z", "Uv", "DFR", "BL", "r", "M", "ALL", "_x", "UR",
];

fn layers() -> impl Strategy<Value = (Option<u32>, Option<u32>)> {
    prop_oneof![
        4 => Just((None, None)),
        2 => (1u32..=9).prop_map(|i| (None, Some(i))),
        // A range runs from an outer layer to a deeper one (cubing.js
        // refuses `3-2Rw` and `2-2Rw`).
        1 => (1u32..=4, 1u32..=5).prop_map(|(o, d)| (Some(o), Some(o + d))),
        1 => Just((None, Some(u32::MAX))),
    ]
}

/// Any amount notation can write (`i32::MIN` has no positive counterpart).
fn amount() -> impl Strategy<Value = i32> {
    prop_oneof![
        6 => -3i32..=5,
        1 => Just(i32::MAX),
        1 => Just(-i32::MAX),
        2 => -i32::MAX..=i32::MAX,
    ]
}

fn any_move() -> impl Strategy<Value = Move> {
    let family = prop::sample::select(FAMILIES);
    prop_oneof![
        8 => (family.clone(), layers(), amount())
            .prop_map(|(f, (o, i), a)| Move::new(f, a).with_layers(o, i)),
        // Pochmann: R++ and R--.
        1 => (family.clone(), layers(), any::<bool>()).prop_map(|(f, (o, i), neg)| {
            Move::new(format!("{f}_PLUSPLUS_"), if neg { -1 } else { 1 }).with_layers(o, i)
        }),
        // Clock dials: UR4+ and UR2-.
        1 => (family, layers(), 0..=i32::MAX, any::<bool>()).prop_map(|(f, (o, i), a, neg)| {
            Move::new(format!("{f}_PLUS_"), if neg { -a } else { a }).with_layers(o, i)
        }),
        1 => Just(Move::new("_SLASH_", 1)),
    ]
}

/// `(u, d)`, as the parser builds it.
fn tuple(u: i32, d: i32) -> AlgNode {
    AlgNode::Grouping(
        Alg::from_moves([Move::new("U_SQ_", u), Move::new("D_SQ_", d)]),
        1,
    )
}

/// A comment runs to the end of its line, so one is always followed by a
/// newline in a generated alg.
fn end_comments(nodes: Vec<AlgNode>) -> Alg {
    let mut out = Vec::with_capacity(nodes.len());
    let mut open = false;
    for n in nodes {
        if open && n != AlgNode::Newline {
            out.push(AlgNode::Newline);
        }
        open = matches!(n, AlgNode::LineComment(_));
        out.push(n);
    }
    if open {
        out.push(AlgNode::Newline);
    }
    Alg::from_nodes(out)
}

/// Algs over the given leaves, nested up to three deep.
fn algs(leaf: BoxedStrategy<AlgNode>, operand_move: BoxedStrategy<Move>) -> BoxedStrategy<Alg> {
    let flat = prop::collection::vec(leaf.clone(), 0..6).prop_map(end_comments);
    flat.prop_recursive(3, 40, 6, move |inner| {
        // A commutator's or conjugate's sides need a move.
        let operand =
            (operand_move.clone(), inner.clone(), any::<Index>()).prop_map(|(m, a, at)| {
                let mut nodes = a.nodes().to_vec();
                nodes.insert(at.index(nodes.len() + 1), AlgNode::Move(m));
                end_comments(nodes)
            });
        prop::collection::vec(
            prop_oneof![
                4 => leaf.clone(),
                // A commutator's brackets group it: `[R, U]` once is the
                // commutator itself, as cubing.js prints and reads it.
                2 => (inner.clone(), amount()).prop_map(|(a, k)| match a.nodes() {
                    [n @ (AlgNode::Commutator(..) | AlgNode::Conjugate(..))] if k == 1 => n.clone(),
                    _ => AlgNode::Grouping(a, k),
                }),
                1 => (operand.clone(), operand.clone())
                    .prop_map(|(a, b)| AlgNode::Commutator(a, b)),
                1 => (operand.clone(), operand).prop_map(|(a, b)| AlgNode::Conjugate(a, b)),
            ],
            0..6,
        )
        .prop_map(end_comments)
    })
    .boxed()
}

/// Algs using the whole notation.
fn notation_algs() -> BoxedStrategy<Alg> {
    let leaf = prop_oneof![
        10 => any_move().prop_map(AlgNode::Move),
        1 => Just(AlgNode::Pause),
        1 => Just(AlgNode::Newline),
        1 => "[^\n]{0,12}".prop_map(AlgNode::LineComment),
        1 => (-i32::MAX..=i32::MAX, -i32::MAX..=i32::MAX).prop_map(|(u, d)| tuple(u, d)),
    ]
    .boxed();
    algs(leaf, any_move().boxed())
}

fn has_comment(a: &Alg) -> bool {
    a.nodes().iter().any(|n| match n {
        AlgNode::LineComment(_) => true,
        AlgNode::Grouping(x, _) => has_comment(x),
        AlgNode::Commutator(x, y) | AlgNode::Conjugate(x, y) => has_comment(x) || has_comment(y),
        _ => false,
    })
}

fn has_tuple(a: &Alg) -> bool {
    a.nodes().iter().any(|n| match n {
        AlgNode::Grouping(inner, k) => {
            let sq = *k == 1
                && matches!(inner.nodes(), [AlgNode::Move(u), AlgNode::Move(d)]
                    if u.family == "U_SQ_" && d.family == "D_SQ_");
            sq || has_tuple(inner)
        }
        AlgNode::Commutator(x, y) | AlgNode::Conjugate(x, y) => has_tuple(x) || has_tuple(y),
        _ => false,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn generated_algs_print_and_parse_back(alg in notation_algs()) {
        let text = alg.to_string();
        let parsed = Alg::parse(&text).map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(&parsed, &alg, "{:?}", text);
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn inverting_twice_gives_the_alg_back(alg in notation_algs()) {
        let inv = alg.invert();
        prop_assert_eq!(inv.invert(), alg.clone());
        // The inverse is notation too, unless reversing put a line comment
        // before a move of its line (`R // c` inverts to `// c R'`, as in
        // cubing.js).
        // Compared as printed: a grouped commutator inverted to amount 1
        // prints as the bare commutator (`[R, U]'` inverts to `[R, U]`, as
        // in cubing.js), which reads back as one.
        if !has_comment(&alg) {
            let text = inv.to_string();
            let read = Alg::parse(&text).map(|a| a.to_string());
            prop_assert_eq!(read, Ok(text.clone()), "{:?}", text);
        }
        prop_assert_eq!(inv.move_count(), alg.move_count());
    }

    #[test]
    fn expansion_agrees_with_count_and_inverse(alg in notation_algs()) {
        const LIMIT: usize = 3_000;
        let count = alg.move_count();
        match alg.expanded_moves(LIMIT) {
            Ok(moves) => {
                prop_assert_eq!(moves.len() as u128, count);
                // A tuple inverts to (-u, -d), not D_SQ_ then U_SQ_: the same
                // turn, but not the same move list.
                if !has_tuple(&alg) {
                    let inv = alg.invert().expanded_moves(LIMIT).unwrap();
                    let want: Vec<Move> = moves.iter().rev().map(Move::inverse).collect();
                    prop_assert_eq!(inv, want);
                }
            }
            Err(_) => prop_assert!(count > LIMIT as u128),
        }
    }
}

// ---------------------------------------------------------------- algs on real puzzles

/// The moves of `puzzle` as notation: each named move whose name is a
/// single move of amount 1 (`R`, `2R`, `Rw`, `UR_PLUS_`, `U_SQ_`).
fn quanta(puzzle: &Puzzle) -> Vec<Move> {
    puzzle
        .moves()
        .iter()
        .filter_map(|m| match Alg::parse(&m.name).ok()?.nodes() {
            [AlgNode::Move(mv)] if mv.amount == 1 => Some(mv.clone()),
            _ => None,
        })
        .collect()
}

fn puzzle_algs(puzzle: &Puzzle) -> BoxedStrategy<Alg> {
    let q = quanta(puzzle);
    assert!(!q.is_empty());
    let turns: Vec<Move> = q
        .iter()
        .filter(|m| m.family != "_SLASH_")
        .cloned()
        .collect();
    let has_slash = turns.len() < q.len();
    let is_sq1 = ["U_SQ_", "D_SQ_"]
        .iter()
        .all(|f| q.iter().any(|m| m.family == *f));
    let turn = (prop::sample::select(turns), amount())
        .prop_map(|(m, a)| {
            let mut m = m;
            m.amount = a;
            m
        })
        .boxed();
    let mut leaves: Vec<(u32, BoxedStrategy<AlgNode>)> = vec![
        (10, turn.clone().prop_map(AlgNode::Move).boxed()),
        (1, Just(AlgNode::Pause).boxed()),
        (1, Just(AlgNode::Newline).boxed()),
        (1, "[^\n]{0,6}".prop_map(AlgNode::LineComment).boxed()),
    ];
    if has_slash {
        leaves.push((3, Just(AlgNode::Move(Move::new("_SLASH_", 1))).boxed()));
    }
    if is_sq1 {
        leaves.push((
            3,
            (-i32::MAX..=i32::MAX, -i32::MAX..=i32::MAX)
                .prop_map(|(u, d)| tuple(u, d))
                .boxed(),
        ));
    }
    algs(prop::strategy::Union::new_weighted(leaves).boxed(), turn)
}

/// The puzzles algs are evaluated on: the support cube always; the
/// cubing.js 3x3x3 (slices, wide moves, rotations, `2R`), Square-1
/// (tuples, `/`) and clock (dial moves) when `../shared` is there.
fn alg_puzzles() -> &'static [(String, Puzzle)] {
    static CELL: OnceLock<Vec<(String, Puzzle)>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut v = vec![(
            "Cube3".to_string(),
            read_puzzle(support::CUBE3_TWS, "cube3.tws").unwrap(),
        )];
        for rel in [
            "puzzles/kpuzzle/3x3x3.json",
            "puzzles/kpuzzle/square1.json",
            "puzzles/kpuzzle/clock.json",
            "puzzles/tws/megaminx.tws",
        ] {
            if let Some(p) = shared_puzzle(rel) {
                v.push((rel.to_string(), p));
            }
        }
        v
    })
}

fn check_alg_on(puzzle: &Puzzle, alg: &Alg) -> Result<(), TestCaseError> {
    let l = puzzle.layout();
    let text = alg.to_string();
    let t = alg_transformation(puzzle, alg)
        .map_err(|e| TestCaseError::fail(format!("{}: {text:?}: {e}", puzzle.name())))?;
    let inv = alg_transformation(puzzle, &alg.invert()).unwrap();
    prop_assert_eq!(&inv, &l.invert(&t), "{}: {:?}", puzzle.name(), text);
    // Reading the printed alg gives the same transformation.
    let reparsed = alg_transformation(puzzle, &Alg::parse(&text).unwrap()).unwrap();
    prop_assert_eq!(&reparsed, &t);
    // Evaluation by exponentiation agrees with the moves written out.
    if let Ok(moves) = alg.expanded_moves(400) {
        let mut u: Transformation = l.identity();
        for m in &moves {
            u = l.compose(&u, &move_transformation(puzzle, m).unwrap());
        }
        prop_assert_eq!(&u, &t, "{}: {:?}", puzzle.name(), text);
    }
    Ok(())
}

#[test]
fn inverse_algs_do_inverse_transformations_on_real_puzzles() {
    use proptest::test_runner::{Config, TestRunner};
    for (name, p) in alg_puzzles() {
        let mut runner = TestRunner::new(Config {
            cases: 96,
            ..Config::default()
        });
        runner
            .run(&puzzle_algs(p), |alg| check_alg_on(p, &alg))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    assert!(!alg_puzzles().is_empty());
}

// ---------------------------------------------------------------- positions

/// Positions reached by generated algs, written as a scramble file and as
/// KPatterns and read back.
#[test]
fn written_positions_read_back() {
    use proptest::test_runner::{Config, TestRunner};
    let mut targets: Vec<(String, Puzzle)> = vec![
        (
            "Cube3".into(),
            read_puzzle(support::CUBE3_TWS, "cube3.tws").unwrap(),
        ),
        (
            "Gadget".into(),
            read_puzzle(support::GADGET_TWS, "gadget.tws").unwrap(),
        ),
        (
            "Widget".into(),
            read_puzzle(support::WIDGET_JSON, "widget.json").unwrap(),
        ),
    ];
    for rel in [
        "puzzles/kpuzzle/3x3x3.json",
        "puzzles/tws/squareone.tws",
        "puzzles/tws/4x4x4.tws",
    ] {
        if let Some(p) = shared_puzzle(rel) {
            targets.push((rel.into(), p));
        }
    }
    for (name, p) in &targets {
        let mut runner = TestRunner::new(Config {
            cases: 48,
            ..Config::default()
        });
        let words = prop::collection::vec(
            prop::collection::vec((any::<Index>(), -2i64..=2), 0..12),
            1..4,
        );
        runner
            .run(&words, |words| {
                let l = p.layout();
                let positions: Vec<(String, Pattern)> = words
                    .iter()
                    .enumerate()
                    .map(|(k, w)| {
                        let t = w.iter().fold(l.identity(), |t, (i, e)| {
                            let mv = &p.moves()[i.index(p.moves().len())];
                            l.compose(&t, &l.power(&mv.transformation, *e))
                        });
                        (format!("pos{k}"), l.apply(p.start(), &t))
                    })
                    .collect();
                for (_, pos) in &positions {
                    let json = kpuzzle::write_kpattern(p, pos, JsonStyle::Compact);
                    let back = kpuzzle::parse_kpattern(&json, "pos.json", p)
                        .map_err(|e| TestCaseError::fail(format!("{e}\n{json}")))?;
                    prop_assert_eq!(&back, pos);
                    let pretty = kpuzzle::write_kpattern(p, pos, JsonStyle::Pretty);
                    prop_assert_eq!(
                        &kpuzzle::parse_kpattern(&pretty, "pos.json", p).unwrap(),
                        pos
                    );
                }
                if tws_can_hold(p) {
                    let text = tws::write_scrambles(p, &positions).unwrap();
                    let read = tws::parse_scrambles(&text, "pos.scr", p)
                        .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                    prop_assert_eq!(read.len(), positions.len());
                    for (s, (want_name, want)) in read.iter().zip(&positions) {
                        prop_assert_eq!(&s.name, want_name);
                        match &s.body {
                            ScrambleBody::Pattern(got) => prop_assert_eq!(got, want),
                            ScrambleBody::Alg(_) => {
                                prop_assert!(false, "a position read as an alg")
                            }
                        }
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The support scramble files and KPattern read as intended.
#[test]
fn support_scrambles_and_pattern_read() {
    let cube = read_puzzle(support::CUBE3_TWS, "cube3.tws").unwrap();
    let s = tws::parse_scrambles(support::CUBE3_SCRAMBLES, "cube3.scr", &cube).unwrap();
    let names: Vec<&str> = s.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["first", "flipped", "sune"]);
    let l = cube.layout();
    let u = alg_transformation(&cube, &Alg::parse("U").unwrap()).unwrap();
    match &s[0].body {
        ScrambleBody::Pattern(p) => assert_eq!(p, &l.apply(cube.start(), &u)),
        ScrambleBody::Alg(_) => panic!("first is a position"),
    }
    match &s[2].body {
        ScrambleBody::Alg(a) => assert_eq!(a.move_count(), 7 + 6 + 3 + 8),
        ScrambleBody::Pattern(_) => panic!("sune is an alg"),
    }
    let gadget = read_puzzle(support::GADGET_TWS, "gadget.tws").unwrap();
    assert_eq!(
        tws::parse_scrambles(support::GADGET_SCRAMBLES, "g.scr", &gadget)
            .unwrap()
            .len(),
        2
    );
    let widget = read_puzzle(support::WIDGET_JSON, "widget.json").unwrap();
    let p = kpuzzle::parse_kpattern(support::WIDGET_PATTERN, "w.json", &widget).unwrap();
    assert!(widget.layout().has_partial_orientation(&p));
    // Every support alg parses.
    for a in support::ALGS {
        Alg::parse(a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    }
}
