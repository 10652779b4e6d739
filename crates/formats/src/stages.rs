//! Stage files: a plan for the staged solver, written the way twsearch
//! users chain partial targets, one stage after another.
//!
//! ```text
//! # A 4x4x4 in three stages
//! Stage centres
//! Pieces CENTERS
//!
//! Stage edges
//! Pieces EDGES
//!
//! Stage corners
//! Pieces CORNERS
//! Moves U D F B L R
//! ```
//!
//! Each `Stage NAME` starts a stage; `Pieces ORBIT [SLOTS]` adds the
//! pieces whose homes are the orbit's slots (1-based, as in `.tws` files:
//! `1 2 3`, `1-4`, `5-8 12`), all of them when none are listed, and may be
//! given more than once; `Moves NAME...` limits the stage to those moves
//! (a move's name takes all its powers, as `solve --moves` does).
//! Pieces are kept in place by every later stage; pieces no stage names
//! are placed by a last stage. Lines starting with `#` and blank lines are
//! ignored. Every error names the file, the line and the word.

use twistor_core::Puzzle;

use crate::error::{At, ParseError, ParseErrorKind};

/// One stage as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageText {
    /// Its name.
    pub name: String,
    /// Per `Pieces` line: the orbit (index) and its slots (0-based), or
    /// `None` for all of them.
    pub pieces: Vec<(usize, Option<Vec<usize>>)>,
    /// The moves (names as written), if limited.
    pub moves: Option<Vec<String>>,
    /// The line it starts on.
    pub line: usize,
}

/// Most stages a file may give.
pub const MAX_STAGES: usize = 1_000;

