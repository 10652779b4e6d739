//! ksolve/twsearch `.tws` puzzle definitions and scramble files.
//!
//! Semantics follow `spec/ksolve-format-and-representation.txt` and
//! twsearch: permutations are passive and 1-based (`StartState` and
//! `MoveTransformation` are 0-based); `Move` blocks give orientation in
//! ksolve's *move* convention and are converted on read with
//! `s.o[i] = m.o[p[i]]`; `Solved`, `StartState`, `MoveTransformation` and
//! `Scramble` blocks are in *state* convention. An orbit left out of a block
//! is the identity (for scrambles: as in the start state); an orientation
//! line left out is all zeros. `?` in a start state is an orientation
//! wildcard, which the model holds as orientation known modulo 1.
//!
//! `MoveSequence` and `MoveAlias` may refer to moves defined later in the
//! file; `MoveAlias` accepts an alg of several moves as an extension (so
//! cubing.js derived moves survive a round trip).
//!
//! The module is split along the format's seams: `block` reads the
//! words, lines and position blocks every `.tws` text is made of,
//! `reader` the puzzle definitions, `scramble` the scramble files and
//! `writer` writes definitions and position blocks back out.

mod block;
mod reader;
mod scramble;
mod writer;

pub use reader::parse_tws;
pub(crate) use reader::{resolve_pending, Pending};
pub use scramble::{parse_scrambles, write_scrambles, Scramble, ScrambleBody};
pub use writer::write_tws;
