//! The mutator: byte- and token-level changes stacked on a seed input,
//! with a dictionary of the formats' words and numbers.

use super::*;

/// Words the mutator splices in.
pub(super) const DICTIONARY: &[&str] = &[
    // .tws
    "Name",
    "Set",
    "Solved",
    "StartState",
    "Move",
    "MoveTransformation",
    "MoveSequence",
    "MoveAlias",
    "Illegal",
    "End",
    "Scramble",
    "ScrambleAlg",
    "?",
    "#",
    "EDGES",
    "CORNERS",
    "CENTERS",
    "FACES",
    "A",
    "B",
    "C",
    "D",
    "E2",
    // JSON
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "null",
    "true",
    "false",
    "\"orbits\"",
    "\"orbitName\"",
    "\"numPieces\"",
    "\"numOrientations\"",
    "\"defaultPattern\"",
    "\"startStateData\"",
    "\"pieces\"",
    "\"orientation\"",
    "\"orientationMod\"",
    "\"moves\"",
    "\"permutation\"",
    "\"orientationDelta\"",
    "\"derivedMoves\"",
    "\"twistorIllegal\"",
    "\"slot\"",
    "\"orbit\"",
    "\"name\"",
    "\\u0000",
    "\\ud83d\\ude00",
    "\\ud800",
    // numbers
    "0",
    "1",
    "2",
    "3",
    "4",
    "12",
    "-1",
    "-0",
    "255",
    "256",
    "127",
    "128",
    "65535",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "1e9",
    "1.5",
    "00",
    "01",
    // algs
    "R",
    "U'",
    "F2",
    "x",
    "2R",
    "2-3Rw'",
    "Uv",
    "R++",
    "D--",
    "UR4+",
    "DL2-",
    "/",
    "(3, 0)",
    "(-2147483647, 2147483647)",
    "(R U)2147483647",
    "[R, U]",
    "[R: U]",
    "(",
    ")",
    ".",
    "//",
    "\n",
    "'",
    "_SLASH_",
    "U_SQ_",
    "R_PLUS_",
    "_PLUSPLUS_",
    "UR_PLUS_",
    "R_PLUSPLUS_",
];

pub(super) const INTERESTING_BYTES: &[u8] =
    b"0123456789 \t\r\n?#-+'/.,:;[](){}\"\\_RUFDLBxyzwv\x00\xff\xc3\xa9\x7f";

pub(super) const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "11",
    "12",
    "24",
    "127",
    "128",
    "254",
    "255",
    "256",
    "1000",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551616",
    "99999999999999999999999999",
    "-1",
    "-2147483648",
    "00",
    "1.0",
];

pub(super) fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace()
}

/// The token (maximal run of non-space bytes) around `at`.
pub(super) fn token_at(data: &[u8], at: usize) -> (usize, usize) {
    let mut a = at.min(data.len());
    let mut b = a;
    while a > 0 && !is_space(data[a - 1]) {
        a -= 1;
    }
    while b < data.len() && !is_space(data[b]) {
        b += 1;
    }
    (a, b)
}

/// The lines of `data` as byte ranges (with their newline).
pub(super) fn line_ranges(data: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < data.len() {
        out.push((start, data.len()));
    }
    out
}

pub(super) fn mutate(data: &mut Vec<u8>, rng: &mut SeededRng, others: &[&[u8]], max_len: usize) {
    let len = data.len();
    let pos = |rng: &mut SeededRng| rng.below(len + 1);
    match rng.below(13) {
        0 if len > 0 => {
            let i = rng.below(len);
            data[i] ^= 1 << rng.below(8);
        }
        1 if len > 0 => {
            let i = rng.below(len);
            data[i] = *rng.pick(INTERESTING_BYTES);
        }
        2 => {
            let at = pos(rng);
            let n = 1 + rng.below(4);
            for _ in 0..n {
                data.insert(at, *rng.pick(INTERESTING_BYTES));
            }
        }
        3 if len > 0 => {
            let a = rng.below(len);
            let n = 1 + rng.below(16.min(len - a));
            data.drain(a..a + n);
        }
        4 if len > 0 => {
            let a = rng.below(len);
            let n = 1 + rng.below(64.min(len - a));
            let chunk = data[a..a + n].to_vec();
            let at = pos(rng);
            data.splice(at..at, chunk);
        }
        5 if len > 0 => {
            let (a, b) = token_at(data, rng.below(len));
            let word = rng.pick(DICTIONARY).as_bytes().to_vec();
            data.splice(a..b, word);
        }
        6 => {
            let at = pos(rng);
            let mut word = vec![b' '];
            word.extend_from_slice(rng.pick(DICTIONARY).as_bytes());
            word.push(if chance(rng, 3) { b'\n' } else { b' ' });
            data.splice(at..at, word);
        }
        7 if len > 0 => {
            // Replace a run of digits (the next one from a random place).
            let start = rng.below(len);
            if let Some(a) = (start..len).find(|&i| data[i].is_ascii_digit()) {
                let b = (a..len).find(|&i| !data[i].is_ascii_digit()).unwrap_or(len);
                let n = rng.pick(NUMBERS).as_bytes().to_vec();
                data.splice(a..b, n);
            }
        }
        8 => {
            let lines = line_ranges(data);
            if lines.is_empty() {
                return;
            }
            let (a, b) = *rng.pick(&lines);
            match rng.below(3) {
                0 => {
                    let copy = data[a..b].to_vec();
                    data.splice(a..a, copy);
                }
                1 => {
                    data.drain(a..b);
                }
                _ => {
                    let (c, d) = *rng.pick(&lines);
                    if b <= c {
                        let (first, second) = (data[a..b].to_vec(), data[c..d].to_vec());
                        data.splice(c..d, first);
                        data.splice(a..b, second);
                    }
                }
            }
        }
        9 if !others.is_empty() => {
            // Crossover: this input's head, another seed's tail.
            let other = *rng.pick(others);
            let a = pos(rng);
            let b = rng.below(other.len() + 1);
            data.truncate(a);
            data.extend_from_slice(&other[b..]);
        }
        10 if len > 0 => {
            // A chunk repeated many times: nesting, long lines, many lines.
            let a = rng.below(len);
            let n = 1 + rng.below(8.min(len - a));
            let chunk = data[a..a + n].to_vec();
            let times = 2 + rng.below(400);
            let mut rep = Vec::with_capacity(n * times);
            for _ in 0..times {
                rep.extend_from_slice(&chunk);
            }
            data.splice(a..a, rep);
        }
        11 if len > 1 => {
            let (i, j) = (rng.below(len), rng.below(len));
            data.swap(i, j);
        }
        _ => {
            // Insert a token from another seed.
            if let Some(&other) = (!others.is_empty()).then(|| rng.pick(others)) {
                if !other.is_empty() {
                    let (a, b) = token_at(other, rng.below(other.len()));
                    let at = pos(rng);
                    let word = other[a..b].to_vec();
                    data.splice(at..at, word);
                }
            }
        }
    }
    data.truncate(max_len);
}
