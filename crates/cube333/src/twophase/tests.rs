//! The tests of `twophase`.

use super::*;

/// The compact tables' (twist class, slice) table.
fn slice_twist(p1: &Phase1Compact) -> &Nibbles {
    match &p1.twist_slice {
        TwistSlice::Slice(t) => t,
        TwistSlice::SliceFlips(_) => panic!("the compact tables' phase 1"),
    }
}

/// The compact tables' phase-2 projections.
fn projections(cp: &CompactPrune) -> &Projections {
    match &cp.phase2 {
        Phase2Tables::Projections(p) => p,
        Phase2Tables::Paired(_) => panic!("the compact tables' phase 2"),
    }
}

/// The coordinates the compact bounds read for the cube turned a
/// quarter about UD, and for a phase-2 cube's inverse, are those of the
/// cubes themselves; with the tables' exactness (below), every bound is
/// a true distance of a projection, so none overestimates.
#[test]
fn conjugate_and_inverse_coordinates_are_the_cubes_own() {
    let c = CoordTables::get();
    let compact = TwoPhaseTables::compact();
    let Prune::Compact(cp) = &compact.prune else {
        unreachable!()
    };
    let sy = Symmetries::get();
    let mut rng = twistor_core::random::SeededRng::new(31);
    for _ in 0..2000 {
        let x = CubieCube::random(|| rng.next_u64());
        let q = sy.conjugate(&x, 2);
        let slice = coord::slice_sorted(&x) as usize / 24;
        let slice_q = c.slice_conj[slice * 16 + 2] as usize;
        assert_eq!(slice_q, coord::slice_sorted(&q) as usize / 24);
        assert_eq!(
            c.twist_conj[coord::twist(&x) as usize * 16 + 2],
            coord::twist(&q)
        );
        assert_eq!(c.conj_flip(coord::flip(&x), 2, slice_q), coord::flip(&q));
        let p = CubieCube::random_in_phase2(&mut rng, 10);
        // The class-carrying move tables move twist and flip as the
        // cube's (a representative that symmetries fix has several
        // symmetries to it: compared as raw values), and give the same
        // bounds.
        let p1 = &cp.phase1;
        let v = cp.phase1_view(c);
        let (tw, fl) = (coord::twist(&x) as usize, coord::flip(&x) as usize);
        let sl = coord::slice(&x) as usize;
        let m = rng.below(N_MOVES);
        let tx = v.step(v.twist_move, p1.twist.packed[tw] as usize, m);
        let fx = v.step(v.flip_move, p1.flip.packed[fl] as usize, m);
        let y = x.apply_move(FaceTurn::from_index(m));
        let (ty, fy, sy_) = (coord::twist(&y), coord::flip(&y), coord::slice(&y) as usize);
        let twist_of = |x: usize| c.twist_conj[p1.twist.rep[x >> 3] as usize * 16 + E8[x & 7]];
        assert_eq!(twist_of(tx), ty);
        assert_eq!(p1.flip_raw[(fx >> 3) * 8 + (fx & 7)], fy);
        let sl2 = c.slice_move[sl * N_MOVES + m] as usize;
        assert_eq!(sl2, sy_);
        let [a, b, k] = p1.indices(ty as usize, fy as usize, sy_);
        let raw = slice_twist(p1)
            .get(a)
            .max(p1.slice_flip.get(b))
            .max(p1.twist_flip.get(k));
        assert_eq!(v.bound3(tx, fx, sl2), raw);
        // The quarter-turned cube's, carried through the move turned
        // likewise, are those of the moved cube turned a quarter.
        let (tq, fq) = cp.quarter_turned(c, tw, fl, sl);
        let mq = cp.quarter_move[m] as usize;
        let (tq, fq) = (v.step(v.twist_move, tq, mq), v.step(v.flip_move, fq, mq));
        let yq = sy.conjugate(&y, QUARTER_ABOUT_UD);
        assert_eq!(twist_of(tq), coord::twist(&yq));
        assert_eq!(p1.flip_raw[(fq >> 3) * 8 + (fq & 7)], coord::flip(&yq));
        assert_eq!(
            cp.phase1_bound(c, &Phase1Coords::of(&y), usize::MAX),
            raw.max(v.twist_flip(tq, fq))
        );
        // The class-carried coordinates move and invert as the cube's:
        // the same bounds (a representative that symmetries fix has
        // several symmetries to it, which give twin entries).
        let raw_at = |q: &CubieCube| {
            let (cn, ud) = (coord::corners(q) as usize, coord::ud_edges(q) as usize);
            cp.phase2_at(c, cn, ud, coord::slice_sorted(q) as usize)
        };
        let bounds = |at: Phase2At| {
            let [a, b, k, d] = cp.phase2_indices(at);
            let p = projections(cp);
            let t = [
                &p.ud_slice,
                &p.ud_corner_comb,
                &p.corner_edge_comb,
                &p.corner_slice,
            ];
            [t[0].get(a), t[1].get(b), t[2].get(k), t[3].get(d)]
        };
        let at = raw_at(&p);
        assert_eq!(bounds(cp.phase2_inverse(at)), bounds(raw_at(&p.inverse())));
        let i = rng.below(10);
        let moved = p.apply_move(FaceTurn::from_index(
            crate::tables::PHASE2_MOVES[i] as usize,
        ));
        assert_eq!(bounds(cp.phase2_move(at, i)), bounds(raw_at(&moved)));
        let inv = p.inverse();
        assert_eq!(
            cp.slice_perm_inv[coord::slice_sorted(&p) as usize],
            coord::slice_sorted(&inv) as u8
        );
    }
}

