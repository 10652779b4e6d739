//! From a descriptor to stickers, pieces, orbits and turns.
//!
//! (Long because cutting, piece finding and turn images are one pass over
//! the solid; its tests live in `build/tests.rs`.)
//!
//! The pipeline: replicate each cut over the solid's rotations into
//! planes; group parallel planes into axes (each plane set splits space
//! into slices); split face 0 into stickers by clipping it with every plane
//! that crosses it and copy the stickers to the other faces by symmetry;
//! give every sticker its slice on every axis (the spec's position
//! matrix); stickers with the same slices on every axis form a piece;
//! order each piece's stickers counterclockwise from its marked face (its
//! orientation); group pieces into orbits under the axis turns; and record
//! where each turn sends each piece. Images under turns are computed
//! combinatorially (faces and slices permute), so no floating-point point
//! matching is involved after the stickers are classified.
//!
//! Every order here is PuzzleGeometry's, so that a named puzzle's orbits,
//! piece numbers and orientations are cubing.js's to the piece (positions
//! and algs then mean the same in both): faces in the order the rotation
//! group finds them, face 0's stickers in the order PuzzleGeometry's
//! splitting makes them (see `split_face0`), the other faces' stickers as
//! rotated copies, pieces by their first sticker, orbits (named
//! `CORNERS`, `EDGES2`, ... by sticker count, in discovery order) and the
//! pieces within them in breadth-first order under the axis turns taken
//! in axis order, except on cubes cut only parallel to their faces (see
//! `cube_order`). `tests/pg_reference.rs` checks all 72 names against
//! cubing.js's definitions.
//!
//! One file, though long: it is one pipeline (axes, cuts, stickers, pieces,
//! orbits) whose steps share private types (`SplitNode`, the axis maps) and
//! whose order of pieces is part of the output, checked as a whole against
//! cubing.js.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::descriptor::{CutKind, CutShape, Descriptor, Shape};
use crate::math::{Quat, Vec3, EPS, MATCH_EPS};
use crate::solid::Solid;
use crate::surface::{Cone, CutSurface, Plane, Sphere};
use crate::{DegenerateReason, GeometryError};

/// Most planes the cuts may replicate to.
pub const MAX_PLANES: usize = 2048;
/// Most stickers a puzzle may have.
pub const MAX_STICKERS: usize = 100_000;

/// A fast hash for slice keys (the default hasher guards against
/// adversarial keys, which these are not).
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(K);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type SliceMap<V> = HashMap<Box<[u16]>, V, BuildHasherDefault<FxHasher>>;

/// How a rotation permutes the axes: each axis's image, and whether it
/// comes out reversed.
fn axis_map(r: Quat, normals: &[Vec3]) -> Result<Vec<(usize, bool)>, GeometryError> {
    normals
        .iter()
        .map(|&n| {
            let m = r.rotate(n);
            normals
                .iter()
                .enumerate()
                .find_map(|(b, &o)| {
                    let d = o.dot(m);
                    (d.abs() > 1.0 - 1e-9).then_some((b, d < 0.0))
                })
                .ok_or(GeometryError::Degenerate {
                    reason: DegenerateReason::RotationAxes,
                })
        })
        .collect()
}

/// The slices of a piece's image under a rotation with this axis map.
fn map_key(key: &[u16], map: &[(usize, bool)], counts: &[u16], out: &mut [u16]) {
    for (a, &(b, rev)) in map.iter().enumerate() {
        out[b] = if rev { counts[a] - key[a] } else { key[a] };
    }
}

/// The solid for a shape, built once.
pub(crate) fn solid(shape: Shape) -> &'static Solid {
    static SOLIDS: OnceLock<Vec<Solid>> = OnceLock::new();
    let all = SOLIDS.get_or_init(|| Shape::ALL.into_iter().map(Solid::new).collect());
    &all[shape.index()]
}

/// What kind of feature lies at one end of an axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureKind {
    /// A face centre.
    Face,
    /// An edge midpoint.
    Edge,
    /// A vertex.
    Vertex,
}

/// Where a turn sends one piece.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Image {
    /// The piece (cubie index) whose place it takes.
    pub target: u32,
    /// Which of the target's stickers its first sticker lands on.
    pub ord: u8,
    /// For face-centre pieces: how many steps of the face's own rotation
    /// the piece's mark turns by, relative to the target's mark.
    pub spin: u8,
}

