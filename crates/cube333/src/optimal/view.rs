//! The cube as the optimal search moves it: 32 bytes, one a cubie, so that
//! a move on either side of it is a byte shuffle.
//!
//! The search bounds a cube from six views (the cube and its inverse, each
//! seen from the three axes) and turns either end of the solution, so every
//! view must take a move *after* it (`x · m`, which permutes the slots) and
//! a move *before* it (`m · x`, which relabels the pieces). Coordinate move
//! tables give only the first, so the views are kept as cubies, a byte
//! each, and both moves are one shuffle, one add and one modulo:
//!
//! ```text
//! bytes 0..12   edge slots 11, 10, …, 0:  piece | flip << 4
//! bytes 16..24  corner slots 0, 1, …, 7:  piece | twist << 4
//! ```
//!
//! The edges stand in reverse so that their flip bits, gathered in byte
//! order, are the flip coordinate. The two groups sit in the two 128-bit
//! halves of an AVX2 register, whose byte shuffle works within each half.
//! [`Scalar`] does the same byte by byte, anywhere; [`Avx2`] is used where
//! the processor has AVX2 and BMI2 (checked at run time), and the tests
//! hold both to the cubie model.

use crate::coord::{self, slice_sorted_of, CORNER_COMB_RANK};
use crate::cubie::CubieCube;

/// A cube in the search's byte form (see the module docs); equal when the
/// cubies are (padding is never read).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(super) struct View(pub(super) [u8; 32]);

/// Byte `j < 12` holds edge slot `11 - j`; byte `16 + i` corner slot `i`.
const EDGE_BYTE: fn(usize) -> usize = |slot| 11 - slot;
const CORNER_BYTE: fn(usize) -> usize = |slot| 16 + slot;

/// Bytes that hold cubies (the rest are padding and are never read).
const LIVE: u32 = 0x00ff_0fff;

impl View {
    pub(super) fn of(c: &CubieCube) -> View {
        let mut b = [0u8; 32];
        for i in 0..12 {
            b[EDGE_BYTE(i)] = c.ep[i] | c.eo[i] << 4;
        }
        for i in 0..8 {
            b[CORNER_BYTE(i)] = c.cp[i] | c.co[i] << 4;
        }
        View(b)
    }

    #[cfg(test)]
    pub(super) fn cubie(&self) -> CubieCube {
        let mut c = CubieCube::SOLVED;
        for i in 0..12 {
            let b = self.0[EDGE_BYTE(i)];
            c.ep[i] = b & 15;
            c.eo[i] = b >> 4;
        }
        for i in 0..8 {
            let b = self.0[CORNER_BYTE(i)];
            c.cp[i] = b & 15;
            c.co[i] = b >> 4;
        }
        c
    }

    /// Whether the cubies are the solved cube's.
    pub(super) fn is_solved(&self) -> bool {
        *self == SOLVED_VIEW
    }
}

impl PartialEq for View {
    fn eq(&self, other: &View) -> bool {
        (0..32).all(|j| LIVE >> j & 1 == 0 || self.0[j] == other.0[j])
    }
}

impl Eq for View {}

