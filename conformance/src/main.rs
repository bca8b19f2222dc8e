use acp_plan_conformance::{cli, commands};
use clap::FromArgMatches;
use std::process::ExitCode;

fn main() -> ExitCode {
    let matches = cli::command().get_matches();
    match cli::Cli::from_arg_matches(&matches) {
        Ok(cli) => commands::run(cli),
        Err(e) => e.exit(),
    }
}
