//! Community notation on generated puzzles.
//!
//! A generated puzzle names its moves as PuzzleGeometry does (`F`, `2F`,
//! `DRF`, `BF`). People write other things: SiGN on cubes (`Rw`, `3Rw`,
//! `2-3Rw`, `r`, `M`, `x`), Pochmann moves on the megaminx (`R++ D--`) and
//! its face names (`DR`, `B`), pyraminx and skewb letters, `T` on the FTO.
//! [`GeometryNotation`] implements [`twistor_core::MoveNotation`]: a move
//! is first rewritten as the puzzle family's convention says (the same
//! mappings cubing.js applies), then read as a grip (a face, edge or
//! vertex, matched by its faces in any order) with a layer range, and
//! finally expressed with the puzzle's own moves.
//!
//! Every turn about one axis is a sum of "prefix blocks" (the layers from
//! the named end down to some depth), so a layer range `[a, b]` is the
//! block to `b` minus the block to `a - 1`. Each move the puzzle has is an
//! edge between two such block depths; a range is expressible exactly when
//! its two depths are connected, and a shortest path gives the moves. Whole
//! puzzle rotations about other directions are words in the axis
//! rotations, found by a breadth-first search of the rotation group.

use std::collections::VecDeque;
use std::sync::OnceLock;

use twistor_core::{MoveNotation, Puzzle};

use crate::descriptor::{CutKind, Descriptor, Shape};
use crate::math::Quat;
use crate::solid::{split_face_names, Solid};

/// A rotation group and its multiplication table.
struct GroupTable {
    elements: Vec<Quat>,
    /// `product[a * n + b]` is the index of `elements[a] * elements[b]`.
    product: Vec<u16>,
}

/// The rotation group of a solid with its multiplication table, built once.
fn group_table(shape: Shape) -> &'static GroupTable {
    static TABLES: OnceLock<Vec<GroupTable>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        Shape::ALL
            .into_iter()
            .map(|s| {
                let elements = crate::build::solid(s).rotations.clone();
                let n = elements.len();
                let mut product = Vec::with_capacity(n * n);
                for a in &elements {
                    for b in &elements {
                        let q = *a * *b;
                        let k = elements
                            .iter()
                            .position(|e| e.same_rotation(q))
                            .unwrap_or(0);
                        product.push(k as u16);
                    }
                }
                GroupTable { elements, product }
            })
            .collect()
    });
    &tables[shape.index()]
}

/// How many rotations of the solid the turns `gens` generate.
pub(crate) fn generated_order(shape: Shape, gens: &[Quat]) -> usize {
    let table = group_table(shape);
    let n = table.elements.len();
    let gens: Vec<usize> = gens
        .iter()
        .filter_map(|&q| table.elements.iter().position(|g| g.same_rotation(q)))
        .collect();
    let Some(id) = table
        .elements
        .iter()
        .position(|g| g.same_rotation(Quat::IDENTITY))
    else {
        return 0;
    };
    let mut seen = vec![false; n];
    seen[id] = true;
    let mut queue = VecDeque::from([id]);
    let mut count = 1;
    while let Some(i) = queue.pop_front() {
        for &g in &gens {
            let j = table.product[g * n + i] as usize;
            if !seen[j] {
                seen[j] = true;
                count += 1;
                queue.push_back(j);
            }
        }
    }
    count
}

/// The order of the solid's whole rotation group.
pub(crate) fn group_order(shape: Shape) -> usize {
    group_table(shape).elements.len()
}

