//! The optimal search's inner loop: iterative deepening, depth first, that
//! turns whichever end of the solution branches less.
//!
//! A node is six [`View`]s, the cube and its inverse each seen from the
//! three axes, with a lower bound on the distance of each. A move after
//! the cube is a move before its inverse and the other way about, so the
//! search may add a move at the start of the solution (after the cube) or
//! at its end (after the inverse). A move of one axis leaves that axis's
//! view of the *other* side as it was, up to a move of its own U or D
//! face, which changes none of its coordinates; so where that view's bound
//! equals the moves left, no move of its axis on this side can help, and
//! the side with fewer moves left over is searched (Rokicki's nxopt).
//!
//! Each node's children are bounded in two rounds, every child's table
//! reads issued together so that the processor overlaps their cache
//! misses: the first view of the turning side for every child, then the
//! other four changed views of the children still in play. A child far
//! beyond the moves left rules out its siblings of the same face, or the
//! node itself (pathmax).

use super::table::Bound;
use super::view::{CoordLookup, Kernel, MoveBytes, View};
use crate::cubie::CubieCube;
use crate::moves::{FaceTurn, N_MOVES};
use crate::symmetry::Symmetries;

/// No move made yet on a side.
pub(super) const NO_FACE: u8 = 6;

/// A node: the cube's three views, its inverse's three, and their bounds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    pub(super) views: [View; 6],
    pub(super) bounds: [u8; 6],
}

/// The bound of three views of one side: the largest, and one more when
/// all three are the same `b > 0`. A solution in `b` moves ends with a
/// turn of one axis's face, which lies in that axis's subgroup; the moves
/// before it reach the subgroup, so that axis is at most `b - 1` away
/// (nxopt's rule).
#[inline(always)]
fn side_bound(a: u8, b: u8, c: u8) -> u8 {
    if a == b && b == c && a > 0 {
        a + 1
    } else {
        a.max(b).max(c)
    }
}

/// The bound of a node.
#[inline(always)]
pub(super) fn bound(b: &[u8; 6]) -> u8 {
    side_bound(b[0], b[1], b[2]).max(side_bound(b[3], b[4], b[5]))
}

/// The moves as the search applies them.
pub(super) struct Moves {
    /// `after[k][m]`: move `m` seen from axis `k`.
    after: [[MoveBytes; N_MOVES]; 3],
    /// `before[k][m]`: the inverse of move `m` seen from axis `k`.
    before: [[MoveBytes; N_MOVES]; 3],
    /// `keep[m]`: the axis whose view of the other side move `m` keeps.
    keep: [u8; N_MOVES],
    /// `axis_moves[k]`: the moves (bit `m`) whose `keep` is `k`.
    axis_moves: [u32; 3],
    /// `canonical[f]`: the moves allowed after a turn of face `f` (6: none
    /// yet): another face, and of two opposite faces the first before the
    /// second only.
    canonical: [u32; 7],
    /// As `canonical`, opposite faces in either order.
    relaxed: [u32; 7],
}

impl Moves {
    pub(super) fn new() -> Moves {
        let sy = Symmetries::get();
        let conj = |k: usize, m: usize| FaceTurn::from_index(sy.conj_move[16 * k][m] as usize);
        let after =
            std::array::from_fn(|k| std::array::from_fn(|m| MoveBytes::of(conj(k, m).cubie())));
        let before = std::array::from_fn(|k| {
            std::array::from_fn(|m| MoveBytes::of(conj(k, m).inverse().cubie()))
        });
        // The U and D turns of axis k's frame.
        let keep = std::array::from_fn(|m| {
            (0..3)
                .find(|&k| matches!(conj(k, m).index() / 3, 0 | 3))
                .unwrap_or(0) as u8
        });
        let axis_moves = std::array::from_fn(|k| {
            (0..N_MOVES)
                .filter(|&m| keep[m] as usize == k)
                .fold(0, |bits, m| bits | 1 << m)
        });
        let allowed = |last: usize, relaxed: bool| {
            (0..N_MOVES)
                .filter(|&m| {
                    let f = m / 3;
                    last == NO_FACE as usize || (f != last && (relaxed || f + 3 != last))
                })
                .fold(0u32, |bits, m| bits | 1 << m)
        };
        Moves {
            after,
            before,
            keep,
            axis_moves,
            canonical: std::array::from_fn(|f| allowed(f, false)),
            relaxed: std::array::from_fn(|f| allowed(f, true)),
        }
    }

