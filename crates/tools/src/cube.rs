//! The 3x3x3 solvers' face turns from the community's notation.
//!
//! `twistor-cube333` reads plain face-turn sequences (`R U2 F'`) itself;
//! an alg in full cubing.js notation (groupings, repetitions, commutators
//! and conjugates) is expanded here, by the notation crate, and each move
//! checked to be an outer face turn, so the cube model needs no parser.
//!
//! ```
//! use twistor_tools::cube::face_turns;
//!
//! let seq = face_turns("[R, U] (F2 D')2")?;
//! assert_eq!(seq.to_string(), "R U R' U' F2 D' F2 D'");
//! assert!(face_turns("R x").is_err());
//! # Ok::<(), twistor_tools::ToolError>(())
//! ```

use twistor_cube333::{Face, FaceTurn, MoveSeq};
use twistor_formats::alg::Alg;

use crate::ToolError;

/// Most moves an alg may expand to (repetitions and commutators grow fast).
pub const ALG_MOVE_LIMIT: usize = 1_000_000;

/// Reads an alg in cubing.js notation made of outer face turns U R F D L B
/// only, expanded.
pub fn face_turns(s: &str) -> Result<MoveSeq, ToolError> {
    let alg = Alg::parse(s)?;
    let expanded = alg.expanded_moves(ALG_MOVE_LIMIT)?;
    let mut out = Vec::with_capacity(expanded.len());
    for m in expanded {
        let face = (m.family.chars().count() == 1)
            .then(|| m.family.chars().next().and_then(Face::from_letter))
            .flatten();
        let Some(face) = face.filter(|_| m.inner_layer.is_none() && m.outer_layer.is_none()) else {
            return Err(ToolError::NotFaceTurn {
                column: m.column().unwrap_or(1),
                turn: m.to_string(),
            });
        };
        if let Some(turn) = FaceTurn::new(face, m.amount as i64) {
            out.push(turn);
        }
    }
    Ok(MoveSeq(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alg_notation_is_flattened_to_face_turns() {
        let a = face_turns("[R, U] (F2 D')2").unwrap();
        assert_eq!(a.to_string(), "R U R' U' F2 D' F2 D'");
        assert!(matches!(
            face_turns("R x"),
            Err(ToolError::NotFaceTurn { column: 3, .. })
        ));
        assert!(face_turns("Rw").is_err());
        // The notation's own error is kept (as the source), under the
        // message it always had.
        match face_turns("R (U") {
            Err(e @ ToolError::Alg(_)) => assert!(e.to_string().starts_with("column "), "{e}"),
            other => panic!("unexpected {other:?}"),
        }
    }
}
