//! The two-phase search: shape first, then the square/square subgroup.

use twistor_core::random::SeededRng;

use crate::notation::{format_moves, invert_moves, normalize, Square1Move};
use crate::position::Square1Position;
use crate::shape::{shape_of, ShapeTables, NONE};
use crate::square::{SquareCoord, SquareTables};

/// Moves as the search makes them: one layer at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Raw {
    Top(u8),
    Bottom(u8),
    Twist,
}

/// The kind of the previous move, for the move-order rules: between two
/// `/`s at most one top turn, then at most one bottom turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    None,
    Twist,
    Top,
    Bottom,
}

/// Both phases together are kept under this many moves (each turn of one
/// layer and each `/` counting one), as in sq12phase.
const MAX_TOTAL: usize = 31;
/// Phase 2 is kept under this many moves.
const MAX_PHASE2: usize = 17;
/// ... but, unlike sq12phase, always allowed at least this bound, so a
/// long phase 1 does not leave phase 2 too little room (which made rare
/// positions take seconds while phase 1 kept growing).
const MIN_PHASE2: usize = 13;
/// Past this phase-1 length phase 2 is no longer limited, so the search
/// always ends (never reached in practice).
const UNLIMITED_AFTER: usize = 24;

/// The Square-1 two-phase solver and scrambler, holding its tables
/// (about 1.3 MB, built in about 30 ms).
///
/// Phase 1 brings both layers to squares with the right permutation
/// parity (IDA* on the 7,356 shape states); phase 2 solves the pieces and
/// the middle layer with moves that keep the squares (IDA* on corner
/// order, edge order and the middle layer).
pub struct Square1Solver {
    shape: ShapeTables,
    square: SquareTables,
}

impl Default for Square1Solver {
    fn default() -> Self {
        Self::new()
    }
}

/// What one search carries along.
struct Search<'a> {
    solver: &'a Square1Solver,
    start: Square1Position,
    moves: Vec<Raw>,
    max_phase2: usize,
    /// Whether bottom turns are limited as sq12phase limits them.
    cut: bool,
}

impl Square1Solver {
    /// Builds all tables.
    pub fn new() -> Square1Solver {
        Square1Solver {
            shape: ShapeTables::build(),
            square: SquareTables::build(),
        }
    }

    /// Bytes held by the move and pruning tables.
    pub fn table_bytes(&self) -> usize {
        self.shape.bytes() + self.square.bytes()
    }

    /// How many shape states (layout × parity, 7,356 in all) lie at each
    /// distance from phase 1's goal, each turn and each `/` counting one.
    pub fn shape_depth_histogram(&self) -> Vec<usize> {
        histogram(&self.shape.prune)
    }

    /// How many entries of phase 2's corner pruning table (corner order ×
    /// middle layer × the two layers' alignments, 322,560 entries) lie at
    /// each distance.
    pub fn square_depth_histogram(&self) -> Vec<usize> {
        histogram(&self.square.corner_prune)
    }

    /// Moves that take `position` to solved (middle layer included), in WCA
    /// form: turns between two `/`s merged into one `(a,b)` with `a`, `b`
    /// in -5..=6, no `(0,0)`.
    pub fn solve(&self, position: &Square1Position) -> Vec<Square1Move> {
        let mut raw = Vec::new();
        let mut start = *position;
        // Positions from `from_slots` or after a lone turn may not allow
        // `/`; turn the layers to where it is allowed first.
        if position.layout_index().is_none() {
            if let Some((t, b)) = position.twistable_rotations() {
                if t != 0 {
                    raw.push(Raw::Top(t as u8));
                    start.turn_top(t);
                }
                if b != 0 {
                    raw.push(Raw::Bottom(b as u8));
                    start.turn_bottom(b);
                }
            }
        }
        let Some(shape) = shape_of(&start) else {
            // Unreachable for positions this crate can build.
            return Vec::new();
        };
        let mut search = Search {
            solver: self,
            start,
            moves: Vec::new(),
            max_phase2: MAX_PHASE2,
            cut: true,
        };
        let mut length1 = usize::from(self.shape.prune[usize::from(shape)]);
        loop {
            search.max_phase2 = if length1 > UNLIMITED_AFTER {
                search.cut = false;
                usize::MAX
            } else {
                MAX_PHASE2.min(MAX_TOTAL - length1).max(MIN_PHASE2)
            };
            if search.phase1(shape, length1, Last::None) {
                break;
            }
            length1 += 1;
        }
        raw.extend_from_slice(&search.moves);
        to_wca(&raw)
    }

