//! Choosing pattern databases for a puzzle within a memory budget.
//!
//! If the whole puzzle's projection fits, one table gives exact distances.
//! Otherwise half the budget goes to a hashed table of whole positions near
//! the goal, and each orbit the moves touch gets a share of the rest: its
//! full projection if that fits, else two projections tracking as many of
//! its pieces as fit (the first and the last ones), whose maximum still
//! bounds the distance from below. Pieces no move disturbs are left out.

use twistor_core::{Layout, Pattern, Transformation};

use crate::projection::{OrbitSelection, Projection};
use crate::MoveSet;

/// One table to build.
pub(crate) struct TablePlan {
    pub projection: Projection,
}

/// Per orbit: whether some move disturbs each slot.
fn moved_slots(layout: &Layout, moves: &MoveSet, k: usize) -> Vec<bool> {
    let n = layout.orbits()[k].num_pieces();
    let mut moved = vec![false; n];
    for m in moves.moves() {
        let t = m.transformation.as_bytes();
        let p = layout.perm(t, k);
        let o = layout.ori(t, k);
        for i in 0..n {
            if p[i] as usize != i || o[i] != 0 {
                moved[i] = true;
                moved[p[i] as usize] = true;
            }
        }
    }
    moved
}

/// Whether every move keeps orbit `k`'s total orientation.
fn twist_invariant(layout: &Layout, moves: &MoveSet, k: usize) -> bool {
    let m = layout.orbits()[k].num_orientations() as u32;
    moves.moves().iter().all(|mv| {
        layout
            .ori(mv.transformation.as_bytes(), k)
            .iter()
            .map(|&x| x as u32)
            .sum::<u32>()
            % m
            == 0
    })
}

/// The tables to build for `goal` under `moves` within `memory_bytes`, and
/// the bytes left for a hashed table of whole positions: none if one exact
/// table of the whole puzzle fits, else half the budget.
pub(crate) fn plan_tables(
    layout: &Layout,
    goal: &Pattern,
    moves: &MoveSet,
    memory_bytes: u64,
) -> (Vec<TablePlan>, u64) {
    let full_budget = memory_bytes.saturating_mul(2).max(1024); // entries, four bits each
    let invariant: Vec<bool> = (0..layout.orbits().len())
        .map(|k| twist_invariant(layout, moves, k))
        .collect();
    // The ids worth tracking in each orbit: those of pieces the moves disturb.
    let mut orbit_ids: Vec<(usize, Vec<u8>, Vec<u8>)> = Vec::new();
    for k in 0..layout.orbits().len() {
        let moved = moved_slots(layout, moves, k);
        let perm = layout.perm(goal.as_bytes(), k);
        let mut ids: Vec<u8> = Vec::new();
        for (s, &id) in perm.iter().enumerate() {
            if moved[s] && !ids.contains(&id) {
                ids.push(id);
            }
        }
        // An orbit whose moved pieces are all alike and carry no
        // orientation tells nothing.
        if !ids.is_empty() {
            // Tracking every moved piece: track the fixed ones too, so the
            // orbit splits into separate arrangement and twist coordinates.
            let all: Vec<u8> = perm.iter().fold(Vec::new(), |mut v, &id| {
                if !v.contains(&id) {
                    v.push(id);
                }
                v
            });
            orbit_ids.push((k, ids, all));
        }
    }
    let full = |k: usize, ids: &[u8]| OrbitSelection {
        orbit: k,
        ids: ids.to_vec(),
        orientation: true,
    };
    let whole: Vec<OrbitSelection> = orbit_ids.iter().map(|(k, _, all)| full(*k, all)).collect();
    if let Some(p) = Projection::new(layout, goal, &whole, &invariant) {
        // The perfect index of the whole puzzle is often far smaller (it
        // knows the parities and twist sums the moves keep); worth its
        // construction only when the plain one is within reach of u64.
        let generators: Vec<&Transformation> =
            moves.moves().iter().map(|m| &m.transformation).collect();
        if let Some(e) = Projection::exact(layout, goal, &generators) {
            let tabled = e
                .fill_move_bytes(moves.moves().len())
                .is_some_and(|b| b <= memory_bytes / 4);
            if e.size() <= full_budget && e.size() <= p.size() && tabled {
                return (vec![TablePlan { projection: e }], 0);
            }
        }
        if p.size() <= full_budget {
            return (vec![TablePlan { projection: p }], 0);
        }
    }
    let mut plans = Vec::new();
    // Half for the projections, half for the hashed table.
    let budget = full_budget / 2;
    let share = budget / orbit_ids.len().max(1) as u64;
    for (k, ids, all) in &orbit_ids {
        if let Some(p) = Projection::new(layout, goal, &[full(*k, all)], &invariant) {
            if p.size() <= share {
                if p.size() > 1 {
                    plans.push(TablePlan { projection: p });
                }
                continue;
            }
        }
        // The most pieces that fit in half the share, and whose fill has
        // move tables within a quarter of the budget.
        let fits = |t: usize| {
            Projection::new(layout, goal, &[full(*k, &ids[..t])], &invariant).is_some_and(|p| {
                p.size() <= share / 2
                    && p.fill_move_bytes(moves.moves().len())
                        .is_some_and(|b| b <= memory_bytes / 4)
            })
        };
        let mut t = 0;
        while t < ids.len() && fits(t + 1) {
            t += 1;
        }
        if t == 0 {
            continue;
        }
        for subset in [&ids[..t], &ids[ids.len() - t..]] {
            if let Some(p) = Projection::new(layout, goal, &[full(*k, subset)], &invariant) {
                if p.size() > 1 {
                    plans.push(TablePlan { projection: p });
                }
            }
            if t == ids.len() {
                break;
            }
        }
    }
    (plans, memory_bytes / 2)
}
