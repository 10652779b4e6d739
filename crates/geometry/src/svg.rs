//! Drawing a position as a flat net: every face unfolded into the plane,
//! every sticker coloured by the face its piece comes from.
//!
//! The net is a spanning tree of faces (the standard cross for the cube,
//! the two flowers for the megaminx): the root face is placed with the
//! edge it shares with a chosen neighbour at the bottom, and every other
//! face is hinged onto its parent along their shared edge. Faces are drawn
//! as seen from outside the puzzle, so `R` is to the right of `F`.

use std::fmt::Write;

use twistor_core::Pattern;

use crate::math::circumcircle;
use crate::math::Vec3;
use crate::puzzle::GeneratedPuzzle;
use crate::solid::shape_data;

/// Colour of stickers whose pieces the definition does not track.
pub const UNTRACKED: &str = "#808080";

/// Size of the drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SvgOptions {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
}

impl Default for SvgOptions {
    fn default() -> SvgOptions {
        SvgOptions {
            width: 800.0,
            height: 500.0,
        }
    }
}

/// One sticker as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnSticker {
    /// `FACE-N`, N counting the face's stickers row by row as drawn.
    pub id: String,
    /// The face it is on.
    pub face: String,
    /// Its colour (`#rrggbb`).
    pub color: String,
    /// Corners in drawing coordinates (y down).
    pub points: Vec<(f64, f64)>,
    /// Per edge (from each corner to the next), the circle it runs along,
    /// if any: such runs are drawn as arcs. Empty for straight edges only.
    pub curves: Vec<Option<u32>>,
}

/// A 2D rigid placement of a face: rotation (cos, sin) and translation.
#[derive(Clone, Copy, Debug)]
struct Placement {
    cos: f64,
    sin: f64,
    dx: f64,
    dy: f64,
}

impl Placement {
    fn apply(&self, (x, y): (f64, f64)) -> (f64, f64) {
        (
            self.cos * x - self.sin * y + self.dx,
            self.sin * x + self.cos * y + self.dy,
        )
    }

    /// The placement sending `a` to `a2` and the direction of `b - a` to
    /// that of `b2 - a2`.
    fn matching(a: (f64, f64), b: (f64, f64), a2: (f64, f64), b2: (f64, f64)) -> Placement {
        let t1 = (b.1 - a.1).atan2(b.0 - a.0);
        let t2 = (b2.1 - a2.1).atan2(b2.0 - a2.0);
        let (sin, cos) = (t2 - t1).sin_cos();
        let p = Placement {
            cos,
            sin,
            dx: 0.0,
            dy: 0.0,
        };
        let r = p.apply(a);
        Placement {
            dx: a2.0 - r.0,
            dy: a2.1 - r.1,
            ..p
        }
    }
}

/// The face's own 2D coordinates of a point on it, mirrored so that the
/// face reads as seen from outside the puzzle.
fn local(normal: Vec3, p: Vec3) -> (f64, f64) {
    let e1 = normal.perpendicular();
    let e2 = normal.cross(e1);
    (p.dot(e1), -p.dot(e2))
}

/// Where each face goes in the net.
fn placements(gp: &GeneratedPuzzle) -> Vec<Option<Placement>> {
    let solid = gp.geometry().solid();
    let faces = solid.faces();
    let (root, below, tree) = shape_data(solid.shape).net;
    let mut placed: Vec<Option<Placement>> = vec![None; faces.len()];
    let shared = |a: usize, b: usize| -> Option<(Vec3, Vec3)> {
        let common: Vec<Vec3> = faces[a]
            .polygon
            .iter()
            .copied()
            .filter(|p| faces[b].polygon.iter().any(|q| q.near(*p, 1e-6)))
            .collect();
        (common.len() == 2).then(|| (common[0], common[1]))
    };
    let (Some(r), Some(b)) = (solid.face_index(root), solid.face_index(below)) else {
        return placed;
    };
    if let Some((p, q)) = shared(r, b) {
        let n = faces[r].normal;
        let (a2, b2) = (local(n, p), local(n, q));
        let c = {
            let pts: Vec<(f64, f64)> = faces[r].polygon.iter().map(|&v| local(n, v)).collect();
            let k = pts.len() as f64;
            (
                pts.iter().map(|p| p.0).sum::<f64>() / k,
                pts.iter().map(|p| p.1).sum::<f64>() / k,
            )
        };
        // The shared edge horizontal, the face above it.
        let mut pl = Placement::matching(a2, b2, (0.0, 0.0), (1.0, 0.0));
        if pl.apply(c).1 < 0.0 {
            pl = Placement::matching(a2, b2, (1.0, 0.0), (0.0, 0.0));
        }
        placed[r] = Some(pl);
    }
    for (child, parent) in tree {
        let (Some(c), Some(p)) = (solid.face_index(child), solid.face_index(parent)) else {
            continue;
        };
        let (Some(pp), Some((a, b))) = (placed[p], shared(c, p)) else {
            continue;
        };
        let (np, nc) = (faces[p].normal, faces[c].normal);
        placed[c] = Some(Placement::matching(
            local(nc, a),
            local(nc, b),
            pp.apply(local(np, a)),
            pp.apply(local(np, b)),
        ));
    }
    placed
}

