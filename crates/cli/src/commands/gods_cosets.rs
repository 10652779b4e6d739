//! `twistor gods --subgroup`: God's algorithm one coset at a time, with
//! results files that runs on other machines append to and `--merge`
//! adds up.

use std::io::Write;

use serde_json::{json, Value};
use twistor_core::Puzzle;
use twistor_search::gods::{merge_cosets, CosetSpace};
use twistor_search::{Metric, MoveSet};

use super::gods::GodsArgs;
use crate::error::{CliError, CliResult};

/// Runs a coset enumeration, or merges results files.
pub(super) fn run(
    args: &GodsArgs,
    puzzle: &Puzzle,
    moves: &MoveSet,
    subgroup: &str,
    metric: Metric,
) -> CliResult {
    let names: Vec<String> = subgroup
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    let sub = MoveSet::named(puzzle, &names, metric)
        .map_err(|e| CliError::input(format!("--subgroup: {e}")))?;
    let space = CosetSpace::new(puzzle, moves, &sub).map_err(CliError::input)?;
    let classes = space.classes();
    note!(
        "{} cosets of {} positions; {} classes under {} symmetries",
        space.cosets(),
        space.subgroup_order(),
        classes.len(),
        space.symmetries()
    );
    let tag = format!(
        "{} <{}> / <{subgroup}>",
        puzzle.name(),
        args.moves.as_deref().unwrap_or("all")
    );
    let solved: Vec<(usize, u64, Vec<u64>)> = if !args.merge.is_empty() {
        read_results(&args.merge, &tag, classes.len())?
    } else {
        let chosen: Vec<usize> = match &args.cosets {
            None => (0..classes.len()).collect(),
            Some(list) => list
                .split(',')
                .map(|s| {
                    s.trim()
                        .parse::<usize>()
                        .ok()
                        .filter(|&i| i < classes.len())
                        .ok_or_else(|| {
                            CliError::input(format!(
                                "--cosets: `{s}` is not a class number below {}",
                                classes.len()
                            ))
                        })
                })
                .collect::<Result<_, _>>()?,
        };
        let mut file = match &args.results {
            Some(p) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .map_err(|e| CliError::input(format!("--results {}: {e}", p.display())))?,
            ),
            None => None,
        };
        let mut out = Vec::new();
        for &i in &chosen {
            let c = &classes[i];
            let r = space.solve(c.id).map_err(CliError::failure)?;
            note!(
                "class {i} (coset {}, weight {}, {} from the subgroup): {:?} in {:.3} s",
                c.id,
                c.weight,
                c.phase1_distance,
                r.counts,
                r.seconds
            );
            if let (Some(f), Some(path)) = (file.as_mut(), &args.results) {
                let line = json!({"run": tag, "class": i, "coset": c.id, "weight": c.weight,
                    "counts": r.counts, "phase1_solutions": r.phase1_solutions, "seconds": r.seconds});
                writeln!(f, "{line}")
                    .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
            }
            out.push((i, c.weight, r.counts));
        }
        out
    };
    let complete = solved.len() == classes.len();
    let merged = merge_cosets(solved.iter().map(|(_, w, c)| (*w, c.as_slice())));
    let total: u64 = merged.iter().sum();
    if args.json {
        outln!(
            "{}",
            json!({"distribution": merged, "total": total, "engine": "cosets",
                "cosets": space.cosets(), "classes": classes.len(), "solved": solved.len(), "complete": complete})
        );
        return Ok(());
    }
    outln!("{:>5} {:>16}", "depth", "positions");
    for (d, c) in merged.iter().enumerate() {
        outln!("{d:>5} {c:>16}");
    }
    outln!("{:>5} {:>16}", "total", total);
    if !complete {
        outln!(
            "{} of {} classes solved: the counts are those cosets' only",
            solved.len(),
            classes.len()
        );
    }
    Ok(())
}

/// The solved classes of the results files, each once.
fn read_results(
    paths: &[std::path::PathBuf],
    tag: &str,
    classes: usize,
) -> Result<Vec<(usize, u64, Vec<u64>)>, CliError> {
    let mut seen = vec![None; classes];
    for path in paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::input(format!("--merge {}: {e}", path.display())))?;
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let bad = |why: &str| CliError::input(format!("{}:{}: {why}", path.display(), n + 1));
            let v: Value = serde_json::from_str(line).map_err(|e| bad(&e.to_string()))?;
            if v["run"] != json!(tag) {
                return Err(bad(&format!("a coset of {}, not of {tag}", v["run"])));
            }
            let class = v["class"]
                .as_u64()
                .map(|c| c as usize)
                .filter(|&c| c < classes)
                .ok_or_else(|| bad("no class number of this run"))?;
            let weight = v["weight"].as_u64().ok_or_else(|| bad("no weight"))?;
            let counts: Vec<u64> = v["counts"]
                .as_array()
                .and_then(|a| a.iter().map(Value::as_u64).collect())
                .ok_or_else(|| bad("no counts"))?;
            match &seen[class] {
                Some((w, c)) if (*w, c) != (weight, &counts) => {
                    return Err(bad(&format!("class {class} again, with other counts")))
                }
                _ => seen[class] = Some((weight, counts)),
            }
        }
    }
    let missing = seen.iter().filter(|s| s.is_none()).count();
    if missing > 0 {
        note!("{missing} of {classes} classes are in no results file");
    }
    Ok(seen
        .into_iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|(w, c)| (i, w, c)))
        .collect())
}
