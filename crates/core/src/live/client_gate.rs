//! `acp-plan client`: the suite plays a conformant agent to a client under
//! test, a fresh client process per scenario, and judges two things apart:
//!
//! - **conformance**: the client's own messages, fed with the suite's
//!   through the same [`Validator`] as `check` (same rule ids, citations);
//! - **robustness and security** ([`FindingKind`]): a crash, a hang (a
//!   request of the suite left unanswered), memory growth past a bound, and
//!   terminal control sequences from plan text appearing raw on the
//!   client's stdout or stderr. No MUST is claimed for these.
//!
//! The client starts its agent itself: the argument `{agent}` of its
//! command becomes one argument holding the suite's agent command line,
//! `acp-plan agent-relay SOCKET` ([`super::relay`]), which connects back to
//! this process over a Unix socket in a private temporary directory.

use super::client_scenario::{
    permission_params, tool_call_update, ClientScenario, Negotiated, ESCAPE_PROBES,
};
use super::process::{describe_status, last_lines, signal_group, AgentCommand, AgentEvent};
use super::scenario::{Evidence, ScenarioResult};
use super::transcript::Transcript;
use crate::baseline::AsOf;
use crate::catalog::Counts;
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::spec::SpecChoice;
use crate::trace::{Limits, RawLine};
use crate::validate::{Config, TraceReport, Validator};
use serde_json::{json, Value};
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The placeholder in the client's command for the suite's agent command line.
pub const AGENT_PLACEHOLDER: &str = "{agent}";
pub use super::client_scenario::FIRST_SESSION_ID;
/// The id of the suite's permission request.
const PERMISSION_ID: &str = "acp-plan-permission-1";
/// How often the loop looks at the client process and its memory.
const POLL: Duration = Duration::from_millis(20);
/// How long the connection may still talk once the client has exited.
const DRAIN: Duration = Duration::from_millis(500);
/// Bytes of the client's stdout and stderr scanned for escape sequences.
const MAX_SCANNED_BYTES: u64 = 256 * 1024 * 1024;

/// A robustness or security finding: not a spec rule, no MUST claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// The client ended by a signal or with a non-zero exit status.
    Crash,
    /// The client left a request of the suite unanswered: past the
    /// timeout, or until it exited.
    Hang,
    /// The client's memory (its process group's resident set) grew past the bound.
    Memory,
    /// Terminal control sequences from plan text reached the client's
    /// stdout or stderr raw.
    TerminalEscape,
}

impl FindingKind {
    /// The finding's id in reports (`ROBUST-…`): shaped like a rule id so reports can carry it,
    /// though no rule of the catalog backs it.
    pub fn id(self) -> &'static str {
        match self {
            FindingKind::Crash => "ROBUST-CRASH",
            FindingKind::Hang => "ROBUST-HANG",
            FindingKind::Memory => "ROBUST-MEMORY",
            FindingKind::TerminalEscape => "ROBUST-TERMINAL-ESCAPE",
        }
    }

    /// One sentence saying what the finding means, for reports' rule descriptions.
    pub fn summary(self) -> &'static str {
        match self {
            FindingKind::Crash => "The client crashed (a signal or a non-zero exit status)",
            FindingKind::Hang => "The client left a request of the agent unanswered",
            FindingKind::Memory => "The client's memory grew past the bound",
            FindingKind::TerminalEscape => {
                "Terminal control sequences from plan text reached the client's output raw"
            }
        }
    }
}

/// One robustness or security finding in one scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What was found.
    pub kind: FindingKind,
    /// What happened, with the evidence (exit status, bytes, the sequence seen).
    pub message: String,
}

/// What the suite sends in the prompt turn.
#[derive(Clone, Debug)]
pub enum Turn {
    /// A scenario's updates, chosen once the client has negotiated.
    Scenario(ClientScenario),
    /// Lines sent as they are (fuzzing: they need not be valid), naming
    /// the session [`FIRST_SESSION_ID`].
    Raw(Vec<Vec<u8>>),
}

/// How to run a client through the scenarios.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// The client's command; some argument holds [`AGENT_PLACEHOLDER`].
    pub client: AgentCommand,
    /// The relay command the client is to start (program and arguments; the
    /// socket path is appended).
    pub relay: Vec<OsString>,
    /// Longest wait for the client: to start its agent, to send its next message, to answer the
    /// permission request, to exit after the turn (`--timeout`).
    pub timeout: Duration,
    /// Longest time for one scenario (`--scenario-timeout`).
    pub scenario_timeout: Duration,
    /// Bounds on the checker's memory for the client's traffic.
    pub limits: Limits,
    /// Where transcripts, the client's stdout and stderr logs and fuzz reproducers go
    /// (`--out`).
    pub out: Option<PathBuf>,
    /// Bytes of resident memory the client's process group may use.
    pub max_memory_bytes: u64,
    /// Whether a warning on the client's messages fails a scenario (`--deny-warnings`).
    pub deny_warnings: bool,
    /// Whether robustness findings fail a scenario (the default), or are
    /// only reported.
    pub robustness_fails: bool,
    /// Failures of the client's own messages accepted for now, by scenario
    /// name (`--baseline`; robustness findings are not rules and are never
    /// baselined).
    pub baseline: Option<AsOf>,
    /// The revision the suite answers as and judges by (`--spec`): `Auto`
    /// follows the protocol version the client asks for.
    pub spec: SpecChoice,
}

