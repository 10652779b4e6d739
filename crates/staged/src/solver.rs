//! The staged solver: stages, and the three phases that work each one
//! (see the crate documentation).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use twistor_core::{Layout, Pattern};
use twistor_search::MoveSet;

use crate::coord::{CoordTable, Pdb, UNREACHED};
use crate::finish::{finish, OrbitState, Scope};
use crate::ida::{SearchEnd, StageSearch};
use crate::invariant::{fixing_moves, invariants, of_position};
use crate::model::{class_points, classes, Class, Model};
use crate::ops::{find_ops, GoalSlots};
use crate::pure::{OpKind, OrbitLibrary, PureOp};
use crate::search_ops::{ops_by_search, solve_orbits};
use crate::sift::Sifter;
use crate::StagedError;

/// Longest sequence one search step looks for.
const MAX_STEP_DEPTH: u32 = 20;
/// Classes considered at once for the next search step (the first ones
/// not yet placed, in the definition's order).
const POOL: usize = 64;
/// Classes whose search may run out of nodes before the search phase
/// ends.
const MAX_FAILED_STEPS: usize = 6;
/// Most slots a puzzle may have for operations found by optimal search.
const SEARCHED_OPS_SLOTS: usize = 600;
/// Random sequences sifted at a time while a needed word is missing.
const SIFT_BATCH: usize = 20_000;
/// Most operation searches spent looking for an order to finish orbits.
const ORDER_LIBRARIES: usize = 48;
/// Most pair databases a step adds for the class it places.
const PAIRS: usize = 8;
/// Most entries of the triple database a step adds.
const TRIPLE_PDB: u64 = 1 << 18;
/// Most entries of the database a step placing a piece only search can
/// finish adds.
const GROUP_PDB: u64 = 1 << 22;
/// Most nodes the optimal search placing orbits tied together may visit.
const COUPLED_NODES: u64 = 20_000_000;

/// How the staged solver works.
#[derive(Clone, Debug)]
pub struct StagedOptions {
    /// Bytes the move tables and pattern databases may hold.
    pub memory_bytes: u64,
    /// Nodes one search step may visit; a step that needs more ends the
    /// search phase of its stage.
    pub step_nodes: u64,
    /// Nodes all the search steps of one position may visit.
    pub position_nodes: u64,
    /// Most classes a search step keeps in place; past that, a stage goes
    /// on with commutators.
    pub max_tracked: usize,
}

impl Default for StagedOptions {
    fn default() -> StagedOptions {
        StagedOptions {
            memory_bytes: 256 << 20,
            step_nodes: 200_000,
            position_nodes: 4_000_000,
            max_tracked: 48,
        }
    }
}

/// Pieces a stage adds: an orbit's, or some of its slots'.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// The orbit (index into the layout).
    pub orbit: usize,
    /// Its slots (0-based), or `None` for all of them. A slot of identical
    /// pieces brings all the pieces alike with it.
    pub slots: Option<Vec<usize>>,
}

/// One stage of a plan given by the caller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageSpec {
    /// Its name, for reports.
    pub name: String,
    /// The pieces it adds to those already placed.
    pub pieces: Vec<PieceSpec>,
    /// The moves it may make (indices into the move set); `None`: all.
    pub moves: Option<Vec<usize>>,
}

/// How a step was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// IDA* placed one class.
    Search,
    /// Moves set an orbit's parity or twist right for the commutators.
    Invariants,
    /// Pure 3-cycles finished an orbit.
    Commutators,
    /// Words from a stabiliser chain finished the stage.
    Sifting,
}

/// One step of a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The stage it belongs to.
    pub stage: String,
    /// How it was taken.
    pub method: Method,
    /// What it did, in words (`CORNERS 3`, `EDGES: 12 pieces`).
    pub what: String,
    /// Its moves, before the solution is simplified.
    pub moves: usize,
    /// Search nodes it visited.
    pub nodes: u64,
}

