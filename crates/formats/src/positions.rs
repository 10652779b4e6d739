//! Positions from any text another command writes, so commands pipe.
//!
//! `twistor random` writes a scramble file (or, with `--json`, one KPattern
//! a line), `twistor scramble` writes one alg a line, and a person types
//! algs. [`read_positions`] takes any of these and finds which by its first
//! meaningful line:
//!
//! - `Scramble NAME` / `ScrambleAlg NAME` blocks: a twsearch scramble file;
//! - a line starting with `{`: KPattern JSON, one object a line, or one
//!   object over the whole text;
//! - anything else: one alg a line (`#` and `//` lines are comments).
//!
//! Every entry is read on its own: a bad one is an error located at its
//! line, and the entries around it are still read, so a batch with one
//! typo still solves the rest.
//!
//! ```
//! use twistor_formats::positions::{read_positions, PositionBody};
//! # let puzzle = twistor_formats::read_puzzle(
//! #     "Set EDGES 2 2\nSolved\nEDGES\n1 2\n0 0\nEnd\nMove F\nEDGES\n2 1\n1 0\nEnd\n", "flip.tws").unwrap();
//! let entries = read_positions("F\nF F\nF (\n", "-", &puzzle);
//! assert_eq!(entries.len(), 3);
//! assert!(matches!(entries[0].body, Ok(PositionBody::Alg(_))));
//! assert_eq!(entries[2].line, 3);
//! assert!(entries[2].body.is_err());
//! ```

use twistor_core::{Pattern, Puzzle};

use crate::alg::Alg;
use crate::error::{ParseError, ParseErrorKind};
use crate::kpuzzle::parse_kpattern;
use crate::tws::{parse_scrambles, ScrambleBody};

/// One position read from a batch.
#[derive(Clone, Debug)]
pub struct PositionEntry {
    /// Its name: the scramble's name, or the alg's text.
    pub name: String,
    /// The 1-based line it starts on.
    pub line: usize,
    /// The position, or what is wrong with this entry.
    pub body: Result<PositionBody, ParseError>,
}

/// A position as given: the pattern itself, or an alg that reaches it.
#[derive(Clone, Debug)]
pub enum PositionBody {
    /// A position (a `Scramble` block or a KPattern).
    Pattern(Pattern),
    /// An alg applied to the start state (or the goal).
    Alg(Alg),
}

/// Which kind of text [`read_positions`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionFormat {
    /// A twsearch scramble file.
    ScrambleFile,
    /// KPattern JSON.
    KPatternJson,
    /// One alg a line.
    AlgLines,
}

/// The text without a leading UTF-8 byte-order mark (which editors on
/// Windows write and which is not part of any format).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn is_comment(line: &str) -> bool {
    line.starts_with('#') || line.starts_with("//")
}

/// The format of `text`, judged by its first line that is neither blank
/// nor a comment.
pub fn detect(text: &str) -> PositionFormat {
    let first = strip_bom(text)
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !is_comment(l))
        .unwrap_or("");
    let word = first.split_whitespace().next().unwrap_or("");
    if word == "Scramble" || word == "ScrambleAlg" {
        PositionFormat::ScrambleFile
    } else if first.starts_with('{') {
        PositionFormat::KPatternJson
    } else {
        PositionFormat::AlgLines
    }
}

/// Reads every position in `text` (named `file` in errors) for `puzzle`.
pub fn read_positions(text: &str, file: &str, puzzle: &Puzzle) -> Vec<PositionEntry> {
    let text = strip_bom(text);
    match detect(text) {
        PositionFormat::ScrambleFile => scramble_blocks(text, file, puzzle),
        PositionFormat::KPatternJson => kpatterns(text, file, puzzle),
        PositionFormat::AlgLines => alg_lines(text, file),
    }
}

fn alg_lines(text: &str, file: &str) -> Vec<PositionEntry> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || is_comment(line) {
            continue;
        }
        let body = Alg::parse(line)
            .map(PositionBody::Alg)
            .map_err(|e| ParseError {
                file: file.to_string(),
                line: i + 1,
                column: None,
                kind: ParseErrorKind::BadAlg {
                    name: short(line),
                    source: e,
                },
            });
        out.push(PositionEntry {
            name: line.to_string(),
            line: i + 1,
            body,
        });
    }
    out
}

