//! Scrambles for the puzzles people compete on, in the notation of the
//! World Cube Association (WCA).
//!
//! Random-state scrambles where the project can solve the puzzle: a
//! uniformly random state is drawn and the scramble is the inverse of a
//! solution, so every state is equally likely (among those at least the
//! WCA's minimum distance from solved, as tnoodle, the WCA's scrambler,
//! filters them):
//! - `333`: a uniformly random cube ([`CubieCube::random`]), solved by
//!   Kociemba's two-phase algorithm within 21 moves; states solved or one
//!   move from solved are drawn again.
//! - `333oh` is `333`; `333bf` (and `333mbf`, one cube a scramble) ends
//!   with a uniformly random one of the 24 whole-cube orientations, as the
//!   WCA's scrambler writes it: a wide turn about R or F (or none), then
//!   one about U (or none), `Rw Uw'`; `333fm` is `R' U' F`, the scramble,
//!   `R' U' F`. The solver is never asked for another state to make the
//!   seams clean: when its solution's first or last move would cancel into
//!   the orientation or the padding, it solves the cube with a chosen
//!   first or last move on another axis instead (see `solve_off_axes`).
//! - `222`: a uniformly random element of the group `<R, U, F>` (the
//!   down-back-left corner stays fixed, as WCA 2x2x2 scrambles keep it),
//!   solved optimally with R, U, F; at least 4 moves from solved.
//! - `pyram`: a uniformly random state of the pyraminx with its tips;
//!   the non-tip part is solved optimally with U, L, R, B (at least 6
//!   moves), and the scramble ends with the tip turns u, l, r, b the state
//!   needs (tips commute with every move, so they can go last).
//! - `skewb`: a uniformly random element of `<R, U, L, B>` (WCA notation,
//!   one corner fixed), solved optimally; at least 7 moves from solved.
//!
//! - `444` (and `444bf`): a uniformly random 4x4x4 (any corner, wing and
//!   centre arrangement, held any way up), solved by a three-phase
//!   reduction in the style of TNoodle's (see the `twistor-cube444`
//!   crate): one pair of centres onto an axis, the other centres and the
//!   wing parity, then the edges paired with the centres finished, then the
//!   3x3x3 by the two-phase solver. About 44 moves in `U R F D L B` and
//!   `Uw Rw Fw`; `444bf` adds a random orientation as rotations (`x y'`).
//!   States within one move of solved are drawn again.
//! - `sq1`: a uniformly random Square-1 position among those the slice can
//!   turn in (a uniform layout, then uniform corners, edges and middle
//!   layer), solved by a shape-then-square two-phase search as TNoodle's
//!   sq12phase does (see the `twistor-square1` crate); about 11.7 slashes.
//!
//! Random-move scrambles where the WCA uses them: `555` (60 moves), `666`
//! (80), `777` (100) and `555bf` (the same, ending in a random
//! orientation, three-layer turns `3Rw 3Uw'`).
//! Moves are drawn uniformly among the face turns and wide turns of the
//! event (`Rw`, and `3Rw` on the 6x6x6 and 7x7x7; on even cubes the
//! half-cube wide turns only on the U, R and F sides, since the other sides'
//! are the same up to a rotation), each a quarter turn either way or a half
//! turn; a move on the same axis as the moves just before it may not repeat
//! one of their quanta (face and width), so no two moves of a run of
//! commuting moves merge into one. The
//! minimum distance of 2 is not checked for these: a state within one move
//! of solved after 60 or more random moves has a probability far below
//! 10⁻³⁰.
//!
//! `minx` is Pochmann's megaminx scramble, as the WCA uses it: seven rows
//! of ten moves alternating `R` and `D` wide turns, each `++` or `--` at
//! random, the row ending in `U` after `D++` and `U'` after `D--`. The rows
//! are joined by spaces (one scramble a line).
//!
//! `clock`: fourteen turns with uniformly random amounts, in the notation
//! the WCA uses since it dropped the trailing pin states, one scramble a
//! line:
//!
//! ```text
//! UR4- DR3+ DL0+ UL2- U5+ R1- D3+ L6+ ALL2- y2 U2+ R5- D1- L0+ ALL4+
//! ```
//!
//! Exactly: `T T T T T T T T T y2 T T T T T`, single spaces, where the nine
//! turns before `y2` have the pin sets `UR DR DL UL U R D L ALL` and the
//! five after it `U R D L ALL`, in that order, and each turn `T` is its pin
//! set followed by an amount, `0+` to `6+` or `1-` to `5-`. A pin set names
//! the pins pushed up on the face towards the solver (`UR` the up-right one,
//! `U` both upper ones, `ALL` all four); the turn moves a wheel beside them
//! that many hours, clockwise for `+`, counterclockwise for `-`. `y2` turns
//! the clock over about the vertical axis, so the last five turns are made
//! on the other face. Each amount is drawn uniformly and independently from
//! -5..=6 (`0+` is written, not left out). These scrambles are random state:
//! the fourteen turns act on the fourteen independent dials (the front's
//! nine and the back's four edges and centre; a back corner is a front
//! corner's gear seen from behind) by an integer matrix of determinant ±1,
//! invertible modulo 12, so every one of the 12¹⁴ dial states is equally
//! likely. The solved state (probability 12⁻¹⁴) is not drawn again.
//!
//! `sq1` scrambles are written as TNoodle writes them: `(a,b) /` tuples
//! joined by single spaces, amounts in -5..=6 (`(a,b)` turns the top `a`
//! twelfths clockwise seen from above and the bottom `b` twelfths clockwise
//! seen from below, `/` the right half 180°), a bare `/` where no layer
//! turns, and a last tuple without a slash when the solution began with a
//! turn.
//!
//! One file, though long: the event table, the engines and the few small
//! random-move generators (megaminx, clock) are what `Event` and
//! `Scrambler` dispatch over, and a WCA rule is read most easily beside the
//! code that follows it.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rayon::prelude::*;

