//! The coordinates of a projection: how each kind reads its orbit of a
//! position, ranks it and decodes a value back (for building move tables).
//!
//! Permutations of distinct pieces and arrangements of a few tracked
//! pieces are ranked by core's [`twistor_core::index`] functions. An
//! arrangement of identical pieces is ranked here, in the combinatorial
//! number system (binomial lookups from a table the coordinate keeps),
//! which core's lexicographic multiset rank does not replace: it is a
//! different numbering, and the numbering is what cached tables are
//! indexed by.

use twistor_core::index::{self, rank_arrangement, unrank_arrangement, LehmerRank};
use twistor_core::Layout;

use super::tables::PiecesTables;

/// Class label of untracked pieces.
pub(super) const REST: u8 = u8::MAX;

/// How a coordinate reads a position.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    /// Which class stands in each slot (multiset rank; Lehmer code when all
    /// classes are single pieces).
    Arrangement,
    /// Orientation of every slot, all of one radix (last digit implied when
    /// the moves keep the orbit's total twist).
    Twist {
        radix: u8,
        drop_last: bool,
        twist_total: u8,
    },
    /// Slot and orientation of each tracked piece, pieces in class order.
    Pieces,
    /// Classes per slot and orientations of the tracked slots, for
    /// identical tracked pieces with orientation.
    LabeledTwist,
    /// Component `i` of the projection's [`PositionIndexer`].
    Component(usize),
}

/// One coordinate of a projection.
#[derive(Clone, Debug)]
pub(super) struct Coord {
    pub(super) kind: Kind,
    pub(super) orbit: usize,
    pub(super) n: usize,
    /// Goal piece id → class, or REST.
    pub(super) class_of_id: [u8; 256],
    /// Pieces per tracked class.
    pub(super) counts: Vec<u8>,
    /// Orientation radix per tracked class (1 = not tracked).
    pub(super) radix: Vec<u8>,
    /// Orientation code → value.
    pub(super) value_of_code: [u8; 256],
    pub(super) size: u64,
    /// Size of the orientation part of [`Kind::Pieces`] and [`Kind::LabeledTwist`].
    pub(super) ori_size: u64,
    /// `C(a, b)` for `a <= n`, `b <= max_count`, row by row.
    pub(super) binomials: Vec<u64>,
    pub(super) max_count: usize,
    /// `table[v * moves + m]`: the value after move `m`, value by value
    /// (all moves of a value in one cache line, as a fill or a search
    /// reads them).
    pub(super) table: Option<Vec<u32>>,
    /// The number of moves the tables have.
    pub(super) num_moves: usize,
    /// For [`Kind::Pieces`] too large for `table`: tables over its slots
    /// part and its orientation part.
    pub(super) pieces: Option<PiecesTables>,
}

/// `n! / (prod counts! * rest!)`, the untracked pieces being the rest, or
/// `None` beyond `u64` (core's multinomial with the rest as one more class).
pub(super) fn multinomial(n: usize, counts: &[u8]) -> Option<u64> {
    let mut all = counts.to_vec();
    all.push((n - counts.iter().map(|&c| c as usize).sum::<usize>()) as u8);
    index::multinomial(&all)
}

/// `C(a, b)` for `a <= n`, `b <= k`, saturating (values that large are never
/// used: every rank fits the coordinate's size).
pub(super) fn binomials(n: usize, k: usize) -> Vec<u64> {
    let mut t = vec![0u64; (n + 1) * (k + 1)];
    for a in 0..=n {
        t[a * (k + 1)] = 1;
        for b in 1..=k.min(a) {
            let left = t[(a - 1) * (k + 1) + b - 1];
            let right = if b < a { t[(a - 1) * (k + 1) + b] } else { 0 };
            t[a * (k + 1) + b] = left.saturating_add(right);
        }
    }
    t
}

