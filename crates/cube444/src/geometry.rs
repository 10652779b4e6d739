//! The 4x4x4 as 96 stickers in space, and every move as a permutation of
//! them.
//!
//! Nothing here is written out by hand: each sticker gets a position
//! (faces at ±4, cubie centres at ±1 and ±3), a move is a quarter turn of
//! the stickers whose cubie lies in the turned layers, and the pieces
//! (corners, wings, centres) are the stickers grouped by cubie. The solver's
//! tables are all derived from these permutations, so a mistake in a
//! coordinate shows up as a failed check rather than a silently wrong
//! move.

/// Stickers on a 4x4x4.
pub(crate) const N_STICKERS: usize = 96;

/// A permutation of the stickers: after it, sticker `i` holds what sticker
/// `perm[i]` held before.
pub(crate) type Perm = [u8; N_STICKERS];

type V = [i32; 3];

/// Outward normals of the faces in twistor's (and Kociemba's) order
/// U R F D L B, with x = R, y = U, z = F.
pub(crate) const NORMALS: [V; 6] = [
    [0, 1, 0],
    [1, 0, 0],
    [0, 0, 1],
    [0, -1, 0],
    [-1, 0, 0],
    [0, 0, -1],
];
/// Each face's "right" direction as the facelet strings read it
/// (Kociemba's layout: U and D with F towards the bottom and top, the
/// sides with U on top).
const RIGHT: [V; 6] = [
    [1, 0, 0],
    [0, 0, -1],
    [1, 0, 0],
    [1, 0, 0],
    [0, 0, 1],
    [-1, 0, 0],
];
/// Each face's "down" direction in the same layout.
const DOWN: [V; 6] = [
    [0, 0, 1],
    [0, -1, 0],
    [0, -1, 0],
    [0, 0, -1],
    [0, -1, 0],
    [0, -1, 0],
];

fn dot(a: V, b: V) -> i32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Sticker `s` = face·16 + row·4 + column.
pub(crate) fn position(s: usize) -> V {
    let (f, r, c) = (s / 16, (s % 16) / 4, s % 4);
    let (u, v) = (2 * c as i32 - 3, 2 * r as i32 - 3);
    std::array::from_fn(|k| 4 * NORMALS[f][k] + u * RIGHT[f][k] + v * DOWN[f][k])
}

/// The centre of the cubie a sticker belongs to.
pub(crate) fn cubie(s: usize) -> V {
    let p = position(s);
    let n = NORMALS[s / 16];
    std::array::from_fn(|k| p[k] - n[k])
}

pub(crate) fn sticker_at(p: V) -> usize {
    let f = (0..6)
        .find(|&f| dot(p, NORMALS[f]) == 4)
        .expect("a sticker position");
    let c = (dot(p, RIGHT[f]) + 3) / 2;
    let r = (dot(p, DOWN[f]) + 3) / 2;
    f * 16 + r as usize * 4 + c as usize
}

/// A quarter turn clockwise seen from outside along `d`.
fn quarter(v: V, d: V) -> V {
    let c = cross(d, v);
    let k = dot(d, v);
    std::array::from_fn(|i| -c[i] + d[i] * k)
}

/// The permutation turning the layers whose cubie coordinate along
/// `NORMALS[face]` is in `layers` (3 = the face's outer layer, 1 the next)
/// by `amount` clockwise quarter turns.
pub(crate) fn layer_turn(face: usize, layers: &[i32], amount: usize) -> Perm {
    let d = NORMALS[face];
    let mut perm: Perm = std::array::from_fn(|i| i as u8);
    for s in 0..N_STICKERS {
        if layers.contains(&dot(cubie(s), d)) {
            let mut p = position(s);
            for _ in 0..amount {
                p = quarter(p, d);
            }
            perm[sticker_at(p)] = s as u8;
        }
    }
    perm
}

/// `a` then `b`.
pub(crate) fn then(a: &Perm, b: &Perm) -> Perm {
    std::array::from_fn(|i| a[b[i] as usize])
}

/// The inverse permutation.
pub(crate) fn inverse(a: &Perm) -> Perm {
    let mut out = [0; N_STICKERS];
    for (i, &x) in a.iter().enumerate() {
        out[x as usize] = i as u8;
    }
    out
}

/// The identity.
pub(crate) fn identity() -> Perm {
    std::array::from_fn(|i| i as u8)
}

