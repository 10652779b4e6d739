//! The five Platonic solids: their rotation groups, faces, and the names
//! puzzle people give faces, edges and vertices.
//!
//! Names follow PuzzleGeometry's conventions so that generated puzzles
//! answer to the same move names as cubing.js: the face names per face (in
//! the order the rotation group discovers the faces), which face of a
//! piece is "marked" for orientation, and the order in which a vertex's
//! faces are read. These conventions are data (tables below); the geometry
//! is computed here. Coordinates are the ones the generators define; they
//! are a mirror image of the puzzle as seen from outside, which only the
//! SVG net has to undo.

use std::collections::HashMap;

use crate::descriptor::Shape;
use crate::math::{closure, Quat, Vec3, MATCH_EPS};

/// Static conventions for one solid.
pub(crate) struct ShapeData {
    /// Two rotations generating the rotation group; the first, read as a
    /// plane (distance, normal), is face 0.
    generators: fn() -> [Quat; 2],
    /// Face names by face index.
    pub(crate) face_names: &'static [&'static str],
    /// Direction of the vertex a `v` cut starts from (snapped to a vertex).
    vertex_hint: Vec3,
    /// Direction of the edge an `e` cut starts from (snapped to an edge).
    edge_hint: Vec3,
    /// Vertex pieces: the first face of each name is the marked one.
    marked_vertices: &'static [&'static str],
    /// Edge pieces: the first face of each name is the marked one.
    marked_edges: &'static [&'static str],
    /// Centre orientation: the centre of the first face points towards the second.
    center_marks: &'static [&'static str],
    /// Colour per face name.
    pub(crate) colors: &'static [(&'static str, &'static str)],
    /// Net: root face, the neighbour below it, then (face, parent) pairs.
    pub(crate) net: (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
    ),
}

const S2: f64 = std::f64::consts::FRAC_1_SQRT_2;

fn cube_generators() -> [Quat; 2] {
    [Quat::new(S2, S2, 0.0, 0.0), Quat::new(S2, 0.0, S2, 0.0)]
}

fn tetrahedron_generators() -> [Quat; 2] {
    [
        Quat::new(0.5, 0.5, 0.5, 0.5),
        Quat::new(0.5, 0.5, 0.5, -0.5),
    ]
}

fn octahedron_generators() -> [Quat; 2] {
    [Quat::new(0.5, 0.5, 0.5, 0.5), Quat::new(S2, 0.0, 0.0, S2)]
}

fn dodecahedron_generators() -> [Quat; 2] {
    let a = std::f64::consts::PI / 5.0;
    let r5 = 5f64.sqrt();
    let axis = Vec3::new(0.5 + 0.3 * r5, 0.5 + 0.1 * r5, 0.0).normalized();
    [
        Quat::new(a.cos(), axis.x * a.sin(), axis.y * a.sin(), 0.0),
        Quat::new(0.5, 0.5, 0.5, 0.5),
    ]
}

fn icosahedron_generators() -> [Quat; 2] {
    let a = std::f64::consts::PI / 3.0;
    let r5 = 5f64.sqrt();
    let d = Vec3::new(1.0 / 6.0 + r5 / 6.0, 2.0 / 3.0 + r5 / 3.0, 0.0).normalized();
    [
        Quat::new(a.cos(), d.x * a.sin(), d.y * a.sin(), 0.0),
        Quat::new(a.cos(), -d.x * a.sin(), d.y * a.sin(), 0.0),
    ]
}

const WHITE: &str = "#ffffff";
const ORANGE: &str = "#ff8000";
const GREEN: &str = "#44ee00";
const RED: &str = "#ff0000";
const BLUE: &str = "#2266ff";
const YELLOW: &str = "#f4f400";
const LIGHT_GRAY: &str = "#aaaaaa";
const MEDIUM_GRAY: &str = "#888888";
const DARK_GRAY: &str = "#5c5c5c";
const PURPLE: &str = "#8800dd";
const CREAM: &str = "#e8d0a0";
const PINK: &str = "#ff66cc";
const BOLD_BLUE: &str = "#0000ff";
const AQUA: &str = "#3399ff";
const DARK_GREEN: &str = "#008800";
const LIME: &str = "#99ff00";
const TEAL: &str = "#007a89";
const BROWN: &str = "#7d3b11";
const LAVENDER: &str = "#b9a1ff";
const SEA_GREEN: &str = "#5ec4b6";
const CHARCOAL: &str = "#292929";
const BURGUNDY: &str = "#980000";
const CERISE: &str = "#d41f69";

