//! Search engines for twistor: the moves a search turns, canonical
//! sequences, pruning tables, IDA*, and God's algorithm.
//!
//! Engines do no I/O and know nothing of the terminal: long jobs report
//! progress through a callback and can be stopped through a flag.
#![deny(missing_docs)]

mod cache;
pub mod canonical;
pub mod gods;
pub mod hashed;
pub mod moves;
mod planner;
pub mod projection;
pub mod solver;
pub mod table;
pub mod target;

pub use canonical::CanonicalFsm;
pub use moves::{Grip, Metric, MoveSet, SearchMove};
pub use solver::{
    SaveGrown, SearchProgress, SolutionCount, Solutions, SolveOptions, SolveReport, Solver,
    SolverOptions, TableEvent,
};
pub use table::{FillLimit, FillProgress, LayerCost, PruneTable};

/// What can go wrong setting up a search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A move the puzzle does not have.
    #[error("the puzzle has no move {0:?}")]
    UnknownMove(String),
    /// A move listed twice.
    #[error("move {0} is listed twice")]
    MoveListedTwice(String),
    /// An empty move list.
    #[error("no moves to search with")]
    NoMoves,
    /// More move classes than the canonical automaton handles.
    #[error("{0} move classes; canonical sequences handle at most 64")]
    TooManyGrips(usize),
    /// The work was stopped before it finished.
    #[error("stopped")]
    Stopped,
    /// A move whose order is too large to enumerate its powers.
    #[error("move {0} has too large an order to search with")]
    MoveOrderTooLarge(String),
}
