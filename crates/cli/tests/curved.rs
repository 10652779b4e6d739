//! Puzzles cut by spheres and cones, through the binary: their groups
//! against numbers from GAP, against the planar puzzles that simulate
//! them and against a definition written out by hand; optimal distances
//! against the planar puzzles' own; and answers played back.

mod common;
use common::run;

fn ok(args: &[&str]) -> String {
    common::ok(args, "")
}

fn group_order(args: &[&str]) -> String {
    let mut all = vec!["info"];
    all.extend_from_slice(args);
    let out = ok(&all);
    out.lines()
        .find_map(|l| l.strip_prefix("group order: "))
        .unwrap_or_else(|| panic!("{args:?}: no group order in {out}"))
        .to_string()
}

#[test]
fn curved_puzzles_have_the_groups_of_the_puzzles_they_are() {
    // The Rex Cube (its corner tips, which only turn in place with their
    // own corner, left out) is the Master Skewb without its corners.
    let master_skewb = group_order(&["master skewb", "--no-corners"]);
    assert_eq!(master_skewb, "4945650314421542584320000000");
    assert_eq!(group_order(&["rex_cube"]), master_skewb);
    // The Curvy Copter's non-jumbling turns, cut by spheres: GAP's order,
    // which is also PuzzleGeometry's planar approximation's.
    assert_eq!(
        group_order(&["curvy_copter_sphere"]),
        "3033257372496691200000"
    );
    assert_eq!(group_order(&["curvy copter"]), "3033257372496691200000");
    // Cones from the centre cut the cube into a 3x3x3's pieces.
    assert_eq!(group_order(&["conic_cube"]), "43252003274489856000");
    // A sphere a little larger than the Super Ivy's reaches the corners:
    // the whole Master Skewb.
    assert_eq!(
        group_order(&["c v sphere 2.05"]),
        group_order(&["master skewb"])
    );
}

