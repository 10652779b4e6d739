//! Turning a geometry into a puzzle definition: which moves, which
//! orbits, their transformations, and the notation that goes with them.
//!
//! The default move set is PuzzleGeometry's: on every axis, every single
//! slice except an exact middle one (so the 3x3x3 has `F B D U L R` and the
//! 5x5x5 `F 2F 2B B ...`); [`PuzzleOptions::all_moves`] adds the middle
//! slices. Only orbits some move touches are kept unless asked otherwise
//! (the rotations added for notation count: an orbit the notation can turn
//! is never left out, so no move's effect on it is silently lost).
//! Move names follow PuzzleGeometry: a slice is named from the nearer end
//! (`2F`, `2B`), wide blocks are lower case (`f`, `3f`) and whole-puzzle
//! turns end in `v` (`Fv`).

use std::sync::Arc;

use twistor_core::{
    Layout, MoveDef, MoveKind, Orbit, Pattern, PatternOrbit, Puzzle, Transformation, MAX_PIECES,
};

use crate::build::{Axis, FeatureKind, Geometry};
use crate::descriptor::{Cut, CutKind, Descriptor};
use crate::notation::{AxisNotation, BlockEdge, GeometryNotation, Mapper};
use crate::GeometryError;

/// A kind of piece, by how many stickers it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// Three or more stickers.
    Corner,
    /// Two stickers.
    Edge,
    /// One sticker.
    Center,
}

impl PieceKind {
    fn of(stickers: usize) -> PieceKind {
        match stickers {
            1 => PieceKind::Center,
            2 => PieceKind::Edge,
            _ => PieceKind::Corner,
        }
    }

    /// The kind's name in messages: `corner`, `edge` or `center`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            PieceKind::Corner => "corner",
            PieceKind::Edge => "edge",
            PieceKind::Center => "center",
        }
    }
}

/// Choices that shape a generated puzzle. The default is
/// PuzzleGeometry's command-line default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleOptions {
    /// Include middle slices (cubing.js `allMoves`).
    pub all_moves: bool,
    /// Blocks from the nearer end (`f`, `3f`) instead of single slices.
    pub outer_block_moves: bool,
    /// On tetrahedral axes, turn from the vertex end and leave the face layer still.
    pub vertex_moves: bool,
    /// Keep one piece of this kind still (the one on the down, back and
    /// left side where there is a choice): a move that would turn it is
    /// replaced by the move turning the rest of its axis, the same turn up
    /// to a whole-puzzle rotation. (PuzzleGeometry's `--fixcorner` instead
    /// keeps the moves that turn the piece it names; the group is the same.)
    pub fix: Option<PieceKind>,
    /// Give face-centre pieces an orientation.
    pub orient_centers: bool,
    /// Leave out pieces of these kinds.
    pub omit_kinds: Vec<PieceKind>,
    /// Leave out these orbits by name.
    pub omit_orbits: Vec<String>,
    /// Keep orbits no move touches (as cubing.js's KPuzzle definitions do).
    pub keep_still_orbits: bool,
    /// Add a whole-puzzle rotation about every kind of axis as a move, as
    /// PuzzleGeometry's `--rotations` does (pieces then form orbits under
    /// the full rotation group).
    pub rotations: bool,
    /// Add the whole-puzzle rotations community notation needs (`x`, `M`
    /// on odd cubes) as moves named `…v`, where the move set cannot make
    /// them. They are rotations, never search moves; orbits only they move
    /// (the 3x3x3's centres) are kept, so that what notation reaches
    /// through them (`M`, `x`) acts on every piece it turns. Where turns
    /// about the puzzle's own axes do not reach every rotation of the
    /// solid (the skewb's corner axes: no `x`; the FTO's face axes: no
    /// `T`), rotations about other axes are added too (the cube's face
    /// rotations, named `x y z` on the skewb, whose notation reads `Rv` as
    /// a corner rotation), and pieces then form orbits under the whole
    /// rotation group, as with [`PuzzleOptions::rotations`].
    pub notation_rotations: bool,
    /// Number every piece apart in the start state, as cubing.js's KPuzzle
    /// definitions do (PuzzleGeometry's `getKPuzzleDefinition`). By
    /// default one-sticker pieces on the same face share a label, as in
    /// PuzzleGeometry's ksolve output: they look alike, so a cube is
    /// solved whichever of them sits where.
    pub distinct_pieces: bool,
}

