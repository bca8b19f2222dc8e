//! Command-line definitions (clap). No logic lives here.

use acp_plan_conformance::live::scenario::Scenario;
use acp_plan_conformance::live::PermissionChoice;
use acp_plan_conformance::report::files::ReportFile;
use acp_plan_conformance::report::{Format, ReportOptions};
use acp_plan_conformance::spec::SpecChoice;
use chrono::NaiveDate;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

/// `acp-plan --version`: the suite's version and the spec revisions it knows.
pub fn version_text() -> String {
    let revisions: Vec<String> = acp_plan_conformance::Revision::ALL
        .iter()
        .map(|r| format!("{r} = {}", r.release()))
        .collect();
    format!(
        "{} (ACP plan spec revisions: {}; Acts of Emergence 010 for dag)",
        env!("CARGO_PKG_VERSION"),
        revisions.join(", ")
    )
}

/// The clap command, with the version text: what `main`, the completions
/// and the man page are generated from.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().version(version_text())
}

#[derive(Debug, Parser)]
#[command(
    name = "acp-plan",
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
    /// Work with baselines (failures accepted for now).
    #[command(subcommand)]
    Baseline(BaselineCommand),
    /// Check a plan of tool calls as a DAG ("Acts of Emergence 010: Agent/Plan").
    Dag(DagArgs),
    /// Drive an agent through plan scenarios as a client and check what it sends.
    Agent(AgentArgs),
    /// Run an agent behind a transparent tap and check the live traffic.
    Tap(TapArgs),
    /// Play a conformant agent to a client and check what it sends and how it copes.
    Client(ClientArgs),
    /// Play the agent side of a trace or vector on stdin/stdout.
    FakeAgent(FakeAgentArgs),
    /// A small conformant client (or a deliberately flawed one) for `acp-plan client`.
    FakeClient(FakeClientArgs),
    /// The agent a client under `acp-plan client` starts: relays its stdin and
    /// stdout to the running `acp-plan client` (internal).
    #[command(hide = true)]
    AgentRelay(AgentRelayArgs),
    /// Write a deterministic synthetic trace (conformant unless --inject).
    Gen(GenArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(CompletionsArgs),
    /// Print the man page (roff), generated from the same definitions as --help.
    Man,
}

/// `acp-plan completions SHELL`
#[derive(Debug, Args)]
#[command(
    after_help = "e.g. `acp-plan completions bash > ~/.local/share/bash-completion/completions/acp-plan`"
)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// `--format`: the library's [`Format`] as a command-line value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// rustc-style diagnostics and a summary.
    Human,
    /// One JSON document (schemas/report.schema.json).
    Json,
    /// JUnit XML: a test suite per trace, a test case per rule.
    Junit,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// GitHub Actions workflow commands (annotations).
    Github,
}

impl From<FormatArg> for Format {
    fn from(format: FormatArg) -> Format {
        match format {
            FormatArg::Human => Format::Human,
            FormatArg::Json => Format::Json,
            FormatArg::Junit => Format::Junit,
            FormatArg::Sarif => Format::Sarif,
            FormatArg::Github => Format::Github,
        }
    }
}

/// How a run is reported and judged: one definition of each flag, shared by
/// `check`, `agent`, `dag` and `tap`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Report format.
    #[arg(long, value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// Leave info-level diagnostics out of human and github output.
    #[arg(long)]
    pub quiet: bool,
    /// Also write the report in FORMAT (human, json, junit, sarif, github) to PATH;
    /// repeatable, one run, several reports. Every file is written whatever the
    /// verdict; a path that cannot be written is exit 2 before anything runs. A bare
    /// PATH takes the --format report instead of the terminal.
    #[arg(long = "report", value_name = "[FORMAT=]PATH", value_parser = parse_report)]
    pub reports: Vec<ReportFile>,
}

impl ReportArgs {
    pub fn format(&self) -> Format {
        self.format.into()
    }
}

/// `--deny-warnings` of the commands that give a verdict (`check`, `agent`, `dag`).
#[derive(Debug, Args)]
pub struct VerdictArgs {
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    pub deny_warnings: bool,
    /// What input the checker could not check (its limits: TRACE-LIMIT,
    /// DAG-LIMIT) does to the exit status: fail (exit 1, the default) or warn.
    #[arg(long, value_enum, default_value_t = IncompletePolicy::Fail, value_name = "POLICY")]
    pub incomplete: IncompletePolicy,
}

/// `--show-state` of the commands that follow a client's state (`check`, `agent`).
#[derive(Debug, Args)]
pub struct StateArgs {
    /// Also print what a conformant client shows at the end of each trace (or scenario).
    #[arg(long)]
    pub show_state: bool,
}

