//! The puzzles requests name: built once and kept, because building a big
//! cube from geometry takes a noticeable fraction of a second and the page
//! asks for a picture at every step.
//!
//! A request names a puzzle (`{"puzzle": "3x3x3"}`: any name the command
//! line takes) or carries a definition (`{"definition": "...",
//! "filename": "mine.tws"}`, `.tws` or KPuzzle JSON). A named puzzle is
//! solved in its community's notation (as `twistor solve NAME` does) and
//! drawn from the same geometry with every piece tracked; a definition is
//! solved as written and drawn as a diagram of its orbits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Deserialize;
use twistor_core::Puzzle;
use twistor_geometry::PuzzleOptions;
use twistor_tools::budget::Bytes;
use twistor_tools::catalog::{self, NameError};
use twistor_tools::picture::Drawing;

use crate::api::ApiError;

/// Puzzles kept at most, and the bytes they may take (by
/// [`Loaded::bytes`]); the cache is cleared when either is reached.
const KEPT: usize = 24;
const KEPT_BYTES: usize = 256 << 20;

/// A puzzle as a request names it.
#[derive(Clone, Debug, Deserialize)]
pub struct PuzzleRef {
    /// A name the command line takes (`3x3x3`, `pyram`, `megaminx`).
    #[serde(default)]
    pub puzzle: Option<String>,
    /// A `.tws` or KPuzzle JSON definition, uploaded.
    #[serde(default)]
    pub definition: Option<String>,
    /// The uploaded file's name, for messages and format detection.
    #[serde(default)]
    pub filename: Option<String>,
}

impl PuzzleRef {
    /// What the cache keeps it under.
    fn key(&self) -> Result<String, ApiError> {
        match (&self.puzzle, &self.definition) {
            (Some(name), None) => Ok(format!("name:{}", name.trim())),
            (None, Some(text)) => {
                let h = twistor_core::store::key_hash(text.as_bytes(), 0);
                Ok(format!("def:{h:016x}:{}", text.len()))
            }
            _ => Err(ApiError::bad_request(
                "give \"puzzle\" (a name) or \"definition\" (a .tws or KPuzzle file), one of them",
            )),
        }
    }
}

/// A puzzle ready for requests.
pub struct Loaded {
    /// Its name, as the page shows it.
    pub name: String,
    /// The puzzle searched and scrambled (in its community's notation).
    pub solving: Puzzle,
    /// How it is drawn, if it is.
    pub drawing: Option<Drawing>,
}

impl Loaded {
    /// About what it takes in memory: its moves, which dominate (each as
    /// long as a position), and a drawing of its puzzle again.
    fn bytes(&self) -> usize {
        puzzle_bytes(&self.solving)
            + self
                .drawing
                .as_ref()
                .map_or(0, |d| puzzle_bytes(d.puzzle()))
    }
}

/// About what a puzzle takes in memory: its moves, each as long as a
/// position, and some bytes a point for its layout.
fn puzzle_bytes(p: &Puzzle) -> usize {
    (p.moves().len() + 2) * p.start().as_bytes().len() + 64 * p.layout().num_points()
}

/// Puzzles built so far.
#[derive(Default)]
pub struct PuzzleCache {
    kept: Mutex<HashMap<String, Arc<Loaded>>>,
    /// Held while a puzzle is built: one build at a time, so that many
    /// requests for a puzzle not yet kept build it once, not each.
    building: Mutex<()>,
}

impl PuzzleCache {
    /// The puzzle `r` names, built if it is not kept yet, refused when it
    /// would take more than `limit` bytes. Runs the build on the calling
    /// thread: call it from a blocking task.
    pub fn load(&self, r: &PuzzleRef, limit: u64) -> Result<Arc<Loaded>, ApiError> {
        let key = r.key()?;
        if let Some(p) = self.lock().get(&key) {
            return Ok(Arc::clone(p));
        }
        let _building = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = self.lock().get(&key) {
            return Ok(Arc::clone(p));
        }
        let loaded = Arc::new(build(r, limit)?);
        let mut kept = self.lock();
        let bytes: usize = kept.values().map(|p| p.bytes()).sum();
        if kept.len() >= KEPT || bytes + loaded.bytes() > KEPT_BYTES {
            kept.clear();
        }
        kept.insert(key, Arc::clone(&loaded));
        Ok(loaded)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Loaded>>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Refuses a puzzle that takes more than `limit` bytes (it is drawn from
/// a copy as large again).
fn within(name: &str, p: &Puzzle, limit: u64) -> Result<(), ApiError> {
    let bytes = 2 * puzzle_bytes(p) as u64;
    if bytes > limit {
        return Err(ApiError::too_large(format!(
            "{name}: this puzzle ({} points, {} moves) takes about {} to keep, more than \
             the server's limit of {} (twistor serve -M)",
            p.layout().num_points(),
            p.moves().len(),
            Bytes(bytes),
            Bytes(limit)
        )));
    }
    Ok(())
}

fn build(r: &PuzzleRef, limit: u64) -> Result<Loaded, ApiError> {
    if let Some(text) = &r.definition {
        let file = r.filename.as_deref().unwrap_or("uploaded.tws");
        let solving = twistor_formats::read_puzzle(text, file)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        within(file, &solving, limit)?;
        return Ok(Loaded {
            name: solving.name().to_string(),
            solving,
            drawing: None,
        });
    }
    let name = r.puzzle.as_deref().unwrap_or_default().trim();
    let not_found = |e: NameError| match e {
        NameError::Unknown { suggestions } => ApiError::not_found(format!(
            "{name}: not a puzzle name or descriptor{}",
            catalog::did_you_mean(&suggestions)
        )),
        e => ApiError::bad_request(format!("{name}: {e}")),
    };
    let options = PuzzleOptions {
        notation_rotations: true,
        ..PuzzleOptions::default()
    };
    let solving = catalog::build_named(name, &options, false)
        .map_err(not_found)?
        .in_notation()
        .map_err(|e| ApiError::bad_request(format!("{name}: {e}")))?;
    within(name, &solving, limit)?;
    let drawing = Drawing::of(name).map_err(not_found)?;
    Ok(Loaded {
        name: name.to_string(),
        solving,
        drawing,
    })
}
