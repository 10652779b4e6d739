//! The steps of the build that differ when a cut is curved: telling
//! replicated surfaces apart, whether one crosses the solid, and cutting
//! face 0 into stickers through the planar arrangement of the traces
//! ([`crate::arrange`]) instead of by clipping convex polygons.

use super::{Axis, FaceStickers, MAX_STICKERS};
use crate::arrange::{self, P2};
use crate::math::{circumcircle, Vec3, EPS, MATCH_EPS};
use crate::solid::Solid;
use crate::surface::{Cone, CutSurface, Plane, Sphere};
use crate::{DegenerateReason, GeometryError};

/// One replicated cut, before it is put on its axis.
#[derive(Clone, Copy, Debug)]
pub(super) enum Placed {
    Plane(Plane),
    Sphere(Sphere),
    Cone(Cone),
}

impl Placed {
    pub(super) fn surface(&self) -> &dyn CutSurface {
        match self {
            Placed::Plane(p) => p,
            Placed::Sphere(s) => s,
            Placed::Cone(c) => c,
        }
    }

    /// Whether two replicas are one surface.
    pub(super) fn same(&self, other: &Placed) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() < MATCH_EPS;
        match (self, other) {
            (Placed::Plane(p), Placed::Plane(q)) => {
                (q.normal.near(p.normal, MATCH_EPS) && close(q.distance, p.distance))
                    || (q.normal.near(-p.normal, MATCH_EPS) && close(q.distance, -p.distance))
            }
            (Placed::Sphere(s), Placed::Sphere(t)) => {
                s.centre.near(t.centre, MATCH_EPS) && close(s.radius, t.radius)
            }
            // A cone opening the other way with the supplementary angle
            // is the same surface (at 90° both are the plane).
            (Placed::Cone(c), Placed::Cone(d)) => {
                c.apex.near(d.apex, MATCH_EPS)
                    && ((c.opening.near(d.opening, MATCH_EPS) && close(c.half_angle, d.half_angle))
                        || (c.opening.near(-d.opening, MATCH_EPS)
                            && close(c.half_angle + d.half_angle, std::f64::consts::PI)))
            }
            _ => false,
        }
    }
}

/// How face 0 is cut: by planes alone (clipped as PuzzleGeometry does,
/// which numbers the pieces as cubing.js does) or with curved surfaces.
pub(super) enum Cutting {
    Planes(Vec<Plane>),
    Curved,
}

/// Points of the solid's surface a curved cut is tested against: the
/// vertices, edge points and a grid over every face.
pub(super) fn surface_samples(solid: &Solid) -> Vec<Vec3> {
    const GRID: usize = 24;
    let mut out = Vec::new();
    for face in &solid.faces {
        let n = face.polygon.len();
        let centre = Vec3::mean(&face.polygon);
        for i in 0..n {
            let (a, b) = (face.polygon[i], face.polygon[(i + 1) % n]);
            // A fan of triangles from the centre, sampled on a grid.
            for u in 0..=GRID {
                for v in 0..=GRID - u {
                    let (s, t) = (u as f64 / GRID as f64, v as f64 / GRID as f64);
                    out.push(centre + (a - centre) * s + (b - centre) * t);
                }
            }
        }
    }
    out
}

/// Whether a curved surface crosses the solid: some point of the solid's
/// surface strictly on each side.
/// (`samples`: [`surface_samples`].)
pub(super) fn crosses(samples: &[Vec3], surface: &dyn CutSurface) -> bool {
    let (mut above, mut below) = (false, false);
    for &p in samples {
        let h = surface.height(p);
        above |= h > EPS;
        below |= h < -EPS;
        if above && below {
            return true;
        }
    }
    false
}

/// Puts an axis's surfaces in the order they are nested on the solid's
/// surface, lowest first: a lower one has more of the solid above it.
/// (Levels along the axis line need not say: two spheres at the ends of
/// an axis may overlap in the core, where no sticker is.)
pub(super) fn nest(samples: &[Vec3], surfaces: &mut Vec<Box<dyn CutSurface>>) {
    let mut counted: Vec<(usize, Box<dyn CutSurface>)> = surfaces
        .drain(..)
        .map(|s| (samples.iter().filter(|&&p| s.height(p) > 0.0).count(), s))
        .collect();
    // Stable: surfaces alike on every sample keep their order by level.
    counted.sort_by_key(|c| std::cmp::Reverse(c.0));
    surfaces.extend(counted.into_iter().map(|(_, s)| s));
}

