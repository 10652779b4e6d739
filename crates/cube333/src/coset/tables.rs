//! A coset's tables: the phase-1 bound that finds the coset's
//! phase-1 sequences, the coset's own coordinates (corners, UD edges,
//! slice), and the dense move tables over them.

use super::*;
use twistor_core::index::{rank_permutation, unrank_permutation};

/// The phase-1 distance bound.
pub(super) struct Phase1Bound {
    /// The exact, symmetry-reduced table of the two-phase solver, if
    /// loaded.
    pub(super) full: Option<NibbleTable>,
    /// Exact distances of two projections, (slice, twist) and (slice,
    /// flip): lower bounds, and with the full table a filter read first
    /// (2 MB that stay in cache, where the full table's reads miss).
    pub(super) slice_twist: Vec<u8>,
    pub(super) slice_flip: Vec<u8>,
    /// Exact distances of the cosets near `H`.
    pub(super) near: NearCosets,
}

impl Phase1Bound {
    pub(super) fn build(c: &CoordTables, full: Option<NibbleTable>) -> Phase1Bound {
        let slice_move =
            |sl: usize, m: usize| c.slice_sorted_move[sl * 24 * N_MOVES + m] as usize / 24;
        let (slice_twist, slice_flip) = rayon::join(
            || {
                bfs(N_SLICE * N_TWIST, &ALL_MOVES, |x, m| {
                    let (sl, tw) = (x / N_TWIST, x % N_TWIST);
                    slice_move(sl, m) * N_TWIST + c.twist_move[tw * N_MOVES + m] as usize
                })
            },
            || {
                bfs(N_SLICE * N_FLIP, &ALL_MOVES, |x, m| {
                    let (sl, fl) = (x / N_FLIP, x % N_FLIP);
                    slice_move(sl, m) * N_FLIP + c.flip_move[fl * N_MOVES + m] as usize
                })
            },
        );
        Phase1Bound {
            full,
            slice_twist,
            slice_flip,
            near: NearCosets::build(c),
        }
    }

    /// The projections' bound.
    #[inline(always)]
    pub(super) fn projected(&self, twist: usize, flip: usize, slice: usize) -> u8 {
        self.slice_twist[slice * N_TWIST + twist].max(self.slice_flip[slice * N_FLIP + flip])
    }
}

/// Cosets at most this far from `H` are looked up in [`NearCosets`].
pub(super) const NEAR: usize = 4;

/// The 8505 cosets within [`NEAR`] moves of `H` and their distances, in
/// an open-addressed hash table small enough (128 KB) to stay in cache:
/// near the leaves of the phase-1 search, where every child needs a
/// distance of at most a few moves, it answers without the full table.
pub(super) struct NearCosets {
    /// `(index + 1) << 8 | distance`, 0 for an empty slot.
    pub(super) slots: Vec<u64>,
}

impl NearCosets {
    const BITS: u32 = 14;

    #[inline(always)]
    pub(super) fn slot(index: u64) -> usize {
        (index.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - Self::BITS)) as usize
    }

    pub(super) fn build(c: &CoordTables) -> NearCosets {
        let mut t = NearCosets {
            slots: vec![0; 1 << Self::BITS],
        };
        let mut frontier = vec![(0u16, 0u16, 0u16)];
        t.insert(0, 0);
        for d in 1..=NEAR {
            let mut next = Vec::new();
            for &(tw, fl, sl) in &frontier {
                for m in 0..N_MOVES {
                    let tw2 = c.twist_move[tw as usize * N_MOVES + m];
                    let fl2 = c.flip_move[fl as usize * N_MOVES + m];
                    let sl2 = c.slice_sorted_move[sl as usize * 24 * N_MOVES + m] / 24;
                    if t.get(tw2 as usize, fl2 as usize, sl2 as usize).is_none() {
                        t.insert(
                            Self::index(tw2 as usize, fl2 as usize, sl2 as usize),
                            d as u8,
                        );
                        next.push((tw2, fl2, sl2));
                    }
                }
            }
            frontier = next;
        }
        t
    }

    #[inline(always)]
    pub(super) fn index(twist: usize, flip: usize, slice: usize) -> u64 {
        ((twist * N_FLIP + flip) * N_SLICE + slice) as u64
    }

    pub(super) fn insert(&mut self, index: u64, d: u8) {
        let mask = self.slots.len() - 1;
        let mut i = Self::slot(index);
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = (index + 1) << 8 | d as u64;
    }

    /// The coset's distance, if at most [`NEAR`].
    #[inline(always)]
    pub(super) fn get(&self, twist: usize, flip: usize, slice: usize) -> Option<u8> {
        let key = Self::index(twist, flip, slice) + 1;
        let mask = self.slots.len() - 1;
        let mut i = Self::slot(key - 1);
        loop {
            let e = self.slots[i];
            if e == 0 {
                return None;
            }
            if e >> 8 == key {
                return Some(e as u8);
            }
            i = (i + 1) & mask;
        }
    }
}

