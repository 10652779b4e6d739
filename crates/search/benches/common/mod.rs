//! What the benchmarks share: the reference 2x2x2 they run on.

use twistor_core::Puzzle;

/// The reference `2x2x2.tws`, or `None` (said on stderr) when the shared
/// reference data is not beside the repository.
pub fn shared_2x2x2() -> Option<Puzzle> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/puzzles/tws/2x2x2.tws"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("{path} is missing; nothing to benchmark");
        return None;
    };
    twistor_formats::read_puzzle(&text, path).ok()
}
