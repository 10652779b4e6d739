//! A fuzz harness for the readers and the alg parser, on stable Rust.
//!
//! Long (past 800 lines) because targets, oracles and driver are one
//! harness that `tests/fuzz_smoke.rs` also includes by path; the mutator
//! (`mutate.rs`) and the memory accounting (`memory.rs`) are modules
//! beside it.
//!
//! It mutates seed inputs (the definitions, scramble files, KPattern and
//! algs of `tests/support`, what the writers make of them, and the files of
//! `../shared/conformance/bad` when present) with a fast deterministic
//! mutator (bit flips, byte inserts and deletes, token splices and
//! inserts, number mutations, line duplication and swaps, repeated chunks,
//! crossover between seeds), and feeds each input to one target:
//!
//! - `read_puzzle` as `.tws` or KPuzzle JSON; what it accepts must survive
//!   writing as KPuzzle JSON and `.tws` and reading back with the same
//!   behaviour, and its error messages must name the file and a line of it;
//! - `tws::parse_scrambles` and `kpuzzle::parse_kpattern` against small
//!   puzzles; positions read must survive writing and reading back;
//! - `Alg::parse`; what it accepts must print and parse back to itself,
//!   invert twice to itself, expand consistently, and on small puzzles
//!   (`alg_transformation`) the inverse alg must do the inverse
//!   transformation and the alg what its moves written out do.
//!
//! A panic (a crash, or a failed check above, reported as `oracle: ...`),
//! an input that runs longer than the time limit, or one whose allocations
//! grow by more than the memory limit is a finding: the input is written to
//! the output folder with a note of what happened, and the run stops. Input
//! `i` of a run depends only on the seed and `i`, so any input can be made
//! again with `--replay i`.
//!
//! Run it in release (the 10-million-input run of the foundation issue):
//!
//! ```text
//! nice -n 10 cargo run --release -p twistor-formats --example fuzz -- \
//!     --inputs 10000000 --jobs 2 --seed 1 --out target/fuzz
//! cargo run --release -p twistor-formats --example fuzz -- --seed 1 --replay 123456
//! ```
//!
//! Options: `--inputs N` (default 1,000,000), `--jobs J` (worker threads,
//! default 1), `--seed S` (default 1), `--timeout-ms T` per input (default
//! 1000), `--max-len B` bytes per input (default 4096), `--memory-mb M`
//! growth allowed per input (default 256), `--out DIR` (default
//! `target/fuzz`), `--keep-going` (collect up to 20 findings instead of
//! stopping at the first), `--replay I` (run input `I` alone, in the
//! foreground, and write it to `DIR/replay-I.EXT`).
//!
//! `tests/fuzz_smoke.rs` runs 20,000 inputs of it as a normal test.

#[path = "../../tests/support/mod.rs"]
mod support;

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::{Cell, RefCell};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use twistor_core::random::SeededRng;
use twistor_core::{Pattern, Puzzle};
use twistor_formats::alg::Alg;
use twistor_formats::kpuzzle::{self, JsonStyle};
use twistor_formats::resolve::{alg_transformation, move_transformation};
use twistor_formats::tws::{self, ScrambleBody};
use twistor_formats::{read_puzzle, write_puzzle, ParseError, PuzzleFormat};

// ---------------------------------------------------------------- configuration

/// What a run does.
#[derive(Clone, Debug)]
pub struct Config {
    /// How many inputs to run.
    pub inputs: u64,
    /// Worker threads.
    pub jobs: usize,
    /// Seed of the run: input `i` depends only on it and `i`.
    pub seed: u64,
    /// Longest an input may run.
    pub timeout: Duration,
    /// Longest input, in bytes.
    pub max_len: usize,
    /// Most an input's allocations may grow, in bytes.
    pub memory_limit: usize,
    /// Where findings are written.
    pub out_dir: PathBuf,
    /// Collect up to 20 findings instead of stopping at the first.
    pub keep_going: bool,
    /// Print progress to stderr.
    pub verbose: bool,
    /// For testing the harness itself: input `.0` does `.1` instead of
    /// running its target.
    pub sabotage: Option<(u64, Sabotage)>,
}

/// What a sabotaged input does.
#[derive(Clone, Copy, Debug)]
pub enum Sabotage {
    /// Panics.
    Panic,
    /// Sleeps this long.
    Sleep(Duration),
    /// Allocates (and touches) this many bytes.
    Allocate(usize),
}

