//! The `PUZZLE` argument every puzzle command takes: a `.tws` file, a
//! KPuzzle `.json` file, the name of a puzzle twistor can build from
//! geometry (`3x3x3`, `megaminx`), or a geometry descriptor
//! (`"c f 0.333333333333333"`).

use std::path::Path;

use twistor_core::Puzzle;
use twistor_geometry::{GeneratedPuzzle, PieceKind, PuzzleOptions};
use twistor_tools::catalog::{self, Built, NameError};

use crate::error::CliError;
use crate::load::read_text;

/// Where a mistyped puzzle name is sent.
pub(crate) const NAMES_HINT: &str = "(twistor geometry --list shows the names)";

/// Where a puzzle definition comes from, with the options for named puzzles.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PuzzleSource {
    /// A .tws file, a KPuzzle .json file, a puzzle name such as 3x3x3 or
    /// megaminx, or a descriptor such as "c f 0.333333333333333".
    #[arg(value_name = "PUZZLE")]
    pub puzzle: String,
    #[command(flatten)]
    pub geometry: GeometryFlags,
}

/// Which piece to keep still.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixKind {
    /// A corner (a piece with three or more stickers).
    Corner,
    /// An edge (two stickers).
    Edge,
    /// A centre (one sticker).
    Center,
}

/// Options for puzzles built from geometry (names and descriptors).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GeometryFlags {
    /// For named puzzles: include inner slice moves (cubing.js `allMoves`).
    #[arg(long)]
    pub all_moves: bool,
    /// For named puzzles: turn blocks from the nearer end (`f`, `3f`) instead of slices.
    #[arg(long)]
    pub outer_block_moves: bool,
    /// For tetrahedral puzzles: turn from the vertex end, leaving the face layer still.
    #[arg(long)]
    pub vertex_moves: bool,
    /// For named puzzles: keep one piece of this kind still.
    #[arg(long, value_enum, value_name = "KIND")]
    pub fix_piece: Option<FixKind>,
    /// For named puzzles: give face-centre pieces an orientation.
    #[arg(long)]
    pub orient_centers: bool,
    /// For named puzzles: leave out corner pieces.
    #[arg(long)]
    pub no_corners: bool,
    /// For named puzzles: leave out edge pieces.
    #[arg(long)]
    pub no_edges: bool,
    /// For named puzzles: leave out centre pieces.
    #[arg(long)]
    pub no_centers: bool,
    /// For named puzzles: leave out these orbits (comma-separated names).
    #[arg(long, value_name = "ORBITS")]
    pub omit_orbits: Option<String>,
    /// For named puzzles: keep orbits no move touches (as KPuzzle definitions do).
    #[arg(long)]
    pub keep_still_orbits: bool,
    /// For named puzzles: add whole-puzzle rotations about every kind of axis as moves.
    #[arg(long)]
    pub rotations: bool,
}

impl GeometryFlags {
    /// The options these flags ask for.
    pub fn options(&self) -> PuzzleOptions {
        let mut omit_kinds = Vec::new();
        if self.no_corners {
            omit_kinds.push(PieceKind::Corner);
        }
        if self.no_edges {
            omit_kinds.push(PieceKind::Edge);
        }
        if self.no_centers {
            omit_kinds.push(PieceKind::Center);
        }
        PuzzleOptions {
            all_moves: self.all_moves,
            outer_block_moves: self.outer_block_moves,
            vertex_moves: self.vertex_moves,
            fix: self.fix_piece.map(|k| match k {
                FixKind::Corner => PieceKind::Corner,
                FixKind::Edge => PieceKind::Edge,
                FixKind::Center => PieceKind::Center,
            }),
            orient_centers: self.orient_centers,
            omit_kinds,
            omit_orbits: self
                .omit_orbits
                .as_deref()
                .unwrap_or("")
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
            keep_still_orbits: self.keep_still_orbits,
            rotations: self.rotations,
            notation_rotations: false,
            distinct_pieces: false,
        }
    }

    /// Whether any option other than the defaults was given.
    pub(crate) fn any(&self) -> bool {
        self.options() != PuzzleOptions::default()
    }
}

pub use twistor_tools::picture::for_drawing;

/// What `PUZZLE` turned out to be.
enum Source {
    /// An existing file (or `-`), still to be read.
    File,
    /// One of twistor's own models of cubing.js's hand-written puzzles.
    Handmade(Puzzle),
    /// A puzzle built from geometry.
    Built(Box<GeneratedPuzzle>),
}

