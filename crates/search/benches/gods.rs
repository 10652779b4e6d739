//! Criterion benchmarks of God's algorithm: the 2x2x2 `<U,F,R>` in the
//! face-turn metric (3,674,160 positions) on bit arrays, on sorted arrays,
//! and by products, on two threads. The side-by-side runs against twsearch
//! time whole processes from outside; these track the engines themselves.

mod common;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use twistor_search::gods::{self, GodsControl, GodsMethod, GodsOptions, Storage};
use twistor_search::{Metric, MoveSet};

fn two_by_two(c: &mut Criterion) {
    let Some(puzzle) = common::shared_2x2x2() else {
        return;
    };
    let names: Vec<String> = ["U", "F", "R"].map(String::from).to_vec();
    let Ok(moves) = MoveSet::named(&puzzle, &names, Metric::Htm) else {
        return;
    };
    let mut group = c.benchmark_group("gods 2x2x2 <U,F,R>");
    group.sample_size(10);
    for (name, storage, method) in [
        ("bit arrays", Storage::BitArray, GodsMethod::BreadthFirst),
        (
            "sorted arrays",
            Storage::SortedArray,
            GodsMethod::BreadthFirst,
        ),
        (
            "products a=10",
            Storage::Auto,
            GodsMethod::Products {
                stored_depth: Some(10),
            },
        ),
    ] {
        let options = GodsOptions {
            storage,
            method,
            threads: 2,
            ..GodsOptions::default()
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let r = gods::enumerate(&puzzle, &moves, &options, GodsControl::default());
                black_box(r.map(|r| r.table.total()).unwrap_or(0))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, two_by_two);
criterion_main!(benches);
