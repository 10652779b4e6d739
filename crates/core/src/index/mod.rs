//! Perfect indexing of positions: a bijection between the positions a set of
//! moves can reach (or a small superset of them) and the integers
//! `0..size`, so an exhaustive enumeration can keep two bits a position.
//!
//! The index is a mixed-radix number whose digits are *components*. The
//! generators split every orbit into *blocks*: sets of slots that the moves
//! only ever permute among themselves (a slot no move touches is a block of
//! its own). Each block contributes
//!
//! * a **permutation** component: the arrangement of its pieces, ranked as a
//!   permutation (`k!` values, or `k!/2` when every move permutes the block
//!   evenly) or, when the start pattern has identical pieces there, as a
//!   multiset permutation (`k! / (c1! c2! ...)` values); a block whose
//!   arrangement always follows another block's (the moves permute both
//!   alike, as the pyraminx's two corner orbits) contributes nothing and is
//!   filled in from that block;
//! * an **orientation** component: the orientations of its pieces in the
//!   modulus the start pattern gives them (an orbit of wildcards contributes
//!   nothing), restricted to the values the moves can reach (moves that only
//!   ever add multiples of `g` reach a `1/g` share), with the last digit
//!   left out when every move preserves the orientation sum of the block.
//!
//! Every component changes under a move independently of the others (an
//! orientation in state representation does not depend on the permutation,
//! see [`Layout`]), which is what lets an enumeration use one small move
//! table per component instead of whole positions.
//!
//! That independence also finds invariants no single block shows: the
//! moves act on a pair of components by themselves, so the pairs they can
//! reach from the start are a closure over at most `r1·r2` values. Where
//! that closure is smaller than `r1·r2`, the two components become one
//! *joint* component numbering the reachable pairs. On the skewb, each
//! corner orbit's twist sum is tied to the other orbit's arrangement (the
//! even permutations of four map onto the cyclic group of order 3), and
//! two joint components make its index exact: 37,791,360 instead of nine
//! times that.
//!
//! Components are ordered by increasing radix: component 0 is the least
//! significant digit.
//!
//! The module is split in three: this file holds the index and how its
//! components rank and unrank; `build` analyses the moves into blocks,
//! followers and joint components; `ranking` ranks permutations,
//! arrangements, multisets and combinations, for the index and for the rest of the
//! workspace (re-exported here: [`rank_permutation`], [`LehmerRank`], ...).

mod build;
mod ranking;
#[cfg(test)]
mod tests;

pub use ranking::{
    binomial, binomial_table, multinomial, permutation_parity, rank_arrangement, rank_combination,
    rank_multiset, rank_permutation, unrank_arrangement, unrank_combination, unrank_multiset,
    unrank_permutation, unrank_permutation_with_parity, LehmerRank,
};

use build::{blocks, join_components, orientation_part, part_radix, permutation_part};
use ranking::{rank_multiset_with, unrank_multiset_with};

use crate::{Layout, Pattern, Transformation};

/// Most distinguishable pieces a block may have: `20!` still fits 64 bits.
pub const MAX_BLOCK_PIECES: usize = 20;

/// Why a puzzle cannot be indexed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndexError {
    /// Pieces that move among the same slots carry different orientation moduli.
    #[error(
        "orbit {orbit}: pieces that move among the same slots have different orientation moduli"
    )]
    MixedOrientationModuli {
        /// Orbit name.
        orbit: String,
    },
    /// A block with too many distinguishable pieces to rank in 64 bits.
    #[error("orbit {orbit}: {pieces} distinguishable pieces move among the same slots; at most {MAX_BLOCK_PIECES} can be indexed")]
    BlockTooLarge {
        /// Orbit name.
        orbit: String,
        /// Pieces in the block.
        pieces: usize,
    },
    /// More positions than a 64-bit index can count.
    #[error("the positions cannot be counted in 64 bits")]
    TooManyPositions,
    /// A generator or start pattern not of the layout.
    #[error("a generator or the start pattern has {found} bytes; the layout has {expected}")]
    WrongLength {
        /// Bytes the layout's states have.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
}

/// What a component of an index ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComponentKind {
    /// The arrangement of a block's pieces.
    Permutation,
    /// The orientations of a block's pieces.
    Orientation,
    /// The reachable pairs of values of two other components.
    Joint,
}

