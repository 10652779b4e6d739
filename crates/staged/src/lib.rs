//! A staged solver for any puzzle twistor can build: it always ends, with
//! a solution, for every position the moves reach.
//!
//! Optimal search stops at the 3x3x3's size; a 4x4x4, a megaminx or a
//! 40x40x40 needs stages. People write those by hand for each puzzle
//! (twsearch's partial targets, twips' phase solvers); this crate plans
//! them from the definition alone, the way a solver works a puzzle
//! without a method: pieces first, cheapest first, while searching is
//! cheap, then the rest by commutators.
//!
//! 1. **Blocks by search.** The goal's *classes* (the pieces sharing a
//!    goal id: one corner, or the four centres of one colour of one kind)
//!    are placed one at a time. Each step is an IDA* search over the
//!    coordinates of the classes already placed and the one added, bounded
//!    by pattern databases of each class and of pairs of pieces (and of
//!    the piece with the two placed last, built only for a step that a
//!    few thousand nodes do not finish), and takes the class the databases
//!    say is nearest. A child is cut from the first database that bounds
//!    it out, read straight from its parent's coordinates. A step
//!    that would cost more than a node budget fails: it ends as soon as
//!    its next depth is predicted not to fit, and the steps after a
//!    failed one get a smaller budget (where the placed pieces hold every
//!    turn, the next-nearest fail as the nearest did). A few failures end
//!    this phase. Orbits tied
//!    together, so that no 3-cycle moves one while the others stay (a
//!    professor skewb's corners and centres), go first, placed together
//!    by an optimal search over just those orbits. So do orbits whose
//!    pieces only twist in place (a starminx's corners): a sequence's
//!    effect on them is the sum of its moves' twists, so they are set
//!    right at once by counts of moves solved as a linear system.
//! 2. **Invariants.** What commutators cannot change (an orbit's parity,
//!    its total twist) is set right by a few moves found in the abelian
//!    group of those invariants.
//! 3. **Commutators.** Every orbit still unsolved is finished by pure
//!    3-cycles, commutators found by search that move three pieces of the
//!    orbit and nothing else, aimed at the pieces by setup moves: a
//!    finished orbit is never disturbed, so this phase always ends. (A
//!    cycle may exchange two pieces alike of a finished orbit only where
//!    its setups keep pieces of one id together.) Where no order of the
//!    orbits lets each be finished this way, the stage is sifted through
//!    tables of words (Minkwitz).
//!
//! A caller may also give its own stages ([`StageSpec`]: pieces to add and
//! optionally the moves allowed), as twsearch users chain partial targets;
//! each stage is worked by the same three phases, keeping the ones before.
//!
//! The solver does no I/O: tables are built in memory, progress goes
//! through a callback and long work takes a stop flag. The operations it
//! finds, most of what a first solve costs, go to the store a caller
//! gives ([`StagedSolver::with_store`]) and are read back by the next
//! solver of the same moves and goal.
//!
//! # Example
//!
//! The 3x3x3, scrambled with forty turns, solved:
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use twistor_geometry::{build, PuzzleOptions};
//! use twistor_search::{Metric, MoveSet};
//! use twistor_staged::{StagedOptions, StagedSolver};
//!
//! let puzzle = build("3x3x3", &PuzzleOptions::default())?.into_puzzle();
//! let moves = MoveSet::all(&puzzle, Metric::Htm)?;
//! let layout = puzzle.layout();
//! let mut position = puzzle.start().clone();
//! for i in 0..40 {
//!     position = layout.apply(&position, &moves.moves()[(i * 7) % moves.moves().len()].transformation);
//! }
//! let mut solver = StagedSolver::new(moves.clone(), puzzle.start().clone(), None, StagedOptions::default())?;
//! let solution = solver.solve(&position, &AtomicBool::new(false), &mut |_| {})?;
//! let solved = solution
//!     .moves
//!     .iter()
//!     .fold(position, |p, &m| layout.apply(&p, &moves.moves()[m].transformation));
//! assert_eq!(&solved, puzzle.start());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod coord;
mod finish;
mod ida;
mod invariant;
mod model;
mod ops;
mod pure;
mod search_ops;
mod sift;
mod solver;
mod twist;

pub use solver::{
    Method, PieceSpec, StageSpec, StagedEvent, StagedOptions, StagedSolution, StagedSolver, Step,
};

/// What can go wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StagedError {
    /// More slots than the model numbers.
    #[error("the puzzle has {slots} slots; the staged solver handles at most 65,535")]
    TooBig {
        /// Slots the puzzle has.
        slots: usize,
    },
    /// A move whose inverse is not among the moves.
    #[error("move {name} has no inverse among the moves")]
    NoInverse {
        /// The move.
        name: String,
    },
    /// A stage's move that the move set does not have.
    #[error("stage {stage:?}: no move number {index} among the moves")]
    NoSuchMove {
        /// The stage.
        stage: String,
        /// The move's index, as given.
        index: usize,
    },
    /// A stage names an orbit the puzzle does not have.
    #[error("stage {stage:?}: the puzzle has no orbit {orbit}")]
    NoSuchOrbit {
        /// The stage.
        stage: String,
        /// The orbit (index).
        orbit: usize,
    },
    /// A stage names a slot its orbit does not have.
    #[error("stage {stage:?}: orbit {orbit} has {slots} slots, not {slot}")]
    NoSuchSlot {
        /// The stage.
        stage: String,
        /// The orbit's name.
        orbit: String,
        /// Its slots.
        slots: usize,
        /// The slot asked for (0-based).
        slot: usize,
    },
    /// The position cannot reach the goal with these moves.
    #[error("the moves cannot reach the goal from this position ({reason})")]
    Unreachable {
        /// What shows it.
        reason: String,
    },
    /// A stage could not be finished.
    #[error("stage {stage:?}: orbit {orbit} could not be finished ({reason})")]
    GaveUp {
        /// The stage.
        stage: String,
        /// The orbit.
        orbit: String,
        /// Why.
        reason: String,
    },
    /// The stop flag was raised.
    #[error("stopped")]
    Stopped,
}
