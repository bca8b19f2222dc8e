//! Typed plan messages, one model for all revisions.
//!
//! `rules::shape` builds these from JSON strictly; [`PlanMessage::to_update_json`]
//! writes them back in a revision's spelling. Parsing what was written gives
//! back an equal value (property-tested).

use super::Revision;
use serde_json::{Map, Value};

/// `_meta` as sent: absent (`None`), or its JSON text (an object or `null`).
pub type Meta = Option<RawMeta>;

/// The text of a `_meta` value as sent (see [`RawJson`]).
pub type RawMeta = RawJson;

/// The text of a JSON value as sent, for values no rule reads inside
/// (`_meta`, a v2 custom plan type's own members): never built into a
/// tree while the message is checked, so a hostile value costs its size
/// once. Compared by value (`{"a": 1}` equals `{"a":1}`).
#[derive(Clone, Debug)]
pub struct RawJson(Box<str>);

impl RawJson {
    /// `text` must be a JSON value (the parsers pass what serde read).
    pub fn new(text: &str) -> RawJson {
        RawJson(text.trim().into())
    }

    /// The text of `value`.
    pub fn from_value(value: &Value) -> RawJson {
        RawJson(value.to_string().into())
    }

    /// The JSON text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The value, built (for writing a message back; `null` if unreadable).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.0).unwrap_or(Value::Null)
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.0 == other.0 || self.to_value() == other.to_value()
    }
}

/// A plan-related `session/update` payload.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanMessage {
    /// The legacy `plan` update: the full list of entries.
    Legacy(LegacyPlan),
    /// `plan_update`: one keyed plan's full content.
    Update(PlanUpdate),
    /// `plan_removed`: dismiss a keyed plan.
    Removed(PlanRemoved),
}

/// The legacy `plan` session update.
#[derive(Clone, Debug, PartialEq)]
pub struct LegacyPlan {
    /// The plan's entries, in order.
    pub entries: Vec<PlanEntry>,
    /// Its `_meta`, as sent.
    pub meta: Meta,
}

/// The `plan_update` session update.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanUpdate {
    /// The plan, in full.
    pub plan: Plan,
    /// Its `_meta`, as sent.
    pub meta: Meta,
}

/// A keyed plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The plan's id.
    pub id: String,
    /// What the plan holds.
    pub content: PlanContent,
    /// Its `_meta`, as sent.
    pub meta: Meta,
}

/// What a keyed plan holds, by its `type`.
#[derive(Clone, Debug, PartialEq)]
pub enum PlanContent {
    /// `items`: a list of entries.
    Items {
        /// The entries, in order.
        entries: Vec<PlanEntry>,
    },
    /// `file`: a plan held in a file (before schema 1.20.0).
    File {
        /// The file's URI.
        uri: String,
    },
    /// `markdown`: a plan written in Markdown.
    Markdown {
        /// The Markdown text.
        content: String,
        /// The absolute path of the file that holds the plan (schema 1.20.0).
        path: Option<String>,
    },
    /// A v2 `_`-prefixed custom type, with its other members as sent (in
    /// member order; their values as text, see [`RawJson`]).
    Custom {
        /// The custom type, `_`-prefixed.
        type_name: String,
        /// The other members, in member order.
        fields: Vec<(String, RawJson)>,
    },
}

impl PlanContent {
    /// The plan's `type` as sent.
    pub fn type_name(&self) -> &str {
        match self {
            PlanContent::Items { .. } => "items",
            PlanContent::File { .. } => "file",
            PlanContent::Markdown { .. } => "markdown",
            PlanContent::Custom { type_name, .. } => type_name,
        }
    }
}

/// The `plan_removed` session update.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanRemoved {
    /// The id of the plan removed.
    pub plan_id: String,
    /// Its `_meta`, as sent.
    pub meta: Meta,
}

/// One entry of a plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanEntry {
    /// What the entry says.
    pub content: String,
    /// How important it is.
    pub priority: Priority,
    /// How far along it is.
    pub status: Status,
    /// Its `_meta`, as sent.
    pub meta: Meta,
}

/// A plan entry's `priority`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Priority {
    /// `high`.
    High,
    /// `medium`.
    Medium,
    /// `low`.
    Low,
    /// v2 only: a `_`-prefixed custom value.
    Custom(String),
}