/// A block whose arrangement follows a master block's: slot `slots[j]` holds
/// `map[p]` when the master's `j`-th slot holds piece `p`.
#[derive(Clone, Debug)]
struct FollowerBlock {
    offset: usize,
    slots: Vec<usize>,
    map: Box<[u8; 256]>,
}

#[derive(Clone, Debug)]
struct PermutationPart {
    /// Byte offset of the orbit's permutation bytes.
    offset: usize,
    slots: Vec<usize>,
    /// Piece id → label: 0..k for distinct pieces, the type for a multiset.
    label: Box<[u8; 256]>,
    /// Label → piece id.
    piece: Vec<u8>,
    /// Pieces of each type, for a multiset; `None` for distinct pieces.
    counts: Option<Vec<u8>>,
    /// Arrangements of the multiset (for its ranking).
    arrangements: u64,
    /// The parity every reachable arrangement has, when the moves fix it.
    parity: Option<u8>,
    followers: Vec<FollowerBlock>,
}

#[derive(Clone, Debug)]
struct OrientationPart {
    /// Byte offset of the orbit's orientation bytes.
    offset: usize,
    slots: Vec<usize>,
    base: u8,
    /// Whether the digit sum is fixed (the last digit is implied).
    constrained: bool,
    /// The digit sum modulo `base` when constrained.
    target: u8,
    /// Orientation code → digit.
    digit: Box<[u8; 256]>,
    /// Digit → orientation code.
    code: Vec<u8>,
}

/// Two components whose reachable value pairs are numbered.
#[derive(Clone, Debug)]
struct JointPart {
    first: Box<IndexComponent>,
    second: Box<IndexComponent>,
    /// The reachable pairs, in the order they are numbered.
    pairs: Vec<(u32, u32)>,
    /// `first · second.radix + second` → the pair's number (`u32::MAX` if
    /// unreachable).
    number: Vec<u32>,
}

#[derive(Clone, Debug)]
enum Part {
    Permutation(PermutationPart),
    Orientation(OrientationPart),
    Joint(JointPart),
}

/// One digit of a [`PositionIndexer`]'s mixed-radix index.
#[derive(Clone, Debug)]
pub struct IndexComponent {
    part: Part,
    orbit: usize,
    radix: u64,
}

impl IndexComponent {
    /// How many values the component takes.
    pub fn radix(&self) -> u64 {
        self.radix
    }

    /// What it ranks.
    pub fn kind(&self) -> ComponentKind {
        match self.part {
            Part::Permutation(_) => ComponentKind::Permutation,
            Part::Orientation(_) => ComponentKind::Orientation,
            Part::Joint(_) => ComponentKind::Joint,
        }
    }

    /// The orbit it belongs to (index into [`Layout::orbits`]); for a joint
    /// component, its first part's.
    pub fn orbit(&self) -> usize {
        self.orbit
    }

    /// The slots of its block, ascending; for a joint component, its first
    /// part's.
    pub fn slots(&self) -> &[usize] {
        match &self.part {
            Part::Permutation(p) => &p.slots,
            Part::Orientation(o) => &o.slots,
            Part::Joint(j) => j.first.slots(),
        }
    }

    /// The two components a joint component pairs.
    pub fn parts(&self) -> Option<(&IndexComponent, &IndexComponent)> {
        match &self.part {
            Part::Joint(j) => Some((&j.first, &j.second)),
            _ => None,
        }
    }

    /// How many other blocks' arrangements this component determines.
    pub fn followers(&self) -> usize {
        match &self.part {
            Part::Permutation(p) => p.followers.len(),
            Part::Orientation(_) => 0,
            Part::Joint(j) => j.first.followers() + j.second.followers(),
        }
    }

    /// The component's value in a packed state (a pattern's bytes).
    #[inline]
    pub fn rank(&self, state: &[u8]) -> u64 {
        match &self.part {
            Part::Permutation(p) => p.rank(state),
            Part::Orientation(o) => o.rank(state),
            Part::Joint(j) => {
                let pair = j.first.rank(state) * j.second.radix + j.second.rank(state);
                // Only reachable states are ranked; anything else reads as
                // the start's pair rather than out of range.
                match j.number[pair as usize] {
                    u32::MAX => 0,
                    n => n as u64,
                }
            }
        }
    }

