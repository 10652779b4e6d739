//! The Square-1 position: 24 slots, the middle layer, moves and layouts.

use std::fmt;
use std::sync::OnceLock;

use twistor_core::random::SeededRng;

use crate::error::{PositionReason, Square1Error};
use crate::notation::Square1Move;

/// Number of twistable layouts: the ways to fill four half-layers of six
/// slots with whole pieces so that the puzzle holds exactly eight corners.
pub const LAYOUT_COUNT: usize = 3678;

/// The piece in each slot of the solved puzzle (see [`Square1Position`] for
/// the numbering).
const SOLVED_SLOTS: [u8; 24] = [
    0, 0, 8, 1, 1, 9, 2, 2, 10, 3, 3, 11, //
    12, 4, 4, 13, 5, 5, 14, 6, 6, 15, 7, 7,
];

/// Whether piece `p` is a corner (ids 0..8) rather than an edge (8..16).
#[inline]
pub(crate) fn is_corner(p: u8) -> bool {
    p < 8
}

/// A Square-1 position: the piece in each of the 24 slots of 30° and the
/// middle layer.
///
/// Slots are numbered as in TNoodle and cubing.js: top slots 0..12, bottom
/// slots 12..24; `(1,0)` moves the piece in top slot `i` to slot `i + 1`
/// (mod 12), `(0,1)` moves the piece in bottom slot `12 + i` to
/// `12 + (i + 1 mod 12)`, and `/` swaps top slots 6..12 with bottom slots
/// 12..18 (6↔12, …, 11↔17) and turns the right half of the middle layer.
///
/// Pieces are numbered corners first, then edges, each top then bottom, in
/// the order the solved puzzle holds them:
///
/// | id | piece | solved slots | id | piece | solved slot |
/// |---|---|---|---|---|---|
/// | 0 | UFL | 0, 1 | 8 | UL | 2 |
/// | 1 | ULB | 3, 4 | 9 | UB | 5 |
/// | 2 | UBR | 6, 7 | 10 | UR | 8 |
/// | 3 | URF | 9, 10 | 11 | UF | 11 |
/// | 4 | DFR | 13, 14 | 12 | DF | 12 |
/// | 5 | DRB | 16, 17 | 13 | DR | 15 |
/// | 6 | DBL | 19, 20 | 14 | DB | 18 |
/// | 7 | DLF | 22, 23 | 15 | DL | 21 |
///
/// A corner fills two consecutive slots of one layer (its halves always in
/// the same clockwise order, so the slots alone say how it sits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square1Position {
    slots: [u8; 24],
    middle_flipped: bool,
}

impl Default for Square1Position {
    fn default() -> Self {
        Self::solved()
    }
}

impl Square1Position {
    /// The solved puzzle.
    pub fn solved() -> Square1Position {
        Square1Position {
            slots: SOLVED_SLOTS,
            middle_flipped: false,
        }
    }

    /// Whether every slot holds its solved piece and the middle layer is
    /// solved.
    pub fn is_solved(&self) -> bool {
        self.slots == SOLVED_SLOTS && !self.middle_flipped
    }

    /// A position from its slot contents and middle layer, checked: every
    /// corner fills two consecutive slots of one layer, every edge one
    /// slot, and each layer can be turned to where `/` is possible (true of
    /// every position the moves reach).
    pub fn from_slots(
        slots: [u8; 24],
        middle_flipped: bool,
    ) -> Result<Square1Position, Square1Error> {
        let mut count = [0u8; 16];
        for &p in &slots {
            if p >= 16 {
                return Err(Square1Error::InvalidPosition {
                    reason: PositionReason::PieceOutOfRange,
                });
            }
            count[usize::from(p)] += 1;
        }
        for (p, &c) in count.iter().enumerate() {
            let want = if p < 8 { 2 } else { 1 };
            if c != want {
                return Err(Square1Error::InvalidPosition {
                    reason: PositionReason::PieceCount,
                });
            }
        }
        for base in [0, 12] {
            for i in 0..12 {
                let p = slots[base + i];
                let next = slots[base + (i + 1) % 12];
                let prev = slots[base + (i + 11) % 12];
                if is_corner(p) && next != p && prev != p {
                    return Err(Square1Error::InvalidPosition {
                        reason: PositionReason::SplitCorner,
                    });
                }
            }
        }
        let pos = Square1Position {
            slots,
            middle_flipped,
        };
        if pos.twistable_rotations().is_none() {
            return Err(Square1Error::InvalidPosition {
                reason: PositionReason::NoSliceTurn,
            });
        }
        Ok(pos)
    }

    /// The piece in slot `slot` (0..24), or `None` past the last slot.
    pub fn piece(&self, slot: usize) -> Option<u8> {
        self.slots.get(slot).copied()
    }

    /// All 24 slots' pieces.
    pub fn slots(&self) -> &[u8; 24] {
        &self.slots
    }

