//! The everyday tools through the built binary: expected outputs, streams,
//! reproducible seeds, errors.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

mod common;

use twistor_formats::read_puzzle;
use twistor_formats::tws::parse_scrambles;

fn twistor(args: &[&str]) -> (i32, String, String) {
    common::run(args, "")
}

fn ok(args: &[&str]) -> String {
    let (code, out, err) = twistor(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    out
}

fn with_stdin(args: &[&str], input: &str) -> String {
    common::ok(args, input)
}

/// A definition file of the tests' own, in `tests/data`.
fn data(file: &str) -> String {
    format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn cancel_canonicalize_unrotate_print_expected_algs() {
    assert_eq!(ok(&["cancel", "3x3x3", "R U U' R2"]), "R'\n");
    assert_eq!(
        ok(&["cancel", &data("2x2x2.tws"), "R U U' R2", "F F2 F"]),
        "R'\n.\n"
    );
    assert_eq!(
        with_stdin(&["cancel", "3x3x3"], "R R\n\nF2 F2\n(R U)2\n"),
        "R2\n.\nR U R U\n"
    );
    assert_eq!(
        ok(&["canonicalize", "3x3x3", "U D U", "R L R' F"]),
        "D U2\nL F\n"
    );
    assert_eq!(ok(&["unrotate", "3x3x3", "x U x'", "y R U"]), "F\nB U y\n");
}

#[test]
fn unique_drops_repeated_positions() {
    assert_eq!(
        with_stdin(
            &["unique", "3x3x3"],
            "R U\n(R U)\nU R\nR U R' U' R U R' U' R U R' U' R U R' U' R U R' U' R U R' U'\n\n"
        ),
        "R U\nU R\nR U R' U' R U R' U' R U R' U' R U R' U' R U R' U' R U R' U'\n"
    );
    assert_eq!(
        ok(&["unique", "3x3x3", "--symmetry", "R", "U", "F", "R2", "U R"]),
        "R\nR2\nU R\n"
    );
    let (code, _, err) = twistor(&["unique", &data("2x2x2.tws"), "--symmetry", "R"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rotations"));
}

#[test]
fn shorten_turns_the_t_perm_into_eleven_moves() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-cli-shorten");
    let out = ok(&[
        "shorten",
        "3x3x3",
        "-M",
        "16",
        "--cache-dir",
        dir.to_str().unwrap(),
        "R U R' U' R' F R2 U' R' U' R U R' F'",
    ]);
    let moves: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(moves.len(), 11, "{out}");
    // The same position: the T-perm followed by the inverse of the result.
    let inverse = ok(&["invert", out.trim()]);
    let check = format!("R U R' U' R' F R2 U' R' U' R U R' F' {}", inverse.trim());
    assert_eq!(ok(&["order", "3x3x3", &check]), "1\n");
}

#[test]
fn random_states_stream_as_scramble_files_and_reproduce() {
    let a = ok(&["random", "2x2x2", "-n", "3", "--seed", "42"]);
    let b = ok(&["random", "2x2x2", "-n", "3", "--seed", "42"]);
    let c = ok(&["random", "2x2x2", "-n", "3", "--seed", "43"]);
    assert_eq!(a, b);
    assert_ne!(a, c);
    let path = data("2x2x2.tws");
    let text = ok(&["random", &path, "-n", "4", "--seed", "1"]);
    let puzzle = read_puzzle(&std::fs::read_to_string(&path).unwrap(), &path).unwrap();
    let scrambles = parse_scrambles(&text, "random.scr", &puzzle).unwrap();
    assert_eq!(scrambles.len(), 4);
    assert_eq!(scrambles[0].name, "random-1");
    let json = ok(&["random", "3x3x3", "-n", "5", "--seed", "2", "--json"]);
    assert_eq!(json.lines().count(), 5);
    for line in json.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["CORNERS"]["pieces"].is_array());
    }
}

#[test]
fn a_huge_count_streams() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twistor"))
        .args([
            "random",
            "3x3x3",
            "-n",
            "1000000000000",
            "--json",
            "--seed",
            "1",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    for _ in 0..3 {
        assert!(lines.next().unwrap().unwrap().starts_with('{'));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn info_reports_positions_and_keeps_the_contract_keys() {
    let out = ok(&["info", "4x4x4", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["name", "orbits", "moves", "group_order"] {
        assert!(v.get(key).is_some(), "{key}");
    }
    assert_eq!(
        v["positions"],
        "177628724197557644876978255387965784064000000000"
    );
    let three = ok(&["info", "3x3x3", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&three).unwrap();
    assert!(v.get("positions").is_none());
    assert_eq!(
        v["parity_constraints"],
        serde_json::json!([["CORNERS", "EDGES"]])
    );
    let text = ok(&["info", "4x4x4"]);
    assert!(text
        .contains("distinguishable positions: 177628724197557644876978255387965784064000000000"));
    assert!(text.contains("move orders: F:4"));
    // A definition file: distinct pieces, so no separate count of
    // distinguishable positions.
    let out = ok(&["info", &data("2x2x2.tws"), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["group_order"], "88179840");
    assert!(v.get("positions").is_none());
}

#[test]
fn describe_sets_lists_cycles() {
    let out = ok(&["describe-sets", "3x3x3", "--moves", "U"]);
    assert_eq!(out.lines().next(), Some("U"));
    assert_eq!(out.lines().count(), 3);
    let json = ok(&["describe-sets", "3x3x3", "--json"]);
    assert_eq!(json.lines().count(), 9); // F B D U L R and three rotations
}

#[test]
fn scrambles_reproduce_and_unknown_events_are_input_errors() {
    let a = ok(&["scramble", "minx", "-n", "2", "--seed", "7"]);
    assert_eq!(a, ok(&["scramble", "megaminx", "-n", "2", "--seed", "7"]));
    assert_eq!(a.lines().count(), 2);
    let (code, _, err) = twistor(&["scramble", "sq2"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown scramble event"));
    // A typo gets the nearest event ids and puzzle names.
    let (code, _, err) = twistor(&["scramble", "3333"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean 333?"), "{err}");
    let (_, _, err) = twistor(&["scramble", "pyraminxx"]);
    assert!(err.contains("did you mean pyraminx?"), "{err}");
}

#[test]
fn clock_and_square1_scrambles_stream_and_reproduce() {
    let clock = ok(&["scramble", "clock", "-n", "3", "--seed", "5"]);
    assert_eq!(clock, ok(&["scramble", "clock", "-n", "3", "--seed", "5"]));
    assert_ne!(clock, ok(&["scramble", "clock", "-n", "3", "--seed", "6"]));
    assert_eq!(clock.lines().count(), 3);
    for line in clock.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 15, "{line}");
        assert!(words[0].starts_with("UR") && words[8].starts_with("ALL"));
        assert_eq!(words[9], "y2");
    }
    let sq1 = ok(&["scramble", "sq1", "-n", "2", "--seed", "5"]);
    assert_eq!(sq1, ok(&["scramble", "square1", "-n", "2", "--seed", "5"]));
    for line in sq1.lines() {
        assert!(line.starts_with('(') && line.ends_with(" /"), "{line}");
        assert_eq!(line.matches('/').count(), 12, "{line}");
    }
    let json = ok(&["scramble", "sq1", "-n", "2", "--seed", "5", "--json"]);
    for (line, plain) in json.lines().zip(sq1.lines()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["event"], "sq1");
        assert_eq!(v["scramble"], plain);
        assert!(v.get("distance").is_none());
    }
}

#[test]
fn bad_input_exits_with_two() {
    for args in [
        &["cancel", "3x3x3", "R Q"][..],
        &["canonicalize", "3x3x3", "R ("][..],
        &["unrotate", "3x3x3", "(R)1000000000 (U)1000000000"][..],
        &["unique", "3x3x3", "R]"][..],
        &["describe-sets", "3x3x3", "--moves", "Q"][..],
        &["random", "no-such-puzzle"][..],
    ] {
        let (code, _, err) = twistor(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.starts_with("twistor: "), "{err}");
    }
}

#[test]
fn every_help_has_an_example() {
    for cmd in [
        "random",
        "scramble",
        "cancel",
        "canonicalize",
        "shorten",
        "unrotate",
        "unique",
        "describe-sets",
        "info",
    ] {
        let out = ok(&[cmd, "--help"]);
        assert!(out.contains("Example"), "{cmd}");
    }
}

/// A definition recognised as the 3x3x3 whose dedicated tables are not
/// cached goes to the generic search first (it used to build the
/// dedicated solver's tables, seconds, for every short position); the
/// T-perm is 11 moves optimally, and the solution undoes it.
#[test]
fn recognised_cube_without_cached_tables_tries_the_generic_search_first() {
    let dir = std::env::temp_dir().join(format!("twistor-generic-first-{}", std::process::id()));
    let dir_s = dir.to_string_lossy().into_owned();
    let tperm = "R U R' U' R' F R2 U' R' U' R U R' F'";
    let (code, out, err) = twistor(&[
        "solve",
        "3x3x3",
        "--alg",
        tperm,
        "--cache-dir",
        &dir_s,
        "--no-write",
        "-t",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("trying the generic search"), "{err}");
    let solution = out.trim();
    assert_eq!(solution.split_whitespace().count(), 11, "{out}");
    let undone = ok(&[
        "solve",
        "3x3x3",
        "--alg",
        &format!("{tperm} {solution}"),
        "--cache-dir",
        &dir_s,
        "--no-write",
    ]);
    assert_eq!(undone.trim(), "", "{undone}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged checkpoint is bad input (exit 2, as a damaged definition
/// is), not a failure of the program (it exited 1).
#[test]
fn a_corrupt_checkpoint_exits_2() {
    let dir = std::env::temp_dir().join(format!("twistor-bad-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.ckpt");
    std::fs::write(&path, "not a checkpoint\n").unwrap();
    let ckpt = path.to_str().unwrap();
    let (code, _, err) = twistor(&["gods", "2x2x2", "--checkpoint", ckpt, "--resume"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a valid checkpoint"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `333 tables` builds tables to keep them: when they cannot be saved it
/// says so and fails (it exited 0).
#[test]
fn tables_333_that_could_not_be_saved_exit_1() {
    let dir = std::env::temp_dir().join(format!("twistor-unsaved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A cache directory under a file cannot be created.
    let file = dir.join("a-file");
    std::fs::write(&file, "").unwrap();
    let cache = file.join("cache");
    let (code, _, err) = twistor(&["333", "tables", "--cache-dir", cache.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not saved to the cache"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A line of standard input longer than any alg is refused with its line
/// number (exit 2) by every sequence tool, after the lines before it are
/// answered, instead of being read whole (a 1 GB line aborted them).
#[test]
fn a_huge_stdin_line_is_refused_by_every_sequence_tool() {
    let huge = "R ".repeat(9 << 20);
    for tool in [
        "invert",
        "cancel",
        "canonicalize",
        "unrotate",
        "unique",
        "order",
    ] {
        let args: &[&str] = if tool == "invert" {
            &[tool]
        } else {
            &[tool, "3x3x3"]
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_twistor"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = format!("R U\n{huge}\nF\n");
        // The tool stops reading at the limit: a closed pipe is expected.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{tool}: {err}");
        assert!(err.contains("line 2: longer than 16 MiB"), "{tool}: {err}");
        assert!(!out.stdout.is_empty(), "{tool}: the first line is answered");
    }
}

/// `info` and `describe-sets` list moves by the names people use (the
/// megaminx's faces, the pyraminx's tips), the definition's own names
/// beside them; `info --json` keeps the definition's in `moves` (the
/// conformance contract) and gives the notation's in `notation_moves`.
#[test]
fn info_and_describe_sets_speak_the_community_notation() {
    let megaminx = ok(&["info", "megaminx"]);
    let moves = megaminx.lines().find(|l| l.starts_with("moves: ")).unwrap();
    assert_eq!(moves, "moves: U D F B L DR BL FR BR FL R DL");
    assert!(megaminx.contains("as the definition names them: U D F BF L E BL C BR A R I"));
    let pyraminx = ok(&["info", "pyraminx"]);
    assert!(
        pyraminx.contains("moves: r BL l BR b F u D\n"),
        "{pyraminx}"
    );
    let sets = ok(&["describe-sets", "pyraminx"]);
    assert!(sets.lines().any(|l| l == "u (FRL)"), "{sets}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["info", "pyraminx", "--json"])).unwrap();
    assert_eq!(json["moves"][0], "DRF");
    assert_eq!(json["notation_moves"][0], "r");
    // Every name given reads back, in the notation, as its move: the
    // pattern it reaches is the definition move's (read from the written
    // definition, where only the definition's names exist).
    let dir = std::env::temp_dir().join(format!("twistor-notation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tws = dir.join("pyraminx.tws");
    std::fs::write(&tws, ok(&["convert", "pyraminx", "--to", "tws"])).unwrap();
    let tws = tws.to_str().unwrap();
    let names = json["moves"].as_array().unwrap();
    for (own, people) in names.iter().zip(json["notation_moves"].as_array().unwrap()) {
        let (own, people) = (own.as_str().unwrap(), people.as_str().unwrap());
        let defined = ok(&["apply", tws, own]);
        let read = ok(&["apply", "pyraminx", people]);
        assert_eq!(defined, read, "{own} and {people}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Answers come in the notation people write, whichever engine finds
/// them: wide turns on big cubes, `(u, d) /` on the Square-1, the WCA's
/// turns on the clock (whose linear solver answers `solve` too, proven
/// shortest: the generic search knows only the clock's three base turns
/// and called `UR1+` unreachable).
#[test]
fn optimal_answers_speak_the_community_notation() {
    let wide = ok(&["solve", "4x4x4", "--alg", "Rw U Rw'"]);
    assert_eq!(wide.trim(), "Lw F' Lw'");
    let sq1 = ok(&["solve", "square1", "--alg", "(1,0) / (3,3) / (-1,0) /"]);
    assert!(!sq1.contains("_SQ_") && !sq1.contains("_SLASH_"), "{sq1}");
    let undo = ok(&[
        "apply",
        "square1",
        &format!("(1,0) / (3,3) / (-1,0) / {}", sq1.trim()),
    ]);
    assert_eq!(undo, ok(&["apply", "square1", ""]), "{sq1}");
    let (code, clock, err) = twistor(&["solve", "clock", "--alg", "UR1+ DR2- ALL3+"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(clock.trim(), "UR1- DR2+ ALL3-");
    assert!(err.contains("optimal"), "{err}");
}

/// `random` and `info` on a puzzle whose group might not fit refuse with
/// the estimate before building anything (an icosahedron with 23 vertex
/// cuts took `random` past 8 GB until it aborted).
#[test]
fn random_and_info_refuse_a_group_too_large_with_its_estimate() {
    let cuts: Vec<String> = (0..23)
        .map(|i| format!("v {:.2}", 0.05 + 0.04 * i as f64))
        .collect();
    let descriptor = format!("i {}", cuts.join(" "));
    for command in ["random", "info"] {
        let (code, _, err) = twistor(&[command, &descriptor]);
        assert_eq!(code, 2, "{command}: {err}");
        assert!(
            err.contains("needs up to") && err.contains("-M 4096 MiB"),
            "{err}"
        );
    }
    // The limit is -M: the 40x40x40's group (2.4 GiB) is refused at 256.
    let (code, _, err) = twistor(&["info", "40x40x40", "-M", "256"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("2.4 GiB"), "{err}");
}

#[test]
fn every_name_prints_patterns_of_the_definition_it_converts_to() {
    // `apply NAME --json` prints a KPattern; `convert NAME --to json` the
    // KPuzzle it is a pattern of: the same orbits, the same sizes, for
    // every named puzzle (the skewb's eight corners in one orbit, as
    // cubing.js has them, in both).
    let list = ok(&["geometry", "--list"]);
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split("  ").next())
        .map(str::trim)
        .collect();
    assert!(names.len() >= 72, "{}", names.len());
    for name in names {
        // After R where the puzzle has one, else the start.
        let (code, after_r, _) = twistor(&["apply", name, "R", "--json"]);
        let text = if code == 0 {
            after_r
        } else {
            ok(&["apply", name, "", "--json"])
        };
        let pattern: serde_json::Value = serde_json::from_str(&text).unwrap();
        let kpuzzle: serde_json::Value =
            serde_json::from_str(&ok(&["convert", name, "--to", "json"])).unwrap();
        let orbits = kpuzzle["orbits"].as_array().unwrap();
        let in_pattern = pattern.as_object().unwrap();
        assert_eq!(in_pattern.len(), orbits.len(), "{name}: orbits");
        for o in orbits {
            let orbit = o["orbitName"].as_str().unwrap();
            let n = o["numPieces"].as_u64().unwrap() as usize;
            let p = &in_pattern[orbit];
            assert_eq!(p["pieces"].as_array().unwrap().len(), n, "{name} {orbit}");
            let most = o["numOrientations"].as_u64().unwrap();
            assert!(
                (p["orientation"].as_array().unwrap().iter()).all(|x| x.as_u64().unwrap() < most),
                "{name} {orbit}: orientations below {most}"
            );
        }
    }
}

#[test]
fn the_vector_algs_keep_their_meaning_through_every_tool() {
    // Every alg of the cubing.js syntax vectors that the 3x3x3 can apply:
    // cancelled, canonicalized and unrotated it reaches the same position,
    // and followed by its inverse the start.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../formats/tests/data/alg-syntax.jsonl"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let solved = ok(&["apply", "3x3x3", "", "--json"]);
    let mut checked = 0;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["ok"] != true {
            continue;
        }
        let alg = v["alg"].as_str().unwrap();
        let (code, pattern, _) = twistor(&["apply", "3x3x3", alg, "--json"]);
        if code != 0 {
            continue; // moves the 3x3x3 has not (clock dials, Square-1 tuples)
        }
        for tool in ["cancel", "canonicalize", "unrotate"] {
            let out = ok(&[tool, "3x3x3", alg]);
            let again = ok(&["apply", "3x3x3", out.trim_end_matches('\n'), "--json"]);
            assert_eq!(again, pattern, "{tool} {alg:?} gave {out:?}");
        }
        let inverse = ok(&["invert", alg]);
        let both = format!("{alg}\n{}", inverse.trim_end_matches('\n'));
        assert_eq!(
            ok(&["apply", "3x3x3", &both, "--json"]),
            solved,
            "{alg:?} then {inverse:?}"
        );
        checked += 1;
    }
    assert!(checked >= 40, "{checked} algs");
}