/// How a puzzle family's notation is rewritten into grips.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Mapper {
    /// Grips as they are.
    Plain,
    /// NxNxN cubes: SiGN `x y z`, `M E S` on odd cubes, `m e s`.
    Cube {
        /// Layers per axis.
        layers: u32,
    },
    /// The skewb's face-letter corner names.
    Skewb,
    /// The pyraminx: `U L R B` two layers, `u l r b` tips.
    Pyraminx,
    /// Other tetrahedral puzzles with vertex or face cuts.
    Tetraminx,
    /// Face names as people use them (dodecahedron and octahedron).
    Renamed {
        /// External name of each face, by face index.
        external: &'static [&'static str],
        /// The megaminx's `R++`, `D--` and `y`.
        megaminx: bool,
        /// The FTO's `T`.
        fto: bool,
    },
}

const DODECAHEDRON_NAMES: &[&str] = &[
    "U", "F", "L", "BL", "BR", "R", "FR", "FL", "DL", "B", "DR", "D",
];
const OCTAHEDRON_NAMES: &[&str] = &["F", "D", "L", "BL", "R", "U", "BR", "B"];

impl Mapper {
    /// The mapping PuzzleGeometry attaches to this descriptor. `first_axis`
    /// is the sorted plane distances of the first axis, `face_layers` the
    /// layers of a face axis (if any).
    pub(crate) fn for_descriptor(
        desc: &Descriptor,
        first_axis: &[f64],
        face_layers: Option<u32>,
    ) -> Mapper {
        let (f, v, e) = (
            desc.has(CutKind::Face),
            desc.has(CutKind::Vertex),
            desc.has(CutKind::Edge),
        );
        match desc.shape {
            Shape::Cube if f && !v && !e => Mapper::Cube {
                layers: face_layers.unwrap_or(1),
            },
            Shape::Cube if v && !f && !e && first_axis.len() == 1 => Mapper::Skewb,
            Shape::Tetrahedron if (v || f) && !e => {
                let pyraminx = first_axis.len() == 2
                    && (first_axis[0] - 1.0 / 3.0).abs() < 1e-9
                    && (first_axis[1] - 5.0 / 3.0).abs() < 1e-9;
                if pyraminx {
                    Mapper::Pyraminx
                } else {
                    Mapper::Tetraminx
                }
            }
            Shape::Octahedron if f => Mapper::Renamed {
                external: OCTAHEDRON_NAMES,
                megaminx: false,
                fto: !(v || e) && face_layers == Some(3),
            },
            Shape::Dodecahedron if f => Mapper::Renamed {
                external: DODECAHEDRON_NAMES,
                megaminx: face_layers == Some(3),
                fto: false,
            },
            _ => Mapper::Plain,
        }
    }

