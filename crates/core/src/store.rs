//! Where engines keep their tables between runs, without touching disk.
//!
//! Pruning tables take seconds to minutes to fill, so they are worth
//! keeping. But an engine that opens files cannot run in a web server's
//! sandbox, in a test that must not litter, or over a store that is not a
//! directory at all. So engines are *given* a [`TableStore`]: they ask it
//! for a table by its [`TableKey`] and the payload length they expect, and
//! hand it a built table to keep, as a stream of bytes written into a
//! sink. Whether anything reaches a disk, and in which format, is the
//! store's business (`twistor-store` keeps tables in a cache directory,
//! memory-mapped; [`MemoryStore`] keeps them in memory; [`NoStore`]
//! keeps nothing).
//!
//! [`load_or_build`] is the usual life of a table: loaded when the store
//! has a sound copy, else built and given to the store, each step
//! reported as a [`StoreEvent`] (engines print nothing themselves).
//!
//! ```
//! use twistor_core::store::{load_or_build, MemoryStore, PayloadLen, TableKey, TableStore};
//!
//! let store = MemoryStore::default();
//! let key = TableKey::new("squares", 1);
//! let mut events = Vec::new();
//! let built = load_or_build(&store, &key, 4, || vec![0, 1, 4, 9], &mut |e| {
//!     events.push(e.to_string())
//! });
//! assert_eq!(&*built, &[0, 1, 4, 9]);
//! // The second time it comes from the store, and is not built again.
//! let again = load_or_build(&store, &key, 4, || unreachable!(), &mut |_| {});
//! assert_eq!(&*again, &[0, 1, 4, 9]);
//! assert!(store.load(&key, PayloadLen::Exactly(5)).is_err());
//! ```

use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::ops::Deref;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The hash table ids (and other content keys) are made with: 64-bit
/// FNV-1a from an offset basis mixed with `seed`, stable across builds
/// and platforms, so that a table cached by one run is found by the next.
pub fn key_hash(bytes: &[u8], seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Every table family's layout version, in one place. A family's version
/// seeds the hash of each of its keys (or is its id), so bumping it when
/// the family's payload layout or meaning changes makes the store rebuild
/// that family's tables and no other; the file format around every payload
/// has the store's own version.
pub mod layout_version {
    /// `search`'s pattern databases (nibble tables).
    pub const PRUNE: u64 = 1;
    /// `search`'s hashed tables.
    pub const HASHED: u64 = 2;
    /// The hash of positions `search`'s hashed tables store, part of their
    /// keys' bytes.
    pub const HASHED_POSITIONS: u64 = 1;
    /// `cube333`'s two-phase and optimal tables.
    pub const CUBE333: u64 = 2;
    /// `cube444`'s pairing table (the key's id itself).
    pub const CUBE444: u64 = 3;
    /// `staged`'s libraries of operations. Bump it when the operations
    /// found change (not only when the bytes do): kept libraries are
    /// used as they are, never found again.
    pub const STAGED: u64 = 2;
}

/// What a stored table is: a name people can read (also a file-name stem)
/// and a 64-bit id hashing everything that changes its contents.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TableKey {
    /// Short name, e.g. `3x3x3` or `cube333-phase1`.
    pub name: String,
    /// A hash of the parameters that change the contents.
    pub id: u64,
}

impl TableKey {
    /// A key of `name` and `id`.
    pub fn new(name: impl Into<String>, id: u64) -> TableKey {
        TableKey {
            name: name.into(),
            id,
        }
    }
}

impl fmt::Display for TableKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{:016x}", self.name, self.id)
    }
}

/// How long a stored payload must be, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayloadLen {
    /// Exactly this long.
    Exactly(u64),
    /// Non-empty and at most this long (a table that may have grown).
    AtMost(u64),
}

impl PayloadLen {
    /// Whether `len` bytes fit.
    pub fn admits(self, len: u64) -> bool {
        match self {
            PayloadLen::Exactly(n) => len == n,
            PayloadLen::AtMost(n) => len > 0 && len <= n,
        }
    }
}

