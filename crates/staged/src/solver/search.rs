//! Phase 1 of a stage: pieces placed one class at a time by IDA* over
//! class coordinates, bounded by pattern databases, and the orbits tied
//! together placed first by one search over them.

use super::*;
use crate::twist::twists_by_counts;

impl StagedSolver {
    /// The table of `c`'s coordinate, built on first use; `None` when the
    /// class is too big to track or memory is short.
    pub(super) fn table(&mut self, c: usize) -> Option<usize> {
        if let Some(t) = self.table_of[c] {
            return t;
        }
        let class = &self.classes[c];
        let found = self
            .tables
            .iter()
            .position(|t| t.serves(class))
            .or_else(|| {
                let size = CoordTable::size_for(&self.model, class)?;
                if self.bytes + size * 4 * self.model.moves.len() as u64 > self.options.memory_bytes
                {
                    return None;
                }
                let t = CoordTable::build(&self.model, class);
                self.bytes += t.bytes();
                self.tables.push(t);
                Some(self.tables.len() - 1)
            });
        self.table_of[c] = Some(found);
        found
    }

    /// The database of `classes` over all moves, built on first use.
    pub(super) fn pdb(&mut self, classes: &[usize]) -> bool {
        if self.pdbs.contains_key(classes) {
            return true;
        }
        let Some(tables) = classes
            .iter()
            .map(|&c| self.table(c))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        let sizes: Vec<u32> = tables.iter().map(|&t| self.tables[t].size).collect();
        let Some(size) = Pdb::size_of(&sizes) else {
            return false;
        };
        if self.bytes + size > self.options.memory_bytes {
            return false;
        }
        let goal: Vec<u32> = classes
            .iter()
            .zip(&tables)
            .map(|(&c, &t)| self.tables[t].rank(&self.classes[c].goal_points))
            .collect();
        let refs: Vec<&CoordTable> = tables.iter().map(|&t| &self.tables[t]).collect();
        let pdb = Pdb::build(&self.model, &refs, &goal);
        self.bytes += pdb.bytes();
        self.pdbs.insert(classes.to_vec(), pdb);
        true
    }

    /// Memory an optimal search over whole orbits may take: what the
    /// tables leave, up to [`SEARCH_MEMORY`].
    pub(super) fn search_memory(&self) -> u64 {
        SEARCH_MEMORY.min(self.options.memory_bytes.saturating_sub(self.bytes))
    }

    /// The grips whose moves turn a home of class `c`.
    pub(super) fn grips_of(&self, c: usize) -> Vec<usize> {
        let class = &self.classes[c];
        let base = self.model.base[class.orbit];
        let mut grips: Vec<usize> = Vec::new();
        for mv in &self.model.moves {
            if !grips.contains(&mv.grip)
                && class.homes.iter().any(|&h| {
                    mv.support
                        .binary_search(&((base + h as usize) as u16))
                        .is_ok()
                })
            {
                grips.push(mv.grip);
            }
        }
        grips
    }

    pub(super) fn coord(&self, state: &[u8], c: usize) -> u32 {
        let t = self.table_of[c]
            .flatten()
            .expect("a tracked class has a table");
        let mut points = Vec::new();
        class_points(&self.layout, &self.classes[c], state, &mut points);
        self.tables[t].rank(&points)
    }

