//! God's algorithm: the exact number of positions at each distance from the
//! start, the antipodes (the positions farthest away) and the local maxima
//! (positions no move takes farther away).
//!
//! Three engines share one interface, [`enumerate`]:
//!
//! * **bit arrays** (the default when the puzzle can be indexed and fits):
//!   a [`PositionIndexer`] numbers the positions and two bits a position
//!   hold old / frontier / new / unseen. A level is computed either
//!   *forward* (expand every frontier position) or *backward* (look for a
//!   frontier neighbour of every unseen position), whichever is cheaper,
//!   using small per-component move tables, on all threads;
//! * **sorted arrays** of packed positions, for puzzles that cannot be
//!   indexed or whose index space is much larger than what the moves
//!   reach; it reduces by the rotations the definition carries
//!   (`x`, `y2`, `Uv`, ...) when the moves are closed under them;
//! * **products** ([`GodsMethod::Products`]): Jerry Bryan's method of
//!   storing every position up to depth `a` and building depths `a+1 ..
//!   2a` as products `x·y` checked against the shorter layers, with the
//!   Ends-with sets `E(z)` and `E2(z)` as unions over the `y`s. It exists to
//!   cross-check the others.
//!
//! Engines do no I/O: they report through [`GodsControl::progress`], stop
//! when [`GodsControl::stop`] is raised, and save and restore their state
//! only through a [`CheckpointStore`].

mod bits;
mod checkpoint;
mod cosets;
mod hashing;
mod keys;
mod neighbours;
mod paths;
mod products;
mod sorted;
mod symmetry;

pub use checkpoint::{
    CheckpointChecksum, CheckpointError, CheckpointHeader, CheckpointStore, HeaderError,
    CHECKPOINT_FORMAT_VERSION,
};
pub use cosets::{merge_cosets, CosetClass, CosetCounts, CosetSpace};
pub use neighbours::{NeighbourCursor, NeighbourIndex};

use std::sync::atomic::{AtomicBool, Ordering};

use twistor_core::index::{IndexError, PositionIndexer};
use twistor_core::{BigUint, Puzzle, Transformation};

use crate::{Metric, MoveSet};

/// How distances are computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GodsMethod {
    /// Breadth-first search.
    #[default]
    BreadthFirst,
    /// Breadth-first up to a depth `a`, then products `x·y` (Bryan's method)
    /// up to `2a`, doubling `a` while positions remain.
    Products {
        /// The depth `a`; `None` picks the depth where the layers stop
        /// growing (or memory runs short).
        stored_depth: Option<usize>,
    },
}

/// Where breadth-first search keeps the positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Storage {
    /// Bit arrays when the puzzle can be indexed and they fit, else sorted arrays.
    #[default]
    Auto,
    /// Two bits a position over a perfect index.
    BitArray,
    /// Sorted arrays of packed positions (with symmetry reduction).
    SortedArray,
}

/// Options of [`enumerate`].
#[derive(Clone, Debug)]
pub struct GodsOptions {
    /// Count the local maxima (positions with no neighbour farther) and the
    /// strong ones (every neighbour closer) at each distance.
    pub local_maxima: bool,
    /// How many antipodes to return with a move sequence reaching them.
    pub antipodes: usize,
    /// Breadth-first or products.
    pub method: GodsMethod,
    /// Where breadth-first search keeps its positions.
    pub storage: Storage,
    /// Worker threads; 0 uses every core.
    pub threads: usize,
    /// Most bytes of memory the enumeration may use.
    pub memory_limit: u64,
    /// Reduce by the definition's rotations where the sorted-array engine
    /// can.
    pub symmetry: bool,
}

impl Default for GodsOptions {
    fn default() -> GodsOptions {
        GodsOptions {
            local_maxima: false,
            antipodes: 0,
            method: GodsMethod::BreadthFirst,
            storage: Storage::Auto,
            threads: 0,
            memory_limit: 4096 << 20,
            symmetry: true,
        }
    }
}

