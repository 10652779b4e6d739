//! Recognising the 3x3x3 in definitions written other ways: positions
//! mapped to the cube, solved there and mapped back must solve the puzzle.

use twistor_core::random::SeededRng;
use twistor_core::Puzzle;
use twistor_cube333::CubeCorrespondence;
use twistor_cube333::{solve_two_phase as solve, TwoPhaseOptions, TwoPhaseTables};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::{build, PuzzleOptions};

fn grips(p: &Puzzle) -> Vec<usize> {
    p.search_moves()
}

fn check(puzzle: &Puzzle, tables: &TwoPhaseTables) {
    let corr = CubeCorrespondence::find(puzzle, &grips(puzzle)).expect("recognised as the 3x3x3");
    let layout = puzzle.layout();
    let names: Vec<String> = grips(puzzle)
        .iter()
        .map(|&i| puzzle.moves()[i].name.clone())
        .collect();
    let mut rng = SeededRng::new(0x1234_5678);
    for _ in 0..40 {
        // A random scramble in the definition's own move names.
        let mut text = Vec::new();
        for _ in 0..25 {
            let name = rng.pick(&names);
            let amount = rng.pick(&["", "2", "'"]);
            text.push(format!("{name}{amount}"));
        }
        let alg: Alg = text.join(" ").parse().unwrap();
        let t = alg_transformation(puzzle, &alg).unwrap();
        let position = layout.apply(puzzle.start(), &t);
        let cube = corr.cube(layout, &position).expect("a valid cube");
        let solution = solve(
            tables,
            &cube,
            &TwoPhaseOptions {
                max_length: 22,
                ..Default::default()
            },
        )
        .unwrap();
        let mut end = position.clone();
        for (index, amount) in corr.moves_back(&solution.moves) {
            end = layout.apply(
                &end,
                &layout.power(&puzzle.moves()[index].transformation, amount as i64),
            );
        }
        assert_eq!(end, *puzzle.start(), "{alg}");
    }
}

#[test]
fn cube_definitions_from_geometry_are_recognised_and_solved() {
    let dir = std::env::temp_dir().join("twistor-cube333-recognize-test");
    let tables = TwoPhaseTables::load(&twistor_store::DirStore::new(dir), &mut |_| {});
    let cube = build("3x3x3", &PuzzleOptions::default())
        .unwrap()
        .into_puzzle();
    check(&cube, &tables);
    // The same cube written to .tws and read back (other numbering, ksolve moves).
    let text = twistor_formats::tws::write_tws(&cube).unwrap();
    let reread = twistor_formats::read_puzzle(&text, "cube.tws").unwrap();
    check(&reread, &tables);
}

#[test]
fn other_puzzles_are_not_taken_for_the_cube() {
    for name in ["2x2x2", "4x4x4", "skewb", "megaminx"] {
        let p = build(name, &PuzzleOptions::default())
            .unwrap()
            .into_puzzle();
        assert!(CubeCorrespondence::find(&p, &grips(&p)).is_none(), "{name}");
    }
}
