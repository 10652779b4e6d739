//! `twistor solve`: optimal solutions of positions, or fast ones
//! (`--fast`) for every puzzle.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde_json::json;
use twistor_core::{Pattern, Puzzle};
use twistor_cube333::OptimalTableKind;
use twistor_formats::alg::Alg;
use twistor_formats::positions::{read_positions, PositionBody};
use twistor_formats::resolve::alg_transformation;
use twistor_search::{Metric, SaveGrown, SolutionCount, Solver, TableGrowth};
use twistor_tools::portfolio::{
    memory_budgets, stage_specs, Engine, Engines, Mode, Notice, Orientation, Outcome, Portfolio,
    PortfolioEvent, PortfolioOptions,
};
use twistor_tools::ToolError;

use crate::cache::CacheArgs;
use crate::error::{CliError, CliResult};
use crate::load::{parse_alg, read_text, shorten};
use crate::moves::{move_set, MoveSubset};
use crate::progress::Progress;
use crate::puzzle_source::PuzzleSource;
use crate::report::{batch_result, report_table_event};
use crate::target::load_goal;

/// Arguments of `twistor solve`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  twistor solve 3x3x3.tws --alg \"R U R' U' R' F R2 U' R' U' R U R' F'\"\n  twistor solve 2x2x2.tws random-2x2x2.scr --json\n  echo \"R U F\" | twistor solve 2x2x2.tws --moves U,F,R -n 3\n  twistor scramble minx | twistor solve megaminx --fast\n  twistor random 5x5x5 -n 3 | twistor solve 5x5x5 --fast -v"
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
    /// Memory for pruning tables, in MiB (default 256 for the generic
    /// search; without -M a 3x3x3 handed to the dedicated solver may use
    /// its 1.34 GB table when the machine has the memory free).
    #[arg(short = 'M', long = "memory", value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    memory: Option<u64>,
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
    /// Answer every position, not necessarily in the fewest moves: the
    /// dedicated engine that fits the puzzle (two-phase on the 3x3x3, the
    /// 4x4x4 reduction, Square-1 two-phase, the clock's solver), else an
    /// optimal search where it is quick, else the staged solver (pieces
    /// by search, then commutators), which answers any puzzle. One
    /// solution a position; -v shows the engine's steps.
    #[arg(long)]
    fast: bool,
    /// Stages for the staged solver (implies --fast): a stage file, whose
    /// `Stage NAME` lines each start a stage, `Pieces ORBIT [SLOTS]` lines
    /// add pieces (1-based slots, ranges `1-4`; all of the orbit when none
    /// are listed) and an optional `Moves M...` line limits its moves.
    #[arg(long, value_name = "FILE")]
    stages: Option<String>,
    /// Print one JSON object a line: `{"solutions": [...], "length": n}`.
    #[arg(long)]
    json: bool,
}

