//! Sequence utilities: cancelling, canonical order, pushing rotations to
//! the end, telling positions apart, and which moves touch which pieces.
//!
//! Every utility works on the expanded moves of an alg (groupings,
//! commutators and conjugates written out) and keeps each move in the
//! notation it was written in. Two moves are on the same *grip* when they
//! have the same quantum (the move without its amount: `R`, `2-3Rw`, `x`);
//! amounts are reduced modulo the quantum's order on the puzzle and written
//! as twsearch writes powers, in `(-order/2, order/2]` (`R2`, `R'`; on a
//! megaminx `R2'`).

use std::collections::{HashMap, HashSet};

use twistor_core::{is_rotation_name, Layout, MoveDef, MoveKind, Pattern, Puzzle, Transformation};
use twistor_formats::alg::{Alg, AlgNode, Move};
use twistor_formats::resolve::move_transformation;
use twistor_search::canonical::FORBIDDEN;
use twistor_search::{CanonicalFsm, Metric, MoveSet};

use crate::ToolError;

/// Most moves an alg may expand to for [`cancel`], [`unrotate`] and
/// position look-ups.
pub const MOVE_LIMIT: usize = 1_000_000;
/// Most moves an alg may expand to for [`canonicalize`], whose reordering
/// is quadratic in the length.
pub const CANONICALIZE_LIMIT: usize = 20_000;

/// The moves of `alg` written out, within `limit`.
pub fn expand(alg: &Alg, limit: usize) -> Result<Vec<Move>, ToolError> {
    Ok(alg.expanded_moves(limit)?)
}

/// An alg of these moves; Square-1 turns (`U_SQ_`, `D_SQ_` families) are
/// written back as `(u, d)` tuples.
pub fn moves_to_alg(moves: &[Move]) -> Alg {
    let mut nodes = Vec::with_capacity(moves.len());
    let mut i = 0;
    while i < moves.len() {
        let m = &moves[i];
        let sq = |family: &str, amount: i32| Move::new(family, amount);
        if m.family == "U_SQ_" || m.family == "D_SQ_" {
            let (u, d, used) = match (m.family.as_str(), moves.get(i + 1)) {
                ("U_SQ_", Some(n)) if n.family == "D_SQ_" => (m.amount, n.amount, 2),
                ("U_SQ_", _) => (m.amount, 0, 1),
                _ => (0, m.amount, 1),
            };
            nodes.push(AlgNode::Grouping(
                Alg::from_moves([sq("U_SQ_", u), sq("D_SQ_", d)]),
                1,
            ));
            i += used;
        } else {
            nodes.push(AlgNode::Move(m.clone()));
            i += 1;
        }
    }
    Alg::from_nodes(nodes)
}

/// A Square-1 answer written with the definition's turns (`_SLASH_
/// U_SQ_3' D_SQ_`) in the WCA's notation (`/ (-3, 1) /`); the text as it
/// is if it does not read.
pub fn in_square1_notation(text: &str) -> String {
    match Alg::parse(text).map(|a| a.expanded_moves(1 << 20)) {
        Ok(Ok(moves)) => moves_to_alg(&moves).to_string(),
        _ => text.to_string(),
    }
}

/// The quantum of a move with amount 1.
fn unit(m: &Move) -> Move {
    Move::new(m.family.clone(), 1).with_layers(m.outer_layer, m.inner_layer)
}

/// Looks moves up on a puzzle and remembers what they do.
pub struct MoveTable<'p> {
    puzzle: &'p Puzzle,
    /// Quantum → (what one turn does, its order if it fits).
    quanta: HashMap<String, (Transformation, Option<i64>)>,
}

impl<'p> MoveTable<'p> {
    /// An empty table for `puzzle`.
    pub fn new(puzzle: &'p Puzzle) -> MoveTable<'p> {
        MoveTable {
            puzzle,
            quanta: HashMap::new(),
        }
    }

    /// The puzzle.
    pub fn puzzle(&self) -> &'p Puzzle {
        self.puzzle
    }

