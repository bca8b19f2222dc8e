//! SHAPE-*: the strict parser for plan messages.
//!
//! JSON syntax is serde's job; this module turns a `session/update`'s
//! `update` object into a typed [`PlanMessage`] for one revision, and reports
//! every way the object breaks that revision's shape, each at its JSON
//! pointer. Unlike the official SDK it never drops an entry: a message with a
//! bad entry is rejected whole (and the reference state is left as it was).

use crate::catalog::{
    docs, Basis, Citation, Level, RevisionCitation, Rule, ALL_REVISIONS, WITH_FILE_PLANS,
    WITH_MARKDOWN_PATH,
};
use crate::diag::Diagnostic;
use crate::spec::messages::{
    LegacyPlan, Meta, Plan, PlanContent, PlanEntry, PlanMessage, PlanRemoved, PlanUpdate, Priority,
    RawJson, RawMeta, Status,
};
use crate::spec::{list_revisions, PlanObject, Revision, Spelling, ALL_PLAN_ID_KEYS};
use crate::text::{json_type, member_pointer, shorten};
use serde_json::{Map, Value};

mod well_formed;
pub use well_formed::plan_id;
pub(crate) use well_formed::{parse_well_formed, parse_well_formed_params, parse_well_formed_rest};

/// A plan without an `entries` array where its kind needs one.
pub const ENTRIES: Rule = Rule {
    id: "SHAPE-ENTRIES",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`entries` (legacy `plan`, `items` plans) is present and an array",
    citation: Citation {
        document: docs::PLAN_V1,
        section: "Creating Plans",
        text: "entries PlanEntry[] required An array of plan entries representing the tasks to be accomplished",
        note: "items plans carry the same field (RFD: \"entries: PlanEntry[]\").",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::Draft202605,
            citation: Citation {
                document: docs::PLAN_DRAFT,
                section: "Creating Plans",
                text: "entries PlanEntry[] required An array of plan entries representing the tasks to be accomplished",
                note: "items plans carry the same field (RFD: \"entries: PlanEntry[]\").",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Item-Based Plans",
                text: "plan.entries PlanEntry[] required An array of plan entries representing the tasks to be accomplished.",
                note: "",
            },
        },
    ],
};

/// A plan entry that is not an object with a string `content`.
pub(crate) const ENTRY: Rule = Rule {
    id: "SHAPE-ENTRY",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Each plan entry is an object with a string `content`",
    citation: Citation {
        document: docs::PLAN_V1,
        section: "Plan Entries",
        text: "content string required A human-readable description of what this task aims to accomplish",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::Draft202605,
            citation: Citation {
                document: docs::PLAN_DRAFT,
                section: "Plan Entries",
                text: "content string required A human-readable description of what this task aims to accomplish",
                note: "",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Plan Entries",
                text: "content string required A human-readable description of what this task aims to accomplish",
                note: "",
            },
        },
    ],
};

/// An entry `priority` outside the revision's values.
pub const PRIORITY: Rule = Rule {
    id: "SHAPE-PRIORITY",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Entry `priority` is high, medium or low (v2: or a `_`-prefixed custom value)",
    citation: Citation {
        document: docs::PLAN_V1,
        section: "Plan Entries",
        text: "priority PlanEntryPriority required The relative importance of this task. high medium low",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::Draft202605,
            citation: Citation {
                document: docs::PLAN_DRAFT,
                section: "Plan Entries",
                text: "priority PlanEntryPriority required The relative importance of this task. high medium low",
                note: "",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Plan Entries",
                text: "Custom priorities MUST begin with _; unknown non-underscore priorities are reserved for future ACP variants.",
                note: "v2 keeps high, medium and low.",
            },
        },
    ],
};

/// An entry `status` outside the revision's values.
pub const STATUS: Rule = Rule {
    id: "SHAPE-STATUS",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Entry `status` is pending, in_progress or completed (v2: also cancelled, or a `_`-prefixed custom value)",
    citation: Citation {
        document: docs::PLAN_V1,
        section: "Plan Entries",
        text: "status PlanEntryStatus required The current execution status of this task pending in_progress completed",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::Draft202605,
            citation: Citation {
                document: docs::PLAN_DRAFT,
                section: "Plan Entries",
                text: "status PlanEntryStatus required The current execution status of this task pending in_progress completed",
                note: "",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Plan Entries",
                text: "Custom statuses MUST begin with _; unknown non-underscore statuses are reserved for future ACP variants.",
                note: "v2 lists pending, in_progress, completed and cancelled.",
            },
        },
    ],
};

/// A `plan_update` without its `plan` object.
pub const PLAN: Rule = Rule {
    id: "SHAPE-PLAN",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`plan_update` carries a `plan` object",
    citation: Citation {
        document: docs::RFD,
        section: "What we propose to do about it",
        text: "Add a new SessionUpdate variant — plan_update — that carries a plan field.",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::PLAN_V1_OPS,
                section: "Plan Operations",
                text: "plan_update carries a plan object with a type discriminator.",
                note: "",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Agent Plan",
                text: "plan_update carries a plan object with a type discriminator and a required planId so Clients can track multiple plans independently.",
                note: "",
            },
        },
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "PlanUpdate",
                text: "A content update for a plan identified by ID.",
                note: "The schema requires plan: \"Replaces the whole plan with this `planId`, even if its `type` changes.\"",
            },
        },
    ],
};

/// A `plan.type` the revision does not define.
pub(crate) const PLAN_TYPE: Rule = Rule {
    id: "SHAPE-PLAN-TYPE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`plan.type` is one of the revision's plan types (items and markdown; file before schema 1.20.0; v2: or a `_`-prefixed custom type)",
    citation: Citation {
        document: docs::RFD,
        section: "What we propose to do about it",
        text: "The plan field is a tagged union (discriminated by type) with the following variants:",
        note: "items, file and markdown.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::PLAN_V1_OPS,
                section: "Plan Operations",
                text: "plan_update carries a plan object with a type discriminator.",
                note: "Its variants are items, file and markdown.",
            },
        },
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "PlanUpdateContent",
                text: "Updated content for a plan.",
                note: "Its variants are items and markdown: schema 1.20.0 dropped file, and its reader rejects any other type (\"unknown variant\"). --spec v1-1.17 reads the earlier releases, which knew file.",
            },
        },
        RevisionCitation {
            revision: Revision::V2Schema117,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Extensibility",
                text: "Custom plan content types MUST begin with _; unknown non-underscore plan content types are reserved for future ACP variants.",
                note: "v2 defines items (stable); file and markdown are unstable.",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Extensibility",
                text: "Custom plan content types MUST begin with _; unknown non-underscore plan content types are reserved for future ACP variants.",
                note: "Schema 1.20.0 defines items and markdown; file is gone, so an unprefixed `file` is a value reserved for ACP (--spec v2-1.17 reads schema 1.17.0, which knew file).",
            },
        },
    ],
};

/// A plan or removal without the revision's id key as a string.
pub(crate) const PLAN_ID: Rule = Rule {
    id: "SHAPE-PLAN-ID",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "Every plan and `plan_removed` carries the revision's id key (`id` in the draft, `planId` since v1) as a string",
    citation: Citation {
        document: docs::PLAN_DRAFT,
        section: "Plan Operations",
        text: "Every plan format includes a required id so Clients can track multiple plans independently.",
        note: "plan_removed carries the id too (RFD: \"a plan_removed session update type that carries only a plan id\").",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::PLAN_V1_OPS,
                section: "Plan Operations",
                text: "Every plan format includes a required planId so Clients can track multiple plans independently.",
                note: "id was renamed planId in schema 1.3.0 (2026-07-01); plan_removed carries planId too.",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Extensibility",
                text: "Every plan content variant, including custom or future variants, MUST carry a planId.",
                note: "plan_removed carries planId too (schema: \"required\": [\"planId\"]).",
            },
        },
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "PlanItems, PlanMarkdown and PlanRemoved",
                text: "The plan ID to update.",
                note: "The schema requires planId (a string) in every plan; plan_removed carries it too (\"The plan ID to remove.\"). Before schema 1.3.0 it was spelled id.",
            },
        },
    ],
};

