//! The whole-puzzle rotations a definition carries, as a group with names.
//!
//! A person holding a puzzle differently still holds the same puzzle:
//! `solve --up-to-rotation` looks for the shortest way to a solved state
//! in any orientation. A position `p` is solved in orientation `r` by `s`
//! when `p · r · s` is the start state, so each rotation gives the search
//! a different start (`p · r`) and the same goal; the answer is written
//! `r s`, with `r` as the community writes rotations (`x y2`).
//!
//! ```
//! use twistor_geometry::{build, PuzzleOptions};
//! use twistor_tools::rotations::WholeRotations;
//!
//! let cube = build("3x3x3", &PuzzleOptions::for_notation()).unwrap().into_puzzle();
//! let rotations = WholeRotations::of(&cube).unwrap();
//! assert_eq!(rotations.len(), 24);
//! assert!(rotations.iter().any(|r| r.name == "x"));
//! ```

use std::collections::HashSet;

use twistor_core::{Puzzle, Transformation};

use crate::ToolError;

/// Rotation groups larger than this are not enumerated (the largest
/// solid's has 60 elements).
pub const MAX_ROTATIONS: usize = 120;

/// One element of the rotation group.
#[derive(Clone, Debug)]
pub struct Rotation {
    /// A shortest word for it in the rotation moves (`x y2`; empty for
    /// the identity), in the community's names where it has them.
    pub name: String,
    /// What it does.
    pub transformation: Transformation,
}

/// The group the puzzle's rotation moves generate, identity first.
#[derive(Clone, Debug)]
pub struct WholeRotations {
    elements: Vec<Rotation>,
}

impl WholeRotations {
    /// The rotation group of `puzzle`'s rotation moves (just the identity
    /// when it has none), by breadth-first closure, so names are shortest.
    pub fn of(puzzle: &Puzzle) -> Result<WholeRotations, ToolError> {
        let layout = puzzle.layout();
        // `x y z` first, where the notation reads them (on the 2x2x2 they
        // are words in face turns), so names come out as people write them.
        let mut gens: Vec<(String, Transformation)> = Vec::new();
        if let Some(n) = puzzle.notation() {
            for cand in ["x", "y", "z"] {
                if let Some(word) = n.resolve(puzzle, cand, None, None) {
                    let t = puzzle.word_transformation(&word);
                    if !layout.is_identity(&t) {
                        gens.push((cand.to_string(), t));
                    }
                }
            }
        }
        for i in puzzle.rotations() {
            gens.push((
                community_name(puzzle, i),
                puzzle.moves()[i].transformation.clone(),
            ));
        }
        let gens: Vec<(String, Transformation)> = gens
            .into_iter()
            .flat_map(|(name, t)| {
                let inverse = layout.invert(&t);
                [(inverse_name(&name), inverse), (name, t)]
                    .into_iter()
                    .rev()
            })
            .collect();
        let mut elements = vec![Rotation {
            name: String::new(),
            transformation: layout.identity(),
        }];
        let mut seen: HashSet<Vec<u8>> = HashSet::new();
        seen.insert(layout.identity().as_bytes().to_vec());
        let mut next = 0;
        while next < elements.len() {
            let here = elements[next].clone();
            next += 1;
            for (g, t) in &gens {
                let product = layout.compose(&here.transformation, t);
                if !seen.insert(product.as_bytes().to_vec()) {
                    continue;
                }
                if elements.len() == MAX_ROTATIONS {
                    return Err(ToolError::TooManySymmetries(MAX_ROTATIONS));
                }
                let name = merge(&here.name, g);
                elements.push(Rotation {
                    name,
                    transformation: product,
                });
            }
        }
        Ok(WholeRotations { elements })
    }

    /// The elements, identity first, then by word length.
    pub fn iter(&self) -> impl Iterator<Item = &Rotation> {
        self.elements.iter()
    }

    /// How many rotations there are (the identity counts).
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether there is only the identity.
    pub fn is_empty(&self) -> bool {
        self.elements.len() <= 1
    }
}

/// The name people write for rotation move `index`, where the notation
/// reads one of theirs as exactly it (the FTO's `T` is a rotation move
/// with an internal name): `x`, `y`, `z`, `T`, or that with `'`.
fn community_name(puzzle: &Puzzle, index: usize) -> String {
    if let Some(n) = puzzle.notation() {
        for cand in ["x", "y", "z", "T"] {
            match n.resolve(puzzle, cand, None, None).as_deref() {
                Some(&[(i, 1)]) if i == index => return cand.to_string(),
                Some(&[(i, -1)]) if i == index => return format!("{cand}'"),
                _ => {}
            }
        }
    }
    puzzle.moves()[index].name.clone()
}

/// `R` → `R'`, `R'` → `R`.
fn inverse_name(name: &str) -> String {
    match name.strip_suffix('\'') {
        Some(base) => base.to_string(),
        None => format!("{name}'"),
    }
}

/// `word` followed by `g`, written as `y2` rather than `y y` when the
/// last move repeats.
fn merge(word: &str, g: &str) -> String {
    let (head, last) = word.rsplit_once(' ').unwrap_or(("", word));
    if last == g {
        let (base, prime) = g.strip_suffix('\'').map_or((g, ""), |b| (b, "'"));
        let sep = if head.is_empty() { "" } else { " " };
        return format!("{head}{sep}{base}2{prime}");
    }
    if word.is_empty() {
        g.to_string()
    } else {
        format!("{word} {g}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_geometry::{build, PuzzleOptions};

    fn named(name: &str) -> Puzzle {
        build(name, &PuzzleOptions::for_notation())
            .unwrap()
            .into_puzzle()
    }

    #[test]
    fn rotation_groups_have_the_solids_orders() {
        assert_eq!(WholeRotations::of(&named("3x3x3")).unwrap().len(), 24);
        assert_eq!(WholeRotations::of(&named("megaminx")).unwrap().len(), 60);
        assert_eq!(WholeRotations::of(&named("pyraminx")).unwrap().len(), 12);
    }

    #[test]
    fn names_are_notation_that_means_the_rotation() {
        let cube = named("3x3x3");
        let layout = cube.layout();
        for r in WholeRotations::of(&cube).unwrap().iter() {
            let alg: twistor_formats::alg::Alg = r.name.parse().unwrap();
            let t = twistor_formats::resolve::alg_transformation(&cube, &alg).unwrap();
            assert_eq!(t.as_bytes(), r.transformation.as_bytes(), "{}", r.name);
        }
        let _ = layout;
    }
}
