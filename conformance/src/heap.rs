//! glibc's malloc, set up for what the checker keeps (Linux with glibc
//! only; elsewhere the allocator is left as it comes). Both settings are
//! made while no other thread exists.

/// Every command: a fixed mmap threshold. By default glibc raises the
/// threshold each time a block above it is freed, so after the first freed
/// line-sized buffer (up to `--max-line-bytes`, 16 MiB) later ones come from
/// the heap and stay there when freed: on bench/hostile.py's `readings` the
/// peak RSS was 117 to 133 MB depending on the order of allocations, for the
/// same 112 MiB peak of the heap (massif); with a fixed threshold it is
/// 102 MB. Blocks of 1 MiB and more are then mapped and returned on free;
/// the lines of real traces are far smaller, so their cost is unchanged.
pub fn set_up() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc::fix_the_mmap_threshold();
}

/// Before a check of traces: the heap in huge pages. The client state of a
/// trace of many sessions is tens of megabytes of small blocks, and each
/// line reaches one session at random: in 4 KiB pages most of those reaches
/// also miss the TLB. The heap is grown at once by 64 MiB of address space
/// (pages count in memory only once touched) and advised `MADV_HUGEPAGE`,
/// which kernels whose transparent huge pages are set to `madvise` (the
/// default of many distributions) need in order to use them. On the
/// benchmark's many-sessions trace this took 7 to 13% off the CPU time; the
/// other shapes did not change (bench/README.md, "Huge pages").
///
/// The cost: the heap keeps up to 64 MiB of freed blocks instead of giving
/// them back, which raised the peak of some hostile shapes (one 16 MiB line
/// parsed, freed, and the next one read) by up to 27 MB, within their
/// target. A check is one batch that reuses what it frees and then exits;
/// long-running commands (`tap`, `agent`) keep glibc's default.
///
/// This is the main thread's heap, where a check of one file runs, and of
/// many files the costliest unless standard input is among them
/// (`validate::check_paths`); the other workers' threads have heaps of
/// their own. What the heap grows beyond the reserve is not advised. Call
/// after [`set_up`]: glibc's default threshold would map the block that
/// grows the heap.
pub fn set_up_for_a_check() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    glibc::reserve_the_heap_in_huge_pages();
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use libc::{c_int, c_void};

    /// Blocks of this size and more are mapped, and unmapped when freed.
    const MMAP_THRESHOLD: c_int = 1024 * 1024;
    /// Address space the heap grows by at once, and keeps when blocks are
    /// freed (`M_TOP_PAD`): twice what the default limits let the client
    /// state count (`--max-state-bytes`, 32 MiB).
    const HEAP_RESERVE: c_int = 64 * 1024 * 1024;
    /// A block larger than the free space the heap has when a check starts
    /// (some kilobytes), and below [`MMAP_THRESHOLD`]: allocating it makes
    /// malloc grow the heap, by [`HEAP_RESERVE`] more.
    const GROW_NOW: usize = 512 * 1024;
    const _: () = assert!(GROW_NOW < MMAP_THRESHOLD as usize);

    pub fn fix_the_mmap_threshold() {
        // SAFETY: mallopt only sets a malloc parameter; called while no
        // other thread exists.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        }
    }

    pub fn reserve_the_heap_in_huge_pages() {
        // SAFETY: mallopt only sets a malloc parameter; sbrk(0) only reads
        // the break; the block is freed at once; madvise only advises
        // pages of this process's heap. Called while no other thread exists.
        unsafe {
            libc::mallopt(libc::M_TOP_PAD, HEAP_RESERVE);
            let start = libc::sbrk(0);
            // black_box: a block freed unused may otherwise be optimized away.
            let block = std::hint::black_box(libc::malloc(GROW_NOW));
            libc::free(block);
            let end = libc::sbrk(0);
            // sbrk fails with (void *) -1. A heap that did not grow (mapped
            // instead of extended) is left as it is.
            let failed = usize::MAX as *mut c_void;
            if start == failed || end == failed {
                return;
            }
            let page = usize::try_from(libc::sysconf(libc::_SC_PAGESIZE)).unwrap_or(4096);
            let (start, end) = ((start as usize).next_multiple_of(page), end as usize);
            if end > start {
                libc::madvise(start as *mut c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
}