impl PuzzleOptions {
    /// The default options with [`PuzzleOptions::notation_rotations`]: a
    /// named puzzle as algs are read on it (`x y z` on every cube-shaped
    /// puzzle), as the command line, the scrambler and the tests build it.
    pub fn for_notation() -> PuzzleOptions {
        PuzzleOptions {
            notation_rotations: true,
            ..PuzzleOptions::default()
        }
    }
}

/// A move of a generated puzzle: a range of slices on an axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliceMove {
    /// Its name.
    pub name: String,
    /// The axis.
    pub axis: usize,
    /// First slice (0 at the axis's own end).
    pub lo: usize,
    /// Last slice.
    pub hi: usize,
    /// Whether it turns against the axis's own direction (named from the other end).
    pub inverted: bool,
}

impl SliceMove {
    /// The whole-puzzle rotation about axis `k`, named as PuzzleGeometry
    /// names it (`Fv`).
    fn whole_axis(k: usize, axis: &Axis) -> SliceMove {
        SliceMove {
            name: format!("{}v", axis.pos),
            axis: k,
            lo: 0,
            hi: axis.planes(),
            inverted: false,
        }
    }
}

/// A puzzle built from geometry: the geometry, the definition, and how
/// one maps to the other.
#[derive(Debug)]
pub struct GeneratedPuzzle {
    geometry: Geometry,
    options: PuzzleOptions,
    moves: Vec<SliceMove>,
    /// Geometry orbit index of each orbit in the definition.
    kept: Vec<usize>,
    puzzle: Puzzle,
    fixed: Option<usize>,
    notation: Arc<GeometryNotation>,
}

impl GeneratedPuzzle {
    /// Builds the puzzle a descriptor describes.
    pub fn from_descriptor(
        name: &str,
        descriptor: &Descriptor,
        options: &PuzzleOptions,
    ) -> Result<GeneratedPuzzle, GeometryError> {
        let mut desc = descriptor.clone();
        if options.rotations {
            add_rotation_axes(&mut desc);
        }
        let mut geometry = Geometry::new(&desc)?;
        // The descriptor's own axes; any after them only carry rotations
        // for notation (their cuts, outside the solid, come last).
        let cut_axes = geometry.axes.len();
        if options.notation_rotations
            && !options.rotations
            && options.fix.is_none()
            && !generates_all_rotations(&geometry, &geometry.axes)
        {
            // Turns about the puzzle's own axes do not reach every rotation
            // of the solid (the skewb's corner axes make only the 12 of a
            // tetrahedron, so no `x`): add the axes PuzzleGeometry adds for
            // `addRotations`. Pieces then form orbits under the whole
            // rotation group (the skewb's two sets of four corners become
            // one orbit of eight), numbered as cubing.js numbers them. (If
            // the extra planes are more than a descriptor may have, the
            // notation does without those rotations.)
            let mut extended = desc.clone();
            add_rotation_axes(&mut extended);
            if let Ok(g) = Geometry::new(&extended) {
                geometry = g;
            }
        }
        let fixed = match options.fix {
            Some(kind) => Some(choose_fixed(&geometry, kind)?),
            None => None,
        };
        let mut moves = Vec::new();
        for (k, axis) in geometry.axes.iter().enumerate().take(cut_axes) {
            for (lo, hi) in axis_ranges(
                axis,
                options,
                fixed
                    .zip(options.fix)
                    .map(|(c, kind)| (geometry.cubies[c].slices[k] as usize, kind)),
            )? {
                let (name, inverted) = move_name(axis, lo, hi);
                moves.push(SliceMove {
                    name,
                    axis: k,
                    lo,
                    hi,
                    inverted,
                });
            }
        }
        let orientations: Vec<usize> = geometry
            .orbits
            .iter()
            .map(|o| {
                if options.orient_centers && o.face_centers {
                    geometry.solid.faces[0].polygon.len()
                } else {
                    o.stickers
                }
            })
            .collect();
        // The rotations notation needs are chosen before the orbits, and
        // count as moves there: notation reaches a middle slice through
        // them (`M` on the 3x3x3 is `L' R` and a rotation), and an orbit
        // only they move (the 3x3x3's centres) must be there to take it.
        if options.notation_rotations && fixed.is_none() {
            for (k, axis) in geometry.axes.iter().enumerate().take(cut_axes) {
                let m = SliceMove::whole_axis(k, axis);
                if turns_whole_axis(&moves, k, axis.planes())
                    || moves.iter().any(|o| o.name == m.name)
                {
                    continue;
                }
                moves.push(m);
            }
            // The added axes: their rotations kind by kind (face centres,
            // then vertices, then edge midpoints), until every rotation of
            // the solid is reached (the dino cube gets the cube's `Fv Dv
            // Lv`, the skewb the same turns named by SiGN, `z y x`).
            let mapper = mapper_for(&geometry, descriptor);
            let mut used: Vec<usize> = (0..cut_axes).collect();
            for kind in [FeatureKind::Face, FeatureKind::Vertex, FeatureKind::Edge] {
                if generates_all_rotations(&geometry, used.iter().map(|&k| &geometry.axes[k])) {
                    break;
                }
                for (k, axis) in geometry.axes.iter().enumerate().skip(cut_axes) {
                    if used.contains(&k) || (axis.pos_kind != kind && axis.neg_kind != kind) {
                        continue;
                    }
                    used.push(k);
                    let m = added_rotation(k, axis, &mapper);
                    if !moves.iter().any(|o| o.name == m.name) {
                        moves.push(m);
                    }
                }
            }
        }
        let kept = kept_orbits(&geometry, options, &moves)?;
        let layout = Layout::new(
            kept.iter()
                .map(|&o| {
                    let od = &geometry.orbits[o];
                    if od.cubies.len() > MAX_PIECES {
                        return Err(GeometryError::OrbitTooLarge {
                            orbit: od.name.clone(),
                            pieces: od.cubies.len(),
                            limit: MAX_PIECES,
                        });
                    }
                    Orbit::new(od.name.clone(), od.cubies.len(), orientations[o])
                        .map_err(GeometryError::Core)
                })
                .collect::<Result<Vec<_>, _>>()?,
        )
        .map_err(GeometryError::Core)?;
        let start = start_pattern(&geometry, &kept, &layout, options.distinct_pieces)?;
        let turns = Turns::new(&geometry, &kept, options.orient_centers);
        let mut puzzle = Puzzle::new(name, layout, start);
        for m in &moves {
            let t = turns.transformation(
                puzzle.layout(),
                m.axis,
                m.lo,
                m.hi,
                if m.inverted { -1 } else { 1 },
            );
            add_base_move(&mut puzzle, &m.name, t)?;
        }
        let notation = Arc::new(make_notation(&geometry, descriptor, &moves, &puzzle));
        puzzle.set_notation(notation.clone());
        Ok(GeneratedPuzzle {
            geometry,
            options: options.clone(),
            moves,
            kept,
            puzzle,
            fixed,
            notation,
        })
    }