use twistor_core::store::{NoStore, TableStore};
use twistor_core::{MoveDef, MoveKind, Pattern, PatternOrbit, Puzzle, StabilizerChain};
use twistor_cube333::{
    solve_two_phase as two_phase, CubieCube, Face as CubeFace, FaceTurn, MoveSeq, TwoPhaseOptions,
    TwoPhaseTables,
};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::PuzzleOptions;
use twistor_search::target::Goal;
use twistor_search::{
    Metric, MoveSet, SolutionCount, SolveOptions, Solver, SolverOptions, TableEvent,
};

use twistor_cube444::Cube444Solver;
use twistor_square1::Square1Solver;

use crate::rng::SeededRng;
use crate::ToolError;

/// A WCA event the scrambler knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// 3x3x3 (random state).
    Cube333,
    /// 3x3x3 blindfolded: random state, then a random whole-cube
    /// orientation as wide turns (`Rw Uw'`).
    Cube333Bf,
    /// 3x3x3 fewest moves: `R' U' F`, a random-state scramble, `R' U' F`.
    Cube333Fm,
    /// 3x3x3 one-handed (as 333).
    Cube333Oh,
    /// 3x3x3 multi-blind (as 333bf, one cube a scramble).
    Cube333Mbf,
    /// 4x4x4 blindfolded: random state, then a random orientation (`x y'`).
    Cube444Bf,
    /// 5x5x5 blindfolded: random moves, then a random orientation
    /// (`3Rw 3Uw'`).
    Cube555Bf,
    /// 2x2x2 (random state).
    Cube222,
    /// 4x4x4 (random state, by reduction).
    Cube444,
    /// 5x5x5 (random moves).
    Cube555,
    /// 6x6x6 (random moves).
    Cube666,
    /// 7x7x7 (random moves).
    Cube777,
    /// Pyraminx (random state).
    Pyraminx,
    /// Skewb (random state).
    Skewb,
    /// Megaminx (Pochmann random moves).
    Megaminx,
    /// Clock (fourteen turns with uniform amounts: random state).
    Clock,
    /// Square-1 (random state, by a shape-then-square solver).
    Square1,
}

const EVENTS: [(Event, &str, &str); 17] = [
    (Event::Cube333, "333", "3x3x3"),
    (Event::Cube222, "222", "2x2x2"),
    (Event::Cube444, "444", "4x4x4"),
    (Event::Cube555, "555", "5x5x5"),
    (Event::Cube666, "666", "6x6x6"),
    (Event::Cube777, "777", "7x7x7"),
    (Event::Pyraminx, "pyram", "pyraminx"),
    (Event::Skewb, "skewb", "skewb"),
    (Event::Megaminx, "minx", "megaminx"),
    (Event::Clock, "clock", "clock"),
    (Event::Square1, "sq1", "square1"),
    // After the main events, so a puzzle name finds its main event.
    (Event::Cube333Bf, "333bf", "3x3x3"),
    (Event::Cube333Fm, "333fm", "3x3x3"),
    (Event::Cube333Oh, "333oh", "3x3x3"),
    (Event::Cube333Mbf, "333mbf", "3x3x3"),
    (Event::Cube444Bf, "444bf", "4x4x4"),
    (Event::Cube555Bf, "555bf", "5x5x5"),
];