    fn entry(&mut self, m: &Move) -> Result<&(Transformation, Option<i64>), ToolError> {
        let q = m.quantum();
        if !self.quanta.contains_key(&q) {
            let t = move_transformation(self.puzzle, &unit(m))?;
            let order = i64::try_from(self.puzzle.layout().order(&t)).ok();
            self.quanta.insert(q.clone(), (t, order));
        }
        Ok(&self.quanta[&q])
    }

    /// What one turn of `m`'s quantum does.
    pub fn quantum_transformation(&mut self, m: &Move) -> Result<Transformation, ToolError> {
        Ok(self.entry(m)?.0.clone())
    }

    /// What `m` does.
    pub fn transformation(&mut self, m: &Move) -> Result<Transformation, ToolError> {
        let layout = self.puzzle.layout().clone();
        let (t, order) = self.entry(m)?.clone();
        let amount = match order {
            Some(o) => (m.amount as i64).rem_euclid(o),
            None => m.amount as i64,
        };
        Ok(layout.power(&t, amount))
    }

    /// What a sequence of moves does.
    pub fn sequence_transformation(&mut self, moves: &[Move]) -> Result<Transformation, ToolError> {
        let layout = self.puzzle.layout().clone();
        let mut t = layout.identity();
        for m in moves {
            t = layout.compose(&t, &self.transformation(m)?);
        }
        Ok(t)
    }

    /// `m` with its amount reduced modulo its quantum's order into
    /// `(-order/2, order/2]`; `None` when that is no turn at all. A move
    /// whose reduced amount the notation cannot write (a Pochmann `R++`
    /// turned twice) keeps its amount.
    pub fn normalize(&mut self, m: &Move) -> Result<Option<Move>, ToolError> {
        let (_, order) = self.entry(m)?;
        let Some(order) = *order else {
            return Ok((m.amount != 0).then(|| m.clone()));
        };
        let mut a = (m.amount as i64).rem_euclid(order);
        if a == 0 {
            return Ok(None);
        }
        if 2 * a > order {
            a -= order;
        }
        let mut out = m.clone();
        out.amount = a as i32;
        Ok(Some(if writable(&out) { out } else { m.clone() }))
    }
}

/// `alg` with the amount of each of its top-level moves reduced as
/// [`MoveTable::normalize`] reduces it (`U2'` → `U2` where `U` turns by
/// quarters, `R5` → `R` on a cube), for showing a person an alg made by
/// inverting one; groupings, comments and moves the puzzle does not know
/// stay as written, and a move reduced to nothing stays too (the alg's
/// length is kept).
pub fn amounts_reduced(puzzle: &Puzzle, alg: &Alg) -> Alg {
    let mut table = MoveTable::new(puzzle);
    let nodes = alg
        .nodes()
        .iter()
        .map(|node| match node {
            AlgNode::Move(m) => match table.normalize(m) {
                Ok(Some(n)) => AlgNode::Move(n),
                _ => node.clone(),
            },
            other => other.clone(),
        })
        .collect();
    Alg::from_nodes(nodes)
}

/// Whether `m` prints as text that reads back as the same move.
fn writable(m: &Move) -> bool {
    if m.family == "U_SQ_" || m.family == "D_SQ_" {
        return true;
    }
    // Internal families (`R_PLUSPLUS_` for `R++`) print as notation only
    // for the amounts the notation has; other amounts would print as names
    // no reader knows.
    let text = m.to_string();
    !text.contains('_')
        && match Alg::parse(&text) {
            Ok(a) => matches!(a.nodes(), [AlgNode::Move(x)] if x == m),
            Err(_) => false,
        }
}