    /// The definition, with its notation attached.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The definition, consuming the rest.
    pub fn into_puzzle(self) -> Puzzle {
        self.puzzle
    }

    /// The geometry behind it.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The options it was built with.
    pub fn options(&self) -> &PuzzleOptions {
        &self.options
    }

    /// Its moves as slice ranges, in definition order (rotations added for
    /// notation come last).
    pub fn slice_moves(&self) -> &[SliceMove] {
        &self.moves
    }

    /// The notation mapping attached to the definition.
    pub fn notation(&self) -> &Arc<GeometryNotation> {
        &self.notation
    }

    /// Names of the definition's moves that community notation reads as a
    /// different move (on the pyraminx, the community's `L` and `R` turn
    /// two layers about vertices, while PuzzleGeometry's `L` and `R` are
    /// face layers). The move resolver looks definition names up before
    /// the notation, so these names keep their definition meaning there.
    pub fn notation_conflicts(&self) -> Vec<String> {
        let layout = self.puzzle.layout();
        let mut out = Vec::new();
        for m in self.puzzle.moves() {
            let Ok(alg) = m.name.parse::<twistor_formats::alg::Alg>() else {
                continue;
            };
            let [twistor_formats::alg::AlgNode::Move(mv)] = alg.nodes() else {
                continue;
            };
            let Some(parts) = self
                .notation
                .moves_for(&mv.family, mv.outer_layer, mv.inner_layer)
            else {
                continue;
            };
            let mut t = layout.identity();
            for (i, k) in parts {
                t = layout.compose(
                    &t,
                    &layout.power(&self.puzzle.moves()[i].transformation, k as i64),
                );
            }
            let t = layout.power(&t, mv.amount as i64);
            if t != m.transformation {
                out.push(m.name.clone());
            }
        }
        out
    }

    /// The geometry orbit behind each orbit of the definition.
    pub fn kept_orbits(&self) -> &[usize] {
        &self.kept
    }

