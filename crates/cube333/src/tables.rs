//! Move tables and symmetry tables: the small tables (a few MB, computed in
//! a fraction of a second at start-up) that let the searches move and
//! symmetry-reduce coordinates without touching cubies.
//!
//! Symmetry classes: for a raw coordinate `x`, `class[x]` is its class and
//! `sym[x]` a symmetry `s` (of the 16 that keep the UD axis) with
//! `S_s · x · S_s⁻¹ = rep[class[x]]`. `stab[class]` is the bit set of
//! symmetries that fix the representative.

use std::sync::OnceLock;

use rayon::prelude::*;
use twistor_core::lazy::make_apart;

use crate::coord::*;
use crate::cubie::CubieCube;
use crate::moves::{FaceTurn, N_MOVES};
use crate::prune::{build_sym_nibbles, SymSpace};
use crate::symmetry::{flips_slice_edges, Symmetries, N_SYM_D4H};

/// Classes of the flip-UD-slice coordinate under the 16 symmetries.
pub const N_FLIPSLICE_CLASS: usize = 64430;
/// Classes of the corner permutation under the 16 symmetries.
pub const N_CORNER_CLASS: usize = 2768;
/// Classes of the slice-sorted coordinate under the 16 symmetries.
pub const N_SLICE_SORTED_CLASS: usize = 788;

/// The ten moves of phase 2 (`<U, D, R2, L2, F2, B2>`) as move indices.
pub const PHASE2_MOVES: [u8; 10] = [0, 1, 2, 4, 7, 9, 10, 11, 13, 16];

/// A symmetry reduction of a raw coordinate.
pub struct SymReduction {
    /// Class of each raw coordinate.
    pub class: Vec<u16>,
    /// Symmetry taking each raw coordinate to its class representative.
    pub sym: Vec<u8>,
    /// Raw coordinate of each class representative.
    pub rep: Vec<u32>,
    /// Bit set of the symmetries fixing each representative.
    pub stab: Vec<u16>,
    /// `class << 4 | sym` of each raw coordinate: one read instead of two
    /// in the searches' inner loops.
    pub packed: Vec<u32>,
}

impl SymReduction {
    /// Class and symmetry of the raw coordinate that move `m` makes of
    /// the representative of `class`, by the raw move table `moves`.
    #[inline]
    pub(crate) fn class_move(&self, moves: &[u16], class: usize, m: usize) -> (usize, usize) {
        let x = moves[self.rep[class] as usize * N_MOVES + m] as usize;
        (self.class[x] as usize, self.sym[x] as usize)
    }

    /// Builds the reduction of `n` raw coordinates given `conj(x, s)`.
    pub(crate) fn build(n: usize, conj: impl Fn(usize, usize) -> usize) -> SymReduction {
        let sy = Symmetries::get();
        let mut class = vec![u16::MAX; n];
        let mut sym = vec![0u8; n];
        let mut rep = Vec::new();
        let mut stab = Vec::new();
        for x in 0..n {
            if class[x] != u16::MAX {
                continue;
            }
            let c = rep.len() as u16;
            let mut st = 0u16;
            for s in 0..N_SYM_D4H {
                // y = S_s⁻¹ x S_s, so S_s y S_s⁻¹ = x.
                let y = conj(x, sy.inv[s] as usize);
                if y == x {
                    st |= 1 << s;
                }
                if class[y] == u16::MAX {
                    class[y] = c;
                    sym[y] = s as u8;
                }
            }
            rep.push(x as u32);
            stab.push(st);
        }
        let packed = class
            .iter()
            .zip(&sym)
            .map(|(&c, &s)| (c as u32) << 4 | s as u32)
            .collect();
        SymReduction {
            class,
            sym,
            rep,
            stab,
            packed,
        }
    }

    /// Number of classes.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.rep.len()
    }

    /// Number of raw coordinates in class `c`: 16 / |stabiliser|.
    #[cfg(test)]
    pub fn class_size(&self, c: usize) -> u64 {
        16 / self.stab[c].count_ones() as u64
    }
}

