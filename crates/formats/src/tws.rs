//! ksolve/twsearch `.tws` puzzle definitions and scramble files.
//!
//! Semantics follow `spec/ksolve-format-and-representation.txt` and
//! twsearch: permutations are passive and 1-based (`StartState` and
//! `MoveTransformation` are 0-based); `Move` blocks give orientation in
//! ksolve's *move* convention and are converted on read with
//! `s.o[i] = m.o[p[i]]`; `Solved`, `StartState`, `MoveTransformation` and
//! `Scramble` blocks are in *state* convention. An orbit left out of a block
//! is the identity (for scrambles: as in the start state); an orientation
//! line left out is all zeros. `?` in a start state is an orientation
//! wildcard, which the model holds as orientation known modulo 1.
//!
//! `MoveSequence` and `MoveAlias` may refer to moves defined later in the
//! file; `MoveAlias` accepts an alg of several moves as an extension (so
//! cubing.js derived moves survive a round trip).

use twistor_core::{
    IllegalPlacement, Layout, MoveDef, MoveKind, Orbit, Pattern, PatternOrbit, Puzzle,
    Transformation,
};

use crate::alg::{Alg, AlgErrorKind, AlgNode};
use crate::error::{At, ParseError, ParseErrorKind as K};
use crate::resolve::alg_transformation;

/// One logical line: its number and its words.
struct Line<'a> {
    no: usize,
    words: Vec<&'a str>,
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
struct Cursor<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn next(&mut self) -> Option<&Line<'a>> {
        let l = self.lines.get(self.pos);
        if l.is_some() {
            self.pos += 1;
        }
        l
    }
    fn last_line(&self) -> usize {
        self.lines.last().map_or(0, |l| l.no)
    }
}

/// Raw numbers of one orbit in a block: permutation and optional orientation
/// (`None` for `?`).
struct RawOrbit {
    line: usize,
    perm: Vec<u64>,
    ori: Option<(usize, Vec<Option<u64>>)>,
}

fn number(at: At, line: usize, tok: &str) -> Result<u64, ParseError> {
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
fn read_block(
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
            return Err(at.err(start_line, K::UnexpectedEnd(block.to_string())));
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
                return Err(at.err(no, K::EmptyOrbit(orbits[k].name().to_string())));
            }
            return Ok(raw);
        }
        if is_numbers {
            let Some(k) = current else {
                return Err(at.err(no, K::UnexpectedNumbers("numbers before any orbit name")));
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
                _ => {
                    return Err(at.err(
                        no,
                        K::UnexpectedNumbers("a third line of numbers for one orbit"),
                    ))
                }
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
                return Err(at.err(no, K::EmptyOrbit(orbits[k].name().to_string())));
            }
            let Some(k) = orbits.iter().position(|o| o.name() == first) else {
                return Err(at.err(no, K::UnknownOrbit(first.to_string())));
            };
            if raw[k].is_some() {
                return Err(at.err(no, K::RepeatedOrbit(first.to_string())));
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

/// Checks a permutation line of a move and makes it 0-based.
fn move_perm(at: At, orbit: &Orbit, r: &RawOrbit, zero_based: bool) -> Result<Vec<u8>, ParseError> {
    let n = orbit.num_pieces() as u64;
    let (min, max) = if zero_based { (0, n - 1) } else { (1, n) };
    let mut seen = vec![false; n as usize];
    let mut out = Vec::with_capacity(n as usize);
    for &v in &r.perm {
        if v < min || v > max {
            return Err(at.err(
                r.line,
                K::OutOfRange {
                    orbit: orbit.name().to_string(),
                    what: "piece",
                    value: v,
                    min,
                    max,
                },
            ));
        }
        let p = (v - min) as usize;
        if seen[p] {
            return Err(at.err(
                r.line,
                K::NotAPermutation {
                    orbit: orbit.name().to_string(),
                    piece: v,
                },
            ));
        }
        seen[p] = true;
        out.push(p as u8);
    }
    Ok(out)
}

fn orientations(
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
            None => Err(at.err(*line, K::WildcardInMove(orbit.name().to_string()))),
            Some(x) if *x >= m => Err(at.err(
                *line,
                K::OutOfRange {
                    orbit: orbit.name().to_string(),
                    what: "orientation",
                    value: *x,
                    min: 0,
                    max: m - 1,
                },
            )),
            Some(x) => Ok(Some(*x as u8)),
        })
        .collect()
}