/// The symmetry-reduced (twist, slice), (flip, slice) and (twist, flip)
/// tables hold the raw pairs' distances: a breadth-first search over
/// every raw pair agrees entry for entry. (Without the twins of a
/// representative that a symmetry fixes, the first was 5 where the
/// raw pair is 4 moves from the goal.)
#[test]
fn reduced_slice_tables_equal_the_raw_ones() {
    let c = CoordTables::get();
    let compact = TwoPhaseTables::compact();
    let Prune::Compact(cp) = &compact.prune else {
        unreachable!()
    };
    // Every (a, b) pair of two coordinates with these move tables: its
    // distance by a breadth-first search over the raw pairs, against
    // the reduced table's entry.
    let check = |name: &str,
                 (na, a_move): (usize, &[u16]),
                 (nb, b_move): (usize, &[u16]),
                 reduced: &dyn Fn(usize, usize) -> u8| {
        let all: Vec<u8> = (0..N_MOVES as u8).collect();
        let raw = bfs(na * nb, &all, |x, m| {
            a_move[x / nb * N_MOVES + m] as usize * nb + b_move[x % nb * N_MOVES + m] as usize
        });
        for a in 0..na {
            for b in 0..nb {
                assert_eq!(reduced(a, b), raw[a * nb + b].min(15), "{name} {a} {b}");
            }
        }
    };
    let slice = (N_SLICE, &c.slice_move[..]);
    let twist = (N_TWIST, &c.twist_move[..]);
    let flip = (N_FLIP, &c.flip_move[..]);
    let p1 = &cp.phase1;
    check("slice, twist", slice, twist, &|sl, tw| {
        slice_twist(p1).get(p1.indices(tw, 0, sl)[0])
    });
    check("slice, flip", slice, flip, &|sl, fl| {
        p1.slice_flip.get(p1.indices(0, fl, sl)[1])
    });
    check("twist, flip", twist, flip, &|tw, fl| {
        p1.twist_flip.get(p1.indices(tw, fl, 0)[2])
    });
    // min2phase's class counts under the eight symmetries.
    assert_eq!(
        (p1.twist.rep.len(), p1.flip.rep.len()),
        (N_TWIST_E8_CLASS, N_FLIP_E8_CLASS)
    );
    assert_eq!((N_TWIST_E8_CLASS, N_FLIP_E8_CLASS), (324, 336));
}

