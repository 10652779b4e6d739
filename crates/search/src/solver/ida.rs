//! The IDA* search itself: prefixes shared out to threads in order, and
//! each thread's depth-first walk, which judges a node's children
//! together so that their table reads overlap.
//!
//! The search is split into prefixes (the first few moves) that threads
//! take in order. Solutions are reported in lexicographic order of their
//! moves, so "the first N solutions" is the same set whatever the thread
//! count: a prefix's solutions count only once every earlier prefix is done,
//! and later prefixes are abandoned as soon as enough are found.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use twistor_core::Layout;

use super::Solver;
use crate::canonical::{CanonicalFsm, FORBIDDEN};
use crate::hashed::HashedTable;
use crate::table::PruneTable;

impl Solver {
    /// All prefixes of length `len` (canonical, not pruned) in order.
    fn prefixes(&self, start: &[u8], len: u32, depth: u32) -> Vec<(Vec<usize>, u32, Vec<u8>)> {
        let mut out = Vec::new();
        let mut path = Vec::new();
        self.collect_prefixes(start, CanonicalFsm::START, len, depth, &mut path, &mut out);
        out
    }

    fn collect_prefixes(
        &self,
        state: &[u8],
        fsm: u32,
        len: u32,
        depth: u32,
        path: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, u32, Vec<u8>)>,
    ) {
        if path.len() as u32 == len {
            out.push((path.clone(), fsm, state.to_vec()));
            return;
        }
        let mut child = vec![0u8; state.len()];
        for (m, mv) in self.moves.moves().iter().enumerate() {
            let next = self.fsm.next(fsm, m);
            if next == FORBIDDEN {
                continue;
            }
            self.layout
                .compose_into(state, mv.transformation.as_bytes(), &mut child);
            if !self.legal(&child) || self.lower_bound(&child) > depth - path.len() as u32 - 1 {
                continue;
            }
            path.push(m);
            self.collect_prefixes(&child, next, len, depth, path, out);
            path.pop();
        }
    }

    /// One iteration: every solution of length `depth`, in order, up to
    /// `need` of them.
    pub(super) fn search_depth(
        &self,
        start: &[u8],
        depth: u32,
        need: usize,
        threads: usize,
        stop: &AtomicBool,
    ) -> (Vec<Vec<usize>>, u64, bool) {
        // Enough prefixes to keep every thread busy and balance the load.
        let mut plen = 0;
        if threads > 1 {
            let counts = self.fsm.counts(depth as usize);
            while plen < depth && counts[plen as usize] < 64 * threads as u128 {
                plen += 1;
            }
        }
        let tasks = self.prefixes(start, plen, depth);
        let results: Vec<Mutex<Option<Vec<Vec<usize>>>>> =
            tasks.iter().map(|_| Mutex::new(None)).collect();
        let next_task = AtomicUsize::new(0);
        let cutoff = AtomicUsize::new(usize::MAX);
        let nodes = AtomicU64::new(0);
        let done_upto = Mutex::new((0usize, 0usize)); // (tasks complete in order, their solutions)
        let work = || {
            let mut w = Worker::new(self, depth);
            loop {
                let i = next_task.fetch_add(1, Ordering::Relaxed);
                if i >= tasks.len()
                    || i >= cutoff.load(Ordering::Relaxed)
                    || stop.load(Ordering::Relaxed)
                {
                    break;
                }
                let (path, fsm, state) = &tasks[i];
                w.solutions.clear();
                w.path.clear();
                w.path.extend_from_slice(path);
                w.stack[plen as usize * w.len..(plen as usize + 1) * w.len].copy_from_slice(state);
                w.read_coords(plen as usize);
                let aborted = w.dfs(plen as usize, depth - plen, *fsm, need, &|| {
                    i >= cutoff.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed)
                });
                if aborted {
                    continue;
                }
                *results[i].lock().unwrap_or_else(|e| e.into_inner()) =
                    Some(std::mem::take(&mut w.solutions));
                // Advance the in-order completion front.
                let mut front = done_upto.lock().unwrap_or_else(|e| e.into_inner());
                while front.0 < tasks.len() {
                    let r = results[front.0].lock().unwrap_or_else(|e| e.into_inner());
                    match &*r {
                        Some(s) => {
                            front.1 += s.len();
                            front.0 += 1;
                        }
                        None => break,
                    }
                    if front.1 >= need {
                        cutoff.fetch_min(front.0, Ordering::Relaxed);
                        break;
                    }
                }
            }
            nodes.fetch_add(w.nodes, Ordering::Relaxed);
        };
        let workers = threads.min(tasks.len()).max(1);
        if workers == 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 0..workers {
                    scope.spawn(work);
                }
            });
        }
        let front = done_upto.into_inner().unwrap_or_else(|e| e.into_inner());
        let complete = front.0;
        let stopped = stop.load(Ordering::Relaxed) && complete < tasks.len() && front.1 < need;
        let mut found = Vec::new();
        for r in results.into_iter().take(complete) {
            if let Some(s) = r.into_inner().unwrap_or_else(|e| e.into_inner()) {
                found.extend(s);
            }
        }
        found.truncate(need);
        (found, nodes.load(Ordering::Relaxed), stopped)
    }
}