impl PuzzleSource {
    /// Loads the puzzle: a file that exists is read; otherwise a name or
    /// descriptor is built (with the whole-puzzle rotations notation such
    /// as `x` and `M` needs).
    pub fn load(&self) -> Result<Puzzle, CliError> {
        match self.source(|o| o.notation_rotations = true)? {
            Source::File => self.read_file(),
            Source::Handmade(p) => Ok(p),
            Source::Built(g) => Ok((*g).into_puzzle()),
        }
    }

    /// Loads the definition alone, as PuzzleGeometry's command line writes
    /// it: no rotations are added for notation, so the outer-move 3x3x3 is
    /// its corners and edges (`info`, `convert --to tws`).
    pub fn load_definition(&self) -> Result<Puzzle, CliError> {
        match self.source(|_| {})? {
            Source::File => self.read_file(),
            Source::Handmade(p) => Ok(p),
            Source::Built(g) => Ok((*g).into_puzzle()),
        }
    }

    /// Loads the definition as a KPuzzle that the patterns [`load`](Self::load)
    /// gives fit (`convert --to json`): with the rotations notation needs,
    /// so with the pieces only they move (the 3x3x3's centres) and with
    /// orbits that they join (the skewb's eight corners), as cubing.js's
    /// definitions have them, and every piece numbered apart in the start.
    pub fn load_kpuzzle(&self) -> Result<Puzzle, CliError> {
        match self.source(|o| {
            o.notation_rotations = true;
            o.distinct_pieces = true;
        })? {
            Source::File => self.read_file(),
            Source::Handmade(p) => Ok(p),
            Source::Built(g) => Ok((*g).into_puzzle()),
        }
    }

    /// Loads the puzzle as its community searches and writes it: on a
    /// named pyraminx, skewb, megaminx or FTO the search moves are the
    /// notation's (`U L R B u l r b`), so solutions print in it
    /// ([`catalog::in_notation`]); files and other puzzles load as they are.
    /// `random` loads so too, to draw from the group `solve` searches.
    pub fn load_in_notation(&self) -> Result<Puzzle, CliError> {
        match self.source(|o| o.notation_rotations = true)? {
            Source::File => self.read_file(),
            Source::Handmade(p) => Ok(p),
            Source::Built(g) => {
                let moves = g.notation().search_notation(g.puzzle());
                catalog::in_notation(g.puzzle(), &moves)
                    .map_err(|e| CliError::failure(format!("{}: {e}", self.puzzle)))
            }
        }
    }

    /// The puzzle built from geometry, or `None` when `PUZZLE` is an
    /// existing file or a hand-written puzzle; `adjust` may change the
    /// options the flags give.
    pub fn generated(
        &self,
        adjust: impl FnOnce(&mut PuzzleOptions),
    ) -> Result<Option<GeneratedPuzzle>, CliError> {
        match self.source(adjust)? {
            Source::Built(g) => Ok(Some(*g)),
            Source::File | Source::Handmade(_) => Ok(None),
        }
    }

    fn read_file(&self) -> Result<Puzzle, CliError> {
        let text = read_text(&self.puzzle)?;
        twistor_formats::read_puzzle(&text, &self.puzzle).map_err(CliError::input)
    }

    /// What `PUZZLE` is: a file, one of the hand-written puzzles, or a
    /// name or descriptor built with the flags' options (`adjust`ed).
    fn source(&self, adjust: impl FnOnce(&mut PuzzleOptions)) -> Result<Source, CliError> {
        let spec = self.puzzle.as_str();
        if Path::new(spec).exists() || spec == "-" {
            if self.geometry.any() {
                return Err(CliError::input(format!(
                    "{spec}: the geometry options apply only to puzzle names and descriptors, not to files"
                )));
            }
            return Ok(Source::File);
        }
        let mut options = self.geometry.options();
        adjust(&mut options);
        match catalog::build_named(spec, &options, self.geometry.any()) {
            Ok(Built::Handmade(p)) => Ok(Source::Handmade(p)),
            Ok(Built::Generated(g)) => Ok(Source::Built(g)),
            Err(NameError::Unknown { suggestions }) => Err(CliError::input(format!(
                "{spec}: no such file, and not a puzzle name or descriptor{} {NAMES_HINT}",
                catalog::did_you_mean(&suggestions)
            ))),
            Err(e) => Err(CliError::input(format!("{spec}: {e}"))),
        }
    }
}
