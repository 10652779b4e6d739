//! The puzzle as the staged solver sees it: every slot of every orbit
//! numbered once, each move a map of slots with the twist it adds, and the
//! goal cut into *classes* (the pieces that share a goal id).
//!
//! Moves are read from a [`MoveSet`], so the solver turns exactly the
//! moves (and powers) a search would. Slots are global `u16`s: the biggest
//! puzzles twistor builds (40x40x40, about 9,400 slots) fit, and a move is
//! two small arrays rather than a packed transformation, so the commutator
//! search can follow a handful of slots through a sequence without
//! touching the rest.

use twistor_core::{Layout, Pattern};
use twistor_search::MoveSet;

use crate::StagedError;

/// Most slots the model numbers (slots are `u16`).
pub(crate) const MAX_SLOTS: usize = u16::MAX as usize;

/// One move (a power of a grip) as a map of slots.
#[derive(Clone, Debug)]
pub(crate) struct ModelMove {
    /// The move's name in the move set (`U`, `U2`, `U'`).
    pub name: String,
    /// Its grip (moves of one grip are powers of one base move).
    pub grip: usize,
    /// The move undoing it.
    pub inverse: usize,
    /// Where the piece in each slot goes.
    pub dest: Vec<u16>,
    /// The twist the piece leaving each slot gains (below its orbit's
    /// orientation count).
    pub twist: Vec<u8>,
    /// The slots it moves or twists, in increasing order.
    pub support: Vec<u16>,
}

/// The puzzle's slots and moves.
#[derive(Clone, Debug)]
pub(crate) struct Model {
    /// First global slot of each orbit.
    pub base: Vec<usize>,
    /// Slots of each orbit.
    pub size: Vec<usize>,
    /// Orientations of each orbit.
    pub oris: Vec<u8>,
    /// The orbit of each global slot.
    pub orbit_of: Vec<u16>,
    /// The moves, in move-set order.
    pub moves: Vec<ModelMove>,
    /// How many grips.
    pub grips: usize,
    /// Whether grips commute, `commute[g * grips + h]`.
    pub commute: Vec<bool>,
}

impl Model {
    /// The model of `moves` (over their layout).
    pub fn new(moves: &MoveSet) -> Result<Model, StagedError> {
        let layout = moves.layout();
        let mut base = Vec::new();
        let mut size = Vec::new();
        let mut oris = Vec::new();
        let mut orbit_of = Vec::new();
        for (k, o) in layout.orbits().iter().enumerate() {
            base.push(orbit_of.len());
            size.push(o.num_pieces());
            oris.push(o.num_orientations() as u8);
            orbit_of.extend(std::iter::repeat_n(k as u16, o.num_pieces()));
        }
        let slots = orbit_of.len();
        if slots > MAX_SLOTS {
            return Err(StagedError::TooBig { slots });
        }
        let mut model_moves: Vec<ModelMove> = moves
            .moves()
            .iter()
            .map(|m| move_map(layout, &base, m.transformation.as_bytes(), &m.name, m.grip))
            .collect();
        for (i, mv) in model_moves.iter_mut().enumerate() {
            mv.inverse = moves.inverse_of(i).ok_or_else(|| StagedError::NoInverse {
                name: mv.name.clone(),
            })?;
        }
        let grips = moves.grips().len();
        let mut model = Model {
            base,
            size,
            oris,
            orbit_of,
            moves: model_moves,
            grips,
            commute: Vec::new(),
        };
        model.commute = model.grip_commutation();
        Ok(model)
    }

    /// Total slots.
    pub fn slots(&self) -> usize {
        self.orbit_of.len()
    }

    /// The moves undoing `word`.
    pub fn inverse(&self, word: &[usize]) -> Vec<usize> {
        word.iter().rev().map(|&m| self.moves[m].inverse).collect()
    }

