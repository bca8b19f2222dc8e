//! Ops to trace lines, deterministically, with the diagnostics the
//! injected violations must produce.

use super::json::{self, Object};
use super::violation::MissingField;
use super::{
    plan_name, session_name, AgentRequestKind, Capability, Connection, Content, Entry, Framing,
    Meta, Op, OtherUpdate, PlanOp, SessionRef, SessionUpdate, StopReason,
};
use crate::catalog::{Rule, Severity};
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::spec::Revision;
use std::collections::HashMap;
use std::ops::Range;

/// A diagnostic the validator must report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    pub rule: &'static Rule,
    /// 1-based line of the rendered trace.
    pub line: u64,
}

/// A rendered trace.
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// The trace, one record per line (no newline).
    pub lines: Vec<String>,
    /// For each op of the scenario, its lines (1-based, end exclusive;
    /// empty for an op that rendered nothing).
    pub spans: Vec<Range<u64>>,
    /// The diagnostics the injected violations must produce, in line order.
    pub expected: Vec<Expected>,
}

impl Rendered {
    /// The trace as newline-delimited text.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for line in &self.lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }

    /// The op that rendered `line`, if any (`None` for the handshake).
    pub fn op_at_line(&self, line: u64) -> Option<usize> {
        self.spans.iter().position(|span| span.contains(&line))
    }

    /// Compare what the validator reported with what was injected: the
    /// errors and warnings must be exactly the expected (rule, line) pairs.
    /// Infos are allowed behaviour (re-created ids, type changes) and are
    /// not compared. `Err` describes the difference.
    pub fn compare(&self, diagnostics: &[Diagnostic]) -> Result<(), String> {
        let mut missing: Vec<(&str, u64)> =
            self.expected.iter().map(|e| (e.rule.id, e.line)).collect();
        let mut unexpected = Vec::new();
        for d in diagnostics {
            if d.severity() == Severity::Info {
                continue;
            }
            match missing
                .iter()
                .position(|(rule, line)| *rule == d.rule.id && *line == d.line)
            {
                Some(i) => {
                    missing.remove(i);
                }
                None => unexpected.push(format!("{} at line {}: {}", d.rule.id, d.line, d.message)),
            }
        }
        if missing.is_empty() && unexpected.is_empty() {
            return Ok(());
        }
        Err(format!(
            "expected but not reported: {missing:?}; reported but not expected: {unexpected:?}"
        ))
    }
}

/// What the client answers an open agent request with.
#[derive(Clone, Debug)]
struct OpenRequest {
    id: String,
    kind: AgentRequestKind,
}

/// Renders ops one at a time (so [`super::synthetic`](mod@super::synthetic) can stream).
pub struct Renderer {
    revision: Revision,
    capability: Capability,
    framing: Framing,
    line: u64,
    next_client_id: u64,
    next_agent_id: u64,
    prompts: HashMap<SessionRef, String>,
    agent_requests: HashMap<SessionRef, Vec<OpenRequest>>,
    expected: Vec<Expected>,
    /// Bytes of nested `rawOutput` each `tool_call` carries (0: none).
    tool_output_bytes: usize,
}

impl Renderer {
    pub fn new(scenario: &Connection) -> Renderer {
        Renderer::for_connection(scenario.revision, scenario.capability, scenario.framing)
    }

    pub fn for_connection(
        revision: Revision,
        capability: Capability,
        framing: Framing,
    ) -> Renderer {
        Renderer {
            revision,
            capability,
            framing,
            line: 0,
            next_client_id: 1,
            next_agent_id: 0,
            prompts: HashMap::new(),
            agent_requests: HashMap::new(),
            expected: Vec::new(),
            tool_output_bytes: 0,
        }
    }

    /// Give every `tool_call` update a nested `rawOutput` of about `bytes`
    /// bytes, as agents report a tool's result (benchmarks' tool-output-heavy
    /// traces).
    pub fn with_tool_output(mut self, bytes: usize) -> Renderer {
        self.tool_output_bytes = bytes;
        self
    }

    /// Lines rendered so far.
    pub fn lines(&self) -> u64 {
        self.line
    }

