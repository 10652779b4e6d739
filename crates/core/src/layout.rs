//! The shape of a puzzle's state: its orbits, and where each orbit lives in a
//! packed byte array.
//!
//! Every state, pattern and transformation of a puzzle is one contiguous byte
//! array. For each orbit, in order, it holds `n` permutation bytes followed by
//! `n` orientation bytes. Permutations are *passive* (slot → piece), and
//! orientations are in ksolve's *state representation* (slot → orientation),
//! so composition is the spec's `sss` product and needs no allocation.
//!
//! Orientation bytes of a [`Pattern`](crate::Pattern) are *codes* rather than
//! plain values: a code carries both the orientation and the modulus it is
//! known to (cubing.js `orientationMod`; a `?` wildcard is modulus 1). The
//! codes are laid out so that adding a transformation's orientation delta is a
//! single table lookup, `add[code + delta]`, which keeps composition of
//! patterns and transformations the same loop.

use crate::group::{PointBlock, StabilizerChain};
use crate::CoreError;

/// Most pieces an orbit may have: piece ids are stored in one byte.
pub const MAX_PIECES: usize = 255;
/// Most orientations a piece may have.
pub const MAX_ORIENTATIONS: usize = 127;

/// One orbit (a ksolve "set"): a named class of pieces that move among the
/// same slots, each with the same number of orientations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Orbit {
    name: String,
    num_pieces: usize,
    num_orientations: u8,
}

impl Orbit {
    /// An orbit of `num_pieces` pieces with `num_orientations` orientations each.
    pub fn new(
        name: impl Into<String>,
        num_pieces: usize,
        num_orientations: usize,
    ) -> Result<Orbit, CoreError> {
        let name = name.into();
        if num_pieces == 0 || num_pieces > MAX_PIECES {
            return Err(CoreError::OrbitSize {
                orbit: name,
                pieces: num_pieces,
            });
        }
        if num_orientations == 0 || num_orientations > MAX_ORIENTATIONS {
            return Err(CoreError::OrbitOrientations {
                orbit: name,
                orientations: num_orientations,
            });
        }
        Ok(Orbit {
            name,
            num_pieces,
            num_orientations: num_orientations as u8,
        })
    }

    /// The orbit's name (`CORNERS`, `EDGES`, ...).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many pieces (and slots) the orbit has.
    pub fn num_pieces(&self) -> usize {
        self.num_pieces
    }

    /// How many orientations each piece has.
    pub fn num_orientations(&self) -> usize {
        self.num_orientations as usize
    }
}

/// Orientation codes of one orbit; see the module documentation.
#[derive(Clone, Debug)]
pub(crate) struct OrientationCodes {
    n: u8,
    /// `add[code + delta]` is the code after adding `delta` (< n).
    pub(crate) add: Vec<u8>,
    /// For each valid code: its modulus, 0 meaning the full `n`.
    modulus: Vec<u8>,
    /// For each valid code: its orientation value.
    value: Vec<u8>,
    /// First code of each proper divisor's block, indexed by the divisor.
    block_start: Vec<Option<u8>>,
}

impl OrientationCodes {
    fn new(n: u8) -> OrientationCodes {
        let nn = n as usize;
        // The full block: codes 0..n, reached indices 0..2n-1.
        let mut add: Vec<u8> = (0..2 * nn - 1).map(|x| (x % nn) as u8).collect();
        let mut modulus: Vec<u8> = (0..2 * nn - 1)
            .map(|x| if x < nn { 0 } else { u8::MAX })
            .collect();
        let mut value: Vec<u8> = (0..2 * nn - 1).map(|x| (x % nn) as u8).collect();
        let mut block_start = vec![None; nn + 1];
        for d in (1..nn).filter(|d| nn % d == 0) {
            let start = add.len();
            if start + d > 256 {
                // Codes must fit in a byte; such orbits only support the
                // divisors that fit (wildcards, d = 1, come first).
                break;
            }
            for x in 0..d + nn - 1 {
                add.push((start + x % d) as u8);
                modulus.push(if x < d { d as u8 } else { u8::MAX });
                value.push((x % d) as u8);
            }
            block_start[d] = Some(start as u8);
        }
        OrientationCodes {
            n,
            add,
            modulus,
            value,
            block_start,
        }
    }

    /// The code of orientation `value` known modulo `modulus` (0 = full).
    pub(crate) fn encode(&self, value: u8, modulus: u8) -> Option<u8> {
        let n = self.n;
        if modulus == 0 || modulus == n {
            return (value < n).then_some(value);
        }
        if n % modulus != 0 || value >= modulus {
            return None;
        }
        self.block_start[modulus as usize].map(|s| s + value)
    }

