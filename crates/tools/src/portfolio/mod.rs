//! Which engine solves a position: the one place that decides, so the
//! command line, the web page and any other program solve alike.
//!
//! The engines are rows of one table, [`ENGINES`] (as nissy lists its
//! solvers): what each is, and whether its answers are proven shortest.
//! A [`Portfolio`] is set up for a puzzle, a move set, a goal and a
//! [`Mode`]:
//!
//! * [`Mode::Optimal`] (`twistor solve`): the shortest answer. The generic
//!   search (IDA* with pattern databases, `twistor-search`) answers any
//!   puzzle it can finish; a definition recognised as the 3x3x3 goes to
//!   the dedicated optimal solver (`twistor-cube333`), at once if its
//!   tables are in the store, otherwise after the generic search has had
//!   [`GENERIC_FIRST_SECS`] (it solves short positions sooner). The
//!   dedicated solver starts with its phase-1 table and builds the huge
//!   one (1.34 GB) only for a position that needs it and only when memory
//!   allows. Where the planner's [estimate] puts the search out
//!   of reach (a 4x4x4, a megaminx), a position gets a probe of a few
//!   million nodes — a shallow one is still answered optimally — and is
//!   otherwise reported as [`Outcome::OutOfReach`] at once.
//! * [`Mode::Fast`] (`twistor solve --fast`, the page's Solve button): an
//!   answer for every position of every puzzle, from the dedicated engine
//!   where one fits (the clock's linear solver, Square-1 two-phase, the
//!   4x4x4 reduction, 3x3x3 two-phase), else the generic search when its
//!   estimate says it is quick, else the staged solver
//!   (`twistor-staged`), which always ends.
//!
//! Positions the moves cannot reach are told apart before searching, by
//! sifting, where that can be decided; with [`Orientation::AnyRotation`]
//! every orientation the puzzle can be held in is tried, and in fast mode
//! a position reachable only held differently (a WCA megaminx scramble's
//! `R++` turns the whole puzzle) is answered up to that rotation. Every
//! answer is played on the position before it is returned.
//!
//! Everything that happens is reported as a [`PortfolioEvent`]; the work
//! stops when the stop flag is set.

mod clock;
mod cube444;
pub mod estimate;
mod fast;
mod optimal;
mod square1;
mod wide;

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use twistor_core::store::TableStore;
use twistor_core::{Pattern, Puzzle};
use twistor_cube333::{OptimalProgress, OptimalSolver, OptimalTableKind};
use twistor_search::{MoveSet, SaveGrown, SearchProgress, SolutionCount, Solver, TableEvent};
use twistor_staged::{StageSpec, Step};

use crate::ToolError;
pub use estimate::Estimate;

/// Seconds the generic search gets, over all positions, on a definition
/// recognised as the 3x3x3 before the dedicated solver builds its tables
/// (which takes about 5 s on two cores).
pub const GENERIC_FIRST_SECS: f64 = 3.0;
/// Memory from which the dedicated solver may use its huge table (the
/// table and the solver's own memory: a solve peaks at 1325 MiB).
pub const HUGE_TABLE_MEMORY: u64 = 1350 << 20;
/// Memory from which the dedicated solver uses its giant table (3.79 GB)
/// once that table is cached.
pub const GIANT_TABLE_MEMORY: u64 = 3800 << 20;
/// Memory from which an optimal 3x3x3 solve with a limit the user gave
/// builds the giant table when it is not cached (the build, in the
/// table's own memory, peaked at 3665 MiB and takes minutes).
pub const GIANT_BUILD_MEMORY: u64 = 4000 << 20;

/// The strongest optimal-solver table within `memory` bytes: the giant
/// table when it fits and is cached, or when its build fits too and
/// `may_build_giant` (a limit the user gave, not a guess from the memory
/// free: a first solve should not wait minutes for a build nobody asked
/// for); else the huge table from [`HUGE_TABLE_MEMORY`]; else the
/// phase-1 table.
pub fn optimal_table_within(
    memory: u64,
    may_build_giant: bool,
    store: &dyn TableStore,
) -> OptimalTableKind {
    let giant_cached = || OptimalSolver::table_cached(OptimalTableKind::Giant, store);
    if memory >= GIANT_TABLE_MEMORY
        && ((may_build_giant && memory >= GIANT_BUILD_MEMORY) || giant_cached())
    {
        OptimalTableKind::Giant
    } else if memory >= HUGE_TABLE_MEMORY {
        OptimalTableKind::Huge
    } else {
        OptimalTableKind::Small
    }
}