    /// Rewrites one move (family and layers) into a grip move and an
    /// amount multiplier; `None` when the family's notation has no such move.
    fn to_internal(
        &self,
        solid: &Solid,
        family: &str,
        outer: Option<u32>,
        inner: Option<u32>,
    ) -> Option<GripMove> {
        let plain = |f: &str| GripMove {
            family: f.to_string(),
            outer,
            inner,
            multiplier: 1,
        };
        let bare = outer.is_none() && inner.is_none();
        match self {
            // On any cube-shaped puzzle SiGN's rotations mean what they
            // mean on the cube: `x` turns the whole puzzle as `R` turns.
            Mapper::Plain if bare && solid.shape == Shape::Cube => Some(plain(match family {
                "x" => "Rv",
                "y" => "Uv",
                "z" => "Fv",
                _ => family,
            })),
            Mapper::Plain => Some(plain(family)),
            Mapper::Cube { layers } => {
                let n = *layers;
                let slice = |f: &str, depth: u32| GripMove {
                    family: f.to_string(),
                    outer: None,
                    inner: Some(depth),
                    multiplier: 1,
                };
                let range = |f: &str| GripMove {
                    family: f.to_string(),
                    outer: Some(2),
                    inner: Some(n - 1),
                    multiplier: 1,
                };
                Some(match family {
                    "x" if bare => plain("Rv"),
                    "y" if bare => plain("Uv"),
                    "z" if bare => plain("Fv"),
                    "E" if bare && n % 2 == 1 => slice("D", n.div_ceil(2)),
                    "M" if bare && n % 2 == 1 => slice("L", n.div_ceil(2)),
                    "S" if bare && n % 2 == 1 => slice("F", n.div_ceil(2)),
                    "e" if bare && n > 2 => range("D"),
                    "m" if bare && n > 2 => range("L"),
                    "s" if bare && n > 2 => range("F"),
                    _ => plain(family),
                })
            }
            Mapper::Skewb => {
                if !bare {
                    return None;
                }
                let to = match family {
                    "U" => "UBL",
                    "UL" => "ULF",
                    "F" => "UFR",
                    "UR" => "URB",
                    "B" => "DBL",
                    "D" => "DFR",
                    "L" => "DLF",
                    "R" => "DRB",
                    "Uv" => "UBLv",
                    "ULv" => "ULFv",
                    "Fv" => "UFRv",
                    "URv" => "URBv",
                    "Bv" => "DBLv",
                    "Dv" => "DFRv",
                    "Lv" => "DLFv",
                    "Rv" => "DRBv",
                    "x" => "Rv",
                    "y" => "Uv",
                    "z" => "Fv",
                    _ => return None,
                };
                Some(plain(to))
            }
            Mapper::Pyraminx | Mapper::Tetraminx => {
                let pyraminx = *self == Mapper::Pyraminx;
                let to = match family {
                    "U" if pyraminx => "frl",
                    "L" if pyraminx => "fld",
                    "R" if pyraminx => "fdr",
                    "B" if pyraminx => "dlr",
                    "u" if pyraminx => "FRL",
                    "l" if pyraminx => "FLD",
                    "r" if pyraminx => "FDR",
                    "b" if pyraminx => "DLR",
                    "U" => "FRL",
                    "L" => "FLD",
                    "R" => "FDR",
                    "B" => "DLR",
                    "u" => "frl",
                    "l" => "fld",
                    "r" => "fdr",
                    "b" => "dlr",
                    "d" if !pyraminx => "d",
                    "f" if !pyraminx => "f",
                    "bl" if !pyraminx => "l",
                    "br" if !pyraminx => "r",
                    "Uv" => "FRLv",
                    "Lv" => "FLDv",
                    "Rv" => "FDRv",
                    "Bv" => "DLRv",
                    "D" => "D",
                    "F" => "F",
                    "BL" => "L",
                    "BR" => "R",
                    "y" if bare => {
                        return Some(GripMove {
                            family: "Dv".into(),
                            outer,
                            inner,
                            multiplier: -1,
                        })
                    }
                    _ => return None,
                };
                Some(plain(to))
            }
            Mapper::Renamed {
                external,
                megaminx,
                fto,
            } => {
                if *megaminx && bare {
                    let pochmann = |f: &str| GripMove {
                        family: f.to_string(),
                        outer: Some(2),
                        inner: Some(3),
                        multiplier: -2,
                    };
                    match family {
                        "R_PLUSPLUS_" => return Some(pochmann("L")),
                        "D_PLUSPLUS_" => return Some(pochmann("U")),
                        "y" => return Some(plain("Uv")),
                        _ => {}
                    }
                }
                if *fto && bare && family == "T" {
                    return Some(plain("FLRv"));
                }
                let internal: Vec<&str> = solid.faces.iter().map(|f| f.name.as_str()).collect();
                rename(family, external, &internal).map(|f| GripMove {
                    family: f,
                    outer,
                    inner,
                    multiplier: 1,
                })
            }
        }
    }
}

/// `grip` (in `from` face names) in `to` face names, its faces in every
/// order but the written one (at most three faces; none for others).
fn reorderings(grip: &str, from: &[&str], to: &[&str]) -> Vec<String> {
    let Some(parts) = split_face_names(grip, from) else {
        return Vec::new();
    };
    let orders: &[&[usize]] = match parts.len() {
        2 => &[&[1, 0]],
        3 => &[&[0, 2, 1], &[1, 0, 2], &[1, 2, 0], &[2, 0, 1], &[2, 1, 0]],
        _ => &[],
    };
    orders
        .iter()
        .map(|order| order.iter().map(|&j| to[parts[j]]).collect())
        .collect()
}

