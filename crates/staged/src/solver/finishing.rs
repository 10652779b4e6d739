//! Phases 2 and 3 of a stage: the invariants set right, then each orbit
//! finished by pure 3-cycles from its library, in an order that lets each
//! keep the ones before.

use rayon::prelude::*;

use super::*;

impl StagedSolver {
    /// Phase 2: parity and twist of every orbit wholly in scope set right.
    pub(super) fn invariant_phase(
        &mut self,
        stage: &Stage,
        scope: &[usize],
        run: &mut Run,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        let mut whole: Vec<usize> = Vec::new();
        for k in 0..self.model.size.len() {
            let of_orbit: Vec<usize> = (0..self.classes.len())
                .filter(|&c| self.classes[c].orbit == k)
                .collect();
            if !of_orbit.is_empty() && of_orbit.iter().all(|c| scope.contains(c)) {
                whole.push(k);
            }
        }
        let invs = invariants(&self.model, &self.classes, &whole);
        let now = of_position(
            &self.layout,
            &self.classes,
            &invs,
            &run.state,
            self.goal.as_bytes(),
        );
        if now.iter().all(|&x| x == 0) {
            return Ok(());
        }
        let mut fix = fixing_moves(&self.model, &invs, &stage.moves, &now).ok_or_else(|| {
            StagedError::Unreachable {
                reason: "no sequence sets the orbits' parity and twist right".to_string(),
            }
        })?;
        // Moves that set a parity right break orbits earlier stages
        // placed, and putting those back can cost thousands of moves (the
        // helicopter's centres); a pure swap keeping them costs a dozen.
        let kept = self.kept_orbits(stage, run);
        if self.breaks_kept(run, &fix, &kept) {
            if let Some(pure) = self.pure_parity_fix(stage, &invs, &now, &kept) {
                fix = pure;
            }
        }
        self.play(run, &fix);
        self.report(
            run,
            &stage.name,
            Method::Invariants,
            "parity and twist".to_string(),
            fix.len(),
            0,
            events,
        );
        Ok(())
    }

    /// The orbits earlier stages placed whole: none of `stage`'s pieces
    /// in them, and every piece placed.
    fn kept_orbits(&self, stage: &Stage, run: &Run) -> Vec<bool> {
        (0..self.model.size.len())
            .map(|k| {
                let of_orbit: Vec<usize> = (0..self.classes.len())
                    .filter(|&c| self.classes[c].orbit == k)
                    .collect();
                !of_orbit.is_empty()
                    && of_orbit
                        .iter()
                        .all(|c| run.protected.contains(c) && !stage.classes.contains(c))
            })
            .collect()
    }

    /// Whether playing `path` from the run's state unplaces a piece of a
    /// `kept` orbit.
    fn breaks_kept(&self, run: &Run, path: &[usize], kept: &[bool]) -> bool {
        let mut after = run.state.clone();
        self.apply(&mut after, path);
        (run.protected.iter()).any(|&c| kept[self.classes[c].orbit] && !self.solved(&after, c))
    }

    /// Where parities alone are wrong: for each, a shortest swap of two
    /// pieces of its orbit that keeps that orbit's twists and the `kept`
    /// orbits (found by optimal search once per orbit), or `None`.
    fn pure_parity_fix(
        &mut self,
        stage: &Stage,
        invs: &[Invariant],
        now: &[u8],
        kept: &[bool],
    ) -> Option<Vec<usize>> {
        if stage.moves.len() != self.model.moves.len() {
            return None;
        }
        let mut fix = Vec::new();
        for (inv, &wrong) in invs.iter().zip(now) {
            match (*inv, wrong) {
                (_, 0) => {}
                (Invariant::Parity { orbit }, _) => {
                    let key = (orbit, kept.to_vec());
                    if !self.parity_swaps.contains_key(&key) {
                        let swap = self.swap_by_search(orbit, kept);
                        self.parity_swaps.insert(key.clone(), swap);
                    }
                    fix.extend(self.parity_swaps[&key].as_ref()?);
                }
                _ => return None,
            }
        }
        Some(fix)
    }