    /// The expected diagnostics found so far (and forget them).
    pub fn take_expected(&mut self) -> Vec<Expected> {
        std::mem::take(&mut self.expected)
    }

    pub fn into_expected(self) -> Vec<Expected> {
        self.expected
    }

    fn id_key(&self) -> &'static str {
        self.revision.spelling().plan_id_key
    }

    /// The plan id key of other revisions, for `SHAPE-PLAN-ID`.
    pub(super) fn other_id_key(&self) -> &'static str {
        if self.id_key() == "id" {
            "planId"
        } else {
            "id"
        }
    }

    fn protocol_version(&self) -> u64 {
        if self.revision.spelling().legacy_plan {
            1
        } else {
            2
        }
    }

    /// Write one message, framed.
    pub(super) fn push(&mut self, out: &mut Vec<String>, direction: Direction, message: String) {
        let line = self.framed(direction, message);
        self.push_record(out, line);
    }

    /// Write one line as it is.
    pub(super) fn push_record(&mut self, out: &mut Vec<String>, line: String) {
        self.line += 1;
        out.push(line);
    }

    /// The line that carries `message` in this framing.
    pub(super) fn framed(&self, direction: Direction, message: String) -> String {
        match self.framing {
            Framing::Bare => message,
            Framing::Envelope => envelope(direction, &message),
        }
    }

    fn client_id(&mut self) -> String {
        let id = self.next_client_id;
        self.next_client_id += 1;
        id.to_string()
    }

    fn agent_id(&mut self) -> String {
        let id = self.next_agent_id;
        self.next_agent_id += 1;
        match self.framing {
            // Overlapping integer ids in both directions, as on the wire.
            Framing::Envelope => id.to_string(),
            // A bare response to an id in flight both ways cannot be placed.
            Framing::Bare => json::string(&format!("agent-{id}")),
        }
    }

    fn expect(&mut self, rule: &'static Rule) {
        self.expected.push(Expected {
            rule,
            line: self.line,
        });
    }

    /// `initialize` and its result.
    pub fn handshake(&mut self, out: &mut Vec<String>) {
        let version = self.protocol_version();
        let mut capabilities = Object::new().obj(
            "fs",
            Object::new()
                .raw("readTextFile", "true")
                .raw("writeTextFile", "false"),
        );
        if let Some(key) = self.revision.spelling().capability_key {
            capabilities = match self.capability {
                Capability::Object => capabilities.obj(key, Object::new()),
                Capability::ObjectWithMeta => {
                    capabilities.obj(key, Object::new().obj("_meta", Object::new().num("v", 1)))
                }
                Capability::Null => capabilities.raw(key, "null"),
                Capability::Omitted => capabilities,
            };
        }
        let params = Object::new()
            .num("protocolVersion", version)
            .obj("clientCapabilities", capabilities)
            .obj(
                "clientInfo",
                Object::new()
                    .str("name", "acp-plan-gen")
                    .str("version", "1"),
            );
        let id = self.client_id();
        self.push(
            out,
            Direction::ClientToAgent,
            request(&id, "initialize", params),
        );
        let result = Object::new().num("protocolVersion", version).obj(
            "agentCapabilities",
            Object::new().raw("loadSession", "true"),
        );
        self.push(out, Direction::AgentToClient, response(&id, result));
    }

    /// Render one op.
    pub fn op(&mut self, op: &Op, out: &mut Vec<String>) {
        match op {
            Op::NewSession { session } => {
                let id = self.client_id();
                let params = Object::new().str("cwd", "/work").raw("mcpServers", "[]");
                self.push(
                    out,
                    Direction::ClientToAgent,
                    request(&id, "session/new", params),
                );
                let result = Object::new().str("sessionId", &session_name(*session));
                self.push(out, Direction::AgentToClient, response(&id, result));
            }
            Op::LoadSession { session, replay } => {
                let id = self.client_id();
                let params = Object::new()
                    .str("sessionId", &session_name(*session))
                    .str("cwd", "/work")
                    .raw("mcpServers", "[]");
                self.push(
                    out,
                    Direction::ClientToAgent,
                    request(&id, "session/load", params),
                );
                for update in replay {
                    let update = self.session_update(update);
                    self.push_update(out, &session_name(*session), update);
                }
                self.push(out, Direction::AgentToClient, response(&id, Object::new()));
            }
            Op::Update { session, update } => {
                let update = self.session_update(update);
                self.push_update(out, &session_name(*session), update);
            }
            Op::Prompt { session } => {
                let id = self.client_id();
                let params = Object::new().str("sessionId", &session_name(*session)).raw(
                    "prompt",
                    &json::array([Object::new()
                        .str("type", "text")
                        .str("text", "make a plan")
                        .finish()]),
                );
                self.push(
                    out,
                    Direction::ClientToAgent,
                    request(&id, "session/prompt", params),
                );
                self.prompts.insert(*session, id);
            }
            Op::EndTurn { session, stop } => {
                let Some(id) = self.prompts.remove(session) else {
                    return;
                };
                let stop = match stop {
                    StopReason::EndTurn => "end_turn",
                    StopReason::Cancelled => "cancelled",
                    StopReason::MaxTokens => "max_tokens",
                };
                let result = Object::new().str("stopReason", stop);
                self.push(out, Direction::AgentToClient, response(&id, result));
            }
            Op::Cancel { session } => {
                let params = Object::new().str("sessionId", &session_name(*session));
                self.push(
                    out,
                    Direction::ClientToAgent,
                    notification("session/cancel", params),
                );
            }
            Op::AgentRequest { session, kind } => {
                let id = self.agent_id();
                let name = session_name(*session);
                let (method, params) = match kind {
                    AgentRequestKind::Permission => (
                        "session/request_permission",
                        Object::new()
                            .str("sessionId", &name)
                            .obj("toolCall", Object::new().str("toolCallId", "call-1"))
                            .raw(
                                "options",
                                &json::array([Object::new()
                                    .str("optionId", "allow")
                                    .str("name", "Allow")
                                    .str("kind", "allow_once")
                                    .finish()]),
                            ),
                    ),
                    AgentRequestKind::ReadTextFile => (
                        "fs/read_text_file",
                        Object::new()
                            .str("sessionId", &name)
                            .str("path", "/work/PLAN.md"),
                    ),
                    AgentRequestKind::Extension => {
                        ("_acme/lookup", Object::new().str("sessionId", &name))
                    }
                };
                self.push(out, Direction::AgentToClient, request(&id, method, params));
                self.agent_requests
                    .entry(*session)
                    .or_default()
                    .push(OpenRequest { id, kind: *kind });
            }
            Op::ClientResponse {
                session,
                pick,
                error,
            } => {
                let Some(open) = self.agent_requests.get_mut(session) else {
                    return;
                };
                if open.is_empty() {
                    return;
                }
                let index = usize::from(*pick) % open.len();
                let request = open.remove(index);
                let message = if *error {
                    error_response(&request.id)
                } else {
                    let result = match request.kind {
                        AgentRequestKind::Permission => Object::new().obj(
                            "outcome",
                            Object::new()
                                .str("outcome", "selected")
                                .str("optionId", "allow"),
                        ),
                        AgentRequestKind::ReadTextFile => Object::new().str("content", "# Plan\n"),
                        AgentRequestKind::Extension => Object::new(),
                    };
                    response(&request.id, result)
                };
                self.push(out, Direction::ClientToAgent, message);
            }
            Op::ExtNotification { from_agent } => {
                let direction = if *from_agent {
                    Direction::AgentToClient
                } else {
                    Direction::ClientToAgent
                };
                let params = Object::new().str("status", "busy");
                self.push(out, direction, notification("_acme/status", params));
            }
            Op::Violation(v) => {
                v.render(self, out);
                self.expect(v.rule());
            }
        }
    }

    /// Write a `session/update` notification.
    pub(super) fn push_update(&mut self, out: &mut Vec<String>, session: &str, update: String) {
        let params = Object::new()
            .str("sessionId", session)
            .raw("update", &update);
        self.push(
            out,
            Direction::AgentToClient,
            notification("session/update", params),
        );
    }

    /// The `update` object of a session update.
    pub fn session_update(&self, update: &SessionUpdate) -> String {
        match update {
            SessionUpdate::Plan(op) => self.plan_op(op, &Tweaks::default()),
            SessionUpdate::Other(other) => other_update(other, self.tool_output_bytes),
        }
    }

    pub(super) fn plan_op(&self, op: &PlanOp, tweaks: &Tweaks) -> String {
        let kind = match op {
            PlanOp::Legacy { .. } => "plan",
            PlanOp::Update { .. } => "plan_update",
            PlanOp::Remove { .. } => "plan_removed",
        };
        let mut update = Object::new().str("sessionUpdate", kind);
        match op {
            PlanOp::Legacy { entries, meta } => {
                if !tweaks.drop_entries {
                    update = update.raw("entries", &self.entries(entries, tweaks));
                }
                update = with_meta(update, *meta, tweaks.bad_update_meta);
            }
            PlanOp::Update {
                plan,
                content,
                plan_meta,
                meta,
            } => {
                if !tweaks.drop_plan {
                    let plan = self.plan(*plan, content, *plan_meta, tweaks);
                    update = update.raw("plan", &plan);
                }
                update = with_meta(update, *meta, tweaks.bad_update_meta);
            }
            PlanOp::Remove { plan, meta } => {
                let key = tweaks.id_key.unwrap_or(self.id_key());
                update = update.str(key, &plan_name(*plan));
                update = with_meta(update, *meta, tweaks.bad_update_meta);
            }
        }
        if tweaks.extra_member {
            update = update.str("title", "custom data belongs under _meta");
        }
        update.finish()
    }

    fn plan(&self, plan: u8, content: &Content, meta: Meta, tweaks: &Tweaks) -> String {
        let mut object = Object::new();
        if !tweaks.drop_type {
            let type_name = tweaks
                .type_name
                .clone()
                .unwrap_or_else(|| content.type_name());
            object = object.str("type", &type_name);
        }
        if !tweaks.drop_id {
            let key = tweaks.id_key.unwrap_or(self.id_key());
            object = object.str(key, &plan_name(plan));
        }
        if tweaks.type_name.is_none() {
            object = match content {
                Content::Items { entries } => {
                    if tweaks.drop_entries {
                        object
                    } else {
                        object.raw("entries", &self.entries(entries, tweaks))
                    }
                }
                Content::File { uri } => {
                    if tweaks.drop_uri {
                        object
                    } else {
                        let uri = tweaks.uri.clone().unwrap_or_else(|| uri.render());
                        object.str("uri", &uri)
                    }
                }
                Content::Markdown { text } => {
                    if tweaks.drop_markdown {
                        object
                    } else {
                        object.str("content", text)
                    }
                }
                Content::Custom { data, .. } => object.num("data", u64::from(*data)),
            };
        }
        with_meta(object, meta, false).finish()
    }

    fn entries(&self, entries: &[Entry], tweaks: &Tweaks) -> String {
        json::array(entries.iter().enumerate().map(|(i, entry)| {
            let tweak = if Some(i) == tweaks.entry {
                tweaks.entry_tweak.as_ref()
            } else {
                None
            };
            entry_json(entry, tweak)
        }))
    }
}

