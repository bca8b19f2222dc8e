//! What each revision of the plan rules spells and allows, as data.
//!
//! Rules consult [`Revision::spelling`] instead of matching on revisions, so a
//! new revision is a new row here, not a fork of the checks.

cli_module!(capability);
pub mod messages;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A revision of the plan rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Revision {
    /// The Plan Operations RFD as merged 2026-05-27: `planCapabilities`, plan `id`.
    #[serde(rename = "draft-2026-05")]
    Draft202605,
    /// protocolVersion 1 as in schema releases 1.3.0 to 1.17.0: capability
    /// `plan`, plan `planId`, unstable plan operations with `file` plans.
    #[serde(rename = "v1-1.17")]
    V1Schema117,
    /// protocolVersion 1 as in the newest schema release the suite knows
    /// (1.20.0): stable plan operations, `items` and `markdown` plans.
    #[serde(rename = "v1")]
    V1,
    /// protocolVersion 2 (draft) as in schema 1.17.0: plan operations are
    /// baseline, legacy `plan` is gone, `file` and `markdown` are unstable.
    #[serde(rename = "v2-1.17")]
    V2Schema117,
    /// protocolVersion 2 (Preview) as in the newest schema release the suite
    /// knows (1.20.0): `items` and `markdown` plans, `plan_removed` stable.
    #[serde(rename = "v2")]
    V2,
}

impl Revision {
    /// Oldest first within each protocol version; `auto` picks the newest
    /// release of the negotiated version.
    pub const ALL: [Revision; 5] = [
        Revision::Draft202605,
        Revision::V1Schema117,
        Revision::V1,
        Revision::V2Schema117,
        Revision::V2,
    ];

    /// The revision's name on the command line and in reports (`v1`, `v2-1.17`).
    pub fn as_str(self) -> &'static str {
        match self {
            Revision::Draft202605 => "draft-2026-05",
            Revision::V1Schema117 => "v1-1.17",
            Revision::V1 => "v1",
            Revision::V2Schema117 => "v2-1.17",
            Revision::V2 => "v2",
        }
    }

    /// The `protocolVersion` this revision is a text of.
    pub fn protocol_version(self) -> u64 {
        match self {
            Revision::Draft202605 | Revision::V1Schema117 | Revision::V1 => 1,
            Revision::V2Schema117 | Revision::V2 => 2,
        }
    }

    /// The newest revision of the same protocol version and spelling: what a
    /// citation written for an earlier release falls back to, and what `auto`
    /// picks. The draft is its own line.
    pub fn newest(self) -> Revision {
        match self {
            Revision::Draft202605 => Revision::Draft202605,
            Revision::V1Schema117 | Revision::V1 => Revision::V1,
            Revision::V2Schema117 | Revision::V2 => Revision::V2,
        }
    }

    /// Whether `self` and `other` are texts of the same protocol version
    /// with the same spelling (releases of one line).
    pub fn same_line(self, other: Revision) -> bool {
        self.newest() == other.newest()
    }

    /// Which text the revision is, for report headers and `--version`.
    pub fn release(self) -> &'static str {
        match self {
            Revision::Draft202605 => "the Plan Operations RFD as merged 2026-05-27",
            Revision::V1Schema117 => "schema releases 1.3.0 to 1.17.0",
            Revision::V1 | Revision::V2 => "schema 1.20.0 of 2026-11-20",
            Revision::V2Schema117 => "schema 1.17.0",
        }
    }

    /// The revision that reads a trace by the release before this one, for
    /// the notes of diagnostics that release would not raise.
    pub fn earlier_release(self) -> Option<Revision> {
        match self {
            Revision::V1 => Some(Revision::V1Schema117),
            Revision::V2 => Some(Revision::V2Schema117),
            _ => None,
        }
    }

    /// The spelling and vocabulary of this revision.
    pub fn spelling(self) -> &'static Spelling {
        match self {
            Revision::Draft202605 => &DRAFT_2026_05,
            Revision::V1Schema117 => &V1_SCHEMA_1_17,
            Revision::V1 => &V1,
            Revision::V2Schema117 => &V2_SCHEMA_1_17,
            Revision::V2 => &V2,
        }
    }

    /// The revisions whose plan id key is `key`, for rename hints.
    pub fn using_plan_id_key(key: &str) -> Vec<Revision> {
        Revision::ALL
            .into_iter()
            .filter(|r| r.spelling().plan_id_key == key)
            .collect()
    }

    /// The revisions whose client capability key is `key`, for rename hints.
    pub fn using_capability_key(key: &str) -> Vec<Revision> {
        Revision::ALL
            .into_iter()
            .filter(|r| r.spelling().capability_key == Some(key))
            .collect()
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Revision {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Revision::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                format!(
                    "unknown revision `{s}` (expected {})",
                    list_revisions(&Revision::ALL)
                )
            })
    }
}

