//! The reduction's tables: move tables on the phases' coordinates and
//! their pruning tables, all derived from the sticker model.
//!
//! | phase | goal | moves | coordinate | table |
//! |---|---|---|---|---|
//! | 1 | one colour pair's 8 centres on one pair of opposite faces | 27: all outer turns, `Uw Rw Fw` | which 8 of 24 centre slots (735,471) | 735,471 bytes |
//! | 2 | (frame turned so that pair is on R/L) the other 16 centres split into U/D and F/B, the R/L centres in a pattern phase 3 can solve, the wings in an even permutation | 23: outer turns, `Uw2 Rw Rw2 Rw' Fw2` | which 8 of the 16 U/D/F/B slots hold one pair (12,870) × the R/L pattern (70) × wing parity | 1,801,800 bytes |
//! | 3 | centres solved, wings paired, the 3x3x3 left solvable | 17: `U D F B`, `R2 L2 Uw2 Rw2 Fw2` | centres: three 4-of-8 patterns and a parity bit (686,000, one table per way the pairs lie on the axes); edges: the pairing permutation of 12 | 6 × 686,000 bytes; the pairings within 7 moves in a hash table, within 8 and within 9 in bit arrays |
//!
//! Phase 3's moves keep each wing in one of two orbits of 12 slots (like
//! the 3x3x3's edge orientation), with one orbit slot in each of the 12
//! edge positions: phase 2's solutions are kept only when each edge's two
//! wings lie one in each orbit (about one in 1,320), and then the pairing
//! is a permutation P of 12 — which low wing belongs with the high wing in
//! each edge position — that phase 3 must bring to the identity.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;
use twistor_core::lazy::make_apart;
use twistor_core::store::{self, PayloadLen, StoreEvent, TableBytes, TableKey, TableStore};

use crate::coords::{masks, rank12, Binomials};

use crate::cube::{model, odd, Cube444, Move444};

/// Moves of phase 1: every outer turn and the wide turns of U, R, F.
fn phase1_moves() -> Vec<usize> {
    (0..Move444::COUNT)
        .filter(|&i| {
            let m = Move444::from_index(i);
            !m.is_wide() || m.face() < 3
        })
        .collect()
}

fn index(face: usize, wide: bool, amount: usize) -> usize {
    face * 6 + wide as usize * 3 + amount - 1
}

/// Moves of phase 2 (R/L the solved axis): outer turns and `Uw2 Rw Rw2
/// Rw' Fw2`.
fn phase2_moves() -> Vec<usize> {
    let mut v: Vec<usize> = (0..6)
        .flat_map(|f| (1..=3).map(move |a| index(f, false, a)))
        .collect();
    v.extend([
        index(0, true, 2),
        index(1, true, 1),
        index(1, true, 2),
        index(1, true, 3),
        index(2, true, 2),
    ]);
    v
}

/// Moves of phase 3: `U D F B`, `R2 L2 Uw2 Rw2 Fw2`.
fn phase3_moves() -> Vec<usize> {
    let mut v: Vec<usize> = [0, 3, 2, 5]
        .into_iter()
        .flat_map(|f| (1..=3).map(move |a| index(f, false, a)))
        .collect();
    v.extend([
        index(1, false, 2),
        index(4, false, 2),
        index(0, true, 2),
        index(1, true, 2),
        index(2, true, 2),
    ]);
    v
}

/// Whether `next` may follow `last` (`None` at the start): turns of one
/// axis commute, so they come in one order only, and never twice the
/// same layers in a row.
#[inline]
pub(crate) fn may_follow(last: Option<usize>, next: usize) -> bool {
    let Some(last) = last else { return true };
    let (a, b) = (last / 6, next / 6);
    if a % 3 != b % 3 {
        return true;
    }
    let key = |i: usize| (i / 6 / 3) * 2 + (i / 3) % 2;
    key(next) > key(last)
}