/// How a violation bends the rendering of a plan message.
#[derive(Default)]
pub(super) struct Tweaks {
    /// The plan id key instead of the revision's.
    pub id_key: Option<&'static str>,
    pub drop_plan: bool,
    pub drop_type: bool,
    pub drop_id: bool,
    pub drop_entries: bool,
    pub drop_markdown: bool,
    pub drop_uri: bool,
    pub uri: Option<String>,
    /// A `type` instead of the content's; the content's members are left out.
    pub type_name: Option<String>,
    /// The entry `entry_tweak` bends.
    pub entry: Option<usize>,
    pub entry_tweak: Option<EntryTweak>,
    /// `"_meta": 42` on the update.
    pub bad_update_meta: bool,
    /// A custom `title` member on the update.
    pub extra_member: bool,
}

#[derive(Clone)]
pub(super) enum EntryTweak {
    Drop(MissingField),
    Status(String),
    Priority(String),
}

fn entry_json(entry: &Entry, tweak: Option<&EntryTweak>) -> String {
    let mut object = Object::new();
    let drop = |field| matches!(tweak, Some(EntryTweak::Drop(f)) if *f == field);
    if !drop(MissingField::EntryContent) {
        object = object.str("content", &entry.content);
    }
    if !drop(MissingField::EntryPriority) {
        let priority = match tweak {
            Some(EntryTweak::Priority(p)) => p.clone(),
            _ => entry.priority.render(),
        };
        object = object.str("priority", &priority);
    }
    if !drop(MissingField::EntryStatus) {
        let status = match tweak {
            Some(EntryTweak::Status(s)) => s.clone(),
            _ => entry.status.render(),
        };
        object = object.str("status", &status);
    }
    with_meta(object, entry.meta, false).finish()
}