impl Default for Config {
    fn default() -> Config {
        Config {
            inputs: 1_000_000,
            jobs: 1,
            seed: 1,
            timeout: Duration::from_millis(1000),
            max_len: 4096,
            memory_limit: 256 << 20,
            out_dir: PathBuf::from("target/fuzz"),
            keep_going: false,
            verbose: true,
            sabotage: None,
        }
    }
}

/// A problem found.
#[derive(Clone, Debug)]
pub struct Finding {
    /// `panic`, `hang` or `memory`.
    pub kind: &'static str,
    /// Index of the input in its run.
    pub index: u64,
    /// The target the input was fed to.
    pub target: &'static str,
    /// What happened.
    pub message: String,
    /// The input.
    pub input: Vec<u8>,
    /// Where the input was written, if it could be.
    pub path: Option<PathBuf>,
}

/// What a run did.
#[derive(Debug)]
pub struct Report {
    /// Inputs run to the end.
    pub inputs: u64,
    /// Of which the target accepted (the rest it rejected with an error).
    pub accepted: u64,
    /// Inputs run and accepted, per target: `.tws`, JSON, scramble files,
    /// KPatterns, algs.
    pub per_target: [(u64, u64); 5],
    /// The longest any input took, and which.
    pub slowest: (Duration, u64),
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Problems found.
    pub findings: Vec<Finding>,
}

// ---------------------------------------------------------------- memory accounting

#[path = "memory.rs"]
mod memory;
use memory::*;

// ---------------------------------------------------------------- randomness

// The mutator draws from the workspace's generator, `SeededRng`.

/// One chance in `one_in`.
fn chance(rng: &mut SeededRng, one_in: usize) -> bool {
    rng.below(one_in) == 0
}

// ---------------------------------------------------------------- targets and seeds

/// Where an input goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Tws,
    Json,
    /// A scramble file for the puzzle of that index in [`Targets::puzzles`].
    Scrambles(usize),
    /// A KPattern for the puzzle of that index.
    KPattern(usize),
    Alg,
}

impl Target {
    fn slot(self) -> usize {
        match self {
            Target::Tws => 0,
            Target::Json => 1,
            Target::Scrambles(_) => 2,
            Target::KPattern(_) => 3,
            Target::Alg => 4,
        }
    }
    fn name(self) -> &'static str {
        match self {
            Target::Tws => "read_puzzle (.tws)",
            Target::Json => "read_puzzle (KPuzzle JSON)",
            Target::Scrambles(_) => "tws::parse_scrambles",
            Target::KPattern(_) => "kpuzzle::parse_kpattern",
            Target::Alg => "Alg::parse",
        }
    }
    fn extension(self) -> &'static str {
        match self {
            Target::Tws => "tws",
            Target::Json | Target::KPattern(_) => "json",
            Target::Scrambles(_) => "scr",
            Target::Alg => "alg",
        }
    }
    fn file(self) -> &'static str {
        match self {
            Target::Tws => "fuzz.tws",
            Target::Json => "fuzz.json",
            Target::Scrambles(_) => "fuzz.scr",
            Target::KPattern(_) => "pattern.json",
            Target::Alg => "alg",
        }
    }
}

