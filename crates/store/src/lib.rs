//! twistor's tables on disk: the one place that reads and writes them
//! (and God's-algorithm checkpoints: [`FileCheckpoint`]).
//!
//! Long (just past 800 lines) because the file format, its reader, its
//! writer and the cache's eviction are one contract, kept in one file
//! beside its tests; checkpoints and shards are modules of their own.
//!
//! Engines (`twistor-search`, `twistor-cube333`) are handed a
//! [`TableStore`] and never open a file;
//! [`DirStore`] is the store they are handed when tables should outlive
//! the process. Every pruning table, whichever engine built it, is one
//! file in the cache directory ([`default_cache_dir`]:
//! `$XDG_CACHE_HOME/twistor`, else `~/.cache/twistor`), named after its
//! key, `<name>-<id>.tbl`:
//!
//! ```text
//! offset  size  field
//!      0    16  magic "TWISTOR-TABLES\0\0"
//!     16     4  format version (little-endian u32)
//!     24     8  the key's id
//!     32     8  payload length in bytes
//!     40     8  checksum of the payload
//!     48     8  number of extras (at most 480)
//!     56    64  the key's name, NUL-padded
//!    128   8·n  extras (u64 each)
//!   4096        payload (page-aligned, so it is mapped as it lies)
//! ```
//!
//! A file is trusted only when its magic, version, key, length and
//! checksum are all right; otherwise loading says why (the engine reports
//! it and rebuilds the table, and the new file replaces the bad one).
//! Files are written under a temporary name, flushed and renamed into
//! place, so a reader never sees half a table and a mapped file is never
//! changed under its reader. Files of the two formats before this one
//! (the search engine's `.prune` files and the 3x3x3 solver's `-v2.tbl`
//! files) are recognised as outdated, reported and removed.
//!
//! ```
//! use twistor_core::store::{PayloadLen, TableKey, TableStore};
//! use twistor_store::DirStore;
//!
//! let dir = std::env::temp_dir().join(format!("twistor-store-doc-{}", std::process::id()));
//! let store = DirStore::new(&dir);
//! let key = TableKey::new("demo", 42);
//! store.save(&key, &[7], 3, &mut |w| w.write_all(b"abc")).unwrap();
//! let table = store.load(&key, PayloadLen::Exactly(3)).unwrap().unwrap();
//! assert_eq!((&*table.bytes, &table.extras[..]), (&b"abc"[..], &[7u64][..]));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

#![deny(missing_docs)]

mod checkpoint;
mod shards;

pub use checkpoint::FileCheckpoint;
pub use shards::DirShardStore;

use std::fs::{self, File};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use twistor_core::store::{
    MismatchReason, OutdatedReason, PayloadLen, PayloadWriter, SizeReason, StoreError, StoredTable,
    TableBytes, TableKey, TableStore,
};

const MAGIC: &[u8; 16] = b"TWISTOR-TABLES\0\0";
/// The version of the table file format; files of another are rebuilt.
pub const FORMAT_VERSION: u32 = 4;
/// Header size: one page, so the payload is page-aligned when mapped.
pub const HEADER_LEN: usize = 4096;
const EXTRAS_AT: usize = 128;
const MAX_EXTRAS: usize = (HEADER_LEN - EXTRAS_AT) / 8;
/// Magics of the formats before this one.
const OUTDATED: [(&[u8], &str); 2] = [
    (b"TWISTOR-PRUNETAB", "the search engine's table format 3"),
    (b"TWISTOR3", "the 3x3x3 solver's table format 2"),
];

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

/// Removes the temporary files that processes killed while writing left
/// in `dir` (tables, shards and checkpoints are written as
/// `<name>.tmp<pid>` and renamed into place): those whose `<name>`
/// `ours` accepts and whose process is gone (on Linux, no `/proc/<pid>`;
/// elsewhere, a day old). Returns how many it removed; a directory that
/// cannot be read has none.
pub fn remove_stale_temporaries(dir: &Path, ours: impl Fn(&str) -> bool) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((pid, written)) = name.to_str().and_then(temporary_pid) else {
            continue;
        };
        if !ours(written) {
            continue;
        }
        let gone = if cfg!(target_os = "linux") {
            pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists()
        } else {
            entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 24 * 3600)
        };
        if gone && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The writer's process id and the name written, when `name` is a
