//! The solver's tables, scrambles and random states, checked against the
//! published sq12phase numbers and against the puzzle itself.

use twistor_core::random::SeededRng;
use twistor_core::random::{chi_square, chi_square_critical};
use twistor_square1::{
    format_moves, invert_moves, parse_moves, Square1Error, Square1Move, Square1Position,
    Square1Solver, LAYOUT_COUNT,
};

fn assert_uniform(name: &str, counts: &[u64]) {
    let stat = chi_square(counts);
    let crit = chi_square_critical(counts.len() - 1);
    assert!(stat < crit, "{name}: chi-square {stat:.1} >= {crit:.1}");
}

#[test]
fn shape_pruning_histogram_matches_sq12phase() {
    let solver = Square1Solver::new();
    let published = [
        4, 2, 10, 12, 58, 42, 60, 130, 246, 604, 1240, 1708, 1872, 899, 411, 50, 4, 2, 2,
    ];
    assert_eq!(solver.shape_depth_histogram(), published);
    assert_eq!(published.iter().sum::<usize>(), 2 * LAYOUT_COUNT);
    // The corner table of phase 2 reaches all 8!·2·2·2 entries.
    assert_eq!(
        solver.square_depth_histogram().iter().sum::<usize>(),
        322_560
    );
}

#[test]
fn scrambles_reach_the_drawn_positions() {
    let solver = Square1Solver::new();
    let mut rng = SeededRng::new(20240617);
    let mut slashes = 0;
    for _ in 0..250 {
        let (position, scramble) = solver.random_scramble(&mut rng);
        let mut puzzle = Square1Position::solved();
        puzzle.apply_notation(&scramble).unwrap();
        assert_eq!(puzzle, position, "scramble {scramble}");
        assert_eq!(puzzle.slots(), position.slots());
        assert_eq!(puzzle.middle_flipped(), position.middle_flipped());

        // The notation follows TNoodle's rules: amounts in -5..=6, no
        // (0,0), never two tuples in a row, single spaces.
        let moves = parse_moves(&scramble).unwrap();
        for pair in moves.windows(2) {
            assert!(pair.contains(&Square1Move::Slash), "{scramble}");
        }
        for m in &moves {
            if let Square1Move::Turn { top, bottom } = *m {
                assert!((-5..=6).contains(&top) && (-5..=6).contains(&bottom));
                assert!((top, bottom) != (0, 0));
            }
        }
        assert_eq!(format_moves(&moves), scramble);
        assert!(!scramble.contains("  "));
        slashes += moves.iter().filter(|m| **m == Square1Move::Slash).count();

        // The solution solves.
        let mut back = position;
        back.apply_moves(&solver.solve(&position)).unwrap();
        assert!(back.is_solved());
    }
    // sq12phase averages 11.6 slashes.
    let average = slashes as f64 / 250.0;
    assert!((10.5..=12.5).contains(&average), "average {average}");
}

#[test]
fn solves_positions_where_the_slice_is_blocked() {
    let solver = Square1Solver::new();
    let mut rng = SeededRng::new(5);
    for _ in 0..20 {
        let mut position = Square1Position::random(&mut rng);
        position
            .apply_moves(&[Square1Move::Turn { top: 1, bottom: -1 }])
            .unwrap();
        let mut back = position;
        back.apply_moves(&solver.solve(&position)).unwrap();
        assert!(back.is_solved());
    }
    assert!(solver.solve(&Square1Position::solved()).is_empty());
    assert_eq!(solver.scramble(&Square1Position::solved()), "");
}