/// Join revisions for messages: "v1, v2".
pub fn list_revisions(revisions: &[Revision]) -> String {
    revisions
        .iter()
        .map(|r| r.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One row of the revision table.
#[derive(Debug)]
pub struct Spelling {
    /// Key under `clientCapabilities` that advertises plan operations; `None`
    /// where plan operations need no capability (v2).
    pub capability_key: Option<&'static str>,
    /// Key that carries the plan id in `plan_update.plan` and `plan_removed`.
    pub plan_id_key: &'static str,
    /// Whether the legacy `plan` session update exists.
    pub legacy_plan: bool,
    /// Plan content types of `plan_update.plan.type`.
    pub plan_types: &'static [&'static str],
    /// Values of a plan entry's `priority`.
    pub priorities: &'static [&'static str],
    /// Values of a plan entry's `status`.
    pub statuses: &'static [&'static str],
    /// Whether `_`-prefixed custom values are allowed in `type`, `priority`
    /// and `status` (v2's open enums).
    pub open_enums: bool,
    /// Whether `file.uri` must be an absolute URI.
    pub absolute_file_uri: bool,
    /// Whether a `markdown` plan may name the file that holds it (`path`: an
    /// absolute path, or `null`), as since schema 1.20.0.
    pub markdown_path: bool,
    /// Whether a `session/resume` replay ends with the `replay_complete`
    /// session update (v2 since schema 1.20.0).
    pub replay_complete: bool,
    /// Whether the transport allows JSON-RPC batches (v2: "A client or
    /// agent MAY send an array"); v1 and the draft do not mention them.
    pub batches: bool,
    /// The members each plan object allows. The strict parser reports any
    /// other as SHAPE-UNKNOWN-FIELD; the fast path's wire structs read
    /// exactly these (`rules::shape::well_formed` tests that they agree).
    pub members: &'static PlanMembers,
}

/// The objects of the plan messages that have a fixed set of members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanObject {
    /// The `update` of a legacy `plan` session update.
    LegacyUpdate,
    /// The `update` of `plan_update`.
    PlanUpdate,
    /// The `update` of `plan_removed`.
    PlanRemoved,
    /// `plan_update.plan` of type `items`.
    ItemsPlan,
    /// `plan_update.plan` of type `file`.
    FilePlan,
    /// `plan_update.plan` of type `markdown`.
    MarkdownPlan,
    /// One entry of `entries`.
    Entry,
}

impl PlanObject {
    /// Every plan object.
    pub const ALL: [PlanObject; 7] = [
        PlanObject::LegacyUpdate,
        PlanObject::PlanUpdate,
        PlanObject::PlanRemoved,
        PlanObject::ItemsPlan,
        PlanObject::FilePlan,
        PlanObject::MarkdownPlan,
        PlanObject::Entry,
    ];
}

/// A member of a plan object: a fixed name, or the revision's plan id key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Member {
    /// A member with this fixed name.
    Named(&'static str),
    /// The plan id, under the revision's [`Spelling::plan_id_key`].
    PlanId,
}

/// The members of each [`PlanObject`], for one or more revisions.
#[derive(Debug)]
pub struct PlanMembers {
    /// Members of the legacy `plan` update.
    pub legacy_update: &'static [Member],
    /// Members of `plan_update`.
    pub plan_update: &'static [Member],
    /// Members of `plan_removed`.
    pub plan_removed: &'static [Member],
    /// Members of an `items` plan.
    pub items_plan: &'static [Member],
    /// Members of a `file` plan.
    pub file_plan: &'static [Member],
    /// Members of a `markdown` plan.
    pub markdown_plan: &'static [Member],
    /// Members of a plan entry.
    pub entry: &'static [Member],
}

impl PlanMembers {
    /// The members `object` allows.
    pub fn of(&self, object: PlanObject) -> &'static [Member] {
        match object {
            PlanObject::LegacyUpdate => self.legacy_update,
            PlanObject::PlanUpdate => self.plan_update,
            PlanObject::PlanRemoved => self.plan_removed,
            PlanObject::ItemsPlan => self.items_plan,
            PlanObject::FilePlan => self.file_plan,
            PlanObject::MarkdownPlan => self.markdown_plan,
            PlanObject::Entry => self.entry,
        }
    }
}

impl Spelling {
    /// Whether `object` has a member named `key` in this revision.
    pub fn allows(&self, object: PlanObject, key: &str) -> bool {
        self.member_names(object).any(|name| name == key)
    }