/// A table's bytes as a store hands them back: owned, or mapped from a
/// file, read-only either way.
pub struct TableBytes(Box<dyn AsRef<[u8]> + Send + Sync>);

impl TableBytes {
    /// Wraps any byte container.
    pub fn new(bytes: impl AsRef<[u8]> + Send + Sync + 'static) -> TableBytes {
        TableBytes(Box::new(bytes))
    }
}

impl Deref for TableBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        (*self.0).as_ref()
    }
}

impl fmt::Debug for TableBytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TableBytes({} bytes)", self.len())
    }
}

/// A table read back from a store.
#[derive(Debug)]
pub struct StoredTable {
    /// Small numbers the engine kept beside the payload (a histogram, a
    /// fill depth).
    pub extras: Vec<u64>,
    /// The payload.
    pub bytes: TableBytes,
}

/// Why a store could not load or keep a table.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Written by an older version of twistor, in a format no longer read.
    #[error("written by an older twistor ({reason})")]
    Outdated {
        /// Which older format, and where.
        reason: OutdatedReason,
    },
    /// Not a table file at all.
    #[error("not a twistor table file")]
    Foreign,
    /// A sound table, but of something else.
    #[error("holds another table ({reason})")]
    Mismatch {
        /// How it differs from the table asked for.
        reason: MismatchReason,
    },
    /// Shorter or longer than its header says, or than the engine expects.
    #[error("truncated or wrong size: {reason}")]
    Size {
        /// Which length is wrong.
        reason: SizeReason,
    },
    /// The contents do not match their checksum.
    #[error("checksum mismatch (corrupt contents)")]
    Checksum,
    /// Memory for the table could not be had.
    #[error("out of memory for a table of {0} bytes")]
    OutOfMemory(u64),
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file (or other place) involved.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

/// Which older format a [`StoreError::Outdated`] table is in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutdatedReason {
    /// A file in a format an older twistor wrote, known by its magic.
    #[error("{format}")]
    Format {
        /// The format, as people call it (`the 3x3x3 solver's table
        /// format 2`).
        format: String,
    },
    /// Such a file, where an older twistor kept the table.
    #[error("{format}, in {}", .path.display())]
    File {
        /// The format, as people call it.
        format: String,
        /// The file.
        path: PathBuf,
    },
    /// A table file of an older format version.
    #[error("format version {found}, this one reads {current}")]
    Version {
        /// The version the file has.
        found: u32,
        /// The version this twistor reads.
        current: u32,
    },
}

/// How a [`StoreError::Mismatch`] table differs from the one asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MismatchReason {
    /// It is kept under another key.
    #[error("{found}, expected {expected}")]
    Key {
        /// The key it has.
        found: TableKey,
        /// The key asked for.
        expected: TableKey,
    },
    /// Its payload has a length the engine does not expect.
    #[error("{found} payload bytes, expected {expected:?}")]
    Length {
        /// The payload's length, in bytes.
        found: u64,
        /// The length the engine expects.
        expected: PayloadLen,
    },
    /// It lacks the extras the engine keeps with such a table.
    #[error("no {kind} extras")]
    NoExtras {
        /// The kind of table, as the engine names it (`table`,
        /// `hashed-table`).
        kind: String,
    },
    /// Its extras contradict each other or the payload.
    #[error("extras that do not add up")]
    BadExtras,
}