/// The staged solver's stages from a stage file (read by
/// [`twistor_formats::stages`]), its move names resolved among `moves`: a
/// grip's name takes all its powers, a power's name that power alone.
pub fn stage_specs(
    stages: &[twistor_formats::stages::StageText],
    moves: &MoveSet,
    file: &str,
) -> Result<Vec<StageSpec>, ToolError> {
    stages
        .iter()
        .map(|s| {
            let moves = match &s.moves {
                None => None,
                Some(names) => {
                    let mut picked: Vec<usize> = Vec::new();
                    for name in names {
                        let found: Vec<usize> = (0..moves.moves().len())
                            .filter(|&m| {
                                let mv = &moves.moves()[m];
                                mv.name == *name || moves.grips()[mv.grip].name == *name
                            })
                            .collect();
                        if found.is_empty() {
                            return Err(ToolError::StageMove {
                                file: file.to_string(),
                                line: s.line,
                                stage: s.name.clone(),
                                name: name.clone(),
                                known: moves
                                    .grips()
                                    .iter()
                                    .map(|g| g.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(" "),
                            });
                        }
                        for m in found {
                            if !picked.contains(&m) {
                                picked.push(m);
                            }
                        }
                    }
                    picked.sort_unstable();
                    Some(picked)
                }
            };
            Ok(StageSpec {
                name: s.name.clone(),
                pieces: s
                    .pieces
                    .iter()
                    .map(|(orbit, slots)| twistor_staged::PieceSpec {
                        orbit: *orbit,
                        slots: slots.clone(),
                    })
                    .collect(),
                moves,
            })
        })
        .collect()
}

/// Most points (of the orbits whose pieces are distinct) for deciding
/// reachability by Schreier–Sims before solving (bigger groups take
/// seconds to build; the staged solver tells an unreachable position by
/// its invariants anyway).
pub const REACHABILITY_POINTS: usize = 2_000;

/// Most bytes the reachability test's chains may take beside an engine
/// whose tables fill the memory given (optimal search, the dedicated
/// solvers): half of what `-M` keeps back for the rest of a search. The
/// groups of puzzles an optimal search can answer fit in far less.
pub const REACHABILITY_BYTES_BESIDE_TABLES: u64 = crate::budget::SEARCH_RESERVE / 2;

/// The part of the table memory the reachability test's chains may take
/// where the staged solver answers, which gets the rest: a gigaminx's
/// chain takes 10 MiB, an examinx's would take 216.
pub const REACHABILITY_SHARE_OF_STAGED: u64 = 8;

/// Memory (MiB) the generic search's tables get when the user gives no
/// limit.
pub const DEFAULT_MEMORY_MIB: u64 = 256;

/// The memory a portfolio's engines get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryBudgets {
    /// The generic search's tables, in bytes.
    pub memory_bytes: u64,
    /// The dedicated 3x3x3 solver's table, in bytes.
    pub dedicated_memory_bytes: u64,
    /// Whether the free memory, not a limit the user gave, lets the
    /// dedicated solver use its huge table (worth saying so).
    pub huge_by_default: bool,
}

/// The budgets for a limit the user gave (`-M`, MiB), or else for the
/// memory the machine has free: the generic search keeps to
/// [`DEFAULT_MEMORY_MIB`], and the dedicated 3x3x3 solver may use what
/// is free beside it (its huge table answers deep cubes in minutes, not
/// hours), never more than a limit given. The limit is the whole
/// process's: what is resident already (`in_use_bytes`) and a working
/// reserve come off it ([`crate::budget::for_tables`]).
pub fn memory_budgets(
    limit_mib: Option<u64>,
    free_bytes: Option<u64>,
    in_use_bytes: u64,
) -> MemoryBudgets {
    let memory_bytes = crate::budget::steady(crate::budget::for_tables(
        limit_mib
            .unwrap_or(DEFAULT_MEMORY_MIB)
            .saturating_mul(1 << 20),
        in_use_bytes,
        crate::budget::SEARCH_RESERVE,
    ));
    let free = limit_mib.is_none().then_some(free_bytes).flatten();
    let dedicated_memory_bytes = free.map_or(memory_bytes, |f| f.saturating_sub(memory_bytes));
    MemoryBudgets {
        memory_bytes,
        dedicated_memory_bytes,
        huge_by_default: free.is_some() && dedicated_memory_bytes >= HUGE_TABLE_MEMORY,
    }
}

