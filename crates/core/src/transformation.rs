//! Transformations: what a move or a sequence of moves does to a puzzle.
//!
//! A transformation has distinguishable pieces and full orientations, so it
//! can stand on either side of a product and be inverted. Patterns (which may
//! have identical pieces or partly known orientations) live in
//! [`pattern`](crate::pattern) and may only stand on the left.

use num_bigint::BigUint;
use num_integer::Integer;

use crate::{CoreError, Layout};

/// A transformation of a puzzle, packed as described in [`Layout`].
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transformation {
    bytes: Box<[u8]>,
}

impl std::fmt::Debug for Transformation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Transformation({:?})", &self.bytes)
    }
}

impl Transformation {
    /// The packed bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// A transformation from packed bytes, checked against `layout`: every
    /// orbit's permutation must be a permutation and every orientation below
    /// the orbit's orientation count.
    pub fn from_bytes(layout: &Layout, bytes: Vec<u8>) -> Result<Transformation, CoreError> {
        if bytes.len() != layout.state_len() {
            return Err(CoreError::StateLength {
                expected: layout.state_len(),
                found: bytes.len(),
            });
        }
        for (k, orbit) in layout.orbits().iter().enumerate() {
            let n = orbit.num_pieces();
            let mut seen = [false; 256];
            for (slot, &p) in layout.perm(&bytes, k).iter().enumerate() {
                if p as usize >= n {
                    return Err(CoreError::PieceOutOfRange {
                        orbit: orbit.name().to_string(),
                        slot,
                        piece: p as usize,
                    });
                }
                if seen[p as usize] {
                    return Err(CoreError::NotAPermutation {
                        orbit: orbit.name().to_string(),
                        piece: p as usize,
                    });
                }
                seen[p as usize] = true;
            }
            for (slot, &o) in layout.ori(&bytes, k).iter().enumerate() {
                if o as usize >= orbit.num_orientations() {
                    return Err(CoreError::OrientationOutOfRange {
                        orbit: orbit.name().to_string(),
                        slot,
                        value: o as usize,
                        modulus: orbit.num_orientations(),
                    });
                }
            }
        }
        Ok(Transformation {
            bytes: bytes.into_boxed_slice(),
        })
    }

    /// Wraps bytes already known to be valid for their layout.
    pub(crate) fn from_valid_bytes(bytes: Vec<u8>) -> Transformation {
        Transformation {
            bytes: bytes.into_boxed_slice(),
        }
    }
}

/// Per-orbit cycle structure of a transformation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrbitCycles {
    /// The orbit's name.
    pub orbit: String,
    /// `(length, twist)` of every cycle of length > 1 or with a non-zero twist,
    /// sorted; `twist` is the orientation a piece gains going once around.
    pub cycles: Vec<(usize, usize)>,
}

impl Layout {
    /// The identity transformation.
    pub fn identity(&self) -> Transformation {
        Transformation::from_valid_bytes(self.identity_bytes())
    }

    /// Whether `t` is the identity.
    pub fn is_identity(&self, t: &Transformation) -> bool {
        t.as_bytes() == &self.identity_bytes()[..]
    }

    /// `a` followed by `b`.
    pub fn compose(&self, a: &Transformation, b: &Transformation) -> Transformation {
        let mut out = vec![0u8; self.state_len()];
        self.compose_into(a.as_bytes(), b.as_bytes(), &mut out);
        Transformation::from_valid_bytes(out)
    }

    /// The inverse of `a`.
    pub fn invert(&self, a: &Transformation) -> Transformation {
        let mut out = vec![0u8; self.state_len()];
        self.invert_into(a.as_bytes(), &mut out);
        Transformation::from_valid_bytes(out)
    }

    /// `a` repeated `exponent` times (negative: the inverse repeated), by
    /// repeated squaring, so large exponents cost a few dozen products.
    pub fn power(&self, a: &Transformation, exponent: i64) -> Transformation {
        let base = if exponent < 0 {
            self.invert(a)
        } else {
            a.clone()
        };
        let mut e = exponent.unsigned_abs();
        let mut result = self.identity();
        let mut square = base;
        let mut tmp = vec![0u8; self.state_len()];
        while e > 0 {
            if e & 1 == 1 {
                self.compose_into(result.as_bytes(), square.as_bytes(), &mut tmp);
                result = Transformation::from_valid_bytes(tmp.clone());
            }
            e >>= 1;
            if e > 0 {
                self.compose_into(square.as_bytes(), square.as_bytes(), &mut tmp);
                square = Transformation::from_valid_bytes(tmp.clone());
            }
        }
        result
    }