/// Rewrites a grip written with `from` face names into `to` face names
/// (same face indices), keeping a `v` or `w` suffix and lower case.
fn rename(grip: &str, from: &[&str], to: &[&str]) -> Option<String> {
    let (body, suffix) = match grip.strip_suffix('v').or_else(|| grip.strip_suffix('w')) {
        Some(b) if b.starts_with(|c: char| c.is_ascii_uppercase()) => (b, &grip[grip.len() - 1..]),
        _ => (grip, ""),
    };
    let upper = body.to_ascii_uppercase();
    let lower = upper != body;
    let parts = split_face_names(&upper, from)?;
    let mut out: String = parts.iter().map(|&i| to[i]).collect::<Vec<_>>().join("");
    if lower {
        out = out.to_ascii_lowercase();
    }
    out.push_str(suffix);
    Some(out)
}

/// A move as a grip: a family naming a face, edge or vertex, layers, and
/// how many of its turns one unit of the original move is.
#[derive(Clone, Debug, PartialEq)]
struct GripMove {
    family: String,
    outer: Option<u32>,
    inner: Option<u32>,
    multiplier: i32,
}

/// What a move turns, before it is expressed with the puzzle's moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GripTurn {
    /// Slices `lo..=hi` of an axis (0 at its own end), `turns` times its way.
    Range {
        axis: usize,
        lo: usize,
        hi: usize,
        turns: i32,
    },
    /// The whole puzzle about a direction, by the smallest symmetric turn.
    Rotation {
        direction: crate::math::Vec3,
        turns: i32,
    },
}

/// One move of the puzzle as an edge between block depths on an axis.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockEdge {
    /// Depth node `lo` (the block above the range's first layer).
    pub lo: usize,
    /// Depth node `hi + 1`.
    pub hi: usize,
    /// Index in [`Puzzle::moves`].
    pub mv: usize,
    /// +1 if the move turns its layers the axis's way, -1 if the other.
    pub sign: i32,
}

/// What the notation needs to know about one axis.
#[derive(Clone, Debug)]
pub(crate) struct AxisNotation {
    /// Number of cut planes (layers are one more).
    pub planes: usize,
    /// Feature name at the axis's own end.
    pub pos: String,
    /// Feature name at the other end.
    pub neg: String,
    /// The puzzle's moves about this axis.
    pub edges: Vec<BlockEdge>,
    /// The axis's turn as a rotation.
    pub turn: Quat,
}

/// A named grip: a face, edge or vertex and its direction.
#[derive(Clone, Debug)]
struct Grip {
    name: String,
    faces: Vec<usize>,
    direction: crate::math::Vec3,
}

/// Community notation for a generated puzzle; see the module documentation.
#[derive(Debug)]
pub struct GeometryNotation {
    mapper: Mapper,
    shape: Shape,
    face_names: Vec<String>,
    grips: Vec<Grip>,
    axes: Vec<AxisNotation>,
    /// Rotation group elements (in the order of [`group_table`]).
    group: Vec<Quat>,
    /// For each group element, the moves that perform it (if reachable).
    words: Vec<Option<Vec<(usize, i32)>>>,
}

impl GeometryNotation {
    pub(crate) fn new(solid: &Solid, mapper: Mapper, axes: Vec<AxisNotation>) -> GeometryNotation {
        let mut grips: Vec<Grip> = solid
            .faces
            .iter()
            .enumerate()
            .map(|(i, f)| Grip {
                name: f.name.clone(),
                faces: vec![i],
                direction: f.normal,
            })
            .collect();
        for e in solid.edges.iter().chain(&solid.vertices) {
            grips.push(Grip {
                name: e.name.clone(),
                faces: e.faces.clone(),
                direction: e.direction,
            });
        }
        let mut n = GeometryNotation {
            mapper,
            shape: solid.shape,
            face_names: solid.faces.iter().map(|f| f.name.clone()).collect(),
            grips,
            axes,
            group: group_table(solid.shape).elements.clone(),
            words: Vec::new(),
        };
        n.words = n.rotation_words();
        n
    }