/// The optimal 3x3x3 solver's table for a limit the user gave (bytes), or
/// else for the memory free (bytes), or else, knowing neither, the huge
/// table; and what decided it, in words.
pub fn optimal_table_for(
    limit_bytes: Option<u64>,
    free_bytes: Option<u64>,
    store: &dyn TableStore,
) -> (OptimalTableKind, &'static str) {
    match (limit_bytes, free_bytes) {
        (Some(limit), _) => (optimal_table_within(limit, true, store), "-M"),
        (None, Some(free)) => (optimal_table_within(free, false, store), "the memory free"),
        (None, None) => (OptimalTableKind::Huge, "the default"),
    }
}

/// Memory (MiB) below which two-phase keeps to its compact or medium
/// tables (the full ones hold 126 MB).
pub const FULL_TWO_PHASE_MEMORY_MIB: u64 = 256;

/// Solves expected before the full two-phase tables pay for building
/// them (9 s against about 0.3 ms a solve saved; see `twistor 333 bench`).
pub const FULL_TABLES_PAY_AFTER: usize = 20_000;

/// Solves expected before the medium two-phase tables pay for building
/// them (0.85 s on two cores, 1.4 s of CPU, against about 0.6 ms a solve
/// saved on the compact ones' mean at 21 moves; see `twistor 333 bench
/// --tables`).
pub const MEDIUM_TABLES_PAY_AFTER: usize = 2_000;

/// Solves expected before reading the stored full two-phase tables pays,
/// against the stored medium ones: reading 126 MB (and making the full
/// reductions) takes about 0.3 s where the medium tables take a few
/// hundredths, to save about 0.08 ms a solve on their mean at 21 moves.
pub const FULL_TABLES_READ_PAYS_AFTER: usize = 4_000;

/// Solves expected before reading the stored full tables pays where the
/// medium ones are not stored: against the compact ones (about 0.5 ms a
/// solve saved), or against building the medium ones.
pub const FULL_TABLES_READ_BEATS_COMPACT_AFTER: usize = 600;

/// The two-phase tables a store holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoredTwoPhase {
    /// The full tables ([`TwoPhaseTables::full_tables_stored`]).
    ///
    /// [`TwoPhaseTables::full_tables_stored`]: twistor_cube333::TwoPhaseTables::full_tables_stored
    pub full: bool,
    /// The medium tables ([`TwoPhaseTables::medium_tables_stored`]).
    ///
    /// [`TwoPhaseTables::medium_tables_stored`]: twistor_cube333::TwoPhaseTables::medium_tables_stored
    pub medium: bool,
}

/// The two-phase tables about `solves` solves take, within a limit the
/// user gave (MiB), given what the store holds: the set that takes the
/// least time overall.
///
/// - The full ones when they fit the limit ([`FULL_TWO_PHASE_MEMORY_MIB`])
///   and either pay for building ([`FULL_TABLES_PAY_AFTER`]), or are
///   stored and pay for reading ([`FULL_TABLES_READ_PAYS_AFTER`] against
///   stored medium ones, else [`FULL_TABLES_READ_BEATS_COMPACT_AFTER`]).
///   A few solves never wait for 126 MB to be read.
/// - Else the medium ones when stored or paying for their build
///   ([`MEDIUM_TABLES_PAY_AFTER`]).
/// - Else the compact ones, built at once (a few hundredths of a second)
///   and kept in the store, so that the next process only reads them.
pub fn two_phase_choice(
    limit_mib: Option<u64>,
    solves: usize,
    stored: StoredTwoPhase,
) -> twistor_cube333::TwoPhaseTableKind {
    use twistor_cube333::TwoPhaseTableKind::{Compact, Full, Medium};
    let full_fits = limit_mib.is_none_or(|m| m >= FULL_TWO_PHASE_MEMORY_MIB);
    let read_pays_after = if stored.medium {
        FULL_TABLES_READ_PAYS_AFTER
    } else {
        FULL_TABLES_READ_BEATS_COMPACT_AFTER
    };
    let full = solves >= FULL_TABLES_PAY_AFTER || (stored.full && solves >= read_pays_after);
    if full_fits && full {
        Full
    } else if stored.medium || solves >= MEDIUM_TABLES_PAY_AFTER {
        Medium
    } else {
        Compact
    }
}

