//! A damaged table file is reported, not trusted, and rebuilt.

use std::fs;
use std::path::PathBuf;

use twistor_cube333::cache::{CacheEvent, CacheOptions, HEADER_LEN};
use twistor_cube333::prune::phase2_table;

#[test]
fn corrupt_phase2_file_is_detected_and_rebuilt() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cache-rebuild-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let opts = CacheOptions {
        dir: Some(dir.clone()),
        ..Default::default()
    };
    let mut events = Vec::new();
    let first = phase2_table(&opts, &mut |e| events.push(e));
    let Some(CacheEvent::Built {
        path: Some(path), ..
    }) = events.pop()
    else {
        panic!("expected a built and saved table, got {events:?}");
    };
    let reference = first.entry_counts();
    drop(first);

    let mut bytes = fs::read(&path).unwrap();
    bytes[HEADER_LEN + 12345] ^= 0x30;
    fs::write(&path, &bytes).unwrap();
    events.clear();
    let second = phase2_table(&opts, &mut |e| events.push(e));
    assert!(
        matches!(&events[0], CacheEvent::Rejected { reason, .. } if reason.contains("checksum")),
        "{events:?}"
    );
    assert!(matches!(&events[1], CacheEvent::Building { .. }));
    assert!(matches!(&events[2], CacheEvent::Built { .. }));
    assert_eq!(second.entry_counts(), reference);

    // Truncated: also rejected.
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    events.clear();
    phase2_table(&opts, &mut |e| events.push(e));
    assert!(
        matches!(&events[0], CacheEvent::Rejected { reason, .. } if reason.contains("truncated"))
    );
    let _ = fs::remove_dir_all(&dir);
}