/// `--spec` of the commands that check ACP traffic.
#[derive(Debug, Args)]
pub struct SpecArgs {
    /// Revision of the plan rules: auto, draft-2026-05, v1 or v2.
    #[arg(long, default_value = "auto", value_parser = parse_spec)]
    pub spec: SpecChoice,
}

impl ReportArgs {
    /// The report options of a run (`show_state` where the command has it).
    pub fn options(
        &self,
        verdict: Option<&VerdictArgs>,
        state: Option<&StateArgs>,
    ) -> ReportOptions {
        ReportOptions {
            deny_warnings: verdict.is_some_and(|v| v.deny_warnings),
            accept_incomplete: verdict.is_some_and(|v| v.incomplete == IncompletePolicy::Warn),
            show_state: state.is_some_and(|s| s.show_state),
            quiet: self.quiet,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    /// One rule per paragraph.
    Human,
    /// A list of rule objects.
    Json,
    /// The rule reference (docs/rules.md is this output).
    Markdown,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Trace files or directories (every *.jsonl below, in path order); `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub spec: SpecArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub verdict: VerdictArgs,
    #[command(flatten)]
    pub state: StateArgs,
    #[command(flatten)]
    pub baseline: BaselineArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The baseline options of the live gates (`agent`, `client`): `--baseline`
/// and `--today`, and `--write-baseline`.
#[derive(Debug, Args)]
pub struct LiveBaselineArgs {
    #[command(flatten)]
    pub accept: BaselineArgs,
    /// Also write the baseline that accepts this run's failing diagnostics
    /// here, one entry per rule and scenario (warnings too under
    /// --deny-warnings); edit its reasons before committing it.
    #[arg(long, value_name = "FILE")]
    pub write_baseline: Option<PathBuf>,
}

/// The reason `baseline write` and `--write-baseline` give each entry.
pub const DEFAULT_BASELINE_REASON: &str = "failing when this baseline was written";

/// `--baseline` and `--today` of the commands that gate on a verdict.
#[derive(Debug, Args)]
pub struct BaselineArgs {
    /// Accept the failures listed in this baseline file (docs/guide.md, "Baselines").
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Judge baseline expiry as of this date (YYYY-MM-DD) instead of today (UTC).
    #[arg(long, value_name = "DATE", value_parser = parse_date, requires = "baseline")]
    pub today: Option<NaiveDate>,
}

#[derive(Debug, Subcommand)]
pub enum BaselineCommand {
    /// Write the baseline that makes a run over these traces pass.
    Write(BaselineWriteArgs),
}

#[derive(Debug, Args)]
pub struct BaselineWriteArgs {
    /// Trace files; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the baseline here instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The reason recorded in every entry.
    #[arg(long, default_value = DEFAULT_BASELINE_REASON)]
    pub reason: String,
    /// An expiry date (YYYY-MM-DD) for every entry: the last day it is honoured.
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub expires: Option<NaiveDate>,
    #[command(flatten)]
    pub spec: SpecArgs,
    /// Also accept warnings (for runs gated with --deny-warnings).
    #[arg(long)]
    pub deny_warnings: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Input limits (see docs/guide.md, "Limits").
#[derive(Debug, Args)]
pub struct LimitArgs {
    #[arg(long, value_name = "BYTES", default_value_t = acp_plan_conformance::trace::Limits::default().max_line_bytes)]
    pub max_line_bytes: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_conformance::trace::Limits::default().max_depth)]
    pub max_depth: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_conformance::trace::Limits::default().max_sessions)]
    pub max_sessions: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_conformance::trace::Limits::default().max_plans_per_session)]
    pub max_plans_per_session: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_conformance::trace::Limits::default().max_entries_per_plan)]
    pub max_entries_per_plan: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_conformance::trace::Limits::default().max_outstanding_requests)]
    pub max_outstanding_requests: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_conformance::trace::Limits::default().max_diagnostics)]
    pub max_diagnostics: usize,
    /// Bytes of plan content the reference client state may hold at once.
    #[arg(long, value_name = "BYTES", default_value_t = acp_plan_conformance::trace::Limits::default().max_state_bytes)]
    pub max_state_bytes: usize,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    pub format: RulesFormat,
}

/// What a result that could not be checked completely does to the exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IncompletePolicy {
    /// Fail (exit 1): CI fails closed when part of the input was not checked.
    Fail,
    /// Report it as a warning and pass if nothing else fails.
    Warn,
}

/// How `acp-plan gen` spaces each line's JSON (the same values either way).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SpacingArg {
    /// No whitespace, as serde_json, `JSON.stringify` and Go write it.
    Compact,
    /// A space after each `:` and `,`, as Python's `json.dumps` writes it.
    Python,
}

/// What a second write to a State path means (`acp-plan dag --writes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Writes {
    /// State is immutable once written (essay 009 as of late 2025, not the 010 seed): a warning.
    Immutable,
    /// The last write wins (later revisions of essay 009): an info.
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
    /// Tools the plan may call, with their argument schemas (see docs/dag.md).
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
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub verdict: VerdictArgs,
    #[command(flatten)]
    pub limits: DagLimitArgs,
}

/// Input limits of `acp-plan dag` (see docs/dag.md, "Limits").
#[derive(Debug, Args)]
pub struct DagLimitArgs {
    #[arg(long, value_name = "BYTES", default_value_t = acp_plan_dag::DagLimits::default().max_bytes)]
    pub max_bytes: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_dag::DagLimits::default().max_calls)]
    pub max_calls: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_dag::DagLimits::default().max_references)]
    pub max_references: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_dag::DagLimits::default().max_path_segments)]
    pub max_path_segments: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_dag::DagLimits::default().max_edges)]
    pub max_edges: usize,
    #[arg(long, value_name = "N", default_value_t = acp_plan_dag::DagLimits::default().max_diagnostics)]
    pub max_diagnostics: usize,
}

