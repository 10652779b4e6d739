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

fn part_radix(p: &PermutationPart) -> u64 {
    p.arrangements
}

/// Largest product of radices whose reachable pairs are enumerated.
const MAX_JOINT: u64 = 1 << 20;

/// Per value and generator: the component's value after the generator.
fn generator_table(
    layout: &Layout,
    c: &IndexComponent,
    start: &[u8],
    generators: &[&Transformation],
) -> Vec<u32> {
    let mut state = start.to_vec();
    let mut out = start.to_vec();
    let mut table = Vec::with_capacity(c.radix as usize * generators.len());
    for v in 0..c.radix {
        c.unrank(v, &mut state);
        for g in generators {
            layout.compose_into(&state, g.as_bytes(), &mut out);
            table.push(c.rank(&out) as u32);
        }
    }
    table
}

/// The pairs of values of two components reachable from the start's
/// pair, in the order a breadth-first closure finds them.
fn reachable_pairs(a: (&[u32], u64, u32), b: (&[u32], u64, u32), gens: usize) -> Vec<(u32, u32)> {
    let (ta, _, sa) = a;
    let (tb, rb, sb) = b;
    let mut seen = vec![false; (a.1 * rb) as usize];
    let mut pairs = vec![(sa, sb)];
    seen[(sa as u64 * rb + sb as u64) as usize] = true;
    let mut i = 0;
    while i < pairs.len() {
        let (x, y) = pairs[i];
        for g in 0..gens {
            let nx = ta[x as usize * gens + g];
            let ny = tb[y as usize * gens + g];
            let k = (nx as u64 * rb + ny as u64) as usize;
            if !seen[k] {
                seen[k] = true;
                pairs.push((nx, ny));
            }
        }
        i += 1;
    }
    pairs
}

/// Replaces pairs of components by joint components while some pair's
/// reachable values are fewer than the product of their radices, the
/// most reducing pair first.
fn join_components(
    layout: &Layout,
    start: &[u8],
    generators: &[&Transformation],
    components: &mut Vec<IndexComponent>,
) {
    let gens = generators.len();
    if gens == 0 {
        return;
    }
    // A component's table is built only if some pair it is in is small
    // enough to enumerate, and kept while the component is; so is each
    // pair's count of reachable values (`ids` name components across
    // joins).
    let mut tables: Vec<Option<Vec<u32>>> = Vec::new();
    let mut ids: Vec<usize> = (0..components.len()).collect();
    let mut next_id = components.len();
    let mut counts: std::collections::HashMap<(usize, usize), u64> =
        std::collections::HashMap::new();
    loop {
        for i in tables.len()..components.len() {
            let pairable = (0..components.len()).any(|j| {
                j != i && components[i].radix.saturating_mul(components[j].radix) <= MAX_JOINT
            });
            tables
                .push(pairable.then(|| generator_table(layout, &components[i], start, generators)));
        }
        let pair_args = |i: usize, j: usize| {
            let (ri, rj) = (components[i].radix, components[j].radix);
            let (Some(ti), Some(tj)) = (&tables[i], &tables[j]) else {
                return None;
            };
            if ri.saturating_mul(rj) > MAX_JOINT {
                return None;
            }
            let si = components[i].rank(start) as u32;
            let sj = components[j].rank(start) as u32;
            Some(((ti.as_slice(), ri, si), (tj.as_slice(), rj, sj)))
        };
        // The pair to join, the one reducing most: (first, second, factor).
        let mut best: Option<(usize, usize, f64)> = None;
        for i in 0..components.len() {
            for j in i + 1..components.len() {
                let Some((a, b)) = pair_args(i, j) else {
                    continue;
                };
                let product = a.1 * b.1;
                let reachable = *counts
                    .entry((ids[i], ids[j]))
                    .or_insert_with(|| reachable_pairs(a, b, gens).len() as u64);
                let factor = product as f64 / reachable as f64;
                if reachable < product && best.is_none_or(|(_, _, bf)| factor > bf) {
                    best = Some((i, j, factor));
                }
            }
        }
        let Some((i, j, _)) = best else {
            return;
        };
        let pairs = match pair_args(i, j) {
            Some((a, b)) => reachable_pairs(a, b, gens),
            None => return,
        };
        let second = components.remove(j);
        let first = components.remove(i);
        tables.remove(j);
        tables.remove(i);
        ids.remove(j);
        ids.remove(i);
        ids.push(next_id);
        next_id += 1;
        let mut number = vec![u32::MAX; (first.radix * second.radix) as usize];
        for (n, &(a, b)) in pairs.iter().enumerate() {
            number[(a as u64 * second.radix + b as u64) as usize] = n as u32;
        }
        components.push(IndexComponent {
            orbit: first.orbit,
            radix: pairs.len() as u64,
            part: Part::Joint(JointPart {
                first: Box::new(first),
                second: Box::new(second),
                pairs,
                number,
            }),
        });
    }
}

