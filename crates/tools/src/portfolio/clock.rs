//! The clock answered as what it is: fourteen dials that turns add hours
//! to, a linear system over the integers modulo 12.
//!
//! A turn with some pins up adds the same number of hours to every dial
//! those pins connect, so a position is solved by amounts `a` of chosen
//! turns with `A a = −d (mod 12)`, `d` the dials' hours and `A` the turns'
//! columns. The WCA's scrambles use fourteen turns (the nine front pin
//! settings, then five on the back) that form a basis, so every position
//! has exactly one answer in them: elimination modulo 12 with unit pivots
//! finds it, at most fourteen turns, fewer where an amount comes out zero.
//! A position turned over (the back facing the viewer) is first turned
//! back by the whole-clock rotation that puts its frame as the goal's.

use twistor_core::{Pattern, Puzzle};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;

use crate::rotations::WholeRotations;

/// The WCA's fourteen turns: the front pin settings, then the back's.
const BASIS: [&str; 14] = [
    "UR", "DR", "DL", "UL", "U", "R", "D", "L", "ALL", "BU", "BR", "BD", "BL", "B",
];

/// The clock's solver: its turns as columns of hours.
pub(super) struct ClockSolver {
    dials: usize,
    /// For each turn of [`BASIS`], the hours it adds to each dial.
    columns: Vec<Vec<u8>>,
    rotations: WholeRotations,
}

impl ClockSolver {
    /// The solver, if `puzzle` is the clock (the hand-written model).
    pub fn for_puzzle(puzzle: &Puzzle) -> Option<ClockSolver> {
        if puzzle.name() != "clock" {
            return None;
        }
        let layout = puzzle.layout();
        let dials = layout.orbit_index("DIALS")?;
        if layout.orbits()[dials].num_orientations() != 12 {
            return None;
        }
        let identity = layout.identity();
        let columns = BASIS
            .iter()
            .map(|name| {
                let i = puzzle.find_move(&format!("{name}_PLUS_"))?;
                let t = &puzzle.moves()[i].transformation;
                // A turn moves no dial, only turns them.
                (layout.perm(t.as_bytes(), dials) == layout.perm(identity.as_bytes(), dials))
                    .then(|| layout.ori(t.as_bytes(), dials).to_vec())
            })
            .collect::<Option<Vec<_>>>()?;
        let rotations = WholeRotations::of(puzzle).ok()?;
        Some(ClockSolver {
            dials,
            columns,
            rotations,
        })
    }

    /// An answer for `position` in cubing.js's clock notation (`UR3+ BU2-`,
    /// a rotation first if the clock is held turned) and its number of
    /// turns, or `None` when no rotation and amounts reach the goal.
    pub fn solve(&self, puzzle: &Puzzle, position: &Pattern) -> Option<(String, usize)> {
        let layout = puzzle.layout();
        // Held each way the goal may be reached from, the answer is unique;
        // the fewest turns over those ways is the shortest answer.
        let mut best: Option<(String, usize)> = None;
        for r in self.rotations.iter() {
            let held = layout.apply(position, &r.transformation);
            let hours: Vec<u8> = layout
                .ori(held.as_bytes(), self.dials)
                .iter()
                .map(|&c| layout.decode_orientation(self.dials, c).0)
                .collect();
            let want: Vec<u8> = hours.iter().map(|&h| (12 - h % 12) % 12).collect();
            let Some(amounts) = solve_mod12(&self.columns, &want) else {
                continue;
            };
            let mut words: Vec<String> = Vec::new();
            if !r.name.is_empty() {
                words.push(r.name.clone());
            }
            let mut turns = 0;
            for (name, &a) in BASIS.iter().zip(&amounts) {
                let a = a as i32 % 12;
                if a == 0 {
                    continue;
                }
                turns += 1;
                words.push(if a <= 6 {
                    format!("{name}{a}+")
                } else {
                    format!("{name}{}-", 12 - a)
                });
            }
            let text = words.join(" ");
            let reached = text
                .parse::<Alg>()
                .ok()
                .and_then(|alg| alg_transformation(puzzle, &alg).ok())
                .map(|t| layout.apply(position, &t));
            if reached.as_ref() == Some(puzzle.start())
                && best.as_ref().is_none_or(|(_, fewest)| turns < *fewest)
            {
                best = Some((text, turns));
            }
        }
        best
    }
}

/// Amounts `a` (one a column) with `Σ a_j columns[j] = want (mod 12)`, by
/// elimination with unit pivots; `None` when some column has no unit to
/// pivot on or the system has no solution.
fn solve_mod12(columns: &[Vec<u8>], want: &[u8]) -> Option<Vec<u8>> {
    let n = columns.len();
    let rows = want.len();
    // The augmented matrix, a row per dial.
    let mut m: Vec<Vec<i64>> = (0..rows)
        .map(|r| {
            let mut row: Vec<i64> = columns.iter().map(|c| c[r] as i64).collect();
            row.push(want[r] as i64);
            row
        })
        .collect();
    let inverse = |x: i64| (1..12).find(|&y| (x * y).rem_euclid(12) == 1);
    let mut pivot_row = vec![usize::MAX; n];
    let mut next = 0;
    for col in 0..n {
        let found = (next..rows).find(|&r| inverse(m[r][col]).is_some())?;
        m.swap(next, found);
        let inv = inverse(m[next][col])?;
        for x in m[next].iter_mut() {
            *x = (*x * inv).rem_euclid(12);
        }
        let pivot = m[next].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != next && row[col] != 0 {
                let f = row[col];
                for (x, p) in row.iter_mut().zip(&pivot) {
                    *x = (*x - f * p).rem_euclid(12);
                }
            }
        }
        pivot_row[col] = next;
        next += 1;
    }
    // Rows past the pivots must hold 0 = 0.
    if m[next..].iter().any(|row| row[n] != 0) {
        return None;
    }
    Some((0..n).map(|c| m[pivot_row[c]][n] as u8).collect())
}
