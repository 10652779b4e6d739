//! The names people type for puzzles, and what twistor builds for each.
//!
//! Three vocabularies meet at the `PUZZLE` argument: PuzzleGeometry's 72
//! names (`3x3x3`, `master skewb`, `FTO`; see [`twistor_geometry::NAMED_PUZZLES`]),
//! cubing.js's puzzle ids (`fto`, `master_tetraminx`, `kilominx`), and
//! the WCA's event ids (`333`, `pyram`, `minx`, `sq1`). [`resolve`] maps
//! every one of them to the puzzle twistor builds (from geometry, or for
//! the puzzles cubing.js writes by hand, such as `clock` and `sq1`, from
//! twistor's own models in [`crate::handmade`]), says plainly when a
//! cubing.js puzzle is one twistor has no model of yet, and otherwise
//! offers the nearest names ("did you mean …").
//!
//! ```
//! use twistor_tools::catalog::{resolve, Resolved};
//!
//! assert_eq!(resolve("333"), Resolved::Geometry("3x3x3"));
//! assert_eq!(resolve("master_tetraminx"), Resolved::Geometry("master tetraminx"));
//! assert_eq!(resolve("sq1"), Resolved::Handmade("square1"));
//! match resolve("megamix") {
//!     Resolved::Unknown { suggestions } => assert_eq!(suggestions[0], "megaminx"),
//!     other => panic!("{other:?}"),
//! }
//! ```

use twistor_core::{CoreError, MoveDef, MoveKind, Puzzle};
use twistor_geometry::{
    descriptor_for, Descriptor, GeneratedPuzzle, GeometryError, PieceKind, PuzzleOptions,
    NAMED_PUZZLES,
};

