//! The default plan for puzzles of two to four orbits: one stage an
//! orbit, in the order whose commutators are cheapest.
//!
//! One stage of every piece finishes each orbit with operations that keep
//! all the others, the dearest kind there is. A stage an orbit lets the
//! first orbit's operations disturb everything after it, and the next
//! search place the next orbit's pieces cheaply; only the last orbit needs
//! operations keeping every other. Which order is best varies by puzzle,
//! and by a lot (measured, three random states each, total moves):
//!
//! | puzzle | one stage | worst order | best order |
//! |---|---|---|---|
//! | kilominx | 9,386 | 11,457 | 1,061 (EDGES2, CORNERS, EDGES) |
//! | pyraminx crystal | 4,874 | 5,971 | 623 (CORNERS, EDGES) |
//! | megaminx | 1,151 | 1,438 | 741 (EDGES, CORNERS) |
//! | helicopter | 5,089 | 6,907 | 2,605 (CENTERS, CORNERS) |
//!
//! so the order is chosen by measuring: an order costs, for each orbit,
//! the mean cost of its library of 3-cycles keeping the orbits before it
//! (found and kept for the finishing anyway) over every triple of slots
//! (setups included: the cycles' own lengths alone pick the
//! pentultimate's worse order), times the orbit's size, summed. The
//! measuring costs a few seconds on the kilominx and megaminx, paid back
//! in length. Every order is measured up to three orbits; on four, orders
//! are extended cheapest first, bounded by each remaining orbit's cost
//! keeping nothing, so only the libraries of promising orders are found.

use super::{LibraryKey, Stage, StagedSolver};

/// Most orbits an order is chosen for (at four the FTO's answers fall
/// from about 816 moves to 133 and the Rex Cube's from 720 to 137).
const MAX_ORBITS: usize = 4;
/// Most orbits every order is measured for: the libraries that takes grow
/// as n 2^(n-1), and on four (32) took 10 s of the master pentultimate's
/// first solve; past it orders are extended best first (13 libraries
/// there, the same order).
const EVERY_ORDER: usize = 3;

impl StagedSolver {
    /// Replaces the default one-stage plan by a stage an orbit, in the
    /// cheapest order, where there are two to four orbits and some order
    /// has operations for every orbit.
    pub(super) fn plan_orbit_stages(&mut self) {
        if self.stages.len() != 1 {
            return;
        }
        let moves = self.stages[0].moves.clone();
        // Orbits no move changes (a kilominx's face centres) stay in the
        // first stage: they are kept as they are, never finished.
        let mut orbits: Vec<usize> = self.classes.iter().map(|c| c.orbit).collect();
        orbits.sort_unstable();
        orbits.dedup();
        let (orbits, still): (Vec<usize>, Vec<usize>) =
            orbits.into_iter().partition(|&k| self.changes(&moves, k));
        if !(2..=MAX_ORBITS).contains(&orbits.len()) {
            return;
        }
        // Each orbit's cycles keeping nothing else come first: an orbit
        // that has none there has none keeping more (what keeps more
        // orbits keeps fewer), so unless it rides with another orbit no
        // order has operations for it, and the rest need not be found
        // (on a master skewb, 32 libraries and seconds).
        let free = vec![false; self.model.size.len()];
        let first: Vec<LibraryKey> = (orbits.iter())
            .map(|&k| (k, moves.clone(), free.clone()))
            .filter(|key| !self.has_library(key, false))
            .collect();
        self.find_libraries(first);
        let all_others = vec![true; self.model.size.len()];
        if orbits.iter().any(|&k| {
            self.libraries[&(k, moves.clone(), free.clone())].is_none()
                && !self.model.rides_with_kept(k, &moves, &all_others)
        }) {
            return;
        }
        let best = if orbits.len() <= EVERY_ORDER {
            self.cheapest_of_every_order(&orbits, &moves)
        } else {
            self.cheapest_order_best_first(&orbits, &moves)
        };
        let Some(order) = best else {
            return;
        };
        let all = self.stages.remove(0);
        self.fallback = Some(vec![all.clone()]);
        for (i, &k) in order.iter().enumerate() {
            let classes = (all.classes.iter().copied())
                .filter(|&c| {
                    let o = self.classes[c].orbit;
                    o == k || (i == 0 && still.contains(&o))
                })
                .collect();
            self.stages.push(Stage {
                name: self.orbit_name(k),
                classes,
                moves: moves.clone(),
            });
        }
    }