fn move_transformation(
    at: At,
    layout: &Layout,
    raw: &[Option<RawOrbit>],
    zero_based: bool,
) -> Result<Transformation, ParseError> {
    let mut bytes = layout.identity_bytes();
    for (k, orbit) in layout.orbits().iter().enumerate() {
        let Some(r) = &raw[k] else { continue };
        let perm = move_perm(at, orbit, r, zero_based)?;
        let ori: Vec<u8> = orientations(at, orbit, r, false)?
            .into_iter()
            .map(|o| o.unwrap_or(0))
            .collect();
        let off = layout.offset(k);
        let n = orbit.num_pieces();
        for i in 0..n {
            bytes[off + i] = perm[i];
            // ksolve moves give the orientation of each piece; the state
            // convention wants it per slot: s.o[i] = m.o[p[i]].
            bytes[off + n + i] = if zero_based {
                ori[i]
            } else {
                ori[perm[i] as usize]
            };
        }
    }
    Transformation::from_bytes(layout, bytes).map_err(|e| at.err(0, K::Model(e)))
}

/// Reads the start state: piece ids (which may repeat, with no gaps) and
/// orientations with wildcards.
fn start_pattern(
    at: At,
    layout: &Layout,
    raw: &[Option<RawOrbit>],
    zero_based: bool,
) -> Result<Pattern, ParseError> {
    let mut orbits = Vec::new();
    for (k, orbit) in layout.orbits().iter().enumerate() {
        let n = orbit.num_pieces();
        let Some(r) = &raw[k] else {
            orbits.push(PatternOrbit {
                pieces: (0..n as u8).collect(),
                orientation: vec![0; n],
                orientation_mod: None,
            });
            continue;
        };
        let (min, max) = if zero_based {
            (0u64, n as u64 - 1)
        } else {
            (1, n as u64)
        };
        let mut used = vec![false; n];
        for &v in &r.perm {
            if v < min || v > max {
                return Err(at.err(
                    r.line,
                    K::OutOfRange {
                        orbit: orbit.name().to_string(),
                        what: "piece id",
                        value: v,
                        min,
                        max,
                    },
                ));
            }
            used[(v - min) as usize] = true;
        }
        let top = used.iter().rposition(|&u| u).unwrap_or(0);
        if let Some(gap) = used[..top].iter().position(|&u| !u) {
            return Err(at.err(
                r.line,
                K::PieceIdGap {
                    orbit: orbit.name().to_string(),
                    missing: gap as u64 + min,
                },
            ));
        }
        let pieces: Vec<u8> = r.perm.iter().map(|&v| (v - min) as u8).collect();
        let ori = orientations(at, orbit, r, true)?;
        // Identical pieces must agree on being wild.
        for i in 0..n {
            for j in i + 1..n {
                if pieces[i] == pieces[j] && ori[i].is_none() != ori[j].is_none() {
                    let line = r.ori.as_ref().map_or(r.line, |o| o.0);
                    return Err(at.err(
                        line,
                        K::WildcardConflict {
                            orbit: orbit.name().to_string(),
                            piece: pieces[i] as u64 + min,
                        },
                    ));
                }
            }
        }
        orbits.push(pattern_orbit(orbit, pieces, &ori));
    }
    layout.pattern(&orbits).map_err(|e| at.err(0, K::Model(e)))
}

