//! How the 3x3x3 tables are kept between runs: their keys, and the memory
//! they are searched from.
//!
//! Pruning tables take seconds to minutes to build, so the solvers take a
//! [`TableStore`] and load each table from it, or build it and give it to
//! the store ([`twistor_core::store::load_or_build`]); what happens is
//! reported as [`StoreEvent`]s. This module does no file I/O: where tables
//! live is the store's business. A loaded table is copied into anonymous
//! memory that asks for huge pages, because random probes of a large
//! table otherwise miss the TLB on most lookups.

use twistor_core::store::{self, PayloadLen, StoreEvent, TableBytes, TableKey, TableStore};
use twistor_memory::TableBuffer;

/// A table's key: `name`, and a hash of the parameters that change its
/// contents.
pub(crate) fn table_key(name: &str, params: [u64; 4]) -> TableKey {
    let bytes: Vec<u8> = params.iter().flat_map(|p| p.to_le_bytes()).collect();
    TableKey::new(
        name,
        store::key_hash(&bytes, store::layout_version::CUBE333),
    )
}

/// Table bytes as the solvers search them.
pub(crate) enum TableMemory {
    /// As the store handed them over (built here, or mapped from a file).
    Stored(TableBytes),
    /// Copied into anonymous memory that asks for huge pages.
    Anon(TableBuffer<u8>),
}

impl TableMemory {
    /// The payload.
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            TableMemory::Stored(b) => b,
            TableMemory::Anon(m) => m,
        }
    }

    /// A copy in anonymous memory advised to use huge pages (Linux
    /// transparent huge pages), or the bytes as they are if that memory
    /// cannot be had.
    fn huge_pages(bytes: TableBytes) -> TableMemory {
        if bytes.is_empty() {
            return TableMemory::Stored(bytes);
        }
        match TableBuffer::copy_of(&bytes) {
            Ok(m) => TableMemory::Anon(m),
            Err(_) => TableMemory::Stored(bytes),
        }
    }
}

/// Loads table `key` of `len` bytes from `store`, or builds it with
/// `build` (and gives it to the store), reporting to `report`; `build` is
/// given a callback for its progress (builds of minutes), passed on to
/// `report` as [`StoreEvent::Progress`].
///
/// A stored table is read in pieces straight into the memory the solver
/// searches (anonymous, huge pages), so it is never held twice: mapping
/// the file and copying it would count both against the process at the
/// peak (1.7 GB for the optimal solver's 0.88 GB huge table).
pub(crate) fn load_or_build<B: Built>(
    store: &dyn TableStore,
    key: &TableKey,
    len: usize,
    build: impl FnOnce(store::BuildProgress) -> B,
    report: &mut dyn FnMut(StoreEvent),
) -> TableMemory {
    if len > 0 {
        if let Ok(mut m) = TableBuffer::<u8>::zeroed(len, true) {
            let mut at = 0usize;
            let mut fits = true;
            let mut sink = |total: u64, piece: &[u8]| {
                if total != len as u64 || at + piece.len() > len {
                    fits = false;
                    return;
                }
                m[at..at + piece.len()].copy_from_slice(piece);
                at += piece.len();
            };
            match store.load_streaming(key, PayloadLen::Exactly(len as u64), &mut sink) {
                Ok(Some(_)) if fits && at == len => {
                    report(StoreEvent::Loaded {
                        key,
                        location: store.location(key),
                        bytes: len as u64,
                    });
                    return TableMemory::Anon(m);
                }
                // No copy, or one of another length: built below.
                Ok(_) => {}
                Err(error) => report(StoreEvent::Rejected {
                    key,
                    location: store.location(key),
                    error: &error,
                }),
            }
        }
    }
    store::build_and_keep_reporting(store, key, len as u64, build, report).into_memory()
}

/// What a build hands [`load_or_build`]: bytes, which it moves into memory
/// advised to use huge pages, or that memory itself, built in place.
pub(crate) trait Built: AsRef<[u8]> {
    /// The table as the solver keeps it.
    fn into_memory(self) -> TableMemory;
}

impl Built for Vec<u8> {
    fn into_memory(self) -> TableMemory {
        TableMemory::huge_pages(TableBytes::new(self))
    }
}

impl Built for TableBuffer<u8> {
    fn into_memory(self) -> TableMemory {
        TableMemory::Anon(self)
    }
}
