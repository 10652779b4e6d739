//! cubing.js KPuzzle definitions and KPattern positions, as JSON.
//!
//! The layout is today's cubing.js: `orbits` is an array of
//! `{orbitName, numPieces, numOrientations}`, `defaultPattern` maps each
//! orbit to `{pieces, orientation, orientationMod?}`, `moves` maps names to
//! `{ORBIT: {permutation, orientationDelta}}` (state convention, 0-based, an
//! orbit left out is the identity), and `derivedMoves` maps names to algs.
//! The older layout (`orbits` as an object, `startStateData`, `orientation`
//! in moves) is read too. `orientationMod` follows
//! `spec/kpattern-orientation-mod.txt`: 0 is the full count, other values
//! are proper divisors and orientations must be normalised below them.
//!
//! `Illegal` constraints of a `.tws` file have no KPuzzle equivalent; they
//! are written to and read from an extra `twistorIllegal` member so a
//! conversion keeps them.

use twistor_core::{
    IllegalPlacement, Layout, MoveDef, MoveKind, Orbit, Pattern, PatternOrbit, Puzzle,
    Transformation,
};

use crate::error::{At, ParseError, ParseErrorKind as K};
use crate::json::{self, quote, Json};
use crate::tws::{resolve_pending, Pending};

/// How JSON output is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonStyle {
    /// Indented, arrays of numbers on one line.
    Pretty,
    /// One line.
    Compact,
}

/// Parses a KPuzzle definition. `file` names it in errors.
pub fn parse_kpuzzle(text: &str, file: &str) -> Result<Puzzle, ParseError> {
    let text = crate::positions::strip_bom(text);
    let at = At { file };
    let root = json::parse(at, text)?;
    root.object(at, "the definition")?;
    let name = match root.get("name") {
        Some(n) => n.string(at, "name")?.to_string(),
        None => "Unnamed".to_string(),
    };
    let missing = |member: &str| {
        at.err(
            root.line,
            K::MissingMember {
                member: member.into(),
            },
        )
    };
    let orbits_json = root.get("orbits").ok_or_else(|| missing("orbits"))?;
    let mut orbits = Vec::new();
    match &orbits_json.value {
        json::Value::Array(items) => {
            for (i, o) in items.iter().enumerate() {
                let path = format!("orbits[{i}]");
                o.object(at, &path)?;
                let name = o
                    .get("orbitName")
                    .ok_or_else(|| at.err(o.line, missing_field(&path, "orbitName")))?;
                let name = name.string(at, &format!("{path}.orbitName"))?;
                orbits.push(orbit(at, o, &path, name)?);
            }
        }
        json::Value::Object(members) => {
            for (name, o) in members {
                orbits.push(orbit(at, o, &format!("orbits.{name}"), name)?);
            }
        }
        _ => {
            return Err(at.err(
                orbits_json.line,
                K::JsonShape {
                    path: "orbits".into(),
                    expected: "expected an array of orbits".into(),
                },
            ))
        }
    }
    let layout = Layout::new(orbits).map_err(|e| at.err(orbits_json.line, K::Model(e)))?;
    let start_json = root
        .get("defaultPattern")
        .or_else(|| root.get("startStateData"))
        .or_else(|| root.get("startPieces"))
        .ok_or_else(|| missing("defaultPattern"))?;
    let start = read_pattern(at, &layout, start_json, "defaultPattern")?;
    let mut puzzle = Puzzle::new(name, layout.clone(), start);
    let moves_json = root.get("moves").ok_or_else(|| missing("moves"))?;
    for (mname, mv) in moves_json.object(at, "moves")? {
        let t = read_transformation(at, &layout, mv, &format!("moves.{mname}"))?;
        puzzle
            .add_move(MoveDef {
                name: mname.clone(),
                transformation: t,
                kind: MoveKind::Base,
                definition: None,
            })
            .map_err(|e| at.err(mv.line, K::Model(e)))?;
    }
    if let Some(derived) = root.get("derivedMoves") {
        let mut pending = Vec::new();
        for (dname, alg) in derived.object(at, "derivedMoves")? {
            pending.push(Pending {
                line: alg.line,
                name: dname.clone(),
                text: alg
                    .string(at, &format!("derivedMoves.{dname}"))?
                    .to_string(),
                kind: MoveKind::Derived,
            });
        }
        resolve_pending(at, &mut puzzle, pending)?;
    }
    if let Some(illegal) = root.get("twistorIllegal") {
        for (i, il) in illegal.array(at, "twistorIllegal")?.iter().enumerate() {
            let path = format!("twistorIllegal[{i}]");
            let oname = il
                .get("orbit")
                .ok_or_else(|| at.err(il.line, missing_field(&path, "orbit")))?;
            let oname = oname.string(at, &format!("{path}.orbit"))?;
            let k = layout.orbit_index(oname).ok_or_else(|| {
                at.err(
                    il.line,
                    K::UnknownOrbit {
                        orbit: oname.to_string(),
                    },
                )
            })?;
            let n = layout.orbits()[k].num_pieces() as u64;
            let slot = il
                .get("slot")
                .ok_or_else(|| at.err(il.line, missing_field(&path, "slot")))?;
            let slot = slot.uint(at, &format!("{path}.slot"), n - 1)? as usize;
            let pieces = il
                .get("pieces")
                .ok_or_else(|| at.err(il.line, missing_field(&path, "pieces")))?;
            let pieces = pieces
                .uints(at, &format!("{path}.pieces"), n - 1)?
                .into_iter()
                .map(|p| p as u8)
                .collect::<Vec<u8>>();
            // A constraint with no pieces forbids nothing (and `.tws` cannot
            // write one), so it is not kept.
            if pieces.is_empty() {
                continue;
            }
            puzzle.add_illegal(IllegalPlacement {
                orbit: k,
                slot,
                pieces,
            });
        }
    }
    if puzzle.moves().is_empty() {
        return Err(at.err(moves_json.line, K::EmptyMoves));
    }
    Ok(puzzle)
}

