//! One stage's search: IDA* over the coordinates of the classes a stage
//! keeps or adds, bounded by the largest of their pattern databases'
//! distances, within a budget of nodes.
//!
//! The search never reads a whole position: a node is one coordinate per
//! tracked class, moved by table lookups, so it costs the same on a
//! 40x40x40 as on a 2x2x2 with as many tracked classes. Sequences are
//! canonical ([`Model::may_follow`]), and the first move may not repeat
//! the grip the previous stage ended on.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::coord::{CoordTable, Pdb, UNREACHED};
use crate::model::Model;

/// How a stage search ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SearchEnd {
    /// A shortest sequence reaching the stage's goal.
    Found(Vec<usize>),
    /// The node budget ran out first.
    OverBudget,
    /// No sequence within the depth limit.
    NotWithin,
    /// The stop flag was raised.
    Stopped,
}

/// A stage's search, set up for its tracked classes.
pub(crate) struct StageSearch<'a> {
    pub model: &'a Model,
    /// The move table of each tracked class.
    pub tables: Vec<&'a CoordTable>,
    /// The databases, each with the positions of its classes among the
    /// tracked ones.
    pub pdbs: Vec<(&'a Pdb, Vec<usize>)>,
    /// The moves the stage may make.
    pub moves: &'a [usize],
}

struct Walk<'s, 'a> {
    search: &'s StageSearch<'a>,
    /// Coordinates, one row of `tracked` per depth.
    stack: Vec<u32>,
    path: Vec<usize>,
    nodes: u64,
    budget: u64,
    stop: &'s AtomicBool,
    aborted: Option<SearchEnd>,
    /// The order the databases are read in children: one that cuts a
    /// child moves a place forward, so the ones that cut most are soon
    /// read first.
    order: Vec<usize>,
}

impl StageSearch<'_> {
    /// The lower bound at `coords` (`UNREACHED` if a database never
    /// reaches them), or any bound above `limit` as soon as one is read.
    #[inline]
    pub fn bound(&self, coords: &[u32], limit: u8) -> u8 {
        let mut h = 0u8;
        for (pdb, at) in &self.pdbs {
            h = h.max(pdb.at(at.iter().map(|&i| coords[i])));
            if h > limit {
                return h;
            }
        }
        h
    }

    /// A shortest canonical sequence from `start` to the goal, within
    /// `max_depth` moves and `budget` nodes (the nodes used are added to
    /// `spent`).
    pub fn solve(
        &self,
        start: &[u32],
        last_grip: Option<usize>,
        max_depth: u32,
        budget: u64,
        spent: &mut u64,
        stop: &AtomicBool,
    ) -> SearchEnd {
        let h = self.bound(start, UNREACHED);
        if h == UNREACHED {
            return SearchEnd::NotWithin;
        }
        let n = start.len();
        let mut walk = Walk {
            search: self,
            stack: vec![0; n * (max_depth as usize + 1)],
            path: Vec::new(),
            nodes: 0,
            budget,
            stop,
            aborted: None,
            order: (0..self.pdbs.len()).collect(),
        };
        walk.stack[..n].copy_from_slice(start);
        let mut end = SearchEnd::NotWithin;
        for depth in h as u32..=max_depth {
            if walk.dfs(0, depth, last_grip) {
                end = SearchEnd::Found(walk.path.clone());
                break;
            }
            if let Some(a) = walk.aborted.take() {
                end = a;
                break;
            }
        }
        *spent += walk.nodes;
        end
    }
}

impl Walk<'_, '_> {
    /// [`StageSearch::bound`] at the coordinates move `m` takes `coords`
    /// to, reading only the coordinates the databases ask for: most
    /// children are cut by the first database or two, and their other
    /// coordinates are never needed.
    #[inline]
    fn bound_after(&mut self, level: usize, m: usize, limit: u8) -> u8 {
        let search = self.search;
        let n = search.tables.len();
        let coords = &self.stack[level * n..(level + 1) * n];
        let mut h = 0u8;
        for j in 0..self.order.len() {
            let (pdb, at) = &search.pdbs[self.order[j]];
            h = h.max(pdb.at(at.iter().map(|&i| search.tables[i].next(coords[i], m))));
            if h > limit {
                if j > 0 {
                    self.order.swap(j, j - 1);
                }
                return h;
            }
        }
        h
    }

    /// Searches below level `level` for `left` more moves; true when the
    /// goal is reached (the moves are in `path`).
    fn dfs(&mut self, level: usize, left: u32, last: Option<usize>) -> bool {
        let n = self.search.tables.len();
        if left == 0 {
            return self
                .search
                .bound(&self.stack[level * n..(level + 1) * n], 0)
                == 0;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = Some(SearchEnd::OverBudget);
            return false;
        }
        if self.nodes & 0xfff == 0 && self.stop.load(Ordering::Relaxed) {
            self.aborted = Some(SearchEnd::Stopped);
            return false;
        }
        let model = self.search.model;
        for &m in self.search.moves {
            let grip = model.moves[m].grip;
            if !model.may_follow(last, grip) {
                continue;
            }
            let h = self.bound_after(level, m, (left - 1).min(254) as u8);
            if h as u32 > left - 1 {
                continue;
            }
            let (here, below) = self.stack.split_at_mut((level + 1) * n);
            let here = &here[level * n..];
            let child = &mut below[..n];
            for ((c, &x), t) in child.iter_mut().zip(here).zip(&self.search.tables) {
                *c = t.next(x, m);
            }
            self.path.push(m);
            if self.dfs(level + 1, left - 1, Some(grip)) {
                return true;
            }
            self.path.pop();
            if self.aborted.is_some() {
                return false;
            }
        }
        false
    }
}