    /// `(value, modulus)` of a code; modulus 0 means the full count.
    pub(crate) fn decode(&self, code: u8) -> (u8, u8) {
        let c = code as usize;
        (self.value[c], self.modulus[c])
    }

    pub(crate) fn is_valid(&self, code: u8) -> bool {
        let c = code as usize;
        c < self.modulus.len() && self.modulus[c] != u8::MAX
    }
}

/// A transformation kept as the bytes it changes. A move of a big puzzle
/// moves a small part of it (a 4x4x4 face turn rewrites 24 of a state's
/// 112 bytes), so copying a state and rewriting those is several times
/// cheaper than [`Layout::compose_into`], which rebuilds every byte; the
/// searches apply their moves this way.
#[derive(Clone, Debug)]
pub struct SparseTransformation {
    len: usize,
    /// `(to, from)`: the byte at `from` moves to `to` unchanged.
    moved: Box<[(u32, u32)]>,
    /// `(to, from, at)`: the code at `from`, twisted, moves to `to`: its
    /// new code is `add[code + at]`.
    twisted: Box<[(u32, u32, u32)]>,
    /// The orientation-addition tables of the orbits it twists, end to end.
    add: Box<[u8]>,
}

impl SparseTransformation {
    /// Writes state `a` with the transformation applied into `out`: the
    /// same bytes as [`Layout::compose_into`] for any state whose orbits
    /// without orientation hold 0 in their orientation bytes (every
    /// pattern and transformation does).
    #[inline]
    pub fn apply(&self, a: &[u8], out: &mut [u8]) {
        assert!(a.len() == self.len && out.len() == self.len);
        out.copy_from_slice(a);
        for &(to, from) in self.moved.iter() {
            out[to as usize] = a[from as usize];
        }
        for &(to, from, at) in self.twisted.iter() {
            out[to as usize] = self.add[a[from as usize] as usize + at as usize];
        }
    }
}

/// The orbits of a puzzle and the packed layout of its states.
#[derive(Clone, Debug)]
pub struct Layout {
    orbits: Vec<Orbit>,
    offsets: Vec<usize>,
    len: usize,
    pub(crate) codes: Vec<OrientationCodes>,
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        self.orbits == other.orbits
    }
}
impl Eq for Layout {}

impl Layout {
    /// A layout of the given orbits, in order. Orbit names must be distinct.
    pub fn new(orbits: Vec<Orbit>) -> Result<Layout, CoreError> {
        if orbits.is_empty() {
            return Err(CoreError::NoOrbits);
        }
        for (i, o) in orbits.iter().enumerate() {
            if orbits[..i].iter().any(|p| p.name == o.name) {
                return Err(CoreError::DuplicateOrbit {
                    orbit: o.name.clone(),
                });
            }
        }
        let mut offsets = Vec::with_capacity(orbits.len());
        let mut len = 0;
        for o in &orbits {
            offsets.push(len);
            len += 2 * o.num_pieces;
        }
        let codes = orbits
            .iter()
            .map(|o| OrientationCodes::new(o.num_orientations))
            .collect();
        Ok(Layout {
            orbits,
            offsets,
            len,
            codes,
        })
    }

    /// The layout of the orbits `kept` marks, in order; `None` where it
    /// marks none.
    pub fn sub_layout(&self, kept: &[bool]) -> Option<Layout> {
        let orbits: Vec<Orbit> = (self.orbits.iter().zip(kept))
            .filter(|(_, &k)| k)
            .map(|(o, _)| o.clone())
            .collect();
        Layout::new(orbits).ok()
    }

    /// The bytes of `state` on the orbits `kept` marks: a state of
    /// [`Layout::sub_layout`]`(kept)` (its orientation codes are the
    /// same, wildcards and moduli included).
    pub fn restrict(&self, kept: &[bool], state: &[u8]) -> Vec<u8> {
        (0..self.orbits.len())
            .filter(|&k| kept[k])
            .flat_map(|k| &state[self.offsets[k]..self.offsets[k] + 2 * self.orbits[k].num_pieces])
            .copied()
            .collect()
    }

