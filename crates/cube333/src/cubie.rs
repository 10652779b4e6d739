//! The cube at the cubie level: where each corner and edge is and how it is
//! twisted or flipped.
//!
//! This is the one exact model every other representation converts to and
//! from (facelets, KPattern JSON, coordinates). It follows Kociemba's
//! conventions: the permutation is *replaced-by* (slot → cubie), the
//! orientation is that of the cubie sitting in the slot, and a product
//! `a · b` means `a` then `b`:
//!
//! ```text
//! (a·b).cp[i] = a.cp[b.cp[i]]        (a·b).co[i] = a.co[b.cp[i]] + b.co[i]
//! ```
//!
//! Corner orientations 3, 4 and 5 only appear in the mirror images used by
//! the symmetry tables (they are the reflections of the dihedral group D3).

use crate::error::CubeError;
use crate::moves::FaceTurn;

/// Corner names in slot order: URF UFL ULB UBR DFR DLF DBL DRB.
pub const CORNER_NAMES: [&str; 8] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"];
/// Edge names in slot order: UR UF UL UB DR DF DL DB FR FL BL BR.
pub const EDGE_NAMES: [&str; 12] = [
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
];

/// A 3x3x3 position at the cubie level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CubieCube {
    /// Corner permutation: `cp[slot]` is the corner in that slot.
    pub cp: [u8; 8],
    /// Corner orientation of the corner in each slot (0..3; 3..6 for mirror images).
    pub co: [u8; 8],
    /// Edge permutation: `ep[slot]` is the edge in that slot.
    pub ep: [u8; 12],
    /// Edge orientation of the edge in each slot (0 or 1).
    pub eo: [u8; 12],
}

impl Default for CubieCube {
    fn default() -> Self {
        CubieCube::SOLVED
    }
}

const fn basic(cp: [u8; 8], co: [u8; 8], ep: [u8; 12], eo: [u8; 12]) -> CubieCube {
    CubieCube { cp, co, ep, eo }
}

// Corner and edge ids, for readable basic move definitions.
const URF: u8 = 0;
const UFL: u8 = 1;
const ULB: u8 = 2;
const UBR: u8 = 3;
const DFR: u8 = 4;
const DLF: u8 = 5;
const DBL: u8 = 6;
const DRB: u8 = 7;
const UR: u8 = 0;
const UF: u8 = 1;
const UL: u8 = 2;
const UB: u8 = 3;
const DR: u8 = 4;
const DF: u8 = 5;
const DL: u8 = 6;
const DB: u8 = 7;
const FR: u8 = 8;
const FL: u8 = 9;
const BL: u8 = 10;
const BR: u8 = 11;

/// Clockwise quarter turns of the faces U R F D L B.
pub(crate) const FACE_TURNS: [CubieCube; 6] = [
    basic(
        [UBR, URF, UFL, ULB, DFR, DLF, DBL, DRB],
        [0; 8],
        [UB, UR, UF, UL, DR, DF, DL, DB, FR, FL, BL, BR],
        [0; 12],
    ),
    basic(
        [DFR, UFL, ULB, URF, DRB, DLF, DBL, UBR],
        [2, 0, 0, 1, 1, 0, 0, 2],
        [FR, UF, UL, UB, BR, DF, DL, DB, DR, FL, BL, UR],
        [0; 12],
    ),
    basic(
        [UFL, DLF, ULB, UBR, URF, DFR, DBL, DRB],
        [1, 2, 0, 0, 2, 1, 0, 0],
        [UR, FL, UL, UB, DR, FR, DL, DB, UF, DF, BL, BR],
        [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0],
    ),
    basic(
        [URF, UFL, ULB, UBR, DLF, DBL, DRB, DFR],
        [0; 8],
        [UR, UF, UL, UB, DF, DL, DB, DR, FR, FL, BL, BR],
        [0; 12],
    ),
    basic(
        [URF, ULB, DBL, UBR, DFR, UFL, DLF, DRB],
        [0, 1, 2, 0, 0, 2, 1, 0],
        [UR, UF, BL, UB, DR, DF, FL, DB, FR, UL, DL, BR],
        [0; 12],
    ),
    basic(
        [URF, UFL, UBR, DRB, DFR, DLF, ULB, DBL],
        [0, 0, 1, 2, 0, 0, 2, 1],
        [UR, UF, UL, BR, DR, DF, DL, BL, FR, FL, UB, DB],
        [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 1],
    ),
];

