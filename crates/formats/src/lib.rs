//! Text in and out of twistor: ksolve/twsearch `.tws` definitions and
//! scramble files, cubing.js KPuzzle and KPattern JSON, and move notation.
#![deny(missing_docs)]

pub mod alg;
