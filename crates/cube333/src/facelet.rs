//! The cube as 54 stickers, the form people type in.
//!
//! Facelets are in Kociemba's order U1..U9 R1..R9 F1..F9 D1..D9 L1..L9
//! B1..B9, each face read row by row as seen from outside with the usual
//! net. Colours are named by the centre stickers: any six distinct letters
//! in the centre positions define the colouring, so `UUUU…` and `WWWW…`
//! style strings both work. Reading checks every defect separately so
//! the message says exactly what is wrong.

use std::fmt;
use std::str::FromStr;

use crate::cubie::{CubieCube, CORNER_NAMES, EDGE_NAMES};
use crate::error::CubeError;

/// Facelet indices of each corner slot, the U/D sticker first, then
/// clockwise.
const CORNER_FACELETS: [[usize; 3]; 8] = [
    [8, 9, 20],
    [6, 18, 38],
    [0, 36, 47],
    [2, 45, 11],
    [29, 26, 15],
    [27, 44, 24],
    [33, 53, 42],
    [35, 17, 51],
];
/// Facelet indices of each edge slot, the reference sticker first.
const EDGE_FACELETS: [[usize; 2]; 12] = [
    [5, 10],
    [7, 19],
    [3, 37],
    [1, 46],
    [32, 16],
    [28, 25],
    [30, 43],
    [34, 52],
    [23, 12],
    [21, 41],
    [50, 39],
    [48, 14],
];
/// Face (0..6, URFDLB) of each sticker of each corner cubie.
const CORNER_COLOURS: [[u8; 3]; 8] = [
    [0, 1, 2],
    [0, 2, 4],
    [0, 4, 5],
    [0, 5, 1],
    [3, 2, 1],
    [3, 4, 2],
    [3, 5, 4],
    [3, 1, 5],
];
/// Face of each sticker of each edge cubie.
const EDGE_COLOURS: [[u8; 2]; 12] = [
    [0, 1],
    [0, 2],
    [0, 4],
    [0, 5],
    [3, 1],
    [3, 2],
    [3, 4],
    [3, 5],
    [2, 1],
    [2, 4],
    [5, 4],
    [5, 1],
];

const FACE_LETTERS: &[u8; 6] = b"URFDLB";

fn facelet_name(i: usize) -> String {
    format!("{}{}", FACE_LETTERS[i / 9] as char, i % 9 + 1)
}

/// A cube as 54 stickers, each holding the face (0..6, URFDLB) whose
/// centre has its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FaceletCube {
    /// Face index of each sticker's colour, in Kociemba's facelet order.
    pub stickers: [u8; 54],
}

impl FaceletCube {
    /// The solved cube.
    pub fn solved() -> FaceletCube {
        let mut stickers = [0u8; 54];
        for (i, s) in stickers.iter_mut().enumerate() {
            *s = (i / 9) as u8;
        }
        FaceletCube { stickers }
    }

    /// Reads 54 letters; the centre letters name the colours. Checks
    /// sticker counts and unknown colours (but not solvability: see
    /// [`FaceletCube::to_cubie`]).
    pub fn parse(s: &str) -> Result<FaceletCube, CubeError> {
        let chars: Vec<char> = s.trim().chars().collect();
        if chars.len() != 54 {
            return Err(CubeError::FaceletLength(chars.len()));
        }
        let centers: Vec<char> = (0..6).map(|f| chars[9 * f + 4]).collect();
        let center_str: String = centers.iter().collect();
        for i in 0..6 {
            if centers[..i].contains(&centers[i]) {
                return Err(CubeError::CentersNotDistinct {
                    centers: center_str,
                });
            }
        }
        let mut stickers = [0u8; 54];
        let mut counts = [0usize; 6];
        for (i, &c) in chars.iter().enumerate() {
            let Some(f) = centers.iter().position(|&x| x == c) else {
                return Err(CubeError::UnknownColour {
                    position: facelet_name(i),
                    colour: c,
                    centers: center_str,
                });
            };
            stickers[i] = f as u8;
            counts[f] += 1;
        }
        for (f, &n) in counts.iter().enumerate() {
            if n != 9 {
                return Err(CubeError::StickerCount {
                    colour: centers[f],
                    count: n,
                });
            }
        }
        Ok(FaceletCube { stickers })
    }