    /// The cheapest order of `orbits` by `moves` ([`Self::mean_cycle_cost`]
    /// times the orbit's size, summed), measuring every order.
    fn cheapest_of_every_order(&mut self, orbits: &[usize], moves: &[usize]) -> Option<Vec<usize>> {
        // Every library the orders measure, found on all threads first
        // (finding them is nearly all the measuring costs).
        let orders = permutations(orbits);
        let mut keys: Vec<LibraryKey> = Vec::new();
        for order in &orders {
            let mut keep = vec![false; self.model.size.len()];
            for &k in order {
                let key = (k, moves.to_vec(), keep.clone());
                if !keys.contains(&key) && !self.has_library(&key, false) {
                    keys.push(key);
                }
                keep[k] = true;
            }
        }
        self.find_libraries(keys);
        let mut best: Option<(f64, Vec<usize>)> = None;
        for order in orders {
            let mut total = 0.0;
            let mut keep = vec![false; self.model.size.len()];
            let mut feasible = true;
            for &k in &order {
                match self.mean_cycle_cost(k, moves, keep.clone()) {
                    Some(cost) => total += cost * self.model.size[k] as f64,
                    None => {
                        feasible = false;
                        break;
                    }
                }
                keep[k] = true;
            }
            if feasible && best.as_ref().is_none_or(|(b, _)| total < *b) {
                best = Some((total, order));
            }
        }
        best.map(|(_, order)| order)
    }

    /// The cheapest order of `orbits` by `moves`, best first: an order's
    /// cost so far plus the cost of its remaining orbits by their cycles
    /// keeping nothing bounds it, so orders are extended cheapest bound
    /// first and the first complete one is taken, each extension's
    /// libraries found together on all threads. Where a cycle keeping
    /// more orbits is cheaper than one keeping fewer, the bound overshoots
    /// and the order taken may not be the cheapest (on three orbits it
    /// chose worse orders for the starminx 2 and the Regular Astrominx).
    fn cheapest_order_best_first(
        &mut self,
        orbits: &[usize],
        moves: &[usize],
    ) -> Option<Vec<usize>> {
        let free = vec![false; self.model.size.len()];
        let sizes = self.model.size.clone();
        let size = |k: usize| sizes[k] as f64;
        let mut alone = Vec::new();
        for &k in orbits {
            alone.push(
                self.mean_cycle_cost(k, moves, free.clone())
                    .map(|c| c * size(k)),
            );
        }
        let bound = |order: &[usize]| -> f64 {
            (orbits.iter().zip(&alone))
                .filter(|(k, _)| !order.contains(k))
                .map(|(_, c)| c.unwrap_or(0.0))
                .sum()
        };
        // (cost so far, order), unextended.
        let mut open: Vec<(f64, Vec<usize>)> = vec![(0.0, Vec::new())];
        let mut best: Option<(f64, Vec<usize>)> = None;
        while let Some(i) = (0..open.len()).min_by(|&a, &b| {
            let f = |(g, order): &(f64, Vec<usize>)| g + bound(order);
            f(&open[a]).total_cmp(&f(&open[b]))
        }) {
            let (cost, order) = open.swap_remove(i);
            if order.len() == orbits.len() {
                best = Some((cost, order));
                break;
            }
            let mut keep = vec![false; self.model.size.len()];
            for &k in &order {
                keep[k] = true;
            }
            let next: Vec<usize> = (orbits.iter().copied())
                .filter(|k| !order.contains(k))
                .collect();
            let keys: Vec<LibraryKey> = (next.iter())
                .map(|&k| (k, moves.to_vec(), keep.clone()))
                .filter(|key| !self.has_library(key, false))
                .collect();
            self.find_libraries(keys);
            for k in next {
                if let Some(c) = self.mean_cycle_cost(k, moves, keep.clone()) {
                    let mut longer = order.clone();
                    longer.push(k);
                    open.push((cost + c * size(k), longer));
                }
            }
        }
        best.map(|(_, order)| order)
    }

    /// The mean cost (moves) of a 3-cycle of orbit `k` by `moves` keeping
    /// the orbits `keep` marks, over the triples of slots some cycle
    /// reaches; `None` when there is no such cycle.
    fn mean_cycle_cost(&mut self, k: usize, moves: &[usize], keep: Vec<bool>) -> Option<f64> {
        let key = self.library(k, moves, keep, false)?;
        let library = self.libraries.get_mut(&key)?.as_mut()?;
        library.prepare();
        let n = library.len() as u16;
        let (mut sum, mut count) = (0u64, 0u64);
        for t in 0..n {
            for s in 0..n {
                for u in 0..n {
                    if let Some(c) = library.cost(t, s, u) {
                        sum += u64::from(c);
                        count += 1;
                    }
                }
            }
        }
        // Its setups are kept for the stage that will use it, while every
        // library's fit in a quarter of the memory (as the finishing keeps
        // them); past that they are found again if it is used.
        self.release_past_quarter(&key);
        (count > 0).then(|| sum as f64 / count as f64)
    }
}

/// Every order of `items`.
fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}
