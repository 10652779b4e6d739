//! What a 3D view needs to draw a puzzle and animate its moves: each
//! sticker's polygon in space, the face whose colour it shows, and each
//! move as turns of sets of slices about an axis.
//!
//! The picture of a position is the same as the net's
//! ([`sticker_faces`](crate::svg::sticker_faces) colours every sticker); a move is animated by turning the stickers of
//! its slices about the axis by its angle, then showing the next
//! position's colours. That a turn by the angle [`TurnPart::angle`] about
//! [`Axis::normal`](crate::Axis::normal) carries each sticker onto the
//! one whose colour it takes is checked against the permutation model in
//! this module's tests, for every move of several puzzles.
//!
//! ```
//! use twistor_geometry::{build, view, PuzzleOptions};
//!
//! let cube = build("3x3x3", &PuzzleOptions::default())?;
//! let r = cube.puzzle().find_move("R").unwrap();
//! let parts = view::turn_parts(&cube, &[(r, 1)], 2).unwrap();
//! // R2: a half turn of one slice (the last of the L–R axis, whose own end
//! // is L's).
//! assert_eq!(parts.len(), 1);
//! assert_eq!(parts[0].slices, vec![2]);
//! assert!((parts[0].angle(&cube).abs() - std::f64::consts::PI).abs() < 1e-9);
//! # Ok::<(), twistor_geometry::GeometryError>(())
//! ```

use std::collections::BTreeMap;

use crate::puzzle::GeneratedPuzzle;

/// Slices of one axis turned together by the same amount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnPart {
    /// Index into [`Geometry::axes`](crate::Geometry::axes).
    pub axis: usize,
    /// The slices turned (0 at the axis's own end), ascending.
    pub slices: Vec<usize>,
    /// Steps of the axis's turn, counterclockwise about its normal; at
    /// most half a circle either way.
    pub turns: i64,
}

impl TurnPart {
    /// The angle turned, in radians, counterclockwise about the axis's
    /// normal (right-hand rule).
    pub fn angle(&self, gp: &GeneratedPuzzle) -> f64 {
        let order = gp.geometry().axes()[self.axis].order() as f64;
        self.turns as f64 * std::f64::consts::TAU / order
    }
}

/// What the word `word` (moves of `gp`'s puzzle by index, with amounts)
/// repeated `times` times turns, as parts on one axis that turn at once;
/// `None` when the word turns about more than one axis (some rotations of
/// the megaminx and FTO are products of two axis turns), or a move is not
/// one of the slice moves the puzzle was built from. Empty when nothing
/// turns.
pub fn turn_parts(
    gp: &GeneratedPuzzle,
    word: &[(usize, i32)],
    times: i64,
) -> Option<Vec<TurnPart>> {
    let mut axis = None;
    // Slice → steps turned.
    let mut steps: BTreeMap<usize, i64> = BTreeMap::new();
    for &(i, amount) in word {
        let m = gp.slice_moves().get(i)?;
        if *axis.get_or_insert(m.axis) != m.axis {
            return None;
        }
        let sign = if m.inverted { -1 } else { 1 };
        let planes = gp.geometry().axes()[m.axis].planes();
        for s in m.lo..=m.hi.min(planes) {
            *steps.entry(s).or_default() += sign * amount as i64;
        }
    }
    let Some(axis) = axis else {
        return Some(Vec::new());
    };
    let order = gp.geometry().axes()[axis].order() as i64;
    let mut parts: Vec<TurnPart> = Vec::new();
    for (slice, k) in steps {
        let total = k * times;
        let mut t = total.rem_euclid(order);
        if 2 * t > order || (2 * t == order && total < 0) {
            t -= order;
        }
        if t == 0 {
            continue;
        }
        match parts.iter_mut().find(|p| p.turns == t) {
            Some(p) => p.slices.push(slice),
            None => parts.push(TurnPart {
                axis,
                slices: vec![slice],
                turns: t,
            }),
        }
    }
    Some(parts)
}

