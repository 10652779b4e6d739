//! Random states are uniform (chi-square tests with a fixed seed) and
//! reachable (membership by sifting, and optimal solutions).

use std::sync::atomic::AtomicBool;
use twistor_core::random::{chi_square, chi_square_critical};

use twistor_core::{Puzzle, Transformation};
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::{Metric, MoveSet, SolveOptions, Solver, SolverOptions};
use twistor_tools::random::RandomStates;
use twistor_tools::rng::SeededRng;
use twistor_tools::scramble::scramble_puzzle;

fn two_by_two() -> Puzzle {
    build("2x2x2", &PuzzleOptions::default())
        .unwrap()
        .into_puzzle()
}

/// Bins of three statistics of a 2x2x2 position: the piece and twist in
/// slot 0 (24 bins), the twists of slots 0..7 (the eighth follows; 3^7
/// bins), and which pieces fill slots 0, 1, 2 (8·7·6 bins).
struct Bins {
    slot0: Vec<u64>,
    twists: Vec<u64>,
    first_three: Vec<u64>,
}

impl Bins {
    fn new() -> Bins {
        Bins {
            slot0: vec![0; 24],
            twists: vec![0; 2187],
            first_three: vec![0; 512],
        }
    }

    fn add(&mut self, p: &Puzzle, t: &Transformation) {
        let l = p.layout();
        let perm = l.perm(t.as_bytes(), 0);
        let ori = l.ori(t.as_bytes(), 0);
        self.slot0[perm[0] as usize * 3 + ori[0] as usize] += 1;
        let tw = ori[..7].iter().fold(0usize, |a, &o| a * 3 + o as usize);
        self.twists[tw] += 1;
        let f = perm[0] as usize * 64 + perm[1] as usize * 8 + perm[2] as usize;
        self.first_three[f] += 1;
    }

    /// (statistic, critical value) of each test; first-three bins that
    /// cannot occur (a repeated piece) are left out.
    fn tests(&self) -> Vec<(f64, f64)> {
        let ft: Vec<u64> = (0..512)
            .filter(|&i| i / 64 != (i / 8) % 8 && i / 64 != i % 8 && (i / 8) % 8 != i % 8)
            .map(|i| self.first_three[i])
            .collect();
        assert_eq!(ft.len(), 336);
        [&self.slot0[..], &self.twists[..], &ft[..]]
            .iter()
            .map(|c| (chi_square(c), chi_square_critical(c.len() - 1)))
            .collect()
    }
}

const DRAWS: usize = 2187 * 20;

#[test]
fn random_states_pass_chi_square_tests_and_are_members() {
    let p = two_by_two();
    let gens = p.search_moves();
    let mut states = RandomStates::new(&p, &gens, 20240601);
    assert_eq!(states.chain().order(), 88_179_840u64.into());
    let mut bins = Bins::new();
    for i in 0..DRAWS {
        let t = states.next_transformation();
        if i % 100 == 0 {
            assert!(states.chain().contains(&p.layout().to_points(t.as_bytes())));
        }
        bins.add(&p, &t);
    }
    for (stat, crit) in bins.tests() {
        assert!(
            stat < crit,
            "chi-square {stat:.1} above the 0.1% point {crit:.1}"
        );
    }
}

#[test]
fn the_chi_square_tests_reject_short_random_walks() {
    // The same statistics from four random moves are far from uniform, so
    // the tests above can fail.
    let p = two_by_two();
    let l = p.layout();
    let moves: Vec<Transformation> = p
        .search_moves()
        .iter()
        .flat_map(|&i| p.move_powers(i))
        .map(|m| m.transformation)
        .collect();
    let mut rng = SeededRng::new(7);
    let mut bins = Bins::new();
    for _ in 0..DRAWS {
        let mut t = l.identity();
        for _ in 0..4 {
            t = l.compose(&t, &moves[rng.below(moves.len())]);
        }
        bins.add(&p, &t);
    }
    let rejected = bins.tests().iter().filter(|(s, c)| s > c).count();
    assert_eq!(rejected, 3);
}

#[test]
fn random_states_are_solved_by_the_optimal_solver() {
    // <R, U, F> keeps a corner still: 3,674,160 states, every one solvable
    // in at most 11 moves with R, U, F.
    let p = scramble_puzzle("2x2x2", &["R", "U", "F"], &[]).unwrap();
    let gens: Vec<usize> = (0..3).collect();
    let mut states = RandomStates::new(&p, &gens, 99);
    assert_eq!(states.chain().order(), 3_674_160u64.into());
    let moves = MoveSet::all(&p, Metric::Htm).unwrap();
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(
        &p,
        moves,
        p.start().clone(),
        &SolverOptions::default(),
        &stop,
        &mut |_| {},
    )
    .unwrap();
    for _ in 0..20 {
        let position = states.next_pattern();
        let report = solver.solve(&position, &SolveOptions::default(), &stop, &mut |_| {});
        let s = &report.solutions[0];
        assert!(s.len() <= 11);
        let mut q = position.clone();
        for &m in s {
            q = p
                .layout()
                .apply(&q, &solver.moves().moves()[m].transformation);
        }
        assert_eq!(&q, p.start());
    }
}

#[test]
fn seeds_reproduce() {
    let p = two_by_two();
    let gens = p.search_moves();
    let a: Vec<_> = {
        let mut s = RandomStates::new(&p, &gens, 5);
        (0..5).map(|_| s.next_pattern()).collect()
    };
    let mut s = RandomStates::new(&p, &gens, 5);
    let b: Vec<_> = (0..5).map(|_| s.next_pattern()).collect();
    let mut s = RandomStates::new(&p, &gens, 6);
    let c: Vec<_> = (0..5).map(|_| s.next_pattern()).collect();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// The group's memory bound, known before the chain is built, holds for
/// the chains built (deterministic closure and randomized alike) and is
/// not loose by more than a small factor where orbits are whole symmetric
/// groups (the bound counts one representative per point of the block).
#[test]
fn the_group_memory_bound_holds_and_is_near() {
    for name in ["2x2x2", "3x3x3", "4x4x4", "megaminx", "6x6x6", "pyraminx"] {
        let p = build(name, &PuzzleOptions::default())
            .unwrap()
            .into_puzzle();
        let chain = p.group(&p.search_moves());
        let (bound, built) = (p.group_bytes_bound(), chain.heap_bytes());
        assert!(built <= bound, "{name}: built {built} > bound {bound}");
        assert!(bound <= 4 * built, "{name}: bound {bound}, built {built}");
    }
}