/// A set of parallel cut planes and the turns about their common normal.
#[derive(Debug)]
pub struct Axis {
    /// Unit normal; slice 0 is at this end.
    pub(crate) normal: Vec3,
    /// Cut surfaces crossing the solid, nested from the far end to this one.
    pub(crate) surfaces: Vec<Box<dyn CutSurface>>,
    /// Turns about the axis that are symmetries of the solid, identity included.
    pub(crate) order: usize,
    /// The turn by a full circle over `order`, counterclockwise about `normal`.
    pub(crate) turn: Quat,
    /// Name of the feature at the `normal` end.
    pub(crate) pos: String,
    /// Name of the feature at the other end.
    pub(crate) neg: String,
    /// Kind of feature at the `normal` end.
    pub(crate) pos_kind: FeatureKind,
    /// Kind of feature at the other end.
    pub(crate) neg_kind: FeatureKind,
    /// Where `turn` sends each piece.
    pub(crate) images: Vec<Image>,
    /// The pieces in each slice, slice 0 first.
    pub(crate) by_slice: Vec<Vec<u32>>,
}

impl Axis {
    /// Number of cut planes crossing the solid (slices are one more).
    pub fn planes(&self) -> usize {
        self.surfaces.len()
    }

    /// How many slices the axis has.
    pub fn slices(&self) -> usize {
        self.surfaces.len() + 1
    }

    /// The name of the feature the axis normal points at (`F`, `UFR`).
    pub fn pos_name(&self) -> &str {
        &self.pos
    }

    /// The name of the feature at the other end.
    pub fn neg_name(&self) -> &str {
        &self.neg
    }

    /// Turns in a full circle.
    pub fn order(&self) -> usize {
        self.order
    }

    /// The unit normal.
    pub fn normal(&self) -> Vec3 {
        self.normal
    }