    /// Whether grip `g` may follow grip `h` in a sequence: never the same
    /// grip twice, and of two commuting grips the lower first (so each
    /// product of commuting turns is searched once).
    #[inline]
    pub fn may_follow(&self, last: Option<usize>, g: usize) -> bool {
        match last {
            None => true,
            Some(h) => h != g && !(self.commute[h * self.grips + g] && g < h),
        }
    }

    /// For each pair of grips, whether their first moves commute, compared
    /// on the slots either moves.
    fn grip_commutation(&self) -> Vec<bool> {
        let g = self.grips;
        let first: Vec<usize> = (0..g)
            .map(|grip| {
                self.moves
                    .iter()
                    .position(|m| m.grip == grip)
                    .expect("every grip has a move")
            })
            .collect();
        let mut commute = vec![true; g * g];
        for a in 0..g {
            for b in 0..a {
                let (ma, mb) = (&self.moves[first[a]], &self.moves[first[b]]);
                let c = self.commutes(ma, mb);
                commute[a * g + b] = c;
                commute[b * g + a] = c;
            }
        }
        commute
    }

    fn commutes(&self, a: &ModelMove, b: &ModelMove) -> bool {
        let touched = merge_sorted(&a.support, &b.support);
        touched.iter().all(|&s| {
            let s = s as usize;
            let m = self.oris[self.orbit_of[s] as usize];
            let (ab, tab) = step(b, step(a, (s as u16, 0), m), m);
            let (ba, tba) = step(a, step(b, (s as u16, 0), m), m);
            ab == ba && tab == tba
        })
    }

    /// Follows a piece at `slot` with twist 0 through `moves`: where it
    /// ends and the twist it gained.
    pub fn follow(&self, moves: &[usize], slot: u16) -> (u16, u8) {
        let m = self.oris[self.orbit_of[slot as usize] as usize];
        moves
            .iter()
            .fold((slot, 0), |at, &mv| step(&self.moves[mv], at, m))
    }

    /// Per slot of `orbit`, the component the `moves` put it in (slots
    /// they connect share one), numbered from 0 in slot order.
    pub fn components(&self, orbit: usize, moves: &[usize]) -> Vec<usize> {
        let (base, n) = (self.base[orbit], self.size[orbit]);
        let mut root: Vec<usize> = (0..n).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        }
        for &m in moves {
            for s in 0..n {
                let d = self.moves[m].dest[base + s] as usize - base;
                let (a, b) = (find(&mut root, s), find(&mut root, d));
                root[a] = b;
            }
        }
        let mut ids: Vec<usize> = Vec::new();
        (0..n)
            .map(|s| {
                let r = find(&mut root, s);
                ids.iter().position(|&x| x == r).unwrap_or_else(|| {
                    ids.push(r);
                    ids.len() - 1
                })
            })
            .collect()
    }

    /// Whether orbit `k`'s pieces move under `moves` exactly as some orbit
    /// marked in `kept` moves its own: a pairing of their slots that every
    /// move keeps (the emperor pyraminx's tips ride with the vertices
    /// under them). Then `k` is in place, up to twists, whenever that
    /// orbit is, and twists alone finish it.
    pub fn rides_with_kept(&self, k: usize, moves: &[usize], kept: &[bool]) -> bool {
        (0..self.size.len())
            .filter(|&j| j != k && kept[j] && self.size[j] == self.size[k])
            .any(|j| self.paired(k, j, moves))
    }

    /// Whether some pairing of `k`'s slots with `j`'s (slot `i` with
    /// `pair[i]`) is kept by every move: grown by following the moves
    /// from each seed pair in turn.
    fn paired(&self, k: usize, j: usize, moves: &[usize]) -> bool {
        let (bk, bj, n) = (self.base[k], self.base[j], self.size[k]);
        'seed: for seed in 0..n {
            let mut pair = vec![usize::MAX; n];
            pair[0] = seed;
            let mut queue = vec![0usize];
            while let Some(i) = queue.pop() {
                for &m in moves {
                    let dest = &self.moves[m].dest;
                    let to_k = dest[bk + i] as usize - bk;
                    let to_j = dest[bj + pair[i]] as usize - bj;
                    if pair[to_k] == usize::MAX {
                        pair[to_k] = to_j;
                        queue.push(to_k);
                    } else if pair[to_k] != to_j {
                        continue 'seed;
                    }
                }
            }
            // A bijection every move keeps: whatever fixes `j`'s slots
            // fixes `k`'s.
            let mut seen = vec![false; n];
            if pair
                .iter()
                .all(|&p| p != usize::MAX && !std::mem::replace(&mut seen[p], true))
            {
                return true;
            }
        }
        false
    }
}