    /// Breadth-first words in the axis turns for every rotation.
    fn rotation_words(&self) -> Vec<Option<Vec<(usize, i32)>>> {
        let table = group_table(self.shape);
        let n = table.elements.len();
        let find = |q: Quat| table.elements.iter().position(|g| g.same_rotation(q));
        let mut gens: Vec<(usize, Vec<(usize, i32)>)> = Vec::new();
        for (k, a) in self.axes.iter().enumerate() {
            if let Some(path) = self.block_path(k, 0, a.planes + 1) {
                let inverse: Vec<(usize, i32)> = path.iter().map(|&(m, x)| (m, -x)).collect();
                for (q, w) in [(a.turn, path), (a.turn.conj(), inverse)] {
                    if let Some(g) = find(q) {
                        if !gens.iter().any(|(h, _)| *h == g) {
                            gens.push((g, w));
                        }
                    }
                }
            }
        }
        let mut words: Vec<Option<Vec<(usize, i32)>>> = vec![None; n];
        let Some(id) = find(Quat::IDENTITY) else {
            return words;
        };
        words[id] = Some(Vec::new());
        let mut queue = VecDeque::from([id]);
        while let Some(i) = queue.pop_front() {
            for (g, w) in &gens {
                // Doing element i then generator g is the rotation g·i.
                let j = table.product[g * n + i] as usize;
                if words[j].is_none() {
                    let mut word = words[i].clone().unwrap_or_default();
                    word.extend_from_slice(w);
                    words[j] = Some(word);
                    queue.push_back(j);
                }
            }
        }
        words
    }

    /// Moves that turn the block from depth node `from` to depth node `to`
    /// (layers `from..to`, 0-based from the axis's own end) once the axis's
    /// way: a shortest path in the block graph.
    pub(crate) fn block_path(
        &self,
        axis: usize,
        from: usize,
        to: usize,
    ) -> Option<Vec<(usize, i32)>> {
        let a = &self.axes[axis];
        let nodes = a.planes + 2;
        let mut prev: Vec<Option<(usize, usize, i32)>> = vec![None; nodes];
        let mut seen = vec![false; nodes];
        seen[from] = true;
        let mut queue = VecDeque::from([from]);
        while let Some(x) = queue.pop_front() {
            if x == to {
                break;
            }
            for e in &a.edges {
                let step = if e.lo == x {
                    Some((e.hi, e.sign))
                } else if e.hi == x {
                    Some((e.lo, -e.sign))
                } else {
                    None
                };
                if let Some((y, s)) = step {
                    if !seen[y] {
                        seen[y] = true;
                        prev[y] = Some((x, e.mv, s));
                        queue.push_back(y);
                    }
                }
            }
        }
        if !seen[to] {
            return None;
        }
        let mut out = Vec::new();
        let mut y = to;
        while y != from {
            let (x, mv, s) = prev[y]?;
            out.push((mv, s));
            y = x;
        }
        out.reverse();
        Some(out)
    }

    /// The face, edge or vertex a grip names, by its faces in any order
    /// (at least three of a vertex's faces suffice).
    fn grip(&self, name: &str) -> Option<&Grip> {
        if let Some(g) = self.grips.iter().find(|g| g.name == name) {
            return Some(g);
        }
        let names: Vec<&str> = self.face_names.iter().map(String::as_str).collect();
        let parts = split_face_names(name, &names)?;
        for (i, p) in parts.iter().enumerate() {
            if parts[..i].contains(p) {
                return None;
            }
        }
        self.grips.iter().find(|g| {
            (parts.len() == g.faces.len() || parts.len() >= 3)
                && parts.iter().all(|p| g.faces.contains(p))
        })
    }