/// Phase-1 coordinates of a cube, with the pieces phase 2 needs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub(super) twist: u16,
    pub(super) flip: u16,
    /// Slice edges' positions and order (0..11880; below 24 in `H`).
    pub(super) slice_sorted: u16,
    pub(super) corners: u16,
    /// Positions and order of UR UF UL UB.
    pub(super) u_edges: u16,
    /// Positions and order of DR DF DL DB.
    pub(super) d_edges: u16,
}

/// Where phase-1 solutions go.
pub(super) trait LeafSink {
    /// The position `y = g·s` reached, by its phase-2 coordinates.
    fn leaf(&mut self, corners: u16, ud_edges: u16, slice_perm: u16);
}

/// A move's action on the dense sets.
pub(super) struct DenseMove {
    /// `corners · m⁻¹`: the source row of a target row.
    pub(super) corner_src: Vec<u16>,
    /// `ud · m` in the low 16 bits, the parity of `ud` in bit 16.
    pub(super) edges: Vec<u32>,
    /// The slice-permutation sets' images, `[parity << 12 | set]`; `None`
    /// when the move leaves the slice alone (U and D turns).
    pub(super) slice_sets: Option<Vec<u16>>,
}

/// The tables the coset solver adds to the coordinate tables.
pub(super) struct CosetTables {
    /// `u_move[x * 18 + m]` for the UR UF UL UB coordinate.
    pub(super) u_move: Vec<u16>,
    /// Likewise for DR DF DL DB.
    pub(super) d_move: Vec<u16>,
    /// UD-edge permutation of `(u, order of d)`: `merge[u * 24 + d % 24]`,
    /// valid when both lie in slots 0..8.
    pub(super) merge: Vec<u16>,
    /// Parity (1 = odd) of each corner permutation.
    pub(super) corner_parity: Vec<u8>,
    /// Bit of each slice permutation among the 12 of its parity.
    pub(super) slice_bit: [u8; 24],
    /// The ten moves of `H`.
    pub(super) moves: Vec<DenseMove>,
}

/// Rank of a permutation of 0..4 (0..24).
pub(super) fn perm4_rank(p: [u8; 4]) -> u16 {
    rank_permutation(&p) as u16
}

/// The permutation of 0..4 with rank `r`.
pub(super) fn perm4_unrank(r: u16) -> [u8; 4] {
    let mut out = [0u8; 4];
    unrank_permutation(r as u64, &mut out);
    out
}

/// The coordinate of edges `first..first + 4`: `24 · comb + order`, with
/// `comb` the rank (combinatorial number system) of the four slots holding
/// them and `order` the rank of which of them sits in each slot, slots
/// taken in increasing order.
pub(super) fn edge4(c: &CubieCube, first: u8) -> u16 {
    let mut comb = 0usize;
    let mut k = 0;
    let mut order = [0u8; 4];
    for slot in 0..12 {
        let e = c.ep[slot];
        if (first..first + 4).contains(&e) {
            order[k] = e - first;
            k += 1;
            comb += binomial(slot, k);
        }
    }
    (comb * 24) as u16 + perm4_rank(order)
}

/// The four slots (increasing) of an [`edge4`] coordinate and the edge
/// (0..4 within the group) in each.
pub(super) fn edge4_slots(x: u16) -> ([u8; 4], [u8; 4]) {
    let mut comb = x as usize / 24;
    let mut slots = [0u8; 4];
    for k in (1..=4).rev() {
        let mut s = k - 1;
        while binomial(s + 1, k) <= comb {
            s += 1;
        }
        comb -= binomial(s, k);
        slots[k - 1] = s as u8;
    }
    (slots, perm4_unrank(x % 24))
}

/// A cube with edges `first..first + 4` as [`edge4`] `x` says and the
/// other edges in order in the other slots.
pub(super) fn set_edge4(c: &mut CubieCube, first: u8, x: u16) {
    let (slots, order) = edge4_slots(x);
    let mut ep = [u8::MAX; 12];
    for i in 0..4 {
        ep[slots[i] as usize] = first + order[i];
    }
    let mut others = (0..12u8).filter(|e| !(first..first + 4).contains(e));
    for e in ep.iter_mut() {
        if *e == u8::MAX {
            *e = others.next().unwrap_or(0);
        }
    }
    c.ep = ep;
}

