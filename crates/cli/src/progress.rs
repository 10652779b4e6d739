//! Progress on stderr: a one-line display, drawn only on a terminal and
//! never with `--quiet`, so pipes and logs get the results alone.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::{ProgressBar, ProgressStyle};

static QUIET: AtomicBool = AtomicBool::new(false);

/// Turns progress displays and informational lines off (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Whether progress is drawn: stderr is a terminal and not `--quiet`.
pub fn drawn() -> bool {
    !quiet() && std::io::stderr().is_terminal()
}

/// A spinner with a message, or nothing when progress is not drawn.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A progress display, drawn only if `enabled` (and not `--quiet`).
    pub fn new(enabled: bool) -> Progress {
        let bar = (enabled && !quiet()).then(|| {
            let bar = ProgressBar::new_spinner();
            if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
                bar.set_style(style);
            }
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
        Progress { bar }
    }

    /// A display on stderr if it is a terminal.
    pub fn stderr() -> Progress {
        Progress::new(drawn())
    }

    /// A handle other threads may update, if the display is drawn.
    pub fn handle(&self) -> Option<ProgressBar> {
        self.bar.clone()
    }

    /// Shows `msg`.
    pub fn message(&mut self, msg: &str) {
        if let Some(b) = &self.bar {
            b.set_message(msg.to_string());
        }
    }

    /// Prints a line above the display (plainly when it is not drawn).
    pub fn println(&self, line: &str) {
        match &self.bar {
            Some(b) => b.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// Runs `f` (which writes to stderr) with the display hidden.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(b) => b.suspend(f),
            None => f(),
        }
    }

    /// Clears the line.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}
