//! Pruning tables: exact distances of projected positions, four bits each.
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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use twistor_core::{Layout, Pattern};

use crate::projection::Projection;
use crate::MoveSet;

/// The value of an entry not reached (distance at least 15).
pub const UNREACHED: u8 = 15;

/// Bit 0 of each nibble of `word` that equals `v`, the others clear.
#[inline]
fn nibbles_equal(word: u64, v: u8) -> u64 {
    let x = word ^ (v as u64 * 0x1111_1111_1111_1111);
    let t = x | (x >> 1);
    let t = t | (t >> 2);
    !t & 0x1111_1111_1111_1111
}

/// The work of filling one layer of a table of `size` entries: the
/// neighbours of the frontier (forward) or of the unreached entries
/// (backward), whichever are fewer, plus one unit per 16 entries scanned.
fn layer_work(frontier: u64, unreached: u64, num_moves: usize, size: u64) -> u64 {
    frontier
        .min(unreached)
        .saturating_mul(num_moves as u64)
        .saturating_add(size / 16)
}

/// Entries processed per parallel work item.
const CHUNK: u64 = 1 << 16;

/// A packed array of 4-bit values, atomically writable while it is filled.
pub(crate) struct Nibbles {
    words: Box<[AtomicU64]>,
}

impl Nibbles {
    /// No entries (a table not allocated yet).
    pub fn none() -> Nibbles {
        Nibbles {
            words: Box::new([]),
        }
    }

    /// `len` entries, all [`UNREACHED`].
    pub fn unreached(len: u64) -> Nibbles {
        let words = len.div_ceil(16) as usize;
        let v: Vec<AtomicU64> = (0..words).map(|_| AtomicU64::new(u64::MAX)).collect();
        Nibbles {
            words: v.into_boxed_slice(),
        }
    }

    /// From raw words (as stored on disk).
    pub fn from_words(words: Vec<u64>) -> Nibbles {
        Nibbles {
            words: words.into_iter().map(AtomicU64::new).collect(),
        }
    }

    /// The raw words.
    pub fn words(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().map(|w| w.load(Ordering::Relaxed))
    }

    /// The 16 entries of word `w`.
    #[inline]
    pub fn word(&self, w: u64) -> u64 {
        self.words[w as usize].load(Ordering::Relaxed)
    }

    #[inline]
    pub fn get(&self, i: u64) -> u8 {
        ((self.words[(i >> 4) as usize].load(Ordering::Relaxed) >> ((i & 15) * 4)) & 15) as u8
    }

    /// Sets entry `i` to `v` if it is [`UNREACHED`]; whether it did.
    #[inline]
    pub fn set_if_unreached(&self, i: u64, v: u8) -> bool {
        let shift = (i & 15) * 4;
        let clear = (!(v as u64) & 15) << shift;
        let word = &self.words[(i >> 4) as usize];
        let mut cur = word.load(Ordering::Relaxed);
        loop {
            if (cur >> shift) & 15 != UNREACHED as u64 {
                return false;
            }
            match word.compare_exchange_weak(
                cur,
                cur & !clear,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(now) => cur = now,
            }
        }
    }