    /// The member names of `object` in this revision.
    pub fn member_names(&self, object: PlanObject) -> impl Iterator<Item = &'static str> + '_ {
        self.members.of(object).iter().map(|m| match m {
            Member::Named(name) => *name,
            Member::PlanId => self.plan_id_key,
        })
    }
}

use Member::{Named, PlanId};

/// The plan members of every revision so far (the schemas and the draft
/// agree; the id key is spelled per revision).
static PLAN_MEMBERS: PlanMembers = PlanMembers {
    legacy_update: &[Named("sessionUpdate"), Named("entries"), Named("_meta")],
    plan_update: &[Named("sessionUpdate"), Named("plan"), Named("_meta")],
    plan_removed: &[Named("sessionUpdate"), PlanId, Named("_meta")],
    items_plan: &[Named("type"), PlanId, Named("entries"), Named("_meta")],
    file_plan: &[Named("type"), PlanId, Named("uri"), Named("_meta")],
    markdown_plan: &[Named("type"), PlanId, Named("content"), Named("_meta")],
    entry: &[
        Named("content"),
        Named("priority"),
        Named("status"),
        Named("_meta"),
    ],
};

/// Schema 1.20.0: `markdown` plans may carry the `path` of their file.
static PLAN_MEMBERS_1_20: PlanMembers = PlanMembers {
    markdown_plan: &[
        Named("type"),
        PlanId,
        Named("content"),
        Named("path"),
        Named("_meta"),
    ],
    ..PLAN_MEMBERS
};

const PLAN_TYPES: &[&str] = &["items", "file", "markdown"];
/// Schema 1.20.0 dropped `file` plans.
const PLAN_TYPES_1_20: &[&str] = &["items", "markdown"];
const PRIORITIES: &[&str] = &["high", "medium", "low"];
const STATUSES_V1: &[&str] = &["pending", "in_progress", "completed"];
const STATUSES_V2: &[&str] = &["pending", "in_progress", "completed", "cancelled"];

static DRAFT_2026_05: Spelling = Spelling {
    capability_key: Some("planCapabilities"),
    plan_id_key: "id",
    legacy_plan: true,
    plan_types: PLAN_TYPES,
    priorities: PRIORITIES,
    statuses: STATUSES_V1,
    open_enums: false,
    absolute_file_uri: false,
    markdown_path: false,
    replay_complete: false,
    batches: false,
    members: &PLAN_MEMBERS,
};

static V1_SCHEMA_1_17: Spelling = Spelling {
    capability_key: Some("plan"),
    plan_id_key: "planId",
    legacy_plan: true,
    plan_types: PLAN_TYPES,
    priorities: PRIORITIES,
    statuses: STATUSES_V1,
    open_enums: false,
    absolute_file_uri: false,
    markdown_path: false,
    replay_complete: false,
    batches: false,
    members: &PLAN_MEMBERS,
};

static V1: Spelling = Spelling {
    plan_types: PLAN_TYPES_1_20,
    markdown_path: true,
    members: &PLAN_MEMBERS_1_20,
    ..V1_SCHEMA_1_17
};

static V2_SCHEMA_1_17: Spelling = Spelling {
    capability_key: None,
    plan_id_key: "planId",
    legacy_plan: false,
    plan_types: PLAN_TYPES,
    priorities: PRIORITIES,
    statuses: STATUSES_V2,
    open_enums: true,
    absolute_file_uri: true,
    markdown_path: false,
    replay_complete: false,
    batches: true,
    members: &PLAN_MEMBERS,
};

static V2: Spelling = Spelling {
    plan_types: PLAN_TYPES_1_20,
    markdown_path: true,
    replay_complete: true,
    members: &PLAN_MEMBERS_1_20,
    ..V2_SCHEMA_1_17
};

/// Every capability key any revision uses, for "other revision" detection.
pub const ALL_CAPABILITY_KEYS: &[&str] = &["plan", "planCapabilities"];
/// Every plan id key any revision uses.
pub const ALL_PLAN_ID_KEYS: &[&str] = &["planId", "id"];

/// How the revision was chosen, for the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RevisionChoice {
    /// The revision the trace is judged by.
    pub revision: Revision,
    /// Why that one (`--spec`, or what the handshake said).
    pub reason: String,
}

/// `--spec`: a fixed revision, or detection from the handshake.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpecChoice {
    /// Detect the revision from the handshake (v1 until it says otherwise).
    #[default]
    Auto,
    /// Judge by this revision, whatever the handshake says.
    Fixed(Revision),
}

impl FromStr for SpecChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "auto" {
            Ok(SpecChoice::Auto)
        } else {
            s.parse().map(SpecChoice::Fixed)
        }
    }
}
