//! Coordinates: numbers that stand for one aspect of a cube (how the
//! corners are twisted, where the slice edges are, ...).
//!
//! The searches never touch cubies; they move coordinates through tables.
//! Each coordinate here has a `get` (cube → number) and a `set` (number →
//! some cube with that coordinate) so that move and symmetry tables can be
//! computed by going through the cubie level once.

use crate::cubie::CubieCube;
use twistor_core::index::{rank_permutation, unrank_permutation};

/// Corner orientations: 3^7.
pub const N_TWIST: usize = 2187;
/// Edge orientations: 2^11.
pub const N_FLIP: usize = 2048;
/// Positions of the four UD-slice edges (FR FL BL BR), order ignored: C(12,4).
pub const N_SLICE: usize = 495;
/// Positions and order of the four UD-slice edges: 12·11·10·9.
pub const N_SLICE_SORTED: usize = 11880;
/// Corner permutations: 8!.
pub const N_CORNERS: usize = 40320;
/// Permutations of the eight U and D edges (phase 2): 8!.
pub const N_UD_EDGES: usize = 40320;
/// Permutations of the four slice edges among themselves (phase 2): 4!.
pub const N_SLICE_PERM: usize = 24;
/// Positions of the four D-layer corners (DFR DLF DBL DRB), order
/// ignored: C(8,4).
pub const N_CORNER_COMB: usize = 70;

const fn binomial(n: i32, k: i32) -> i32 {
    if k < 0 || k > n {
        return 0;
    }
    let mut r = 1i32;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// Twist: the orientations of corners 0..7 read as a base-3 number.
pub fn twist(c: &CubieCube) -> u16 {
    c.co[..7].iter().fold(0u16, |a, &o| a * 3 + o as u16)
}

/// Sets the corner orientations to `twist` (the last one fixing the sum).
pub fn set_twist(c: &mut CubieCube, mut twist: u16) {
    let mut sum = 0;
    for i in (0..7).rev() {
        c.co[i] = (twist % 3) as u8;
        sum += c.co[i];
        twist /= 3;
    }
    c.co[7] = (3 - sum % 3) % 3;
}

/// Flip: the orientations of edges 0..11 read as a binary number.
pub fn flip(c: &CubieCube) -> u16 {
    c.eo[..11].iter().fold(0u16, |a, &o| a * 2 + o as u16)
}

/// Sets the edge orientations to `flip` (the last one fixing the parity).
pub fn set_flip(c: &mut CubieCube, mut flip: u16) {
    let mut sum = 0;
    for i in (0..11).rev() {
        c.eo[i] = (flip & 1) as u8;
        sum ^= c.eo[i];
        flip >>= 1;
    }
    c.eo[11] = sum;
}

/// `C(n, k)` for `n < 12`, `k ≤ 4`: the slice coordinates' ranks read it
/// in the two-phase search's inner work, where the divisions of
/// [`binomial`] cost more than the rest.
const BINOMIAL_12_4: [[u16; 5]; 12] = {
    let mut t = [[0u16; 5]; 12];
    let mut n = 0;
    while n < 12 {
        let mut k = 0;
        while k < 5 {
            t[n][k] = binomial(n as i32, k as i32) as u16;
            k += 1;
        }
        n += 1;
    }
    t
};

/// Slice: which four slots hold the UD-slice edges (0 when they are home);
/// `slice_sorted(c) / 24` without the order.
pub fn slice(c: &CubieCube) -> u16 {
    let mut a = 0u16;
    let mut x = 0;
    for j in (0..12).rev() {
        if c.ep[j] >= 8 {
            x += 1;
            a += BINOMIAL_12_4[11 - j][x];
        }
    }
    a
}

/// Slice sorted: slice positions and the order of the slice edges in them,
/// `24 · slice + order` (0 when solved).
pub fn slice_sorted(c: &CubieCube) -> u16 {
    slice_sorted_of(&c.ep)
}

/// The order part of [`slice_sorted`] (0..24) of the four slice edges as
/// they stand in slot order, indexed by `Σ (edge − 8) · 4^(3 − i)`.
const SLICE_ORDER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut code = 0;
    while code < 256 {
        let mut edge4 = [
            (code >> 6) as u8 & 3,
            (code >> 4) as u8 & 3,
            (code >> 2) as u8 & 3,
            code as u8 & 3,
        ];
        let mut b = 0usize;
        let mut j = 3;
        let mut valid = true;
        while j >= 1 {
            let mut pos = 0;
            while pos <= j && edge4[pos] != j as u8 {
                pos += 1;
            }
            if pos > j {
                valid = false;
                break;
            }
            // Rotate edge4[..=j] left by k.
            let k = (pos + 1) % (j + 1);
            let mut r = 0;
            while r < k {
                let first = edge4[0];
                let mut i = 0;
                while i < j {
                    edge4[i] = edge4[i + 1];
                    i += 1;
                }
                edge4[j] = first;
                r += 1;
            }
            b = (j + 1) * b + k;
            j -= 1;
        }
        if valid {
            t[code] = b as u8;
        }
        code += 1;
    }
    t
};

/// [`slice_sorted`] of an edge permutation (`ep[slot]` is the edge there).
#[inline]
pub(crate) fn slice_sorted_of(ep: &[u8; 12]) -> u16 {
    let mut a = 0u16;
    let mut x = 0;
    let mut code = 0usize;
    for j in (0..12).rev() {
        if ep[j] >= 8 {
            x += 1;
            a += BINOMIAL_12_4[11 - j][x];
            code |= ((ep[j] - 8) as usize) << (2 * (x - 1));
        }
    }
    24 * a + SLICE_ORDER[code] as u16
}