/// Each move's action on the pieces.
pub(crate) struct PieceMoves {
    /// After the move, centre `i` holds what centre `centre[m][i]` held.
    pub centre: Vec<[u8; 24]>,
    /// The same for the wings.
    pub wing: Vec<[u8; 24]>,
    /// Whether the move permutes the corners oddly.
    pub corner_odd: Vec<bool>,
    /// Whether it permutes the wings oddly.
    pub wing_odd: Vec<bool>,
}

impl PieceMoves {
    fn new() -> PieceMoves {
        let m = model();
        let p = &m.pieces;
        let mut out = PieceMoves {
            centre: Vec::new(),
            wing: Vec::new(),
            corner_odd: Vec::new(),
            wing_odd: Vec::new(),
        };
        for perm in &m.moves {
            let centre: [u8; 24] = std::array::from_fn(|i| {
                let from = perm[p.centres[i]] as usize;
                p.centres
                    .iter()
                    .position(|&s| s == from)
                    .expect("centres go to centres") as u8
            });
            let wing: [u8; 24] = std::array::from_fn(|w| {
                let from = perm[p.wings[w][0]] as usize;
                p.wings
                    .iter()
                    .position(|ws| ws[0] == from)
                    .expect("wings keep their handedness") as u8
            });
            let corner: [u8; 8] = std::array::from_fn(|c| {
                let from = perm[p.corners[c][0]] as usize;
                p.corners
                    .iter()
                    .position(|cs| cs.contains(&from))
                    .expect("corners go to corners") as u8
            });
            out.corner_odd.push(odd(&corner));
            out.wing_odd.push(odd(&wing));
            out.centre.push(centre);
            out.wing.push(wing);
        }
        out
    }
}

/// Which `k` of a list of centre slots hold a colour, ranked.
pub(crate) struct Subset {
    /// The centre slots, in bit order.
    pub slots: Vec<usize>,
    /// Every mask with `k` bits, by rank.
    pub masks: Vec<u32>,
}

impl Subset {
    fn new(slots: Vec<usize>, k: u32) -> Subset {
        let n = slots.len() as u32;
        Subset {
            slots,
            masks: masks(n, k),
        }
    }

    /// The mask of the slots whose colour satisfies `pred`.
    pub(crate) fn mask(&self, centres: &[u8; 24], pred: impl Fn(u8) -> bool) -> u32 {
        self.slots
            .iter()
            .enumerate()
            .filter(|&(_, &s)| pred(centres[s]))
            .fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The mask after a move's centre permutation.
    fn moved(&self, mask: u32, centre: &[u8; 24]) -> u32 {
        let mut out = 0;
        for (i, &s) in self.slots.iter().enumerate() {
            let from = centre[s] as usize;
            let j = self
                .slots
                .iter()
                .position(|&t| t == from)
                .expect("the phase's moves keep these slots among themselves");
            if mask >> j & 1 == 1 {
                out |= 1 << i;
            }
        }
        out
    }

    /// `table[rank * moves.len() + k]`: the rank after move `moves[k]`.
    fn move_table(&self, bin: &Binomials, moves: &[usize], pm: &PieceMoves) -> Vec<u16> {
        let mut t = Vec::with_capacity(self.masks.len() * moves.len());
        for &mask in &self.masks {
            for &m in moves {
                t.push(bin.rank(self.moved(mask, &pm.centre[m])) as u16);
            }
        }
        t
    }
}

/// Distances by breadth-first search from `goals` over `n` states, each
/// move given by `next(state, k)` for `k` in `0..moves`.
fn bfs(n: usize, goals: &[usize], moves: usize, next: impl Fn(usize, usize) -> usize) -> Vec<u8> {
    twistor_core::distances::breadth_first(n, goals.iter().copied(), |s, visit| {
        for k in 0..moves {
            visit.to(next(s, k));
        }
    })
}

/// How far phase 3's pairings are from paired: exactly up to
/// [`NEAR_DEPTH`] moves (an open-addressing hash table), then whether
/// within 8 and within 9 moves (a bit per even permutation each); 10 for
/// everything else. (The whole table, 12!/2 entries, would take minutes
/// to build.) The bits are read first, farthest first: most pairings the
/// search meets are 10 away, which then takes one read.
///
/// The bits for 9 take most of a cold build and make phase 3 about three
/// times faster, so they may come later
/// ([`Tables::complete_pairing`]): until then the search prunes with 9
/// for every pairing beyond 8, and reads a pairing's exact distance where
/// it orders its starts ([`Tables::pairing_estimate`]), so its answers do
/// not change when the bits arrive.
pub(crate) struct PairingTable {
    keys: Vec<u32>,
    depths: Vec<u8>,
    shift: u32,
    /// Bits by even rank: within 8 moves.
    within8: TableBytes,
    /// Bits by even rank: within 9 moves, once built or loaded.
    within9: OnceLock<TableBytes>,
    /// Pairings stored exactly.
    pub near_count: usize,
}

/// Pairings within this many moves are in the hash table.
pub(crate) const NEAR_DEPTH: u8 = 7;

/// The rank of an even permutation among the even ones (the Lehmer rank
/// of its odd twin, the last two entries swapped, differs in the last bit).
#[inline]
fn even_rank(p: &[u8; 12]) -> u32 {
    rank12(p) >> 1
}

const EVEN_PERMS: usize = 239_500_800;
/// Bytes of one bit array over the even permutations.
const FAR_BYTES: usize = EVEN_PERMS.div_ceil(64) * 8;

impl PairingTable {
    fn new() -> PairingTable {
        let capacity = 1usize << 20;
        PairingTable {
            keys: vec![0; capacity],
            depths: vec![0; capacity],
            shift: 32 - capacity.trailing_zeros(),
            within8: TableBytes::new(Vec::new()),
            within9: OnceLock::new(),
            near_count: 0,
        }
    }

