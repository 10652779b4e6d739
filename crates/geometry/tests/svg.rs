//! The SVG net of a 3x3x3, checked sticker by sticker against an
//! independent facelet model (Kociemba's facelet order U1..U9 R1..R9
//! F1..F9 D1..D9 L1..L9 B1..B9, face turns as cycles of facelets).

use twistor_formats::alg::Alg;
use twistor_formats::resolve::apply_alg;
use twistor_geometry::svg::{draw, position_svg, SvgOptions};
use twistor_geometry::{build, GeneratedPuzzle, PuzzleOptions};

const FACES: &str = "URFDLB";

/// Facelet index of face `f` (in URFDLB order), position 1..=9.
fn at(f: char, n: usize) -> usize {
    FACES.find(f).unwrap() * 9 + n - 1
}

/// The cycles of one clockwise quarter turn, as facelet moves a → b.
fn turn_cycles(face: char) -> Vec<[usize; 4]> {
    let ring = |f: char| -> Vec<[usize; 4]> {
        vec![
            [at(f, 1), at(f, 3), at(f, 9), at(f, 7)],
            [at(f, 2), at(f, 6), at(f, 8), at(f, 4)],
        ]
    };
    // Side strips, each listed in the direction the turn carries them.
    let strips: [(char, [usize; 3]); 4] = match face {
        'U' => [
            ('F', [1, 2, 3]),
            ('L', [1, 2, 3]),
            ('B', [1, 2, 3]),
            ('R', [1, 2, 3]),
        ],
        'D' => [
            ('F', [7, 8, 9]),
            ('R', [7, 8, 9]),
            ('B', [7, 8, 9]),
            ('L', [7, 8, 9]),
        ],
        'R' => [
            ('F', [3, 6, 9]),
            ('U', [3, 6, 9]),
            ('B', [7, 4, 1]),
            ('D', [3, 6, 9]),
        ],
        'L' => [
            ('F', [1, 4, 7]),
            ('D', [1, 4, 7]),
            ('B', [9, 6, 3]),
            ('U', [1, 4, 7]),
        ],
        'F' => [
            ('U', [7, 8, 9]),
            ('R', [1, 4, 7]),
            ('D', [3, 2, 1]),
            ('L', [9, 6, 3]),
        ],
        'B' => [
            ('U', [3, 2, 1]),
            ('L', [1, 4, 7]),
            ('D', [7, 8, 9]),
            ('R', [9, 6, 3]),
        ],
        _ => unreachable!(),
    };
    let mut out = ring(face);
    for k in 0..3 {
        out.push([
            at(strips[0].0, strips[0].1[k]),
            at(strips[1].0, strips[1].1[k]),
            at(strips[2].0, strips[2].1[k]),
            at(strips[3].0, strips[3].1[k]),
        ]);
    }
    out
}

/// Applies face turns (`R`, `U'`, `F2`) to a facelet string.
fn apply_facelets(facelets: &str, alg: &str) -> String {
    let mut s: Vec<char> = facelets.chars().collect();
    for tok in alg.split_whitespace() {
        let face = tok.chars().next().unwrap();
        let turns = match &tok[1..] {
            "" => 1,
            "2" => 2,
            "'" => 3,
            other => panic!("{other}"),
        };
        for _ in 0..turns {
            let old = s.clone();
            for c in turn_cycles(face) {
                for i in 0..4 {
                    s[c[(i + 1) % 4]] = old[c[i]];
                }
            }
        }
    }
    s.into_iter().collect()
}

fn color(face: char) -> &'static str {
    match face {
        'U' => "#ffffff",
        'R' => "#ff0000",
        'F' => "#44ee00",
        'D' => "#f4f400",
        'L' => "#ff8000",
        'B' => "#2266ff",
        _ => unreachable!(),
    }
}

fn cube() -> GeneratedPuzzle {
    build(
        "3x3x3",
        &PuzzleOptions {
            keep_still_orbits: true,
            ..Default::default()
        },
    )
    .unwrap()
}

