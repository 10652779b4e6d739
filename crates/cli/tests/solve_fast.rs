//! `solve --fast` answers every puzzle, `solve` says at once when an
//! optimal search is out of reach, and a stage file is followed: run
//! through the binary as a person types it, every answer played back with
//! `apply`.

use std::path::PathBuf;

mod common;
use common::run;

fn ok(args: &[&str], stdin: &str) -> (String, String) {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "{args:?} exited {code}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (out, err)
}

/// The pattern `alg` reaches, as `apply --json` prints it.
fn pattern(puzzle: &str, alg: &str) -> String {
    ok(&["apply", puzzle, alg, "--json"], "").0
}

/// Solves `scramble` with `solve --fast` and plays the answer back.
fn fast(puzzle: &str, scramble: &str, extra: &[&str]) -> (String, String) {
    let mut args = vec!["solve", puzzle, "--fast", "--alg", scramble, "--no-write"];
    args.extend_from_slice(extra);
    let (out, err) = ok(&args, "");
    let answer = out.trim().to_string();
    assert_eq!(
        pattern(puzzle, &format!("{scramble} {answer}")),
        pattern(puzzle, ""),
        "{puzzle}: {answer} does not undo {scramble}"
    );
    (answer, err)
}

#[test]
fn every_kind_of_engine_answers_fast() {
    // (puzzle, scramble, the engine that should answer)
    for (puzzle, scramble, engine) in [
        ("2x2x2", "R U F' R2 U F U'", "optimal"),
        ("3x3x3", "R U F' L2 D B' R2 U' F D2 B L", "two-phase"),
        (
            "4x4x4",
            "Rw U2 Fw' R2 Uw D' L2 Fw U R' Bw2 D Lw",
            "444-reduction",
        ),
        (
            "square1",
            "(1,0) / (3,-3) / (-1,2) / (0,3) / (4,1) /",
            "square1-two-phase",
        ),
        ("clock", "UR3+ DL2- U4+ R1- ALL5+ y2 U2+ R3- ALL1+", "clock"),
        ("megaminx", "R++ D-- R-- D++ U F' R2 BL", "staged"),
        ("5x5x5", "Rw U2 3Fw' r2 B Dw L2 f", "staged"),
        ("FTO", "R U' F BR L' D B' BL R'", "staged"),
        // Corner turns beside F: derived moves in cubing.js's definition.
        ("redi_cube", "F UR' B L R D' U UL", "staged"),
    ] {
        let (answer, err) = fast(puzzle, scramble, &[]);
        let named = if engine == "optimal" {
            err.contains("solving with optimal IDA*")
        } else {
            err.contains(&format!("({engine}"))
        };
        assert!(named, "{puzzle}: expected {engine}: {err}");
        assert!(!answer.is_empty(), "{puzzle}");
    }
}

#[test]
fn big_cube_answers_are_written_with_wide_turns() {
    // The searches turn single layers; a cuber writes `R 2R` as `Rw`.
    let (answer, _) = fast("4x4x4", "Rw U Fw'", &[]);
    assert_eq!(answer.split_whitespace().count(), 3, "{answer}");
    assert!(answer.contains("Rw'") && answer.contains("Fw"), "{answer}");
    for (puzzle, scramble) in [
        ("4x4x4", "Rw U2 Fw' R2 Uw D' L2 Fw U R' Bw2 D Lw"),
        ("5x5x5", "Rw U2 3Fw' r2 B Dw L2 f"),
    ] {
        let (answer, _) = fast(puzzle, scramble, &[]);
        let words: Vec<&str> = answer.split_whitespace().collect();
        for pair in words.windows(2) {
            let (a, b) = (
                pair[0].trim_start_matches('2'),
                pair[1].trim_start_matches('2'),
            );
            let layered = pair[0].starts_with('2') != pair[1].starts_with('2');
            assert!(!(layered && a == b), "{puzzle}: {answer} has {pair:?}");
        }
    }
}

#[test]
fn a_whole_puzzle_rotation_is_answered_up_to_it() {
    // R++ and D++ turn the whole megaminx but one face: the position is
    // reachable only held differently.
    let (answer, err) = fast("megaminx", "R++ D++ R-- D-- U", &[]);
    assert!(err.contains("held differently"), "{err}");
    assert!(!answer.is_empty());
    // The 5x5x5's middle slice is no search move (its centres are the
    // reference): a position with one turned is decided by those slots,
    // and answered from the rotation that puts them back.
    let (answer, err) = fast("5x5x5", "Rw U Fw' 3Rw", &[]);
    assert!(err.contains("held differently"), "{err}");
    assert!(answer.starts_with("x"), "{answer}");
}