fn pattern_orbit(orbit: &Orbit, pieces: Vec<u8>, ori: &[Option<u8>]) -> PatternOrbit {
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

/// A pending `MoveSequence` or `MoveAlias`.
pub(crate) struct Pending {
    pub line: usize,
    pub name: String,
    pub text: String,
    pub kind: MoveKind,
}

/// Parses a `.tws` definition. `file` names it in errors.
pub fn parse_tws(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let text = crate::positions::strip_bom(text);
    let at = At { file };
    let mut cur = Cursor {
        lines: lines(text),
        pos: 0,
    };
    let mut name: Option<String> = None;
    let mut orbits: Vec<Orbit> = Vec::new();
    let mut layout: Option<Layout> = None;
    let mut puzzle: Option<Puzzle> = None;
    let mut pending: Vec<Pending> = Vec::new();
    let mut illegal: Vec<(usize, Vec<String>)> = Vec::new();
    let mut explicit: Vec<(usize, MoveDef)> = Vec::new();
    while let Some(line) = cur.next() {
        let (no, words) = (line.no, line.words.clone());
        let count = |expected: &'static str| K::TokenCount {
            command: words[0].to_string(),
            expected,
            found: words.len(),
        };
        match words[0] {
            "Name" => {
                if name.is_some() || !orbits.is_empty() {
                    return Err(at.err(
                        no,
                        K::WrongPlace {
                            command: "Name".into(),
                            reason: "Name comes first, once",
                        },
                    ));
                }
                if words.len() != 2 {
                    return Err(at.err(no, count("a name")));
                }
                name = Some(words[1].to_string());
            }
            "Set" => {
                if layout.is_some() {
                    return Err(at.err(
                        no,
                        K::WrongPlace {
                            command: "Set".into(),
                            reason: "sets come before Solved",
                        },
                    ));
                }
                if words.len() != 4 {
                    return Err(at.err(no, count("a name, a piece count and an orientation count")));
                }
                let pieces = number(at, no, words[2])?;
                let oris = number(at, no, words[3])?;
                let orbit = Orbit::new(
                    words[1],
                    pieces.min(usize::MAX as u64) as usize,
                    oris.min(usize::MAX as u64) as usize,
                )
                .map_err(|e| at.err(no, K::Model(e)))?;
                if orbits.iter().any(|o| o.name() == orbit.name()) {
                    return Err(at.err(no, K::Repeated(format!("Set {}", orbit.name()))));
                }
                orbits.push(orbit);
            }
            cmd @ ("Solved" | "StartState") => {
                if layout.is_some() {
                    return Err(at.err(
                        no,
                        K::Repeated("the start state (Solved/StartState)".into()),
                    ));
                }
                if orbits.is_empty() {
                    return Err(at.err(
                        no,
                        K::WrongPlace {
                            command: cmd.into(),
                            reason: "Set lines must come first",
                        },
                    ));
                }
                if words.len() != 1 {
                    return Err(at.err(no, count("no arguments")));
                }
                let l = Layout::new(orbits.clone()).map_err(|e| at.err(no, K::Model(e)))?;
                let raw = read_block(at, &mut cur, &orbits, cmd, no)?;
                let start = start_pattern(at, &l, &raw, cmd == "StartState")?;
                puzzle = Some(Puzzle::new(
                    name.clone().unwrap_or_else(|| "Unnamed".into()),
                    l.clone(),
                    start,
                ));
                layout = Some(l);
            }
            cmd @ ("Move" | "MoveTransformation") => {
                let Some(l) = &layout else {
                    return Err(at.err(
                        no,
                        K::WrongPlace {
                            command: cmd.into(),
                            reason: "moves come after Solved",
                        },
                    ));
                };
                if words.len() != 2 {
                    return Err(at.err(no, count("a name")));
                }
                let raw = read_block(at, &mut cur, &orbits, cmd, no)?;
                let t = move_transformation(at, l, &raw, cmd == "MoveTransformation").map_err(
                    |mut e| {
                        if e.line == 0 {
                            e.line = no;
                        }
                        e
                    },
                )?;
                explicit.push((
                    no,
                    MoveDef {
                        name: words[1].to_string(),
                        transformation: t,
                        kind: MoveKind::Base,
                        definition: None,
                    },
                ));
            }
            cmd @ ("MoveSequence" | "MoveAlias") => {
                if layout.is_none() {
                    return Err(at.err(
                        no,
                        K::WrongPlace {
                            command: cmd.into(),
                            reason: "moves come after Solved",
                        },
                    ));
                }
                if words.len() < 3 {
                    return Err(at.err(no, count("a name and an alg")));
                }
                pending.push(Pending {
                    line: no,
                    name: words[1].to_string(),
                    text: words[2..].join(" "),
                    kind: if cmd == "MoveSequence" {
                        MoveKind::Sequence
                    } else {
                        MoveKind::Alias
                    },
                });
            }
            "Illegal" => {
                if layout.is_none() {
                    return Err(at.err(
                        no,
                        K::WrongPlace {
                            command: "Illegal".into(),
                            reason: "Illegal comes after Solved",
                        },
                    ));
                }
                if words.len() < 4 {
                    return Err(at.err(no, count("an orbit, a slot and piece ids")));
                }
                illegal.push((no, words[1..].iter().map(|w| w.to_string()).collect()));
            }
            other => return Err(at.err(no, K::UnknownCommand(other.chars().take(40).collect()))),
        }
    }
    let Some(mut puzzle) = puzzle else {
        let line = cur.last_line();
        return Err(at.err(
            line,
            K::Missing(if orbits.is_empty() {
                "no Set lines: a puzzle needs orbits".into()
            } else {
                "no Solved block".into()
            }),
        ));
    };
    for (no, mv) in explicit {
        let n = mv.name.clone();
        puzzle
            .add_move(mv)
            .map_err(|_| at.err(no, K::Repeated(format!("move {n}"))))?;
    }
    resolve_pending(at, &mut puzzle, pending)?;
    if puzzle.moves().is_empty() {
        return Err(at.err(
            cur.last_line(),
            K::Missing("no moves: a puzzle needs at least one Move".into()),
        ));
    }
    for (no, words) in illegal {
        let il = parse_illegal(at, no, &puzzle, &words)?;
        puzzle.add_illegal(il);
    }
    Ok(puzzle)
}