    /// The moves one unit of a move means, or `None`.
    pub fn moves_for(
        &self,
        family: &str,
        outer: Option<u32>,
        inner: Option<u32>,
    ) -> Option<Vec<(usize, i32)>> {
        let scale = |v: Vec<(usize, i32)>, k: i32| v.into_iter().map(|(m, a)| (m, a * k)).collect();
        match self.grip_turn(family, outer, inner)? {
            GripTurn::Rotation { direction, turns } => {
                self.rotation_about(direction).map(|w| scale(w, turns))
            }
            GripTurn::Range {
                axis,
                lo,
                hi,
                turns,
            } => self.block_path(axis, lo, hi + 1).map(|p| scale(p, turns)),
        }
    }

    /// What one unit of a move turns: a range of slices on an axis, or
    /// the whole puzzle about a direction.
    pub(crate) fn grip_turn(
        &self,
        family: &str,
        outer: Option<u32>,
        inner: Option<u32>,
    ) -> Option<GripTurn> {
        let solid = crate::build::solid(self.shape);
        let g = self.mapper.to_internal(solid, family, outer, inner)?;
        let starts_upper = g.family.starts_with(|c: char| c.is_ascii_uppercase());
        if let (Some(body), true) = (g.family.strip_suffix('v'), starts_upper) {
            if g.outer.is_some() || g.inner.is_some() {
                return None;
            }
            let grip = self.grip(&body.to_ascii_uppercase())?;
            return Some(GripTurn::Rotation {
                direction: grip.direction,
                turns: g.multiplier,
            });
        }
        let mut grip_name = g.family.clone();
        if let (Some(body), true) = (g.family.strip_suffix('w'), starts_upper) {
            grip_name = body.to_ascii_lowercase();
        }
        let lower = grip_name.to_ascii_uppercase() != grip_name;
        let grip = self.grip(&grip_name.to_ascii_uppercase())?;
        let (k, own_end) = self.axes.iter().enumerate().find_map(|(k, a)| {
            if a.pos == grip.name {
                Some((k, true))
            } else if a.neg == grip.name {
                Some((k, false))
            } else {
                None
            }
        })?;
        let planes = self.axes[k].planes as i64;
        let mut lo: i64 = 1;
        let mut hi: i64 = if lower { 2 } else { 1 };
        if let Some(o) = g.outer {
            lo = o as i64;
        }
        if let Some(i) = g.inner {
            hi = i as i64;
            if g.outer.is_none() {
                lo = if lower { 1 } else { hi };
            }
        }
        let (lo, hi) = (lo - 1, hi - 1);
        if lo < 0 || hi > planes || lo > hi || (lo == 0 && hi == planes) {
            return None;
        }
        let (lo, hi, dir) = if own_end {
            (lo, hi, 1)
        } else {
            (planes - hi, planes - lo, -1)
        };
        Some(GripTurn::Range {
            axis: k,
            lo: lo as usize,
            hi: hi as usize,
            turns: dir * g.multiplier,
        })
    }

    /// Moves performing the whole-puzzle rotation about `direction` by the
    /// smallest turn the solid allows, counterclockwise.
    pub(crate) fn rotation_about(&self, direction: crate::math::Vec3) -> Option<Vec<(usize, i32)>> {
        let d = direction.normalized();
        let order = 1 + self
            .group
            .iter()
            .filter(|r| !r.is_identity() && r.v.norm() > 1e-9)
            .filter(|r| r.v.normalized().dot(d).abs() > 1.0 - 1e-9)
            .count();
        let q = Quat::about(d, 2.0 * std::f64::consts::PI / order as f64);
        let i = self.group.iter().position(|g| g.same_rotation(q))?;
        self.words[i].clone()
    }
}