/// Reads a stage file for `puzzle` (orbit names and slot numbers are
/// checked against it; move names are left to the caller, who knows the
/// moves a search uses).
pub fn read_stages(text: &str, file: &str, puzzle: &Puzzle) -> Result<Vec<StageText>, ParseError> {
    let at = At { file };
    let layout = puzzle.layout();
    let mut stages: Vec<StageText> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("");
        let words: Vec<&str> = content.split_whitespace().collect();
        let Some(&command) = words.first() else {
            continue;
        };
        let column = |word: usize| {
            let start = words[word].as_ptr() as usize - raw.as_ptr() as usize;
            raw[..start].chars().count() + 1
        };
        match command {
            "Stage" => {
                if words.len() != 2 {
                    return Err(at.err(
                        line,
                        ParseErrorKind::TokenCount {
                            command: "Stage".into(),
                            expected: "a name",
                            found: words.len(),
                        },
                    ));
                }
                if stages.iter().any(|s| s.name == words[1]) {
                    return Err(at.err_col(
                        line,
                        column(1),
                        ParseErrorKind::RepeatedStage {
                            stage: words[1].into(),
                        },
                    ));
                }
                if stages.len() == MAX_STAGES {
                    return Err(at.err(line, ParseErrorKind::TooManyStages { limit: MAX_STAGES }));
                }
                stages.push(StageText {
                    name: words[1].to_string(),
                    pieces: Vec::new(),
                    moves: None,
                    line,
                });
            }
            "Pieces" | "Moves" => {
                let Some(stage) = stages.last_mut() else {
                    return Err(at.err(
                        line,
                        ParseErrorKind::WrongPlace {
                            command: command.into(),
                            reason: "it must follow a Stage line",
                        },
                    ));
                };
                if words.len() < 2 {
                    return Err(at.err(
                        line,
                        ParseErrorKind::TokenCount {
                            command: command.into(),
                            expected: if command == "Pieces" {
                                "an orbit, then slots if not all of them"
                            } else {
                                "at least one move"
                            },
                            found: words.len(),
                        },
                    ));
                }
                if command == "Moves" {
                    if stage.moves.is_some() {
                        return Err(at.err(
                            line,
                            ParseErrorKind::RepeatedStageMoves {
                                stage: stage.name.clone(),
                            },
                        ));
                    }
                    stage.moves = Some(words[1..].iter().map(|w| w.to_string()).collect());
                    continue;
                }
                let Some(k) = layout.orbit_index(words[1]) else {
                    return Err(at.err_col(
                        line,
                        column(1),
                        ParseErrorKind::UnknownOrbit {
                            orbit: words[1].into(),
                        },
                    ));
                };
                let n = layout.orbits()[k].num_pieces();
                let mut slots: Vec<usize> = Vec::new();
                for (w, word) in words.iter().enumerate().skip(2) {
                    let bad = |reason: String| {
                        at.err_col(
                            line,
                            column(w),
                            ParseErrorKind::BadNumber {
                                token: word.to_string(),
                                reason,
                            },
                        )
                    };
                    let (a, b) = match word.split_once('-') {
                        Some((a, b)) => (a, b),
                        None => (*word, *word),
                    };
                    let number = |s: &str| -> Result<usize, ParseError> {
                        let v: usize = s
                            .parse()
                            .map_err(|_| bad("not a slot number (1-based) or range".into()))?;
                        if v == 0 || v > n {
                            return Err(bad(format!("orbit {} has slots 1 to {n}", words[1])));
                        }
                        Ok(v - 1)
                    };
                    let (a, b) = (number(a)?, number(b)?);
                    if a > b {
                        return Err(bad("a range must run upwards".into()));
                    }
                    slots.extend(a..=b);
                }
                slots.sort_unstable();
                slots.dedup();
                stage.pieces.push((k, (!slots.is_empty()).then_some(slots)));
            }
            other => {
                return Err(at.err_col(
                    line,
                    column(0),
                    ParseErrorKind::UnknownCommand {
                        command: other.into(),
                    },
                ));
            }
        }
    }
    if stages.is_empty() {
        return Err(at.err(0, ParseErrorKind::NoStages));
    }
    if let Some(s) = stages.iter().find(|s| s.pieces.is_empty()) {
        return Err(at.err(
            s.line,
            ParseErrorKind::StageWithoutPieces {
                stage: s.name.clone(),
            },
        ));
    }
    Ok(stages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_puzzle;

    fn cube() -> Puzzle {
        let tws = "Name Two\nSet CORNERS 4 3\nSet EDGES 3 2\nSolved\nCORNERS\n1 2 3 4\n0 0 0 0\nEDGES\n1 2 3\n0 0 0\nEnd\n\
                   Move U\nCORNERS\n2 3 4 1\n0 0 0 0\nEnd\n";
        read_puzzle(tws, "two.tws").unwrap()
    }

    #[test]
    fn stages_read_with_their_pieces_and_moves() {
        let text = "# plan\nStage first\nPieces CORNERS 1-2 4\nMoves U\n\nStage rest\nPieces EDGES\nPieces CORNERS 3\n";
        let stages = read_stages(text, "plan.txt", &cube()).unwrap();
        assert_eq!(stages.len(), 2);
        assert_eq!(stages[0].pieces, vec![(0, Some(vec![0, 1, 3]))]);
        assert_eq!(stages[0].moves, Some(vec!["U".to_string()]));
        assert_eq!(stages[1].pieces, vec![(1, None), (0, Some(vec![2]))]);
        assert_eq!(stages[1].moves, None);
    }

    #[test]
    fn errors_name_the_line_and_the_word() {
        let p = cube();
        let err = |text: &str| read_stages(text, "plan.txt", &p).unwrap_err().to_string();
        assert_eq!(
            err("Stage a\nPieces WINGS\n"),
            "plan.txt:2:8: unknown orbit \"WINGS\""
        );
        assert!(err("Stage a\nPieces CORNERS 5\n").starts_with("plan.txt:2:16: bad number \"5\""));
        assert!(err("Stage a\nPieces CORNERS 3-1\n").contains("upwards"));
        assert!(err("Pieces CORNERS\n").starts_with("plan.txt:1: Pieces is not allowed here"));
        assert!(err("Stage a\nStage a\n").starts_with("plan.txt:2:7: stage a is given twice"));
        assert!(err("Stage a\n").contains("names no Pieces"));
        assert!(err("Stage a\nPices CORNERS\n").starts_with("plan.txt:2:1: unknown command"));
        assert!(err("").contains("no Stage line"));
    }
}