/// Merges `m` into `into` (same quantum): `Ok(Some(merged))`, `Ok(None)`
/// when they cancel, `Err(())` when the sum cannot be written.
fn merge(
    table: &mut MoveTable,
    into: &Move,
    m: &Move,
) -> Result<Result<Option<Move>, ()>, ToolError> {
    let mut sum = into.clone();
    sum.amount = into.amount.saturating_add(m.amount);
    let Some(n) = table.normalize(&sum)? else {
        return Ok(Ok(None));
    };
    Ok(if writable(&n) { Ok(Some(n)) } else { Err(()) })
}

/// Merges adjacent moves on the same grip until no two adjacent moves share
/// one: `R U U' R2` becomes `R'`. Moves are never moved past each other.
pub fn cancel(table: &mut MoveTable, moves: &[Move]) -> Result<Vec<Move>, ToolError> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for m in moves {
        let Some(m) = table.normalize(m)? else {
            continue;
        };
        match out.last() {
            Some(top) if top.quantum() == m.quantum() => match merge(table, top, &m)? {
                Ok(Some(n)) => *out.last_mut().expect("non-empty") = n,
                Ok(None) => {
                    out.pop();
                }
                Err(()) => out.push(m),
            },
            _ => out.push(m),
        }
    }
    Ok(out)
}

/// Commutation of the grips of a sequence, from the canonical-sequence
/// automaton of crates/search, with grips ordered as the puzzle lists its
/// moves (other quanta after them, by name).
struct Grips {
    /// Quantum → class index (the order of canonical sequences).
    class: HashMap<String, usize>,
    /// `commute[a][b]`.
    commute: Vec<Vec<bool>>,
}

impl Grips {
    fn new(table: &mut MoveTable, moves: &[Move]) -> Result<Grips, ToolError> {
        let puzzle = table.puzzle();
        let mut quanta: Vec<(usize, String, Move)> = Vec::new();
        let mut seen = HashSet::new();
        for m in moves {
            let q = m.quantum();
            if seen.insert(q.clone()) {
                let rank = puzzle.find_move(&q).unwrap_or(usize::MAX);
                quanta.push((rank, q, unit(m)));
            }
        }
        quanta.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        // A puzzle whose moves are exactly these quanta, in this order.
        let layout = puzzle.layout().clone();
        let mut grips_puzzle = Puzzle::new("grips", layout.clone(), puzzle.start().clone());
        let mut names = Vec::new();
        for (i, (_, _, m)) in quanta.iter().enumerate() {
            let name = format!("G{i}");
            grips_puzzle
                .add_move(MoveDef {
                    name: name.clone(),
                    transformation: table.quantum_transformation(m)?,
                    kind: MoveKind::Base,
                    definition: None,
                })
                .expect("names are distinct");
            names.push(name);
        }
        let class: HashMap<String, usize> = quanta
            .iter()
            .enumerate()
            .map(|(i, (_, q, _))| (q.clone(), i))
            .collect();
        let n = quanta.len();
        let mut commute = vec![vec![false; n]; n];
        if n > 0 {
            let set = MoveSet::named(&grips_puzzle, &names, Metric::Htm)?;
            let fsm = CanonicalFsm::new(&set)?;
            // One search move of each grip (a grip that does nothing has
            // none and commutes with everything).
            let first: Vec<Option<usize>> = (0..n)
                .map(|g| set.moves().iter().position(|m| m.grip == g))
                .collect();
            // In the automaton, grip b right after grip a (from the start)
            // is forbidden exactly when b = a or when a > b and they
            // commute (the state after one move remembers only that move).
            for a in 0..n {
                for b in 0..a {
                    let c = match (first[a], first[b]) {
                        (Some(ma), Some(mb)) => {
                            let s = fsm.next(CanonicalFsm::START, ma);
                            s != FORBIDDEN && fsm.next(s, mb) == FORBIDDEN
                        }
                        _ => true,
                    };
                    commute[a][b] = c;
                    commute[b][a] = c;
                }
            }
        }
        Ok(Grips { class, commute })
    }

    fn class(&self, m: &Move) -> usize {
        self.class[&m.quantum()]
    }
}

