//! Pictures of the hand-written puzzles, for scramble sheets: the shapes
//! a person compares their puzzle with, in the same form as the nets of
//! puzzles built from geometry ([`DrawnSticker`] polygons in the default
//! [`twistor_geometry::svg::SvgOptions`] frame, 800 × 500, y down), so one
//! renderer draws both.
//!
//! The clock is drawn as it is held after the scramble: the side facing
//! you on the left, the other side (as seen from behind) on the right.
//! Each dial's hand points at its hour; dials of the side that started at
//! the front are white on dark blue, the others dark on light blue; the
//! four pins sit between the dials. Loopover is its grid of tiles.
//!
//! A puzzle nothing draws (a definition file) gets [`orbits_svg`]: each
//! orbit's slots with the piece in each, so that a position can be read
//! at a glance rather than from a list of numbers.

use twistor_core::{Pattern, Puzzle};
use twistor_formats::alg::{Alg, AlgError};
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::svg::{draw, escape, net_svg, shapes_svg, DrawnSticker, SvgOptions};
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
/// drawn (the clock, the Square-1 and loopover, so far).
pub fn picture(id: &str, puzzle: &Puzzle, pattern: &Pattern) -> Option<Vec<DrawnSticker>> {
    match id {
        "clock" => clock(puzzle, pattern),
        "square1" => square1(puzzle, pattern),
        "loopover" => loopover(puzzle, pattern),
        _ => None,
    }
}

/// Loopover as its players see it: the grid, each tile coloured by where
/// it belongs (red grows to the right, blue downwards, as the game's own
/// gradient does), so a tile out of place shows as a colour out of order.
fn loopover(puzzle: &Puzzle, pattern: &Pattern) -> Option<Vec<DrawnSticker>> {
    let layout = puzzle.layout();
    let orbits = layout.pattern_orbits(pattern);
    let tiles = &orbits[layout.orbit_index("SQUARES")?];
    let n = (tiles.pieces.len() as f64).sqrt().round() as usize;
    if n < 2 || n * n != tiles.pieces.len() {
        return None;
    }
    let cell = 460.0 / n as f64;
    let (x0, y0) = (400.0 - 230.0, 20.0);
    let step = |k: usize| (255.0 * k as f64 / (n - 1) as f64).round() as u8;
    Some(
        (0..n * n)
            .map(|slot| {
                let piece = tiles.pieces[slot] as usize;
                let (row, col) = (piece / n, piece % n);
                let color = format!("#{:02x}{:02x}{:02x}", step(col), 90, step(row));
                let (x, y) = (x0 + cell * (slot % n) as f64, y0 + cell * (slot / n) as f64);
                let pad = cell * 0.04;
                shape(
                    format!("tile-{slot}"),
                    "grid",
                    &color,
                    vec![
                        (x + pad, y + pad),
                        (x + cell - pad, y + pad),
                        (x + cell - pad, y + cell - pad),
                        (x + pad, y + cell - pad),
                    ],
                )
            })
            .collect(),
    )
}

