//! Pruning tables kept on disk between runs.
//!
//! A table file starts with a fixed magic, a format version and a header
//! naming what the table is (the puzzle, a key hashing the layout, moves,
//! goal and projection, the table's size and its extras: the distance
//! counts of a projection, the fill depth of the hashed table); the
//! packed entries follow, then a checksum of them. Files are written to a
//! temporary name and renamed into place, so a reader never sees half a
//! file. A file that is corrupt, truncated or for something else is never
//! trusted: loading says why, and the caller rebuilds it.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::hashed::{HashedSymmetry, HashedTable};
use crate::projection::Projection;
use crate::table::{Nibbles, PruneTable};

const MAGIC: &[u8; 16] = b"TWISTOR-PRUNETAB";
/// Bump whenever indexing changes: tables of another version are rebuilt.
const VERSION: u32 = 3;

/// Where tables are cached, and whether new ones may be written.
#[derive(Clone, Debug)]
pub struct TableCache {
    /// The directory.
    pub dir: PathBuf,
    /// Whether to write tables that were built.
    pub write: bool,
}

/// Why a cached table was not used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheError {
    /// Not a table file, or for another version.
    #[error("not a table file of this version")]
    Foreign,
    /// A table for something else.
    #[error("the table is for another puzzle, move set or projection")]
    Mismatch,
    /// Shorter than its header says.
    #[error("the file is truncated")]
    Truncated,
    /// The contents do not match their checksum.
    #[error("the checksum does not match the contents")]
    Checksum,
    /// Reading or writing failed.
    #[error("{0}")]
    Io(String),
}

/// How many entries a table file must have.
#[derive(Clone, Copy)]
enum Size {
    Exactly(u64),
    AtMost(u64),
}

/// A table file's contents once checked.
struct RawTable {
    /// Its entries.
    size: u64,
    /// What the header carries beside the size (a histogram, a depth).
    extras: Vec<u64>,
    /// The packed entries.
    words: Vec<u64>,
}