/// A made-up puzzle whose move names are the notation's special forms, so
/// fuzzed Square-1 tuples, slashes, Pochmann and clock moves evaluate.
const NOTATION_JSON: &str = r#"{
  "name": "Notation",
  "orbits": [
    {"orbitName": "TOP", "numPieces": 6, "numOrientations": 1},
    {"orbitName": "BOTTOM", "numPieces": 6, "numOrientations": 1},
    {"orbitName": "DIALS", "numPieces": 2, "numOrientations": 12}
  ],
  "defaultPattern": {
    "TOP": {"pieces": [0, 1, 2, 3, 4, 5], "orientation": [0, 0, 0, 0, 0, 0]},
    "BOTTOM": {"pieces": [0, 1, 2, 3, 4, 5], "orientation": [0, 0, 0, 0, 0, 0]},
    "DIALS": {"pieces": [0, 1], "orientation": [0, 0]}
  },
  "moves": {
    "U_SQ_": {"TOP": {"permutation": [5, 0, 1, 2, 3, 4], "orientationDelta": [0, 0, 0, 0, 0, 0]}},
    "D_SQ_": {"BOTTOM": {"permutation": [1, 2, 3, 4, 5, 0], "orientationDelta": [0, 0, 0, 0, 0, 0]}},
    "_SLASH_": {
      "TOP": {"permutation": [0, 1, 2, 3, 4, 5], "orientationDelta": [0, 0, 0, 0, 0, 0]},
      "BOTTOM": {"permutation": [0, 1, 2, 3, 4, 5], "orientationDelta": [0, 0, 0, 0, 0, 0]},
      "DIALS": {"permutation": [1, 0], "orientationDelta": [0, 0]}
    },
    "UR_PLUS_": {"DIALS": {"permutation": [0, 1], "orientationDelta": [1, 0]}},
    "R_PLUSPLUS_": {"DIALS": {"permutation": [0, 1], "orientationDelta": [0, 2]}},
    "R": {"TOP": {"permutation": [1, 0, 2, 3, 4, 5], "orientationDelta": [0, 0, 0, 0, 0, 0]}}
  },
  "derivedMoves": {"2R": "R UR_PLUS_", "Rw": "R R_PLUSPLUS_", "x": "[R: U_SQ_]"}
}
"#;