/// Runs `twistor solve`: reads the positions, hands each to the
/// portfolio (which chooses and switches engines) and prints the answers.
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

    let stop = AtomicBool::new(false);
    let bar = Progress::stderr();
    let written_to = args.cache.written_to();
    let optimal_bar = bar.handle();
    let t0 = Instant::now();
    let free = args
        .memory
        .is_none()
        .then(crate::machine::available_memory)
        .flatten();
    let budgets = memory_budgets(args.memory, free, crate::machine::resident_memory());
    let (memory_bytes, dedicated_memory_bytes) =
        (budgets.memory_bytes, budgets.dedicated_memory_bytes);
    let stages = match &args.stages {
        None => None,
        Some(file) => {
            let text = read_text(file)?;
            let read = twistor_formats::stages::read_stages(&text, file, &puzzle)
                .map_err(CliError::input)?;
            Some(stage_specs(&read, &moves, file).map_err(CliError::input)?)
        }
    };
    let options = PortfolioOptions {
        mode: if args.fast || stages.is_some() {
            Mode::Fast
        } else {
            Mode::Optimal
        },
        memory_bytes,
        dedicated_memory_bytes,
        build_huge_table: true,
        threads,
        count: if args.all_optimal {
            SolutionCount::AllOptimal
        } else {
            SolutionCount::First(args.count)
        },
        min_depth: args.min_depth,
        max_depth: args.max_depth,
        engines: if args.generic {
            Engines::GenericOnly
        } else {
            Engines::Any
        },
        orientation: if args.up_to_rotation {
            Orientation::AnyRotation
        } else {
            Orientation::AsHeld
        },
        symmetry: !args.no_symmetry,
        store: args.cache.store()?,
        optimal_progress: optimal_bar.map(crate::report::optimal_progress),
        stages,
    };
    let mut shown = Shown {
        huge_by_default: free.filter(|_| budgets.huge_by_default),
        bar,
        written_to,
        verbose: args.verbose,
        label: String::from("position"),
        started: Instant::now(),
    };
    let mut portfolio = Portfolio::new(
        &puzzle,
        moves,
        goal.pattern.clone(),
        options,
        &stop,
        &mut |e| shown.event(e),
    )
    .map_err(|e| match e {
        ToolError::NoRotations => CliError::input(format!(
            "--up-to-rotation: {} has no whole-puzzle rotations",
            args.source.puzzle
        )),
        ToolError::Search(e) => CliError::failure(e),
        e => CliError::input(e),
    })?;
    shown.bar.finish();
    if let Some(solver) = portfolio.generic() {
        note!("{}", tables_line(solver, t0.elapsed().as_secs_f64()));
    }

    let mut unsolved = 0;
    let mut out_of_reach = 0;
    // Growth steps already printed by -v.
    let mut grown_shown = 0;
    for (name, start) in &positions {
        shown.label = label_of(name);
        shown.started = Instant::now();
        let label = shown.label.clone();
        let answer = portfolio
            .solve(start, &stop, &mut |e| shown.event(e))
            .map_err(|e| CliError::input(format!("{label}: {e}")))?;
        shown.bar.finish();
        let secs = shown.started.elapsed().as_secs_f64();
        if answer.outcome == Outcome::Unreachable {
            unsolved += 1;
            unreachable_line(&label, name, args.json, args.up_to_rotation);
            continue;
        }
        if answer.outcome == Outcome::OutOfReach {
            out_of_reach += 1;
            out_of_reach_line(&label, name, args.json, &portfolio);
            continue;
        }
        match answer.engine {
            Engine::TwoPhase
            | Engine::Reduction444
            | Engine::Square1
            | Engine::Clock
            | Engine::Staged => note!(
                "{label}: {} moves in {:.2} s ({}{})",
                answer.length.unwrap_or(0),
                secs,
                answer.engine.name(),
                if answer.optimal { ", optimal" } else { "" }
            ),
            Engine::Dedicated => note!(
                "{label}: optimal {} moves in {:.2} s ({} nodes)",
                answer.length.unwrap_or(0),
                secs,
                answer.nodes
            ),
            Engine::Generic => {
                if args.verbose {
                    if let Some(solver) = portfolio.generic() {
                        for line in growth_lines(&solver.growth_log()[grown_shown..]) {
                            note!("{line}");
                        }
                        grown_shown = solver.growth_log().len();
                        note!("  tables now:{}", tables_now(solver));
                    }
                }
                note!(
                    "{label}: {} solution(s){} in {:.3} s, {} nodes ({:.1} M/s)",
                    answer.solutions.len(),
                    answer
                        .length
                        .map(|l| format!(" of length {l}"))
                        .unwrap_or_default(),
                    secs,
                    answer.nodes,
                    answer.nodes as f64 / secs.max(1e-9) / 1e6
                );
            }
        }
        if args.json {
            let mut v = json!({ "solutions": answer.solutions, "length": answer.length });
            if let Some(n) = name {
                v["name"] = json!(n);
            }
            outln!("{v}");
        } else {
            if answer.solutions.is_empty() {
                outln!("# no solution up to {} moves", args.max_depth);
            }
            for s in &answer.solutions {
                outln!("{s}");
            }
        }
        if answer.solutions.is_empty() {
            unsolved += 1;
        }
        // Tables that grew much are kept at once: a batch stopped later
        // keeps them.
        portfolio.save_grown_tables(SaveGrown::WhenWorthIt, &mut |e| shown.event(e));
    }
    portfolio.save_grown_tables(SaveGrown::All, &mut |e| shown.event(e));
    batch_result(unreadable)?;
    if out_of_reach > 0 && unsolved == 0 {
        return Err(CliError::failure(format!(
            "{out_of_reach} position(s) not solved: an optimal search is out of reach; \
             solve --fast answers every position"
        )));
    }
    unsolved += out_of_reach;
    if unsolved > 0 {
        return Err(CliError::failure(format!(
            "{unsolved} position(s) not solved (unreachable, or no solution within --max-depth {})",
            args.max_depth
        )));
    }
    Ok(())
}