/// `acp-plan agent [OPTIONS] -- CMD [ARGS...]`
#[derive(Debug, Args)]
#[command(
    after_help = "The client speaks the revision --spec names (v1 with auto, where the handshake decides \
the rules); --deny-warnings fails a scenario on the agent's warnings; --baseline accepts \
failures by rule and scenario name.\n\n\
Exit status: 0 every scenario passed or was not exercised (and at least one passed), \
1 a scenario failed, none was exercised, or a baseline entry expired or matches nothing, \
2 usage or I/O error."
)]
pub struct AgentArgs {
    /// Scenario to run (repeatable): no-capability, capability, capability-null,
    /// other-revision-key, load. Default: all that apply to the revision.
    #[arg(long = "scenario", value_name = "NAME", value_parser = parse_scenario)]
    pub scenarios: Vec<Scenario>,
    /// Prompt to send, one turn each (repeatable). Default: a task that asks for a plan.
    #[arg(long = "prompt", value_name = "TEXT")]
    pub prompts: Vec<String>,
    #[command(flatten)]
    pub spec: SpecArgs,
    /// Longest wait for each response (e.g. 30, 30s, 500ms, 2m).
    #[arg(long, value_name = "DURATION", default_value = "120s", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Longest time for one scenario.
    #[arg(long, value_name = "DURATION", default_value = "600s", value_parser = parse_duration)]
    pub scenario_timeout: Duration,
    /// Working directory of the agent, also sent as the session's cwd (default: the current one).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Extra environment variable for the agent (repeatable).
    #[arg(long = "env", value_name = "KEY=VAL", value_parser = parse_env)]
    pub env: Vec<(String, String)>,
    /// Write each scenario's transcript (SCENARIO.jsonl) and the agent's stderr here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Answer to permission requests: allow (the first allow option), reject, cancel,
    /// or option:ID.
    #[arg(long, value_name = "ANSWER", default_value = "allow", value_parser = parse_permission)]
    pub permission: PermissionChoice,
    /// A run where no scenario was exercised passes.
    #[arg(long)]
    pub allow_unexercised: bool,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub verdict: VerdictArgs,
    #[command(flatten)]
    pub state: StateArgs,
    #[command(flatten)]
    pub baseline: LiveBaselineArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The agent command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

/// `acp-plan tap [OPTIONS] -- CMD [ARGS...]`
#[derive(Debug, Args)]
#[command(
    after_help = "With --format human the diagnostics are written as they are found and a summary at exit; \
the other formats write one report at exit.\n\n\
Exit status: the agent's (128 + N if signal N ended it); 2 if the tap cannot start."
)]
pub struct TapArgs {
    /// Write the traffic as an envelope trace (re-check it with `acp-plan check`).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    #[command(flatten)]
    pub spec: SpecArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Most bytes of traffic waiting to be checked; beyond it the checker skips
    /// (and reports) traffic rather than slow the connection.
    #[arg(long, value_name = "BYTES", default_value_t = 16 * 1024 * 1024)]
    pub max_backlog_bytes: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The agent command and its arguments.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

/// `acp-plan client [OPTIONS] -- CMD [ARGS...]`
#[derive(Debug, Args)]
#[command(
    after_help = "CMD is the client under test; the argument `{agent}` (or any argument containing it) \
becomes one argument holding the suite's agent command line, which the client starts as its agent \
(also in the environment as ACP_PLAN_AGENT). The suite answers the protocol version the client asks \
for (2 or later: v2, else v1; --spec pins a revision) and sends plan operations only if the client \
advertised them.\n\n\
Conformance (the client's own messages, by the rules of `check`) and robustness (ROBUST-CRASH, \
ROBUST-HANG, ROBUST-MEMORY, ROBUST-TERMINAL-ESCAPE: no MUST claimed) are reported apart; both fail \
a scenario unless --robustness warn. --baseline accepts known failures of the client's own messages \
(scopes are scenario names); robustness findings are never baselined.\n\n\
Exit status: 0 every scenario passed or was not exercised (and at least one passed), \
1 a scenario failed, none was exercised, or a baseline entry expired or matches nothing, \
2 usage or I/O error."
)]
pub struct ClientArgs {
    /// Scenario to run (repeatable): legacy, plan-operations, edge-sizes,
    /// terminal-escapes, load. Default: all.
    #[arg(long = "scenario", value_name = "NAME", value_parser = parse_client_scenario)]
    pub scenarios: Vec<acp_plan_conformance::live::client_scenario::ClientScenario>,
    /// Longest wait for the client: to start its agent, to send its next message,
    /// to answer the permission request, to exit after the turn.
    #[arg(long, value_name = "DURATION", default_value = "30s", value_parser = parse_duration)]
    pub timeout: Duration,
    /// Longest time for one scenario.
    #[arg(long, value_name = "DURATION", default_value = "300s", value_parser = parse_duration)]
    pub scenario_timeout: Duration,
    /// Working directory of the client (default: the current one).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Extra environment variable for the client (repeatable).
    #[arg(long = "env", value_name = "KEY=VAL", value_parser = parse_env)]
    pub env: Vec<(String, String)>,
    /// Write each scenario's transcript (NAME.jsonl) and the client's stdout and
    /// stderr (NAME.stdout.log, NAME.stderr.log) here; with --fuzz also the
    /// reproducers (default for them: ./acp-plan-client-fuzz).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Resident memory the client's process group may reach (MiB) before
    /// ROBUST-MEMORY.
    #[arg(long, value_name = "MIB", default_value_t = 2048)]
    pub max_memory: u64,
    /// What robustness findings do to the exit status: fail (the default) or warn.
    #[arg(long, value_enum, default_value_t = IncompletePolicy::Fail, value_name = "POLICY")]
    pub robustness: IncompletePolicy,
    /// Instead of the scenarios, N turns of hostile plan messages (generated and
    /// mutated from --seed); each iteration with a robustness finding gets a
    /// minimised reproducer for `acp-plan fake-agent --script`.
    #[arg(long, value_name = "N", conflicts_with = "scenarios")]
    pub fuzz: Option<u64>,
    /// Seed of --fuzz: the same seed, the same messages.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "fuzz")]
    pub seed: u64,
    #[command(flatten)]
    pub spec: SpecArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub verdict: VerdictArgs,
    #[command(flatten)]
    pub baseline: LiveBaselineArgs,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// The client command and its arguments, with `{agent}` where its agent goes.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

/// `acp-plan fake-client --agent CMDLINE`
#[derive(Debug, Args)]
#[command(
    after_help = "e.g. `acp-plan client -- acp-plan fake-client --agent {agent}` passes, and \
`acp-plan client -- acp-plan fake-client --flaw raw-escapes --agent {agent}` fails with ROBUST-TERMINAL-ESCAPE."
)]
pub struct FakeClientArgs {
    /// The agent's command line, one argument (split as a shell splits words).
    #[arg(long, value_name = "CMDLINE")]
    pub agent: String,
    /// The protocol version to ask for (2: protocol v2).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub protocol_version: u64,
    /// The prompt of the one turn.
    #[arg(long, value_name = "TEXT", default_value = "Make a plan")]
    pub prompt: String,
    /// Load the session with this id instead of creating one (v1:
    /// `session/load`, only when the agent advertised `loadSession`; v2:
    /// `session/resume` replaying from the start).
    #[arg(long, value_name = "SESSION_ID")]
    pub load: Option<String>,
    /// Break the client on purpose: capability-spelling, prompt-first,
    /// crash-on-plan, hang, raw-escapes, load-without-capability.
    #[arg(long, value_name = "FLAW", value_parser = parse_flaw)]
    pub flaw: Option<acp_plan_conformance::live::fake_client::Flaw>,
}