/// An empty plan id: a warning, as the schema allows it.
pub(crate) const PLAN_ID_EMPTY: Rule = Rule {
    id: "SHAPE-PLAN-ID-EMPTY",
    level: Level::Should,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A plan id is not the empty string (the schema allows it; clients key plans by it)",
    citation: Citation {
        document: docs::RFD,
        section: "Multiple Plans",
        text: "The id field on every plan variant identifies a specific plan.",
        note: "The schema allows the empty string; clients key plans by it, so the suite warns.",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::PLAN_V1_OPS,
                section: "Plan Operations",
                text: "Every plan format includes a required planId so Clients can track multiple plans independently.",
                note: "The schema allows the empty string; clients key plans by it, so the suite warns.",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::PLAN_V2,
                section: "Item-Based Plans",
                text: "plan.planId PlanId required A unique identifier for this plan within the session.",
                note: "The schema allows the empty string; clients key plans by it, so the suite warns.",
            },
        },
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "PlanId",
                text: "Unique identifier for a plan within a session.",
                note: "The schema allows the empty string; clients key plans by it, so the suite warns.",
            },
        },
    ],
};

/// A `file` plan without a string `uri`.
pub(crate) const FILE_URI: Rule = Rule {
    id: "SHAPE-FILE-URI",
    level: Level::Must,
    basis: Basis::Text,
    revisions: WITH_FILE_PLANS,
    summary: "A `file` plan carries a string `uri`",
    citation: Citation {
        document: docs::RFD,
        section: "What we propose to do about it",
        text: "Agent provides a file URI containing the plan | uri: string",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::SCHEMA_V1,
                section: "PlanFile",
                text: "\"required\": [\"planId\", \"uri\"]",
                note: "uri is a string.",
            },
        },
        RevisionCitation {
            revision: Revision::V2Schema117,
            citation: Citation {
                document: docs::SCHEMA_V2,
                section: "PlanFile",
                text: "\"required\": [\"planId\", \"uri\"]",
                note: "uri is a string of format uri.",
            },
        },
    ],
};

/// A `file` plan whose `uri` is not absolute.
pub(crate) const FILE_URI_ABSOLUTE: Rule = Rule {
    id: "SHAPE-FILE-URI-ABSOLUTE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: &[Revision::V2Schema117],
    summary: "A `file` plan's `uri` is an absolute URI (v2 before schema 1.20.0)",
    citation: Citation {
        document: docs::PLAN_V2_UNSTABLE,
        section: "File Plans",
        text: "Plan file URIs MUST be absolute.",
        note: "The schema gives uri \"format\": \"uri\" (RFC 3986).",
    },
    revision_citations: &[],
};

/// A `markdown` plan without a string `content`.
pub(crate) const MARKDOWN_CONTENT: Rule = Rule {
    id: "SHAPE-MARKDOWN-CONTENT",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "A `markdown` plan carries a string `content`",
    citation: Citation {
        document: docs::RFD,
        section: "What we propose to do about it",
        text: "Agent provides raw markdown text | content: string",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V1Schema117,
            citation: Citation {
                document: docs::SCHEMA_V1,
                section: "PlanMarkdown",
                text: "\"required\": [\"planId\", \"content\"]",
                note: "content is a string.",
            },
        },
        RevisionCitation {
            revision: Revision::V2Schema117,
            citation: Citation {
                document: docs::SCHEMA_V2,
                section: "PlanMarkdown",
                text: "\"required\": [\"planId\", \"content\"]",
                note: "content is a string.",
            },
        },
        RevisionCitation {
            revision: Revision::V1,
            citation: Citation {
                document: docs::SCHEMA_1_20_V1,
                section: "PlanMarkdown.content",
                text: "The complete plan as Markdown, not just the text that changed.",
                note: "The schema requires content, a string.",
            },
        },
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::SCHEMA_1_20_V2,
                section: "PlanMarkdown.content",
                text: "The complete plan as Markdown, not just the text that changed.",
                note: "The schema requires content, a string.",
            },
        },
    ],
};

/// A `markdown` plan whose `path` is neither a string nor null.
pub(crate) const MARKDOWN_PATH: Rule = Rule {
    id: "SHAPE-MARKDOWN-PATH",
    level: Level::Must,
    basis: Basis::Text,
    revisions: WITH_MARKDOWN_PATH,
    summary: "A `markdown` plan's `path`, when present, is a string or null (schema 1.20.0)",
    citation: Citation {
        document: docs::SCHEMA_1_20_V1,
        section: "PlanMarkdown",
        text: "The absolute path of the file that holds this plan. Omitted and `null` both mean the plan has no file. A supplied path MUST be absolute. `content` is the plan to display whether or not `path` is set.",
        note: "The schema types path as a string or null.",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::SCHEMA_1_20_V2,
            section: "PlanMarkdown",
            text: "The absolute path of the file that holds this plan. Omitted and `null` both mean the plan has no file. A supplied path MUST be absolute. `content` is the plan to display whether or not `path` is set.",
            note: "The schema types path as an AbsolutePath (a string) or null.",
        },
    }],
};

/// A `markdown` plan whose `path` is not absolute on any platform.
pub(crate) const MARKDOWN_PATH_ABSOLUTE: Rule = Rule {
    id: "SHAPE-MARKDOWN-PATH-ABSOLUTE",
    level: Level::Must,
    basis: Basis::Text,
    revisions: WITH_MARKDOWN_PATH,
    summary: "A `markdown` plan's `path` is absolute: POSIX `/...`, Windows `C:\\...` or UNC `\\\\server\\share` (schema 1.20.0)",
    citation: Citation {
        document: docs::SCHEMA_1_20_V1,
        section: "PlanMarkdown",
        text: "A supplied path MUST be absolute.",
        note: "The Agent's machine is not on the wire, so a path absolute in POSIX or in Windows syntax is taken as absolute.",
    },
    revision_citations: &[RevisionCitation {
        revision: Revision::V2,
        citation: Citation {
            document: docs::SCHEMA_1_20_V2,
            section: "AbsolutePath",
            text: "Uses the native syntax of the machine the Agent runs on, such as `/home/user/project`, `C:\\Users\\user\\project`, or `\\\\server\\share\\project`. It is not a URI.",
            note: "PlanMarkdown.path: \"A supplied path MUST be absolute.\"",
        },
    }],
};

/// A `_meta` that is neither an object nor null.
pub const META: Rule = Rule {
    id: "SHAPE-META",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "`_meta` is an object or null",
    citation: Citation {
        document: docs::EXTENSIBILITY_V1,
        section: "The _meta Field",
        text: "All types in the protocol include a _meta field with type { [key: string]: unknown } that implementations can use to attach custom information.",
        note: "The schema types _meta as \"type\": [\"object\", \"null\"].",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::EXTENSIBILITY_V2,
                section: "The _meta Field",
                text: "All types in the protocol include a _meta field with type { [key: string]: unknown } that implementations can use to attach custom information.",
                note: "The schema types _meta as \"type\": [\"object\", \"null\"].",
            },
        },
    ],
};