/// Places the slice edges as `slice_sorted` says and the other edges in
/// order in the remaining slots.
pub fn set_slice_sorted(c: &mut CubieCube, idx: u16) {
    let mut slice_edge = [8u8, 9, 10, 11];
    let mut b = idx as i32 % 24;
    let mut a = idx as i32 / 24;
    for j in 1..4 {
        let mut k = b % (j as i32 + 1);
        b /= j as i32 + 1;
        while k > 0 {
            slice_edge[..=j].rotate_right(1);
            k -= 1;
        }
    }
    let mut ep = [255u8; 12];
    let mut x = 4i32;
    for (j, e) in ep.iter_mut().enumerate() {
        if x > 0 && a - binomial(11 - j as i32, x) >= 0 {
            *e = slice_edge[(4 - x) as usize];
            a -= binomial(11 - j as i32, x);
            x -= 1;
        }
    }
    let mut other = 0u8;
    for e in ep.iter_mut() {
        if *e == 255 {
            *e = other;
            other += 1;
        }
    }
    c.ep = ep;
}

/// Corner permutation rank.
pub fn corners(c: &CubieCube) -> u16 {
    rank_permutation(&c.cp) as u16
}

/// Sets the corner permutation.
pub fn set_corners(c: &mut CubieCube, idx: u16) {
    unrank_permutation(idx as u64, &mut c.cp);
}

/// Permutation of the U and D edges among slots 0..8 (phase 2 only: the
/// slice edges must be in the slice).
pub fn ud_edges(c: &CubieCube) -> u16 {
    rank_permutation(&c.ep[..8]) as u16
}

/// Sets the U and D edges in slots 0..8 and the slice edges home.
pub fn set_ud_edges(c: &mut CubieCube, idx: u16) {
    unrank_permutation(idx as u64, &mut c.ep[..8]);
    for i in 8..12 {
        c.ep[i] = i as u8;
    }
}

/// `CORNER_COMB_RANK[mask]`: the corner-combination coordinate of the D
/// corners standing in the slots set in `mask` (four of eight): the masks
/// counted down from `0xf0`, so that home is 0.
pub(crate) const CORNER_COMB_RANK: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut rank = 0u8;
    let mut mask = 256;
    while mask > 0 {
        mask -= 1;
        if (mask as u32).count_ones() == 4 {
            t[mask] = rank;
            rank += 1;
        }
    }
    t
};

/// Corner combination: which four slots hold the D-layer corners (0 when
/// they are home).
pub fn corner_comb(c: &CubieCube) -> u8 {
    let mask = (0..8).fold(0usize, |m, i| m | ((c.cp[i] >= 4) as usize) << i);
    CORNER_COMB_RANK[mask]
}

/// Sets the corners to a permutation with this corner combination (the
/// corners of each layer in order), leaving their twists.
pub fn set_corner_comb(c: &mut CubieCube, idx: u8) {
    let mask = (0..256)
        .find(|&m: &usize| m.count_ones() == 4 && CORNER_COMB_RANK[m] == idx)
        .unwrap_or(0xf0);
    let (mut up, mut down) = (0, 4);
    for i in 0..8 {
        if mask >> i & 1 == 1 {
            c.cp[i] = down;
            down += 1;
        } else {
            c.cp[i] = up;
            up += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_core::random::SeededRng;

    #[test]
    fn solved_cube_has_all_coordinates_zero() {
        let c = CubieCube::SOLVED;
        assert_eq!(
            (
                twist(&c),
                flip(&c),
                slice_sorted(&c),
                corners(&c),
                ud_edges(&c),
                corner_comb(&c)
            ),
            (0, 0, 0, 0, 0, 0)
        );
    }

    #[test]
    fn coordinates_are_bijections() {
        let mut c = CubieCube::SOLVED;
        for t in 0..N_TWIST as u16 {
            set_twist(&mut c, t);
            assert_eq!(twist(&c), t);
        }
        for f in 0..N_FLIP as u16 {
            set_flip(&mut c, f);
            assert_eq!(flip(&c), f);
        }
        let mut seen = vec![false; N_SLICE];
        for s in 0..N_SLICE_SORTED as u16 {
            set_slice_sorted(&mut c, s);
            assert_eq!(slice_sorted(&c), s);
            assert_eq!(slice(&c), s / 24);
            seen[slice(&c) as usize] = true;
        }
        assert!(seen.iter().all(|&x| x));
        for x in 0..N_CORNER_COMB as u8 {
            set_corner_comb(&mut c, x);
            assert_eq!(corner_comb(&c), x);
        }
        for p in (0..N_CORNERS as u16).step_by(7) {
            set_corners(&mut c, p);
            assert_eq!(corners(&c), p);
            set_ud_edges(&mut c, p);
            assert_eq!(ud_edges(&c), p);
        }
    }

    #[test]
    fn random_cubes_have_coordinates_in_range() {
        let mut rng = SeededRng::new(3);
        for _ in 0..100 {
            let c = CubieCube::random(|| rng.next_u64());
            assert!((twist(&c) as usize) < N_TWIST);
            assert!((slice_sorted(&c) as usize) < N_SLICE_SORTED);
            assert!((corners(&c) as usize) < N_CORNERS);
        }
    }
}
