use acp_plan_conformance::{cli::Cli, commands};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    commands::run(Cli::parse())
}
