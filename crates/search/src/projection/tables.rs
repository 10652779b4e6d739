//! Move tables of a projection's coordinates: per value and move, the
//! value after the move, built once (in parallel) so that filling a table
//! or searching costs a few lookups per move instead of reading positions.

use rayon::prelude::*;

use twistor_core::index::PositionIndexer;
use twistor_core::Layout;

use super::coords::{add_digits, Coord, Kind};
use super::Projection;

/// Largest move table built for one coordinate, in entries.
pub(super) const MOVE_TABLE_LIMIT: u64 = 1 << 23;
/// Largest split table for tracked pieces (slots part × moves), in entries.
/// Without one a fill decodes and re-encodes every entry for every move
/// (ten times slower), so the planner only picks projections that get one
/// and whose tables fit its budget (see [`Projection::fill_move_bytes`]).
const PIECES_TABLE_LIMIT: u64 = 1 << 27;

/// The slots part and the twist received of a [`Kind::Pieces`]
/// coordinate after each move, value by value (`[p * moves + m]`), for
/// `k = radix.len()` pieces tracked among `n` slots; `dests[m][s]` is
/// where move `m` sends slot `s`'s piece and the twist it adds.
///
/// The arrangements are walked in rank order, depth-first, with each
/// move's image ranked a piece at a time along the way (a Lehmer digit a
/// level), so a leaf costs a digit a move rather than a whole ranking; the
/// first piece's slots split the work between threads (each slot heads
/// `slots_size / n` consecutive ranks).
fn pieces_rows(
    n: usize,
    radix: &[u8],
    dests: &[&[(u8, u8)]],
    slots_size: u64,
) -> (Vec<u32>, Vec<u32>) {
    struct Walk<'a> {
        n: usize,
        radix: &'a [u8],
        dests: &'a [&'a [(u8, u8)]],
        /// Per level and move: the image's rank, used slots and twist so far.
        rank: Vec<u64>,
        used: Vec<u64>,
        twist: Vec<u64>,
        /// The leaves' rows, in rank order, and how many are written.
        out_slots: &'a mut [u32],
        out_twist: &'a mut [u32],
        written: usize,
    }
    impl Walk<'_> {
        /// The image under move `m` of the node at `level` extended by
        /// slot `s`: its rank, used slots and twist so far.
        #[inline]
        fn image(&self, level: usize, m: usize, s: usize) -> (u64, u64, u64) {
            let i = level * self.dests.len() + m;
            let r = self.radix[level];
            let (at, tw) = self.dests[m][s];
            let used = self.used[i];
            let below = (used & ((1u64 << at) - 1)).count_ones() as u64;
            let tw = if tw < r { tw } else { tw % r };
            (
                self.rank[i] * (self.n - level) as u64 + at as u64 - below,
                used | 1u64 << at,
                self.twist[i] * r as u64 + tw as u64,
            )
        }
        fn step(&mut self, level: usize, s: usize) {
            let nm = self.dests.len();
            for m in 0..nm {
                let i = (level + 1) * nm + m;
                (self.rank[i], self.used[i], self.twist[i]) = self.image(level, m, s);
            }
        }
        /// The rows of the leaves below a node of the last level but one,
        /// written straight from the images (most of the work is here).
        fn leaves(&mut self, level: usize, taken: u64) {
            let nm = self.dests.len();
            for s in (0..self.n).filter(|&s| taken & 1u64 << s == 0) {
                for m in 0..nm {
                    let (rank, _, twist) = self.image(level, m, s);
                    self.out_slots[self.written + m] = rank as u32;
                    self.out_twist[self.written + m] = twist as u32;
                }
                self.written += nm;
            }
        }
        fn walk(&mut self, level: usize, taken: u64) {
            let nm = self.dests.len();
            if level + 1 == self.radix.len() {
                self.leaves(level, taken);
                return;
            }
            if level == self.radix.len() {
                let row = self.written..self.written + nm;
                for (m, (s, t)) in (self.out_slots[row.clone()].iter_mut())
                    .zip(&mut self.out_twist[row])
                    .enumerate()
                {
                    *s = self.rank[level * nm + m] as u32;
                    *t = self.twist[level * nm + m] as u32;
                }
                self.written += nm;
                return;
            }
            for s in 0..self.n {
                if taken & 1u64 << s == 0 {
                    self.step(level, s);
                    self.walk(level + 1, taken | 1u64 << s);
                }
            }
        }
    }
    let nm = dests.len();
    if nm == 0 {
        return (Vec::new(), Vec::new());
    }
    let k = radix.len();
    let block = (slots_size / n as u64) as usize * nm;
    let mut slots = vec![0u32; slots_size as usize * nm];
    let mut twist = vec![0u32; slots_size as usize * nm];
    slots
        .par_chunks_mut(block)
        .zip(twist.par_chunks_mut(block))
        .enumerate()
        .for_each(|(first, (out_slots, out_twist))| {
            let mut w = Walk {
                n,
                radix,
                dests,
                rank: vec![0; (k + 1) * nm],
                used: vec![0; (k + 1) * nm],
                twist: vec![0; (k + 1) * nm],
                out_slots,
                out_twist,
                written: 0,
            };
            w.step(0, first);
            w.walk(1, 1u64 << first);
            debug_assert_eq!(w.written, block);
        });
    (slots, twist)
}

