//! Patterns: what a puzzle looks like, as opposed to what was done to it.
//!
//! A pattern (cubing.js KPattern, ksolve state) may have identical pieces
//! (repeated piece ids), orientation wildcards and per-piece orientation
//! moduli. The modulus travels with the piece, exactly as cubing.js's
//! `orientationMod`, which is why orientation bytes are codes (see
//! [`Layout`]). A pattern may only stand on the left of a product:
//! `pattern · transformation` is the pattern after the transformation.

use crate::{CoreError, Layout, Transformation};

/// A pattern, packed as described in [`Layout`] with orientation codes.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pattern {
    bytes: Box<[u8]>,
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pattern({:?})", &self.bytes)
    }
}

/// One orbit of a pattern in plain values (the KPattern JSON view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternOrbit {
    /// Piece id in each slot, 0-based; ids may repeat for identical pieces.
    pub pieces: Vec<u8>,
    /// Orientation of the piece in each slot, below its modulus.
    pub orientation: Vec<u8>,
    /// Per slot, the modulus the orientation is known to: 0 is the orbit's
    /// full count, 1 is unknown (a `?` wildcard). `None` means all full.
    pub orientation_mod: Option<Vec<u8>>,
}

impl Pattern {
    /// The packed bytes (orientation bytes are codes).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Wraps bytes already known to be a valid pattern for their layout.
    pub fn from_valid_bytes(bytes: Vec<u8>) -> Pattern {
        Pattern {
            bytes: bytes.into_boxed_slice(),
        }
    }
}

impl Layout {
    /// A pattern from plain per-orbit values, checked: one entry per orbit,
    /// lengths equal to the orbit's piece count, piece ids in range,
    /// moduli 0 or proper divisors of the orientation count, orientations
    /// below their modulus.
    pub fn pattern(&self, orbits: &[PatternOrbit]) -> Result<Pattern, CoreError> {
        if orbits.len() != self.orbits().len() {
            return Err(CoreError::StateLength {
                expected: self.orbits().len(),
                found: orbits.len(),
            });
        }
        let mut bytes = vec![0u8; self.state_len()];
        for (k, (orbit, po)) in self.orbits().iter().zip(orbits).enumerate() {
            let n = orbit.num_pieces();
            let m = orbit.num_orientations();
            let name = || orbit.name().to_string();
            let lists = [
                ("pieces", Some(po.pieces.len())),
                ("orientation", Some(po.orientation.len())),
                ("orientationMod", po.orientation_mod.as_ref().map(Vec::len)),
            ];
            for (list, len) in lists {
                match len {
                    Some(found) if found != n => {
                        return Err(CoreError::OrbitLength {
                            orbit: name(),
                            list,
                            expected: n,
                            found,
                        })
                    }
                    _ => {}
                }
            }
            let off = self.offset(k);
            for slot in 0..n {
                let piece = po.pieces[slot];
                if piece as usize >= n {
                    return Err(CoreError::PieceOutOfRange {
                        orbit: name(),
                        slot,
                        piece: piece as usize,
                    });
                }
                let modulus = po.orientation_mod.as_ref().map_or(0, |v| v[slot]);
                if modulus != 0 && (modulus as usize >= m || m % modulus as usize != 0) {
                    return Err(CoreError::BadOrientationMod {
                        orbit: name(),
                        slot,
                        modulus: modulus as usize,
                        orientations: m,
                    });
                }
                let value = po.orientation[slot];
                let limit = if modulus == 0 { m } else { modulus as usize };
                if value as usize >= limit {
                    return Err(CoreError::OrientationOutOfRange {
                        orbit: name(),
                        slot,
                        value: value as usize,
                        modulus: limit,
                    });
                }
                let code = self.encode_orientation(k, value, modulus).ok_or_else(|| {
                    CoreError::BadOrientationMod {
                        orbit: name(),
                        slot,
                        modulus: modulus as usize,
                        orientations: m,
                    }
                })?;
                bytes[off + slot] = piece;
                bytes[off + n + slot] = code;
            }
        }
        Ok(Pattern::from_valid_bytes(bytes))
    }

    /// The plain per-orbit values of a pattern.
    pub fn pattern_orbits(&self, p: &Pattern) -> Vec<PatternOrbit> {
        (0..self.orbits().len())
            .map(|k| {
                let pieces = self.perm(p.as_bytes(), k).to_vec();
                let decoded: Vec<(u8, u8)> = self
                    .ori(p.as_bytes(), k)
                    .iter()
                    .map(|&c| self.decode_orientation(k, c))
                    .collect();
                let partial = decoded.iter().any(|&(_, m)| m != 0);
                PatternOrbit {
                    pieces,
                    orientation: decoded.iter().map(|&(v, _)| v).collect(),
                    orientation_mod: partial.then(|| decoded.iter().map(|&(_, m)| m).collect()),
                }
            })
            .collect()
    }

    /// The pattern `p` followed by `t`.
    pub fn apply(&self, p: &Pattern, t: &Transformation) -> Pattern {
        let mut out = vec![0u8; self.state_len()];
        self.compose_into(p.as_bytes(), t.as_bytes(), &mut out);
        Pattern::from_valid_bytes(out)
    }

    /// The pattern of a transformation applied to the identity pattern
    /// (every piece distinct, in its own slot, orientation 0).
    pub fn pattern_of(&self, t: &Transformation) -> Pattern {
        Pattern::from_valid_bytes(t.as_bytes().to_vec())
    }

    /// The transformation that takes the identity pattern to `p`, if `p`
    /// has distinct pieces and fully known orientations.
    pub fn transformation_of(&self, p: &Pattern) -> Option<Transformation> {
        Transformation::from_bytes(self, p.as_bytes().to_vec()).ok()
    }

