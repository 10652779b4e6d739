//! Libraries of operations kept between runs, in the store the caller
//! gives.
//!
//! Finding a puzzle's pure 3-cycles is most of what a first solve costs
//! (26 s of the master pentultimate's 28, planning its stages), and the
//! answer depends only on the moves, the goal and what each library
//! keeps. So the operations found are kept under one key per move set
//! and goal, and read back at the next start. Only the move sequences are
//! kept: each is read again as an operation (`read_op` checks that it is
//! still pure), so a stale or damaged copy can cost time but never a
//! wrong answer; one that does not read is dropped and found again.
//!
//! Layout (little-endian): `u32` libraries; for each, `u32` orbit, `u32`
//! moves and their `u32` indices, `u32` orbits and a byte each (kept or
//! not), a byte (whether the thorough search was tried), `u32`
//! operations, each a `u32` length and its `u32` move indices.

use twistor_core::store::{key_hash, layout_version, PayloadLen, TableKey};

use super::*;
use crate::ops::read_op;

/// Most bytes the kept libraries may take (a few hundred kilobytes on the
/// biggest puzzles measured).
const MAX_KEPT_BYTES: u64 = 64 << 20;

/// One library as kept: its key, whether the thorough search was tried,
/// and its operations' moves.
struct Kept {
    key: LibraryKey,
    searched: bool,
    ops: Vec<Vec<usize>>,
}

impl StagedSolver {
    /// The store key of this solver's libraries.
    pub(super) fn libraries_key(moves: &MoveSet, goal: &Pattern) -> TableKey {
        TableKey::new(
            "staged-libraries",
            key_hash(&moves.definition_bytes(goal), layout_version::STAGED),
        )
    }

    /// Reads the libraries the store keeps, if any: a copy that does not
    /// read as this puzzle's operations is discarded.
    pub(super) fn load_libraries(&mut self) {
        let Ok(Some(table)) = self
            .store
            .load(&self.store_key, PayloadLen::AtMost(MAX_KEPT_BYTES))
        else {
            return;
        };
        let Some(kept) = decode(&table.bytes, &self.model) else {
            self.store.discard(&self.store_key);
            return;
        };
        let mut read = Vec::with_capacity(kept.len());
        for k in kept {
            let (orbit, keep) = (k.key.0, &k.key.2);
            let ops: Option<Vec<PureOp>> = (k.ops.iter())
                .map(|seq| read_op(&self.model, orbit, keep, &self.goal_slots, seq).map(|r| r.1))
                .collect();
            let Some(ops) = ops else {
                self.store.discard(&self.store_key);
                return;
            };
            read.push((k.key, k.searched, ops));
        }
        for (key, searched, ops) in read {
            let library = self.library_of(key.0, &key.1, &key.2, ops.clone());
            if searched {
                self.searched_libraries.insert(key.clone());
            }
            self.library_ops.insert(key.clone(), ops);
            self.libraries.insert(key, library);
        }
        self.libraries_unsaved = false;
    }

    /// Gives the store the libraries found since they were last read or
    /// kept. A store that cannot keep them only costs the next run time,
    /// so a failure to write is not an error of the solve.
    pub(super) fn save_libraries(&mut self) {
        if !self.libraries_unsaved || !self.store.writes() {
            return;
        }
        let bytes = encode(&self.library_ops, &self.searched_libraries);
        let written = self
            .store
            .save(&self.store_key, &[], bytes.len() as u64, &mut |w| {
                w.write_all(&bytes)
            });
        self.libraries_unsaved = written.is_err();
    }
}

fn encode(
    ops: &HashMap<LibraryKey, Vec<PureOp>>,
    searched: &std::collections::HashSet<LibraryKey>,
) -> Vec<u8> {
    let mut out = Vec::new();
    let u32_of = |out: &mut Vec<u8>, x: usize| out.extend_from_slice(&(x as u32).to_le_bytes());
    // In a fixed order, so the same libraries make the same bytes.
    let mut keys: Vec<&LibraryKey> = ops.keys().collect();
    keys.sort();
    u32_of(&mut out, keys.len());
    for key in keys {
        let (orbit, moves, keep) = key;
        u32_of(&mut out, *orbit);
        u32_of(&mut out, moves.len());
        for &m in moves {
            u32_of(&mut out, m);
        }
        u32_of(&mut out, keep.len());
        out.extend(keep.iter().map(|&k| u8::from(k)));
        out.push(u8::from(searched.contains(key)));
        u32_of(&mut out, ops[key].len());
        for op in &ops[key] {
            u32_of(&mut out, op.moves.len());
            for &m in &op.moves {
                u32_of(&mut out, m);
            }
        }
    }
    out
}

