//! Pruning tables as a [`TableStore`] keeps them: what each table's
//! payload and extras are, and how a table is made from them again.
//!
//! The search engine does no file I/O: the store it is given decides
//! where tables live (`twistor-store` keeps them in the user's cache
//! directory). A pattern database is its packed four-bit entries, with
//! extras saying whether it is complete, its last complete layer and its
//! distance histogram; a hashed table is its words, with its entry
//! count, fill depth and insertion count. A stored table whose extras do
//! not add up is refused like a corrupt file.

use std::io::Write;

use twistor_core::store::{MismatchReason, PayloadLen, StoreError, TableKey, TableStore};

use crate::hashed::{HashedSymmetry, HashedTable};
use crate::projection::Projection;
use crate::table::{Nibbles, PruneTable};

/// Writes `words` into `out` in blocks (one call a block, not a word).
fn write_words(out: &mut dyn Write, words: impl Iterator<Item = u64>) -> std::io::Result<()> {
    let mut block = Vec::with_capacity(1 << 16);
    for w in words {
        block.extend_from_slice(&w.to_le_bytes());
        if block.len() == block.capacity() {
            out.write_all(&block)?;
            block.clear();
        }
    }
    out.write_all(&block)
}

/// Payload bytes of a table of `entries` four-bit entries.
fn payload_len(entries: u64) -> u64 {
    entries.div_ceil(16) * 8
}

/// Loads the words of a nibble table (a pattern database's or a hashed
/// table's, which share the form) straight into the memory the search
/// reads (huge pages), so a table is never held twice; with its extras,
/// `Ok(None)` when the store has none.
fn load_nibbles(
    store: &dyn TableStore,
    key: &TableKey,
    len: PayloadLen,
) -> Result<Option<(Nibbles, Vec<u64>)>, StoreError> {
    let mut nibbles: Option<Nibbles> = None;
    let mut at = 0usize;
    let mut fits = true;
    let mut total_len = 0;
    let mut sink = |total: u64, bytes: &[u8]| {
        if nibbles.is_none() && fits {
            total_len = total;
            nibbles = Nibbles::with_words((total / 8) as usize);
            fits = nibbles.is_some();
        }
        let Some(n) = nibbles.as_ref().filter(|_| fits) else {
            return;
        };
        for c in bytes.chunks_exact(8) {
            let word = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            if !n.set_stored_word(at, word) {
                fits = false;
                return;
            }
            at += 1;
        }
    };
    let Some(extras) = store.load_streaming(key, len, &mut sink)? else {
        return Ok(None);
    };
    match nibbles {
        Some(n) if fits && at as u64 * 8 == total_len => Ok(Some((n, extras))),
        // An empty payload: the extras say whether that is a table.
        None if fits => Ok(Some((Nibbles::none(), extras))),
        _ => Err(StoreError::OutOfMemory(total_len)),
    }
}

/// Loads pattern database `key` over `projection`; `Ok(None)` when the
/// store has none.
pub(crate) fn load_table(
    store: &dyn TableStore,
    key: &TableKey,
    projection: Projection,
) -> Result<Option<PruneTable>, StoreError> {
    let size = projection.size();
    let len = payload_len(size);
    let Some((nibbles, extras)) = load_nibbles(store, key, PayloadLen::Exactly(len))? else {
        return Ok(None);
    };
    // The extras are whether the table is complete, its last complete
    // layer, then the distance histogram.
    let [complete, filled, histogram @ ..] = &extras[..] else {
        return Err(StoreError::Mismatch {
            reason: MismatchReason::NoExtras {
                kind: "table".into(),
            },
        });
    };
    // A table is only written once its first layer is filled.
    if *complete > 1
        || *filled >= crate::table::UNREACHED as u64
        || (*filled == 0 && *complete == 0)
        || histogram.iter().sum::<u64>() != size
    {
        return Err(StoreError::Mismatch {
            reason: MismatchReason::BadExtras,
        });
    }
    Ok(Some(PruneTable::from_parts(
        projection,
        nibbles,
        histogram.to_vec(),
        *filled as u8,
        *complete == 1,
    )))
}

/// Gives pattern database `table` to the store as `key`.
pub(crate) fn save_table(
    store: &dyn TableStore,
    key: &TableKey,
    table: &PruneTable,
) -> Result<(), StoreError> {
    let mut extras = vec![table.is_complete() as u64, table.filled_depth() as u64];
    extras.extend_from_slice(table.histogram());
    let len = payload_len(table.projection().size());
    store.save(key, &extras, len, &mut |out| {
        write_words(out, table.data().words())
    })
}

/// Loads hashed table `key` of at most `max_entries` entries (it may have
/// grown deeper and larger since it was first built); `Ok(None)` when the
/// store has none.
pub(crate) fn load_hashed(
    store: &dyn TableStore,
    key: &TableKey,
    max_entries: u64,
    symmetry: Option<&HashedSymmetry>,
) -> Result<Option<HashedTable>, StoreError> {
    let Some((words, extras)) =
        load_nibbles(store, key, PayloadLen::AtMost(payload_len(max_entries)))?
    else {
        return Ok(None);
    };
    // The extras are the entry count, the fill depth and the insertion count.
    let &[entries, depth, inserted] = &extras[..] else {
        return Err(StoreError::Mismatch {
            reason: MismatchReason::NoExtras {
                kind: "hashed-table".into(),
            },
        });
    };
    if depth >= 15 || entries == 0 || entries > max_entries || payload_len(entries) != words.bytes()
    {
        return Err(StoreError::Mismatch {
            reason: MismatchReason::BadExtras,
        });
    }
    Ok(Some(HashedTable::from_parts(
        words.into_words(),
        entries,
        depth as u8,
        inserted,
        symmetry,
    )))
}

/// Gives hashed table `table` to the store as `key`.
pub(crate) fn save_hashed(
    store: &dyn TableStore,
    key: &TableKey,
    table: &HashedTable,
) -> Result<(), StoreError> {
    let extras = [table.size(), table.depth() as u64, table.inserted()];
    store.save(key, &extras, payload_len(table.size()), &mut |out| {
        write_words(out, table.words())
    })
}
