//! The coset solver itself: phase-1 sequences into the set, then
//! breadth-first expansion row by row until every position has its depth.

use super::*;

impl CosetSolver {
    /// The solver with the exact phase-1 distance table (70 MB) from
    /// `store`, built (seconds) and kept there if missing.
    pub fn load(store: &dyn TableStore, report: &mut dyn FnMut(StoreEvent)) -> CosetSolver {
        let coord = CoordTables::get();
        let table = phase1_table(store, report);
        CosetSolver {
            coord,
            bound: Phase1Bound::build(coord, Some(table)),
            t: CosetTables::build(coord),
        }
    }

    /// The solver with small projection tables (2 MB, built in a fraction
    /// of a second) as the phase-1 bound: the same answers, found slower
    /// past a dozen moves.
    pub fn compact() -> CosetSolver {
        let coord = CoordTables::get();
        CosetSolver {
            coord,
            bound: Phase1Bound::build(coord, None),
            t: CosetTables::build(coord),
        }
    }

    /// Whether the phase-1 bound is the compact projections alone.
    pub fn is_compact(&self) -> bool {
        self.bound.full.is_none()
    }

    /// Bytes of the solver's own tables (the shared coordinate tables not
    /// included).
    pub fn size_bytes(&self) -> usize {
        let b = &self.bound;
        b.full.as_ref().map_or(0, |t| t.size_bytes())
            + b.slice_twist.len()
            + b.slice_flip.len()
            + 8 * b.near.slots.len()
            + self.t.size_bytes()
    }

    /// Bytes the two dense sets take.
    pub const DENSE_BYTES: u64 = DENSE_BYTES;

    /// Lower bound on the phase-1 distance (exact with the full table).
    #[inline(always)]
    pub(super) fn bound(&self, twist: usize, flip: usize, slice: usize) -> usize {
        match &self.bound.full {
            Some(t) => {
                let c = self.coord;
                let p = c.flipslice().packed[slice * N_FLIP + flip] as usize;
                t.get((p >> 4) * N_TWIST + c.twist_conj[twist * 16 + (p & 15)] as usize) as usize
            }
            None => self.bound.projected(twist, flip, slice) as usize,
        }
    }

    pub(super) fn node(g: &CubieCube) -> Node {
        Node {
            twist: coord::twist(g),
            flip: coord::flip(g),
            slice_sorted: coord::slice_sorted(g),
            corners: coord::corners(g),
            u_edges: edge4(g, 0),
            d_edges: edge4(g, 4),
        }
    }

    #[inline(always)]
    pub(super) fn apply(&self, n: &Node, m: usize) -> Node {
        let c = self.coord;
        Node {
            twist: c.twist_move[n.twist as usize * N_MOVES + m],
            flip: c.flip_move[n.flip as usize * N_MOVES + m],
            slice_sorted: c.slice_sorted_move[n.slice_sorted as usize * N_MOVES + m],
            corners: c.corners_move[n.corners as usize * N_MOVES + m],
            u_edges: self.t.u_move[n.u_edges as usize * N_MOVES + m],
            d_edges: self.t.d_move[n.d_edges as usize * N_MOVES + m],
        }
    }

    /// UD-edge permutation of a node in `H`.
    #[inline(always)]
    pub(super) fn ud_edges(&self, n: &Node) -> u16 {
        let ud = self.t.merge[n.u_edges as usize * 24 + n.d_edges as usize % 24];
        debug_assert!(ud != u16::MAX);
        ud
    }