pub(crate) fn shape_data(shape: Shape) -> &'static ShapeData {
    match shape {
        Shape::Tetrahedron => &TETRAHEDRON,
        Shape::Cube => &CUBE,
        Shape::Octahedron => &OCTAHEDRON,
        Shape::Dodecahedron => &DODECAHEDRON,
        Shape::Icosahedron => &ICOSAHEDRON,
    }
}

static TETRAHEDRON: ShapeData = ShapeData {
    generators: tetrahedron_generators,
    face_names: &["F", "D", "L", "R"],
    vertex_hint: Vec3::new(1.0, -1.0, 1.0),
    edge_hint: Vec3::new(1.0, 0.0, 0.0),
    marked_vertices: &["DFR", "DLF", "DRL", "FLR"],
    marked_edges: &["FR", "LF", "DF", "DL", "RD", "RL"],
    center_marks: &["DF", "FD", "RL", "LR"],
    colors: &[("F", GREEN), ("D", YELLOW), ("L", RED), ("R", BLUE)],
    net: ("F", "D", &[("D", "F"), ("L", "F"), ("R", "F")]),
};

static CUBE: ShapeData = ShapeData {
    generators: cube_generators,
    face_names: &["F", "D", "L", "B", "U", "R"],
    vertex_hint: Vec3::new(1.0, -1.0, -1.0),
    edge_hint: Vec3::new(1.0, 0.0, -1.0),
    marked_vertices: &["URF", "UBR", "ULB", "UFL", "DFR", "DRB", "DBL", "DLF"],
    marked_edges: &[
        "UF", "UR", "UB", "UL", "DF", "DR", "DB", "DL", "FR", "FL", "BR", "BL",
    ],
    center_marks: &["UB", "LU", "FU", "RU", "BU", "DF"],
    colors: &[
        ("U", WHITE),
        ("F", GREEN),
        ("R", RED),
        ("D", YELLOW),
        ("B", BLUE),
        ("L", ORANGE),
    ],
    net: (
        "F",
        "D",
        &[("D", "F"), ("L", "F"), ("U", "F"), ("R", "F"), ("B", "R")],
    ),
};

static OCTAHEDRON: ShapeData = ShapeData {
    generators: octahedron_generators,
    face_names: &["F", "D", "L", "BL", "R", "U", "BR", "BB"],
    vertex_hint: Vec3::new(0.0, 1.0, 0.0),
    edge_hint: Vec3::new(0.0, 1.0, 1.0),
    marked_vertices: &["UBBBRR", "URFL", "ULBLBB", "DBRBBBL", "DBLLF", "DFRBR"],
    marked_edges: &[
        "UL", "UBB", "UR", "BRD", "BLD", "FD", "BRR", "FR", "FL", "BLL", "BLBB", "BRBB",
    ],
    center_marks: &["BBU", "LU", "RU", "BRD", "FD", "BLD", "DF", "UBB"],
    colors: &[
        ("U", WHITE),
        ("F", GREEN),
        ("R", RED),
        ("D", YELLOW),
        ("BB", BLUE),
        ("L", PURPLE),
        ("BL", ORANGE),
        ("BR", MEDIUM_GRAY),
    ],
    net: (
        "F",
        "D",
        &[
            ("D", "F"),
            ("L", "F"),
            ("R", "F"),
            ("BR", "D"),
            ("BB", "BR"),
            ("U", "BB"),
            ("BL", "BB"),
        ],
    ),
};

