//! What the CLI tells a person about work in progress and its outcome:
//! table events (fills, builds, loads, store trouble) on the progress
//! display or stderr, the optimal solver's search progress, and a batch's
//! exit status. Every command reports through here, so no command module
//! reaches into another for its messages.

use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use twistor_core::store::StoreEvent;
use twistor_cube333::{OptimalProgress, OptimalTableKind};
use twistor_search::TableEvent;

use crate::error::{CliError, CliResult};
use crate::progress::Progress;

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
            StoreEvent::Building { .. } => bar.suspend(|| report_store_event(e)),
            StoreEvent::Progress {
                key,
                step,
                done,
                total,
            } => bar.message(&build_progress(&key.name, step, done, total)),
            StoreEvent::Built { .. } => bar.suspend(|| report_store_event(e)),
            StoreEvent::Loaded { .. } | StoreEvent::Saved { .. } => {}
        },
    }
}

/// An optimal-solver table's size as a person reads it ("1.34 GB").
pub fn table_size(kind: OptimalTableKind) -> String {
    if kind.bytes() >= 1_000_000_000 {
        format!("{:.2} GB", kind.bytes() as f64 / 1e9)
    } else {
        format!("{} MB", kind.bytes() / 1_000_000)
    }
}

/// A table build's progress as the display shows it.
pub fn build_progress(table: &str, step: &str, done: u64, total: u64) -> String {
    format!(
        "table {table}: building, {step}: {}%",
        done * 100 / total.max(1)
    )
}

/// Prints a table event on stderr (loads are silent).
pub fn report_store_event(e: StoreEvent) {
    reporter(false)(e)
}

/// Prints table events on stderr, one line each; loads are silent unless
/// `verbose`.
pub fn reporter(verbose: bool) -> impl FnMut(StoreEvent) {
    // A long build's display, drawn on a terminal while it runs.
    let mut bar: Option<Progress> = None;
    move |e| match e {
        StoreEvent::Progress {
            key,
            step,
            done,
            total,
        } => {
            let bar = bar.get_or_insert_with(Progress::stderr);
            bar.message(&build_progress(&key.name, step, done, total));
        }
        StoreEvent::Loaded {
            key,
            location,
            bytes,
        } => {
            if verbose {
                note!(
                    "table {}: loaded {} ({:.1} MB)",
                    key.name,
                    location.unwrap_or_default(),
                    bytes as f64 / 1e6
                );
            }
        }
        StoreEvent::Rejected {
            key,
            location,
            error,
        } => {
            eprintln!(
                "twistor: table file {} ({}) not used: {error}; rebuilding",
                location.unwrap_or_default(),
                key.name
            );
        }
        StoreEvent::Building {
            key,
            location,
            bytes,
        } => {
            let place = location
                .map(|p| format!("; it will be cached in {p}"))
                .unwrap_or_else(|| "; it will not be cached".to_string());
            note!(
                "table {}: building {:.1} MB (once; can take a while){place}",
                key.name,
                bytes as f64 / 1e6
            );
        }
        StoreEvent::Built {
            key,
            bytes,
            elapsed,
        } => {
            bar = None;
            note!(
                "table {}: built in {:.1} s ({:.1} MB)",
                key.name,
                elapsed.as_secs_f64(),
                bytes as f64 / 1e6
            );
        }
        StoreEvent::Saved { key, location, .. } => {
            if verbose {
                note!(
                    "table {}: saved to {}",
                    key.name,
                    location.unwrap_or_default()
                );
            }
        }
        StoreEvent::SaveFailed { key, error } => {
            eprintln!("twistor: could not save table {}: {error}", key.name);
        }
    }
}

/// A progress callback for the optimal 3x3x3 search that shows its depth,
/// branches and node rate on `handle`.
pub fn optimal_progress(
    handle: indicatif::ProgressBar,
) -> std::sync::Arc<dyn Fn(OptimalProgress) + Send + Sync> {
    let t0 = Instant::now();
    std::sync::Arc::new(move |p: OptimalProgress| {
        let secs = t0.elapsed().as_secs_f64().max(1e-9);
        handle.set_message(format!(
            "optimal search: depth {}, {}/{} branches, {:.1} M nodes ({:.1} M/s)",
            p.depth,
            p.prefixes_done,
            p.prefixes,
            p.nodes as f64 / 1e6,
            p.nodes as f64 / secs / 1e6
        ));
    })
}

/// Exit code 2 at the end of a batch in which some entries could not be read.
pub fn batch_result(unreadable: usize) -> CliResult {
    if unreadable == 0 {
        Ok(())
    } else {
        Err(CliError::input(format!(
            "{unreadable} position(s) could not be read (see above); the others were solved"
        )))
    }
}
