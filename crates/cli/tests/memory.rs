//! `-M` is a promise: a command's peak resident memory stays within `-M`
//! and a tenth, at small and large `-M` alike, whether its tables are
//! built or loaded from the cache. Peak memory is the child's own
//! (`wait4`'s `ru_maxrss`), measured on the process as a user runs it.

use std::process::{Command, Stdio};

/// Runs twistor with `args`; its exit code and peak resident memory in KiB.
#[expect(clippy::zombie_processes, reason = "wait4 reaps the child")]
fn peak_kib(args: &[&str]) -> (i32, u64, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twistor"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id() as libc::pid_t;
    // Read what the child says while it runs, so that it never waits on
    // a full pipe.
    let mut stderr = child.stderr.take().expect("stderr is piped");
    let said = std::thread::spawn(move || {
        let mut err = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut err);
        err
    });
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 writes only through the two pointers, which point at
    // live locals; the pid is our own child, not yet waited for.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    let err = said.join().unwrap();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, usage.ru_maxrss as u64, err)
}

fn within(what: &str, m: u64, args: &[&str]) {
    let (code, kib, err) = peak_kib(args);
    assert_eq!(code, 0, "{what}: {err}");
    let limit = m * 1024 * 11 / 10;
    assert!(
        kib <= limit,
        "{what} at -M {m}: peak {kib} KiB, more than {limit} KiB"
    );
}

#[test]
fn peak_memory_stays_within_m_on_the_4x4x4_and_pyraminx_gods() {
    let dir = std::env::temp_dir().join(format!("twistor-memory-{}", std::process::id()));
    for m in [32u64, 64, 256] {
        let ms = m.to_string();
        let cache = dir.join(format!("cache-{m}"));
        let cache = cache.to_str().unwrap();
        // A position of the 4x4x4 in the moves twsearch's flip example
        // searches, twenty solutions: built cold, then loaded warm.
        let solve = [
            "solve",
            "4x4x4",
            "--moves",
            "2L,2R,U,F",
            "--alg",
            "2R U F 2L' U2 2R2 F' U 2L F2",
            "-c",
            "20",
            "-M",
            &ms,
            "--cache-dir",
            cache,
        ];
        within("4x4x4 solve, cold", m, &solve);
        within("4x4x4 solve, warm", m, &solve);
        within("pyraminx gods", m, &["gods", "pyraminx", "-M", &ms]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 3x3x3's cached phase-1 table (67 MiB) was loaded at any `-M`
/// (90 MiB at `-M 1`): now the generic search answers alone within a
/// smaller `-M`, and `333 solve --optimal` refuses, saying what it needs.
#[test]
fn a_cached_3x3x3_table_larger_than_m_is_not_loaded() {
    let dir = std::env::temp_dir().join(format!("twistor-memory-333-{}", std::process::id()));
    let cache = dir.join("cache");
    let cache = cache.to_str().unwrap();
    let (code, _, err) = peak_kib(&[
        "333",
        "solve",
        "--alg",
        "R U",
        "--optimal",
        "--optimal-table",
        "small",
        "--cache-dir",
        cache,
    ]);
    assert_eq!(code, 0, "the phase-1 table is built and cached: {err}");
    let t_perm = "R U R' U' R' F R2 U' R' U' R U R' F'";
    for m in [32u64, 64] {
        let ms = m.to_string();
        let args = [
            "solve",
            "3x3x3",
            "--alg",
            t_perm,
            "-M",
            &ms,
            "--cache-dir",
            cache,
        ];
        let (code, kib, err) = peak_kib(&args);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("does not fit"), "{err}");
        assert!(kib <= m * 1024 * 11 / 10, "-M {m}: peak {kib} KiB");
        let (code, _, err) = peak_kib(&[
            "333",
            "solve",
            "--alg",
            t_perm,
            "--optimal",
            "-M",
            &ms,
            "--cache-dir",
            cache,
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("phase-1 table takes"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Beside the staged solver too: the test telling reachable positions
/// apart built the teraminx's whole group (its chain bounded at 41 MiB)
/// at any `-M`, and a solve at `-M 48` peaked at 72 MB.
#[test]
fn a_staged_solve_keeps_within_m() {
    let dir = std::env::temp_dir().join(format!("twistor-memory-staged-{}", std::process::id()));
    let cache = dir.join("cache");
    let scramble = "U 2R' 3F BL2 3C 2D' R F2 2U 3BR' L 3A2 2E DR' 3I FL 2BF' U2 3L 2C' \
                    BR 3D2 F' 2BL R2 3E' 2I FR U' 2F 3BF DL2";
    let args = [
        "solve",
        "teraminx",
        "--fast",
        "--alg",
        scramble,
        "-M",
        "48",
        "--cache-dir",
        cache.to_str().unwrap(),
    ];
    within("teraminx solve --fast", 48, &args);
    let _ = std::fs::remove_dir_all(&dir);
}
