//! Ranking and unranking the arrangements an index is made of:
//! permutations (whole or of one parity), arrangements of `k` of `n`
//! values, and multiset permutations. Public, as the one implementation of
//! these rankings in the workspace (search's projections use them too).

use super::MAX_BLOCK_PIECES;

/// Lexicographic (Lehmer) ranking of an arrangement of distinct values
/// from `0..n` (`n <= 64`), one value at a time: after `k` values, their
/// rank among the `n! / (n - k)!` arrangements of `k` of the `n` values
/// (after all `n`, the rank of the permutation).
///
/// The one Lehmer ranking of the workspace. It takes a value at a time so
/// that a hot loop can rank alongside other work in the same pass (search's
/// projections rank a tracked piece's slot with its orientation);
/// [`rank_arrangement`] and [`rank_permutation`] rank a whole sequence.
///
/// ```
/// use twistor_core::index::{rank_arrangement, LehmerRank};
///
/// // Two of the values 0..4: (2, 0) is the 7th (0-based 6) of 4 * 3.
/// let mut r = LehmerRank::new(4);
/// r.push(2);
/// r.push(0);
/// assert_eq!(r.rank(), 6);
/// assert_eq!(rank_arrangement(4, [2, 0]), 6);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LehmerRank {
    /// Values not yet placed (the radix of the next digit).
    left: u64,
    /// The values placed so far, as bits.
    used: u64,
    rank: u64,
}

impl LehmerRank {
    /// Ranking of arrangements of values from `0..n` (`n <= 64`).
    #[inline]
    pub fn new(n: usize) -> LehmerRank {
        LehmerRank {
            left: n as u64,
            used: 0,
            rank: 0,
        }
    }

    /// Places the next value, `x < n`, not placed before.
    #[inline]
    pub fn push(&mut self, x: u8) {
        let below = (self.used & ((1u64 << x) - 1)).count_ones() as u64;
        self.rank = self.rank * self.left + x as u64 - below;
        self.left -= 1;
        self.used |= 1u64 << x;
    }

    /// The rank of the values placed so far.
    #[inline]
    pub fn rank(&self) -> u64 {
        self.rank
    }
}

/// The lexicographic rank of `values`, distinct values from `0..n`
/// (`n <= 64`), among the `n! / (n - k)!` arrangements of `k` of them
/// ([`LehmerRank`] over the whole sequence).
#[inline]
pub fn rank_arrangement(n: usize, values: impl IntoIterator<Item = u8>) -> u64 {
    let mut r = LehmerRank::new(n);
    for x in values {
        r.push(x);
    }
    r.rank()
}

/// The lexicographic rank of a permutation of `0..n` (`n <= 20`).
///
/// Permutations that differ by swapping their last two entries have ranks
/// `2j` and `2j + 1`, so `rank >> 1` ranks the permutations of one parity.
#[inline]
pub fn rank_permutation(perm: &[u8]) -> u64 {
    rank_arrangement(perm.len(), perm.iter().copied())
}

/// Lehmer digits of `index` for arrangements of `digits.len()` of `n`
/// values (digit `i` has radix `n - i`).
#[inline]
fn lehmer_digits(n: usize, mut index: u64, digits: &mut [u8]) {
    for i in (0..digits.len()).rev() {
        let radix = (n - i) as u64;
        digits[i] = (index % radix) as u8;
        index /= radix;
    }
}

/// Writes the arrangement with Lehmer digits `digits` into `out`.
#[inline]
fn from_lehmer(digits: &[u8], out: &mut [u8]) {
    let mut used = 0u64;
    for (i, &d) in digits.iter().enumerate() {
        // The d-th value not yet used.
        let mut free = !used;
        for _ in 0..d {
            free &= free - 1;
        }
        let l = free.trailing_zeros();
        used |= 1 << l;
        out[i] = l as u8;
    }
}

/// The arrangement of `out.len()` distinct values from `0..n` (`n <= 64`)
/// with lexicographic rank `index` (the inverse of [`rank_arrangement`]).
#[inline]
pub fn unrank_arrangement(n: usize, index: u64, out: &mut [u8]) {
    let mut digits = [0u8; 64];
    let k = out.len();
    lehmer_digits(n, index, &mut digits[..k]);
    from_lehmer(&digits[..k], out);
}

/// The permutation of `0..out.len()` with lexicographic rank `index`.
#[inline]
pub fn unrank_permutation(index: u64, out: &mut [u8]) {
    let mut digits = [0u8; MAX_BLOCK_PIECES];
    let n = out.len();
    lehmer_digits(n, index, &mut digits[..n]);
    from_lehmer(&digits[..n], out);
}

/// The permutation of parity `parity` (0 even, 1 odd) whose rank among
/// permutations of that parity is `index` (the rank `>> 1` of
/// [`rank_permutation`]). Needs `out.len() >= 2`.
#[inline]
pub fn unrank_permutation_with_parity(index: u64, parity: u8, out: &mut [u8]) {
    let mut digits = [0u8; MAX_BLOCK_PIECES];
    let n = out.len();
    lehmer_digits(n, index << 1, &mut digits[..n]);
    // The digit sum has the parity of the permutation; the radix-2 digit
    // (second to last) is the one `index << 1` leaves at 0.
    let sum: u32 = digits[..n].iter().map(|&d| d as u32).sum();
    if sum % 2 != parity as u32 {
        digits[n - 2] = 1;
    }
    from_lehmer(&digits[..n], out);
}

