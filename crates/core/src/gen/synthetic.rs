//! Seeded synthetic traces of any size, streamed: `acp-plan gen` and the
//! benchmarks.
//!
//! Ops are drawn from a seeded PRNG, pass through the same legalizer and
//! renderer as [`super::Connection`], and are written as they are made, so
//! memory holds only the live state (sessions, live plans, open requests),
//! never the trace. Same parameters and seed, same bytes.

use super::legal::Legalizer;
use super::render::{Expected, Renderer};
use super::{
    AgentRequestKind, Capability, Content, Entry, FileUri, Framing, Meta, Op, OtherUpdate, PlanOp,
    Priority, SessionRef, SessionUpdate, Status, StopReason, Violation,
};
use crate::spec::Revision;
use std::borrow::Cow;
use std::io::{self, Write};

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntheticParams {
    /// The revision the trace is written in.
    pub revision: Revision,
    /// How each message is written.
    pub framing: Framing,
    /// Sessions opened at the start (every fourth one by `session/load`).
    pub sessions: u16,
    /// `session/update` notifications after the sessions are open.
    pub messages: u64,
    /// Keyed plan ids per session (plans are created, updated and removed).
    pub plans: u8,
    /// Entries per `items` plan (and per legacy plan).
    pub entries: usize,
    /// Share of updates that are not about plans (0.0 to 1.0).
    pub non_plan_share: f64,
    /// Bytes of text in each entry, message chunk and markdown plan.
    pub payload_bytes: usize,
    /// Bytes of text in each message chunk instead (prose with line breaks,
    /// as agents stream it): chat-heavy traces.
    pub chunk_bytes: Option<usize>,
    /// Bytes of nested `rawOutput` in each `tool_call` (0: none):
    /// tool-output-heavy traces.
    pub tool_output_bytes: usize,
    /// Updates in a turn, on average (a turn ends after an update with
    /// chance 1 in N): short turns with many sessions.
    pub turn_length: u8,
    /// How the JSON of each line is spaced.
    pub spacing: Spacing,
    /// Violations to inject, spread evenly over the messages. Injecting
    /// `CAP-PLAN-OPS` makes the client omit the capability (so plans fall
    /// back to the legacy `plan` update).
    pub inject: Vec<Violation>,
}

impl Default for SyntheticParams {
    fn default() -> Self {
        SyntheticParams {
            revision: Revision::V1,
            framing: Framing::Envelope,
            sessions: 2,
            messages: 40,
            plans: 2,
            entries: 4,
            non_plan_share: 0.5,
            payload_bytes: 40,
            chunk_bytes: None,
            tool_output_bytes: 0,
            turn_length: 10,
            spacing: Spacing::Compact,
            inject: Vec::new(),
        }
    }
}

/// How the JSON of a line is spaced. The same values either way; only the
/// whitespace between tokens differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Spacing {
    /// No whitespace (serde_json, `JSON.stringify`, Go's `encoding/json`).
    #[default]
    Compact,
    /// A space after each `:` and `,`: Python's `json.dumps` by default.
    Python,
}

impl Spacing {
    /// `line` (compact JSON) spaced this way.
    pub fn apply<'a>(self, line: &'a str) -> Cow<'a, str> {
        match self {
            Spacing::Compact => Cow::Borrowed(line),
            Spacing::Python => Cow::Owned(python_spaced(line)),
        }
    }
}

/// A space after each `:` and `,` outside strings.
fn python_spaced(line: &str) -> String {
    let mut spaced = String::with_capacity(line.len() + line.len() / 8);
    let (mut in_string, mut escaped) = (false, false);
    for c in line.chars() {
        spaced.push(c);
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else {
            match c {
                '"' => in_string = true,
                ':' | ',' => spaced.push(' '),
                _ => {}
            }
        }
    }
    spaced
}

/// What was written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SyntheticSummary {
    /// Lines written.
    pub lines: u64,
    /// Bytes written.
    pub bytes: u64,
    /// The diagnostics the injected violations must produce.
    pub expected: Vec<Expected>,
}

/// Why parameters cannot be generated.
#[derive(Debug, thiserror::Error)]
pub enum SyntheticError {
    /// The rule cannot be injected with these parameters (for instance, not in this revision).
    #[error("{rule} cannot be injected here: {why}")]
    CannotInject {
        /// The rule's id.
        rule: &'static str,
        /// Why it cannot be.
        why: String,
    },
    /// `--non-plan-share` outside 0..=1.
    #[error("--non-plan-share must be between 0 and 1, got {0}")]
    Share(f64),
    /// `--turn-length` 0.
    #[error("--turn-length must be at least 1")]
    TurnLength,
    /// Writing the trace failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl SyntheticParams {
    fn capability(&self) -> Capability {
        let drops = self
            .inject
            .iter()
            .any(|v| matches!(v, Violation::PlanOpWithoutCapability(_)));
        if drops {
            Capability::Omitted
        } else {
            Capability::Object
        }
    }

