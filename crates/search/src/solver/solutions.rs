//! A position's solutions as an iterator: shortest first, found lazily,
//! stopped by dropping it.
//!
//! Each depth is searched when the solutions before it are used up. A
//! depth's solutions come in lexicographic order of their moves, so the
//! first N are the same set on any number of threads; the search of a
//! depth asks for as many as the caller said it expects
//! ([`Solutions::expect`]), and when more are wanted searches that depth
//! again for twice as many (a depth's search is deterministic, so the
//! first ones come again and the new ones follow; the repeated work is at
//! most as much again). Worker threads live only inside [`Iterator::next`]:
//! once it returns, nothing runs, so dropping the iterator stops the
//! search; a stop flag ([`Solutions::stop_on`]) ends a `next` that is
//! taking too long from another thread.

use std::sync::atomic::{AtomicBool, Ordering};

use twistor_core::Pattern;

use super::{SearchProgress, Solver};

/// Nodes below which a depth is searched on one thread.
const SMALL_SEARCH_NODES: u64 = 1 << 16;

/// Never set: the stop flag of an iteration given none.
static NEVER: AtomicBool = AtomicBool::new(false);

/// The solutions of one position, shortest first (see the module
/// documentation). Made by [`Solver::solutions`].
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use twistor_geometry::{build, PuzzleOptions};
/// use twistor_search::{Metric, MoveSet, Solver, SolverOptions};
///
/// // The 2x2x2, turned with U, F and R (its DBL corner stays put).
/// let puzzle = build("2x2x2", &PuzzleOptions::default())?.into_puzzle();
/// let moves = MoveSet::named(&puzzle, &["U", "F", "R"].map(String::from), Metric::Htm)?;
/// let turn = |p: &twistor_core::Pattern, name: &str| {
///     let m = moves.moves().iter().find(|m| m.name == name).unwrap();
///     puzzle.layout().apply(p, &m.transformation)
/// };
/// let position = ["R", "U", "R'", "U'", "F"].iter().fold(puzzle.start().clone(), |p, m| turn(&p, m));
/// let mut solver = Solver::new(
///     &puzzle,
///     moves.clone(),
///     puzzle.start().clone(),
///     &SolverOptions::default(),
///     &AtomicBool::new(false),
///     &mut |_| {},
/// )?;
///
/// // The first three solutions, shortest first; the rest are never searched.
/// let three: Vec<Vec<usize>> = solver.solutions(&position).take(3).collect();
/// assert_eq!(three.len(), 3);
/// assert!(three.windows(2).all(|w| w[0].len() <= w[1].len()));
/// for solution in &three {
///     let solved = solver.names(solution).iter().fold(position.clone(), |p, m| turn(&p, m));
///     assert_eq!(&solved, puzzle.start());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solutions<'a> {
    solver: &'a mut Solver,
    start: Pattern,
    stop: &'a AtomicBool,
    progress: Option<&'a mut dyn FnMut(&SearchProgress)>,
    threads: usize,
    max_depth: u32,
    /// How many solutions the caller expects to take in all.
    expected: usize,
    /// The depth being enumerated.
    depth: u32,
    /// Whether `depth` has been searched at all yet.
    searched: bool,
    /// Solutions of length `depth` found so far, in order.
    found: Vec<Vec<usize>>,
    /// Whether `found` holds every solution of length `depth`.
    exhausted: bool,
    /// The next of `found` to yield.
    next: usize,
    /// Solutions yielded at shorter depths.
    yielded_before: usize,
    nodes: u64,
    last_nodes: u64,
    last_secs: f64,
    stopped: bool,
    /// Most nodes the search may visit, judged before each depth.
    node_limit: u64,
    over_limit: bool,
    done: bool,
}

impl Solver {
    /// The solutions of `start` (a pattern with the goal's pieces), shortest
    /// first, searched as they are asked for: see [`Solutions`]. By
    /// default on one thread, lengths 0 to 40.
    pub fn solutions(&mut self, start: &Pattern) -> Solutions<'_> {
        let done = !self.indexable(start);
        Solutions {
            solver: self,
            start: start.clone(),
            stop: &NEVER,
            progress: None,
            threads: 1,
            max_depth: 40,
            expected: 1,
            depth: 0,
            searched: false,
            found: Vec::new(),
            exhausted: false,
            next: 0,
            yielded_before: 0,
            nodes: 0,
            last_nodes: 0,
            last_secs: 0.0,
            stopped: false,
            node_limit: u64::MAX,
            over_limit: false,
            done,
        }
    }

    /// Whether every exact table can index `start` (and its inverse): a
    /// position one cannot is not reachable from the goal at all, and
    /// must not be looked up.
    fn indexable(&self, start: &Pattern) -> bool {
        // (Only a transformation has an inverse: when the goal is solved.)
        let mut inverse = vec![0u8; start.as_bytes().len()];
        if self.inverse_ok {
            self.layout.invert_into(start.as_bytes(), &mut inverse);
        }
        self.tables.iter().all(|t| {
            let p = t.projection();
            p.checked_index(&self.layout, start.as_bytes()).is_some()
                && (!self.inverse_ok || p.checked_index(&self.layout, &inverse).is_some())
        })
    }
}

