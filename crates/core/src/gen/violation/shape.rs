//! `SHAPE-*`: plan messages whose members are missing, misspelt or out of
//! the revision's vocabulary.

use super::{pick_index, update_op, violation_entries, BadValue, Carrier, KeyedOp, Kind};
use crate::catalog::Rule;
use crate::gen::legal::Legalizer;
use crate::gen::render::{notification, other_update, EntryTweak, Renderer, Tweaks};
use crate::gen::{
    session_name, Content, Entry, FileUri, Meta, OtherUpdate, PlanOp, PlanRef, SessionRef,
};
use crate::jsonrpc::Direction;
use crate::rules::{shape, update_params};
use serde_json::json;

/// `SHAPE-PLAN-ID`: the other revisions' id key (`id` for `planId`, or the
/// reverse).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct WrongIdKey {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// The keyed message, sent with the wrong id key.
    pub op: KeyedOp,
}

impl Kind for WrongIdKey {
    fn rule(&self) -> &'static Rule {
        &shape::PLAN_ID
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        if !legal.keyed_allowed() {
            return None;
        }
        Some(WrongIdKey {
            session: legal.resolve(self.session)?,
            op: self.op.legalize(legal),
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let tweaks = Tweaks {
            id_key: Some(renderer.other_id_key()),
            ..Tweaks::default()
        };
        let update = renderer.plan_op(&self.op.plan_op(), &tweaks);
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == shape::PLAN_ID.id).then(|| WrongIdKey {
            session: 0,
            op: KeyedOp::placeholder(),
        })
    }
}

/// Which required member a [`MissingMember`] leaves out.
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
    /// Every field, in the order the generator's tests go through them.
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

    /// The rule broken when this field is missing.
    pub fn rule(self) -> &'static Rule {
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
            MissingField::SessionId | MissingField::Update => &update_params::UPDATE_PARAMS,
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

/// A required member left out (the rule depends on which).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct MissingMember {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// Which member is left out.
    pub field: MissingField,
    /// Which message carries it, for a member of an entry.
    pub carrier: Carrier,
    /// The entries of the carrier.
    pub entries: Vec<Entry>,
    /// Which entry loses the member, for a member of an entry (modulo their number).
    pub pick: u8,
}

impl Kind for MissingMember {
    const GENERIC: bool = true;

    fn rule(&self) -> &'static Rule {
        self.field.rule()
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        let session = legal.resolve(self.session)?;
        if self.field.keyed_only() && !legal.keyed_allowed() {
            return None;
        }
        let carrier = self.carrier.legalize(legal)?;
        let entries = if self.field.in_entry() {
            violation_entries(legal, self.entries)
        } else {
            legal.entries(self.entries)
        };
        let pick = pick_index(self.pick, entries.len());
        Some(MissingMember {
            session,
            field: self.field,
            carrier,
            entries,
            pick,
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let name = session_name(self.session);
        let mut tweaks = Tweaks::default();
        let items = || Content::Items {
            entries: self.entries.clone(),
        };
        let markdown = || Content::Markdown { text: "x".into() };
        let content = match self.field {
            MissingField::SessionId | MissingField::Update => {
                let chunk = other_update(
                    &OtherUpdate::AgentMessageChunk {
                        text: "hello".into(),
                    },
                    0,
                );
                let params = if self.field == MissingField::SessionId {
                    json!({"update": chunk})
                } else {
                    json!({"sessionId": name})
                };
                let message = notification("session/update", params);
                renderer.push(out, Direction::AgentToClient, message);
                return;
            }
            MissingField::EntryContent
            | MissingField::EntryPriority
            | MissingField::EntryStatus => {
                tweaks.entry = Some(usize::from(self.pick));
                tweaks.entry_tweak = Some(EntryTweak::Drop(self.field));
                items()
            }
            MissingField::Entries => {
                tweaks.drop_entries = true;
                items()
            }
            MissingField::Plan => {
                tweaks.drop_plan = true;
                items()
            }
            MissingField::PlanType => {
                tweaks.drop_type = true;
                markdown()
            }
            MissingField::PlanId => {
                tweaks.drop_id = true;
                markdown()
            }
            MissingField::MarkdownContent => {
                tweaks.drop_markdown = true;
                markdown()
            }
            MissingField::FileUri => {
                tweaks.drop_uri = true;
                Content::File {
                    uri: FileUri::Absolute(0),
                }
            }
        };
        let op = self.carrier.carry(content, self.field.keyed_only());
        let update = renderer.plan_op(&op, &tweaks);
        renderer.push_update(out, &name, update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        // `SES-UPDATE-PARAMS` by a missing `sessionId`, not `update`.
        let field = MissingField::ALL
            .into_iter()
            .find(|f| f.rule().id == rule && *f != MissingField::Update)?;
        Some(MissingMember {
            session: 0,
            field,
            carrier: Carrier::Keyed(0),
            entries: Vec::new(),
            pick: 0,
        })
    }
}

/// `SHAPE-STATUS`: an entry status the revision does not know.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BadStatus {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// Which message carries the entry.
    pub carrier: Carrier,
    /// The entries of the carrier.
    pub entries: Vec<Entry>,
    /// Which entry gets the bad status (modulo their number).
    pub pick: u8,
    /// The value sent.
    pub value: BadValue,
}

/// `SHAPE-PRIORITY`: an entry priority the revision does not know.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BadPriority {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// Which message carries the entry.
    pub carrier: Carrier,
    /// The entries of the carrier.
    pub entries: Vec<Entry>,
    /// Which entry gets the bad priority (modulo their number).
    pub pick: u8,
    /// The value sent.
    pub value: BadValue,
}

