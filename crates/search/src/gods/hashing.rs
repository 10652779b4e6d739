//! A fast hash for packed positions (the standard SipHash costs more than
//! the rest of a products step) and the checksum of checkpoint files.

use std::hash::{BuildHasherDefault, Hasher};

const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

/// Multiply-rotate hashing over 64-bit words; not resistant to chosen
/// input, which positions are not.
#[derive(Default, Clone, Copy)]
pub(crate) struct WordHasher {
    hash: u64,
}

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(26) ^ word).wrapping_mul(MULTIPLIER);
    }
}

impl Hasher for WordHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // Mix the high bits down: hash tables index by the low bits.
        let h = self.hash;
        h ^ (h >> 29) ^ (h >> 47)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
}

/// Hash maps keyed by packed positions.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// A running 64-bit checksum of words (order-sensitive), for checkpoints
/// and fingerprints.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checksum {
    a: u64,
    b: u64,
}

impl Default for Checksum {
    fn default() -> Checksum {
        Checksum {
            a: 0x243f_6a88_85a3_08d3,
            b: 0x1319_8a2e_0370_7344,
        }
    }
}

impl Checksum {
    /// Adds a word.
    #[inline]
    pub fn word(&mut self, w: u64) {
        self.a = (self.a ^ w).wrapping_mul(MULTIPLIER).rotate_left(31);
        self.b = self.b.wrapping_add(self.a ^ (w.rotate_left(17)));
    }

    /// Adds bytes (length first, so concatenations differ).
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.word(bytes.len() as u64);
        for c in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
    }

    /// The checksum so far.
    pub fn value(&self) -> u64 {
        let mut h = self.a ^ self.b.rotate_left(32);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}