#[test]
fn random_positions_are_uniform() {
    let mut rng = SeededRng::new(99);
    let draws = LAYOUT_COUNT * 20;
    let mut layouts = vec![0u64; LAYOUT_COUNT];
    let mut slot0_corner = vec![0u64; 8];
    let mut slot0_edge = vec![0u64; 8];
    let mut slot15_corner = vec![0u64; 8];
    let mut slot15_edge = vec![0u64; 8];
    let mut middle = vec![0u64; 2];
    for _ in 0..draws {
        let p = Square1Position::random(&mut rng);
        layouts[p.layout_index().unwrap()] += 1;
        let s0 = p.piece(0).unwrap() as usize;
        if s0 < 8 {
            slot0_corner[s0] += 1;
        } else {
            slot0_edge[s0 - 8] += 1;
        }
        let s15 = p.piece(15).unwrap() as usize;
        if s15 < 8 {
            slot15_corner[s15] += 1;
        } else {
            slot15_edge[s15 - 8] += 1;
        }
        middle[usize::from(p.middle_flipped())] += 1;
    }
    assert_uniform("layout", &layouts);
    assert_uniform("corner in slot 0", &slot0_corner);
    assert_uniform("edge in slot 0", &slot0_edge);
    assert_uniform("corner in slot 15", &slot15_corner);
    assert_uniform("edge in slot 15", &slot15_edge);
    assert_uniform("middle layer", &middle);
    // Every bin was hit, so every layout is drawn.
    assert!(layouts.iter().all(|&c| c > 0));
}

#[test]
fn notation_round_trips_and_rejects_bad_text() {
    let text = "(1,0) / (-1,3) / (0,-3) / (6,6) /";
    let moves = parse_moves(text).unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(moves[0], Square1Move::Turn { top: 1, bottom: 0 });
    assert_eq!(format_moves(&moves), text);
    // Whitespace-tolerant, bare slashes, (0,0) and a final tuple.
    let loose = parse_moves("  ( 1 , 0 )/( -1,3)  /  / (0,0) / (2,+3)").unwrap();
    assert_eq!(format_moves(&loose), "(1,0) / (-1,3) / / (0,0) / (2,3)");
    assert_eq!(parse_moves("").unwrap(), vec![]);

    for bad in ["(1,0", "(1 0)", "1,0", "(a,0)", "(1,0) x", "(,1)", "((1,0)"] {
        assert!(
            matches!(parse_moves(bad), Err(Square1Error::Syntax { .. })),
            "{bad}"
        );
    }
    assert_eq!(
        parse_moves("(12,0)"),
        Err(Square1Error::AmountOutOfRange {
            offset: 1,
            value: 12
        })
    );

    // A sequence and its inverse cancel.
    let mut p = Square1Position::solved();
    p.apply_moves(&moves).unwrap();
    assert!(!p.is_solved());
    p.apply_moves(&invert_moves(&moves)).unwrap();
    assert!(p.is_solved());
}

#[test]
fn slash_direction_and_illegal_slashes() {
    // WCA direction check from the memo: (1,-1) / is legal, (-1,1) / is not.
    let mut p = Square1Position::solved();
    assert!(p.apply_notation("(1,-1) /").is_ok());
    assert!(p.middle_flipped());

    let mut q = Square1Position::solved();
    assert_eq!(
        q.apply_notation("(-1,1) /"),
        Err(Square1Error::IllegalSlash { index: 1 })
    );
    // A refused sequence leaves the position as it was.
    assert!(q.is_solved());
    assert_eq!(
        q.apply_notation("/ (1,0) / (0,0) /"),
        Err(Square1Error::IllegalSlash { index: 2 })
    );
    assert!(q.is_solved());

    // (1,0) moves the piece in top slot i to i+1; (0,1) likewise below.
    let mut r = Square1Position::solved();
    r.apply_notation("(1,0)").unwrap();
    assert_eq!(r.piece(0), Some(11));
    assert_eq!(r.piece(1), Some(0));
    assert_eq!(r.piece(2), Some(0));
    assert!(r.layout_index().is_some());
    r.apply_notation("(-2,0)").unwrap();
    assert_eq!(r.piece(11), Some(0));
    assert_eq!(r.piece(0), Some(0));
    assert!(r.layout_index().is_none());
    let mut r = Square1Position::solved();
    r.apply_notation("(0,1)").unwrap();
    assert_eq!(r.piece(12), Some(7));
    assert_eq!(r.piece(13), Some(12));

    // `/` swaps slots 6..12 with 12..18.
    let mut s = Square1Position::solved();
    s.apply_notation("/").unwrap();
    assert_eq!(s.piece(6), Some(12));
    assert_eq!(s.piece(12), Some(2));
    assert_eq!(s.piece(17), Some(11));
    assert_eq!(s.piece(11), Some(5));
}
