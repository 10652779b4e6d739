//! The 3x3x3 events' random-state scrambles: two-phase from a random
//! state, and the endings the blindfolded and fewest-moves events add.

use super::*;

/// What every fewest-moves scramble begins and ends with.
pub const FMC_PADDING: &str = "R' U' F";

/// How a random-state 3x3x3 scramble ends, by event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CubeFinish {
    /// 333, 333oh: the scramble alone.
    Plain,
    /// 333bf, 333mbf: then a random whole-cube orientation as wide turns.
    Blind,
    /// 333fm: between `R' U' F` and `R' U' F`, with no move cancelling
    /// into them.
    FewestMoves,
}

/// The turns that reorient a cube for blindfolded events, by the three
/// names of its R, F and U sides' turns: one of 24 orientations, as the
/// WCA's scrambler draws them (a turn about R or F, then one about U).
pub(super) const WIDE_2: [&str; 3] = ["Rw", "Fw", "Uw"];
/// 4x4x4 blindfolded scrambles end in rotations.
pub(super) const ROTATIONS: [&str; 3] = ["x", "z", "y"];
/// 5x5x5 blindfolded scrambles end in three-layer wide turns.
pub(super) const WIDE_3: [&str; 3] = ["3Rw", "3Fw", "3Uw"];

/// `alg` followed by a random orientation in the turns `names`, for the
/// blindfolded events (the scramble alone when `names` is `None`).
pub(super) fn oriented(alg: String, names: Option<&[&str; 3]>, rng: &mut SeededRng) -> String {
    let Some(names) = names else { return alg };
    let turn = random_orientation(names, rng);
    if turn.is_empty() {
        alg
    } else {
        format!("{alg} {turn}")
    }
}

/// A uniformly random one of the 24 orientations, as 0 to 2 turns.
pub(super) fn random_orientation(names: &[&str; 3], rng: &mut SeededRng) -> String {
    let [r, f, u] = names;
    let first = ["", "", "2", "'", "", "'"];
    let k = rng.below(6);
    let mut out = Vec::new();
    match k {
        1..=3 => out.push(format!("{r}{}", first[k])),
        4 | 5 => out.push(format!("{f}{}", first[k])),
        _ => {}
    }
    let j = rng.below(4);
    if j > 0 {
        out.push(format!("{u}{}", ["", "", "2", "'"][j]));
    }
    out.join(" ")
}

/// A two-phase solution of `cube` whose first and last moves are off the
/// given axes. When the solver's own solution does not fit, the cube is
/// solved with a chosen first move `q1` and last move `q2` (the search
/// solves `q2 · cube · q1`, and `q1 T q2` solves the cube), trying moves
/// off the axes until the merged sequence fits. The state is never redrawn,
/// so scrambles stay uniform over states.
pub(super) fn solve_off_axes(
    tables: &TwoPhaseTables,
    cube: &CubieCube,
    first_not: Option<usize>,
    last_not: Option<usize>,
) -> Option<Vec<FaceTurn>> {
    let options = TwoPhaseOptions::default();
    let fits = |moves: &[FaceTurn]| {
        let off = |m: Option<&FaceTurn>, a: Option<usize>| match (m, a) {
            (Some(m), Some(a)) => axis(m.face()) != a,
            _ => true,
        };
        off(moves.first(), first_not) && off(moves.last(), last_not)
    };
    let choices = |not: Option<usize>| -> Vec<Option<FaceTurn>> {
        let mut v = vec![None];
        if let Some(a) = not {
            v.extend(FaceTurn::all().filter(|m| axis(m.face()) != a).map(Some));
        }
        v
    };
    let mut fallback = None;
    for q1 in choices(first_not) {
        for q2 in choices(last_not) {
            let mut image = *cube;
            if let Some(m) = q1 {
                image = image.apply_move(m);
            }
            if let Some(m) = q2 {
                image = CubieCube::from_moves(&[m]).multiply(&image);
            }
            let Ok(solution) = two_phase(tables, &image, &options) else {
                continue;
            };
            let mut moves: Vec<FaceTurn> = q1.into_iter().collect();
            moves.extend(solution.moves.0.iter().copied());
            moves.extend(q2);
            let moves = MoveSeq(moves).simplified().0;
            if fits(&moves) {
                return Some(moves);
            }
            fallback.get_or_insert(moves);
        }
    }
    fallback
}

/// The axis of a face (U/D, R/L, F/B) as 0, 1, 2.
pub(super) fn axis(face: CubeFace) -> usize {
    match face {
        CubeFace::U | CubeFace::D => 0,
        CubeFace::R | CubeFace::L => 1,
        CubeFace::F | CubeFace::B => 2,
    }
}

/// A random-state 3x3x3 scramble, finished as the event asks.
pub(super) fn cube333(
    tables: &TwoPhaseTables,
    finish: CubeFinish,
    rng: &mut SeededRng,
) -> WcaScramble {
    let singles: Vec<CubieCube> = FaceTurn::all()
        .map(|m| CubieCube::from_moves(&[m]))
        .collect();
    loop {
        let cube = CubieCube::random(|| rng.next_u64());
        if cube.is_solved() || singles.contains(&cube) {
            continue;
        }
        // The scramble is the solution backwards: its last move is the
        // inverse of the solution's first.
        let (orientation, first_not, last_not) = match finish {
            CubeFinish::Plain => (String::new(), None, None),
            CubeFinish::Blind => {
                let turn = random_orientation(&WIDE_2, rng);
                let first = turn.chars().next().map(|c| match c {
                    'R' => axis(CubeFace::R),
                    'F' => axis(CubeFace::F),
                    _ => axis(CubeFace::U),
                });
                (turn, first, None)
            }
            // Nothing may cancel into the final R' or the first F.
            CubeFinish::FewestMoves => (
                String::new(),
                Some(axis(CubeFace::R)),
                Some(axis(CubeFace::F)),
            ),
        };
        // Every cube has a two-phase solution within 21 moves; without a
        // time or probe limit the search always finds one.
        let Some(solution) = solve_off_axes(tables, &cube, first_not, last_not) else {
            continue;
        };
        let body = MoveSeq(solution).inverse().to_string();
        let alg = match finish {
            CubeFinish::Plain => body,
            CubeFinish::Blind if orientation.is_empty() => body,
            CubeFinish::Blind => format!("{body} {orientation}"),
            CubeFinish::FewestMoves => format!("{FMC_PADDING} {body} {FMC_PADDING}"),
        };
        return WcaScramble {
            alg,
            distance: None,
        };
    }
}