    /// A shortest sequence exchanging the pieces of `orbit`'s first two
    /// slots, with no twist, and keeping every `kept` orbit.
    fn swap_by_search(&self, orbit: usize, kept: &[bool]) -> Option<Vec<usize>> {
        let mut wanted = kept.to_vec();
        wanted[orbit] = true;
        let mut orbits = self.layout.pattern_orbits(&self.goal);
        orbits[orbit].pieces.swap(0, 1);
        orbits[orbit].orientation.swap(0, 1);
        let swapped = self.layout.pattern(&orbits).ok()?;
        let stop = AtomicBool::new(false);
        let path = solve_orbits(
            &self.moves,
            &self.goal,
            &wanted,
            &swapped,
            SWAP_NODES,
            self.search_memory(),
            &stop,
        )?;
        // The inverse of what solves the swapped goal is the swap.
        Some(self.model.inverse(&path))
    }

    /// The orbits to finish and the operations each uses, in an order in
    /// which each keeps the orbits already done: first those whose
    /// operations must disturb others (found by a bounded search over
    /// orders, smaller orbits tried first, keeping the orbits in place
    /// now, or failing that none of them), then those whose operations
    /// disturb nothing.
    pub(super) fn finishing_order(
        &mut self,
        stage: &Stage,
        scope: &[usize],
        state: &[u8],
        thorough: bool,
    ) -> Option<Vec<(usize, LibraryKey)>> {
        let orbits = self.model.size.len();
        let in_scope: Vec<bool> = (0..orbits)
            .map(|k| scope.iter().any(|&c| self.classes[c].orbit == k))
            .collect();
        let broken: Vec<bool> = (0..orbits)
            .map(|k| {
                scope
                    .iter()
                    .any(|&c| self.classes[c].orbit == k && !self.solved(state, c))
            })
            .collect();
        // An orbit the stage's moves never change stays as it is: kept,
        // never finished (its pieces have no operations to finish with).
        let changed: Vec<bool> = (0..orbits).map(|k| self.changes(&stage.moves, k)).collect();
        for keep_solved in [true, false] {
            let to_finish: Vec<usize> = (0..orbits)
                .filter(|&k| in_scope[k] && (broken[k] || (!keep_solved && changed[k])))
                .collect();
            // Their quick libraries are found at once, on all threads (a
            // big puzzle's take seconds each).
            let keys: Vec<LibraryKey> = (to_finish.iter())
                .map(|&k| {
                    let mut keep = in_scope.clone();
                    keep[k] = false;
                    (k, stage.moves.clone(), keep)
                })
                .filter(|key| !self.has_library(key, false))
                .collect();
            self.find_libraries(keys);
            let mut late = Vec::new();
            let mut early = Vec::new();
            for &k in &to_finish {
                let mut keep = in_scope.clone();
                keep[k] = false;
                match self.library(k, &stage.moves, keep, thorough) {
                    Some(key) => late.push((k, key)),
                    None => early.push(k),
                }
            }
            early.sort_by_key(|&k| (self.model.size[k], k));
            let kept: Vec<bool> = (0..orbits)
                .map(|k| in_scope[k] && !to_finish.contains(&k))
                .collect();
            let mut budget = ORDER_LIBRARIES;
            let mut order = Vec::new();
            if self.order_early(stage, &early, kept, thorough, &mut order, &mut budget) {
                order.extend(late);
                return Some(order);
            }
        }
        None
    }

    /// Depth-first over orders of `left`, each orbit keeping `kept`.
    pub(super) fn order_early(
        &mut self,
        stage: &Stage,
        left: &[usize],
        kept: Vec<bool>,
        thorough: bool,
        order: &mut Vec<(usize, LibraryKey)>,
        budget: &mut usize,
    ) -> bool {
        if left.is_empty() {
            return true;
        }
        for (i, &k) in left.iter().enumerate() {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let Some(key) = self.library(k, &stage.moves, kept.clone(), thorough) else {
                continue;
            };
            let mut rest = left.to_vec();
            rest.remove(i);
            let mut more = kept.clone();
            more[k] = true;
            order.push((k, key));
            if self.order_early(stage, &rest, more, thorough, order, budget) {
                return true;
            }
            order.pop();
        }
        false
    }

