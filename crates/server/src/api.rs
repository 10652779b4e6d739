//! The quick requests: the puzzles known, a position and its picture after
//! an alg's first moves, WCA scrambles, exports and the server's status.
//! Each builds or reads what it needs on a blocking thread and answers in
//! JSON; a bad puzzle, alg or definition gets the located message the
//! command line gives, as `{"error": ..., "column": ...}` with a 4xx status.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;

use axum::extract::{FromRequest, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use twistor_formats::alg::{Alg, AlgError, AlgNode};
use twistor_formats::kpuzzle::{write_kpattern, JsonStyle};
use twistor_formats::resolve::alg_transformation;
use twistor_geometry::svg::SvgOptions;
use twistor_tools::budget::check_group;
use twistor_tools::scramble::{Event, ScrambleOptions, Scrambler};
use twistor_tools::sequence::amounts_reduced;

use crate::puzzles::PuzzleRef;
use crate::{view, AppState};

/// Moves an alg may expand to.
const MOVE_LIMIT: usize = 100_000;

/// Longest alg a request may carry, in bytes: far beyond any alg a person
/// writes, and small enough that the few quick requests at a time parse
/// theirs in a few megabytes.
const ALG_LIMIT: usize = 128 << 10;

/// An alg from a request, refused (400) past [`ALG_LIMIT`].
pub fn parse_alg(text: &str) -> Result<Alg, ApiError> {
    if text.len() > ALG_LIMIT {
        return Err(ApiError::bad_request(format!(
            "alg: {} KiB is longer than the {} KiB a request may carry",
            text.len() >> 10,
            ALG_LIMIT >> 10
        )));
    }
    Alg::parse(text).map_err(|e| ApiError::alg(&e))
}

/// A request's failure, as JSON with its status.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    column: Option<usize>,
}

impl ApiError {
    /// 400 with `message`.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
            column: None,
        }
    }

    /// 404 with `message`.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
            column: None,
        }
    }

    /// 403: a request from elsewhere than the server's own page.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::FORBIDDEN,
            message: message.into(),
            column: None,
        }
    }

    /// 413: a request for more than the server's limits allow.
    pub fn too_large(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: message.into(),
            column: None,
        }
    }

    /// 503: the workers are busy.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
            column: None,
        }
    }

    /// 400 for an alg, at its column.
    pub fn alg(e: &AlgError) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: format!("alg: {e}"),
            column: Some(e.column),
        }
    }

    /// The JSON body.
    pub fn body(&self) -> Value {
        json!({ "error": self.message, "column": self.column })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body())).into_response()
    }
}

/// A JSON request body; one that is not JSON, lacks a field or has one of
/// the wrong type is refused with the API's error body, not axum's text.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(ApiError {
                // A missing or mistyped field is as bad a request as
                // broken JSON; other statuses (413, 415) say more.
                status: match rejection.status() {
                    StatusCode::UNPROCESSABLE_ENTITY => StatusCode::BAD_REQUEST,
                    status => status,
                },
                message: format!("request body: {}", rejection.body_text()),
                column: None,
            }),
        }
    }
}

/// How long a quick request waits for its turn before it is told the
/// server is busy.
const QUICK_WAIT: Duration = Duration::from_secs(10);

/// Runs `work` on a blocking thread (puzzles are built and positions
/// computed there, never on the async workers), as one of the server's
/// few quick requests at a time: beyond them a request waits, and after
/// [`QUICK_WAIT`] is refused (503), so no number of requests holds more
/// than those few puzzles' work in memory at once.
pub async fn blocking<T: Send + 'static>(
    turns: Arc<Semaphore>,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let turn = tokio::time::timeout(QUICK_WAIT, turns.acquire_owned()).await;
    let Ok(Ok(permit)) = turn else {
        return Err(ApiError::busy(
            "the server is busy with other requests; try again shortly",
        ));
    };
    tokio::task::spawn_blocking(move || {
        let _turn = permit;
        work()
    })
    .await
    .unwrap_or_else(|e| Err(ApiError::bad_request(format!("the request failed: {e}"))))
}