/// Reads little-endian words and bytes, `None` past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn flag(&mut self) -> Option<bool> {
        self.byte().filter(|&b| b <= 1).map(|b| b == 1)
    }

    fn word(&mut self) -> Option<usize> {
        let b = self.bytes.get(self.at..self.at + 4)?;
        self.at += 4;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }

    /// A count, believed only as far as the bytes left could hold it.
    fn count(&mut self) -> Option<usize> {
        self.word().filter(|&n| n <= self.bytes.len() - self.at)
    }

    /// `count` words each below `limit`.
    fn indices(&mut self, limit: usize) -> Option<Vec<usize>> {
        let n = self.count()?;
        (0..n).map(|_| self.word().filter(|&m| m < limit)).collect()
    }
}

/// The libraries in `bytes`, or `None` where they do not fit `model`.
fn decode(bytes: &[u8], model: &Model) -> Option<Vec<Kept>> {
    let mut r = Reader { bytes, at: 0 };
    let orbits = model.size.len();
    let libraries = r.count()?;
    let mut out = Vec::with_capacity(libraries);
    for _ in 0..libraries {
        let orbit = r.word().filter(|&k| k < orbits)?;
        let moves = r.indices(model.moves.len())?;
        if r.word()? != orbits {
            return None;
        }
        let keep: Vec<bool> = (0..orbits).map(|_| r.flag()).collect::<Option<_>>()?;
        let searched = r.flag()?;
        let n_ops = r.count()?;
        let ops: Vec<Vec<usize>> = (0..n_ops)
            .map(|_| r.indices(model.moves.len()))
            .collect::<Option<_>>()?;
        out.push(Kept {
            key: (orbit, moves, keep),
            searched,
            ops,
        });
    }
    (r.at == bytes.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pure::OpKind;

    fn op(moves: Vec<usize>) -> PureOp {
        PureOp {
            moves,
            kind: OpKind::Cycle,
            slots: [0, 1, 2],
            twist: [0; 3],
            exchanges: false,
        }
    }

    fn model() -> Model {
        let puzzle = twistor_geometry::build("2x2x2", &twistor_geometry::PuzzleOptions::default())
            .expect("the 2x2x2")
            .into_puzzle();
        let moves = MoveSet::all(&puzzle, twistor_search::Metric::Htm).expect("its moves");
        Model::new(&moves).expect("its model")
    }

    /// What is written reads back, and nothing shorter or out of range
    /// reads at all.
    #[test]
    fn kept_libraries_read_back_and_damage_does_not_read() {
        let model = model();
        let a: LibraryKey = (0, vec![0, 1, 2], vec![false]);
        let b: LibraryKey = (0, vec![3, 4], vec![true]);
        let ops = HashMap::from([
            (a.clone(), vec![op(vec![0, 4, 1]), op(vec![2])]),
            (b.clone(), vec![]),
        ]);
        let searched = std::collections::HashSet::from([b.clone()]);
        let bytes = encode(&ops, &searched);
        let read = decode(&bytes, &model).expect("it reads back");
        assert_eq!(read.len(), 2);
        for k in &read {
            let want: Vec<Vec<usize>> = ops[&k.key].iter().map(|o| o.moves.clone()).collect();
            assert_eq!(k.ops, want);
            assert_eq!(k.searched, k.key == b);
        }
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut], &model).is_none(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, &model).is_none());
        // The first move index of the first library, made one too many.
        let mut wrong = bytes.clone();
        let first_move = 4 + 4 + 4;
        wrong[first_move..first_move + 4]
            .copy_from_slice(&(model.moves.len() as u32).to_le_bytes());
        assert!(decode(&wrong, &model).is_none());
    }
}
