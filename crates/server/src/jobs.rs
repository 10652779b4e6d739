//! Long work, run as jobs: solving a position and God's algorithm.
//!
//! A job waits for one of a bounded number of workers (beyond a bounded
//! queue it is refused with 503), runs on a blocking thread, and streams
//! its progress as lines of JSON (`application/x-ndjson`): `{"event":
//! "table" | "progress" | "depth" | "solution" | "done" | "error", ...}`.
//! It stops when its client goes away (a line of `{"event": "alive"}`
//! every second finds out soon even when the search itself says nothing),
//! and at the server's job time limit. The engines take a stop flag; the
//! job sets it.

use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;
use twistor_core::store::StoreEvent;
use twistor_core::Pattern;
use twistor_cube333::{solve_two_phase, CubeCorrespondence, TwoPhaseOptions, TwoPhaseTables};
use twistor_formats::alg::Alg;
use twistor_formats::resolve::alg_transformation;
use twistor_search::gods::{self, GodsControl, GodsEvent, GodsOptions};
use twistor_search::{Metric, MoveSet, SolutionCount, TableEvent};
use twistor_tools::portfolio::{
    Engine, Engines, Orientation, Outcome, Portfolio, PortfolioEvent, PortfolioOptions,
};

use crate::api::{blocking, ApiError};
use crate::puzzles::{Loaded, PuzzleRef};
use crate::AppState;

/// How many jobs run, wait and have run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobStats {
    /// Running now.
    pub running: usize,
    /// Waiting for a worker.
    pub waiting: usize,
    /// Started since the server started.
    pub started: usize,
    /// Finished (or stopped) since.
    pub finished: usize,
    /// The most that ever ran at once.
    pub most_running: usize,
}

/// The workers jobs run on.
pub struct Pool {
    permits: Arc<Semaphore>,
    queue: usize,
    running: AtomicUsize,
    waiting: AtomicUsize,
    started: AtomicUsize,
    finished: AtomicUsize,
    most_running: AtomicUsize,
}

impl Pool {
    /// `workers` at once, `queue` more waiting.
    pub fn new(workers: usize, queue: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(workers.max(1))),
            queue,
            running: AtomicUsize::new(0),
            waiting: AtomicUsize::new(0),
            started: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            most_running: AtomicUsize::new(0),
        }
    }

    /// The counts now.
    pub fn stats(&self) -> JobStats {
        JobStats {
            running: self.running.load(Ordering::SeqCst),
            waiting: self.waiting.load(Ordering::SeqCst),
            started: self.started.load(Ordering::SeqCst),
            finished: self.finished.load(Ordering::SeqCst),
            most_running: self.most_running.load(Ordering::SeqCst),
        }
    }
}

/// Where a job's lines go, and its stop flag.
pub struct Lines {
    tx: mpsc::Sender<String>,
    stop: Arc<AtomicBool>,
}

