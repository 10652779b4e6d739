//! A face cut by curved traces: the regions of the planar arrangement of
//! the face's edges and the cut surfaces' traces on it.
//!
//! Planes cut a convex face into convex parts, which `build` finds by
//! clipping polygons. A sphere's trace on a face is a circle and a cone's
//! a conic, and the parts they leave are neither convex nor, in general,
//! reachable by clipping. Here every trace is flattened to a polyline
//! (fine enough that the parts' shapes are drawn smoothly), clipped to the
//! face, and the segments are joined into a planar graph: its bounded
//! faces are the stickers. Each comes with its outline and a point well
//! inside it, where the caller reads which side of every surface it is on
//! (from the exact surfaces, not the polylines).
//!
//! ```text
//!   +-----------+      face edges and traces become segments, split
//!   |  \     /  |      where they meet; walking each vertex's edges in
//!   |   (   )   |      angle order traces every region once, counter-
//!   |  /     \  |      clockwise; a loop that touches nothing else is a
//!   +-----------+      hole in the region around it.
//! ```

use std::collections::{HashMap, HashSet};

/// A point of the face's plane.
pub(crate) type P2 = [f64; 2];

/// Points closer than this are one vertex.
const SNAP: f64 = 1e-9;
/// Most segments a face's traces may make (about 350 full circles).
const MAX_SEGMENTS: usize = 250_000;
/// Cells a side of the grid that finds which segments may meet.
const GRID: usize = 96;
/// Regions smaller than this (in face units squared) are slivers left by
/// flattening where two traces touch, not stickers.
pub(crate) const SLIVER: f64 = 1e-7;

/// One region of the face.
#[derive(Clone, Debug)]
pub(crate) struct Region {
    /// Its outline, counterclockwise.
    pub outline: Vec<P2>,
    /// Per edge of the outline (from each point to the next): the trace it
    /// runs along, `None` on the face's own edges.
    pub sources: Vec<Option<usize>>,
    /// A point well inside it (away from its outline and holes).
    pub inside: P2,
    /// Its area, holes taken out.
    pub area: f64,
}

fn sub(a: P2, b: P2) -> P2 {
    [a[0] - b[0], a[1] - b[1]]
}

fn cross(a: P2, b: P2) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

fn area(cycle: &[P2]) -> f64 {
    let n = cycle.len();
    (0..n)
        .map(|i| cross(cycle[i], cycle[(i + 1) % n]))
        .sum::<f64>()
        / 2.0
}

/// Clips segment `a b` to the convex counterclockwise polygon `face`.
fn clip(face: &[P2], a: P2, b: P2) -> Option<(P2, P2)> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    let d = sub(b, a);
    for i in 0..face.len() {
        let (p, q) = (face[i], face[(i + 1) % face.len()]);
        let e = sub(q, p);
        // Inside: cross(e, x - p) >= 0.
        let num = cross(e, sub(a, p));
        let den = cross(e, d);
        if den.abs() < 1e-15 {
            if num < 0.0 {
                return None;
            }
            continue;
        }
        let t = -num / den;
        if den > 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return None;
        }
    }
    let at = |t: f64| [a[0] + d[0] * t, a[1] + d[1] * t];
    (t1 - t0 > 1e-12).then(|| (at(t0), at(t1)))
}