    #[inline]
    fn slot(&self, key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> self.shift) as usize
    }

    /// A lower bound on the moves to pair the edges: exact up to 9 with
    /// the bits for 9, up to 8 without.
    #[inline]
    pub(crate) fn get(&self, p: &[u8; 12]) -> u8 {
        let r = even_rank(p);
        if let Some(within9) = self.within9.get() {
            if !byte_bit(within9, r as usize) {
                return 10;
            }
        }
        self.at_most_8(r).unwrap_or(9)
    }

    /// The distance of the pairing of even rank `r` if it is 8 or less.
    #[inline]
    fn at_most_8(&self, r: u32) -> Option<u8> {
        byte_bit(&self.within8, r as usize).then(|| self.near(r).unwrap_or(8))
    }

    #[inline]
    fn near(&self, rank: u32) -> Option<u8> {
        let key = rank + 1;
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                return Some(self.depths[i]);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    fn insert_near(&mut self, rank: u32, depth: u8) -> bool {
        let key = rank + 1;
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                return false;
            }
            if k == 0 {
                self.keys[i] = key;
                self.depths[i] = depth;
                self.near_count += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn bytes(&self) -> usize {
        self.keys.len() * 5 + self.within8.len() + self.within9.get().map_or(0, |b| b.len())
    }
}

#[inline]
fn byte_bit(bytes: &[u8], i: usize) -> bool {
    bytes[i >> 3] >> (i & 7) & 1 == 1
}

/// The even permutation of even rank `r` ([`even_rank`]'s inverse).
fn even_permutation(r: u64) -> [u8; 12] {
    let mut p = [0u8; 12];
    twistor_core::index::unrank_permutation(2 * r, &mut p);
    if twistor_core::index::permutation_parity(&p) == 1 {
        p.swap(10, 11);
    }
    p
}

/// The store's key of the pairings' bits for `depth` moves.
fn key_at(depth: u8) -> TableKey {
    TableKey::new(
        format!("444-pairing-{depth}"),
        store::layout_version::CUBE444,
    )
}

/// The bytes of `bits`, little-endian words in order.
fn bytes_of(bits: &[AtomicU64]) -> Vec<u8> {
    (bits.iter())
        .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes())
        .collect()
}

/// Sets a bit.
#[inline]
fn set_atomic_bit(bits: &[AtomicU64], r: u32) {
    bits[(r >> 6) as usize].fetch_or(1 << (r & 63), Ordering::Relaxed);
}

/// All of the reduction's tables.
pub(crate) struct Tables {
    pub bin: Binomials,
    pub pm: PieceMoves,
    // Phase 1.
    pub p1_moves: Vec<usize>,
    /// Per move, per byte of the 24-bit centre mask, the moved bits.
    pub mask_move: Vec<[[u32; 256]; 3]>,
    pub prun1: Vec<u8>,
    /// The centre masks of the three axes (U/D, R/L, F/B slots).
    pub axis_masks: [u32; 3],
    /// Per axis, a rotation (index into the model's rotations) taking it
    /// to R/L.
    pub rot_for_axis: [usize; 3],
    // Phase 2.
    pub p2_moves: Vec<usize>,
    /// U/D/F/B slots (U, D, then F, B).
    pub sides: Subset,
    /// R/L slots (R then L), four of a colour.
    pub rl: Subset,
    pub ct_move: Vec<u16>,
    pub rl2_move: Vec<u16>,
    pub prun2: Vec<u8>,
    // Phase 3.
    pub p3_moves: Vec<usize>,
    pub ud: Subset,
    pub fb: Subset,
    pub ud_move: Vec<u16>,
    pub fb_move: Vec<u16>,
    pub rl3_move: Vec<u16>,
    pub b_flip: Vec<bool>,
    /// Per phase-3 move, σL⁻¹ and σH: the pairing P becomes σL⁻¹ ∘ P ∘ σH.
    pub low_inv: Vec<[u8; 12]>,
    pub high: Vec<[u8; 12]>,
    /// Each edge position's wing slot in the low and the high orbit.
    pub lo: [usize; 12],
    pub hi: [usize; 12],
    /// Whether phase 3 keeps the pairing's parity (then it must be even).
    pub pairing_parity_fixed: bool,
    /// Centre tables by the pairs' axes: `[ud_pair * 3 + rl_pair]`.
    pub centre3: Vec<Option<Vec<u8>>>,
    pub pairing: PairingTable,
}

/// The pair of colours `c` and `c + 3` (U/D, R/L, F/B).
pub(crate) fn in_pair(colour: u8, pair: usize) -> bool {
    colour as usize % 3 == pair
}

impl Tables {
    /// Every table, loaded from `store` or built; the pairings' bits for
    /// 9 moves only when `complete` (else they are loaded if stored, and
    /// [`Tables::complete_pairing`] builds them).
    pub(crate) fn new(
        store: &dyn TableStore,
        events: &mut dyn FnMut(StoreEvent),
        complete: bool,
    ) -> Tables {
        let bin = Binomials::new();
        let pm = PieceMoves::new();
        let model = model();

        // Phase 1.
        let p1_moves = phase1_moves();
        let mask_move: Vec<[[u32; 256]; 3]> = pm
            .centre
            .iter()
            .map(|c| {
                let mut inv = [0usize; 24];
                for (i, &from) in c.iter().enumerate() {
                    inv[from as usize] = i;
                }
                std::array::from_fn(|byte| {
                    std::array::from_fn(|v| {
                        (0..8)
                            .filter(|j| v >> j & 1 == 1)
                            .fold(0u32, |m, j| m | 1 << inv[byte * 8 + j])
                    })
                })
            })
            .collect();
        let face_mask = |f: usize| 0xFu32 << (4 * f);
        let axis_masks = [
            face_mask(0) | face_mask(3),
            face_mask(1) | face_mask(4),
            face_mask(2) | face_mask(5),
        ];
        // Phase 1's table (a quarter of a second) is built on a thread of
        // its own, beside the others.
        let prun1 = {
            let (bin, mask_move, p1_moves) = (bin.clone(), mask_move.clone(), p1_moves.clone());
            std::thread::spawn(move || {
                let all24 = masks(24, 8);
                let goals: Vec<usize> = axis_masks.iter().map(|&m| bin.rank(m)).collect();
                bfs(all24.len(), &goals, p1_moves.len(), |s, k| {
                    bin.rank(move_mask(&mask_move, p1_moves[k], all24[s]))
                })
            })
        };
        let rot_for_axis = std::array::from_fn(|a| {
            let r_centre = model.pieces.centres[4];
            (0..24)
                .find(|&r| model.rotations[r][r_centre] as usize / 16 % 3 == a)
                .expect("a rotation for each axis")
        });

        // Phase 3 first: phase 2's goal is what phase 3 can finish.
        let p3_moves = phase3_moves();
        let slots = |faces: &[usize]| -> Vec<usize> {
            faces.iter().flat_map(|&f| 4 * f..4 * f + 4).collect()
        };
        let ud = Subset::new(slots(&[0, 3]), 4);
        let fb = Subset::new(slots(&[2, 5]), 4);
        let rl = Subset::new(slots(&[1, 4]), 4);
        let ud_move = ud.move_table(&bin, &p3_moves, &pm);
        let fb_move = fb.move_table(&bin, &p3_moves, &pm);
        let rl3_move = rl.move_table(&bin, &p3_moves, &pm);

        // The wing orbits of phase 3.
        let mut orbit = [usize::MAX; 24];
        let mut n_orbits = 0;
        for start in 0..24 {
            if orbit[start] != usize::MAX {
                continue;
            }
            let mut stack = vec![start];
            orbit[start] = n_orbits;
            while let Some(w) = stack.pop() {
                for &m in &p3_moves {
                    let to = pm.wing[m].iter().position(|&f| f as usize == w).unwrap();
                    if orbit[to] == usize::MAX {
                        orbit[to] = n_orbits;
                        stack.push(to);
                    }
                }
            }
            n_orbits += 1;
        }
        assert_eq!(n_orbits, 2, "phase 3 splits the wings in two orbits");
        let dedge = &model.pieces.dedge_of_wing;
        let mut lo = [usize::MAX; 12];
        let mut hi = [usize::MAX; 12];
        for w in 0..24 {
            let d = dedge[w];
            let side = if orbit[w] == 0 { &mut lo } else { &mut hi };
            assert_eq!(side[d], usize::MAX, "one wing of each edge in each orbit");
            side[d] = w;
        }
        let low_of = |w: usize| lo.iter().position(|&x| x == w).expect("a low slot");
        let high_of = |w: usize| hi.iter().position(|&x| x == w).expect("a high slot");
        let mut low_inv = Vec::new();
        let mut high = Vec::new();
        let mut b_flip = Vec::new();
        let mut pairing_parity_fixed = true;
        for &m in &p3_moves {
            let sl: [u8; 12] = std::array::from_fn(|j| low_of(pm.wing[m][lo[j]] as usize) as u8);
            let sh: [u8; 12] = std::array::from_fn(|j| high_of(pm.wing[m][hi[j]] as usize) as u8);
            let mut sl_inv = [0u8; 12];
            for (j, &x) in sl.iter().enumerate() {
                sl_inv[x as usize] = j as u8;
            }
            pairing_parity_fixed &= odd(&sl) == odd(&sh);
            b_flip.push(pm.corner_odd[m] ^ odd(&sl));
            low_inv.push(sl_inv);
            high.push(sh);
        }

        let mut tables = Tables {
            bin,
            pm,
            p1_moves,
            mask_move,
            prun1: Vec::new(),
            axis_masks,
            rot_for_axis,
            p2_moves: phase2_moves(),
            sides: Subset::new(slots(&[0, 3, 2, 5]), 8),
            rl,
            ct_move: Vec::new(),
            rl2_move: Vec::new(),
            prun2: Vec::new(),
            p3_moves,
            ud,
            fb,
            ud_move,
            fb_move,
            rl3_move,
            b_flip,
            low_inv,
            high,
            lo,
            hi,
            pairing_parity_fixed,
            centre3: (0..9).map(|_| None).collect(),
            pairing: PairingTable {
                keys: vec![0],
                depths: vec![0],
                shift: 31,
                within8: TableBytes::new(Vec::new()),
                within9: OnceLock::new(),
                near_count: 0,
            },
        };
        for ud_pair in 0..3 {
            for rl_pair in 0..3 {
                if ud_pair != rl_pair {
                    tables.centre3[ud_pair * 3 + rl_pair] =
                        Some(tables.centre_table(ud_pair, rl_pair));
                }
            }
        }
        tables.pairing = tables.pairing_table(store, events);
        if complete {
            tables.complete_pairing(store, events);
        }

        // Phase 2.
        let n2 = tables.p2_moves.len();
        tables.ct_move = tables
            .sides
            .move_table(&tables.bin, &tables.p2_moves, &tables.pm);
        tables.rl2_move = tables
            .rl
            .move_table(&tables.bin, &tables.p2_moves, &tables.pm);
        // R/L patterns phase 3 finishes whatever the rest.
        let rl_ok: Vec<usize> = (0..70)
            .filter(|&r| {
                tables.centre3.iter().flatten().all(|t| {
                    (0..70 * 70 * 2).all(|i| {
                        let (udfb, b) = (i / 2, i % 2);
                        t[(udfb * 70 + r) * 2 + b] != u8::MAX
                    })
                })
            })
            .collect();
        assert!(!rl_ok.is_empty(), "phase 3 can finish some R/L pattern");
        let side_goals = [
            tables.bin.rank(0x00FF) as u16, // the pair on U/D
            tables.bin.rank(0xFF00) as u16, // on F/B
        ];
        let mut goals = Vec::new();
        for &ct in &side_goals {
            for &r in &rl_ok {
                goals.push((ct as usize * 70 + r) * 2);
            }
        }
        let par_flip: Vec<bool> = tables
            .p2_moves
            .iter()
            .map(|&m| tables.pm.wing_odd[m])
            .collect();
        let (ct_move, rl2_move) = (&tables.ct_move, &tables.rl2_move);
        tables.prun2 = bfs(12_870 * 140, &goals, n2, |s, k| {
            let (ct, rl, par) = (s / 140, s / 2 % 70, s % 2);
            let ct2 = ct_move[ct * n2 + k] as usize;
            let rl2 = rl2_move[rl * n2 + k] as usize;
            (ct2 * 70 + rl2) * 2 + (par ^ par_flip[k] as usize)
        });
        tables.prun1 = prun1
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        tables
    }

