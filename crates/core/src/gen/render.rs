//! Ops to trace lines, deterministically, with the diagnostics the
//! injected violations must produce.

use super::violation::MissingField;
use super::{
    plan_name, session_name, AgentRequestKind, Capability, Connection, Content, Entry, Framing,
    Meta, Op, OtherUpdate, PlanOp, SessionRef, SessionUpdate, StopReason,
};
use crate::catalog::{Rule, Severity};
use crate::diag::Diagnostic;
use crate::jsonrpc::Direction;
use crate::spec::Revision;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::ops::Range;

/// A diagnostic the validator must report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The rule broken.
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
    id: Value,
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
    prompts: HashMap<SessionRef, Value>,
    agent_requests: HashMap<SessionRef, Vec<OpenRequest>>,
    expected: Vec<Expected>,
    /// Bytes of nested `rawOutput` each `tool_call` carries (0: none).
    tool_output_bytes: usize,
}

impl Renderer {
    /// A renderer for `scenario`'s revision, capability and framing, at line 0.
    pub fn new(scenario: &Connection) -> Renderer {
        Renderer::for_connection(scenario.revision, scenario.capability, scenario.framing)
    }

    /// [`Renderer::new`] for callers that have no [`Connection`] (the
    /// synthetic traces, written op by op).
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

    /// Every expected diagnostic not yet taken, at the end of rendering.
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
    pub(super) fn push(&mut self, out: &mut Vec<String>, direction: Direction, message: Value) {
        let line = self.framed(direction, message);
        self.push_record(out, line);
    }

    /// Write one line as it is.
    pub(super) fn push_record(&mut self, out: &mut Vec<String>, line: String) {
        self.line += 1;
        out.push(line);
    }

    /// The line that carries `message` in this framing.
    pub(super) fn framed(&self, direction: Direction, message: Value) -> String {
        match self.framing {
            Framing::Bare => message,
            Framing::Envelope => envelope(direction, message),
        }
        .to_string()
    }

    fn client_id(&mut self) -> Value {
        let id = self.next_client_id;
        self.next_client_id += 1;
        id.into()
    }

    fn agent_id(&mut self) -> Value {
        let id = self.next_agent_id;
        self.next_agent_id += 1;
        match self.framing {
            // Overlapping integer ids in both directions, as on the wire.
            Framing::Envelope => id.into(),
            // A bare response to an id in flight both ways cannot be placed.
            Framing::Bare => format!("agent-{id}").into(),
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
        let mut capabilities = json!({"fs": {"readTextFile": true, "writeTextFile": false}});
        if let Some(key) = self.revision.spelling().capability_key {
            let plan = match self.capability {
                Capability::Object => Some(json!({})),
                Capability::ObjectWithMeta => Some(json!({"_meta": {"v": 1}})),
                Capability::Null => Some(Value::Null),
                Capability::Omitted => None,
            };
            if let Some(plan) = plan {
                capabilities[key] = plan;
            }
        }
        let params = json!({
            "protocolVersion": version,
            "clientCapabilities": capabilities,
            "clientInfo": {"name": "acp-plan-gen", "version": "1"},
        });
        let id = self.client_id();
        let message = request(&id, "initialize", params);
        self.push(out, Direction::ClientToAgent, message);
        let result = json!({
            "protocolVersion": version,
            "agentCapabilities": {"loadSession": true},
        });
        self.push(out, Direction::AgentToClient, response(&id, result));
    }

    /// Render one op.
    pub fn op(&mut self, op: &Op, out: &mut Vec<String>) {
        match op {
            Op::NewSession { session } => {
                let id = self.client_id();
                let params = json!({"cwd": "/work", "mcpServers": []});
                let message = request(&id, "session/new", params);
                self.push(out, Direction::ClientToAgent, message);
                let result = json!({"sessionId": session_name(*session)});
                self.push(out, Direction::AgentToClient, response(&id, result));
            }
            Op::LoadSession { session, replay } => {
                let id = self.client_id();
                let name = session_name(*session);
                let mut params = json!({
                    "sessionId": name,
                    "cwd": "/work",
                    "mcpServers": [],
                });
                let spelling = self.revision.spelling();
                // v2 has no session/load ("Use session/resume with
                // `replayFrom`"): a replay from the start is its load.
                let method = if spelling.legacy_plan {
                    "session/load"
                } else {
                    params["replayFrom"] = json!({"type": "start"});
                    "session/resume"
                };
                let message = request(&id, method, params);
                self.push(out, Direction::ClientToAgent, message);
                for update in replay {
                    let update = self.session_update(update);
                    self.push_update(out, &name, update);
                }
                if spelling.replay_complete {
                    let marker = json!({"sessionUpdate": "replay_complete"});
                    self.push_update(out, &name, marker);
                }
                self.push(out, Direction::AgentToClient, response(&id, json!({})));
            }
            Op::Update { session, update } => {
                let update = self.session_update(update);
                self.push_update(out, &session_name(*session), update);
            }
            Op::Prompt { session } => {
                let id = self.client_id();
                let params = json!({
                    "sessionId": session_name(*session),
                    "prompt": [{"type": "text", "text": "make a plan"}],
                });
                let message = request(&id, "session/prompt", params);
                self.push(out, Direction::ClientToAgent, message);
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
                let result = json!({"stopReason": stop});
                self.push(out, Direction::AgentToClient, response(&id, result));
            }
            Op::Cancel { session } => {
                let params = json!({"sessionId": session_name(*session)});
                let message = notification("session/cancel", params);
                self.push(out, Direction::ClientToAgent, message);
            }
            Op::AgentRequest { session, kind } => {
                let id = self.agent_id();
                let name = session_name(*session);
                let (method, params) = match kind {
                    AgentRequestKind::Permission => (
                        "session/request_permission",
                        json!({
                            "sessionId": name,
                            "toolCall": {"toolCallId": "call-1"},
                            "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"}],
                        }),
                    ),
                    AgentRequestKind::ReadTextFile => (
                        "fs/read_text_file",
                        json!({"sessionId": name, "path": "/work/PLAN.md"}),
                    ),
                    AgentRequestKind::Extension => ("_acme/lookup", json!({"sessionId": name})),
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
                        AgentRequestKind::Permission => {
                            json!({"outcome": {"outcome": "selected", "optionId": "allow"}})
                        }
                        AgentRequestKind::ReadTextFile => json!({"content": "# Plan\n"}),
                        AgentRequestKind::Extension => json!({}),
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
                let params = json!({"status": "busy"});
                self.push(out, direction, notification("_acme/status", params));
            }
            Op::Violation(v) => {
                v.render(self, out);
                self.expect(v.rule());
            }
        }
    }