/// `GET /api/puzzles`: the names a puzzle may be given by, the WCA
/// events, and each puzzle's main event.
pub async fn puzzles() -> Json<Value> {
    let mut names: Vec<&str> = twistor_geometry::NAMED_PUZZLES
        .iter()
        .map(|(n, _)| *n)
        .collect();
    names.extend(twistor_tools::catalog::DESCRIPTORS.iter().map(|(n, _)| *n));
    names.extend(twistor_tools::catalog::CURVED.iter().map(|(n, _, _)| *n));
    names.extend(twistor_tools::handmade::ids());
    // Each puzzle's main event (the first listed for it: 333 for the
    // 3x3x3, not 333bf), for the page to offer.
    let mut event_of = serde_json::Map::new();
    for id in Event::names() {
        if let Ok(e) = Event::parse(id) {
            event_of.entry(e.puzzle_name()).or_insert_with(|| json!(id));
        }
    }
    Json(json!({ "puzzles": names, "events": Event::names(), "event_of": event_of }))
}

/// `GET /api/status`: the jobs running, waiting and done.
pub async fn status(State(state): State<Arc<AppState>>) -> Json<Value> {
    let s = state.jobs.stats();
    Json(json!({
        "running": s.running,
        "waiting": s.waiting,
        "started": s.started,
        "finished": s.finished,
        "most_running": s.most_running,
        "workers": state.options.workers,
    }))
}

/// `POST /api/apply`.
#[derive(Deserialize)]
pub struct ApplyRequest {
    #[serde(flatten)]
    puzzle: PuzzleRef,
    #[serde(default)]
    alg: String,
    /// How many of the alg's moves to apply (all when absent).
    step: Option<usize>,
    width: Option<f64>,
    height: Option<f64>,
}

/// `POST /api/apply`: the alg's moves, and the position and picture after
/// the first `step` of them.
pub async fn apply(
    State(state): State<Arc<AppState>>,
    JsonBody(r): JsonBody<ApplyRequest>,
) -> Result<Json<Value>, ApiError> {
    blocking(Arc::clone(&state.quick), move || {
        let loaded = state.puzzles.load(&r.puzzle, state.options.memory_bytes)?;
        let alg = parse_alg(&r.alg)?;
        // Every move must exist: checked on the whole alg, so the column
        // points into what was typed.
        alg_transformation(&loaded.solving, &alg).map_err(|e| ApiError::alg(&e))?;
        let steps = alg.steps(MOVE_LIMIT).map_err(|e| ApiError::alg(&e))?;
        let step = r.step.unwrap_or(steps.len()).min(steps.len());
        let prefix = Alg::joined(&steps[..step]);
        let solving = &loaded.solving;
        let t = alg_transformation(solving, &prefix).map_err(|e| ApiError::alg(&e))?;
        let pattern = solving.layout().apply(solving.start(), &t);
        let kpattern: Value =
            serde_json::from_str(&write_kpattern(solving, &pattern, JsonStyle::Compact))
                .unwrap_or(Value::Null);
        let (mut svg, mut colors, mut turns) = (None, None, None);
        if loaded.drawing.is_none() {
            svg = Some(twistor_tools::picture::orbits_svg(solving, &pattern));
        }
        if let Some(d) = &loaded.drawing {
            let drawn = d.puzzle();
            let t = alg_transformation(drawn, &prefix).map_err(|e| ApiError::alg(&e))?;
            let drawn_pattern = drawn.layout().apply(drawn.start(), &t);
            let options = SvgOptions {
                width: r.width.unwrap_or(800.0).clamp(50.0, 4000.0),
                height: r.height.unwrap_or(500.0).clamp(50.0, 4000.0),
            };
            svg = Some(d.svg(&d.shapes(&drawn_pattern), &options));
            colors = view::colors(d, &drawn_pattern);
            turns = view::turns(d, &steps);
        }
        Ok(Json(json!({
            "name": loaded.name,
            "moves": steps.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "spans": spans(&r.alg, &alg),
            "step": step,
            "svg": svg,
            "colors": colors,
            "turns": turns,
            "pattern": kpattern,
            "solved": pattern == *solving.start(),
        })))
    })
    .await
}