const SOLVED_VIEW: View = {
    let mut b = [0u8; 32];
    let mut i = 0;
    while i < 12 {
        b[11 - i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 8 {
        b[16 + i] = i as u8;
        i += 1;
    }
    View(b)
};

/// What one move does to a [`View`], as the shuffles need it.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub(super) struct MoveBytes {
    /// `x · m`: byte `j` of the result is byte `after[j]` (within its
    /// half) of `x`, plus `after_add[j]`.
    after: [u8; 32],
    after_add: [u8; 32],
    /// `m · x`: a cubie byte `p | o << 4` becomes `before[half + p] + o << 4`.
    before: [u8; 32],
}

impl MoveBytes {
    pub(super) fn of(m: &CubieCube) -> MoveBytes {
        let mut after = [0u8; 32];
        let mut after_add = [0u8; 32];
        let mut before = [0u8; 32];
        for (j, a) in after.iter_mut().enumerate() {
            *a = (j & 15) as u8;
        }
        for i in 0..12 {
            after[EDGE_BYTE(i)] = EDGE_BYTE(m.ep[i] as usize) as u8;
            after_add[EDGE_BYTE(i)] = m.eo[i] << 4;
            before[i] = m.ep[i] | m.eo[i] << 4;
        }
        for i in 0..8 {
            after[CORNER_BYTE(i)] = (CORNER_BYTE(m.cp[i] as usize) - 16) as u8;
            after_add[CORNER_BYTE(i)] = m.co[i] << 4;
            before[16 + i] = m.cp[i] | m.co[i] << 4;
        }
        MoveBytes {
            after,
            after_add,
            before,
        }
    }
}

/// The orientation modulus a half needs subtracted once it overflows:
/// flips are mod 2 (`0x20`), twists mod 3 (`0x30`).
const MODULUS: [u8; 32] = {
    let mut k = [0x20u8; 32];
    let mut j = 16;
    while j < 32 {
        k[j] = 0x30;
        j += 1;
    }
    k
};

/// The coordinates a pruning table is indexed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Coords {
    pub(super) twist: u16,
    pub(super) flip: u16,
    pub(super) slice_sorted: u16,
    /// Read by the giant table only (the compiler drops it elsewhere).
    pub(super) corner_comb: u8,
}

/// Moves and coordinates of [`View`]s.
pub(super) trait Kernel {
    /// `x · m`.
    fn after(x: &View, m: &MoveBytes) -> View;
    /// `m · x`.
    fn before(x: &View, m: &MoveBytes) -> View;
    /// Twist, flip, slice-sorted and corner-combination coordinates.
    fn coords(x: &View, t: &CoordLookup) -> Coords;
}

/// Tables that turn the bits gathered from a [`View`] into coordinates.
pub(super) struct CoordLookup {
    /// `twist[low | high << 7]`: the twist of corners 0..7 whose twist
    /// bits 0 and 1 are the bits of `low` and `high`.
    twist: Vec<u16>,
    /// `slice[mask]`: the slice coordinate of the slice edges at the edge
    /// bytes set in `mask`.
    slice: Vec<u16>,
    /// `order[p0 | p1 << 4]`: the order part of the slice-sorted
    /// coordinate when the slice edges, in byte order, have bit 0 of
    /// their piece in `p0` and bit 1 in `p1`.
    order: [u8; 256],
}

impl CoordLookup {
    pub(super) fn new() -> CoordLookup {
        let twist = (0..1usize << 14)
            .map(|x| {
                (0..7).fold(0u16, |a, i| {
                    let o = (x >> i & 1) + 2 * (x >> (7 + i) & 1);
                    a * 3 + (o % 3) as u16
                })
            })
            .collect();
        let slice = (0..1usize << 12)
            .map(|mask| {
                if (mask as u32).count_ones() != 4 {
                    return 0;
                }
                let mut c = CubieCube::SOLVED;
                let (mut slice_edge, mut other) = (8, 0);
                for i in 0..12 {
                    if mask >> EDGE_BYTE(i) & 1 == 1 {
                        c.ep[i] = slice_edge;
                        slice_edge += 1;
                    } else {
                        c.ep[i] = other;
                        other += 1;
                    }
                }
                coord::slice(&c)
            })
            .collect();
        let mut order = [0u8; 256];
        for (x, o) in order.iter_mut().enumerate() {
            // The slice edges in byte order (slots 11, 10, 9, 8 here).
            let pieces: [u8; 4] =
                std::array::from_fn(|b| (x >> b & 1 | (x >> (4 + b) & 1) << 1) as u8);
            if (0..4).all(|p| pieces.contains(&p)) {
                let mut ep = [0u8, 1, 2, 3, 4, 5, 6, 7, 0, 0, 0, 0];
                for (b, &p) in pieces.iter().enumerate() {
                    ep[11 - b] = 8 + p;
                }
                *o = (slice_sorted_of(&ep) % 24) as u8;
            }
        }
        CoordLookup {
            twist,
            slice,
            order,
        }
    }

