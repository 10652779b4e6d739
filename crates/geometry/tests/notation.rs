//! Community notation on generated puzzles, checked against cubing.js.
//!
//! `data/notation_cubingjs.jsonl` records, for 517 random algs in community
//! notation (wide, slice, range and rotation moves, groupings, commutators,
//! conjugates) on sixteen named puzzles (at least fifty each on the 3x3x3,
//! 4x4x4, 5x5x5, megaminx, pyraminx, skewb and FTO), the order and per-orbit cycle
//! structure cubing.js computes on its own definitions (see
//! `data/gen_notation.mjs` for how it was made). Each alg is evaluated here
//! through the ordinary resolver on twistor's definition built with the
//! same options, and every orbit is compared with the cubing.js orbit that
//! has the same pieces and the same behaviour under every base move
//! (orbit names and piece numbering may differ).

use serde_json::Value;
use twistor_core::Puzzle;
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::{build, PuzzleOptions};

const DATA: &str = include_str!("data/notation_cubingjs.jsonl");

fn cycles_json(v: &Value) -> Vec<(usize, usize)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c[0].as_u64().unwrap() as usize,
                c[1].as_u64().unwrap() as usize,
            )
        })
        .collect()
}

fn options(config: &str) -> PuzzleOptions {
    match config {
        "default" => PuzzleOptions {
            keep_still_orbits: true,
            notation_rotations: true,
            ..Default::default()
        },
        "rotations" => PuzzleOptions {
            all_moves: true,
            rotations: true,
            keep_still_orbits: true,
            ..Default::default()
        },
        "twizzle" => PuzzleOptions {
            all_moves: true,
            rotations: true,
            orient_centers: true,
            keep_still_orbits: true,
            ..Default::default()
        },
        other => panic!("unknown config {other}"),
    }
}

/// Orbits that cannot be told apart by their size, orientations and
/// cycles under every base move: cubing.js's names and twistor's indices.
/// Mirror-image orbits (the two oblique centre orbits of a 6x6x6) share a
/// class; their cycles are compared as a multiset.
/// The flag marks one twistor orbit standing for several cubing.js orbits.
type OrbitClass = (Vec<String>, Vec<usize>, bool);

/// cubing.js's orbit names in a class and the twistor orbits matching it.
type Matched = (Vec<String>, Vec<usize>);

