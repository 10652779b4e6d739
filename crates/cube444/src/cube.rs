//! The 4x4x4 position, its moves and WCA notation.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use twistor_core::index::permutation_parity;
use twistor_core::random::SeededRng;

use crate::geometry::{self, Perm, Pieces, N_STICKERS};
use crate::{Cube444Error, PositionReason};

/// Face letters in index order.
const FACES: [char; 6] = ['U', 'R', 'F', 'D', 'L', 'B'];

/// A turn of a 4x4x4: the outer layer of a face, or (wide) its outer two
/// layers, by one, two or three clockwise quarter turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move444 {
    face: u8,
    wide: bool,
    amount: u8,
}

impl Move444 {
    /// Number of distinct moves (6 faces × outer/wide × 3 amounts).
    pub const COUNT: usize = 36;

    /// The turn of face `face` (0..6 in the order U R F D L B), `wide`
    /// for the outer two layers, by `amount` quarter turns (1, 2 or 3).
    pub fn new(face: usize, wide: bool, amount: usize) -> Option<Move444> {
        (face < 6 && (1..=3).contains(&amount)).then_some(Move444 {
            face: face as u8,
            wide,
            amount: amount as u8,
        })
    }

    /// The move with index `i` in `0..36`.
    pub(crate) fn from_index(i: usize) -> Move444 {
        Move444 {
            face: (i / 6) as u8,
            wide: (i / 3) % 2 == 1,
            amount: (i % 3 + 1) as u8,
        }
    }

    /// Index in `0..36`: face·6 + wide·3 + amount − 1.
    pub fn index(self) -> usize {
        self.face as usize * 6 + self.wide as usize * 3 + self.amount as usize - 1
    }

    /// The face, 0..6 in the order U R F D L B.
    pub fn face(self) -> usize {
        self.face as usize
    }

    /// Whether the turn takes the outer two layers.
    pub fn is_wide(self) -> bool {
        self.wide
    }

    /// Clockwise quarter turns (1, 2 or 3).
    pub fn amount(self) -> usize {
        self.amount as usize
    }

    /// The turn that undoes this one.
    pub fn inverse(self) -> Move444 {
        Move444 {
            amount: 4 - self.amount,
            ..self
        }
    }
}

impl fmt::Display for Move444 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = ["", "2", "'"][self.amount as usize - 1];
        let w = if self.wide { "w" } else { "" };
        write!(f, "{}{w}{suffix}", FACES[self.face as usize])
    }
}

/// One token of a 4x4x4 algorithm: a move or a whole-cube rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn444 {
    /// A face or wide turn.
    Move(Move444),
    /// A rotation `x`, `y` or `z` (axis 0, 1, 2: about R, U, F) by this
    /// many quarter turns.
    Rotation(u8, u8),
}

/// A sequence of 4x4x4 turns in WCA notation (`Rw2 U' x Fw`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alg444(pub Vec<Turn444>);

impl Alg444 {
    /// The sequence undoing this one.
    pub fn inverse(&self) -> Alg444 {
        Alg444(
            self.0
                .iter()
                .rev()
                .map(|t| match *t {
                    Turn444::Move(m) => Turn444::Move(m.inverse()),
                    Turn444::Rotation(axis, amount) => Turn444::Rotation(axis, (4 - amount) % 4),
                })
                .filter(|t| !matches!(t, Turn444::Rotation(_, 0)))
                .collect(),
        )
    }
}

impl FromStr for Alg444 {
    type Err = Cube444Error;

    fn from_str(s: &str) -> Result<Alg444, Cube444Error> {
        s.split_whitespace()
            .enumerate()
            .map(|(i, token)| {
                parse_turn(token).ok_or_else(|| Cube444Error::BadTurn {
                    token: token.to_string(),
                    position: i + 1,
                })
            })
            .collect::<Result<_, _>>()
            .map(Alg444)
    }
}