/// For each sticker of the puzzle's geometry (in
/// [`Geometry::stickers`](crate::Geometry::stickers) order), the face whose
/// colour it shows in `pattern`: the face of the sticker its piece had
/// there when solved; `None` where the definition leaves the piece out.
pub fn sticker_faces(gp: &GeneratedPuzzle, pattern: &Pattern) -> Vec<Option<usize>> {
    let g = gp.geometry();
    let layout = gp.puzzle().layout();
    let start = gp.puzzle().start();
    let mut slot_of: Vec<Option<usize>> = vec![None; g.orbits().len()];
    for (j, &o) in gp.kept_orbits().iter().enumerate() {
        slot_of[o] = Some(j);
    }
    g.stickers()
        .iter()
        .map(|st| {
            let cubie = &g.cubies()[st.cubie];
            let j = slot_of[cubie.orbit]?;
            let perm = layout.perm(pattern.as_bytes(), j);
            let ori = layout.ori(pattern.as_bytes(), j);
            let piece = perm[cubie.index];
            let (o, _) = layout.decode_orientation(j, ori[cubie.index]);
            // The piece's home: the first slot holding that piece at the start.
            let home = layout
                .perm(start.as_bytes(), j)
                .iter()
                .position(|&x| x == piece)
                .unwrap_or(cubie.index);
            let home_cubie = &g.cubies()[g.orbits()[cubie.orbit].cubies[home]];
            let k = cubie.stickers.len();
            let own = if k == 1 {
                0
            } else {
                (st.ord + k - (o as usize % k)) % k
            };
            Some(g.stickers()[home_cubie.stickers[own]].face)
        })
        .collect()
}

/// Each face's colour (`#rrggbb`), by face index: the colour of the
/// stickers that start on it.
pub fn face_colors(gp: &GeneratedPuzzle) -> Vec<String> {
    let solid = gp.geometry().solid();
    let colors = shape_data(solid.shape).colors;
    (solid.faces().iter())
        .map(|f| {
            (colors.iter())
                .find(|(n, _)| *n == f.name)
                .map_or(UNTRACKED, |(_, c)| c)
                .to_string()
        })
        .collect()
}