/// What an enumeration reports while it runs.
#[derive(Clone, Debug)]
pub enum GodsEvent {
    /// The engine chosen and the memory it needs.
    Plan(GodsPlan),
    /// Work on a depth begins; `work` counts the units `LevelProgress` reports.
    LevelStarted {
        /// The depth being computed.
        depth: usize,
        /// Units of work the level takes.
        work: u64,
        /// Whether the level looks for frontier neighbours of unseen positions.
        backward: bool,
    },
    /// Units of work done so far on a depth.
    LevelProgress {
        /// The depth being computed.
        depth: usize,
        /// Units done.
        done: u64,
        /// Units in all.
        work: u64,
    },
    /// A depth is complete.
    LevelFinished {
        /// The depth.
        depth: usize,
        /// Positions at that depth.
        positions: u64,
        /// Positions at that depth or less.
        total: u64,
    },
    /// The run continues from a checkpoint.
    Resumed {
        /// The last complete depth in the checkpoint.
        depth: usize,
    },
    /// A checkpoint was written.
    CheckpointSaved {
        /// The last complete depth it holds.
        depth: usize,
    },
    /// Move sequences for the antipodes are being searched.
    FindingAntipodes {
        /// How many.
        count: usize,
    },
}

/// The engine an enumeration uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Two-bit arrays over a perfect index.
    BitArray,
    /// Sorted arrays of packed positions.
    SortedArray,
    /// Bryan's products method.
    Products,
}

/// The plan of an enumeration.
#[derive(Clone, Debug)]
pub struct GodsPlan {
    /// The engine.
    pub engine: Engine,
    /// Bytes it needs (an estimate for the sorted arrays and products).
    pub memory: u64,
    /// Indices in the perfect index, for bit arrays.
    pub index_size: Option<u64>,
    /// The number of reachable positions when known in advance (the group
    /// order, for puzzles whose pieces are all distinguishable).
    pub reachable: Option<u64>,
    /// The order of the rotation group the positions are reduced by.
    pub symmetry: Option<usize>,
}

/// Positions at each distance, with local maxima when asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DistanceTable {
    /// Positions at distance 0, 1, 2, ...
    pub counts: Vec<u64>,
    /// Per distance, positions with no neighbour farther.
    pub local_maxima: Option<Vec<u64>>,
    /// Per distance, positions whose every neighbour is closer.
    pub strong_local_maxima: Option<Vec<u64>>,
}

impl DistanceTable {
    /// All positions.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The largest distance (God's number for these moves).
    pub fn diameter(&self) -> usize {
        self.counts.len().saturating_sub(1)
    }
}

/// The positions farthest from the start.
#[derive(Clone, Debug, Default)]
pub struct Antipodes {
    /// How many there are.
    pub count: u64,
    /// The first few (in the engine's order), as packed patterns.
    pub positions: Vec<Vec<u8>>,
    /// For each of `positions`, a shortest move sequence from the start
    /// (indices into [`MoveSet::moves`]); empty when not searched for.
    pub sequences: Vec<Vec<usize>>,
}

/// The result of [`enumerate`].
#[derive(Clone, Debug)]
pub struct GodsReport {
    /// Positions at each distance.
    pub table: DistanceTable,
    /// The antipodes.
    pub antipodes: Antipodes,
    /// The engine used.
    pub plan: GodsPlan,
    /// With symmetry reduction: classes of positions at each distance.
    pub classes: Option<Vec<u64>>,
    /// Products method with local maxima: the local maxima at each depth
    /// counted from the Ends-with unions alone, as Bryan's 1998 correction
    /// has it. The union for `E2` can miss moves, so these may fall short
    /// of [`DistanceTable::local_maxima`] (see the products module).
    pub union_local_maxima: Option<Vec<u64>>,
}