impl Event {
    /// The event with this WCA id (`333`, `pyram`, `minx`, `sq1`) or puzzle
    /// name (`3x3x3`, `pyraminx`, `megaminx`, `square1`).
    pub fn parse(name: &str) -> Result<Event, ToolError> {
        EVENTS
            .iter()
            .find(|(_, id, puzzle)| *id == name || *puzzle == name)
            .map(|e| e.0)
            .ok_or_else(|| {
                let names = EVENTS
                    .iter()
                    .flat_map(|(_, id, puzzle)| [id.to_string(), puzzle.to_string()])
                    .collect();
                ToolError::UnknownEvent {
                    event: name.chars().take(40).collect(),
                    hint: crate::catalog::did_you_mean(&crate::catalog::nearest(name, names)),
                }
            })
    }

    /// The WCA ids of every event.
    pub fn names() -> Vec<&'static str> {
        EVENTS.iter().map(|e| e.1).collect()
    }

    /// Extra scrambles a delegate prints with a round's set, as is usual
    /// at WCA competitions: two, for an attempt that goes wrong; none for
    /// fewest moves (its attempt is the scramble, not a solve that can be
    /// redone) and multi-blind (its scrambles are counted per attempt).
    pub fn usual_extras(self) -> u64 {
        match self {
            Event::Cube333Fm | Event::Cube333Mbf => 0,
            _ => 2,
        }
    }

    /// The event's WCA id.
    pub fn id(self) -> &'static str {
        EVENTS.iter().find(|e| e.0 == self).map_or("", |e| e.1)
    }

    /// The puzzle's name (`3x3x3`, `megaminx`, `clock`, `square1`): the
    /// puzzle twistor builds for it (from geometry, or its own models of
    /// the clock and Square-1 in [`crate::handmade`]), on which its
    /// scrambles are written.
    pub fn puzzle_name(self) -> &'static str {
        EVENTS.iter().find(|e| e.0 == self).map_or("", |e| e.2)
    }

    /// A scramble of the event laid out in the rows a printed sheet shows,
    /// separated by newlines: the megaminx's seven rows, each ending in
    /// its `U` or `U'` as the WCA prints them; any other event's on one
    /// row.
    pub fn rows(self, scramble: &str) -> String {
        if self != Event::Megaminx {
            return scramble.to_string();
        }
        let mut rows: Vec<String> = vec![String::new()];
        for word in scramble.split_whitespace() {
            let row = rows.last_mut().expect("a row");
            if !row.is_empty() {
                row.push(' ');
            }
            row.push_str(word);
            if word == "U" || word == "U'" {
                rows.push(String::new());
            }
        }
        if rows.len() > 1 && rows.last().is_some_and(String::is_empty) {
            rows.pop();
        }
        rows.join("\n")
    }

    /// Whether its scrambles reach uniformly random states.
    pub fn is_random_state(self) -> bool {
        matches!(
            self,
            Event::Cube333
                | Event::Cube333Bf
                | Event::Cube333Fm
                | Event::Cube333Oh
                | Event::Cube333Mbf
                | Event::Cube222
                | Event::Pyraminx
                | Event::Skewb
                | Event::Clock
                | Event::Cube444
                | Event::Cube444Bf
                | Event::Square1
        )
    }
}

/// Where the solvers behind random-state scrambles keep their tables.
#[derive(Clone)]
pub struct ScrambleOptions {
    /// Where the tables are kept between runs: the 3x3x3 two-phase
    /// tables and the generic solver's (2x2x2, pyraminx, skewb).
    pub store: Arc<dyn TableStore>,
    /// Threads for building tables.
    pub threads: usize,
    /// About how many scrambles will be made: the 3x3x3 solver's large
    /// tables are built only when a batch this long pays for them (they
    /// are loaded whenever the store has them).
    pub batch: usize,
}

impl Default for ScrambleOptions {
    fn default() -> ScrambleOptions {
        ScrambleOptions {
            store: Arc::new(NoStore),
            threads: 1,
            batch: 1,
        }
    }
}

impl std::fmt::Debug for ScrambleOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScrambleOptions")
            .field("store_writes", &self.store.writes())
            .field("threads", &self.threads)
            .field("batch", &self.batch)
            .finish()
    }
}

/// One scramble of a WCA event (not a twsearch scramble file's entry,
/// [`twistor_formats::tws::Scramble`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WcaScramble {
    /// The moves, in the event's notation.
    pub alg: String,
    /// For random-state events: the optimal number of moves to solve the
    /// state (not counting pyraminx tips), where the scrambler knows it.
    pub distance: Option<usize>,
}

/// A seeded stream of scrambles for one event. Scramble `i` (from 0)
/// draws from stream `i` of the seed ([`SeededRng::with_stream`]), so a
/// seed gives the same scrambles one at a time ([`Scrambler::next_scramble`])
/// or in a batch on any number of threads ([`Scrambler::scrambles`]).
pub struct Scrambler {
    seed: u64,
    next: u64,
    engine: Engine,
}

/// How an event's scrambles are made: by the generic solver, which needs
/// exclusive access (it grows its tables), or by an engine threads can
/// share.
enum Engine {
    Optimal(Box<OptimalEngine>),
    Shared(SharedEngine),
}