/// A move definition's text with the commas that separate moves (`R,U`)
/// made spaces; commas inside brackets belong to commutators (`[R, U]`).
fn separators_to_spaces(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .map(|c| {
            match c {
                '[' => depth += 1,
                ']' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => return ' ',
                _ => {}
            }
            c
        })
        .collect()
}

/// Resolves move sequences and aliases in as many rounds as needed, since
/// they may refer to each other and to moves defined after them.
pub(crate) fn resolve_pending(
    at: At,
    puzzle: &mut Puzzle,
    mut pending: Vec<Pending>,
) -> Result<(), ParseError> {
    for p in &pending {
        if puzzle.find_move(&p.name).is_some()
            || pending.iter().filter(|q| q.name == p.name).count() > 1
        {
            return Err(at.err(p.line, K::Repeated(format!("move {}", p.name))));
        }
    }
    while !pending.is_empty() {
        let mut progress = false;
        let mut rest = Vec::new();
        for p in pending {
            let alg = Alg::parse(&separators_to_spaces(&p.text)).map_err(|e| {
                at.err(
                    p.line,
                    K::BadAlg {
                        name: p.name.clone(),
                        source: e,
                    },
                )
            })?;
            match alg_transformation(puzzle, &alg) {
                Ok(t) => {
                    let def = MoveDef {
                        name: p.name.clone(),
                        transformation: t,
                        kind: p.kind,
                        definition: Some(p.text.clone()),
                    };
                    puzzle
                        .add_move(def)
                        .map_err(|e| at.err(p.line, K::Model(e)))?;
                    progress = true;
                }
                Err(_) => rest.push(p),
            }
        }
        if !progress {
            let names: Vec<&str> = rest.iter().map(|p| p.name.as_str()).collect();
            let p = &rest[0];
            let alg = Alg::parse(&separators_to_spaces(&p.text)).expect("parsed above");
            let e = alg_transformation(puzzle, &alg).expect_err("failed above");
            let kind = match &e.kind {
                AlgErrorKind::UnknownMove(m) if names.iter().any(|n| m.starts_with(n)) => {
                    K::Cycle(names.join(", "))
                }
                _ => K::BadAlg {
                    name: p.name.clone(),
                    source: e,
                },
            };
            return Err(at.err(p.line, kind));
        }
        pending = rest;
    }
    Ok(())
}

fn parse_illegal(
    at: At,
    no: usize,
    puzzle: &Puzzle,
    words: &[String],
) -> Result<IllegalPlacement, ParseError> {
    let layout = puzzle.layout();
    let Some(k) = layout.orbit_index(&words[0]) else {
        return Err(at.err(no, K::UnknownOrbit(words[0].clone())));
    };
    let orbit = &layout.orbits()[k];
    let n = orbit.num_pieces() as u64;
    let slot = number(at, no, &words[1])?;
    if slot < 1 || slot > n {
        return Err(at.err(
            no,
            K::OutOfRange {
                orbit: orbit.name().to_string(),
                what: "slot",
                value: slot,
                min: 1,
                max: n,
            },
        ));
    }
    let mut pieces = Vec::new();
    for w in &words[2..] {
        let v = number(at, no, w)?;
        if v < 1 || v > n {
            return Err(at.err(
                no,
                K::OutOfRange {
                    orbit: orbit.name().to_string(),
                    what: "piece id",
                    value: v,
                    min: 1,
                    max: n,
                },
            ));
        }
        pieces.push((v - 1) as u8);
    }
    Ok(IllegalPlacement {
        orbit: k,
        slot: (slot - 1) as usize,
        pieces,
    })
}