    /// Phase 3's centre distances when the pair `ud_pair` is on U/D and
    /// `rl_pair` on R/L: to every arrangement of the colours that is the
    /// solved cube turned some way (never a mirror image), with the parity
    /// bit that arrangement's solved cube has.
    fn centre_table(&self, ud_pair: usize, rl_pair: usize) -> Vec<u8> {
        let model = model();
        let solved = Cube444::solved();
        let mut goals = Vec::new();
        for r in 0..24 {
            let turned = solved.permuted(&model.rotations[r]);
            let c = turned.centres();
            if !in_pair(c[0], ud_pair) || !in_pair(c[4], rl_pair) {
                continue;
            }
            let (udp, rlp) = (ud_pair as u8, rl_pair as u8);
            let fbp = 3 - udp - rlp;
            let ud = self.bin.rank(self.ud.mask(&c, |x| x == udp));
            let fb = self.bin.rank(self.fb.mask(&c, |x| x == fbp));
            let rl = self.bin.rank(self.rl.mask(&c, |x| x == rlp));
            let b = self.parity_bit(&turned).expect("a solved cube is paired");
            goals.push(((ud * 70 + fb) * 70 + rl) * 2 + b as usize);
        }
        assert_eq!(goals.len(), 4, "four ways up keep the pairs on their axes");
        let n = self.p3_moves.len();
        bfs(70 * 70 * 70 * 2, &goals, n, |s, k| {
            let (rest, b) = (s / 2, s % 2);
            let (ud, fb, rl) = (rest / 4900, rest / 70 % 70, rest % 70);
            let ud = self.ud_move[ud * n + k] as usize;
            let fb = self.fb_move[fb * n + k] as usize;
            let rl = self.rl3_move[rl * n + k] as usize;
            ((ud * 70 + fb) * 70 + rl) * 2 + (b ^ self.b_flip[k] as usize)
        })
    }

