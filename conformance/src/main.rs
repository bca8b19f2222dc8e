//! `acp-plan`: the command line of acp-plan-conformance.

mod cli;
mod commands;
mod error;

use clap::Parser;
use cli::Cli;
use std::process::ExitCode;

fn main() -> ExitCode {
    match commands::run(Cli::parse()) {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            error::print(&e);
            ExitCode::from(commands::EXIT_USAGE)
        }
    }
}
