//! Property tests of the puzzle model.
//!
//! Two kinds: random layouts with random transformations and patterns
//! (always run), and every move and every power of a move of the reference
//! puzzles in `../shared/puzzles/{tws,tws-symm,kpuzzle}` (when the checkout
//! has them, as CI's does) plus the small definitions of the formats tests'
//! support module (always).

#[path = "../../formats/tests/support/mod.rs"]
mod support;

use std::collections::HashSet;
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::Index;
use twistor_core::{
    BigUint, Layout, MoveDef, MoveKind, Orbit, Pattern, PatternOrbit, Puzzle, StabilizerChain,
    Transformation,
};

// ---------------------------------------------------------------- helpers

/// Orientation counts the random layouts draw from (24 has many divisors).
const ORIENTATIONS: &[usize] = &[1, 2, 3, 4, 5, 6, 12, 24];

fn layout_of(spec: &[(usize, usize)]) -> Layout {
    Layout::new(
        spec.iter()
            .enumerate()
            .map(|(i, &(n, m))| Orbit::new(format!("O{i}"), n, m).unwrap())
            .collect(),
    )
    .unwrap()
}

/// Layouts of 1 to 4 orbits of 1 to `max_pieces` pieces.
fn layout_strategy(max_pieces: usize) -> impl Strategy<Value = Layout> {
    prop::collection::vec((1..=max_pieces, prop::sample::select(ORIENTATIONS)), 1..=4)
        .prop_map(|spec| layout_of(&spec))
}

/// Uniformly random transformations of `layout`.
fn transformation_strategy(layout: &Layout) -> impl Strategy<Value = Transformation> {
    let orbits: Vec<_> = layout
        .orbits()
        .iter()
        .map(|o| {
            let n = o.num_pieces();
            let m = o.num_orientations() as u8;
            (
                Just((0..n as u8).collect::<Vec<u8>>()).prop_shuffle(),
                prop::collection::vec(0..m, n),
            )
        })
        .collect();
    let l = layout.clone();
    orbits.prop_map(move |parts| {
        let mut bytes = Vec::new();
        for (p, o) in parts {
            bytes.extend(p);
            bytes.extend(o);
        }
        Transformation::from_bytes(&l, bytes).unwrap()
    })
}

/// Moduli a pattern may give a piece of an orbit with `m` orientations:
/// 0 (fully known) and the proper divisors of `m`.
fn moduli(m: usize) -> Vec<u8> {
    std::iter::once(0)
        .chain((1..m).filter(|d| m % d == 0).map(|d| d as u8))
        .collect()
}

/// Random patterns: repeated piece ids, per-piece orientation moduli.
fn pattern_orbits_strategy(layout: &Layout) -> impl Strategy<Value = Vec<PatternOrbit>> {
    let orbits: Vec<_> = layout
        .orbits()
        .iter()
        .map(|o| {
            let n = o.num_pieces();
            let m = o.num_orientations();
            (
                prop::collection::vec(0..n as u8, n),
                prop::collection::vec(prop::sample::select(moduli(m)), n),
                prop::collection::vec(any::<u8>(), n),
            )
                .prop_map(move |(pieces, mods, raw)| {
                    let orientation = raw
                        .iter()
                        .zip(&mods)
                        .map(|(&r, &d)| r % if d == 0 { m as u8 } else { d })
                        .collect();
                    PatternOrbit {
                        pieces,
                        orientation,
                        orientation_mod: Some(mods),
                    }
                })
        })
        .collect();
    orbits
}

/// A layout with three random transformations of it.
fn three() -> impl Strategy<Value = (Layout, Transformation, Transformation, Transformation)> {
    layout_strategy(12).prop_flat_map(|l| {
        (
            Just(l.clone()),
            transformation_strategy(&l),
            transformation_strategy(&l),
            transformation_strategy(&l),
        )
    })
}