/// What the curved cut adds to face 0's stickers: per sticker, a point
/// well inside it, and per edge of its outline the circle it runs along
/// (numbered on the face), if it is one.
pub(super) struct CurvedStickers {
    pub insides: Vec<Vec3>,
    pub curves: Vec<Vec<Option<u32>>>,
}

/// Whether a flattened trace is a circle (a sphere's trace, or a cone's
/// on a face square to its axis): drawn as arcs.
fn is_circle(trace: &[P2]) -> bool {
    let n = trace.len();
    if n < 8 {
        return false;
    }
    let closed = (trace[0][0] - trace[n - 1][0]).hypot(trace[0][1] - trace[n - 1][1]) < 1e-9;
    if !closed {
        return false;
    }
    let Some(([ux, uy], r)) = circumcircle(trace[0], trace[n / 3], trace[2 * n / 3]) else {
        return false;
    };
    trace
        .iter()
        .all(|p| ((p[0] - ux).hypot(p[1] - uy) - r).abs() < 1e-7 * r.max(1.0))
}

/// Face 0 cut into stickers by every surface's trace, with their slices,
/// a point inside each (where the slices are read) and their arcs.
pub(super) fn split_face0(
    solid: &Solid,
    axes: &[Axis],
) -> Result<(FaceStickers, CurvedStickers), GeometryError> {
    let face = &solid.faces[0];
    let origin = face.normal;
    let e1 = (face.polygon[0] - origin).normalized();
    let e2 = face.normal.cross(e1);
    let to2 = |p: Vec3| -> P2 { [(p - origin).dot(e1), (p - origin).dot(e2)] };
    let to3 = |q: P2| origin + e1 * q[0] + e2 * q[1];
    let polygon: Vec<P2> = face.polygon.iter().map(|&p| to2(p)).collect();
    let traces: Vec<Vec<P2>> = axes
        .iter()
        .flat_map(|a| a.surfaces.iter())
        .flat_map(|s| s.trace(origin, e1, e2))
        .collect();
    let circles: Vec<bool> = traces.iter().map(|t| is_circle(t)).collect();
    let too_many = GeometryError::TooManyStickers {
        limit: MAX_STICKERS,
    };
    let mut regions = arrange::regions(&polygon, &traces).ok_or(too_many)?;
    regions.retain(|r| r.area > arrange::SLIVER);
    if regions.len() * solid.faces.len() > MAX_STICKERS {
        return Err(GeometryError::TooManyStickers {
            limit: MAX_STICKERS,
        });
    }
    type Cut = (Box<[u16]>, Vec<Vec3>, Vec3, Vec<Option<u32>>);
    let mut stickers: Vec<Cut> = Vec::with_capacity(regions.len());
    for r in regions {
        let inside = to3(r.inside);
        for axis in axes {
            nested(axis, inside)?;
        }
        let key: Box<[u16]> = axes.iter().map(|a| a.slice_of(inside)).collect();
        let curves = (r.sources.iter())
            .map(|s| s.filter(|&t| circles[t]).map(|t| t as u32))
            .collect();
        stickers.push((
            key,
            r.outline.iter().map(|&q| to3(q)).collect(),
            inside,
            curves,
        ));
    }
    // Stickers in order of their slices: independent of how the
    // arrangement happened to walk the face.
    stickers.sort_by(|a, b| a.0.cmp(&b.0));
    if stickers.windows(2).any(|w| w[0].0 == w[1].0) {
        return Err(GeometryError::Degenerate {
            reason: DegenerateReason::SplitSticker,
        });
    }
    let mut polygons = Vec::with_capacity(stickers.len());
    let mut keys = Vec::with_capacity(stickers.len());
    let mut insides = Vec::with_capacity(stickers.len());
    let mut curves = Vec::with_capacity(stickers.len());
    for (key, polygon, inside, curve) in stickers {
        keys.push(key);
        polygons.push(polygon);
        insides.push(inside);
        curves.push(curve);
    }
    Ok(((polygons, keys), CurvedStickers { insides, curves }))
}