/// 120° rotation about the URF-DBL diagonal.
pub(crate) const S_URF3: CubieCube = basic(
    [URF, DFR, DLF, UFL, UBR, DRB, DBL, ULB],
    [1, 2, 1, 2, 2, 1, 2, 1],
    [UF, FR, DF, FL, UB, BR, DB, BL, UR, DR, DL, UL],
    [1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1],
);
/// 180° rotation about the F-B axis.
pub(crate) const S_F2: CubieCube = basic(
    [DLF, DFR, DRB, DBL, UFL, URF, UBR, ULB],
    [0; 8],
    [DL, DF, DR, DB, UL, UF, UR, UB, FL, FR, BR, BL],
    [0; 12],
);
/// 90° rotation about the U-D axis.
pub(crate) const S_U4: CubieCube = basic(
    [UBR, URF, UFL, ULB, DRB, DFR, DLF, DBL],
    [0; 8],
    [UB, UR, UF, UL, DB, DR, DF, DL, BR, FR, FL, BL],
    [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
);
/// Reflection in the plane between L and R.
pub(crate) const S_LR2: CubieCube = basic(
    [UFL, URF, UBR, ULB, DLF, DFR, DRB, DBL],
    [3; 8],
    [UL, UF, UR, UB, DL, DF, DR, DB, FL, FR, BR, BL],
    [0; 12],
);

/// Composes two corner orientations in the dihedral group D3 (values 0..6,
/// 3..6 being reflections): the orientation of `a` seen through `b`. A
/// table lookup: which case applies is as good as random when cubes are
/// conjugated by all 16 symmetries (table building), and the branches
/// cost more than the read.
#[inline]
fn corner_ori_mul(ori_a: u8, ori_b: u8) -> u8 {
    const TABLE: [[u8; 6]; 6] = {
        let mut t = [[0u8; 6]; 6];
        let mut a = 0;
        while a < 6 {
            let mut b = 0;
            while b < 6 {
                t[a][b] = corner_ori_compose(a as u8, b as u8);
                b += 1;
            }
            a += 1;
        }
        t
    };
    TABLE[ori_a as usize][ori_b as usize]
}

/// [`corner_ori_mul`] by cases.
const fn corner_ori_compose(ori_a: u8, ori_b: u8) -> u8 {
    let (a, b) = (ori_a as i8, ori_b as i8);
    let o = match (a < 3, b < 3) {
        (true, true) => (a + b) % 3,
        (true, false) => {
            let o = a + b;
            if o >= 6 {
                o - 3
            } else {
                o
            }
        }
        (false, true) => {
            let o = a - b;
            if o < 3 {
                o + 3
            } else {
                o
            }
        }
        (false, false) => {
            let o = a - b;
            if o < 0 {
                o + 3
            } else {
                o
            }
        }
    };
    o as u8
}

impl CubieCube {
    /// The solved cube.
    pub const SOLVED: CubieCube = basic(
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0; 8],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        [0; 12],
    );

    /// `self · other`: `self` followed by `other`.
    #[inline]
    pub fn multiply(&self, other: &CubieCube) -> CubieCube {
        let mut r = CubieCube::SOLVED;
        for i in 0..8 {
            let j = other.cp[i] as usize;
            r.cp[i] = self.cp[j];
            r.co[i] = corner_ori_mul(self.co[j], other.co[i]);
        }
        for i in 0..12 {
            let j = other.ep[i] as usize;
            r.ep[i] = self.ep[j];
            r.eo[i] = self.eo[j] ^ other.eo[i];
        }
        r
    }

    /// `self · other` on corners and edges of proper cubes only (no mirror
    /// orientations): the fast path for move application.
    #[inline]
    pub(crate) fn multiply_proper(&self, other: &CubieCube) -> CubieCube {
        let mut r = CubieCube::SOLVED;
        for i in 0..8 {
            let j = other.cp[i] as usize;
            r.cp[i] = self.cp[j];
            let o = self.co[j] + other.co[i];
            r.co[i] = if o >= 3 { o - 3 } else { o };
        }
        for i in 0..12 {
            let j = other.ep[i] as usize;
            r.ep[i] = self.ep[j];
            r.eo[i] = self.eo[j] ^ other.eo[i];
        }
        r
    }

    /// The inverse: `self · self.inverse()` is solved.
    pub fn inverse(&self) -> CubieCube {
        let mut r = CubieCube::SOLVED;
        for i in 0..8 {
            r.cp[self.cp[i] as usize] = i as u8;
        }
        for i in 0..8 {
            let o = self.co[r.cp[i] as usize];
            r.co[i] = if o >= 3 { o } else { (3 - o) % 3 };
        }
        for i in 0..12 {
            r.ep[self.ep[i] as usize] = i as u8;
        }
        for i in 0..12 {
            r.eo[i] = self.eo[r.ep[i] as usize];
        }
        r
    }

    /// Applies one face turn.
    #[inline]
    pub fn apply_move(&self, m: FaceTurn) -> CubieCube {
        self.multiply_proper(m.cubie())
    }

    /// Applies a sequence of face turns.
    pub fn apply_moves(&self, moves: &[FaceTurn]) -> CubieCube {
        moves.iter().fold(*self, |c, &m| c.apply_move(m))
    }

    /// The cube reached from solved by `moves`.
    pub fn from_moves(moves: &[FaceTurn]) -> CubieCube {
        CubieCube::SOLVED.apply_moves(moves)
    }

    /// Whether this is the solved cube.
    pub fn is_solved(&self) -> bool {
        *self == CubieCube::SOLVED
    }

    /// Parity of the corner permutation (true = odd).
    pub fn corner_parity_odd(&self) -> bool {
        permutation_parity_odd(&self.cp)
    }

    /// Parity of the edge permutation (true = odd).
    pub fn edge_parity_odd(&self) -> bool {
        permutation_parity_odd(&self.ep)
    }

    /// Checks that this is a position reachable by face turns: each cubie
    /// exactly once, total twist 0 mod 3, total flip even, equal
    /// corner and edge permutation parity.
    pub fn validate(&self) -> Result<(), CubeError> {
        let mut seen = [0u8; 12];
        for &c in &self.cp {
            if c as usize >= 8 {
                return Err(CubeError::BadPiece {
                    kind: "corner",
                    what: "id",
                    value: c,
                    limit: 8,
                });
            }
            seen[c as usize] += 1;
        }
        for (i, &n) in seen.iter().take(8).enumerate() {
            if n != 1 {
                return Err(CubeError::CubieCount {
                    cubie: CORNER_NAMES[i].to_string(),
                    count: n as usize,
                });
            }
        }
        let mut seen = [0u8; 12];
        for &e in &self.ep {
            if e as usize >= 12 {
                return Err(CubeError::BadPiece {
                    kind: "edge",
                    what: "id",
                    value: e,
                    limit: 12,
                });
            }
            seen[e as usize] += 1;
        }
        for (i, &n) in seen.iter().enumerate() {
            if n != 1 {
                return Err(CubeError::CubieCount {
                    cubie: EDGE_NAMES[i].to_string(),
                    count: n as usize,
                });
            }
        }
        if let Some(&o) = self.co.iter().find(|&&o| o >= 3) {
            return Err(CubeError::BadPiece {
                kind: "corner",
                what: "orientation",
                value: o,
                limit: 3,
            });
        }
        if let Some(&o) = self.eo.iter().find(|&&o| o >= 2) {
            return Err(CubeError::BadPiece {
                kind: "edge",
                what: "orientation",
                value: o,
                limit: 2,
            });
        }
        let twist: u32 = self.co.iter().map(|&o| o as u32).sum::<u32>() % 3;
        if twist != 0 {
            return Err(CubeError::Twist(twist as u8));
        }
        if self.eo.iter().map(|&o| o as u32).sum::<u32>() % 2 != 0 {
            return Err(CubeError::Flip);
        }
        if self.corner_parity_odd() != self.edge_parity_odd() {
            return Err(CubeError::Parity);
        }
        Ok(())
    }

    /// A random element of phase 2's group `<U, D, R2, L2, F2, B2>`: `moves`
    /// random moves of it (for the tests of its coordinates and tables).
    #[cfg(test)]
    pub(crate) fn random_in_phase2(
        rng: &mut twistor_core::random::SeededRng,
        moves: usize,
    ) -> CubieCube {
        (0..moves).fold(CubieCube::SOLVED, |c, _| {
            let m = crate::tables::PHASE2_MOVES[rng.below(10)] as usize;
            c.apply_move(FaceTurn::from_index(m))
        })
    }

    /// A uniformly random solvable cube from 64 random bits at a time drawn
    /// from `next_u64` (any generator will do).
    pub fn random(mut next_u64: impl FnMut() -> u64) -> CubieCube {
        let mut below = |n: u64| -> u64 {
            // Rejection sampling keeps the choice exactly uniform.
            let zone = u64::MAX - u64::MAX % n;
            loop {
                let x = next_u64();
                if x < zone {
                    return x % n;
                }
            }
        };
        let mut c = CubieCube::SOLVED;
        for i in (1..8).rev() {
            let j = below(i as u64 + 1) as usize;
            c.cp.swap(i, j);
        }
        for i in (1..12).rev() {
            let j = below(i as u64 + 1) as usize;
            c.ep.swap(i, j);
        }
        if c.corner_parity_odd() != c.edge_parity_odd() {
            c.ep.swap(10, 11);
        }
        let mut twist = 0;
        for i in 0..7 {
            c.co[i] = below(3) as u8;
            twist += c.co[i];
        }
        c.co[7] = (3 - twist % 3) % 3;
        let mut flip = 0;
        for i in 0..11 {
            c.eo[i] = below(2) as u8;
            flip ^= c.eo[i];
        }
        c.eo[11] = flip;
        c
    }
}