/// One move applied to a piece at `(slot, twist)` of an orbit with `m`
/// orientations.
#[inline]
pub(crate) fn step(mv: &ModelMove, (slot, twist): (u16, u8), m: u8) -> (u16, u8) {
    let s = slot as usize;
    (mv.dest[s], (twist + mv.twist[s]) % m)
}

/// What sequences of moves do, traced over only the slots they touch.
///
/// [`Model::follow`] walks one piece through a whole sequence; reading a
/// sequence that way costs its length times the slots it touches. A
/// tracer instead keeps which piece stands in each slot and moves the
/// pieces of each move's support once, so a sequence costs the sum of its
/// moves' supports. It watches the slots of some orbits only (those a
/// search reads; moves never mix orbits). The buffers are reused from one
/// sequence to the next.
///
/// A search walking sequences depth first reads each from its prefix's
/// state instead ([`Tracer::push`], [`Tracer::pop`]): one move's support
/// a sequence, not the whole sequence's.
pub(crate) struct Tracer {
    /// Per move, the watched slots of its support, increasing: each slot,
    /// where the move takes its piece, the twist it adds, and the slot's
    /// orbit's orientation count.
    support: Vec<Vec<Step>>,
    /// Per slot: the slot its piece started in, and the twist it gained.
    occupant: Vec<(u16, u8)>,
    /// Per slot: where its piece went, and the twist it gained.
    went: Vec<(u16, u8)>,
    /// The slots touched so far, each once, in the order first touched.
    touched: Vec<u16>,
    is_touched: Vec<bool>,
    moving: Vec<(u16, u8)>,
    effect: Vec<(u16, u16, u8)>,
    /// The slots the sequence pushed so far changes.
    changed: Vec<u16>,
    /// The slots touched, in increasing order (for reading an effect
    /// while `touched` keeps the order they were first touched in).
    sorted: Vec<u16>,
    /// Per move pushed: the undo log's and `touched`'s lengths before it.
    frames: Vec<(usize, usize)>,
    /// Each slot a pushed move wrote, and what it held before.
    undo: Vec<(u16, (u16, u8))>,
}

/// One slot of a move's support, as a tracer reads it.
struct Step {
    slot: u16,
    dest: u16,
    twist: u8,
    oris: u8,
}

impl Tracer {
    /// A tracer of the slots of the orbits `watched` marks.
    pub fn watching(model: &Model, watched: impl Fn(usize) -> bool) -> Tracer {
        let slots = model.slots();
        let support = model
            .moves
            .iter()
            .map(|mv| {
                (mv.support.iter().copied())
                    .filter(|&s| watched(model.orbit_of[s as usize] as usize))
                    .map(|s| Step {
                        slot: s,
                        dest: mv.dest[s as usize],
                        twist: mv.twist[s as usize],
                        oris: model.oris[model.orbit_of[s as usize] as usize],
                    })
                    .collect()
            })
            .collect();
        Tracer {
            support,
            occupant: (0..slots as u16).map(|s| (s, 0)).collect(),
            went: vec![(0, 0); slots],
            touched: Vec::new(),
            is_touched: vec![false; slots],
            moving: Vec::new(),
            effect: Vec::new(),
            changed: Vec::new(),
            sorted: Vec::new(),
            frames: Vec::new(),
            undo: Vec::new(),
        }
    }

