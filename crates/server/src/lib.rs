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
//! gives up at the job time limit. Everything else a request can make
//! grow is bounded too ([`guard`] and the request handlers): request
//! bodies and algs, the quick requests that run at once, the memory a
//! random state's group may take (checked before it is built), the
//! puzzles kept, the connections held and how long they may idle; and
//! only the server's own page may drive it (`Host` and `Origin` checked
//! against DNS rebinding). Nothing is read from or written to disk except
//! through the table store.
//!
//! The page is four files embedded in the binary (no network at run
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
#![forbid(unsafe_code)]

mod api;
mod assets;
pub mod guard;
mod jobs;
mod puzzles;
mod view;

use std::net::SocketAddr;
use std::sync::Arc;

use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::Semaphore;
use twistor_core::store::{NoStore, TableStore};

pub use jobs::JobStats;

/// How the server runs.
#[derive(Clone)]
pub struct ServeOptions {
    /// Memory one job may use, in bytes (its tables get this less a working
    /// reserve).
    pub memory_bytes: u64,
    /// Memory the dedicated 3x3x3 solver's table may use, in bytes, when
    /// not the job's (`twistor serve` without `-M` gives what the machine
    /// has free, as `twistor solve` does, so that its huge table is used
    /// when cached; it is never built from the page).
    pub dedicated_memory_bytes: Option<u64>,
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
    /// Quick requests (pictures, positions, scrambles, exports) worked on
    /// at once; more wait up to 10 s, then get 503.
    pub quick: usize,
    /// Connections held at once; more wait to be accepted.
    pub max_connections: usize,
    /// Seconds a connection may go without reading or writing before it
    /// is closed.
    pub idle_seconds: u64,
    /// Names besides IP addresses and `localhost` that requests may give
    /// as their `Host`.
    pub allowed_hosts: Vec<String>,
}

impl Default for ServeOptions {
    fn default() -> ServeOptions {
        ServeOptions {
            memory_bytes: 256 << 20,
            dedicated_memory_bytes: None,
            workers: 2,
            queue: 8,
            threads: 1,
            job_seconds: 600,
            max_body: 1 << 20,
            store: Arc::new(NoStore),
            quick: 4,
            max_connections: 128,
            idle_seconds: 60,
            allowed_hosts: Vec::new(),
        }
    }
}

/// What every handler shares.
pub(crate) struct AppState {
    options: ServeOptions,
    puzzles: puzzles::PuzzleCache,
    jobs: jobs::Pool,
    scramblers: api::Scramblers,
    /// Turns for quick requests (see [`api::blocking`]).
    quick: Arc<Semaphore>,
}

impl AppState {
    /// The bytes one job's search tables get: `-M` is a job's whole
    /// memory, so the search's working reserve comes off it.
    fn job_tables(&self) -> u64 {
        twistor_tools::budget::for_tables(
            self.options.memory_bytes,
            0,
            twistor_tools::budget::SEARCH_RESERVE,
        )
    }
}

/// The application: the page and the API under `/api`.
pub fn router(options: ServeOptions) -> Router {
    let state = Arc::new(AppState {
        jobs: jobs::Pool::new(options.workers, options.queue),
        puzzles: puzzles::PuzzleCache::default(),
        scramblers: api::Scramblers::default(),
        quick: Arc::new(Semaphore::new(options.quick.max(1))),
        options: options.clone(),
    });
    let allowed = Arc::new(guard::AllowedHosts(options.allowed_hosts.clone()));
    Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/view.js", get(assets::view_script))
        .route("/app.css", get(assets::style))
        .route("/api/puzzles", get(api::puzzles))
        .route("/api/status", get(api::status))
        .route("/api/apply", post(api::apply))
        .route("/api/geometry", post(view::geometry))
        .route("/api/scramble", post(api::scramble))
        .route("/api/export", post(api::export))
        .route("/api/random", post(api::random))
        .route("/api/import", post(api::import))
        .route("/api/solve", post(jobs::solve))
        .route("/api/gods", post(jobs::gods))
        .layer(DefaultBodyLimit::max(options.max_body))
        .layer(middleware::from_fn_with_state(allowed, guard::same_origin))
        .with_state(state)
}

/// Serves the application on `listener` until the process ends.
pub async fn serve(
    listener: tokio::net::TcpListener,
    options: ServeOptions,
) -> std::io::Result<()> {
    let idle = Duration::from_secs(options.idle_seconds.max(1));
    let connections = guard::Connections::new(listener, options.max_connections, idle);
    axum::serve(connections, router(options)).await
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
