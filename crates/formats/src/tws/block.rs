//! The words, lines and position blocks every `.tws` text is made of,
//! read the same way for puzzle definitions and scramble files.

use twistor_core::{Orbit, PatternOrbit};

use crate::error::{At, ParseError, ParseErrorKind as K};

/// One logical line: its number and its words.
pub(super) struct Line<'a> {
    pub no: usize,
    pub words: Vec<&'a str>,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    text.split('\n')
        .enumerate()
        .filter_map(|(i, raw)| {
            let words: Vec<&str> = raw
                .split(|c: char| c.is_whitespace() || c.is_control())
                .filter(|w| !w.is_empty())
                .collect();
            if words.is_empty() || words[0].starts_with('#') {
                None
            } else {
                Some(Line { no: i + 1, words })
            }
        })
        .collect()
}

/// A `#`-free line cursor.
pub(super) struct Cursor<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the first line of `text` with words.
    pub(super) fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            lines: lines(text),
            pos: 0,
        }
    }
    pub(super) fn next(&mut self) -> Option<&Line<'a>> {
        let l = self.lines.get(self.pos);
        if l.is_some() {
            self.pos += 1;
        }
        l
    }
    pub(super) fn last_line(&self) -> usize {
        self.lines.last().map_or(0, |l| l.no)
    }
}

/// Raw numbers of one orbit in a block: permutation and optional orientation
/// (`None` for `?`).
pub(super) struct RawOrbit {
    pub line: usize,
    pub perm: Vec<u64>,
    pub ori: Option<(usize, Vec<Option<u64>>)>,
}

pub(super) fn number(at: At, line: usize, tok: &str) -> Result<u64, ParseError> {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        return Err(at.err(
            line,
            K::BadNumber {
                token: tok.to_string(),
                reason: "not a non-negative whole number".into(),
            },
        ));
    }
    tok.parse::<u64>().map_err(|_| {
        at.err(
            line,
            K::BadNumber {
                token: tok.to_string(),
                reason: "too large".into(),
            },
        )
    })
}

/// Reads a position block up to `End`: for each orbit named, its raw numbers.
pub(super) fn read_block(
    at: At,
    cur: &mut Cursor,
    orbits: &[Orbit],
    block: &str,
    start_line: usize,
) -> Result<Vec<Option<RawOrbit>>, ParseError> {
    let mut raw: Vec<Option<RawOrbit>> = orbits.iter().map(|_| None).collect();
    let mut current: Option<usize> = None;
    let mut numbers_seen = 0;
    loop {
        let Some(line) = cur.next() else {
            return Err(at.err(
                start_line,
                K::UnexpectedEnd {
                    block: block.to_string(),
                },
            ));
        };
        let (no, words) = (line.no, line.words.clone());
        let first = words[0];
        let is_numbers = first
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'-')
            || first == "?";
        if first == "End" {
            if words.len() != 1 {
                return Err(at.err(
                    no,
                    K::TokenCount {
                        command: "End".into(),
                        expected: "no arguments",
                        found: words.len(),
                    },
                ));
            }
            if let (Some(k), 0) = (current, numbers_seen) {
                return Err(at.err(
                    no,
                    K::EmptyOrbit {
                        orbit: orbits[k].name().to_string(),
                    },
                ));
            }
            return Ok(raw);
        }
        if is_numbers {
            let Some(k) = current else {
                return Err(at.err(no, K::NumbersBeforeOrbit));
            };
            let n = orbits[k].num_pieces();
            if words.len() != n {
                return Err(at.err(
                    no,
                    K::WrongLength {
                        orbit: orbits[k].name().to_string(),
                        expected: n,
                        found: words.len(),
                    },
                ));
            }
            let entry = raw[k].as_mut().expect("current orbit has an entry");
            match numbers_seen {
                0 => {
                    let mut perm = Vec::with_capacity(n);
                    for w in &words {
                        perm.push(number(at, no, w)?);
                    }
                    entry.perm = perm;
                    entry.line = no;
                }
                1 => {
                    let mut ori = Vec::with_capacity(n);
                    for w in &words {
                        ori.push(if *w == "?" {
                            None
                        } else {
                            Some(number(at, no, w)?)
                        });
                    }
                    entry.ori = Some((no, ori));
                }
                _ => return Err(at.err(no, K::ThirdNumberLine)),
            }
            numbers_seen += 1;
        } else {
            if words.len() != 1 {
                return Err(at.err(
                    no,
                    K::TokenCount {
                        command: format!("orbit line {first}"),
                        expected: "1 word",
                        found: words.len(),
                    },
                ));
            }
            if let (Some(k), 0) = (current, numbers_seen) {
                return Err(at.err(
                    no,
                    K::EmptyOrbit {
                        orbit: orbits[k].name().to_string(),
                    },
                ));
            }
            let Some(k) = orbits.iter().position(|o| o.name() == first) else {
                return Err(at.err(
                    no,
                    K::UnknownOrbit {
                        orbit: first.to_string(),
                    },
                ));
            };
            if raw[k].is_some() {
                return Err(at.err(
                    no,
                    K::RepeatedOrbit {
                        orbit: first.to_string(),
                    },
                ));
            }
            raw[k] = Some(RawOrbit {
                line: no,
                perm: Vec::new(),
                ori: None,
            });
            current = Some(k);
            numbers_seen = 0;
        }
    }
}

/// `value` less `min` if `value` lies in `min..=max`; otherwise the error
/// that the orbit's `what` (a piece, a slot, an orientation) is out of range.
pub(super) fn in_range(
    at: At,
    line: usize,
    orbit: &Orbit,
    what: &'static str,
    value: u64,
    (min, max): (u64, u64),
) -> Result<u64, ParseError> {
    if value < min || value > max {
        return Err(at.err(
            line,
            K::OutOfRange {
                orbit: orbit.name().to_string(),
                what,
                value,
                min,
                max,
            },
        ));
    }
    Ok(value - min)
}

pub(super) fn orientations(
    at: At,
    orbit: &Orbit,
    r: &RawOrbit,
    wild_ok: bool,
) -> Result<Vec<Option<u8>>, ParseError> {
    let n = orbit.num_pieces();
    let Some((line, ori)) = &r.ori else {
        return Ok(vec![Some(0); n]);
    };
    let m = orbit.num_orientations() as u64;
    ori.iter()
        .map(|v| match v {
            None if wild_ok => Ok(None),
            None => Err(at.err(
                *line,
                K::WildcardInMove {
                    orbit: orbit.name().to_string(),
                },
            )),
            Some(x) => Ok(Some(
                in_range(at, *line, orbit, "orientation", *x, (0, m - 1))? as u8,
            )),
        })
        .collect()
}

pub(super) fn pattern_orbit(orbit: &Orbit, pieces: Vec<u8>, ori: &[Option<u8>]) -> PatternOrbit {
    let wild = orbit.num_orientations() > 1 && ori.iter().any(|o| o.is_none());
    PatternOrbit {
        pieces,
        orientation: ori.iter().map(|o| o.unwrap_or(0)).collect(),
        orientation_mod: wild.then(|| {
            ori.iter()
                .map(|o| if o.is_none() { 1 } else { 0 })
                .collect()
        }),
    }
}
