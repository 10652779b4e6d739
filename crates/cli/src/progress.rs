//! A one-line progress display on stderr, shown only on a terminal.

use indicatif::{ProgressBar, ProgressStyle};

/// A spinner with a message, or nothing when stderr is not a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A progress display, drawn only if `enabled`.
    pub fn new(enabled: bool) -> Progress {
        Progress {
            bar: enabled.then(ProgressBar::new_spinner),
        }
    }

    /// Shows `msg`.
    pub fn message(&mut self, msg: &str) {
        if let Some(b) = &self.bar {
            if let Ok(style) = ProgressStyle::with_template("{spinner} {elapsed} {msg}") {
                b.set_style(style);
            }
            b.set_message(msg.to_string());
            b.tick();
        }
    }

    /// Clears the line.
    pub fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        self.bar = None;
    }
}
