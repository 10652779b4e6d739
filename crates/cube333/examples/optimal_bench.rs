//! Solves cubes optimally on one thread and prints, for each, the nodes
//! and time of every depth: where the optimal search spends its work.
//!
//! ```text
//! cargo run -p twistor-cube333 --release --example optimal_bench -- [--small] [--portable] [--depth D] SCRAMBLE...
//! ```
//!
//! Each argument is a scramble (moves in Singmaster notation). The huge
//! table (or with `--small` the phase-1 table) comes from the user's cache
//! directory, built there the first time.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use twistor_cube333::{
    CubieCube, MoveSeq, OptimalOptions, OptimalProgress, OptimalSolution, OptimalSolver,
    OptimalTableKind,
};
use twistor_store::{default_cache_dir, DirStore};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut take = |flag: &str| {
        let at = args.iter().position(|a| a == flag);
        at.map(|i| args.remove(i)).is_some()
    };
    let kind = if take("--small") {
        OptimalTableKind::Small
    } else {
        OptimalTableKind::Huge
    };
    let portable = take("--portable");
    // `--depth D`: search every depth up to D and stop there, solved or
    // not (whole iterations: the same work every run).
    let max_depth = match args.iter().position(|a| a == "--depth") {
        Some(i) => {
            args.remove(i);
            Some(args.remove(i).parse::<u8>()?)
        }
        None => None,
    };
    if args.is_empty() {
        eprintln!("usage: optimal_bench [--small] [--portable] SCRAMBLE...");
        std::process::exit(2);
    }
    let store = DirStore::new(default_cache_dir().unwrap_or_else(std::env::temp_dir));
    let t = Instant::now();
    let solver = OptimalSolver::load(kind, &store, &mut |e| eprintln!("{e}"));
    println!(
        "table: {:.1} MB in {:.2} s",
        solver.size_bytes() as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let mut total = 0.0;
    for scramble in &args {
        let s: MoveSeq = scramble.parse()?;
        let cube = CubieCube::from_moves(&s.0);
        let depths: Arc<Mutex<Vec<(u8, u64, f64)>>> = Arc::default();
        let t = Instant::now();
        let seen = depths.clone();
        let progress = Arc::new(move |p: OptimalProgress| {
            if p.depth_done {
                seen.lock()
                    .unwrap()
                    .push((p.depth, p.nodes, t.elapsed().as_secs_f64()));
            }
        });
        let opts = OptimalOptions {
            single_thread: true,
            portable,
            progress: Some(progress),
            ..Default::default()
        };
        let sol = match max_depth {
            Some(d) => solver.solve_up_to(&cube, &opts, d),
            None => Some(solver.solve(&cube, &opts)),
        };
        let secs = t.elapsed().as_secs_f64();
        total += secs;
        let sol = sol.unwrap_or(OptimalSolution {
            moves: MoveSeq::default(),
            nodes: depths.lock().unwrap().last().map_or(0, |d| d.1),
            stopped: true,
        });
        assert!(sol.stopped || cube.apply_moves(&sol.moves.0).is_solved());
        println!(
            "{scramble}\n  {} moves, {} nodes, {secs:.2} s ({:.3} us a node)",
            sol.moves.len(),
            sol.nodes,
            secs * 1e6 / sol.nodes.max(1) as f64
        );
        let (mut n0, mut t0) = (0, 0.0);
        for (d, n, at) in depths.lock().unwrap().iter() {
            println!("  depth {d:2}: {:>11} nodes {:7.2} s", n - n0, at - t0);
            (n0, t0) = (*n, *at);
        }
    }
    println!("total {total:.2} s");
    Ok(())
}