/// Move tables of a [`Kind::Pieces`] coordinate, split in two: the slots
/// of the tracked pieces move by themselves; the twist each piece receives
/// depends only on its slot; orientations then add digit by digit.
#[derive(Clone, Debug)]
pub(super) struct PiecesTables {
    /// Size of the orientation part.
    ori_size: u64,
    /// `slots[p * moves + m]`: the slots part after move `m` (laid out as
    /// the coordinate's `table` is).
    slots: Vec<u32>,
    /// `twist[p * moves + m]`: the twists received, as an orientation value.
    twist: Vec<u32>,
    /// `add[o * ori_size + w]`: orientation `o` plus twist `w`, when small.
    add: Option<Vec<u32>>,
}

impl PiecesTables {
    /// The value after the move of entry `at` (a slots part's row and a
    /// move) of a value whose orientation part is `o`; `radix` is the
    /// coordinate's, per tracked piece.
    #[inline]
    fn value_after(&self, radix: &[u8], o: u64, at: usize) -> u64 {
        let w = self.twist[at] as u64;
        let o2 = match &self.add {
            Some(add) => add[(o * self.ori_size + w) as usize] as u64,
            None => add_digits(radix, o, w),
        };
        self.slots[at] as u64 * self.ori_size + o2
    }
}

impl Projection {
    /// Readies the projection to follow `moves` (packed transformations):
    /// where each move sends each slot's piece, and move tables for the
    /// small coordinates.
    pub fn prepare(&mut self, layout: &Layout, moves: &[&[u8]]) {
        self.prepare_with(layout, moves, MOVE_TABLE_LIMIT);
    }

