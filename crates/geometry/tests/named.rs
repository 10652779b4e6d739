//! The named puzzles against cubing.js's PuzzleGeometry, and classic
//! numbers from the literature.
//!
//! `data/structure_cubingjs.jsonl` records, for all 72 names, with
//! PuzzleGeometry's command-line defaults and with all moves: the orbits,
//! the move names, every move's cycle structure on every orbit, and the
//! order of all moves done once in name order (see
//! `data/gen_structure.mjs`). These checks do not depend on orbit names or
//! piece numbering; `pg_reference.rs` checks those, piece for piece.

use std::collections::BTreeMap;

use serde_json::Value;
use twistor_core::{Puzzle, Transformation};
use twistor_geometry::{build, PieceKind, PuzzleOptions, NAMED_PUZZLES};

const DATA: &str = include_str!("data/structure_cubingjs.jsonl");

/// A move's cycle structure on every orbit it changes, in the recorded format.
fn fingerprint(p: &Puzzle, t: &Transformation) -> String {
    let layout = p.layout();
    let mut parts: Vec<String> = layout
        .cycles(t)
        .iter()
        .zip(layout.orbits())
        .filter(|(c, _)| !c.cycles.is_empty())
        .map(|(c, o)| {
            let cyc: Vec<String> = c.cycles.iter().map(|(l, t)| format!("{l}.{t}")).collect();
            format!(
                "{}/{}:{}",
                o.num_pieces(),
                o.num_orientations(),
                cyc.join(",")
            )
        })
        .collect();
    parts.sort();
    parts.join(";")
}

#[test]
fn every_named_puzzle_has_cubing_js_structure() {
    let mut seen = 0;
    for line in DATA.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let name = v["puzzle"].as_str().unwrap();
        let config = v["config"].as_str().unwrap();
        let options = PuzzleOptions {
            all_moves: config == "all",
            ..Default::default()
        };
        let p = build(name, &options).unwrap().into_puzzle();
        let layout = p.layout();
        let mut want: Vec<(u64, u64)> = v["orbits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| (o[0].as_u64().unwrap(), o[1].as_u64().unwrap()))
            .collect();
        let mut have: Vec<(u64, u64)> = layout
            .orbits()
            .iter()
            .map(|o| (o.num_pieces() as u64, o.num_orientations() as u64))
            .collect();
        want.sort_unstable();
        have.sort_unstable();
        assert_eq!(have, want, "{name} ({config}): orbits");
        let mut expected: BTreeMap<String, String> = BTreeMap::new();
        for group in v["moves"].as_array().unwrap() {
            for m in group[1].as_array().unwrap() {
                expected.insert(
                    m.as_str().unwrap().to_string(),
                    group[0].as_str().unwrap().to_string(),
                );
            }
        }
        let names: Vec<&str> = p.moves().iter().map(|m| m.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            expected.keys().map(String::as_str).collect::<Vec<_>>(),
            "{name} ({config}): move names"
        );
        for m in p.moves() {
            assert_eq!(
                fingerprint(&p, &m.transformation),
                expected[&m.name],
                "{name} ({config}): move {}",
                m.name
            );
        }
        let mut t = layout.identity();
        for n in expected.keys() {
            t = layout.compose(&t, &p.moves()[p.find_move(n).unwrap()].transformation);
        }
        assert_eq!(
            layout.order(&t).to_string(),
            v["product_order"].as_str().unwrap(),
            "{name} ({config}): order of all moves in name order"
        );
        seen += 1;
    }
    assert_eq!(seen, 2 * NAMED_PUZZLES.len());
}

fn order(name: &str, options: PuzzleOptions) -> String {
    let p = build(name, &options).unwrap().into_puzzle();
    p.group_order(&p.search_moves()).to_string()
}

#[test]
fn classic_group_orders() {
    // Rubik's cube, Rubik's cube with oriented centres ("supercube",
    // 4^6 / 2 more), 2x2x2 with a corner held still, skewb with a corner
    // held still, pyraminx turned about its vertices (933,120 positions
    // times 81 for the tips), megaminx.
    assert_eq!(
        order("3x3x3", PuzzleOptions::default()),
        "43252003274489856000"
    );
    assert_eq!(
        order(
            "3x3x3",
            PuzzleOptions {
                orient_centers: true,
                ..Default::default()
            }
        ),
        "88580102706155225088000"
    );
    let fixed_corner = PuzzleOptions {
        fix: Some(PieceKind::Corner),
        ..Default::default()
    };
    assert_eq!(order("2x2x2", fixed_corner.clone()), "3674160");
    assert_eq!(order("skewb", fixed_corner), "3149280");
    assert_eq!(
        order(
            "pyraminx",
            PuzzleOptions {
                vertex_moves: true,
                ..Default::default()
            }
        ),
        "75582720"
    );
    assert_eq!(
        order("megaminx", PuzzleOptions::default()),
        "100669616553523347122516032313645505168688116411019768627200000000000"
    );
}

#[test]
fn fixing_a_piece_keeps_it_still_and_leaves_the_expected_moves() {
    let options = PuzzleOptions {
        fix: Some(PieceKind::Corner),
        ..Default::default()
    };
    let gp = build("2x2x2", &options).unwrap();
    let names: Vec<&str> = gp
        .puzzle()
        .moves()
        .iter()
        .map(|m| m.name.as_str())
        .collect();
    assert_eq!(names, ["F", "U", "R"]);
    let fixed = gp.fixed_piece().unwrap();
    let cubie = &gp.geometry().cubies()[fixed];
    for m in gp.puzzle().moves() {
        let layout = gp.puzzle().layout();
        let j = gp
            .kept_orbits()
            .iter()
            .position(|&o| o == cubie.orbit)
            .unwrap();
        assert_eq!(
            layout.perm(m.transformation.as_bytes(), j)[cubie.index] as usize,
            cubie.index
        );
        assert_eq!(layout.ori(m.transformation.as_bytes(), j)[cubie.index], 0);
    }
    // A slice move would have to split to avoid a fixed centre-less edge.
    assert!(build(
        "4x4x4",
        &PuzzleOptions {
            fix: Some(PieceKind::Center),
            all_moves: true,
            ..Default::default()
        }
    )
    .is_err());
}