/// The stickers of `pattern` as drawn in a net of the given size.
pub fn draw(gp: &GeneratedPuzzle, pattern: &Pattern, options: &SvgOptions) -> Vec<DrawnSticker> {
    let g = gp.geometry();
    let solid = g.solid();
    let faces = solid.faces();
    let colors = face_colors(gp);
    let color_of = |face: usize| colors[face].clone();
    let shown = sticker_faces(gp, pattern);
    let place = placements(gp);
    // (face, colour, corners) of each sticker before scaling.
    type Raw = (usize, String, Vec<(f64, f64)>, Vec<Option<u32>>);
    let mut raw: Vec<Raw> = Vec::new();
    for (st, face_shown) in g.stickers().iter().zip(&shown) {
        let Some(pl) = place[st.face] else {
            continue;
        };
        let n = faces[st.face].normal;
        let pts: Vec<(f64, f64)> = st.polygon.iter().map(|&p| pl.apply(local(n, p))).collect();
        let color = face_shown.map_or(UNTRACKED.to_string(), color_of);
        raw.push((st.face, color, pts, st.curves.clone()));
    }
    // The pyraminx's faces are drawn apart, as TNoodle draws them: each
    // face shrunk a little about its centre leaves a gap along every hinge.
    if solid.shape == crate::descriptor::Shape::Tetrahedron {
        const FACE_SCALE: f64 = 0.94;
        for f in 0..faces.len() {
            let pts: Vec<(f64, f64)> = (raw.iter().filter(|r| r.0 == f))
                .flat_map(|r| r.2.iter().copied())
                .collect();
            if pts.is_empty() {
                continue;
            }
            let k = pts.len() as f64;
            let c = (
                pts.iter().map(|p| p.0).sum::<f64>() / k,
                pts.iter().map(|p| p.1).sum::<f64>() / k,
            );
            for (_, _, corners, _) in raw.iter_mut().filter(|r| r.0 == f) {
                for p in corners.iter_mut() {
                    *p = (
                        c.0 + FACE_SCALE * (p.0 - c.0),
                        c.1 + FACE_SCALE * (p.1 - c.1),
                    );
                }
            }
        }
    }
    // Fit into the drawing, y down.
    let margin = 10.0;
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for (_, _, pts, _) in &raw {
        for &(x, y) in pts {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    let scale = ((options.width - 2.0 * margin) / (x1 - x0).max(1e-9))
        .min((options.height - 2.0 * margin) / (y1 - y0).max(1e-9));
    let ox = (options.width - scale * (x1 - x0)) / 2.0;
    let oy = (options.height - scale * (y1 - y0)) / 2.0;
    let mut out: Vec<DrawnSticker> = raw
        .into_iter()
        .map(|(face, color, pts, curves)| DrawnSticker {
            id: String::new(),
            face: faces[face].name.clone(),
            color,
            points: pts
                .into_iter()
                .map(|(x, y)| (ox + scale * (x - x0), oy + scale * (y1 - y)))
                .collect(),
            curves,
        })
        .collect();
    // Number each face's stickers row by row, as a person reads the net.
    let centre = |s: &DrawnSticker| {
        let k = s.points.len() as f64;
        (
            s.points.iter().map(|p| p.0).sum::<f64>() / k,
            s.points.iter().map(|p| p.1).sum::<f64>() / k,
        )
    };
    let row_height = (options.height / 400.0).max(0.5);
    for f in faces {
        let mut idx: Vec<usize> = (0..out.len()).filter(|&i| out[i].face == f.name).collect();
        idx.sort_by(|&a, &b| {
            let (ca, cb) = (centre(&out[a]), centre(&out[b]));
            let (ra, rb) = ((ca.1 / row_height).round(), (cb.1 / row_height).round());
            ra.total_cmp(&rb).then(ca.0.total_cmp(&cb.0))
        });
        for (n, i) in idx.into_iter().enumerate() {
            out[i].id = format!("{}-{}", f.name, n);
        }
    }
    out
}

/// The position as an SVG net: [`draw`] then [`net_svg`].
pub fn position_svg(gp: &GeneratedPuzzle, pattern: &Pattern, options: &SvgOptions) -> String {
    net_svg(gp, &draw(gp, pattern, options), options)
}

/// The stickers [`draw`] laid out for `gp`, as an SVG net (one group a
/// face of the solid).
pub fn net_svg(gp: &GeneratedPuzzle, stickers: &[DrawnSticker], options: &SvgOptions) -> String {
    let groups = gp.geometry().solid().faces().iter().map(|f| {
        let on_face: Vec<&DrawnSticker> = stickers.iter().filter(|x| x.face == f.name).collect();
        (f.name.as_str(), on_face)
    });
    document(gp.puzzle().name(), options, groups)
}

/// Any drawn shapes as an SVG document, grouped by their `face` in order
/// of first appearance (pictures of puzzles not built from geometry, such
/// as the clock, drawn in the same form as the nets).
pub fn shapes_svg(title: &str, options: &SvgOptions, shapes: &[DrawnSticker]) -> String {
    let mut faces: Vec<&str> = Vec::new();
    for s in shapes {
        if !faces.contains(&s.face.as_str()) {
            faces.push(&s.face);
        }
    }
    let groups = faces.into_iter().map(|face| {
        let on_face: Vec<&DrawnSticker> = shapes.iter().filter(|x| x.face == face).collect();
        (face, on_face)
    });
    document(title, options, groups)
}

/// An SVG document of polygons, one `<g>` a group.
fn document<'a>(
    title: &str,
    options: &SvgOptions,
    groups: impl Iterator<Item = (&'a str, Vec<&'a DrawnSticker>)>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        w = options.width,
        h = options.height
    );
    let _ = writeln!(
        s,
        "<title>{}</title>\n<style>.sticker {{ stroke: #000000; stroke-width: 1px; }}</style>",
        escape(title)
    );
    for (name, stickers) in groups {
        let _ = writeln!(s, "<g id=\"face-{0}\"><title>{0}</title>", escape(name));
        for st in stickers {
            if st.curves.iter().any(Option::is_some) {
                let _ = writeln!(
                    s,
                    "<path id=\"{}\" class=\"sticker\" fill=\"{}\" d=\"{}\"/>",
                    escape(&st.id),
                    st.color,
                    path(&st.points, &st.curves)
                );
                continue;
            }
            let pts: Vec<String> = st
                .points
                .iter()
                .map(|(x, y)| format!("{x:.2},{y:.2}"))
                .collect();
            let _ = writeln!(
                s,
                "<polygon id=\"{}\" class=\"sticker\" fill=\"{}\" points=\"{}\"/>",
                escape(&st.id),
                st.color,
                pts.join(" ")
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}

/// An SVG path outline: straight edges as lines, each run of edges along
/// one circle as an arc of it (its centre and radius from three of the
/// run's points, its sweep from the angle the run turns through).
fn path(points: &[(f64, f64)], curves: &[Option<u32>]) -> String {
    let n = points.len();
    // Start where a run begins, so that no run wraps round the start.
    let start = (0..n)
        .find(|&i| curves[i] != curves[(i + n - 1) % n])
        .unwrap_or(0);
    let at = |k: usize| points[(start + k) % n];
    let mut d = format!("M{:.2},{:.2}", at(0).0, at(0).1);
    let mut k = 0;
    while k < n {
        let curve = curves[(start + k) % n];
        let mut end = k + 1;
        while end < n && curve.is_some() && curves[(start + end) % n] == curve {
            end += 1;
        }
        let (a, b) = (at(k), at(end));
        match curve {
            Some(_) if end - k >= 2 => {
                // The angle turned about the centre, run by run.
                let m = at((k + end) / 2);
                let circle = circumcircle([a.0, a.1], [m.0, m.1], [b.0, b.1]);
                let Some(([cx, cy], r)) = circle else {
                    for j in k + 1..=end {
                        let p = at(j);
                        d += &format!(" L{:.2},{:.2}", p.0, p.1);
                    }
                    k = end;
                    continue;
                };
                let mut swept = 0.0;
                for j in k..end {
                    let (p, q) = (at(j), at(j + 1));
                    let (ap, aq) = ((p.1 - cy).atan2(p.0 - cx), (q.1 - cy).atan2(q.0 - cx));
                    let mut delta = aq - ap;
                    while delta > std::f64::consts::PI {
                        delta -= std::f64::consts::TAU;
                    }
                    while delta < -std::f64::consts::PI {
                        delta += std::f64::consts::TAU;
                    }
                    swept += delta;
                }
                let sweep = u8::from(swept > 0.0);
                if swept.abs() > std::f64::consts::PI * 1.999 {
                    // A whole circle: two halves.
                    let (hx, hy) = (2.0 * cx - a.0, 2.0 * cy - a.1);
                    d += &format!(" A{r:.2},{r:.2} 0 0 {sweep} {hx:.2},{hy:.2}");
                    d += &format!(" A{r:.2},{r:.2} 0 0 {sweep} {:.2},{:.2}", b.0, b.1);
                } else {
                    let large = u8::from(swept.abs() > std::f64::consts::PI);
                    d += &format!(" A{r:.2},{r:.2} 0 {large} {sweep} {:.2},{:.2}", b.0, b.1);
                }
            }
            _ => d += &format!(" L{:.2},{:.2}", b.0, b.1),
        }
        k = end;
    }
    d + " Z"
}

/// `s` as XML text or an attribute value.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}
