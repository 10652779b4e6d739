//! The options that say where pruning tables are kept, and the messages
//! about them.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use twistor_core::store::{NoStore, StoreEvent, TableStore};
use twistor_search::TableEvent;
use twistor_store::{default_cache_dir, DirStore};

/// The cache's size limit unless `--cache-limit` says otherwise, in MiB:
/// room for the 3x3x3's optimal table (1.3 GB) and every other kind.
const DEFAULT_CACHE_MIB: u64 = 8192;

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
    /// Most the cache may hold, in MiB (default 8192): after a table is
    /// written, the least recently used others are removed until the rest
    /// fit.
    #[arg(long, value_name = "MiB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    pub cache_limit: Option<u64>,
}

impl CacheArgs {
    /// The store to keep tables in: the cache directory, or nothing when
    /// no directory is known.
    pub fn store(&self) -> Result<Arc<dyn TableStore>, CliError> {
        Ok(match self.dir()? {
            Some(dir) if self.no_write => Arc::new(DirStore::new(dir).read_only()),
            Some(dir) => {
                let limit = self.cache_limit.unwrap_or(DEFAULT_CACHE_MIB) << 20;
                let store = DirStore::new(dir).with_limit(limit);
                // What a killed process was writing is never finished.
                store.remove_stale_temporaries();
                Arc::new(store)
            }
            None => Arc::new(NoStore),
        })
    }

    /// Where new tables are written, if they are.
    pub fn written_to(&self) -> Option<PathBuf> {
        self.dir().ok().flatten().filter(|_| !self.no_write)
    }

    /// The cache directory, if one is known.
    fn dir(&self) -> Result<Option<PathBuf>, CliError> {
        Ok(match &self.cache_dir {
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
        })
    }
}

/// Tables this large (entries) get a line before they fill: at the fill
/// rates measured here they take a second or more.
const ANNOUNCED_ENTRIES: u64 = 1 << 27;

/// Shows what happens to the tables: progress on the bar, store trouble on
/// stderr, and one line naming a large table, its size and where it will
/// be cached when it starts to fill.
pub fn report_table_event(bar: &mut Progress, written_to: Option<&Path>, e: TableEvent) {
    match e {
        TableEvent::Filling(p) => {
            if p.size >= ANNOUNCED_ENTRIES && !crate::progress::quiet() {
                static ANNOUNCED: Mutex<Vec<String>> = Mutex::new(Vec::new());
                let mut seen = ANNOUNCED.lock().unwrap_or_else(|e| e.into_inner());
                if !seen.contains(&p.table) {
                    seen.push(p.table.clone());
                    let place = match written_to {
                        Some(dir) => format!("it will be cached in {}", dir.display()),
                        None => "it will not be cached".to_string(),
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
        TableEvent::Hashing { depth, entries } => bar.message(&format!(
            "hashing positions within {depth} moves into {entries} entries"
        )),
        TableEvent::Store(e) => match e {
            StoreEvent::Rejected {
                location, error, ..
            } => {
                bar.finish();
                eprintln!(
                    "twistor: cached table {} is unusable ({error}); rebuilding it",
                    location.unwrap_or_default()
                );
            }
            StoreEvent::SaveFailed { error, .. } => {
                bar.finish();
                eprintln!("twistor: could not cache a table: {error}");
            }
            // The display stays: a long build shows its progress on it.
            StoreEvent::Building { .. } => {
                bar.suspend(|| crate::commands::cube333::report_store_event(e))
            }
            StoreEvent::Progress {
                key,
                step,
                done,
                total,
            } => bar.message(&crate::commands::cube333::build_progress(
                &key.name, step, done, total,
            )),
            StoreEvent::Built { .. } => {
                bar.suspend(|| crate::commands::cube333::report_store_event(e))
            }
            StoreEvent::Loaded { .. } | StoreEvent::Saved { .. } => {}
        },
    }
}
