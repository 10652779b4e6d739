//! The named puzzles, piece for piece, against cubing.js's own definitions.
//!
//! `../shared/puzzles/kpuzzle-pg/NAME.json` (next to the repository, not in
//! it) holds the KPuzzle definitions cubing.js 0.63.4's PuzzleGeometry
//! builds for all 72 names with `allMoves`. Each puzzle is built here as
//! `twistor convert NAME --all-moves --to tws` builds it (PuzzleGeometry's
//! own definition, without the rotations `apply` and `convert --to json`
//! add for notation), written as KPuzzle JSON, and compared orbit by
//! orbit, piece by piece, move by move:
//! same orbit names in the same order, same piece numbering and
//! orientations, same moves in the same order.
//!
//! The default pattern too: KPuzzle JSON numbers every piece apart
//! (`PuzzleOptions::distinct_pieces`), as cubing.js's definitions do. By
//! default twistor gives one-sticker pieces on the same face one label
//! (they look alike, and a solved cube is solved whichever of them sits
//! where; PuzzleGeometry's ksolve output does the same); those labels are
//! checked to go by face, in order of first appearance.
//!
//! Without the reference directory the test says so and passes.

use std::path::{Path, PathBuf};

use serde_json::Value;
use twistor_geometry::{build, GeneratedPuzzle, PuzzleOptions, NAMED_PUZZLES};

fn reference_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/puzzles/kpuzzle-pg"
    ))
}

/// The reference file name: spaces become `_`, `+` becomes `plus`, and
/// apostrophes go.
fn file_name(name: &str) -> String {
    format!(
        "{}.json",
        name.replace('+', "plus")
            .replace('\'', "")
            .replace(' ', "_")
    )
}

/// The options `twistor convert NAME --all-moves` builds with: no
/// rotations for notation (those that reach the skewb's `x` join its two
/// corner orbits, as cubing.js's own rotations do).
fn options() -> PuzzleOptions {
    PuzzleOptions {
        all_moves: true,
        distinct_pieces: true,
        ..Default::default()
    }
}

/// For one-sticker orbits where several pieces share a face: the label of
/// each piece in order of first appearance of its face.
fn face_labels(g: &GeneratedPuzzle, orbit: usize) -> Option<Vec<u64>> {
    let geo = g.geometry();
    let od = &geo.orbits()[g.kept_orbits()[orbit]];
    if od.stickers != 1 {
        return None;
    }
    let faces: Vec<usize> = od
        .cubies
        .iter()
        .map(|&c| geo.stickers()[geo.cubies()[c].stickers[0]].face)
        .collect();
    let mut seen: Vec<usize> = Vec::new();
    let labels = faces
        .iter()
        .map(|f| match seen.iter().position(|x| x == f) {
            Some(i) => i as u64,
            None => {
                seen.push(*f);
                (seen.len() - 1) as u64
            }
        })
        .collect();
    (seen.len() < faces.len()).then_some(labels)
}

/// The first difference between twistor's definition and the reference.
fn first_difference(g: &GeneratedPuzzle, have: &Value, want: &Value) -> Option<String> {
    if have["orbits"] != want["orbits"] {
        return Some(format!(
            "orbits: twistor {} / cubing.js {}",
            have["orbits"], want["orbits"]
        ));
    }
    let orbit_names: Vec<&str> = want["orbits"]
        .as_array()?
        .iter()
        .filter_map(|o| o["orbitName"].as_str())
        .collect();
    for (k, name) in orbit_names.iter().enumerate() {
        let (h, w) = (&have["defaultPattern"][name], &want["defaultPattern"][name]);
        if h["orientation"] != w["orientation"] {
            return Some(format!("default pattern of {name}: orientations differ"));
        }
        if h["pieces"] != w["pieces"] {
            return Some(format!(
                "default pattern of {name}: twistor {} / cubing.js {}",
                h["pieces"], w["pieces"]
            ));
        }
        // Without distinct pieces, alike one-sticker pieces share a label
        // by face, in order of first appearance.
        if let Some(labels) = face_labels(g, k) {
            let shared = build(
                g.puzzle().name(),
                &PuzzleOptions {
                    distinct_pieces: false,
                    ..options()
                },
            )
            .ok()?
            .into_puzzle();
            let start = shared.layout().pattern_orbits(shared.start());
            let got: Vec<u64> = start[k].pieces.iter().map(|&x| u64::from(x)).collect();
            if got != labels {
                return Some(format!(
                    "{name}: shared labels {got:?} / by face {labels:?}"
                ));
            }
        }
    }
    let (hm, wm) = (have["moves"].as_object()?, want["moves"].as_object()?);
    let hn: Vec<&String> = hm.keys().collect();
    let wn: Vec<&String> = wm.keys().collect();
    if hn != wn {
        return Some(format!("move names: twistor {hn:?} / cubing.js {wn:?}"));
    }
    for (mv, w) in wm {
        for name in &orbit_names {
            for field in ["permutation", "orientationDelta"] {
                let (a, b) = (&hm[mv][name][field], &w[name][field]);
                if a != b {
                    return Some(format!(
                        "move {mv}, {name} {field}: twistor {a} / cubing.js {b}"
                    ));
                }
            }
        }
    }
    None
}

fn check(name: &str, dir: &Path) -> Result<(), String> {
    let path = dir.join(file_name(name));
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let want: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let g = build(name, &options()).map_err(|e| e.to_string())?;
    let have: Value = serde_json::from_str(&twistor_formats::kpuzzle::write_kpuzzle(g.puzzle()))
        .map_err(|e| e.to_string())?;
    match first_difference(&g, &have, &want) {
        Some(d) => Err(d),
        None => Ok(()),
    }
}

#[test]
fn named_puzzles_are_cubing_js_puzzles_piece_for_piece() {
    let dir = reference_dir();
    if !dir.is_dir() {
        eprintln!(
            "note: {} is absent; the named puzzles were not compared with cubing.js",
            dir.display()
        );
        return;
    }
    // Two threads: the big cubes take a while unoptimised.
    let names: Vec<&str> = NAMED_PUZZLES.iter().map(|(n, _)| *n).collect();
    let run = |part: Vec<&str>| -> Vec<String> {
        part.into_iter()
            .filter_map(|n| check(n, &dir).err().map(|e| format!("{n}: {e}")))
            .collect()
    };
    let failures: Vec<String> = std::thread::scope(|s| {
        let other = s.spawn(|| run(names.iter().copied().skip(1).step_by(2).collect()));
        let mut f = run(names.iter().copied().step_by(2).collect());
        f.extend(other.join().expect("no panic"));
        f
    });
    assert!(
        failures.is_empty(),
        "{} of {} named puzzles differ from cubing.js:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}
