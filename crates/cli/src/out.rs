//! Standard output for every command, where a closed pipe is not an error.
//!
//! `twistor canon 3x3x3 --depth 20 | head -1` closes the pipe after the
//! first line; the program then has nothing left to do, so it ends quietly
//! with exit code 0 instead of panicking in `println!`. Any other write
//! failure (a full disk behind a redirect) is reported once and exits 1.

use std::fmt;
use std::io::Write;

/// Writes `args` to standard output (unbuffered beyond the line).
pub fn write(args: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|_| out.flush()) {
        closed_or_failed(e);
    }
}

/// Ends the process: quietly for a closed pipe, with a message otherwise.
fn closed_or_failed(e: std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("twistor: writing standard output: {e}");
    std::process::exit(crate::error::EXIT_FAILURE);
}

/// `print!` that ends quietly on a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::out::write(format_args!($($arg)*)) };
}

/// `println!` that ends quietly on a closed pipe.
macro_rules! outln {
    () => { $crate::out::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::out::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprintln!` for what a person may like to know but a script does not
/// need (timings, table summaries); `--quiet` drops it. Errors and
/// warnings use `eprintln!`.
macro_rules! note {
    ($($arg:tt)*) => {
        if !$crate::progress::quiet() {
            eprintln!($($arg)*);
        }
    };
}
