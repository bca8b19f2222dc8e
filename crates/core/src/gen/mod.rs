//! The shared trace generator: a model of protocol operations, rendered into
//! traces whose diagnostics are known in advance.
//!
//! One model serves three users: the property tests (`tests/suite/properties.rs`),
//! the `structured` fuzz target (the model derives `arbitrary::Arbitrary`
//! behind the crate feature `arbitrary`), and `acp-plan gen` / the
//! benchmarks ([`synthetic`](mod@synthetic)).
//!
//! - A [`Connection`] is a revision, a capability choice, a framing and a list
//!   of [`Op`]s. Any list is accepted: [`Connection::legalize`] rewrites it into
//!   one that is legal in context (sessions exist before they are used, plan
//!   operations only where the capability allows them, no legacy `plan` in v2,
//!   removals only of live plans, every update a full list that cannot look
//!   like a delta, requests answered at most once).
//! - [`Connection::render`] writes the trace deterministically and records the
//!   lines each op landed on.
//! - An [`Op::Violation`] renders exactly one line that breaks exactly one
//!   rule without changing what a conformant client shows (rejected messages
//!   are not applied; the few that are applied are modelled as applied), so
//!   the rendered trace carries the list of [`Expected`] diagnostics: the
//!   validator must report exactly those errors and warnings (infos such as
//!   `ID-RECREATE` may come on top: they are allowed behaviour).
//!
//! The generator writes each message with `serde_json::json!`, member by
//! member in wire order (the crate builds `serde_json` with `preserve_order`),
//! instead of through `spec::messages`: it is a second, independent spelling
//! of the wire format, so a bug in the typed model cannot hide itself.

mod legal;
mod render;
pub mod synthetic;
mod violation;

#[cfg(test)]
mod tests;

pub use render::{Expected, Rendered, Renderer};
pub use synthetic::{synthetic, Spacing, SyntheticError, SyntheticParams, SyntheticSummary};
pub use violation::{
    BadMeta, BadPriority, BadStatus, BadValue, BrokenEnvelope, Carrier, EnvelopeFault, KeyedOp,
    LegacyInV2, MissingField, MissingMember, PlanOpWithoutCapability, RelativeFileUri,
    RemoveNotLive, TruncatedJson, UnknownMember, UnknownPlanType, UnknownResponse, UnknownSession,
    VersionFault, Violation, WrongIdKey, WrongJsonRpcVersion,
};

use crate::spec::{Revision, SpecChoice};
use crate::validate::Config;
use legal::Legalizer;

/// A session: before [`Connection::legalize`] any number (it is resolved
/// against the sessions established so far); after, the number the session
/// was created with (rendered as `sess-N`).
pub type SessionRef = u16;

/// A keyed plan, rendered as `plan-N`. Ids are scoped to their session.
pub type PlanRef = u8;

/// What the client sends for the plan capability of the scenario's revision
/// (`plan` in v1, `planCapabilities` in the draft; v2 needs none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Capability {
    /// `{}`: advertised.
    Object,
    /// `{"_meta": {...}}`: advertised.
    ObjectWithMeta,
    /// `null`: not advertised.
    Null,
    /// Key left out: not advertised.
    Omitted,
}

impl Capability {
    /// Whether this advertises the capability (before v2, what lets the agent send plan
    /// operations).
    pub fn advertises(self) -> bool {
        matches!(self, Capability::Object | Capability::ObjectWithMeta)
    }
}

/// How records are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Framing {
    /// `{"direction": ..., "message": ...}`: request ids overlap between the
    /// two sides, as they do on the wire.
    Envelope,
    /// Bare JSON-RPC messages; the agent numbers its requests with strings
    /// so every response can be placed.
    Bare,
}

