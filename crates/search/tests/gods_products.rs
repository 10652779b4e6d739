//! Bryan's products method against breadth-first search: the same
//! distances and the same local maxima from the Ends-with sets.

mod support;

use support::{cube2, geometry, loopover3, move_set, two_colour_cube2};

use twistor_core::Puzzle;
use twistor_search::gods::{
    self, Engine, GodsControl, GodsError, GodsMethod, GodsOptions, GodsReport, Storage,
};
use twistor_search::{Metric, MoveSet};

fn run(p: &Puzzle, moves: &MoveSet, method: GodsMethod) -> GodsReport {
    let options = GodsOptions {
        local_maxima: true,
        method,
        storage: Storage::BitArray,
        threads: 2,
        ..GodsOptions::default()
    };
    gods::enumerate(p, moves, &options, GodsControl::default()).unwrap()
}

fn products(a: usize) -> GodsMethod {
    GodsMethod::Products {
        stored_depth: Some(a),
    }
}

/// The 2x2x2 in the face-turn metric: depths 10 and 11 as products of a
/// stored depth 9 with depths 1 and 2.
#[test]
fn products_match_breadth_first_on_the_two_by_two_face_turns() {
    let p = cube2();
    let ms = move_set(&p, Some("U,F,R"), Metric::Htm);
    let bfs = run(&p, &ms, GodsMethod::BreadthFirst);
    let prod = run(&p, &ms, products(9));
    assert_eq!(prod.plan.engine, Engine::Products);
    assert_eq!(prod.table, bfs.table);
    // The unions alone (Bryan's E2) never find more local maxima than
    // there are, and find them all at the depths stored breadth-first.
    let union = prod.union_local_maxima.as_ref().unwrap();
    let exact = prod.table.local_maxima.as_ref().unwrap();
    assert!(union.iter().zip(exact).all(|(u, e)| u <= e));
    assert_eq!(union[..10], exact[..10]);
    // The published counts, so neither side can be wrong the same way.
    assert_eq!(
        prod.table.local_maxima.as_deref(),
        Some(&[0, 0, 0, 0, 11, 8, 96, 904, 13212, 413392, 604516, 2644][..])
    );
}

/// The 2x2x2 in the quarter-turn metric: depths 13 and 14 as products.
#[test]
fn products_match_breadth_first_on_the_two_by_two_quarter_turns() {
    let p = cube2();
    let ms = move_set(&p, Some("U,F,R"), Metric::Qtm);
    let bfs = run(&p, &ms, GodsMethod::BreadthFirst);
    let prod = run(&p, &ms, products(12));
    assert_eq!(prod.table, bfs.table);
    assert_eq!(
        prod.table
            .local_maxima
            .as_ref()
            .map(|v| v.iter().sum::<u64>()),
        Some(527_049)
    );
}

/// Small puzzles where most depths are products, and where `a` doubles.
#[test]
fn products_match_breadth_first_on_small_puzzles() {
    for (name, moves, metric, a) in [
        ("pyramorphix", None, Metric::Htm, 1),
        ("pyramorphix", None, Metric::Qtm, 2),
        ("LoopOver 3x3", None, Metric::Htm, 6),
        ("LoopOver 3x3", None, Metric::Htm, 3),
        ("2x2x2", Some("U,R"), Metric::Htm, 3),
        ("2x2x2", Some("U,R"), Metric::Qtm, 4),
        ("skewb diamond", None, Metric::Htm, 9),
        ("master pyramorphix", None, Metric::Htm, 13),
    ] {
        let p = match name {
            "LoopOver 3x3" => loopover3(),
            "2x2x2" => cube2(),
            _ => geometry(name),
        };
        let ms = move_set(&p, moves, metric);
        let bfs = run(&p, &ms, GodsMethod::BreadthFirst);
        let prod = run(&p, &ms, products(a));
        assert_eq!(prod.table, bfs.table, "{name} {moves:?} {metric:?} a={a}");
    }
}

#[test]
fn products_refuse_identical_pieces() {
    let p = two_colour_cube2();
    let ms = MoveSet::all(&p, Metric::Htm).unwrap();
    let options = GodsOptions {
        method: products(2),
        ..GodsOptions::default()
    };
    assert!(matches!(
        gods::enumerate(&p, &ms, &options, GodsControl::default()),
        Err(GodsError::ProductsNeedTransformations)
    ));
}