/// The parameters along `a b` where segment `c d` meets it (crossing,
/// touching, or overlapping it).
fn meets(a: P2, b: P2, c: P2, d: P2, out: &mut Vec<f64>) {
    let r = sub(b, a);
    let s = sub(d, c);
    let len2 = r[0] * r[0] + r[1] * r[1];
    let den = cross(r, s);
    let on = |p: P2| -> Option<f64> {
        let t = ((p[0] - a[0]) * r[0] + (p[1] - a[1]) * r[1]) / len2;
        let foot = [a[0] + r[0] * t, a[1] + r[1] * t];
        let off = sub(p, foot);
        ((off[0] * off[0] + off[1] * off[1]).sqrt() < SNAP && (-1e-12..=1.0 + 1e-12).contains(&t))
            .then_some(t.clamp(0.0, 1.0))
    };
    // Endpoints of one on the other (touching, overlapping).
    out.extend(on(c));
    out.extend(on(d));
    if den.abs() > 1e-15 {
        let ca = sub(c, a);
        let t = cross(ca, s) / den;
        let u = cross(ca, r) / den;
        if (-1e-12..=1.0 + 1e-12).contains(&t) && (-1e-12..=1.0 + 1e-12).contains(&u) {
            out.push(t.clamp(0.0, 1.0));
        }
    }
}