fn match_orbits(puzzle: &Puzzle, orbits: &serde_json::Map<String, Value>) -> Vec<OrbitClass> {
    let layout = puzzle.layout();
    let mut classes: Vec<(Value, Matched)> = Vec::new();
    for (name, o) in orbits {
        let key = serde_json::json!([o["pieces"], o["orientations"], o["signature"]]);
        match classes.iter_mut().find(|(k, _)| *k == key) {
            Some((_, c)) => c.0.push(name.clone()),
            None => classes.push((key, (vec![name.clone()], Vec::new()))),
        }
    }
    for (key, class) in &mut classes {
        let sig: Vec<(String, Vec<(usize, usize)>)> = key[2]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e[0].as_str().unwrap().to_string(), cycles_json(&e[1])))
            .collect();
        class.1 = (0..layout.orbits().len())
            .filter(|&j| {
                let orbit = &layout.orbits()[j];
                orbit.num_pieces() as u64 == key[0].as_u64().unwrap()
                    && orbit.num_orientations() as u64 == key[1].as_u64().unwrap()
                    && sig.iter().all(|(mv, want)| {
                        let i = puzzle
                            .find_move(mv)
                            .unwrap_or_else(|| panic!("{}: no move {mv}", puzzle.name()));
                        &layout.cycles(&puzzle.moves()[i].transformation)[j].cycles == want
                    })
            })
            .collect();
    }
    // Where the turns about the puzzle's own axes do not reach every
    // rotation of the solid, twistor's notation rotations (the skewb's `x`)
    // join orbits cubing.js's build without rotations keeps apart (the
    // skewb's two sets of four corners): such a twistor orbit stands for
    // several cubing.js orbits, and its cycles under every base move are
    // theirs together.
    let unmatched: Vec<usize> = (0..classes.len())
        .filter(|&c| classes[c].1 .1.is_empty())
        .collect();
    let claimed: Vec<usize> = classes.iter().flat_map(|(_, c)| c.1.clone()).collect();
    let mut merged: Vec<OrbitClass> = Vec::new();
    let mut used = vec![false; classes.len()];
    for j in (0..layout.orbits().len()).filter(|j| !claimed.contains(j)) {
        let orbit = &layout.orbits()[j];
        let fits = |c: usize| {
            let key = &classes[c].0;
            !used[c] && key[1].as_u64().unwrap() == orbit.num_orientations() as u64
        };
        let candidates: Vec<usize> = unmatched.iter().copied().filter(|&c| fits(c)).collect();
        let found = (1u32..1 << candidates.len()).find_map(|bits| {
            let set: Vec<usize> = (0..candidates.len())
                .filter(|i| bits >> i & 1 == 1)
                .map(|i| candidates[i])
                .collect();
            let pieces: u64 = set
                .iter()
                .map(|&c| classes[c].0[0].as_u64().unwrap() * classes[c].1 .0.len() as u64)
                .sum();
            if pieces != orbit.num_pieces() as u64 {
                return None;
            }
            let moves = classes[set[0]].0[2].as_array().unwrap();
            let same = moves.iter().enumerate().all(|(m, e)| {
                let i = puzzle.find_move(e[0].as_str().unwrap()).unwrap();
                let mut want: Vec<(usize, usize)> = set
                    .iter()
                    .flat_map(|&c| {
                        let n = classes[c].1 .0.len();
                        let mut v = Vec::new();
                        for _ in 0..n {
                            v.extend(cycles_json(&classes[c].0[2][m][1]));
                        }
                        v
                    })
                    .collect();
                want.sort();
                layout.cycles(&puzzle.moves()[i].transformation)[j].cycles == want
            });
            same.then_some(set)
        });
        if let Some(set) = found {
            let names = set
                .iter()
                .flat_map(|&c| {
                    used[c] = true;
                    classes[c].1 .0.clone()
                })
                .collect();
            merged.push((names, vec![j], true));
        }
    }
    for (c, (_, class)) in classes.iter().enumerate() {
        assert!(
            class.0.len() == class.1.len() || (class.1.is_empty() && used[c]),
            "{}: cubing.js orbits {:?} match twistor's {:?}",
            puzzle.name(),
            class.0,
            class.1
        );
    }
    classes
        .into_iter()
        .map(|(_, c)| (c.0, c.1, false))
        .filter(|c| !c.1.is_empty())
        .chain(merged)
        .collect()
}

/// Checks an alg's cycles class by class.
fn compare(ours: &[twistor_core::OrbitCycles], theirs: &Value, classes: &[OrbitClass], what: &str) {
    for (names, indices, merged) in classes {
        let mut a: Vec<Vec<(usize, usize)>> =
            indices.iter().map(|&j| ours[j].cycles.clone()).collect();
        let mut b: Vec<Vec<(usize, usize)>> =
            names.iter().map(|n| cycles_json(&theirs[n])).collect();
        if *merged {
            let mut all: Vec<(usize, usize)> = b.concat();
            all.sort();
            b = vec![all];
        }
        a.sort();
        b.sort();
        assert_eq!(a, b, "{what}: orbits {names:?}");
    }
}

/// The puzzle being checked: name, config, definition, matched orbits.
type Current = (String, String, Puzzle, Vec<OrbitClass>);

