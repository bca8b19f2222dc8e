//! What each subcommand does.

mod agent;
mod baseline;
mod check;
mod dag;
mod fake_agent;
mod gen;
mod rules;
mod tap;

use crate::cli::{Cli, Command};
use crate::error::Error;

/// Exit statuses shared by every subcommand (2, usage or I/O error, is
/// `main`'s, for every [`Error`]).
pub const EXIT_CONFORMANT: u8 = 0;
pub const EXIT_NOT_CONFORMANT: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

/// Run the command; `Ok` holds its exit status.
pub fn run(cli: Cli) -> Result<u8, Error> {
    match cli.command {
        Command::Check(args) => check::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Baseline(command) => baseline::run(command),
        Command::Dag(args) => dag::run(args),
        Command::Agent(args) => agent::run(args),
        Command::Tap(args) => tap::run(args),
        Command::FakeAgent(args) => fake_agent::run(args),
        Command::Gen(args) => gen::run(args),
    }
}

/// Print to stdout; a closed pipe (e.g. `| head`) is not an error worth a panic.
fn print(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
