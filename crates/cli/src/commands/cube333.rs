//! `twistor 333`: the 3x3x3 solvers.
//!
//! Parses arguments, reads cubes from the command line or stdin, calls
//! `twistor_cube333` and prints. Solutions go to stdout, timings and table
//! notices to stderr.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use twistor_core::random::SeededRng;
use twistor_core::store::{StoreEvent, TableStore};
use twistor_cube333::{
    solve_two_phase as solve, solve_two_phase_batch as solve_batch, OptimalOptions, OptimalSolver,
    OptimalTableKind, TwoPhaseOptions, TwoPhaseTableKind, TwoPhaseTables,
};
use twistor_tools::portfolio::{optimal_table_for, two_phase_tables_for, two_phase_tables_of};

use crate::timing::thread_cpu_time;
use twistor_cube333::{CubieCube, MoveSeq};

use twistor_cube333::CubeCorrespondence;
use twistor_formats::positions::{detect, read_positions, PositionBody, PositionFormat};
use twistor_formats::resolve::alg_transformation;

use crate::cache::CacheArgs;
use crate::error::{CliError, CliResult};
use crate::load::{read_text, shorten};
use crate::progress::Progress;
use crate::report::{optimal_progress, reporter, table_size};

/// Arguments of `twistor 333`.
#[derive(clap::Args)]
pub struct Cube333Args {
    #[command(subcommand)]
    command: Cube333Command,
}

#[derive(clap::Subcommand)]
enum Cube333Command {
    /// Solve cubes given as 54 facelets (URFDLB order), an alg, or one
    /// facelet string a line on stdin.
    Solve(SolveArgs),
    /// Time the solver on uniformly random cubes (or cubes from a file).
    Bench(BenchArgs),
    /// Build (or check) the tables and report their size and build time.
    Tables(TablesArgs),
}

#[derive(clap::Args)]
struct OptimalArgs {
    /// Size of the optimal solver's table: `huge` (Kociemba's
    /// UDSliceSorted-sym × twist × flip, 3,529,433,088 entries at exact
    /// distances, 3 bits an entry: 1.34 GB), `giant` (the next size up:
    /// flip-UD-slice-sym × twist × where the D corners are, 9,863,588,700
    /// entries: 3.79 GB, built in minutes in about that memory) or
    /// `small` (the phase-1 table, 70 MB; slow on deep positions).
    /// Default for `333 solve`: the strongest -M (or, without it, the memory
    /// free) allows; the giant table without -M only once it is cached.
    #[arg(long, value_name = "KIND")]
    optimal_table: Option<String>,
}

impl OptimalArgs {
    fn kind(
        &self,
        store: &dyn twistor_core::store::TableStore,
    ) -> Result<OptimalTableKind, CliError> {
        self.kind_within(None, None, store).map(|(k, _)| k)
    }

    /// The table named, or else the portfolio's choice for a limit the
    /// user gave or the memory free (bytes), with what decided it.
    fn kind_within(
        &self,
        limit: Option<u64>,
        free: Option<u64>,
        store: &dyn twistor_core::store::TableStore,
    ) -> Result<(OptimalTableKind, &'static str), CliError> {
        match self.optimal_table.as_deref() {
            Some(name) => OptimalTableKind::from_name(name)
                .map(|k| (k, "--optimal-table"))
                .ok_or_else(|| {
                    CliError::input(format!(
                        "--optimal-table: unknown table {name:?} (expected huge, giant or small)"
                    ))
                }),
            None => Ok(optimal_table_for(limit, free, store)),
        }
    }
}