/// temporary file's name.
fn temporary_pid(name: &str) -> Option<(u32, &str)> {
    let (written, tail) = name.rsplit_once(".tmp")?;
    if tail.is_empty() || !tail.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((tail.parse().ok()?, written))
}

impl DirStore {
    /// Removes the temporary table files killed processes left (see
    /// [`remove_stale_temporaries`]); returns how many.
    pub fn remove_stale_temporaries(&self) -> usize {
        remove_stale_temporaries(&self.dir, |written| {
            written.starts_with('.') && written.ends_with(".tbl")
        })
    }
}

/// Tables in a directory, one file each.
#[derive(Clone, Debug)]
pub struct DirStore {
    dir: PathBuf,
    write: bool,
    limit: Option<u64>,
}

impl DirStore {
    /// Tables kept in `dir` (created when the first table is written).
    pub fn new(dir: impl Into<PathBuf>) -> DirStore {
        DirStore {
            dir: dir.into(),
            write: true,
            limit: None,
        }
    }

    /// The same directory, holding at most `bytes` of tables: after a
    /// table is saved, the least recently used others are removed until
    /// the rest fit (a table is used when it is saved or loaded).
    pub fn with_limit(self, bytes: u64) -> DirStore {
        DirStore {
            limit: Some(bytes),
            ..self
        }
    }

    /// Removes the least recently used tables but `keep` until the tables
    /// in the directory take at most the limit. Returns how many it
    /// removed.
    fn evict(&self, keep: &Path) -> usize {
        let (Some(limit), Ok(entries)) = (self.limit, fs::read_dir(&self.dir)) else {
            return 0;
        };
        let mut tables: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == "tbl"))
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                Some((m.modified().ok()?, m.len(), e.path()))
            })
            .collect();
        let mut total: u64 = tables.iter().map(|t| t.1).sum();
        tables.sort();
        let mut removed = 0;
        for (_, len, path) in tables {
            if total <= limit {
                break;
            }
            if path != keep && fs::remove_file(&path).is_ok() {
                total -= len;
                removed += 1;
            }
        }
        removed
    }

    /// Marks `path` as used now (its modification time: access times are
    /// often not kept).
    fn touch(&self, path: &Path) {
        if self.write && self.limit.is_some() {
            if let Ok(f) = File::open(path) {
                let _ = f.set_modified(std::time::SystemTime::now());
            }
        }
    }

    /// The same directory, read but never written.
    pub fn read_only(self) -> DirStore {
        DirStore {
            write: false,
            ..self
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `key`.
    pub fn path(&self, key: &TableKey) -> PathBuf {
        self.dir
            .join(format!("{}-{:016x}.tbl", file_stem(&key.name), key.id))
    }

    /// Files an older twistor kept `key` in.
    fn outdated_paths(&self, key: &TableKey) -> [PathBuf; 2] {
        let stem = file_stem(&key.name);
        [
            self.dir.join(format!("{stem}-{:016x}.prune", key.id)),
            self.dir.join(format!("{stem}-v2.tbl")),
        ]
    }

    /// Opens and maps `path`; `None` when there is no such file.
    fn map(path: &Path) -> Result<Option<Mmap>, StoreError> {
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(io(path, source)),
        };
        // SAFETY: the map is read-only and twistor never writes to a table
        // file in place (new files are renamed over old ones, which leaves
        // existing maps on the old inode). Another program truncating the
        // file while it is mapped is outside what any reader can guard.
        let map = unsafe { Mmap::map(&file) }.map_err(|source| io(path, source))?;
        Ok(Some(map))
    }
}

/// The key's name as a file-name stem: letters, digits, `-` and `_`.
fn file_stem(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect()
}

fn io(path: &Path, source: std::io::Error) -> StoreError {
    StoreError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// What an outdated file's magic says it is, if it is one.
fn outdated(bytes: &[u8]) -> Option<&'static str> {
    OUTDATED
        .iter()
        .find(|(magic, _)| bytes.starts_with(magic))
        .map(|(_, what)| *what)
}

