//! A hashed table of whole positions near the goal.
//!
//! Every position within `depth` moves of the goal is hashed into a table
//! of 4-bit entries holding the least distance of the positions that land
//! there; an untouched entry means "more than `depth`". Collisions only
//! lower an entry, so it stays a lower bound. Unlike a projection, this
//! knows every piece, which is what short solutions and puzzles with few,
//! long-range moves need (a 4x4x4 with four grips, say). It is filled by a
//! depth-first walk over canonical sequences, split among threads.
//!
//! With symmetries (rotations of the puzzle that keep the goal and the
//! moves, [`SymmetryGroup`]) the table holds each position's least
//! conjugate, so it covers `|R|` times as many positions, and the walk
//! starts with one first move per class of moves under the symmetries:
//! any position has a conjugate whose optimal sequence starts with a
//! chosen move, and the rest of that sequence is some canonical sequence
//! (not necessarily one that may follow the first move, so the second
//! move is chosen as if the walk started there).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use twistor_core::symmetry::SymmetryGroup;
use twistor_core::{Layout, Pattern, SparseTransformation};
use twistor_memory::{prefetch, TableBuffer};

use crate::canonical::{CanonicalFsm, FORBIDDEN};
use crate::table::UNREACHED;
use crate::MoveSet;

/// How a [`HashedTable`] is filled.
#[derive(Clone, Copy, Debug)]
pub struct HashedFill {
    /// Entries (four bits each).
    pub entries: u64,
    /// Every position within this many moves is inserted.
    pub depth: u8,
    /// Threads.
    pub threads: usize,
}

/// A hashed table of distances of whole positions.
pub struct HashedTable {
    /// The entries' words, complemented (see [`HashedTable::word`]).
    words: TableBuffer<AtomicU64>,
    size: u64,
    depth: u8,
    /// Positions inserted (with repeats).
    inserted: u64,
    /// Positions are stored as their least conjugates under these.
    symmetry: Option<HashedSymmetry>,
}

/// The symmetries a hashed table reduces by, and the first moves its fill
/// starts with (one of each class of conjugate moves).
#[derive(Clone)]
pub struct HashedSymmetry {
    group: Arc<SymmetryGroup>,
    first_moves: Vec<usize>,
}

impl HashedSymmetry {
    /// Reduction by `group` for a search with `moves`; `None` when the group
    /// has only the identity.
    pub fn new(group: Arc<SymmetryGroup>, moves: &MoveSet) -> Option<HashedSymmetry> {
        if group.order() < 2 {
            return None;
        }
        let index: HashMap<&[u8], usize> = moves
            .moves()
            .iter()
            .enumerate()
            .map(|(i, m)| (m.transformation.as_bytes(), i))
            .collect();
        let mut first_moves = Vec::new();
        for (i, m) in moves.moves().iter().enumerate() {
            // A move whose conjugates are all later moves starts its class.
            let least = (0..group.order())
                .filter_map(|g| {
                    let c = group.conjugate_transformation(g, m.transformation.as_bytes());
                    index.get(&c[..]).copied()
                })
                .min()
                .unwrap_or(i);
            if least == i {
                first_moves.push(i);
            }
        }
        Some(HashedSymmetry { group, first_moves })
    }

    /// The symmetries.
    pub fn group(&self) -> &SymmetryGroup {
        &self.group
    }

    /// How many moves the fill starts with.
    pub fn first_moves(&self) -> usize {
        self.first_moves.len()
    }

    /// About how many times a plain insertion an insertion of a least
    /// conjugate costs (most conjugates are ruled out at their first
    /// byte, but near the goal many tie for several), for planning a
    /// fill before one is timed.
    pub fn insert_cost(&self) -> u64 {
        1 + self.group.order() as u64 / 4
    }
}

/// A node of the fill's walk: its position, its automaton state and, at
/// the first level of a reduced walk, the first move (whose successor is
/// chosen from the automaton's start, see the module documentation).
type WalkNode = (Vec<u8>, u32, Option<usize>);

