//! `twistor gods --subgroup`: God's algorithm one coset at a time, with
//! results files that runs on other machines append to and `--merge`
//! adds up.

use std::io::Write;

use serde_json::{json, Value};
use twistor_core::Puzzle;
use twistor_search::gods::{merge_cosets, CosetSpace, GodsError};
use twistor_search::{Metric, MoveSet};

use twistor_cube333::{CosetEvent, CosetId, CosetOptions, CosetSolver, COSET_COUNT, COSET_SIZE};
use twistor_tools::cosets::{coset_engine, CosetEngine};

use super::gods::GodsArgs;
use crate::error::{CliError, CliResult};
use crate::moves::listed_move_set;

/// Runs a coset enumeration, or merges results files.
pub(super) fn run(
    args: &GodsArgs,
    puzzle: &Puzzle,
    moves: &MoveSet,
    subgroup: &str,
    metric: Metric,
) -> CliResult {
    let sub = listed_move_set(puzzle, "--subgroup", Some(subgroup), metric)?;
    if let CosetEngine::Cube333 = coset_engine(puzzle, moves, &sub) {
        return run_cube(args, subgroup);
    }
    if args.sample.is_some() || args.phase1_depth.is_some() {
        return Err(CliError::input(
            "--sample and --phase1-depth are for the 3x3x3's cosets of <U,D,R2,L2,F2,B2>",
        ));
    }
    // The engine says "the subgroup"; here it is the flag's.
    let space = CosetSpace::new(puzzle, moves, &sub).map_err(|e| match e {
        GodsError::Subgroup { reason } => CliError::input(format!("--subgroup: {reason}")),
        e => CliError::input(e),
    })?;
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
        let mut file = open_results(args)?;
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

/// The 3x3x3's cosets of `<U, D, R2, L2, F2, B2>`, by its own solver: one
/// coset a time, each reported on stderr depth by depth.
fn run_cube(args: &GodsArgs, subgroup: &str) -> CliResult {
    if !args.merge.is_empty() {
        return Err(CliError::input(
            "--merge: the 3x3x3 has 2,217,093,120 cosets; merging a whole run is for the generic engine",
        ));
    }
    let chosen: Vec<CosetId> = match (&args.cosets, args.sample) {
        (Some(list), _) => list
            .split(',')
            .map(|s| {
                s.trim()
                    .parse::<u64>()
                    .ok()
                    .and_then(|i| CosetId::from_index(i).ok())
                    .ok_or_else(|| {
                        CliError::input(format!(
                            "--cosets: `{s}` is not a coset number below {COSET_COUNT}"
                        ))
                    })
            })
            .collect::<Result<_, _>>()?,
        (None, Some(n)) => {
            let mut rng = twistor_core::random::SeededRng::new(args.seed);
            (0..n).map(|_| CosetId::random(|| rng.next_u64())).collect()
        }
        (None, None) => {
            return Err(CliError::input(format!(
                "the 3x3x3 has {COSET_COUNT} cosets of <{subgroup}>: choose some with --cosets I,J or --sample N"
            )))
        }
    };
    let mut options = CosetOptions {
        memory_limit: crate::machine::exact_memory(args.memory),
        ..CosetOptions::default()
    };
    if let Some(k) = args.phase1_depth {
        if k > 20 {
            return Err(CliError::input("--phase1-depth: at most 20"));
        }
        options.phase1_depth = k;
    }
    let store = crate::cache::CacheArgs::default().store()?;
    let solver = CosetSolver::load(&*store, &mut |_| {});
    let mut file = open_results(args)?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut reports = Vec::new();
    for id in chosen {
        let (canonical, _) = id.canonical();
        note!(
            "coset {} ({id}; canonical {}, {} in its class), phase-1 depth {}",
            id.index(),
            canonical.index(),
            id.class_size(),
            options.phase1_depth
        );
        let mut progress = |e: CosetEvent| match e {
            CosetEvent::Dense { depth, bytes } => {
                note!(
                    "  dense sets from depth {depth}: {:.2} GB",
                    bytes as f64 / 1e9
                )
            }
            CosetEvent::Depth(d) => note!(
                "  depth {:>2}: {:>12} positions{}, {:>12} phase-1 solutions, {:.2} s",
                d.depth,
                d.count,
                if d.exact { "" } else { " (at most this far)" },
                d.phase1_leaves,
                d.seconds
            ),
        };
        let r = solver
            .solve(&id.representative(), &options, &mut progress, &stop)
            .map_err(|e| {
                CliError::input(format!("{e} (the dense sets need about 6.6 GB: -M 8192)"))
            })?;
        note!(
            "  {:.1} s; exact through depth {}; {} of {COSET_SIZE} positions not placed within {} moves",
            r.total_seconds,
            r.exact_through.map_or("-".to_string(), |d| d.to_string()),
            r.remaining,
            options.max_depth
        );
        let line = json!({"run": "3x3x3 / <U,D,R2,L2,F2,B2>", "coset": id.index(),
            "canonical": canonical.index(), "weight": id.class_size(), "counts": r.counts,
            "exact_through": r.exact_through, "remaining": r.remaining,
            "phase1_depth": options.phase1_depth, "seconds": r.total_seconds});
        if let (Some(f), Some(path)) = (file.as_mut(), &args.results) {
            writeln!(f, "{line}")
                .map_err(|e| CliError::failure(format!("{}: {e}", path.display())))?;
        }
        reports.push(line);
    }
    if args.json {
        outln!("{}", json!({"engine": "cube333 cosets", "cosets": reports}));
        return Ok(());
    }
    for r in &reports {
        outln!("coset {}:", r["coset"]);
        outln!("{:>5} {:>16}", "depth", "positions");
        let exact = r["exact_through"].as_u64();
        for (d, c) in r["counts"].as_array().into_iter().flatten().enumerate() {
            let mark = if exact.is_some_and(|e| d as u64 <= e) {
                ""
            } else {
                "  (at most)"
            };
            outln!("{d:>5} {:>16}{mark}", c.as_u64().unwrap_or_default());
        }
        outln!(
            "{:>5} {:>16} not placed",
            ">20",
            r["remaining"].as_u64().unwrap_or_default()
        );
    }
    Ok(())
}

fn open_results(args: &GodsArgs) -> Result<Option<std::fs::File>, CliError> {
    match &args.results {
        Some(p) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
            .map(Some)
            .map_err(|e| CliError::input(format!("--results {}: {e}", p.display()))),
        None => Ok(None),
    }
}