/// The canonical form of a sequence: adjacent moves on the same grip are
/// merged, moves on the same grip separated only by moves that commute with
/// them are merged too, and runs of commuting moves are put in increasing
/// order of grip (the puzzle's move order), so that the result is a
/// canonical sequence in the sense of crates/search's canonical automaton
/// (half-turn metric) and two sequences equal up to commuting moves give
/// the same result. Commutation is decided on the puzzle (every power of
/// one grip commutes with every power of the other).
pub fn canonicalize(table: &mut MoveTable, moves: &[Move]) -> Result<Vec<Move>, ToolError> {
    let seq = cancel(table, moves)?;
    let grips = Grips::new(table, &seq)?;
    // Merge each move into an earlier one on the same grip when every move
    // in between commutes with it. Left to right this reaches the fixed
    // point in one pass: a move that blocked a merge can only go away by
    // merging with a later move on its own grip, which the same blocker
    // stops first.
    let mut merged: Vec<(Move, usize)> = Vec::with_capacity(seq.len());
    for m in seq {
        let c = grips.class(&m);
        let mut target = None;
        for i in (0..merged.len()).rev() {
            if merged[i].1 == c {
                target = Some(i);
                break;
            }
            if !grips.commute[merged[i].1][c] {
                break;
            }
        }
        match target {
            Some(i) => match merge(table, &merged[i].0, &m)? {
                Ok(Some(n)) => merged[i].0 = n,
                Ok(None) => {
                    merged.remove(i);
                }
                Err(()) => merged.push((m, c)),
            },
            None => merged.push((m, c)),
        }
    }
    // From the end: of the moves that commute with everything after them,
    // the one of the highest grip goes last. `blockers[k]`: moves after k
    // that do not commute with it.
    let n = merged.len();
    let mut blockers: Vec<usize> = (0..n)
        .map(|k| {
            merged[k + 1..]
                .iter()
                .filter(|x| !grips.commute[merged[k].1][x.1])
                .count()
        })
        .collect();
    let mut alive = vec![true; n];
    let mut back = Vec::with_capacity(n);
    for _ in 0..n {
        let k = (0..n)
            .filter(|&k| alive[k] && blockers[k] == 0)
            .max_by_key(|&k| (merged[k].1, k))
            .expect("the last remaining move always qualifies");
        alive[k] = false;
        for j in 0..k {
            if alive[j] && !grips.commute[merged[j].1][merged[k].1] {
                blockers[j] -= 1;
            }
        }
        back.push(merged[k].0.clone());
    }
    back.reverse();
    Ok(back)
}

/// Whether a move turns the whole puzzle: its quantum is a rotation name
/// (`x`, `y`, `z`, `Uv`) or a rotation the puzzle defines.
pub fn is_rotation(puzzle: &Puzzle, m: &Move) -> bool {
    let q = m.quantum();
    is_rotation_name(&q)
        || puzzle
            .find_move(&q)
            .is_some_and(|i| puzzle.moves()[i].is_rotation())
}

/// Pushes every whole-puzzle rotation to the end: a move after rotations
/// `r` becomes the move that does `r m r⁻¹`, so `x U` becomes `F x` on the
/// 3x3x3. Conjugated moves are named in the style of the move they come
/// from (same layers and suffix, another face or axis) when the puzzle
/// resolves such a name, else by a named move of the puzzle. The
/// rotations follow, in their order, adjacent ones merged.
pub fn unrotate(table: &mut MoveTable, moves: &[Move]) -> Result<Vec<Move>, ToolError> {
    let puzzle = table.puzzle();
    let layout = puzzle.layout().clone();
    let mut namer = Namer::new(puzzle);
    let mut rotation = layout.identity();
    let mut rotation_inverse = layout.identity();
    let mut rotations = Vec::new();
    let mut out = Vec::new();
    for m in moves {
        let t = table.transformation(m)?;
        if is_rotation(puzzle, m) {
            rotation = layout.compose(&rotation, &t);
            rotation_inverse = layout.invert(&rotation);
            rotations.push(m.clone());
            continue;
        }
        if layout.is_identity(&rotation) {
            out.push(m.clone());
            continue;
        }
        let conjugate = layout.compose(&layout.compose(&rotation, &t), &rotation_inverse);
        match namer.name(table, m, &conjugate)? {
            Some(n) => out.push(n),
            None => return Err(ToolError::Unnameable { alg: m.to_string() }),
        }
    }
    out.extend(cancel(table, &rotations)?);
    Ok(out)
}