    /// The cubie-level cube, checked to be solvable.
    pub fn to_cubie(&self) -> Result<CubieCube, CubeError> {
        let st = &self.stickers;
        let mut c = CubieCube::SOLVED;
        let mut corner_count = [0usize; 8];
        for (slot, f) in CORNER_FACELETS.iter().enumerate() {
            let colours = [st[f[0]], st[f[1]], st[f[2]]];
            let names = || {
                colours
                    .iter()
                    .map(|&x| FACE_LETTERS[x as usize] as char)
                    .collect::<String>()
            };
            let Some(ori) = colours.iter().position(|&x| x == 0 || x == 3) else {
                return Err(CubeError::BadCorner {
                    slot: CORNER_NAMES[slot].into(),
                    colours: names(),
                });
            };
            let c1 = colours[(ori + 1) % 3];
            let c2 = colours[(ori + 2) % 3];
            let Some(j) = CORNER_COLOURS
                .iter()
                .position(|cc| cc[0] == colours[ori] && cc[1] == c1 && cc[2] == c2)
            else {
                return Err(CubeError::BadCorner {
                    slot: CORNER_NAMES[slot].into(),
                    colours: names(),
                });
            };
            c.cp[slot] = j as u8;
            c.co[slot] = ori as u8;
            corner_count[j] += 1;
        }
        let mut edge_count = [0usize; 12];
        for (slot, f) in EDGE_FACELETS.iter().enumerate() {
            let a = st[f[0]];
            let b = st[f[1]];
            let found = EDGE_COLOURS.iter().enumerate().find_map(|(j, ec)| {
                if ec[0] == a && ec[1] == b {
                    Some((j, 0))
                } else if ec[0] == b && ec[1] == a {
                    Some((j, 1))
                } else {
                    None
                }
            });
            let Some((j, o)) = found else {
                return Err(CubeError::BadEdge {
                    slot: EDGE_NAMES[slot].into(),
                    colours: [a, b]
                        .iter()
                        .map(|&x| FACE_LETTERS[x as usize] as char)
                        .collect(),
                });
            };
            c.ep[slot] = j as u8;
            c.eo[slot] = o;
            edge_count[j] += 1;
        }
        for (j, &n) in corner_count.iter().enumerate() {
            if n != 1 {
                return Err(CubeError::CubieCount {
                    cubie: CORNER_NAMES[j].into(),
                    count: n,
                });
            }
        }
        for (j, &n) in edge_count.iter().enumerate() {
            if n != 1 {
                return Err(CubeError::CubieCount {
                    cubie: EDGE_NAMES[j].into(),
                    count: n,
                });
            }
        }
        c.validate()?;
        Ok(c)
    }

    /// The stickers of a cubie-level cube (any cube with orientations in
    /// range, solvable or not).
    pub fn from_cubie(c: &CubieCube) -> FaceletCube {
        let mut f = FaceletCube::solved();
        for slot in 0..8 {
            let j = c.cp[slot] as usize;
            let ori = c.co[slot] as usize % 3;
            for k in 0..3 {
                f.stickers[CORNER_FACELETS[slot][(k + ori) % 3]] = CORNER_COLOURS[j][k];
            }
        }
        for slot in 0..12 {
            let j = c.ep[slot] as usize;
            let ori = c.eo[slot] as usize % 2;
            for k in 0..2 {
                f.stickers[EDGE_FACELETS[slot][(k + ori) % 2]] = EDGE_COLOURS[j][k];
            }
        }
        f
    }
}

impl fmt::Display for FaceletCube {
    /// The 54 letters with the colours named U R F D L B.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s: String = self
            .stickers
            .iter()
            .map(|&x| FACE_LETTERS[x as usize] as char)
            .collect();
        f.write_str(&s)
    }
}

impl FromStr for FaceletCube {
    type Err = CubeError;
    fn from_str(s: &str) -> Result<FaceletCube, CubeError> {
        FaceletCube::parse(s)
    }
}

impl FromStr for CubieCube {
    type Err = CubeError;
    /// Reads a facelet string and checks solvability.
    fn from_str(s: &str) -> Result<CubieCube, CubeError> {
        FaceletCube::parse(s)?.to_cubie()
    }
}

