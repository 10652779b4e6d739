//! A puzzle definition: orbits, a start pattern and named moves.
//!
//! This is the model every reader produces and every engine consumes. Moves
//! keep where they came from (a `Move` block, a `MoveSequence`, an alias, a
//! KPuzzle derived move) so writers can reproduce the definition; whole-puzzle
//! rotations are recognised by name as twsearch does.

use std::sync::Arc;

use num_bigint::BigUint;

use crate::group::{projection_bound, StabilizerChain};
use crate::{CoreError, Layout, Pattern, Transformation};

/// Where a named move comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Given explicitly as a transformation (`Move`, `MoveTransformation`,
    /// KPuzzle `moves`). A search move unless it is a rotation.
    Base,
    /// A `MoveSequence`: a new search move defined by an alg.
    Sequence,
    /// A `MoveAlias`: another name for an alg, not used in search.
    Alias,
    /// A KPuzzle `derivedMoves` entry: an alg with a name, not used in search.
    Derived,
}

/// A named move of a puzzle.
#[derive(Clone, Debug)]
pub struct MoveDef {
    /// The name, as written in move notation.
    pub name: String,
    /// What the move does.
    pub transformation: Transformation,
    /// Where it comes from.
    pub kind: MoveKind,
    /// The alg text that defines it, for every kind but [`MoveKind::Base`].
    pub definition: Option<String>,
}

impl MoveDef {
    /// Whether this move turns the whole puzzle (by its name: `x`, `y2`,
    /// `z'`, or capitals ending in `v` such as `Uv`, `DFRv`).
    pub fn is_rotation(&self) -> bool {
        is_rotation_name(&self.name)
    }

    /// Whether the move is one a search may use by default.
    pub fn is_search_move(&self) -> bool {
        matches!(self.kind, MoveKind::Base | MoveKind::Sequence) && !self.is_rotation()
    }
}

/// Whether `name` names a whole-puzzle rotation, by twsearch's rule.
pub fn is_rotation_name(name: &str) -> bool {
    let b = name.as_bytes();
    if let Some(&c) = b.first() {
        if matches!(c, b'x' | b'y' | b'z')
            && (b.len() == 1 || (b.len() == 2 && matches!(b[1], b'2' | b'\'')))
        {
            return true;
        }
    }
    let caps = b
        .iter()
        .take_while(|&&c| c == b'_' || c.is_ascii_uppercase())
        .count();
    caps > 0 && caps + 1 == b.len() && b[caps] == b'v'
}

/// A ksolve `Illegal` constraint: pieces that may never stand in a slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalPlacement {
    /// Orbit index.
    pub orbit: usize,
    /// Slot, 0-based.
    pub slot: usize,
    /// Piece ids (0-based, as in the start pattern) forbidden there.
    pub pieces: Vec<u8>,
}

/// A power of a named move, as a search uses it: `U`, `U2`, `U'`, `U2'`.
#[derive(Clone, Debug)]
pub struct MovePower {
    /// Name in twsearch's style.
    pub name: String,
    /// Index of the named move in [`Puzzle::moves`].
    pub base: usize,
    /// Signed amount, `-order/2 < amount <= order/2`.
    pub amount: i32,
    /// What it does.
    pub transformation: Transformation,
}

/// Maps community notation (NxNxN SiGN, megaminx Pochmann moves, ...) onto
/// a puzzle's named moves, for moves the definition does not name itself.
pub trait MoveNotation: Send + Sync + std::fmt::Debug {
    /// The named moves (index into [`Puzzle::moves`], amount) that one turn
    /// of `family` with the given layers means, in order; `None` if the
    /// notation does not cover it.
    fn resolve(
        &self,
        puzzle: &Puzzle,
        family: &str,
        outer_layer: Option<u32>,
        inner_layer: Option<u32>,
    ) -> Option<Vec<(usize, i32)>>;

    /// The name the notation gives move `index` of `puzzle` turned once,
    /// when it has one that reads back as exactly that move: what people
    /// call a definition's own move (the megaminx's `BR` for
    /// PuzzleGeometry's `E`). `None` where it has none, or the move's own
    /// name is the notation's.
    fn name_of(&self, _puzzle: &Puzzle, _index: usize) -> Option<String> {
        None
    }
}

