//! Finishing one orbit with pure operations: first every piece to a slot
//! of its class by aimed 3-cycles, then every orientation by aimed
//! 2-twists or by pairs of cycles over the same three slots.
//!
//! Both passes are greedy and never undo their own work: each 3-cycle
//! puts at least one piece home (two when the piece it displaces belongs
//! where the third one stood), never moves a piece that is home unless an
//! identical one takes its place, and among the choices that fix as many
//! pieces takes the one adding fewest moves (its setup undoing the last
//! one's counts against it); each pair of cycles fixes the
//! orientation of at least one piece and breaks none. Slots outside the
//! stage (`target` `None`) take whatever comes.

use crate::model::Model;
use crate::pure::{Aimed, OpKind, OrbitLibrary};

/// One orbit's pieces: the goal id and orientation in each slot.
#[derive(Clone, Debug)]
pub(crate) struct OrbitState {
    pub id: Vec<u8>,
    pub ori: Vec<u8>,
}

/// What one orbit's slots must hold.
#[derive(Clone, Debug)]
pub(crate) struct Scope {
    /// The goal id each slot must hold; `None`: any (not in the stage).
    pub target: Vec<Option<u8>>,
    /// The orientation each slot's piece must have, modulo `modulus`.
    pub goal_ori: Vec<u8>,
    /// Per slot, the modulus its orientation is compared to (1: any).
    pub modulus: Vec<u8>,
}

/// Why an orbit could not be finished.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FinishError {
    /// No cycle reaches the slots a piece must go through (the setups
    /// cannot aim at them, or the permutation left is odd).
    Permutation,
    /// No pair of cycles fixes an orientation.
    Orientation,
}

impl OrbitState {
    fn apply(&mut self, a: &Aimed, oris: u8) {
        let [t, s, u] = a.slots.map(|x| x as usize);
        if a.kind == OpKind::Twist {
            self.ori[t] = (self.ori[t] + a.twist[0]) % oris;
            self.ori[s] = (self.ori[s] + a.twist[1]) % oris;
            return;
        }
        let (it, is, iu) = (self.id[t], self.id[s], self.id[u]);
        let (ot, os, ou) = (self.ori[t], self.ori[s], self.ori[u]);
        self.id[s] = it;
        self.ori[s] = (ot + a.twist[0]) % oris;
        self.id[u] = is;
        self.ori[u] = (os + a.twist[1]) % oris;
        self.id[t] = iu;
        self.ori[t] = (ou + a.twist[2]) % oris;
    }
}

impl Scope {
    fn wrong(&self, state: &OrbitState, s: usize) -> bool {
        self.target[s].is_some_and(|g| state.id[s] != g)
    }

    /// Whether the piece in `s` (of the right class) is twisted.
    fn twisted(&self, state: &OrbitState, s: usize, extra: u8, oris: u8) -> bool {
        let m = self.modulus[s];
        m > 1
            && self.target[s] == Some(state.id[s])
            && ((state.ori[s] + extra) % oris + oris - self.goal_ori[s] % m) % m != 0
    }
}

/// Finishes `state` as `scope` asks with `library`'s cycles, appending
/// the moves to `out`.
pub(crate) fn finish(
    model: &Model,
    library: &OrbitLibrary,
    state: &mut OrbitState,
    scope: &Scope,
    out: &mut Vec<usize>,
) -> Result<(), FinishError> {
    let oris = model.oris[library.orbit];
    place(model, library, state, scope, oris, out)?;
    orient(model, library, state, scope, oris, out)
}