/// The error of an object at `path` without its member `member`.
fn missing_field(path: &str, member: &str) -> K {
    K::MissingField {
        path: path.into(),
        member: member.into(),
    }
}

fn orbit(at: At, o: &Json, path: &str, name: &str) -> Result<Orbit, ParseError> {
    let field = |f: &str, max: u64| -> Result<u64, ParseError> {
        let v = o
            .get(f)
            .ok_or_else(|| at.err(o.line, missing_field(path, f)))?;
        v.uint(at, &format!("{path}.{f}"), max)
    };
    let pieces = field("numPieces", twistor_core::MAX_PIECES as u64)?;
    let oris = field("numOrientations", twistor_core::MAX_ORIENTATIONS as u64)?;
    Orbit::new(name, pieces as usize, oris as usize)
        .map_err(|e| at.err_col(o.line, o.column, K::Model(e)))
}

fn read_pattern(at: At, layout: &Layout, j: &Json, what: &str) -> Result<Pattern, ParseError> {
    let members = j.object(at, what)?;
    for (name, v) in members {
        if layout.orbit_index(name).is_none() {
            return Err(at.err_col(
                v.line,
                v.column,
                K::UnknownOrbit {
                    orbit: name.clone(),
                },
            ));
        }
    }
    let mut orbits = Vec::new();
    for o in layout.orbits() {
        let path = format!("{what}.{}", o.name());
        let v = j.get(o.name()).ok_or_else(|| {
            at.err(
                j.line,
                K::MissingOrbitEntry {
                    path: what.into(),
                    orbit: o.name().into(),
                },
            )
        })?;
        v.object(at, &path)?;
        let arr = |f: &str, max: u64| -> Result<Option<Vec<u8>>, ParseError> {
            match v.get(f) {
                None => Ok(None),
                Some(a) => Ok(Some(
                    a.uints(at, &format!("{path}.{f}"), max)?
                        .into_iter()
                        .map(|x| x as u8)
                        .collect(),
                )),
            }
        };
        let pieces =
            arr("pieces", 255)?.ok_or_else(|| at.err(v.line, missing_field(&path, "pieces")))?;
        let orientation = arr("orientation", 255)?.unwrap_or_else(|| vec![0; o.num_pieces()]);
        let orientation_mod = arr("orientationMod", 255)?;
        let po = PatternOrbit {
            pieces,
            orientation,
            orientation_mod,
        };
        orbits.push((v, po));
    }
    let plain: Vec<PatternOrbit> = orbits.iter().map(|(_, p)| p.clone()).collect();
    layout.pattern(&plain).map_err(|e| {
        // Point at the orbit the model complains about.
        let v = orbits
            .iter()
            .zip(layout.orbits())
            .find(|(_, o)| e.to_string().starts_with(&format!("orbit {}:", o.name())))
            .map_or(orbits[0].0, |(x, _)| x.0);
        at.err_col(v.line, v.column, K::Model(e))
    })
}

