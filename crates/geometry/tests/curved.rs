//! Curved cuts through the library: descriptors that round-trip, the SVG
//! net of the Curvy Copter checked sticker by sticker against a model
//! that only rotates sticker centres inside the turning spheres, and the
//! rotation-surface notation and position matrix on the Rex Cube.

use twistor_core::Transformation;
use twistor_formats::alg::Alg;
use twistor_formats::resolve::{alg_transformation, apply_alg};
use twistor_geometry::pronounce::RotationModel;
use twistor_geometry::svg::{draw, face_colors, position_svg, SvgOptions};
use twistor_geometry::{build, CutShape, Descriptor, GeneratedPuzzle, PuzzleOptions, Quat, Vec3};

const CURVY_COPTER: &str = "c e sphere 2 at 2.8284271247461903";

fn puzzle(spec: &str) -> GeneratedPuzzle {
    build(spec, &PuzzleOptions::default()).unwrap()
}

fn sign(gp: &GeneratedPuzzle, alg: &str) -> Transformation {
    let alg: Alg = alg.parse().unwrap();
    alg_transformation(gp.puzzle(), &alg).unwrap()
}

#[test]
fn curved_descriptors_print_as_they_parse() {
    for text in [
        "c v sphere 1.6",
        "c e sphere 2 at 2.8284271247461903",
        "c f cone 60",
        "d f 0.7 f cone 45 at 0.2",
    ] {
        let d = Descriptor::parse(text).unwrap();
        assert_eq!(d.to_string(), text);
        assert_eq!(Descriptor::parse(&d.to_string()).unwrap(), d);
    }
    let d = Descriptor::parse("c v sphere 1.6").unwrap();
    assert_eq!(
        d.cuts[0].shape,
        CutShape::Sphere {
            radius: 1.6,
            centre_given: false
        }
    );
    // Centred at the vertex by default.
    assert!((d.cuts[0].distance - 3f64.sqrt()).abs() < 1e-12);
}

/// Whether a cube sticker's outline holds point `p` of its face.
fn holds(sticker: &twistor_geometry::Sticker, p: Vec3) -> bool {
    let c = |v: Vec3| [v.x, v.y, v.z];
    let n = c(sticker.polygon[0]);
    let first = c(sticker.polygon[1]);
    // The coordinate every corner shares is the face's.
    let Some(k) = (0..3).find(|&k| {
        sticker
            .polygon
            .iter()
            .all(|q| (c(*q)[k] - n[k]).abs() < 1e-9)
            && (first[k].abs() - 1.0).abs() < 1e-9
    }) else {
        return false;
    };
    if (c(p)[k] - n[k]).abs() > 1e-6 {
        return false;
    }
    let (a, b) = ((k + 1) % 3, (k + 2) % 3);
    let pts: Vec<[f64; 2]> = sticker
        .polygon
        .iter()
        .map(|q| [c(*q)[a], c(*q)[b]])
        .collect();
    let (x, y) = (c(p)[a], c(p)[b]);
    let mut inside = false;
    for i in 0..pts.len() {
        let (u, v) = (pts[i], pts[(i + 1) % pts.len()]);
        if (u[1] > y) != (v[1] > y) && x < u[0] + (y - u[1]) / (v[1] - u[1]) * (v[0] - u[0]) {
            inside = !inside;
        }
    }
    inside
}