#[test]
fn options_select_moves_and_orbits() {
    let names = |name: &str, o: PuzzleOptions| -> Vec<String> {
        build(name, &o)
            .unwrap()
            .puzzle()
            .moves()
            .iter()
            .map(|m| m.name.clone())
            .collect()
    };
    assert_eq!(
        names(
            "4x4x4",
            PuzzleOptions {
                outer_block_moves: true,
                ..Default::default()
            }
        ),
        ["F", "f", "b", "B", "D", "d", "u", "U", "L", "l", "r", "R"]
    );
    let no_edges = build(
        "3x3x3",
        &PuzzleOptions {
            omit_kinds: vec![PieceKind::Edge],
            ..Default::default()
        },
    )
    .unwrap();
    let orbits: Vec<&str> = no_edges
        .puzzle()
        .layout()
        .orbits()
        .iter()
        .map(|o| o.name())
        .collect();
    assert_eq!(orbits, ["CORNERS"]);
    let kept = build(
        "3x3x3",
        &PuzzleOptions {
            keep_still_orbits: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(kept.puzzle().layout().orbits().len(), 3);
    assert!(build(
        "3x3x3",
        &PuzzleOptions {
            omit_orbits: vec!["CORNERS".into(), "EDGES".into()],
            ..Default::default()
        }
    )
    .is_err());
}

#[test]
fn whole_puzzle_rotations_are_added_only_where_needed() {
    let rotations = |name: &str| -> Vec<String> {
        let gp = build(
            name,
            &PuzzleOptions {
                notation_rotations: true,
                ..Default::default()
            },
        )
        .unwrap();
        let p = gp.puzzle();
        p.rotations()
            .iter()
            .map(|&i| p.moves()[i].name.clone())
            .collect()
    };
    assert_eq!(rotations("3x3x3"), ["Fv", "Dv", "Lv"]);
    assert!(rotations("4x4x4").is_empty());
    // Rotations are never search moves.
    let gp = build(
        "5x5x5",
        &PuzzleOptions {
            notation_rotations: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(gp.puzzle().search_moves().len(), 12);
}

#[test]
fn definitions_round_trip_through_tws_and_kpuzzle_json() {
    use twistor_formats::{read_puzzle, write_puzzle, PuzzleFormat};
    for name in [
        "4x4x4",
        "megaminx",
        "FTO",
        "pyraminx",
        "Christopher's jewel",
    ] {
        let options = PuzzleOptions {
            notation_rotations: true,
            orient_centers: name == "megaminx",
            ..Default::default()
        };
        let p = build(name, &options).unwrap().into_puzzle();
        for (format, file) in [
            (PuzzleFormat::Tws, "x.tws"),
            (PuzzleFormat::KPuzzleJson, "x.json"),
        ] {
            let text = write_puzzle(&p, format).unwrap();
            let q = read_puzzle(&text, file).unwrap();
            assert_eq!(q.layout(), p.layout(), "{name} {file}");
            assert_eq!(q.start(), p.start(), "{name} {file}");
            assert_eq!(q.moves().len(), p.moves().len(), "{name} {file}");
            for m in p.moves() {
                let i = q.find_move(&m.name).unwrap();
                assert_eq!(
                    q.moves()[i].transformation,
                    m.transformation,
                    "{name} {file} {}",
                    m.name
                );
            }
        }
    }
}

/// A slice move the notation reaches through the rotations it adds keeps
/// its effect on the pieces it turns: on the outer-move 3x3x3, `M`, `E`
/// and `S` cycle four centres, so the centres are in the definition. Where
/// no rotations are added the notation cannot reach them at all.
#[test]
fn slice_moves_through_rotations_keep_the_centres() {
    use twistor_formats::{alg::Alg, resolve::alg_transformation};
    let with = build(
        "3x3x3",
        &PuzzleOptions {
            notation_rotations: true,
            ..Default::default()
        },
    )
    .unwrap();
    let p = with.puzzle();
    let names: Vec<&str> = p.layout().orbits().iter().map(|o| o.name()).collect();
    assert_eq!(names, ["CORNERS", "EDGES", "CENTERS"]);
    for slice in ["M", "E", "S"] {
        let t = alg_transformation(p, &slice.parse::<Alg>().unwrap()).unwrap();
        let cycles = p.layout().cycles(&t);
        assert_eq!(cycles[2].cycles, [(4, 0)], "{slice} on the centres");
        assert!(cycles[0].cycles.is_empty(), "{slice} on the corners");
    }
    // The search moves still leave the centres alone.
    for &i in &p.search_moves() {
        assert!(p.layout().cycles(&p.moves()[i].transformation)[2]
            .cycles
            .is_empty());
    }
    let without = build("3x3x3", &PuzzleOptions::default()).unwrap();
    assert_eq!(without.puzzle().layout().orbits().len(), 2);
    for slice in ["M", "E", "S", "x"] {
        assert!(alg_transformation(without.puzzle(), &slice.parse::<Alg>().unwrap()).is_err());
    }
}