fn with_meta(object: Object, meta: Meta, bad: bool) -> Object {
    if bad {
        return object.raw("_meta", "42");
    }
    match meta {
        Meta::Absent => object,
        Meta::Null => object.raw("_meta", "null"),
        Meta::Object(n) => object.obj("_meta", Object::new().num("trace", u64::from(n))),
    }
}

pub(super) fn other_update(update: &OtherUpdate, tool_output_bytes: usize) -> String {
    match update {
        OtherUpdate::AgentMessageChunk { text } => Object::new()
            .str("sessionUpdate", "agent_message_chunk")
            .obj(
                "content",
                Object::new().str("type", "text").str("text", text),
            ),
        OtherUpdate::ToolCall { call } => {
            let update = Object::new()
                .str("sessionUpdate", "tool_call")
                .str("toolCallId", &format!("call-{call}"))
                .str("title", "Read PLAN.md")
                .str("kind", "read")
                .str("status", "pending");
            if tool_output_bytes == 0 {
                update
            } else {
                update.raw("rawOutput", &tool_output(*call, tool_output_bytes))
            }
        }
        OtherUpdate::UsageUpdate { used } => Object::new()
            .str("sessionUpdate", "usage_update")
            .num("used", u64::from(*used))
            .num("size", 200_000),
        OtherUpdate::Unknown { kind } => Object::new()
            .str("sessionUpdate", &format!("future_kind_{kind}"))
            .obj("data", Object::new().num("n", u64::from(*kind))),
    }
    .finish()
}

