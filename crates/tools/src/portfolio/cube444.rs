//! The named 4x4x4 answered by the reduction solver (`twistor-cube444`).
//!
//! The solver has its own model of the cube: 96 stickers in space. The
//! named puzzle is PuzzleGeometry's: pieces in orbits. The two meet at the
//! stickers: each of the geometry's stickers has a centre in space, which
//! names the solver's sticker at that place, and
//! [`sticker_faces`](twistor_geometry::svg::sticker_faces) gives the colour
//! a position shows there. The answer, in the WCA's notation, is played on
//! the position; the reduction solves the cube up to the way it is held,
//! so the rotation that brings it back to the goal as held ends the answer.

use twistor_core::store::{StoreEvent, TableStore};
use twistor_core::{Pattern, Puzzle};
use twistor_cube333::TwoPhaseTables;
use twistor_cube444::{Cube444, Cube444Solver};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::svg::sticker_faces;
use twistor_geometry::{build, GeneratedPuzzle, PuzzleOptions};

use crate::rotations::WholeRotations;

/// Faces in the solver's colour order.
const FACES: [&str; 6] = ["U", "R", "F", "D", "L", "B"];

/// The reduction solver and how the named 4x4x4's stickers map to its.
pub(super) struct Reduction444 {
    geometry: GeneratedPuzzle,
    /// For each of the solver's stickers, the geometry's sticker there.
    sticker: Vec<usize>,
    /// For each of the geometry's faces, the solver's colour.
    colour: Vec<u8>,
    solver: Cube444Solver,
    three: TwoPhaseTables,
    rotations: WholeRotations,
}

impl Reduction444 {
    /// The solver, if `puzzle` is the named 4x4x4 (as built for notation),
    /// its tables loaded from `store` or built.
    pub fn for_puzzle(
        puzzle: &Puzzle,
        store: &dyn TableStore,
        events: &mut dyn FnMut(StoreEvent),
    ) -> Option<Reduction444> {
        if puzzle.name() != "4x4x4" {
            return None;
        }
        let geometry = build("4x4x4", &PuzzleOptions::for_notation()).ok()?;
        if geometry.puzzle().layout() != puzzle.layout()
            || geometry.puzzle().start() != puzzle.start()
        {
            return None;
        }
        let (sticker, colour) = correspondence(&geometry)?;
        let rotations = WholeRotations::of(puzzle).ok()?;
        let solver = Cube444Solver::load(store, events);
        let three = super::two_phase_tables_for(None, 1, store, events);
        Some(Reduction444 {
            geometry,
            sticker,
            colour,
            solver,
            three,
            rotations,
        })
    }

    /// An answer for `position` in the WCA's notation (ending with the
    /// rotation back to the goal as held, if one is needed), played and
    /// checked on `puzzle`; `None` when the stickers are no position of
    /// the cube.
    pub fn solve(&self, puzzle: &Puzzle, position: &Pattern) -> Option<(String, usize)> {
        let shown = sticker_faces(&self.geometry, position);
        let mut stickers = [0u8; 96];
        for (s, &g) in self.sticker.iter().enumerate() {
            stickers[s] = self.colour[shown[g]?];
        }
        let cube = Cube444::from_stickers(stickers).ok()?;
        let scramble = self.solver.scramble(&cube, &self.three).ok()?;
        let answer = scramble.alg.inverse();
        let moves = answer.0.len();
        let text = answer.to_string();
        let layout = puzzle.layout();
        let alg: Alg = text.parse().ok()?;
        let t = alg_transformation(puzzle, &alg).ok()?;
        // The scramble reaches the position held some way up: the answer
        // is played with the cube held that way, and solves it held some
        // way: one rotation before, one after.
        for before in self.rotations.iter() {
            let solved = layout.apply(&layout.apply(position, &before.transformation), &t);
            for after in self.rotations.iter() {
                if layout.apply(&solved, &after.transformation) == *puzzle.start() {
                    let words: Vec<&str> =
                        [before.name.as_str(), text.as_str(), after.name.as_str()]
                            .into_iter()
                            .filter(|w| !w.is_empty())
                            .collect();
                    return Some((words.join(" "), moves));
                }
            }
        }
        None
    }
}

/// For each of the solver's stickers, the geometry's sticker at its
/// place; and for each geometry face, the solver's colour.
fn correspondence(geometry: &GeneratedPuzzle) -> Option<(Vec<usize>, Vec<u8>)> {
    let g = geometry.geometry();
    let faces = g.solid().faces();
    let normal = |name: &str| {
        faces
            .iter()
            .find(|f| f.name == name)
            .map(|f| [f.normal.x, f.normal.y, f.normal.z])
    };
    let (r, u, f) = (normal("R")?, normal("U")?, normal("F")?);
    let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    let mut sticker = vec![usize::MAX; 96];
    for (i, st) in g.stickers().iter().enumerate() {
        // Faces are at distance 1: the solver's at 4.
        let c = [st.center.x, st.center.y, st.center.z];
        let point = [dot(c, r), dot(c, u), dot(c, f)].map(|x| (4.0 * x).round() as i32);
        let s = Cube444::sticker_at(point)?;
        if sticker[s] != usize::MAX {
            return None;
        }
        sticker[s] = i;
    }
    if sticker.contains(&usize::MAX) {
        return None;
    }
    let colour = faces
        .iter()
        .map(|face| FACES.iter().position(|&n| n == face.name).map(|c| c as u8))
        .collect::<Option<Vec<u8>>>()?;
    Some((sticker, colour))
}