#[test]
fn random_algs_match_cubing_js() {
    let mut current: Option<Current> = None;
    let mut checked = 0;
    let mut puzzles = std::collections::BTreeSet::new();
    let mut per_puzzle: std::collections::BTreeMap<String, usize> = Default::default();
    for line in DATA.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        let name = v["puzzle"].as_str().unwrap().to_string();
        let config = v["config"].as_str().unwrap().to_string();
        if v["kind"] == "puzzle" {
            let gp = build(&name, &options(&config)).unwrap();
            let puzzle = gp.into_puzzle();
            let matched = match_orbits(&puzzle, v["orbits"].as_object().unwrap());
            current = Some((name, config, puzzle, matched));
            continue;
        }
        let (cur_name, cur_config, puzzle, matched) = current.as_ref().unwrap();
        assert_eq!((cur_name, cur_config), (&name, &config));
        let text = v["alg"].as_str().unwrap();
        let alg: Alg = text.parse().unwrap();
        let t = alg_transformation(puzzle, &alg)
            .unwrap_or_else(|e| panic!("{name} ({config}): {text}: {e}"));
        let layout = puzzle.layout();
        assert_eq!(
            layout.order(&t).to_string(),
            v["order"].as_str().unwrap(),
            "{name} ({config}): order of {text}"
        );
        compare(
            &layout.cycles(&t),
            &v["cycles"],
            matched,
            &format!("{name} ({config}): {text}"),
        );
        checked += 1;
        *per_puzzle.entry(name.clone()).or_default() += 1;
        puzzles.insert((name, config));
    }
    // The puzzles notation was asked for get at least 50 algs each.
    for name in [
        "3x3x3", "4x4x4", "5x5x5", "megaminx", "pyraminx", "skewb", "FTO",
    ] {
        assert!(per_puzzle[name] >= 50, "{name}");
    }
    assert_eq!(checked, 517);
    assert_eq!(puzzles.len(), 37);
}

/// The named puzzles as `twistor apply` loads them (only the orbits the
/// moves touch, counting the rotations added for notation) give the same
/// answers on the orbits they keep.
#[test]
fn default_definitions_agree_on_the_orbits_they_keep() {
    let mut current: Option<(Puzzle, Vec<OrbitClass>)> = None;
    let mut checked = 0;
    for line in DATA.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["config"] != "default" {
            continue;
        }
        let name = v["puzzle"].as_str().unwrap();
        if v["kind"] == "puzzle" {
            let gp = build(name, &PuzzleOptions::for_notation()).unwrap();
            let puzzle = gp.into_puzzle();
            // Only the cubing.js orbits this definition keeps: those a base
            // move turns, and with rotations added for notation, all (the
            // rotations about several axes move every piece).
            let rotates = !puzzle.rotations().is_empty();
            let kept: serde_json::Map<String, Value> = v["orbits"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, o)| {
                    let moved = o["signature"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|e| !e[1].as_array().unwrap().is_empty());
                    // (An orbit may be part of a larger one of twistor's,
                    // joined by rotations; see `match_orbits`.)
                    (moved || rotates)
                        && puzzle.layout().orbits().iter().any(|x| {
                            x.num_pieces() as u64 >= o["pieces"].as_u64().unwrap()
                                && x.num_orientations() as u64
                                    == o["orientations"].as_u64().unwrap()
                        })
                })
                .map(|(k, o)| (k.clone(), o.clone()))
                .collect();
            let matched = match_orbits(&puzzle, &kept);
            let tracked: usize = matched.iter().map(|c| c.1.len()).sum();
            assert_eq!(tracked, puzzle.layout().orbits().len(), "{name}");
            current = Some((puzzle, matched));
            continue;
        }
        let (puzzle, matched) = current.as_ref().unwrap();
        let text = v["alg"].as_str().unwrap();
        let t = alg_transformation(puzzle, &text.parse::<Alg>().unwrap()).unwrap();
        compare(
            &puzzle.layout().cycles(&t),
            &v["cycles"],
            matched,
            &format!("{name}: {text}"),
        );
        checked += 1;
    }
    assert_eq!(checked, 282);
}

/// The names whose community meaning differs from the definition's, as
/// cubing.js's own mappings imply.
#[test]
fn conflicting_names_are_known() {
    let conflicts = |name: &str, options: PuzzleOptions| {
        let mut c = build(name, &options).unwrap().notation_conflicts();
        c.sort();
        c
    };
    assert_eq!(conflicts("pyraminx", options("default")), ["L", "R"]);
    assert_eq!(conflicts("tetraminx", options("default")), ["L", "R"]);
    assert_eq!(
        conflicts("skewb", options("rotations")),
        ["Dv", "Fv", "Lv", "ULv"]
    );
    assert_eq!(conflicts("megaminx", options("rotations")), ["FLv", "FRv"]);
    for name in ["3x3x3", "5x5x5", "megaminx", "FTO", "skewb"] {
        assert!(conflicts(name, options("default")).is_empty(), "{name}");
    }
    for name in ["3x3x3", "5x5x5", "FTO"] {
        assert!(conflicts(name, options("rotations")).is_empty(), "{name}");
    }
}
