//! Writing `.tws` puzzle definitions and the position blocks that
//! definitions and scramble files share.

use twistor_core::{Layout, MoveKind, Puzzle};

use crate::alg::Alg;
use crate::error::{ParseError, ParseErrorKind as K, UnsupportedReason};

/// Writes `puzzle` as a `.tws` definition that reads back to the same
/// puzzle. Orientation moduli other than wildcards cannot be written.
pub fn write_tws(puzzle: &Puzzle) -> Result<String, ParseError> {
    let layout = puzzle.layout();
    for o in layout.orbits() {
        tws_word(o.name(), true)?;
    }
    for mv in puzzle.moves() {
        tws_word(&mv.name, false)?;
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
            return Err(unsupported(UnsupportedReason::MixedWildcards {
                orbit: o.name().into(),
            }));
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
pub(super) fn write_position(
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
                    return Err(unsupported(UnsupportedReason::OrientationMod {
                        position: what.into(),
                        orbit: o.name().into(),
                        modulus: m,
                    }));
                }
            }
        }
        s.push_str(&words.join(" "));
        s.push('\n');
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
fn tws_word(name: &str, orbit: bool) -> Result<(), ParseError> {
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
    let name = name.to_string();
    Err(unsupported(if orbit {
        UnsupportedReason::OrbitName { name }
    } else {
        UnsupportedReason::MoveName { name }
    }))
}

pub(super) fn sanitize(name: &str) -> String {
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

/// What a `.tws` text cannot express: an error of no file or line (the
/// writer's input is a model, not a text).
fn unsupported(reason: UnsupportedReason) -> ParseError {
    ParseError {
        file: String::new(),
        line: 0,
        column: None,
        kind: K::Unsupported { reason },
    }
}