    /// Whether move `m` may follow a turn of face `last`.
    pub(super) fn allowed(&self, m: usize, last: u8, relaxed: bool) -> bool {
        let bits = if relaxed {
            self.relaxed[last as usize]
        } else {
            self.canonical[last as usize]
        };
        bits >> m & 1 == 1
    }
}

/// The six views of a cube.
pub(super) fn views_of(c: &CubieCube) -> [View; 6] {
    let sy = Symmetries::get();
    let inv = c.inverse();
    std::array::from_fn(|v| {
        let x = if v < 3 { c } else { &inv };
        View::of(&sy.conjugate(x, 16 * (v % 3)))
    })
}

/// What the search reads: the table, the coordinate lookups and the moves.
pub(super) struct Tools<'a, B> {
    pub(super) bound: B,
    pub(super) lookup: &'a CoordLookup,
    pub(super) moves: &'a Moves,
}

impl<B: Bound> Tools<'_, B> {
    /// The bound of one view.
    #[inline(always)]
    fn view_bound<K: Kernel>(&self, v: &View) -> u8 {
        self.bound
            .value(self.bound.index(K::coords(v, self.lookup)))
    }

    /// The node of a cube's six views.
    pub(super) fn frame<K: Kernel>(&self, views: [View; 6]) -> Frame {
        Frame {
            bounds: std::array::from_fn(|v| self.view_bound::<K>(&views[v])),
            views,
        }
    }

    /// The views after move `m` on `side` (0: after the cube, so first in
    /// the solution; 1: after the inverse, so its inverse last).
    #[inline(always)]
    fn step_views<K: Kernel>(&self, f: &Frame, side: usize, m: usize) -> [View; 6] {
        let (ms, os) = (3 * side, 3 - 3 * side);
        let mut views = f.views;
        for k in 0..3 {
            views[ms + k] = K::after(&f.views[ms + k], &self.moves.after[k][m]);
            views[os + k] = K::before(&f.views[os + k], &self.moves.before[k][m]);
        }
        views
    }

    /// The node after move `m` on `side` (see [`Tools::step_views`]).
    #[cfg(test)]
    pub(super) fn step<K: Kernel>(&self, f: &Frame, side: usize, m: usize) -> Frame {
        self.frame::<K>(self.step_views::<K>(f, side, m))
    }

    /// The nodes after each of `moves` after the cube, their table reads
    /// issued together.
    #[inline(always)]
    pub(super) fn children<K: Kernel>(&self, f: &Frame, moves: &[usize]) -> Vec<Frame> {
        // Plain loops, no closures: the kernel's intrinsics inline only
        // into functions compiled for its features.
        let mut out = Vec::with_capacity(moves.len());
        let mut idx = [[0usize; 6]; N_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            let views = self.step_views::<K>(f, 0, m);
            for k in 0..6 {
                idx[i][k] = self.bound.index(K::coords(&views[k], self.lookup));
                self.bound.prefetch(idx[i][k]);
            }
            out.push(Frame {
                views,
                bounds: [0; 6],
            });
        }
        for (i, frame) in out.iter_mut().enumerate() {
            for k in 0..6 {
                frame.bounds[k] = self.bound.value(idx[i][k]);
            }
        }
        out
    }
}

/// The children of one node still to search.
#[derive(Clone, Copy)]
pub(super) struct Level {
    pub(super) kids: [Frame; N_MOVES],
    pub(super) moves: [u8; N_MOVES],
    pub(super) n: u8,
    next: u8,
    /// The side the children turned.
    pub(super) side: u8,
    /// Moves left at the children.
    left: u8,
    /// The last faces turned on each side before the children.
    last: [u8; 2],
    /// Faces whose remaining children are ruled out.
    skip: u32,
}

pub(super) const EMPTY_LEVEL: Level = Level {
    kids: [Frame {
        views: [View([0; 32]); 6],
        bounds: [0; 6],
    }; N_MOVES],
    moves: [0; N_MOVES],
    n: 0,
    next: 0,
    side: 0,
    left: 0,
    last: [NO_FACE; 2],
    skip: 0,
};

/// Where a search starts: a node, the moves left and the last faces.
#[derive(Clone, Copy, Debug)]
pub(super) struct Start<'a> {
    pub(super) frame: &'a Frame,
    pub(super) left: u8,
    /// The last face turned on each side.
    pub(super) last: [u8; 2],
    /// Whether the first move after the cube may take the face opposite
    /// its last in either order.
    pub(super) relaxed: bool,
}

