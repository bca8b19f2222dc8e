//! Violations the generator can inject: each renders as exactly one line
//! and must be reported as exactly one rule at that line.

use super::{Entry, PlanOp, PlanRef, SessionRef, SessionUpdate};
use crate::catalog::Rule;
use crate::rules;

/// One line that breaks one rule. Fields that pick a session, plan or entry
/// are resolved by [`super::Connection::legalize`] like those of other ops.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Violation {
    /// `CAP-PLAN-OPS`: a keyed plan message although the client did not
    /// advertise the capability (draft and v1 only; the legalized trace
    /// falls back to the legacy `plan` elsewhere, as the spec requires).
    PlanOpWithoutCapability { session: SessionRef, op: KeyedOp },
    /// `CAP-LEGACY-V2`: a legacy `plan` under v2.
    LegacyInV2 {
        session: SessionRef,
        entries: Vec<Entry>,
    },
    /// `SHAPE-PLAN-ID`: the other revisions' id key (`id` for `planId`, or
    /// the reverse).
    WrongIdKey { session: SessionRef, op: KeyedOp },
    /// A required member left out (the rule depends on which).
    MissingField {
        session: SessionRef,
        field: MissingField,
        carrier: Carrier,
        entries: Vec<Entry>,
        pick: u8,
    },
    /// `SHAPE-STATUS`: an entry status the revision does not know.
    BadStatus {
        session: SessionRef,
        carrier: Carrier,
        entries: Vec<Entry>,
        pick: u8,
        value: BadValue,
    },
    /// `SHAPE-PRIORITY`: an entry priority the revision does not know.
    BadPriority {
        session: SessionRef,
        carrier: Carrier,
        entries: Vec<Entry>,
        pick: u8,
        value: BadValue,
    },
    /// `SHAPE-PLAN-TYPE`: `diagram-N` (or, before v2, `_diagram-N`).
    UnknownPlanType {
        session: SessionRef,
        plan: PlanRef,
        name: u8,
        underscore: bool,
    },
    /// `SHAPE-FILE-URI-ABSOLUTE` (v2): a relative `file` URI.
    RelativeFileUri {
        session: SessionRef,
        plan: PlanRef,
        file: u8,
    },
    /// `SHAPE-META`: `"_meta": 42` on the update. The message is still
    /// applied (a bad `_meta` does not stop a client from showing it).
    BadMeta { session: SessionRef, op: PlanOp },
    /// `SHAPE-UNKNOWN-FIELD`: a custom `title` member on the update. Still
    /// applied.
    UnknownMember { session: SessionRef, op: PlanOp },
    /// `SES-UNKNOWN-SESSION`: an update for `ghost-N`, never established.
    UnknownSession { ghost: u8, update: SessionUpdate },
    /// `ID-REMOVE-UNKNOWN` (a warning): `plan_removed` for a plan that is
    /// not live in the session (never created, or already removed).
    RemoveNotLive { session: SessionRef, plan: PlanRef },
    /// `TRACE-RECORD`: a broken envelope.
    BrokenEnvelope { fault: EnvelopeFault },
    /// `ENV-JSON`: a message cut short (at `cut` modulo its length, never
    /// at 0).
    TruncatedJson { cut: u16 },
    /// `ENV-VERSION`: an `agent_message_chunk` with a bad `jsonrpc`.
    WrongJsonRpcVersion {
        session: SessionRef,
        fault: VersionFault,
    },
    /// `ENV-UNKNOWN-RESPONSE`: a response to a request id nobody sent.
    UnknownResponse { from_agent: bool, stray: u8 },
}

/// A keyed plan message.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum KeyedOp {
    Update {
        plan: PlanRef,
        content: super::Content,
    },
    Remove {
        plan: PlanRef,
    },
}

/// Which message carries an entry-level violation. Legalizing picks the
/// other one when this one is not allowed in context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Carrier {
    /// The legacy `plan` update (not in v2).
    Legacy,
    /// An `items` plan of `plan_update` (needs the capability before v2).
    Keyed(PlanRef),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum MissingField {
    /// `SHAPE-ENTRY`
    EntryContent,
    /// `SHAPE-PRIORITY`
    EntryPriority,
    /// `SHAPE-STATUS`
    EntryStatus,
    /// `SHAPE-ENTRIES`
    Entries,
    /// `SHAPE-PLAN` (keyed only)
    Plan,
    /// `SHAPE-PLAN-TYPE` (keyed only)
    PlanType,
    /// `SHAPE-PLAN-ID` (keyed only)
    PlanId,
    /// `SHAPE-MARKDOWN-CONTENT` (keyed only)
    MarkdownContent,
    /// `SHAPE-FILE-URI` (keyed only)
    FileUri,
    /// `SES-UPDATE-PARAMS`
    SessionId,
    /// `SES-UPDATE-PARAMS`
    Update,
}