impl Lines {
    /// Sends one line; a client that is gone stops the job.
    fn send(&self, v: Value) {
        if self.tx.blocking_send(format!("{v}\n")).is_err() {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
}

/// A running job's place in the pool: counted out, and its worker given
/// back, when it ends however it ends (a panic too), in that order, so
/// that no more than the workers ever count as running.
struct Running {
    state: Arc<AppState>,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl Drop for Running {
    fn drop(&mut self) {
        let pool = &self.state.jobs;
        pool.running.fetch_sub(1, Ordering::SeqCst);
        pool.finished.fetch_add(1, Ordering::SeqCst);
    }
}

/// Starts `work` as a job and answers with its stream of lines.
async fn run_job(
    state: Arc<AppState>,
    work: impl FnOnce(&Lines) -> Result<(), ApiError> + Send + 'static,
) -> Result<Response, ApiError> {
    let pool = &state.jobs;
    if pool.waiting.load(Ordering::SeqCst) >= pool.queue && pool.permits.available_permits() == 0 {
        return Err(ApiError::busy(
            "the server is busy with other jobs; try again shortly",
        ));
    }
    let (tx, rx) = mpsc::channel::<String>(256);
    let stop = Arc::new(AtomicBool::new(false));
    let lines = Lines {
        tx: tx.clone(),
        stop: Arc::clone(&stop),
    };
    let job_state = Arc::clone(&state);
    tokio::spawn(async move {
        let pool = &job_state.jobs;
        pool.waiting.fetch_add(1, Ordering::SeqCst);
        let permit = Arc::clone(&pool.permits).acquire_owned().await;
        pool.waiting.fetch_sub(1, Ordering::SeqCst);
        let Ok(permit) = permit else { return };
        if lines.tx.is_closed() {
            return; // the client left while the job waited
        }
        let running = pool.running.fetch_add(1, Ordering::SeqCst) + 1;
        pool.most_running.fetch_max(running, Ordering::SeqCst);
        pool.started.fetch_add(1, Ordering::SeqCst);
        // Heartbeat, client watch and time limit.
        let limit = Duration::from_secs(job_state.options.job_seconds);
        let (watch_tx, watch_stop) = (lines.tx.clone(), Arc::clone(&lines.stop));
        let watcher = tokio::spawn(async move {
            let t0 = Instant::now();
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                let alive = watch_tx.send("{\"event\":\"alive\"}\n".to_string()).await;
                if alive.is_err() || t0.elapsed() >= limit {
                    watch_stop.store(true, Ordering::Relaxed);
                    return;
                }
            }
        });
        let counted = Running {
            state: Arc::clone(&job_state),
            _permit: permit,
        };
        let _ = tokio::task::spawn_blocking(move || {
            let result = work(&lines);
            if let Err(e) = result {
                let mut v = e.body();
                v["event"] = json!("error");
                lines.send(v);
            }
            drop(counted);
        })
        .await;
        watcher.abort();
    });
    drop(tx);
    let body = Body::from_stream(ReceiverStream::new(rx).map(Ok::<_, Infallible>));
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// `POST /api/solve`.
#[derive(Deserialize)]
pub struct SolveRequest {
    #[serde(flatten)]
    puzzle: PuzzleRef,
    #[serde(default)]
    alg: String,
    /// `optimal` (the default: the generic search, or the dedicated 3x3x3
    /// solver where it applies) or `two-phase` (the 3x3x3 only).
    #[serde(default)]
    engine: Option<String>,
    /// Longest solution looked for.
    max_depth: Option<u32>,
}

/// `POST /api/solve`: solves the position the alg reaches, streaming the
/// search's progress and then the solution.
pub async fn solve(
    State(state): State<Arc<AppState>>,
    Json(r): Json<SolveRequest>,
) -> Result<Response, ApiError> {
    // Bad input is answered at once, with its status, not inside the stream.
    let (loaded, start) = {
        let state = Arc::clone(&state);
        let (puzzle, alg) = (r.puzzle.clone(), r.alg.clone());
        blocking(move || {
            let loaded = state.puzzles.load(&puzzle)?;
            let parsed = Alg::parse(&alg).map_err(|e| ApiError::alg(&e))?;
            let t = alg_transformation(&loaded.solving, &parsed).map_err(|e| ApiError::alg(&e))?;
            let start = loaded.solving.layout().apply(loaded.solving.start(), &t);
            Ok((loaded, start))
        })
        .await?
    };
    let engine = r.engine.unwrap_or_else(|| "optimal".to_string());
    if engine != "optimal" && engine != "two-phase" {
        return Err(ApiError::bad_request(format!(
            "engine {engine:?}: optimal or two-phase"
        )));
    }
    let max_depth = r.max_depth.unwrap_or(40).min(100);
    let job_state = Arc::clone(&state);
    run_job(state, move |lines| {
        if engine == "two-phase" {
            two_phase_job(&job_state, &loaded, &start, lines)
        } else {
            solve_optimal(&job_state, &loaded, &start, max_depth, lines)
        }
    })
    .await
}

fn table_line(e: &TableEvent) -> Option<Value> {
    match e {
        TableEvent::Filling(p) => Some(json!({
            "event": "table", "table": p.table, "depth": p.depth,
            "reached": p.reached, "size": p.size,
        })),
        TableEvent::Hashing { depth, entries } => Some(json!({
            "event": "table", "table": "hashed", "depth": depth, "size": entries,
        })),
        TableEvent::Store(StoreEvent::Building { key, bytes, .. }) => Some(json!({
            "event": "table", "table": key.name, "building": bytes,
        })),
        TableEvent::Store(_) => None,
    }
}

fn solve_optimal(
    state: &AppState,
    loaded: &Loaded,
    start: &Pattern,
    max_depth: u32,
    lines: &Lines,
) -> Result<(), ApiError> {
    let puzzle = &loaded.solving;
    let moves =
        MoveSet::all(puzzle, Metric::Htm).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let options = PortfolioOptions {
        memory_bytes: state.options.memory_bytes,
        dedicated_memory_bytes: state.options.memory_bytes,
        threads: state.options.threads,
        count: SolutionCount::First(1),
        min_depth: 0,
        max_depth,
        engines: Engines::Any,
        orientation: Orientation::AsHeld,
        symmetry: true,
        store: Arc::clone(&state.options.store),
        optimal_progress: None,
    };
    let stop = &*lines.stop;
    let t0 = Instant::now();
    let mut events = |e: PortfolioEvent| {
        let line = match e {
            PortfolioEvent::Table(e) => table_line(&e),
            PortfolioEvent::Search(p) => Some(json!({
                "event": "progress", "depth": p.depth, "nodes": p.nodes,
                "seconds": t0.elapsed().as_secs_f64(),
            })),
            PortfolioEvent::Notice(n) => Some(json!({
                "event": "notice", "notice": format!("{n:?}"),
            })),
        };
        if let Some(v) = line {
            lines.send(v);
        }
    };
    let mut portfolio = Portfolio::new(
        puzzle,
        moves,
        puzzle.start().clone(),
        options,
        stop,
        &mut events,
    )
    .map_err(|e| ApiError::bad_request(e.to_string()))?;
    let answer = portfolio
        .solve(start, stop, &mut events)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    portfolio.save_grown_tables(twistor_search::SaveGrown::All, &mut events);
    for s in &answer.solutions {
        lines.send(json!({
            "event": "solution", "alg": s, "length": answer.length,
            "engine": match answer.engine { Engine::Generic => "generic", Engine::Dedicated => "dedicated" },
        }));
    }
    let outcome = match answer.outcome {
        Outcome::Solved => "solved",
        Outcome::NotWithin => "none within the depth",
        Outcome::Unreachable => "unreachable",
        Outcome::Stopped => "stopped",
    };
    lines.send(json!({
        "event": "done", "outcome": outcome, "nodes": answer.nodes,
        "seconds": t0.elapsed().as_secs_f64(),
    }));
    Ok(())
}

/// The two-phase tables, loaded once for the server's life.
static TWO_PHASE: OnceLock<TwoPhaseTables> = OnceLock::new();

fn two_phase_job(
    state: &AppState,
    loaded: &Loaded,
    start: &Pattern,
    lines: &Lines,
) -> Result<(), ApiError> {
    let puzzle = &loaded.solving;
    let corr = CubeCorrespondence::find(puzzle, &puzzle.search_moves()).ok_or_else(|| {
        ApiError::bad_request("two-phase solves the 3x3x3 only; this puzzle is not it")
    })?;
    let t0 = Instant::now();
    let words = two_phase(state, puzzle, &corr, start, &mut |e| {
        if let Some(v) = table_line(&TableEvent::Store(e)) {
            lines.send(v);
        }
    })?;
    lines.send(json!({
        "event": "solution", "alg": words.join(" "), "length": words.len(), "engine": "two-phase",
    }));
    lines.send(json!({
        "event": "done", "outcome": "solved", "seconds": t0.elapsed().as_secs_f64(),
    }));
    Ok(())
}

/// A two-phase solution of `position` on the 3x3x3 `corr` finds in
/// `puzzle`, in its move names; the tables load once for the server's life
/// (what happens to them goes to `report`).
fn two_phase(
    state: &AppState,
    puzzle: &twistor_core::Puzzle,
    corr: &CubeCorrespondence,
    position: &Pattern,
    report: &mut dyn FnMut(StoreEvent),
) -> Result<Vec<String>, ApiError> {
    let cube = corr.cube(puzzle.layout(), position).ok_or_else(|| {
        ApiError::bad_request("not a position of the cube (pieces or orientations unknown)")
    })?;
    let tables =
        TWO_PHASE.get_or_init(|| TwoPhaseTables::for_solves(&*state.options.store, 1, report));
    // Looking on for a thousand probes after the first answer gives an easy
    // cube a short one (milliseconds), as `333 solve` does.
    let options = TwoPhaseOptions {
        improve_probes: 1000,
        ..TwoPhaseOptions::default()
    };
    let solution = solve_two_phase(tables, &cube, &options)
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(corr.move_names(puzzle, &solution.moves))
}

/// A solution of `position` found without a job's stream (two-phase on
/// the 3x3x3, else the portfolio), or `None` when none comes within
/// `secs` seconds.
pub fn solve_quietly(
    state: &AppState,
    loaded: &Loaded,
    position: &Pattern,
    secs: u64,
) -> Option<String> {
    let puzzle = &loaded.solving;
    if let Some(corr) = CubeCorrespondence::find(puzzle, &puzzle.search_moves()) {
        let words = two_phase(state, puzzle, &corr, position, &mut |_| {}).ok()?;
        return Some(words.join(" "));
    }
    let moves = MoveSet::all(puzzle, Metric::Htm).ok()?;
    let options = PortfolioOptions {
        memory_bytes: state.options.memory_bytes,
        dedicated_memory_bytes: state.options.memory_bytes,
        threads: state.options.threads,
        count: SolutionCount::First(1),
        min_depth: 0,
        max_depth: 40,
        engines: Engines::GenericOnly,
        orientation: Orientation::AsHeld,
        symmetry: true,
        store: Arc::clone(&state.options.store),
        optimal_progress: None,
    };
    let stop = AtomicBool::new(false);
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let answer = std::thread::scope(|scope| {
        // Stops the search after `secs`, unless it ends first (the channel
        // closes).
        let stop = &stop;
        scope.spawn(move || {
            let waited = finished.recv_timeout(Duration::from_secs(secs));
            if waited == Err(std::sync::mpsc::RecvTimeoutError::Timeout) {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let answer = Portfolio::new(
            puzzle,
            moves,
            puzzle.start().clone(),
            options,
            stop,
            &mut |_| {},
        )
        .ok()
        .and_then(|mut p| p.solve(position, stop, &mut |_| {}).ok());
        drop(done);
        answer
    });
    answer
        .filter(|a| a.outcome == Outcome::Solved)
        .and_then(|a| a.solutions.into_iter().next())
}

/// `POST /api/gods`.
#[derive(Deserialize)]
pub struct GodsRequest {
    #[serde(flatten)]
    puzzle: PuzzleRef,
    /// The moves, comma-separated (all of the puzzle's when absent).
    #[serde(default)]
    moves: Option<String>,
}

/// `POST /api/gods`: the distance distribution of every position the
/// moves reach, depth by depth, then the local maxima.
pub async fn gods(
    State(state): State<Arc<AppState>>,
    Json(r): Json<GodsRequest>,
) -> Result<Response, ApiError> {
    let (loaded, moves) = {
        let state = Arc::clone(&state);
        blocking(move || {
            let loaded = state.puzzles.load(&r.puzzle)?;
            let p = &loaded.solving;
            let moves = match r.moves.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
                None => MoveSet::all(p, Metric::Htm),
                Some(list) => {
                    let names: Vec<String> = list
                        .split([',', ' '])
                        .filter(|s| !s.is_empty())
                        .map(String::from)
                        .collect();
                    MoveSet::named(p, &names, Metric::Htm)
                }
            }
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
            Ok((loaded, moves))
        })
        .await?
    };
    let job_state = Arc::clone(&state);
    run_job(state, move |lines| {
        let options = GodsOptions {
            local_maxima: true,
            threads: job_state.options.threads,
            memory_limit: job_state.options.memory_bytes,
            ..GodsOptions::default()
        };
        let progress = |e: &GodsEvent| {
            if let GodsEvent::LevelFinished {
                depth,
                positions,
                total,
            } = e
            {
                lines.send(json!({
                    "event": "depth", "depth": depth, "positions": positions, "total": total,
                }));
            }
        };
        let t0 = Instant::now();
        let control = GodsControl {
            stop: Some(&lines.stop),
            progress: Some(&progress),
            ..GodsControl::default()
        };
        let report = gods::enumerate(&loaded.solving, &moves, &options, control)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let table = &report.table;
        lines.send(json!({
            "event": "done",
            "total": table.total(),
            "diameter": table.diameter(),
            "counts": table.counts,
            "local_maxima": table.local_maxima,
            "seconds": t0.elapsed().as_secs_f64(),
        }));
        Ok(())
    })
    .await
}