    /// The low orbit's edges `A` (edge of the wing in each low slot), if
    /// every edge has one wing there.
    pub(crate) fn low_edges(&self, wings: &[u8; 24]) -> Option<[u8; 12]> {
        let dedge = &model().pieces.dedge_of_wing;
        let a: [u8; 12] = std::array::from_fn(|j| dedge[wings[self.lo[j]] as usize] as u8);
        let mut seen = 0u32;
        for &x in &a {
            seen |= 1 << x;
        }
        (seen == 0xFFF).then_some(a)
    }

    /// The pairing permutation P = A⁻¹ ∘ B, if the wings are separated.
    pub(crate) fn pairing_of(&self, wings: &[u8; 24]) -> Option<[u8; 12]> {
        let dedge = &model().pieces.dedge_of_wing;
        let a = self.low_edges(wings)?;
        let mut a_inv = [0u8; 12];
        for (j, &x) in a.iter().enumerate() {
            a_inv[x as usize] = j as u8;
        }
        Some(std::array::from_fn(|j| {
            a_inv[dedge[wings[self.hi[j]] as usize]]
        }))
    }

    /// Phase 3's parity bit: corner permutation parity ⊕ the low edges'
    /// permutation parity (0 on a solved cube; what it must be at the end
    /// depends on the way up, see `centre_table`).
    pub(crate) fn parity_bit(&self, cube: &Cube444) -> Option<bool> {
        let a = self.low_edges(&cube.wings())?;
        Some(odd(&cube.corner_permutation()) ^ odd(&a))
    }

