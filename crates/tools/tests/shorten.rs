//! Shortening: the T-perm becomes 11 moves, windows shrink, positions stay.

use std::sync::atomic::AtomicBool;

use twistor_formats::alg::Alg;
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::{Metric, MoveSet, SolverOptions};
use twistor_tools::sequence::{expand, MoveTable, MOVE_LIMIT};
use twistor_tools::shorten::{ShortenOptions, Shortener};

#[test]
fn the_t_perm_shortens_to_eleven_moves() {
    let p = build("3x3x3", &PuzzleOptions::default())
        .unwrap()
        .into_puzzle();
    let stop = AtomicBool::new(false);
    let mut shortener = Shortener::new(
        &p,
        MoveSet::all(&p, Metric::Htm).unwrap(),
        &SolverOptions {
            memory_bytes: 16 << 20,
            threads: 2,
            ..Default::default()
        },
        &stop,
        &mut |_| {},
    )
    .unwrap();
    let mut table = MoveTable::new(&p);
    let options = ShortenOptions::default();
    let cases = [
        ("R U R' U' R' F R2 U' R' U' R U R' F'", 11),
        ("R U U' R2 F F'", 1),
        ("R U R' U R U2 R'", 7),
        ("R R R U", 2),
    ];
    for (alg, want) in cases {
        let moves = expand(&alg.parse::<Alg>().unwrap(), MOVE_LIMIT).unwrap();
        let (out, report) = shortener.shorten(&mut table, &moves, &options).unwrap();
        assert_eq!(out.len(), want, "{alg} -> {out:?}");
        assert_eq!(report.windows_given_up, 0);
        assert_eq!(
            table.sequence_transformation(&moves).unwrap(),
            table.sequence_transformation(&out).unwrap(),
            "{alg}"
        );
    }
}
