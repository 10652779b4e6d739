//! Search 5: powers that keep the kept orbits, shrunk by commutators.
//!
//! On deep-cut puzzles whose kept orbits are large (the chopasaurus: its
//! 60 centres finished while its 20 corners and 12 face centres stay),
//! every short commutator moves kept pieces, and the kept orbits'
//! arrangements are too many for the kernel walk. Two facts still give
//! pure cycles:
//!
//! - A short word `w` whose cycles on the kept slots all come home in `k`
//!   turns, while some cycle of the orbit does not, gives `w^k`: an
//!   element that changes the orbit only (an element of the kernel).
//! - A conjugate `x g x'` of such an element changes the orbit only too,
//!   on the slots `x` carries onto `g`'s. Two elements of the kernel whose
//!   supports on the orbit meet in a single slot have a commutator that
//!   is a 3-cycle of the orbit.
//!
//! So the search collects powers of small support, then pairs each,
//! conjugated by up to two moves, with the others, until the pairs
//! meeting in one slot give enough cycles. The cycles are long (four
//! powers of a few turns each), which is why this comes last.

use std::collections::HashSet;

use super::{canonical_sequences, commutator, gcd64, power, traced_sequences, Finder};
use crate::model::Tracer;

/// Longest word a kept-orbit power may be.
const POWER_WORD: usize = 36;
/// Longest base word raised to a power.
const BASE_WORD: usize = 3;
/// Elements of the kernel kept for pairing.
const POOL: usize = 160;
/// Longest conjugating word.
const CONJUGATOR: usize = 2;
/// Most slots followed through words (a bound on the work).
const WORK: u64 = 200_000_000;

impl Finder<'_> {
    /// Search 5 (see the module docs).
    pub(super) fn kernel_powers(&mut self) {
        let model = self.model;
        let (base, n) = (model.base[self.orbit], model.size[self.orbit]);
        let blocks = n.div_ceil(64);
        let touching = self.touching.clone();
        let mut work = 0u64;
        let mut actions: HashSet<Vec<(u16, u8)>> = HashSet::new();
        // (word, support on the orbit as bits).
        let mut pool: Vec<(Vec<usize>, Vec<u64>)> = Vec::new();
        let mut prefix = Vec::new();
        let mut tracer = Tracer::watching(model, |k| k == self.orbit || self.keep[k]);
        for len in 1..=BASE_WORD {
            let mut visit = |w: &[usize], tracer: &mut Tracer| {
                // Every slot that must come home: the kept orbits' (alike
                // or not).
                let effect: Vec<(u16, u16, u8)> = tracer.pushed_effect().to_vec();
                let slots: Vec<u16> = effect.iter().map(|e| e.0).collect();
                work += (slots.len() * w.len()) as u64;
                if work > WORK / 4 {
                    return false;
                }
                // Cycles of the slots that count: (in the orbit, period).
                let mut seen = vec![false; slots.len()];
                let mut cycles: Vec<(u16, bool, u64)> = Vec::new();
                for &s in &slots {
                    if seen[slots.binary_search(&s).expect("a slot of the word")] {
                        continue;
                    }
                    let oris = u64::from(model.oris[model.orbit_of[s as usize] as usize]).max(1);
                    let (mut at, mut length, mut twist) = (s, 0u64, 0u64);
                    loop {
                        // A slot the word moves lands on one it moves.
                        let Ok(i) = slots.binary_search(&at) else {
                            return true;
                        };
                        seen[i] = true;
                        let (_, to, tw) = effect[i];
                        length += 1;
                        twist += u64::from(tw);
                        at = to;
                        if at == s {
                            break;
                        }
                    }
                    let in_orbit = model.orbit_of[s as usize] as usize == self.orbit;
                    let period = length * (oris / gcd64(twist % oris, oris));
                    cycles.push((s, in_orbit, period));
                }
                let k = cycles
                    .iter()
                    .filter(|c| !c.1)
                    .fold(1u64, |k, c| k / gcd64(k, c.2) * c.2);
                if k as usize * w.len() > POWER_WORD || !cycles.iter().any(|c| c.1 && c.2 % k != 0)
                {
                    return true;
                }
                let word = power(w, k);
                let action = self.orbit_map(&word);
                work += (n * word.len()) as u64;
                let mut bits = vec![0u64; blocks];
                for (x, &a) in action.iter().enumerate() {
                    if a != ((base + x) as u16, 0) {
                        bits[x / 64] |= 1 << (x % 64);
                    }
                }
                if actions.insert(action) {
                    pool.push((word, bits));
                }
                true
            };
            traced_sequences(model, &touching, len, &mut prefix, &mut tracer, &mut visit);
        }
        let support = |b: &[u64]| b.iter().map(|x| x.count_ones()).sum::<u32>();
        pool.sort_by_key(|(w, b)| (w.len(), support(b)));
        pool.truncate(POOL);
        if pool.is_empty() {
            return;
        }
        // Conjugators, shortest first, each as its map of the orbit.
        let mut conjugators: Vec<Vec<usize>> = vec![Vec::new()];
        for len in 1..=CONJUGATOR {
            canonical_sequences(model, &touching, len, &mut prefix, &mut |x: &[usize]| {
                conjugators.push(x.to_vec());
                true
            });
        }
        for x in &conjugators {
            let map: Vec<usize> = (self.orbit_map(x).into_iter())
                .map(|(to, _)| to as usize - base)
                .collect();
            work += (n * x.len()) as u64;
            for (a, (aw, ab)) in pool.iter().enumerate() {
                // The support of x a x': the slots x carries onto a's.
                let mut hb = vec![0u64; blocks];
                for (s, &t) in map.iter().enumerate() {
                    if ab[t / 64] >> (t % 64) & 1 == 1 {
                        hb[s / 64] |= 1 << (s % 64);
                    }
                }
                for (bw, bb) in pool.iter().skip(if x.is_empty() { a + 1 } else { 0 }) {
                    let meet: u32 = hb.iter().zip(bb).map(|(p, q)| (p & q).count_ones()).sum();
                    if meet != 1 {
                        continue;
                    }
                    let mut h = x.clone();
                    h.extend_from_slice(aw);
                    h.extend(model.inverse(x));
                    let word = commutator(model, &h, bw);
                    work += (word.len() * (support(&hb) + support(bb)) as usize) as u64;
                    self.offer(&word, false);
                    if self.satisfied() || work > WORK {
                        return;
                    }
                }
            }
        }
    }
}