/// One thread's search state.
pub(super) struct Searcher {
    stack: Vec<Level>,
    /// Nodes expanded.
    pub(super) nodes: u64,
}

/// A solution's moves as the search found them: `(side, move)`.
pub(super) type Turns = Vec<(u8, u8)>;

impl Searcher {
    pub(super) fn new() -> Searcher {
        Searcher {
            stack: vec![EMPTY_LEVEL; 24],
            nodes: 0,
        }
    }

    /// Searches below `start` for a solution in exactly `start.left`
    /// moves; gives up when `halt` says so (asked every few thousand
    /// nodes).
    #[inline(always)]
    pub(super) fn run<B: Bound, K: Kernel>(
        &mut self,
        tools: &Tools<B>,
        start: Start,
        halt: &(dyn Fn() -> bool + Sync),
    ) -> Option<Turns> {
        if start.left == 0 {
            return start.frame.views[0].is_solved().then(Vec::new);
        }
        let stack = &mut self.stack[..];
        if expand::<B, K>(
            tools,
            start.frame,
            start.left,
            start.last,
            start.relaxed,
            &mut stack[0],
        )
        .is_err()
        {
            self.nodes += 1;
            return None;
        }
        self.nodes += 1;
        let mut top = 0usize;
        loop {
            let lv = &mut stack[top];
            if lv.next == lv.n {
                if top == 0 {
                    return None;
                }
                top -= 1;
                continue;
            }
            let i = lv.next as usize;
            lv.next += 1;
            let m = lv.moves[i];
            if lv.skip >> (m / 3) & 1 == 1 {
                continue;
            }
            let left = lv.left;
            if left == 0 {
                if lv.kids[i].views[0].is_solved() {
                    return Some(
                        stack[..=top]
                            .iter()
                            .map(|l| (l.side, l.moves[l.next as usize - 1]))
                            .collect(),
                    );
                }
                continue;
            }
            let mut last = lv.last;
            last[lv.side as usize] = m / 3;
            let (lo, hi) = stack.split_at_mut(top + 1);
            let result = expand::<B, K>(tools, &lo[top].kids[i], left, last, false, &mut hi[0]);
            self.nodes += 1;
            if self.nodes & 0x3fff == 0 && halt() {
                return None;
            }
            match result {
                Ok(()) => top += 1,
                Err(mut far) => {
                    // The child is at least `far` away: its siblings of the
                    // same face at least one less, and its parent too.
                    let mut t = top;
                    let mut left = left;
                    loop {
                        if far < left + 2 {
                            break;
                        }
                        let face = stack[t].moves[stack[t].next as usize - 1] / 3;
                        stack[t].skip |= 1 << face;
                        if far < left + 3 {
                            break;
                        }
                        // The parent is beyond its moves left as well.
                        stack[t].next = stack[t].n;
                        if t == 0 {
                            return None;
                        }
                        t -= 1;
                        far -= 1;
                        left += 1;
                    }
                }
            }
        }
    }
}