impl fmt::Display for CubieCube {
    /// The facelet string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        FaceletCube::from_cubie(self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveSeq;
    use twistor_core::random::SeededRng;

    const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

    #[test]
    fn solved_round_trip() {
        let c: CubieCube = SOLVED.parse().unwrap();
        assert!(c.is_solved());
        assert_eq!(c.to_string(), SOLVED);
    }

    #[test]
    fn random_cubes_round_trip_through_facelets() {
        let mut rng = SeededRng::new(11);
        for _ in 0..200 {
            let c = CubieCube::random(|| rng.next_u64());
            let s = c.to_string();
            assert_eq!(s.parse::<CubieCube>().unwrap(), c);
        }
    }

    #[test]
    fn any_six_letters_name_the_colours() {
        let recoloured: String = SOLVED
            .chars()
            .map(|c| match c {
                'U' => 'W',
                'D' => 'Y',
                'F' => 'G',
                'B' => 'b',
                'R' => 'r',
                _ => 'o',
            })
            .collect();
        assert!(recoloured.parse::<CubieCube>().unwrap().is_solved());
    }

    /// The F turn moves stickers as Kociemba's description says:
    /// F1→F3, U7→R1, R1→D3 (facelet-level definition, independent of the
    /// cubie tables).
    #[test]
    fn f_turn_matches_the_facelet_permutation() {
        let f: MoveSeq = "F".parse().unwrap();
        let s = CubieCube::from_moves(&f.0).to_string();
        let b = s.as_bytes();
        // U7 U8 U9 come from L9 L6 L3 (all L coloured).
        assert_eq!(&b[6..9], b"LLL");
        // R1 R4 R7 come from U7 U8 U9.
        assert_eq!([b[9], b[12], b[15]], [b'U'; 3]);
        // D1 D2 D3 come from R7 R4 R1.
        assert_eq!(&b[27..30], b"RRR");
        assert_eq!(&b[18..27], b"FFFFFFFFF");
    }

    #[test]
    fn each_defect_has_its_own_error() {
        assert_eq!(FaceletCube::parse("UUU"), Err(CubeError::FaceletLength(3)));
        let mut s: Vec<u8> = SOLVED.bytes().collect();
        s[0] = b'X';
        assert!(matches!(
            FaceletCube::parse(std::str::from_utf8(&s).unwrap()),
            Err(CubeError::UnknownColour { .. })
        ));
        let mut s: Vec<u8> = SOLVED.bytes().collect();
        s[0] = b'R';
        assert!(matches!(
            FaceletCube::parse(std::str::from_utf8(&s).unwrap()),
            Err(CubeError::StickerCount {
                colour: 'U',
                count: 8
            })
        ));
        // Twist one corner in place: URF stickers U9 R1 F3 rotated.
        let mut s: Vec<u8> = SOLVED.bytes().collect();
        (s[8], s[9], s[20]) = (b'F', b'U', b'R');
        assert_eq!(
            std::str::from_utf8(&s).unwrap().parse::<CubieCube>(),
            Err(CubeError::Twist(1))
        );
        // Flip one edge: UR stickers U6 R2 swapped.
        let mut s: Vec<u8> = SOLVED.bytes().collect();
        s.swap(5, 10);
        assert_eq!(
            std::str::from_utf8(&s).unwrap().parse::<CubieCube>(),
            Err(CubeError::Flip)
        );
        // Swap two edges (UR and UF): parity.
        let mut s: Vec<u8> = SOLVED.bytes().collect();
        s.swap(5, 7);
        s.swap(10, 19);
        assert_eq!(
            std::str::from_utf8(&s).unwrap().parse::<CubieCube>(),
            Err(CubeError::Parity)
        );
        // Two UR edges (UF's F sticker made R, DR's R sticker made F).
        let mut s: Vec<u8> = SOLVED.bytes().collect();
        s[19] = b'R';
        s[16] = b'F';
        assert_eq!(
            std::str::from_utf8(&s).unwrap().parse::<CubieCube>(),
            Err(CubeError::CubieCount {
                cubie: "UR".into(),
                count: 2
            })
        );
    }
}