/// A tool's result as agents report it: an object of search matches, nested
/// three deep, with escapes (newlines, quotes) in its text, of about `bytes`
/// bytes.
fn tool_output(call: u8, bytes: usize) -> String {
    const LINE: &str =
        "    let parsed = parser.parse(\"plan\")?; // refactor the parser then update\n";
    let mut matches = Vec::new();
    let mut files = Vec::new();
    let mut size = 0;
    let mut n = 0u64;
    while size < bytes {
        let text = json::string(LINE);
        size += text.len() + 24;
        matches.push(
            Object::new()
                .num("line", 10 + n)
                .raw("text", &text)
                .finish(),
        );
        n += 1;
        if matches.len() == 8 || size >= bytes {
            let path = format!("src/module_{call}/file_{}.rs", files.len());
            files.push(
                Object::new()
                    .str("path", &path)
                    .raw("matches", &json::array(matches.drain(..)))
                    .finish(),
            );
            size += path.len() + 24;
        }
    }
    Object::new()
        .num("exitCode", 0)
        .raw("files", &json::array(files))
        .str("stderr", "")
        .finish()
}

fn envelope(direction: Direction, message: &str) -> String {
    Object::new()
        .str("direction", direction.as_str())
        .raw("message", message)
        .finish()
}

fn request(id: &str, method: &str, params: Object) -> String {
    Object::new()
        .str("jsonrpc", "2.0")
        .raw("id", id)
        .str("method", method)
        .obj("params", params)
        .finish()
}

pub(super) fn notification(method: &str, params: Object) -> String {
    Object::new()
        .str("jsonrpc", "2.0")
        .str("method", method)
        .obj("params", params)
        .finish()
}

pub(super) fn response(id: &str, result: Object) -> String {
    Object::new()
        .str("jsonrpc", "2.0")
        .raw("id", id)
        .obj("result", result)
        .finish()
}

fn error_response(id: &str) -> String {
    Object::new()
        .str("jsonrpc", "2.0")
        .raw("id", id)
        .obj(
            "error",
            Object::new()
                .raw("code", "-32603")
                .str("message", "declined by the user"),
        )
        .finish()
}
