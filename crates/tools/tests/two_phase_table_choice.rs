//! Which two-phase tables a batch gets: the compact ones at once for a
//! few solves, the medium ones once they are stored or a batch pays for
//! their build, the stored full ones only for a batch that pays for
//! reading them, and never the full ones under a limit they do not fit.

use std::path::PathBuf;

use twistor_cube333::TwoPhaseTableKind::{Compact, Full, Medium};
use twistor_store::DirStore;
use twistor_tools::portfolio::{
    two_phase_choice, two_phase_tables_for, StoredTwoPhase, FULL_TABLES_PAY_AFTER,
    FULL_TABLES_READ_BEATS_COMPACT_AFTER, FULL_TABLES_READ_PAYS_AFTER, FULL_TWO_PHASE_MEMORY_MIB,
    MEDIUM_TABLES_PAY_AFTER,
};

#[test]
fn a_batch_gets_the_tables_it_pays_for() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("two-phase-table-choice");
    let _ = std::fs::remove_dir_all(&dir);
    let store = DirStore::new(dir);
    let kind = |limit, solves| two_phase_tables_for(limit, solves, &store, &mut |_| {}).kind();
    // Nothing stored: a few solves take the tables built at once.
    assert_eq!(kind(None, 1), Compact);
    assert_eq!(kind(None, MEDIUM_TABLES_PAY_AFTER - 1), Compact);
    // A batch that pays for the medium tables builds and stores them ...
    assert_eq!(kind(None, MEDIUM_TABLES_PAY_AFTER), Medium);
    // ... and from then on even one solve loads them.
    assert_eq!(kind(None, 1), Medium);
    // A limit the full tables do not fit keeps a long batch to the medium.
    assert_eq!(
        kind(Some(FULL_TWO_PHASE_MEMORY_MIB - 1), FULL_TABLES_PAY_AFTER),
        Medium
    );
    const { assert!(MEDIUM_TABLES_PAY_AFTER < FULL_TABLES_PAY_AFTER) };
}

/// With the full tables stored, a few solves keep to the tables read or
/// built in hundredths of a second; a batch that pays for reading 126 MB
/// reads them, and a limit they do not fit still keeps them out.
#[test]
fn stored_full_tables_are_read_only_for_a_batch_that_pays() {
    let full_only = StoredTwoPhase {
        full: true,
        medium: false,
    };
    let both = StoredTwoPhase {
        full: true,
        medium: true,
    };
    let choice = |solves, stored| two_phase_choice(None, solves, stored);
    assert_eq!(choice(1, full_only), Compact);
    assert_eq!(
        choice(FULL_TABLES_READ_BEATS_COMPACT_AFTER - 1, full_only),
        Compact
    );
    assert_eq!(
        choice(FULL_TABLES_READ_BEATS_COMPACT_AFTER, full_only),
        Full
    );
    // Reading them beats building the medium ones.
    assert_eq!(choice(MEDIUM_TABLES_PAY_AFTER, full_only), Full);
    assert_eq!(choice(1, both), Medium);
    assert_eq!(choice(FULL_TABLES_READ_PAYS_AFTER - 1, both), Medium);
    assert_eq!(choice(FULL_TABLES_READ_PAYS_AFTER, both), Full);
    assert_eq!(
        two_phase_choice(
            Some(FULL_TWO_PHASE_MEMORY_MIB - 1),
            FULL_TABLES_PAY_AFTER,
            both
        ),
        Medium
    );
    // Nothing stored: the same choice as the store-reading policy above.
    let none = StoredTwoPhase::default();
    assert_eq!(choice(1, none), Compact);
    assert_eq!(choice(MEDIUM_TABLES_PAY_AFTER, none), Medium);
    assert_eq!(choice(FULL_TABLES_PAY_AFTER, none), Full);
    const {
        assert!(FULL_TABLES_READ_BEATS_COMPACT_AFTER < MEDIUM_TABLES_PAY_AFTER);
        assert!(FULL_TABLES_READ_PAYS_AFTER < FULL_TABLES_PAY_AFTER);
    };
}
