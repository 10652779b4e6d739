//! The sets a coset is enumerated into: a bitmap of the coset's 19.5
//! billion positions row by row, dense or sparse, and the leaf sinks that
//! fill them from phase-1 sequences.

use twistor_memory::TableBuffer;

use super::*;

/// Collects phase-1 leaves as sparse keys.
pub(super) struct ListSink {
    pub(super) keys: Vec<u64>,
}

/// Marks phase-1 leaves in a dense bitmap.
pub(super) struct DenseSink<'a> {
    pub(super) cells: &'a [AtomicU16],
    pub(super) flags: &'a [AtomicU64],
    pub(super) rows: &'a [AtomicU32],
    pub(super) slice_bit: &'a [u8; 24],
    pub(super) leaves: u64,
    pub(super) added: u64,
}

impl LeafSink for ListSink {
    #[inline(always)]
    fn leaf(&mut self, corners: u16, ud: u16, slice_perm: u16) {
        self.keys.push(key(corners, ud, slice_perm));
    }
}

impl LeafSink for DenseSink<'_> {
    #[inline(always)]
    fn leaf(&mut self, corners: u16, ud: u16, slice_perm: u16) {
        self.leaves += 1;
        let (c, e) = (corners as usize, ud as usize);
        let cell = &self.cells[c * N_UD_EDGES + e];
        let bit = 1u16 << self.slice_bit[slice_perm as usize];
        if cell.load(Ordering::Relaxed) & bit != 0 {
            return;
        }
        if cell.fetch_or(bit, Ordering::Relaxed) & bit == 0 {
            self.added += 1;
            self.rows[c].fetch_add(1, Ordering::Relaxed);
            let block = e / BLOCK;
            self.flags[c * FLAG_WORDS + block / 64].fetch_or(1 << (block % 64), Ordering::Relaxed);
        }
    }
}

/// A dense set: 12 bits of slice permutations for each (corner
/// permutation, UD-edge permutation), in anonymous memory that the system
/// provides as it is first written.
pub(super) struct Bitmap {
    cells: TableBuffer<u16>,
}

impl Bitmap {
    pub(super) fn new(huge_pages: bool) -> Result<Bitmap, CosetError> {
        // Huge pages are only a hint. A large set fills most pages, and
        // huge pages spare the TLB the phase-1 leaves' random writes; a
        // small one (the tests) touches few, and 2 MB pages would commit
        // far more.
        let cells =
            TableBuffer::zeroed(CELLS, huge_pages).map_err(|source| CosetError::Allocation {
                bytes: CELLS as u64 * 2,
                source,
            })?;
        Ok(Bitmap { cells })
    }

    pub(super) fn cells(&self) -> &[u16] {
        &self.cells
    }

    pub(super) fn cells_mut(&mut self) -> &mut [u16] {
        &mut self.cells
    }

    pub(super) fn atomic(&mut self) -> &[AtomicU16] {
        self.cells.as_atomic()
    }
}

/// The dense state: the set within `n - 1` moves (`x`) and within `n - 2`
/// (`y`, overwritten by the set within `n`), each with flags of the
/// blocks that changed in its step and its row counts. Where a block's
/// flag in `x` is clear, `y` holds the same entries.
pub(super) struct Dense {
    pub(super) x: Bitmap,
    pub(super) y: Bitmap,
    pub(super) x_flags: Vec<AtomicU64>,
    pub(super) y_flags: Vec<AtomicU64>,
    pub(super) x_rows: Vec<AtomicU32>,
    pub(super) y_rows: Vec<AtomicU32>,
}

pub(super) fn atomics64(n: usize) -> Vec<AtomicU64> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
}

pub(super) fn atomics32(n: usize) -> Vec<AtomicU32> {
    (0..n).map(|_| AtomicU32::new(0)).collect()
}

/// The sets while they are lists: all found (`all`), and found at the last
/// depth (`last`), both sorted.
pub(super) struct Sparse {
    pub(super) all: Vec<u64>,
    pub(super) last: Vec<u64>,
}

/// Memory kept between solves: the dense sets (6.5 GB, once a solve has
/// needed them). A solve given a workspace that holds them clears and
/// reuses them instead of asking the system for fresh pages, which the
/// system must clear too, page by page on first touch: seconds saved a
/// coset when solving many.
#[derive(Default)]
pub struct CosetWorkspace {
    pub(super) dense: Option<Box<Dense>>,
}

impl CosetWorkspace {
    /// An empty workspace.
    pub fn new() -> CosetWorkspace {
        CosetWorkspace::default()
    }

    /// Bytes it holds.
    pub fn reserved_bytes(&self) -> u64 {
        if self.dense.is_some() {
            DENSE_BYTES
        } else {
            0
        }
    }

    /// Gives the memory back.
    pub fn release(&mut self) {
        self.dense = None;
    }
}

/// Runs work on the solve's own pool or on rayon's global one.
pub(super) struct Exec {
    pub(super) pool: Option<rayon::ThreadPool>,
}

impl Exec {
    pub(super) fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }
}

/// ORs the images of the changed blocks of one source row under one move
/// into a target row. `SKIP_EMPTY` tests each entry first: worth it (and
/// it leaves untouched pages untouched) when most entries are empty;
/// otherwise the loop runs without branches.
#[inline(always)]
pub(super) fn expand_row<const MOVES_SLICE: bool, const SKIP_EMPTY: bool>(
    src: &[u16],
    src_flags: &[u64; FLAG_WORDS],
    edges: &[u32],
    slice_sets: &[u16],
    corner_parity: u32,
    dst: &mut [u16],
) {
    for (w, &word) in src_flags.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let b = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let base = b * BLOCK;
            let cells = &src[base..base + BLOCK];
            let moved = &edges[base..base + BLOCK];
            for (&v, &t) in cells.iter().zip(moved) {
                if SKIP_EMPTY && v == 0 {
                    continue;
                }
                let x = if MOVES_SLICE {
                    let q = (t >> 16) ^ corner_parity;
                    slice_sets[(q as usize) << 12 | v as usize]
                } else {
                    v
                };
                dst[(t & 0xFFFF) as usize] |= x;
            }
        }
    }
}

/// Flags the blocks where `new` gained on `old` (a subset of it) and
/// counts the positions gained.
pub(super) fn row_gain(new: &[u16], old: &[u16], flags: &mut [u64; FLAG_WORDS]) -> u64 {
    let mut added = 0u64;
    for (b, (n, o)) in new
        .chunks_exact(BLOCK)
        .zip(old.chunks_exact(BLOCK))
        .enumerate()
    {
        let mut any = 0u16;
        let mut count = 0u32;
        for i in 0..BLOCK {
            let g = n[i] ^ o[i];
            any |= g;
            count += g.count_ones();
        }
        flags[b / 64] |= ((any != 0) as u64) << (b % 64);
        added += count as u64;
    }
    added
}

pub(super) fn load_flags(flags: &[AtomicU64], row: usize) -> [u64; FLAG_WORDS] {
    std::array::from_fn(|i| flags[row * FLAG_WORDS + i].load(Ordering::Relaxed))
}