/// One entry of a scramble file.
#[derive(Clone, Debug)]
pub struct Scramble {
    /// Its name.
    pub name: String,
    /// The line it starts on.
    pub line: usize,
    /// What it is.
    pub body: ScrambleBody,
}

/// A position, or an alg that reaches it from the start state.
#[derive(Clone, Debug)]
pub enum ScrambleBody {
    /// A `Scramble` block: the position itself.
    Pattern(Pattern),
    /// A `ScrambleAlg` block.
    Alg(Alg),
}

/// Parses a twsearch scramble file (`Scramble NAME` position blocks and
/// `ScrambleAlg NAME` alg blocks) against `puzzle`.
pub fn parse_scrambles(
    text: &str,
    file: &str,
    puzzle: &Puzzle,
) -> Result<Vec<Scramble>, ParseError> {
    let text = crate::positions::strip_bom(text);
    let at = At { file };
    let layout = puzzle.layout();
    let orbits = layout.orbits().to_vec();
    let start = layout.pattern_orbits(puzzle.start());
    let mut cur = Cursor {
        lines: lines(text),
        pos: 0,
    };
    let mut out = Vec::new();
    while let Some(line) = cur.next() {
        let (no, words) = (line.no, line.words.clone());
        match words[0] {
            "Scramble" => {
                if words.len() != 2 {
                    return Err(at.err(
                        no,
                        K::TokenCount {
                            command: "Scramble".into(),
                            expected: "a name",
                            found: words.len(),
                        },
                    ));
                }
                let raw = read_block(at, &mut cur, &orbits, "Scramble", no)?;
                let mut po = Vec::new();
                for (k, orbit) in orbits.iter().enumerate() {
                    let Some(r) = &raw[k] else {
                        po.push(start[k].clone());
                        continue;
                    };
                    let n = orbit.num_pieces() as u64;
                    let mut pieces = Vec::with_capacity(n as usize);
                    for &v in &r.perm {
                        if v < 1 || v > n {
                            return Err(at.err(
                                r.line,
                                K::OutOfRange {
                                    orbit: orbit.name().to_string(),
                                    what: "piece id",
                                    value: v,
                                    min: 1,
                                    max: n,
                                },
                            ));
                        }
                        pieces.push((v - 1) as u8);
                    }
                    let mut a = pieces.clone();
                    let mut b = start[k].pieces.clone();
                    a.sort_unstable();
                    b.sort_unstable();
                    if a != b {
                        return Err(at.err(r.line, K::PiecesDiffer(orbit.name().to_string())));
                    }
                    let ori = orientations(at, orbit, r, true)?;
                    // Wildcards must sit on the pieces the start state leaves wild.
                    let start_wild = |piece: u8| {
                        start[k]
                            .pieces
                            .iter()
                            .zip(start[k].orientation_mod.iter().flatten())
                            .any(|(&p, &m)| p == piece && m == 1)
                    };
                    if orbit.num_orientations() > 1
                        && pieces
                            .iter()
                            .zip(&ori)
                            .any(|(&p, o)| o.is_none() != start_wild(p))
                    {
                        let line = r.ori.as_ref().map_or(r.line, |o| o.0);
                        return Err(at.err(line, K::WildcardMismatch(orbit.name().to_string())));
                    }
                    po.push(pattern_orbit(orbit, pieces, &ori));
                }
                let pattern = layout.pattern(&po).map_err(|e| at.err(no, K::Model(e)))?;
                out.push(Scramble {
                    name: words[1].to_string(),
                    line: no,
                    body: ScrambleBody::Pattern(pattern),
                });
            }
            "ScrambleAlg" => {
                if words.len() != 2 {
                    return Err(at.err(
                        no,
                        K::TokenCount {
                            command: "ScrambleAlg".into(),
                            expected: "a name",
                            found: words.len(),
                        },
                    ));
                }
                let mut text = Vec::new();
                loop {
                    let Some(l) = cur.next() else {
                        return Err(at.err(no, K::UnexpectedEnd("ScrambleAlg".into())));
                    };
                    if l.words == ["End"] {
                        break;
                    }
                    text.push((l.no, l.words.join(" ")));
                }
                let mut alg_nodes = Vec::new();
                for (lno, t) in text {
                    let a = Alg::parse(&t).map_err(|e| {
                        at.err_col(
                            lno,
                            e.column,
                            K::BadAlg {
                                name: words[1].to_string(),
                                source: e,
                            },
                        )
                    })?;
                    // Lines stay lines, so a comment ends with its line.
                    if !alg_nodes.is_empty() {
                        alg_nodes.push(AlgNode::Newline);
                    }
                    alg_nodes.extend(a.nodes().iter().cloned());
                }
                let alg = Alg::from_nodes(alg_nodes);
                alg_transformation(puzzle, &alg).map_err(|e| {
                    at.err(
                        no,
                        K::BadAlg {
                            name: words[1].to_string(),
                            source: e,
                        },
                    )
                })?;
                out.push(Scramble {
                    name: words[1].to_string(),
                    line: no,
                    body: ScrambleBody::Alg(alg),
                });
            }
            other => return Err(at.err(no, K::UnknownCommand(other.chars().take(40).collect()))),
        }
    }
    Ok(out)
}