    /// Whether the middle layer is turned (`false` when solved).
    pub fn middle_flipped(&self) -> bool {
        self.middle_flipped
    }

    /// The index (0..3678) of the position's layout, which slots hold
    /// corners, among the twistable layouts; `None` when `/` is not
    /// possible here.
    pub fn layout_index(&self) -> Option<usize> {
        if !self.can_slash() {
            return None;
        }
        layouts().binary_search(&self.layout_key()).ok()
    }

    /// A uniformly random position among all twistable positions, layers in
    /// absolute position: a layout uniform among the 3,678 twistable ones,
    /// corners and edges uniformly shuffled into its corner and edge places,
    /// the middle layer solved or turned with equal chance. (Every layout
    /// has the same 8!·8! fillings, so this is uniform over positions.)
    pub fn random(rng: &mut SeededRng) -> Square1Position {
        let key = layouts()[rng.below(LAYOUT_COUNT)];
        let mut corners: [u8; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
        let mut edges: [u8; 8] = [8, 9, 10, 11, 12, 13, 14, 15];
        shuffle(&mut corners, rng);
        shuffle(&mut edges, rng);
        let middle_flipped = rng.below(2) == 1;
        let mut pos = fill_layout(key, &corners, &edges);
        pos.middle_flipped = middle_flipped;
        pos
    }

    /// Whether `/` can be applied: no corner straddles slots 11|0, 5|6,
    /// 23|12 or 17|18.
    pub fn can_slash(&self) -> bool {
        let s = &self.slots;
        s[11] != s[0] && s[5] != s[6] && s[23] != s[12] && s[17] != s[18]
    }

    /// Applies one move; a `/` that would cut a corner is refused and
    /// leaves the position unchanged.
    pub fn apply_move(&mut self, mv: Square1Move) -> Result<(), Square1Error> {
        match mv {
            Square1Move::Turn { top, bottom } => {
                self.turn_top(i64::from(top).rem_euclid(12) as usize);
                self.turn_bottom(i64::from(bottom).rem_euclid(12) as usize);
                Ok(())
            }
            Square1Move::Slash => {
                if self.can_slash() {
                    self.slash();
                    Ok(())
                } else {
                    Err(Square1Error::IllegalSlash { index: 0 })
                }
            }
        }
    }

    /// Applies moves in order. On an illegal `/` the error gives its index
    /// and the position is left as it was before the call.
    pub fn apply_moves(&mut self, moves: &[Square1Move]) -> Result<(), Square1Error> {
        let mut copy = *self;
        for (index, &mv) in moves.iter().enumerate() {
            copy.apply_move(mv)
                .map_err(|_| Square1Error::IllegalSlash { index })?;
        }
        *self = copy;
        Ok(())
    }

    /// Parses WCA notation and applies it (see [`crate::parse_moves`]).
    pub fn apply_notation(&mut self, text: &str) -> Result<(), Square1Error> {
        let moves = crate::notation::parse_moves(text)?;
        self.apply_moves(&moves)
    }

    /// Turns the top layer `m` slots (piece in slot `i` to `i + m`).
    pub(crate) fn turn_top(&mut self, m: usize) {
        if m % 12 != 0 {
            self.slots[..12].rotate_right(m % 12);
        }
    }

    /// Turns the bottom layer `m` slots (slot `12 + i` to `12 + i + m`).
    pub(crate) fn turn_bottom(&mut self, m: usize) {
        if m % 12 != 0 {
            self.slots[12..].rotate_right(m % 12);
        }
    }

    /// `/` without the legality check.
    pub(crate) fn slash(&mut self) {
        for k in 0..6 {
            self.slots.swap(6 + k, 12 + k);
        }
        self.middle_flipped = !self.middle_flipped;
    }

    /// Which slots hold corners: top slots in bits 12..24 (slot `i` at bit
    /// `12 + i`), bottom slot `12 + i` at bit `i`.
    pub(crate) fn layout_key(&self) -> u32 {
        let mut top = 0u32;
        let mut bottom = 0u32;
        for i in 0..12 {
            if is_corner(self.slots[i]) {
                top |= 1 << i;
            }
            if is_corner(self.slots[12 + i]) {
                bottom |= 1 << i;
            }
        }
        top << 12 | bottom
    }

    /// The 16 pieces read from slot 0 to slot 23, each once (at its first
    /// slot). Only meaningful when slots 0 and 12 begin pieces.
    pub(crate) fn reading(&self) -> [u8; 16] {
        let mut out = [0u8; 16];
        let mut n = 0;
        for base in [0, 12] {
            let mut i = 0;
            while i < 12 {
                let p = self.slots[base + i];
                if n < 16 {
                    out[n] = p;
                }
                n += 1;
                i += if is_corner(p) { 2 } else { 1 };
            }
        }
        out
    }

    /// The permutation parity of [`Self::reading`] against the solved
    /// reading order (only meaningful when slots 0 and 12 begin pieces).
    pub(crate) fn reading_parity(&self) -> u8 {
        let rank = reading_ranks();
        let seq = self.reading();
        let mut inversions = 0u32;
        for i in 0..16 {
            for j in i + 1..16 {
                if rank[usize::from(seq[i])] > rank[usize::from(seq[j])] {
                    inversions += 1;
                }
            }
        }
        (inversions & 1) as u8
    }

    /// The smallest top and bottom turns after which `/` is possible, or
    /// `None` if some layer has no such rotation.
    pub(crate) fn twistable_rotations(&self) -> Option<(usize, usize)> {
        let mut found = [None, None];
        for (layer, f) in found.iter_mut().enumerate() {
            for m in 0..12 {
                let mut p = *self;
                if layer == 0 {
                    p.turn_top(m);
                } else {
                    p.turn_bottom(m);
                }
                let s = &p.slots;
                let ok = if layer == 0 {
                    s[11] != s[0] && s[5] != s[6]
                } else {
                    s[23] != s[12] && s[17] != s[18]
                };
                if ok {
                    *f = Some(m);
                    break;
                }
            }
        }
        Some((found[0]?, found[1]?))
    }
}

impl fmt::Display for Square1Position {
    /// The 24 slots' piece ids in hexadecimal, top `|` bottom, then the
    /// middle layer (`middle solved` or `middle turned`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.slots.iter().enumerate() {
            if i == 12 {
                f.write_str("|")?;
            }
            write!(f, "{p:x}")?;
        }
        f.write_str(if self.middle_flipped {
            " middle turned"
        } else {
            " middle solved"
        })
    }
}

