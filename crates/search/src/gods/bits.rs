//! The two-bit-array engine: breadth-first search over a perfect index.
//!
//! (Long because the cursor, the level kernels and the run that drives them
//! are one hot loop measured together; its checkpoints live in
//! `bits/checkpoint.rs`.)
//!
//! Each index has a 2-bit code: old (seen before this level), frontier
//! (the level being expanded), new (found this level) or unseen. A level
//! is computed *forward* (expand each frontier position, marking unseen
//! neighbours new) or *backward* (mark each unseen position that has a
//! frontier neighbour new, stopping at the first), whichever touches fewer
//! positions; then frontier becomes old and new becomes frontier.
//!
//! A neighbour's index is computed without building the position: the
//! index is `hi·L + lo`, where `lo` combines the smallest components and
//! has one precomputed table row per value (`lo`'s neighbour under each
//! move), and `hi`'s neighbours are summed from per-component tables once
//! per run of `L` consecutive indices. The tables are small, and the `L`
//! neighbours of a run under one move fall in one stretch of the array,
//! which keeps the memory accesses local.
//!
//! Threads take chunks of words. On the dense forward levels each thread
//! sets a bit a neighbour in a mark array of its own, merged into the
//! codes after the level: no written cache line is shared between cores
//! (marking the shared codes, even with a plain read first, left two
//! threads no faster than one on the full 2x2x2). Without memory for the
//! mark arrays, two threads may mark positions in the same word, so
//! marking is an atomic `fetch_and` (which also settles who counts a
//! position reached from both). Backward, a thread only writes the words
//! of its own chunk, and readers look only for the frontier code, which
//! it never writes.
//!
//! When a level visits a few positions a run, the cursor prefetches the
//! next run's neighbour stretches as it enters a run, so the misses of
//! 18-odd scattered stretches overlap the current run's work.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;
use twistor_core::index::PositionIndexer;

use crate::projection::component_table;

use super::{
    CheckpointError, Context, DistanceTable, Engine, EngineOutput, GodsError, GodsEvent, GodsPlan,
    Signals,
};

mod checkpoint;

use checkpoint::*;

// Codes: 0 is old (seen at an earlier level).
const FRONTIER: u64 = 1;
const NEW: u64 = 2;
const UNSEEN: u64 = 3;
/// The low bit of every 2-bit code in a word.
const LOW: u64 = 0x5555_5555_5555_5555;
/// Words a task takes at once (131,072 positions).
const CHUNK_WORDS: usize = 1 << 12;
/// The size `L` of the low part the engine aims for.
const LOW_TARGET: f64 = 300.0;
/// Positions a level visits in a run of `L` indices, on average, from
/// which the cursor prefetches the next run's neighbours.
const PREFETCH_DENSITY: u64 = 4;
/// Largest move table of one component, in bytes.
const TABLE_LIMIT: u64 = 256 << 20;

/// How the index splits into a tabled low part and a high part.
#[derive(Clone, Debug)]
struct Split {
    /// Components in the low part (a prefix).
    low_components: usize,
    /// `L`: the low part's radix.
    low: u64,
    /// Whether each high component gets a move table.
    high_tabled: Vec<bool>,
}

fn split(ix: &PositionIndexer, nm: usize) -> Split {
    let comps = ix.components();
    let tabled = |c: usize| {
        let r = comps[c].radix();
        r <= u32::MAX as u64 && r.saturating_mul(nm as u64 * 8) <= TABLE_LIMIT
    };
    let target = LOW_TARGET;
    let mut best = (0usize, 1u64, f64::INFINITY);
    let mut low = 1u64;
    for j in 0..=comps.len() {
        let miss = ((low as f64).ln() - target.ln()).abs();
        if miss < best.2 {
            best = (j, low, miss);
        }
        if j == comps.len() || !tabled(j) {
            break;
        }
        low = low.saturating_mul(comps[j].radix());
        if low > u32::MAX as u64 || low.saturating_mul(nm as u64 * 4) > TABLE_LIMIT {
            break;
        }
    }
    Split {
        low_components: best.0,
        low: best.1,
        high_tabled: (best.0..comps.len()).map(tabled).collect(),
    }
}