/// A definition's position as a diagram of its orbits, for a puzzle
/// nothing draws otherwise (an uploaded `.tws` or KPuzzle): one row of
/// slots an orbit, each slot showing the piece in it (numbered from 1 as
/// `.tws` files number them, coloured by that number) and, where the orbit
/// has orientations, its orientation after a `+`. A slot whose piece is
/// not the one it holds when solved is outlined in red.
pub fn orbits_svg(puzzle: &Puzzle, pattern: &Pattern) -> String {
    use std::fmt::Write;
    const PER_ROW: usize = 12;
    const CELL: f64 = 58.0;
    const LABEL: f64 = 130.0;
    let layout = puzzle.layout();
    let now = layout.pattern_orbits(pattern);
    let solved = layout.pattern_orbits(puzzle.start());
    let rows: Vec<usize> = (now.iter())
        .map(|o| o.pieces.len().div_ceil(PER_ROW).max(1))
        .collect();
    let height = 20.0 + CELL * rows.iter().sum::<usize>() as f64 + 12.0 * rows.len() as f64;
    let width = LABEL + CELL * PER_ROW as f64 + 10.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(s, "<title>{}</title>", escape(puzzle.name()));
    let mut y = 10.0;
    for (k, (orbit, home)) in now.iter().zip(&solved).enumerate() {
        let def = &layout.orbits()[k];
        let _ = writeln!(
            s,
            "<g id=\"orbit-{0}\"><text x=\"4\" y=\"{1:.1}\" font-size=\"14\">{0}</text>",
            escape(def.name()),
            y + CELL / 2.0 + 5.0
        );
        let n = orbit.pieces.len().max(1);
        for slot in 0..orbit.pieces.len() {
            let (x, yy) = (
                LABEL + CELL * (slot % PER_ROW) as f64,
                y + CELL * (slot / PER_ROW) as f64,
            );
            let piece = orbit.pieces[slot] as usize;
            let hue = 360.0 * piece as f64 / n as f64;
            let out_of_place = home.pieces.get(slot) != Some(&orbit.pieces[slot]);
            let stroke = if out_of_place {
                "#d00000\" stroke-width=\"3"
            } else {
                "#333333"
            };
            let _ = writeln!(
                s,
                "<rect x=\"{:.1}\" y=\"{yy:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"hsl({hue:.0},70%,80%)\" stroke=\"{stroke}\"/>",
                x + 2.0,
                CELL - 4.0,
                CELL - 4.0
            );
            let ori = if def.num_orientations() > 1 {
                format!("+{}", orbit.orientation[slot])
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"15\" text-anchor=\"middle\">{}{ori}</text>",
                x + CELL / 2.0,
                yy + CELL / 2.0 + 5.0,
                piece + 1
            );
        }
        s.push_str("</g>\n");
        y += CELL * rows[k] as f64 + 12.0;
    }
    s.push_str("</svg>\n");
    s
}

/// The Square-1's colours (TNoodle's, the WCA scheme: yellow up, red front).
const SQ1_TOP: &str = "#ffff00";
const SQ1_BOTTOM: &str = "#ffffff";
const SQ1_RED: &str = "#ff0000";
const SQ1_GREEN: &str = "#00ff00";
const SQ1_ORANGE: &str = "#ff8000";
const SQ1_BLUE: &str = "#0000ff";

/// Each wedge's side colour, by the slot it fills when solved (cubing.js's
/// and TNoodle's numbering: top slots 0-11, bottom 12-23; corners are the
/// wedge pairs 0-1, 3-4, 6-7, 9-10 on top and 13-14, 16-17, 19-20, 22-23
/// below, the first of each pair on the lower angle).
const SQ1_SIDES: [&str; 24] = [
    SQ1_RED, SQ1_BLUE, SQ1_BLUE, SQ1_BLUE, SQ1_ORANGE, SQ1_ORANGE, SQ1_ORANGE, SQ1_GREEN,
    SQ1_GREEN, SQ1_GREEN, SQ1_RED, SQ1_RED, // top
    SQ1_RED, SQ1_RED, SQ1_GREEN, SQ1_GREEN, SQ1_GREEN, SQ1_ORANGE, SQ1_ORANGE, SQ1_ORANGE,
    SQ1_BLUE, SQ1_BLUE, SQ1_BLUE, SQ1_RED, // bottom
];

/// What a wedge is: an edge, or the first or second half of a corner.
#[derive(Clone, Copy, PartialEq)]
enum Wedge {
    Edge,
    CornerFirst,
    CornerSecond,
}

fn sq1_wedge(piece: usize) -> Wedge {
    match piece {
        2 | 5 | 8 | 11 | 12 | 15 | 18 | 21 => Wedge::Edge,
        0 | 3 | 6 | 9 | 13 | 16 | 19 | 22 => Wedge::CornerFirst,
        _ => Wedge::CornerSecond,
    }
}

