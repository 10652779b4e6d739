//! Loopover as cubing.js models it: a 5x5 grid of tiles whose rows and
//! columns slide cyclically.
//!
//! `SQUARES` are the 25 tiles row by row from the top left. `U` slides the
//! top row one tile to the left and `kU` the k-th row from the top; `R`
//! slides the rightmost column one tile up and `kR` the k-th column from
//! the right. The other directions are inverses of those moves: `kL` (the
//! k-th column from the left, downwards), `kD` (the k-th row from the
//! bottom, to the right), and the middle row `E` and column `M`.
//! cubing.js gives the tiles 3 orientations that no move changes; so does
//! this model.

use super::{Builder, Part};

/// Rows and columns.
const N: usize = 5;

/// The layer name for layer `k` (1-based) of `family`: `U`, `2U`, ...
fn layer(k: usize, family: &str) -> String {
    if k == 1 {
        family.to_string()
    } else {
        format!("{k}{family}")
    }
}

/// Slides the cells `line` (in order) one place towards the front of the
/// list, the first wrapping round to the end.
fn slide(line: &[usize]) -> Vec<usize> {
    let mut to: Vec<usize> = (0..N * N).collect();
    for (k, &cell) in line.iter().enumerate() {
        to[cell] = line[(k + line.len() - 1) % line.len()];
    }
    super::from_destinations(&to)
}

pub(super) fn definition() -> twistor_core::Puzzle {
    let mut b = Builder::new("loopover", &[("SQUARES", N * N, 3)]);
    for k in 1..=N {
        let row: Vec<usize> = (0..N).map(|c| (k - 1) * N + c).collect();
        b.base(&layer(k, "U"), &[Part::permutation("SQUARES", slide(&row))]);
    }
    for k in 1..=N {
        let column: Vec<usize> = (0..N).map(|r| r * N + (N - k)).collect();
        b.base(
            &layer(k, "R"),
            &[Part::permutation("SQUARES", slide(&column))],
        );
    }
    for k in 1..=N {
        b.derived(&layer(k, "L"), &format!("{}'", layer(N + 1 - k, "R")));
    }
    for k in 1..=N {
        b.derived(&layer(k, "D"), &format!("{}'", layer(N + 1 - k, "U")));
    }
    let middle = N.div_ceil(2);
    b.derived("E", &layer(middle, "D"));
    b.derived("M", &layer(middle, "L"));
    b.finish()
}
