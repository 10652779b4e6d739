//! Pruning tables: exact distances of projected positions, four bits each.
//!
//! (Long because every pattern database kind shares the build, the store
//! format and the probe code here.)
//!
//! A table is filled breadth-first from the goal over its projection's index
//! space (forward from each new layer while the layer is small, then
//! backward from the unvisited entries once that is cheaper), on as many
//! threads as asked. Distances above 14 are stored as 15, meaning "at least
//! 15", which is still a lower bound.
//!
//! A table may be filled only part of the way: once the layers up to `d`
//! are complete, an entry not reached is at least `d + 1` away, which is a
//! lower bound too. So a search can start with the cheap near layers and
//! [extend](PruneTable::extend) the table layer by layer while searching
//! shows the deeper ones are worth their cost.
//!
//! One file, though long: the packed entries, their fill and their lookups
//! share one format and its invariants (the nibble codes, the frontier,
//! the growth bookkeeping), which read best together.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use twistor_core::{Layout, Pattern};
use twistor_memory::{nibbles_equal, prefetch, TableBuffer};

use crate::projection::Projection;
use crate::MoveSet;

/// The value of an entry not reached (distance at least 15).
pub const UNREACHED: u8 = 15;

/// What filling a table's next layer takes, in units of about a
/// nanosecond.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerCost {
    /// Building the projection's move tables first (each entry decodes,
    /// moves and encodes a coordinate: 32 units).
    pub preparation: u64,
    /// Neighbours computed: of the frontier going forward, of the entries
    /// not reached going backward, whichever are fewer (each
    /// `NEIGHBOUR_UNITS` units).
    pub neighbours: u64,
    /// Words of 16 entries scanned for the frontier (none when the
    /// frontier is a list).
    pub scanned: u64,
}

/// Units a neighbour counts for: computing one and marking it in a large
/// table (a cache miss) takes several times a scanned word.
const NEIGHBOUR_UNITS: u64 = 4;

impl LayerCost {
    /// All of it, in units.
    pub fn total(&self) -> u64 {
        self.preparation
            .saturating_add(self.neighbours.saturating_mul(NEIGHBOUR_UNITS))
            .saturating_add(self.scanned)
    }
}

/// The cost of one layer of a table of `size` entries once its move
/// tables are built, with the frontier listed or not.
fn layer_cost(
    frontier: u64,
    unreached: u64,
    num_moves: usize,
    size: u64,
    listed: bool,
) -> LayerCost {
    let backward = goes_backward(frontier, unreached);
    LayerCost {
        preparation: 0,
        neighbours: frontier.min(unreached).saturating_mul(num_moves as u64),
        scanned: if listed && !backward {
            0
        } else {
            size.div_ceil(16)
        },
    }
}

/// Whether a layer is filled from the entries not reached (checking their
/// neighbours for the frontier) rather than from the frontier: when they
/// are fewer than the frontier. Each costs up to a neighbour a move either
/// way: an entry not reached that is not in the next layer checks all its
/// neighbours. (Comparing them with the frontier's neighbours instead made
/// the 3x3x3's six-edge table go backward a layer early, with 39 M entries
/// against a frontier of 2.9 M: 0.9 s for a layer forward fills in 0.2 s.)
fn goes_backward(frontier: u64, unreached: u64) -> bool {
    unreached < frontier
}

/// The most entries a layer's list may hold for a table of `size` entries:
/// one in 256 (the list then takes at most a sixteenth of the table's
/// memory). Small layers are expanded from their list instead of
/// scanning the whole table for them.
fn list_limit(size: u64) -> u64 {
    size / 256
}

/// Entries processed per parallel work item.
const CHUNK: u64 = 1 << 16;

/// A packed array of 4-bit distances, atomically writable while it is
/// filled. A nibble holds `15 - distance`, so that an entry not reached
/// is 0: a fresh table is zeroed memory, which the system hands out
/// without touching it, and a table filled only near its goal never
/// touches most of its pages.
pub(crate) struct Nibbles {
    words: TableBuffer<AtomicU64>,
}

/// The nibble stored for distance `d`.
#[inline]
fn code(d: u8) -> u64 {
    (UNREACHED - d) as u64
}

impl Nibbles {
    /// No entries (a table not allocated yet).
    pub fn none() -> Nibbles {
        Nibbles {
            words: zeroed_words(0),
        }
    }