/// Which length of a [`StoreError::Size`] table is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeReason {
    /// A payload of another length than the engine expects.
    #[error("{found} bytes, expected {expected:?}")]
    Payload {
        /// The payload's length, in bytes.
        found: u64,
        /// The length the engine expects.
        expected: PayloadLen,
    },
    /// A file too short to hold a header.
    #[error("{found} bytes, shorter than the header")]
    ShorterThanHeader {
        /// The file's length, in bytes.
        found: u64,
    },
    /// Another count of payload bytes than the header says.
    #[error("{found} payload bytes, the header says {header}")]
    NotAsHeader {
        /// Payload bytes found.
        found: u64,
        /// Payload bytes the header announces.
        header: u64,
    },
    /// Payload bytes past those the header announces.
    #[error("more payload bytes than the header's {header}")]
    PastHeader {
        /// Payload bytes the header announces.
        header: u64,
    },
    /// More extras than the store keeps.
    #[error("{count} extras")]
    TooManyExtras {
        /// Extras given.
        count: usize,
    },
    /// A payload writer that wrote another count of bytes than it
    /// announced, to a store that keeps the payload alone.
    #[error("{written} bytes written, {announced} announced")]
    Written {
        /// Bytes written.
        written: u64,
        /// Bytes announced.
        announced: u64,
    },
    /// The same, to a store that keeps a header beside the payload.
    #[error("{written} payload bytes written, {announced} announced")]
    PayloadWritten {
        /// Payload bytes written.
        written: u64,
        /// Payload bytes announced.
        announced: u64,
    },
}

/// Writes a table's payload into the sink a store gives it.
pub type PayloadWriter<'a> = &'a mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>;

/// Keeps tables between runs. Implementations decide where and how;
/// engines only call these methods.
pub trait TableStore: Send + Sync {
    /// The table `key` if the store has a sound copy of the right length;
    /// `Ok(None)` when it has none; `Err` when a copy is there but cannot
    /// be trusted (the caller rebuilds it, and [`save`](Self::save)
    /// replaces it).
    fn load(&self, key: &TableKey, len: PayloadLen) -> Result<Option<StoredTable>, StoreError>;

