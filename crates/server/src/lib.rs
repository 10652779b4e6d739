//! `twistor serve`: a local web app to see any puzzle, type and step
//! through algs, scramble it, solve it and run God's algorithm on it, and
//! the JSON API the page uses (which scripts may use too).
//!
//! The server holds no algorithm of its own: puzzles come from
//! `twistor-tools`' catalog (the names the command line takes) or from an
//! uploaded `.tws`/KPuzzle definition, pictures from
//! [`twistor_tools::picture::Drawing`], solutions from the same
//! [`Portfolio`](twistor_tools::portfolio::Portfolio) `twistor solve` uses,
//! and distance distributions from the search crate's God's-algorithm
//! engine. Long work (solving, God's algorithm) runs as a *job* on a
//! bounded pool of worker threads, streams its progress to the page as
//! lines of JSON, stops when the client goes away or asks it to, and
//! gives up at the job time limit. Request bodies are bounded; nothing is
//! read from or written to disk except through the table store.
//!
//! The page is three files embedded in the binary (no network at run
//! time, no build step).
//!
//! ```no_run
//! use twistor_server::{serve_blocking, ServeOptions};
//!
//! let options = ServeOptions::default();
//! serve_blocking("127.0.0.1:7333".parse().unwrap(), options, |addr| {
//!     println!("twistor serve: http://{addr}/");
//! })
//! .unwrap();
//! ```

#![deny(missing_docs)]

mod api;
mod assets;
mod jobs;
mod puzzles;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use twistor_core::store::{NoStore, TableStore};

pub use jobs::JobStats;

/// How the server runs.
#[derive(Clone)]
pub struct ServeOptions {
    /// Memory one job's tables may use, in bytes.
    pub memory_bytes: u64,
    /// Jobs that may run at once; more wait, and beyond
    /// [`ServeOptions::queue`] waiting ones are refused (503).
    pub workers: usize,
    /// Jobs that may wait for a worker.
    pub queue: usize,
    /// Threads one job's search may use.
    pub threads: usize,
    /// Seconds a job may run before it is stopped.
    pub job_seconds: u64,
    /// Largest request body, in bytes (larger ones get 413).
    pub max_body: usize,
    /// Where tables are kept between runs.
    pub store: Arc<dyn TableStore>,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            memory_bytes: 256 << 20,
            workers: 2,
            queue: 8,
            threads: 1,
            job_seconds: 600,
            max_body: 1 << 20,
            store: Arc::new(NoStore),
        }
    }
}

/// What every handler shares.
pub(crate) struct AppState {
    options: ServeOptions,
    puzzles: puzzles::PuzzleCache,
    jobs: jobs::Pool,
    scramblers: api::Scramblers,
}

/// The application: the page and the API under `/api`.
pub fn router(options: ServeOptions) -> Router {
    let state = Arc::new(AppState {
        jobs: jobs::Pool::new(options.workers, options.queue),
        puzzles: puzzles::PuzzleCache::default(),
        scramblers: api::Scramblers::default(),
        options: options.clone(),
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/app.css", get(assets::style))
        .route("/api/puzzles", get(api::puzzles))
        .route("/api/status", get(api::status))
        .route("/api/apply", post(api::apply))
        .route("/api/scramble", post(api::scramble))
        .route("/api/export", post(api::export))
        .route("/api/random", post(api::random))
        .route("/api/import", post(api::import))
        .route("/api/solve", post(jobs::solve))
        .route("/api/gods", post(jobs::gods))
        .layer(DefaultBodyLimit::max(options.max_body))
        .with_state(state)
}

/// Serves the application on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    options: ServeOptions,
) -> std::io::Result<()> {
    axum::serve(listener, router(options)).await
}

/// Binds `addr`, tells `ready` the address bound (the port may have been
/// 0), and serves until the process ends, on a runtime of its own.
pub fn serve_blocking(
    addr: SocketAddr,
    options: ServeOptions,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        serve(listener, options).await
    })
}
