//! Pure operations found by optimal search, for orbits whose short
//! commutators the cheaper searches of [`crate::ops`] miss (puzzles whose
//! every turn moves many pieces, or whose orbits are tied together).
//!
//! The position to solve is the goal with three pieces of the orbit
//! cycled (or two twisted); everything outside the orbit and the kept
//! orbits is left out of the goal, so the search only has to put those
//! back. An optimal solution is then a shortest sequence doing exactly
//! the opposite cycle: a pure operation. It is found once per orbit and
//! kept; the search is the generic IDA* with pattern databases.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use twistor_core::store::NoStore;
use twistor_core::{Layout, Pattern, PatternOrbit, ProjectedGroup, Puzzle};
use twistor_search::{MoveSet, SolveOptions, Solver, SolverOptions};

use crate::model::Model;
use crate::ops::{neutral, read_op, GoalSlots};
use crate::pure::{OpKind, PureOp};

/// Most memory the search's tables take (less where the solver's budget
/// has less left).
pub(crate) const SEARCH_MEMORY: u64 = 64 << 20;
/// Most (slot, orientation) points of the group a cycle is checked in
/// before its search (the puzzles searched have at most 600 slots).
const PROJECTION_POINTS: usize = 4_000;
/// Longest operation looked for.
const MAX_OP_MOVES: u32 = 16;
/// Nodes all the searches for one orbit may visit: a budget of counts,
/// not seconds, so the same puzzle finds the same operations on any
/// machine and at any load. These searches run about a million nodes a
/// second here, and a search that finds nothing spends all of them: at
/// 50 million a master skewb's first solve took 67 s, at 10 million 28 s,
/// its answers the same length within 1 %.
const SEARCH_NODES: u64 = 10_000_000;

/// Operations of `orbit` (3-cycles, and 2-twists where pieces turn) that
/// keep the orbits `keep` marks and the `invariants` (as
/// [`crate::ops::find_ops`] takes them), by optimal search over all of
/// `moves`, its tables and the group it checks cycles in taking at most
/// `memory_bytes`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ops_by_search(
    model: &Model,
    moves: &MoveSet,
    goal: &Pattern,
    goal_slots: &GoalSlots,
    orbit: usize,
    keep: &[bool],
    invariants: &[(bool, u8)],
    memory_bytes: u64,
    stop: &AtomicBool,
) -> Vec<PureOp> {
    let layout = moves.layout();
    let mut wanted = keep.to_vec();
    wanted[orbit] = true;
    let Some((mut solver, target)) =
        orbits_solver(moves, goal, &wanted, memory_bytes / 4 * 3, stop)
    else {
        return Vec::new();
    };
    // A cycle outside the group projected onto the wanted orbits of
    // distinct pieces is done by no sequence, and its search would spend
    // its whole budget finding that out: a master skewb's corners cannot
    // be cycled while its face centres and edges stay, and the search
    // took 11 s to give up.
    let grips: Vec<&[u8]> = (moves.grips().iter())
        .map(|g| g.transformation.as_bytes())
        .collect();
    let projection = ProjectedGroup::new(
        layout,
        &target,
        &wanted,
        &grips,
        PROJECTION_POINTS,
        memory_bytes / 4,
    );
    let possible = |position: &Pattern| {
        (projection.as_ref()).is_none_or(|p| p.contains(layout, position) != Some(false))
    };
    let base = model.base[orbit];
    let n = model.size[orbit];
    let mut found: Vec<PureOp> = Vec::new();
    let mut tried: Vec<Vec<u16>> = Vec::new();
    let mut budget = SEARCH_NODES;
    // Triples a move cycles (so a short operation on them is likely),
    // one per move, until every slot is in one.
    let mut covered = vec![false; n];
    for mv in &model.moves {
        let slots: Vec<u16> = mv
            .support
            .iter()
            .filter(|&&s| model.orbit_of[s as usize] as usize == orbit)
            .map(|&s| (s as usize - base) as u16)
            .collect();
        if slots.len() < 3 || slots.iter().all(|&s| covered[s as usize]) || budget == 0 {
            continue;
        }
        // Three slots holding different goal ids, along the move's cycle
        // from a slot no cycle has covered yet.
        let Some(&start) = slots.iter().find(|&&s| !covered[s as usize]) else {
            continue;
        };
        let mut triple: Vec<u16> = Vec::new();
        let mut at = start;
        for _ in 0..n {
            if !triple
                .iter()
                .any(|&t| goal_slots.id[base + t as usize] == goal_slots.id[base + at as usize])
            {
                triple.push(at);
            }
            if triple.len() == 3 {
                break;
            }
            at = (mv.dest[base + at as usize] as usize - base) as u16;
            if at == start {
                break;
            }
        }
        // The same three slots the other way round are done by the
        // inverse of the same operation.
        let mut set = triple.clone();
        set.sort_unstable();
        if triple.len() < 3 || tried.contains(&set) {
            continue;
        }
        tried.push(set);
        for &t in &triple {
            covered[t as usize] = true;
        }
        let position = cycled(layout, &target, orbit, [triple[0], triple[1], triple[2]]);
        if !possible(&position) {
            continue;
        }
        if let Some(op) = solve(
            model,
            &mut solver,
            &position,
            orbit,
            keep,
            goal_slots,
            stop,
            &mut budget,
        )
        .filter(|op| neutral(model, &op.moves, invariants))
        {
            // One cycle a component is enough: setups aim it anywhere
            // in it.
            for (s, c) in covered.iter_mut().enumerate() {
                if connected(model, orbit, op.slots[0] as usize, s) {
                    *c = true;
                }
            }
            found.push(op);
        }
    }
    // A twist of two pieces, where pieces turn.
    if model.oris[orbit] > 1 && n >= 2 {
        let position = twisted(layout, &target, orbit, [0, 1]);
        if !possible(&position) {
            return found;
        }
        if let Some(op) = solve(
            model,
            &mut solver,
            &position,
            orbit,
            keep,
            goal_slots,
            stop,
            &mut budget,
        ) {
            if op.kind == OpKind::Twist && neutral(model, &op.moves, invariants) {
                found.push(op);
            }
        }
    }
    found
}

