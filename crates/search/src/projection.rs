//! Projections of a puzzle: what remains of a position when only some
//! pieces are tracked, as a perfect index of those abstract positions.
//!
//! A projection keeps, for chosen orbits, which slots hold which tracked
//! pieces and the orientations of the tracked pieces; every other piece is
//! anonymous. Moves act on projected positions as they act on positions,
//! so the distance of a projected position is a lower bound on the
//! distance of any position that projects to it: the basis of pattern
//! databases. Identical pieces of the goal become one class; orientations
//! known only modulo `d` are indexed modulo `d`.
//!
//! The index is a mixed-radix number of *coordinates*, each moved by the
//! moves independently of the others: the arrangement of an orbit's pieces,
//! the twist of a fully tracked orbit (slot by slot), or the slots and
//! orientations of a few tracked pieces. Small coordinates get move tables,
//! so filling a table costs a few lookups per move.

use std::sync::Arc;

use rayon::prelude::*;

use twistor_core::index::PositionIndexer;
use twistor_core::{Layout, Pattern, Transformation};

/// Class label of untracked pieces.
const REST: u8 = u8::MAX;
/// Largest move table built for one coordinate, in entries.
const MOVE_TABLE_LIMIT: u64 = 1 << 23;
/// Largest split table for tracked pieces (slots part × moves), in entries.
/// Without one a fill decodes and re-encodes every entry for every move
/// (ten times slower), so the planner only picks projections that get one
/// and whose tables fit its budget (see [`Projection::fill_move_bytes`]).
const PIECES_TABLE_LIMIT: u64 = 1 << 27;

/// A choice of tracked pieces for one orbit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrbitSelection {
    /// Orbit index.
    pub orbit: usize,
    /// Goal piece ids tracked (each id tracks every piece with that id).
    pub ids: Vec<u8>,
    /// Whether orientations are tracked.
    pub orientation: bool,
}

/// How a coordinate reads a position.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Which class stands in each slot (multiset rank; Lehmer code when all
    /// classes are single pieces).
    Arrangement,
    /// Orientation of every slot, all of one radix (last digit implied when
    /// the moves keep the orbit's total twist).
    Twist {
        radix: u8,
        drop_last: bool,
        twist_total: u8,
    },
    /// Slot and orientation of each tracked piece, pieces in class order.
    Pieces,
    /// Classes per slot and orientations of the tracked slots, for
    /// identical tracked pieces with orientation.
    LabeledTwist,
    /// Component `i` of the projection's [`PositionIndexer`].
    Component(usize),
}

/// One coordinate of a projection.
#[derive(Clone, Debug)]
struct Coord {
    kind: Kind,
    orbit: usize,
    n: usize,
    /// Goal piece id → class, or REST.
    class_of_id: [u8; 256],
    /// Pieces per tracked class.
    counts: Vec<u8>,
    /// Orientation radix per tracked class (1 = not tracked).
    radix: Vec<u8>,
    /// Orientation code → value.
    value_of_code: [u8; 256],
    size: u64,
    /// Size of the orientation part of [`Kind::Pieces`] and [`Kind::LabeledTwist`].
    ori_size: u64,
    /// `C(a, b)` for `a <= n`, `b <= max_count`, row by row.
    binomials: Vec<u64>,
    max_count: usize,
    /// `table[m * size + v]`: the value after move `m` (or, once
    /// [`Projection::lay_out_for_search`], `table[v * moves + m]`).
    table: Option<Vec<u32>>,
    /// Whether the move tables are laid out value by value (all moves of a
    /// value in one cache line, as a search reads them) rather than move
    /// by move (as a fill scans them).
    by_value: bool,
    /// The number of moves the tables have.
    num_moves: usize,
    /// For [`Kind::Pieces`] too large for `table`: tables over its slots
    /// part and its orientation part.
    pieces: Option<PiecesTables>,
}

/// Move tables of a [`Kind::Pieces`] coordinate, split in two: the slots
/// of the tracked pieces move by themselves; the twist each piece receives
/// depends only on its slot; orientations then add digit by digit.
#[derive(Clone, Debug)]
struct PiecesTables {
    /// Size of the orientation part.
    ori_size: u64,
    /// Size of the slots part.
    slots_size: u64,
    /// `slots[m * slots_size + p]`: the slots part after move `m` (laid
    /// out as the coordinate's `table` is).
    slots: Vec<u32>,
    /// `twist[m * slots_size + p]`: the twists received, as an orientation value.
    twist: Vec<u32>,
    /// `add[o * ori_size + w]`: orientation `o` plus twist `w`, when small.
    add: Option<Vec<u32>>,
}

/// A projection of a whole puzzle.
#[derive(Clone, Debug)]
pub struct Projection {
    coords: Vec<Coord>,
    size: u64,
    description: String,
    /// What identifies the projection (for cache keys).
    signature: Vec<u8>,
    /// Per move: per orbit, slot → (destination slot, twist added there).
    moves: Vec<Vec<Vec<(u8, u8)>>>,
    /// For a projection of the whole puzzle through core's perfect index:
    /// the index, a position to unrank components into, and the moves.
    indexer: Option<Arc<ExactIndex>>,
    /// The moves, packed, for components moved without a table.
    raw_moves: Vec<Vec<u8>>,
}

/// The perfect index of a whole puzzle, as an [`Projection::exact`] uses it.
#[derive(Debug)]
struct ExactIndex {
    indexer: PositionIndexer,
    template: Vec<u8>,
}

