//! Pictures of the hand-written puzzles, for scramble sheets: the shapes
//! a person compares their puzzle with, in the same form as the nets of
//! puzzles built from geometry ([`DrawnSticker`] polygons in the default
//! [`twistor_geometry::svg::SvgOptions`] frame, 800 × 500, y down), so one
//! renderer draws both.
//!
//! The clock is drawn as it is held after the scramble: the side facing
//! you on the left, the other side (as seen from behind) on the right.
//! Each dial's hand points at its hour; dials of the side that started at
//! the front are white on dark blue, the others dark on light blue.

use twistor_core::{Pattern, Puzzle};
use twistor_formats::alg::{Alg, AlgError};
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::svg::{draw, net_svg, shapes_svg, DrawnSticker, SvgOptions};
use twistor_geometry::{GeneratedPuzzle, PuzzleOptions};

use crate::catalog::{self, Built, NameError, Resolved};

/// The options a picture is drawn with: every piece tracked (centres
/// too), so the net shows every sticker, and the rotations notation reads.
pub fn for_drawing(options: &mut PuzzleOptions) {
    options.notation_rotations = true;
    options.keep_still_orbits = true;
}

/// A named puzzle as it is drawn: the net of a puzzle built from
/// geometry, or one of the hand-written models [`picture`] draws.
pub enum Drawing {
    /// A puzzle built from geometry: its net.
    Net(Box<GeneratedPuzzle>),
    /// One of twistor's own models (the clock), by its id.
    Model(&'static str, Puzzle),
}

impl Drawing {
    /// The drawing of the puzzle `name` (any name [`catalog::resolve`]
    /// knows, or a descriptor), built [`for_drawing`]; `None` for a
    /// hand-written puzzle nothing draws yet.
    pub fn of(name: &str) -> Result<Option<Drawing>, NameError> {
        let mut options = PuzzleOptions::default();
        for_drawing(&mut options);
        Ok(match catalog::build_named(name, &options, false)? {
            Built::Generated(g) => Some(Drawing::Net(g)),
            Built::Handmade(p) => match catalog::resolve(name) {
                Resolved::Handmade(id) if picture(id, &p, p.start()).is_some() => {
                    Some(Drawing::Model(id, p))
                }
                _ => None,
            },
        })
    }

    /// The puzzle drawn (algs are applied to it).
    pub fn puzzle(&self) -> &Puzzle {
        match self {
            Drawing::Net(g) => g.puzzle(),
            Drawing::Model(_, p) => p,
        }
    }

    /// The picture of `pattern`, a pattern of [`Drawing::puzzle`].
    pub fn shapes(&self, pattern: &Pattern) -> Vec<DrawnSticker> {
        match self {
            Drawing::Net(g) => draw(g, pattern, &SvgOptions::default()),
            Drawing::Model(id, p) => picture(id, p, pattern).unwrap_or_default(),
        }
    }

    /// The picture of the position `alg` reaches from the start.
    pub fn shapes_of_alg(&self, alg: &Alg) -> Result<Vec<DrawnSticker>, AlgError> {
        let p = self.puzzle();
        let t = alg_transformation(p, alg)?;
        Ok(self.shapes(&p.layout().apply(p.start(), &t)))
    }