    /// The blocks of orbit `k`: the classes of slots the `generators`
    /// (transformations) permute among themselves, so that a piece never
    /// leaves its block; each ascending, ordered by their least slot.
    pub fn slot_blocks(&self, k: usize, generators: &[&[u8]]) -> Vec<Vec<usize>> {
        let n = self.orbits[k].num_pieces;
        let mut parent: Vec<usize> = (0..n).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for g in generators {
            for (i, &p) in self.perm(g, k).iter().enumerate() {
                let (a, b) = (find(&mut parent, i), find(&mut parent, p as usize));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut block_of = vec![usize::MAX; n];
        for i in 0..n {
            let r = find(&mut parent, i);
            if block_of[r] == usize::MAX {
                block_of[r] = out.len();
                out.push(Vec::new());
            }
            out[block_of[r]].push(i);
        }
        out
    }

    /// Per orbit, each slot's class: the index of its block
    /// ([`Layout::slot_blocks`]) under `generators`.
    pub fn slot_classes(&self, generators: &[&[u8]]) -> Vec<Vec<usize>> {
        (0..self.orbits.len())
            .map(|k| {
                let mut class = vec![0; self.orbits[k].num_pieces];
                for (b, block) in self.slot_blocks(k, generators).iter().enumerate() {
                    for &s in block {
                        class[s] = b;
                    }
                }
                class
            })
            .collect()
    }

    /// Ways of telling `position`'s pieces alike apart against `goal`'s
    /// (both a state's bytes): per orbit, each slot's home, the goal slot
    /// its piece is taken to. Pieces alike go home in slot order within
    /// their class of slots (`classes`, as [`Layout::slot_classes`] gives
    /// them), then with two alike swapped in one class, or in each of two
    /// (what a class's parity asks for). `None` where a class holds a
    /// piece the goal's does not: no labelling exists.
    pub fn alike_labellings(
        &self,
        goal: &[u8],
        position: &[u8],
        classes: &[Vec<usize>],
    ) -> Option<impl Iterator<Item = Vec<Vec<u8>>>> {
        let mut homes: Vec<Vec<u8>> = Vec::with_capacity(self.orbits.len());
        for (k, class) in classes.iter().enumerate() {
            let (ids, goal_ids) = (self.perm(position, k), self.perm(goal, k));
            let mut used = vec![false; goal_ids.len()];
            let mut home = Vec::with_capacity(ids.len());
            for (s, &id) in ids.iter().enumerate() {
                let h = (0..goal_ids.len())
                    .find(|&h| goal_ids[h] == id && class[h] == class[s] && !used[h])?;
                used[h] = true;
                home.push(h as u8);
            }
            homes.push(home);
        }
        // One swap of two pieces alike per class that has them.
        let mut swaps: Vec<(usize, usize, usize)> = Vec::new();
        for (k, class) in classes.iter().enumerate() {
            let ids = self.perm(position, k);
            let mut seen = vec![false; ids.len()];
            for a in 0..ids.len() {
                if seen[class[a]] {
                    continue;
                }
                if let Some(b) =
                    (a + 1..ids.len()).find(|&b| ids[b] == ids[a] && class[b] == class[a])
                {
                    seen[class[a]] = true;
                    swaps.push((k, a, b));
                }
            }
        }
        let mut choices: Vec<Vec<(usize, usize, usize)>> = vec![Vec::new()];
        for (i, &one) in swaps.iter().enumerate() {
            choices.push(vec![one]);
            choices.extend(swaps[i + 1..].iter().map(|&two| vec![one, two]));
        }
        Some(choices.into_iter().map(move |swapped| {
            let mut labelling = homes.clone();
            for (k, a, b) in swapped {
                labelling[k].swap(a, b);
            }
            labelling
        }))
    }

    /// The orbits, in layout order.
    pub fn orbits(&self) -> &[Orbit] {
        &self.orbits
    }

    /// The index of the orbit called `name`.
    pub fn orbit_index(&self, name: &str) -> Option<usize> {
        self.orbits.iter().position(|o| o.name == name)
    }

    /// Length in bytes of a packed state.
    pub fn state_len(&self) -> usize {
        self.len
    }

    /// Byte offset of orbit `k`'s permutation block; its orientation block follows.
    pub fn offset(&self, k: usize) -> usize {
        self.offsets[k]
    }

    /// The permutation bytes of orbit `k` within a packed state.
    pub fn perm<'a>(&self, state: &'a [u8], k: usize) -> &'a [u8] {
        let off = self.offsets[k];
        &state[off..off + self.orbits[k].num_pieces]
    }

