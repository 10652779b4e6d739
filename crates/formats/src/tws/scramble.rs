//! Scramble files: `Scramble NAME` position blocks and `ScrambleAlg NAME`
//! alg blocks, read against a puzzle and written from positions.

use twistor_core::{Pattern, Puzzle};

use super::block::{in_range, orientations, pattern_orbit, read_block, Cursor};
use super::writer::{sanitize, write_position};
use crate::alg::{Alg, AlgNode};
use crate::error::{At, ParseError, ParseErrorKind as K};
use crate::resolve::alg_transformation;

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
    let mut cur = Cursor::new(text);
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
                        pieces.push(in_range(at, r.line, orbit, "piece id", v, (1, n))? as u8);
                    }
                    let mut a = pieces.clone();
                    let mut b = start[k].pieces.clone();
                    a.sort_unstable();
                    b.sort_unstable();
                    if a != b {
                        return Err(at.err(
                            r.line,
                            K::PiecesDiffer {
                                orbit: orbit.name().to_string(),
                            },
                        ));
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
                        return Err(at.err(
                            line,
                            K::WildcardMismatch {
                                orbit: orbit.name().to_string(),
                            },
                        ));
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
                        return Err(at.err(
                            no,
                            K::UnexpectedEnd {
                                block: "ScrambleAlg".into(),
                            },
                        ));
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
                    // Lines stay so a comment ends with its line.
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
    Ok(out)
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
