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

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use twistor_core::store::{StoreError, StoreEvent, TableKey, TableStore};
use twistor_core::symmetry::SymmetryGroup;
use twistor_core::{Layout, Pattern, Puzzle};

use super::{SaveGrown, Solver, SolverOptions, TableEvent};
use crate::cache::{self, fnv1a};
use crate::canonical::CanonicalFsm;
use crate::hashed::{HashedFill, HashedSymmetry, HashedTable};
use crate::planner::{plan_tables, TablePlan};
use crate::table::{FillLimit, LayerCost, PruneTable};
use crate::{MoveSet, SearchError};

/// Work (in [`PruneTable::next_layer_work`] units) each table may take
/// before the first search; more layers come when searching shows the need.
const INITIAL_FILL_WORK: u64 = 1 << 25;
/// Sequences the hashed table's first fill may walk.
const INITIAL_HASHED_SEQUENCES: u64 = 1 << 20;
/// Seconds a hashed fill is taken to spend per sequence until one is
/// timed (a move, a hash and a random write).
const SEQUENCE_SECS: f64 = 1e-7;

/// Entries for a hashed table of `sequences` positions: eight per
/// position keeps collisions rare (more would only cost memory and disk),
/// within `cap`.
fn hashed_entries(cap: u64, sequences: u64) -> u64 {
    cap.min(sequences.saturating_mul(8).max(1 << 17))
}

/// Most preparation work (about 30 ms) spent on a cached table's move
/// tables so that the search can carry its coordinates.
const SEARCH_PREPARATION_WORK: u64 = 1 << 23;

/// Sequences (about 30 s) a hashed fill may walk before time rather than
/// memory limits its depth; see [`Solver::new`] on symmetry.
const SYMMETRY_SEQUENCES: u64 = 1 << 28;

/// Largest rotation group a solver reduces by.
const MAX_SYMMETRIES: usize = 1000;

/// Seconds per unit of each kind of fill work until fills are timed:
/// building move tables, computing a neighbour (mostly a cache miss in a
/// large table), scanning a word of entries.
const FILL_RATES: FillRates = FillRates {
    preparation: 1e-9,
    neighbours: 5e-9,
    scanned: 1e-9,
};

