//! What no commutator changes: the parity of an orbit of distinct pieces
//! and the total twist of an orbit whose orientations count.
//!
//! Commutators are even and add no twist, so before an orbit is finished
//! with them its parity and twist sum must be those of the goal. Each move
//! adds a fixed vector of these invariants, whatever the position, so a
//! sequence fixing them is found among short *multisets* of moves: for
//! each invariant in turn, the fewest moves (at most four, by
//! meet-in-the-middle) that set it right without changing the ones before
//! it. The moves disturb pieces, which the commutators then put back.

use std::collections::HashMap;

use twistor_core::index::permutation_parity;
use twistor_core::Layout;

use crate::model::{Class, Model};

/// One invariant: an orbit's parity, or its twist sum modulo `modulus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Invariant {
    Parity { orbit: usize },
    Twist { orbit: usize, modulus: u8 },
}

impl Invariant {
    fn modulus(self) -> u8 {
        match self {
            Invariant::Parity { .. } => 2,
            Invariant::Twist { modulus, .. } => modulus,
        }
    }
}

/// The invariants of the orbits listed, given their classes.
pub(crate) fn invariants(model: &Model, classes: &[Class], orbits: &[usize]) -> Vec<Invariant> {
    let mut out = Vec::new();
    for &k in orbits {
        let of_orbit: Vec<&Class> = classes.iter().filter(|c| c.orbit == k).collect();
        if of_orbit.len() == model.size[k] && of_orbit.iter().all(|c| c.len() == 1) {
            out.push(Invariant::Parity { orbit: k });
        }
        let modulus = of_orbit.iter().fold(0u8, |g, c| gcd(g, c.modulus));
        if modulus > 1 {
            out.push(Invariant::Twist { orbit: k, modulus });
        }
    }
    out
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The invariants of `position` against `goal` (both in the goal's terms).
pub(crate) fn of_position(
    layout: &Layout,
    classes: &[Class],
    invariants: &[Invariant],
    position: &[u8],
    goal: &[u8],
) -> Vec<u8> {
    invariants
        .iter()
        .map(|&inv| match inv {
            Invariant::Parity { orbit } => {
                let perm = layout.perm(position, orbit);
                let home = |id: u8| {
                    classes
                        .iter()
                        .find(|c| c.orbit == orbit && c.id == id)
                        .map_or(0, |c| c.homes[0])
                };
                let to_home: Vec<u8> = perm.iter().map(|&id| home(id) as u8).collect();
                permutation_parity(&to_home)
            }
            Invariant::Twist { orbit, modulus } => {
                let sum = |bytes: &[u8]| -> u32 {
                    layout
                        .ori(bytes, orbit)
                        .iter()
                        .map(|&c| layout.decode_orientation(orbit, c).0 as u32)
                        .sum()
                };
                let m = modulus as u32;
                ((sum(position) % m + m - sum(goal) % m) % m) as u8
            }
        })
        .collect()
}

/// What move `m` adds to each invariant.
pub(crate) fn of_move(model: &Model, invariants: &[Invariant], m: usize) -> Vec<u8> {
    let mv = &model.moves[m];
    invariants
        .iter()
        .map(|&inv| match inv {
            Invariant::Parity { orbit } => {
                let base = model.base[orbit];
                let perm: Vec<u8> = (0..model.size[orbit])
                    .map(|s| (mv.dest[base + s] as usize - base) as u8)
                    .collect();
                permutation_parity(&perm)
            }
            Invariant::Twist { orbit, modulus } => {
                let base = model.base[orbit];
                let sum: u32 = (0..model.size[orbit])
                    .map(|s| mv.twist[base + s] as u32)
                    .sum();
                (sum % modulus as u32) as u8
            }
        })
        .collect()
}

/// Moves that bring `current` to zero, invariant by invariant, each step
/// at most four moves that leave the invariants before it alone; `None`
/// when some step needs more.
pub(crate) fn fixing_moves(
    model: &Model,
    invariants: &[Invariant],
    moves: &[usize],
    current: &[u8],
) -> Option<Vec<usize>> {
    let vectors: Vec<Vec<u8>> = moves
        .iter()
        .map(|&m| of_move(model, invariants, m))
        .collect();
    let mods: Vec<u8> = invariants.iter().map(|i| i.modulus()).collect();
    let mut now = current.to_vec();
    let mut out = Vec::new();
    for i in 0..invariants.len() {
        if now[i] == 0 {
            continue;
        }
        let want: Vec<u8> = (0..=i).map(|j| (mods[j] - now[j]) % mods[j]).collect();
        let picked = fewest(&vectors, &mods[..=i], &want)?;
        for &p in &picked {
            for (j, x) in now.iter_mut().enumerate() {
                *x = (*x + vectors[p][j]) % mods[j];
            }
            out.push(moves[p]);
        }
    }
    Some(out)
}

fn add(a: &[u8], b: &[u8], mods: &[u8]) -> Vec<u8> {
    a.iter()
        .zip(b)
        .zip(mods)
        .map(|((&x, &y), &m)| (x + y) % m)
        .collect()
}

fn sub(a: &[u8], b: &[u8], mods: &[u8]) -> Vec<u8> {
    a.iter()
        .zip(b)
        .zip(mods)
        .map(|((&x, &y), &m)| (x + m - y % m) % m)
        .collect()
}

/// The fewest vectors (indices, at most four) whose sum, on the first
/// `mods.len()` coordinates, is `want`.
fn fewest(vectors: &[Vec<u8>], mods: &[u8], want: &[u8]) -> Option<Vec<usize>> {
    let k = mods.len();
    let cut = |v: &[u8]| v[..k].to_vec();
    let mut singles: HashMap<Vec<u8>, usize> = HashMap::new();
    for (i, v) in vectors.iter().enumerate() {
        singles.entry(cut(v)).or_insert(i);
    }
    if let Some(&i) = singles.get(want) {
        return Some(vec![i]);
    }
    for (i, v) in vectors.iter().enumerate() {
        if let Some(&j) = singles.get(&sub(want, &v[..k], mods)) {
            return Some(vec![i, j]);
        }
    }
    // One vector per distinct value, in index order, so the answer does
    // not depend on hashing.
    let mut reps: Vec<usize> = singles.values().copied().collect();
    reps.sort_unstable();
    let mut pairs: HashMap<Vec<u8>, (usize, usize)> = HashMap::new();
    for &i in &reps {
        for &j in &reps {
            pairs
                .entry(add(&vectors[i][..k], &vectors[j][..k], mods))
                .or_insert((i, j));
        }
    }
    for (i, v) in vectors.iter().enumerate() {
        if let Some(&(j, l)) = pairs.get(&sub(want, &v[..k], mods)) {
            return Some(vec![i, j, l]);
        }
    }
    let mut keys: Vec<(&Vec<u8>, &(usize, usize))> = pairs.iter().collect();
    keys.sort();
    for (key, &(i, j)) in keys {
        if let Some(&(l, m)) = pairs.get(&sub(want, key, mods)) {
            return Some(vec![i, j, l, m]);
        }
    }
    None
}
