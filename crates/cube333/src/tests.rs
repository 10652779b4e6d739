//! Tests of the tables against the outside world, inside the crate because
//! the tables are not part of its public surface: the phase-1 table
//! against the published distribution of the 2,217,093,120 phase-1 cosets
//! (Kociemba; twsearch's 3p1 run), and a damaged table file, or one an
//! older twistor wrote, reported, not trusted, and rebuilt to the same
//! table.

mod phase1_distribution {
    use twistor_core::store::NoStore;

    use crate::coord::N_TWIST;
    use crate::prune::phase1_table;
    use crate::tables::CoordTables;

    #[test]
    fn phase1_table_reproduces_the_coset_distribution() {
        let table = phase1_table(&NoStore, &mut |_| {});
        let t = CoordTables::get();
        let dist = table.raw_distribution(N_TWIST, |c| t.flipslice.class_size(c));
        assert_eq!(
            dist,
            vec![
                1, 4, 50, 592, 7156, 87236, 1043817, 12070278, 124946368, 821605960, 1199128738,
                58202444, 476
            ]
        );
        assert_eq!(dist.iter().sum::<u64>(), 2_217_093_120);
    }
}

mod cache_rebuild {
    use std::fs;

    use crate::prune::phase2_table;
    use twistor_core::store::{StoreError, StoreEvent};
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
        let dir = std::env::temp_dir().join(format!("cache-rebuild-{}", std::process::id()));
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
}