    /// Write a `session/update` notification.
    pub(super) fn push_update(&mut self, out: &mut Vec<String>, session: &str, update: Value) {
        let params = json!({"sessionId": session, "update": update});
        let message = notification("session/update", params);
        self.push(out, Direction::AgentToClient, message);
    }

    /// The `update` object of a session update.
    pub(super) fn session_update(&self, update: &SessionUpdate) -> Value {
        match update {
            SessionUpdate::Plan(op) => self.plan_op(op, &Tweaks::default()),
            SessionUpdate::Other(other) => other_update(other, self.tool_output_bytes),
        }
    }

    /// The `update` object of one plan message, as this connection sends it
    /// (`acp-plan client --fuzz` starts from it).
    pub fn plan_update(&self, op: &PlanOp) -> Value {
        self.plan_op(op, &Tweaks::default())
    }

    pub(super) fn plan_op(&self, op: &PlanOp, tweaks: &Tweaks) -> Value {
        let kind = match op {
            PlanOp::Legacy { .. } => "plan",
            PlanOp::Update { .. } => "plan_update",
            PlanOp::Remove { .. } => "plan_removed",
        };
        let mut update = Map::new();
        update.insert("sessionUpdate".into(), kind.into());
        let meta = match op {
            PlanOp::Legacy { entries, meta } => {
                if !tweaks.drop_entries {
                    update.insert("entries".into(), self.entries(entries, tweaks));
                }
                meta
            }
            PlanOp::Update {
                plan,
                content,
                plan_meta,
                meta,
            } => {
                if !tweaks.drop_plan {
                    let plan = self.plan(*plan, content, *plan_meta, tweaks);
                    update.insert("plan".into(), plan);
                }
                meta
            }
            PlanOp::Remove { plan, meta } => {
                let key = tweaks.id_key.unwrap_or(self.id_key());
                update.insert(key.into(), plan_name(*plan).into());
                meta
            }
        };
        if tweaks.bad_update_meta {
            update.insert("_meta".into(), 42.into());
        } else {
            with_meta(&mut update, *meta);
        }
        if tweaks.extra_member {
            update.insert("title".into(), "custom data belongs under _meta".into());
        }
        update.into()
    }

    fn plan(&self, plan: u8, content: &Content, meta: Meta, tweaks: &Tweaks) -> Value {
        let mut object = Map::new();
        if !tweaks.drop_type {
            let type_name = tweaks
                .type_name
                .clone()
                .unwrap_or_else(|| content.type_name());
            object.insert("type".into(), type_name.into());
        }
        if !tweaks.drop_id {
            let key = tweaks.id_key.unwrap_or(self.id_key());
            object.insert(key.into(), plan_name(plan).into());
        }
        if tweaks.type_name.is_none() {
            let member = match content {
                Content::Items { entries } => {
                    (!tweaks.drop_entries).then(|| ("entries", self.entries(entries, tweaks)))
                }
                Content::File { uri } => (!tweaks.drop_uri).then(|| {
                    let uri = tweaks.uri.clone().unwrap_or_else(|| uri.render());
                    ("uri", uri.into())
                }),
                Content::Markdown { text } => {
                    (!tweaks.drop_markdown).then(|| ("content", text.as_str().into()))
                }
                Content::Custom { data, .. } => Some(("data", (*data).into())),
            };
            if let Some((key, value)) = member {
                object.insert(key.into(), value);
            }
        }
        with_meta(&mut object, meta);
        object.into()
    }