/// Run every turn, a fresh client process each, calling `on_outcome` as
/// each one ends. Fails only when the client cannot be started at all or
/// `out` cannot be written.
pub fn run(
    options: &ClientOptions,
    turns: &[(String, Turn)],
    on_outcome: &mut dyn FnMut(&ClientOutcome),
) -> io::Result<Vec<ClientOutcome>> {
    if let Some(out) = &options.out {
        fs::create_dir_all(out).map_err(|e| {
            io::Error::new(e.kind(), format!("cannot create {}: {e}", out.display()))
        })?;
    }
    let mut outcomes = Vec::new();
    for (name, turn) in turns {
        let outcome = run_turn(options, name, turn)?;
        on_outcome(&outcome);
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// Client runs a minimisation may take per finding (each runs the client once).
const MAX_MINIMISING_RUNS: usize = 24;

/// `--fuzz iterations --seed seed`: each iteration a turn of
/// `client_fuzz::fuzz_lines`; each one with robustness findings is
/// minimised and written as a `fake-agent --script` reproducer into
/// `reproducers` (`fuzz-N.reproducer.jsonl`).
pub fn run_fuzz(
    options: &ClientOptions,
    seed: u64,
    iterations: u64,
    reproducers: &Path,
    on_outcome: &mut dyn FnMut(&ClientOutcome),
) -> io::Result<Vec<ClientOutcome>> {
    use super::client_fuzz::{fuzz_lines, reproducer};
    fs::create_dir_all(reproducers).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("cannot create {}: {e}", reproducers.display()),
        )
    })?;
    if let Some(out) = &options.out {
        fs::create_dir_all(out)?;
    }
    let mut outcomes = Vec::new();
    for iteration in 0..iterations {
        let name = format!("fuzz-{iteration}");
        let lines = fuzz_lines(seed, iteration);
        let mut outcome = run_turn(options, &name, &Turn::Raw(lines.clone()))?;
        if !outcome.findings.is_empty() {
            let kinds: Vec<FindingKind> = outcome.findings.iter().map(|f| f.kind).collect();
            let minimal = minimise(options, lines, &kinds)?;
            let path = reproducers.join(format!("{name}.reproducer.jsonl"));
            fs::write(&path, reproducer(&minimal))?;
            outcome.reproducer = Some(path);
        }
        on_outcome(&outcome);
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// Drop runs of lines (halves, then quarters, ...) while the client still
/// shows every finding kind in `kinds`, within [`MAX_MINIMISING_RUNS`].
fn minimise(
    options: &ClientOptions,
    mut lines: Vec<Vec<u8>>,
    kinds: &[FindingKind],
) -> io::Result<Vec<Vec<u8>>> {
    let quiet = ClientOptions {
        out: None,
        ..options.clone()
    };
    let mut runs = 0;
    let mut chunk = lines.len().div_ceil(2);
    while chunk >= 1 && runs < MAX_MINIMISING_RUNS && lines.len() > 1 {
        let mut start = 0;
        while start < lines.len() && runs < MAX_MINIMISING_RUNS && lines.len() > 1 {
            let end = (start + chunk).min(lines.len());
            let mut candidate = lines.clone();
            candidate.drain(start..end);
            if candidate.is_empty() {
                start = end;
                continue;
            }
            runs += 1;
            let outcome = run_turn(&quiet, "minimising", &Turn::Raw(candidate.clone()))?;
            let still = kinds
                .iter()
                .all(|k| outcome.findings.iter().any(|f| f.kind == *k));
            if still {
                lines = candidate;
            } else {
                start = end;
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    Ok(lines)
}

/// The scenarios asked for (all by default), as turns.
pub fn scenario_turns(only: &[ClientScenario]) -> Vec<(String, Turn)> {
    let chosen: &[ClientScenario] = if only.is_empty() {
        &ClientScenario::ALL
    } else {
        only
    };
    chosen
        .iter()
        .map(|s| (s.name().to_owned(), Turn::Scenario(*s)))
        .collect()
}

/// What happened in one scenario.
#[derive(Debug)]
pub struct ClientOutcome {
    /// The scenario's name (a [`ClientScenario`]'s, or a fuzz case's).
    pub name: String,
    /// The scenario's verdict.
    pub result: ScenarioResult,
    /// Why, in one line: the failures and findings joined, or what the client did when it
    /// passed.
    pub reason: String,
    /// What the client negotiated in `initialize`; `None` when it sent none.
    pub negotiated: Option<Negotiated>,
    /// Robustness and security findings, each already a failure unless `--robustness warn`.
    pub findings: Vec<Finding>,
    /// The client's diagnostics (those on its own messages), as `check`
    /// reports them; named after the scenario.
    pub report: Option<TraceReport>,
    /// Diagnostics on the suite's own messages (none in the scenarios; the
    /// fuzzer's are deliberate).
    pub suite_diagnostics: Vec<Diagnostic>,
    /// The transcript written for the scenario, under `--out`.
    pub transcript: Option<PathBuf>,
    /// How the client ended, its stderr tail and the last messages, for the report.
    pub evidence: Evidence,
    /// Whether the turn was played (the client prompted).
    pub exercised: bool,
    /// A `fake-agent --script` reproducer of the findings (fuzzing).
    pub reproducer: Option<PathBuf>,
}

impl ClientOutcome {
    pub(crate) fn client_counts(&self) -> Counts {
        self.report.as_ref().map(|r| r.counts).unwrap_or_default()
    }
}

/// Whether any argument of the client's command holds [`AGENT_PLACEHOLDER`].
pub fn has_placeholder(client: &AgentCommand) -> bool {
    std::iter::once(&client.program)
        .chain(&client.args)
        .any(|w| w.to_string_lossy().contains(AGENT_PLACEHOLDER))
}

/// `words` as one shell command line (single-quoted where needed).
pub(crate) fn shell_join(words: &[OsString]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            let w = w.to_string_lossy();
            let plain = !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./:=@%+,-".contains(c));
            if plain {
                w.into_owned()
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect();
    quoted.join(" ")
}

/// Run the client through `turn`, named `name`.
pub(crate) fn run_turn(options: &ClientOptions, name: &str, turn: &Turn) -> io::Result<ClientOutcome> {
    let scratch = tempfile::Builder::new()
        .prefix("acp-plan-client")
        .tempdir()?;
    let socket = scratch.path().join("agent.sock");
    let listener = UnixListener::bind(&socket)?;
    let mut relay = options.relay.clone();
    relay.push(socket.clone().into_os_string());
    let agent_line = shell_join(&relay);
    let out_file = |suffix: &str| match &options.out {
        Some(dir) => dir.join(format!("{name}{suffix}")),
        None => scratch.path().join(format!("client{suffix}")),
    };
    let stdout_path = out_file(".stdout.log");
    let stderr_path = out_file(".stderr.log");
    let transcript = match &options.out {
        Some(dir) => {
            Transcript::to_file(&dir.join(format!("{name}.jsonl")), options.limits.max_depth)?
        }
        None => Transcript::in_memory(options.limits.max_depth),
    };
    let substitute = |w: &OsString| -> OsString {
        w.to_string_lossy()
            .replace(AGENT_PLACEHOLDER, &agent_line)
            .into()
    };
    let mut client = AgentCommand {
        program: substitute(&options.client.program),
        args: options.client.args.iter().map(substitute).collect(),
        ..options.client.clone()
    };
    client
        .env
        .push(("ACP_PLAN_AGENT".into(), agent_line.clone()));
    let child = client
        .command()
        .stdin(Stdio::null())
        .stdout(File::create(&stdout_path)?)
        .stderr(File::create(&stderr_path)?)
        .spawn()
        .map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot start `{}`: {e}", client.display()),
            )
        })?;
    let mut session = Session::new(options, name, turn.clone(), child, transcript);
    session.run(listener);
    drop(session.writer.take());
    let client_end = session.stop();
    session.judge_output(&stdout_path, "stdout");
    session.judge_output(&stderr_path, "stderr");
    let stderr_tail = tail_of(&stderr_path);
    Ok(session.outcome(client_end, stderr_tail))
}

/// One connection with the client under test.
struct Session<'a> {
    options: &'a ClientOptions,
    name: String,
    turn: Turn,
    child: Child,
    pgid: libc::pid_t,
    status: Option<ExitStatus>,
    killed: bool,
    memory: MemoryWatch,
    transcript: Transcript,
    validator: Option<Validator>,
    report: Option<TraceReport>,
    suite_lines: std::collections::HashSet<u64>,
    suite_diagnostics: Vec<Diagnostic>,
    writer: Option<Sender<Vec<u8>>>,
    negotiated: Option<Negotiated>,
    sessions: u64,
    /// Sessions handed out (`session/new`) or named (`session/load`, `session/resume`).
    established: std::collections::HashSet<String>,
    /// The prompt being answered: its id, its session, and whether it was cancelled.
    prompt: Option<(Value, String, bool)>,
    exercised: bool,
    /// Whether the client sent a `session/prompt` on an established session.
    prompted: bool,
    /// Whether a `session/load` or `session/resume` with `replayFrom` was
    /// answered with the scenario's plans replayed.
    replayed: bool,
    permission_sent: Option<Instant>,
    turn_ended: Option<Instant>,
    findings: Vec<Finding>,
    incident: Option<String>,
    notes: Vec<String>,
}

impl<'a> Session<'a> {
    fn new(
        options: &'a ClientOptions,
        name: &str,
        turn: Turn,
        child: Child,
        transcript: Transcript,
    ) -> Session<'a> {
        let pgid = libc::pid_t::try_from(child.id()).unwrap_or(0);
        Session {
            options,
            name: name.to_owned(),
            turn,
            memory: MemoryWatch::start(pgid),
            child,
            pgid,
            status: None,
            killed: false,
            transcript,
            validator: None,
            report: None,
            suite_lines: Default::default(),
            suite_diagnostics: Vec::new(),
            writer: None,
            negotiated: None,
            sessions: 0,
            established: Default::default(),
            prompt: None,
            exercised: false,
            prompted: false,
            replayed: false,
            permission_sent: None,
            turn_ended: None,
            findings: Vec::new(),
            incident: None,
            notes: Vec::new(),
        }
    }

    fn exited(&mut self) -> bool {
        if self.status.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.status = Some(status);
            }
        }
        self.status.is_some()
    }

    /// Accept the client's connection, then play the agent until the
    /// client is done, stuck, or out of time.
    fn run(&mut self, listener: UnixListener) {
        let started = Instant::now();
        let deadline = started + self.options.scenario_timeout;
        let Some(stream) = self.accept(listener, deadline) else {
            return;
        };
        let (events, writer) = connect(stream, self.options.limits.max_line_bytes);
        self.writer = Some(writer);
        let mut last_client_message = Instant::now();
        let mut exited_at: Option<Instant> = None;
        loop {
            let now = Instant::now();
            if now >= deadline {
                self.incident = Some(format!(
                    "the scenario ran out of time ({:.1} s)",
                    self.options.scenario_timeout.as_secs_f64()
                ));
                return;
            }
            if let Some(sent) = self.permission_sent {
                if now.duration_since(sent) >= self.options.timeout {
                    self.findings.push(Finding {
                        kind: FindingKind::Hang,
                        message: format!(
                            "the client did not answer `session/request_permission` (id \"{PERMISSION_ID}\") within {:.1} s",
                            self.options.timeout.as_secs_f64()
                        ),
                    });
                    return;
                }
            }
            if let Some(ended) = self.turn_ended {
                if now.duration_since(ended) >= self.options.timeout {
                    self.notes.push(format!(
                        "the client was still running {:.1} s after the turn ended (an interactive client does); stopped",
                        self.options.timeout.as_secs_f64()
                    ));
                    return;
                }
            } else if self.permission_sent.is_none()
                && now.duration_since(last_client_message) >= self.options.timeout
            {
                self.notes.push(format!(
                    "the client sent nothing for {:.1} s{}; stopped",
                    self.options.timeout.as_secs_f64(),
                    if !self.prompted {
                        " and never prompted"
                    } else {
                        ""
                    }
                ));
                return;
            }
            if exited_at.is_none() && self.exited() {
                exited_at = Some(now);
            }
            if exited_at.is_some_and(|t| now.duration_since(t) >= DRAIN) {
                return;
            }
            match events.recv_timeout(POLL) {
                Ok(AgentEvent::Line(bytes)) => {
                    last_client_message = Instant::now();
                    self.receive(&bytes);
                }
                Ok(AgentEvent::TooLong { bytes }) => {
                    let line = self.transcript.record_gap();
                    if let Some(v) = &mut self.validator {
                        v.push_line(line, RawLine::TooLong { bytes });
                    }
                    self.collect();
                }
                Ok(AgentEvent::Closed | AgentEvent::ReadFailed(_))
                | Err(RecvTimeoutError::Disconnected) => {
                    // The client closed its agent's stdin: close the other way
                    // too (the relay exits), then wait for the client to exit.
                    drop(self.writer.take());
                    let until = deadline.min(Instant::now() + self.options.timeout);
                    self.wait_exit(until);
                    if !self.exited() {
                        self.notes.push(format!(
                            "the client was still running {:.1} s after it closed its agent's stdin; stopped",
                            self.options.timeout.as_secs_f64()
                        ));
                    }
                    return;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    fn accept(&mut self, listener: UnixListener, deadline: Instant) -> Option<UnixStream> {
        if listener.set_nonblocking(true).is_err() {
            self.incident = Some("cannot listen on the agent socket".into());
            return None;
        }
        let give_up = deadline.min(Instant::now() + self.options.timeout);
        loop {
            match listener.accept() {
                Ok((stream, _)) => {
                    let _ = stream.set_nonblocking(false);
                    return Some(stream);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => {
                    self.incident = Some(format!("accepting the agent's connection failed: {e}"));
                    return None;
                }
            }
            if self.exited() {
                self.incident = Some(format!(
                    "the client exited ({}) without starting its agent (`{AGENT_PLACEHOLDER}` in its command)",
                    self.status.map(describe_status).unwrap_or_default()
                ));
                return None;
            }
            if Instant::now() >= give_up {
                self.incident = Some(format!(
                    "the client did not start its agent (`{AGENT_PLACEHOLDER}` in its command) within {:.1} s",
                    self.options.timeout.as_secs_f64()
                ));
                return None;
            }
            thread::sleep(POLL);
        }
    }

    fn wait_exit(&mut self, until: Instant) {
        while !self.exited() && Instant::now() < until {
            thread::sleep(POLL);
        }
    }

    /// Kill whatever is left of the client's process group and reap it.
    fn stop(&mut self) -> String {
        if !self.exited() {
            self.killed = true;
        }
        let _ = signal_group(self.pgid, libc::SIGKILL);
        let status = match self.status {
            Some(status) => status,
            None => self
                .child
                .wait()
                .unwrap_or_else(|_| ExitStatus::from_raw(libc::SIGKILL)),
        };
        self.memory.stop();
        if let Some(peak) = self.memory.peak() {
            if peak > self.options.max_memory_bytes {
                self.findings.push(Finding {
                    kind: FindingKind::Memory,
                    message: format!(
                        "the client's resident memory reached {} MiB (bound {} MiB)",
                        peak / (1024 * 1024),
                        self.options.max_memory_bytes / (1024 * 1024)
                    ),
                });
            }
        }
        if self.killed {
            return "still running; killed by acp-plan".into();
        }
        let crashed = status.signal().is_some() || status.code().is_some_and(|c| c != 0);
        if crashed {
            let when = if self.turn_ended.is_some() {
                "after the turn ended"
            } else if self.exercised {
                "during the prompt turn"
            } else {
                "before the prompt turn"
            };
            self.findings.push(Finding {
                kind: FindingKind::Crash,
                message: format!("the client ended {when}: {}", describe_status(status)),
            });
        }
        // The run loop may have reported the unanswered request already, at
        // its timeout: closing the connection then lets a client exit on its
        // own before this looks, and that exit is the same hang, not a second.
        let hang_reported = self.findings.iter().any(|f| f.kind == FindingKind::Hang);
        if self.permission_sent.is_some() && !crashed && !hang_reported {
            self.findings.push(Finding {
                kind: FindingKind::Hang,
                message: format!(
                    "the client ended ({}) without answering `session/request_permission` (id \"{PERMISSION_ID}\")",
                    describe_status(status)
                ),
            });
        }
        describe_status(status)
    }

    /// Look for the escape probes in what the client wrote to `stream`.
    fn judge_output(&mut self, path: &Path, stream: &str) {
        let Ok(file) = File::open(path) else {
            return;
        };
        let mut bytes = Vec::new();
        if file
            .take(MAX_SCANNED_BYTES)
            .read_to_end(&mut bytes)
            .is_err()
        {
            return;
        }
        for probe in ESCAPE_PROBES {
            if contains(&bytes, probe.as_bytes()) {
                self.findings.push(Finding {
                    kind: FindingKind::TerminalEscape,
                    message: format!(
                        "plan text {} reached the client's {stream} raw (a terminal would act on it)",
                        serde_json::to_string(probe).unwrap_or_default()
                    ),
                });
            }
        }
    }

    /// Record, check and answer one line from the client.
    fn receive(&mut self, bytes: &[u8]) {
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        let message: Option<Value> = serde_json::from_slice(bytes).ok();
        if self.validator.is_none() {
            // The suite speaks what the first message asks for (`initialize`).
            let params = message
                .as_ref()
                .filter(|m| m.get("method").and_then(Value::as_str) == Some("initialize"))
                .and_then(|m| m.get("params"));
            let negotiated = Negotiated::from_initialize(params, self.options.spec);
            let validator = Validator::new(Config {
                spec: SpecChoice::Fixed(negotiated.revision),
                limits: self.options.limits.clone(),
            });
            self.report = Some(super::new_report(&self.name, &validator));
            self.validator = Some(validator);
        }
        let line = self.transcript.record(Direction::ClientToAgent, bytes);
        if let Some(v) = &mut self.validator {
            v.push_message(line, Direction::ClientToAgent, bytes);
        }
        self.collect();
        let Some(message) = message else { return };
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(id)) => {
                let method = method.to_owned();
                self.answer(id.clone(), &method, message.get("params"));
            }
            (Some("session/cancel"), None) => {
                if let Some((_, _, cancelled)) = &mut self.prompt {
                    *cancelled = true;
                }
            }
            (None, Some(id))
                if id.as_str() == Some(PERMISSION_ID) && self.permission_sent.take().is_some() =>
            {
                self.end_turn();
            }
            _ => {}
        }
    }

    fn answer(&mut self, id: Value, method: &str, params: Option<&Value>) {
        let negotiated = self
            .negotiated
            .unwrap_or_else(|| Negotiated::from_initialize(None, self.options.spec));
        match method {
            "initialize" => {
                let negotiated = Negotiated::from_initialize(params, self.options.spec);
                self.negotiated = Some(negotiated);
                let load = matches!(&self.turn, Turn::Scenario(s) if s.advertises_load());
                self.respond(&id, negotiated.initialize_result(load));
            }
            "authenticate" => self.respond(&id, json!({})),
            "session/new" => {
                self.sessions += 1;
                let session = format!("acp-plan-session-{}", self.sessions);
                self.respond(&id, json!({"sessionId": session}));
                self.established.insert(session);
            }
            "session/load" | "session/resume" => {
                let session = params
                    .and_then(|p| p.get("sessionId"))
                    .and_then(Value::as_str)
                    .unwrap_or(FIRST_SESSION_ID)
                    .to_owned();
                self.established.insert(session.clone());
                let replay = method == "session/load"
                    || params.is_some_and(|p| p.get("replayFrom").is_some());
                if replay {
                    self.replayed = true;
                    if let Turn::Scenario(scenario) = &self.turn {
                        if scenario.not_applicable(negotiated).is_none() {
                            for update in scenario.updates(negotiated) {
                                self.notify_update(&session, update);
                            }
                        }
                    }
                    // "The Agent MUST send this exactly once on a session for each
                    // session/resume request with a replayFrom cursor, after the last
                    // replayed update for that session and before the response"
                    // (ReplayComplete, schema 1.20.0 v2).
                    if method == "session/resume" && negotiated.revision.spelling().replay_complete
                    {
                        self.notify_update(&session, json!({"sessionUpdate": "replay_complete"}));
                    }
                }
                self.respond(&id, json!({}));
            }
            // v2's baseline session methods, which `capabilities.session: {}`
            // advertises: a close ends nothing the suite keeps; no session is
            // listed, as none outlives the connection.
            "session/close" if negotiated.protocol_version() == 2 => {
                self.respond(&id, json!({}));
            }
            "session/list" if negotiated.protocol_version() == 2 => {
                self.respond(&id, json!({"sessions": []}));
            }
            "session/prompt" => {
                let session = params
                    .and_then(|p| p.get("sessionId"))
                    .and_then(Value::as_str)
                    .unwrap_or(FIRST_SESSION_ID)
                    .to_owned();
                if !self.established.contains(&session) {
                    self.send_value(&json!({"jsonrpc": "2.0", "id": id, "error": {
                        "code": -32602,
                        "message": "Invalid params: no such session on this connection (session/new first)",
                    }}));
                    return;
                }
                if self.prompt.is_some() || self.exercised {
                    // Only the first prompt gets the scenario; others end at once.
                    self.prompt_response(&id, "end_turn");
                    return;
                }
                self.exercised = true;
                self.prompted = true;
                self.prompt = Some((id.clone(), session.clone(), false));
                if negotiated.protocol_version() == 2 {
                    self.respond(&id, json!({"messageId": "acp-plan-message-1"}));
                    self.notify_update(
                        &session,
                        json!({"sessionUpdate": "state_update", "state": "running"}),
                    );
                }
                self.play_turn(&session, negotiated);
                self.notify_update(&session, tool_call_update(negotiated.protocol_version()));
                self.send_value(&json!({"jsonrpc": "2.0", "id": PERMISSION_ID,
                    "method": "session/request_permission", "params": permission_params(&session, negotiated.protocol_version())}));
                self.permission_sent = Some(Instant::now());
            }
            _ => self.send_value(&json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": -32601,
                "message": format!("Method not found: the acp-plan agent does not implement `{}`",
                    crate::text::shorten(method, 80)),
            }})),
        }
    }

    fn play_turn(&mut self, session: &str, negotiated: Negotiated) {
        match self.turn.clone() {
            Turn::Scenario(scenario) => {
                if let Some(why) = scenario.not_applicable(negotiated) {
                    self.notes.push(format!("no plans sent: {why}"));
                    self.exercised = false;
                    return;
                }
                if scenario == ClientScenario::Load && !self.replayed {
                    self.notes.push(
                        "no plans sent: the client did not call session/load (v2: session/resume with replayFrom), so nothing was replayed".to_owned(),
                    );
                    self.exercised = false;
                    return;
                }
                for update in scenario.turn_updates(negotiated) {
                    self.notify_update(session, update);
                }
            }
            Turn::Raw(lines) => {
                for line in lines {
                    self.send_bytes(line);
                }
            }
        }
    }

    fn end_turn(&mut self) {
        let Some((id, session, cancelled)) = self.prompt.take() else {
            return;
        };
        let stop = if cancelled { "cancelled" } else { "end_turn" };
        match self.negotiated.map(Negotiated::protocol_version) {
            Some(2) => {
                self.notify_update(
                    &session,
                    json!({"sessionUpdate": "state_update", "state": "idle"}),
                );
            }
            _ => self.respond(&id, json!({"stopReason": stop})),
        }
        self.turn_ended = Some(Instant::now());
    }

    fn prompt_response(&mut self, id: &Value, stop: &str) {
        let v2 = self.negotiated.map(Negotiated::protocol_version) == Some(2);
        if v2 {
            self.respond(id, json!({"messageId": "acp-plan-message-extra"}));
        } else {
            self.respond(id, json!({"stopReason": stop}));
        }
    }

    fn respond(&mut self, id: &Value, result: Value) {
        self.send_value(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    fn notify_update(&mut self, session: &str, update: Value) {
        self.send_value(&json!({"jsonrpc": "2.0", "method": "session/update",
            "params": {"sessionId": session, "update": update}}));
    }

    fn send_value(&mut self, message: &Value) {
        self.send_bytes(serde_json::to_vec(message).unwrap_or_default());
    }

    /// Record, check and send one line of the suite's.
    fn send_bytes(&mut self, mut bytes: Vec<u8>) {
        let Some(writer) = &self.writer else { return };
        let line = self.transcript.record(Direction::AgentToClient, &bytes);
        self.suite_lines.insert(line);
        if let Some(v) = &mut self.validator {
            v.push_message(line, Direction::AgentToClient, &bytes);
        }
        bytes.push(b'\n');
        let _ = writer.send(bytes);
        self.collect();
    }

    fn collect(&mut self) {
        let Some(v) = &mut self.validator else { return };
        let max_kept = self.options.limits.max_diagnostics;
        for d in v.take_diagnostics() {
            if self.suite_lines.contains(&d.line) {
                if self.suite_diagnostics.len() < max_kept {
                    self.suite_diagnostics.push(d);
                }
            } else if let Some(report) = &mut self.report {
                report.add(d, max_kept);
            }
        }
    }

    fn outcome(&mut self, client_end: String, stderr_tail: String) -> ClientOutcome {
        self.findings.sort_by_key(|f| f.kind);
        self.findings.dedup();
        let recent = self.transcript.recent().cloned().collect();
        let lines = self.transcript.lines();
        let mut report = self.report.take();
        if let (Some(report), Some(v)) = (&mut report, &self.validator) {
            super::finish_report(report, v, lines);
        }
        let transcript = std::mem::replace(&mut self.transcript, Transcript::in_memory(0))
            .finish()
            .ok()
            .flatten();
        let mut counts = report.as_ref().map(|r| r.counts).unwrap_or_default();
        let mut open_rules = report
            .as_ref()
            .map(|r| r.by_rule.clone())
            .unwrap_or_default();
        let accepted = match (&self.options.baseline, &report) {
            (Some(baseline), Some(report)) => super::runner::baselined(baseline, report),
            _ => None,
        };
        if let Some((accepted, rules)) = &accepted {
            counts.errors = counts.errors.saturating_sub(accepted.errors);
            counts.warnings = counts.warnings.saturating_sub(accepted.warnings);
            counts.infos = counts.infos.saturating_sub(accepted.infos);
            counts.incomplete = counts.incomplete.saturating_sub(accepted.incomplete);
            open_rules.retain(|rule, _| !rules.contains_key(rule));
            self.notes
                .push(format!("baselined: {}", super::runner::rule_counts(rules)));
        }
        let conformance_fails = counts.errors > 0
            || counts.incomplete > 0
            || (self.options.deny_warnings && counts.warnings > 0);
        let mut reasons = Vec::new();
        if let Some(incident) = &self.incident {
            reasons.push(incident.clone());
        }
        if conformance_fails {
            let rules = super::runner::rule_counts(&open_rules);
            reasons.push(format!(
                "{} error(s), {} warning(s) from the client: {}",
                counts.errors, counts.warnings, rules
            ));
        }
        for f in &self.findings {
            let finding = format!("{}: {}", f.kind.id(), f.message);
            if self.options.robustness_fails {
                reasons.push(finding);
            } else {
                self.notes
                    .push(format!("{finding} (reported only: --robustness warn)"));
            }
        }
        let result = if !reasons.is_empty() {
            ScenarioResult::Fail
        } else if !self.exercised {
            ScenarioResult::NotExercised
        } else {
            ScenarioResult::Pass
        };
        let mut reason = if reasons.is_empty() {
            match (&self.turn, self.negotiated) {
                (_, None) => "the client sent no initialize".to_owned(),
                (Turn::Scenario(_), Some(n)) if self.exercised => format!(
                    "{} negotiated (plan operations {}); the client answered the permission request and the turn ended",
                    n.revision,
                    if n.plan_operations { "on" } else { "off" }
                ),
                (Turn::Raw(_), Some(_)) if self.exercised => {
                    "the client survived the turn and answered the permission request".to_owned()
                }
                _ if self.prompted => "the client prompted".to_owned(),
                _ => "the client did not prompt".to_owned(),
            }
        } else {
            reasons.join("; ")
        };
        for note in &self.notes {
            reason = format!("{reason}; {note}");
        }
        ClientOutcome {
            name: self.name.clone(),
            result,
            reason,
            negotiated: self.negotiated,
            findings: std::mem::take(&mut self.findings),
            report,
            suite_diagnostics: std::mem::take(&mut self.suite_diagnostics),
            transcript,
            evidence: Evidence {
                agent_end: client_end,
                stderr_tail,
                recent,
            },
            exercised: self.exercised,
            reproducer: None,
        }
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // Never leave a client (or anything it started) behind.
        if self.status.is_none() {
            let _ = signal_group(self.pgid, libc::SIGKILL);
            let _ = self.child.wait();
        }
    }
}

/// Lines from the connection as events, and a queue of bytes to write to
/// it (so a client that stops reading never blocks the suite).
fn connect(stream: UnixStream, max_line_bytes: usize) -> (Receiver<AgentEvent>, Sender<Vec<u8>>) {
    let (event_tx, events) = mpsc::sync_channel(16);
    let reader = stream.try_clone();
    if let Ok(reader) = reader {
        thread::spawn(move || super::process::read_lines(reader, max_line_bytes, event_tx));
    }
    let (writer, queue) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        let mut stream = stream;
        for bytes in queue {
            if stream
                .write_all(&bytes)
                .and_then(|()| stream.flush())
                .is_err()
            {
                break;
            }
        }
        let _ = stream.shutdown(std::net::Shutdown::Both);
    });
    (events, writer)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && haystack.windows(needle.len()).any(|w| w == needle)
}

