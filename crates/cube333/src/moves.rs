//! Face turns and sequences of them, with their notation.
//!
//! The solvers speak in the 18 face turns of the half-turn metric; this
//! module numbers them (`face * 3 + quarter_turns - 1`, faces in URFDLB
//! order), parses and prints them. Richer notation (groupings,
//! commutators) is the job of the project's alg parser; the CLI flattens
//! it to face turns before handing them here.

use std::fmt;
use std::str::FromStr;

use crate::cubie::{CubieCube, FACE_TURNS};
use crate::error::CubeError;

/// The six faces in Kociemba's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Face {
    /// Up.
    U = 0,
    /// Right.
    R = 1,
    /// Front.
    F = 2,
    /// Down.
    D = 3,
    /// Left.
    L = 4,
    /// Back.
    B = 5,
}

impl Face {
    /// All faces, in URFDLB order.
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    /// The face's letter.
    pub fn letter(self) -> char {
        b"URFDLB"[self as usize] as char
    }

    /// The face across the cube, whose turns commute with this one's.
    pub fn opposite(self) -> Face {
        Face::ALL[(self as usize + 3) % 6]
    }

    /// The face named by a letter (U R F D L B).
    pub fn from_letter(c: char) -> Option<Face> {
        "URFDLB".find(c).map(|i| Face::ALL[i])
    }
}

/// One face turn: a face and a number of clockwise quarter turns (1, 2 or 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FaceTurn(u8);

/// Number of face turns in the half-turn metric.
pub const N_MOVES: usize = 18;

impl FaceTurn {
    /// The turn of `face` by `quarter_turns` clockwise quarter turns
    /// (taken mod 4); `None` for a multiple of four (no turn at all).
    pub fn new(face: Face, quarter_turns: i64) -> Option<FaceTurn> {
        let q = quarter_turns.rem_euclid(4) as u8;
        (q != 0).then(|| FaceTurn(face as u8 * 3 + q - 1))
    }

    /// The move with index `i` in `0..18`.
    pub fn from_index(i: usize) -> FaceTurn {
        debug_assert!(i < N_MOVES);
        FaceTurn(i as u8)
    }

    /// Index in `0..18`: `face * 3 + quarter_turns - 1`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The face turned.
    pub fn face(self) -> Face {
        Face::ALL[(self.0 / 3) as usize]
    }

    /// Clockwise quarter turns: 1, 2 or 3.
    pub fn quarter_turns(self) -> u8 {
        self.0 % 3 + 1
    }

    /// The turn that undoes this one.
    pub fn inverse(self) -> FaceTurn {
        FaceTurn(self.0 / 3 * 3 + 2 - self.0 % 3)
    }

    /// All 18 moves in index order.
    pub fn all() -> impl Iterator<Item = FaceTurn> {
        (0..N_MOVES as u8).map(FaceTurn)
    }

    /// The cubie-level effect of this move.
    pub(crate) fn cubie(self) -> &'static CubieCube {
        &MOVE_CUBES[self.0 as usize]
    }
}

/// The 18 move cubes, computed once at compile time.
static MOVE_CUBES: [CubieCube; 18] = {
    let mut out = [CubieCube::SOLVED; 18];
    let mut f = 0;
    while f < 6 {
        let t = FACE_TURNS[f];
        let mut c = CubieCube::SOLVED;
        let mut q = 0;
        while q < 3 {
            c = const_multiply(&c, &t);
            out[f * 3 + q] = c;
            q += 1;
        }
        f += 1;
    }
    out
};

const fn const_multiply(a: &CubieCube, b: &CubieCube) -> CubieCube {
    let mut r = CubieCube::SOLVED;
    let mut i = 0;
    while i < 8 {
        let j = b.cp[i] as usize;
        r.cp[i] = a.cp[j];
        r.co[i] = (a.co[j] + b.co[i]) % 3;
        i += 1;
    }
    let mut i = 0;
    while i < 12 {
        let j = b.ep[i] as usize;
        r.ep[i] = a.ep[j];
        r.eo[i] = a.eo[j] ^ b.eo[i];
        i += 1;
    }
    r
}

impl fmt::Display for FaceTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = ["", "2", "'"][(self.0 % 3) as usize];
        write!(f, "{}{}", self.face().letter(), suffix)
    }
}

impl FromStr for FaceTurn {
    type Err = CubeError;
    fn from_str(s: &str) -> Result<FaceTurn, CubeError> {
        let seq: MoveSeq = s.parse()?;
        match seq.0.as_slice() {
            [m] => Ok(*m),
            _ => Err(CubeError::Alg {
                column: 1,
                message: format!("expected exactly one face turn, got {s:?}"),
            }),
        }
    }
}

/// A sequence of face turns, printed with single spaces (`R U2 F'`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveSeq(pub Vec<FaceTurn>);

impl MoveSeq {
    /// Number of moves (half-turn metric).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The sequence that undoes this one.
    pub fn inverse(&self) -> MoveSeq {
        MoveSeq(self.0.iter().rev().map(|m| m.inverse()).collect())
    }