enum SharedEngine {
    TwoPhase(Box<TwoPhaseTables>, CubeFinish),
    Cube(CubeMoves, Option<&'static [&'static str; 3]>),
    Megaminx,
    Clock,
    Cube444(
        Box<Cube444Solver>,
        Box<TwoPhaseTables>,
        Option<&'static [&'static str; 3]>,
    ),
    Square1(Box<Square1Solver>),
}

impl Scrambler {
    /// A scrambler for `event` seeded by `seed`; builds or loads the
    /// tables its solver needs (reporting on them through `events`).
    pub fn new(
        event: Event,
        seed: u64,
        options: &ScrambleOptions,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<Scrambler, ToolError> {
        let two_phase = |finish, events: &mut dyn FnMut(TableEvent)| {
            SharedEngine::TwoPhase(
                Box::new(TwoPhaseTables::for_solves(
                    &*options.store,
                    options.batch,
                    &mut |e| events(TableEvent::Store(e)),
                )),
                finish,
            )
        };
        let cube444 = |orientation, events: &mut dyn FnMut(TableEvent)| {
            let store = &*options.store;
            let three = TwoPhaseTables::for_solves(store, options.batch, &mut |e| {
                events(TableEvent::Store(e))
            });
            let solver = Cube444Solver::load(store, &mut |e| events(TableEvent::Store(e)));
            SharedEngine::Cube444(Box::new(solver), Box::new(three), orientation)
        };
        let shared = |engine| Engine::Shared(engine);
        let engine = match event {
            Event::Cube333 | Event::Cube333Oh => shared(two_phase(CubeFinish::Plain, events)),
            Event::Cube333Bf | Event::Cube333Mbf => shared(two_phase(CubeFinish::Blind, events)),
            Event::Cube333Fm => shared(two_phase(CubeFinish::FewestMoves, events)),
            Event::Cube444Bf => shared(cube444(Some(&ROTATIONS), events)),
            Event::Cube555Bf => shared(SharedEngine::Cube(CubeMoves::new(5, 60), Some(&WIDE_3))),
            Event::Cube222 => Engine::Optimal(Box::new(OptimalEngine::new(
                "2x2x2",
                &["R", "U", "F"],
                &[],
                4,
                options,
                events,
            )?)),
            Event::Pyraminx => Engine::Optimal(Box::new(OptimalEngine::new(
                "pyraminx",
                &["U", "L", "R", "B"],
                &["u", "l", "r", "b"],
                6,
                options,
                events,
            )?)),
            Event::Skewb => Engine::Optimal(Box::new(OptimalEngine::new(
                "skewb",
                &["R", "U", "L", "B"],
                &[],
                7,
                options,
                events,
            )?)),
            Event::Cube444 => shared(cube444(None, events)),
            Event::Cube555 => shared(SharedEngine::Cube(CubeMoves::new(5, 60), None)),
            Event::Cube666 => shared(SharedEngine::Cube(CubeMoves::new(6, 80), None)),
            Event::Cube777 => shared(SharedEngine::Cube(CubeMoves::new(7, 100), None)),
            Event::Megaminx => shared(SharedEngine::Megaminx),
            Event::Clock => shared(SharedEngine::Clock),
            Event::Square1 => shared(SharedEngine::Square1(Box::new(Square1Solver::new()))),
        };
        Ok(Scrambler {
            seed,
            next: 0,
            engine,
        })
    }

    /// The next scramble.
    pub fn next_scramble(&mut self) -> WcaScramble {
        let mut rng = SeededRng::with_stream(self.seed, self.next);
        self.next += 1;
        match &mut self.engine {
            Engine::Optimal(e) => e.scramble(&mut rng),
            Engine::Shared(engine) => engine.scramble(&mut rng),
        }
    }

    /// Scramble `index` of seed `seed`: what a scrambler made with that
    /// seed gives as its scramble `index`, from this one's tables, without
    /// moving this one on (a server keeps one scrambler an event).
    pub fn scramble_of(&mut self, seed: u64, index: u64) -> WcaScramble {
        let mut rng = SeededRng::with_stream(seed, index);
        match &mut self.engine {
            Engine::Optimal(e) => e.scramble(&mut rng),
            Engine::Shared(engine) => engine.scramble(&mut rng),
        }
    }

    /// The next `count` scrambles, handed to `each` in order as they are
    /// made: on `threads` threads at once where the event's solver can be
    /// shared (every event but 2x2x2, pyraminx and skewb, whose generic
    /// solver grows its tables as it goes and takes a millisecond anyway).
    /// The scrambles are those `count` calls of
    /// [`Scrambler::next_scramble`] would make. Stops at the first error
    /// `each` returns.
    pub fn scrambles<E>(
        &mut self,
        count: u64,
        threads: usize,
        mut each: impl FnMut(WcaScramble) -> Result<(), E>,
    ) -> Result<(), E> {
        let threads = threads.max(1);
        let engine = match &self.engine {
            Engine::Shared(engine) if threads > 1 => engine,
            _ => {
                for _ in 0..count {
                    each(self.next_scramble())?;
                }
                return Ok(());
            }
        };
        let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool,
            Err(_) => return self.scrambles(count, 1, each),
        };
        // Batches of a few per thread: output flows while the rest are made.
        let batch = 2 * threads as u64;
        let end = self.next.saturating_add(count);
        while self.next < end {
            let upto = (self.next + batch).min(end);
            let (seed, from) = (self.seed, self.next);
            let made: Vec<WcaScramble> = pool.install(|| {
                (from..upto)
                    .into_par_iter()
                    .map(|i| engine.scramble(&mut SeededRng::with_stream(seed, i)))
                    .collect()
            });
            self.next = upto;
            for s in made {
                each(s)?;
            }
        }
        Ok(())
    }
}