fn place(
    model: &Model,
    library: &OrbitLibrary,
    state: &mut OrbitState,
    scope: &Scope,
    oris: u8,
    out: &mut Vec<usize>,
) -> Result<(), FinishError> {
    let n = library.len();
    loop {
        let wrong: Vec<usize> = (0..n).filter(|&s| scope.wrong(state, s)).collect();
        if wrong.is_empty() {
            return Ok(());
        }
        // (gain, cost, t, s, u): the piece in t goes home to s.
        let mut options: Vec<(u32, u16, usize, usize, usize)> = Vec::new();
        for &s in &wrong {
            let g = scope.target[s].expect("a wrong slot has a target");
            for t in (0..n).filter(|&t| t != s && state.id[t] == g && scope.target[t] != Some(g)) {
                for u in (0..n).filter(|&u| u != s && u != t) {
                    let keeps_u = match scope.target[u] {
                        None => true,
                        Some(gu) => state.id[u] != gu || state.id[s] == gu,
                    };
                    if !keeps_u {
                        continue;
                    }
                    let Some(cost) = library.cost(t as u16, s as u16, u as u16) else {
                        continue;
                    };
                    let gain = 1
                        + u32::from(scope.target[u] == Some(state.id[s]) && scope.wrong(state, u))
                        + u32::from(scope.target[t] == Some(state.id[u]));
                    options.push((gain, cost, t, s, u));
                }
            }
        }
        if options.is_empty() {
            return Err(FinishError::Permutation);
        }
        // The most pieces home, cheapest first; among the best few, every
        // cycle is tried for the one that also leaves the most of them
        // turned right (a twist fixed later costs two cycles).
        options.sort_unstable_by_key(|&(gain, cost, t, s, u)| {
            (std::cmp::Reverse(gain), cost, t, s, u)
        });
        let top = options[0].0;
        let mut best: Option<(i64, Aimed)> = None;
        for &(gain, _, t, s, u) in options.iter().filter(|o| o.0 == top).take(PLACE_CHOICES) {
            for aimed in library.aim_all(model, t as u16, s as u16, u as u16) {
                let mut after = state.clone();
                after.apply(&aimed, oris);
                let turned = [t, s, u]
                    .iter()
                    .filter(|&&x| {
                        scope.target[x] == Some(after.id[x]) && !scope.twisted(&after, x, 0, oris)
                    })
                    .count() as i64;
                let score =
                    TWIST_WORTH * (gain as i64 + turned) - added_moves(model, out, &aimed.moves);
                if best.as_ref().is_none_or(|(b, _)| score > *b) {
                    best = Some((score, aimed));
                }
            }
        }
        let (_, aimed) = best.ok_or(FinishError::Permutation)?;
        state.apply(&aimed, oris);
        out.extend_from_slice(&aimed.moves);
    }
}

/// Placing choices (triples) whose every cycle is tried for orientation.
const PLACE_CHOICES: usize = 16;
/// Moves a piece placed and turned right is worth (about half what a
/// twisting pair of cycles costs a piece).
const TWIST_WORTH: i64 = 10;

/// Slots tried as the third of a twisting pair, per piece to fix.
const THIRD_SLOTS: usize = 6;

fn orient(
    model: &Model,
    library: &OrbitLibrary,
    state: &mut OrbitState,
    scope: &Scope,
    oris: u8,
    out: &mut Vec<usize>,
) -> Result<(), FinishError> {
    let n = library.len();
    loop {
        let Some(p) = (0..n).find(|&s| scope.twisted(state, s, 0, oris)) else {
            return Ok(());
        };
        // A partner whose twist can take what p gives up: another twisted
        // piece, or a piece outside the stage.
        let partners: Vec<usize> = (0..n)
            .filter(|&q| q != p && (scope.twisted(state, q, 0, oris) || scope.target[q].is_none()))
            .collect();
        // (gain, cost, the operations).
        let mut best: Option<(u32, usize, Vec<Aimed>)> = None;
        let mut consider = |gain: u32, ops: Vec<Aimed>| {
            let cost = (added_moves(model, out, &ops[0].moves).max(0)
                + ops[1..].iter().map(|a| a.moves.len() as i64).sum::<i64>())
                as usize;
            let better = match &best {
                None => true,
                Some((bg, bc, _)) => gain > *bg || (gain == *bg && cost < *bc),
            };
            if better {
                best = Some((gain, cost, ops));
            }
        };
        let fixes =
            |x: usize, d: u8| scope.twisted(state, x, 0, oris) && !scope.twisted(state, x, d, oris);
        let harms =
            |x: usize, d: u8| !scope.twisted(state, x, 0, oris) && scope.twisted(state, x, d, oris);
        // A twist of p and a partner at once.
        for &q in &partners {
            for twist in library.aim_twists(model, p as u16, q as u16) {
                let (dp, dq) = (twist.twist[0], twist.twist[1]);
                if fixes(p, dp) && !harms(q, dq) {
                    consider(1 + u32::from(fixes(q, dq)), vec![twist]);
                }
            }
        }
        for &q in &partners {
            let mut thirds: Vec<(u32, usize)> = (0..n)
                .filter(|&r| r != p && r != q)
                .filter_map(|r| {
                    let one = library.cost(p as u16, q as u16, r as u16)?;
                    let two = library.cost(q as u16, p as u16, r as u16)?;
                    Some((one as u32 + two as u32, r))
                })
                .collect();
            thirds.sort_unstable();
            for &(_, r) in thirds.iter().take(THIRD_SLOTS) {
                let (p16, q16, r16) = (p as u16, q as u16, r as u16);
                // The cycle p → q → r written from each of its slots, and
                // back the other way.
                let forth: Vec<Aimed> = [(p16, q16, r16), (q16, r16, p16), (r16, p16, q16)]
                    .iter()
                    .flat_map(|&(a, b, c)| library.aim_all(model, a, b, c))
                    .collect();
                let back: Vec<Aimed> = [(q16, p16, r16), (p16, r16, q16), (r16, q16, p16)]
                    .iter()
                    .flat_map(|&(a, b, c)| library.aim_all(model, a, b, c))
                    .collect();
                for one in &forth {
                    for two in &back {
                        let net = |x: usize| -> u8 {
                            let first = gained(one, x);
                            let there = one.slots[(slot_index(one, x) + 1) % 3] as usize;
                            (first + gained(two, there)) % oris
                        };
                        let (np, nq, nr) = (net(p), net(q), net(r));
                        if !fixes(p, np) || harms(q, nq) || harms(r, nr) {
                            continue;
                        }
                        let gain = 1 + u32::from(fixes(q, nq)) + u32::from(fixes(r, nr));
                        consider(gain, vec![one.clone(), two.clone()]);
                    }
                }
            }
        }
        let (_, _, ops) = best.ok_or(FinishError::Orientation)?;
        for op in ops {
            state.apply(&op, oris);
            out.extend_from_slice(&op.moves);
        }
    }
}