/// The symmetry-reduced phase-2 tables of the compact kind hold the
/// raw pairs' distances: (UD edges, slice permutation), (UD edges,
/// corner combination), (corners, slice permutation) and (corners, edge
/// combination), each against a breadth-first search over every raw
/// pair in phase 2's moves.
#[test]
fn reduced_phase2_tables_equal_the_raw_ones() {
    let c = CoordTables::get();
    let compact = TwoPhaseTables::compact();
    let Prune::Compact(cp) = &compact.prune else {
        unreachable!()
    };
    let p2 = &crate::tables::PHASE2_MOVES;
    let check = |name: &str,
                 nb: usize,
                 next: &(dyn Fn(usize, usize) -> usize + Sync),
                 reduced: &dyn Fn(usize, usize) -> u8| {
        let raw = bfs(N_UD_EDGES * nb, p2, next);
        for x in 0..N_UD_EDGES {
            for y in 0..nb {
                assert_eq!(reduced(x, y), raw[x * nb + y].min(15), "{name} {x} {y}");
            }
        }
    };
    // Each raw pair read through a cube with those coordinates: the
    // other coordinates of the cube are solved, which the tables
    // ignore.
    let reps = |comb: &[u8]| -> Vec<usize> {
        (0..70)
            .map(|k| comb.iter().position(|&x| x as usize == k).unwrap_or(0))
            .collect()
    };
    let (corner_rep, edge_rep) = (reps(&cp.corner_comb), reps(&cp.edge_comb));
    let ud_move = |ud: usize, m: usize| c.ud_edges_move[ud * N_MOVES + m] as usize;
    let corner_move = |cn: usize, m: usize| c.corners_move[cn * N_MOVES + m] as usize;
    check(
        "UD edges, slice permutation",
        24,
        &|x, m| ud_move(x / 24, m) * 24 + c.slice_sorted_move[x % 24 * N_MOVES + m] as usize,
        &|ud, sp| {
            projections(cp)
                .ud_slice
                .get(cp.phase2_indices(cp.phase2_at(c, 0, ud, sp))[0])
        },
    );
    check(
        "UD edges, corner combination",
        70,
        &|x, m| {
            let k2 = cp.corner_comb[corner_move(corner_rep[x % 70], m)];
            ud_move(x / 70, m) * 70 + k2 as usize
        },
        &|ud, k| {
            let corners = corner_rep[k];
            projections(cp)
                .ud_corner_comb
                .get(cp.phase2_indices(cp.phase2_at(c, corners, ud, 0))[1])
        },
    );
    // Corners × slice permutation: the coordinate tables' own
    // breadth-first search, over the raw pairs.
    for cn in 0..N_CORNERS {
        for sp in 0..24 {
            let got = projections(cp)
                .corner_slice
                .get(cp.phase2_indices(cp.phase2_at(c, cn, 0, sp))[3]);
            let want = c.corner_slice_depth()[cn * 24 + sp].min(15);
            assert_eq!(got, want, "corners, slice permutation {cn} {sp}");
        }
    }
    // Corners × edge combination, with the corners in the first place.
    let raw = bfs(N_CORNERS * 70, p2, |x, m| {
        let k2 = cp.edge_comb[ud_move(edge_rep[x % 70], m)];
        corner_move(x / 70, m) * 70 + k2 as usize
    });
    for cn in 0..N_CORNERS {
        for k in 0..70 {
            let ud = edge_rep[k];
            let got = projections(cp)
                .corner_edge_comb
                .get(cp.phase2_indices(cp.phase2_at(c, cn, ud, 0))[2]);
            assert_eq!(
                got,
                raw[cn * 70 + k].min(15),
                "corners, edge combination {cn} {k}"
            );
        }
    }
}

/// Phase 2 may start with a turn of the face opposite phase 1's last
/// (here R2 after L'): that turn commutes with L', but moved into
/// phase 1 it makes phase 1 ten moves long, so at length 9 this is its
/// only place. Forbidding it by the canonical order of opposite faces
/// lost this 20-move answer at phase-1 length 9 (min2phase found it
/// there; the solver found another a length later).
#[test]
fn phase2_may_start_on_the_face_opposite_phase1s_last() {
    let phase1: MoveSeq = "U2 F2 D' L2 U2 R U2 F' L'".parse().unwrap();
    let phase2: MoveSeq = "R2 F2 L2 U' B2 D2 F2 U R2 F2 U".parse().unwrap();
    let whole: Vec<FaceTurn> = phase1.0.iter().chain(&phase2.0).copied().collect();
    let cube = CubieCube::from_moves(&whole).inverse();
    let tables = TwoPhaseTables::compact();
    let dir = Direction {
        cube,
        sym: 0,
        inverse: false,
    };
    let mut search = Search::new(&tables, dir, 20, MAX_LEN);
    search.len1 = 9;
    assert!(search.start_phase1(&Phase1Coords::of(&cube)));
    let len2 = search.found.expect("found");
    let answer = search.solution(len2);
    assert!(answer.len() <= 20);
    assert!(cube.apply_moves(&answer.0).is_solved(), "{answer}");
}

