//! The random-move families: big cubes, the megaminx's Pochmann rows, the
//! clock's pin turns, and the 4x4x4's random state by reduction.

use super::*;

/// Random moves on an NxN cube.
pub(super) struct CubeMoves {
    /// (text, axis, layer block) of every quantum allowed.
    quanta: Vec<(String, usize, usize)>,
    length: usize,
}

impl CubeMoves {
    pub(super) fn new(n: usize, length: usize) -> CubeMoves {
        const FACES: [(&str, usize); 6] =
            [("U", 0), ("D", 0), ("L", 1), ("R", 1), ("F", 2), ("B", 2)];
        let mut quanta = Vec::new();
        // Widths 1 (face) up to n/2 (half the cube).
        for width in 1..=n / 2 {
            for (fi, &(face, axis)) in FACES.iter().enumerate() {
                let half = 2 * width == n;
                // Half-cube wide turns of even cubes only on U, R and F.
                if half && !matches!(face, "U" | "R" | "F") {
                    continue;
                }
                let text = match width {
                    1 => face.to_string(),
                    2 => format!("{face}w"),
                    w => format!("{w}{face}w"),
                };
                quanta.push((text, axis, fi * 16 + width));
            }
        }
        CubeMoves { quanta, length }
    }

    pub(super) fn scramble(&self, rng: &mut SeededRng) -> String {
        let mut out: Vec<String> = Vec::with_capacity(self.length);
        let mut axis = usize::MAX;
        let mut used: Vec<usize> = Vec::new();
        for _ in 0..self.length {
            let allowed: Vec<&(String, usize, usize)> = self
                .quanta
                .iter()
                .filter(|q| q.1 != axis || !used.contains(&q.2))
                .collect();
            let q = allowed[rng.below(allowed.len())];
            if q.1 != axis {
                axis = q.1;
                used.clear();
            }
            used.push(q.2);
            let suffix = ["", "2", "'"][rng.below(3)];
            out.push(format!("{}{suffix}", q.0));
        }
        out.join(" ")
    }
}

/// A Pochmann megaminx scramble.
pub(super) fn megaminx(rng: &mut SeededRng) -> String {
    let mut words = Vec::with_capacity(77);
    for _ in 0..7 {
        let mut last_plus = true;
        for j in 0..10 {
            let side = if j % 2 == 0 { "R" } else { "D" };
            last_plus = rng.below(2) == 0;
            words.push(format!("{side}{}", if last_plus { "++" } else { "--" }));
        }
        words.push(if last_plus { "U".into() } else { "U'".into() });
    }
    words.join(" ")
}

/// The clock's pin sets in scramble order: the front's nine turns, then
/// (after `y2`) the back's five.
pub(super) const CLOCK_FRONT: [&str; 9] = ["UR", "DR", "DL", "UL", "U", "R", "D", "L", "ALL"];
pub(super) const CLOCK_BACK: [&str; 5] = ["U", "R", "D", "L", "ALL"];

/// A clock scramble: every turn an amount uniform in -5..=6.
pub(super) fn clock(rng: &mut SeededRng) -> String {
    let mut turn = |pins: &str| {
        // 0..12 shifted to -5..=6.
        let amount = rng.below(12) as i64 - 5;
        if amount >= 0 {
            format!("{pins}{amount}+")
        } else {
            format!("{pins}{}-", -amount)
        }
    };
    let mut words: Vec<String> = CLOCK_FRONT.iter().map(|p| turn(p)).collect();
    words.push("y2".into());
    words.extend(CLOCK_BACK.iter().map(|p| turn(p)));
    words.join(" ")
}

/// A random-state 4x4x4 scramble. The reduction solves every position
/// (its tests check thousands); should it ever report a failure, the
/// position is drawn again, eight times at most (`None` then).
pub(super) fn random_state_444(
    solver: &Cube444Solver,
    three: &TwoPhaseTables,
    rng: &mut SeededRng,
) -> Option<String> {
    (0..8).find_map(|_| {
        solver
            .random_scramble(rng, three)
            .ok()
            .map(|s| s.alg.to_string())
    })
}