/// Bytes the engine needs for a puzzle with this index and move count.
pub(crate) fn memory_needed(ix: &PositionIndexer, nm: usize) -> u64 {
    let s = split(ix, nm);
    let words = ix.size().div_ceil(32) * 8;
    let low = s.low * nm as u64 * 4;
    let low_parts: u64 = ix.components()[..s.low_components]
        .iter()
        .map(|c| c.radix() * nm as u64 * 4)
        .sum();
    let high: u64 = ix.components()[s.low_components..]
        .iter()
        .zip(&s.high_tabled)
        .filter(|(_, &t)| t)
        .map(|(c, _)| c.radix() * nm as u64 * 8)
        .sum();
    words + low + low_parts + high
}

struct HighPart {
    component: usize,
    radix: u64,
    stride: u64,
    /// Per value and move: the neighbour's value times the stride.
    table: Option<Vec<u64>>,
}

/// Move tables of an index.
pub(super) struct MoveTables {
    pub(super) nm: usize,
    low: u64,
    /// Per low value and move: the neighbour's low value.
    pub(super) low_table: Vec<u32>,
    high: Vec<HighPart>,
    template: Vec<u8>,
}

impl MoveTables {
    pub(super) fn new(ix: &PositionIndexer, moves: &[&[u8]]) -> MoveTables {
        let nm = moves.len();
        let s = split(ix, nm);
        let mut template = vec![0u8; ix.layout().state_len()];
        ix.unrank(0, &mut template);
        let low_tables: Vec<Vec<u32>> = (0..s.low_components)
            .map(|c| component_table(ix, c, moves, &template))
            .collect();
        let mut low_table = vec![0u32; s.low as usize * nm];
        let comps = ix.components();
        low_table
            .par_chunks_mut(nm)
            .enumerate()
            .for_each(|(lo, row)| {
                let mut rest = lo as u64;
                for (c, t) in low_tables.iter().enumerate() {
                    let r = comps[c].radix();
                    let d = (rest % r) as usize;
                    rest /= r;
                    let stride = ix.stride(c) as u32;
                    for (m, x) in row.iter_mut().enumerate() {
                        *x += t[d * nm + m] * stride;
                    }
                }
            });
        let high = (s.low_components..comps.len())
            .zip(&s.high_tabled)
            .map(|(c, &tabled)| {
                let stride = ix.stride(c);
                HighPart {
                    component: c,
                    radix: comps[c].radix(),
                    stride,
                    table: tabled.then(|| {
                        component_table(ix, c, moves, &template)
                            .into_iter()
                            .map(|v| v as u64 * stride)
                            .collect()
                    }),
                }
            })
            .collect();
        MoveTables {
            nm,
            low: s.low,
            low_table,
            high,
            template,
        }
    }
}

/// Computes neighbours' indices for a run of increasing indices.
pub(super) struct Cursor<'a, M> {
    tables: &'a MoveTables,
    ix: &'a PositionIndexer,
    moves: &'a [M],
    /// `hi·L` of the current run.
    base: u64,
    /// The high part of each neighbour of the current run.
    pub(super) nh: Vec<u64>,
    state: Vec<u8>,
    out: Vec<u8>,
    /// With a level's array: the high parts of the run after the current
    /// one, computed and their stretches prefetched when the cursor enters
    /// a run, so the next run's cache misses overlap this run's work.
    ahead: Option<Ahead<'a>>,
}

/// The next run's neighbours, fetched ahead (see `Cursor::prefetching`).
struct Ahead<'a> {
    /// The array written or read at the neighbours' indices.
    target: &'a [AtomicU64],
    /// Indices a word of `target` holds, as a power of two (32 codes or
    /// 64 marks).
    shift: u32,
    /// The run `nh` holds, or `u64::MAX`.
    hi: u64,
    nh: Vec<u64>,
}