impl SharedEngine {
    /// A scramble drawn from `rng`.
    fn scramble(&self, rng: &mut SeededRng) -> WcaScramble {
        match self {
            SharedEngine::TwoPhase(tables, finish) => cube333(tables, *finish, rng),
            SharedEngine::Cube(c, orientation) => {
                let alg = c.scramble(rng);
                WcaScramble {
                    alg: oriented(alg, *orientation, rng),
                    distance: None,
                }
            }
            SharedEngine::Megaminx => WcaScramble {
                alg: megaminx(rng),
                distance: None,
            },
            SharedEngine::Clock => WcaScramble {
                alg: clock(rng),
                distance: None,
            },
            SharedEngine::Cube444(solver, three, orientation) => {
                // Should the reduction ever fail, a random-move scramble
                // of TNoodle's former length stands in: a legal scramble,
                // never a crash in a batch or the server.
                let alg = random_state_444(solver, three, rng)
                    .unwrap_or_else(|| CubeMoves::new(4, 40).scramble(rng));
                WcaScramble {
                    alg: oriented(alg, *orientation, rng),
                    distance: None,
                }
            }
            SharedEngine::Square1(solver) => WcaScramble {
                alg: solver.random_scramble(rng).1,
                distance: None,
            },
        }
    }
}

/// How a random-state 3x3x3 scramble ends, by event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CubeFinish {
    /// 333, 333oh: the scramble alone.
    Plain,
    /// 333bf, 333mbf: then a random whole-cube orientation as wide turns.
    Blind,
    /// 333fm: between `R' U' F` and `R' U' F`, with no move cancelling
    /// into them.
    FewestMoves,
}

/// The turns that reorient a cube for blindfolded events, by the three
/// names of its R, F and U sides' turns: one of 24 orientations, as the
/// WCA's scrambler draws them (a turn about R or F, then one about U).
const WIDE_2: [&str; 3] = ["Rw", "Fw", "Uw"];
/// 4x4x4 blindfolded scrambles end in rotations.
const ROTATIONS: [&str; 3] = ["x", "z", "y"];
/// 5x5x5 blindfolded scrambles end in three-layer wide turns.
const WIDE_3: [&str; 3] = ["3Rw", "3Fw", "3Uw"];

/// `alg` followed by a random orientation in the turns `names`, for the
/// blindfolded events (the scramble alone when `names` is `None`).
fn oriented(alg: String, names: Option<&[&str; 3]>, rng: &mut SeededRng) -> String {
    let Some(names) = names else { return alg };
    let turn = random_orientation(names, rng);
    if turn.is_empty() {
        alg
    } else {
        format!("{alg} {turn}")
    }
}

/// A uniformly random one of the 24 orientations, as 0 to 2 turns.
fn random_orientation(names: &[&str; 3], rng: &mut SeededRng) -> String {
    let [r, f, u] = names;
    let first = ["", "", "2", "'", "", "'"];
    let k = rng.below(6);
    let mut out = Vec::new();
    match k {
        1..=3 => out.push(format!("{r}{}", first[k])),
        4 | 5 => out.push(format!("{f}{}", first[k])),
        _ => {}
    }
    let j = rng.below(4);
    if j > 0 {
        out.push(format!("{u}{}", ["", "", "2", "'"][j]));
    }
    out.join(" ")
}