/// Finds a move that does a given transformation.
struct Namer {
    /// Families of the puzzle's move names (letters after any layer prefix).
    families: Vec<String>,
    /// Transformation → move, for the puzzle's named moves and their powers.
    named: HashMap<Vec<u8>, Move>,
}

impl Namer {
    fn new(puzzle: &Puzzle) -> Namer {
        let layout = puzzle.layout();
        let mut families: Vec<String> = Vec::new();
        let mut named = HashMap::new();
        for mv in puzzle.moves() {
            let family: String = mv
                .name
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '-')
                .to_string();
            if !family.is_empty() && !families.contains(&family) {
                families.push(family);
            }
            if mv.is_rotation() {
                continue;
            }
            let order = i64::try_from(layout.order(&mv.transformation)).unwrap_or(0);
            for a in 1..order.min(1000) {
                let amount = if 2 * a > order { a - order } else { a };
                let Ok(parsed) = Alg::parse(&mv.name) else {
                    continue;
                };
                let [AlgNode::Move(base)] = parsed.nodes() else {
                    continue;
                };
                let mut m = base.clone();
                m.amount = amount as i32;
                named
                    .entry(layout.power(&mv.transformation, a).as_bytes().to_vec())
                    .or_insert(m);
            }
        }
        Namer { families, named }
    }

    fn name(
        &mut self,
        table: &mut MoveTable,
        like: &Move,
        t: &Transformation,
    ) -> Result<Option<Move>, ToolError> {
        let layout: Layout = table.puzzle().layout().clone();
        // Other families in the same style: R → U, F, ...; Rw → Uw, Fw, ...
        let wide = like.family.ends_with('w') && like.family.len() > 1;
        let lower = like.family.chars().all(|c| c.is_ascii_lowercase());
        let mut styled: Vec<String> = Vec::new();
        for f in &self.families {
            if f.ends_with('v') {
                continue;
            }
            let base = if lower {
                f.to_ascii_lowercase()
            } else {
                f.clone()
            };
            styled.push(if wide { format!("{base}w") } else { base });
        }
        for family in styled {
            let q = Move::new(family, 1).with_layers(like.outer_layer, like.inner_layer);
            let Ok(one) = table.quantum_transformation(&q) else {
                continue;
            };
            let order = i64::try_from(layout.order(&one)).unwrap_or(0);
            for a in 1..order.min(1000) {
                if layout.power(&one, a) == *t {
                    let mut m = q.clone();
                    m.amount = if 2 * a > order {
                        (a - order) as i32
                    } else {
                        a as i32
                    };
                    return Ok(Some(m));
                }
            }
        }
        Ok(self.named.get(t.as_bytes()).cloned())
    }
}

/// Remembers positions and tells whether a new one was seen before,
/// optionally up to symmetry.
pub struct PositionFilter {
    layout: Layout,
    start: Pattern,
    /// The rotation group (with the identity) for symmetric comparison,
    /// each with its inverse.
    symmetries: Vec<(Transformation, Transformation)>,
    seen: HashSet<Box<[u8]>>,
}

/// Most elements of a rotation group [`PositionFilter::with_symmetry`] accepts.
pub const MAX_SYMMETRIES: usize = 1000;

impl PositionFilter {
    /// A filter telling positions of `puzzle` apart exactly.
    pub fn new(puzzle: &Puzzle) -> PositionFilter {
        let layout = puzzle.layout().clone();
        let id = layout.identity();
        PositionFilter {
            layout,
            start: puzzle.start().clone(),
            symmetries: vec![(id.clone(), id)],
            seen: HashSet::new(),
        }
    }