/// Phase 2 is capped at first ([`PHASE2_CAP`]); the pass over the
/// phase-1 lengths the cap cut short keeps the search complete. With
/// the cap at 2, a cube of phase 2's group whose answers within the
/// limit are phase 2's alone is solved only by that pass.
#[test]
fn capped_phase2_still_finds_every_answer_within_the_limit() {
    let tables = TwoPhaseTables::compact();
    let cube = CubieCube::from_moves(&"U R2 U' F2 D".parse::<MoveSeq>().unwrap().0);
    // The cube as it is: the other five views are not in phase 2's
    // group, and their phase 1s would find other answers.
    let opts = TwoPhaseOptions {
        max_length: 5,
        all_directions: false,
        ..Default::default()
    };
    let s = solve_once(&tables, &cube, &opts, 2).expect("solved within 5");
    assert!(s.moves.len() <= 5 && cube.apply_moves(&s.moves.0).is_solved());
}

/// A table build says after each depth how far it is: the depths in
/// order, the entries filled growing to all of them.
#[test]
fn symmetric_table_builds_report_each_depth() {
    let c = CoordTables::get();
    let all: Vec<u8> = (0..N_MOVES as u8).collect();
    let mut seen: Vec<(String, u64, u64)> = Vec::new();
    let space = ProjectionSpace {
        classes: N_SLICE,
        inner: 1,
        moves: &all,
        class_move: |sl: usize, m: usize| (c.slice_move[sl * N_MOVES + m] as usize, 0),
        inner_move: |_: usize, _: usize| 0,
        inner_conj: |_: usize, _: usize| 0,
        stab: |_: usize| 1,
    };
    let table = crate::prune::build_sym_nibbles_reporting(&space, &mut |step, done, total| {
        seen.push((step.to_string(), done, total))
    });
    // The UD slice alone is at most 5 moves from home.
    let depths: Vec<String> = (1..=5).map(|d| format!("depth {d}")).collect();
    assert_eq!(seen.iter().map(|s| s.0.clone()).collect::<Vec<_>>(), depths);
    assert!(seen.windows(2).all(|w| w[0].1 < w[1].1));
    assert_eq!(
        seen.last().map(|s| (s.1, s.2)),
        Some((N_SLICE as u64, N_SLICE as u64))
    );
    assert_eq!((0..N_SLICE).map(|i| nibble(&table, i)).max(), Some(5));
}

/// Phase 1 composes the symmetries of its twist and flip classes by
/// XOR: that holds only if the eight commute and are their own inverses.
#[test]
fn edge_orientation_symmetries_compose_by_xor() {
    let sy = Symmetries::get();
    for a in 0..8 {
        assert!(!crate::symmetry::flips_slice_edges(E8[a]));
        for b in 0..8 {
            assert_eq!(sy.mult[E8[a]][E8[b]] as usize, E8[a ^ b], "{a} {b}");
        }
    }
}

#[test]
fn canonical_order_forbids_same_and_reversed_opposite_faces_and_allows_any_first_move() {
    assert!(!face_allowed(0, 0));
    assert!(face_allowed(9, 0)); // D after U
    assert!(!face_allowed(0, 3)); // U after D
    for m in 0..18 {
        assert!(face_allowed(m, NO_FACE), "move {m} first");
    }
    assert!(is_phase2_move(4) && !is_phase2_move(3) && is_phase2_move(10));
}

/// The medium tables, built in memory.
fn medium_tables() -> TwoPhaseTables {
    TwoPhaseTables::medium(&twistor_core::store::NoStore, &mut |_| {})
}