/// The last lines of a file's last 16 KiB.
fn tail_of(path: &Path) -> String {
    let Ok(mut file) = File::open(path) else {
        return String::new();
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let _ = file.seek(SeekFrom::Start(len.saturating_sub(16 * 1024)));
    let mut bytes = Vec::new();
    let _ = file.read_to_end(&mut bytes);
    // Control characters are shown escaped: a report must not act on a terminal either.
    let text: String = String::from_utf8_lossy(&bytes)
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                format!("\\u{{{:x}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect();
    last_lines(&text, 20)
}

/// The peak resident memory of a process group, sampled in a thread.
struct MemoryWatch {
    peak: Arc<AtomicU64>,
    done: Arc<AtomicBool>,
    measured: bool,
}

impl MemoryWatch {
    fn start(pgid: libc::pid_t) -> MemoryWatch {
        let peak = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        let measured = cfg!(target_os = "linux") && Path::new("/proc/self/statm").exists();
        if measured {
            // One sample now, so even a client that is gone before the
            // thread runs is measured once.
            peak.fetch_max(group_resident_bytes(pgid), Ordering::Relaxed);
            let (peak, done) = (Arc::clone(&peak), Arc::clone(&done));
            thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    peak.fetch_max(group_resident_bytes(pgid), Ordering::Relaxed);
                    thread::sleep(Duration::from_millis(100));
                }
            });
        }
        MemoryWatch {
            peak,
            done,
            measured,
        }
    }

    fn stop(&self) {
        self.done.store(true, Ordering::Relaxed);
    }

    fn peak(&self) -> Option<u64> {
        self.measured.then(|| self.peak.load(Ordering::Relaxed))
    }
}