/// A two-phase solution of `cube` whose first and last moves are off the
/// given axes. When the solver's own solution does not fit, the cube is
/// solved with a chosen first move `q1` and last move `q2` (the search
/// solves `q2 · cube · q1`, and `q1 T q2` solves the cube), trying moves
/// off the axes until the merged sequence fits. The state is never redrawn,
/// so scrambles stay uniform over states.
fn solve_off_axes(
    tables: &TwoPhaseTables,
    cube: &CubieCube,
    first_not: Option<usize>,
    last_not: Option<usize>,
) -> Option<Vec<FaceTurn>> {
    let options = TwoPhaseOptions::default();
    let fits = |moves: &[FaceTurn]| {
        let off = |m: Option<&FaceTurn>, a: Option<usize>| match (m, a) {
            (Some(m), Some(a)) => axis(m.face()) != a,
            _ => true,
        };
        off(moves.first(), first_not) && off(moves.last(), last_not)
    };
    let choices = |not: Option<usize>| -> Vec<Option<FaceTurn>> {
        let mut v = vec![None];
        if let Some(a) = not {
            v.extend(FaceTurn::all().filter(|m| axis(m.face()) != a).map(Some));
        }
        v
    };
    let mut fallback = None;
    for q1 in choices(first_not) {
        for q2 in choices(last_not) {
            let mut image = *cube;
            if let Some(m) = q1 {
                image = image.apply_move(m);
            }
            if let Some(m) = q2 {
                image = CubieCube::from_moves(&[m]).multiply(&image);
            }
            let Ok(solution) = two_phase(tables, &image, &options) else {
                continue;
            };
            let mut moves: Vec<FaceTurn> = q1.into_iter().collect();
            moves.extend(solution.moves.0.iter().copied());
            moves.extend(q2);
            let moves = MoveSeq(moves).simplified().0;
            if fits(&moves) {
                return Some(moves);
            }
            fallback.get_or_insert(moves);
        }
    }
    fallback
}

/// The axis of a face (U/D, R/L, F/B) as 0, 1, 2.
fn axis(face: CubeFace) -> usize {
    match face {
        CubeFace::U | CubeFace::D => 0,
        CubeFace::R | CubeFace::L => 1,
        CubeFace::F | CubeFace::B => 2,
    }
}

/// A random-state 3x3x3 scramble, finished as the event asks.
fn cube333(tables: &TwoPhaseTables, finish: CubeFinish, rng: &mut SeededRng) -> WcaScramble {
    let singles: Vec<CubieCube> = FaceTurn::all()
        .map(|m| CubieCube::from_moves(&[m]))
        .collect();
    loop {
        let cube = CubieCube::random(|| rng.next_u64());
        if cube.is_solved() || singles.contains(&cube) {
            continue;
        }
        // The scramble is the solution backwards: its last move is the
        // inverse of the solution's first.
        let (orientation, first_not, last_not) = match finish {
            CubeFinish::Plain => (String::new(), None, None),
            CubeFinish::Blind => {
                let turn = random_orientation(&WIDE_2, rng);
                let first = turn.chars().next().map(|c| match c {
                    'R' => axis(CubeFace::R),
                    'F' => axis(CubeFace::F),
                    _ => axis(CubeFace::U),
                });
                (turn, first, None)
            }
            // Nothing may cancel into the final R' or the first F.
            CubeFinish::FewestMoves => (
                String::new(),
                Some(axis(CubeFace::R)),
                Some(axis(CubeFace::F)),
            ),
        };
        // Every cube has a two-phase solution within 21 moves; without a
        // time or probe limit the search always finds one.
        let Some(solution) = solve_off_axes(tables, &cube, first_not, last_not) else {
            continue;
        };
        let body = MoveSeq(solution).inverse().to_string();
        let alg = match finish {
            CubeFinish::Plain => body,
            CubeFinish::Blind if orientation.is_empty() => body,
            CubeFinish::Blind => format!("{body} {orientation}"),
            CubeFinish::FewestMoves => format!("{FMC_PADDING} {body} {FMC_PADDING}"),
        };
        return WcaScramble {
            alg,
            distance: None,
        };
    }
}

/// What every fewest-moves scramble begins and ends with.
pub const FMC_PADDING: &str = "R' U' F";

/// Random-state scrambles by an optimal solver on a puzzle from geometry.
struct OptimalEngine {
    /// The puzzle with exactly the scramble's moves (solving moves first,
    /// then tip moves), named as the scramble writes them.
    puzzle: Puzzle,
    chain: StabilizerChain,
    solver: Solver,
    goal: Goal,
    /// Puzzle move indices of the tip moves and their orders.
    tips: Vec<(usize, i64)>,
    min_distance: usize,
}