/// [`BadStatus`] and [`BadPriority`] fields in legal form: (session,
/// carrier, entries, pick).
fn legal_entry_fields(
    legal: &Legalizer,
    session: SessionRef,
    carrier: Carrier,
    entries: Vec<Entry>,
    pick: u8,
) -> Option<(SessionRef, Carrier, Vec<Entry>, u8)> {
    let entries = violation_entries(legal, entries);
    let pick = pick_index(pick, entries.len());
    Some((
        legal.resolve(session)?,
        carrier.legalize(legal)?,
        entries,
        pick,
    ))
}

/// What [`BadStatus`] and [`BadPriority`] share: one entry of a legal list
/// gets a value the revision does not know.
struct BadEntryValue<'a> {
    session: SessionRef,
    carrier: Carrier,
    entries: &'a [Entry],
    pick: u8,
    tweak: EntryTweak,
}

impl BadEntryValue<'_> {
    fn render(self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let tweaks = Tweaks {
            entry: Some(usize::from(self.pick)),
            entry_tweak: Some(self.tweak),
            ..Tweaks::default()
        };
        let content = Content::Items {
            entries: self.entries.to_vec(),
        };
        let op = self.carrier.carry(content, false);
        let update = renderer.plan_op(&op, &tweaks);
        renderer.push_update(out, &session_name(self.session), update);
    }
}

impl Kind for BadStatus {
    fn rule(&self) -> &'static Rule {
        &shape::STATUS
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        let (session, carrier, entries, pick) =
            legal_entry_fields(legal, self.session, self.carrier, self.entries, self.pick)?;
        Some(BadStatus {
            session,
            carrier,
            entries,
            pick,
            value: self.value.legalize(legal, true),
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        BadEntryValue {
            session: self.session,
            carrier: self.carrier,
            entries: &self.entries,
            pick: self.pick,
            tweak: EntryTweak::Status(self.value.text(true)),
        }
        .render(renderer, out);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == shape::STATUS.id).then(|| BadStatus {
            session: 0,
            carrier: Carrier::Keyed(0),
            entries: Vec::new(),
            pick: 0,
            value: BadValue::Unknown(0),
        })
    }
}

impl Kind for BadPriority {
    fn rule(&self) -> &'static Rule {
        &shape::PRIORITY
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        let (session, carrier, entries, pick) =
            legal_entry_fields(legal, self.session, self.carrier, self.entries, self.pick)?;
        Some(BadPriority {
            session,
            carrier,
            entries,
            pick,
            value: self.value.legalize(legal, false),
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        BadEntryValue {
            session: self.session,
            carrier: self.carrier,
            entries: &self.entries,
            pick: self.pick,
            tweak: EntryTweak::Priority(self.value.text(false)),
        }
        .render(renderer, out);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == shape::PRIORITY.id).then(|| BadPriority {
            session: 0,
            carrier: Carrier::Keyed(0),
            entries: Vec::new(),
            pick: 0,
            value: BadValue::Unknown(0),
        })
    }
}

/// `SHAPE-PLAN-TYPE`: `diagram-N` (or, before v2, `_diagram-N`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UnknownPlanType {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// The plan's id (`plan-N`).
    pub plan: PlanRef,
    /// `N` of `diagram-N`.
    pub name: u8,
    /// Prefix the type with `_` (a custom type before v2, where that is still unknown; v2
    /// allows it, so legalizing clears it).
    pub underscore: bool,
}