    /// What `seq` does to every watched slot its moves touch (their
    /// supports' union), as `(from, to, twist)`: where the piece from
    /// `from` ends and the twist it gains, as [`Model::follow`] gives;
    /// `(s, s, 0)` for a slot touched and brought back. In increasing
    /// order of `from`. (Not while moves are pushed.)
    pub fn trace(&mut self, seq: &[usize]) -> &[(u16, u16, u8)] {
        debug_assert!(self.frames.is_empty(), "trace while moves are pushed");
        self.reset();
        for &m in seq {
            self.apply(m, false);
        }
        self.touched.sort_unstable();
        let touched = std::mem::take(&mut self.touched);
        self.read_effect(&touched);
        self.touched = touched;
        &self.effect
    }

    /// Adds move `m` to the sequence pushed so far (the first one pushed
    /// starts a new sequence).
    pub fn push(&mut self, m: usize) {
        if self.frames.is_empty() {
            self.reset();
        }
        self.frames.push((self.undo.len(), self.touched.len()));
        self.apply(m, true);
    }

    /// Takes the last move pushed off again.
    pub fn pop(&mut self) {
        let (undo, touched) = self.frames.pop().expect("a move was pushed");
        for (s, before) in self.undo.drain(undo..).rev() {
            self.occupant[s as usize] = before;
        }
        for s in self.touched.drain(touched..) {
            self.is_touched[s as usize] = false;
        }
    }

    /// The watched slots the sequence pushed so far changes, in no
    /// particular order.
    pub fn changed(&mut self) -> &[u16] {
        self.changed.clear();
        for &s in &self.touched {
            if self.occupant[s as usize] != (s, 0) {
                self.changed.push(s);
            }
        }
        &self.changed
    }

    /// What the sequence pushed so far does, as [`Tracer::trace`] gives.
    pub fn pushed_effect(&mut self) -> &[(u16, u16, u8)] {
        let mut sorted = std::mem::take(&mut self.sorted);
        sorted.clear();
        sorted.extend_from_slice(&self.touched);
        sorted.sort_unstable();
        self.read_effect(&sorted);
        self.sorted = sorted;
        &self.effect
    }

    /// Every slot home again.
    fn reset(&mut self) {
        for &s in &self.touched {
            self.occupant[s as usize] = (s, 0);
            self.is_touched[s as usize] = false;
        }
        self.touched.clear();
    }

    /// Moves the pieces of `m`'s support, logging what it overwrites
    /// where `logged`.
    fn apply(&mut self, m: usize, logged: bool) {
        self.moving.clear();
        for step in &self.support[m] {
            let s = step.slot as usize;
            let (from, twist) = self.occupant[s];
            // Both below the count: one subtraction reduces the sum.
            let sum = twist + step.twist;
            let twist = if sum >= step.oris {
                sum - step.oris
            } else {
                sum
            };
            self.moving.push((from, twist));
            if !self.is_touched[s] {
                self.is_touched[s] = true;
                self.touched.push(step.slot);
            }
        }
        for (step, &piece) in self.support[m].iter().zip(&self.moving) {
            let at = &mut self.occupant[step.dest as usize];
            if logged {
                self.undo.push((step.dest, *at));
            }
            *at = piece;
        }
    }

    /// `effect` from the occupants of the touched slots, given in
    /// increasing order.
    fn read_effect(&mut self, touched: &[u16]) {
        // The pieces come from the touched slots and end in them.
        for &to in touched {
            let (from, twist) = self.occupant[to as usize];
            self.went[from as usize] = (to, twist);
        }
        self.effect.clear();
        for &from in touched {
            let (to, twist) = self.went[from as usize];
            self.effect.push((from, to, twist));
        }
    }
}

