//! The Square-1 answered by its two-phase solver (`twistor-square1`).
//!
//! twistor's Square-1 is cubing.js's: 24 wedges, each its own piece, and
//! the two halves of the middle layer. The solver's model numbers slots
//! the same way (TNoodle's, cubing.js's) but knows pieces as corners
//! (two wedges) and edges: a wedge's piece is the one that holds its slot
//! when solved. cubing.js's model does not bandage, so `/` may cut a
//! corner there; such a position is no Square-1 position, and the staged
//! solver takes it.

use twistor_core::{Pattern, Puzzle};
use twistor_square1::{format_moves, Square1Position, Square1Solver};

/// The two-phase solver and what it needs of the puzzle's layout.
pub(super) struct TwoPhaseSquare1 {
    solver: Square1Solver,
    wedges: usize,
    equator: usize,
}

impl TwoPhaseSquare1 {
    /// The solver, if `puzzle` is the Square-1 (the hand-written model).
    pub fn for_puzzle(puzzle: &Puzzle) -> Option<TwoPhaseSquare1> {
        let layout = puzzle.layout();
        let wedges = layout.orbit_index("WEDGES")?;
        let equator = layout.orbit_index("EQUATOR")?;
        let plain = puzzle.name() == "square1"
            && layout.orbits().len() == 2
            && layout.orbits()[wedges].num_pieces() == 24
            && layout.orbits()[equator].num_pieces() == 2
            && layout.perm(puzzle.start().as_bytes(), wedges)
                == (0..24).collect::<Vec<u8>>().as_slice();
        plain.then(|| TwoPhaseSquare1 {
            solver: Square1Solver::new(),
            wedges,
            equator,
        })
    }

    /// An answer for `position` in WCA notation (`(1,0) / (-3,0) /`) and
    /// its number of moves, or `None` when it is no Square-1 position.
    pub fn solve(&self, puzzle: &Puzzle, position: &Pattern) -> Option<(String, usize)> {
        let layout = puzzle.layout();
        let wedges = layout.perm(position.as_bytes(), self.wedges);
        let solved = Square1Position::solved();
        let mut slots = [0u8; 24];
        for (slot, &w) in wedges.iter().enumerate() {
            slots[slot] = solved.piece(w as usize)?;
        }
        let equator = layout.ori(position.as_bytes(), self.equator);
        let flipped = layout.decode_orientation(self.equator, equator[1]).0 % 6 == 3;
        let position = Square1Position::from_slots(slots, flipped).ok()?;
        let moves = self.solver.solve(&position);
        Some((format_moves(&moves), moves.len()))
    }
}