fn read_transformation(
    at: At,
    layout: &Layout,
    j: &Json,
    what: &str,
) -> Result<Transformation, ParseError> {
    let members = j.object(at, what)?;
    let mut bytes = layout.identity_bytes();
    for (oname, v) in members {
        let path = format!("{what}.{oname}");
        let k = layout.orbit_index(oname).ok_or_else(|| {
            at.err_col(
                v.line,
                v.column,
                K::UnknownOrbit {
                    orbit: oname.clone(),
                },
            )
        })?;
        let orbit = &layout.orbits()[k];
        let n = orbit.num_pieces();
        v.object(at, &path)?;
        let perm = v
            .get("permutation")
            .ok_or_else(|| at.err(v.line, missing_field(&path, "permutation")))?;
        let perm_vals = perm.uints(at, &format!("{path}.permutation"), 255)?;
        let ori = v.get("orientationDelta").or_else(|| v.get("orientation"));
        let ori_vals = match ori {
            Some(o) => orientation_deltas(at, o, &format!("{path}.orientationDelta"), orbit)?,
            None => vec![0; n],
        };
        if perm_vals.len() != n {
            return Err(at.err_col(
                perm.line,
                perm.column,
                K::WrongLength {
                    orbit: oname.clone(),
                    expected: n,
                    found: perm_vals.len(),
                },
            ));
        }
        if ori_vals.len() != n {
            let o = ori.expect("present when the length differs");
            return Err(at.err_col(
                o.line,
                o.column,
                K::WrongLength {
                    orbit: oname.clone(),
                    expected: n,
                    found: ori_vals.len(),
                },
            ));
        }
        let off = layout.offset(k);
        let mut seen = vec![false; n];
        for i in 0..n {
            let p = perm_vals[i];
            if p as usize >= n {
                return Err(at.err_col(
                    perm.line,
                    perm.column,
                    K::OutOfRange {
                        orbit: oname.clone(),
                        what: "piece",
                        value: p,
                        min: 0,
                        max: n as u64 - 1,
                    },
                ));
            }
            if seen[p as usize] {
                return Err(at.err_col(
                    perm.line,
                    perm.column,
                    K::NotAPermutation {
                        orbit: oname.clone(),
                        piece: p,
                    },
                ));
            }
            seen[p as usize] = true;
            let o = ori_vals[i];
            if o as usize >= orbit.num_orientations() {
                let oj = ori.expect("present when non-zero");
                return Err(at.err_col(
                    oj.line,
                    oj.column,
                    K::OutOfRange {
                        orbit: oname.clone(),
                        what: "orientation",
                        value: o,
                        min: 0,
                        max: orbit.num_orientations() as u64 - 1,
                    },
                ));
            }
            bytes[off + i] = p as u8;
            bytes[off + n + i] = o as u8;
        }
    }
    Transformation::from_bytes(layout, bytes).map_err(|e| at.err(j.line, K::Model(e)))
}

/// The orientation deltas of a move. cubing.js writes a turn the other way
/// as a negative delta (its clock's `z` has `-1` on a 4-orientation orbit),
/// so `-(n-1)..=-1` are read modulo `n`; anything else must be a whole
/// number, checked against `n` by the caller.
fn orientation_deltas(at: At, j: &Json, path: &str, orbit: &Orbit) -> Result<Vec<u64>, ParseError> {
    let n = orbit.num_orientations() as i64;
    j.array(at, path)?
        .iter()
        .enumerate()
        .map(|(i, v)| match &v.value {
            json::Value::Number(s) => match s.parse::<i64>() {
                Ok(d) if d < 0 && d > -n => Ok((d + n) as u64),
                _ => v.uint(at, &format!("{path}[{i}]"), 255),
            },
            _ => v.uint(at, &format!("{path}[{i}]"), 255),
        })
        .collect()
}

/// Parses a KPattern (a position) for `puzzle`.
pub fn parse_kpattern(text: &str, file: &str, puzzle: &Puzzle) -> Result<Pattern, ParseError> {
    let text = crate::positions::strip_bom(text);
    let at = At { file };
    let root = json::parse(at, text)?;
    read_pattern(at, puzzle.layout(), &root, "the pattern")
}

