//! Perfect indexing of positions (being built).
