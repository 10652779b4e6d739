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
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{mpsc, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;
use twistor_core::store::StoreEvent;
use twistor_core::Pattern;
use twistor_formats::resolve::alg_transformation;
use twistor_search::gods::{self, GodsControl, GodsEvent, GodsOptions};
use twistor_search::{Metric, MoveSet, TableEvent};
use twistor_tools::portfolio::{Mode, Outcome, Portfolio, PortfolioEvent, PortfolioOptions};

use crate::api::{blocking, ApiError, JsonBody};
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
#[derive(Clone)]
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
pub struct Running {
    state: Arc<AppState>,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

impl Running {
    /// Counts in a job that holds `permit`.
    fn start(state: &Arc<AppState>, permit: tokio::sync::OwnedSemaphorePermit) -> Running {
        let pool = &state.jobs;
        let running = pool.running.fetch_add(1, Ordering::SeqCst) + 1;
        pool.most_running.fetch_max(running, Ordering::SeqCst);
        pool.started.fetch_add(1, Ordering::SeqCst);
        Running {
            state: Arc::clone(state),
            _permit: permit,
        }
    }
}

/// A worker for work that answers in one response rather than a stream
/// (the solve behind a random state or an imported pattern): waits up to
/// `wait` for one, else the server is busy (503). It counts as a running
/// job until dropped, so such work is bounded by the workers like any job.
pub async fn enter(state: &Arc<AppState>, wait: Duration) -> Result<Running, ApiError> {
    let pool = &state.jobs;
    pool.waiting.fetch_add(1, Ordering::SeqCst);
    let permit = tokio::time::timeout(wait, Arc::clone(&pool.permits).acquire_owned()).await;
    pool.waiting.fetch_sub(1, Ordering::SeqCst);
    match permit {
        Ok(Ok(permit)) => Ok(Running::start(state, permit)),
        _ => Err(ApiError::busy(
            "the server is busy with other jobs; try again shortly",
        )),
    }
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
        let counted = Running::start(&job_state, permit);
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
    /// `fast` (an answer for every puzzle, from the engine that fits it)
    /// or `optimal` (the shortest, where the search is within reach);
    /// `two-phase` is read as `fast`.
    #[serde(default)]
    engine: Option<String>,
    /// Longest solution looked for.
    max_depth: Option<u32>,
}

/// `POST /api/solve`: solves the position the alg reaches, streaming the
/// search's progress and then the solution.
pub async fn solve(
    State(state): State<Arc<AppState>>,
    JsonBody(r): JsonBody<SolveRequest>,
) -> Result<Response, ApiError> {
    // Bad input is answered at once, with its status, not inside the stream.
    let (loaded, start) = {
        let state = Arc::clone(&state);
        let (puzzle, alg) = (r.puzzle.clone(), r.alg.clone());
        blocking(Arc::clone(&state.quick), move || {
            let loaded = state.puzzles.load(&puzzle, state.options.memory_bytes)?;
            let parsed = crate::api::parse_alg(&alg)?;
            let t = alg_transformation(&loaded.solving, &parsed).map_err(|e| ApiError::alg(&e))?;
            let start = loaded.solving.layout().apply(loaded.solving.start(), &t);
            Ok((loaded, start))
        })
        .await?
    };
    let mode = match r.engine.as_deref().unwrap_or("fast") {
        "fast" | "two-phase" => Mode::Fast,
        "optimal" => Mode::Optimal,
        other => {
            return Err(ApiError::bad_request(format!(
                "engine {other:?}: fast or optimal"
            )))
        }
    };
    let max_depth = r.max_depth.unwrap_or(40).min(100);
    let job_state = Arc::clone(&state);
    run_job(state, move |lines| {
        solve_job(&job_state, &loaded, &start, mode, max_depth, lines)
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

/// How often the optimal 3x3x3 solver's progress is sent: often enough
/// that a page never waits a second for news.
const OPTIMAL_PROGRESS_EVERY: Duration = Duration::from_millis(400);

/// The optimal 3x3x3 solver's progress as `progress` lines (depth, nodes,
/// the share of the depth searched), at most every
/// [`OPTIMAL_PROGRESS_EVERY`], and whenever a depth is done. Called from
/// the solver's threads.
fn optimal_progress(lines: Lines) -> Arc<dyn Fn(twistor_cube333::OptimalProgress) + Send + Sync> {
    let t0 = Instant::now();
    let last = std::sync::Mutex::new(None::<Instant>);
    Arc::new(move |p| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        let due = last.is_none_or(|t| t.elapsed() >= OPTIMAL_PROGRESS_EVERY);
        if !(due || p.depth_done) {
            return;
        }
        *last = Some(Instant::now());
        lines.send(json!({
            "event": "progress", "depth": p.depth, "nodes": p.nodes,
            "done": p.prefixes_done as f64 / p.prefixes.max(1) as f64,
            "seconds": t0.elapsed().as_secs_f64(),
        }));
    })
}

fn solve_job(
    state: &AppState,
    loaded: &Loaded,
    start: &Pattern,
    mode: Mode,
    max_depth: u32,
    lines: &Lines,
) -> Result<(), ApiError> {
    let puzzle = &loaded.solving;
    let moves =
        MoveSet::all(puzzle, Metric::Htm).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let options = PortfolioOptions {
        memory_bytes: state.job_tables(),
        dedicated_memory_bytes: (state.options.dedicated_memory_bytes)
            .unwrap_or_else(|| state.job_tables()),
        build_huge_table: false,
        threads: state.options.threads,
        max_depth,
        store: Arc::clone(&state.options.store),
        optimal_progress: Some(optimal_progress(lines.clone())),
        ..PortfolioOptions::new(mode)
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
            PortfolioEvent::Step(s) => Some(json!({
                "event": "progress", "stage": s.stage, "step": s.what, "moves": s.moves,
                "seconds": t0.elapsed().as_secs_f64(),
            })),
            PortfolioEvent::Notice(n) => Some(json!({
                "event": "notice", "notice": n.describe(),
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
            "engine": answer.engine.name(), "engine_title": answer.engine.title(),
            "optimal": answer.optimal,
        }));
    }
    let outcome = match answer.outcome {
        Outcome::Solved => "solved",
        Outcome::NotWithin => "none within the depth",
        Outcome::Unreachable => "unreachable",
        Outcome::Stopped => "stopped",
        Outcome::OutOfReach => "optimal search out of reach",
    };
    lines.send(json!({
        "event": "done", "outcome": outcome, "nodes": answer.nodes,
        "seconds": t0.elapsed().as_secs_f64(),
    }));
    Ok(())
}

/// A solution of `position` found without a job's stream (the portfolio's
/// fast mode), or `None` when none comes within `secs` seconds.
pub fn solve_quietly(
    state: &AppState,
    loaded: &Loaded,
    position: &Pattern,
    secs: u64,
) -> Option<String> {
    let puzzle = &loaded.solving;
    let moves = MoveSet::all(puzzle, Metric::Htm).ok()?;
    let options = PortfolioOptions {
        memory_bytes: state.job_tables(),
        dedicated_memory_bytes: (state.options.dedicated_memory_bytes)
            .unwrap_or_else(|| state.job_tables()),
        build_huge_table: false,
        threads: state.options.threads,
        store: Arc::clone(&state.options.store),
        ..PortfolioOptions::new(Mode::Fast)
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
    JsonBody(r): JsonBody<GodsRequest>,
) -> Result<Response, ApiError> {
    let (loaded, moves) = {
        let state = Arc::clone(&state);
        blocking(Arc::clone(&state.quick), move || {
            let loaded = state.puzzles.load(&r.puzzle, state.options.memory_bytes)?;
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
            memory_limit: twistor_tools::budget::for_tables(
                job_state.options.memory_bytes,
                0,
                twistor_tools::budget::EXACT_RESERVE,
            ),
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