impl<'a, M: AsRef<[u8]>> Cursor<'a, M> {
    pub(super) fn new(
        tables: &'a MoveTables,
        ix: &'a PositionIndexer,
        moves: &'a [M],
    ) -> Cursor<'a, M> {
        let mut c = Cursor {
            tables,
            ix,
            moves,
            base: 0,
            nh: vec![0; tables.nm],
            state: tables.template.clone(),
            out: tables.template.clone(),
            ahead: None,
        };
        c.load(0);
        c
    }

    /// Makes the cursor prefetch, on entering a run, the stretches of
    /// `mem` its next run's neighbours fall in: for a level dense enough
    /// that the next run will be visited (a sparse level would fetch
    /// stretches it never reads).
    pub(super) fn prefetching(mut self, target: &'a [AtomicU64], shift: u32) -> Self {
        self.ahead = Some(Ahead {
            target,
            shift,
            hi: u64::MAX,
            nh: vec![0; self.tables.nm],
        });
        self
    }

    /// Positions the cursor on index `x`; returns its low part.
    #[inline]
    pub(super) fn locate(&mut self, x: u64) -> usize {
        let off = x.wrapping_sub(self.base);
        if off < self.tables.low {
            return off as usize;
        }
        self.load(x / self.tables.low);
        (x - self.base) as usize
    }

    fn load(&mut self, hi: u64) {
        let t = self.tables;
        self.base = hi * t.low;
        let mut nh = std::mem::take(&mut self.nh);
        let mut ahead = self.ahead.take();
        match &mut ahead {
            // Fetched ahead when the cursor entered the run before.
            Some(a) if a.hi == hi => std::mem::swap(&mut nh, &mut a.nh),
            _ => self.high_parts(hi, &mut nh),
        }
        self.nh = nh;
        if let Some(a) = &mut ahead {
            let next = hi + 1;
            a.hi = u64::MAX;
            if next * t.low < self.ix.size() {
                self.high_parts(next, &mut a.nh);
                a.hi = next;
                for &h in &a.nh {
                    prefetch_stretch(a.target, a.shift, h, t.low);
                }
            }
        }
        self.ahead = ahead;
    }

    /// The high part of each neighbour of run `hi`.
    fn high_parts(&mut self, hi: u64, nh: &mut [u64]) {
        let t = self.tables;
        let nm = t.nm;
        nh.fill(0);
        let mut rest = hi;
        for p in &t.high {
            let d = rest % p.radix;
            rest /= p.radix;
            match &p.table {
                Some(table) => {
                    let row = &table[d as usize * nm..][..nm];
                    for (h, &v) in nh.iter_mut().zip(row) {
                        *h += v;
                    }
                }
                None => {
                    let comp = &self.ix.components()[p.component];
                    comp.unrank(d, &mut self.state);
                    for (m, mv) in self.moves.iter().enumerate() {
                        self.ix
                            .layout()
                            .compose_into(&self.state, mv.as_ref(), &mut self.out);
                        nh[m] += comp.rank(&self.out) * p.stride;
                    }
                }
            }
        }
    }
}

/// Asks the cache for the words of `mem` holding indices `from..from +
/// len`, `1 << shift` indices a word.
#[inline]
fn prefetch_stretch(mem: &[AtomicU64], shift: u32, from: u64, len: u64) {
    let first = (from >> shift) as usize;
    let last = (((from + len - 1) >> shift) as usize).min(mem.len() - 1);
    // A cache line holds eight words.
    let mut w = first;
    while w <= last + 7 {
        twistor_memory::prefetch(&mem[w.min(last)]);
        w += 8;
    }
}

#[derive(Clone, Copy, Default)]
struct LevelStats {
    new: u64,
    local: u64,
    strong: u64,
    stopped: bool,
}

impl LevelStats {
    fn add(self, o: LevelStats) -> LevelStats {
        LevelStats {
            new: self.new + o.new,
            local: self.local + o.local,
            strong: self.strong + o.strong,
            stopped: self.stopped || o.stopped,
        }
    }
}