/// `n! / (prod counts! * rest!)`, or `None` beyond `u64`.
fn multinomial(n: usize, counts: &[u8]) -> Option<u64> {
    let mut result: u128 = 1;
    let mut placed = 0usize;
    for &c in counts {
        for i in 1..=c as usize {
            placed += 1;
            result = result * placed as u128 / i as u128;
        }
    }
    for i in placed + 1..=n {
        result = result * i as u128 / (i - placed) as u128;
        if result > u64::MAX as u128 {
            return None;
        }
    }
    (result <= u64::MAX as u128).then_some(result as u64)
}

impl Projection {
    /// The projection tracking `selections` against `goal`, or `None` if
    /// its index space exceeds `u64`. `twist_invariant[k]` says whether the
    /// moves keep orbit `k`'s total orientation. It must be
    /// [prepared](Projection::prepare) before positions are moved.
    pub fn new(
        layout: &Layout,
        goal: &Pattern,
        selections: &[OrbitSelection],
        twist_invariant: &[bool],
    ) -> Option<Projection> {
        let mut coords = Vec::new();
        let mut description = Vec::new();
        let mut signature = Vec::new();
        for sel in selections {
            signature.extend_from_slice(&(sel.orbit as u32).to_le_bytes());
            signature.push(sel.orientation as u8);
            signature.push(twist_invariant.get(sel.orbit).copied().unwrap_or(false) as u8);
            signature.extend_from_slice(&(sel.ids.len() as u32).to_le_bytes());
            signature.extend_from_slice(&sel.ids);
            let k = sel.orbit;
            let orbit = &layout.orbits()[k];
            let n = orbit.num_pieces();
            let perm = layout.perm(goal.as_bytes(), k);
            let ori = layout.ori(goal.as_bytes(), k);
            let mut class_of_id = [REST; 256];
            let mut counts = Vec::new();
            let mut radix = Vec::new();
            let mut value_of_code = [0u8; 256];
            for code in 0..=255u8 {
                if let Some((v, _)) = layout.try_decode_orientation(k, code) {
                    value_of_code[code as usize] = v;
                }
            }
            for &id in &sel.ids {
                if class_of_id[id as usize] != REST {
                    continue;
                }
                let slots: Vec<usize> = (0..n).filter(|&s| perm[s] == id).collect();
                if slots.is_empty() {
                    continue;
                }
                class_of_id[id as usize] = counts.len() as u8;
                counts.push(slots.len() as u8);
                let mods: Vec<u8> = slots
                    .iter()
                    .map(|&s| layout.decode_orientation(k, ori[s]).1)
                    .collect();
                let m = mods[0];
                radix.push(if !sel.orientation || mods.iter().any(|&x| x != m) {
                    1
                } else if m == 0 {
                    orbit.num_orientations() as u8
                } else {
                    m
                });
            }
            if counts.is_empty() {
                continue;
            }
            let tracked: usize = counts.iter().map(|&c| c as usize).sum();
            let full = tracked == n;
            let distinct = counts.iter().all(|&c| c == 1);
            let oriented = radix.iter().any(|&r| r > 1);
            let uniform = radix.iter().all(|&r| r == radix[0]);
            let base = Coord {
                kind: Kind::Arrangement,
                orbit: k,
                n,
                class_of_id,
                counts: counts.clone(),
                radix: radix.clone(),
                value_of_code,
                size: 0,
                ori_size: ori_space(&counts, &radix)?,
                binomials: binomials(n, counts.iter().map(|&c| c as usize).max().unwrap_or(0)),
                max_count: counts.iter().map(|&c| c as usize).max().unwrap_or(0),
                table: None,
                pieces: None,
                by_value: false,
                num_moves: 0,
            };
            if full || !oriented {
                coords.push(Coord {
                    size: multinomial(n, &counts)?,
                    ..base.clone()
                });
                if oriented && uniform {
                    let r = radix[0];
                    let drop_last = full
                        && twist_invariant.get(k).copied().unwrap_or(false)
                        && r as usize == orbit.num_orientations();
                    let twist_total = (ori
                        .iter()
                        .map(|&c| value_of_code[c as usize] as u32)
                        .sum::<u32>()
                        % r as u32) as u8;
                    let digits = if drop_last { n - 1 } else { n };
                    let size = (r as u64).checked_pow(digits as u32)?;
                    coords.push(Coord {
                        kind: Kind::Twist {
                            radix: r,
                            drop_last,
                            twist_total,
                        },
                        size,
                        ..base
                    });
                } else if oriented {
                    let size = multinomial(n, &counts)?.checked_mul(ori_space(&counts, &radix)?)?;
                    coords.pop();
                    coords.push(Coord {
                        kind: Kind::LabeledTwist,
                        size,
                        ..base
                    });
                }
            } else if distinct && n <= 64 {
                let size = multinomial(n, &counts)?.checked_mul(ori_space(&counts, &radix)?)?;
                coords.push(Coord {
                    kind: Kind::Pieces,
                    size,
                    ..base
                });
            } else {
                let size = multinomial(n, &counts)?.checked_mul(ori_space(&counts, &radix)?)?;
                coords.push(Coord {
                    kind: Kind::LabeledTwist,
                    size,
                    ..base
                });
            }
            description.push(format!(
                "{}:{}{}",
                orbit.name(),
                if full {
                    "all".to_string()
                } else {
                    format!("{tracked}/{n}")
                },
                if oriented { "+ori" } else { "" }
            ));
        }
        if coords.is_empty() {
            return None;
        }
        let mut size: u64 = 1;
        for c in &coords {
            size = size.checked_mul(c.size)?;
        }
        Some(Projection {
            coords,
            size,
            description: description.join(" "),
            signature,
            moves: Vec::new(),
            indexer: None,
            raw_moves: Vec::new(),
        })
    }