impl StoredTwoPhase {
    /// What `store` holds.
    pub fn of(store: &dyn TableStore) -> StoredTwoPhase {
        use twistor_cube333::TwoPhaseTables;
        StoredTwoPhase {
            full: TwoPhaseTables::full_tables_stored(store),
            medium: TwoPhaseTables::medium_tables_stored(store),
        }
    }
}

/// The two-phase tables [`two_phase_choice`] picks for about `solves`
/// solves, read from the store or built (and kept there).
pub fn two_phase_tables_for(
    limit_mib: Option<u64>,
    solves: usize,
    store: &dyn TableStore,
    report: &mut dyn FnMut(twistor_core::store::StoreEvent),
) -> twistor_cube333::TwoPhaseTables {
    let kind = two_phase_choice(limit_mib, solves, StoredTwoPhase::of(store));
    two_phase_tables_of(kind, store, report)
}

/// The two-phase tables of `kind`, read from the store or built and kept
/// there (the compact ones too, so that the next process only reads
/// them).
pub fn two_phase_tables_of(
    kind: twistor_cube333::TwoPhaseTableKind,
    store: &dyn TableStore,
    report: &mut dyn FnMut(twistor_core::store::StoreEvent),
) -> twistor_cube333::TwoPhaseTables {
    use twistor_cube333::{TwoPhaseTableKind, TwoPhaseTables};
    match kind {
        TwoPhaseTableKind::Full => TwoPhaseTables::load(store, report),
        TwoPhaseTableKind::Medium => TwoPhaseTables::medium(store, report),
        TwoPhaseTableKind::Compact => TwoPhaseTables::compact_kept(store, report),
    }
}

/// What a portfolio is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Shortest answers (or none, where the search is out of reach).
    Optimal,
    /// An answer for every position, shortest where that is quick.
    Fast,
}

/// An engine of the portfolio.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The generic optimal search.
    Generic,
    /// The dedicated optimal 3x3x3 solver.
    Dedicated,
    /// The 3x3x3 two-phase solver.
    TwoPhase,
    /// The 4x4x4 reduction solver.
    Reduction444,
    /// The Square-1 two-phase solver.
    Square1,
    /// The clock's linear solver.
    Clock,
    /// The staged solver.
    Staged,
}

/// One row of the engine table.
#[derive(Clone, Copy, Debug)]
pub struct EngineRow {
    /// The engine.
    pub engine: Engine,
    /// Its short name (as `-v`, the JSON and the page give it).
    pub name: &'static str,
    /// What it is, in words.
    pub title: &'static str,
    /// Which puzzles it takes.
    pub takes: &'static str,
    /// Whether its answers are proven shortest.
    pub optimal: bool,
}

/// The engines, in the order the fast mode tries them.
pub const ENGINES: &[EngineRow] = &[
    EngineRow {
        engine: Engine::Clock,
        name: "clock",
        title: "the clock's dials solved as linear equations over Z/12 (in the WCA's fourteen turns an answer is unique, so the fewest)",
        takes: "the clock",
        optimal: true,
    },
    EngineRow {
        engine: Engine::Square1,
        name: "square1-two-phase",
        title: "Square-1 two-phase: shape, then the square group",
        takes: "the Square-1",
        optimal: false,
    },
    EngineRow {
        engine: Engine::Reduction444,
        name: "444-reduction",
        title: "4x4x4 reduction: centres, edge pairing, then the 3x3x3",
        takes: "the 4x4x4 by its name",
        optimal: false,
    },
    EngineRow {
        engine: Engine::TwoPhase,
        name: "two-phase",
        title: "Kociemba's two-phase 3x3x3 solver",
        takes: "any definition recognised as the 3x3x3",
        optimal: false,
    },
    EngineRow {
        engine: Engine::Dedicated,
        name: "333-optimal",
        title: "the optimal 3x3x3 solver (Kociemba's coordinates, exact tables)",
        takes: "any definition recognised as the 3x3x3",
        optimal: true,
    },
    EngineRow {
        engine: Engine::Generic,
        name: "optimal",
        title: "optimal IDA* with pattern databases",
        takes: "every puzzle (fast mode: where the estimate says it is quick)",
        optimal: true,
    },
    EngineRow {
        engine: Engine::Staged,
        name: "staged",
        title: "the staged solver: pieces by search, then commutators",
        takes: "every puzzle",
        optimal: false,
    },
];

