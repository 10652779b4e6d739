//! God's algorithm coset by coset (Rokicki's method) against the plain
//! breadth-first engine: the cosets' distributions, weighed by their
//! classes under the rotations, merge into the whole puzzle's.

mod support;

use support::{geometry, geometry_with_rotations, move_set};
use twistor_search::gods::{self, merge_cosets, CosetSpace, GodsControl, GodsOptions};
use twistor_search::Metric;

fn check(name: &str, moves: &str, subgroup: &str, rotations: bool) -> (usize, usize) {
    let p = if rotations {
        geometry_with_rotations(name)
    } else {
        geometry(name)
    };
    let m = move_set(&p, Some(moves), Metric::Htm);
    let h = move_set(&p, Some(subgroup), Metric::Htm);
    let whole = gods::enumerate(&p, &m, &GodsOptions::default(), GodsControl::default())
        .unwrap()
        .table
        .counts;
    let space = CosetSpace::new(&p, &m, &h).unwrap();
    let solved: Vec<(u64, Vec<u64>)> = space
        .classes()
        .iter()
        .map(|c| (c.weight, space.solve(c.id).unwrap().counts))
        .collect();
    let weights: u64 = solved.iter().map(|s| s.0).sum();
    assert_eq!(weights, space.cosets() as u64);
    for (_, counts) in &solved {
        assert_eq!(counts.iter().sum::<u64>(), space.subgroup_order());
    }
    let merged = merge_cosets(solved.iter().map(|(w, c)| (*w, c.as_slice())));
    assert_eq!(merged, whole, "{name} <{moves}> by cosets of <{subgroup}>");
    (space.cosets(), space.classes().len())
}

#[test]
fn two_generator_two_by_two_by_cosets_of_u_and_r2() {
    let (cosets, classes) = check("2x2x2", "U,R", "U,R2", false);
    // 29,160 positions in 243 cosets of the 120 positions of <U, R2>.
    assert_eq!((cosets, classes), (243, 243));
}

/// The rotation half a turn about the axis through the UR edge swaps U and
/// R (and so U2 and R2): cosets come in pairs, and one of each is solved.
#[test]
fn two_generator_two_by_two_by_cosets_of_the_half_turns_reduced_by_a_rotation() {
    let (cosets, classes) = check("2x2x2", "U,R", "U2,R2", true);
    // <U2, R2> has 6 positions (U2 R2 has order 3: a dihedral group of order 6).
    assert_eq!(cosets, 29_160 / 6);
    assert!(
        classes < cosets && 2 * classes >= cosets,
        "{classes} classes of {cosets} cosets"
    );
}
