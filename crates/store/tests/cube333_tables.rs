//! The 3x3x3 solver's tables in a cache directory: a damaged file, or one
//! an older twistor wrote, is reported, not trusted, and rebuilt, and the
//! rebuilt tables give the same solutions.

use std::fs;

use twistor_core::store::{StoreError, StoreEvent};
use twistor_cube333::{solve_two_phase, CubieCube, MoveSeq, TwoPhaseOptions, TwoPhaseTables};
use twistor_store::{DirStore, HEADER_LEN};

/// What happened to the phase-2 table, without the borrowed parts.
#[derive(Debug)]
enum Seen {
    Loaded,
    Rejected(String, bool),
    Building,
    Built,
    Saved(String),
}

const PHASE2: &str = "phase2-corner-udedge";

fn load(store: &DirStore, events: &mut Vec<Seen>) -> TwoPhaseTables {
    TwoPhaseTables::load(store, &mut |e| {
        let seen = match e {
            StoreEvent::Loaded { key, .. } if key.name == PHASE2 => Seen::Loaded,
            StoreEvent::Rejected { key, error, .. } if key.name == PHASE2 => Seen::Rejected(
                error.to_string(),
                matches!(error, StoreError::Outdated { .. }),
            ),
            StoreEvent::Building { key, .. } if key.name == PHASE2 => Seen::Building,
            StoreEvent::Built { key, .. } if key.name == PHASE2 => Seen::Built,
            StoreEvent::Saved { key, location, .. } if key.name == PHASE2 => {
                Seen::Saved(location.unwrap_or_default())
            }
            StoreEvent::SaveFailed { error, .. } => panic!("save failed: {error}"),
            _ => return,
        };
        events.push(seen);
    })
}

/// Two-phase solutions of a few fixed cubes.
fn answers(tables: &TwoPhaseTables) -> Vec<String> {
    [
        "R U2 F' L D2 B R' U F2 L' D B2",
        "F2 D' R U' B L2 F' U2 R2 D L'",
        "U R2 F B R B2 R U2 L B2 R U' D'",
    ]
    .iter()
    .map(|s| {
        let scramble: MoveSeq = s.parse().unwrap();
        let cube = CubieCube::from_moves(&scramble.0);
        let solution = solve_two_phase(tables, &cube, &TwoPhaseOptions::default()).unwrap();
        assert!(cube.apply_moves(&solution.moves.0).is_solved());
        solution.moves.to_string()
    })
    .collect()
}

/// A directory removed when the test ends, passed or not.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn corrupt_and_outdated_phase2_files_are_detected_and_rebuilt() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cube333-rebuild-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let _cleanup = TempDir(dir.clone());
    let store = DirStore::new(&dir);
    let mut events = Vec::new();
    let reference = answers(&load(&store, &mut events));
    let Some(Seen::Saved(path)) = events.pop() else {
        panic!("expected a built and saved table, got {events:?}");
    };
    events.clear();
    load(&store, &mut events);
    assert!(matches!(events[..], [Seen::Loaded]), "{events:?}");

    // One flipped bit in the payload: the checksum says so.
    let mut bytes = fs::read(&path).unwrap();
    bytes[HEADER_LEN + 12345] ^= 0x30;
    fs::write(&path, &bytes).unwrap();
    events.clear();
    let tables = load(&store, &mut events);
    assert!(
        matches!(&events[..], [Seen::Rejected(why, false), Seen::Building, Seen::Built, Seen::Saved(_)] if why.contains("checksum")),
        "{events:?}"
    );
    assert_eq!(answers(&tables), reference);

    // Truncated: also rejected.
    fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    events.clear();
    load(&store, &mut events);
    assert!(
        matches!(&events[0], Seen::Rejected(why, false) if why.contains("truncated")),
        "{events:?}"
    );

    // The file the 3x3x3 solver wrote before the one table store (its own
    // header, "TWISTOR3", format 2, under its old name): recognised as
    // outdated, removed, and the table rebuilt to the same answers.
    fs::remove_file(&path).unwrap();
    let old = dir.join(format!("{PHASE2}-v2.tbl"));
    let mut old_bytes = vec![0u8; 4096 + 1000];
    old_bytes[..8].copy_from_slice(b"TWISTOR3");
    old_bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
    fs::write(&old, &old_bytes).unwrap();
    events.clear();
    let tables = load(&store, &mut events);
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
    assert_eq!(answers(&tables), reference);
}