    /// Per orbit, whether `p`'s pieces there are all distinct and their
    /// orientations fully known: the orbits on which a pattern is a
    /// transformation.
    pub fn labelled_orbits(&self, p: &Pattern) -> Vec<bool> {
        (0..self.orbits().len())
            .map(|k| {
                let m = self.orbits()[k].num_orientations() as u8;
                let mut seen = [false; 256];
                let distinct = (self.perm(p.as_bytes(), k).iter())
                    .all(|&x| !std::mem::replace(&mut seen[x as usize], true));
                distinct && self.ori(p.as_bytes(), k).iter().all(|&c| c < m)
            })
            .collect()
    }

    /// Whether some orbit of `p` has repeated piece ids.
    pub fn has_identical_pieces(&self, p: &Pattern) -> bool {
        (0..self.orbits().len()).any(|k| {
            let mut seen = [false; 256];
            self.perm(p.as_bytes(), k).iter().any(|&x| {
                let dup = seen[x as usize];
                seen[x as usize] = true;
                dup
            })
        })
    }

    /// Whether some orientation of `p` is known only partly (a wildcard or
    /// an orientation modulus).
    pub fn has_partial_orientation(&self, p: &Pattern) -> bool {
        (0..self.orbits().len()).any(|k| {
            let m = self.orbits()[k].num_orientations() as u8;
            self.ori(p.as_bytes(), k).iter().any(|&c| c >= m)
        })
    }

    /// Checks bytes as a pattern of this layout.
    pub fn pattern_from_bytes(&self, bytes: Vec<u8>) -> Result<Pattern, CoreError> {
        if bytes.len() != self.state_len() {
            return Err(CoreError::StateLength {
                expected: self.state_len(),
                found: bytes.len(),
            });
        }
        for (k, orbit) in self.orbits().iter().enumerate() {
            for (slot, &p) in self.perm(&bytes, k).iter().enumerate() {
                if p as usize >= orbit.num_pieces() {
                    return Err(CoreError::PieceOutOfRange {
                        orbit: orbit.name().to_string(),
                        slot,
                        piece: p as usize,
                    });
                }
            }
            for (slot, &c) in self.ori(&bytes, k).iter().enumerate() {
                if !self.is_valid_code(k, c) {
                    return Err(CoreError::OrientationOutOfRange {
                        orbit: orbit.name().to_string(),
                        slot,
                        value: c as usize,
                        modulus: orbit.num_orientations(),
                    });
                }
            }
        }
        Ok(Pattern::from_valid_bytes(bytes))
    }

    /// Whether `a` and `b` hold the same multiset of piece ids in every orbit
    /// (a scramble must, to be a position of the same puzzle).
    pub fn same_pieces(&self, a: &Pattern, b: &Pattern) -> bool {
        (0..self.orbits().len()).all(|k| {
            let mut ca = [0u16; 256];
            for &x in self.perm(a.as_bytes(), k) {
                ca[x as usize] += 1;
            }
            for &x in self.perm(b.as_bytes(), k) {
                ca[x as usize] = ca[x as usize].wrapping_sub(1);
            }
            ca.iter().all(|&c| c == 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Orbit;

    #[test]
    fn orientation_mod_travels_with_the_piece() {
        let l = Layout::new(vec![Orbit::new("CENTERS", 2, 4).unwrap()]).unwrap();
        // Slot 0 holds a piece with C2 symmetry, slot 1 a fully oriented one.
        let p = l
            .pattern(&[PatternOrbit {
                pieces: vec![0, 1],
                orientation: vec![1, 2],
                orientation_mod: Some(vec![2, 0]),
            }])
            .unwrap();
        // Swap the slots and turn the piece arriving in slot 1 by 3.
        let t = Transformation::from_bytes(&l, vec![1, 0, 0, 3]).unwrap();
        let q = l.apply(&p, &t);
        let po = &l.pattern_orbits(&q)[0];
        assert_eq!(po.pieces, vec![1, 0]);
        // Slot 0: piece 1 (full), 2 + 0. Slot 1: piece 0 (mod 2), 1 + 3 = 4 = 0 mod 2.
        assert_eq!(po.orientation, vec![2, 0]);
        assert_eq!(po.orientation_mod, Some(vec![0, 2]));
    }

    #[test]
    fn rejects_unnormalised_or_bad_moduli() {
        let l = Layout::new(vec![Orbit::new("C", 2, 4).unwrap()]).unwrap();
        let bad = |o: Vec<u8>, m: Vec<u8>| {
            l.pattern(&[PatternOrbit {
                pieces: vec![0, 1],
                orientation: o,
                orientation_mod: Some(m),
            }])
            .is_err()
        };
        assert!(bad(vec![2, 0], vec![2, 0]));
        assert!(bad(vec![0, 0], vec![3, 0]));
        assert!(bad(vec![0, 0], vec![4, 0]));
        assert!(!bad(vec![1, 3], vec![2, 0]));
    }

    /// The KPattern message that said "expected 4 entries, found 4" when
    /// the pieces were right and the orientations short.
    #[test]
    fn kpattern_short_list_names_the_list_and_its_length() {
        let l = Layout::new(vec![Orbit::new("CORNERS", 4, 3).unwrap()]).unwrap();
        let e = l
            .pattern(&[PatternOrbit {
                pieces: vec![0, 1, 2, 3],
                orientation: vec![0, 0, 0],
                orientation_mod: None,
            }])
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "orbit CORNERS: orientation has 3 entries, expected 4 (one a piece)"
        );
    }
}
