//! Table files on disk: a self-describing header, a checksum, atomic
//! writes and memory-mapped loading.
//!
//! Pruning tables take seconds to minutes to build, so they are cached in
//! the user's cache directory. A file is only trusted when its header names
//! the right format version, table and parameters, its length is right and
//! the checksum of its contents matches; anything else is reported through
//! the [`CacheEvent`] callback and the table is rebuilt. Files are written
//! to a temporary name and renamed into place, so a reader never sees a
//! half-written file and a mapped file is never modified under a reader.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use memmap2::{Advice, Mmap, MmapMut};

/// Bumped whenever any table's layout or meaning changes.
pub const FORMAT_VERSION: u32 = 2;
const MAGIC: &[u8; 8] = b"TWISTOR3";
/// Header size: one page, so the payload is page-aligned when mapped.
pub const HEADER_LEN: usize = 4096;

/// Where tables are cached and whether new ones are written.
#[derive(Clone, Debug, Default)]
pub struct CacheOptions {
    /// The cache directory; `None` means the user's cache directory
    /// (`$XDG_CACHE_HOME/twistor`, else `$HOME/.cache/twistor`).
    pub dir: Option<PathBuf>,
    /// Never write table files (still read valid ones).
    pub no_write: bool,
    /// Neither read nor write: build every table in memory.
    pub no_cache: bool,
    /// Search straight from the file mapping instead of copying each
    /// table into memory backed by huge pages (less memory, slower
    /// searches: random reads then miss the TLB on most probes).
    pub map_only: bool,
}

impl CacheOptions {
    /// The directory in use, if one can be determined.
    pub fn resolved_dir(&self) -> Option<PathBuf> {
        if self.no_cache {
            return None;
        }
        if let Some(d) = &self.dir {
            return Some(d.clone());
        }
        if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
            return Some(PathBuf::from(x).join("twistor"));
        }
        std::env::var_os("HOME")
            .filter(|x| !x.is_empty())
            .map(|h| PathBuf::from(h).join(".cache").join("twistor"))
    }
}

/// What happened to a table, for the caller to report or ignore.
#[derive(Clone, Debug, PartialEq)]
pub enum CacheEvent {
    /// A valid file was loaded.
    Loaded {
        /// Table name.
        table: String,
        /// The file.
        path: PathBuf,
        /// Payload size in bytes.
        bytes: u64,
    },
    /// A file was present but not trusted; the table is rebuilt.
    Rejected {
        /// Table name.
        table: String,
        /// The file.
        path: PathBuf,
        /// Why it was rejected.
        reason: String,
    },
    /// The table is about to be built (it was not cached, or not usable);
    /// `path` is where it will be written, if anywhere.
    Building {
        /// Table name.
        table: String,
        /// Where it will be written, if it will be.
        path: Option<PathBuf>,
        /// Payload size in bytes.
        bytes: u64,
    },
    /// The table was built (and written if `path` is set).
    Built {
        /// Table name.
        table: String,
        /// Where it was written, if it was.
        path: Option<PathBuf>,
        /// Payload size in bytes.
        bytes: u64,
        /// Time spent building it.
        elapsed: Duration,
    },
    /// The table was built but could not be written.
    WriteFailed {
        /// Table name.
        table: String,
        /// The file.
        path: PathBuf,
        /// The error.
        reason: String,
    },
}

/// Identifies a table: its name and parameters, both in the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableId {
    /// Short name, at most 32 bytes (also the file name stem).
    pub name: String,
    /// Parameters that change the contents (sizes, variants).
    pub params: [u64; 4],
}

impl TableId {
    pub(crate) fn file_name(&self) -> String {
        format!("{}-v{}.tbl", self.name, FORMAT_VERSION)
    }
}

/// Table bytes, owned or mapped from a file.
pub enum TableBytes {
    /// Built in memory.
    Owned(Vec<u8>),
    /// Mapped from a validated file; the payload starts at [`HEADER_LEN`].
    Mapped(Mmap),
    /// Copied into anonymous memory that asks for huge pages.
    Anon(MmapMut),
}

impl TableBytes {
    /// The payload.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        match self {
            TableBytes::Owned(v) => v,
            TableBytes::Mapped(m) => &m[HEADER_LEN..],
            TableBytes::Anon(m) => m,
        }
    }

    /// A copy in anonymous memory advised to use huge pages (Linux
    /// transparent huge pages), or `self` if that memory cannot be had.
    fn into_huge_pages(self) -> TableBytes {
        let src = self.as_slice();
        if src.is_empty() {
            return self;
        }
        let Ok(mut m) = MmapMut::map_anon(src.len()) else {
            return self;
        };
        // Only a hint: without it (or off Linux) the table still works.
        let _ = m.advise(Advice::HugePage);
        m.copy_from_slice(src);
        TableBytes::Anon(m)
    }
}