fn numbers(v: impl IntoIterator<Item = u8>) -> String {
    let items: Vec<String> = v.into_iter().map(|x| x.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// Writes a pattern as KPattern JSON.
pub fn write_kpattern(puzzle: &Puzzle, pattern: &Pattern, style: JsonStyle) -> String {
    let layout = puzzle.layout();
    let (nl, ind) = match style {
        JsonStyle::Pretty => ("\n", "  "),
        JsonStyle::Compact => ("", ""),
    };
    let sp = if style == JsonStyle::Pretty { " " } else { "" };
    let entries: Vec<String> = layout
        .orbits()
        .iter()
        .zip(layout.pattern_orbits(pattern))
        .map(|(o, po)| {
            let mut s = format!(
                "{ind}{}:{sp}{{\"pieces\":{sp}{},{sp}\"orientation\":{sp}{}",
                quote(o.name()),
                numbers(po.pieces),
                numbers(po.orientation)
            );
            if let Some(m) = po.orientation_mod {
                s.push_str(&format!(",{sp}\"orientationMod\":{sp}{}", numbers(m)));
            }
            s.push('}');
            s
        })
        .collect();
    format!("{{{nl}{}{nl}}}", entries.join(&format!(",{nl}")))
}

fn write_transformation(layout: &Layout, t: &Transformation, ind: &str) -> String {
    let entries: Vec<String> = layout
        .orbits()
        .iter()
        .enumerate()
        .map(|(k, o)| {
            format!(
                "{ind}  {}: {{\"permutation\": {}, \"orientationDelta\": {}}}",
                quote(o.name()),
                numbers(layout.perm(t.as_bytes(), k).iter().copied()),
                numbers(layout.ori(t.as_bytes(), k).iter().copied())
            )
        })
        .collect();
    format!("{{\n{}\n{ind}}}", entries.join(",\n"))
}

/// Writes `puzzle` as KPuzzle JSON that reads back to the same puzzle.
pub fn write_kpuzzle(puzzle: &Puzzle) -> String {
    let layout = puzzle.layout();
    let mut s = String::from("{\n");
    s.push_str(&format!("  \"name\": {},\n", quote(puzzle.name())));
    let orbits: Vec<String> = layout
        .orbits()
        .iter()
        .map(|o| {
            format!(
                "    {{\"orbitName\": {}, \"numPieces\": {}, \"numOrientations\": {}}}",
                quote(o.name()),
                o.num_pieces(),
                o.num_orientations()
            )
        })
        .collect();
    s.push_str(&format!("  \"orbits\": [\n{}\n  ],\n", orbits.join(",\n")));
    let start = write_kpattern(puzzle, puzzle.start(), JsonStyle::Pretty)
        .replace("\n  ", "\n    ")
        .replace("\n}", "\n  }");
    s.push_str(&format!("  \"defaultPattern\": {start},\n"));
    let (base, derived): (Vec<&MoveDef>, Vec<&MoveDef>) = puzzle
        .moves()
        .iter()
        .partition(|m| matches!(m.kind, MoveKind::Base | MoveKind::Sequence));
    let moves: Vec<String> = base
        .iter()
        .map(|m| {
            format!(
                "    {}: {}",
                quote(&m.name),
                write_transformation(layout, &m.transformation, "    ")
            )
        })
        .collect();
    s.push_str(&format!("  \"moves\": {{\n{}\n  }}", moves.join(",\n")));
    if !derived.is_empty() {
        let d: Vec<String> = derived
            .iter()
            .map(|m| {
                format!(
                    "    {}: {}",
                    quote(&m.name),
                    quote(m.definition.as_deref().unwrap_or(""))
                )
            })
            .collect();
        s.push_str(&format!(
            ",\n  \"derivedMoves\": {{\n{}\n  }}",
            d.join(",\n")
        ));
    }
    if !puzzle.illegal().is_empty() {
        let il: Vec<String> = puzzle
            .illegal()
            .iter()
            .map(|i| {
                format!(
                    "    {{\"orbit\": {}, \"slot\": {}, \"pieces\": {}}}",
                    quote(layout.orbits()[i.orbit].name()),
                    i.slot,
                    numbers(i.pieces.iter().copied())
                )
            })
            .collect();
        s.push_str(&format!(
            ",\n  \"twistorIllegal\": [\n{}\n  ]",
            il.join(",\n")
        ));
    }
    s.push_str("\n}\n");
    s
}
