//! Large arrays: backed by transparent huge pages where the kernel offers them on request
//! (`/sys/kernel/mm/transparent_hugepage/enabled` = `madvise`), and first touched by the
//! threads of the current pool.
//!
//! A board of 10^8 territories walks through gigabytes a turn: on 4 KiB pages the first
//! touch of each page is a fault (a million a gigabyte) and every access far from the last
//! one misses the TLB. On 2 MiB pages there are 512 times fewer of both (docs/conquest.md,
//! "Memory").

use rayon::prelude::*;

/// Arrays smaller than this are left to the allocator as they come.
pub const HUGE_BYTES: usize = 1 << 24;

/// Asks the kernel to back the pages of `values`' capacity with huge pages (before they are
/// touched). Nothing happens for small vectors, on other systems, or where the kernel
/// declines.
pub fn advise_huge<T>(values: &mut Vec<T>) {
    let bytes = values.capacity() * std::mem::size_of::<T>();
    if bytes < HUGE_BYTES || !huge_pages_wanted() {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        const MADV_HUGEPAGE: i32 = 14;
        unsafe extern "C" {
            fn madvise(addr: *mut std::ffi::c_void, length: usize, advice: i32) -> i32;
        }
        let start = values.as_mut_ptr() as usize;
        let first = start.next_multiple_of(PAGE);
        let end = (start + bytes) & !(PAGE - 1);
        if end > first {
            // SAFETY: the range lies inside the vector's own allocation, page-aligned; the
            // advice changes how pages are backed, never their contents. A refusal (an older
            // kernel, huge pages switched off) leaves the pages as they were.
            unsafe {
                madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE);
            }
        }
    }
}

/// Whether large arrays ask for huge pages: yes unless `STRATAGEM_HUGE_PAGES=0` (read once).
pub fn huge_pages_wanted() -> bool {
    static WANTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *WANTED.get_or_init(|| std::env::var("STRATAGEM_HUGE_PAGES").map_or(true, |v| v != "0"))
}

/// Which pages an array asks for: huge ones for an array read in scattered order (a
/// breadth-first search's marks, a board's rows), where they spare misses of the TLB; small
/// ones for an array walked in order, where the TLB keeps up anyway and the kernel clears a
/// fresh small page for less than its share of a huge one (on the virtual machine measured in
/// docs/conquest.md, "10^8 territories on one machine").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pages {
    Huge,
    Small,
}

/// `len` copies of `value` in fresh memory advised to huge pages and written in parallel,
/// so the first touch (and the kernel's zeroing) is shared by the pool's threads.
pub fn filled<T: Copy + Send + Sync>(len: usize, value: T) -> Vec<T> {
    filled_on(len, value, Pages::Huge)
}

/// [`filled`] on the pages asked for.
pub fn filled_on<T: Copy + Send + Sync>(len: usize, value: T, pages: Pages) -> Vec<T> {
    let mut values = Vec::with_capacity(len);
    if pages == Pages::Huge {
        advise_huge(&mut values);
    }
    values.par_extend(rayon::iter::repeat_n(value, len));
    values
}

/// `values` resized to `len`, new entries `value`: a vector that must grow past its capacity
/// is made anew on the pages asked for (its old entries copied in parallel), so a buffer
/// resized once and reused turn after turn gets them, first touched by the pool's threads.
pub fn resize<T: Copy + Send + Sync>(values: &mut Vec<T>, len: usize, value: T, pages: Pages) {
    if len <= values.capacity() {
        values.resize(len, value);
        return;
    }
    let mut grown = Vec::with_capacity(len);
    if pages == Pages::Huge {
        advise_huge(&mut grown);
    }
    grown.par_extend(values.par_iter().copied());
    grown.par_extend(rayon::iter::repeat_n(value, len - values.len()));
    *values = grown;
}

/// The items of an indexed parallel iterator in a vector advised to huge pages, each written
/// in place by the thread that computes it.
pub fn collect<T: Send, I>(items: I) -> Vec<T>
where
    I: IndexedParallelIterator<Item = T>,
{
    let mut values = Vec::with_capacity(items.len());
    advise_huge(&mut values);
    items.collect_into_vec(&mut values);
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_resizes_and_collects() {
        for len in [0, 1, 5, HUGE_BYTES / 4 + 3] {
            let values = filled(len, 7u32);
            assert_eq!(values.len(), len);
            assert!(values.iter().all(|&v| v == 7));
        }
        let mut values = vec![1u64, 2, 3];
        resize(&mut values, 3 + HUGE_BYTES / 8, 9, Pages::Huge);
        assert_eq!(&values[..4], &[1, 2, 3, 9]);
        assert_eq!(values.len(), 3 + HUGE_BYTES / 8);
        resize(&mut values, 2, 0, Pages::Small);
        assert_eq!(filled_on(3, 1u8, Pages::Small), [1, 1, 1]);
        assert_eq!(values, [1, 2]);
        let squares = collect((0..HUGE_BYTES / 8).into_par_iter().map(|x| x * x));
        assert_eq!(squares[1000], 1_000_000);
        assert_eq!(squares.len(), HUGE_BYTES / 8);
    }
}