impl MissingField {
    pub const ALL: [MissingField; 11] = [
        MissingField::EntryContent,
        MissingField::EntryPriority,
        MissingField::EntryStatus,
        MissingField::Entries,
        MissingField::Plan,
        MissingField::PlanType,
        MissingField::PlanId,
        MissingField::MarkdownContent,
        MissingField::FileUri,
        MissingField::SessionId,
        MissingField::Update,
    ];

    pub fn rule(self) -> &'static Rule {
        use rules::{ses, shape};
        match self {
            MissingField::EntryContent => &shape::ENTRY,
            MissingField::EntryPriority => &shape::PRIORITY,
            MissingField::EntryStatus => &shape::STATUS,
            MissingField::Entries => &shape::ENTRIES,
            MissingField::Plan => &shape::PLAN,
            MissingField::PlanType => &shape::PLAN_TYPE,
            MissingField::PlanId => &shape::PLAN_ID,
            MissingField::MarkdownContent => &shape::MARKDOWN_CONTENT,
            MissingField::FileUri => &shape::FILE_URI,
            MissingField::SessionId | MissingField::Update => &ses::UPDATE_PARAMS,
        }
    }

    /// Fields of a keyed plan: only where keyed plans are allowed.
    pub fn keyed_only(self) -> bool {
        matches!(
            self,
            MissingField::Plan
                | MissingField::PlanType
                | MissingField::PlanId
                | MissingField::MarkdownContent
                | MissingField::FileUri
        )
    }

    /// Fields of a plan entry (the carrier needs at least one entry).
    pub fn in_entry(self) -> bool {
        matches!(
            self,
            MissingField::EntryContent | MissingField::EntryPriority | MissingField::EntryStatus
        )
    }
}