/// The union of two increasing lists.
pub(crate) fn merge_sorted(a: &[u16], b: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let x = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) if x < y => {
                i += 1;
                x
            }
            (Some(&x), Some(&y)) if x > y => {
                j += 1;
                y
            }
            (Some(&x), Some(_)) => {
                i += 1;
                j += 1;
                x
            }
            (Some(&x), None) => {
                i += 1;
                x
            }
            (None, Some(&y)) => {
                j += 1;
                y
            }
            (None, None) => unreachable!("the loop runs while one list has more"),
        };
        out.push(x);
    }
    out
}

/// A transformation's map of slots: under `(a·t).p[s] = a.p[t.p[s]]` the
/// piece in slot `t.p[s]` moves to `s` and gains `t.o[s]`.
fn move_map(layout: &Layout, base: &[usize], t: &[u8], name: &str, grip: usize) -> ModelMove {
    let slots =
        base.last().map_or(0, |&b| b) + layout.orbits().last().map_or(0, |o| o.num_pieces());
    let mut dest: Vec<u16> = (0..slots as u16).collect();
    let mut twist = vec![0u8; slots];
    let mut support = Vec::new();
    for (k, &first) in base.iter().enumerate() {
        let p = layout.perm(t, k);
        let o = layout.ori(t, k);
        for (s, (&from, &tw)) in p.iter().zip(o).enumerate() {
            let from = first + from as usize;
            dest[from] = (first + s) as u16;
            twist[from] = tw;
        }
    }
    for (s, (&d, &tw)) in dest.iter().zip(&twist).enumerate() {
        if d as usize != s || tw != 0 {
            support.push(s as u16);
        }
    }
    ModelMove {
        name: name.to_string(),
        grip,
        inverse: usize::MAX,
        dest,
        twist,
        support,
    }
}

/// The goal's pieces of one id in one orbit, and where they belong.
#[derive(Clone, Debug)]
pub(crate) struct Class {
    /// Its orbit.
    pub orbit: usize,
    /// The goal id its pieces carry.
    pub id: u8,
    /// Its home slots (orbit-local, increasing).
    pub homes: Vec<u16>,
    /// The modulus its orientation is known to (1: ignored).
    pub modulus: u8,
    /// Its solved coordinate's points: `slot * modulus + orientation`,
    /// increasing.
    pub goal_points: Vec<u16>,
}

impl Class {
    /// Points of its orbit (`slots * modulus`).
    pub fn num_points(&self, model: &Model) -> usize {
        model.size[self.orbit] * self.modulus as usize
    }

    /// How many pieces it has.
    pub fn len(&self) -> usize {
        self.homes.len()
    }
}

