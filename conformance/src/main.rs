//! `acp-plan`: the command line of acp-plan-conformance.

mod cli;
mod commands;
mod error;
mod heap;

use clap::FromArgMatches;
use cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    heap::set_up();
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