/// What a puzzle name stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A PuzzleGeometry puzzle, by its name there.
    Geometry(&'static str),
    /// A cubing.js puzzle that is a solid and cuts PuzzleGeometry has no
    /// name for.
    Descriptor {
        /// Its cubing.js id (or twistor's name), used as the puzzle's name.
        name: &'static str,
        /// Its descriptor.
        descriptor: &'static str,
        /// Kinds of pieces it always leaves out (the descriptor itself
        /// builds them).
        omit: &'static [PieceKind],
    },
    /// A cubing.js puzzle whose definition cubing.js writes by hand, by
    /// its cubing.js id (`clock`, `square1`, `redi_cube`, `loopover`,
    /// `tri_quad`): [`crate::handmade::definition`] builds twistor's
    /// model of it.
    Handmade(&'static str),
    /// A cubing.js puzzle twistor does not model yet.
    NotModelled {
        /// The cubing.js id.
        id: &'static str,
        /// What it is, for the message.
        what: &'static str,
    },
    /// No puzzle of that name; the nearest names, best first.
    Unknown {
        /// Up to three names within a small edit distance.
        suggestions: Vec<String>,
    },
}

/// WCA event ids and cubing.js puzzle ids that name a PuzzleGeometry
/// puzzle under another name.
pub const ALIASES: &[(&str, &str)] = &[
    ("222", "2x2x2"),
    ("333", "3x3x3"),
    ("333oh", "3x3x3"),
    ("333bf", "3x3x3"),
    ("333fm", "3x3x3"),
    ("333mbf", "3x3x3"),
    ("444", "4x4x4"),
    ("444bf", "4x4x4"),
    ("555", "5x5x5"),
    ("555bf", "5x5x5"),
    ("666", "6x6x6"),
    ("777", "7x7x7"),
    ("pyram", "pyraminx"),
    ("minx", "megaminx"),
    ("fto", "FTO"),
    ("master_fto", "master FTO"),
    ("baby_fto", "skewb diamond"),
];

/// cubing.js puzzle ids built from a solid and cuts PuzzleGeometry has no
/// name for.
pub const DESCRIPTORS: &[(&str, &str)] = &[("kilominx", "d f 0.56")];

/// Puzzles cut by curved surfaces (spheres, cones; see
/// [`twistor_geometry::Descriptor`]), which no other program builds from
/// geometry: name, descriptor, and the kinds of pieces left out.
///
/// - `rex_cube`: spheres of radius 1.6 about the corners. Its corner tips
///   turn only with their own corner, in place, so they are left out (as
///   the Rex Cube is counted, and as a Master Skewb simulates it).
/// - `super_ivy`: spheres through the neighbouring corners (radius the
///   cube's edge), as the Ivy Cube's cuts on all eight corners.
/// - `curvy_copter_sphere`: the Curvy Copter's edge turns, each cutting
///   by a sphere about a point beyond its edge; PuzzleGeometry's planar
///   `curvy copter` keeps its name and numbering.
/// - `conic_cube`: a 3x3x3 whose layers are cut by cones from the centre
///   (half angle 60°), so they bulge over the sides.
pub const CURVED: &[(&str, &str, &[PieceKind])] = &[
    ("rex_cube", "c v sphere 1.6", &[PieceKind::Corner]),
    ("super_ivy", "c v sphere 2", &[]),
    (
        "curvy_copter_sphere",
        "c e sphere 2 at 2.8284271247461903",
        &[],
    ),
    ("conic_cube", "c f cone 60", &[]),
];

/// Each name of a hand-written puzzle ([`crate::handmade::PUZZLES`]: its
/// id and its aliases) with the cubing.js id it stands for.
fn handmade_names() -> impl Iterator<Item = (&'static str, &'static str)> {
    crate::handmade::PUZZLES.iter().flat_map(|h| {
        std::iter::once((h.id, h.id)).chain(h.aliases.iter().map(move |&a| (a, h.id)))
    })
}

/// cubing.js puzzle ids whose definitions are not PuzzleGeometry's and
/// that twistor has no model of yet.
pub const NOT_MODELLED: &[(&str, &str)] = &[(
    "melindas2x2x2x2",
    "Melinda's 2x2x2x2 (a four-dimensional puzzle)",
)];

/// What `name` stands for (exact, then ignoring case and `_` for spaces).
pub fn resolve(name: &str) -> Resolved {
    let name = name.trim();
    if let Some((pg, _)) = descriptor_for(name) {
        return Resolved::Geometry(pg);
    }
    let lower = name.to_ascii_lowercase();
    if let Some((_, to)) = ALIASES.iter().find(|(a, _)| *a == lower) {
        if let Some((pg, _)) = descriptor_for(to) {
            return Resolved::Geometry(pg);
        }
    }
    if let Some(&(name, descriptor)) = DESCRIPTORS.iter().find(|(a, _)| *a == lower) {
        return Resolved::Descriptor {
            name,
            descriptor,
            omit: &[],
        };
    }
    let underscored = lower.replace(' ', "_");
    if let Some(&(name, descriptor, omit)) = CURVED.iter().find(|(a, _, _)| *a == underscored) {
        return Resolved::Descriptor {
            name,
            descriptor,
            omit,
        };
    }
    if let Some((_, id)) = handmade_names().find(|(a, _)| *a == lower || *a == underscored) {
        return Resolved::Handmade(id);
    }
    if let Some(&(id, what)) = NOT_MODELLED.iter().find(|(a, _)| *a == lower) {
        return Resolved::NotModelled { id, what };
    }
    Resolved::Unknown {
        suggestions: suggestions(name),
    }
}

/// Every name [`resolve`] knows, as a person would type it.
pub fn all_names() -> Vec<String> {
    let mut names: Vec<String> = NAMED_PUZZLES.iter().map(|(n, _)| n.to_string()).collect();
    names.extend(ALIASES.iter().map(|(a, _)| a.to_string()));
    names.extend(DESCRIPTORS.iter().map(|(a, _)| a.to_string()));
    names.extend(CURVED.iter().map(|(a, _, _)| a.to_string()));
    names.extend(handmade_names().map(|(a, _)| a.to_string()));
    names.extend(NOT_MODELLED.iter().map(|(a, _)| a.to_string()));
    names
}

/// The known names nearest to `name`: up to three within an edit distance
/// of a third of its length (at least 1, at most 3), nearest first.
pub fn suggestions(name: &str) -> Vec<String> {
    nearest(name, all_names())
}

/// The names among `names` nearest to `name`, as [`suggestions`] takes
/// them.
pub fn nearest(name: &str, names: Vec<String>) -> Vec<String> {
    let key = normalise(name);
    if key.is_empty() || key.len() > 64 {
        return Vec::new();
    }
    let limit = (key.chars().count() / 3).clamp(1, 3);
    let mut near: Vec<(usize, String)> = names
        .into_iter()
        .map(|n| (edit_distance(&key, &normalise(&n)), n))
        .filter(|(d, _)| *d <= limit)
        .collect();
    near.sort();
    near.dedup_by(|a, b| a.1 == b.1);
    near.into_iter().take(3).map(|(_, n)| n).collect()
}

fn normalise(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace('_', " ")
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let swap = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + swap).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// A puzzle built for a name: one of twistor's hand-written models, or
/// one built from geometry.
pub enum Built {
    /// A hand-written model ([`crate::handmade`]).
    Handmade(Puzzle),
    /// Built from a solid and its cuts.
    Generated(Box<GeneratedPuzzle>),
}

impl Built {
    /// The puzzle as built.
    pub fn into_puzzle(self) -> Puzzle {
        match self {
            Built::Handmade(p) => p,
            Built::Generated(g) => (*g).into_puzzle(),
        }
    }

    /// The puzzle as its community searches and writes it (see
    /// [`in_notation`]).
    pub fn in_notation(self) -> Result<Puzzle, CoreError> {
        match self {
            Built::Handmade(p) => Ok(p),
            Built::Generated(g) => {
                let moves = g.notation().search_notation(g.puzzle());
                in_notation(g.puzzle(), &moves)
            }
        }
    }
}

/// Why a name could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NameError {
    /// No puzzle has that name.
    #[error("not a puzzle name or descriptor{}", did_you_mean(suggestions))]
    Unknown {
        /// The nearest names, best first.
        suggestions: Vec<String>,
    },
    /// A cubing.js puzzle twistor has no model of.
    #[error(
        "cubing.js's {id} is {what}, which twistor has no model of yet \
         (give its definition as a .tws or KPuzzle .json file)"
    )]
    NotModelled {
        /// The cubing.js id.
        id: &'static str,
        /// What it is.
        what: &'static str,
    },
    /// Geometry options given for a hand-written puzzle.
    #[error("the geometry options apply only to puzzles built from geometry")]
    OptionsForHandmade,
    /// The geometry could not be built.
    #[error(transparent)]
    Geometry(#[from] GeometryError),
}