/// All move and symmetry tables.
pub struct CoordTables {
    /// `twist_move[t * 18 + m]`.
    pub twist_move: Vec<u16>,
    /// `flip_move[f * 18 + m]`.
    pub flip_move: Vec<u16>,
    /// `slice_sorted_move[s * 18 + m]`.
    pub slice_sorted_move: Vec<u16>,
    /// `slice_conj[s * 16 + t]`: the UD-slice places of `S_t · x · S_t⁻¹`.
    pub slice_conj: Vec<u16>,
    /// `slice_move[s * 18 + m]`: the UD-slice edges' places alone (the
    /// slice-sorted coordinate over 24), which is all phase 1 needs, in a
    /// table small enough to stay in the processor's nearest cache.
    pub slice_move: Vec<u16>,
    /// `corners_move[c * 18 + m]`.
    pub corners_move: Vec<u16>,
    /// `ud_edges_move[e * 18 + m]`, valid for phase-2 moves only.
    pub ud_edges_move: Vec<u16>,
    /// `twist_conj[t * 16 + s]`: twist of `S_s · x · S_s⁻¹`.
    pub twist_conj: Vec<u16>,
    /// `flip_conj[f * 16 + s]`: flip of `S_s · x · S_s⁻¹` when the slice
    /// edges are in the slice; see [`CoordTables::conj_flip`].
    pub flip_conj: Vec<u16>,
    /// Flip correction for symmetries that turn about UD by 90°, per slice.
    pub slice_flip_mask: Vec<u16>,
    /// `slice_sorted_conj[x * 16 + s]` (the solvers use it only through
    /// the symmetry reductions built from it).
    pub slice_sorted_conj: Vec<u16>,
    /// `corners_conj[c * 16 + s]` (likewise).
    #[cfg(test)]
    pub corners_conj: Vec<u16>,
    /// `ud_edges_conj[e * 16 + s]`.
    pub ud_edges_conj: Vec<u16>,
    /// `corner_comb_move[c * 18 + m]`.
    pub corner_comb_move: Vec<u8>,
    /// `corner_comb_conj[c * 16 + s]`: corner combination of
    /// `S_s · x · S_s⁻¹`.
    pub corner_comb_conj: Vec<u8>,
    /// Corner permutation classes.
    pub corner: SymReduction,
    /// What only the full two-phase tables, the optimal solver and the
    /// coset solver read, made on first use: a process that solves a few
    /// cubes with the compact tables never waits for them.
    full: OnceLock<FullReductions>,
}

/// The reductions and the depth table of [`CoordTables`] that the compact
/// tables do without.
struct FullReductions {
    flipslice: SymReduction,
    slice_sorted: SymReduction,
    corner_slice_depth: Vec<u8>,
}

/// `t[x * 18 + m]`: the coordinate after move `m`, for `n` coordinates.
/// Only each face's quarter turn is applied to a cube; its half and
/// three-quarter turns are read back from that column, as a coordinate's
/// image under a move depends on the coordinate alone.
fn move_table(
    n: usize,
    set: impl Fn(&mut CubieCube, u16),
    get: impl Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    let mut t = vec![0u16; n * N_MOVES];
    for x in 0..n {
        let mut c = CubieCube::SOLVED;
        set(&mut c, x as u16);
        for face in 0..6 {
            t[x * N_MOVES + 3 * face] = get(&c.apply_move(FaceTurn::from_index(3 * face)));
        }
    }
    for x in 0..n {
        for face in 0..6 {
            let quarter = |y: usize| t[y * N_MOVES + 3 * face] as usize;
            let twice = quarter(quarter(x));
            let thrice = quarter(twice);
            t[x * N_MOVES + 3 * face + 1] = twice as u16;
            t[x * N_MOVES + 3 * face + 2] = thrice as u16;
        }
    }
    t
}