fn parse_turn(token: &str) -> Option<Turn444> {
    let mut chars = token.chars();
    let head = chars.next()?;
    let rest: String = chars.collect();
    let (wide, suffix) = match rest.strip_prefix('w') {
        Some(r) => (true, r),
        None => (false, rest.as_str()),
    };
    let amount = match suffix {
        "" => 1,
        "2" | "2'" => 2,
        "'" => 3,
        _ => return None,
    };
    if let Some(axis) = "xyz".find(head) {
        return (!wide).then_some(Turn444::Rotation(axis as u8, amount));
    }
    let face = FACES.iter().position(|&f| f == head)?;
    Move444::new(face, wide, amount as usize).map(Turn444::Move)
}

impl fmt::Display for Alg444 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            match t {
                Turn444::Move(m) => write!(f, "{m}")?,
                Turn444::Rotation(axis, amount) => {
                    let suffix = ["", "2", "'"][*amount as usize - 1];
                    write!(f, "{}{suffix}", ['x', 'y', 'z'][*axis as usize])?
                }
            }
        }
        Ok(())
    }
}

/// Everything derived once from the geometry: the pieces, each move's and
/// each rotation's sticker permutation.
pub(crate) struct Model {
    pub pieces: Pieces,
    pub moves: Vec<Perm>,
    /// The 24 whole-cube rotations; index 0 is the identity.
    pub rotations: Vec<Perm>,
    /// `x`, `y`, `z` quarter turns.
    pub axis_turns: [Perm; 3],
    /// Wing id by its two sticker colours (first·6 + second).
    wing_by_colours: [u8; 36],
}

impl Model {
    fn new() -> Model {
        let pieces = Pieces::new();
        let moves = (0..Move444::COUNT)
            .map(|i| {
                let m = Move444::from_index(i);
                let layers: &[i32] = if m.wide { &[3, 1] } else { &[3] };
                geometry::layer_turn(m.face(), layers, m.amount())
            })
            .collect();
        let all = [3, 1, -1, -3];
        let axis_turns = [
            geometry::layer_turn(1, &all, 1),
            geometry::layer_turn(0, &all, 1),
            geometry::layer_turn(2, &all, 1),
        ];
        let mut rotations = vec![geometry::identity()];
        let mut i = 0;
        while i < rotations.len() {
            for t in &axis_turns {
                let r = geometry::then(&rotations[i], t);
                if !rotations.contains(&r) {
                    rotations.push(r);
                }
            }
            i += 1;
        }
        assert_eq!(rotations.len(), 24);
        let solved = solved_stickers();
        let mut wing_by_colours = [u8::MAX; 36];
        for (w, [a, b]) in pieces.wings.iter().enumerate() {
            wing_by_colours[solved[*a] as usize * 6 + solved[*b] as usize] = w as u8;
        }
        Model {
            pieces,
            moves,
            rotations,
            axis_turns,
            wing_by_colours,
        }
    }
}

pub(crate) fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(Model::new)
}

fn solved_stickers() -> [u8; N_STICKERS] {
    std::array::from_fn(|s| (s / 16) as u8)
}

/// A 4x4x4 position: the colour (0..6, the face it belongs to when solved,
/// U R F D L B) on each of the 96 stickers, numbered face by face in
/// Kociemba's facelet layout (face·16 + row·4 + column).
///
/// The 4x4x4 has no fixed centres, so a position held another way up is
/// the same position: [`Cube444::same_up_to_rotation`] compares them so.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cube444 {
    pub(crate) stickers: [u8; N_STICKERS],
}

impl fmt::Debug for Cube444 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cube444({self})")
    }
}

/// The 96 stickers as face letters, face by face (U R F D L B).
impl fmt::Display for Cube444 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &c in &self.stickers {
            write!(f, "{}", FACES[c as usize])?;
        }
        Ok(())
    }
}

impl Default for Cube444 {
    fn default() -> Self {
        Cube444::solved()
    }
}

impl Cube444 {
    /// The solved cube.
    pub fn solved() -> Cube444 {
        Cube444 {
            stickers: solved_stickers(),
        }
    }

    /// The colour on each sticker (face·16 + row·4 + column).
    pub fn stickers(&self) -> &[u8; N_STICKERS] {
        &self.stickers
    }