/// Checks a header against `key` and `len`; the payload's length and
/// checksum too when `contents` is set. Returns the extras.
fn validate(
    key: &TableKey,
    len: PayloadLen,
    m: &[u8],
    contents: bool,
) -> Result<Vec<u64>, StoreError> {
    if let Some(what) = outdated(m) {
        return Err(StoreError::Outdated {
            reason: OutdatedReason::Format {
                format: what.to_string(),
            },
        });
    }
    if !m.starts_with(&MAGIC[..m.len().min(16)]) {
        return Err(StoreError::Foreign);
    }
    if m.len() < HEADER_LEN {
        return Err(StoreError::Size {
            reason: SizeReason::ShorterThanHeader {
                found: m.len() as u64,
            },
        });
    }
    let version = u32::from_le_bytes([m[16], m[17], m[18], m[19]]);
    if version != FORMAT_VERSION {
        return Err(StoreError::Outdated {
            reason: OutdatedReason::Version {
                found: version,
                current: FORMAT_VERSION,
            },
        });
    }
    let name_end = m[56..120].iter().position(|&b| b == 0).unwrap_or(64);
    let name = String::from_utf8_lossy(&m[56..56 + name_end]);
    if name != key.name || read_u64(m, 24) != key.id {
        return Err(StoreError::Mismatch {
            reason: MismatchReason::Key {
                found: TableKey::new(name, read_u64(m, 24)),
                expected: key.clone(),
            },
        });
    }
    let payload = read_u64(m, 32);
    if !len.admits(payload) {
        return Err(StoreError::Mismatch {
            reason: MismatchReason::Length {
                found: payload,
                expected: len,
            },
        });
    }
    let nextras = read_u64(m, 48) as usize;
    if nextras > MAX_EXTRAS {
        return Err(StoreError::Foreign);
    }
    let extras = (0..nextras)
        .map(|i| read_u64(m, EXTRAS_AT + 8 * i))
        .collect();
    if contents {
        if m.len() as u64 != HEADER_LEN as u64 + payload {
            return Err(StoreError::Size {
                reason: SizeReason::NotAsHeader {
                    found: (m.len() - HEADER_LEN) as u64,
                    header: payload,
                },
            });
        }
        let mut sum = Checksum::default();
        sum.update(&m[HEADER_LEN..]);
        if sum.finish() != read_u64(m, 40) {
            return Err(StoreError::Checksum);
        }
    }
    Ok(extras)
}

/// A mapped file whose payload starts at [`HEADER_LEN`].
struct Payload(Mmap);

impl AsRef<[u8]> for Payload {
    fn as_ref(&self) -> &[u8] {
        &self.0[HEADER_LEN..]
    }
}

impl TableStore for DirStore {
    fn load(&self, key: &TableKey, len: PayloadLen) -> Result<Option<StoredTable>, StoreError> {
        let path = self.path(key);
        let Some(map) = Self::map(&path)? else {
            // A table an older twistor kept: say so, and clear it away (the
            // engine rebuilds it in today's format).
            for old in self.outdated_paths(key) {
                let mut head = [0u8; 16];
                let is_outdated = File::open(&old)
                    .and_then(|mut f| f.read_exact(&mut head))
                    .map(|()| outdated(&head));
                if let Ok(Some(what)) = is_outdated {
                    if self.write {
                        let _ = fs::remove_file(&old);
                    }
                    return Err(StoreError::Outdated {
                        reason: OutdatedReason::File {
                            format: what.to_string(),
                            path: old,
                        },
                    });
                }
            }
            return Ok(None);
        };
        let extras = validate(key, len, &map, true)?;
        self.touch(&path);
        Ok(Some(StoredTable {
            extras,
            bytes: TableBytes::new(Payload(map)),
        }))
    }