/// A shortest sequence taking `position` to the goal on the `wanted`
/// orbits (the rest may end anywhere), by the generic optimal search
/// within `node_limit` nodes and `memory_bytes` of tables: how orbits tied
/// together (a skewb's corners and centres inside a bigger puzzle) are
/// placed at once.
pub(crate) fn solve_orbits(
    moves: &MoveSet,
    goal: &Pattern,
    wanted: &[bool],
    position: &Pattern,
    node_limit: u64,
    memory_bytes: u64,
    stop: &AtomicBool,
) -> Option<Vec<usize>> {
    let (mut solver, _) = orbits_solver(moves, goal, wanted, memory_bytes, stop)?;
    let options = SolveOptions {
        threads: 2,
        node_limit,
        ..SolveOptions::default()
    };
    let position = target_of(moves.layout(), position, wanted)?;
    let report = solver.solve(&position, &options, stop, &mut |_| {});
    report.solutions.into_iter().next()
}

/// The generic optimal search reaching `goal` on the `wanted` orbits (the
/// rest blanked), its tables in `memory_bytes`, and that target.
fn orbits_solver(
    moves: &MoveSet,
    goal: &Pattern,
    wanted: &[bool],
    memory_bytes: u64,
    stop: &AtomicBool,
) -> Option<(Solver, Pattern)> {
    let layout = moves.layout();
    let target = target_of(layout, goal, wanted)?;
    let puzzle = Puzzle::new("staged orbits", layout.clone(), target.clone());
    let options = SolverOptions {
        memory_bytes,
        threads: 2,
        store: Arc::new(NoStore),
        symmetry: false,
    };
    let solver = Solver::new(
        &puzzle,
        moves.clone(),
        target.clone(),
        &options,
        stop,
        &mut |_| {},
    )
    .ok()?;
    Some((solver, target))
}