    /// The 3-cycles of orbit `k` by `moves` that keep the orbits `keep`
    /// marks, found on first use: the key they are kept under, or `None`.
    /// Only a `thorough` call tries the optimal search when the quicker
    /// searches find no cycle.
    pub(super) fn library(
        &mut self,
        k: usize,
        moves: &[usize],
        keep: Vec<bool>,
        thorough: bool,
    ) -> Option<LibraryKey> {
        let key = (k, moves.to_vec(), keep);
        if !self.has_library(&key, thorough) {
            let (ops, library) = self.find_library(&key, thorough);
            self.keep_library(key.clone(), thorough, ops, library);
        }
        self.libraries[&key].is_some().then_some(key)
    }

    /// Finds and keeps the (quick) libraries of `keys`, on all threads.
    pub(super) fn find_libraries(&mut self, keys: Vec<LibraryKey>) {
        let found: Vec<_> = keys
            .par_iter()
            .map(|key| self.find_library(key, false))
            .collect();
        for (key, (ops, library)) in keys.into_iter().zip(found) {
            self.keep_library(key, false, ops, library);
        }
    }

    /// Whether the library of `key` is known as far as a `thorough` call
    /// asks.
    pub(super) fn has_library(&self, key: &LibraryKey, thorough: bool) -> bool {
        self.libraries.get(key).is_some_and(|found| {
            found.is_some() || !thorough || self.searched_libraries.contains(key)
        })
    }

    /// Records the library of `key` and the operations it was made of.
    pub(super) fn keep_library(
        &mut self,
        key: LibraryKey,
        thorough: bool,
        ops: Vec<PureOp>,
        library: Option<OrbitLibrary>,
    ) {
        if thorough {
            self.searched_libraries.insert(key.clone());
        }
        self.library_ops.insert(key.clone(), ops);
        self.libraries_unsaved = true;
        self.libraries.insert(key, library);
    }

    /// Finds the library of `key` (see [`library`](Self::library)): the
    /// operations it is made of, and the library, if they make one.
    pub(super) fn find_library(
        &self,
        key: &LibraryKey,
        thorough: bool,
    ) -> (Vec<PureOp>, Option<OrbitLibrary>) {
        let (k, moves, keep) = key;
        let k = *k;
        let invariants: Vec<(bool, u8)> = (0..self.model.size.len())
            .map(|o| {
                let of_orbit: Vec<&Class> = self.classes.iter().filter(|c| c.orbit == o).collect();
                let parity =
                    of_orbit.len() == self.model.size[o] && of_orbit.iter().all(|c| c.len() == 1);
                let modulus = of_orbit.iter().fold(0u8, |g, c| gcd(g, c.modulus));
                (parity, modulus)
            })
            .collect();
        let mut ops = find_ops(&self.model, k, moves, keep, &invariants, &self.goal_slots);
        // Where short commutators miss, an optimal search finds one (on
        // puzzles small enough for it, turning all their moves).
        let cycles = ops.iter().filter(|o| o.kind == OpKind::Cycle).count();
        if thorough
            && cycles == 0
            && moves.len() == self.model.moves.len()
            && self.model.slots() <= SEARCHED_OPS_SLOTS
        {
            ops.extend(ops_by_search(
                &self.model,
                &self.moves,
                &self.goal,
                &self.goal_slots,
                k,
                keep,
                &invariants,
                self.search_memory(),
                &AtomicBool::new(false),
            ));
        }
        let mut library = self.library_of(k, moves, keep, ops.clone());
        // Cycles exchanging pieces alike in a kept orbit are set up only
        // by moves that keep those pieces in blocks; where they cannot
        // reach every three slots that way, only cycles that leave pieces
        // alike alone are taken.
        if library.as_mut().is_some_and(|l| {
            l.ops.iter().any(|o| o.exchanges) && !l.reaches_every_triple(&self.model)
        }) {
            let g = &self.goal_slots;
            let strict = GoalSlots {
                alike: g
                    .alike
                    .iter()
                    .zip(&g.in_blocks)
                    .map(|(&a, &b)| a && b)
                    .collect(),
                ..g.clone()
            };
            ops = find_ops(&self.model, k, moves, keep, &invariants, &strict);
            library = self.library_of(k, moves, keep, ops.clone());
        }
        (ops, library)
    }