    fn load_streaming(
        &self,
        key: &TableKey,
        len: PayloadLen,
        sink: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Option<Vec<u64>>, StoreError> {
        let path = self.path(key);
        let mut file = match File::open(&path) {
            Ok(f) => f,
            // No file (or an outdated one): as `load` says.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return self.load(key, len).map(|t| t.map(|t| t.extras))
            }
            Err(source) => return Err(io(&path, source)),
        };
        let mut header = vec![0u8; HEADER_LEN];
        let got = read_full(&mut file, &mut header).map_err(|e| io(&path, e))?;
        header.truncate(got);
        let extras = validate(key, len, &header, false)?;
        let payload = read_u64(&header, 32);
        // Read, not mapped: the engine copies the payload anyway, and a
        // mapping's pages would count against the process twice.
        let mut sum = Checksum::default();
        let mut buf = vec![0u8; 1 << 20];
        let mut left = payload;
        while left > 0 {
            let want = (left as usize).min(buf.len());
            let got = read_full(&mut file, &mut buf[..want]).map_err(|e| io(&path, e))?;
            if got < want {
                return Err(StoreError::Size {
                    reason: SizeReason::NotAsHeader {
                        found: payload - left + got as u64,
                        header: payload,
                    },
                });
            }
            sum.update(&buf[..want]);
            sink(payload, &buf[..want]);
            left -= want as u64;
        }
        if read_full(&mut file, &mut buf[..1]).map_err(|e| io(&path, e))? > 0 {
            return Err(StoreError::Size {
                reason: SizeReason::PastHeader { header: payload },
            });
        }
        if sum.finish() != read_u64(&header, 40) {
            return Err(StoreError::Checksum);
        }
        self.touch(&path);
        Ok(Some(extras))
    }

    fn save(
        &self,
        key: &TableKey,
        extras: &[u64],
        len: u64,
        payload: PayloadWriter,
    ) -> Result<(), StoreError> {
        if !self.write {
            return Ok(());
        }
        if extras.len() > MAX_EXTRAS {
            return Err(StoreError::Size {
                reason: SizeReason::TooManyExtras {
                    count: extras.len(),
                },
            });
        }
        fs::create_dir_all(&self.dir).map_err(|e| io(&self.dir, e))?;
        let path = self.path(key);
        let tmp = self.dir.join(format!(
            ".{}.tmp{}",
            path.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            std::process::id()
        ));
        let mut header = vec![0u8; HEADER_LEN];
        header[..16].copy_from_slice(MAGIC);
        header[16..20].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        header[24..32].copy_from_slice(&key.id.to_le_bytes());
        header[32..40].copy_from_slice(&len.to_le_bytes());
        header[48..56].copy_from_slice(&(extras.len() as u64).to_le_bytes());
        let name = key.name.as_bytes();
        header[56..56 + name.len().min(64)].copy_from_slice(&name[..name.len().min(64)]);
        for (i, x) in extras.iter().enumerate() {
            header[EXTRAS_AT + 8 * i..EXTRAS_AT + 8 * i + 8].copy_from_slice(&x.to_le_bytes());
        }
        let fill = |out: &mut BufWriter<File>| -> Result<(), StoreError> {
            out.write_all(&header).map_err(|e| io(&tmp, e))?;
            let mut sink = Summing {
                out: &mut *out,
                sum: Checksum::default(),
                written: 0,
            };
            payload(&mut sink).map_err(|e| io(&tmp, e))?;
            if sink.written != len {
                return Err(StoreError::Size {
                    reason: SizeReason::PayloadWritten {
                        written: sink.written,
                        announced: len,
                    },
                });
            }
            let sum = sink.sum.finish();
            // The checksum is known only now: it goes into the header last
            // (a seek flushes the buffer first).
            out.seek(SeekFrom::Start(40))
                .and_then(|_| out.write_all(&sum.to_le_bytes()))
                .map_err(|e| io(&tmp, e))
        };
        write_atomically(&path, &tmp, fill, io)?;
        self.evict(&path);
        Ok(())
    }

    fn contains(&self, key: &TableKey, len: PayloadLen) -> bool {
        let mut head = vec![0u8; HEADER_LEN];
        File::open(self.path(key))
            .and_then(|mut f| f.read_exact(&mut head))
            .is_ok()
            && validate(key, len, &head, false).is_ok()
    }

