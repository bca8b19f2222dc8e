//! What each subcommand does.

mod agent;
mod baseline;
mod check;
mod client;
mod dag;
mod fake_agent;
mod gen;
mod generate;
mod rules;
mod tap;

use crate::cli::{Cli, Command};
use crate::error::Error;
use acp_plan_conformance::report::files::OpenReports;
use acp_plan_conformance::report::Format;

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
        Command::Client(args) => client::run(args),
        Command::AgentRelay(args) => client::relay(args),
        Command::FakeClient(args) => client::fake(args),
        Command::FakeAgent(args) => fake_agent::run(args),
        Command::Gen(args) => gen::run(args),
        Command::Completions(args) => generate::completions(args),
        Command::Man => generate::man(),
    }
}

/// Create the `--report` files before anything runs: one that cannot be
/// written is a usage error (exit 2).
fn open_reports(args: &crate::cli::ReportArgs) -> Result<OpenReports, Error> {
    OpenReports::create(&args.reports).map_err(|(path, source)| Error::Create { path, source })
}

/// The baseline asked for, loaded, with the day its expiry is judged on; a
/// baseline that cannot be used is a usage error, found before anything is
/// checked or run.
fn load_baseline(
    args: &crate::cli::BaselineArgs,
) -> Result<Option<acp_plan_conformance::baseline::AsOf>, Error> {
    use acp_plan_conformance::baseline;
    let Some(path) = &args.baseline else {
        return Ok(None);
    };
    Ok(Some(baseline::AsOf {
        baseline: baseline::load(path)?,
        today: args.today.unwrap_or_else(baseline::today_utc),
    }))
}

/// The baselines of a live gate (`agent`, `client`): the one accepted
/// (`--baseline`), loaded, and the file `--write-baseline` names, created;
/// either failing is a usage error, found before anything runs.
#[cfg(unix)]
struct LiveBaseline {
    accept: Option<acp_plan_conformance::baseline::AsOf>,
    write_to: Option<(std::path::PathBuf, std::fs::File)>,
}

#[cfg(unix)]
impl LiveBaseline {
    fn open(args: &crate::cli::LiveBaselineArgs) -> Result<LiveBaseline, Error> {
        let accept = load_baseline(&args.accept)?;
        let write_to = match &args.write_baseline {
            Some(path) => Some((
                path.clone(),
                std::fs::File::create(path).map_err(|source| Error::Write {
                    path: path.clone(),
                    source,
                })?,
            )),
            None => None,
        };
        Ok(LiveBaseline { accept, write_to })
    }

    /// Write the baseline that accepts the failing diagnostics of `traces`
    /// (the scenarios' reports, named after them: the scopes are scenario
    /// names), warnings too when they fail the run.
    fn write(
        self,
        traces: &[acp_plan_conformance::validate::TraceReport],
        warnings: bool,
    ) -> Result<(), Error> {
        use std::io::Write;
        let Some((path, mut file)) = self.write_to else {
            return Ok(());
        };
        let text = acp_plan_conformance::baseline::write(
            traces,
            &acp_plan_conformance::baseline::WriteOptions {
                warnings,
                reason: crate::cli::DEFAULT_BASELINE_REASON.to_owned(),
                expires: None,
            },
        );
        file.write_all(text.as_bytes())
            .map_err(|source| Error::Write { path, source })
    }
}

/// The `--format` report: to a bare `--report PATH` if there is one, else stdout.
fn emit(text: &str, reports: &OpenReports) -> Result<(), Error> {
    use std::io::Write;
    match reports.primary() {
        Some((path, mut file)) => file
            .write_all(text.as_bytes())
            .map_err(|source| Error::Write {
                path: path.to_owned(),
                source,
            }),
        None => {
            print(text);
            Ok(())
        }
    }
}

/// Write every `FORMAT=PATH` report, then give the run's status; a report
/// that could not be written is the run's error (exit 2).
fn finish_reports(
    reports: OpenReports,
    status: u8,
    render: impl FnMut(Format) -> String,
) -> Result<u8, Error> {
    reports
        .write_all(render)
        .map_err(|(path, source)| Error::Write { path, source })?;
    Ok(status)
}

/// Print to stdout; a closed pipe (e.g. `| head`) is not an error worth a panic.
fn print(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes());
    let _ = stdout.flush();
}
