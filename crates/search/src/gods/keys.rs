//! Positions packed into a few 64-bit words, for the engines that store
//! positions themselves (sorted arrays, products, antipode paths): each
//! byte of a packed state takes only the bits its values need.

use std::hash::Hash;

use twistor_core::Layout;

/// A packed position: a fixed number of words, ordered and hashable.
pub(crate) trait Key: Copy + Ord + Hash + Send + Sync + std::fmt::Debug + 'static {
    /// The all-zero key.
    fn zero() -> Self;
    /// Its words.
    fn words(&self) -> &[u64];
    /// Its words, writable.
    fn words_mut(&mut self) -> &mut [u64];
}

impl<const W: usize> Key for [u64; W] {
    #[inline]
    fn zero() -> Self {
        [0; W]
    }
    #[inline]
    fn words(&self) -> &[u64] {
        self
    }
    #[inline]
    fn words_mut(&mut self) -> &mut [u64] {
        self
    }
}

/// Packs states of one layout into keys and back.
#[derive(Clone, Debug)]
pub(crate) struct KeyPacker {
    /// (byte position, bit width) of every byte that varies.
    fields: Vec<(usize, u32)>,
    bits: usize,
    len: usize,
}

fn bits_for(max: u32) -> u32 {
    32 - max.leading_zeros()
}

impl KeyPacker {
    /// A packer for states (patterns) of `layout`.
    pub fn new(layout: &Layout) -> KeyPacker {
        let mut fields = Vec::new();
        let mut bits = 0usize;
        for (k, orbit) in layout.orbits().iter().enumerate() {
            let n = orbit.num_pieces();
            let m = orbit.num_orientations() as u8;
            let off = layout.offset(k);
            let pw = bits_for(n as u32 - 1);
            // The largest orientation code any modulus can give.
            let mut max_code = 0u32;
            if m > 1 {
                for d in (1..=m).filter(|d| m % d == 0) {
                    let modulus = if d == m { 0 } else { d };
                    for v in 0..d {
                        if let Some(c) = layout.encode_orientation(k, v, modulus) {
                            max_code = max_code.max(c as u32);
                        }
                    }
                }
            }
            let ow = bits_for(max_code);
            for i in 0..n {
                if pw > 0 {
                    fields.push((off + i, pw));
                    bits += pw as usize;
                }
            }
            for i in 0..n {
                if ow > 0 {
                    fields.push((off + n + i, ow));
                    bits += ow as usize;
                }
            }
        }
        KeyPacker {
            fields,
            bits,
            len: layout.state_len(),
        }
    }

    /// 64-bit words a key needs.
    pub fn words(&self) -> usize {
        self.bits.div_ceil(64).max(1)
    }

    /// Bits a key needs.
    pub fn bits(&self) -> usize {
        self.bits
    }

    /// Packs a state.
    #[inline]
    pub fn pack<K: Key>(&self, state: &[u8]) -> K {
        let mut key = K::zero();
        let w = key.words_mut();
        let mut bit = 0usize;
        for &(pos, width) in &self.fields {
            let v = state[pos] as u64;
            let (word, off) = (bit >> 6, bit & 63);
            w[word] |= v << off;
            if off + width as usize > 64 {
                w[word + 1] |= v >> (64 - off);
            }
            bit += width as usize;
        }
        key
    }

    /// Unpacks a key into `state`, whose bytes that never vary (pieces of
    /// one-piece orbits, orientations of one-orientation orbits) must
    /// already hold 0.
    #[inline]
    pub fn unpack<K: Key>(&self, key: &K, state: &mut [u8]) {
        debug_assert_eq!(state.len(), self.len);
        let w = key.words();
        let mut bit = 0usize;
        for &(pos, width) in &self.fields {
            let (word, off) = (bit >> 6, bit & 63);
            let mut v = w[word] >> off;
            if off + width as usize > 64 {
                v |= w[word + 1] << (64 - off);
            }
            state[pos] = (v & ((1u64 << width) - 1)) as u8;
            bit += width as usize;
        }
    }

    /// A state buffer whose fixed bytes are right for [`unpack`](Self::unpack).
    pub fn blank(&self) -> Vec<u8> {
        vec![0; self.len]
    }
}

/// Calls `$body` with the type alias `$k` bound to the key type that fits
/// `$packer`, or returns `GodsError::StateTooLarge`.
macro_rules! with_key {
    ($packer:expr, $k:ident => $body:expr) => {{
        match $packer.words() {
            1 => {
                type $k = [u64; 1];
                $body
            }
            2 => {
                type $k = [u64; 2];
                $body
            }
            3 | 4 => {
                type $k = [u64; 4];
                $body
            }
            5..=8 => {
                type $k = [u64; 8];
                $body
            }
            _ => Err($crate::gods::GodsError::StateTooLarge {
                bits: $packer.bits(),
            }),
        }
    }};
}
pub(crate) use with_key;
