//! The scenarios `acp-plan client` plays against a client: what the suite,
//! as a conformant agent, sends in a prompt turn, chosen by what the client
//! negotiated (its protocol version decides the revision; under v1 its plan
//! capability decides whether plan operations may be sent at all).

use crate::spec::{Revision, SpecChoice, Spelling};
use serde_json::{json, Value};
use std::fmt;
use std::str::FromStr;

/// What the client negotiated in `initialize`, as the suite's agent answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Negotiated {
    /// The revision the suite speaks: v2 when the client asked for protocol
    /// version 2 or later, else v1 (the newest release).
    pub revision: Revision,
    /// Whether `plan_update` and `plan_removed` may be sent: under v1 only
    /// when the client advertised `clientCapabilities.plan` as an object;
    /// under v2 always (plan operations are baseline there).
    pub plan_operations: bool,
}

impl Negotiated {
    /// Read the client's `initialize` params (`None`: the client sent no
    /// usable `initialize`; no capability is assumed). Under
    /// [`SpecChoice::Auto`] the revision follows the protocol version the
    /// client asked for (2 or later: v2, else v1, the newest releases);
    /// a fixed `spec` is spoken whatever the client asked, as an agent that
    /// supports only that revision would. Plan operations may be sent when
    /// the revision needs no capability for them, or the client advertised
    /// the revision's capability key as an object.
    pub(crate) fn from_initialize(params: Option<&Value>, spec: SpecChoice) -> Negotiated {
        let revision = match spec {
            SpecChoice::Fixed(revision) => revision,
            SpecChoice::Auto => {
                let version = params
                    .and_then(|p| p.get("protocolVersion"))
                    .and_then(Value::as_u64)
                    .unwrap_or(1);
                if version >= 2 {
                    Revision::V2
                } else {
                    Revision::V1
                }
            }
        };
        let plan_operations = match revision.spelling().capability_key {
            None => true,
            Some(key) => params
                .and_then(|p| p.get("clientCapabilities"))
                .and_then(|c| c.get(key))
                .is_some_and(Value::is_object),
        };
        Negotiated {
            revision,
            plan_operations,
        }
    }

    /// The protocol version the suite answers with.
    pub fn protocol_version(self) -> u64 {
        self.revision.protocol_version()
    }

    /// The suite's `initialize` result; `load_session`: whether it advertises
    /// `agentCapabilities.loadSession` (v1; v2's `session/resume` comes with
    /// the session capability).
    pub(crate) fn initialize_result(self, load_session: bool) -> Value {
        let info = json!({
            "name": "acp-plan",
            "title": "acp-plan conformance agent",
            "version": env!("CARGO_PKG_VERSION"),
        });
        match self.protocol_version() {
            // v2's session methods exist only when advertised: "Omitted and
            // `null` are equivalent and mean the Agent does not support the
            // `session/*` methods" (AgentCapabilities.session, schema 1.17.0
            // and 1.20.0).
            2 => json!({
                "protocolVersion": 2,
                "info": info,
                "capabilities": {"session": {}},
                "authMethods": [],
            }),
            _ => json!({
                "protocolVersion": 1,
                "agentCapabilities": if load_session { json!({"loadSession": true}) } else { json!({}) },
                "agentInfo": info,
                "authMethods": [],
            }),
        }
    }
}

/// Text the suite puts in plan content to see whether a client passes
/// terminal control sequences through raw: an OSC that sets the window
/// title, and a CSI that clears the screen, each next to a marker so that
/// a client's own colours are never mistaken for them.
pub(crate) const ESCAPE_PROBES: [&str; 2] = [
    "\u{1b}]0;acp-plan-probe-title\u{7}",
    "\u{1b}[2Jacp-plan-probe-clear",
];

/// The session id the suite's agent hands out first (`session/new`).
pub const FIRST_SESSION_ID: &str = "acp-plan-session-1";

