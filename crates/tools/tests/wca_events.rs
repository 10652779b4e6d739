//! The WCA's other cube events, as TNoodle writes them: blindfolded
//! scrambles end in a random whole-cube orientation, fewest-moves ones are
//! padded with `R' U' F`, and nothing cancels across the seams. Every
//! scramble is applied to the cube to check what it reaches.

use twistor_core::Puzzle;
use twistor_cube333::CubieCube;
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::{build, PuzzleOptions};
use twistor_tools::scramble::{Event, Scrambler, FMC_PADDING};

mod support;

fn scrambles(event: &str, n: usize) -> Vec<String> {
    let options = support::scramble_options();
    let event = Event::parse(event).unwrap();
    let mut s = Scrambler::new(event, 5, &options, &mut |_| {}).unwrap();
    (0..n).map(|_| s.next_scramble().alg).collect()
}

fn cube(name: &str) -> Puzzle {
    build(name, &PuzzleOptions::for_notation())
        .unwrap()
        .into_puzzle()
}

fn axis(token: &str) -> char {
    match token
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .chars()
        .next()
    {
        Some('U' | 'D' | 'y') => 'y',
        Some('R' | 'L' | 'x') => 'x',
        _ => 'z',
    }
}

/// Splits a scramble into its face turns and the orientation turns that
/// end it (those in `orientation`).
fn split<'a>(alg: &'a str, orientation: &[&str]) -> (Vec<&'a str>, Vec<&'a str>) {
    let tokens: Vec<&str> = alg.split_whitespace().collect();
    let is_orientation = |t: &str| orientation.contains(&t.trim_end_matches(['2', '\'']));
    let cut = tokens
        .iter()
        .rposition(|t| !is_orientation(t))
        .map_or(0, |i| i + 1);
    (tokens[..cut].to_vec(), tokens[cut..].to_vec())
}

#[test]
fn blindfolded_3x3x3_ends_in_a_random_orientation_that_cancels_nothing() {
    let puzzle = cube("3x3x3");
    let mut orientations = std::collections::BTreeSet::new();
    for alg in scrambles("333bf", 60) {
        let (body, turns) = split(&alg, &["Rw", "Fw", "Uw"]);
        assert!(turns.len() <= 2, "{alg}");
        if let (Some(first), Some(last)) = (turns.first(), body.last()) {
            assert_ne!(axis(first), axis(last), "{alg}: cancels into {first}");
        }
        if turns.len() == 2 {
            assert!(turns[1].starts_with("Uw"), "{alg}");
        }
        // The body is a face-turn scramble of a random state; the whole
        // alg reads on the cube.
        assert!(body.iter().all(|t| "URFDLB".contains(&t[..1])), "{alg}");
        let alg_parsed: Alg = alg.parse().unwrap();
        alg_transformation(&puzzle, &alg_parsed).unwrap();
        orientations.insert(turns.join(" "));
    }
    // 24 orientations drawn uniformly: 60 draws see most of them.
    assert!(orientations.len() >= 12, "{orientations:?}");
}

#[test]
fn fewest_moves_is_padded_with_r_u_f_and_nothing_cancels_into_it() {
    for alg in scrambles("333fm", 30) {
        let body = alg
            .strip_prefix(FMC_PADDING)
            .and_then(|a| a.strip_suffix(FMC_PADDING))
            .unwrap_or_else(|| panic!("{alg}"))
            .trim();
        let moves: Vec<&str> = body.split_whitespace().collect();
        assert_ne!(axis(moves[0]), 'z', "{alg}: its first move cancels into F");
        assert_ne!(
            axis(moves[moves.len() - 1]),
            'x',
            "{alg}: its last move cancels into R'"
        );
        // The body is a solution, backwards, of a random state: it reaches a
        // cube that is not solved, within 23 moves.
        assert!(moves.len() <= 23, "{alg}");
        let seq = twistor_tools::cube::face_turns(body).unwrap();
        assert!(!CubieCube::from_moves(&seq.0).is_solved());
    }
}

#[test]
fn big_cube_blindfolded_ends_in_rotations_or_wide_turns() {
    for (event, puzzle, turns) in [
        ("444bf", "4x4x4", ["x", "z", "y"]),
        ("555bf", "5x5x5", ["3Rw", "3Fw", "3Uw"]),
    ] {
        let puzzle = cube(puzzle);
        let mut ended = 0;
        for alg in scrambles(event, 20) {
            let (body, tail) = split(&alg, &turns);
            assert!(tail.len() <= 2 && body.len() >= 40, "{event}: {alg}");
            ended += usize::from(!tail.is_empty());
            let parsed: Alg = alg.parse().unwrap();
            alg_transformation(&puzzle, &parsed).unwrap();
        }
        // 23 of 24 orientations need a turn.
        assert!(ended >= 15, "{event}: only {ended} of 20 reoriented");
    }
}

#[test]
fn one_handed_and_multi_blind_are_their_3x3x3_events() {
    assert_eq!(scrambles("333oh", 3), scrambles("333", 3));
    assert_eq!(scrambles("333mbf", 3), scrambles("333bf", 3));
}

#[test]
fn puzzle_names_find_their_main_event() {
    assert_eq!(Event::parse("4x4x4").unwrap(), Event::parse("444").unwrap());
    assert_eq!(Event::parse("3x3x3").unwrap(), Event::parse("333").unwrap());
    assert_eq!(Event::parse("5x5x5").unwrap(), Event::parse("555").unwrap());
}

#[test]
fn megaminx_scrambles_are_laid_out_in_the_wcas_seven_rows() {
    let event = Event::parse("minx").unwrap();
    for s in scrambles("minx", 5) {
        let rows = event.rows(&s);
        let rows: Vec<&str> = rows.lines().collect();
        assert_eq!(rows.len(), 7, "{s}");
        for row in &rows {
            let words: Vec<&str> = row.split_whitespace().collect();
            // Ten R and D turns, then U or U'.
            assert_eq!(words.len(), 11, "{row}");
            assert!(matches!(*words.last().unwrap(), "U" | "U'"), "{row}");
        }
        assert_eq!(rows.join(" "), s);
    }
    // Other events stay on one row.
    let cube = Event::parse("333").unwrap();
    assert_eq!(cube.rows("R U F2"), "R U F2");
}