    /// Coordinates from the gathered bits: `bit[k]` has bit `j` set where
    /// byte `j` has bit `k` set.
    #[inline(always)]
    fn coords_of_bits(&self, bit: [u32; 6], pext: impl Fn(u32, u32) -> u32) -> Coords {
        let flip = (bit[4] >> 1 & 0x7ff) as u16;
        let twist = self.twist[(bit[4] >> 16 & 0x7f | (bit[5] >> 16 & 0x7f) << 7) as usize];
        let at = bit[3] & 0xfff;
        let order = self.order[(pext(bit[0], at) | pext(bit[1], at) << 4) as usize];
        Coords {
            twist,
            flip,
            slice_sorted: self.slice[at as usize] * 24 + order as u16,
            // Bit 2 of a corner byte: a D corner (pieces 4..8) there.
            corner_comb: CORNER_COMB_RANK[(bit[2] >> 16 & 0xff) as usize],
        }
    }
}

/// Bit extraction in software: the bits of `x` where `mask` is set,
/// packed low.
#[inline(always)]
fn pext_soft(x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut k = 0;
    while mask != 0 {
        let b = mask.trailing_zeros();
        out |= (x >> b & 1) << k;
        k += 1;
        mask &= mask - 1;
    }
    out
}

/// Byte by byte: the reference, and the kernel where AVX2 is missing.
pub(super) struct Scalar;

impl Kernel for Scalar {
    #[inline(always)]
    fn after(x: &View, m: &MoveBytes) -> View {
        View(std::array::from_fn(|j| {
            let y = x.0[(j & 16) | (m.after[j] & 15) as usize].wrapping_add(m.after_add[j]);
            y.min(y.wrapping_sub(MODULUS[j]))
        }))
    }

    #[inline(always)]
    fn before(x: &View, m: &MoveBytes) -> View {
        View(std::array::from_fn(|j| {
            let b = x.0[j];
            let y = m.before[(j & 16) | (b & 15) as usize].wrapping_add(b & 0x30);
            y.min(y.wrapping_sub(MODULUS[j]))
        }))
    }

    #[inline(always)]
    fn coords(x: &View, t: &CoordLookup) -> Coords {
        let mut bit = [0u32; 6];
        for (j, &b) in x.0.iter().enumerate() {
            for (k, w) in bit.iter_mut().enumerate() {
                *w |= ((b >> k & 1) as u32) << j;
            }
        }
        t.coords_of_bits(bit, pext_soft)
    }
}

