//! Perfect indexing on real puzzle definitions: index sizes against the
//! group orders (Schreier–Sims, an independent computation) and published
//! counts, and rank/unrank round trips.

use twistor_core::index::PositionIndexer;
use twistor_core::{Puzzle, Transformation};
use twistor_search::{Metric, MoveSet};

fn shared_puzzle(name: &str) -> Puzzle {
    let path = format!(
        "{}/../../../shared/puzzles/tws/{name}.tws",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    twistor_formats::read_puzzle(&text, &path).unwrap()
}

fn indexer(p: &Puzzle, moves: Option<&str>) -> (PositionIndexer, MoveSet) {
    let ms = match moves {
        Some(list) => {
            let names: Vec<String> = list.split(',').map(String::from).collect();
            MoveSet::named(p, &names, Metric::Htm).unwrap()
        }
        None => MoveSet::all(p, Metric::Htm).unwrap(),
    };
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
        ("lo33", None, 181_440),
    ] {
        let p = shared_puzzle(name);
        let (ix, ms) = indexer(&p, moves);
        assert_eq!(ix.size(), published, "{name} {moves:?}");
        assert_eq!(ix.size(), group_order(&p, &ms), "{name} {moves:?}");
    }
    // Kociemba's phase-1 coset space, with identical pieces.
    let (ix, _) = indexer(&shared_puzzle("3p1"), None);
    assert_eq!(ix.size(), 2_217_093_120);
    // The pyraminx's two corner orbits move alike: one follows the other.
    let (ix, _) = indexer(&shared_puzzle("pyraminx"), None);
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
        "skewb_diamond",
        "pyramorphix",
        "master_pyramorphix",
    ] {
        let p = shared_puzzle(name);
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
        ("puzzlernovice", None),
        ("master_pyramorphix", None),
        ("skewb_diamond", None),
        ("3p1", None),
        ("dino", None),
    ] {
        let p = shared_puzzle(name);
        let (ix, ms) = indexer(&p, moves);
        let layout = p.layout();
        let mut state = p.start().as_bytes().to_vec();
        let mut next = state.clone();
        let mut back = state.clone();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for step in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = &ms.moves()[(seed % ms.moves().len() as u64) as usize];
            layout.compose_into(&state, m.transformation.as_bytes(), &mut next);
            std::mem::swap(&mut state, &mut next);
            let r = ix.rank(&state);
            assert!(r < ix.size(), "{name} step {step}");
            ix.unrank(r, &mut back);
            assert_eq!(back, state, "{name} step {step}");
            let i = seed % ix.size();
            ix.unrank(i, &mut back);
            assert_eq!(ix.rank(&back), i, "{name} index {i}");
        }
    }
}
