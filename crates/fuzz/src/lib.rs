//! twistor's fuzz targets live in `tests/targets.rs`, one `#[test]` per
//! input path (definitions, positions, algs in every notation, facelets,
//! descriptors, stage files, checkpoints, the server's request bodies).
//!
//! Under `cargo test` each runs its committed corpus
//! (`tests/__fuzz__/<target>/corpus`, seeds written by twistor's own
//! writers) and any saved crashes, then random inputs for a second. Under
//! `cargo bolero test` (nightly, `cargo install cargo-bolero`) libFuzzer
//! drives the same target with coverage guidance:
//!
//! ```text
//! cargo +nightly bolero test -p twistor-fuzz --test targets tws_definition -T 60s
//! ```
//!
//! Every target asserts more than "no panic" where it can: what a reader
//! accepts must survive its writer and reading back.

#![forbid(unsafe_code)]