#[inline]
fn code(mem: &[AtomicU64], y: u64) -> u64 {
    (mem[(y >> 5) as usize].load(Relaxed) >> ((y & 31) * 2)) & 3
}

/// Frontier positions expanded together: their neighbours' codes are
/// loaded in one tight loop, so the cache misses overlap.
const BATCH: usize = 32;

/// Neighbour indices and codes of a batch of frontier positions.
struct Batch {
    ys: Vec<u64>,
    codes: Vec<u8>,
    /// Where in `ys` the unseen neighbours are.
    unseen: Vec<u32>,
    len: usize,
}

impl Batch {
    fn new(nm: usize) -> Batch {
        Batch {
            ys: vec![0; BATCH * nm],
            codes: vec![0; BATCH * nm],
            unseen: vec![0; BATCH * nm],
            len: 0,
        }
    }
}

/// Marks position `y` new if it is unseen; whether this call did.
#[inline]
fn mark_new<const SHARED: bool>(mem: &[AtomicU64], y: u64) -> bool {
    let word = &mem[(y >> 5) as usize];
    let sh = (y & 31) * 2;
    if SHARED {
        // Unseen (11) becomes new (10); another thread may have done it
        // first, and the value before says who did.
        let before = word.fetch_and(!(1u64 << sh), Relaxed);
        (before >> sh) & 3 == UNSEEN
    } else {
        let w = word.load(Relaxed);
        let fresh = (w >> sh) & 3 == UNSEEN;
        word.store(w & !((fresh as u64) << sh), Relaxed);
        fresh
    }
}

/// Looks up the codes of a batch's neighbours, marks the unseen ones new
/// and, with `MAXIMA`, counts the batch's local maxima. The lookups run
/// without branches (an unseen neighbour is only noted in a list), so
/// their cache misses overlap.
#[inline]
fn flush<const SHARED: bool, const MAXIMA: bool>(
    mem: &[AtomicU64],
    nm: usize,
    b: &mut Batch,
    st: &mut LevelStats,
) {
    let n = b.len * nm;
    let mut k = 0;
    for j in 0..n {
        let c = code(mem, b.ys[j]);
        if MAXIMA {
            b.codes[j] = c as u8;
        }
        b.unseen[k] = j as u32;
        k += (c == UNSEEN) as usize;
    }
    for &j in &b.unseen[..k] {
        st.new += mark_new::<SHARED>(mem, b.ys[j as usize]) as u64;
    }
    if MAXIMA {
        for codes in b.codes[..n].chunks_exact(nm) {
            let seen = codes.iter().fold(0u32, |a, &c| a | 1 << c);
            // A neighbour new or unseen is farther; one in the frontier is as far.
            if seen & ((1 << NEW) | (1 << UNSEEN)) == 0 {
                st.local += 1;
                if seen & (1 << FRONTIER) == 0 {
                    st.strong += 1;
                }
            }
        }
    }
    b.len = 0;
}

/// Calls `visit` for each frontier position of `words` with its
/// neighbours' high parts (the cursor's) and its low part's row: a
/// neighbour's index is `high[m] + row[m]`.
#[inline(always)]
fn each_frontier(
    mem: &[AtomicU64],
    cur: &mut Cursor<'_, &[u8]>,
    words: std::ops::Range<usize>,
    mut visit: impl FnMut(&[u64], &[u32]),
) {
    let tables = cur.tables;
    let nm = tables.nm;
    for wi in words {
        let w = mem[wi].load(Relaxed);
        let mut f = w & !(w >> 1) & LOW;
        while f != 0 {
            let b = f.trailing_zeros() as u64;
            f &= f - 1;
            let lo = cur.locate(wi as u64 * 32 + (b >> 1));
            visit(&cur.nh, &tables.low_table[lo * nm..lo * nm + nm]);
        }
    }
}