/// Fisher–Yates with the seeded generator.
fn shuffle(items: &mut [u8], rng: &mut SeededRng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// The position with layout `key` (as [`Square1Position::layout_key`])
/// whose corner places hold `corners` and edge places `edges`, each in slot
/// order, middle layer solved.
pub(crate) fn fill_layout(key: u32, corners: &[u8; 8], edges: &[u8; 8]) -> Square1Position {
    let mut slots = [0u8; 24];
    let (mut c, mut e) = (0, 0);
    for (base, mask) in [(0usize, key >> 12), (12, key & 0xfff)] {
        let mut i = 0;
        while i < 12 {
            if mask >> i & 1 == 1 {
                let piece = corners[c % 8];
                c += 1;
                slots[base + i] = piece;
                slots[base + (i + 1) % 12] = piece;
                i += 2;
            } else {
                slots[base + i] = edges[e % 8];
                e += 1;
                i += 1;
            }
        }
    }
    Square1Position {
        slots,
        middle_flipped: false,
    }
}

/// The position of each piece in the solved puzzle's reading order.
fn reading_ranks() -> [u8; 16] {
    let mut rank = [0u8; 16];
    for (i, &p) in Square1Position::solved().reading().iter().enumerate() {
        rank[usize::from(p)] = i as u8;
    }
    rank
}

/// The 13 ways to fill six slots with whole pieces, as corner masks (bit
/// `j` set = slot `j` of the half holds a corner).
fn half_layers() -> Vec<u32> {
    fn extend(slot: u32, mask: u32, out: &mut Vec<u32>) {
        if slot == 6 {
            out.push(mask);
            return;
        }
        extend(slot + 1, mask, out);
        if slot + 2 <= 6 {
            extend(slot + 2, mask | 3 << slot, out);
        }
    }
    let mut out = Vec::new();
    extend(0, 0, &mut out);
    out
}

/// The twistable layouts' keys, sorted: four half-layers of whole pieces
/// holding eight corners in all.
pub(crate) fn layouts() -> &'static [u32] {
    static LAYOUTS: OnceLock<Vec<u32>> = OnceLock::new();
    LAYOUTS.get_or_init(|| {
        let halves = half_layers();
        let mut out = Vec::with_capacity(LAYOUT_COUNT);
        for &a in &halves {
            for &b in &halves {
                for &c in &halves {
                    for &d in &halves {
                        let key = (a | b << 6) << 12 | (c | d << 6);
                        if key.count_ones() == 16 {
                            out.push(key);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(half_layers().len(), 13);
        assert_eq!(layouts().len(), LAYOUT_COUNT);
        assert!(Square1Position::solved().layout_index().is_some());
        assert_eq!(Square1Position::solved().reading_parity(), 0);
    }

    #[test]
    fn from_slots_checks() {
        let s = Square1Position::solved();
        assert_eq!(Square1Position::from_slots(*s.slots(), false), Ok(s));
        let mut bad = *s.slots();
        bad.swap(1, 2);
        assert!(Square1Position::from_slots(bad, false).is_err());
        let mut bad = *s.slots();
        bad[0] = 16;
        assert!(Square1Position::from_slots(bad, false).is_err());
    }
}