    fn discard(&self, key: &TableKey) {
        if self.write {
            let _ = fs::remove_file(self.path(key));
        }
    }

    fn location(&self, key: &TableKey) -> Option<String> {
        Some(self.path(key).display().to_string())
    }

    fn writes(&self) -> bool {
        self.write
    }
}

/// Reads until `buf` is full or the file ends; how many bytes were read.
fn read_full(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// A writer that sums and counts what passes through it.
/// Writes the file at `path` whole or not at all: `write` fills `temp`
/// (a file beside it, buffered), which is flushed to disk and renamed over
/// `path`, so a reader sees the old file or the new one, never half of
/// one, and a mapped old file keeps its inode. On any failure `temp` is
/// removed; `io` names the file an I/O error concerns.
pub(crate) fn write_atomically<E>(
    path: &Path,
    temp: &Path,
    write: impl FnOnce(&mut BufWriter<File>) -> Result<(), E>,
    io: impl Fn(&Path, std::io::Error) -> E,
) -> Result<(), E> {
    let written = (|| {
        let file = File::create(temp).map_err(|e| io(temp, e))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| io(temp, e.into_error()))?;
        file.sync_all().map_err(|e| io(temp, e))
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(temp);
        return Err(e);
    }
    fs::rename(temp, path).map_err(|e| {
        let _ = fs::remove_file(temp);
        io(path, e)
    })
}

struct Summing<W> {
    out: W,
    sum: Checksum,
    written: u64,
}

impl<W: Write> Write for Summing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.sum.update(&buf[..n]);
        self.written += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// A 64-bit checksum of a byte stream: four interleaved multiply-rotate
/// lanes over 32-byte blocks, fast enough to check a gigabyte in well
/// under a second; any changed, missing or moved word changes it.
#[derive(Default)]
struct Checksum {
    lanes: [u64; 4],
    pending: [u8; 32],
    npending: usize,
    total: u64,
}

const LANE_K: [u64; 4] = [
    0x9E37_79B9_7F4A_7C15,
    0xC2B2_AE3D_27D4_EB4F,
    0x1656_67B1_9E37_79F9,
    0x85EB_CA77_C2B2_AE63,
];

impl Checksum {
    #[inline]
    fn block(&mut self, b: &[u8]) {
        for l in 0..4 {
            let w = u64::from_le_bytes(b[l * 8..l * 8 + 8].try_into().expect("8 bytes"));
            self.lanes[l] = (self.lanes[l] ^ w).wrapping_mul(LANE_K[l]).rotate_left(29);
        }
    }

    fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.npending > 0 {
            let take = (32 - self.npending).min(data.len());
            self.pending[self.npending..self.npending + take].copy_from_slice(&data[..take]);
            self.npending += take;
            data = &data[take..];
            if self.npending < 32 {
                return;
            }
            let block = self.pending;
            self.block(&block);
            self.npending = 0;
        }
        let mut blocks = data.chunks_exact(32);
        for b in &mut blocks {
            self.block(b);
        }
        let rest = blocks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.npending = rest.len();
    }

    fn finish(mut self) -> u64 {
        if self.npending > 0 {
            let mut block = [0u8; 32];
            block[..self.npending].copy_from_slice(&self.pending[..self.npending]);
            self.block(&block);
        }
        let total = self.total;
        self.lanes.iter().enumerate().fold(total, |a, (i, &x)| {
            (a ^ x).wrapping_mul(LANE_K[i]).rotate_left(31)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("twistor-store-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn checksum_is_the_same_however_the_stream_is_cut() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 31 % 251) as u8).collect();
        let mut whole = Checksum::default();
        whole.update(&data);
        let whole = whole.finish();
        for cut in [1, 7, 31, 32, 33, 500] {
            let mut parts = Checksum::default();
            for c in data.chunks(cut) {
                parts.update(c);
            }
            assert_eq!(parts.finish(), whole, "cut {cut}");
        }
        let mut moved = data.clone();
        moved.swap(3, 40);
        let mut m = Checksum::default();
        m.update(&moved);
        assert_ne!(m.finish(), whole);
        let mut short = Checksum::default();
        short.update(&data[..999]);
        assert_ne!(short.finish(), whole);
    }

    #[test]
    fn every_kind_of_damage_is_detected() {
        let dir = temp_dir("damage");
        let store = DirStore::new(&dir);
        let key = TableKey::new("unit-test", 5);
        let payload: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
        store
            .save(&key, &[1, 2], payload.len() as u64, &mut |w| {
                w.write_all(&payload)
            })
            .unwrap();
        let len = PayloadLen::Exactly(payload.len() as u64);
        let t = store.load(&key, len).unwrap().unwrap();
        assert_eq!(&*t.bytes, &payload[..]);
        assert!(store.contains(&key, len));
        drop(t);
        let path = store.path(&key);
        let good = fs::read(&path).unwrap();
        let flip = |at: usize| {
            let mut b = good.clone();
            b[at] ^= 1;
            b
        };
        type Expected = fn(&StoreError) -> bool;
        let cases: Vec<(Vec<u8>, Expected)> = vec![
            (flip(HEADER_LEN + 5000), |e| {
                matches!(e, StoreError::Checksum)
            }),
            (good[..good.len() - 10].to_vec(), |e| {
                matches!(e, StoreError::Size { .. })
            }),
            (flip(0), |e| matches!(e, StoreError::Foreign)),
            (flip(16), |e| matches!(e, StoreError::Outdated { .. })),
            (flip(56), |e| matches!(e, StoreError::Mismatch { .. })),
            (flip(24), |e| matches!(e, StoreError::Mismatch { .. })),
        ];
        // Streamed, the same bytes and extras come back.
        let mut streamed = Vec::new();
        let extras = store
            .load_streaming(&key, len, &mut |total, piece| {
                assert_eq!(total, payload.len() as u64);
                streamed.extend_from_slice(piece)
            })
            .unwrap();
        assert_eq!((streamed, extras), (payload.clone(), Some(vec![1, 2])));
        for (i, (bytes, expected)) in cases.into_iter().enumerate() {
            fs::write(&path, &bytes).unwrap();
            match store.load(&key, len) {
                Err(e) => assert!(expected(&e), "case {i}: {e}"),
                Ok(t) => panic!("case {i}: damage not detected ({t:?})"),
            }
            match store.load_streaming(&key, len, &mut |_, _| {}) {
                Err(e) => assert!(expected(&e), "case {i}, streamed: {e}"),
                Ok(x) => panic!("case {i}: damage not detected when streamed ({x:?})"),
            }
        }
        // Another length than the engine expects.
        fs::write(&path, &good).unwrap();
        assert!(store.load(&key, PayloadLen::Exactly(9_999)).is_err());
        assert!(store
            .load(&key, PayloadLen::AtMost(10_000))
            .unwrap()
            .is_some());
        // A writer that writes less than it announced leaves nothing behind.
        let other = TableKey::new("unit-test", 6);
        assert!(store
            .save(&other, &[], 10, &mut |w| w.write_all(b"abc"))
            .is_err());
        assert!(!store.path(&other).exists());
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1, "no temporary left");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn outdated_files_are_reported_and_removed() {
        let dir = temp_dir("outdated");
        fs::create_dir_all(&dir).unwrap();
        let store = DirStore::new(&dir);
        let key = TableKey::new("3x3x3", 0xabc);
        let old = dir.join(format!("3x3x3-{:016x}.prune", 0xabc));
        let mut bytes = b"TWISTOR-PRUNETAB".to_vec();
        bytes.extend_from_slice(&[0; 64]);
        fs::write(&old, &bytes).unwrap();
        assert!(matches!(
            store.load(&key, PayloadLen::Exactly(8)),
            Err(StoreError::Outdated { .. })
        ));
        assert!(!old.exists(), "the outdated file is cleared away");
        assert!(store.load(&key, PayloadLen::Exactly(8)).unwrap().is_none());
        // A read-only store reports it but leaves it.
        fs::write(&old, &bytes).unwrap();
        let read_only = DirStore::new(&dir).read_only();
        assert!(read_only.load(&key, PayloadLen::Exactly(8)).is_err());
        assert!(old.exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
