//! Violations the generator can inject: each renders as exactly one line
//! and must be reported as exactly one rule at that line.
//!
//! Each kind is a struct with one [`Kind`] impl that holds all it knows:
//! its rule, how it adapts to the context ([`Kind::legalize`]), the line it
//! renders ([`Kind::render`]) and its placeholder for `acp-plan gen
//! --inject RULE` ([`Kind::for_rule`]). The kinds live by rule family
//! (`cap`, `shape`, `session`, `envelope`); [`Violation`] lists them once.
//! Adding a kind is a struct and its impl in its family's file, plus one
//! row in the list at the bottom of this file.

mod cap;
mod envelope;
mod session;
mod shape;

pub use cap::{LegacyInV2, PlanOpWithoutCapability};
pub use envelope::{
    BrokenEnvelope, EnvelopeFault, TruncatedJson, UnknownResponse, VersionFault,
    WrongJsonRpcVersion,
};
pub use session::{RemoveNotLive, UnknownSession};
pub use shape::{
    BadMeta, BadPriority, BadStatus, MissingField, MissingMember, RelativeFileUri, UnknownMember,
    UnknownPlanType, WrongIdKey,
};

use super::legal::Legalizer;
use super::render::Renderer;
use super::{Content, Entry, Meta, PlanOp, PlanRef, Priority, SessionRef, Status};
use crate::catalog::Rule;
use crate::rules;

/// Everything the generator knows about one kind of violation.
pub(in crate::gen) trait Kind: Sized {
    /// For `--inject RULE`: `true` for a kind that breaks many rules in one
    /// way (leaving a member out); a kind made for the rule wins over it.
    const GENERIC: bool = false;

    /// The rule the validator must report for this violation.
    fn rule(&self) -> &'static Rule;

    /// The established session the violating message is about, if any.
    fn session(&self) -> Option<SessionRef>;

    /// This violation adapted to the context `legal` models (sessions
    /// resolved, values in the revision's vocabulary), or `None` when the
    /// context cannot host it. Kinds a conformant client applies update the
    /// model like any plan op.
    fn legalize(self, legal: &mut Legalizer) -> Option<Self>;

    /// Render the one line that breaks the rule.
    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>);

    /// A violation of `rule` whose fields are placeholders that legalizing
    /// resolves, or `None` when this kind does not break `rule`.
    fn for_rule(rule: &str) -> Option<Self>;
}

/// A keyed plan message.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum KeyedOp {
    /// A `plan_update`.
    Update {
        /// The plan's id (`plan-N`).
        plan: PlanRef,
        /// What the plan holds.
        content: Content,
    },
    /// A `plan_removed`.
    Remove {
        /// The plan's id (`plan-N`).
        plan: PlanRef,
    },
}

impl KeyedOp {
    /// A keyed op whose content uses the revision's vocabulary.
    fn legalize(self, legal: &Legalizer) -> KeyedOp {
        match self {
            KeyedOp::Update { plan, content } => KeyedOp::Update {
                plan,
                content: legal.content(content),
            },
            remove => remove,
        }
    }

    fn plan_op(&self) -> PlanOp {
        match self {
            KeyedOp::Update { plan, content } => update_op(*plan, content.clone()),
            KeyedOp::Remove { plan } => PlanOp::Remove {
                plan: *plan,
                meta: Meta::Absent,
            },
        }
    }

    /// The placeholder of `--inject`: a markdown plan.
    fn placeholder() -> KeyedOp {
        KeyedOp::Update {
            plan: 0,
            content: Content::Markdown {
                text: "injected".into(),
            },
        }
    }
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

impl Carrier {
    /// The carrier that works here, or `None`.
    fn legalize(self, legal: &Legalizer) -> Option<Carrier> {
        let (legacy, keyed) = (legal.legacy_allowed(), legal.keyed_allowed());
        match self {
            Carrier::Legacy if legacy => Some(Carrier::Legacy),
            Carrier::Keyed(plan) if keyed => Some(Carrier::Keyed(plan)),
            Carrier::Legacy if keyed => Some(Carrier::Keyed(0)),
            Carrier::Keyed(_) if legacy => Some(Carrier::Legacy),
            _ => None,
        }
    }

