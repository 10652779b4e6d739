//! Recognising the 3x3x3 in any puzzle definition.
//!
//! A `.tws` or KPuzzle definition of the cube numbers its pieces, orients
//! them and names its moves in its own way. It is still the 3x3x3 when six
//! grips of order 4 act on an orbit of 8 three-way pieces and an orbit of 12
//! two-way pieces exactly as the six face turns do, up to renaming faces,
//! renumbering slots and shifting each slot's orientation reference. Finding
//! that correspondence lets the generic tools hand such a definition to the
//! dedicated solvers and map the answer back.
//!
//! Each slot is known by the set of grips that move it (three for a corner,
//! two for an edge). Trying the 720 ways to give the grips the cube's face
//! names fixes the slots; each grip's direction and each slot's orientation
//! offset then follow from the moves' twists, or the naming is rejected.

use twistor_core::{Layout, Pattern, Puzzle};

use crate::cubie::CubieCube;
use crate::moves::{Face, FaceTurn, MoveSeq};

/// How a puzzle definition is the 3x3x3.
#[derive(Clone, Debug)]
pub struct CubeCorrespondence {
    corner_orbit: usize,
    edge_orbit: usize,
    /// Definition slot → cube slot.
    corner_slot: [u8; 8],
    edge_slot: [u8; 12],
    /// Per definition slot: orientation offset (cube = sign · definition + offset).
    corner_offset: [u8; 8],
    edge_offset: [u8; 12],
    /// Whether corner twists run the other way (a mirror-image definition).
    corner_mirrored: bool,
    /// Per cube face (U R F D L B): the definition's move and the direction
    /// (+1 or -1) of that move which is the face's clockwise quarter turn.
    face_move: [(usize, i8); 6],
}

/// Slots of `orbit` that `t` (packed bytes) moves or twists.
fn moved(layout: &Layout, t: &[u8], orbit: usize) -> Vec<usize> {
    let p = layout.perm(t, orbit);
    let o = layout.ori(t, orbit);
    (0..p.len())
        .filter(|&i| p[i] as usize != i || o[i] != 0)
        .collect()
}

/// For each slot of an orbit of `n`, the bit set of the grips moving it.
fn grip_sets(moves: &[Vec<usize>], n: usize) -> Vec<u8> {
    let mut sets = vec![0u8; n];
    for (g, slots) in moves.iter().enumerate() {
        for &s in slots {
            sets[s] |= 1 << g;
        }
    }
    sets
}