/// How messages name a position: by its name, or for a long one (an alg
/// read as a line) by its start.
fn label_of(name: &Option<String>) -> String {
    match name {
        None => "position".to_string(),
        Some(n) if n.chars().count() <= 32 => n.clone(),
        Some(n) => format!("{} …", n.chars().take(24).collect::<String>().trim_end()),
    }
}

/// What `twistor solve` shows on stderr as the portfolio works.
struct Shown {
    /// Free memory, when it (not -M) let the dedicated solver use its huge
    /// table.
    huge_by_default: Option<u64>,
    bar: Progress,
    written_to: Option<std::path::PathBuf>,
    verbose: bool,
    /// The position being solved.
    label: String,
    /// When it started.
    started: Instant,
}

impl Shown {
    fn event(&mut self, e: PortfolioEvent) {
        let label = &self.label;
        match e {
            PortfolioEvent::Table(e) => {
                report_table_event(&mut self.bar, self.written_to.as_deref(), e)
            }
            PortfolioEvent::Search(p) => {
                let secs = self.started.elapsed().as_secs_f64().max(1e-9);
                self.bar.message(&format!(
                    "{label}: depth {} searched, {} nodes ({:.1} M/s)",
                    p.depth,
                    p.nodes,
                    p.nodes as f64 / secs / 1e6
                ));
                if self.verbose {
                    note!(
                        "  depth {:2} done: {:>14} nodes, {:8.2} s",
                        p.depth,
                        p.nodes,
                        self.started.elapsed().as_secs_f64()
                    );
                }
            }
            PortfolioEvent::Step(step) => {
                if self.verbose {
                    self.bar.finish();
                    note!(
                        "  {}: {:?} {}: {} moves{}",
                        step.stage,
                        step.method,
                        step.what,
                        step.moves,
                        if step.nodes > 0 {
                            format!(", {} nodes", step.nodes)
                        } else {
                            String::new()
                        }
                    );
                } else {
                    self.bar
                        .message(&format!("{label}: {} ({})", step.what, step.stage));
                }
            }
            PortfolioEvent::Notice(Notice::Plan(stages)) => {
                if self.verbose {
                    note!("staged solver: stages");
                    for (name, pieces) in stages {
                        note!("  {name}: {pieces}");
                    }
                }
            }
            PortfolioEvent::Notice(n) => {
                self.bar.finish();
                notice(label, &n);
                let deep = match n {
                    Notice::DeepTable { table, .. } => Some(table),
                    Notice::Dedicated { table } if table != OptimalTableKind::Small => Some(table),
                    _ => None,
                };
                if let (Some(table), Some(free)) = (deep, self.huge_by_default) {
                    note!(
                        "  (the {} table, {}: no -M was given and {:.1} GiB is free; -M 512 keeps to the phase-1 table)",
                        table.title(),
                        crate::report::table_size(table),
                        free as f64 / (1u64 << 30) as f64
                    );
                }
            }
        }
    }
}

/// The line saying what the generic search's tables are.
fn tables_line(solver: &Solver, secs: f64) -> String {
    let table_bytes: u64 = solver.tables().iter().map(|t| t.bytes()).sum::<u64>()
        + solver.hashed().map_or(0, |h| h.bytes());
    let hashed = solver.hashed().map(|h| {
        let symmetry = h.symmetry().map_or(String::new(), |s| {
            format!(", least conjugates under {} rotations", s.group().order())
        });
        format!("; hashed positions within {}{symmetry}", h.depth())
    });
    format!(
        "tables: {} ({:.1} MiB) in {:.2} s{}{}",
        solver.tables().len(),
        table_bytes as f64 / (1 << 20) as f64,
        secs,
        solver
            .tables()
            .iter()
            .map(|t| format!("; {} mean {:.2}", t.projection().description(), t.mean()))
            .collect::<String>(),
        hashed.unwrap_or_default()
    )
}