/// The small puzzles scrambles, KPatterns and algs are read against.
struct Targets {
    puzzles: Vec<(&'static str, Puzzle)>,
}

impl Targets {
    fn new() -> Targets {
        let read = |text: &str, file: &str| {
            read_puzzle(text, file).unwrap_or_else(|e| panic!("seed puzzle: {e}"))
        };
        Targets {
            puzzles: vec![
                ("Cube3", read(support::CUBE3_TWS, "cube3.tws")),
                ("Gadget", read(support::GADGET_TWS, "gadget.tws")),
                ("Widget", read(support::WIDGET_JSON, "widget.json")),
                ("Notation", read(NOTATION_JSON, "notation.json")),
            ],
        }
    }
    fn puzzle(&self, name: &str) -> usize {
        self.puzzles.iter().position(|(n, _)| *n == name).unwrap()
    }
}

struct Seed {
    target: Target,
    text: Vec<u8>,
}

fn seeds(targets: &Targets, max_len: usize) -> Vec<Seed> {
    let mut out = Vec::new();
    let mut add = |target: Target, text: &[u8]| {
        out.push(Seed {
            target,
            text: text[..text.len().min(max_len)].to_vec(),
        })
    };
    for t in [support::CUBE3_TWS, support::GADGET_TWS] {
        add(Target::Tws, t.as_bytes());
    }
    for t in [support::WIDGET_JSON, support::GIZMO_OLD_JSON, NOTATION_JSON] {
        add(Target::Json, t.as_bytes());
    }
    for (_, p) in &targets.puzzles {
        add(Target::Json, kpuzzle::write_kpuzzle(p).as_bytes());
        if let Ok(t) = tws::write_tws(p) {
            add(Target::Tws, t.as_bytes());
        }
    }
    let cube = targets.puzzle("Cube3");
    let gadget = targets.puzzle("Gadget");
    let widget = targets.puzzle("Widget");
    add(Target::Scrambles(cube), support::CUBE3_SCRAMBLES.as_bytes());
    add(
        Target::Scrambles(gadget),
        support::GADGET_SCRAMBLES.as_bytes(),
    );
    add(Target::KPattern(widget), support::WIDGET_PATTERN.as_bytes());
    // Positions the writers make, two moves from the start.
    for (k, (_, p)) in targets.puzzles.iter().enumerate() {
        let l = p.layout();
        let n = p.moves().len();
        let t = l.compose(
            &p.moves()[0].transformation,
            &p.moves()[n - 1].transformation,
        );
        let pos = l.apply(p.start(), &t);
        add(
            Target::KPattern(k),
            kpuzzle::write_kpattern(p, &pos, JsonStyle::Pretty).as_bytes(),
        );
        if let Ok(s) = tws::write_scrambles(p, &[("pos".into(), pos)]) {
            add(Target::Scrambles(k), s.as_bytes());
        }
    }
    for a in support::ALGS {
        add(Target::Alg, a.as_bytes());
    }
    for a in [
        "(3, 0) / (-1, 2) / (0, -3) UR4+ R++ 2R Rw x'",
        "[[R, U]: [U_SQ_: D_SQ_2']]3' (R_PLUSPLUS_ UR_PLUS_5)-7",
    ] {
        add(Target::Alg, a.as_bytes());
    }
    // The conformance suite's malformed inputs.
    if let Some(shared) = support::shared_dir() {
        let bad = shared.join("conformance/bad");
        for (dir, target) in [
            ("tws", Target::Tws),
            ("odd-tws", Target::Tws),
            ("kpuzzle", Target::Json),
        ] {
            let mut files: Vec<PathBuf> = std::fs::read_dir(bad.join(dir))
                .map(|d| d.flatten().map(|e| e.path()).collect())
                .unwrap_or_default();
            files.sort();
            for f in files {
                if let Ok(b) = std::fs::read(&f) {
                    add(target, &b);
                }
            }
        }
        for f in ["algs-bad.txt", "algs-huge.txt"] {
            if let Ok(t) = std::fs::read_to_string(bad.join(f)) {
                for line in t.lines() {
                    add(Target::Alg, line.as_bytes());
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------- the mutator

#[path = "mutate.rs"]
mod mutate;
use mutate::*;

/// Input `index` of a run: a seed and the mutations stacked on it.
fn input_for(seeds: &[Seed], seed: u64, index: u64, max_len: usize) -> (Target, Vec<u8>) {
    let mut rng = SeededRng::new(seed.wrapping_mul(0xD129_0B4B_4F5B_6F2B) ^ index);
    // Targets evenly, then a seed of that target.
    let kinds: [fn(Target) -> bool; 5] = [
        |t| t == Target::Tws,
        |t| t == Target::Json,
        |t| matches!(t, Target::Scrambles(_)),
        |t| matches!(t, Target::KPattern(_)),
        |t| t == Target::Alg,
    ];
    let kind = kinds[rng.below(kinds.len())];
    let same: Vec<&Seed> = seeds.iter().filter(|s| kind(s.target)).collect();
    let s = *rng.pick(&same);
    let others: Vec<&[u8]> = same.iter().map(|s| s.text.as_slice()).collect();
    let mut data = s.text.clone();
    // 1 to 16 mutations, fewer more often.
    let rounds = 1 + (rng.next_u64().trailing_zeros() as usize).min(15);
    for _ in 0..rounds {
        mutate(&mut data, &mut rng, &others, max_len);
    }
    (s.target, data)
}

// ---------------------------------------------------------------- checks

/// Fails a check: the message says what, and the harness records it.
macro_rules! oracle {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            panic!("oracle: {}", format!($($fmt)+));
        }
    };
}

/// Errors must name the file and a line of it (or 0, the file as a whole).
fn check_error(e: &ParseError, file: &str, text: &str) {
    let lines = text.split('\n').count();
    oracle!(
        e.file == file,
        "error names file {:?}, not {file:?}: {e}",
        e.file
    );
    oracle!(e.line <= lines, "error at line {} of {lines}: {e}", e.line);
    let shown = e.to_string();
    oracle!(
        shown.starts_with(file),
        "message does not start with the file: {shown}"
    );
    oracle!(
        shown.len() > file.len() + 3,
        "message says nothing: {shown}"
    );
}

/// Whether two puzzles behave the same, up to the numbers given to
/// identical pieces (which `.tws` renumbers).
fn same_behaviour(a: &Puzzle, b: &Puzzle, what: &str) {
    oracle!(a.layout() == b.layout(), "{what}: orbits differ");
    let dense = |p: &Puzzle| {
        p.layout()
            .pattern_orbits(p.start())
            .into_iter()
            .map(|mut o| {
                let mut ids = o.pieces.clone();
                ids.sort_unstable();
                ids.dedup();
                for x in &mut o.pieces {
                    *x = ids.binary_search(x).unwrap() as u8;
                }
                o
            })
            .collect::<Vec<_>>()
    };
    oracle!(dense(a) == dense(b), "{what}: start patterns differ");
    oracle!(
        a.moves().len() == b.moves().len(),
        "{what}: {} moves, then {}",
        a.moves().len(),
        b.moves().len()
    );
    for m in a.moves() {
        let Some(i) = b.find_move(&m.name) else {
            panic!("oracle: {what}: move {:?} lost", m.name);
        };
        oracle!(
            b.moves()[i].transformation == m.transformation,
            "{what}: move {:?} changed",
            m.name
        );
        oracle!(
            b.moves()[i].is_search_move() == m.is_search_move(),
            "{what}: move {:?} changed its search role",
            m.name
        );
    }
    oracle!(
        a.illegal().len() == b.illegal().len(),
        "{what}: Illegal lost"
    );
}

/// A puzzle the reader accepted: writers must give text that reads back
/// to the same puzzle, and the model must hold together.
fn check_puzzle(p: &Puzzle) -> bool {
    let l = p.layout();
    for m in p.moves() {
        let inv = l.invert(&m.transformation);
        oracle!(
            l.is_identity(&l.compose(&m.transformation, &inv)),
            "move {:?}: t·t⁻¹ is not the identity",
            m.name
        );
    }
    if l.num_points() <= 48 {
        let order = p.group_order(&p.search_moves());
        oracle!(order >= 1u32.into(), "group order {order}");
    }
    let json = write_puzzle(p, PuzzleFormat::KPuzzleJson).unwrap();
    match read_puzzle(&json, "written.json") {
        Ok(q) => same_behaviour(p, &q, "written as JSON"),
        Err(e) => panic!("oracle: written JSON does not read back: {e}\n{json}"),
    }
    match write_puzzle(p, PuzzleFormat::Tws) {
        Ok(t) => match read_puzzle(&t, "written.tws") {
            Ok(q) => same_behaviour(p, &q, "written as .tws"),
            Err(e) => panic!("oracle: written .tws does not read back: {e}\n{t}"),
        },
        Err(e) => oracle!(
            matches!(e.kind, twistor_formats::ParseErrorKind::Unsupported { .. }),
            "write_tws failed: {e}"
        ),
    }
    true
}

/// Algs evaluated on the target puzzles: an inverse alg does the inverse
/// transformation, and an alg does what its moves written out do.
fn check_alg(alg: &Alg, targets: &Targets) {
    let text = alg.to_string();
    match Alg::parse(&text) {
        Ok(back) => oracle!(back == *alg, "printed as {text:?}, which reads differently"),
        Err(e) => panic!("oracle: printed as {text:?}, which does not parse: {e}"),
    }
    let inv = alg.invert();
    oracle!(inv.invert() == *alg, "inverting twice changed {text:?}");
    oracle!(
        inv.move_count() == alg.move_count(),
        "inverse has another move count"
    );
    let expanded = alg.expanded_moves(500);
    if let Ok(moves) = &expanded {
        oracle!(moves.len() as u128 == alg.move_count(), "expansion length");
    } else {
        oracle!(alg.move_count() > 500, "expansion refused below its limit");
    }
    for (name, p) in &targets.puzzles {
        let l = p.layout();
        let Ok(t) = alg_transformation(p, alg) else {
            continue;
        };
        let ti = alg_transformation(p, &inv);
        oracle!(
            ti.as_ref() == Ok(&l.invert(&t)),
            "{name}: the inverse of {text:?} is not the inverse transformation"
        );
        if let Ok(moves) = &expanded {
            let mut u = l.identity();
            for m in moves {
                u = l.compose(&u, &move_transformation(p, m).unwrap());
            }
            oracle!(
                u == t,
                "{name}: {text:?} differs from its moves written out"
            );
        }
    }
}

/// Positions read must survive writing as KPattern JSON and, when they came
/// from a scramble file (KPatterns need not hold the start state's pieces),
/// as a scramble file.
fn check_pattern_round_trip(p: &Puzzle, pos: &Pattern, as_scramble: bool) {
    let json = kpuzzle::write_kpattern(p, pos, JsonStyle::Compact);
    match kpuzzle::parse_kpattern(&json, "written.json", p) {
        Ok(q) => oracle!(q == *pos, "KPattern changed when written: {json}"),
        Err(e) => panic!("oracle: written KPattern does not read back: {e}\n{json}"),
    }
    if !as_scramble {
        return;
    }
    if let Ok(text) = tws::write_scrambles(p, &[("s".into(), pos.clone())]) {
        match tws::parse_scrambles(&text, "written.scr", p) {
            Ok(v) => oracle!(
                matches!(&v[..], [s] if matches!(&s.body, ScrambleBody::Pattern(q) if q == pos)),
                "scramble changed when written: {text}"
            ),
            Err(e) => panic!("oracle: written scramble does not read back: {e}\n{text}"),
        }
    }
}

/// Runs one input; `true` if the target accepted it.
fn run_one(target: Target, data: &[u8], targets: &Targets) -> bool {
    let text = String::from_utf8_lossy(data);
    let file = target.file();
    match target {
        Target::Tws | Target::Json => match read_puzzle(&text, file) {
            Ok(p) => check_puzzle(&p),
            Err(e) => {
                check_error(&e, file, &text);
                false
            }
        },
        Target::Scrambles(k) => {
            let p = &targets.puzzles[k].1;
            match tws::parse_scrambles(&text, file, p) {
                Ok(list) => {
                    for s in &list {
                        match &s.body {
                            ScrambleBody::Pattern(pos) => check_pattern_round_trip(p, pos, true),
                            ScrambleBody::Alg(a) => check_alg(a, targets),
                        }
                    }
                    true
                }
                Err(e) => {
                    check_error(&e, file, &text);
                    false
                }
            }
        }
        Target::KPattern(k) => {
            let p = &targets.puzzles[k].1;
            match kpuzzle::parse_kpattern(&text, file, p) {
                Ok(pos) => {
                    check_pattern_round_trip(p, &pos, false);
                    true
                }
                Err(e) => {
                    check_error(&e, file, &text);
                    false
                }
            }
        }
        Target::Alg => match Alg::parse(&text) {
            Ok(a) => {
                check_alg(&a, targets);
                true
            }
            Err(e) => {
                oracle!(
                    e.column >= 1 && e.column <= text.chars().count() + 1,
                    "column {} of {}",
                    e.column,
                    text.chars().count()
                );
                false
            }
        },
    }
}

// ---------------------------------------------------------------- the run

fn install_panic_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if worker_id().is_some() {
                let msg = info
                    .payload()
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "(no message)".into());
                let at = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let _ = LAST_PANIC.try_with(|p| *p.borrow_mut() = Some(format!("{msg} at {at}")));
            } else {
                previous(info);
            }
        }));
    });
}