/// Custom members outside `_meta` at the root of a plan type.
pub(crate) const UNKNOWN_FIELD: Rule = Rule {
    id: "SHAPE-UNKNOWN-FIELD",
    level: Level::Must,
    basis: Basis::Text,
    revisions: ALL_REVISIONS,
    summary: "No custom members at the root of plan types (custom data goes under `_meta`)",
    citation: Citation {
        document: docs::EXTENSIBILITY_V1,
        section: "The _meta Field",
        text: "Implementations MUST NOT add any custom fields at the root of a type that's part of the specification. All possible names are reserved for future protocol versions.",
        note: "",
    },
    revision_citations: &[
        RevisionCitation {
            revision: Revision::V2,
            citation: Citation {
                document: docs::EXTENSIBILITY_V2,
                section: "The _meta Field",
                text: "Implementations MUST NOT add any custom fields at the root of a type that's part of the specification. All possible names are reserved for future protocol versions.",
                note: "",
            },
        },
    ],
};

/// The SHAPE-* rules, in catalog order ([`super::trace_rules`] adds the units').
pub const RULES: &[&Rule] = &[
    &ENTRIES,
    &ENTRY,
    &PRIORITY,
    &STATUS,
    &PLAN,
    &PLAN_TYPE,
    &PLAN_ID,
    &PLAN_ID_EMPTY,
    &FILE_URI,
    &FILE_URI_ABSOLUTE,
    &MARKDOWN_CONTENT,
    &MARKDOWN_PATH,
    &MARKDOWN_PATH_ABSOLUTE,
    &META,
    &UNKNOWN_FIELD,
];

/// The `sessionUpdate` kinds this parser reads.
pub const PLAN_KINDS: &[&str] = &["plan", "plan_update", "plan_removed"];

const UPDATE_POINTER: &str = "/params/update";
/// Unknown members named one by one per object; the rest are summed up.
const UNKNOWN_MEMBERS_NAMED: usize = 8;

/// The outcome of parsing one plan update.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The typed message, when the update is well-formed enough for a
    /// client to apply it.
    pub message: Option<PlanMessage>,
    /// The findings, each once: ENV-DUPLICATE-KEY for a repeated member name
    /// and whatever any reading of the update breaks.
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse the `update` object of a plan-related `session/update` from its
/// JSON text, as the validator does. An update that repeats member names
/// draws `ENV-DUPLICATE-KEY` (the official crate rejects it, other parsers
/// keep either value) and is checked under each of its readings
/// ([`crate::trace::readings`]): every value of a repeated member is
/// checked, and the message is applied (as its last reading) only when
/// every reading is well-formed.
pub(crate) fn parse_plan_update_json(
    update: &str,
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Parsed {
    let repeats = crate::trace::duplicate_members(update, MAX_REPEATS_NAMED);
    if repeats.is_empty() {
        return parse_unique_update_json(update, kind, revision, max_entries);
    }
    let mut diagnostics: Vec<Diagnostic> = repeats
        .iter()
        .map(|repeat| {
            super::env::duplicate_member(
                &format!("{UPDATE_POINTER}{}", repeat.pointer),
                &repeat.key,
                "the update is checked under each of its values",
            )
        })
        .collect();
    let mut message = None;
    let mut every_reading_applies = true;
    let mut read_any = false;
    let complete = crate::trace::each_reading(update, |text| {
        read_any = true;
        // Only the last reading's message is kept: the one before goes
        // first, so that a huge update is held once, not twice.
        message = None;
        let parsed = parse_unique_update_json(text, kind, revision, max_entries);
        for d in parsed.diagnostics {
            if !diagnostics.iter().any(|known| known.same_finding(&d)) {
                diagnostics.push(d);
            }
        }
        match parsed.message {
            Some(m) => message = Some(m),
            None => every_reading_applies = false,
        }
    });
    if !complete && read_any {
        diagnostics.push(super::env::readings_cut(UPDATE_POINTER));
    }
    every_reading_applies &= complete;
    Parsed {
        message: message.filter(|_| every_reading_applies),
        diagnostics,
    }
}

/// Repeated member names named one by one per update.
const MAX_REPEATS_NAMED: usize = 8;

fn parse_unique_update_json(
    update: &str,
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Parsed {
    match read_update(update) {
        Ok(update) => parse_plan_update(&update, kind, revision, max_entries),
        Err(e) => {
            // Grammatical JSON serde_json will not build: a number beyond
            // f64 (1e400) or an unpaired surrogate escape. Said precisely,
            // then checked as read one documented way.
            if let Some(scanned) = crate::trace::interop::scan(update, MAX_REPEATS_NAMED) {
                let mut diagnostics: Vec<Diagnostic> = scanned
                    .found
                    .iter()
                    .map(|found| {
                        super::env::unpredictable(
                            found,
                            &format!("{UPDATE_POINTER}{}", found.pointer),
                        )
                    })
                    .collect();
                let mut parsed = match read_update(&scanned.readable) {
                    Ok(readable) => parse_plan_update(&readable, kind, revision, max_entries),
                    Err(e) => unreadable(&e),
                };
                diagnostics.append(&mut parsed.diagnostics);
                return Parsed {
                    message: parsed.message,
                    diagnostics,
                };
            }
            // Nesting past serde_json's recursion limit.
            unreadable(&e)
        }
    }
}

/// The member a `_meta` object is replaced by in [`read_update`]'s tree
/// (a name no JSON text can hold: it starts with NUL).
const RAW_META_KEY: &str = "\u{0}raw _meta";

/// The member that stands for a value [`read_update`] kept as text (a
/// member no rule reads inside: a v2 custom plan type's own members, or a
/// member the type does not define, which is judged by its name).
const RAW_VALUE_KEY: &str = "\u{0}raw value";

/// Where in an update a value is, for [`read_update`]: what the parser
/// reads inside it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Depth {
    /// The update object (`sessionUpdate`, `entries`, `plan`, plan ids).
    Update,
    /// `plan` (`type`, plan ids, `entries`, `uri`, `content`).
    Plan,
    /// `entries`: entry objects.
    Entries,
    /// An entry (`content`, `priority`, `status`).
    Entry,
    /// A member whose value is due to be a string or number: only its
    /// JSON type matters when it is an array or an object.
    Scalar,
}

impl Depth {
    /// The plan objects whose members are read at this depth.
    fn objects(self) -> &'static [PlanObject] {
        match self {
            Depth::Update => &[
                PlanObject::LegacyUpdate,
                PlanObject::PlanUpdate,
                PlanObject::PlanRemoved,
            ],
            Depth::Plan => &[
                PlanObject::ItemsPlan,
                PlanObject::FilePlan,
                PlanObject::MarkdownPlan,
            ],
            Depth::Entry => &[PlanObject::Entry],
            Depth::Entries | Depth::Scalar => &[],
        }
    }

    /// The depth of member `key`'s value, or `None` for a member no rule
    /// reads inside (kept as text). A member of the object in any revision
    /// (`spec`'s tables) is read, plan ids in every spelling too; a new
    /// member whose value the parser reads inside needs a depth of its own.
    fn of(self, key: &str) -> Option<Depth> {
        let member = ALL_PLAN_ID_KEYS.contains(&key)
            || self.objects().iter().any(|&object| {
                Revision::ALL
                    .iter()
                    .any(|revision| revision.spelling().allows(object, key))
            });
        if !member {
            return None;
        }
        Some(match key {
            "plan" => Depth::Plan,
            "entries" => Depth::Entries,
            _ => Depth::Scalar,
        })
    }
}