    /// Every canonical continuation of `node` by exactly `remaining`
    /// moves that ends in `H` with a quarter turn of R, F, L or B, to
    /// `sink`.
    pub(super) fn dfs<S: LeafSink>(
        &self,
        node: &Node,
        remaining: usize,
        last_face: usize,
        sink: &mut S,
    ) {
        let c = self.coord;
        if remaining == 1 {
            for &m in &QUARTER_RFLB {
                if !face_allowed(m, last_face)
                    || c.twist_move[node.twist as usize * N_MOVES + m] != 0
                    || c.flip_move[node.flip as usize * N_MOVES + m] != 0
                    || c.slice_sorted_move[node.slice_sorted as usize * N_MOVES + m] as usize
                        >= N_SLICE_PERM
                {
                    continue;
                }
                let child = self.apply(node, m);
                sink.leaf(child.corners, self.ud_edges(&child), child.slice_sorted);
            }
            return;
        }
        // Children's phase-1 coordinates first, then their bounds in a loop
        // of their own (the table reads' cache misses overlap), then the
        // recursion.
        let mut kids = [(0u8, 0u16, 0u16, 0u16); N_MOVES];
        let mut n = 0;
        for m in 0..N_MOVES {
            if !face_allowed(m, last_face) {
                continue;
            }
            kids[n] = (
                m as u8,
                c.twist_move[node.twist as usize * N_MOVES + m],
                c.flip_move[node.flip as usize * N_MOVES + m],
                c.slice_sorted_move[node.slice_sorted as usize * N_MOVES + m],
            );
            n += 1;
        }
        let next = remaining - 1;
        let mut h = [u8::MAX; N_MOVES];
        if next <= NEAR {
            // Exact, from the small table of cosets near H.
            for i in 0..n {
                let (_, tw, fl, ss) = kids[i];
                h[i] = self
                    .bound
                    .near
                    .get(tw as usize, fl as usize, ss as usize / 24)
                    .unwrap_or(u8::MAX);
            }
            return self.descend(node, &kids[..n], &h, next, sink);
        }
        // The projections first (in cache); the full table only where they
        // do not prune.
        for i in 0..n {
            let (_, tw, fl, ss) = kids[i];
            h[i] = self
                .bound
                .projected(tw as usize, fl as usize, ss as usize / 24);
        }
        if let Some(t) = &self.bound.full {
            let mut idx = [0usize; N_MOVES];
            let mut which = [0usize; N_MOVES];
            let mut k = 0;
            for i in 0..n {
                if h[i] as usize > next {
                    continue;
                }
                let (_, tw, fl, ss) = kids[i];
                let p = c.flipslice().packed[ss as usize / 24 * N_FLIP + fl as usize] as usize;
                idx[k] = (p >> 4) * N_TWIST + c.twist_conj[tw as usize * 16 + (p & 15)] as usize;
                which[k] = i;
                k += 1;
            }
            for j in 0..k {
                h[which[j]] = t.get(idx[j]);
            }
        }
        self.descend(node, &kids[..n], &h, next, sink)
    }

    /// Recurses into the children whose bound allows a phase-1 solution
    /// in `next` more moves.
    #[inline(always)]
    pub(super) fn descend<S: LeafSink>(
        &self,
        node: &Node,
        kids: &[(u8, u16, u16, u16)],
        h: &[u8; N_MOVES],
        next: usize,
        sink: &mut S,
    ) {
        for (i, kid) in kids.iter().enumerate() {
            let h = h[i] as usize;
            // In H with one move left: a quarter turn leaves H.
            if h > next || (next == 1 && h == 0) {
                continue;
            }
            let m = kid.0 as usize;
            let child = self.apply(node, m);
            self.dfs(&child, next, m / 3, sink);
        }
    }

    /// The nodes `len` moves from `root` (canonical, within the bound of
    /// a phase-1 solution of `n` moves), with their last faces: the
    /// independent tasks of the phase-1 search.
    pub(super) fn prefixes(&self, root: Node, n: usize, len: usize) -> Vec<(Node, usize)> {
        let mut level = vec![(root, NO_FACE)];
        for d in 0..len {
            let left = n - d - 1;
            let mut next = Vec::with_capacity(level.len() * 13);
            for (node, last) in level {
                for m in 0..N_MOVES {
                    if !face_allowed(m, last) {
                        continue;
                    }
                    let child = self.apply(&node, m);
                    let h = self.bound(
                        child.twist as usize,
                        child.flip as usize,
                        child.slice_sorted as usize / 24,
                    );
                    if h > left || (left == 1 && h == 0) {
                        continue;
                    }
                    next.push((child, m / 3));
                }
            }
            level = next;
        }
        level
    }

