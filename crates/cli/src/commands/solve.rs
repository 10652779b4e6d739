//! `twistor solve`: optimal solutions of positions.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use serde_json::json;
use twistor_core::{Pattern, Puzzle, StabilizerChain};
use twistor_formats::alg::Alg;
use twistor_formats::positions::{read_positions, PositionBody};
use twistor_formats::resolve::alg_transformation;
use twistor_search::{
    Metric, SaveGrown, SearchProgress, SolutionCount, SolveOptions, Solver, SolverOptions,
    TableEvent,
};
use twistor_tools::analysis::{reachability, Reachability};
use twistor_tools::rotations::WholeRotations;

use twistor_cube333::recognize::CubeCorrespondence;

use crate::cache::{report_table_event, CacheArgs};
use crate::error::{CliError, CliResult};
use crate::load::{parse_alg, read_text, shorten};
use crate::moves::{move_set, MoveSubset};
use crate::progress::Progress;
use crate::puzzle_source::PuzzleSource;
use crate::target::load_goal;

/// Arguments of `twistor solve`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  twistor solve 3x3x3.tws --alg \"R U R' U' R' F R2 U' R' U' R U R' F'\"\n  twistor solve 2x2x2.tws random-2x2x2.scr --json\n  echo \"R U F\" | twistor solve 2x2x2.tws --moves U,F,R -n 3"
)]
pub struct SolveArgs {
    #[command(flatten)]
    source: PuzzleSource,
    /// A scramble file (`Scramble` and `ScrambleAlg` blocks); algs are read
    /// from standard input, one a line, if neither this nor --alg is given.
    scramble_file: Option<String>,
    /// Solve the position this alg reaches.
    #[arg(long)]
    alg: Option<String>,
    #[command(flatten)]
    moves: MoveSubset,
    /// Count moves in the quarter-turn metric.
    #[arg(long)]
    qtm: bool,
    /// How many solutions to print (shortest first, then in move order).
    #[arg(short = 'n', long = "count", short_alias = 'c', default_value_t = 1)]
    count: usize,
    /// Print every solution of the optimal length.
    #[arg(long)]
    all_optimal: bool,
    /// Shortest solution length to look for.
    #[arg(long, default_value_t = 0)]
    min_depth: u32,
    /// Longest solution length to look for.
    #[arg(long, default_value_t = 40)]
    max_depth: u32,
    /// Threads (default: all cores).
    #[arg(short = 't', long)]
    threads: Option<usize>,
    /// Memory for pruning tables, in MiB.
    #[arg(short = 'M', long = "memory", default_value_t = 256)]
    memory: u64,
    /// Solve to this target instead of the start state: a KPattern JSON file
    /// or a .tws file with one Scramble block. Identical pieces, `?`
    /// orientations and orientationMod make a partial goal.
    #[arg(long)]
    target: Option<String>,
    #[command(flatten)]
    cache: CacheArgs,
    /// Report each search depth, and the tables after each position, on stderr.
    #[arg(short, long)]
    verbose: bool,
    /// Do not reduce the hashed table by the puzzle's rotations (those that
    /// keep the goal and map the moves to moves), which it otherwise is
    /// when memory rather than fill time limits it.
    #[arg(long)]
    no_symmetry: bool,
    /// Use the generic search even for a definition recognised as the 3x3x3
    /// (which otherwise goes to the dedicated optimal solver when one
    /// solution is asked for).
    #[arg(long)]
    generic: bool,
    /// Count positions that differ by a whole-puzzle rotation as one: find
    /// the shortest way to the goal in any orientation the puzzle can be
    /// held in, and write it as the rotation then the moves (`y R U'`).
    /// Off by default: a position is solved as it is held, as twsearch and
    /// cubing.js do. Named puzzles carry their rotations; files need
    /// rotation moves (`x`, `Uv`).
    #[arg(long)]
    up_to_rotation: bool,
    /// Print one JSON object a line: `{"solutions": [...], "length": n}`.
    #[arg(long)]
    json: bool,
}