    /// The piece kept still, if any (a cubie index).
    pub fn fixed_piece(&self) -> Option<usize> {
        self.fixed
    }

    /// The transformation turning slices `lo..=hi` of `axis` by `turns`
    /// steps the axis's way, on the definition's orbits. Slices past the
    /// last are ignored.
    ///
    /// # Panics
    ///
    /// If `axis` is not an index into [`Geometry::axes`].
    pub fn range_transformation(
        &self,
        axis: usize,
        lo: usize,
        hi: usize,
        turns: i64,
    ) -> Transformation {
        Turns::new(&self.geometry, &self.kept, self.options.orient_centers).transformation(
            self.puzzle.layout(),
            axis,
            lo,
            hi,
            turns,
        )
    }
}

fn add_base_move(puzzle: &mut Puzzle, name: &str, t: Transformation) -> Result<(), GeometryError> {
    puzzle
        .add_move(MoveDef {
            name: name.to_string(),
            transformation: t,
            kind: MoveKind::Base,
            definition: None,
        })
        .map_err(GeometryError::Core)
}

/// Builds transformations of slice ranges on the kept orbits.
struct Turns<'a> {
    geometry: &'a Geometry,
    /// Definition orbit of each geometry orbit.
    slot: Vec<Option<usize>>,
    orient_centers: bool,
}