    /// The position with these sticker colours (0..6, U R F D L B), if it
    /// is one the 4x4x4 can reach: four centres of each colour, every
    /// wing a wing of the cube appearing once, every corner a corner of
    /// the cube appearing once, the corners' twists summing to whole turns.
    pub fn from_stickers(stickers: [u8; N_STICKERS]) -> Result<Cube444, Cube444Error> {
        if stickers.iter().any(|&c| c >= 6) {
            return Err(Cube444Error::InvalidPosition {
                reason: PositionReason::ColourOutOfRange,
            });
        }
        let cube = Cube444 { stickers };
        let m = model();
        let mut centres = [0u8; 6];
        for &s in &m.pieces.centres {
            centres[stickers[s] as usize] += 1;
        }
        if centres != [4; 6] {
            return Err(Cube444Error::InvalidPosition {
                reason: PositionReason::CentreCount,
            });
        }
        let mut wings = cube.wings().to_vec();
        wings.sort_unstable();
        if wings != (0..24).collect::<Vec<u8>>() {
            return Err(Cube444Error::InvalidPosition {
                reason: PositionReason::Wings,
            });
        }
        let solved = solved_stickers();
        let mut corners = Vec::new();
        let mut twist = 0;
        for slot in &m.pieces.corners {
            let colours: Vec<u8> = slot.iter().map(|&s| stickers[s]).collect();
            let found = (0..8).find_map(|c| {
                let home: Vec<u8> = m.pieces.corners[c].iter().map(|&s| solved[s]).collect();
                (0..3)
                    .find(|&t| (0..3).all(|k| colours[(k + t) % 3] == home[k]))
                    .map(|t| (c, t))
            });
            let Some((c, t)) = found else {
                return Err(Cube444Error::InvalidPosition {
                    reason: PositionReason::UnknownCorner,
                });
            };
            corners.push(c);
            twist += t;
        }
        corners.sort_unstable();
        corners.dedup();
        if corners.len() != 8 || twist % 3 != 0 {
            return Err(Cube444Error::InvalidPosition {
                reason: PositionReason::Corners,
            });
        }
        Ok(cube)
    }

    /// The sticker at `point` on the cube's surface (faces at ±4 along
    /// x = R, y = U, z = F; sticker centres at ±1 and ±3), if one is there.
    pub fn sticker_at(point: [i32; 3]) -> Option<usize> {
        let on_face = point.iter().filter(|c| c.abs() == 4).count() == 1;
        let odd = point
            .iter()
            .all(|&c| c.abs() == 4 || c.abs() == 1 || c.abs() == 3);
        (on_face && odd).then(|| geometry::sticker_at(point))
    }

    pub(crate) fn permuted(&self, perm: &Perm) -> Cube444 {
        Cube444 {
            stickers: std::array::from_fn(|i| self.stickers[perm[i] as usize]),
        }
    }

    /// The position after `m`.
    pub fn apply_move(&self, m: Move444) -> Cube444 {
        self.permuted(&model().moves[m.index()])
    }

    /// The position after the moves and rotations of `alg`.
    pub fn apply_alg(&self, alg: &Alg444) -> Cube444 {
        let model = model();
        alg.0.iter().fold(*self, |c, t| match *t {
            Turn444::Move(m) => c.apply_move(m),
            Turn444::Rotation(axis, amount) => {
                (0..amount).fold(c, |c, _| c.permuted(&model.axis_turns[axis as usize]))
            }
        })
    }

    /// A uniformly random position, held a uniformly random way up: corners
    /// placed and twisted at random (the twists summing to a whole turn),
    /// the 24 wings in any order, the 24 centre pieces (four of each
    /// colour) in any order — every position the 4x4x4 can reach, each as
    /// likely as any other.
    pub fn random(rng: &mut SeededRng) -> Cube444 {
        let p = &model().pieces;
        let solved = solved_stickers();
        let mut stickers = [0u8; N_STICKERS];
        let corners = shuffled(8, rng);
        let mut twist_sum = 0;
        for (slot, &piece) in corners.iter().enumerate() {
            let twist = if slot == 7 {
                (3 - twist_sum % 3) % 3
            } else {
                rng.below(3)
            };
            twist_sum += twist;
            for k in 0..3 {
                stickers[p.corners[slot][(k + twist) % 3]] = solved[p.corners[piece][k]];
            }
        }
        for (slot, &piece) in shuffled(24, rng).iter().enumerate() {
            for k in 0..2 {
                stickers[p.wings[slot][k]] = solved[p.wings[piece][k]];
            }
        }
        for (slot, &piece) in shuffled(24, rng).iter().enumerate() {
            stickers[p.centres[slot]] = solved[p.centres[piece]];
        }
        Cube444 { stickers }
    }