    /// Bytes of memory.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }
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
        if self.complete {
            return 0;
        }
        self.layer_work(num_moves)
            .saturating_add(self.preparation_work(num_moves))
    }

    /// Building the move tables, if they are not built.
    fn preparation_work(&self, num_moves: usize) -> u64 {
        if self.prepared {
            0
        } else {
            self.projection.preparation_work(num_moves)
        }
    }

    /// The next layer's work once the move tables are there.
    fn layer_work(&self, num_moves: usize) -> u64 {
        let unreached = self
            .histogram
            .get(self.filled as usize + 1)
            .copied()
            .unwrap_or(0);
        layer_work(
            self.histogram[self.filled as usize],
            unreached,
            num_moves,
            self.projection.size(),
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
            if work.saturating_add(self.layer_work(nmoves)) > budget {
                return Some(0);
            }
        }
        if self.data.bytes() == 0 {
            self.data = Nibbles::unreached(self.projection.size());
            self.data.set_if_unreached(self.goal_index, 0);
        }
        if !self.prepared {
            let raw: Vec<&[u8]> = moves
                .moves()
                .iter()
                .map(|m| m.transformation.as_bytes())
                .collect();
            self.projection.prepare(layout, &raw);
            self.prepared = true;
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .ok()?;
        let projection = &self.projection;
        let data = &self.data;
        let histogram = &mut self.histogram;
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
            let layer_work = layer_work(frontier, size - reached, nmoves, size);
            if let FillLimit::Work(budget) = limit {
                if work.saturating_add(layer_work) > budget {
                    break;
                }
            }
            work = work.saturating_add(layer_work);
            let backward = size - reached < frontier.saturating_mul(nmoves as u64);
            let chunks = size.div_ceil(CHUNK);
            let proj = &projection;
            let data = &data;
            let count: u64 = pool.install(|| {
                (0..chunks)
                    .into_par_iter()
                    .map(|c| {
                        if stop.load(Ordering::Relaxed) {
                            return 0;
                        }
                        let mut values = vec![0u64; proj.num_coords()];
                        let mut moved = vec![0u64; proj.num_coords()];
                        let mut scratch = (Vec::new(), Vec::new());
                        // Per move: index of the moved block's first entry.
                        let mut bases = vec![0u64; nmoves];
                        let mut block = u64::MAX;
                        let mut n = 0u64;
                        let wanted = if backward { UNREACHED } else { depth };
                        let end = ((c + 1) * CHUNK).min(size);
                        // Word by word: most words hold no entry of interest.
                        let mut lanes = 0u64;
                        let mut w = c * CHUNK / 16;
                        loop {
                            while lanes == 0 && w * 16 < end {
                                lanes = nibbles_equal(data.word(w), wanted);
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
                            if i / inner != block {
                                block = i / inner;
                                proj.split(i, &mut values);
                                for (m, base) in bases.iter_mut().enumerate() {
                                    for ci in 0..last {
                                        moved[ci] =
                                            proj.move_coord(ci, m, values[ci], &mut scratch);
                                    }
                                    moved[last] = 0;
                                    *base = proj.join(&moved);
                                }
                            }
                            let x = i % inner;
                            if let Some(t) = inner_table {
                                if backward {
                                    for (m, &base) in bases.iter().enumerate() {
                                        if data
                                            .get(base + t[m * inner as usize + x as usize] as u64)
                                            == depth
                                        {
                                            if data.set_if_unreached(i, depth + 1) {
                                                n += 1;
                                            }
                                            break;
                                        }
                                    }
                                } else {
                                    for (m, &base) in bases.iter().enumerate() {
                                        if data.set_if_unreached(
                                            base + t[m * inner as usize + x as usize] as u64,
                                            depth + 1,
                                        ) {
                                            n += 1;
                                        }
                                    }
                                }
                                continue;
                            }
                            if backward {
                                for (m, &base) in bases.iter().enumerate() {
                                    let j = base + proj.move_coord(last, m, x, &mut scratch);
                                    if data.get(j) == depth {
                                        if data.set_if_unreached(i, depth + 1) {
                                            n += 1;
                                        }
                                        break;
                                    }
                                }
                            } else {
                                for (m, &base) in bases.iter().enumerate() {
                                    let j = base + proj.move_coord(last, m, x, &mut scratch);
                                    if data.set_if_unreached(j, depth + 1) {
                                        n += 1;
                                    }
                                }
                            }
                        }
                        n
                    })
                    .sum()
            });
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
        self.cap = self.filled + 1;
        if stopped {
            self.interrupted = true;
            return None;
        }
        if complete {
            self.complete = true;
            self.cap = UNREACHED;
            self.projection.forget_moves();
            self.prepared = false;
        }
        Some(work)
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
        }
    }

    /// The lower bound for a position.
    #[inline]
    pub fn lookup(&self, layout: &Layout, state: &[u8]) -> u8 {
        self.entry(self.projection.index(layout, state))
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

    /// The mean lower bound over all entries.
    pub fn mean(&self) -> f64 {
        let total: u64 = self.histogram.iter().sum();
        let sum: f64 = self
            .histogram
            .iter()
            .enumerate()
            .map(|(d, &c)| d as f64 * c as f64)
            .sum();
        sum / total.max(1) as f64
    }
}