/// Digit-wise sum of two orientation values (mixed radix, last digit least
/// significant).
pub(super) fn add_digits(radix: &[u8], mut a: u64, mut b: u64) -> u64 {
    let mut out = 0u64;
    let mut scale = 1u64;
    for &r in radix.iter().rev() {
        let r = r as u64;
        out += ((a % r + b % r) % r) * scale;
        a /= r;
        b /= r;
        scale *= r;
    }
    out
}

/// Orientation index space of the tracked pieces.
pub(super) fn ori_space(counts: &[u8], radix: &[u8]) -> Option<u64> {
    let mut s: u64 = 1;
    for (c, &cnt) in counts.iter().enumerate() {
        for _ in 0..cnt {
            s = s.checked_mul(radix[c] as u64)?;
        }
    }
    Some(s)
}

impl Coord {
    /// The value of this coordinate for a position.
    #[inline]
    pub(super) fn read(&self, layout: &Layout, state: &[u8]) -> u64 {
        let perm = layout.perm(state, self.orbit);
        let ori = layout.ori(state, self.orbit);
        let n = self.n;
        match self.kind {
            Kind::Arrangement => {
                if self.counts.len() == n && n <= 64 {
                    rank_arrangement(n, perm[..n].iter().map(|&p| self.class_of_id[p as usize]))
                } else {
                    self.multiset_rank(|s| self.class_of_id[perm[s] as usize])
                }
            }
            Kind::Twist {
                radix, drop_last, ..
            } => {
                let digits = if drop_last { n - 1 } else { n };
                let mut v = 0u64;
                for &o in ori.iter().take(digits) {
                    v = v * radix as u64 + (self.value_of_code[o as usize] % radix) as u64;
                }
                v
            }
            Kind::Pieces => {
                let k = self.counts.len();
                let mut slot_of = [0u8; 64];
                let mut val_of = [0u8; 64];
                for s in 0..n {
                    let c = self.class_of_id[perm[s] as usize];
                    if c != REST {
                        slot_of[c as usize] = s as u8;
                        val_of[c as usize] =
                            self.value_of_code[ori[s] as usize] % self.radix[c as usize];
                    }
                }
                self.pieces_rank(
                    slot_of[..k]
                        .iter()
                        .copied()
                        .zip(val_of[..k].iter().copied()),
                )
            }
            Kind::LabeledTwist => {
                let mut labels = [REST; 256];
                let mut vals = [0u8; 256];
                for s in 0..n {
                    let c = self.class_of_id[perm[s] as usize];
                    labels[s] = c;
                    if c != REST {
                        vals[s] = self.value_of_code[ori[s] as usize] % self.radix[c as usize];
                    }
                }
                self.labeled_rank(&labels[..n], &vals[..n])
            }
            // Read through the index (see `Projection::index`).
            Kind::Component(_) => 0,
        }
    }

    fn pieces_rank(&self, pieces: impl Iterator<Item = (u8, u8)>) -> u64 {
        // Slots and orientations ranked in one pass.
        let mut perm_rank = LehmerRank::new(self.n);
        let mut ori_rank = 0u64;
        for (c, (s, v)) in pieces.enumerate() {
            perm_rank.push(s);
            ori_rank = ori_rank * self.radix[c] as u64 + v as u64;
        }
        perm_rank.rank() * self.ori_size + ori_rank
    }

    fn labeled_rank(&self, labels: &[u8], vals: &[u8]) -> u64 {
        let perm_rank = self.multiset_rank(|s| labels[s]);
        let mut ori_rank = 0u64;
        for s in 0..self.n {
            if labels[s] != REST {
                ori_rank = ori_rank * self.radix[labels[s] as usize] as u64 + vals[s] as u64;
            }
        }
        perm_rank * self.ori_size + ori_rank
    }