    /// The library of orbit `k`'s operations `ops` by `moves`, keeping
    /// the orbits `keep` marks: `None` where twists alone are found for an
    /// orbit whose pieces move (unless they ride with a kept orbit's).
    pub(super) fn library_of(
        &self,
        k: usize,
        moves: &[usize],
        keep: &[bool],
        ops: Vec<PureOp>,
    ) -> Option<OrbitLibrary> {
        if self.permutes(moves, k)
            && !ops.iter().any(|o| o.kind == OpKind::Cycle)
            && !self.model.rides_with_kept(k, moves, keep)
        {
            return None;
        }
        OrbitLibrary::new(&self.model, k, moves, &self.goal_slots.keeps_alike, ops)
    }

    /// Phase 3: orbit `k` finished by its 3-cycles (kept under `key`).
    pub(super) fn finish_orbit(
        &mut self,
        stage: &Stage,
        scope: &[usize],
        k: usize,
        key: Option<LibraryKey>,
        run: &mut Run,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        let gave_up = StagedError::GaveUp {
            stage: stage.name.clone(),
            orbit: self.orbit_name(k),
            reason: "no commutator moves just three of its pieces".to_string(),
        };
        let Some(key) = key else {
            return Err(gave_up);
        };
        // Taken out while in use; its setups are kept afterwards only
        // while every library's fit in a quarter of the memory.
        let Some(Some(mut library)) = self.libraries.remove(&key) else {
            return Err(gave_up);
        };
        library.prepare();
        let result = self.finish_with(stage, scope, k, &library, run, events);
        self.libraries.insert(key.clone(), Some(library));
        self.release_past_quarter(&key);
        result
    }

    /// Frees the setups of the library under `key` when every library's
    /// together outgrow a quarter of the memory: held, a few such tables
    /// could outgrow all of it.
    pub(super) fn release_past_quarter(&mut self, key: &LibraryKey) {
        let held: u64 = (self.libraries.values().flatten())
            .map(OrbitLibrary::bytes)
            .sum();
        if held > self.options.memory_bytes / 4 {
            if let Some(Some(library)) = self.libraries.get_mut(key) {
                library.release();
            }
        }
    }

    pub(super) fn finish_with(
        &mut self,
        stage: &Stage,
        scope: &[usize],
        k: usize,
        library: &OrbitLibrary,
        run: &mut Run,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        let gave_up = |reason: &str| StagedError::GaveUp {
            stage: stage.name.clone(),
            orbit: self.orbit_name(k),
            reason: reason.to_string(),
        };
        let n = self.model.size[k];
        let perm = self.layout.perm(&run.state, k);
        let ori = self.layout.ori(&run.state, k);
        let mut state = OrbitState {
            id: perm.to_vec(),
            ori: ori
                .iter()
                .map(|&c| self.layout.decode_orientation(k, c).0)
                .collect(),
        };
        let mut target = vec![None; n];
        let mut goal_ori = vec![0u8; n];
        let mut modulus = vec![1u8; n];
        let goal_perm = self.layout.perm(self.goal.as_bytes(), k);
        let goal_codes = self.layout.ori(self.goal.as_bytes(), k);
        for &c in scope {
            let class = &self.classes[c];
            if class.orbit != k {
                continue;
            }
            for &h in &class.homes {
                let h = h as usize;
                target[h] = Some(goal_perm[h]);
                goal_ori[h] = self.layout.decode_orientation(k, goal_codes[h]).0;
                modulus[h] = class.modulus;
            }
        }
        let scope = Scope {
            target,
            goal_ori,
            modulus,
        };
        let mut moves = Vec::new();
        finish(&self.model, library, &mut state, &scope, &mut moves).map_err(|e| {
            gave_up(match e {
                crate::finish::FinishError::Permutation => "its cycles cannot place every piece",
                crate::finish::FinishError::Orientation => {
                    "its cycles cannot fix every orientation"
                }
            })
        })?;
        self.play(run, &moves);
        let pieces = scope.target.iter().filter(|t| t.is_some()).count();
        let what = format!("{}: {pieces} pieces", self.orbit_name(k));
        self.report(
            run,
            &stage.name,
            Method::Commutators,
            what,
            moves.len(),
            0,
            events,
        );
        Ok(())
    }
}