static DODECAHEDRON: ShapeData = ShapeData {
    generators: dodecahedron_generators,
    face_names: &[
        "U", "F", "L", "BL", "BR", "R", "C", "A", "I", "BF", "E", "D",
    ],
    vertex_hint: Vec3::new(0.356822, 0.934172, 0.0),
    edge_hint: Vec3::new(0.5, 0.809017, 0.309017),
    marked_vertices: &[
        "URF", "UFL", "ULBL", "UBLBR", "UBRR", "DEBF", "DBFI", "DIA", "DAC", "DCE", "LAI", "ALF",
        "FCA", "CFR", "REC", "ERBR", "BRBFE", "BFBRBL", "BLIBF", "IBLL",
    ],
    marked_edges: &[
        "UF", "UR", "UBR", "UBL", "UL", "ER", "EBR", "EBF", "ED", "EC", "IBF", "IBL", "IL", "IA",
        "ID", "AC", "CF", "FA", "BFBR", "BRBL", "BLBF", "CD", "AD", "AL", "FL", "FR", "CR", "BFD",
        "BRR", "BLL",
    ],
    center_marks: &[
        "UF", "FU", "DBF", "BFD", "AD", "CD", "BRU", "BLU", "LA", "RA", "EBR", "IBL",
    ],
    colors: &[
        ("U", WHITE),
        ("F", DARK_GREEN),
        ("R", RED),
        ("C", CREAM),
        ("A", AQUA),
        ("L", PURPLE),
        ("E", PINK),
        ("BF", LIME),
        ("BR", BOLD_BLUE),
        ("BL", YELLOW),
        ("I", ORANGE),
        ("D", MEDIUM_GRAY),
    ],
    net: (
        "U",
        "F",
        &[
            ("F", "U"),
            ("R", "F"),
            ("C", "F"),
            ("A", "F"),
            ("L", "F"),
            ("E", "R"),
            ("BF", "E"),
            ("BR", "BF"),
            ("BL", "BF"),
            ("I", "BF"),
            ("D", "BF"),
        ],
    ),
};

static ICOSAHEDRON: ShapeData = ShapeData {
    generators: icosahedron_generators,
    face_names: &[
        "R", "L", "G", "U", "H", "C", "I", "O", "F", "P", "A", "N", "M", "J", "E", "Q", "B", "D",
        "S", "K",
    ],
    vertex_hint: Vec3::new(0.0, 0.850651, 0.525731),
    edge_hint: Vec3::new(0.5, 0.809017, 0.309017),
    marked_vertices: &[
        "FLPQU", "FUGER", "FRCAL", "HCREI", "ISBDH", "JSIEG", "BSJMK", "MQPOK", "ONDBK", "NOPLA",
        "UQMJG", "DNACH",
    ],
    marked_edges: &[
        "FU", "FL", "FR", "EG", "ER", "EI", "SJ", "SI", "SB", "KM", "KB", "KO", "PQ", "PO", "PL",
        "UG", "JG", "MQ", "UQ", "HC", "HD", "ND", "NA", "JM", "CA", "AL", "CR", "HI", "DB", "NO",
    ],
    center_marks: &[
        "FU", "UF", "GE", "EG", "JS", "SJ", "MK", "KM", "QP", "PQ", "LA", "AL", "RC", "CR", "IH",
        "HI", "BD", "DB", "ON", "NO",
    ],
    colors: &[
        ("R", YELLOW),
        ("C", CERISE),
        ("F", DARK_GREEN),
        ("E", DARK_GRAY),
        ("L", PURPLE),
        ("U", WHITE),
        ("A", TEAL),
        ("G", RED),
        ("I", BROWN),
        ("S", LAVENDER),
        ("H", AQUA),
        ("J", SEA_GREEN),
        ("B", GREEN),
        ("K", CREAM),
        ("D", LIGHT_GRAY),
        ("M", PINK),
        ("O", CHARCOAL),
        ("P", ORANGE),
        ("N", BURGUNDY),
        ("Q", BOLD_BLUE),
    ],
    net: (
        "R",
        "C",
        &[
            ("C", "R"),
            ("F", "R"),
            ("E", "R"),
            ("L", "F"),
            ("U", "F"),
            ("A", "L"),
            ("G", "E"),
            ("I", "E"),
            ("S", "I"),
            ("H", "I"),
            ("J", "S"),
            ("B", "S"),
            ("K", "B"),
            ("D", "B"),
            ("M", "K"),
            ("O", "K"),
            ("P", "O"),
            ("N", "O"),
            ("Q", "P"),
        ],
    ),
};

/// A face of the solid (not a face of the 3x3x3 cube model,
/// `twistor_cube333::Face`).
#[derive(Clone, Debug)]
pub struct SolidFace {
    /// Its name (`U`, `BL`, ...).
    pub name: String,
    /// Outward unit normal; the face plane is at distance 1.
    pub normal: Vec3,
    /// Corners, counterclockwise about the normal.
    pub polygon: Vec<Vec3>,
}

/// A vertex or an edge of the solid, with the name moves about it take.
#[derive(Clone, Debug)]
pub struct Feature {
    /// Its name: the faces that meet there, marked face first.
    pub name: String,
    /// Unit direction from the centre.
    pub direction: Vec3,
    /// The point itself (vertex, or edge midpoint).
    pub point: Vec3,
    /// Face indices in name order.
    pub faces: Vec<usize>,
}

