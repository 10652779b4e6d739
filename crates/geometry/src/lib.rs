//! twistor geometry (in progress).
