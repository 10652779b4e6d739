//! A solver's tables over its life: planned within the memory given,
//! loaded from the store or filled, grown while searching shows them
//! worth it, and given back to the store when the caller asks.
//!
//! Pattern databases start with their near layers only (a fraction of a
//! second of filling) and grow while the searches show they are worth it:
//! before each depth, if the searching done so far, and expected next,
//! outweighs the filling done so far plus a table's next layer, that layer
//! is filled (the classic rent-or-buy balance, which keeps the total
//! within a small factor of the better of the two).
//!
//! Both sides of the balance are modelled from counts (search nodes, fill
//! neighbours and scanned words, hashed sequences) at fixed rates, never
//! timed: a timed balance tipped differently from run to run, and the same
//! search took one path or another three times as long.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use twistor_core::store::{StoreError, StoreEvent, TableKey, TableStore};
use twistor_core::symmetry::SymmetryGroup;
use twistor_core::{Pattern, Puzzle};

use super::{SaveGrown, Solver, SolverOptions, TableEvent, TableGrowth};
use crate::cache;
use crate::canonical::CanonicalFsm;
use crate::hashed::{HashedFill, HashedSymmetry, HashedTable};
use crate::planner::{plan_tables, TablePlan};
use crate::table::{FillLimit, LayerCost, PruneTable};
use crate::{MoveSet, SearchError};
use twistor_core::store::{key_hash, layout_version};

/// Work (in [`PruneTable::next_layer_work`] units) each table may take
/// before the first search; more layers come when searching shows the need.
const INITIAL_FILL_WORK: u64 = 1 << 25;
/// Sequences the hashed table's first fill may walk.
const INITIAL_HASHED_SEQUENCES: u64 = 1 << 20;
/// Modelled seconds a hashed fill spends per sequence (a move, a hash and
/// a random write), times the symmetry's insertion cost when it reduces.
const SEQUENCE_SECS: f64 = 1e-7;
/// Modelled seconds a search node spends per move it tries (a move and
/// the table lookups of the neighbour; measured on the 3x3x3 and the
/// 4x4x4 at 0.5 to 0.7 µs a node on two threads).
const NODE_MOVE_SECS: f64 = 4e-8;

/// Entries for a hashed table of `sequences` positions: eight per
/// position keeps collisions rare (more would only cost memory and disk),
/// within `cap`.
fn hashed_entries(cap: u64, sequences: u64) -> u64 {
    cap.min(sequences.saturating_mul(8).max(1 << 17))
}

/// Most preparation work (about 30 ms) spent on a cached table's move
/// tables before the first search, so that the search can carry its
/// coordinates; larger ones are built when searching shows them worth it
/// ([`Growth::MoveTables`]).
const SEARCH_PREPARATION_WORK: u64 = 1 << 23;

/// Sequences (about 30 s) a hashed fill may walk before time rather than
/// memory limits its depth; see [`Solver::new`] on symmetry.
const SYMMETRY_SEQUENCES: u64 = 1 << 28;

/// Largest rotation group a solver reduces by.
const MAX_SYMMETRIES: usize = 1000;

/// Modelled seconds per unit of each kind of fill work: building move
/// tables, computing a neighbour (mostly a cache miss in a large table),
/// scanning a word of entries.
const FILL_RATES: FillRates = FillRates {
    preparation: 1e-9,
    neighbours: 5e-9,
    scanned: 1e-9,
};

/// Seconds per unit of each part of a [`LayerCost`].
#[derive(Clone, Copy, Debug)]
pub(super) struct FillRates {
    preparation: f64,
    neighbours: f64,
    scanned: f64,
}

impl FillRates {
    /// Seconds `cost` is expected to take.
    fn secs(&self, cost: &LayerCost) -> f64 {
        self.parts(cost).iter().sum()
    }

    fn parts(&self, cost: &LayerCost) -> [f64; 3] {
        [
            cost.preparation as f64 * self.preparation,
            cost.neighbours as f64 * self.neighbours,
            cost.scanned as f64 * self.scanned,
        ]
    }
}

