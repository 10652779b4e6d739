//! Random-state 4x4x4 scrambles: every scramble reaches exactly the
//! position drawn (held some way up), in competition length and notation,
//! and the positions drawn are uniform (chi-square tests with a fixed
//! seed).

use std::path::PathBuf;
use twistor_core::random::{chi_square, chi_square_critical};

use twistor_core::random::SeededRng;
use twistor_cube333::TwoPhaseTables;
use twistor_cube444::{within_one_move, Alg444, Cube444, Cube444Solver, Move444, Turn444};
use twistor_store::DirStore;

fn store() -> DirStore {
    DirStore::new(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-cube444-tables"))
}

#[test]
fn scrambles_reach_their_positions_in_competition_length() {
    let store = store();
    let three = TwoPhaseTables::load(&store, &mut |_| {});
    let solver = Cube444Solver::load(&store, &mut |_| {});
    let mut rng = SeededRng::new(444);
    let mut total = 0;
    for _ in 0..12 {
        let s = solver.random_scramble(&mut rng, &three).unwrap();
        let reached = Cube444::solved().apply_alg(&s.alg);
        assert!(reached.same_up_to_rotation(&s.position), "{}", s.alg);
        // WCA notation as TNoodle writes it: outer turns and Uw Rw Fw.
        for t in &s.alg.0 {
            let Turn444::Move(m) = t else {
                panic!("a rotation in {}", s.alg)
            };
            assert!(!m.is_wide() || m.face() < 3, "{}", s.alg);
        }
        let text = s.alg.to_string();
        assert_eq!(text.parse::<Alg444>().unwrap(), s.alg);
        // Never the same layers twice in a row.
        for w in s.alg.0.windows(2) {
            assert_ne!(w[0], w[1]);
        }
        let n = s.alg.0.len();
        assert!((35..=50).contains(&n), "{n} moves: {}", s.alg);
        assert!(s.phase_lengths.iter().sum::<usize>() >= n);
        total += n;
    }
    // TNoodle's three-phase solver averages 44.4 moves.
    let mean = total as f64 / 12.0;
    assert!((40.0..=47.0).contains(&mean), "mean {mean}");
}

/// A solver without the pairings 9 moves away makes the same scrambles,
/// and once completed it has them (and a store that keeps tables gets
/// them, even when they were built before).
#[test]
fn quick_tables_make_the_same_scrambles_and_complete_later() {
    let store = store();
    let three = TwoPhaseTables::load(&store, &mut |_| {});
    let full = Cube444Solver::load(&store, &mut |_| {});
    let quick = Cube444Solver::load_quick(&twistor_core::store::NoStore, &mut |_| {});
    assert!(full.is_complete() && !quick.is_complete());
    let (mut a, mut b) = (SeededRng::new(7), SeededRng::new(7));
    for _ in 0..4 {
        let (x, y) = (
            full.random_scramble(&mut a, &three),
            quick.random_scramble(&mut b, &three),
        );
        assert_eq!(x.unwrap().alg, y.unwrap().alg);
    }
    // Completed where nothing is kept, then given to a store that keeps.
    quick.complete(&twistor_core::store::NoStore, &mut |_| {});
    assert!(quick.is_complete());
    let memory = twistor_core::store::MemoryStore::default();
    assert!(!Cube444Solver::load_quick(&memory, &mut |_| {}).is_complete());
    quick.complete(&memory, &mut |_| {});
    assert!(Cube444Solver::load_quick(&memory, &mut |_| {}).is_complete());
}

#[test]
fn positions_one_move_from_solved_are_recognised() {
    let solved = Cube444::solved();
    assert!(within_one_move(&solved));
    for i in 0..Move444::COUNT {
        let m = Move444::new(i / 6, (i / 3) % 2 == 1, i % 3 + 1).unwrap();
        let turned = solved.apply_alg(&"y x'".parse().unwrap()).apply_move(m);
        assert!(within_one_move(&turned), "{m}");
        assert!(!within_one_move(&turned.apply_move(
            Move444::new((m.face() + 1) % 6, false, 1).unwrap()
        )));
    }
}

/// The random positions are uniform: which two colours show on the wing
/// in the U face's first edge slot (24 equally likely wings, times which
/// wing is beside it: 24·23 bins), how the corner in the first corner slot
/// is placed and twisted (24 bins), and the colours of the first three
/// centres (6³ bins, weighted by how many centres of each colour remain).
#[test]
fn random_positions_pass_chi_square_tests() {
    let mut rng = SeededRng::new(20_261_124);
    let draws = 24 * 23 * 30;
    let mut wings = vec![0u64; 24 * 24];
    let mut corner = vec![0u64; 36];
    let mut centres = vec![0u64; 6 * 6 * 6];
    let solved = Cube444::solved();
    // A wing's stickers: (U face row 0 column 1, B face row 0 column 2) and
    // its neighbour's, read in the same turning sense (B row 0 column 1,
    // U row 0 column 2), so that each wing reads as one colour pair in both.
    let (w0, w1) = ([1usize, 80 + 2], [80 + 1, 2usize]);
    let id =
        |c: &Cube444, w: [usize; 2]| c.stickers()[w[0]] as usize * 6 + c.stickers()[w[1]] as usize;
    let wing_ids: Vec<usize> = {
        let mut v: Vec<usize> = Vec::new();
        let mut rng = SeededRng::new(1);
        while v.len() < 24 {
            let c = Cube444::random(&mut rng);
            let i = id(&c, w0);
            if !v.contains(&i) {
                v.push(i);
            }
        }
        v
    };
    // Solved, that wing shows U (colour 0) then B (colour 5).
    assert_eq!(id(&solved, w0), 5);
    for _ in 0..draws {
        let c = Cube444::random(&mut rng);
        let a = wing_ids.iter().position(|&x| x == id(&c, w0)).unwrap();
        let b = wing_ids.iter().position(|&x| x == id(&c, w1)).unwrap();
        assert_ne!(a, b);
        wings[a * 24 + b] += 1;
        // The corner at U face row 3 column 3 (URF): its U-face colour and
        // the colour on its R face.
        let s = c.stickers();
        let (u, r) = (s[15] as usize, s[16] as usize);
        corner[u * 6 + r] += 1;
        centres[s[5] as usize * 36 + s[6] as usize * 6 + s[9] as usize] += 1;
    }
    let wing_bins: Vec<u64> = (0..24 * 24)
        .filter(|i| i / 24 != i % 24)
        .map(|i| wings[i])
        .collect();
    assert_eq!(wing_bins.len(), 552);
    let corner_bins: Vec<u64> = corner.iter().copied().filter(|&c| c > 0).collect();
    assert_eq!(corner_bins.len(), 24);
    for bins in [&wing_bins[..], &corner_bins[..]] {
        let (x, crit) = (chi_square(bins), chi_square_critical(bins.len() - 1));
        assert!(x < crit, "chi-square {x} over {crit}");
    }
    // Centres: three of 24 drawn without replacement from four of each
    // colour; expected counts in proportion to 4·4·4, 4·4·3 or 4·3·2.
    let mut x = 0.0;
    for (i, &n) in centres.iter().enumerate() {
        let (a, b, c) = (i / 36, i / 6 % 6, i % 6);
        let mut left = [4.0f64; 6];
        let mut p = 1.0;
        for (k, colour) in [a, b, c].into_iter().enumerate() {
            p *= left[colour] / (24 - k) as f64;
            left[colour] -= 1.0;
        }
        let e = p * draws as f64;
        x += (n as f64 - e).powi(2) / e;
    }
    let crit = chi_square_critical(6 * 6 * 6 - 1);
    assert!(x < crit, "centres: chi-square {x} over {crit}");
}
