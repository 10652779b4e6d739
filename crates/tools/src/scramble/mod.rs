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
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use twistor_core::lazy::make_apart;
use twistor_core::store::{NoStore, StoreEvent, TableStore};
use twistor_core::{MoveDef, MoveKind, Pattern, PatternOrbit, Puzzle, StabilizerChain};
use twistor_cube333::{
    solve_two_phase as two_phase, CubieCube, Face as CubeFace, FaceTurn, MoveSeq, TwoPhaseOptions,
    TwoPhaseTableKind, TwoPhaseTables,
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

use crate::portfolio::{
    two_phase_choice, two_phase_tables_for, two_phase_tables_of, StoredTwoPhase,
};
use crate::rng::SeededRng;
use crate::ToolError;

mod cube333;
mod optimal;
mod random_moves;

pub use cube333::FMC_PADDING;
use cube333::*;
pub use optimal::scramble_puzzle;
use optimal::*;
use random_moves::*;

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
    /// Where tables left for later ([`Scrambler::complete_tables`]) go.
    store: Arc<dyn TableStore>,
}

/// Scrambles in a batch that pay for the 4x4x4's largest table (the
/// pairings 9 moves away: four seconds to build, then each scramble
/// takes a third of the time) before the first: a shorter batch that
/// finds it not stored makes its scrambles without it, the same
/// scrambles, and builds it afterwards ([`Scrambler::complete_tables`]).
const COMPLETE_444_AFTER: usize = 16;

/// How an event's scrambles are made: by the generic solver, which needs
/// exclusive access (it grows its tables), or by an engine threads can
/// share.
enum Engine {
    Optimal(Box<OptimalEngine>),
    Shared(SharedEngine),
}

enum SharedEngine {
    TwoPhase(Box<UpgradingTables>, CubeFinish),
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
            SharedEngine::TwoPhase(Box::new(UpgradingTables::new(options, events)), finish)
        };
        let cube444 = |orientation, events: &mut dyn FnMut(TableEvent)| {
            let store = &*options.store;
            let three = two_phase_tables_for(None, options.batch, store, &mut |e| {
                events(TableEvent::Store(e))
            });
            let events: &mut dyn FnMut(StoreEvent) = &mut |e| events(TableEvent::Store(e));
            let solver = if options.batch >= COMPLETE_444_AFTER {
                Cube444Solver::load(store, events)
            } else {
                Cube444Solver::load_quick(store, events)
            };
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
            store: Arc::clone(&options.store),
        })
    }

    /// Builds the tables the scrambler left for later to give a person
    /// the first scrambles sooner (the 4x4x4's largest), and gives them to
    /// the store, so that the next run finds them: for after the
    /// scrambles, or for a scrambler that will make many. Nothing when the
    /// store keeps no tables.
    pub fn complete_tables(&mut self, events: &mut dyn FnMut(TableEvent)) {
        if !self.store.writes() {
            return;
        }
        if let Engine::Shared(SharedEngine::Cube444(solver, ..)) = &self.engine {
            solver.complete(&*self.store, &mut |e| events(TableEvent::Store(e)));
        }
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

/// The 3x3x3's two-phase tables for a batch. A batch long enough to pay
/// for building the full tables ([`two_phase_choice`]; from
/// [`FULL_TABLES_PAY_AFTER`](crate::portfolio::FULL_TABLES_PAY_AFTER)
/// scrambles) that finds none stored has a thread build (and store) them
/// while the compact ones
/// (built in a fraction of a second) make the first scrambles: a person
/// sees the first lines at once, not after 10-20 s. After
/// [`COMPACT_ONLY_FOR`] the scrambler waits for the full tables, since
/// scrambling with the compact ones beside the build would slow the whole
/// batch. The scrambles are the same from either table set (the solver's
/// first solution does not depend on how tightly it prunes; tested in
/// cube333), so when the switch comes changes none. Any other batch takes
/// the tables [`two_phase_choice`] picks: stored full ones only when it
/// pays for reading them.
struct UpgradingTables {
    first: TwoPhaseTables,
    /// The full tables once built, and when the batch started; `None`
    /// when no build runs.
    full: Option<(Arc<OnceLock<TwoPhaseTables>>, Instant)>,
}

/// How long a batch scrambles with the compact tables while the full ones
/// are built.
const COMPACT_ONLY_FOR: Duration = Duration::from_secs(1);

impl UpgradingTables {
    fn new(options: &ScrambleOptions, events: &mut dyn FnMut(TableEvent)) -> UpgradingTables {
        let store = &options.store;
        let stored = StoredTwoPhase::of(&**store);
        let kind = two_phase_choice(None, options.batch, stored);
        let (first, full) = if kind != TwoPhaseTableKind::Full || stored.full {
            let tables = two_phase_tables_of(kind, &**store, &mut |e| events(TableEvent::Store(e)));
            (tables, None)
        } else {
            let full = Arc::new(OnceLock::new());
            let (store, slot) = (Arc::clone(store), Arc::clone(&full));
            // Detached: a run that ends first (`| head -1`) simply stops
            // it. Should the build ever panic, the compact tables stand
            // in, so no scrambler waits forever. It runs on a rayon pool of
            // its own: on the global one its jobs, split as they go, kept
            // the workers from the compact tables' build and the first
            // scrambles for 1.2-2.9 s.
            std::thread::spawn(move || {
                let build = std::panic::AssertUnwindSafe(|| {
                    make_apart(|| TwoPhaseTables::load(&*store, &mut |_| {}))
                });
                let built = std::panic::catch_unwind(build);
                let _ = slot.set(built.unwrap_or_else(|_| TwoPhaseTables::compact()));
            });
            let first = TwoPhaseTables::compact_kept(&*options.store, &mut |e| {
                events(TableEvent::Store(e))
            });
            (first, Some((full, Instant::now())))
        };
        UpgradingTables { first, full }
    }

    /// The tables to scramble with now.
    fn get(&self) -> &TwoPhaseTables {
        let Some((full, started)) = &self.full else {
            return &self.first;
        };
        match full.get() {
            Some(t) => t,
            None if started.elapsed() >= COMPACT_ONLY_FOR => full.wait(),
            None => &self.first,
        }
    }
}

impl SharedEngine {
    /// A scramble drawn from `rng`.
    fn scramble(&self, rng: &mut SeededRng) -> WcaScramble {
        match self {
            SharedEngine::TwoPhase(tables, finish) => cube333(tables.get(), *finish, rng),
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