/// The slice flips move and turn by a symmetry as the cube's do, and the
/// (twist class, slice flips) table holds the raw pairs' distances: a
/// breadth-first search over all 2187 × 7920 raw pairs agrees entry for
/// entry, read as the search reads it.
#[test]
fn twist_slice_flips_table_equals_the_raw_one() {
    let c = CoordTables::get();
    let medium = medium_tables();
    let Prune::Compact(cp) = &medium.prune else {
        unreachable!()
    };
    let TwistSlice::SliceFlips(f) = &cp.phase1.twist_slice else {
        panic!("the medium tables' phase 1")
    };
    let sy = Symmetries::get();
    let mut rng = twistor_core::random::SeededRng::new(5);
    for _ in 0..3000 {
        let x = CubieCube::random(|| rng.next_u64());
        let sf = compact::slice_flips(&x);
        assert_eq!(sf / 16, coord::slice(&x) as usize);
        let m = rng.below(N_MOVES);
        let y = x.apply_move(FaceTurn::from_index(m));
        assert_eq!(f.moves[sf * N_MOVES + m] as usize, compact::slice_flips(&y));
        let e = rng.below(8);
        let z = sy.conjugate(&x, E8[e]);
        assert_eq!(f.conj[sf * 8 + e] as usize, compact::slice_flips(&z));
    }
    let all: Vec<u8> = (0..N_MOVES as u8).collect();
    let raw = bfs(N_TWIST * N_SLICE_FLIPS, &all, |x, m| {
        let (tw, sf) = (x / N_SLICE_FLIPS, x % N_SLICE_FLIPS);
        c.twist_move[tw * N_MOVES + m] as usize * N_SLICE_FLIPS + f.moves[sf * N_MOVES + m] as usize
    });
    let v = cp.phase1_view(c);
    for tw in 0..N_TWIST {
        let packed = cp.phase1.twist.packed[tw] as usize;
        for sf in 0..N_SLICE_FLIPS {
            let want = raw[tw * N_SLICE_FLIPS + sf].min(15);
            assert_eq!(
                v.slice_twist.bound(packed, sf),
                want,
                "twist {tw}, slice flips {sf}"
            );
        }
    }
}

/// Each medium phase-2 table is a distance: on positions of phase 2's
/// group reached by random walks of every length, an entry is 0 exactly
/// when its projection is solved, and otherwise one more than the least
/// entry of the position's phase-2 neighbours, which are none of them
/// more than one below it. The distance to solved is the one function
/// with these properties; neighbours are found by turning cubies, not by
/// the move tables the build used, and entries are read as the search
/// reads them, through the classes and symmetries.
#[test]
fn paired_phase2_tables_are_distances() {
    let c = CoordTables::get();
    let medium = medium_tables();
    let Prune::Compact(cp) = &medium.prune else {
        unreachable!()
    };
    let Phase2Tables::Paired(paired) = &cp.phase2 else {
        panic!("the medium tables' phase 2")
    };
    let entries = |q: &CubieCube| {
        let (cn, ud) = (coord::corners(q) as usize, coord::ud_edges(q) as usize);
        let at = cp.phase2_at(c, cn, ud, coord::slice_sorted(q) as usize);
        let [a, b] = cp.paired_indices(at);
        [
            paired.corner_slice_edges.get(a),
            paired.ud_slice_corners.get(b),
        ]
    };
    // The corners' table sees the corners, the slice permutation and
    // where the U edges are; the UD edges' sees the edges, the slice
    // permutation and where the U corners are.
    let solved = |q: &CubieCube| {
        let sp = coord::slice_sorted(q) == 0;
        [
            sp && coord::corners(q) == 0 && compact::comb_rank(&q.ep[..8]) == 0,
            sp && coord::ud_edges(q) == 0 && compact::comb_rank(&q.cp) == 0,
        ]
    };
    let mut rng = twistor_core::random::SeededRng::new(17);
    let mut deepest = [0u8; 2];
    for i in 0..4000 {
        let q = CubieCube::random_in_phase2(&mut rng, i % 40);
        let here = entries(&q);
        let neighbours: Vec<[u8; 2]> = crate::tables::PHASE2_MOVES
            .iter()
            .map(|&m| entries(&q.apply_move(FaceTurn::from_index(m as usize))))
            .collect();
        for t in 0..2 {
            deepest[t] = deepest[t].max(here[t]);
            let least = neighbours.iter().map(|n| n[t]).min().unwrap_or(0);
            assert_eq!(here[t] == 0, solved(&q)[t], "table {t}, walk {i}");
            if here[t] > 0 && here[t] < 15 {
                assert_eq!(least + 1, here[t], "table {t}, walk {i}");
            }
        }
    }
    // The walks reach deep entries of both tables.
    assert!(deepest.iter().all(|&d| d >= 10), "{deepest:?}");
}