/// What the solver reports as it works.
#[derive(Debug)]
pub enum StagedEvent<'a> {
    /// A step was taken.
    Step(&'a Step),
}

/// A solution and how it was found.
#[derive(Clone, Debug)]
pub struct StagedSolution {
    /// The moves (indices into the move set), simplified: turns of one
    /// grip that meet are merged.
    pub moves: Vec<usize>,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// One stage, resolved.
#[derive(Clone, Debug)]
struct Stage {
    name: String,
    classes: Vec<usize>,
    moves: Vec<usize>,
}

/// A staged solver for one move set and goal.
pub struct StagedSolver {
    moves: MoveSet,
    layout: Layout,
    model: Model,
    goal: Pattern,
    classes: Vec<Class>,
    stages: Vec<Stage>,
    options: StagedOptions,
    tables: Vec<CoordTable>,
    /// Each class's table: not yet looked for, or found (`None`: the
    /// class is too big to track).
    table_of: Vec<Option<Option<usize>>>,
    pdbs: HashMap<Vec<usize>, Pdb>,
    libraries: HashMap<LibraryKey, Option<OrbitLibrary>>,
    /// Keys whose library the optimal search was tried for.
    searched_libraries: std::collections::HashSet<LibraryKey>,
    /// Word tables for sifting, per move list (`None` while in use or
    /// when the puzzle is too big).
    sifters: HashMap<Vec<usize>, Option<Sifter>>,
    goal_slots: GoalSlots,
    bytes: u64,
}

impl StagedSolver {
    /// A solver reaching `goal` (a pattern of the moves' layout) with
    /// `moves`, in the caller's stages or, without them, in one stage of
    /// every piece. Pieces no stage names are placed by a last stage.
    pub fn new(
        moves: MoveSet,
        goal: Pattern,
        plan: Option<Vec<StageSpec>>,
        options: StagedOptions,
    ) -> Result<StagedSolver, StagedError> {
        let model = Model::new(&moves)?;
        let layout = moves.layout().clone();
        // Classes whose pieces are all alike and carry no orientation
        // are always in place.
        let classes: Vec<Class> = classes(&layout, &goal)
            .into_iter()
            .filter(|c| !(c.len() == model.size[c.orbit] && c.modulus == 1))
            .collect();
        let all_moves: Vec<usize> = (0..model.moves.len()).collect();
        let mut stages = Vec::new();
        let mut named = vec![false; classes.len()];
        for spec in plan.unwrap_or_default() {
            let mut picked = Vec::new();
            for piece in &spec.pieces {
                if piece.orbit >= layout.orbits().len() {
                    return Err(StagedError::NoSuchOrbit {
                        stage: spec.name.clone(),
                        orbit: piece.orbit,
                    });
                }
                if let Some(slots) = &piece.slots {
                    for &s in slots {
                        if s >= model.size[piece.orbit] {
                            return Err(StagedError::NoSuchSlot {
                                stage: spec.name.clone(),
                                orbit: layout.orbits()[piece.orbit].name().to_string(),
                                slots: model.size[piece.orbit],
                                slot: s,
                            });
                        }
                    }
                }
                for (i, c) in classes.iter().enumerate() {
                    let wanted = c.orbit == piece.orbit
                        && piece.slots.as_ref().is_none_or(|slots| {
                            c.homes.iter().any(|&h| slots.contains(&(h as usize)))
                        });
                    if wanted && !named[i] {
                        named[i] = true;
                        picked.push(i);
                    }
                }
            }
            let stage_moves = spec.moves.clone().unwrap_or_else(|| all_moves.clone());
            if let Some(&m) = stage_moves.iter().find(|&&m| m >= model.moves.len()) {
                return Err(StagedError::NoInverse(format!("move {m}")));
            }
            stages.push(Stage {
                name: spec.name,
                classes: picked,
                moves: stage_moves,
            });
        }
        let rest: Vec<usize> = (0..classes.len()).filter(|&i| !named[i]).collect();
        if !rest.is_empty() {
            stages.push(Stage {
                name: if stages.is_empty() {
                    "all".to_string()
                } else {
                    "the rest".to_string()
                },
                classes: rest,
                moves: all_moves,
            });
        }
        let n = classes.len();
        let mut goal_slots = GoalSlots {
            id: Vec::new(),
            modulus: Vec::new(),
            alike: Vec::new(),
            keeps_alike: Vec::new(),
            in_blocks: Vec::new(),
        };
        for (k, o) in layout.orbits().iter().enumerate() {
            let perm = layout.perm(goal.as_bytes(), k);
            let ori = layout.ori(goal.as_bytes(), k);
            for (&id, &code) in perm.iter().zip(ori) {
                let (_, m) = layout.decode_orientation(k, code);
                goal_slots.id.push(id);
                goal_slots.modulus.push(if m == 0 {
                    o.num_orientations() as u8
                } else {
                    m
                });
            }
            let mut ids = perm.to_vec();
            ids.sort_unstable();
            ids.dedup();
            goal_slots.alike.push(ids.len() < perm.len());
        }
        // Per move and orbit of pieces alike: whether the move carries
        // pieces of one id onto slots of one id. An exchange of pieces
        // alike set up by a move that does not (an inner slice on a big
        // cube's centres) is no longer harmless.
        let keeps: Vec<Vec<bool>> = model
            .moves
            .iter()
            .map(|mv| {
                (0..model.size.len())
                    .map(|k| {
                        let base = model.base[k];
                        let ids = &goal_slots.id[base..base + model.size[k]];
                        let mut image = vec![None; ids.len()];
                        !goal_slots.alike[k]
                            || ids.iter().enumerate().all(|(s, &id)| {
                                let to = ids[mv.dest[base + s] as usize - base];
                                *image[id as usize].get_or_insert(to) == to
                            })
                    })
                    .collect()
            })
            .collect();
        goal_slots.keeps_alike = keeps.iter().map(|k| k.iter().all(|&b| b)).collect();
        goal_slots.in_blocks = (0..model.size.len())
            .map(|k| keeps.iter().all(|m| m[k]))
            .collect();
        Ok(StagedSolver {
            moves,
            layout,
            model,
            goal,
            classes,
            stages,
            options,
            tables: Vec::new(),
            table_of: vec![None; n],
            pdbs: HashMap::new(),
            libraries: HashMap::new(),
            searched_libraries: std::collections::HashSet::new(),
            sifters: HashMap::new(),
            goal_slots,
            bytes: 0,
        })
    }