    /// Reads table `key` as [`load`](Self::load) does, but hands the
    /// payload to `sink` in pieces, in order (with the payload's whole
    /// length, so the engine can size its memory at the first piece), for
    /// an engine that copies it into memory of its own (so it is never
    /// held twice). Returns the
    /// extras; `Ok(None)` when there is no copy. On `Err` the sink may have
    /// seen part of a payload, which the caller must drop.
    fn load_streaming(
        &self,
        key: &TableKey,
        len: PayloadLen,
        sink: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Option<Vec<u64>>, StoreError> {
        Ok(self.load(key, len)?.map(|t| {
            sink(t.bytes.len() as u64, &t.bytes);
            t.extras
        }))
    }

    /// Keeps table `key`: `len` payload bytes, written by `payload`, and
    /// `extras`. Replaces any copy atomically: a reader never sees half a
    /// table.
    fn save(
        &self,
        key: &TableKey,
        extras: &[u64],
        len: u64,
        payload: PayloadWriter,
    ) -> Result<(), StoreError>;

    /// Whether a copy of `key` is there (its header looks right; the
    /// contents are checked only by [`load`](Self::load)).
    fn contains(&self, key: &TableKey, len: PayloadLen) -> bool;

    /// Forgets a copy that the engine found unusable.
    fn discard(&self, key: &TableKey);

    /// Where `key` is or would be kept, for messages (`None` when the
    /// store keeps nothing).
    fn location(&self, key: &TableKey) -> Option<String>;

    /// Whether [`save`](Self::save) keeps anything.
    fn writes(&self) -> bool;
}

/// A store that keeps nothing: every table is built.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoStore;

impl TableStore for NoStore {
    fn load(&self, _: &TableKey, _: PayloadLen) -> Result<Option<StoredTable>, StoreError> {
        Ok(None)
    }
    fn save(&self, _: &TableKey, _: &[u64], _: u64, _: PayloadWriter) -> Result<(), StoreError> {
        Ok(())
    }
    fn contains(&self, _: &TableKey, _: PayloadLen) -> bool {
        false
    }
    fn discard(&self, _: &TableKey) {}
    fn location(&self, _: &TableKey) -> Option<String> {
        None
    }
    fn writes(&self) -> bool {
        false
    }
}

/// A store in memory: tables outlive the engine that built them, but not
/// the process (tests, servers that build once and solve often).
#[derive(Clone, Default)]
pub struct MemoryStore {
    tables: Arc<Mutex<HashMap<TableKey, Kept>>>,
}

/// A table a [`MemoryStore`] keeps: its extras and its payload.
type Kept = (Vec<u64>, Arc<Vec<u8>>);

/// A shared payload of a [`MemoryStore`].
struct Shared(Arc<Vec<u8>>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl TableStore for MemoryStore {
    fn load(&self, key: &TableKey, len: PayloadLen) -> Result<Option<StoredTable>, StoreError> {
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        let Some((extras, bytes)) = tables.get(key) else {
            return Ok(None);
        };
        if !len.admits(bytes.len() as u64) {
            return Err(StoreError::Size {
                reason: SizeReason::Payload {
                    found: bytes.len() as u64,
                    expected: len,
                },
            });
        }
        Ok(Some(StoredTable {
            extras: extras.clone(),
            bytes: TableBytes::new(Shared(Arc::clone(bytes))),
        }))
    }

    fn save(
        &self,
        key: &TableKey,
        extras: &[u64],
        len: u64,
        payload: PayloadWriter,
    ) -> Result<(), StoreError> {
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(len as usize)
            .map_err(|_| StoreError::OutOfMemory(len))?;
        payload(&mut bytes).map_err(|source| StoreError::Io {
            path: key.to_string(),
            source,
        })?;
        if bytes.len() as u64 != len {
            return Err(StoreError::Size {
                reason: SizeReason::Written {
                    written: bytes.len() as u64,
                    announced: len,
                },
            });
        }
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key.clone(), (extras.to_vec(), Arc::new(bytes)));
        Ok(())
    }

    fn contains(&self, key: &TableKey, len: PayloadLen) -> bool {
        let tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        tables
            .get(key)
            .is_some_and(|(_, b)| len.admits(b.len() as u64))
    }

    fn discard(&self, key: &TableKey) {
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }

    fn location(&self, _: &TableKey) -> Option<String> {
        Some("memory".to_string())
    }

    fn writes(&self) -> bool {
        true
    }
}

/// What happened to a table, for the caller to report or ignore.
#[derive(Debug)]
pub enum StoreEvent<'a> {
    /// A sound copy was loaded.
    Loaded {
        /// The table.
        key: &'a TableKey,
        /// Where from.
        location: Option<String>,
        /// Payload bytes.
        bytes: u64,
    },
    /// A copy was there but not trusted; the table is rebuilt.
    Rejected {
        /// The table.
        key: &'a TableKey,
        /// Where it was.
        location: Option<String>,
        /// Why.
        error: &'a StoreError,
    },
    /// The table is about to be built.
    Building {
        /// The table.
        key: &'a TableKey,
        /// Where it will be kept, if anywhere.
        location: Option<String>,
        /// Payload bytes.
        bytes: u64,
    },
    /// A table being built has got this far (for a display: builds of
    /// minutes report every few seconds).
    Progress {
        /// The table.
        key: &'a TableKey,
        /// What the build is doing ("depth 9").
        step: &'a str,
        /// Units of the step done.
        done: u64,
        /// Units of the step in all.
        total: u64,
    },
    /// The table was built.
    Built {
        /// The table.
        key: &'a TableKey,
        /// Payload bytes.
        bytes: u64,
        /// Time spent building it.
        elapsed: Duration,
    },
    /// The table was given to the store and kept.
    Saved {
        /// The table.
        key: &'a TableKey,
        /// Where.
        location: Option<String>,
        /// Payload bytes.
        bytes: u64,
    },
    /// The store could not keep the table (work goes on without it).
    SaveFailed {
        /// The table.
        key: &'a TableKey,
        /// Why.
        error: &'a StoreError,
    },
}