/// Why an enumeration failed.
#[derive(Debug, thiserror::Error)]
pub enum GodsError {
    /// A coset run cannot use this subgroup.
    #[error("the subgroup: {reason}")]
    Subgroup {
        /// Why not.
        reason: SubgroupReason,
    },
    /// The positions do not fit the memory limit.
    #[error("this enumeration needs about {} MB of memory, more than the {} MB it may use", mb(*.needed), mb(*.limit))]
    NotEnoughMemory {
        /// Bytes needed.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// The moves reach more positions than any memory holds.
    #[error("the moves reach {positions} positions, far too many to enumerate in memory")]
    TooManyPositions {
        /// The number of positions, in decimal.
        positions: String,
    },
    /// The puzzle cannot be indexed (bit arrays were asked for).
    #[error("the positions cannot be indexed: {0}")]
    NotIndexable(#[from] IndexError),
    /// Positions too large to pack.
    #[error("a position takes {bits} bits packed; at most 512 are supported")]
    StateTooLarge {
        /// Bits a packed position needs.
        bits: usize,
    },
    /// Too many moves for the move sets of local maxima and products.
    #[error("{0} moves; local maxima and the products method handle at most 64")]
    TooManyMoves(usize),
    /// The products method on a puzzle with identical pieces or unknown orientations.
    #[error("the products method needs a start state with distinguishable pieces and known orientations")]
    ProductsNeedTransformations,
    /// The stop flag was raised.
    #[error("stopped; depth {depth} was the last one complete")]
    Stopped {
        /// The last complete depth.
        depth: usize,
    },
    /// Reading or writing a checkpoint failed.
    #[error("checkpoint: {0}")]
    Checkpoint(#[from] CheckpointError),
    /// The checkpoint belongs to another run.
    #[error("the checkpoint is for a different run ({reason})")]
    CheckpointMismatch {
        /// What differs.
        reason: CheckpointMismatchReason,
    },
    /// Resuming without a checkpoint.
    #[error("there is no checkpoint to resume from")]
    NoCheckpoint,
    /// The worker threads could not be started.
    #[error("could not start worker threads: {0}")]
    Threads(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Why a coset run cannot use a subgroup ([`GodsError::Subgroup`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SubgroupReason {
    /// A puzzle whose start is not the identity.
    #[error("coset runs need a puzzle whose start has every piece distinct and oriented")]
    StartNotIdentity,
    /// A subgroup move that is none of the puzzle's moves searched.
    #[error("the subgroup's move {name} is not one of the puzzle's moves")]
    UnknownMove {
        /// The move's name.
        name: String,
    },
    /// A subgroup of more than 2^64 positions.
    #[error("the subgroup has more than 2^64 positions")]
    TooLarge,
    /// More cosets than a plan lists.
    #[error("{cosets} cosets are more than this planner lists ({limit})")]
    TooManyCosets {
        /// The number of cosets.
        cosets: BigUint,
        /// The most a plan lists.
        limit: usize,
    },
    /// Cosets more than 255 moves apart.
    #[error("the coset graph is over 255 deep")]
    GraphTooDeep,
    /// More cosets told apart by the subgroup's orbits than there are.
    #[error("the subgroup is not the colour-preserving group of its orbits")]
    NotColourPreserving,
    /// Fewer cosets told apart by the subgroup's orbits than there are.
    #[error("the subgroup's orbits tell {told} cosets apart, but there are {cosets}; coset runs need a subgroup that is all of the positions keeping its orbits (like <U,D,R2,L2,F2,B2> on the cube)")]
    OrbitsTellTooFew {
        /// Cosets the orbits tell apart.
        told: usize,
        /// Cosets there are.
        cosets: usize,
    },
    /// A coset number past the last.
    #[error("there is no coset {id}")]
    NoSuchCoset {
        /// The number asked for.
        id: usize,
    },
    /// A coset whose positions are more than 255 moves deep.
    #[error("a coset over 255 deep")]
    CosetTooDeep,
}

/// How a checkpoint differs from the run resuming it
/// ([`GodsError::CheckpointMismatch`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointMismatchReason {
    /// Another format version.
    #[error("format version {found} where this program writes {current}")]
    Version {
        /// The checkpoint's version.
        found: u32,
        /// The version this program writes.
        current: u32,
    },
    /// Other options that change the result.
    #[error("options {found:?}, this run has {expected:?}")]
    Options {
        /// The checkpoint's options, as `key=value` words.
        found: String,
        /// This run's.
        expected: String,
    },
    /// Other moves.
    #[error("moves {found:?}, this run has {expected:?}")]
    Moves {
        /// The checkpoint's moves, by name.
        found: String,
        /// This run's.
        expected: String,
    },
    /// Another puzzle.
    #[error("puzzle {found:?} is not this run's {expected:?}")]
    Puzzle {
        /// The checkpoint's puzzle name.
        found: String,
        /// This run's.
        expected: String,
    },
}

fn mb(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}

/// What the caller lends an enumeration: a stop flag, a progress callback
/// and a checkpoint store.
#[derive(Default)]
pub struct GodsControl<'a> {
    /// Raised by the caller to stop at the next opportunity.
    pub stop: Option<&'a AtomicBool>,
    /// Called with progress events (from worker threads too).
    pub progress: Option<&'a (dyn Fn(&GodsEvent) + Sync)>,
    /// Saved to after every depth; read from when resuming.
    pub checkpoint: Option<&'a mut dyn CheckpointStore>,
    /// Continue from the checkpoint instead of starting afresh.
    pub resume: bool,
}

/// The parts of [`GodsControl`] worker threads share.
#[derive(Clone, Copy)]
pub(crate) struct Signals<'c> {
    stop: Option<&'c AtomicBool>,
    progress: Option<&'c (dyn Fn(&GodsEvent) + Sync)>,
}

impl Signals<'_> {
    /// Whether the caller asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Reports an event.
    pub fn emit(&self, event: GodsEvent) {
        if let Some(p) = self.progress {
            p(&event);
        }
    }
}

/// Everything an engine needs, resolved once.
pub(crate) struct Context<'a, 'c> {
    pub puzzle: &'a Puzzle,
    pub moves: &'a MoveSet,
    pub options: &'a GodsOptions,
    pub signals: Signals<'c>,
    pub checkpoint: Option<&'a mut (dyn CheckpointStore + 'c)>,
    pub resume: bool,
    /// Move transformations, in [`MoveSet::moves`] order.
    pub move_bytes: Vec<&'a [u8]>,
    /// Reachable positions, when known.
    pub reachable: Option<u64>,
}

impl Context<'_, '_> {
    /// The grips' transformations, the generators a perfect index is
    /// built over.
    pub fn grip_transformations(&self) -> Vec<&Transformation> {
        self.moves
            .grips()
            .iter()
            .map(|g| &g.transformation)
            .collect()
    }

    /// Reports an event.
    pub fn emit(&self, event: GodsEvent) {
        self.signals.emit(event);
    }

    /// The fingerprint and description of this run for checkpoints.
    pub fn checkpoint_header(&self, engine: &str, depth: usize) -> CheckpointHeader {
        checkpoint::header_for(self, engine, depth)
    }

    /// The saved checkpoint of `engine` for this run: its header (checked
    /// against this run's) and payload words.
    pub fn load_checkpoint(
        &mut self,
        engine: &str,
    ) -> Result<(CheckpointHeader, Vec<u64>), GodsError> {
        let expected = self.checkpoint_header(engine, 0);
        let store = self
            .checkpoint
            .as_deref_mut()
            .ok_or(GodsError::NoCheckpoint)?;
        let (header, payload) = store.load()?.ok_or(GodsError::NoCheckpoint)?;
        header.check_matches(&expected)?;
        Ok((header, payload))
    }
}

/// Output common to all engines.
pub(crate) struct EngineOutput {
    pub table: DistanceTable,
    pub antipode_count: u64,
    pub antipode_positions: Vec<Vec<u8>>,
    pub classes: Option<Vec<u64>>,
    pub union_local_maxima: Option<Vec<u64>>,
    pub plan: GodsPlan,
}

/// Computes the distance distribution of the positions `moves` reach from
/// the puzzle's start pattern.
///
/// ```
/// use twistor_search::gods::{self, GodsControl, GodsOptions};
/// use twistor_search::{Metric, MoveSet};
///
/// let tws = "Name Flip\nSet EDGES 2 2\nSolved\nEDGES\n1 2\n0 0\nEnd\n\
///            Move F\nEDGES\n2 1\n1 0\nEnd\n";
/// let puzzle = twistor_formats::read_puzzle(tws, "flip.tws")?;
/// let moves = MoveSet::all(&puzzle, Metric::Htm)?;
/// let options = GodsOptions::default();
/// let report = gods::enumerate(&puzzle, &moves, &options, GodsControl::default())?;
/// // F has order 4: F, F2, F' are one move away.
/// assert_eq!(report.table.counts, vec![1, 3]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn enumerate(
    puzzle: &Puzzle,
    moves: &MoveSet,
    options: &GodsOptions,
    mut control: GodsControl<'_>,
) -> Result<GodsReport, GodsError> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if options.threads > 0 {
        builder = builder.num_threads(options.threads);
    }
    let pool = builder
        .build()
        .map_err(|e| GodsError::Threads(Box::new(e)))?;
    pool.install(|| run(puzzle, moves, options, &mut control))
}