/// `acp-plan agent-relay SOCKET` (internal: started by the client under test).
#[derive(Debug, Args)]
pub struct AgentRelayArgs {
    /// The socket of the running `acp-plan client`.
    pub socket: PathBuf,
}

/// `acp-plan fake-agent --script FILE`
#[derive(Debug, Args)]
pub struct FakeAgentArgs {
    /// A trace (bare or envelopes; raw lines too, see docs/live.md) or a
    /// vector file whose agent side to play.
    #[arg(long, value_name = "FILE")]
    pub script: PathBuf,
    /// The case of a vector file to play.
    #[arg(long, value_name = "ID")]
    pub case: Option<String>,
}

#[derive(Debug, Args)]
#[command(after_help = "The same options and seed always write the same bytes. \
Each --inject adds one violation (spread evenly over the messages) and prints \
`injected RULE at line N` to standard error. Injecting CAP-PLAN-OPS makes the \
client omit the capability; CAP-LEGACY-V2 and SHAPE-FILE-URI-ABSOLUTE need --spec v2.

The benchmark's shapes (bench/run.sh): plan-heavy `--sessions 8 --plans 2 --entries 6 \
--payload-bytes 120`; chat-heavy `--non-plan-share 0.95 --chunk-bytes 3000`; \
tool-output-heavy `--non-plan-share 0.9 --tool-output-bytes 6000`; many-sessions \
`--sessions 10000 --turn-length 2`; plan-heavy as Python writes JSON, `--spacing python`.")]
pub struct GenArgs {
    /// Seed of the generator.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Revision to write: draft-2026-05, v1 or v2.
    #[arg(long, default_value = "v1", value_parser = parse_revision)]
    pub spec: acp_plan_conformance::spec::Revision,
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
    /// Bytes of text in each message chunk instead, prose with line breaks
    /// (chat-heavy traces).
    #[arg(long, value_name = "N")]
    pub chunk_bytes: Option<usize>,
    /// Give each `tool_call` a nested `rawOutput` of about N bytes
    /// (tool-output-heavy traces).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub tool_output_bytes: usize,
    /// Updates per turn, on average (short turns with many sessions).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..))]
    pub turn_length: u8,
    /// How each line's JSON is spaced.
    #[arg(long, value_enum, default_value_t = SpacingArg::Compact, value_name = "SPACING")]
    pub spacing: SpacingArg,
    /// Inject a violation of RULE (repeatable); `--inject list` lists them.
    #[arg(long, value_name = "RULE")]
    pub inject: Vec<String>,
    /// Write to FILE instead of standard output.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

fn parse_revision(text: &str) -> Result<acp_plan_conformance::spec::Revision, String> {
    text.parse()
}

fn parse_spec(text: &str) -> Result<SpecChoice, String> {
    text.parse()
}

fn parse_scenario(text: &str) -> Result<Scenario, String> {
    text.parse()
}

fn parse_client_scenario(
    text: &str,
) -> Result<acp_plan_conformance::live::client_scenario::ClientScenario, String> {
    text.parse()
}

fn parse_flaw(text: &str) -> Result<acp_plan_conformance::live::fake_client::Flaw, String> {
    text.parse()
}

fn parse_permission(text: &str) -> Result<PermissionChoice, String> {
    text.parse()
}

/// `KEY=VAL`.
fn parse_env(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("expected KEY=VAL, got `{text}`")),
    }
}