/// One step of a connection, after the `initialize` handshake.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Op {
    /// `session/new` and its result.
    NewSession {
        /// The session it creates; legalizing gives it the next number.
        session: SessionRef,
    },
    /// `session/load`, the updates the agent replays while loading, then
    /// the result.
    LoadSession {
        /// The session loaded; legalizing gives it the next number, as for a new one.
        session: SessionRef,
        /// The updates the agent sends during the load, before its result.
        replay: Vec<SessionUpdate>,
    },
    /// One `session/update` notification.
    Update {
        /// The session the update is for.
        session: SessionRef,
        /// What it reports.
        update: SessionUpdate,
    },
    /// `session/prompt`: opens a turn, answered by [`Op::EndTurn`].
    Prompt {
        /// The session prompted; it must have no turn open.
        session: SessionRef,
    },
    /// The agent answers the session's open prompt.
    EndTurn {
        /// The session whose turn ends.
        session: SessionRef,
        /// The `stopReason` of the result.
        stop: StopReason,
    },
    /// `session/cancel` notification.
    Cancel {
        /// The session whose turn is cancelled.
        session: SessionRef,
    },
    /// A request from the agent to the client (answered by
    /// [`Op::ClientResponse`]).
    AgentRequest {
        /// The session the request is about.
        session: SessionRef,
        /// Which request.
        kind: AgentRequestKind,
    },
    /// The client answers one of the session's open agent requests (`pick`
    /// indexes them, oldest first).
    ClientResponse {
        /// The session whose request is answered.
        session: SessionRef,
        /// Which open request (modulo their number).
        pick: u8,
        /// Answer with a JSON-RPC error instead of a result.
        error: bool,
    },
    /// A `_`-prefixed extension notification.
    ExtNotification {
        /// Sent by the agent (else by the client).
        from_agent: bool,
    },
    /// One line that breaks one rule.
    Violation(Violation),
}

/// The `stopReason` a prompt's result gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum StopReason {
    /// `end_turn`
    EndTurn,
    /// `cancelled`
    Cancelled,
    /// `max_tokens`
    MaxTokens,
}

/// What the agent asks of the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum AgentRequestKind {
    /// `session/request_permission` (the client selects `allow`).
    Permission,
    /// `fs/read_text_file`.
    ReadTextFile,
    /// `_acme/lookup`: only with envelopes (a bare one cannot be placed).
    Extension,
}

/// The `update` of a `session/update`.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum SessionUpdate {
    /// A plan message: legacy `plan`, `plan_update` or `plan_removed`.
    Plan(PlanOp),
    /// Any other kind; never an error by itself.
    Other(OtherUpdate),
}

/// A plan message.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum PlanOp {
    /// The legacy `plan` update.
    Legacy {
        /// The plan's entries, in order.
        entries: Vec<Entry>,
        /// The update's own `_meta`.
        meta: Meta,
    },
    /// `plan_update`: the full content of one keyed plan.
    Update {
        /// The plan's id (`plan-N`).
        plan: PlanRef,
        /// What the plan holds.
        content: Content,
        /// The `_meta` of the plan object.
        plan_meta: Meta,
        /// The update's own `_meta`.
        meta: Meta,
    },
    /// `plan_removed`.
    Remove {
        /// The plan's id (`plan-N`).
        plan: PlanRef,
        /// The update's own `_meta`.
        meta: Meta,
    },
}

/// The content of a keyed plan.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Content {
    /// An `items` plan: a list of entries.
    Items {
        /// The entries, in order.
        entries: Vec<Entry>,
    },
    /// A `file` plan: a reference to a document.
    File {
        /// Where the document is.
        uri: FileUri,
    },
    /// A `markdown` plan: the plan as text.
    Markdown {
        /// The text.
        text: String,
    },
    /// A v2 custom type `_custom-N` with one member `data`.
    Custom {
        /// `N` of the type name.
        name: u8,
        /// The value of `data`.
        data: u32,
    },
}

impl Content {
    /// The `type` this content is sent with.
    pub fn type_name(&self) -> String {
        match self {
            Content::Items { .. } => "items".into(),
            Content::File { .. } => "file".into(),
            Content::Markdown { .. } => "markdown".into(),
            Content::Custom { name, .. } => format!("_custom-{name}"),
        }
    }
}

