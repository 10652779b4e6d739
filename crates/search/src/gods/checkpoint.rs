//! Checkpoints: the state of an enumeration after a complete depth, so a
//! killed run can continue to the identical result.
//!
//! Engines hand a [`CheckpointStore`] a header and a stream of 64-bit
//! words; they never touch files. [`FileCheckpoint`] keeps them in a file,
//! written atomically (a temporary file beside it, flushed to disk, then
//! renamed over it) with a text header saying what run it belongs to and a
//! checksum over everything:
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

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::hashing::Checksum;
use super::{metric_name, Context, GodsError};

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
        if self.version != expected.version {
            return Err(GodsError::CheckpointMismatch(format!(
                "format version {} where this program writes {}",
                self.version, expected.version
            )));
        }
        if self.options != expected.options {
            return Err(GodsError::CheckpointMismatch(format!(
                "options {:?}, this run has {:?}",
                self.options, expected.options
            )));
        }
        if self.moves != expected.moves {
            return Err(GodsError::CheckpointMismatch(format!(
                "moves {:?}, this run has {:?}",
                self.moves, expected.moves
            )));
        }
        if self.fingerprint != expected.fingerprint {
            return Err(GodsError::CheckpointMismatch(format!(
                "puzzle {:?} is not this run's {:?}",
                self.puzzle, expected.puzzle
            )));
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

/// Checkpoints in a file, replaced atomically.
#[derive(Clone, Debug)]
pub struct FileCheckpoint {
    path: PathBuf,
}

impl FileCheckpoint {
    /// Checkpoints kept at `path`.
    pub fn new(path: impl Into<PathBuf>) -> FileCheckpoint {
        FileCheckpoint { path: path.into() }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn temp_path(&self) -> PathBuf {
        let mut name = self
            .path
            .file_name()
            .map(|n| n.to_os_string())
            .unwrap_or_default();
        name.push(format!(".tmp{}", std::process::id()));
        self.path.with_file_name(name)
    }
}

fn io_error(path: &Path, source: std::io::Error) -> GodsError {
    GodsError::Checkpoint(CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn header_text(h: &CheckpointHeader) -> String {
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    format!(
        "{MAGIC} {}\nfingerprint {:016x}\npuzzle {}\nmoves {}\noptions {}\ndepth {}\nend\n",
        h.version,
        h.fingerprint,
        one_line(&h.puzzle),
        one_line(&h.moves),
        one_line(&h.options),
        h.depth
    )
}

impl CheckpointStore for FileCheckpoint {
    fn save(
        &mut self,
        header: &CheckpointHeader,
        words: &mut dyn Iterator<Item = u64>,
    ) -> Result<(), GodsError> {
        let temp = self.temp_path();
        let result = (|| -> std::io::Result<()> {
            let mut body = BufWriter::with_capacity(1 << 20, File::create(&temp)?);
            let mut sum = Checksum::default();
            let text = header_text(header);
            sum.bytes(text.as_bytes());
            body.write_all(text.as_bytes())?;
            for w in words {
                sum.word(w);
                body.write_all(&w.to_le_bytes())?;
            }
            body.write_all(&sum.value().to_le_bytes())?;
            let file = body.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            Ok(())
        })();
        if let Err(e) = result {
            let _ = std::fs::remove_file(&temp);
            return Err(io_error(&temp, e));
        }
        std::fs::rename(&temp, &self.path).map_err(|e| io_error(&self.path, e))?;
        Ok(())
    }

    fn load(&mut self) -> Result<Option<(CheckpointHeader, Vec<u64>)>, GodsError> {
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_error(&self.path, e)),
        };
        let path = &self.path;
        let corrupt = |what: &str| {
            GodsError::Checkpoint(CheckpointError::Corrupt {
                path: path.clone(),
                reason: what.to_string(),
            })
        };
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut text = String::new();
        let mut fields: Vec<(String, String)> = Vec::new();
        loop {
            let mut line = String::new();
            let n = (&mut r)
                .take(4096)
                .read_line(&mut line)
                .map_err(|e| io_error(path, e))?;
            if n == 0 || !line.ends_with('\n') {
                return Err(corrupt("the header is cut short"));
            }
            text.push_str(&line);
            let line = line.trim_end_matches('\n');
            if line == "end" {
                break;
            }
            let (k, v) = line.split_once(' ').unwrap_or((line, ""));
            fields.push((k.to_string(), v.to_string()));
            if fields.len() > 32 {
                return Err(corrupt("the header is too long"));
            }
        }
        let get = |k: &str| {
            fields
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
                .ok_or_else(|| corrupt(&format!("no {k} line")))
        };
        let version: u32 = get(MAGIC)?.parse().map_err(|_| corrupt("bad version"))?;
        let header = CheckpointHeader {
            version,
            fingerprint: u64::from_str_radix(get("fingerprint")?, 16)
                .map_err(|_| corrupt("bad fingerprint"))?,
            puzzle: get("puzzle")?.to_string(),
            moves: get("moves")?.to_string(),
            options: get("options")?.to_string(),
            depth: get("depth")?.parse().map_err(|_| corrupt("bad depth"))?,
        };
        // The words fill the file between the header and the checksum.
        let len = std::fs::metadata(path)
            .map_err(|e| io_error(path, e))?
            .len();
        let body = len
            .checked_sub(8 + text.len() as u64)
            .filter(|b| b % 8 == 0)
            .ok_or_else(|| corrupt("its length does not fit its header"))?;
        let count = body / 8;
        let mut sum = Checksum::default();
        sum.bytes(text.as_bytes());
        let mut words = Vec::with_capacity(count as usize);
        let mut buf = [0u8; 8];
        for _ in 0..count {
            r.read_exact(&mut buf).map_err(|e| io_error(path, e))?;
            let w = u64::from_le_bytes(buf);
            sum.word(w);
            words.push(w);
        }
        r.read_exact(&mut buf).map_err(|e| io_error(path, e))?;
        if u64::from_le_bytes(buf) != sum.value() {
            return Err(corrupt("checksum mismatch"));
        }
        Ok(Some((header, words)))
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