    /// The move set.
    pub fn moves(&self) -> &MoveSet {
        &self.moves
    }

    /// The stages, as (name, pieces in words) for a plan's description.
    pub fn plan(&self) -> Vec<(String, String)> {
        self.stages
            .iter()
            .map(|s| {
                let mut per_orbit: Vec<(usize, usize)> = Vec::new();
                for &c in &s.classes {
                    let class = &self.classes[c];
                    match per_orbit.iter_mut().find(|(k, _)| *k == class.orbit) {
                        Some((_, n)) => *n += class.len(),
                        None => per_orbit.push((class.orbit, class.len())),
                    }
                }
                let pieces = per_orbit
                    .iter()
                    .map(|&(k, n)| {
                        let name = self.layout.orbits()[k].name();
                        if n == self.model.size[k] {
                            name.to_string()
                        } else {
                            format!("{n} of {name}")
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                (s.name.clone(), pieces)
            })
            .collect()
    }

    /// Solves `position` (a pattern in the goal's terms).
    pub fn solve(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<StagedSolution, StagedError> {
        let mut run = Run {
            state: position.as_bytes().to_vec(),
            moves: Vec::new(),
            steps: Vec::new(),
            protected: Vec::new(),
            nodes_left: self.options.position_nodes,
        };
        for s in 0..self.stages.len() {
            self.run_stage(s, &mut run, stop, events)?;
        }
        let unsolved = (0..self.classes.len()).find(|&c| !self.solved(&run.state, c));
        if let Some(c) = unsolved {
            return Err(StagedError::GaveUp {
                stage: "all".to_string(),
                orbit: self.orbit_name(self.classes[c].orbit),
                reason: "a piece is still out of place".to_string(),
            });
        }
        Ok(StagedSolution {
            moves: simplify(&self.model, &self.moves, &run.moves),
            steps: run.steps,
        })
    }

    fn orbit_name(&self, k: usize) -> String {
        self.layout.orbits()[k].name().to_string()
    }

    fn solved(&self, state: &[u8], c: usize) -> bool {
        let mut points = Vec::new();
        class_points(&self.layout, &self.classes[c], state, &mut points);
        points == self.classes[c].goal_points
    }

    fn run_stage(
        &mut self,
        s: usize,
        run: &mut Run,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        let stage = self.stages[s].clone();
        let earlier = run.protected.clone();
        // Pieces of the stage already in place stay there.
        for &c in &stage.classes {
            if self.solved(&run.state, c) && !run.protected.contains(&c) {
                run.protected.push(c);
            }
        }
        let coupled = self.coupled_orbits(&stage, run);
        self.search_phase(&stage, &coupled, &earlier, run, stop, events)?;
        // Everything placed so far, and the stage's pieces, must end in place.
        let mut scope: Vec<usize> = run.protected.clone();
        for &c in &stage.classes {
            if !scope.contains(&c) {
                scope.push(c);
            }
        }
        let broken = |me: &StagedSolver, state: &[u8]| -> Vec<usize> {
            let mut orbits: Vec<usize> = scope
                .iter()
                .filter(|&&c| !me.solved(state, c))
                .map(|&c| me.classes[c].orbit)
                .collect();
            orbits.sort_unstable();
            orbits.dedup();
            orbits
        };
        if !broken(self, &run.state).is_empty() {
            self.invariant_phase(&stage, &scope, run, events)?;
            // Commutators, orbit by orbit; where they cannot finish the
            // stage, sifting through word tables does, from where they
            // got to.
            // The quick searches for cycles first, then the thorough ones
            // (an optimal search for each missing cycle), each from where
            // the one before got to.
            for thorough in [false, true] {
                if broken(self, &run.state).is_empty() {
                    break;
                }
                let Some(order) = self.finishing_order(&stage, &scope, &run.state, thorough) else {
                    continue;
                };
                for (k, key) in order {
                    if stop.load(Ordering::Relaxed) {
                        return Err(StagedError::Stopped);
                    }
                    if broken(self, &run.state).contains(&k)
                        && self
                            .finish_orbit(&stage, &scope, k, Some(key), run, events)
                            .is_err()
                    {
                        break;
                    }
                }
            }
            if !broken(self, &run.state).is_empty() {
                self.sift_finish(&stage, run, stop, events)?;
            }
        }
        for &c in &stage.classes {
            if !run.protected.contains(&c) {
                run.protected.push(c);
            }
        }
        Ok(())
    }

    /// The stage finished by sifting: every slot in turn, the word from
    /// the tables taking the piece it needs home.
    fn sift_finish(
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
            result = match self.consistent_labels(&sifter, &run.state) {
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
    fn sift_pass(
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
    /// `state` an element of the group: pieces alike numbered in slot
    /// order, then, if that is not one, with two of one kind swapped.
    fn consistent_labels(&self, sifter: &Sifter, state: &[u8]) -> Option<Vec<usize>> {
        let goal = self.goal.as_bytes();
        let mut labels = vec![usize::MAX; self.model.slots()];
        for k in 0..self.model.size.len() {
            let perm = self.layout.perm(state, k);
            let homes = self.layout.perm(goal, k);
            let mut used = vec![false; perm.len()];
            for (s, &id) in perm.iter().enumerate() {
                let h = (0..homes.len()).find(|&h| homes[h] == id && !used[h])?;
                used[h] = true;
                labels[self.model.base[k] + s] = self.model.base[k] + h;
            }
        }
        let member =
            |labels: &[usize]| sifter.contains(&self.model, &self.layout, state, goal, labels);
        if member(&labels) {
            return Some(labels);
        }
        // Swaps of two pieces alike, one at a time, then two at once.
        let mut swaps: Vec<(usize, usize)> = Vec::new();
        for k in 0..self.model.size.len() {
            let perm = self.layout.perm(state, k);
            let base = self.model.base[k];
            for a in 0..perm.len() {
                if let Some(b) = (a + 1..perm.len()).find(|&b| perm[b] == perm[a]) {
                    swaps.push((base + a, base + b));
                    break;
                }
            }
        }
        for (i, &(a, b)) in swaps.iter().enumerate() {
            let mut one = labels.clone();
            one.swap(a, b);
            if member(&one) {
                return Some(one);
            }
            for &(c, d) in &swaps[i + 1..] {
                let mut two = one.clone();
                two.swap(c, d);
                if member(&two) {
                    return Some(two);
                }
            }
        }
        None
    }

    /// The global slot of a sifting point.
    fn slot_of_point(&self, sifter: &Sifter, p: u16) -> usize {
        (0..self.model.slots())
            .find(|&s| {
                sifter.point(&self.model, s, 0) <= p
                    && p < sifter.point(&self.model, s, 0)
                        + self.model.oris[self.model.orbit_of[s] as usize] as u16
            })
            .expect("every point is a slot's")
    }

    /// The table of `c`'s coordinate, built on first use; `None` when the
    /// class is too big to track or memory is short.
    fn table(&mut self, c: usize) -> Option<usize> {
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
    fn pdb(&mut self, classes: &[usize]) -> bool {
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
        let all: Vec<usize> = (0..self.model.moves.len()).collect();
        let pdb = Pdb::build(&refs, &goal, &all);
        self.bytes += pdb.bytes();
        self.pdbs.insert(classes.to_vec(), pdb);
        true
    }

    /// The grips whose moves turn a home of class `c`.
    fn grips_of(&self, c: usize) -> Vec<usize> {
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

    fn coord(&self, state: &[u8], c: usize) -> u32 {
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
    fn coupled_orbits(&mut self, stage: &Stage, run: &Run) -> Vec<bool> {
        let orbits = self.model.size.len();
        let mut in_scope = vec![false; orbits];
        for &c in run.protected.iter().chain(&stage.classes) {
            in_scope[self.classes[c].orbit] = true;
        }
        // Where commutators can finish the orbits in some order, none
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
            return vec![false; orbits];
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
        let coupled: Vec<bool> = (0..orbits)
            .map(|k| {
                let mut keep = in_scope.clone();
                keep[k] = false;
                broken[k] && self.library(k, &stage.moves, keep, false).is_none()
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
    fn step(
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
    fn coupled_step(
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
            me.report(run, &stage.name, Method::Search, what, moves, nodes, events);
        };
        // Where no earlier stage placed pieces outside these orbits, the
        // generic optimal search over the whole orbits (its tables prune
        // far better than databases of a few pieces).
        let held_elsewhere = earlier.iter().any(|&c| !coupled[self.classes[c].orbit]);
        if !held_elsewhere {
            let position = self.layout.pattern_from_bytes(run.state.clone()).ok();
            let path = position.and_then(|p| {
                solve_orbits(&self.moves, &self.goal, coupled, &p, COUPLED_NODES, stop)
            });
            if stop.load(Ordering::Relaxed) {
                return Err(StagedError::Stopped);
            }
            if let Some(path) = path {
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
                report_step(self, run, path.len(), 0, events);
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
                report_step(self, run, path.len(), spent, events);
                Ok(true)
            }
            SearchEnd::Stopped => Err(StagedError::Stopped),
            SearchEnd::OverBudget | SearchEnd::NotWithin => Ok(false),
        }
    }

    /// Phase 1: classes placed one at a time by search, nearest first
    /// (the coupled orbits' before the rest).
    fn search_phase(
        &mut self,
        stage: &Stage,
        coupled: &[bool],
        earlier: &[usize],
        run: &mut Run,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        let mut failed: Vec<usize> = Vec::new();
        if coupled.iter().any(|&x| x) {
            self.coupled_step(stage, coupled, earlier, run, stop, events)?;
        }
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
                let h = self.pdbs[&vec![c]].dist[coord as usize];
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
                // pairs (and one triple) of single pieces, whatever orbit.
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
                    if key.len() >= 3 && self.pdb(&key) {
                        keys.push(key);
                    }
                }
                // The databases of several classes first (they prune the
                // most), and no single class already inside one of them.
                keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
                let covered: Vec<usize> = keys
                    .iter()
                    .filter(|k| k.len() > 1)
                    .flatten()
                    .copied()
                    .collect();
                keys.retain(|k| k.len() > 1 || !covered.contains(&k[0]));
                let budget = self.options.step_nodes.min(run.nodes_left);
                let (end, spent) = self.step(stage, run, &tracked, &[c], &keys, budget, stop);
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
            if !placed && failed.len() >= MAX_FAILED_STEPS {
                return Ok(());
            }
        }
    }

    /// Phase 2: parity and twist of every orbit wholly in scope set right.
    fn invariant_phase(
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
        let fix = fixing_moves(&self.model, &invs, &stage.moves, &now).ok_or_else(|| {
            StagedError::Unreachable {
                reason: "no sequence sets the orbits' parity and twist right".to_string(),
            }
        })?;
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

    /// The orbits to finish and the operations each uses, in an order in
    /// which each keeps the orbits already done: first those whose
    /// operations must disturb others (found by a bounded search over
    /// orders, smaller orbits tried first, keeping the orbits in place
    /// now, or failing that none of them), then those whose operations
    /// disturb nothing.
    fn finishing_order(
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
        for keep_solved in [true, false] {
            let to_finish: Vec<usize> = (0..orbits)
                .filter(|&k| in_scope[k] && (broken[k] || !keep_solved))
                .collect();
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
    fn order_early(
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
    fn library(
        &mut self,
        k: usize,
        moves: &[usize],
        keep: Vec<bool>,
        thorough: bool,
    ) -> Option<LibraryKey> {
        let key = (k, moves.to_vec(), keep);
        let searched = self.searched_libraries.contains(&key);
        if let Some(found) = self.libraries.get(&key) {
            if found.is_some() || !thorough || searched {
                return found.is_some().then_some(key);
            }
        }
        {
            let invariants: Vec<(bool, u8)> = (0..self.model.size.len())
                .map(|o| {
                    let of_orbit: Vec<&Class> =
                        self.classes.iter().filter(|c| c.orbit == o).collect();
                    let parity = of_orbit.len() == self.model.size[o]
                        && of_orbit.iter().all(|c| c.len() == 1);
                    let modulus = of_orbit.iter().fold(0u8, |g, c| gcd(g, c.modulus));
                    (parity, modulus)
                })
                .collect();
            let mut ops = find_ops(&self.model, k, moves, &key.2, &invariants, &self.goal_slots);

            // Where short commutators miss, an optimal search finds one
            // (on puzzles small enough for it, turning all their moves).
            let cycles = ops.iter().filter(|o| o.kind == OpKind::Cycle).count();
            if thorough {
                self.searched_libraries.insert(key.clone());
            }
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
                    &key.2,
                    &invariants,
                    &AtomicBool::new(false),
                ));
            }
            let mut library = self.library_of(k, moves, &key.2, ops);
            // Cycles exchanging pieces alike in a kept orbit are set up
            // only by moves that keep those pieces in blocks; where they
            // cannot reach every three slots that way, only cycles that
            // leave pieces alike alone are taken.
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
                let ops = find_ops(&self.model, k, moves, &key.2, &invariants, &strict);
                library = self.library_of(k, moves, &key.2, ops);
            }
            self.libraries.insert(key.clone(), library);
        }
        self.libraries[&key].is_some().then_some(key)
    }

    /// The library of orbit `k`'s operations `ops` by `moves`, keeping
    /// the orbits `keep` marks: `None` where twists alone are found for an
    /// orbit whose pieces move (unless they ride with a kept orbit's).
    fn library_of(
        &self,
        k: usize,
        moves: &[usize],
        keep: &[bool],
        ops: Vec<PureOp>,
    ) -> Option<OrbitLibrary> {
        let base = self.model.base[k];
        let permutes = moves.iter().any(|&m| {
            (base..base + self.model.size[k]).any(|s| self.model.moves[m].dest[s] as usize != s)
        });
        if permutes
            && !ops.iter().any(|o| o.kind == OpKind::Cycle)
            && !self.model.rides_with_kept(k, moves, keep)
        {
            return None;
        }
        OrbitLibrary::new(&self.model, k, moves, &self.goal_slots.keeps_alike, ops)
    }

    /// Phase 3: orbit `k` finished by its 3-cycles (kept under `key`).
    fn finish_orbit(
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
        let held: u64 = self
            .libraries
            .values()
            .flatten()
            .map(OrbitLibrary::bytes)
            .sum::<u64>()
            + library.bytes();
        if held > self.options.memory_bytes / 4 {
            library.release();
        }
        self.libraries.insert(key, Some(library));
        result
    }

    fn finish_with(
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

    fn play(&self, run: &mut Run, path: &[usize]) {
        let mut next = vec![0u8; run.state.len()];
        for &m in path {
            self.layout.compose_into(
                &run.state,
                self.moves.moves()[m].transformation.as_bytes(),
                &mut next,
            );
            std::mem::swap(&mut run.state, &mut next);
        }
        run.moves.extend_from_slice(path);
    }

    #[allow(clippy::too_many_arguments)]
    fn report(
        &self,
        run: &mut Run,
        stage: &str,
        method: Method,
        what: String,
        moves: usize,
        nodes: u64,
        events: &mut dyn FnMut(StagedEvent),
    ) {
        let step = Step {
            stage: stage.to_string(),
            method,
            what,
            moves,
            nodes,
        };
        events(StagedEvent::Step(&step));
        run.steps.push(step);
    }
}

fn gcd(a: u8, b: u8) -> u8 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// An orbit, the moves, and the orbits its cycles keep.
type LibraryKey = (usize, Vec<usize>, Vec<bool>);

/// One position's solve in progress.
struct Run {
    state: Vec<u8>,
    moves: Vec<usize>,
    steps: Vec<Step>,
    protected: Vec<usize>,
    nodes_left: u64,
}

/// Merges turns of one grip that meet (also across turns that commute
/// with them), dropping those that cancel; in the quarter-turn metric only
/// cancelling pairs go.
fn simplify(model: &Model, moves: &MoveSet, path: &[usize]) -> Vec<usize> {
    let orders: Vec<i32> = moves.grips().iter().map(|g| g.order as i32).collect();
    let mut out: Vec<usize> = Vec::new();
    for &m in path {
        let grip = model.moves[m].grip;
        let mut i = out.len();
        let mut merged = false;
        while i > 0 {
            let prev = out[i - 1];
            let pg = model.moves[prev].grip;
            if pg == grip {
                let order = orders[grip];
                let amount =
                    (moves.moves()[prev].amount + moves.moves()[m].amount).rem_euclid(order);
                if amount == 0 {
                    out.remove(i - 1);
                    merged = true;
                } else if let Some(j) = moves
                    .moves()
                    .iter()
                    .position(|x| x.grip == grip && x.amount.rem_euclid(order) == amount)
                {
                    out[i - 1] = j;
                    merged = true;
                }
                break;
            }
            if !model.commute[pg * model.grips + grip] {
                break;
            }
            i -= 1;
        }
        if !merged {
            out.push(m);
        }
    }
    out
}