    /// The slice a point falls in: 0 at the `normal` end.
    pub(crate) fn slice_of(&self, p: Vec3) -> u16 {
        // Surfaces are sorted by level; a point is below a prefix-closed
        // set of the upper ones. Count the surfaces the point is below.
        let n = self.surfaces.len();
        let (mut lo, mut hi) = (0usize, n);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if self.surfaces[mid].height(p) >= 0.0 {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        (n - lo) as u16
    }
}

/// One sticker: a polygon on a face.
#[derive(Clone, Debug)]
pub struct Sticker {
    /// Face index.
    pub face: usize,
    /// Corners, counterclockwise about the face normal (a curved edge
    /// flattened into many).
    pub polygon: Vec<Vec3>,
    /// Per edge of `polygon` (from each corner to the next), the circle it
    /// runs along, numbered per face, for drawing arcs as arcs; empty on a
    /// puzzle cut by planes alone.
    pub curves: Vec<Option<u32>>,
    /// A point inside it: the corners' average, or for a sticker with a
    /// curved edge a point well inside it (which need not be their average).
    pub center: Vec3,
    /// The piece it belongs to.
    pub cubie: usize,
    /// Its place in the piece's sticker order (0 = marked sticker).
    pub ord: usize,
}

/// One piece ("cubie").
#[derive(Clone, Debug)]
pub struct Cubie {
    /// Its stickers, marked one first, then counterclockwise.
    pub stickers: Vec<usize>,
    /// Its slice on every axis.
    pub slices: Box<[u16]>,
    /// Its orbit.
    pub orbit: usize,
    /// Its index within the orbit.
    pub index: usize,
    /// For a one-sticker piece at the middle of a face: the direction its
    /// orientation mark points.
    pub(crate) center_mark: Option<Vec3>,
}

/// A class of pieces the axis turns permute among themselves.
#[derive(Clone, Debug)]
pub struct OrbitData {
    /// Name in PuzzleGeometry's style: `CORNERS`, `EDGES2`, `CENTERS3`, ...
    pub name: String,
    /// Its pieces, by index within the orbit.
    pub cubies: Vec<usize>,
    /// Stickers per piece.
    pub stickers: usize,
    /// Whether its pieces sit at face centres (they may be given orientations).
    pub face_centers: bool,
}

/// The geometry of a puzzle: stickers, pieces, orbits and axis turns.
#[derive(Debug)]
pub struct Geometry {
    pub(crate) solid: &'static Solid,
    pub(crate) descriptor: Descriptor,
    pub(crate) axes: Vec<Axis>,
    pub(crate) stickers: Vec<Sticker>,
    pub(crate) stickers_per_face: usize,
    pub(crate) cubies: Vec<Cubie>,
    pub(crate) orbits: Vec<OrbitData>,
}

impl Geometry {
    /// Cuts the descriptor's solid and works out its pieces and turns.
    pub fn new(descriptor: &Descriptor) -> Result<Geometry, GeometryError> {
        let solid = solid(descriptor.shape);
        let nfaces = solid.faces.len();
        let (mut axes, cutting) = make_axes(solid, descriptor)?;
        let ((stickers_face0, keys_face0), insides) = match &cutting {
            Cutting::Planes(planes) => (split_face0(solid, &axes, planes)?, None),
            Cutting::Curved => {
                let (stickers, curved) = curved::split_face0(solid, &axes)?;
                (stickers, Some(curved))
            }
        };
        let spf = stickers_face0.len();
        let normals: Vec<Vec3> = axes.iter().map(|a| a.normal).collect();
        let counts: Vec<u16> = axes.iter().map(|a| a.surfaces.len() as u16).collect();
        // Copy face 0's stickers to every face by symmetry; their slices
        // follow from how the rotation permutes the axes.
        let mut stickers = Vec::with_capacity(spf * nfaces);
        let mut keys: Vec<Box<[u16]>> = Vec::with_capacity(spf * nfaces);
        let mut scratch = vec![0u16; axes.len()];
        for (f, r) in solid.face_rotations.iter().enumerate() {
            let map = axis_map(*r, &normals)?;
            for (i, (poly, key)) in stickers_face0.iter().zip(&keys_face0).enumerate() {
                let polygon: Vec<Vec3> = poly.iter().map(|&p| r.rotate(p)).collect();
                // A curved sticker need not hold its corners' mean.
                let (center, curves) = match &insides {
                    Some(c) => (r.rotate(c.insides[i]), c.curves[i].clone()),
                    None => (Vec3::mean(&polygon), Vec::new()),
                };
                stickers.push(Sticker {
                    face: f,
                    center,
                    curves,
                    polygon,
                    cubie: 0,
                    ord: 0,
                });
                map_key(key, &map, &counts, &mut scratch);
                keys.push(scratch.clone().into_boxed_slice());
            }
        }
        // Group stickers by their slices on every axis: a piece.
        let mut key_to_group: SliceMap<usize> = SliceMap::default();
        let mut groups: Vec<(Box<[u16]>, Vec<usize>)> = Vec::new();
        for (i, key) in keys.into_iter().enumerate() {
            match key_to_group.get(&key) {
                Some(&g) => groups[g].1.push(i),
                None => {
                    key_to_group.insert(key.clone(), groups.len());
                    groups.push((key, vec![i]));
                }
            }
        }
        // Pieces are numbered by their first sticker, except that the
        // core's parts come where its last sticker does (PuzzleGeometry
        // splits the core once it has seen a sticker on every face).
        let core = |members: &[usize]| members.len() == nfaces && nfaces > 1;
        let mut order: Vec<usize> = (0..groups.len()).collect();
        order.sort_by_key(|&g| {
            let members = &groups[g].1;
            if core(members) {
                members[members.len() - 1]
            } else {
                members[0]
            }
        });
        let mut cubies: Vec<Cubie> = Vec::new();
        for (key, members) in order.iter().map(|&g| &groups[g]) {
            // A piece showing every face is the core; like PuzzleGeometry,
            // treat each of its stickers as a piece of its own.
            let parts: Vec<Vec<usize>> = if core(members) {
                members.iter().map(|&s| vec![s]).collect()
            } else {
                vec![members.clone()]
            };
            for mut part in parts {
                order_stickers(solid, &stickers, &mut part);
                let c = cubies.len();
                for (ord, &s) in part.iter().enumerate() {
                    stickers[s].cubie = c;
                    stickers[s].ord = ord;
                }
                let center_mark = (part.len() == 1)
                    .then(|| center_mark(solid, &stickers[part[0]]))
                    .flatten();
                cubies.push(Cubie {
                    stickers: part,
                    slices: key.clone(),
                    orbit: 0,
                    index: 0,
                    center_mark,
                });
            }
        }
        // Where each axis turn sends each piece.
        let face_steps = solid.faces[0].polygon.len();
        for axis in axes.iter_mut() {
            let r = axis.turn;
            let face_perm: Vec<usize> = solid
                .faces
                .iter()
                .map(|f| solid.face_with_normal(r.rotate(f.normal)))
                .collect::<Option<_>>()
                .ok_or(GeometryError::Degenerate {
                    reason: DegenerateReason::TurnFaces,
                })?;
            let axis_map = axis_map(r, &normals)?;
            let mut images = Vec::with_capacity(cubies.len());
            let mut key = vec![0u16; normals.len()];
            for c in &cubies {
                let s0 = &stickers[c.stickers[0]];
                for (a, &(b, rev)) in axis_map.iter().enumerate() {
                    key[b] = if rev {
                        counts[a] - c.slices[a]
                    } else {
                        c.slices[a]
                    };
                }
                let target_face = face_perm[s0.face];
                let t = key_to_group
                    .get(&key[..])
                    .and_then(|&g| {
                        groups[g]
                            .1
                            .iter()
                            .copied()
                            .find(|&s| stickers[s].face == target_face)
                    })
                    .ok_or(GeometryError::Degenerate {
                        reason: DegenerateReason::StickerImage,
                    })?;
                let target = stickers[t].cubie;
                let spin = match (c.center_mark, cubies[target].center_mark) {
                    (Some(from), Some(to)) => spin_steps(
                        r.rotate(from),
                        to,
                        solid.faces[target_face].normal,
                        face_steps,
                    ),
                    _ => 0,
                };
                images.push(Image {
                    target: target as u32,
                    ord: stickers[t].ord as u8,
                    spin,
                });
            }
            // A turn must permute the pieces; anything else means a cut
            // sits too close to a feature for the arithmetic.
            let mut hit = vec![false; cubies.len()];
            for im in &images {
                if std::mem::replace(&mut hit[im.target as usize], true) {
                    return Err(GeometryError::Degenerate {
                        reason: DegenerateReason::TurnCollision,
                    });
                }
            }
            axis.images = images;
            axis.by_slice = vec![Vec::new(); axis.surfaces.len() + 1];
        }
        for (k, axis) in axes.iter_mut().enumerate() {
            for (i, c) in cubies.iter().enumerate() {
                axis.by_slice[c.slices[k] as usize].push(i as u32);
            }
        }
        let mut orbits = find_orbits(&mut cubies, &axes, solid);
        // A cube cut only parallel to its faces numbers its pieces as
        // cubers do (see `cube_order`).
        let face_cuts_only = axes.iter().all(|a| {
            a.planes() == 0 || (a.pos_kind == FeatureKind::Face && a.neg_kind == FeatureKind::Face)
        });
        if solid.shape == Shape::Cube && face_cuts_only && spf >= 4 {
            crate::cube_order::number_cube_pieces(solid, &stickers, spf, &mut cubies, &mut orbits);
        }
        Ok(Geometry {
            solid,
            descriptor: descriptor.clone(),
            axes,
            stickers,
            stickers_per_face: spf,
            cubies,
            orbits,
        })
    }