    /// The orientation bytes of orbit `k` within a packed state.
    pub fn ori<'a>(&self, state: &'a [u8], k: usize) -> &'a [u8] {
        let off = self.offsets[k] + self.orbits[k].num_pieces;
        &state[off..off + self.orbits[k].num_pieces]
    }

    /// Composes `a` then `b` into `out` (the spec's `sss` product):
    /// `out.p[i] = a.p[b.p[i]]`, `out.o[i] = a.o[b.p[i]] + b.o[i]`.
    ///
    /// `a` may be a pattern (orientation codes, repeated piece ids); `b` must
    /// be a transformation. All three slices have [`Layout::state_len`] bytes.
    /// Allocates nothing.
    #[inline]
    pub fn compose_into(&self, a: &[u8], b: &[u8], out: &mut [u8]) {
        assert!(a.len() == self.len && b.len() == self.len && out.len() == self.len);
        for (k, orbit) in self.orbits.iter().enumerate() {
            let n = orbit.num_pieces;
            let off = self.offsets[k];
            let (ap, ao) = a[off..off + 2 * n].split_at(n);
            let (bp, bo) = b[off..off + 2 * n].split_at(n);
            let (op, oo) = out[off..off + 2 * n].split_at_mut(n);
            if orbit.num_orientations == 1 {
                for i in 0..n {
                    op[i] = ap[bp[i] as usize];
                }
                oo.fill(0);
            } else {
                let add = &self.codes[k].add[..];
                for i in 0..n {
                    let j = bp[i] as usize;
                    op[i] = ap[j];
                    oo[i] = add[ao[j] as usize + bo[i] as usize];
                }
            }
        }
    }

    /// Transformation `b` kept as the bytes it changes, to apply to many
    /// states ([`SparseTransformation::apply`]).
    pub fn sparse(&self, b: &[u8]) -> SparseTransformation {
        assert!(b.len() == self.len);
        let mut moved = Vec::new();
        let mut twisted = Vec::new();
        let mut add = Vec::new();
        for (k, orbit) in self.orbits.iter().enumerate() {
            let n = orbit.num_pieces;
            let off = self.offsets[k];
            let (bp, bo) = b[off..off + 2 * n].split_at(n);
            let base = add.len();
            for i in 0..n {
                let j = bp[i] as usize;
                if j != i {
                    moved.push(((off + i) as u32, (off + j) as u32));
                }
                if orbit.num_orientations == 1 {
                    continue;
                }
                let (to, from) = ((off + n + i) as u32, (off + n + j) as u32);
                if bo[i] != 0 {
                    twisted.push((to, from, (base + bo[i] as usize) as u32));
                } else if j != i {
                    moved.push((to, from));
                }
            }
            if twisted.last().is_some_and(|t| t.2 as usize >= base) {
                add.extend_from_slice(&self.codes[k].add);
            }
        }
        SparseTransformation {
            len: self.len,
            moved: moved.into(),
            twisted: twisted.into(),
            add: add.into(),
        }
    }

    /// Writes the inverse of transformation `a` into `out` (the spec's `sinv`).
    pub fn invert_into(&self, a: &[u8], out: &mut [u8]) {
        assert!(a.len() == self.len && out.len() == self.len);
        for (k, orbit) in self.orbits.iter().enumerate() {
            let n = orbit.num_pieces;
            let m = orbit.num_orientations;
            let off = self.offsets[k];
            let (ap, ao) = a[off..off + 2 * n].split_at(n);
            let (op, oo) = out[off..off + 2 * n].split_at_mut(n);
            for i in 0..n {
                let j = ap[i] as usize;
                op[j] = i as u8;
                oo[j] = if ao[i] == 0 { 0 } else { m - ao[i] };
            }
        }
    }

    /// The identity transformation as packed bytes.
    pub fn identity_bytes(&self) -> Vec<u8> {
        let mut v = vec![0u8; self.len];
        for (k, orbit) in self.orbits.iter().enumerate() {
            let off = self.offsets[k];
            for i in 0..orbit.num_pieces {
                v[off + i] = i as u8;
            }
        }
        v
    }

    /// Encodes orientation `value` known modulo `modulus` (0 = full) for orbit `k`.
    pub fn encode_orientation(&self, k: usize, value: u8, modulus: u8) -> Option<u8> {
        self.codes[k].encode(value, modulus)
    }

    /// Decodes an orientation code of orbit `k` into `(value, modulus)`;
    /// modulus 0 means the orbit's full orientation count.
    pub fn decode_orientation(&self, k: usize, code: u8) -> (u8, u8) {
        self.codes[k].decode(code)
    }

    /// Decodes an orientation code of orbit `k`, or `None` if it is not a
    /// valid code.
    pub fn try_decode_orientation(&self, k: usize, code: u8) -> Option<(u8, u8)> {
        self.is_valid_code(k, code)
            .then(|| self.codes[k].decode(code))
    }

    /// Whether a byte is a valid orientation code for orbit `k`.
    pub(crate) fn is_valid_code(&self, k: usize, code: u8) -> bool {
        self.codes[k].is_valid(code)
    }

    /// The orbits as blocks of points, which every move maps onto
    /// themselves.
    pub(crate) fn point_blocks(&self) -> Vec<PointBlock> {
        let mut blocks = Vec::new();
        let mut start = 0;
        for o in &self.orbits {
            blocks.push(PointBlock {
                start,
                pieces: o.num_pieces,
                orientations: o.num_orientations as usize,
            });
            start += o.num_pieces * o.num_orientations as usize;
        }
        blocks
    }

    /// An upper bound on the bytes the Schreier–Sims chain of any group of
    /// this layout's moves takes, known before it is built
    /// ([`StabilizerChain::bytes_bound`]).
    pub fn group_bytes_bound(&self) -> u64 {
        StabilizerChain::bytes_bound(&self.point_blocks())
    }

    /// Number of points when every (slot, orientation) pair is a point; the
    /// degree of the permutation group the puzzle's moves generate.
    pub fn num_points(&self) -> usize {
        self.orbits
            .iter()
            .map(|o| o.num_pieces * o.num_orientations as usize)
            .sum()
    }

    /// The transformation as an active permutation of (slot, orientation)
    /// points: the sticker at point `x` moves to point `result[x]`.
    pub fn to_points(&self, t: &[u8]) -> Vec<u16> {
        let mut out = vec![0u16; self.num_points()];
        let mut base = 0usize;
        for (k, orbit) in self.orbits.iter().enumerate() {
            let m = orbit.num_orientations as usize;
            let p = self.perm(t, k);
            let o = self.ori(t, k);
            for i in 0..orbit.num_pieces {
                let from = p[i] as usize;
                for x in 0..m {
                    out[base + from * m + x] = (base + i * m + (x + o[i] as usize) % m) as u16;
                }
            }
            base += orbit.num_pieces * m;
        }
        out
    }

    /// The inverse of [`Layout::to_points`], if `points` respects the orbits'
    /// piece structure.
    pub fn from_points(&self, points: &[u16]) -> Option<Vec<u8>> {
        if points.len() != self.num_points() {
            return None;
        }
        let mut out = vec![0u8; self.len];
        let mut base = 0usize;
        for (k, orbit) in self.orbits.iter().enumerate() {
            let m = orbit.num_orientations as usize;
            let off = self.offsets[k];
            let n = orbit.num_pieces;
            for from in 0..n {
                let img = points[base + from * m] as usize;
                if img < base || img >= base + n * m {
                    return None;
                }
                let i = (img - base) / m;
                let o = (img - base) % m;
                out[off + i] = from as u8;
                out[off + n + i] = o as u8;
            }
            base += n * m;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_add_within_their_block() {
        let c = OrientationCodes::new(4);
        for d in [1u8, 2, 4] {
            for v in 0..d {
                let code = c.encode(v, if d == 4 { 0 } else { d }).unwrap();
                for delta in 0..4u8 {
                    let got = c.add[code as usize + delta as usize];
                    let want = c
                        .encode((v + delta) % d, if d == 4 { 0 } else { d })
                        .unwrap();
                    assert_eq!(got, want, "d={d} v={v} delta={delta}");
                }
            }
        }
        assert_eq!(c.encode(3, 2), None);
        assert_eq!(c.encode(0, 3), None);
    }

    #[test]
    fn codes_for_twelve_orientations_fit_every_divisor() {
        let c = OrientationCodes::new(12);
        for d in [1u8, 2, 3, 4, 6] {
            assert!(c.encode(d - 1, d).is_some(), "divisor {d}");
            assert_eq!(c.decode(c.encode(d - 1, d).unwrap()), (d - 1, d));
        }
    }

    #[test]
    fn points_round_trip() {
        let l = Layout::new(vec![
            Orbit::new("E", 4, 2).unwrap(),
            Orbit::new("C", 3, 3).unwrap(),
        ])
        .unwrap();
        let t = vec![1, 2, 3, 0, 0, 0, 1, 1, 1, 2, 0, 1, 1, 1];
        assert_eq!(l.from_points(&l.to_points(&t)).unwrap(), t);
    }
}
