//! Whatever a descriptor says, building answers with a puzzle or a typed
//! error, never a panic, and the puzzles it answers with are sound.

use twistor_core::random::SeededRng;
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::{build, GeometryError, PuzzleOptions};

/// Checks a built puzzle: every move's order divides its axis's order,
/// and a few algs resolve or fail cleanly.
fn sound(spec: &str, options: &PuzzleOptions) -> bool {
    match build(spec, options) {
        Ok(gp) => {
            let p = gp.puzzle();
            let layout = p.layout();
            for (m, sm) in p.moves().iter().zip(gp.slice_moves()) {
                let axis_order = gp.geometry().axes()[sm.axis].order() as u32;
                let order: u32 = layout.order(&m.transformation).try_into().unwrap();
                assert_eq!(
                    axis_order % order,
                    0,
                    "{spec}: {} has order {order}",
                    m.name
                );
            }
            for alg in ["R U x", "2-3Rw' M", "[F, R++]", "T y2", "UFRv", "3r"] {
                let _ = alg_transformation(p, &alg.parse::<Alg>().unwrap());
            }
            true
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            false
        }
    }
}

#[test]
fn random_descriptors_build_or_fail_cleanly() {
    let mut rng = SeededRng::new(0x9e3779b97f4a7c15);
    let mut next = |n: u64| rng.below(n as usize) as u64;
    let mut built = 0;
    for _ in 0..60 {
        let shape = ["t", "c", "o", "d", "i"][next(5) as usize];
        let cuts = 1 + next(3);
        let mut spec = shape.to_string();
        for _ in 0..cuts {
            let kind = ["f", "v", "e"][next(3) as usize];
            let d = next(4000) as f64 / 1000.0 - 1.0;
            spec.push_str(&format!(" {kind} {d}"));
        }
        built += sound(&spec, &PuzzleOptions::default()) as usize;
        built += sound(
            &spec,
            &PuzzleOptions {
                all_moves: true,
                notation_rotations: true,
                ..Default::default()
            },
        ) as usize;
    }
    // Most random cuts make a puzzle.
    assert!(built >= 80, "only {built} of 120 built");
}

#[test]
fn cuts_through_features_and_outside_the_solid() {
    for spec in [
        "c v 1.7320508075688772",
        "c e 1.4142135623730951",
        "c f 1",
        "c f -1",
        "c f 5",
        "t v 3",
        "t v -1",
        "c f 0 v 0 e 0",
        "d f 0 v 0 e 0",
        "i f 0 v 0 e 0",
        "o f 0 v 0 e 0",
        "t f 0 v 0 e 0",
        "c f 0.5 v 5",
        "c f 0.5 f 0.5 f -0.5",
    ] {
        sound(spec, &PuzzleOptions::default());
        sound(
            spec,
            &PuzzleOptions {
                all_moves: true,
                rotations: true,
                ..Default::default()
            },
        );
    }
    // A solid no cut crosses has no moves, hence nothing to describe.
    assert_eq!(
        build("c f 5", &PuzzleOptions::default()).unwrap_err(),
        GeometryError::NothingLeft
    );
}

#[test]
fn bad_names_and_descriptors_are_typed_errors() {
    assert!(matches!(
        build("megaminxx", &PuzzleOptions::default()),
        Err(GeometryError::UnknownName { .. })
    ));
    assert!(matches!(
        build("c f", &PuzzleOptions::default()),
        Err(GeometryError::MissingDistance { .. })
    ));
    let many: String = (0..200)
        .map(|i| format!(" f {}", i as f64 / 201.0))
        .collect();
    assert!(matches!(
        build(&format!("c{many}"), &PuzzleOptions::default()),
        Err(GeometryError::TooManyStickers { .. })
    ));
}

#[test]
fn random_curved_descriptors_build_or_fail_cleanly() {
    // Spheres and cones of any size and place, alone and with planes,
    // on every solid: a puzzle or a typed error, never a panic.
    let mut rng = SeededRng::new(0x51ed_2701_c0de_cafe);
    let mut next = |n: u64| rng.below(n as usize) as u64;
    let mut built = 0;
    for _ in 0..80 {
        let shape = ["t", "c", "o", "d", "i"][next(5) as usize];
        let mut spec = shape.to_string();
        for _ in 0..1 + next(2) {
            let kind = ["f", "v", "e"][next(3) as usize];
            match next(3) {
                0 => spec.push_str(&format!(" {kind} {}", next(2000) as f64 / 1000.0)),
                1 => {
                    spec.push_str(&format!(
                        " {kind} sphere {}",
                        0.1 + next(4000) as f64 / 1000.0
                    ));
                    if next(2) == 0 {
                        spec.push_str(&format!(" at {}", 0.2 + next(4000) as f64 / 1000.0));
                    }
                }
                _ => {
                    spec.push_str(&format!(" {kind} cone {}", 5 + next(170)));
                    if next(2) == 0 {
                        spec.push_str(&format!(" at {}", next(2000) as f64 / 1000.0 - 1.0));
                    }
                }
            }
        }
        built += sound(&spec, &PuzzleOptions::default()) as usize;
    }
    // Most make a puzzle (2,115 of 3,000 in a longer run).
    assert!(built >= 30, "only {built} of 80 built");
}