impl<'a> Turns<'a> {
    fn new(geometry: &'a Geometry, kept: &[usize], orient_centers: bool) -> Turns<'a> {
        let mut slot = vec![None; geometry.orbits.len()];
        for (j, &o) in kept.iter().enumerate() {
            slot[o] = Some(j);
        }
        Turns {
            geometry,
            slot,
            orient_centers,
        }
    }

    fn transformation(
        &self,
        layout: &Layout,
        axis: usize,
        lo: usize,
        hi: usize,
        turns: i64,
    ) -> Transformation {
        let g = self.geometry;
        let a = &g.axes[axis];
        let mut bytes = layout.identity_bytes();
        for s in lo..=hi.min(a.by_slice.len().saturating_sub(1)) {
            for &c in &a.by_slice[s] {
                let c = c as usize;
                let cubie = &g.cubies[c];
                let Some(j) = self.slot[cubie.orbit] else {
                    continue;
                };
                let im = a.images[c];
                let t = &g.cubies[im.target as usize];
                let off = layout.offset(j);
                let n = layout.orbits()[j].num_pieces();
                let m = layout.orbits()[j].num_orientations();
                bytes[off + t.index] = cubie.index as u8;
                let o = if m == 1 {
                    0
                } else if self.orient_centers && g.orbits[cubie.orbit].face_centers {
                    im.spin as usize
                } else {
                    im.ord as usize
                };
                bytes[off + n + t.index] = (o % m) as u8;
            }
        }
        let t =
            Transformation::from_bytes(layout, bytes).expect("turns permute pieces within orbits");
        let order = a.order as i64;
        match turns.rem_euclid(order) {
            1 => t,
            k if k == order - 1 => layout.invert(&t),
            k => layout.power(&t, k),
        }
    }
}

/// The notation for a puzzle with these moves.
fn make_notation(
    g: &Geometry,
    desc: &Descriptor,
    moves: &[SliceMove],
    puzzle: &Puzzle,
) -> GeometryNotation {
    let mut axes: Vec<AxisNotation> = g
        .axes
        .iter()
        .map(|a| AxisNotation {
            planes: a.planes(),
            pos: a.pos.clone(),
            neg: a.neg.clone(),
            edges: Vec::new(),
            turn: a.turn,
        })
        .collect();
    for m in moves {
        let Some(mv) = puzzle.find_move(&m.name) else {
            continue;
        };
        axes[m.axis].edges.push(BlockEdge {
            lo: m.lo,
            hi: m.hi + 1,
            mv,
            sign: if m.inverted { -1 } else { 1 },
        });
    }
    GeometryNotation::new(g.solid, mapper_for(g, desc), axes)
}

/// The community notation mapping for a puzzle with this geometry.
fn mapper_for(g: &Geometry, desc: &Descriptor) -> Mapper {
    let first_axis: Vec<f64> = g
        .axes
        .first()
        .map(|a| a.surfaces.iter().map(|s| s.level()).collect())
        .unwrap_or_default();
    let face_layers = g
        .axes
        .iter()
        .find(|a| a.pos_kind == FeatureKind::Face && a.neg_kind == FeatureKind::Face)
        .map(|a| a.slices() as u32);
    Mapper::for_descriptor(desc, &first_axis, face_layers)
}

/// The whole-puzzle rotation about an axis added for notation: `Fv` (as
/// PuzzleGeometry names it), except where the notation reads that name as
/// something else. The skewb's notation reads `Fv`, `Rv` and the other
/// face letters as its corner rotations, so its face rotations are named
/// by SiGN instead: `x`, `y`, `z` (the turns of `R`, `U` and `F`).
fn added_rotation(k: usize, axis: &Axis, mapper: &Mapper) -> SliceMove {
    let plain = SliceMove::whole_axis(k, axis);
    if *mapper != Mapper::Skewb {
        return plain;
    }
    let sign = |face: &str| match face {
        "R" => Some("x"),
        "U" => Some("y"),
        "F" => Some("z"),
        _ => None,
    };
    match (sign(&axis.pos), sign(&axis.neg)) {
        (Some(name), _) => SliceMove {
            name: name.to_string(),
            ..plain
        },
        (None, Some(name)) => SliceMove {
            name: name.to_string(),
            inverted: true,
            ..plain
        },
        (None, None) => plain,
    }
}

/// The slice ranges PuzzleGeometry turns on one axis under `options`.
fn axis_ranges(
    axis: &Axis,
    options: &PuzzleOptions,
    fixed: Option<(usize, PieceKind)>,
) -> Result<Vec<(usize, usize)>, GeometryError> {
    let s = axis.planes();
    let mut r: Vec<(usize, usize)> = Vec::new();
    let tetrahedral = axis.pos_kind != axis.neg_kind;
    if options.vertex_moves && tetrahedral && !options.all_moves {
        for i in 0..s {
            if axis.pos_kind != FeatureKind::Vertex {
                r.push(if options.outer_block_moves {
                    (i + 1, s)
                } else {
                    (i + 1, i + 1)
                });
            } else {
                r.push(if options.outer_block_moves {
                    (0, i)
                } else {
                    (i, i)
                });
            }
        }
    } else {
        for i in 0..=s {
            if !options.all_moves && 2 * i == s {
                continue;
            }
            r.push(if options.outer_block_moves {
                if 2 * i > s {
                    (i, s)
                } else {
                    (0, i)
                }
            } else {
                (i, i)
            });
        }
    }
    if options.rotations && !r.contains(&(0, s)) && options.fix.is_none() {
        r.push((0, s));
    }
    if let Some((dep, kind)) = fixed {
        let mut out: Vec<(usize, usize)> = Vec::new();
        for (lo, hi) in r {
            let range = if lo <= dep && dep <= hi {
                if lo == 0 {
                    if hi == s {
                        continue;
                    }
                    (hi + 1, s)
                } else if hi == s {
                    (0, lo - 1)
                } else {
                    return Err(GeometryError::FixDisconnects { piece: kind });
                }
            } else {
                (lo, hi)
            };
            if !out.contains(&range) {
                out.push(range);
            }
        }
        r = out;
    }
    Ok(r)
}

/// Adds a cut outside the solid of every kind the descriptor lacks (as
/// PuzzleGeometry's `addRotations` does): each adds axes, and their
/// rotations, without cutting anything.
fn add_rotation_axes(desc: &mut Descriptor) {
    for kind in [CutKind::Face, CutKind::Vertex, CutKind::Edge] {
        if !desc.has(kind) {
            desc.cuts.push(Cut::plane(kind, 10.0));
        }
    }
}

/// Whether turns about these axes reach every rotation of the solid.
fn generates_all_rotations<'a>(g: &Geometry, axes: impl IntoIterator<Item = &'a Axis>) -> bool {
    let turns: Vec<crate::math::Quat> = axes.into_iter().map(|a| a.turn).collect();
    crate::notation::generated_order(g.solid.shape, &turns)
        == crate::notation::group_order(g.solid.shape)
}

/// PuzzleGeometry's name for turning slices `lo..=hi`, and whether it is
/// named from the far end (so turns the other way).
pub(crate) fn move_name(axis: &Axis, lo: usize, hi: usize) -> (String, bool) {
    let s = axis.planes();
    let (family, lo, hi, inverted) = if s - hi < lo {
        (&axis.neg, s - hi, s - lo, true)
    } else {
        (&axis.pos, lo, hi, false)
    };
    let name = if lo == 0 && hi == s {
        format!("{family}v")
    } else if lo == hi {
        if hi > 0 {
            format!("{}{family}", hi + 1)
        } else {
            family.clone()
        }
    } else if hi > 1 {
        format!("{}{}", hi + 1, family.to_ascii_lowercase())
    } else {
        family.to_ascii_lowercase()
    };
    (name, inverted)
}