/// Where each move stands in `text` (character offsets, end exclusive),
/// when the alg is a plain sequence of moves; `None` otherwise (a
/// commutator's moves are not where they are written).
fn spans(text: &str, alg: &Alg) -> Option<Vec<[usize; 2]>> {
    if !alg.nodes().iter().all(|n| matches!(n, AlgNode::Move(_))) {
        return None;
    }
    let mut out = Vec::new();
    let mut start = None;
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push([s, i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push([s, chars.len()]);
    }
    (out.len() == alg.nodes().len()).then_some(out)
}

/// Scramblers kept per event, so their tables load once.
#[derive(Default)]
pub struct Scramblers {
    kept: Mutex<HashMap<&'static str, Scrambler>>,
    /// Held while a scrambler's tables are built, so that the first
    /// requests for an event build them once, not each.
    building: Mutex<()>,
}

/// `POST /api/scramble`.
#[derive(Deserialize)]
pub struct ScrambleRequest {
    event: String,
    seed: Option<u64>,
}

/// `POST /api/scramble`: a WCA scramble of `event`, and the puzzle to
/// show it on.
pub async fn scramble(
    State(state): State<Arc<AppState>>,
    JsonBody(r): JsonBody<ScrambleRequest>,
) -> Result<Json<Value>, ApiError> {
    blocking(Arc::clone(&state.quick), move || {
        let event = Event::parse(&r.event).map_err(|e| ApiError::not_found(e.to_string()))?;
        let options = ScrambleOptions {
            store: Arc::clone(&state.options.store),
            threads: state.options.threads,
            batch: 1,
        };
        let new = |seed| {
            Scrambler::new(event, seed, &options, &mut |_| {})
                .map_err(|e| ApiError::bad_request(e.to_string()))
        };
        // One scrambler an event, its tables built once and outside the
        // lock (the 4x4x4's take seconds the first time); a seeded request
        // is that seed's first scramble, made from the same tables.
        let lock = || {
            state
                .scramblers
                .kept
                .lock()
                .unwrap_or_else(|e| e.into_inner())
        };
        let building = state
            .scramblers
            .building
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if !lock().contains_key(event.id()) {
            let seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64);
            let mut fresh = new(seed)?;
            // A scrambler kept for every later request pays for all its
            // tables now.
            fresh.complete_tables(&mut |_| {});
            lock().entry(event.id()).or_insert(fresh);
        }
        drop(building);
        let mut kept = lock();
        let Some(scrambler) = kept.get_mut(event.id()) else {
            return Err(ApiError::bad_request("scrambler lost".to_string()));
        };
        let scramble = match r.seed {
            Some(seed) => scrambler.scramble_of(seed, 0),
            None => scrambler.next_scramble(),
        };
        Ok(Json(json!({
            "event": event.id(),
            "puzzle": event.puzzle_name(),
            "alg": scramble.alg,
            "distance": scramble.distance,
        })))
    })
    .await
}

/// `POST /api/export`.
#[derive(Deserialize)]
pub struct ExportRequest {
    #[serde(flatten)]
    puzzle: PuzzleRef,
    #[serde(default)]
    alg: String,
    /// `kpattern`, `tws` (the definition) or `scramble` (a scramble file).
    format: String,
}

/// `POST /api/export`: the position as KPattern JSON or a scramble file,
/// or the puzzle's definition as `.tws`.
pub async fn export(
    State(state): State<Arc<AppState>>,
    JsonBody(r): JsonBody<ExportRequest>,
) -> Result<Json<Value>, ApiError> {
    blocking(Arc::clone(&state.quick), move || {
        let loaded = state.puzzles.load(&r.puzzle, state.options.memory_bytes)?;
        let p = &loaded.solving;
        let alg = parse_alg(&r.alg)?;
        let t = alg_transformation(p, &alg).map_err(|e| ApiError::alg(&e))?;
        let pattern = p.layout().apply(p.start(), &t);
        let text = match r.format.as_str() {
            "kpattern" => write_kpattern(p, &pattern, JsonStyle::Pretty),
            "tws" => twistor_formats::tws::write_tws(p)
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
            "scramble" => twistor_formats::tws::write_scrambles(p, &[("Position".into(), pattern)])
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
            other => {
                return Err(ApiError::bad_request(format!(
                    "format {other:?}: kpattern, tws or scramble"
                )))
            }
        };
        Ok(Json(json!({ "text": text })))
    })
    .await
}

/// `POST /api/random`.
#[derive(Deserialize)]
pub struct RandomRequest {
    #[serde(flatten)]
    puzzle: PuzzleRef,
    seed: Option<u64>,
}

/// Seconds a random state's solve may take before random moves are
/// given instead.
const RANDOM_STATE_SECS: u64 = 10;

