//! Neighbours by index, for engines outside this crate.
//!
//! The bit-array engine never builds a position to find its neighbours: it
//! computes their perfect indices from small per-component move tables
//! (see `bits`). A sharded breadth-first search (`twistor-distributed`)
//! needs exactly that and nothing else of the engine, so this module lends
//! it out: [`NeighbourIndex`] owns the index and the tables, and a
//! [`NeighbourCursor`] walks increasing indices, as the engine does.

use twistor_core::index::PositionIndexer;
use twistor_core::Puzzle;

use super::bits::{memory_needed, Cursor, MoveTables};
use super::GodsError;
use crate::MoveSet;

/// A perfect index of a puzzle's positions with move tables that give the
/// indices of a position's neighbours.
pub struct NeighbourIndex {
    indexer: PositionIndexer,
    moves: Vec<Vec<u8>>,
    tables: MoveTables,
    start: u64,
    memory: u64,
    reachable: Option<u64>,
}

impl NeighbourIndex {
    /// The index of the positions `moves` reach from the puzzle's start,
    /// with move tables for those moves (in `moves` order).
    pub fn new(puzzle: &Puzzle, moves: &MoveSet) -> Result<NeighbourIndex, GodsError> {
        let generators: Vec<_> = moves.grips().iter().map(|g| &g.transformation).collect();
        let indexer = PositionIndexer::new(puzzle.layout(), puzzle.start(), &generators)?;
        let bytes: Vec<Vec<u8>> = moves
            .moves()
            .iter()
            .map(|m| m.transformation.as_bytes().to_vec())
            .collect();
        let refs: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
        let tables = MoveTables::new(&indexer, &refs);
        let start = indexer.rank(puzzle.start().as_bytes());
        // The engine's figure counts its two-bit array too; only the tables here.
        let memory = memory_needed(&indexer, bytes.len()) - indexer.size().div_ceil(32) * 8;
        let reachable = match super::reachable_positions(puzzle, moves) {
            super::Reachable::Known(n) => Some(n),
            _ => None,
        };
        Ok(NeighbourIndex {
            reachable,
            indexer,
            moves: bytes,
            tables,
            start,
            memory,
        })
    }

    /// How many indices there are (at least the reachable positions).
    pub fn size(&self) -> u64 {
        self.indexer.size()
    }

    /// A position's index (`state` is one the moves reach).
    pub fn rank(&self, state: &[u8]) -> u64 {
        self.indexer.rank(state)
    }

    /// The start position's index.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// How many positions the moves reach, when the group is small enough
    /// to count (Schreier–Sims) and the pieces are distinguishable; the
    /// index may be larger.
    pub fn reachable(&self) -> Option<u64> {
        self.reachable
    }

    /// How many moves (neighbours a position) there are.
    pub fn moves(&self) -> usize {
        self.moves.len()
    }

    /// Bytes the move tables take.
    pub fn memory(&self) -> u64 {
        self.memory
    }

    /// A cursor for finding neighbours, fastest on increasing indices.
    pub fn cursor(&self) -> NeighbourCursor<'_> {
        NeighbourCursor {
            cursor: Cursor::new(&self.tables, &self.indexer, &self.moves),
            tables: &self.tables,
        }
    }
}

/// Finds the neighbours' indices of one position at a time.
pub struct NeighbourCursor<'a> {
    cursor: Cursor<'a, Vec<u8>>,
    tables: &'a MoveTables,
}

impl NeighbourCursor<'_> {
    /// Writes the index of `x`'s neighbour under each move into `out`
    /// (which has one entry a move).
    #[inline]
    pub fn neighbours(&mut self, x: u64, out: &mut [u64]) {
        let nm = self.tables.nm;
        let lo = self.cursor.locate(x);
        let row = &self.tables.low_table[lo * nm..lo * nm + nm];
        for ((y, &h), &l) in out.iter_mut().zip(&self.cursor.nh).zip(row) {
            *y = h + l as u64;
        }
    }
}
