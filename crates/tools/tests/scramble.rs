//! Scrambles: notation each puzzle's community reads, the states they
//! reach, minimum distances and reproducible seeds.

use std::sync::atomic::AtomicBool;

use twistor_core::Puzzle;
use twistor_cube333::CubieCube;
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::{build, PuzzleOptions};
use twistor_search::target::Goal;
use twistor_search::{Metric, MoveSet, SolveOptions, Solver, SolverOptions};
use twistor_tools::scramble::{scramble_puzzle, Event, Scrambler};

mod support;

fn scrambler(event: Event, seed: u64) -> Scrambler {
    let options = support::scramble_options();
    Scrambler::new(event, seed, &options, &mut |_| {}).unwrap()
}

fn geometry(name: &str) -> Puzzle {
    build(name, &PuzzleOptions::for_notation())
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
    fn distance(&mut self, alg: &str) -> usize {
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
        let mut measure = Measure::new(name, moves, tips);
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
        let moves = twistor_tools::cube::face_turns(&sc.alg).unwrap();
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
fn batches_on_several_threads_are_the_scrambles_one_at_a_time() {
    for event in [
        Event::Cube333,
        Event::Square1,
        Event::Clock,
        Event::Cube222,
        Event::Cube444,
    ] {
        let one_by_one: Vec<String> = {
            let mut s = scrambler(event, 31);
            (0..6).map(|_| s.next_scramble().alg).collect()
        };
        for threads in [1, 2, 3] {
            let mut s = scrambler(event, 31);
            let mut batch = Vec::new();
            // Two batches: the second continues where the first ended.
            for n in [4, 2] {
                s.scrambles(n, threads, |x| -> Result<(), ()> {
                    batch.push(x.alg);
                    Ok(())
                })
                .unwrap();
            }
            assert_eq!(batch, one_by_one, "{event:?} on {threads} threads");
        }
        assert_eq!(
            one_by_one
                .iter()
                .collect::<std::collections::HashSet<_>>()
                .len(),
            6
        );
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
    assert_eq!(Event::parse("clock").unwrap(), Event::Clock);
    assert_eq!(Event::parse("square1").unwrap(), Event::Square1);
    assert_eq!(Event::Square1.id(), "sq1");
    assert_eq!(Event::Square1.puzzle_name(), "square1");
    for id in [
        "clock", "sq1", "333bf", "333fm", "333oh", "333mbf", "444bf", "555bf",
    ] {
        assert!(Event::names().contains(&id), "{id}");
    }
    assert!(Event::Clock.is_random_state() && Event::Square1.is_random_state());
    assert!(Event::Cube444.is_random_state() && !Event::Cube555.is_random_state());
    assert!(Event::parse("sq2").is_err());
    for event in [Event::Clock, Event::Square1] {
        let run = |seed| -> Vec<String> {
            let mut s = scrambler(event, seed);
            (0..4).map(|_| s.next_scramble().alg).collect()
        };
        assert_eq!(run(21), run(21), "{event:?}");
        assert_ne!(run(21), run(22), "{event:?}");
        assert_eq!(scrambler(event, 1).next_scramble().distance, None);
    }
}

/// The clock's pin sets, front then back, as the WCA orders them.
const CLOCK_PINS: [&str; 14] = [
    "UR", "DR", "DL", "UL", "U", "R", "D", "L", "ALL", "U", "R", "D", "L", "ALL",
];

/// A clock turn `PINSN+` or `PINSN-` for the expected pin set: its amount
/// in -5..=6, or `None` if it is not written exactly so.
fn clock_amount(word: &str, pins: &str) -> Option<i64> {
    let rest = word.strip_prefix(pins)?;
    let (digits, sign) = rest.split_at(rest.len().checked_sub(1)?);
    if digits.len() != 1 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    match sign {
        "+" if n <= 6 => Some(n),
        "-" if (1..=5).contains(&n) => Some(-n),
        _ => None,
    }
}

#[test]
fn clock_scrambles_are_fourteen_turns_around_y2_in_the_wca_order() {
    let mut s = scrambler(Event::Clock, 8);
    let mut counts = [0u32; 12];
    for _ in 0..300 {
        let sc = s.next_scramble();
        assert_eq!(sc.distance, None);
        // Single spaces, nothing else.
        let words: Vec<&str> = sc.alg.split(' ').collect();
        assert_eq!(words.len(), 15, "{}", sc.alg);
        assert_eq!(words[9], "y2", "{}", sc.alg);
        let turns = words[..9].iter().chain(&words[10..]);
        for (w, pins) in turns.zip(CLOCK_PINS) {
            let a = clock_amount(w, pins)
                .unwrap_or_else(|| panic!("{w} is no {pins} turn in {}", sc.alg));
            counts[(a + 5) as usize] += 1;
        }
        // The project's notation reader takes it as written: fifteen moves
        // that print back to the same text.
        let alg: Alg = sc.alg.parse().unwrap();
        assert_eq!(alg.move_count(), 15);
        assert_eq!(alg.to_string(), sc.alg);
    }
    // 4200 amounts: every one of the twelve near 350 times.
    assert!(
        counts.iter().all(|&c| (250..450).contains(&c)),
        "{counts:?}"
    );
}

/// Determinant of an integer matrix (fraction-free Gaussian elimination).
fn determinant(mut m: Vec<Vec<i128>>) -> i128 {
    let n = m.len();
    let mut sign = 1;
    let mut prev = 1;
    for k in 0..n {
        let Some(p) = (k..n).find(|&r| m[r][k] != 0) else {
            return 0;
        };
        if p != k {
            m.swap(p, k);
            sign = -sign;
        }
        for i in k + 1..n {
            for j in k + 1..n {
                m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) / prev;
            }
        }
        prev = m[k][k];
    }
    sign * m[n - 1][n - 1]
}

#[test]
fn clock_amounts_map_one_to_one_onto_dial_states() {
    // Dials as (face, row, column), each face seen from its own side; the
    // back's dial (r, c) sits behind the front's (r, 2 - c). A pin set
    // turns the 2x2 blocks of its pins on the face towards the solver, and
    // each corner gear among them turns the corner dial behind it the other
    // way. The fourteen independent dials: the front's nine, the back's
    // edges and centre.
    let pins = |set: &str| -> Vec<(usize, usize)> {
        let all = [
            ("UL", (0, 0)),
            ("UR", (0, 1)),
            ("DL", (1, 0)),
            ("DR", (1, 1)),
        ];
        all.iter()
            .filter(|(name, _)| match set {
                "ALL" => true,
                "U" | "D" | "L" | "R" => name.contains(set),
                pin => *name == pin,
            })
            .map(|p| p.1)
            .collect()
    };
    let columns: Vec<Vec<i128>> = CLOCK_PINS
        .iter()
        .enumerate()
        .map(|(k, set)| {
            let face = usize::from(k >= 9);
            let mut dials = [[[0i128; 3]; 3]; 2];
            for (pr, pc) in pins(set) {
                for row in &mut dials[face][pr..pr + 2] {
                    row[pc..pc + 2].fill(1);
                }
            }
            for r in [0, 2] {
                for c in [0, 2] {
                    if dials[face][r][c] != 0 {
                        dials[1 - face][r][2 - c] = -1;
                    }
                }
            }
            let mut v: Vec<i128> = dials[0].iter().flatten().copied().collect();
            v.extend([(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)].map(|(r, c)| dials[1][r][c]));
            v
        })
        .collect();
    // Invertible modulo 12: uniform amounts give uniform dial states.
    assert_eq!(determinant(columns).abs(), 1);
}

/// An independent Square-1 shape: each layer's piece boundaries as a
/// 12-bit mask, bit `k` set when a piece starts at slot `k` (numbering as
/// the scrambler documents it).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Shape {
    top: u16,
    bottom: u16,
}

impl Shape {
    fn solved() -> Shape {
        // Top: corner, edge, corner, edge, ... from slot 0; bottom: edge,
        // corner, edge, corner, ...
        let mask = |starts: [u16; 8]| starts.iter().fold(0u16, |m, &k| m | 1 << k);
        Shape {
            top: mask([0, 2, 3, 5, 6, 8, 9, 11]),
            bottom: mask([0, 1, 3, 4, 6, 7, 9, 10]),
        }
    }

    /// A layer turned by `amount` slots (pieces move up in number).
    fn rotate(mask: u16, amount: i32) -> u16 {
        let k = amount.rem_euclid(12) as u32;
        ((mask << k) | (mask >> (12 - k))) & 0xfff
    }

    /// Both layers' slice cuts (slot boundaries 0 and 6) fall between pieces.
    fn sliceable(&self) -> bool {
        let cut = 1 | 1 << 6;
        self.top & cut == cut && self.bottom & cut == cut
    }

    /// `/`: slots 0..5 change layers, so boundaries 1..5 do.
    fn slice(&self) -> Shape {
        let inner = 0b11_1110;
        Shape {
            top: self.top & !inner | self.bottom & inner,
            bottom: self.bottom & !inner | self.top & inner,
        }
    }
}

/// A Square-1 turn `(a,b)` written exactly so, amounts in -5..=6.
fn square1_turn(word: &str) -> Option<(i32, i32)> {
    let (a, b) = word.strip_prefix('(')?.strip_suffix(')')?.split_once(',')?;
    let (a, b): (i32, i32) = (a.parse().ok()?, b.parse().ok()?);
    let canonical = format!("({a},{b})") == word;
    (canonical && (-5..=6).contains(&a) && (-5..=6).contains(&b)).then_some((a, b))
}

#[test]
fn square1_scrambles_are_random_state_and_slice_only_where_the_slice_cuts_no_corner() {
    let mut s = scrambler(Event::Square1, 4);
    let g = twistor_tools::handmade::definition("square1").unwrap();
    let mut slashes_total = 0;
    let mut shapes = std::collections::HashSet::new();
    for _ in 0..200 {
        let sc = s.next_scramble();
        assert_eq!(sc.distance, None);
        let mut shape = Shape::solved();
        let mut slashes = 0;
        // TNoodle's form: `(a,b)` tuples and slashes, single spaces, a bare
        // `/` only where neither layer turns, never `(0,0)`.
        let words: Vec<&str> = sc.alg.split(' ').collect();
        for (i, w) in words.iter().enumerate() {
            if *w == "/" {
                assert!(shape.sliceable(), "slash {i} cuts a corner in {}", sc.alg);
                shape = shape.slice();
                shapes.insert(shape);
                slashes += 1;
                continue;
            }
            let (a, b) = square1_turn(w).unwrap_or_else(|| panic!("{w} is no turn in {}", sc.alg));
            assert_ne!((a, b), (0, 0), "{}", sc.alg);
            assert!(i + 1 == words.len() || words[i + 1] == "/", "{}", sc.alg);
            shape = Shape {
                top: Shape::rotate(shape.top, a),
                bottom: Shape::rotate(shape.bottom, b),
            };
        }
        slashes_total += slashes;
        // The project's own Square-1 model reads and applies it.
        let alg: Alg = sc.alg.parse().unwrap();
        let t = alg_transformation(&g, &alg).unwrap();
        assert!(!g.layout().is_identity(&t), "{}", sc.alg);
    }
    // TNoodle's random-state scrambles have 11.6 slashes on average; the
    // shapes after each slice are many (a random state's shape is one of
    // 3,678 layouts).
    let mean = slashes_total as f64 / 200.0;
    assert!((10.5..=12.5).contains(&mean), "{mean}");
    assert!(shapes.len() > 500, "{}", shapes.len());
}

#[test]
fn four_by_four_scrambles_are_random_state_reductions() {
    let mut s = scrambler(Event::Cube444, 6);
    let mut bf = scrambler(Event::Cube444Bf, 6);
    let p = geometry("4x4x4");
    for i in 0..3 {
        let sc = s.next_scramble();
        let words: Vec<&str> = sc.alg.split(' ').collect();
        assert!((38..=50).contains(&words.len()), "{}", sc.alg);
        // TNoodle's notation: outer turns and Uw, Rw, Fw.
        for w in &words {
            let q = w.trim_end_matches(['\'', '2']);
            assert!(
                ["U", "R", "F", "D", "L", "B", "Uw", "Rw", "Fw"].contains(&q),
                "{w}"
            );
        }
        let t = alg_transformation(&p, &sc.alg.parse::<Alg>().unwrap()).unwrap();
        assert!(!p.layout().is_identity(&t));
        // 444bf: the same scramble (scramble i draws from stream i of the
        // seed in both), then a rotation from x, y, z (or none).
        let b = bf.next_scramble().alg;
        assert!(b.starts_with(&sc.alg), "{i}: {b}");
        let rotations = b
            .split(' ')
            .rev()
            .take_while(|w| ["x", "y", "z"].contains(&w.trim_end_matches(['\'', '2'])))
            .count();
        assert!(rotations <= 2, "{b}");
        let body = b.split(' ').count() - rotations;
        assert!((38..=50).contains(&body), "{b}");
    }
}

#[test]
fn a_long_batch_without_stored_tables_scrambles_as_a_short_one() {
    // A long 3x3x3 batch with no full tables stored starts on the compact
    // tables while a thread builds the full ones: its scrambles are those
    // of a batch that never switches.
    let options = twistor_tools::scramble::ScrambleOptions {
        store: std::sync::Arc::new(twistor_core::store::NoStore),
        threads: 2,
        batch: twistor_tools::portfolio::FULL_TABLES_PAY_AFTER,
    };
    let mut long = Scrambler::new(Event::Cube333, 41, &options, &mut |_| {}).unwrap();
    let short_options = twistor_tools::scramble::ScrambleOptions {
        batch: 1,
        ..options
    };
    let mut short = Scrambler::new(Event::Cube333, 41, &short_options, &mut |_| {}).unwrap();
    for _ in 0..20 {
        assert_eq!(long.next_scramble().alg, short.next_scramble().alg);
    }
}
