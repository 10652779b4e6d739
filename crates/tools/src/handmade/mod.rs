//! twistor's own models of the puzzles cubing.js defines by hand.
//!
//! cubing.js builds most of its puzzles with PuzzleGeometry, which
//! twistor's geometry crate reproduces; a few it writes out by hand
//! instead (the clock, the Square-1, the Redi Cube, Loopover, the TriQuad, ...). A
//! KPattern is only meaningful against the definition it was written for,
//! so to read and write positions cubing.js understands, twistor must
//! number those puzzles' pieces and name and define their moves exactly
//! as cubing.js does. Each submodule builds one of them from a model of
//! the puzzle (the clock's dials and pins, the Redi Cube's corner turns as
//! rotations of cubies, Loopover's grid), never from copied tables; the
//! tests compare the result with cubing.js's own definitions.
//!
//! ```
//! use twistor_tools::handmade::definition;
//!
//! let clock = definition("clock").unwrap();
//! assert_eq!(clock.layout().orbits()[0].name(), "DIALS");
//! assert!(clock.find_move("UR_PLUS_").is_some());
//! assert!(definition("3x3x3").is_none());
//! ```

mod clock;
mod cubie;
mod loopover;
mod redi_cube;
mod square1;
mod tri_quad;

use twistor_core::{Layout, MoveDef, MoveKind, Orbit, PatternOrbit, Puzzle, Transformation};
use twistor_formats::{alg::Alg, resolve::alg_transformation};

/// One hand-written puzzle: the registry entry that is all the rest of
/// twistor needs (names, the command line's and the server's lists, the
/// solve-all sweep). Adding a puzzle is an entry here and its module.
pub struct Handmade {
    /// Its cubing.js id, as cubing.js spells it.
    pub id: &'static str,
    /// Other names people give it (`sq1`, the WCA's id for `square1`).
    pub aliases: &'static [&'static str],
    build: fn() -> Puzzle,
}

/// The cubing.js puzzles defined by hand that twistor models.
pub const PUZZLES: &[Handmade] = &[
    Handmade {
        id: "clock",
        aliases: &[],
        build: clock::definition,
    },
    Handmade {
        id: "square1",
        aliases: &["sq1"],
        build: square1::definition,
    },
    Handmade {
        id: "redi_cube",
        aliases: &[],
        build: redi_cube::definition,
    },
    Handmade {
        id: "loopover",
        aliases: &[],
        build: loopover::definition,
    },
    Handmade {
        id: "tri_quad",
        aliases: &[],
        build: tri_quad::definition,
    },
];

/// The ids of [`PUZZLES`], in order.
pub fn ids() -> impl Iterator<Item = &'static str> {
    PUZZLES.iter().map(|h| h.id)
}

/// twistor's definition of the hand-written cubing.js puzzle `id` (`clock`,
/// `square1`, ...; see [`PUZZLES`]): the same orbits, piece numbering,
/// start and moves (base and derived, by the same names) as cubing.js
/// 0.63.4's. `None` for any other id.
pub fn definition(id: &str) -> Option<Puzzle> {
    PUZZLES.iter().find(|h| h.id == id).map(|h| (h.build)())
}

/// One orbit's part of a move, in cubing.js's (and twistor's) state
/// convention: the piece now in slot `i` came from slot `permutation[i]`
/// and gained `delta[i]` (any integer, taken modulo the orbit's
/// orientation count).
struct Part {
    orbit: &'static str,
    permutation: Vec<usize>,
    delta: Vec<i64>,
}

impl Part {
    fn new(orbit: &'static str, permutation: Vec<usize>, delta: Vec<i64>) -> Part {
        Part {
            orbit,
            permutation,
            delta,
        }
    }

    /// A permutation that changes no orientation.
    fn permutation(orbit: &'static str, permutation: Vec<usize>) -> Part {
        let n = permutation.len();
        Part::new(orbit, permutation, vec![0; n])
    }
}