/// 64-bit FNV-1a, for keys and checksums (stable across builds and platforms).
pub(crate) fn fnv1a(bytes: &[u8], seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A checksum over table words, fast enough for gigabytes.
fn checksum(words: impl Iterator<Item = u64>) -> u64 {
    words
        .enumerate()
        .fold(CHECKSUM_SEED, |h, (i, w)| checksum_step(h, i, w))
}

const CHECKSUM_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// One word of [`checksum`], so a writer can sum as it goes.
#[inline]
fn checksum_step(h: u64, i: usize, w: u64) -> u64 {
    (h ^ w.wrapping_add(i as u64))
        .wrapping_mul(0xBF58_476D_1CE4_E5B9)
        .rotate_left(29)
}

impl TableCache {
    /// The file a table with `key` lives in.
    pub fn path(&self, puzzle: &str, key: u64) -> PathBuf {
        let name: String = puzzle
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(40)
            .collect();
        self.dir.join(format!("{name}-{key:016x}.prune"))
    }

    /// Loads the table with `key` for `projection`, if the file is there
    /// and sound. `Ok(None)` when there is no file.
    pub fn load(
        &self,
        puzzle: &str,
        key: u64,
        projection: Projection,
    ) -> Result<Option<PruneTable>, CacheError> {
        let size = projection.size();
        let Some(raw) = self.read_raw(puzzle, key, Size::Exactly(size))? else {
            return Ok(None);
        };
        // The header's extras are whether the table is complete, its last
        // complete layer, then the distance histogram.
        let [complete, filled, histogram @ ..] = &raw.extras[..] else {
            return Err(CacheError::Foreign);
        };
        // A table is only written once its first layer is filled.
        if *complete > 1
            || *filled >= crate::table::UNREACHED as u64
            || (*filled == 0 && *complete == 0)
        {
            return Err(CacheError::Foreign);
        }
        if histogram.iter().sum::<u64>() != size {
            return Err(CacheError::Checksum);
        }
        Ok(Some(PruneTable::from_parts(
            projection,
            Nibbles::from_words(raw.words),
            histogram.to_vec(),
            *filled as u8,
            *complete == 1,
        )))
    }

    /// Writes a table atomically (temporary file, then rename).
    pub fn store(&self, puzzle: &str, key: u64, table: &PruneTable) -> Result<PathBuf, CacheError> {
        let mut extras = vec![table.is_complete() as u64, table.filled_depth() as u64];
        extras.extend_from_slice(table.histogram());
        self.write_raw(
            puzzle,
            key,
            table.projection().size(),
            &extras,
            table.data().words(),
        )
    }

    /// Loads the hashed table with `key` and at most `max_entries` entries
    /// (it may have grown deeper and larger since it was first built), if
    /// the file is there and sound. `Ok(None)` when there is no file.
    pub fn load_hashed(
        &self,
        puzzle: &str,
        key: u64,
        max_entries: u64,
        symmetry: Option<&HashedSymmetry>,
    ) -> Result<Option<HashedTable>, CacheError> {
        let Some(raw) = self.read_raw(puzzle, key, Size::AtMost(max_entries))? else {
            return Ok(None);
        };
        let entries = raw.size;
        // The header's extras are the fill depth and the insertion count.
        let &[depth, inserted] = &raw.extras[..] else {
            return Err(CacheError::Foreign);
        };
        if depth >= 15 {
            return Err(CacheError::Foreign);
        }
        Ok(Some(HashedTable::from_parts(
            raw.words,
            entries,
            depth as u8,
            inserted,
            symmetry,
        )))
    }

    /// Writes a hashed table atomically.
    pub fn store_hashed(
        &self,
        puzzle: &str,
        key: u64,
        table: &HashedTable,
    ) -> Result<PathBuf, CacheError> {
        self.write_raw(
            puzzle,
            key,
            table.size(),
            &[table.depth() as u64, table.inserted()],
            table.words(),
        )
    }

    /// Reads and checks a file of four-bit entries, as many as `size` says.
    fn read_raw(&self, puzzle: &str, key: u64, size: Size) -> Result<Option<RawTable>, CacheError> {
        let path = self.path(puzzle, key);
        let file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(CacheError::Io(format!("{}: {e}", path.display()))),
        };
        let mut r = BufReader::with_capacity(1 << 20, file);
        let mut magic = [0u8; 16];
        r.read_exact(&mut magic)
            .map_err(|_| CacheError::Truncated)?;
        if &magic != MAGIC {
            return Err(CacheError::Foreign);
        }
        let version = read_u64(&mut r)?;
        if version != VERSION as u64 {
            return Err(CacheError::Foreign);
        }
        let file_key = read_u64(&mut r)?;
        let file_size = read_u64(&mut r)?;
        let fits = match size {
            Size::Exactly(n) => file_size == n,
            Size::AtMost(n) => file_size <= n && file_size > 0,
        };
        if file_key != key || !fits {
            return Err(CacheError::Mismatch);
        }
        let size = file_size;
        let extras_len = read_u64(&mut r)?;
        if extras_len > 64 {
            return Err(CacheError::Foreign);
        }
        let mut extras = Vec::with_capacity(extras_len as usize);
        for _ in 0..extras_len {
            extras.push(read_u64(&mut r)?);
        }
        let nwords = size.div_ceil(16) as usize;
        let mut words = Vec::new();
        words
            .try_reserve_exact(nwords)
            .map_err(|_| CacheError::Io("out of memory".into()))?;
        let mut buf = vec![0u8; 1 << 16];
        while words.len() < nwords {
            let want = ((nwords - words.len()) * 8).min(buf.len());
            r.read_exact(&mut buf[..want])
                .map_err(|_| CacheError::Truncated)?;
            words.extend(
                buf[..want]
                    .chunks_exact(8)
                    .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
            );
        }
        let stored = read_u64(&mut r)?;
        if stored != checksum(words.iter().copied()) {
            return Err(CacheError::Checksum);
        }
        Ok(Some(RawTable {
            size,
            extras,
            words,
        }))
    }

    /// Writes a file of `size` four-bit entries atomically.
    fn write_raw(
        &self,
        puzzle: &str,
        key: u64,
        size: u64,
        extras: &[u64],
        words: impl Iterator<Item = u64>,
    ) -> Result<PathBuf, CacheError> {
        let io = |e: std::io::Error| CacheError::Io(e.to_string());
        fs::create_dir_all(&self.dir)
            .map_err(|e| CacheError::Io(format!("{}: {e}", self.dir.display())))?;
        let path = self.path(puzzle, key);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let written = (|| {
            let mut w = BufWriter::with_capacity(
                1 << 20,
                File::create(&tmp)
                    .map_err(|e| CacheError::Io(format!("{}: {e}", tmp.display())))?,
            );
            w.write_all(MAGIC).map_err(io)?;
            for v in [VERSION as u64, key, size, extras.len() as u64] {
                w.write_all(&v.to_le_bytes()).map_err(io)?;
            }
            for &h in extras {
                w.write_all(&h.to_le_bytes()).map_err(io)?;
            }
            // The checksum is summed while writing: one pass over the table.
            let mut sum = CHECKSUM_SEED;
            for (i, word) in words.enumerate() {
                sum = checksum_step(sum, i, word);
                w.write_all(&word.to_le_bytes()).map_err(io)?;
            }
            w.write_all(&sum.to_le_bytes()).map_err(io)?;
            w.flush().map_err(io)?;
            w.get_ref().sync_all().map_err(io)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        fs::rename(&tmp, &path).map_err(|e| {
            let _ = fs::remove_file(&tmp);
            CacheError::Io(format!("{}: {e}", path.display()))
        })?;
        Ok(path)
    }

    /// Removes a file that could not be used.
    pub fn discard(&self, puzzle: &str, key: u64) {
        let _ = fs::remove_file(self.path(puzzle, key));
    }
}

fn read_u64(r: &mut impl Read) -> Result<u64, CacheError> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b).map_err(|_| CacheError::Truncated)?;
    Ok(u64::from_le_bytes(b))
}

/// The user's cache directory for twistor: `$XDG_CACHE_HOME/twistor`, else
/// `$HOME/.cache/twistor`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(Path::new(&x).join("twistor"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| Path::new(&h).join(".cache").join("twistor"))
}