/// Expands the frontier positions of `words` without looking at what the
/// neighbours were: each neighbour's code goes from unseen to new and is
/// otherwise left as it is, by arithmetic on its word; the new positions
/// are counted afterwards. On one thread, which alone writes the words.
fn forward_marking(mem: &[AtomicU64], cur: &mut Cursor<'_, &[u8]>, words: std::ops::Range<usize>) {
    each_frontier(mem, cur, words, |high, row| {
        for (&h, &l) in high.iter().zip(row) {
            let y = h + l as u64;
            let word = &mem[(y >> 5) as usize];
            let bit = 1u64 << ((y & 31) * 2);
            let v = word.load(Relaxed);
            // Unseen (11) loses its low bit; old, frontier and new keep it clear or need it.
            word.store(v & !(v & (v >> 1) & bit), Relaxed);
        }
    });
}

/// Expands the frontier positions of `words`, setting each neighbour's
/// bit in this thread's own mark array (no other thread writes it, and
/// none writes the codes during the level, so no cache line moves between
/// cores); `merge_marks` turns the marked unseen positions new afterwards.
fn forward_private(
    mem: &[AtomicU64],
    marks: &[AtomicU64],
    cur: &mut Cursor<'_, &[u8]>,
    words: std::ops::Range<usize>,
) {
    each_frontier(mem, cur, words, |high, row| {
        for (&h, &l) in high.iter().zip(row) {
            let y = h + l as u64;
            let word = &marks[(y >> 6) as usize];
            word.store(word.load(Relaxed) | 1u64 << (y & 63), Relaxed);
        }
    });
}

/// Spreads a word's 32 bits to the even bits of 64 (bit `i` to `2i`).
#[inline]
fn spread(x: u32) -> u64 {
    let mut x = x as u64;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & LOW
}

/// Makes every unseen position marked in any thread's array new, clears
/// the marks, and counts the new positions.
fn merge_marks(mem: &[AtomicU64], marks: &[Vec<AtomicU64>]) -> u64 {
    mem.par_chunks(CHUNK_WORDS)
        .enumerate()
        .map(|(c, chunk)| {
            let mut new = 0u64;
            // CHUNK_WORDS is even: a chunk's marks are whole words.
            let first = c * CHUNK_WORDS / 2;
            for (j, pair) in chunk.chunks(2).enumerate() {
                let mut m = 0u64;
                for map in marks {
                    m |= map[first + j].swap(0, Relaxed);
                }
                for (half, a) in pair.iter().enumerate() {
                    let w = a.load(Relaxed);
                    let clear = spread((m >> (32 * half)) as u32) & w & (w >> 1);
                    if clear != 0 {
                        a.store(w ^ clear, Relaxed);
                        new += clear.count_ones() as u64;
                    }
                }
            }
            new
        })
        .sum()
}

/// Expands the frontier positions of `words`.
fn forward<const SHARED: bool, const MAXIMA: bool>(
    mem: &[AtomicU64],
    cur: &mut Cursor<'_, &[u8]>,
    batch: &mut Batch,
    words: std::ops::Range<usize>,
) -> LevelStats {
    let nm = cur.tables.nm;
    let mut st = LevelStats::default();
    each_frontier(mem, cur, words, |high, row| {
        let out = &mut batch.ys[batch.len * nm..(batch.len + 1) * nm];
        for ((y, &h), &l) in out.iter_mut().zip(high).zip(row) {
            *y = h + l as u64;
        }
        batch.len += 1;
        if batch.len == BATCH {
            flush::<SHARED, MAXIMA>(mem, nm, batch, &mut st);
        }
    });
    flush::<SHARED, MAXIMA>(mem, nm, batch, &mut st);
    st
}