    /// The same turns with every pair that can meet merged: turns of one
    /// face with nothing between them but turns of the opposite face,
    /// which commute with them (`R L R` is `R2 L`, `U D U'` is `D`).
    /// The result never has two turns of one face next to each other or
    /// separated by the opposite face alone.
    pub fn simplified(&self) -> MoveSeq {
        let mut out: Vec<FaceTurn> = Vec::with_capacity(self.0.len());
        for &m in &self.0 {
            let n = out.len();
            let at = if n >= 1 && out[n - 1].face() == m.face() {
                Some(n - 1)
            } else if n >= 2
                && out[n - 1].face() == m.face().opposite()
                && out[n - 2].face() == m.face()
            {
                Some(n - 2)
            } else {
                None
            };
            let Some(k) = at else {
                out.push(m);
                continue;
            };
            let q = i64::from(out[k].quarter_turns()) + i64::from(m.quarter_turns());
            match FaceTurn::new(m.face(), q) {
                Some(t) => out[k] = t,
                // What was on either side of the vanished turn was already
                // merged as far as it goes: no two of one face are left
                // next to each other (nor around an opposite face, which
                // would have been merged when the later one came).
                None => {
                    out.remove(k);
                }
            }
        }
        MoveSeq(out)
    }
}

impl fmt::Display for MoveSeq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

/// Parses face turns: a face letter `U R F D L B`, an optional amount
/// (digits, default 1) and an optional `'`, separated by white space or
/// written together (`RUR'U'`). Turns by a multiple of four vanish.
impl FromStr for MoveSeq {
    type Err = CubeError;
    fn from_str(s: &str) -> Result<MoveSeq, CubeError> {
        let chars: Vec<char> = s.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let column = i + 1;
            let Some(face) = Face::from_letter(c) else {
                return Err(CubeError::Alg {
                    column,
                    message: format!("{c:?} is not a face turn (expected one of U R F D L B)"),
                });
            };
            i += 1;
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let amount: i64 = if i == start {
                1
            } else {
                let digits: String = chars[start..i].iter().collect();
                digits.parse().map_err(|_| CubeError::Alg {
                    column: start + 1,
                    message: format!("turn amount {digits} is too large"),
                })?
            };
            let mut q = amount;
            if i < chars.len() && (chars[i] == '\'' || chars[i] == '’') {
                q = -q;
                i += 1;
            }
            if i < chars.len() && !chars[i].is_whitespace() && Face::from_letter(chars[i]).is_none()
            {
                return Err(CubeError::Alg {
                    column: i + 1,
                    message: format!("unexpected {:?} after a face turn", chars[i]),
                });
            }
            if let Some(m) = FaceTurn::new(face, q) {
                out.push(m);
            }
        }
        Ok(MoveSeq(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        let s: MoveSeq = "R U2 F' D2' L3 B".parse().unwrap();
        assert_eq!(s.to_string(), "R U2 F' D2 L' B");
        let t: MoveSeq = "RUR'U'".parse().unwrap();
        assert_eq!(t.to_string(), "R U R' U'");
        assert!("".parse::<MoveSeq>().unwrap().is_empty());
        assert!("U4".parse::<MoveSeq>().unwrap().is_empty());
    }

    #[test]
    fn parse_errors_name_the_column() {
        match "R U x".parse::<MoveSeq>() {
            Err(CubeError::Alg { column, .. }) => assert_eq!(column, 5),
            other => panic!("unexpected {other:?}"),
        }
        assert!("R2x".parse::<MoveSeq>().is_err());
    }

    /// Simplifying keeps the sequence's effect, and leaves no turn that
    /// could merge with another.
    #[test]
    fn simplified_sequences_act_the_same_and_merge_all_they_can() {
        let cases = [
            ("R L R", "R2 L"),
            ("U D U'", "D"),
            ("R R'", ""),
            ("F R R' F", "F2"),
            ("U D' D U'", ""),
            ("R2 L2 R2 L2", ""),
            ("R U R' U'", "R U R' U'"),
        ];
        for (seq, want) in cases {
            let s: MoveSeq = seq.parse().unwrap();
            assert_eq!(s.simplified().to_string(), want, "{seq}");
        }
        let mut rng = twistor_core::random::SeededRng::new(7);
        for _ in 0..2000 {
            // Random turns drawn from two axes only, where merges abound.
            let faces = [Face::U, Face::D, Face::R, Face::L];
            let seq = MoveSeq(
                (0..rng.below(12))
                    .filter_map(|_| FaceTurn::new(faces[rng.below(4)], 1 + rng.below(3) as i64))
                    .collect(),
            );
            let simple = seq.simplified();
            assert_eq!(
                CubieCube::from_moves(&seq.0),
                CubieCube::from_moves(&simple.0),
                "{seq}"
            );
            for (i, m) in simple.0.iter().enumerate() {
                let next = simple.0.get(i + 1).map(|t| t.face());
                let after = simple.0.get(i + 2).map(|t| t.face());
                assert_ne!(next, Some(m.face()), "{seq} -> {simple}");
                if next == Some(m.face().opposite()) {
                    assert_ne!(after, Some(m.face()), "{seq} -> {simple}");
                }
            }
        }
    }

    #[test]
    fn inverse_sequence_undoes() {
        let s: MoveSeq = "R U2 F' D B L2".parse().unwrap();
        let c = CubieCube::from_moves(&s.0).apply_moves(&s.inverse().0);
        assert!(c.is_solved());
    }
}
