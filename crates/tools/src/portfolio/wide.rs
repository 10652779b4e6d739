//! Answers on big cubes written as cubers write them: turns of adjacent
//! layers from one face together as one wide turn.
//!
//! The searches turn single layers (`R`, `2R`, PuzzleGeometry's and
//! SiGN's name for the second layer from R), so an answer says `2U2 U2
//! 2R' R'` where a cuber writes `Uw2 Rw'`. Turns of one axis commute, so
//! each run of them is read as an amount per layer; a run that turns the
//! outer `k` layers of one side alike becomes `Rw` (`k = 2`) or `kRw`, and
//! anything else stays as single layers (`R 3R'`), in SiGN, which
//! cubing.js reads.

use twistor_core::Puzzle;
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;

/// Faces by axis: the first face of each pair counts layers from its
/// side, the second from the other.
const AXES: [(char, char); 3] = [('R', 'L'), ('U', 'D'), ('F', 'B')];

/// One turn: its axis, the layers it turns counted from the axis's first
/// face (1-based, inclusive), and quarter turns in that face's direction.
/// Reads single layers (`R`, `3R`) and wide turns (`Rw`, `3Rw`).
fn read_turn(token: &str, n: usize) -> Option<(usize, (usize, usize), i32)> {
    let digits: String = token.chars().take_while(|c| c.is_ascii_digit()).collect();
    let rest = &token[digits.len()..];
    let mut chars = rest.chars();
    let face = chars.next()?;
    let mut suffix: &str = chars.as_str();
    let wide = suffix.starts_with('w');
    if wide {
        suffix = &suffix[1..];
    }
    let amount = match suffix {
        "" => 1,
        "2" | "2'" => 2,
        "'" => -1,
        _ => return None,
    };
    let depth: usize = match (digits.is_empty(), wide) {
        (true, false) => 1,
        (true, true) => 2,
        (false, _) => digits.parse().ok()?,
    };
    if depth == 0 || depth >= n + usize::from(!wide) {
        return None;
    }
    let (lo, hi) = if wide { (1, depth) } else { (depth, depth) };
    AXES.iter()
        .enumerate()
        .find_map(|(axis, &(first, second))| {
            if face == first {
                Some((axis, (lo, hi), amount))
            } else if face == second {
                Some((axis, (n + 1 - hi, n + 1 - lo), -amount))
            } else {
                None
            }
        })
}

/// A quarter-turn count written as a suffix.
fn suffix(amount: i32) -> &'static str {
    match amount.rem_euclid(4) {
        1 => "",
        2 => "2",
        _ => "'",
    }
}

/// A turn of the outer `k` layers from `face` by `amount`.
fn wide(face: char, k: usize, amount: i32) -> String {
    match k {
        1 => format!("{face}{}", suffix(amount)),
        2 => format!("{face}w{}", suffix(amount)),
        k => format!("{k}{face}w{}", suffix(amount)),
    }
}

/// One layer from `face` (1-based) by `amount`.
fn layer(face: char, k: usize, amount: i32) -> String {
    if k == 1 {
        format!("{face}{}", suffix(amount))
    } else {
        format!("{k}{face}{}", suffix(amount))
    }
}

/// The turns of one axis, per layer (from the first face): the outer
/// layers turned alike from each side as one wide turn (not every layer:
/// that is a rotation, which the searches do not make), the rest each on
/// its own from its nearer face.
fn write_axis(axis: usize, amounts: &[i32], n: usize, out: &mut Vec<String>) {
    let (first, second) = AXES[axis];
    let mut left: Vec<i32> = amounts.iter().map(|a| a.rem_euclid(4)).collect();
    let outer = |left: &[i32], layers: &mut dyn Iterator<Item = usize>| -> (usize, i32) {
        let mut layers = layers.peekable();
        let a = layers.peek().map_or(0, |&l| left[l]);
        let k = layers.take_while(|&l| a != 0 && left[l] == a).count();
        (k, a)
    };
    let (k, a) = outer(&left, &mut (1..=n));
    if k >= 2 && k < n {
        out.push(wide(first, k, a));
        left[1..=k].fill(0);
    }
    let (k, a) = outer(&left, &mut (1..=n).rev());
    if k >= 2 && k < n {
        out.push(wide(second, k, -a));
        left[n + 1 - k..=n].fill(0);
    }
    for (l, &a) in left.iter().enumerate().skip(1) {
        match a {
            0 => {}
            a if l <= n.div_ceil(2) => out.push(layer(first, l, a)),
            a => out.push(layer(second, n + 1 - l, -a)),
        }
    }
}