fn order_u64(layout: &Layout, t: &Transformation) -> u64 {
    u64::try_from(layout.order(t)).expect("orders here fit in u64")
}

fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut p = 2;
    while p * p <= n {
        if n % p == 0 {
            out.push(p);
            while n % p == 0 {
                n /= p;
            }
        }
        p += 1;
    }
    if n > 1 {
        out.push(n);
    }
    out
}

/// Checks that `t^order(t)` is the identity and no smaller power is: for
/// every prime `p` dividing the order, `t^(order/p)` is not the identity.
fn check_order(layout: &Layout, t: &Transformation, what: &str) -> Result<u64, String> {
    let ord = order_u64(layout, t);
    if ord == 0 {
        return Err(format!("{what}: order 0"));
    }
    if !layout.is_identity(&layout.power(t, ord as i64)) {
        return Err(format!("{what}: t^{ord} is not the identity"));
    }
    for p in prime_factors(ord) {
        if layout.is_identity(&layout.power(t, (ord / p) as i64)) {
            return Err(format!(
                "{what}: t^{} is already the identity, order says {ord}",
                ord / p
            ));
        }
    }
    Ok(ord)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The spec's action of a transformation on a pattern, computed on plain
/// values: the piece, its modulus and its orientation move together from
/// slot `t.p[i]` to slot `i`, and the orientation gains `t.o[i]` modulo the
/// piece's own modulus.
fn apply_by_hand(layout: &Layout, p: &[PatternOrbit], t: &Transformation) -> Vec<PatternOrbit> {
    layout
        .orbits()
        .iter()
        .enumerate()
        .map(|(k, o)| {
            let m = o.num_orientations() as u32;
            let tp = layout.perm(t.as_bytes(), k);
            let to = layout.ori(t.as_bytes(), k);
            let mods = p[k]
                .orientation_mod
                .clone()
                .unwrap_or_else(|| vec![0; o.num_pieces()]);
            let mut out = PatternOrbit {
                pieces: Vec::new(),
                orientation: Vec::new(),
                orientation_mod: Some(Vec::new()),
            };
            for i in 0..o.num_pieces() {
                let j = tp[i] as usize;
                let d = if mods[j] == 0 { m } else { mods[j] as u32 };
                out.pieces.push(p[k].pieces[j]);
                out.orientation
                    .push(((p[k].orientation[j] as u32 + to[i] as u32) % d) as u8);
                out.orientation_mod.as_mut().unwrap().push(mods[j]);
            }
            out
        })
        .collect()
}

/// Pattern orbits with the moduli always spelled out (the model leaves
/// them out when every piece is fully known).
fn explicit_mods(layout: &Layout, p: Vec<PatternOrbit>) -> Vec<PatternOrbit> {
    p.into_iter()
        .zip(layout.orbits())
        .map(|(mut po, o)| {
            po.orientation_mod
                .get_or_insert_with(|| vec![0; o.num_pieces()]);
            po
        })
        .collect()
}

/// The closure of the generators by breadth-first search: the group's
/// elements, for groups small enough to list.
fn closure(layout: &Layout, gens: &[Transformation]) -> usize {
    let mut seen = HashSet::new();
    let mut queue = vec![layout.identity()];
    seen.insert(layout.identity());
    while let Some(t) = queue.pop() {
        for g in gens {
            let u = layout.compose(&t, g);
            if seen.insert(u.clone()) {
                queue.push(u);
            }
        }
    }
    seen.len()
}

fn puzzle_with(layout: &Layout, gens: &[Transformation]) -> Puzzle {
    let start = layout.pattern_of(&layout.identity());
    let mut p = Puzzle::new("random", layout.clone(), start);
    for (i, g) in gens.iter().enumerate() {
        p.add_move(MoveDef {
            name: format!("M{i}"),
            transformation: g.clone(),
            kind: MoveKind::Base,
            definition: None,
        })
        .unwrap();
    }
    p
}

// ---------------------------------------------------------------- random layouts

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn composition_is_associative((l, a, b, c) in three()) {
        let left = l.compose(&l.compose(&a, &b), &c);
        let right = l.compose(&a, &l.compose(&b, &c));
        prop_assert_eq!(left, right);
    }

    #[test]
    fn identity_is_neutral_and_inverses_cancel((l, a, b, _c) in three()) {
        let id = l.identity();
        prop_assert_eq!(&l.compose(&id, &a), &a);
        prop_assert_eq!(&l.compose(&a, &id), &a);
        let inv = l.invert(&a);
        prop_assert!(l.is_identity(&l.compose(&a, &inv)));
        prop_assert!(l.is_identity(&l.compose(&inv, &a)));
        prop_assert_eq!(&l.invert(&inv), &a);
        // (a·b)⁻¹ = b⁻¹·a⁻¹
        prop_assert_eq!(l.invert(&l.compose(&a, &b)), l.compose(&l.invert(&b), &inv));
    }

    #[test]
    fn compose_into_matches_the_spec_product((l, a, b, _c) in three()) {
        // sss: no[i] = (o1[p2[i]] + o2[i]) % omod, np[i] = p1[p2[i]].
        let mut out = vec![0u8; l.state_len()];
        l.compose_into(a.as_bytes(), b.as_bytes(), &mut out);
        for (k, o) in l.orbits().iter().enumerate() {
            let m = o.num_orientations() as u32;
            let (pa, oa) = (l.perm(a.as_bytes(), k), l.ori(a.as_bytes(), k));
            let (pb, ob) = (l.perm(b.as_bytes(), k), l.ori(b.as_bytes(), k));
            for i in 0..o.num_pieces() {
                let j = pb[i] as usize;
                prop_assert_eq!(l.perm(&out, k)[i], pa[j]);
                prop_assert_eq!(l.ori(&out, k)[i] as u32, (oa[j] as u32 + ob[i] as u32) % m);
            }
        }
    }

    #[test]
    fn order_is_the_least_power_giving_the_identity((l, a, _b, _c) in three()) {
        let ord = check_order(&l, &a, "random").map_err(TestCaseError::fail)?;
        // Small orders: walk the powers one by one as well.
        if ord <= 5_000 {
            let mut t = a.clone();
            let mut k = 1;
            while !l.is_identity(&t) {
                t = l.compose(&t, &a);
                k += 1;
            }
            prop_assert_eq!(k, ord);
        }
        // The order of a power a^j is ord / gcd(ord, j).
        for j in 1..=6u64 {
            let pj = l.power(&a, j as i64);
            prop_assert_eq!(order_u64(&l, &pj), ord / gcd(ord, j));
        }
    }

    #[test]
    fn powers_add_exponents(
        (l, a, _b, _c) in three(),
        j in -3_000_000_000i64..3_000_000_000,
        k in -3_000_000_000i64..3_000_000_000,
    ) {
        let lhs = l.compose(&l.power(&a, j), &l.power(&a, k));
        prop_assert_eq!(lhs, l.power(&a, j + k));
        prop_assert_eq!(l.power(&a, -1), l.invert(&a));
        prop_assert!(l.is_identity(&l.power(&a, 0)));
        // Small exponents against repeated products.
        let mut t = l.identity();
        let inv = l.invert(&a);
        for e in 1..=5i64 {
            t = l.compose(&t, &a);
            prop_assert_eq!(&l.power(&a, e), &t);
        }
        let mut t = l.identity();
        for e in 1..=5i64 {
            t = l.compose(&t, &inv);
            prop_assert_eq!(&l.power(&a, -e), &t);
        }
    }

    #[test]
    fn parity_is_a_homomorphism((l, a, b, _c) in three()) {
        let ab = l.compose(&a, &b);
        for k in 0..l.orbits().len() {
            prop_assert_eq!(l.is_odd(&ab, k), l.is_odd(&a, k) ^ l.is_odd(&b, k));
            prop_assert_eq!(l.is_odd(&l.invert(&a), k), l.is_odd(&a, k));
        }
    }

    #[test]
    fn points_are_a_faithful_homomorphism((l, a, b, _c) in three()) {
        let (pa, pb) = (l.to_points(a.as_bytes()), l.to_points(b.as_bytes()));
        let pab = l.to_points(l.compose(&a, &b).as_bytes());
        // a then b: the sticker at x goes to pa[x], then to pb[pa[x]].
        for x in 0..l.num_points() {
            prop_assert_eq!(pab[x], pb[pa[x] as usize]);
        }
        prop_assert_eq!(l.from_points(&pa), Some(a.as_bytes().to_vec()));
    }

    #[test]
    fn patterns_follow_the_spec_and_compose_as_an_action(
        (l, po, a, b) in layout_strategy(12).prop_flat_map(|l| (
            Just(l.clone()),
            pattern_orbits_strategy(&l),
            transformation_strategy(&l),
            transformation_strategy(&l),
        ))
    ) {
        let p: Pattern = l.pattern(&po).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(explicit_mods(&l, l.pattern_orbits(&p)), explicit_mods(&l, po.clone()));
        let pa = l.apply(&p, &a);
        prop_assert_eq!(
            explicit_mods(&l, l.pattern_orbits(&pa)),
            apply_by_hand(&l, &po, &a)
        );
        // (p·a)·b = p·(a·b), and a then a⁻¹ gives p back.
        prop_assert_eq!(l.apply(&pa, &b), l.apply(&p, &l.compose(&a, &b)));
        prop_assert_eq!(&l.apply(&pa, &l.invert(&a)), &p);
        // The pattern of a transformation is its action on the identity pattern.
        let id = l.pattern_of(&l.identity());
        prop_assert_eq!(l.apply(&id, &a), l.pattern_of(&a));
        prop_assert_eq!(l.transformation_of(&l.pattern_of(&a)), Some(a.clone()));
        // Checked bytes accept what the model builds.
        prop_assert_eq!(l.pattern_from_bytes(pa.as_bytes().to_vec()).ok(), Some(pa.clone()));
        prop_assert!(l.same_pieces(&p, &pa));
        // The sparse form of a transformation acts on a pattern as it does.
        let mut out = vec![0u8; l.state_len()];
        l.sparse(a.as_bytes()).apply(p.as_bytes(), &mut out);
        prop_assert_eq!(&out[..], pa.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Schreier–Sims against listing every element, on groups small enough
    /// to list (at most 8 points, so at most 8! elements).
    #[test]
    fn group_order_matches_the_closure(
        (l, gens) in prop::collection::vec((1usize..=4, prop::sample::select(&[1usize, 2][..])), 1..=3)
            .prop_filter("at most 8 points", |spec| spec.iter().map(|(n, m)| n * m).sum::<usize>() <= 8)
            .prop_map(|spec| layout_of(&spec))
            .prop_flat_map(|l| (Just(l.clone()), prop::collection::vec(transformation_strategy(&l), 1..=3)))
    ) {
        let puzzle = puzzle_with(&l, &gens);
        let all: Vec<usize> = (0..gens.len()).collect();
        prop_assert_eq!(puzzle.group_order(&all), BigUint::from(closure(&l, &gens)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A group projected onto some of its orbits: restricting states to
    /// them is a homomorphism, and the projected chain's order is the
    /// closure of the restricted generators.
    #[test]
    fn projection_onto_orbits_is_the_group_of_the_restricted_moves(
        (l, gens, kept) in prop::collection::vec((1usize..=4, prop::sample::select(&[1usize, 2][..])), 1..=3)
            .prop_filter("at most 8 points", |spec| spec.iter().map(|(n, m)| n * m).sum::<usize>() <= 8)
            .prop_map(|spec| layout_of(&spec))
            .prop_flat_map(|l| {
                let orbits = l.orbits().len();
                (
                    Just(l.clone()),
                    prop::collection::vec(transformation_strategy(&l), 1..=3),
                    prop::collection::vec(any::<bool>(), orbits)
                        .prop_filter("some orbit kept", |k| k.iter().any(|&x| x)),
                )
            })
    ) {
        let puzzle = puzzle_with(&l, &gens);
        let bytes: Vec<&[u8]> = gens.iter().map(|g| g.as_bytes()).collect();
        let (sub, chain) = puzzle.projected_group(&kept, &bytes).unwrap();
        let restricted: Vec<Transformation> = (gens.iter())
            .map(|g| Transformation::from_bytes(&sub, l.restrict(&kept, g.as_bytes())).unwrap())
            .collect();
        prop_assert_eq!(chain.order(), BigUint::from(closure(&sub, &restricted)));
        let product = l.compose(&gens[0], &gens[gens.len() - 1]);
        let restricted_product = sub.compose(&restricted[0], &restricted[gens.len() - 1]);
        prop_assert_eq!(
            &l.restrict(&kept, product.as_bytes())[..],
            restricted_product.as_bytes()
        );
        // Every orbit kept: the projection is the group itself.
        let all = vec![true; l.orbits().len()];
        prop_assert_eq!(&l.restrict(&all, product.as_bytes())[..], product.as_bytes());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Past 150 points the order comes from a randomized chain checked
    /// against a proven bound; it must agree with the deterministic chain,
    /// and every product of generators must sift through it.
    #[test]
    fn randomized_group_order_matches_the_deterministic_one(
        (l, gens, word) in prop::collection::vec((8usize..=16, prop::sample::select(&[1usize, 2, 3, 4][..])), 4..=6)
            .prop_filter("more than 150 points", |spec| spec.iter().map(|(n, m)| n * m).sum::<usize>() > 150)
            .prop_map(|spec| layout_of(&spec))
            .prop_flat_map(|l| (
                Just(l.clone()),
                prop::collection::vec(transformation_strategy(&l), 2..=3),
                prop::collection::vec(any::<Index>(), 0..20),
            ))
    ) {
        let puzzle = puzzle_with(&l, &gens);
        let all: Vec<usize> = (0..gens.len()).collect();
        let points: Vec<Vec<u16>> = gens.iter().map(|g| l.to_points(g.as_bytes())).collect();
        let exact = StabilizerChain::new(l.num_points(), &points);
        let chain = puzzle.group(&all);
        prop_assert_eq!(chain.order(), exact.order());
        let mut t = l.identity();
        for i in &word {
            t = l.compose(&t, &gens[i.index(gens.len())]);
        }
        prop_assert!(chain.contains(&l.to_points(t.as_bytes())));
    }
}

// ---------------------------------------------------------------- reference puzzles

/// The reference puzzles (when `../shared` is there) and the support
/// module's own definitions, read once.
fn reference_puzzles() -> &'static [(String, Puzzle)] {
    static CELL: OnceLock<Vec<(String, Puzzle)>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut out = Vec::new();
        for (name, text) in [
            ("support/Cube3.tws", support::CUBE3_TWS),
            ("support/Gadget.tws", support::GADGET_TWS),
            ("support/Widget.json", support::WIDGET_JSON),
            ("support/Gizmo.json", support::GIZMO_OLD_JSON),
        ] {
            let p = twistor_formats::read_puzzle(text, name).unwrap_or_else(|e| panic!("{e}"));
            out.push((name.to_string(), p));
        }
        for path in support::reference_definitions() {
            let text = support::read_text(&path);
            let name = path.display().to_string();
            let p = twistor_formats::read_puzzle(&text, &name).unwrap_or_else(|e| panic!("{e}"));
            out.push((name, p));
        }
        out
    })
}

#[test]
fn every_reference_puzzle_is_read() {
    let n = support::reference_definitions().len();
    if support::shared_dir().is_some() {
        // 87 .tws, 52 with rotations, 20 KPuzzle files less the scramble
        // files beside them: the checkout's reference set.
        assert!(n >= 150, "only {n} reference definitions found");
    } else {
        eprintln!("../shared is absent: only the support definitions are checked");
    }
    assert_eq!(reference_puzzles().len(), n + 4);
}

/// For every named move and every power of it: `t·t⁻¹ = t⁻¹·t = id`,
/// `t^order(t) = id` with no smaller power the identity, and the powers a
/// search uses are the powers of the move, with the orders that follow.
#[test]
fn every_move_and_power_of_every_reference_puzzle_has_its_order() {
    let mut checked = 0usize;
    for (name, p) in reference_puzzles() {
        let l = p.layout();
        for (i, mv) in p.moves().iter().enumerate() {
            let what = format!("{name} move {}", mv.name);
            let t = &mv.transformation;
            let inv = l.invert(t);
            assert!(l.is_identity(&l.compose(t, &inv)), "{what}: t·t⁻¹");
            assert!(l.is_identity(&l.compose(&inv, t)), "{what}: t⁻¹·t");
            let ord = check_order(l, t, &what).unwrap_or_else(|e| panic!("{e}"));
            let powers = p.move_powers(i);
            if ord <= 10_000 {
                assert_eq!(powers.len() as u64, ord - 1, "{what}: powers");
            }
            for pw in &powers {
                let pwhat = format!("{what} power {}", pw.name);
                assert_eq!(pw.transformation, l.power(t, pw.amount as i64), "{pwhat}");
                assert!(
                    2 * pw.amount.unsigned_abs() as u64 <= ord,
                    "{pwhat}: amount"
                );
                let pord =
                    check_order(l, &pw.transformation, &pwhat).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(
                    pord,
                    ord / gcd(ord, pw.amount.unsigned_abs() as u64),
                    "{pwhat}"
                );
                let pinv = l.invert(&pw.transformation);
                assert!(
                    l.is_identity(&l.compose(&pw.transformation, &pinv)),
                    "{pwhat}"
                );
                checked += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Associativity on real puzzles, with products of moves and powers.
    #[test]
    fn composition_is_associative_on_reference_puzzles(
        which in any::<Index>(),
        words in prop::collection::vec(prop::collection::vec((any::<Index>(), -3i64..=3), 1..6), 3),
    ) {
        let puzzles = reference_puzzles();
        let (name, p) = &puzzles[which.index(puzzles.len())];
        let l = p.layout();
        let product = |w: &[(Index, i64)]| {
            w.iter().fold(l.identity(), |t, (m, e)| {
                let mv = &p.moves()[m.index(p.moves().len())];
                l.compose(&t, &l.power(&mv.transformation, *e))
            })
        };
        let (a, b, c) = (product(&words[0]), product(&words[1]), product(&words[2]));
        prop_assert_eq!(
            l.compose(&l.compose(&a, &b), &c),
            l.compose(&a, &l.compose(&b, &c)),
            "{}", name
        );
        // The start pattern is acted on consistently too.
        let s = p.start();
        prop_assert_eq!(
            l.apply(&l.apply(s, &a), &b),
            l.apply(s, &l.compose(&a, &b)),
            "{}", name
        );
        prop_assert!(l.is_identity(&l.compose(&l.compose(&a, &b), &l.compose(&l.invert(&b), &l.invert(&a)))));
        // A move's sparse form, applied to a pattern of the puzzle, gives
        // what composing with the whole move gives.
        let (first, e) = &words[0][0];
        let mv = l.power(&p.moves()[first.index(p.moves().len())].transformation, *e);
        let sa = l.apply(s, &a);
        let mut out = vec![0u8; l.state_len()];
        l.sparse(mv.as_bytes()).apply(sa.as_bytes(), &mut out);
        let want = l.apply(&sa, &mv);
        prop_assert_eq!(&out[..], want.as_bytes(), "{}", name);
    }
}