#[allow(clippy::too_many_arguments)]
fn solve(
    model: &Model,
    solver: &mut Solver,
    position: &Pattern,
    orbit: usize,
    keep: &[bool],
    goal_slots: &GoalSlots,
    stop: &AtomicBool,
    budget: &mut u64,
) -> Option<PureOp> {
    let options = SolveOptions {
        max_depth: MAX_OP_MOVES,
        threads: 2,
        node_limit: *budget,
        ..SolveOptions::default()
    };
    let report = solver.solve(position, &options, stop, &mut |_| {});
    *budget = budget.saturating_sub(report.nodes);
    let solution = report.solutions.into_iter().next()?;
    read_op(model, orbit, keep, goal_slots, &solution).map(|(_, op)| op)
}

/// Whether the moves take slot `a` of `orbit` to slot `b`.
fn connected(model: &Model, orbit: usize, a: usize, b: usize) -> bool {
    let base = model.base[orbit];
    let n = model.size[orbit];
    let mut seen = vec![false; n];
    let mut stack = vec![a];
    seen[a] = true;
    while let Some(x) = stack.pop() {
        if x == b {
            return true;
        }
        for mv in &model.moves {
            let y = mv.dest[base + x] as usize - base;
            if !seen[y] {
                seen[y] = true;
                stack.push(y);
            }
        }
    }
    false
}

/// `pattern` with every orbit but the `wanted` ones left out (its pieces
/// alike, their orientations unknown).
fn target_of(layout: &Layout, goal: &Pattern, wanted: &[bool]) -> Option<Pattern> {
    let orbits: Vec<PatternOrbit> = layout
        .pattern_orbits(goal)
        .into_iter()
        .enumerate()
        .map(|(k, o)| {
            if wanted[k] {
                o
            } else {
                let n = o.pieces.len();
                // An orientation modulus must be a proper divisor: an
                // orbit whose pieces never turn has none to give.
                let turns = layout.orbits()[k].num_orientations() > 1;
                PatternOrbit {
                    pieces: vec![0; n],
                    orientation: vec![0; n],
                    orientation_mod: turns.then(|| vec![1; n]),
                }
            }
        })
        .collect();
    layout.pattern(&orbits).ok()
}

/// `pattern` with the pieces of `orbit` in slots `t[0] → t[1] → t[2]`
/// moved round.
fn cycled(layout: &Layout, pattern: &Pattern, orbit: usize, t: [u16; 3]) -> Pattern {
    let mut orbits = layout.pattern_orbits(pattern);
    let o = &mut orbits[orbit];
    let [a, b, c] = t.map(|x| x as usize);
    let (pa, pb, pc) = (o.pieces[a], o.pieces[b], o.pieces[c]);
    let (oa, ob, oc) = (o.orientation[a], o.orientation[b], o.orientation[c]);
    o.pieces[b] = pa;
    o.pieces[c] = pb;
    o.pieces[a] = pc;
    o.orientation[b] = oa;
    o.orientation[c] = ob;
    o.orientation[a] = oc;
    if let Some(m) = &mut o.orientation_mod {
        let (ma, mb, mc) = (m[a], m[b], m[c]);
        m[b] = ma;
        m[c] = mb;
        m[a] = mc;
    }
    layout.pattern(&orbits).unwrap_or_else(|_| pattern.clone())
}

/// `pattern` with the pieces of `orbit` in slots `t[0]` and `t[1]` turned
/// one step each way.
fn twisted(layout: &Layout, pattern: &Pattern, orbit: usize, t: [usize; 2]) -> Pattern {
    let mut orbits = layout.pattern_orbits(pattern);
    let oris = layout.orbits()[orbit].num_orientations() as u8;
    let o = &mut orbits[orbit];
    let modulus = |s: usize| {
        o.orientation_mod
            .as_ref()
            .map_or(oris, |m| if m[s] == 0 { oris } else { m[s] })
    };
    let (m0, m1) = (modulus(t[0]), modulus(t[1]));
    o.orientation[t[0]] = (o.orientation[t[0]] + 1) % m0;
    o.orientation[t[1]] = (o.orientation[t[1]] + m1 - 1) % m1;
    layout.pattern(&orbits).unwrap_or_else(|_| pattern.clone())
}