impl fmt::Display for StoreEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = |l: &Option<String>| l.clone().unwrap_or_else(|| "nowhere".to_string());
        match self {
            StoreEvent::Loaded {
                key,
                location,
                bytes,
            } => write!(
                f,
                "table {}: loaded {bytes} bytes from {}",
                key.name,
                place(location)
            ),
            StoreEvent::Rejected {
                key,
                location,
                error,
            } => write!(
                f,
                "table {} in {} is unusable ({error}); rebuilding it",
                key.name,
                place(location)
            ),
            StoreEvent::Building {
                key,
                location,
                bytes,
            } => match location {
                Some(l) => write!(
                    f,
                    "table {}: building {bytes} bytes, to be kept in {l}",
                    key.name
                ),
                None => write!(f, "table {}: building {bytes} bytes (not kept)", key.name),
            },
            StoreEvent::Progress {
                key,
                step,
                done,
                total,
            } => write!(f, "table {}: {step}, {done} of {total}", key.name),
            StoreEvent::Built {
                key,
                bytes,
                elapsed,
            } => write!(
                f,
                "table {}: {bytes} bytes built in {:.1} s",
                key.name,
                elapsed.as_secs_f64()
            ),
            StoreEvent::Saved {
                key,
                location,
                bytes,
            } => write!(
                f,
                "table {}: {bytes} bytes kept in {}",
                key.name,
                place(location)
            ),
            StoreEvent::SaveFailed { key, error } => {
                write!(f, "table {}: could not be kept: {error}", key.name)
            }
        }
    }
}

/// Loads table `key` of `len` bytes from `store`, or builds it with
/// `build` and gives it to the store; everything that happens is reported
/// to `events`. A copy the store cannot trust is rebuilt and replaced.
pub fn load_or_build(
    store: &dyn TableStore,
    key: &TableKey,
    len: u64,
    build: impl FnOnce() -> Vec<u8>,
    events: &mut dyn FnMut(StoreEvent),
) -> TableBytes {
    load_reporting(store, key, len, events)
        .unwrap_or_else(|| TableBytes::new(build_and_keep(store, key, len, build, events)))
}

/// Table `key` of `len` bytes from `store`, if it holds a copy it trusts;
/// the loading (or the copy rejected) is reported to `events`: the half of
/// [`load_or_build`] before building, for tables that may be built later.
pub fn load_reporting(
    store: &dyn TableStore,
    key: &TableKey,
    len: u64,
    events: &mut dyn FnMut(StoreEvent),
) -> Option<TableBytes> {
    match store.load(key, PayloadLen::Exactly(len)) {
        Ok(Some(table)) => {
            events(StoreEvent::Loaded {
                key,
                location: store.location(key),
                bytes: len,
            });
            Some(table.bytes)
        }
        Ok(None) => None,
        Err(error) => {
            events(StoreEvent::Rejected {
                key,
                location: store.location(key),
                error: &error,
            });
            None
        }
    }
}

/// Builds table `key` (of about `len` bytes) with `build` and gives it to
/// the store, reporting the building, the time it took and the keeping:
/// the half of [`load_or_build`] after a failed load, for engines that
/// load in their own way.
pub fn build_and_keep(
    store: &dyn TableStore,
    key: &TableKey,
    len: u64,
    build: impl FnOnce() -> Vec<u8>,
    events: &mut dyn FnMut(StoreEvent),
) -> Vec<u8> {
    build_and_keep_reporting(store, key, len, |_| build(), events)
}

/// How a build reports its progress: `(step, done, total)`, passed on as
/// [`StoreEvent::Progress`].
pub type BuildProgress<'a> = &'a mut dyn FnMut(&str, u64, u64);

