//! Reading `.tws` puzzle definitions: `Set` lines, the start state,
//! moves (`Move`, `MoveTransformation`, `MoveSequence`, `MoveAlias`) and
//! `Illegal` constraints.

use twistor_core::{
    IllegalPlacement, Layout, MoveDef, MoveKind, Orbit, Pattern, PatternOrbit, Puzzle,
    Transformation,
};

use super::block::{in_range, number, orientations, pattern_orbit, read_block, Cursor, RawOrbit};
use crate::alg::{Alg, AlgErrorKind};
use crate::error::{At, ParseError, ParseErrorKind as K};
use crate::resolve::alg_transformation;

/// Checks a permutation line of a move and makes it 0-based.
fn move_perm(at: At, orbit: &Orbit, r: &RawOrbit, zero_based: bool) -> Result<Vec<u8>, ParseError> {
    let n = orbit.num_pieces() as u64;
    let (min, max) = if zero_based { (0, n - 1) } else { (1, n) };
    let mut seen = vec![false; n as usize];
    let mut out = Vec::with_capacity(n as usize);
    for &v in &r.perm {
        let p = in_range(at, r.line, orbit, "piece", v, (min, max))? as usize;
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
            used[in_range(at, r.line, orbit, "piece id", v, (min, max))? as usize] = true;
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
    let mut cur = Cursor::new(text);
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
        let misplaced = |command: &str, reason: &'static str| {
            at.err(
                no,
                K::WrongPlace {
                    command: command.into(),
                    reason,
                },
            )
        };
        match words[0] {
            "Name" => {
                if name.is_some() || !orbits.is_empty() {
                    return Err(misplaced("Name", "Name comes first, once"));
                }
                if words.len() != 2 {
                    return Err(at.err(no, count("a name")));
                }
                name = Some(words[1].to_string());
            }
            "Set" => {
                if layout.is_some() {
                    return Err(misplaced("Set", "sets come before Solved"));
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
                    return Err(at.err(
                        no,
                        K::RepeatedSet {
                            orbit: orbit.name().into(),
                        },
                    ));
                }
                orbits.push(orbit);
            }
            cmd @ ("Solved" | "StartState") => {
                if layout.is_some() {
                    return Err(at.err(no, K::RepeatedStart));
                }
                if orbits.is_empty() {
                    return Err(misplaced(cmd, "Set lines must come first"));
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
                    return Err(misplaced(cmd, "moves come after Solved"));
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
                    return Err(misplaced(cmd, "moves come after Solved"));
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
                    return Err(misplaced("Illegal", "Illegal comes after Solved"));
                }
                if words.len() < 4 {
                    return Err(at.err(no, count("an orbit, a slot and piece ids")));
                }
                illegal.push((no, words[1..].iter().map(|w| w.to_string()).collect()));
            }
            other => {
                return Err(at.err(
                    no,
                    K::UnknownCommand {
                        command: other.chars().take(40).collect(),
                    },
                ))
            }
        }
    }
    let Some(mut puzzle) = puzzle else {
        let line = cur.last_line();
        return Err(at.err(
            line,
            if orbits.is_empty() {
                K::NoOrbits
            } else {
                K::NoStartState
            },
        ));
    };
    for (no, mv) in explicit {
        let n = mv.name.clone();
        puzzle
            .add_move(mv)
            .map_err(|_| at.err(no, K::RepeatedMove { name: n }))?;
    }
    resolve_pending(at, &mut puzzle, pending)?;
    if puzzle.moves().is_empty() {
        return Err(at.err(cur.last_line(), K::NoMoves));
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
            return Err(at.err(
                p.line,
                K::RepeatedMove {
                    name: p.name.clone(),
                },
            ));
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
                AlgErrorKind::UnknownMove { name } if names.iter().any(|n| name.starts_with(n)) => {
                    K::Cycle {
                        moves: names.iter().map(|n| n.to_string()).collect(),
                    }
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
        return Err(at.err(
            no,
            K::UnknownOrbit {
                orbit: words[0].clone(),
            },
        ));
    };
    let orbit = &layout.orbits()[k];
    let n = orbit.num_pieces() as u64;
    let slot = in_range(at, no, orbit, "slot", number(at, no, &words[1])?, (1, n))?;
    let mut pieces = Vec::new();
    for w in &words[2..] {
        pieces.push(in_range(at, no, orbit, "piece id", number(at, no, w)?, (1, n))? as u8);
    }
    Ok(IllegalPlacement {
        orbit: k,
        slot: slot as usize,
        pieces,
    })
}