    /// `len` entries, all [`UNREACHED`], their memory brought in on the
    /// threads of the current pool (a fill soon touches every page, in
    /// random order; faulting them in now costs the same, predictably).
    pub fn unreached(len: u64) -> Nibbles {
        let words = len.div_ceil(16) as usize;
        let words = zeroed_words(words);
        const PAGE_WORDS: usize = 4096 / 8;
        words.par_chunks(1 << 16).for_each(|chunk| {
            for w in chunk.iter().step_by(PAGE_WORDS) {
                w.store(0, Ordering::Relaxed);
            }
        });
        Nibbles { words }
    }

    /// `words` words (16 entries each) to be set from a stored table by
    /// [`Nibbles::set_stored_word`], in memory advised to use huge pages;
    /// `None` when the system has no such memory.
    pub fn with_words(words: usize) -> Option<Nibbles> {
        TableBuffer::zeroed(words, true)
            .ok()
            .map(|words| Nibbles { words })
    }

    /// The words, held as the table holds them (a hashed table keeps its
    /// entries in the same form).
    pub fn into_words(self) -> TableBuffer<AtomicU64> {
        self.words
    }

    /// Sets word `w` from its form on disk (distances, 15 for not
    /// reached); false when there is no such word.
    pub fn set_stored_word(&self, w: usize, stored: u64) -> bool {
        match self.words.get(w) {
            Some(word) => {
                word.store(!stored, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// The words as stored on disk (distances, 15 for not reached).
    pub fn words(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().map(|w| !w.load(Ordering::Relaxed))
    }

    /// Bit 0 of each nibble of word `w` whose entry is at distance `d`.
    #[inline]
    fn lanes_at(&self, w: u64, d: u8) -> u64 {
        nibbles_equal(
            self.words[w as usize].load(Ordering::Relaxed),
            code(d) as u8,
        )
    }

    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        UNREACHED
            - ((self.words[(i >> 4) as usize].load(Ordering::Relaxed) >> ((i & 15) * 4)) & 15) as u8
    }

    /// Whether entry `i` is not reached.
    #[inline]
    fn is_unreached(&self, i: u64) -> bool {
        (self.words[(i >> 4) as usize].load(Ordering::Relaxed) >> ((i & 15) * 4)) & 15 == 0
    }

    /// Sets entry `i` to `v` if it is [`UNREACHED`]; whether it did. Every
    /// call that may race with this one on the same entry must set the
    /// same `v` (a fill sets one layer's distance at a time), so a set
    /// bit never meets a different one.
    #[inline]
    pub fn set_if_unreached(&self, i: u64, v: u8) -> bool {
        let shift = (i & 15) * 4;
        let word = &self.words[(i >> 4) as usize];
        if (word.load(Ordering::Relaxed) >> shift) & 15 != 0 {
            return false;
        }
        let before = word.fetch_or(code(v) << shift, Ordering::Relaxed);
        (before >> shift) & 15 == 0
    }

    /// Asks the cache for entry `i`'s word, which is about to be marked.
    #[inline]
    fn prefetch(&self, i: u64) {
        if let Some(word) = self.words.get((i >> 4) as usize) {
            prefetch(word);
        }
    }

    /// [`Nibbles::set_if_unreached`] for an entry just seen not reached:
    /// sets it without looking again (the same layer's every writer sets
    /// the same value, so an entry set meanwhile keeps its value).
    #[inline]
    fn mark_unreached(&self, i: u64, v: u8) -> bool {
        let shift = (i & 15) * 4;
        let before = self.words[(i >> 4) as usize].fetch_or(code(v) << shift, Ordering::Relaxed);
        (before >> shift) & 15 == 0
    }

    /// Bytes of memory.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }
}

/// `n` words of zeroed memory, which the system hands out without
/// touching it (writing a fresh table instead makes starting a fill much
/// slower), advised to use huge pages: a fill touches its pages in random
/// order, and faulting them in 4 KiB at a time costs a cold 2x2x2 run a
/// third of its time (see the `tables` benchmark). Out of memory aborts,
/// as any allocation does.
fn zeroed_words(n: usize) -> TableBuffer<AtomicU64> {
    TableBuffer::zeroed_or_abort(n, true)
}

/// Neighbours looked up together: their loads run in one tight loop, so
/// the cache misses of a large table overlap.
const BATCH: usize = 256;

/// A forward fill's neighbours waiting to be marked.
struct Marker {
    targets: Vec<u64>,
    unreached: Vec<u64>,
    /// The entries this worker reached, when the layer is listed.
    found: Option<Vec<u64>>,
    count: u64,
}

impl Marker {
    fn new(listing: bool) -> Marker {
        Marker {
            targets: Vec::with_capacity(2 * BATCH),
            unreached: Vec::with_capacity(2 * BATCH),
            found: listing.then(Vec::new),
            count: 0,
        }
    }

    #[inline]
    fn push(&mut self, data: &Nibbles, j: u64, d: u8) {
        data.prefetch(j);
        self.targets.push(j);
        if self.targets.len() >= BATCH {
            self.flush(data, d);
        }
    }

    /// Marks the waiting neighbours not yet reached at distance `d`.
    fn flush(&mut self, data: &Nibbles, d: u8) {
        // Without a branch: about a third of the targets are new, at random.
        self.unreached.resize(self.targets.len(), 0);
        let mut kept = 0;
        for &j in &self.targets {
            self.unreached[kept] = j;
            kept += data.is_unreached(j) as usize;
        }
        self.unreached.truncate(kept);
        self.targets.clear();
        for &j in &self.unreached {
            if data.mark_unreached(j, d) {
                self.count += 1;
                if let Some(f) = &mut self.found {
                    f.push(j);
                }
            }
        }
    }
}

/// Marks the neighbours of a listed layer (at distance `depth`) not yet
/// reached, on the current pool's threads; returns how many it marked,
/// and their list if `list_next`.
fn expand_list(
    proj: &Projection,
    data: &Nibbles,
    list: &[u64],
    depth: u8,
    nmoves: usize,
    list_next: bool,
    stop: &AtomicBool,
) -> (u64, Option<Vec<u64>>) {
    let next: Vec<Marker> = list
        .par_chunks(CHUNK as usize / 16)
        .map(|part| {
            let nc = proj.num_coords();
            let mut values = vec![0u64; nc];
            // Per coordinate, its value after each move.
            let mut moved = vec![0u64; nc * nmoves];
            let mut scratch = (Vec::new(), Vec::new());
            let mut marker = Marker::new(list_next);
            if stop.load(Ordering::Relaxed) {
                return marker;
            }
            for &i in part {
                proj.split(i, &mut values);
                for (ci, (&v, out)) in values.iter().zip(moved.chunks_mut(nmoves)).enumerate() {
                    proj.move_all(ci, v, out, &mut scratch);
                }
                for m in 0..nmoves {
                    marker.push(data, proj.join_after(&moved, m, nc), depth + 1);
                }
            }
            marker.flush(data, depth + 1);
            marker
        })
        .collect();
    let count = next.iter().map(|m| m.count).sum();
    let found = list_next.then(|| {
        next.into_iter()
            .flat_map(|m| m.found.unwrap_or_default())
            .collect()
    });
    (count, found)
}

/// Progress of a table being filled.
#[derive(Clone, Debug)]
pub struct FillProgress {
    /// The table's description.
    pub table: String,
    /// Distance just completed.
    pub depth: u8,
    /// Entries at that distance.
    pub count: u64,
    /// Entries reached so far.
    pub reached: u64,
    /// Size of the table.
    pub size: u64,
}

/// A pattern database over one projection.
pub struct PruneTable {
    projection: Projection,
    /// The entries; allocated when the first layer is filled.
    data: Nibbles,
    /// The goal's entry, the only one at distance 0.
    goal_index: u64,
    /// Entries at each distance up to `filled`, then, if any are left,
    /// the count of those not reached.
    histogram: Vec<u64>,
    /// The last distance whose layer is complete.
    filled: u8,
    /// Whether every layer is (no entry will ever be reached).
    complete: bool,
    /// What an entry not reached bounds: `filled + 1`, or [`UNREACHED`]
    /// once complete.
    cap: u8,
    /// Whether the projection's move tables are built.
    prepared: bool,
    /// Whether a fill was stopped inside a layer (the table still bounds,
    /// but its counts are off: it is neither extended nor stored).
    interrupted: bool,
    /// The entries of the last filled layer, while there are few.
    frontier: Option<Vec<u64>>,
}

/// How far [`PruneTable::build`] and [`PruneTable::extend`] fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FillLimit {
    /// Every layer.
    Complete,
    /// Layers while the next one's expected work (neighbours computed and
    /// entries scanned, see [`PruneTable::next_layer_work`]) fits in what
    /// is left of this much, counting the move tables a fill needs first
    /// (possibly none).
    Work(u64),
}

impl PruneTable {
    /// Fills the table for `projection` from `goal` with `moves`, on
    /// `threads` threads, as far as `limit` says; `None` if `stop` is
    /// raised first.
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        layout: &Layout,
        projection: Projection,
        goal: &Pattern,
        moves: &MoveSet,
        threads: usize,
        limit: FillLimit,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&FillProgress),
    ) -> Option<PruneTable> {
        let size = projection.size();
        let goal_index = projection.index(layout, goal.as_bytes());
        let mut table = PruneTable {
            projection,
            data: Nibbles::none(),
            goal_index,
            histogram: vec![1, size - 1],
            filled: 0,
            complete: size == 1,
            cap: if size == 1 { UNREACHED } else { 1 },
            prepared: false,
            interrupted: false,
            frontier: Some(vec![goal_index]),
        };
        if size == 1 {
            table.histogram.pop();
        }
        table.extend(layout, moves, threads, limit, stop, progress)?;
        Some(table)
    }