impl Solver {
    /// A solver reaching `goal` (a pattern of `puzzle`) with `moves`,
    /// building pruning tables within `options.memory_bytes`.
    pub fn new(
        puzzle: &Puzzle,
        moves: MoveSet,
        goal: Pattern,
        options: &SolverOptions,
        stop: &AtomicBool,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<Solver, SearchError> {
        let layout = puzzle.layout().clone();
        let fsm = CanonicalFsm::new(&moves)?;
        let (plan, hashed_bytes) = plan_tables(&layout, &goal, &moves, options.memory_bytes);
        let nmoves = moves.moves().len();
        let mut tables = Vec::new();
        for TablePlan { mut projection } in plan {
            projection.arrange_for(nmoves);
            // Named after what it is, not the puzzle's name: a definition
            // renamed (only its `Name` line changed) finds its tables.
            let key = TableKey::new("search", table_key(&moves, &goal, &projection));
            let site = StoreSite {
                store: &*options.store,
                key: &key,
            };
            let for_load = projection.clone();
            let t = site.load_or_build(
                |store, key| cache::load_table(store, key, for_load),
                |events| {
                    let t = PruneTable::build(
                        &layout,
                        projection,
                        &goal,
                        &moves,
                        options.threads,
                        FillLimit::Work(INITIAL_FILL_WORK),
                        stop,
                        &mut |p| events(TableEvent::Filling(p)),
                    )?;
                    Some(t)
                },
                // A table still waiting for its first layer holds nothing
                // worth writing.
                |store, key, t| {
                    if t.filled_depth() == 0 && !t.is_complete() {
                        return Ok(false);
                    }
                    cache::save_table(store, key, t).map(|()| true)
                },
                PruneTable::bytes,
                events,
            )?;
            tables.push((t, (key, 0)));
        }
        let (mut tables, table_keys): (Vec<PruneTable>, _) = tables.into_iter().unzip();
        // Tables from the cache come without move tables; small ones get
        // them, so the search can carry their coordinates.
        for t in &mut tables {
            t.prepare_moves(&layout, &moves, SEARCH_PREPARATION_WORK);
        }
        let identity = layout.identity_bytes();
        let inverse_ok = goal.as_bytes() == &identity[..];
        let illegal = puzzle
            .illegal()
            .iter()
            .map(|il| {
                let mut mask = [false; 256];
                for &p in &il.pieces {
                    mask[p as usize] = true;
                }
                (layout.offset(il.orbit) + il.slot, mask)
            })
            .collect();
        let hashed_cap = hashed_bytes * 2;
        // Reducing by symmetry saves memory but costs every lookup a least
        // conjugate (up to |R| partial ones): worth it only when memory,
        // not the time a fill takes, is what limits the hashed table.
        let memory_bound = {
            let (by_memory, _) = HashedTable::depth_for(&fsm, None, hashed_cap, u64::MAX);
            let (by_time, _) = HashedTable::depth_for(&fsm, None, u64::MAX, SYMMETRY_SEQUENCES);
            by_memory <= by_time
        };
        let symmetry = if options.symmetry && memory_bound && puzzle.illegal().is_empty() {
            let group =
                SymmetryGroup::for_puzzle(puzzle, &goal, &moves.transformations(), MAX_SYMMETRIES);
            HashedSymmetry::new(std::sync::Arc::new(group), &moves)
        } else {
            None
        };
        let hashed_key = TableKey::new(
            "search-hashed",
            hashed_key(&moves, &goal, hashed_cap, symmetry.as_ref()),
        );
        let hashed = if hashed_bytes >= 1 << 16 {
            // Start shallow (a fraction of a second); searching grows it.
            let budget =
                INITIAL_HASHED_SEQUENCES / symmetry.as_ref().map_or(1, |s| s.insert_cost());
            let (depth, sequences) =
                HashedTable::depth_for(&fsm, symmetry.as_ref(), hashed_cap, budget);
            let entries = hashed_entries(hashed_cap, sequences);
            let site = StoreSite {
                store: &*options.store,
                key: &hashed_key,
            };
            let fill = HashedFill {
                entries,
                depth,
                threads: options.threads,
            };
            Some(site.load_or_build(
                |store, key| cache::load_hashed(store, key, hashed_cap, symmetry.as_ref()),
                |events| {
                    events(TableEvent::Hashing { depth, entries });
                    HashedTable::build(&layout, &goal, &moves, &fsm, symmetry.as_ref(), fill, stop)
                },
                |store, key, t| cache::save_hashed(store, key, t).map(|()| true),
                HashedTable::bytes,
                events,
            )?)
        } else {
            None
        };
        let counts = fsm.counts(12);
        let branching = (counts[12] / counts[11].max(1)).clamp(1, 1 << 20) as u64;
        let mut solver = Solver {
            layout,
            moves,
            fsm,
            goal,
            tables,
            table_keys,
            hashed_cap,
            hashed_key,
            hashed_grown: false,
            store: Arc::clone(&options.store),
            threads: options.threads,
            fill_secs: 0.0,
            search_secs: 0.0,
            growth_log: Vec::new(),
            branching,
            hashed,
            symmetry,
            inverse_ok,
            illegal,
        };
        solver.order_tables();
        Ok(solver)
    }

    /// Most informative table first, so most prunes cost one lookup.
    fn order_tables(&mut self) {
        let mut both: Vec<(PruneTable, (TableKey, u64))> = std::mem::take(&mut self.tables)
            .into_iter()
            .zip(std::mem::take(&mut self.table_keys))
            .collect();
        both.sort_by(|a, b| {
            b.0.mean()
                .partial_cmp(&a.0.mean())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        (self.tables, self.table_keys) = both.into_iter().unzip();
    }

    /// Fills the next layers of tables while the search work, done and
    /// expected for the next depth (`depth`), outweighs the filling done
    /// plus the layer's. Every figure is modelled from counts (nodes,
    /// neighbours, sequences), never timed, so the same input at the same
    /// memory takes the same path; [`Solver::growth_log`] says which.
    pub(super) fn grow_tables(&mut self, depth: u32, expected_secs: f64, stop: &AtomicBool) {
        // The next depth is expected to cost `expected` with the tables as
        // they are. A layer that raises a table's mean bound by `x` makes
        // an iterative-deepening search about `branching^x` times smaller
        // (Korf's estimate), so the expectation shrinks as layers come.
        let mut expected = expected_secs;
        let mut grown = false;
        while let Some(growth) = self.cheapest_growth() {
            if self.search_secs + expected < self.fill_secs + growth.secs() {
                break;
            }
            let step = match growth {
                Growth::Deeper {
                    depth: mut to,
                    mut sequences,
                    mut secs,
                } => {
                    // A refill walks every depth again: rather than one
                    // depth more now and another soon after (the first
                    // fill wasted), as deep as the balance allows at once.
                    let budget = self.search_secs + expected - self.fill_secs;
                    while let Some(Growth::Deeper {
                        depth,
                        sequences: s,
                        secs: c,
                    }) = self.hashed_growth(to + 1)
                    {
                        if c > budget {
                            break;
                        }
                        (to, sequences, secs) = (depth, s, c);
                    }
                    let Some(h) = self.hashed_to(to, sequences, stop) else {
                        break;
                    };
                    self.hashed = Some(h);
                    self.hashed_grown = true;
                    TableGrowth {
                        before_depth: depth,
                        table: String::from("hashed positions"),
                        to_depth: to,
                        mean: None,
                        complete: false,
                        move_tables: false,
                        secs,
                        expected_search_secs: expected,
                    }
                }
                Growth::Layer { table, cost, secs } => {
                    // The search takes the largest bound, which the best
                    // other table mostly sets: only a mean above theirs
                    // counts as raised.
                    let best_other = (self.tables.iter().enumerate())
                        .filter(|&(i, _)| i != table)
                        .map(|(_, t)| t.mean())
                        .fold(0.0, f64::max);
                    let before = self.tables[table].mean().max(best_other);
                    let done = self.tables[table].extend(
                        &self.layout,
                        &self.moves,
                        self.threads,
                        FillLimit::Work(cost.total()),
                        stop,
                        &mut |_| {},
                    );
                    let Some(w) = done.filter(|&w| w > 0) else {
                        break;
                    };
                    let t = &self.tables[table];
                    let raised = (t.mean() - before).max(0.0);
                    let step = TableGrowth::of_table(t, depth, false, secs, expected);
                    expected *= (self.branching as f64).powf(-raised);
                    self.table_keys[table].1 = self.table_keys[table].1.saturating_add(w);
                    grown = true;
                    step
                }
                Growth::MoveTables { table, secs } => {
                    self.tables[table].prepare_moves(&self.layout, &self.moves, u64::MAX);
                    TableGrowth::of_table(&self.tables[table], depth, true, secs, expected)
                }
            };
            self.fill_secs += step.secs;
            self.growth_log.push(step);
        }
        if grown {
            self.order_tables();
        }
    }

    /// The hashed table filled to `depth`, sized for `sequences`.
    fn hashed_to(&self, depth: u8, sequences: u64, stop: &AtomicBool) -> Option<HashedTable> {
        let fill = HashedFill {
            entries: hashed_entries(self.hashed_cap, sequences),
            depth,
            threads: self.threads,
        };
        HashedTable::build(
            &self.layout,
            &self.goal,
            &self.moves,
            &self.fsm,
            self.symmetry.as_ref(),
            fill,
            stop,
        )
    }

    /// What searching a node is modelled to cost.
    pub(super) fn node_secs(&self) -> f64 {
        NODE_MOVE_SECS * self.moves.moves().len() as f64
    }

    /// The cheapest way the tables can grow: a pattern database's next
    /// layer, or the hashed table one move deeper if there is room for it
    /// (a layer first when they cost the same).
    fn cheapest_growth(&self) -> Option<Growth> {
        let nm = self.moves.moves().len();
        let layers = self
            .tables
            .iter()
            .enumerate()
            .filter(|(_, t)| !t.is_complete() && !t.is_interrupted())
            .map(|(table, t)| {
                let cost = t.next_layer_cost(nm);
                Growth::Layer {
                    table,
                    cost,
                    secs: FILL_RATES.secs(&cost),
                }
            });
        let deeper = (self.hashed.as_ref()).and_then(|h| self.hashed_growth(h.depth() + 1));
        // A complete table loaded without its move tables: with them the
        // search carries its coordinates instead of reading every child's
        // whole position (on the 4x4x4's edges, most of a node's time).
        let move_tables = self.tables.iter().enumerate().filter_map(|(table, t)| {
            let work = t.move_tables_work(nm)?;
            Some(Growth::MoveTables {
                table,
                secs: work as f64 * FILL_RATES.preparation,
            })
        });
        layers
            .chain(deeper)
            .chain(move_tables)
            .min_by(|a, b| a.secs().total_cmp(&b.secs()))
    }

    /// The hashed table refilled to `depth`, if there is room for it: the
    /// sequences the fill walks and its modelled seconds.
    fn hashed_growth(&self, depth: u8) -> Option<Growth> {
        let sym = self.symmetry.as_ref();
        let (deepest, _) = HashedTable::depth_for(&self.fsm, sym, self.hashed_cap, u64::MAX);
        (deepest >= depth).then(|| {
            // The sequences bound the positions it will hold.
            let walked = HashedTable::walked(&self.fsm, sym, depth as usize);
            let sequences = walked[depth as usize].min(u64::MAX as u128) as u64;
            Growth::Deeper {
                depth,
                sequences,
                // Reducing by symmetry makes each insertion dearer.
                secs: sequences as f64
                    * SEQUENCE_SECS
                    * sym.map_or(1, HashedSymmetry::insert_cost) as f64,
            }
        })
    }

    /// Gives the tables that grew since they were last kept back to the
    /// store: all of them, or with [`SaveGrown::WhenWorthIt`] those whose
    /// growth cost more than writing them. What happens is reported to
    /// `events` (a failure only means the next run grows them again).
    pub fn save_grown_tables(&mut self, which: SaveGrown, events: &mut dyn FnMut(TableEvent)) {
        if !self.store.writes() {
            return;
        }
        let store = &*self.store;
        let mut report = |key: &TableKey, bytes: u64, saved: Result<(), StoreError>| match saved {
            Ok(()) => events(TableEvent::Store(StoreEvent::Saved {
                key,
                location: store.location(key),
                bytes,
            })),
            Err(error) => events(TableEvent::Store(StoreEvent::SaveFailed {
                key,
                error: &error,
            })),
        };
        if let (true, Some(h)) = (self.hashed_grown, &self.hashed) {
            report(
                &self.hashed_key,
                h.bytes(),
                cache::save_hashed(store, &self.hashed_key, h),
            );
            self.hashed_grown = false;
        }
        for (t, (key, grown)) in self.tables.iter().zip(self.table_keys.iter_mut()) {
            let worth = match which {
                SaveGrown::All => *grown > 0,
                // A unit of fill work is a few nanoseconds; writing a byte
                // about one.
                SaveGrown::WhenWorthIt => *grown > t.bytes() / 2,
            };
            if worth && !t.is_interrupted() {
                report(key, t.bytes(), cache::save_table(store, key, t));
                *grown = 0;
            }
        }
    }
}

impl TableGrowth {
    /// A step that grew pattern database `t` (filled it further, or gave
    /// it its move tables) before `before_depth`.
    fn of_table(
        t: &PruneTable,
        before_depth: u32,
        move_tables: bool,
        secs: f64,
        expected_search_secs: f64,
    ) -> TableGrowth {
        TableGrowth {
            before_depth,
            table: t.projection().description().to_string(),
            to_depth: t.filled_depth(),
            mean: Some(t.mean()),
            complete: t.is_complete(),
            move_tables,
            secs,
            expected_search_secs,
        }
    }
}

/// A step [`Solver::grow_tables`] can take, with the seconds it is
/// expected to take.
enum Growth {
    /// Fill pattern database `table`'s next layer.
    Layer {
        table: usize,
        cost: LayerCost,
        secs: f64,
    },
    /// Refill the hashed table with positions within `depth` moves.
    Deeper {
        depth: u8,
        sequences: u64,
        secs: f64,
    },
    /// Build complete table `table`'s move tables.
    MoveTables { table: usize, secs: f64 },
}

impl Growth {
    fn secs(&self) -> f64 {
        match *self {
            Growth::Layer { secs, .. }
            | Growth::Deeper { secs, .. }
            | Growth::MoveTables { secs, .. } => secs,
        }
    }
}

/// What identifies a table: the format, the puzzle's layout, the moves, the
/// goal and the projection.
fn table_key(moves: &MoveSet, goal: &Pattern, projection: &crate::projection::Projection) -> u64 {
    let mut bytes = moves.definition_bytes(goal);
    bytes.extend_from_slice(projection.signature());
    key_hash(&bytes, layout_version::PRUNE)
}

/// One table's place in the store.
struct StoreSite<'a> {
    store: &'a dyn TableStore,
    key: &'a TableKey,
}

impl StoreSite<'_> {
    /// Reads the table from the store (a copy that cannot be used is
    /// reported and discarded), else builds it and gives it to the store
    /// (unless `save` finds nothing worth keeping: `Ok(false)`); `Err`
    /// only if the build was stopped.
    fn load_or_build<T>(
        &self,
        load: impl FnOnce(&dyn TableStore, &TableKey) -> Result<Option<T>, StoreError>,
        build: impl FnOnce(&mut dyn FnMut(TableEvent)) -> Option<T>,
        save: impl FnOnce(&dyn TableStore, &TableKey, &T) -> Result<bool, StoreError>,
        bytes_of: impl Fn(&T) -> u64,
        events: &mut dyn FnMut(TableEvent),
    ) -> Result<T, SearchError> {
        let (store, key) = (self.store, self.key);
        match load(store, key) {
            Ok(Some(t)) => {
                events(TableEvent::Store(StoreEvent::Loaded {
                    key,
                    location: store.location(key),
                    bytes: bytes_of(&t),
                }));
                return Ok(t);
            }
            Ok(None) => {}
            Err(error) => {
                events(TableEvent::Store(StoreEvent::Rejected {
                    key,
                    location: store.location(key),
                    error: &error,
                }));
                store.discard(key);
            }
        }
        let t = build(events).ok_or(SearchError::Stopped)?;
        if store.writes() {
            match save(store, key, &t) {
                Ok(true) => events(TableEvent::Store(StoreEvent::Saved {
                    key,
                    location: store.location(key),
                    bytes: bytes_of(&t),
                })),
                Ok(false) => {}
                Err(error) => events(TableEvent::Store(StoreEvent::SaveFailed {
                    key,
                    error: &error,
                })),
            }
        }
        Ok(t)
    }
}

/// The cache key of a hashed table: what [`table_key`] covers, with the
/// most entries it may have and the version of the position hash (not its
/// depth: a table grown deeper replaces the shallower one).
fn hashed_key(
    moves: &MoveSet,
    goal: &Pattern,
    max_entries: u64,
    symmetry: Option<&HashedSymmetry>,
) -> u64 {
    let mut bytes = moves.definition_bytes(goal);
    bytes.extend_from_slice(b"hashed");
    for v in [layout_version::HASHED_POSITIONS, max_entries] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    // The rotations it reduces by (the identity alone adds nothing, so
    // tables cached before symmetry keep their keys).
    if let Some(s) = symmetry {
        let group = s.group();
        for i in 0..group.order() {
            bytes.extend_from_slice(group.rotation(i));
        }
    }
    key_hash(&bytes, layout_version::HASHED)
}