    /// Multiset rank of the classes per slot: class by class, the rank of
    /// the slots it holds among those earlier classes left free, in the
    /// combinatorial number system (binomial lookups, no divisions).
    fn multiset_rank(&self, class: impl Fn(usize) -> u8) -> u64 {
        const FEW: usize = 8;
        let k = self.counts.len();
        if (1..=FEW).contains(&k) && self.n <= 64 {
            // One pass over the slots makes a mask of each class's slots;
            // then a slot's index among those the earlier classes left
            // free is a population count.
            // (Slots of later classes and REST go to a spare mask, without
            // a branch the data would mispredict.)
            let mut mask = [0u64; FEW + 1];
            match k {
                1 => mask[..1].copy_from_slice(&self.class_masks::<1>(&class)),
                2 => mask[..2].copy_from_slice(&self.class_masks::<2>(&class)),
                3 => mask[..3].copy_from_slice(&self.class_masks::<3>(&class)),
                4 => mask[..4].copy_from_slice(&self.class_masks::<4>(&class)),
                _ => {
                    for s in 0..self.n {
                        mask[(class(s) as usize).min(FEW)] |= 1 << s;
                    }
                }
            }
            let mut free_mask = u64::MAX;
            let mut free = self.n;
            let mut rank = 0u64;
            for (ci, &count) in self.counts.iter().enumerate() {
                let mut r = 0u64;
                let mut slots = mask[ci];
                let mut found = 0;
                while slots != 0 {
                    let s = slots.trailing_zeros();
                    slots &= slots - 1;
                    found += 1;
                    let idx = (free_mask & ((1u64 << s) - 1)).count_ones() as usize;
                    r += self.binomial(idx, found);
                }
                rank = rank * self.binomial(free, count as usize) + r;
                free -= count as usize;
                free_mask &= !mask[ci];
            }
            return rank;
        }
        let n = self.n;
        let mut taken = [false; 256];
        let mut free = n;
        let mut rank = 0u64;
        for (ci, &count) in self.counts.iter().enumerate() {
            let mut r = 0u64;
            let mut found = 0usize;
            let mut idx = 0usize;
            for (s, t) in taken.iter_mut().enumerate().take(n) {
                if *t {
                    continue;
                }
                if class(s) as usize == ci {
                    found += 1;
                    r += self.binomial(idx, found);
                    *t = true;
                }
                idx += 1;
            }
            rank = rank * self.binomial(free, count as usize) + r;
            free -= count as usize;
        }
        rank
    }

    /// Each of the first `K` classes' slots as a mask (`n <= 64`), kept in
    /// registers: a mask in memory would make every slot wait for the
    /// last slot's store.
    #[inline]
    fn class_masks<const K: usize>(&self, class: &impl Fn(usize) -> u8) -> [u64; K] {
        let mut mask = [0u64; K];
        for s in 0..self.n {
            let c = class(s) as usize;
            for (ci, m) in mask.iter_mut().enumerate() {
                *m |= ((c == ci) as u64) << s;
            }
        }
        mask
    }

    /// `C(n, k)` from the coordinate's table (zero when `k > n`).
    #[inline]
    fn binomial(&self, n: usize, k: usize) -> u64 {
        self.binomials[n * (self.max_count + 1) + k]
    }

