//! Coordinates of classes and the pattern databases built on them.
//!
//! A class's *coordinate* is the set of points (`slot * modulus +
//! orientation`) its pieces stand on, ranked among all sets of that size
//! (colex order, [`rank_combination`]); a single piece's coordinate is its
//! point. Classes of one orbit with as many pieces and the same modulus
//! share a coordinate space, so one move table serves all the centres of
//! one kind on a big cube. A pattern database holds the exact distance of
//! every coordinate of one or a few classes, filled breadth-first from the
//! solved coordinates; the largest of several databases' distances is a
//! lower bound on a stage's remaining moves.

use twistor_core::index::{binomial, binomial_table, rank_combination, unrank_combination};

use crate::model::{Class, Model};

/// Entries past which a coordinate space gets no move table (and its
/// classes no pattern database): their searches would be too slow to
/// help anyway.
pub(crate) const MAX_COORDS: u64 = 1 << 21;
/// Entries past which a pattern database is not built.
pub(crate) const MAX_PDB: u64 = 1 << 22;
/// A distance not reached by the fill: the coordinate is not reachable.
pub(crate) const UNREACHED: u8 = u8::MAX;

/// The column of a move that leaves a table's orbit alone.
const NO_COLUMN: u16 = u16::MAX;

/// Per move, its column among the moves that turn orbit `k`, and those
/// moves.
fn columns(model: &Model, k: usize) -> (Vec<u16>, Vec<usize>) {
    let mut columns = vec![NO_COLUMN; model.moves.len()];
    let mut turning = Vec::new();
    for (i, mv) in model.moves.iter().enumerate() {
        if mv
            .support
            .iter()
            .any(|&s| model.orbit_of[s as usize] as usize == k)
        {
            columns[i] = turning.len() as u16;
            turning.push(i);
        }
    }
    (columns, turning)
}

/// The coordinates of sets of `k` points of one orbit, with a move table.
#[derive(Debug)]
pub(crate) struct CoordTable {
    pub orbit: usize,
    pub k: usize,
    pub modulus: u8,
    /// Number of coordinates.
    pub size: u32,
    /// Each move's column in `next`, or `NO_COLUMN` for a move that
    /// leaves the orbit alone (most moves of a big puzzle).
    columns: Vec<u16>,
    width: usize,
    /// `next[coord * width + column]`.
    next: Vec<u32>,
    binomials: Vec<Vec<u64>>,
}

impl CoordTable {
    /// Coordinates this space would have for `class`, if a table of them
    /// is worth building.
    pub fn size_for(model: &Model, class: &Class) -> Option<u64> {
        let n = class.num_points(model) as u64;
        let size = binomial(n, class.len() as u64)?;
        let width = columns(model, class.orbit).1.len() as u64;
        (size <= MAX_COORDS && size.saturating_mul(width) <= 1 << 25).then_some(size)
    }

    /// The move table of `class`'s coordinate space.
    pub fn build(model: &Model, class: &Class) -> CoordTable {
        let k = class.len();
        let n = class.num_points(model);
        let size = binomial(n as u64, k as u64).expect("sized by size_for") as usize;
        let binomials = binomial_table(n, k);
        let m = class.modulus;
        let base = model.base[class.orbit];
        let full = model.oris[class.orbit];
        let (columns, turning) = columns(model, class.orbit);
        let width = turning.len();
        let mut next = vec![0u32; size * width];
        let mut set = vec![0u16; k];
        let mut moved = vec![0u16; k];
        for c in 0..size {
            unrank_combination(&binomials, c as u64, &mut set);
            for (col, mv) in turning.iter().map(|&i| &model.moves[i]).enumerate() {
                for (out, &p) in moved.iter_mut().zip(&set) {
                    let (slot, o) = (p / m as u16, (p % m as u16) as u8);
                    let g = base + slot as usize;
                    let to = mv.dest[g] as usize - base;
                    let t = (o + mv.twist[g] % full) % m;
                    *out = to as u16 * m as u16 + t as u16;
                }
                moved.sort_unstable();
                next[c * width + col] = rank_combination(&binomials, &moved) as u32;
            }
        }
        CoordTable {
            orbit: class.orbit,
            k,
            modulus: m,
            size: size as u32,
            columns,
            width,
            next,
            binomials,
        }
    }

    /// Whether this table serves `class`.
    pub fn serves(&self, class: &Class) -> bool {
        self.orbit == class.orbit && self.k == class.len() && self.modulus == class.modulus
    }