#[test]
fn the_curvy_copter_net_shows_what_its_spheres_turn() {
    let gp = puzzle(CURVY_COPTER);
    let g = gp.geometry();
    let faces = g.solid().faces();
    let normal = |name: &str| faces.iter().find(|f| f.name == name).unwrap().normal;
    // The independent model: each sticker's colour, and a turn of the edge
    // between two faces moves the stickers whose centres lie inside its
    // sphere (centre twice the edge's midpoint out, radius 2) half a turn
    // about the edge's direction, onto the sticker whose centre is there.
    let mut colour: Vec<usize> = g.stickers().iter().map(|s| s.face).collect();
    let alg = "UF FR DB UF UL";
    for mv in alg.split_whitespace() {
        let (a, b) = (&mv[..1], &mv[1..]);
        let mid: Vec3 = normal(a) + normal(b);
        let centre = mid * 2.0;
        let turn = Quat::about(mid.normalized(), std::f64::consts::PI);
        let mut next = colour.clone();
        for (i, s) in g.stickers().iter().enumerate() {
            if s.center.dist(centre) >= 2.0 {
                continue;
            }
            // The sticker whose outline holds the turned centre (the
            // cube's faces are axis-aligned: drop the normal's coordinate).
            let to = turn.rotate(s.center);
            let j = (0..g.stickers().len())
                .find(|&j| holds(&g.stickers()[j], to))
                .unwrap_or_else(|| panic!("{mv}: sticker {i} lands on no sticker"));
            next[j] = colour[i];
        }
        colour = next;
    }
    let pattern = apply_alg(
        gp.puzzle(),
        gp.puzzle().start(),
        &alg.parse::<Alg>().unwrap(),
    )
    .unwrap();
    let drawn = draw(&gp, &pattern, &SvgOptions::default());
    // Its curved edges are drawn as arcs, every sticker once.
    let text = position_svg(&gp, &pattern, &SvgOptions::default());
    let arcs = text.matches("<path").count();
    assert!(arcs > 0 && text.contains(" A"), "no arcs drawn");
    assert_eq!(arcs + text.matches("<polygon").count(), g.stickers().len());
    let colours = face_colors(&gp);
    assert_eq!(drawn.len(), g.stickers().len());
    let moved = (0..drawn.len())
        .filter(|&i| colour[i] != g.stickers()[i].face)
        .count();
    assert!(moved > 20, "the alg moves many stickers ({moved})");
    for (i, d) in drawn.iter().enumerate() {
        // Stickers of pieces no turn moves (the face centres) are drawn
        // untracked, and the model never moves them; every other sticker
        // shows the model's colour.
        if colours.contains(&d.color) {
            assert_eq!(d.color, colours[colour[i]], "sticker {i} ({})", d.id);
        } else {
            assert_eq!(colour[i], g.stickers()[i].face, "sticker {i} ({})", d.id);
        }
    }
}

#[test]
fn the_rex_cube_speaks_the_rotation_surface_notation() {
    let gp = puzzle("c v sphere 1.6");
    let m = RotationModel::new(&gp);
    // One sphere per corner, each its own surface.
    assert_eq!(m.surfaces().len(), 8);
    for alg in ["UFR DBL' URB", "DRF' ULF UBL DLB'"] {
        let turns = m.turns_for_alg(&gp, &alg.parse().unwrap()).unwrap();
        assert_eq!(m.transformation(&gp, &turns), sign(&gp, alg), "{alg}");
        assert_eq!(m.parse(&m.format(&turns)).unwrap(), turns, "{alg}");
    }
    // The position matrix: a column per piece, all different when solved
    // (a piece is told by the spheres it is inside), permuted by a turn.
    let id = gp.puzzle().layout().identity();
    let columns = |t: &Transformation| -> Vec<String> {
        let matrix = m.position_matrix(&gp, t);
        let rows: Vec<&str> = matrix
            .lines()
            .filter(|l| l.starts_with('|') && !l.ends_with("twist"))
            .map(|l| l.trim_start_matches('|').split('|').next().unwrap().trim())
            .collect();
        let rows: Vec<String> = rows.iter().map(|r| r.replace(' ', "")).collect();
        (0..rows[0].len())
            .map(|i| rows.iter().map(|r| r.as_bytes()[i] as char).collect())
            .collect()
    };
    let solved = columns(&id);
    let mut distinct = solved.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), solved.len());
    let turned = columns(&sign(&gp, "UFR"));
    let mut t = turned.clone();
    t.sort();
    assert_eq!(t, distinct);
    assert_ne!(turned, solved);
}
