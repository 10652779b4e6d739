//! The options that say where pruning tables are cached, and the messages
//! about them.

use std::path::PathBuf;
use std::sync::Mutex;

use twistor_cube333::cache::CacheOptions;
use twistor_search::{default_cache_dir, TableCache, TableEvent};

use crate::error::CliError;
use crate::progress::Progress;

/// Where tables are cached.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct CacheArgs {
    /// Directory for cached tables (default: $XDG_CACHE_HOME/twistor or ~/.cache/twistor).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Never write tables to the cache (read them if present).
    #[arg(long)]
    pub no_write: bool,
}

impl CacheArgs {
    /// The cache to use, if any directory is known.
    pub fn cache(&self) -> Result<Option<TableCache>, CliError> {
        let dir = match &self.cache_dir {
            Some(d) => {
                if d.exists() && !d.is_dir() {
                    return Err(CliError::input(format!(
                        "--cache-dir {}: not a directory",
                        d.display()
                    )));
                }
                Some(d.clone())
            }
            None => default_cache_dir(),
        };
        Ok(dir.map(|dir| TableCache {
            dir,
            write: !self.no_write,
        }))
    }

    /// The same choice for the dedicated 3x3x3 solver's tables.
    pub fn cube333_options(&self) -> CacheOptions {
        CacheOptions {
            dir: self.cache_dir.clone(),
            no_write: self.no_write,
            ..Default::default()
        }
    }
}

/// Tables this large (entries) get a line before they fill: at the fill
/// rates measured here they take a second or more.
const ANNOUNCED_ENTRIES: u64 = 1 << 27;

/// Shows what happens to the tables: progress on the bar, cache trouble on
/// stderr, and one line naming a large table, its size and where it will
/// be cached when it starts to fill.
pub fn report_table_event(bar: &mut Progress, cache: Option<&TableCache>, e: TableEvent) {
    match e {
        TableEvent::Filling(p) => {
            if p.size >= ANNOUNCED_ENTRIES && !crate::progress::quiet() {
                static ANNOUNCED: Mutex<Vec<String>> = Mutex::new(Vec::new());
                let mut seen = ANNOUNCED.lock().unwrap_or_else(|e| e.into_inner());
                if !seen.contains(&p.table) {
                    seen.push(p.table.clone());
                    let place = match cache {
                        Some(c) if c.write => format!("it will be cached in {}", c.dir.display()),
                        _ => "it will not be cached".to_string(),
                    };
                    bar.println(&format!(
                        "table {}: filling {} entries ({:.0} MiB); {place}",
                        p.table,
                        p.size,
                        p.size as f64 / 2.0 / f64::from(1 << 20)
                    ));
                }
            }
            bar.message(&format!(
                "table {}: depth {} ({} of {} entries)",
                p.table, p.depth, p.reached, p.size
            ))
        }
        TableEvent::Loaded { .. } | TableEvent::Stored { .. } => {}
        TableEvent::Hashing { depth, entries } => bar.message(&format!(
            "hashing positions within {depth} moves into {entries} entries"
        )),
        TableEvent::Rejected { path, reason } => {
            bar.finish();
            eprintln!(
                "twistor: cached table {} is unusable ({reason}); rebuilding it",
                path.display()
            );
        }
        TableEvent::StoreFailed { reason } => {
            bar.finish();
            eprintln!("twistor: could not cache a table: {reason}");
        }
    }
}