/// `t[x * 16 + s]`: the coordinate of `S_s · x · S_s⁻¹`, for the 16
/// symmetries keeping the UD axis. Symmetry `8b + 2c + d` is
/// `F2^b · U4^c · LR2^d`, so only the three generators conjugate cubes;
/// the rest are read back from their columns.
fn conj_table(
    n: usize,
    set: impl Fn(&mut CubieCube, u16),
    get: impl Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    const LR2: usize = 1;
    const U4: usize = 2;
    const F2: usize = 8;
    let sy = Symmetries::get();
    let mut by = vec![[0u16; 3]; n];
    for (x, images) in by.iter_mut().enumerate() {
        let mut c = CubieCube::SOLVED;
        set(&mut c, x as u16);
        *images = [LR2, U4, F2].map(|s| get(&sy.conjugate(&c, s)));
    }
    let mut t = vec![0u16; n * N_SYM_D4H];
    for x in 0..n {
        for s in 0..N_SYM_D4H {
            let (b, c, d) = (s >> 3, (s >> 1) & 3, s & 1);
            let mut y = x;
            for (generator, times) in [d, c, b].into_iter().enumerate() {
                for _ in 0..times {
                    y = by[y][generator] as usize;
                }
            }
            t[x * N_SYM_D4H + s] = y as u16;
        }
    }
    t
}