    /// The axes, in the order their planes were found.
    pub fn axes(&self) -> &[Axis] {
        &self.axes
    }

    /// All stickers, face by face.
    pub fn stickers(&self) -> &[Sticker] {
        &self.stickers
    }

    /// Stickers on each face.
    pub fn stickers_per_face(&self) -> usize {
        self.stickers_per_face
    }

    /// All pieces.
    pub fn cubies(&self) -> &[Cubie] {
        &self.cubies
    }

    /// The orbits, in discovery order.
    pub fn orbits(&self) -> &[OrbitData] {
        &self.orbits
    }

    /// The solid that was cut.
    pub fn solid(&self) -> &Solid {
        self.solid
    }

    /// The descriptor this geometry was built from.
    pub fn descriptor(&self) -> &Descriptor {
        &self.descriptor
    }
}

/// Replicates the cuts into planes and groups them into axes. Also returns
/// the planes that cut the solid, in the order they were made and each
/// with the normal it was made with (the sticker order depends on both).
fn make_axes(solid: &Solid, desc: &Descriptor) -> Result<(Vec<Axis>, Cutting), GeometryError> {
    // Every cut replicated over the rotations (once each), with its
    // direction and whether it crosses the solid.
    let mut placed: Vec<(Placed, Vec3, bool)> = Vec::new();
    // Points of the solid's surface that curved cuts are tested against,
    // made once, only when a cut is curved.
    let samples = if desc.cuts.iter().any(|c| c.shape != CutShape::Plane) {
        curved::surface_samples(solid)
    } else {
        Vec::new()
    };
    let extent = |n: Vec3| {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for v in &solid.vertices {
            let d = n.dot(v.point);
            lo = lo.min(d);
            hi = hi.max(d);
        }
        (lo, hi)
    };
    for (index, cut) in desc.cuts.iter().enumerate() {
        let start = match cut.kind {
            CutKind::Face => solid.faces[0].normal,
            CutKind::Vertex => solid.first_vertex,
            CutKind::Edge => solid.first_edge,
        };
        // A cone's apex on a face's plane meets it in lines through the
        // apex, which its trace (the cone's section) does not draw.
        if let CutShape::Cone { .. } = cut.shape {
            let on_a_face = solid.rotations.iter().any(|r| {
                let apex = r.rotate(start) * cut.distance;
                (solid.faces.iter()).any(|f| (f.normal.dot(apex) - 1.0).abs() < 1e-9)
            });
            if on_a_face {
                return Err(GeometryError::BadCurvedCut {
                    index: index + 1,
                    problem: crate::CurvedCutProblem::ApexOnFace,
                });
            }
        }
        for r in &solid.rotations {
            let dir = r.rotate(start);
            let surface = match cut.shape {
                CutShape::Plane => Placed::Plane(Plane {
                    normal: dir,
                    distance: cut.distance,
                }),
                CutShape::Sphere { radius, .. } => Placed::Sphere(Sphere {
                    axis: dir,
                    centre: dir * cut.distance,
                    radius,
                    inside_above: true,
                }),
                CutShape::Cone { half_angle, .. } => Placed::Cone(Cone {
                    axis: dir,
                    apex: dir * cut.distance,
                    opening: dir,
                    half_angle: half_angle.to_radians(),
                }),
            };
            if placed.iter().any(|(q, _, _)| q.same(&surface)) {
                continue;
            }
            if placed.len() == MAX_PLANES {
                return Err(GeometryError::TooManyPlanes {
                    count: MAX_PLANES + 1,
                    limit: MAX_PLANES,
                });
            }
            let cuts = match &surface {
                Placed::Plane(p) => {
                    let (lo, hi) = extent(dir);
                    lo + EPS < p.distance && p.distance < hi - EPS
                }
                curved => crosses(&samples, curved.surface()),
            };
            placed.push((surface, dir, cuts));
        }
    }
    let curved = placed.iter().any(|(p, _, c)| *c && p.surface().curved());
    let cutting = if curved {
        Cutting::Curved
    } else {
        Cutting::Planes(
            placed
                .iter()
                .filter_map(|(p, _, c)| match p {
                    Placed::Plane(p) if *c => Some(*p),
                    _ => None,
                })
                .collect(),
        )
    };
    let mut axes: Vec<(Vec3, Vec<Box<dyn CutSurface>>)> = Vec::new();
    for (p, dir, cuts) in placed {
        let k = match axes.iter().position(|(n, _)| n.dot(dir).abs() > 1.0 - 1e-9) {
            Some(k) => k,
            None => {
                axes.push((dir, Vec::new()));
                axes.len() - 1
            }
        };
        if cuts {
            let n = axes[k].0;
            let aligned = n.dot(dir) > 0.0;
            let surface: Box<dyn CutSurface> = match p {
                Placed::Plane(p) => Box::new(Plane {
                    normal: n,
                    distance: if aligned { p.distance } else { -p.distance },
                }),
                Placed::Sphere(s) => Box::new(Sphere {
                    axis: n,
                    inside_above: aligned,
                    ..s
                }),
                Placed::Cone(c) => Box::new(Cone { axis: n, ..c }),
            };
            axes[k].1.push(surface);
        }
    }
    let kind_at = |d: Vec3| -> (String, FeatureKind) {
        if let Some(f) = solid.face_with_normal(d) {
            return (solid.faces[f].name.clone(), FeatureKind::Face);
        }
        if let Some(e) = solid.edges.iter().find(|e| e.direction.near(d, MATCH_EPS)) {
            return (e.name.clone(), FeatureKind::Edge);
        }
        match solid
            .vertices
            .iter()
            .find(|e| e.direction.near(d, MATCH_EPS))
        {
            Some(v) => (v.name.clone(), FeatureKind::Vertex),
            None => ("?".to_string(), FeatureKind::Face),
        }
    };
    let axes = axes
        .into_iter()
        .map(|(normal, mut surfaces)| {
            surfaces.sort_by(|a, b| a.level().total_cmp(&b.level()));
            if matches!(cutting, Cutting::Curved) {
                curved::nest(&samples, &mut surfaces);
            }
            let order = 1 + solid
                .rotations
                .iter()
                .filter(|r| !r.is_identity() && r.v.norm() > EPS)
                .filter(|r| r.v.normalized().dot(normal).abs() > 1.0 - 1e-9)
                .count();
            let (pos, pos_kind) = kind_at(normal);
            let (neg, neg_kind) = kind_at(-normal);
            Axis {
                normal,
                surfaces,
                order,
                turn: Quat::about(normal, 2.0 * std::f64::consts::PI / order as f64),
                pos,
                neg,
                pos_kind,
                neg_kind,
                images: Vec::new(),
                by_slice: Vec::new(),
            }
        })
        .collect();
    Ok((axes, cutting))
}

/// Face 0's stickers and their slices.
type FaceStickers = (Vec<Vec<Vec3>>, Vec<Box<[u16]>>);

/// A node of the tree face 0 is split into: a polygon, and once a plane
/// has crossed it, the parts below and above that plane.
struct SplitNode {
    polygon: Vec<Vec3>,
    parts: Option<Box<(SplitNode, SplitNode)>>,
}

impl SplitNode {
    /// Splits every leaf the plane crosses; returns how many leaves that adds.
    fn split(&mut self, plane: &Plane) -> usize {
        let Some((below, above)) = plane.split(&self.polygon) else {
            return 0;
        };
        match &mut self.parts {
            None => {
                let leaf = |polygon| SplitNode {
                    polygon,
                    parts: None,
                };
                self.parts = Some(Box::new((leaf(below), leaf(above))));
                1
            }
            Some(parts) => parts.0.split(plane) + parts.1.split(plane),
        }
    }