/// One client scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientScenario {
    /// Legacy `plan` updates: a list that progresses, then an empty list.
    Legacy,
    /// Plan operations: an items plan and a markdown plan at once, a
    /// markdown plan with the `path` of its file (schema 1.20.0), a type
    /// change, a removal, the removal of an id never sent, and the
    /// re-creation of a removed id.
    PlanOperations,
    /// Thousands of entries, long and non-ASCII content, `_meta` wherever
    /// it is allowed, and under v2 `_`-prefixed custom enum values.
    EdgeSizes,
    /// Legal plan text holding terminal control sequences
    /// (`ESCAPE_PROBES`): a robustness finding if they reach the
    /// client's stdout or stderr raw.
    TerminalEscapes,
    /// The only scenario whose `initialize` answer advertises `loadSession`
    /// (v1): a `session/load` (v2: `session/resume` with `replayFrom`)
    /// gets the plans replayed before its answer, then the prompt on the
    /// loaded session continues them. Not exercised when the client never
    /// loads or resumes.
    Load,
}

impl ClientScenario {
    /// Every scenario, in the order they run.
    pub const ALL: [ClientScenario; 5] = [
        ClientScenario::Legacy,
        ClientScenario::PlanOperations,
        ClientScenario::EdgeSizes,
        ClientScenario::TerminalEscapes,
        ClientScenario::Load,
    ];

    /// The scenario's name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ClientScenario::Legacy => "legacy",
            ClientScenario::PlanOperations => "plan-operations",
            ClientScenario::EdgeSizes => "edge-sizes",
            ClientScenario::TerminalEscapes => "terminal-escapes",
            ClientScenario::Load => "load",
        }
    }

    /// Why the scenario cannot be played to a client that negotiated
    /// `negotiated`, if it cannot.
    pub(crate) fn not_applicable(self, negotiated: Negotiated) -> Option<String> {
        let spelling = negotiated.revision.spelling();
        match self {
            ClientScenario::Legacy if !spelling.legacy_plan => Some(format!(
                "protocol v{} has no legacy plan update",
                negotiated.protocol_version()
            )),
            ClientScenario::PlanOperations if !negotiated.plan_operations => Some(format!(
                "the client did not advertise clientCapabilities.{}: only legacy plans may be sent",
                spelling.capability_key.unwrap_or("plan")
            )),
            _ => None,
        }
    }

    /// Whether the suite advertises `loadSession` in this scenario.
    pub(crate) fn advertises_load(self) -> bool {
        self == ClientScenario::Load
    }

    /// The `update` objects of the prompt turn, in order: the scenario's
    /// plans, or for `load` the step that continues the replayed plans.
    pub(crate) fn turn_updates(self, negotiated: Negotiated) -> Vec<Value> {
        if self != ClientScenario::Load {
            return self.updates(negotiated);
        }
        let spelling = negotiated.revision.spelling();
        let next = if negotiated.plan_operations {
            items_plan(
                "plan-main",
                &[
                    ("Add the --verbose flag", "high", "completed"),
                    ("Document it", "medium", "completed"),
                ],
            )
        } else {
            legacy(&[
                ("Add the --verbose flag", "high", "completed"),
                ("Document it", "medium", "completed"),
            ])
        };
        vec![respell(next, spelling)]
    }

    /// The `update` objects of the scenario's plans, in order (each goes
    /// into its own `session/update`): what a prompt turn sends, and what a
    /// `session/load` or a resume with `replayFrom` replays.
    pub fn updates(self, negotiated: Negotiated) -> Vec<Value> {
        let spelling = negotiated.revision.spelling();
        self.updates_as_written(negotiated)
            .into_iter()
            .filter(|update| {
                removes_unknown_id_legally(negotiated.revision)
                    || update.get("planId").and_then(Value::as_str) != Some(NEVER_SENT_ID)
            })
            .map(|update| respell(update, spelling))
            .collect()
    }

    /// The updates in the newest releases' spelling (`planId`, markdown
    /// `path`).
    fn updates_as_written(self, negotiated: Negotiated) -> Vec<Value> {
        match self {
            ClientScenario::Legacy => legacy_updates(),
            ClientScenario::PlanOperations => plan_operation_updates(),
            ClientScenario::EdgeSizes => edge_updates(negotiated),
            ClientScenario::Load if negotiated.plan_operations => vec![
                items_plan(
                    "plan-main",
                    &[
                        ("Add the --verbose flag", "high", "completed"),
                        ("Document it", "medium", "in_progress"),
                    ],
                ),
                json!({"sessionUpdate": "plan_update",
                       "plan": {"planId": "plan-notes", "type": "markdown",
                                "content": "## Notes\n- keep the flag short"}}),
            ],
            ClientScenario::Load => vec![legacy(&[
                ("Add the --verbose flag", "high", "completed"),
                ("Document it", "medium", "in_progress"),
            ])],
            ClientScenario::TerminalEscapes => {
                let text = format!("Review {} the plan {}", ESCAPE_PROBES[0], ESCAPE_PROBES[1]);
                if negotiated.plan_operations {
                    vec![items_plan("plan-escapes", &[(&text, "high", "pending")])]
                } else {
                    vec![legacy(&[(&text, "high", "pending")])]
                }
            }
        }
    }
}