    fn entries(&self, entries: &[Entry], tweaks: &Tweaks) -> Value {
        entries
            .iter()
            .enumerate()
            .map(|(i, entry)| {
                let tweak = if Some(i) == tweaks.entry {
                    tweaks.entry_tweak.as_ref()
                } else {
                    None
                };
                entry_json(entry, tweak)
            })
            .collect()
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

fn entry_json(entry: &Entry, tweak: Option<&EntryTweak>) -> Value {
    let mut object = Map::new();
    let drop = |field| matches!(tweak, Some(EntryTweak::Drop(f)) if *f == field);
    if !drop(MissingField::EntryContent) {
        object.insert("content".into(), entry.content.as_str().into());
    }
    if !drop(MissingField::EntryPriority) {
        let priority = match tweak {
            Some(EntryTweak::Priority(p)) => p.clone(),
            _ => entry.priority.render(),
        };
        object.insert("priority".into(), priority.into());
    }
    if !drop(MissingField::EntryStatus) {
        let status = match tweak {
            Some(EntryTweak::Status(s)) => s.clone(),
            _ => entry.status.render(),
        };
        object.insert("status".into(), status.into());
    }
    with_meta(&mut object, entry.meta);
    object.into()
}

/// Add `_meta` as the op says (last, as agents write it).
fn with_meta(object: &mut Map<String, Value>, meta: Meta) {
    match meta {
        Meta::Absent => {}
        Meta::Null => {
            object.insert("_meta".into(), Value::Null);
        }
        Meta::Object(n) => {
            object.insert("_meta".into(), json!({"trace": n}));
        }
    }
}

pub(super) fn other_update(update: &OtherUpdate, tool_output_bytes: usize) -> Value {
    match update {
        OtherUpdate::AgentMessageChunk { text } => json!({
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "text", "text": text},
        }),
        OtherUpdate::ToolCall { call } => {
            let mut update = json!({
                "sessionUpdate": "tool_call",
                "toolCallId": format!("call-{call}"),
                "title": "Read PLAN.md",
                "kind": "read",
                "status": "pending",
            });
            if tool_output_bytes > 0 {
                update["rawOutput"] = tool_output(*call, tool_output_bytes);
            }
            update
        }
        OtherUpdate::UsageUpdate { used } => json!({
            "sessionUpdate": "usage_update",
            "used": used,
            "size": 200_000,
        }),
        OtherUpdate::Unknown { kind } => json!({
            "sessionUpdate": format!("future_kind_{kind}"),
            "data": {"n": kind},
        }),
    }
}

/// A tool's result as agents report it: an object of search matches, nested
/// three deep, with escapes (newlines, quotes) in its text, of about `bytes`
/// bytes.
fn tool_output(call: u8, bytes: usize) -> Value {
    const LINE: &str =
        "    let parsed = parser.parse(\"plan\")?; // refactor the parser then update\n";
    let line_bytes = Value::from(LINE).to_string().len();
    let mut matches = Vec::new();
    let mut files = Vec::new();
    let mut size = 0;
    let mut n = 0u64;
    while size < bytes {
        size += line_bytes + 24;
        matches.push(json!({"line": 10 + n, "text": LINE}));
        n += 1;
        if matches.len() == 8 || size >= bytes {
            let path = format!("src/module_{call}/file_{}.rs", files.len());
            size += path.len() + 24;
            files.push(json!({"path": path, "matches": std::mem::take(&mut matches)}));
        }
    }
    json!({"exitCode": 0, "files": files, "stderr": ""})
}

fn envelope(direction: Direction, message: Value) -> Value {
    json!({"direction": direction.as_str(), "message": message})
}

fn request(id: &Value, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

pub(super) fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

pub(super) fn response(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error_response(id: &Value) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": -32603, "message": "declined by the user"},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rendered traces keep the members in the order they are written here
    /// (serde_json's `preserve_order`, which this crate turns on), whatever
    /// the key.
    #[test]
    fn members_keep_the_order_they_are_written_in() {
        let message = request(&7.into(), "z/method", json!({"b": 1, "a": "x\"y\n"}));
        assert_eq!(
            message.to_string(),
            r#"{"jsonrpc":"2.0","id":7,"method":"z/method","params":{"b":1,"a":"x\"y\n"}}"#
        );
    }
}