impl CoordTables {
    /// The shared instance, computed on first use.
    pub fn get() -> &'static CoordTables {
        static T: OnceLock<CoordTables> = OnceLock::new();
        T.get_or_init(|| make_apart(CoordTables::compute))
    }

    fn compute() -> CoordTables {
        let ((twist_move, flip_move), (slice_sorted_move, (corners_move, ud_edges_move))) =
            rayon::join(
                || {
                    rayon::join(
                        || move_table(N_TWIST, set_twist, twist),
                        || move_table(N_FLIP, set_flip, flip),
                    )
                },
                || {
                    rayon::join(
                        || move_table(N_SLICE_SORTED, set_slice_sorted, slice_sorted),
                        || {
                            rayon::join(
                                || move_table(N_CORNERS, set_corners, corners),
                                || {
                                    // Other moves take edges out of phase 2; leave them 0.
                                    let mut t = vec![0u16; N_UD_EDGES * N_MOVES];
                                    for x in 0..N_UD_EDGES {
                                        let mut c = CubieCube::SOLVED;
                                        set_ud_edges(&mut c, x as u16);
                                        for &m in &PHASE2_MOVES {
                                            let d = c.apply_move(FaceTurn::from_index(m as usize));
                                            t[x * N_MOVES + m as usize] = ud_edges(&d);
                                        }
                                    }
                                    t
                                },
                            )
                        },
                    )
                },
            );
        let ((twist_conj, flip_conj), (slice_sorted_conj, (corners_conj, ud_edges_conj))) =
            rayon::join(
                || {
                    rayon::join(
                        || conj_table(N_TWIST, set_twist, twist),
                        || conj_table(N_FLIP, set_flip, flip),
                    )
                },
                || {
                    rayon::join(
                        || conj_table(N_SLICE_SORTED, set_slice_sorted, slice_sorted),
                        || {
                            rayon::join(
                                || conj_table(N_CORNERS, set_corners, corners),
                                || conj_table(N_UD_EDGES, set_ud_edges, ud_edges),
                            )
                        },
                    )
                },
            );
        // The eo vector that is 1 where exactly one of "slot is in the
        // slice" and "edge there is a slice edge" holds.
        let slice_flip_mask: Vec<u16> = (0..N_SLICE)
            .map(|sl| {
                let mut c = CubieCube::SOLVED;
                set_slice_sorted(&mut c, (sl * 24) as u16);
                for i in 0..12 {
                    c.eo[i] = ((c.ep[i] >= 8) != (i >= 8)) as u8;
                }
                flip(&c)
            })
            .collect();
        let slice_conj_of =
            |sl: usize, s: usize| slice_sorted_conj[sl * 24 * N_SYM_D4H + s] as usize / 24;
        let corner =
            SymReduction::build(N_CORNERS, |x, s| corners_conj[x * N_SYM_D4H + s] as usize);
        let slice_conj: Vec<u16> = (0..N_SLICE * N_SYM_D4H)
            .map(|i| slice_conj_of(i / N_SYM_D4H, i % N_SYM_D4H) as u16)
            .collect();
        let set_comb = |c: &mut CubieCube, x: u16| set_corner_comb(c, x as u8);
        let get_comb = |c: &CubieCube| corner_comb(c) as u16;
        let narrow = |t: Vec<u16>| t.into_iter().map(|x| x as u8).collect::<Vec<u8>>();
        let corner_comb_move = narrow(move_table(N_CORNER_COMB, set_comb, get_comb));
        let corner_comb_conj = narrow(conj_table(N_CORNER_COMB, set_comb, get_comb));
        let slice_move = (0..N_SLICE * N_MOVES)
            .map(|i| slice_sorted_move[(i / N_MOVES) * 24 * N_MOVES + i % N_MOVES] / 24)
            .collect();
        CoordTables {
            twist_move,
            flip_move,
            slice_sorted_move,
            slice_conj,
            slice_move,
            corners_move,
            ud_edges_move,
            twist_conj,
            flip_conj,
            slice_flip_mask,
            corner_comb_move,
            corner_comb_conj,
            slice_sorted_conj,
            #[cfg(test)]
            corners_conj,
            ud_edges_conj,
            corner,
            full: OnceLock::new(),
        }
    }

    /// The flip-UD-slice and slice-sorted reductions and the (corners,
    /// slice permutation) depths, from the tables made eagerly.
    fn compute_full(&self) -> FullReductions {
        let slice_conj = |sl: usize, s: usize| self.slice_conj[sl * N_SYM_D4H + s] as usize;
        let flipslice = || {
            SymReduction::build(N_SLICE * N_FLIP, |x, s| {
                let (sl, fl) = (x / N_FLIP, x % N_FLIP);
                let sl2 = slice_conj(sl, s);
                let mut f2 = self.flip_conj[fl * N_SYM_D4H + s];
                if flips_slice_edges(s) {
                    f2 ^= self.slice_flip_mask[sl2];
                }
                sl2 * N_FLIP + f2 as usize
            })
        };
        let slice_sorted = || {
            SymReduction::build(N_SLICE_SORTED, |x, s| {
                self.slice_sorted_conj[x * N_SYM_D4H + s] as usize
            })
        };
        let corner_slice_depth = || {
            CornerSliceSpace {
                corner: &self.corner,
                corners_move: &self.corners_move,
                slice_sorted_move: &self.slice_sorted_move,
                slice_sorted_conj: &self.slice_sorted_conj,
            }
            .depths()
        };
        let (flipslice, (corner_slice_depth, slice_sorted)) =
            rayon::join(flipslice, || rayon::join(corner_slice_depth, slice_sorted));
        FullReductions {
            flipslice,
            slice_sorted,
            corner_slice_depth,
        }
    }

    #[inline]
    fn full(&self) -> &FullReductions {
        self.full.get_or_init(|| make_apart(|| self.compute_full()))
    }

    /// Flip-UD-slice (`slice * 2048 + flip`) classes.
    #[inline]
    pub fn flipslice(&self) -> &SymReduction {
        &self.full().flipslice
    }

    /// Slice-sorted classes.
    #[inline]
    pub fn slice_sorted_classes(&self) -> &SymReduction {
        &self.full().slice_sorted
    }

    /// Distance to solved of (corners, slice permutation) in phase 2:
    /// `corner_slice_depth()[c * 24 + p]`.
    #[inline]
    pub fn corner_slice_depth(&self) -> &[u8] {
        &self.full().corner_slice_depth
    }

    /// Flip of `S_s · x · S_s⁻¹` given the flip of `x` and the slice
    /// coordinate (0..495) of the conjugate.
    #[inline]
    pub fn conj_flip(&self, flip: u16, s: usize, conj_slice: usize) -> u16 {
        let f = self.flip_conj[flip as usize * N_SYM_D4H + s];
        if flips_slice_edges(s) {
            f ^ self.slice_flip_mask[conj_slice]
        } else {
            f
        }
    }

    /// Class and symmetry of a flip-UD-slice pair.
    #[inline]
    pub fn flipslice_class(&self, slice: usize, flip: usize) -> (usize, usize) {
        let x = slice * N_FLIP + flip;
        (
            self.flipslice().class[x] as usize,
            self.flipslice().sym[x] as usize,
        )
    }

    /// Class and symmetry of the corner permutation that move `m` makes of
    /// the representative of corner class `class`.
    #[inline]
    pub fn corner_class_move(&self, class: usize, m: usize) -> (usize, usize) {
        self.corner.class_move(&self.corners_move, class, m)
    }
}

