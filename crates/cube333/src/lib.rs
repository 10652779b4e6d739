//! twistor cube333 (in progress).