/// The stickers a part turns, by index into
/// [`Geometry::stickers`](crate::Geometry::stickers).
pub fn turned_stickers(gp: &GeneratedPuzzle, part: &TurnPart) -> Vec<usize> {
    let g = gp.geometry();
    g.stickers()
        .iter()
        .enumerate()
        .filter(|(_, st)| {
            let slice = g.cubies()[st.cubie].slices[part.axis] as usize;
            part.slices.contains(&slice)
        })
        .map(|(i, _)| i)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Quat;
    use crate::svg::sticker_faces;
    use crate::{build, PuzzleOptions};
    use twistor_formats::alg::Alg;
    use twistor_formats::resolve::{alg_transformation, move_word};

    /// For every move given, turning its stickers about the axis by the
    /// part's angle lands each on a sticker, and that sticker shows, after
    /// the move, the colour the turned one showed before: the geometry's
    /// turn and the permutation model agree.
    fn turns_agree(name: &str, algs: &[&str]) {
        let options = PuzzleOptions {
            notation_rotations: true,
            keep_still_orbits: true,
            ..PuzzleOptions::default()
        };
        let gp = build(name, &options).unwrap();
        let p = gp.puzzle();
        let g = gp.geometry();
        let moves: Vec<String> = if algs.is_empty() {
            p.moves().iter().map(|m| m.name.clone()).collect()
        } else {
            algs.iter().map(|s| s.to_string()).collect()
        };
        // A scrambled start, so that colours are not symmetric.
        let scramble: Alg = p
            .moves()
            .iter()
            .take(5)
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
            .parse()
            .unwrap();
        let t0 = alg_transformation(p, &scramble).unwrap();
        let before = p.layout().apply(p.start(), &t0);
        let shown_before = sticker_faces(&gp, &before);
        for text in moves {
            let alg: Alg = text.parse().unwrap();
            let [twistor_formats::alg::AlgNode::Move(m)] = alg.nodes() else {
                panic!("{text} is one move");
            };
            let (word, times) = move_word(p, m).unwrap();
            let parts =
                turn_parts(&gp, &word, times).unwrap_or_else(|| panic!("{name} {text}: one axis"));
            assert!(!parts.is_empty(), "{name} {text} turns something");
            let t = alg_transformation(p, &alg).unwrap();
            let after = p.layout().apply(&before, &t);
            let shown_after = sticker_faces(&gp, &after);
            let mut moved = 0;
            for part in &parts {
                let axis = &g.axes()[part.axis];
                let q = Quat::about(axis.normal(), part.angle(&gp));
                for s in turned_stickers(&gp, part) {
                    let c = q.rotate(g.stickers()[s].center);
                    let dest = (g.stickers().iter())
                        .position(|o| o.center.near(c, 1e-6))
                        .unwrap_or_else(|| panic!("{name} {text}: sticker {s} lands nowhere"));
                    assert_eq!(
                        shown_after[dest], shown_before[s],
                        "{name} {text}: sticker {s} turned onto {dest}"
                    );
                    moved += 1;
                }
            }
            // Stickers no part turns keep their colours.
            let turned: Vec<usize> = parts.iter().flat_map(|p| turned_stickers(&gp, p)).collect();
            for s in 0..g.stickers().len() {
                if !turned.contains(&s) {
                    assert_eq!(shown_after[s], shown_before[s], "{name} {text}: {s} stays");
                }
            }
            assert!(moved > 0);
        }
    }

    #[test]
    fn every_base_move_turns_as_it_permutes() {
        for name in [
            "3x3x3", "4x4x4", "megaminx", "pyraminx", "skewb", "FTO", "dino",
        ] {
            turns_agree(name, &[]);
        }
    }

    #[test]
    fn community_moves_turn_as_they_permute() {
        turns_agree(
            "3x3x3",
            &["R", "U'", "F2", "Rw", "M", "E'", "S2", "x", "y'", "z2"],
        );
        turns_agree("5x5x5", &["3Rw", "2-3Lw'", "3U", "m", "r2"]);
        turns_agree("megaminx", &["R++", "D--", "BR", "DL2'", "y"]);
        turns_agree("pyraminx", &["U", "l'", "b", "R"]);
        turns_agree("skewb", &["R", "U'", "L", "B", "x"]);
        turns_agree("FTO", &["T", "BL'", "R"]);
    }

    #[test]
    fn amounts_turn_the_shorter_way() {
        let gp = build("3x3x3", &PuzzleOptions::default()).unwrap();
        let r = gp.puzzle().find_move("R").unwrap();
        let turns = |times| turn_parts(&gp, &[(r, 1)], times).unwrap()[0].turns;
        assert_eq!(turns(3), -turns(1));
        assert_eq!(turns(2), -turns(-2));
        assert_eq!(turns(5), turns(1));
        assert!(turn_parts(&gp, &[(r, 1)], 4).unwrap().is_empty());
    }
}
