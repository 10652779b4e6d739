//! The memory large tables are searched from, and the one cache hint the
//! engines give about it: the workspace's unsafe memory kernels, in one
//! small crate below every engine.
//!
//! A pruning table of hundreds of megabytes is probed at random: each probe
//! misses the cache, and with 4 KiB pages most miss the TLB as well.
//! [`TableBuffer`] is zeroed anonymous memory that the system hands out
//! as it is first written (a table filled only near its goal never touches
//! most of its pages), advised on Linux to use transparent huge pages; it
//! serves the generic engine's nibble tables, the 3x3x3 solvers' loaded
//! tables and the coset solver's sets. [`prefetch`] asks for a line
//! about to be read, so the misses of a batch of probes overlap, and
//! [`nibbles_equal`] finds the entries at one distance in a word of a
//! nibble table.
//!
//! ```
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use twistor_memory::TableBuffer;
//!
//! let words = TableBuffer::<AtomicU64>::zeroed(1 << 20, true).unwrap();
//! words[3].fetch_or(7, Ordering::Relaxed);
//! assert_eq!(words.iter().map(|w| w.load(Ordering::Relaxed)).sum::<u64>(), 7);
//! ```

#![deny(missing_docs)]

use std::sync::atomic::{AtomicU16, AtomicU64};

use memmap2::MmapMut;

/// Element types a [`TableBuffer`] holds: plain integers, and atomics to
/// fill a table from many threads.
pub trait Element: sealed::Sealed {}

mod sealed {
    /// # Safety
    /// Implementors have alignment at most 8, no drop glue, and every bit
    /// pattern (all zeroes in particular) is a valid value.
    pub unsafe trait Sealed: Sized {}
}

macro_rules! elements {
    ($($t:ty),*) => {$(
        // SAFETY: an integer or an atomic integer of at most 8 bytes:
        // aligned to at most 8, no drop glue, every bit pattern valid.
        unsafe impl sealed::Sealed for $t {}
        impl Element for $t {}
    )*};
}
elements!(u8, u16, u64, AtomicU16, AtomicU64);

/// Zeroed, page-aligned anonymous memory for a table of `T`s (see the
/// module docs); it derefs to `[T]`.
pub struct TableBuffer<T: Element> {
    /// `None` for an empty buffer (the system maps no zero-length memory).
    map: Option<MmapMut>,
    len: usize,
    _element: std::marker::PhantomData<T>,
}

impl<T: Element> TableBuffer<T> {
    /// `len` zeroes, asked to be backed by huge pages when `huge_pages`
    /// (only a hint: a small table that touches few pages would commit
    /// far more with 2 MiB pages). The error is the system's when it has
    /// no such memory.
    pub fn zeroed(len: usize, huge_pages: bool) -> std::io::Result<TableBuffer<T>> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(std::io::ErrorKind::OutOfMemory)?;
        if bytes == 0 {
            return Ok(TableBuffer {
                map: None,
                len,
                _element: std::marker::PhantomData,
            });
        }
        let map = MmapMut::map_anon(bytes)?;
        #[cfg(target_os = "linux")]
        {
            let advice = if huge_pages {
                memmap2::Advice::HugePage
            } else {
                memmap2::Advice::NoHugePage
            };
            // Only a hint: without it the memory works the same.
            let _ = map.advise(advice);
        }
        #[cfg(not(target_os = "linux"))]
        let _ = huge_pages;
        Ok(TableBuffer {
            map: Some(map),
            len,
            _element: std::marker::PhantomData,
        })
    }

    /// [`TableBuffer::zeroed`] for a table the caller cannot do without:
    /// out of memory aborts, as any allocation does.
    pub fn zeroed_or_abort(len: usize, huge_pages: bool) -> TableBuffer<T> {
        TableBuffer::zeroed(len, huge_pages).unwrap_or_else(|_| {
            let layout =
                std::alloc::Layout::array::<T>(len).unwrap_or(std::alloc::Layout::new::<T>());
            std::alloc::handle_alloc_error(layout)
        })
    }
}

impl TableBuffer<u8> {
    /// A copy of `bytes`, advised to use huge pages.
    pub fn copy_of(bytes: &[u8]) -> std::io::Result<TableBuffer<u8>> {
        let mut buffer = TableBuffer::zeroed(bytes.len(), true)?;
        buffer.copy_from_slice(bytes);
        Ok(buffer)
    }