/// The regions `traces` (polylines, in the face's plane, running anywhere)
/// cut the convex counterclockwise polygon `face` into; `None` when they
/// make more than [`MAX_SEGMENTS`] segments on it.
pub(crate) fn regions(face: &[P2], traces: &[Vec<P2>]) -> Option<Vec<Region>> {
    // Segments: the face's edges, then the traces clipped to the face.
    let mut segments: Vec<(P2, P2)> = (0..face.len())
        .map(|i| (face[i], face[(i + 1) % face.len()]))
        .collect();
    let mut source: Vec<Option<usize>> = vec![None; segments.len()];
    for (t, trace) in traces.iter().enumerate() {
        for w in trace.windows(2) {
            if let Some(s) = clip(face, w[0], w[1]) {
                segments.push(s);
                source.push(Some(t));
            }
        }
    }
    if segments.len() > MAX_SEGMENTS {
        return None;
    }
    // Split every segment where others meet it. Candidates come from a
    // grid over the face: only segments sharing a cell can meet.
    let boxes: Vec<[f64; 4]> = segments
        .iter()
        .map(|(a, b)| {
            [
                a[0].min(b[0]) - SNAP,
                a[0].max(b[0]) + SNAP,
                a[1].min(b[1]) - SNAP,
                a[1].max(b[1]) + SNAP,
            ]
        })
        .collect();
    let (lo, hi) = face.iter().fold(
        ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]),
        |(lo, hi), p| {
            (
                [lo[0].min(p[0]), lo[1].min(p[1])],
                [hi[0].max(p[0]), hi[1].max(p[1])],
            )
        },
    );
    let cell = |x: f64, k: usize| -> usize {
        let f = (x - lo[k]) / (hi[k] - lo[k]).max(1e-12);
        ((f * GRID as f64).floor().max(0.0) as usize).min(GRID - 1)
    };
    let cells_of = |b: &[f64; 4]| (cell(b[0], 0)..=cell(b[1], 0), cell(b[2], 1)..=cell(b[3], 1));
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); GRID * GRID];
    for (i, b) in boxes.iter().enumerate() {
        let (xs, ys) = cells_of(b);
        for x in xs {
            for y in ys.clone() {
                buckets[x * GRID + y].push(i as u32);
            }
        }
    }
    let mut vertices = Vertices::default();
    let mut edges: Vec<(usize, usize)> = Vec::new();
    let mut edge_source: HashMap<(usize, usize), Option<usize>> = HashMap::new();
    let mut ts = Vec::new();
    let mut seen_by = vec![usize::MAX; segments.len()];
    for (i, &(a, b)) in segments.iter().enumerate() {
        ts.clear();
        ts.extend([0.0, 1.0]);
        let bi = boxes[i];
        let (xs, ys) = cells_of(&bi);
        for x in xs {
            for y in ys.clone() {
                for &j in &buckets[x * GRID + y] {
                    let j = j as usize;
                    if j == i || seen_by[j] == i {
                        continue;
                    }
                    seen_by[j] = i;
                    let bj = boxes[j];
                    if bj[0] > bi[1] || bj[1] < bi[0] || bj[2] > bi[3] || bj[3] < bi[2] {
                        continue;
                    }
                    let (c, d) = segments[j];
                    meets(a, b, c, d, &mut ts);
                }
            }
        }
        ts.sort_by(f64::total_cmp);
        let mut last: Option<usize> = None;
        for &t in &ts {
            let v = vertices.at([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
            if let Some(u) = last {
                if u != v {
                    let e = (u.min(v), u.max(v));
                    edges.push(e);
                    // Where a trace runs along a face edge, the face's.
                    let s = edge_source.entry(e).or_insert(source[i]);
                    if source[i].is_none() {
                        *s = None;
                    }
                }
            }
            last = Some(v);
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let points = vertices.points;
    // Drop dangling edges (a trace ending inside the face), repeatedly.
    loop {
        let mut degree = vec![0usize; points.len()];
        for &(u, v) in &edges {
            degree[u] += 1;
            degree[v] += 1;
        }
        let before = edges.len();
        edges.retain(|&(u, v)| degree[u] > 1 && degree[v] > 1);
        if edges.len() == before {
            break;
        }
    }
    // Each vertex's outgoing half-edges in counterclockwise order.
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); points.len()];
    for &(u, v) in &edges {
        out[u].push(v);
        out[v].push(u);
    }
    let angle = |u: usize, v: usize| {
        let d = sub(points[v], points[u]);
        d[1].atan2(d[0])
    };
    for (u, list) in out.iter_mut().enumerate() {
        list.sort_by(|&a, &b| angle(u, a).total_cmp(&angle(u, b)));
    }
    // Trace every cycle, the region on its left.
    let mut used: HashSet<(usize, usize)> = HashSet::new();
    let mut cycles: Vec<Vec<usize>> = Vec::new();
    for &(a, b) in &edges {
        for (u0, v0) in [(a, b), (b, a)] {
            if used.contains(&(u0, v0)) {
                continue;
            }
            let mut cycle = Vec::new();
            let (mut u, mut v) = (u0, v0);
            loop {
                used.insert((u, v));
                cycle.push(u);
                // At v, the edge back to u; the next one clockwise from it.
                let list = &out[v];
                let i = list
                    .iter()
                    .position(|&w| w == u)
                    .expect("an edge both ways");
                let w = list[(i + list.len() - 1) % list.len()];
                (u, v) = (v, w);
                if (u, v) == (u0, v0) || cycle.len() > edges.len() * 2 {
                    break;
                }
            }
            cycles.push(cycle);
        }
    }
    // Components of the graph, to tell holes from the regions they touch.
    let mut root: Vec<usize> = (0..points.len()).collect();
    fn find(root: &mut [usize], mut x: usize) -> usize {
        while root[x] != x {
            root[x] = root[root[x]];
            x = root[x];
        }
        x
    }
    for &(u, v) in &edges {
        let (a, b) = (find(&mut root, u), find(&mut root, v));
        root[a] = b;
    }
    let as_points = |c: &[usize]| -> Vec<P2> { c.iter().map(|&i| points[i]).collect() };
    let sources_of = |c: &[usize]| -> Vec<Option<usize>> {
        (0..c.len())
            .map(|k| {
                let (u, v) = (c[k], c[(k + 1) % c.len()]);
                edge_source[&(u.min(v), u.max(v))]
            })
            .collect()
    };
    // (outline, area, component, edge sources) of each region's outline.
    type Outline = (Vec<P2>, f64, usize, Vec<Option<usize>>);
    let mut outer: Vec<Outline> = Vec::new();
    let mut holes: Vec<(Vec<P2>, usize, Vec<Option<usize>>)> = Vec::new();
    let face_area = area(face);
    for c in &cycles {
        let pts = as_points(c);
        let a = area(&pts);
        let comp = find(&mut root, c[0]);
        if a > 0.0 {
            outer.push((pts, a, comp, sources_of(c)));
        } else if (a + face_area).abs() > 1e-9 * face_area.max(1.0) {
            holes.push((pts, comp, sources_of(c)));
        }
    }
    // Each hole in the smallest region of another component holding it.
    // (ring, edge sources) of each region's holes.
    type Hole = (Vec<P2>, Vec<Option<usize>>);
    let mut region_holes: Vec<Vec<Hole>> = vec![Vec::new(); outer.len()];
    for (hole, comp, sources) in holes {
        let best = outer
            .iter()
            .enumerate()
            .filter(|(_, (pts, _, c, _))| *c != comp && contains(pts, hole[0]))
            .min_by(|a, b| a.1 .1.total_cmp(&b.1 .1))
            .map(|(i, _)| i);
        if let Some(i) = best {
            region_holes[i].push((hole, sources));
        }
    }
    let regions = outer
        .into_iter()
        .zip(region_holes)
        .map(|((mut outline, a, _, mut sources), holes)| {
            let rings: Vec<Vec<P2>> = holes.iter().map(|h| h.0.clone()).collect();
            let area = a - rings.iter().map(|h| -area(h)).sum::<f64>();
            let inside = inside_point(&outline, &rings);
            for (hole, hole_sources) in holes {
                (outline, sources) = bridge(&outline, &sources, &hole, &hole_sources);
            }
            Region {
                outline,
                sources,
                inside,
                area,
            }
        })
        .collect();
    Some(regions)
}

/// One outline of a region with a hole: the hole joined to the outline by
/// a cut there and back between their nearest corners, so that the one
/// polygon fills the region and not the hole.
fn bridge(
    outline: &[P2],
    sources: &[Option<usize>],
    hole: &[P2],
    hole_sources: &[Option<usize>],
) -> (Vec<P2>, Vec<Option<usize>>) {
    let d = |p: P2, q: P2| (p[0] - q[0]).hypot(p[1] - q[1]);
    let (mut i, mut j) = (0, 0);
    for (a, &p) in outline.iter().enumerate() {
        for (b, &q) in hole.iter().enumerate() {
            if d(p, q) < d(outline[i], hole[j]) {
                (i, j) = (a, b);
            }
        }
    }
    let (n, m) = (outline.len(), hole.len());
    let mut points = Vec::with_capacity(n + m + 2);
    let mut along = Vec::with_capacity(n + m + 2);
    for k in 0..i {
        points.push(outline[k]);
        along.push(sources[k]);
    }
    points.push(outline[i]);
    along.push(None);
    for t in 0..m {
        points.push(hole[(j + t) % m]);
        along.push(hole_sources[(j + t) % m]);
    }
    points.push(hole[j]);
    along.push(None);
    for k in i..n {
        points.push(outline[k]);
        along.push(sources[k]);
    }
    (points, along)
}

/// Vertices snapped together within [`SNAP`].
#[derive(Default)]
struct Vertices {
    points: Vec<P2>,
    grid: HashMap<(i64, i64), Vec<usize>>,
}

impl Vertices {
    fn at(&mut self, p: P2) -> usize {
        let cell = |x: f64| (x / (SNAP * 4.0)).floor() as i64;
        let (cx, cy) = (cell(p[0]), cell(p[1]));
        for dx in -1..=1 {
            for dy in -1..=1 {
                if let Some(list) = self.grid.get(&(cx + dx, cy + dy)) {
                    for &i in list {
                        let q = self.points[i];
                        if (p[0] - q[0]).abs() <= SNAP && (p[1] - q[1]).abs() <= SNAP {
                            return i;
                        }
                    }
                }
            }
        }
        self.points.push(p);
        self.grid
            .entry((cx, cy))
            .or_default()
            .push(self.points.len() - 1);
        self.points.len() - 1
    }
}

/// Whether `p` is inside the polygon (even-odd rule).
fn contains(polygon: &[P2], p: P2) -> bool {
    let n = polygon.len();
    let mut inside = false;
    for i in 0..n {
        let (a, b) = (polygon[i], polygon[(i + 1) % n]);
        if (a[1] > p[1]) != (b[1] > p[1]) {
            let x = a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0]);
            if p[0] < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// A point inside the region bounded by `outline` less `holes`: the middle
/// of the widest run of a few horizontal lines across it.
fn inside_point(outline: &[P2], holes: &[Vec<P2>]) -> P2 {
    let (lo, hi) = outline
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p[1]), h.max(p[1]))
        });
    let mut best = (f64::NEG_INFINITY, outline[0]);
    // Irrational-looking fractions, so no line runs through a vertex.
    for f in [
        0.5012345, 0.3129871, 0.6871234, 0.4105627, 0.5893411, 0.2214577, 0.7790123,
    ] {
        let y = lo + (hi - lo) * f;
        let mut xs: Vec<f64> = Vec::new();
        for ring in std::iter::once(outline).chain(holes.iter().map(|h| &h[..])) {
            let n = ring.len();
            for i in 0..n {
                let (a, b) = (ring[i], ring[(i + 1) % n]);
                if (a[1] > y) != (b[1] > y) {
                    xs.push(a[0] + (y - a[1]) / (b[1] - a[1]) * (b[0] - a[0]));
                }
            }
        }
        xs.sort_by(f64::total_cmp);
        for pair in xs.chunks_exact(2) {
            let width = pair[1] - pair[0];
            if width > best.0 {
                best = (width, [(pair[0] + pair[1]) / 2.0, y]);
            }
        }
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Vec<P2> {
        vec![[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]
    }

    fn circle(c: P2, r: f64, n: usize) -> Vec<P2> {
        (0..=n)
            .map(|i| {
                let t = std::f64::consts::TAU * i as f64 / n as f64;
                [c[0] + r * t.cos(), c[1] + r * t.sin()]
            })
            .collect()
    }

    #[test]
    fn two_crossing_lines_make_four_quarters() {
        let r = regions(
            &square(),
            &[vec![[-5.0, 0.0], [5.0, 0.0]], vec![[0.0, -5.0], [0.0, 5.0]]],
        )
        .unwrap();
        assert_eq!(r.len(), 4);
        for q in &r {
            assert!((q.area - 1.0).abs() < 1e-12, "{}", q.area);
            assert!(q.inside[0].abs() > 0.1 && q.inside[1].abs() > 0.1);
        }
    }

    #[test]
    fn a_circle_inside_is_a_region_and_a_hole() {
        let r = regions(&square(), &[circle([0.0, 0.0], 0.5, 256)]).unwrap();
        assert_eq!(r.len(), 2);
        let total: f64 = r.iter().map(|x| x.area).sum();
        assert!((total - 4.0).abs() < 1e-9, "{total}");
        let disk = r.iter().find(|x| x.area < 1.0).unwrap();
        assert!((disk.area - std::f64::consts::PI * 0.25).abs() < 1e-3);
        // The ring's inside point is in the ring, not the disk.
        let ring = r.iter().find(|x| x.area > 1.0).unwrap();
        let p = ring.inside;
        assert!(p[0].hypot(p[1]) > 0.5);
        // Its one outline takes the hole in, so it fills the ring only.
        assert!(
            (area(&ring.outline) - ring.area).abs() < 1e-9,
            "{}",
            area(&ring.outline)
        );
    }

    #[test]
    fn four_corner_circles_cut_a_face_as_a_rex_cube_face() {
        // Circles of radius 1.6 about the corners: a centre inside all
        // four, four petals in three, four edge pieces in two, four
        // corner tips in one.
        let traces: Vec<Vec<P2>> = square().iter().map(|&c| circle(c, 1.6, 512)).collect();
        let r = regions(&square(), &traces).unwrap();
        assert_eq!(r.len(), 13);
        let total: f64 = r.iter().map(|x| x.area).sum();
        assert!((total - 4.0).abs() < 1e-9, "{total}");
    }
}