    /// A picture as an SVG document.
    pub fn svg(&self, shapes: &[DrawnSticker], options: &SvgOptions) -> String {
        match self {
            Drawing::Net(g) => net_svg(g, shapes, options),
            Drawing::Model(id, _) => shapes_svg(id, options, shapes),
        }
    }
}

/// The picture of `pattern` on the hand-written puzzle `id`, where one is
/// drawn (the clock, so far).
pub fn picture(id: &str, puzzle: &Puzzle, pattern: &Pattern) -> Option<Vec<DrawnSticker>> {
    match id {
        "clock" => clock(puzzle, pattern),
        _ => None,
    }
}

const DARK: &str = "#1f4e8c";
const LIGHT: &str = "#9cc6f0";
const WHITE: &str = "#ffffff";

fn clock(puzzle: &Puzzle, pattern: &Pattern) -> Option<Vec<DrawnSticker>> {
    let layout = puzzle.layout();
    let orbits = layout.pattern_orbits(pattern);
    let dials = &orbits[layout.orbit_index("DIALS")?];
    if dials.pieces.len() != 18 {
        return None;
    }
    let mut out = Vec::new();
    for side in 0..2 {
        let (cx, cy) = (200.0 + 400.0 * side as f64, 250.0);
        // The side's body takes the colour of the side its dials came from.
        let from_front = dials.pieces[9 * side + 4] < 9;
        let (body, face) = if from_front {
            (DARK, WHITE)
        } else {
            (LIGHT, DARK)
        };
        let name = if side == 0 { "facing" } else { "behind" };
        out.push(shape(
            format!("{name}-body"),
            name,
            body,
            circle(cx, cy, 185.0, 48),
        ));
        for slot in 0..9 {
            let (r, c) = (slot / 3, slot % 3);
            let (x, y) = (cx + (c as f64 - 1.0) * 115.0, cy + (r as f64 - 1.0) * 115.0);
            let s = 9 * side + slot;
            let hour = f64::from(dials.orientation[s] % 12);
            out.push(shape(
                format!("{name}-{slot}"),
                name,
                face,
                circle(x, y, 44.0, 32),
            ));
            let hand = if from_front { DARK } else { WHITE };
            let angle = hour / 12.0 * std::f64::consts::TAU;
            let (sin, cos) = angle.sin_cos();
            let tip = (x + 38.0 * sin, y - 38.0 * cos);
            let (bx, by) = (6.0 * cos, 6.0 * sin);
            out.push(shape(
                format!("{name}-{slot}-hand"),
                name,
                hand,
                vec![(x - bx, y - by), tip, (x + bx, y + by)],
            ));
        }
    }
    Some(out)
}

fn shape(id: String, face: &str, color: &str, points: Vec<(f64, f64)>) -> DrawnSticker {
    DrawnSticker {
        id,
        face: face.to_string(),
        color: color.to_string(),
        points,
    }
}

fn circle(x: f64, y: f64, r: f64, n: usize) -> Vec<(f64, f64)> {
    (0..n)
        .map(|k| {
            let a = k as f64 / n as f64 * std::f64::consts::TAU;
            (x + r * a.cos(), y + r * a.sin())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use twistor_formats::resolve::alg_transformation;

    fn hands(alg: &str) -> Vec<(f64, f64)> {
        let clock = crate::handmade::definition("clock").unwrap();
        let t = alg_transformation(&clock, &alg.parse().unwrap()).unwrap();
        let p = clock.layout().apply(clock.start(), &t);
        picture("clock", &clock, &p)
            .unwrap()
            .iter()
            .filter(|s| s.id.ends_with("-hand"))
            .map(|s| s.points[1])
            .collect()
    }

    #[test]
    fn hands_point_at_the_hours() {
        let solved = hands("");
        assert_eq!(solved.len(), 18);
        // At 12 o'clock every tip is straight above its dial's centre.
        let centre_of_0 = (200.0 - 115.0, 250.0 - 115.0);
        assert!((solved[0].0 - centre_of_0.0).abs() < 1e-9);
        assert!((solved[0].1 - (centre_of_0.1 - 38.0)).abs() < 1e-9);
        // UL3+ turns the upper-left front dial to 3 o'clock: its tip moves right.
        let turned = hands("UL3+");
        assert!(
            (turned[0].0 - (centre_of_0.0 + 38.0)).abs() < 1e-9,
            "{:?}",
            turned[0]
        );
        // A full turn is no turn.
        assert_eq!(hands("ALL6+ ALL6+"), solved);
    }
}