/// `text` (single-layer turns of an `n`x`n`x`n` cube) with each run of
/// turns of one axis written as wide turns where they are; `None` when a
/// word is not a layer turn of the cube.
pub(super) fn with_wide_turns(text: &str, n: usize) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut run: Option<(usize, Vec<i32>)> = None;
    for token in text.split_whitespace() {
        let (axis, (lo, hi), amount) = read_turn(token, n)?;
        if run.as_ref().is_some_and(|(a, _)| *a != axis) {
            if let Some((a, amounts)) = run.take() {
                write_axis(a, &amounts, n, &mut out);
            }
        }
        let (_, amounts) = run.get_or_insert_with(|| (axis, vec![0; n + 1]));
        for a in &mut amounts[lo..=hi] {
            *a += amount;
        }
    }
    if let Some((a, amounts)) = run {
        write_axis(a, &amounts, n, &mut out);
    }
    Some(out.join(" "))
}

/// On a big cube, an answer (single-layer turns of `puzzle`) with adjacent
/// outer layers turned together written as the wide turns cubers write
/// (`Lw F' Lw'` for `L 2L F' L' 2L'`), where that does the same on the
/// puzzle; the answer as it is otherwise (other puzzles, a definition
/// without wide turns).
pub(super) fn in_wide_turns(puzzle: &Puzzle, moves: String) -> String {
    let does = |text: &str| {
        let alg = text.parse::<Alg>().ok()?;
        alg_transformation(puzzle, &alg).ok()
    };
    cube_size(puzzle.name())
        .filter(|&n| n >= 4)
        .and_then(|n| with_wide_turns(&moves, n))
        .filter(|wide| does(wide).is_some_and(|t| Some(t) == does(&moves)))
        .unwrap_or(moves)
}

/// The side of a cube named `NxNxN`.
pub(super) fn cube_size(name: &str) -> Option<usize> {
    let mut parts = name.split('x');
    let n: usize = parts.next()?.parse().ok()?;
    (parts.next()? == n.to_string() && parts.next()? == n.to_string() && parts.next().is_none())
        .then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layer_runs_become_wide_turns() {
        assert_eq!(with_wide_turns("2U2 U2 2R' R'", 4).unwrap(), "Uw2 Rw'");
        assert_eq!(with_wide_turns("R 2R 3R F", 6).unwrap(), "3Rw F");
        assert_eq!(with_wide_turns("L' 2L'", 5).unwrap(), "Lw'");
        // Not the outer layers alike: single layers, from the nearer face.
        assert_eq!(with_wide_turns("2R R'", 4).unwrap(), "R' 2R");
        assert_eq!(with_wide_turns("3R", 5).unwrap(), "3R");
        assert_eq!(with_wide_turns("2L R", 4).unwrap(), "R 2L");
        // Turns that cancel vanish.
        assert_eq!(with_wide_turns("R R' U", 3).unwrap(), "U");
        assert_eq!(with_wide_turns("x", 3), None);
        // Outer layers alike from each side, the rest single.
        assert_eq!(with_wide_turns("F 2B B", 5).unwrap(), "Bw F");
        assert_eq!(with_wide_turns("R 2R 3R' 4R' L", 5).unwrap(), "Rw 3Lw");
        // Wide turns read in merge with single layers.
        assert_eq!(with_wide_turns("Rw 2R'", 4).unwrap(), "R");
        assert_eq!(with_wide_turns("3Rw' R", 5).unwrap(), "2R' 3R'");
        assert_eq!(with_wide_turns("Lw 3L", 6).unwrap(), "3Lw");
        // Past the cube: not a turn of it.
        assert_eq!(with_wide_turns("5R", 4), None);
        assert_eq!(with_wide_turns("4Rw", 4), None);
    }

    #[test]
    fn cube_names() {
        assert_eq!(cube_size("4x4x4"), Some(4));
        assert_eq!(cube_size("40x40x40"), Some(40));
        assert_eq!(cube_size("4x4x5"), None);
        assert_eq!(cube_size("megaminx"), None);
    }
}
