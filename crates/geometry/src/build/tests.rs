//! The tests of `build`.

use super::*;

fn geo(s: &str) -> Geometry {
    Geometry::new(&Descriptor::parse(s).unwrap()).unwrap()
}

#[test]
fn three_by_three_has_the_familiar_pieces() {
    let g = geo("c f 0.333333333333333");
    assert_eq!(g.stickers_per_face, 9);
    assert_eq!(g.cubies.len(), 26);
    let mut sizes: Vec<(usize, usize)> = g
        .orbits
        .iter()
        .map(|o| (o.cubies.len(), o.stickers))
        .collect();
    sizes.sort_unstable();
    assert_eq!(sizes, [(6, 1), (8, 3), (12, 2)]);
    for a in &g.axes {
        assert_eq!((a.order, a.slices()), (4, 3));
    }
}

#[test]
fn turns_are_permutations_of_the_right_order() {
    let g = geo("d f 0.7");
    for a in &g.axes {
        let mut hit = vec![false; g.cubies.len()];
        for im in &a.images {
            assert!(!hit[im.target as usize]);
            hit[im.target as usize] = true;
        }
        // The turn repeated `order` times brings every piece home
        // with its stickers in place.
        for c in 0..g.cubies.len() {
            let (mut x, mut ori) = (c, 0usize);
            for _ in 0..a.order {
                ori += a.images[x].ord as usize;
                x = a.images[x].target as usize;
            }
            assert_eq!(x, c);
            assert_eq!(ori % g.cubies[c].stickers.len(), 0);
        }
    }
}

#[test]
fn pyraminx_axes_end_in_a_vertex_and_a_face() {
    let g = geo("t v 0.333333333333333 v 1.66666666666667");
    let mut ends: Vec<(String, String)> = g
        .axes
        .iter()
        .map(|a| (a.pos.clone(), a.neg.clone()))
        .collect();
    ends.sort();
    assert_eq!(
        ends,
        [
            ("DFL".to_string(), "R".to_string()),
            ("DLR".into(), "F".into()),
            ("DRF".into(), "L".into()),
            ("FRL".into(), "D".into())
        ]
    );
}

#[test]
fn absurd_cuts_are_refused() {
    let d = Descriptor::parse(&format!(
        "c{}",
        (0..200)
            .map(|i| format!(" f {}", i as f64 / 201.0))
            .collect::<String>()
    ))
    .unwrap();
    assert!(matches!(
        Geometry::new(&d),
        Err(GeometryError::TooManyStickers { .. }) | Err(GeometryError::TooManyPlanes { .. })
    ));
}