    /// The orbits of the stage no 3-cycle finishes while every other
    /// orbit in scope stays put (tied to another orbit, as a skewb's
    /// corners are to its centres): the search phase places them first.
    pub(super) fn coupled_orbits(&mut self, stage: &Stage, run: &Run) -> Vec<bool> {
        let orbits = self.model.size.len();
        let mut in_scope = vec![false; orbits];
        for &c in run.protected.iter().chain(&stage.classes) {
            in_scope[self.classes[c].orbit] = true;
        }
        let broken: Vec<bool> = (0..orbits)
            .map(|k| {
                self.model.size[k] >= 3
                    && stage
                        .classes
                        .iter()
                        .any(|&c| self.classes[c].orbit == k && !self.solved(&run.state, c))
            })
            .collect();
        // Pieces that only twist in place (the starminx's corners) are
        // placed first, together: no setup can aim an operation at them,
        // and what twists one alone may take many moves.
        let twisting: Vec<bool> = (0..orbits)
            .map(|k| broken[k] && !self.permutes(&stage.moves, k))
            .collect();
        // Where commutators can finish the orbits in some order, no other
        // needs placing first.
        let scope: Vec<usize> = run
            .protected
            .iter()
            .chain(&stage.classes)
            .copied()
            .collect();
        if self
            .finishing_order(stage, &scope, &run.state, false)
            .is_some()
        {
            return twisting;
        }
        let coupled: Vec<bool> = (0..orbits)
            .map(|k| {
                let mut keep = in_scope.clone();
                keep[k] = false;
                twisting[k] || (broken[k] && self.library(k, &stage.moves, keep, false).is_none())
            })
            .collect();
        // Where every broken orbit is tied, placing them first is
        // solving the whole stage by search: pieces go one at a time.
        if coupled == broken {
            return vec![false; orbits];
        }
        coupled
    }