/// Seconds the generic search gets, over all positions, on a definition
/// recognised as the 3x3x3 before the dedicated solver builds its tables
/// (which takes about 5 s on two cores).
const GENERIC_FIRST_SECS: f64 = 3.0;

/// Runs `twistor solve`.
pub fn run(args: SolveArgs) -> CliResult {
    let puzzle = args.source.load_in_notation()?;
    if args.count == 0 && !args.all_optimal {
        return Err(CliError::input("-n/--count: at least 1"));
    }
    if args.max_depth > 100 || args.min_depth > args.max_depth {
        return Err(CliError::input(
            "--min-depth/--max-depth: need min <= max <= 100",
        ));
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 || threads > 256 {
        return Err(CliError::input("-t: between 1 and 256 threads"));
    }
    let metric = if args.qtm { Metric::Qtm } else { Metric::Htm };
    let moves = move_set(&puzzle, &args.moves, metric)?;
    let goal = load_goal(&puzzle, args.target.as_deref())?;
    let (positions, unreadable) = positions(&puzzle, &goal, &args)?;
    let one_solution =
        args.count == 1 && !args.all_optimal && args.min_depth == 0 && args.target.is_none();
    let grips: Vec<usize> = moves.grips().iter().map(|g| g.puzzle_move).collect();
    let whole_turns = metric == Metric::Htm && moves.grips().iter().all(|g| g.step == 1);
    let mut recognised = None;
    if one_solution && whole_turns && !args.generic && !args.up_to_rotation {
        if let Some(corr) = CubeCorrespondence::find(&puzzle, &grips) {
            if crate::commands::cube333::recognised_tables_cached(&args.cache, args.memory) {
                return crate::commands::cube333::solve_recognised(
                    &puzzle,
                    &corr,
                    &positions,
                    &args.cache,
                    args.memory,
                    args.json,
                    args.max_depth,
                )
                .and_then(|()| batch_result(unreadable));
            }
            // Building the dedicated solver's tables takes seconds; the
            // generic search, growing its tables as it goes, solves short
            // positions sooner. It gets that long, then the rest go to
            // the dedicated solver (at most twice the better of the two).
            note!(
                "3x3x3 recognised; the dedicated solver's tables are not cached: \
                 trying the generic search for up to {GENERIC_FIRST_SECS} s first"
            );
            recognised = Some(corr);
        }
    }
    let mut generic_budget = recognised.as_ref().map(|_| GENERIC_FIRST_SECS);

    let stop = AtomicBool::new(false);
    let mut bar = Progress::stderr();
    let t0 = Instant::now();
    let options = SolverOptions {
        memory_bytes: args.memory.saturating_mul(1 << 20),
        threads,
        store: args.cache.store()?,
        symmetry: !args.no_symmetry,
    };
    let written_to = args.cache.written_to();
    let mut solver = Solver::new(
        &puzzle,
        moves,
        goal.pattern.clone(),
        &options,
        &stop,
        &mut |e: TableEvent| report_table_event(&mut bar, written_to.as_deref(), e),
    )
    .map_err(CliError::failure)?;
    bar.finish();
    let table_bytes: u64 = solver.tables().iter().map(|t| t.bytes()).sum::<u64>()
        + solver.hashed().map_or(0, |h| h.bytes());
    let hashed = solver.hashed().map(|h| {
        let symmetry = h.symmetry().map_or(String::new(), |s| {
            format!(", least conjugates under {} rotations", s.group().order())
        });
        format!("; hashed positions within {}{symmetry}", h.depth())
    });
    note!(
        "tables: {} ({:.1} MiB) in {:.2} s{}{}",
        solver.tables().len(),
        table_bytes as f64 / (1 << 20) as f64,
        t0.elapsed().as_secs_f64(),
        solver
            .tables()
            .iter()
            .map(|t| format!("; {} mean {:.2}", t.projection().description(), t.mean()))
            .collect::<String>(),
        hashed.unwrap_or_default()
    );

    let solve_options = SolveOptions {
        count: if args.all_optimal {
            SolutionCount::AllOptimal
        } else {
            SolutionCount::First(args.count)
        },
        min_depth: args.min_depth,
        max_depth: args.max_depth,
        threads,
    };
    // Positions the moves cannot reach are told apart before searching
    // (a search would run to --max-depth and find nothing).
    // Sifting decides only for a goal of distinct pieces: the group is not
    // built for a goal it cannot help with (alike centres, partial goals).
    let chain = puzzle
        .layout()
        .transformation_of(&goal.pattern)
        .map(|_| reachability_chain(&puzzle, &grips, &solver));
    let reach = |position: &Pattern| match &chain {
        Some(c) => reachability(puzzle.layout(), c, &goal.pattern, position),
        None => Reachability::Unknown,
    };
    let rotations = if args.up_to_rotation {
        let group = WholeRotations::of(&puzzle).map_err(CliError::input)?;
        if group.is_empty() {
            return Err(CliError::input(format!(
                "--up-to-rotation: {} has no whole-puzzle rotations",
                args.source.puzzle
            )));
        }
        Some(group)
    } else {
        None
    };
    let mut unsolved = 0;
    for (i, (name, start)) in positions.iter().enumerate() {
        let label = name.as_deref().unwrap_or("position");
        if rotations.is_none() {
            match reach(start) {
                Reachability::Unreachable => {
                    unsolved += 1;
                    unreachable_line(label, name, args.json, false);
                    continue;
                }
                Reachability::Unknown if !puzzle.rotations().is_empty() => note!(
                    "{label}: with pieces alike, whether the moves reach this position is not \
                     known before searching; if it is the puzzle held differently, \
                     --up-to-rotation solves it"
                ),
                _ => {}
            }
        }
        let t1 = Instant::now();
        // Each orientation the puzzle may be held in is a start of its own
        // (--up-to-rotation); the shortest answer wins, the identity first.
        let candidates: Vec<(&str, Pattern)> = match &rotations {
            None => vec![("", start.clone())],
            Some(group) => group
                .iter()
                .map(|r| {
                    (
                        r.name.as_str(),
                        puzzle.layout().apply(start, &r.transformation),
                    )
                })
                .filter(|(_, p)| reach(p) != Reachability::Unreachable)
                .collect(),
        };
        // One search over the whole depth range; with --up-to-rotation the
        // orientations are searched depth by depth in turn, so the first
        // answer is the shortest over all of them, and an orientation the
        // moves cannot reach (which sifting cannot always tell when pieces
        // are alike) never holds the others up.
        let attempts: Vec<(usize, SolveOptions)> = match &rotations {
            None => vec![(0, solve_options.clone())],
            Some(_) => (args.min_depth..=args.max_depth)
                .flat_map(|d| {
                    let one_depth = SolveOptions {
                        min_depth: d,
                        max_depth: d,
                        ..solve_options.clone()
                    };
                    (0..candidates.len()).map(move |c| (c, one_depth.clone()))
                })
                .collect(),
        };
        let mut best: Option<(&str, twistor_search::SolveReport)> = None;
        let mut bar = Progress::stderr();
        for (c, options) in &attempts {
            let (rotation, start) = &candidates[*c];
            let stop = AtomicBool::new(false);
            let report = std::thread::scope(|scope| {
                // Within the generic search's budget, if it has one.
                let (done, wait) = std::sync::mpsc::channel::<()>();
                if let Some(secs) = generic_budget {
                    let stop = &stop;
                    scope.spawn(move || {
                        let limit = Duration::from_secs_f64(secs.max(0.0));
                        if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(limit) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    });
                }
                let report = solver.solve(start, options, &stop, &mut |p: &SearchProgress| {
                    let secs = t1.elapsed().as_secs_f64().max(1e-9);
                    bar.message(&format!(
                        "{label}: depth {} searched, {} nodes ({:.1} M/s)",
                        p.depth,
                        p.nodes,
                        p.nodes as f64 / secs / 1e6
                    ));
                    if args.verbose {
                        note!(
                            "  depth {:2} done: {:>14} nodes, {:8.2} s",
                            p.depth,
                            p.nodes,
                            t1.elapsed().as_secs_f64()
                        );
                    }
                });
                drop(done);
                report
            });
            let found = !report.solutions.is_empty() || report.stopped;
            best = Some((rotation, report));
            if found {
                break;
            }
        }
        let Some((rotation, report)) = best else {
            unreachable_line(label, name, args.json, true);
            unsolved += 1;
            continue;
        };
        bar.finish();
        let secs = t1.elapsed().as_secs_f64();
        if let (Some(budget), Some(corr)) = (&mut generic_budget, &recognised) {
            *budget -= secs;
            if report.stopped {
                note!(
                    "{}: not solved by the generic search in its time; \
                     the dedicated solver takes this and the rest",
                    name.as_deref().unwrap_or("position")
                );
                solver.save_grown_tables(SaveGrown::All, &mut |e| {
                    report_table_event(&mut bar, written_to.as_deref(), e)
                });
                drop(solver);
                return crate::commands::cube333::solve_recognised(
                    &puzzle,
                    corr,
                    &positions[i..],
                    &args.cache,
                    args.memory,
                    args.json,
                    args.max_depth,
                )
                .and_then(|()| batch_result(unreadable));
            }
        }
        if args.verbose {
            // The tables grow while searching: say what they became.
            let tables: String = solver
                .tables()
                .iter()
                .map(|t| format!(" {} mean {:.2};", t.projection().description(), t.mean()))
                .collect();
            let hashed = solver
                .hashed()
                .map_or(String::new(), |h| format!(" hashed within {}", h.depth()));
            note!("  tables now:{tables}{hashed}");
        }
        let sols: Vec<String> = report
            .solutions
            .iter()
            .map(|s| {
                let moves = solver.names(s).join(" ");
                match (rotation.is_empty(), moves.is_empty()) {
                    (true, _) => moves,
                    (false, true) => rotation.to_string(),
                    (false, false) => format!("{rotation} {moves}"),
                }
            })
            .collect();
        let length = report.solutions.first().map(|s| s.len());
        note!(
            "{}: {} solution(s){} in {:.3} s, {} nodes ({:.1} M/s)",
            name.as_deref().unwrap_or("position"),
            sols.len(),
            length
                .map(|l| format!(" of length {l}"))
                .unwrap_or_default(),
            secs,
            report.nodes,
            report.nodes as f64 / secs.max(1e-9) / 1e6
        );
        if args.json {
            let mut v = json!({ "solutions": sols, "length": length });
            if let Some(n) = name {
                v["name"] = json!(n);
            }
            outln!("{v}");
        } else {
            if sols.is_empty() {
                outln!("# no solution up to {} moves", args.max_depth);
            }
            for s in &sols {
                outln!("{s}");
            }
        }
        if sols.is_empty() {
            unsolved += 1;
        }
        // Tables that grew much are kept at once: a batch stopped later
        // keeps them.
        solver.save_grown_tables(SaveGrown::WhenWorthIt, &mut |e| {
            report_table_event(&mut bar, written_to.as_deref(), e)
        });
    }
    solver.save_grown_tables(SaveGrown::All, &mut |e| {
        report_table_event(&mut bar, written_to.as_deref(), e)
    });
    batch_result(unreadable)?;
    if unsolved > 0 {
        return Err(CliError::failure(format!(
            "{unsolved} position(s) not solved (unreachable, or no solution within --max-depth {})",
            args.max_depth
        )));
    }
    Ok(())
}

/// The group the search moves generate, for telling unreachable positions
/// apart (built over every piece as distinguishable).
fn reachability_chain(puzzle: &Puzzle, grips: &[usize], solver: &Solver) -> StabilizerChain {
    let steps = solver.moves().grips();
    if steps.iter().all(|g| g.step == 1) {
        return puzzle.group(grips);
    }
    let layout = puzzle.layout();
    let gens: Vec<Vec<u16>> = steps
        .iter()
        .map(|g| layout.to_points(g.transformation.as_bytes()))
        .collect();
    StabilizerChain::new(layout.num_points(), &gens)
}

/// Reports a position no sequence of the search moves reaches (in any
/// orientation, with `--up-to-rotation`).
fn unreachable_line(label: &str, name: &Option<String>, json: bool, any_rotation: bool) {
    let how = if any_rotation {
        "in any orientation"
    } else {
        "(--up-to-rotation also tries every orientation the puzzle can be held in)"
    };
    note!("{label}: unreachable: no sequence of the search moves reaches it {how}");
    if json {
        let mut v = json!({ "solutions": [], "length": null, "unreachable": true });
        if let Some(n) = name {
            v["name"] = json!(n);
        }
        outln!("{v}");
    } else {
        outln!("# unreachable with these moves");
    }
}

/// Exit code 2 at the end of a batch in which some entries could not be read.
pub fn batch_result(unreadable: usize) -> CliResult {
    if unreadable == 0 {
        Ok(())
    } else {
        Err(CliError::input(format!(
            "{unreadable} position(s) could not be read (see above); the others were solved"
        )))
    }
}

/// A position to solve and its name, if it has one.
type NamedPosition = (Option<String>, Pattern);

/// The positions to solve, each with its name if it has one, and how many
/// entries could not be read (each already reported on stderr with its
/// file and line; the rest are still solved).
fn positions(
    puzzle: &Puzzle,
    goal: &crate::target::Goal,
    args: &SolveArgs,
) -> Result<(Vec<NamedPosition>, usize), CliError> {
    if let Some(alg) = &args.alg {
        if args.scramble_file.is_some() {
            return Err(CliError::input("give a scramble file or --alg, not both"));
        }
        let alg = parse_alg(alg)?;
        let t = alg_transformation(puzzle, &alg)
            .map_err(|e| CliError::input(format!("alg {:?}: {e}", shorten(&alg.to_string()))))?;
        return Ok((vec![(None, puzzle.layout().apply(&goal.pattern, &t))], 0));
    }
    let file = args.scramble_file.as_deref().unwrap_or("-");
    let text = read_positions_text(file)?;
    let mut out = Vec::new();
    let mut bad = 0;
    for entry in read_positions(&text, file, puzzle) {
        let located = |e: &dyn std::fmt::Display| format!("{file}:{}: {e}", entry.line);
        let pattern = match entry.body {
            Err(e) => Err(e.to_string()),
            Ok(PositionBody::Pattern(p)) => goal.relabel(puzzle, &p).map_err(|e| located(&e)),
            Ok(PositionBody::Alg(a)) => alg_transformation(puzzle, &a)
                .map(|t| puzzle.layout().apply(&goal.pattern, &t))
                .map_err(|e| located(&format!("{}: {e}", shorten(&entry.name)))),
        };
        match pattern {
            Ok(p) => out.push((Some(entry.name), p)),
            Err(message) => {
                eprintln!("twistor: {message}");
                bad += 1;
            }
        }
    }
    Ok((out, bad))
}

/// The text of a positions file (`-`: standard input); an alg given where
/// the file belongs (`solve 3x3x3 "R U"`) is explained.
pub fn read_positions_text(file: &str) -> Result<String, CliError> {
    if file != "-" && !std::path::Path::new(file).exists() && Alg::parse(file).is_ok() {
        return Err(CliError::input(format!(
            "{file}: no such file; to solve the position an alg reaches, use --alg \"{file}\""
        )));
    }
    read_text(file)
}
