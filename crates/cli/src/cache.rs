//! The options that say where pruning tables are kept (their messages are
//! `report`'s).

use std::path::PathBuf;
use std::sync::Arc;

use twistor_core::store::{NoStore, TableStore};
use twistor_store::{default_cache_dir, DirStore};

/// The cache's size limit unless `--cache-limit` says otherwise, in MiB:
/// room for the 3x3x3's optimal table (1.3 GB) and every other kind.
const DEFAULT_CACHE_MIB: u64 = 8192;

use crate::error::CliError;

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