/// How many moves `next` adds after `out`: its length less the pairs of
/// a move and its inverse that meet where they join (the setup that ends
/// one operation is often undone by the setup that starts the next).
fn added_moves(model: &Model, out: &[usize], next: &[usize]) -> i64 {
    let meeting = out
        .iter()
        .rev()
        .zip(next)
        .take_while(|&(&a, &b)| model.moves[a].inverse == b)
        .count();
    next.len() as i64 - 2 * meeting as i64
}

fn slot_index(a: &Aimed, x: usize) -> usize {
    a.slots
        .iter()
        .position(|&s| s as usize == x)
        .expect("the slot is one of the cycle's")
}

/// The twist the piece leaving slot `x` gains in `a`.
fn gained(a: &Aimed, x: usize) -> u8 {
    a.twist[slot_index(a, x)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_core::random::SeededRng;
    use twistor_geometry::{build, PuzzleOptions};
    use twistor_search::{Metric, MoveSet};

    /// Words with no move next to its inverse.
    fn reduced(model: &Model, word: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for &m in word {
            match out.last() {
                Some(&last) if model.moves[last].inverse == m => {
                    out.pop();
                }
                _ => out.push(m),
            }
        }
        out
    }

    /// What an operation adds after a sequence is what free reduction of
    /// the two together leaves beyond the sequence, on words built to
    /// cancel at the join by a random number of moves.
    #[test]
    fn added_moves_are_what_free_reduction_leaves() {
        let puzzle = build("megaminx", &PuzzleOptions::default())
            .expect("the megaminx")
            .into_puzzle();
        let model =
            Model::new(&MoveSet::all(&puzzle, Metric::Htm).expect("its moves")).expect("a model");
        let mut rng = SeededRng::new(31);
        let n = model.moves.len();
        let mut cancelled = 0;
        for _ in 0..500 {
            let out = reduced(&model, &(0..12).map(|_| rng.below(n)).collect::<Vec<_>>());
            let k = rng.below(out.len().min(4) + 1);
            let mut next: Vec<usize> = out
                .iter()
                .rev()
                .take(k)
                .map(|&m| model.moves[m].inverse)
                .collect();
            next.extend((0..8).map(|_| rng.below(n)));
            let next = reduced(&model, &next);
            let both: Vec<usize> = out.iter().chain(&next).copied().collect();
            let want = reduced(&model, &both).len() as i64 - out.len() as i64;
            assert_eq!(
                added_moves(&model, &out, &next),
                want,
                "{out:?} then {next:?}"
            );
            cancelled += (want < next.len() as i64) as usize;
        }
        assert!(
            cancelled > 100,
            "only {cancelled} words cancelled at the join"
        );
    }
}
