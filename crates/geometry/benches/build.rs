//! Criterion benchmarks: building every named puzzle (geometry, pieces,
//! orbits and the definition with all its move transformations), with
//! PuzzleGeometry's command-line defaults and with all moves, and the two
//! extremes on their own.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use twistor_geometry::{build, PuzzleOptions, NAMED_PUZZLES};

fn all_named(options: &PuzzleOptions) -> usize {
    NAMED_PUZZLES
        .iter()
        .map(|(name, _)| {
            build(name, options)
                .expect("named puzzles build")
                .puzzle()
                .moves()
                .len()
        })
        .sum()
}

fn named_puzzles(c: &mut Criterion) {
    let mut g = c.benchmark_group("build");
    g.sample_size(20);
    let default = PuzzleOptions::default();
    let all = PuzzleOptions {
        all_moves: true,
        ..Default::default()
    };
    g.bench_function("all 72 named puzzles, default options", |b| {
        b.iter(|| black_box(all_named(&default)))
    });
    g.bench_function("all 72 named puzzles, all moves", |b| {
        b.iter(|| black_box(all_named(&all)))
    });
    g.bench_function("40x40x40", |b| {
        b.iter(|| black_box(build("40x40x40", &default).map(|p| p.puzzle().moves().len())))
    });
    g.bench_function("megaminx", |b| {
        b.iter(|| black_box(build("megaminx", &default).map(|p| p.puzzle().moves().len())))
    });
    g.finish();
}

criterion_group!(benches, named_puzzles);
criterion_main!(benches);
