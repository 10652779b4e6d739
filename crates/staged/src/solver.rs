//! The staged solver: stages, and the three phases that work each one
//! (see the crate documentation).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use twistor_core::store::{NoStore, TableKey, TableStore};
use twistor_core::{Layout, Pattern};
use twistor_search::MoveSet;

use crate::coord::{CoordTable, Pdb, UNREACHED};
use crate::finish::{finish, OrbitState, Scope};
use crate::ida::{SearchEnd, StageSearch};
use crate::invariant::{fixing_moves, invariants, of_position, Invariant};
use crate::model::{class_points, classes, Class, Model};
use crate::ops::{find_ops, GoalSlots};
use crate::pure::{OpKind, OrbitLibrary, PureOp};
use crate::search_ops::{ops_by_search, solve_orbits, SEARCH_MEMORY};
use crate::sift::Sifter;
use crate::StagedError;

mod finishing;
mod kept;
mod planning;
mod search;
mod sifting;

/// Nodes the search for a pure swap of two pieces may visit (the
/// helicopter's corners, keeping its centres: 15 moves, in a fraction of
/// a second).
const SWAP_NODES: u64 = 20_000_000;
/// Longest sequence one search step looks for.
const MAX_STEP_DEPTH: u32 = 20;
/// Classes considered at once for the next search step (the first ones
/// not yet placed, in the definition's order).
const POOL: usize = 64;
/// Classes whose search may run out of nodes before the search phase
/// ends.
const MAX_FAILED_STEPS: usize = 6;
/// Searches in a row that may run out of nodes before the search phase
/// ends: where the pieces placed hold every turn (a megaminx's corners
/// after its edges), the next-nearest pieces fail as the nearest did. A
/// stage whose first search fails ends its search phase at once (on 16
/// puzzles, 3 states each, only the chopasaurus's answers changed, by 1
/// to 4 %, while the master pentultimate's positions took 1.0 s instead
/// of 2.1 and the megaminx's 0.7 instead of 1.1).
const FAILED_IN_A_ROW: usize = 3;
/// Nodes a stage's last search may visit, when commutators cannot finish
/// it and sifting would (sifting's words run to thousands of moves: 10 %
/// of helicopter positions left their last two centre colours swapped
/// in a way no 3-cycle the greedy finish allows repairs, and sifted to
/// 3,000 moves where a search of 300,000-400,000 nodes places them in
/// 12; a second or so at most).
const LAST_SEARCH_NODES: u64 = 1_000_000;
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
/// Nodes a step may spend before the triple database is built for it:
/// about what building one costs (a starminx edge triple, 216,000
/// entries over 48 moves, takes 50 ms, the time of some 50,000 nodes),
/// so a step never pays much more than twice what it needed. (2,000 made
/// the starminx and the pyraminx crystal build 15 triples a position;
/// the answers are the same either way, as the bounds are exact.)
const QUICK_STEP_NODES: u64 = 50_000;
/// Nodes a step may visit right after another step of its stage failed:
/// where the pieces placed hold every turn, the next-nearest pieces fail
/// as the nearest did, and a full step's nodes are mostly spent failing.
const RETRY_STEP_NODES: u64 = 50_000;
/// Most entries of the database a step placing a piece only search can
/// finish adds.
const GROUP_PDB: u64 = 1 << 22;
/// Most nodes the optimal search placing orbits tied together may visit
/// (a second or so; where it needs more, placing the pieces one at a time
/// is as short: on 32 puzzles, 20 states each, no answer changed length
/// from 20 million, while a Redicosahedron state spent 10 s failing).
const COUPLED_NODES: u64 = 2_000_000;