/// The Square-1 as TNoodle draws it, side by side: the top seen from
/// above (front at the bottom of its picture), the bottom as after an x2
/// (front at the top), each wedge's top colour and the side sticker
/// beyond its outer edge; below them the middle layer's front, whose
/// right half shows orange when `/` has turned it over.
fn square1(puzzle: &Puzzle, pattern: &Pattern) -> Option<Vec<DrawnSticker>> {
    let layout = puzzle.layout();
    let orbits = layout.pattern_orbits(pattern);
    let wedges = &orbits[layout.orbit_index("WEDGES")?];
    let equator = &orbits[layout.orbit_index("EQUATOR")?];
    if wedges.pieces.len() != 24 || equator.pieces.len() != 2 {
        return None;
    }
    // Radius of a layer's square inscribed circle, the side band's scale,
    // and a corner tip's distance (√2·cos 15° of the radius).
    let (r, band, tip) = (100.0, 1.4, 2f64.sqrt() * 15f64.to_radians().cos());
    let mut out = Vec::new();
    for (layer, (cx, first_angle)) in [(200.0, 105.0), (600.0, 255.0)].into_iter().enumerate() {
        let face = if layer == 0 { "top" } else { "bottom" };
        let at = |deg: f64, d: f64| {
            let a = f64::to_radians(deg);
            (cx + d * r * a.cos(), 250.0 + d * r * a.sin())
        };
        for k in 0..12 {
            let slot = 12 * layer + k;
            let piece = wedges.pieces[slot] as usize;
            let (a0, a1) = (
                first_angle + 30.0 * k as f64,
                first_angle + 30.0 * (k + 1) as f64,
            );
            let (d0, d1) = match sq1_wedge(piece) {
                Wedge::Edge => (1.0, 1.0),
                Wedge::CornerFirst => (1.0, tip),
                Wedge::CornerSecond => (tip, 1.0),
            };
            let colour = if piece < 12 { SQ1_TOP } else { SQ1_BOTTOM };
            out.push(shape(
                format!("{face}-{k}"),
                face,
                colour,
                vec![(cx, 250.0), at(a0, d0), at(a1, d1)],
            ));
            out.push(shape(
                format!("{face}-{k}-side"),
                face,
                SQ1_SIDES[piece],
                vec![at(a0, d0), at(a1, d1), at(a1, d1 * band), at(a0, d0 * band)],
            ));
        }
    }
    // The middle layer's front: its left half never moves; the right half
    // shows its back (orange) once turned over.
    let flipped = equator.orientation[1] % 6 != 0;
    out.push(shape(
        "middle-left".into(),
        "middle",
        SQ1_RED,
        vec![
            (330.0, 455.0),
            (398.0, 455.0),
            (398.0, 480.0),
            (330.0, 480.0),
        ],
    ));
    out.push(shape(
        "middle-right".into(),
        "middle",
        if flipped { SQ1_ORANGE } else { SQ1_RED },
        vec![
            (402.0, 455.0),
            (470.0, 455.0),
            (470.0, 480.0),
            (402.0, 480.0),
        ],
    ));
    Some(out)
}

