//! A God's-algorithm run killed mid-way (SIGKILL, no chance to clean up)
//! resumes from its last checkpoint to the same table as a run that was
//! never interrupted.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

fn twistor(args: &[&str]) -> String {
    common::ok(args, "")
}

#[test]
fn a_killed_gods_run_resumes_to_the_same_table() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gods-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let checkpoint = dir.join("run.ckpt");
    let ckpt = checkpoint.to_str().unwrap();
    // The 2x2x2 with all six faces: 88,179,840 positions, 11 deep (HTM),
    // long enough to be killed between its checkpoints.
    let args = ["gods", "2x2x2", "--json", "-t", "1"];
    let reference = twistor(&args);

    let mut child = Command::new(env!("CARGO_BIN_EXE_twistor"))
        .args(args)
        .args(["--checkpoint", ckpt])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it as soon as a checkpoint is on disk.
    let t0 = Instant::now();
    let mut killed_mid_way = false;
    while t0.elapsed() < Duration::from_secs(120) {
        if checkpoint.exists() {
            killed_mid_way = child.try_wait().unwrap().is_none();
            child.kill().unwrap();
            break;
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    child.wait().unwrap();
    assert!(killed_mid_way, "the run ended before it could be killed");

    let resumed = twistor(&[&args[..], &["--checkpoint", ckpt, "--resume"]].concat());
    assert_eq!(resumed, reference);
    let v: serde_json::Value = serde_json::from_str(&reference).unwrap();
    assert_eq!(v["total"], serde_json::json!(88179840));
    let _ = std::fs::remove_dir_all(&dir);
}