/// The parity of a permutation of `0..n`: 0 even, 1 odd.
pub fn permutation_parity(perm: &[u8]) -> u8 {
    let mut seen = [false; 256];
    let mut odd = 0u8;
    for s in 0..perm.len() {
        if seen[s] {
            continue;
        }
        let mut i = s;
        let mut len = 0;
        while !seen[i] {
            seen[i] = true;
            len += 1;
            i = perm[i] as usize;
        }
        if len % 2 == 0 {
            odd ^= 1;
        }
    }
    odd
}

/// The number of distinct arrangements of a multiset with these counts,
/// `(c1 + c2 + ...)! / (c1! c2! ...)`, if it fits 64 bits.
pub fn multinomial(counts: &[u8]) -> Option<u64> {
    let mut r: u128 = 1;
    let mut n: u128 = 0;
    for &c in counts {
        for j in 1..=c as u128 {
            n += 1;
            // r * n / j stays exact: r counts arrangements of the prefix.
            r = r * n / j;
            if r > u64::MAX as u128 {
                return None;
            }
        }
    }
    Some(r as u64)
}

/// The lexicographic rank of a sequence of types `seq` (type `t` appearing
/// `counts[t]` times) among all arrangements of that multiset.
pub fn rank_multiset(seq: &[u8], counts: &[u8]) -> Option<u64> {
    let total = multinomial(counts)?;
    Some(rank_multiset_with(seq, counts, total))
}

#[inline]
pub(super) fn rank_multiset_with(seq: &[u8], counts: &[u8], arrangements: u64) -> u64 {
    let mut c = [0u8; 256];
    c[..counts.len()].copy_from_slice(counts);
    let n = seq.len();
    let mut a = arrangements as u128;
    let mut r: u128 = 0;
    for (i, &v) in seq.iter().enumerate() {
        let rem = (n - i) as u128;
        for &cu in &c[..v as usize] {
            r += a * cu as u128 / rem;
        }
        a = a * c[v as usize] as u128 / rem;
        c[v as usize] -= 1;
    }
    r as u64
}

/// The arrangement of the multiset (`counts[t]` copies of type `t`) with
/// lexicographic rank `index`, written into `out` (`sum(counts)` long).
pub fn unrank_multiset(index: u64, counts: &[u8], out: &mut [u8]) -> Option<()> {
    let total = multinomial(counts)?;
    unrank_multiset_with(index, counts, total, out);
    Some(())
}

#[inline]
pub(super) fn unrank_multiset_with(index: u64, counts: &[u8], arrangements: u64, out: &mut [u8]) {
    let mut c = [0u8; 256];
    c[..counts.len()].copy_from_slice(counts);
    let n = out.len();
    let mut a = arrangements as u128;
    let mut r = index as u128;
    for (i, slot) in out.iter_mut().enumerate() {
        let rem = (n - i) as u128;
        for (t, ct) in c[..counts.len()].iter_mut().enumerate() {
            if *ct == 0 {
                continue;
            }
            let x = a * *ct as u128 / rem;
            if r < x {
                *slot = t as u8;
                a = x;
                *ct -= 1;
                break;
            }
            r -= x;
        }
    }
}

/// The binomial coefficient `n` choose `k` (0 when `k > n`), if it fits
/// 64 bits.
pub fn binomial(n: u64, k: u64) -> Option<u64> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut r: u128 = 1;
    for i in 0..k as u128 {
        // r * (n - i) / (i + 1) stays exact: r is C(n, i).
        r = r * (n as u128 - i) / (i + 1);
        if r > u64::MAX as u128 {
            return None;
        }
    }
    Some(r as u64)
}

/// The colex rank of a strictly increasing sequence of values,
/// `sum C(values[i], i + 1)`, among the `C(n, k)` sets of `k` of `n`
/// values: sets of values below `m` come first, so a set's rank does not
/// depend on `n`. `binomials[x][j]` must hold `C(x, j)` for every value
/// `x` and `j <= values.len()` (see [`binomial_table`]).
///
/// ```
/// use twistor_core::index::{binomial_table, rank_combination, unrank_combination};
///
/// let table = binomial_table(6, 3);
/// // The sets of 3 of 0..6 in colex order: {0,1,2} is 0, {0,1,3} is 1, ...
/// assert_eq!(rank_combination(&table, &[0, 1, 2]), 0);
/// assert_eq!(rank_combination(&table, &[0, 1, 3]), 1);
/// assert_eq!(rank_combination(&table, &[3, 4, 5]), 19);
/// let mut set = [0u16; 3];
/// unrank_combination(&table, 19, &mut set);
/// assert_eq!(set, [3, 4, 5]);
/// ```
#[inline]
pub fn rank_combination(binomials: &[Vec<u64>], values: &[u16]) -> u64 {
    values
        .iter()
        .enumerate()
        .map(|(i, &x)| binomials[x as usize][i + 1])
        .sum()
}

/// The set of `out.len()` values with colex rank `index` (the inverse of
/// [`rank_combination`]), written in increasing order.
#[inline]
pub fn unrank_combination(binomials: &[Vec<u64>], mut index: u64, out: &mut [u16]) {
    let mut x = binomials.len();
    for i in (0..out.len()).rev() {
        // The largest value x with C(x, i + 1) <= index.
        x -= 1;
        while binomials[x][i + 1] > index {
            x -= 1;
        }
        out[i] = x as u16;
        index -= binomials[x][i + 1];
    }
}

/// `table[x][j] = C(x, j)` for `x < n` and `j <= k` (saturating at
/// `u64::MAX`), as [`rank_combination`] reads it.
pub fn binomial_table(n: usize, k: usize) -> Vec<Vec<u64>> {
    (0..n)
        .map(|x| {
            (0..=k)
                .map(|j| binomial(x as u64, j as u64).unwrap_or(u64::MAX))
                .collect()
        })
        .collect()
}