/// Phase 2's corner permutations by symmetry class × the slice edges'
/// permutation (2768 · 24 entries): the space whose exact distances
/// [`CornerSliceSpace::depths`] spreads to every corner permutation.
struct CornerSliceSpace<'a> {
    corner: &'a SymReduction,
    corners_move: &'a [u16],
    slice_sorted_move: &'a [u16],
    slice_sorted_conj: &'a [u16],
}

impl SymSpace for CornerSliceSpace<'_> {
    fn n_classes(&self) -> usize {
        self.corner.rep.len()
    }
    fn n_inner(&self) -> usize {
        N_SLICE_PERM
    }
    fn moves(&self) -> &[u8] {
        &PHASE2_MOVES
    }
    #[inline]
    fn class_move(&self, class: usize, m: usize) -> (usize, usize) {
        self.corner.class_move(self.corners_move, class, m)
    }
    #[inline]
    fn inner_move(&self, inner: usize, m: usize) -> usize {
        self.slice_sorted_move[inner * N_MOVES + m] as usize
    }
    #[inline]
    fn inner_conj(&self, inner: usize, s: usize) -> usize {
        self.slice_sorted_conj[inner * N_SYM_D4H + s] as usize
    }
    fn stab(&self, class: usize) -> u16 {
        self.corner.stab[class]
    }
}

impl CornerSliceSpace<'_> {
    /// Exact phase-2 distances of (corner permutation, slice permutation),
    /// `40320 · 24` bytes: a breadth-first search over the 66,432 classes
    /// (a sixteenth of the plain search's work, which was the longest
    /// part of a cold start), read back through each corner
    /// permutation's class and symmetry.
    fn depths(&self) -> Vec<u8> {
        let reduced = build_sym_nibbles(self);
        let n = N_SLICE_PERM;
        (0..N_CORNERS * n)
            .into_par_iter()
            .with_min_len(1 << 14)
            .map(|x| {
                let p = self.corner.packed[x / n] as usize;
                let i = (p >> 4) * n + self.inner_conj(x % n, p & 15);
                reduced[i >> 1] >> ((i & 1) * 4) & 15
            })
            .collect()
    }
}