    /// The memory as 64-bit words many threads may write at once, for as
    /// long as it is borrowed (the whole words of it: `len / 8`), so that
    /// a table can be built in the bytes it is kept in.
    pub fn as_atomic_words(&mut self) -> &[AtomicU64] {
        let words = self.len / 8;
        match &mut self.map {
            // SAFETY: the map is page-aligned, so aligned for `AtomicU64`,
            // and holds at least `words * 8` bytes; any bit pattern is a
            // valid `AtomicU64`; the unique borrow of the buffer becomes
            // shared atomic access for its lifetime, so nothing reads the
            // memory non-atomically meanwhile.
            Some(m) => unsafe { std::slice::from_raw_parts(m.as_mut_ptr().cast(), words) },
            None => &[],
        }
    }
}

impl<T: Element> AsRef<[T]> for TableBuffer<T> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl TableBuffer<u16> {
    /// The memory as `u16`s many threads may write at once, for as long
    /// as it is borrowed.
    pub fn as_atomic(&mut self) -> &[AtomicU16] {
        let len = self.len;
        match &mut self.map {
            // SAFETY: `AtomicU16` has the size, alignment and bit validity
            // of `u16`; the unique borrow of the buffer becomes shared
            // atomic access for its lifetime, so nothing reads the memory
            // non-atomically meanwhile.
            Some(m) => unsafe { std::slice::from_raw_parts(m.as_mut_ptr().cast(), len) },
            None => &[],
        }
    }
}

impl<T: Element> std::ops::Deref for TableBuffer<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.map {
            // SAFETY: the map is page-aligned and `len` elements long
            // (`zeroed`), and every bit pattern is a valid `T` (`Element`);
            // the borrow of `self` bounds the slice's.
            Some(m) => unsafe { std::slice::from_raw_parts(m.as_ptr().cast(), self.len) },
            None => &[],
        }
    }
}

impl<T: Element> std::ops::DerefMut for TableBuffer<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.map {
            // SAFETY: as in `deref`; the unique borrow of `self` makes the
            // access unique.
            Some(m) => unsafe { std::slice::from_raw_parts_mut(m.as_mut_ptr().cast(), self.len) },
            None => &mut [],
        }
    }
}

/// Asks the processor to bring the cache line holding `item` in, for a
/// read soon; does nothing where there is no such instruction.
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: the address is that of a live reference; a prefetch reads
    // nothing the program sees and never faults.
    unsafe {
        std::arch::x86_64::_mm_prefetch((item as *const T).cast(), std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

/// Bit 0 of each 4-bit lane of `word` that equals `v` (below 16), the
/// others clear: how the nibble tables' fills find the entries at one
/// distance sixteen at a time, skipping words that hold none.
///
/// ```
/// use twistor_memory::nibbles_equal;
///
/// assert_eq!(nibbles_equal(0x0000_0000_0000_3f30, 3), 0x0000_0000_0000_1010);
/// assert_eq!(nibbles_equal(u64::MAX, 15), 0x1111_1111_1111_1111);
/// ```
#[inline]
pub fn nibbles_equal(word: u64, v: u8) -> u64 {
    let x = word ^ (v as u64 * 0x1111_1111_1111_1111);
    let t = x | (x >> 1);
    let t = t | (t >> 2);
    !t & 0x1111_1111_1111_1111
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[test]
    fn buffers_start_zeroed_and_keep_what_is_written() {
        let mut b = TableBuffer::<u16>::zeroed(10, true).unwrap();
        assert_eq!(b.len(), 10);
        assert!(b.iter().all(|&x| x == 0));
        b[1] = 0x0102;
        assert_eq!(b.as_atomic()[1].fetch_add(1, Ordering::Relaxed), 0x0102);
        assert_eq!(b[1], 0x0103);
        let words = TableBuffer::<AtomicU64>::zeroed(3, false).unwrap();
        words[2].store(u64::MAX, Ordering::Relaxed);
        assert_eq!(words[2].load(Ordering::Relaxed), u64::MAX);
    }

    #[test]
    fn empty_and_copied_buffers() {
        let e = TableBuffer::<AtomicU64>::zeroed(0, true).unwrap();
        assert!(e.is_empty());
        let c = TableBuffer::copy_of(b"abcdefghi").unwrap();
        assert_eq!(&c[..], b"abcdefghi");
        assert!(TableBuffer::<u64>::zeroed(usize::MAX, false).is_err());
    }

    #[test]
    fn bytes_written_as_words_read_back_little_endian() {
        let mut b = TableBuffer::<u8>::zeroed(20, true).unwrap();
        let words = b.as_atomic_words();
        assert_eq!(words.len(), 2, "whole words only");
        words[1].store(0x0807_0605_0403_0201u64.to_le(), Ordering::Relaxed);
        assert_eq!(&b[8..16], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert!(b[..8].iter().chain(&b[16..]).all(|&x| x == 0));
        assert!(TableBuffer::<u8>::zeroed(0, true)
            .unwrap()
            .as_atomic_words()
            .is_empty());
    }
}
