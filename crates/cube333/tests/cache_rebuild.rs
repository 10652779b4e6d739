//! A damaged table file, or one an older twistor wrote, is reported, not
//! trusted, and rebuilt to the same table.

use std::fs;
use std::path::PathBuf;

use twistor_core::store::{StoreError, StoreEvent};
use twistor_cube333::prune::phase2_table;
use twistor_store::{DirStore, HEADER_LEN};

/// What happened to the table, without the borrowed parts.
#[derive(Debug)]
enum Seen {
    Loaded,
    Rejected(String, bool),
    Building,
    Built,
    Saved(String),
}

fn seen(events: &mut Vec<Seen>) -> impl FnMut(StoreEvent) + '_ {
    |e| {
        events.push(match e {
            StoreEvent::Loaded { .. } => Seen::Loaded,
            StoreEvent::Rejected { error, .. } => {
                Seen::Rejected(error.to_string(), matches!(error, StoreError::Outdated(_)))
            }
            StoreEvent::Building { .. } => Seen::Building,
            StoreEvent::Built { .. } => Seen::Built,
            StoreEvent::Saved { location, .. } => Seen::Saved(location.unwrap_or_default()),
            StoreEvent::SaveFailed { error, .. } => panic!("save failed: {error}"),
        })
    }
}

#[test]
fn corrupt_and_outdated_phase2_files_are_detected_and_rebuilt() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cache-rebuild-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let store = DirStore::new(&dir);
    let mut events = Vec::new();
    let first = phase2_table(&store, &mut seen(&mut events));
    let Some(Seen::Saved(path)) = events.pop() else {
        panic!("expected a built and saved table, got {events:?}");
    };
    let reference = first.entry_counts();
    drop(first);
    events.clear();
    phase2_table(&store, &mut seen(&mut events));
    assert!(matches!(events[..], [Seen::Loaded]), "{events:?}");

    // One flipped bit in the payload: the checksum says so.
    let mut bytes = fs::read(&path).unwrap();
    bytes[HEADER_LEN + 12345] ^= 0x30;
    fs::write(&path, &bytes).unwrap();
    events.clear();
    let second = phase2_table(&store, &mut seen(&mut events));
    assert!(
        matches!(&events[..], [Seen::Rejected(why, false), Seen::Building, Seen::Built, Seen::Saved(_)] if why.contains("checksum")),
        "{events:?}"
    );
    assert_eq!(second.entry_counts(), reference);

    // Truncated: also rejected.
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    events.clear();
    phase2_table(&store, &mut seen(&mut events));
    assert!(
        matches!(&events[0], Seen::Rejected(why, false) if why.contains("truncated")),
        "{events:?}"
    );

    // The file the 3x3x3 solver wrote before the one table store (its own
    // header, "TWISTOR3", format 2, under its old name): recognised as
    // outdated, removed, and the table rebuilt to the same entries.
    fs::remove_file(&path).unwrap();
    let old = dir.join("phase2-corner-udedge-v2.tbl");
    let mut old_bytes = vec![0u8; 4096 + 1000];
    old_bytes[..8].copy_from_slice(b"TWISTOR3");
    old_bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    fs::write(&old, &old_bytes).unwrap();
    events.clear();
    let third = phase2_table(&store, &mut seen(&mut events));
    assert!(
        matches!(
            &events[..],
            [
                Seen::Rejected(_, true),
                Seen::Building,
                Seen::Built,
                Seen::Saved(_)
            ]
        ),
        "{events:?}"
    );
    assert!(!old.exists(), "the outdated file is removed");
    assert_eq!(third.entry_counts(), reference);
    let _ = fs::remove_dir_all(&dir);
}