/// An update object as a tree of what the parser reads, and no more:
/// `_meta` values are not built (an object becomes `{RAW_META_KEY: its
/// text}`, anything else an empty value of its type, all SHAPE-META
/// needs); members no rule reads inside become `{RAW_VALUE_KEY: their
/// text}`; an array or object where a string is due becomes an empty one
/// (its JSON type is all a diagnostic names). So a hostile value costs its
/// text once, never a tree. A kept text holding what readers disagree on (a
/// number beyond f64, an unpaired surrogate) fails the read, like the rest
/// of the update would, so the caller names it.
fn read_update(update: &str) -> Result<Map<String, Value>, serde_json::Error> {
    use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde::Deserializer as _;
    use serde_json::value::RawValue;
    #[derive(Clone, Copy)]
    struct Tree(Depth);
    impl<'de> DeserializeSeed<'de> for Tree {
        type Value = Value;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            d.deserialize_any(self)
        }
    }
    impl<'de> Visitor<'de> for Tree {
        type Value = Value;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_string<E>(self, v: String) -> Result<Value, E> {
            Ok(v.into())
        }
        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let mut items = Vec::new();
            if self.0 == Depth::Entries {
                while let Some(item) = seq.next_element_seed(Tree(Depth::Entry))? {
                    items.push(item);
                }
            } else {
                // Where an object or a string is due: only the type counts.
                while seq.next_element::<IgnoredAny>()?.is_some() {}
            }
            Ok(Value::Array(items))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut members = Map::new();
            if matches!(self.0, Depth::Entries | Depth::Scalar) {
                // Where an array or a string is due: only the type counts.
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                return Ok(Value::Object(members));
            }
            if self.0 == Depth::Plan {
                // Which members are read depends on `type`, which may come
                // last: take every member's text first (no tree), then read.
                let mut texts: Vec<(String, &'de RawValue)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    texts.push((key, map.next_value::<&'de RawValue>()?));
                }
                let custom = texts
                    .iter()
                    .rev()
                    .find(|(key, _)| key == "type")
                    .and_then(|(_, text)| serde_json::from_str::<String>(text.get()).ok())
                    .is_some_and(|name| name.starts_with('_'));
                for (key, text) in texts {
                    let depth = match key.as_str() {
                        "_meta" => None,
                        "type" => Some(Depth::Scalar),
                        id if ALL_PLAN_ID_KEYS.contains(&id) => Some(Depth::Scalar),
                        // A custom type's own members: no rule reads them.
                        _ if custom => None,
                        _ => Depth::Plan.of(&key),
                    };
                    let value = match depth {
                        Some(depth) => {
                            let mut de = serde_json::Deserializer::from_str(text.get());
                            Tree(depth).deserialize(&mut de).map_err(A::Error::custom)?
                        }
                        None => kept(&key, text.get()).map_err(A::Error::custom)?,
                    };
                    members.insert(key, value);
                }
                return Ok(Value::Object(members));
            }
            while let Some(key) = map.next_key::<String>()? {
                let value = match self.0.of(&key) {
                    Some(depth) if key != "_meta" => map.next_value_seed(Tree(depth))?,
                    _ => kept(&key, map.next_value::<&'de RawValue>()?.get())
                        .map_err(A::Error::custom)?,
                };
                members.insert(key, value);
            }
            Ok(Value::Object(members))
        }
    }
    /// The value of a member that is not built: `_meta` as SHAPE-META needs
    /// it, any other as its text.
    fn kept(key: &str, text: &str) -> Result<Value, &'static str> {
        if !crate::trace::is_plain(text) {
            return Err("a value readers disagree on");
        }
        let holder = |name: &str| {
            let mut holder = Map::new();
            holder.insert(name.to_owned(), Value::String(text.to_owned()));
            Value::Object(holder)
        };
        if key != "_meta" {
            return Ok(holder(RAW_VALUE_KEY));
        }
        Ok(match text.as_bytes().first() {
            Some(b'{') => holder(RAW_META_KEY),
            Some(b'[') => Value::Array(Vec::new()),
            Some(b'"') => Value::String(String::new()),
            Some(b't' | b'f') => Value::Bool(true),
            Some(b'n') => Value::Null,
            _ => Value::from(0),
        })
    }
    let mut de = serde_json::Deserializer::from_str(update);
    let value = (&mut de).deserialize_map(Tree(Depth::Update))?;
    de.end()?;
    match value {
        Value::Object(members) => Ok(members),
        _ => Err(serde_json::Error::custom("not an object")),
    }
}

/// A member's value as text: what [`read_update`] kept, or the value written
/// (for trees built elsewhere, such as the tests').
fn raw_json(value: &Value) -> RawJson {
    match value {
        Value::Object(holder) if holder.len() == 1 => match holder.get(RAW_VALUE_KEY) {
            Some(Value::String(text)) => RawJson::new(text),
            _ => RawJson::from_value(value),
        },
        _ => RawJson::from_value(value),
    }
}

fn unreadable(e: &serde_json::Error) -> Parsed {
    Parsed {
        message: None,
        diagnostics: vec![Diagnostic::new(
            &super::trace_format::LIMIT,
            format!("the update could not be read: {e}"),
        )
        .at(UPDATE_POINTER)],
    }
}

/// Parse the `update` object of a plan-related `session/update` (`kind` is
/// its `sessionUpdate`, one of [`PLAN_KINDS`]).
pub fn parse_plan_update(
    update: &Map<String, Value>,
    kind: &str,
    revision: Revision,
    max_entries: usize,
) -> Parsed {
    let mut parser = Parser {
        revision,
        spelling: revision.spelling(),
        max_entries,
        diagnostics: Vec::new(),
        rejected: false,
        plan_id: None,
    };
    let message = match kind {
        "plan" => parser.legacy(update),
        "plan_update" => parser.update(update),
        "plan_removed" => parser.removed(update),
        _ => None,
    };
    let plan_id = parser.plan_id.take();
    let mut diagnostics = parser.diagnostics;
    if let Some(plan) = plan_id {
        for d in diagnostics.iter_mut().filter(|d| d.plan.is_none()) {
            d.set_plan(&plan);
        }
    }
    Parsed {
        message: if parser.rejected { None } else { message },
        diagnostics,
    }
}

struct Parser {
    revision: Revision,
    spelling: &'static Spelling,
    max_entries: usize,
    diagnostics: Vec<Diagnostic>,
    /// Set by any violation that a client could not apply the message past.
    rejected: bool,
    plan_id: Option<String>,
}

impl Parser {
    fn reject(&mut self, diagnostic: Diagnostic) {
        self.rejected = true;
        self.diagnostics.push(diagnostic);
    }

    fn legacy(&mut self, update: &Map<String, Value>) -> Option<PlanMessage> {
        self.known_members(
            update,
            PlanObject::LegacyUpdate,
            UPDATE_POINTER,
            "the `plan` update",
        );
        let meta = self.meta(update, UPDATE_POINTER);
        let entries = self.entries(update, UPDATE_POINTER)?;
        Some(PlanMessage::Legacy(LegacyPlan { entries, meta }))
    }

