//! Which engine enumerates cosets: the 3x3x3's own (`cube333::CosetSolver`,
//! Kociemba's coordinates, 19.5 billion positions a coset) when the puzzle
//! is the cube turned by its six faces and the subgroup is
//! `<U, D, R2, L2, F2, B2>`, else the generic one
//! (`search::gods::CosetSpace`), which needs the coset space to fit a list.

use std::collections::HashSet;

use twistor_core::Puzzle;
use twistor_cube333::{CubeCorrespondence, Face, FaceTurn, MoveSeq};
use twistor_search::MoveSet;

/// The engine for a coset run.
pub enum CosetEngine {
    /// The 3x3x3's coset solver.
    Cube333,
    /// The generic coset space.
    Generic,
}

/// Chooses the engine for the cosets of the subgroup `subgroup`'s moves
/// generate in the group of `moves`, in the face-turn metric.
pub fn coset_engine(puzzle: &Puzzle, moves: &MoveSet, subgroup: &MoveSet) -> CosetEngine {
    let grips: Vec<usize> = moves.grips().iter().map(|g| g.puzzle_move).collect();
    let whole_turns = moves.grips().iter().all(|g| g.step == 1) && moves.moves().len() == 18;
    let Some(cube) = CubeCorrespondence::find(puzzle, &grips).filter(|_| whole_turns) else {
        return CosetEngine::Generic;
    };
    // The ten moves of <U, D, R2, L2, F2, B2> as the definition's moves,
    // for each axis the quarter turns may be about: the correspondence
    // may see the definition's U-D axis as any of the cube's, and the
    // subgroups about the three axes are conjugate by a rotation (their
    // cosets correspond, with the same distances).
    let layout = puzzle.layout();
    let faces = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];
    let subgroup_about = |axis: usize| -> HashSet<Vec<u8>> {
        faces
            .iter()
            .enumerate()
            .flat_map(|(i, &f)| {
                let quarter = i % 3 == axis;
                let amounts: &[i64] = if quarter { &[1, 2, 3] } else { &[2] };
                amounts.iter().filter_map(move |&q| FaceTurn::new(f, q))
            })
            .map(|t| {
                let (index, amount) = cube.moves_back(&MoveSeq(vec![t]))[0];
                layout
                    .power(&puzzle.moves()[index].transformation, amount as i64)
                    .as_bytes()
                    .to_vec()
            })
            .collect()
    };
    let given: HashSet<Vec<u8>> = subgroup
        .moves()
        .iter()
        .map(|m| m.transformation.as_bytes().to_vec())
        .collect();
    if (0..3).any(|axis| subgroup_about(axis) == given) {
        CosetEngine::Cube333
    } else {
        CosetEngine::Generic
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_search::Metric;

    fn engine(name: &str, subgroup: &str) -> bool {
        let p = crate::catalog::build_named(name, &Default::default(), false)
            .unwrap()
            .into_puzzle();
        let m = MoveSet::all(&p, Metric::Htm).unwrap();
        let names: Vec<String> = subgroup.split(',').map(String::from).collect();
        let h = MoveSet::named(&p, &names, Metric::Htm).unwrap();
        matches!(coset_engine(&p, &m, &h), CosetEngine::Cube333)
    }

    #[test]
    fn the_cube_solver_takes_the_half_turn_subgroup_about_any_axis_and_nothing_else() {
        assert!(engine("3x3x3", "U,D,R2,L2,F2,B2"));
        assert!(engine("3x3x3", "F,B,U2,D2,R2,L2"));
        assert!(engine("3x3x3", "R,L,U2,D2,F2,B2"));
        assert!(!engine("3x3x3", "U,D2,R2,L2,F2,B2"));
        assert!(!engine("3x3x3", "U,D,R2,L2,F2"));
        assert!(!engine("2x2x2", "U,D,R2,L2,F2,B2"));
    }
}
