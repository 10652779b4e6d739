//! The search: six interleaved IDA* searches (three axes, the cube and its
//! inverse), phase-1 length by phase-1 length, each phase-1 solution
//! handed to phase 2.

use super::*;

/// One of the six views of the cube.
#[derive(Clone, Copy)]
pub(super) struct Direction {
    pub(super) cube: CubieCube,
    /// Symmetry conjugated by (0, 16 or 32).
    pub(super) sym: usize,
    pub(super) inverse: bool,
}

pub(super) struct Search<'a> {
    pub(super) t: &'a TwoPhaseTables,
    pub(super) dir: Direction,
    pub(super) moves1: [u8; MAX_LEN],
    pub(super) moves2: [u8; MAX_LEN],
    /// `cubes[i]` is the direction's cube after the first `i` phase-1 moves,
    /// valid for `i <= valid`.
    pub(super) cubes: [CubieCube; MAX_LEN + 1],
    pub(super) valid: usize,
    /// Phase 1's length, and the pre-moves' (see [`Search::with_pre_moves`]).
    pub(super) len1: usize,
    pub(super) pre: [u8; MAX_LEN],
    pub(super) npre: usize,
    pub(super) bound: usize,
    pub(super) found: Option<usize>,
    pub(super) probes: u64,
    pub(super) nodes1: u64,
    pub(super) nodes2: u64,
    pub(super) probe_limit: u64,
    pub(super) deadline: Option<Instant>,
    pub(super) stopped: bool,
    /// How far the last probe's phase-2 bound was past the moves phase 2
    /// had (0 when phase 2 was searched): see `phase1_compact`.
    pub(super) excess: usize,
    /// The most moves phase 2 may take in this pass.
    pub(super) phase2_cap: usize,
}

/// Phase 2's length in the first pass: longer ones are rarely needed and
/// cost the most (min2phase's `MAX_DEPTH2`); a second pass over the
/// phase-1 lengths it cut short keeps the search complete.
pub(super) const PHASE2_CAP: usize = 12;

/// Phase 1's shortest length beside pre-moves (min2phase's).
pub(super) const MIN_PHASE1_WITH_PRE_MOVES: usize = 7;

/// The previous face at length 0: none. Not 6, which `face_allowed`
/// would read as "after L" (D's face plus 3) and so forbid D first.
pub(crate) const NO_FACE: usize = 9;

#[inline]
pub(crate) const fn face_allowed(m: usize, last_face: usize) -> bool {
    let f = m / 3;
    // No face twice in a row; opposite faces only in URF-before-DLB order.
    !(f == last_face || f + 3 == last_face)
}

/// `FACES_AFTER[face]`: the faces (as bits) that may not turn right after
/// `face`, by [`face_allowed`], as phase 2's loop tests them.
pub(super) const FACES_AFTER: [u8; 6] = {
    let mut t = [0u8; 6];
    let mut face = 0;
    while face < 6 {
        let mut f = 0;
        while f < 6 {
            if !face_allowed(f * 3, face) {
                t[face] |= 1 << f;
            }
            f += 1;
        }
        face += 1;
    }
    t
};

/// R, F, L or B turned clockwise.
#[inline]
pub(super) fn is_clockwise_quarter_off_phase2(m: usize) -> bool {
    m % 3 == 0 && !is_phase2_move(m)
}

#[inline]
pub(super) fn is_phase2_move(m: usize) -> bool {
    // U and D turns, and half turns of the others.
    let f = m / 3;
    f == 0 || f == 3 || m % 3 == 1
}