/// A table a node's children can be judged by, in two steps so that a
/// batch's memory reads overlap: where each child's entry is, then the entries.
trait LowerBound {
    /// The index of `state`'s entry (`scratch` is space of a state's length).
    fn index_of(&self, layout: &Layout, state: &[u8], scratch: &mut [u8]) -> u64;
    fn bound_at(&self, index: u64) -> u8;
}

impl LowerBound for PruneTable {
    #[inline]
    fn index_of(&self, layout: &Layout, state: &[u8], _scratch: &mut [u8]) -> u64 {
        self.projection().index(layout, state)
    }
    #[inline]
    fn bound_at(&self, index: u64) -> u8 {
        self.entry(index)
    }
}

impl LowerBound for HashedTable {
    #[inline]
    fn index_of(&self, _layout: &Layout, state: &[u8], scratch: &mut [u8]) -> u64 {
        self.index(state, scratch)
    }
    #[inline]
    fn bound_at(&self, index: u64) -> u8 {
        self.entry(index)
    }
}

/// One thread's search state.
///
/// A node's children are generated and judged together: every child's
/// index into the first table is computed, then all their entries are
/// read (independent loads, so the memory system overlaps the misses),
/// survivors go on to the next table, and so on; only then does the search
/// descend into the survivors, in move order.
struct Worker<'s> {
    solver: &'s Solver,
    len: usize,
    nmoves: usize,
    /// The state of the node at each level of the current path.
    stack: Vec<u8>,
    /// Per level: the candidate children's states.
    kids: Vec<u8>,
    /// Per level: each candidate's move and automaton state.
    kid_move: Vec<u16>,
    kid_next: Vec<u32>,
    /// Per level: the candidates that survived pruning, and how many.
    alive: Vec<u16>,
    alive_count: Vec<usize>,
    /// Scratch: inverses of the current node's children, indices, values.
    inverse: Vec<u8>,
    /// Scratch: a least conjugate.
    canon: Vec<u8>,
    /// Per table: where its coordinates start among a node's, if the
    /// search carries them (its projection moves by tables).
    coord_at: Vec<Option<usize>>,
    /// Coordinates per node, of all carried tables.
    coords: usize,
    /// Per level: the node's carried coordinates; and per level and
    /// candidate child, the child's.
    node_coords: Vec<u64>,
    kid_coords: Vec<u64>,
    index: Vec<u64>,
    path: Vec<usize>,
    solutions: Vec<Vec<usize>>,
    nodes: u64,
    checks: u32,
}