#[derive(clap::Args)]
struct SolveArgs {
    /// The cube: 54 letters U1..U9 R1..R9 F1..F9 D1..D9 L1..L9 B1..B9, or a
    /// file of cubes (facelets or algs one a line, a scramble file or
    /// KPattern lines); read from stdin, one a line, when absent.
    facelets: Option<String>,
    /// The cube reached from solved by this alg instead.
    #[arg(long, value_name = "ALG", conflicts_with = "facelets")]
    alg: Option<String>,
    /// Longest solution accepted (two-phase).
    #[arg(long, value_name = "N", default_value_t = 21, value_parser = clap::value_parser!(u8).range(0..=30))]
    max_length: u8,
    /// Find a shortest solution.
    #[arg(long)]
    optimal: bool,
    /// Print `{"solution": "...", "length": N}` a line.
    #[arg(long)]
    json: bool,
    /// Give up after this many seconds (two-phase).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Give up after this many phase-2 probes (two-phase).
    #[arg(long, value_name = "N")]
    probe_limit: Option<u64>,
    /// After the first solution, look on for shorter ones for N more
    /// phase-2 probes (min2phase's probeMin; a few milliseconds), so an
    /// easy cube gets a short answer. 0 prints the first solution found.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    probe_min: u64,
    /// Two-phase tables: `compact` (1.3 MB, built in a few hundredths of
    /// a second and cached),
    /// `medium` (7.3 MB, built once in under a second and cached; a solve
    /// in about 0.3-0.6 of the compact tables' time), `full` (126 MB,
    /// built once in about 9 s and cached; the fastest per solve, but
    /// about 0.3 s to read), or `auto`: the set the batch takes least time
    /// on, counting what is cached.
    #[arg(long, value_enum, default_value_t = TableChoice::Auto)]
    tables: TableChoice,
    /// Memory for tables, in MiB: the optimal solver uses its phase-1
    /// table under 1350, its huge table from 1350, its giant table from
    /// 3800 once cached (building it from 4000); under 256 the two-phase
    /// solver keeps to its compact or medium tables. Without -M, --optimal uses the
    /// strongest table the machine has the memory free for (the giant one
    /// only once cached), and two-phase decides by --tables.
    #[arg(short = 'M', long = "memory", value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    memory: Option<u64>,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    optimal_table: OptimalArgs,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Number of random cubes.
    #[arg(short = 'n', long, default_value_t = 200)]
    count: usize,
    /// Longest solution accepted.
    #[arg(long, value_name = "N", default_value_t = 21, value_parser = clap::value_parser!(u8).range(0..=30))]
    max_length: u8,
    /// Seed of the random cubes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Solve the cubes in this file instead (one facelet string a line;
    /// lines of several TAB-separated fields use the first field of 54
    /// letters; `#` starts a comment).
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Benchmark the optimal solver instead.
    #[arg(long)]
    optimal: bool,
    /// Two-phase tables to benchmark (see `333 solve --tables`).
    #[arg(long, value_enum, default_value_t = TableChoice::Auto)]
    tables: TableChoice,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    optimal_table: OptimalArgs,
}

/// Which two-phase tables to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum TableChoice {
    /// The set the batch takes least time on: full when worth reading
    /// (cached) or building, else medium when cached or worth building,
    /// else compact.
    Auto,
    /// The 1.3 MB tables (built at once and cached).
    Compact,
    /// The 7.3 MB cached tables (built in under a second).
    Medium,
    /// The 126 MB cached tables.
    Full,
}

/// The two-phase tables for `solves` solves, as `choice` says (the
/// portfolio's choice within `-M` for `auto`).
fn two_phase_tables(
    choice: TableChoice,
    limit_mib: Option<u64>,
    store: &dyn twistor_core::store::TableStore,
    solves: usize,
    report: &mut dyn FnMut(twistor_core::store::StoreEvent),
) -> TwoPhaseTables {
    let kind = match choice {
        TableChoice::Auto => return two_phase_tables_for(limit_mib, solves, store, report),
        TableChoice::Compact => TwoPhaseTableKind::Compact,
        TableChoice::Medium => TwoPhaseTableKind::Medium,
        TableChoice::Full => TwoPhaseTableKind::Full,
    };
    two_phase_tables_of(kind, store, report)
}