    fn update(&mut self, update: &Map<String, Value>) -> Option<PlanMessage> {
        self.known_members(
            update,
            PlanObject::PlanUpdate,
            UPDATE_POINTER,
            "the `plan_update` update",
        );
        let meta = self.meta(update, UPDATE_POINTER);
        let pointer = format!("{UPDATE_POINTER}/plan");
        let plan = match update.get("plan") {
            Some(Value::Object(plan)) => self.plan(plan, &pointer),
            Some(other) => {
                self.reject(
                    Diagnostic::new(
                        &PLAN,
                        format!("`plan` is {}, not an object", json_type(other)),
                    )
                    .at(&pointer),
                );
                None
            }
            None => {
                let hint = if update.contains_key("entries") {
                    "put the plan under `plan`: {\"type\": \"items\", \"planId\": ..., \"entries\": [...]}"
                } else {
                    "add `plan`: {\"type\": ..., <id>: ..., ...}"
                };
                self.reject(
                    Diagnostic::new(&PLAN, "`plan_update` has no `plan`")
                        .at(UPDATE_POINTER)
                        .hint(hint),
                );
                None
            }
        }?;
        Some(PlanMessage::Update(PlanUpdate { plan, meta }))
    }

    fn removed(&mut self, update: &Map<String, Value>) -> Option<PlanMessage> {
        self.known_members(
            update,
            PlanObject::PlanRemoved,
            UPDATE_POINTER,
            "`plan_removed`",
        );
        let meta = self.meta(update, UPDATE_POINTER);
        let plan_id = self.plan_id(update, UPDATE_POINTER, "`plan_removed`")?;
        Some(PlanMessage::Removed(PlanRemoved { plan_id, meta }))
    }

    fn plan(&mut self, plan: &Map<String, Value>, pointer: &str) -> Option<Plan> {
        let id_key = self.spelling.plan_id_key;
        let id = self.plan_id(plan, pointer, "the plan");
        let type_pointer = format!("{pointer}/type");
        let type_name = match plan.get("type") {
            Some(Value::String(t)) => t.as_str(),
            Some(other) => {
                self.reject(
                    Diagnostic::new(
                        &PLAN_TYPE,
                        format!("`plan.type` is {}, not a string", json_type(other)),
                    )
                    .at(&type_pointer),
                );
                return None;
            }
            None => {
                self.reject(
                    Diagnostic::new(&PLAN_TYPE, "plan has no `type`")
                        .at(pointer)
                        .hint(format!(
                            "add \"type\": one of {}",
                            self.spelling.plan_types.join(", ")
                        )),
                );
                return None;
            }
        };
        let what = format!("a `{}` plan", shorten(type_name, 40));
        let known = self.spelling.plan_types.contains(&type_name);
        let content = match type_name {
            "items" if known => {
                self.known_members(plan, PlanObject::ItemsPlan, pointer, &what);
                self.entries(plan, pointer)
                    .map(|entries| PlanContent::Items { entries })
            }
            "file" if known => {
                self.known_members(plan, PlanObject::FilePlan, pointer, &what);
                self.file_uri(plan, pointer)
                    .map(|uri| PlanContent::File { uri })
            }
            "markdown" if known => {
                self.known_members(plan, PlanObject::MarkdownPlan, pointer, &what);
                let path = self.markdown_path(plan, pointer);
                let content = self.string_member(
                    plan,
                    "content",
                    pointer,
                    &MARKDOWN_CONTENT,
                    "a `markdown` plan",
                );
                match (content, path) {
                    (Some(content), Some(path)) => Some(PlanContent::Markdown { content, path }),
                    _ => None,
                }
            }
            custom if self.spelling.open_enums && custom.starts_with('_') => {
                let fields = plan
                    .iter()
                    .filter(|(k, _)| {
                        !matches!(k.as_str(), "type" | "_meta") && k.as_str() != id_key
                    })
                    .map(|(k, v)| (k.clone(), raw_json(v)))
                    .collect();
                Some(PlanContent::Custom {
                    type_name: custom.to_owned(),
                    fields,
                })
            }
            unknown => {
                let known = self.spelling.plan_types.join(", ");
                let earlier = self
                    .revision
                    .earlier_release()
                    .filter(|earlier| earlier.spelling().plan_types.contains(&unknown));
                let hint = match earlier {
                    Some(earlier) => format!(
                        "{} ({}) knows {known}; `{unknown}` plans were dropped in schema 1.20.0 \
                         (--spec {earlier} reads the trace by {})",
                        self.revision,
                        self.revision.release(),
                        earlier.release()
                    ),
                    None if self.spelling.open_enums => format!(
                        "custom plan types must start with `_` (unprefixed names are reserved \
                         for ACP); {} knows {known}",
                        self.revision
                    ),
                    None => format!("{} knows {known}", self.revision),
                };
                self.reject(
                    Diagnostic::new(
                        &PLAN_TYPE,
                        format!("unknown plan type `{}`", shorten(unknown, 60)),
                    )
                    .at(&type_pointer)
                    .hint(hint),
                );
                None
            }
        };
        let meta = self.meta(plan, pointer);
        Some(Plan {
            id: id?,
            content: content?,
            meta,
        })
    }

    /// The revision's id key of `object` (a plan, or `plan_removed`).
    fn plan_id(
        &mut self,
        object: &Map<String, Value>,
        pointer: &str,
        what: &str,
    ) -> Option<String> {
        let key = self.spelling.plan_id_key;
        let member_pointer = format!("{pointer}/{key}");
        match object.get(key) {
            Some(Value::String(id)) => {
                if id.is_empty() {
                    self.diagnostics.push(
                        Diagnostic::new(&PLAN_ID_EMPTY, format!("{what} has an empty `{key}`"))
                            .at(&member_pointer)
                            .hint("give each plan a non-empty id"),
                    );
                }
                self.plan_id = Some(id.clone());
                Some(id.clone())
            }
            Some(other) => {
                self.reject(
                    Diagnostic::new(
                        &PLAN_ID,
                        format!("`{key}` of {what} is {}, not a string", json_type(other)),
                    )
                    .at(&member_pointer),
                );
                None
            }
            None => {
                let renamed = ALL_PLAN_ID_KEYS
                    .iter()
                    .find(|k| **k != key && object.contains_key(**k));
                let diagnostic = match renamed {
                    Some(other) => {
                        if let Some(Value::String(id)) = object.get(*other) {
                            self.plan_id = Some(id.clone());
                        }
                        let users = list_revisions(&Revision::using_plan_id_key(other));
                        Diagnostic::new(
                            &PLAN_ID,
                            format!(
                                "{what} has `{other}` where {} spells the plan id `{key}`; `{other}` is the {users} spelling",
                                self.revision
                            ),
                        )
                        .at(format!("{pointer}/{other}"))
                        .hint(format!("rename `{other}` to `{key}` (or check with --spec if the trace is {users})"))
                    }
                    None => Diagnostic::new(&PLAN_ID, format!("{what} has no `{key}`"))
                        .at(pointer)
                        .hint(format!("add \"{key}\": \"...\" to identify the plan")),
                };
                self.reject(diagnostic);
                None
            }
        }
    }