    /// The cycles of `t`, orbit by orbit.
    pub fn cycles(&self, t: &Transformation) -> Vec<OrbitCycles> {
        let mut out = Vec::with_capacity(self.orbits().len());
        for (k, orbit) in self.orbits().iter().enumerate() {
            let p = self.perm(t.as_bytes(), k);
            let o = self.ori(t.as_bytes(), k);
            let m = orbit.num_orientations();
            let mut seen = vec![false; p.len()];
            let mut cycles = Vec::new();
            for start in 0..p.len() {
                if seen[start] {
                    continue;
                }
                let mut len = 0;
                let mut twist = 0usize;
                let mut i = start;
                while !seen[i] {
                    seen[i] = true;
                    twist += o[i] as usize;
                    len += 1;
                    i = p[i] as usize;
                }
                let twist = twist % m;
                if len > 1 || twist != 0 {
                    cycles.push((len, twist));
                }
            }
            cycles.sort_unstable();
            out.push(OrbitCycles {
                orbit: orbit.name().to_string(),
                cycles,
            });
        }
        out
    }

    /// The order of `t`: the least `k > 0` with `t^k` the identity.
    pub fn order(&self, t: &Transformation) -> BigUint {
        let mut order = BigUint::from(1u32);
        for (k, oc) in self.cycles(t).iter().enumerate() {
            let m = self.orbits()[k].num_orientations();
            for &(len, twist) in &oc.cycles {
                // Going once around a cycle adds `twist`; it takes
                // m / gcd(twist, m) trips to come back to orientation 0.
                let trips = m / twist.gcd(&m);
                order = order.lcm(&BigUint::from(len * trips));
            }
        }
        order
    }

    /// Whether `t` has odd permutation parity in orbit `k`.
    pub fn is_odd(&self, t: &Transformation, k: usize) -> bool {
        self.cycles(t)[k]
            .cycles
            .iter()
            .filter(|(len, _)| len % 2 == 0)
            .count()
            % 2
            == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Orbit;

    fn layout() -> Layout {
        Layout::new(vec![
            Orbit::new("EDGE", 4, 2).unwrap(),
            Orbit::new("CORNER", 3, 3).unwrap(),
        ])
        .unwrap()
    }

    #[test]
    fn sss_product_matches_the_spec() {
        let l = layout();
        let a =
            Transformation::from_bytes(&l, vec![1, 2, 3, 0, 0, 0, 1, 1, 1, 2, 0, 1, 1, 1]).unwrap();
        let b =
            Transformation::from_bytes(&l, vec![3, 0, 1, 2, 1, 0, 0, 0, 2, 0, 1, 0, 2, 0]).unwrap();
        let c = l.compose(&a, &b);
        // no[i] = o1[p2[i]] + o2[i]; np[i] = p1[p2[i]]
        for k in 0..2 {
            let (pa, oa) = (l.perm(a.as_bytes(), k), l.ori(a.as_bytes(), k));
            let (pb, ob) = (l.perm(b.as_bytes(), k), l.ori(b.as_bytes(), k));
            let m = l.orbits()[k].num_orientations() as u8;
            for i in 0..pa.len() {
                assert_eq!(l.perm(c.as_bytes(), k)[i], pa[pb[i] as usize]);
                assert_eq!(l.ori(c.as_bytes(), k)[i], (oa[pb[i] as usize] + ob[i]) % m);
            }
        }
    }

    #[test]
    fn power_and_order_agree() {
        let l = layout();
        let a =
            Transformation::from_bytes(&l, vec![1, 2, 3, 0, 0, 0, 0, 1, 1, 2, 0, 1, 1, 1]).unwrap();
        let ord = l.order(&a);
        let k: u64 = ord.try_into().unwrap();
        assert!(l.is_identity(&l.power(&a, k as i64)));
        for j in 1..k {
            assert!(!l.is_identity(&l.power(&a, j as i64)), "power {j}");
        }
        assert_eq!(l.power(&a, -1), l.invert(&a));
        assert_eq!(
            l.power(&a, 1_000_000_007),
            l.power(&a, (1_000_000_007 % k) as i64)
        );
    }

    #[test]
    fn rejects_non_permutations() {
        let l = layout();
        assert!(
            Transformation::from_bytes(&l, vec![1, 1, 3, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0]).is_err()
        );
        assert!(
            Transformation::from_bytes(&l, vec![0, 1, 2, 3, 0, 0, 0, 2, 0, 1, 2, 0, 0, 0]).is_err()
        );
    }
}