    /// The whole puzzle through core's perfect index ([`PositionIndexer`]):
    /// every position reachable from `goal` with `moves` gets its own
    /// entry, and the index drops the constraints the moves keep (parities,
    /// twist sums, ties between orbits), so it is often many times smaller
    /// than [`Projection::new`] over every orbit (the skewb: 37,791,360
    /// entries instead of 2,720,977,920). `None` if the puzzle cannot be
    /// indexed or nothing moves.
    pub fn exact(layout: &Layout, goal: &Pattern, moves: &[&Transformation]) -> Option<Projection> {
        let indexer = PositionIndexer::new(layout, goal, moves).ok()?;
        let comps = indexer.components();
        if comps.is_empty() {
            return None;
        }
        let mut template = vec![0u8; layout.state_len()];
        indexer.unrank(0, &mut template);
        let mut signature = b"exact-index-1".to_vec();
        // Most significant first, as `join` reads them.
        let coords: Vec<Coord> = (0..comps.len())
            .rev()
            .map(|i| {
                let c = &comps[i];
                signature.push(c.kind() as u8);
                signature.extend_from_slice(&(c.orbit() as u32).to_le_bytes());
                signature.extend_from_slice(&c.radix().to_le_bytes());
                Coord {
                    kind: Kind::Component(i),
                    orbit: c.orbit(),
                    n: 0,
                    class_of_id: [REST; 256],
                    counts: Vec::new(),
                    radix: Vec::new(),
                    value_of_code: [0; 256],
                    size: c.radix(),
                    ori_size: 1,
                    binomials: Vec::new(),
                    max_count: 0,
                    table: None,
                    pieces: None,
                    by_value: false,
                    num_moves: 0,
                }
            })
            .collect();
        let mut orbits: Vec<&str> = Vec::new();
        for c in comps {
            let name = layout.orbits()[c.orbit()].name();
            if !orbits.contains(&name) {
                orbits.push(name);
            }
        }
        Some(Projection {
            coords,
            size: indexer.size(),
            description: format!("exact {}", orbits.join("+")),
            signature,
            moves: Vec::new(),
            indexer: Some(Arc::new(ExactIndex { indexer, template })),
            raw_moves: Vec::new(),
        })
    }

    /// Puts the coordinate a fill works through block by block last: the
    /// last one with a full move table for `num_moves` moves and at least
    /// 16 values. Done before filling or loading, so that a table read
    /// from disk indexes as the one that was filled.
    pub(crate) fn arrange_for(&mut self, num_moves: usize) {
        if self.indexer.is_some() {
            return;
        }
        let m = num_moves as u64;
        if let Some(pos) = self
            .coords
            .iter()
            .rposition(|c| c.size >= 16 && c.size.saturating_mul(m) <= MOVE_TABLE_LIMIT)
        {
            let c = self.coords.remove(pos);
            self.coords.push(c);
        }
    }

    /// Readies the projection to follow `moves` (packed transformations):
    /// where each move sends each slot's piece, and move tables for the
    /// small coordinates.
    pub fn prepare(&mut self, layout: &Layout, moves: &[&[u8]]) {
        self.prepare_with(layout, moves, MOVE_TABLE_LIMIT);
    }

