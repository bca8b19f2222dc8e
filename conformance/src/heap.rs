//! glibc's malloc, set up for what the checker keeps (Linux with glibc
//! only; elsewhere the allocator is left as it comes). The setting is made
//! while no other thread exists.

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

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod glibc {
    use libc::c_int;

    /// Blocks of this size and more are mapped, and unmapped when freed.
    const MMAP_THRESHOLD: c_int = 1024 * 1024;

    pub fn fix_the_mmap_threshold() {
        // SAFETY: mallopt only sets a malloc parameter; called while no
        // other thread exists.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        }
    }
}