/// The AVX2 kernel: a move is four or five instructions, the coordinates
/// five byte masks, two bit extractions and three small-table reads.
///
/// Its functions are only called from code compiled with the `avx2` and
/// `bmi2` target features, which [`Avx2::available`] checks for.
#[cfg(target_arch = "x86_64")]
pub(super) struct Avx2;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    impl Avx2 {
        /// Whether this processor runs the kernel.
        pub(in crate::optimal) fn available() -> bool {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi2")
        }
    }

    #[inline(always)]
    fn load(b: &[u8; 32]) -> __m256i {
        // SAFETY: `b` is 32 readable bytes; the unaligned load has no
        // alignment requirement, and AVX is enabled wherever this is
        // inlined (the kernel runs only inside `avx2,bmi2` functions).
        unsafe { _mm256_loadu_si256(b.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(v: __m256i) -> View {
        let mut out = View([0; 32]);
        // SAFETY: `out.0` is 32 writable bytes; the store is unaligned.
        unsafe { _mm256_storeu_si256(out.0.as_mut_ptr().cast(), v) };
        out
    }

    /// `y mod` the half's modulus, for `y` below twice it.
    #[inline(always)]
    fn modulo(y: __m256i) -> __m256i {
        // SAFETY: register arithmetic only; AVX2 is enabled where inlined.
        unsafe { _mm256_min_epu8(y, _mm256_sub_epi8(y, load(&MODULUS))) }
    }

    impl Kernel for Avx2 {
        #[inline(always)]
        fn after(x: &View, m: &MoveBytes) -> View {
            // SAFETY: register arithmetic only; AVX2 is enabled where inlined.
            let y = unsafe {
                _mm256_add_epi8(
                    _mm256_shuffle_epi8(load(&x.0), load(&m.after)),
                    load(&m.after_add),
                )
            };
            store(modulo(y))
        }

        #[inline(always)]
        fn before(x: &View, m: &MoveBytes) -> View {
            let xv = load(&x.0);
            // SAFETY: register arithmetic only; AVX2 is enabled where inlined.
            let y = unsafe {
                let piece = _mm256_and_si256(xv, _mm256_set1_epi8(15));
                let ori = _mm256_and_si256(xv, _mm256_set1_epi8(0x30));
                _mm256_add_epi8(_mm256_shuffle_epi8(load(&m.before), piece), ori)
            };
            store(modulo(y))
        }

        #[inline(always)]
        fn coords(x: &View, t: &CoordLookup) -> Coords {
            let xv = load(&x.0);
            // SAFETY: register arithmetic and BMI2's pext only; both
            // features are enabled where this is inlined.
            unsafe {
                // Shifting 16-bit lanes left by 7 - k brings bit k of every
                // byte to the byte's top bit (what spills over from the low
                // byte lands in the high byte's low bits).
                let bit = [
                    _mm256_movemask_epi8(_mm256_slli_epi16(xv, 7)) as u32,
                    _mm256_movemask_epi8(_mm256_slli_epi16(xv, 6)) as u32,
                    _mm256_movemask_epi8(_mm256_slli_epi16(xv, 5)) as u32,
                    _mm256_movemask_epi8(_mm256_slli_epi16(xv, 4)) as u32,
                    _mm256_movemask_epi8(_mm256_slli_epi16(xv, 3)) as u32,
                    _mm256_movemask_epi8(_mm256_slli_epi16(xv, 2)) as u32,
                ];
                t.coords_of_bits(bit, |a, m| _pext_u32(a, m))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::FaceTurn;
    use twistor_core::random::SeededRng;

    fn random_cubes(n: usize) -> Vec<CubieCube> {
        let mut rng = SeededRng::new(7);
        (0..n)
            .map(|_| CubieCube::random(|| rng.next_u64()))
            .collect()
    }

    fn check_kernel<K: Kernel>() {
        let t = CoordLookup::new();
        for c in random_cubes(300) {
            let v = View::of(&c);
            assert_eq!(v.cubie(), c);
            assert_eq!(
                K::coords(&v, &t),
                Coords {
                    twist: coord::twist(&c),
                    flip: coord::flip(&c),
                    slice_sorted: coord::slice_sorted(&c),
                    corner_comb: coord::corner_comb(&c),
                }
            );
            for m in FaceTurn::all() {
                let mb = MoveBytes::of(m.cubie());
                assert_eq!(K::after(&v, &mb).cubie(), c.apply_move(m), "{c:?} · {m:?}");
                assert_eq!(
                    K::before(&v, &mb).cubie(),
                    m.cubie().multiply(&c),
                    "{m:?} · {c:?}"
                );
            }
        }
        assert!(View::of(&CubieCube::SOLVED).is_solved());
        assert!(!View::of(&CubieCube::from_moves(&[FaceTurn::from_index(0)])).is_solved());
    }

    #[test]
    fn scalar_kernel_agrees_with_the_cubie_model() {
        check_kernel::<Scalar>();
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_kernel_agrees_with_the_cubie_model() {
        if !Avx2::available() {
            eprintln!("no AVX2 here: the AVX2 kernel is not checked");
            return;
        }
        #[target_feature(enable = "avx2,bmi2")]
        fn run() {
            check_kernel::<Avx2>();
        }
        // SAFETY: the features `run` is compiled for were detected above.
        unsafe { run() }
    }
}