/// Assembles a definition: orbits with the identity as start, then moves
/// in order. The definitions are fixed, so a slip here is a bug that every
/// call (and so every test) hits at once: it panics with the move's name.
struct Builder {
    puzzle: Puzzle,
}

impl Builder {
    fn new(name: &str, orbits: &[(&str, usize, usize)]) -> Builder {
        let orbits: Vec<Orbit> = orbits
            .iter()
            .map(|&(n, pieces, oris)| Orbit::new(n, pieces, oris).expect("a valid orbit"))
            .collect();
        let start: Vec<PatternOrbit> = orbits
            .iter()
            .map(|o| PatternOrbit {
                pieces: (0..o.num_pieces() as u8).collect(),
                orientation: vec![0; o.num_pieces()],
                orientation_mod: None,
            })
            .collect();
        let layout = Layout::new(orbits).expect("valid orbits");
        let start = layout.pattern(&start).expect("the identity is a pattern");
        Builder {
            puzzle: Puzzle::new(name, layout, start),
        }
    }

    /// The transformation the parts describe (orbits left out stay put).
    fn transformation(&self, name: &str, parts: &[Part]) -> Transformation {
        let layout = self.puzzle.layout();
        let mut bytes = layout.identity_bytes();
        for part in parts {
            let k = layout
                .orbit_index(part.orbit)
                .unwrap_or_else(|| panic!("{name}: no orbit {}", part.orbit));
            let orbit = &layout.orbits()[k];
            let n = orbit.num_pieces();
            let m = orbit.num_orientations() as i64;
            assert_eq!(part.permutation.len(), n, "{name}: {}", part.orbit);
            assert_eq!(part.delta.len(), n, "{name}: {}", part.orbit);
            let off = layout.offset(k);
            for i in 0..n {
                bytes[off + i] = part.permutation[i] as u8;
                bytes[off + n + i] = part.delta[i].rem_euclid(m) as u8;
            }
        }
        Transformation::from_bytes(layout, bytes)
            .unwrap_or_else(|e| panic!("{name} is no transformation: {e}"))
    }

    /// A base move.
    fn base(&mut self, name: &str, parts: &[Part]) {
        let t = self.transformation(name, parts);
        self.add(name, t, MoveKind::Base, None);
    }

    /// A derived move: an alg over the moves so far.
    fn derived(&mut self, name: &str, alg: &str) {
        let parsed = Alg::parse(alg).unwrap_or_else(|e| panic!("{name} = {alg}: {e}"));
        let t = alg_transformation(&self.puzzle, &parsed)
            .unwrap_or_else(|e| panic!("{name} = {alg}: {e}"));
        self.add(name, t, MoveKind::Derived, Some(alg.to_string()));
    }

    /// A search move defined by an alg over the moves so far (a turn
    /// cubing.js lists among its derived moves, but one the puzzle is
    /// solved with).
    fn sequence(&mut self, name: &str, alg: &str) {
        let parsed = Alg::parse(alg).unwrap_or_else(|e| panic!("{name} = {alg}: {e}"));
        let t = alg_transformation(&self.puzzle, &parsed)
            .unwrap_or_else(|e| panic!("{name} = {alg}: {e}"));
        self.add(name, t, MoveKind::Sequence, Some(alg.to_string()));
    }

    fn add(&mut self, name: &str, t: Transformation, kind: MoveKind, definition: Option<String>) {
        self.puzzle
            .add_move(MoveDef {
                name: name.to_string(),
                transformation: t,
                kind,
                definition,
            })
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }

    fn finish(self) -> Puzzle {
        self.puzzle
    }
}

/// The permutation (state convention) of a map sending the piece in slot
/// `i` to slot `to[i]`: `permutation[to[i]] = i`.
fn from_destinations(to: &[usize]) -> Vec<usize> {
    let mut permutation = vec![usize::MAX; to.len()];
    for (i, &j) in to.iter().enumerate() {
        assert_eq!(permutation[j], usize::MAX, "two pieces sent to slot {j}");
        permutation[j] = i;
    }
    permutation
}
