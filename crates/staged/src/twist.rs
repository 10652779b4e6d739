//! Orbits whose pieces only twist in place, solved as a linear system.
//!
//! Where no move carries a piece of an orbit to another slot (the
//! starminx's corners), each move adds a fixed twist to each slot, so a
//! sequence's effect on the orbit depends only on how often each move
//! occurs. Setting such pieces right is solving `A x = d` over Z/p, with a
//! column of `A` per move and a row per slot: Gaussian elimination finds
//! the counts at once, where a search placing the pieces one at a time
//! stalls on the last few (what twists one piece alone may take many
//! moves). Played first, in any order, the moves disturb nothing placed.

use crate::model::Model;

/// A sequence setting the twists `needed` (per slot of the orbits
/// `orbits`, modulo the prime `p`) with `moves`: the moves to play, or
/// `None` when `p` is not a prime every orbit's orientations divide, or
/// the moves cannot.
pub(crate) fn twists_by_counts(
    model: &Model,
    orbits: &[usize],
    moves: &[usize],
    needed: &[u8],
    p: u8,
) -> Option<Vec<usize>> {
    if p < 2 || (2..p).any(|q| p % q == 0) || orbits.iter().any(|&k| model.oris[k] % p != 0) {
        return None;
    }
    let p = u32::from(p);
    let slots: Vec<usize> = orbits
        .iter()
        .flat_map(|&k| model.base[k]..model.base[k] + model.size[k])
        .collect();
    if needed.len() != slots.len() {
        return None;
    }
    // Rows: one per slot, the moves' twists then the twist needed.
    let cols = moves.len();
    let mut rows: Vec<Vec<u32>> = slots
        .iter()
        .zip(needed)
        .map(|(&s, &d)| {
            let mut row: Vec<u32> = moves
                .iter()
                .map(|&m| u32::from(model.moves[m].twist[s]) % p)
                .collect();
            row.push(u32::from(d) % p);
            row
        })
        .collect();
    let inverse = |a: u32| (1..p).find(|&b| a * b % p == 1).expect("p is prime");
    let mut pivots: Vec<usize> = Vec::new();
    let mut r = 0;
    for c in 0..cols {
        let Some(i) = (r..rows.len()).find(|&i| rows[i][c] != 0) else {
            continue;
        };
        rows.swap(r, i);
        let scale = inverse(rows[r][c]);
        for x in rows[r].iter_mut() {
            *x = *x * scale % p;
        }
        let pivot = rows[r].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            let f = row[c];
            if i != r && f != 0 {
                for (x, &y) in row.iter_mut().zip(&pivot) {
                    *x = (*x + (p - f) * y) % p;
                }
            }
        }
        pivots.push(c);
        r += 1;
    }
    // A row with no move left and a twist still needed: no solution.
    if rows[r..].iter().any(|row| row[cols] != 0) {
        return None;
    }
    let mut out = Vec::new();
    for (row, &c) in rows.iter().zip(&pivots) {
        for _ in 0..row[cols] {
            out.push(moves[c]);
        }
    }
    Some(out)
}