/// Exact phase-2 distances of (corner permutation, slice permutation) by a
/// plain breadth-first search: what the reduced search must give.
#[cfg(test)]
fn corner_slice_bfs(corners_move: &[u16], slice_sorted_move: &[u16]) -> Vec<u8> {
    twistor_core::distances::breadth_first(N_CORNERS * N_SLICE_PERM, [0], |x, visit| {
        let (c, p) = (x / 24, x % 24);
        for &m in &PHASE2_MOVES {
            let c2 = corners_move[c * N_MOVES + m as usize] as usize;
            let p2 = slice_sorted_move[p * N_MOVES + m as usize] as usize;
            visit.to(c2 * 24 + p2);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_core::random::SeededRng;

    #[test]
    fn class_counts_match_kociemba() {
        let t = CoordTables::get();
        assert_eq!(t.flipslice().len(), N_FLIPSLICE_CLASS);
        assert_eq!(t.corner.len(), N_CORNER_CLASS);
        assert_eq!(t.slice_sorted_classes().len(), N_SLICE_SORTED_CLASS);
        let total: u64 = (0..t.flipslice().len())
            .map(|c| t.flipslice().class_size(c))
            .sum();
        assert_eq!(total, (N_SLICE * N_FLIP) as u64);
    }

    /// The coordinate-level conjugation (with the slice-edge flip
    /// correction) agrees with conjugating cubies.
    #[test]
    fn coordinate_conjugation_matches_cubies() {
        let t = CoordTables::get();
        let sy = Symmetries::get();
        let mut rng = SeededRng::new(99);
        for _ in 0..300 {
            let c = CubieCube::random(|| rng.next_u64());
            for s in 0..N_SYM_D4H {
                let d = sy.conjugate(&c, s);
                assert_eq!(t.twist_conj[twist(&c) as usize * 16 + s], twist(&d));
                assert_eq!(
                    t.slice_sorted_conj[slice_sorted(&c) as usize * 16 + s],
                    slice_sorted(&d)
                );
                assert_eq!(t.corners_conj[corners(&c) as usize * 16 + s], corners(&d));
                assert_eq!(
                    t.corner_comb_conj[corner_comb(&c) as usize * 16 + s],
                    corner_comb(&d)
                );
                assert_eq!(t.conj_flip(flip(&c), s, slice(&d) as usize), flip(&d));
            }
            let (cls, s) = t.flipslice_class(slice(&c) as usize, flip(&c) as usize);
            let d = sy.conjugate(&c, s);
            assert_eq!(
                t.flipslice().rep[cls] as usize,
                slice(&d) as usize * N_FLIP + flip(&d) as usize
            );
        }
    }

    /// The tables read back from generators against every move and
    /// symmetry applied to a cube, for every coordinate.
    #[test]
    fn tables_from_generators_match_cubes_for_every_coordinate() {
        fn check(
            n: usize,
            set: impl Fn(&mut CubieCube, u16),
            get: impl Fn(&CubieCube) -> u16,
            every_move: bool,
        ) {
            let sy = Symmetries::get();
            let moves = if every_move {
                move_table(n, &set, &get)
            } else {
                Vec::new()
            };
            let conj = conj_table(n, &set, &get);
            for x in 0..n {
                let mut c = CubieCube::SOLVED;
                set(&mut c, x as u16);
                for m in FaceTurn::all().filter(|_| every_move) {
                    assert_eq!(moves[x * N_MOVES + m.index()], get(&c.apply_move(m)));
                }
                for s in 0..N_SYM_D4H {
                    assert_eq!(conj[x * N_SYM_D4H + s], get(&sy.conjugate(&c, s)));
                }
            }
        }
        check(N_TWIST, set_twist, twist, true);
        check(N_FLIP, set_flip, flip, true);
        check(N_SLICE_SORTED, set_slice_sorted, slice_sorted, true);
        check(N_CORNERS, set_corners, corners, true);
        let set_comb = |c: &mut CubieCube, x: u16| set_corner_comb(c, x as u8);
        check(N_CORNER_COMB, set_comb, |c| corner_comb(c) as u16, true);
        // Only phase 2's moves keep the U and D edges apart.
        check(N_UD_EDGES, set_ud_edges, ud_edges, false);
    }

    #[test]
    fn move_tables_match_cubies() {
        let t = CoordTables::get();
        let mut rng = SeededRng::new(1);
        for _ in 0..100 {
            let c = CubieCube::random(|| rng.next_u64());
            for m in FaceTurn::all() {
                let d = c.apply_move(m);
                let i = m.index();
                assert_eq!(t.twist_move[twist(&c) as usize * 18 + i], twist(&d));
                assert_eq!(t.flip_move[flip(&c) as usize * 18 + i], flip(&d));
                assert_eq!(
                    t.slice_sorted_move[slice_sorted(&c) as usize * 18 + i],
                    slice_sorted(&d)
                );
                assert_eq!(t.corners_move[corners(&c) as usize * 18 + i], corners(&d));
                assert_eq!(
                    t.corner_comb_move[corner_comb(&c) as usize * 18 + i],
                    corner_comb(&d)
                );
            }
        }
    }

    #[test]
    fn corner_slice_depths_by_symmetry_equal_a_plain_search() {
        let t = CoordTables::get();
        assert_eq!(
            t.corner_slice_depth().to_vec(),
            corner_slice_bfs(&t.corners_move, &t.slice_sorted_move)
        );
    }

    #[test]
    fn corner_slice_depths_are_a_distance() {
        let t = CoordTables::get();
        let d = t.corner_slice_depth();
        assert!(d.iter().all(|&x| x != u8::MAX));
        // Neighbours differ by at most one.
        for x in (0..d.len()).step_by(97) {
            for &m in &PHASE2_MOVES {
                let c2 = t.corners_move[(x / 24) * 18 + m as usize] as usize;
                let p2 = t.slice_sorted_move[(x % 24) * 18 + m as usize] as usize;
                assert!(d[x].abs_diff(d[c2 * 24 + p2]) <= 1);
            }
        }
    }
}