impl fmt::Display for ClientScenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ClientScenario {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ClientScenario::ALL
            .into_iter()
            .find(|sc| sc.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = ClientScenario::ALL.iter().map(|sc| sc.name()).collect();
                format!(
                    "unknown client scenario `{s}` (expected one of {})",
                    names.join(", ")
                )
            })
    }
}

/// The plan id `plan-operations` removes without ever sending it.
const NEVER_SENT_ID: &str = "plan-never-sent";

/// Whether an agent may remove a plan id the client never saw: only since
/// schema 1.20.0 ("Clients MUST ignore a removal for an unknown ID"), so the
/// earlier revisions' turns leave that removal out (it draws
/// ID-REMOVE-UNKNOWN there, a warning against the agent).
fn removes_unknown_id_legally(revision: Revision) -> bool {
    matches!(revision, Revision::V1 | Revision::V2)
}

/// `update` as the revision spells it: its plan id under the revision's
/// key, and a markdown plan's `path` left out where the revision has none
/// (before schema 1.20.0); the plan stays, so later updates still name it.
fn respell(mut update: Value, spelling: &Spelling) -> Value {
    let rename = |object: &mut serde_json::Map<String, Value>| {
        if let Some(id) = object.remove("planId") {
            object.insert(spelling.plan_id_key.to_owned(), id);
        }
    };
    if let Some(object) = update.as_object_mut() {
        rename(object);
        if let Some(plan) = object.get_mut("plan").and_then(Value::as_object_mut) {
            rename(plan);
            if !spelling.markdown_path {
                plan.remove("path");
            }
        }
    }
    update
}

fn entries(list: &[(&str, &str, &str)]) -> Value {
    Value::Array(
        list.iter()
            .map(|(content, priority, status)| {
                json!({"content": content, "priority": priority, "status": status})
            })
            .collect(),
    )
}

fn legacy(list: &[(&str, &str, &str)]) -> Value {
    json!({"sessionUpdate": "plan", "entries": entries(list)})
}

fn items_plan(id: &str, list: &[(&str, &str, &str)]) -> Value {
    json!({"sessionUpdate": "plan_update",
           "plan": {"planId": id, "type": "items", "entries": entries(list)}})
}

fn legacy_updates() -> Vec<Value> {
    let steps = [
        ["pending", "pending", "pending"],
        ["completed", "in_progress", "pending"],
        ["completed", "completed", "completed"],
    ];
    let mut updates: Vec<Value> = steps
        .iter()
        .map(|[a, b, c]| {
            legacy(&[
                ("Add the --verbose flag", "high", a),
                ("Document it", "medium", b),
                ("Add a test", "low", c),
            ])
        })
        .collect();
    // "the Agent MUST send a complete list": an empty one clears the plan.
    updates.push(legacy(&[]));
    updates
}

fn plan_operation_updates() -> Vec<Value> {
    vec![
        items_plan(
            "plan-main",
            &[
                ("Add the --verbose flag", "high", "pending"),
                ("Document it", "medium", "pending"),
            ],
        ),
        // Several plans at once.
        json!({"sessionUpdate": "plan_update",
               "plan": {"planId": "plan-notes", "type": "markdown",
                        "content": "## Notes\n- keep the flag short\n- `-v` too"}}),
        // Schema 1.20.0's plan kept in a file: markdown with the file's path.
        json!({"sessionUpdate": "plan_update",
               "plan": {"planId": "plan-file", "type": "markdown",
                        "content": "# Plan\n- add the flag\n- document it",
                        "path": "/work/PLAN.md"}}),
        items_plan(
            "plan-main",
            &[
                ("Add the --verbose flag", "high", "completed"),
                ("Document it", "medium", "in_progress"),
            ],
        ),
        // A type change: the markdown plan becomes a list.
        items_plan("plan-notes", &[("Keep the flag short", "low", "pending")]),
        json!({"sessionUpdate": "plan_removed", "planId": "plan-notes"}),
        // Removing an id that was never sent (or is already gone) is no-op.
        json!({"sessionUpdate": "plan_removed", "planId": NEVER_SENT_ID}),
        // Re-created after its removal.
        json!({"sessionUpdate": "plan_update",
               "plan": {"planId": "plan-notes", "type": "markdown", "content": "Back again."}}),
        json!({"sessionUpdate": "plan_removed", "planId": "plan-file"}),
    ]
}

