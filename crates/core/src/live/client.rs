//! One live connection, client side: sends requests, waits for their
//! responses, answers the agent's requests as a real client would, and feeds
//! every message of both directions through the validator and the
//! transcript, in the order they crossed the pipe.

use super::process::{AgentCommand, AgentEvent, AgentProcess, ProcessEnd};
use super::transcript::{RecentMessage, Transcript};
use super::{PermissionChoice, PlanCounts};
use crate::catalog::Counts;
use crate::catalog::Severity;
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::state::SessionPlans;
use crate::trace::{parse_message, RawLine, RecordFault};
use crate::validate::{Config, TraceReport, Validator};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How long a connection that ended normally may keep talking after the
/// client closes its stdin (late notifications are still checked).
const DRAIN: Duration = Duration::from_secs(3);
/// How long an agent may take to exit once its stdout is closed or drained.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// How long to wait for the last of stderr after the agent is gone.
const STDERR_GRACE: Duration = Duration::from_secs(1);

pub(crate) struct ConnectionOptions<'a> {
    pub agent: &'a AgentCommand,
    pub config: Config,
    /// Longest wait for each response.
    pub timeout: Duration,
    /// When the whole scenario must be over.
    pub deadline: Instant,
    pub scenario_timeout: Duration,
    pub permission: &'a PermissionChoice,
    pub transcript: Option<PathBuf>,
    pub stderr_log: Option<PathBuf>,
}

/// Why a connection stopped early. Not a rule: what the report says
/// happened, with the stderr tail and the last messages.
#[derive(Debug)]
pub(crate) enum Incident {
    Timeout {
        waiting_for: String,
        after: Duration,
    },
    ScenarioTimeout {
        waiting_for: String,
        after: Duration,
    },
    /// Stdout closed (the agent exited or closed it).
    Closed {
        waiting_for: String,
    },
    /// A line that is not a JSON object: the stream cannot be trusted.
    Garbage {
        line: u64,
        waiting_for: String,
    },
    ReadFailed {
        waiting_for: String,
        error: String,
    },
    /// A setup request answered with a JSON-RPC error.
    ErrorResponse {
        method: String,
        error: Value,
    },
    /// A setup request answered with a result the client cannot use.
    BadResult {
        method: &'static str,
        what: &'static str,
    },
}

impl Incident {
    pub fn describe(&self) -> String {
        match self {
            Incident::Timeout { waiting_for, after } => {
                format!("timed out after {} waiting for {waiting_for}", seconds(*after))
            }
            Incident::ScenarioTimeout { waiting_for, after } => format!(
                "the scenario ran out of time ({}) waiting for {waiting_for}",
                seconds(*after)
            ),
            Incident::Closed { waiting_for } => {
                format!("the agent closed its stdout (exited?) before {waiting_for}")
            }
            Incident::Garbage { line, waiting_for } => format!(
                "the agent wrote a line that is not a JSON object to stdout (transcript line {line}) while the client waited for {waiting_for}"
            ),
            Incident::ReadFailed { waiting_for, error } => {
                format!("reading the agent's stdout failed ({error}) while waiting for {waiting_for}")
            }
            Incident::ErrorResponse { method, error } => format!(
                "the agent answered `{method}` with an error: {}",
                crate::text::shorten(&error.to_string(), 300)
            ),
            Incident::BadResult { method, what } => {
                format!("the agent's result for `{method}` {what}")
            }
        }
    }

    /// Whether the agent process is in an unknown state and must be stopped
    /// at once (rather than given its stdin's end of file and some time).
    fn needs_kill(&self) -> bool {
        !matches!(
            self,
            Incident::ErrorResponse { .. } | Incident::BadResult { .. } | Incident::Closed { .. }
        )
    }
}

/// `{"jsonrpc":"2.0","id":ID<rest>}`: members in the conventional order
/// (serde_json's maps would sort them), for readable transcripts.
fn message_bytes(id: &Value, rest: &str) -> Vec<u8> {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id}{rest}}}").into_bytes()
}