/// The Super Ivy Cube written out by hand from what its spheres (about the
/// corners, through the neighbouring corners) hold: a face's centre is
/// inside its four corners' spheres, the petal of a face at a corner
/// inside that corner's and its two neighbours' on the face, an edge
/// inside its two ends'. A turn is the cube's third of a turn about the
/// corner, applied to the labels of the pieces it holds.
fn super_ivy_by_hand() -> String {
    type V = [i32; 3];
    let faces: Vec<V> = (0..3)
        .flat_map(|k| {
            [1, -1].map(|s| {
                let mut f = [0; 3];
                f[k] = s;
                f
            })
        })
        .collect();
    let vertices: Vec<V> = (0..8)
        .map(|i| [1, 2, 4].map(|b| if i & b == 0 { 1 } else { -1 }))
        .collect();
    let on = |f: V, v: V| (0..3).all(|k| f[k] == 0 || f[k] == v[k]);
    let neighbours = |a: V, b: V| (0..3).filter(|&k| a[k] != b[k]).count() == 1;
    let petals: Vec<(V, V)> = faces
        .iter()
        .flat_map(|&f| {
            vertices
                .iter()
                .filter(move |&&v| on(f, v))
                .map(move |&v| (f, v))
        })
        .collect();
    let edges: Vec<(V, V)> = vertices
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| {
            vertices[i + 1..]
                .iter()
                .filter(move |&&b| neighbours(a, b))
                .map(move |&b| (a, b))
        })
        .collect();
    // The faces an edge shows, the first of them its reference.
    let edge_faces = |(a, b): (V, V)| -> Vec<V> {
        faces
            .iter()
            .copied()
            .filter(|&f| on(f, a) && on(f, b))
            .collect()
    };
    let same_edge = |x: (V, V), y: (V, V)| x == y || (x.0 == y.1 && x.1 == y.0);
    let identity = |n: usize| (1..=n).map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
    let mut tws = format!(
        "Name SuperIvyByHand\n\nSet CENTERS 6 1\nSet PETALS 24 1\nSet EDGES 12 2\n\n\
         Solved\nCENTERS\n{}\nPETALS\n{}\nEDGES\n{}\n{}\nEnd\n\n",
        identity(6),
        identity(24),
        identity(12),
        ["0"; 12].join(" ")
    );
    for (m, &v) in vertices.iter().enumerate() {
        // A third of a turn about v: (x, y, z) -> D (z, x, y) with D = diag(v).
        let turn = |p: V| -> V {
            let d = [p[0] * v[0], p[1] * v[1], p[2] * v[2]];
            let r = [d[2], d[0], d[1]];
            [r[0] * v[0], r[1] * v[1], r[2] * v[2]]
        };
        assert_eq!(turn(v), v);
        let held_centre = |f: V| on(f, v);
        let held_petal = |(f, w): (V, V)| w == v || (on(f, v) && neighbours(w, v));
        let held_edge = |(a, b): (V, V)| a == v || b == v;
        // perm[i]: the slot whose piece comes to slot i.
        let centre_perm: Vec<usize> = (0..faces.len())
            .map(|i| {
                (0..faces.len())
                    .find(|&j| {
                        if held_centre(faces[j]) {
                            turn(faces[j]) == faces[i]
                        } else {
                            j == i
                        }
                    })
                    .unwrap()
            })
            .collect();
        let petal_perm: Vec<usize> = (0..petals.len())
            .map(|i| {
                (0..petals.len())
                    .find(|&j| {
                        let (f, w) = petals[j];
                        if held_petal(petals[j]) {
                            (turn(f), turn(w)) == petals[i]
                        } else {
                            j == i
                        }
                    })
                    .unwrap()
            })
            .collect();
        let mut edge_perm = Vec::new();
        let mut edge_twist = Vec::new();
        for i in 0..edges.len() {
            let j = (0..edges.len())
                .find(|&j| {
                    let (a, b) = edges[j];
                    if held_edge(edges[j]) {
                        same_edge((turn(a), turn(b)), edges[i])
                    } else {
                        j == i
                    }
                })
                .unwrap();
            edge_perm.push(j);
            let twist = if held_edge(edges[j]) {
                usize::from(turn(edge_faces(edges[j])[0]) != edge_faces(edges[i])[0])
            } else {
                0
            };
            edge_twist.push(twist);
        }
        let line = |xs: &[usize], plus: usize| -> String {
            xs.iter()
                .map(|x| (x + plus).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        tws += &format!(
            "Move V{m}\nCENTERS\n{}\nPETALS\n{}\nEDGES\n{}\n{}\nEnd\n\n",
            line(&centre_perm, 1),
            line(&petal_perm, 1),
            line(&edge_perm, 1),
            line(&edge_twist, 0)
        );
    }
    tws
}

#[test]
fn the_super_ivy_has_the_group_of_its_hand_written_definition() {
    let path = std::env::temp_dir().join(format!("super-ivy-{}.tws", std::process::id()));
    std::fs::write(&path, super_ivy_by_hand()).unwrap();
    let by_hand = group_order(&[path.to_str().unwrap()]);
    std::fs::remove_file(&path).ok();
    assert_eq!(group_order(&["super_ivy"]), by_hand);
    // And it is the Rex Cube's group (both are simulated on a Master
    // Skewb with its corners ignored).
    assert_eq!(by_hand, "4945650314421542584320000000");
}

#[test]
fn optimal_solutions_agree_with_the_puzzles_they_are() {
    // Distances on a curved puzzle, found by the generic optimal search
    // on its definition from geometry, against the same positions on the
    // planar puzzle it is (the 3x3x3's through its dedicated optimal
    // solver): the same length, position by position.
    let length = |args: &[&str]| -> usize {
        let mut all = vec!["solve"];
        all.extend_from_slice(args);
        all.extend(["--no-write", "-q"]);
        ok(&all).split_whitespace().count()
    };
    for scramble in ["R U F' D L2 B", "R U R' U' F2 D' L B2", "F2 U' B L' D2 R"] {
        assert_eq!(
            length(&["conic_cube", "--alg", scramble]),
            length(&["3x3x3", "--alg", scramble]),
            "{scramble}"
        );
    }
    for scramble in [
        "UFR DBL' URB ULF' DRF",
        "UFR' DBR ULF DLB' UBL",
        "DRF URB' DLB UFR ULF'",
    ] {
        let master = length(&["master skewb", "--no-corners", "--alg", scramble]);
        assert_eq!(
            length(&["rex_cube", "--alg", scramble]),
            master,
            "{scramble}"
        );
        assert_eq!(
            length(&["super_ivy", "--alg", scramble]),
            master,
            "{scramble}"
        );
    }
}

#[test]
fn curved_puzzles_are_solved_and_the_answers_undo_the_scrambles() {
    for (puzzle, scramble) in [
        ("rex_cube", "UFR DBL' URB ULF' DRF UBL"),
        ("super_ivy", "UFR' DBR ULF DLB'"),
        ("curvy_copter_sphere", "UF UR FR DB DL UB FL"),
        ("conic_cube", "R U F' D L2 B"),
    ] {
        let answer = ok(&[
            "solve",
            puzzle,
            "--fast",
            "--alg",
            scramble,
            "--no-write",
            "-q",
        ]);
        let answer = answer.trim();
        let undone = ok(&["apply", puzzle, &format!("{scramble} {answer}"), "--json"]);
        let solved = ok(&["apply", puzzle, "", "--json"]);
        assert_eq!(
            undone, solved,
            "{puzzle}: {answer} does not undo {scramble}"
        );
    }
}

#[test]
fn curved_cuts_that_cannot_make_a_puzzle_get_clear_errors() {
    for (descriptor, says) in [
        // A sphere round the whole cube cuts nothing.
        ("c v sphere 10", "no orbit is left"),
        // A sphere tangent to a face's edges leaves its corners joined
        // only at points.
        ("c f sphere 1 at 1", "on the same side of every cut"),
        ("c v sphere 0", "radius must be more than 0"),
        ("c f cone 180", "half angle must be between 0 and 180"),
        ("c f sphere 1 at -1", "centre must lie towards its feature"),
        ("c f sphere", "has no distance"),
        // A cone with its apex at a corner meets three faces in lines.
        (
            "c v cone 130 at 1.7320508075688772",
            "apex must not lie on the plane of a face",
        ),
    ] {
        let (code, _, err) = run(&["info", descriptor], "");
        assert_eq!(code, 2, "{descriptor}: {err}");
        assert!(err.contains(says), "{descriptor}: {err}");
        assert!(!err.contains("panicked"), "{descriptor}: {err}");
    }
}
