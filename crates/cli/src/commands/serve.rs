//! `twistor serve`: the local web app.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use twistor_server::{serve_blocking, ServeOptions};
use twistor_tools::portfolio::{memory_budgets, DEFAULT_MEMORY_MIB};

use crate::cache::CacheArgs;
use crate::error::{CliError, CliResult};

/// Arguments of `twistor serve`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  twistor serve            # http://127.0.0.1:7333/\n  twistor serve --open -M 1024\n  twistor serve --bind 0.0.0.0 --port 8080   # reachable from other machines"
)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 7333)]
    port: u16,
    /// Address to listen on; only this machine can reach the default.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Memory one job may use, in MiB [default: 256; the optimal 3x3x3
    /// solver may then also use what the machine has free, for its huge
    /// table when it is cached, as `twistor solve` does].
    #[arg(short = 'M', long = "memory", value_parser = clap::value_parser!(u64).range(1..=1 << 24))]
    memory: Option<u64>,
    /// Jobs (solves, God's algorithm) that may run at once.
    #[arg(long, default_value_t = 2)]
    workers: usize,
    /// Seconds a job may run before it is stopped.
    #[arg(long, default_value_t = 600)]
    job_seconds: u64,
    /// A name (besides IP addresses and localhost) by which browsers may
    /// reach the server, as in `--bind 0.0.0.0 --allow-host cube.lan`;
    /// requests naming any other host are refused (403), so that no web
    /// page can drive the server by pointing its own name at this machine.
    #[arg(long = "allow-host", value_name = "NAME")]
    allow_host: Vec<String>,
    #[command(flatten)]
    cache: CacheArgs,
}

/// Runs `twistor serve` until the process is stopped.
pub fn run(args: ServeArgs) -> CliResult {
    if args.workers == 0 || args.workers > 64 {
        return Err(CliError::input("--workers: between 1 and 64"));
    }
    let options = ServeOptions {
        memory_bytes: args
            .memory
            .unwrap_or(DEFAULT_MEMORY_MIB)
            .saturating_mul(1 << 20),
        dedicated_memory_bytes: args.memory.is_none().then(|| {
            let free = crate::machine::available_memory();
            memory_budgets(None, free, crate::machine::resident_memory()).dedicated_memory_bytes
        }),
        workers: args.workers,
        job_seconds: args.job_seconds.max(1),
        store: args.cache.store()?,
        allowed_hosts: args.allow_host,
        ..ServeOptions::default()
    };
    let open = args.open;
    serve_blocking(SocketAddr::new(args.bind, args.port), options, |addr| {
        let url = format!("http://{addr}/");
        // The address goes to stdout (a script may read it), as the only line.
        outln!("{url}");
        note!("twistor serve: listening on {url} (Ctrl-C stops it)");
        if open {
            let opener = if cfg!(target_os = "macos") {
                "open"
            } else {
                "xdg-open"
            };
            if std::process::Command::new(opener)
                .arg(&url)
                .spawn()
                .is_err()
            {
                note!("could not start {opener}; open {url} yourself");
            }
        }
    })
    .map_err(|e| CliError::input(format!("--bind {}:{}: {e}", args.bind, args.port)))
}