    fn entries(&mut self, object: &Map<String, Value>, pointer: &str) -> Option<Vec<PlanEntry>> {
        let entries_pointer = format!("{pointer}/entries");
        let items = match object.get("entries") {
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.reject(
                    Diagnostic::new(
                        &ENTRIES,
                        format!("`entries` is {}, not an array", json_type(other)),
                    )
                    .at(&entries_pointer),
                );
                return None;
            }
            None => {
                self.reject(
                    Diagnostic::new(&ENTRIES, "`entries` is missing")
                        .at(pointer)
                        .hint("send the complete list of entries (possibly empty)"),
                );
                return None;
            }
        };
        if items.len() > self.max_entries {
            self.reject(
                Diagnostic::new(
                    &super::trace_format::LIMIT,
                    format!(
                        "plan has {} entries, over the limit of {}; it was not checked",
                        items.len(),
                        self.max_entries
                    ),
                )
                .at(&entries_pointer)
                .hint("raise --max-entries-per-plan"),
            );
            return None;
        }
        let mut entries = Vec::with_capacity(items.len());
        for (index, item) in items.iter().enumerate() {
            if let Some(entry) = self.entry(item, &format!("{entries_pointer}/{index}")) {
                entries.push(entry);
            }
        }
        (entries.len() == items.len()).then_some(entries)
    }

    fn entry(&mut self, item: &Value, pointer: &str) -> Option<PlanEntry> {
        let Value::Object(entry) = item else {
            self.reject(
                Diagnostic::new(
                    &ENTRY,
                    format!("plan entry is {}, not an object", json_type(item)),
                )
                .at(pointer),
            );
            return None;
        };
        self.known_members(entry, PlanObject::Entry, pointer, "a plan entry");
        let content = self.string_member(entry, "content", pointer, &ENTRY, "a plan entry");
        let priority = self
            .enum_member(
                entry,
                "priority",
                pointer,
                &PRIORITY,
                self.spelling.priorities,
            )
            .map(|p| Priority::known(&p).unwrap_or(Priority::Custom(p)));
        let status = self
            .enum_member(entry, "status", pointer, &STATUS, self.spelling.statuses)
            .map(|s| Status::known(&s).unwrap_or(Status::Custom(s)));
        let meta = self.meta(entry, pointer);
        Some(PlanEntry {
            content: content?,
            priority: priority?,
            status: status?,
            meta,
        })
    }

    /// `Some(None)`: no file (omitted, `null`, or a revision without
    /// `path`, where `known_members` reported it); `None`: a wrong type.
    fn markdown_path(
        &mut self,
        plan: &Map<String, Value>,
        pointer: &str,
    ) -> Option<Option<String>> {
        if !self.spelling.markdown_path {
            return Some(None);
        }
        let path = match plan.get("path") {
            None | Some(Value::Null) => return Some(None),
            Some(Value::String(path)) => path,
            Some(other) => {
                self.reject(
                    Diagnostic::new(
                        &MARKDOWN_PATH,
                        format!(
                            "`path` of a `markdown` plan is {}, not a string or null",
                            json_type(other)
                        ),
                    )
                    .at(format!("{pointer}/path"))
                    .hint("give the absolute path of the plan's file as a string, or omit `path`"),
                );
                return None;
            }
        };
        if !is_absolute_path(path) {
            let hint = if path.contains("://") || path.starts_with("file:") {
                "`path` is a file path in the Agent machine's own syntax, not a URI: e.g. /home/user/project/PLAN.md"
            } else {
                "give the full path from the root, e.g. /home/user/project/PLAN.md, C:\\Users\\user\\PLAN.md or \\\\server\\share\\PLAN.md, or omit `path`"
            };
            self.reject(
                Diagnostic::new(
                    &MARKDOWN_PATH_ABSOLUTE,
                    format!("`path` \"{}\" is not an absolute path", shorten(path, 80)),
                )
                .at(format!("{pointer}/path"))
                .hint(hint),
            );
        }
        Some(Some(path.clone()))
    }

    fn file_uri(&mut self, plan: &Map<String, Value>, pointer: &str) -> Option<String> {
        let uri = self.string_member(plan, "uri", pointer, &FILE_URI, "a `file` plan")?;
        if self.spelling.absolute_file_uri && !is_absolute_uri(&uri) {
            self.reject(
                Diagnostic::new(
                    &FILE_URI_ABSOLUTE,
                    format!("`uri` \"{}\" is not an absolute URI", shorten(&uri, 80)),
                )
                .at(format!("{pointer}/uri"))
                .hint("use an absolute URI with a scheme, e.g. file:///path/to/plan.md, and percent-encode spaces and non-ASCII characters"),
            );
        }
        Some(uri)
    }

    fn string_member(
        &mut self,
        object: &Map<String, Value>,
        key: &str,
        pointer: &str,
        rule: &'static Rule,
        what: &str,
    ) -> Option<String> {
        match object.get(key) {
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                self.reject(
                    Diagnostic::new(
                        rule,
                        format!("`{key}` of {what} is {}, not a string", json_type(other)),
                    )
                    .at(format!("{pointer}/{key}")),
                );
                None
            }
            None => {
                self.reject(Diagnostic::new(rule, format!("{what} has no `{key}`")).at(pointer));
                None
            }
        }
    }

    fn enum_member(
        &mut self,
        object: &Map<String, Value>,
        key: &str,
        pointer: &str,
        rule: &'static Rule,
        allowed: &[&str],
    ) -> Option<String> {
        let value = self.string_member(object, key, pointer, rule, "a plan entry")?;
        if allowed.contains(&value.as_str()) || (self.spelling.open_enums && value.starts_with('_'))
        {
            return Some(value);
        }
        let elsewhere: Vec<Revision> = Revision::ALL
            .into_iter()
            .filter(|r| {
                let s = r.spelling();
                let values = if key == "status" {
                    s.statuses
                } else {
                    s.priorities
                };
                values.contains(&value.as_str())
            })
            .collect();
        let mut hint = format!("{} allows {}", self.revision, allowed.join(", "));
        if self.spelling.open_enums {
            hint.push_str(", or a custom value starting with `_`");
        }
        let message = if elsewhere.is_empty() {
            format!("unknown {key} `{}`", shorten(&value, 60))
        } else {
            format!(
                "{key} `{value}` exists only in {}, not in {}",
                list_revisions(&elsewhere),
                self.revision
            )
        };
        self.reject(
            Diagnostic::new(rule, message)
                .at(format!("{pointer}/{key}"))
                .hint(hint),
        );
        None
    }

    /// `_meta` must be an object or null. A bad `_meta` does not stop a
    /// client from showing the plan, so it does not reject the message.
    fn meta(&mut self, object: &Map<String, Value>, pointer: &str) -> Meta {
        match object.get("_meta") {
            None => None,
            Some(Value::Object(meta)) => Some(match meta.get(RAW_META_KEY) {
                // Read by `read_update`: the text, never built.
                Some(Value::String(text)) if meta.len() == 1 => RawMeta::new(text),
                _ => RawMeta::from_value(&Value::Object(meta.clone())),
            }),
            Some(Value::Null) => Some(RawMeta::new("null")),
            Some(other) => {
                self.diagnostics.push(
                    Diagnostic::new(
                        &META,
                        format!("`_meta` is {}, not an object or null", json_type(other)),
                    )
                    .at(format!("{pointer}/_meta")),
                );
                None
            }
        }
    }

    /// Report members that the type does not define. Another revision's plan
    /// id key is reported by `plan_id` when it stands in for this one's.
    fn known_members(
        &mut self,
        object: &Map<String, Value>,
        kind: PlanObject,
        pointer: &str,
        what: &str,
    ) {
        let id_key = self.spelling.plan_id_key;
        let has_own_id = object.contains_key(id_key);
        let mut reported = 0;
        let mut unreported = 0;
        for key in object.keys() {
            if self.spelling.allows(kind, key) {
                continue;
            }
            let other_id_key = ALL_PLAN_ID_KEYS.contains(&key.as_str());
            if other_id_key && self.spelling.allows(kind, id_key) && !has_own_id {
                continue;
            }
            // Hostile objects can carry millions of members: name a few.
            if reported == UNKNOWN_MEMBERS_NAMED {
                unreported += 1;
                continue;
            }
            reported += 1;
            let mut diagnostic = Diagnostic::new(
                &UNKNOWN_FIELD,
                format!("`{}` is not a member of {what}", shorten(key, 60)),
            )
            .at(member_pointer(pointer, key));
            diagnostic = if other_id_key {
                let users = list_revisions(&Revision::using_plan_id_key(key));
                diagnostic.hint(format!(
                    "`{key}` is the {users} spelling of the plan id; {} uses `{id_key}`",
                    self.revision
                ))
            } else {
                diagnostic.hint("put custom data under `_meta`")
            };
            self.diagnostics.push(diagnostic);
        }
        if unreported > 0 {
            self.diagnostics.push(
                Diagnostic::new(
                    &UNKNOWN_FIELD,
                    format!("{unreported} more members that are not members of {what}"),
                )
                .at(pointer)
                .hint("put custom data under `_meta`"),
            );
        }
    }
}