/// [`build_and_keep`] for a build that reports its progress through the
/// callback it is given, into any bytes it likes (a table built in the
/// memory it is searched from is never copied).
pub fn build_and_keep_reporting<B: AsRef<[u8]>>(
    store: &dyn TableStore,
    key: &TableKey,
    len: u64,
    build: impl FnOnce(BuildProgress) -> B,
    events: &mut dyn FnMut(StoreEvent),
) -> B {
    events(StoreEvent::Building {
        key,
        location: store.location(key).filter(|_| store.writes()),
        bytes: len,
    });
    let t0 = Instant::now();
    let data = build(&mut |step, done, total| {
        events(StoreEvent::Progress {
            key,
            step,
            done,
            total,
        })
    });
    events(StoreEvent::Built {
        key,
        bytes: data.as_ref().len() as u64,
        elapsed: t0.elapsed(),
    });
    save_reporting(store, key, &[], data.as_ref(), events);
    data
}

/// Gives `data` to the store when it writes, reporting the outcome.
pub fn save_reporting(
    store: &dyn TableStore,
    key: &TableKey,
    extras: &[u64],
    data: &[u8],
    events: &mut dyn FnMut(StoreEvent),
) {
    if !store.writes() {
        return;
    }
    match store.save(key, extras, data.len() as u64, &mut |w| w.write_all(data)) {
        Ok(()) => events(StoreEvent::Saved {
            key,
            location: store.location(key),
            bytes: data.len() as u64,
        }),
        Err(error) => events(StoreEvent::SaveFailed { key, error: &error }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a's published 64-bit vectors (seed 0 is plain FNV-1a): a
    /// change here would orphan every cached table.
    #[test]
    fn key_hash_is_fnv1a() {
        assert_eq!(key_hash(b"", 0), 0xcbf2_9ce4_8422_2325);
        assert_eq!(key_hash(b"a", 0), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(key_hash(b"foobar", 0), 0x8594_4171_f739_67e8);
    }

    /// A build's progress reaches the events between "building" and
    /// "built", in the order the build gave it.
    #[test]
    fn build_progress_is_reported_between_building_and_built() {
        let store = MemoryStore::default();
        let key = TableKey::new("t", 1);
        let mut seen = Vec::new();
        let data = build_and_keep_reporting(
            &store,
            &key,
            4,
            |progress| {
                progress("depth 1", 1, 2);
                progress("depth 2", 2, 2);
                vec![1, 2, 3, 4]
            },
            &mut |e| {
                seen.push(match e {
                    StoreEvent::Building { .. } => "building".to_string(),
                    StoreEvent::Progress {
                        step, done, total, ..
                    } => format!("{step} {done}/{total}"),
                    StoreEvent::Built { .. } => "built".to_string(),
                    StoreEvent::Saved { .. } => "saved".to_string(),
                    other => other.to_string(),
                })
            },
        );
        assert_eq!(data, [1, 2, 3, 4]);
        assert_eq!(
            seen,
            ["building", "depth 1 1/2", "depth 2 2/2", "built", "saved"]
        );
    }

    #[test]
    fn memory_store_checks_lengths_and_forgets_discarded_tables() {
        let store = MemoryStore::default();
        let key = TableKey::new("t", 7);
        store
            .save(&key, &[3, 4], 3, &mut |w| w.write_all(&[1, 2, 3]))
            .unwrap();
        let t = store.load(&key, PayloadLen::AtMost(10)).unwrap().unwrap();
        assert_eq!(
            (&*t.bytes, &t.extras[..]),
            (&[1u8, 2, 3][..], &[3u64, 4][..])
        );
        assert!(store.load(&key, PayloadLen::Exactly(4)).is_err());
        assert!(store.contains(&key, PayloadLen::Exactly(3)));
        // A writer that writes less than it announced is refused.
        assert!(store
            .save(&key, &[], 5, &mut |w| w.write_all(&[1]))
            .is_err());
        store.discard(&key);
        assert!(store.load(&key, PayloadLen::Exactly(3)).unwrap().is_none());
        assert!(NoStore
            .load(&key, PayloadLen::Exactly(3))
            .unwrap()
            .is_none());
    }
}