/// Seconds (`30`, `2.5`) or a number with a unit: `500ms`, `30s`, `2m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 0.001)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60.0)
    } else {
        (text, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("expected a duration like 30s, 500ms or 2m, got `{text}`"))?;
    Duration::try_from_secs_f64(value * scale)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("`{text}` is not a positive duration"))
}

fn parse_report(text: &str) -> Result<ReportFile, String> {
    text.parse()
}

fn parse_date(text: &str) -> Result<NaiveDate, String> {
    acp_plan_conformance::baseline::parse_date(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert!(parse_duration("0").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn env_pairs() {
        assert_eq!(parse_env("A=b=c"), Ok(("A".into(), "b=c".into())));
        assert!(parse_env("=x").is_err());
        assert!(parse_env("A").is_err());
    }

    #[test]
    fn agent_command_after_dashes() {
        let cli = Cli::try_parse_from([
            "acp-plan",
            "agent",
            "--scenario",
            "load",
            "--timeout",
            "5s",
            "--",
            "my-agent",
            "--flag",
        ])
        .unwrap();
        let Command::Agent(args) = cli.command else {
            panic!("not agent")
        };
        assert_eq!(args.command, ["my-agent", "--flag"]);
        assert_eq!(args.scenarios, [Scenario::Load]);
        assert!(Cli::try_parse_from(["acp-plan", "agent"]).is_err());
    }
}
