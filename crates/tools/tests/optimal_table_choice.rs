//! Which optimal 3x3x3 table a memory limit picks: the strongest that
//! fits, the giant one built only when the user gave a limit with room for
//! its build (a first solve must not wait minutes for a build nobody asked
//! for).

use std::path::PathBuf;

use twistor_cube333::OptimalTableKind::{Giant, Huge, Small};
use twistor_store::DirStore;
use twistor_tools::portfolio::{
    optimal_table_within, GIANT_BUILD_MEMORY, GIANT_TABLE_MEMORY, HUGE_TABLE_MEMORY,
};

#[test]
fn the_giant_table_is_built_only_when_asked_with_room_for_its_build() {
    // A store with nothing in it: the giant table is not cached.
    let empty = DirStore::new(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-tables-here"));
    assert_eq!(
        optimal_table_within(HUGE_TABLE_MEMORY - 1, true, &empty),
        Small
    );
    assert_eq!(optimal_table_within(HUGE_TABLE_MEMORY, true, &empty), Huge);
    assert_eq!(optimal_table_within(GIANT_TABLE_MEMORY, true, &empty), Huge);
    assert_eq!(
        optimal_table_within(GIANT_BUILD_MEMORY - 1, true, &empty),
        Huge
    );
    assert_eq!(
        optimal_table_within(GIANT_BUILD_MEMORY, true, &empty),
        Giant
    );
    // The memory free, however much, does not start the build.
    assert_eq!(optimal_table_within(u64::MAX, false, &empty), Huge);
}

#[test]
fn the_thresholds_cover_the_tables_and_the_giant_build() {
    assert!(HUGE_TABLE_MEMORY > Huge.bytes());
    assert!(GIANT_TABLE_MEMORY > Giant.bytes());
    assert!(GIANT_BUILD_MEMORY > Giant.build_bytes());
    assert!(Small.bytes() < HUGE_TABLE_MEMORY && Huge.bytes() < Giant.bytes());
}