/// Checks that `p` is above a run of the axis's lowest surfaces and below
/// the rest, as layers one above another are.
fn nested(axis: &Axis, p: Vec3) -> Result<(), GeometryError> {
    let mut below_one = false;
    for s in &axis.surfaces {
        let above = s.height(p) >= 0.0;
        if above && below_one {
            return Err(GeometryError::Degenerate {
                reason: DegenerateReason::SurfacesCross,
            });
        }
        below_one |= !above;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::{make_axes, solid};
    use crate::descriptor::Descriptor;

    /// Face 0's stickers counted a second way: the face sampled on a fine
    /// grid, each sample's slices read from the surfaces, and neighbouring
    /// samples with the same slices joined. Regions of a handful of
    /// samples are where traces pinch together, not stickers.
    fn counted_on_a_grid(descriptor: &str) -> usize {
        const N: usize = 700;
        let d = Descriptor::parse(descriptor).unwrap();
        let solid = solid(d.shape);
        let (axes, _) = make_axes(solid, &d).unwrap();
        let face = &solid.faces[0];
        let origin = face.normal;
        let e1 = (face.polygon[0] - origin).normalized();
        let e2 = face.normal.cross(e1);
        let polygon: Vec<P2> = (face.polygon.iter())
            .map(|&p| [(p - origin).dot(e1), (p - origin).dot(e2)])
            .collect();
        let reach = polygon
            .iter()
            .fold(0f64, |m, p| m.max(p[0].abs()).max(p[1].abs()));
        let inside_face = |q: P2| {
            (0..polygon.len()).all(|i| {
                let (a, b) = (polygon[i], polygon[(i + 1) % polygon.len()]);
                (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]) > 1e-9
            })
        };
        let mut key: Vec<Option<Vec<u16>>> = Vec::with_capacity(N * N);
        for i in 0..N {
            for j in 0..N {
                let q = [
                    -reach + 2.0 * reach * (i as f64 + 0.5) / N as f64,
                    -reach + 2.0 * reach * (j as f64 + 0.5) / N as f64,
                ];
                let p = origin + e1 * q[0] + e2 * q[1];
                key.push(inside_face(q).then(|| axes.iter().map(|a| a.slice_of(p)).collect()));
            }
        }
        let mut root: Vec<usize> = (0..N * N).collect();
        fn find(root: &mut [usize], mut x: usize) -> usize {
            while root[x] != x {
                root[x] = root[root[x]];
                x = root[x];
            }
            x
        }
        for i in 0..N {
            for j in 0..N {
                let a = i * N + j;
                for b in [(i + 1 < N).then(|| a + N), (j + 1 < N).then(|| a + 1)]
                    .into_iter()
                    .flatten()
                {
                    if key[a].is_some() && key[a] == key[b] {
                        let (x, y) = (find(&mut root, a), find(&mut root, b));
                        root[x] = y;
                    }
                }
            }
        }
        let mut size = vec![0usize; N * N];
        for a in 0..N * N {
            if key[a].is_some() {
                size[find(&mut root, a)] += 1;
            }
        }
        size.iter().filter(|&&s| s > 20).count()
    }

    fn counted_by_the_arrangement(descriptor: &str) -> usize {
        let d = Descriptor::parse(descriptor).unwrap();
        let solid = solid(d.shape);
        let (axes, _) = make_axes(solid, &d).unwrap();
        split_face0(solid, &axes).unwrap().0 .0.len()
    }

    #[test]
    fn the_arrangement_finds_the_stickers_a_fine_grid_finds() {
        for descriptor in [
            "c v sphere 1.6",
            // Through the neighbouring corners, and through the edges'
            // midpoints: traces meeting on the face's boundary.
            "c v sphere 2",
            "c v sphere 2.23606797749979",
            "c e sphere 2 at 2.8284271247461903",
            "c v sphere 1.8 v sphere 1.2",
            "c f cone 60",
            "c f 0.333333333333333 v sphere 1.6",
            "d f cone 60",
            "o f cone 60",
        ] {
            assert_eq!(
                counted_by_the_arrangement(descriptor),
                counted_on_a_grid(descriptor),
                "{descriptor}"
            );
        }
    }
}