    /// [`Projection::prepare`] with full move tables only up to
    /// `table_limit` entries per coordinate.
    fn prepare_with(&mut self, layout: &Layout, moves: &[&[u8]], table_limit: u64) {
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
                    let rows = component_table(&ex.indexer, i, moves, &ex.template);
                    c.table = Some(move_major(&rows, moves.len()));
                    c.by_value = false;
                    c.num_moves = moves.len();
                }
            }
            return;
        }
        // Move tables for small coordinates (see `arrange_for` for which
        // one comes last).
        for ci in 0..proj.coords.len() {
            let c = &proj.coords[ci];
            if c.size.saturating_mul(moves.len() as u64) <= table_limit {
                // Row by row on all threads, then move by move.
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
                proj.coords[ci].table = Some(move_major(&rows, nm));
                proj.coords[ci].by_value = false;
                proj.coords[ci].num_moves = nm;
            } else if let Kind::Pieces = c.kind {
                let ori_size = c.ori_size;
                let slots_size = c.size / ori_size;
                if slots_size.saturating_mul(moves.len() as u64)
                    <= table_limit.saturating_mul(PIECES_TABLE_LIMIT / MOVE_TABLE_LIMIT)
                {
                    let k = c.counts.len();
                    let entries = (slots_size * moves.len() as u64) as usize;
                    let mut slots = vec![0u32; entries];
                    let mut twist = vec![0u32; entries];
                    let mut buf = Vec::new();
                    let mut out = Vec::new();
                    for p in 0..slots_size {
                        // Orientation zero: the result's orientation is the twist received.
                        c.decode(p * ori_size, &mut buf);
                        for m in 0..moves.len() {
                            proj.move_decoded(ci, m, &buf, &mut out);
                            let v = c.encode(&out);
                            slots[(m as u64 * slots_size + p) as usize] = (v / ori_size) as u32;
                            twist[(m as u64 * slots_size + p) as usize] = (v % ori_size) as u32;
                        }
                    }
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
                    proj.coords[ci].by_value = false;
                    proj.coords[ci].num_moves = moves.len();
                    proj.coords[ci].pieces = Some(PiecesTables {
                        ori_size,
                        slots_size,
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

    /// Number of abstract positions.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Bytes that identify the projection, for cache keys.
    pub fn signature(&self) -> &[u8] {
        &self.signature
    }

    /// Which pieces it tracks, briefly.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The index of a position (a pattern's packed bytes).
    #[inline]
    pub fn index(&self, layout: &Layout, state: &[u8]) -> u64 {
        if let Some(ex) = &self.indexer {
            return ex.indexer.rank(state);
        }
        let mut idx = 0u64;
        for c in &self.coords {
            idx = idx * c.size + c.read(layout, state);
        }
        idx
    }

    /// The index of any position of the layout, or `None` if the
    /// projection cannot stand for it (an exact projection of a position
    /// the moves cannot reach from the goal).
    pub fn checked_index(&self, layout: &Layout, state: &[u8]) -> Option<u64> {
        match &self.indexer {
            Some(ex) => ex.indexer.checked_rank(state),
            None => Some(self.index(layout, state)),
        }
    }

    /// Size of the innermost coordinate (the block a fill works on).
    pub(crate) fn inner_size(&self) -> u64 {
        self.coords.last().map_or(1, |c| c.size)
    }

    /// Splits an index into coordinate values.
    pub(crate) fn split(&self, mut idx: u64, out: &mut [u64]) {
        for (i, c) in self.coords.iter().enumerate().rev() {
            out[i] = idx % c.size;
            idx /= c.size;
        }
    }

    /// Joins coordinate values into an index.
    pub(crate) fn join(&self, values: &[u64]) -> u64 {
        self.coords
            .iter()
            .zip(values)
            .fold(0u64, |acc, (c, &v)| acc * c.size + v)
    }

    /// Whether a search can carry coordinates down
    /// ([`Projection::step_coords`]) instead of reading each position:
    /// every coordinate has move tables, laid out for a search.
    pub(crate) fn moves_by_table(&self) -> bool {
        !self.coords.is_empty()
            && self
                .coords
                .iter()
                .all(|c| c.by_value && (c.table.is_some() || c.pieces.is_some()))
    }

    /// Lays the move tables out value by value, as a search reads them (a
    /// node's children then find their values in one cache line, instead
    /// of one line per move); for a table that is filled.
    pub(crate) fn lay_out_for_search(&mut self) {
        for c in &mut self.coords {
            if c.by_value {
                continue;
            }
            let nm = c.num_moves;
            if let Some(t) = &mut c.table {
                *t = by_value(t, nm);
            }
            if let Some(pt) = &mut c.pieces {
                pt.slots = by_value(&pt.slots, nm);
                pt.twist = by_value(&pt.twist, nm);
            }
            c.by_value = true;
        }
    }

    /// The coordinate values of a position.
    pub(crate) fn read_coords(&self, layout: &Layout, state: &[u8], out: &mut [u64]) {
        self.split(self.index(layout, state), out);
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

    /// Coordinate `ci`'s move table, if it has one: `t[m * size + v]`.
    pub(crate) fn move_table(&self, ci: usize) -> Option<&[u32]> {
        self.coords[ci].table.as_deref()
    }

    /// Number of coordinates.
    pub(crate) fn num_coords(&self) -> usize {
        self.coords.len()
    }

    /// Coordinate `ci`'s value after move `m`.
    #[inline]
    pub(crate) fn move_coord(
        &self,
        ci: usize,
        m: usize,
        v: u64,
        scratch: &mut (Vec<u8>, Vec<u8>),
    ) -> u64 {
        let c = &self.coords[ci];
        if let Some(v) = c.move_by_table(m, v) {
            return v;
        }
        if let (Kind::Component(i), Some(ex)) = (c.kind, &self.indexer) {
            let comp = &ex.indexer.components()[i];
            let layout = ex.indexer.layout();
            scratch.0.clear();
            scratch.0.extend_from_slice(&ex.template);
            scratch.1.clear();
            scratch.1.extend_from_slice(&ex.template);
            comp.unrank(v, &mut scratch.0);
            layout.compose_into(&scratch.0, &self.raw_moves[m], &mut scratch.1);
            return comp.rank(&scratch.1);
        }
        c.decode(v, &mut scratch.0);
        self.move_decoded(ci, m, &scratch.0, &mut scratch.1);
        c.encode(&scratch.1)
    }

    /// A coordinate's decoded form after a move.
    fn move_decoded(&self, ci: usize, m: usize, decoded: &[u8], out: &mut Vec<u8>) {
        let c = &self.coords[ci];
        let dest = &self.moves[m][c.orbit];
        out.clear();
        out.extend_from_slice(decoded);
        match c.kind {
            Kind::Pieces => {
                // decoded: per tracked piece, (slot, value).
                for p in 0..c.counts.len() {
                    let (to, tw) = dest[decoded[2 * p] as usize];
                    out[2 * p] = to;
                    out[2 * p + 1] =
                        ((decoded[2 * p + 1] as u32 + tw as u32) % c.radix[p] as u32) as u8;
                }
            }
            Kind::Arrangement => {
                for s in 0..c.n {
                    out[dest[s].0 as usize] = decoded[s];
                }
            }
            Kind::Twist { radix, .. } => {
                for s in 0..c.n {
                    let (to, tw) = dest[s];
                    out[to as usize] = ((decoded[s] as u32 + tw as u32) % radix as u32) as u8;
                }
            }
            Kind::LabeledTwist => {
                let n = c.n;
                for s in 0..n {
                    let (to, tw) = dest[s];
                    let label = decoded[s];
                    out[to as usize] = label;
                    out[n + to as usize] = if label == REST {
                        0
                    } else {
                        ((decoded[n + s] as u32 + tw as u32) % c.radix[label as usize] as u32) as u8
                    };
                }
            }
            // Moved through the index (see `move_coord`), never decoded.
            Kind::Component(_) => {}
        }
    }
}

/// A move table laid out move by move (`t[m * values + v]`, as
/// [`Projection::move_coord`] reads it) from one laid out value by value
/// (`rows[v * moves + m]`, as it is built in parallel).
fn move_major(rows: &[u32], moves: usize) -> Vec<u32> {
    transpose(rows, moves)
}

/// The inverse of [`move_major`]: `t[m * values + v]` to `t[v * moves + m]`.
fn by_value(table: &[u32], moves: usize) -> Vec<u32> {
    transpose(table, table.len() / moves.max(1))
}

/// The transpose of a matrix of `columns` columns, stored row by row.
fn transpose(matrix: &[u32], columns: usize) -> Vec<u32> {
    let rows = matrix.len() / columns.max(1);
    let mut out = vec![0u32; matrix.len()];
    for (r, row) in matrix.chunks_exact(columns.max(1)).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            out[c * rows + r] = x;
        }
    }
    out
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

/// `C(a, b)` for `a <= n`, `b <= k`, saturating (values that large are never
/// used: every rank fits the coordinate's size).
fn binomials(n: usize, k: usize) -> Vec<u64> {
    let mut t = vec![0u64; (n + 1) * (k + 1)];
    for a in 0..=n {
        t[a * (k + 1)] = 1;
        for b in 1..=k.min(a) {
            let left = t[(a - 1) * (k + 1) + b - 1];
            let right = if b < a { t[(a - 1) * (k + 1) + b] } else { 0 };
            t[a * (k + 1) + b] = left.saturating_add(right);
        }
    }
    t
}

/// Digit-wise sum of two orientation values (mixed radix, last digit least
/// significant).
fn add_digits(radix: &[u8], mut a: u64, mut b: u64) -> u64 {
    let mut out = 0u64;
    let mut scale = 1u64;
    for &r in radix.iter().rev() {
        let r = r as u64;
        out += ((a % r + b % r) % r) * scale;
        a /= r;
        b /= r;
        scale *= r;
    }
    out
}

/// Orientation index space of the tracked pieces.
fn ori_space(counts: &[u8], radix: &[u8]) -> Option<u64> {
    let mut s: u64 = 1;
    for (c, &cnt) in counts.iter().enumerate() {
        for _ in 0..cnt {
            s = s.checked_mul(radix[c] as u64)?;
        }
    }
    Some(s)
}

impl Coord {
    /// The value after move `m` by the move tables, if it has them.
    #[inline]
    fn move_by_table(&self, m: usize, v: u64) -> Option<u64> {
        let at = |values: u64, v: u64| {
            if self.by_value {
                (v * self.num_moves as u64 + m as u64) as usize
            } else {
                (m as u64 * values + v) as usize
            }
        };
        if let Some(t) = &self.table {
            return Some(t[at(self.size, v)] as u64);
        }
        let pt = self.pieces.as_ref()?;
        let (p, o) = (v / pt.ori_size, v % pt.ori_size);
        let at = at(pt.slots_size, p);
        let w = pt.twist[at] as u64;
        let o2 = match &pt.add {
            Some(add) => add[(o * pt.ori_size + w) as usize] as u64,
            None => add_digits(&self.radix[..self.counts.len()], o, w),
        };
        Some(pt.slots[at] as u64 * pt.ori_size + o2)
    }

    /// The move tables a fill builds for this coordinate with `m` moves:
    /// their entries and bytes per entry, or `None` if it gets none (and a
    /// fill would decode every entry).
    fn fill_tables(&self, m: u64) -> Option<(u64, u64)> {
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

    /// The value of this coordinate for a position.
    #[inline]
    fn read(&self, layout: &Layout, state: &[u8]) -> u64 {
        let perm = layout.perm(state, self.orbit);
        let ori = layout.ori(state, self.orbit);
        let n = self.n;
        match self.kind {
            Kind::Arrangement => {
                if self.counts.len() == n && n <= 64 {
                    lehmer(n, |s| self.class_of_id[perm[s] as usize])
                } else {
                    self.multiset_rank(|s| self.class_of_id[perm[s] as usize])
                }
            }
            Kind::Twist {
                radix, drop_last, ..
            } => {
                let digits = if drop_last { n - 1 } else { n };
                let mut v = 0u64;
                for &o in ori.iter().take(digits) {
                    v = v * radix as u64 + (self.value_of_code[o as usize] % radix) as u64;
                }
                v
            }
            Kind::Pieces => {
                let k = self.counts.len();
                let mut slot_of = [0u8; 64];
                let mut val_of = [0u8; 64];
                for s in 0..n {
                    let c = self.class_of_id[perm[s] as usize];
                    if c != REST {
                        slot_of[c as usize] = s as u8;
                        val_of[c as usize] =
                            self.value_of_code[ori[s] as usize] % self.radix[c as usize];
                    }
                }
                self.pieces_rank(&slot_of[..k], &val_of[..k])
            }
            Kind::LabeledTwist => {
                let mut labels = [REST; 256];
                let mut vals = [0u8; 256];
                for s in 0..n {
                    let c = self.class_of_id[perm[s] as usize];
                    labels[s] = c;
                    if c != REST {
                        vals[s] = self.value_of_code[ori[s] as usize] % self.radix[c as usize];
                    }
                }
                self.labeled_rank(&labels[..n], &vals[..n])
            }
            // Read through the index (see `Projection::index`).
            Kind::Component(_) => 0,
        }
    }

    fn pieces_rank(&self, slots: &[u8], vals: &[u8]) -> u64 {
        let n = self.n;
        let mut used: u64 = 0;
        let mut perm_rank = 0u64;
        let mut ori_rank = 0u64;
        for (c, (&s, &v)) in slots.iter().zip(vals).enumerate() {
            let below = (used & ((1u64 << s) - 1)).count_ones() as u64;
            perm_rank = perm_rank * (n - c) as u64 + s as u64 - below;
            used |= 1u64 << s;
            ori_rank = ori_rank * self.radix[c] as u64 + v as u64;
        }
        perm_rank * self.ori_size + ori_rank
    }

    fn labeled_rank(&self, labels: &[u8], vals: &[u8]) -> u64 {
        let perm_rank = self.multiset_rank(|s| labels[s]);
        let mut ori_rank = 0u64;
        for s in 0..self.n {
            if labels[s] != REST {
                ori_rank = ori_rank * self.radix[labels[s] as usize] as u64 + vals[s] as u64;
            }
        }
        perm_rank * self.ori_size + ori_rank
    }

    /// Multiset rank of the classes per slot: class by class, the rank of
    /// the slots it holds among those earlier classes left free, in the
    /// combinatorial number system (binomial lookups, no divisions).
    fn multiset_rank(&self, class: impl Fn(usize) -> u8) -> u64 {
        const FEW: usize = 8;
        let k = self.counts.len();
        if (1..=FEW).contains(&k) && self.n <= 64 {
            // One pass over the slots makes a mask of each class's slots;
            // then a slot's index among those the earlier classes left
            // free is a population count.
            // (Slots of later classes and REST go to a spare mask, without
            // a branch the data would mispredict.)
            let mut mask = [0u64; FEW + 1];
            match k {
                1 => mask[..1].copy_from_slice(&self.class_masks::<1>(&class)),
                2 => mask[..2].copy_from_slice(&self.class_masks::<2>(&class)),
                3 => mask[..3].copy_from_slice(&self.class_masks::<3>(&class)),
                4 => mask[..4].copy_from_slice(&self.class_masks::<4>(&class)),
                _ => {
                    for s in 0..self.n {
                        mask[(class(s) as usize).min(FEW)] |= 1 << s;
                    }
                }
            }
            let mut free_mask = u64::MAX;
            let mut free = self.n;
            let mut rank = 0u64;
            for (ci, &count) in self.counts.iter().enumerate() {
                let mut r = 0u64;
                let mut slots = mask[ci];
                let mut found = 0;
                while slots != 0 {
                    let s = slots.trailing_zeros();
                    slots &= slots - 1;
                    found += 1;
                    let idx = (free_mask & ((1u64 << s) - 1)).count_ones() as usize;
                    r += self.binomial(idx, found);
                }
                rank = rank * self.binomial(free, count as usize) + r;
                free -= count as usize;
                free_mask &= !mask[ci];
            }
            return rank;
        }
        let n = self.n;
        let mut taken = [false; 256];
        let mut free = n;
        let mut rank = 0u64;
        for (ci, &count) in self.counts.iter().enumerate() {
            let mut r = 0u64;
            let mut found = 0usize;
            let mut idx = 0usize;
            for (s, t) in taken.iter_mut().enumerate().take(n) {
                if *t {
                    continue;
                }
                if class(s) as usize == ci {
                    found += 1;
                    r += self.binomial(idx, found);
                    *t = true;
                }
                idx += 1;
            }
            rank = rank * self.binomial(free, count as usize) + r;
            free -= count as usize;
        }
        rank
    }

    /// Each of the first `K` classes' slots as a mask (`n <= 64`), kept in
    /// registers: a mask in memory would make every slot wait for the
    /// last slot's store.
    #[inline]
    fn class_masks<const K: usize>(&self, class: &impl Fn(usize) -> u8) -> [u64; K] {
        let mut mask = [0u64; K];
        for s in 0..self.n {
            let c = class(s) as usize;
            for (ci, m) in mask.iter_mut().enumerate() {
                *m |= ((c == ci) as u64) << s;
            }
        }
        mask
    }

    /// `C(n, k)` from the coordinate's table (zero when `k > n`).
    #[inline]
    fn binomial(&self, n: usize, k: usize) -> u64 {
        self.binomials[n * (self.max_count + 1) + k]
    }

    /// The decoded form of value `v`: Arrangement → class per slot; Twist →
    /// value per slot; Pieces → (slot, value) per piece; LabeledTwist →
    /// classes per slot then values per slot.
    fn decode(&self, v: u64, out: &mut Vec<u8>) {
        let n = self.n;
        out.clear();
        match self.kind {
            Kind::Arrangement => {
                out.resize(n, REST);
                self.multiset_unrank(v, out);
            }
            Kind::Twist {
                radix,
                drop_last,
                twist_total,
            } => {
                out.resize(n, 0);
                let digits = if drop_last { n - 1 } else { n };
                let mut x = v;
                let mut sum = 0u64;
                for s in (0..digits).rev() {
                    out[s] = (x % radix as u64) as u8;
                    x /= radix as u64;
                    sum += out[s] as u64;
                }
                if drop_last {
                    out[n - 1] = ((twist_total as u64 + radix as u64 - sum % radix as u64)
                        % radix as u64) as u8;
                }
            }
            Kind::Pieces => {
                let k = self.counts.len();
                out.resize(2 * k, 0);
                let ospace = self.ori_size;
                let mut perm_rank = v / ospace;
                let mut ori_rank = v % ospace;
                for c in (0..k).rev() {
                    let r = self.radix[c] as u64;
                    out[2 * c + 1] = (ori_rank % r) as u8;
                    ori_rank /= r;
                }
                let mut digits = [0u64; 64];
                for c in (0..k).rev() {
                    let base = (n - c) as u64;
                    digits[c] = perm_rank % base;
                    perm_rank /= base;
                }
                let mut used: u64 = 0;
                for c in 0..k {
                    let s = nth_free(used, digits[c]);
                    used |= 1u64 << s;
                    out[2 * c] = s as u8;
                }
            }
            Kind::LabeledTwist => {
                out.resize(2 * n, 0);
                let ospace = self.ori_size;
                let perm_rank = v / ospace;
                let mut ori_rank = v % ospace;
                let (labels, vals) = out.split_at_mut(n);
                labels.fill(REST);
                self.multiset_unrank(perm_rank, labels);
                for s in (0..n).rev() {
                    if labels[s] != REST {
                        let r = self.radix[labels[s] as usize] as u64;
                        vals[s] = (ori_rank % r) as u8;
                        ori_rank /= r;
                    }
                }
            }
            Kind::Component(_) => {}
        }
    }

    /// The value of a decoded form.
    fn encode(&self, d: &[u8]) -> u64 {
        match self.kind {
            Kind::Arrangement => {
                if self.counts.len() == self.n && self.n <= 64 {
                    lehmer(self.n, |s| d[s])
                } else {
                    self.multiset_rank(|s| d[s])
                }
            }
            Kind::Twist {
                radix, drop_last, ..
            } => {
                let digits = if drop_last { self.n - 1 } else { self.n };
                d.iter()
                    .take(digits)
                    .fold(0u64, |acc, &x| acc * radix as u64 + x as u64)
            }
            Kind::Pieces => {
                let k = self.counts.len();
                let slots: Vec<u8> = (0..k).map(|c| d[2 * c]).collect();
                let vals: Vec<u8> = (0..k).map(|c| d[2 * c + 1]).collect();
                self.pieces_rank(&slots, &vals)
            }
            Kind::LabeledTwist => self.labeled_rank(&d[..self.n], &d[self.n..]),
            Kind::Component(_) => 0,
        }
    }

    fn multiset_unrank(&self, v: u64, labels: &mut [u8]) {
        if self.counts.len() == self.n && self.n <= 64 {
            // Lehmer code: digit s is the class's index among those unused.
            let mut digits = [0u64; 64];
            let mut x = v;
            for s in (0..self.n).rev() {
                let base = (self.n - s) as u64;
                digits[s] = x % base;
                x /= base;
            }
            let mut used: u64 = 0;
            for s in 0..self.n {
                let c = nth_free(used, digits[s]);
                used |= 1u64 << c;
                labels[s] = c as u8;
            }
            return;
        }
        let n = self.n;
        let m = self.counts.len();
        // Mixed-radix digits, one per class, the last class least significant.
        let mut digits = [0u64; 256];
        let mut frees = [0usize; 256];
        let mut free = n;
        for (f, &c) in frees.iter_mut().zip(&self.counts) {
            *f = free;
            free -= c as usize;
        }
        let mut x = v;
        for ci in (0..m).rev() {
            let base = self.binomial(frees[ci], self.counts[ci] as usize);
            digits[ci] = x % base;
            x /= base;
        }
        labels[..n].fill(REST);
        for ci in 0..m {
            // Colex unrank: the positions (among free slots) of this class.
            let mut r = digits[ci];
            let mut chosen = [0usize; 256];
            let mut top = frees[ci];
            for j in (1..=self.counts[ci] as usize).rev() {
                let mut p = j - 1;
                while p + 1 < top && self.binomial(p + 1, j) <= r {
                    p += 1;
                }
                r -= self.binomial(p, j);
                chosen[j - 1] = p;
                top = p;
            }
            let mut idx = 0usize;
            let mut k = 0usize;
            let count = self.counts[ci] as usize;
            for label in labels.iter_mut().take(n) {
                if *label != REST {
                    continue;
                }
                if k < count && chosen[k] == idx {
                    *label = ci as u8;
                    k += 1;
                }
                idx += 1;
            }
        }
    }
}

/// Lehmer rank of a permutation of `0..n` given slot by slot.
#[inline]
fn lehmer(n: usize, value: impl Fn(usize) -> u8) -> u64 {
    let mut used: u64 = 0;
    let mut rank = 0u64;
    for s in 0..n {
        let x = value(s) as u32;
        let below = (used & ((1u64 << x) - 1)).count_ones() as u64;
        rank = rank * (n - s) as u64 + x as u64 - below;
        used |= 1u64 << x;
    }
    rank
}

/// The index of the `k`-th (0-based) zero bit of `used`.
#[inline]
fn nth_free(used: u64, k: u64) -> usize {
    let mut k = k;
    let mut s = 0;
    loop {
        if used & (1u64 << s) == 0 {
            if k == 0 {
                return s;
            }
            k -= 1;
        }
        s += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_core::{Orbit, PatternOrbit, Transformation};

    fn layout() -> Layout {
        Layout::new(vec![
            Orbit::new("E", 6, 2).unwrap(),
            Orbit::new("C", 4, 3).unwrap(),
        ])
        .unwrap()
    }

    fn goal(l: &Layout) -> Pattern {
        l.pattern(&[
            PatternOrbit {
                pieces: vec![0, 1, 2, 3, 4, 5],
                orientation: vec![0; 6],
                orientation_mod: None,
            },
            PatternOrbit {
                pieces: vec![0, 0, 1, 1],
                orientation: vec![0; 4],
                orientation_mod: None,
            },
        ])
        .unwrap()
    }

    fn moves(l: &Layout) -> Vec<Transformation> {
        vec![
            Transformation::from_bytes(
                l,
                vec![1, 2, 3, 0, 4, 5, 0, 0, 1, 1, 0, 0, 1, 2, 3, 0, 1, 0, 0, 2],
            )
            .unwrap(),
            Transformation::from_bytes(
                l,
                vec![0, 1, 5, 3, 2, 4, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 0, 0, 0, 0],
            )
            .unwrap(),
        ]
    }

    /// Every kind of coordinate, moved by table or by hand, agrees with
    /// reading the moved position.
    #[test]
    fn coordinates_follow_the_moves() {
        let l = layout();
        let g = goal(&l);
        let ms = moves(&l);
        let raw: Vec<&[u8]> = ms.iter().map(|t| t.as_bytes()).collect();
        for sels in [
            vec![OrbitSelection {
                orbit: 0,
                ids: vec![2, 4, 5],
                orientation: true,
            }],
            vec![OrbitSelection {
                orbit: 0,
                ids: (0..6).collect(),
                orientation: true,
            }],
            vec![OrbitSelection {
                orbit: 1,
                ids: vec![0],
                orientation: true,
            }],
            vec![
                OrbitSelection {
                    orbit: 1,
                    ids: vec![0, 1],
                    orientation: true,
                },
                OrbitSelection {
                    orbit: 0,
                    ids: vec![0, 3],
                    orientation: false,
                },
            ],
        ] {
            // The second move flips one edge alone: only the corners keep their total twist.
            let mut tabled = Projection::new(&l, &g, &sels, &[false, true]).unwrap();
            tabled.prepare(&l, &raw);
            // Without full move tables: split tables for tracked pieces, or none.
            let mut split = tabled.clone();
            split.prepare_with(&l, &raw, 0);
            // Laid out for a search, value by value.
            let mut by_value = [tabled.clone(), split.clone()];
            for p in &mut by_value {
                p.lay_out_for_search();
            }
            for p in [tabled, split].into_iter().chain(by_value) {
                let mut s = g.as_bytes().to_vec();
                let mut buf = s.clone();
                let mut values = vec![0u64; p.num_coords()];
                let mut carried = vec![0u64; p.num_coords()];
                p.read_coords(&l, &s, &mut carried);
                let mut scratch = (Vec::new(), Vec::new());
                for step in 0..40 {
                    let m = (step * 7 + step / 3) % ms.len();
                    p.split(p.index(&l, &s), &mut values);
                    let moved: Vec<u64> = (0..p.num_coords())
                        .map(|ci| p.move_coord(ci, m, values[ci], &mut scratch))
                        .collect();
                    l.compose_into(&s, raw[m], &mut buf);
                    std::mem::swap(&mut s, &mut buf);
                    assert_eq!(p.join(&moved), p.index(&l, &s), "{sels:?} step {step}");
                    // A search carries the coordinates from the start.
                    if p.moves_by_table() {
                        let before = carried.clone();
                        let index = p.step_coords(&before, m, &mut carried);
                        assert_eq!(index, p.index(&l, &s), "{sels:?} step {step}");
                    }
                }
            }
        }
    }

    /// A table read from the cache is looked up through an unprepared
    /// projection: preparing one (which a fill does) must not change how
    /// it indexes. It once moved a tabled coordinate last while filling.
    #[test]
    fn preparing_does_not_change_the_index() {
        let l = layout();
        let g = goal(&l);
        let ms = moves(&l);
        let raw: Vec<&[u8]> = ms.iter().map(|t| t.as_bytes()).collect();
        let sels = vec![
            OrbitSelection {
                orbit: 1,
                ids: vec![0, 1],
                orientation: true,
            },
            OrbitSelection {
                orbit: 0,
                ids: (0..6).collect(),
                orientation: true,
            },
        ];
        let mut stored = Projection::new(&l, &g, &sels, &[false, true]).unwrap();
        stored.arrange_for(ms.len());
        for limit in [MOVE_TABLE_LIMIT, 0] {
            let mut filled = stored.clone();
            filled.prepare_with(&l, &raw, limit);
            let mut s = g.as_bytes().to_vec();
            let mut buf = s.clone();
            for step in 0..40 {
                let m = (step * 5 + step / 2) % ms.len();
                l.compose_into(&s, raw[m], &mut buf);
                std::mem::swap(&mut s, &mut buf);
                assert_eq!(stored.index(&l, &s), filled.index(&l, &s), "step {step}");
            }
        }
    }

    #[test]
    fn decode_and_encode_are_inverse() {
        let l = layout();
        let g = goal(&l);
        let ms = moves(&l);
        let raw: Vec<&[u8]> = ms.iter().map(|t| t.as_bytes()).collect();
        let sels = vec![
            OrbitSelection {
                orbit: 0,
                ids: vec![2, 4, 5],
                orientation: true,
            },
            OrbitSelection {
                orbit: 1,
                ids: vec![0, 1],
                orientation: true,
            },
        ];
        // One class, and more classes than the ranks keep in registers.
        let one = vec![OrbitSelection {
            orbit: 0,
            ids: vec![3],
            orientation: false,
        }];
        let five = vec![OrbitSelection {
            orbit: 0,
            ids: vec![0, 1, 2, 4, 5],
            orientation: false,
        }];
        for sels in [sels, one, five] {
            let mut p = Projection::new(&l, &g, &sels, &[false, true]).unwrap();
            p.prepare(&l, &raw);
            for c in &p.coords {
                let mut buf = Vec::new();
                for v in 0..c.size {
                    c.decode(v, &mut buf);
                    assert_eq!(c.encode(&buf), v);
                }
            }
        }
    }
}