    /// [`Projection::prepare`] with full move tables only up to
    /// `table_limit` entries per coordinate.
    pub(super) fn prepare_with(&mut self, layout: &Layout, moves: &[&[u8]], table_limit: u64) {
        self.moves = moves
            .iter()
            .map(|t| {
                (0..layout.orbits().len())
                    .map(|k| {
                        let p = layout.perm(t, k);
                        let o = layout.ori(t, k);
                        let mut d = vec![(0u8, 0u8); p.len()];
                        for (i, &from) in p.iter().enumerate() {
                            d[from as usize] = (i as u8, o[i]);
                        }
                        d
                    })
                    .collect()
            })
            .collect();
        let proj = self;
        if let Some(ex) = proj.indexer.clone() {
            proj.raw_moves = moves.iter().map(|m| m.to_vec()).collect();
            for c in proj.coords.iter_mut() {
                let Kind::Component(i) = c.kind else { continue };
                if c.size.saturating_mul(moves.len() as u64) <= table_limit {
                    c.table = Some(component_table(&ex.indexer, i, moves, &ex.template));
                    c.num_moves = moves.len();
                }
            }
            return;
        }
        // Move tables for small coordinates (see `arrange_for` for which
        // one comes last), value by value: a fill or a search reads all
        // moves of one value, which then share a cache line or two.
        for ci in 0..proj.coords.len() {
            let c = &proj.coords[ci];
            if c.size.saturating_mul(moves.len() as u64) <= table_limit {
                // Row by row on all threads.
                let nm = moves.len();
                let mut rows = vec![0u32; c.size as usize * nm];
                const ROWS: usize = 1024;
                let this = &*proj;
                rows.par_chunks_mut(nm * ROWS)
                    .enumerate()
                    .for_each(|(chunk, part)| {
                        let mut buf = Vec::new();
                        let mut out = Vec::new();
                        for (j, row) in part.chunks_mut(nm).enumerate() {
                            c.decode((chunk * ROWS + j) as u64, &mut buf);
                            for (m, to) in row.iter_mut().enumerate() {
                                this.move_decoded(ci, m, &buf, &mut out);
                                *to = c.encode(&out) as u32;
                            }
                        }
                    });
                proj.coords[ci].table = Some(rows);
                proj.coords[ci].num_moves = nm;
            } else if let Kind::Pieces = c.kind {
                let ori_size = c.ori_size;
                let slots_size = c.size / ori_size;
                if slots_size.saturating_mul(moves.len() as u64)
                    <= table_limit.saturating_mul(PIECES_TABLE_LIMIT / MOVE_TABLE_LIMIT)
                {
                    let k = c.counts.len();
                    let nm = moves.len();
                    let this = &*proj;
                    let dests: Vec<&[(u8, u8)]> =
                        (0..nm).map(|m| &this.moves[m][c.orbit][..]).collect();
                    let (slots, twist) = pieces_rows(c.n, &c.radix[..k], &dests, slots_size);
                    let add = (ori_size * ori_size <= 1 << 22).then(|| {
                        let mut t = vec![0u32; (ori_size * ori_size) as usize];
                        for o in 0..ori_size {
                            for w in 0..ori_size {
                                t[(o * ori_size + w) as usize] =
                                    add_digits(&c.radix[..k], o, w) as u32;
                            }
                        }
                        t
                    });
                    proj.coords[ci].num_moves = moves.len();
                    proj.coords[ci].pieces = Some(PiecesTables {
                        ori_size,
                        slots,
                        twist,
                        add,
                    });
                }
            }
        }
    }

    /// Bytes of the move tables a fill with `num_moves` moves builds, or
    /// `None` if some coordinate would have none (and the fill would decode
    /// every entry: too slow for a large table).
    pub(crate) fn fill_move_bytes(&self, num_moves: usize) -> Option<u64> {
        self.coords
            .iter()
            .map(|c| c.fill_tables(num_moves as u64).map(|(n, width)| n * width))
            .sum()
    }

    /// The work [`prepare`](Self::prepare) takes for `num_moves` moves, in
    /// a table fill's units (a few nanoseconds each): each table entry
    /// decodes, moves and encodes a coordinate, about 32 units.
    pub(crate) fn preparation_work(&self, num_moves: usize) -> u64 {
        self.coords
            .iter()
            .filter_map(|c| c.fill_tables(num_moves as u64))
            .fold(0u64, |a, (n, _)| a.saturating_add(n))
            .saturating_mul(32)
    }

    /// Whether a search can carry coordinates down
    /// ([`Projection::step_coords`]) instead of reading each position:
    /// every coordinate has move tables.
    pub(crate) fn moves_by_table(&self) -> bool {
        !self.coords.is_empty()
            && self
                .coords
                .iter()
                .all(|c| c.table.is_some() || c.pieces.is_some())
    }

    /// The coordinates after move `m` (into `out`) and their index; only
    /// when [`Projection::moves_by_table`].
    #[inline]
    pub(crate) fn step_coords(&self, coords: &[u64], m: usize, out: &mut [u64]) -> u64 {
        let mut idx = 0u64;
        for ((c, &v), o) in self.coords.iter().zip(coords).zip(out.iter_mut()) {
            let moved = c
                .move_by_table(m, v)
                .unwrap_or_else(|| unreachable!("step_coords without move tables"));
            *o = moved;
            idx = idx * c.size + moved;
        }
        idx
    }