    /// The coordinate of a set of points (increasing).
    pub fn rank(&self, points: &[u16]) -> u32 {
        rank_combination(&self.binomials, points) as u32
    }

    /// The coordinate after move `m`.
    #[inline]
    pub fn next(&self, coord: u32, m: usize) -> u32 {
        next_in(&self.columns, &self.next, self.width, coord, m)
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.next.len() as u64 * 4
    }

    /// The table as a search reads it in its inner loop: each move's
    /// column, the rows, and their width.
    pub fn rows(&self) -> (&[u16], &[u32], usize) {
        (&self.columns, &self.next, self.width)
    }
}

/// Where [`CoordTable::rows`] says a move takes `coord`.
#[inline]
pub(crate) fn next_in(columns: &[u16], next: &[u32], width: usize, coord: u32, m: usize) -> u32 {
    match columns[m] {
        NO_COLUMN => coord,
        col => next[coord as usize * width + col as usize],
    }
}

/// Exact distances of the coordinates of one or more classes to their
/// solved coordinates.
#[derive(Debug)]
pub(crate) struct Pdb {
    /// Each class's stride in the index.
    strides: Vec<u64>,
    dist: Vec<u8>,
}

impl Pdb {
    /// Entries a database of classes with these coordinate counts has.
    pub fn size_of(sizes: &[u32]) -> Option<u64> {
        sizes
            .iter()
            .try_fold(1u64, |acc, &s| acc.checked_mul(s as u64))
            .filter(|&s| s <= MAX_PDB)
    }

    /// Fills the database of classes with these tables and solved
    /// coordinates breadth-first from the solved index over every move of
    /// `model`.
    ///
    /// Levels are grown from the frontier while it is small; once it is
    /// large, every index not yet reached asks whether some move leads
    /// into the frontier (the model's moves come with their inverses, so
    /// that is the same question), which costs far less when most of the
    /// rest lie one level further.
    pub fn build(model: &Model, tables: &[&CoordTable], goal: &[u32]) -> Pdb {
        let mut strides = vec![0u64; tables.len()];
        let mut stride = 1u64;
        for i in (0..tables.len()).rev() {
            strides[i] = stride;
            stride *= tables[i].size as u64;
        }
        let size = stride as usize;
        let moves = model.moves.len();
        debug_assert!((0..moves).all(|m| model.moves[model.moves[m].inverse].inverse == m));
        let neighbour = |coords: &[u32], m: usize| -> usize {
            index_of(
                &strides,
                coords.iter().zip(tables).map(|(&c, t)| t.next(c, m)),
            )
        };
        let mut dist = vec![UNREACHED; size];
        let start = index_of(&strides, goal.iter().copied());
        dist[start] = 0;
        let mut frontier = vec![start as u32];
        let mut unreached = size - 1;
        let mut coords = vec![0u32; tables.len()];
        let mut prefix = vec![0usize; moves];
        let mut depth = 0u8;
        while !frontier.is_empty() && depth < UNREACHED - 1 {
            let mut next = Vec::new();
            if frontier.len() * 8 > unreached {
                // Index by index, the last class's coordinate fastest: the
                // other classes' part of each move's neighbour changes only
                // once a run of the last one's coordinates.
                let (outer, last) = tables.split_at(tables.len() - 1);
                let last = last[0];
                let mut index = 0;
                coords.fill(0);
                while index < size {
                    for (m, p) in prefix.iter_mut().enumerate() {
                        *p = index_of(
                            &strides,
                            coords.iter().zip(outer).map(|(&c, t)| t.next(c, m)),
                        );
                    }
                    for c in 0..last.size {
                        if dist[index] == UNREACHED
                            && (0..moves)
                                .any(|m| dist[prefix[m] + last.next(c, m) as usize] == depth)
                        {
                            dist[index] = depth + 1;
                            next.push(index as u32);
                        }
                        index += 1;
                    }
                    for (c, t) in coords.iter_mut().zip(outer).rev() {
                        *c += 1;
                        if *c < t.size {
                            break;
                        }
                        *c = 0;
                    }
                }
            } else {
                for &index in &frontier {
                    let mut rest = index as u64;
                    for (c, (&s, t)) in coords.iter_mut().zip(strides.iter().zip(tables)) {
                        *c = (rest / s) as u32;
                        rest %= s;
                        debug_assert!(*c < t.size);
                    }
                    for m in 0..moves {
                        let n = neighbour(&coords, m);
                        if dist[n] == UNREACHED {
                            dist[n] = depth + 1;
                            next.push(n as u32);
                        }
                    }
                }
            }
            unreached -= next.len();
            frontier = next;
            depth += 1;
        }
        Pdb { strides, dist }
    }