/// A puzzle definition.
#[derive(Clone, Debug)]
pub struct Puzzle {
    name: String,
    layout: Layout,
    start: Pattern,
    moves: Vec<MoveDef>,
    illegal: Vec<IllegalPlacement>,
    notation: Option<Arc<dyn MoveNotation>>,
}

impl Puzzle {
    /// A puzzle with no moves yet.
    pub fn new(name: impl Into<String>, layout: Layout, start: Pattern) -> Puzzle {
        Puzzle {
            name: name.into(),
            layout,
            start,
            moves: Vec::new(),
            illegal: Vec::new(),
            notation: None,
        }
    }

    /// Attaches a notation mapping for moves the definition does not name.
    pub fn set_notation(&mut self, notation: Arc<dyn MoveNotation>) {
        self.notation = Some(notation);
    }

    /// The notation mapping, if any.
    pub fn notation(&self) -> Option<&dyn MoveNotation> {
        self.notation.as_deref()
    }

    /// Adds a named move; names must be unique.
    pub fn add_move(&mut self, mv: MoveDef) -> Result<(), CoreError> {
        if self.find_move(&mv.name).is_some() {
            return Err(CoreError::DuplicateMove { name: mv.name });
        }
        self.moves.push(mv);
        Ok(())
    }

    /// The same puzzle (orbits, start, constraints, notation) with other
    /// moves; names must be unique.
    pub fn with_moves(&self, moves: Vec<MoveDef>) -> Result<Puzzle, CoreError> {
        let mut out = Puzzle {
            moves: Vec::with_capacity(moves.len()),
            ..self.clone()
        };
        for m in moves {
            out.add_move(m)?;
        }
        Ok(out)
    }

    /// Adds an `Illegal` constraint.
    pub fn add_illegal(&mut self, illegal: IllegalPlacement) {
        if let Some(existing) = self
            .illegal
            .iter_mut()
            .find(|i| i.orbit == illegal.orbit && i.slot == illegal.slot)
        {
            for p in illegal.pieces {
                if !existing.pieces.contains(&p) {
                    existing.pieces.push(p);
                }
            }
        } else {
            self.illegal.push(illegal);
        }
    }

    /// The puzzle's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the puzzle.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// Its orbits and state layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The start (solved) pattern.
    pub fn start(&self) -> &Pattern {
        &self.start
    }

    /// Replaces the start pattern.
    pub fn set_start(&mut self, start: Pattern) {
        self.start = start;
    }

    /// All named moves, in definition order.
    pub fn moves(&self) -> &[MoveDef] {
        &self.moves
    }

    /// The `Illegal` constraints.
    pub fn illegal(&self) -> &[IllegalPlacement] {
        &self.illegal
    }

    /// The index of the move called `name`.
    pub fn find_move(&self, name: &str) -> Option<usize> {
        self.moves.iter().position(|m| m.name == name)
    }

    /// Indices of the moves a search uses by default: base moves and move
    /// sequences that are not rotations.
    pub fn search_moves(&self) -> Vec<usize> {
        (0..self.moves.len())
            .filter(|&i| self.moves[i].is_search_move())
            .collect()
    }

    /// Indices of the whole-puzzle rotations the definition carries.
    pub fn rotations(&self) -> Vec<usize> {
        (0..self.moves.len())
            .filter(|&i| self.moves[i].is_rotation())
            .collect()
    }

    /// The powers of move `index` other than the identity, named as twsearch
    /// names them: for an order-4 grip `U U2 U'`, order 5 `U U2 U2' U'`.
    pub fn move_powers(&self, index: usize) -> Vec<MovePower> {
        let base = &self.moves[index];
        let l = &self.layout;
        let mut powers = Vec::new();
        let mut current = base.transformation.clone();
        let mut j = 1i64;
        // Orders of single moves are small; bound the walk for safety.
        while !l.is_identity(&current) && j < 10_000 {
            powers.push(current.clone());
            current = l.compose(&current, &base.transformation);
            j += 1;
        }
        if !l.is_identity(&current) {
            return Vec::new();
        }
        let order = powers.len() as i32 + 1;
        powers
            .into_iter()
            .enumerate()
            .map(|(i, t)| {
                let mut amount = i as i32 + 1;
                if order - amount < amount {
                    amount -= order;
                }
                MovePower {
                    name: power_name(&base.name, amount),
                    base: index,
                    amount,
                    transformation: t,
                }
            })
            .collect()
    }

