//! twistor formats (in progress).