    /// The decoded form of value `v`: Arrangement → class per slot; Twist →
    /// value per slot; Pieces → (slot, value) per piece; LabeledTwist →
    /// classes per slot then values per slot.
    pub(super) fn decode(&self, v: u64, out: &mut Vec<u8>) {
        let n = self.n;
        out.clear();
        match self.kind {
            Kind::Arrangement => {
                out.resize(n, REST);
                self.multiset_unrank(v, out);
            }
            Kind::Twist {
                radix,
                drop_last,
                twist_total,
            } => {
                out.resize(n, 0);
                let digits = if drop_last { n - 1 } else { n };
                let mut x = v;
                let mut sum = 0u64;
                for s in (0..digits).rev() {
                    out[s] = (x % radix as u64) as u8;
                    x /= radix as u64;
                    sum += out[s] as u64;
                }
                if drop_last {
                    out[n - 1] = ((twist_total as u64 + radix as u64 - sum % radix as u64)
                        % radix as u64) as u8;
                }
            }
            Kind::Pieces => {
                let k = self.counts.len();
                out.resize(2 * k, 0);
                let ospace = self.ori_size;
                let mut ori_rank = v % ospace;
                for c in (0..k).rev() {
                    let r = self.radix[c] as u64;
                    out[2 * c + 1] = (ori_rank % r) as u8;
                    ori_rank /= r;
                }
                let mut slots = [0u8; 64];
                unrank_arrangement(n, v / ospace, &mut slots[..k]);
                for c in 0..k {
                    out[2 * c] = slots[c];
                }
            }
            Kind::LabeledTwist => {
                out.resize(2 * n, 0);
                let ospace = self.ori_size;
                let perm_rank = v / ospace;
                let mut ori_rank = v % ospace;
                let (labels, vals) = out.split_at_mut(n);
                labels.fill(REST);
                self.multiset_unrank(perm_rank, labels);
                for s in (0..n).rev() {
                    if labels[s] != REST {
                        let r = self.radix[labels[s] as usize] as u64;
                        vals[s] = (ori_rank % r) as u8;
                        ori_rank /= r;
                    }
                }
            }
            Kind::Component(_) => {}
        }
    }

    /// The value of a decoded form.
    pub(super) fn encode(&self, d: &[u8]) -> u64 {
        match self.kind {
            Kind::Arrangement => {
                if self.counts.len() == self.n && self.n <= 64 {
                    rank_arrangement(self.n, d[..self.n].iter().copied())
                } else {
                    self.multiset_rank(|s| d[s])
                }
            }
            Kind::Twist {
                radix, drop_last, ..
            } => {
                let digits = if drop_last { self.n - 1 } else { self.n };
                d.iter()
                    .take(digits)
                    .fold(0u64, |acc, &x| acc * radix as u64 + x as u64)
            }
            Kind::Pieces => {
                // Pairs of (slot, value), a tracked piece a pair.
                let k = self.counts.len();
                self.pieces_rank(d[..2 * k].chunks_exact(2).map(|p| (p[0], p[1])))
            }
            Kind::LabeledTwist => self.labeled_rank(&d[..self.n], &d[self.n..]),
            Kind::Component(_) => 0,
        }
    }

    fn multiset_unrank(&self, v: u64, labels: &mut [u8]) {
        if self.counts.len() == self.n && self.n <= 64 {
            // Every class a single piece: a permutation, by its Lehmer code.
            unrank_arrangement(self.n, v, &mut labels[..self.n]);
            return;
        }
        let n = self.n;
        let m = self.counts.len();
        // Mixed-radix digits, one per class, the last class least significant.
        let mut digits = [0u64; 256];
        let mut frees = [0usize; 256];
        let mut free = n;
        for (f, &c) in frees.iter_mut().zip(&self.counts) {
            *f = free;
            free -= c as usize;
        }
        let mut x = v;
        for ci in (0..m).rev() {
            let base = self.binomial(frees[ci], self.counts[ci] as usize);
            digits[ci] = x % base;
            x /= base;
        }
        labels[..n].fill(REST);
        for ci in 0..m {
            // Colex unrank: the positions (among free slots) of this class.
            let mut r = digits[ci];
            let mut chosen = [0usize; 256];
            let mut top = frees[ci];
            for j in (1..=self.counts[ci] as usize).rev() {
                let mut p = j - 1;
                while p + 1 < top && self.binomial(p + 1, j) <= r {
                    p += 1;
                }
                r -= self.binomial(p, j);
                chosen[j - 1] = p;
                top = p;
            }
            let mut idx = 0usize;
            let mut k = 0usize;
            let count = self.counts[ci] as usize;
            for label in labels.iter_mut().take(n) {
                if *label != REST {
                    continue;
                }
                if k < count && chosen[k] == idx {
                    *label = ci as u8;
                    k += 1;
                }
                idx += 1;
            }
        }
    }
}