    /// Writes the bytes the component determines for `value` into `state`,
    /// leaving every other byte alone.
    #[inline]
    pub fn unrank(&self, value: u64, state: &mut [u8]) {
        match &self.part {
            Part::Permutation(p) => p.unrank(value, state),
            Part::Orientation(o) => o.unrank(value, state),
            Part::Joint(j) => {
                let (a, b) = j.pairs[value as usize];
                j.first.unrank(a as u64, state);
                j.second.unrank(b as u64, state);
            }
        }
    }
}

impl PermutationPart {
    #[inline]
    fn rank(&self, state: &[u8]) -> u64 {
        let k = self.slots.len();
        match &self.counts {
            Some(counts) => {
                let mut labels = [0u8; 256];
                for (i, &s) in self.slots.iter().enumerate() {
                    labels[i] = self.label[state[self.offset + s] as usize];
                }
                rank_multiset_with(&labels[..k], counts, self.arrangements)
            }
            None => {
                // Distinct pieces: at most MAX_BLOCK_PIECES of them.
                let mut labels = [0u8; MAX_BLOCK_PIECES];
                for (i, &s) in self.slots.iter().enumerate() {
                    labels[i] = self.label[state[self.offset + s] as usize];
                }
                let r = rank_permutation(&labels[..k]);
                if self.parity.is_some() {
                    r >> 1
                } else {
                    r
                }
            }
        }
    }

    #[inline]
    fn unrank(&self, value: u64, state: &mut [u8]) {
        let k = self.slots.len();
        let mut labels = [0u8; 256];
        match &self.counts {
            Some(counts) => {
                unrank_multiset_with(value, counts, self.arrangements, &mut labels[..k])
            }
            None => match self.parity {
                Some(p) => unrank_permutation_with_parity(value, p, &mut labels[..k]),
                None => unrank_permutation(value, &mut labels[..k]),
            },
        }
        for (i, &s) in self.slots.iter().enumerate() {
            state[self.offset + s] = self.piece[labels[i] as usize];
        }
        for f in &self.followers {
            for (j, &s) in f.slots.iter().enumerate() {
                state[f.offset + s] = f.map[state[self.offset + self.slots[j]] as usize];
            }
        }
    }
}

impl OrientationPart {
    #[inline]
    fn digits(&self) -> usize {
        self.slots.len() - self.constrained as usize
    }

    #[inline]
    fn rank(&self, state: &[u8]) -> u64 {
        let base = self.base as u64;
        let mut r = 0u64;
        for &s in self.slots[..self.digits()].iter().rev() {
            r = r * base + self.digit[state[self.offset + s] as usize] as u64;
        }
        r
    }

    #[inline]
    fn unrank(&self, mut value: u64, state: &mut [u8]) {
        let base = self.base as u64;
        let mut sum = 0u64;
        for &s in &self.slots[..self.digits()] {
            let d = value % base;
            value /= base;
            sum += d;
            state[self.offset + s] = self.code[d as usize];
        }
        if self.constrained {
            let last = (self.target as u64 + base - sum % base) % base;
            let s = self.slots[self.slots.len() - 1];
            state[self.offset + s] = self.code[last as usize];
        }
    }
}

/// A perfect index of the positions reachable from a start pattern.
///
/// Every reachable position has exactly one index below [`size`]; some
/// indices may stand for positions the moves cannot reach (the index only
/// knows per-block invariants: parity, orientation sums, fixed pieces), so
/// `size` is an upper bound on the reachable positions, exact for most
/// puzzles.
///
/// [`size`]: PositionIndexer::size
///
/// ```
/// use twistor_core::{index::PositionIndexer, Layout, Orbit, Transformation};
///
/// // Four corners with three orientations; one move cycles three of them
/// // and twists one, the other cycles the other three.
/// let layout = Layout::new(vec![Orbit::new("C", 4, 3)?])?;
/// let a = Transformation::from_bytes(&layout, vec![1, 2, 0, 3, 1, 0, 0, 0])?;
/// let b = Transformation::from_bytes(&layout, vec![0, 2, 3, 1, 0, 0, 0, 0])?;
/// let start = layout.pattern_of(&layout.identity());
/// let ix = PositionIndexer::new(&layout, &start, &[&a, &b])?;
/// // Even permutations of 4 (12) times orientations with a free sum (81).
/// assert_eq!(ix.size(), 12 * 81);
/// let mut state = vec![0; layout.state_len()];
/// ix.unrank(700, &mut state);
/// assert_eq!(ix.rank(&state), 700);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct PositionIndexer {
    layout: Layout,
    template: Vec<u8>,
    components: Vec<IndexComponent>,
    strides: Vec<u64>,
    size: u64,
}