/// An enum value the revision does not allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum BadValue {
    /// `blocked-N` / `urgent-N`: unknown everywhere.
    Unknown(u8),
    /// A value of another revision (`cancelled` before v2); legalized to
    /// `Unknown` where there is none.
    OtherRevision,
    /// A `_`-prefixed custom value before v2; `Unknown` in v2.
    Custom(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum EnvelopeFault {
    /// `"direction": "sideways"`
    BadDirection,
    /// No `message`.
    MissingMessage,
    /// `"message": [..]`
    MessageNotObject,
    /// JSON-RPC members next to `direction` and `message`.
    MixedMembers,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum VersionFault {
    Missing,
    /// `"1.0"`
    OldVersion,
    /// `2.0` as a number.
    Number,
}

impl Violation {
    /// The rule the validator must report for this violation.
    pub fn rule(&self) -> &'static Rule {
        use rules::{cap, env, id, ses, shape, trace_format};
        match self {
            Violation::PlanOpWithoutCapability { .. } => &cap::PLAN_OPERATIONS,
            Violation::LegacyInV2 { .. } => &cap::LEGACY_IN_V2,
            Violation::WrongIdKey { .. } => &shape::PLAN_ID,
            Violation::MissingField { field, .. } => field.rule(),
            Violation::BadStatus { .. } => &shape::STATUS,
            Violation::BadPriority { .. } => &shape::PRIORITY,
            Violation::UnknownPlanType { .. } => &shape::PLAN_TYPE,
            Violation::RelativeFileUri { .. } => &shape::FILE_URI_ABSOLUTE,
            Violation::BadMeta { .. } => &shape::META,
            Violation::UnknownMember { .. } => &shape::UNKNOWN_FIELD,
            Violation::UnknownSession { .. } => &ses::UNKNOWN_SESSION,
            Violation::RemoveNotLive { .. } => &id::REMOVE_UNKNOWN,
            Violation::BrokenEnvelope { .. } => &trace_format::RECORD,
            Violation::TruncatedJson { .. } => &env::JSON,
            Violation::WrongJsonRpcVersion { .. } => &env::VERSION,
            Violation::UnknownResponse { .. } => &env::UNKNOWN_RESPONSE,
        }
    }

    /// The established session the violating message is about, if any.
    pub fn session(&self) -> Option<SessionRef> {
        match self {
            Violation::PlanOpWithoutCapability { session, .. }
            | Violation::LegacyInV2 { session, .. }
            | Violation::WrongIdKey { session, .. }
            | Violation::MissingField { session, .. }
            | Violation::BadStatus { session, .. }
            | Violation::BadPriority { session, .. }
            | Violation::UnknownPlanType { session, .. }
            | Violation::RelativeFileUri { session, .. }
            | Violation::BadMeta { session, .. }
            | Violation::UnknownMember { session, .. }
            | Violation::RemoveNotLive { session, .. }
            | Violation::WrongJsonRpcVersion { session, .. } => Some(*session),
            Violation::UnknownSession { .. }
            | Violation::BrokenEnvelope { .. }
            | Violation::TruncatedJson { .. }
            | Violation::UnknownResponse { .. } => None,
        }
    }

    /// A violation that breaks `rule`, for `acp-plan gen --inject RULE`.
    /// Its fields are placeholders that legalizing resolves. `None` for
    /// rules the generator cannot inject.
    pub fn for_rule(rule: &str) -> Option<Violation> {
        let entries = Vec::new();
        let keyed = KeyedOp::Update {
            plan: 0,
            content: super::Content::Markdown {
                text: "injected".into(),
            },
        };
        let v = match rule {
            "CAP-PLAN-OPS" => Violation::PlanOpWithoutCapability {
                session: 0,
                op: keyed,
            },
            "CAP-LEGACY-V2" => Violation::LegacyInV2 {
                session: 0,
                entries,
            },
            "SHAPE-PLAN-ID" => Violation::WrongIdKey {
                session: 0,
                op: keyed,
            },
            "SHAPE-STATUS" => Violation::BadStatus {
                session: 0,
                carrier: Carrier::Keyed(0),
                entries,
                pick: 0,
                value: BadValue::Unknown(0),
            },
            "SHAPE-PRIORITY" => Violation::BadPriority {
                session: 0,
                carrier: Carrier::Keyed(0),
                entries,
                pick: 0,
                value: BadValue::Unknown(0),
            },
            "SHAPE-PLAN-TYPE" => Violation::UnknownPlanType {
                session: 0,
                plan: 0,
                name: 0,
                underscore: false,
            },
            "SHAPE-FILE-URI-ABSOLUTE" => Violation::RelativeFileUri {
                session: 0,
                plan: 0,
                file: 0,
            },
            "SHAPE-META" => Violation::BadMeta {
                session: 0,
                op: PlanOp::Legacy {
                    entries,
                    meta: super::Meta::Absent,
                },
            },
            "SHAPE-UNKNOWN-FIELD" => Violation::UnknownMember {
                session: 0,
                op: PlanOp::Legacy {
                    entries,
                    meta: super::Meta::Absent,
                },
            },
            "SES-UNKNOWN-SESSION" => Violation::UnknownSession {
                ghost: 0,
                update: SessionUpdate::Other(super::OtherUpdate::AgentMessageChunk {
                    text: "lost".into(),
                }),
            },
            "ID-REMOVE-UNKNOWN" => Violation::RemoveNotLive {
                session: 0,
                plan: 0,
            },
            "TRACE-RECORD" => Violation::BrokenEnvelope {
                fault: EnvelopeFault::BadDirection,
            },
            "ENV-JSON" => Violation::TruncatedJson { cut: 17 },
            "ENV-VERSION" => Violation::WrongJsonRpcVersion {
                session: 0,
                fault: VersionFault::OldVersion,
            },
            "ENV-UNKNOWN-RESPONSE" => Violation::UnknownResponse {
                from_agent: true,
                stray: 0,
            },
            other => {
                let field = MissingField::ALL
                    .into_iter()
                    .find(|f| f.rule().id == other && *f != MissingField::Update)?;
                Violation::MissingField {
                    session: 0,
                    field,
                    carrier: Carrier::Keyed(0),
                    entries,
                    pick: 0,
                }
            }
        };
        Some(v)
    }

    /// Every rule id [`Violation::for_rule`] can inject.
    pub fn injectable_rules() -> Vec<&'static str> {
        let mut ids: Vec<&'static str> = rules::trace_rules()
            .map(|r| r.id)
            .filter(|id| Violation::for_rule(id).is_some())
            .collect();
        ids.dedup();
        ids
    }
}