/// Whether the moves on `axis` (with `planes` cut planes) together turn
/// the whole puzzle about it: whether their slice ranges, as edges between
/// block depths, connect the top of the axis to the bottom.
fn turns_whole_axis(moves: &[SliceMove], axis: usize, planes: usize) -> bool {
    let mut reached = vec![false; planes + 2];
    reached[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for m in moves.iter().filter(|m| m.axis == axis) {
            let (a, b) = (m.lo, (m.hi + 1).min(planes + 1));
            if reached[a] != reached[b] {
                reached[a] = true;
                reached[b] = true;
                grew = true;
            }
        }
    }
    reached[planes + 1]
}

/// The piece to keep still: of the requested kind, preferring the down,
/// back and left faces (so a fixed 2x2x2 corner leaves `R U F`).
fn choose_fixed(g: &Geometry, kind: PieceKind) -> Result<usize, GeometryError> {
    const PREFERRED: [&str; 9] = ["D", "B", "L", "BL", "BR", "DL", "DR", "BB", "BF"];
    let rank = |c: usize| -> Vec<usize> {
        let mut r: Vec<usize> = g.cubies[c]
            .stickers
            .iter()
            .map(|&s| {
                let name = &g.solid.faces[g.stickers[s].face].name;
                PREFERRED
                    .iter()
                    .position(|p| p == name)
                    .unwrap_or(100 + g.stickers[s].face)
            })
            .collect();
        r.sort_unstable();
        r
    };
    (0..g.cubies.len())
        .filter(|&c| PieceKind::of(g.cubies[c].stickers.len()) == kind)
        .min_by_key(|&c| rank(c))
        .ok_or(GeometryError::NoPieceToFix { piece: kind })
}

/// The orbits the definition keeps, in geometry order.
fn kept_orbits(
    g: &Geometry,
    options: &PuzzleOptions,
    moves: &[SliceMove],
) -> Result<Vec<usize>, GeometryError> {
    let mut moved = vec![options.keep_still_orbits; g.orbits.len()];
    for m in moves {
        let a = &g.axes[m.axis];
        for s in m.lo..=m.hi.min(a.by_slice.len().saturating_sub(1)) {
            for &c in &a.by_slice[s] {
                // A piece only spinning in place does not count as moved
                // (unless its spin is tracked).
                let im = a.images[c as usize];
                let orbit = g.cubies[c as usize].orbit;
                if im.target != c || im.ord != 0 || (options.orient_centers && im.spin != 0) {
                    moved[orbit] = true;
                }
            }
        }
    }
    let kept: Vec<usize> = (0..g.orbits.len())
        .filter(|&o| moved[o])
        .filter(|&o| {
            !options
                .omit_kinds
                .contains(&PieceKind::of(g.orbits[o].stickers))
        })
        .filter(|&o| !options.omit_orbits.iter().any(|n| n == &g.orbits[o].name))
        .collect();
    if kept.is_empty() {
        return Err(GeometryError::NothingLeft);
    }
    Ok(kept)
}

/// The solved state: one-sticker pieces of the same face look alike
/// unless `distinct`.
fn start_pattern(
    g: &Geometry,
    kept: &[usize],
    layout: &Layout,
    distinct: bool,
) -> Result<Pattern, GeometryError> {
    let orbits: Vec<PatternOrbit> = kept
        .iter()
        .map(|&o| {
            let od = &g.orbits[o];
            let n = od.cubies.len();
            let pieces: Vec<u8> = if od.stickers == 1 && !distinct {
                let mut ids: Vec<(usize, u8)> = Vec::new();
                od.cubies
                    .iter()
                    .map(|&c| {
                        let face = g.stickers[g.cubies[c].stickers[0]].face;
                        match ids.iter().find(|(f, _)| *f == face) {
                            Some(&(_, id)) => id,
                            None => {
                                let id = ids.len() as u8;
                                ids.push((face, id));
                                id
                            }
                        }
                    })
                    .collect()
            } else {
                (0..n as u8).collect()
            };
            PatternOrbit {
                pieces,
                orientation: vec![0; n],
                orientation_mod: None,
            }
        })
        .collect();
    layout.pattern(&orbits).map_err(GeometryError::Core)
}
