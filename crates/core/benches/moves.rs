//! Criterion benchmarks of the model's hot paths: applying a move to a
//! state (`Layout::compose_into`, and the move's sparse form as the
//! searches apply it) on the 3x3x3, the megaminx and the 4x4x4, and the
//! order of the group the moves generate (Schreier–Sims, as `twistor
//! info` computes it) on the megaminx and the 5x5x5.
//!
//! The definitions are the reference puzzles of `../shared/puzzles/tws`;
//! without them the benchmarks say so and measure nothing.
//!
//! `cargo bench -p twistor-core --bench moves` (criterion prints the time
//! per move and moves per second as "thrpt").

use std::path::PathBuf;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use twistor_core::random::SeededRng;
use twistor_core::Puzzle;

/// Reads `../shared/puzzles/tws/NAME.tws`, if the checkout has it.
fn reference(name: &str) -> Option<Puzzle> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/puzzles/tws")
        .join(format!("{name}.tws"));
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("{}: absent, benchmark on {name} skipped", path.display());
        return None;
    };
    let text = String::from_utf8_lossy(&bytes);
    match twistor_formats::read_puzzle(&text, &path.display().to_string()) {
        Ok(p) => Some(p),
        Err(e) => panic!("{e}"),
    }
}

/// A fixed pseudo-random sequence of move indices.
fn random_moves(count: usize, num_moves: usize, seed: u64) -> Vec<usize> {
    let mut rng = SeededRng::new(seed);
    (0..count).map(|_| rng.below(num_moves)).collect()
}

fn move_application(c: &mut Criterion) {
    let mut group = c.benchmark_group("compose_into");
    group.throughput(Throughput::Elements(1));
    for name in ["3x3x3", "megaminx", "4x4x4"] {
        let Some(puzzle) = reference(name) else {
            continue;
        };
        let layout = puzzle.layout();
        // Every power of every search move, as a search applies them.
        let moves: Vec<Vec<u8>> = puzzle
            .search_moves()
            .into_iter()
            .flat_map(|i| puzzle.move_powers(i))
            .map(|p| p.transformation.as_bytes().to_vec())
            .collect();
        let sparse: Vec<_> = moves.iter().map(|m| layout.sparse(m)).collect();
        let sequence = random_moves(4096, moves.len(), 7);
        let mut state = puzzle.start().as_bytes().to_vec();
        let mut next = vec![0u8; layout.state_len()];
        let mut i = 0usize;
        group.bench_function(format!("{name} ({} bytes)", layout.state_len()), |b| {
            b.iter(|| {
                let m = &moves[sequence[i & 4095]];
                i = i.wrapping_add(1);
                layout.compose_into(black_box(&state), black_box(m), &mut next);
                std::mem::swap(&mut state, &mut next);
            })
        });
        // The same moves in their sparse form, as the searches apply them.
        group.bench_function(format!("{name} sparse"), |b| {
            b.iter(|| {
                let m = &sparse[sequence[i & 4095]];
                i = i.wrapping_add(1);
                black_box(m).apply(black_box(&state), &mut next);
                std::mem::swap(&mut state, &mut next);
            })
        });
        black_box(&state);
    }
    group.finish();
}

fn group_order(c: &mut Criterion) {
    let mut group = c.benchmark_group("group_order");
    group.sample_size(10);
    for name in ["megaminx", "5x5x5"] {
        let Some(puzzle) = reference(name) else {
            continue;
        };
        let gens = puzzle.search_moves();
        let order = puzzle.group_order(&gens);
        eprintln!("{name}: group order {order}");
        group.bench_function(name, |b| b.iter(|| black_box(puzzle.group_order(&gens))));
    }
    group.finish();
}

criterion_group!(benches, move_application, group_order);
criterion_main!(benches);