/// "; did you mean …?" for up to three names, or nothing.
pub fn did_you_mean(suggestions: &[String]) -> String {
    match suggestions {
        [] => String::new(),
        [one] => format!("; did you mean {one}?"),
        more => format!("; did you mean one of {}?", more.join(", ")),
    }
}

/// Builds the puzzle `spec` names: a name any vocabulary of [`resolve`]
/// knows, or a geometry descriptor. `options` apply to puzzles built from
/// geometry; `options_given` says the caller set some, which a
/// hand-written puzzle refuses.
pub fn build_named(
    spec: &str,
    options: &PuzzleOptions,
    options_given: bool,
) -> Result<Built, NameError> {
    let name = match resolve(spec) {
        Resolved::Geometry(name) => name,
        Resolved::Handmade(id) => {
            if options_given {
                return Err(NameError::OptionsForHandmade);
            }
            return crate::handmade::definition(id).map(Built::Handmade).ok_or(
                NameError::NotModelled {
                    id,
                    what: "a hand-written puzzle",
                },
            );
        }
        Resolved::Descriptor {
            name,
            descriptor,
            omit,
        } => {
            let mut options = options.clone();
            for &kind in omit {
                if !options.omit_kinds.contains(&kind) {
                    options.omit_kinds.push(kind);
                }
            }
            let built = Descriptor::parse(descriptor)
                .and_then(|d| GeneratedPuzzle::from_descriptor(name, &d, &options))?;
            return Ok(Built::Generated(Box::new(built)));
        }
        Resolved::NotModelled { id, what } => return Err(NameError::NotModelled { id, what }),
        Resolved::Unknown { .. } if twistor_geometry::is_geometry_spec(spec) => spec,
        Resolved::Unknown { suggestions } => return Err(NameError::Unknown { suggestions }),
    };
    Ok(Built::Generated(Box::new(twistor_geometry::build(
        name, options,
    )?)))
}