    /// The WCA scramble that takes the solved puzzle to exactly `position`:
    /// the inverse of [`Self::solve`]'s answer, `(a,b) /` tuples with
    /// single spaces, a bare `/` where the tuple would be `(0,0)`, and a
    /// final tuple only when it is not `(0,0)`.
    pub fn scramble(&self, position: &Square1Position) -> String {
        format_moves(&invert_moves(&self.solve(position)))
    }

    /// A uniformly random position (see [`Square1Position::random`]) and
    /// its scramble.
    pub fn random_scramble(&self, rng: &mut SeededRng) -> (Square1Position, String) {
        let position = Square1Position::random(rng);
        let scramble = self.scramble(&position);
        (position, scramble)
    }
}

fn histogram(table: &[u8]) -> Vec<usize> {
    let max = table
        .iter()
        .copied()
        .filter(|&d| d != u8::MAX)
        .max()
        .unwrap_or(0);
    let mut out = vec![0; usize::from(max) + 1];
    for &d in table {
        if d != u8::MAX {
            out[usize::from(d)] += 1;
        }
    }
    out
}

/// Merges one-layer moves into WCA tuples.
fn to_wca(raw: &[Raw]) -> Vec<Square1Move> {
    let mut out = Vec::new();
    let (mut top, mut bottom) = (0i64, 0i64);
    let flush = |top: &mut i64, bottom: &mut i64, out: &mut Vec<Square1Move>| {
        let (t, b) = (normalize(*top), normalize(*bottom));
        if t != 0 || b != 0 {
            out.push(Square1Move::Turn { top: t, bottom: b });
        }
        *top = 0;
        *bottom = 0;
    };
    for &m in raw {
        match m {
            Raw::Top(a) => top += i64::from(a),
            Raw::Bottom(a) => bottom += i64::from(a),
            Raw::Twist => {
                flush(&mut top, &mut bottom, &mut out);
                out.push(Square1Move::Slash);
            }
        }
    }
    flush(&mut top, &mut bottom, &mut out);
    out
}