fn run(
    puzzle: &Puzzle,
    moves: &MoveSet,
    options: &GodsOptions,
    control: &mut GodsControl<'_>,
) -> Result<GodsReport, GodsError> {
    let nm = moves.moves().len();
    if nm > 64 && (options.local_maxima || matches!(options.method, GodsMethod::Products { .. })) {
        return Err(GodsError::TooManyMoves(nm));
    }
    let reachable = match reachable_positions(puzzle, moves) {
        Reachable::Known(n) => Some(n),
        Reachable::Unknown => None,
        Reachable::TooMany(positions) => return Err(GodsError::TooManyPositions { positions }),
    };
    let mut ctx = Context {
        puzzle,
        moves,
        options,
        signals: Signals {
            stop: control.stop,
            progress: control.progress,
        },
        checkpoint: control.checkpoint.as_deref_mut(),
        resume: control.resume,
        move_bytes: moves
            .moves()
            .iter()
            .map(|m| m.transformation.as_bytes())
            .collect(),
        reachable,
    };
    let out = match options.method {
        GodsMethod::Products { stored_depth } => products::run(&mut ctx, stored_depth)?,
        GodsMethod::BreadthFirst => breadth_first(&mut ctx)?,
    };
    let mut antipodes = Antipodes {
        count: out.antipode_count,
        positions: out.antipode_positions,
        sequences: Vec::new(),
    };
    if !antipodes.positions.is_empty() {
        ctx.emit(GodsEvent::FindingAntipodes {
            count: antipodes.positions.len(),
        });
        antipodes.sequences =
            paths::shortest_sequences(&ctx, &antipodes.positions, out.table.diameter())?
                .unwrap_or_default();
    }
    Ok(GodsReport {
        table: out.table,
        antipodes,
        plan: out.plan,
        classes: out.classes,
        union_local_maxima: out.union_local_maxima,
    })
}

