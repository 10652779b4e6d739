//! Evaluating move notation on a puzzle: looking moves up in its definition
//! and computing what an alg does.
//!
//! A move `2-3Rw2'` is first offered to the puzzle's notation mapping (for
//! puzzles from geometry, which speaks the community's notation), then
//! looked up by its quantum (`2-3Rw`) among the puzzle's named moves (base
//! moves, rotations, sequences, aliases and KPuzzle derived moves) and
//! raised to its amount; last, a move whose name includes the amount (`F2`
//! in a definition whose base move is called `F2`) is tried. Repetitions are evaluated by exponentiation, so
//! `(R U)1000000000` costs a few dozen products.

use twistor_core::{Pattern, Puzzle, Transformation};

use crate::alg::{Alg, AlgError, AlgErrorKind, AlgNode, Move};

/// What the move `m` does on `puzzle`.
pub fn move_transformation(puzzle: &Puzzle, m: &Move) -> Result<Transformation, AlgError> {
    let (word, times) = move_word(puzzle, m).ok_or_else(|| AlgError {
        column: m.column().unwrap_or(1),
        kind: AlgErrorKind::UnknownMove {
            name: m.to_string(),
        },
    })?;
    let t = puzzle.word_transformation(&word);
    Ok(puzzle.layout().power(&t, times))
}

/// The move `m` in `puzzle`'s own moves: a word (move indices with
/// amounts) and how many times it is done; `None` when the puzzle has no
/// such move.
pub fn move_word(puzzle: &Puzzle, m: &Move) -> Option<(Vec<(usize, i32)>, i64)> {
    // A puzzle's notation speaks for the community's names first: on the
    // pyraminx, `L` is a vertex turn even though the definition has a
    // face-layer move called `L`.
    if let Some(notation) = puzzle.notation() {
        if let Some(parts) = notation.resolve(puzzle, &m.family, m.outer_layer, m.inner_layer) {
            return Some((parts, m.amount as i64));
        }
    }
    let quantum = m.quantum();
    if let Some(i) = puzzle.find_move(&quantum) {
        return Some((vec![(i, 1)], m.amount as i64));
    }
    if m.amount.unsigned_abs() > 1 {
        let named = format!("{quantum}{}", m.amount.unsigned_abs());
        if let Some(i) = puzzle.find_move(&named) {
            return Some((vec![(i, 1)], m.amount.signum() as i64));
        }
    }
    None
}

/// What `alg` does on `puzzle`.
pub fn alg_transformation(puzzle: &Puzzle, alg: &Alg) -> Result<Transformation, AlgError> {
    let layout = puzzle.layout();
    let mut t = layout.identity();
    for node in alg.nodes() {
        let step = match node {
            AlgNode::Move(m) => move_transformation(puzzle, m)?,
            AlgNode::Grouping(a, k) => layout.power(&alg_transformation(puzzle, a)?, *k as i64),
            AlgNode::Commutator(a, b) => {
                let ta = alg_transformation(puzzle, a)?;
                let tb = alg_transformation(puzzle, b)?;
                let ab = layout.compose(&ta, &tb);
                let ab_a = layout.compose(&ab, &layout.invert(&ta));
                layout.compose(&ab_a, &layout.invert(&tb))
            }
            AlgNode::Conjugate(a, b) => {
                let ta = alg_transformation(puzzle, a)?;
                let tb = alg_transformation(puzzle, b)?;
                layout.compose(&layout.compose(&ta, &tb), &layout.invert(&ta))
            }
            AlgNode::Pause | AlgNode::Newline | AlgNode::LineComment(_) => continue,
        };
        t = layout.compose(&t, &step);
    }
    Ok(t)
}

/// The pattern reached by applying `alg` to `pattern`.
pub fn apply_alg(puzzle: &Puzzle, pattern: &Pattern, alg: &Alg) -> Result<Pattern, AlgError> {
    Ok(puzzle
        .layout()
        .apply(pattern, &alg_transformation(puzzle, alg)?))
}
