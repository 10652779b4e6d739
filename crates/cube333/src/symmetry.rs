//! The 48 symmetries of the cube and what they do to moves.
//!
//! Symmetry `s = 16·a + 8·b + 2·c + d` is `URF3^a · F2^b · U4^c · LR2^d`
//! (Kociemba's numbering); the first 16 keep the UD axis and are the ones
//! the symmetry-reduced coordinates use. Conjugating a cube `X` by `s`
//! means `S · X · S⁻¹`; a solution of the conjugate, each move conjugated
//! back, solves `X`.

use std::sync::OnceLock;

use crate::cubie::{CubieCube, S_F2, S_LR2, S_U4, S_URF3};
use crate::moves::{FaceTurn, N_MOVES};

/// All symmetries, reflections included.
pub const N_SYM: usize = 48;
/// Symmetries that keep the UD axis (the group D4h).
pub const N_SYM_D4H: usize = 16;

/// The symmetry group and its action on moves.
pub struct Symmetries {
    /// The cube of each symmetry.
    pub cubes: [CubieCube; N_SYM],
    /// Index of the inverse of each symmetry.
    pub inv: [u8; N_SYM],
    /// `mult[a][b]` is the index of `S_a · S_b` (the tests check the
    /// symmetries form a group with it).
    #[cfg(test)]
    pub mult: [[u8; N_SYM]; N_SYM],
    /// `conj_move[s][m]` is the move `S_s · m · S_s⁻¹`.
    pub conj_move: [[u8; N_MOVES]; N_SYM],
}

impl Symmetries {
    /// The shared instance.
    pub fn get() -> &'static Symmetries {
        static SYM: OnceLock<Symmetries> = OnceLock::new();
        SYM.get_or_init(Symmetries::compute)
    }

    fn compute() -> Symmetries {
        let mut cubes = [CubieCube::SOLVED; N_SYM];
        let mut cc = CubieCube::SOLVED;
        for a in 0..3 {
            for b in 0..2 {
                for c in 0..4 {
                    for d in 0..2 {
                        cubes[16 * a + 8 * b + 2 * c + d] = cc;
                        cc = cc.multiply(&S_LR2);
                    }
                    cc = cc.multiply(&S_U4);
                }
                cc = cc.multiply(&S_F2);
            }
            cc = cc.multiply(&S_URF3);
        }
        #[cfg(test)]
        let find = |x: &CubieCube| cubes.iter().position(|y| y == x).map(|i| i as u8);
        let mut inv = [0u8; N_SYM];
        #[cfg(test)]
        let mut mult = [[0u8; N_SYM]; N_SYM];
        for i in 0..N_SYM {
            for j in 0..N_SYM {
                let p = cubes[i].multiply(&cubes[j]);
                #[cfg(test)]
                {
                    mult[i][j] = find(&p).unwrap_or(0);
                }
                if p.is_solved() {
                    inv[i] = j as u8;
                }
            }
        }
        let mut conj_move = [[0u8; N_MOVES]; N_SYM];
        for s in 0..N_SYM {
            for m in FaceTurn::all() {
                let x = cubes[s]
                    .multiply(m.cubie())
                    .multiply(&cubes[inv[s] as usize]);
                conj_move[s][m.index()] =
                    FaceTurn::all().position(|k| *k.cubie() == x).unwrap_or(0) as u8;
            }
        }
        Symmetries {
            cubes,
            inv,
            #[cfg(test)]
            mult,
            conj_move,
        }
    }

    /// `S_s · c · S_s⁻¹`.
    pub fn conjugate(&self, c: &CubieCube, s: usize) -> CubieCube {
        self.cubes[s]
            .multiply(c)
            .multiply(&self.cubes[self.inv[s] as usize])
    }
}

/// Whether symmetry `s` (of the 16 that keep the UD axis) turns the cube a
/// quarter turn about UD an odd number of times, which swaps the F/B and
/// R/L reference faces of the slice edges and so flips their orientation.
#[inline]
pub fn flips_slice_edges(s: usize) -> bool {
    (s >> 1) & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_form_a_group_of_48() {
        let sy = Symmetries::get();
        for i in 0..N_SYM {
            for j in 0..i {
                assert_ne!(sy.cubes[i], sy.cubes[j]);
            }
            let p = sy.cubes[i].multiply(&sy.cubes[sy.inv[i] as usize]);
            assert!(p.is_solved());
            for j in 0..N_SYM {
                assert_eq!(
                    sy.cubes[i].multiply(&sy.cubes[j]),
                    sy.cubes[sy.mult[i][j] as usize]
                );
            }
        }
        // The first 16 form a subgroup (they keep the UD axis).
        for i in 0..N_SYM_D4H {
            for j in 0..N_SYM_D4H {
                assert!((sy.mult[i][j] as usize) < N_SYM_D4H);
            }
        }
    }

    #[test]
    fn conjugated_moves_are_moves() {
        let sy = Symmetries::get();
        for s in 0..N_SYM {
            let mut seen = [false; N_MOVES];
            for m in FaceTurn::all() {
                let k = FaceTurn::from_index(sy.conj_move[s][m.index()] as usize);
                let x = sy.conjugate(m.cubie(), s);
                assert_eq!(*k.cubie(), x);
                seen[k.index()] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
        // U4 maps U to U, and URF3 maps U to R.
        assert_eq!(sy.conj_move[2][0], 0);
        assert_ne!(
            FaceTurn::from_index(sy.conj_move[16][0] as usize).face(),
            crate::moves::Face::U
        );
    }
}
