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
//!
//! The module holds the projection and its index ([`Projection`]); how
//! each coordinate reads, ranks and unranks positions is in `coords`, and
//! the move tables that move coordinates without reading positions in
//! `tables`.

mod coords;
mod tables;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use twistor_core::index::PositionIndexer;
use twistor_core::{Layout, Pattern, Transformation};

use coords::{binomials, multinomial, ori_space, Coord, Kind, REST};
pub(crate) use tables::component_table;
use tables::MOVE_TABLE_LIMIT;

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
    #[cfg(test)]
    pub(crate) fn join(&self, values: &[u64]) -> u64 {
        self.coords
            .iter()
            .zip(values)
            .fold(0u64, |acc, (c, &v)| acc * c.size + v)
    }

    /// The coordinate values of a position.
    pub(crate) fn read_coords(&self, layout: &Layout, state: &[u8], out: &mut [u64]) {
        self.split(self.index(layout, state), out);
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

    /// Coordinate `ci`'s values after each move (`out[m]`), by its move
    /// tables when it has them.
    #[inline]
    pub(crate) fn move_all(
        &self,
        ci: usize,
        v: u64,
        out: &mut [u64],
        scratch: &mut (Vec<u8>, Vec<u8>),
    ) {
        if !self.coords[ci].move_all_by_table(v, out) {
            for (m, o) in out.iter_mut().enumerate() {
                *o = self.move_coord(ci, m, v, scratch);
            }
        }
    }

    /// The index of the first `count` coordinates' values after move `m`
    /// (their mixed-radix number), `moved` holding each
    /// coordinate's values after every move ([`Projection::move_all`]),
    /// coordinate after coordinate.
    #[inline]
    pub(crate) fn join_after(&self, moved: &[u64], m: usize, count: usize) -> u64 {
        let nm = moved.len() / self.coords.len();
        (self.coords.iter().zip(moved[m..].iter().step_by(nm)))
            .take(count)
            .fold(0u64, |acc, (c, &v)| acc * c.size + v)
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
