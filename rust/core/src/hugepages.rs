//! The allocator of every stratagem binary: the system allocator, with large blocks backed by
//! transparent huge pages where the kernel offers them on request (Linux's
//! `transparent_hugepage=madvise`, the common default).
//!
//! A board's arrays are hundreds of megabytes read in scattered order: with 4 KiB pages the
//! turn pays a TLB miss on most neighbour reads and building pays a page fault every 4 KiB.
//! 2 MiB pages cut both (docs/conquest.md, "At scale"). Results never depend on it: only where
//! the bytes live changes.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks from this size on are advised to use huge pages (two of them: a smaller block
/// would round up to a whole huge page of memory for little gain).
pub const HUGE_BLOCK: usize = 4 << 20;

/// [`System`], advising the kernel to back blocks of at least [`HUGE_BLOCK`] bytes with
/// huge pages before they are first touched.
pub struct HugePages;

#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, size: usize) {
    const PAGE: usize = 4096;
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    if ptr.is_null() || size < HUGE_BLOCK {
        return;
    }
    // madvise takes whole pages: the pages that lie inside the block.
    let start = (ptr as usize).next_multiple_of(PAGE);
    let end = (ptr as usize + size) & !(PAGE - 1);
    if end > start {
        // SAFETY: the range lies inside a block this allocator just handed out; the advice
        // changes how its pages are backed, never their contents. A refusal (an old kernel,
        // huge pages disabled) is harmless and ignored.
        unsafe {
            madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _size: usize) {}

// SAFETY: every call is forwarded to `System` with the same arguments; `advise` only adds
// advice about the pages of the block returned.
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        advise(moved, new_size);
        moved
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn large_and_small_blocks_hold_what_is_written() {
        for size in [
            2,
            4096,
            super::HUGE_BLOCK - 1,
            super::HUGE_BLOCK,
            3 * super::HUGE_BLOCK,
        ] {
            let mut block = vec![0u8; size];
            block[size - 1] = 7;
            block.resize(size + super::HUGE_BLOCK, 1);
            assert_eq!((block[0], block[size - 1], block[size]), (0, 7, 1));
            assert!(block[size..].iter().all(|&b| b == 1));
        }
    }
}