    fn pairing_table(
        &self,
        store: &dyn TableStore,
        events: &mut dyn FnMut(StoreEvent),
    ) -> PairingTable {
        assert!(
            self.pairing_parity_fixed,
            "phase 3 keeps the pairing's parity"
        );
        let mut t = PairingTable::new();
        let id: [u8; 12] = std::array::from_fn(|i| i as u8);
        t.insert_near(even_rank(&id), 0);
        let mut frontier = vec![id];
        for depth in 1..=NEAR_DEPTH {
            let mut next = Vec::new();
            for p in &frontier {
                for k in 0..self.p3_moves.len() {
                    let q = self.pairing_after(p, k);
                    if t.insert_near(even_rank(&q), depth) {
                        next.push(q);
                    }
                }
            }
            frontier = next;
        }
        t.within8 = store::load_or_build(
            store,
            &key_at(8),
            FAR_BYTES as u64,
            || self.within8_bits(&t, &frontier),
            events,
        );
        if let Some(stored) = store::load_reporting(store, &key_at(9), FAR_BYTES as u64, events) {
            let _ = t.within9.set(stored);
        }
        t
    }

    /// Builds the pairings' bits for 9 moves, unless loaded or built
    /// already, and gives them to `store`.
    pub(crate) fn complete_pairing(
        &self,
        store: &dyn TableStore,
        events: &mut dyn FnMut(StoreEvent),
    ) {
        let mut built = false;
        let bits = self.pairing.within9.get_or_init(|| {
            built = true;
            let bits = || make_apart(|| self.within9_bits());
            TableBytes::new(store::build_and_keep(
                store,
                &key_at(9),
                FAR_BYTES as u64,
                bits,
                events,
            ))
        });
        // Built before, in memory (by a search past its budget) or for a
        // store that keeps nothing: given to this one if it keeps tables
        // and lacks it.
        let len = PayloadLen::Exactly(FAR_BYTES as u64);
        if !built && store.writes() && !store.contains(&key_at(9), len) {
            store::save_reporting(store, &key_at(9), &[], bits, events);
        }
    }