/// Checks every drawn sticker's colour against the facelet model.
fn check(gp: &GeneratedPuzzle, alg: &str) {
    let pattern = apply_alg(
        gp.puzzle(),
        gp.puzzle().start(),
        &alg.parse::<Alg>().unwrap(),
    )
    .unwrap();
    let solved: String = FACES
        .chars()
        .flat_map(|f| std::iter::repeat_n(f, 9))
        .collect();
    let want = apply_facelets(&solved, alg);
    let stickers = draw(gp, &pattern, &SvgOptions::default());
    assert_eq!(stickers.len(), 54);
    for st in &stickers {
        let (face, n) = st.id.split_once('-').unwrap();
        let i = at(
            face.chars().next().unwrap(),
            n.parse::<usize>().unwrap() + 1,
        );
        let expected = color(want.as_bytes()[i] as char);
        assert_eq!(st.color, expected, "after {alg:?}: sticker {}", st.id);
    }
}

#[test]
fn solved_cube_net_has_every_face_in_its_colour() {
    check(&cube(), "");
}

#[test]
fn scrambled_cube_net_matches_the_facelet_model() {
    let gp = cube();
    for alg in [
        "R",
        "U",
        "F",
        "D' L2 B",
        "R U R' U'",
        "F R U' R' U' R U R' F' R U R' U' R' F R F'",
        "D2 F' L U2 B R' D L' F2 U B2 R D' L2 U' F B' R2 D",
    ] {
        check(&gp, alg);
    }
}

/// A tiny well-formedness check: one root, every tag closed in order,
/// attributes quoted.
fn well_formed(xml: &str) -> bool {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = xml.trim();
    let mut roots = 0;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            return false;
        };
        let tag = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if stack.pop().as_deref() != Some(name.trim()) {
                return false;
            }
            continue;
        }
        if tag.matches('"').count() % 2 != 0 {
            return false;
        }
        if stack.is_empty() {
            roots += 1;
        }
        if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().unwrap_or("").to_string();
            stack.push(name);
        }
    }
    stack.is_empty() && roots == 1
}

#[test]
fn svg_is_well_formed_and_lists_every_sticker() {
    for (name, stickers) in [
        ("3x3x3", 54),
        ("megaminx", 132),
        ("FTO", 72),
        ("pyraminx", 36),
    ] {
        let gp = build(name, &PuzzleOptions::default()).unwrap();
        let text = position_svg(&gp, gp.puzzle().start(), &SvgOptions::default());
        assert!(well_formed(&text), "{name}");
        assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert_eq!(text.matches("<polygon ").count(), stickers, "{name}");
    }
    assert!(!well_formed("<svg><g></svg></g>"));
}

#[test]
fn net_keeps_faces_apart() {
    // No two stickers' centres coincide, on any solid.
    for name in ["2x2x2", "megaminx", "FTO", "pyraminx", "icosamate"] {
        let gp = build(name, &PuzzleOptions::default()).unwrap();
        let st = draw(&gp, gp.puzzle().start(), &SvgOptions::default());
        let centres: Vec<(f64, f64)> = st
            .iter()
            .map(|s| {
                let k = s.points.len() as f64;
                (
                    s.points.iter().map(|p| p.0).sum::<f64>() / k,
                    s.points.iter().map(|p| p.1).sum::<f64>() / k,
                )
            })
            .collect();
        for i in 0..centres.len() {
            for j in 0..i {
                let d = (centres[i].0 - centres[j].0).hypot(centres[i].1 - centres[j].1);
                assert!(d > 1.0, "{name}: {} and {} overlap", st[i].id, st[j].id);
            }
            assert!(st[i]
                .points
                .iter()
                .all(|p| p.0 >= 0.0 && p.0 <= 800.0 && p.1 >= 0.0 && p.1 <= 500.0));
        }
    }
}

/// The pyraminx's four faces are drawn apart (a gap along every hinge, as
/// TNoodle draws them), where the cube's net keeps its faces touching.
#[test]
fn pyraminx_faces_are_drawn_apart() {
    let nearest_across_faces = |name: &str| {
        let gp = build(name, &PuzzleOptions::default()).unwrap();
        let shapes = draw(&gp, gp.puzzle().start(), &SvgOptions::default());
        let mut nearest = f64::MAX;
        for a in &shapes {
            for b in shapes.iter().filter(|b| b.face != a.face) {
                for p in &a.points {
                    for q in &b.points {
                        nearest = nearest.min((p.0 - q.0).hypot(p.1 - q.1));
                    }
                }
            }
        }
        nearest
    };
    assert!(nearest_across_faces("pyraminx") > 5.0);
    assert!(nearest_across_faces("3x3x3") < 0.01);
}