/// The classes of `goal`, orbit by orbit, ids in order of first home.
pub(crate) fn classes(layout: &Layout, goal: &Pattern) -> Vec<Class> {
    let mut out = Vec::new();
    for (k, o) in layout.orbits().iter().enumerate() {
        let perm = layout.perm(goal.as_bytes(), k);
        let ori = layout.ori(goal.as_bytes(), k);
        let full = o.num_orientations() as u8;
        let mut ids: Vec<u8> = Vec::new();
        for &id in perm {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        for id in ids {
            let homes: Vec<u16> = (0..perm.len())
                .filter(|&s| perm[s] == id)
                .map(|s| s as u16)
                .collect();
            // The modulus every home agrees on: the gcd of theirs.
            let modulus = homes.iter().fold(0u8, |g, &s| {
                let (_, m) = layout.decode_orientation(k, ori[s as usize]);
                gcd(g, if m == 0 { full } else { m })
            });
            let modulus = modulus.max(1);
            let mut goal_points: Vec<u16> = homes
                .iter()
                .map(|&s| {
                    let (v, _) = layout.decode_orientation(k, ori[s as usize]);
                    s * modulus as u16 + (v % modulus) as u16
                })
                .collect();
            goal_points.sort_unstable();
            out.push(Class {
                orbit: k,
                id,
                homes,
                modulus,
                goal_points,
            });
        }
    }
    out
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The points of `class` in `position` (a pattern in the goal's terms),
/// increasing.
pub(crate) fn class_points(layout: &Layout, class: &Class, position: &[u8], out: &mut Vec<u16>) {
    out.clear();
    let k = class.orbit;
    let perm = layout.perm(position, k);
    let ori = layout.ori(position, k);
    let m = class.modulus as u16;
    for (s, (&id, &code)) in perm.iter().zip(ori).enumerate() {
        if id == class.id {
            let (v, _) = layout.decode_orientation(k, code);
            out.push(s as u16 * m + v as u16 % m);
        }
    }
    out.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_core::random::SeededRng;
    use twistor_geometry::{build, PuzzleOptions};
    use twistor_search::Metric;

    fn model(name: &str) -> Model {
        let puzzle = build(name, &PuzzleOptions::default())
            .expect("a named puzzle")
            .into_puzzle();
        Model::new(&MoveSet::all(&puzzle, Metric::Htm).expect("its moves")).expect("a model")
    }

    /// Two ways of reading a sequence: every piece followed through it one
    /// at a time, and the tracer moving each move's pieces at once.
    #[test]
    fn tracing_a_sequence_agrees_with_following_each_piece() {
        for name in ["megaminx", "FTO", "skewb", "4x4x4"] {
            let model = model(name);
            let watched = |k: usize| k % 2 == 0;
            let mut tracer = Tracer::watching(&model, watched);
            let mut rng = SeededRng::new(5);
            for _ in 0..50 {
                let len = rng.below(12);
                let seq: Vec<usize> = (0..len).map(|_| rng.below(model.moves.len())).collect();
                let traced = tracer.trace(&seq).to_vec();
                let mut touched: Vec<u16> = seq
                    .iter()
                    .flat_map(|&m| model.moves[m].support.iter().copied())
                    .filter(|&s| watched(model.orbit_of[s as usize] as usize))
                    .collect();
                touched.sort_unstable();
                touched.dedup();
                let followed: Vec<(u16, u16, u8)> = touched
                    .iter()
                    .map(|&s| {
                        let (to, twist) = model.follow(&seq, s);
                        (s, to, twist)
                    })
                    .collect();
                assert_eq!(traced, followed, "{name}: {seq:?}");
            }
        }
    }

    /// A sequence built a move at a time and taken back again reads as
    /// the same sequence traced whole, at every length on the way.
    #[test]
    fn pushing_and_popping_moves_agrees_with_tracing_the_sequence() {
        for name in ["megaminx", "FTO", "4x4x4"] {
            let model = model(name);
            let watched = |k: usize| k % 2 == 1;
            let mut whole = Tracer::watching(&model, watched);
            let mut pushed = Tracer::watching(&model, watched);
            let mut rng = SeededRng::new(9);
            for _ in 0..30 {
                let len = 1 + rng.below(8);
                let seq: Vec<usize> = (0..len).map(|_| rng.below(model.moves.len())).collect();
                // Down to a random depth and back up, twice, checking
                // every prefix met.
                let mut at = 0;
                for target in [len, rng.below(len), len, 0] {
                    while at != target {
                        if at < target {
                            pushed.push(seq[at]);
                            at += 1;
                        } else {
                            pushed.pop();
                            at -= 1;
                        }
                        let prefix = &seq[..at];
                        let traced = whole.trace(prefix).to_vec();
                        assert_eq!(pushed.pushed_effect(), traced, "{name}: {prefix:?}");
                        let mut changed = pushed.changed().to_vec();
                        changed.sort_unstable();
                        let moved: Vec<u16> = (traced.iter())
                            .filter(|&&(from, to, twist)| from != to || twist != 0)
                            .map(|e| e.0)
                            .collect();
                        assert_eq!(changed, moved, "{name}: {prefix:?}");
                    }
                }
            }
            // Traced whole in between, a tracer starts a new sequence on
            // its next push.
            pushed.trace(&[0, 1]);
            pushed.push(2);
            assert_eq!(pushed.pushed_effect(), whole.trace(&[2]), "{name}");
        }
    }
}