    /// Phase-1 solutions of exactly `n` moves (n ≥ 1) of `root`, each
    /// task's leaves to a sink made by `make`; the sinks come back.
    pub(super) fn phase1<S: LeafSink + Send>(
        &self,
        root: Node,
        n: usize,
        stop: &AtomicBool,
        make: impl Fn() -> S + Sync + Send,
    ) -> Vec<S> {
        let len = (n - 1).min(if n >= 12 { 4 } else { 3 });
        let tasks = self.prefixes(root, n, len);
        tasks
            .par_iter()
            .with_max_len(1)
            .map(|(node, last)| {
                let mut sink = make();
                if !stop.load(Ordering::Relaxed) {
                    self.dfs(node, n - len, *last, &mut sink);
                }
                sink
            })
            .collect()
    }

    /// Solves the coset of `g`: the distances of the positions `x` with
    /// `g·x ∈ H` (see [`CosetSolver`]), depth by depth
    /// until the coset is full or `options.max_depth`, each depth reported
    /// to `progress` as it is done. Raising `stop` ends the solve at the
    /// next check with [`CosetError::Stopped`] and what was done.
    pub fn solve(
        &self,
        g: &CubieCube,
        options: &CosetOptions,
        progress: &mut dyn FnMut(CosetEvent),
        stop: &AtomicBool,
    ) -> Result<CosetReport, CosetError> {
        self.solve_in(&mut CosetWorkspace::new(), g, options, progress, stop)
    }

