//! Scrambles: notation each puzzle's community reads, the states they
//! reach, minimum distances and reproducible seeds.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use twistor_core::Puzzle;
use twistor_cube333::cache::CacheOptions;
use twistor_cube333::{CubieCube, MoveSeq};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::target::Goal;
use twistor_search::{Metric, MoveSet, SolveOptions, Solver, SolverOptions};
use twistor_tools::scramble::{scramble_puzzle, Event, ScrambleOptions, Scrambler};

fn scrambler(event: Event, seed: u64) -> Scrambler {
    let options = ScrambleOptions {
        // Shared with crates/cube333's tests, so the tables are built once.
        cube333_cache: CacheOptions {
            dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-cube333-tables")),
            ..Default::default()
        },
        table_cache: None,
        threads: 2,
    };
    Scrambler::new(event, seed, &options, &mut |_| {}, &mut |_| {}).unwrap()
}

fn geometry(name: &str) -> Puzzle {
    build(
        name,
        &PuzzleOptions {
            notation_rotations: true,
            ..Default::default()
        },
    )
    .unwrap()
    .into_puzzle()
}

/// An optimal solver for the event's moves (a goal leaving the orientation
/// of slots tip moves twist unknown) and a way to measure distances.
struct Measure {
    puzzle: Puzzle,
    goal: Goal,
    solver: Solver,
}

impl Measure {
    fn new(name: &str, moves: &[&str], tips: &[&str]) -> Measure {
        let p = scramble_puzzle(name, moves, tips).unwrap();
        let l = p.layout();
        let mut target = l.pattern_orbits(p.start());
        for i in moves.len()..p.moves().len() {
            let tt = &p.moves()[i].transformation;
            for (k, po) in target.iter_mut().enumerate() {
                let n = po.pieces.len();
                for s in 0..n {
                    if l.ori(tt.as_bytes(), k)[s] != 0 {
                        po.orientation_mod.get_or_insert_with(|| vec![0; n])[s] = 1;
                        po.orientation[s] = 0;
                    }
                }
            }
        }
        let goal = Goal::target(&p, l.pattern(&target).unwrap()).unwrap();
        let names: Vec<String> = moves.iter().map(|s| s.to_string()).collect();
        let stop = AtomicBool::new(false);
        let solver = Solver::new(
            &p,
            MoveSet::named(&p, &names, Metric::Htm).unwrap(),
            goal.pattern.clone(),
            &SolverOptions::default(),
            &stop,
            &mut |_| {},
        )
        .unwrap();
        Measure {
            puzzle: p,
            goal,
            solver,
        }
    }

    /// Optimal distance of the position `alg` reaches.
    fn distance(&self, alg: &str) -> usize {
        let p = &self.puzzle;
        let t = alg_transformation(p, &alg.parse::<Alg>().unwrap()).unwrap();
        let position = self
            .goal
            .relabel(p, &p.layout().apply(p.start(), &t))
            .unwrap();
        let stop = AtomicBool::new(false);
        self.solver
            .solve(&position, &SolveOptions::default(), &stop, &mut |_| {})
            .solutions[0]
            .len()
    }
}

#[test]
fn random_state_scrambles_reach_states_far_enough_from_solved() {
    for (event, name, moves, tips, min) in [
        (Event::Cube222, "2x2x2", &["R", "U", "F"][..], &[][..], 4),
        (Event::Skewb, "skewb", &["R", "U", "L", "B"][..], &[][..], 7),
        (
            Event::Pyraminx,
            "pyraminx",
            &["U", "L", "R", "B"][..],
            &["u", "l", "r", "b"][..],
            6,
        ),
    ] {
        let mut s = scrambler(event, 11);
        let measure = Measure::new(name, moves, tips);
        let named = geometry(name);
        for _ in 0..8 {
            let sc = s.next_scramble();
            let words: Vec<&str> = sc.alg.split_whitespace().collect();
            // Only the event's moves, quarter turns as the WCA writes them;
            // pyraminx tips come last.
            let mut seen_tip = false;
            for w in &words {
                let base = w.trim_end_matches(['\'', '2']);
                let is_tip = tips.contains(&base);
                assert!(
                    moves.contains(&base) || is_tip,
                    "{event:?}: {w} in {}",
                    sc.alg
                );
                assert!(!w.ends_with("2'"), "{w}");
                assert!(!seen_tip || is_tip, "tips must come last: {}", sc.alg);
                seen_tip |= is_tip;
            }
            let d = measure.distance(&sc.alg);
            assert_eq!(Some(d), sc.distance, "{}", sc.alg);
            assert!(d >= min);
            // The scramble applies on the named puzzle.
            alg_transformation(&named, &sc.alg.parse::<Alg>().unwrap()).unwrap();
        }
    }
}

#[test]
fn three_by_three_scrambles_are_two_phase_inverses_of_random_states() {
    let mut s = scrambler(Event::Cube333, 5);
    let g = geometry("3x3x3");
    for _ in 0..20 {
        let sc = s.next_scramble();
        let moves = MoveSeq::from_alg(&sc.alg).unwrap();
        assert!(moves.len() <= 21 && moves.len() >= 2);
        let cube = CubieCube::from_moves(&moves.0);
        assert!(cube.validate().is_ok() && !cube.is_solved());
        let t = alg_transformation(&g, &sc.alg.parse::<Alg>().unwrap()).unwrap();
        assert!(!g.layout().is_identity(&t));
    }
}

#[test]
fn random_move_scrambles_read_on_their_puzzles() {
    for (event, name, len) in [
        (Event::Cube444, "4x4x4", 40),
        (Event::Cube555, "5x5x5", 60),
        (Event::Cube666, "6x6x6", 80),
        (Event::Cube777, "7x7x7", 100),
        (Event::Megaminx, "megaminx", 77),
    ] {
        let p = geometry(name);
        let mut s = scrambler(event, 3);
        for _ in 0..3 {
            let sc = s.next_scramble();
            let alg: Alg = sc.alg.parse().unwrap();
            assert_eq!(alg.move_count(), len as u128, "{event:?}");
            let t = alg_transformation(&p, &alg).unwrap();
            assert!(!p.layout().is_identity(&t));
            let words: Vec<&str> = sc.alg.split_whitespace().collect();
            if event == Event::Megaminx {
                for row in words.chunks(11) {
                    let last_d = row[9];
                    assert_eq!(row[10], if last_d == "D++" { "U" } else { "U'" });
                    for (j, w) in row[..10].iter().enumerate() {
                        assert_eq!(&w[..1], if j % 2 == 0 { "R" } else { "D" });
                    }
                }
            } else {
                // Neighbours never share a quantum.
                for pair in words.windows(2) {
                    let q = |w: &str| w.trim_end_matches(['\'', '2']).to_string();
                    assert_ne!(q(pair[0]), q(pair[1]), "{}", sc.alg);
                }
            }
        }
    }
}

#[test]
fn seeds_reproduce_and_events_parse() {
    let a: Vec<String> = (0..3)
        .map({
            let mut s = scrambler(Event::Cube555, 9);
            move |_| s.next_scramble().alg
        })
        .collect();
    let b: Vec<String> = (0..3)
        .map({
            let mut s = scrambler(Event::Cube555, 9);
            move |_| s.next_scramble().alg
        })
        .collect();
    assert_eq!(a, b);
    assert_eq!(Event::parse("pyram").unwrap(), Event::Pyraminx);
    assert_eq!(Event::parse("megaminx").unwrap(), Event::Megaminx);
    assert!(Event::parse("clock").is_err());
}