impl Engine {
    /// Its row of [`ENGINES`].
    pub fn row(self) -> &'static EngineRow {
        ENGINES
            .iter()
            .find(|r| r.engine == self)
            .expect("every engine has a row")
    }

    /// Its short name.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// What it is, in words.
    pub fn title(self) -> &'static str {
        self.row().title
    }
}

/// Which engines may answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engines {
    /// A dedicated solver where one fits the puzzle, else the generic search.
    Any,
    /// The generic search only.
    GenericOnly,
}

/// Which positions count as solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// The goal as it is held (as twsearch and cubing.js solve).
    AsHeld,
    /// The goal in any orientation the puzzle can be held in; a solution
    /// is written as the rotation, then the moves.
    AnyRotation,
}

/// How a portfolio searches.
#[derive(Clone)]
pub struct PortfolioOptions {
    /// Optimal answers, or fast ones.
    pub mode: Mode,
    /// Memory the generic search's tables may use, in bytes.
    pub memory_bytes: u64,
    /// Memory the dedicated 3x3x3 solver's table may use, in bytes: its
    /// huge table (1.34 GB, which the superflip and other deep positions
    /// need to be solved in minutes rather than hours) is used from
    /// [`HUGE_TABLE_MEMORY`] on. Callers pass `memory_bytes` when the user
    /// set a limit, and what the machine has free otherwise.
    pub dedicated_memory_bytes: u64,
    /// Whether the dedicated 3x3x3 solver may build its huge table (1.34
    /// GB, minutes) when a position needs it and it is not cached; without
    /// it the huge table is used only when cached (as the server does: a
    /// click on its page never starts a build of minutes).
    pub build_huge_table: bool,
    /// Threads.
    pub threads: usize,
    /// How many solutions (fast mode gives one).
    pub count: SolutionCount,
    /// Shortest length to consider.
    pub min_depth: u32,
    /// Longest length to consider (optimal mode).
    pub max_depth: u32,
    /// Which engines may answer.
    pub engines: Engines,
    /// Which positions count as solved.
    pub orientation: Orientation,
    /// Whether the generic search's hashed table may be reduced by symmetry.
    pub symmetry: bool,
    /// Where tables are kept between runs.
    pub store: Arc<dyn TableStore>,
    /// Called, from the dedicated solver's threads, with its progress.
    pub optimal_progress: Option<Arc<dyn Fn(OptimalProgress) + Send + Sync>>,
    /// Stages the staged solver works in (fast mode), instead of its own.
    pub stages: Option<Vec<StageSpec>>,
}

impl PortfolioOptions {
    /// Options for `mode` with everything else at its default: 256 MiB,
    /// one thread, one solution, lengths to 40, any engine, the goal as
    /// held, no store.
    pub fn new(mode: Mode) -> PortfolioOptions {
        PortfolioOptions {
            mode,
            memory_bytes: 256 << 20,
            dedicated_memory_bytes: 256 << 20,
            build_huge_table: true,
            threads: 1,
            count: SolutionCount::First(1),
            min_depth: 0,
            max_depth: 40,
            engines: Engines::Any,
            orientation: Orientation::AsHeld,
            symmetry: true,
            store: Arc::new(twistor_core::store::NoStore),
            optimal_progress: None,
            stages: None,
        }
    }
}

impl std::fmt::Debug for PortfolioOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PortfolioOptions")
            .field("mode", &self.mode)
            .field("memory_bytes", &self.memory_bytes)
            .field("dedicated_memory_bytes", &self.dedicated_memory_bytes)
            .field("build_huge_table", &self.build_huge_table)
            .field("threads", &self.threads)
            .field("count", &self.count)
            .field("min_depth", &self.min_depth)
            .field("max_depth", &self.max_depth)
            .field("engines", &self.engines)
            .field("orientation", &self.orientation)
            .finish()
    }
}