#[test]
fn an_out_of_reach_optimal_search_says_so_at_once() {
    let scramble = "Rw U2 Fw' R2 Uw D' L2 Fw U R' Bw2 D Lw B2 Uw' R Fw2 L' U Rw2 D2 Fw R2 B";
    let t0 = std::time::Instant::now();
    let (code, out, err) = run(&["solve", "4x4x4", "--alg", scramble, "--no-write"], "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("out of reach") && err.contains("--fast"),
        "{err}"
    );
    assert!(out.contains("--fast"), "{out}");
    // Decided from the estimate and a probe of a million nodes, not by
    // searching to --max-depth (the bound is generous for a slow machine).
    assert!(t0.elapsed().as_secs_f64() < 30.0);
    // A shallow position of the same puzzle is still answered optimally
    // (four single-layer turns, written as cubers write them).
    let (out, err) = ok(&["solve", "4x4x4", "--alg", "R U Rw", "--no-write"], "");
    assert_eq!(out.trim(), "Rw' U' R'", "{err}");
    assert!(err.contains("length 4"), "{err}");
}

#[test]
fn a_stage_file_is_followed_and_a_bad_one_located() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let plan = dir.join("plan-444.txt");
    std::fs::write(
        &plan,
        "# centres, then edges, then corners\nStage centres\nPieces CENTERS\n\nStage edges\nPieces EDGES\n\nStage corners\nPieces CORNERS\n",
    )
    .unwrap();
    let scramble = "Rw U2 Fw' R2 Uw D' L2 Fw U R' Bw2 D Lw";
    let (_, err) = fast(
        "4x4x4",
        scramble,
        &["--stages", plan.to_str().unwrap(), "-v"],
    );
    // Each step belongs to a stage, and the stages come in the file's order.
    let stages: Vec<&str> = err
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split(':').next())
        .filter(|s| ["centres", "edges", "corners"].contains(s))
        .collect();
    let first = |s: &str| stages.iter().position(|x| *x == s);
    assert!(first("centres") < first("edges"), "{err}");
    assert!(first("edges") < first("corners"), "{err}");
    let bad = dir.join("plan-bad.txt");
    std::fs::write(&bad, "Stage a\nPieces WINGS\n").unwrap();
    let (code, _, err) = run(
        &[
            "solve",
            "4x4x4",
            "--alg",
            "R",
            "--stages",
            bad.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("plan-bad.txt:2:8: unknown orbit \"WINGS\""),
        "{err}"
    );
}

/// Solves the state `random` gives `puzzle` for `seed` with `solve --fast`
/// and `extra`, checks the answer undoes it, and returns it and stderr.
fn solve_random(puzzle: &str, seed: &str, extra: &[&str]) -> (String, String) {
    let (state, _) = ok(&["random", puzzle, "-n", "1", "--seed", seed, "--json"], "");
    let mut args = vec!["solve", puzzle, "--fast", "--no-write"];
    args.extend_from_slice(extra);
    let (answer, err) = ok(&args, &state);
    let answer = answer.trim().to_string();
    let (undo, _) = ok(&["invert", &answer], "");
    let as_json = |s: &str| -> serde_json::Value { serde_json::from_str(s.trim()).unwrap() };
    assert_eq!(
        as_json(&pattern(puzzle, undo.trim())),
        as_json(&state),
        "{puzzle} seed {seed}"
    );
    (answer, err)
}

#[test]
fn an_orbit_no_move_changes_is_kept_while_the_others_are_finished() {
    // The kilominx as cubing.js names it carries its face centres, which
    // only whole-puzzle rotations move. On this state the finishing plan
    // once tried to finish them too, found no operation, and gave up.
    let (answer, _) = solve_random("kilominx", "1", &["-q"]);
    assert!(!answer.is_empty());
}

#[test]
fn a_deep_cut_puzzle_with_large_kept_orbits_is_finished() {
    // The chopasaurus's vertex turns each move a third of its pieces: no
    // short commutator keeps its corners and face centres while cycling
    // three of its 60 centres, and the corners are too many for the
    // kernel walk. Powers that bring the kept orbits home, paired by
    // commutators, finish it.
    let (answer, _) = solve_random("chopasaurus", "1", &["-q"]);
    assert!(!answer.is_empty());
}

#[test]
fn a_few_orbits_are_solved_a_stage_an_orbit_in_the_cheapest_order() {
    // The pyraminx crystal: corners first, then edges, measured cheapest;
    // against one stage of every piece (the plan before), on one state.
    let (planned, err) = solve_random("pyraminx crystal", "1", &["-v"]);
    let plan: Vec<&str> = err
        .lines()
        .skip_while(|l| !l.ends_with("stages"))
        .skip(1)
        .take(2)
        .map(str::trim)
        .collect();
    assert_eq!(plan, ["CORNERS: CORNERS", "EDGES: EDGES"], "{err}");
    let one = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("crystal-one-stage.txt");
    std::fs::write(&one, "Stage all\nPieces CORNERS\nPieces EDGES\n").unwrap();
    let (one_stage, _) = solve_random(
        "pyraminx crystal",
        "1",
        &["--stages", one.to_str().unwrap()],
    );
    let (a, b) = (
        planned.split_whitespace().count(),
        one_stage.split_whitespace().count(),
    );
    assert!(4 * a < b, "planned {a} moves, one stage {b}");
    // Where the chosen plan gives up (this helicopter state: its centres,
    // finished first and alone), the one stage it replaced answers.
    solve_random("helicopter", "3", &["-q"]);
}