/// Marks the unseen positions of `words` that have a frontier neighbour.
fn backward(
    mem: &[AtomicU64],
    cur: &mut Cursor<'_, &[u8]>,
    words: std::ops::Range<usize>,
) -> LevelStats {
    let nm = cur.tables.nm;
    let lt = &cur.tables.low_table;
    let mut st = LevelStats::default();
    for wi in words {
        let w = mem[wi].load(Relaxed);
        let mut u = w & (w >> 1) & LOW;
        if u == 0 {
            continue;
        }
        let mut nw = w;
        while u != 0 {
            let b = u.trailing_zeros() as u64;
            u &= u - 1;
            let x = wi as u64 * 32 + (b >> 1);
            let lo = cur.locate(x);
            let row = &lt[lo * nm..lo * nm + nm];
            for (&h, &l) in cur.nh.iter().zip(row) {
                if code(mem, h + l as u64) == FRONTIER {
                    nw &= !(1u64 << b);
                    st.new += 1;
                    break;
                }
            }
        }
        if nw != w {
            mem[wi].store(nw, Relaxed);
        }
    }
    st
}

/// Positions with the new code.
fn count_new(mem: &[AtomicU64]) -> u64 {
    mem.par_chunks(CHUNK_WORDS)
        .map(|chunk| {
            chunk
                .iter()
                .map(|a| {
                    let w = a.load(Relaxed);
                    ((w >> 1) & !w & LOW).count_ones() as u64
                })
                .sum::<u64>()
        })
        .sum()
}

/// Frontier becomes old, new becomes frontier.
fn advance(mem: &[AtomicU64]) {
    mem.par_chunks(CHUNK_WORDS).for_each(|chunk| {
        for a in chunk {
            let w = a.load(Relaxed);
            a.store(w - ((w & LOW) ^ ((w >> 1) & LOW)), Relaxed);
        }
    });
}

fn fresh_memory(size: u64, start: u64) -> Vec<AtomicU64> {
    let nwords = size.div_ceil(32) as usize;
    let mut words: Vec<AtomicU64> = Vec::with_capacity(nwords);
    words.par_extend((0..nwords).into_par_iter().map(|_| AtomicU64::new(!0)));
    // Indices past the end are old, so they are never expanded or found.
    let tail = size % 32;
    if tail != 0 {
        words[nwords - 1] = AtomicU64::new(!0u64 >> (64 - 2 * tail));
    }
    let w = &words[(start >> 5) as usize];
    let sh = (start & 31) * 2;
    w.store(w.load(Relaxed) & !(3u64 << sh) | (FRONTIER << sh), Relaxed);
    words
}

/// Which way a level is computed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    /// Expand the frontier, reading each neighbour's code.
    Forward,
    /// Expand the frontier, marking neighbours without reading them and
    /// counting the new positions afterwards in one pass over the array:
    /// for large frontiers, where that pass costs little against the
    /// reads it saves. On one thread only: threads sharing words must mark
    /// atomically, and there reading the codes of a batch first, so that
    /// their cache misses overlap, is faster.
    ForwardMarking,
    /// Like `ForwardMarking`, into a mark array of each thread's own (a
    /// bit a position), merged into the codes afterwards: threads share no
    /// written word, so they scale as a single thread does; when memory
    /// allows an array a thread.
    ForwardPrivate,
    /// Look for frontier neighbours of unseen positions.
    Backward,
}

/// What one level does.
#[derive(Clone, Copy)]
struct LevelPlan {
    /// The depth being computed.
    depth: usize,
    direction: Direction,
    /// Count the frontier's local maxima (forward only).
    maxima: bool,
    /// Fetch each run's neighbours ahead (`Cursor::prefetching`).
    prefetch: bool,
}

/// What every level works on.
struct Space<'a> {
    mem: &'a [AtomicU64],
    /// Each thread's mark array (`ForwardPrivate`), or none.
    marks: &'a [Vec<AtomicU64>],
    tables: &'a MoveTables,
    ix: &'a PositionIndexer,
    moves: &'a [&'a [u8]],
}