/// A 64-bit checksum of the contents (four interleaved multiply-rotate
/// lanes: fast enough to check a gigabyte in well under a second, and any
/// changed, missing or moved word changes it).
pub fn checksum(data: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
    ];
    let mut h = [1u64, 2, 3, 4];
    let mut chunks = data.chunks_exact(32);
    for c in &mut chunks {
        for l in 0..4 {
            let mut w = [0u8; 8];
            w.copy_from_slice(&c[l * 8..l * 8 + 8]);
            h[l] = (h[l] ^ u64::from_le_bytes(w))
                .wrapping_mul(K[l])
                .rotate_left(29);
        }
    }
    let mut tail = 0u64;
    for (i, &b) in chunks.remainder().iter().enumerate() {
        tail ^= (b as u64) << ((i % 8) * 8);
        if i % 8 == 7 {
            h[0] = (h[0] ^ tail).wrapping_mul(K[0]).rotate_left(29);
            tail = 0;
        }
    }
    h[1] = (h[1] ^ tail ^ data.len() as u64)
        .wrapping_mul(K[1])
        .rotate_left(29);
    h.iter().enumerate().fold(0u64, |a, (i, &x)| {
        (a ^ x).wrapping_mul(K[i]).rotate_left(31)
    })
}

fn header(id: &TableId, payload: &[u8]) -> Vec<u8> {
    let mut h = vec![0u8; HEADER_LEN];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    let name = id.name.as_bytes();
    let n = name.len().min(32);
    h[16..16 + n].copy_from_slice(&name[..n]);
    for (i, p) in id.params.iter().enumerate() {
        h[48 + 8 * i..56 + 8 * i].copy_from_slice(&p.to_le_bytes());
    }
    h[80..88].copy_from_slice(&(payload.len() as u64).to_le_bytes());
    h[88..96].copy_from_slice(&checksum(payload).to_le_bytes());
    h
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Checks a mapped file; `Err` says why it cannot be trusted.
fn validate(id: &TableId, expected_len: usize, m: &[u8]) -> Result<(), String> {
    if m.len() < HEADER_LEN {
        return Err(format!(
            "truncated: {} bytes, shorter than the header",
            m.len()
        ));
    }
    if &m[0..8] != MAGIC {
        return Err("not a twistor table file (bad magic)".into());
    }
    let version = u32::from_le_bytes([m[8], m[9], m[10], m[11]]);
    if version != FORMAT_VERSION {
        return Err(format!(
            "format version {version}, expected {FORMAT_VERSION}"
        ));
    }
    let name_end = m[16..48].iter().position(|&b| b == 0).unwrap_or(32);
    let name = String::from_utf8_lossy(&m[16..16 + name_end]);
    if name != id.name {
        return Err(format!("holds table {name:?}, expected {:?}", id.name));
    }
    for i in 0..4 {
        if read_u64(m, 48 + 8 * i) != id.params[i] {
            return Err("table parameters differ".into());
        }
    }
    let len = read_u64(m, 80);
    if len != expected_len as u64 || m.len() != HEADER_LEN + expected_len {
        return Err(format!(
            "truncated or wrong size: {} payload bytes, expected {expected_len}",
            m.len().saturating_sub(HEADER_LEN)
        ));
    }
    let sum = checksum(&m[HEADER_LEN..]);
    if sum != read_u64(m, 88) {
        return Err("checksum mismatch (corrupt contents)".into());
    }
    Ok(())
}

fn try_load(path: &Path, id: &TableId, expected_len: usize) -> Result<Option<Mmap>, String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open: {e}")),
    };
    // SAFETY: the map is read-only and this program never writes to a
    // table file in place (new files are renamed over old ones, which
    // leaves existing maps on the old inode). Another program truncating
    // the file while it is mapped is outside what any reader can guard.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| format!("cannot map: {e}"))?;
    validate(id, expected_len, &map)?;
    Ok(Some(map))
}

fn write_atomic(dir: &Path, id: &TableId, payload: &[u8]) -> std::io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = dir.join(id.file_name());
    let tmp = dir.join(format!(
        ".{}.tmp.{}.{}",
        id.file_name(),
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0)
    ));
    let result = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(&header(id, payload))?;
        f.write_all(payload)?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map(|_| path)
}