    /// [`solve`](Self::solve) with the dense sets kept in `workspace`
    /// (reused if it holds them, left there afterwards): for solving many
    /// cosets. The memory limit counts what the workspace holds.
    pub fn solve_in(
        &self,
        workspace: &mut CosetWorkspace,
        g: &CubieCube,
        options: &CosetOptions,
        progress: &mut dyn FnMut(CosetEvent),
        stop: &AtomicBool,
    ) -> Result<CosetReport, CosetError> {
        g.validate()?;
        let exec = Exec {
            pool: match options.threads {
                0 => None,
                n => Some(
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(n)
                        .build()
                        .map_err(|source| CosetError::Threads { threads: n, source })?,
                ),
            },
        };
        let started = Instant::now();
        let root = Self::node(g);
        let mut report = CosetReport {
            coset: CosetId::of(g),
            counts: Vec::new(),
            exact_through: None,
            remaining: COSET_SIZE,
            phase1_leaves: Vec::new(),
            seconds: Vec::new(),
            phase1_seconds: Vec::new(),
            dense_from: None,
            peak_bytes: 0,
            total_seconds: 0.0,
        };
        let limit = options.memory_limit;
        // Depth 0: g itself, if it is in H.
        let in_h = root.twist == 0 && root.flip == 0 && (root.slice_sorted as usize) < N_SLICE_PERM;
        let first: Vec<u64> = if in_h {
            vec![key(root.corners, self.ud_edges(&root), root.slice_sorted)]
        } else {
            Vec::new()
        };
        if limit < 16 {
            return Err(CosetError::MemoryLimit {
                depth: 0,
                needed: 16,
                limit,
            });
        }
        let mut found = first.len() as u64;
        // The sorted lists, until the sets become the workspace's bitmaps.
        let mut sparse = Some(Sparse {
            all: first.clone(),
            last: first,
        });
        let reserved = workspace.reserved_bytes();
        report.peak_bytes = reserved + 16;
        self.record(
            &mut report,
            options,
            progress,
            0,
            found,
            found,
            (in_h as u64, 0.0),
            started,
            false,
        );
        for n in 1..=options.max_depth {
            if found == COSET_SIZE {
                break;
            }
            if stop.load(Ordering::Relaxed) {
                report.total_seconds = started.elapsed().as_secs_f64();
                return Err(CosetError::Stopped {
                    partial: Box::new(report),
                });
            }
            let t0 = Instant::now();
            let with_phase1 = n <= options.phase1_depth;
            // Nothing new and no phase-1 solutions to come: the set is final.
            if let Some(s) = &sparse {
                if s.last.is_empty() && !with_phase1 {
                    break;
                }
            }
            let estimate = if with_phase1 {
                report
                    .phase1_leaves
                    .last()
                    .copied()
                    .unwrap_or(0)
                    .max(1 << 12)
                    * 16
            } else {
                0
            };
            if let Some(s) = &sparse {
                let cand = 10 * s.last.len() as u64 + estimate;
                let sparse_bytes =
                    reserved + 8 * (2 * s.all.len() as u64 + s.last.len() as u64 + 2 * cand);
                // The list is read into the bitmaps, so both are held a while.
                let dense_bytes = DENSE_BYTES + 8 * s.all.len() as u64;
                let sparse_fits = sparse_bytes <= limit;
                let dense_fits = dense_bytes <= limit;
                let go_dense = if cand <= options.sparse_limit && sparse_fits {
                    false
                } else if dense_fits {
                    true
                } else if sparse_fits {
                    false
                } else {
                    return Err(CosetError::MemoryLimit {
                        depth: n,
                        needed: sparse_bytes.min(dense_bytes),
                        limit,
                    });
                };
                if go_dense {
                    progress(CosetEvent::Dense {
                        depth: n,
                        bytes: DENSE_BYTES,
                    });
                    exec.run(|| self.to_dense(s, workspace))?;
                    report.dense_from = Some(n);
                    report.peak_bytes = report.peak_bytes.max(dense_bytes);
                } else {
                    report.peak_bytes = report.peak_bytes.max(sparse_bytes);
                }
            }
            if report.dense_from.is_some() {
                sparse = None;
            }
            let (count, leaves, p1_seconds) = match (&mut sparse, &mut workspace.dense) {
                (Some(s), _) => {
                    let (count, leaves, p1, bytes) =
                        exec.run(|| self.sparse_step(s, root, n, with_phase1, stop));
                    report.peak_bytes = report.peak_bytes.max(reserved + bytes);
                    (count, leaves, p1)
                }
                (None, Some(d)) => exec.run(|| self.dense_step(d, root, n, with_phase1, stop)),
                (None, None) => unreachable!("the sets are either lists or bitmaps"),
            };
            if stop.load(Ordering::Relaxed) {
                report.total_seconds = started.elapsed().as_secs_f64();
                return Err(CosetError::Stopped {
                    partial: Box::new(report),
                });
            }
            found += count;
            self.record(
                &mut report,
                options,
                progress,
                n,
                count,
                found,
                (leaves, p1_seconds),
                t0,
                sparse.is_none(),
            );
            if count == 0 && !with_phase1 {
                break;
            }
        }
        report.total_seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// Adds depth `n`'s results to the report and tells `progress`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record(
        &self,
        report: &mut CosetReport,
        options: &CosetOptions,
        progress: &mut dyn FnMut(CosetEvent),
        n: usize,
        count: u64,
        found: u64,
        (leaves, p1_seconds): (u64, f64),
        t0: Instant,
        dense: bool,
    ) {
        let exact = n <= options.phase1_depth;
        if exact {
            report.exact_through = Some(n);
        }
        let seconds = t0.elapsed().as_secs_f64();
        report.counts.push(count);
        report.phase1_leaves.push(leaves);
        report.seconds.push(seconds);
        report.phase1_seconds.push(p1_seconds);
        report.remaining = COSET_SIZE - found;
        progress(CosetEvent::Depth(DepthStats {
            depth: n,
            count,
            found,
            exact,
            phase1_leaves: leaves,
            phase1_seconds: p1_seconds,
            seconds,
            dense,
        }));
    }