/// An absolute URI: an RFC 3986 `URI` (a scheme, then a well-formed rest).
/// A scheme alone is not enough: `C:\plans\x.md` is a Windows path, and
/// spaces, backslashes and raw non-ASCII characters are not URI characters.
/// Absolute in the syntax of some machine an Agent may run on: POSIX
/// (`/home/user`), a Windows drive (`C:\\Users`, `C:/Users`) or UNC and
/// device paths (`\\\\server\\share`, `\\\\?\\C:\\x`). The machine is not on the
/// wire, so a path absolute in any of them is absolute; `C:plan.md` and
/// `\\plan.md` are relative to a drive or its current directory everywhere.
pub(crate) fn is_absolute_path(path: &str) -> bool {
    let bytes = path.as_bytes();
    match bytes {
        [b'/', ..] => true,
        [b'\\', b'\\', ..] => true,
        [drive, b':', b'\\' | b'/', ..] => drive.is_ascii_alphabetic(),
        _ => false,
    }
}

/// The v2 schema's `format: uri` asks the same of `uri`.
pub(crate) fn is_absolute_uri(uri: &str) -> bool {
    fluent_uri::Uri::parse(uri).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kept_text(value: &Value) -> Option<&str> {
        value.as_object()?.get(RAW_VALUE_KEY)?.as_str()
    }

    #[test]
    fn members_no_rule_reads_inside_are_kept_as_text() {
        // A v2 custom plan type: its own members (even one named like a
        // member of a standard type) are kept as text, never built.
        let update = r#"{"sessionUpdate":"plan_update","title":{"deep":[1]},"plan":{"data":[1,2,{"x":[3]}],"content":{"a":1},"planId":"p","type":"_acme"}}"#;
        let tree = read_update(update).unwrap();
        assert_eq!(kept_text(&tree["title"]), Some(r#"{"deep":[1]}"#));
        assert_eq!(kept_text(&tree["plan"]["data"]), Some(r#"[1,2,{"x":[3]}]"#));
        assert_eq!(kept_text(&tree["plan"]["content"]), Some(r#"{"a":1}"#));
        assert_eq!(tree["plan"]["planId"], "p");
        let parsed = parse_plan_update_json(update, "plan_update", Revision::V2, 100);
        let Some(PlanMessage::Update(u)) = parsed.message else {
            panic!("{:?}", parsed.diagnostics);
        };
        let PlanContent::Custom { type_name, fields } = &u.plan.content else {
            panic!("not custom");
        };
        assert_eq!(type_name, "_acme");
        let names: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["data", "content"]);
        assert_eq!(fields[0].1, RawJson::new(r#"[1, 2, {"x": [3]}]"#));
        // The same update as a tree built elsewhere reads the same.
        let built: Value = serde_json::from_str(update).unwrap();
        let again = parse(built, Revision::V2).message;
        assert_eq!(again, Some(PlanMessage::Update(u.clone())));
        // A standard type: the members it reads are read; an array where a
        // string is due is only its type.
        let update = r#"{"sessionUpdate":"plan_update","plan":{"type":"markdown","planId":"p","content":[0,0,0],"x":[0]}}"#;
        let tree = read_update(update).unwrap();
        assert_eq!(tree["plan"]["content"], json!([]));
        assert_eq!(kept_text(&tree["plan"]["x"]), Some("[0]"));
        let parsed = parse_plan_update_json(update, "plan_update", Revision::V2, 100);
        let rules: Vec<&str> = parsed.diagnostics.iter().map(|d| d.rule.id).collect();
        assert!(rules.contains(&"SHAPE-MARKDOWN-CONTENT"), "{rules:?}");
        assert!(parsed
            .diagnostics
            .iter()
            .any(|d| d.message.contains("an array")));
        // Half a character in a custom member is still named, and read.
        let update = r#"{"sessionUpdate":"plan_update","plan":{"type":"_acme","planId":"p","note":"a\ud800"}}"#;
        let parsed = parse_plan_update_json(update, "plan_update", Revision::V2, 100);
        assert!(parsed.message.is_some());
        let found: Vec<(&str, &str)> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.rule.id, d.pointer.as_str()))
            .collect();
        assert_eq!(
            found,
            [("ENV-UNPAIRED-SURROGATE", "/params/update/plan/note")]
        );
    }

    #[test]
    fn every_member_the_spec_defines_is_read() {
        // `read_update` keeps as text what it does not know: a member added
        // to `spec`'s tables must be read, not kept.
        for revision in Revision::ALL {
            for (depth, objects) in [
                (Depth::Update, Depth::Update.objects()),
                (Depth::Plan, Depth::Plan.objects()),
                (Depth::Entry, Depth::Entry.objects()),
            ] {
                for &object in objects {
                    for name in revision.spelling().member_names(object) {
                        assert!(
                            name == "_meta" || depth.of(name).is_some(),
                            "{revision} {object:?} `{name}`"
                        );
                    }
                }
            }
        }
    }

    fn parse(update: Value, revision: Revision) -> Parsed {
        let kind = update["sessionUpdate"].as_str().unwrap().to_owned();
        parse_plan_update(update.as_object().unwrap(), &kind, revision, 100)
    }

    fn rules(parsed: &Parsed) -> Vec<&'static str> {
        parsed.diagnostics.iter().map(|d| d.rule.id).collect()
    }

    #[test]
    fn uri_absoluteness() {
        assert!(is_absolute_uri("file:///tmp/plan.md"));
        assert!(is_absolute_uri("https://x/y"));
        assert!(!is_absolute_uri("plan.md"));
        assert!(!is_absolute_uri("/tmp/plan.md"));
        assert!(!is_absolute_uri("1abc:x"));
        assert!(!is_absolute_uri("C:\\Users\\dev\\plan.md"));
        assert!(
            is_absolute_uri("c:/Users/dev/plan.md"),
            "a valid URI with scheme c"
        );
        assert!(is_absolute_uri("urn:acp:plan"));
        assert!(is_absolute_uri("file:///tmp/a%20b.md#steps"));
        // A scheme-like prefix does not make a URI.
        assert!(!is_absolute_uri("C:\\plans\\plan.md"));
        assert!(!is_absolute_uri("file:///tmp/a b.md"));
        assert!(!is_absolute_uri("https://example.com/plän.md"));
        assert!(!is_absolute_uri("file:///tmp/%zz.md"));
    }

    #[test]
    fn path_absoluteness_in_every_syntax_an_agent_may_use() {
        for absolute in [
            "/home/user/PLAN.md",
            "//server/share/PLAN.md",
            "C:\\Users\\user\\PLAN.md",
            "c:/Users/user/PLAN.md",
            "\\\\server\\share\\PLAN.md",
            "\\\\?\\C:\\PLAN.md",
        ] {
            assert!(is_absolute_path(absolute), "{absolute}");
        }
        for relative in [
            "",
            "PLAN.md",
            "./PLAN.md",
            "../PLAN.md",
            "C:PLAN.md",
            "\\PLAN.md",
            "file:///tmp/PLAN.md",
            "1:/x",
            "é:/x",
        ] {
            assert!(!is_absolute_path(relative), "{relative}");
        }
    }

    #[test]
    fn a_markdown_path_is_read_by_schema_1_20_and_unknown_before() {
        let with = |path: Value| json!({"sessionUpdate": "plan_update", "plan": {"type": "markdown", "planId": "p", "content": "# x", "path": path}});
        for revision in [Revision::V1, Revision::V2] {
            let parsed = parse(with(json!("/tmp/PLAN.md")), revision);
            assert!(parsed.diagnostics.is_empty(), "{revision}");
            assert!(matches!(
                parsed.message,
                Some(PlanMessage::Update(PlanUpdate { plan: Plan { content: PlanContent::Markdown { path: Some(ref p), .. }, .. }, .. })) if p == "/tmp/PLAN.md"
            ));
            let null = parse(with(Value::Null), revision);
            assert!(null.diagnostics.is_empty() && null.message.is_some());
            let relative = parse(with(json!("PLAN.md")), revision);
            assert_eq!(rules(&relative), vec!["SHAPE-MARKDOWN-PATH-ABSOLUTE"]);
            assert!(relative.message.is_none());
            let number = parse(with(json!(7)), revision);
            assert_eq!(rules(&number), vec!["SHAPE-MARKDOWN-PATH"]);
        }
        for revision in [
            Revision::V1Schema117,
            Revision::V2Schema117,
            Revision::Draft202605,
        ] {
            let update = with(json!("/tmp/PLAN.md"));
            let update = if revision == Revision::Draft202605 {
                json!({"sessionUpdate": "plan_update", "plan": {"type": "markdown", "id": "p", "content": "# x", "path": "/tmp/PLAN.md"}})
            } else {
                update
            };
            assert_eq!(
                rules(&parse(update, revision)),
                vec!["SHAPE-UNKNOWN-FIELD"],
                "{revision}"
            );
        }
    }

    #[test]
    fn schema_1_20_dropped_file_plans_and_says_which_spec_reads_them() {
        let update = json!({"sessionUpdate": "plan_update", "plan": {"type": "file", "planId": "p", "uri": "file:///tmp/plan.md"}});
        for (revision, earlier) in [(Revision::V1, "v1-1.17"), (Revision::V2, "v2-1.17")] {
            let parsed = parse(update.clone(), revision);
            assert_eq!(rules(&parsed), vec!["SHAPE-PLAN-TYPE"]);
            let hint = parsed.diagnostics[0].hint.as_deref().unwrap_or_default();
            assert!(hint.contains(&format!("--spec {earlier}")), "{hint}");
            assert!(parse(update.clone(), revision.earlier_release().unwrap())
                .diagnostics
                .is_empty());
        }
    }

    #[test]
    fn v2_rejects_a_windows_path_as_file_uri() {
        let update = json!({"sessionUpdate": "plan_update", "plan": {"type": "file", "planId": "p", "uri": "C:\\plans\\plan.md"}});
        let parsed = parse(update.clone(), Revision::V2Schema117);
        assert_eq!(rules(&parsed), vec!["SHAPE-FILE-URI-ABSOLUTE"]);
        assert!(parsed.message.is_none());
        // v1 and the draft only ask for a string.
        assert!(parse(update, Revision::V1Schema117).diagnostics.is_empty());
    }

    #[test]
    fn well_formed_messages_parse_in_each_revision() {
        for revision in Revision::ALL {
            let key = revision.spelling().plan_id_key;
            let update = json!({"sessionUpdate": "plan_update", "plan": {"type": "markdown", key: "p", "content": "# x"}});
            let parsed = parse(update, revision);
            assert!(
                parsed.diagnostics.is_empty(),
                "{revision}: {:?}",
                parsed.diagnostics
            );
            assert!(parsed.message.is_some());
        }
    }

    #[test]
    fn every_bad_entry_is_reported_and_nothing_is_dropped() {
        let update = json!({"sessionUpdate": "plan", "entries": [
            {"content": "a", "priority": "urgent", "status": "pending"},
            {"content": "b", "priority": "low", "status": "done"},
            {"content": "c", "priority": "low", "status": "pending"}
        ]});
        let parsed = parse(update, Revision::V1);
        assert_eq!(rules(&parsed), vec!["SHAPE-PRIORITY", "SHAPE-STATUS"]);
        assert_eq!(
            parsed.diagnostics[0].pointer,
            "/params/update/entries/0/priority"
        );
        assert_eq!(
            parsed.diagnostics[1].pointer,
            "/params/update/entries/1/status"
        );
        assert!(parsed.message.is_none());
    }

    #[test]
    fn renamed_id_key_names_the_revision() {
        let update = json!({"sessionUpdate": "plan_removed", "id": "p"});
        let parsed = parse(update, Revision::V1);
        assert_eq!(rules(&parsed), vec!["SHAPE-PLAN-ID"]);
        assert!(
            parsed.diagnostics[0].message.contains("draft-2026-05"),
            "{}",
            parsed.diagnostics[0].message
        );
        let update = json!({"sessionUpdate": "plan_removed", "planId": "p"});
        let parsed = parse(update, Revision::Draft202605);
        assert_eq!(rules(&parsed), vec!["SHAPE-PLAN-ID"]);
        assert!(parsed.diagnostics[0].message.contains("v1, v2"));
    }

    #[test]
    fn v2_open_enums() {
        let update = json!({"sessionUpdate": "plan_update", "plan": {"type": "_acme", "planId": "p", "x": 1}});
        assert!(parse(update.clone(), Revision::V2).diagnostics.is_empty());
        assert_eq!(rules(&parse(update, Revision::V1)), vec!["SHAPE-PLAN-TYPE"]);
        let update = json!({"sessionUpdate": "plan_update", "plan": {"type": "items", "planId": "p", "entries": [
            {"content": "a", "priority": "_p", "status": "cancelled"}]}});
        assert!(parse(update.clone(), Revision::V2).diagnostics.is_empty());
        assert_eq!(
            rules(&parse(update, Revision::V1)),
            vec!["SHAPE-PRIORITY", "SHAPE-STATUS"]
        );
        let update = json!({"sessionUpdate": "plan_update", "plan": {"type": "items", "planId": "p", "entries": [
            {"content": "a", "priority": "high", "status": "blocked"}]}});
        assert_eq!(rules(&parse(update, Revision::V2)), vec!["SHAPE-STATUS"]);
    }

    #[test]
    fn a_huge_unknown_member_name_is_not_repeated() {
        let key = "k".repeat(100_000);
        let update = json!({"sessionUpdate": "plan", "entries": [], key: 1});
        let parsed = parse(update, Revision::V1);
        assert_eq!(rules(&parsed), vec!["SHAPE-UNKNOWN-FIELD"]);
        let d = &parsed.diagnostics[0];
        assert_eq!(d.pointer, "/params/update");
        assert!(d.message.len() < 200, "{}", d.message.len());
    }

    #[test]
    fn unknown_members_and_meta_do_not_reject() {
        let update = json!({"sessionUpdate": "plan", "title": "x", "_meta": 3, "entries": []});
        let parsed = parse(update, Revision::V1);
        assert_eq!(rules(&parsed), vec!["SHAPE-UNKNOWN-FIELD", "SHAPE-META"]);
        assert!(parsed.message.is_some());
    }
}
