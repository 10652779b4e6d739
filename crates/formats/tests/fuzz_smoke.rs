//! A CI-sized run of the fuzz harness (`examples/fuzz/main.rs`), and checks
//! that the harness notices what it is there to notice.

#[allow(dead_code)]
#[path = "../examples/fuzz/main.rs"]
mod fuzz;

use std::path::PathBuf;
use std::time::Duration;

use fuzz::{Config, Sabotage};

fn config(inputs: u64, out: &str) -> Config {
    Config {
        inputs,
        jobs: 2,
        seed: 20_000,
        // Unoptimised, on a busy machine: generous, still catches a hang.
        timeout: Duration::from_secs(20),
        max_len: 2048,
        memory_limit: 256 << 20,
        out_dir: PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(out),
        keep_going: false,
        verbose: false,
        sabotage: None,
    }
}

#[test]
fn twenty_thousand_fuzzed_inputs_find_nothing() {
    let report = fuzz::run(&config(20_000, "fuzz-smoke"));
    for f in &report.findings {
        eprintln!(
            "{} in {} on input {}: {}\n{}",
            f.kind,
            f.target,
            f.index,
            f.message,
            String::from_utf8_lossy(&f.input)
        );
    }
    assert!(report.findings.is_empty());
    assert_eq!(report.inputs, 20_000);
    // Every target is fed, and the mutator keeps some inputs valid, so the
    // checks on accepted inputs run too.
    for (k, (n, a)) in report.per_target.iter().enumerate() {
        assert!(*n > 2_000, "target {k}: {n} inputs");
        assert!(*a > 20, "target {k}: {a} of {n} inputs accepted");
    }
}

#[test]
fn the_harness_reports_panics_hangs_and_memory() {
    // A panic is caught, reported with its message, and its input written.
    let mut c = config(400, "fuzz-sabotage-panic");
    c.sabotage = Some((123, Sabotage::Panic));
    let r = fuzz::run(&c);
    assert_eq!(r.findings.len(), 1);
    let f = &r.findings[0];
    assert_eq!((f.kind, f.index), ("panic", 123));
    assert!(f.message.starts_with("sabotaged"), "{}", f.message);
    let path = f.path.as_ref().expect("input written");
    assert_eq!(std::fs::read(path).unwrap(), f.input);

    // An input over the time limit is reported while it still runs.
    let mut c = config(400, "fuzz-sabotage-hang");
    c.timeout = Duration::from_millis(300);
    c.jobs = 1;
    c.sabotage = Some((7, Sabotage::Sleep(Duration::from_secs(2))));
    let r = fuzz::run(&c);
    assert_eq!(r.findings.len(), 1);
    assert_eq!((r.findings[0].kind, r.findings[0].index), ("hang", 7));

    // An input whose allocations grow past the limit is reported.
    let mut c = config(400, "fuzz-sabotage-memory");
    c.memory_limit = 1 << 20;
    c.sabotage = Some((99, Sabotage::Allocate(8 << 20)));
    let r = fuzz::run(&c);
    assert_eq!(r.findings.len(), 1);
    assert_eq!((r.findings[0].kind, r.findings[0].index), ("memory", 99));
}
