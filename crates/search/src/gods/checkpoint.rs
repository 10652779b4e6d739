//! Checkpoints: the state of an enumeration after a complete depth, so a
//! killed run can continue to the identical result.
//!
//! Engines hand a [`CheckpointStore`] a header and a stream of 64-bit
//! words; they never touch files. `twistor-store`'s `FileCheckpoint`
//! keeps them in a file, written atomically (a temporary file beside it,
//! flushed to disk, then renamed over it), as the header's text
//! ([`CheckpointHeader::to_text`]), the words and their
//! [`CheckpointChecksum`]:
//!
//! ```text
//! twistor-gods-checkpoint 1
//! fingerprint 8c1f...
//! puzzle 2x2x2
//! moves U F R
//! options engine=bits index=3674160 metric=htm local-maxima=no
//! depth 7
//! end
//! <words, 8 bytes each, little-endian><checksum, 8 bytes>
//! ```

use std::path::PathBuf;

use super::hashing::Checksum;
use super::{metric_name, CheckpointMismatchReason, Context, GodsError};

/// The version of the checkpoint format; files of another version are refused.
pub const CHECKPOINT_FORMAT_VERSION: u32 = 1;

const MAGIC: &str = "twistor-gods-checkpoint";

/// What a checkpoint belongs to and how far it got.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointHeader {
    /// The format version.
    pub version: u32,
    /// A hash of the puzzle (orbits, start, move transformations) and the
    /// options that change the result.
    pub fingerprint: u64,
    /// The puzzle's name.
    pub puzzle: String,
    /// The moves, by name.
    pub moves: String,
    /// The options that change the result, as `key=value` words.
    pub options: String,
    /// The last complete depth.
    pub depth: usize,
}

impl CheckpointHeader {
    /// Checks that a loaded header belongs to the run `expected` describes.
    pub fn check_matches(&self, expected: &CheckpointHeader) -> Result<(), GodsError> {
        let mismatch = |reason| GodsError::CheckpointMismatch { reason };
        if self.version != expected.version {
            return Err(mismatch(CheckpointMismatchReason::Version {
                found: self.version,
                current: expected.version,
            }));
        }
        if self.options != expected.options {
            return Err(mismatch(CheckpointMismatchReason::Options {
                found: self.options.clone(),
                expected: expected.options.clone(),
            }));
        }
        if self.moves != expected.moves {
            return Err(mismatch(CheckpointMismatchReason::Moves {
                found: self.moves.clone(),
                expected: expected.moves.clone(),
            }));
        }
        if self.fingerprint != expected.fingerprint {
            return Err(mismatch(CheckpointMismatchReason::Puzzle {
                found: self.puzzle.clone(),
                expected: expected.puzzle.clone(),
            }));
        }
        Ok(())
    }
}

/// Why a checkpoint could not be saved or used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file (or the temporary file beside it).
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a checkpoint this program wrote, or is damaged.
    #[error("{}: not a valid checkpoint ({reason})", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The saved words do not describe a state the engine can continue
    /// from.
    #[error("the saved state is inconsistent")]
    Inconsistent,
    /// The products engine's state counts depths in a byte.
    #[error("more than 254 depths")]
    TooManyDepths,
}

/// What is wrong with a checkpoint's header.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// A line the header must have is missing.
    #[error("no {line} line")]
    Missing {
        /// The line's key.
        line: &'static str,
    },
    /// A line's value does not read.
    #[error("bad {field}")]
    Bad {
        /// The field.
        field: &'static str,
    },
}

/// Where an enumeration keeps its checkpoints.
pub trait CheckpointStore: Send {
    /// Replaces the stored checkpoint by this header and these words.
    fn save(
        &mut self,
        header: &CheckpointHeader,
        words: &mut dyn Iterator<Item = u64>,
    ) -> Result<(), GodsError>;

    /// The stored checkpoint, if there is one.
    fn load(&mut self) -> Result<Option<(CheckpointHeader, Vec<u64>)>, GodsError>;
}

impl CheckpointHeader {
    /// The header as the text lines a checkpoint file begins with, the
    /// last one `end`.
    pub fn to_text(&self) -> String {
        let one_line = |s: &str| s.replace(['\n', '\r'], " ");
        format!(
            "{MAGIC} {}\nfingerprint {:016x}\npuzzle {}\nmoves {}\noptions {}\ndepth {}\nend\n",
            self.version,
            self.fingerprint,
            one_line(&self.puzzle),
            one_line(&self.moves),
            one_line(&self.options),
            self.depth
        )
    }

    /// Reads a header from its lines (without their newlines, up to but
    /// not including `end`); `Err` says what is wrong.
    pub fn from_lines(lines: &[String]) -> Result<CheckpointHeader, HeaderError> {
        let fields: Vec<(&str, &str)> = lines
            .iter()
            .map(|l| l.split_once(' ').unwrap_or((l.as_str(), "")))
            .collect();
        let get = |line: &'static str| {
            fields
                .iter()
                .find(|(key, _)| *key == line)
                .map(|(_, v)| *v)
                .ok_or(HeaderError::Missing { line })
        };
        let bad = |field: &'static str| move |_| HeaderError::Bad { field };
        Ok(CheckpointHeader {
            version: get(MAGIC)?.parse().map_err(bad("version"))?,
            fingerprint: u64::from_str_radix(get("fingerprint")?, 16)
                .map_err(bad("fingerprint"))?,
            puzzle: get("puzzle")?.to_string(),
            moves: get("moves")?.to_string(),
            options: get("options")?.to_string(),
            depth: get("depth")?.parse().map_err(bad("depth"))?,
        })
    }
}

/// The checksum that closes a checkpoint: over its header's text, then
/// its words.
#[derive(Default)]
pub struct CheckpointChecksum(Checksum);

impl CheckpointChecksum {
    /// Starts the checksum of a checkpoint with header text `text`.
    pub fn new(text: &str) -> CheckpointChecksum {
        let mut sum = Checksum::default();
        sum.bytes(text.as_bytes());
        CheckpointChecksum(sum)
    }

    /// Adds a word.
    pub fn word(&mut self, w: u64) {
        self.0.word(w);
    }

    /// The checksum.
    pub fn value(&self) -> u64 {
        self.0.value()
    }
}

/// The header of a checkpoint of this run at `depth`.
pub(crate) fn header_for(ctx: &Context<'_, '_>, engine: &str, depth: usize) -> CheckpointHeader {
    let layout = ctx.puzzle.layout();
    let options = format!(
        "engine={engine} metric={} local-maxima={}",
        metric_name(ctx.moves.metric()),
        if ctx.options.local_maxima {
            "yes"
        } else {
            "no"
        }
    );
    let moves = ctx
        .moves
        .grips()
        .iter()
        .map(|g| g.name.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let mut sum = Checksum::default();
    for o in layout.orbits() {
        sum.bytes(o.name().as_bytes());
        sum.word(o.num_pieces() as u64);
        sum.word(o.num_orientations() as u64);
    }
    sum.bytes(ctx.puzzle.start().as_bytes());
    for m in &ctx.move_bytes {
        sum.bytes(m);
    }
    sum.bytes(options.as_bytes());
    CheckpointHeader {
        version: CHECKPOINT_FORMAT_VERSION,
        fingerprint: sum.value(),
        puzzle: ctx.puzzle.name().to_string(),
        moves,
        options,
        depth,
    }
}
