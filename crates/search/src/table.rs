//! Pruning tables: exact distances of projected positions, four bits each.
//!
//! A table is filled breadth-first from the goal over its projection's index
//! space (forward from each new layer while the layer is small, then
//! backward from the unvisited entries once that is cheaper), on as many
//! threads as asked. Distances above 14 are stored as 15, meaning "at least
//! 15", which is still a lower bound.

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

/// Entries processed per parallel work item.
const CHUNK: u64 = 1 << 16;

/// A packed array of 4-bit values, atomically writable while it is filled.
pub(crate) struct Nibbles {
    words: Box<[AtomicU64]>,
}

impl Nibbles {
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
    data: Nibbles,
    /// Entries at each distance (the last counts those not reached by 14).
    histogram: Vec<u64>,
}

impl PruneTable {
    /// Fills the table for `projection` from `goal` with `moves`, on
    /// `threads` threads; `None` if `stop` is raised first.
    pub fn build(
        layout: &Layout,
        mut projection: Projection,
        goal: &Pattern,
        moves: &MoveSet,
        threads: usize,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&FillProgress),
    ) -> Option<PruneTable> {
        let raw: Vec<&[u8]> = moves
            .moves()
            .iter()
            .map(|m| m.transformation.as_bytes())
            .collect();
        projection.prepare(layout, &raw);
        let size = projection.size();
        let data = Nibbles::unreached(size);
        data.set_if_unreached(projection.index(layout, goal.as_bytes()), 0);
        let nmoves = moves.moves().len();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .ok()?;
        let mut histogram = vec![1u64];
        let mut reached = 1u64;
        let inner = projection.inner_size();
        let last = projection.num_coords() - 1;
        let inner_table = projection.move_table(last);
        for depth in 0..UNREACHED - 1 {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let frontier = histogram[depth as usize];
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
                return None;
            }
            if count == 0 {
                break;
            }
            reached += count;
            histogram.push(count);
            progress(&FillProgress {
                table: projection.description().to_string(),
                depth: depth + 1,
                count,
                reached,
                size,
            });
        }
        if reached < size {
            histogram.push(size - reached);
        }
        drop(pool);
        projection.forget_moves();
        Some(PruneTable {
            projection,
            data,
            histogram,
        })
    }

    /// A table from stored data.
    pub(crate) fn from_parts(
        projection: Projection,
        data: Nibbles,
        histogram: Vec<u64>,
    ) -> PruneTable {
        PruneTable {
            projection,
            data,
            histogram,
        }
    }

    /// The lower bound for a position.
    #[inline]
    pub fn lookup(&self, layout: &Layout, state: &[u8]) -> u8 {
        self.data.get(self.projection.index(layout, state))
    }

    /// The entry at an index of its projection.
    #[inline]
    pub fn entry(&self, index: u64) -> u8 {
        self.data.get(index)
    }

    /// Its projection.
    pub fn projection(&self) -> &Projection {
        &self.projection
    }

    /// Entries at each distance.
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