#[derive(clap::Args)]
struct TablesArgs {
    /// Also the optimal solver's table (the huge one unless
    /// --optimal-table names another, which implies this).
    #[arg(long)]
    optimal: bool,
    #[command(flatten)]
    cache: CacheArgs,
    #[command(flatten)]
    optimal_table: OptimalArgs,
}

/// Runs `twistor 333`.
pub fn run(args: Cube333Args) -> CliResult {
    match args.command {
        Cube333Command::Solve(a) => run_solve(a),
        Cube333Command::Bench(a) => run_bench(a),
        Cube333Command::Tables(a) => run_tables(a),
    }
}

/// Optimal-search options that show the search's depth, branches and
/// node rate on `bar` (when it is drawn).
fn optimal_options(bar: &Progress) -> OptimalOptions {
    OptimalOptions {
        progress: bar.handle().map(optimal_progress),
        ..OptimalOptions::default()
    }
}

fn parse_cube(s: &str) -> Result<CubieCube, String> {
    s.parse::<CubieCube>().map_err(|e| e.to_string())
}

/// A cube from one line: 54 facelets in URFDLB order, or an alg of face
/// turns (what `twistor scramble 333` prints).
fn cube_from_line(t: &str) -> Result<CubieCube, String> {
    match parse_cube(t) {
        Ok(c) => Ok(c),
        Err(facelet_error) => {
            let looks_like_facelets =
                t.chars().count() == 54 && t.chars().all(|c| c.is_ascii_alphabetic());
            if looks_like_facelets {
                return Err(format!("bad facelets {t:?}: {facelet_error}"));
            }
            twistor_tools::cube::face_turns(t)
                .map(|m| CubieCube::from_moves(&m.0))
                .map_err(|e| {
                    format!(
                        "{:?} is neither 54 facelets ({facelet_error}) nor an alg ({e})",
                        shorten(t)
                    )
                })
        }
    }
}

/// The cubes in a scramble file or KPattern lines written for the named
/// 3x3x3 (`twistor random 3x3x3 | twistor 333 solve`), read through the
/// correspondence that finds the cube in the definition.
fn cubes_from_positions(text: &str) -> Result<(Vec<CubieCube>, usize, Option<Namer>), CliError> {
    // The puzzle `twistor random 3x3x3` writes its positions on.
    let source = crate::puzzle_source::PuzzleSource {
        puzzle: "3x3x3".to_string(),
        ..Default::default()
    };
    let puzzle = source.load()?;
    let grips = puzzle.search_moves();
    let corr = CubeCorrespondence::find(&puzzle, &grips)
        .ok_or_else(|| CliError::failure("the named 3x3x3 was not recognised as a cube"))?;
    let layout = puzzle.layout();
    let mut cubes = Vec::new();
    let mut bad = 0;
    for entry in read_positions(text, "-", &puzzle) {
        let pattern = match entry.body {
            Ok(PositionBody::Pattern(p)) => Ok(p),
            Ok(PositionBody::Alg(a)) => alg_transformation(&puzzle, &a)
                .map(|t| layout.apply(puzzle.start(), &t))
                .map_err(|e| format!("-:{}: {e}", entry.line)),
            Err(e) => Err(e.to_string()),
        };
        let cube = pattern.and_then(|p| {
            corr.cube(layout, &p)
                .ok_or_else(|| format!("-:{}: {}: not a 3x3x3 position", entry.line, entry.name))
        });
        match cube {
            Ok(c) => cubes.push(c),
            Err(message) => {
                eprintln!("twistor: {message}");
                bad += 1;
            }
        }
    }
    Ok((cubes, bad, Some((puzzle, corr))))
}

