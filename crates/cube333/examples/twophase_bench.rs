//! Solves the cubes of a file with the compact two-phase tables and prints
//! where the work went: per-solve times, phase-1 and phase-2 nodes and
//! phase-2 searches started.
//!
//! ```text
//! cargo run -p twistor-cube333 --release --example twophase_bench -- FILE [MAX_LENGTH [REPEAT]]
//! ```
//!
//! With REPEAT, each cube is solved that many times and its least time
//! kept (a steadier figure on a shared machine). Solves are timed on the
//! thread's CPU clock where there is one (Unix), as a C harness around
//! min2phase would time them, so that time the thread spends switched out
//! does not count.
//!
//! FILE holds one cube a line, as 54 facelets (the first TAB-separated
//! field of 54 letters; `#` starts a comment).

use std::time::Instant;

/// Milliseconds of CPU time this thread has used (wall time off Unix).
fn thread_ms(start: Instant) -> f64 {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `t` is a valid timespec to write to; the clock id is a
        // constant every Unix the example builds on knows.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6;
        }
    }
    start.elapsed().as_secs_f64() * 1e3
}

use twistor_cube333::{solve_two_phase, CubieCube, TwoPhaseOptions, TwoPhaseTables};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: twophase_bench FILE [MAX_LENGTH]");
        std::process::exit(2);
    };
    let max_length: usize = args.get(1).map_or(Ok(21), |s| s.parse())?;
    let repeat: usize = args.get(2).map_or(Ok(1), |s| s.parse())?;
    let cubes: Vec<CubieCube> = std::fs::read_to_string(path)?
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split('\t').find(|f| f.trim().len() == 54))
        .map(|f| f.trim().parse())
        .collect::<Result<_, _>>()?;
    let t = Instant::now();
    let tables = TwoPhaseTables::compact();
    println!("compact tables in {:.3} s", t.elapsed().as_secs_f64());
    let opts = TwoPhaseOptions {
        max_length,
        ..Default::default()
    };
    let (mut times, mut n1, mut n2, mut probes, mut len) = (Vec::new(), 0, 0, 0, 0);
    let epoch = Instant::now();
    for c in &cubes {
        let mut best = f64::INFINITY;
        let mut s = None;
        for _ in 0..repeat.max(1) {
            let t0 = thread_ms(epoch);
            s = Some(solve_two_phase(&tables, c, &opts)?);
            best = best.min(thread_ms(epoch) - t0);
        }
        let s = s.expect("solved at least once");
        times.push(best);
        assert!(c.apply_moves(&s.moves.0).is_solved());
        n1 += s.phase1_nodes;
        n2 += s.phase2_nodes;
        probes += s.probes;
        len += s.moves.len();
    }
    let n = cubes.len() as f64;
    let mean = times.iter().sum::<f64>() / n;
    times.sort_by(f64::total_cmp);
    println!(
        "{} cubes at {max_length}: median {:.3} ms, mean {mean:.3} ms; per solve {:.0} phase-1 nodes, {:.0} phase-2 nodes, {:.0} probes; average length {:.2}",
        cubes.len(),
        times[times.len() / 2],
        n1 as f64 / n,
        n2 as f64 / n,
        probes as f64 / n,
        len as f64 / n
    );
    Ok(())
}