/// Entries of the edge scenario.
const MANY_ENTRIES: usize = 5000;
/// Characters of the long entry.
const LONG_CONTENT_CHARS: usize = 64 * 1024;

fn edge_updates(negotiated: Negotiated) -> Vec<Value> {
    let non_ascii = "Überprüfe die Ausgabe — 計画を確認 — تحقق من الخطة — 🧪✅ — e\u{301}";
    let long = "long content ".repeat(LONG_CONTENT_CHARS / 13);
    let many: Vec<Value> = (0..MANY_ENTRIES)
        .map(|i| json!({"content": format!("Step {i}"), "priority": "low", "status": "pending"}))
        .collect();
    let mut special = vec![
        json!({"content": non_ascii, "priority": "high", "status": "in_progress",
               "_meta": {"acp-plan/probe": {"nested": [1, 2, 3]}}}),
        json!({"content": long, "priority": "medium", "status": "pending"}),
        json!({"content": "", "priority": "low", "status": "completed"}),
    ];
    if negotiated.revision.spelling().open_enums {
        // v2's enums are open to `_`-prefixed custom values.
        special.push(
            json!({"content": "Custom values", "priority": "_acp-plan.urgent",
                            "status": "_acp-plan.blocked"}),
        );
    }
    let meta = json!({"acp-plan/probe": true});
    if negotiated.plan_operations {
        vec![
            json!({"sessionUpdate": "plan_update", "_meta": meta,
                   "plan": {"planId": "plan-many", "type": "items", "entries": many}}),
            json!({"sessionUpdate": "plan_update",
                   "plan": {"planId": "plan-edge", "type": "items", "entries": special,
                            "_meta": meta}}),
            json!({"sessionUpdate": "plan_update",
                   "plan": {"planId": "plan-long-markdown", "type": "markdown",
                            "content": format!("# {non_ascii}\n\n{}", "- item\n".repeat(5000))}}),
        ]
    } else {
        vec![
            json!({"sessionUpdate": "plan", "entries": many, "_meta": meta}),
            json!({"sessionUpdate": "plan", "entries": special}),
        ]
    }
}

/// The suite's permission request after the plans: a pending tool call and
/// the options to allow or reject it. Protocol v2 spells it otherwise: a
/// required `title` and the call as its `subject` (RequestPermissionRequest,
/// schema 1.17.0 and 1.20.0 v2).
pub(crate) fn permission_params(session: &str, protocol_version: u64) -> Value {
    let call = json!({"toolCallId": "acp-plan-call-1", "title": "Write PLAN.md", "kind": "edit",
                      "status": "pending"});
    let options = json!([
        {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
        {"optionId": "reject", "name": "Reject", "kind": "reject_once"},
    ]);
    if protocol_version == 2 {
        json!({"sessionId": session, "title": "Write PLAN.md",
               "subject": {"type": "tool_call", "toolCall": call}, "options": options})
    } else {
        json!({"sessionId": session, "toolCall": call, "options": options})
    }
}

/// The update announcing the call the permission request is about: v1's
/// `tool_call`, v2's `tool_call_update` (v2 has no `tool_call` update).
pub fn tool_call_update(protocol_version: u64) -> Value {
    let kind = if protocol_version == 2 {
        "tool_call_update"
    } else {
        "tool_call"
    };
    json!({"sessionUpdate": kind, "toolCallId": "acp-plan-call-1",
           "title": "Write PLAN.md", "kind": "edit", "status": "pending"})
}