/// Nodes each search step of a search phase may visit.
#[derive(Clone, Copy, Debug)]
struct StepBudget {
    /// A step's nodes.
    nodes: u64,
    /// A step's nodes right after a step that failed.
    after_failure: u64,
}

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
    /// Pieces that only twist in place were set right by counts of moves
    /// solved as a linear system.
    Twists,
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
    /// The operations each library was made of: what the store keeps.
    library_ops: HashMap<LibraryKey, Vec<PureOp>>,
    /// Whether libraries were found since the store last had them.
    libraries_unsaved: bool,
    /// Where libraries are kept between runs, and under which key.
    store: Arc<dyn TableStore>,
    store_key: TableKey,
    /// Keys whose library the optimal search was tried for.
    searched_libraries: std::collections::HashSet<LibraryKey>,
    /// Word tables for sifting, per move list (`None` while in use or
    /// when the puzzle is too big).
    sifters: HashMap<Vec<usize>, Option<Sifter>>,
    /// Per orbit and the orbits it keeps: a pure swap of two of its
    /// pieces, where one was found.
    parity_swaps: HashMap<(usize, Vec<bool>), Option<Vec<usize>>>,
    goal_slots: GoalSlots,
    bytes: u64,
    /// The one-stage plan a chosen stage-an-orbit plan replaced: tried
    /// when that plan gives up on a position.
    fallback: Option<Vec<Stage>>,
}

impl StagedSolver {
    /// A solver reaching `goal` (a pattern of the moves' layout) with
    /// `moves`, in the caller's stages or, without them, in one stage of
    /// every piece (a stage an orbit, in the cheapest order, where there
    /// are two to four; see `planning`). Pieces no stage names are placed
    /// by a last stage.
    pub fn new(
        moves: MoveSet,
        goal: Pattern,
        plan: Option<Vec<StageSpec>>,
        options: StagedOptions,
    ) -> Result<StagedSolver, StagedError> {
        StagedSolver::with_store(moves, goal, plan, options, Arc::new(NoStore))
    }

    /// A solver as [`new`](Self::new) makes, that reads the operations
    /// it finds (most of what a first solve costs) from `store` and gives
    /// them back to it, so a later solver of the same moves and goal
    /// starts where this one got to.
    pub fn with_store(
        moves: MoveSet,
        goal: Pattern,
        plan: Option<Vec<StageSpec>>,
        options: StagedOptions,
        store: Arc<dyn TableStore>,
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
        let plan_given = plan.is_some();
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
                return Err(StagedError::NoSuchMove {
                    stage: spec.name.clone(),
                    index: m,
                });
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
        let store_key = StagedSolver::libraries_key(&moves, &goal);
        let mut solver = StagedSolver {
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
            library_ops: HashMap::new(),
            libraries_unsaved: false,
            store,
            store_key,
            searched_libraries: std::collections::HashSet::new(),
            sifters: HashMap::new(),
            parity_swaps: HashMap::new(),
            goal_slots,
            bytes: 0,
            fallback: None,
        };
        solver.load_libraries();
        if !plan_given {
            solver.plan_orbit_stages();
        }
        solver.save_libraries();
        Ok(solver)
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
        let result = self.solve_kept(position, stop, events);
        self.save_libraries();
        result
    }