impl CosetTables {
    pub(super) fn build(c: &CoordTables) -> CosetTables {
        let edge_move = |first: u8| -> Vec<u16> {
            let mut t = vec![0u16; N_EDGE4 * N_MOVES];
            for x in 0..N_EDGE4 {
                let mut cube = CubieCube::SOLVED;
                set_edge4(&mut cube, first, x as u16);
                for m in 0..N_MOVES {
                    let d = cube.apply_move(crate::moves::FaceTurn::from_index(m));
                    t[x * N_MOVES + m] = edge4(&d, first);
                }
            }
            t
        };
        let (u_move, d_move) = rayon::join(|| edge_move(0), || edge_move(4));
        let mut merge = vec![u16::MAX; N_EDGE4 * 24];
        for u in 0..N_EDGE4 {
            let (u_slots, u_order) = edge4_slots(u as u16);
            if u_slots[3] >= 8 {
                continue;
            }
            let mut d_slots = [0u8; 4];
            let mut k = 0;
            for s in 0..8u8 {
                if !u_slots.contains(&s) {
                    d_slots[k] = s;
                    k += 1;
                }
            }
            for od in 0..24u16 {
                let d_order = perm4_unrank(od);
                let mut cube = CubieCube::SOLVED;
                for i in 0..4 {
                    cube.ep[u_slots[i] as usize] = u_order[i];
                    cube.ep[d_slots[i] as usize] = 4 + d_order[i];
                }
                merge[u * 24 + od as usize] = coord::ud_edges(&cube);
            }
        }
        let parity_of = |set: &dyn Fn(&mut CubieCube), corners: bool| -> u8 {
            let mut cube = CubieCube::SOLVED;
            set(&mut cube);
            if corners {
                permutation_parity_odd(&cube.cp) as u8
            } else {
                permutation_parity_odd(&cube.ep) as u8
            }
        };
        let corner_parity: Vec<u8> = (0..N_CORNERS)
            .map(|x| parity_of(&|cube| coord::set_corners(cube, x as u16), true))
            .collect();
        let edge_parity: Vec<u8> = (0..N_UD_EDGES)
            .map(|x| parity_of(&|cube| coord::set_ud_edges(cube, x as u16), false))
            .collect();
        let slice_parity: [u8; 24] = std::array::from_fn(|p| {
            parity_of(&|cube| coord::set_slice_sorted(cube, p as u16), false)
        });
        let mut slice_bit = [0u8; 24];
        let mut slice_of_bit = [[0u8; 12]; 2];
        let mut seen = [0usize; 2];
        for p in 0..24 {
            let q = slice_parity[p] as usize;
            slice_bit[p] = seen[q] as u8;
            slice_of_bit[q][seen[q]] = p as u8;
            seen[q] += 1;
        }
        let moves = PHASE2_MOVES
            .iter()
            .map(|&m| {
                let m = m as usize;
                let inv = m / 3 * 3 + 2 - m % 3;
                let corner_src = (0..N_CORNERS)
                    .map(|x| c.corners_move[x * N_MOVES + inv])
                    .collect();
                let edges = (0..N_UD_EDGES)
                    .map(|x| {
                        c.ud_edges_move[x * N_MOVES + m] as u32 | (edge_parity[x] as u32) << 16
                    })
                    .collect();
                let moves_slice =
                    (0..24).any(|p| c.slice_sorted_move[p * N_MOVES + m] as usize != p);
                let slice_sets = moves_slice.then(|| {
                    let mut t = vec![0u16; 2 << 12];
                    for q in 0..2 {
                        for set in 0..1usize << 12 {
                            let mut out = 0u16;
                            for b in 0..12 {
                                if set >> b & 1 == 1 {
                                    let p = slice_of_bit[q][b] as usize;
                                    let p2 = c.slice_sorted_move[p * N_MOVES + m] as usize;
                                    out |= 1 << slice_bit[p2];
                                }
                            }
                            t[q << 12 | set] = out;
                        }
                    }
                    t
                });
                DenseMove {
                    corner_src,
                    edges,
                    slice_sets,
                }
            })
            .collect();
        CosetTables {
            u_move,
            d_move,
            merge,
            corner_parity,
            slice_bit,
            moves,
        }
    }

    pub(super) fn size_bytes(&self) -> usize {
        2 * (self.u_move.len() + self.d_move.len() + self.merge.len())
            + self.corner_parity.len()
            + self
                .moves
                .iter()
                .map(|m| {
                    2 * m.corner_src.len()
                        + 4 * m.edges.len()
                        + 2 * m.slice_sets.as_ref().map_or(0, |s| s.len())
                })
                .sum::<usize>()
    }
}

/// A sparse set's key of a position of `H`: corners, UD edges, slice
/// permutation, in that order of significance.
#[inline(always)]
pub(super) fn key(corners: u16, ud: u16, slice_perm: u16) -> u64 {
    ((corners as u64 * N_UD_EDGES as u64 + ud as u64) << 5) | slice_perm as u64
}

#[inline(always)]
pub(super) fn unkey(k: u64) -> (usize, usize, usize) {
    let ce = (k >> 5) as usize;
    (ce / N_UD_EDGES, ce % N_UD_EDGES, (k & 31) as usize)
}
