//! Measures the Square-1 scrambler: table build time and size, time per
//! scramble, slashes and tuples per scramble.
//!
//! `cargo run -p twistor-square1 --release --example bench`

use std::time::Instant;

use twistor_core::random::SeededRng;
use twistor_square1::{parse_moves, Square1Move, Square1Solver};

fn main() {
    let t = Instant::now();
    let solver = Square1Solver::new();
    let build = t.elapsed();
    println!(
        "tables built in {:.2} ms, {} bytes",
        build.as_secs_f64() * 1e3,
        solver.table_bytes()
    );

    let n = 1000;
    let mut rng = SeededRng::new(42);
    let mut slash_hist = [0usize; 32];
    let (mut slashes, mut tuples) = (0usize, 0usize);
    let (mut starts_slash, mut ends_slash) = (0, 0);
    let mut worst = 0.0f64;
    let t = Instant::now();
    for _ in 0..n {
        let s = Instant::now();
        let (_, scramble) = solver.random_scramble(&mut rng);
        worst = worst.max(s.elapsed().as_secs_f64());
        let moves = parse_moves(&scramble).expect("own notation");
        let k = moves.iter().filter(|m| **m == Square1Move::Slash).count();
        slashes += k;
        slash_hist[k] += 1;
        tuples += moves.len() - k;
        starts_slash += usize::from(moves.first() == Some(&Square1Move::Slash));
        ends_slash += usize::from(moves.last() == Some(&Square1Move::Slash));
    }
    let total = t.elapsed();
    println!(
        "{n} scrambles: {:.2} ms each on average (worst {:.1} ms)",
        total.as_secs_f64() * 1e3 / n as f64,
        worst * 1e3
    );
    println!(
        "average {:.2} slashes, {:.2} tuples; {starts_slash} start with `/`, {ends_slash} end with `/`",
        slashes as f64 / n as f64,
        tuples as f64 / n as f64
    );
    let hist: Vec<String> = slash_hist
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(k, c)| format!("{k}:{c}"))
        .collect();
    println!("slashes: {}", hist.join(" "));
    let mut rng = SeededRng::new(1);
    println!("example: {}", solver.random_scramble(&mut rng).1);
}