    /// The message that carries `content`; a legacy carrier can only carry
    /// entries (`keyed_only` content goes to `plan-0`).
    fn carry(self, content: Content, keyed_only: bool) -> PlanOp {
        match (self, content) {
            (Carrier::Legacy, Content::Items { entries }) if !keyed_only => PlanOp::Legacy {
                entries,
                meta: Meta::Absent,
            },
            (Carrier::Keyed(plan), content) => update_op(plan, content),
            (Carrier::Legacy, content) => update_op(0, content),
        }
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

impl BadValue {
    fn legalize(self, legal: &Legalizer, status: bool) -> BadValue {
        let open = legal.revision().spelling().open_enums;
        match self {
            // Only `cancelled` (a status) exists in one revision and not another.
            BadValue::OtherRevision if open || !status => BadValue::Unknown(0),
            BadValue::Custom(n) if open => BadValue::Unknown(n),
            v => v,
        }
    }

    fn text(self, status: bool) -> String {
        match (self, status) {
            (BadValue::Unknown(n), true) => format!("blocked-{n}"),
            (BadValue::Unknown(n), false) => format!("urgent-{n}"),
            (BadValue::OtherRevision, _) => "cancelled".into(),
            (BadValue::Custom(n), true) => format!("_status-{n}"),
            (BadValue::Custom(n), false) => format!("_priority-{n}"),
        }
    }
}

/// Entries for an entry-level violation: legal, and at least one.
fn violation_entries(legal: &Legalizer, entries: Vec<Entry>) -> Vec<Entry> {
    let mut entries = legal.entries(entries);
    if entries.is_empty() {
        entries.push(Entry {
            content: "write the tests".into(),
            priority: Priority::High,
            status: Status::Pending,
            meta: Meta::Absent,
        });
    }
    entries
}

fn pick_index(pick: u8, len: usize) -> u8 {
    if len == 0 {
        return 0;
    }
    u8::try_from(usize::from(pick) % len).unwrap_or(0)
}

fn update_op(plan: PlanRef, content: Content) -> PlanOp {
    PlanOp::Update {
        plan,
        content,
        plan_meta: Meta::Absent,
        meta: Meta::Absent,
    }
}

/// Declares [`Violation`], one variant per kind, and dispatches to each
/// kind's [`Kind`] impl. The order of the rows is the order `arbitrary`
/// draws variants in: append, never reorder (the fuzz corpus would change
/// meaning).
macro_rules! violations {
    ($($(#[$doc:meta])* $variant:ident($kind:ty),)+) => {
        /// One line that breaks one rule. Fields that pick a session, plan
        /// or entry are resolved by [`super::Connection::legalize`] like
        /// those of other ops.
        #[derive(Clone, Debug, PartialEq)]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        pub enum Violation {
            $($(#[$doc])* $variant($kind),)+
        }

        impl Violation {
            /// The rule the validator must report for this violation.
            pub fn rule(&self) -> &'static Rule {
                match self {
                    $(Violation::$variant(v) => v.rule(),)+
                }
            }

            /// The established session the violating message is about, if any.
            pub fn session(&self) -> Option<SessionRef> {
                match self {
                    $(Violation::$variant(v) => v.session(),)+
                }
            }

            /// A violation that breaks `rule`, for `acp-plan gen --inject
            /// RULE`. Its fields are placeholders that legalizing resolves.
            /// `None` for rules the generator cannot inject.
            pub fn for_rule(rule: &str) -> Option<Violation> {
                let mut generic = None;
                $(
                    if let Some(v) = <$kind as Kind>::for_rule(rule) {
                        if !<$kind as Kind>::GENERIC {
                            return Some(Violation::$variant(v));
                        }
                        generic = generic.or(Some(Violation::$variant(v)));
                    }
                )+
                generic
            }

            pub(in crate::gen) fn legalize(self, legal: &mut Legalizer) -> Option<Violation> {
                // A rule the revision does not have cannot be broken there
                // (SHAPE-FILE-URI since schema 1.20.0 dropped `file` plans).
                if !self.rule().applies_to(legal.revision()) {
                    return None;
                }
                match self {
                    $(Violation::$variant(v) => v.legalize(legal).map(Violation::$variant),)+
                }
            }

            pub(in crate::gen) fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
                match self {
                    $(Violation::$variant(v) => v.render(renderer, out),)+
                }
            }
        }

        $(
            impl From<$kind> for Violation {
                fn from(v: $kind) -> Violation {
                    Violation::$variant(v)
                }
            }
        )+
    };
}

violations! {
    /// `CAP-PLAN-OPS`
    PlanOpWithoutCapability(PlanOpWithoutCapability),
    /// `CAP-LEGACY-V2`
    LegacyInV2(LegacyInV2),
    /// `SHAPE-PLAN-ID`
    WrongIdKey(WrongIdKey),
    /// A required member left out (the rule depends on which).
    MissingField(MissingMember),
    /// `SHAPE-STATUS`
    BadStatus(BadStatus),
    /// `SHAPE-PRIORITY`
    BadPriority(BadPriority),
    /// `SHAPE-PLAN-TYPE`
    UnknownPlanType(UnknownPlanType),
    /// `SHAPE-FILE-URI-ABSOLUTE`
    RelativeFileUri(RelativeFileUri),
    /// `SHAPE-META`
    BadMeta(BadMeta),
    /// `SHAPE-UNKNOWN-FIELD`
    UnknownMember(UnknownMember),
    /// `SES-UNKNOWN-SESSION`
    UnknownSession(UnknownSession),
    /// `ID-REMOVE-UNKNOWN`
    RemoveNotLive(RemoveNotLive),
    /// `TRACE-RECORD`
    BrokenEnvelope(BrokenEnvelope),
    /// `ENV-JSON`
    TruncatedJson(TruncatedJson),
    /// `ENV-VERSION`
    WrongJsonRpcVersion(WrongJsonRpcVersion),
    /// `ENV-UNKNOWN-RESPONSE`
    UnknownResponse(UnknownResponse),
}

impl Violation {
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
