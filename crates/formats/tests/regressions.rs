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