/// The cubes to solve, in order, and how many lines could not be read
/// (each reported on stderr with its line; the others are still solved).
fn read_cubes(a: &SolveArgs) -> Result<(Vec<CubieCube>, usize, Option<Namer>), CliError> {
    if let Some(alg) = &a.alg {
        let moves = twistor_tools::cube::face_turns(alg)
            .map_err(|e| CliError::input(format!("--alg: {e}")))?;
        return Ok((vec![CubieCube::from_moves(&moves.0)], 0, None));
    }
    let file = match &a.facelets {
        // A file of cubes, read as stdin would be.
        Some(f) if f == "-" || std::path::Path::new(f).is_file() => f.as_str(),
        Some(f) => {
            return cube_from_line(f.trim())
                .map(|c| (vec![c], 0, None))
                .map_err(CliError::input)
        }
        None => "-",
    };
    let text = read_text(file)?;
    if detect(&text) != PositionFormat::AlgLines {
        return cubes_from_positions(&text);
    }
    let mut cubes = Vec::new();
    let mut bad = 0;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        // A table of fields (an id, the facelets, a scramble, ...): the
        // facelets field.
        let t = match t.split('\t').find(|f| f.trim().chars().count() == 54) {
            Some(field) if t.contains('\t') => field.trim(),
            _ => t,
        };
        match cube_from_line(t) {
            Ok(c) => cubes.push(c),
            Err(e) => {
                eprintln!("twistor: {file}:{}: {e}", i + 1);
                bad += 1;
            }
        }
    }
    Ok((cubes, bad, None))
}

/// Face turns of the cube as the moves of the definition it was found in.
fn named_moves(
    puzzle: &twistor_core::Puzzle,
    corr: &CubeCorrespondence,
    moves: &MoveSeq,
) -> Vec<String> {
    corr.move_names(puzzle, moves)
}

/// A definition the cubes were read on, and where the cube sits in it: a
/// solution is written in that definition's moves.
type Namer = (twistor_core::Puzzle, CubeCorrespondence);

fn print_solution(
    out: &mut impl Write,
    moves: &MoveSeq,
    json: bool,
    namer: Option<&Namer>,
) -> std::io::Result<()> {
    let text = match namer {
        Some((puzzle, corr)) => named_moves(puzzle, corr, moves).join(" "),
        None => moves.to_string(),
    };
    if json {
        writeln!(
            out,
            "{}",
            serde_json::json!({"solution": text, "length": moves.len()})
        )
    } else {
        writeln!(out, "{text}")
    }
}