/// The automaton state after `m` from `state`, or [`FORBIDDEN`]. After a
/// reduced walk's first move `first`, any move may follow that may start
/// a sequence, except the same grip's moves that could not follow it
/// (those make a shorter sequence).
#[inline]
fn next_state(
    fsm: &CanonicalFsm,
    moves: &MoveSet,
    state: u32,
    first: Option<usize>,
    m: usize,
) -> u32 {
    match first {
        None => fsm.next(state, m),
        Some(f) => {
            let ms = moves.moves();
            if ms[m].grip == ms[f].grip
                && fsm.next(fsm.next(CanonicalFsm::START, f), m) == FORBIDDEN
            {
                FORBIDDEN
            } else {
                fsm.next(CanonicalFsm::START, m)
            }
        }
    }
}

/// Positions a fill hashes (asking for their entries' words as it goes)
/// before it writes their entries: enough that the words of the first
/// have arrived when they are written.
const BATCH: usize = 64;

/// A fast hash of a packed state (multiply-rotate over 8-byte words).
#[inline]
pub(crate) fn hash_state(state: &[u8]) -> u64 {
    let mut h = 0x243F_6A88_85A3_08D3u64;
    let mut chunks = state.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(31);
    }
    let mut last = 0u64;
    for (i, &b) in chunks.remainder().iter().enumerate() {
        last |= (b as u64) << (8 * i);
    }
    h = (h ^ last ^ state.len() as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^ (h >> 29)
}

impl HashedTable {
    /// How many sequences a fill to each depth walks (an upper bound on
    /// the positions it inserts), from depth 0 up to `max_depth`.
    pub fn walked(
        fsm: &CanonicalFsm,
        symmetry: Option<&HashedSymmetry>,
        max_depth: usize,
    ) -> Vec<u128> {
        let counts = fsm.counts(max_depth);
        let mut total = 0u128;
        counts
            .iter()
            .enumerate()
            .map(|(d, &c)| {
                total += match (symmetry, d) {
                    (None, _) | (_, 0) => c,
                    // The first moves, then sequences from the start.
                    (Some(s), d) => s.first_moves.len() as u128 * counts[d - 1],
                };
                total
            })
            .collect()
    }

    /// How deep a table of `entries` entries should be filled: the deepest
    /// depth whose walk ([`HashedTable::walked`]) is at most `entries` and
    /// at most `max_nodes` sequences; with that count.
    pub fn depth_for(
        fsm: &CanonicalFsm,
        symmetry: Option<&HashedSymmetry>,
        entries: u64,
        max_nodes: u64,
    ) -> (u8, u64) {
        let walked = HashedTable::walked(fsm, symmetry, UNREACHED as usize - 2);
        let mut depth = (0u8, 1u64);
        for (d, &total) in walked.iter().enumerate() {
            if total > entries as u128 || total > max_nodes as u128 {
                break;
            }
            depth = (d as u8, total as u64);
        }
        depth
    }

