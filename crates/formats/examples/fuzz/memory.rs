//! The harness's memory accounting: a global allocator that counts what
//! each worker holds, so an input whose allocations grow past the limit is
//! a finding, and one allocation too large for the machine is refused.

use super::*;

/// Workers counted separately by the allocator.
pub(super) const MAX_JOBS: usize = 64;
/// A single allocation larger than this is refused (the process aborts
/// after naming the input), so no input can take the machine's memory.
pub(super) const SINGLE_ALLOCATION_LIMIT: usize = 1 << 30;

#[allow(clippy::declare_interior_mutable_const)]
pub(super) const ZERO: AtomicIsize = AtomicIsize::new(0);
/// Bytes allocated and not freed, per worker.
pub(super) static LIVE: [AtomicIsize; MAX_JOBS] = [ZERO; MAX_JOBS];
/// Highest `LIVE` since the worker's input started.
pub(super) static PEAK: [AtomicIsize; MAX_JOBS] = [ZERO; MAX_JOBS];
/// The input each worker is running, for the note printed before an abort.
#[allow(clippy::declare_interior_mutable_const)]
pub(super) const NONE: AtomicU64 = AtomicU64::new(u64::MAX);
pub(super) static CURRENT: [AtomicU64; MAX_JOBS] = [NONE; MAX_JOBS];
/// Allocator slots are handed out in turn, so runs side by side in one
/// process (tests) do not share them.
pub(super) static NEXT_SLOT: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

thread_local! {
    pub(super) static WORKER: Cell<usize> = const { Cell::new(usize::MAX) };
    pub(super) static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

pub(super) fn worker_id() -> Option<usize> {
    WORKER.try_with(|w| w.get()).ok().filter(|&w| w < MAX_JOBS)
}

pub(super) fn account(delta: isize) {
    if let Some(w) = worker_id() {
        let now = LIVE[w].fetch_add(delta, Ordering::Relaxed) + delta;
        if delta > 0 {
            PEAK[w].fetch_max(now, Ordering::Relaxed);
        }
    }
}

pub(super) fn too_large(size: usize) -> bool {
    if size <= SINGLE_ALLOCATION_LIMIT {
        return false;
    }
    if let Some(w) = worker_id() {
        eprintln!(
            "fuzz: input {} asked for one allocation of {size} bytes; \
             run it again with --replay {0}",
            CURRENT[w].load(Ordering::Relaxed)
        );
    }
    true
}

/// The system allocator, counting what each worker holds.
pub struct Counting;

// SAFETY: every call is passed to the system allocator unchanged (or
// refused with a null pointer, which callers must handle).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        if too_large(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on unchanged.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            account(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: AllocLayout) -> *mut u8 {
        if too_large(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's layout, passed on unchanged.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            account(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        // SAFETY: `ptr` came from the system allocator with `layout`.
        unsafe { System.dealloc(ptr, layout) };
        account(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        if too_large(new_size) {
            return std::ptr::null_mut();
        }
        // SAFETY: `ptr` came from the system allocator with `layout`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            account(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
pub(super) static ALLOCATOR: Counting = Counting;