impl OptimalEngine {
    fn new(
        name: &str,
        solving: &[&str],
        tips: &[&str],
        min_distance: usize,
        options: &ScrambleOptions,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<OptimalEngine, ToolError> {
        let puzzle = scramble_puzzle(name, solving, tips)?;
        let all: Vec<usize> = (0..puzzle.moves().len()).collect();
        let chain = puzzle.group(&all);
        let layout = puzzle.layout().clone();
        // Tips are solved last: the goal leaves the orientation of every
        // slot a tip move twists unknown.
        let mut target: Vec<PatternOrbit> = layout.pattern_orbits(puzzle.start());
        for i in solving.len()..puzzle.moves().len() {
            let t = &puzzle.moves()[i].transformation;
            for (k, po) in target.iter_mut().enumerate() {
                let n = po.pieces.len();
                for s in 0..n {
                    if layout.ori(t.as_bytes(), k)[s] != 0
                        || layout.perm(t.as_bytes(), k)[s] as usize != s
                    {
                        let mods = po.orientation_mod.get_or_insert_with(|| vec![0; n]);
                        mods[s] = 1;
                        po.orientation[s] = 0;
                    }
                }
            }
        }
        let target = layout
            .pattern(&target)
            .expect("the start pattern with wildcards is a pattern");
        let goal = Goal::target(&puzzle, target).expect("wildcards coarsen the start");
        let names: Vec<String> = solving.iter().map(|s| s.to_string()).collect();
        let moves = MoveSet::named(&puzzle, &names, Metric::Htm)?;
        let solver_options = SolverOptions {
            memory_bytes: 64 << 20,
            threads: options.threads.max(1),
            store: Arc::clone(&options.store),
            symmetry: true,
        };
        let stop = AtomicBool::new(false);
        let solver = Solver::new(
            &puzzle,
            moves,
            goal.pattern.clone(),
            &solver_options,
            &stop,
            events,
        )?;
        let tips = (solving.len()..puzzle.moves().len())
            .map(|i| {
                let order =
                    i64::try_from(layout.order(&puzzle.moves()[i].transformation)).unwrap_or(1);
                (i, order)
            })
            .collect();
        Ok(OptimalEngine {
            puzzle,
            chain,
            solver,
            goal,
            tips,
            min_distance,
        })
    }

    fn scramble(&mut self, rng: &mut SeededRng) -> WcaScramble {
        let layout = self.puzzle.layout();
        let stop = AtomicBool::new(false);
        let options = SolveOptions {
            count: SolutionCount::First(1),
            min_depth: 0,
            max_depth: 40,
            threads: 1,
            node_limit: u64::MAX,
        };
        loop {
            let points = self.chain.random_element(|n| rng.below(n));
            let bytes = layout
                .from_points(&points)
                .expect("group elements map pieces to pieces");
            let t = twistor_core::Transformation::from_bytes(layout, bytes)
                .expect("group elements are transformations");
            let position = layout.apply(self.puzzle.start(), &t);
            let relabelled = self
                .goal
                .relabel(&self.puzzle, &position)
                .expect("reachable positions have the start's pieces");
            let report = self.solver.solve(&relabelled, &options, &stop, &mut |_| {});
            let Some(solution) = report.solutions.into_iter().next() else {
                continue;
            };
            if solution.len() < self.min_distance {
                continue;
            }
            let set = self.solver.moves();
            let mut after = position.clone();
            for m in &solution {
                after = layout.apply(&after, &set.moves()[*m].transformation);
            }
            let Some(tips) = self.tip_turns(&after) else {
                continue;
            };
            // Scramble: the solution undone (each move's inverse, named as
            // the move set names it: R2 stays R2), then the tips undone.
            let mut alg: Vec<String> = Vec::new();
            for &m in solution.iter().rev() {
                let inverse = set
                    .inverse_of(m)
                    .expect("every power's inverse is in the set");
                alg.push(set.moves()[inverse].name.clone());
            }
            for (i, amount) in tips {
                let name = &self.puzzle.moves()[i].name;
                alg.push(match -amount {
                    1 => name.clone(),
                    -1 => format!("{name}'"),
                    a if a > 0 => format!("{name}{a}"),
                    a => format!("{name}{}'", -a),
                });
            }
            return WcaScramble {
                alg: alg.join(" "),
                distance: Some(solution.len()),
            };
        }
    }

    /// The tip turns (move index, signed amount) that bring `after` to the
    /// start pattern, if any.
    fn tip_turns(&self, after: &Pattern) -> Option<Vec<(usize, i64)>> {
        let layout = self.puzzle.layout();
        let start = self.puzzle.start();
        let mut amounts = vec![0i64; self.tips.len()];
        loop {
            let mut p = after.clone();
            for (k, &(i, _)) in self.tips.iter().enumerate() {
                let t = layout.power(&self.puzzle.moves()[i].transformation, amounts[k]);
                p = layout.apply(&p, &t);
            }
            if p == *start {
                return Some(
                    self.tips
                        .iter()
                        .zip(&amounts)
                        .filter(|(_, &a)| a != 0)
                        .map(|(&(i, order), &a)| (i, if 2 * a > order { a - order } else { a }))
                        .collect(),
                );
            }
            // Next combination of amounts.
            let mut k = 0;
            loop {
                if k == amounts.len() {
                    return None;
                }
                amounts[k] += 1;
                if amounts[k] < self.tips[k].1 {
                    break;
                }
                amounts[k] = 0;
                k += 1;
            }
        }
    }
}

/// The named puzzle with exactly these moves (community names resolved by
/// its notation), every piece as the named puzzle has it.
pub fn scramble_puzzle(name: &str, solving: &[&str], tips: &[&str]) -> Result<Puzzle, ToolError> {
    let built = twistor_geometry::build(name, &PuzzleOptions::for_notation())?;
    let full = built.puzzle();
    let mut p = Puzzle::new(name, full.layout().clone(), full.start().clone());
    for &m in solving.iter().chain(tips) {
        let t = alg_transformation(full, &Alg::parse(m)?)?;
        p.add_move(MoveDef {
            name: m.to_string(),
            transformation: t,
            kind: MoveKind::Base,
            definition: None,
        })?;
    }
    Ok(p)
}

/// Random moves on an NxN cube.
struct CubeMoves {
    /// (text, axis, layer block) of every quantum allowed.
    quanta: Vec<(String, usize, usize)>,
    length: usize,
}

impl CubeMoves {
    fn new(n: usize, length: usize) -> CubeMoves {
        const FACES: [(&str, usize); 6] =
            [("U", 0), ("D", 0), ("L", 1), ("R", 1), ("F", 2), ("B", 2)];
        let mut quanta = Vec::new();
        // Widths 1 (face) up to n/2 (half the cube).
        for width in 1..=n / 2 {
            for (fi, &(face, axis)) in FACES.iter().enumerate() {
                let half = 2 * width == n;
                // Half-cube wide turns of even cubes only on U, R and F.
                if half && !matches!(face, "U" | "R" | "F") {
                    continue;
                }
                let text = match width {
                    1 => face.to_string(),
                    2 => format!("{face}w"),
                    w => format!("{w}{face}w"),
                };
                quanta.push((text, axis, fi * 16 + width));
            }
        }
        CubeMoves { quanta, length }
    }