    /// One depth on sorted lists: returns the positions added, the
    /// phase-1 leaves, the phase-1 seconds and the bytes held at the peak.
    pub(super) fn sparse_step(
        &self,
        s: &mut Sparse,
        root: Node,
        n: usize,
        with_phase1: bool,
        stop: &AtomicBool,
    ) -> (u64, u64, f64, u64) {
        let c = self.coord;
        let mut cand: Vec<u64> = s
            .last
            .par_iter()
            .flat_map_iter(|&k| {
                let (co, e, p) = unkey(k);
                PHASE2_MOVES.iter().map(move |&m| {
                    let m = m as usize;
                    key(
                        c.corners_move[co * N_MOVES + m],
                        c.ud_edges_move[e * N_MOVES + m],
                        c.slice_sorted_move[p * N_MOVES + m],
                    )
                })
            })
            .collect();
        let t1 = Instant::now();
        let mut leaves = 0u64;
        if with_phase1 {
            let sinks = self.phase1(root, n, stop, || ListSink { keys: Vec::new() });
            for sink in sinks {
                leaves += sink.keys.len() as u64;
                cand.extend_from_slice(&sink.keys);
            }
        }
        let p1_seconds = t1.elapsed().as_secs_f64();
        cand.par_sort_unstable();
        cand.dedup();
        // The new positions: candidates not in the set.
        let mut fresh = Vec::with_capacity(cand.len());
        let mut i = 0;
        for &k in &cand {
            while i < s.all.len() && s.all[i] < k {
                i += 1;
            }
            if i >= s.all.len() || s.all[i] != k {
                fresh.push(k);
            }
        }
        let bytes =
            8 * (s.all.capacity() + s.last.capacity() + cand.capacity() + fresh.capacity()) as u64;
        drop(cand);
        let mut all = Vec::with_capacity(s.all.len() + fresh.len());
        let (mut i, mut j) = (0, 0);
        while i < s.all.len() || j < fresh.len() {
            if j >= fresh.len() || (i < s.all.len() && s.all[i] < fresh[j]) {
                all.push(s.all[i]);
                i += 1;
            } else {
                all.push(fresh[j]);
                j += 1;
            }
        }
        let bytes = bytes.max(8 * (s.all.capacity() + all.capacity() + fresh.capacity()) as u64);
        let count = fresh.len() as u64;
        s.all = all;
        s.last = fresh;
        (count, leaves, p1_seconds, bytes)
    }

    /// The dense sets for the sparse ones: every position in `x`, every
    /// nonempty block flagged (as if all had just been found), `y` empty.
    pub(super) fn to_dense(
        &self,
        s: &Sparse,
        workspace: &mut CosetWorkspace,
    ) -> Result<(), CosetError> {
        let reused = workspace.dense.is_some();
        if !reused {
            // A million positions or more will spread over most pages.
            let huge = s.all.len() >= 1 << 20;
            workspace.dense = Some(Box::new(Dense {
                x: Bitmap::new(huge)?,
                y: Bitmap::new(huge)?,
                x_flags: atomics64(N_CORNERS * FLAG_WORDS),
                y_flags: atomics64(N_CORNERS * FLAG_WORDS),
                x_rows: atomics32(N_CORNERS),
                y_rows: atomics32(N_CORNERS),
            }));
        }
        let Some(d) = workspace.dense.as_mut() else {
            unreachable!("just made");
        };
        if reused {
            // Fresh maps are zero; these hold an old solve, whose row
            // counts say which rows hold anything.
            let y_rows = &d.y_rows;
            d.y.cells_mut()
                .par_chunks_mut(N_UD_EDGES)
                .enumerate()
                .for_each(|(c, row)| {
                    if y_rows[c].load(Ordering::Relaxed) != 0 {
                        row.fill(0);
                    }
                });
        }
        let (flags, rows) = (&d.x_flags, &d.x_rows);
        let all = &s.all;
        d.x.cells_mut()
            .par_chunks_mut(N_UD_EDGES)
            .enumerate()
            .for_each(|(c, cells)| {
                if reused && rows[c].load(Ordering::Relaxed) != 0 {
                    cells.fill(0);
                }
                // The list is sorted, corners first.
                let from = all.partition_point(|&k| k < key(c as u16, 0, 0));
                let to = all.partition_point(|&k| k < key(c as u16 + 1, 0, 0));
                let mut f = [0u64; FLAG_WORDS];
                for &k in &all[from..to] {
                    let (_, e, p) = unkey(k);
                    cells[e] |= 1 << self.t.slice_bit[p];
                    let block = e / BLOCK;
                    f[block / 64] |= 1 << (block % 64);
                }
                for (w, &word) in f.iter().enumerate() {
                    flags[c * FLAG_WORDS + w].store(word, Ordering::Relaxed);
                }
                rows[c].store((to - from) as u32, Ordering::Relaxed);
            });
        Ok(())
    }

