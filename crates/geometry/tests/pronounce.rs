//! The rotation-surface model: pronounceable notation, its translation to
//! and from SiGN on cubes, and the position matrix.

use twistor_core::random::SeededRng;
use twistor_core::Transformation;
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::pronounce::{Part, RotationModel};
use twistor_geometry::{build, GeneratedPuzzle, PuzzleOptions};

fn cube(name: &str) -> GeneratedPuzzle {
    build(
        name,
        &PuzzleOptions {
            keep_still_orbits: true,
            notation_rotations: true,
            ..Default::default()
        },
    )
    .unwrap()
}

fn sign(gp: &GeneratedPuzzle, alg: &str) -> Transformation {
    alg_transformation(gp.puzzle(), &alg.parse::<Alg>().unwrap()).unwrap()
}

fn spoken(gp: &GeneratedPuzzle, text: &str) -> Transformation {
    let m = RotationModel::new(gp);
    m.transformation(gp, &m.parse(text).unwrap())
}

#[test]
fn the_spec_examples_mean_what_cubers_mean() {
    let gp = cube("3x3x3");
    // "Simple SAM", and the two three-cycles the spec gives.
    assert_eq!(spoken(&gp, "RE TA RA TE"), sign(&gp, "R U' R' U"));
    assert_eq!(
        spoken(&gp, "RA TE LE TA RE TE LA TA"),
        sign(&gp, "R' U L U' R U L' U'")
    );
    assert_eq!(
        spoken(&gp, "RE TE RA TE RE TE TE RA"),
        sign(&gp, "R U R' U R U2 R'")
    );
    // Under, block and slice turns.
    assert_eq!(spoken(&gp, "REU"), sign(&gp, "l'"));
    assert_eq!(spoken(&gp, "RUE"), sign(&gp, "l'"));
    assert_eq!(spoken(&gp, "ROE"), sign(&gp, "x"));
    assert_eq!(spoken(&gp, "RIE"), sign(&gp, "M'"));
    assert_eq!(spoken(&gp, "TAI"), sign(&gp, "E"));
    assert_eq!(spoken(&gp, "FEI"), sign(&gp, "S"));
}

#[test]
fn surfaces_are_named_from_the_outside_in() {
    let gp = cube("4x4x4");
    let m = RotationModel::new(&gp);
    let mut names: Vec<&str> = m.surfaces().iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["B", "D", "F", "F2", "L", "R", "R2", "T", "T2"]);
    // On the 2x2x2 the central planes face R, T and F, as in the spec.
    let m2 = RotationModel::new(&cube("2x2x2"));
    let mut names: Vec<&str> = m2.surfaces().iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    assert_eq!(names, ["F", "R", "T"]);
    assert_eq!(spoken(&gp, "R2E"), sign(&gp, "Rw"));
    assert_eq!(spoken(&gp, "R2EI"), sign(&gp, "3R"));
    assert_eq!(spoken(&gp, "LAU"), sign(&gp, "3Rw"));
}

