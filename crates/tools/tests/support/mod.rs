//! What the scramble tests share.

use std::path::PathBuf;

use twistor_cube333::cache::CacheOptions;
use twistor_tools::scramble::ScrambleOptions;

/// Scrambler options whose 3x3x3 tables live beside crates/cube333's
/// tests' (`CARGO_TARGET_TMPDIR`), so they are built once.
pub fn scramble_options() -> ScrambleOptions {
    ScrambleOptions {
        cube333_cache: CacheOptions {
            dir: Some(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-cube333-tables")),
            ..Default::default()
        },
        table_cache: None,
        threads: 2,
    }
}