    /// What a word in the named moves does: each `(index into
    /// [`Puzzle::moves`], signed amount)` in turn, as notation resolves to.
    pub fn word_transformation(&self, word: &[(usize, i32)]) -> Transformation {
        let l = &self.layout;
        word.iter().fold(l.identity(), |t, &(i, amount)| {
            l.compose(
                &t,
                &l.power(&self.moves[i].transformation, i64::from(amount)),
            )
        })
    }

    /// Transformations of the given moves.
    pub fn transformations(&self, indices: &[usize]) -> Vec<&Transformation> {
        indices
            .iter()
            .map(|&i| &self.moves[i].transformation)
            .collect()
    }

    /// The stabilizer chain of the group the given moves generate, every
    /// piece taken as distinguishable.
    ///
    /// Small puzzles get the deterministic closure. Larger ones first try a
    /// randomized chain, accepted only when its order (a proven lower bound)
    /// meets the [`projection_bound`] (a proven upper bound); otherwise the
    /// deterministic closure decides. Either way the result is exact.
    pub fn group(&self, generators: &[usize]) -> StabilizerChain {
        let gens: Vec<&[u8]> = generators
            .iter()
            .map(|&i| self.moves[i].transformation.as_bytes())
            .collect();
        self.group_of(&gens)
    }

    /// [`Puzzle::group`] of any transformations of the puzzle (a move's
    /// power, such as `R2` alone, included).
    pub fn group_of(&self, generators: &[&[u8]]) -> StabilizerChain {
        /// Up to this many points the deterministic closure is fast.
        const DETERMINISTIC_DEGREE: usize = 150;
        let gens: Vec<Vec<u16>> = generators
            .iter()
            .map(|t| self.layout.to_points(t))
            .collect();
        let degree = self.layout.num_points();
        if degree <= DETERMINISTIC_DEGREE || gens.is_empty() {
            return StabilizerChain::new(degree, &gens);
        }
        let blocks = self.layout.point_blocks();
        let bound = projection_bound(&gens, &blocks);
        for seed in 1..=3 {
            let chain = StabilizerChain::randomized(degree, &gens, &blocks, &bound, 30, seed);
            if chain.order() == bound {
                return chain;
            }
        }
        StabilizerChain::new(degree, &gens)
    }

    /// An upper bound on the bytes [`Puzzle::group`] takes for any of the
    /// puzzle's moves, known before building it (see
    /// [`StabilizerChain::bytes_bound`]): a caller with a memory limit
    /// refuses a group that might not fit instead of finding out.
    pub fn group_bytes_bound(&self) -> u64 {
        self.layout.group_bytes_bound()
    }

    /// The group `generators` generate (as [`Puzzle::group_of`]),
    /// projected onto the orbits `kept` marks: their layout
    /// ([`Layout::sub_layout`]) and the chain over its points. Its
    /// elements are what the group's do to those orbits, so a
    /// transformation outside it is outside the group whatever it does
    /// elsewhere. `None` where `kept` marks no orbit.
    pub fn projected_group(
        &self,
        kept: &[bool],
        generators: &[&[u8]],
    ) -> Option<(Layout, StabilizerChain)> {
        let sub = self.layout.sub_layout(kept)?;
        let chain = projected_chain(&self.layout, &sub, kept, &self.start, generators)?;
        Some((sub, chain))
    }

    /// The exact order of the group the given moves generate.
    pub fn group_order(&self, generators: &[usize]) -> BigUint {
        self.group(generators).order()
    }
}

/// The group some transformations generate, projected onto the orbits
/// where a goal's pieces are distinct and fully oriented, with that goal:
/// on those orbits the one transformation from the goal to a position is
/// known, so whether the group holds it is exact there. A position it
/// rules out is unreachable whatever it does elsewhere, which is the test
/// for puzzles whose other orbits have pieces alike.
pub struct ProjectedGroup {
    /// Per orbit, whether the projection acts on it.
    kept: Vec<bool>,
    /// The kept orbits' layout, the goal there, and the group.
    layout: Layout,
    goal: Transformation,
    chain: StabilizerChain,
}