/// The `uri` of a `file` plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum FileUri {
    /// `file:///work/plans/plan-N.md`
    Absolute(u8),
    /// `plans/plan-N.md` (fine before v2, which wants absolute URIs).
    Relative(u8),
}

impl FileUri {
    /// The URI as sent.
    pub fn render(self) -> String {
        match self {
            FileUri::Absolute(n) => format!("file:///work/plans/plan-{n}.md"),
            FileUri::Relative(n) => format!("plans/plan-{n}.md"),
        }
    }
}

/// One entry of a plan's list.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Entry {
    /// What the step is.
    pub content: String,
    /// Its `priority`.
    pub priority: Priority,
    /// Its `status`.
    pub status: Status,
    /// The entry's `_meta`.
    pub meta: Meta,
}

/// An entry's `priority`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Priority {
    /// `high`
    High,
    /// `medium`
    Medium,
    /// `low`
    Low,
    /// v2: `_priority-N`.
    Custom(u8),
}

impl Priority {
    /// The value as sent.
    pub fn render(self) -> String {
        match self {
            Priority::High => "high".into(),
            Priority::Medium => "medium".into(),
            Priority::Low => "low".into(),
            Priority::Custom(n) => format!("_priority-{n}"),
        }
    }
}

/// An entry's `status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Status {
    /// `pending`
    Pending,
    /// `in_progress`
    InProgress,
    /// `completed`
    Completed,
    /// v2 only.
    Cancelled,
    /// v2: `_status-N`.
    Custom(u8),
}

impl Status {
    /// The value as sent.
    pub fn render(self) -> String {
        match self {
            Status::Pending => "pending".into(),
            Status::InProgress => "in_progress".into(),
            Status::Completed => "completed".into(),
            Status::Cancelled => "cancelled".into(),
            Status::Custom(n) => format!("_status-{n}"),
        }
    }
}

/// `_meta` of a message, plan or entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Meta {
    /// Not sent.
    Absent,
    /// `"_meta": null`.
    Null,
    /// `{"trace": N}`
    Object(u8),
}

/// Session updates that are not about plans: never errors by themselves.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum OtherUpdate {
    /// `agent_message_chunk` with this text.
    AgentMessageChunk {
        /// The chunk's text.
        text: String,
    },
    /// `tool_call` with id `call-N`.
    ToolCall {
        /// `N` of the tool call's id.
        call: u8,
    },
    /// `usage_update` with this many tokens used.
    UsageUpdate {
        /// Tokens used.
        used: u32,
    },
    /// A kind newer than this suite: `future_kind_N`.
    Unknown {
        /// `N` of `future_kind_N`.
        kind: u8,
    },
}

/// A connection to render: the handshake, then the ops.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Connection {
    /// The revision the trace is written in.
    pub revision: Revision,
    /// What the client sends for the plan capability.
    pub capability: Capability,
    /// How each message is written.
    pub framing: Framing,
    /// Check with `--spec <revision>` instead of `auto`. Required where the
    /// handshake alone does not select the revision (a draft client that
    /// does not advertise `planCapabilities`); [`Connection::legalize`] sets it
    /// then.
    pub pin_spec: bool,
    /// The steps after the handshake, in order.
    pub ops: Vec<Op>,
}

impl Connection {
    /// An empty connection for `revision` whose client advertises plan
    /// operations, in envelopes.
    pub fn new(revision: Revision) -> Connection {
        Connection {
            revision,
            capability: Capability::Object,
            framing: Framing::Envelope,
            pin_spec: false,
            ops: Vec::new(),
        }
    }