    /// Fills a table of `fill.entries` entries with every position within
    /// `fill.depth` moves of `goal` (their least conjugates under
    /// `symmetry`); `None` if `stop` is raised first.
    pub fn build(
        layout: &Layout,
        goal: &Pattern,
        moves: &MoveSet,
        fsm: &CanonicalFsm,
        symmetry: Option<&HashedSymmetry>,
        fill: HashedFill,
        stop: &AtomicBool,
    ) -> Option<HashedTable> {
        let HashedFill {
            entries,
            depth,
            threads,
        } = fill;
        let size = entries.max(16);
        let table = HashedTable {
            words: TableBuffer::zeroed_or_abort(size.div_ceil(16) as usize, true),
            size,
            depth,
            inserted: 0,
            symmetry: symmetry.cloned(),
        };
        let len = layout.state_len();
        // Split the walk at a short prefix, as the search does; shallower
        // positions are inserted here.
        let mut canon = vec![0u8; len];
        let mut level: Vec<WalkNode> = vec![(goal.as_bytes().to_vec(), CanonicalFsm::START, None)];
        let mut plen = 0u8;
        while plen < depth && level.len() < 256 {
            let mut children = Vec::new();
            for (state, fsm_state, first) in &level {
                table.insert(state, plen, &mut canon);
                let mut child = vec![0u8; len];
                for (m, mv) in moves.moves().iter().enumerate() {
                    let (next, first) = match (plen, symmetry) {
                        (0, Some(s)) if s.first_moves.contains(&m) => {
                            (CanonicalFsm::START, Some(m))
                        }
                        (0, Some(_)) => continue,
                        _ => (next_state(fsm, moves, *fsm_state, *first, m), None),
                    };
                    if next == FORBIDDEN {
                        continue;
                    }
                    layout.compose_into(state, mv.transformation.as_bytes(), &mut child);
                    children.push((child.clone(), next, first));
                }
            }
            level = children;
            plen += 1;
        }
        let prefixes = level;
        let next = std::sync::atomic::AtomicUsize::new(0);
        let inserted = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let mut stack = vec![0u8; len * (depth as usize + 2)];
                    let mut canon = vec![0u8; len];
                    let mut pending = Vec::with_capacity(BATCH);
                    let mut n = 0u64;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= prefixes.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let (state, fsm_state, first) = &prefixes[i];
                        stack[..len].copy_from_slice(state);
                        let mut walk = Walk {
                            layout,
                            moves,
                            fsm,
                            stack: &mut stack,
                            canon: &mut canon,
                            pending: &mut pending,
                            stop,
                        };
                        n += table.walk(&mut walk, 0, plen, *fsm_state, *first);
                        table.lower_all(&pending);
                        pending.clear();
                    }
                    inserted.fetch_add(n, Ordering::Relaxed);
                });
            }
        });
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        Some(HashedTable {
            inserted: inserted.into_inner(),
            ..table
        })
    }

    /// A table from its cached parts: `words` held as a pattern
    /// database's nibbles are ([`crate::table::Nibbles`]), which is the
    /// complement of the stored form, as [`HashedTable::word`] reads it.
    pub(crate) fn from_parts(
        words: TableBuffer<AtomicU64>,
        size: u64,
        depth: u8,
        inserted: u64,
        symmetry: Option<&HashedSymmetry>,
    ) -> HashedTable {
        HashedTable {
            words,
            size,
            depth,
            inserted,
            symmetry: symmetry.cloned(),
        }
    }

    /// The packed entries, for the cache.
    pub(crate) fn words(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.words.len()).map(|k| self.word(k))
    }

    /// Word `k` of entries. The buffer holds each word complemented, so
    /// that fresh zeroed memory (which the system hands out untouched, in
    /// huge pages) reads as every entry untouched.
    #[inline]
    fn word(&self, k: usize) -> u64 {
        !self.words[k].load(Ordering::Relaxed)
    }

    /// Inserts the position at stack level `level` (at `d` moves) and every
    /// canonical continuation up to the table's depth; the count inserted.
    fn walk(&self, w: &mut Walk, level: usize, d: u8, state: u32, first: Option<usize>) -> u64 {
        self.insert_later(w, level, d);
        if d == self.depth {
            return 1;
        }
        if level % 4 == 0 && w.stop.load(Ordering::Relaxed) {
            return 1;
        }
        let mut n = 1;
        if d + 1 == self.depth {
            // The children are leaves: no need to recurse.
            for (m, mv) in w.moves.moves().iter().enumerate() {
                if next_state(w.fsm, w.moves, state, first, m) == FORBIDDEN {
                    continue;
                }
                w.push(level, &mv.sparse);
                self.insert_later(w, level + 1, d + 1);
                n += 1;
            }
            return n;
        }
        for (m, mv) in w.moves.moves().iter().enumerate() {
            let next = next_state(w.fsm, w.moves, state, first, m);
            if next == FORBIDDEN {
                continue;
            }
            w.push(level, &mv.sparse);
            n += self.walk(w, level + 1, d + 1, next, None);
        }
        n
    }

    #[inline]
    fn slot(&self, state: &[u8]) -> u64 {
        ((hash_state(state) as u128 * self.size as u128) >> 64) as u64
    }

    /// The entry of `state` (of its least conjugate, computed in `canon`).
    #[inline]
    fn slot_of(&self, state: &[u8], canon: &mut [u8]) -> u64 {
        match &self.symmetry {
            None => self.slot(state),
            Some(s) => {
                s.group.canonical_into(state, canon);
                self.slot(canon)
            }
        }
    }

    /// Lowers the entry of `state` to `d` if it is higher.
    fn insert(&self, state: &[u8], d: u8, canon: &mut [u8]) {
        let i = self.slot_of(state, canon);
        self.lower(i, d, self.word((i >> 4) as usize));
    }

    /// Inserts the position at stack level `level` (at `d` moves) a batch
    /// later: its word is asked for now, and written once the batch is
    /// full, so that the cache misses of a batch overlap.
    #[inline]
    fn insert_later(&self, w: &mut Walk, level: usize, d: u8) {
        let len = w.layout.state_len();
        let i = self.slot_of(&w.stack[level * len..(level + 1) * len], w.canon);
        prefetch(&self.words[(i >> 4) as usize]);
        w.pending.push(i << 4 | d as u64);
        if w.pending.len() == BATCH {
            self.lower_all(w.pending);
            w.pending.clear();
        }
    }

    /// Lowers each of `pending` (entry index, four bits of distance) to
    /// its distance where it is higher, reading all their words before
    /// the first (ordered) write.
    fn lower_all(&self, pending: &[u64]) {
        let mut words = [0u64; BATCH];
        for (w, &p) in words.iter_mut().zip(pending) {
            *w = self.word((p >> 8) as usize);
        }
        for (&w, &p) in words.iter().zip(pending) {
            self.lower(p >> 4, (p & 15) as u8, w);
        }
    }

    /// Lowers entry `i` to `d` if it is higher, `cur` being its word as
    /// last read.
    #[inline]
    fn lower(&self, i: u64, d: u8, mut cur: u64) {
        let shift = (i & 15) * 4;
        let word = &self.words[(i >> 4) as usize];
        loop {
            let v = ((cur >> shift) & 15) as u8;
            if v <= d {
                return;
            }
            let new = (cur & !(15 << shift)) | ((d as u64) << shift);
            match word.compare_exchange_weak(!cur, !new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return,
                Err(now) => cur = !now,
            }
        }
    }

    /// Where a position's entry is, for a batched read; `canon` is scratch
    /// space of a state's length.
    #[inline]
    pub fn index(&self, state: &[u8], canon: &mut [u8]) -> u64 {
        self.slot_of(state, canon)
    }

    /// The lower bound an entry gives.
    #[inline]
    pub fn entry(&self, i: u64) -> u8 {
        let v = ((self.word((i >> 4) as usize) >> ((i & 15) * 4)) & 15) as u8;
        if v == UNREACHED {
            self.depth + 1
        } else {
            v
        }
    }

    /// The lower bound for a position.
    pub fn lookup(&self, state: &[u8]) -> u8 {
        let mut canon = vec![0u8; state.len()];
        self.entry(self.slot_of(state, &mut canon))
    }

    /// The symmetries it reduces by, if any.
    pub fn symmetry(&self) -> Option<&HashedSymmetry> {
        self.symmetry.as_ref()
    }

    /// The depth it was filled to.
    pub fn depth(&self) -> u8 {
        self.depth
    }

    /// Entries.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Bytes of memory.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// Positions inserted while filling (with repeats).
    pub fn inserted(&self) -> u64 {
        self.inserted
    }
}

/// What a fill's walk carries down: the puzzle, the path's states and
/// scratch space.
struct Walk<'a> {
    layout: &'a Layout,
    moves: &'a MoveSet,
    fsm: &'a CanonicalFsm,
    stack: &'a mut [u8],
    canon: &'a mut [u8],
    /// Insertions waiting to be written ([`HashedTable::insert_later`]).
    pending: &'a mut Vec<u64>,
    stop: &'a AtomicBool,
}

impl Walk<'_> {
    /// Writes the position after `mv` from stack level `level` into the
    /// next level.
    #[inline]
    fn push(&mut self, level: usize, mv: &SparseTransformation) {
        let len = self.layout.state_len();
        let (cur, child) = self.stack.split_at_mut((level + 1) * len);
        mv.apply(&cur[level * len..], &mut child[..len]);
    }
}
