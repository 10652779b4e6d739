//! What the CLI's integration tests share: the built binary, run the way a
//! person runs it.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `twistor` with `args` and `stdin` as its input: (exit code,
/// stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_twistor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("a piped stdin");
    // A command that does not read its input may already have exited.
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let out = child.wait_with_output().expect("the binary finishes");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs it and asserts it succeeded without a panic: its stdout.
#[allow(dead_code)]
pub fn ok(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "{args:?} exited {code}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    out
}