    /// Rewrite the ops into a sequence that is legal in context (see the
    /// module docs). Violations stay, adapted to the context, or go when
    /// the context cannot host them. Idempotent.
    pub fn legalize(&mut self) {
        // `--spec auto` picks the newest release of a protocol version, and
        // the draft only from its capability key.
        if (self.revision == Revision::Draft202605 && !self.capability.advertises())
            || self.revision != self.revision.newest()
        {
            self.pin_spec = true;
        }
        // Ops about a session need one: open it first if none is.
        let first_session = self
            .ops
            .iter()
            .position(|op| matches!(op, Op::NewSession { .. } | Op::LoadSession { .. }));
        let first_user = self.ops.iter().position(|op| {
            !matches!(op, Op::NewSession { .. } | Op::LoadSession { .. }) && op_needs_session(op)
        });
        if let Some(user) = first_user {
            if first_session.is_none_or(|open| open > user) {
                self.ops.insert(0, Op::NewSession { session: 0 });
            }
        }
        let mut legalizer = Legalizer::new(self);
        let ops = std::mem::take(&mut self.ops);
        self.ops = ops
            .into_iter()
            .filter_map(|op| legalizer.legalize(op))
            .collect();
    }

    /// [`Connection::legalize`], by value.
    pub fn legalized(mut self) -> Connection {
        self.legalize();
        self
    }

    /// Render the trace. Ops that are not legal in context render as far as
    /// they can (an answer to nothing renders nothing); legalize first.
    pub fn render(&self) -> Rendered {
        let mut renderer = Renderer::new(self);
        let mut rendered = Rendered::default();
        renderer.handshake(&mut rendered.lines);
        for op in &self.ops {
            let first = rendered.lines.len() as u64 + 1;
            renderer.op(op, &mut rendered.lines);
            let end = rendered.lines.len() as u64 + 1;
            rendered.spans.push(first..end);
        }
        rendered.expected = renderer.into_expected();
        rendered
    }

    /// How the validator must be configured to check the rendered trace.
    pub fn config(&self) -> Config {
        Config {
            spec: if self.pin_spec {
                SpecChoice::Fixed(self.revision)
            } else {
                SpecChoice::Auto
            },
            ..Config::default()
        }
    }

    /// Whether any violation is injected (a legalized scenario without one
    /// renders a conformant trace).
    pub fn has_violations(&self) -> bool {
        self.ops.iter().any(|op| matches!(op, Op::Violation(_)))
    }

    /// The session an op belongs to, if any (violations on a session count).
    pub fn session_of(op: &Op) -> Option<SessionRef> {
        match op {
            Op::NewSession { session }
            | Op::LoadSession { session, .. }
            | Op::Update { session, .. }
            | Op::Prompt { session }
            | Op::EndTurn { session, .. }
            | Op::Cancel { session }
            | Op::AgentRequest { session, .. }
            | Op::ClientResponse { session, .. } => Some(*session),
            Op::ExtNotification { .. } => None,
            Op::Violation(v) => v.session(),
        }
    }

    /// Split into one scenario per session (same handshake), keeping only
    /// the ops of that session, with the index each op had here.
    pub fn split_by_session(&self) -> Vec<(SessionRef, Connection, Vec<usize>)> {
        let mut out: Vec<(SessionRef, Connection, Vec<usize>)> = Vec::new();
        for (index, op) in self.ops.iter().enumerate() {
            let Some(session) = Connection::session_of(op) else {
                continue;
            };
            let slot = match out.iter().position(|(s, _, _)| *s == session) {
                Some(slot) => slot,
                None => {
                    let mut part = self.clone();
                    part.ops.clear();
                    out.push((session, part, Vec::new()));
                    out.len() - 1
                }
            };
            if let Some((_, part, indices)) = out.get_mut(slot) {
                part.ops.push(op.clone());
                indices.push(index);
            }
        }
        out
    }
}

/// Whether an op can only be rendered for an established session.
fn op_needs_session(op: &Op) -> bool {
    match op {
        Op::ExtNotification { .. } => false,
        Op::Violation(v) => v.session().is_some(),
        _ => true,
    }
}

/// The name a session is rendered with.
pub fn session_name(session: SessionRef) -> String {
    format!("sess-{session}")
}

/// The id a keyed plan is rendered with.
pub fn plan_name(plan: PlanRef) -> String {
    format!("plan-{plan}")
}
