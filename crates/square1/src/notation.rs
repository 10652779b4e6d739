//! WCA Square-1 notation: `(a,b)` turns and `/` slices.

use std::fmt;

use crate::error::Square1Error;

/// One move in WCA Square-1 notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Square1Move {
    /// `(top,bottom)`: the top layer `top`·30° clockwise seen from above
    /// (the piece in top slot `i` goes to slot `i + top`), the bottom layer
    /// `bottom`·30° clockwise seen from below (bottom slot `12 + i` to
    /// `12 + (i + bottom mod 12)`).
    Turn {
        /// Top-layer amount in twelfths of a turn.
        top: i8,
        /// Bottom-layer amount in twelfths of a turn.
        bottom: i8,
    },
    /// `/`: the right half of the puzzle turns 180°.
    Slash,
}

impl Square1Move {
    /// The move that undoes this one.
    pub fn inverse(self) -> Square1Move {
        match self {
            Square1Move::Turn { top, bottom } => Square1Move::Turn {
                top: normalize(-i64::from(top)),
                bottom: normalize(-i64::from(bottom)),
            },
            Square1Move::Slash => Square1Move::Slash,
        }
    }
}

/// `amount` reduced modulo 12 into -5..=6, WCA's range.
pub fn normalize(amount: i64) -> i8 {
    let r = amount.rem_euclid(12) as i8;
    if r > 6 {
        r - 12
    } else {
        r
    }
}

impl fmt::Display for Square1Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Square1Move::Turn { top, bottom } => write!(f, "({top},{bottom})"),
            Square1Move::Slash => f.write_str("/"),
        }
    }
}

/// The moves that undo `moves`: reversed, each turn negated (and brought
/// into -5..=6).
pub fn invert_moves(moves: &[Square1Move]) -> Vec<Square1Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}

/// `moves` in WCA notation, single spaces between tokens: `(1,0) / (-1,3) /`.
pub fn format_moves(moves: &[Square1Move]) -> String {
    let words: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    words.join(" ")
}

/// Reads WCA Square-1 notation: `(a,b)` tuples (amounts in -11..=11, an
/// optional sign, spaces allowed inside) and `/`, separated by any
/// whitespace or none. `(0,0)` is accepted; the empty string is the empty
/// sequence.
pub fn parse_moves(text: &str) -> Result<Vec<Square1Move>, Square1Error> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut moves = Vec::new();
    let skip_ws = |i: &mut usize| {
        while *i < bytes.len() && bytes[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let number = |i: &mut usize| -> Result<i8, Square1Error> {
        let start = *i;
        let mut negative = false;
        if *i < bytes.len() && (bytes[*i] == b'-' || bytes[*i] == b'+') {
            negative = bytes[*i] == b'-';
            *i += 1;
        }
        let digits_start = *i;
        let mut value: i64 = 0;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            value = (value * 10 + i64::from(bytes[*i] - b'0')).min(1_000_000);
            *i += 1;
        }
        if *i == digits_start {
            return Err(Square1Error::Syntax {
                offset: *i,
                reason: "expected a number",
            });
        }
        if negative {
            value = -value;
        }
        if !(-11..=11).contains(&value) {
            return Err(Square1Error::AmountOutOfRange {
                offset: start,
                value,
            });
        }
        Ok(value as i8)
    };
    let expect = |i: &mut usize, c: u8, reason: &'static str| -> Result<(), Square1Error> {
        if *i < bytes.len() && bytes[*i] == c {
            *i += 1;
            Ok(())
        } else {
            Err(Square1Error::Syntax { offset: *i, reason })
        }
    };
    loop {
        skip_ws(&mut i);
        if i >= bytes.len() {
            return Ok(moves);
        }
        match bytes[i] {
            b'/' => {
                i += 1;
                moves.push(Square1Move::Slash);
            }
            b'(' => {
                i += 1;
                skip_ws(&mut i);
                let top = number(&mut i)?;
                skip_ws(&mut i);
                expect(&mut i, b',', "expected `,` between the two amounts")?;
                skip_ws(&mut i);
                let bottom = number(&mut i)?;
                skip_ws(&mut i);
                expect(&mut i, b')', "expected `)` after the bottom amount")?;
                moves.push(Square1Move::Turn { top, bottom });
            }
            _ => {
                return Err(Square1Error::Syntax {
                    offset: i,
                    reason: "expected `(` or `/`",
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_range() {
        assert_eq!(normalize(7), -5);
        assert_eq!(normalize(6), 6);
        assert_eq!(normalize(-6), 6);
        assert_eq!(normalize(-5), -5);
        assert_eq!(normalize(12), 0);
    }
}
