//! The last resort for a stage: sifting through word tables (Minkwitz),
//! every base slot in turn, with pieces alike told apart consistently.

use super::*;

impl StagedSolver {
    /// The stage finished by sifting: every slot in turn, the word from
    /// the tables taking the piece it needs home.
    pub(super) fn sift_finish(
        &mut self,
        stage: &Stage,
        run: &mut Run,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        // Sifting takes the stage whole: an error names its first orbit
        // left unfinished.
        let unfinished = stage
            .classes
            .iter()
            .find(|&&c| !self.solved(&run.state, c))
            .map_or(0, |&c| self.classes[c].orbit);
        let orbit = self.orbit_name(unfinished);
        let gave_up = |reason: &str| StagedError::GaveUp {
            stage: stage.name.clone(),
            orbit: orbit.clone(),
            reason: reason.to_string(),
        };
        if !self.sifters.contains_key(&stage.moves) {
            let sifter = Sifter::new(&self.model, &stage.moves);
            self.sifters.insert(stage.moves.clone(), sifter);
        }
        let Some(mut sifter) = self.sifters.get_mut(&stage.moves).and_then(Option::take) else {
            return Err(gave_up(
                "too big to sift, and its commutators do not finish it",
            ));
        };
        // Pieces alike are taken in whichever order is shortest; when
        // that leads where the tables have no word (the choices made the
        // hidden arrangement odd), again with the pieces alike labelled
        // once, consistently with the group.
        let mut result = self.sift_pass(&mut sifter, &run.state, None, stop);
        if matches!(result, Err(StagedError::Unreachable { .. })) {
            result = match self.consistent_labels(&sifter, &stage.moves, &run.state) {
                Some(labels) => self.sift_pass(&mut sifter, &run.state, Some(labels), stop),
                None => Err(StagedError::Unreachable {
                    reason: "no labelling of the pieces alike is in the group".to_string(),
                }),
            };
        }
        let result = match result {
            Err(StagedError::GaveUp { reason, .. }) => Err(gave_up(&reason)),
            other => other,
        };
        if let Ok(moves) = &result {
            self.play(run, moves);
        }
        self.sifters.insert(stage.moves.clone(), Some(sifter));
        let moves = result?;
        self.report(
            run,
            &stage.name,
            Method::Sifting,
            "every piece left".to_string(),
            moves.len(),
            0,
            events,
        );
        Ok(())
    }

    /// One pass of sifting from `state`: every base slot in turn, the word
    /// taking the piece it needs home. With `labels` (each slot's piece's
    /// home), pieces alike are told apart by them; without, the nearest
    /// free one is taken.
    pub(super) fn sift_pass(
        &self,
        sifter: &mut Sifter,
        state: &[u8],
        mut labels: Option<Vec<usize>>,
        stop: &AtomicBool,
    ) -> Result<Vec<usize>, StagedError> {
        let mut state = state.to_vec();
        let mut moves = Vec::new();
        let goal = self.goal.as_bytes();
        let mut fixed = vec![false; self.model.slots()];
        for i in 0..sifter.base().len() {
            if stop.load(Ordering::Relaxed) {
                return Err(StagedError::Stopped);
            }
            let b = sifter.base()[i];
            let slot = self.slot_of_point(sifter, b);
            let k = self.model.orbit_of[slot] as usize;
            let s = slot - self.model.base[k];
            let want = self.layout.perm(goal, k)[s];
            let oris = self.model.oris[k];
            let (go, _) = self
                .layout
                .decode_orientation(k, self.layout.ori(goal, k)[s]);
            let class = self.classes.iter().find(|c| c.orbit == k && c.id == want);
            fixed[slot] = true;
            let m = match (class, &labels) {
                (Some(class), _) => class.modulus,
                // A piece no class asks for, when labelled, still goes
                // home: later words were found with it there.
                (None, Some(_)) => oris,
                (None, None) => continue,
            };
            loop {
                let perm = self.layout.perm(&state, k);
                let ori = self.layout.ori(&state, k);
                let mut best: Option<Vec<usize>> = None;
                for t in 0..self.model.size[k] {
                    let global = self.model.base[k] + t;
                    let candidate = match &labels {
                        Some(l) => l[global] == slot,
                        None => perm[t] == want && !(fixed[global] && global != slot),
                    };
                    if !candidate {
                        continue;
                    }
                    let (o, _) = self.layout.decode_orientation(k, ori[t]);
                    for x in 0..oris {
                        // The word turns the piece by -x: it must end at the
                        // goal's orientation, modulo m.
                        if (o + oris - x) % m != go % m {
                            continue;
                        }
                        let p = sifter.point(&self.model, global, x);
                        if let Some(w) = sifter.word(i, p) {
                            if best.as_ref().is_none_or(|b| w.len() < b.len()) {
                                best = Some(w);
                            }
                        }
                    }
                }
                match best {
                    Some(w) => {
                        let mut next = vec![0u8; state.len()];
                        for &mv in &w {
                            self.layout.compose_into(
                                &state,
                                self.moves.moves()[mv].transformation.as_bytes(),
                                &mut next,
                            );
                            std::mem::swap(&mut state, &mut next);
                            if let Some(l) = &mut labels {
                                let d = &self.model.moves[mv].dest;
                                let mut moved = vec![0usize; l.len()];
                                for (from, &home) in l.iter().enumerate() {
                                    moved[d[from] as usize] = home;
                                }
                                *l = moved;
                            }
                        }
                        moves.extend(w);
                        break;
                    }
                    None if sifter.complete() => {
                        return Err(StagedError::Unreachable {
                            reason: format!(
                                "no move sequence takes a piece of {} home",
                                self.orbit_name(k)
                            ),
                        })
                    }
                    None => {
                        if !sifter.fill(SIFT_BATCH) && sifter.exhausted() {
                            return Err(StagedError::GaveUp {
                                stage: String::new(),
                                orbit: self.orbit_name(k),
                                reason: "its word tables could not be filled".to_string(),
                            });
                        }
                    }
                }
            }
        }
        Ok(moves)
    }

    /// A home for every slot's piece (pieces alike told apart) that makes
    /// `state` an element of the group `moves` generate, among the
    /// labellings [`twistor_core::Layout::alike_labellings`] gives.
    pub(super) fn consistent_labels(
        &self,
        sifter: &Sifter,
        moves: &[usize],
        state: &[u8],
    ) -> Option<Vec<usize>> {
        let goal = self.goal.as_bytes();
        let gens: Vec<&[u8]> = (moves.iter())
            .map(|&m| self.moves.moves()[m].transformation.as_bytes())
            .collect();
        let classes = self.layout.slot_classes(&gens);
        self.layout
            .alike_labellings(goal, state, &classes)?
            .map(|homes| {
                let mut labels = vec![usize::MAX; self.model.slots()];
                for (k, home) in homes.iter().enumerate() {
                    let base = self.model.base[k];
                    for (s, &h) in home.iter().enumerate() {
                        labels[base + s] = base + h as usize;
                    }
                }
                labels
            })
            .find(|labels| sifter.contains(&self.model, &self.layout, state, goal, labels))
    }

    /// The global slot of a sifting point.
    pub(super) fn slot_of_point(&self, sifter: &Sifter, p: u16) -> usize {
        (0..self.model.slots())
            .find(|&s| {
                sifter.point(&self.model, s, 0) <= p
                    && p < sifter.point(&self.model, s, 0)
                        + self.model.oris[self.model.orbit_of[s] as usize] as u16
            })
            .expect("every point is a slot's")
    }
}