/// A Platonic solid with its rotation group and named features.
#[derive(Clone, Debug)]
pub struct Solid {
    /// Which solid.
    pub shape: Shape,
    /// Every rotation of the solid, in discovery order.
    pub(crate) rotations: Vec<Quat>,
    /// Faces in index order.
    pub(crate) faces: Vec<SolidFace>,
    /// For each face, a rotation taking face 0 onto it.
    pub(crate) face_rotations: Vec<Quat>,
    /// Vertices.
    pub(crate) vertices: Vec<Feature>,
    /// Edges.
    pub(crate) edges: Vec<Feature>,
    /// Distance from the centre to a vertex.
    pub(crate) vertex_distance: f64,
    /// Distance from the centre to an edge midpoint.
    pub(crate) edge_distance: f64,
    /// Marked face of a piece, by the set of faces it shows (bit per face).
    marked: HashMap<u32, usize>,
    /// For each face, the face its centre sticker's mark points towards.
    pub(crate) center_mark: Vec<Option<usize>>,
    /// The direction a `v` cut starts from.
    pub(crate) first_vertex: Vec3,
    /// The direction an `e` cut starts from.
    pub(crate) first_edge: Vec3,
}

impl Solid {
    /// Builds the solid: its rotation group, faces (in PuzzleGeometry's
    /// order), vertices, edges and their names.
    pub fn new(shape: Shape) -> Solid {
        let data = shape_data(shape);
        let gens = (data.generators)();
        let rotations = closure(&gens);
        let base = gens[0].v.normalized();
        // Faces: the distinct images of the first generator's plane, in
        // the order the rotations are found.
        let mut normals: Vec<Vec3> = Vec::new();
        let mut face_rotations: Vec<Quat> = Vec::new();
        for r in &rotations {
            let n = r.rotate(base);
            if !normals.iter().any(|m| m.near(n, MATCH_EPS)) {
                normals.push(n);
                face_rotations.push(*r);
            }
        }
        let polygon0 = face_polygon(&normals);
        let faces: Vec<SolidFace> = normals
            .iter()
            .zip(&face_rotations)
            .enumerate()
            .map(|(i, (&n, r))| SolidFace {
                name: data.face_names[i].to_string(),
                normal: n,
                polygon: polygon0.iter().map(|&p| r.rotate(p)).collect(),
            })
            .collect();
        let names: Vec<&str> = data.face_names.to_vec();
        let bits_of = |name: &str| -> Option<(u32, usize)> {
            let parts = split_face_names(name, &names)?;
            Some((parts.iter().map(|&i| 1u32 << i).sum(), parts[0]))
        };
        let mut marked = HashMap::new();
        for name in data.marked_vertices.iter().chain(data.marked_edges) {
            if let Some((bits, first)) = bits_of(name) {
                marked.insert(bits, first);
            }
        }
        let mut center_mark = vec![None; faces.len()];
        for name in data.center_marks {
            if let Some(parts) = split_face_names(name, &names) {
                center_mark[parts[0]] = Some(parts[1]);
            }
        }
        let mut solid = Solid {
            shape,
            rotations,
            faces,
            face_rotations,
            vertices: Vec::new(),
            edges: Vec::new(),
            vertex_distance: 0.0,
            edge_distance: 0.0,
            marked,
            center_mark,
            first_vertex: Vec3::default(),
            first_edge: Vec3::default(),
        };
        solid.name_features(data);
        solid
    }

    /// The faces, in index order.
    pub fn faces(&self) -> &[SolidFace] {
        &self.faces
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Feature] {
        &self.vertices
    }

    /// The edges.
    pub fn edges(&self) -> &[Feature] {
        &self.edges
    }

    /// The index of the face called `name`.
    pub fn face_index(&self, name: &str) -> Option<usize> {
        self.faces.iter().position(|f| f.name == name)
    }

    /// The marked face of a piece showing the faces in `bits`; when the
    /// conventions say nothing, the lowest face.
    pub(crate) fn marked_face(&self, bits: u32) -> usize {
        self.marked
            .get(&bits)
            .copied()
            .unwrap_or(bits.trailing_zeros() as usize)
    }

    /// The face whose outward normal is `n`, if any.
    pub(crate) fn face_with_normal(&self, n: Vec3) -> Option<usize> {
        self.faces.iter().position(|f| f.normal.near(n, MATCH_EPS))
    }