fn run_solve(a: SolveArgs) -> CliResult {
    let (cubes, unreadable, namer) = read_cubes(&a)?;
    let time_limit = match a.time_limit {
        Some(s) if !(s.is_finite() && s > 0.0) => {
            return Err(CliError::input(format!(
                "--time-limit: {s} is not a positive number of seconds"
            )))
        }
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let store = a.cache.store()?;
    let mut report = reporter(false);
    let stdout = std::io::stdout();
    if a.optimal {
        let limit = a.memory.map(|m| m.saturating_mul(1 << 20));
        let free = limit
            .is_none()
            .then(crate::machine::available_memory)
            .flatten();
        let (kind, said) = a.optimal_table.kind_within(limit, free, &*store)?;
        // `-M` is a promise: a table larger than it is not loaded, cached
        // or not.
        if let Some(mib) = a.memory {
            let fits = crate::machine::exact_memory(mib);
            if kind.bytes() > fits {
                return Err(CliError::input(format!(
                    "-M {}: the optimal solver's {} table takes {}, more than the {} left beside \
                     the program itself; give -M {} or more (twistor solve 3x3x3 -M {} searches \
                     without it)",
                    mib,
                    kind.title(),
                    twistor_tools::budget::Bytes(kind.bytes()),
                    twistor_tools::budget::Bytes(fits),
                    (kind.bytes() >> 20) + 32,
                    mib,
                )));
            }
        }
        if a.optimal_table.optimal_table.is_none() {
            note!(
                "optimal solver: the {} table ({}, by {said}; --optimal-table to choose)",
                kind.title(),
                table_size(kind)
            );
        }
        let solver = OptimalSolver::load(kind, &*store, &mut report);
        for c in &cubes {
            let t0 = Instant::now();
            let bar = Progress::stderr();
            let s = solver.solve(c, &optimal_options(&bar));
            drop(bar);
            let mut out = stdout.lock();
            print_solution(&mut out, &s.moves, a.json, namer.as_ref())?;
            out.flush()?;
            note!(
                "optimal: {} moves in {:.2} s ({} nodes)",
                s.moves.len(),
                t0.elapsed().as_secs_f64(),
                s.nodes
            );
        }
        return crate::report::batch_result(unreadable);
    }
    let tables = two_phase_tables(a.tables, a.memory, &*store, cubes.len(), &mut report);
    let sopts = TwoPhaseOptions {
        max_length: a.max_length as usize,
        probe_limit: a.probe_limit,
        improve_probes: a.probe_min,
        time_limit,
        ..Default::default()
    };
    let t0 = Instant::now();
    let results = solve_batch(&tables, &cubes, &sopts);
    let elapsed = t0.elapsed();
    let mut out = stdout.lock();
    let mut failures = 0;
    for r in &results {
        match r {
            Ok(s) => print_solution(&mut out, &s.moves, a.json, namer.as_ref())?,
            Err(e) => {
                failures += 1;
                eprintln!("twistor: {e}");
            }
        }
    }
    out.flush()?;
    note!(
        "solved {} of {} cubes in {:.3} s",
        results.len() - failures,
        results.len(),
        elapsed.as_secs_f64()
    );
    if failures > 0 {
        return Err(CliError::failure(format!("{failures} cube(s) not solved")));
    }
    crate::report::batch_result(unreadable)
}

fn bench_cubes(a: &BenchArgs) -> Result<Vec<CubieCube>, CliError> {
    if let Some(path) = &a.file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
        let mut cubes = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let field = t
                .split('\t')
                .map(str::trim)
                .find(|f| f.chars().count() == 54)
                .unwrap_or(t);
            cubes.push(
                parse_cube(field)
                    .map_err(|e| CliError::input(format!("{}:{}: {e}", path.display(), i + 1)))?,
            );
        }
        return Ok(cubes.into_iter().take(a.count).collect());
    }
    let mut rng = SeededRng::new(a.seed);
    Ok((0..a.count)
        .map(|_| CubieCube::random(|| rng.next_u64()))
        .collect())
}

fn summary(times_ms: &mut [f64], lengths: &[usize]) -> String {
    times_ms.sort_by(f64::total_cmp);
    let n = times_ms.len().max(1) as f64;
    let median = if times_ms.is_empty() {
        0.0
    } else if times_ms.len() % 2 == 1 {
        times_ms[times_ms.len() / 2]
    } else {
        (times_ms[times_ms.len() / 2 - 1] + times_ms[times_ms.len() / 2]) / 2.0
    };
    let mean = times_ms.iter().sum::<f64>() / n;
    let avg_len = lengths.iter().sum::<usize>() as f64 / n;
    format!(
        "{} cubes: median {median:.3} ms, mean {mean:.3} ms, max {:.3} ms per solve; average length {avg_len:.2}",
        times_ms.len(),
        times_ms.last().copied().unwrap_or(0.0)
    )
}

/// The process's peak memory, on stderr, where the system tells it.
fn peak_note() {
    if let Some(bytes) = crate::machine::peak_memory() {
        note!("peak memory: {:.1} MB", bytes as f64 / 1e6);
    }
}