/// The blocks of orbit `k`: classes of slots the generators permute among
/// themselves, each ascending, ordered by their least slot.
fn blocks(layout: &Layout, k: usize, generators: &[&Transformation]) -> Vec<Vec<usize>> {
    let n = layout.orbits()[k].num_pieces();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for g in generators {
        for (i, &p) in layout.perm(g.as_bytes(), k).iter().enumerate() {
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

/// Whether generator `g` permutes `block` of orbit `k` oddly.
fn is_odd_on(layout: &Layout, k: usize, block: &[usize], g: &Transformation) -> bool {
    let p = layout.perm(g.as_bytes(), k);
    let mut seen = vec![false; p.len()];
    let mut odd = false;
    for &s in block {
        if seen[s] {
            continue;
        }
        let mut len = 0;
        let mut i = s;
        while !seen[i] {
            seen[i] = true;
            len += 1;
            i = p[i] as usize;
        }
        if len % 2 == 0 {
            odd = !odd;
        }
    }
    odd
}

fn permutation_part(
    layout: &Layout,
    k: usize,
    block: &[usize],
    start: &[u8],
    generators: &[&Transformation],
    earlier: &mut [IndexComponent],
) -> Result<Option<PermutationPart>, IndexError> {
    let kk = block.len();
    if kk == 1 {
        return Ok(None);
    }
    let offset = layout.offset(k);
    let ids: Vec<u8> = block.iter().map(|&s| start[offset + s]).collect();
    let mut types = ids.clone();
    types.sort_unstable();
    types.dedup();
    if types.len() == 1 {
        return Ok(None);
    }
    // A block that moves exactly like an earlier one with distinct pieces
    // is filled in from it.
    for c in earlier.iter_mut() {
        if let Part::Permutation(master) = &mut c.part {
            if master.counts.is_none() && master.slots.len() == kk {
                let master_orbit = c.orbit;
                if let Some(phi) =
                    follow_map(layout, master_orbit, &master.slots, k, block, generators)
                {
                    let mut map = Box::new([0u8; 256]);
                    for (j, &ms) in master.slots.iter().enumerate() {
                        map[start[master.offset + ms] as usize] = start[offset + phi[j]];
                    }
                    master.followers.push(FollowerBlock {
                        offset,
                        slots: phi,
                        map,
                    });
                    return Ok(None);
                }
            }
        }
    }
    let mut label = Box::new([0u8; 256]);
    for (t, &id) in types.iter().enumerate() {
        label[id as usize] = t as u8;
    }
    if types.len() == kk {
        if kk > MAX_BLOCK_PIECES {
            return Err(IndexError::BlockTooLarge {
                orbit: layout.orbits()[k].name().to_string(),
                pieces: kk,
            });
        }
        let even = generators.iter().all(|g| !is_odd_on(layout, k, block, g));
        let labels: Vec<u8> = ids.iter().map(|&id| label[id as usize]).collect();
        let parity = even.then(|| permutation_parity(&labels));
        let full: u64 = (1..=kk as u64).product();
        return Ok(Some(PermutationPart {
            offset,
            slots: block.to_vec(),
            label,
            piece: types,
            counts: None,
            arrangements: if even { full / 2 } else { full },
            parity,
            followers: Vec::new(),
        }));
    }
    let mut counts = vec![0u8; types.len()];
    for &id in &ids {
        counts[label[id as usize] as usize] += 1;
    }
    let arrangements = multinomial(&counts).ok_or(IndexError::TooManyPositions)?;
    Ok(Some(PermutationPart {
        offset,
        slots: block.to_vec(),
        label,
        piece: types,
        counts: Some(counts),
        arrangements,
        parity: None,
        followers: Vec::new(),
    }))
}

/// A bijection `phi` from the master block's slots (by position) to the
/// follower's slots that every generator respects:
/// `g.p[phi(i)] = phi(g.p[i])`.
fn follow_map(
    layout: &Layout,
    mk: usize,
    master: &[usize],
    fk: usize,
    follower: &[usize],
    generators: &[&Transformation],
) -> Option<Vec<usize>> {
    let n = master.len();
    let mut pos_m = vec![usize::MAX; layout.orbits()[mk].num_pieces()];
    for (j, &s) in master.iter().enumerate() {
        pos_m[s] = j;
    }
    let mut pos_f = vec![usize::MAX; layout.orbits()[fk].num_pieces()];
    for (j, &s) in follower.iter().enumerate() {
        pos_f[s] = j;
    }
    'candidate: for first in 0..n {
        let mut phi = vec![usize::MAX; n];
        let mut used = vec![false; n];
        phi[0] = first;
        used[first] = true;
        let mut stack = vec![0usize];
        while let Some(j) = stack.pop() {
            for g in generators {
                let gm = layout.perm(g.as_bytes(), mk);
                let gf = layout.perm(g.as_bytes(), fk);
                let jm = pos_m[gm[master[j]] as usize];
                let jf = pos_f[gf[follower[phi[j]]] as usize];
                if phi[jm] == usize::MAX {
                    if used[jf] {
                        continue 'candidate;
                    }
                    phi[jm] = jf;
                    used[jf] = true;
                    stack.push(jm);
                } else if phi[jm] != jf {
                    continue 'candidate;
                }
            }
        }
        if phi.iter().all(|&x| x != usize::MAX) {
            return Some(phi.into_iter().map(|j| follower[j]).collect());
        }
    }
    None
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn orientation_part(
    layout: &Layout,
    k: usize,
    block: &[usize],
    start: &[u8],
    generators: &[&Transformation],
) -> Result<Option<OrientationPart>, IndexError> {
    let orbit = &layout.orbits()[k];
    let m = orbit.num_orientations() as u8;
    if m == 1 {
        return Ok(None);
    }
    let offset = layout.offset(k) + orbit.num_pieces();
    let decoded: Vec<(u8, u8)> = block
        .iter()
        .map(|&s| {
            let (v, d) = layout.decode_orientation(k, start[offset + s]);
            (v, if d == 0 { m } else { d })
        })
        .collect();
    let d = decoded[0].1;
    if decoded.iter().any(|&(_, x)| x != d) {
        return Err(IndexError::MixedOrientationModuli {
            orbit: orbit.name().to_string(),
        });
    }
    if d == 1 {
        return Ok(None);
    }
    // The moves add multiples of `step` (mod d), and the start values all
    // lie in one class modulo `step`, so only d/step values occur.
    let mut step = d as u32;
    let c = decoded[0].0;
    for &(v, _) in &decoded {
        step = gcd(step, ((v as u32 + d as u32) - c as u32) % d as u32);
    }
    let mut constrained = true;
    for g in generators {
        let o = layout.ori(g.as_bytes(), k);
        let mut sum = 0u32;
        for &s in block {
            step = gcd(step, o[s] as u32 % d as u32);
            sum += o[s] as u32;
        }
        if sum % d as u32 != 0 {
            constrained = false;
        }
    }
    let base = (d as u32 / step) as u8;
    // A single piece whose twist is preserved has no freedom at all.
    if base == 1 || (constrained && block.len() == 1) {
        return Ok(None);
    }
    let modulus = if d == m { 0 } else { d };
    let mut digit = Box::new([0u8; 256]);
    let mut code = Vec::with_capacity(base as usize);
    for u in 0..base {
        let value = ((c as u32 + step * u as u32) % d as u32) as u8;
        let x = layout.encode_orientation(k, value, modulus).ok_or(
            IndexError::MixedOrientationModuli {
                orbit: orbit.name().to_string(),
            },
        )?;
        digit[x as usize] = u;
        code.push(x);
    }
    let target = block
        .iter()
        .map(|&s| digit[start[offset + s] as usize] as u32)
        .sum::<u32>()
        % base as u32;
    Ok(Some(OrientationPart {
        offset,
        slots: block.to_vec(),
        base,
        constrained,
        target: target as u8,
        digit,
        code,
    }))
}

/// Lexicographic (Lehmer) ranking of an arrangement of distinct values
/// from `0..n` (`n <= 64`), one value at a time: after `k` values, their
/// rank among the `n! / (n - k)!` arrangements of `k` of the `n` values
/// (after all `n`, the rank of the permutation).
///
/// The one Lehmer ranking of the workspace. It takes a value at a time so
/// that a hot loop can rank alongside other work in the same pass (search's
/// projections rank a tracked piece's slot with its orientation);
/// [`rank_arrangement`] and [`rank_permutation`] rank a whole sequence.
///
/// ```
/// use twistor_core::index::{rank_arrangement, LehmerRank};
///
/// // Two of the values 0..4: (2, 0) is the 7th (0-based 6) of 4 * 3.
/// let mut r = LehmerRank::new(4);
/// r.push(2);
/// r.push(0);
/// assert_eq!(r.rank(), 6);
/// assert_eq!(rank_arrangement(4, [2, 0]), 6);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LehmerRank {
    /// Values not yet placed (the radix of the next digit).
    left: u64,
    /// The values placed so far, as bits.
    used: u64,
    rank: u64,
}

impl LehmerRank {
    /// Ranking of arrangements of values from `0..n` (`n <= 64`).
    #[inline]
    pub fn new(n: usize) -> LehmerRank {
        LehmerRank {
            left: n as u64,
            used: 0,
            rank: 0,
        }
    }

    /// Places the next value, `x < n`, not placed before.
    #[inline]
    pub fn push(&mut self, x: u8) {
        let below = (self.used & ((1u64 << x) - 1)).count_ones() as u64;
        self.rank = self.rank * self.left + x as u64 - below;
        self.left -= 1;
        self.used |= 1u64 << x;
    }

    /// The rank of the values placed so far.
    #[inline]
    pub fn rank(&self) -> u64 {
        self.rank
    }
}

/// The lexicographic rank of `values`, distinct values from `0..n`
/// (`n <= 64`), among the `n! / (n - k)!` arrangements of `k` of them
/// ([`LehmerRank`] over the whole sequence).
#[inline]
pub fn rank_arrangement(n: usize, values: impl IntoIterator<Item = u8>) -> u64 {
    let mut r = LehmerRank::new(n);
    for x in values {
        r.push(x);
    }
    r.rank()
}

/// The lexicographic rank of a permutation of `0..n` (`n <= 20`).
///
/// Permutations that differ by swapping their last two entries have ranks
/// `2j` and `2j + 1`, so `rank >> 1` ranks the permutations of one parity.
#[inline]
pub fn rank_permutation(perm: &[u8]) -> u64 {
    rank_arrangement(perm.len(), perm.iter().copied())
}

/// Lehmer digits of `index` for arrangements of `digits.len()` of `n`
/// values (digit `i` has radix `n - i`).
#[inline]
fn lehmer_digits(n: usize, mut index: u64, digits: &mut [u8]) {
    for i in (0..digits.len()).rev() {
        let radix = (n - i) as u64;
        digits[i] = (index % radix) as u8;
        index /= radix;
    }
}

/// Writes the arrangement with Lehmer digits `digits` into `out`.
#[inline]
fn from_lehmer(digits: &[u8], out: &mut [u8]) {
    let mut used = 0u64;
    for (i, &d) in digits.iter().enumerate() {
        // The d-th value not yet used.
        let mut free = !used;
        for _ in 0..d {
            free &= free - 1;
        }
        let l = free.trailing_zeros();
        used |= 1 << l;
        out[i] = l as u8;
    }
}

/// The arrangement of `out.len()` distinct values from `0..n` (`n <= 64`)
/// with lexicographic rank `index` (the inverse of [`rank_arrangement`]).
#[inline]
pub fn unrank_arrangement(n: usize, index: u64, out: &mut [u8]) {
    let mut digits = [0u8; 64];
    let k = out.len();
    lehmer_digits(n, index, &mut digits[..k]);
    from_lehmer(&digits[..k], out);
}

/// The permutation of `0..out.len()` with lexicographic rank `index`.
#[inline]
pub fn unrank_permutation(index: u64, out: &mut [u8]) {
    let mut digits = [0u8; MAX_BLOCK_PIECES];
    let n = out.len();
    lehmer_digits(n, index, &mut digits[..n]);
    from_lehmer(&digits[..n], out);
}

/// The permutation of parity `parity` (0 even, 1 odd) whose rank among
/// permutations of that parity is `index` (the rank `>> 1` of
/// [`rank_permutation`]). Needs `out.len() >= 2`.
#[inline]
pub fn unrank_permutation_with_parity(index: u64, parity: u8, out: &mut [u8]) {
    let mut digits = [0u8; MAX_BLOCK_PIECES];
    let n = out.len();
    lehmer_digits(n, index << 1, &mut digits[..n]);
    // The digit sum has the parity of the permutation; the radix-2 digit
    // (second to last) is the one `index << 1` leaves at 0.
    let sum: u32 = digits[..n].iter().map(|&d| d as u32).sum();
    if sum % 2 != parity as u32 {
        digits[n - 2] = 1;
    }
    from_lehmer(&digits[..n], out);
}

/// The parity of a permutation of `0..n`: 0 even, 1 odd.
pub fn permutation_parity(perm: &[u8]) -> u8 {
    let mut seen = [false; 256];
    let mut odd = 0u8;
    for s in 0..perm.len() {
        if seen[s] {
            continue;
        }
        let mut i = s;
        let mut len = 0;
        while !seen[i] {
            seen[i] = true;
            len += 1;
            i = perm[i] as usize;
        }
        if len % 2 == 0 {
            odd ^= 1;
        }
    }
    odd
}

/// The number of distinct arrangements of a multiset with these counts,
/// `(c1 + c2 + ...)! / (c1! c2! ...)`, if it fits 64 bits.
pub fn multinomial(counts: &[u8]) -> Option<u64> {
    let mut r: u128 = 1;
    let mut n: u128 = 0;
    for &c in counts {
        for j in 1..=c as u128 {
            n += 1;
            // r * n / j stays exact: r counts arrangements of the prefix.
            r = r * n / j;
            if r > u64::MAX as u128 {
                return None;
            }
        }
    }
    Some(r as u64)
}

/// The lexicographic rank of a sequence of types `seq` (type `t` appearing
/// `counts[t]` times) among all arrangements of that multiset.
pub fn rank_multiset(seq: &[u8], counts: &[u8]) -> Option<u64> {
    let total = multinomial(counts)?;
    Some(rank_multiset_with(seq, counts, total))
}

#[inline]
fn rank_multiset_with(seq: &[u8], counts: &[u8], arrangements: u64) -> u64 {
    let mut c = [0u8; 256];
    c[..counts.len()].copy_from_slice(counts);
    let n = seq.len();
    let mut a = arrangements as u128;
    let mut r: u128 = 0;
    for (i, &v) in seq.iter().enumerate() {
        let rem = (n - i) as u128;
        for &cu in &c[..v as usize] {
            r += a * cu as u128 / rem;
        }
        a = a * c[v as usize] as u128 / rem;
        c[v as usize] -= 1;
    }
    r as u64
}

/// The arrangement of the multiset (`counts[t]` copies of type `t`) with
/// lexicographic rank `index`, written into `out` (`sum(counts)` long).
pub fn unrank_multiset(index: u64, counts: &[u8], out: &mut [u8]) -> Option<()> {
    let total = multinomial(counts)?;
    unrank_multiset_with(index, counts, total, out);
    Some(())
}

#[inline]
fn unrank_multiset_with(index: u64, counts: &[u8], arrangements: u64, out: &mut [u8]) {
    let mut c = [0u8; 256];
    c[..counts.len()].copy_from_slice(counts);
    let n = out.len();
    let mut a = arrangements as u128;
    let mut r = index as u128;
    for (i, slot) in out.iter_mut().enumerate() {
        let rem = (n - i) as u128;
        for (t, ct) in c[..counts.len()].iter_mut().enumerate() {
            if *ct == 0 {
                continue;
            }
            let x = a * *ct as u128 / rem;
            if r < x {
                *slot = t as u8;
                a = x;
                *ct -= 1;
                break;
            }
            r -= x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Orbit, PatternOrbit};

    #[test]
    fn permutation_ranks_round_trip_in_order() {
        let mut p = [0u8; 5];
        let mut prev: Option<[u8; 5]> = None;
        for i in 0..120 {
            unrank_permutation(i, &mut p);
            assert_eq!(rank_permutation(&p), i);
            if let Some(q) = prev {
                assert!(q < p, "lexicographic order at {i}");
            }
            prev = Some(p);
        }
    }

    #[test]
    fn parity_halves_round_trip() {
        let mut p = [0u8; 6];
        for parity in 0..2u8 {
            let mut seen = std::collections::HashSet::new();
            for i in 0..360 {
                unrank_permutation_with_parity(i, parity, &mut p);
                assert_eq!(permutation_parity(&p), parity);
                assert_eq!(rank_permutation(&p) >> 1, i);
                seen.insert(p);
            }
            assert_eq!(seen.len(), 360);
        }
    }

    #[test]
    fn multiset_ranks_round_trip() {
        let counts = [2u8, 3, 1];
        assert_eq!(multinomial(&counts), Some(60));
        let mut out = [0u8; 6];
        let mut prev: Option<[u8; 6]> = None;
        for i in 0..60 {
            unrank_multiset(i, &counts, &mut out).unwrap();
            assert_eq!(rank_multiset(&out, &counts), Some(i));
            if let Some(q) = prev {
                assert!(q < out);
            }
            prev = Some(out);
        }
        assert_eq!(multinomial(&[30, 30, 30]), None);
        assert_eq!(multinomial(&[20, 20]), Some(137_846_528_820));
    }

    fn layout_and_moves() -> (Layout, Vec<Transformation>) {
        let layout = Layout::new(vec![
            Orbit::new("A", 4, 3).unwrap(),
            Orbit::new("B", 4, 3).unwrap(),
            Orbit::new("T", 2, 2).unwrap(),
        ])
        .unwrap();
        let moves = [
            // Move 1: 3-cycle of slots 0,1,2 of A and B alike, twisting A
            // (sum 0) and B (sum 1); flips T[0].
            vec![
                1, 2, 0, 3, 1, 2, 0, 0, //
                1, 2, 0, 3, 1, 0, 0, 0, //
                0, 1, 1, 0,
            ],
            // Move 2: 4-cycle of all slots of A and B alike (odd), no twists.
            vec![
                1, 2, 3, 0, 0, 0, 0, 0, //
                1, 2, 3, 0, 0, 0, 0, 0, //
                0, 1, 0, 0,
            ],
        ]
        .into_iter()
        .map(|bytes| Transformation::from_bytes(&layout, bytes).unwrap())
        .collect();
        (layout, moves)
    }

    /// Every state the moves reach from `start`, by brute force.
    fn reachable(layout: &Layout, start: &Pattern, moves: &[Transformation]) -> Vec<Vec<u8>> {
        let mut seen = std::collections::HashSet::new();
        let mut queue = vec![start.as_bytes().to_vec()];
        seen.insert(queue[0].clone());
        let mut i = 0;
        while i < queue.len() {
            for m in moves {
                let mut out = vec![0u8; layout.state_len()];
                layout.compose_into(&queue[i], m.as_bytes(), &mut out);
                if seen.insert(out.clone()) {
                    queue.push(out);
                }
            }
            i += 1;
        }
        queue
    }

    /// The index numbers every reachable state differently, below its size,
    /// and gives it back.
    fn check_perfect(ix: &PositionIndexer, states: &[Vec<u8>]) {
        let mut ranks = std::collections::HashSet::new();
        let mut back = vec![0u8; states[0].len()];
        for s in states {
            let r = ix.rank(s);
            assert!(r < ix.size());
            assert!(ranks.insert(r), "two states rank to {r}");
            ix.unrank(r, &mut back);
            assert_eq!(&back, s);
        }
    }

    #[test]
    fn blocks_followers_sums_and_joints() {
        let (layout, moves) = layout_and_moves();
        let gens: Vec<&Transformation> = moves.iter().collect();
        let start = layout.pattern_of(&layout.identity());
        let ix = PositionIndexer::new(&layout, &start, &gens).unwrap();
        // B's arrangement follows A's.
        let followers: usize = ix.components().iter().map(|c| c.followers()).sum();
        assert_eq!(followers, 1);
        let states = reachable(&layout, &start, &moves);
        check_perfect(&ix, &states);
        // Without joints: A's arrangements (24), A's twists with a fixed
        // sum (27), B's (81), T[0] (2); T[1] never moves. The joints may
        // only take away what the moves cannot reach.
        assert!(ix.size() <= 24 * 27 * 81 * 2);
        assert!(ix.size() >= states.len() as u64);
    }

    #[test]
    fn identical_pieces_and_moduli() {
        let layout = Layout::new(vec![Orbit::new("C", 4, 4).unwrap()]).unwrap();
        // A 4-cycle that turns the arriving pieces by 1, 1, 1, 1.
        let m = Transformation::from_bytes(&layout, vec![1, 2, 3, 0, 1, 1, 1, 1]).unwrap();
        let start = layout
            .pattern(&[PatternOrbit {
                pieces: vec![0, 0, 1, 1],
                orientation: vec![0, 1, 0, 1],
                orientation_mod: Some(vec![2, 2, 2, 2]),
            }])
            .unwrap();
        let ix = PositionIndexer::new(&layout, &start, &[&m]).unwrap();
        // One move of order 4 reaches 4 patterns; the arrangements (6) and
        // the orientations mod 2 with a fixed sum (8) are tied together
        // by a joint component, which makes the index exact.
        let states = reachable(&layout, &start, std::slice::from_ref(&m));
        assert_eq!(states.len(), 4);
        assert_eq!(ix.size(), 4);
        assert_eq!(ix.components()[0].kind(), ComponentKind::Joint);
        let (a, b) = ix.components()[0].parts().unwrap();
        assert_eq!((a.radix() * b.radix()), 6 * 8);
        check_perfect(&ix, &states);
        let mixed = layout
            .pattern(&[PatternOrbit {
                pieces: vec![0, 1, 2, 3],
                orientation: vec![0, 1, 0, 1],
                orientation_mod: Some(vec![2, 0, 2, 2]),
            }])
            .unwrap();
        assert!(matches!(
            PositionIndexer::new(&layout, &mixed, &[&m]),
            Err(IndexError::MixedOrientationModuli { .. })
        ));
    }

    #[test]
    fn every_index_round_trips_on_a_small_space() {
        let (layout, moves) = layout_and_moves();
        let gens: Vec<&Transformation> = moves.iter().collect();
        let start = layout.pattern_of(&layout.identity());
        let ix = PositionIndexer::new(&layout, &start, &gens).unwrap();
        let mut state = vec![0u8; layout.state_len()];
        let step = ix.size() / 5000 + 1;
        let mut i = 0;
        while i < ix.size() {
            ix.unrank(i, &mut state);
            assert_eq!(ix.rank(&state), i);
            i += step;
        }
    }
}