    fn name_features(&mut self, data: &ShapeData) {
        let nf = self.faces.len();
        // Vertices: every polygon corner, once, with the faces meeting there.
        let mut vertices: Vec<(Vec3, Vec<usize>)> = Vec::new();
        let mut edges: Vec<(Vec3, Vec<usize>)> = Vec::new();
        for (fi, face) in self.faces.iter().enumerate() {
            let n = face.polygon.len();
            for j in 0..n {
                let p = face.polygon[j];
                match vertices.iter_mut().find(|(q, _)| q.near(p, MATCH_EPS)) {
                    Some((_, fs)) => fs.push(fi),
                    None => vertices.push((p, vec![fi])),
                }
                let m = (p + face.polygon[(j + 1) % n]) * 0.5;
                match edges.iter_mut().find(|(q, _)| q.near(m, MATCH_EPS)) {
                    Some((_, fs)) => fs.push(fi),
                    None => edges.push((m, vec![fi])),
                }
            }
        }
        self.vertex_distance = vertices[0].0.norm();
        self.edge_distance = edges[0].0.norm();
        let bits = |fs: &[usize]| fs.iter().map(|&f| 1u32 << f).sum::<u32>();
        // A vertex is named by its marked face, then the other faces
        // clockwise about the vertex direction (in these coordinates).
        self.vertices = vertices
            .into_iter()
            .map(|(p, fs)| {
                let d = p.normalized();
                let e1 = d.perpendicular();
                let e2 = d.cross(e1);
                let mut by_angle: Vec<(f64, usize)> = fs
                    .iter()
                    .map(|&f| {
                        let n = self.faces[f].normal;
                        (n.dot(e2).atan2(n.dot(e1)), f)
                    })
                    .collect();
                by_angle.sort_by(|a, b| b.0.total_cmp(&a.0));
                let mut order: Vec<usize> = by_angle.into_iter().map(|(_, f)| f).collect();
                let first = self.marked_face(bits(&order));
                let at = order.iter().position(|&f| f == first).unwrap_or(0);
                order.rotate_left(at);
                Feature {
                    name: order.iter().map(|&f| self.faces[f].name.as_str()).collect(),
                    direction: d,
                    point: p,
                    faces: order,
                }
            })
            .collect();
        // An edge is named by its marked face, then the other; without a
        // convention the later face comes first.
        self.edges = edges
            .into_iter()
            .map(|(p, mut fs)| {
                fs.sort_unstable();
                let b = bits(&fs);
                let order = if self.marked.get(&b) == Some(&fs[0]) {
                    vec![fs[0], fs[1]]
                } else {
                    vec![fs[1], fs[0]]
                };
                Feature {
                    name: order.iter().map(|&f| self.faces[f].name.as_str()).collect(),
                    direction: p.normalized(),
                    point: p,
                    faces: order,
                }
            })
            .collect();
        debug_assert!(self.edges.iter().all(|e| e.faces.len() == 2));
        debug_assert!(nf == data.face_names.len());
        self.first_vertex = snap(&self.vertices, data.vertex_hint);
        self.first_edge = snap(&self.edges, data.edge_hint);
    }
}

/// The feature direction closest to `hint`.
fn snap(features: &[Feature], hint: Vec3) -> Vec3 {
    let hint = hint.normalized();
    features
        .iter()
        .map(|f| f.direction)
        .max_by(|a, b| a.dot(hint).total_cmp(&b.dot(hint)))
        .unwrap_or(hint)
}

/// The corners of face 0 of the solid whose unit face normals are
/// `normals` (every face plane at distance 1), counterclockwise.
fn face_polygon(normals: &[Vec3]) -> Vec<Vec3> {
    let n0 = normals[0];
    let mut pts: Vec<Vec3> = Vec::new();
    for i in 1..normals.len() {
        for j in i + 1..normals.len() {
            let Some(p) = intersect3(n0, normals[i], normals[j]) else {
                continue;
            };
            if normals.iter().all(|n| n.dot(p) <= 1.0 + 1e-9)
                && !pts.iter().any(|q| q.near(p, MATCH_EPS))
            {
                pts.push(p);
            }
        }
    }
    sort_ccw(&mut pts, n0);
    pts
}

/// The point on the three planes `n·x = 1`, if they meet in one point.
fn intersect3(a: Vec3, b: Vec3, c: Vec3) -> Option<Vec3> {
    let det = a.dot(b.cross(c));
    if det.abs() < 1e-9 {
        return None;
    }
    // Cramer's rule with right-hand side (1, 1, 1).
    Some((b.cross(c) + c.cross(a) + a.cross(b)) * (1.0 / det))
}

