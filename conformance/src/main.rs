//! `acp-plan`: the command line of acp-plan-conformance.

mod cli;
mod commands;
mod error;

use clap::FromArgMatches;
use cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    return_freed_lines_to_the_system();
    // Parsed from `cli::command()` (the one with the version text), as the
    // completions and the man page are generated from it.
    let cli = Cli::from_arg_matches(&cli::command().get_matches()).unwrap_or_else(|e| e.exit());
    match commands::run(cli) {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            error::print(&e);
            ExitCode::from(commands::EXIT_USAGE)
        }
    }
}

/// A fixed mmap threshold for glibc's malloc. By default glibc raises the
/// threshold each time a block above it is freed, so after the first freed
/// line-sized buffer (up to `--max-line-bytes`, 16 MiB) later ones come from
/// the heap and stay there when freed: on bench/hostile.py's `readings` the
/// peak RSS was 117 to 133 MB depending on the order of allocations, for
/// the same 112 MiB peak of the heap (massif); with a fixed threshold it is
/// 102 MB. Blocks of 1 MiB and more are then mapped and returned on free;
/// the lines of real traces are far smaller, so their cost is unchanged.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn return_freed_lines_to_the_system() {
    // SAFETY: mallopt only sets a malloc parameter; called first thing in
    // main, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_freed_lines_to_the_system() {}
