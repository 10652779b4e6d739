//! Random-state 4x4x4 scrambles on this machine: table build time and
//! size, time per scramble, lengths. `cargo run -p twistor-cube444
//! --release --example cube444_bench -- [COUNT] [SEED]`
use std::time::Instant;

use twistor_core::random::SeededRng;
use twistor_cube333::TwoPhaseTables;
use twistor_cube444::{Cube444, Cube444Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(42);
    let store = twistor_store::DirStore::new(
        twistor_store::default_cache_dir().expect("a cache directory"),
    );
    let t = Instant::now();
    let three = TwoPhaseTables::load(&store, &mut |_| {});
    println!("3x3x3 tables loaded in {:.2} s", t.elapsed().as_secs_f64());
    let t = Instant::now();
    let solver = Cube444Solver::load(&store, &mut |e| eprintln!("{e}"));
    println!(
        "reduction tables: {:.2} s, {:.1} MB",
        t.elapsed().as_secs_f64(),
        solver.size_bytes() as f64 / 1e6
    );
    let mut rng = SeededRng::new(seed);
    let mut lengths = Vec::new();
    let mut phases = [0usize; 4];
    let mut times = Vec::new();
    for _ in 0..count {
        let t = Instant::now();
        let s = solver
            .random_scramble(&mut rng, &three)
            .expect("a scramble");
        times.push(t.elapsed().as_secs_f64());
        let check = Cube444::solved().apply_alg(&s.alg);
        assert!(
            check.same_up_to_rotation(&s.position),
            "scramble reaches its position"
        );
        lengths.push(s.alg.0.len());
        for (p, l) in phases.iter_mut().zip(s.phase_lengths) {
            *p += l;
        }
    }
    times.sort_by(f64::total_cmp);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    println!(
        "{count} scrambles: mean {:.1} ms, median {:.1} ms, max {:.1} ms",
        mean(&times) * 1e3,
        times[count / 2] * 1e3,
        times[count - 1] * 1e3
    );
    println!(
        "length: mean {:.2}, min {}, max {}; phases {:.1} / {:.1} / {:.1} / {:.1}",
        lengths.iter().sum::<usize>() as f64 / count as f64,
        lengths.iter().min().unwrap(),
        lengths.iter().max().unwrap(),
        phases[0] as f64 / count as f64,
        phases[1] as f64 / count as f64,
        phases[2] as f64 / count as f64,
        phases[3] as f64 / count as f64
    );
}