/// Sorts points counterclockwise about `normal`.
pub(crate) fn sort_ccw(pts: &mut [Vec3], normal: Vec3) {
    let c = Vec3::mean(pts);
    let e1 = normal.perpendicular();
    let e2 = normal.cross(e1);
    pts.sort_by(|p, q| {
        let a = (*p - c).dot(e2).atan2((*p - c).dot(e1));
        let b = (*q - c).dot(e2).atan2((*q - c).dot(e1));
        a.total_cmp(&b)
    });
}

/// Splits a run of face names (`BLBF`, or with underscores `BL_BF`) into
/// face indices, longest name first; `None` if it does not split.
pub(crate) fn split_face_names(s: &str, names: &[&str]) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        if !out.is_empty() {
            rest = rest.strip_prefix('_').unwrap_or(rest);
        }
        let (i, name) = names
            .iter()
            .enumerate()
            .filter(|(_, n)| !n.is_empty() && rest.starts_with(**n))
            .max_by_key(|(_, n)| n.len())?;
        out.push(i);
        rest = &rest[name.len()..];
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(shape: Shape) -> Solid {
        Solid::new(shape)
    }

    #[test]
    fn faces_vertices_edges_satisfy_euler() {
        for (shape, f, v, e, k) in [
            (Shape::Tetrahedron, 4, 4, 6, 3),
            (Shape::Cube, 6, 8, 12, 4),
            (Shape::Octahedron, 8, 6, 12, 3),
            (Shape::Dodecahedron, 12, 20, 30, 5),
            (Shape::Icosahedron, 20, 12, 30, 3),
        ] {
            let s = solid(shape);
            assert_eq!(s.faces.len(), f, "{shape:?}");
            assert_eq!(s.vertices.len(), v, "{shape:?}");
            assert_eq!(s.edges.len(), e, "{shape:?}");
            assert!(s.faces.iter().all(|x| x.polygon.len() == k));
            assert_eq!(s.rotations.len(), 2 * e, "{shape:?}");
        }
    }

    #[test]
    fn cube_names_follow_the_conventions() {
        let s = solid(Shape::Cube);
        let mut v: Vec<&str> = s.vertices.iter().map(|x| x.name.as_str()).collect();
        v.sort_unstable();
        assert_eq!(v, ["DBR", "DFL", "DLB", "DRF", "UBL", "UFR", "ULF", "URB"]);
        let mut e: Vec<&str> = s.edges.iter().map(|x| x.name.as_str()).collect();
        e.sort_unstable();
        assert_eq!(
            e,
            ["BL", "BR", "DB", "DF", "DL", "DR", "FL", "FR", "UB", "UF", "UL", "UR"]
        );
        // Opposite faces.
        let opp = |a: &str| {
            let n = s.faces[s.face_index(a).unwrap()].normal;
            s.faces[s.face_with_normal(-n).unwrap()].name.clone()
        };
        assert_eq!(opp("U"), "D");
        assert_eq!(opp("F"), "B");
        assert_eq!(opp("L"), "R");
    }

    #[test]
    fn nets_only_join_adjacent_faces() {
        for shape in [
            Shape::Tetrahedron,
            Shape::Cube,
            Shape::Octahedron,
            Shape::Dodecahedron,
            Shape::Icosahedron,
        ] {
            let s = solid(shape);
            let (root, below, tree) = shape_data(shape).net;
            let adjacent = |a: &str, b: &str| {
                let (a, b) = (s.face_index(a).unwrap(), s.face_index(b).unwrap());
                s.edges
                    .iter()
                    .any(|e| e.faces.contains(&a) && e.faces.contains(&b))
            };
            assert!(adjacent(root, below));
            for (child, parent) in tree {
                assert!(adjacent(child, parent), "{shape:?} {child} {parent}");
            }
            assert_eq!(tree.len() + 1, s.faces.len());
        }
    }

    #[test]
    fn dodecahedron_and_icosahedron_vertex_names() {
        let d = solid(Shape::Dodecahedron);
        assert!(d.vertices.iter().any(|v| v.name == "UFR"));
        assert!(d.vertices.iter().any(|v| v.name == "BFBLBR"));
        let i = solid(Shape::Icosahedron);
        assert!(i.vertices.iter().any(|v| v.name == "FREGU"));
        assert!(i.vertices.iter().any(|v| v.name == "DHCAN"));
    }
}
