//! Which two-phase tables a batch gets: the compact ones at once for a
//! few solves, the medium ones once they are stored or a batch pays for
//! their build, and never the full ones under a limit they do not fit.

use std::path::PathBuf;

use twistor_cube333::TwoPhaseTableKind::{Compact, Medium};
use twistor_store::DirStore;
use twistor_tools::portfolio::{
    two_phase_tables_for, FULL_TABLES_PAY_AFTER, FULL_TWO_PHASE_MEMORY_MIB, MEDIUM_TABLES_PAY_AFTER,
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