    /// The distance at the classes' coordinates, in the database's order.
    #[inline]
    pub fn at(&self, coords: impl Iterator<Item = u32>) -> u8 {
        self.dist[index_of(&self.strides, coords)]
    }

    /// The distances, and each class's stride in their index.
    pub fn parts(&self) -> (&[u8], &[u64]) {
        (&self.dist, &self.strides)
    }

    /// Bytes held.
    pub fn bytes(&self) -> u64 {
        self.dist.len() as u64
    }
}

/// The index of coordinates under `strides`.
#[inline]
fn index_of(strides: &[u64], coords: impl Iterator<Item = u32>) -> usize {
    coords.zip(strides).map(|(c, &s)| c as u64 * s).sum::<u64>() as usize
}

#[cfg(test)]
mod tests {
    use std::collections::VecDeque;

    use twistor_geometry::{build, PuzzleOptions};
    use twistor_search::{Metric, MoveSet};

    use super::*;
    use crate::model::classes;

    /// The distances of one database, by a plain breadth-first search:
    /// forward only, one index at a time, from its own decoding.
    fn plain_distances(model: &Model, tables: &[&CoordTable], goal: &[u32]) -> Vec<u8> {
        let sizes: Vec<u64> = tables.iter().map(|t| t.size as u64).collect();
        let size: u64 = sizes.iter().product();
        let encode = |coords: &[u32]| {
            coords
                .iter()
                .zip(&sizes)
                .fold(0u64, |acc, (&c, &s)| acc * s + c as u64) as usize
        };
        let decode = |mut index: u64| {
            let mut coords = vec![0u32; sizes.len()];
            for (c, &s) in coords.iter_mut().zip(&sizes).rev() {
                *c = (index % s) as u32;
                index /= s;
            }
            coords
        };
        let mut dist = vec![UNREACHED; size as usize];
        let start = encode(goal);
        dist[start] = 0;
        let mut queue = VecDeque::from([start]);
        while let Some(index) = queue.pop_front() {
            let coords = decode(index as u64);
            for m in 0..model.moves.len() {
                let moved: Vec<u32> = coords
                    .iter()
                    .zip(tables)
                    .map(|(&c, t)| t.next(c, m))
                    .collect();
                let n = encode(&moved);
                if dist[n] == UNREACHED {
                    dist[n] = dist[index] + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// The fill grows levels forward while the frontier is small and then
    /// asks each unreached index for a neighbour in it, a run of the last
    /// class's coordinates at a time; both must give the plain search's
    /// distances, for one, two and three classes, of one orbit or two.
    #[test]
    fn databases_equal_a_plain_breadth_first_search() {
        for name in ["megaminx", "pyraminx crystal", "4x4x4"] {
            let puzzle = build(name, &PuzzleOptions::default())
                .expect("a named puzzle")
                .into_puzzle();
            let moves = MoveSet::all(&puzzle, Metric::Htm).expect("its moves");
            let model = Model::new(&moves).expect("a model");
            let all = classes(moves.layout(), puzzle.start());
            let last = all.len() - 1;
            let tables: Vec<CoordTable> =
                all.iter().map(|c| CoordTable::build(&model, c)).collect();
            let mut deepest = 0;
            for pick in [vec![0], vec![3, 1], vec![0, 1, 2], vec![2, last]] {
                let refs: Vec<&CoordTable> = pick.iter().map(|&c| &tables[c]).collect();
                let goal: Vec<u32> = pick
                    .iter()
                    .map(|&c| tables[c].rank(&all[c].goal_points))
                    .collect();
                let pdb = Pdb::build(&model, &refs, &goal);
                let plain = plain_distances(&model, &refs, &goal);
                assert_eq!(pdb.dist, plain, "{name}: classes {pick:?}");
                let reached = plain.iter().filter(|&&d| d != UNREACHED);
                deepest = deepest.max(reached.max().copied().unwrap_or(0));
            }
            assert!(deepest >= 4, "{name}: distances to {deepest} only");
        }
    }
}