    /// Whether every layer is filled.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Whether a fill was stopped inside a layer.
    pub fn is_interrupted(&self) -> bool {
        self.interrupted
    }

    /// The last distance whose layer is complete.
    pub fn filled_depth(&self) -> u8 {
        self.filled
    }

    /// The work filling the next layer is expected to take: each frontier
    /// entry's neighbours (or each unreached entry's, when the fill goes
    /// backward), plus one unit per 16 entries scanned, plus building the
    /// projection's move tables if they are not there. Zero once complete.
    pub fn next_layer_work(&self, num_moves: usize) -> u64 {
        self.next_layer_cost(num_moves).total()
    }

    /// [`next_layer_work`](Self::next_layer_work) by what it is spent on.
    pub fn next_layer_cost(&self, num_moves: usize) -> LayerCost {
        if self.complete {
            return LayerCost::default();
        }
        LayerCost {
            preparation: self.preparation_work(num_moves),
            ..self.layer_cost(num_moves)
        }
    }

    /// Building the move tables, if they are not built, and bringing in
    /// the table's memory, if it is not there (a unit a word).
    fn preparation_work(&self, num_moves: usize) -> u64 {
        let tables = if self.prepared {
            0
        } else {
            self.projection.preparation_work(num_moves)
        };
        let memory = if self.data.bytes() == 0 {
            self.projection.size().div_ceil(16)
        } else {
            0
        };
        tables + memory
    }

