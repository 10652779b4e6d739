//! The workspace's one seeded random generator.
//!
//! Random states, scrambles, tests, benchmarks and the fuzz harness all
//! draw from [`SeededRng`], so a seed means the same stream everywhere. It is ChaCha8 keyed by the seed: the
//! cipher's output for a key is fixed by its definition, so `--seed S`
//! reproduces a run exactly on every platform and version. Integers in a
//! range are drawn by rejection, so every value is exactly equally likely.
//!
//! ```
//! use twistor_core::random::SeededRng;
//!
//! let mut a = SeededRng::new(5);
//! let mut b = SeededRng::new(5);
//! assert_eq!(a.next_u64(), b.next_u64());
//! assert!(a.below(6) < 6);
//! ```

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng};

/// A reproducible source of uniform random integers (ChaCha8).
#[derive(Debug)]
pub struct SeededRng {
    inner: ChaCha8Rng,
}

impl SeededRng {
    /// The generator for `seed`: ChaCha8 keyed by the seed's eight
    /// little-endian bytes followed by zeros.
    pub fn new(seed: u64) -> SeededRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        SeededRng {
            inner: ChaCha8Rng::from_seed(key),
        }
    }

    /// Generator number `stream` of `seed`: ChaCha8 with the same key and
    /// its 64-bit stream number set, so the streams of one seed are
    /// independent and `with_stream(seed, 0)` is `new(seed)`. Work split
    /// into items (a batch of scrambles) draws item `i` from stream `i`, and
    /// gives the same results on any number of threads.
    pub fn with_stream(seed: u64, stream: u64) -> SeededRng {
        let mut rng = SeededRng::new(seed);
        rng.inner.set_stream(stream);
        rng
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection of the top
    /// partial block of 64-bit values, so no value is favoured.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0)");
        let n = n as u64;
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }

    /// A uniformly chosen element of `items` (which must not be empty).
    #[inline]
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The chi-square statistic of `counts` against equal expectation in
/// every bin: how the tests of random states and scrambles check that
/// their draws are uniform (against [`chi_square_critical`]).
pub fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let e = total as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
}

/// The upper critical value of the chi-square distribution with `k`
/// degrees of freedom at significance 0.001 (Wilson–Hilferty
/// approximation, accurate to a fraction of a percent for k ≥ 20).
pub fn chi_square_critical(k: usize) -> f64 {
    let k = k as f64;
    let z = 3.0902; // upper 0.1% point of the standard normal
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + z * a.sqrt()).powi(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_distinct_and_stream_zero_is_the_seed() {
        let draw = |mut r: SeededRng| (0..4).map(|_| r.next_u64()).collect::<Vec<_>>();
        assert_eq!(draw(SeededRng::with_stream(9, 0)), draw(SeededRng::new(9)));
        assert_ne!(draw(SeededRng::with_stream(9, 1)), draw(SeededRng::new(9)));
        assert_ne!(
            draw(SeededRng::with_stream(9, 1)),
            draw(SeededRng::with_stream(9, 2))
        );
        assert_eq!(
            draw(SeededRng::with_stream(9, 7)),
            draw(SeededRng::with_stream(9, 7))
        );
    }

    fn first_four(seed: u64) -> Vec<u64> {
        let mut r = SeededRng::new(seed);
        (0..4).map(|_| r.next_u64()).collect()
    }

    #[test]
    fn seeds_reproduce_and_differ() {
        assert_eq!(first_four(5), first_four(5));
        assert_ne!(first_four(5), first_four(6));
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = SeededRng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }
}