fn breadth_first(ctx: &mut Context<'_, '_>) -> Result<EngineOutput, GodsError> {
    let opts = ctx.options;
    let generators = ctx.grip_transformations();
    let indexer = PositionIndexer::new(ctx.puzzle.layout(), ctx.puzzle.start(), &generators);
    match opts.storage {
        Storage::BitArray => {
            let indexer = indexer?;
            bits::run(ctx, indexer)
        }
        Storage::SortedArray => sorted::run(ctx),
        Storage::Auto => {
            let Ok(indexer) = indexer else {
                return sorted::run(ctx);
            };
            let bits_needed = bits::memory_needed(&indexer, ctx.moves.moves().len());
            let sorted_needed = ctx.reachable.and_then(|r| sorted::memory_estimate(ctx, r));
            // Bit arrays unless they do not fit or sorted arrays of what
            // the moves reach are much smaller.
            let prefer_sorted = sorted_needed.is_some_and(|s| s.saturating_mul(4) < bits_needed);
            if bits_needed <= opts.memory_limit && !prefer_sorted {
                bits::run(ctx, indexer)
            } else if sorted_needed.is_some_and(|s| s <= opts.memory_limit) {
                sorted::run(ctx)
            } else {
                Err(GodsError::NotEnoughMemory {
                    needed: sorted_needed.map_or(bits_needed, |s| s.min(bits_needed)),
                    limit: opts.memory_limit,
                })
            }
        }
    }
}

/// The number of positions the moves reach, when the start pattern has
/// distinguishable pieces with known orientations (then it is the order of
/// the group the moves generate) and the puzzle is small enough for a
/// quick Schreier–Sims.
fn reachable_positions(puzzle: &Puzzle, moves: &MoveSet) -> Reachable {
    /// Largest degree (pieces times orientations) worth the group computation.
    const MAX_DEGREE: usize = 160;
    let layout = puzzle.layout();
    if layout.has_identical_pieces(puzzle.start()) || layout.has_partial_orientation(puzzle.start())
    {
        return Reachable::Unknown;
    }
    if layout.num_points() > MAX_DEGREE {
        return Reachable::Unknown;
    }
    let gens: Vec<Vec<u16>> = moves
        .grips()
        .iter()
        .map(|g| layout.to_points(g.transformation.as_bytes()))
        .collect();
    let chain = twistor_core::StabilizerChain::new(layout.num_points(), &gens);
    let order = chain.order();
    match u64::try_from(&order) {
        Ok(n) => Reachable::Known(n),
        Err(_) => Reachable::TooMany(order.to_string()),
    }
}

/// What Schreier–Sims says about the number of reachable positions.
enum Reachable {
    /// Exactly this many.
    Known(u64),
    /// Not computed (identical pieces, wildcards or a large puzzle).
    Unknown,
    /// More than 2^64: no enumeration can hold them.
    TooMany(String),
}

/// The metric's name as checkpoints and messages write it.
pub(crate) fn metric_name(m: Metric) -> &'static str {
    match m {
        Metric::Htm => "htm",
        Metric::Qtm => "qtm",
    }
}