/// What the tables became (they grow while searching).
/// The tables' growth, for -v: what grew before each depth, and the
/// modelled seconds that decided it (a table's layers grown one after
/// another in one line).
fn growth_lines(log: &[TableGrowth]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < log.len() {
        let first = &log[i];
        let mut last = first;
        let mut secs = first.secs;
        // (Two tables may share a description: one grows a layer a step,
        // and a last step may only find it complete.)
        while let Some(g) = log.get(i + 1).filter(|g| {
            g.before_depth == first.before_depth
                && g.table == first.table
                && !g.move_tables
                && !first.move_tables
                && (g.to_depth == last.to_depth + 1
                    || (g.to_depth == last.to_depth && g.complete && !last.complete))
        }) {
            secs += g.secs;
            last = g;
            i += 1;
        }
        i += 1;
        if first.move_tables {
            lines.push(format!(
                "  before depth {}: {} given move tables, so its coordinates are carried (modelled {:.2} s of building against {:.2} s of search expected)",
                first.before_depth, first.table, first.secs, first.expected_search_secs
            ));
            continue;
        }
        let mean = last
            .mean
            .map_or(String::new(), |m| format!(", mean {m:.2}"));
        let filled = if last.complete {
            format!("complete, {} deep", last.to_depth)
        } else {
            format!("filled to depth {}", last.to_depth)
        };
        lines.push(format!(
            "  before depth {}: {} {filled}{mean} (modelled {:.2} s of filling against {:.2} s of search expected)",
            first.before_depth, first.table, secs, first.expected_search_secs
        ));
    }
    lines
}

fn tables_now(solver: &Solver) -> String {
    let tables: String = solver
        .tables()
        .iter()
        .map(|t| format!(" {} mean {:.2};", t.projection().description(), t.mean()))
        .collect();
    let hashed = solver
        .hashed()
        .map_or(String::new(), |h| format!(" hashed within {}", h.depth()));
    format!("{tables}{hashed}")
}

/// Says what the portfolio chose, on stderr.
fn notice(label: &str, n: &Notice) {
    match n {
        Notice::Dedicated { table } => note!(
            "3x3x3 recognised: using the dedicated optimal solver ({} table; --generic for the generic search)",
            table.title()
        ),
        Notice::GenericFirst { secs } => note!(
            "3x3x3 recognised; the dedicated solver's tables are not cached: \
             trying the generic search for up to {secs} s first"
        ),
        Notice::SwitchedToDedicated => note!(
            "{label}: not solved by the generic search in its time; \
             the dedicated solver takes this and the rest"
        ),
        Notice::DedicatedTooLarge { .. } => note!("{}; -M 96 or more lets it in", n.describe()),
        Notice::DeepTable { limit, table } => note!(
            "{label}: longer than {limit} moves; the {} table (built once if not cached)",
            table.title()
        ),
        Notice::Chosen { engine, why } => note!(
            "solving with {} ({why}; {})",
            engine.row().title,
            if engine.row().optimal {
                "answers are optimal"
            } else {
                "answers are not proven shortest"
            }
        ),
        Notice::Plan(_) => {}
        Notice::OutOfReach(e) => note!(
            "an optimal search is out of reach here: about 10^{:.0} nodes for a typical position \
             ({} positions need at least {} moves); each position gets a short search, \
             and --fast answers every one",
            e.log10_nodes,
            format_args!("10^{:.0}", e.log10_positions),
            e.counting_bound
        ),
        Notice::UpToRotation { rotation } => note!(
            "{label}: reachable only with the puzzle held differently: the answer starts with the rotation {rotation}"
        ),
        Notice::ReachabilityUnknown => note!(
            "{label}: with pieces alike, whether the moves reach this position is not \
             known before searching; if it is the puzzle held differently, \
             --up-to-rotation solves it"
        ),
    }
}

/// Reports a position whose optimal search is out of reach.
fn out_of_reach_line(label: &str, name: &Option<String>, json: bool, portfolio: &Portfolio) {
    let nodes = portfolio.out_of_reach().map_or(String::new(), |e| {
        format!(" (about 10^{:.0} nodes)", e.log10_nodes)
    });
    note!(
        "{label}: an optimal solution is out of reach{nodes}; \
         --fast answers it (not necessarily in the fewest moves)"
    );
    if json {
        let mut v = json!({ "solutions": [], "length": null, "out_of_reach": true });
        if let Some(n) = name {
            v["name"] = json!(n);
        }
        outln!("{v}");
    } else {
        outln!("# optimal search out of reach: use --fast");
    }
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