impl Search<'_> {
    /// The bound on bottom turns (in slots) with `left` moves to go. As in
    /// sq12phase, bottom turns of half a turn or more are not tried in
    /// phase 1 (which is called with `left` = 12) nor in phase 2 with more
    /// than six moves to go. Enough solutions remain to keep the length
    /// (11.7 slashes on average either way) and the search is 4–5 times
    /// faster. The unlimited fallback lifts the cut.
    fn bottom_limit(&self, left: usize) -> usize {
        if self.cut && left > 6 {
            6
        } else {
            12
        }
    }

    /// Phase 1: exactly `left` more moves to a goal shape, then phase 2.
    fn phase1(&mut self, shape: u16, left: usize, last: Last) -> bool {
        let t = &self.solver.shape;
        let h = usize::from(t.prune[usize::from(shape)]);
        if h == 0 && left < 4 {
            // From a goal shape, fewer than four moves cannot leave the
            // square/square shapes and come back; phase 2 covers them.
            return left == 0 && self.phase2_start();
        }
        if last != Last::Twist {
            let next = t.twist[usize::from(shape)];
            if usize::from(t.prune[usize::from(next)]) < left {
                self.moves.push(Raw::Twist);
                if self.phase1(next, left - 1, Last::Twist) {
                    return true;
                }
                self.moves.pop();
            }
        }
        if matches!(last, Last::None | Last::Twist) {
            for m in 1..12 {
                let next = t.top[12 * usize::from(shape) + m];
                if next != NONE && usize::from(t.prune[usize::from(next)]) < left {
                    self.moves.push(Raw::Top(m as u8));
                    if self.phase1(next, left - 1, Last::Top) {
                        return true;
                    }
                    self.moves.pop();
                }
            }
        }
        if last != Last::Bottom {
            for m in 1..self.bottom_limit(12) {
                let next = t.bottom[12 * usize::from(shape) + m];
                if next != NONE && usize::from(t.prune[usize::from(next)]) < left {
                    self.moves.push(Raw::Bottom(m as u8));
                    if self.phase1(next, left - 1, Last::Bottom) {
                        return true;
                    }
                    self.moves.pop();
                }
            }
        }
        false
    }

    /// Applies phase 1's moves and runs phase 2 with growing bounds.
    fn phase2_start(&mut self) -> bool {
        let mut pos = self.start;
        for &m in &self.moves {
            match m {
                Raw::Top(a) => pos.turn_top(usize::from(a)),
                Raw::Bottom(a) => pos.turn_bottom(usize::from(a)),
                Raw::Twist => pos.slash(),
            }
        }
        let c = SquareCoord::of(&pos);
        let h = self.solver.square.bound(&c);
        let len1 = self.moves.len();
        let mut bound = usize::from(h);
        while bound < self.max_phase2 {
            // Phase 1 ends with `/` (or is empty), so phase 2 starts with a
            // turn: a `/` first would be phase 1's job.
            if self.phase2(c, bound, Last::Twist) {
                return true;
            }
            self.moves.truncate(len1);
            bound += 1;
        }
        false
    }

    /// Phase 2: exactly `left` more moves to solved.
    fn phase2(&mut self, c: SquareCoord, left: usize, last: Last) -> bool {
        if left == 0 {
            return c.corners == 0
                && c.edges == 0
                && c.middle == 0
                && !c.top_edge_first
                && c.bottom_edge_first;
        }
        let t = &self.solver.square;
        let fits = |n: &SquareCoord| usize::from(t.bound(n)) < left;
        if last != Last::Twist && c.top_edge_first == c.bottom_edge_first {
            let next = SquareCoord {
                corners: t.twist[usize::from(c.corners)],
                edges: t.twist[usize::from(c.edges)],
                middle: c.middle ^ 1,
                ..c
            };
            if fits(&next) {
                self.moves.push(Raw::Twist);
                if self.phase2(next, left - 1, Last::Twist) {
                    return true;
                }
                self.moves.pop();
            }
        }
        if matches!(last, Last::None | Last::Twist) {
            let mut next = c;
            let mut m = 0;
            loop {
                if next.top_edge_first {
                    next.corners = t.top[usize::from(next.corners)];
                    m += 2;
                } else {
                    next.edges = t.top[usize::from(next.edges)];
                    m += 1;
                }
                next.top_edge_first = !next.top_edge_first;
                if m >= 12 {
                    break;
                }
                if fits(&next) {
                    self.moves.push(Raw::Top(m));
                    if self.phase2(next, left - 1, Last::Top) {
                        return true;
                    }
                    self.moves.pop();
                }
            }
        }
        if last != Last::Bottom {
            let mut next = c;
            let mut m = 0;
            loop {
                if next.bottom_edge_first {
                    next.corners = t.bottom[usize::from(next.corners)];
                    m += 2;
                } else {
                    next.edges = t.bottom[usize::from(next.edges)];
                    m += 1;
                }
                next.bottom_edge_first = !next.bottom_edge_first;
                if usize::from(m) >= self.bottom_limit(left) {
                    break;
                }
                if fits(&next) {
                    self.moves.push(Raw::Bottom(m));
                    if self.phase2(next, left - 1, Last::Bottom) {
                        return true;
                    }
                    self.moves.pop();
                }
            }
        }
        false
    }
}