    /// Asks for the rows of the move tables that [`Projection::step_coords`]
    /// will read from `coords`, so that the node they belong to finds them
    /// in cache when the search comes to it.
    #[inline]
    pub(crate) fn prefetch_rows(&self, coords: &[u64]) {
        for (c, &v) in self.coords.iter().zip(coords) {
            if let Some(row) =
                (c.table.as_deref()).and_then(|t| t.get((v * c.num_moves as u64) as usize))
            {
                twistor_memory::prefetch(row);
            }
        }
    }

    /// Coordinate `ci`'s move table, if it has one: `t[v * moves + m]`.
    pub(crate) fn move_table(&self, ci: usize) -> Option<&[u32]> {
        self.coords[ci].table.as_deref()
    }
}

impl Coord {
    /// The value after move `m` by the move tables, if it has them.
    #[inline]
    pub(super) fn move_by_table(&self, m: usize, v: u64) -> Option<u64> {
        let at = |v: u64| (v * self.num_moves as u64 + m as u64) as usize;
        if let Some(t) = &self.table {
            return Some(t[at(v)] as u64);
        }
        let pt = self.pieces.as_ref()?;
        let (p, o) = (v / pt.ori_size, v % pt.ori_size);
        Some(pt.value_after(&self.radix[..self.counts.len()], o, at(p)))
    }

    /// The values after every move (`out[m]`) by the move tables, if it
    /// has them (else false, `out` untouched): [`Coord::move_by_table`]
    /// for each move, with the row found once.
    #[inline]
    pub(super) fn move_all_by_table(&self, v: u64, out: &mut [u64]) -> bool {
        let nm = self.num_moves;
        if let Some(t) = &self.table {
            for (o, &x) in out.iter_mut().zip(&t[v as usize * nm..][..nm]) {
                *o = x as u64;
            }
            return true;
        }
        let Some(pt) = &self.pieces else {
            return false;
        };
        let (p, o) = (v / pt.ori_size, v % pt.ori_size);
        let radix = &self.radix[..self.counts.len()];
        for (m, out) in out.iter_mut().enumerate() {
            *out = pt.value_after(radix, o, p as usize * nm + m);
        }
        true
    }

    /// The move tables a fill builds for this coordinate with `m` moves:
    /// their entries and bytes per entry, or `None` if it gets none (and a
    /// fill would decode every entry).
    pub(super) fn fill_tables(&self, m: u64) -> Option<(u64, u64)> {
        if self.size.saturating_mul(m) <= MOVE_TABLE_LIMIT {
            Some((self.size * m, 4))
        } else if matches!(self.kind, Kind::Pieces)
            && (self.size / self.ori_size).saturating_mul(m) <= PIECES_TABLE_LIMIT
        {
            Some(((self.size / self.ori_size) * m, 8))
        } else {
            None
        }
    }
}

/// Per value of component `c` of `ix` and move: the value after the move,
/// row by row (`t[v * moves + m]`); `template` is any position the index
/// stands for (the component's bytes are written over it).
pub(crate) fn component_table(
    ix: &PositionIndexer,
    c: usize,
    moves: &[&[u8]],
    template: &[u8],
) -> Vec<u32> {
    let comp = &ix.components()[c];
    let nm = moves.len();
    let layout = ix.layout();
    let mut table = vec![0u32; comp.radix() as usize * nm];
    const ROWS: usize = 1024;
    table
        .par_chunks_mut(nm * ROWS)
        .enumerate()
        .for_each(|(ci, chunk)| {
            let mut state = template.to_vec();
            let mut out = template.to_vec();
            for (j, row) in chunk.chunks_mut(nm).enumerate() {
                comp.unrank((ci * ROWS + j) as u64, &mut state);
                for (m, mv) in moves.iter().enumerate() {
                    layout.compose_into(&state, mv, &mut out);
                    row[m] = comp.rank(&out) as u32;
                }
            }
        });
    table
}