fn run_bench(a: BenchArgs) -> CliResult {
    let cubes = bench_cubes(&a)?;
    let store = a.cache.store()?;
    let mut report = reporter(true);
    let mut times = Vec::with_capacity(cubes.len());
    let mut lengths = Vec::with_capacity(cubes.len());
    if a.optimal {
        let t_load = Instant::now();
        let solver = OptimalSolver::load(a.optimal_table.kind(&*store)?, &*store, &mut report);
        note!(
            "optimal table ({:.1} MB) ready in {:.3} s",
            solver.size_bytes() as f64 / 1e6,
            t_load.elapsed().as_secs_f64()
        );
        for (i, c) in cubes.iter().enumerate() {
            let t0 = Instant::now();
            let s = solver.solve(c, &OptimalOptions::default());
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            note!(
                "cube {i}: {} moves, {:.2} s, {} nodes",
                s.moves.len(),
                ms / 1e3,
                s.nodes
            );
            times.push(ms);
            lengths.push(s.moves.len());
        }
        outln!("optimal: {}", summary(&mut times, &lengths));
        peak_note();
        return Ok(());
    }
    let t_load = Instant::now();
    let tables = two_phase_tables(a.tables, None, &*store, cubes.len(), &mut report);
    note!(
        "{} tables ({:.1} MB) ready in {:.3} s",
        match tables.kind() {
            TwoPhaseTableKind::Compact => "compact",
            TwoPhaseTableKind::Medium => "medium",
            TwoPhaseTableKind::Full => "full",
        },
        tables.size_bytes() as f64 / 1e6,
        t_load.elapsed().as_secs_f64()
    );
    let sopts = TwoPhaseOptions {
        max_length: a.max_length as usize,
        ..Default::default()
    };
    // One cube at a time on this thread, timed by the thread's CPU clock
    // (wall clock where there is none), so each time is that solve's own.
    let clock = || thread_cpu_time().unwrap_or_else(|| t_load.elapsed());
    // The search's work, beside its time: on a shared machine the node
    // counts compare two builds where the clock is noisy.
    let (mut nodes1, mut nodes2, mut probes) = (0u64, 0u64, 0u64);
    for c in &cubes {
        let t0 = clock();
        let s = solve(&tables, c, &sopts).map_err(CliError::failure)?;
        times.push((clock() - t0).as_secs_f64() * 1e3);
        lengths.push(s.moves.len());
        nodes1 += s.phase1_nodes;
        nodes2 += s.phase2_nodes;
        probes += s.probes;
    }
    outln!(
        "two-phase --max-length {}: {}",
        a.max_length,
        summary(&mut times, &lengths)
    );
    let n = cubes.len().max(1) as f64;
    note!(
        "per solve: {:.0} phase-1 nodes, {:.0} phase-2 nodes, {:.1} phase-2 searches",
        nodes1 as f64 / n,
        nodes2 as f64 / n,
        probes as f64 / n
    );
    peak_note();
    Ok(())
}

fn run_tables(a: TablesArgs) -> CliResult {
    let store = a.cache.store()?;
    // Building tables to keep them is this command's whole job: one that
    // could not be saved fails it (after the rest are built and said).
    let unsaved = std::cell::Cell::new(0usize);
    let mut shown = reporter(true);
    let mut report = |e: StoreEvent| {
        if matches!(e, StoreEvent::SaveFailed { .. }) {
            unsaved.set(unsaved.get() + 1);
        }
        shown(e)
    };
    type Load = fn(&dyn TableStore, &mut dyn FnMut(StoreEvent)) -> TwoPhaseTables;
    let sizes: [(&str, Load); 2] = [
        ("medium", TwoPhaseTables::medium),
        ("full", TwoPhaseTables::load),
    ];
    for (kind, load) in sizes {
        let t0 = Instant::now();
        let tables = load(&*store, &mut report);
        note!(
            "two-phase tables, {kind}: {:.1} MB, ready in {:.2} s",
            tables.size_bytes() as f64 / 1e6,
            t0.elapsed().as_secs_f64()
        );
        // Not held while the optimal table builds: its peak is its own.
    }
    // Naming a table asks for it.
    if a.optimal || a.optimal_table.optimal_table.is_some() {
        let t0 = Instant::now();
        let solver = OptimalSolver::load(a.optimal_table.kind(&*store)?, &*store, &mut report);
        note!(
            "optimal table: {:.1} MB, ready in {:.2} s",
            solver.size_bytes() as f64 / 1e6,
            t0.elapsed().as_secs_f64()
        );
    }
    match unsaved.get() {
        0 => Ok(()),
        n => Err(CliError::failure(format!(
            "{n} table{} built but not saved to the cache",
            if n == 1 { " was" } else { "s were" }
        ))),
    }
}