/// Something a person may want to know about the choice of engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// The engine that answers (fast mode), and why it fits.
    Chosen {
        /// The engine.
        engine: Engine,
        /// Why, in words.
        why: String,
    },
    /// The staged solver's stages (names and pieces).
    Plan(Vec<(String, String)>),
    /// The 3x3x3 is recognised and its dedicated tables are cached: the
    /// dedicated optimal solver takes every position.
    Dedicated {
        /// The table it starts with.
        table: OptimalTableKind,
    },
    /// The 3x3x3 is recognised but the dedicated solver's tables are not
    /// cached: the generic search gets this many seconds first.
    GenericFirst {
        /// Its time, over all positions.
        secs: f64,
    },
    /// The generic search did not solve a position in its time: the
    /// dedicated solver takes it and the rest.
    SwitchedToDedicated,
    /// The 3x3x3 is recognised, but the dedicated solver's smallest table
    /// is larger than the memory given: the generic search answers alone.
    DedicatedTooLarge {
        /// The smallest table's bytes.
        table_bytes: u64,
        /// The memory its table would have had.
        memory_bytes: u64,
    },
    /// A position is longer than the phase-1 table solves quickly: a
    /// deeper table is loaded (and built, once, if it is not cached).
    DeepTable {
        /// The length it is longer than.
        limit: u8,
        /// The table loaded.
        table: OptimalTableKind,
    },
    /// With pieces alike, whether the moves reach the position is not
    /// known before searching; if it is the puzzle held differently,
    /// [`Orientation::AnyRotation`] solves it.
    ReachabilityUnknown,
    /// The optimal search is out of reach by the estimate: positions get
    /// a short probe only.
    OutOfReach(Estimate),
    /// The position is reachable only held differently: answered from the
    /// rotation named (its solution starts with it).
    UpToRotation {
        /// The rotation, in the puzzle's notation.
        rotation: String,
    },
}

