//! Criterion benchmarks: two-phase solves of random cubes at target
//! lengths 21 and 20, and table-free cube operations.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use twistor_core::random::SeededRng;
use twistor_cube333::CubieCube;
use twistor_cube333::{solve_two_phase as solve, TwoPhaseOptions, TwoPhaseTables};
use twistor_store::{default_cache_dir, DirStore};

fn two_phase(c: &mut Criterion) {
    let store = DirStore::new(default_cache_dir().unwrap_or_else(std::env::temp_dir));
    let tables = TwoPhaseTables::load(&store, &mut |_| {});
    let mut rng = SeededRng::new(42);
    let cubes: Vec<CubieCube> = (0..64)
        .map(|_| CubieCube::random(|| rng.next_u64()))
        .collect();
    for target in [21usize, 20] {
        let opts = TwoPhaseOptions {
            max_length: target,
            ..Default::default()
        };
        let mut i = 0;
        c.bench_function(
            &format!("two-phase random cube, max length {target}"),
            |b| {
                b.iter(|| {
                    i = (i + 1) % cubes.len();
                    black_box(solve(&tables, &cubes[i], &opts).map(|s| s.moves.len()))
                })
            },
        );
    }
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

criterion_group!(benches, cube_ops, two_phase);
criterion_main!(benches);