impl<'a> Search<'a> {
    /// A search of `dir` for answers within `bound` moves, phase 2 capped
    /// at `phase2_cap`, with no probe or time limit.
    pub(super) fn new(
        t: &'a TwoPhaseTables,
        dir: Direction,
        bound: usize,
        phase2_cap: usize,
    ) -> Search<'a> {
        let mut cubes = [CubieCube::SOLVED; MAX_LEN + 1];
        cubes[0] = dir.cube;
        Search {
            t,
            dir,
            moves1: [0; MAX_LEN],
            moves2: [0; MAX_LEN],
            cubes,
            valid: 0,
            len1: 0,
            pre: [0; MAX_LEN],
            npre: 0,
            bound,
            found: None,
            probes: 0,
            nodes1: 0,
            nodes2: 0,
            probe_limit: u64::MAX,
            deadline: None,
            stopped: false,
            excess: 0,
            phase2_cap,
        }
    }

    /// Searches phase 1 from a cube's coordinates within `self.len1`
    /// moves.
    pub(super) fn start_phase1(&mut self, coords: &Phase1Coords) -> bool {
        match &self.t.prune {
            Prune::Compact(cp) => {
                let view = cp.phase1_view(self.t.coord);
                let at = cp.phase1_at(self.t.coord, coords);
                self.phase1_compact(&view, at, 0, NO_FACE)
            }
            Prune::Full { .. } => self.phase1(coords.twist, coords.flip, coords.slice, 0, NO_FACE),
        }
    }

    /// Phase 1 with the full tables.
    pub(super) fn phase1(
        &mut self,
        twist: usize,
        flip: usize,
        slice: usize,
        depth: usize,
        last_face: usize,
    ) -> bool {
        let remaining = self.len1 - depth;
        if remaining == 0 {
            // Every table's only 0 is the goal, full or compact.
            debug_assert!(twist == 0 && flip == 0 && slice == 0);
            return self.start_phase2(last_face, self.max2());
        }
        if remaining < 5 && twist | flip | slice == 0 && self.probe_shorter(depth, last_face) {
            return true;
        }
        self.nodes1 += 1;
        let t = self.t;
        let Prune::Full { phase1, .. } = &t.prune else {
            return false;
        };
        let c = self.t.coord;
        // The full table is large: children first, table reads in a tight
        // loop of their own so the processor overlaps their cache misses,
        // then the recursion.
        let mut kids = [(0u8, 0u16, 0u16, 0u16); N_MOVES];
        let mut n = 0;
        for m in 0..N_MOVES {
            if !face_allowed(m, last_face) {
                continue;
            }
            // A phase-1 solution ending in a phase-2 move was already tried
            // one move shorter.
            if remaining == 1 && is_phase2_move(m) {
                continue;
            }
            let tw = c.twist_move[twist * N_MOVES + m];
            let fl = c.flip_move[flip * N_MOVES + m];
            let sl = c.slice_move[slice * N_MOVES + m];
            kids[n] = (m as u8, tw, fl, sl);
            n += 1;
        }
        let mut h = [0u8; N_MOVES];
        let mut idx = [0usize; N_MOVES];
        for i in 0..n {
            let (_, tw, fl, sl) = kids[i];
            idx[i] = self.t.phase1_index(tw as usize, fl as usize, sl as usize);
        }
        for i in 0..n {
            h[i] = phase1.get(idx[i]);
        }
        for i in 0..n {
            if h[i] as usize >= remaining {
                continue;
            }
            let (m, tw, fl, sl) = kids[i];
            self.moves1[depth] = m;
            if self.valid > depth {
                self.valid = depth;
            }
            if self.phase1(
                tw as usize,
                fl as usize,
                sl as usize,
                depth + 1,
                m as usize / 3,
            ) {
                return true;
            }
            if self.stopped {
                return true;
            }
        }
        false
    }

    /// Phase 1 with the compact tables, which stay in the processor's
    /// caches: each child is bounded and searched at once, cheapest bound
    /// first. The three turns of a face are each one move from the others,
    /// so a bound above `remaining` for one leaves the face's later turns
    /// at least `remaining`: pruned unread (min2phase's axis skip).
    pub(super) fn phase1_compact(
        &mut self,
        v: &Phase1View,
        at: Phase1At,
        depth: usize,
        last_face: usize,
    ) -> bool {
        let Phase1At {
            twist,
            flip,
            slice,
            quarter: (twist_q, flip_q),
        } = at;
        let remaining = self.len1 - depth;
        if remaining == 0 {
            return self.start_phase2(last_face, self.max2());
        }
        // Classes 0 hold only the solved twist and flip.
        if remaining < 5
            && (twist >> 3) | (flip >> 3) | slice == 0
            && self.probe_shorter(depth, last_face)
        {
            return true;
        }
        self.nodes1 += 1;
        // This node's rows of the move tables: one bounds check each.
        let (te, fe) = (twist & 7, flip & 7);
        let twist_row = &v.twist_move[(twist >> 3) * N_MOVES..][..N_MOVES];
        let flip_row = &v.flip_move[(flip >> 3) * N_MOVES..][..N_MOVES];
        let (twist_sym, flip_sym) = (&v.sym_move[te], &v.sym_move[fe]);
        let slice_row = v.slice_twist.row(slice);
        // Face by face (min2phase's loop): a bound past the moves left
        // after one turn of a face rules out its other turns too.
        for face in 0..6 {
            // No face twice in a row; opposite faces only in URF-before-DLB order.
            if face == last_face || face + 3 == last_face {
                continue;
            }
            for m in face * 3..face * 3 + 3 {
                // A phase-1 solution ending in a phase-2 move was already
                // tried one move shorter.
                if remaining == 1 && is_phase2_move(m) {
                    continue;
                }
                // The class's representative moved by the move turned by
                // the symmetry, then turned back (an XOR: see E8).
                let tw = twist_row[twist_sym[m] as usize] as usize ^ te;
                let fl = flip_row[flip_sym[m] as usize] as usize ^ fe;
                let sl = slice_row[m] as usize;
                let mut quarter = (0, 0);
                if remaining == 1 {
                    // Only the goal itself will do: classes 0 (which hold
                    // only the solved twist and flip) and slice 0.
                    if (tw >> 3) | (fl >> 3) | sl != 0 {
                        continue;
                    }
                } else {
                    let mut h = v.bound3(tw, fl, sl) as usize;
                    if h < remaining {
                        // The quarter-turned cube moves by the quarter-turned
                        // move: its coordinates are carried, not recomputed.
                        let mq = v.quarter_move[m] as usize;
                        quarter = (
                            v.step(v.twist_move, twist_q, mq),
                            v.step(v.flip_move, flip_q, mq),
                        );
                        h = h.max(v.twist_flip(quarter.0, quarter.1) as usize);
                    }
                    if h > remaining {
                        break;
                    }
                    if h == remaining {
                        continue;
                    }
                }
                self.moves1[depth] = m as u8;
                if self.valid > depth {
                    self.valid = depth;
                }
                let child = Phase1At {
                    twist: tw,
                    flip: fl,
                    slice: sl,
                    quarter,
                };
                if self.phase1_compact(v, child, depth + 1, face) || self.stopped {
                    return true;
                }
                // The face's other quarter turn ends phase 1 in this cube
                // times the face's half turn, a phase-2 move, which lowers
                // a phase-2 bound by at most one: when this probe's bound
                // was two or more past the moves phase 2 had, the other
                // turn's probe would fail too (min2phase's skip).
                if remaining == 1 && self.excess >= 2 {
                    break;
                }
            }
        }
        false
    }

    /// At a node of a phase-1 search after pre-moves that reaches phase
    /// 2's group with fewer than 5 of its moves left: when the search is
    /// one of the shortest phase 1s pre-moves allow, searches phase 2
    /// from here within the moves a full-length phase 1 would leave it
    /// (min2phase's `allowShorter`). Pre-moves and a phase 1 shorter than
    /// [`MIN_PHASE1_WITH_PRE_MOVES`] are otherwise never tried, and a
    /// cube one pre-move from such a pair is solved one length sooner.
    /// The node is expanded as usual afterwards, so every phase-1
    /// solution is still tried.
    pub(super) fn probe_shorter(&mut self, depth: usize, last_face: usize) -> bool {
        if !(self.npre > 0 && self.len1 == MIN_PHASE1_WITH_PRE_MOVES) || depth == 0 {
            return false;
        }
        let (full, max2) = (self.len1, self.max2());
        self.len1 = depth;
        if self.start_phase2(last_face, max2) {
            // The solution reads this phase 1's length.
            return true;
        }
        self.len1 = full;
        self.stopped
    }

    /// The most moves phase 2 may take after this phase 1 and the
    /// pre-moves.
    pub(super) fn max2(&self) -> usize {
        (self.bound - self.len1 - self.npre).min(self.phase2_cap)
    }

    /// Searches phase 2 within `max2` moves after the first `len1` moves
    /// of phase 1.
    pub(super) fn start_phase2(&mut self, last_face: usize, max2: usize) -> bool {
        self.probes += 1;
        if self.probes >= self.probe_limit {
            self.stopped = true;
            return false;
        }
        if self.probes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                    return false;
                }
            }
        }
        while self.valid < self.len1 {
            let i = self.valid;
            self.cubes[i + 1] =
                self.cubes[i].apply_move(FaceTurn::from_index(self.moves1[i] as usize));
            self.valid += 1;
        }
        let cube = self.cubes[self.len1];
        if self.phase2_from(&cube, max2, last_face) {
            return true;
        }
        let excess = self.excess;
        // The pre-move next to phase 2 turned the other way: the cube is
        // its half turn `g` (a phase-2 move) times this one, and g·Y·S is
        // in phase 2's group exactly when Y·S is, so this phase-1
        // solution serves it too, and its phase 2 starts from g·X.
        // (with_pre_moves starts phase 1 after clockwise turns only.)
        if self.npre > 0 {
            let last = self.pre[self.npre - 1] as usize;
            let half = FaceTurn::from_index(last / 3 * 3 + 1);
            let other = half.cubie().multiply_proper(&cube);
            if self.phase2_from(&other, max2, last_face) {
                self.pre[self.npre - 1] = (last / 3 * 3 + 2) as u8;
                return true;
            }
            self.excess = self.excess.min(excess);
        }
        false
    }

    /// Searches phase 2 from `cube` within `max2` moves, after phase 1's
    /// last turn of `last_face`.
    ///
    /// Phase 2's first turn may be of any face but that one. A turn of
    /// the opposite face commutes with phase 1's last, but moved into
    /// phase 1 it makes phase 1 a move longer: here is its only place at
    /// this length (forbidding it, as the order within a search does,
    /// missed a 20-move answer of a phase 1 of 9 moves ending in L' and a
    /// phase 2 starting with R2; min2phase found it a length sooner).
    pub(super) fn phase2_from(&mut self, cube: &CubieCube, max2: usize, last_face: usize) -> bool {
        let first = if last_face < 6 { 1 << last_face } else { 0 };
        let corners = coord::corners(cube) as usize;
        let ud = coord::ud_edges(cube) as usize;
        let sp = coord::slice_sorted(cube) as usize;
        debug_assert!(sp < 24);
        if let Prune::Compact(cp) = &self.t.prune {
            let at = cp.phase2_at(self.t.coord, corners, ud, sp);
            return match &cp.phase2 {
                Phase2Tables::Projections(p) => self.phase2_compact_from(cp, p, at, max2, first),
                Phase2Tables::Paired(p) => self.phase2_compact_from(cp, &p.view(), at, max2, first),
            };
        }
        // The small (corners, slice) table first: it often decides alone,
        // and the big table read is a cache miss.
        if self.t.coord.corner_slice_depth()[corners * 24 + sp] as usize > max2 {
            return false;
        }
        let h = self.t.phase2_bound(corners, ud, sp) as usize;
        for len2 in h..=max2 {
            if self.phase2(corners, ud, sp, 0, len2, first) {
                self.found = Some(len2);
                return true;
            }
        }
        false
    }

    pub(super) fn phase2(
        &mut self,
        corners: usize,
        ud: usize,
        sp: usize,
        depth: usize,
        len2: usize,
        forbidden: u8,
    ) -> bool {
        let remaining = len2 - depth;
        if remaining == 0 {
            return corners == 0 && ud == 0 && sp == 0;
        }
        self.nodes2 += 1;
        let c = self.t.coord;
        for &m in &crate::tables::PHASE2_MOVES {
            let m = m as usize;
            if forbidden >> (m / 3) & 1 != 0 {
                continue;
            }
            let c2 = c.corners_move[corners * N_MOVES + m] as usize;
            let u2 = c.ud_edges_move[ud * N_MOVES + m] as usize;
            let s2 = c.slice_sorted_move[sp * N_MOVES + m] as usize;
            if self.t.phase2_bound(c2, u2, s2) as usize >= remaining {
                continue;
            }
            self.moves2[depth] = m as u8;
            if self.phase2(c2, u2, s2, depth + 1, len2, FACES_AFTER[m / 3]) {
                return true;
            }
        }
        false
    }

    /// [`Search::phase2_from`] with the compact or medium tables.
    fn phase2_compact_from<B: Phase2Bound>(
        &mut self,
        cp: &CompactPrune,
        bound: &B,
        at: Phase2At,
        max2: usize,
        first: u8,
    ) -> bool {
        let h = bound.bound(cp, at) as usize;
        self.excess = h.saturating_sub(max2);
        for len2 in h..=max2 {
            if self.phase2_compact(cp, bound, at, 0, len2, first) {
                self.found = Some(len2);
                return true;
            }
        }
        false
    }

    /// Phase 2 with the compact or medium tables: their ten-wide move
    /// tables, and the bounds of the inverse cube as well (it is as far
    /// from solved).
    pub(super) fn phase2_compact<B: Phase2Bound>(
        &mut self,
        cp: &CompactPrune,
        bound: &B,
        at: Phase2At,
        depth: usize,
        len2: usize,
        forbidden: u8,
    ) -> bool {
        let remaining = len2 - depth;
        if remaining == 0 {
            // The solved corners and edges are their classes' (0)
            // representatives under every symmetry.
            return at.0 >> 4 == 0 && at.1 >> 4 == 0 && at.2 == 0;
        }
        self.nodes2 += 1;
        if !B::READ_ALL_FIRST {
            for (i, &m) in crate::tables::PHASE2_MOVES.iter().enumerate() {
                if forbidden >> (m / 3) & 1 != 0 {
                    continue;
                }
                let child = cp.phase2_move(at, i);
                if !bound.within(cp, child, remaining) {
                    continue;
                }
                self.moves2[depth] = m;
                let after = FACES_AFTER[m as usize / 3];
                if self.phase2_compact(cp, bound, child, depth + 1, len2, after) {
                    return true;
                }
            }
            return false;
        }
        // The children and where their bounds are read first, then the
        // reads in a loop of their own, so that the processor overlaps
        // their cache misses; then likewise for the inverses of the
        // children left.
        let mut kids = [(0u8, at); 10];
        let mut reads = [B::Reads::default(); 10];
        let mut n = 0;
        for (i, &m) in crate::tables::PHASE2_MOVES.iter().enumerate() {
            if forbidden >> (m / 3) & 1 == 0 {
                let child = cp.phase2_move(at, i);
                kids[n] = (m, child);
                reads[n] = bound.reads(cp, child);
                n += 1;
            }
        }
        let mut left = 0;
        for k in 0..n {
            if (bound.read(reads[k]) as usize) < remaining {
                kids[left] = kids[k];
                left += 1;
            }
        }
        for (r, &(_, child)) in reads.iter_mut().zip(&kids[..left]) {
            *r = bound.reads(cp, cp.phase2_inverse(child));
        }
        for k in 0..left {
            if bound.read(reads[k]) as usize >= remaining {
                continue;
            }
            let (m, child) = kids[k];
            self.moves2[depth] = m;
            let after = FACES_AFTER[m as usize / 3];
            if self.phase2_compact(cp, bound, child, depth + 1, len2, after) {
                return true;
            }
        }
        false
    }

    /// Searches `total` moves of pre-moves and phase 1 on `cube` (the
    /// direction's cube with the pre-moves so far, `self.pre[..npre]`,
    /// applied before it): min2phase's pre-moves. A solution `S` of
    /// `P·C` (pre-moves `P` done before the cube `C`) gives `S` then `P`
    /// for `C`, so the answer may end outside the phase-2 group; the
    /// phase-1 search stays at least [`MIN_PHASE1_WITH_PRE_MOVES`] long,
    /// and the pre-moves multiply the phase-1 solutions tried at each
    /// length, which finds short answers sooner.
    pub(super) fn with_pre_moves(
        &mut self,
        cube: CubieCube,
        npre: usize,
        total: usize,
        last_face: usize,
    ) -> bool {
        // The pre-move next to phase 2 leaves its group (else phase 2
        // could have made it), and is a clockwise quarter turn: phase 2
        // tries the anticlockwise one too (see start_phase2).
        if npre == 0 || is_clockwise_quarter_off_phase2(self.pre[npre - 1] as usize) {
            let coords = Phase1Coords::of(&cube);
            let len1 = total - npre;
            if self.t.phase1_depth(&coords, len1) as usize <= len1 {
                self.cubes[0] = cube;
                self.valid = 0;
                self.npre = npre;
                self.len1 = len1;
                if self.start_phase1(&coords) || self.stopped {
                    return true;
                }
            }
        }
        if npre + 1 + MIN_PHASE1_WITH_PRE_MOVES > total {
            return false;
        }
        // A child that cannot take a pre-move of its own only starts phase
        // 1, which it does after a clockwise quarter turn off phase 2.
        let leaf = npre + 2 + MIN_PHASE1_WITH_PRE_MOVES > total;
        for m in 0..N_MOVES {
            if !face_allowed(m, last_face) || (leaf && !is_clockwise_quarter_off_phase2(m)) {
                continue;
            }
            let next = FaceTurn::from_index(m).cubie().multiply_proper(&cube);
            self.pre[npre] = m as u8;
            if self.with_pre_moves(next, npre + 1, total, m / 3) {
                return true;
            }
        }
        false
    }

    /// The solution found, in the original cube's frame.
    pub(super) fn solution(&self, len2: usize) -> MoveSeq {
        let sy = Symmetries::get();
        let back = sy.inv[self.dir.sym] as usize;
        // The pre-moves come last, the latest applied first.
        let mut v: Vec<FaceTurn> = self.moves1[..self.len1]
            .iter()
            .chain(&self.moves2[..len2])
            .chain(self.pre[..self.npre].iter().rev())
            .map(|&m| FaceTurn::from_index(sy.conj_move[back][m as usize] as usize))
            .collect();
        if self.dir.inverse {
            v = v.iter().rev().map(|m| m.inverse()).collect();
        }
        // Phase 2's last turn and the pre-move after it may be of one
        // face (or of opposite faces around one): merged, the answer is a
        // move shorter than the search counted.
        MoveSeq(v).simplified()
    }
}

/// The six views of `cube`, without repeats (a symmetric cube has fewer).
pub(super) fn directions(cube: &CubieCube, all: bool) -> Vec<Direction> {
    let sy = Symmetries::get();
    let mut out: Vec<Direction> = Vec::new();
    let inv = cube.inverse();
    let views: &[(bool, usize)] = if all {
        &[
            (false, 0),
            (false, 16),
            (false, 32),
            (true, 0),
            (true, 16),
            (true, 32),
        ]
    } else {
        &[(false, 0)]
    };
    for &(inverse, s) in views {
        let base = if inverse { &inv } else { cube };
        let c = sy.conjugate(base, s);
        if out.iter().any(|d| d.cube == c) {
            continue;
        }
        out.push(Direction {
            cube: c,
            sym: s,
            inverse,
        });
    }
    out
}
