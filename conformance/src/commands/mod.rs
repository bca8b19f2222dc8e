//! What each subcommand does.

mod check;
mod dag;
mod gen;
mod rules;

use crate::cli::{Cli, Command};
use std::process::ExitCode;

/// Exit statuses shared by every subcommand.
pub const EXIT_CONFORMANT: u8 = 0;
pub const EXIT_NOT_CONFORMANT: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

pub fn run(cli: Cli) -> ExitCode {
    let code = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Dag(args) => dag::run(args),
    };
    ExitCode::from(code)
}

/// Print to stdout; a closed pipe (e.g. `| head`) is not an error worth a panic.
fn print(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