/// Fills `out` with the children of `node` (which has `left` moves left)
/// that may be within `left - 1` moves of solved, in move order; `Err`
/// with a bound beyond `left` when a child shows the node itself is.
#[inline(always)]
pub(super) fn expand<B: Bound, K: Kernel>(
    tools: &Tools<B>,
    node: &Frame,
    left: u8,
    last: [u8; 2],
    relaxed: bool,
    out: &mut Level,
) -> Result<(), u8> {
    let mv = tools.moves;
    let b = &node.bounds;
    // A view at the moves left must come nearer at every move: the moves
    // on the other side that keep it are out.
    let mut tight = [0u32; 2];
    for k in 0..3 {
        if b[3 + k] == left {
            tight[0] |= mv.axis_moves[k];
        }
        if b[k] == left {
            tight[1] |= mv.axis_moves[k];
        }
    }
    let first = if relaxed {
        mv.relaxed[last[0] as usize]
    } else {
        mv.canonical[last[0] as usize]
    };
    let allowed = [
        first & !tight[0],
        mv.canonical[last[1] as usize] & !tight[1],
    ];
    let (n0, n1) = (allowed[0].count_ones(), allowed[1].count_ones());
    let side = if n0 != n1 {
        usize::from(n1 < n0)
    } else {
        // As vcube: turn the cube when its views are the farther.
        usize::from(b[0] + b[1] + b[2] <= b[3] + b[4] + b[5])
    };
    let (ms, os) = (3 * side, 3 - 3 * side);
    let bound_ = tools.bound;

    let mut moves = [0u8; N_MOVES];
    let mut n = 0;
    let mut bits = allowed[side];
    while bits != 0 {
        moves[n] = bits.trailing_zeros() as u8;
        n += 1;
        bits &= bits - 1;
    }

    // Round one: one view of the turning side, for every child: the one
    // whose bound is highest, since a child's bound is within one of its
    // parent's and only a view near the moves left can prune it.
    let first = if b[ms + 1] > b[ms] {
        if b[ms + 2] > b[ms + 1] {
            2
        } else {
            1
        }
    } else if b[ms + 2] > b[ms] {
        2
    } else {
        0
    };
    let (second, third) = ((first + 1) % 3, (first + 2) % 3);
    let mut idx = [0usize; N_MOVES];
    for i in 0..n {
        let m = moves[i] as usize;
        let v = K::after(&node.views[ms + first], &mv.after[first][m]);
        out.kids[i].views[ms + first] = v;
        idx[i] = bound_.index(K::coords(&v, tools.lookup));
        bound_.prefetch(idx[i]);
    }
    let mut skip = 0u32;
    let mut kept = 0;
    for i in 0..n {
        let x = bound_.value(idx[i]);
        let m = moves[i];
        if x >= left + 2 {
            return Err(x - 1);
        }
        if x == left + 1 {
            skip |= 1 << (m / 3);
        }
        if x < left {
            moves[kept] = m;
            out.kids[kept].views[ms + first] = out.kids[i].views[ms + first];
            out.kids[kept].bounds[ms + first] = x;
            kept += 1;
        }
    }
    n = kept;

    // Round two: the other changed views of the children left.
    let mut kept = 0;
    for i in 0..n {
        if skip >> (moves[i] / 3) & 1 == 0 {
            moves[kept] = moves[i];
            if kept != i {
                out.kids[kept].views[ms + first] = out.kids[i].views[ms + first];
                out.kids[kept].bounds[ms + first] = out.kids[i].bounds[ms + first];
            }
            kept += 1;
        }
    }
    n = kept;
    let mut idx = [[0usize; 4]; N_MOVES];
    for i in 0..n {
        let m = moves[i] as usize;
        let kid = &mut out.kids[i];
        kid.views[ms + second] = K::after(&node.views[ms + second], &mv.after[second][m]);
        kid.views[ms + third] = K::after(&node.views[ms + third], &mv.after[third][m]);
        for k in 0..3 {
            kid.views[os + k] = K::before(&node.views[os + k], &mv.before[k][m]);
        }
        let keep = mv.keep[m] as usize;
        let (a, c) = ((keep + 1) % 3, (keep + 2) % 3);
        idx[i] = [
            bound_.index(K::coords(&kid.views[ms + second], tools.lookup)),
            bound_.index(K::coords(&kid.views[ms + third], tools.lookup)),
            bound_.index(K::coords(&kid.views[os + a], tools.lookup)),
            bound_.index(K::coords(&kid.views[os + c], tools.lookup)),
        ];
        for &j in &idx[i] {
            bound_.prefetch(j);
        }
    }
    let mut keep_kid = [false; N_MOVES];
    for i in 0..n {
        let m = moves[i] as usize;
        let keep = mv.keep[m] as usize;
        let (a, c) = ((keep + 1) % 3, (keep + 2) % 3);
        let kid = &mut out.kids[i];
        kid.bounds[ms + second] = bound_.value(idx[i][0]);
        kid.bounds[ms + third] = bound_.value(idx[i][1]);
        kid.bounds[os + keep] = b[os + keep];
        kid.bounds[os + a] = bound_.value(idx[i][2]);
        kid.bounds[os + c] = bound_.value(idx[i][3]);
        let x = bound(&kid.bounds);
        if x >= left + 2 {
            return Err(x - 1);
        }
        if x == left + 1 {
            skip |= 1 << (m / 3);
        }
        keep_kid[i] = x < left;
    }
    let mut kept = 0;
    for i in 0..n {
        if keep_kid[i] && skip >> (moves[i] / 3) & 1 == 0 {
            if kept != i {
                out.kids[kept] = out.kids[i];
            }
            out.moves[kept] = moves[i];
            kept += 1;
        }
    }
    out.n = kept as u8;
    out.next = 0;
    out.side = side as u8;
    out.left = left - 1;
    out.last = last;
    out.skip = 0;
    Ok(())
}