/// Seconds per unit of each part of a [`LayerCost`], as measured.
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

    /// Learns from a fill of `cost` that took `secs`: the part expected to
    /// dominate takes the time the others are not expected to.
    fn learn(&mut self, cost: &LayerCost, secs: f64) {
        let parts = self.parts(cost);
        let (k, _) = parts
            .iter()
            .enumerate()
            .fold((0, f64::MIN), |b, (i, &p)| if p > b.1 { (i, p) } else { b });
        let others: f64 = parts
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, p)| p)
            .sum();
        let units = [cost.preparation, cost.neighbours, cost.scanned][k];
        // Below a millisecond, timings are mostly noise.
        if units == 0 || secs < 1e-3 {
            return;
        }
        let slot = match k {
            0 => &mut self.preparation,
            1 => &mut self.neighbours,
            _ => &mut self.scanned,
        };
        // One odd fill (a page fault storm, a busy machine) moves a rate
        // by at most a factor of four.
        let rate = (secs - others).max(secs / 4.0) / units as f64;
        *slot = rate.clamp(*slot / 4.0, *slot * 4.0).clamp(1e-11, 1e-5);
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
        let mut fill_secs = 0f64;
        for TablePlan { mut projection } in plan {
            projection.arrange_for(nmoves);
            let key = TableKey::new(
                puzzle.name(),
                table_key(&layout, &moves, &goal, &projection),
            );
            let site = StoreSite {
                store: &*options.store,
                key: &key,
            };
            let for_load = projection.clone();
            let t = site.load_or_build(
                |store, key| cache::load_table(store, key, for_load),
                |events| {
                    let t0 = std::time::Instant::now();
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
                    fill_secs += t0.elapsed().as_secs_f64();
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
        let mut sequence_secs = SEQUENCE_SECS;
        let hashed_key = TableKey::new(
            puzzle.name(),
            hashed_key(&layout, &moves, &goal, hashed_cap, symmetry.as_ref()),
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
                    let t0 = std::time::Instant::now();
                    let h = HashedTable::build(
                        &layout,
                        &goal,
                        &moves,
                        &fsm,
                        symmetry.as_ref(),
                        fill,
                        stop,
                    );
                    let secs = t0.elapsed().as_secs_f64();
                    fill_secs += secs;
                    sequence_secs = (secs / sequences.max(1) as f64).clamp(1e-9, 1e-5);
                    h
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
            fill_secs,
            search_secs: 0.0,
            rates: FILL_RATES,
            sequence_secs,
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
    /// expected for the next depth, outweighs the filling done plus the
    /// layer's.
    pub(super) fn grow_tables(&mut self, expected_secs: f64, stop: &AtomicBool) {
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
            let t0 = std::time::Instant::now();
            match growth {
                Growth::Deeper {
                    depth, sequences, ..
                } => {
                    let fill = HashedFill {
                        entries: hashed_entries(self.hashed_cap, sequences),
                        depth,
                        threads: self.threads,
                    };
                    let Some(h) = HashedTable::build(
                        &self.layout,
                        &self.goal,
                        &self.moves,
                        &self.fsm,
                        self.symmetry.as_ref(),
                        fill,
                        stop,
                    ) else {
                        break;
                    };
                    let secs = t0.elapsed().as_secs_f64();
                    self.sequence_secs = (secs / sequences.max(1) as f64).clamp(1e-9, 1e-5);
                    self.hashed = Some(h);
                    self.hashed_grown = true;
                    self.fill_secs += secs;
                }
                Growth::Layer { table, cost, .. } => {
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
                    let secs = t0.elapsed().as_secs_f64();
                    self.rates.learn(&cost, secs);
                    let raised = (self.tables[table].mean() - before).max(0.0);
                    expected *= (self.branching as f64).powf(-raised);
                    self.fill_secs += secs;
                    self.table_keys[table].1 = self.table_keys[table].1.saturating_add(w);
                    grown = true;
                }
            }
        }
        if grown {
            self.order_tables();
        }
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
                    secs: self.rates.secs(&cost),
                }
            });
        let deeper = self.hashed.as_ref().and_then(|h| {
            let depth = h.depth() + 1;
            let sym = self.symmetry.as_ref();
            let (deepest, _) = HashedTable::depth_for(&self.fsm, sym, self.hashed_cap, u64::MAX);
            (deepest >= depth).then(|| {
                // The sequences bound the positions it will hold.
                let walked = HashedTable::walked(&self.fsm, sym, depth as usize);
                let sequences = walked[depth as usize].min(u64::MAX as u128) as u64;
                Growth::Deeper {
                    depth,
                    sequences,
                    // A rate measured on a smaller table, mostly in cache,
                    // is optimistic for a larger one, so no better than
                    // the default. (Counting it twice, as once, made a
                    // search that carries coordinates, and so is cheaper,
                    // put the 4x4x4 flip's depth 8 off until it had
                    // searched 7 M nodes at depth 14 that the deeper table
                    // cuts to 1 M.)
                    secs: sequences as f64 * self.sequence_secs.max(SEQUENCE_SECS),
                }
            })
        });
        layers
            .chain(deeper)
            .min_by(|a, b| a.secs().total_cmp(&b.secs()))
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
}

impl Growth {
    fn secs(&self) -> f64 {
        match *self {
            Growth::Layer { secs, .. } | Growth::Deeper { secs, .. } => secs,
        }
    }
}

/// What identifies a table: the format, the puzzle's layout, the moves, the
/// goal and the projection.
fn table_key(
    layout: &Layout,
    moves: &MoveSet,
    goal: &Pattern,
    projection: &crate::projection::Projection,
) -> u64 {
    let mut bytes = search_bytes(layout, moves, goal);
    bytes.extend_from_slice(projection.signature());
    fnv1a(&bytes, 1)
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
    layout: &Layout,
    moves: &MoveSet,
    goal: &Pattern,
    max_entries: u64,
    symmetry: Option<&HashedSymmetry>,
) -> u64 {
    /// Bump when [`crate::hashed`]'s hash of positions changes.
    const HASH_VERSION: u64 = 1;
    let mut bytes = search_bytes(layout, moves, goal);
    bytes.extend_from_slice(b"hashed");
    for v in [HASH_VERSION, max_entries] {
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
    fnv1a(&bytes, 2)
}

/// What every table depends on: the orbits, the moves and the goal.
fn search_bytes(layout: &Layout, moves: &MoveSet, goal: &Pattern) -> Vec<u8> {
    let mut bytes = Vec::new();
    for o in layout.orbits() {
        bytes.extend_from_slice(o.name().as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(&(o.num_pieces() as u32).to_le_bytes());
        bytes.push(o.num_orientations() as u8);
    }
    for m in moves.moves() {
        bytes.extend_from_slice(m.transformation.as_bytes());
    }
    bytes.extend_from_slice(goal.as_bytes());
    bytes
}