    /// The next layer's cost once the move tables are there.
    fn layer_cost(&self, num_moves: usize) -> LayerCost {
        let unreached = self
            .histogram
            .get(self.filled as usize + 1)
            .copied()
            .unwrap_or(0);
        layer_cost(
            self.histogram[self.filled as usize],
            unreached,
            num_moves,
            self.projection.size(),
            self.frontier.is_some(),
        )
    }

    /// Fills more layers, as far as `limit` says, on `threads` threads.
    /// Returns the work done (as [`next_layer_work`](Self::next_layer_work)
    /// counts it), or `None` if `stop` was raised or an earlier fill was:
    /// the table then still gives lower bounds, but it is
    /// [interrupted](Self::is_interrupted).
    pub fn extend(
        &mut self,
        layout: &Layout,
        moves: &MoveSet,
        threads: usize,
        limit: FillLimit,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&FillProgress),
    ) -> Option<u64> {
        if self.interrupted {
            return None;
        }
        if self.complete {
            return Some(0);
        }
        let nmoves = moves.moves().len();
        let mut work = self.preparation_work(nmoves);
        if let FillLimit::Work(budget) = limit {
            if work.saturating_add(self.layer_cost(nmoves).total()) > budget {
                return Some(0);
            }
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .ok()?;
        if self.data.bytes() == 0 {
            self.data = pool.install(|| Nibbles::unreached(self.projection.size()));
            self.data.set_if_unreached(self.goal_index, 0);
        }
        self.prepare(layout, moves);
        let projection = &self.projection;
        let data = &self.data;
        let histogram = &mut self.histogram;
        let mut listed = self.frontier.take();
        let size = projection.size();
        // The count of entries not reached is kept last.
        let mut reached = size - histogram.pop().unwrap_or(0);
        let inner = projection.inner_size();
        let last = projection.num_coords() - 1;
        let inner_table = projection.move_table(last);
        let mut complete = false;
        let mut stopped = false;
        for depth in self.filled..UNREACHED - 1 {
            if stop.load(Ordering::Relaxed) {
                stopped = true;
                break;
            }
            let frontier = histogram[depth as usize];
            let layer_work =
                layer_cost(frontier, size - reached, nmoves, size, listed.is_some()).total();
            if let FillLimit::Work(budget) = limit {
                if work.saturating_add(layer_work) > budget {
                    break;
                }
            }
            work = work.saturating_add(layer_work);
            let backward = goes_backward(frontier, size - reached);
            let proj = &projection;
            let data = &data;
            // A small layer is expanded from its list, and lists the next
            // layer if that one is sure to be small too.
            let list_next = frontier.saturating_mul(nmoves as u64) <= list_limit(size);
            let count: u64 = if let (Some(list), false) = (listed.take(), backward) {
                let (count, next) =
                    pool.install(|| expand_list(proj, data, &list, depth, nmoves, list_next, stop));
                listed = next;
                count
            } else {
                let chunks = size.div_ceil(CHUNK);
                pool.install(|| {
                    (0..chunks)
                        .into_par_iter()
                        .map(|c| {
                            if stop.load(Ordering::Relaxed) {
                                return 0;
                            }
                            let nc = proj.num_coords();
                            let mut values = vec![0u64; nc];
                            // Per outer coordinate, its value after each move.
                            let mut moved = vec![0u64; nc * nmoves];
                            let mut scratch = (Vec::new(), Vec::new());
                            // Per move: index of the moved block's first
                            // entry, and the inner coordinate's value.
                            let mut bases = vec![0u64; nmoves];
                            let mut inner_moved = vec![0u64; nmoves];
                            // The block of `inner` entries being worked
                            // through (entries come in increasing order).
                            let (mut block_start, mut block_end) = (0u64, 0u64);
                            let mut n = 0u64;
                            let mut marker = Marker::new(false);
                            let wanted = if backward { UNREACHED } else { depth };
                            let end = ((c + 1) * CHUNK).min(size);
                            // Word by word: most words hold no entry of interest.
                            let mut lanes = 0u64;
                            let mut w = c * CHUNK / 16;
                            loop {
                                while lanes == 0 && w * 16 < end {
                                    lanes = data.lanes_at(w, wanted);
                                    w += 1;
                                }
                                if lanes == 0 {
                                    break;
                                }
                                let i = (w - 1) * 16 + lanes.trailing_zeros() as u64 / 4;
                                lanes &= lanes - 1;
                                if i >= end {
                                    break;
                                }
                                if i >= block_end {
                                    block_start = i / inner * inner;
                                    block_end = block_start + inner;
                                    proj.split(block_start, &mut values);
                                    for ci in 0..last {
                                        let out = &mut moved[ci * nmoves..(ci + 1) * nmoves];
                                        proj.move_all(ci, values[ci], out, &mut scratch);
                                    }
                                    for (m, base) in bases.iter_mut().enumerate() {
                                        *base = proj.join_after(&moved, m, last) * inner;
                                    }
                                }
                                let x = i - block_start;
                                match inner_table {
                                    Some(t) => {
                                        let row = &t[x as usize * nmoves..][..nmoves];
                                        for (o, &v) in inner_moved.iter_mut().zip(row) {
                                            *o = v as u64;
                                        }
                                    }
                                    None => proj.move_all(last, x, &mut inner_moved, &mut scratch),
                                }
                                let targets = bases.iter().zip(&inner_moved).map(|(b, x)| b + x);
                                if backward {
                                    for j in targets {
                                        if data.get(j) == depth {
                                            if data.set_if_unreached(i, depth + 1) {
                                                n += 1;
                                            }
                                            break;
                                        }
                                    }
                                } else {
                                    for j in targets {
                                        marker.push(data, j, depth + 1);
                                    }
                                }
                            }
                            marker.flush(data, depth + 1);
                            n + marker.count
                        })
                        .sum()
                })
            };
            if stop.load(Ordering::Relaxed) {
                // A layer cut short: its entries are right, but the
                // count is not; the table stays at its last whole layer.
                stopped = true;
                break;
            }
            if count == 0 {
                complete = true;
                break;
            }
            reached += count;
            histogram.push(count);
            self.filled = depth + 1;
            progress(&FillProgress {
                table: projection.description().to_string(),
                depth: depth + 1,
                count,
                reached,
                size,
            });
            if reached == size {
                complete = true;
                break;
            }
        }
        if self.filled == UNREACHED - 1 {
            complete = true;
        }
        if reached < size {
            histogram.push(size - reached);
        }
        drop(pool);
        if !complete {
            self.frontier = listed;
        }
        self.cap = self.filled + 1;
        if stopped {
            self.interrupted = true;
            return None;
        }
        if complete {
            self.complete = true;
            self.cap = UNREACHED;
        }
        Some(work)
    }

    /// Builds the move tables of a complete table that has none (one
    /// loaded from the cache) if that takes at most `max_work` units, so
    /// that a search can follow coordinates instead of reading positions.
    pub(crate) fn prepare_moves(&mut self, layout: &Layout, moves: &MoveSet, max_work: u64) {
        let nm = moves.moves().len();
        if !self.complete || self.prepared || self.projection.preparation_work(nm) > max_work {
            return;
        }
        self.prepare(layout, moves);
    }

    /// The work of building the move tables of a complete table that has
    /// none (one loaded from the store), so that a search can carry its
    /// coordinates instead of reading each position; `None` when there is
    /// nothing to build.
    pub(crate) fn move_tables_work(&self, num_moves: usize) -> Option<u64> {
        (self.complete && !self.prepared).then(|| self.projection.preparation_work(num_moves))
    }

    /// Builds the projection's move tables, if it has none.
    fn prepare(&mut self, layout: &Layout, moves: &MoveSet) {
        if !self.prepared {
            self.projection.prepare(layout, &moves.transformations());
            self.prepared = true;
        }
    }

    /// A table from stored data: the histogram as
    /// [`histogram`](Self::histogram) gives it, the last complete layer
    /// (below [`UNREACHED`]) and whether every layer is.
    pub(crate) fn from_parts(
        projection: Projection,
        data: Nibbles,
        histogram: Vec<u64>,
        filled: u8,
        complete: bool,
    ) -> PruneTable {
        PruneTable {
            // Only read while the first layer is not filled, which a stored
            // table always is.
            goal_index: 0,
            projection,
            data,
            histogram,
            filled,
            complete,
            cap: if complete { UNREACHED } else { filled + 1 },
            prepared: false,
            interrupted: false,
            frontier: None,
        }
    }

    /// The lower bound for a position.
    #[inline]
    pub fn lookup(&self, layout: &Layout, state: &[u8]) -> u8 {
        self.entry(self.projection.index(layout, state))
    }

    /// The largest entry it gives: a search need not look up children
    /// that this could not prune.
    pub fn max_entry(&self) -> u8 {
        if self.filled == 0 {
            1
        } else {
            self.cap
        }
    }

    /// The entry at an index of its projection.
    #[inline]
    pub fn entry(&self, index: u64) -> u8 {
        if self.filled == 0 {
            // Nothing filled (perhaps not even allocated): the goal and the rest.
            return (index != self.goal_index) as u8;
        }
        self.data.get(index).min(self.cap)
    }

    /// Its projection.
    pub fn projection(&self) -> &Projection {
        &self.projection
    }

    /// Entries at each distance up to the last complete layer, then those
    /// not reached, if any (which count as one more than that layer).
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Bytes of memory it holds.
    pub fn bytes(&self) -> u64 {
        self.data.bytes()
    }

    pub(crate) fn data(&self) -> &Nibbles {
        &self.data
    }

    /// The mean lower bound over the entries a search can meet: all of
    /// them while the table grows (those not reached yet count as one
    /// more than the last layer), those reached once it is complete (the
    /// rest are positions the moves cannot reach, which would make a
    /// table of a small subgroup look strong).
    pub fn mean(&self) -> f64 {
        let reachable = if self.complete {
            &self.histogram[..self.histogram.len().min(self.filled as usize + 1)]
        } else {
            &self.histogram[..]
        };
        let total: u64 = reachable.iter().sum();
        let sum: f64 = reachable
            .iter()
            .enumerate()
            .map(|(d, &c)| d as f64 * c as f64)
            .sum();
        sum / total.max(1) as f64
    }
}
