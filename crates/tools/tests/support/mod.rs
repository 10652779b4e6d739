//! What the scramble tests share.

use std::path::PathBuf;
use std::sync::Arc;

use twistor_store::DirStore;
use twistor_tools::scramble::ScrambleOptions;

/// Scrambler options whose tables live beside the tests' other tables
/// (`CARGO_TARGET_TMPDIR`), so they are built once.
pub fn scramble_options() -> ScrambleOptions {
    ScrambleOptions {
        store: Arc::new(DirStore::new(
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("twistor-tables"),
        )),
        threads: 2,
        batch: 1,
    }
}