/// Writes `puzzle` as a `.tws` definition that reads back to the same
/// puzzle. Orientation moduli other than wildcards cannot be written.
pub fn write_tws(puzzle: &Puzzle) -> Result<String, ParseError> {
    let layout = puzzle.layout();
    for o in layout.orbits() {
        tws_word(o.name(), "orbit", true)?;
    }
    for mv in puzzle.moves() {
        tws_word(&mv.name, "move", false)?;
    }
    let mut s = String::new();
    s.push_str(&format!("Name {}\n\n", sanitize(puzzle.name())));
    for o in layout.orbits() {
        s.push_str(&format!(
            "Set {} {} {}\n",
            o.name(),
            o.num_pieces(),
            o.num_orientations()
        ));
    }
    s.push_str("\nSolved\n");
    // `.tws` piece ids run from 1 with none skipped, while KPuzzle ids may
    // skip (cubing.js numbers the 4x4x4's identical centres 0, 4, 8, ...):
    // the start state's ids are renumbered in order.
    let mut start = layout.pattern_orbits(puzzle.start());
    let renumber: Vec<Vec<u8>> = start.iter_mut().map(dense_ids).collect();
    // `.tws` reads identical pieces as all wild or none (KPuzzle moduli
    // travel with each piece, so they may differ).
    for (o, po) in layout.orbits().iter().zip(&start) {
        let wild = |i: usize| po.orientation_mod.as_ref().is_some_and(|m| m[i] == 1);
        let n = po.pieces.len();
        if (0..n).any(|i| (0..i).any(|j| po.pieces[i] == po.pieces[j] && wild(i) != wild(j))) {
            return Err(ParseError {
                file: String::new(),
                line: 0,
                column: None,
                kind: K::Unsupported(format!(
                    "the start state: orbit {} has identical pieces some with and some without an orientation wildcard, which .tws cannot express",
                    o.name()
                )),
            });
        }
    }
    s.push_str(&write_position(layout, &start, "the start state")?);
    s.push_str("End\n");
    let mut derived = Vec::new();
    for mv in puzzle.moves() {
        match mv.kind {
            MoveKind::Base => {
                s.push_str(&format!("\nMove {}\n", mv.name));
                for (k, o) in layout.orbits().iter().enumerate() {
                    let p = layout.perm(mv.transformation.as_bytes(), k);
                    let so = layout.ori(mv.transformation.as_bytes(), k);
                    if p.iter().enumerate().all(|(i, &x)| x as usize == i)
                        && so.iter().all(|&x| x == 0)
                    {
                        continue;
                    }
                    // State convention back to ksolve's move convention: m.o[p[i]] = s.o[i].
                    let mut mo = vec![0u8; o.num_pieces()];
                    for i in 0..o.num_pieces() {
                        mo[p[i] as usize] = so[i];
                    }
                    s.push_str(&format!(
                        "{}\n{}\n{}\n",
                        o.name(),
                        join(p.iter().map(|&x| x as u32 + 1)),
                        join(mo.iter().map(|&x| x as u32))
                    ));
                }
                s.push_str("End\n");
            }
            MoveKind::Sequence => derived.push(format!(
                "MoveSequence {} {}\n",
                mv.name,
                mv.definition.as_deref().unwrap_or("")
            )),
            MoveKind::Alias | MoveKind::Derived => {
                let def = mv.definition.as_deref().unwrap_or("");
                // An empty alg (`.` in cubing.js) cannot be written as words.
                let def = if Alg::parse(def)
                    .map(|a| a.move_count() == 0)
                    .unwrap_or(false)
                {
                    "."
                } else {
                    def
                };
                derived.push(format!(
                    "MoveAlias {} {}\n",
                    mv.name,
                    def.split_whitespace().collect::<Vec<_>>().join(" ")
                ))
            }
        }
    }
    if !derived.is_empty() {
        s.push('\n');
        for d in derived {
            s.push_str(&d);
        }
    }
    // A constraint with no pieces forbids nothing (and `Illegal` needs one).
    for il in puzzle.illegal().iter().filter(|il| !il.pieces.is_empty()) {
        s.push_str(&format!(
            "Illegal {} {} {}\n",
            layout.orbits()[il.orbit].name(),
            il.slot + 1,
            join(
                il.pieces
                    .iter()
                    .map(|&x| renumber[il.orbit][x as usize] as u32 + 1)
            )
        ));
    }
    Ok(s)
}