/// The puzzle as its community searches and writes it: `moves` (from
/// [`twistor_geometry::GeometryNotation::search_notation`]) become its
/// search moves under their community names (`U`, `u`, `R`, `DR`), and
/// its own moves stay, out of the search, so that notation and every
/// move name still resolve. A solution found on it prints as people write
/// it (`U' b`), never in PuzzleGeometry's internal names (`DLR' FRL`).
///
/// An own move whose name a community move takes (the pyraminx's face
/// layer `L` against the vertex turn `L`), or that the notation reads as
/// another move, is renamed `L_pg`: notation already read `L` as the
/// community's move, so nothing typed changes, and an answer that turns
/// the face layer says `L_pg`, which reads back as it.
pub fn in_notation(
    puzzle: &Puzzle,
    moves: &[(String, Vec<(usize, i32)>)],
) -> Result<Puzzle, CoreError> {
    // An own move whose name the notation reads as another move (the
    // tetraminx's face layer `L` against the vertex turn `L`) could not be
    // read back from an answer: it is renamed too.
    let misread = |m: &MoveDef| -> bool {
        if puzzle.notation().is_none() {
            return false;
        }
        let read = m
            .name
            .parse::<twistor_formats::alg::Alg>()
            .ok()
            .and_then(|alg| twistor_formats::resolve::alg_transformation(puzzle, &alg).ok());
        read.as_ref() != Some(&m.transformation)
    };
    if moves.is_empty() && !puzzle.moves().iter().any(misread) {
        return Ok(puzzle.clone());
    }
    let taken = |name: &str| moves.iter().any(|(n, _)| n == name);
    let mut all: Vec<MoveDef> = Vec::new();
    for m in puzzle.moves() {
        let mut m = m.clone();
        let renamed = taken(&m.name) || misread(&m);
        if m.is_search_move() && !moves.is_empty() {
            m.kind = MoveKind::Derived;
            m.definition = Some(m.name.clone());
        }
        if renamed {
            m.name.push_str("_pg");
        }
        all.push(m);
    }
    for (name, word) in moves {
        all.push(MoveDef {
            name: name.clone(),
            transformation: puzzle.word_transformation(word),
            kind: MoveKind::Base,
            definition: None,
        });
    }
    puzzle.with_moves(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `solve`, `random` and `scramble` said "move FR is defined twice":
    /// cut at its edges, a dodecahedron's face C is FR in the megaminx's
    /// names and so is the edge between F and R.
    #[test]
    fn dodecahedron_cut_at_edges_names_each_move_once() {
        let p = build_named("d e 0.2 f 0.3", &PuzzleOptions::for_notation(), false)
            .unwrap()
            .in_notation()
            .expect("the notation's moves are named apart");
        let moves = p.search_moves();
        let names: Vec<&str> = moves.iter().map(|&i| p.moves()[i].name.as_str()).collect();
        let distinct: std::collections::HashSet<&str> = names.iter().copied().collect();
        assert_eq!(distinct.len(), names.len(), "{names:?}");
        assert!(names.contains(&"FR") && names.contains(&"RF"), "{names:?}");
        // Every name reads back, in the notation, as its own move.
        for &i in &moves {
            let m = &p.moves()[i];
            let alg: twistor_formats::alg::Alg = m.name.parse().unwrap();
            let t = twistor_formats::resolve::alg_transformation(&p, &alg).unwrap();
            assert_eq!(t, m.transformation, "{}", m.name);
        }
    }

    #[test]
    fn wca_event_ids_name_their_puzzles() {
        for (id, pg) in [
            ("222", "2x2x2"),
            ("333", "3x3x3"),
            ("444", "4x4x4"),
            ("555", "5x5x5"),
            ("666", "6x6x6"),
            ("777", "7x7x7"),
            ("pyram", "pyraminx"),
            ("skewb", "skewb"),
            ("minx", "megaminx"),
        ] {
            assert_eq!(resolve(id), Resolved::Geometry(pg), "{id}");
        }
    }

    #[test]
    fn cubing_js_ids_are_names_too() {
        assert_eq!(resolve("fto"), Resolved::Geometry("FTO"));
        assert_eq!(
            resolve("master_tetraminx"),
            Resolved::Geometry("master tetraminx")
        );
        assert_eq!(resolve("gigaminx"), Resolved::Geometry("gigaminx"));
        assert_eq!(resolve("baby_fto"), Resolved::Geometry("skewb diamond"));
        assert!(matches!(
            resolve("kilominx"),
            Resolved::Descriptor {
                name: "kilominx",
                ..
            }
        ));
        assert!(matches!(
            resolve("melindas2x2x2x2"),
            Resolved::NotModelled { .. }
        ));
    }

    #[test]
    fn hand_written_cubing_js_puzzles_have_twistor_models() {
        assert_eq!(resolve("clock"), Resolved::Handmade("clock"));
        assert_eq!(resolve("sq1"), Resolved::Handmade("square1"));
        assert_eq!(resolve("square1"), Resolved::Handmade("square1"));
        assert_eq!(resolve("Redi_Cube"), Resolved::Handmade("redi_cube"));
        assert_eq!(resolve("redi cube"), Resolved::Handmade("redi_cube"));
        assert_eq!(resolve("loopover"), Resolved::Handmade("loopover"));
        assert_eq!(resolve("tri_quad"), Resolved::Handmade("tri_quad"));
        for (name, id) in handmade_names() {
            assert_eq!(resolve(name), Resolved::Handmade(id), "{name}");
            let puzzle = crate::handmade::definition(id).expect("a model");
            assert_eq!(puzzle.name(), id);
            assert!(!NOT_MODELLED.iter().any(|(i, _)| *i == id), "{id}");
        }
        match resolve("sqare1") {
            Resolved::Unknown { suggestions } => assert_eq!(suggestions[0], "square1"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn misspellings_get_the_nearest_names() {
        let near = |n: &str| match resolve(n) {
            Resolved::Unknown { suggestions } => suggestions,
            other => panic!("{n}: {other:?}"),
        };
        assert_eq!(near("megamix")[0], "megaminx");
        assert_eq!(near("pyramnix")[0], "pyraminx");
        assert_eq!(near("3x3x4")[0], "3x3x3");
        assert!(near("no such puzzle at all").is_empty());
    }

    #[test]
    fn every_alias_resolves_to_a_puzzle() {
        for (alias, _) in ALIASES {
            assert!(matches!(resolve(alias), Resolved::Geometry(_)), "{alias}");
        }
    }
}
