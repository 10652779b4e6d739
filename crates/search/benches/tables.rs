//! Criterion benchmarks of pattern database fills: the exact table of the
//! 2x2x2 with all six faces (88,179,840 entries, 42 MiB), filled as a
//! cold solve starts it (to distance 5), and completely for `<U,F,R>`;
//! and the two tables a cold `solve 3x3x3.tws --moves F,R,D,B,L` at
//! `-M 512` fills to distance 7 (corners with their twists, 44 MiB; six
//! edges with their flips, 21 MiB, whose move tables are split; that one
//! also to distance 8, as the next warm solve grows it, and complete); and the
//! hashed table of whole 4x4x4 positions within 7 moves of `<2L,2R,U,F>`
//! (256 MiB), as a solve of the dedge flip fills it at `-M 512`.
//!
//! The first justifies the zeroed, huge-page allocation in `table.rs`:
//! writing every word of a fresh table first, and faulting its pages in
//! 4 KiB at a time, made this fill 68 ms instead of 41 ms when it was
//! measured (the whole cold run of 100 random 2x2x2 positions went from
//! 0.20 s to 0.13 s).

mod common;

use std::sync::atomic::AtomicBool;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use twistor_core::Transformation;
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::hashed::{HashedFill, HashedTable};
use twistor_search::projection::{OrbitSelection, Projection};
use twistor_search::{CanonicalFsm, FillLimit, Metric, MoveSet, PruneTable};

fn two_by_two(c: &mut Criterion) {
    let Some(puzzle) = common::shared_2x2x2() else {
        return;
    };
    let mut group = c.benchmark_group("tables 2x2x2");
    group.sample_size(10);
    for (name, faces, depth) in [
        (
            "six faces to distance 5",
            &["U", "D", "F", "B", "L", "R"][..],
            5,
        ),
        ("<U,F,R> complete", &["U", "F", "R"][..], 15),
    ] {
        let names: Vec<String> = faces.iter().map(|s| s.to_string()).collect();
        let Ok(moves) = MoveSet::named(&puzzle, &names, Metric::Htm) else {
            return;
        };
        let generators: Vec<&Transformation> =
            moves.moves().iter().map(|m| &m.transformation).collect();
        let Some(projection) = Projection::exact(puzzle.layout(), puzzle.start(), &generators)
        else {
            return;
        };
        group.bench_function(name, |b| {
            b.iter(|| black_box(fill_to(&puzzle, &projection, &moves, depth)))
        });
    }
    group.finish();
}

/// Fills `projection` from the start with `moves` to `depth`, layer by
/// layer as a solve grows it, on two threads.
fn fill_to(
    puzzle: &twistor_core::Puzzle,
    projection: &Projection,
    moves: &MoveSet,
    depth: u8,
) -> usize {
    let stop = AtomicBool::new(false);
    let mut table = PruneTable::build(
        puzzle.layout(),
        projection.clone(),
        puzzle.start(),
        moves,
        2,
        FillLimit::Work(0),
        &stop,
        &mut |_| {},
    )
    .expect("not stopped");
    while table.filled_depth() < depth && !table.is_complete() {
        let next = table.next_layer_work(moves.moves().len());
        table.extend(
            puzzle.layout(),
            moves,
            2,
            FillLimit::Work(next),
            &stop,
            &mut |_| {},
        );
    }
    table.histogram().len()
}

fn three_by_three(c: &mut Criterion) {
    let puzzle = build("3x3x3", &PuzzleOptions::default())
        .expect("the 3x3x3 builds")
        .into_puzzle();
    let names: Vec<String> = ["F", "R", "D", "B", "L"].map(String::from).to_vec();
    let moves = MoveSet::named(&puzzle, &names, Metric::Htm).expect("outer turns");
    let orbit = |name: &str| {
        (puzzle.layout().orbits().iter())
            .position(|o| o.name() == name)
            .expect("the orbit")
    };
    let mut group = c.benchmark_group("tables 3x3x3 <F,R,D,B,L>");
    group.sample_size(10);
    let corners = OrbitSelection {
        orbit: orbit("CORNERS"),
        ids: (0..8).collect(),
        orientation: true,
    };
    let edges = OrbitSelection {
        orbit: orbit("EDGES"),
        ids: (0..6).collect(),
        orientation: true,
    };
    // Distance 8 of the edges is the layer a warm solve adds; past 7 the
    // frontier is large enough that which direction a layer is filled in
    // decides its cost.
    for (name, selection, depth) in [
        ("corners+twist to distance 7", &corners, 7),
        ("6 edges+flip to distance 7", &edges, 7),
        ("6 edges+flip to distance 8", &edges, 8),
        ("6 edges+flip complete", &edges, 15),
    ] {
        let twist_invariant = vec![true; puzzle.layout().orbits().len()];
        let projection = Projection::new(
            puzzle.layout(),
            puzzle.start(),
            std::slice::from_ref(selection),
            &twist_invariant,
        )
        .expect("fits");
        group.bench_function(name, |b| {
            b.iter(|| black_box(fill_to(&puzzle, &projection, &moves, depth)))
        });
    }
    group.finish();
}

fn hashed_four_by_four(c: &mut Criterion) {
    let puzzle = build("4x4x4", &PuzzleOptions::default())
        .expect("the 4x4x4 builds")
        .into_puzzle();
    let names: Vec<String> = ["2L", "2R", "U", "F"].map(String::from).to_vec();
    let moves = MoveSet::named(&puzzle, &names, Metric::Htm).expect("4x4x4 turns");
    let fsm = CanonicalFsm::new(&moves).expect("an automaton");
    let stop = AtomicBool::new(false);
    let fill = HashedFill {
        entries: 1 << 29,
        depth: 7,
        threads: 2,
    };
    let mut group = c.benchmark_group("hashed 4x4x4 <2L,2R,U,F>");
    group.sample_size(10);
    group.bench_function("positions within 7 moves", |b| {
        b.iter(|| {
            let t = HashedTable::build(
                puzzle.layout(),
                puzzle.start(),
                &moves,
                &fsm,
                None,
                fill,
                &stop,
            );
            black_box(t.map(|t| t.bytes()))
        })
    });
    group.finish();
}

criterion_group!(benches, two_by_two, three_by_three, hashed_four_by_four);
criterion_main!(benches);
