//! Uniformly random positions, drawn from the exact state space.
//!
//! Random moves only approach uniformity; here a position is the start
//! pattern after a uniformly random element of the group the moves
//! generate. The Schreier–Sims chain of the group factors every element
//! uniquely as one coset representative per level, so independent uniform
//! choices at every level give every element the same probability
//! ([`StabilizerChain::random_element`]). Parity and orientation-sum
//! constraints come out of the group itself, whatever the puzzle.
//!
//! With identical pieces every distinguishable position is reached by the
//! same number of group elements (the positions are one orbit of the group,
//! each with a stabiliser of the same size, conjugate to the start's), so
//! uniform elements give uniform positions.

use twistor_core::{Pattern, Puzzle, StabilizerChain, Transformation};

use crate::rng::SeededRng;

/// A seeded stream of uniformly random elements and positions of a puzzle.
pub struct RandomStates<'p> {
    puzzle: &'p Puzzle,
    chain: StabilizerChain,
    rng: SeededRng,
}

impl<'p> RandomStates<'p> {
    /// Random elements of the group `generators` (indices into the
    /// puzzle's moves) generate, seeded by `seed`.
    pub fn new(puzzle: &'p Puzzle, generators: &[usize], seed: u64) -> RandomStates<'p> {
        RandomStates::from_chain(puzzle, puzzle.group(generators), seed)
    }

    /// Random elements of the group `chain` describes (on the puzzle's
    /// points, as [`Puzzle::group`] builds it).
    pub fn from_chain(puzzle: &'p Puzzle, chain: StabilizerChain, seed: u64) -> RandomStates<'p> {
        RandomStates {
            puzzle,
            chain,
            rng: SeededRng::new(seed),
        }
    }

    /// The group's chain.
    pub fn chain(&self) -> &StabilizerChain {
        &self.chain
    }

    /// A uniformly random group element as a transformation.
    pub fn next_transformation(&mut self) -> Transformation {
        let rng = &mut self.rng;
        let points = self.chain.random_element(|n| rng.below(n));
        let layout = self.puzzle.layout();
        let bytes = layout
            .from_points(&points)
            .expect("group elements map pieces to pieces");
        Transformation::from_bytes(layout, bytes).expect("group elements are transformations")
    }

    /// A uniformly random reachable position: the start pattern after a
    /// uniformly random group element.
    pub fn next_pattern(&mut self) -> Pattern {
        let t = self.next_transformation();
        self.puzzle.layout().apply(self.puzzle.start(), &t)
    }
}