/// Parity of a permutation given as a slice of distinct small integers.
pub(crate) fn permutation_parity_odd(p: &[u8]) -> bool {
    let mut odd = false;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            if p[i] > p[j] {
                odd = !odd;
            }
        }
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn face_turns_have_order_four_and_are_valid() {
        for t in FACE_TURNS {
            assert!(t.validate().is_ok());
            let mut c = CubieCube::SOLVED;
            for k in 1..=4 {
                c = c.multiply(&t);
                assert_eq!(c.is_solved(), k == 4);
            }
        }
    }

    #[test]
    fn inverse_undoes_including_reflections() {
        let mut rng = twistor_core::random::SeededRng::new(7);
        for _ in 0..50 {
            let c = CubieCube::random(|| rng.next_u64());
            assert!(c.validate().is_ok());
            assert!(c.multiply(&c.inverse()).is_solved());
            assert!(c.inverse().multiply(&c).is_solved());
        }
        for s in [S_URF3, S_F2, S_U4, S_LR2] {
            assert!(s.multiply(&s.inverse()).is_solved());
        }
        // The reflection is an involution, the 120° turn has order 3.
        assert!(S_LR2.multiply(&S_LR2).is_solved());
        assert!(S_URF3.multiply(&S_URF3).multiply(&S_URF3).is_solved());
    }

    #[test]
    fn sexy_move_has_order_six() {
        let m: Vec<FaceTurn> = "R U R' U'".parse::<crate::moves::MoveSeq>().unwrap().0;
        let mut c = CubieCube::SOLVED;
        for k in 1..=6 {
            c = c.apply_moves(&m);
            assert_eq!(c.is_solved(), k == 6);
        }
    }

    #[test]
    fn validation_reports_each_defect() {
        let mut c = CubieCube::SOLVED;
        c.co[0] = 1;
        assert_eq!(c.validate(), Err(CubeError::Twist(1)));
        let mut c = CubieCube::SOLVED;
        c.eo[0] = 1;
        assert_eq!(c.validate(), Err(CubeError::Flip));
        let mut c = CubieCube::SOLVED;
        c.ep.swap(0, 1);
        assert_eq!(c.validate(), Err(CubeError::Parity));
        let mut c = CubieCube::SOLVED;
        c.cp[0] = 1;
        assert!(matches!(c.validate(), Err(CubeError::CubieCount { .. })));
    }
}