    /// A filter that takes positions equal when one is the other conjugated
    /// by a rotation of the group the puzzle's whole-puzzle rotations
    /// generate (`ρ⁻¹ t ρ`: the same position seen from another side).
    pub fn with_symmetry(puzzle: &Puzzle) -> Result<PositionFilter, ToolError> {
        let rotations = puzzle.rotations();
        if rotations.is_empty() {
            return Err(ToolError::NoRotations);
        }
        let mut f = PositionFilter::new(puzzle);
        let layout = f.layout.clone();
        let gens: Vec<Transformation> = rotations
            .iter()
            .map(|&i| puzzle.moves()[i].transformation.clone())
            .collect();
        let mut group = vec![layout.identity()];
        let mut seen: HashSet<Transformation> = group.iter().cloned().collect();
        let mut i = 0;
        while i < group.len() {
            for g in &gens {
                let h = layout.compose(&group[i], g);
                if seen.insert(h.clone()) {
                    if group.len() >= MAX_SYMMETRIES {
                        return Err(ToolError::TooManySymmetries(MAX_SYMMETRIES));
                    }
                    group.push(h);
                }
            }
            i += 1;
        }
        f.symmetries = group
            .into_iter()
            .map(|r| {
                let inv = layout.invert(&r);
                (r, inv)
            })
            .collect();
        Ok(f)
    }

    /// How many rotations positions are compared under (1 without symmetry).
    pub fn symmetry_count(&self) -> usize {
        self.symmetries.len()
    }

    /// The key of the position `t` reaches: its pattern, or with symmetry
    /// the least pattern among its conjugates.
    pub fn key(&self, t: &Transformation) -> Box<[u8]> {
        let l = &self.layout;
        self.symmetries
            .iter()
            .map(|(r, inv)| {
                let c = l.compose(&l.compose(inv, t), r);
                l.apply(&self.start, &c)
                    .as_bytes()
                    .to_vec()
                    .into_boxed_slice()
            })
            .min()
            .expect("the identity is always there")
    }

    /// Records the position `t` reaches; whether it is new.
    pub fn insert(&mut self, t: &Transformation) -> bool {
        let k = self.key(t);
        self.seen.insert(k)
    }
}

/// What one move does to one orbit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrbitEffect {
    /// Orbit index.
    pub orbit: usize,
    /// Cycles of slots (0-based): the piece in `cycle[i]` goes to `cycle[i + 1]`.
    pub cycles: Vec<Vec<usize>>,
    /// Slots (0-based) whose piece arrives with its orientation changed,
    /// and by how much.
    pub twists: Vec<(usize, u8)>,
}

/// Which slots of which orbits a transformation moves or twists; orbits it
/// leaves alone are left out.
pub fn describe_transformation(layout: &Layout, t: &Transformation) -> Vec<OrbitEffect> {
    let mut out = Vec::new();
    for k in 0..layout.orbits().len() {
        let p = layout.perm(t.as_bytes(), k);
        let o = layout.ori(t.as_bytes(), k);
        // Slot p[i]'s piece goes to slot i.
        let mut dest = vec![0usize; p.len()];
        for (i, &from) in p.iter().enumerate() {
            dest[from as usize] = i;
        }
        let mut seen = vec![false; p.len()];
        let mut cycles = Vec::new();
        for s in 0..p.len() {
            if seen[s] || dest[s] == s {
                continue;
            }
            let mut c = Vec::new();
            let mut x = s;
            while !seen[x] {
                seen[x] = true;
                c.push(x);
                x = dest[x];
            }
            cycles.push(c);
        }
        let twists: Vec<(usize, u8)> = o
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .map(|(i, &v)| (i, v))
            .collect();
        if !cycles.is_empty() || !twists.is_empty() {
            out.push(OrbitEffect {
                orbit: k,
                cycles,
                twists,
            });
        }
    }
    out
}
