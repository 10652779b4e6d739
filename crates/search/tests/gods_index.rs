//! Perfect indexing on real puzzle definitions (the support module's and
//! the geometry crate's): index sizes against the group orders
//! (Schreier–Sims, an independent computation) and published counts, and
//! rank/unrank round trips.

mod support;

use support::{cube2, geometry, loopover3, move_set, two_colour_cube2};

use twistor_core::index::PositionIndexer;
use twistor_core::random::SeededRng;
use twistor_core::{Puzzle, Transformation};
use twistor_search::{Metric, MoveSet};

/// Kociemba's phase-1 coset space: the geometry crate's 3x3x3 with every
/// corner alike, and the edges alike but for the four of the middle
/// slice between U and D (those that neither U nor D moves); all
/// orientations count. No piece numbering is assumed.
fn kociemba_phase1() -> Puzzle {
    let mut p = geometry("3x3x3");
    let layout = p.layout().clone();
    let turn = |name: &str| {
        let i = p
            .find_move(name)
            .unwrap_or_else(|| panic!("no move {name}"));
        p.moves()[i].transformation.as_bytes().to_vec()
    };
    let (u, d) = (turn("U"), turn("D"));
    let mut orbits = layout.pattern_orbits(p.start());
    let mut slice = 0;
    for (k, (orbit, po)) in layout.orbits().iter().zip(&mut orbits).enumerate() {
        let off = layout.offset(k);
        for slot in 0..orbit.num_pieces() {
            let still = u[off + slot] as usize == slot && d[off + slot] as usize == slot;
            po.pieces[slot] = match orbit.name() {
                "EDGES" if still => {
                    slice += 1;
                    1
                }
                "EDGES" | "CORNERS" => 0,
                _ => po.pieces[slot],
            };
        }
    }
    assert_eq!(slice, 4);
    let start = layout.pattern(&orbits).unwrap();
    p.set_start(start);
    p
}

/// The dino cube: twelve edge pieces (1 UF, 2 UR, 3 UB, 4 UL, 5 DF,
/// 6 DR, 7 DB, 8 DL, 9 FR, 10 FL, 11 BR, 12 BL), and a turn about each
/// corner cycling the three edges around it. An edge's orientation
/// follows from where it is, so none is kept (the geometry crate's dino
/// keeps it, and its index is then only a bound).
const DINO: &str = include_str!("support/dino.tws");

/// The puzzles of these tests by name: the support module's definitions
/// and the geometry crate's.
fn puzzle(name: &str) -> Puzzle {
    match name {
        "2x2x2" => cube2(),
        "two-colour 2x2x2" => two_colour_cube2(),
        "LoopOver 3x3" => loopover3(),
        "dino" => twistor_formats::read_puzzle(DINO, "dino.tws").unwrap(),
        "phase 1" => kociemba_phase1(),
        _ => geometry(name),
    }
}

fn indexer(p: &Puzzle, moves: Option<&str>) -> (PositionIndexer, MoveSet) {
    let ms = move_set(p, moves, Metric::Htm);
    let gens: Vec<&Transformation> = ms.grips().iter().map(|g| &g.transformation).collect();
    (
        PositionIndexer::new(p.layout(), p.start(), &gens).unwrap(),
        ms,
    )
}

fn group_order(p: &Puzzle, ms: &MoveSet) -> u64 {
    let idx: Vec<usize> = ms.grips().iter().map(|g| g.puzzle_move).collect();
    p.group_order(&idx).try_into().unwrap()
}

/// Where the index is exact, its size is the group order; published counts
/// from the anchors (2x2x2, skewb, pyraminx with tips, dino, Kociemba's
/// phase-1 cosets). The skewb and the skewb diamond are exact only through
/// joint components.
#[test]
fn index_sizes_match_group_orders_and_published_counts() {
    for (name, moves, published) in [
        ("2x2x2", Some("U,F,R"), 3_674_160u64),
        ("2x2x2", None, 88_179_840),
        ("pyraminx", None, 302_330_880),
        ("dino", None, 239_500_800),
        ("skewb", None, 37_791_360),
        ("LoopOver 3x3", None, 181_440),
    ] {
        let p = puzzle(name);
        let (ix, ms) = indexer(&p, moves);
        assert_eq!(ix.size(), published, "{name} {moves:?}");
        assert_eq!(ix.size(), group_order(&p, &ms), "{name} {moves:?}");
    }
    // Kociemba's phase-1 coset space, with identical pieces.
    let (ix, _) = indexer(&puzzle("phase 1"), None);
    assert_eq!(ix.size(), 2_217_093_120);
    // The pyraminx's two corner orbits move alike: one follows the other.
    let (ix, _) = indexer(&puzzle("pyraminx"), None);
    assert_eq!(
        ix.components().iter().map(|c| c.followers()).sum::<usize>(),
        1
    );
}

/// Elsewhere the index is an upper bound on the group order.
#[test]
fn index_sizes_bound_the_group_orders() {
    for name in [
        "skewb",
        "skewb diamond",
        "pyramorphix",
        "master pyramorphix",
        "geometry dino",
    ] {
        let p = match name {
            "geometry dino" => geometry("dino"),
            _ => puzzle(name),
        };
        let (ix, ms) = indexer(&p, None);
        let order = group_order(&p, &ms);
        assert!(ix.size() >= order, "{name}");
        assert_eq!(
            ix.size() % order,
            0,
            "{name}: the index covers whole cosets"
        );
    }
}

/// Positions reached by moves rank into range and unrank to themselves,
/// and indices unrank and rank to themselves.
#[test]
fn ranks_round_trip() {
    for (name, moves) in [
        ("2x2x2", Some("U,F,R")),
        ("skewb", None),
        ("pyraminx", None),
        ("two-colour 2x2x2", None),
        ("master pyramorphix", None),
        ("skewb diamond", None),
        ("phase 1", None),
        ("dino", None),
    ] {
        let p = puzzle(name);
        let (ix, ms) = indexer(&p, moves);
        let layout = p.layout();
        let mut state = p.start().as_bytes().to_vec();
        let mut next = state.clone();
        let mut back = state.clone();
        let mut rng = SeededRng::new(0x2545_f491_4f6c_dd1d);
        for step in 0..2000 {
            let m = rng.pick(ms.moves());
            layout.compose_into(&state, m.transformation.as_bytes(), &mut next);
            std::mem::swap(&mut state, &mut next);
            let r = ix.rank(&state);
            assert!(r < ix.size(), "{name} step {step}");
            ix.unrank(r, &mut back);
            assert_eq!(back, state, "{name} step {step}");
            let i = rng.next_u64() % ix.size();
            ix.unrank(i, &mut back);
            assert_eq!(ix.rank(&back), i, "{name} index {i}");
        }
    }
}
