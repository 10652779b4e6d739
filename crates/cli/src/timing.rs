//! CPU time of the calling thread, for benchmarks that must not count
//! time the thread spent waiting for a shared, busy machine.

use std::time::Duration;

/// CPU time consumed so far by the calling thread (`None` where the
/// platform cannot say).
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec for the duration of
        // the call, and CLOCK_THREAD_CPUTIME_ID is a clock every supported
        // Unix provides; the call writes nothing else.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32));
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_advances_with_work() {
        let Some(a) = thread_cpu_time() else { return };
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let b = thread_cpu_time().unwrap_or(a);
        assert!(b > a);
    }
}