impl GeometryNotation {
    /// The moves people of this puzzle's family search and write with,
    /// each with the puzzle's moves it stands for: the skewb's `R U L B`,
    /// the pyraminx's `U L R B` and tips `u l r b`, megaminx and FTO face
    /// names for each face turn. Empty when the puzzle's own move names
    /// are already the community's (cubes) or there is no convention.
    pub fn search_notation(&self, puzzle: &Puzzle) -> Vec<(String, Vec<(usize, i32)>)> {
        let words = |names: &[&str]| {
            names
                .iter()
                .filter_map(|n| Some((n.to_string(), self.moves_for(n, None, None)?)))
                .collect()
        };
        match &self.mapper {
            Mapper::Skewb => words(&["R", "U", "L", "B"]),
            Mapper::Pyraminx => words(&["U", "L", "R", "B", "u", "l", "r", "b"]),
            Mapper::Renamed { external, .. } => {
                let internal: Vec<&str> = self.face_names.iter().map(String::as_str).collect();
                let mut named: Vec<(String, Vec<(usize, i32)>)> = puzzle
                    .search_moves()
                    .into_iter()
                    .map(|i| {
                        let name = &puzzle.moves()[i].name;
                        let shown = rename(name, &internal, external).unwrap_or(name.clone());
                        (shown, vec![(i, 1)])
                    })
                    .collect();
                // Where two moves get one name (on a dodecahedron cut at its
                // edges, the face C is FR and so is the edge between F and
                // R), the one the name reads as keeps it; the other is
                // written with its faces in another order (RF), which reads
                // as it.
                for k in 0..named.len() {
                    let (name, word) = &named[k];
                    let shared = named.iter().filter(|(n, _)| n == name).count() > 1;
                    let reads_back = |n: &str| self.moves_for(n, None, None).as_ref() == Some(word);
                    if !shared || reads_back(name) {
                        continue;
                    }
                    let internal_name = &puzzle.moves()[word[0].0].name;
                    let other = reorderings(internal_name, &internal, external)
                        .into_iter()
                        .find(|n| reads_back(n) && !named.iter().any(|(m, _)| m == n));
                    if let Some(other) = other {
                        named[k].0 = other;
                    }
                }
                named
            }
            Mapper::Plain | Mapper::Cube { .. } | Mapper::Tetraminx => Vec::new(),
        }
    }
}

impl MoveNotation for GeometryNotation {
    fn resolve(
        &self,
        _puzzle: &Puzzle,
        family: &str,
        outer_layer: Option<u32>,
        inner_layer: Option<u32>,
    ) -> Option<Vec<(usize, i32)>> {
        self.moves_for(family, outer_layer, inner_layer)
    }

    fn name_of(&self, puzzle: &Puzzle, index: usize) -> Option<String> {
        let name = &puzzle.moves().get(index)?.name;
        let listed = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
        let candidates: Vec<String> = match &self.mapper {
            Mapper::Skewb => listed(&["R", "U", "L", "B", "UL", "F", "UR", "D"]),
            Mapper::Pyraminx | Mapper::Tetraminx => listed(&[
                "U", "L", "R", "B", "u", "l", "r", "b", "D", "F", "BL", "BR", "d", "f", "bl", "br",
            ]),
            Mapper::Renamed { external, .. } => {
                let internal: Vec<&str> = self.face_names.iter().map(String::as_str).collect();
                rename(name, &internal, external)
                    .into_iter()
                    .chain(reorderings(name, &internal, external))
                    .collect()
            }
            Mapper::Plain | Mapper::Cube { .. } => return None,
        };
        let once = [(index, 1)];
        candidates
            .into_iter()
            .find(|c| self.moves_for(c, None, None).as_deref() == Some(&once[..]))
            .filter(|c| c != name)
    }
}

#[cfg(test)]
mod tests;
