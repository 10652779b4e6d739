//! A hashed table of whole positions near the goal.
//!
//! Every position within `depth` moves of the goal is hashed into a table
//! of 4-bit entries holding the least distance of the positions that land
//! there; an untouched entry means "more than `depth`". Collisions only
//! lower an entry, so it stays a lower bound. Unlike a projection, this
//! knows every piece, which is what short solutions and puzzles with few,
//! long-range moves need (a 4x4x4 with four grips, say). It is filled by a
//! depth-first walk over canonical sequences, split among threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use twistor_core::{Layout, Pattern};

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
    words: Box<[AtomicU64]>,
    size: u64,
    depth: u8,
    /// Positions inserted (with repeats).
    inserted: u64,
}

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
    /// How deep a table of `entries` entries should be filled: the deepest
    /// depth whose canonical sequences, counted with all shorter ones, are
    /// at most `entries` and at most `max_nodes`; with that count (an upper
    /// bound on the positions the fill inserts).
    pub fn depth_for(fsm: &CanonicalFsm, entries: u64, max_nodes: u64) -> (u8, u64) {
        let counts = fsm.counts(UNREACHED as usize - 2);
        let mut total = 0u128;
        let mut depth = (0u8, 1u64);
        for (d, &c) in counts.iter().enumerate() {
            total += c;
            if total > entries as u128 || total > max_nodes as u128 {
                break;
            }
            depth = (d as u8, total as u64);
        }
        depth
    }

    /// Fills a table of `fill.entries` entries with every position within
    /// `fill.depth` moves of `goal`; `None` if `stop` is raised first.
    pub fn build(
        layout: &Layout,
        goal: &Pattern,
        moves: &MoveSet,
        fsm: &CanonicalFsm,
        fill: HashedFill,
        stop: &AtomicBool,
    ) -> Option<HashedTable> {
        let HashedFill {
            entries,
            depth,
            threads,
        } = fill;
        let size = entries.max(16);
        let words: Vec<AtomicU64> = (0..size.div_ceil(16))
            .map(|_| AtomicU64::new(u64::MAX))
            .collect();
        let table = HashedTable {
            words: words.into_boxed_slice(),
            size,
            depth,
            inserted: 0,
        };
        // Split the walk at a short prefix, as the search does.
        let counts = fsm.counts(depth as usize);
        let mut plen = 0usize;
        while plen < depth as usize && counts[plen] < 256 {
            plen += 1;
        }
        let mut prefixes = Vec::new();
        collect(
            layout,
            moves,
            fsm,
            goal.as_bytes(),
            CanonicalFsm::START,
            plen,
            &mut Vec::new(),
            &mut prefixes,
        );
        // Shallower positions than the prefix length are inserted here.
        let mut shallow = Vec::new();
        for d in 0..plen {
            collect(
                layout,
                moves,
                fsm,
                goal.as_bytes(),
                CanonicalFsm::START,
                d,
                &mut Vec::new(),
                &mut shallow,
            );
            for (state, _) in shallow.drain(..) {
                table.insert(&state, d as u8);
            }
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let inserted = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let len = layout.state_len();
                    let mut stack = vec![0u8; len * (depth as usize + 2)];
                    let mut n = 0u64;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= prefixes.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let (state, fsm_state) = &prefixes[i];
                        stack[..len].copy_from_slice(state);
                        n += table.walk(
                            layout, moves, fsm, &mut stack, 0, plen as u8, *fsm_state, stop,
                        );
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

    /// A table from its cached parts.
    pub(crate) fn from_parts(words: Vec<u64>, size: u64, depth: u8, inserted: u64) -> HashedTable {
        HashedTable {
            words: words.into_iter().map(AtomicU64::new).collect(),
            size,
            depth,
            inserted,
        }
    }

    /// The packed entries, for the cache.
    pub(crate) fn words(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().map(|w| w.load(Ordering::Relaxed))
    }

    /// Inserts the position at stack level `level` (at `d` moves) and every
    /// canonical continuation up to the table's depth; the count inserted.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        layout: &Layout,
        moves: &MoveSet,
        fsm: &CanonicalFsm,
        stack: &mut [u8],
        level: usize,
        d: u8,
        state: u32,
        stop: &AtomicBool,
    ) -> u64 {
        let len = layout.state_len();
        self.insert(&stack[level * len..(level + 1) * len], d);
        if d == self.depth {
            return 1;
        }
        if level % 4 == 0 && stop.load(Ordering::Relaxed) {
            return 1;
        }
        let mut n = 1;
        for (m, mv) in moves.moves().iter().enumerate() {
            let next = fsm.next(state, m);
            if next == FORBIDDEN {
                continue;
            }
            let (cur, child) = stack.split_at_mut((level + 1) * len);
            layout.compose_into(
                &cur[level * len..],
                mv.transformation.as_bytes(),
                &mut child[..len],
            );
            n += self.walk(layout, moves, fsm, stack, level + 1, d + 1, next, stop);
        }
        n
    }

    #[inline]
    fn slot(&self, state: &[u8]) -> u64 {
        ((hash_state(state) as u128 * self.size as u128) >> 64) as u64
    }

    /// Lowers the entry of `state` to `d` if it is higher.
    fn insert(&self, state: &[u8], d: u8) {
        let i = self.slot(state);
        let shift = (i & 15) * 4;
        let word = &self.words[(i >> 4) as usize];
        let mut cur = word.load(Ordering::Relaxed);
        loop {
            let v = ((cur >> shift) & 15) as u8;
            if v <= d {
                return;
            }
            let new = (cur & !(15 << shift)) | ((d as u64) << shift);
            match word.compare_exchange_weak(cur, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return,
                Err(now) => cur = now,
            }
        }
    }

    /// Where a position's entry is, for a batched read.
    #[inline]
    pub fn index(&self, state: &[u8]) -> u64 {
        self.slot(state)
    }

    /// The lower bound an entry gives.
    #[inline]
    pub fn entry(&self, i: u64) -> u8 {
        let v =
            ((self.words[(i >> 4) as usize].load(Ordering::Relaxed) >> ((i & 15) * 4)) & 15) as u8;
        if v == UNREACHED {
            self.depth + 1
        } else {
            v
        }
    }

    /// The lower bound for a position.
    pub fn lookup(&self, state: &[u8]) -> u8 {
        self.entry(self.slot(state))
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

/// The positions (and automaton states) at the end of every canonical
/// sequence of exactly `len` moves from `state`.
#[allow(clippy::too_many_arguments)]
fn collect(
    layout: &Layout,
    moves: &MoveSet,
    fsm: &CanonicalFsm,
    state: &[u8],
    fsm_state: u32,
    len: usize,
    path: &mut Vec<usize>,
    out: &mut Vec<(Vec<u8>, u32)>,
) {
    if path.len() == len {
        out.push((state.to_vec(), fsm_state));
        return;
    }
    let mut child = vec![0u8; state.len()];
    for (m, mv) in moves.moves().iter().enumerate() {
        let next = fsm.next(fsm_state, m);
        if next == FORBIDDEN {
            continue;
        }
        layout.compose_into(state, mv.transformation.as_bytes(), &mut child);
        path.push(m);
        collect(layout, moves, fsm, &child, next, len, path, out);
        path.pop();
    }
}