fn write_finding(out_dir: &Path, f: &mut Finding, ext: &str) {
    let _ = std::fs::create_dir_all(out_dir);
    let path = out_dir.join(format!("{}-{}.{ext}", f.kind, f.index));
    if std::fs::write(&path, &f.input).is_ok() {
        let note = format!(
            "{} in {} on input {}:\n{}\n",
            f.kind, f.target, f.index, f.message
        );
        let _ = std::fs::write(path.with_extension(format!("{ext}.txt")), note);
        f.path = Some(path);
    }
}

/// Per worker: the input it runs and since when (nanoseconds since the
/// run began, plus one; 0 when idle).
struct Slot {
    index: AtomicU64,
    since: AtomicU64,
}

/// Runs `config.inputs` inputs and reports what it found.
pub fn run(config: &Config) -> Report {
    assert!(config.jobs >= 1 && config.jobs <= MAX_JOBS);
    install_panic_hook();
    let targets = Arc::new(Targets::new());
    let seeds = Arc::new(seeds(&targets, config.max_len));
    let began = Instant::now();
    let next = Arc::new(AtomicU64::new(0));
    let done = Arc::new(AtomicU64::new(0));
    let accepted = Arc::new(AtomicU64::new(0));
    let per_target: Arc<Vec<(AtomicU64, AtomicU64)>> = Arc::new(
        (0..5)
            .map(|_| (AtomicU64::new(0), AtomicU64::new(0)))
            .collect(),
    );
    let slowest = Arc::new(Mutex::new((Duration::ZERO, 0u64)));
    let stop = Arc::new(AtomicBool::new(false));
    let findings: Arc<Mutex<Vec<Finding>>> = Arc::new(Mutex::new(Vec::new()));
    let slots: Arc<Vec<Slot>> = Arc::new(
        (0..config.jobs)
            .map(|_| Slot {
                index: AtomicU64::new(u64::MAX),
                since: AtomicU64::new(0),
            })
            .collect(),
    );
    let max_findings = if config.keep_going { 20 } else { 1 };
    let mut handles = Vec::new();
    for w in 0..config.jobs {
        let (targets, seeds, next, done, accepted, stop, findings, slots) = (
            targets.clone(),
            seeds.clone(),
            next.clone(),
            done.clone(),
            accepted.clone(),
            stop.clone(),
            findings.clone(),
            slots.clone(),
        );
        let (per_target, slowest) = (per_target.clone(), slowest.clone());
        let config = config.clone();
        let handle = std::thread::Builder::new()
            .name(format!("fuzz-{w}"))
            .stack_size(64 << 20)
            .spawn(move || {
                let a = NEXT_SLOT.fetch_add(1, Ordering::Relaxed) % MAX_JOBS;
                WORKER.with(|c| c.set(a));
                let mut my_slowest = (Duration::ZERO, 0u64);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.inputs {
                        break;
                    }
                    let (target, data) = input_for(&seeds, config.seed, i, config.max_len);
                    CURRENT[a].store(i, Ordering::Relaxed);
                    slots[w].index.store(i, Ordering::Relaxed);
                    let base = LIVE[a].load(Ordering::Relaxed);
                    PEAK[a].store(base, Ordering::Relaxed);
                    slots[w]
                        .since
                        .store(began.elapsed().as_nanos() as u64 + 1, Ordering::Release);
                    let t0 = Instant::now();
                    let result =
                        std::panic::catch_unwind(AssertUnwindSafe(|| match config.sabotage {
                            Some((k, how)) if k == i => sabotage(how),
                            _ => run_one(target, &data, &targets),
                        }));
                    slots[w].since.store(0, Ordering::Release);
                    let took = t0.elapsed();
                    if took > my_slowest.0 {
                        my_slowest = (took, i);
                    }
                    let grew = PEAK[a].load(Ordering::Relaxed) - base;
                    let finding = match result {
                        Ok(ok) => {
                            let counts = &per_target[target.slot()];
                            counts.0.fetch_add(1, Ordering::Relaxed);
                            if ok {
                                accepted.fetch_add(1, Ordering::Relaxed);
                                counts.1.fetch_add(1, Ordering::Relaxed);
                            }
                            (grew > config.memory_limit as isize)
                                .then(|| ("memory", format!("allocations grew by {grew} bytes")))
                        }
                        Err(_) => {
                            let msg = LAST_PANIC
                                .with(|p| p.borrow_mut().take())
                                .unwrap_or_else(|| "panic".into());
                            Some(("panic", msg))
                        }
                    };
                    if let Some((kind, message)) = finding {
                        let mut f = Finding {
                            kind,
                            index: i,
                            target: target.name(),
                            message,
                            input: data,
                            path: None,
                        };
                        write_finding(&config.out_dir, &mut f, target.extension());
                        let mut all = findings.lock().unwrap();
                        all.push(f);
                        if all.len() >= max_findings {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    done.fetch_add(1, Ordering::Relaxed);
                }
                WORKER.with(|c| c.set(usize::MAX));
                let mut s = slowest.lock().unwrap();
                if my_slowest.0 > s.0 {
                    *s = my_slowest;
                }
            })
            .expect("spawning a fuzz worker");
        handles.push(handle);
    }
    // The watchdog: hangs, and progress.
    let mut last_report = Instant::now();
    let mut hung = false;
    while handles.iter().any(|h| !h.is_finished()) {
        std::thread::sleep(Duration::from_millis(20));
        let now = began.elapsed().as_nanos() as u64 + 1;
        for slot in slots.iter() {
            let since = slot.since.load(Ordering::Acquire);
            if since != 0 && now.saturating_sub(since) > config.timeout.as_nanos() as u64 {
                let i = slot.index.load(Ordering::Relaxed);
                let (target, data) = input_for(&seeds, config.seed, i, config.max_len);
                let mut f = Finding {
                    kind: "hang",
                    index: i,
                    target: target.name(),
                    message: format!("still running after {:?}", config.timeout),
                    input: data,
                    path: None,
                };
                write_finding(&config.out_dir, &mut f, target.extension());
                findings.lock().unwrap().push(f);
                stop.store(true, Ordering::Relaxed);
                hung = true;
            }
        }
        if hung {
            // The stuck worker cannot be stopped; leave it behind.
            break;
        }
        if config.verbose && last_report.elapsed() >= Duration::from_secs(10) {
            last_report = Instant::now();
            let n = done.load(Ordering::Relaxed);
            eprintln!(
                "fuzz: {n} inputs, {:.0}/s, {} accepted",
                n as f64 / began.elapsed().as_secs_f64(),
                accepted.load(Ordering::Relaxed)
            );
        }
    }
    if !hung {
        for h in handles {
            let _ = h.join();
        }
    }
    let findings = findings.lock().unwrap().clone();
    let mut counts = [(0, 0); 5];
    for (c, a) in counts.iter_mut().zip(per_target.iter()) {
        *c = (a.0.load(Ordering::Relaxed), a.1.load(Ordering::Relaxed));
    }
    let slowest = *slowest.lock().unwrap();
    Report {
        inputs: done.load(Ordering::Relaxed),
        accepted: accepted.load(Ordering::Relaxed),
        per_target: counts,
        slowest,
        elapsed: began.elapsed(),
        findings,
    }
}

fn sabotage(how: Sabotage) -> bool {
    match how {
        Sabotage::Panic => panic!("sabotaged"),
        Sabotage::Sleep(d) => std::thread::sleep(d),
        Sabotage::Allocate(n) => {
            let v = vec![1u8; n];
            std::hint::black_box(&v);
        }
    }
    true
}

/// Runs input `index` alone in this thread and writes it out.
fn replay(config: &Config, index: u64) {
    let targets = Targets::new();
    let seeds = seeds(&targets, config.max_len);
    let (target, data) = input_for(&seeds, config.seed, index, config.max_len);
    let _ = std::fs::create_dir_all(&config.out_dir);
    let path = config
        .out_dir
        .join(format!("replay-{index}.{}", target.extension()));
    std::fs::write(&path, &data).expect("writing the input");
    println!(
        "input {index} ({}) written to {}",
        target.name(),
        path.display()
    );
    let t = Instant::now();
    let accepted = run_one(target, &data, &targets);
    println!(
        "{} in {:?}",
        if accepted { "accepted" } else { "rejected" },
        t.elapsed()
    );
}

fn main() {
    let mut config = Config::default();
    let mut replay_index = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| -> u64 {
            let v = args
                .next()
                .unwrap_or_else(|| panic!("{name} needs a value"));
            v.replace('_', "")
                .parse()
                .unwrap_or_else(|_| panic!("{name}: not a number: {v}"))
        };
        match a.as_str() {
            "--inputs" => config.inputs = value("--inputs"),
            "--jobs" => config.jobs = value("--jobs") as usize,
            "--seed" => config.seed = value("--seed"),
            "--timeout-ms" => config.timeout = Duration::from_millis(value("--timeout-ms")),
            "--max-len" => config.max_len = value("--max-len") as usize,
            "--memory-mb" => config.memory_limit = (value("--memory-mb") as usize) << 20,
            "--replay" => replay_index = Some(value("--replay")),
            "--out" => config.out_dir = PathBuf::from(args.next().expect("--out needs a folder")),
            "--keep-going" => config.keep_going = true,
            "--quiet" => config.verbose = false,
            "-h" | "--help" => {
                println!(
                    "see the documentation at the top of crates/formats/examples/fuzz/main.rs"
                );
                return;
            }
            other => panic!("unknown argument {other:?}"),
        }
    }
    if let Some(i) = replay_index {
        replay(&config, i);
        return;
    }
    let report = run(&config);
    let secs = report.elapsed.as_secs_f64();
    println!(
        "{} inputs in {secs:.1} s ({:.0} inputs/s, {} jobs), {} accepted by their target, {} findings",
        report.inputs,
        report.inputs as f64 / secs,
        config.jobs,
        report.accepted,
        report.findings.len()
    );
    for (name, (n, a)) in ["tws", "json", "scrambles", "kpattern", "alg"]
        .iter()
        .zip(report.per_target)
    {
        println!("  {name:>9}: {n} inputs, {a} accepted");
    }
    println!(
        "  slowest input: {:?} (input {})",
        report.slowest.0, report.slowest.1
    );
    for f in &report.findings {
        println!(
            "{} in {} on input {}: {}\n  input: {}",
            f.kind,
            f.target,
            f.index,
            f.message,
            f.path
                .as_ref()
                .map_or("(not written)".into(), |p| p.display().to_string())
        );
    }
    // Exiting also ends a worker stuck in a hang.
    std::process::exit(if report.findings.is_empty() { 0 } else { 1 });
}
