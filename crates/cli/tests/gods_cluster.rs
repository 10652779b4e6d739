//! `twistor gods --workers` over several processes on loopback: the
//! distributions equal the single-process engine's, and a run whose
//! process is killed (SIGKILL) after a checkpoint resumes to the same
//! distribution. The test starts the processes itself, on 127.0.0.1 only,
//! and stops them.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

fn twistor(args: &[&str]) -> Value {
    serde_json::from_str(&common::ok(args, "")).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A hosts file of `n` free loopback ports.
fn hosts(dir: &Path, n: usize) -> PathBuf {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    let path = dir.join(format!("hosts-{n}"));
    std::fs::write(&path, text).unwrap();
    path
}

/// Kills the processes when dropped, so a failed assertion leaves none behind.
struct Cluster(Vec<Child>);

impl Drop for Cluster {
    fn drop(&mut self) {
        for c in &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

fn start(args: &[&str], hosts: &Path, n: usize, extra: &[&str]) -> Cluster {
    Cluster(
        (0..n)
            .map(|i| {
                Command::new(env!("CARGO_BIN_EXE_twistor"))
                    .args(args)
                    .args(["--workers", "1", "--processes", &n.to_string()])
                    .args(["--process", &i.to_string()])
                    .args(["--hosts", hosts.to_str().unwrap()])
                    .args(extra)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect(),
    )
}

/// Waits for every process (two minutes at most) and returns their JSON.
fn finish(mut cluster: Cluster) -> Vec<Value> {
    let t0 = Instant::now();
    while cluster
        .0
        .iter_mut()
        .any(|c| c.try_wait().unwrap().is_none())
    {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "the cluster did not finish"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::mem::take(&mut cluster.0)
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice(&out.stdout).unwrap()
        })
        .collect()
}

#[test]
fn two_and_three_processes_give_the_single_process_distribution() {
    let dir = scratch("gods-cluster");
    for (puzzle, moves) in [
        ("2x2x2", "U,F,R"),
        ("skewb", "UFR,UBL,DFL,DBR"),
        ("pyraminx", "L,R,F,D"),
    ] {
        let args = ["gods", puzzle, "--moves", moves, "--json"];
        let reference = twistor(&args)["distribution"].clone();
        for n in [2, 3] {
            let hosts = hosts(&dir, n);
            for (i, v) in finish(start(&args, &hosts, n, &[])).iter().enumerate() {
                assert_eq!(v["distribution"], reference, "{puzzle}, process {i} of {n}");
                assert_eq!(v["shards"], serde_json::json!(n));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_process_resumes_to_the_same_distribution() {
    let dir = scratch("gods-cluster-kill");
    let ckpt = dir.join("ckpt");
    // The 2x2x2 with all six faces: 88,179,840 positions, 11 deep.
    let args = ["gods", "2x2x2", "--json"];
    let reference = twistor(&args)["distribution"].clone();
    let hosts = hosts(&dir, 2);
    let extra = ["--checkpoint", ckpt.to_str().unwrap()];
    let mut cluster = start(&args, &hosts, 2, &extra);
    // Kill process 1 as soon as its shard is saved after depth 6.
    let saved = ckpt.join("shard-1-of-2.depth-6");
    let t0 = Instant::now();
    while !saved.exists() {
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no checkpoint after depth 6"
        );
        assert!(
            cluster.0[1].try_wait().unwrap().is_none(),
            "process 1 ended before it could be killed"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    cluster.0[1].kill().unwrap();
    // Its partner cannot go on alone: it says so and ends with exit 1.
    let t1 = Instant::now();
    while cluster.0[0].try_wait().unwrap().is_none() {
        assert!(
            t1.elapsed() < Duration::from_secs(60),
            "the partner did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let partner = cluster.0.remove(0).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&partner.stderr);
    assert_eq!(partner.status.code(), Some(1), "{err}");
    assert!(
        err.contains("stopped answering") && err.contains("--resume"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    drop(cluster);

    let resumed = start(&args, &hosts, 2, &[&extra[..], &["--resume"]].concat());
    for v in finish(resumed) {
        assert_eq!(v["distribution"], reference);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