    /// One search step: a sequence placing the classes `new` while the
    /// `tracked` ones stay, bounded by the databases of `keys`; the nodes
    /// it visited are taken from the position's allowance.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn step(
        &self,
        stage: &Stage,
        run: &mut Run,
        tracked: &[usize],
        new: &[usize],
        keys: &[Vec<usize>],
        budget: u64,
        stop: &AtomicBool,
    ) -> (SearchEnd, u64) {
        let all: Vec<usize> = tracked.iter().chain(new).copied().collect();
        let start: Vec<u32> = all.iter().map(|&t| self.coord(&run.state, t)).collect();
        let tables: Vec<&CoordTable> = all
            .iter()
            .map(|&t| &self.tables[self.table_of[t].flatten().expect("tracked")])
            .collect();
        let pdbs: Vec<(&Pdb, Vec<usize>)> = keys
            .iter()
            .map(|key| {
                let at = key
                    .iter()
                    .map(|k| all.iter().position(|a| a == k).expect("a tracked class"))
                    .collect();
                (&self.pdbs[key], at)
            })
            .collect();
        // A move that turns no tracked piece only lengthens the search.
        let mut orbits = vec![false; self.model.size.len()];
        for &c in &all {
            orbits[self.classes[c].orbit] = true;
        }
        let moves: Vec<usize> = stage
            .moves
            .iter()
            .copied()
            .filter(|&m| {
                self.model.moves[m]
                    .support
                    .iter()
                    .any(|&s| orbits[self.model.orbit_of[s as usize] as usize])
            })
            .collect();
        let search = StageSearch {
            model: &self.model,
            tables,
            pdbs,
            moves: &moves,
        };
        let mut spent = 0;
        let last = run.moves.last().map(|&m| self.model.moves[m].grip);
        let end = search.solve(&start, last, MAX_STEP_DEPTH, budget, &mut spent, stop);
        run.nodes_left = run.nodes_left.saturating_sub(spent);
        (end, spent)
    }

    /// The orbits no 3-cycle finishes, placed together in one step with a
    /// database per orbit (a skewb inside a bigger puzzle is solved as a
    /// skewb): whether it was done.
    pub(super) fn coupled_step(
        &mut self,
        stage: &Stage,
        coupled: &[bool],
        earlier: &[usize],
        run: &mut Run,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<bool, StagedError> {
        let new: Vec<usize> = stage
            .classes
            .iter()
            .copied()
            .filter(|&c| coupled[self.classes[c].orbit] && !run.protected.contains(&c))
            .collect();
        if new.is_empty() {
            return Ok(false);
        }
        let report_step = |me: &mut StagedSolver,
                           run: &mut Run,
                           method: Method,
                           moves: usize,
                           nodes: u64,
                           events: &mut dyn FnMut(StagedEvent)| {
            let what = coupled
                .iter()
                .enumerate()
                .filter(|(_, &x)| x)
                .map(|(k, _)| me.orbit_name(k))
                .collect::<Vec<_>>()
                .join(", ");
            me.report(run, &stage.name, method, what, moves, nodes, events);
        };
        // Where no earlier stage placed pieces outside these orbits, the
        // generic optimal search over the whole orbits (its tables prune
        // far better than databases of a few pieces).
        let held_elsewhere = earlier.iter().any(|&c| !coupled[self.classes[c].orbit]);
        if !held_elsewhere {
            // Pieces that only twist are set by counts of moves; other
            // tied orbits by the optimal search.
            let found = match self.twists_first(stage, coupled, &run.state) {
                Some(path) => Some((Method::Twists, path)),
                None => {
                    let position = self.layout.pattern_from_bytes(run.state.clone()).ok();
                    let path = position.and_then(|p| {
                        solve_orbits(
                            &self.moves,
                            &self.goal,
                            coupled,
                            &p,
                            COUPLED_NODES,
                            self.search_memory(),
                            stop,
                        )
                    });
                    if stop.load(Ordering::Relaxed) {
                        return Err(StagedError::Stopped);
                    }
                    path.map(|path| (Method::Search, path))
                }
            };
            if let Some((method, path)) = found {
                self.play(run, &path);
                for &c in &stage.classes {
                    if coupled[self.classes[c].orbit] {
                        // Tracked from now on, so later steps keep them.
                        self.pdb(&[c]);
                        if !run.protected.contains(&c) {
                            run.protected.push(c);
                        }
                    }
                }
                report_step(self, run, method, path.len(), 0, events);
                return Ok(true);
            }
        }
        if new.len() > self.options.max_tracked {
            return Ok(false);
        }
        let mut keys: Vec<Vec<usize>> = Vec::new();
        for (k, _) in coupled.iter().enumerate().filter(|(_, &x)| x) {
            let of_orbit: Vec<usize> = new
                .iter()
                .copied()
                .filter(|&c| self.classes[c].orbit == k)
                .collect();
            let sizes: Option<Vec<u32>> = of_orbit
                .iter()
                .map(|&c| self.table(c).map(|t| self.tables[t].size))
                .collect();
            let Some(sizes) = sizes else {
                return Ok(false);
            };
            let entries = Pdb::size_of(&sizes).unwrap_or(u64::MAX);
            if entries <= GROUP_PDB && self.pdb(&of_orbit) {
                keys.push(of_orbit);
            } else {
                for &c in &of_orbit {
                    if !self.pdb(&[c]) {
                        return Ok(false);
                    }
                    keys.push(vec![c]);
                }
            }
        }
        let tracked: Vec<usize> = run
            .protected
            .iter()
            .copied()
            .filter(|&c| self.table_of[c].flatten().is_some())
            .collect();
        if tracked.len() + new.len() > self.options.max_tracked {
            return Ok(false);
        }
        for &t in &tracked {
            if self.pdb(&[t]) {
                keys.push(vec![t]);
            }
        }
        // Half the allowance: the pieces one at a time get the rest.
        let budget = run.nodes_left / 2;
        let (end, spent) = self.step(stage, run, &tracked, &new, &keys, budget, stop);
        match end {
            SearchEnd::Found(path) => {
                self.play(run, &path);
                run.protected.extend(&new);
                report_step(self, run, Method::Search, path.len(), spent, events);
                Ok(true)
            }
            SearchEnd::Stopped => Err(StagedError::Stopped),
            SearchEnd::OverBudget | SearchEnd::NotWithin => Ok(false),
        }
    }

    /// Where the `coupled` orbits only twist in place and the stage
    /// places all their pieces, to one prime modulus: the moves setting
    /// every twist right, from counts solved as a linear system.
    fn twists_first(&self, stage: &Stage, coupled: &[bool], state: &[u8]) -> Option<Vec<usize>> {
        let orbits: Vec<usize> = (0..coupled.len()).filter(|&k| coupled[k]).collect();
        let whole = |k: usize| {
            let placed: usize = (stage.classes.iter())
                .filter(|&&c| self.classes[c].orbit == k)
                .map(|&c| self.classes[c].len())
                .sum();
            placed == self.model.size[k]
        };
        if orbits
            .iter()
            .any(|&k| self.permutes(&stage.moves, k) || !whole(k))
        {
            return None;
        }
        let slots: Vec<usize> = orbits
            .iter()
            .flat_map(|&k| self.model.base[k]..self.model.base[k] + self.model.size[k])
            .collect();
        let p = self.goal_slots.modulus[*slots.first()?];
        if slots.iter().any(|&s| self.goal_slots.modulus[s] != p) {
            return None;
        }
        let mut needed = Vec::new();
        for &k in &orbits {
            let now = self.layout.ori(state, k);
            let goal = self.layout.ori(self.goal.as_bytes(), k);
            for (&a, &b) in now.iter().zip(goal) {
                let a = self.layout.decode_orientation(k, a).0;
                let b = self.layout.decode_orientation(k, b).0;
                needed.push((b % p + p - a % p) % p);
            }
        }
        // Each grip's first move first, so the counts are of quarter turns
        // (merged into one turn when the solution is simplified).
        let mut moves = stage.moves.clone();
        moves.sort_by_key(|&m| self.model.moves[m].grip);
        twists_by_counts(&self.model, &orbits, &moves, &needed, p)
    }

    /// Phase 1 (after the coupled orbits' step): classes placed one at a
    /// time by search, nearest first, each step within `step`'s nodes.
    pub(super) fn search_phase(
        &mut self,
        stage: &Stage,
        coupled: &[bool],
        step: StepBudget,
        run: &mut Run,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        let mut failed: Vec<usize> = Vec::new();
        let mut in_a_row = 0;
        let mut placed_any = false;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(StagedError::Stopped);
            }
            let tracked: Vec<usize> = run
                .protected
                .iter()
                .copied()
                .filter(|&c| self.table_of[c].flatten().is_some())
                .collect();
            if tracked.len() >= self.options.max_tracked || run.nodes_left == 0 {
                return Ok(());
            }
            let pool: Vec<usize> = stage
                .classes
                .iter()
                .copied()
                .filter(|&c| !run.protected.contains(&c) && !failed.contains(&c))
                .take(POOL)
                .collect();
            // Grips that turn no placed piece yet: the next piece should
            // take as few of them as it can, so the placed pieces grow as
            // one block and most turns keep leaving them alone.
            let mut free = vec![true; self.model.grips];
            for &p in &run.protected {
                for g in self.grips_of(p) {
                    free[g] = false;
                }
            }
            let mut candidates: Vec<(bool, usize, usize, u8, usize)> = Vec::new();
            for c in pool {
                if !self.pdb(&[c]) {
                    continue;
                }
                let coord = self.coord(&run.state, c);
                let h = self.pdbs[&vec![c]].at(std::iter::once(coord));
                if h == UNREACHED {
                    return Err(StagedError::Unreachable {
                        reason: format!(
                            "a piece of {} cannot reach its place",
                            self.orbit_name(self.classes[c].orbit)
                        ),
                    });
                }
                let taken = self.grips_of(c).into_iter().filter(|&g| free[g]).count();
                // Pieces alike first: a class of them is placed as cheaply
                // as one piece and frees nothing later stages need.
                let alike = usize::MAX - self.classes[c].len();
                let free_to_finish = !coupled[self.classes[c].orbit];
                candidates.push((free_to_finish, alike, taken, h, c));
            }
            if candidates.is_empty() {
                return Ok(());
            }
            candidates.sort_unstable();
            // The nearest class; one whose search runs out of nodes is
            // not tried again (pieces placed since only make it harder).
            let mut placed = false;
            for &(_, _, _, _, c) in candidates.iter().take(1) {
                let mut keys: Vec<Vec<usize>> = tracked
                    .iter()
                    .map(|&t| vec![t])
                    .filter(|k| self.pdbs.contains_key(k))
                    .collect();
                keys.push(vec![c]);
                // Pieces are bounded together with the ones placed last:
                // pairs, and one larger database over the piece and the
                // partners placed last, of single pieces, whatever orbit.
                let mut larger: Option<Vec<usize>> = None;
                if self.classes[c].len() == 1 {
                    let partners: Vec<usize> = tracked
                        .iter()
                        .rev()
                        .copied()
                        .filter(|&p| self.classes[p].len() == 1)
                        .take(PAIRS)
                        .collect();
                    for &p in &partners {
                        let key = vec![p.min(c), p.max(c)];
                        if self.pdb(&key) {
                            keys.push(key);
                        }
                    }
                    // One database over the piece and the partners
                    // placed last: a triple, or for an orbit only search
                    // can finish, as many as fit a bigger database.
                    let limit = if coupled[self.classes[c].orbit] {
                        GROUP_PDB
                    } else {
                        TRIPLE_PDB
                    };
                    let most = if coupled[self.classes[c].orbit] {
                        PAIRS
                    } else {
                        2
                    };
                    let mut key = vec![c];
                    let mut entries = self
                        .table(c)
                        .map_or(u64::MAX, |t| self.tables[t].size as u64);
                    for &p in partners.iter().take(most) {
                        let size = self
                            .table(p)
                            .map_or(u64::MAX, |t| self.tables[t].size as u64);
                        if entries.saturating_mul(size) > limit {
                            break;
                        }
                        entries *= size;
                        key.push(p);
                    }
                    key.sort_unstable();
                    if key.len() >= 3 {
                        larger = Some(key);
                    }
                }
                let budget = if in_a_row > 0 {
                    step.after_failure
                } else {
                    step.nodes
                }
                .min(run.nodes_left);
                // Most steps are a few moves, found in a few nodes without
                // the larger database; it is built only for a step that
                // needs more (the first shortest sequence is the same
                // either way: the bounds are exact lower bounds).
                let mut end = SearchEnd::OverBudget;
                let mut spent = 0;
                if larger.is_some() {
                    let first = budget.min(QUICK_STEP_NODES);
                    (end, spent) =
                        self.step(stage, run, &tracked, &[c], &bounding(&keys), first, stop);
                }
                if end == SearchEnd::OverBudget && budget > spent {
                    if let Some(key) = larger.filter(|key| self.pdb(key)) {
                        keys.push(key);
                    }
                    let more;
                    (end, more) = self.step(
                        stage,
                        run,
                        &tracked,
                        &[c],
                        &bounding(&keys),
                        budget.saturating_sub(spent),
                        stop,
                    );
                    spent += more;
                }
                match end {
                    SearchEnd::Found(path) => {
                        self.play(run, &path);
                        run.protected.push(c);
                        for &other in &stage.classes {
                            if !run.protected.contains(&other)
                                && self.table_of[other].flatten().is_some()
                                && self.solved(&run.state, other)
                            {
                                run.protected.push(other);
                            }
                        }
                        let what = format!(
                            "{} piece {}",
                            self.orbit_name(self.classes[c].orbit),
                            self.classes[c].id as usize + 1
                        );
                        self.report(
                            run,
                            &stage.name,
                            Method::Search,
                            what,
                            path.len(),
                            spent,
                            events,
                        );
                        placed = true;
                        break;
                    }
                    SearchEnd::Stopped => return Err(StagedError::Stopped),
                    SearchEnd::OverBudget | SearchEnd::NotWithin => failed.push(c),
                }
            }
            in_a_row = if placed { 0 } else { in_a_row + 1 };
            let limit = if placed_any { FAILED_IN_A_ROW } else { 1 };
            placed_any |= placed;
            if !placed && (failed.len() >= MAX_FAILED_STEPS || in_a_row >= limit) {
                return Ok(());
            }
        }
    }
}

/// The databases a step reads, in the order it reads them: those of
/// several classes first (they prune the most), and no single class
/// already inside one of them.
fn bounding(keys: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut keys = keys.to_vec();
    keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
    let covered: Vec<usize> = keys
        .iter()
        .filter(|k| k.len() > 1)
        .flatten()
        .copied()
        .collect();
    keys.retain(|k| k.len() > 1 || !covered.contains(&k[0]));
    keys
}
