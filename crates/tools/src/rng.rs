//! The seeded random source of random states and scrambles: the
//! workspace's one generator, [`twistor_core::random::SeededRng`] (ChaCha8
//! keyed by the seed), re-exported where the tools have always offered it.

pub use twistor_core::random::SeededRng;
