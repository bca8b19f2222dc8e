//! Command-line definitions (clap). No logic lives here.

use crate::spec::SpecChoice;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "acp-plan",
    version,
    about = "Conformance checks for the plan messages of the Agent Client Protocol",
    after_help = "Exit status: 0 conformant, 1 not conformant, 2 usage or I/O error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check recorded traces (newline-delimited JSON-RPC, bare or in envelopes).
    Check(CheckArgs),
    /// Print the rule catalog.
    Rules(RulesArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// rustc-style diagnostics and a summary.
    Human,
    /// One JSON document.
    Json,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Trace files; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Revision of the plan rules: auto, draft-2026-05, v1 or v2.
    #[arg(long, default_value = "auto", value_parser = parse_spec)]
    pub spec: SpecChoice,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Also print what a conformant client shows at the end of each trace.
    #[arg(long)]
    pub show_state: bool,
    /// Leave info-level diagnostics out of human output.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Input limits (see README, "Limits").
#[derive(Debug, Args)]
pub struct LimitArgs {
    #[arg(long, value_name = "BYTES", default_value_t = crate::trace::Limits::default().max_line_bytes)]
    pub max_line_bytes: usize,
    #[arg(long, value_name = "N", default_value_t = crate::trace::Limits::default().max_depth)]
    pub max_depth: usize,
    #[arg(long, value_name = "N", default_value_t = crate::trace::Limits::default().max_sessions)]
    pub max_sessions: usize,
    #[arg(long, value_name = "N", default_value_t = crate::trace::Limits::default().max_plans_per_session)]
    pub max_plans_per_session: usize,
    #[arg(long, value_name = "N", default_value_t = crate::trace::Limits::default().max_entries_per_plan)]
    pub max_entries_per_plan: usize,
    #[arg(long, value_name = "N", default_value_t = crate::trace::Limits::default().max_outstanding_requests)]
    pub max_outstanding_requests: usize,
    #[arg(long, value_name = "N", default_value_t = crate::trace::Limits::default().max_diagnostics)]
    pub max_diagnostics: usize,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
}

fn parse_spec(text: &str) -> Result<SpecChoice, String> {
    text.parse()
}