    fn scramble(&self, rng: &mut SeededRng) -> String {
        let mut out: Vec<String> = Vec::with_capacity(self.length);
        let mut axis = usize::MAX;
        let mut used: Vec<usize> = Vec::new();
        for _ in 0..self.length {
            let allowed: Vec<&(String, usize, usize)> = self
                .quanta
                .iter()
                .filter(|q| q.1 != axis || !used.contains(&q.2))
                .collect();
            let q = allowed[rng.below(allowed.len())];
            if q.1 != axis {
                axis = q.1;
                used.clear();
            }
            used.push(q.2);
            let suffix = ["", "2", "'"][rng.below(3)];
            out.push(format!("{}{suffix}", q.0));
        }
        out.join(" ")
    }
}

/// A Pochmann megaminx scramble.
fn megaminx(rng: &mut SeededRng) -> String {
    let mut words = Vec::with_capacity(77);
    for _ in 0..7 {
        let mut last_plus = true;
        for j in 0..10 {
            let side = if j % 2 == 0 { "R" } else { "D" };
            last_plus = rng.below(2) == 0;
            words.push(format!("{side}{}", if last_plus { "++" } else { "--" }));
        }
        words.push(if last_plus { "U".into() } else { "U'".into() });
    }
    words.join(" ")
}

/// The clock's pin sets in scramble order: the front's nine turns, then
/// (after `y2`) the back's five.
const CLOCK_FRONT: [&str; 9] = ["UR", "DR", "DL", "UL", "U", "R", "D", "L", "ALL"];
const CLOCK_BACK: [&str; 5] = ["U", "R", "D", "L", "ALL"];

/// A clock scramble: every turn an amount uniform in -5..=6.
fn clock(rng: &mut SeededRng) -> String {
    let mut turn = |pins: &str| {
        // 0..12 shifted to -5..=6.
        let amount = rng.below(12) as i64 - 5;
        if amount >= 0 {
            format!("{pins}{amount}+")
        } else {
            format!("{pins}{}-", -amount)
        }
    };
    let mut words: Vec<String> = CLOCK_FRONT.iter().map(|p| turn(p)).collect();
    words.push("y2".into());
    words.extend(CLOCK_BACK.iter().map(|p| turn(p)));
    words.join(" ")
}

/// A random-state 4x4x4 scramble. The reduction solves every position
/// (its tests check thousands); should it ever report a failure, the
/// position is drawn again, eight times at most (`None` then).
fn random_state_444(
    solver: &Cube444Solver,
    three: &TwoPhaseTables,
    rng: &mut SeededRng,
) -> Option<String> {
    (0..8).find_map(|_| {
        solver
            .random_scramble(rng, three)
            .ok()
            .map(|s| s.alg.to_string())
    })
}