#[test]
fn tokens_round_trip_and_bad_ones_are_refused() {
    let gp = cube("5x5x5");
    let m = RotationModel::new(&gp);
    let text = "RE TA R2EU F2AO LEI B2A DAU";
    assert_eq!(m.format(&m.parse(text).unwrap()), text);
    assert_eq!(m.parse("RUE").unwrap()[0].part, Part::Under);
    for bad in ["R", "RX", "QE", "REUU", "E", "R2"] {
        assert!(m.parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn sign_translates_both_ways() {
    // Deterministic pseudo-random SiGN algs on several cubes.
    let mut rng = SeededRng::new(0x2545f491);
    let mut next = |n: usize| rng.below(n);
    for (name, words) in [
        ("2x2x2", vec!["R", "U", "F", "L", "x", "y", "z"]),
        (
            "3x3x3",
            vec![
                "R", "U", "F", "D", "M", "E", "S", "Rw", "r", "x", "2L", "2-3Rw",
            ],
        ),
        (
            "4x4x4",
            vec![
                "R", "2R", "3R", "Rw", "3Rw", "2-3Rw", "U", "u", "F", "x", "m",
            ],
        ),
        (
            "5x5x5",
            vec![
                "R", "2R", "3R", "4L", "3Rw", "2-3Uw", "M", "e", "F", "y", "z",
            ],
        ),
    ] {
        let gp = cube(name);
        let m = RotationModel::new(&gp);
        for _ in 0..25 {
            let alg: Vec<String> = (0..6)
                .map(|_| format!("{}{}", words[next(words.len())], ["", "'", "2"][next(3)]))
                .collect();
            let alg = alg.join(" ");
            let turns = m.turns_for_alg(&gp, &alg.parse().unwrap()).unwrap();
            let want = sign(&gp, &alg);
            assert_eq!(
                m.transformation(&gp, &turns),
                want,
                "{name}: {alg} as {}",
                m.format(&turns)
            );
            let back = m.to_sign(&turns).unwrap();
            assert_eq!(sign(&gp, &back), want, "{name}: {alg} back as {back}");
        }
    }
    // SiGN is for cubes.
    let mega = build("megaminx", &PuzzleOptions::default()).unwrap();
    let m = RotationModel::new(&mega);
    assert!(m.to_sign(&m.parse("RE").unwrap()).is_err());
}

/// Columns of the position matrix (one string of bits per piece).
fn columns(matrix: &str) -> Vec<String> {
    let rows: Vec<String> = matrix
        .lines()
        .filter(|l| l.starts_with('|') && !l.ends_with("twist"))
        .map(|l| l[2..l.rfind(" |").unwrap()].replace(' ', ""))
        .collect();
    let n = rows[0].len();
    (0..n)
        .map(|i| rows.iter().map(|r| r.as_bytes()[i] as char).collect())
        .collect()
}

#[test]
fn position_matrix_follows_the_spec() {
    // 2x2x2: three surfaces through the centre, 2^3 = 8 pieces, every
    // column a different bit pattern.
    let gp = cube("2x2x2");
    let m = RotationModel::new(&gp);
    let id = gp.puzzle().layout().identity();
    let mut cols = columns(&m.position_matrix(&gp, &id));
    cols.sort();
    cols.dedup();
    assert_eq!(cols.len(), 8);
    // 3x3x3: six surfaces, 26 visible pieces, never above both parallel
    // surfaces of an axis; a turn permutes the columns.
    let gp = cube("3x3x3");
    let m = RotationModel::new(&gp);
    let axis_of: Vec<usize> = m.surfaces().iter().map(|s| s.axis).collect();
    let id = gp.puzzle().layout().identity();
    let solved = columns(&m.position_matrix(&gp, &id));
    assert_eq!(solved.len(), 26);
    for c in &solved {
        for a in 0..3 {
            let bits: Vec<char> = c
                .chars()
                .zip(&axis_of)
                .filter(|(_, &x)| x == a)
                .map(|(b, _)| b)
                .collect();
            assert_ne!(bits, ['0', '0'], "{c}");
        }
    }
    let mut sorted = solved.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), 26);
    let turned = columns(&m.position_matrix(&gp, &spoken(&gp, "RE")));
    let mut t = turned.clone();
    t.sort();
    assert_eq!(t, sorted);
    let changed = solved.iter().zip(&turned).filter(|(a, b)| a != b).count();
    assert_eq!(changed, 8, "R moves 4 corners and 4 edges");
}

#[test]
fn pronounced_algs_do_what_the_resolver_does_on_other_puzzles() {
    for (name, alg) in [
        ("pyraminx", "L R U l B' D BR y"),
        ("megaminx", "R++ D-- U' DR 2R Uv BL'"),
        ("FTO", "F BR' 2U B L"),
        ("skewb", "R U' L B"),
        ("master pyraminx", "U 2R l BL"),
    ] {
        let gp = cube(name);
        let m = RotationModel::new(&gp);
        let turns = m.turns_for_alg(&gp, &alg.parse().unwrap()).unwrap();
        assert_eq!(
            m.transformation(&gp, &turns),
            sign(&gp, alg),
            "{name}: {alg}"
        );
        assert_eq!(m.parse(&m.format(&turns)).unwrap(), turns, "{name}");
    }
}
