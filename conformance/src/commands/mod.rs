//! What each subcommand does.

mod agent;
mod baseline;
mod check;
mod dag;
mod fake_agent;
mod gen;
mod generate;
mod rules;
mod tap;

use crate::cli::{Cli, Command};
use crate::report::files::OpenReports;
use std::process::ExitCode;

/// Exit statuses shared by every subcommand.
pub const EXIT_CONFORMANT: u8 = 0;
pub const EXIT_NOT_CONFORMANT: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

pub fn run(cli: Cli) -> ExitCode {
    let code = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Rules(args) => rules::run(args),
        Command::Baseline(command) => baseline::run(command),
        Command::Dag(args) => dag::run(args),
        Command::Agent(args) => agent::run(args),
        Command::Tap(args) => tap::run(args),
        Command::FakeAgent(args) => fake_agent::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Completions(args) => generate::completions(args),
        Command::Man => generate::man(),
    };
    ExitCode::from(code)
}

/// Create the `--report` files before anything runs: one that cannot be
/// written is a usage error (exit 2).
fn open_reports(args: &crate::cli::ReportFileArgs) -> Result<OpenReports, u8> {
    OpenReports::create(&args.reports).map_err(|e| {
        eprintln!("error: {e}");
        EXIT_USAGE
    })
}

/// The `--format` report: to a bare `--report PATH` if there is one, else stdout.
fn emit(text: &str, reports: &OpenReports) {
    use std::io::Write;
    match reports.primary() {
        Some(mut file) => {
            if let Err(e) = file.write_all(text.as_bytes()) {
                eprintln!("error: writing the report failed: {e}");
            }
        }
        None => print(text),
    }
}

/// Write every `FORMAT=PATH` report; a write that fails turns `code` into 2.
fn finish_reports(
    reports: OpenReports,
    code: u8,
    render: impl FnMut(crate::report::Format) -> String,
) -> u8 {
    match reports.write_all(render) {
        Ok(()) => code,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}

/// Print to stdout; a closed pipe (e.g. `| head`) is not an error worth a panic.
fn print(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