impl Notice {
    /// The notice in words, for a person (no command-line flags named).
    pub fn describe(&self) -> String {
        let title = |table: &OptimalTableKind| table.title().to_string();
        match self {
            Notice::Chosen { engine, why } => format!(
                "solving with {} ({why}); answers are {}",
                engine.row().title,
                if engine.row().optimal {
                    "optimal"
                } else {
                    "not proven shortest"
                }
            ),
            Notice::Plan(stages) => format!(
                "stages: {}",
                stages
                    .iter()
                    .map(|(name, pieces)| format!("{name} ({pieces})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Notice::Dedicated { table } => format!(
                "the 3x3x3: the dedicated optimal solver answers, starting with its {} table",
                title(table)
            ),
            Notice::GenericFirst { secs } => format!(
                "the 3x3x3: its dedicated solver's tables are not cached, so the generic search tries first for up to {secs} s"
            ),
            Notice::DedicatedTooLarge {
                table_bytes,
                memory_bytes,
            } => format!(
                "the 3x3x3: its dedicated solver's smallest table ({}) does not fit in the {} the \
                 memory limit leaves, so the generic search answers alone (deep positions take long)",
                crate::budget::Bytes(*table_bytes),
                crate::budget::Bytes(*memory_bytes)
            ),
            Notice::SwitchedToDedicated => {
                "the generic search did not finish in its time: the dedicated solver takes over"
                    .to_string()
            }
            Notice::DeepTable { limit, table } => format!(
                "longer than {limit} moves: loading the {} table (built once if not cached)",
                title(table)
            ),
            Notice::ReachabilityUnknown => "with pieces alike, whether the moves reach this position is only known by searching".to_string(),
            Notice::OutOfReach(e) => format!(
                "an optimal search is out of reach here (about 10^{:.0} nodes for a typical position); a short search is tried, and the fast solver answers every position",
                e.log10_nodes
            ),
            Notice::UpToRotation { rotation } => format!(
                "reachable only with the puzzle held differently: the answer starts with the rotation {rotation}"
            ),
        }
    }
}

/// What happens while a portfolio is set up and solves.
#[derive(Debug)]
pub enum PortfolioEvent<'a> {
    /// Something happened to a table (of either engine).
    Table(TableEvent<'a>),
    /// The generic search finished a depth.
    Search(&'a SearchProgress),
    /// The staged solver took a step.
    Step(&'a Step),
    /// A choice of engine, or a reason to wait.
    Notice(Notice),
}

/// How a position's search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Solutions were found.
    Solved,
    /// None within the longest length asked for.
    NotWithin,
    /// No sequence of the moves reaches the position (in any orientation,
    /// with [`Orientation::AnyRotation`]).
    Unreachable,
    /// Stopped before it was done (the solutions found are kept).
    Stopped,
    /// The optimal search is out of reach for this position (fast mode
    /// answers it).
    OutOfReach,
}

/// A position's answer.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The solutions, each in the puzzle's notation (with
    /// [`Orientation::AnyRotation`], or in fast mode for a position
    /// reachable only held differently, the rotation first).
    pub solutions: Vec<String>,
    /// Their length in moves (not counting a rotation).
    pub length: Option<usize>,
    /// How the search ended.
    pub outcome: Outcome,
    /// Whether the answer is proven shortest.
    pub optimal: bool,
    /// Which engine answered.
    pub engine: Engine,
    /// Nodes the search visited.
    pub nodes: u64,
    /// The rotation the answer starts with, when the position was solved
    /// up to it.
    pub rotation: Option<String>,
}

impl Answer {
    /// An answer with no solution.
    pub fn empty(outcome: Outcome, engine: Engine, nodes: u64) -> Answer {
        Answer {
            solutions: Vec::new(),
            length: None,
            outcome,
            optimal: false,
            engine,
            nodes,
            rotation: None,
        }
    }
}

/// Solves positions of one puzzle with the engine that suits them.
pub struct Portfolio<'p> {
    engines: Inner<'p>,
}

enum Inner<'p> {
    Optimal(Box<optimal::OptimalEngines<'p>>),
    Fast(Box<fast::FastEngines<'p>>),
}

impl<'p> Portfolio<'p> {
    /// A portfolio reaching `goal` (a pattern of `puzzle`) with `moves`.
    /// Sets up the engine that will answer first (building or loading its
    /// tables: reported to `events`).
    pub fn new(
        puzzle: &'p Puzzle,
        moves: MoveSet,
        goal: Pattern,
        options: PortfolioOptions,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Portfolio<'p>, ToolError> {
        // The clock's linear solver is exact: its answer in the WCA's
        // turns is the only one, so it answers the shortest too (the
        // generic search knows the clock's three base turns alone).
        let clock_exact = options.mode == Mode::Optimal
            && options.engines == Engines::Any
            && goal == *puzzle.start()
            && clock::ClockSolver::for_puzzle(puzzle).is_some();
        let engines = match options.mode {
            Mode::Optimal if clock_exact => Inner::Fast(Box::new(fast::FastEngines::new(
                puzzle, moves, goal, options, stop, events,
            )?)),
            Mode::Optimal => Inner::Optimal(Box::new(optimal::OptimalEngines::new(
                puzzle, moves, goal, options, stop, events,
            )?)),
            Mode::Fast => Inner::Fast(Box::new(fast::FastEngines::new(
                puzzle, moves, goal, options, stop, events,
            )?)),
        };
        Ok(Portfolio { engines })
    }

    /// The generic search, while it answers.
    pub fn generic(&self) -> Option<&Solver> {
        match &self.engines {
            Inner::Optimal(o) => o.generic(),
            Inner::Fast(f) => f.generic(),
        }
    }

    /// The optimal search's estimate, when it is out of reach.
    pub fn out_of_reach(&self) -> Option<&Estimate> {
        match &self.engines {
            Inner::Optimal(o) => o.out_of_reach(),
            Inner::Fast(_) => None,
        }
    }

    /// Which engine answers the next position.
    pub fn engine(&self) -> Engine {
        match &self.engines {
            Inner::Optimal(o) => o.engine(),
            Inner::Fast(f) => f.engine(),
        }
    }

    /// Solves `position` (a pattern with the goal's pieces).
    pub fn solve(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(PortfolioEvent),
    ) -> Result<Answer, ToolError> {
        let mut answer = match &mut self.engines {
            Inner::Optimal(o) => o.solve(position, stop, events),
            Inner::Fast(f) => f.solve(position, stop, events),
        }?;
        // Every answer in the notation people write: the Square-1's turns
        // as `(u, d) /`, whichever engine found them.
        for s in &mut answer.solutions {
            if s.contains("_SQ_") || s.contains("_SLASH_") {
                *s = crate::sequence::in_square1_notation(s);
            }
        }
        Ok(answer)
    }

    /// Gives the generic search's grown tables to the store (see
    /// [`Solver::save_grown_tables`]).
    pub fn save_grown_tables(&mut self, which: SaveGrown, events: &mut dyn FnMut(PortfolioEvent)) {
        match &mut self.engines {
            Inner::Optimal(o) => o.save_grown_tables(which, events),
            Inner::Fast(f) => f.save_grown_tables(which, events),
        }
    }
}
