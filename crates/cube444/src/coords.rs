//! Small coordinates of the reduction phases: which k of n centre slots
//! hold a colour (ranked in colex order), and permutations of 12 ranked
//! by their Lehmer code.

/// C(n, k) for n ≤ 24: the core's kernel, in this crate's integer type.
pub(crate) fn binomial(n: usize, k: usize) -> usize {
    twistor_core::index::binomial(n as u64, k as u64).map_or(0, |b| b as usize)
}

/// Binomials C(n, k) for n < 25, k < 9, as a lookup table.
#[derive(Clone)]
pub(crate) struct Binomials([[u32; 9]; 25]);

impl Binomials {
    pub(crate) fn new() -> Binomials {
        let mut t = [[0u32; 9]; 25];
        for (n, row) in t.iter_mut().enumerate() {
            for (k, c) in row.iter_mut().enumerate() {
                *c = binomial(n, k) as u32;
            }
        }
        Binomials(t)
    }

    /// The colex rank of a set of bits among all sets of the same size:
    /// the sets of k bits in increasing numeric order.
    #[inline]
    pub(crate) fn rank(&self, mut mask: u32) -> usize {
        let mut r = 0;
        let mut k = 1;
        while mask != 0 {
            let pos = mask.trailing_zeros() as usize;
            r += self.0[pos][k] as usize;
            k += 1;
            mask &= mask - 1;
        }
        r
    }
}

/// All n-bit masks with k bits set, in increasing order (their colex
/// ranks are their indices).
pub(crate) fn masks(n: u32, k: u32) -> Vec<u32> {
    let mut out = Vec::new();
    if k == 0 {
        return vec![0];
    }
    let mut m: u32 = (1 << k) - 1;
    while m < (1 << n) {
        out.push(m);
        // Gosper's hack: the next larger number with as many bits.
        let c = m & m.wrapping_neg();
        let r = m + c;
        m = (((r ^ m) >> 2) / c) | r;
    }
    out
}

/// The Lehmer-code rank of a permutation of 0..12 (0..12!).
#[inline]
pub(crate) fn rank12(p: &[u8; 12]) -> u32 {
    twistor_core::index::rank_permutation(p) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_ranks_are_the_indices_of_the_sorted_masks() {
        let b = Binomials::new();
        let all = masks(24, 8);
        assert_eq!(all.len(), 735_471);
        for (i, &m) in all.iter().enumerate().step_by(997) {
            assert_eq!(b.rank(m), i);
        }
        assert_eq!(masks(16, 8).len(), 12_870);
        assert_eq!(masks(8, 4).len(), 70);
    }

    #[test]
    fn lehmer_ranks_are_distinct_and_bounded() {
        let id: [u8; 12] = std::array::from_fn(|i| i as u8);
        assert_eq!(rank12(&id), 0);
        let rev: [u8; 12] = std::array::from_fn(|i| 11 - i as u8);
        assert_eq!(rank12(&rev), 479_001_600 - 1);
        let mut swapped = id;
        swapped.swap(10, 11);
        assert_eq!(rank12(&swapped), 1);
    }
}
