//! God's algorithm: exact distance distributions (being built).