    /// Whether the two are the same position held in possibly different
    /// orientations.
    pub fn same_up_to_rotation(&self, other: &Cube444) -> bool {
        model().rotations.iter().any(|r| self.permuted(r) == *other)
    }

    /// Whether every face shows one colour.
    pub fn is_solved(&self) -> bool {
        self.stickers
            .chunks(16)
            .all(|face| face.iter().all(|&c| c == face[0]))
    }

    /// The wing in each wing slot (wing ids are the slots they fill when
    /// solved).
    pub(crate) fn wings(&self) -> [u8; 24] {
        let m = model();
        std::array::from_fn(|w| {
            let [a, b] = m.pieces.wings[w];
            m.wing_by_colours[self.stickers[a] as usize * 6 + self.stickers[b] as usize]
        })
    }

    /// The corner in each corner slot.
    pub(crate) fn corner_permutation(&self) -> [u8; 8] {
        let p = &model().pieces;
        let solved = solved_stickers();
        std::array::from_fn(|slot| {
            let mut colours: Vec<u8> = p.corners[slot].iter().map(|&s| self.stickers[s]).collect();
            colours.sort_unstable();
            (0..8)
                .find(|&c| {
                    let mut home: Vec<u8> = p.corners[c].iter().map(|&s| solved[s]).collect();
                    home.sort_unstable();
                    home == colours
                })
                .unwrap_or(0) as u8
        })
    }

    /// The colour of each centre piece (centre `i` on face `i / 4`).
    pub(crate) fn centres(&self) -> [u8; 24] {
        let p = &model().pieces;
        std::array::from_fn(|i| self.stickers[p.centres[i]])
    }
}

/// A uniformly random permutation of `0..n`.
fn shuffled(n: usize, rng: &mut SeededRng) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, rng.below(i + 1));
    }
    v
}

/// Whether a permutation is odd.
pub(crate) fn odd(perm: &[u8]) -> bool {
    permutation_parity(perm) == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        let text = "Rw2 U' x Fw D2 y2 Bw' z'";
        let alg: Alg444 = text.parse().unwrap();
        assert_eq!(alg.to_string(), text);
        assert!("Q".parse::<Alg444>().is_err());
        assert!("xw".parse::<Alg444>().is_err());
        assert!("R3".parse::<Alg444>().is_err());
    }

    #[test]
    fn sexy_move_has_order_six_and_rotations_are_not_moves() {
        let alg: Alg444 = "R U R' U'".parse().unwrap();
        let mut c = Cube444::solved();
        for i in 1..=6 {
            c = c.apply_alg(&alg);
            assert_eq!(c.is_solved(), i == 6);
        }
        let turned = Cube444::solved().apply_alg(&"x y".parse().unwrap());
        assert!(turned.is_solved());
        assert_ne!(turned, Cube444::solved());
        assert!(turned.same_up_to_rotation(&Cube444::solved()));
        // Uw D' is a whole-cube turn about U apart from the inner slice:
        // Uw Dw' is exactly y.
        let y: Alg444 = "Uw Dw'".parse().unwrap();
        assert_eq!(
            Cube444::solved().apply_alg(&y),
            Cube444::solved().apply_alg(&"y".parse().unwrap())
        );
    }

    #[test]
    fn random_positions_are_reachable_shapes() {
        let mut rng = SeededRng::new(7);
        for _ in 0..20 {
            let c = Cube444::random(&mut rng);
            let mut counts = [0; 6];
            for &s in &c.stickers {
                counts[s as usize] += 1;
            }
            assert_eq!(counts, [16; 6]);
            let wings = c.wings();
            let mut sorted = wings;
            sorted.sort_unstable();
            assert_eq!(sorted.to_vec(), (0..24).collect::<Vec<u8>>());
        }
    }
}