    /// The leaves, walking the tree back and forth: a node's parts below
    /// then above when `below_first`, else above then below; whichever
    /// part comes first is walked above-first, the other below-first.
    fn leaves(self, below_first: bool, out: &mut Vec<Vec<Vec3>>) {
        match self.parts {
            None => out.push(self.polygon),
            Some(parts) => {
                let (below, above) = *parts;
                if below_first {
                    below.leaves(false, out);
                    above.leaves(true, out);
                } else {
                    above.leaves(false, out);
                    below.leaves(true, out);
                }
            }
        }
    }
}

/// Face 0 cut into stickers, in PuzzleGeometry's sticker order, with
/// their slices.
///
/// PuzzleGeometry numbers stickers, and so pieces and orbits, by the order
/// in which it splits face 0: it takes the cutting planes (as the cuts
/// replicate over the rotations, each with the normal it was made with) in
/// an order shuffled by a fixed linear congruential sequence, splits every
/// part a plane crosses into below and above, and reads the parts off the
/// resulting tree in a back-and-forth walk. Doing the same here is what
/// makes the named puzzles number their pieces as cubing.js does; the
/// order depends only on which planes cross which parts, never on
/// floating-point coordinates.
fn split_face0(
    solid: &Solid,
    axes: &[Axis],
    planes: &[Plane],
) -> Result<FaceStickers, GeometryError> {
    let nfaces = solid.faces.len();
    let mut root = SplitNode {
        polygon: solid.faces[0].polygon.clone(),
        parts: None,
    };
    let mut order = planes.to_vec();
    let mut leaves = 1usize;
    let mut seed = 31u32;
    for i in 0..order.len() {
        let left = (order.len() - i) as f64;
        let j = i + (left * (f64::from(seed) / 65536.0)).floor() as usize;
        leaves += root.split(&order[j]);
        order[j] = order[i];
        seed = (seed * 1657 + 101) % 65536;
        if leaves * nfaces > MAX_STICKERS {
            return Err(GeometryError::TooManyStickers {
                limit: MAX_STICKERS,
            });
        }
    }
    let mut polys = Vec::with_capacity(leaves);
    root.leaves(true, &mut polys);
    let keys = polys
        .iter()
        .map(|p| {
            let c = Vec3::mean(p);
            axes.iter().map(|a| a.slice_of(c)).collect()
        })
        .collect();
    Ok((polys, keys))
}

/// Orders a piece's stickers: counterclockwise about the piece's centre
/// direction, starting from the marked face.
fn order_stickers(solid: &Solid, stickers: &[Sticker], part: &mut [usize]) {
    if part.len() < 2 {
        return;
    }
    let bits: u32 = part.iter().map(|&s| 1u32 << stickers[s].face).sum();
    let marked = solid.marked_face(bits);
    if part.len() > 2 {
        let centers: Vec<Vec3> = part.iter().map(|&s| stickers[s].center).collect();
        let u = Vec3::mean(&centers);
        if u.norm() > EPS {
            let u = u.normalized();
            let e1 = u.perpendicular();
            let e2 = u.cross(e1);
            part.sort_by(|&a, &b| {
                let (pa, pb) = (stickers[a].center, stickers[b].center);
                let ta = pa.dot(e2).atan2(pa.dot(e1));
                let tb = pb.dot(e2).atan2(pb.dot(e1));
                ta.total_cmp(&tb)
            });
        } else {
            part.sort_by_key(|&s| stickers[s].face);
        }
    } else {
        part.sort_by_key(|&s| stickers[s].face);
    }
    if let Some(at) = part.iter().position(|&s| stickers[s].face == marked) {
        part.rotate_left(at);
    }
}

/// For a sticker at the middle of a face: the direction its orientation
/// mark points (towards the corner nearest the face the conventions name).
fn center_mark(solid: &Solid, s: &Sticker) -> Option<Vec3> {
    let face = &solid.faces[s.face];
    if !s.center.near(face.normal, MATCH_EPS) {
        return None;
    }
    let Some(towards) = solid.center_mark[s.face] else {
        return Some(s.polygon[0] - s.center);
    };
    let n = solid.faces[towards].normal;
    let k = s.polygon.len();
    let mut best = 0;
    for i in 1..k {
        if n.dot(s.polygon[i] - s.center) > n.dot(s.polygon[best] - s.center) + EPS {
            best = i;
        }
    }
    // Two corners equally far: take the later one.
    let next = (best + 1) % k;
    if (n.dot(s.polygon[next] - s.center) - n.dot(s.polygon[best] - s.center)).abs() < EPS {
        best = next;
    }
    Some(s.polygon[best] - s.center)
}

/// Counterclockwise steps (of a full circle over `steps`) about `normal`
/// from direction `to` round to direction `from`.
fn spin_steps(from: Vec3, to: Vec3, normal: Vec3, steps: usize) -> u8 {
    let angle = to.cross(from).dot(normal).atan2(to.dot(from));
    let step = 2.0 * std::f64::consts::PI / steps as f64;
    let k = (angle / step).round() as i64;
    k.rem_euclid(steps as i64) as u8
}

/// Groups pieces into orbits under the axis turns and names them.
fn find_orbits(cubies: &mut [Cubie], axes: &[Axis], solid: &Solid) -> Vec<OrbitData> {
    const TYPES: [&str; 6] = ["?", "CENTERS", "EDGES", "CORNERS", "C4RNER", "C5RNER"];
    let mut seen = vec![false; cubies.len()];
    let mut counts: HashMap<&str, usize> = HashMap::new();
    let mut orbits = Vec::new();
    for start in 0..cubies.len() {
        if seen[start] {
            continue;
        }
        let n = cubies[start].stickers.len();
        let base = if n < TYPES.len() && n != solid.faces.len() {
            TYPES[n]
        } else {
            "CORE"
        };
        let count = counts.entry(base).or_insert(0);
        *count += 1;
        let name = if *count == 1 {
            base.to_string()
        } else {
            format!("{base}{count}")
        };
        let o = orbits.len();
        let mut queue = vec![start];
        seen[start] = true;
        let mut q = 0;
        while q < queue.len() {
            let c = queue[q];
            q += 1;
            for axis in axes {
                let t = axis.images[c].target as usize;
                if !seen[t] {
                    seen[t] = true;
                    queue.push(t);
                }
            }
        }
        for (i, &c) in queue.iter().enumerate() {
            cubies[c].orbit = o;
            cubies[c].index = i;
        }
        let face_centers = n == 1 && cubies[start].center_mark.is_some();
        orbits.push(OrbitData {
            name,
            cubies: queue,
            stickers: n,
            face_centers,
        });
    }
    orbits
}

#[cfg(test)]
mod tests;

mod curved;
use curved::{crosses, Cutting, Placed};
