//! The public face of the reduction solver.

use twistor_core::random::SeededRng;
use twistor_core::store::{NoStore, StoreEvent, TableStore};
use twistor_cube333::TwoPhaseTables;

use crate::cube::{Alg444, Cube444, Move444, Turn444};
use crate::search::Writer;
use crate::tables::Tables;
use crate::Cube444Error;

/// The reduction solver's tables (about 70 MB: a second or two to build
/// without the largest, five with it) with what writes its answers.
pub struct Cube444Solver {
    tables: Tables,
    writer: Writer,
}

/// A random-state scramble and how it was found.
#[derive(Clone, Debug)]
pub struct Scramble444 {
    /// The position drawn.
    pub position: Cube444,
    /// The scramble, in the WCA's notation (`U R F D L B` and `Uw Rw
    /// Fw`), taking a solved cube to `position` (held some way up).
    pub alg: Alg444,
    /// Moves of each phase of the solution it undoes: one pair of
    /// centres, the other centres, edge pairing, the 3x3x3.
    pub phase_lengths: [usize; 4],
}

impl Default for Cube444Solver {
    fn default() -> Self {
        Cube444Solver::new()
    }
}

impl Cube444Solver {
    /// Builds every table (five seconds or so on two cores).
    pub fn new() -> Cube444Solver {
        Cube444Solver::load(&NoStore, &mut |_| {})
    }

    /// Loads the two large tables (the pairings 8 and 9 moves away) from
    /// `store`, or builds them and gives them to the store; builds the
    /// others (a second). What happens to the stored tables is reported to
    /// `events`.
    pub fn load(store: &dyn TableStore, events: &mut dyn FnMut(StoreEvent)) -> Cube444Solver {
        Cube444Solver {
            tables: Tables::new(store, events, true),
            writer: Writer::new(),
        }
    }

    /// [`Cube444Solver::load`] without building the pairings 9 moves away
    /// (loaded if stored): ready in a second or two instead of five, and
    /// making the same scrambles, each about three times slower until
    /// [`Cube444Solver::complete`] builds them.
    pub fn load_quick(store: &dyn TableStore, events: &mut dyn FnMut(StoreEvent)) -> Cube444Solver {
        Cube444Solver {
            tables: Tables::new(store, events, false),
            writer: Writer::new(),
        }
    }

    /// Builds the tables [`Cube444Solver::load_quick`] left out, if it
    /// did, and gives them to `store`.
    pub fn complete(&self, store: &dyn TableStore, events: &mut dyn FnMut(StoreEvent)) {
        self.tables.complete_pairing(store, events);
    }

    /// Whether every table is there (after [`Cube444Solver::load`], or
    /// once [`Cube444Solver::complete`] has run).
    pub fn is_complete(&self) -> bool {
        self.tables.pairing_complete()
    }

    /// Bytes held by the tables.
    pub fn size_bytes(&self) -> usize {
        self.tables.size_bytes()
    }

    /// The scramble for `position`: a move sequence taking the solved
    /// cube to it (up to the way the cube is held), found by solving it
    /// with the reduction and the 3x3x3 tables `three`.
    pub fn scramble(
        &self,
        position: &Cube444,
        three: &TwoPhaseTables,
    ) -> Result<Scramble444, Cube444Error> {
        let reduction = self.tables.reduce(position, three)?;
        let moves = self.writer.scramble(&reduction.tokens);
        Ok(Scramble444 {
            position: *position,
            alg: Alg444(moves.into_iter().map(Turn444::Move).collect()),
            phase_lengths: reduction.phase_lengths,
        })
    }

    /// A scramble for a uniformly random position (redrawn, as TNoodle
    /// does, in the vanishing case that it is within one move of solved).
    pub fn random_scramble(
        &self,
        rng: &mut SeededRng,
        three: &TwoPhaseTables,
    ) -> Result<Scramble444, Cube444Error> {
        loop {
            let position = Cube444::random(rng);
            if !within_one_move(&position) {
                return self.scramble(&position, three);
            }
        }
    }
}

/// Whether `c` is solved or one move from solved, held any way up.
pub fn within_one_move(c: &Cube444) -> bool {
    let solved = Cube444::solved();
    c.same_up_to_rotation(&solved)
        || (0..Move444::COUNT)
            .any(|i| c.same_up_to_rotation(&solved.apply_move(Move444::from_index(i))))
}