const DARK: &str = "#1f4e8c";
const LIGHT: &str = "#9cc6f0";
const WHITE: &str = "#ffffff";
const PIN: &str = "#e8c21a";

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
        // The four pins between the dials. Scrambles leave them as the
        // solver likes (the model does not track them): drawn down.
        for (k, (dx, dy)) in [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
            .into_iter()
            .enumerate()
        {
            out.push(shape(
                format!("{name}-pin-{k}"),
                name,
                PIN,
                circle(cx + dx * 57.5, cy + dy * 57.5, 9.0, 16),
            ));
        }
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
        curves: Vec::new(),
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

    fn square1(alg: &str) -> Vec<DrawnSticker> {
        let sq1 = crate::handmade::definition("square1").unwrap();
        let t = alg_transformation(&sq1, &alg.parse().unwrap()).unwrap();
        let p = sq1.layout().apply(sq1.start(), &t);
        picture("square1", &sq1, &p).unwrap()
    }

    fn colour<'a>(shapes: &'a [DrawnSticker], id: &str) -> &'a str {
        &shapes.iter().find(|s| s.id == id).unwrap().color
    }

    #[test]
    fn square1_is_drawn_as_tnoodle_draws_it() {
        let solved = square1("");
        // Yellow on top, white below, every side sticker its face's colour.
        assert!((0..12).all(|k| colour(&solved, &format!("top-{k}")) == SQ1_TOP));
        assert!((0..12).all(|k| colour(&solved, &format!("bottom-{k}")) == SQ1_BOTTOM));
        // The front of the top (the UF edge and the halves beside it) is red.
        for k in [10, 11, 0] {
            assert_eq!(colour(&solved, &format!("top-{k}-side")), SQ1_RED, "{k}");
        }
        assert_eq!(colour(&solved, "middle-right"), SQ1_RED);
        // `/` turns the right half over: bottom wedges come up into top
        // slots 6-11, and the middle layer's right half shows orange.
        let slashed = square1("/");
        for k in 0..12 {
            let want = if (6..12).contains(&k) {
                SQ1_BOTTOM
            } else {
                SQ1_TOP
            };
            assert_eq!(colour(&slashed, &format!("top-{k}")), want, "{k}");
        }
        assert_eq!(colour(&slashed, "middle-right"), SQ1_ORANGE);
        // `(1,0)` turns the top a wedge along: the front-left corner's red
        // half moves from slot 0 to slot 1, and the UF edge's red to slot 0.
        let turned = square1("(1,0)");
        assert_eq!(colour(&turned, "top-1-side"), SQ1_RED);
        assert_eq!(colour(&turned, "top-0-side"), SQ1_RED);
        assert_eq!(colour(&turned, "top-2-side"), SQ1_BLUE);
        // A corner is a kite: its tip stands farther out than an edge's rim.
        let dist = |s: &DrawnSticker, i: usize| {
            let (x, y) = s.points[i];
            ((x - 200.0).powi(2) + (y - 250.0).powi(2)).sqrt()
        };
        let first_half = solved.iter().find(|s| s.id == "top-0").unwrap();
        assert!((dist(first_half, 2) / dist(first_half, 1) - 1.366).abs() < 1e-3);
    }

    #[test]
    fn loopover_tiles_are_coloured_by_home_and_move_with_the_rows() {
        let lo = crate::handmade::definition("loopover").unwrap();
        let draw = |alg: &str| {
            let t = alg_transformation(&lo, &alg.parse().unwrap()).unwrap();
            picture("loopover", &lo, &lo.layout().apply(lo.start(), &t)).unwrap()
        };
        let solved = draw("");
        assert_eq!(solved.len(), 25);
        let colours: std::collections::HashSet<&str> =
            solved.iter().map(|s| s.color.as_str()).collect();
        assert_eq!(colours.len(), 25, "every tile its own colour");
        // U slides the top row left: the tile from slot 1 is now in slot 0,
        // the one from slot 0 in slot 4; the second row stays.
        let u = draw("U");
        assert_eq!(colour(&u, "tile-0"), colour(&solved, "tile-1"));
        assert_eq!(colour(&u, "tile-4"), colour(&solved, "tile-0"));
        assert_eq!(colour(&u, "tile-5"), colour(&solved, "tile-5"));
        // R slides the right column up.
        let r = draw("R");
        assert_eq!(colour(&r, "tile-4"), colour(&solved, "tile-9"));
        assert_eq!(colour(&r, "tile-24"), colour(&solved, "tile-4"));
    }

    #[test]
    fn the_orbit_diagram_shows_what_the_scramble_file_says() {
        // Two writers of one position: the diagram's slot labels and the
        // `.tws` scramble file's piece and orientation lines.
        let text =
            "Name t\nSet CORNERS 4 3\nSet EDGES 3 2\nSolved\nCORNERS\n1 2 3 4\nEDGES\n1 2 3\nEnd\n\
                    Move A\nCORNERS\n2 3 1 4\n1 2 0 0\nEDGES\n2 1 3\n1 1 0\nEnd\n";
        let p = twistor_formats::read_puzzle(text, "t.tws").unwrap();
        let t = alg_transformation(&p, &"A".parse().unwrap()).unwrap();
        let pattern = p.layout().apply(p.start(), &t);
        let svg = orbits_svg(&p, &pattern);
        let labels: Vec<&str> = (svg.split("text-anchor=\"middle\">").skip(1))
            .map(|x| x.split('<').next().unwrap())
            .collect();
        let file =
            twistor_formats::tws::write_scrambles(&p, &[("x".to_string(), pattern)]).unwrap();
        let lines: Vec<Vec<&str>> = (file.lines())
            .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
            .map(|l| l.split(' ').collect())
            .collect();
        let want: Vec<String> = [(0, 1), (2, 3)]
            .iter()
            .flat_map(|&(perm, ori)| {
                let lines = &lines;
                (0..lines[perm].len()).map(move |k| format!("{}+{}", lines[perm][k], lines[ori][k]))
            })
            .collect();
        assert_eq!(labels, want);
        // Outlined: the slots whose piece moved (three corners, two edges).
        assert_eq!(svg.matches("#d00000").count(), 5);
        assert_eq!(orbits_svg(&p, p.start()).matches("#d00000").count(), 0);
    }

    #[test]
    fn the_clock_has_four_pins_a_side() {
        let clock = crate::handmade::definition("clock").unwrap();
        let shapes = picture("clock", &clock, clock.start()).unwrap();
        for side in ["facing", "behind"] {
            let pins = (shapes.iter())
                .filter(|s| s.face == side && s.id.contains("-pin-"))
                .count();
            assert_eq!(pins, 4, "{side}");
        }
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
