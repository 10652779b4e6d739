//! Shared values made once, in parallel, without deadlocking rayon.
//!
//! A `OnceLock` whose initialiser runs rayon jobs on the global pool can
//! hang the process. A worker of that pool that asks for the value while
//! it is being made blocks in the `OnceLock`; a job the making waits for
//! may sit under it on that worker's stack (it stole the job, then, while
//! waiting inside it, stole a job that asks for the value), or every
//! worker may be blocked so, and then nothing runs the making's jobs.
//! Two tests building the 3x3x3's tables side by side hung CI so.
//!
//! [`make_apart`] runs the making on a rayon pool of its own, from a
//! thread that belongs to no pool, so nothing that waits for the value can
//! hold up the work it waits for. Every parallel initialiser of a shared
//! value goes through it:
//!
//! ```
//! use rayon::prelude::*;
//! use std::sync::OnceLock;
//! use twistor_core::lazy::make_apart;
//!
//! static SQUARES: OnceLock<Vec<u64>> = OnceLock::new();
//! let squares = SQUARES.get_or_init(|| {
//!     make_apart(|| (0..1000u64).into_par_iter().map(|x| x * x).collect())
//! });
//! assert_eq!(squares[12], 144);
//! ```

/// `make()`, with the rayon jobs it starts run on a pool of its own (as
/// many threads as the current pool), called from a thread outside every
/// pool: a worker of another pool waiting for what it makes cannot stall
/// it. Should no pool be had (the system refuses threads), `make` runs on
/// that thread with the global pool.
pub fn make_apart<T: Send>(make: impl FnOnce() -> T + Send) -> T {
    let threads = rayon::current_num_threads();
    std::thread::scope(|scope| {
        let maker = scope.spawn(move || {
            match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) => pool.install(make),
                Err(_) => make(),
            }
        });
        match maker.join() {
            Ok(value) => value,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