    fn pin_spec(&self) -> bool {
        (self.revision == Revision::Draft202605 && !self.capability().advertises())
            || self.revision != self.revision.newest()
    }

    /// Whether checking the trace needs `--spec <revision>` (a draft client
    /// without the capability cannot be recognized from the handshake, and
    /// `auto` picks the newest release of a protocol version).
    pub fn needs_pinned_spec(&self) -> bool {
        self.pin_spec()
    }

    /// Refuse what cannot be generated, before anything is written.
    pub fn check(&self) -> Result<(), SyntheticError> {
        if !(0.0..=1.0).contains(&self.non_plan_share) {
            return Err(SyntheticError::Share(self.non_plan_share));
        }
        if self.turn_length == 0 {
            return Err(SyntheticError::TurnLength);
        }
        let mut probe = Legalizer::for_connection(self.revision, self.capability(), self.framing);
        for _ in 0..self.sessions {
            probe.legalize(Op::NewSession { session: 0 });
        }
        for v in &self.inject {
            if probe.clone().legalize(Op::Violation(v.clone())).is_none() {
                let rule = v.rule().id;
                let why = if self.sessions == 0 {
                    "it needs at least one session (--sessions)".to_owned()
                } else {
                    format!(
                        "not applicable to {} with these options (see `acp-plan gen --help`)",
                        self.revision
                    )
                };
                return Err(SyntheticError::CannotInject { rule, why });
            }
        }
        Ok(())
    }
}

/// A deterministic filler text of `len` ASCII bytes.
fn filler(len: usize) -> String {
    const WORDS: &str = "refactor the parser then update the tests and document the change ";
    WORDS.chars().cycle().take(len).collect()
}

/// Prose of `len` ASCII bytes in lines of about 80, as agents stream text.
fn prose(len: usize) -> String {
    filler(len)
        .char_indices()
        .map(|(i, c)| if i % 80 == 79 { '\n' } else { c })
        .collect()
}

/// Legalizes, renders and writes ops as they are made.
struct Stream<W: Write> {
    legalizer: Legalizer,
    renderer: Renderer,
    spacing: Spacing,
    out: W,
    lines: Vec<String>,
    summary: SyntheticSummary,
}

impl<W: Write> Stream<W> {
    fn emit(&mut self, op: Op) -> io::Result<()> {
        if let Some(op) = self.legalizer.legalize(op) {
            self.renderer.op(&op, &mut self.lines);
        }
        self.flush_lines()
    }

    fn flush_lines(&mut self) -> io::Result<()> {
        for line in self.lines.drain(..) {
            let line = self.spacing.apply(&line);
            self.out.write_all(line.as_bytes())?;
            self.out.write_all(b"\n")?;
            self.summary.bytes += line.len() as u64 + 1;
        }
        self.summary.expected.extend(self.renderer.take_expected());
        Ok(())
    }
}

