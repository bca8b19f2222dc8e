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
    /// Write a deterministic synthetic trace (conformant unless --inject).
    Gen(GenArgs),
    /// Check a plan of tool calls as a DAG ("Acts of Emergence 010: Agent/Plan").
    Dag(DagArgs),
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

#[derive(Debug, Args)]
#[command(after_help = "The same options and seed always write the same bytes. \
Each --inject adds one violation (spread evenly over the messages) and prints \
`injected RULE at line N` to standard error. Injecting CAP-PLAN-OPS makes the \
client omit the capability; CAP-LEGACY-V2 and SHAPE-FILE-URI-ABSOLUTE need --spec v2.")]
pub struct GenArgs {
    /// Seed of the generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Revision to write: draft-2026-05, v1 or v2.
    #[arg(long, default_value = "v1", value_parser = parse_revision)]
    pub spec: crate::spec::Revision,
    /// Write bare JSON-RPC lines instead of envelopes.
    #[arg(long)]
    pub bare: bool,
    /// Sessions opened at the start.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub sessions: u16,
    /// `session/update` notifications after the sessions are open.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub messages: u64,
    /// Keyed plan ids per session.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub plans: u8,
    /// Entries per plan.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub entries: usize,
    /// Share of updates that are not about plans, 0 to 1.
    #[arg(long, value_name = "F", default_value_t = 0.5)]
    pub non_plan_share: f64,
    /// Bytes of text in each entry, message chunk and markdown plan.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub payload_bytes: usize,
    /// Inject a violation of RULE (repeatable); `--inject list` lists them.
    #[arg(long, value_name = "RULE")]
    pub inject: Vec<String>,
    /// Write to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn parse_revision(text: &str) -> Result<crate::spec::Revision, String> {
    text.parse()
}

/// What a second write to a State path means (`acp-plan dag --writes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Writes {
    /// State is immutable once written (the seed's text as of late 2025): an error.
    Immutable,
    /// The last write wins (later revisions of the text): an info.
    LastWins,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    /// Mermaid flowchart.
    Mermaid,
    /// Graphviz DOT.
    Dot,
}

#[derive(Debug, Args)]
#[command(
    after_help = "FILE is an array of calls, a solution {\"calls\": [...], \"output\": ...}, a plan message {\"type\": \"plan\", \"plan\": [...]}, or a context array holding one plan message (its input and state messages count as known data).\n\nExit status: 0 conformant, 1 not conformant, 2 usage or I/O error."
)]
pub struct DagArgs {
    /// Plan file; `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Input message (or an object of values) that `†input.*` references read.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// State message (or an object of values) the plan starts from; its `schema` is the blueprint of paths the plan may fill. Without it the State starts empty.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Tools the plan may call, with their argument schemas (see README).
    #[arg(long, value_name = "FILE")]
    pub tools: Option<PathBuf>,
    /// What two writes to one State path mean.
    #[arg(long, value_enum, default_value_t = Writes::Immutable)]
    pub writes: Writes,
    /// Also print the execution order: waves of calls that can run in parallel.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the data-flow graph on standard output (the report goes to standard error).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub graph: Option<GraphFormat>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Leave info-level diagnostics out of human output.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub limits: DagLimitArgs,
}

/// Input limits of `acp-plan dag` (see README, "acp-plan dag").
#[derive(Debug, Args)]
pub struct DagLimitArgs {
    #[arg(long, value_name = "BYTES", default_value_t = crate::dag::DagLimits::default().max_bytes)]
    pub max_bytes: usize,
    #[arg(long, value_name = "N", default_value_t = crate::dag::DagLimits::default().max_calls)]
    pub max_calls: usize,
    #[arg(long, value_name = "N", default_value_t = crate::dag::DagLimits::default().max_references)]
    pub max_references: usize,
    #[arg(long, value_name = "N", default_value_t = crate::dag::DagLimits::default().max_path_segments)]
    pub max_path_segments: usize,
    #[arg(long, value_name = "N", default_value_t = crate::dag::DagLimits::default().max_edges)]
    pub max_edges: usize,
    #[arg(long, value_name = "N", default_value_t = crate::dag::DagLimits::default().max_diagnostics)]
    pub max_diagnostics: usize,
}

fn parse_spec(text: &str) -> Result<SpecChoice, String> {
    text.parse()
}