impl<'s> Worker<'s> {
    fn new(solver: &'s Solver, depth: u32) -> Worker<'s> {
        let len = solver.layout.state_len();
        let nmoves = solver.moves.moves().len();
        let levels = depth as usize + 2;
        let mut coords = 0;
        let coord_at = solver
            .tables
            .iter()
            .map(|t| {
                let p = t.projection();
                p.moves_by_table().then(|| {
                    coords += p.num_coords();
                    coords - p.num_coords()
                })
            })
            .collect();
        Worker {
            coord_at,
            coords,
            node_coords: vec![0; coords * levels],
            kid_coords: vec![0; coords * nmoves * levels],
            solver,
            len,
            nmoves,
            stack: vec![0u8; len * levels],
            kids: vec![0u8; len * nmoves * levels],
            kid_move: vec![0; nmoves * levels],
            kid_next: vec![0; nmoves * levels],
            alive: vec![0; nmoves * levels],
            alive_count: vec![0; levels],
            inverse: vec![0u8; len * nmoves],
            canon: vec![0u8; len],
            index: vec![0; nmoves],
            path: Vec::with_capacity(levels),
            solutions: Vec::new(),
            nodes: 0,
            checks: 0,
        }
    }

    /// The carried coordinates of the node at `level`, read from its state.
    fn read_coords(&mut self, level: usize) {
        let s = self.solver;
        let state = &self.stack[level * self.len..(level + 1) * self.len];
        for (t, at) in s.tables.iter().zip(&self.coord_at) {
            if let Some(at) = *at {
                let p = t.projection();
                let out = &mut self.node_coords[level * self.coords + at..][..p.num_coords()];
                p.read_coords(&s.layout, state, out);
            }
        }
    }

    /// [`Worker::prune_with`] for table `ti`, whose coordinates are carried
    /// (at `at` among a node's): each child's follow from the node's by
    /// the move tables.
    fn prune_carried(&mut self, level: usize, ti: usize, at: usize, bound: u32) {
        let table = &self.solver.tables[ti];
        let p = table.projection();
        let nc = p.num_coords();
        let base = level * self.nmoves;
        let count = self.alive_count[level];
        let node = &self.node_coords[level * self.coords + at..][..nc];
        for a in 0..count {
            let c = self.alive[base + a] as usize;
            let m = self.kid_move[base + c] as usize;
            let out = &mut self.kid_coords[(base + c) * self.coords + at..][..nc];
            self.index[a] = p.step_coords(node, m, out);
        }
        self.keep_within(level, bound, |i| table.entry(i));
    }

    /// Keeps the alive children of `level` whose entries, read by
    /// `bound_at` at the indices just computed, are within `bound`.
    fn keep_within(&mut self, level: usize, bound: u32, bound_at: impl Fn(u64) -> u8) {
        let base = level * self.nmoves;
        let mut kept = 0;
        for a in 0..self.alive_count[level] {
            if (bound_at(self.index[a]) as u32) <= bound {
                self.alive[base + kept] = self.alive[base + a];
                kept += 1;
            }
        }
        self.alive_count[level] = kept;
    }

    /// Keeps the alive children of `level` whose entries in `table`, read
    /// from `states` (`len` bytes per candidate, by candidate), are within
    /// `bound`.
    fn prune_with<T: LowerBound>(
        &mut self,
        level: usize,
        table: &T,
        from_inverse: bool,
        bound: u32,
    ) {
        let s = self.solver;
        let len = self.len;
        let base = level * self.nmoves;
        let count = self.alive_count[level];
        let states: &[u8] = if from_inverse {
            &self.inverse
        } else {
            &self.kids[base * len..(base + self.nmoves) * len]
        };
        for a in 0..count {
            let c = self.alive[base + a] as usize;
            self.index[a] =
                table.index_of(&s.layout, &states[c * len..(c + 1) * len], &mut self.canon);
        }
        self.keep_within(level, bound, |i| table.bound_at(i));
    }

    /// Depth-first search below `level` with `remaining` moves to go.
    /// Returns whether it was aborted.
    fn dfs(
        &mut self,
        level: usize,
        remaining: u32,
        fsm: u32,
        need: usize,
        abort: &dyn Fn() -> bool,
    ) -> bool {
        self.nodes += 1;
        self.checks += 1;
        if self.checks >= 1 << 16 {
            self.checks = 0;
            if abort() {
                return true;
            }
        }
        let s = self.solver;
        let len = self.len;
        if remaining == 0 {
            if &self.stack[level * len..(level + 1) * len] == s.goal.as_bytes() {
                self.solutions.push(self.path.clone());
            }
            return false;
        }
        // Generate the children.
        let base = level * self.nmoves;
        let mut count = 0;
        for (m, mv) in s.moves.moves().iter().enumerate() {
            let next = s.fsm.next(fsm, m);
            if next == FORBIDDEN {
                continue;
            }
            let (cur, rest) = self.stack.split_at_mut((level + 1) * len);
            let _ = rest;
            let kid = &mut self.kids[(base + count) * len..(base + count + 1) * len];
            mv.sparse.apply(&cur[level * len..], kid);
            if !s.illegal.is_empty() && !s.legal(kid) {
                continue;
            }
            self.kid_move[base + count] = m as u16;
            self.kid_next[base + count] = next;
            self.alive[base + count] = count as u16;
            count += 1;
        }
        self.alive_count[level] = count;
        // Judge them, table by table, then on their inverses.
        let bound = remaining - 1;
        for (ti, t) in s.tables.iter().enumerate() {
            if self.alive_count[level] == 0 {
                break;
            }
            // (A table whose entries are all within the bound cannot
            // prune: skipped, unless its coordinates must be carried.)
            match self.coord_at[ti] {
                Some(at) => self.prune_carried(level, ti, at, bound),
                None if (t.max_entry() as u32) > bound => self.prune_with(level, t, false, bound),
                None => {}
            }
        }
        // The hashed table's entries are at most one more than its depth.
        let hashed = s.hashed.as_ref().filter(|h| h.depth() as u32 >= bound);
        if let Some(h) = hashed {
            if self.alive_count[level] > 0 {
                self.prune_with(level, h, false, bound);
            }
        }
        if s.inverse_ok && self.alive_count[level] > 0 {
            for a in 0..self.alive_count[level] {
                let c = self.alive[base + a] as usize;
                let (kids, inv) = (
                    &self.kids[(base + c) * len..(base + c + 1) * len],
                    &mut self.inverse[c * len..(c + 1) * len],
                );
                s.layout.invert_into(kids, inv);
            }
            for t in s.tables.iter().filter(|t| (t.max_entry() as u32) > bound) {
                if self.alive_count[level] == 0 {
                    break;
                }
                self.prune_with(level, t, true, bound);
            }
            if let Some(h) = hashed {
                if self.alive_count[level] > 0 {
                    self.prune_with(level, h, true, bound);
                }
            }
        }
        // The survivors' move-table rows, asked for now, arrive while the
        // subtrees before them are searched (a large table's rows, the
        // 4x4x4's edges' say, are a cache miss a node otherwise). Leaves
        // move no further: theirs are not asked for.
        let alive_inner = if remaining > 1 {
            self.alive_count[level]
        } else {
            0
        };
        for a in 0..alive_inner {
            let c = self.alive[base + a] as usize;
            let coords = &self.kid_coords[(base + c) * self.coords..][..self.coords];
            for (t, at) in s.tables.iter().zip(&self.coord_at) {
                if let Some(at) = *at {
                    let p = t.projection();
                    p.prefetch_rows(&coords[at..at + p.num_coords()]);
                }
            }
        }
        // Descend into the survivors, in move order.
        for a in 0..self.alive_count[level] {
            let c = self.alive[base + a] as usize;
            let (head, tail) = self.stack.split_at_mut((level + 1) * len);
            let _ = head;
            tail[..len].copy_from_slice(&self.kids[(base + c) * len..(base + c + 1) * len]);
            let tc = self.coords;
            self.node_coords[(level + 1) * tc..(level + 2) * tc]
                .copy_from_slice(&self.kid_coords[(base + c) * tc..(base + c + 1) * tc]);
            self.path.push(self.kid_move[base + c] as usize);
            let aborted = self.dfs(
                level + 1,
                remaining - 1,
                self.kid_next[base + c],
                need,
                abort,
            );
            self.path.pop();
            if aborted {
                return true;
            }
            if self.solutions.len() >= need {
                return false;
            }
        }
        false
    }
}
