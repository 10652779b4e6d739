//! Solves random cosets of `H = <U, D, R2, L2, F2, B2>` whole, with the
//! coset solver, and prints each one's distance distribution and timings.
//!
//! ```text
//! cargo run -p twistor-cube333 --release --example coset_bench -- N SEED [PHASE1_DEPTH]
//! ```
//!
//! Each coset is that of a random cube from the seeded generator, solved to
//! depth 20 or until every position is found. The phase-1 table (70 MB)
//! comes from the user's cache directory, built there the first time; the
//! dense sets (6.5 GB) are reused from one coset to the next.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use twistor_core::random::SeededRng;
use twistor_cube333::{
    CosetEvent, CosetId, CosetOptions, CosetSolver, CosetWorkspace, CubieCube, DEFAULT_PHASE1_DEPTH,
};
use twistor_store::{default_cache_dir, DirStore};

/// The most memory this process has held (Linux's VmHWM), in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn gb(bytes: u64) -> f64 {
    bytes as f64 / 1e9
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 || args.len() > 3 {
        eprintln!("usage: coset_bench N SEED [PHASE1_DEPTH (default {DEFAULT_PHASE1_DEPTH})]");
        std::process::exit(2);
    }
    let n: usize = args[0].parse()?;
    let seed: u64 = args[1].parse()?;
    let phase1_depth: usize = match args.get(2) {
        Some(d) => d.parse()?,
        None => DEFAULT_PHASE1_DEPTH,
    };
    let store = DirStore::new(default_cache_dir().unwrap_or_else(std::env::temp_dir));
    let t = Instant::now();
    let solver = CosetSolver::load(&store, &mut |e| eprintln!("{e}"));
    println!(
        "tables: {:.1} MB in {:.2} s; phase-1 depth {phase1_depth}, {} threads",
        solver.size_bytes() as f64 / 1e6,
        t.elapsed().as_secs_f64(),
        rayon::current_num_threads()
    );
    let options = CosetOptions {
        phase1_depth,
        ..Default::default()
    };
    let mut rng = SeededRng::new(seed);
    let stop = AtomicBool::new(false);
    // The dense sets (6.5 GB) are kept from one coset to the next.
    let mut workspace = CosetWorkspace::new();
    for i in 0..n {
        let g = CubieCube::random(|| rng.next_u64());
        let id = CosetId::of(&g);
        let (canonical, _) = id.canonical();
        println!();
        println!(
            "coset {}: {id} (index {}; canonical {canonical}, {} conjugates)",
            i + 1,
            id.index(),
            id.class_size()
        );
        println!(
            "{:>5} {:>12} {:>12} {:>6} {:>12} {:>9} {:>9}  sets",
            "depth", "count", "found", "exact", "phase-1 sols", "phase-1 s", "depth s"
        );
        let report = solver.solve_in(
            &mut workspace,
            &g,
            &options,
            &mut |e| match e {
                CosetEvent::Dense { depth, bytes } => {
                    println!(
                        "      dense bitmaps from depth {depth}: {:.2} GB",
                        gb(bytes)
                    )
                }
                CosetEvent::Depth(d) => println!(
                    "{:>5} {:>12} {:>12} {:>6} {:>12} {:>9.2} {:>9.2}  {}",
                    d.depth,
                    d.count,
                    d.found,
                    if d.exact { "yes" } else { "<=" },
                    d.phase1_leaves,
                    d.phase1_seconds,
                    d.seconds,
                    if d.dense { "dense" } else { "sparse" }
                ),
            },
            &stop,
        )?;
        println!(
            "total {:.1} s; exact through depth {}; {} positions not found; \
             sets {:.2} GB; peak RSS {}",
            report.total_seconds,
            report
                .exact_through
                .map_or("none".to_string(), |d| d.to_string()),
            report.remaining,
            gb(report.peak_bytes),
            peak_rss().map_or("unknown".to_string(), |b| format!("{:.2} GB", gb(b)))
        );
    }
    Ok(())
}