fn seconds(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// A notification to wait for: what to call it, and how to know it.
pub(crate) type Awaited<'a> = (&'a str, &'a dyn Fn(&Value) -> bool);

/// A successful response.
pub(crate) struct Reply {
    /// Its transcript line.
    pub line: u64,
    pub result: Value,
}

enum Received {
    Response {
        id: Value,
        line: u64,
        outcome: Result<Value, Value>,
    },
    /// A notification from the agent.
    Notification(Value),
    Garbage(u64),
    Other,
}

/// Everything known about a finished connection.
pub(crate) struct ConnectionEnd {
    pub report: TraceReport,
    pub transcript: io::Result<Option<PathBuf>>,
    pub process: ProcessEnd,
    pub stderr_tail: String,
    pub recent: Vec<RecentMessage>,
    pub plans: PlanCounts,
    /// Diagnostics on lines the agent sent (the client's own lines are the
    /// runner's doing, e.g. the other revision's key on purpose).
    pub agent_counts: Counts,
    /// Rule ids of the agent's errors and warnings, with how often.
    pub agent_errors: BTreeMap<&'static str, u64>,
    pub agent_warnings: BTreeMap<&'static str, u64>,
    /// Diagnostics on the client's own lines (kept out of `report`).
    pub own_diagnostics: Vec<Diagnostic>,
}

pub(crate) struct Connection {
    process: AgentProcess,
    validator: Validator,
    transcript: Transcript,
    next_id: u64,
    timeout: Duration,
    deadline: Instant,
    scenario_timeout: Duration,
    permission: PermissionChoice,
    max_depth: usize,
    max_kept: usize,
    report: TraceReport,
    client_lines: HashSet<u64>,
    plans: PlanCounts,
    agent_counts: Counts,
    agent_errors: BTreeMap<&'static str, u64>,
    agent_warnings: BTreeMap<&'static str, u64>,
    own_diagnostics: Vec<Diagnostic>,
}

impl Connection {
    /// Start the agent. Fails only when the agent or the output files
    /// cannot be created at all.
    pub fn open(name: &str, options: ConnectionOptions<'_>) -> io::Result<Connection> {
        let limits = &options.config.limits;
        let transcript = match &options.transcript {
            Some(path) => Transcript::to_file(path, limits.max_depth)?,
            None => Transcript::in_memory(limits.max_depth),
        };
        let stderr_log = match &options.stderr_log {
            Some(path) => Some(File::create(path)?),
            None => None,
        };
        let process = AgentProcess::spawn(options.agent, limits.max_line_bytes, stderr_log)
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot start `{}`: {e}", options.agent.display()),
                )
            })?;
        let validator = Validator::new(options.config.clone());
        Ok(Connection {
            report: super::new_report(name, &validator),
            process,
            max_depth: limits.max_depth,
            max_kept: limits.max_diagnostics,
            validator,
            transcript,
            next_id: 1,
            timeout: options.timeout,
            deadline: options.deadline,
            scenario_timeout: options.scenario_timeout,
            permission: options.permission.clone(),
            client_lines: HashSet::new(),
            plans: PlanCounts::default(),
            agent_counts: Counts::default(),
            agent_errors: BTreeMap::new(),
            agent_warnings: BTreeMap::new(),
            own_diagnostics: Vec::new(),
        })
    }

    /// Send a request and wait for its response, handling whatever the agent
    /// sends meanwhile. An error response is an [`Incident::ErrorResponse`].
    pub fn request(&mut self, method: &str, params: Value) -> Result<Reply, Incident> {
        self.request_until(method, params, None)
    }

    /// Send a request and wait for its response and, with `until`, also for
    /// a notification it accepts (in either order), e.g. the end of a v2
    /// prompt turn, which the response does not mark.
    pub fn request_until(
        &mut self,
        method: &str,
        params: Value,
        until: Option<Awaited<'_>>,
    ) -> Result<Reply, Incident> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(message_bytes(
            &Value::from(id),
            &format!(",\"method\":{},\"params\":{params}", Value::from(method)),
        ));
        let mut waiting_for = format!("the response to `{method}` (id {id})");
        if let Some((what, _)) = until {
            waiting_for = format!("{waiting_for} and {what}");
        }
        let mut answer = None;
        let mut seen = until.is_none();
        self.wait(&waiting_for, |received| {
            match received {
                Received::Response {
                    id: answered,
                    line,
                    outcome,
                } if *answered == id => answer = Some((*line, outcome.clone())),
                Received::Notification(message) => {
                    if let Some((_, accepts)) = until {
                        seen |= accepts(message);
                    }
                }
                _ => {}
            }
            // An error response ends the wait: no turn follows it.
            matches!(answer, Some((_, Err(_)))) || (answer.is_some() && seen)
        })?;
        match answer {
            Some((line, Ok(result))) => Ok(Reply { line, result }),
            Some((_, Err(error))) => Err(Incident::ErrorResponse {
                method: method.to_owned(),
                error,
            }),
            None => Err(Incident::Closed { waiting_for }),
        }
    }

    /// Handle what the agent sends until `done` says so, the agent stops,
    /// or time runs out.
    fn wait(
        &mut self,
        waiting_for: &str,
        mut done: impl FnMut(&Received) -> bool,
    ) -> Result<(), Incident> {
        let waiting_for = waiting_for.to_owned();
        let response_deadline = Instant::now() + self.timeout;
        loop {
            let scenario_first = self.deadline < response_deadline;
            let deadline = if scenario_first {
                self.deadline
            } else {
                response_deadline
            };
            let Some(event) = self.process.next_event(deadline) else {
                return Err(if scenario_first {
                    Incident::ScenarioTimeout {
                        waiting_for,
                        after: self.scenario_timeout,
                    }
                } else {
                    Incident::Timeout {
                        waiting_for,
                        after: self.timeout,
                    }
                });
            };
            match event {
                AgentEvent::Line(bytes) => {
                    let received = self.receive(&bytes);
                    if let Received::Garbage(line) = received {
                        return Err(Incident::Garbage { line, waiting_for });
                    }
                    if done(&received) {
                        return Ok(());
                    }
                }
                AgentEvent::TooLong { bytes } => self.too_long(bytes),
                AgentEvent::Closed => return Err(Incident::Closed { waiting_for }),
                AgentEvent::ReadFailed(error) => {
                    return Err(Incident::ReadFailed { waiting_for, error })
                }
            }
        }
    }

    /// v2: what a conformant client showed for `session` at its last
    /// `replay_complete` (the end of the replay; later updates are live).
    pub fn replay_end_plans(&self, session: &str) -> Option<SessionPlans> {
        self.validator.replay_end_plans(session).cloned()
    }

    /// What a conformant client shows for `session` now.
    pub fn session_plans(&self, session: &str) -> Option<SessionPlans> {
        self.validator.state().session(session).cloned()
    }

    /// Add a diagnostic decided outside the validator (e.g. `LOAD-*`),
    /// cited in the words of the revision the connection is checked under.
    pub fn add_diagnostic(&mut self, mut d: Diagnostic) {
        d.revision.get_or_insert(self.validator.revision().revision);
        self.account(d);
    }

    /// End the connection: after a normal end (or a setup request that
    /// failed) close stdin and keep checking what the agent still sends for
    /// a moment; after a timeout, crash or garbage, kill it at once. Either
    /// way the whole process group is killed and the agent reaped.
    pub fn finish(mut self, incident: Option<&Incident>) -> ConnectionEnd {
        let process = match incident {
            Some(i) if i.needs_kill() => {
                let exited = self.process.wait_exit(Duration::ZERO);
                let status = self.process.kill_group();
                ProcessEnd {
                    status,
                    killed: exited.is_none(),
                }
            }
            Some(Incident::Closed { .. }) => self.process.finish(EXIT_GRACE),
            _ => {
                self.drain();
                self.process.finish(EXIT_GRACE)
            }
        };
        let stderr_tail = self.process.stderr_tail(STDERR_GRACE);
        let recent = self.transcript.recent().cloned().collect();
        let mut report = self.report;
        super::finish_report(&mut report, &self.validator, self.transcript.lines());
        ConnectionEnd {
            report,
            transcript: self.transcript.finish(),
            process,
            stderr_tail,
            recent,
            plans: self.plans,
            agent_counts: self.agent_counts,
            agent_errors: self.agent_errors,
            agent_warnings: self.agent_warnings,
            own_diagnostics: self.own_diagnostics,
        }
    }

    /// Close stdin and check what the agent sends until it closes stdout.
    fn drain(&mut self) {
        self.process.close_stdin();
        let deadline = Instant::now() + DRAIN;
        while let Some(event) = self.process.next_event(deadline) {
            match event {
                AgentEvent::Line(bytes) => {
                    if let Received::Garbage(_) = self.receive(&bytes) {
                        break;
                    }
                }
                AgentEvent::TooLong { bytes } => self.too_long(bytes),
                AgentEvent::Closed | AgentEvent::ReadFailed(_) => break,
            }
        }
    }

    /// Record, validate and act on one line from the agent.
    fn receive(&mut self, bytes: &[u8]) -> Received {
        // Blank lines carry nothing; `check` would skip them too.
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Received::Other;
        }
        let line = self.transcript.record(Direction::AgentToClient, bytes);
        self.validator
            .push_message(line, Direction::AgentToClient, bytes);
        self.collect();
        match parse_message(bytes, self.max_depth) {
            Err(
                RecordFault::NotUtf8 { .. }
                | RecordFault::NotJson { .. }
                | RecordFault::NotObject { .. },
            ) => return Received::Garbage(line),
            // Readable as JSON but not as a message (the validator said why).
            Err(_) => return Received::Other,
            Ok(_) => {}
        }
        let Ok(message) = serde_json::from_slice::<Value>(bytes) else {
            return Received::Other;
        };
        let method = message.get("method").and_then(Value::as_str);
        match (method, message.get("id")) {
            (Some(method), Some(id)) => {
                let (id, method) = (id.clone(), method.to_owned());
                self.answer(id, &method, message.get("params"));
                Received::Other
            }
            (Some(_), None) => {
                self.plans.count(&message);
                Received::Notification(message)
            }
            (None, Some(id)) => {
                let outcome = match (message.get("result"), message.get("error")) {
                    (_, Some(error)) => Err(error.clone()),
                    (Some(result), None) => Ok(result.clone()),
                    (None, None) => Err(Value::from("a response with neither result nor error")),
                };
                Received::Response {
                    id: id.clone(),
                    line,
                    outcome,
                }
            }
            (None, None) => Received::Other,
        }
    }

    /// Answer a request from the agent: permissions as configured; every
    /// method the client did not advertise with "method not found".
    fn answer(&mut self, id: Value, method: &str, params: Option<&Value>) {
        let body = match method {
            "session/request_permission" => format!(
                ",\"result\":{}",
                json!({"outcome": self.permission.outcome(params)})
            ),
            _ => format!(
                ",\"error\":{}",
                json!({
                    "code": -32601,
                    "message": format!("Method not found: the acp-plan client does not implement `{}`", crate::text::shorten(method, 80)),
                })
            ),
        };
        self.send(message_bytes(&id, &body));
    }

    /// Record, validate and write one client message (nothing once stdin is
    /// closed: the agent would never see it).
    fn send(&mut self, mut bytes: Vec<u8>) {
        if !self.process.stdin_open() {
            return;
        }
        let line = self.transcript.record(Direction::ClientToAgent, &bytes);
        self.client_lines.insert(line);
        self.validator
            .push_message(line, Direction::ClientToAgent, &bytes);
        self.collect();
        bytes.push(b'\n');
        self.process.send(bytes);
    }

    fn too_long(&mut self, bytes: u64) {
        let line = self.transcript.record_gap();
        self.validator.push_line(line, RawLine::TooLong { bytes });
        self.collect();
    }

    fn collect(&mut self) {
        for d in self.validator.take_diagnostics() {
            self.account(d);
        }
    }

    fn account(&mut self, d: Diagnostic) {
        if self.client_lines.contains(&d.line) {
            // The suite's own message: not a finding against the agent.
            if self.own_diagnostics.len() < self.max_kept {
                self.own_diagnostics.push(d);
            }
            return;
        }
        self.agent_counts.add(d.severity());
        let by_rule = match d.severity() {
            Severity::Error => Some(&mut self.agent_errors),
            Severity::Warning => Some(&mut self.agent_warnings),
            // Not the agent's violation; judged from the counts.
            Severity::Info | Severity::Incomplete => None,
        };
        if let Some(by_rule) = by_rule {
            *by_rule.entry(d.rule.id).or_default() += 1;
        }
        self.report.add(d, self.max_kept);
    }
}