/// Every entry of a compact table, in order.
fn nibble_entries(n: &compact::Nibbles) -> Vec<u8> {
    (0..2 * n.bytes()).map(|i| n.get(i)).collect()
}

/// The medium tables keep phase 1's (twist class, flip) and (flip class,
/// slice) tables in the store: written on the first start, read back on
/// the next, and either way the very tables the compact set builds in
/// memory; with all five stored, the store says the medium set is there.
#[test]
fn medium_phase1_tables_come_back_from_the_store_as_built() {
    let dir = std::env::temp_dir().join(format!("twistor-medium-{}", std::process::id()));
    let store = twistor_store::DirStore::new(&dir);
    assert!(!TwoPhaseTables::medium_tables_stored(&store));
    let phase1 = |t: &TwoPhaseTables| {
        let Prune::Compact(cp) = &t.prune else {
            unreachable!()
        };
        (
            nibble_entries(&cp.phase1.twist_flip),
            nibble_entries(&cp.phase1.slice_flip),
        )
    };
    let compact = phase1(&TwoPhaseTables::compact());
    let mut saved = 0;
    let built = TwoPhaseTables::medium(&store, &mut |e| {
        saved += matches!(e, StoreEvent::Saved { .. }) as usize
    });
    assert_eq!(saved, 5, "the medium set's five tables are kept");
    assert!(TwoPhaseTables::medium_tables_stored(&store));
    let mut loaded_count = 0;
    let loaded = TwoPhaseTables::medium(&store, &mut |e| {
        loaded_count += matches!(e, StoreEvent::Loaded { .. }) as usize
    });
    assert_eq!(loaded_count, 5, "a second start reads all five");
    assert_eq!(phase1(&built), compact);
    assert_eq!(phase1(&loaded), compact);
    std::fs::remove_dir_all(&dir).ok();
}

/// Without the medium or full tables, a process keeps the compact set in
/// the store: the first start writes its seven tables, the next reads
/// them back, the very tables built in memory.
#[test]
fn kept_compact_tables_come_back_from_the_store_as_built() {
    let dir = std::env::temp_dir().join(format!("twistor-compact-{}", std::process::id()));
    let store = twistor_store::DirStore::new(&dir);
    let tables = |t: &TwoPhaseTables| -> Vec<Vec<u8>> {
        let Prune::Compact(cp) = &t.prune else {
            unreachable!()
        };
        let (TwistSlice::Slice(slice_twist), Phase2Tables::Projections(p2)) =
            (&cp.phase1.twist_slice, &cp.phase2)
        else {
            panic!("the compact set")
        };
        [
            &cp.phase1.twist_flip,
            &cp.phase1.slice_flip,
            slice_twist,
            &p2.ud_slice,
            &p2.ud_corner_comb,
            &p2.corner_edge_comb,
            &p2.corner_slice,
        ]
        .map(nibble_entries)
        .to_vec()
    };
    let built = tables(&TwoPhaseTables::compact());
    let mut told = 0;
    let first = TwoPhaseTables::compact_kept(&store, &mut |_| told += 1);
    assert_eq!(told, 0, "building and keeping the small tables is not told");
    let kept = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(kept, 7, "the compact set's seven tables are kept");
    let mut loaded = 0;
    let second = TwoPhaseTables::compact_kept(&store, &mut |e| {
        loaded += matches!(e, StoreEvent::Loaded { .. }) as usize
    });
    assert_eq!(loaded, 0, "reading them back is not told either");
    assert_eq!(tables(&first), built);
    assert_eq!(tables(&second), built);
    // A corrupt copy is told, and built again.
    let victim = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&victim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&victim, bytes).unwrap();
    let mut rejected = 0;
    let third = TwoPhaseTables::compact_kept(&store, &mut |e| {
        rejected += matches!(e, StoreEvent::Rejected { .. }) as usize
    });
    assert_eq!(rejected, 1);
    assert_eq!(tables(&third), built);
    std::fs::remove_dir_all(&dir).ok();
}