impl Kind for UnknownPlanType {
    fn rule(&self) -> &'static Rule {
        &shape::PLAN_TYPE
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        if !legal.keyed_allowed() {
            return None;
        }
        Some(UnknownPlanType {
            session: legal.resolve(self.session)?,
            // v2 allows `_`-prefixed custom types.
            underscore: self.underscore && !legal.revision().spelling().open_enums,
            ..self
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let prefix = if self.underscore { "_" } else { "" };
        let tweaks = Tweaks {
            type_name: Some(format!("{prefix}diagram-{}", self.name)),
            ..Tweaks::default()
        };
        let op = update_op(self.plan, Content::Markdown { text: "x".into() });
        let update = renderer.plan_op(&op, &tweaks);
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == shape::PLAN_TYPE.id).then_some(UnknownPlanType {
            session: 0,
            plan: 0,
            name: 0,
            underscore: false,
        })
    }
}

/// `SHAPE-FILE-URI-ABSOLUTE` (v2): a relative `file` URI.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RelativeFileUri {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// The plan's id (`plan-N`).
    pub plan: PlanRef,
    /// `N` of the relative URI `plans/plan-N.md`.
    pub file: u8,
}

impl Kind for RelativeFileUri {
    fn rule(&self) -> &'static Rule {
        &shape::FILE_URI_ABSOLUTE
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        if !legal.revision().spelling().absolute_file_uri || !legal.keyed_allowed() {
            return None;
        }
        Some(RelativeFileUri {
            session: legal.resolve(self.session)?,
            ..self
        })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let tweaks = Tweaks {
            uri: Some(FileUri::Relative(self.file).render()),
            ..Tweaks::default()
        };
        let content = Content::File {
            uri: FileUri::Absolute(self.file),
        };
        let update = renderer.plan_op(&update_op(self.plan, content), &tweaks);
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == shape::FILE_URI_ABSOLUTE.id).then_some(RelativeFileUri {
            session: 0,
            plan: 0,
            file: 0,
        })
    }
}

/// `SHAPE-META`: `"_meta": 42` on the update. The message is still applied
/// (a bad `_meta` does not stop a client from showing it).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BadMeta {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// The plan message, sent with `"_meta": 42`.
    pub op: PlanOp,
}

impl Kind for BadMeta {
    fn rule(&self) -> &'static Rule {
        &shape::META
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        let (session, op) = legal_applied_op(legal, self.session, self.op)?;
        Some(BadMeta { session, op })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let tweaks = Tweaks {
            bad_update_meta: true,
            ..Tweaks::default()
        };
        let update = renderer.plan_op(&self.op, &tweaks);
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == shape::META.id).then(|| BadMeta {
            session: 0,
            op: legacy_placeholder(),
        })
    }
}

/// `SHAPE-UNKNOWN-FIELD`: a custom `title` member on the update. Still
/// applied.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct UnknownMember {
    /// The session the message is sent on.
    pub session: SessionRef,
    /// The plan message, sent with a `title` member.
    pub op: PlanOp,
}

impl Kind for UnknownMember {
    fn rule(&self) -> &'static Rule {
        &shape::UNKNOWN_FIELD
    }

    fn session(&self) -> Option<SessionRef> {
        Some(self.session)
    }

    fn legalize(self, legal: &mut Legalizer) -> Option<Self> {
        let (session, op) = legal_applied_op(legal, self.session, self.op)?;
        Some(UnknownMember { session, op })
    }

    fn render(&self, renderer: &mut Renderer, out: &mut Vec<String>) {
        let tweaks = Tweaks {
            extra_member: true,
            ..Tweaks::default()
        };
        let update = renderer.plan_op(&self.op, &tweaks);
        renderer.push_update(out, &session_name(self.session), update);
    }

    fn for_rule(rule: &str) -> Option<Self> {
        (rule == shape::UNKNOWN_FIELD.id).then(|| UnknownMember {
            session: 0,
            op: legacy_placeholder(),
        })
    }
}

/// [`BadMeta`] and [`UnknownMember`] in legal form: a conformant client
/// applies them, so they are part of the model like any plan op.
fn legal_applied_op(
    legal: &mut Legalizer,
    session: SessionRef,
    op: PlanOp,
) -> Option<(SessionRef, PlanOp)> {
    let session = legal.resolve(session)?;
    Some((session, legal.plan_op(session, op)?))
}

/// The placeholder of `--inject` for kinds that bend any plan op.
fn legacy_placeholder() -> PlanOp {
    PlanOp::Legacy {
        entries: Vec::new(),
        meta: Meta::Absent,
    }
}