impl ProjectedGroup {
    /// The projection of the group `generators` (transformations of
    /// `layout`) generate onto the orbits `wanted` marks where `goal` is
    /// labelled ([`Layout::labelled_orbits`]); `None` where that leaves
    /// none, more than `max_points` (slot, orientation) points, or a chain
    /// that might take more than `max_bytes`
    /// ([`ProjectedGroup::bytes_bound`]).
    pub fn new(
        layout: &Layout,
        goal: &Pattern,
        wanted: &[bool],
        generators: &[&[u8]],
        max_points: usize,
        max_bytes: u64,
    ) -> Option<ProjectedGroup> {
        let kept = ProjectedGroup::kept(layout, goal, wanted);
        let sub = layout.sub_layout(&kept)?;
        if sub.num_points() > max_points || sub.group_bytes_bound() > max_bytes {
            return None;
        }
        let chain = projected_chain(layout, &sub, &kept, goal, generators)?;
        let goal =
            Transformation::from_bytes(&sub, layout.restrict(&kept, goal.as_bytes())).ok()?;
        Some(ProjectedGroup {
            kept,
            layout: sub,
            goal,
            chain,
        })
    }

    /// An upper bound on the bytes the projection of a group onto the
    /// orbits `wanted` marks where `goal` is labelled would take
    /// ([`StabilizerChain::bytes_bound`]); 0 where it leaves no orbit.
    pub fn bytes_bound(layout: &Layout, goal: &Pattern, wanted: &[bool]) -> u64 {
        layout
            .sub_layout(&ProjectedGroup::kept(layout, goal, wanted))
            .map_or(0, |sub| sub.group_bytes_bound())
    }

    /// The orbits a projection acts on: those `wanted` marks where `goal`
    /// is labelled.
    fn kept(layout: &Layout, goal: &Pattern, wanted: &[bool]) -> Vec<bool> {
        (layout.labelled_orbits(goal).iter().zip(wanted))
            .map(|(&l, &w)| l && w)
            .collect()
    }

    /// Whether the group takes the goal to `position` (of the full
    /// layout) on the kept orbits; `None` where `position` is not a
    /// transformation there (pieces alike, orientations known partly).
    pub fn contains(&self, layout: &Layout, position: &Pattern) -> Option<bool> {
        let bytes = layout.restrict(&self.kept, position.as_bytes());
        let p = Transformation::from_bytes(&self.layout, bytes).ok()?;
        // goal · t = position, so t = goal⁻¹ · position.
        let t = self.layout.compose(&self.layout.invert(&self.goal), &p);
        Some(self.chain.contains(&self.layout.to_points(t.as_bytes())))
    }
}

/// The chain of the group `generators` (transformations of `layout`)
/// generate, restricted to the orbits `kept` marks, whose layout is `sub`,
/// with `start` (of `layout`) restricted as its start ([`Puzzle::group_of`]
/// decides how it is built).
fn projected_chain(
    layout: &Layout,
    sub: &Layout,
    kept: &[bool],
    start: &Pattern,
    generators: &[&[u8]],
) -> Option<StabilizerChain> {
    let start = sub
        .pattern_from_bytes(layout.restrict(kept, start.as_bytes()))
        .ok()?;
    let restricted: Vec<Vec<u8>> = (generators.iter())
        .map(|t| layout.restrict(kept, t))
        .collect();
    let gens: Vec<&[u8]> = restricted.iter().map(Vec::as_slice).collect();
    Some(Puzzle::new("projection", sub.clone(), start).group_of(&gens))
}

/// twsearch's name for `amount` turns of `base`: `U`, `U2`, `U'`, `U2'`.
pub fn power_name(base: &str, amount: i32) -> String {
    let mut s = base.to_string();
    if amount.unsigned_abs() != 1 {
        s.push_str(&amount.unsigned_abs().to_string());
    }
    if amount < 0 {
        s.push('\'');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_names_follow_twsearch() {
        for r in ["x", "y2", "z'", "Uv", "DFRv", "B_Lv"] {
            assert!(is_rotation_name(r), "{r}");
        }
        for m in ["x3", "U", "Rw", "uv", "v", "xy", "2Uv", "Uvv"] {
            assert!(!is_rotation_name(m), "{m}");
        }
    }

    #[test]
    fn power_names() {
        assert_eq!(power_name("U", 1), "U");
        assert_eq!(power_name("U", 2), "U2");
        assert_eq!(power_name("U", -1), "U'");
        assert_eq!(power_name("U", -2), "U2'");
    }
}