/// Runs one level over all words; `None` if stopped part-way.
fn level(signals: Signals<'_>, space: &Space<'_>, plan: LevelPlan) -> Option<LevelStats> {
    let Space {
        mem,
        marks,
        tables,
        ix,
        moves,
    } = *space;
    let LevelPlan {
        depth,
        direction,
        maxima,
        prefetch,
    } = plan;
    let chunks = mem.len().div_ceil(CHUNK_WORDS);
    signals.emit(GodsEvent::LevelStarted {
        depth,
        work: chunks as u64,
        backward: direction == Direction::Backward,
    });
    // One thread may mark positions without atomic operations.
    let shared = rayon::current_num_threads() > 1;
    let done = AtomicU64::new(0);
    let stop_seen = AtomicBool::new(false);
    let stats = (0..chunks)
        .into_par_iter()
        .map_init(
            || {
                // The rayon worker running this part of the level, whose
                // mark array it writes.
                let thread = rayon::current_thread_index().unwrap_or(0) % marks.len().max(1);
                let cur = Cursor::new(tables, ix, moves);
                let cur = match (prefetch, direction) {
                    (false, _) => cur,
                    (true, Direction::ForwardPrivate) => cur.prefetching(&marks[thread], 6),
                    (true, _) => cur.prefetching(mem, 5),
                };
                (cur, Batch::new(tables.nm), thread)
            },
            |(cur, batch, thread), c| {
                if stop_seen.load(Relaxed) || signals.stopped() {
                    stop_seen.store(true, Relaxed);
                    return LevelStats {
                        stopped: true,
                        ..LevelStats::default()
                    };
                }
                let words = c * CHUNK_WORDS..((c + 1) * CHUNK_WORDS).min(mem.len());
                let st = match (direction, shared, maxima) {
                    (Direction::Backward, _, _) => backward(mem, cur, words),
                    (Direction::ForwardPrivate, _, _) => {
                        forward_private(mem, &marks[*thread], cur, words);
                        LevelStats::default()
                    }
                    (Direction::ForwardMarking, _, _) => {
                        forward_marking(mem, cur, words);
                        LevelStats::default()
                    }
                    (Direction::Forward, true, true) => {
                        forward::<true, true>(mem, cur, batch, words)
                    }
                    (Direction::Forward, true, false) => {
                        forward::<true, false>(mem, cur, batch, words)
                    }
                    (Direction::Forward, false, true) => {
                        forward::<false, true>(mem, cur, batch, words)
                    }
                    (Direction::Forward, false, false) => {
                        forward::<false, false>(mem, cur, batch, words)
                    }
                };
                let d = done.fetch_add(1, Relaxed) + 1;
                signals.emit(GodsEvent::LevelProgress {
                    depth,
                    done: d,
                    work: chunks as u64,
                });
                st
            },
        )
        .reduce(LevelStats::default, LevelStats::add);
    if stats.stopped {
        return None;
    }
    if direction == Direction::ForwardMarking {
        return Some(LevelStats {
            new: count_new(mem),
            ..stats
        });
    }
    if direction == Direction::ForwardPrivate {
        return Some(LevelStats {
            new: merge_marks(mem, marks),
            ..stats
        });
    }
    Some(stats)
}

