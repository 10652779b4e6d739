//! twistor search (in progress).
