//! Criterion benchmarks: two-phase solves of random cubes at target
//! lengths 21 and 20 with each size of table, optimal solves with the
//! portable and the AVX2 kernel (what the optimal search's `unsafe` SIMD
//! buys), setting the two-phase tables up, and table-free cube
//! operations.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use twistor_core::random::SeededRng;
use twistor_cube333::CubieCube;
use twistor_cube333::{solve_two_phase as solve, TwoPhaseOptions, TwoPhaseTables};
use twistor_cube333::{FaceTurn, OptimalOptions, OptimalSolver, OptimalTableKind};
use twistor_store::{default_cache_dir, DirStore};

fn two_phase(c: &mut Criterion) {
    let store = DirStore::new(default_cache_dir().unwrap_or_else(std::env::temp_dir));
    let sizes = [
        ("full", TwoPhaseTables::load(&store, &mut |_| {})),
        ("medium", TwoPhaseTables::medium(&store, &mut |_| {})),
        ("compact", TwoPhaseTables::compact()),
    ];
    let mut rng = SeededRng::new(42);
    let cubes: Vec<CubieCube> = (0..64)
        .map(|_| CubieCube::random(|| rng.next_u64()))
        .collect();
    for (size, tables) in &sizes {
        for target in [21usize, 20] {
            let opts = TwoPhaseOptions {
                max_length: target,
                ..Default::default()
            };
            let mut i = 0;
            c.bench_function(
                &format!("two-phase random cube, max length {target}, {size} tables"),
                |b| {
                    b.iter(|| {
                        i = (i + 1) % cubes.len();
                        black_box(solve(tables, &cubes[i], &opts).map(|s| s.moves.len()))
                    })
                },
            );
        }
    }
}

/// Optimal solves of 10-move scrambles with the phase-1 table (built in
/// seconds; the huge one would take minutes), on one thread, turning the
/// cube byte by byte and with AVX2 shuffles.
fn optimal(c: &mut Criterion) {
    let store = DirStore::new(default_cache_dir().unwrap_or_else(std::env::temp_dir));
    let solver = OptimalSolver::load(OptimalTableKind::Small, &store, &mut |_| {});
    let mut rng = SeededRng::new(10);
    let cubes: Vec<CubieCube> = (0..8)
        .map(|_| {
            let moves: Vec<FaceTurn> = (0..10)
                .map(|_| FaceTurn::from_index(rng.next_u64() as usize % 18))
                .collect();
            CubieCube::from_moves(&moves)
        })
        .collect();
    for portable in [true, false] {
        let opts = OptimalOptions {
            single_thread: true,
            portable,
            ..Default::default()
        };
        let kernel = if portable {
            "portable"
        } else {
            "AVX2 where available"
        };
        let mut i = 0;
        c.bench_function(
            &format!("optimal 10-move scramble, small table, {kernel}"),
            |b| {
                b.iter(|| {
                    i = (i + 1) % cubes.len();
                    black_box(solver.solve(&cubes[i], &opts).moves.len())
                })
            },
        );
    }
}

/// A process's start once its coordinate tables are made: the compact
/// tables built in memory, and the medium ones read from the store (kept
/// there by the first iteration).
fn table_setup(c: &mut Criterion) {
    let store = DirStore::new(default_cache_dir().unwrap_or_else(std::env::temp_dir));
    c.bench_function("two-phase tables set up, compact (built)", |b| {
        b.iter(|| black_box(TwoPhaseTables::compact().size_bytes()))
    });
    c.bench_function("two-phase tables set up, medium (stored)", |b| {
        b.iter(|| black_box(TwoPhaseTables::medium(&store, &mut |_| {}).size_bytes()))
    });
}

fn cube_ops(c: &mut Criterion) {
    let mut rng = SeededRng::new(1);
    let a = CubieCube::random(|| rng.next_u64());
    let b = CubieCube::random(|| rng.next_u64());
    c.bench_function("cubie multiply", |bch| {
        bch.iter(|| black_box(&a).multiply(black_box(&b)))
    });
    let s = a.to_string();
    c.bench_function("facelets to cubie", |bch| {
        bch.iter(|| black_box(&s).parse::<CubieCube>())
    });
}

criterion_group!(benches, cube_ops, table_setup, two_phase, optimal);
criterion_main!(benches);
