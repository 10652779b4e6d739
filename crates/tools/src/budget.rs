//! Memory limits for the work outside the engines' tables that grows with a
//! puzzle: its group.
//!
//! Random states, `info`'s group order and the reachability test all build
//! the Schreier–Sims chain of the puzzle's group, whose representatives
//! take memory that grows with the square of an orbit's points times the
//! points below it: 2.4 GiB by the bound on the 40x40x40, more than 8 GiB
//! on an icosahedron with 23 vertex cuts. [`StabilizerChain::bytes_bound`] knows an upper
//! bound before anything is built; [`check_group`] compares it with a
//! limit so that a caller can refuse (or take another road, as the
//! server's random moves do) instead of finding out when the memory is
//! gone.
//!
//! ```
//! use twistor_geometry::{build, PuzzleOptions};
//! use twistor_tools::budget::check_group;
//!
//! let cube = build("3x3x3", &PuzzleOptions::default())?;
//! assert!(check_group(cube.puzzle(), 64 << 20).is_ok());
//! let big = build("10x10x10", &PuzzleOptions::default())?;
//! assert!(check_group(big.puzzle(), 1 << 20).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`StabilizerChain::bytes_bound`]: twistor_core::StabilizerChain::bytes_bound

use std::fmt;

use twistor_core::Puzzle;

use crate::ToolError;

/// The limit the command line uses unless told otherwise: a quarter of a
/// 16 GiB machine, above every named puzzle up to the 40x40x40.
pub const DEFAULT_GROUP_BYTES: u64 = 4 << 30;

/// What `-M` keeps back for all that is not tables in a search: its
/// stacks and buffers, the puzzle's group for telling unreachable
/// positions apart, the allocator's slack.
pub const SEARCH_RESERVE: u64 = 4 << 20;

/// What `-M` keeps back beside work whose size is known to the byte
/// before it starts: God's algorithm's arrays, a dedicated solver's fixed
/// table.
pub const EXACT_RESERVE: u64 = 1 << 20;

/// The bytes engines' tables may take when the whole process is to stay
/// within `limit`, `in_use` bytes are resident already (the program
/// itself, the puzzle) and `reserve` is kept for the rest: `-M` is a
/// promise about the process's peak, not only its tables. Never less than
/// 1 MiB (an engine that cannot work in that says so).
pub fn for_tables(limit: u64, in_use: u64, reserve: u64) -> u64 {
    limit
        .saturating_sub(in_use.saturating_add(reserve))
        .max(1 << 20)
}

/// `bytes` rounded down to its four leading binary digits (at most an
/// eighth less). What is resident when a command starts differs by a
/// few hundred kilobytes from run to run; a table budget taken from it
/// unrounded would change the search's plan, and with it the keys its
/// cached tables are stored under, on every run.
pub fn steady(bytes: u64) -> u64 {
    let keep = 4;
    let bits = 64 - bytes.leading_zeros();
    if bits <= keep {
        return bytes;
    }
    bytes >> (bits - keep) << (bits - keep)
}

/// Whether the puzzle's group fits in `limit` bytes, by its upper bound.
pub fn check_group(puzzle: &Puzzle, limit: u64) -> Result<(), ToolError> {
    let needs = puzzle.group_bytes_bound();
    if needs > limit {
        return Err(ToolError::TooLarge {
            what: format!(
                "the group of {}'s moves ({} points)",
                puzzle.name(),
                puzzle.layout().num_points()
            ),
            needs,
            limit,
        });
    }
    Ok(())
}

/// Bytes as people read them: `512 KiB`, `2.3 GiB`.
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} bytes", self.0)
        } else if value < 10.0 {
            write!(f, "{value:.1} {}", UNITS[unit])
        } else {
            write!(f, "{value:.0} {}", UNITS[unit])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steady_budgets_lose_at_most_an_eighth_and_absorb_small_changes() {
        for b in [
            1u64,
            15,
            16,
            17,
            1000,
            400 << 20,
            (400 << 20) + 123_456,
            u64::MAX,
        ] {
            let s = steady(b);
            assert!(s <= b && s >= b - b / 8, "{b}: {s}");
            assert_eq!(steady(s), s);
        }
        // Two starts whose resident memory differs by 300 KB plan alike.
        let a = for_tables(512 << 20, 21_000_000, SEARCH_RESERVE);
        let b = for_tables(512 << 20, 21_300_000, SEARCH_RESERVE);
        assert_ne!(a, b);
        assert_eq!(steady(a), steady(b));
    }

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(Bytes(512).to_string(), "512 bytes");
        assert_eq!(Bytes(1536).to_string(), "1.5 KiB");
        assert_eq!(Bytes(256 << 20).to_string(), "256 MiB");
        assert_eq!(Bytes(2_500_000_000).to_string(), "2.3 GiB");
    }
}