    /// Whether the pairings' bits for 9 moves are there.
    pub(crate) fn pairing_complete(&self) -> bool {
        self.pairing.within9.get().is_some()
    }

    /// How far pairing `p` is from paired, exactly up to 9 (10 for
    /// farther) whether or not the bits for 9 are there: without them, a
    /// pairing beyond 8 is 9 away exactly when one move brings it within 8.
    pub(crate) fn pairing_estimate(&self, p: &[u8; 12]) -> u8 {
        if self.pairing_complete() {
            return self.pairing.get(p);
        }
        let r = even_rank(p);
        (self.pairing.at_most_8(r))
            .unwrap_or_else(|| if self.one_move_within_8(p) { 9 } else { 10 })
    }

    /// Whether some move brings pairing `p` within 8 moves.
    fn one_move_within_8(&self, p: &[u8; 12]) -> bool {
        (0..self.p3_moves.len()).any(|k| {
            self.pairing
                .at_most_8(even_rank(&self.pairing_after(p, k)))
                .is_some()
        })
    }

    /// Sets the bits of the pairings one move from `p`.
    fn set_neighbours(&self, bits: &[AtomicU64], p: &[u8; 12]) {
        for k in 0..self.p3_moves.len() {
            set_atomic_bit(bits, even_rank(&self.pairing_after(p, k)));
        }
    }