/// Renumbers an orbit's piece ids in order with none skipped; returns the
/// map from old ids to new (ids absent from the orbit keep theirs).
fn dense_ids(po: &mut twistor_core::PatternOrbit) -> Vec<u8> {
    let mut used = [false; 256];
    for &x in &po.pieces {
        used[x as usize] = true;
    }
    let mut map: Vec<u8> = (0..=255).collect();
    let mut next = 0u8;
    for (x, _) in used.iter().enumerate().filter(|(_, &u)| u) {
        map[x] = next;
        next = next.saturating_add(1);
    }
    for x in &mut po.pieces {
        *x = map[*x as usize];
    }
    map
}

/// The lines of a position block (1-based ids, state orientation, `?`).
pub(crate) fn write_position(
    layout: &Layout,
    orbits: &[twistor_core::PatternOrbit],
    what: &str,
) -> Result<String, ParseError> {
    let mut s = String::new();
    for (o, po) in layout.orbits().iter().zip(orbits) {
        s.push_str(&format!(
            "{}\n{}\n",
            o.name(),
            join(po.pieces.iter().map(|&x| x as u32 + 1))
        ));
        let mut words = Vec::new();
        for i in 0..o.num_pieces() {
            match po.orientation_mod.as_ref().map_or(0, |m| m[i]) {
                0 => words.push(po.orientation[i].to_string()),
                1 => words.push("?".into()),
                m => {
                    return Err(ParseError {
                        file: String::new(),
                        line: 0,
                        column: None,
                        kind: K::Unsupported(format!("{what}: orbit {} has orientationMod {m}, which .tws cannot express (only ? wildcards)", o.name())),
                    })
                }
            }
        }
        s.push_str(&words.join(" "));
        s.push('\n');
    }
    Ok(s)
}

/// Writes positions as a scramble file.
pub fn write_scrambles(
    puzzle: &Puzzle,
    scrambles: &[(String, Pattern)],
) -> Result<String, ParseError> {
    let mut s = String::new();
    for (name, p) in scrambles {
        s.push_str(&format!("Scramble {}\n", sanitize(name)));
        s.push_str(&write_position(
            puzzle.layout(),
            &puzzle.layout().pattern_orbits(p),
            name,
        )?);
        s.push_str("End\n");
    }
    Ok(s)
}

fn join(it: impl Iterator<Item = u32>) -> String {
    it.map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

/// Checks that a name (from KPuzzle JSON, where names are any string) can
/// be written as the single word `.tws` reads it as: no spaces or control
/// characters, no `#` first, and for an orbit nothing a block would read
/// as numbers or its end.
fn tws_word(name: &str, what: &str, orbit: bool) -> Result<(), ParseError> {
    let one_word = !name.is_empty()
        && !name.starts_with('#')
        && !name.chars().any(|c| c.is_whitespace() || c.is_control());
    let in_block = !orbit
        || !(name == "End"
            || name == "?"
            || name.starts_with(|c: char| c.is_ascii_digit() || c == '-'));
    if one_word && in_block {
        return Ok(());
    }
    Err(ParseError {
        file: String::new(),
        line: 0,
        column: None,
        kind: K::Unsupported(format!(
            "the {what} name {name:?} cannot be written in .tws (names there are single words{})",
            if orbit {
                " that cannot be read as numbers or End"
            } else {
                ""
            }
        )),
    })
}

fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() {
        "Unnamed".into()
    } else {
        s
    }
}