/// Loads table `id` of `len` bytes from the cache, or builds it with
/// `build` (and writes it unless told not to). Everything that happens is
/// reported to `report`.
pub fn load_or_build(
    opts: &CacheOptions,
    id: &TableId,
    len: usize,
    build: impl FnOnce() -> Vec<u8>,
    report: &mut dyn FnMut(CacheEvent),
) -> TableBytes {
    let dir = opts.resolved_dir();
    if let Some(dir) = &dir {
        let path = dir.join(id.file_name());
        match try_load(&path, id, len) {
            Ok(Some(map)) => {
                report(CacheEvent::Loaded {
                    table: id.name.clone(),
                    path,
                    bytes: len as u64,
                });
                let t = TableBytes::Mapped(map);
                return if opts.map_only {
                    t
                } else {
                    t.into_huge_pages()
                };
            }
            Ok(None) => {}
            Err(reason) => report(CacheEvent::Rejected {
                table: id.name.clone(),
                path,
                reason,
            }),
        }
    }
    report(CacheEvent::Building {
        table: id.name.clone(),
        path: dir
            .as_ref()
            .filter(|_| !opts.no_write)
            .map(|d| d.join(id.file_name())),
        bytes: len as u64,
    });
    let t0 = std::time::Instant::now();
    let data = build();
    let elapsed = t0.elapsed();
    let mut written = None;
    if let (Some(dir), false) = (&dir, opts.no_write) {
        match write_atomic(dir, id, &data) {
            Ok(p) => written = Some(p),
            Err(e) => report(CacheEvent::WriteFailed {
                table: id.name.clone(),
                path: dir.join(id.file_name()),
                reason: e.to_string(),
            }),
        }
    }
    report(CacheEvent::Built {
        table: id.name.clone(),
        path: written,
        bytes: data.len() as u64,
        elapsed,
    });
    let t = TableBytes::Owned(data);
    if opts.map_only {
        t
    } else {
        t.into_huge_pages()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("twistor-cache-test-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn round_trip_and_every_kind_of_damage_is_detected() {
        let dir = temp_dir("unit");
        let opts = CacheOptions {
            dir: Some(dir.clone()),
            ..Default::default()
        };
        let id = TableId {
            name: "unit-test".into(),
            params: [1, 2, 3, 4],
        };
        let payload: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut events = Vec::new();
        let t = load_or_build(&opts, &id, payload.len(), || payload.clone(), &mut |e| {
            events.push(e)
        });
        assert_eq!(t.as_slice(), &payload[..]);
        assert!(
            matches!(&events[0], CacheEvent::Building { path: Some(p), bytes: 10_000, .. } if p.starts_with(&dir))
        );
        assert!(matches!(events[1], CacheEvent::Built { path: Some(_), .. }));
        events.clear();
        let mapped = CacheOptions {
            map_only: true,
            ..opts.clone()
        };
        let t = load_or_build(&mapped, &id, payload.len(), unreachable_build, &mut |e| {
            events.push(e)
        });
        assert!(matches!(t, TableBytes::Mapped(_)));
        assert_eq!(t.as_slice(), &payload[..]);
        drop(t);

        let path = dir.join(id.file_name());
        let good = fs::read(&path).unwrap();
        let damages: Vec<(Vec<u8>, &str)> = vec![
            (
                {
                    let mut b = good.clone();
                    b[HEADER_LEN + 5000] ^= 1;
                    b
                },
                "checksum",
            ),
            (good[..good.len() - 10].to_vec(), "truncated"),
            (
                {
                    let mut b = good.clone();
                    b[0] = b'X';
                    b
                },
                "magic",
            ),
            (
                {
                    let mut b = good.clone();
                    b[16] = b'v';
                    b
                },
                "holds table",
            ),
        ];
        for (bytes, why) in damages {
            fs::write(&path, &bytes).unwrap();
            events.clear();
            let t = load_or_build(&opts, &id, payload.len(), || payload.clone(), &mut |e| {
                events.push(e)
            });
            assert_eq!(t.as_slice(), &payload[..]);
            match &events[0] {
                CacheEvent::Rejected { reason, .. } => {
                    assert!(reason.contains(why), "{reason} / {why}")
                }
                e => panic!("expected a rejection, got {e:?}"),
            }
            assert!(matches!(events[1], CacheEvent::Building { .. }));
            assert!(matches!(events[2], CacheEvent::Built { path: Some(_), .. }));
        }
        // Other parameters: rejected too.
        let other = TableId {
            name: "unit-test".into(),
            params: [1, 2, 3, 5],
        };
        events.clear();
        load_or_build(&opts, &other, payload.len(), || payload.clone(), &mut |e| {
            events.push(e)
        });
        assert!(
            matches!(&events[0], CacheEvent::Rejected { reason, .. } if reason.contains("parameters"))
        );
        let _ = fs::remove_dir_all(&dir);
    }

    fn unreachable_build() -> Vec<u8> {
        Vec::new()
    }

    #[test]
    fn checksum_sees_moved_words() {
        let a: Vec<u8> = (0..64).collect();
        let mut b = a.clone();
        b.swap(0, 40);
        assert_ne!(checksum(&a), checksum(&b));
        assert_ne!(checksum(&a[..63]), checksum(&a));
    }
}