/// Runs breadth-first search on bit arrays.
pub(crate) fn run(
    ctx: &mut Context<'_, '_>,
    ix: PositionIndexer,
) -> Result<EngineOutput, GodsError> {
    let nm = ctx.moves.moves().len();
    let needed = memory_needed(&ix, nm);
    if needed > ctx.options.memory_limit {
        return Err(GodsError::NotEnoughMemory {
            needed,
            limit: ctx.options.memory_limit,
        });
    }
    let size = ix.size();
    // A mark array a thread for the dense forward levels, when memory
    // allows (otherwise threads mark the shared codes).
    let threads = rayon::current_num_threads();
    let mark_words = size.div_ceil(32).div_ceil(2);
    let mark_bytes = threads as u64 * mark_words * 8;
    let private =
        !ctx.options.local_maxima && needed.saturating_add(mark_bytes) <= ctx.options.memory_limit;
    let plan = GodsPlan {
        engine: Engine::BitArray,
        memory: needed + if private { mark_bytes } else { 0 },
        index_size: Some(size),
        reachable: ctx.reachable,
        symmetry: None,
    };
    ctx.emit(GodsEvent::Plan(plan.clone()));
    let lm = ctx.options.local_maxima;
    let (mut p, mem) = if ctx.resume {
        load(ctx, size)?
    } else {
        let start = ix.rank(ctx.puzzle.start().as_bytes());
        let p = Progress {
            counts: vec![1],
            local: Vec::new(),
            strong: Vec::new(),
        };
        let mem = fresh_memory(size, start);
        ctx.emit(GodsEvent::LevelFinished {
            depth: 0,
            positions: 1,
            total: 1,
        });
        save(ctx, &p, &mem, size)?;
        (p, mem)
    };
    let tables = MoveTables::new(&ix, &ctx.move_bytes);
    let moves = ctx.move_bytes.clone();
    let mut marks: Vec<Vec<AtomicU64>> = Vec::new();
    loop {
        let depth = p.counts.len() - 1;
        let frontier = p.counts[depth];
        let total: u64 = p.counts.iter().sum();
        if ctx.signals.stopped() {
            return Err(GodsError::Stopped { depth });
        }
        if !lm && ctx.reachable == Some(total) {
            break;
        }
        // Backward costs a few lookups per unseen position that is one
        // farther and every move for one that is farther still (or
        // unreachable); forward costs every move per frontier position.
        let unseen = size - total;
        let backward = !lm
            && match ctx.reachable {
                Some(r) => (r - total) / 2 + (size - r) < frontier,
                None => unseen < frontier,
            };
        let direction = if backward {
            Direction::Backward
        } else if lm || frontier.saturating_mul(nm as u64) < size / 16 {
            Direction::Forward
        } else if private {
            Direction::ForwardPrivate
        } else if threads == 1 {
            Direction::ForwardMarking
        } else {
            Direction::Forward
        };
        if direction == Direction::ForwardPrivate && marks.is_empty() {
            marks = (0..threads)
                .map(|_| {
                    let mut m = Vec::with_capacity(mark_words as usize);
                    m.par_extend((0..mark_words).into_par_iter().map(|_| AtomicU64::new(0)));
                    m
                })
                .collect();
        }
        let space = Space {
            mem: &mem,
            marks: &marks,
            tables: &tables,
            ix: &ix,
            moves: &moves,
        };
        let plan = LevelPlan {
            depth: depth + 1,
            direction,
            maxima: lm,
            // Worth it once a run holds a few of the positions the level
            // visits (each brings its neighbours' lines in anyway).
            prefetch: (if backward { unseen } else { frontier }).saturating_mul(tables.low)
                >= PREFETCH_DENSITY * size,
        };
        let stats = level(ctx.signals, &space, plan).ok_or(GodsError::Stopped { depth })?;
        if lm {
            p.local.push(stats.local);
            p.strong.push(stats.strong);
        }
        if stats.new == 0 {
            break;
        }
        advance(&mem);
        p.counts.push(stats.new);
        ctx.emit(GodsEvent::LevelFinished {
            depth: depth + 1,
            positions: stats.new,
            total: total + stats.new,
        });
        save(ctx, &p, &mem, size)?;
    }
    // The frontier is now the last level: the antipodes.
    let want = ctx.options.antipodes;
    let mut positions = Vec::new();
    'scan: for (wi, a) in mem.iter().enumerate() {
        if positions.len() >= want {
            break;
        }
        let w = a.load(Relaxed);
        let mut f = w & !(w >> 1) & LOW;
        while f != 0 {
            let b = f.trailing_zeros() as u64;
            f &= f - 1;
            let mut state = vec![0u8; ix.layout().state_len()];
            ix.unrank(wi as u64 * 32 + (b >> 1), &mut state);
            positions.push(state);
            if positions.len() >= want {
                break 'scan;
            }
        }
    }
    Ok(EngineOutput {
        antipode_count: *p.counts.last().unwrap_or(&0),
        table: DistanceTable {
            counts: p.counts,
            local_maxima: lm.then_some(p.local),
            strong_local_maxima: lm.then_some(p.strong),
        },
        antipode_positions: positions,
        classes: None,
        union_local_maxima: None,
        plan,
    })
}
