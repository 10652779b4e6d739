//! `twistor gods --subgroup` run in two halves on "two machines" (two
//! results files), merged with `--merge`, gives the plain engine's
//! distribution; results of another run or damaged lines are refused.

use std::path::PathBuf;

use serde_json::Value;

mod common;

fn twistor(args: &[&str]) -> (i32, String, String) {
    common::run(args, "")
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = twistor(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn cosets_solved_in_two_halves_merge_to_the_whole_distribution() {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cosets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let base = [
        "gods",
        "2x2x2",
        "--moves",
        "U,R",
        "--subgroup",
        "U,R2",
        "--json",
    ];
    let whole = json(&["gods", "2x2x2", "--moves", "U,R", "--json"]);
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    let first: Vec<String> = (0..120).map(|i| i.to_string()).collect();
    let second: Vec<String> = (120..243).map(|i| i.to_string()).collect();
    let half = json(
        &[
            &base[..],
            &[
                "--cosets",
                &first.join(","),
                "--results",
                a.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(half["complete"], Value::Bool(false));
    json(
        &[
            &base[..],
            &[
                "--cosets",
                &second.join(","),
                "--results",
                b.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    let merged = json(
        &[
            &base[..],
            &["--merge", a.to_str().unwrap(), b.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(merged["distribution"], whole["distribution"]);
    assert_eq!(merged["complete"], Value::Bool(true));

    // Another run's results, and a damaged line: exit 2, naming the line.
    let other = dir.join("other.jsonl");
    json(&[
        "gods",
        "2x2x2",
        "--moves",
        "U,R",
        "--subgroup",
        "U2,R2",
        "--cosets",
        "0",
        "--results",
        other.to_str().unwrap(),
        "--json",
    ]);
    let (code, _, err) = twistor(
        &[
            &base[..],
            &["--merge", a.to_str().unwrap(), other.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("other.jsonl:1"), "{err}");
    std::fs::write(&other, "{\"run\": \n").unwrap();
    let (code, _, err) = twistor(&[&base[..], &["--merge", other.to_str().unwrap()]].concat());
    assert_eq!(code, 2, "{err}");
    // A subgroup the colours cannot tell apart, and a class out of range.
    let (code, _, err) = twistor(&[
        "gods",
        "2x2x2",
        "--moves",
        "U,R",
        "--subgroup",
        "U",
        "--cosets",
        "100000",
    ]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