/// A plan entry's `status`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// `pending`.
    Pending,
    /// `in_progress`.
    InProgress,
    /// `completed`.
    Completed,
    /// v2 only.
    Cancelled,
    /// v2 only: a `_`-prefixed custom value.
    Custom(String),
}

impl Priority {
    /// The priority as the wire spells it.
    pub fn as_str(&self) -> &str {
        match self {
            Priority::High => "high",
            Priority::Medium => "medium",
            Priority::Low => "low",
            Priority::Custom(s) => s,
        }
    }

    /// The known value spelled `text` (custom values are the parser's call).
    pub fn known(text: &str) -> Option<Priority> {
        match text {
            "high" => Some(Priority::High),
            "medium" => Some(Priority::Medium),
            "low" => Some(Priority::Low),
            _ => None,
        }
    }
}

impl Status {
    /// The status as the wire spells it.
    pub fn as_str(&self) -> &str {
        match self {
            Status::Pending => "pending",
            Status::InProgress => "in_progress",
            Status::Completed => "completed",
            Status::Cancelled => "cancelled",
            Status::Custom(s) => s,
        }
    }

    /// The known value spelled `text` (custom values are the parser's call).
    pub fn known(text: &str) -> Option<Status> {
        match text {
            "pending" => Some(Status::Pending),
            "in_progress" => Some(Status::InProgress),
            "completed" => Some(Status::Completed),
            "cancelled" => Some(Status::Cancelled),
            _ => None,
        }
    }

    /// Whether the entry's work is over (for the delta heuristic).
    pub fn is_finished(&self) -> bool {
        matches!(self, Status::Completed | Status::Cancelled)
    }
}

impl PlanMessage {
    /// The `sessionUpdate` discriminator of this message.
    pub fn kind(&self) -> &'static str {
        match self {
            PlanMessage::Legacy(_) => "plan",
            PlanMessage::Update(_) => "plan_update",
            PlanMessage::Removed(_) => "plan_removed",
        }
    }

    /// The `update` object of a `session/update`, spelled for `revision`.
    pub fn to_update_json(&self, revision: Revision) -> Value {
        let id_key = revision.spelling().plan_id_key;
        let mut update = Map::new();
        update.insert("sessionUpdate".into(), Value::from(self.kind()));
        match self {
            PlanMessage::Legacy(legacy) => {
                update.insert("entries".into(), entries_json(&legacy.entries));
                put_meta(&mut update, &legacy.meta);
            }
            PlanMessage::Update(u) => {
                let mut plan = Map::new();
                plan.insert("type".into(), Value::from(u.plan.content.type_name()));
                plan.insert(id_key.into(), Value::from(u.plan.id.as_str()));
                match &u.plan.content {
                    PlanContent::Items { entries } => {
                        plan.insert("entries".into(), entries_json(entries));
                    }
                    PlanContent::File { uri } => {
                        plan.insert("uri".into(), Value::from(uri.as_str()));
                    }
                    PlanContent::Markdown { content, path } => {
                        plan.insert("content".into(), Value::from(content.as_str()));
                        if let Some(path) = path {
                            plan.insert("path".into(), Value::from(path.as_str()));
                        }
                    }
                    PlanContent::Custom { fields, .. } => {
                        for (k, v) in fields {
                            plan.insert(k.clone(), v.to_value());
                        }
                    }
                }
                put_meta(&mut plan, &u.plan.meta);
                update.insert("plan".into(), Value::Object(plan));
                put_meta(&mut update, &u.meta);
            }
            PlanMessage::Removed(r) => {
                update.insert(id_key.into(), Value::from(r.plan_id.as_str()));
                put_meta(&mut update, &r.meta);
            }
        }
        Value::Object(update)
    }
}

impl PlanEntry {
    /// The entry as the wire spells it.
    pub fn to_json(&self) -> Value {
        let mut entry = Map::new();
        entry.insert("content".into(), Value::from(self.content.as_str()));
        entry.insert("priority".into(), Value::from(self.priority.as_str()));
        entry.insert("status".into(), Value::from(self.status.as_str()));
        put_meta(&mut entry, &self.meta);
        Value::Object(entry)
    }
}

fn entries_json(entries: &[PlanEntry]) -> Value {
    Value::Array(entries.iter().map(PlanEntry::to_json).collect())
}

fn put_meta(object: &mut Map<String, Value>, meta: &Meta) {
    if let Some(meta) = meta {
        object.insert("_meta".into(), meta.to_value());
    }
}