/// Write a synthetic trace for `params` and `seed` to `out`.
pub fn synthetic<W: Write>(
    params: &SyntheticParams,
    seed: u64,
    out: W,
) -> Result<SyntheticSummary, SyntheticError> {
    params.check()?;
    let capability = params.capability();
    let mut stream = Stream {
        legalizer: Legalizer::for_connection(params.revision, capability, params.framing),
        renderer: Renderer::for_connection(params.revision, capability, params.framing)
            .with_tool_output(params.tool_output_bytes),
        spacing: params.spacing,
        out,
        lines: Vec::new(),
        summary: SyntheticSummary::default(),
    };
    let mut rng = fastrand::Rng::with_seed(seed);
    let text = filler(params.payload_bytes);
    let chunk = params.chunk_bytes.map_or_else(|| text.clone(), prose);

    stream.renderer.handshake(&mut stream.lines);
    stream.flush_lines()?;
    for n in 0..params.sessions {
        let op = if n % 4 == 3 {
            let replay = vec![
                SessionUpdate::Plan(plan_update(&mut rng, params, &text, 0, false)),
                SessionUpdate::Other(OtherUpdate::AgentMessageChunk {
                    text: chunk.clone(),
                }),
            ];
            Op::LoadSession { session: n, replay }
        } else {
            Op::NewSession { session: n }
        };
        stream.emit(op)?;
    }
    let sessions = stream.legalizer.session_count();
    let injections = params.inject.len() as u64;
    let mut next_injection = 0usize;
    let mut prompt_open = vec![false; sessions];
    let mut agent_requests = vec![0u32; sessions];

    for i in 0..params.messages {
        while next_injection < params.inject.len()
            && i >= (next_injection as u64 + 1) * params.messages / (injections + 1)
        {
            if let Some(v) = params.inject.get(next_injection) {
                stream.emit(Op::Violation(v.clone()))?;
            }
            next_injection += 1;
        }
        if sessions == 0 {
            break;
        }
        let index = rng.usize(0..sessions);
        let session = SessionRef::try_from(index).unwrap_or(0);
        // Turns: a prompt opens before the agent talks; some turns end.
        if let Some(open) = prompt_open.get_mut(index) {
            if !*open {
                *open = true;
                stream.emit(Op::Prompt { session })?;
            }
        }
        let update = if rng.f64() < params.non_plan_share {
            SessionUpdate::Other(other_update(&mut rng, &chunk))
        } else {
            let live = stream.legalizer.live_plans(session);
            let keyed = stream.legalizer.keyed_allowed();
            SessionUpdate::Plan(plan_op(&mut rng, params, &text, live, keyed))
        };
        stream.emit(Op::Update { session, update })?;
        // Now and then the agent asks the client something, and gets an answer.
        if rng.u8(0..50) == 0 {
            if let Some(count) = agent_requests.get_mut(index) {
                *count += 1;
            }
            let kind = match rng.u8(0..3) {
                0 => AgentRequestKind::Permission,
                1 => AgentRequestKind::ReadTextFile,
                _ => AgentRequestKind::Extension,
            };
            stream.emit(Op::AgentRequest { session, kind })?;
        }
        if let Some(count) = agent_requests.get_mut(index) {
            if *count > 0 && rng.u8(0..4) == 0 {
                *count -= 1;
                let error = rng.u8(0..8) == 0;
                stream.emit(Op::ClientResponse {
                    session,
                    pick: 0,
                    error,
                })?;
            }
        }
        if rng.u8(0..params.turn_length) == 0 {
            if let Some(open) = prompt_open.get_mut(index) {
                *open = false;
            }
            stream.emit(Op::EndTurn {
                session,
                stop: StopReason::EndTurn,
            })?;
        }
    }
    // Injections left over (no messages to spread them over).
    for v in params.inject.iter().skip(next_injection) {
        stream.emit(Op::Violation(v.clone()))?;
    }
    // Close what is open, so the trace ends at rest.
    for (index, count) in agent_requests.iter().enumerate() {
        let session = SessionRef::try_from(index).unwrap_or(0);
        for _ in 0..*count {
            stream.emit(Op::ClientResponse {
                session,
                pick: 0,
                error: false,
            })?;
        }
    }
    for (index, open) in prompt_open.iter().enumerate() {
        if *open {
            let session = SessionRef::try_from(index).unwrap_or(0);
            stream.emit(Op::EndTurn {
                session,
                stop: StopReason::EndTurn,
            })?;
        }
    }
    stream.out.flush()?;
    let mut summary = stream.summary;
    summary.lines = stream.renderer.lines();
    Ok(summary)
}

fn other_update(rng: &mut fastrand::Rng, text: &str) -> OtherUpdate {
    match rng.u8(0..20) {
        0..=11 => OtherUpdate::AgentMessageChunk { text: text.into() },
        12..=15 => OtherUpdate::ToolCall { call: rng.u8(..) },
        16..=18 => OtherUpdate::UsageUpdate { used: rng.u32(..) },
        _ => OtherUpdate::Unknown { kind: rng.u8(0..4) },
    }
}

fn plan_op(
    rng: &mut fastrand::Rng,
    params: &SyntheticParams,
    text: &str,
    live: usize,
    keyed: bool,
) -> PlanOp {
    if !keyed {
        return PlanOp::Legacy {
            entries: entries(rng, params, text),
            meta: Meta::Absent,
        };
    }
    // Remove a live plan now and then (the legalizer picks a live one).
    if live > 0 && rng.u8(0..20) == 0 {
        return PlanOp::Remove {
            plan: rng.u8(..),
            meta: Meta::Absent,
        };
    }
    let plan = rng.u8(0..params.plans.max(1));
    plan_update(rng, params, text, plan, true)
}

fn plan_update(
    rng: &mut fastrand::Rng,
    params: &SyntheticParams,
    text: &str,
    plan: u8,
    vary: bool,
) -> PlanOp {
    // A plan keeps its type (a type change is allowed, but noted as info).
    let content = match if vary { plan % 6 } else { 0 } {
        4 => Content::Markdown {
            text: format!("# Plan\n\n{text}"),
        },
        5 => Content::File {
            uri: FileUri::Absolute(plan),
        },
        _ => Content::Items {
            entries: entries(rng, params, text),
        },
    };
    PlanOp::Update {
        plan,
        content,
        plan_meta: Meta::Absent,
        meta: Meta::Absent,
    }
}

/// A full list whose first entries are done, one in progress, the rest pending.
fn entries(rng: &mut fastrand::Rng, params: &SyntheticParams, text: &str) -> Vec<Entry> {
    let done = rng.usize(0..=params.entries);
    (0..params.entries)
        .map(|k| Entry {
            content: format!("step {k}: {text}"),
            priority: match k % 3 {
                0 => Priority::High,
                1 => Priority::Medium,
                _ => Priority::Low,
            },
            status: if k < done {
                Status::Completed
            } else if k == done {
                Status::InProgress
            } else {
                Status::Pending
            },
            meta: Meta::Absent,
        })
        .collect()
}