    /// [`solve`](Self::solve), before the libraries it found are kept.
    fn solve_kept(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<StagedSolution, StagedError> {
        let mut result = self.run_stages(position, stop, events);
        // A chosen plan that gives up falls back to the one stage it replaced.
        if result
            .as_ref()
            .is_err_and(|e| !matches!(e, StagedError::Stopped))
        {
            if let Some(one) = self.fallback.clone() {
                let planned = std::mem::replace(&mut self.stages, one);
                result = self.run_stages(position, stop, events);
                self.stages = planned;
            }
        }
        let run = result?;
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

    /// Every stage, in order, from `position`.
    fn run_stages(
        &mut self,
        position: &Pattern,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<Run, StagedError> {
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
        Ok(run)
    }

    /// Whether some move of `moves` changes a slot of orbit `k`.
    fn changes(&self, moves: &[usize], k: usize) -> bool {
        let slots = self.model.base[k]..self.model.base[k] + self.model.size[k];
        moves
            .iter()
            .any(|&m| (self.model.moves[m].support.iter()).any(|&s| slots.contains(&(s as usize))))
    }

    /// Whether some move of `moves` carries a piece of orbit `k` to
    /// another slot (where none does, the orbit only twists in place).
    fn permutes(&self, moves: &[usize], k: usize) -> bool {
        let base = self.model.base[k];
        moves.iter().any(|&m| {
            (base..base + self.model.size[k]).any(|s| self.model.moves[m].dest[s] as usize != s)
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
        if coupled.iter().any(|&x| x) {
            self.coupled_step(&stage, &coupled, &earlier, run, stop, events)?;
        }
        let step_nodes = self.options.step_nodes;
        let budget = StepBudget {
            nodes: step_nodes,
            after_failure: step_nodes.min(RETRY_STEP_NODES),
        };
        self.search_phase(&stage, &coupled, budget, run, stop, events)?;
        // Everything placed so far, and the stage's pieces, must end in place.
        let mut scope: Vec<usize> = run.protected.clone();
        for &c in &stage.classes {
            if !scope.contains(&c) {
                scope.push(c);
            }
        }
        if !self.broken_orbits(&scope, &run.state).is_empty() {
            self.invariant_phase(&stage, &scope, run, events)?;
            // Commutators; where they cannot finish the stage, sifting
            // through word tables does, from where they got to.
            self.commutator_phase(&stage, &scope, run, stop, events)?;
            if !self.broken_orbits(&scope, &run.state).is_empty() && run.nodes_left > 0 {
                // The thorough commutator phase may have found the cycles
                // that untie an orbit from the rest (a master skewb's
                // centres from its corners): what is still tied is placed
                // now, as at the stage's start, and commutators go on.
                let coupled = self.coupled_orbits(&stage, run);
                if coupled.iter().any(|&x| x) {
                    self.coupled_step(&stage, &coupled, &earlier, run, stop, events)?;
                    self.commutator_phase(&stage, &scope, run, stop, events)?;
                }
                // Before sifting: searches as long as the position's nodes
                // allow, up to LAST_SEARCH_NODES, and commutators again
                // from wherever they got to.
                let last = LAST_SEARCH_NODES.min(run.nodes_left);
                let budget = StepBudget {
                    nodes: last,
                    after_failure: last,
                };
                self.search_phase(&stage, &coupled, budget, run, stop, events)?;
                self.commutator_phase(&stage, &scope, run, stop, events)?;
            }
            if !self.broken_orbits(&scope, &run.state).is_empty() {
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

    /// The orbits with a piece of `scope` out of place in `state`.
    fn broken_orbits(&self, scope: &[usize], state: &[u8]) -> Vec<usize> {
        let mut orbits: Vec<usize> = scope
            .iter()
            .filter(|&&c| !self.solved(state, c))
            .map(|&c| self.classes[c].orbit)
            .collect();
        orbits.sort_unstable();
        orbits.dedup();
        orbits
    }

    /// Phase 3: commutators, orbit by orbit, the quick searches for
    /// cycles first, then the thorough ones (an optimal search for each
    /// missing cycle), each from where the one before got to.
    fn commutator_phase(
        &mut self,
        stage: &Stage,
        scope: &[usize],
        run: &mut Run,
        stop: &AtomicBool,
        events: &mut dyn FnMut(StagedEvent),
    ) -> Result<(), StagedError> {
        for thorough in [false, true] {
            if self.broken_orbits(scope, &run.state).is_empty() {
                break;
            }
            let Some(order) = self.finishing_order(stage, scope, &run.state, thorough) else {
                continue;
            };
            for (k, key) in order {
                if stop.load(Ordering::Relaxed) {
                    return Err(StagedError::Stopped);
                }
                if self.broken_orbits(scope, &run.state).contains(&k)
                    && self
                        .finish_orbit(stage, scope, k, Some(key), run, events)
                        .is_err()
                {
                    break;
                }
            }
        }
        Ok(())
    }

    fn play(&self, run: &mut Run, path: &[usize]) {
        self.apply(&mut run.state, path);
        run.moves.extend_from_slice(path);
    }

    /// `state` after the moves of `path`.
    fn apply(&self, state: &mut Vec<u8>, path: &[usize]) {
        let mut next = vec![0u8; state.len()];
        for &m in path {
            self.layout.compose_into(
                state,
                self.moves.moves()[m].transformation.as_bytes(),
                &mut next,
            );
            std::mem::swap(state, &mut next);
        }
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