impl PositionIndexer {
    /// Analyses the moves (`generators`) and the start pattern and builds
    /// the index. Fails if some block cannot be indexed (mixed orientation
    /// moduli, too many distinguishable pieces) or the count overflows.
    pub fn new(
        layout: &Layout,
        start: &Pattern,
        generators: &[&Transformation],
    ) -> Result<PositionIndexer, IndexError> {
        let len = layout.state_len();
        for bytes in generators
            .iter()
            .map(|g| g.as_bytes())
            .chain([start.as_bytes()])
        {
            if bytes.len() != len {
                return Err(IndexError::WrongLength {
                    expected: len,
                    found: bytes.len(),
                });
            }
        }
        let start = start.as_bytes();
        let mut components: Vec<IndexComponent> = Vec::new();
        for k in 0..layout.orbits().len() {
            for block in blocks(layout, k, generators) {
                if let Some(part) =
                    permutation_part(layout, k, &block, start, generators, &mut components)?
                {
                    let radix = part_radix(&part);
                    components.push(IndexComponent {
                        part: Part::Permutation(part),
                        orbit: k,
                        radix,
                    });
                }
                if let Some(part) = orientation_part(layout, k, &block, start, generators)? {
                    let radix = (part.base as u64)
                        .checked_pow(part.digits() as u32)
                        .ok_or(IndexError::TooManyPositions)?;
                    components.push(IndexComponent {
                        part: Part::Orientation(part),
                        orbit: k,
                        radix,
                    });
                }
            }
        }
        components.retain(|c| c.radix > 1);
        join_components(layout, start, generators, &mut components);
        components.sort_by_key(|c| c.radix);
        let mut strides = Vec::with_capacity(components.len());
        let mut size = 1u64;
        for c in &components {
            strides.push(size);
            size = size
                .checked_mul(c.radix)
                .ok_or(IndexError::TooManyPositions)?;
        }
        Ok(PositionIndexer {
            layout: layout.clone(),
            template: start.to_vec(),
            components,
            strides,
            size,
        })
    }

    /// How many indices there are (an upper bound on the reachable positions).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The layout of the states it indexes.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The components, least significant first.
    pub fn components(&self) -> &[IndexComponent] {
        &self.components
    }

    /// The place value of component `i`.
    pub fn stride(&self, i: usize) -> u64 {
        self.strides[i]
    }

    /// The index of a packed state (pattern bytes) reachable from the start.
    #[inline]
    pub fn rank(&self, state: &[u8]) -> u64 {
        self.components
            .iter()
            .zip(&self.strides)
            .map(|(c, &s)| c.rank(state) * s)
            .sum()
    }

    /// The index of any packed state of the layout's length, or `None` if
    /// the index cannot stand for it (pieces or orientations it cannot
    /// place, a parity or twist the moves never make). Unlike
    /// [`rank`](Self::rank), safe on states from anywhere.
    pub fn checked_rank(&self, state: &[u8]) -> Option<u64> {
        if state.len() != self.template.len() {
            return None;
        }
        // Each block must hold the pieces the start has there, so that
        // ranking sees a permutation of its labels.
        let mut blocks: Vec<&IndexComponent> = Vec::new();
        for c in &self.components {
            match c.parts() {
                Some((a, b)) => blocks.extend([a, b]),
                None => blocks.push(c),
            }
        }
        for c in blocks {
            if let Part::Permutation(p) = &c.part {
                let mut have: Vec<u8> = p.slots.iter().map(|&s| state[p.offset + s]).collect();
                let mut want: Vec<u8> = p
                    .slots
                    .iter()
                    .map(|&s| self.template[p.offset + s])
                    .collect();
                have.sort_unstable();
                want.sort_unstable();
                if have != want {
                    return None;
                }
            }
        }
        let r = self.rank(state);
        let mut back = vec![0u8; state.len()];
        self.unrank(r, &mut back);
        (r < self.size && back == state).then_some(r)
    }

    /// Writes the position of index `index` (below [`size`](Self::size))
    /// into `state` ([`Layout::state_len`] bytes).
    #[inline]
    pub fn unrank(&self, mut index: u64, state: &mut [u8]) {
        state.copy_from_slice(&self.template);
        for c in &self.components {
            c.unrank(index % c.radix, state);
            index /= c.radix;
        }
    }
}