    /// One depth on the dense sets: the positions added, the phase-1
    /// leaves and the phase-1 seconds. Afterwards `x` holds the new set.
    pub(super) fn dense_step(
        &self,
        d: &mut Dense,
        root: Node,
        n: usize,
        with_phase1: bool,
        stop: &AtomicBool,
    ) -> (u64, u64, f64) {
        let t = &self.t;
        let xs = d.x.cells();
        let (x_flags, y_flags) = (&d.x_flags, &d.y_flags);
        let (x_rows, y_rows) = (&d.x_rows, &d.y_rows);
        let added: u64 = d
            .y
            .cells_mut()
            .par_chunks_mut(N_UD_EDGES)
            .enumerate()
            .map(|(target, dst)| {
                if stop.load(Ordering::Relaxed) {
                    return 0;
                }
                let own = load_flags(x_flags, target);
                let mut any = own.iter().any(|&w| w != 0);
                let mut sources = [(0usize, [0u64; FLAG_WORDS]); 10];
                for (i, mv) in t.moves.iter().enumerate() {
                    let c = mv.corner_src[target] as usize;
                    let f = load_flags(x_flags, c);
                    any |= f.iter().any(|&w| w != 0);
                    sources[i] = (c, f);
                }
                let before = x_rows[target].load(Ordering::Relaxed);
                if !any {
                    // Nothing near changed: the row is as it was, in both sets.
                    for w in 0..FLAG_WORDS {
                        y_flags[target * FLAG_WORDS + w].store(0, Ordering::Relaxed);
                    }
                    y_rows[target].store(before, Ordering::Relaxed);
                    return 0;
                }
                // The blocks that changed last step are stale here.
                let row = &xs[target * N_UD_EDGES..][..N_UD_EDGES];
                for (w, &word) in own.iter().enumerate() {
                    let mut bits = word;
                    while bits != 0 {
                        let b = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        let r = b * BLOCK..(b + 1) * BLOCK;
                        dst[r.clone()].copy_from_slice(&row[r]);
                    }
                }
                let mut gained = [0u64; FLAG_WORDS];
                let mut added = 0u64;
                if before < FULL_ROW {
                    for (i, mv) in t.moves.iter().enumerate() {
                        let (c, f) = &sources[i];
                        if f.iter().all(|&w| w == 0) {
                            continue;
                        }
                        let src = &xs[c * N_UD_EDGES..][..N_UD_EDGES];
                        let parity = t.corner_parity[*c] as u32;
                        // Mostly empty cells: test each.
                        let sparse = (x_rows[*c].load(Ordering::Relaxed) as usize) < N_UD_EDGES / 8;
                        let edges = &mv.edges;
                        match (&mv.slice_sets, sparse) {
                            (Some(sets), true) => {
                                expand_row::<true, true>(src, f, edges, sets, parity, dst)
                            }
                            (Some(sets), false) => {
                                expand_row::<true, false>(src, f, edges, sets, parity, dst)
                            }
                            (None, true) => {
                                expand_row::<false, true>(src, f, edges, &[], parity, dst)
                            }
                            (None, false) => {
                                expand_row::<false, false>(src, f, edges, &[], parity, dst)
                            }
                        }
                    }
                    added = row_gain(dst, row, &mut gained);
                }
                for w in 0..FLAG_WORDS {
                    y_flags[target * FLAG_WORDS + w].store(gained[w], Ordering::Relaxed);
                }
                y_rows[target].store(before + added as u32, Ordering::Relaxed);
                added
            })
            .sum();
        let t1 = Instant::now();
        let mut leaves = 0u64;
        let mut from_leaves = 0u64;
        if with_phase1 && !stop.load(Ordering::Relaxed) {
            let cells = d.y.atomic();
            let sinks = self.phase1(root, n, stop, || DenseSink {
                cells,
                flags: y_flags,
                rows: y_rows,
                slice_bit: &t.slice_bit,
                leaves: 0,
                added: 0,
            });
            for s in sinks {
                leaves += s.leaves;
                from_leaves += s.added;
            }
        }
        let p1_seconds = t1.elapsed().as_secs_f64();
        std::mem::swap(&mut d.x, &mut d.y);
        std::mem::swap(&mut d.x_flags, &mut d.y_flags);
        std::mem::swap(&mut d.x_rows, &mut d.y_rows);
        (added + from_leaves, leaves, p1_seconds)
    }
}