impl<'a> Solutions<'a> {
    /// Searches on `threads` threads (the solutions do not depend on it).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Only solutions of at least `depth` moves.
    pub fn min_depth(mut self, depth: u32) -> Self {
        self.depth = depth;
        self
    }

    /// Only solutions of at most `depth` moves.
    pub fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = depth;
        self
    }

    /// Ends the search, within a fraction of a second, when `stop` is set
    /// (from another thread: a time limit, a cancel button).
    pub fn stop_on(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = stop;
        self
    }

    /// Ends the search before a depth whose modelled nodes (the last
    /// depth's times the branching factor) would take the nodes visited
    /// past `limit`: a budget decided from counts, so the same search
    /// stops at the same depth every run.
    pub fn node_limit(mut self, limit: u64) -> Self {
        self.node_limit = limit;
        self
    }

    /// Whether the node limit ended the search.
    pub fn over_limit(&self) -> bool {
        self.over_limit
    }

    /// Calls `progress` after each search of a depth.
    pub fn on_progress(mut self, progress: &'a mut dyn FnMut(&SearchProgress)) -> Self {
        self.progress = Some(progress);
        self
    }

    /// Tells how many solutions will be taken (`usize::MAX`: all of a
    /// length), so that each depth is searched once for that many rather
    /// than again for more.
    pub fn expect(mut self, count: usize) -> Self {
        self.expected = count.max(1);
        self
    }

    /// Yields nothing longer than the depth being enumerated now (after a
    /// first solution: only the others of its length follow).
    pub fn this_depth_only(&mut self) {
        self.max_depth = self.max_depth.min(self.depth);
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the stop flag ended the search before it was done.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Starts the depth `self.depth` (or the first one the tables allow):
    /// grows the tables first if searching has shown it worth it. False
    /// when past the longest length asked for.
    fn start_depth(&mut self) -> bool {
        let solver = &mut *self.solver;
        let depth = self.depth;
        solver.grow_tables(depth, self.last_secs * solver.branching as f64, self.stop);
        // The bound may have risen with the tables.
        let bound = solver.lower_bound(self.start.as_bytes());
        self.depth = self.depth.max(bound);
        self.depth <= self.max_depth
    }

    /// Searches the current depth for `need` solutions.
    fn search(&mut self, need: usize) {
        let solver = &mut *self.solver;
        let bound = solver.lower_bound(self.start.as_bytes());
        // Starting threads costs more than a small depth's search.
        let expected_nodes = match self.last_nodes {
            // Searching a little beyond the bound is quick.
            0 if self.depth < bound + 3 => 0,
            0 => u64::MAX,
            n => n.saturating_mul(solver.branching),
        };
        let threads = if expected_nodes < SMALL_SEARCH_NODES {
            1
        } else {
            self.threads
        };
        let (found, nodes, stopped) =
            solver.search_depth(self.start.as_bytes(), self.depth, need, threads, self.stop);
        self.last_nodes = nodes;
        self.last_secs = nodes as f64 * solver.node_secs();
        solver.search_secs += self.last_secs;
        self.nodes += nodes;
        // A depth's search is deterministic: a larger one begins with the
        // solutions a smaller one found.
        debug_assert!(found.len() >= self.found.len() || stopped);
        if found.len() >= self.found.len() {
            self.found = found;
        }
        self.exhausted = !stopped && self.found.len() < need;
        self.searched = true;
        if let Some(progress) = self.progress.as_mut() {
            progress(&SearchProgress {
                depth: self.depth,
                nodes: self.nodes,
                solutions: self.yielded_before + self.found.len(),
            });
        }
        if stopped {
            self.stopped = true;
            // What was found is sound: it is yielded, and then no more.
            self.exhausted = true;
            self.max_depth = self.depth;
        }
    }
}

impl Iterator for Solutions<'_> {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        loop {
            if self.next < self.found.len() {
                self.next += 1;
                return Some(self.found[self.next - 1].clone());
            }
            if self.done {
                return None;
            }
            if self.searched && self.exhausted {
                // On to the next length.
                self.yielded_before += self.found.len();
                self.found.clear();
                self.next = 0;
                self.searched = false;
                self.exhausted = false;
                self.depth += 1;
            }
            if self.depth > self.max_depth || self.stop.load(Ordering::Relaxed) {
                self.stopped |= self.stop.load(Ordering::Relaxed);
                self.done = true;
                return None;
            }
            let need = if self.searched {
                // More of this length than the last search asked for.
                self.found.len().saturating_mul(2).max(self.found.len() + 1)
            } else {
                if !self.start_depth() {
                    self.done = true;
                    return None;
                }
                let expected = self.last_nodes.saturating_mul(self.solver.branching);
                if self.nodes.saturating_add(expected) > self.node_limit {
                    self.over_limit = true;
                    self.stopped = true;
                    self.done = true;
                    return None;
                }
                self.expected.saturating_sub(self.yielded_before).max(1)
            };
            self.search(need);
        }
    }
}