/// The resident bytes of every process in group `pgid` (Linux /proc).
fn group_resident_bytes(pgid: libc::pid_t) -> u64 {
    // SAFETY: sysconf has no preconditions.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    let mut total = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let dir = entry.path();
        let Ok(stat) = fs::read_to_string(dir.join("stat")) else {
            continue;
        };
        // Fields after the command (which may hold spaces and parentheses).
        let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            continue;
        };
        let group = rest
            .split_whitespace()
            .nth(2)
            .and_then(|g| g.parse::<i64>().ok());
        if group != Some(i64::from(pgid)) {
            continue;
        }
        let resident = fs::read_to_string(dir.join("statm"))
            .ok()
            .and_then(|s| {
                s.split_whitespace()
                    .nth(1)
                    .and_then(|r| r.parse::<u64>().ok())
            })
            .unwrap_or(0);
        total += resident * page;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_lines_are_quoted_for_a_shell() {
        let words: Vec<OsString> = vec![
            "/bin/acp-plan".into(),
            "agent-relay".into(),
            "/tmp/a b/it's".into(),
        ];
        assert_eq!(
            shell_join(&words),
            r"/bin/acp-plan agent-relay '/tmp/a b/it'\''s'"
        );
        assert_eq!(shell_join(&["".into()]), "''");
    }

    #[test]
    fn probes_are_found_only_whole() {
        assert!(contains(
            b"x\x1b[2Jacp-plan-probe-clear y",
            ESCAPE_PROBES[1].as_bytes()
        ));
        assert!(!contains(
            b"x\\u001b[2Jacp-plan-probe-clear",
            ESCAPE_PROBES[1].as_bytes()
        ));
    }

    /// `run` reports the permission request unanswered at the timeout; the
    /// connection is then closed and the client may exit on its own before
    /// `stop` looks. That used to add a second ROBUST-HANG ("ended without
    /// answering"), depending on timing.
    #[test]
    fn a_client_that_exits_after_its_hang_was_reported_is_one_hang() {
        let options = ClientOptions {
            client: AgentCommand::from_words(&["true".into()]).expect("a command"),
            relay: Vec::new(),
            timeout: Duration::from_secs(1),
            scenario_timeout: Duration::from_secs(10),
            limits: Limits::default(),
            out: None,
            max_memory_bytes: u64::MAX,
            deny_warnings: false,
            robustness_fails: true,
            baseline: None,
            spec: SpecChoice::default(),
        };
        let child = options.client.command().spawn().expect("`true` starts");
        let turn = Turn::Raw(Vec::new());
        let transcript = Transcript::in_memory(16);
        let mut session = Session::new(&options, "legacy", turn, child, transcript);
        session.permission_sent = Some(Instant::now());
        session.findings.push(Finding {
            kind: FindingKind::Hang,
            message: "the client did not answer within 1.0 s".into(),
        });
        session.wait_exit(Instant::now() + Duration::from_secs(30));
        assert!(session.exited(), "`true` exits on its own");
        let end = session.stop();
        let kinds: Vec<FindingKind> = session.findings.iter().map(|f| f.kind).collect();
        assert_eq!(kinds, [FindingKind::Hang], "client end: {end}");
    }

    #[test]
    fn the_own_group_uses_memory() {
        // SAFETY: getpgrp has no preconditions.
        let group = unsafe { libc::getpgrp() };
        if Path::new("/proc/self/statm").exists() {
            assert!(group_resident_bytes(group) > 0);
        }
    }
}