impl CubeCorrespondence {
    /// How the puzzle, turned by the six named moves `grips` (indices into
    /// [`Puzzle::moves`]), is the 3x3x3, if it is. Orbits other than the
    /// corners and edges must be left alone by every grip.
    pub fn find(puzzle: &Puzzle, grips: &[usize]) -> Option<CubeCorrespondence> {
        if grips.len() != 6 {
            return None;
        }
        let layout = puzzle.layout();
        let ts: Vec<&[u8]> = grips
            .iter()
            .map(|&g| puzzle.moves()[g].transformation.as_bytes())
            .collect();
        let mut corner_orbit = None;
        let mut edge_orbit = None;
        for (k, o) in layout.orbits().iter().enumerate() {
            let touched = ts.iter().any(|t| !moved(layout, t, k).is_empty());
            match (o.num_pieces(), o.num_orientations(), touched) {
                (_, _, false) => {}
                (8, 3, true) if corner_orbit.is_none() => corner_orbit = Some(k),
                (12, 2, true) if edge_orbit.is_none() => edge_orbit = Some(k),
                _ => return None,
            }
        }
        let (co, eo) = (corner_orbit?, edge_orbit?);
        // The start pattern must be the identity on both orbits.
        let start = puzzle.start().as_bytes();
        let ident = layout.identity_bytes();
        for k in [co, eo] {
            let (a, b) = (
                layout.offset(k),
                layout.offset(k) + 2 * layout.orbits()[k].num_pieces(),
            );
            if start[a..b] != ident[a..b] {
                return None;
            }
        }
        let def_corner_sets = grip_sets(
            &ts.iter().map(|t| moved(layout, t, co)).collect::<Vec<_>>(),
            8,
        );
        let def_edge_sets = grip_sets(
            &ts.iter().map(|t| moved(layout, t, eo)).collect::<Vec<_>>(),
            12,
        );
        let cube_moves: Vec<&CubieCube> = Face::ALL
            .iter()
            .map(|&f| FaceTurn::new(f, 1).expect("a quarter turn").cubie())
            .collect();
        let cube_corner_sets = {
            let per: Vec<Vec<usize>> = cube_moves
                .iter()
                .map(|c| {
                    (0..8)
                        .filter(|&i| c.cp[i] as usize != i || c.co[i] != 0)
                        .collect()
                })
                .collect();
            grip_sets(&per, 8)
        };
        let cube_edge_sets = {
            let per: Vec<Vec<usize>> = cube_moves
                .iter()
                .map(|c| {
                    (0..12)
                        .filter(|&i| c.ep[i] as usize != i || c.eo[i] != 0)
                        .collect()
                })
                .collect();
            grip_sets(&per, 12)
        };
        if def_corner_sets.iter().any(|s| s.count_ones() != 3)
            || def_edge_sets.iter().any(|s| s.count_ones() != 2)
        {
            return None;
        }
        // Every naming of the grips by faces.
        let mut perm = [0usize, 1, 2, 3, 4, 5];
        loop {
            if let Some(c) = Self::try_naming(
                layout,
                &ts,
                grips,
                co,
                eo,
                &perm,
                &def_corner_sets,
                &def_edge_sets,
                &cube_corner_sets,
                &cube_edge_sets,
                &cube_moves,
            ) {
                return Some(c);
            }
            if !next_permutation(&mut perm) {
                return None;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn try_naming(
        layout: &Layout,
        ts: &[&[u8]],
        grips: &[usize],
        co: usize,
        eo: usize,
        face_of: &[usize; 6],
        def_corner_sets: &[u8],
        def_edge_sets: &[u8],
        cube_corner_sets: &[u8],
        cube_edge_sets: &[u8],
        cube_moves: &[&CubieCube],
    ) -> Option<CubeCorrespondence> {
        let rename = |set: u8| {
            (0..6)
                .filter(|g| set >> g & 1 == 1)
                .fold(0u8, |acc, g| acc | 1 << face_of[g])
        };
        let mut corner_slot = [0u8; 8];
        for (s, &set) in def_corner_sets.iter().enumerate() {
            corner_slot[s] = cube_corner_sets.iter().position(|&c| c == rename(set))? as u8;
        }
        let mut edge_slot = [0u8; 12];
        for (s, &set) in def_edge_sets.iter().enumerate() {
            edge_slot[s] = cube_edge_sets.iter().position(|&c| c == rename(set))? as u8;
        }
        // Each grip is its face's turn one way or the other.
        let mut face_move = [(0usize, 1i8); 6];
        for (g, t) in ts.iter().enumerate() {
            let face = Face::ALL[face_of[g]];
            let p = layout.perm(t, co);
            let dir = [1i8, -1].into_iter().find(|&d| {
                let c = FaceTurn::new(face, d as i64)
                    .expect("a quarter turn")
                    .cubie();
                (0..8).all(|i| c.cp[corner_slot[i] as usize] == corner_slot[p[i] as usize])
                    && (0..12).all(|i| {
                        c.ep[edge_slot[i] as usize] == edge_slot[layout.perm(t, eo)[i] as usize]
                    })
            })?;
            face_move[face_of[g]] = (grips[g], dir);
        }
        let _ = cube_moves;
        // Orientation offsets: every grip's twist, seen through the offsets,
        // must be the face turn's twist.
        for mirrored in [false, true] {
            if let (Some(corner_offset), Some(edge_offset)) = (
                Self::offsets::<8>(
                    layout,
                    ts,
                    co,
                    3,
                    &corner_slot,
                    &face_move,
                    face_of,
                    mirrored,
                    |c, i| c.co[i],
                ),
                Self::offsets::<12>(
                    layout,
                    ts,
                    eo,
                    2,
                    &edge_slot,
                    &face_move,
                    face_of,
                    false,
                    |c, i| c.eo[i],
                ),
            ) {
                return Some(CubeCorrespondence {
                    corner_orbit: co,
                    edge_orbit: eo,
                    corner_slot,
                    edge_slot,
                    corner_offset,
                    edge_offset,
                    corner_mirrored: mirrored,
                    face_move,
                });
            }
        }
        None
    }

    /// Solves `offset[i] - offset[j] = T - sign·t` over every grip's
    /// transitions `j → i` (T the cube twist, t the definition's).
    #[allow(clippy::too_many_arguments)]
    fn offsets<const N: usize>(
        layout: &Layout,
        ts: &[&[u8]],
        orbit: usize,
        modulus: u8,
        slot: &[u8; N],
        face_move: &[(usize, i8); 6],
        face_of: &[usize; 6],
        mirrored: bool,
        twist: impl Fn(&CubieCube, usize) -> u8,
    ) -> Option<[u8; N]> {
        let m = modulus as i32;
        let mut offset: [Option<i32>; N] = [None; N];
        offset[0] = Some(0);
        let mut constraints = Vec::new();
        for (g, t) in ts.iter().enumerate() {
            let face = Face::ALL[face_of[g]];
            let dir = face_move[face_of[g]].1;
            let c = FaceTurn::new(face, dir as i64)
                .expect("a quarter turn")
                .cubie();
            let p = layout.perm(t, orbit);
            let o = layout.ori(t, orbit);
            for i in 0..N {
                let tw = twist(c, slot[i] as usize) as i32;
                let def = if mirrored {
                    -(o[i] as i32)
                } else {
                    o[i] as i32
                };
                constraints.push((i, p[i] as usize, (tw - def).rem_euclid(m)));
            }
        }
        // Propagate until fixed, then check every constraint.
        let mut changed = true;
        while changed {
            changed = false;
            for &(i, j, d) in &constraints {
                match (offset[i], offset[j]) {
                    (None, Some(oj)) => {
                        offset[i] = Some((oj + d).rem_euclid(m));
                        changed = true;
                    }
                    (Some(oi), None) => {
                        offset[j] = Some((oi - d).rem_euclid(m));
                        changed = true;
                    }
                    _ => {}
                }
            }
        }
        for &(i, j, d) in &constraints {
            if (offset[i]? - offset[j]? - d).rem_euclid(m) != 0 {
                return None;
            }
        }
        let mut out = [0u8; N];
        for (o, v) in out.iter_mut().zip(offset) {
            *o = v? as u8;
        }
        Some(out)
    }

    /// The cube a pattern of the puzzle is, if its corners and edges are
    /// distinct pieces with known orientations.
    pub fn cube(&self, layout: &Layout, pattern: &Pattern) -> Option<CubieCube> {
        let b = pattern.as_bytes();
        let mut c = CubieCube::SOLVED;
        let (p, o) = (
            layout.perm(b, self.corner_orbit),
            layout.ori(b, self.corner_orbit),
        );
        for i in 0..8 {
            if o[i] >= 3 {
                return None;
            }
            let piece = p[i] as usize;
            let def = if self.corner_mirrored {
                (3 - o[i]) % 3
            } else {
                o[i]
            };
            c.cp[self.corner_slot[i] as usize] = self.corner_slot[piece];
            c.co[self.corner_slot[i] as usize] =
                (def + self.corner_offset[i] + 3 - self.corner_offset[piece]) % 3;
        }
        let (p, o) = (
            layout.perm(b, self.edge_orbit),
            layout.ori(b, self.edge_orbit),
        );
        for i in 0..12 {
            if o[i] >= 2 {
                return None;
            }
            let piece = p[i] as usize;
            c.ep[self.edge_slot[i] as usize] = self.edge_slot[piece];
            c.eo[self.edge_slot[i] as usize] = o[i] ^ self.edge_offset[i] ^ self.edge_offset[piece];
        }
        c.validate().ok().map(|_| c)
    }

    /// Face turns written in the definition's move names (`R2'`, `U`).
    pub fn move_names(&self, puzzle: &Puzzle, moves: &MoveSeq) -> Vec<String> {
        self.moves_back(moves)
            .into_iter()
            .map(|(index, amount)| twistor_core::power_name(&puzzle.moves()[index].name, amount))
            .collect()
    }

    /// Face turns as the definition's moves: (index into
    /// [`Puzzle::moves`], signed amount).
    pub fn moves_back(&self, moves: &MoveSeq) -> Vec<(usize, i32)> {
        moves
            .0
            .iter()
            .map(|m| {
                let (index, dir) = self.face_move[m.face() as usize];
                let q = m.quarter_turns() as i32 * dir as i32;
                let q = q.rem_euclid(4);
                (index, if q == 3 { -1 } else { q })
            })
            .collect()
    }
}

/// The next permutation in lexicographic order; false after the last.
fn next_permutation(p: &mut [usize; 6]) -> bool {
    let Some(i) = (0..5).rev().find(|&i| p[i] < p[i + 1]) else {
        return false;
    };
    let j = (i + 1..6)
        .rev()
        .find(|&j| p[j] > p[i])
        .expect("exists since p[i] < p[i + 1]");
    p.swap(i, j);
    p[i + 1..].reverse();
    true
}