/// A prefix of an entry for messages.
fn short(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

fn kpatterns(text: &str, file: &str, puzzle: &Puzzle) -> Vec<PositionEntry> {
    // One object over the whole text (pretty-printed), if it is one.
    if let Ok(p) = parse_kpattern(text, file, puzzle) {
        return vec![PositionEntry {
            name: "pattern-1".to_string(),
            line: 1,
            body: Ok(PositionBody::Pattern(p)),
        }];
    }
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || is_comment(line) {
            continue;
        }
        let body = parse_kpattern(line, file, puzzle)
            .map(PositionBody::Pattern)
            .map_err(|mut e| {
                e.line = i + 1;
                e
            });
        out.push(PositionEntry {
            name: format!("pattern-{}", out.len() + 1),
            line: i + 1,
            body,
        });
    }
    out
}

fn scramble_blocks(text: &str, file: &str, puzzle: &Puzzle) -> Vec<PositionEntry> {
    // Split before each block's header so one bad block costs only itself.
    let lines: Vec<&str> = text.split('\n').collect();
    let mut starts: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            let w = l.split_whitespace().next().unwrap_or("");
            w == "Scramble" || w == "ScrambleAlg"
        })
        .map(|(i, _)| i)
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    let mut out = Vec::new();
    for (k, &from) in starts.iter().enumerate() {
        let to = starts.get(k + 1).copied().unwrap_or(lines.len());
        let block = lines[from..to].join("\n");
        let fix = |mut e: ParseError| {
            if e.line > 0 {
                e.line += from;
            }
            e
        };
        let header: Vec<&str> = lines[from].split_whitespace().collect();
        let name = header.get(1).map_or_else(
            || format!("scramble-{}", out.len() + 1),
            |s| (*s).to_string(),
        );
        match parse_scrambles(&block, file, puzzle) {
            Ok(scrambles) => {
                for s in scrambles {
                    out.push(PositionEntry {
                        name: s.name,
                        line: s.line + from,
                        body: Ok(match s.body {
                            ScrambleBody::Pattern(p) => PositionBody::Pattern(p),
                            ScrambleBody::Alg(a) => PositionBody::Alg(a),
                        }),
                    });
                }
            }
            Err(e) => out.push(PositionEntry {
                name,
                line: from + 1,
                body: Err(fix(e)),
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flip() -> Puzzle {
        crate::read_puzzle(
            "Set EDGES 2 2\nSolved\nEDGES\n1 2\n0 0\nEnd\nMove F\nEDGES\n2 1\n1 0\nEnd\n",
            "flip.tws",
        )
        .unwrap()
    }

    #[test]
    fn a_bad_scramble_block_costs_only_itself() {
        let text = "\u{feff}Scramble a\nEDGES\n2 1\n1 0\nEnd\n\nScramble b\nEDGES\n3 1\n0 0\nEnd\nScrambleAlg c\nF F\nEnd\n";
        let e = read_positions(text, "s.scr", &flip());
        assert_eq!(e.len(), 3);
        assert!(e[0].body.is_ok());
        let err = e[1].body.as_ref().unwrap_err();
        assert_eq!((err.line, e[1].name.as_str()), (9, "b"));
        assert_eq!((e[2].name.as_str(), e[2].line), ("c", 12));
        assert!(matches!(e[2].body, Ok(PositionBody::Alg(_))));
    }

    #[test]
    fn kpattern_lines_and_a_whole_object() {
        let p = flip();
        let one = r#"{"EDGES": {"pieces": [1, 0], "orientation": [1, 0]}}"#;
        let lines = format!("{one}\n{{\"EDGES\": 3}}\n{one}\n");
        let e = read_positions(&lines, "-", &p);
        assert_eq!(e.len(), 3);
        assert!(e[0].body.is_ok() && e[2].body.is_ok());
        assert_eq!(e[1].body.as_ref().unwrap_err().line, 2);
        let pretty = "{\n  \"EDGES\": {\"pieces\": [1, 0],\n  \"orientation\": [1, 0]}\n}\n";
        assert_eq!(read_positions(pretty, "-", &p).len(), 1);
    }

    #[test]
    fn detection_skips_comments() {
        assert_eq!(detect("# x\n\nR U\n"), PositionFormat::AlgLines);
        assert_eq!(
            detect("// c\nScrambleAlg x\n"),
            PositionFormat::ScrambleFile
        );
        assert_eq!(detect("\u{feff}{\"A\":1}"), PositionFormat::KPatternJson);
    }
}