    /// The bits of the pairings within 8 moves: those of `near` and the
    /// ones a move from its `frontier` (those 7 away), set on all threads.
    fn within8_bits(&self, near: &PairingTable, frontier: &[[u8; 12]]) -> Vec<u8> {
        let bits: Vec<AtomicU64> = (0..FAR_BYTES / 8).map(|_| AtomicU64::new(0)).collect();
        for &key in near.keys.iter().filter(|&&k| k != 0) {
            set_atomic_bit(&bits, key - 1);
        }
        frontier
            .par_iter()
            .for_each(|p| self.set_neighbours(&bits, p));
        bytes_of(&bits)
    }

    /// The bits of the pairings within 9 moves: those within 8 and every
    /// one a move from them, set on all threads.
    fn within9_bits(&self) -> Vec<u8> {
        let within8 = &self.pairing.within8;
        let bits: Vec<AtomicU64> = within8
            .chunks(8)
            .map(|w| AtomicU64::new(u64::from_le_bytes(w.try_into().expect("whole words"))))
            .collect();
        within8
            .par_chunks(4096)
            .enumerate()
            .for_each(|(chunk, bytes)| {
                for (i, &byte) in bytes.iter().enumerate() {
                    let mut set = byte;
                    while set != 0 {
                        let r = ((chunk * 4096 + i) * 8) as u64 + u64::from(set.trailing_zeros());
                        set &= set - 1;
                        self.set_neighbours(&bits, &even_permutation(r));
                    }
                }
            });
        bytes_of(&bits)
    }

    /// Whether pairing `p` needs `depth` moves or more. Without the bits
    /// for 9, [`PairingTable::get`] says 9 for everything beyond 8; where
    /// that is one short of `depth`, it is made exact: `p` is 9 away
    /// exactly when some move brings it within 8. (With the bits, the
    /// same at 10 gained nothing measurable.)
    #[inline]
    pub(crate) fn pairing_needs(&self, p: &[u8; 12], depth: usize) -> bool {
        let bound = self.pairing.get(p) as usize;
        if bound >= depth {
            return true;
        }
        depth == 10 && bound == 9 && !self.pairing_complete() && !self.one_move_within_8(p)
    }

    /// Bytes held.
    pub(crate) fn size_bytes(&self) -> usize {
        self.mask_move.len() * 3 * 256 * 4
            + self.prun1.len()
            + 2 * (self.ct_move.len() + self.rl2_move.len())
            + self.prun2.len()
            + 2 * (self.ud_move.len() + self.fb_move.len() + self.rl3_move.len())
            + self.centre3.iter().flatten().map(Vec::len).sum::<usize>()
            + self.pairing.bytes()
    }

    /// The pairing after phase-3 move `k`.
    #[inline]
    pub(crate) fn pairing_after(&self, p: &[u8; 12], k: usize) -> [u8; 12] {
        let (li, h) = (&self.low_inv[k], &self.high[k]);
        std::array::from_fn(|j| li[p[h[j] as usize] as usize])
    }
}

/// A 24-bit centre mask after move `m`.
#[inline]
pub(crate) fn move_mask(t: &[[[u32; 256]; 3]], m: usize, mask: u32) -> u32 {
    let t = &t[m];
    t[0][(mask & 255) as usize] | t[1][(mask >> 8 & 255) as usize] | t[2][(mask >> 16) as usize]
}

#[cfg(test)]
mod tests;