/// How many of a sticker's cubie coordinates are outer (±3): 3 for a
/// corner, 2 for a wing, 1 for a centre.
fn outer_count(s: usize) -> usize {
    cubie(s).iter().filter(|c| c.abs() == 3).count()
}

/// The pieces as sticker lists: each corner's three stickers in clockwise
/// order starting from its U or D sticker, each wing's two stickers in a
/// fixed handedness (so a move maps a wing's first sticker to a first
/// sticker), each centre's one sticker.
pub(crate) struct Pieces {
    /// 8 corners, stickers clockwise from the U/D one.
    pub corners: Vec<[usize; 3]>,
    /// 24 wings.
    pub wings: Vec<[usize; 2]>,
    /// 24 centres (sticker indices), in sticker order: centre `i` is on
    /// face `i / 4`.
    pub centres: Vec<usize>,
    /// For each wing slot, the dedge slot (0..12) it belongs to.
    pub dedge_of_wing: Vec<usize>,
}

fn det(a: V, b: V, c: V) -> i32 {
    dot(a, cross(b, c))
}

impl Pieces {
    pub(crate) fn new() -> Pieces {
        let mut corners = Vec::new();
        let mut wings = Vec::new();
        let mut centres = Vec::new();
        let mut dedges: Vec<V> = Vec::new();
        let mut dedge_of_wing = Vec::new();
        for s in 0..N_STICKERS {
            let cb = cubie(s);
            match outer_count(s) {
                1 => centres.push(s),
                2 => {
                    let t = (0..N_STICKERS)
                        .find(|&t| t != s && cubie(t) == cb)
                        .expect("a wing's partner");
                    let (ns, nt) = (NORMALS[s / 16], NORMALS[t / 16]);
                    if det(ns, nt, cb) > 0 {
                        wings.push([s, t]);
                        // The dedge: the wing's cubie with its ±1 coordinate zeroed.
                        let key: V =
                            std::array::from_fn(|k| if cb[k].abs() == 1 { 0 } else { cb[k] });
                        let d = match dedges.iter().position(|&e| e == key) {
                            Some(d) => d,
                            None => {
                                dedges.push(key);
                                dedges.len() - 1
                            }
                        };
                        dedge_of_wing.push(d);
                    }
                }
                _ => {
                    let f = s / 16;
                    if f == 0 || f == 3 {
                        let mut others: Vec<usize> = (0..N_STICKERS)
                            .filter(|&t| t != s && cubie(t) == cb)
                            .collect();
                        // Clockwise seen from outside the corner.
                        let (n0, n1) = (NORMALS[f], NORMALS[others[0] / 16]);
                        let n2 = NORMALS[others[1] / 16];
                        // (U, R, F) is clockwise at URF and has determinant -1.
                        if det(n0, n1, n2) > 0 {
                            others.swap(0, 1);
                        }
                        corners.push([s, others[0], others[1]]);
                    }
                }
            }
        }
        Pieces {
            corners,
            wings,
            centres,
            dedge_of_wing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_counted_right() {
        let p = Pieces::new();
        assert_eq!(p.corners.len(), 8);
        assert_eq!(p.wings.len(), 24);
        assert_eq!(p.centres.len(), 24);
        for d in 0..12 {
            assert_eq!(p.dedge_of_wing.iter().filter(|&&x| x == d).count(), 2);
        }
    }

    #[test]
    fn a_quarter_turn_has_order_four_and_moves_the_right_stickers() {
        for f in 0..6 {
            for layers in [&[3][..], &[3, 1][..], &[1][..]] {
                let q = layer_turn(f, layers, 1);
                let q4 = then(&then(&q, &q), &then(&q, &q));
                assert_eq!(q4, identity());
                assert_eq!(then(&q, &layer_turn(f, layers, 3)), identity());
            }
            // An outer turn moves its face's 16 stickers and a row of 4 on
            // each of the four sides.
            let moved = layer_turn(f, &[3], 1)
                .iter()
                .enumerate()
                .filter(|&(i, &x)| i != x as usize)
                .count();
            assert_eq!(moved, 16 + 16);
        }
        // R takes the U face's stickers to B (clockwise seen from R).
        let r = layer_turn(1, &[3], 1);
        let ub = sticker_at([3, 4, -3]); // U face, right column, back row
        let back = r.iter().position(|&x| x as usize == ub).unwrap();
        assert_eq!(back / 16, 5);
    }
}