/// `POST /api/random`: a uniformly random position of the puzzle, as an
/// alg that reaches it (the inverse of a solution: two-phase on the
/// 3x3x3, the portfolio's optimal search elsewhere). When no solution is
/// found within a few seconds (big puzzles), a random-move sequence is
/// given instead, and said to be one (`"random_state": false`).
pub async fn random(
    State(state): State<Arc<AppState>>,
    JsonBody(r): JsonBody<RandomRequest>,
) -> Result<Json<Value>, ApiError> {
    let worker = crate::jobs::enter(&state, Duration::from_secs(RANDOM_STATE_SECS)).await?;
    blocking(Arc::clone(&state.quick), move || {
        let _worker = worker;
        let loaded = state.puzzles.load(&r.puzzle, state.options.memory_bytes)?;
        let seed = r.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let p = &loaded.solving;
        let grips = p.search_moves();
        // The group a random state is drawn from must fit in a job's
        // memory; where it might not (the 40x40x40's takes 2.4 GiB),
        // random moves are given, and said to be.
        let drawn = match check_group(p, state.options.memory_bytes) {
            Ok(()) => {
                let position =
                    twistor_tools::random::RandomStates::new(p, &grips, seed).next_pattern();
                crate::jobs::solve_quietly(&state, &loaded, &position, RANDOM_STATE_SECS)
                    .ok_or_else(|| {
                        format!("no solution of a random state came within {RANDOM_STATE_SECS} s")
                    })
            }
            Err(e) => Err(e.to_string()),
        };
        let (alg, random_state, note) = match drawn {
            Ok(s) => (
                Alg::parse(&s)
                    .map(|a| amounts_reduced(p, &a.invert()).to_string())
                    .unwrap_or_default(),
                true,
                None,
            ),
            Err(why) => (random_moves(p, &grips, seed), false, Some(why)),
        };
        Ok(Json(
            json!({ "alg": alg, "random_state": random_state, "seed": seed, "note": note }),
        ))
    })
    .await
}

/// 30 random moves of `grips`, no two in a row on one grip.
fn random_moves(p: &twistor_core::Puzzle, grips: &[usize], seed: u64) -> String {
    let mut rng = twistor_core::random::SeededRng::new(seed);
    let mut out: Vec<String> = Vec::new();
    let mut last = usize::MAX;
    while out.len() < 30 && grips.len() > 1 {
        let g = *rng.pick(grips);
        if g == last {
            continue;
        }
        last = g;
        out.push(twistor_core::power_name(
            &p.moves()[g].name,
            *rng.pick(&[1, 2, -1]),
        ));
    }
    out.join(" ")
}

/// `POST /api/import`.
#[derive(Deserialize)]
pub struct ImportRequest {
    #[serde(flatten)]
    puzzle: PuzzleRef,
    /// A scramble file, KPattern JSON or alg lines, as the command line
    /// reads positions.
    text: String,
    /// Its file name, for messages.
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/import`: the first position of a scramble file, a KPattern
/// or an alg line, as an alg the page can step through: the alg itself,
/// or for a position given as a pattern the inverse of a solution (found
/// within a few seconds, else an error saying so).
pub async fn import(
    State(state): State<Arc<AppState>>,
    JsonBody(r): JsonBody<ImportRequest>,
) -> Result<Json<Value>, ApiError> {
    let worker = crate::jobs::enter(&state, Duration::from_secs(RANDOM_STATE_SECS)).await?;
    blocking(Arc::clone(&state.quick), move || {
        let _worker = worker;
        let loaded = state.puzzles.load(&r.puzzle, state.options.memory_bytes)?;
        let file = r.name.as_deref().unwrap_or("imported");
        let entries = twistor_formats::positions::read_positions(&r.text, file, &loaded.solving);
        let entry = entries
            .into_iter()
            .next()
            .ok_or_else(|| ApiError::bad_request(format!("{file}: no position in it")))?;
        let body = entry
            .body
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let alg = match body {
            twistor_formats::positions::PositionBody::Alg(a) => a.to_string(),
            twistor_formats::positions::PositionBody::Pattern(p) => {
                let solution = crate::jobs::solve_quietly(&state, &loaded, &p, RANDOM_STATE_SECS)
                    .ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "{file}:{}: no solution found within {RANDOM_STATE_SECS} s, \
                             so the position cannot be shown as an alg",
                        entry.line
                    ))
                })?;
                Alg::parse(&solution)
                    .map(|a| amounts_reduced(&loaded.solving, &a.invert()).to_string())
                    .unwrap_or_default()
            }
        };
        Ok(Json(json!({ "alg": alg, "name": entry.name })))
    })
    .await
}
